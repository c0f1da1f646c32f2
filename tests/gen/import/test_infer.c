/* test_infer.c: wherec import's inference (gen/import/infer.c) on models with no value_info
   for their intermediates, as exporters write them: the shapes of Conv, pools, Gemm,
   Reshape ..., symbolic extents (unnamed dims, reconciled symbols, Shape -> Reshape
   chains), constant folding, value_info that disagrees, and attributes that make no sense. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "import/import.h"
#include "pbw.h"

typedef struct result {
  int    rc;
  char  *spec; /* NULL unless rc == 0 */
  char  *log;
  size_t log_len;
} result;

static result import_pbw(const pbw *g, int opset) {
  pbw    m = {0};
  result r = {0, NULL, NULL, 0};
  pbw_model(&m, g, opset);
  FILE *log = open_memstream(&r.log, &r.log_len);
  /* --bake-limit 0: initializers stay parameters, whose declared shapes these tests read
     (test_manifest.c and the prelu_bn_baked model test baking them) */
  r.rc = import_model_baked(m.buf, m.len, "test.onnx", "", log, &r.spec, NULL, 0);
  fclose(log);
  pbw_free(&m);
  return r;
}

static void done(result *r, pbw *g) {
  free(r->spec);
  free(r->log);
  pbw_free(g);
}

static void expect_in(const char *text, const char *part) {
  if (text == NULL || strstr(text, part) == NULL)
    fail_msg("'%s' not in:\n%s", part, text ? text : "(null)");
}

/* Attributes, tagged for pbw_node: ints (type INTS), one int, one string. */
static void attr_ints(pbw *attrs, const char *name, const int64_t *v, int n) {
  pbw at = {0};
  pbw_str(&at, 1, name);
  for (int i = 0; i < n; i++) pbw_int(&at, 8, v[i]);
  pbw_int(&at, 20, 7);
  pbw_msg(attrs, 5, &at);
  pbw_free(&at);
}

static void attr_int(pbw *attrs, const char *name, int64_t v) {
  pbw at = {0};
  pbw_str(&at, 1, name);
  pbw_int(&at, 3, v);
  pbw_int(&at, 20, 2);
  pbw_msg(attrs, 5, &at);
  pbw_free(&at);
}

/* An initializer of dtype (1 float: zeros; 7 int64: v) and shape dims. */
static void init_tensor(pbw *g, const char *name, int dtype, const int64_t *dims, int rank,
                        const int64_t *v) {
  pbw     t = {0};
  int64_t n = 1;
  for (int d = 0; d < rank; d++) {
    pbw_int(&t, 1, dims[d]);
    n *= dims[d];
  }
  pbw_int(&t, 2, dtype);
  pbw_str(&t, 8, name);
  size_t   size = dtype == 7 ? 8 : 4;
  uint8_t *raw = calloc((size_t)n + 1, size);
  if (dtype == 7 && v) memcpy(raw, v, (size_t)n * 8);
  pbw_bytes(&t, 9, raw, (size_t)n * size);
  free(raw);
  pbw_msg(g, 5, &t);
  pbw_free(&t);
}

static void node1(pbw *g, const char *op, const char *in, const char *out, const pbw *attrs) {
  const char *const ins[] = {in};
  pbw_node(g, op, NULL, ins, 1, out, attrs);
}

static void node2(pbw *g, const char *op, const char *a, const char *b, const char *out,
                  const pbw *attrs) {
  const char *const ins[] = {a, b};
  pbw_node(g, op, NULL, ins, 2, out, attrs);
}

/* x float[1,3,8,8] -> Conv(W [16,3,3,3], strides 2, pads 1) -> Relu -> MaxPool(2x2) ->
   Add(bias) -> y, no value_info between: the Relu and the Add know their shapes. */
static void test_conv_and_pool_shapes_reach_the_element_wise_nodes(void **state) {
  (void)state;
  pbw                  g = {0}, ca = {0}, pa = {0};
  static const int64_t x[] = {1, 3, 8, 8}, w[] = {16, 3, 3, 3}, two[] = {2, 2}, one4[] = {1, 1, 1, 1},
                       b[] = {16, 1, 1};
  attr_ints(&ca, "strides", two, 2);
  attr_ints(&ca, "pads", one4, 4);
  attr_ints(&pa, "kernel_shape", two, 2);
  attr_ints(&pa, "strides", two, 2);
  node2(&g, "Conv", "x", "W", "c", &ca);
  node1(&g, "Relu", "c", "r", NULL);
  node1(&g, "MaxPool", "r", "p", &pa);
  node2(&g, "Add", "p", "B", "y", NULL);
  init_tensor(&g, "W", 1, w, 4, NULL);
  init_tensor(&g, "B", 1, b, 3, NULL);
  pbw_value_info(&g, 11, "x", 1, 4, x, NULL);
  pbw_value_info(&g, 12, "y", 1, -1, NULL, NULL);
  result r = import_pbw(&g, 13);
  assert_int_equal(r.rc, 0);
  expect_in(r.spec, "(c: float[1,16,4,4]) = ");
  expect_in(r.spec, "(p: float[1,16,2,2], B: float[16,1,1]) = p + B;");
  pbw_free(&ca);
  pbw_free(&pa);
  done(&r, &g);
}

/* An unnamed extent gets a symbol of its own: the region is not refused. */
static void test_an_unnamed_dim_becomes_a_symbol(void **state) {
  (void)state;
  pbw                  g = {0};
  static const int64_t d[] = {-1, 3};
  node1(&g, "Relu", "x", "y", NULL);
  pbw_value_info(&g, 11, "x", 1, 2, d, NULL);
  pbw_value_info(&g, 12, "y", 1, -1, NULL, NULL);
  result r = import_pbw(&g, 13);
  assert_int_equal(r.rc, 0);
  expect_in(r.spec, "(x: float[unk__0,3]) = ");
  done(&r, &g);
}

/* Two symbols that ONNX leaves to the runtime to reconcile are one extent, and a
   symbol broadcast against a fixed extent takes it. */
