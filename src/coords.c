/* coords.c: count_true, argwhere ([n, rank]) and nonzero ([rank, n]) for every
   dtype: count first, then fill from bit masks with odometer coordinates. */
#include "tensor.h"

#define WC_TRUTH_BLOCK 512 /* elements tested per block */

/* Non-zero rules (README, Semantics): integers and bool by value; floats by their
   magnitude bits (-0.0 is false, NaN true); complex if either part is.
   PARTS words of type T per element, each tested under MASK. */
#define WC_TRUTH_LOOP(T, MASK, PARTS)                                            \
  do {                                                                           \
    const T *p = (const T *)data + start * (PARTS);                              \
    for (int64_t i = 0; i < n; i++) {                                            \
      T any = 0;                                                                 \
      for (int k = 0; k < (PARTS); k++) any |= (T)(p[i * (PARTS) + k] & (MASK)); \
      t[i] = any != 0;                                                           \
    }                                                                            \
  } while (0)

/* Writes the truth (0 or 1) of elements [start, start + n) of data into t. */
static void truth_block(wc_dtype dt, const void *data, int64_t start, int64_t n, uint8_t *t) {
  switch (dt) {
  case WC_BOOL:
  case WC_UINT8:
  case WC_INT8: WC_TRUTH_LOOP(uint8_t, 0xffu, 1); break;
  case WC_UINT16:
  case WC_INT16: WC_TRUTH_LOOP(uint16_t, 0xffffu, 1); break;
  case WC_UINT32:
  case WC_INT32: WC_TRUTH_LOOP(uint32_t, 0xffffffffu, 1); break;
  case WC_UINT64:
  case WC_INT64: WC_TRUTH_LOOP(uint64_t, UINT64_MAX, 1); break;
  case WC_FLOAT16:
  case WC_BFLOAT16: WC_TRUTH_LOOP(uint16_t, 0x7fffu, 1); break;
  case WC_FLOAT: WC_TRUTH_LOOP(uint32_t, 0x7fffffffu, 1); break;
  case WC_DOUBLE: WC_TRUTH_LOOP(uint64_t, INT64_MAX, 1); break;
  case WC_COMPLEX64: WC_TRUTH_LOOP(uint32_t, 0x7fffffffu, 2); break;
  case WC_COMPLEX128: WC_TRUTH_LOOP(uint64_t, INT64_MAX, 2); break;
  case WC_STRING: {
    const wc_string *p = (const wc_string *)data + start;
    for (int64_t i = 0; i < n; i++) t[i] = p[i] != NULL && p[i][0] != '\0';
    break;
  }
  }
}

/* The true elements among the total of cond, a checked descriptor. */
static int64_t count_true_of(const wc_tensor *cond, int64_t total) {
  int64_t count = 0;
  uint8_t t[WC_TRUTH_BLOCK];
  if (wc_dtype_size(cond->dtype) == 1) return wc_count_nonzero(cond->data, (size_t)total);
  for (int64_t b = 0; b < total; b += WC_TRUTH_BLOCK) {
    int64_t  len = total - b < WC_TRUTH_BLOCK ? total - b : WC_TRUTH_BLOCK;
    unsigned in_block = 0; /* at most WC_TRUTH_BLOCK */
    truth_block(cond->dtype, cond->data, b, len, t);
    for (int64_t i = 0; i < len; i++) in_block += t[i];
    count += in_block;
  }
  return count;
}

wc_status wc_count_true(const wc_tensor *cond, int64_t *n) {
  int64_t   total;
  wc_status s = wc__tensor_check(cond, &total);
  if (s != WC_OK) return s;
  if (n == NULL) return WC_E_ARG;
  *n = count_true_of(cond, total);
  return WC_OK;
}

/* wc_coords_row with the common ranks' outer coordinate count a constant, so
   that it inlines with straight-line slot stores. */
static void coords_row(const uint8_t *t, int64_t len, int64_t col0, const int64_t *outer,
                       int nouter, int64_t *coords, int64_t *n, int64_t count, size_t step,
                       size_t next) {
  if (nouter == 0) wc_coords_row(t, (size_t)len, col0, outer, 0, coords, n, count, step, next);
  else if (nouter == 1) wc_coords_row(t, (size_t)len, col0, outer, 1, coords, n, count, step, next);
  else wc_coords_row(t, (size_t)len, col0, outer, nouter, coords, n, count, step, next);
}

