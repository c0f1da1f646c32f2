/* test_bad_input.c: every class of bad input of the runtime API (wherec/wherec.h)
   gets a status from every entry point, and no output byte is touched. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <cmocka.h>

#include <wherec/wherec.h>

#include "testlib.h"

/* A valid call: cond bool[2,3], x, y, out float[2,3]; out filled with a sentinel. */
typedef struct call {
  bool c[6];
  float x[6], y[6], out[6];
  wc_tensor tc, tx, ty, to;
} call;

static void valid_call(call *k) {
  memset(k, 0, sizeof *k);
  for (int i = 0; i < 6; i++) { k->c[i] = i % 2; k->x[i] = (float)i; k->y[i] = -1; }
  memset(k->out, 0xab, sizeof k->out);
  wc_tensor *ts[4] = {&k->tc, &k->tx, &k->ty, &k->to};
  void *data[4] = {k->c, k->x, k->y, k->out};
  for (int i = 0; i < 4; i++) {
    ts[i]->dtype = i == 0 ? WC_BOOL : WC_FLOAT;
    ts[i]->rank = 2;
    ts[i]->shape[0] = 2;
    ts[i]->shape[1] = 3;
    ts[i]->data = data[i];
  }
}

static bool out_untouched(const call *k) {
  for (size_t i = 0; i < sizeof k->out; i++)
    if (((const unsigned char *)k->out)[i] != 0xab) return false;
  return true;
}

/* Runs both select entry points and the reference on k; all must say `want`. */
static void expect_select_status(call *k, wc_status want) {
  assert_int_equal(wc_where(&k->tc, &k->tx, &k->ty, &k->to), want);
  assert_int_equal(wc_where_v1(&k->tc, &k->tx, &k->ty, &k->to), want);
  assert_int_equal(wc_ref_where(&k->tc, &k->tx, &k->ty, &k->to), want);
  assert_int_equal(wc_ref_where_v1(&k->tc, &k->tx, &k->ty, &k->to), want);
  assert_true(out_untouched(k));
}

/* The coordinate entry points on tensor t must all say `want`. */
static void expect_coords_status(const wc_tensor *t, wc_status want) {
  int64_t coords[64], n;
  assert_int_equal(wc_count_true(t, &n), want);
  assert_int_equal(wc_argwhere(t, coords, 64, &n), want);
  assert_int_equal(wc_nonzero(t, coords, 64, &n), want);
  assert_int_equal(wc_ref_argwhere(t, coords, 64, &n), want);
  assert_int_equal(wc_ref_nonzero(t, coords, 64, &n), want);
}

static void test_valid_call_is_accepted(void **state) {
  (void)state;
  call k;
  valid_call(&k);
  tl_assert_status(wc_where(&k.tc, &k.tx, &k.ty, &k.to), WC_OK);
  assert_false(out_untouched(&k));
}

static void test_null_tensor_pointers_return_arg_error(void **state) {
  (void)state;
  call k;
  int64_t n, coords[4];
  valid_call(&k);
  for (int which = 0; which < 4; which++) {
    wc_tensor *ts[4] = {&k.tc, &k.tx, &k.ty, &k.to};
    ts[which] = NULL;
    tl_assert_status(wc_where(ts[0], ts[1], ts[2], ts[3]), WC_E_ARG);
    tl_assert_status(wc_where_v1(ts[0], ts[1], ts[2], ts[3]), WC_E_ARG);
    tl_assert_status(wc_ref_where(ts[0], ts[1], ts[2], ts[3]), WC_E_ARG);
  }
  assert_true(out_untouched(&k));
  expect_coords_status(NULL, WC_E_ARG);
  tl_assert_status(wc_count_true(&k.tc, NULL), WC_E_ARG);
  tl_assert_status(wc_argwhere(&k.tc, coords, 4, NULL), WC_E_ARG);
  const wc_tensor *in[2] = {&k.tc, NULL};
  int r;
  int64_t s[WC_MAX_RANK];
  tl_assert_status(wc_broadcast_shape(in, 2, &r, s), WC_E_ARG);
  tl_assert_status(wc_broadcast_shape(NULL, 2, &r, s), WC_E_ARG);
  tl_assert_status(wc_broadcast_shape(in, 1, NULL, s), WC_E_ARG);
  (void)n;
}

static void test_null_data_with_elements_returns_arg_error(void **state) {
  (void)state;
  for (int which = 0; which < 4; which++) {
    call k;
    valid_call(&k);
    wc_tensor *ts[4] = {&k.tc, &k.tx, &k.ty, &k.to};
    ts[which]->data = NULL;
    expect_select_status(&k, WC_E_ARG);
  }
  call k;
  valid_call(&k);
  k.tx.data = NULL;
  expect_coords_status(&k.tx, WC_E_ARG);
}

static void test_rank_out_of_range_returns_rank_error(void **state) {
  (void)state;
  static const int bad[] = {-1, -1000, WC_MAX_RANK + 1, 1 << 30};
  for (size_t b = 0; b < sizeof bad / sizeof *bad; b++)
    for (int which = 0; which < 4; which++) {
      call k;
      valid_call(&k);
      wc_tensor *ts[4] = {&k.tc, &k.tx, &k.ty, &k.to};
      ts[which]->rank = bad[b];
      expect_select_status(&k, WC_E_RANK);
      expect_coords_status(ts[which], WC_E_RANK);
      const wc_tensor *in[1] = {ts[which]};
      int r;
      int64_t s[WC_MAX_RANK];
      tl_assert_status(wc_broadcast_shape(in, 1, &r, s), WC_E_RANK);
    }
}

