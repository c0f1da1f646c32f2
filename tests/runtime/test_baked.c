/* test_baked.c: parameters baked into a table (wc_param.data, a spec's `const`):
   wc_run, wc_interpret, wc_prepare / wc_plan_run and wc_ref_run take the
   caller's own tensors only, or every parameter's (the baked ones unread). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include <wherec/wherec.h>

#include "testlib.h"

/* y = x * s, s a baked [3] constant, x of [N,3]; the invoker, as generated
   code's, reads the constant itself and not in[1]. */
static const float   scale[3] = {0.5f, -2.0f, 4.0f};
static const int64_t x_dims[] = {WC_SYM(0), 3};
static const int64_t s_dims[] = {3};

static void scale_range(const size_t *ext, const void *const *in, void *out, size_t begin,
                        size_t end) {
  const float *x = in[0];
  (void)ext;
  for (size_t i = begin; i < end; i++) ((float *)out)[i] = x[i] * scale[i % 3];
}

static const wc_param params[] = {{"x", WC_FLOAT, 2, x_dims, NULL}, {"s", WC_FLOAT, 1, s_dims, scale}};
static const char *const ext_names[] = {"N"};
static const wc_instr    prog[] = {{WC_OP_INPUT, WC_FLOAT, 0, 0, 0, {0, 0}},
                                   {WC_OP_INPUT, WC_FLOAT, 1, 0, 0, {0, 0}},
                                   {WC_OP_MUL, WC_FLOAT, 0, 1, 0, {0, 0}}};
static const wc_kernel kernels[] = {{"scale", WC_KIND_ELEMENTWISE, 2, params, 1, ext_names, WC_FLOAT, 2,
                                     x_dims, 3, prog, scale_range, NULL, NULL, 1, NULL, NULL, NULL}};
static const wc_kernel_table table = {"baked", "baked.where", 1, kernels};

static const float x_data[6] = {1, 1, 1, -3, 0.25f, 8};
static const float want[6] = {0.5f, -2, 4, -1.5f, -0.5f, 32};

static wc_tensor x_tensor(void) {
  wc_tensor t = {WC_FLOAT, 2, {2, 3}, (void *)x_data};
  return t;
}

static void test_wc_run_takes_the_callers_own_tensors_and_passes_the_constant(void **state) {
  float     got[6];
  wc_tensor x = x_tensor(), out = {WC_FLOAT, 2, {2, 3}, got};
  wc_path   path;
  (void)state;
  tl_assert_status(wc_run(&table, "scale", &x, 1, &out, &path), WC_OK);
  tl_assert_path(path, WC_PATH_SPECIALIZED);
  assert_memory_equal(got, want, sizeof want);
  memset(got, 0, sizeof got);
  tl_assert_status(wc_interpret(&kernels[0], &x, 1, &out), WC_OK);
  assert_memory_equal(got, want, sizeof want);
  memset(got, 0, sizeof got);
  tl_assert_status(wc_ref_run(&kernels[0], &x, 1, &out), WC_OK);
  assert_memory_equal(got, want, sizeof want);
}

static void test_wc_run_reads_not_the_tensor_given_for_a_baked_parameter(void **state) {
  float     got[6], junk[3] = {100, 100, 100};
  wc_tensor in[2] = {x_tensor(), {WC_FLOAT, 1, {3}, junk}}, out = {WC_FLOAT, 2, {2, 3}, got};
  (void)state;
  tl_assert_status(wc_run(&table, "scale", in, 2, &out, NULL), WC_OK);
  assert_memory_equal(got, want, sizeof want);
  memset(got, 0, sizeof got);
  tl_assert_status(wc_interpret(&kernels[0], in, 2, &out), WC_OK);
  assert_memory_equal(got, want, sizeof want);
  memset(got, 0, sizeof got);
  tl_assert_status(wc_ref_run(&kernels[0], in, 2, &out), WC_OK);
  assert_memory_equal(got, want, sizeof want);
}

static void test_wc_run_refuses_a_count_that_is_neither_form(void **state) {
  float     got[6];
  wc_tensor in[3] = {x_tensor(), x_tensor(), x_tensor()}, out = {WC_FLOAT, 2, {2, 3}, got};
  (void)state;
  tl_assert_status(wc_run(&table, "scale", in, 3, &out, NULL), WC_E_ARG);
  tl_assert_status(wc_run(&table, "scale", in, 0, &out, NULL), WC_E_ARG);
  tl_assert_status(wc_interpret(&kernels[0], in, 3, &out), WC_E_ARG);
}

static void test_a_plan_takes_the_callers_data_pointers_only(void **state) {
  float       got[6];
  wc_tensor   x = x_tensor(), out = {WC_FLOAT, 2, {2, 3}, got};
  wc_plan     plan;
  const void *data[1] = {x_data};
  (void)state;
  tl_assert_status(wc_prepare(&table, "scale", &x, 1, &out, &plan), WC_OK);
  tl_assert_path(plan.path, WC_PATH_SPECIALIZED);
  tl_assert_status(wc_plan_run(&plan, data, got), WC_OK);
  assert_memory_equal(got, want, sizeof want);
  /* a shape off the pattern: the interpreter, still with the constant */
  static const float col[2] = {1, -3}, want1[6] = {0.5f, -2, 4, -1.5f, 6, -12};
  const void *data1[1] = {col};
  wc_tensor   x1 = {WC_FLOAT, 2, {2, 1}, (void *)col};
  memset(got, 0, sizeof got);
  tl_assert_status(wc_prepare(&table, "scale", &x1, 1, &out, &plan), WC_OK);
  tl_assert_path(plan.path, WC_PATH_INTERPRETED);
  tl_assert_status(wc_plan_run(&plan, data1, got), WC_OK);
  assert_memory_equal(got, want1, sizeof want1);
}

static void test_wc_register_refuses_a_baked_parameter_of_a_symbolic_shape(void **state) {
  static const wc_param bad[] = {{"x", WC_FLOAT, 2, x_dims, NULL}, {"s", WC_FLOAT, 2, x_dims, scale}};
  static const wc_kernel k[] = {{"scale", WC_KIND_ELEMENTWISE, 2, bad, 1, ext_names, WC_FLOAT, 2,
                                 x_dims, 3, prog, scale_range, NULL, NULL, 1, NULL, NULL, NULL}};
  static const wc_kernel_table t = {"bad", "bad.where", 1, k};
  (void)state;
  tl_assert_status(wc_register(&t), WC_E_ARG);
  tl_assert_status(wc_register(&table), WC_OK);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_wc_run_takes_the_callers_own_tensors_and_passes_the_constant),
    cmocka_unit_test(test_wc_run_reads_not_the_tensor_given_for_a_baked_parameter),
    cmocka_unit_test(test_wc_run_refuses_a_count_that_is_neither_form),
    cmocka_unit_test(test_a_plan_takes_the_callers_data_pointers_only),
    cmocka_unit_test(test_wc_register_refuses_a_baked_parameter_of_a_symbolic_shape),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
