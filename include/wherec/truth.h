/* wherec/truth.h: the non-zero bytes of a run, counted and as bit masks, and the
   writer of their coordinates; argwhere/nonzero of generated code and the runtime. */
#ifndef WHEREC_TRUTH_H
#define WHEREC_TRUTH_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "ops.h"                                       /* WC_INLINE */

#ifdef __cplusplus
extern "C" {
#endif

/* Every function here has a portable body; the builtins and the SSE2 mask are
   what gcc and clang build by default. WC_PORTABLE_BITS selects the portable
   bodies everywhere (the tests build them too). */
#if defined(__GNUC__) && !defined(WC_PORTABLE_BITS)
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

/* Bit i set when byte p[i] != 0, i < 64 (any non-zero byte is true, not only 1).
   SSE2: 16 bytes compared with zero and their sign bits gathered, 4 times.
   Else, on little-endian targets, 8 bytes as one word: each non-zero byte's
   high bit set without a carry between bytes, then one multiply gathers the
   eight; otherwise byte by byte. */
#if WC_BITS_BUILTIN_ && defined(__SSE2__)
typedef char wc_v16qi_ __attribute__((vector_size(16)));
WC_INLINE uint64_t wc_mask16_(const uint8_t *p) {
  wc_v16qi_       v;
  const wc_v16qi_ zero = {0};
  memcpy(&v, p, 16);
  return (uint64_t)(~__builtin_ia32_pmovmskb128(v == zero) & 0xffff);
}
WC_INLINE uint64_t wc_mask64(const uint8_t *p) {
  return wc_mask16_(p) | wc_mask16_(p + 16) << 16 | wc_mask16_(p + 32) << 32 |
         wc_mask16_(p + 48) << 48;
}
#elif defined(__BYTE_ORDER__) && defined(__ORDER_LITTLE_ENDIAN__) && \
    __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
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

/* Non-zero bytes among p[0, n): 32 byte-wide counters, 255 rounds at a time,
   then summed. gcc -O2 and clang vectorize the 32 lanes (any build runs at
   the cache's rate); clang is told not to vectorize the rounds instead, which
   it would, with gathers, 10x slower. */
#if defined(__clang__)
#define WC_ROUNDS_SCALAR_ _Pragma("clang loop vectorize(disable)")
#else
#define WC_ROUNDS_SCALAR_
#endif
static inline int64_t wc_count_nonzero(const uint8_t *p, size_t n) {
  int64_t count = 0;
  size_t  i = 0;
  while (n - i >= 32) {
    size_t   rounds = (n - i) / 32 < 255 ? (n - i) / 32 : 255;
    uint8_t  lane[32];
    unsigned sum = 0;
    memset(lane, 0, sizeof lane);
    WC_ROUNDS_SCALAR_
    for (size_t r = 0; r < rounds; r++, i += 32)
      for (int l = 0; l < 32; l++) lane[l] = (uint8_t)(lane[l] + (p[i + (size_t)l] != 0));
    for (int l = 0; l < 32; l++) sum += lane[l];
    count += sum;
  }
  for (; i < n; i++) count += p[i] != 0;
  return count;
}
#undef WC_ROUNDS_SCALAR_

/* Appends the coordinates of the true bytes t[0, len) of one row from slot *n
   on: slot s gets the row's outer coordinates outer[0, nouter) at s[d * step]
   and its column col0 + i at s[nouter * step]; slots are next apart
   (argwhere: step 1, next rank; nonzero: step count, next 1). count is every
   true element of the call: no slot at or past it is written.
   64 bytes at a time: their mask; two slots written whatever it holds (when
   true is rare, most blocks need no more: no branch to mispredict), then
   rounds of 8 while 8 set bits remain, and one more for the rest. A slot written past the block's last true
   element (its column is 63, the guard bit) is overwritten by the next block;
   a block writes slots n .. n + 65 at most (64 set bits: rounds from 2 to 65),
   so this runs only while those stay below count; past that, the set bits one
   by one. */
#if defined(__cplusplus)
#define WC_RESTRICT_ __restrict
#else
#define WC_RESTRICT_ restrict
#endif
#define WC_SLOT_(q, bits)                                                           \
  do {                                                                              \
    int64_t *slot_ = s + (size_t)(q) * next;                                        \
    for (int d_ = 0; d_ < nouter; d_++) slot_[(size_t)d_ * step] = outer[d_];       \
    slot_[(size_t)nouter * step] = col + (int64_t)wc_ctz64(bits);                   \
    m &= m - 1;                                                                     \
  } while (0)
WC_INLINE void wc_coords_row(const uint8_t *WC_RESTRICT_ t, size_t len, int64_t col0,
                             const int64_t *WC_RESTRICT_ outer, int nouter,
                             int64_t *WC_RESTRICT_ coords, int64_t *WC_RESTRICT_ n_io, int64_t count,
                             size_t step, size_t next) {
  const uint64_t guard = UINT64_C(1) << 63;
  int64_t        n = *n_io;
  for (size_t i = 0; i < len; i += 64) {
    uint64_t       m = len - i >= 64 ? wc_mask64(t + i) : wc_mask_tail(t + i, len - i);
    const unsigned set = wc_popcount64(m);
    const int64_t  col = col0 + (int64_t)i;
    int64_t       *s = coords + (size_t)n * next;
    if (n + 66 <= count) {
      unsigned k = 2;
      WC_SLOT_(0, m | guard);
      WC_SLOT_(1, m | guard);
      for (; k + 8 <= set; k += 8, s += 8 * next) { /* 8 set bits left: no guard */
        WC_SLOT_(2, m);
        WC_SLOT_(3, m);
        WC_SLOT_(4, m);
        WC_SLOT_(5, m);
        WC_SLOT_(6, m);
        WC_SLOT_(7, m);
        WC_SLOT_(8, m);
        WC_SLOT_(9, m);
      }
      if (k < set) {
        WC_SLOT_(2, m | guard);
        WC_SLOT_(3, m | guard);
        WC_SLOT_(4, m | guard);
        WC_SLOT_(5, m | guard);
        WC_SLOT_(6, m | guard);
        WC_SLOT_(7, m | guard);
        WC_SLOT_(8, m | guard);
        WC_SLOT_(9, m | guard);
      }
    } else {
      for (; m; s += next) WC_SLOT_(0, m);
    }
    n += (int64_t)set;
  }
  *n_io = n;
}
#undef WC_SLOT_
#undef WC_RESTRICT_
#undef WC_BITS_BUILTIN_

#ifdef __cplusplus
}
#endif
#endif
