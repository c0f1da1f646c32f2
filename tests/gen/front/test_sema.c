/* test_sema.c: unit tests of the semantic checks (gen/front/sema.c).
   Kernel instances, extents, dtypes and shapes of accepted specs; one test per diagnostic. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <wherec/kernel.h>

#include "front/parse.h"
#include "front/sema.h"
#include "spec_text.h"

/* Parse and check src as "t.where".  The syntax tree is freed at once, so the
   program is shown to stand on its own. */
static sema_program *check_str(diag_ctx *d, const char *src) {
  ast_file *f;
  sema_program *p;
  diag_init(d, "t.where", src, strlen(src), NULL);
  f = parse_source(src, strlen(src), d);
  assert_non_null(f);
  p = sema_check(f, d);
  ast_file_free(f);
  return p;
}

/* src must be accepted, and its listing (sema_dump) must read want. */
static void expect_dump(const char *src, const char *want) {
  diag_ctx d;
  diag_text t = {0};
  sema_program *p = check_str(&d, src);
  assert_string_equal(diag_str(&d), "");
  assert_non_null(p);
  sema_dump(&t, p);
  assert_string_equal(t.data ? t.data : "", want);
  diag_text_free(&t);
  sema_free(p);
  diag_free(&d);
}

/* src must be rejected with exactly the diagnostics want. */
static void expect_diag(const char *src, const char *want) {
  diag_ctx d;
  sema_program *p = check_str(&d, src);
  assert_string_equal(diag_str(&d), want);
  assert_null(p);
  assert_true(d.n_errors > 0);
  diag_free(&d);
}

/* ---- constants ------------------------------------------------------------------ */

static void test_sema_appends_each_constant_a_kernel_reads_to_its_parameters(void **state) {
  diag_ctx      d;
  sema_program *p;
  (void)state;
  p = check_str(&d, "const b: f32[3] = {1.5, -0.0, inf};\n"
                    "const s: float[3,1] = {0.25, -0.5, 2};\n"
                    "kernel k(x: float[N,3,1]) -> (y) { let t = x * s; y = t + b; }\n"
                    "kernel m(x: float[3]) = x - b;\n");
  assert_string_equal(diag_str(&d), "");
  assert_non_null(p);
  assert_int_equal(p->n_consts, 2);
  assert_string_equal(p->consts[0].name, "b");
  assert_int_equal(p->consts[0].n, 3);
  assert_int_equal(p->consts[0].bits[0], 0x3fc00000u);
  assert_int_equal(p->consts[0].bits[1], 0x80000000u);
  assert_int_equal(p->consts[0].bits[2], 0x7f800000u);
  assert_int_equal(p->consts[1].shape.rank, 2);
  assert_int_equal(p->consts[1].shape.dims[0], 3);
  /* k: x, then s and b in order of first reading; m: x, then b */
  assert_int_equal(p->kernels[0].n_params, 3);
  assert_null(p->kernels[0].params[0].cst);
  assert_ptr_equal(p->kernels[0].params[1].cst, &p->consts[1]);
  assert_ptr_equal(p->kernels[0].params[2].cst, &p->consts[0]);
  assert_int_equal(p->kernels[0].params[2].dtype, WC_FLOAT);
  assert_int_equal(p->kernels[1].n_params, 2);
  assert_ptr_equal(p->kernels[1].params[1].cst, &p->consts[0]);
  sema_free(p);
  diag_free(&d);
}

static void test_sema_types_constant_values_of_every_class_exactly(void **state) {
  diag_ctx      d;
  sema_program *p;
  (void)state;
  p = check_str(&d, "const m: bool[2] = {true, false};\n"
                    "const i: int8[2] = {-128, 127};\n"
                    "const h: bfloat16[1] = {-nan};\n"
                    "const u: uint64[1] = {0xffffffffffffffff};\n"
                    "kernel k(x: int8[2], c: bool[2], y: bfloat16[2], z: uint64[2]) -> (a, b, e) {\n"
                    "  a = where(m && c, x, i); b = y * h; e = z ^ u; }\n");
  assert_string_equal(diag_str(&d), "");
  assert_non_null(p);
  assert_int_equal(p->consts[0].bits[0], 1);
  assert_int_equal(p->consts[0].bits[1], 0);
  assert_int_equal(p->consts[1].bits[0], 0x80);
  assert_int_equal(p->consts[1].bits[1], 0x7f);
  assert_int_equal(p->consts[2].bits[0], 0xffc0);
  assert_true(p->consts[3].bits[0] == UINT64_MAX);
  sema_free(p);
  diag_free(&d);
}

static void test_sema_lets_a_statement_or_parameter_name_win_over_no_constant(void **state) {
  (void)state;
  /* a statement named like a constant is the kernel's own: the constant is then unread */
  expect_diag("const t: float[1] = {1.0};\n"
              "kernel k(x: float[N]) -> (y) { let t = x + 1.0; y = t; }\n",
              "t.where:1:7: error: constant 't' is never read; remove it\n"
              "const t: float[1] = {1.0};\n"
              "      ^\n");
}

static void test_sema_rejects_a_constant_whose_values_do_not_fill_its_shape(void **state) {
  (void)state;
  expect_diag("const w: i32[2,2] = {1, 2, 3, 4, 5};\nkernel k(x: int32[2]) = x + w;\n",
              "t.where:1:21: error: constant 'w' of shape [2,2] holds 4 values; 5 are written\n"
              "const w: i32[2,2] = {1, 2, 3, 4, 5};\n"
              "                    ^\n");
}

static void test_sema_rejects_a_constant_of_a_symbolic_extent(void **state) {
  (void)state;
  expect_diag("const w: float[N] = {1.0};\nkernel k(x: float[N]) = x + w;\n",
              "t.where:1:16: error: constant 'w' has the symbolic extent 'N'; a constant's shape "
              "is fixed (write each extent as an integer)\n"
              "const w: float[N] = {1.0};\n"
              "               ^\n");
}

/* ---- accepted specs ------------------------------------------------------------ */

static void test_sema_accepts_design_example_with_its_instances(void **state) {
  (void)state;
  expect_dump(
    "# comment to end of line\n"
    "option prefix = \"model\";     # C prefix of every generated symbol; default: file name\n"
    "option unroll = 8;           # unroll factor of inner loops over symbolic extents\n"
    "\n"
    "kernel pick(c: bool[2,1], x: int32[2,3], y: int32[1,3]) = where(c, x, y);\n"
    "kernel rows(c: bool[N,1], x: float[N,M], y: float[1,M]) = where(c, x, y);\n"
    "kernel leaky(x: float[N,64]) = where(x > 0, x, x * 0.01);\n"
    "kernel clamp(x: float16[8,128], lo: float16[], hi: float16[]) = where(x < lo, lo, "
    "where(x > hi, hi, x));\n"
    "kernel v1(c: bool[B], x: double[B,7], y: double[B,7]) = where_v1(c, x, y);\n"
    "kernel coords(c: bool[4,4]) = argwhere(c);\n"
    "kernel nz(c: float[N,3]) = nonzero(c);\n"
    "\n"
    "# dtype specialization lists: one kernel per listed dtype, named pick2_float, "
    "pick2_int32, ...\n"
    "kernel pick2<T: float, int32, float16>(c: bool[N,1], x: T[N,M], y: T[1,M]) = "
    "where(c, x, y);\n",

    "option prefix = \"model\"\n"
    "option unroll = 8\n"
    "kernel pick: elementwise\n"
    "  extents:\n"
    "  param c: bool[2,1]\n"
    "  param x: int32[2,3]\n"
    "  param y: int32[1,3]\n"
    "  out: int32[2,3]\n"
    "  expr: (where:int32[2,3] c:bool[2,1] x:int32[2,3] y:int32[1,3])\n"
    "kernel rows: elementwise\n"
    "  extents: N M\n"
    "  param c: bool[N,1]\n"
    "  param x: float[N,M]\n"
    "  param y: float[1,M]\n"
    "  out: float[N,M]\n"
    "  expr: (where:float[N,M] c:bool[N,1] x:float[N,M] y:float[1,M])\n"
    "kernel leaky: elementwise\n"
    "  extents: N\n"
    "  param x: float[N,64]\n"
    "  out: float[N,64]\n"
    "  expr: (where:float[N,64] (>:bool[N,64] x:float[N,64] 0:float[]) x:float[N,64] "
    "(*:float[N,64] x:float[N,64] 0.01:float[]))\n"
    "kernel clamp: elementwise\n"
    "  extents:\n"
    "  param x: float16[8,128]\n"
    "  param lo: float16[]\n"
    "  param hi: float16[]\n"
    "  out: float16[8,128]\n"
    "  expr: (where:float16[8,128] (<:bool[8,128] x:float16[8,128] lo:float16[]) lo:float16[] "
    "(where:float16[8,128] (>:bool[8,128] x:float16[8,128] hi:float16[]) hi:float16[] "
    "x:float16[8,128]))\n"
    "kernel v1: where_v1\n"
    "  extents: B\n"
    "  param c: bool[B]\n"
    "  param x: double[B,7]\n"
    "  param y: double[B,7]\n"
    "  out: double[B,7]\n"
    "  expr: (where_v1:double[B,7] c:bool[B] x:double[B,7] y:double[B,7])\n"
    "kernel coords: argwhere\n"
    "  extents:\n"
    "  param c: bool[4,4]\n"
    "  out: int64 coordinates of [4,4]\n"
    "  expr: (argwhere:int64[4,4] c:bool[4,4])\n"
    "kernel nz: nonzero\n"
    "  extents: N\n"
    "  param c: float[N,3]\n"
    "  out: int64 coordinates of [N,3]\n"
    "  expr: (nonzero:int64[N,3] c:float[N,3])\n"
    "kernel pick2_float: elementwise (T = float)\n"
    "  extents: N M\n"
    "  param c: bool[N,1]\n"
    "  param x: float[N,M]\n"
    "  param y: float[1,M]\n"
    "  out: float[N,M]\n"
    "  expr: (where:float[N,M] c:bool[N,1] x:float[N,M] y:float[1,M])\n"
    "kernel pick2_int32: elementwise (T = int32)\n"
    "  extents: N M\n"
    "  param c: bool[N,1]\n"
    "  param x: int32[N,M]\n"
    "  param y: int32[1,M]\n"
    "  out: int32[N,M]\n"
    "  expr: (where:int32[N,M] c:bool[N,1] x:int32[N,M] y:int32[1,M])\n"
    "kernel pick2_float16: elementwise (T = float16)\n"
    "  extents: N M\n"
    "  param c: bool[N,1]\n"
    "  param x: float16[N,M]\n"
    "  param y: float16[1,M]\n"
    "  out: float16[N,M]\n"
    "  expr: (where:float16[N,M] c:bool[N,1] x:float16[N,M] y:float16[1,M])\n");
}

