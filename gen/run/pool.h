/* pool.h: a small persistent pthread pool whose pool_parallel is a wc_parallel_fn
   (wc_set_parallel(pool_parallel, pool)): `wherec run --threads N`, the tests, the bench. */
#ifndef WHEREC_GEN_POOL_H
#define WHEREC_GEN_POOL_H

#include <stddef.h>

#include <wherec/wherec.h>

typedef struct pool pool;

/* A pool of n_threads threads in all: the caller of pool_parallel and
   n_threads - 1 workers, which sleep between calls. NULL when out of memory
   or when a thread cannot start; n_threads <= 1 is a pool of no workers. */
pool *pool_create(int n_threads);
/* Stops and joins the workers; no call may be running. NULL: nothing. */
void pool_destroy(pool *p);

/* wc_parallel_fn: runs task(task_ctx, i) for every i < n_tasks on the
   workers and the calling thread (each takes the next index), and returns
   when all are done. Calls from several threads run one after another; a
   call from inside one of p's tasks runs inline on that thread. */
void pool_parallel(void *p, wc_task_fn task, void *task_ctx, size_t n_tasks);

#endif
