/* test_manifest.c: the JSON manifest wherec import writes beside the spec (gen/import/
   manifest.c): every kernel's nodes, extents, parameters with their graph tensors, literals
   and outputs; sub-graph scopes; JSON escaping; the same bytes every time; the files. */
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

#include "import/import.h"
#include "import/onnx.h"
#include "pbw.h"

typedef struct result {
  int    rc;
  char  *spec;     /* NULL unless rc == 0 */
  char  *manifest; /* NULL unless rc == 0 */
  char  *log;
  size_t log_len;
} result;

static int64_t bake_limit = IMPORT_BAKE_LIMIT; /* --bake-limit of the next import */

static result import_bytes(const uint8_t *b, size_t n) {
  result r = {0, NULL, NULL, NULL, 0};
  FILE  *log = open_memstream(&r.log, &r.log_len);
  r.rc = import_model_baked(b, n, "test.onnx", "test.where", log, &r.spec, &r.manifest,
                            bake_limit);
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
  char     path[1024], err[256];
  size_t   len;
  snprintf(path, sizeof path, "%s/%s/model.onnx", WHEREC_MODELS_DIR, name);
  uint8_t *b = onnx_slurp(path, &len, err, sizeof err);
  if (b == NULL) fail_msg("%s: %s", path, err);
  result r = import_bytes(b, len);
  free(b);
  return r;
}

static void done(result *r) {
  free(r->spec);
  free(r->manifest);
  free(r->log);
}

static void expect_in(const char *text, const char *part) {
  if (text == NULL || strstr(text, part) == NULL)
    fail_msg("'%s' not in:\n%s", part, text ? text : "(null)");
}

static void node1(pbw *g, const char *op, const char *name, const char *in, const char *out) {
  const char *const ins[] = {in};
  pbw_node(g, op, name, ins, 1, out, NULL);
}

/* A float initializer of shape dims, every element v. */
static void init_floats(pbw *g, const char *name, const int64_t *dims, int rank, float v) {
  pbw     t = {0};
  int64_t n = 1;
  for (int d = 0; d < rank; d++) {
    pbw_int(&t, 1, dims[d]);
    n *= dims[d];
  }
  pbw_int(&t, 2, 1);
  pbw_str(&t, 8, name);
  float *raw = calloc((size_t)n, sizeof *raw);
  for (int64_t i = 0; i < n; i++) raw[i] = v;
  pbw_bytes(&t, 9, raw, (size_t)n * sizeof *raw);
  free(raw);
  pbw_msg(g, 5, &t);
  pbw_free(&t);
}

/* models/padding_mask (make_models.py): out = Where(keep, x, zero) * scale + bias. The whole
   manifest, byte for byte: the nodes root first, four parameters bound to graph inputs, the
   one-element initializer baked in as a literal, the output's tensor. */
