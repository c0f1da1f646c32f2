/* test_import.c: wherec import: which nodes are fused into which kernel, the exact spec it
   writes (literals, Relu/Clip/LeakyRelu forms, names), what it lists, and malformed models. */
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
#include "import/onnx.h"
#include "pbw.h"

typedef struct result {
  int   rc;
  char *spec;                  /* NULL unless rc == 0 */
  char *log;                   /* everything import printed */
  size_t log_len;
} result;

static result import_bytes(const uint8_t *b, size_t n) {
  result r = {0, NULL, NULL, 0};
  FILE *log = open_memstream(&r.log, &r.log_len);
  r.rc = import_model(b, n, "test.onnx", log, &r.spec);
  fclose(log);
  return r;
}

static result import_pbw(const pbw *g, int opset) {
  pbw m = {0};
  pbw_model(&m, g, opset);
  result r = import_bytes(m.buf, m.len);
  pbw_free(&m);
  return r;
}

static result import_case(const char *name) {
  char path[1024], err[256];
  size_t len;
  snprintf(path, sizeof path, "%s/%s/model.onnx", WHEREC_MODELS_DIR, name);
  uint8_t *b = onnx_slurp(path, &len, err, sizeof err);
  if (b == NULL) fail_msg("%s: %s", path, err);
  result r = import_bytes(b, len);
  free(b);
  return r;
}

static void done(result *r) {
  free(r->spec);
  free(r->log);
}

static void expect_in(const char *text, const char *part) {
  if (text == NULL || strstr(text, part) == NULL) fail_msg("'%s' not in:\n%s", part, text ? text : "(null)");
}

/* The spec is accepted by the generator: gen_generate into a temporary directory. */
static void expect_generates(const char *spec) {
  char dir[] = "/tmp/wherec_import_XXXXXX", path[256], cmd[300];
  gen_result made;
  assert_non_null(mkdtemp(dir));
  snprintf(path, sizeof path, "%s/imported.where", dir);
  FILE *f = fopen(path, "w");
  fputs(spec, f);
  fclose(f);
  if (gen_generate(path, dir, NULL, stderr, &made) != 0) fail_msg("rejected:\n%s", spec);
  assert_string_equal(made.prefix, "imported");
  snprintf(cmd, sizeof cmd, "%s/imported.h", dir);
  unlink(cmd);
  snprintf(cmd, sizeof cmd, "%s/imported.c", dir);
  unlink(cmd);
  unlink(path);
  assert_int_equal(rmdir(dir), 0);
}

static void test_every_committed_model_imports_to_a_spec_the_generator_accepts(void **state) {
  (void)state;
  static const char *const cases[] = {"where_broadcast", "nonzero", "leaky_relu", "relu", "clip",
                                      "attention_mask", "fused_chain", "int_relu_clip",
                                      "where_string", "partial", "leaky_min", "padding_mask",
                                      "prelu_broadcast", "max3", "hardswish_add",
                                      "soft_hard_thresholded", "nan_shrink_sign",
                                      "reciprocal_cast", "opset6_mul_clip"};
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    result r = import_case(cases[i]);
    if (r.rc != 0) fail_msg("%s: %s", cases[i], r.log);
    expect_generates(r.spec);
    done(&r);
  }
}

static void test_attention_mask_is_one_where_with_a_negative_infinity_literal(void **state) {
  (void)state;
  result r = import_case("attention_mask");
  expect_in(r.spec, "\nkernel attention_mask(scores: float[1,2,4,4], mask: int64[1,1,1,4]) = "
                    "where(mask == 0, -inf, scores);\n");
  expect_in(r.spec, "# masked = Where (output 'masked'), Equal (output 'is_pad')\n");
  done(&r);
}

static void test_relu_keeps_negative_zero_and_nan_like_onnxruntime(void **state) {
  (void)state;
  result r = import_case("relu");
  expect_in(r.spec, "kernel relu(x: float[2,8]) = where(x < 0.0, 0.0, x);");
  done(&r);
}

static void test_clip_with_scalar_initializers_is_max_then_min(void **state) {
  (void)state;
  result r = import_case("clip");
  expect_in(r.spec, "kernel clip(x: float[4,4]) = where(x < (-1.5), -1.5, where(x > 2.25, 2.25, x));");
  done(&r);
}

static void test_leaky_relu_keeps_the_float_alpha_and_the_symbolic_batch(void **state) {
  (void)state;
  result r = import_case("leaky_relu");
  expect_in(r.spec, "kernel leaky_relu(x: float[N,5]) = where(x < 0.0, x * 0.100000001, x);");
  done(&r);
}

static void test_whole_graph_region_takes_graph_inputs_in_order_and_xor_as_not_equal(void **state) {
  (void)state;
  result r = import_case("fused_chain");
  expect_in(r.spec, "kernel fused_chain(x: float[3,4], y: float[3,4], t: float[]) = "
                    "where((x > t) != (y < x), max(abs(y), -x), (x + y) / 2.0);");
  done(&r);
}

static void test_hardmax_is_listed_and_its_output_becomes_a_parameter(void **state) {
  (void)state;
  result r = import_case("partial");
  assert_int_equal(r.rc, 0);
  expect_in(r.log, "wherec: not taken: Hardmax (output 'p'): not element-wise\n");
  expect_in(r.spec, "kernel out(x: float[2,3], c: bool[2,3], p: float[2,3]) = where(c, p, x);");
  done(&r);
}

/* The attention mask's Where and the Softmax after it (along the last axis) are one kernel,
   its row reductions in the spec; a Softmax along another axis is left to onnxruntime. */
