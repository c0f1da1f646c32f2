/* test_coords.c: wc_count_true, wc_argwhere ([n, rank]) and wc_nonzero
   ([rank, n]): the non-zero rule of every dtype, capacity, and a randomized
   comparison with the reference. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
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
  tl_assert_status(wc_argwhere(&t, coords, 6, &n), WC_OK);
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
  tl_assert_status(wc_nonzero(&t, coords, 6, &n), WC_OK);
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
  tl_assert_status(wc_count_true(&t, &n), WC_OK);
  assert_int_equal(n, 4);
  t = tl_tensor(WC_DOUBLE, 1, s6, d);
  tl_assert_status(wc_count_true(&t, &n), WC_OK);
  assert_int_equal(n, 2);
  t = tl_tensor(WC_FLOAT16, 1, s6, h);
  tl_assert_status(wc_count_true(&t, &n), WC_OK);
  assert_int_equal(n, 4);
  t = tl_tensor(WC_BFLOAT16, 1, s6, h);
  tl_assert_status(wc_count_true(&t, &n), WC_OK);
  assert_int_equal(n, 4);
}

static void test_count_true_complex_is_true_if_either_part_is(void **state) {
  (void)state;
  const int64_t s4[] = {4};
  const wc_complex64 c[] = {{0, 0}, {-0.0f, 0}, {0, 2}, {3, -0.0f}};
  const wc_complex128 z[] = {{0, -0.0}, {NAN, 0}, {0, 0}, {0, 1e-310}};
  int64_t n;
  wc_tensor t = tl_tensor(WC_COMPLEX64, 1, s4, c);
  tl_assert_status(wc_count_true(&t, &n), WC_OK);
  assert_int_equal(n, 2);
  t = tl_tensor(WC_COMPLEX128, 1, s4, z);
  tl_assert_status(wc_count_true(&t, &n), WC_OK);
  assert_int_equal(n, 2);
}

static void test_count_true_string_is_true_if_non_empty(void **state) {
  (void)state;
  const int64_t s4[] = {4};
  const char *s[] = {"", "x", "", " "};
  int64_t n;
  wc_tensor t = tl_tensor(WC_STRING, 1, s4, s);
  tl_assert_status(wc_count_true(&t, &n), WC_OK);
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
  tl_assert_status(wc_count_true(&t, &n), WC_OK);
  assert_int_equal(n, 2);
  t = tl_tensor(WC_UINT32, 1, s4, u32);
  tl_assert_status(wc_count_true(&t, &n), WC_OK);
  assert_int_equal(n, 1);
  t = tl_tensor(WC_INT64, 1, s4, i64);
  tl_assert_status(wc_count_true(&t, &n), WC_OK);
  assert_int_equal(n, 2);
}

static void test_argwhere_too_small_capacity_still_reports_n(void **state) {
  (void)state;
  const int64_t s23[] = {2, 3};
  const bool c[] = {true, true, true, false, true, false};
  int64_t coords[8] = {0}, n = -1;
  const int64_t untouched[8] = {0};
  wc_tensor t = tl_tensor(WC_BOOL, 2, s23, c);
  tl_assert_status(wc_argwhere(&t, coords, 7, &n), WC_E_CAPACITY);
  assert_int_equal(n, 4);
  assert_memory_equal(coords, untouched, sizeof coords);
  tl_assert_status(wc_nonzero(&t, coords, 7, &n), WC_E_CAPACITY);
  assert_int_equal(n, 4);
  tl_assert_status(wc_argwhere(&t, NULL, 0, &n), WC_E_CAPACITY);
  assert_int_equal(n, 4);
}

static void test_argwhere_of_scalar_gives_rows_of_zero_columns(void **state) {
  (void)state;
  const bool yes = true, no = false;
  int64_t n = -1;
  wc_tensor t = tl_tensor(WC_BOOL, 0, NULL, &yes);
  tl_assert_status(wc_argwhere(&t, NULL, 0, &n), WC_OK);
  assert_int_equal(n, 1);
  t = tl_tensor(WC_BOOL, 0, NULL, &no);
  tl_assert_status(wc_nonzero(&t, NULL, 0, &n), WC_OK);
  assert_int_equal(n, 0);
}

static void test_argwhere_of_zero_size_tensor_is_empty(void **state) {
  (void)state;
  const int64_t s[] = {3, 0, 2};
  int64_t n = -1;
  wc_tensor t = tl_tensor(WC_FLOAT, 3, s, NULL);
  tl_assert_status(wc_argwhere(&t, NULL, 0, &n), WC_OK);
  assert_int_equal(n, 0);
}

/* Random tensors of every dtype and rank 0..6 (zero-size extents included),
   both layouts, against the reference. */