static void test_symbols_reconciled_by_broadcasting_are_one_extent(void **state) {
  (void)state;
  pbw                  g = {0};
  static const int64_t d[] = {-1, 3}, e[] = {-1, 3}, f[] = {-1, 5};
  static const char   *pn[] = {"N", NULL}, *pm[] = {"M", NULL}, *pk[] = {"K", NULL};
  node2(&g, "Add", "a", "b", "s", NULL);
  node1(&g, "Relu", "s", "y", NULL);
  node2(&g, "Mul", "u", "v", "z", NULL);
  pbw_value_info(&g, 11, "a", 1, 2, d, pn);
  pbw_value_info(&g, 11, "b", 1, 2, e, pm);
  pbw_value_info(&g, 11, "u", 1, 2, f, pk);
  static const int64_t v[] = {7, 5};
  pbw_value_info(&g, 11, "v", 1, 2, v, NULL);
  pbw_value_info(&g, 12, "y", 1, -1, NULL, NULL);
  pbw_value_info(&g, 12, "z", 1, -1, NULL, NULL);
  result r = import_pbw(&g, 13);
  assert_int_equal(r.rc, 0);
  expect_in(r.spec, "(a: float[N,3], b: float[N,3]) = ");
  expect_in(r.spec, "(u: float[7,5], v: float[7,5]) = u * v;");
  done(&r, &g);
}

/* Reshape(x, Concat(Unsqueeze(Gather(Shape(x), 0)), [-1])): folded when x's shape is
   fixed, kept symbolic (N, 12) when it is not. */
static void shape_chain(pbw *g, const int64_t *xd, const char *const *params) {
  static const int64_t zero = 0, minus1[] = {-1}, one[] = {1}, axes[] = {0};
  static const int64_t scalar[] = {0};
  (void)scalar;
  pbw ga = {0}, ua = {0}, cc = {0};
  attr_int(&ga, "axis", 0);
  attr_int(&cc, "axis", 0);
  node1(g, "Shape", "x", "sh", NULL);
  node2(g, "Gather", "sh", "i0", "n", &ga);
  node2(g, "Unsqueeze", "n", "ax", "n1", NULL);
  node2(g, "Concat", "n1", "m1", "newshape", &cc);
  node2(g, "Reshape", "x", "newshape", "flat", NULL);
  node1(g, "Relu", "flat", "y", NULL);
  init_tensor(g, "i0", 7, NULL, 0, &zero);
  init_tensor(g, "ax", 7, one, 1, axes);
  init_tensor(g, "m1", 7, one, 1, minus1);
  pbw_value_info(g, 11, "x", 1, 3, xd, params);
  pbw_value_info(g, 12, "y", 1, -1, NULL, NULL);
  pbw_free(&ga);
  pbw_free(&ua);
  pbw_free(&cc);
}

static void test_shape_arithmetic_is_folded_and_reshape_gets_a_static_shape(void **state) {
  (void)state;
  pbw                  g = {0};
  static const int64_t xd[] = {2, 3, 4};
  shape_chain(&g, xd, NULL);
  result r = import_pbw(&g, 13);
  assert_int_equal(r.rc, 0);
  expect_in(r.spec, "(flat: float[2,12]) = ");
  expect_in(r.log, "wherec: folded: Shape (output 'sh'): its value is a constant, computed at import\n");
  expect_in(r.log, "wherec: folded: Concat (output 'newshape')");
  done(&r, &g);
}

static void test_symbolic_shape_arithmetic_keeps_the_symbol_through_reshape(void **state) {
  (void)state;
  pbw                  g = {0};
  static const int64_t xd[] = {-1, 3, 4};
  static const char   *params[] = {"batch", NULL, NULL};
  shape_chain(&g, xd, params);
  result r = import_pbw(&g, 13);
  assert_int_equal(r.rc, 0);
  expect_in(r.spec, "(flat: float[batch,12]) = ");
  done(&r, &g);
}

/* Integer constants fold exactly: Cast(Add(a, b)) of int64 constants into Where's
   condition side; the kernel reads the folded constant as a literal. */
static void test_integer_constant_arithmetic_folds(void **state) {
  (void)state;
  pbw                  g = {0}, ca = {0};
  static const int64_t two = 2, three = 3, x[] = {4};
  attr_int(&ca, "to", 1);
  node2(&g, "Add", "a", "b", "s", NULL);
  node1(&g, "Cast", "s", "f", &ca);
  node2(&g, "Mul", "x", "f", "y", NULL);
  init_tensor(&g, "a", 7, NULL, 0, &two);
  init_tensor(&g, "b", 7, NULL, 0, &three);
  pbw_value_info(&g, 11, "x", 1, 1, x, NULL);
  pbw_value_info(&g, 12, "y", 1, -1, NULL, NULL);
  result r = import_pbw(&g, 13);
  assert_int_equal(r.rc, 0);
  expect_in(r.log, "wherec: folded: Add (output 's')");
  /* and the float Cast of it: an integer's conversion rounds once, the same everywhere */
  expect_in(r.spec, "(x: float[4]) = x * 5.0;");
  pbw_free(&ca);
  done(&r, &g);
}

/* com.microsoft's operators, as onnxruntime's optimizers write them, have rules: FusedMatMul
   (B transposed), SkipLayerNormalization and MatMulNBits give the shapes the element-wise
   nodes after them need; the same op_type in the default domain is ONNX's (Gelu). */
static void test_com_microsoft_operators_have_shape_rules(void **state) {
  (void)state;
  pbw                  g = {0}, fm = {0}, sk = {0}, nb = {0}, ge = {0};
  static const int64_t xd[] = {-1, 8, 16}, wd[] = {32, 16}, gd[] = {16};
  static const char   *params[] = {"B", NULL, NULL};
  pbw_str(&fm, 7, "com.microsoft");
  attr_int(&fm, "transB", 1);
  pbw_str(&sk, 7, "com.microsoft");
  pbw_str(&nb, 7, "com.microsoft");
  attr_int(&nb, "N", 24);
  attr_int(&nb, "K", 16);
  pbw_str(&ge, 7, "com.microsoft");
  node2(&g, "FusedMatMul", "x", "W", "mm", &fm);
  node1(&g, "Relu", "mm", "y1", NULL);
  const char *const skin[] = {"x", "skip", "gamma"};
  pbw_node(&g, "SkipLayerNormalization", NULL, skin, 3, "ln", &sk);
  node1(&g, "Gelu", "ln", "g1", &ge);
  node2(&g, "Add", "g1", "x", "y2", NULL);
  node2(&g, "MatMulNBits", "x", "packed", "q", &nb);
  node1(&g, "Sigmoid", "q", "y3", NULL);
  init_tensor(&g, "W", 1, wd, 2, NULL);
  init_tensor(&g, "gamma", 1, gd, 1, NULL);
  init_tensor(&g, "packed", 1, gd, 1, NULL);
  pbw_value_info(&g, 11, "x", 1, 3, xd, params);
  pbw_value_info(&g, 11, "skip", 1, 3, xd, params);
  const char *outs[] = {"y1", "y2", "y3"};
  for (int i = 0; i < 3; i++) pbw_value_info(&g, 12, outs[i], 1, -1, NULL, NULL);
  result r = import_pbw(&g, 17);
  assert_int_equal(r.rc, 0);
  expect_in(r.spec, "kernel y1(mm: float[B,8,32]) = ");
  expect_in(r.spec, "(x: float[B,8,16], g1: float[B,8,16]) = g1 + x;");
  expect_in(r.spec, "kernel y3(q: float[B,8,24]) = sigmoid(q);");
  expect_in(r.log, "not taken: Gelu (output 'g1'): not element-wise"); /* com.microsoft's */
  pbw_free(&fm);
  pbw_free(&sk);
  pbw_free(&nb);
  pbw_free(&ge);
  done(&r, &g);
}

