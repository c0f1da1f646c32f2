/* test_interp.c: the interpreter against the reference evaluator: every rule
   of README, Semantics on hand-built programs, then random programs over every
   dtype, op and broadcast pattern (fixed seeds). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <cmocka.h>

#include "testlib.h"

/* ---- building programs by hand ------------------------------------------ */

#define MAX_INSTRS 256
#define MAX_PARAMS 8

typedef struct prog {
  wc_instr ins[MAX_INSTRS];
  int      n;
  wc_param params[MAX_PARAMS];
  int64_t  dims[MAX_PARAMS][WC_MAX_RANK];
  int      n_params;
  wc_kernel k;
} prog;

static int emit(prog *p, wc_opcode op, wc_dtype t, int a, int b, int c) {
  wc_instr *i = &p->ins[p->n];
  memset(i, 0, sizeof *i);
  i->op = (uint8_t)op;
  i->dtype = (uint8_t)t;
  i->a = (uint16_t)a; i->b = (uint16_t)b; i->c = (uint16_t)c;
  return p->n++;
}

static int input(prog *p, wc_dtype t) {
  int k = p->n_params++;
  p->params[k].name = "in";
  p->params[k].dtype = t;
  p->params[k].rank = 0;                               /* patterns unused by the interpreter */
  p->params[k].dims = p->dims[k];
  return emit(p, WC_OP_INPUT, t, k, 0, 0);
}

static int constant(prog *p, wc_dtype t, uint64_t bits) {
  int i = emit(p, WC_OP_CONST, t, 0, 0, 0);
  p->ins[i].bits[0] = bits;
  return i;
}

static const wc_kernel *finish(prog *p, wc_kernel_kind kind) {
  memset(&p->k, 0, sizeof p->k);
  p->k.name = "test";
  p->k.kind = kind;
  p->k.n_inputs = p->n_params;
  p->k.inputs = p->params;
  p->k.out_dtype = (wc_dtype)p->ins[p->n - 1].dtype;
  p->k.n_instrs = p->n;
  p->k.program = p->ins;
  return &p->k;
}

static wc_tensor vec(wc_dtype t, int64_t n, void *data) {
  wc_tensor v;
  memset(&v, 0, sizeof v);
  v.dtype = t;
  v.rank = 1;
  v.shape[0] = n;
  v.data = data;
  return v;
}

/* Runs k on 1-d inputs through the interpreter and the reference; both must
   give `expect` (n elements of the output dtype) bit for bit. */
static void check1d(const wc_kernel *k, wc_tensor *in, int64_t n, const void *expect) {
  char got[1024], ref[1024];
  size_t bytes = (size_t)n * wc_dtype_size(k->out_dtype);
  wc_tensor o1 = vec(k->out_dtype, n, got), o2 = vec(k->out_dtype, n, ref);
  assert_true(bytes <= sizeof got);
  assert_int_equal(wc_interpret(k, in, k->n_inputs, &o1), WC_OK);
  assert_int_equal(wc_ref_run(k, in, k->n_inputs, &o2), WC_OK);
  assert_memory_equal(got, expect, bytes);
  assert_memory_equal(ref, expect, bytes);
}

/* ---- README, Semantics, rule by rule ------------------------------------ */

static void test_integer_add_sub_mul_wrap_modulo_2_to_the_bits(void **state) {
  (void)state;
  prog p = {0};
  int a = input(&p, WC_INT8), b = input(&p, WC_INT8);
  int s = emit(&p, WC_OP_ADD, WC_INT8, a, b, 0);
  int m = emit(&p, WC_OP_MUL, WC_INT8, s, b, 0);
  emit(&p, WC_OP_SUB, WC_INT8, m, a, 0);               /* (a + b) * b - a */
  const wc_kernel *k = finish(&p, WC_KIND_ELEMENTWISE);
  int8_t x[] = {127, -128, 100, -1}, y[] = {1, -1, 100, 127};
  int8_t expect[4];
  for (int i = 0; i < 4; i++)
    expect[i] = (int8_t)(uint8_t)((uint8_t)((uint8_t)(x[i] + y[i]) * (uint8_t)y[i]) - (uint8_t)x[i]);
  wc_tensor in[2] = {vec(WC_INT8, 4, x), vec(WC_INT8, 4, y)};
  check1d(k, in, 4, expect);
}