/* Fills coordinates of the count true elements, one row (the innermost dim)
   at a time: the outer coordinates are constant along a row (an odometer
   over the outer dims, no division), the last one is the column;
   wc_coords_row writes them from 64-bit masks of the row's truths. The slot
   stride is `step` between coordinates of one element and `next` between
   elements, which covers both layouts. 1-byte dtypes are tested in place
   (any non-zero byte is true); wider ones through a block of truths. */
static void fill_coords(const wc_tensor *cond, int64_t count, int64_t *coords, size_t step,
                        size_t next) {
  const int  rank = cond->rank, last = rank - 1;
  int64_t    idx[WC_MAX_RANK] = {0}, rows = 1, n = 0;
  uint8_t    truth[WC_TRUTH_BLOCK];
  const bool bytes = wc_dtype_size(cond->dtype) == 1; /* the data is its own truth bytes */
  if (rank == 0) return;                              /* coordinates of 0 dims: nothing to write */
  const int64_t cols = cond->shape[last];
  for (int d = 0; d < last; d++) rows *= cond->shape[d];
  for (int64_t r = 0; r < rows && n < count; r++) {
    if (bytes) {
      coords_row((const uint8_t *)cond->data + r * cols, cols, 0, idx, last, coords, &n, count,
                 step, next);
    } else {
      for (int64_t b = 0; b < cols && n < count; b += WC_TRUTH_BLOCK) {
        int64_t len = cols - b < WC_TRUTH_BLOCK ? cols - b : WC_TRUTH_BLOCK;
        truth_block(cond->dtype, cond->data, r * cols + b, len, truth);
        coords_row(truth, len, b, idx, last, coords, &n, count, step, next);
      }
    }
    /* odometer over the outer dims: the last outer coordinate moves fastest */
    for (int d = last - 1; d >= 0 && ++idx[d] == cond->shape[d]; d--) idx[d] = 0;
  }
}

_Static_assert(WC_MAX_RANK <= 16, "wc_nonzero_bytes takes at most 16 extents");

/* Shared checks and counting of argwhere and nonzero; fills when it fits.
   nonzero of 1-byte elements given room for every element (capacity at
   least total * rank) skips the count: wc_nonzero_bytes reads the input once
   while true is rare (16M bools at p=.01: the count alone is 0.6x the
   bandwidth bound). */
static wc_status coords_of(const wc_tensor *cond, int64_t *coords, int64_t capacity, int64_t *n,
                           bool rows) {
  int64_t   total, count, need, room;
  size_t    ext[WC_MAX_RANK] = {0}; /* set below up to rank; gcc cannot see that rank >= 1 */
  wc_status s;
  if (n == NULL || capacity < 0) return WC_E_ARG;
  if ((s = wc__tensor_check(cond, &total)) != WC_OK) return s;
  if (!rows && cond->rank > 0 && wc_dtype_size(cond->dtype) == 1 && coords != NULL &&
      wc__mul_fits(total, cond->rank, &room) && capacity >= room) {
    for (int d = 0; d < cond->rank; d++) ext[d] = (size_t)cond->shape[d];
    *n = wc_nonzero_bytes(cond->data, ext, cond->rank, coords);
    return WC_OK;
  }
  count = count_true_of(cond, total);
  *n = count;
  if (!wc__mul_fits(count, cond->rank, &need)) return WC_E_OVERFLOW;
  if (need > capacity) return WC_E_CAPACITY;
  if (need > 0 && coords == NULL) return WC_E_ARG;
  if (need > 0) {
    if (rows) fill_coords(cond, count, coords, 1, (size_t)cond->rank);
    else fill_coords(cond, count, coords, (size_t)count, 1);
  }
  return WC_OK;
}

wc_status wc_argwhere(const wc_tensor *cond, int64_t *coords, int64_t capacity, int64_t *n) {
  return coords_of(cond, coords, capacity, n, true);
}

wc_status wc_nonzero(const wc_tensor *cond, int64_t *coords, int64_t capacity, int64_t *n) {
  return coords_of(cond, coords, capacity, n, false);
}
