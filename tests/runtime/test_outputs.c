/* test_outputs.c: kernels with several outputs (golden hard_swish -> (y, t, pos)): the
   generated call, wc_run_multi, plans, the interpreter and the reference agree; in place;
   refusals of the one-output entry points and of bad outputs; a parallel split. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <wherec/wherec.h>

#include "golden.h"
#include "testlib.h"

#define N_OUT 3

/* One call: x of shape [n, c], and the three outputs y, t (float), pos (bool). */
typedef struct call {
  wc_tensor x;
  wc_tensor out[N_OUT];
} call;

static call make_call(tl_rng *r, int64_t n, int64_t c) {
  int64_t shape[2] = {n, c};
  call    k;
  k.x = tl_alloc(WC_FLOAT, 2, shape);
  tl_fill(r, &k.x, 0.5);
  k.out[0] = tl_alloc(WC_FLOAT, 2, shape);
  k.out[1] = tl_alloc(WC_FLOAT, 2, shape);
  k.out[2] = tl_alloc(WC_BOOL, 2, shape);
  return k;
}

static void free_call(call *k) {
  tl_free(&k->x);
  for (int o = 0; o < N_OUT; o++) tl_free(&k->out[o]);
}

/* The reference's outputs of the same call, in fresh tensors. */
static void reference(const call *k, wc_tensor *ref) {
  const wc_kernel *hs = wc_find_kernel(&golden_table, "hard_swish");
  for (int o = 0; o < N_OUT; o++) ref[o] = tl_alloc(k->out[o].dtype, 2, k->x.shape);
  tl_assert_status(wc_ref_run_multi(hs, &k->x, 1, ref, N_OUT), WC_OK);
}

static void expect_outputs(const call *k, const wc_tensor *ref) {
  for (int o = 0; o < N_OUT; o++)
    assert_int_equal(tl_first_difference(ref[o].dtype, ref[o].data, k->out[o].data,
                                         tl_count(2, k->x.shape)),
                     -1);
}

static void free_outputs(wc_tensor *ref) {
  for (int o = 0; o < N_OUT; o++) tl_free(&ref[o]);
}

/* The table describes each output: name, dtype, the instruction it stores. */
static void test_the_table_describes_every_output(void **state) {
  (void)state;
  const wc_kernel *hs = wc_find_kernel(&golden_table, "hard_swish");
  assert_non_null(hs);
  assert_int_equal(hs->n_outputs, N_OUT);
  assert_null(hs->range);
  assert_non_null(hs->range_outs);
  assert_string_equal(hs->outputs[0].name, "y");
  assert_string_equal(hs->outputs[1].name, "t");
  assert_string_equal(hs->outputs[2].name, "pos");
  tl_assert_dtype(hs->outputs[2].dtype, WC_BOOL);
  assert_int_equal(hs->program[hs->out_instrs[1]].op, WC_OP_ADD);
  tl_assert_status(wc_register(&golden_table), WC_OK);
}

/* The generated function, wc_run_multi, a plan and the interpreter agree with
   the reference on shapes that fit the pattern. */
static void test_every_path_matches_the_reference(void **state) {
  (void)state;
  tl_rng r = {UINT64_C(0x9e3779b97f4a7c15) ^ 24u};
  for (int trial = 0; trial < 12; trial++) {
    int64_t   n = tl_below(&r, 5), c = tl_below(&r, 70);
    call      k = make_call(&r, n, c);
    wc_tensor ref[N_OUT];
    void     *data[N_OUT] = {k.out[0].data, k.out[1].data, k.out[2].data};
    wc_path   path = (wc_path)0;
    wc_plan   plan;
    reference(&k, ref);
    golden_hard_swish((size_t)n, (size_t)c, k.x.data, k.out[0].data, k.out[1].data, k.out[2].data);
    expect_outputs(&k, ref);
    tl_assert_status(wc_run_multi(&golden_table, "hard_swish", &k.x, 1, k.out, N_OUT, &path),
                     WC_OK);
    tl_assert_path(path, WC_PATH_SPECIALIZED);
    expect_outputs(&k, ref);
    tl_assert_status(wc_prepare_multi(&golden_table, "hard_swish", &k.x, 1, k.out, N_OUT, &plan),
                     WC_OK);
    const void *in[1] = {k.x.data};
    tl_assert_status(wc_plan_run_multi(&plan, in, data), WC_OK);
    expect_outputs(&k, ref);
    tl_assert_status(wc_interpret_multi(plan.kernel, &k.x, 1, k.out, N_OUT), WC_OK);
    expect_outputs(&k, ref);
    free_outputs(ref);
    free_call(&k);
  }
}

