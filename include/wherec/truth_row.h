/* wherec/truth_row.h: the count and the coordinate writer of wherec/truth.h,
   for one target. truth.h includes it once per target, with
     WC_ROW_NAME_(base)  the function names (base##_any, base##_avx2),
     WC_ROW_ATTR_        their storage and target attribute,
     WC_ROW_MASK_        the 64-byte mask of that target,
     WC_ROW_VEC_         its vector of signed char, if it has one,
     WC_ROW_WIDE_        defined if it has AVX's 32-byte compares and movmskpd,
     WC_ROW_POPCOUNT_    its bit count;
   and it undefines them. No include guard: meant to be included twice. */

/* Non-zero bytes among p[0, n). With the target's vectors (WC_ROW_VEC_, a
   vector of signed char): four vectors of byte counters, 255 rounds at a time,
   then summed. Written with vectors, not left to the vectorizer: gcc -O2 built
   the lanes loop below one vector per iteration, 2x slower than clang's
   (16 MB: 0.52 against 0.28 ms). Else 32 byte-wide counters in C, which
   gcc -O2 and clang vectorize; clang is told not to vectorize the rounds
   instead, which it would, with gathers, 10x slower. */
#if defined(WC_ROW_VEC_)
WC_ROW_ATTR_ int64_t WC_ROW_NAME_(wc_count_nonzero)(const uint8_t *p, size_t n) {
  typedef WC_ROW_VEC_ vec_;
  const size_t V = sizeof(vec_), W = 4 * sizeof(vec_);
  const vec_   zero = {0};
  int64_t      count = 0;
  size_t       i = 0;
  while (n - i >= W) {
    const size_t rounds = (n - i) / W < 255 ? (n - i) / W : 255;
    vec_         a0 = zero, a1 = zero, a2 = zero, a3 = zero, v0, v1, v2, v3;
    uint8_t      lane[4 * sizeof(vec_)];
    unsigned     sum = 0;
    for (size_t r = 0; r < rounds; r++, i += W) { /* four in registers: gcc keeps an array in memory */
      memcpy(&v0, p + i, V);
      memcpy(&v1, p + i + V, V);
      memcpy(&v2, p + i + 2 * V, V);
      memcpy(&v3, p + i + 3 * V, V);
      a0 -= (vec_)(v0 != zero); /* -1 where non-zero */
      a1 -= (vec_)(v1 != zero);
      a2 -= (vec_)(v2 != zero);
      a3 -= (vec_)(v3 != zero);
    }
    memcpy(lane, &a0, V);
    memcpy(lane + V, &a1, V);
    memcpy(lane + 2 * V, &a2, V);
    memcpy(lane + 3 * V, &a3, V);
    for (size_t l = 0; l < W; l++) sum += lane[l];
    count += sum;
  }
  for (; i < n; i++) count += p[i] != 0;
  return count;
}
#else
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
#endif

/* The set bits of m != 0, the mask of the 64-byte block at column col, listed
   from slot n on (truth.h's wc_coords_row says what a slot holds); no slot at
   or past known is written; returns n past them. Two slots are written
   whatever m holds: when true is rare most blocks need no more, and then
   neither a branch to mispredict nor a bit count, the second slot's mask says
   whether it was true. A block with more counts its bits and writes rounds of
   8 while 8 remain, and one more for the rest. A slot written past the block's last
   true element (its column is 63, the guard bit) is overwritten by the next
   block; where those slots would reach known, the bits go one by one. */
#define WC_SLOT_(q, bits)                                                     \
  do {                                                                        \
    int64_t *slot_ = s + (size_t)(q) * next;                                  \
    for (int d_ = 0; d_ < nouter; d_++) slot_[(size_t)d_ * step] = outer[d_]; \
    slot_[(size_t)nouter * step] = col + (int64_t)wc_ctz64(bits);             \
    m &= m - 1;                                                               \
  } while (0)