static void test_manifest_of_padding_mask_names_nodes_parameters_literals_and_output(void **state) {
  (void)state;
  result r = import_case("padding_mask");
  assert_int_equal(r.rc, 0);
  assert_string_equal(
      r.manifest,
      "{\n"
      "  \"format\": \"wherec-import-manifest\",\n"
      "  \"version\": 3,\n"
      "  \"model\": \"test.onnx\",\n"
      "  \"spec\": \"test.where\",\n"
      "  \"graph\": \"padding_mask\",\n"
      "  \"opset\": 17,\n"
      "  \"kernels\": [\n"
      "    {\n"
      "      \"name\": \"padding_mask\",\n"
      "      \"scope\": null,\n"
      "      \"nodes\": [\n"
      "        {\"index\": 2, \"op_type\": \"Add\", \"name\": \"\", \"inputs\": [\"scaled\", \"bias\"], "
      "\"outputs\": [\"out\"]},\n"
      "        {\"index\": 1, \"op_type\": \"Mul\", \"name\": \"\", \"inputs\": [\"masked\", \"scale\"], "
      "\"outputs\": [\"scaled\"]},\n"
      "        {\"index\": 0, \"op_type\": \"Where\", \"name\": \"\", \"inputs\": [\"keep\", \"x\", \"zero\"], "
      "\"outputs\": [\"masked\"]}\n"
      "      ],\n"
      "      \"extents\": [],\n"
      "      \"params\": [\n"
      "        {\"name\": \"keep\", \"tensor\": \"keep\", \"from\": \"input\", \"constant\": false, "
      "\"dtype\": \"bool\", \"shape\": [2, 1, 4]},\n"
      "        {\"name\": \"x\", \"tensor\": \"x\", \"from\": \"input\", \"constant\": false, "
      "\"dtype\": \"float\", \"shape\": [2, 3, 4]},\n"
      "        {\"name\": \"scale\", \"tensor\": \"scale\", \"from\": \"input\", \"constant\": false, "
      "\"dtype\": \"float\", \"shape\": []},\n"
      "        {\"name\": \"bias\", \"tensor\": \"bias\", \"from\": \"input\", \"constant\": false, "
      "\"dtype\": \"float\", \"shape\": [4]}\n"
      "      ],\n"
      "      \"literals\": [\n"
      "        {\"tensor\": \"zero\", \"dtype\": \"float\", \"value\": \"0.0\", \"bits\": \"0x0\"}\n"
      "      ],\n"
      "      \"baked\": [],\n"
      "      \"outputs\": [\n"
      "        {\"name\": \"out\", \"tensor\": \"out\", \"dtype\": \"float\", \"shape\": [2, 3, 4]}\n"
      "      ]\n"
      "    }\n"
      "  ]\n"
      "}\n");
  done(&r);
}

/* The same model gives the same manifest, byte for byte. */
static void test_manifest_is_the_same_bytes_on_every_import(void **state) {
  (void)state;
  result a = import_case("hardswish_add"), b = import_case("hardswish_add");
  assert_int_equal(a.rc, 0);
  assert_int_equal(b.rc, 0);
  assert_string_equal(a.manifest, b.manifest);
  done(&a);
  done(&b);
}

/* x float[batch,3,?] -> BatchNormalization (initializers [3]) -> Relu -> y: the extents in
   the order the generated functions take them, with the graph's dimension names; per-channel
   initializers declared [3,1] with their tensors' own shape, marked constant; node names. */
static void test_manifest_gives_extents_and_per_channel_initializers(void **state) {
  (void)state;
  pbw                      g = {0};
  static const int64_t     x[] = {-1, 3, -1}, c[] = {3};
  static const char *const params[] = {"batch", NULL, NULL};
  const char *const        bn_in[] = {"x", "s", "b", "m", "v"};
  pbw_node(&g, "BatchNormalization", "bn0", bn_in, 5, "n", NULL);
  node1(&g, "Relu", "relu0", "n", "y");
  init_floats(&g, "s", c, 1, 1.0f);
  init_floats(&g, "b", c, 1, 0.0f);
  init_floats(&g, "m", c, 1, 0.0f);
  init_floats(&g, "v", c, 1, 1.0f);
  pbw_value_info(&g, 11, "x", 1, 3, x, params);
  pbw_value_info(&g, 12, "y", 1, -1, NULL, NULL);
  /* baked (the default): a constant of the spec, declared with its 1s, no parameter */
  result b = import_pbw(&g, 15);
  assert_int_equal(b.rc, 0);
  expect_in(b.manifest, "      \"baked\": [\n        {\"name\": \"s_c");
  expect_in(b.manifest, "\"tensor\": \"s\", \"dtype\": \"float\", \"shape\": [3, 1]}");
  expect_in(b.spec, ": float[3,1] = {");
  expect_in(b.spec, "(x: float[batch,3,unk__1]) = ");
  done(&b);
  /* --bake-limit 0: the initializers stay parameters */
  bake_limit = 0;
  result r = import_pbw(&g, 15);
  bake_limit = IMPORT_BAKE_LIMIT;
  assert_int_equal(r.rc, 0);
  expect_in(r.manifest,
            "      \"nodes\": [\n"
            "        {\"index\": 1, \"op_type\": \"Relu\", \"name\": \"relu0\", "
            "\"inputs\": [\"n\"], \"outputs\": [\"y\"]},\n"
            "        {\"index\": 0, \"op_type\": \"BatchNormalization\", \"name\": \"bn0\", "
            "\"inputs\": [\"x\", \"s\", \"b\", \"m\", \"v\"], \"outputs\": [\"n\"]}\n"
            "      ],\n");
  expect_in(r.manifest, "      \"extents\": [\n"
                        "        {\"name\": \"batch\", \"dim\": \"batch\"},\n"
                        "        {\"name\": \"unk__1\", \"dim\": \"unk__1\"}\n"
                        "      ],\n");
  expect_in(r.manifest, "{\"name\": \"x\", \"tensor\": \"x\", \"from\": \"input\", \"constant\": "
                        "false, \"dtype\": \"float\", \"shape\": [\"batch\", 3, \"unk__1\"]}");
  expect_in(r.manifest, "{\"name\": \"s\", \"tensor\": \"s\", \"from\": \"initializer\", "
                        "\"constant\": true, \"dtype\": \"float\", \"shape\": [3, 1], "
                        "\"tensor_shape\": [3]}");
  expect_in(r.manifest, "{\"name\": \"out\", \"tensor\": \"y\", \"dtype\": \"float\", \"shape\": "
                        "[\"batch\", 3, \"unk__1\"]}");
  expect_in(r.spec, "(x: float[batch,3,unk__1], s: float[3,1], ");
  pbw_free(&g);
  done(&r);
}

