/* pthreadpool_hook.c: the parallel hook of libwherec over pthreadpool: the runtime's
   tasks are pthreadpool's 1-d range (work stealing balances a busy core). */
#include <pthreadpool.h>

#include "pthreadpool_hook.h"

void parallel_pthreadpool(void *pool, wc_task_fn task, void *task_ctx, size_t n_tasks) {
  pthreadpool_parallelize_1d((pthreadpool_t)pool, task, task_ctx, n_tasks, 0);
}
