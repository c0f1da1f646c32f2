/* tensor.c: validation of wc_tensor descriptors, the first thing every entry
   point does, so that no bad descriptor reaches a loop. */
#include "tensor.h"

wc_status wc__shape_count(wc_dtype dtype, int rank, const int64_t *shape, int64_t *count) {
  int64_t n = 1, bytes;
  size_t  size = wc_dtype_size(dtype);
  bool    empty = false;
  if (size == 0) return WC_E_DTYPE;
  if (rank < 0 || rank > WC_MAX_RANK) return WC_E_RANK;
  for (int d = 0; d < rank; d++) {
    if (shape[d] < 0) return WC_E_SHAPE;
    empty |= shape[d] == 0;
  }
  /* An empty tensor is valid whatever its other extents are: nothing is read. */
  for (int d = 0; d < rank && !empty; d++)
    if (!wc__mul_fits(n, shape[d], &n)) return WC_E_OVERFLOW;
  if (empty) n = 0;
  if (!wc__mul_fits(n, (int64_t)size, &bytes) || bytes > PTRDIFF_MAX) return WC_E_OVERFLOW;
  *count = n;
  return WC_OK;
}

wc_status wc__tensor_check(const wc_tensor *t, int64_t *count) {
  int64_t   n;
  wc_status s;
  if (t == NULL) return WC_E_ARG;
  if ((s = wc__shape_count(t->dtype, t->rank, t->shape, &n)) != WC_OK) return s;
  if (n > 0 && t->data == NULL) return WC_E_ARG;
  if (count) *count = n;
  return WC_OK;
}
