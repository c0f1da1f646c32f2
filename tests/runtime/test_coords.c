/* test_coords.c: wc_count_true, wc_argwhere ([n, rank]) and wc_nonzero
   ([rank, n]): the non-zero rule of every dtype, capacity, and a randomized
   comparison with the reference. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <cmocka.h>

#include "testlib.h"

/* tf.where(cond) with one argument: coordinates of the true elements, rows. */
static void test_argwhere_lists_true_coordinates_in_row_major_order(void **state) {
  (void)state;
  const int64_t s23[] = {2, 3};
  const bool c[] = {true, false, true, false, true, false};
  const int64_t expect[] = {0, 0, 0, 2, 1, 1};
  int64_t coords[6], n = -1;
  wc_tensor t = tl_tensor(WC_BOOL, 2, s23, c);
  assert_int_equal(wc_argwhere(&t, coords, 6, &n), WC_OK);
  assert_int_equal(n, 3);
  assert_memory_equal(coords, expect, sizeof expect);
}

/* ONNX NonZero: the same coordinates, one row per dimension. */
static void test_nonzero_lists_one_row_per_dimension(void **state) {
  (void)state;
  const int64_t s23[] = {2, 3};
  const bool c[] = {true, false, true, false, true, false};
  const int64_t expect[] = {0, 0, 1, 0, 2, 1};
  int64_t coords[6], n = -1;
  wc_tensor t = tl_tensor(WC_BOOL, 2, s23, c);
  assert_int_equal(wc_nonzero(&t, coords, 6, &n), WC_OK);
  assert_int_equal(n, 3);
  assert_memory_equal(coords, expect, sizeof expect);
}

static void test_count_true_counts_nan_but_not_negative_zero(void **state) {
  (void)state;
  const int64_t s6[] = {6};
  const float f[] = {0.0f, -0.0f, NAN, -NAN, 1e-45f, -INFINITY};
  const double d[] = {0.0, -0.0, NAN, 0.0, 5e-324, 0.0};
  const uint16_t h[] = {0x0000, 0x8000, 0x7e00, 0x0001, 0xfc00, 0x8001};  /* f16 and bf16 alike */
  int64_t n;
  wc_tensor t = tl_tensor(WC_FLOAT, 1, s6, f);
  assert_int_equal(wc_count_true(&t, &n), WC_OK);
  assert_int_equal(n, 4);
  t = tl_tensor(WC_DOUBLE, 1, s6, d);
  assert_int_equal(wc_count_true(&t, &n), WC_OK);
  assert_int_equal(n, 2);
  t = tl_tensor(WC_FLOAT16, 1, s6, h);
  assert_int_equal(wc_count_true(&t, &n), WC_OK);
  assert_int_equal(n, 4);
  t = tl_tensor(WC_BFLOAT16, 1, s6, h);
  assert_int_equal(wc_count_true(&t, &n), WC_OK);
  assert_int_equal(n, 4);
}

static void test_count_true_complex_is_true_if_either_part_is(void **state) {
  (void)state;
  const int64_t s4[] = {4};
  const wc_complex64 c[] = {{0, 0}, {-0.0f, 0}, {0, 2}, {3, -0.0f}};
  const wc_complex128 z[] = {{0, -0.0}, {NAN, 0}, {0, 0}, {0, 1e-310}};
  int64_t n;
  wc_tensor t = tl_tensor(WC_COMPLEX64, 1, s4, c);
  assert_int_equal(wc_count_true(&t, &n), WC_OK);
  assert_int_equal(n, 2);
  t = tl_tensor(WC_COMPLEX128, 1, s4, z);
  assert_int_equal(wc_count_true(&t, &n), WC_OK);
  assert_int_equal(n, 2);
}

static void test_count_true_string_is_true_if_non_empty(void **state) {
  (void)state;
  const int64_t s4[] = {4};
  const char *s[] = {"", "x", "", " "};
  int64_t n;
  wc_tensor t = tl_tensor(WC_STRING, 1, s4, s);
  assert_int_equal(wc_count_true(&t, &n), WC_OK);
  assert_int_equal(n, 2);
}

static void test_count_true_integers_by_value(void **state) {
  (void)state;
  const int64_t s4[] = {4};
  const int8_t i8[] = {0, -128, 0, 1};
  const uint32_t u32[] = {0, 0, 0x80000000u, 0};
  const int64_t i64[] = {INT64_MIN, 0, 0, -1};
  int64_t n;
  wc_tensor t = tl_tensor(WC_INT8, 1, s4, i8);
  assert_int_equal(wc_count_true(&t, &n), WC_OK);
  assert_int_equal(n, 2);
  t = tl_tensor(WC_UINT32, 1, s4, u32);
  assert_int_equal(wc_count_true(&t, &n), WC_OK);
  assert_int_equal(n, 1);
  t = tl_tensor(WC_INT64, 1, s4, i64);
  assert_int_equal(wc_count_true(&t, &n), WC_OK);
  assert_int_equal(n, 2);
}

