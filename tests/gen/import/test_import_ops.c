/* test_import_ops.c: wherec import of Exp, Log, Tanh, Sigmoid, Erf, Softplus, Mish, Gelu, Sum,
   Mean, Dropout, Pow, BatchNormalization, QuantizeLinear and DequantizeLinear: the exact form
   each becomes (ONNX's reference order or function body, per-channel parameters declared
   [C,1,...]) and the reason of each refusal. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "back/driver.h"
#include "import/import.h"
#include "pbw.h"

typedef struct result {
  int    rc;
  char  *spec; /* NULL unless rc == 0 */
  char  *log;  /* everything import printed */
  size_t log_len;
} result;

static bool literal_activations; /* import_pbw's --literal-activations */

static result import_pbw(const pbw *g, int opset) {
  pbw            m = {0};
  result         r = {0, NULL, NULL, 0};
  import_options o = {.bake_limit = IMPORT_BAKE_LIMIT, .literal_activations = literal_activations};
  pbw_model(&m, g, opset);
  FILE *log = open_memstream(&r.log, &r.log_len);
  r.rc = import_model_options(m.buf, m.len, "test.onnx", "", log, &r.spec, NULL, &o);
  fclose(log);
  pbw_free(&m);
  return r;
}

static void done(result *r) {
  free(r->spec);
  free(r->log);
}

static void expect_in(const char *text, const char *part) {
  if (text == NULL || strstr(text, part) == NULL)
    fail_msg("'%s' not in:\n%s", part, text ? text : "(null)");
}

/* The spec is accepted by the generator: gen_generate into a temporary directory. */
static void expect_generates(const char *spec) {
  char       dir[] = "/tmp/wherec_import_ops_XXXXXX", path[256], cmd[300];
  gen_result made;
  assert_non_null(mkdtemp(dir));
  snprintf(path, sizeof path, "%s/imported.where", dir);
  FILE *f = fopen(path, "w");
  fputs(spec, f);
  fclose(f);
  if (gen_generate(path, dir, NULL, stderr, &made) != 0) fail_msg("rejected:\n%s", spec);
  snprintf(cmd, sizeof cmd, "%s/imported.h", dir);
  unlink(cmd);
  snprintf(cmd, sizeof cmd, "%s/imported.c", dir);
  unlink(cmd);
  unlink(path);
  assert_int_equal(rmdir(dir), 0);
}

/* A node with n_out outputs (pbw_node writes one). */
static void node_outs(pbw *g, const char *op, const char *name, const char *const *in, int n_in,
                      const char *const *out, int n_out, const pbw *attrs) {
  pbw n = {0};
  for (int i = 0; i < n_in; i++) pbw_str(&n, 1, in[i]);
  for (int i = 0; i < n_out; i++) pbw_str(&n, 2, out[i]);
  pbw_str(&n, 3, name);
  pbw_str(&n, 4, op);
  if (attrs) pbw_raw(&n, attrs->buf, attrs->len);
  pbw_msg(g, 1, &n);
  pbw_free(&n);
}

static void attr_int(pbw *attrs, const char *name, int64_t v) {
  pbw at = {0};
  pbw_str(&at, 1, name);
  pbw_int(&at, 3, v);
  pbw_int(&at, 20, 2);
  pbw_msg(attrs, 5, &at);
  pbw_free(&at);
}

static void attr_float(pbw *attrs, const char *name, float v) {
  pbw at = {0};
  pbw_str(&at, 1, name);
  pbw_f32(&at, 2, v);
  pbw_int(&at, 20, 1);
  pbw_msg(attrs, 5, &at);
  pbw_free(&at);
}

/* BatchNormalization of X [2,3,4,4] with graph inputs s, b, m, v of [3]. */
static void bn_graph(pbw *g, const pbw *attrs, int n_out) {
  static const int64_t     x[] = {2, 3, 4, 4}, c[] = {3};
  static const char *const in[] = {"x", "s", "b", "m", "v"}, *const out[] = {"out", "rm", "rv"};
  node_outs(g, "BatchNormalization", "bn", in, 5, out, n_out, attrs);
  pbw_value_info(g, 11, "x", 1, 4, x, NULL);
  for (int k = 1; k < 5; k++) pbw_value_info(g, 11, in[k], 1, 1, c, NULL);
  pbw_value_info(g, 12, "out", 1, 4, x, NULL);
  if (n_out > 1) pbw_value_info(g, 12, "rm", 1, 1, c, NULL);
}

