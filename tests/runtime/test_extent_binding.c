/* test_extent_binding.c: a symbolic extent bound to two different values by
   shapes that broadcast: wc_run, wc_prepare and wc_where take the generic path. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <cmocka.h>

#include "golden.h"
#include "testlib.h"

/* Kernel `name` of the golden table on random inputs of the given shapes:
   wc_run and a prepared call must report `want` and give the reference's
   bytes. Inputs are allocated at their exact size, so ASan and valgrind see
   a specialized kernel reading past a broadcast operand. */
static void run_shapes(const char *name, const int *ranks, const int64_t (*shapes)[WC_MAX_RANK],
                       int orank, const int64_t *oshape, wc_path want) {
  const wc_kernel *k = wc_find_kernel(&golden_table, name);
  wc_tensor        in[8];
  const void      *data[8];
  tl_rng           rng = {2024};
  wc_plan          plan;
  wc_path          path = 0;
  assert_non_null(k);
  for (int i = 0; i < k->n_inputs; i++) {
    in[i] = tl_alloc(k->inputs[i].dtype, ranks[i], shapes[i]);
    tl_fill(&rng, &in[i], 0.5);
    data[i] = in[i].data;
  }
  wc_tensor got = tl_alloc(k->out_dtype, orank, oshape), ref = tl_alloc(k->out_dtype, orank, oshape);
  int64_t   n = tl_count(orank, oshape);
  tl_assert_status(wc_ref_run(k, in, k->n_inputs, &ref), WC_OK);

  tl_assert_status(wc_run(&golden_table, name, in, k->n_inputs, &got, &path), WC_OK);
  assert_int_equal(path, want);
  assert_int_equal(tl_first_difference(k->out_dtype, got.data, ref.data, n), -1);

  memset(got.data, 0x5a, tl_bytes(&got));
  tl_assert_status(wc_prepare(&golden_table, name, in, k->n_inputs, &got, &plan), WC_OK);
  assert_int_equal(plan.path, want);
  tl_assert_status(wc_plan_run(&plan, data, got.data), WC_OK);
  assert_int_equal(tl_first_difference(k->out_dtype, got.data, ref.data, n), -1);

  for (int i = 0; i < k->n_inputs; i++) tl_free(&in[i]);
  tl_free(&got);
  tl_free(&ref);
}

/* row_bcast(c: bool[N,1], x: int32[N,M], y: int32[1,M]) */
static void test_row_broadcast_with_n_bound_to_1_by_c_and_37_by_x_is_interpreted(void **state) {
  (void)state;
  const int     ranks[] = {2, 2, 2};
  const int64_t shapes[][WC_MAX_RANK] = {{1, 1}, {37, 13}, {1, 13}}, out[] = {37, 13};
  run_shapes("row_bcast", ranks, shapes, 2, out, WC_PATH_INTERPRETED);
}

static void test_row_broadcast_with_m_bound_to_1_by_x_and_13_by_y_is_interpreted(void **state) {
  (void)state;
  const int     ranks[] = {2, 2, 2};
  const int64_t shapes[][WC_MAX_RANK] = {{37, 1}, {37, 1}, {1, 13}}, out[] = {37, 13};
  run_shapes("row_bcast", ranks, shapes, 2, out, WC_PATH_INTERPRETED);
}

/* A missing leading dim counts as 1: c of rank 1 binds N to 1. */
static void test_a_missing_leading_dim_binds_its_extent_to_1_against_a_larger_one(void **state) {
  (void)state;
  const int     ranks[] = {1, 2, 1};
  const int64_t shapes[][WC_MAX_RANK] = {{1}, {37, 13}, {13}}, out[] = {37, 13};
  run_shapes("row_bcast", ranks, shapes, 2, out, WC_PATH_INTERPRETED);
}

/* scalar_y(c: bool[N], x: double[N], y: double[]) */
static void test_a_one_element_condition_against_a_longer_x_is_interpreted(void **state) {
  (void)state;
  const int     ranks[] = {1, 1, 0};
  const int64_t shapes[][WC_MAX_RANK] = {{1}, {29}, {0}}, out[] = {29};
  run_shapes("scalar_y", ranks, shapes, 1, out, WC_PATH_INTERPRETED);
  const int64_t x1[][WC_MAX_RANK] = {{29}, {1}, {0}};
  run_shapes("scalar_y", ranks, x1, 1, out, WC_PATH_INTERPRETED);
}