static void test_integer_division_truncates_and_x_over_zero_is_zero(void **state) {
  (void)state;
  prog p = {0};
  int a = input(&p, WC_INT32), b = input(&p, WC_INT32);
  emit(&p, WC_OP_DIV, WC_INT32, a, b, 0);
  const wc_kernel *k = finish(&p, WC_KIND_ELEMENTWISE);
  int32_t x[] = {7, -7, 7, INT32_MIN, 5, INT32_MIN}, y[] = {2, 2, -2, -1, 0, 0};
  int32_t expect[] = {3, -3, -3, INT32_MIN, 0, 0};
  wc_tensor in[2] = {vec(WC_INT32, 6, x), vec(WC_INT32, 6, y)};
  check1d(k, in, 6, expect);
}

static void test_int64_min_over_minus_one_and_abs_of_min_stay_min(void **state) {
  (void)state;
  prog p = {0};
  int a = input(&p, WC_INT64), b = input(&p, WC_INT64);
  int d = emit(&p, WC_OP_DIV, WC_INT64, a, b, 0);
  emit(&p, WC_OP_ABS, WC_INT64, d, 0, 0);
  const wc_kernel *k = finish(&p, WC_KIND_ELEMENTWISE);
  int64_t x[] = {INT64_MIN, -9, INT64_MIN}, y[] = {-1, 1, 1}, expect[] = {INT64_MIN, 9, INT64_MIN};
  wc_tensor in[2] = {vec(WC_INT64, 3, x), vec(WC_INT64, 3, y)};
  check1d(k, in, 3, expect);
}

static void test_unsigned_negation_wraps(void **state) {
  (void)state;
  prog p = {0};
  emit(&p, WC_OP_NEG, WC_UINT16, input(&p, WC_UINT16), 0, 0);
  const wc_kernel *k = finish(&p, WC_KIND_ELEMENTWISE);
  uint16_t x[] = {0, 1, 65535}, expect[] = {0, 65535, 1};
  wc_tensor in[1] = {vec(WC_UINT16, 3, x)};
  check1d(k, in, 3, expect);
}

static void test_comparisons_with_nan_are_false_except_not_equal(void **state) {
  (void)state;
  static const wc_opcode ops[] = {WC_OP_EQ, WC_OP_NE, WC_OP_LT, WC_OP_LE, WC_OP_GT, WC_OP_GE};
  static const bool expect[][3] = {{0, 0, 1}, {1, 1, 0}, {0, 0, 0}, {0, 0, 1}, {0, 0, 0}, {0, 0, 1}};
  for (int o = 0; o < 6; o++) {
    prog p = {0};
    int a = input(&p, WC_FLOAT), b = input(&p, WC_FLOAT);
    emit(&p, ops[o], WC_BOOL, a, b, 0);
    const wc_kernel *k = finish(&p, WC_KIND_ELEMENTWISE);
    float x[] = {NAN, 1.0f, -0.0f}, y[] = {NAN, NAN, 0.0f};
    wc_tensor in[2] = {vec(WC_FLOAT, 3, x), vec(WC_FLOAT, 3, y)};
    check1d(k, in, 3, expect[o]);
  }
}

static void test_min_and_max_return_nan_if_either_side_is_nan(void **state) {
  (void)state;
  for (int o = 0; o < 2; o++) {
    prog p = {0};
    int a = input(&p, WC_DOUBLE), b = input(&p, WC_DOUBLE);
    emit(&p, o ? WC_OP_MAX : WC_OP_MIN, WC_DOUBLE, a, b, 0);
    const wc_kernel *k = finish(&p, WC_KIND_ELEMENTWISE);
    double x[] = {NAN, 1, 2, -0.0}, y[] = {3, NAN, 1, 0.0};
    double got[4], ref[4];
    wc_tensor in[2] = {vec(WC_DOUBLE, 4, x), vec(WC_DOUBLE, 4, y)};
    wc_tensor o1 = vec(WC_DOUBLE, 4, got), o2 = vec(WC_DOUBLE, 4, ref);
    assert_int_equal(wc_interpret(k, in, 2, &o1), WC_OK);
    assert_int_equal(wc_ref_run(k, in, 2, &o2), WC_OK);
    assert_true(isnan(got[0]) && isnan(got[1]));
    assert_true(got[2] == (o ? 2 : 1));
    assert_memory_equal(got, ref, sizeof got);
  }
}

