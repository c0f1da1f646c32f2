/* test_where_v1.c: tf.compat.v1.where rules (docs/semantics.md) and the examples of
   the TF page (../shared/seeds/tf-compat-v1-where.ru.txt). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <wherec/wherec.h>

#include "testlib.h"

/* The page: tf.where([True, False, False, True], [1,2,3,4], [100]) broadcasts... */
static void test_tf_where_broadcasts_y_of_one_element(void **state) {
  (void)state;
  const int64_t s4[] = {4}, s1[] = {1};
  const bool c[] = {true, false, false, true};
  const int32_t x[] = {1, 2, 3, 4}, y[] = {100}, expect[] = {1, 100, 100, 4};
  int32_t out[4];
  wc_tensor tc = tl_tensor(WC_BOOL, 1, s4, c), tx = tl_tensor(WC_INT32, 1, s4, x),
            ty = tl_tensor(WC_INT32, 1, s1, y), to = tl_tensor(WC_INT32, 1, s4, out);
  tl_assert_status(wc_where(&tc, &tx, &ty, &to), WC_OK);
  assert_memory_equal(out, expect, sizeof out);
}

/* ...but tf.compat.v1.where refuses it: x and y must have the same shape. */
static void test_where_v1_rejects_x_and_y_of_different_shapes(void **state) {
  (void)state;
  const int64_t s4[] = {4}, s1[] = {1};
  const bool c[] = {true, false, false, true};
  const int32_t x[] = {1, 2, 3, 4}, y[] = {100};
  int32_t out[4];
  wc_tensor tc = tl_tensor(WC_BOOL, 1, s4, c), tx = tl_tensor(WC_INT32, 1, s4, x),
            ty = tl_tensor(WC_INT32, 1, s1, y), to = tl_tensor(WC_INT32, 1, s4, out);
  tl_assert_status(wc_where_v1(&tc, &tx, &ty, &to), WC_E_SHAPE);
}

/* The page: tf.where(True, [1,2,3,4], 100) works with tf.where, not with v1. */
static void test_tf_where_scalar_cond_and_scalar_y(void **state) {
  (void)state;
  const int64_t s4[] = {4};
  const bool c = true;
  const int32_t x[] = {1, 2, 3, 4}, y = 100;
  int32_t out[4];
  wc_tensor tc = tl_tensor(WC_BOOL, 0, NULL, &c), tx = tl_tensor(WC_INT32, 1, s4, x),
            ty = tl_tensor(WC_INT32, 0, NULL, &y), to = tl_tensor(WC_INT32, 1, s4, out);
  tl_assert_status(wc_where(&tc, &tx, &ty, &to), WC_OK);
  assert_memory_equal(out, x, sizeof out);
  tl_assert_status(wc_where_v1(&tc, &tx, &ty, &to), WC_E_SHAPE);
}

static void test_where_v1_selects_elements_when_cond_has_x_shape(void **state) {
  (void)state;
  const int64_t s23[] = {2, 3};
  const bool c[] = {true, false, true, false, false, true};
  const double x[] = {1, 2, 3, 4, 5, 6}, y[] = {-1, -2, -3, -4, -5, -6};
  const double expect[] = {1, -2, 3, -4, -5, 6};
  double out[6], ref[6];
  wc_tensor tc = tl_tensor(WC_BOOL, 2, s23, c), tx = tl_tensor(WC_DOUBLE, 2, s23, x),
            ty = tl_tensor(WC_DOUBLE, 2, s23, y), to = tl_tensor(WC_DOUBLE, 2, s23, out),
            tr = tl_tensor(WC_DOUBLE, 2, s23, ref);
  tl_assert_status(wc_where_v1(&tc, &tx, &ty, &to), WC_OK);
  assert_memory_equal(out, expect, sizeof out);
  tl_assert_status(wc_ref_where_v1(&tc, &tx, &ty, &tr), WC_OK);
  assert_memory_equal(ref, expect, sizeof ref);
}

static void test_where_v1_selects_whole_rows_with_vector_cond(void **state) {
  (void)state;
  const int64_t s3[] = {3}, s322[] = {3, 2, 2};
  const bool c[] = {false, true, false};
  int16_t x[12], y[12], out[12], ref[12], expect[12];
  for (int i = 0; i < 12; i++) {
    x[i] = (int16_t)i;
    y[i] = (int16_t)(100 + i);
    expect[i] = c[i / 4] ? x[i] : y[i];
  }
  wc_tensor tc = tl_tensor(WC_BOOL, 1, s3, c), tx = tl_tensor(WC_INT16, 3, s322, x),
            ty = tl_tensor(WC_INT16, 3, s322, y), to = tl_tensor(WC_INT16, 3, s322, out),
            tr = tl_tensor(WC_INT16, 3, s322, ref);
  tl_assert_status(wc_where_v1(&tc, &tx, &ty, &to), WC_OK);
  assert_memory_equal(out, expect, sizeof out);
  tl_assert_status(wc_ref_where_v1(&tc, &tx, &ty, &tr), WC_OK);
  assert_memory_equal(ref, expect, sizeof ref);
}