static void test_masked_softmax_is_one_kernel_and_softmax_on_another_axis_is_not_taken(void **state) {
  (void)state;
  pbw g = {0}, axis0 = {0};
  static const int64_t d[] = {2, 4, 8}, m[] = {2, 1, 8};
  static const char *const w_in[] = {"mask", "s", "ninf"}, *const s_in[] = {"z"}, *const t_in[] = {"y"};
  float ninf = -1.0f / 0.0f;
  pbw_scalar_init(&g, "ninf", 1, &ninf, sizeof ninf);
  pbw_node(&g, "Where", "w", w_in, 3, "z", NULL);
  pbw_node(&g, "Softmax", "sm", s_in, 1, "y", NULL);
  pbw a = {0}; /* AttributeProto axis=0 (type INT), as NodeProto's field 5 */
  pbw_str(&a, 1, "axis");
  pbw_int(&a, 3, 0);
  pbw_int(&a, 20, 2);
  pbw_msg(&axis0, 5, &a);
  pbw_free(&a);
  pbw_node(&g, "Softmax", "sm0", t_in, 1, "out", &axis0);
  pbw_value_info(&g, 11, "mask", 9, 3, m, NULL);
  pbw_value_info(&g, 11, "s", 1, 3, d, NULL);
  pbw_value_info(&g, 12, "out", 1, 3, d, NULL);
  result r = import_pbw(&g, 17);
  assert_int_equal(r.rc, 0);
  expect_in(r.log, "wherec: kernel y: Softmax 'sm', Where 'w'\n");
  expect_in(r.spec, "row_max(where(mask, s, -inf))");
  expect_in(r.spec, "row_sum(exp(");
  expect_in(r.log, "wherec: not taken: Softmax 'sm0': it reduces axis 0 of a rank-3 input; a "
                   "kernel's row reductions reduce the last axis\n");
  done(&r);
  pbw_free(&g);
  pbw_free(&axis0);
}

/* An unnamed extent is a symbol of its own (infer.c): the region is not refused. */
static void test_where_on_an_unnamed_extent_gets_a_symbol(void **state) {
  (void)state;
  pbw g = {0};
  static const int64_t d[] = {-1, 3}, c[] = {1, 3};
  static const char *const in[] = {"c", "x", "x"};
  pbw_node(&g, "Where", "w", in, 3, "out", NULL);
  pbw_value_info(&g, 11, "c", 9, 2, c, NULL);
  pbw_value_info(&g, 11, "x", 1, 2, d, NULL);
  pbw_value_info(&g, 12, "out", 1, -1, NULL, NULL);
  result r = import_pbw(&g, 17);
  assert_int_equal(r.rc, 0);
  expect_in(r.spec, "kernel out(c: bool[1,3], x: float[unk__0,3]) = where(c, x, x);");
  done(&r);
  pbw_free(&g);
}

static void test_intermediate_that_is_also_a_graph_output_is_an_output_of_the_kernel_too(void **state) {
  (void)state;
  pbw g = {0};
  static const int64_t d[] = {4};
  static const char *const gt_in[] = {"x", "y"}, *const w_in[] = {"gt", "x", "y"};
  pbw_node(&g, "Greater", "g", gt_in, 2, "gt", NULL);
  pbw_node(&g, "Where", "w", w_in, 3, "out", NULL);
  pbw_value_info(&g, 11, "x", 1, 1, d, NULL);
  pbw_value_info(&g, 11, "y", 1, 1, d, NULL);
  pbw_value_info(&g, 12, "out", 1, 1, d, NULL);
  pbw_value_info(&g, 12, "gt", 9, 1, d, NULL);
  result r = import_pbw(&g, 17);
  assert_int_equal(r.rc, 0);
  /* one kernel writes both: the graph output and what reads it */
  expect_in(r.log, "wherec: kernel out: Where 'w', Greater 'g'\n");
  expect_in(r.log, "wherec: note: kernel out writes the value of Greater 'g' too: it is a graph output\n");
  expect_in(r.spec, "kernel out(x: float[4], y: float[4]) -> (out, gt) {\n  gt = x > y;\n  out = where(gt, x, y);\n}");
  done(&r);
  pbw_free(&g);
}

/* Greater 'g' (x, y) -> gt and Where 'w' (gt, x, y) -> out over float[4], and the
   bool inputs c (scalar) and b (4) for sub-graphs: gt fuses into the Where unless
   something else reads it. */
static void greater_where(pbw *g) {
  static const int64_t d[] = {4};
  static const char *const gt_in[] = {"x", "y"}, *const w_in[] = {"gt", "x", "y"};
  pbw_node(g, "Greater", "g", gt_in, 2, "gt", NULL);
  pbw_node(g, "Where", "w", w_in, 3, "out", NULL);
  pbw_value_info(g, 11, "x", 1, 1, d, NULL);
  pbw_value_info(g, 11, "y", 1, 1, d, NULL);
  pbw_value_info(g, 11, "c", 9, 0, NULL, NULL);
  pbw_value_info(g, 11, "b", 9, 1, d, NULL);
  pbw_value_info(g, 12, "out", 1, 1, d, NULL);
}

/* Appends op(in) -> out to sub-graph sg, out a bool[4] output of it when is_output. */
static void sub_node(pbw *sg, const char *op, const char *in, const char *out, bool is_output) {
  static const int64_t d[] = {4};
  const char *const ins[] = {in};
  pbw_node(sg, op, NULL, ins, 1, out, NULL);
  if (is_output) pbw_value_info(sg, 12, out, 9, 1, d, NULL);
}

/* Adds If 'branch' (c) -> r with the two branches to g. */
static void add_if(pbw *g, const pbw *then_g, const pbw *else_g) {
  pbw attrs = {0};
  static const char *const in[] = {"c"};
  pbw_graph_attr(&attrs, "then_branch", then_g);
  pbw_graph_attr(&attrs, "else_branch", else_g);
  pbw_node(g, "If", "branch", in, 1, "r", &attrs);
  pbw_free(&attrs);
}

