/* test_fusion.c: the importer's pieces on small hand-built graphs: the graph (inference,
   consumers, symbols), the operator table, fusion's regions, and one kernel's spec text. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "import/forms.h"
#include "import/fusion.h"
#include "import/graph.h"
#include "import/import.h"
#include "import/ops.h"
#include "import/spec_write.h"
#include "pbw.h"

/* A model read and its graph built, with what it printed. */
typedef struct built {
  arena        a;              /* no out-of-memory jump: a failed allocation crashes the test */
  onnx_model  *m;
  import_graph gr;
  fusion       f;
  char        *log;
  size_t       log_len;
} built;

/* Reads the model around g and builds its graph; the test fails if either refuses. */
static built *build_pbw(const pbw *g) {
  built *b = calloc(1, sizeof *b);
  pbw m = {0};
  char err[256];
  pbw_model(&m, g, 17);
  b->m = onnx_read_model(m.buf, m.len, err, sizeof err);
  pbw_free(&m);
  if (b->m == NULL) fail_msg("the model does not read: %s", err);
  arena_init(&b->a);
  FILE *log = open_memstream(&b->log, &b->log_len);
  bool ok = graph_build(&b->gr, &b->a, log, b->m);
  fclose(log);
  if (!ok) fail_msg("graph_build refused: %s", b->log);
  return b;
}

static void built_free(built *b) {
  fusion_free(&b->f);
  onnx_model_free(b->m);
  arena_free(&b->a);
  free(b->log);
  free(b);
}

static int node_named(const built *b, const char *name) {
  for (int i = 0; i < b->gr.g->n_nodes; i++)
    if (strcmp(b->gr.nodes[i].n->name, name) == 0) return i;
  fail_msg("no node '%s'", name);
  return -1;
}

/* x, y: float[4]; gt = Greater(x, y) read by two Wheres; o3 = Relu(Neg(x)). */
static void shared_compare_and_relu(pbw *g) {
  static const int64_t four[] = {4};
  static const char *const gt_in[] = {"x", "y"}, *const w1_in[] = {"gt", "x", "y"},
                           *const w2_in[] = {"gt", "y", "x"}, *const n_in[] = {"x"},
                           *const r_in[] = {"nx"};
  pbw_node(g, "Greater", "g", gt_in, 2, "gt", NULL);
  pbw_node(g, "Where", "w1", w1_in, 3, "o1", NULL);
  pbw_node(g, "Where", "w2", w2_in, 3, "o2", NULL);
  pbw_node(g, "Neg", "n", n_in, 1, "nx", NULL);
  pbw_node(g, "Relu", "r", r_in, 1, "o3", NULL);
  pbw_value_info(g, 11, "x", 1, 1, four, NULL);
  pbw_value_info(g, 11, "y", 1, 1, four, NULL);
  pbw_value_info(g, 12, "o1", 1, -1, NULL, NULL);
  pbw_value_info(g, 12, "o2", 1, -1, NULL, NULL);
  pbw_value_info(g, 12, "o3", 1, -1, NULL, NULL);
}

static void test_operator_table_knows_the_default_domain_only(void **state) {
  (void)state;
  const op_row *where = op_lookup("", "Where"), *clip = op_lookup("ai.onnx", "Clip");
  assert_non_null(where);
  assert_int_equal(where->id, OP_Where);
  assert_int_equal(where->first, 9);
  assert_int_equal(where->min_in, 3);
  assert_int_equal(where->max_in, 3);
  assert_int_equal(where->typed, 1); /* X: Where is typed on its values, not its condition */
  assert_non_null(clip);
  assert_int_equal(clip->min_in, 1);
  assert_int_equal(clip->max_in, 3);
  assert_true(clip->in_optional[1] && clip->in_optional[2]);
  assert_string_equal(op_lookup("", "Greater")->formula, "A > B");
  assert_int_equal(op_lookup("", "Greater")->first, 1);
  assert_int_equal(op_lookup("", "Max")->max_in, -1);
  assert_int_equal(op_lookup("", "CastLike")->in_kind[1], '*');
  assert_null(op_lookup("com.microsoft", "Where"));
  assert_false(op_lookup("", "Hardmax")->elementwise); /* a rule for inference only */
  assert_true(op_lookup("", "Softmax")->elementwise);  /* row reductions: a builder */
  assert_null(op_lookup("", "NoSuchOperator"));
  /* the table as --list-operators prints it */
  char  *json = NULL;
  size_t n = 0;
  FILE  *f = open_memstream(&json, &n);
  op_list_json(f);
  fclose(f);
  assert_non_null(strstr(json, "{\"name\": \"Where\", \"domain\": \"ai.onnx\", \"since\": [9, 16],"));
  assert_non_null(strstr(json, "\"formula\": \"where(condition, X, Y)\""));
  assert_non_null(strstr(json, "{\"name\": \"alpha\", \"type\": \"float\", \"default\": 0.00999999978"));
  free(json);
}

