/* wherec/truth.h: the non-zero bytes of a run, counted and as bit masks, and the
   writer of their coordinates; argwhere/nonzero of generated code and the runtime. */
#ifndef WHEREC_TRUTH_H
#define WHEREC_TRUTH_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "loop.h"                                      /* WC_CLONES, WC_TARGET_AVX2 */
#include "ops.h"                                       /* WC_INLINE */

#ifdef __cplusplus
extern "C" {
#endif

/* Every function here has a portable body; the builtins and the SSE2 mask are
   what gcc and clang build by default. WC_PORTABLE_BITS selects the portable
   bodies everywhere, WC_BYTEWISE_BITS those and the byte-by-byte mask of
   big-endian targets (the tests build both). */
#if defined(__GNUC__) && !defined(WC_PORTABLE_BITS) && !defined(WC_BYTEWISE_BITS)
#define WC_BITS_BUILTIN_ 1
#else
#define WC_BITS_BUILTIN_ 0
#endif

/* Set bits of x: one instruction where the target has it; without it gcc's
   builtin calls libgcc, slower than these five steps. */
static inline unsigned wc_popcount64(uint64_t x) {
#if WC_BITS_BUILTIN_ && defined(__POPCNT__)
  return (unsigned)__builtin_popcountll(x);
#else
  x -= (x >> 1) & UINT64_C(0x5555555555555555);
  x = (x & UINT64_C(0x3333333333333333)) + ((x >> 2) & UINT64_C(0x3333333333333333));
  x = (x + (x >> 4)) & UINT64_C(0x0f0f0f0f0f0f0f0f);
  return (unsigned)((x * UINT64_C(0x0101010101010101)) >> 56);
#endif
}

/* Index of the lowest set bit of x, x != 0. */
static inline unsigned wc_ctz64(uint64_t x) {
#if WC_BITS_BUILTIN_
  return (unsigned)__builtin_ctzll(x);
#else
  /* de Bruijn: the lowest bit alone, times the sequence, names its index */
  static const unsigned char index[64] = {
      0,  1,  48, 2,  57, 49, 28, 3,  61, 58, 50, 42, 38, 29, 17, 4,  62, 55, 59, 36, 53, 51,
      43, 22, 45, 39, 33, 30, 24, 18, 12, 5,  63, 47, 56, 27, 60, 41, 37, 16, 54, 35, 52, 21,
      44, 32, 23, 11, 46, 26, 40, 15, 34, 20, 31, 10, 25, 14, 19, 9,  13, 8,  7,  6};
  return index[((x & (0 - x)) * UINT64_C(0x03f79d71b4cb0a89)) >> 58];
#endif
}

/* The AVX2 mask, wc_mask64<sfx> (and its halves, wc_mask32<sfx>), for the
   target attribute ATTR: as the build's own mask under -mavx2, and as the
   AVX2 build's (WC_TRUTH_CLONES, below) on baseline x86-64 builds. */
#define WC_MASK64_AVX2_(sfx, ATTR)                                                  \
  typedef char wc_v32qi##sfx __attribute__((vector_size(32)));                       \
  ATTR WC_INLINE uint64_t wc_mask32##sfx(const uint8_t *p) { /* bit i set when p[i] == 0 */ \
    wc_v32qi##sfx       v;                                                          \
    const wc_v32qi##sfx zero = {0};                                                 \
    memcpy(&v, p, 32);                                                              \
    return (uint32_t)__builtin_ia32_pmovmskb256(v == zero);                         \
  }                                                                                 \
  ATTR WC_INLINE uint64_t wc_mask64##sfx(const uint8_t *p) {                        \
    return ~(wc_mask32##sfx(p) | wc_mask32##sfx(p + 32) << 32);                     \
  }

/* Bit i set when byte p[i] != 0, i < 64 (any non-zero byte is true, not only 1).
   AVX2 and SSE2: 32 or 16 bytes compared with zero and their sign bits
   gathered, 2 or 4 times. AVX-512 builds use the AVX2 mask too: one 512-bit
   compare into a mask register was a little faster in cache but slower with
   the input in memory (argwhere of a 16M bool at p=.01, -O3 -march=native on
   Zen 4: gcc 0.89 -> 0.64 ms, clang 0.91-1.26 -> 0.61-0.62 ms).
   Else, on little-endian targets, 8 bytes as one word: each non-zero byte's
   high bit set without a carry between bytes, then one multiply gathers the
   eight; otherwise byte by byte. */
