/* test_truth.c: wherec/truth.h, the byte masks, bit counts and the coordinate
   writer of argwhere/nonzero; built twice: with the builtins, and with
   WC_PORTABLE_BITS (the portable bodies other compilers get). */
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

static void test_mask64_sets_a_bit_for_every_non_zero_byte(void **state) {
  (void)state;
  uint8_t b[64 + 7];
  for (int trial = 0; trial < 5000; trial++) {
    const size_t at = (size_t)trial % 8; /* unaligned too */
    for (size_t i = 0; i < sizeof b; i++) b[i] = random_byte((unsigned)trial % 9);
    uint64_t want = 0;
    for (int i = 0; i < 64; i++) want |= (uint64_t)(b[at + (size_t)i] != 0) << i;
    assert_true(wc_mask64(b + at) == want);
    assert_true(wc_mask_tail(b + at, (size_t)trial % 64) == (want & ((UINT64_C(1) << (trial % 64)) - 1)));
  }
}

static void test_count_nonzero_counts_every_length_and_offset(void **state) {
  (void)state;
  enum { MAX = 9000 };
  uint8_t *b = malloc(MAX + 8);
  for (size_t i = 0; i < MAX + 8; i++) b[i] = random_byte(3);
  for (size_t len = 0; len < MAX; len += len < 300 ? 1 : 997)
    for (size_t at = 0; at < 8; at += 3) {
      int64_t want = 0;
      for (size_t i = 0; i < len; i++) want += b[at + i] != 0;
      assert_int_equal(wc_count_nonzero(b + at, len), want);
    }
  memset(b, 0xff, MAX);
  assert_int_equal(wc_count_nonzero(b, MAX), MAX); /* lanes saturate at 255 rounds of 1 */
  free(b);
}

/* wc_coords_row on rows of every length, at every fill level, into exactly
   count slots after a canary: the naive list of (outer, column) pairs. */
static void test_coords_row_writes_the_true_columns_and_nothing_past_count(void **state) {
  (void)state;
  enum { LEN = 300 };
  uint8_t t[LEN];
  int64_t buf[2 * LEN + 2], want[2 * LEN];
  const int64_t outer[1] = {7};
  for (size_t len = 0; len <= LEN; len += len < 140 ? 1 : 37)
    for (unsigned p8 = 0; p8 <= 8; p8 += 2)
      for (int layout = 0; layout < 2; layout++) {
        int64_t count = 0, n = 0;
        for (size_t i = 0; i < len; i++) count += (t[i] = random_byte(p8)) != 0;
        const size_t step = layout ? 1 : (size_t)count, next = layout ? 2 : 1;
        for (size_t i = 0, k = 0; i < len; i++)
          if (t[i]) want[k * next] = 7, want[k * next + step] = 100 + (int64_t)i, k++;
        buf[0] = buf[2 * count + 1] = -99;
        wc_coords_row(t, len, 100, outer, 1, buf + 1, &n, count, step, next);
        assert_int_equal(n, count);
        assert_memory_equal(buf + 1, want, (size_t)(2 * count) * sizeof *buf);
        assert_true(buf[0] == -99 && buf[2 * count + 1] == -99);
      }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_popcount_and_ctz_match_bit_by_bit_counts),
      cmocka_unit_test(test_mask64_sets_a_bit_for_every_non_zero_byte),
      cmocka_unit_test(test_count_nonzero_counts_every_length_and_offset),
      cmocka_unit_test(test_coords_row_writes_the_true_columns_and_nothing_past_count),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