static void test_graph_infers_dtypes_shapes_and_consumers_of_known_operators(void **state) {
  (void)state;
  pbw g = {0};
  shared_compare_and_relu(&g);
  built *b = build_pbw(&g);
  const import_graph *gr = &b->gr;
  int gt = graph_find(gr, "gt"), nx = graph_find(gr, "nx");
  assert_true(gt >= 0 && nx >= 0);
  assert_int_equal(graph_find(gr, "nothing"), -1);
  assert_int_equal(gr->vals[gt].dtype, WC_BOOL);
  assert_true(gr->vals[gt].shaped);
  assert_int_equal(gr->vals[gt].shape.rank, 1);
  assert_int_equal(gr->vals[gt].shape.dims[0], 4);
  assert_int_equal(gr->vals[gt].producer, node_named(b, "g"));
  assert_int_equal(gr->vals[nx].dtype, WC_FLOAT);
  assert_int_equal(gr->n_users[gt], 2);
  assert_true(gr->vals[graph_find(gr, "o1")].is_output);
  assert_int_equal(gr->vals[graph_find(gr, "y")].input, 1);
  assert_string_equal(graph_node_label(gr, node_named(b, "w2")), "Where 'w2'");
  built_free(b);
  pbw_free(&g);
}

static void test_graph_names_each_dim_param_once_as_a_symbol(void **state) {
  (void)state;
  pbw g = {0};
  static const int64_t dims[] = {-1, 5};
  static const char *const params[] = {"N", NULL}, *const in[] = {"a", "b"};
  pbw_node(&g, "Add", "s", in, 2, "c", NULL);
  pbw_value_info(&g, 11, "a", 1, 2, dims, params);
  pbw_value_info(&g, 11, "b", 1, 2, dims, params);
  pbw_value_info(&g, 12, "c", 1, -1, NULL, NULL);
  built *b = build_pbw(&g);
  const import_graph *gr = &b->gr;
  const graph_value *c = &gr->vals[graph_find(gr, "c")];
  assert_int_equal(gr->n_syms, 1);
  assert_string_equal(gr->syms[0], "N");
  assert_true(c->shaped);
  assert_true(c->shape.dims[0] == WC_SYM(0));
  assert_int_equal(c->shape.dims[1], 5);
  built_free(b);
  pbw_free(&g);
}

/* An extent the model leaves unnamed gets a made-up symbol called unk__N; a dim_param the
   model names unk__N itself (as onnx's shape inference writes them) is another extent. */
static void test_a_dim_param_named_like_a_made_up_symbol_is_its_own(void **state) {
  (void)state;
  pbw g = {0};
  static const int64_t dims[] = {-1, 5};
  static const char *const named[] = {"unk__0", NULL};
  pbw_node(&g, "Relu", "r", (const char *const[]){"a"}, 1, "c", NULL);
  pbw_node(&g, "Relu", "q", (const char *const[]){"b"}, 1, "d", NULL);
  pbw_value_info(&g, 11, "a", 1, 2, dims, NULL);  /* unnamed: unk__0, made up */
  pbw_value_info(&g, 11, "b", 1, 2, dims, named); /* the model's own unk__0 */
  pbw_value_info(&g, 12, "c", 1, -1, NULL, NULL);
  pbw_value_info(&g, 12, "d", 1, -1, NULL, NULL);
  built *b = build_pbw(&g);
  const import_graph *gr = &b->gr;
  int64_t da = graph_dim(gr, gr->vals[graph_find(gr, "a")].shape.dims[0]);
  int64_t db = graph_dim(gr, gr->vals[graph_find(gr, "b")].shape.dims[0]);
  assert_true(da < 0 && db < 0);
  assert_true(da != db);
  built_free(b);
  pbw_free(&g);
}