static void test_float16_rounds_each_operation_to_nearest_even(void **state) {
  (void)state;
  prog p = {0};
  int a = input(&p, WC_FLOAT16), b = input(&p, WC_FLOAT16);
  int s = emit(&p, WC_OP_ADD, WC_FLOAT16, a, b, 0);
  emit(&p, WC_OP_SUB, WC_FLOAT16, s, b, 0);             /* (a + b) - b, rounded twice */
  const wc_kernel *k = finish(&p, WC_KIND_ELEMENTWISE);
  /* 1 + 2^-11 rounds to 1 (tie to even); 2048 + 1 rounds to 2048 */
  uint16_t x[] = {0x3c00, 0x6800}, y[] = {0x1000, 0x3c00};
  uint16_t expect[2];
  for (int i = 0; i < 2; i++) {
    float fa = wc_f16_to_f32(x[i]), fb = wc_f16_to_f32(y[i]);
    expect[i] = wc_f32_to_f16(wc_f16_to_f32(wc_f32_to_f16(fa + fb)) - fb);
  }
  wc_tensor in[2] = {vec(WC_FLOAT16, 2, x), vec(WC_FLOAT16, 2, y)};
  check1d(k, in, 2, expect);
}

static void test_bfloat16_multiplies_in_float_and_rounds(void **state) {
  (void)state;
  prog p = {0};
  int a = input(&p, WC_BFLOAT16);
  emit(&p, WC_OP_MUL, WC_BFLOAT16, a, a, 0);
  const wc_kernel *k = finish(&p, WC_KIND_ELEMENTWISE);
  uint16_t x[] = {0x3fc1, 0x7f7f, 0x0001}, expect[3];
  for (int i = 0; i < 3; i++) expect[i] = wc_f32_to_bf16(wc_bf16_to_f32(x[i]) * wc_bf16_to_f32(x[i]));
  wc_tensor in[1] = {vec(WC_BFLOAT16, 3, x)};
  check1d(k, in, 3, expect);
}

static void test_float_to_int_cast_truncates_saturates_and_maps_nan_to_zero(void **state) {
  (void)state;
  prog p = {0};
  emit(&p, WC_OP_CAST, WC_INT8, input(&p, WC_FLOAT), 0, 0);
  const wc_kernel *k = finish(&p, WC_KIND_ELEMENTWISE);
  float x[] = {1.9f, -1.9f, 300.0f, -300.0f, NAN, INFINITY, -0.5f};
  int8_t expect[] = {1, -1, 127, -128, 0, 127, 0};
  wc_tensor in[1] = {vec(WC_FLOAT, 7, x)};
  check1d(k, in, 7, expect);
}

static void test_int_to_int_cast_wraps(void **state) {
  (void)state;
  prog p = {0};
  emit(&p, WC_OP_CAST, WC_UINT8, input(&p, WC_INT32), 0, 0);
  const wc_kernel *k = finish(&p, WC_KIND_ELEMENTWISE);
  int32_t x[] = {256, 257, -1, 1000};
  uint8_t expect[] = {0, 1, 255, 232};
  wc_tensor in[1] = {vec(WC_INT32, 4, x)};
  check1d(k, in, 4, expect);
}

static void test_cast_to_bool_is_nonzero_and_nan_is_true(void **state) {
  (void)state;
  prog p = {0};
  emit(&p, WC_OP_CAST, WC_BOOL, input(&p, WC_DOUBLE), 0, 0);
  const wc_kernel *k = finish(&p, WC_KIND_ELEMENTWISE);
  double x[] = {0.0, -0.0, NAN, 2.5};
  bool expect[] = {false, false, true, true};
  wc_tensor in[1] = {vec(WC_DOUBLE, 4, x)};
  check1d(k, in, 4, expect);
}