static void test_coordinates_match_reference_for_every_dtype_and_rank(void **state) {
  (void)state;
  tl_rng rng = {0x5eed1234u};
  int cases = 0;
  for (size_t k = 0; k < TL_N_DTYPES; k++)
    for (int rank = 0; rank <= 6; rank++)
      for (int trial = 0; trial < 12; trial++) {
        int64_t shape[WC_MAX_RANK];
        for (int d = 0; d < rank; d++) shape[d] = tl_below(&rng, trial == 0 ? 2 : 5) + (trial == 1);
        wc_tensor t = tl_alloc(tl_all_dtypes[k], rank, shape);
        tl_fill(&rng, &t, trial % 3 == 0 ? 0.02 : 0.5);
        int64_t cap = tl_count(rank, shape) * rank;
        int64_t *got = malloc((size_t)(cap + 1) * sizeof *got), *ref = malloc((size_t)(cap + 1) * sizeof *ref);
        int64_t n1 = -1, n2 = -2;
        tl_assert_status(wc_argwhere(&t, got, cap, &n1), WC_OK);
        tl_assert_status(wc_ref_argwhere(&t, ref, cap, &n2), WC_OK);
        assert_int_equal(n1, n2);
        assert_memory_equal(got, ref, (size_t)(n1 * rank) * sizeof *got);
        tl_assert_status(wc_nonzero(&t, got, cap, &n1), WC_OK);
        tl_assert_status(wc_ref_nonzero(&t, ref, cap, &n2), WC_OK);
        assert_int_equal(n1, n2);
        assert_memory_equal(got, ref, (size_t)(n1 * rank) * sizeof *got);
        free(got);
        free(ref);
        tl_free(&t);
        cases++;
      }
  assert_int_equal(cases, 16 * 7 * 12);
}

/* Coordinates of t through wc_argwhere and wc_nonzero, each into a buffer of
   exactly n * rank slots between two canary words, and into one with room
   for every element (nonzero of 1-byte dtypes: its one pass), whose slots
   past n * rank keep their canaries; against the reference. */
static void check_exact_fit(const wc_tensor *t) {
  int64_t n = -1, n_ref = -2;
  tl_assert_status(wc_count_true(t, &n), WC_OK);
  const int64_t need = n * t->rank, cap = tl_count(t->rank, t->shape) * t->rank;
  const int64_t canary = INT64_C(0x5a5a5a5a5a5a5a5a);
  int64_t *ref = malloc((size_t)(cap + 1) * sizeof *ref), *buf = malloc((size_t)(cap + 2) * sizeof *buf);
  for (int rows = 0; rows < 2; rows++)
    for (int roomy = 0; roomy < 2; roomy++) {
      const int64_t room = roomy ? cap : need;
      int64_t got = -3;
      for (int64_t i = 0; i < cap + 2; i++) buf[i] = canary;
      tl_assert_status(
          rows ? wc_argwhere(t, buf + 1, room, &got) : wc_nonzero(t, buf + 1, room, &got), WC_OK);
      tl_assert_status(
          rows ? wc_ref_argwhere(t, ref, cap, &n_ref) : wc_ref_nonzero(t, ref, cap, &n_ref), WC_OK);
      assert_int_equal(got, n);
      assert_int_equal(n_ref, n);
      assert_memory_equal(buf + 1, ref, (size_t)need * sizeof *buf);
      assert_true(buf[0] == canary);
      for (int64_t i = need + 1; i < cap + 2; i++) assert_true(buf[i] == canary);
    }
  free(ref);
  free(buf);
}

/* Rows of every length from 0 to 200 (each remainder modulo 8, 16, 32 and
   64, below, at and above one and several 64-byte blocks), all false, sparse,
   dense and all true, the true bytes of every value 1 to 255. */
