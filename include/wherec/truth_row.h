/* wherec/truth_row.h: the count and the coordinate writer of wherec/truth.h,
   for one target. truth.h includes it once per target, with
     WC_ROW_NAME_(base)  the function names (base##_any_, base##_avx2_),
     WC_ROW_ATTR_        their storage and target attribute,
     WC_ROW_MASK_        the 64-byte mask of that target;
   and it undefines them. No include guard: meant to be included twice. */

/* Non-zero bytes among p[0, n): 32 byte-wide counters, 255 rounds at a time,
   then summed. gcc -O2 and clang vectorize the 32 lanes (any build runs at
   the cache's rate); clang is told not to vectorize the rounds instead, which
   it would, with gathers, 10x slower. */
#if defined(__clang__)
#define WC_ROUNDS_SCALAR_ _Pragma("clang loop vectorize(disable)")
#else
#define WC_ROUNDS_SCALAR_
#endif
WC_ROW_ATTR_ int64_t WC_ROW_NAME_(wc_count_nonzero)(const uint8_t *p, size_t n) {
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

/* wc_coords_row (truth.h says what it writes), 64 bytes at a time: their mask,
   and two slots written whatever it holds. When true is rare most blocks need
   no more, and then neither a branch to mispredict nor a bit count: the two
   slots' masks say how many were true. A block with more counts its bits and
   writes rounds of 8 while 8 remain, and one more for the rest. A slot written
   past the block's last true element (its column is 63, the guard bit) is
   overwritten by the next block. A block writes slots n .. n + 65 at most (64
   set bits: rounds from 2 to 65), so blocks run so only while those stay
   below count; past that, the set bits one by one. */
#define WC_SLOT_(q, bits)                                                     \
  do {                                                                        \
    int64_t *slot_ = s + (size_t)(q) * next;                                  \
    for (int d_ = 0; d_ < nouter; d_++) slot_[(size_t)d_ * step] = outer[d_]; \
    slot_[(size_t)nouter * step] = col + (int64_t)wc_ctz64(bits);             \
    m &= m - 1;                                                               \
  } while (0)
WC_ROW_ATTR_ void WC_ROW_NAME_(wc_coords_row)(const uint8_t *WC_RESTRICT_ t, size_t len, int64_t col0,
                                              const int64_t *WC_RESTRICT_ outer, int nouter,
                                              int64_t *WC_RESTRICT_ coords, int64_t *WC_RESTRICT_ n_io,
                                              int64_t count, size_t step, size_t next) {
  const uint64_t guard = UINT64_C(1) << 63;
  int64_t        n = *n_io;
  size_t         i = 0;
  for (; len - i >= 64 && n + 66 <= count; i += 64) {
    uint64_t       m = WC_ROW_MASK_(t + i);
    const uint64_t all = m;
    const int64_t  col = col0 + (int64_t)i;
    int64_t       *s = coords + (size_t)n * next;
    WC_SLOT_(0, m | guard);
    const uint64_t after_one = m;
    WC_SLOT_(1, m | guard);
    if (m == 0) { /* at most two were true */
      n += (all != 0) + (after_one != 0);
      continue;
    }
    const unsigned set = wc_popcount64(all);
    unsigned       k = 2;
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
    n += (int64_t)set;
  }
  for (; i < len; i += 64) {
    uint64_t      m = len - i >= 64 ? WC_ROW_MASK_(t + i) : wc_mask_tail(t + i, len - i);
    const int64_t col = col0 + (int64_t)i;
    int64_t      *s = coords + (size_t)n * next;
    n += (int64_t)wc_popcount64(m);
    for (; m; s += next) WC_SLOT_(0, m);
  }
  *n_io = n;
}
#undef WC_SLOT_

#undef WC_ROW_NAME_
#undef WC_ROW_ATTR_
#undef WC_ROW_MASK_