static void test_producer_also_read_inside_an_if_branch_is_an_output_of_the_kernel_too(void **state) {
  (void)state;
  pbw g = {0}, then_g = {0}, else_g = {0};
  greater_where(&g);
  sub_node(&then_g, "Not", "gt", "t", true);            /* the outer gt, by name */
  sub_node(&else_g, "Identity", "b", "e", true);
  add_if(&g, &then_g, &else_g);
  result r = import_pbw(&g, 17);
  assert_int_equal(r.rc, 0);
  expect_in(r.log, "wherec: note: kernel out writes the value of Greater 'g' too: it is read inside a "
                   "sub-graph of If 'branch'\n");
  expect_in(r.spec, "kernel out(x: float[4], y: float[4]) -> (out, gt) {\n  gt = x > y;\n  out = where(gt, x, y);\n}");
  expect_generates(r.spec);
  done(&r);
  pbw_free(&g);
  pbw_free(&then_g);
  pbw_free(&else_g);
}

/* A sub-graph's own gt (a node output in one branch, an initializer in the other)
   hides the outer one: the branches read nothing of the outer graph's gt. */
static void test_producer_is_fused_when_sub_graphs_read_only_their_own_value_of_that_name(void **state) {
  (void)state;
  pbw g = {0}, then_g = {0}, else_g = {0};
  static const uint8_t yes = 1;
  greater_where(&g);
  sub_node(&then_g, "Identity", "gt", "t", true);       /* reads the gt defined below */
  sub_node(&then_g, "Not", "b", "gt", false);
  pbw_scalar_init(&else_g, "gt", 9, &yes, 1);
  sub_node(&else_g, "Identity", "gt", "e", true);
  add_if(&g, &then_g, &else_g);
  result r = import_pbw(&g, 17);
  assert_int_equal(r.rc, 0);
  expect_in(r.spec, "kernel out(x: float[4], y: float[4]) = where(x > y, x, y);");
  expect_in(r.spec, "# out = Where 'w', Greater 'g'\n");
  assert_null(strstr(r.log, "not taken: Greater"));
  expect_in(r.log, "wherec: kernel out: Where 'w', Greater 'g'\n");
  expect_generates(r.spec);
  done(&r);
  pbw_free(&g);
  pbw_free(&then_g);
  pbw_free(&else_g);
}

/* Loop 'loop' whose body takes an input named lt (hiding the outer lt) and holds
   If 'inner', whose then_branch reads gt: two sub-graphs down, still the outer gt. */
static void test_producer_read_in_a_nested_sub_graph_is_an_output_unless_hidden(void **state) {
  (void)state;
  pbw g = {0}, body = {0}, then_g = {0}, else_g = {0}, if_attrs = {0}, loop_attrs = {0};
  static const int64_t d[] = {4};
  static const char *const lt_in[] = {"x", "y"}, *const w2_in[] = {"lt", "y", "x"};
  static const char *const loop_in[] = {"", "c"}, *const if_in[] = {"cond"};
  greater_where(&g);
  pbw_node(&g, "Less", "l", lt_in, 2, "lt", NULL);
  pbw_node(&g, "Where", "w2", w2_in, 3, "out2", NULL);
  pbw_value_info(&g, 12, "out2", 1, 1, d, NULL);
  sub_node(&then_g, "Identity", "gt", "u", true);
  sub_node(&else_g, "Identity", "lt", "u", true);        /* the body's lt */
  pbw_graph_attr(&if_attrs, "then_branch", &then_g);
  pbw_graph_attr(&if_attrs, "else_branch", &else_g);
  pbw_value_info(&body, 11, "i", 7, 0, NULL, NULL);
  pbw_value_info(&body, 11, "cond", 9, 0, NULL, NULL);
  pbw_value_info(&body, 11, "lt", 9, 1, d, NULL);
  pbw_node(&body, "If", "inner", if_in, 1, "s", &if_attrs);
  sub_node(&body, "Identity", "cond", "cond_out", true);
  pbw_value_info(&body, 12, "s", 9, 1, d, NULL);
  pbw_graph_attr(&loop_attrs, "body", &body);
  pbw_node(&g, "Loop", "loop", loop_in, 2, "final", &loop_attrs);
  result r = import_pbw(&g, 17);
  assert_int_equal(r.rc, 0);
  expect_in(r.log, "wherec: note: kernel out writes the value of Greater 'g' too: it is read inside a "
                   "sub-graph of Loop 'loop'\n");
  expect_in(r.spec, "kernel out(x: float[4], y: float[4]) -> (out, gt) {\n  gt = x > y;\n  out = where(gt, x, y);\n}");
  expect_in(r.spec, "kernel out2(x: float[4], y: float[4]) = where(x < y, y, x);");
  expect_generates(r.spec);
  done(&r);
  pbw_free(&g);
  pbw_free(&body);
  pbw_free(&then_g);
  pbw_free(&else_g);
  pbw_free(&if_attrs);
  pbw_free(&loop_attrs);
}

/* A list of sub-graphs (a GRAPHS attribute): the second names gt as its output. */
static void test_producer_named_by_a_sub_graph_output_in_a_graph_list_is_an_output(void **state) {
  (void)state;
  pbw g = {0}, list[2] = {{0}, {0}}, attrs = {0};
  static const int64_t d[] = {4};
  static const char *const in[] = {"b"};
  greater_where(&g);
  sub_node(&list[0], "Not", "b", "n", true);
  pbw_value_info(&list[1], 12, "gt", 9, 1, d, NULL);    /* an outer value, passed through */
  pbw_graphs_attr(&attrs, "bodies", list, 2);
  pbw_node(&g, "Multi", "multi", in, 1, "m", &attrs);
  result r = import_pbw(&g, 17);
  assert_int_equal(r.rc, 0);
  expect_in(r.log, "wherec: note: kernel out writes the value of Greater 'g' too: it is read inside a "
                   "sub-graph of Multi 'multi'\n");
  expect_in(r.spec, "kernel out(x: float[4], y: float[4]) -> (out, gt) {\n  gt = x > y;\n  out = where(gt, x, y);\n}");
  done(&r);
  pbw_free(&g);
  pbw_free(&list[0]);
  pbw_free(&list[1]);
  pbw_free(&attrs);
}