static void test_batchnorm_is_reference_order_with_per_channel_parameters(void **state) {
  (void)state;
  for (int opset = 6; opset <= 15; opset++) {
    pbw g = {0}, attrs = {0};
    attr_float(&attrs, "epsilon", 1e-3f);
    if (opset >= 14) attr_int(&attrs, "training_mode", 0);
    bn_graph(&g, &attrs, 1);
    result r = import_pbw(&g, opset);
    assert_int_equal(r.rc, 0);
    expect_in(r.spec, "kernel out(x: float[2,3,4,4], s: float[3,1,1], b: float[3,1,1], "
                      "m: float[3,1,1], v: float[3,1,1]) = "
                      "((s * (x - m)) / sqrt(v + 0.00100000005)) + b;");
    if (opset == 15) expect_generates(r.spec);
    done(&r);
    pbw_free(&g);
    pbw_free(&attrs);
  }
}

static void test_batchnorm_spatial0_broadcasts_its_parameters_as_they_are(void **state) {
  (void)state;
  pbw                      g = {0}, attrs = {0};
  static const int64_t     x[] = {2, 3, 4}, p[] = {3, 4};
  static const char *const in[] = {"x", "s", "b", "m", "v"}, *const out[] = {"out"};
  attr_int(&attrs, "spatial", 0);
  node_outs(&g, "BatchNormalization", "bn", in, 5, out, 1, &attrs);
  pbw_value_info(&g, 11, "x", 1, 3, x, NULL);
  for (int k = 1; k < 5; k++) pbw_value_info(&g, 11, in[k], 1, 2, p, NULL);
  pbw_value_info(&g, 12, "out", 1, 3, x, NULL);
  result r = import_pbw(&g, 7);
  assert_int_equal(r.rc, 0);
  expect_in(r.spec,
            "(x: float[2,3,4], s: float[3,4], b: float[3,4], m: float[3,4], v: float[3,4])");
  done(&r);
  pbw_free(&g);
  pbw_free(&attrs);
}

static void test_batchnorm_training_is_refused_with_its_reason(void **state) {
  (void)state;
  pbw g = {0}, attrs = {0};
  attr_int(&attrs, "training_mode", 1);
  bn_graph(&g, &attrs, 1);
  result r = import_pbw(&g, 15);
  assert_int_equal(r.rc, 1);
  expect_in(r.log, "not taken: BatchNormalization 'bn': training_mode=1 normalizes by the "
                   "batch's statistics: wherec imports the inference form only");
  done(&r);
  pbw_free(&g);
  pbw_free(&attrs);
  bn_graph(&g, NULL, 2); /* the running mean is a graph output */
  r = import_pbw(&g, 9);
  assert_int_equal(r.rc, 1);
  expect_in(r.log, "not taken: BatchNormalization 'bn': its training outputs (the running or "
                   "saved mean and variance) are read");
  done(&r);
  pbw_free(&g);
}

static void test_batchnorm_parameter_read_two_ways_refuses_the_kernel(void **state) {
  (void)state;
  pbw                      g = {0};
  static const int64_t     x[] = {1, 3, 2, 3}, c[] = {3};
  static const char *const in[] = {"x", "s", "b", "m", "v"}, *const out[] = {"y"};
  static const char *const add_in[] = {"y", "s"};
  node_outs(&g, "BatchNormalization", "bn", in, 5, out, 1, NULL);
  pbw_node(&g, "Add", "add", add_in, 2, "out", NULL);
  pbw_value_info(&g, 11, "x", 1, 4, x, NULL);
  for (int k = 1; k < 5; k++) pbw_value_info(&g, 11, in[k], 1, 1, c, NULL);
  pbw_value_info(&g, 12, "out", 1, 4, x, NULL);
  result r = import_pbw(&g, 17);
  expect_in(r.log, "'s' is read both per channel and as it is, and a parameter has one shape");
  done(&r);
  pbw_free(&g);
}

static void test_sum_and_mean_fold_from_the_left(void **state) {
  (void)state;
  pbw                      g = {0};
  static const int64_t     a[] = {2, 1}, b[] = {3}, o[] = {2, 3};
  static const char *const sum_in[] = {"a", "b", "c"}, *const mean_in[] = {"s", "a", "b"};
  pbw_node(&g, "Sum", "sum", sum_in, 3, "s", NULL);
  pbw_node(&g, "Mean", "mean", mean_in, 3, "out", NULL);
  pbw_value_info(&g, 11, "a", 1, 2, a, NULL);
  pbw_value_info(&g, 11, "b", 1, 1, b, NULL);
  pbw_value_info(&g, 11, "c", 1, 2, o, NULL);
  pbw_value_info(&g, 12, "out", 1, 2, o, NULL);
  result r = import_pbw(&g, 13);
  assert_int_equal(r.rc, 0);
  expect_in(r.spec, "kernel out(a: float[2,1], b: float[3], c: float[2,3]) = "
                    "((((a + b) + c) + a) + b) / 3.0;");
  expect_generates(r.spec);
  done(&r);
  r = import_pbw(&g, 6); /* Sum-6: one shape */
  assert_int_equal(r.rc, 1);
  expect_in(r.log, "not taken: Sum 'sum': before opset 8 its inputs must have one shape");
  done(&r);
  pbw_free(&g);
}