/* PyTorch's expand(n, -1): Where(Equal(sizes, -1), 1, sizes) of a shape vector [batch, -1]
   (Reshape to [-1] keeps it one) is [batch, 1], since no extent is -1; Expand by it gives
   [batch, 4], which the Add after it shares with x. */
static void test_expand_by_sizes_with_minus_ones_keeps_the_symbol(void **state) {
  (void)state;
  pbw                  g = {0}, ga = {0}, cc = {0};
  static const int64_t xd[] = {-1, 4}, zero = 0, one[] = {1}, two[] = {2}, ax0[] = {0},
                       m1[] = {-1}, m1m1[] = {-1, -1}, ones[] = {1, 1}, td[] = {1, 4};
  static const char *params[] = {"batch", NULL};
  attr_int(&ga, "axis", 0);
  attr_int(&cc, "axis", 0);
  node1(&g, "Shape", "x", "sh", NULL);
  node2(&g, "Gather", "sh", "i0", "b", &ga);
  node2(&g, "Unsqueeze", "b", "ax", "b1", NULL);
  node2(&g, "Concat", "b1", "m1", "sizes0", &cc);
  node2(&g, "Reshape", "sizes0", "m1", "sizes", NULL);
  node2(&g, "Equal", "sizes", "m1m1", "is_m1", NULL);
  const char *const wh[] = {"is_m1", "ones", "sizes"};
  pbw_node(&g, "Where", NULL, wh, 3, "shp", NULL);
  node2(&g, "Expand", "tok", "shp", "ex", NULL);
  node2(&g, "Add", "ex", "x", "y", NULL);
  init_tensor(&g, "i0", 7, NULL, 0, &zero);
  init_tensor(&g, "ax", 7, one, 1, ax0);
  init_tensor(&g, "m1", 7, one, 1, m1);
  init_tensor(&g, "m1m1", 7, two, 1, m1m1);
  init_tensor(&g, "ones", 7, two, 1, ones);
  init_tensor(&g, "tok", 1, td, 2, NULL);
  pbw_value_info(&g, 11, "x", 1, 2, xd, params);
  pbw_value_info(&g, 12, "y", 1, -1, NULL, NULL);
  result r = import_pbw(&g, 13);
  assert_int_equal(r.rc, 0);
  expect_in(r.spec, "kernel y(x: float[batch,4], ex: float[batch,4]) = ex + x;");
  pbw_free(&ga);
  pbw_free(&cc);
  done(&r, &g);
}

/* Mod of integer constants folds with ONNX's signs: the divisor's (fmod 0, Python's %), the
   dividend's (fmod 1, C's). */
static void test_integer_mod_folds_with_the_sign_onnx_gives(void **state) {
  (void)state;
  for (int fmod = 0; fmod < 2; fmod++) {
    pbw                  g = {0}, ma = {0}, ca = {0};
    static const int64_t a = -7, b = 3, x[] = {4};
    attr_int(&ma, "fmod", fmod);
    attr_int(&ca, "to", 1);
    node2(&g, "Mod", "a", "b", "m", &ma);
    node1(&g, "Cast", "m", "f", &ca);
    node2(&g, "Mul", "x", "f", "y", NULL);
    init_tensor(&g, "a", 7, NULL, 0, &a);
    init_tensor(&g, "b", 7, NULL, 0, &b);
    pbw_value_info(&g, 11, "x", 1, 1, x, NULL);
    pbw_value_info(&g, 12, "y", 1, -1, NULL, NULL);
    result r = import_pbw(&g, 13);
    assert_int_equal(r.rc, 0);
    expect_in(r.spec, fmod ? "(x: float[4]) = x * (-1.0);" : "(x: float[4]) = x * 2.0;");
    pbw_free(&ma);
    pbw_free(&ca);
    done(&r, &g);
  }
}

/* PyTorch's attention scale, 1 / sqrt(float(head_dim)) from the shape, folds: Cast, Sqrt
   and Reciprocal round once each, as IEEE 754 says, so the bits are every machine's. A NaN
   (0 / 0) and a function (Exp) are the kernel's. */
static void test_correctly_rounded_float_arithmetic_of_constants_folds(void **state) {
  (void)state;
  pbw                  g = {0}, ga = {0}, ca = {0};
  static const int64_t xd[] = {2, 3, 16}, two = 2, one[] = {1};
  attr_int(&ga, "axis", 0);
  attr_int(&ca, "to", 1);
  node1(&g, "Shape", "x", "sh", NULL);
  node2(&g, "Gather", "sh", "i2", "d", &ga);
  node1(&g, "Cast", "d", "df", &ca);
  node1(&g, "Sqrt", "df", "sq", NULL);
  node1(&g, "Reciprocal", "sq", "scale", NULL);
  node2(&g, "Mul", "x", "scale", "y", NULL);
  node2(&g, "Div", "z", "z", "nan", NULL);
  node1(&g, "Exp", "z", "e1", NULL);
  node2(&g, "Add", "x", "nan", "p", NULL);
  node2(&g, "Add", "p", "e1", "w", NULL);
  init_tensor(&g, "i2", 7, NULL, 0, &two);
  init_tensor(&g, "z", 1, one, 1, NULL);
  pbw_value_info(&g, 11, "x", 1, 3, xd, NULL);
  pbw_value_info(&g, 12, "y", 1, -1, NULL, NULL);
  pbw_value_info(&g, 12, "w", 1, -1, NULL, NULL);
  result r = import_pbw(&g, 13);
  assert_int_equal(r.rc, 0);
  expect_in(r.spec, "kernel y(x: float[2,3,16]) = x * 0.25;");
  expect_in(r.log, "wherec: folded: Reciprocal (output 'scale')");
  expect_in(r.spec, "= (x + (float(0.0) / float(0.0))) + exp(float(0.0));"); /* the kernel's */
  pbw_free(&ga);
  pbw_free(&ca);
  done(&r, &g);
}