/* The same shapes with one value per extent still take the kernel. */
static void test_shapes_that_bind_each_extent_once_stay_specialized(void **state) {
  (void)state;
  const int     ranks[] = {2, 2, 2};
  const int64_t shapes[][WC_MAX_RANK] = {{37, 1}, {37, 13}, {1, 13}}, out[] = {37, 13};
  run_shapes("row_bcast", ranks, shapes, 2, out, WC_PATH_SPECIALIZED);
  const int64_t ones[][WC_MAX_RANK] = {{1, 1}, {1, 13}, {1, 13}}, out1[] = {1, 13};
  run_shapes("row_bcast", ranks, ones, 2, out1, WC_PATH_SPECIALIZED);
}

/* ---- hand-made kernels: a registered plain where of rank 3, and one extent twice in one pattern */

static int rank3_calls; /* calls of rank3_range: which path wc_where took */

/* where(c: bool[A,1,C], x: float[A,B,C], y: float[1,B,C]), indexed by the extents it is given. */
static void rank3_range(const size_t *ext, const void *const *in, void *out, size_t begin,
                        size_t end) {
  const bool  *c = in[0];
  const float *x = in[1], *y = in[2];
  float       *o = out;
  size_t       B = ext[1], C = ext[2];
  rank3_calls++;
  for (size_t i = begin; i < end; i++) {
    size_t a = i / (B * C), b = i / C % B, k = i % C;
    o[i] = c[a * C + k] ? x[i] : y[b * C + k];
  }
}

static const int64_t  rank3_dc[] = {WC_SYM(0), 1, WC_SYM(2)};
static const int64_t  rank3_dx[] = {WC_SYM(0), WC_SYM(1), WC_SYM(2)};
static const int64_t  rank3_dy[] = {1, WC_SYM(1), WC_SYM(2)};
static const wc_param rank3_params[] = {
    {"c", WC_BOOL, 3, rank3_dc, NULL}, {"x", WC_FLOAT, 3, rank3_dx, NULL}, {"y", WC_FLOAT, 3, rank3_dy, NULL}};
static const char *const rank3_ext[] = {"A", "B", "C"};
static const wc_instr    rank3_prog[] = {{WC_OP_INPUT, WC_BOOL, 0, 0, 0, {0, 0}},
                                         {WC_OP_INPUT, WC_FLOAT, 1, 0, 0, {0, 0}},
                                         {WC_OP_INPUT, WC_FLOAT, 2, 0, 0, {0, 0}},
                                         {WC_OP_WHERE, WC_FLOAT, 0, 1, 2, {0, 0}}};
static const wc_kernel   rank3_kernels[] = {{"w3", WC_KIND_ELEMENTWISE, 3, rank3_params, 3,
                                             rank3_ext, WC_FLOAT, 3, rank3_dx, 4, rank3_prog,
                                             rank3_range, NULL, NULL, 1, NULL, NULL, NULL}};
static const wc_kernel_table rank3_table = {"t", "t.where", 1, rank3_kernels};

/* wc_where on shapes of rank 3 (past the built-in kernels): c, x, y, out
   and the reference; returns the calls of the registered kernel. */
static int where_rank3(const int64_t *sc, const int64_t *sx, const int64_t *sy,
                       const int64_t *so) {
  tl_rng    rng = {99};
  wc_tensor c = tl_alloc(WC_BOOL, 3, sc), x = tl_alloc(WC_FLOAT, 3, sx), y = tl_alloc(WC_FLOAT, 3, sy);
  wc_tensor got = tl_alloc(WC_FLOAT, 3, so), ref = tl_alloc(WC_FLOAT, 3, so);
  tl_fill(&rng, &c, 0.5);
  tl_fill(&rng, &x, 0.5);
  tl_fill(&rng, &y, 0.5);
  tl_assert_status(wc_register(&rank3_table), WC_OK);
  rank3_calls = 0;
  tl_assert_status(wc_where(&c, &x, &y, &got), WC_OK);
  int calls = rank3_calls;
  tl_assert_status(wc_ref_where(&c, &x, &y, &ref), WC_OK);
  assert_int_equal(tl_first_difference(WC_FLOAT, got.data, ref.data, tl_count(3, so)), -1);
  tl_free(&c);
  tl_free(&x);
  tl_free(&y);
  tl_free(&got);
  tl_free(&ref);
  return calls;
}