static void test_sema_gives_the_api_lowering_reads(void **state) {
  diag_ctx d;
  sema_program *p = check_str(&d, "kernel nz(a: f32[M], c: float[N,M], z: f32[K,1,1]) = "
                                  "nonzero(c > 0);\n");
  const sema_kernel *k;
  (void)state;
  assert_non_null(p);
  assert_null(p->prefix);
  assert_int_equal(p->unroll, 0);
  assert_int_equal(p->n_kernels, 1);
  k = &p->kernels[0];
  assert_string_equal(k->name, "nz");
  assert_string_equal(k->base, "nz");
  assert_int_equal(k->kind, WC_KIND_NONZERO);
  assert_int_equal(k->n_bindings, 0);
  assert_int_equal(k->n_extents, 3);
  assert_string_equal(k->extent_names[0], "M");
  assert_string_equal(k->extent_names[1], "N");
  assert_string_equal(k->extent_names[2], "K");
  assert_int_equal(k->n_params, 3);
  assert_string_equal(k->params[1].name, "c");
  assert_int_equal(k->params[1].dtype, WC_FLOAT);
  assert_int_equal(k->params[0].shape.rank, 1);
  assert_int_equal(k->params[0].shape.dims[0], WC_SYM(0));
  assert_int_equal(k->params[1].shape.dims[0], WC_SYM(1));
  assert_int_equal(k->params[1].shape.dims[1], WC_SYM(0));
  assert_int_equal(k->params[2].shape.dims[0], WC_SYM(2));
  assert_int_equal(k->params[2].shape.dims[1], 1);
  assert_int_equal(k->out_dtype, WC_INT64);
  assert_int_equal(k->expr->kind, AST_CALL);
  assert_int_equal(k->expr->u.call.fn, AST_FN_NONZERO);
  assert_ptr_equal(k->value, k->expr->u.call.args[0]);
  assert_int_equal(k->value->dtype, WC_BOOL);
  assert_int_equal(k->value->u.binary.op, WC_OP_GT);
  assert_int_equal(k->value->u.binary.lhs->u.param.index, 1);
  assert_int_equal(k->value->u.binary.rhs->kind, AST_LIT);
  assert_int_equal(k->value->u.binary.rhs->dtype, WC_FLOAT);
  assert_int_equal(k->value->shape.rank, 2);
  assert_int_equal(k->out_shape.rank, 3);
  assert_int_equal(k->out_shape.dims[0], WC_SYM(2));
  assert_int_equal(k->out_shape.dims[1], WC_SYM(1));
  assert_int_equal(k->out_shape.dims[2], WC_SYM(0));
  sema_free(p);
  diag_free(&d);
}

/* A body: statements typed in order, a reference to a statement of its
   dtype and shape; outputs in the order the output list names them. */
static void test_sema_types_a_body_and_orders_its_outputs_as_listed(void **state) {
  (void)state;
  expect_dump("kernel hs(x: float[N], b: bool[]) -> (y, t, pos) {\n"
              "  let t = x + 3.0;\n"
              "  pos = t > 0.0 && b;\n"
              "  y = x * min(max(t, 0.0), 6.0) / 6.0;\n"
              "}\n",
              "kernel hs: elementwise\n"
              "  extents: N\n"
              "  param x: float[N]\n"
              "  param b: bool[]\n"
              "  out: float[N]\n"
              "  stmt 0: (+:float[N] x:float[N] 3.0:float[])\n"
              "  stmt 1: (&&:bool[N] (>:bool[N] t:float[N] 0.0:float[]) b:bool[])\n"
              "  stmt 2: (/:float[N] (*:float[N] x:float[N] (min:float[N] (max:float[N] "
              "t:float[N] 0.0:float[]) 6.0:float[])) 6.0:float[])\n"
              "  output y: (/:float[N] (*:float[N] x:float[N] (min:float[N] (max:float[N] "
              "t:float[N] 0.0:float[]) 6.0:float[])) 6.0:float[])\n"
              "  output t: (+:float[N] x:float[N] 3.0:float[])\n"
              "  output pos: (&&:bool[N] (>:bool[N] t:float[N] 0.0:float[]) b:bool[])\n");
}

static void test_sema_specializes_the_cross_product_in_declaration_order(void **state) {
  static const char *const names[] = {"K_float_uint8", "K_float_bfloat16", "K_int8_uint8",
                                      "K_int8_bfloat16", "K_double_uint8", "K_double_bfloat16"};
  diag_ctx d;
  sema_program *p = check_str(&d, "kernel K<T: f32, i8, f64, U: u8, bf16>(x: T[N], y: U[N]) = "
                                  "where(T(y) > x, x, T(y));\n");
  int i;
  (void)state;
  assert_string_equal(diag_str(&d), "");
  assert_int_equal(p->n_kernels, 6);
  for (i = 0; i < 6; i++) {
    const sema_kernel *k = &p->kernels[i];
    assert_string_equal(k->name, names[i]);
    assert_string_equal(k->base, "K");
    assert_int_equal(k->n_bindings, 2);
    assert_string_equal(k->bindings[0].var, "T");
    assert_string_equal(k->bindings[1].var, "U");
    assert_int_equal(k->params[0].dtype, k->bindings[0].dtype);
    assert_int_equal(k->params[1].dtype, k->bindings[1].dtype);
    assert_int_equal(k->out_dtype, k->bindings[0].dtype);
    assert_int_equal(k->expr->u.call.args[2]->u.call.fn, AST_FN_CAST);
    assert_int_equal(k->expr->u.call.args[2]->u.call.cast_dtype, k->bindings[0].dtype);
  }
  assert_int_equal(p->kernels[3].bindings[0].dtype, WC_INT8);
  assert_int_equal(p->kernels[3].bindings[1].dtype, WC_BFLOAT16);
  sema_free(p);
  diag_free(&d);
}

static void test_sema_normalizes_aliases_in_instance_names(void **state) {
  (void)state;
  expect_dump("kernel k<T: f32>(x: T[]) = x;",
              "kernel k_float: elementwise (T = float)\n"
              "  extents:\n"
              "  param x: float[]\n"
              "  out: float[]\n"
              "  expr: x:float[]\n");
}

static void test_sema_types_literals_from_the_other_operand(void **state) {
  (void)state;
  expect_dump("kernel k(x: int8[N], c: bool[]) = x * (2 + -3) - where(c, 1, 2) + max(x, 127);",
              "kernel k: elementwise\n"
              "  extents: N\n"
              "  param x: int8[N]\n"
              "  param c: bool[]\n"
              "  out: int8[N]\n"
              "  expr: (+:int8[N] (-:int8[N] (*:int8[N] x:int8[N] (+:int8[] 2:int8[] -3:int8[])) "
              "(where:int8[] c:bool[] 1:int8[] 2:int8[])) (max:int8[N] x:int8[N] 127:int8[]))\n");
}

static void test_sema_types_bitwise_operators_and_shifts_on_integers(void **state) {
  (void)state;
  expect_dump("kernel k(x: uint8[N], n: uint8[]) = (x & 0xf0) | (x << n) ^ ~x >> 2 % 3;",
              "kernel k: elementwise\n"
              "  extents: N\n"
              "  param x: uint8[N]\n"
              "  param n: uint8[]\n"
              "  out: uint8[N]\n"
              "  expr: (|:uint8[N] (&:uint8[N] x:uint8[N] 0xf0:uint8[]) (^:uint8[N] (<<:uint8[N] "
              "x:uint8[N] n:uint8[]) (>>:uint8[N] (~:uint8[N] x:uint8[N]) (%:uint8[] 2:uint8[] "
              "3:uint8[]))))\n");
}

static void test_sema_accepts_bitwise_and_or_xor_on_bool(void **state) {
  (void)state;
  expect_dump("kernel k(a: bool[N], b: bool[]) = (a & b) | (a ^ true);",
              "kernel k: elementwise\n"
              "  extents: N\n"
              "  param a: bool[N]\n"
              "  param b: bool[]\n"
              "  out: bool[N]\n"
              "  expr: (|:bool[N] (&:bool[N] a:bool[N] b:bool[]) (^:bool[N] a:bool[N] "
              "true:bool[]))\n");
}

static void test_sema_types_fmod_on_integers_and_floats_and_rounding_on_floats(void **state) {
  (void)state;
  expect_dump("kernel k(x: int16[N], h: float16[N]) = fmod(x, 7) + int16(sqrt(floor(h) + "
              "ceil(h) - round(h) * trunc(fmod(h, 0.5))));",
              "kernel k: elementwise\n"
              "  extents: N\n"
              "  param x: int16[N]\n"
              "  param h: float16[N]\n"
              "  out: int16[N]\n"
              "  expr: (+:int16[N] (fmod:int16[N] x:int16[N] 7:int16[]) (int16:int16[N] "
              "(sqrt:float16[N] (-:float16[N] (+:float16[N] (floor:float16[N] h:float16[N]) "
              "(ceil:float16[N] h:float16[N])) (*:float16[N] (round:float16[N] h:float16[N]) "
              "(trunc:float16[N] (fmod:float16[N] h:float16[N] 0.5:float16[])))))))\n");
}

static void test_sema_types_literal_only_rounding_by_context(void **state) {
  (void)state;
  expect_dump("kernel k(x: double[]) = x + sqrt(2) - floor(-2.5);",
              "kernel k: elementwise\n"
              "  extents:\n"
              "  param x: double[]\n"
              "  out: double[]\n"
              "  expr: (-:double[] (+:double[] x:double[] (sqrt:double[] 2:double[])) "
              "(floor:double[] -2.5:double[]))\n");
}

/* The bits sema stores for the rightmost literal of src's only kernel. */
static uint64_t literal_bits(const char *src, int word) {
  diag_ctx d;
  sema_program *p = check_str(&d, src);
  const ast_expr *e;
  uint64_t bits;
  assert_string_equal(diag_str(&d), "");
  e = p->kernels[0].expr;
  while (e->kind == AST_CALL || e->kind == AST_BINARY)
    e = e->kind == AST_CALL ? e->u.call.args[e->u.call.n_args - 1] : e->u.binary.rhs;
  assert_int_equal(e->kind, AST_LIT);
  bits = e->u.lit.bits[word];
  sema_free(p);
  diag_free(&d);
  return bits;
}

static void test_sema_stores_literal_bits_in_the_operand_dtype(void **state) {
  (void)state;
  assert_int_equal(literal_bits("kernel k(x: int8[]) = x + -1;", 0), 0xff);
  assert_int_equal(literal_bits("kernel k(x: int8[]) = x + -128;", 0), 0x80);
  assert_int_equal(literal_bits("kernel k(x: int64[]) = x + -9223372036854775808;", 0),
                   0x8000000000000000u);
  assert_int_equal(literal_bits("kernel k(x: uint64[]) = x + 0xffffffffffffffff;", 0),
                   UINT64_MAX);
  assert_int_equal(literal_bits("kernel k(x: uint16[]) = x + 0x10;", 0), 16);
  assert_int_equal(literal_bits("kernel k(x: float[]) = x + 1.5;", 0), 0x3fc00000u);
  assert_int_equal(literal_bits("kernel k(x: float[]) = x + -0.0;", 0), 0x80000000u);
  assert_int_equal(literal_bits("kernel k(x: float[]) = x + nan;", 0), 0x7fc00000u);
  assert_int_equal(literal_bits("kernel k(x: float[]) = x + -inf;", 0), 0xff800000u);
  assert_int_equal(literal_bits("kernel k(x: double[]) = x + 0.1;", 0), 0x3fb999999999999au);
  assert_int_equal(literal_bits("kernel k(x: double[]) = x + 1e-3;", 0), 0x3f50624dd2f1a9fcu);
  assert_int_equal(literal_bits("kernel k(x: float16[]) = x + 1.5;", 0), 0x3e00);
  assert_int_equal(literal_bits("kernel k(x: float16[]) = x + 65504;", 0), 0x7bff);
  assert_int_equal(literal_bits("kernel k(x: float16[]) = x + -inf;", 0), 0xfc00);
  assert_int_equal(literal_bits("kernel k(x: bfloat16[]) = x + 1.5;", 0), 0x3fc0);
  assert_int_equal(literal_bits("kernel k(x: bfloat16[]) = x + nan;", 0), 0x7fc0);
  assert_int_equal(literal_bits("kernel k(c: bool[], x: complex64[]) = where(c, x, 2);", 0),
                   0x40000000u);
  assert_int_equal(literal_bits("kernel k(c: bool[], x: complex64[]) = where(c, x, 2);", 1), 0);
  assert_int_equal(literal_bits("kernel k(c: bool[], x: complex128[]) = where(c, x, -1);", 0),
                   0xbff0000000000000u);
  assert_int_equal(literal_bits("kernel k(x: bool[]) = x == true;", 0), 1);
  assert_int_equal(literal_bits("kernel k(x: float[]) = x + float(3);", 0), 0x40400000u);
}