static void test_cast_to_string_is_listed_with_its_reason(void **state) {
  (void)state;
  pbw g = {0}, at = {0}, attrs = {0};
  static const int64_t d[] = {2};
  static const char *const cast_in[] = {"x"}, *const w_in[] = {"c", "s", "t"};
  pbw_str(&at, 1, "to");
  pbw_int(&at, 3, 8);
  pbw_msg(&attrs, 5, &at);
  pbw_node(&g, "Cast", "cast", cast_in, 1, "s", &attrs);
  pbw_node(&g, "Where", "w", w_in, 3, "out", NULL);
  pbw_value_info(&g, 11, "x", 1, 1, d, NULL);
  pbw_value_info(&g, 11, "c", 9, 1, d, NULL);
  pbw_value_info(&g, 11, "t", 8, 1, d, NULL);
  pbw_value_info(&g, 12, "out", 8, 1, d, NULL);
  result r = import_pbw(&g, 17);
  assert_int_equal(r.rc, 0);
  expect_in(r.log, "not taken: Cast 'cast': casts from float to string are not supported");
  expect_in(r.spec, "kernel out(c: bool[2], t: string[2], s: string[2]) = where(c, s, t);");
  done(&r);
  pbw_free(&g);
  pbw_free(&at);
  pbw_free(&attrs);
}

static void test_undefined_input_and_cycle_are_malformed(void **state) {
  (void)state;
  pbw g = {0}, h = {0};
  static const int64_t d[] = {2};
  static const char *const bad_in[] = {"c", "x", "nowhere"};
  static const char *const a_in[] = {"b"}, *const b_in[] = {"a"};
  pbw_node(&g, "Where", "w", bad_in, 3, "out", NULL);
  pbw_value_info(&g, 11, "c", 9, 1, d, NULL);
  pbw_value_info(&g, 11, "x", 1, 1, d, NULL);
  result r = import_pbw(&g, 17);
  assert_int_equal(r.rc, 1);
  expect_in(r.log, "malformed model: node Where 'w' reads 'nowhere', which nothing defines");
  done(&r);
  pbw_node(&h, "Neg", "n1", a_in, 1, "a", NULL);
  pbw_node(&h, "Neg", "n2", b_in, 1, "b", NULL);
  r = import_pbw(&h, 17);
  assert_int_equal(r.rc, 1);
  expect_in(r.log, "malformed model: the graph has a cycle");
  done(&r);
  pbw_free(&g);
  pbw_free(&h);
}

/* A chain of n unary nodes `op` from x, then a Where over its end. */
static pbw chain(const char *op, int n) {
  pbw g = {0};
  static const int64_t d[] = {3};
  char prev[32] = "x", name[32];
  for (int i = 0; i < n; i++) {
    const char *in[] = {prev};
    snprintf(name, sizeof name, "v%d", i);
    pbw_node(&g, op, NULL, in, 1, name, NULL);
    snprintf(prev, sizeof prev, "%s", name);
  }
  const char *w_in[] = {"c", prev, "x"};
  pbw_node(&g, "Where", "w", w_in, 3, "out", NULL);
  pbw_value_info(&g, 11, "x", 1, 1, d, NULL);
  pbw_value_info(&g, 11, "c", 9, 1, d, NULL);
  pbw_value_info(&g, 12, "out", 1, 1, d, NULL);
  return g;
}

static void test_long_chains_are_cut_at_the_depth_limit(void **state) {
  (void)state;
  pbw g = chain("Neg", 100);
  result r = import_pbw(&g, 17);
  assert_int_equal(r.rc, 0);
  expect_in(r.log, "wherec: kernel v0: Neg (output 'v0')\n");  /* the rest of the chain */
  char param[32];
  snprintf(param, sizeof param, "v%d: float[3]", 100 - IMPORT_MAX_DEPTH - 1);
  expect_in(r.spec, param);                    /* the Where fuses exactly IMPORT_MAX_DEPTH Negs */
  expect_generates(r.spec);
  done(&r);
  pbw_free(&g);
}

static void test_operand_copies_are_bounded_by_splitting_regions(void **state) {
  (void)state;
  pbw g = chain("Relu", 12);                   /* each Relu names its operand twice */
  result r = import_pbw(&g, 17);
  assert_int_equal(r.rc, 0);
  assert_null(strstr(r.log, "not taken"));     /* Relu regions are kernels of their own */
  int kernels = 0;
  for (const char *p = r.spec; (p = strstr(p, "\nkernel ")) != NULL; p++) kernels++;
  assert_true(kernels > 1);
  expect_generates(r.spec);
  done(&r);
  pbw_free(&g);
}

static void test_onnx_names_become_distinct_identifiers(void **state) {
  (void)state;
  pbw g = {0};
  static const int64_t d[] = {2};
  static const char *const in[] = {"input.1", "where", "2x"};
  pbw_node(&g, "Where", NULL, in, 3, "out:0", NULL);
  pbw_value_info(&g, 11, "input.1", 9, 1, d, NULL);
  pbw_value_info(&g, 11, "where", 6, 1, d, NULL);
  pbw_value_info(&g, 11, "2x", 6, 1, d, NULL);
  pbw_value_info(&g, 12, "out:0", 6, 1, d, NULL);
  result r = import_pbw(&g, 17);
  expect_in(r.spec, "(input_1: bool[2], where_: int32[2], v2x: int32[2]) = where(input_1, where_, v2x);");
  done(&r);
  pbw_free(&g);
}