WC_ROW_ATTR_ int64_t WC_ROW_NAME_(wc_coords_block)(uint64_t m, int64_t col, const int64_t *WC_RESTRICT_ outer,
                                                   int nouter, int64_t *WC_RESTRICT_ coords, int64_t n,
                                                   int64_t known, size_t step, size_t next) {
  const uint64_t guard = UINT64_C(1) << 63;
  int64_t       *s = coords + (size_t)n * next;
  if (n + 2 > known) { /* the last true elements: one by one */
    n += (int64_t)WC_ROW_POPCOUNT_(m);
    for (; m; s += next) WC_SLOT_(0, m);
    return n;
  }
  const uint64_t all = m;
  WC_SLOT_(0, m);
  const uint64_t after_one = m;
  WC_SLOT_(1, m | guard);
  if (m == 0) return n + 1 + (after_one != 0); /* one or two were true */
  const unsigned set = WC_ROW_POPCOUNT_(all);
  if (n + 2 + 8 * (int64_t)((set - 2 + 7) / 8) > known) { /* the rounds would pass known */
    for (s += 2 * next; m; s += next) WC_SLOT_(0, m);
    return n + (int64_t)set;
  }
  for (unsigned k = 2; k < set; k += 8, s += 8 * next) { /* the last round may pass set: guarded */
    const uint64_t g = k + 8 <= set ? 0 : guard;
    WC_SLOT_(2, m | g);
    WC_SLOT_(3, m | g);
    WC_SLOT_(4, m | g);
    WC_SLOT_(5, m | g);
    WC_SLOT_(6, m | g);
    WC_SLOT_(7, m | g);
    WC_SLOT_(8, m | g);
    WC_SLOT_(9, m | g);
  }
  return n + (int64_t)set;
}
#undef WC_SLOT_

/* The masks of t[at, at + 64 * blocks) into mask, the last block cut at len;
   with AVX (WC_ROW_WIDE_), 0 in mask[blocks] up to a multiple of 4 (<= 64),
   for wc_nonempty. */
WC_ROW_ATTR_ void WC_ROW_NAME_(wc_masks)(const uint8_t *WC_RESTRICT_ t, size_t len, size_t at, size_t blocks,
                                         uint64_t *WC_RESTRICT_ mask) {
  const size_t whole = (len - at) / 64 < blocks ? (len - at) / 64 : blocks; /* no tail test per block */
  for (size_t b = 0; b < whole; b++) mask[b] = WC_ROW_MASK_(t + at + 64 * b);
  if (whole < blocks) mask[whole] = wc_mask_tail(t + at + 64 * whole, len - at - 64 * whole);
#if defined(WC_ROW_WIDE_)
  for (size_t b = blocks; b % 4; b++) mask[b] = 0;
#endif
}

/* Bit b set when mask[b] != 0, b < blocks <= 64: the blocks the listing
   visits. At p=.01 half of the blocks are all false, and a branch on each
   block's mask would mispredict half the time. With AVX (WC_ROW_WIDE_), four
   masks per compare: gcc -O2 builds the loop one mask at a time (argwhere of
   64 rows of 4096 bools in cache, p=.01: 10.8-12.4 -> 9.1 us); the last four
   padded with 0 by wc_masks, not a loop for the rest: given a constant row of
   4096, gcc -O2 warned of that loop's mask[2^61] (aggressive-loop-optimizations),
   a loop it never runs. Given ones,
   the masks' set bits are added to it in the same loop (argwhere's count so
   far; apart, 9.1 -> 8.3 us). */
WC_ROW_ATTR_ uint64_t WC_ROW_NAME_(wc_nonempty)(const uint64_t *WC_RESTRICT_ mask, size_t blocks,
                                               int64_t *WC_RESTRICT_ ones) {
  uint64_t z = 0;
  size_t   b = 0;
  unsigned set = 0;
#if defined(WC_ROW_WIDE_)
  typedef long long wide_ __attribute__((vector_size(32)));
  typedef double    wide_pd_ __attribute__((vector_size(32)));
  for (; b < blocks; b += 4) {
    wide_       v;
    const wide_ zero = {0};
    memcpy(&v, mask + b, 32);
    z |= (uint64_t)(unsigned)__builtin_ia32_movmskpd256((wide_pd_)(v != zero)) << b;
    if (ones)
      set += WC_ROW_POPCOUNT_(mask[b]) + WC_ROW_POPCOUNT_(mask[b + 1]) + WC_ROW_POPCOUNT_(mask[b + 2]) +
             WC_ROW_POPCOUNT_(mask[b + 3]);
  }
#else
  for (; b < blocks; b++) {
    z |= (uint64_t)(mask[b] != 0) << b;
    if (ones) set += WC_ROW_POPCOUNT_(mask[b]);
  }
#endif
  if (ones) *ones += set;
  return z;
}

