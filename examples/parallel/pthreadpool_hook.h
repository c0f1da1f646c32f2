/* pthreadpool_hook.h: libwherec's parallel hook on a pthreadpool (XNNPACK's pool;
   Debian's libpthreadpool-dev), an example adapter:
     pthreadpool_t pool = pthreadpool_create(0);    0: one thread per core
     wc_set_parallel(parallel_pthreadpool, pool);
   Link -lpthreadpool. */
#ifndef WHEREC_EXAMPLE_PARALLEL_PTHREADPOOL_HOOK_H
#define WHEREC_EXAMPLE_PARALLEL_PTHREADPOOL_HOOK_H

#include <wherec/wherec.h>

/* A wc_parallel_fn whose ctx is a pthreadpool_t: pthreadpool_parallelize_1d,
   whose task type is wc_task_fn's (void (*)(void *, size_t)). pthreadpool runs
   calls from several threads one after another; a call from one of its own
   tasks would deadlock, which the runtime never makes. */
void parallel_pthreadpool(void *pool, wc_task_fn task, void *task_ctx, size_t n_tasks);

#endif