static void test_kernel_names_never_clash_with_generated_symbols(void **state) {
  (void)state;
  pbw g = {0};
  static const int64_t d[] = {2};
  static const char *const in1[] = {"c", "x", "x"}, *const in2[] = {"c", "x", "x"};
  pbw_node(&g, "Where", NULL, in1, 3, "table", NULL);
  pbw_node(&g, "Where", NULL, in2, 3, "w_range", NULL);
  pbw_value_info(&g, 11, "c", 9, 1, d, NULL);
  pbw_value_info(&g, 11, "x", 1, 1, d, NULL);
  pbw_value_info(&g, 12, "table", 1, 1, d, NULL);
  pbw_value_info(&g, 12, "w_range", 1, 1, d, NULL);
  result r = import_pbw(&g, 17);
  assert_int_equal(r.rc, 0);
  expect_in(r.spec, "\nkernel table_k(");
  expect_in(r.spec, "\nkernel w_range_k(");
  expect_generates(r.spec);
  done(&r);
  pbw_free(&g);
}

static void test_scalar_constants_become_exact_literals_or_parameters(void **state) {
  (void)state;
  pbw g = {0}, cattr = {0}, at = {0}, t = {0};
  static const int64_t d[] = {2};
  float tenth = 0.1f;
  uint32_t qnan = 0x7fc00000u, odd_nan = 0x7fc00001u;
  int64_t min64 = INT64_MIN;
  double third = 1.0 / 3.0;
  static const char *const add_in[] = {"x", "k"}, *const w1_in[] = {"c", "sum", "nan"},
                           *const w2_in[] = {"c", "w1", "odd"}, *const w3_in[] = {"c", "i", "min64"},
                           *const w4_in[] = {"c", "dbl", "third"};
  pbw_scalar_init(&g, "k", 1, &tenth, 4);
  pbw_scalar_init(&g, "nan", 1, &qnan, 4);
  pbw_scalar_init(&g, "odd", 1, &odd_nan, 4);
  pbw_scalar_init(&g, "min64", 7, &min64, 8);
  /* a Constant node with a double: folded like an initializer */
  pbw_int(&t, 2, 11);
  pbw_bytes(&t, 9, &third, 8);
  pbw_str(&at, 1, "value");
  pbw_msg(&at, 5, &t);
  pbw_msg(&cattr, 5, &at);
  pbw_node(&g, "Constant", "k3", NULL, 0, "third", &cattr);
  pbw_node(&g, "Add", NULL, add_in, 2, "sum", NULL);
  pbw_node(&g, "Where", NULL, w1_in, 3, "w1", NULL);
  pbw_node(&g, "Where", NULL, w2_in, 3, "w2", NULL);
  pbw_node(&g, "Where", NULL, w3_in, 3, "w3", NULL);
  pbw_node(&g, "Where", NULL, w4_in, 3, "w4", NULL);
  pbw_value_info(&g, 11, "x", 1, 1, d, NULL);
  pbw_value_info(&g, 11, "c", 9, 1, d, NULL);
  pbw_value_info(&g, 11, "i", 7, 1, d, NULL);
  pbw_value_info(&g, 11, "dbl", 11, 1, d, NULL);
  pbw_value_info(&g, 12, "w2", 1, 1, d, NULL);
  pbw_value_info(&g, 12, "w3", 7, 1, d, NULL);
  pbw_value_info(&g, 12, "w4", 11, 1, d, NULL);
  result r = import_pbw(&g, 17);
  assert_int_equal(r.rc, 0);
  expect_in(r.spec, "kernel w2(x: float[2], c: bool[2], odd: float[]) = where(c, where(c, x + 0.100000001, nan), odd);");
  expect_in(r.log, "note: Where (output 'w2') reads the constant 'odd'; it becomes parameter 'odd'");
  expect_in(r.spec, "kernel w3(c: bool[2], i: int64[2]) = where(c, i, -9223372036854775808);");
  expect_in(r.spec, "kernel w4(c: bool[2], dbl: double[2]) = where(c, dbl, 0.33333333333333331);");
  assert_null(strstr(r.log, "not taken"));
  expect_generates(r.spec);
  done(&r);
  pbw_free(&g);
  pbw_free(&cattr);
  pbw_free(&at);
  pbw_free(&t);
}

static void test_float16_leaky_relu_computes_in_float(void **state) {
  (void)state;
  pbw g = {0}, at = {0}, attrs = {0};
  static const int64_t d[] = {4};
  static const char *const in[] = {"x"};
  pbw_str(&at, 1, "alpha");
  pbw_f32(&at, 2, 0.2f);
  pbw_msg(&attrs, 5, &at);
  pbw_node(&g, "LeakyRelu", NULL, in, 1, "y", &attrs);
  pbw_value_info(&g, 11, "x", 10, 1, d, NULL);
  pbw_value_info(&g, 12, "y", 10, 1, d, NULL);
  result r = import_pbw(&g, 17);
  expect_in(r.spec, "= where(x < 0.0, float16(float(x) * 0.200000003), x);");
  expect_generates(r.spec);
  done(&r);
  pbw_free(&g);
  pbw_free(&at);
  pbw_free(&attrs);
}

