/* threads.c: one kernel call split over threads with P_K_range, as a runtime's
   thread pool would: each thread computes its own slice of the flat output. */
#include <errno.h>
#include <pthread.h>

#include "bench.h"

/* P_K_range(extents..., inputs..., out, begin, end) writes exactly the
   output elements [begin, end), so the slices need no coordination and any
   split gives the same bytes. A direct call for a float32 kernel reads

     bk_same_float_range(N, c, x, y, out, 0, N / 2);         thread 1
     bk_same_float_range(N, c, x, y, out, N / 2, N);         thread 2

   Here the kernel comes from its table (k->range calls P_K_range with the
   extents and inputs unpacked), so one worker serves every kernel. */
#define THREADS_MAX 64
#define THREADS_ALIGN 64   /* slice bounds on 64-element boundaries: no shared cache lines */

typedef struct slice {
  const wc_kernel   *k;
  const size_t      *ext;
  const void *const *in;
  void              *out;
  size_t             begin, end;   /* flat output elements of this thread */
} slice;

static void *run_slice(void *arg) {
  const slice *s = arg;
  s->k->range(s->ext, s->in, s->out, s->begin, s->end);
  return NULL;
}

int threads_run(const wc_kernel *k, const size_t *ext, const void *const *in, void *out,
                size_t count, int n_threads) {
  pthread_t tid[THREADS_MAX];
  slice part[THREADS_MAX];
  int started = 0, err = 0;
  if (n_threads < 1 || n_threads > THREADS_MAX || k->range == NULL) return EINVAL;
  for (int t = 0; t < n_threads; t++) {
    size_t b = count / (size_t)n_threads * (size_t)t, e = count / (size_t)n_threads * (size_t)(t + 1);
    part[t] = (slice){k, ext, in, out, b - b % THREADS_ALIGN,
                      t == n_threads - 1 ? count : e - e % THREADS_ALIGN};
  }
  for (int t = 1; t < n_threads; t++) {
    if ((err = pthread_create(&tid[t], NULL, run_slice, &part[t])) != 0) break;
    started = t;
  }
  run_slice(&part[0]);   /* the calling thread takes a slice instead of waiting idle */
  for (int t = 1; t <= started; t++) pthread_join(tid[t], NULL);
  for (int t = started + 1; t < n_threads; t++) run_slice(&part[t]);   /* threads that did not start */
  return err;   /* the output is complete even then */
}