static void test_sema_accepts_every_where_v1_condition_shape(void **state) {
  (void)state;
  expect_dump("kernel rows(c: bool[B], x: f64[B,7], y: f64[B,7]) = where_v1(c, x, y);\n"
              "kernel same(c: bool[B,7], x: f64[B,7], y: f64[B,7]) = where_v1(c, x, y);\n"
              "kernel scal(c: bool[], x: i8[], y: i8[], z: f32[Q]) = where_v1(c, x, y);\n",
              "kernel rows: where_v1\n"
              "  extents: B\n"
              "  param c: bool[B]\n"
              "  param x: double[B,7]\n"
              "  param y: double[B,7]\n"
              "  out: double[B,7]\n"
              "  expr: (where_v1:double[B,7] c:bool[B] x:double[B,7] y:double[B,7])\n"
              "kernel same: where_v1\n"
              "  extents: B\n"
              "  param c: bool[B,7]\n"
              "  param x: double[B,7]\n"
              "  param y: double[B,7]\n"
              "  out: double[B,7]\n"
              "  expr: (where_v1:double[B,7] c:bool[B,7] x:double[B,7] y:double[B,7])\n"
              "kernel scal: where_v1\n"
              "  extents: Q\n"
              "  param c: bool[]\n"
              "  param x: int8[]\n"
              "  param y: int8[]\n"
              "  param z: float[Q]\n"
              "  out: int8[]\n"
              "  expr: (where_v1:int8[] c:bool[] x:int8[] y:int8[])\n");
}

static void test_sema_accepts_casts_between_numbers_and_bool(void **state) {
  (void)state;
  expect_dump("kernel k(x: f32[], b: bool[], z: c64[], s: string[]) = "
              "where(bool(x) && b, int32(x), int32(float(b)) + int32(u8(1))) == "
              "i32(f16(bf16(x))) || complex64(z) == z || string(s) != s;",
              "kernel k: elementwise\n"
              "  extents:\n"
              "  param x: float[]\n"
              "  param b: bool[]\n"
              "  param z: complex64[]\n"
              "  param s: string[]\n"
              "  out: bool[]\n"
              "  expr: (||:bool[] (||:bool[] (==:bool[] (where:int32[] (&&:bool[] (bool:bool[] "
              "x:float[]) b:bool[]) (int32:int32[] x:float[]) (+:int32[] (int32:int32[] "
              "(float:float[] b:bool[])) (int32:int32[] (u8:uint8[] 1:uint8[])))) (i32:int32[] "
              "(f16:float16[] (bf16:bfloat16[] x:float[])))) (==:bool[] (complex64:complex64[] "
              "z:complex64[]) z:complex64[])) (!=:bool[] (string:string[] s:string[]) "
              "s:string[]))\n");
}

static void test_sema_accepts_exp_on_float_float16_and_bfloat16(void **state) {
  (void)state;
  expect_dump("kernel k(x: f32[], h: f16[], b: bf16[]) = "
              "where(x < 0, exp(x) - 1, x) + float(exp(h)) + float(exp(b)) + exp(1);",
              "kernel k: elementwise\n"
              "  extents:\n"
              "  param x: float[]\n"
              "  param h: float16[]\n"
              "  param b: bfloat16[]\n"
              "  out: float[]\n"
              "  expr: (+:float[] (+:float[] (+:float[] (where:float[] (<:bool[] x:float[] "
              "0:float[]) (-:float[] (exp:float[] x:float[]) 1:float[]) x:float[]) (float:float[] "
              "(exp:float16[] h:float16[]))) (float:float[] (exp:bfloat16[] b:bfloat16[]))) "
              "(exp:float[] 1:float[]))\n");
}

static void test_sema_broadcasts_shape_patterns(void **state) {
  static const struct {
    int ra; int64_t a[3]; int rb; int64_t b[3]; int ok; int rr; int64_t r[3];
  } cases[] = {
    {1, {WC_SYM(0)}, 2, {3, 1}, 1, 2, {3, WC_SYM(0)}},
    {2, {WC_SYM(0), 1}, 2, {WC_SYM(0), WC_SYM(1)}, 1, 2, {WC_SYM(0), WC_SYM(1)}},
    {1, {0}, 1, {1}, 1, 1, {0}},
    {0, {0}, 3, {2, 0, 4}, 1, 3, {2, 0, 4}},
    {1, {WC_SYM(0)}, 1, {WC_SYM(1)}, 0, 0, {0}},
    {1, {WC_SYM(0)}, 1, {5}, 0, 0, {0}},
    {2, {2, 3}, 1, {4}, 0, 0, {0}},
    {1, {0}, 1, {2}, 0, 0, {0}},
  };
  size_t i;
  (void)state;
  for (i = 0; i < sizeof cases / sizeof *cases; i++) {
    ast_shape a = {0}, b = {0}, r = {0};
    int j;
    a.rank = cases[i].ra;
    b.rank = cases[i].rb;
    memcpy(a.dims, cases[i].a, sizeof cases[i].a);
    memcpy(b.dims, cases[i].b, sizeof cases[i].b);
    assert_int_equal(sema_broadcast(&a, &b, &r), cases[i].ok);
    assert_int_equal(sema_broadcast(&b, &a, &r), cases[i].ok);
    if (!cases[i].ok) continue;
    assert_int_equal(r.rank, cases[i].rr);
    for (j = 0; j < r.rank; j++) assert_int_equal(r.dims[j], cases[i].r[j]);
  }
}

static void test_sema_broadcasts_unused_parameters_into_the_output_and_allows_late_options(void **state) {
  (void)state;
  expect_dump("kernel k(x: f32[N], like: string[4,1], other: i8[]) = -x;\noption unroll = 64;\n"
              "option prefix = \"_m2\";\n",
              "option prefix = \"_m2\"\n"
              "option unroll = 64\n"
              "kernel k: elementwise\n"
              "  extents: N\n"
              "  param x: float[N]\n"
              "  param like: string[4,1]\n"
              "  param other: int8[]\n"
              "  out: float[4,N]\n"
              "  expr: (neg:float[N] x:float[N])\n");
}

/* ---- diagnostics --------------------------------------------------------------- */

/* One test per diagnostic: the source and the exact text it must produce. */
#define DIAG_TEST(name, src, want) \
  static void name(void **state) { (void)state; expect_diag(src, want); }

DIAG_TEST(test_sema_rejects_a_let_never_read,
  "kernel k(x: float[N]) -> (y) { let t = x; y = x; }\n",
  "t.where:1:36: error: 't' is never read; remove it, or list it as an output\n"
  "kernel k(x: float[N]) -> (y) { let t = x; y = x; }\n"
  "                                   ^\n")

DIAG_TEST(test_sema_rejects_an_output_never_assigned,
  "kernel k(x: float[N]) -> (y, t) { y = x; }\n",
  "t.where:1:30: error: output 't' is never assigned\n"
  "kernel k(x: float[N]) -> (y, t) { y = x; }\n"
  "                             ^\n")

DIAG_TEST(test_sema_rejects_a_name_defined_twice_and_points_at_the_first,
  "kernel k(x: float[N]) -> (y) { y = x; y = x; }\n",
  "t.where:1:39: error: 'y' is defined twice\n"
  "kernel k(x: float[N]) -> (y) { y = x; y = x; }\n"
  "                                      ^\n"
  "t.where:1:32: note: 'y' first defined here\n"
  "kernel k(x: float[N]) -> (y) { y = x; y = x; }\n"
  "                               ^\n")

DIAG_TEST(test_sema_rejects_a_let_that_redefines_a_parameter,
  "kernel k(x: float[N]) -> (y) { let x = 1; y = x; }\n",
  "t.where:1:36: error: 'x' is a parameter of kernel 'k'; a statement cannot redefine it\n"
  "kernel k(x: float[N]) -> (y) { let x = 1; y = x; }\n"
  "                                   ^\n")

DIAG_TEST(test_sema_rejects_an_assignment_to_a_name_that_is_no_output,
  "kernel k(x: float[N]) -> (y) { t = x; y = t; }\n",
  "t.where:1:32: error: 't' is not an output of kernel 'k'; write 'let t = ...' for a value of "
  "its own, or list it in '-> (...)'\n"
  "kernel k(x: float[N]) -> (y) { t = x; y = t; }\n"
  "                               ^\n")

DIAG_TEST(test_sema_rejects_a_name_read_before_its_statement,
  "kernel k(x: float[N]) -> (y) { y = t; let t = x; }\n",
  "t.where:1:36: error: 't' is read before the statement that defines it\n"
  "kernel k(x: float[N]) -> (y) { y = t; let t = x; }\n"
  "                                   ^\n")

DIAG_TEST(test_sema_rejects_unknown_option,
  "option foo = 3;\n",
  "t.where:1:8: error: unknown option 'foo' (the options are 'prefix' and 'unroll')\n"
  "option foo = 3;\n"
  "       ^\n")

DIAG_TEST(test_sema_rejects_option_set_twice_and_points_at_the_first,
  "option unroll = 4;\noption unroll = 8;\n",
  "t.where:2:8: error: option 'unroll' is set twice\n"
  "option unroll = 8;\n"
  "       ^\n"
  "t.where:1:8: note: 'unroll' first set here\n"
  "option unroll = 4;\n"
  "       ^\n")

DIAG_TEST(test_sema_rejects_prefix_that_is_not_a_string,
  "option prefix = 3;",
  "t.where:1:17: error: option 'prefix' takes a string, as in prefix = \"model\"\n"
  "option prefix = 3;\n"
  "                ^\n")

DIAG_TEST(test_sema_rejects_prefix_that_is_not_a_c_identifier,
  "option prefix = \"my-model\";",
  "t.where:1:17: error: prefix \"my-model\" is not a valid C identifier\n"
  "option prefix = \"my-model\";\n"
  "                ^\n")

