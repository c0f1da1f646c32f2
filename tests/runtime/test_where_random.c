/* test_where_random.c: randomized differential test of the generic Where
   (and where_v1) against the reference: every dtype x broadcast pattern x
   rank 0..6, zero-size extents and in-place calls, fixed seeds. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <cmocka.h>

#include "testlib.h"

/* Broadcast patterns: how each operand's shape is derived from the output's. */
typedef enum pattern {
  P_SAME, P_SCALAR_X, P_SCALAR_Y, P_SCALAR_COND, P_ROW_COND, P_COL_COND,
  P_ROW_Y, P_LOWER_RANK, P_RANDOM, P_COUNT
} pattern;

static const char *const pattern_names[P_COUNT] = {
  "same", "scalar x", "scalar y", "scalar cond", "cond [R,1]", "cond [1,C]",
  "y [1,C]", "lower-rank operands", "random"
};

/* Byte equality that accepts empty (possibly NULL) buffers. */
static bool same_bytes(const void *a, const void *b, size_t n) {
  return n == 0 || memcmp(a, b, n) == 0;
}

/* Derives an operand shape from out: each dim kept, or 1, or dropped (lower
   rank). Operand `full` keeps out's shape in the free-form patterns, so that
   the three still broadcast to out. */
static void derive(tl_rng *r, pattern p, int which, int full, int orank, const int64_t *oshape,
                   int *rank, int64_t *shape) {
  *rank = orank;
  for (int d = 0; d < orank; d++) shape[d] = oshape[d];
  if ((p == P_LOWER_RANK || p == P_RANDOM) && which == full) return;
  switch (p) {
    case P_SAME: break;
    case P_SCALAR_X: if (which == 1) *rank = 0; break;
    case P_SCALAR_Y: if (which == 2) *rank = 0; break;
    case P_SCALAR_COND: if (which == 0) *rank = 0; break;
    case P_ROW_COND: if (which == 0 && orank > 0) shape[orank - 1] = 1; break;
    case P_COL_COND: if (which == 0 && orank > 1) shape[orank - 2] = 1; break;
    case P_ROW_Y: if (which == 2) for (int d = 0; d + 1 < orank; d++) shape[d] = 1; break;
    case P_LOWER_RANK: {
      int drop = (int)tl_below(r, orank + 1);
      *rank = orank - drop;
      for (int d = 0; d < *rank; d++) shape[d] = oshape[d + drop];
      break;
    }
    case P_RANDOM: case P_COUNT:
      for (int d = 0; d < orank; d++) if (tl_below(r, 2)) shape[d] = 1;
      break;
  }
}

/* One case: random operands of the pattern, generic vs reference byte for
   byte, then again in place (out = x's buffer) when x has the output's shape. */
static void run_case(tl_rng *r, wc_dtype dt, pattern p, int orank, const int64_t *oshape) {
  int ranks[3];
  int64_t shapes[3][WC_MAX_RANK];
  int full = (int)tl_below(r, 3);
  for (int k = 0; k < 3; k++) derive(r, p, k, full, orank, oshape, &ranks[k], shapes[k]);
  wc_tensor c = tl_alloc(WC_BOOL, ranks[0], shapes[0]), x = tl_alloc(dt, ranks[1], shapes[1]),
            y = tl_alloc(dt, ranks[2], shapes[2]), got = tl_alloc(dt, orank, oshape),
            ref = tl_alloc(dt, orank, oshape);
  tl_fill(r, &c, tl_below(r, 4) == 0 ? 0.05 : 0.5);
  tl_fill(r, &x, 0);
  tl_fill(r, &y, 0);
  const wc_tensor *in[3] = {&c, &x, &y};
  int brank;
  int64_t bshape[WC_MAX_RANK];
  tl_assert_status(wc_broadcast_shape(in, 3, &brank, bshape), WC_OK);
  assert_int_equal(brank, orank);
  tl_assert_status(wc_where(&c, &x, &y, &got), WC_OK);
  tl_assert_status(wc_ref_where(&c, &x, &y, &ref), WC_OK);
  if (!same_bytes(got.data, ref.data, tl_bytes(&ref)))
    fail_msg("mismatch: dtype %s, pattern %s, rank %d", wc_dtype_name(dt), pattern_names[p], orank);
  if (ranks[1] == orank && memcmp(x.shape, ref.shape, sizeof x.shape) == 0) {
    tl_assert_status(wc_where(&c, &x, &y, &x), WC_OK); /* in place over x */
    assert_true(same_bytes(x.data, ref.data, tl_bytes(&ref)));
  }
  tl_free(&c); tl_free(&x); tl_free(&y); tl_free(&got); tl_free(&ref);
}