static void test_fusion_makes_a_shared_producer_an_output_and_fuses_a_sole_one(void **state) {
  (void)state;
  pbw g = {0};
  shared_compare_and_relu(&g);
  built *b = build_pbw(&g);
  fusion_form(&b->f, &b->gr);
  const fusion *f = &b->f;
  int gn = node_named(b, "g"), w1 = node_named(b, "w1"), w2 = node_named(b, "w2");
  int n = node_named(b, "n"), r = node_named(b, "r");
  assert_int_equal(f->n_regions, 3);
  for (int i = 0; i < b->gr.g->n_nodes; i++) assert_null(f->nodes[i].reason);
  /* gt feeds two regions: the first reader's writes it as one more output, the other
     reads it from memory */
  assert_int_equal(f->nodes[gn].region, f->nodes[w1].region);
  assert_true(f->nodes[gn].output && f->nodes[gn].let);
  assert_int_equal(f->regions[f->nodes[w1].region].n_extra, 1);
  assert_int_not_equal(f->nodes[w1].region, f->nodes[w2].region);
  assert_int_equal(f->regions[f->nodes[w2].region].root, w2);
  assert_int_equal(f->regions[f->nodes[w1].region].root, w1);
  /* Neg feeds only the Relu, which names its operand twice */
  assert_int_equal(f->nodes[n].region, f->nodes[r].region);
  assert_int_equal(f->regions[f->nodes[r].region].root, r);
  assert_int_equal(f->nodes[n].depth, 1);
  assert_int_equal(f->nodes[n].copies, 2);
  assert_false(fusion_whole_graph(f, &b->gr, f->nodes[r].region));
  built_free(b);
  pbw_free(&g);
}

/* a = Abs(x) read by the Greater and the Where of one select: a value read by several
   nodes of one region is a let of it, computed once. */
static void test_fusion_makes_a_value_read_by_two_nodes_of_one_region_a_let(void **state) {
  (void)state;
  static const int64_t     four[] = {4};
  static const char *const abs_in[] = {"x"}, *const gt_in[] = {"a", "y"},
                           *const w_in[] = {"gt", "a", "y"};
  pbw g = {0};
  pbw_node(&g, "Abs", "abs", abs_in, 1, "a", NULL);
  pbw_node(&g, "Greater", "g", gt_in, 2, "gt", NULL);
  pbw_node(&g, "Where", "w", w_in, 3, "o", NULL);
  pbw_value_info(&g, 11, "x", 1, 1, four, NULL);
  pbw_value_info(&g, 11, "y", 1, 1, four, NULL);
  pbw_value_info(&g, 12, "o", 1, -1, NULL, NULL);
  built *b = build_pbw(&g);
  fusion_form(&b->f, &b->gr);
  const fusion *f = &b->f;
  int ab = node_named(b, "abs"), gn = node_named(b, "g"), w = node_named(b, "w");
  /* one kernel: a, read by two of its nodes, is a `let` of it (computed once) */
  assert_int_equal(f->n_regions, 1);
  assert_int_equal(f->nodes[gn].region, f->nodes[w].region); /* gt has one reader */
  assert_int_equal(f->nodes[ab].region, f->nodes[w].region);
  assert_true(f->nodes[ab].let);
  assert_false(f->nodes[gn].let);
  built_free(b);
  pbw_free(&g);
}

static void test_fusion_gives_each_refused_node_its_reason(void **state) {
  (void)state;
  pbw g = {0};
  static const int64_t four[] = {4};
  static const char *const nz_in[] = {"x"}, *const w_in[] = {"x", "x", "x"},
                           *const s_in[] = {"x"};
  pbw_node(&g, "Not", "nt", nz_in, 1, "a", NULL);             /* Not on float */
  pbw_node(&g, "Where", "w", w_in, 3, "b", NULL);             /* condition not bool */
  pbw_node(&g, "Hardmax", "sm", s_in, 1, "c", NULL);
  pbw_value_info(&g, 11, "x", 1, 1, four, NULL);
  pbw_value_info(&g, 12, "a", 9, -1, NULL, NULL);
  pbw_value_info(&g, 12, "b", 1, -1, NULL, NULL);
  pbw_value_info(&g, 12, "c", 1, -1, NULL, NULL);
  built *b = build_pbw(&g);
  fusion_form(&b->f, &b->gr);
  assert_string_equal(b->f.nodes[node_named(b, "nt")].reason, "expects bool inputs");
  assert_string_equal(b->f.nodes[node_named(b, "w")].reason, "its condition is not bool");
  assert_string_equal(b->f.nodes[node_named(b, "sm")].reason, "not element-wise");
  assert_int_equal(b->f.nodes[node_named(b, "sm")].region, -1);
  assert_int_equal(b->f.n_regions, 0);
  built_free(b);
  pbw_free(&g);
}

