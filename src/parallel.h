/* parallel.h: the parallel split (parallel.c): the host's hook, and the runs of
   flat output ranges that wc_run, wc_plan_run and wc_where split through it. */
#ifndef WHEREC_SRC_PARALLEL_H
#define WHEREC_SRC_PARALLEL_H

#include <stdatomic.h>
#include <stdbool.h>

#include <wherec/wherec.h>

/* Output bytes from which a call splits: SIZE_MAX while no hook is installed,
   so that the serial hot path pays one load and one compare. */
extern atomic_size_t wc__parallel_min_bytes;

static inline bool wc__parallel_splits(size_t out_bytes) {
  return out_bytes >= atomic_load_explicit(&wc__parallel_min_bytes, memory_order_relaxed);
}

/* Computes flat output elements [begin, end) of one call. */
typedef void (*wc__body_fn)(void *ctx, size_t begin, size_t end);

/* Runs body over [0, count) elements of w bytes at out: one call on this
   thread when the call does not split (or splits into one task), else tasks
   of disjoint ranges through the hook. */
void wc__parallel_for(size_t count, size_t w, const void *out, wc__body_fn body, void *ctx);
/* The same in whole rows of `row` elements (count a multiple of it, row >= 1):
   a kernel with row reductions computes a row in one task. */
void wc__parallel_rows(size_t count, size_t w, size_t row, const void *out, wc__body_fn body,
                       void *ctx);

/* A kernel's range invoker over its whole output, split like wc__parallel_rows
   (row: 1, or a row reduction's row). */
void wc__parallel_range(wc_range_fn range, const size_t *ext, const void *const *in, void *out,
                        size_t count, size_t w, size_t row);

static inline void wc__run_range(wc_range_fn range, const size_t *ext, const void *const *in,
                                 void *out, size_t count, size_t w, size_t row) {
  if (wc__parallel_splits(count * w)) wc__parallel_range(range, ext, in, out, count, w, row);
  else range(ext, in, out, 0, count);
}

/* A kernel of several outputs over its whole output, split like
   wc__parallel_rows by output 0 (w its element width). */
void wc__run_outs(wc_outs_range_fn range, const size_t *ext, const void *const *in,
                  void *const *outs, size_t count, size_t w, size_t row);

#endif
