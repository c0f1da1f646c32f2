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
  tl_assert_status(wc_interpret(k, in, k->n_inputs, &o1), WC_OK);
  tl_assert_status(wc_ref_run(k, in, k->n_inputs, &o2), WC_OK);
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
    tl_assert_status(wc_interpret(k, in, 2, &o1), WC_OK);
    tl_assert_status(wc_ref_run(k, in, 2, &o2), WC_OK);
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

/* A bool byte other than 0 and 1 (a runtime's own bools, a mask from bytes) is
   true, and is read as 1 wherever its value shows: cast to int32, compared
   with true, and-ed with true. */
static void test_a_bool_byte_other_than_0_or_1_reads_as_true(void **state) {
  (void)state;
  uint8_t   c[] = {0, 1, 2, 0x80, 0xff}, ones[] = {1, 1, 1, 1, 1};
  wc_tensor in[2] = {vec(WC_BOOL, 5, c), vec(WC_BOOL, 5, ones)};
  prog      p = {0};
  emit(&p, WC_OP_CAST, WC_INT32, input(&p, WC_BOOL), 0, 0);
  const int32_t as_int[] = {0, 1, 1, 1, 1};
  check1d(finish(&p, WC_KIND_ELEMENTWISE), in, 5, as_int);
  const bool expect[] = {false, true, true, true, true};
  for (int op = 0; op < 2; op++) {
    prog q = {0};
    int  a = input(&q, WC_BOOL), b = input(&q, WC_BOOL);
    emit(&q, op ? WC_OP_AND : WC_OP_EQ, WC_BOOL, a, b, 0);
    check1d(finish(&q, WC_KIND_ELEMENTWISE), in, 5, expect);
  }
}

/* An instruction's operand fields past its arity hold no index and are not
   read: a shift (arity 2) whose third field is garbage runs as any other. */
static void test_operand_fields_past_an_instructions_arity_are_not_read(void **state) {
  (void)state;
  prog p = {0};
  int  a = input(&p, WC_INT32), b = input(&p, WC_INT32);
  emit(&p, WC_OP_SHL, WC_INT32, a, b, 0xffff);
  int32_t   x[] = {1, 3, -1, 5}, n[] = {0, 4, 31, 1};
  int32_t   expect[] = {1, 48, INT32_MIN, 10};
  wc_tensor in[2] = {vec(WC_INT32, 4, x), vec(WC_INT32, 4, n)};
  check1d(finish(&p, WC_KIND_ELEMENTWISE), in, 4, expect);
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
  tl_assert_status(wc_interpret(k, &in, 1, &o1), WC_OK);
  tl_assert_status(wc_ref_run(k, &in, 1, &o2), WC_OK);
  assert_int_equal(o1.rank, 2);
  assert_int_equal(o1.shape[0], 3);
  assert_int_equal(o1.shape[1], 2);
  assert_memory_equal(got, expect, sizeof expect);
  assert_memory_equal(ref, expect, sizeof expect);
}

/* ---- values uniform across a block (constants, broadcast operands) -------- */

/* A program of one operation (binary or unary) on inputs of dtype t. */
static const wc_kernel *op_program(prog *p, wc_opcode op, wc_dtype t, bool binary) {
  int a = input(p, t), b = binary ? input(p, t) : 0;
  emit(p, op, t, a, b, 0);
  return finish(p, WC_KIND_ELEMENTWISE);
}

static void test_remainder_takes_the_divisors_sign_and_fmod_the_dividends(void **state) {
  (void)state;
  int32_t x[] = {-7, 7, -7, 7, 6, -6}, y[] = {3, -3, -3, 3, 3, 3};
  int32_t mod[] = {2, -2, -1, 1, 0, 0}, fmod_[] = {-1, 1, -1, 1, 0, 0};
  wc_tensor in[2] = {vec(WC_INT32, 6, x), vec(WC_INT32, 6, y)};
  prog p1 = {0}, p2 = {0};
  check1d(op_program(&p1, WC_OP_MOD, WC_INT32, true), in, 6, mod);
  check1d(op_program(&p2, WC_OP_FMOD, WC_INT32, true), in, 6, fmod_);
}

