/* test_prepare.c: prepared calls (wc_prepare, wc_plan_run) against wc_run and the direct
   generated call on the golden table, their refusals, and wc_register's table checks. */
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

/* ---- the golden kernels on shapes that fit their patterns and shapes that miss ---- */

typedef struct shape_case {
  const char *kernel;
  int         rank[3];                  /* of each input (n_inputs of the kernel) */
  int64_t     shape[3][3];
  wc_path     path;                     /* the path the shapes call for */
} shape_case;

#define SP WC_PATH_SPECIALIZED
#define IN WC_PATH_INTERPRETED
static const shape_case shape_cases[] = {
  {"fixed_2x2", {2, 2, 2}, {{2, 2}, {2, 2}, {2, 2}}, SP},
  {"fixed_2x2", {2, 2, 0}, {{2, 2}, {2, 2}, {0}}, IN},
  {"fixed_2x2", {2, 2, 2}, {{3, 2}, {3, 2}, {3, 2}}, IN},
  {"fixed_empty", {2, 2, 0}, {{0, 3}, {0, 3}, {0}}, SP},
  {"fixed_empty", {2, 2, 0}, {{0, 5}, {0, 5}, {0}}, IN},
  {"row_bcast", {2, 2, 2}, {{3, 1}, {3, 4}, {1, 4}}, SP},
  {"row_bcast", {2, 2, 1}, {{5, 1}, {5, 7}, {7}}, SP},
  {"row_bcast", {2, 2, 2}, {{0, 1}, {0, 4}, {1, 4}}, SP},
  {"row_bcast", {2, 2, 2}, {{3, 1}, {3, 0}, {1, 0}}, SP},
  {"row_bcast", {2, 2, 2}, {{3, 4}, {3, 4}, {1, 4}}, IN},
  {"row_bcast", {2, 2, 2}, {{0, 4}, {0, 4}, {1, 4}}, IN},
  {"scalar_y", {1, 1, 0}, {{5}, {5}, {0}}, SP},
  {"scalar_y", {1, 1, 0}, {{0}, {0}, {0}}, SP},
  {"scalar_y", {1, 1, 1}, {{5}, {5}, {5}}, IN},
  {"leaky", {2}, {{3, 64}}, SP},
  {"leaky", {2}, {{0, 64}}, SP},
  {"leaky", {2}, {{2, 3}}, IN},
  {"clamp_f16", {1, 0, 0}, {{1100}, {0}, {0}}, SP},
  {"clamp_f16", {2, 0, 0}, {{2, 3}, {0}, {0}}, IN},
  {"clamp_f16", {1, 1, 0}, {{6}, {6}, {0}}, IN},
  {"rows_v1", {1, 2, 2}, {{4}, {4, 3}, {4, 3}}, SP},
  {"rows_v1", {1, 2, 2}, {{0}, {0, 3}, {0, 3}}, SP},
  {"rows_v1", {1, 2, 2}, {{4}, {4, 5}, {4, 5}}, IN},
  {"sign_int8", {1}, {{9}}, SP},
  {"sign_int8", {1}, {{0}}, SP},
  {"sign_int8", {2}, {{2, 2}}, IN},
  {"sign_bfloat16", {1}, {{9}}, SP},
  {"sign_bfloat16", {2}, {{3, 1}}, IN},
  /* slope: a baked constant [4,1]; the tensor given for it is not read */
  {"prelu", {3, 2}, {{2, 4, 5}, {4, 1}}, SP},
  {"prelu", {3, 2}, {{2, 1, 5}, {4, 1}}, IN},
  /* compute-bound: built with AVX-512 where the build has it, the kernels around it without */
  {"swish", {1}, {{1000}}, SP},
  {"swish", {1}, {{0}}, SP},
  {"swish", {2}, {{2, 3}}, IN},
  /* row reductions: whole rows per call and per task; a mask of the full shape, or a scale
     of one element, leaves the pattern for the interpreter */
  {"masked_softmax", {3, 3}, {{2, 1, 37}, {2, 3, 37}}, SP},
  {"masked_softmax", {3, 3}, {{0, 1, 5}, {0, 3, 5}}, SP},
  {"masked_softmax", {3, 3}, {{2, 3, 5}, {2, 3, 5}}, IN},
  {"layer_norm", {2, 1, 1}, {{3, 70}, {70}, {70}}, SP},
  {"layer_norm", {2, 1, 1}, {{3, 70}, {1}, {70}}, IN},
};

