/* test_dispatch.c: wc_register / wc_run / wc_where's use of generated kernels,
   on the committed golden output (tests/golden/golden.c) and the built-in
   table (generated/wc_builtin.c). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <cmocka.h>

#include "golden.h"
#include "testlib.h"
#include "wc_builtin.h"

/* The built-in table holds a kernel per (pattern, width), in any order: the
   registry finds them by their parameters (test_where_index.c). */
static void test_builtin_table_has_a_kernel_per_pattern_and_width(void **state) {
  (void)state;
  static const char *const patterns[] = {"same", "scalar_x", "scalar_y", "scalar_c", "rows",
                                         "cols", "row_bcast"};
  static const char *const widths[] = {"uint8", "uint16", "uint32", "uint64", "complex128"};
  char name[64];
  assert_int_equal(wc_builtin_table.n_kernels, 7 * 5);
  for (int p = 0; p < 7; p++)
    for (int w = 0; w < 5; w++) {
      snprintf(name, sizeof name, "%s_%s", patterns[p], widths[w]);
      const wc_kernel *k = wc_find_kernel(&wc_builtin_table, name);
      assert_non_null(k);
      assert_string_equal(k->name, name);
    }
}

/* Runs kernel `name` of the golden table on random inputs of the given shapes
   through wc_run, expecting `path`, and compares with the reference. */
static void run_golden(const char *name, const int *ranks, const int64_t (*shapes)[WC_MAX_RANK],
                       int orank, const int64_t *oshape, wc_path want) {
  const wc_kernel *k = wc_find_kernel(&golden_table, name);
  wc_tensor in[8];
  tl_rng rng = {77};
  assert_non_null(k);
  for (int i = 0; i < k->n_inputs; i++) {
    in[i] = tl_alloc(k->inputs[i].dtype, ranks[i], shapes[i]);
    tl_fill(&rng, &in[i], 0.5);
  }
  wc_tensor got = tl_alloc(k->out_dtype, orank, oshape), ref = tl_alloc(k->out_dtype, orank, oshape);
  wc_path path = 0;
  tl_assert_status(wc_run(&golden_table, name, in, k->n_inputs, &got, &path), WC_OK);
  assert_int_equal(path, want);
  tl_assert_status(wc_ref_run(k, in, k->n_inputs, &ref), WC_OK);
  int64_t n = tl_count(orank, oshape);
  assert_int_equal(tl_first_difference(k->out_dtype, got.data, ref.data, n), -1);
  for (int i = 0; i < k->n_inputs; i++) tl_free(&in[i]);
  tl_free(&got);
  tl_free(&ref);
}

static void test_wc_run_takes_the_specialized_kernel_when_shapes_fit(void **state) {
  (void)state;
  const int ranks[] = {2, 2, 2};
  const int64_t shapes[][WC_MAX_RANK] = {{37, 1}, {37, 13}, {1, 13}}, out[] = {37, 13};
  run_golden("row_bcast", ranks, shapes, 2, out, WC_PATH_SPECIALIZED);
}

static void test_wc_run_interprets_shapes_outside_the_pattern(void **state) {
  (void)state;
  const int ranks[] = {2, 2, 2};
  const int64_t shapes[][WC_MAX_RANK] = {{37, 13}, {37, 13}, {1, 13}}, out[] = {37, 13};  /* c not [N,1] */
  run_golden("row_bcast", ranks, shapes, 2, out, WC_PATH_INTERPRETED);
}

static void test_wc_run_binds_fixed_and_symbolic_extents(void **state) {
  (void)state;
  const int ranks[] = {2};
  const int64_t fits[][WC_MAX_RANK] = {{5, 64}}, out[] = {5, 64};
  run_golden("leaky", ranks, fits, 2, out, WC_PATH_SPECIALIZED);
  const int64_t other[][WC_MAX_RANK] = {{5, 63}}, out2[] = {5, 63};
  run_golden("leaky", ranks, other, 2, out2, WC_PATH_INTERPRETED);
}

static void test_wc_run_fused_float16_clamp_matches_reference(void **state) {
  (void)state;
  const int ranks[] = {1, 0, 0};
  const int64_t shapes[][WC_MAX_RANK] = {{1000}, {0}, {0}}, out[] = {1000};
  run_golden("clamp_f16", ranks, shapes, 1, out, WC_PATH_SPECIALIZED);
}