static void test_remainder_by_zero_is_zero_and_min_by_minus_one_is_zero(void **state) {
  (void)state;
  int64_t x[] = {5, -5, INT64_MIN, INT64_MIN, INT64_MAX}, y[] = {0, 0, -1, 0, -1};
  int64_t zero[] = {0, 0, 0, 0, 0};
  int8_t  x8[] = {-128, -128, 127, -1}, y8[] = {-1, 0, 0, -128}, r8[] = {0, 0, 0, -1};
  uint16_t xu[] = {7, 65535, 0}, yu[] = {0, 0, 0}, ru[] = {0, 0, 0};
  wc_tensor in[2] = {vec(WC_INT64, 5, x), vec(WC_INT64, 5, y)};
  wc_tensor in8[2] = {vec(WC_INT8, 4, x8), vec(WC_INT8, 4, y8)};
  wc_tensor inu[2] = {vec(WC_UINT16, 3, xu), vec(WC_UINT16, 3, yu)};
  prog p1 = {0}, p2 = {0}, p3 = {0}, p4 = {0}, p5 = {0};
  check1d(op_program(&p1, WC_OP_MOD, WC_INT64, true), in, 5, zero);
  check1d(op_program(&p2, WC_OP_FMOD, WC_INT64, true), in, 5, zero);
  check1d(op_program(&p3, WC_OP_MOD, WC_INT8, true), in8, 4, r8);   /* -1 % -128 == -1 */
  check1d(op_program(&p4, WC_OP_FMOD, WC_INT8, true), in8, 4, r8);
  check1d(op_program(&p5, WC_OP_MOD, WC_UINT16, true), inu, 3, ru);
}

static void test_unsigned_remainder_is_the_plain_remainder(void **state) {
  (void)state;
  uint8_t x[] = {255, 7, 200}, y[] = {16, 255, 7}, r[] = {15, 7, 4};
  wc_tensor in[2] = {vec(WC_UINT8, 3, x), vec(WC_UINT8, 3, y)};
  prog p1 = {0}, p2 = {0};
  check1d(op_program(&p1, WC_OP_MOD, WC_UINT8, true), in, 3, r);
  check1d(op_program(&p2, WC_OP_FMOD, WC_UINT8, true), in, 3, r);
}

static void test_shifts_by_counts_at_and_past_the_width_are_defined(void **state) {
  (void)state;
  /* counts 0, bits-1, bits, 200, -1 (a negative count is out of range) */
  int32_t x[] = {-5, -5, -5, -5, -5, 5, 5, 5}, n[] = {0, 31, 32, 200, -1, 31, 32, -1};
  int32_t shl[] = {-5, INT32_MIN, 0, 0, 0, INT32_MIN, 0, 0};
  int32_t shr[] = {-5, -1, -1, -1, -1, 0, 0, 0};
  uint8_t xu[] = {0x81, 0x81, 0x81, 0x81, 0x81}, nu[] = {0, 7, 8, 200, 255};
  uint8_t shlu[] = {0x81, 0x80, 0, 0, 0}, shru[] = {0x81, 1, 0, 0, 0};
  int8_t  x8[] = {-128, -128, 64, 1}, n8[] = {7, 8, 1, 7}, shl8[] = {0, 0, -128, -128};
  wc_tensor in[2] = {vec(WC_INT32, 8, x), vec(WC_INT32, 8, n)};
  wc_tensor inu[2] = {vec(WC_UINT8, 5, xu), vec(WC_UINT8, 5, nu)};
  wc_tensor in8[2] = {vec(WC_INT8, 4, x8), vec(WC_INT8, 4, n8)};
  prog p1 = {0}, p2 = {0}, p3 = {0}, p4 = {0}, p5 = {0};
  check1d(op_program(&p1, WC_OP_SHL, WC_INT32, true), in, 8, shl);
  check1d(op_program(&p2, WC_OP_SHR, WC_INT32, true), in, 8, shr);
  check1d(op_program(&p3, WC_OP_SHL, WC_UINT8, true), inu, 5, shlu);
  check1d(op_program(&p4, WC_OP_SHR, WC_UINT8, true), inu, 5, shru);
  check1d(op_program(&p5, WC_OP_SHL, WC_INT8, true), in8, 4, shl8);
}