/* The generated function itself, called as a user of golden.h would. */
static void direct(const char *name, const wc_tensor *in, void *out) {
  const void *a = in[0].data, *b = NULL, *c = NULL; /* b, c: kernels of three inputs */
  if (strcmp(name, "leaky") != 0 && strncmp(name, "sign_", 5) != 0 && strcmp(name, "prelu") != 0 &&
      strcmp(name, "swish") != 0) {
    b = in[1].data;
    c = strcmp(name, "masked_softmax") != 0 ? in[2].data : NULL;
  }
  size_t      s0 = (size_t)in[0].shape[0];
  if (strcmp(name, "fixed_2x2") == 0) golden_fixed_2x2(a, b, c, out);
  else if (strcmp(name, "fixed_empty") == 0) golden_fixed_empty(a, b, c, out);
  else if (strcmp(name, "row_bcast") == 0) golden_row_bcast(s0, (size_t)in[1].shape[1], a, b, c, out);
  else if (strcmp(name, "scalar_y") == 0) golden_scalar_y(s0, a, b, c, out);
  else if (strcmp(name, "leaky") == 0) golden_leaky(s0, a, out);
  else if (strcmp(name, "clamp_f16") == 0) golden_clamp_f16(s0, a, b, c, out);
  else if (strcmp(name, "rows_v1") == 0) golden_rows_v1(s0, a, b, c, out);
  else if (strcmp(name, "sign_int8") == 0) golden_sign_int8(s0, a, out);
  else if (strcmp(name, "sign_bfloat16") == 0) golden_sign_bfloat16(s0, a, out);
  else if (strcmp(name, "prelu") == 0) golden_prelu(s0, (size_t)in[0].shape[2], a, out);
  else if (strcmp(name, "swish") == 0) golden_swish(s0, a, out);
  else if (strcmp(name, "masked_softmax") == 0) /* extents B, S, H: as they first appear */
    golden_masked_softmax(s0, (size_t)in[1].shape[2], (size_t)in[1].shape[1], a, b, out);
  else if (strcmp(name, "layer_norm") == 0)
    golden_layer_norm(s0, (size_t)in[0].shape[1], a, b, c, out);
  else fail_msg("no direct call for %s", name);
}

/* Inputs of case sc, filled at random; out's descriptor (no data) of the
   broadcast shape (where_v1: x's shape) and the kernel's dtype. */
static const wc_kernel *make_case(tl_rng *r, const shape_case *sc, wc_tensor *in, wc_tensor *out) {
  const wc_kernel *k = wc_find_kernel(&golden_table, sc->kernel);
  const wc_tensor *ptr[3];
  assert_non_null(k);
  for (int i = 0; i < k->n_inputs; i++) {
    in[i] = tl_alloc(k->inputs[i].dtype, sc->rank[i], sc->shape[i]);
    tl_fill(r, &in[i], 0.5);
    ptr[i] = &in[i];
  }
  memset(out, 0, sizeof *out);
  out->dtype = k->out_dtype;
  if (k->kind == WC_KIND_WHERE_V1) {
    out->rank = in[1].rank;
    memcpy(out->shape, in[1].shape, sizeof out->shape);
  } else {
    tl_assert_status(wc_broadcast_shape(ptr, k->n_inputs, &out->rank, out->shape), WC_OK);
  }
  return k;
}

/* One case: wc_run, wc_plan_run and (specialized) the direct call give the
   same bytes, out of place and in place (out over x when it may). */