static void test_spec_write_renders_one_region_as_a_kernel_and_its_comment(void **state) {
  (void)state;
  pbw g = {0};
  shared_compare_and_relu(&g);
  built *b = build_pbw(&g);
  fusion_form(&b->f, &b->gr);
  spec_writer w;
  spec_write_init(&w, &b->gr, &b->f);
  const char *taken[] = {"o3"}, *name = NULL;
  diag_text stmt = {0}, comment = {0};
  int r = b->f.nodes[node_named(b, "r")].region;
  assert_null(spec_write_kernel(&w, r, taken, 1, &name, &stmt));
  assert_string_equal(name, "o3_2");                    /* apart from the names taken */
  assert_string_equal(stmt.data, "kernel o3_2(x: float[4]) = where(-x < 0.0, 0.0, -x);\n");
  spec_write_comment(&w, r, &comment);
  assert_string_equal(comment.data, "# o3 = Relu 'r', Neg 'n'\n");
  /* the first Where writes the shared comparison too; the second reads it as a parameter */
  diag_text_free(&stmt);
  int w1 = b->f.nodes[node_named(b, "w1")].region, w2 = b->f.nodes[node_named(b, "w2")].region;
  assert_null(spec_write_kernel(&w, w1, taken, 0, &name, &stmt));
  assert_string_equal(stmt.data, "kernel o1(x: float[4], y: float[4]) -> (o1, gt) {\n"
                                 "  gt = x > y;\n"
                                 "  o1 = where(gt, x, y);\n"
                                 "}\n");
  assert_int_equal(w.n_extra, 1);
  diag_text_free(&stmt);
  assert_null(spec_write_kernel(&w, w2, taken, 0, &name, &stmt));
  assert_string_equal(stmt.data, "kernel o2(x: float[4], y: float[4], gt: bool[4]) = where(gt, y, x);\n");
  diag_text_free(&stmt);
  diag_text_free(&comment);
  built_free(b);
  pbw_free(&g);
}

static void test_spec_literals_read_back_to_the_same_bits(void **state) {
  (void)state;
  char out[80];
  uint64_t bits[2] = {0, 0};
  bits[0] = 0x3fc00000u;                                 /* 1.5f */
  assert_true(spec_literal_text(WC_FLOAT, bits, out, sizeof out));
  assert_string_equal(out, "1.5");
  bits[0] = 0x40000000u;                                 /* 2.0f: keeps its ".0" */
  assert_true(spec_literal_text(WC_FLOAT, bits, out, sizeof out));
  assert_string_equal(out, "2.0");
  bits[0] = 0xff;                                        /* int8 -1 */
  assert_true(spec_literal_text(WC_INT8, bits, out, sizeof out));
  assert_string_equal(out, "-1");
  bits[0] = 0xff800000u;
  assert_true(spec_literal_text(WC_FLOAT, bits, out, sizeof out));
  assert_string_equal(out, "-inf");
  bits[0] = 0x7fc00000u;
  assert_true(spec_literal_text(WC_FLOAT, bits, out, sizeof out));
  assert_string_equal(out, "nan");
  bits[0] = 0x7fc00001u;                                 /* a NaN payload has no spelling */
  assert_false(spec_literal_text(WC_FLOAT, bits, out, sizeof out));
  assert_false(spec_literal_text(WC_COMPLEX64, bits, out, sizeof out));
}

/* A kernel the front end refuses is not taken, with the first error's message alone. */
static void test_kernel_the_front_end_refuses_is_listed_with_its_first_error(void **state) {
  (void)state;
  pbw g = {0}, m = {0};
  static const int64_t three[] = {3}, four[] = {4};
  static const char *const in[] = {"c", "x", "y"};
  pbw_node(&g, "Where", "w", in, 3, "out", NULL);
  pbw_value_info(&g, 11, "c", 9, 1, three, NULL);
  pbw_value_info(&g, 11, "x", 1, 1, four, NULL);
  pbw_value_info(&g, 11, "y", 1, 1, four, NULL);
  pbw_value_info(&g, 12, "out", 1, -1, NULL, NULL);
  pbw_model(&m, &g, 17);
  char *log = NULL, *spec = NULL;
  size_t log_len = 0;
  FILE *f = open_memstream(&log, &log_len);
  assert_int_equal(import_model(m.buf, m.len, "test.onnx", f, &spec), GEN_EXIT_BAD_INPUT);
  fclose(f);
  assert_null(spec);
  const char *want = "wherec: not taken: Where 'w': the generator rejects it: cannot broadcast ";
  if (strstr(log, want) == NULL) fail_msg("'%s' not in:\n%s", want, log);
  assert_null(strstr(log, "import:1:"));                 /* no location, no quoted line */
  free(log);
  pbw_free(&m);
  pbw_free(&g);
}