/* A kernel of an If branch names its sub-graph as its scope, and the outer value it reads
   comes from the scope around it. */
static void test_manifest_scopes_sub_graph_kernels_and_their_outer_values(void **state) {
  (void)state;
  pbw                  g = {0}, th = {0}, el = {0}, attrs = {0};
  static const int64_t d[] = {2, 3};
  node1(&th, "Relu", NULL, "x", "t");
  pbw_value_info(&th, 12, "t", 1, 2, d, NULL);
  node1(&el, "Neg", NULL, "x", "e");
  pbw_value_info(&el, 12, "e", 1, 2, d, NULL);
  pbw_graph_attr(&attrs, "then_branch", &th);
  pbw_graph_attr(&attrs, "else_branch", &el);
  const char *const in[] = {"c"};
  pbw_node(&g, "If", "branch", in, 1, "r", &attrs);
  node1(&g, "Sigmoid", NULL, "r", "y");
  pbw_value_info(&g, 11, "c", 9, 0, NULL, NULL);
  pbw_value_info(&g, 11, "x", 1, 2, d, NULL);
  pbw_value_info(&g, 12, "y", 1, -1, NULL, NULL);
  result r = import_pbw(&g, 13);
  assert_int_equal(r.rc, 0);
  expect_in(r.manifest, "      \"name\": \"y\",\n      \"scope\": null,\n");
  expect_in(r.manifest, "      \"name\": \"t\",\n"
                        "      \"scope\": {\n"
                        "        \"title\": \"sub-graph 'then_branch' of If 'branch'\",\n"
                        "        \"path\": [\n"
                        "          {\"node\": 0, \"op_type\": \"If\", \"name\": \"branch\", "
                        "\"attribute\": \"then_branch\", \"graph\": 0}\n"
                        "        ]\n"
                        "      },\n");
  expect_in(r.manifest, "      \"name\": \"e\",\n"
                        "      \"scope\": {\n"
                        "        \"title\": \"sub-graph 'else_branch' of If 'branch'\",\n");
  expect_in(r.manifest, "{\"name\": \"x\", \"tensor\": \"x\", \"from\": \"outer\", \"constant\": "
                        "false, \"dtype\": \"float\", \"shape\": [2, 3]}");
  expect_in(r.manifest, "{\"name\": \"r\", \"tensor\": \"r\", \"from\": \"node\", \"constant\": "
                        "false, \"dtype\": \"float\", \"shape\": [2, 3]}");
  pbw_free(&th);
  pbw_free(&el);
  pbw_free(&attrs);
  pbw_free(&g);
  done(&r);
}