DIAG_TEST(test_sema_rejects_prefix_that_is_a_c_keyword,
  "option prefix = \"double\";",
  "t.where:1:17: error: prefix \"double\" is not a valid C identifier\n"
  "option prefix = \"double\";\n"
  "                ^\n")

DIAG_TEST(test_sema_rejects_unroll_that_is_not_an_integer,
  "option unroll = \"8\";",
  "t.where:1:17: error: option 'unroll' takes an integer, as in unroll = 8\n"
  "option unroll = \"8\";\n"
  "                ^\n")

DIAG_TEST(test_sema_rejects_unroll_of_zero,
  "option unroll = 0;",
  "t.where:1:17: error: unroll must be between 1 and 64, got 0\n"
  "option unroll = 0;\n"
  "                ^\n")

DIAG_TEST(test_sema_rejects_unroll_above_64,
  "option unroll = 65;",
  "t.where:1:17: error: unroll must be between 1 and 64, got 65\n"
  "option unroll = 65;\n"
  "                ^\n")

DIAG_TEST(test_sema_rejects_duplicate_kernel_and_points_at_the_first,
  "kernel k(x: f32[]) = x;\nkernel k(y: i8[]) = y;\n",
  "t.where:2:8: error: duplicate kernel 'k'\n"
  "kernel k(y: i8[]) = y;\n"
  "       ^\n"
  "t.where:1:8: note: 'k' first declared here\n"
  "kernel k(x: f32[]) = x;\n"
  "       ^\n")

DIAG_TEST(test_sema_rejects_kernel_name_repeated_by_specialization,
  "kernel k_float(x: f32[]) = x;\nkernel k<T: i8, f32>(x: T[]) = x;\n",
  "t.where:2:8: error: duplicate kernel 'k_float'\n"
  "kernel k<T: i8, f32>(x: T[]) = x;\n"
  "       ^\n"
  "t.where:1:8: note: 'k_float' first declared here\n"
  "kernel k_float(x: f32[]) = x;\n"
  "       ^\n")

DIAG_TEST(test_sema_reports_duplicate_kernel_that_has_errors_of_its_own,
  "kernel k(x: f32[]) = x;\nkernel k(x: f32[]) = y;\n",
  "t.where:2:22: error: unknown name 'y'\n"
  "kernel k(x: f32[]) = y;\n"
  "                     ^\n"
  "t.where:2:8: error: duplicate kernel 'k'\n"
  "kernel k(x: f32[]) = y;\n"
  "       ^\n"
  "t.where:1:8: note: 'k' first declared here\n"
  "kernel k(x: f32[]) = x;\n"
  "       ^\n")

DIAG_TEST(test_sema_rejects_duplicate_parameter,
  "kernel k(x: f32[], y: f32[], x: i8[]) = y;",
  "t.where:1:30: error: duplicate parameter 'x'\n"
  "kernel k(x: f32[], y: f32[], x: i8[]) = y;\n"
  "                             ^\n"
  "t.where:1:10: note: 'x' first declared here\n"
  "kernel k(x: f32[], y: f32[], x: i8[]) = y;\n"
  "         ^\n")

DIAG_TEST(test_sema_rejects_duplicate_type_variable,
  "kernel k<T: f32, T: i8>(x: T[]) = x;",
  "t.where:1:18: error: duplicate type variable 'T'\n"
  "kernel k<T: f32, T: i8>(x: T[]) = x;\n"
  "                 ^\n"
  "t.where:1:10: note: 'T' first declared here\n"
  "kernel k<T: f32, T: i8>(x: T[]) = x;\n"
  "         ^\n")

DIAG_TEST(test_sema_rejects_type_variable_named_like_a_dtype,
  "kernel k<f32: i8>(x: f32[]) = x;",
  "t.where:1:10: error: type variable 'f32' has the name of a dtype\n"
  "kernel k<f32: i8>(x: f32[]) = x;\n"
  "         ^\n")

DIAG_TEST(test_sema_rejects_type_variable_named_like_a_function,
  "kernel k<min: i8>(x: min[]) = x;",
  "t.where:1:10: error: type variable 'min' has the name of a built-in function\n"
  "kernel k<min: i8>(x: min[]) = x;\n"
  "         ^\n")

DIAG_TEST(test_sema_rejects_empty_specialization_list,
  "kernel k<T:>(x: T[]) = x;",
  "t.where:1:10: error: empty specialization list for 'T'\n"
  "kernel k<T:>(x: T[]) = x;\n"
  "         ^\n")

DIAG_TEST(test_sema_rejects_unknown_dtype_in_specialization_list,
  "kernel k<T: float, flaot>(x: T[]) = x;",
  "t.where:1:20: error: unknown dtype 'flaot'\n"
  "kernel k<T: float, flaot>(x: T[]) = x;\n"
  "                   ^\n")

DIAG_TEST(test_sema_rejects_dtype_listed_twice_through_an_alias,
  "kernel k<T: float, i8, f32>(x: T[]) = x;",
  "t.where:1:24: error: dtype 'float' is listed twice for 'T'\n"
  "kernel k<T: float, i8, f32>(x: T[]) = x;\n"
  "                       ^\n"
  "t.where:1:13: note: first listed here\n"
  "kernel k<T: float, i8, f32>(x: T[]) = x;\n"
  "            ^\n")

DIAG_TEST(test_sema_rejects_unknown_dtype_of_a_parameter,
  "kernel k(x: flaot[N]) = x;",
  "t.where:1:13: error: unknown dtype 'flaot'\n"
  "kernel k(x: flaot[N]) = x;\n"
  "            ^\n")

DIAG_TEST(test_sema_rejects_unknown_type_variable,
  "kernel k<T: f32>(x: T[], y: U[]) = x;",
  "t.where:1:29: error: unknown dtype or type variable 'U'\n"
  "kernel k<T: f32>(x: T[], y: U[]) = x;\n"
  "                            ^\n")

DIAG_TEST(test_sema_rejects_rank_above_16,
  "kernel k(x: f32[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17]) = x;",
  "t.where:1:56: error: parameter 'x' has 17 dimensions; the maximum rank is 16\n"
  "kernel k(x: f32[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17]) = x;\n"
  "                                                       ^\n")

/* "kernel k(\n  p0: f32,\n  p1: f32,\n ...) = p0;", n parameters one a line, into buf. */
static const char *kernel_with_params(char *buf, size_t cap, int n) {
  size_t len = (size_t)snprintf(buf, cap, "kernel k(");
  for (int i = 0; i < n; i++)
    len += (size_t)snprintf(buf + len, cap - len, "%s\n  p%d: f32", i ? "," : "", i);
  snprintf(buf + len, cap - len, ") = p0;\n");
  return buf;
}

static void test_sema_accepts_a_kernel_with_wc_max_inputs_parameters(void **state) {
  char src[1024];
  diag_ctx d;
  (void)state;
  sema_program *p = check_str(&d, kernel_with_params(src, sizeof src, WC_MAX_INPUTS));
  assert_string_equal(diag_str(&d), "");
  assert_non_null(p);
  assert_int_equal(p->n_kernels, 1);
  assert_int_equal(p->kernels[0].n_params, WC_MAX_INPUTS);
  sema_free(p);
  diag_free(&d);
}

static void test_sema_rejects_more_parameters_than_wc_max_inputs_at_the_first_past_it(void **state) {
  char src[1024], want[256];
  (void)state;
  kernel_with_params(src, sizeof src, WC_MAX_INPUTS + 2);
  /* parameter i is on line i + 2 */
  snprintf(want, sizeof want,
           "t.where:%d:3: error: kernel 'k' has %d parameters; the limit is %d\n"
           "  p%d: f32,\n"
           "  ^\n",
           WC_MAX_INPUTS + 2, WC_MAX_INPUTS + 2, WC_MAX_INPUTS, WC_MAX_INPUTS);
  expect_diag(src, want);
}

DIAG_TEST(test_sema_rejects_extent_above_int64_max,
  "kernel k(x: f32[0x8000000000000000], y: f32[99999999999999999999]) = x;",
  "t.where:1:17: error: extent is too large (the limit is 9223372036854775807)\n"
  "kernel k(x: f32[0x8000000000000000], y: f32[99999999999999999999]) = x;\n"
  "                ^\n"
  "t.where:1:45: error: extent is too large (the limit is 9223372036854775807)\n"
  "kernel k(x: f32[0x8000000000000000], y: f32[99999999999999999999]) = x;\n"
  "                                            ^\n")

DIAG_TEST(test_sema_rejects_parameter_whose_fixed_extents_multiply_past_the_limit,
  "kernel k(x: f32[4294967296,4294967296], y: f32[N,576460752303423488]) = x;",
  "t.where:1:10: error: parameter 'x' is too large: its fixed extents multiply to more than "
  "576460752303423487 elements\n"
  "kernel k(x: f32[4294967296,4294967296], y: f32[N,576460752303423488]) = x;\n"
  "         ^\n"
  "t.where:1:41: error: parameter 'y' is too large: its fixed extents multiply to more than "
  "576460752303423487 elements\n"
  "kernel k(x: f32[4294967296,4294967296], y: f32[N,576460752303423488]) = x;\n"
  "                                        ^\n")

/* Empty, but lowering would still multiply the other extents. */
DIAG_TEST(test_sema_rejects_empty_parameter_whose_other_extents_overflow,
  "kernel k(x: u8[3037000500,0,3037000500]) = x;",
  "t.where:1:10: error: parameter 'x' is too large: its fixed extents multiply to more than "
  "576460752303423487 elements\n"
  "kernel k(x: u8[3037000500,0,3037000500]) = x;\n"
  "         ^\n")

DIAG_TEST(test_sema_rejects_output_whose_fixed_extents_multiply_past_the_limit,
  "kernel k(x: f32[4294967296,1], y: f32[1,4294967296]) = where(x > y, x, y);",
  "t.where:1:8: error: the output of kernel 'k' is too large: its fixed extents multiply to "
  "more than 576460752303423487 elements\n"
  "kernel k(x: f32[4294967296,1], y: f32[1,4294967296]) = where(x > y, x, y);\n"
  "       ^\n")

static void test_sema_accepts_fixed_extents_up_to_the_element_limit(void **state) {
  diag_ctx d;
  sema_program *p = check_str(&d,
    "kernel big(x: float[1000000,1000000]) = where(x > 0, x, 0);\n"
    "kernel edge(x: u8[576460752303423487], y: u8[1]) = x + y;\n"
    "kernel v1(c: bool[576460752303423487], x: u8[576460752303423487], "
    "y: u8[576460752303423487]) = where_v1(c, x, y);\n");
  (void)state;
  assert_string_equal(diag_str(&d), "");
  assert_non_null(p);
  sema_free(p);
  diag_free(&d);
}

DIAG_TEST(test_sema_rejects_extent_named_like_a_c_keyword,
  "kernel k(x: f32[for]) = x;",
  "t.where:1:17: error: extent name 'for' is reserved in C\n"
  "kernel k(x: f32[for]) = x;\n"
  "                ^\n")

DIAG_TEST(test_sema_rejects_unknown_name,
  "kernel k(x: f32[]) = x + y;",
  "t.where:1:26: error: unknown name 'y'\n"
  "kernel k(x: f32[]) = x + y;\n"
  "                         ^\n")