#if WC_BITS_BUILTIN_ && defined(__AVX2__)
WC_MASK64_AVX2_(, )
#elif WC_BITS_BUILTIN_ && defined(__SSE2__)
typedef char wc_v16qi_ __attribute__((vector_size(16)));
WC_INLINE uint64_t wc_mask16_(const uint8_t *p) { /* bit i set when p[i] == 0 */
  wc_v16qi_       v;
  const wc_v16qi_ zero = {0};
  memcpy(&v, p, 16);
  return (uint16_t)__builtin_ia32_pmovmskb128(v == zero);
}
WC_INLINE uint64_t wc_mask64(const uint8_t *p) {
  return ~(wc_mask16_(p) | wc_mask16_(p + 16) << 16 | wc_mask16_(p + 32) << 32 | wc_mask16_(p + 48) << 48);
}
#elif defined(__BYTE_ORDER__) && defined(__ORDER_LITTLE_ENDIAN__) && \
    __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ && !defined(WC_BYTEWISE_BITS)
WC_INLINE uint64_t wc_mask8_(const uint8_t *p) {
  const uint64_t low7 = UINT64_C(0x7f7f7f7f7f7f7f7f);
  uint64_t       w;
  memcpy(&w, p, 8);
  w = ((((w & low7) + low7) | w) >> 7) & UINT64_C(0x0101010101010101);
  return (w * UINT64_C(0x0102040810204080)) >> 56;
}
WC_INLINE uint64_t wc_mask64(const uint8_t *p) {
  uint64_t m = 0;
  for (int k = 0; k < 8; k++) m |= wc_mask8_(p + 8 * k) << (8 * k);
  return m;
}
#else
WC_INLINE uint64_t wc_mask64(const uint8_t *p) {
  uint64_t m = 0;
  for (int k = 0; k < 64; k++) m |= (uint64_t)(p[k] != 0) << k;
  return m;
}
#endif

/* The same for the first len < 64 bytes of p (a row's last block). */
static inline uint64_t wc_mask_tail(const uint8_t *p, size_t len) {
  uint64_t m = 0;
  for (size_t k = 0; k < len; k++) m |= (uint64_t)(p[k] != 0) << k;
  return m;
}

/* The count and the coordinate writer, built per target by truth_row.h:
   name##_any for the build's own target, and on baseline x86-64 builds
   (WC_CLONES, loop.h) name##_avx2 for AVX2, BMI and POPCNT, whose 64-byte mask
   takes 2 compares instead of 4 and whose lowest-bit clear and bit count are
   one instruction each
   (argwhere of a 16M bool at p=.01: fill 1.0 -> 0.75 ms, gcc -O2). Both
   inline, so that a caller's constant outer count and slot steps fold in: a
   generated kernel builds its count and fill twice, calling each from a
   function of its target (WC_TARGET_TRUTH_AVX2) and picking by
   wc_cpu_truth_avx2(). wc_count_nonzero and wc_coords_row pick for other
   callers. The bits are the same either way. */
#if defined(__cplusplus)
#define WC_RESTRICT_ __restrict
#else
#define WC_RESTRICT_ restrict
#endif

#define WC_ROW_NAME_(base) base##_any
#define WC_ROW_ATTR_       WC_INLINE
#define WC_ROW_MASK_       wc_mask64
#define WC_ROW_POPCOUNT_   wc_popcount64
#if WC_BITS_BUILTIN_ && defined(__AVX2__)
typedef signed char wc_count_vec_ __attribute__((vector_size(32)));
#define WC_ROW_VEC_ wc_count_vec_
#define WC_ROW_WIDE_ 1
#elif WC_BITS_BUILTIN_ && defined(__SSE2__)
typedef signed char wc_count_vec_ __attribute__((vector_size(16)));
#define WC_ROW_VEC_ wc_count_vec_
#endif
#include "truth_row.h"

#if WC_CLONES && WC_BITS_BUILTIN_
#define WC_TRUTH_CLONES     1
#define WC_TARGET_TRUTH_AVX2 __attribute__((target("avx2,bmi,popcnt")))
static inline int wc_cpu_truth_avx2(void) {
  return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi") && __builtin_cpu_supports("popcnt");
}
WC_MASK64_AVX2_(_avx2_, WC_TARGET_TRUTH_AVX2)
#define WC_ROW_NAME_(base) base##_avx2
#define WC_ROW_ATTR_       WC_TARGET_TRUTH_AVX2 WC_INLINE
#define WC_ROW_MASK_       wc_mask64_avx2_
#define WC_ROW_POPCOUNT_   (unsigned)__builtin_popcountll /* the target has the instruction */
typedef signed char wc_count_vec_avx2_ __attribute__((vector_size(32)));
#define WC_ROW_VEC_ wc_count_vec_avx2_
#define WC_ROW_WIDE_ 1
#include "truth_row.h"
#else
#define WC_TRUTH_CLONES 0
#endif