static void dropout_graph(pbw *g, int n_in, bool mode, int n_out) {
  static const int64_t     x[] = {4};
  static const char *const in[] = {"x", "r", "t"}, *const out[] = {"d", "mask"};
  static const char *const relu_in[] = {"d"};
  float                    ratio = 0.25f;
  uint8_t                  t = mode;
  node_outs(g, "Dropout", "drop", in, n_in, out, n_out, NULL);
  pbw_node(g, "Relu", "relu", relu_in, 1, "out", NULL);
  if (n_in > 1) pbw_scalar_init(g, "r", 1, &ratio, 4);
  if (n_in > 2) pbw_scalar_init(g, "t", 9, &t, 1);
  pbw_value_info(g, 11, "x", 1, 1, x, NULL);
  pbw_value_info(g, 12, "out", 1, 1, x, NULL);
  if (n_out > 1) pbw_value_info(g, 12, "mask", 9, 1, x, NULL);
}

static void test_dropout_is_the_identity_and_training_is_refused(void **state) {
  (void)state;
  pbw g = {0};
  dropout_graph(&g, 3, false, 1);
  result r = import_pbw(&g, 13);
  assert_int_equal(r.rc, 0);
  expect_in(r.spec, "kernel out(x: float[4]) = where(x < 0.0, 0.0, x);");
  done(&r);
  pbw_free(&g);
  dropout_graph(&g, 1, false, 1);
  r = import_pbw(&g, 7);
  assert_int_equal(r.rc, 0);
  done(&r);
  pbw_free(&g);
  dropout_graph(&g, 3, true, 1);
  r = import_pbw(&g, 13);
  expect_in(r.log, "not taken: Dropout 'drop': training_mode is true: training draws a random "
                   "mask, and wherec imports Dropout's inference form (the identity) only");
  done(&r);
  pbw_free(&g);
  dropout_graph(&g, 1, false, 2);
  r = import_pbw(&g, 13);
  expect_in(r.log, "not taken: Dropout 'drop': its mask output is read");
  done(&r);
  pbw_free(&g);
  dropout_graph(&g, 2, false, 1);
  r = import_pbw(&g, 10);
  expect_in(r.log, "not taken: Dropout 'drop': Dropout before opset 12 takes one input");
  done(&r);
  pbw_free(&g);
}

/* Pow of x (dtype elem, [5]) by a constant exponent of dtype e_elem. */
static result pow_by(int elem, int e_elem, const void *e, size_t e_len, int opset) {
  pbw                      g = {0};
  static const int64_t     x[] = {5};
  static const char *const in[] = {"x", "e"};
  pbw_node(&g, "Pow", "pow", in, 2, "out", NULL);
  pbw_scalar_init(&g, "e", e_elem, e, e_len);
  pbw_value_info(&g, 11, "x", elem, 1, x, NULL);
  pbw_value_info(&g, 12, "out", elem, 1, x, NULL);
  result r = import_pbw(&g, opset);
  pbw_free(&g);
  return r;
}

