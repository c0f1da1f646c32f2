/* wherec/rows.h: the row reductions row_sum, row_max, row_min and row_mean
   (operations.h, form REDUCE), as generated kernels and the interpreter fold
   a row. C99.

   The order is part of the result (WC_ROW_LANES, operations.h): element i of
   a row goes into lane i % 16, in order, each lane starting from the
   operation's identity; then lanes l and l + 8 are combined, then l + 4,
   l + 2, l + 1. The same bits whatever the compiler, vector width, CPU or
   thread count (threads split rows, never a row). Per dtype s:

     wc_racc_<s>                  the lanes' type: float for float16 and bfloat16
                                  (each element converted exactly), else the dtype
     wc_<op>_init_<s>(acc)        every lane to the identity: sum -0 (0 for integers:
                                  -0 + x is x for every x, -0 too), max -inf (the
                                  lowest integer), min +inf (the highest)
     wc_<op>_step_<s>(acc, x)     one element into a lane: the operation of ops.h
                                  (NaNs as + and max pin them; integers wrap)
     wc_<op>_end_<s>(acc, n)      the lanes combined, mean divided by n (in the
                                  lanes' type, n converted to it), rounded once
                                  to the dtype

   A row of zero elements has no output elements: no end is observed. */
#ifndef WHEREC_ROWS_H
#define WHEREC_ROWS_H

#include <stddef.h>

#include "operations.h"
#include "ops.h"

/* Elements a row pass evaluates at once (a multiple of WC_ROW_LANES): a constant trip
   count long enough for every build to vectorize the values, then folded into the
   lanes in order; the rest of a row in blocks of WC_ROW_LANES, then one by one. 128
   ran a masked softmax 1.1-1.6x faster than 64 (gcc and clang -O3 -march=native). */
#ifndef WC_ROW_BLOCK
#define WC_ROW_BLOCK 128
#endif

/* Elements of a row cache (a costly value a later pass reads again, kept per row:
   lower.c's plan_row_caches); a longer row computes it again in each pass. */
#ifndef WC_ROW_CACHE
#define WC_ROW_CACHE 2048
#endif

/* clang-format off */
#define WC_ROW_IDENT_(x) x

/* One operation of one dtype: lanes A of T, combined by wc_<comb>_<as>. */
#define WC_ROW_OP_(op, s, T, A, as, comb, LOAD, STORE, IDENT)                   \
  WC_INLINE void wc_##op##_init_##s(A *acc) {                                   \
    int l; for (l = 0; l < WC_ROW_LANES; l++) acc[l] = IDENT; }                           \
  WC_INLINE A wc_##op##_step_##s(A acc, T x) { return wc_##comb##_##as(acc, LOAD(x)); } \
  WC_INLINE A wc_##op##_lanes_##s(A *acc) {                                     \
    int w, l;                                                                   \
    for (w = WC_ROW_LANES / 2; w > 0; w /= 2)                                                  \
      for (l = 0; l < w; l++) acc[l] = wc_##comb##_##as(acc[l], acc[l + w]);    \
    return acc[0]; }

#define WC_ROW_OPS_(s, T, A, as, LOAD, STORE, ZERO, LOWEST, HIGHEST)            \
  typedef A wc_racc_##s;                                                        \
  WC_ROW_OP_(rsum, s, T, A, as, add, LOAD, STORE, ZERO)                         \
  WC_ROW_OP_(rmax, s, T, A, as, max, LOAD, STORE, LOWEST)                       \
  WC_ROW_OP_(rmin, s, T, A, as, min, LOAD, STORE, HIGHEST)                      \
  WC_INLINE T wc_rsum_end_##s(A *acc, size_t n) { (void)n; return STORE(wc_rsum_lanes_##s(acc)); } \
  WC_INLINE T wc_rmax_end_##s(A *acc, size_t n) { (void)n; return STORE(wc_rmax_lanes_##s(acc)); } \
  WC_INLINE T wc_rmin_end_##s(A *acc, size_t n) { (void)n; return STORE(wc_rmin_lanes_##s(acc)); }