#if WC_TRUTH_CLONES /* calls from other targets: not inlined there */
WC_TARGET_TRUTH_AVX2 static inline int64_t wc_count_nonzero_avx2_call_(const uint8_t *p, size_t n) {
  return wc_count_nonzero_avx2(p, n);
}
WC_TARGET_TRUTH_AVX2 static inline void wc_coords_row_avx2_call_(const uint8_t *WC_RESTRICT_ t, size_t len,
                                                                 int64_t col0, const int64_t *WC_RESTRICT_ outer,
                                                                 int nouter, int64_t *WC_RESTRICT_ coords,
                                                                 int64_t *WC_RESTRICT_ n_io, int64_t count,
                                                                 size_t step, size_t next) {
  wc_coords_row_avx2(t, len, col0, outer, nouter, coords, n_io, count, step, next);
}
WC_TARGET_TRUTH_AVX2 static inline void wc_argwhere_row_avx2_call_(const uint8_t *WC_RESTRICT_ t, size_t len,
                                                                   int64_t col0, const int64_t *WC_RESTRICT_ outer,
                                                                   int nouter, int64_t *WC_RESTRICT_ coords,
                                                                   int64_t *WC_RESTRICT_ n_io) {
  wc_argwhere_row_avx2(t, len, col0, outer, nouter, coords, n_io);
}
WC_TARGET_TRUTH_AVX2 static inline int64_t wc_nonzero_bytes_avx2_call_(const uint8_t *WC_RESTRICT_ t,
                                                                      const size_t *WC_RESTRICT_ ext, int rank,
                                                                      int64_t *WC_RESTRICT_ coords) {
  return wc_nonzero_bytes_avx2(t, ext, rank, coords);
}
#endif

/* Non-zero bytes among p[0, n). */
WC_INLINE int64_t wc_count_nonzero(const uint8_t *p, size_t n) {
#if WC_TRUTH_CLONES
  if (wc_cpu_truth_avx2()) return wc_count_nonzero_avx2_call_(p, n);
#endif
  return wc_count_nonzero_any(p, n);
}

/* Appends the coordinates of the true bytes t[0, len) of one row from slot *n
   on: slot s gets the row's outer coordinates outer[0, nouter) at s[d * step]
   and its column col0 + i at s[nouter * step]; slots are next apart
   (argwhere: step 1, next rank; nonzero: step count, next 1). count is every
   true element of the call: no slot at or past it is written. */
WC_INLINE void wc_coords_row(const uint8_t *WC_RESTRICT_ t, size_t len, int64_t col0,
                             const int64_t *WC_RESTRICT_ outer, int nouter,
                             int64_t *WC_RESTRICT_ coords, int64_t *WC_RESTRICT_ n_io, int64_t count,
                             size_t step, size_t next) {
#if WC_TRUTH_CLONES
  if (wc_cpu_truth_avx2()) {
    wc_coords_row_avx2_call_(t, len, col0, outer, nouter, coords, n_io, count, step, next);
    return;
  }
#endif
  wc_coords_row_any(t, len, col0, outer, nouter, coords, n_io, count, step, next);
}

/* argwhere ([n, rank]) of a row in one pass, counting as it goes: as
   wc_coords_row with step 1 and next nouter + 1, for a caller whose coords
   has room for every true element but who knows no count ahead. */
WC_INLINE void wc_argwhere_row(const uint8_t *WC_RESTRICT_ t, size_t len, int64_t col0,
                               const int64_t *WC_RESTRICT_ outer, int nouter, int64_t *WC_RESTRICT_ coords,
                               int64_t *WC_RESTRICT_ n_io) {
#if WC_TRUTH_CLONES
  if (wc_cpu_truth_avx2()) {
    wc_argwhere_row_avx2_call_(t, len, col0, outer, nouter, coords, n_io);
    return;
  }
#endif
  wc_argwhere_row_any(t, len, col0, outer, nouter, coords, n_io);
}
/* nonzero ([rank, n]) of the contiguous bytes t of extents ext[0, rank),
   1 <= rank <= 16, into coords, which has room for n * rank slots; returns n
   (truth_row.h's wc_nonzero_bytes: one pass while true is rare). */
WC_INLINE int64_t wc_nonzero_bytes(const uint8_t *WC_RESTRICT_ t, const size_t *WC_RESTRICT_ ext, int rank,
                                   int64_t *WC_RESTRICT_ coords) {
#if WC_TRUTH_CLONES
  if (wc_cpu_truth_avx2()) return wc_nonzero_bytes_avx2_call_(t, ext, rank, coords);
#endif
  return wc_nonzero_bytes_any(t, ext, rank, coords);
}
#undef WC_RESTRICT_
#undef WC_MASK64_AVX2_
#undef WC_BITS_BUILTIN_

#ifdef __cplusplus
}
#endif
#endif