static void random_shape(tl_rng *r, int rank, bool allow_zero, int64_t *shape) {
  for (int d = 0; d < rank; d++) {
    shape[d] = 1 + tl_below(r, rank <= 2 ? 40 : 5);
    if (allow_zero && tl_below(r, 6) == 0) shape[d] = 0;
  }
}

static void test_where_matches_reference_for_every_dtype_pattern_and_rank(void **state) {
  (void)state;
  tl_rng rng = {0x9e3779b97f4a7c15u};
  int cases = 0;
  for (size_t k = 0; k < TL_N_DTYPES; k++)
    for (int p = 0; p < P_COUNT; p++)
      for (int rank = 0; rank <= 6; rank++)
        for (int trial = 0; trial < 4; trial++) {
          int64_t shape[WC_MAX_RANK];
          random_shape(&rng, rank, false, shape);
          run_case(&rng, tl_all_dtypes[k], (pattern)p, rank, shape);
          cases++;
        }
  assert_int_equal(cases, 16 * P_COUNT * 7 * 4);
}

static void test_where_handles_zero_size_extents_for_every_dtype(void **state) {
  (void)state;
  tl_rng rng = {0x1234567887654321u};
  for (size_t k = 0; k < TL_N_DTYPES; k++)
    for (int p = 0; p < P_COUNT; p++)
      for (int rank = 1; rank <= 6; rank++) {
        int64_t shape[WC_MAX_RANK];
        random_shape(&rng, rank, true, shape);
        shape[tl_below(&rng, rank)] = 0;
        run_case(&rng, tl_all_dtypes[k], (pattern)p, rank, shape);
      }
}

/* Long rows exercise the vectorized inner loops past any unroll remainder. */
static void test_where_matches_reference_on_long_rows(void **state) {
  (void)state;
  tl_rng rng = {42};
  for (size_t k = 0; k < TL_N_DTYPES; k++)
    for (int p = 0; p < P_COUNT; p++)
      for (int64_t len = 1; len <= 67; len += 11) {
        int64_t shape[2] = {3, len * 7 + 1};
        run_case(&rng, tl_all_dtypes[k], (pattern)p, 2, shape);
      }
}

static void test_where_handles_rank_16(void **state) {
  (void)state;
  tl_rng rng = {7};
  int64_t shape[WC_MAX_RANK];
  for (int d = 0; d < WC_MAX_RANK; d++) shape[d] = 1 + (d % 3 == 0);
  for (int p = 0; p < P_COUNT; p++) run_case(&rng, WC_INT32, (pattern)p, WC_MAX_RANK, shape);
}

static void test_where_v1_matches_reference_for_every_dtype(void **state) {
  (void)state;
  tl_rng rng = {99};
  for (size_t k = 0; k < TL_N_DTYPES; k++)
    for (int rank = 0; rank <= 6; rank++)
      for (int rows = 0; rows < 2; rows++) {
        int64_t shape[WC_MAX_RANK];
        random_shape(&rng, rank, true, shape);
        int crank = rows && rank > 1 ? 1 : rank;
        wc_tensor c = tl_alloc(WC_BOOL, crank, shape), x = tl_alloc(tl_all_dtypes[k], rank, shape),
                  y = tl_alloc(tl_all_dtypes[k], rank, shape), got = tl_alloc(tl_all_dtypes[k], rank, shape),
                  ref = tl_alloc(tl_all_dtypes[k], rank, shape);
        tl_fill(&rng, &c, 0.5);
        tl_fill(&rng, &x, 0);
        tl_fill(&rng, &y, 0);
        tl_assert_status(wc_where_v1(&c, &x, &y, &got), WC_OK);
        tl_assert_status(wc_ref_where_v1(&c, &x, &y, &ref), WC_OK);
        assert_true(same_bytes(got.data, ref.data, tl_bytes(&ref)));
        tl_free(&c); tl_free(&x); tl_free(&y); tl_free(&got); tl_free(&ref);
      }
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_where_matches_reference_for_every_dtype_pattern_and_rank),
    cmocka_unit_test(test_where_handles_zero_size_extents_for_every_dtype),
    cmocka_unit_test(test_where_matches_reference_on_long_rows),
    cmocka_unit_test(test_where_handles_rank_16),
    cmocka_unit_test(test_where_v1_matches_reference_for_every_dtype),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
