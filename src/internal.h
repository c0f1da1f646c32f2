/* internal.h: declarations shared by the runtime's source files.
   Not installed; everything here is private to libwherec. */
#ifndef WHEREC_INTERNAL_H
#define WHEREC_INTERNAL_H

#include <wherec/wherec.h>

/* a * b for non-negative a and b, false on overflow past INT64_MAX. Every
   call checks shapes, so no division (a 64-bit divide costs more than the
   rest of a 2x2 call's checks) where the compiler can tell overflow itself. */
static inline bool wc__mul_fits(int64_t a, int64_t b, int64_t *r) {
#if defined(__GNUC__)
  return !__builtin_mul_overflow(a, b, r);
#else
  if (b != 0 && a > INT64_MAX / b) return false;
  *r = a * b;
  return true;
#endif
}

/* Validates one tensor descriptor (pointer, dtype, rank, extents, data,
   overflow of the element count and byte size) and returns its element count. */
wc_status wc__tensor_check(const wc_tensor *t, int64_t *count);
/* The same checks on a bare shape: element count, no overflow of bytes. */
wc_status wc__shape_count(wc_dtype dtype, int rank, const int64_t *shape, int64_t *count);
/* t has exactly this rank and shape (no broadcasting). Inline: wc_where
   asks it three times per call. */
static inline bool wc__same_shape(const wc_tensor *t, int rank, const int64_t *shape) {
  if (t->rank != rank) return false;
  for (int d = 0; d < rank; d++)
    if (t->shape[d] != shape[d]) return false;
  return true;
}

/* A broadcast loop nest after coalescing: dims of extent 1 dropped, adjacent
   dims merged when every operand steps through them alike, so that the
   innermost dim has stride 0 or 1 for every operand. */
typedef struct wc_loop {
  int     rank;                                        /* >= 1 */
  int     n_ops;                                       /* operands, output last */
  int64_t count;                                       /* elements in the whole nest */
  int64_t extent[WC_MAX_RANK];                         /* outermost first */
  int64_t stride[WC_MAX_OPERANDS][WC_MAX_RANK];   /* in elements; 0 = broadcast */
} wc_loop;

/* Plans a loop over out_shape for operands whose shapes broadcast to it. */
void wc__loop_plan(wc_loop *loop, int n_ops, const wc_tensor *const *ops,
                   int out_rank, const int64_t *out_shape);

/* Odometer over a plan's outer dims (all but the innermost): off[k] is
   operand k's element offset at the start of the current row. */
typedef struct wc_loop_iter {
  int64_t idx[WC_MAX_RANK];                            /* outer multi-index */
  int64_t off[WC_MAX_OPERANDS];                   /* row start per operand */
} wc_loop_iter;

void wc__loop_begin(const wc_loop *loop, wc_loop_iter *it);
/* Steps to the next row; false after the last one. */
bool wc__loop_next_row(const wc_loop *loop, wc_loop_iter *it);

/* Shared by wc_where and wc_where_v1: runs the plain select over a plan whose
   operands are cond, x, y, out; elem_size picks the copy width. */
void wc__where_loop(const wc_loop *loop, size_t elem_size, const bool *c,
                    const void *x, const void *y, void *out);

/* The shape rules of tf.compat.v1.where (and the operand checks of wc_where). */
wc_status wc__where_v1_check(const wc_tensor *cond, const wc_tensor *x, const wc_tensor *y,
                             const wc_tensor *out);
/* Runs tf.compat.v1.where on operands that passed wc__where_v1_check. */
void wc__where_v1_run(const wc_tensor *cond, const wc_tensor *x, const wc_tensor *y,
                      wc_tensor *out);

/* Runs where through a registered plain-where kernel whose pattern fits the
   plan of (cond, x, y, out); false when none does. */
bool wc__where_registered(const wc_loop *loop, const wc_tensor *cond, const wc_tensor *x,
                          const wc_tensor *y, wc_tensor *out);

/* Naive helpers of the reference evaluator (reference.c), shared only with
   reference_eval.c: broadcast offset of a multi-index, multi-index of a flat
   index by division, and the non-zero test of one element. */
int64_t wc__ref_offset(const wc_tensor *t, int r, const int64_t *idx);
void    wc__ref_unflatten(int64_t k, int r, const int64_t *shape, int64_t *idx);
bool    wc__ref_truth(const wc_tensor *t, int64_t k);

/* Runs an elementwise kernel's program by interpretation; inputs and out
   already checked (dtypes, broadcast shape). */
wc_status wc__interp_elementwise(const wc_kernel *k, const wc_tensor *in, wc_tensor *out);

#endif