static void test_pow_by_constant_exponents(void **state) {
  (void)state;
  static const struct {
    float       e;
    const char *form;
  } floats[] = {
      {2.0f, "= x * x;"},
      {1.0f, "= x * 1.0;"},
      {-1.0f, "= 1.0 / x;"},
      {0.5f, "= where(x == (-inf), inf, sqrt(x) + 0.0);"},
      {0.0f, "= where(x == x, float(1.0), float(1.0));"},
  };
  for (size_t i = 0; i < sizeof floats / sizeof *floats; i++) {
    result r = pow_by(1, 1, &floats[i].e, 4, 13);
    assert_int_equal(r.rc, 0);
    expect_in(r.spec, floats[i].form);
    expect_generates(r.spec);
    done(&r);
  }
  /* other exponents: pow, correctly rounded (the exponent in the base's dtype) */
  float    three = 3.0f;
  uint16_t h15 = 0x3e00u; /* 1.5 in float16 */
  int64_t  n7 = -7;
  result   r = pow_by(1, 1, &three, 4, 13);
  assert_int_equal(r.rc, 0);
  expect_in(r.spec, "kernel out(x: float[5]) = pow(x, 3.0);");
  expect_generates(r.spec);
  done(&r);
  r = pow_by(10, 10, &h15, 2, 15);
  assert_int_equal(r.rc, 0);
  expect_in(r.spec, "= pow(x, 1.5);");
  expect_generates(r.spec);
  done(&r);
  r = pow_by(1, 7, &n7, 8, 15);
  assert_int_equal(r.rc, 0);
  expect_in(r.spec, "= pow(x, -7.0);");
  done(&r);
  r = pow_by(11, 1, &three, 4, 15);
  expect_in(r.log, "not taken: Pow 'pow': Pow of a double base by 3: wherec's pow is correctly "
                   "rounded on float, float16 and bfloat16 only");
  done(&r);
  int64_t e3 = 3, em2 = -2, e5 = 5;
  r = pow_by(6, 7, &e3, 8, 12);
  assert_int_equal(r.rc, 0);
  expect_in(r.spec, "kernel out(x: int32[5]) = (x * x) * x;");
  expect_generates(r.spec);
  done(&r);
  r = pow_by(7, 7, &em2, 8, 15);
  assert_int_equal(r.rc, 0);
  expect_in(r.spec, "= where(x == 1, 1, where(x == (-1), int64(1), int64(0)));");
  done(&r);
  r = pow_by(6, 7, &e5, 8, 12);
  expect_in(r.log, "exponent 5 of an integer base: a kernel multiplies at most 4 copies");
  done(&r);
  r = pow_by(3, 7, &e3, 8, 15);
  expect_in(r.log, "Pow is not defined on int8 (its integer bases are int32 and int64)");
  done(&r);
  r = pow_by(6, 7, &e3, 8, 11);
  expect_in(r.log, "Pow takes integer bases from opset 12 on");
  done(&r);
  /* a runtime exponent */
  pbw                      g = {0};
  static const int64_t     x[] = {5};
  static const char *const in[] = {"x", "e"};
  pbw_node(&g, "Pow", "pow", in, 2, "out", NULL);
  pbw_value_info(&g, 11, "x", 1, 1, x, NULL);
  pbw_value_info(&g, 11, "e", 1, 1, x, NULL);
  pbw_value_info(&g, 12, "out", 1, 1, x, NULL);
  r = import_pbw(&g, 15);
  assert_int_equal(r.rc, 0);
  expect_in(r.spec, "kernel out(x: float[5], e: float[5]) = pow(x, e);");
  expect_generates(r.spec);
  done(&r);
  pbw_free(&g);
  /* a runtime exponent of another dtype: converted to the base's first */
  memset(&g, 0, sizeof g);
  pbw_node(&g, "Pow", "pow", in, 2, "out", NULL);
  pbw_value_info(&g, 11, "x", 1, 1, x, NULL);
  pbw_value_info(&g, 11, "e", 7, 1, x, NULL);
  pbw_value_info(&g, 12, "out", 1, 1, x, NULL);
  r = import_pbw(&g, 15);
  assert_int_equal(r.rc, 0);
  expect_in(r.spec, "kernel out(x: float[5], e: int64[5]) = pow(x, float(e));");
  expect_generates(r.spec);
  done(&r);
  pbw_free(&g);
  /* an integer base by a runtime exponent */
  memset(&g, 0, sizeof g);
  pbw_node(&g, "Pow", "pow", in, 2, "out", NULL);
  pbw_value_info(&g, 11, "x", 6, 1, x, NULL);
  pbw_value_info(&g, 11, "e", 6, 1, x, NULL);
  pbw_value_info(&g, 12, "out", 6, 1, x, NULL);
  r = import_pbw(&g, 15);
  expect_in(r.log, "not taken: Pow 'pow': exponent 'e' of an integer base is not a constant "
                   "scalar");
  done(&r);
  pbw_free(&g);
}

/* QuantizeLinear or DequantizeLinear of x [3,4] (dtype xe) by s (se, [n_s]) and an optional
   z (ze, [n_s]), all graph inputs. */
static result quant(const char *op, int xe, int se, int ze, int n_s, const pbw *attrs, int opset) {
  pbw                      g = {0};
  static const int64_t     x[] = {3, 4};
  int64_t                  s[] = {n_s};
  static const char *const in[] = {"x", "s", "z"}, *const out[] = {"out"};
  node_outs(&g, op, "q", in, ze ? 3 : 2, out, 1, attrs);
  pbw_value_info(&g, 11, "x", xe, 2, x, NULL);
  pbw_value_info(&g, 11, "s", se, n_s ? 1 : 0, s, NULL);
  if (ze) pbw_value_info(&g, 11, "z", ze, n_s ? 1 : 0, s, NULL);
  result r = import_pbw(&g, opset);
  pbw_free(&g);
  return r;
}