static void test_wc_run_argwhere_reports_shape_and_capacity(void **state) {
  (void)state;
  float x[6] = {0, 1, -0.0f, NAN, 0, 2};
  int64_t coords[8], small[3];
  const int64_t s23[] = {2, 3}, cap8[] = {8}, cap3[] = {3};
  wc_tensor in = tl_tensor(WC_FLOAT, 2, s23, x);
  wc_tensor out = tl_tensor(WC_INT64, 1, cap8, coords), tiny = tl_tensor(WC_INT64, 1, cap3, small);
  wc_path path = 0;
  const int64_t expect[] = {0, 1, 1, 0, 1, 2};
  tl_assert_status(wc_run(&golden_table, "coords", &in, 1, &out, &path), WC_OK);
  tl_assert_path(path, WC_PATH_SPECIALIZED);
  assert_int_equal(out.rank, 2);
  assert_int_equal(out.shape[0], 3);
  assert_int_equal(out.shape[1], 2);
  assert_memory_equal(coords, expect, sizeof expect);
  tl_assert_status(wc_run(&golden_table, "coords", &in, 1, &tiny, &path), WC_E_CAPACITY);
  assert_int_equal(tiny.shape[0], 3);
}

static void test_wc_run_rejects_unknown_kernel_and_wrong_inputs(void **state) {
  (void)state;
  float x[4] = {0};
  const int64_t s4[] = {4};
  wc_tensor in = tl_tensor(WC_FLOAT, 1, s4, x), out = tl_tensor(WC_FLOAT, 1, s4, x);
  tl_assert_status(wc_run(&golden_table, "no_such", &in, 1, &out, NULL), WC_E_NOKERNEL);
  tl_assert_status(wc_run(&golden_table, "leaky", &in, 2, &out, NULL), WC_E_ARG);
  in.dtype = WC_DOUBLE;
  tl_assert_status(wc_run(&golden_table, "leaky", &in, 1, &out, NULL), WC_E_DTYPE);
  tl_assert_status(wc_run(NULL, "leaky", &in, 1, &out, NULL), WC_E_ARG);
}

/* A table that claims kernels but holds none (or an unnamed one) is a table
   without that kernel, not a NULL dereference. */
static void test_wc_run_finds_no_kernel_in_a_table_without_kernels(void **state) {
  (void)state;
  static const wc_kernel unnamed[] = {{NULL, WC_KIND_ELEMENTWISE, 0, NULL, 0, NULL, WC_FLOAT, 0, NULL,
                                       0, NULL, NULL, NULL, NULL, 1, NULL, NULL, NULL}};
  static const wc_kernel_table empty = {"t", "t.where", 3, NULL}, anon = {"t", "t.where", 1, unnamed};
  wc_tensor out = tl_tensor(WC_FLOAT, 0, NULL, NULL);
  assert_null(wc_find_kernel(&empty, "w"));
  assert_null(wc_find_kernel(&anon, "w"));
  tl_assert_status(wc_run(&empty, "w", NULL, 0, &out, NULL), WC_E_NOKERNEL);
  tl_assert_status(wc_run(&anon, "w", NULL, 0, &out, NULL), WC_E_NOKERNEL);
}

static void test_wc_where_uses_a_registered_table(void **state) {
  (void)state;
  bool c[4] = {true, false, false, true};
  float x[4] = {1, 2, 3, 4}, y[4] = {5, 6, 7, 8}, out[4];
  const int64_t s22[] = {2, 2};
  const float expect[] = {1, 6, 7, 4};
  wc_tensor tc = tl_tensor(WC_BOOL, 2, s22, c), tx = tl_tensor(WC_FLOAT, 2, s22, x),
            ty = tl_tensor(WC_FLOAT, 2, s22, y), to = tl_tensor(WC_FLOAT, 2, s22, out);
  tl_assert_status(wc_register(&golden_table), WC_OK);
  tl_assert_status(wc_register(&golden_table), WC_OK); /* twice is a no-op */
  tl_assert_status(wc_where(&tc, &tx, &ty, &to), WC_OK);
  assert_memory_equal(out, expect, sizeof expect);
  tl_assert_status(wc_register(NULL), WC_E_ARG);
}

/* A lower-rank input binds the pattern [R, C] with leading extents of 1, but
   its coordinates have its own rank: the interpreter lists them, and the
   capacity is counted in those (ASan sees any write past `coords`). */
