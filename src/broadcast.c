/* broadcast.c: ONNX/numpy multidirectional broadcasting, and the coalesced
   loop plan that every strided walk in the runtime uses. */
#include "broadcast.h"

wc_status wc_broadcast_shape(const wc_tensor *const *ts, int n, int *rank,
                             int64_t shape[WC_MAX_RANK]) {
  int r = 0;
  if (rank == NULL || shape == NULL || n < 0 || (n > 0 && ts == NULL)) return WC_E_ARG;
  for (int i = 0; i < n; i++) {
    if (ts[i] == NULL) return WC_E_ARG;
    if (ts[i]->rank < 0 || ts[i]->rank > WC_MAX_RANK) return WC_E_RANK;
    for (int d = 0; d < ts[i]->rank; d++)
      if (ts[i]->shape[d] < 0) return WC_E_SHAPE;
    if (ts[i]->rank > r) r = ts[i]->rank;
  }
  int64_t out[WC_MAX_RANK];
  for (int d = 0; d < r; d++) out[d] = 1;
  for (int i = 0; i < n; i++) {
    int off = r - ts[i]->rank; /* right-aligned */
    for (int d = 0; d < ts[i]->rank; d++) {
      int64_t e = ts[i]->shape[d], *o = &out[off + d];
      if (e == *o || e == 1) continue;
      if (*o != 1) return WC_E_SHAPE;
      *o = e;
    }
  }
  *rank = r;
  for (int d = 0; d < r; d++) shape[d] = out[d];
  return WC_OK;
}

void wc__loop_plan(wc_loop *L, int n_ops, const wc_tensor *const *ops, int out_rank,
                   const int64_t *out_shape) {
  int64_t ext[WC_MAX_RANK], str[WC_MAX_OPERANDS][WC_MAX_RANK];
  int     r = 0;
  L->n_ops = n_ops;
  L->count = 1;
  /* An empty output is a plan of no elements: its other extents may be as
     large as they like, and their products (count, strides) would overflow. */
  for (int d = 0; d < out_rank; d++)
    if (out_shape[d] == 0) {
      L->rank = 1;
      L->count = 0;
      L->extent[0] = 0;
      for (int k = 0; k < n_ops; k++) L->stride[k][0] = 0;
      return;
    }
  /* Strides of each operand over the output's dims; extent-1 dims dropped. */
  for (int d = 0; d < out_rank; d++) {
    L->count *= out_shape[d];
    if (out_shape[d] == 1) continue;
    ext[r] = out_shape[d];
    for (int k = 0; k < n_ops; k++) {
      const wc_tensor *t = ops[k];
      int              od = d - (out_rank - t->rank);
      int64_t          s = 1;
      if (od < 0 || t->shape[od] == 1) {
        str[k][r] = 0;
        continue;
      }
      for (int e = od + 1; e < t->rank; e++) s *= t->shape[e];
      str[k][r] = s;
    }
    r++;
  }
  if (r == 0) { /* a single element */
    ext[0] = 1;
    for (int k = 0; k < n_ops; k++) str[k][0] = 0;
    r = 1;
  }
  /* Coalesce: dim d folds into the next one when every operand steps
     through d exactly as a continuation of d+1 (both broadcast, or both dense). */
  L->rank = 0;
  for (int d = 0; d < r; d++) {
    int  q = L->rank;
    bool merge = q > 0;
    for (int k = 0; k < n_ops && merge; k++) merge = L->stride[k][q - 1] == str[k][d] * ext[d];
    if (merge) {
      L->extent[q - 1] *= ext[d];
      for (int k = 0; k < n_ops; k++) L->stride[k][q - 1] = str[k][d];
    } else {
      L->extent[q] = ext[d];
      for (int k = 0; k < n_ops; k++) L->stride[k][q] = str[k][d];
      L->rank++;
    }
  }
}

void wc__loop_begin(const wc_loop *L, wc_loop_iter *it) {
  for (int d = 0; d < L->rank; d++) it->idx[d] = 0;
  for (int k = 0; k < L->n_ops; k++) it->off[k] = 0;
}

void wc__loop_seek(const wc_loop *L, wc_loop_iter *it, int64_t row) {
  wc__loop_begin(L, it);
  for (int d = L->rank - 2; d >= 0 && row > 0; d--) {
    it->idx[d] = row % L->extent[d];
    row /= L->extent[d];
    for (int k = 0; k < L->n_ops; k++) it->off[k] += it->idx[d] * L->stride[k][d];
  }
}

bool wc__loop_next_row(const wc_loop *L, wc_loop_iter *it) {
  for (int d = L->rank - 2; d >= 0; d--) {
    if (++it->idx[d] < L->extent[d]) {
      for (int k = 0; k < L->n_ops; k++) it->off[k] += L->stride[k][d];
      return true;
    }
    /* carry: rewind this dim to 0 and move on to the next outer one */
    it->idx[d] = 0;
    for (int k = 0; k < L->n_ops; k++) it->off[k] -= L->stride[k][d] * (L->extent[d] - 1);
  }
  return false;
}