static void test_quantize_and_dequantize_forms(void **state) {
  (void)state;
  pbw attrs = {0};
  attr_int(&attrs, "axis", 0);
  result r = quant("QuantizeLinear", 1, 1, 3, 3, &attrs, 13); /* per axis 0: [3] as [3,1] */
  assert_int_equal(r.rc, 0);
  expect_in(r.spec, "kernel out(x: float[3,4], s: float[3,1], z: int8[3,1]) = "
                    "int8(double(round(x / s)) + double(z));");
  expect_generates(r.spec);
  done(&r);
  r = quant("QuantizeLinear", 1, 1, 0, 0, NULL, 10); /* per tensor, no zero point: uint8 */
  assert_int_equal(r.rc, 0);
  expect_in(r.spec, "kernel out(x: float[3,4], s: float[]) = uint8(round(x / s));");
  done(&r);
  r = quant("QuantizeLinear", 1, 1, 5, 4, NULL, 21); /* per axis 1 (last): no 1s, int16 */
  assert_int_equal(r.rc, 0);
  expect_in(r.spec, "(x: float[3,4], s: float[4], z: int16[4]) = int16(");
  done(&r);
  r = quant("QuantizeLinear", 1, 1, 5, 4, NULL, 19);
  expect_in(r.log,
            "quantizing to int16 is not supported (uint8, int8; int16, uint16 from opset 21)");
  done(&r);
  r = quant("QuantizeLinear", 1, 1, 2, 3, NULL, 10); /* QuantizeLinear-10 has no axis */
  expect_in(r.log, "before opset 13 its scale and zero point are scalars (per tensor)");
  done(&r);
  r = quant("QuantizeLinear", 1, 1, 2, 3, &attrs, 10);
  expect_in(r.log, "QuantizeLinear has no attribute 'axis' at opset 10 (it came in opset 13)");
  done(&r);
  r = quant("DequantizeLinear", 6, 1, 0, 0, NULL, 13);
  assert_int_equal(r.rc, 0);
  expect_in(r.spec, "kernel out(x: int32[3,4], s: float[]) = float(x) * s;");
  done(&r);
  r = quant("DequantizeLinear", 2, 10, 2, 3, &attrs, 19); /* float16 scale: rounded once */
  assert_int_equal(r.rc, 0);
  expect_in(r.spec, "(x: uint8[3,4], s: float16[3,1], z: uint8[3,1]) = "
                    "float16((float(x) - float(z)) * float(s));");
  expect_generates(r.spec);
  done(&r);
  r = quant("DequantizeLinear", 2, 10, 2, 0, NULL, 13);
  expect_in(r.log, "its scale is float16 (float, and float16 or bfloat16 from opset 19)");
  done(&r);
  attr_int(&attrs, "block_size", 2);
  r = quant("DequantizeLinear", 3, 1, 3, 3, &attrs, 21);
  expect_in(r.log, "block_size=2: block quantization repeats each scale along an axis");
  done(&r);
  pbw_free(&attrs);
}

static void test_exp_is_the_spec_function_and_refused_on_double(void **state) {
  (void)state;
  static const int64_t     x[] = {4};
  static const char *const in[] = {"x"};
  for (int elem = 1; elem <= 11; elem += 10) { /* float, then double */
    pbw g = {0};
    pbw_node(&g, "Exp", "exp", in, 1, "out", NULL);
    pbw_value_info(&g, 11, "x", elem, 1, x, NULL);
    pbw_value_info(&g, 12, "out", elem, 1, x, NULL);
    result r = import_pbw(&g, 13);
    if (elem == 1) expect_in(r.spec, "kernel out(x: float[4]) = exp(x);");
    else
      expect_in(r.log, "not taken: Exp 'exp': Exp on double: wherec's exp, log, tanh, sigmoid, "
                       "erf, pow, the activations (expm1, selu, softplus, softsign, silu, "
                       "mish) and the circular and hyperbolic functions are correctly rounded "
                       "on float, float16 and bfloat16 only");
    done(&r);
    pbw_free(&g);
  }
}

/* op of x float[4] at opset, with one string attribute (name NULL: none). */
static result unary(const char *op, int opset, const char *attr, const char *value) {
  pbw                      g = {0}, at = {0}, attrs = {0};
  static const int64_t     x[] = {4};
  static const char *const in[] = {"x"};
  if (attr) {
    pbw_str(&at, 1, attr);
    pbw_str(&at, 4, value);
    pbw_int(&at, 20, 3);
    pbw_msg(&attrs, 5, &at);
  }
  pbw_node(&g, op, "n", in, 1, "out", attr ? &attrs : NULL);
  pbw_value_info(&g, 11, "x", 1, 1, x, NULL);
  pbw_value_info(&g, 12, "out", 1, 1, x, NULL);
  result r = import_pbw(&g, opset);
  pbw_free(&g);
  pbw_free(&at);
  pbw_free(&attrs);
  return r;
}