static void test_wc_run_argwhere_of_a_lower_rank_input_lists_its_own_coordinates(void **state) {
  (void)state;
  float x[3] = {1, 0, 2}, s = 5;
  const int64_t s3[] = {3}, cap2[] = {2};
  int64_t *coords = malloc(2 * sizeof *coords);
  assert_non_null(coords);
  wc_tensor in = tl_tensor(WC_FLOAT, 1, s3, x), out = tl_tensor(WC_INT64, 1, cap2, coords);
  wc_path path = WC_PATH_SPECIALIZED;
  tl_assert_status(wc_run(&golden_table, "coords", &in, 1, &out, &path), WC_OK);
  tl_assert_path(path, WC_PATH_INTERPRETED);
  assert_int_equal(out.rank, 2);
  assert_int_equal(out.shape[0], 2);
  assert_int_equal(out.shape[1], 1);
  assert_int_equal(coords[0], 0);
  assert_int_equal(coords[1], 2);
  wc_tensor scalar = tl_tensor(WC_FLOAT, 0, NULL, &s), none = tl_tensor(WC_INT64, 1, (const int64_t[]){0}, NULL);
  tl_assert_status(wc_run(&golden_table, "coords", &scalar, 1, &none, &path), WC_OK);
  assert_int_equal(none.shape[0], 1);                 /* one true element, no coordinates */
  assert_int_equal(none.shape[1], 0);
  free(coords);
}

/* A bool stores one byte: any non-zero byte is true, on every path, and the
   interpreter's C bools never hold other values (UBSan checks each load). */
static void test_bool_bytes_other_than_one_are_true_on_every_path(void **state) {
  (void)state;
  uint8_t c[4] = {0, 2, 255, 1};
  float x[4] = {1, 2, 3, 4}, y[4] = {5, 6, 7, 8}, a[4], b[4], r[4];
  const int64_t s22[] = {2, 2};
  const float expect[] = {5, 2, 3, 4};
  wc_tensor in[3] = {tl_tensor(WC_BOOL, 2, s22, c), tl_tensor(WC_FLOAT, 2, s22, x),
                     tl_tensor(WC_FLOAT, 2, s22, y)};
  wc_tensor ta = tl_tensor(WC_FLOAT, 2, s22, a), tb = tl_tensor(WC_FLOAT, 2, s22, b),
            tr = tl_tensor(WC_FLOAT, 2, s22, r);
  const wc_kernel *k = wc_find_kernel(&golden_table, "fixed_2x2");
  tl_assert_status(wc_run(&golden_table, "fixed_2x2", in, 3, &ta, NULL), WC_OK);
  tl_assert_status(wc_interpret(k, in, 3, &tb), WC_OK);
  tl_assert_status(wc_ref_run(k, in, 3, &tr), WC_OK);
  assert_memory_equal(a, expect, sizeof expect);
  assert_memory_equal(b, expect, sizeof expect);
  assert_memory_equal(r, expect, sizeof expect);
}

/* Empty, with the other extents' product far past int64: nothing to do, and
   nothing may multiply them (UBSan checks the loop plan and the reference). */
static void test_empty_tensors_with_huge_other_extents_run_on_every_path(void **state) {
  (void)state;
  const int64_t big[] = {(int64_t)1 << 62, (int64_t)1 << 62, 0};
  const int64_t v1c[] = {(int64_t)1 << 62};
  wc_tensor c = tl_tensor(WC_BOOL, 3, big, NULL), x = tl_tensor(WC_FLOAT, 3, big, NULL),
            y = tl_tensor(WC_FLOAT, 3, big, NULL), o = tl_tensor(WC_FLOAT, 3, big, NULL);
  wc_tensor rows = tl_tensor(WC_BOOL, 1, v1c, NULL);
  tl_assert_status(wc_where(&c, &x, &y, &o), WC_OK);
  tl_assert_status(wc_ref_where(&c, &x, &y, &o), WC_OK);
  tl_assert_status(wc_where_v1(&c, &x, &y, &o), WC_OK);
  tl_assert_status(wc_ref_where_v1(&c, &x, &y, &o), WC_OK);
  tl_assert_status(wc_where_v1(&rows, &x, &y, &o), WC_E_ARG); /* rows has 2^62 elements, no data */
  wc_tensor in = tl_tensor(WC_FLOAT, 3, big, NULL), out = tl_tensor(WC_FLOAT, 3, big, NULL);
  const wc_kernel *k = wc_find_kernel(&golden_table, "leaky");
  tl_assert_status(wc_interpret(k, &in, 1, &out), WC_OK);
  tl_assert_status(wc_run(&golden_table, "leaky", &in, 1, &out, NULL), WC_OK);
  tl_assert_status(wc_ref_run(k, &in, 1, &out), WC_OK);
}