/* An extent computed from a symbol (batch * 2, as attention splits heads) stays one
   expression: two Reshapes by it, each from its own Shape chain, give tensors of one shape,
   so the kernel that adds them has one extent for both; the empty Slice of the extents
   after the last is a constant. */
static void test_an_extent_computed_from_a_symbol_is_one_extent_each_time(void **state) {
  (void)state;
  pbw                  g = {0}, ga = {0}, cc = {0};
  static const int64_t xd[] = {-1, 8}, zero = 0, two = 2, one[] = {1}, ax0[] = {0},
                       four[] = {4}, big[] = {INT64_MAX}, st[] = {2};
  static const char *params[] = {"batch", NULL};
  attr_int(&ga, "axis", 0);
  attr_int(&cc, "axis", 0);
  for (int k = 0; k < 2; k++) {
    char n[8][16];
    const char *names[] = {"sh", "b", "b2", "b2u", "rest", "shape", "r"};
    for (int i = 0; i < 7; i++) snprintf(n[i], sizeof n[i], "%s%d", names[i], k);
    node1(&g, "Shape", "x", n[0], NULL);
    node2(&g, "Gather", n[0], "i0", n[1], &ga);
    node2(&g, "Mul", n[1], "two", n[2], NULL);
    node2(&g, "Unsqueeze", n[2], "ax", n[3], NULL);
    const char *sl[] = {n[0], "st", "big"};
    pbw_node(&g, "Slice", NULL, sl, 3, n[4], NULL);
    const char *cat[] = {n[3], n[4], "four"};
    pbw_node(&g, "Concat", NULL, cat, 3, n[5], &cc);
    node2(&g, "Reshape", "x", n[5], n[6], NULL);
  }
  node2(&g, "Add", "r0", "r1", "y", NULL);
  init_tensor(&g, "i0", 7, NULL, 0, &zero);
  init_tensor(&g, "two", 7, NULL, 0, &two);
  init_tensor(&g, "ax", 7, one, 1, ax0);
  init_tensor(&g, "four", 7, one, 1, four);
  init_tensor(&g, "big", 7, one, 1, big);
  init_tensor(&g, "st", 7, one, 1, st);
  pbw_value_info(&g, 11, "x", 1, 2, xd, params);
  pbw_value_info(&g, 12, "y", 1, -1, NULL, NULL);
  result r = import_pbw(&g, 13);
  assert_int_equal(r.rc, 0);
  const char *a = strstr(r.spec, "(r0: float["), *b = strstr(r.spec, ", r1: float[");
  assert_non_null(a);
  assert_non_null(b);
  a += strlen("(r0: float[");
  b += strlen(", r1: float[");
  const char *ea = strchr(a, ',');
  assert_non_null(ea);
  assert_true(strncmp(a, b, (size_t)(ea - a) + 3) == 0); /* "unk__N,4]" both */
  assert_true(strncmp(ea, ",4]", 3) == 0);
  assert_null(strstr(r.spec, "batch"));                  /* batch * 2: no extent of x */
  pbw_free(&ga);
  pbw_free(&cc);
  done(&r, &g);
}

/* value_info that disagrees with the operator's rule: a warning names both, the
   value_info is kept. */
static void test_value_info_that_disagrees_with_inference_is_named(void **state) {
  (void)state;
  pbw                  g = {0};
  static const int64_t a[] = {2, 3}, b[] = {3, 4}, wrong[] = {2, 5};
  node2(&g, "MatMul", "a", "b", "m", NULL);
  node1(&g, "Relu", "m", "y", NULL);
  pbw_value_info(&g, 11, "a", 1, 2, a, NULL);
  pbw_value_info(&g, 11, "b", 1, 2, b, NULL);
  pbw_value_info(&g, 13, "m", 1, 2, wrong, NULL);
  pbw_value_info(&g, 12, "y", 1, -1, NULL, NULL);
  result r = import_pbw(&g, 13);
  assert_int_equal(r.rc, 0);
  expect_in(r.log, "wherec: warning: value 'm': the model's value_info says float[2,5], inference "
                   "by MatMul's rule gives float[2,4]; the value_info is kept\n");
  done(&r, &g);
}

/* LSTM's outputs, Gemm, Flatten, Transpose, Slice, Split, Pad, ReduceMean, Resize: each
   output's shape reaches an element-wise node after it. */
static void test_shapes_through_the_other_operators(void **state) {
  (void)state;
  pbw                  g = {0}, la = {0}, ta = {0}, ra = {0};
  static const int64_t x[] = {5, 2, 8}, w[] = {1, 16, 8}, rr[] = {1, 16, 4}, perm[] = {1, 0, 2},
                       axes[] = {2}, one[] = {1}, st[] = {1}, en[] = {100}, sa[] = {2};
  attr_int(&la, "hidden_size", 4);
  attr_ints(&ta, "perm", perm, 3);
  attr_ints(&ra, "axes", axes, 1);
  const char *const lin[] = {"x", "W", "R"};
  const char *const louts[] = {"Y", "Yh"};
  (void)louts;
  pbw_node(&g, "LSTM", NULL, lin, 3, "Y", &la);
  node1(&g, "Relu", "Y", "y1", NULL);
  node1(&g, "Transpose", "x", "t", &ta);
  node1(&g, "Relu", "t", "y2", NULL);
  node1(&g, "ReduceMean", "x", "m", &ra);
  node1(&g, "Relu", "m", "y3", NULL);
  const char *const slin[] = {"x", "st", "en", "sa"};
  pbw_node(&g, "Slice", NULL, slin, 4, "sl", NULL);
  node1(&g, "Relu", "sl", "y4", NULL);
  init_tensor(&g, "W", 1, w, 3, NULL);
  init_tensor(&g, "R", 1, rr, 3, NULL);
  init_tensor(&g, "st", 7, one, 1, st);
  init_tensor(&g, "en", 7, one, 1, en);
  init_tensor(&g, "sa", 7, one, 1, sa);
  pbw_value_info(&g, 11, "x", 1, 3, x, NULL);
  const char *outs[] = {"y1", "y2", "y3", "y4"};
  for (int i = 0; i < 4; i++) pbw_value_info(&g, 12, outs[i], 1, -1, NULL, NULL);
  result r = import_pbw(&g, 13);
  assert_int_equal(r.rc, 0);
  expect_in(r.spec, "(Y: float[5,1,2,4]) = ");
  expect_in(r.spec, "(t: float[2,5,8]) = ");
  expect_in(r.spec, "(m: float[5,2,1]) = ");
  expect_in(r.spec, "(sl: float[5,2,7]) = ");
  pbw_free(&la);
  pbw_free(&ta);
  pbw_free(&ra);
  done(&r, &g);
}