DIAG_TEST(test_sema_rejects_remainder_of_floats_and_suggests_fmod,
  "kernel k(x: f32[N], y: f32[N]) = x % y;",
  "t.where:1:36: error: '%' is not defined on float; use fmod(a, b) for the remainder of floating-point values\n"
  "kernel k(x: f32[N], y: f32[N]) = x % y;\n"
  "                                   ^\n")

DIAG_TEST(test_sema_rejects_remainder_of_bool,
  "kernel k(a: bool[N], b: bool[N]) = a % b;",
  "t.where:1:38: error: '%' is not defined on bool (it takes integers)\n"
  "kernel k(a: bool[N], b: bool[N]) = a % b;\n"
  "                                     ^\n")

DIAG_TEST(test_sema_rejects_remainder_of_complex,
  "kernel k(a: c64[N], b: c64[N]) = where(a % b == a, a, b);",
  "t.where:1:42: error: '%' is not defined on complex64 (it takes integers)\n"
  "kernel k(a: c64[N], b: c64[N]) = where(a % b == a, a, b);\n"
  "                                         ^\n")

DIAG_TEST(test_sema_rejects_remainder_of_strings,
  "kernel k(a: string[N], b: string[N]) = where(a % b == a, a, b);",
  "t.where:1:48: error: '%' is not defined on string (it takes integers)\n"
  "kernel k(a: string[N], b: string[N]) = where(a % b == a, a, b);\n"
  "                                               ^\n")

DIAG_TEST(test_sema_rejects_complement_of_bool_and_suggests_not,
  "kernel k(c: bool[N]) = ~c;",
  "t.where:1:24: error: '~' is not defined on bool; use '!'\n"
  "kernel k(c: bool[N]) = ~c;\n"
  "                       ^\n")

DIAG_TEST(test_sema_rejects_complement_of_a_float,
  "kernel k(x: f64[N]) = ~x;",
  "t.where:1:23: error: '~' is not defined on double (it takes integers)\n"
  "kernel k(x: f64[N]) = ~x;\n"
  "                      ^\n")

DIAG_TEST(test_sema_rejects_shift_of_a_float,
  "kernel k(x: f32[N], n: f32[]) = x << n;",
  "t.where:1:35: error: '<<' is not defined on float (it takes integers)\n"
  "kernel k(x: f32[N], n: f32[]) = x << n;\n"
  "                                  ^\n")

DIAG_TEST(test_sema_rejects_shift_of_bool,
  "kernel k(c: bool[N], d: bool[N]) = c >> d;",
  "t.where:1:38: error: '>>' is not defined on bool (it takes integers)\n"
  "kernel k(c: bool[N], d: bool[N]) = c >> d;\n"
  "                                     ^\n")

DIAG_TEST(test_sema_rejects_bitwise_and_of_floats,
  "kernel k(x: f16[N], y: f16[N]) = x & y;",
  "t.where:1:36: error: '&' is not defined on float16 (it takes integers and bool)\n"
  "kernel k(x: f16[N], y: f16[N]) = x & y;\n"
  "                                   ^\n")

DIAG_TEST(test_sema_rejects_xor_of_strings,
  "kernel k(a: string[N], b: string[N]) = where(a ^ b, a, b);",
  "t.where:1:48: error: '^' is not defined on string (it takes integers and bool)\n"
  "kernel k(a: string[N], b: string[N]) = where(a ^ b, a, b);\n"
  "                                               ^\n")

DIAG_TEST(test_sema_rejects_sqrt_of_an_integer,
  "kernel k(x: i32[N]) = sqrt(x);",
  "t.where:1:23: error: 'sqrt' is not defined on int32 (it takes float16, bfloat16, float and double; cast first, as in float(x))\n"
  "kernel k(x: i32[N]) = sqrt(x);\n"
  "                      ^\n")

DIAG_TEST(test_sema_rejects_floor_of_bool,
  "kernel k(c: bool[N]) = floor(c);",
  "t.where:1:24: error: 'floor' is not defined on bool (it takes float16, bfloat16, float and double; cast first, as in float(x))\n"
  "kernel k(c: bool[N]) = floor(c);\n"
  "                       ^\n")

DIAG_TEST(test_sema_rejects_round_of_complex_without_a_cast_hint,
  "kernel k(z: c128[N]) = where(round(z) == z, z, z);",
  "t.where:1:30: error: 'round' is not defined on complex128 (it takes float16, bfloat16, float and double)\n"
  "kernel k(z: c128[N]) = where(round(z) == z, z, z);\n"
  "                             ^\n")

DIAG_TEST(test_sema_rejects_fmod_of_bool,
  "kernel k(c: bool[N]) = fmod(c, c);",
  "t.where:1:24: error: 'fmod' is not defined on bool\n"
  "kernel k(c: bool[N]) = fmod(c, c);\n"
  "                       ^\n")

DIAG_TEST(test_sema_rejects_fmod_of_different_dtypes,
  "kernel k(x: f32[N], y: f64[N]) = fmod(x, y);",
  "t.where:1:34: error: operands of 'fmod' have different dtypes: float and double\n"
  "kernel k(x: f32[N], y: f64[N]) = fmod(x, y);\n"
  "                                 ^\n")

DIAG_TEST(test_sema_rejects_literal_remainder_given_a_float_dtype,
  "kernel k(c: bool[N], x: f32[N]) = where(c, x, 7 % 2);",
  "t.where:1:49: error: '%' is not defined on float; use fmod(a, b) for the remainder of floating-point values\n"
  "kernel k(c: bool[N], x: f32[N]) = where(c, x, 7 % 2);\n"
  "                                                ^\n")

DIAG_TEST(test_sema_rejects_sqrt_of_a_literal_given_an_integer_dtype,
  "kernel k(x: i32[N]) = x + sqrt(4);",
  "t.where:1:27: error: 'sqrt' is not defined on int32 (it takes float16, bfloat16, float and double; cast first, as in float(x))\n"
  "kernel k(x: i32[N]) = x + sqrt(4);\n"
  "                          ^\n")

DIAG_TEST(test_sema_types_a_shift_count_literal_as_the_shifted_dtype,
  "kernel k(x: u8[N]) = x << -1;",
  "t.where:1:27: error: literal -1 is out of range for uint8 (0 to 255)\n"
  "kernel k(x: u8[N]) = x << -1;\n"
  "                          ^\n")

DIAG_TEST(test_sema_rejects_ceil_with_two_arguments,
  "kernel k(x: f32[N]) = ceil(x, x);",
  "t.where:1:23: error: 'ceil' takes 1 argument, got 2\n"
  "kernel k(x: f32[N]) = ceil(x, x);\n"
  "                      ^\n")

DIAG_TEST(test_sema_rejects_unknown_function,
  "kernel k(x: f32[]) = lgamma(x);",
  "t.where:1:22: error: unknown function 'lgamma'\n"
  "kernel k(x: f32[]) = lgamma(x);\n"
  "                     ^\n")

DIAG_TEST(test_sema_rejects_wrong_number_of_arguments,
  "kernel k(c: bool[], x: f32[]) = where(c, x);",
  "t.where:1:33: error: 'where' takes 3 arguments, got 2\n"
  "kernel k(c: bool[], x: f32[]) = where(c, x);\n"
  "                                ^\n")

DIAG_TEST(test_sema_rejects_cast_with_two_arguments,
  "kernel k(x: f32[]) = int32(x, x);",
  "t.where:1:22: error: a cast to 'int32' takes 1 argument, got 2\n"
  "kernel k(x: f32[]) = int32(x, x);\n"
  "                     ^\n")

DIAG_TEST(test_sema_rejects_argwhere_below_the_top,
  "kernel k(x: f32[]) = -argwhere(x);",
  "t.where:1:23: error: 'argwhere' must be the whole kernel expression\n"
  "kernel k(x: f32[]) = -argwhere(x);\n"
  "                      ^\n")

DIAG_TEST(test_sema_rejects_nonzero_below_the_top,
  "kernel k(x: f32[]) = nonzero(nonzero(x));",
  "t.where:1:30: error: 'nonzero' must be the whole kernel expression\n"
  "kernel k(x: f32[]) = nonzero(nonzero(x));\n"
  "                             ^\n")

DIAG_TEST(test_sema_rejects_where_v1_below_the_top,
  "kernel k(c: bool[], x: f32[], y: f32[]) = where(c, where_v1(c, x, y), y);",
  "t.where:1:52: error: 'where_v1' must be the whole kernel expression\n"
  "kernel k(c: bool[], x: f32[], y: f32[]) = where(c, where_v1(c, x, y), y);\n"
  "                                                   ^\n")

DIAG_TEST(test_sema_rejects_where_v1_on_computed_operands,
  "kernel k(c: bool[N], x: f32[N], y: f32[N]) = where_v1(c, -x, y);",
  "t.where:1:58: error: the arguments of 'where_v1' must be the kernel's first three "
  "parameters, in order\n"
  "kernel k(c: bool[N], x: f32[N], y: f32[N]) = where_v1(c, -x, y);\n"
  "                                                         ^\n")

DIAG_TEST(test_sema_rejects_where_v1_on_parameters_out_of_order,
  "kernel k(x: f32[N], c: bool[N], y: f32[N]) = where_v1(c, x, y);",
  "t.where:1:55: error: the arguments of 'where_v1' must be the kernel's first three "
  "parameters, in order\n"
  "kernel k(x: f32[N], c: bool[N], y: f32[N]) = where_v1(c, x, y);\n"
  "                                                      ^\n")

DIAG_TEST(test_sema_rejects_unused_parameter_that_does_not_broadcast,
  "kernel k(x: f32[N], u: string[4,M]) = -x;",
  "t.where:1:21: error: parameter 'u' of shape [4,M] does not broadcast with the kernel's "
  "output [N]\n"
  "kernel k(x: f32[N], u: string[4,M]) = -x;\n"
  "                    ^\n")

DIAG_TEST(test_sema_rejects_where_condition_that_is_not_bool,
  "kernel k(c: f32[], x: f32[]) = where(c, x, x);",
  "t.where:1:38: error: condition of 'where' must be bool, got float\n"
  "kernel k(c: f32[], x: f32[]) = where(c, x, x);\n"
  "                                     ^\n")

DIAG_TEST(test_sema_rejects_numeric_literal_as_where_condition,
  "kernel k(x: f32[]) = where(1, x, x);",
  "t.where:1:28: error: condition of 'where' must be bool, got a literal\n"
  "kernel k(x: f32[]) = where(1, x, x);\n"
  "                           ^\n")

DIAG_TEST(test_sema_rejects_where_branches_of_different_dtypes,
  "kernel k(c: bool[], x: f32[], y: i32[]) = where(c, x, y);",
  "t.where:1:43: error: branches of 'where' have different dtypes: float and int32\n"
  "kernel k(c: bool[], x: f32[], y: i32[]) = where(c, x, y);\n"
  "                                          ^\n")

DIAG_TEST(test_sema_rejects_operands_of_different_dtypes,
  "kernel k(x: f32[], y: f64[]) = x * y;",
  "t.where:1:34: error: operands of '*' have different dtypes: float and double\n"
  "kernel k(x: f32[], y: f64[]) = x * y;\n"
  "                                 ^\n")