static void test_functions_import_as_calls_and_composites_as_onnx_function_bodies(void **state) {
  (void)state;
  static const struct {
    const char *op;
    int         opset;
    const char *form;
  } cases[] = {
      {"Log", 13, "= log(x);"},
      {"Tanh", 13, "= tanh(x);"},
      {"Sigmoid", 13, "= sigmoid(x);"},
      {"Erf", 13, "= erf(x);"},
      {"Sin", 7, "= sin(x);"},
      {"Cos", 7, "= cos(x);"},
      {"Tan", 7, "= tan(x);"},
      {"Asin", 7, "= asin(x);"},
      {"Acos", 7, "= acos(x);"},
      {"Atan", 7, "= atan(x);"},
      {"Asinh", 9, "= asinh(x);"},
      {"Acosh", 9, "= acosh(x);"},
      {"Atanh", 9, "= atanh(x);"},
      {"Softplus", 7, "= softplus(x);"},
      {"Mish", 18, "= mish(x);"},
      {"Gelu", 20, "= gelu(x);"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    result r = unary(cases[i].op, cases[i].opset, NULL, NULL);
    assert_int_equal(r.rc, 0);
    expect_in(r.spec, cases[i].form);
    expect_generates(r.spec);
    done(&r);
  }
  result r = unary("Gelu", 20, "approximate", "none");
  expect_in(r.spec, "= gelu(x);");
  done(&r);
  /* tanh: gelu_tanh, rounded once; with --literal-activations ONNX's function body in its
     order, sqrt(2/pi) that of the float 0.63661977236 */
  r = unary("Gelu", 20, "approximate", "tanh");
  assert_int_equal(r.rc, 0);
  expect_in(r.spec, "= gelu_tanh(x);");
  expect_generates(r.spec);
  done(&r);
  literal_activations = true;
  r = unary("Gelu", 20, "approximate", "tanh");
  literal_activations = false;
  assert_int_equal(r.rc, 0);
  expect_in(r.spec,
            "= (0.5 * x) * (1.0 + tanh(0.797884524 * (x + (0.0447149985 * pow(x, 3.0)))));");
  expect_generates(r.spec);
  done(&r);
  r = unary("Mish", 17, NULL, NULL);
  expect_in(r.log, "not taken: Mish 'n': Mish is not in opset 17: it appeared in opset 18");
  done(&r);
}

/* SiLU, a Mul of a value and its Sigmoid (either order): silu, rounded once; with
   --literal-activations, the product of the two. */
static void test_mul_of_a_value_and_its_sigmoid_is_silu(void **state) {
  (void)state;
  static const int64_t     x[] = {4};
  static const char *const tanh_in[] = {"x"}, *const sig_in[] = {"t"};
  static const char *const mul_ts[] = {"t", "s"}, *const mul_st[] = {"s", "t"};
  static const char *const mul_xs[] = {"x", "s"};
  static const struct {
    const char *const *mul;
    const char        *exact, *literal;
  } cases[] = {
      {mul_ts, "out = silu(t);", "out = t * sigmoid(t);"},
      {mul_st, "out = silu(t);", "out = sigmoid(t) * t;"},
      {mul_xs, "= x * sigmoid(tanh(x));", "= x * sigmoid(tanh(x));"}, /* another value's */
  };
  for (int lit = 0; lit < 2; lit++)
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
      pbw g = {0};
      pbw_node(&g, "Tanh", "tanh", tanh_in, 1, "t", NULL);
      pbw_node(&g, "Sigmoid", "sig", sig_in, 1, "s", NULL);
      pbw_node(&g, "Mul", "mul", cases[i].mul, 2, "out", NULL);
      pbw_value_info(&g, 11, "x", 1, 1, x, NULL);
      pbw_value_info(&g, 12, "out", 1, 1, x, NULL);
      literal_activations = lit;
      result r = import_pbw(&g, 13);
      literal_activations = false;
      assert_int_equal(r.rc, 0);
      expect_in(r.spec, lit ? cases[i].literal : cases[i].exact);
      expect_generates(r.spec);
      done(&r);
      pbw_free(&g);
    }
}

/* Softplus and Elu, Selu, Celu: softplus, selu (ONNX's default alpha and gamma) and expm1,
   correctly rounded; with --literal-activations, ONNX's formulas, each step rounded. */