/* An attribute for pbw_node: a float (kind 'f'), an int ('i') or a string ('s'). */
static void attr_add(pbw *attrs, const char *name, char kind, double v, const char *str) {
  pbw at = {0};
  pbw_str(&at, 1, name);
  if (kind == 'f') pbw_f32(&at, 2, (float)v);
  if (kind == 'i') pbw_int(&at, 3, (int64_t)v);
  if (kind == 's') pbw_str(&at, 4, str);
  pbw_int(&at, 20, kind == 'f' ? 1 : kind == 'i' ? 2 : 3);
  pbw_msg(attrs, 5, &at);
  pbw_free(&at);
}

/* The spec text fusion and the writer give one node op(x[, y]) over elem[4] at opset
   (attrs may be NULL): the kernel statement without its newline, or "refused: reason"
   (the node's or the region's). Checks no front end: the text is what it must be
   once the spec language has every function it names. */
static char *form_of(const char *op, int elem, int n_in, const pbw *attrs, int opset) {
  static const int64_t four[] = {4};
  static const char *const in[] = {"x", "y"};
  pbw g = {0}, m = {0};
  char err[256];
  pbw_node(&g, op, "n", in, n_in, "out", attrs);
  pbw_value_info(&g, 11, "x", elem, 1, four, NULL);
  if (n_in > 1) pbw_value_info(&g, 11, "y", elem, 1, four, NULL);
  pbw_value_info(&g, 12, "out", 0, -1, NULL, NULL);
  pbw_model(&m, &g, opset);
  built *b = calloc(1, sizeof *b);
  b->m = onnx_read_model(m.buf, m.len, err, sizeof err);
  if (b->m == NULL) fail_msg("the model does not read: %s", err);
  arena_init(&b->a);
  FILE *log = open_memstream(&b->log, &b->log_len);
  if (!graph_build(&b->gr, &b->a, log, b->m)) fail_msg("graph_build refused");
  fclose(log);
  fusion_form(&b->f, &b->gr);
  char *out;
  const char *why = b->f.nodes[0].reason;
  if (why == NULL) {
    spec_writer w;
    const char *name = NULL;
    diag_text   stmt = {0};
    spec_write_init(&w, &b->gr, &b->f);
    why = spec_write_kernel(&w, b->f.nodes[0].region, NULL, 0, &name, &stmt);
    if (why == NULL) stmt.data[stmt.len - 2] = '\0'; /* ";\n" */
    out = why ? NULL : strdup(stmt.data);
    diag_text_free(&stmt);
  } else {
    out = NULL;
  }
  if (out == NULL) {
    size_t n = strlen(why) + 16;
    out = malloc(n);
    snprintf(out, n, "refused: %s", why);
  }
  built_free(b);
  pbw_free(&g);
  pbw_free(&m);
  return out;
}

static void expect_form(const char *op, int elem, int n_in, const pbw *attrs, int opset,
                        const char *want) {
  char *got = form_of(op, elem, n_in, attrs, opset);
  if (strcmp(got, want) != 0) fail_msg("%s: got\n  %s\nwanted\n  %s", op, got, want);
  free(got);
}

enum { F32 = 1, U8 = 2, I8 = 3, I32 = 6, F16 = 10, F64 = 11, U32 = 12 };

