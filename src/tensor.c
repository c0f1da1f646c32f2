/* tensor.c: validation of wc_tensor descriptors, the first thing every entry
   point does, so that no bad descriptor reaches a loop. */
#include "internal.h"

wc_status wc__tensor_check(const wc_tensor *t, int64_t *count) {
  int64_t n = 1;
  size_t size;
  bool empty = false;
  if (t == NULL) return WC_E_ARG;
  size = wc_dtype_size(t->dtype);
  if (size == 0) return WC_E_DTYPE;
  if (t->rank < 0 || t->rank > WC_MAX_RANK) return WC_E_RANK;
  for (int d = 0; d < t->rank; d++) {
    if (t->shape[d] < 0) return WC_E_SHAPE;
    empty |= t->shape[d] == 0;
  }
  /* An empty tensor is valid whatever its other extents are: nothing is read. */
  for (int d = 0; d < t->rank && !empty; d++) {
    if (n > INT64_MAX / t->shape[d]) return WC_E_OVERFLOW;
    n *= t->shape[d];
  }
  if (empty) n = 0;
  if (n > (int64_t)(PTRDIFF_MAX / size)) return WC_E_OVERFLOW;
  if (n > 0 && t->data == NULL) return WC_E_ARG;
  if (count) *count = n;
  return WC_OK;
}