static void test_leaky_relu_runs_as_one_program(void **state) {
  (void)state;
  prog p = {0};
  int x = input(&p, WC_FLOAT);
  int zero = constant(&p, WC_FLOAT, 0);
  int slope = constant(&p, WC_FLOAT, 0x3c23d70a);      /* 0.01f */
  int gt = emit(&p, WC_OP_GT, WC_BOOL, x, zero, 0);
  int mul = emit(&p, WC_OP_MUL, WC_FLOAT, x, slope, 0);
  emit(&p, WC_OP_WHERE, WC_FLOAT, gt, x, mul);
  const wc_kernel *k = finish(&p, WC_KIND_ELEMENTWISE);
  float v[] = {2.0f, -2.0f, 0.0f, -0.0f}, expect[4];
  for (int i = 0; i < 4; i++) expect[i] = v[i] > 0 ? v[i] : v[i] * 0.01f;
  wc_tensor in[1] = {vec(WC_FLOAT, 4, v)};
  check1d(k, in, 4, expect);
}

static void test_string_and_complex_compare_for_equality(void **state) {
  (void)state;
  prog p = {0};
  int a = input(&p, WC_STRING), b = input(&p, WC_STRING);
  int e = emit(&p, WC_OP_EQ, WC_BOOL, a, b, 0);
  int c = input(&p, WC_COMPLEX64), d = input(&p, WC_COMPLEX64);
  int f = emit(&p, WC_OP_NE, WC_BOOL, c, d, 0);
  emit(&p, WC_OP_AND, WC_BOOL, e, f, 0);
  const wc_kernel *k = finish(&p, WC_KIND_ELEMENTWISE);
  const char *s1[] = {"a", "", "x"}, *s2[] = {"a", "", "y"};
  wc_complex64 c1[] = {{1, 2}, {0, 0}, {1, 1}}, c2[] = {{1, 3}, {-0.0f, 0}, {1, 1}};
  bool expect[] = {true, false, false};
  wc_tensor in[4] = {vec(WC_STRING, 3, s1), vec(WC_STRING, 3, s2), vec(WC_COMPLEX64, 3, c1),
                     vec(WC_COMPLEX64, 3, c2)};
  check1d(k, in, 3, expect);
}

static void test_argwhere_of_an_expression_lists_its_true_elements(void **state) {
  (void)state;
  prog p = {0};
  int x = input(&p, WC_INT16);
  emit(&p, WC_OP_GT, WC_BOOL, x, constant(&p, WC_INT16, 2), 0);
  const wc_kernel *k = finish(&p, WC_KIND_ARGWHERE);
  int16_t v[] = {1, 5, 3, 0, 9, 2};
  wc_tensor in = vec(WC_INT16, 6, v);
  in.rank = 2; in.shape[0] = 2; in.shape[1] = 3;
  int64_t got[12], ref[12], expect[] = {0, 1, 0, 2, 1, 1};
  wc_tensor o1 = vec(WC_INT64, 12, got), o2 = vec(WC_INT64, 12, ref);
  assert_int_equal(wc_interpret(k, &in, 1, &o1), WC_OK);
  assert_int_equal(wc_ref_run(k, &in, 1, &o2), WC_OK);
  assert_int_equal(o1.rank, 2);
  assert_int_equal(o1.shape[0], 3);
  assert_int_equal(o1.shape[1], 2);
  assert_memory_equal(got, expect, sizeof expect);
  assert_memory_equal(ref, expect, sizeof expect);
}

/* ---- values uniform across a block (constants, broadcast operands) -------- */

/* Runs k on inputs whose shapes broadcast to [n] (n spans several blocks)
   through the interpreter and the reference; the outputs must match bit for bit. */
static void check_against_reference(const wc_kernel *k, wc_tensor *in, int64_t n) {
  wc_tensor got = tl_alloc(k->out_dtype, 1, &n), ref = tl_alloc(k->out_dtype, 1, &n);
  assert_int_equal(wc_interpret(k, in, k->n_inputs, &got), WC_OK);
  assert_int_equal(wc_ref_run(k, in, k->n_inputs, &ref), WC_OK);
  assert_int_equal(tl_first_difference(k->out_dtype, got.data, ref.data, n), -1);
  tl_free(&got);
  tl_free(&ref);
}