/* Attributes and constants that make no sense give no shape (and no crash), each with a
   warning that names the node and says why: strides 0, negative pads, a Reshape with two
   -1s, Gather out of range, Slice with step 0. A Relu of such a value is right for any
   shape: it reads it flat. */
static void test_nonsense_attributes_give_no_shape(void **state) {
  (void)state;
  pbw                  g = {0}, ca = {0};
  static const int64_t x[] = {1, 3, 8, 8}, w[] = {4, 3, 3, 3}, zero2[] = {0, 0},
                       neg4[] = {-9, -9, -9, -9}, two[] = {2}, m2[] = {-1, -1}, one[] = {1},
                       big[] = {99}, z[] = {0};
  attr_ints(&ca, "strides", zero2, 2);
  attr_ints(&ca, "pads", neg4, 4);
  node2(&g, "Conv", "x", "W", "c", &ca);
  node1(&g, "Relu", "c", "y1", NULL);
  node2(&g, "Reshape", "x", "s2", "rs", NULL);
  node1(&g, "Relu", "rs", "y2", NULL);
  node2(&g, "Gather", "x", "bad", "ga", NULL);
  node1(&g, "Relu", "ga", "y3", NULL);
  const char *const slin[] = {"x", "z", "z", "z", "z"};
  pbw_node(&g, "Slice", NULL, slin, 5, "sl", NULL);
  node1(&g, "Relu", "sl", "y4", NULL);
  init_tensor(&g, "W", 1, w, 4, NULL);
  init_tensor(&g, "s2", 7, two, 1, m2);
  init_tensor(&g, "bad", 7, one, 1, big);
  init_tensor(&g, "z", 7, one, 1, z);
  pbw_value_info(&g, 11, "x", 1, 4, x, NULL);
  const char *outs[] = {"y1", "y2", "y3", "y4"};
  for (int i = 0; i < 4; i++) pbw_value_info(&g, 12, outs[i], 1, -1, NULL, NULL);
  result r = import_pbw(&g, 13);
  assert_true(r.rc == 0 || r.rc == 1);
  expect_in(r.spec, "kernel y2(rs: float[n]) = ");
  expect_in(r.spec, "kernel y4(sl: float[n]) = ");
  static const char *const why[] = {
      "Conv (output 'c'): a stride of 0 along axis 2",
      "Reshape (output 'rs'): the shape has two -1s",
      "Gather (output 'ga'): index 99 is out of range for extent 1",
      "Slice (output 'sl'): a step of 0 along axis 0"};
  for (int i = 0; i < 4; i++) {
    char line[200];
    snprintf(line, sizeof line, "wherec: warning: %s: its rule cannot apply, so its output has no "
             "shape\n", why[i]);
    expect_in(r.log, line);
  }
  pbw_free(&ca);
  done(&r, &g);
}

/* A ValueInfoProto with a name only (untyped), as exporters write sub-graph inputs. */
static void untyped(pbw *g, uint32_t field, const char *name) {
  pbw vi = {0};
  pbw_str(&vi, 1, name);
  pbw_msg(g, field, &vi);
  pbw_free(&vi);
}

/* If's branches are imported as kernels of their own; the outer value they read is a
   parameter. */
static void test_if_branches_are_imported_with_outer_values_as_parameters(void **state) {
  (void)state;
  pbw                  g = {0}, th = {0}, el = {0}, attrs = {0};
  static const int64_t d[] = {2, 3};
  node1(&th, "Relu", "x", "t", NULL);
  pbw_value_info(&th, 12, "t", 1, 2, d, NULL);
  node1(&el, "Neg", "x", "e", NULL);
  pbw_value_info(&el, 12, "e", 1, 2, d, NULL);
  pbw_graph_attr(&attrs, "then_branch", &th);
  pbw_graph_attr(&attrs, "else_branch", &el);
  const char *const in[] = {"c"};
  pbw_node(&g, "If", "branch", in, 1, "r", &attrs);
  node1(&g, "Sigmoid", "r", "y", NULL);
  pbw_value_info(&g, 11, "c", 9, 0, NULL, NULL);
  pbw_value_info(&g, 11, "x", 1, 2, d, NULL);
  pbw_value_info(&g, 12, "y", 1, -1, NULL, NULL);
  result r = import_pbw(&g, 13);
  assert_int_equal(r.rc, 0);
  expect_in(r.spec, "# In sub-graph 'then_branch' of If 'branch' (its outer values are parameters).\n");
  expect_in(r.spec, "(x: float[2,3]) = where(x < 0.0, 0.0, x);");
  expect_in(r.spec, "(x: float[2,3]) = -x;");
  expect_in(r.log, "wherec: kernel t: Relu (output 't')\n");
  pbw_free(&th);
  pbw_free(&el);
  pbw_free(&attrs);
  done(&r, &g);
}

/* An If whose branches give no value_info: each branch is inferred where the If stands,
   so the nodes after it know their shape; branches that disagree on an extent give a
   fresh symbol there; a condition known at import (a rank test folded from Shape and
   Size) takes its own branch's shape, even when the other branch has another rank. */
static void test_if_outputs_are_inferred_from_their_branches(void **state) {
  (void)state;
  pbw                  g = {0}, th = {0}, el = {0}, attrs = {0}, sq = {0};
  static const int64_t d[] = {1, 3, 4}, zero[] = {0};
  node1(&th, "Relu", "x", "t", NULL);
  untyped(&th, 12, "t");
  attr_ints(&sq, "axes", zero, 1);
  node1(&el, "Squeeze", "x", "e", &sq); /* another rank: opset 11's attribute */
  untyped(&el, 12, "e");
  pbw_graph_attr(&attrs, "then_branch", &th);
  pbw_graph_attr(&attrs, "else_branch", &el);
  node1(&g, "Shape", "x", "shp", NULL);
  node1(&g, "Size", "shp", "rank", NULL);
  node2(&g, "Equal", "rank", "three", "c", NULL);
  const char *const in[] = {"c"};
  pbw_node(&g, "If", "decided", in, 1, "r", &attrs);
  node1(&g, "Sigmoid", "r", "y", NULL);
  static const int64_t three = 3;
  init_tensor(&g, "three", 7, NULL, 0, &three);
  pbw_value_info(&g, 11, "x", 1, 3, d, NULL);
  pbw_value_info(&g, 12, "y", 1, -1, NULL, NULL);
  result r = import_pbw(&g, 11);
  assert_int_equal(r.rc, 0);
  expect_in(r.spec, "kernel y(r: float[1,3,4]) = sigmoid(r);");
  done(&r, &g);
  pbw_free(&th);
  pbw_free(&el);
  pbw_free(&attrs);
  pbw_free(&sq);
}