static void check_case(tl_rng *r, const shape_case *sc) {
  wc_tensor        in[3], desc, o1, o2, o3;
  wc_plan          plan;
  wc_path          path = 0;
  const void      *data[3];
  const wc_kernel *k = make_case(r, sc, in, &desc);
  int              n = k->n_inputs;
  o1 = tl_alloc(desc.dtype, desc.rank, desc.shape);
  o2 = tl_alloc(desc.dtype, desc.rank, desc.shape);
  o3 = tl_alloc(desc.dtype, desc.rank, desc.shape);
  size_t bytes = tl_bytes(&o1);
  tl_assert_status(wc_run(&golden_table, sc->kernel, in, n, &o1, &path), WC_OK);
  assert_int_equal(path, sc->path);
  /* data NULL in the descriptors: wc_prepare reads shapes only */
  wc_tensor shapes[3];
  for (int i = 0; i < n; i++) {
    shapes[i] = in[i];
    shapes[i].data = NULL;
    data[i] = in[i].data;
  }
  tl_assert_status(wc_prepare(&golden_table, sc->kernel, shapes, n, &desc, &plan), WC_OK);
  if (plan.path != sc->path)
    fail_msg("%s: plan path %s, expected %s", sc->kernel, tl_path_name(plan.path),
             tl_path_name(sc->path));
  tl_assert_status(wc_plan_run(&plan, data, o2.data), WC_OK);
  tl_assert_status(wc_plan_run(&plan, data, o2.data), WC_OK); /* a plan runs as often as needed */
  if (bytes && memcmp(o1.data, o2.data, bytes) != 0)
    fail_msg("%s: wc_plan_run differs from wc_run", sc->kernel);
  if (sc->path == SP) {
    direct(sc->kernel, in, o3.data);
    if (bytes && memcmp(o1.data, o3.data, bytes) != 0)
      fail_msg("%s: the direct call differs from wc_run", sc->kernel);
  }
  /* in place: out over x (input 1 of three, else input 0) when its dtype and shape are out's */
  int xi = n == 3 ? 1 : 0;
  if (in[xi].dtype == desc.dtype && in[xi].rank == desc.rank &&
      memcmp(in[xi].shape, desc.shape, (size_t)desc.rank * sizeof desc.shape[0]) == 0) {
    if (bytes) memcpy(o2.data, in[xi].data, bytes);
    data[xi] = o2.data;
    tl_assert_status(wc_plan_run(&plan, data, o2.data), WC_OK);
    if (bytes && memcmp(o1.data, o2.data, bytes) != 0)
      fail_msg("%s: wc_plan_run in place differs from wc_run", sc->kernel);
  }
  for (int i = 0; i < n; i++) tl_free(&in[i]);
  tl_free(&o1);
  tl_free(&o2);
  tl_free(&o3);
}

static void test_wc_plan_run_gives_the_bytes_of_wc_run_and_of_the_direct_call(void **state) {
  (void)state;
  tl_rng r = {0x9e3779b97f4a7c15u};
  for (int rep = 0; rep < 4; rep++)
    for (size_t i = 0; i < sizeof shape_cases / sizeof *shape_cases; i++) check_case(&r, &shape_cases[i]);
}

/* Every elementwise kernel of the golden table has a case of each path. */
static void test_every_golden_elementwise_kernel_is_prepared_on_both_paths(void **state) {
  (void)state;
  for (int i = 0; i < golden_table.n_kernels; i++) {
    const wc_kernel *k = &golden_table.kernels[i];
    bool             seen[3] = {false, false, false};
    if (k->kind == WC_KIND_ARGWHERE || k->kind == WC_KIND_NONZERO) continue;
    if (k->n_outputs > 1) continue; /* several outputs: test_outputs.c */
    for (size_t c = 0; c < sizeof shape_cases / sizeof *shape_cases; c++)
      if (strcmp(shape_cases[c].kernel, k->name) == 0) seen[shape_cases[c].path] = true;
    if (!seen[SP] || !seen[IN]) fail_msg("%s lacks a case of each path", k->name);
  }
}

/* ---- refusals of wc_prepare and wc_plan_run ---- */

static const int64_t s22[] = {2, 2};

static void fixed_2x2_descs(wc_tensor in[3], wc_tensor *out) {
  in[0] = tl_tensor(WC_BOOL, 2, s22, NULL);
  in[1] = tl_tensor(WC_FLOAT, 2, s22, NULL);
  in[2] = tl_tensor(WC_FLOAT, 2, s22, NULL);
  *out = tl_tensor(WC_FLOAT, 2, s22, NULL);
}

/* A refused wc_prepare returns its status and leaves a cleared plan, which
   wc_plan_run refuses. */
static void expect_prepare(wc_status want, const wc_kernel_table *t, const char *name,
                           const wc_tensor *in, int n, const wc_tensor *out) {
  wc_plan     plan;
  float       o[4] = {7, 7, 7, 7};
  bool        c[4] = {1, 0, 1, 0};
  float       x[4] = {1, 2, 3, 4};
  const void *data[3] = {c, x, x};
  memset(&plan, 0x5a, sizeof plan); /* garbage before: wc_prepare clears it */
  assert_int_equal(wc_prepare(t, name, in, n, out, &plan), want);
  assert_null(plan.kernel);
  tl_assert_status(wc_plan_run(&plan, data, o), WC_E_ARG);
  assert_true(o[0] == 7 && o[3] == 7);
}