DIAG_TEST(test_sema_rejects_true_as_a_number,
  "kernel k(x: i32[]) = x + true;",
  "t.where:1:24: error: operands of '+' have different dtypes: int32 and bool\n"
  "kernel k(x: i32[]) = x + true;\n"
  "                       ^\n")

DIAG_TEST(test_sema_rejects_arithmetic_on_bool,
  "kernel k(x: bool[]) = x + x;",
  "t.where:1:25: error: '+' is not defined on bool\n"
  "kernel k(x: bool[]) = x + x;\n"
  "                        ^\n")

DIAG_TEST(test_sema_rejects_negation_of_bool,
  "kernel k(x: bool[]) = -x;",
  "t.where:1:23: error: '-' is not defined on bool\n"
  "kernel k(x: bool[]) = -x;\n"
  "                      ^\n")

DIAG_TEST(test_sema_rejects_arithmetic_on_string,
  "kernel k(x: string[]) = min(x, x);",
  "t.where:1:25: error: 'min' is not defined on string\n"
  "kernel k(x: string[]) = min(x, x);\n"
  "                        ^\n")

DIAG_TEST(test_sema_rejects_ordering_of_complex,
  "kernel k(x: c64[]) = x < x;",
  "t.where:1:24: error: '<' is not defined on complex64\n"
  "kernel k(x: c64[]) = x < x;\n"
  "                       ^\n")

DIAG_TEST(test_sema_rejects_abs_of_complex,
  "kernel k(x: complex128[]) = abs(x);",
  "t.where:1:29: error: 'abs' is not defined on complex128\n"
  "kernel k(x: complex128[]) = abs(x);\n"
  "                            ^\n")

DIAG_TEST(test_sema_rejects_exp_of_a_double,
  "kernel k(x: f64[]) = exp(x) - 1;",
  "t.where:1:22: error: exp on double is not supported: wherec's exp is not correctly rounded "
  "in double; cast to float, as in exp(float(x))\n"
  "kernel k(x: f64[]) = exp(x) - 1;\n"
  "                     ^\n")

DIAG_TEST(test_sema_rejects_exp_of_an_integer,
  "kernel k(x: u8[]) = exp(x);",
  "t.where:1:21: error: 'exp' is defined on float, float16 and bfloat16, not on uint8\n"
  "kernel k(x: u8[]) = exp(x);\n"
  "                    ^\n")

DIAG_TEST(test_sema_rejects_log_of_a_double,
  "kernel k(x: f64[N]) = log(x);",
  "t.where:1:23: error: log on double is not supported: wherec's log is not correctly rounded "
  "in double; cast to float, as in log(float(x))\n"
  "kernel k(x: f64[N]) = log(x);\n"
  "                      ^\n")

DIAG_TEST(test_sema_rejects_tanh_sigmoid_and_erf_of_integers_and_bool,
  "kernel a(x: i32[]) = tanh(x);\nkernel b(x: bool[]) = sigmoid(x);\nkernel c(x: u8[]) = erf(x);",
  "t.where:1:22: error: 'tanh' is defined on float, float16 and bfloat16, not on int32\n"
  "kernel a(x: i32[]) = tanh(x);\n"
  "                     ^\n"
  "t.where:2:23: error: 'sigmoid' is defined on float, float16 and bfloat16, not on bool\n"
  "kernel b(x: bool[]) = sigmoid(x);\n"
  "                      ^\n"
  "t.where:3:21: error: 'erf' is defined on float, float16 and bfloat16, not on uint8\n"
  "kernel c(x: u8[]) = erf(x);\n"
  "                    ^\n")

/* pow takes two operands of float, float16 or bfloat16, not double nor integers */
DIAG_TEST(test_sema_rejects_pow_on_double_integers_and_one_operand,
  "kernel a(x: f64[N], y: f64[N]) = pow(x, y);\nkernel b(x: i32[]) = pow(x, 2);\n"
  "kernel c(x: f32[]) = pow(x);",
  "t.where:1:34: error: pow on double is not supported: wherec's pow is not correctly rounded "
  "in double; cast to float, as in pow(float(x), float(y))\n"
  "kernel a(x: f64[N], y: f64[N]) = pow(x, y);\n"
  "                                 ^\n"
  "t.where:2:22: error: 'pow' is defined on float, float16 and bfloat16, not on int32\n"
  "kernel b(x: i32[]) = pow(x, 2);\n"
  "                     ^\n"
  "t.where:3:22: error: 'pow' takes 2 arguments, got 1\n"
  "kernel c(x: f32[]) = pow(x);\n"
  "                     ^\n")

/* pow's literal operand takes the other operand's dtype */
static void test_sema_types_a_literal_operand_of_pow_from_the_other(void **state) {
  (void)state;
  expect_dump("kernel k(x: f16[N]) = pow(x, 3) + pow(2, x);",
              "kernel k: elementwise\n"
              "  extents: N\n"
              "  param x: float16[N]\n"
              "  out: float16[N]\n"
              "  expr: (+:float16[N] (pow:float16[N] x:float16[N] 3:float16[]) (pow:float16[N] "
              "2:float16[] x:float16[N]))\n");
}

/* log, tanh, sigmoid and erf take float, float16 and bfloat16 (and literals typed so) */
static void test_sema_accepts_log_tanh_sigmoid_erf_on_float_and_the_half_types(void **state) {
  (void)state;
  expect_dump("kernel k<T: f32, f16, bf16>(x: T[N]) = log(x) + tanh(x) * sigmoid(x) - erf(0.5);",
              "kernel k_float: elementwise (T = float)\n"
              "  extents: N\n"
              "  param x: float[N]\n"
              "  out: float[N]\n"
              "  expr: (-:float[N] (+:float[N] (log:float[N] x:float[N]) (*:float[N] (tanh:float[N] "
              "x:float[N]) (sigmoid:float[N] x:float[N]))) (erf:float[] 0.5:float[]))\n"
              "kernel k_float16: elementwise (T = float16)\n"
              "  extents: N\n"
              "  param x: float16[N]\n"
              "  out: float16[N]\n"
              "  expr: (-:float16[N] (+:float16[N] (log:float16[N] x:float16[N]) (*:float16[N] "
              "(tanh:float16[N] x:float16[N]) (sigmoid:float16[N] x:float16[N]))) (erf:float16[] "
              "0.5:float16[]))\n"
              "kernel k_bfloat16: elementwise (T = bfloat16)\n"
              "  extents: N\n"
              "  param x: bfloat16[N]\n"
              "  out: bfloat16[N]\n"
              "  expr: (-:bfloat16[N] (+:bfloat16[N] (log:bfloat16[N] x:bfloat16[N]) (*:bfloat16[N] "
              "(tanh:bfloat16[N] x:bfloat16[N]) (sigmoid:bfloat16[N] x:bfloat16[N]))) "
              "(erf:bfloat16[] 0.5:bfloat16[]))\n");
}

DIAG_TEST(test_sema_rejects_exp_of_a_literal_taken_as_an_integer,
  "kernel k(x: i32[]) = x + exp(1);",
  "t.where:1:26: error: 'exp' is defined on float, float16 and bfloat16, not on int32\n"
  "kernel k(x: i32[]) = x + exp(1);\n"
  "                         ^\n")

DIAG_TEST(test_sema_rejects_logical_operator_on_numbers,
  "kernel k(x: f32[], b: bool[]) = b && x;",
  "t.where:1:35: error: operands of '&&' must be bool, got float\n"
  "kernel k(x: f32[], b: bool[]) = b && x;\n"
  "                                  ^\n")

DIAG_TEST(test_sema_rejects_not_on_numbers,
  "kernel k(x: u8[]) = !x;",
  "t.where:1:21: error: operand of '!' must be bool, got uint8\n"
  "kernel k(x: u8[]) = !x;\n"
  "                    ^\n")

DIAG_TEST(test_sema_rejects_expression_of_literals_only,
  "kernel k(x: f32[]) = 1 + 2;",
  "t.where:1:24: error: cannot infer the dtype of an expression of literals only; cast it, "
  "as in float(...)\n"
  "kernel k(x: f32[]) = 1 + 2;\n"
  "                       ^\n")

DIAG_TEST(test_sema_rejects_comparison_of_literals,
  "kernel k(x: f32[]) = where(1 < 2, x, x);",
  "t.where:1:30: error: cannot infer the dtype of literals compared by '<'; cast one, as in "
  "float(1)\n"
  "kernel k(x: f32[]) = where(1 < 2, x, x);\n"
  "                             ^\n")

DIAG_TEST(test_sema_rejects_argwhere_of_a_literal,
  "kernel k() = argwhere(1);",
  "t.where:1:23: error: cannot infer the dtype of the argument of 'argwhere'; cast it, as in "
  "float(1)\n"
  "kernel k() = argwhere(1);\n"
  "                      ^\n")

DIAG_TEST(test_sema_rejects_literal_not_representable_in_uint8,
  "kernel k(x: uint8[N]) = x + 300;",
  "t.where:1:29: error: literal 300 is out of range for uint8 (0 to 255)\n"
  "kernel k(x: uint8[N]) = x + 300;\n"
  "                            ^\n")

DIAG_TEST(test_sema_rejects_negative_literal_as_uint32,
  "kernel k(x: uint32[N]) = x * -1;",
  "t.where:1:30: error: literal -1 is out of range for uint32 (0 to 4294967295)\n"
  "kernel k(x: uint32[N]) = x * -1;\n"
  "                             ^\n")

DIAG_TEST(test_sema_rejects_literal_below_int8_range,
  "kernel k(x: int8[N]) = max(x, -129);",
  "t.where:1:31: error: literal -129 is out of range for int8 (-128 to 127)\n"
  "kernel k(x: int8[N]) = max(x, -129);\n"
  "                              ^\n")

DIAG_TEST(test_sema_rejects_literal_beyond_64_bits,
  "kernel k(x: uint64[N]) = x + 18446744073709551616;",
  "t.where:1:30: error: literal 18446744073709551616 is out of range for uint64 "
  "(0 to 18446744073709551615)\n"
  "kernel k(x: uint64[N]) = x + 18446744073709551616;\n"
  "                             ^\n")

DIAG_TEST(test_sema_rejects_fraction_as_int32,
  "kernel k(x: int32[N]) = x * 0.5;",
  "t.where:1:29: error: literal 0.5 is not an integer; it cannot be used as int32\n"
  "kernel k(x: int32[N]) = x * 0.5;\n"
  "                            ^\n")

DIAG_TEST(test_sema_rejects_literal_that_overflows_float,
  "kernel k(x: float[N]) = x + 1e999;",
  "t.where:1:29: error: literal 1e999 overflows float\n"
  "kernel k(x: float[N]) = x + 1e999;\n"
  "                            ^\n")

DIAG_TEST(test_sema_rejects_literal_that_overflows_double,
  "kernel k(x: f64[N]) = x - -1e999;",
  "t.where:1:27: error: literal -1e999 overflows double\n"
  "kernel k(x: f64[N]) = x - -1e999;\n"
  "                          ^\n")

DIAG_TEST(test_sema_rejects_literal_that_overflows_float16,
  "kernel k(x: f16[N]) = x + 65520;",
  "t.where:1:27: error: literal 65520 overflows float16\n"
  "kernel k(x: f16[N]) = x + 65520;\n"
  "                          ^\n")