/* Transpose of a constant (pads computed as [2,N] and transposed, as exporters write
   Pad's reflect padding) folds, and the Pad after it gets its shape. */
static void test_a_transposed_constant_folds_into_pads(void **state) {
  (void)state;
  pbw                  g = {0}, pa = {0}, ta = {0}, ra = {0};
  static const int64_t x[] = {1, 8}, pd[] = {2, 2}, pv[] = {0, 3, 0, 1}, perm[] = {1, 0},
                       flat[] = {1}, flatv[] = {-1};
  attr_ints(&ta, "perm", perm, 2);
  node1(&g, "Transpose", "p2", "pt", &ta);
  node2(&g, "Reshape", "pt", "flat", "pads", NULL);
  node2(&g, "Pad", "x", "pads", "xp", NULL);
  node1(&g, "Relu", "xp", "y", NULL);
  init_tensor(&g, "p2", 7, pd, 2, pv);
  init_tensor(&g, "flat", 7, flat, 1, flatv);
  pbw_value_info(&g, 11, "x", 1, 2, x, NULL);
  pbw_value_info(&g, 12, "y", 1, -1, NULL, NULL);
  result r = import_pbw(&g, 13);
  assert_int_equal(r.rc, 0);
  expect_in(r.spec, "(xp: float[4,9]) = "); /* pads [0, 0, 3, 1]: [1 + 3, 8 + 1] */
  done(&r, &g);
  pbw_free(&pa);
  pbw_free(&ta);
  pbw_free(&ra);
}

/* A value an If's branch reads from outside is ordered before the If, as an input is: the
   branch is inferred after it (here the If is ready at once, its condition an input,
   before the Sigmoid its branch reads). */
static void test_a_value_a_branch_reads_is_inferred_before_the_branch(void **state) {
  (void)state;
  pbw                  g = {0}, th = {0}, el = {0}, attrs = {0};
  static const int64_t d[] = {2, 3};
  node1(&th, "Relu", "s", "t", NULL);
  untyped(&th, 12, "t");
  node1(&el, "Neg", "s", "e", NULL);
  untyped(&el, 12, "e");
  pbw_graph_attr(&attrs, "then_branch", &th);
  pbw_graph_attr(&attrs, "else_branch", &el);
  node1(&g, "Neg", "x", "a", NULL);
  node1(&g, "Sigmoid", "a", "s", NULL);
  const char *const in[] = {"c"};
  pbw_node(&g, "If", "late", in, 1, "r", &attrs);
  node1(&g, "Exp", "r", "y", NULL);
  pbw_value_info(&g, 11, "c", 9, 0, NULL, NULL);
  pbw_value_info(&g, 11, "x", 1, 2, d, NULL);
  pbw_value_info(&g, 12, "y", 1, -1, NULL, NULL);
  result r = import_pbw(&g, 13);
  assert_int_equal(r.rc, 0);
  expect_in(r.spec, "kernel y(r: float[2,3]) = exp(r);");
  done(&r, &g);
  pbw_free(&th);
  pbw_free(&el);
  pbw_free(&attrs);
}

/* A value of unknown rank (an If whose branches differ in rank) still has a Shape: a vector
   of an unknown extent, so that Gather(Shape(r), 0) is a scalar and the Equal on it a
   kernel (Silero's decoder tests its batch so). */
static void test_rules_give_what_they_know_of_an_unknown_rank(void **state) {
  (void)state;
  pbw                  g = {0}, th = {0}, el = {0}, attrs = {0}, sq = {0};
  static const int64_t d[] = {1, 3, 4}, zero[] = {0};
  node1(&th, "Identity", "x", "t", NULL);
  untyped(&th, 12, "t");
  attr_ints(&sq, "axes", zero, 1);
  node1(&el, "Squeeze", "x", "e", &sq);
  untyped(&el, 12, "e");
  pbw_graph_attr(&attrs, "then_branch", &th);
  pbw_graph_attr(&attrs, "else_branch", &el);
  const char *const in[] = {"c"};
  pbw_node(&g, "If", "ranks", in, 1, "r", &attrs);
  node1(&g, "Shape", "r", "shp", NULL);
  node2(&g, "Gather", "shp", "i0", "n", NULL);
  node2(&g, "Equal", "n", "one", "y", NULL);
  node2(&g, "Conv", "r", "W", "cv", NULL); /* W's rank is X's: the output has rank 3 */
  node2(&g, "Add", "cv", "bias", "z", NULL);
  static const int64_t z = 0, one = 1, wd[] = {4, 3, 1}, bd[] = {4, 1};
  init_tensor(&g, "i0", 7, NULL, 0, &z);
  init_tensor(&g, "one", 7, NULL, 0, &one);
  init_tensor(&g, "W", 1, wd, 3, NULL);
  init_tensor(&g, "bias", 1, bd, 2, NULL);
  pbw_value_info(&g, 11, "c", 9, 0, NULL, NULL);
  pbw_value_info(&g, 11, "x", 1, 3, d, NULL);
  pbw_value_info(&g, 12, "y", 9, -1, NULL, NULL);
  pbw_value_info(&g, 12, "z", 1, -1, NULL, NULL);
  result r = import_pbw(&g, 11);
  assert_int_equal(r.rc, 0);
  expect_in(r.spec, "kernel y(n: int64[]) = n == 1;");
  expect_in(r.spec, ",4,unk__"); /* cv: [unk__N, 4, unk__M], read with the bias */
  done(&r, &g);
  pbw_free(&th);
  pbw_free(&el);
  pbw_free(&attrs);
  pbw_free(&sq);
}

/* --dim fixes a dim_param: an If on it (Equal(Gather(Shape(x), 1), 1), as Silero tests its
   frame count) is decided at import, so what follows the If has a shape; a name the graph
   has none of is said, and nothing else changes. Without it the If's value has no rank
   (its branches differ in rank): a kernel that reads it and scalars only reads it flat,
   as the vector of its elements; one that reads it and a vector is refused, saying so. */