static void test_activations_import_correctly_rounded_or_literal(void **state) {
  (void)state;
  static const struct {
    const char *op, *exact, *literal;
  } cases[] = {
      {"Softplus", "= softplus(x);", "= log(exp(x) + 1.0);"},
      {"Mish", "= mish(x);", "= x * tanh(log(exp(x) + 1.0));"},
      {"Elu", "= where(x < 0.0, 1.0 * expm1(x), x);", "= where(x < 0.0, 1.0 * (exp(x) - 1.0), x);"},
      {"Selu", "= selu(x);",
       "= where(x > 0.0, 1.05070102 * x, ((exp(x) - 1.0) * 1.67326319) * 1.05070102);"},
      {"Celu", "= max(0.0, x) + min(0.0, 1.0 * expm1(x / 1.0));",
       "= max(0.0, x) + min(0.0, 1.0 * (exp(x / 1.0) - 1.0));"},
      {"Softsign", "= softsign(x);", "= x / (1.0 + abs(x));"},
      {"Gelu", "= gelu(x);", "= (0.5 * x) * (erf(x / 1.41421354) + 1.0);"},
  };
  for (int lit = 0; lit < 2; lit++)
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
      literal_activations = lit;
      int    opset = strcmp(cases[i].op, "Mish") == 0 ? 18 : strcmp(cases[i].op, "Gelu") == 0 ? 20 : 13;
      result r = unary(cases[i].op, opset, NULL, NULL);
      literal_activations = false;
      assert_int_equal(r.rc, 0);
      expect_in(r.spec, lit ? cases[i].literal : cases[i].exact);
      expect_generates(r.spec);
      done(&r);
    }
}

/* Selu with another alpha or gamma than ONNX's defaults (the floats): expm1 rounded once,
   then ONNX's scalings; its defaults given as attributes are the defaults: selu(x). */
static void test_selu_is_selu_only_with_the_default_alpha_and_gamma(void **state) {
  (void)state;
  static const struct {
    float       alpha, gamma;
    const char *form;
  } cases[] = {
      {2.0f, 1.05070102214813232421875f,
       "= where(x > 0.0, 1.05070102 * x, (expm1(x) * 2.0) * 1.05070102);"},
      {1.67326319217681884765625f, 3.0f,
       "= where(x > 0.0, 3.0 * x, (expm1(x) * 1.67326319) * 3.0);"},
      {1.6732632f, 1.0507009f, /* alpha the default float, gamma its neighbour below */
       "= where(x > 0.0, 1.0507009 * x, (expm1(x) * 1.67326319) * 1.0507009);"},
      {1.6732632f, 1.05070102f, "= selu(x);"}, /* the defaults, as the floats */
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    pbw                      g = {0}, attrs = {0};
    static const int64_t     x[] = {4};
    static const char *const in[] = {"x"};
    attr_float(&attrs, "alpha", cases[i].alpha);
    attr_float(&attrs, "gamma", cases[i].gamma);
    pbw_node(&g, "Selu", "n", in, 1, "out", &attrs);
    pbw_value_info(&g, 11, "x", 1, 1, x, NULL);
    pbw_value_info(&g, 12, "out", 1, 1, x, NULL);
    result r = import_pbw(&g, 13);
    assert_int_equal(r.rc, 0);
    expect_in(r.spec, cases[i].form);
    expect_generates(r.spec);
    done(&r);
    pbw_free(&g);
    pbw_free(&attrs);
  }
}

/* PyTorch's exported exact GELU, x * (erf(x / sqrt(2)) + 1) * 0.5 in its orders: gelu,
   rounded once; with --literal-activations, another constant than sqrt(2) rounded to the
   dtype, or another value in the product than in the quotient, the nodes' formula. c:
   the bits of sqrt(2), 1 and 0.5 in the dtype. */