static void test_wc_prepare_refuses_what_wc_run_refuses(void **state) {
  (void)state;
  wc_tensor in[3], out, bad[3];
  wc_plan   plan;
  fixed_2x2_descs(in, &out);
  expect_prepare(WC_E_ARG, NULL, "fixed_2x2", in, 3, &out);
  expect_prepare(WC_E_ARG, &golden_table, NULL, in, 3, &out);
  expect_prepare(WC_E_NOKERNEL, &golden_table, "no_such", in, 3, &out);
  expect_prepare(WC_E_ARG, &golden_table, "fixed_2x2", in, 2, &out);
  expect_prepare(WC_E_ARG, &golden_table, "fixed_2x2", NULL, 3, &out);
  expect_prepare(WC_E_ARG, &golden_table, "fixed_2x2", in, 3, NULL);
  tl_assert_status(wc_prepare(&golden_table, "fixed_2x2", in, 3, &out, NULL), WC_E_ARG);
  memcpy(bad, in, sizeof bad);
  bad[1].dtype = WC_DOUBLE;
  expect_prepare(WC_E_DTYPE, &golden_table, "fixed_2x2", bad, 3, &out);
  memcpy(bad, in, sizeof bad);
  bad[2].rank = WC_MAX_RANK + 1;
  expect_prepare(WC_E_RANK, &golden_table, "fixed_2x2", bad, 3, &out);
  memcpy(bad, in, sizeof bad);
  bad[0].shape[0] = -1;
  expect_prepare(WC_E_SHAPE, &golden_table, "fixed_2x2", bad, 3, &out);
  memcpy(bad, in, sizeof bad);
  bad[1].shape[1] = 3; /* no broadcast shape */
  expect_prepare(WC_E_SHAPE, &golden_table, "fixed_2x2", bad, 3, &out);
  memcpy(bad, in, sizeof bad);
  bad[0].shape[0] = bad[0].shape[1] = (int64_t)1 << 40;
  expect_prepare(WC_E_OVERFLOW, &golden_table, "fixed_2x2", bad, 3, &out);
  wc_tensor o = out;
  o.dtype = WC_DOUBLE;
  expect_prepare(WC_E_DTYPE, &golden_table, "fixed_2x2", in, 3, &o);
  o = out;
  o.shape[0] = 3;
  expect_prepare(WC_E_SHAPE, &golden_table, "fixed_2x2", in, 3, &o);
  /* where_v1's own shape rules */
  const int64_t s4[] = {4}, s43[] = {4, 3}, s53[] = {5, 3};
  wc_tensor v1[3] = {tl_tensor(WC_BOOL, 1, s4, NULL), tl_tensor(WC_UINT8, 2, s43, NULL),
                     tl_tensor(WC_UINT8, 2, s53, NULL)};
  o = tl_tensor(WC_UINT8, 2, s43, NULL);
  expect_prepare(WC_E_SHAPE, &golden_table, "rows_v1", v1, 3, &o);
  /* coordinate kernels: their output size depends on the data */
  const int64_t s23[] = {2, 3};
  wc_tensor c = tl_tensor(WC_FLOAT, 2, s23, NULL), co = tl_tensor(WC_INT64, 1, s23, NULL);
  expect_prepare(WC_E_ARG, &golden_table, "coords", &c, 1, &co);
  /* the accepted call beside them */
  tl_assert_status(wc_prepare(&golden_table, "fixed_2x2", in, 3, &out, &plan), WC_OK);
  tl_assert_path(plan.path, WC_PATH_SPECIALIZED);
}