static void test_wc_where_takes_a_registered_kernel_whose_extents_bind_once(void **state) {
  (void)state;
  const int64_t sc[] = {2, 1, 3}, sx[] = {2, 4, 3}, sy[] = {1, 4, 3};
  assert_int_equal(where_rank3(sc, sx, sy, sx), 1);
}

static void test_wc_where_refuses_a_registered_kernel_whose_extent_binds_two_ways(void **state) {
  (void)state;
  const int64_t sc[] = {1, 1, 3}, sx[] = {2, 4, 3}, sy[] = {1, 4, 3}; /* A = 1 by c, 2 by x */
  assert_int_equal(where_rank3(sc, sx, sy, sx), 0);
}

static int square_calls;

/* -x over x: float[N,N], for N*N elements. */
static void square_range(const size_t *ext, const void *const *in, void *out, size_t begin,
                         size_t end) {
  const float *x = in[0];
  float       *o = out;
  (void)ext;
  square_calls++;
  for (size_t i = begin; i < end; i++) o[i] = -x[i];
}

static const int64_t  square_dims[] = {WC_SYM(0), WC_SYM(0)};
static const wc_param square_params[] = {{"x", WC_FLOAT, 2, square_dims, NULL}};
static const char *const square_ext[] = {"N"};
static const wc_instr    square_prog[] = {{WC_OP_INPUT, WC_FLOAT, 0, 0, 0, {0, 0}},
                                          {WC_OP_NEG, WC_FLOAT, 0, 0, 0, {0, 0}}};
static const wc_kernel   square_kernels[] = {{"sq", WC_KIND_ELEMENTWISE, 1, square_params, 1,
                                              square_ext, WC_FLOAT, 2, square_dims, 2,
                                              square_prog, square_range, NULL, NULL, 1, NULL, NULL, NULL}};
static const wc_kernel_table square_table = {"s", "s.where", 1, square_kernels};

/* One extent twice in one pattern: [N,N] fits [3,3], not [1,3] or [3,1]. */
static void test_an_extent_named_twice_in_one_pattern_binds_one_value(void **state) {
  (void)state;
  const int64_t shapes[][2] = {{3, 3}, {1, 3}, {3, 1}};
  const wc_path want[] = {WC_PATH_SPECIALIZED, WC_PATH_INTERPRETED, WC_PATH_INTERPRETED};
  float         x[9] = {1, -2, 3, -4, 5, -6, 7, -8, 9}, o[9];
  for (int s = 0; s < 3; s++) {
    wc_tensor in = tl_tensor(WC_FLOAT, 2, shapes[s], x), out = tl_tensor(WC_FLOAT, 2, shapes[s], o);
    wc_path   path = 0;
    wc_plan   plan;
    int64_t   n = tl_count(2, shapes[s]);
    square_calls = 0;
    tl_assert_status(wc_run(&square_table, "sq", &in, 1, &out, &path), WC_OK);
    assert_int_equal(path, want[s]);
    assert_int_equal(square_calls, want[s] == WC_PATH_SPECIALIZED);
    for (int64_t i = 0; i < n; i++) assert_true(o[i] == -x[i]);
    tl_assert_status(wc_prepare(&square_table, "sq", &in, 1, &out, &plan), WC_OK);
    assert_int_equal(plan.path, want[s]);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_row_broadcast_with_n_bound_to_1_by_c_and_37_by_x_is_interpreted),
      cmocka_unit_test(test_row_broadcast_with_m_bound_to_1_by_x_and_13_by_y_is_interpreted),
      cmocka_unit_test(test_a_missing_leading_dim_binds_its_extent_to_1_against_a_larger_one),
      cmocka_unit_test(test_a_one_element_condition_against_a_longer_x_is_interpreted),
      cmocka_unit_test(test_shapes_that_bind_each_extent_once_stay_specialized),
      cmocka_unit_test(test_wc_where_takes_a_registered_kernel_whose_extents_bind_once),
      cmocka_unit_test(test_wc_where_refuses_a_registered_kernel_whose_extent_binds_two_ways),
      cmocka_unit_test(test_an_extent_named_twice_in_one_pattern_binds_one_value),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
