/* test_truth.c: wherec/truth.h, the byte masks, bit counts and the coordinate
   writer of argwhere/nonzero; built seven times: with the builtins, with
   WC_PORTABLE_BITS (the portable bodies other compilers get), with
   WC_BYTEWISE_BITS (those and big-endian targets' byte-by-byte mask), with
   WC_NO_CLONES (the baseline alone), with WC_NZ_PACK_BITS_=0 (nonzero
   counts, then fills, every input), with -march=native where the
   compiler has it (AVX2 or AVX-512 masks), and with -mavx2 where the CPU
   runs it. Each test
   runs every build of the functions the header made: the build's own target,
   and the AVX2 one on baseline x86-64 builds when the CPU has it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <wherec/kernel.h>

static uint64_t rng_state = 0x1234567887654321u;
static uint64_t rng(void) { /* xorshift64 */
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 7;
  rng_state ^= rng_state << 17;
  return rng_state;
}

/* A byte that is zero with probability 1 - p/8, else any non-zero value. */
static uint8_t random_byte(unsigned p8) {
  uint64_t r = rng();
  return (r & 7) < p8 ? (uint8_t)(1 + (r >> 8) % 255) : 0;
}

static void test_popcount_and_ctz_match_bit_by_bit_counts(void **state) {
  (void)state;
  for (int trial = 0; trial < 20000; trial++) {
    uint64_t x = rng() & rng() & (trial % 3 ? rng() : UINT64_MAX);
    if (trial < 64) x = UINT64_C(1) << trial;
    unsigned pop = 0, low = 64;
    for (int b = 63; b >= 0; b--)
      if (x >> b & 1) pop++, low = (unsigned)b;
    assert_int_equal(wc_popcount64(x), pop);
    if (x) assert_int_equal(wc_ctz64(x), low);
  }
  assert_int_equal(wc_popcount64(UINT64_MAX), 64);
}

/* The builds of the mask, the count and the row writer to test. */
typedef struct {
  const char *name;
  uint64_t (*mask64)(const uint8_t *);
  int64_t (*count)(const uint8_t *, size_t);
  void (*row)(const uint8_t *, size_t, int64_t, const int64_t *, int, int64_t *, int64_t *, int64_t,
              size_t, size_t);
  void (*argwhere_row)(const uint8_t *, size_t, int64_t, const int64_t *, int, int64_t *, int64_t *);
  int64_t (*nonzero_bytes)(const uint8_t *, const size_t *, int, int64_t *);
} truth_build;

static uint64_t mask64_any(const uint8_t *p) { return wc_mask64(p); }
static int64_t  count_dispatched(const uint8_t *p, size_t n) { return wc_count_nonzero(p, n); }
static void     row_dispatched(const uint8_t *t, size_t len, int64_t col0, const int64_t *outer, int nouter,
                               int64_t *coords, int64_t *n, int64_t count, size_t step, size_t next) {
  wc_coords_row(t, len, col0, outer, nouter, coords, n, count, step, next);
}
static void row_any(const uint8_t *t, size_t len, int64_t col0, const int64_t *outer, int nouter,
                    int64_t *coords, int64_t *n, int64_t count, size_t step, size_t next) {
  wc_coords_row_any(t, len, col0, outer, nouter, coords, n, count, step, next);
}
static int64_t count_any(const uint8_t *p, size_t n) { return wc_count_nonzero_any(p, n); }
static void    argwhere_row_dispatched(const uint8_t *t, size_t len, int64_t col0, const int64_t *outer,
                                       int nouter, int64_t *coords, int64_t *n) {
  wc_argwhere_row(t, len, col0, outer, nouter, coords, n);
}
static void argwhere_row_any(const uint8_t *t, size_t len, int64_t col0, const int64_t *outer, int nouter,
                             int64_t *coords, int64_t *n) {
  wc_argwhere_row_any(t, len, col0, outer, nouter, coords, n);
}
static int64_t nonzero_bytes_dispatched(const uint8_t *t, const size_t *ext, int rank, int64_t *coords) {
  return wc_nonzero_bytes(t, ext, rank, coords);
}
static int64_t nonzero_bytes_any(const uint8_t *t, const size_t *ext, int rank, int64_t *coords) {
  return wc_nonzero_bytes_any(t, ext, rank, coords);
}
#if WC_TRUTH_CLONES /* called as generated kernels do: from a function of that target */
WC_TARGET_TRUTH_AVX2 static uint64_t mask64_avx2(const uint8_t *p) { return wc_mask64_avx2_(p); }
WC_TARGET_TRUTH_AVX2 static int64_t  count_avx2(const uint8_t *p, size_t n) { return wc_count_nonzero_avx2(p, n); }
WC_TARGET_TRUTH_AVX2 static void     row_avx2(const uint8_t *t, size_t len, int64_t col0, const int64_t *outer,
                                              int nouter, int64_t *coords, int64_t *n, int64_t count, size_t step,
                                              size_t next) {
  wc_coords_row_avx2(t, len, col0, outer, nouter, coords, n, count, step, next);
}
WC_TARGET_TRUTH_AVX2 static void argwhere_row_avx2(const uint8_t *t, size_t len, int64_t col0, const int64_t *outer,
                                                   int nouter, int64_t *coords, int64_t *n) {
  wc_argwhere_row_avx2(t, len, col0, outer, nouter, coords, n);
}
WC_TARGET_TRUTH_AVX2 static int64_t nonzero_bytes_avx2(const uint8_t *t, const size_t *ext, int rank,
                                                       int64_t *coords) {
  return wc_nonzero_bytes_avx2(t, ext, rank, coords);
}
#endif