static void test_wc_plan_run_refuses_missing_data_and_cleared_plans(void **state) {
  (void)state;
  wc_tensor   in[3], out;
  wc_plan     plan, zero;
  bool        c[4] = {1, 0, 1, 0};
  float       x[4] = {1, 2, 3, 4}, y[4] = {5, 6, 7, 8}, o[4] = {9, 9, 9, 9};
  const void *data[3] = {c, x, y}, *holes[3] = {c, NULL, y};
  fixed_2x2_descs(in, &out);
  memset(&zero, 0, sizeof zero);
  tl_assert_status(wc_plan_run(NULL, data, o), WC_E_ARG);
  tl_assert_status(wc_plan_run(&zero, data, o), WC_E_ARG);
  for (int interpreted = 0; interpreted < 2; interpreted++) {
    in[2].rank = interpreted ? 0 : 2; /* a scalar y misses the pattern */
    tl_assert_status(wc_prepare(&golden_table, "fixed_2x2", in, 3, &out, &plan), WC_OK);
    tl_assert_path(plan.path, interpreted ? WC_PATH_INTERPRETED : WC_PATH_SPECIALIZED);
    tl_assert_status(wc_plan_run(&plan, data, NULL), WC_E_ARG);
    tl_assert_status(wc_plan_run(&plan, NULL, o), WC_E_ARG);
    tl_assert_status(wc_plan_run(&plan, holes, o), WC_E_ARG);
    assert_true(o[0] == 9 && o[1] == 9 && o[2] == 9 && o[3] == 9);
    tl_assert_status(wc_plan_run(&plan, data, o), WC_OK);
    assert_true(o[0] == 1 && o[1] == (interpreted ? 5 : 6) && o[2] == 3);
    memcpy(o, (float[]){9, 9, 9, 9}, sizeof o);
  }
  /* an empty output reads and writes nothing: NULL data is fine */
  const int64_t s03[] = {0, 3};
  wc_tensor e[3] = {tl_tensor(WC_BOOL, 2, s03, NULL), tl_tensor(WC_FLOAT, 2, s03, NULL),
                    tl_tensor(WC_FLOAT, 0, NULL, NULL)},
            eo = tl_tensor(WC_FLOAT, 2, s03, NULL);
  const void *none[3] = {NULL, NULL, NULL};
  tl_assert_status(wc_prepare(&golden_table, "fixed_empty", e, 3, &eo, &plan), WC_OK);
  assert_int_equal(plan.count, 0);
  tl_assert_status(wc_plan_run(&plan, none, NULL), WC_OK);
  tl_assert_status(wc_plan_run(&plan, NULL, NULL), WC_OK);
}

/* The plan copies shapes: the descriptors it was prepared from may go. */
static void test_a_plan_outlives_the_descriptors_it_was_prepared_from(void **state) {
  (void)state;
  wc_plan     plan;
  int32_t     x[6] = {1, 2, 3, 4, 5, 6}, y[3] = {-1, -2, -3}, o[6];
  bool        c[2] = {true, false};
  const void *data[3] = {c, x, y};
  const int32_t expect[6] = {1, 2, 3, -1, -2, -3};
  {
    const int64_t sc[] = {2, 1}, sx[] = {2, 3}, sy[] = {1, 3};
    wc_tensor in[3] = {tl_tensor(WC_BOOL, 2, sc, NULL), tl_tensor(WC_INT32, 2, sx, NULL),
                       tl_tensor(WC_INT32, 2, sy, NULL)},
              out = tl_tensor(WC_INT32, 2, sx, NULL);
    tl_assert_status(wc_prepare(&golden_table, "row_bcast", in, 3, &out, &plan), WC_OK);
    memset(in, 0xff, sizeof in);
    memset(&out, 0xff, sizeof out);
  }
  tl_assert_status(wc_plan_run(&plan, data, o), WC_OK);
  assert_memory_equal(o, expect, sizeof expect);
}

/* ---- wc_register's checks of a table: one malformation per test ---- */

static void rows_range(const size_t *ext, const void *const *in, void *out, size_t begin, size_t end) {
  const bool *c = in[0];
  const float *x = in[1], *y = in[2];
  (void)ext;
  for (size_t i = begin; i < end; i++) ((float *)out)[i] = c[i] ? x[i] : y[i];
}
static int64_t no_count(const size_t *ext, const void *const *in) {
  (void)ext; (void)in;
  return 0;
}
static void no_coords(const size_t *ext, const void *const *in, int64_t n, int64_t *coords) {
  (void)ext; (void)in; (void)n; (void)coords;
}

/* A hand-made where(c, x, y) over vectors, in mutable parts. */
typedef struct fixture {
  int64_t         dims[3][2];
  wc_param        params[3];
  wc_instr        prog[6];
  int64_t         out_dims[2];
  wc_kernel       k;
  wc_kernel_table t;
} fixture;

