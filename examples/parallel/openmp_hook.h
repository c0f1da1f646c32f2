/* openmp_hook.h: libwherec's parallel hook on OpenMP's threads (an example adapter):
   wc_set_parallel(parallel_openmp, NULL). Build openmp_hook.c with -fopenmp. */
#ifndef WHEREC_EXAMPLE_PARALLEL_OPENMP_HOOK_H
#define WHEREC_EXAMPLE_PARALLEL_OPENMP_HOOK_H

#include <wherec/wherec.h>

/* A wc_parallel_fn: the tasks as one `omp parallel for` (dynamic schedule, so
   a busy core takes fewer); ctx unused. Inside a parallel region OpenMP runs
   the nested loop on the calling thread (nesting is off by default). */
void parallel_openmp(void *ctx, wc_task_fn task, void *task_ctx, size_t n_tasks);

#endif