static void test_activations_are_written_as_onnx_defines_them(void **state) {
  (void)state;
  pbw a = {0};
  expect_form("Elu", F32, 1, NULL, 17, "kernel out(x: float[4]) = where(x < 0.0, 1.0 * expm1(x), x)");
  expect_form("Selu", F32, 1, NULL, 17, "kernel out(x: float[4]) = selu(x)"); /* the defaults */
  expect_form("Selu", F16, 1, NULL, 17, "kernel out(x: float16[4]) = selu(x)");
  expect_form("Celu", F32, 1, NULL, 17,
              "kernel out(x: float[4]) = max(0.0, x) + min(0.0, 1.0 * expm1(x / 1.0))");
  expect_form("HardSigmoid", F32, 1, NULL, 17,
              "kernel out(x: float[4]) = max(0.0, min(1.0, (0.200000003 * x) + 0.5))");
  expect_form("HardSwish", F32, 1, NULL, 17,
              "kernel out(x: float[4]) = x * max(0.0, min(1.0, (0.166666672 * x) + 0.5))");
  expect_form("HardSwish", F64, 1, NULL, 17,
              "kernel out(x: double[4]) = x * max(0.0, min(1.0, (0.16666666666666666 * x) + 0.5))");
  expect_form("ThresholdedRelu", F32, 1, NULL, 17, "kernel out(x: float[4]) = where(x > 1.0, x, 0.0)");
  expect_form("Shrink", F32, 1, NULL, 17,
              "kernel out(x: float[4]) = where(x < (-0.5), x + 0.0, where(x > 0.5, x - 0.0, 0.0))");
  expect_form("Shrink", U8, 1, NULL, 17, "refused: lambd 0.5 or bias 0 is not a whole number, which uint8 cannot hold");
  attr_add(&a, "lambd", 'f', 2, NULL);
  attr_add(&a, "bias", 'f', 1, NULL);
  expect_form("Shrink", U8, 1, &a, 17, "kernel out(x: uint8[4]) = where(x > 2, x - 1, 0)");
  /* a NaN lambd with a payload: no literal spells it, the node is refused (found by
     fuzz_onnx: corpus regress-shrink-nan-attribute) */
  pbw      nan_attr = {0};
  uint64_t nan_bits = 0x7ff8000020000000u; /* as a float attribute: 0x7fc00001 */
  double   nan_payload;
  memcpy(&nan_payload, &nan_bits, sizeof nan_payload);
  attr_add(&nan_attr, "lambd", 'f', nan_payload, NULL);
  expect_form("Shrink", F32, 1, &nan_attr, 17,
              "refused: a constant it needs has no literal in float (a NaN with a payload, or out "
              "of range)");
  pbw_free(&nan_attr);
  /* on an integer dtype a NaN or a lambd past int64 is no whole number: refused, with
     no float-to-integer conversion of it (found by fuzz_onnx under UBSan: corpus
     regress-shrink-huge-integer-attribute) */
  pbw huge = {0};
  attr_add(&huge, "lambd", 'f', 7.3787e19, NULL);
  expect_form("Shrink", I8, 1, &huge, 17,
              "refused: lambd 7.3787e+19 or bias 0 is not a whole number, which int8 cannot hold");
  pbw_free(&huge);
  pbw nan_int = {0};
  attr_add(&nan_int, "lambd", 'f', nan_payload, NULL);
  expect_form("Shrink", I8, 1, &nan_int, 17,
              "refused: lambd nan or bias 0 is not a whole number, which int8 cannot hold");
  pbw_free(&nan_int);
  expect_form("Shrink", I8, 1, &a, 17,
              "kernel out(x: int8[4]) = where(x < (-2), x + 1, where(x > 2, x - 1, 0))");
  pbw_free(&a);
  attr_add(&a, "alpha", 'f', 0.5, NULL);
  expect_form("Elu", F16, 1, &a, 17,
              "kernel out(x: float16[4]) = where(x < 0.0, 0.5 * expm1(x), x)");
  expect_form("Selu", F32, 1, &a, 17, /* another alpha: expm1, then ONNX's products */
              "kernel out(x: float[4]) = where(x > 0.0, 1.05070102 * x, "
              "(expm1(x) * 0.5) * 1.05070102)");
  pbw_free(&a);
  expect_form("Sign", F32, 1, NULL, 17,
              "kernel out(x: float[4]) = where(x > 0.0, 1.0, where(x < 0.0, -1.0, where(x == 0.0, 0.0, x)))");
  expect_form("Sign", I32, 1, NULL, 17,
              "kernel out(x: int32[4]) = where(x > 0, 1, where(x < 0, int32(-1), int32(0)))");
  expect_form("Sign", U32, 1, NULL, 17, "kernel out(x: uint32[4]) = where(x > 0, uint32(1), uint32(0))");
  expect_form("PRelu", F32, 2, NULL, 17, "kernel out(x: float[4], y: float[4]) = where(x < 0.0, x * y, x)");
  expect_form("Softsign", F32, 1, NULL, 17, "kernel out(x: float[4]) = softsign(x)");
  expect_form("Reciprocal", F32, 1, NULL, 17, "kernel out(x: float[4]) = 1.0 / x");
  expect_form("Celu", F64, 1, NULL, 11, "refused: Celu is not in opset 11: it appeared in opset 12");
  expect_form("Elu", I32, 1, NULL, 17, "refused: Elu is not defined on int32");
}

