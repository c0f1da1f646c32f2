/* test_rows.c: row reductions (row_sum, row_max, row_min, row_mean) in the runtime: the
   error bound of the summation order against an exact sum, NaN and empty rows, a split
   into threads that never changes a bit, and the refusals of malformed programs. The
   programs are written by hand, run by the interpreter and the reference; generated
   kernels meet the same rows in tests/gen/check/rows.where. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <wherec/wherec.h>

#include "testlib.h"

/* A program of one input x and y = op(x) over rows of the last `rows` axes. */
typedef struct prog {
  wc_param  param;
  int64_t   dims[WC_MAX_RANK];
  wc_instr  ins[2];
  wc_kernel k;
} prog;

static const wc_kernel *one_reduction(prog *p, wc_opcode op, wc_dtype t, int rows, int rank) {
  memset(p, 0, sizeof *p);
  p->param = (wc_param){"x", t, rank, p->dims, NULL};
  for (int d = 0; d < rank; d++) p->dims[d] = WC_SYM(d);
  p->ins[0] = (wc_instr){WC_OP_INPUT, (uint8_t)t, 0, 0, 0, {0, 0}};
  p->ins[1] = (wc_instr){(uint8_t)op, (uint8_t)t, 0, (uint16_t)rows, 0, {0, 0}};
  p->k = (wc_kernel){.name = "rows", .kind = WC_KIND_ELEMENTWISE, .n_inputs = 1,
                     .inputs = &p->param, .out_dtype = t, .out_rank = rank,
                     .out_dims = p->dims, .n_instrs = 2, .program = p->ins};
  return &p->k;
}

__extension__ typedef __int128 i128; /* an exact sum of floats, in fixed point */

/* v * 2^39 exactly (v a multiple of 2^-39), as an integer. */
static i128 fixed(long double v) { return (i128)ldexpl(v, 39); }

static float bits_f32(uint32_t u) {
  float f;
  memcpy(&f, &u, sizeof f);
  return f;
}

static uint32_t f32_bits(float f) {
  uint32_t u;
  memcpy(&u, &f, sizeof u);
  return u;
}

/* The bound of the order (docs/semantics.md): element i passes through at most
   ceil(n / 16) - 1 additions in its lane and 4 in the combination, so
   |sum - exact| <= gamma(ceil(n / 16) + 3) * sum |x_i|, gamma(k) = k u / (1 - k u),
   u = 2^-24. Rows of random lengths and signs, values 2^-16 to 2^17 (an exact sum in
   128-bit fixed point, 2^-39 its unit), each sum within its bound; and the bound is
   not slack by orders of magnitude: the worst row uses a fair part of it. */
static void test_row_sum_of_floats_is_within_the_bound_of_its_order(void **state) {
  (void)state;
  tl_rng rng = {0x5eed5};
  double worst = 0;
  for (int trial = 0; trial < 300; trial++) {
    int64_t n = 1 + tl_below(&rng, trial < 100 ? 40 : 5000), shape[1] = {n};
    wc_tensor x = tl_alloc(WC_FLOAT, 1, shape), y = tl_alloc(WC_FLOAT, 1, shape);
    float    *xv = x.data;
    i128      exact = 0;
    double    abs_sum = 0;
    for (int64_t i = 0; i < n; i++) {
      int   e = (int)tl_below(&rng, 33) - 16;
      float v = ldexpf(1.0f + (float)tl_below(&rng, 1 << 23) / (float)(1 << 23), e);
      if (tl_below(&rng, 2)) v = -v;
      xv[i] = v;
      exact += fixed(v);
      abs_sum += fabs((double)v);
    }
    prog p;
    tl_assert_status(wc_interpret(one_reduction(&p, WC_OP_RSUM, WC_FLOAT, 1, 1), &x, 1, &y),
                     WC_OK);
    float    got = ((float *)y.data)[0];
    i128     diff = fixed(got) - exact;
    double   err = ldexp(fabs((double)diff), -39);
    double   k = (double)((n + 15) / 16 + 3), u = ldexp(1.0, -24);
    double   bound = k * u / (1 - k * u) * abs_sum;
    if (err > bound)
      fail_msg("n=%lld: |sum - exact| = %g exceeds the bound %g", (long long)n, err, bound);
    if (bound > 0 && err / bound > worst) worst = err / bound;
    for (int64_t i = 1; i < n; i++) /* every element of the row holds the row's value */
      if (f32_bits(((float *)y.data)[i]) != f32_bits(got)) fail_msg("element %lld", (long long)i);
    tl_free(&x);
    tl_free(&y);
  }
  print_message("worst row: |sum - exact| / bound = %.3g\n", worst);
  assert_true(worst > 1e-4); /* a bound that holds, not one that nothing could reach */
}