/* An If inside an If's branch: the path names both, outermost first. */
static void test_manifest_paths_a_nested_sub_graph_from_the_model_down(void **state) {
  (void)state;
  pbw                  g = {0}, outer_th = {0}, outer_el = {0}, th = {0}, el = {0};
  pbw                  attrs = {0}, inner = {0};
  static const int64_t d[] = {2, 3};
  node1(&th, "Relu", NULL, "x", "t");
  pbw_value_info(&th, 12, "t", 1, 2, d, NULL);
  node1(&el, "Neg", NULL, "x", "e");
  pbw_value_info(&el, 12, "e", 1, 2, d, NULL);
  pbw_graph_attr(&inner, "then_branch", &th);
  pbw_graph_attr(&inner, "else_branch", &el);
  const char *const in[] = {"c"};
  node1(&outer_th, "Identity", NULL, "x", "i");
  pbw_node(&outer_th, "If", "inner", in, 1, "ri", &inner);
  pbw_value_info(&outer_th, 12, "ri", 1, 2, d, NULL);
  node1(&outer_el, "Identity", NULL, "x", "oe");
  pbw_value_info(&outer_el, 12, "oe", 1, 2, d, NULL);
  pbw_graph_attr(&attrs, "then_branch", &outer_th);
  pbw_graph_attr(&attrs, "else_branch", &outer_el);
  pbw_node(&g, "If", "outer", in, 1, "r", &attrs);
  pbw_value_info(&g, 11, "c", 9, 0, NULL, NULL);
  pbw_value_info(&g, 11, "x", 1, 2, d, NULL);
  pbw_value_info(&g, 12, "r", 1, 2, d, NULL);
  result r = import_pbw(&g, 13);
  assert_int_equal(r.rc, 0);
  expect_in(r.manifest,
            "        \"title\": \"sub-graph 'then_branch' of If 'inner'\",\n"
            "        \"path\": [\n"
            "          {\"node\": 0, \"op_type\": \"If\", \"name\": \"outer\", "
            "\"attribute\": \"then_branch\", \"graph\": 0},\n"
            "          {\"node\": 1, \"op_type\": \"If\", \"name\": \"inner\", "
            "\"attribute\": \"then_branch\", \"graph\": 0}\n"
            "        ]\n");
  pbw_free(&th);
  pbw_free(&el);
  pbw_free(&inner);
  pbw_free(&outer_th);
  pbw_free(&outer_el);
  pbw_free(&attrs);
  pbw_free(&g);
  done(&r);
}

/* A model whose every kernel sits in a sub-graph: the first entry opens the list (no
   separator before it), the last closes it. */
static void test_manifest_whose_kernels_are_all_in_sub_graphs_is_well_formed(void **state) {
  (void)state;
  pbw                  g = {0}, th = {0}, el = {0}, attrs = {0};
  static const int64_t d[] = {2, 3};
  node1(&th, "Relu", NULL, "x", "t");
  pbw_value_info(&th, 12, "t", 1, 2, d, NULL);
  node1(&el, "Neg", NULL, "x", "e");
  pbw_value_info(&el, 12, "e", 1, 2, d, NULL);
  pbw_graph_attr(&attrs, "then_branch", &th);
  pbw_graph_attr(&attrs, "else_branch", &el);
  const char *const in[] = {"c"};
  pbw_node(&g, "If", "branch", in, 1, "r", &attrs);
  pbw_value_info(&g, 11, "c", 9, 0, NULL, NULL);
  pbw_value_info(&g, 11, "x", 1, 2, d, NULL);
  pbw_value_info(&g, 12, "r", 1, 2, d, NULL);
  result r = import_pbw(&g, 13);
  assert_int_equal(r.rc, 0);
  expect_in(r.manifest, "  \"kernels\": [\n    {\n      \"name\": \"t\",\n");
  expect_in(r.manifest, "\n    },\n    {\n      \"name\": \"e\",\n");
  size_t n = strlen(r.manifest);
  assert_true(n > 7);
  assert_string_equal(r.manifest + n - 7, "\n  ]\n}\n");
  assert_null(strstr(r.manifest, "[,"));
  pbw_free(&th);
  pbw_free(&el);
  pbw_free(&attrs);
  pbw_free(&g);
  done(&r);
}

