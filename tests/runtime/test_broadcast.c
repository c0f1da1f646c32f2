/* test_broadcast.c: wc_broadcast_shape, ONNX/numpy multidirectional rules. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <cmocka.h>

#include <wherec/wherec.h>

#include "testlib.h"

static wc_tensor shape_of(int rank, const int64_t *shape) {
  wc_tensor t;
  memset(&t, 0, sizeof t);
  t.dtype = WC_FLOAT;
  t.rank = rank;
  for (int d = 0; d < rank; d++) t.shape[d] = shape[d];
  return t;
}

static void expect_broadcast(wc_tensor a, wc_tensor b, wc_tensor c, int rank, const int64_t *shape) {
  const wc_tensor *ts[3] = {&a, &b, &c};
  int r = -1;
  int64_t s[WC_MAX_RANK];
  tl_assert_status(wc_broadcast_shape(ts, 3, &r, s), WC_OK);
  assert_int_equal(r, rank);
  for (int d = 0; d < rank; d++) assert_int_equal(s[d], shape[d]);
}

static void test_broadcast_aligns_shapes_on_the_right(void **state) {
  (void)state;
  const int64_t a[] = {2, 1, 4}, b[] = {3, 1}, c[] = {4}, out[] = {2, 3, 4};
  expect_broadcast(shape_of(3, a), shape_of(2, b), shape_of(1, c), 3, out);
}

static void test_broadcast_of_scalars_is_scalar(void **state) {
  (void)state;
  expect_broadcast(shape_of(0, NULL), shape_of(0, NULL), shape_of(0, NULL), 0, NULL);
}

static void test_broadcast_keeps_zero_extent_against_one(void **state) {
  (void)state;
  const int64_t a[] = {0, 1}, b[] = {1, 5}, out[] = {0, 5};
  expect_broadcast(shape_of(2, a), shape_of(2, b), shape_of(0, NULL), 2, out);
}

static void test_broadcast_rejects_mismatched_extents(void **state) {
  (void)state;
  const int64_t a[] = {2, 3}, b[] = {3, 2}, z[] = {0}, t[] = {3};
  wc_tensor ta = shape_of(2, a), tb = shape_of(2, b), tz = shape_of(1, z), tt = shape_of(1, t);
  const wc_tensor *ts[2] = {&ta, &tb}, *tz2[2] = {&tz, &tt};
  int r;
  int64_t s[WC_MAX_RANK];
  tl_assert_status(wc_broadcast_shape(ts, 2, &r, s), WC_E_SHAPE);
  tl_assert_status(wc_broadcast_shape(tz2, 2, &r, s), WC_E_SHAPE); /* 0 vs 3 */
}

static void test_broadcast_reaches_rank_16(void **state) {
  (void)state;
  int64_t a[WC_MAX_RANK], out[WC_MAX_RANK];
  for (int d = 0; d < WC_MAX_RANK; d++) { a[d] = d % 2 ? 1 : 2; out[d] = 2; }
  const int64_t b[] = {2};
  expect_broadcast(shape_of(WC_MAX_RANK, a), shape_of(1, b), shape_of(WC_MAX_RANK, out), WC_MAX_RANK, out);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_broadcast_aligns_shapes_on_the_right),
    cmocka_unit_test(test_broadcast_of_scalars_is_scalar),
    cmocka_unit_test(test_broadcast_keeps_zero_extent_against_one),
    cmocka_unit_test(test_broadcast_rejects_mismatched_extents),
    cmocka_unit_test(test_broadcast_reaches_rank_16),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