/* The interpreter and the reference agree bit for bit on rows of every length around the
   16 lanes, for each reduction and float dtype, NaNs and infinities included. */
static void test_interpreter_and_reference_fold_rows_alike(void **state) {
  (void)state;
  static const wc_opcode ops[] = {WC_OP_RSUM, WC_OP_RMAX, WC_OP_RMIN, WC_OP_RMEAN};
  static const wc_dtype  types[] = {WC_FLOAT, WC_DOUBLE, WC_FLOAT16, WC_BFLOAT16, WC_INT32,
                                    WC_UINT8, WC_INT64};
  tl_rng                 rng = {0xf01d};
  for (size_t o = 0; o < sizeof ops / sizeof *ops; o++)
    for (size_t t = 0; t < sizeof types / sizeof *types; t++)
      for (int64_t len = 0; len <= 40; len += len < 20 ? 1 : 7) {
        if (!wc_op_defined(ops[o], types[t])) continue;
        int64_t   shape[2] = {3, len};
        wc_tensor x = tl_alloc(types[t], 2, shape), a = tl_alloc(types[t], 2, shape),
                  b = tl_alloc(types[t], 2, shape);
        tl_fill(&rng, &x, 0.5);
        prog p;
        const wc_kernel *k = one_reduction(&p, ops[o], types[t], 1, 2);
        tl_assert_status(wc_interpret(k, &x, 1, &a), WC_OK);
        tl_assert_status(wc_ref_run(k, &x, 1, &b), WC_OK);
        int64_t at = tl_first_difference(types[t], a.data, b.data, 3 * len);
        if (at >= 0)
          fail_msg("%s on %s, rows of %lld: element %lld differs", tl_op_name(ops[o]),
                   wc_dtype_name(types[t]), (long long)len, (long long)at);
        tl_free(&x);
        tl_free(&a);
        tl_free(&b);
      }
}

/* A NaN in a row: the sum is a NaN (the first of the lane order's, quieted, as + keeps
   the left NaN), the maximum the NaN element itself; a row of -inf and +inf sums to the
   canonical NaN; rows of zero elements leave an output of zero elements untouched. */
static void test_nan_inf_and_empty_rows(void **state) {
  (void)state;
  prog    p;
  int64_t shape[2] = {2, 3};
  float   xv[6] = {1.0f, bits_f32(0x7f800001u), 2.0f, -INFINITY, 1.0f, INFINITY}, yv[6];
  wc_tensor x = tl_tensor(WC_FLOAT, 2, shape, xv), y = tl_tensor(WC_FLOAT, 2, shape, yv);
  tl_assert_status(wc_interpret(one_reduction(&p, WC_OP_RSUM, WC_FLOAT, 1, 2), &x, 1, &y), WC_OK);
  assert_int_equal(f32_bits(yv[0]), 0x7fc00001u); /* the signalling NaN, quieted */
  assert_int_equal(f32_bits(yv[3]), 0x7fc00000u); /* -inf + inf: the canonical NaN */
  tl_assert_status(wc_interpret(one_reduction(&p, WC_OP_RMAX, WC_FLOAT, 1, 2), &x, 1, &y), WC_OK);
  assert_int_equal(f32_bits(yv[2]), 0x7f800001u); /* max keeps the element's bits */
  assert_true(yv[3] == INFINITY);
  int64_t   empty[2] = {4, 0};
  uint32_t  canary = 0xa5a5a5a5u;
  wc_tensor ex = tl_tensor(WC_FLOAT, 2, empty, xv), ey = tl_tensor(WC_FLOAT, 2, empty, &canary);
  for (int op = WC_OP_RSUM; op <= WC_OP_RMEAN; op++) {
    tl_assert_status(wc_interpret(one_reduction(&p, (wc_opcode)op, WC_FLOAT, 1, 2), &ex, 1, &ey),
                     WC_OK);
    tl_assert_status(wc_ref_run(&p.k, &ex, 1, &ey), WC_OK);
  }
  assert_int_equal(canary, 0xa5a5a5a5u);
}

