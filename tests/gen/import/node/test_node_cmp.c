/* test_node_cmp.c: the node tests' comparison rules: bits must match, -0.0 is not 0.0, an
   expected NaN accepts any NaN (numpy's sign and payload are the machine's), nothing else. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "node_cmp.h"

/* node_cmp of two one-dimensional tensors of n elements of dtype t, quietly. */
static int cmp(wc_dtype t, const void *e, const void *g, int64_t n) {
  wc_tensor te = {t, 1, {n}, (void *)e}, tg = {t, 1, {n}, (void *)g};
  FILE     *null = fopen("/dev/null", "w");
  assert_non_null(null);
  int rc = node_cmp(&te, &tg, "got.npy", null);
  fclose(null);
  return rc;
}

static void test_node_cmp_accepts_the_same_bits(void **state) {
  (void)state;
  uint32_t f[] = {0x3f800000u, 0x80000000u, 0x7f800000u, 0x00000001u};
  int8_t   i[] = {-128, 0, 127};
  assert_int_equal(cmp(WC_FLOAT, f, f, 4), 0);
  assert_int_equal(cmp(WC_INT8, i, i, 3), 0);
}

static void test_node_cmp_tells_negative_zero_from_zero(void **state) {
  (void)state;
  uint32_t e[] = {0x00000000u}, g[] = {0x80000000u};
  uint64_t de[] = {0x8000000000000000u}, dg[] = {0};
  assert_int_equal(cmp(WC_FLOAT, e, g, 1), 1);
  assert_int_equal(cmp(WC_DOUBLE, de, dg, 1), 1);
}

static void test_node_cmp_accepts_any_nan_where_a_nan_is_expected(void **state) {
  (void)state;
  uint32_t e[] = {0xffc00000u}, g[] = {0x7fc00001u};                   /* x86's default NaN */
  uint16_t he[] = {0xfe00u}, hg[] = {0x7c01u}, be[] = {0xffc0u}, bg[] = {0x7f81u};
  uint64_t de[] = {0xfff8000000000000u}, dg[] = {0x7ff0000000000001u};
  uint32_t ce[] = {0x3f800000u, 0xffc00000u}, cg[] = {0x3f800000u, 0x7fc00000u};
  assert_int_equal(cmp(WC_FLOAT, e, g, 1), 0);
  assert_int_equal(cmp(WC_FLOAT16, he, hg, 1), 0);
  assert_int_equal(cmp(WC_BFLOAT16, be, bg, 1), 0);
  assert_int_equal(cmp(WC_DOUBLE, de, dg, 1), 0);
  assert_int_equal(cmp(WC_COMPLEX64, ce, cg, 1), 0);
}

static void test_node_cmp_rejects_a_number_for_a_nan_and_a_nan_for_a_number(void **state) {
  (void)state;
  uint32_t nan[] = {0x7fc00000u}, inf[] = {0x7f800000u};
  uint16_t hnan[] = {0x7e00u}, hinf[] = {0x7c00u};
  uint32_t ce[] = {0x7fc00000u, 0x3f800000u}, cg[] = {0x7fc00000u, 0x7fc00000u};
  assert_int_equal(cmp(WC_FLOAT, nan, inf, 1), 1);
  assert_int_equal(cmp(WC_FLOAT, inf, nan, 1), 1);
  assert_int_equal(cmp(WC_FLOAT16, hnan, hinf, 1), 1);
  assert_int_equal(cmp(WC_BFLOAT16, hinf, hnan, 1), 1); /* 0x7c00 is a bfloat16 number */
  assert_int_equal(cmp(WC_COMPLEX64, ce, cg, 1), 1);     /* per component */
}

static void test_node_cmp_compares_integers_with_nan_like_bits_exactly(void **state) {
  (void)state;
  uint16_t e[] = {0x7e00u}, g[] = {0x7c01u};
  assert_int_equal(cmp(WC_UINT16, e, g, 1), 1);
  assert_int_equal(cmp(WC_INT16, e, g, 1), 1);
}

static void test_node_cmp_compares_strings_by_content(void **state) {
  (void)state;
  char        a[] = "0.47892547", b[] = "0.47892547";
  const char *e[] = {a, ""}, *g[] = {b, ""}, *h[] = {"0.4789255", ""};
  assert_int_equal(cmp(WC_STRING, e, g, 2), 0);
  assert_int_equal(cmp(WC_STRING, e, h, 2), 1);
}

static void test_node_cmp_rejects_another_dtype_or_shape(void **state) {
  (void)state;
  int32_t   v[] = {1, 2, 3, 4};
  wc_tensor e = {WC_INT32, 2, {2, 2}, v}, g = e;
  FILE     *null = fopen("/dev/null", "w");
  assert_non_null(null);
  assert_int_equal(node_cmp(&e, &g, "got.npy", null), 0);
  g.dtype = WC_UINT32;
  assert_int_equal(node_cmp(&e, &g, "got.npy", null), 1);
  g.dtype = WC_INT32;
  g.shape[0] = 4;
  g.shape[1] = 1;
  assert_int_equal(node_cmp(&e, &g, "got.npy", null), 1);
  g.rank = 1;
  assert_int_equal(node_cmp(&e, &g, "got.npy", null), 1);
  fclose(null);
}

static void test_node_cmp_names_the_first_difference_and_the_count(void **state) {
  (void)state;
  float     e[] = {1.0f, 2.0f, 3.0f}, g[] = {1.0f, -2.0f, 4.0f};
  wc_tensor te = {WC_FLOAT, 1, {3}, e}, tg = {WC_FLOAT, 1, {3}, g};
  char     *text = NULL;
  size_t    len = 0;
  FILE     *f = open_memstream(&text, &len);
  assert_int_equal(node_cmp(&te, &tg, "got.npy", f), 1);
  fclose(f);
  assert_non_null(strstr(text, "got.npy: element 1: expected 0x40000000 (2), got 0xc0000000 (-2)\n"));
  assert_non_null(strstr(text, "got.npy: 2 of 3 elements differ\n"));
  free(text);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_node_cmp_accepts_the_same_bits),
    cmocka_unit_test(test_node_cmp_tells_negative_zero_from_zero),
    cmocka_unit_test(test_node_cmp_accepts_any_nan_where_a_nan_is_expected),
    cmocka_unit_test(test_node_cmp_rejects_a_number_for_a_nan_and_a_nan_for_a_number),
    cmocka_unit_test(test_node_cmp_compares_integers_with_nan_like_bits_exactly),
    cmocka_unit_test(test_node_cmp_compares_strings_by_content),
    cmocka_unit_test(test_node_cmp_rejects_another_dtype_or_shape),
    cmocka_unit_test(test_node_cmp_names_the_first_difference_and_the_count),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