static void test_clip_without_bounds_clamps_infinities_like_onnxruntime(void **state) {
  (void)state;
  pbw g = {0};
  static const int64_t d[] = {4};
  static const char *const in[] = {"x", "", "hi"};
  pbw_node(&g, "Clip", NULL, in, 3, "y", NULL);
  pbw_value_info(&g, 11, "x", 1, 1, d, NULL);
  pbw_value_info(&g, 11, "hi", 1, 0, NULL, NULL);
  pbw_value_info(&g, 12, "y", 1, 1, d, NULL);
  result r = import_pbw(&g, 17);
  expect_in(r.spec, "kernel y(x: float[4], hi: float[]) = where(x < (-3.40282347e+38), "
                    "where((-3.40282347e+38) > hi, hi, -3.40282347e+38), where(x > hi, hi, x));");
  expect_generates(r.spec);
  done(&r);
  pbw_free(&g);
}

static void test_malformed_bytes_give_an_error_and_no_spec(void **state) {
  (void)state;
  char path[1024], err[256];
  size_t len;
  snprintf(path, sizeof path, "%s/fused_chain/model.onnx", WHEREC_MODELS_DIR);
  uint8_t *b = onnx_slurp(path, &len, err, sizeof err);
  assert_non_null(b);
  for (size_t n = 0; n < len; n += 3) {
    uint8_t *copy = malloc(n ? n : 1);
    memcpy(copy, b, n);
    result r = import_bytes(copy, n);
    if (r.rc != 0) {
      assert_int_equal(r.rc, 1);
      assert_null(r.spec);
      expect_in(r.log, "error: ");
    }
    done(&r);
    free(copy);
  }
  free(b);
  result r = import_bytes((const uint8_t *)"not a model", 11);
  assert_int_equal(r.rc, 1);
  expect_in(r.log, "wherec: error: test.onnx: ");
  done(&r);
}

static uint64_t next_rand(uint64_t *s) {
  *s ^= *s >> 12;
  *s ^= *s << 25;
  *s ^= *s >> 27;
  return *s * 2685821657736338717ull;
}

/* Bit flips in real models: any outcome but a crash (or a spec the generator rejects). */
static void test_bit_flipped_models_never_crash(void **state) {
  (void)state;
  static const char *const cases[] = {"fused_chain", "attention_mask", "int_relu_clip", "partial"};
  uint64_t seed = 7;
  for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
    char path[1024], err[256];
    size_t len;
    snprintf(path, sizeof path, "%s/%s/model.onnx", WHEREC_MODELS_DIR, cases[c]);
    uint8_t *b = onnx_slurp(path, &len, err, sizeof err);
    assert_non_null(b);
    for (int iter = 0; iter < 1500; iter++) {
      uint8_t *copy = malloc(len);
      memcpy(copy, b, len);
      for (int k = 0; k < 1 + iter % 3; k++) copy[next_rand(&seed) % len] ^= (uint8_t)(1u << (next_rand(&seed) % 8));
      result r = import_bytes(copy, len);
      assert_true(r.rc == 0 || r.rc == 1);
      assert_true((r.rc == 0) == (r.spec != NULL));
      done(&r);
      free(copy);
    }
    free(b);
  }
}

/* The command line's usage errors are tests/gen/cli's. */
static void test_command_writes_nothing_on_error(void **state) {
  (void)state;
  char dir[] = "/tmp/wherec_import_cli_XXXXXX", out[256], json[256], bad[256];
  struct stat st;
  assert_non_null(mkdtemp(dir));
  snprintf(out, sizeof out, "%s/out.where", dir);
  snprintf(json, sizeof json, "%s/out.where.json", dir);
  snprintf(bad, sizeof bad, "%s/bad.onnx", dir);
  FILE *f = fopen(bad, "w");
  fputs("garbage", f);
  fclose(f);
  assert_int_equal(import_command(bad, out, NULL), GEN_EXIT_BAD_INPUT);
  assert_int_equal(stat(out, &st), -1);
  assert_int_equal(stat(json, &st), -1);
  snprintf(bad, sizeof bad, "%s/clip/model.onnx", WHEREC_MODELS_DIR);
  assert_int_equal(import_command(bad, out, NULL), GEN_EXIT_OK);
  assert_int_equal(stat(out, &st), 0);
  assert_int_equal(stat(json, &st), 0);
  unlink(out);
  unlink(json);
  snprintf(bad, sizeof bad, "%s/bad.onnx", dir);
  unlink(bad);
  assert_int_equal(rmdir(dir), 0);             /* no temporary file left behind */
}

/* import --shapes on bytes that are no model: an error, nothing on its output; on a model,
   every value with its dtype and shape. */
static void test_shapes_of_a_model_and_of_garbage(void **state) {
  (void)state;
  char  *text = NULL, *log = NULL;
  size_t n = 0, nl = 0;
  FILE  *out = open_memstream(&text, &n), *err = open_memstream(&log, &nl);
  assert_int_equal(import_shapes((const uint8_t *)"garbage", 7, NULL, out, err), GEN_EXIT_BAD_INPUT);
  fclose(out);
  fclose(err);
  assert_int_equal(n, 0);
  expect_in(log, "wherec: error: ");
  free(text);
  free(log);
  pbw                  g = {0}, m = {0};
  static const int64_t d[] = {-1, 3};
  static const char *const params[] = {"N", NULL}, *const in[] = {"x"};
  pbw_node(&g, "Relu", "r", in, 1, "y", NULL);
  pbw_value_info(&g, 11, "x", 1, 2, d, params);
  pbw_value_info(&g, 12, "y", 1, -1, NULL, NULL);
  pbw_model(&m, &g, 17);
  out = open_memstream(&text, &n);
  err = open_memstream(&log, &nl);
  assert_int_equal(import_shapes(m.buf, m.len, NULL, out, err), GEN_EXIT_OK);
  fclose(out);
  fclose(err);
  expect_in(text, "{\"name\": \"y\", \"dtype\": \"float\", \"constant\": false, \"shape\": [\"N\", 3]}");
  free(text);
  free(log);
  pbw_free(&g);
  pbw_free(&m);
}