static void test_negative_extent_returns_shape_error(void **state) {
  (void)state;
  for (int which = 0; which < 4; which++) {
    call k;
    valid_call(&k);
    wc_tensor *ts[4] = {&k.tc, &k.tx, &k.ty, &k.to};
    ts[which]->shape[1] = -3;
    expect_select_status(&k, WC_E_SHAPE);
    expect_coords_status(ts[which], WC_E_SHAPE);
  }
}

static void test_element_count_overflow_returns_overflow_error(void **state) {
  (void)state;
  call k;
  valid_call(&k);
  k.tx.rank = 3;
  k.tx.shape[0] = INT64_MAX / 2;
  k.tx.shape[1] = 3;
  k.tx.shape[2] = 1;
  expect_select_status(&k, WC_E_OVERFLOW);
  expect_coords_status(&k.tx, WC_E_OVERFLOW);
}

static void test_byte_size_overflow_returns_overflow_error(void **state) {
  (void)state;
  call k;
  valid_call(&k);
  k.tx.rank = 1;
  k.tx.shape[0] = INT64_MAX / 4 + 1;   /* fits int64 as a count, not as bytes of float */
  expect_select_status(&k, WC_E_OVERFLOW);
  expect_coords_status(&k.tx, WC_E_OVERFLOW);
}

static void test_shapes_that_do_not_broadcast_return_shape_error(void **state) {
  (void)state;
  call k;
  valid_call(&k);
  k.ty.shape[0] = 3;
  k.ty.shape[1] = 2;
  expect_select_status(&k, WC_E_SHAPE);
}

static void test_out_of_wrong_shape_returns_shape_error(void **state) {
  (void)state;
  call k;
  valid_call(&k);
  k.to.shape[0] = 1;
  expect_select_status(&k, WC_E_SHAPE);
  valid_call(&k);
  k.to.rank = 3;
  k.to.shape[2] = 1;
  expect_select_status(&k, WC_E_SHAPE);
}

static void test_out_of_wrong_dtype_returns_dtype_error(void **state) {
  (void)state;
  call k;
  valid_call(&k);
  k.to.dtype = WC_INT32;
  expect_select_status(&k, WC_E_DTYPE);
}

static void test_non_bool_condition_returns_dtype_error(void **state) {
  (void)state;
  call k;
  valid_call(&k);
  k.tc.dtype = WC_UINT8;
  expect_select_status(&k, WC_E_DTYPE);
}

static void test_x_and_y_of_different_dtypes_return_dtype_error(void **state) {
  (void)state;
  call k;
  valid_call(&k);
  k.ty.dtype = WC_INT32;
  expect_select_status(&k, WC_E_DTYPE);
}

static void test_unknown_dtype_code_returns_dtype_error(void **state) {
  (void)state;
  static const int bad[] = {0, 17, -5, 255};
  for (size_t b = 0; b < sizeof bad / sizeof *bad; b++)
    for (int which = 0; which < 4; which++) {
      call k;
      valid_call(&k);
      wc_tensor *ts[4] = {&k.tc, &k.tx, &k.ty, &k.to};
      ts[which]->dtype = (wc_dtype)bad[b];
      expect_select_status(&k, WC_E_DTYPE);
      expect_coords_status(ts[which], WC_E_DTYPE);
    }
}

static void test_negative_capacity_and_missing_coords_return_arg_error(void **state) {
  (void)state;
  call k;
  int64_t n;
  valid_call(&k);
  tl_assert_status(wc_argwhere(&k.tc, NULL, -1, &n), WC_E_ARG);
  tl_assert_status(wc_nonzero(&k.tc, NULL, 100, &n), WC_E_ARG); /* fits, but nowhere to write */
  tl_assert_status(wc_ref_argwhere(&k.tc, NULL, 100, &n), WC_E_ARG);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_valid_call_is_accepted),
    cmocka_unit_test(test_null_tensor_pointers_return_arg_error),
    cmocka_unit_test(test_null_data_with_elements_returns_arg_error),
    cmocka_unit_test(test_rank_out_of_range_returns_rank_error),
    cmocka_unit_test(test_negative_extent_returns_shape_error),
    cmocka_unit_test(test_element_count_overflow_returns_overflow_error),
    cmocka_unit_test(test_byte_size_overflow_returns_overflow_error),
    cmocka_unit_test(test_shapes_that_do_not_broadcast_return_shape_error),
    cmocka_unit_test(test_out_of_wrong_shape_returns_shape_error),
    cmocka_unit_test(test_out_of_wrong_dtype_returns_dtype_error),
    cmocka_unit_test(test_non_bool_condition_returns_dtype_error),
    cmocka_unit_test(test_x_and_y_of_different_dtypes_return_dtype_error),
    cmocka_unit_test(test_unknown_dtype_code_returns_dtype_error),
    cmocka_unit_test(test_negative_capacity_and_missing_coords_return_arg_error),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