static int truth_builds(truth_build *b) {
  int n = 0;
  b[n++] = (truth_build){"dispatched", mask64_any, count_dispatched, row_dispatched, argwhere_row_dispatched,
                         nonzero_bytes_dispatched};
  b[n++] = (truth_build){"own target", mask64_any, count_any, row_any, argwhere_row_any, nonzero_bytes_any};
#if WC_TRUTH_CLONES
  if (wc_cpu_truth_avx2())
    b[n++] = (truth_build){"avx2", mask64_avx2, count_avx2, row_avx2, argwhere_row_avx2, nonzero_bytes_avx2};
#endif
  return n;
}

static void test_mask64_sets_a_bit_for_every_non_zero_byte(void **state) {
  (void)state;
  uint8_t     b[64 + 7];
  truth_build builds[3];
  const int   nb = truth_builds(builds);
  for (int trial = 0; trial < 5000 * nb; trial++) {
    const truth_build *tb = &builds[trial % nb];
    const size_t at = (size_t)trial % 8; /* unaligned too */
    for (size_t i = 0; i < sizeof b; i++) b[i] = random_byte((unsigned)trial % 9);
    uint64_t want = 0;
    for (int i = 0; i < 64; i++) want |= (uint64_t)(b[at + (size_t)i] != 0) << i;
    assert_true(tb->mask64(b + at) == want);
    assert_true(wc_mask_tail(b + at, (size_t)trial % 64) == (want & ((UINT64_C(1) << (trial % 64)) - 1)));
  }
}

static void test_count_nonzero_counts_every_length_and_offset(void **state) {
  (void)state;
  enum { MAX = 9000 };
  uint8_t    *b = malloc(MAX + 8);
  truth_build builds[3];
  const int   nb = truth_builds(builds);
  for (size_t i = 0; i < MAX + 8; i++) b[i] = random_byte(3);
  for (size_t len = 0; len < MAX; len += len < 300 ? 1 : 997)
    for (size_t at = 0; at < 8; at += 3) {
      int64_t want = 0;
      for (size_t i = 0; i < len; i++) want += b[at + i] != 0;
      for (int k = 0; k < nb; k++) assert_int_equal(builds[k].count(b + at, len), want);
    }
  free(b);
  /* byte lanes count 255 rounds at most: all true past 255 rounds of the widest
     (4 vectors of 32 bytes: 32,640 bytes), and one more byte */
  enum { ALL = 3 * 32640 + 1 };
  b = malloc(ALL);
  memset(b, 0xff, ALL);
  for (int k = 0; k < nb; k++) assert_int_equal(builds[k].count(b, ALL), ALL);
  free(b);
}

/* One build's row writer on t[0, len) into exactly count slots after a
   canary (buf[0], buf[2 * count + 1]): the slots want; for argwhere's layout
   (step 1, next 2) also its one-pass writer, which counts as it goes. */
static void check_row(const truth_build *b, const uint8_t *t, size_t len, int64_t col0,
                      const int64_t *outer, int64_t count, size_t step, size_t next, int64_t *buf,
                      const int64_t *want) {
  int64_t n = 0;
  buf[0] = buf[2 * count + 1] = -99;
  b->row(t, len, col0, outer, 1, buf + 1, &n, count, step, next);
  assert_int_equal(n, count);
  assert_memory_equal(buf + 1, want, (size_t)(2 * count) * sizeof *buf);
  assert_true(buf[0] == -99 && buf[2 * count + 1] == -99);
  if (step == 1 && next == 2) {
    n = 0;
    memset(buf + 1, 0, (size_t)(2 * count) * sizeof *buf);
    b->argwhere_row(t, len, col0, outer, 1, buf + 1, &n);
    assert_int_equal(n, count);
    assert_memory_equal(buf + 1, want, (size_t)(2 * count) * sizeof *buf);
    assert_true(buf[0] == -99 && buf[2 * count + 1] == -99);
  }
}