static void test_where_on_a_scalar_condition_copies_the_chosen_operand(void **state) {
  (void)state;
  prog p = {0};
  int c = input(&p, WC_BOOL), x = input(&p, WC_FLOAT), y = input(&p, WC_FLOAT);
  emit(&p, WC_OP_WHERE, WC_FLOAT, c, x, y);
  const wc_kernel *k = finish(&p, WC_KIND_ELEMENTWISE);
  const int64_t n = 2500, one = 1;
  tl_rng r = {42};
  wc_tensor in[3] = {tl_alloc(WC_BOOL, 1, &one), tl_alloc(WC_FLOAT, 1, &n), tl_alloc(WC_FLOAT, 1, &n)};
  tl_fill(&r, &in[1], 0.5);
  tl_fill(&r, &in[2], 0.5);
  static const uint8_t conds[] = {0, 1, 2, 0x80};      /* any non-zero byte is true */
  for (int i = 0; i < 4; i++) {
    memcpy(in[0].data, &conds[i], 1);
    check_against_reference(k, in, n);
  }
  for (int i = 0; i < 3; i++) tl_free(&in[i]);
}

static void test_uniform_operand_keeps_its_side_of_a_binary_operation(void **state) {
  (void)state;
  /* s - x and x - s, with s a broadcast scalar: the uniform side moves into a
     register, and which operand is a matters (order, and a's NaN wins) */
  for (int s_first = 0; s_first < 2; s_first++) {
    prog p = {0};
    int s = input(&p, WC_FLOAT), x = input(&p, WC_FLOAT);
    emit(&p, WC_OP_SUB, WC_FLOAT, s_first ? s : x, s_first ? x : s, 0);
    const wc_kernel *k = finish(&p, WC_KIND_ELEMENTWISE);
    const int64_t n = 1500, one = 1;
    wc_tensor in[2] = {tl_alloc(WC_FLOAT, 1, &one), tl_alloc(WC_FLOAT, 1, &n)};
    tl_rng r = {7};
    tl_fill(&r, &in[1], 0.5);
    float scalars[] = {3.0f, -0.0f};
    uint32_t nan_bits = 0x7fa00001u;                   /* a signalling NaN with a payload */
    for (int i = 0; i < 3; i++) {
      if (i < 2) memcpy(in[0].data, &scalars[i], 4);
      else memcpy(in[0].data, &nan_bits, 4);
      check_against_reference(k, in, n);
    }
    tl_free(&in[0]);
    tl_free(&in[1]);
  }
}

static void test_expression_of_broadcast_operands_alone_is_computed_once_per_block(void **state) {
  (void)state;
  /* where(s > 0, s * 2, -s) with s broadcast, beside a full-size input that gives the shape */
  prog p = {0};
  int s = input(&p, WC_FLOAT), full = input(&p, WC_FLOAT);
  int zero = constant(&p, WC_FLOAT, 0), two = constant(&p, WC_FLOAT, 0x40000000);
  int gt = emit(&p, WC_OP_GT, WC_BOOL, s, zero, 0);
  int dbl = emit(&p, WC_OP_MUL, WC_FLOAT, s, two, 0);
  int neg = emit(&p, WC_OP_NEG, WC_FLOAT, s, 0, 0);
  int w = emit(&p, WC_OP_WHERE, WC_FLOAT, gt, dbl, neg);
  emit(&p, WC_OP_MAX, WC_FLOAT, w, full, 0);
  const wc_kernel *k = finish(&p, WC_KIND_ELEMENTWISE);
  const int64_t n = 2100, one = 1;
  wc_tensor in[2] = {tl_alloc(WC_FLOAT, 1, &one), tl_alloc(WC_FLOAT, 1, &n)};
  tl_rng r = {9};
  tl_fill(&r, &in[1], 0.5);
  float scalars[] = {1.5f, -2.0f, -0.0f};
  for (int i = 0; i < 3; i++) {
    memcpy(in[0].data, &scalars[i], 4);
    check_against_reference(k, in, n);
  }
  tl_free(&in[0]);
  tl_free(&in[1]);
}

/* ---- random programs ------------------------------------------------------ */

static const wc_dtype numeric[] = {WC_INT8, WC_INT16, WC_INT32, WC_INT64, WC_UINT8, WC_UINT16,
                                   WC_UINT32, WC_UINT64, WC_FLOAT, WC_DOUBLE, WC_FLOAT16, WC_BFLOAT16};