/* Generated code reads bool as (byte != 0), so a registered bool where would
   turn other 1-byte values into 0 / 1: wc_where must not use it for them. */
static void bool_rows_range(const size_t *ext, const void *const *in, void *out, size_t begin,
                            size_t end) {
  const uint8_t *c = in[0], *x = in[1], *y = in[2];
  uint8_t *o = out;
  size_t B = ext[1], C = ext[2];
  for (size_t i = begin; i < end; i++) {
    size_t ci = i / (B * C) * C + i % C;
    o[i] = c[ci] != 0 ? x[i] != 0 : y[i] != 0;
  }
}

/* More plain-where kernels than the registry holds: refused whole, nothing
   written past the registration's own bookkeeping (run first: an empty registry). */
static void test_wc_register_refuses_a_table_of_more_where_kernels_than_fit(void **state) {
  (void)state;
  static const int64_t d[] = {WC_SYM(0)};
  static const wc_param params[] = {{"c", WC_BOOL, 1, d, NULL}, {"x", WC_UINT8, 1, d, NULL}, {"y", WC_UINT8, 1, d, NULL}};
  static const char *const ext[] = {"N"};
  static const wc_instr prog[] = {{WC_OP_INPUT, WC_BOOL, 0, 0, 0, {0, 0}},
                                  {WC_OP_INPUT, WC_UINT8, 1, 0, 0, {0, 0}},
                                  {WC_OP_INPUT, WC_UINT8, 2, 0, 0, {0, 0}},
                                  {WC_OP_WHERE, WC_UINT8, 0, 1, 2, {0, 0}}};
  static wc_kernel kernels[300];
  static const wc_kernel_table table = {"t", "t.where", 300, kernels};
  for (int i = 0; i < 300; i++)
    kernels[i] = (wc_kernel){"w", WC_KIND_ELEMENTWISE, 3, params, 1, ext, WC_UINT8, 1, d,
                             4, prog, bool_rows_range, NULL, NULL, 1, NULL, NULL, NULL};
  tl_assert_status(wc_register(&table), WC_E_CAPACITY);
  /* one over the room exactly (the registry holds 256 plain-where kernels):
     refused too, and the room not passed while counting */
  static const wc_kernel_table one_over = {"t", "t.where", 257, kernels};
  tl_assert_status(wc_register(&one_over), WC_E_CAPACITY);
}

static void test_wc_where_does_not_move_bytes_through_a_registered_bool_kernel(void **state) {
  (void)state;
  static const int64_t dc[] = {WC_SYM(0), 1, WC_SYM(2)}, dx[] = {WC_SYM(0), WC_SYM(1), WC_SYM(2)};
  static const wc_param params[] = {{"c", WC_BOOL, 3, dc, NULL}, {"x", WC_BOOL, 3, dx, NULL}, {"y", WC_BOOL, 3, dx, NULL}};
  static const char *const ext[] = {"A", "B", "C"};
  static const wc_instr prog[] = {{WC_OP_INPUT, WC_BOOL, 0, 0, 0, {0, 0}},
                                  {WC_OP_INPUT, WC_BOOL, 1, 0, 0, {0, 0}},
                                  {WC_OP_INPUT, WC_BOOL, 2, 0, 0, {0, 0}},
                                  {WC_OP_WHERE, WC_BOOL, 0, 1, 2, {0, 0}}};
  static const wc_kernel kernels[] = {{"w", WC_KIND_ELEMENTWISE, 3, params, 3, ext, WC_BOOL, 3, dx,
                                       4, prog, bool_rows_range, NULL, NULL, 1, NULL, NULL, NULL}};
  static const wc_kernel_table table = {"t", "t.where", 1, kernels};
  uint8_t c[4] = {1, 0, 0, 1}, x[8] = {5, 6, 7, 8, 9, 10, 11, 12}, y[8] = {20, 21, 22, 23, 24, 25, 26, 27};
  uint8_t out[8];
  const int64_t sc[] = {2, 1, 2}, sx[] = {2, 2, 2};
  const uint8_t expect[] = {5, 21, 7, 23, 24, 10, 26, 12};
  wc_tensor tc = tl_tensor(WC_BOOL, 3, sc, c), tx = tl_tensor(WC_UINT8, 3, sx, x),
            ty = tl_tensor(WC_UINT8, 3, sx, y), to = tl_tensor(WC_UINT8, 3, sx, out);
  tl_assert_status(wc_register(&table), WC_OK);
  tl_assert_status(wc_where(&tc, &tx, &ty, &to), WC_OK);
  assert_memory_equal(out, expect, sizeof expect);
}