static void test_coordinates_cover_every_row_length_and_density(void **state) {
  (void)state;
  static const double density[] = {0.0, 0.03, 0.5, 0.9, 1.0};
  tl_rng rng = {0xc0ffee11u};
  for (int64_t len = 0; len <= 200; len++)
    for (size_t d = 0; d < sizeof density / sizeof *density; d++)
      for (int rank = 1; rank <= 3; rank++) {
        const int64_t shape[3] = {rank == 1 ? len : 3, rank == 3 ? 2 : len, len};
        wc_tensor t = tl_alloc(WC_BOOL, rank, shape);
        uint8_t *b = t.data;
        for (int64_t i = 0; i < tl_count(rank, shape); i++)
          b[i] = (uint8_t)((double)tl_below(&rng, 1 << 20) < density[d] * (1 << 20) ? 1 + tl_below(&rng, 255) : 0);
        check_exact_fit(&t);
        wc_tensor u = t;
        u.dtype = WC_UINT8; /* same bytes, another 1-byte dtype */
        check_exact_fit(&u);
        tl_free(&t);
      }
}

/* A bool byte other than 0 and 1 is true (read as != 0), whichever bit it sets. */
static void test_coordinates_count_every_non_zero_bool_byte_as_true(void **state) {
  (void)state;
  uint8_t data[130] = {0};
  const uint8_t odd[] = {2, 0x80, 0xff, 0x10, 0x7f, 1, 0x40, 3};
  for (size_t i = 0; i < sizeof odd; i++) data[i * 17] = odd[i];
  const int64_t shape[1] = {130};
  wc_tensor t = tl_tensor(WC_BOOL, 1, shape, data);
  int64_t n = -1, coords[8] = {0};
  tl_assert_status(wc_count_true(&t, &n), WC_OK);
  assert_int_equal(n, 8);
  tl_assert_status(wc_argwhere(&t, coords, 8, &n), WC_OK);
  for (int i = 0; i < 8; i++) assert_int_equal(coords[i], i * 17);
  check_exact_fit(&t);
}

/* All true: every slot of the capacity is written, none beyond. */
static void test_argwhere_of_all_true_fills_the_capacity_exactly(void **state) {
  (void)state;
  const int64_t shape[2] = {5, 131};
  wc_tensor t = tl_alloc(WC_BOOL, 2, shape);
  memset(t.data, 1, 5 * 131);
  check_exact_fit(&t);
  int64_t n = -1, *coords = malloc(5 * 131 * 2 * sizeof *coords);
  tl_assert_status(wc_argwhere(&t, coords, 5 * 131 * 2, &n), WC_OK);
  assert_int_equal(n, 5 * 131);
  for (int64_t i = 0; i < n; i++) {
    assert_int_equal(coords[2 * i], i / 131);
    assert_int_equal(coords[2 * i + 1], i % 131);
  }
  memset(t.data, 0, 5 * 131);
  tl_assert_status(wc_argwhere(&t, NULL, 0, &n), WC_OK);
  assert_int_equal(n, 0);
  free(coords);
  tl_free(&t);
}

/* Wide dtypes go through blocks of truths: rows longer than a block, every rank. */
static void test_coordinates_of_wide_dtypes_span_truth_blocks(void **state) {
  (void)state;
  static const wc_dtype dts[] = {WC_FLOAT, WC_INT64, WC_FLOAT16, WC_COMPLEX64};
  tl_rng rng = {0xabcdef01u};
  for (size_t k = 0; k < sizeof dts / sizeof *dts; k++)
    for (int rank = 1; rank <= 4; rank++) {
      int64_t shape[4] = {2, 3, 2, 2};
      shape[rank - 1] = 1100 + (int64_t)k;                 /* past two blocks of 512 */
      wc_tensor t = tl_alloc(dts[k], rank, shape);
      tl_fill(&rng, &t, rank % 2 ? 0.05 : 0.6);
      check_exact_fit(&t);
      tl_free(&t);
    }
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
    cmocka_unit_test(test_coordinates_cover_every_row_length_and_density),
    cmocka_unit_test(test_coordinates_count_every_non_zero_bool_byte_as_true),
    cmocka_unit_test(test_argwhere_of_all_true_fills_the_capacity_exactly),
    cmocka_unit_test(test_coordinates_of_wide_dtypes_span_truth_blocks),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