/* wc_coords_row (truth.h says what it writes), 64 blocks at a time: their
   masks in one loop, then the blocks with a true element listed from them
   (in cache, 64 rows of 4096 bools at p=.01: nonzero 12.6-13.8 -> 10.5-12.4
   us, argwhere 10.2-11.1 -> 7.4-10.2 us over the four builds). Apart, the masks'
   loop streams the bytes: a fill that took each block's mask as it listed it
   ran 1.1-1.2x slower (nonzero of a 16M bool at p=.01, input not in cache:
   gcc -O2 1.80 -> 1.64 ms, clang -O2 1.60 -> 1.36 ms). */
WC_ROW_ATTR_ void WC_ROW_NAME_(wc_coords_row)(const uint8_t *WC_RESTRICT_ t, size_t len, int64_t col0,
                                              const int64_t *WC_RESTRICT_ outer, int nouter,
                                              int64_t *WC_RESTRICT_ coords, int64_t *WC_RESTRICT_ n_io,
                                              int64_t count, size_t step, size_t next) {
  uint64_t mask[64];
  int64_t  n = *n_io;
  for (size_t at = 0; at < len; at += 64 * 64) {
    const size_t blocks = ((len - at < 64 * 64 ? len - at : 64 * 64) + 63) / 64;
    WC_ROW_NAME_(wc_masks)(t, len, at, blocks, mask);
    for (uint64_t z = WC_ROW_NAME_(wc_nonempty)(mask, blocks, NULL); z; z &= z - 1) {
      const unsigned b = wc_ctz64(z);
      n = WC_ROW_NAME_(wc_coords_block)(mask[b], col0 + (int64_t)(at + 64 * b), outer, nouter, coords, n, count,
                                        step, next);
    }
  }
  *n_io = n;
}

/* argwhere's rows in one pass over the bytes ([n, rank]: step 1, next rank):
   the true columns of t[0, len) appended from slot *n on and counted as they
   go, for a caller that knows no count ahead but has room for every true
   element. Count first, then fill, a chunk of 64 blocks at a time: their
   masks, kept, and the bits in them; then the blocks listed with known = the
   true elements up to the chunk's end, so that no slot past the last true
   element is written. A second pass over 16 MB of bool cost as much again as
   listing them (bench: argwhere p=.01). */
WC_ROW_ATTR_ void WC_ROW_NAME_(wc_argwhere_row)(const uint8_t *WC_RESTRICT_ t, size_t len, int64_t col0,
                                                const int64_t *WC_RESTRICT_ outer, int nouter,
                                                int64_t *WC_RESTRICT_ coords, int64_t *WC_RESTRICT_ n_io) {
  const size_t next = (size_t)nouter + 1;
  uint64_t     mask[64];
  int64_t      n = *n_io;
  for (size_t at = 0; at < len; at += 64 * 64) {
    const size_t blocks = ((len - at < 64 * 64 ? len - at : 64 * 64) + 63) / 64;
    int64_t      known = n;
    WC_ROW_NAME_(wc_masks)(t, len, at, blocks, mask);
    for (uint64_t z = WC_ROW_NAME_(wc_nonempty)(mask, blocks, &known); z; z &= z - 1) {
      const unsigned b = wc_ctz64(z);
      n = WC_ROW_NAME_(wc_coords_block)(mask[b], col0 + (int64_t)(at + 64 * b), outer, nouter, coords, n, known,
                                        1, next);
    }
  }
  *n_io = n;
}

/* nonzero ([rank, n]) of the contiguous bytes t of extents ext[0, rank),
   1 <= rank <= 16 (WC_MAX_RANK), into coords, which has room for its n * rank
   slots; returns n. [rank, n] needs n before the first slot, and a count then
   a fill reads the input twice (16M bools at p=.01: the count alone is 0.6x
   the bound). So while true is rare, one pass: each true byte's coordinates,
   packed into one word as bit fields (the column lowest, so that a row's
   listing adds it to the row's key), go to coords[0, m) as the bytes go by
   (argwhere with no outer coordinates); once n is known they are unpacked in
   place: word j's fields go to slot j and to slots at or past n. Shifts and
   masks, not the rows passed by an odometer: 16M bools at p=.01, unpacking
   took 100-180 us that way, 50-60 us so. Packing moves 16 bytes per true byte:
   once one byte in WC_NZ_DENSE_ is true, a second read costs less, and the
   rest is counted, then filled; so is all of a shape whose fields would not
   fit in 63 bits (no shape that fits in memory). */
