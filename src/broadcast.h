/* broadcast.h: the coalesced loop plan (broadcast.c) that every strided walk
   of the runtime uses: the generic Where, the interpreter, the registry's match. */
#ifndef WHEREC_SRC_BROADCAST_H
#define WHEREC_SRC_BROADCAST_H

#include <wherec/wherec.h>

/* A broadcast loop nest after coalescing: dims of extent 1 dropped, adjacent
   dims merged when every operand steps through them alike, so that the
   innermost dim has stride 0 or 1 for every operand. */
typedef struct wc_loop {
  int     rank;                                 /* >= 1 */
  int     n_ops;                                /* operands, output last */
  int64_t count;                                /* elements in the whole nest */
  int64_t extent[WC_MAX_RANK];                  /* outermost first */
  int64_t stride[WC_MAX_OPERANDS][WC_MAX_RANK]; /* in elements; 0 = broadcast */
} wc_loop;

/* Plans a loop over out_shape for operands whose shapes broadcast to it. */
void wc__loop_plan(wc_loop *loop, int n_ops, const wc_tensor *const *ops, int out_rank,
                   const int64_t *out_shape);

/* Odometer over a plan's outer dims (all but the innermost): off[k] is
   operand k's element offset at the start of the current row. */
typedef struct wc_loop_iter {
  int64_t idx[WC_MAX_RANK];     /* outer multi-index */
  int64_t off[WC_MAX_OPERANDS]; /* row start per operand */
} wc_loop_iter;

void wc__loop_begin(const wc_loop *loop, wc_loop_iter *it);
/* Positions it at the start of outer row `row` (row-major over the outer dims),
   where a split call's task begins. */
void wc__loop_seek(const wc_loop *loop, wc_loop_iter *it, int64_t row);
/* Steps to the next row; false after the last one. */
bool wc__loop_next_row(const wc_loop *loop, wc_loop_iter *it);

#endif