/* Must not run: stands for a kernel wc_where may not take. */
static void never_range(const size_t *ext, const void *const *in, void *out, size_t begin,
                        size_t end) {
  (void)ext; (void)in; (void)out; (void)begin; (void)end;
  fail();
}

/* A where whose operands name no parameter 0..2 (a malformed table) is
   refused by wc_register, so never taken as a plain where: wc_where keeps its
   own loop and stores no data pointer past the kernel's three. */
static void test_wc_register_refuses_a_where_of_out_of_range_parameters(void **state) {
  (void)state;
  static const int64_t dc[] = {WC_SYM(0), 1, WC_SYM(2)}, dx[] = {WC_SYM(0), WC_SYM(1), WC_SYM(2)};
  static const wc_param params[] = {{"c", WC_BOOL, 3, dc, NULL}, {"x", WC_UINT16, 3, dx, NULL}, {"y", WC_UINT16, 3, dx, NULL}};
  static const char *const ext[] = {"A", "B", "C"};
  static const wc_instr prog[] = {{WC_OP_INPUT, WC_BOOL, 0, 0, 0, {0, 0}},
                                  {WC_OP_INPUT, WC_UINT16, 7, 0, 0, {0, 0}},
                                  {WC_OP_INPUT, WC_UINT16, 2, 0, 0, {0, 0}},
                                  {WC_OP_WHERE, WC_UINT16, 0, 1, 2, {0, 0}}};
  static const wc_kernel kernels[] = {{"w", WC_KIND_ELEMENTWISE, 3, params, 3, ext, WC_UINT16, 3, dx,
                                       4, prog, never_range, NULL, NULL, 1, NULL, NULL, NULL}};
  static const wc_kernel_table table = {"t", "t.where", 1, kernels};
  uint8_t c[4] = {1, 0, 0, 1};
  uint16_t x[8] = {5, 6, 7, 8, 9, 10, 11, 12}, y[8] = {20, 21, 22, 23, 24, 25, 26, 27}, out[8];
  const int64_t sc[] = {2, 1, 2}, sx[] = {2, 2, 2};
  const uint16_t expect[] = {5, 21, 7, 23, 24, 10, 26, 12};
  wc_tensor tc = tl_tensor(WC_BOOL, 3, sc, c), tx = tl_tensor(WC_UINT16, 3, sx, x),
            ty = tl_tensor(WC_UINT16, 3, sx, y), to = tl_tensor(WC_UINT16, 3, sx, out);
  tl_assert_status(wc_register(&table), WC_E_ARG);
  tl_assert_status(wc_where(&tc, &tx, &ty, &to), WC_OK);
  assert_memory_equal(out, expect, sizeof expect);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_wc_register_refuses_a_table_of_more_where_kernels_than_fit),
    cmocka_unit_test(test_builtin_table_has_a_kernel_per_pattern_and_width),
    cmocka_unit_test(test_wc_run_takes_the_specialized_kernel_when_shapes_fit),
    cmocka_unit_test(test_wc_run_interprets_shapes_outside_the_pattern),
    cmocka_unit_test(test_wc_run_binds_fixed_and_symbolic_extents),
    cmocka_unit_test(test_wc_run_fused_float16_clamp_matches_reference),
    cmocka_unit_test(test_wc_run_argwhere_reports_shape_and_capacity),
    cmocka_unit_test(test_wc_run_rejects_unknown_kernel_and_wrong_inputs),
    cmocka_unit_test(test_wc_run_finds_no_kernel_in_a_table_without_kernels),
    cmocka_unit_test(test_wc_where_uses_a_registered_table),
    cmocka_unit_test(test_wc_run_argwhere_of_a_lower_rank_input_lists_its_own_coordinates),
    cmocka_unit_test(test_bool_bytes_other_than_one_are_true_on_every_path),
    cmocka_unit_test(test_empty_tensors_with_huge_other_extents_run_on_every_path),
    cmocka_unit_test(test_wc_where_does_not_move_bytes_through_a_registered_bool_kernel),
    cmocka_unit_test(test_wc_register_refuses_a_where_of_out_of_range_parameters),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