static void test_bitwise_operations_work_on_twos_complement_bits(void **state) {
  (void)state;
  int16_t x[] = {-1, 0x0f0f, INT16_MIN}, y[] = {0x1234, 0x00ff, -1};
  int16_t band[] = {0x1234, 0x000f, INT16_MIN}, bor[] = {-1, 0x0fff, -1};
  int16_t bxor[] = {(int16_t)~0x1234, 0x0ff0, INT16_MAX}, bnot[] = {0, (int16_t)~0x0f0f, INT16_MAX};
  wc_tensor in[2] = {vec(WC_INT16, 3, x), vec(WC_INT16, 3, y)};
  prog p1 = {0}, p2 = {0}, p3 = {0}, p4 = {0};
  check1d(op_program(&p1, WC_OP_BAND, WC_INT16, true), in, 3, band);
  check1d(op_program(&p2, WC_OP_BOR, WC_INT16, true), in, 3, bor);
  check1d(op_program(&p3, WC_OP_BXOR, WC_INT16, true), in, 3, bxor);
  check1d(op_program(&p4, WC_OP_BNOT, WC_INT16, false), in, 3, bnot);
}

/* float bits of the examples below */
#define F_NAN_CANON 0x7fc00000u /* the canonical quiet NaN of invalid operations */
#define F_NEG_ZERO  0x80000000u
#define F_INF       0x7f800000u

static void test_float_fmod_is_exact_with_the_dividends_sign(void **state) {
  (void)state;
  /* 1e30f is 3 * 2^99 * ...: a multiple of 3; 3 mod 1e-30f needs 100 binades
     of reduction; a subnormal dividend below the divisor is itself */
  float x[] = {-7.0f, 7.0f, 5.5f, -0.0f, 1e30f, 3.0f, 6.0f, -6.0f, 0x1p-149f};
  float y[] = {3.0f, -3.0f, 2.0f, 1.0f, 3.0f, 1e-30f, 3.0f, 3.0f, 0x1p-148f};
  float r[] = {-1.0f, 1.0f, 1.5f, -0.0f, 0.0f, 0x1.d78ap-103f, 0.0f, -0.0f, 0x1p-149f};
  wc_tensor in[2] = {vec(WC_FLOAT, 9, x), vec(WC_FLOAT, 9, y)};
  prog p = {0};
  check1d(op_program(&p, WC_OP_FMOD, WC_FLOAT, true), in, 9, r);
}

static void test_fmod_of_infinity_or_by_zero_is_the_canonical_nan_and_by_infinity_is_x(void **state) {
  (void)state;
  uint32_t x[] = {F_INF, 0x3f800000u, 0xc0400000u, F_NEG_ZERO, 0xffc00001u, 0x3f800000u, 0x7f800001u};
  uint32_t y[] = {0x40000000u, 0, F_INF, 0xff800000u, 0x7fc12345u, 0x7fc12345u, 0x3f800000u};
  uint32_t r[] = {F_NAN_CANON, F_NAN_CANON, 0xc0400000u, F_NEG_ZERO, 0xffc00001u, 0x7fc12345u,
                  0x7fc00001u};
  wc_tensor in[2] = {vec(WC_FLOAT, 7, x), vec(WC_FLOAT, 7, y)};
  prog p = {0};
  check1d(op_program(&p, WC_OP_FMOD, WC_FLOAT, true), in, 7, r);
}

static void test_round_is_half_to_even_and_rounding_keeps_negative_zero(void **state) {
  (void)state;
  float x[] = {2.5f, 3.5f, -0.5f, 0.5f, -2.5f, 0.49999997f, -1.5f, -0.0f, 8388609.0f, 1.5f};
  float round_[] = {2.0f, 4.0f, -0.0f, 0.0f, -2.0f, 0.0f, -2.0f, -0.0f, 8388609.0f, 2.0f};
  float floor_[] = {2.0f, 3.0f, -1.0f, 0.0f, -3.0f, 0.0f, -2.0f, -0.0f, 8388609.0f, 1.0f};
  float ceil_[] = {3.0f, 4.0f, -0.0f, 1.0f, -2.0f, 1.0f, -1.0f, -0.0f, 8388609.0f, 2.0f};
  float trunc_[] = {2.0f, 3.0f, -0.0f, 0.0f, -2.0f, 0.0f, -1.0f, -0.0f, 8388609.0f, 1.0f};
  wc_tensor in[1] = {vec(WC_FLOAT, 10, x)};
  prog p1 = {0}, p2 = {0}, p3 = {0}, p4 = {0};
  check1d(op_program(&p1, WC_OP_ROUND, WC_FLOAT, false), in, 10, round_);
  check1d(op_program(&p2, WC_OP_FLOOR, WC_FLOAT, false), in, 10, floor_);
  check1d(op_program(&p3, WC_OP_CEIL, WC_FLOAT, false), in, 10, ceil_);
  check1d(op_program(&p4, WC_OP_TRUNC, WC_FLOAT, false), in, 10, trunc_);
}