static void good(fixture *f) {
  memset(f, 0, sizeof *f);
  for (int i = 0; i < 3; i++) f->dims[i][0] = WC_SYM(0);
  f->out_dims[0] = WC_SYM(0);
  f->params[0] = (wc_param){"c", WC_BOOL, 1, f->dims[0], NULL};
  f->params[1] = (wc_param){"x", WC_FLOAT, 1, f->dims[1], NULL};
  f->params[2] = (wc_param){"y", WC_FLOAT, 1, f->dims[2], NULL};
  f->prog[0] = (wc_instr){WC_OP_INPUT, WC_BOOL, 0, 0, 0, {0, 0}};
  f->prog[1] = (wc_instr){WC_OP_INPUT, WC_FLOAT, 1, 0, 0, {0, 0}};
  f->prog[2] = (wc_instr){WC_OP_INPUT, WC_FLOAT, 2, 0, 0, {0, 0}};
  f->prog[3] = (wc_instr){WC_OP_WHERE, WC_FLOAT, 0, 1, 2, {0, 0}};
  f->k = (wc_kernel){"w", WC_KIND_ELEMENTWISE, 3, f->params, 1, NULL, WC_FLOAT, 1, f->out_dims,
                     4, f->prog, rows_range, NULL, NULL, 1, NULL, NULL, NULL};
  f->t = (wc_kernel_table){"t", "t.where", 1, &f->k};
}

/* The malformed table is refused by wc_register, wc_run and wc_prepare,
   and no kernel of it runs. */
static void refused(fixture *f) {
  bool        c[3] = {1, 0, 1};
  float       x[3] = {1, 2, 3}, y[3] = {4, 5, 6}, o[3] = {0, 0, 0};
  const int64_t s3[] = {3};
  wc_tensor   in[3] = {tl_tensor(WC_BOOL, 1, s3, c), tl_tensor(WC_FLOAT, 1, s3, x),
                       tl_tensor(WC_FLOAT, 1, s3, y)},
              out = tl_tensor(WC_FLOAT, 1, s3, o);
  wc_plan     plan;
  tl_assert_status(wc_register(&f->t), WC_E_ARG);
  tl_assert_status(wc_run(&f->t, "w", in, 3, &out, NULL), WC_E_ARG);
  tl_assert_status(wc_prepare(&f->t, "w", in, 3, &out, &plan), WC_E_ARG);
  assert_true(o[0] == 0 && o[1] == 0 && o[2] == 0);
}

static fixture fx; /* malformed tables: never registered */

static void test_wc_register_accepts_the_well_formed_hand_made_table(void **state) {
  (void)state;
  static fixture ok; /* registered: static, apart from the malformed ones */
  bool        c[3] = {1, 0, 1};
  float       x[3] = {1, 2, 3}, y[3] = {4, 5, 6}, o[3];
  const int64_t s3[] = {3};
  wc_tensor   in[3] = {tl_tensor(WC_BOOL, 1, s3, c), tl_tensor(WC_FLOAT, 1, s3, x),
                       tl_tensor(WC_FLOAT, 1, s3, y)},
              out = tl_tensor(WC_FLOAT, 1, s3, o);
  wc_path     path;
  good(&fx);
  tl_assert_status(wc_run(&fx.t, "w", in, 3, &out, &path), WC_OK); /* unregistered, checked */
  tl_assert_path(path, WC_PATH_SPECIALIZED);
  good(&ok);
  tl_assert_status(wc_register(&ok.t), WC_OK);
  tl_assert_status(wc_run(&ok.t, "w", in, 3, &out, &path), WC_OK);
  assert_true(o[0] == 1 && o[1] == 5 && o[2] == 3);
  tl_assert_status(wc_register(&golden_table), WC_OK);
}

#define MALFORMED(name, mutation)                                                                  \
  static void test_wc_register_refuses_##name(void **state) {                                      \
    (void)state;                                                                                   \
    good(&fx);                                                                                     \
    mutation;                                                                                      \
    refused(&fx);                                                                                  \
  }

