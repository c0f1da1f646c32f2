/* tensor.h: descriptor and shape checks (tensor.c), the first thing every entry
   point runs. Private to libwherec, as every header in src/. */
#ifndef WHEREC_SRC_TENSOR_H
#define WHEREC_SRC_TENSOR_H

#include <wherec/wherec.h>

/* a * b for non-negative a and b, false on overflow past INT64_MAX. Every
   call checks shapes, so no division (a 64-bit divide costs more than the
   rest of a 2x2 call's checks) where the compiler can tell overflow itself;
   WC_PORTABLE_BITS builds the division (other compilers', tested). */
static inline bool wc__mul_fits(int64_t a, int64_t b, int64_t *r) {
#if defined(__GNUC__) && !defined(WC_PORTABLE_BITS)
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

#endif