static void test_rounding_quiets_a_nan_and_keeps_infinities(void **state) {
  (void)state;
  uint64_t x[] = {0x7ff0000000000001u, 0xfff8000000000123u, 0x7ff0000000000000u,
                  0xfff0000000000000u, 0x8000000000000000u};
  uint64_t r[] = {0x7ff8000000000001u, 0xfff8000000000123u, 0x7ff0000000000000u,
                  0xfff0000000000000u, 0x8000000000000000u};
  wc_tensor in[1] = {vec(WC_DOUBLE, 5, x)};
  wc_opcode ops[] = {WC_OP_FLOOR, WC_OP_CEIL, WC_OP_ROUND, WC_OP_TRUNC};
  for (int i = 0; i < 4; i++) {
    prog p = {0};
    check1d(op_program(&p, ops[i], WC_DOUBLE, false), in, 5, r);
  }
}

static void test_sqrt_is_correctly_rounded_and_pins_its_nans(void **state) {
  (void)state;
  /* 2 -> 0x3fb504f3; -0 -> -0; -1 and -inf -> the canonical NaN; a signalling NaN
     quieted with its sign and payload; +inf; the smallest subnormal -> 2^-74.5 */
  uint32_t x[] = {0x40000000u, F_NEG_ZERO, 0xbf800000u, 0xff800000u, 0xff800001u, F_INF,
                  0x00000001u, 0x41100000u};
  uint32_t r[] = {0x3fb504f3u, F_NEG_ZERO, F_NAN_CANON, F_NAN_CANON, 0xffc00001u, F_INF,
                  0x1a3504f3u, 0x40400000u};
  wc_tensor in[1] = {vec(WC_FLOAT, 8, x)};
  prog p = {0};
  check1d(op_program(&p, WC_OP_SQRT, WC_FLOAT, false), in, 8, r);
  double xd[] = {2.0, -1.0, 0x1p-1074}, rd[3];
  memcpy(&rd[1], &(uint64_t){0x7ff8000000000000u}, 8);
  rd[0] = 0x1.6a09e667f3bcdp+0;
  rd[2] = 0x1p-537;
  wc_tensor ind[1] = {vec(WC_DOUBLE, 3, xd)};
  prog pd = {0};
  check1d(op_program(&pd, WC_OP_SQRT, WC_DOUBLE, false), ind, 3, rd);
}

/* inf - inf, inf + -inf, 0 * inf, 0 / 0, inf / inf: the canonical NaN, on every CPU
   (x86's default NaN is negative, ARM's positive); a NaN operand still wins. */
static void test_invalid_arithmetic_gives_the_canonical_nan_not_the_cpus(void **state) {
  (void)state;
  uint32_t x[] = {F_INF, F_INF, 0, 0, F_INF, 0x7fa00001u, 0x3f800000u};
  uint32_t y[] = {F_INF, 0xff800000u, F_INF, 0, F_INF, F_INF, 0xffc00002u};
  uint32_t sub[] = {F_NAN_CANON, F_INF, 0xff800000u, 0, F_NAN_CANON, 0x7fe00001u, 0xffc00002u};
  uint32_t add[] = {F_INF, F_NAN_CANON, F_INF, 0, F_INF, 0x7fe00001u, 0xffc00002u};
  uint32_t mul[] = {F_INF, 0xff800000u, F_NAN_CANON, 0, F_INF, 0x7fe00001u, 0xffc00002u};
  uint32_t div[] = {F_NAN_CANON, F_NAN_CANON, 0, F_NAN_CANON, F_NAN_CANON, 0x7fe00001u,
                    0xffc00002u};
  wc_tensor in[2] = {vec(WC_FLOAT, 7, x), vec(WC_FLOAT, 7, y)};
  prog p1 = {0}, p2 = {0}, p3 = {0}, p4 = {0};
  check1d(op_program(&p1, WC_OP_SUB, WC_FLOAT, true), in, 7, sub);
  check1d(op_program(&p2, WC_OP_ADD, WC_FLOAT, true), in, 7, add);
  check1d(op_program(&p3, WC_OP_MUL, WC_FLOAT, true), in, 7, mul);
  check1d(op_program(&p4, WC_OP_DIV, WC_FLOAT, true), in, 7, div);
  double xd[] = {0.0, 1.0}, yd[] = {0.0, 0.0}, rd[2];
  memcpy(&rd[0], &(uint64_t){0x7ff8000000000000u}, 8);
  rd[1] = 1.0 / 0.0 * 1.0;
  wc_tensor ind[2] = {vec(WC_DOUBLE, 2, xd), vec(WC_DOUBLE, 2, yd)};
  prog pd = {0};
  check1d(op_program(&pd, WC_OP_DIV, WC_DOUBLE, true), ind, 2, rd);
  uint16_t hx[] = {0x7c00, 0x0000}, hy[] = {0x7c00, 0x7c00}, hsub[] = {0x7e00, 0xfc00};
  uint16_t bx[] = {0x0000}, by[] = {0x7f80}, bmul[] = {0x7fc0};
  wc_tensor inh[2] = {vec(WC_FLOAT16, 2, hx), vec(WC_FLOAT16, 2, hy)};
  wc_tensor inb[2] = {vec(WC_BFLOAT16, 1, bx), vec(WC_BFLOAT16, 1, by)};
  prog ph = {0}, pb = {0};
  check1d(op_program(&ph, WC_OP_SUB, WC_FLOAT16, true), inh, 2, hsub);
  check1d(op_program(&pb, WC_OP_MUL, WC_BFLOAT16, true), inb, 1, bmul);
}