/* the program */
MALFORMED(an_operand_that_is_the_instruction_itself, fx.prog[3].b = 3)
MALFORMED(an_operand_that_is_a_later_instruction, (fx.prog[2] = (wc_instr){WC_OP_NEG, WC_FLOAT, 3, 0, 0, {0, 0}}))
MALFORMED(an_operand_past_the_program, fx.prog[3].c = 900)
MALFORMED(an_unknown_opcode, fx.prog[1].op = WC_OP_COUNT_)
MALFORMED(an_instruction_of_an_unknown_dtype, fx.prog[2].dtype = 77)
MALFORMED(an_input_of_no_parameter, fx.prog[2].a = 3)
MALFORMED(an_input_read_at_another_dtype_than_its_parameter, fx.prog[1].dtype = WC_DOUBLE)
MALFORMED(a_where_on_a_condition_that_is_not_bool, fx.prog[3].a = 1)
MALFORMED(a_where_of_operands_of_two_dtypes, (fx.prog[3].c = 0))
MALFORMED(a_comparison_of_operands_of_two_dtypes, (fx.prog[3] = (wc_instr){WC_OP_LT, WC_BOOL, 0, 1, 0, {0, 0}}, fx.k.out_dtype = WC_BOOL))
MALFORMED(an_arithmetic_result_of_another_dtype_than_its_operands, (fx.prog[3] = (wc_instr){WC_OP_ADD, WC_DOUBLE, 1, 2, 0, {0, 0}}, fx.k.out_dtype = WC_DOUBLE))
MALFORMED(a_value_of_another_dtype_than_the_output, fx.k.out_dtype = WC_DOUBLE)
MALFORMED(a_bitwise_operation_on_floats, (fx.prog[3] = (wc_instr){WC_OP_BAND, WC_FLOAT, 1, 2, 0, {0, 0}}))
MALFORMED(an_ordered_comparison_of_strings, (fx.params[1].dtype = fx.params[2].dtype = WC_STRING, fx.prog[1].dtype = fx.prog[2].dtype = WC_STRING, fx.prog[3] = (wc_instr){WC_OP_LT, WC_BOOL, 1, 2, 0, {0, 0}}, fx.k.out_dtype = WC_BOOL))
MALFORMED(a_cast_to_complex, (fx.prog[3] = (wc_instr){WC_OP_CAST, WC_COMPLEX64, 1, 0, 0, {0, 0}}, fx.k.out_dtype = WC_COMPLEX64))
MALFORMED(an_empty_program, fx.k.n_instrs = 0)
MALFORMED(a_missing_program, fx.k.program = NULL)
MALFORMED(a_where_v1_that_is_not_a_where_of_parameters, (fx.prog[4] = fx.prog[3], fx.prog[3] = (wc_instr){WC_OP_NEG, WC_FLOAT, 1, 0, 0, {0, 0}}, fx.prog[4].b = 3, fx.k.n_instrs = 5, fx.k.kind = WC_KIND_WHERE_V1))
/* the kernel and its parameters */
/* wc_run and wc_prepare find no kernel of that name in it */
static void test_wc_register_refuses_a_kernel_without_a_name(void **state) {
  (void)state;
  wc_tensor out = tl_tensor(WC_FLOAT, 0, NULL, NULL);
  wc_plan   plan;
  good(&fx);
  fx.k.name = NULL;
  tl_assert_status(wc_register(&fx.t), WC_E_ARG);
  tl_assert_status(wc_run(&fx.t, "w", NULL, 0, &out, NULL), WC_E_NOKERNEL);
  tl_assert_status(wc_prepare(&fx.t, "w", NULL, 0, &out, &plan), WC_E_NOKERNEL);
}
MALFORMED(an_unknown_kind, fx.k.kind = (wc_kernel_kind)9)
MALFORMED(a_negative_input_count, fx.k.n_inputs = -1)
MALFORMED(more_inputs_than_the_runtime_takes, fx.k.n_inputs = WC_MAX_INPUTS + 1)
MALFORMED(inputs_without_parameters, fx.k.inputs = NULL)
MALFORMED(a_parameter_of_an_unknown_dtype, fx.params[0].dtype = (wc_dtype)0)
MALFORMED(a_parameter_rank_past_the_maximum, fx.params[1].rank = WC_MAX_RANK + 1)
MALFORMED(a_negative_parameter_rank, fx.params[1].rank = -1)
MALFORMED(a_parameter_rank_without_dims, fx.params[2].dims = NULL)
/* the shape patterns */
MALFORMED(a_parameter_extent_index_out_of_range, fx.dims[1][0] = WC_SYM(1))
MALFORMED(an_output_extent_index_out_of_range, fx.out_dims[0] = WC_SYM(5))
MALFORMED(an_extent_no_parameter_binds, fx.k.n_extents = 2)
MALFORMED(a_negative_extent_count, fx.k.n_extents = -1)
MALFORMED(an_output_rank_other_than_the_parameters_broadcast_rank, fx.k.out_rank = 2)
MALFORMED(an_output_rank_without_dims, fx.k.out_dims = NULL)
/* the invokers */
MALFORMED(an_elementwise_kernel_without_its_range_function, fx.k.range = NULL)
MALFORMED(a_coordinate_kernel_without_its_count_function, (fx.k.kind = WC_KIND_ARGWHERE, fx.k.out_dtype = WC_INT64, fx.k.coords = no_coords))
MALFORMED(a_coordinate_kernel_without_its_coords_function, (fx.k.kind = WC_KIND_NONZERO, fx.k.out_dtype = WC_INT64, fx.k.count = no_count))