/* wc_coords_row on rows of every length, at every fill level, into exactly
   count slots after a canary: the naive list of (outer, column) pairs. */
static void test_coords_row_writes_the_true_columns_and_nothing_past_count(void **state) {
  (void)state;
  enum { LEN = 300 };
  uint8_t t[LEN];
  int64_t buf[2 * LEN + 2], want[2 * LEN];
  const int64_t outer[1] = {7};
  truth_build   builds[3];
  const int     nb = truth_builds(builds);
  for (int bi = 0; bi < nb; bi++)
  for (size_t len = 0; len <= LEN; len += len < 140 ? 1 : 37)
    for (unsigned p8 = 0; p8 <= 8; p8 += 2)
      for (int layout = 0; layout < 2; layout++) {
        int64_t count = 0;
        for (size_t i = 0; i < len; i++) count += (t[i] = random_byte(p8)) != 0;
        const size_t step = layout ? 1 : (size_t)count, next = layout ? 2 : 1;
        for (size_t i = 0, k = 0; i < len; i++)
          if (t[i]) want[k * next] = 7, want[k * next + step] = 100 + (int64_t)i, k++;
        check_row(&builds[bi], t, len, 100, outer, count, step, next, buf, want);
      }
}

/* Long rows where most 64-byte blocks hold 0, 1 or 2 true bytes (the fill's
   branch-free case) and some hold 3 to 64 (its rounds), written as argwhere
   [n, 2] and nonzero [2, n] into exactly count slots after a canary; argwhere
   also in one pass, over more than one of its 4096-byte chunks. */
static void test_coords_row_lists_sparse_rows_block_by_block(void **state) {
  (void)state;
  enum { LEN = 64 * 80 + 13 };
  static uint8_t t[LEN];
  static int64_t buf[2 * LEN + 2], want[2 * LEN];
  const int64_t  outer[1] = {3};
  truth_build    builds[3];
  const int      nb = truth_builds(builds);
  for (int trial = 0; trial < 60; trial++) {
    int64_t count = 0;
    memset(t, 0, sizeof t);
    for (size_t blk = 0; blk * 64 < LEN; blk++) { /* true bytes per block: mostly 0-2, at times up to 64 */
      const uint64_t r = rng();
      const unsigned set = r % 16 < 13 ? (unsigned)(r >> 8) % 3 : (unsigned)(r >> 8) % 65;
      for (unsigned k = 0; k < set; k++) {
        const size_t at = blk * 64 + (size_t)(rng() % 64);
        if (at < LEN) t[at] = (uint8_t)(1 + rng() % 255);
      }
    }
    if (trial % 3 == 0) t[LEN - 1] = 1; /* the last column */
    for (size_t i = 0; i < LEN; i++) count += t[i] != 0;
    for (int layout = 0; layout < 2; layout++) {
      const size_t step = layout ? 1 : (size_t)count, next = layout ? 2 : 1;
      for (size_t i = 0, k = 0; i < LEN; i++)
        if (t[i]) want[k * next] = 3, want[k * next + step] = (int64_t)i, k++;
      for (int bi = 0; bi < nb; bi++) check_row(&builds[bi], t, LEN, 0, outer, count, step, next, buf, want);
    }
  }
}

/* How the true bytes of a nonzero_bytes input are laid out. */
typedef enum {
  LAYOUT_UNIFORM,     /* each byte true with one probability */
  LAYOUT_DENSE_TAIL,  /* sparse, then from a random byte on half true: packed, then counted and filled */
  LAYOUT_SPARSE_TAIL, /* half true, then sparse: counted and filled from the first chunk on */
  LAYOUT_EMPTY_RUNS,  /* sparse with long all-false runs: rows without a true byte */
  LAYOUT_LAST,        /* only the last byte */
  LAYOUTS
} nz_layout;

static void fill_layout(uint8_t *t, size_t total, nz_layout layout, unsigned p8) {
  const size_t cut = total ? (size_t)(rng() % total) : 0;
  memset(t, 0, total);
  for (size_t i = 0; i < total; i++) {
    switch (layout) {
    case LAYOUT_UNIFORM: t[i] = random_byte(p8); break;
    case LAYOUT_DENSE_TAIL: t[i] = i < cut ? (rng() % 128 == 0) : random_byte(4); break;
    case LAYOUT_SPARSE_TAIL: t[i] = i < cut ? random_byte(4) : (rng() % 128 == 0); break;
    case LAYOUT_EMPTY_RUNS: t[i] = (i / 5000) % 3 == 1 && rng() % 64 == 0; break;
    case LAYOUT_LAST: t[i] = i + 1 == total; break;
    case LAYOUTS: break;
    }
  }
}