#ifndef WC_NZ_DENSE_
#define WC_NZ_DENSE_ 16    /* the density of true bytes past which a second read is cheaper */
#define WC_NZ_CHUNK_ 16384 /* bytes read between checks of the density */
#endif
#ifndef WC_NZ_PACK_BITS_
#define WC_NZ_PACK_BITS_ 63 /* the widest packed coordinates (test_truth_unpacked: 0) */
#endif
WC_ROW_ATTR_ int64_t WC_ROW_NAME_(wc_nonzero_bytes)(const uint8_t *WC_RESTRICT_ t, const size_t *WC_RESTRICT_ ext,
                                                   int rank, int64_t *WC_RESTRICT_ coords) {
  const int    nouter = rank - 1;
  const size_t cols = ext[nouter];
  unsigned     shift[16], bits = 0;
  uint64_t     mask[16];
  size_t       rows = 1, done = 0; /* the bytes the pass has read */
  int64_t      outer[16] = {0}, m = 0, n;
  bool         dense;
  for (int d = rank - 1; d >= 0; d--) { /* field d: the bits of ext[d] - 1, above those of d + 1 */
    unsigned w = 0;
    while (w < 64 && ext[d] > 1 && (ext[d] - 1) >> w) w++;
    shift[d] = bits;
    mask[d] = w < 64 ? (UINT64_C(1) << w) - 1 : UINT64_MAX;
    bits += w;
    if (d < nouter) rows *= ext[d];
  }
  if (rows == 0 || cols == 0) return 0;
  dense = bits > WC_NZ_PACK_BITS_;
  for (size_t r = 0; r < rows && !dense; r++) {
    uint64_t key = 0;
    for (int d = 0; d < nouter; d++) key |= (uint64_t)outer[d] << shift[d];
    for (size_t at = 0; at < cols && !dense; at += WC_NZ_CHUNK_) {
      const size_t len = cols - at < WC_NZ_CHUNK_ ? cols - at : WC_NZ_CHUNK_;
      WC_ROW_NAME_(wc_argwhere_row)(t + done, len, (int64_t)(key + at), NULL, 0, coords, &m);
      done += len;
      dense = (size_t)m * WC_NZ_DENSE_ > done;
    }
    for (int d = nouter - 1; d >= 0 && ++outer[d] == (int64_t)ext[d]; d--) outer[d] = 0;
  }
  n = m + WC_ROW_NAME_(wc_count_nonzero)(t + done, rows * cols - done);
  int64_t j = 0;
#if defined(WC_ROW_VEC_) /* the unpacking in vectors: gcc -O2 left it scalar, 3x slower */
  typedef uint64_t fields_ __attribute__((vector_size(sizeof(WC_ROW_VEC_))));
  const int64_t    V = (int64_t)(sizeof(fields_) / 8);
  for (; j + V <= m; j += V) {
    fields_ f, v;
    memcpy(&f, coords + j, sizeof f);
    for (int d = 0; d < rank; d++) {
      v = (f >> shift[d]) & mask[d];
      memcpy(coords + (size_t)d * (size_t)n + (size_t)j, &v, sizeof v);
    }
  }
#endif
  for (; j < m; j++) {
    const uint64_t f = (uint64_t)coords[j];
    for (int d = 0; d < rank; d++) coords[(size_t)d * (size_t)n + (size_t)j] = (int64_t)(f >> shift[d] & mask[d]);
  }
  if (m < n) { /* the rest, from byte done: its coordinates by division, once */
    size_t q = done / cols, col = done % cols;
    for (int d = nouter - 1; d >= 0; d--) {
      outer[d] = (int64_t)(q % ext[d]);
      q /= ext[d];
    }
    for (size_t row = done - col; m < n; row += cols, col = 0) {
      WC_ROW_NAME_(wc_coords_row)(t + row + col, cols - col, (int64_t)col, outer, nouter, coords, &m, n,
                                  (size_t)n, 1);
      for (int d = nouter - 1; d >= 0 && ++outer[d] == (int64_t)ext[d]; d--) outer[d] = 0;
    }
  }
  return n;
}

#undef WC_ROW_NAME_
#undef WC_ROW_ATTR_
#undef WC_ROW_MASK_
#undef WC_ROW_VEC_
#undef WC_ROW_POPCOUNT_
#undef WC_ROW_WIDE_