/* ONNX names are any bytes: quotes, backslashes and control characters are escaped, bytes
   that are not UTF-8 become U+FFFD, and UTF-8 passes as it is. */
static void test_manifest_escapes_names_into_valid_json(void **state) {
  (void)state;
  pbw                  g = {0};
  static const int64_t d[] = {4};
  node1(&g, "Relu", "a\"b\\c\nd", "x\xc3\xa9", "y\xff");
  pbw_value_info(&g, 11, "x\xc3\xa9", 1, 1, d, NULL);
  pbw_value_info(&g, 12, "y\xff", 1, -1, NULL, NULL);
  result r = import_pbw(&g, 13);
  assert_int_equal(r.rc, 0);
  expect_in(r.manifest, "\"name\": \"a\\\"b\\\\c\\u000ad\", \"inputs\": [\"x\xc3\xa9\"], "
                        "\"outputs\": [\"y\\ufffd\"]}");
  expect_in(r.manifest, "\"tensor\": \"x\xc3\xa9\"");
  pbw_free(&g);
  done(&r);
}

/* Reads a whole file (NULL when it cannot). */
static char *slurp_text(const char *path) {
  FILE *f = fopen(path, "rb");
  if (f == NULL) return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *s = malloc((size_t)n + 1);
  size_t got = fread(s, 1, (size_t)n, f);
  s[got] = '\0';
  fclose(f);
  return s;
}

/* The command writes SPEC.json beside SPEC, or the file --manifest names; its "spec" is
   the spec's path as given. */
static void test_import_command_writes_the_manifest_beside_the_spec_or_where_told(void **state) {
  (void)state;
  char dir[] = "/tmp/wherec_manifest_XXXXXX", model[1024], spec[256], json[256], other[256];
  assert_non_null(mkdtemp(dir));
  snprintf(model, sizeof model, "%s/attention_mask/model.onnx", WHEREC_MODELS_DIR);
  snprintf(spec, sizeof spec, "%s/mask.where", dir);
  snprintf(json, sizeof json, "%s/mask.where.json", dir);
  snprintf(other, sizeof other, "%s/kernels.json", dir);
  assert_int_equal(import_command(model, spec, NULL), 0);
  char *text = slurp_text(json);
  assert_non_null(text);
  expect_in(text, "\"spec\": \"");
  expect_in(text, "/mask.where\",\n");
  expect_in(text, "\"tensor\": \"masked\"");
  import_options o = {.manifest = other};
  assert_int_equal(import_command(model, spec, &o), 0);
  char *again = slurp_text(other);
  assert_non_null(again);
  assert_string_equal(text, again);
  free(text);
  free(again);
  unlink(json);
  unlink(other);
  unlink(spec);
  assert_int_equal(rmdir(dir), 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_manifest_of_padding_mask_names_nodes_parameters_literals_and_output),
      cmocka_unit_test(test_manifest_is_the_same_bytes_on_every_import),
      cmocka_unit_test(test_manifest_gives_extents_and_per_channel_initializers),
      cmocka_unit_test(test_manifest_scopes_sub_graph_kernels_and_their_outer_values),
      cmocka_unit_test(test_manifest_paths_a_nested_sub_graph_from_the_model_down),
      cmocka_unit_test(test_manifest_whose_kernels_are_all_in_sub_graphs_is_well_formed),
      cmocka_unit_test(test_manifest_escapes_names_into_valid_json),
      cmocka_unit_test(test_import_command_writes_the_manifest_beside_the_spec_or_where_told),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