static void test_argwhere_too_small_capacity_still_reports_n(void **state) {
  (void)state;
  const int64_t s23[] = {2, 3};
  const bool c[] = {true, true, true, false, true, false};
  int64_t coords[8] = {0}, n = -1;
  const int64_t untouched[8] = {0};
  wc_tensor t = tl_tensor(WC_BOOL, 2, s23, c);
  assert_int_equal(wc_argwhere(&t, coords, 7, &n), WC_E_CAPACITY);
  assert_int_equal(n, 4);
  assert_memory_equal(coords, untouched, sizeof coords);
  assert_int_equal(wc_nonzero(&t, coords, 7, &n), WC_E_CAPACITY);
  assert_int_equal(n, 4);
  assert_int_equal(wc_argwhere(&t, NULL, 0, &n), WC_E_CAPACITY);
  assert_int_equal(n, 4);
}

static void test_argwhere_of_scalar_gives_rows_of_zero_columns(void **state) {
  (void)state;
  const bool yes = true, no = false;
  int64_t n = -1;
  wc_tensor t = tl_tensor(WC_BOOL, 0, NULL, &yes);
  assert_int_equal(wc_argwhere(&t, NULL, 0, &n), WC_OK);
  assert_int_equal(n, 1);
  t = tl_tensor(WC_BOOL, 0, NULL, &no);
  assert_int_equal(wc_nonzero(&t, NULL, 0, &n), WC_OK);
  assert_int_equal(n, 0);
}

static void test_argwhere_of_zero_size_tensor_is_empty(void **state) {
  (void)state;
  const int64_t s[] = {3, 0, 2};
  int64_t n = -1;
  wc_tensor t = tl_tensor(WC_FLOAT, 3, s, NULL);
  assert_int_equal(wc_argwhere(&t, NULL, 0, &n), WC_OK);
  assert_int_equal(n, 0);
}

/* Random tensors of every dtype and rank 0..6 (zero-size extents included),
   both layouts, against the reference. */
static void test_coordinates_match_reference_for_every_dtype_and_rank(void **state) {
  (void)state;
  static const wc_dtype dts[] = {
#define X(E, code, name, ctype, alias, sfx, kind) WC_##E,
    WC_DTYPE_LIST(X)
#undef X
  };
  tl_rng rng = {0x5eed1234u};
  int cases = 0;
  for (size_t k = 0; k < sizeof dts / sizeof *dts; k++)
    for (int rank = 0; rank <= 6; rank++)
      for (int trial = 0; trial < 12; trial++) {
        int64_t shape[WC_MAX_RANK];
        for (int d = 0; d < rank; d++) shape[d] = tl_below(&rng, trial == 0 ? 2 : 5) + (trial == 1);
        wc_tensor t = tl_alloc(dts[k], rank, shape);
        tl_fill(&rng, &t, trial % 3 == 0 ? 0.02 : 0.5);
        int64_t cap = tl_count(rank, shape) * rank;
        int64_t *got = malloc((size_t)(cap + 1) * sizeof *got), *ref = malloc((size_t)(cap + 1) * sizeof *ref);
        int64_t n1 = -1, n2 = -2;
        assert_int_equal(wc_argwhere(&t, got, cap, &n1), WC_OK);
        assert_int_equal(wc_ref_argwhere(&t, ref, cap, &n2), WC_OK);
        assert_int_equal(n1, n2);
        assert_memory_equal(got, ref, (size_t)(n1 * rank) * sizeof *got);
        assert_int_equal(wc_nonzero(&t, got, cap, &n1), WC_OK);
        assert_int_equal(wc_ref_nonzero(&t, ref, cap, &n2), WC_OK);
        assert_int_equal(n1, n2);
        assert_memory_equal(got, ref, (size_t)(n1 * rank) * sizeof *got);
        free(got);
        free(ref);
        tl_free(&t);
        cases++;
      }
  assert_int_equal(cases, 16 * 7 * 12);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_argwhere_lists_true_coordinates_in_row_major_order),
    cmocka_unit_test(test_nonzero_lists_one_row_per_dimension),
    cmocka_unit_test(test_count_true_counts_nan_but_not_negative_zero),
    cmocka_unit_test(test_count_true_complex_is_true_if_either_part_is),
    cmocka_unit_test(test_count_true_string_is_true_if_non_empty),
    cmocka_unit_test(test_count_true_integers_by_value),
    cmocka_unit_test(test_argwhere_too_small_capacity_still_reports_n),
    cmocka_unit_test(test_argwhere_of_scalar_gives_rows_of_zero_columns),
    cmocka_unit_test(test_argwhere_of_zero_size_tensor_is_empty),
    cmocka_unit_test(test_coordinates_match_reference_for_every_dtype_and_rank),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