/* An initializer of dtype and dims with the raw bytes (zeros when raw is NULL). */
static void tensor_init(pbw *g, const char *name, int dtype, const int64_t *dims, int rank,
                        const void *raw, size_t bytes) {
  pbw t = {0};
  for (int d = 0; d < rank; d++) pbw_int(&t, 1, dims[d]);
  pbw_int(&t, 2, dtype);
  pbw_str(&t, 8, name);
  void *zero = raw ? NULL : calloc(1, bytes);
  pbw_bytes(&t, 9, raw ? raw : zero, bytes);
  free(zero);
  pbw_msg(g, 5, &t);
  pbw_free(&t);
}

/* An extent computed from a symbol stays its expression, as --shapes spells it: a strided
   Conv's (H - 1) / 2 + 1, twice over (((H - 1) / 2) / 2) + 1 (x + 1 - 1 is x), and a
   Slice from 1 to -1 of it, L - 2. */
static void test_computed_extents_stay_expressions(void **state) {
  (void)state;
  pbw                  g = {0}, m = {0}, ca = {0};
  static const int64_t xd[] = {1, 2, -1}, wd[] = {2, 2, 3}, one[] = {1}, s1[] = {1}, em1[] = {-1},
                       ax[] = {2}, strides[] = {2}, pads[] = {1, 1};
  static const char *const params[] = {NULL, NULL, "H"};
  pbw at = {0};
  pbw_str(&at, 1, "strides");
  pbw_int(&at, 8, strides[0]);
  pbw_int(&at, 20, 7);
  pbw_msg(&ca, 5, &at);
  pbw_free(&at);
  pbw_str(&at, 1, "pads");
  pbw_int(&at, 8, pads[0]);
  pbw_int(&at, 8, pads[1]);
  pbw_int(&at, 20, 7);
  pbw_msg(&ca, 5, &at);
  pbw_free(&at);
  const char *const c1[] = {"x", "W"}, *const c2[] = {"c1", "W"}, *const sl[] = {"c2", "s", "e", "a"};
  pbw_node(&g, "Conv", "conv1", c1, 2, "c1", &ca);
  pbw_node(&g, "Conv", "conv2", c2, 2, "c2", &ca);
  pbw_node(&g, "Slice", "slice", sl, 4, "y", NULL);
  tensor_init(&g, "W", 1, wd, 3, NULL, 2 * 2 * 3 * sizeof(float));
  tensor_init(&g, "s", 7, one, 1, s1, sizeof s1);
  tensor_init(&g, "e", 7, one, 1, em1, sizeof em1);
  tensor_init(&g, "a", 7, one, 1, ax, sizeof ax);
  pbw_value_info(&g, 11, "x", 1, 3, xd, params);
  pbw_value_info(&g, 12, "y", 1, -1, NULL, NULL);
  pbw_model(&m, &g, 17);
  char  *text = NULL, *log = NULL;
  size_t n = 0, nl = 0;
  FILE  *out = open_memstream(&text, &n), *err = open_memstream(&log, &nl);
  assert_int_equal(import_shapes(m.buf, m.len, NULL, out, err), GEN_EXIT_OK);
  fclose(out);
  fclose(err);
  expect_in(text, "\"name\": \"c1\", \"dtype\": \"float\", \"constant\": false, \"shape\": [1, 2, \"((H - 1) / 2) + 1\"]");
  expect_in(text, "\"name\": \"c2\", \"dtype\": \"float\", \"constant\": false, \"shape\": [1, 2, \"(((H - 1) / 2) / 2) + 1\"]");
  expect_in(text, "\"shape\": [1, 2, \"((((H - 1) / 2) / 2) + 1) - 2\"]");
  free(text);
  free(log);
  pbw_free(&ca);
  pbw_free(&g);
  pbw_free(&m);
}


/* Models whose regions need exp, % and ~ in the spec import and generate. */
static void test_models_with_exp_mod_and_bitwise_operators_import_and_generate(void **state) {
  (void)state;
  static const char *const cases[] = {"abs_celu", "elu_selu", "int_mod_bitwise"};
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    result r = import_case(cases[i]);
    if (r.rc != 0) fail_msg("%s: %s", cases[i], r.log);
    expect_generates(r.spec);
    done(&r);
  }
  result r = import_case("int_mod_bitwise");
  expect_in(r.spec, "kernel int_mod_bitwise(a: int32[8], b: int32[8]) = ~((a % b) ^ b);");
  done(&r);
  r = import_case("abs_celu");
  expect_in(r.spec, "= max(0.0, abs(x)) + min(0.0, 2.0 * expm1(abs(x) / 2.0));");
  done(&r);
}

static void test_where_mul_add_is_one_kernel_and_the_report_names_its_nodes(void **state) {
  (void)state;
  result r = import_case("padding_mask");
  expect_in(r.spec, "kernel padding_mask(keep: bool[2,1,4], x: float[2,3,4], scale: float[], "
                    "bias: float[4]) = (where(keep, x, 0.0) * scale) + bias;");
  expect_in(r.log, "wherec: kernel padding_mask: Add (output 'out'), Mul (output 'scaled'), "
                   "Where (output 'masked')\n");
  done(&r);
}