/* mean: the sum's lanes, then one division (floats only) */
#define WC_ROW_MEAN_(s, T, A, as, LOAD, STORE)                                  \
  WC_INLINE void wc_rmean_init_##s(A *acc) { wc_rsum_init_##s(acc); }           \
  WC_INLINE A wc_rmean_step_##s(A acc, T x) { return wc_rsum_step_##s(acc, x); } \
  WC_INLINE T wc_rmean_end_##s(A *acc, size_t n) {                              \
    return STORE(wc_div_##as(wc_rsum_lanes_##s(acc), (A)n)); }

WC_ROW_OPS_(i8, int8_t, int8_t, i8, WC_ROW_IDENT_, WC_ROW_IDENT_, 0, INT8_MIN, INT8_MAX)
WC_ROW_OPS_(i16, int16_t, int16_t, i16, WC_ROW_IDENT_, WC_ROW_IDENT_, 0, INT16_MIN, INT16_MAX)
WC_ROW_OPS_(i32, int32_t, int32_t, i32, WC_ROW_IDENT_, WC_ROW_IDENT_, 0, INT32_MIN, INT32_MAX)
WC_ROW_OPS_(i64, int64_t, int64_t, i64, WC_ROW_IDENT_, WC_ROW_IDENT_, 0, INT64_MIN, INT64_MAX)
WC_ROW_OPS_(u8, uint8_t, uint8_t, u8, WC_ROW_IDENT_, WC_ROW_IDENT_, 0, 0, UINT8_MAX)
WC_ROW_OPS_(u16, uint16_t, uint16_t, u16, WC_ROW_IDENT_, WC_ROW_IDENT_, 0, 0, UINT16_MAX)
WC_ROW_OPS_(u32, uint32_t, uint32_t, u32, WC_ROW_IDENT_, WC_ROW_IDENT_, 0, 0, UINT32_MAX)
WC_ROW_OPS_(u64, uint64_t, uint64_t, u64, WC_ROW_IDENT_, WC_ROW_IDENT_, 0, 0, UINT64_MAX)
WC_ROW_OPS_(f32, float, float, f32, WC_ROW_IDENT_, WC_ROW_IDENT_, wc_bits_to_f32(0x80000000u),
            wc_bits_to_f32(0xff800000u), wc_bits_to_f32(0x7f800000u))
WC_ROW_OPS_(f64, double, double, f64, WC_ROW_IDENT_, WC_ROW_IDENT_,
            wc_bits_to_f64(0x8000000000000000u), wc_bits_to_f64(0xfff0000000000000u),
            wc_bits_to_f64(0x7ff0000000000000u))
WC_ROW_OPS_(f16, wc_float16, float, f32, wc_f16_to_f32, wc_f32_to_f16, wc_bits_to_f32(0x80000000u),
            wc_bits_to_f32(0xff800000u), wc_bits_to_f32(0x7f800000u))
WC_ROW_OPS_(bf16, wc_bfloat16, float, f32, wc_bf16_to_f32, wc_f32_to_bf16,
            wc_bits_to_f32(0x80000000u), wc_bits_to_f32(0xff800000u), wc_bits_to_f32(0x7f800000u))
/* Float sums in plain IEEE additions: the same lanes as the steps above unless a lane
   becomes NaN (whose bits the plain form leaves to the CPU), which wc_racc_nan tells:
   a kernel then folds the row again with the pinned steps (rows.c.tpl). */
#define WC_ROW_RAW_(s, T, A, LOAD)                                              \
  WC_INLINE A wc_rsum_step_raw_##s(A acc, T x) { return acc + LOAD(x); }        \
  WC_INLINE A wc_rmean_step_raw_##s(A acc, T x) { return acc + LOAD(x); }       \
  WC_INLINE int wc_racc_nan_##s(const A *acc) {                                 \
    int l, any = 0;                                                             \
    for (l = 0; l < WC_ROW_LANES; l++) any |= acc[l] != acc[l];                 \
    return any; }
WC_ROW_RAW_(f32, float, float, WC_ROW_IDENT_)
WC_ROW_RAW_(f64, double, double, WC_ROW_IDENT_)
WC_ROW_RAW_(f16, wc_float16, float, wc_f16_to_f32)
WC_ROW_RAW_(bf16, wc_bfloat16, float, wc_bf16_to_f32)
WC_ROW_MEAN_(f32, float, float, f32, WC_ROW_IDENT_, WC_ROW_IDENT_)
WC_ROW_MEAN_(f64, double, double, f64, WC_ROW_IDENT_, WC_ROW_IDENT_)
WC_ROW_MEAN_(f16, wc_float16, float, f32, wc_f16_to_f32, wc_f32_to_f16)
WC_ROW_MEAN_(bf16, wc_bfloat16, float, f32, wc_bf16_to_f32, wc_f32_to_bf16)
/* clang-format on */

#endif