static void test_math_bitwise_and_tests_are_written_with_the_spec_operators(void **state) {
  (void)state;
  pbw a = {0};
  expect_form("Mod", I32, 2, NULL, 17, "kernel out(x: int32[4], y: int32[4]) = x % y");
  expect_form("Mod", F32, 2, NULL, 17,
              "refused: fmod=0 on floating-point inputs: ONNX defines Mod on floats with fmod=1 only "
              "before opset 28");
  /* Mod-28: numpy's floor modulo (np.mod), b's sign, a zero result signed as b */
  expect_form("Mod", F32, 2, NULL, 28,
              "kernel out(x: float[4], y: float[4]) = where(fmod(x, y) != 0.0, where((fmod(x, y) < 0.0) "
              "!= (y < 0.0), fmod(x, y) + y, fmod(x, y)), where(y < 0.0, float(-0.0), float(0.0)))");
  attr_add(&a, "fmod", 'i', 1, NULL);
  expect_form("Mod", F32, 2, &a, 17, "kernel out(x: float[4], y: float[4]) = fmod(x, y)");
  expect_form("Mod", I32, 2, &a, 17, "kernel out(x: int32[4], y: int32[4]) = fmod(x, y)");
  pbw_free(&a);
  expect_form("Floor", F32, 1, NULL, 17, "kernel out(x: float[4]) = floor(x)");
  expect_form("Ceil", F16, 1, NULL, 17, "kernel out(x: float16[4]) = ceil(x)");
  expect_form("Round", F64, 1, NULL, 17, "kernel out(x: double[4]) = round(x)");
  expect_form("Sqrt", F32, 1, NULL, 17, "kernel out(x: float[4]) = sqrt(x)");
  expect_form("Sqrt", I32, 1, NULL, 17, "refused: Sqrt is not defined on int32");
  expect_form("BitwiseAnd", U8, 2, NULL, 18, "kernel out(x: uint8[4], y: uint8[4]) = x & y");
  expect_form("BitwiseOr", I32, 2, NULL, 18, "kernel out(x: int32[4], y: int32[4]) = x | y");
  expect_form("BitwiseXor", I8, 2, NULL, 18, "kernel out(x: int8[4], y: int8[4]) = x ^ y");
  expect_form("BitwiseNot", U32, 1, NULL, 18, "kernel out(x: uint32[4]) = ~x");
  expect_form("BitwiseAnd", F32, 2, NULL, 18, "refused: BitwiseAnd is not defined on float");
  expect_form("BitwiseAnd", I32, 2, NULL, 17, "refused: BitwiseAnd is not in opset 17: it appeared in opset 18");
  expect_form("BitShift", U8, 2, NULL, 17, "refused: its direction is neither \"LEFT\" nor \"RIGHT\"");
  attr_add(&a, "direction", 's', 0, "LEFT");
  expect_form("BitShift", U32, 2, &a, 17, "kernel out(x: uint32[4], y: uint32[4]) = x << y");
  expect_form("BitShift", I32, 2, &a, 17, "refused: BitShift is not defined on int32 before opset 28");
  expect_form("BitShift", I32, 2, &a, 28, "kernel out(x: int32[4], y: int32[4]) = x << y");
  pbw_free(&a);
  attr_add(&a, "direction", 's', 0, "RIGHT");
  expect_form("BitShift", U8, 2, &a, 17, "kernel out(x: uint8[4], y: uint8[4]) = x >> y");
  pbw_free(&a);
  expect_form("IsNaN", F32, 1, NULL, 17, "kernel out(x: float[4]) = x != x");
  expect_form("IsInf", F32, 1, NULL, 17, "kernel out(x: float[4]) = abs(x) == inf");
  attr_add(&a, "detect_positive", 'i', 0, NULL);
  expect_form("IsInf", F16, 1, &a, 17, "kernel out(x: float16[4]) = x == (-inf)");
  attr_add(&a, "detect_negative", 'i', 0, NULL);
  expect_form("IsInf", F64, 1, &a, 17, "kernel out(x: double[4]) = (x == inf) && (x == (-inf))");
  pbw_free(&a);
  expect_form("GreaterOrEqual", I32, 2, NULL, 12, "kernel out(x: int32[4], y: int32[4]) = x >= y");
  expect_form("LessOrEqual", F32, 2, NULL, 11, "refused: LessOrEqual is not in opset 11: it appeared in opset 12");
  expect_form("Cast", F32, 1, NULL, 17, "refused: no 'to' attribute");
}