static void test_where_v1_scalar_cond_with_scalar_x_and_y(void **state) {
  (void)state;
  const bool c = false;
  const uint64_t x = 7, y = 9;
  uint64_t out = 0;
  wc_tensor tc = tl_tensor(WC_BOOL, 0, NULL, &c), tx = tl_tensor(WC_UINT64, 0, NULL, &x),
            ty = tl_tensor(WC_UINT64, 0, NULL, &y), to = tl_tensor(WC_UINT64, 0, NULL, &out);
  tl_assert_status(wc_where_v1(&tc, &tx, &ty, &to), WC_OK);
  assert_int_equal(out, 9);
}

static void test_where_v1_rejects_vector_condition_of_wrong_length(void **state) {
  (void)state;
  const int64_t s2[] = {2}, s32[] = {3, 2};
  const bool c[2] = {true, false};
  float x[6] = {0}, y[6] = {0}, out[6];
  wc_tensor tc = tl_tensor(WC_BOOL, 1, s2, c), tx = tl_tensor(WC_FLOAT, 2, s32, x),
            ty = tl_tensor(WC_FLOAT, 2, s32, y), to = tl_tensor(WC_FLOAT, 2, s32, out);
  tl_assert_status(wc_where_v1(&tc, &tx, &ty, &to), WC_E_SHAPE);
  tl_assert_status(wc_ref_where_v1(&tc, &tx, &ty, &to), WC_E_SHAPE);
}

static void test_where_v1_rejects_broadcastable_cond_of_other_shape(void **state) {
  (void)state;
  const int64_t s12[] = {1, 2}, s32[] = {3, 2};
  const bool c[2] = {true, false};
  float x[6] = {0}, y[6] = {0}, out[6];
  wc_tensor tc = tl_tensor(WC_BOOL, 2, s12, c), tx = tl_tensor(WC_FLOAT, 2, s32, x),
            ty = tl_tensor(WC_FLOAT, 2, s32, y), to = tl_tensor(WC_FLOAT, 2, s32, out);
  tl_assert_status(wc_where_v1(&tc, &tx, &ty, &to), WC_E_SHAPE);
}

static void test_where_v1_rejects_scalar_cond_with_tensor_x(void **state) {
  (void)state;
  const int64_t s3[] = {3};
  const bool c = true;
  int8_t x[3] = {0}, y[3] = {0}, out[3];
  wc_tensor tc = tl_tensor(WC_BOOL, 0, NULL, &c), tx = tl_tensor(WC_INT8, 1, s3, x),
            ty = tl_tensor(WC_INT8, 1, s3, y), to = tl_tensor(WC_INT8, 1, s3, out);
  tl_assert_status(wc_where_v1(&tc, &tx, &ty, &to), WC_E_SHAPE);
}

static void test_where_v1_rejects_out_of_other_shape(void **state) {
  (void)state;
  const int64_t s3[] = {3}, s4[] = {4};
  const bool c[3] = {true, false, true};
  int8_t x[3] = {0}, y[3] = {0}, out[4];
  wc_tensor tc = tl_tensor(WC_BOOL, 1, s3, c), tx = tl_tensor(WC_INT8, 1, s3, x),
            ty = tl_tensor(WC_INT8, 1, s3, y), to = tl_tensor(WC_INT8, 1, s4, out);
  tl_assert_status(wc_where_v1(&tc, &tx, &ty, &to), WC_E_SHAPE);
}

static void test_where_v1_row_select_of_zero_rows(void **state) {
  (void)state;
  const int64_t s0[] = {0}, s05[] = {0, 5};
  wc_tensor tc = tl_tensor(WC_BOOL, 1, s0, NULL), tx = tl_tensor(WC_FLOAT, 2, s05, NULL),
            ty = tl_tensor(WC_FLOAT, 2, s05, NULL), to = tl_tensor(WC_FLOAT, 2, s05, NULL);
  tl_assert_status(wc_where_v1(&tc, &tx, &ty, &to), WC_OK);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_tf_where_broadcasts_y_of_one_element),
    cmocka_unit_test(test_where_v1_rejects_x_and_y_of_different_shapes),
    cmocka_unit_test(test_tf_where_scalar_cond_and_scalar_y),
    cmocka_unit_test(test_where_v1_selects_elements_when_cond_has_x_shape),
    cmocka_unit_test(test_where_v1_selects_whole_rows_with_vector_cond),
    cmocka_unit_test(test_where_v1_scalar_cond_with_scalar_x_and_y),
    cmocka_unit_test(test_where_v1_rejects_vector_condition_of_wrong_length),
    cmocka_unit_test(test_where_v1_rejects_broadcastable_cond_of_other_shape),
    cmocka_unit_test(test_where_v1_rejects_scalar_cond_with_tensor_x),
    cmocka_unit_test(test_where_v1_rejects_out_of_other_shape),
    cmocka_unit_test(test_where_v1_row_select_of_zero_rows),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