/* Malformed programs are refused before anything runs: a reduction of no axes, two of
   different rows; rows of more axes than a call's output make one row of it. */
static void test_malformed_row_programs_are_refused(void **state) {
  (void)state;
  prog      p;
  int64_t   shape[2] = {2, 3};
  float     xv[6] = {0}, yv[6];
  wc_tensor x = tl_tensor(WC_FLOAT, 2, shape, xv), y = tl_tensor(WC_FLOAT, 2, shape, yv);
  tl_assert_status(wc_interpret(one_reduction(&p, WC_OP_RSUM, WC_FLOAT, 0, 2), &x, 1, &y),
                   WC_E_ARG);
  /* rows of more axes than a call's output: the output is one row (as the specialized
     path binds a scalar to a pattern of rank R) */
  float ones[6] = {1, 2, 3, 4, 5, 6};
  wc_tensor six = tl_tensor(WC_FLOAT, 2, shape, ones);
  tl_assert_status(wc_interpret(one_reduction(&p, WC_OP_RSUM, WC_FLOAT, 3, 2), &six, 1, &y),
                   WC_OK);
  assert_true(yv[0] == 21.0f && yv[5] == 21.0f);
  tl_assert_status(wc_ref_run(&p.k, &six, 1, &y), WC_OK);
  assert_true(yv[0] == 21.0f && yv[5] == 21.0f);
  tl_assert_status(wc_interpret(one_reduction(&p, WC_OP_RMEAN, WC_INT32, 1, 2), &x, 1, &y),
                   WC_E_ARG); /* mean takes floats */
  one_reduction(&p, WC_OP_RSUM, WC_FLOAT, 1, 2);
  wc_instr three[3] = {p.ins[0], p.ins[1], p.ins[1]};
  three[2].a = 1;
  three[2].b = 2; /* a second reduction over other rows */
  p.k.program = three;
  p.k.n_instrs = 3;
  tl_assert_status(wc_interpret(&p.k, &x, 1, &y), WC_E_ARG);
}

/* Rows split across threads: a hook that runs the tasks last first gives the serial
   bytes, and no task splits a row (a row's sum is computed once, by one task). */
static void reversed(void *ctx, wc_task_fn task, void *task_ctx, size_t n_tasks) {
  (void)ctx;
  for (size_t t = n_tasks; t-- > 0;) task(task_ctx, t);
}

static void test_a_split_into_tasks_gives_the_serial_bits(void **state) {
  (void)state;
  tl_rng    rng = {0x7a5c};
  int64_t   shape[2] = {333, 257};
  wc_tensor x = tl_alloc(WC_FLOAT, 2, shape), serial = tl_alloc(WC_FLOAT, 2, shape),
            split = tl_alloc(WC_FLOAT, 2, shape);
  tl_fill(&rng, &x, 0.5);
  prog p;
  one_reduction(&p, WC_OP_RSUM, WC_FLOAT, 1, 2);
  tl_assert_status(wc_interpret(&p.k, &x, 1, &serial), WC_OK);
  wc_set_parallel(reversed, NULL);
  wc_set_parallel_threshold(4096);
  tl_assert_status(wc_interpret(&p.k, &x, 1, &split), WC_OK);
  wc_set_parallel(NULL, NULL);
  wc_set_parallel_threshold(0);
  assert_int_equal(tl_first_difference(WC_FLOAT, serial.data, split.data, 333 * 257), -1);
  tl_free(&x);
  tl_free(&serial);
  tl_free(&split);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_row_sum_of_floats_is_within_the_bound_of_its_order),
      cmocka_unit_test(test_interpreter_and_reference_fold_rows_alike),
      cmocka_unit_test(test_nan_inf_and_empty_rows),
      cmocka_unit_test(test_malformed_row_programs_are_refused),
      cmocka_unit_test(test_a_split_into_tasks_gives_the_serial_bits),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