static void test_chained_activations_fuse_into_one_kernel(void **state) {
  (void)state;
  result r = import_case("leaky_min");
  expect_in(r.spec, "= min(where(x < 0.0, x * 0.200000003, x), cap);");
  done(&r);
  r = import_case("prelu_broadcast");
  expect_in(r.spec, "(x: float[2,3,4], slope: float[3,1]) = where(x < 0.0, x * slope, x);");
  done(&r);
  r = import_case("max3");
  expect_in(r.spec, "(a: float[2,3], b: float[3], c: float[2,1]) = max(max(a, b), c);");
  done(&r);
  r = import_case("hardswish_add");
  expect_in(r.spec, "= (x * max(0.0, min(1.0, (0.166666672 * x) + 0.5))) + y;");
  done(&r);
  r = import_case("reciprocal_cast");
  expect_in(r.spec, "= float(int32(-(1.0 / x)));");
  done(&r);
  r = import_case("opset6_mul_clip");
  expect_in(r.spec, "= where((x * s) < (-1.0), -1.0, where((x * s) > 2.0, 2.0, x * s));");
  done(&r);
}

static void test_prelu_slope_that_does_not_broadcast_to_x_is_listed(void **state) {
  (void)state;
  pbw g = {0};
  static const int64_t x[] = {3}, s[] = {2, 3};
  static const char *const in[] = {"x", "s"};
  pbw_node(&g, "PRelu", "p", in, 2, "out", NULL);
  pbw_value_info(&g, 11, "x", 1, 1, x, NULL);
  pbw_value_info(&g, 11, "s", 1, 2, s, NULL);
  pbw_value_info(&g, 12, "out", 1, -1, NULL, NULL);
  result r = import_pbw(&g, 17);
  assert_int_equal(r.rc, 1);
  expect_in(r.log, "wherec: not taken: PRelu 'p': slope 's' does not broadcast to X's shape\n");
  done(&r);
  pbw_free(&g);
}

static void test_legacy_broadcast_along_a_middle_axis_is_listed(void **state) {
  (void)state;
  pbw g = {0}, at = {0}, attrs = {0};
  static const int64_t a[] = {2, 3, 4}, b[] = {3};
  static const char *const in[] = {"a", "b"};
  pbw_str(&at, 1, "broadcast");
  pbw_int(&at, 3, 1);
  pbw_msg(&attrs, 5, &at);
  pbw_free(&at);
  pbw_str(&at, 1, "axis");
  pbw_int(&at, 3, 1);
  pbw_msg(&attrs, 5, &at);
  pbw_node(&g, "Add", "add", in, 2, "out", &attrs);
  pbw_value_info(&g, 11, "a", 1, 3, a, NULL);
  pbw_value_info(&g, 11, "b", 1, 1, b, NULL);
  pbw_value_info(&g, 12, "out", 1, -1, NULL, NULL);
  result r = import_pbw(&g, 6);
  assert_int_equal(r.rc, 1);
  expect_in(r.log, "wherec: not taken: Add 'add': broadcast=1 with axis=1 aligns B with "
                   "dimensions of A other than the trailing ones");
  done(&r);
  pbw_free(&g);
  pbw_free(&at);
  pbw_free(&attrs);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_every_committed_model_imports_to_a_spec_the_generator_accepts),
    cmocka_unit_test(test_attention_mask_is_one_where_with_a_negative_infinity_literal),
    cmocka_unit_test(test_relu_keeps_negative_zero_and_nan_like_onnxruntime),
    cmocka_unit_test(test_clip_with_scalar_initializers_is_max_then_min),
    cmocka_unit_test(test_leaky_relu_keeps_the_float_alpha_and_the_symbolic_batch),
    cmocka_unit_test(test_whole_graph_region_takes_graph_inputs_in_order_and_xor_as_not_equal),
    cmocka_unit_test(test_hardmax_is_listed_and_its_output_becomes_a_parameter),
    cmocka_unit_test(test_masked_softmax_is_one_kernel_and_softmax_on_another_axis_is_not_taken),
    cmocka_unit_test(test_where_on_an_unnamed_extent_gets_a_symbol),
    cmocka_unit_test(test_intermediate_that_is_also_a_graph_output_is_an_output_of_the_kernel_too),
    cmocka_unit_test(test_producer_also_read_inside_an_if_branch_is_an_output_of_the_kernel_too),
    cmocka_unit_test(test_producer_is_fused_when_sub_graphs_read_only_their_own_value_of_that_name),
    cmocka_unit_test(test_producer_read_in_a_nested_sub_graph_is_an_output_unless_hidden),
    cmocka_unit_test(test_producer_named_by_a_sub_graph_output_in_a_graph_list_is_an_output),
    cmocka_unit_test(test_cast_to_string_is_listed_with_its_reason),
    cmocka_unit_test(test_undefined_input_and_cycle_are_malformed),
    cmocka_unit_test(test_long_chains_are_cut_at_the_depth_limit),
    cmocka_unit_test(test_operand_copies_are_bounded_by_splitting_regions),
    cmocka_unit_test(test_onnx_names_become_distinct_identifiers),
    cmocka_unit_test(test_kernel_names_never_clash_with_generated_symbols),
    cmocka_unit_test(test_scalar_constants_become_exact_literals_or_parameters),
    cmocka_unit_test(test_float16_leaky_relu_computes_in_float),
    cmocka_unit_test(test_clip_without_bounds_clamps_infinities_like_onnxruntime),
    cmocka_unit_test(test_malformed_bytes_give_an_error_and_no_spec),
    cmocka_unit_test(test_bit_flipped_models_never_crash),
    cmocka_unit_test(test_command_writes_nothing_on_error),
    cmocka_unit_test(test_shapes_of_a_model_and_of_garbage),
    cmocka_unit_test(test_computed_extents_stay_expressions),
    cmocka_unit_test(test_models_with_exp_mod_and_bitwise_operators_import_and_generate),
    cmocka_unit_test(test_where_mul_add_is_one_kernel_and_the_report_names_its_nodes),
    cmocka_unit_test(test_chained_activations_fuse_into_one_kernel),
    cmocka_unit_test(test_prelu_slope_that_does_not_broadcast_to_x_is_listed),
    cmocka_unit_test(test_legacy_broadcast_along_a_middle_axis_is_listed),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