/* Rank 3 fits no pattern of x: float[N,C]: every path interprets, and agrees. */
static void test_shapes_outside_the_pattern_are_interpreted(void **state) {
  (void)state;
  tl_rng    r = {UINT64_C(0x9e3779b97f4a7c15) ^ 5u};
  int64_t   shape[3] = {2, 3, 41};
  wc_tensor x = tl_alloc(WC_FLOAT, 3, shape), ref[N_OUT], got[N_OUT];
  wc_path   path = (wc_path)0;
  wc_plan   plan;
  tl_fill(&r, &x, 0.5);
  for (int o = 0; o < N_OUT; o++) {
    ref[o] = tl_alloc(o == 2 ? WC_BOOL : WC_FLOAT, 3, shape);
    got[o] = tl_alloc(o == 2 ? WC_BOOL : WC_FLOAT, 3, shape);
  }
  const wc_kernel *hs = wc_find_kernel(&golden_table, "hard_swish");
  tl_assert_status(wc_ref_run_multi(hs, &x, 1, ref, N_OUT), WC_OK);
  tl_assert_status(wc_run_multi(&golden_table, "hard_swish", &x, 1, got, N_OUT, &path), WC_OK);
  tl_assert_path(path, WC_PATH_INTERPRETED);
  for (int o = 0; o < N_OUT; o++)
    assert_int_equal(tl_first_difference(ref[o].dtype, ref[o].data, got[o].data, 2 * 3 * 41), -1);
  tl_assert_status(wc_prepare_multi(&golden_table, "hard_swish", &x, 1, got, N_OUT, &plan), WC_OK);
  tl_assert_path(plan.path, WC_PATH_INTERPRETED);
  void *data[N_OUT] = {got[0].data, got[1].data, got[2].data};
  for (int o = 0; o < N_OUT; o++) memset(got[o].data, 0x5a, tl_bytes(&got[o]));
  tl_assert_status(wc_plan_run_multi(&plan, (const void *const[]){x.data}, data), WC_OK);
  for (int o = 0; o < N_OUT; o++) {
    assert_int_equal(tl_first_difference(ref[o].dtype, ref[o].data, got[o].data, 2 * 3 * 41), -1);
    tl_free(&ref[o]);
    tl_free(&got[o]);
  }
  tl_free(&x);
}

/* y and t may each be x's own buffer (in place). */
static void test_an_output_may_be_the_input_buffer(void **state) {
  (void)state;
  tl_rng r = {UINT64_C(0x9e3779b97f4a7c15) ^ 7u};
  for (int o = 0; o < 2; o++)
    for (int interp = 0; interp < 2; interp++) {
      call      k = make_call(&r, 3, 37);
      wc_tensor ref[N_OUT], x = k.x;
      reference(&k, ref);
      wc_tensor outs[N_OUT] = {k.out[0], k.out[1], k.out[2]};
      outs[o].data = x.data; /* the output overwrites x */
      const wc_kernel *hs = wc_find_kernel(&golden_table, "hard_swish");
      tl_assert_status(interp ? wc_interpret_multi(hs, &x, 1, outs, N_OUT)
                              : wc_run_multi(&golden_table, "hard_swish", &x, 1, outs, N_OUT, NULL),
                       WC_OK);
      for (int p = 0; p < N_OUT; p++)
        assert_int_equal(tl_first_difference(ref[p].dtype, ref[p].data, outs[p].data, 3 * 37), -1);
      free_outputs(ref);
      free_call(&k);
    }
}