#define N_NUMERIC ((int)(sizeof numeric / sizeof *numeric))

typedef struct gen {
  tl_rng *r;
  prog   *p;
  int     input_of[17];                                /* instruction of the input of each dtype */
} gen;

static int leaf(gen *g, wc_dtype t) {
  if (tl_below(g->r, 4) == 0 && t != WC_STRING && t != WC_COMPLEX64 && t != WC_COMPLEX128) {
    uint64_t bits = tl_next(g->r);
    if (t == WC_BOOL) bits &= 1;
    return constant(g->p, t, bits);
  }
  if (g->input_of[t] < 0 && g->p->n_params < MAX_PARAMS) g->input_of[t] = input(g->p, t);
  return g->input_of[t] >= 0 ? g->input_of[t] : constant(g->p, t, 0);
}

/* A random expression of dtype t, depth-bounded, emitted in SSA order. */
static int expr(gen *g, wc_dtype t, int depth) {
  if (depth == 0 || tl_below(g->r, 5) == 0 || g->p->n > MAX_INSTRS - 16) return leaf(g, t);
  int choice = (int)tl_below(g->r, 4);
  if (choice == 0) {                                    /* where */
    int c = expr(g, WC_BOOL, depth - 1), a = expr(g, t, depth - 1), b = expr(g, t, depth - 1);
    return emit(g->p, WC_OP_WHERE, t, c, a, b);
  }
  if (t == WC_BOOL) {
    if (choice == 1) {
      wc_dtype u = numeric[tl_below(g->r, N_NUMERIC)];
      int a = expr(g, u, depth - 1), b = expr(g, u, depth - 1);
      return emit(g->p, (wc_opcode)(WC_OP_EQ + tl_below(g->r, 6)), WC_BOOL, a, b, 0);
    }
    if (choice == 2) {
      int a = expr(g, WC_BOOL, depth - 1);
      if (tl_below(g->r, 3) == 0) return emit(g->p, WC_OP_NOT, WC_BOOL, a, 0, 0);
      int b = expr(g, WC_BOOL, depth - 1);
      return emit(g->p, tl_below(g->r, 2) ? WC_OP_AND : WC_OP_OR, WC_BOOL, a, b, 0);
    }
    wc_dtype u = numeric[tl_below(g->r, N_NUMERIC)];
    return emit(g->p, WC_OP_CAST, WC_BOOL, expr(g, u, depth - 1), 0, 0);
  }
  if (t == WC_STRING || t == WC_COMPLEX64 || t == WC_COMPLEX128) return leaf(g, t);
  if (choice == 1) {                                    /* binary arithmetic */
    static const wc_opcode ops[] = {WC_OP_ADD, WC_OP_SUB, WC_OP_MUL, WC_OP_DIV, WC_OP_MIN, WC_OP_MAX};
    int a = expr(g, t, depth - 1), b = expr(g, t, depth - 1);
    return emit(g->p, ops[tl_below(g->r, 6)], t, a, b, 0);
  }
  if (choice == 2) {
    int a = expr(g, t, depth - 1);
    if ((t == WC_FLOAT || t == WC_FLOAT16 || t == WC_BFLOAT16) && tl_below(g->r, 3) == 0)
      return emit(g->p, WC_OP_EXP, t, a, 0, 0);         /* exp: the float types only */
    return emit(g->p, tl_below(g->r, 2) ? WC_OP_NEG : WC_OP_ABS, t, a, 0, 0);
  }
  wc_dtype u = tl_below(g->r, 4) == 0 ? WC_BOOL : numeric[tl_below(g->r, N_NUMERIC)];
  return emit(g->p, WC_OP_CAST, t, expr(g, u, depth - 1), 0, 0);
}