static void test_a_dim_given_decides_what_depends_on_it(void **state) {
  (void)state;
  pbw                  g = {0}, th = {0}, el = {0}, attrs = {0}, sq = {0};
  static const int64_t d[] = {3, -1}, one[] = {1};
  static const char *const params[] = {NULL, "T"};
  attr_ints(&sq, "axes", one, 1);
  node1(&th, "Squeeze", "x", "t", &sq); /* one frame: squeezed, another rank */
  untyped(&th, 12, "t");
  node1(&el, "Identity", "x", "e", NULL);
  untyped(&el, 12, "e");
  pbw_graph_attr(&attrs, "then_branch", &th);
  pbw_graph_attr(&attrs, "else_branch", &el);
  node1(&g, "Shape", "x", "shp", NULL);
  node2(&g, "Gather", "shp", "i1", "n", NULL);
  node2(&g, "Equal", "n", "one", "c", NULL);
  const char *const in[] = {"c"};
  pbw_node(&g, "If", "frames", in, 1, "r", &attrs);
  node1(&g, "Sigmoid", "r", "y", NULL);
  node2(&g, "Mul", "r", "s", "z", NULL);
  node2(&g, "Add", "r", "v3", "w", NULL);
  static const int64_t i1 = 1, onev = 1, three[] = {3};
  init_tensor(&g, "i1", 7, NULL, 0, &i1);
  init_tensor(&g, "one", 7, NULL, 0, &onev);
  init_tensor(&g, "v3", 1, three, 1, NULL);
  pbw_value_info(&g, 11, "x", 1, 2, d, params);
  pbw_value_info(&g, 11, "s", 1, 0, NULL, NULL);
  pbw_value_info(&g, 12, "y", 1, -1, NULL, NULL);
  pbw_value_info(&g, 12, "z", 1, -1, NULL, NULL);
  pbw_value_info(&g, 12, "w", 1, -1, NULL, NULL);
  pbw                  m = {0};
  pbw_model(&m, &g, 11);
  for (int bound = 0; bound < 2; bound++) {
    static const char *const dims[] = {"T=4", "nosuch=2"};
    import_options o = {.bake_limit = 0, .dims = dims, .n_dims = bound ? 2 : 0};
    char          *spec = NULL, *log = NULL;
    size_t         n = 0;
    FILE          *f = open_memstream(&log, &n);
    int            rc = import_model_options(m.buf, m.len, "t.onnx", "", f, &spec, NULL, &o);
    fclose(f);
    if (bound) {
      assert_int_equal(rc, 0);
      expect_in(spec, "kernel y(r: float[3,4]) = sigmoid(r);"); /* T = 4: the else branch */
      expect_in(log, "wherec: warning: --dim nosuch=2: the graph has no dim_param 'nosuch'\n");
    } else {
      assert_int_equal(rc, 0);
      expect_in(spec, "kernel y(r: float[n]) = sigmoid(r);");
      expect_in(spec, "kernel z(s: float[], r: float[n]) = r * s;");
      expect_in(log, "not taken: Add (output 'w'): input 'r' has a dynamic shape (even its "
                     "rank), and 'v3' is no scalar, so the two may broadcast to a shape of "
                     "neither\n");
    }
    free(spec);
    free(log);
  }
  pbw_free(&m);
  pbw_free(&g);
  pbw_free(&th);
  pbw_free(&el);
  pbw_free(&attrs);
  pbw_free(&sq);
}

/* A Loop body whose inputs are untyped gets the types of the Loop's inputs, and the
   Loop's outputs get the loop-carried value's type and the scan output's extra axis. */
static void test_loop_body_inputs_take_the_loop_inputs_types(void **state) {
  (void)state;
  pbw                  g = {0}, body = {0}, attrs = {0};
  static const int64_t d[] = {2, 3};
  node2(&body, "Add", "v", "x", "v2", NULL);
  node1(&body, "Identity", "c", "c2", NULL);
  node1(&body, "Neg", "v2", "s", NULL);
  untyped(&body, 11, "i");
  untyped(&body, 11, "c");
  untyped(&body, 11, "v");
  untyped(&body, 12, "c2");
  untyped(&body, 12, "v2");
  pbw_value_info(&body, 12, "s", 1, 2, d, NULL);
  pbw_graph_attr(&attrs, "body", &body);
  const char *const in[] = {"trip", "cond", "x"};
  const char *const outs[] = {"vf", "scan"};
  (void)outs;
  pbw loop = {0};
  for (int i = 0; i < 3; i++) pbw_str(&loop, 1, in[i]);
  pbw_str(&loop, 2, "vf");
  pbw_str(&loop, 2, "scan");
  pbw_str(&loop, 3, "loop");
  pbw_str(&loop, 4, "Loop");
  pbw_raw(&loop, attrs.buf, attrs.len);
  pbw_msg(&g, 1, &loop);
  node1(&g, "Relu", "vf", "y", NULL);
  node1(&g, "Relu", "scan", "z", NULL);
  pbw_value_info(&g, 11, "trip", 7, 0, NULL, NULL);
  pbw_value_info(&g, 11, "cond", 9, 0, NULL, NULL);
  pbw_value_info(&g, 11, "x", 1, 2, d, NULL);
  pbw_value_info(&g, 12, "y", 1, -1, NULL, NULL);
  pbw_value_info(&g, 12, "z", 1, -1, NULL, NULL);
  result r = import_pbw(&g, 13);
  assert_int_equal(r.rc, 0);
  /* v2 is the body's output and what its Neg reads: one kernel writes both */
  expect_in(r.spec, "(v: float[2,3], x: float[2,3]) -> (s, v2) {\n  v2 = v + x;\n  s = -v2;\n}");
  expect_in(r.spec, "(vf: float[2,3]) = ");
  expect_in(r.spec, "(scan: float[unk__0,2,3]) = ");
  expect_in(r.spec, "(c: bool[]) = c;");
  pbw_free(&body);
  pbw_free(&attrs);
  pbw_free(&loop);
  done(&r, &g);
}

/* PRelu before opset 7 with one slope per channel ([C] against X [N,C,H,W]), as exporters
   wrote it and onnxruntime runs it: the slope is declared [C,1,1]. */
static void test_prelu6_takes_a_per_channel_slope(void **state) {
  (void)state;
  pbw                  g = {0};
  static const int64_t x[] = {2, 3, 4, 5}, c[] = {3}, bad[] = {4};
  node2(&g, "PRelu", "x", "slope", "y", NULL);
  node2(&g, "PRelu", "x", "other", "z", NULL);
  init_tensor(&g, "slope", 1, c, 1, NULL);
  init_tensor(&g, "other", 1, bad, 1, NULL);
  pbw_value_info(&g, 11, "x", 1, 4, x, NULL);
  pbw_value_info(&g, 12, "y", 1, -1, NULL, NULL);
  pbw_value_info(&g, 12, "z", 1, -1, NULL, NULL);
  result r = import_pbw(&g, 6);
  assert_int_equal(r.rc, 0);
  expect_in(r.spec, "(x: float[2,3,4,5], slope: float[3,1,1]) = where(x < 0.0, x * slope, x);");
  expect_in(r.log, "wherec: not taken: PRelu (output 'z'): before opset 7 its slope has one "
                   "element, X's shape or one value per channel\n");
  done(&r, &g);
}

