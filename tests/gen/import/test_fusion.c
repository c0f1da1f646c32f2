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
  assert_int_equal(where->kind, OP_WHERE);
  assert_int_equal(where->since, 9);
  assert_int_equal(where->min_in, 3);
  assert_int_equal(where->max_in, 3);
  assert_non_null(clip);
  assert_int_equal(clip->min_in, 1);
  assert_int_equal(clip->max_in, 3);
  assert_int_equal(clip->copies, 4);
  assert_string_equal(op_lookup("", "Greater")->spell, ">");
  assert_int_equal(op_lookup("", "Greater")->since, 1);
  assert_int_equal(op_lookup("", "Max")->max_in, -1);
  assert_null(op_lookup("com.microsoft", "Where"));
  assert_null(op_lookup("", "Softmax"));
  assert_int_equal(op_operands(op_lookup("", "CastLike"), 2), 1);
  assert_int_equal(op_operands(op_lookup("", "Where"), 3), 3);
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

static void test_fusion_keeps_a_shared_producer_apart_and_fuses_a_sole_one(void **state) {
  (void)state;
  pbw g = {0};
  shared_compare_and_relu(&g);
  built *b = build_pbw(&g);
  fusion_form(&b->f, &b->gr);
  const fusion *f = &b->f;
  int gn = node_named(b, "g"), w1 = node_named(b, "w1"), w2 = node_named(b, "w2");
  int n = node_named(b, "n"), r = node_named(b, "r");
  assert_int_equal(f->n_regions, 4);
  for (int i = 0; i < b->gr.g->n_nodes; i++) assert_null(f->nodes[i].reason);
  /* gt feeds two regions: a region (a kernel) of its own */
  assert_int_not_equal(f->nodes[gn].region, f->nodes[w1].region);
  assert_int_not_equal(f->nodes[w1].region, f->nodes[w2].region);
  assert_int_equal(f->regions[f->nodes[gn].region].root, gn);
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

static void test_fusion_gives_each_refused_node_its_reason(void **state) {
  (void)state;
  pbw g = {0};
  static const int64_t four[] = {4};
  static const char *const nz_in[] = {"x"}, *const w_in[] = {"x", "x", "x"},
                           *const s_in[] = {"x"};
  pbw_node(&g, "Not", "nt", nz_in, 1, "a", NULL);             /* Not on float */
  pbw_node(&g, "Where", "w", w_in, 3, "b", NULL);             /* condition not bool */
  pbw_node(&g, "Softmax", "sm", s_in, 1, "c", NULL);
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
  /* the Where reads the shared comparison as a parameter */
  diag_text_free(&stmt);
  int w1 = b->f.nodes[node_named(b, "w1")].region;
  assert_null(spec_write_kernel(&w, w1, taken, 0, &name, &stmt));
  assert_string_equal(stmt.data, "kernel o1(x: float[4], y: float[4], gt: bool[4]) = where(gt, x, y);\n");
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

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_operator_table_knows_the_default_domain_only),
    cmocka_unit_test(test_graph_infers_dtypes_shapes_and_consumers_of_known_operators),
    cmocka_unit_test(test_graph_names_each_dim_param_once_as_a_symbol),
    cmocka_unit_test(test_fusion_keeps_a_shared_producer_apart_and_fuses_a_sole_one),
    cmocka_unit_test(test_fusion_gives_each_refused_node_its_reason),
    cmocka_unit_test(test_spec_write_renders_one_region_as_a_kernel_and_its_comment),
    cmocka_unit_test(test_spec_literals_read_back_to_the_same_bits),
    cmocka_unit_test(test_kernel_the_front_end_refuses_is_listed_with_its_first_error),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