/* The interpreter alone reads the program: wc_interpret refuses a malformed one. */
static void test_wc_interpret_refuses_a_malformed_program(void **state) {
  (void)state;
  float       o[3] = {0, 0, 0};
  const int64_t s3[] = {3};
  wc_tensor   in[3] = {tl_tensor(WC_BOOL, 1, s3, o), tl_tensor(WC_FLOAT, 1, s3, o),
                       tl_tensor(WC_FLOAT, 1, s3, o)},
              out = tl_tensor(WC_FLOAT, 1, s3, o);
  good(&fx);
  fx.prog[3].b = 7;
  tl_assert_status(wc_interpret(&fx.k, in, 3, &out), WC_E_ARG);
  good(&fx);
  fx.prog[1].a = 3;
  tl_assert_status(wc_interpret(&fx.k, in, 3, &out), WC_E_ARG);
  tl_assert_status(wc_interpret(NULL, in, 3, &out), WC_E_NOKERNEL);
}

#define T(name) cmocka_unit_test(test_wc_register_refuses_##name)
int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_wc_plan_run_gives_the_bytes_of_wc_run_and_of_the_direct_call),
    cmocka_unit_test(test_every_golden_elementwise_kernel_is_prepared_on_both_paths),
    cmocka_unit_test(test_wc_prepare_refuses_what_wc_run_refuses),
    cmocka_unit_test(test_wc_plan_run_refuses_missing_data_and_cleared_plans),
    cmocka_unit_test(test_a_plan_outlives_the_descriptors_it_was_prepared_from),
    cmocka_unit_test(test_wc_register_accepts_the_well_formed_hand_made_table),
    T(an_operand_that_is_the_instruction_itself),
    T(an_operand_that_is_a_later_instruction),
    T(an_operand_past_the_program),
    T(an_unknown_opcode),
    T(an_instruction_of_an_unknown_dtype),
    T(an_input_of_no_parameter),
    T(an_input_read_at_another_dtype_than_its_parameter),
    T(a_where_on_a_condition_that_is_not_bool),
    T(a_where_of_operands_of_two_dtypes),
    T(a_comparison_of_operands_of_two_dtypes),
    T(an_arithmetic_result_of_another_dtype_than_its_operands),
    T(a_value_of_another_dtype_than_the_output),
    T(a_bitwise_operation_on_floats),
    T(an_ordered_comparison_of_strings),
    T(a_cast_to_complex),
    T(an_empty_program),
    T(a_missing_program),
    T(a_where_v1_that_is_not_a_where_of_parameters),
    T(a_kernel_without_a_name),
    T(an_unknown_kind),
    T(a_negative_input_count),
    T(more_inputs_than_the_runtime_takes),
    T(inputs_without_parameters),
    T(a_parameter_of_an_unknown_dtype),
    T(a_parameter_rank_past_the_maximum),
    T(a_negative_parameter_rank),
    T(a_parameter_rank_without_dims),
    T(a_parameter_extent_index_out_of_range),
    T(an_output_extent_index_out_of_range),
    T(an_extent_no_parameter_binds),
    T(a_negative_extent_count),
    T(an_output_rank_other_than_the_parameters_broadcast_rank),
    T(an_output_rank_without_dims),
    T(an_elementwise_kernel_without_its_range_function),
    T(a_coordinate_kernel_without_its_count_function),
    T(a_coordinate_kernel_without_its_coords_function),
    cmocka_unit_test(test_wc_interpret_refuses_a_malformed_program),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