static void test_legacy_attributes_of_opset_6_are_honoured_or_refused(void **state) {
  (void)state;
  pbw a = {0};
  /* Add-6 without broadcast: one shape (here both [4]) */
  expect_form("Add", F32, 2, NULL, 6, "kernel out(x: float[4], y: float[4]) = x + y");
  attr_add(&a, "consumed_inputs", 'i', 0, NULL); /* a memory hint of opset 1: no effect */
  expect_form("Relu", F32, 1, &a, 6, "kernel out(x: float[4]) = where(x < 0.0, 0.0, x)");
  pbw_free(&a);
  attr_add(&a, "broadcast", 'i', 1, NULL);
  attr_add(&a, "axis", 'i', 0, NULL);            /* B aligned with A from 0 = trailing for [4] */
  expect_form("Mul", F32, 2, &a, 6, "kernel out(x: float[4], y: float[4]) = x * y");
  pbw_free(&a);
  attr_add(&a, "min", 'f', -1, NULL);
  expect_form("Clip", F16, 1, &a, 6,
              "kernel out(x: float16[4]) = where(x < (-1.0), -1.0, where(x > inf, inf, x))");
  expect_form("Clip", I32, 1, &a, 6, "refused: Clip before opset 11 is defined on floating-point inputs only");
  pbw_free(&a);
  expect_form("Where", F32, 2, NULL, 8, "refused: Where is not in opset 8: it appeared in opset 9");
}

/* A stand-in for input k of the formula under test (test_every_formula_of_the_table_...). */
static ex *formula_stand_in(form *f, int k, int pad) {
  (void)pad;
  return ex_make(f->x, EX_PARAM, f->gr->vals[f->ni->in[k]].dtype, f->ni->op->in_name[k], 0, NULL,
                 NULL, NULL);
}

/* Each row's formula parses to the end, names only its inputs, number attributes and the
   spec's functions, and reads every input that is no optional or typing-only one: a typo
   in the table fails here, by the operator's name, before any model reaches it. */
static void test_every_formula_of_the_table_parses_and_reads_its_inputs(void **state) {
  (void)state;
  arena a;
  arena_init(&a);
  import_graph gr = {0};
  graph_value  vals[OP_MAX_INPUTS];
  int          in[OP_MAX_INPUTS], reads[OP_MAX_INPUTS];
  gr.a = &a;
  gr.vals = vals;
  for (int id = 0; id < OP_N; id++) {
    const op_row *op = op_get((op_id)id);
    if (op->formula == NULL || op->id == OP_Constant) continue;
    onnx_node  n = {0};
    graph_node ni = {0};
    n.op_type = op->name;
    n.n_inputs = op->n_named;
    ni.n = &n;
    ni.op = op;
    ni.in = in;
    for (int k = 0; k < op->n_named; k++) {
      memset(&vals[k], 0, sizeof vals[k]);
      vals[k].dtype = op->in_kind[k] == 'B' || op->types == OPT_B ? WC_BOOL : WC_FLOAT;
      in[k] = k;
      reads[k] = 0;
    }
    ex_ctx      x = {&gr, NULL};
    fusion_node fn = {0};
    form        f = {&x, &gr, &ni, &fn, &fn.at, vals[op->typed].dtype, formula_stand_in, NULL, 0, reads};
    const char *why = NULL;
    ex         *e = form_formula(&f, op->formula, &why);
    if (why) fail_msg("%s: %s", op->name, why);
    if (e == NULL) fail_msg("%s: no expression", op->name);
    for (int k = 0; k < op->n_named; k++)
      if (!op->in_optional[k] && op->in_kind[k] != '*' && reads[k] == 0)
        fail_msg("%s: its formula never reads input %s", op->name, op->in_name[k]);
  }
  arena_free(&a);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_operator_table_knows_the_default_domain_only),
    cmocka_unit_test(test_every_formula_of_the_table_parses_and_reads_its_inputs),
    cmocka_unit_test(test_graph_infers_dtypes_shapes_and_consumers_of_known_operators),
    cmocka_unit_test(test_graph_names_each_dim_param_once_as_a_symbol),
    cmocka_unit_test(test_a_dim_param_named_like_a_made_up_symbol_is_its_own),
    cmocka_unit_test(test_fusion_makes_a_shared_producer_an_output_and_fuses_a_sole_one),
    cmocka_unit_test(test_fusion_makes_a_value_read_by_two_nodes_of_one_region_a_let),
    cmocka_unit_test(test_fusion_gives_each_refused_node_its_reason),
    cmocka_unit_test(test_spec_write_renders_one_region_as_a_kernel_and_its_comment),
    cmocka_unit_test(test_spec_literals_read_back_to_the_same_bits),
    cmocka_unit_test(test_kernel_the_front_end_refuses_is_listed_with_its_first_error),
    cmocka_unit_test(test_activations_are_written_as_onnx_defines_them),
    cmocka_unit_test(test_math_bitwise_and_tests_are_written_with_the_spec_operators),
    cmocka_unit_test(test_legacy_attributes_of_opset_6_are_honoured_or_refused),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