static result torch_gelu(int elem, const uint32_t c[3], int order, const char *mul_in) {
  pbw                  g = {0};
  static const int64_t x[] = {4};
  const char *const    t_in[] = {"x"}, *const div_in[] = {"t", "sqrt2"}, *const erf_in[] = {"d"};
  const char *const    add_in[] = {"e", "one"}, *const add_swapped[] = {"one", "e"};
  const char *const    mx_in[] = {mul_in, "a"}, *const mx_swapped[] = {"a", mul_in};
  const char *const    half_in[] = {"m", "half"}, *const half_swapped[] = {"half", "m"};
  const char *const    h_in[] = {mul_in, "half"}, *const ha_in[] = {"h", "a"};
  const char *const    ah_in[] = {"a", "half"}, *const xm_in[] = {mul_in, "m"};
  static const char   *names[3] = {"sqrt2", "one", "half"};
  pbw_node(&g, "Tanh", "tanh", t_in, 1, "t", NULL); /* t: a let, read twice */
  pbw_node(&g, "Div", "div", div_in, 2, "d", NULL);
  pbw_node(&g, "Erf", "erf", erf_in, 1, "e", NULL);
  pbw_node(&g, "Add", "add", order == 2 ? add_swapped : add_in, 2, "a", NULL);
  if (order < 2) { /* torch.onnx's gelu: Mul(Mul(x, Add), 0.5), or the products swapped */
    pbw_node(&g, "Mul", "mul", order ? mx_swapped : mx_in, 2, "m", NULL);
    pbw_node(&g, "Mul", "mul_1", order ? half_swapped : half_in, 2, "out", NULL);
  } else if (order == 3) { /* x * ((erf(x / sqrt(2)) + 1) * 0.5) */
    pbw_node(&g, "Mul", "mul", ah_in, 2, "m", NULL);
    pbw_node(&g, "Mul", "mul_1", xm_in, 2, "out", NULL);
  } else { /* 0.5 * x * (1 + erf(x / sqrt(2))) written out */
    pbw_node(&g, "Mul", "mul", h_in, 2, "h", NULL);
    pbw_node(&g, "Mul", "mul_1", ha_in, 2, "out", NULL);
  }
  for (int k = 0; k < 3; k++) {
    uint16_t h = (uint16_t)c[k];
    if (elem == 1) pbw_scalar_init(&g, names[k], elem, &c[k], 4);
    else pbw_scalar_init(&g, names[k], elem, &h, 2);
  }
  pbw_value_info(&g, 11, "x", elem, 1, x, NULL);
  pbw_value_info(&g, 12, "out", elem, 1, x, NULL);
  result r = import_pbw(&g, 17);
  pbw_free(&g);
  return r;
}

static void test_torch_exact_gelu_is_gelu(void **state) {
  (void)state;
  static const struct {
    int         elem;
    uint32_t    c[3];
    const char *literal; /* the quotient under --literal-activations */
  } types[] = {
      {1, {0x3fb504f3u, 0x3f800000u, 0x3f000000u}, "erf(t / 1.41421354)"},
      {10, {0x3da8u, 0x3c00u, 0x3800u}, "erf(t / 1.4140625)"},
      {16, {0x3fb5u, 0x3f80u, 0x3f00u}, "erf(t / 1.4140625)"},
  };
  static const uint32_t off[3] = {0x3fb504f2u, 0x3f800000u, 0x3f000000u}; /* sqrt(2) - ulp */
  for (int order = 0; order < 4; order++) {
    for (size_t i = 0; i < sizeof types / sizeof *types; i++)
      for (int lit = 0; lit < 2; lit++) {
        literal_activations = lit;
        result r = torch_gelu(types[i].elem, types[i].c, order, "t");
        literal_activations = false;
        assert_int_equal(r.rc, 0);
        expect_in(r.spec, lit ? types[i].literal : "out = gelu(t);");
        if (!lit) assert_null(strstr(r.spec, "erf("));
        expect_generates(r.spec);
        done(&r);
      }
    result r = torch_gelu(1, off, order, "t");
    expect_in(r.spec, "erf(t / 1.41421342)");
    assert_null(strstr(r.spec, "gelu("));
    done(&r);
    r = torch_gelu(1, types[0].c, order, "x"); /* x * (erf(tanh(x) / sqrt(2)) + 1) * 0.5 */
    expect_in(r.spec, "erf(tanh(x) / 1.41421354)");
    assert_null(strstr(r.spec, "gelu("));
    done(&r);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_batchnorm_is_reference_order_with_per_channel_parameters),
      cmocka_unit_test(test_batchnorm_spatial0_broadcasts_its_parameters_as_they_are),
      cmocka_unit_test(test_batchnorm_training_is_refused_with_its_reason),
      cmocka_unit_test(test_batchnorm_parameter_read_two_ways_refuses_the_kernel),
      cmocka_unit_test(test_sum_and_mean_fold_from_the_left),
      cmocka_unit_test(test_dropout_is_the_identity_and_training_is_refused),
      cmocka_unit_test(test_pow_by_constant_exponents),
      cmocka_unit_test(test_quantize_and_dequantize_forms),
      cmocka_unit_test(test_exp_is_the_spec_function_and_refused_on_double),
      cmocka_unit_test(test_functions_import_as_calls_and_composites_as_onnx_function_bodies),
      cmocka_unit_test(test_activations_import_correctly_rounded_or_literal),
      cmocka_unit_test(test_selu_is_selu_only_with_the_default_alpha_and_gamma),
      cmocka_unit_test(test_mul_of_a_value_and_its_sigmoid_is_silu),
      cmocka_unit_test(test_torch_exact_gelu_is_gelu),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