/* Runs one random program on random broadcast shapes, interpreter vs reference. */
static void run_random_program(tl_rng *r, int trial) {
  prog p = {0};
  gen g = {r, &p, {0}};
  for (int i = 0; i < 17; i++) g.input_of[i] = -1;
  wc_dtype out_t = tl_below(r, 6) == 0 ? WC_BOOL : numeric[tl_below(r, N_NUMERIC)];
  if (trial % 17 == 0) out_t = (wc_dtype)(trial % 3 == 0 ? WC_STRING : WC_COMPLEX128);
  expr(&g, out_t, 1 + (int)tl_below(r, 5));
  if (p.n_params == 0) input(&p, WC_BOOL);              /* at least one input to give a shape */
  const wc_kernel *k = finish(&p, WC_KIND_ELEMENTWISE);

  int orank = (int)tl_below(r, 5);
  int64_t oshape[WC_MAX_RANK];
  for (int d = 0; d < orank; d++) oshape[d] = tl_below(r, 8) == 0 ? 0 : 1 + tl_below(r, 6);
  if (trial % 50 == 1) { orank = 1; oshape[0] = 1000 + tl_below(r, 700); }  /* several blocks */
  wc_tensor in[MAX_PARAMS];
  int full = (int)tl_below(r, p.n_params);
  for (int i = 0; i < p.n_params; i++) {
    int64_t s[WC_MAX_RANK];
    int rank = i == full ? orank : (int)tl_below(r, orank + 1);
    for (int d = 0; d < rank; d++) {
      s[d] = oshape[orank - rank + d];
      if (i != full && tl_below(r, 3) == 0) s[d] = 1;
    }
    in[i] = tl_alloc(p.params[i].dtype, rank, s);
    tl_fill(r, &in[i], 0.5);
  }
  wc_tensor got = tl_alloc(k->out_dtype, orank, oshape), ref = tl_alloc(k->out_dtype, orank, oshape);
  assert_int_equal(wc_interpret(k, in, p.n_params, &got), WC_OK);
  assert_int_equal(wc_ref_run(k, in, p.n_params, &ref), WC_OK);
  int64_t n = tl_count(orank, oshape);
  int64_t at = tl_first_difference(k->out_dtype, got.data, ref.data, n);
  if (at >= 0) {
    fprintf(stderr, "trial %d: program of %d instructions, output %s, element %lld differs\n",
            trial, p.n, wc_dtype_name(k->out_dtype), (long long)at);
    for (int i = 0; i < p.n; i++)
      fprintf(stderr, "  %%%d = op %d %s (%d, %d, %d) bits %llx\n", i, p.ins[i].op,
              wc_dtype_name((wc_dtype)p.ins[i].dtype), p.ins[i].a, p.ins[i].b, p.ins[i].c,
              (unsigned long long)p.ins[i].bits[0]);
    fail();
  }
  for (int i = 0; i < p.n_params; i++) tl_free(&in[i]);
  tl_free(&got);
  tl_free(&ref);
}

static void test_random_programs_match_reference(void **state) {
  (void)state;
  tl_rng rng = {0xfeedface12345678u};
  for (int trial = 0; trial < 3000; trial++) run_random_program(&rng, trial);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_integer_add_sub_mul_wrap_modulo_2_to_the_bits),
    cmocka_unit_test(test_integer_division_truncates_and_x_over_zero_is_zero),
    cmocka_unit_test(test_int64_min_over_minus_one_and_abs_of_min_stay_min),
    cmocka_unit_test(test_unsigned_negation_wraps),
    cmocka_unit_test(test_comparisons_with_nan_are_false_except_not_equal),
    cmocka_unit_test(test_min_and_max_return_nan_if_either_side_is_nan),
    cmocka_unit_test(test_float16_rounds_each_operation_to_nearest_even),
    cmocka_unit_test(test_bfloat16_multiplies_in_float_and_rounds),
    cmocka_unit_test(test_float_to_int_cast_truncates_saturates_and_maps_nan_to_zero),
    cmocka_unit_test(test_int_to_int_cast_wraps),
    cmocka_unit_test(test_cast_to_bool_is_nonzero_and_nan_is_true),
    cmocka_unit_test(test_leaky_relu_runs_as_one_program),
    cmocka_unit_test(test_string_and_complex_compare_for_equality),
    cmocka_unit_test(test_argwhere_of_an_expression_lists_its_true_elements),
    cmocka_unit_test(test_where_on_a_scalar_condition_copies_the_chosen_operand),
    cmocka_unit_test(test_uniform_operand_keeps_its_side_of_a_binary_operation),
    cmocka_unit_test(test_expression_of_broadcast_operands_alone_is_computed_once_per_block),
    cmocka_unit_test(test_random_programs_match_reference),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