/* HardSwish as exporters write it, x * Clip(x + 3, 0, 6) / 6 with x = a * s + b: x is read
   by two nodes of one region, so it is a `let` of one kernel (computed once); a value also
   read outside the region still ends it. */
static void test_a_value_read_by_two_nodes_of_a_region_is_a_let(void **state) {
  (void)state;
  pbw                  g = {0};
  static const int64_t d[] = {4};
  static const float   three = 3.0f, zero = 0.0f, six = 6.0f;
  node2(&g, "Mul", "a", "s", "m", NULL);
  node2(&g, "Add", "m", "a", "x", NULL);
  node2(&g, "Add", "x", "three", "x3", NULL);
  const char *const clip_in[] = {"x3", "zero", "six"};
  pbw_node(&g, "Clip", NULL, clip_in, 3, "c", NULL);
  node2(&g, "Mul", "x", "c", "xc", NULL);
  node2(&g, "Div", "xc", "six", "y", NULL);
  pbw_scalar_init(&g, "three", 1, &three, 4);
  pbw_scalar_init(&g, "zero", 1, &zero, 4);
  pbw_scalar_init(&g, "six", 1, &six, 4);
  pbw_value_info(&g, 11, "a", 1, 1, d, NULL);
  pbw_value_info(&g, 11, "s", 1, 1, d, NULL);
  pbw_value_info(&g, 12, "y", 1, -1, NULL, NULL);
  pbw_value_info(&g, 12, "m", 1, -1, NULL, NULL); /* m is a graph output too: an output of y's */
  result r = import_pbw(&g, 13);
  assert_int_equal(r.rc, 0);
  expect_in(r.spec, "kernel y(a: float[4], s: float[4]) -> (y, m) {\n"
                    "  m = a * s;\n"
                    "  let x = m + a;\n"
                    "  y = (x * where((x + 3.0) < 0.0, 0.0, where((x + 3.0) > 6.0, 6.0, x + 3.0))) / 6.0;\n"
                    "}\n");
  assert_null(strstr(r.spec, "kernel m("));
  done(&r, &g);
}

static uint64_t next_rand(uint64_t *s) {
  *s ^= *s >> 12;
  *s ^= *s << 25;
  *s ^= *s >> 27;
  return *s * 2685821657736338717ull;
}

/* Bit flips and byte changes in models that drive every inference rule (the fuzz seeds
   tests/fuzz/corpus/fuzz_onnx/infer_*.onnx): any outcome but a crash. */
static void test_mutated_models_never_crash_the_inference(void **state) {
  (void)state;
  static const char *const cases[] = {"infer_conv_pool", "infer_shape_chain", "infer_misc",
                                      "infer_control"};
  uint64_t seed = 11;
  for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
    char path[1024];
    snprintf(path, sizeof path, "%s/tests/fuzz/corpus/fuzz_onnx/%s.onnx", WHEREC_SOURCE_DIR, cases[c]);
    FILE *f = fopen(path, "rb");
    if (f == NULL) fail_msg("%s: cannot open", path);
    uint8_t buf[4096];
    size_t  len = fread(buf, 1, sizeof buf, f);
    fclose(f);
    for (int iter = 0; iter < 2000; iter++) {
      uint8_t copy[4096];
      memcpy(copy, buf, len);
      for (int k = 0; k < 1 + iter % 3; k++) {
        size_t at = next_rand(&seed) % len;
        if (iter % 2) copy[at] ^= (uint8_t)(1u << (next_rand(&seed) % 8));
        else copy[at] = (uint8_t)next_rand(&seed);
      }
      char  *log = NULL, *spec = NULL;
      size_t log_len = 0;
      FILE  *lf = open_memstream(&log, &log_len);
      int    rc = import_model(copy, len, "m.onnx", lf, &spec);
      fclose(lf);
      assert_true(rc == 0 || rc == 1);
      assert_true((rc == 0) == (spec != NULL));
      free(spec);
      free(log);
    }
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_conv_and_pool_shapes_reach_the_element_wise_nodes),
      cmocka_unit_test(test_an_unnamed_dim_becomes_a_symbol),
      cmocka_unit_test(test_symbols_reconciled_by_broadcasting_are_one_extent),
      cmocka_unit_test(test_shape_arithmetic_is_folded_and_reshape_gets_a_static_shape),
      cmocka_unit_test(test_symbolic_shape_arithmetic_keeps_the_symbol_through_reshape),
      cmocka_unit_test(test_integer_constant_arithmetic_folds),
      cmocka_unit_test(test_integer_mod_folds_with_the_sign_onnx_gives),
      cmocka_unit_test(test_com_microsoft_operators_have_shape_rules),
      cmocka_unit_test(test_expand_by_sizes_with_minus_ones_keeps_the_symbol),
      cmocka_unit_test(test_correctly_rounded_float_arithmetic_of_constants_folds),
      cmocka_unit_test(test_an_extent_computed_from_a_symbol_is_one_extent_each_time),
      cmocka_unit_test(test_value_info_that_disagrees_with_inference_is_named),
      cmocka_unit_test(test_shapes_through_the_other_operators),
      cmocka_unit_test(test_nonsense_attributes_give_no_shape),
      cmocka_unit_test(test_if_branches_are_imported_with_outer_values_as_parameters),
    cmocka_unit_test(test_if_outputs_are_inferred_from_their_branches),
    cmocka_unit_test(test_a_transposed_constant_folds_into_pads),
    cmocka_unit_test(test_a_value_a_branch_reads_is_inferred_before_the_branch),
    cmocka_unit_test(test_rules_give_what_they_know_of_an_unknown_rank),
    cmocka_unit_test(test_a_dim_given_decides_what_depends_on_it),
      cmocka_unit_test(test_loop_body_inputs_take_the_loop_inputs_types),
      cmocka_unit_test(test_mutated_models_never_crash_the_inference),
      cmocka_unit_test(test_prelu6_takes_a_per_channel_slope),
      cmocka_unit_test(test_a_value_read_by_two_nodes_of_a_region_is_a_let),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
