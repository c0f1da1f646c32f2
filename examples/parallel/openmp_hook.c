/* openmp_hook.c: the parallel hook of libwherec over OpenMP: each of the runtime's
   tasks is one iteration of a dynamically scheduled parallel loop. */
#include "openmp_hook.h"

void parallel_openmp(void *ctx, wc_task_fn task, void *task_ctx, size_t n_tasks) {
  (void)ctx;
#pragma omp parallel for schedule(dynamic)
  for (size_t i = 0; i < n_tasks; i++) task(task_ctx, i);
}
