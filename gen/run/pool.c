/* pool.c: a persistent pthread pool for wc_set_parallel: workers sleep on a
   condition variable, wake for each call and take task indices from a counter. */
#include "run/pool.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>

struct pool {
  pthread_mutex_t call;       /* one call at a time */
  pthread_mutex_t lock;       /* guards the fields below it */
  pthread_cond_t  wake;       /* workers: a new call, or stop */
  pthread_cond_t  done;       /* the caller: the last worker left the call */
  unsigned long   generation; /* bumped per call */
  int             busy;       /* workers still in the current call */
  bool            stop;
  wc_task_fn      task;       /* the current call */
  void           *task_ctx;
  size_t          n_tasks;
  atomic_size_t   next;       /* the next task index to take */
  int             n_workers;
  pthread_t      *tid;
};

/* The pool whose task this thread is running: a nested call runs inline. */
static _Thread_local const pool *inside;

static void take_tasks(pool *p, wc_task_fn task, void *ctx, size_t n) {
  const pool *outer = inside;
  inside = p;
  for (size_t i; (i = atomic_fetch_add_explicit(&p->next, 1, memory_order_relaxed)) < n;)
    task(ctx, i);
  inside = outer;
}

static void *worker(void *arg) {
  pool         *p = arg;
  unsigned long seen = 0;
  pthread_mutex_lock(&p->lock);
  for (;;) {
    while (p->generation == seen && !p->stop) pthread_cond_wait(&p->wake, &p->lock);
    if (p->stop) break;
    seen = p->generation;
    wc_task_fn task = p->task;
    void      *ctx = p->task_ctx;
    size_t     n = p->n_tasks;
    pthread_mutex_unlock(&p->lock);
    take_tasks(p, task, ctx, n);
    pthread_mutex_lock(&p->lock);
    if (--p->busy == 0) pthread_cond_signal(&p->done);
  }
  pthread_mutex_unlock(&p->lock);
  return NULL;
}

pool *pool_create(int n_threads) {
  pool *p = calloc(1, sizeof *p);
  int   want = n_threads > 1 ? n_threads - 1 : 0;
  if (p == NULL) return NULL;
  pthread_mutex_init(&p->call, NULL);
  pthread_mutex_init(&p->lock, NULL);
  pthread_cond_init(&p->wake, NULL);
  pthread_cond_init(&p->done, NULL);
  atomic_init(&p->next, 0);
  if (want && (p->tid = calloc((size_t)want, sizeof *p->tid)) == NULL) {
    pool_destroy(p);
    return NULL;
  }
  for (; p->n_workers < want; p->n_workers++)
    if (pthread_create(&p->tid[p->n_workers], NULL, worker, p) != 0) {
      pool_destroy(p);
      return NULL;
    }
  return p;
}

void pool_destroy(pool *p) {
  if (p == NULL) return;
  pthread_mutex_lock(&p->lock);
  p->stop = true;
  pthread_cond_broadcast(&p->wake);
  pthread_mutex_unlock(&p->lock);
  for (int i = 0; i < p->n_workers; i++) pthread_join(p->tid[i], NULL);
  pthread_cond_destroy(&p->done);
  pthread_cond_destroy(&p->wake);
  pthread_mutex_destroy(&p->lock);
  pthread_mutex_destroy(&p->call);
  free(p->tid);
  free(p);
}

void pool_parallel(void *arg, wc_task_fn task, void *task_ctx, size_t n_tasks) {
  pool *p = arg;
  if (p->n_workers == 0 || n_tasks < 2 || inside == p) {
    for (size_t i = 0; i < n_tasks; i++) task(task_ctx, i);
    return;
  }
  pthread_mutex_lock(&p->call);
  pthread_mutex_lock(&p->lock);
  p->task = task;
  p->task_ctx = task_ctx;
  p->n_tasks = n_tasks;
  atomic_store_explicit(&p->next, 0, memory_order_relaxed);
  p->busy = p->n_workers;
  p->generation++;
  pthread_cond_broadcast(&p->wake);
  pthread_mutex_unlock(&p->lock);
  take_tasks(p, task, task_ctx, n_tasks);
  pthread_mutex_lock(&p->lock);
  while (p->busy > 0) pthread_cond_wait(&p->done, &p->lock);
  pthread_mutex_unlock(&p->lock);
  pthread_mutex_unlock(&p->call);
}
