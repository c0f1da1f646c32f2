/* pool.c: a persistent pthread pool for wc_set_parallel: workers spin briefly, then
   sleep on a condition variable, wake for each call and claim task indices from a counter. */
#include "run/pool.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>

/* The claim word: the call's generation in the high 32 bits, the next task
   index in the low 32. A worker that wakes after its call ended finds another
   generation and claims nothing, so the caller never waits for a worker that
   has not started: a busy core costs the call only the tasks it took. */
#define GEN_SHIFT 32
#define IDX_MASK  ((UINT64_C(1) << GEN_SHIFT) - 1)

/* Waking a sleeping thread costs tens of microseconds on a VM, as much as a
   1 MiB call takes: a worker spins this long for the next call before it
   sleeps, and the caller as long for the tasks the workers took. */
#define SPIN_NS 50000

struct pool {
  pthread_mutex_t  call; /* one call at a time */
  pthread_mutex_t  lock; /* guards the fields below it, up to claim */
  pthread_cond_t   wake; /* workers: a new call, or stop */
  pthread_cond_t   done; /* the caller: the last task finished */
  uint32_t         gen;  /* of the current call */
  bool             stop;
  wc_task_fn       task; /* the current call */
  void            *task_ctx;
  size_t           n_tasks;
  _Atomic uint32_t gen_seen; /* gen, for workers spinning outside the lock */
  _Atomic uint64_t claim;    /* generation << 32 | next task index */
  atomic_size_t    finished; /* tasks of the current call that have returned */
  int              n_workers;
  pthread_t       *tid;
};

/* The pool whose task this thread is running: a nested call runs inline. */
static _Thread_local const pool *inside;

/* Claims and runs tasks of call `gen` while there are any; the thread that
   finishes the last one wakes the caller. */
static void take_tasks(pool *p, uint32_t gen, wc_task_fn task, void *ctx, size_t n) {
  const pool *outer = inside;
  uint64_t    v = atomic_load_explicit(&p->claim, memory_order_relaxed);
  inside = p;
  while ((uint32_t)(v >> GEN_SHIFT) == gen && (v & IDX_MASK) < n) {
    if (!atomic_compare_exchange_weak_explicit(&p->claim, &v, v + 1, memory_order_relaxed,
                                               memory_order_relaxed))
      continue; /* v reloaded */
    task(ctx, (size_t)(v & IDX_MASK));
    if (atomic_fetch_add_explicit(&p->finished, 1, memory_order_acq_rel) + 1 == n) {
      pthread_mutex_lock(&p->lock);
      pthread_cond_signal(&p->done);
      pthread_mutex_unlock(&p->lock);
    }
    v = atomic_load_explicit(&p->claim, memory_order_relaxed);
  }
  inside = outer;
}

static double now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static void cpu_relax(void) {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}

/* Spins up to SPIN_NS until the next call's generation differs from seen. */
static void spin_for_call(pool *p, uint32_t seen) {
  double end = now_ns() + SPIN_NS;
  for (unsigned i = 1; atomic_load_explicit(&p->gen_seen, memory_order_relaxed) == seen; i++) {
    cpu_relax();
    if (i % 64 == 0 && now_ns() > end) return;
  }
}

/* Spins up to SPIN_NS until n tasks have finished; true if they have. */
static bool spin_for_tasks(pool *p, size_t n) {
  double end = now_ns() + SPIN_NS;
  for (unsigned i = 1; atomic_load_explicit(&p->finished, memory_order_acquire) < n; i++) {
    cpu_relax();
    if (i % 64 == 0 && now_ns() > end) return false;
  }
  return true;
}

static void *worker(void *arg) {
  pool    *p = arg;
  uint32_t seen = 0;
  pthread_mutex_lock(&p->lock);
  for (;;) {
    if (p->gen == seen && !p->stop) {
      pthread_mutex_unlock(&p->lock);
      spin_for_call(p, seen);
      pthread_mutex_lock(&p->lock);
    }
    while (p->gen == seen && !p->stop) pthread_cond_wait(&p->wake, &p->lock);
    if (p->stop) break;
    seen = p->gen;
    wc_task_fn task = p->task;
    void      *ctx = p->task_ctx;
    size_t     n = p->n_tasks;
    pthread_mutex_unlock(&p->lock);
    take_tasks(p, seen, task, ctx, n);
    pthread_mutex_lock(&p->lock);
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
  atomic_init(&p->claim, 0);
  atomic_init(&p->gen_seen, 0);
  atomic_init(&p->finished, 0);
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
  if (p->n_workers == 0 || n_tasks < 2 || n_tasks > IDX_MASK || inside == p) {
    for (size_t i = 0; i < n_tasks; i++) task(task_ctx, i);
    return;
  }
  pthread_mutex_lock(&p->call);
  pthread_mutex_lock(&p->lock);
  uint32_t gen = ++p->gen;
  atomic_store_explicit(&p->gen_seen, gen, memory_order_relaxed);
  p->task = task;
  p->task_ctx = task_ctx;
  p->n_tasks = n_tasks;
  atomic_store_explicit(&p->finished, 0, memory_order_relaxed);
  atomic_store_explicit(&p->claim, (uint64_t)gen << GEN_SHIFT, memory_order_relaxed);
  pthread_cond_broadcast(&p->wake);
  pthread_mutex_unlock(&p->lock);
  take_tasks(p, gen, task, task_ctx, n_tasks);
  if (!spin_for_tasks(p, n_tasks)) {
    pthread_mutex_lock(&p->lock);
    while (atomic_load_explicit(&p->finished, memory_order_acquire) < n_tasks)
      pthread_cond_wait(&p->done, &p->lock);
    pthread_mutex_unlock(&p->lock);
  }
  pthread_mutex_unlock(&p->call);
}