/* wc_nonzero_bytes on every rank from 1 to 4, extents 0, 1 and long rows cut
   mid-chunk, inputs of several 16 KB chunks laid out so that it packs all,
   switches from packing to counting mid-row, or never packs: n, and the
   [rank, n] coordinates (from divisions here) in exactly n * rank slots
   between canaries. */
static void test_nonzero_bytes_lists_rank_n_coordinates_in_one_pass_or_two(void **state) {
  (void)state;
  static const size_t shapes[][4] = {
      {70001, 0, 0, 0}, {0, 0, 0, 0}, {1, 0, 0, 0}, {300, 233, 0, 0}, {1, 50000, 0, 0},
      {50000, 1, 0, 0}, {4, 0, 7, 0}, {3, 17, 1000, 0}, {2, 3, 5, 2203}, {40, 1, 1, 1001}};
  static const int ranks[] = {1, 1, 1, 2, 2, 2, 3, 3, 4, 4};
  enum { MAX = 90000 };
  uint8_t    *t = malloc(MAX);
  int64_t    *buf = malloc((4 * MAX + 2) * sizeof *buf), *want = malloc(4 * MAX * sizeof *want);
  truth_build builds[3];
  const int   nb = truth_builds(builds);
  for (size_t s = 0; s < sizeof ranks / sizeof ranks[0]; s++) {
    const int rank = ranks[s];
    size_t    total = 1;
    for (int d = 0; d < rank; d++) total *= shapes[s][d];
    assert_true(total <= MAX);
    for (int layout = 0; layout < LAYOUTS; layout++)
      for (unsigned p8 = 0; p8 <= (layout == LAYOUT_UNIFORM ? 8u : 0u); p8 += 2) {
        fill_layout(t, total, (nz_layout)layout, p8 == 2 ? 1 : p8);
        int64_t n = 0;
        for (size_t i = 0; i < total; i++) n += t[i] != 0;
        for (size_t i = 0, k = 0; i < total; i++) {
          if (!t[i]) continue;
          size_t rest = i;
          for (int d = rank - 1; d >= 0; d--) {
            want[(size_t)d * (size_t)n + k] = (int64_t)(rest % shapes[s][d]);
            rest /= shapes[s][d];
          }
          k++;
        }
        const size_t slots = (size_t)n * (size_t)rank;
        for (int bi = 0; bi < nb; bi++) {
          buf[0] = buf[slots + 1] = -99;
          assert_int_equal(builds[bi].nonzero_bytes(t, shapes[s], rank, buf + 1), n);
          assert_memory_equal(buf + 1, want, slots * sizeof *buf);
          assert_true(buf[0] == -99 && buf[slots + 1] == -99);
        }
      }
  }
  free(t);
  free(buf);
  free(want);
}

/* The AVX2 builds exist only where they help: a baseline x86-64 build with
   gcc or clang, not a build that has AVX2 already (-march=native) nor one
   with WC_NO_CLONES (built so by the test_truth_noclones variant). */
static void test_avx2_builds_exist_only_in_baseline_x86_64_builds(void **state) {
  (void)state;
#if defined(WC_NO_CLONES) || defined(__AVX2__) || !defined(__x86_64__)
  assert_int_equal(WC_CLONES, 0);
  assert_int_equal(WC_TRUTH_CLONES, 0);
#elif defined(WC_PORTABLE_BITS) || defined(WC_BYTEWISE_BITS) /* the AVX2 masks are builtins */
  assert_int_equal(WC_CLONES, 1);
  assert_int_equal(WC_TRUTH_CLONES, 0);
#else
  assert_int_equal(WC_CLONES, 1);
  assert_int_equal(WC_TRUTH_CLONES, 1);
#endif
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_popcount_and_ctz_match_bit_by_bit_counts),
      cmocka_unit_test(test_mask64_sets_a_bit_for_every_non_zero_byte),
      cmocka_unit_test(test_count_nonzero_counts_every_length_and_offset),
      cmocka_unit_test(test_coords_row_writes_the_true_columns_and_nothing_past_count),
      cmocka_unit_test(test_coords_row_lists_sparse_rows_block_by_block),
      cmocka_unit_test(test_nonzero_bytes_lists_rank_n_coordinates_in_one_pass_or_two),
      cmocka_unit_test(test_avx2_builds_exist_only_in_baseline_x86_64_builds),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