DIAG_TEST(test_sema_rejects_inf_for_integers,
  "kernel k(x: int32[N]) = min(x, inf);",
  "t.where:1:32: error: 'inf' is valid only for floating-point dtypes (float16, bfloat16, "
  "float, double), not int32\n"
  "kernel k(x: int32[N]) = min(x, inf);\n"
  "                               ^\n")

DIAG_TEST(test_sema_rejects_nan_for_complex,
  "kernel k(x: c64[N]) = x != nan;",
  "t.where:1:28: error: 'nan' is valid only for floating-point dtypes (float16, bfloat16, "
  "float, double), not complex64\n"
  "kernel k(x: c64[N]) = x != nan;\n"
  "                           ^\n")

DIAG_TEST(test_sema_rejects_number_as_bool,
  "kernel k(x: bool[N]) = x == 1;",
  "t.where:1:29: error: numeric literal 1 cannot be used as bool (write true or false)\n"
  "kernel k(x: bool[N]) = x == 1;\n"
  "                            ^\n")

DIAG_TEST(test_sema_rejects_number_as_string,
  "kernel k(c: bool[], s: string[]) = where(c, s, 0);",
  "t.where:1:48: error: numeric literal 0 cannot be used as string\n"
  "kernel k(c: bool[], s: string[]) = where(c, s, 0);\n"
  "                                               ^\n")

DIAG_TEST(test_sema_rejects_cast_from_string,
  "kernel k(s: string[]) = float(s);",
  "t.where:1:25: error: cannot cast string to float\n"
  "kernel k(s: string[]) = float(s);\n"
  "                        ^\n")

DIAG_TEST(test_sema_rejects_cast_between_complex_and_real,
  "kernel k(z: c64[]) = f32(z) + 1;",
  "t.where:1:22: error: cannot cast complex64 to float\n"
  "kernel k(z: c64[]) = f32(z) + 1;\n"
  "                     ^\n")

DIAG_TEST(test_sema_rejects_broadcast_of_different_symbols,
  "kernel k(x: f32[N], y: f32[M]) = x + y;",
  "t.where:1:36: error: cannot broadcast [N] and [M] in '+'\n"
  "kernel k(x: f32[N], y: f32[M]) = x + y;\n"
  "                                   ^\n")

DIAG_TEST(test_sema_rejects_broadcast_of_symbol_and_fixed_extent,
  "kernel k(x: f32[N,3], y: f32[5,3]) = x - y;",
  "t.where:1:40: error: cannot broadcast [N,3] and [5,3] in '-'\n"
  "kernel k(x: f32[N,3], y: f32[5,3]) = x - y;\n"
  "                                       ^\n")

DIAG_TEST(test_sema_rejects_broadcast_of_different_fixed_extents_in_where,
  "kernel k(c: bool[2,1], x: f32[2,3], y: f32[4,3]) = where(c, x, y);",
  "t.where:1:52: error: cannot broadcast [2,3] and [4,3] in 'where'\n"
  "kernel k(c: bool[2,1], x: f32[2,3], y: f32[4,3]) = where(c, x, y);\n"
  "                                                   ^\n")

DIAG_TEST(test_sema_rejects_where_v1_condition_that_is_not_bool,
  "kernel k(c: u8[B], x: f32[B], y: f32[B]) = where_v1(c, x, y);",
  "t.where:1:53: error: condition of 'where_v1' must be bool, got uint8\n"
  "kernel k(c: u8[B], x: f32[B], y: f32[B]) = where_v1(c, x, y);\n"
  "                                                    ^\n")

DIAG_TEST(test_sema_rejects_where_v1_branches_of_different_dtypes,
  "kernel k(c: bool[B], x: f32[B], y: f64[B]) = where_v1(c, x, y);",
  "t.where:1:46: error: branches of 'where_v1' have different dtypes: float and double\n"
  "kernel k(c: bool[B], x: f32[B], y: f64[B]) = where_v1(c, x, y);\n"
  "                                             ^\n")

DIAG_TEST(test_sema_rejects_where_v1_with_broadcast_between_x_and_y,
  "kernel k(c: bool[B], x: f32[B,7], y: f32[1,7]) = where_v1(c, x, y);",
  "t.where:1:50: error: 'where_v1' needs x and y of the same shape, got [B,7] and [1,7]\n"
  "kernel k(c: bool[B], x: f32[B,7], y: f32[1,7]) = where_v1(c, x, y);\n"
  "                                                 ^\n")

DIAG_TEST(test_sema_rejects_where_v1_vector_condition_of_wrong_length,
  "kernel k(c: bool[7], x: f32[B,7], y: f32[B,7]) = where_v1(c, x, y);",
  "t.where:1:59: error: condition of 'where_v1' must have x's shape [B,7] or be a vector "
  "over its first dimension [B], got [7]\n"
  "kernel k(c: bool[7], x: f32[B,7], y: f32[B,7]) = where_v1(c, x, y);\n"
  "                                                          ^\n")

DIAG_TEST(test_sema_rejects_where_v1_vector_condition_for_scalar_x,
  "kernel k(c: bool[1], x: f32[], y: f32[]) = where_v1(c, x, y);",
  "t.where:1:53: error: condition of 'where_v1' must be a scalar when x is one, got [1]\n"
  "kernel k(c: bool[1], x: f32[], y: f32[]) = where_v1(c, x, y);\n"
  "                                                    ^\n")

DIAG_TEST(test_sema_names_the_specialization_of_a_type_error,
  "kernel k<T: i16, i8>(x: T[]) = x + 200;",
  "t.where:1:36: error: literal 200 is out of range for int8 (-128 to 127)\n"
  "kernel k<T: i16, i8>(x: T[]) = x + 200;\n"
  "                                   ^\n"
  "t.where:1:8: note: in kernel 'k_int8' (T = int8)\n"
  "kernel k<T: i16, i8>(x: T[]) = x + 200;\n"
  "       ^\n")

static void test_sema_rejects_more_than_10000_kernels(void **state) {
  diag_ctx d;
  sema_program *p = check_str(&d,
    "kernel k<A: i8, i16, i32, i64, u8, u16, u32, u64, f16, bf16, f32, f64, bool, c64, c128,"
    " string, B: i8, i16, i32, i64, u8, u16, u32, u64, f16, bf16, f32, f64, bool, c64, c128,"
    " string, C: i8, i16, i32, i64, u8, u16, u32, u64, f16, bf16, f32, f64, bool, c64, c128,"
    " string, D: i8, i16, i32>(x: A[], y: B[], z: C[], w: D[]) = x;\n"
    "kernel ok(x: f32[]) = x;\n"
    "kernel ok2<T: i8>(x: T[]) = x;\n");
  (void)state;
  assert_null(p);
  assert_int_equal(d.n_errors, 1);
  assert_non_null(strstr(diag_str(&d), "t.where:1:8: error: too many kernels (more than "
                                        "10000 after specialization)\n"));
  diag_free(&d);
}

/* 16 instances of 32767 nodes: within the parser's limit, not after specialization. */
static void test_sema_rejects_more_than_200000_operations_after_specialization(void **state) {
  char *expr = balanced(14), *src = malloc(strlen(expr) + 200);
  diag_ctx d;
  sema_program *p;
  (void)state;
  assert_non_null(src);
  sprintf(src, "kernel k<T: i8, i16, i32, i64, u8, u16, u32, u64, f16, bf16, f32, f64, bool, "
               "c64, c128, string>(x: f32[], t: T[]) = %s;\nkernel ok(x: f32[]) = x;\n", expr);
  p = check_str(&d, src);
  assert_null(p);
  assert_int_equal(d.n_errors, 1);
  assert_non_null(strstr(diag_str(&d), "t.where:1:8: error: too many operations (more than 200000 "
                                        "in all kernels after specialization)\n"));
  diag_free(&d);
  free(src);
  free(expr);
}

static void test_sema_rejects_kernel_name_too_long_after_specialization(void **state) {
  char src[600];
  diag_ctx d;
  sema_program *p;
  (void)state;
  memset(src, 0, sizeof src);
  strcpy(src, "kernel ");
  memset(src + 7, 'k', 250);
  strcat(src, "<T: f32, complex128>(x: T[]) = x;\n");
  p = check_str(&d, src);
  assert_null(p);
  assert_int_equal(d.n_errors, 1);
  assert_non_null(strstr(diag_str(&d), "t.where:1:8: error: kernel name 'kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk"
                                        "kkkkkkkkkkkkkkkkkkkkkkkkkk...' is too long after specialization "
                                        "(256 bytes; the limit is 255)\n"));
  diag_free(&d);
}

static void test_sema_reports_all_three_errors_of_a_file(void **state) {
  (void)state;
  expect_diag("kernel a(x: f32[]) = x $ 1;\n"
              "kernel b(x: f32[], x: f32[]) = x;\n"
              "kernel c(x: u8[]) = x\n"
              "kernel d(x: u8[]) = x + 256;\n",
              "t.where:1:24: error: invalid character '$'\n"
              "kernel a(x: f32[]) = x $ 1;\n"
              "                       ^\n"
              "t.where:4:1: error: expected ';' after the kernel expression, got 'kernel'\n"
              "kernel d(x: u8[]) = x + 256;\n"
              "^\n"
              "t.where:2:20: error: duplicate parameter 'x'\n"
              "kernel b(x: f32[], x: f32[]) = x;\n"
              "                   ^\n"
              "t.where:2:10: note: 'x' first declared here\n"
              "kernel b(x: f32[], x: f32[]) = x;\n"
              "         ^\n"
              "t.where:4:25: error: literal 256 is out of range for uint8 (0 to 255)\n"
              "kernel d(x: u8[]) = x + 256;\n"
              "                        ^\n");
}

static void test_sema_reports_errors_of_both_operands(void **state) {
  diag_ctx d;
  sema_program *p = check_str(&d, "kernel k(x: u8[]) = (x + 256) * (x - -1);");
  (void)state;
  assert_null(p);
  assert_int_equal(d.n_errors, 2);
  diag_free(&d);
}