/* One-output entry points refuse it; wrong output counts, dtypes, shapes. */
static void test_bad_calls_are_refused(void **state) {
  (void)state;
  tl_rng  r = {UINT64_C(0x9e3779b97f4a7c15) ^ 3u};
  call    k = make_call(&r, 2, 5);
  wc_plan plan;
  int64_t other[2] = {2, 6};
  tl_assert_status(wc_run(&golden_table, "hard_swish", &k.x, 1, &k.out[0], NULL), WC_E_ARG);
  tl_assert_status(wc_prepare(&golden_table, "hard_swish", &k.x, 1, &k.out[0], &plan), WC_E_ARG);
  const wc_kernel *hs = wc_find_kernel(&golden_table, "hard_swish");
  assert_non_null(hs);
  tl_assert_status(wc_interpret(hs, &k.x, 1, &k.out[0]), WC_E_ARG);
  tl_assert_status(wc_ref_run(hs, &k.x, 1, &k.out[0]), WC_E_ARG);
  tl_assert_status(wc_run_multi(&golden_table, "hard_swish", &k.x, 1, k.out, 2, NULL), WC_E_ARG);
  tl_assert_status(wc_run_multi(&golden_table, "hard_swish", &k.x, 1, NULL, 3, NULL), WC_E_ARG);
  wc_tensor outs[N_OUT] = {k.out[0], k.out[1], k.out[2]};
  outs[2].dtype = WC_UINT8;
  tl_assert_status(wc_run_multi(&golden_table, "hard_swish", &k.x, 1, outs, N_OUT, NULL),
                   WC_E_DTYPE);
  outs[2] = k.out[2];
  memcpy(outs[1].shape, other, sizeof other);
  tl_assert_status(wc_run_multi(&golden_table, "hard_swish", &k.x, 1, outs, N_OUT, NULL),
                   WC_E_SHAPE);
  tl_assert_status(wc_prepare_multi(&golden_table, "hard_swish", &k.x, 1, k.out, N_OUT, &plan),
                   WC_OK);
  tl_assert_status(wc_plan_run(&plan, (const void *const[]){k.x.data}, k.out[0].data), WC_E_ARG);
  /* a one-output kernel runs through the multi entry point with its one output */
  int64_t   s1[1] = {4};
  wc_tensor c = tl_alloc(WC_BOOL, 1, s1), xs = tl_alloc(WC_DOUBLE, 1, s1);
  wc_tensor y = tl_alloc(WC_DOUBLE, 0, s1), o = tl_alloc(WC_DOUBLE, 1, s1);
  wc_tensor in3[3] = {c, xs, y};
  tl_assert_status(wc_run_multi(&golden_table, "scalar_y", in3, 3, &o, 1, NULL), WC_OK);
  tl_assert_status(wc_run_multi(&golden_table, "scalar_y", in3, 3, &o, 2, NULL), WC_E_ARG);
  tl_free(&c);
  tl_free(&xs);
  tl_free(&y);
  tl_free(&o);
  free_call(&k);
}

/* A hook that runs the tasks last first: any split gives the same bytes. */
static void backwards(void *ctx, wc_task_fn task, void *task_ctx, size_t n) {
  (void)ctx;
  while (n-- > 0) task(task_ctx, n);
}

static void test_a_parallel_split_gives_the_same_bytes(void **state) {
  (void)state;
  tl_rng    r = {UINT64_C(0x9e3779b97f4a7c15) ^ 11u};
  call      k = make_call(&r, 64, 1000);
  wc_tensor ref[N_OUT];
  reference(&k, ref);
  wc_set_parallel(backwards, NULL);
  wc_set_parallel_threshold(4096);
  tl_assert_status(wc_run_multi(&golden_table, "hard_swish", &k.x, 1, k.out, N_OUT, NULL), WC_OK);
  expect_outputs(&k, ref);
  tl_assert_status(
      wc_interpret_multi(wc_find_kernel(&golden_table, "hard_swish"), &k.x, 1, k.out, N_OUT),
      WC_OK);
  expect_outputs(&k, ref);
  wc_set_parallel(NULL, NULL);
  wc_set_parallel_threshold(0);
  free_outputs(ref);
  free_call(&k);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_the_table_describes_every_output),
    cmocka_unit_test(test_every_path_matches_the_reference),
    cmocka_unit_test(test_shapes_outside_the_pattern_are_interpreted),
    cmocka_unit_test(test_an_output_may_be_the_input_buffer),
    cmocka_unit_test(test_bad_calls_are_refused),
    cmocka_unit_test(test_a_parallel_split_gives_the_same_bytes),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