static void test_half_precision_functions_compute_in_float_and_round(void **state) {
  (void)state;
  /* float16: sqrt(2) = 0x3da8; round(2.5) = 2; sqrt(-1) -> the canonical NaN's
     float16 (0x7e00); bfloat16: fmod(7, -3) = 1, sqrt(2) = 0x3fb5 */
  uint16_t h[] = {0x4000, 0x4100, 0xbc00}, hsq[] = {0x3da8, 0x3e53, 0x7e00};
  uint16_t hround[] = {0x4000, 0x4000, 0xbc00};
  uint16_t bx[] = {0x40e0, 0x4000}, by[] = {0xc040, 0x3f80}, bfm[] = {0x3f80, 0x0000};
  uint16_t bsq[] = {0x4029, 0x3fb5};
  wc_tensor inh[1] = {vec(WC_FLOAT16, 3, h)};
  wc_tensor inb[2] = {vec(WC_BFLOAT16, 2, bx), vec(WC_BFLOAT16, 2, by)};
  prog p1 = {0}, p2 = {0}, p3 = {0}, p4 = {0};
  check1d(op_program(&p1, WC_OP_SQRT, WC_FLOAT16, false), inh, 3, hsq);
  check1d(op_program(&p2, WC_OP_ROUND, WC_FLOAT16, false), inh, 3, hround);
  check1d(op_program(&p3, WC_OP_FMOD, WC_BFLOAT16, true), inb, 2, bfm);
  check1d(op_program(&p4, WC_OP_SQRT, WC_BFLOAT16, false), inb, 2, bsq);
}

/* Runs k on inputs whose shapes broadcast to [n] (n spans several blocks)
   through the interpreter and the reference; the outputs must match bit for bit. */