static void test_sema_quotes_a_window_of_very_long_lines(void **state) {
  diag_text src = {0};
  diag_ctx d;
  sema_program *p;
  int i;
  (void)state;
  diag_text_printf(&src, "kernel k(x: f32[]) = x");
  for (i = 0; i < 100; i++) diag_text_printf(&src, " + x");
  diag_text_printf(&src, " + y;");
  p = check_str(&d, src.data);
  assert_null(p);
  assert_string_equal(diag_str(&d),
                      "t.where:1:426: error: unknown name 'y'\n"
                      "...x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + x + "
                      "x + x + y;\n"
                      "                                                                        "
                      "           ^\n");
  diag_free(&d);
  diag_text_free(&src);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_sema_accepts_design_example_with_its_instances),
    cmocka_unit_test(test_sema_gives_the_api_lowering_reads),
    cmocka_unit_test(test_sema_specializes_the_cross_product_in_declaration_order),
    cmocka_unit_test(test_sema_normalizes_aliases_in_instance_names),
    cmocka_unit_test(test_sema_types_literals_from_the_other_operand),
    cmocka_unit_test(test_sema_stores_literal_bits_in_the_operand_dtype),
    cmocka_unit_test(test_sema_accepts_every_where_v1_condition_shape),
    cmocka_unit_test(test_sema_accepts_casts_between_numbers_and_bool),
    cmocka_unit_test(test_sema_accepts_exp_on_float_float16_and_bfloat16),
    cmocka_unit_test(test_sema_broadcasts_shape_patterns),
    cmocka_unit_test(test_sema_broadcasts_unused_parameters_into_the_output_and_allows_late_options),
    cmocka_unit_test(test_sema_rejects_unknown_option),
    cmocka_unit_test(test_sema_rejects_option_set_twice_and_points_at_the_first),
    cmocka_unit_test(test_sema_rejects_prefix_that_is_not_a_string),
    cmocka_unit_test(test_sema_rejects_prefix_that_is_not_a_c_identifier),
    cmocka_unit_test(test_sema_rejects_prefix_that_is_a_c_keyword),
    cmocka_unit_test(test_sema_rejects_unroll_that_is_not_an_integer),
    cmocka_unit_test(test_sema_rejects_unroll_of_zero),
    cmocka_unit_test(test_sema_rejects_unroll_above_64),
    cmocka_unit_test(test_sema_rejects_duplicate_kernel_and_points_at_the_first),
    cmocka_unit_test(test_sema_rejects_kernel_name_repeated_by_specialization),
    cmocka_unit_test(test_sema_reports_duplicate_kernel_that_has_errors_of_its_own),
    cmocka_unit_test(test_sema_rejects_duplicate_parameter),
    cmocka_unit_test(test_sema_rejects_duplicate_type_variable),
    cmocka_unit_test(test_sema_rejects_type_variable_named_like_a_dtype),
    cmocka_unit_test(test_sema_rejects_type_variable_named_like_a_function),
    cmocka_unit_test(test_sema_rejects_empty_specialization_list),
    cmocka_unit_test(test_sema_rejects_unknown_dtype_in_specialization_list),
    cmocka_unit_test(test_sema_rejects_dtype_listed_twice_through_an_alias),
    cmocka_unit_test(test_sema_rejects_unknown_dtype_of_a_parameter),
    cmocka_unit_test(test_sema_rejects_unknown_type_variable),
    cmocka_unit_test(test_sema_rejects_rank_above_16),
    cmocka_unit_test(test_sema_accepts_a_kernel_with_wc_max_inputs_parameters),
    cmocka_unit_test(test_sema_rejects_more_parameters_than_wc_max_inputs_at_the_first_past_it),
    cmocka_unit_test(test_sema_rejects_extent_above_int64_max),
    cmocka_unit_test(test_sema_rejects_extent_named_like_a_c_keyword),
    cmocka_unit_test(test_sema_rejects_unknown_name),
    cmocka_unit_test(test_sema_rejects_unknown_function),
    cmocka_unit_test(test_sema_rejects_wrong_number_of_arguments),
    cmocka_unit_test(test_sema_rejects_cast_with_two_arguments),
    cmocka_unit_test(test_sema_rejects_argwhere_below_the_top),
    cmocka_unit_test(test_sema_rejects_nonzero_below_the_top),
    cmocka_unit_test(test_sema_rejects_where_v1_below_the_top),
    cmocka_unit_test(test_sema_rejects_where_v1_on_computed_operands),
    cmocka_unit_test(test_sema_rejects_where_v1_on_parameters_out_of_order),
    cmocka_unit_test(test_sema_rejects_unused_parameter_that_does_not_broadcast),
    cmocka_unit_test(test_sema_rejects_where_condition_that_is_not_bool),
    cmocka_unit_test(test_sema_rejects_numeric_literal_as_where_condition),
    cmocka_unit_test(test_sema_rejects_where_branches_of_different_dtypes),
    cmocka_unit_test(test_sema_rejects_operands_of_different_dtypes),
    cmocka_unit_test(test_sema_rejects_true_as_a_number),
    cmocka_unit_test(test_sema_rejects_arithmetic_on_bool),
    cmocka_unit_test(test_sema_rejects_negation_of_bool),
    cmocka_unit_test(test_sema_rejects_arithmetic_on_string),
    cmocka_unit_test(test_sema_rejects_ordering_of_complex),
    cmocka_unit_test(test_sema_rejects_abs_of_complex),
    cmocka_unit_test(test_sema_rejects_exp_of_a_double),
    cmocka_unit_test(test_sema_rejects_exp_of_an_integer),
    cmocka_unit_test(test_sema_rejects_log_of_a_double),
    cmocka_unit_test(test_sema_rejects_tanh_sigmoid_and_erf_of_integers_and_bool),
    cmocka_unit_test(test_sema_accepts_log_tanh_sigmoid_erf_on_float_and_the_half_types),
    cmocka_unit_test(test_sema_rejects_pow_on_double_integers_and_one_operand),
    cmocka_unit_test(test_sema_types_a_literal_operand_of_pow_from_the_other),
    cmocka_unit_test(test_sema_rejects_exp_of_a_literal_taken_as_an_integer),
    cmocka_unit_test(test_sema_rejects_logical_operator_on_numbers),
    cmocka_unit_test(test_sema_rejects_not_on_numbers),
    cmocka_unit_test(test_sema_rejects_expression_of_literals_only),
    cmocka_unit_test(test_sema_rejects_comparison_of_literals),
    cmocka_unit_test(test_sema_rejects_argwhere_of_a_literal),
    cmocka_unit_test(test_sema_rejects_literal_not_representable_in_uint8),
    cmocka_unit_test(test_sema_rejects_negative_literal_as_uint32),
    cmocka_unit_test(test_sema_rejects_literal_below_int8_range),
    cmocka_unit_test(test_sema_rejects_literal_beyond_64_bits),
    cmocka_unit_test(test_sema_rejects_fraction_as_int32),
    cmocka_unit_test(test_sema_rejects_literal_that_overflows_float),
    cmocka_unit_test(test_sema_rejects_literal_that_overflows_double),
    cmocka_unit_test(test_sema_rejects_literal_that_overflows_float16),
    cmocka_unit_test(test_sema_rejects_inf_for_integers),
    cmocka_unit_test(test_sema_rejects_nan_for_complex),
    cmocka_unit_test(test_sema_rejects_number_as_bool),
    cmocka_unit_test(test_sema_rejects_number_as_string),
    cmocka_unit_test(test_sema_rejects_cast_from_string),
    cmocka_unit_test(test_sema_rejects_cast_between_complex_and_real),
    cmocka_unit_test(test_sema_rejects_broadcast_of_different_symbols),
    cmocka_unit_test(test_sema_rejects_broadcast_of_symbol_and_fixed_extent),
    cmocka_unit_test(test_sema_rejects_broadcast_of_different_fixed_extents_in_where),
    cmocka_unit_test(test_sema_rejects_where_v1_condition_that_is_not_bool),
    cmocka_unit_test(test_sema_rejects_where_v1_branches_of_different_dtypes),
    cmocka_unit_test(test_sema_rejects_where_v1_with_broadcast_between_x_and_y),
    cmocka_unit_test(test_sema_rejects_where_v1_vector_condition_of_wrong_length),
    cmocka_unit_test(test_sema_rejects_where_v1_vector_condition_for_scalar_x),
    cmocka_unit_test(test_sema_names_the_specialization_of_a_type_error),
    cmocka_unit_test(test_sema_rejects_more_than_10000_kernels),
    cmocka_unit_test(test_sema_rejects_more_than_200000_operations_after_specialization),
    cmocka_unit_test(test_sema_rejects_kernel_name_too_long_after_specialization),
    cmocka_unit_test(test_sema_rejects_parameter_whose_fixed_extents_multiply_past_the_limit),
    cmocka_unit_test(test_sema_rejects_empty_parameter_whose_other_extents_overflow),
    cmocka_unit_test(test_sema_rejects_output_whose_fixed_extents_multiply_past_the_limit),
    cmocka_unit_test(test_sema_accepts_fixed_extents_up_to_the_element_limit),
    cmocka_unit_test(test_sema_types_bitwise_operators_and_shifts_on_integers),
    cmocka_unit_test(test_sema_accepts_bitwise_and_or_xor_on_bool),
    cmocka_unit_test(test_sema_types_fmod_on_integers_and_floats_and_rounding_on_floats),
    cmocka_unit_test(test_sema_types_literal_only_rounding_by_context),
    cmocka_unit_test(test_sema_rejects_remainder_of_floats_and_suggests_fmod),
    cmocka_unit_test(test_sema_rejects_remainder_of_bool),
    cmocka_unit_test(test_sema_rejects_remainder_of_complex),
    cmocka_unit_test(test_sema_rejects_remainder_of_strings),
    cmocka_unit_test(test_sema_rejects_complement_of_bool_and_suggests_not),
    cmocka_unit_test(test_sema_rejects_complement_of_a_float),
    cmocka_unit_test(test_sema_rejects_shift_of_a_float),
    cmocka_unit_test(test_sema_rejects_shift_of_bool),
    cmocka_unit_test(test_sema_rejects_bitwise_and_of_floats),
    cmocka_unit_test(test_sema_rejects_xor_of_strings),
    cmocka_unit_test(test_sema_rejects_sqrt_of_an_integer),
    cmocka_unit_test(test_sema_rejects_floor_of_bool),
    cmocka_unit_test(test_sema_rejects_round_of_complex_without_a_cast_hint),
    cmocka_unit_test(test_sema_rejects_fmod_of_bool),
    cmocka_unit_test(test_sema_rejects_fmod_of_different_dtypes),
    cmocka_unit_test(test_sema_rejects_literal_remainder_given_a_float_dtype),
    cmocka_unit_test(test_sema_rejects_sqrt_of_a_literal_given_an_integer_dtype),
    cmocka_unit_test(test_sema_types_a_shift_count_literal_as_the_shifted_dtype),
    cmocka_unit_test(test_sema_rejects_ceil_with_two_arguments),
    cmocka_unit_test(test_sema_types_a_body_and_orders_its_outputs_as_listed),
    cmocka_unit_test(test_sema_rejects_a_let_never_read),
    cmocka_unit_test(test_sema_rejects_an_output_never_assigned),
    cmocka_unit_test(test_sema_rejects_a_name_defined_twice_and_points_at_the_first),
    cmocka_unit_test(test_sema_rejects_a_let_that_redefines_a_parameter),
    cmocka_unit_test(test_sema_rejects_an_assignment_to_a_name_that_is_no_output),
    cmocka_unit_test(test_sema_rejects_a_name_read_before_its_statement),
    cmocka_unit_test(test_sema_appends_each_constant_a_kernel_reads_to_its_parameters),
    cmocka_unit_test(test_sema_types_constant_values_of_every_class_exactly),
    cmocka_unit_test(test_sema_lets_a_statement_or_parameter_name_win_over_no_constant),
    cmocka_unit_test(test_sema_rejects_a_constant_whose_values_do_not_fill_its_shape),
    cmocka_unit_test(test_sema_rejects_a_constant_of_a_symbolic_extent),
    cmocka_unit_test(test_sema_reports_all_three_errors_of_a_file),
    cmocka_unit_test(test_sema_reports_errors_of_both_operands),
    cmocka_unit_test(test_sema_quotes_a_window_of_very_long_lines),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
