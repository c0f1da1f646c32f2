/* test_dtype.c: the dtype table (ONNX codes, names, sizes) and status strings. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <cmocka.h>

#include <wherec/wherec.h>

static void test_dtype_codes_are_onnx_tensorproto_codes(void **state) {
  (void)state;
  assert_int_equal(WC_FLOAT, 1);
  assert_int_equal(WC_UINT8, 2);
  assert_int_equal(WC_INT8, 3);
  assert_int_equal(WC_UINT16, 4);
  assert_int_equal(WC_INT16, 5);
  assert_int_equal(WC_INT32, 6);
  assert_int_equal(WC_INT64, 7);
  assert_int_equal(WC_STRING, 8);
  assert_int_equal(WC_BOOL, 9);
  assert_int_equal(WC_FLOAT16, 10);
  assert_int_equal(WC_DOUBLE, 11);
  assert_int_equal(WC_UINT32, 12);
  assert_int_equal(WC_UINT64, 13);
  assert_int_equal(WC_COMPLEX64, 14);
  assert_int_equal(WC_COMPLEX128, 15);
  assert_int_equal(WC_BFLOAT16, 16);
}

static void test_dtype_sizes_are_element_widths(void **state) {
  (void)state;
  static const struct { wc_dtype t; size_t size; } rows[] = {
    {WC_FLOAT, 4}, {WC_UINT8, 1}, {WC_INT8, 1}, {WC_UINT16, 2}, {WC_INT16, 2},
    {WC_INT32, 4}, {WC_INT64, 8}, {WC_STRING, sizeof(const char *)}, {WC_BOOL, 1},
    {WC_FLOAT16, 2}, {WC_DOUBLE, 8}, {WC_UINT32, 4}, {WC_UINT64, 8},
    {WC_COMPLEX64, 8}, {WC_COMPLEX128, 16}, {WC_BFLOAT16, 2},
  };
  for (size_t i = 0; i < sizeof rows / sizeof *rows; i++)
    assert_int_equal(wc_dtype_size(rows[i].t), rows[i].size);
}

static void test_dtype_names_are_onnx_names(void **state) {
  (void)state;
  assert_string_equal(wc_dtype_name(WC_FLOAT), "float");
  assert_string_equal(wc_dtype_name(WC_BFLOAT16), "bfloat16");
  assert_string_equal(wc_dtype_name(WC_FLOAT16), "float16");
  assert_string_equal(wc_dtype_name(WC_COMPLEX128), "complex128");
  assert_string_equal(wc_dtype_name(WC_STRING), "string");
  assert_string_equal(wc_dtype_name(WC_BOOL), "bool");
  assert_string_equal(wc_dtype_name(WC_UINT64), "uint64");
}

static void test_unknown_dtype_code_has_no_size_or_name(void **state) {
  (void)state;
  static const int bad[] = {0, -1, 17, 100, 1 << 30};
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    assert_int_equal(wc_dtype_size((wc_dtype)bad[i]), 0);
    assert_null(wc_dtype_name((wc_dtype)bad[i]));
  }
}

static void test_every_status_has_a_distinct_message(void **state) {
  (void)state;
  for (int a = WC_OK; a <= WC_E_NOMEM; a++) {
    assert_non_null(wc_status_str((wc_status)a));
    for (int b = a + 1; b <= WC_E_NOMEM; b++)
      assert_string_not_equal(wc_status_str((wc_status)a), wc_status_str((wc_status)b));
  }
  assert_string_equal(wc_status_str((wc_status)99), "unknown status");
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_dtype_codes_are_onnx_tensorproto_codes),
    cmocka_unit_test(test_dtype_sizes_are_element_widths),
    cmocka_unit_test(test_dtype_names_are_onnx_names),
    cmocka_unit_test(test_unknown_dtype_code_has_no_size_or_name),
    cmocka_unit_test(test_every_status_has_a_distinct_message),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