static void check_against_reference(const wc_kernel *k, wc_tensor *in, int64_t n) {
  wc_tensor got = tl_alloc(k->out_dtype, 1, &n), ref = tl_alloc(k->out_dtype, 1, &n);
  tl_assert_status(wc_interpret(k, in, k->n_inputs, &got), WC_OK);
  tl_assert_status(wc_ref_run(k, in, k->n_inputs, &ref), WC_OK);
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
  bool is_float = t == WC_FLOAT || t == WC_DOUBLE || t == WC_FLOAT16 || t == WC_BFLOAT16;
  if (choice == 1) {                                    /* binary arithmetic */
    static const wc_opcode ops[] = {WC_OP_ADD,  WC_OP_SUB, WC_OP_MUL,  WC_OP_DIV, WC_OP_MIN,
                                    WC_OP_MAX,  WC_OP_FMOD, WC_OP_MOD, WC_OP_BAND, WC_OP_BOR,
                                    WC_OP_BXOR, WC_OP_SHL, WC_OP_SHR};
    int a = expr(g, t, depth - 1), b = expr(g, t, depth - 1);
    return emit(g->p, ops[tl_below(g->r, is_float ? 7 : 13)], t, a, b, 0); /* % & ...: integers */
  }
  if (choice == 2) {
    static const wc_opcode ops[] = {WC_OP_NEG,   WC_OP_ABS,  WC_OP_FLOOR, WC_OP_CEIL,
                                    WC_OP_ROUND, WC_OP_TRUNC, WC_OP_SQRT};
    int a = expr(g, t, depth - 1);
    if (is_float && tl_below(g->r, 4) == 0 && t != WC_DOUBLE)
      return emit(g->p, WC_OP_EXP, t, a, 0, 0);         /* exp: float, float16, bfloat16 */
    if (!is_float) return emit(g->p, tl_below(g->r, 3) ? (tl_below(g->r, 2) ? WC_OP_NEG : WC_OP_ABS)
                                                        : WC_OP_BNOT, t, a, 0, 0);
    return emit(g->p, ops[tl_below(g->r, 7)], t, a, 0, 0);
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
  tl_assert_status(wc_interpret(k, in, p.n_params, &got), WC_OK);
  tl_assert_status(wc_ref_run(k, in, p.n_params, &ref), WC_OK);
  int64_t n = tl_count(orank, oshape);
  int64_t at = tl_first_difference(k->out_dtype, got.data, ref.data, n);
  if (at >= 0) {
    fprintf(stderr, "trial %d: program of %d instructions, output %s, element %lld differs\n",
            trial, p.n, wc_dtype_name(k->out_dtype), (long long)at);
    for (int i = 0; i < p.n; i++)
      fprintf(stderr, "  %%%d = %s %s (%d, %d, %d) bits %llx\n", i, tl_op_name(p.ins[i].op),
              wc_dtype_name((wc_dtype)p.ins[i].dtype), p.ins[i].a, p.ins[i].b, p.ins[i].c,
              (unsigned long long)p.ins[i].bits[0]);
    fail();
  }
  for (int i = 0; i < p.n_params; i++) tl_free(&in[i]);
  tl_free(&got);
  tl_free(&ref);
}

/* ---- which operations a program may apply to which dtypes ------------------ */

/* The pairs the operation table defines (include/wherec/operations.h: its domain column,
   and wc_cast_defined for casts): t is the operands' dtype, to a cast's target. That sema,
   the runtime's checks and the interpreter accept the same pairs is test_operation_table's;
   this test runs each pair and compares its bytes with the reference. */
static bool defined_on(wc_opcode op, wc_dtype t, wc_dtype to) {
  return op == WC_OP_CAST ? wc_cast_defined(t, to) : wc_op_defined(op, t);
}

/* One operation on inputs of dtype t (a where's condition bool), giving `to`
   for a cast, bool for a comparison or logic, t otherwise. */
static const wc_kernel *one_op(prog *p, wc_opcode op, wc_dtype t, wc_dtype to) {
  memset(p, 0, sizeof *p);
  bool boolean = op == WC_OP_OR || op == WC_OP_AND || op == WC_OP_NOT ||
                 (op >= WC_OP_EQ && op <= WC_OP_GE);
  wc_dtype r = op == WC_OP_CAST ? to : boolean ? WC_BOOL : t;
  int a = input(p, op == WC_OP_WHERE ? WC_BOOL : t);
  int b = wc_op_arity(op) >= 2 ? input(p, t) : 0, c = wc_op_arity(op) >= 3 ? input(p, t) : 0;
  if (wc_op_reduces(op)) b = 1; /* a row reduction: rows of the last axis */
  emit(p, op, r, a, b, c);
  return finish(p, WC_KIND_ELEMENTWISE);
}

/* Every operation on every dtype (and every cast): the interpreter runs each
   defined one, writing every output byte (two runs over two canaries agree)
   and the reference's bytes, and refuses each other one, writing nothing. */
static void test_each_operation_runs_on_the_dtypes_it_is_defined_on_and_no_other(void **state) {
  (void)state;
  enum { N_ALL = TL_N_DTYPES, N = 37 };
  const wc_dtype *all = tl_all_dtypes;
  tl_rng  rng = {0x0b5e55ed};
  int     accepted = 0;
  int64_t shape[1] = {N};
  for (int op = WC_OP_WHERE; op < WC_OP_COUNT_; op++)
    for (int i = 0; i < N_ALL; i++)
      for (int j = 0; j < (op == WC_OP_CAST ? N_ALL : 1); j++) {
        prog             p;
        wc_dtype         t = all[i], to = op == WC_OP_CAST ? all[j] : t;
        const wc_kernel *k = one_op(&p, (wc_opcode)op, t, to);
        wc_tensor        in[3], got[2], ref = tl_alloc(k->out_dtype, 1, shape);
        for (int q = 0; q < p.n_params; q++) {
          in[q] = tl_alloc(p.params[q].dtype, 1, shape);
          tl_fill(&rng, &in[q], 0.5);
        }
        bool defined = defined_on((wc_opcode)op, t, to);
        for (int run = 0; run < 2; run++) {
          got[run] = tl_alloc(k->out_dtype, 1, shape);
          memset(got[run].data, run ? 0x5a : 0xa5, tl_bytes(&got[run]));
          wc_status st = wc_interpret(k, in, p.n_params, &got[run]);
          if (st != (defined ? WC_OK : WC_E_ARG))
            fail_msg("%s on %s (to %s): %s, expected %s", tl_op_name(op), wc_dtype_name(t),
                     wc_dtype_name(to), tl_status_name(st), defined ? "WC_OK" : "WC_E_ARG");
          if (!defined)
            for (size_t b = 0; b < tl_bytes(&got[run]); b++)
              if (((unsigned char *)got[run].data)[b] != (run ? 0x5a : 0xa5))
                fail_msg("%s on %s (to %s): refused, but wrote output byte %zu", tl_op_name(op),
                         wc_dtype_name(t), wc_dtype_name(to), b);
        }
        if (defined) {
          accepted++;
          tl_assert_status(wc_ref_run(k, in, p.n_params, &ref), WC_OK);
          if (tl_first_difference(k->out_dtype, got[0].data, got[1].data, N) >= 0)
            fail_msg("%s on %s (to %s): two runs over different canaries differ", tl_op_name(op),
                     wc_dtype_name(t), wc_dtype_name(to));
          if (tl_first_difference(k->out_dtype, got[0].data, ref.data, N) >= 0)
            fail_msg("%s on %s (to %s): interpreter and reference differ", tl_op_name(op),
                     wc_dtype_name(t), wc_dtype_name(to));
        }
        for (int q = 0; q < p.n_params; q++) tl_free(&in[q]);
        tl_free(&got[0]);
        tl_free(&got[1]);
        tl_free(&ref);
      }
  assert_true(accepted > 0);
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
    cmocka_unit_test(test_remainder_takes_the_divisors_sign_and_fmod_the_dividends),
    cmocka_unit_test(test_remainder_by_zero_is_zero_and_min_by_minus_one_is_zero),
    cmocka_unit_test(test_unsigned_remainder_is_the_plain_remainder),
    cmocka_unit_test(test_shifts_by_counts_at_and_past_the_width_are_defined),
    cmocka_unit_test(test_bitwise_operations_work_on_twos_complement_bits),
    cmocka_unit_test(test_float_fmod_is_exact_with_the_dividends_sign),
    cmocka_unit_test(test_fmod_of_infinity_or_by_zero_is_the_canonical_nan_and_by_infinity_is_x),
    cmocka_unit_test(test_invalid_arithmetic_gives_the_canonical_nan_not_the_cpus),
    cmocka_unit_test(test_round_is_half_to_even_and_rounding_keeps_negative_zero),
    cmocka_unit_test(test_rounding_quiets_a_nan_and_keeps_infinities),
    cmocka_unit_test(test_sqrt_is_correctly_rounded_and_pins_its_nans),
    cmocka_unit_test(test_half_precision_functions_compute_in_float_and_round),
    cmocka_unit_test(test_a_bool_byte_other_than_0_or_1_reads_as_true),
    cmocka_unit_test(test_operand_fields_past_an_instructions_arity_are_not_read),
    cmocka_unit_test(test_leaky_relu_runs_as_one_program),
    cmocka_unit_test(test_string_and_complex_compare_for_equality),
    cmocka_unit_test(test_argwhere_of_an_expression_lists_its_true_elements),
    cmocka_unit_test(test_where_on_a_scalar_condition_copies_the_chosen_operand),
    cmocka_unit_test(test_uniform_operand_keeps_its_side_of_a_binary_operation),
    cmocka_unit_test(test_expression_of_broadcast_operands_alone_is_computed_once_per_block),
    cmocka_unit_test(test_each_operation_runs_on_the_dtypes_it_is_defined_on_and_no_other),
    cmocka_unit_test(test_random_programs_match_reference),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
