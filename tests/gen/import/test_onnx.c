/* test_onnx.c: the protobuf wire-format reader: the ONNX messages it needs, tensor
   decoding from every data field, and malformed bytes that must fail cleanly. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "import/onnx.h"
#include "pbw.h"

/* A model: Where(c: bool[2,1], x: float[N,3], y: float[]) -> out, opset 16. */
static void where_model(pbw *m) {
  pbw g = {0}, at = {0};
  static const int64_t d21[] = {2, 1}, dn3[] = {-1, 3};
  static const char *const pn3[] = {"N", NULL};
  static const char *const in[] = {"c", "x", "y"};
  pbw_str(&g, 2, "g");
  pbw_node(&g, "Where", "w", in, 3, "out", NULL);
  pbw_value_info(&g, 11, "c", 9, 2, d21, NULL);
  pbw_value_info(&g, 11, "x", 1, 2, dn3, pn3);
  pbw_value_info(&g, 11, "y", 1, 0, NULL, NULL);
  pbw_value_info(&g, 12, "out", 1, -1, NULL, NULL);
  pbw_model(m, &g, 16);
  pbw_free(&g);
  pbw_free(&at);
}

static void test_model_graph_nodes_and_value_infos_are_read(void **state) {
  (void)state;
  pbw m = {0};
  char err[256];
  where_model(&m);
  onnx_model *om = onnx_read_model(m.buf, m.len, err, sizeof err);
  if (om == NULL) fail_msg("%s", err);
  assert_int_equal(om->ir_version, 8);
  assert_int_equal(onnx_opset_version(om), 16);
  const onnx_graph *g = &om->graph;
  assert_string_equal(g->name, "g");
  assert_int_equal(g->n_nodes, 1);
  assert_string_equal(g->nodes[0].op_type, "Where");
  assert_string_equal(g->nodes[0].name, "w");
  assert_string_equal(g->nodes[0].domain, "");
  assert_int_equal(g->nodes[0].n_inputs, 3);
  assert_string_equal(g->nodes[0].inputs[2], "y");
  assert_string_equal(g->nodes[0].outputs[0], "out");
  assert_int_equal(g->n_inputs, 3);
  assert_int_equal(g->inputs[0].elem_type, 9);
  assert_true(g->inputs[0].has_shape);
  assert_int_equal(g->inputs[0].rank, 2);
  assert_int_equal(g->inputs[0].dims[0].value, 2);
  assert_string_equal(g->inputs[1].dims[0].param, "N");
  assert_int_equal(g->inputs[1].dims[1].value, 3);
  assert_true(g->inputs[2].has_shape);
  assert_int_equal(g->inputs[2].rank, 0);
  assert_false(g->outputs[0].has_shape);
  onnx_model_free(om);
  pbw_free(&m);
}

static void test_attributes_of_every_kind_are_read(void **state) {
  (void)state;
  pbw m = {0}, g = {0}, attrs = {0}, a1 = {0}, a2 = {0}, a3 = {0}, packed = {0};
  char err[256];
  static const char *const in[] = {"x"};
  pbw_str(&a1, 1, "alpha");
  pbw_f32(&a1, 2, 0.25f);
  pbw_int(&a1, 20, 1);
  pbw_str(&a2, 1, "to");
  pbw_int(&a2, 3, -7);
  pbw_str(&a3, 1, "list");
  pbw_varint(&packed, 1);
  pbw_varint(&packed, 300);
  pbw_bytes(&a3, 8, packed.buf, packed.len);       /* packed ints */
  pbw_int(&a3, 8, 5);                              /* and one more unpacked */
  pbw_msg(&attrs, 5, &a1);
  pbw_msg(&attrs, 5, &a2);
  pbw_msg(&attrs, 5, &a3);
  pbw_node(&g, "LeakyRelu", NULL, in, 1, "y", &attrs);
  pbw_model(&m, &g, 17);
  onnx_model *om = onnx_read_model(m.buf, m.len, err, sizeof err);
  if (om == NULL) fail_msg("%s", err);
  const onnx_node *n = &om->graph.nodes[0];
  assert_int_equal(n->n_attrs, 3);
  assert_true(n->attrs[0].has_f);
  assert_true(n->attrs[0].f == 0.25f);
  assert_int_equal(n->attrs[0].type, 1);
  assert_int_equal(n->attrs[1].i, -7);
  assert_int_equal(n->attrs[2].n_ints, 3);
  assert_int_equal(n->attrs[2].ints[1], 300);
  assert_int_equal(n->attrs[2].ints[2], 5);
  onnx_model_free(om);
  pbw_free(&m);
  pbw_free(&g);
  pbw_free(&attrs);
  pbw_free(&a1);
  pbw_free(&a2);
  pbw_free(&a3);
  pbw_free(&packed);
}

/* Decodes a TensorProto built by the caller and returns the dense tensor. */
static wc_tensor decode(const pbw *t, char **strings) {
  arena a;
  char err[256];
  wc_tensor w;
  arena_init(&a);
  onnx_tensor *ot = onnx_read_tensor(&a, t->buf, t->len, err, sizeof err);
  if (ot == NULL) fail_msg("%s", err);
  if (!onnx_tensor_to_wc(ot, &w, strings, err, sizeof err)) fail_msg("%s", err);
  arena_free(&a);
  return w;
}

static void expect_decode_error(const pbw *t, const char *expect) {
  arena a;
  char err[256] = "";
  wc_tensor w;
  char *strings;
  arena_init(&a);
  onnx_tensor *ot = onnx_read_tensor(&a, t->buf, t->len, err, sizeof err);
  if (ot) assert_false(onnx_tensor_to_wc(ot, &w, &strings, err, sizeof err));
  if (strstr(err, expect) == NULL) fail_msg("message '%s' lacks '%s'", err, expect);
  arena_free(&a);
}

static void test_raw_data_tensor_decodes_with_its_shape(void **state) {
  (void)state;
  pbw t = {0};
  float v[6] = {1, -0.0f, 3, 4, 5, 6};
  char *s;
  pbw_int(&t, 1, 2);
  pbw_int(&t, 1, 3);
  pbw_int(&t, 2, 1);
  pbw_bytes(&t, 9, v, sizeof v);
  wc_tensor w = decode(&t, &s);
  assert_int_equal(w.dtype, WC_FLOAT);
  assert_int_equal(w.rank, 2);
  assert_int_equal(w.shape[1], 3);
  assert_memory_equal(w.data, v, sizeof v);
  assert_null(s);
  free(w.data);
  pbw_free(&t);
}

static void test_float_data_packed_and_unpacked_occurrences_concatenate(void **state) {
  (void)state;
  pbw t = {0};
  float v[2] = {1.5f, -2.0f};
  char *s;
  pbw_int(&t, 1, 3);
  pbw_int(&t, 2, 1);
  pbw_bytes(&t, 4, v, sizeof v);                  /* packed run of two */
  pbw_f32(&t, 4, 7.0f);                           /* one unpacked */
  wc_tensor w = decode(&t, &s);
  assert_true(((float *)w.data)[0] == 1.5f);
  assert_true(((float *)w.data)[2] == 7.0f);
  free(w.data);
  pbw_free(&t);
}

static void test_int32_data_holds_float16_bits_bool_and_negative_int8(void **state) {
  (void)state;
  static const struct { int dtype; int64_t v[2]; uint8_t expect[4]; size_t n; } rows[] = {
    {10, {0x3c00, 0xfc00}, {0x00, 0x3c, 0x00, 0xfc}, 4},   /* float16 1.0, -inf */
    {9, {0, 5}, {0, 1}, 2},                                 /* bool: non-zero is true */
    {3, {-1, -128}, {0xff, 0x80}, 2},                       /* int8 */
    {16, {0x3f80, 0x7fc0}, {0x80, 0x3f, 0xc0, 0x7f}, 4},    /* bfloat16 */
  };
  for (size_t r = 0; r < sizeof rows / sizeof *rows; r++) {
    pbw t = {0}, packed = {0};
    char *s;
    pbw_int(&t, 1, 2);
    pbw_int(&t, 2, rows[r].dtype);
    pbw_varint(&packed, (uint64_t)rows[r].v[0]);
    pbw_varint(&packed, (uint64_t)rows[r].v[1]);
    pbw_bytes(&t, 5, packed.buf, packed.len);
    wc_tensor w = decode(&t, &s);
    assert_memory_equal(w.data, rows[r].expect, rows[r].n);
    free(w.data);
    pbw_free(&t);
    pbw_free(&packed);
  }
}

static void test_int64_uint64_double_and_complex_fields_decode(void **state) {
  (void)state;
  char *s;
  pbw t = {0};
  pbw_int(&t, 2, 7);                              /* int64, scalar */
  pbw_int(&t, 7, INT64_MIN);
  wc_tensor w = decode(&t, &s);
  assert_int_equal(w.rank, 0);
  assert_true(*(int64_t *)w.data == INT64_MIN);
  free(w.data);
  pbw_free(&t);

  pbw_int(&t, 1, 1);                              /* uint32 through uint64_data */
  pbw_int(&t, 2, 12);
  pbw_int(&t, 11, 4294967295u);
  w = decode(&t, &s);
  assert_true(*(uint32_t *)w.data == 4294967295u);
  free(w.data);
  pbw_free(&t);

  double d[2] = {1.0, -0.5};                      /* complex128: re, im pairs */
  pbw_int(&t, 1, 1);
  pbw_int(&t, 2, 15);
  pbw_bytes(&t, 10, d, sizeof d);
  w = decode(&t, &s);
  assert_memory_equal(w.data, d, sizeof d);
  free(w.data);
  pbw_free(&t);
}

static void test_string_data_decodes_to_nul_terminated_copies(void **state) {
  (void)state;
  pbw t = {0};
  char *s;
  pbw_int(&t, 1, 3);
  pbw_int(&t, 2, 8);
  pbw_str(&t, 6, "ab");
  pbw_bytes(&t, 6, "", 0);
  pbw_str(&t, 6, "xyz");
  wc_tensor w = decode(&t, &s);
  const char **p = w.data;
  assert_string_equal(p[0], "ab");
  assert_string_equal(p[1], "");
  assert_string_equal(p[2], "xyz");
  free(w.data);
  free(s);
  pbw_free(&t);
}

static void test_one_element_tensor_gives_scalar_bits(void **state) {
  (void)state;
  pbw t = {0};
  arena a;
  char err[128];
  uint64_t bits[2];
  float re_im[2] = {1.0f, -2.0f};
  arena_init(&a);
  pbw_int(&t, 1, 1);
  pbw_int(&t, 1, 1);
  pbw_int(&t, 2, 14);
  pbw_bytes(&t, 9, re_im, sizeof re_im);
  onnx_tensor *ot = onnx_read_tensor(&a, t.buf, t.len, err, sizeof err);
  assert_non_null(ot);
  assert_true(onnx_tensor_scalar(ot, bits, err, sizeof err));
  assert_int_equal(bits[0], 0x3f800000u);
  assert_int_equal(bits[1], 0xc0000000u);
  arena_free(&a);
  pbw_free(&t);
}

static void test_tensor_errors_name_the_problem(void **state) {
  (void)state;
  pbw t = {0};
  float v[3] = {0};
  pbw_int(&t, 1, 2);
  pbw_int(&t, 2, 1);
  pbw_bytes(&t, 9, v, sizeof v);
  expect_decode_error(&t, "raw_data holds 12 bytes; its shape needs 8");
  pbw_free(&t);

  pbw_int(&t, 1, 4);
  pbw_int(&t, 2, 7);
  pbw_int(&t, 7, 1);
  expect_decode_error(&t, "holds 1 values; its shape needs 4");
  pbw_free(&t);

  pbw_int(&t, 2, 17);
  expect_decode_error(&t, "unsupported data_type 17");
  pbw_free(&t);

  pbw_int(&t, 2, 1);
  pbw_int(&t, 14, 1);
  expect_decode_error(&t, "external data");
  pbw_free(&t);

  pbw_int(&t, 1, -3);
  pbw_int(&t, 2, 1);
  expect_decode_error(&t, "negative extent");
  pbw_free(&t);

  pbw_int(&t, 2, 1);
  pbw_int(&t, 4, 5);                              /* float_data as a varint */
  expect_decode_error(&t, "wrong wire type");
  pbw_free(&t);
}

/* Reads bytes that must be rejected, and checks the message. */
static void expect_model_error(const uint8_t *b, size_t n, const char *expect) {
  char err[256] = "";
  uint8_t *copy = malloc(n ? n : 1);             /* exact size: ASan sees overreads */
  memcpy(copy, b, n);
  onnx_model *m = onnx_read_model(copy, n, err, sizeof err);
  free(copy);
  assert_null(m);
  if (strstr(err, expect) == NULL) fail_msg("message '%s' lacks '%s'", err, expect);
}

static void test_malformed_wire_format_is_rejected_with_its_reason(void **state) {
  (void)state;
  expect_model_error((const uint8_t *)"", 0, "empty file");
  expect_model_error((const uint8_t *)"\x08", 1, "truncated or invalid varint");
  expect_model_error((const uint8_t *)"\x08\xff\xff\xff\xff\xff\xff\xff\xff\xff\x02", 11,
                     "truncated or invalid varint");                       /* 65 bits */
  expect_model_error((const uint8_t *)"\x3a\x05\x0a", 3, "length 5 runs past the end");
  expect_model_error((const uint8_t *)"\x0b", 1, "groups are not supported");
  expect_model_error((const uint8_t *)"\x0e\x00", 2, "invalid wire type 6");
  expect_model_error((const uint8_t *)"\x00", 1, "invalid field number");
  expect_model_error((const uint8_t *)"\x38\x01", 2, "ModelProto.graph: wire type 0");
  expect_model_error((const uint8_t *)"\x3a\x00\x3a\x00", 4, "graph given twice");
  expect_model_error((const uint8_t *)"\x08\x08", 2, "no graph");
  expect_model_error((const uint8_t *)"\x3a\x04\x12\x02\x61\x00", 6, "contains a NUL byte");
  expect_model_error((const uint8_t *)"\x3a\x02\x09\x00", 4, "truncated 64-bit value");
}

static void test_every_prefix_of_a_model_fails_cleanly(void **state) {
  (void)state;
  pbw m = {0};
  char err[256];
  where_model(&m);
  for (size_t n = 0; n < m.len; n++) {
    uint8_t *copy = malloc(n ? n : 1);
    memcpy(copy, m.buf, n);
    onnx_model *om = onnx_read_model(copy, n, err, sizeof err);
    onnx_model_free(om);                        /* a prefix may be a shorter valid message */
    free(copy);
  }
  pbw_free(&m);
}

static uint64_t next_rand(uint64_t *s) {
  *s ^= *s >> 12;
  *s ^= *s << 25;
  *s ^= *s >> 27;
  return *s * 2685821657736338717ull;
}

static void test_random_bytes_and_bit_flips_never_crash(void **state) {
  (void)state;
  pbw m = {0};
  uint64_t seed = 42;
  char err[256];
  where_model(&m);
  for (int iter = 0; iter < 20000; iter++) {
    size_t n = iter % 2 ? m.len : (size_t)(next_rand(&seed) % 300);
    uint8_t *b = malloc(n ? n : 1);
    if (iter % 2) {
      memcpy(b, m.buf, n);
      for (int k = 0; k < 1 + iter % 3; k++) b[next_rand(&seed) % n] ^= (uint8_t)(1u << (next_rand(&seed) % 8));
    } else {
      for (size_t i = 0; i < n; i++) b[i] = (uint8_t)next_rand(&seed);
    }
    onnx_model_free(onnx_read_model(b, n, err, sizeof err));
    arena a;
    arena_init(&a);
    onnx_tensor *t = onnx_read_tensor(&a, b, n, err, sizeof err);
    wc_tensor w;
    char *s;
    if (t && onnx_tensor_to_wc(t, &w, &s, err, sizeof err)) {
      free(w.data);
      free(s);
    }
    arena_free(&a);
    free(b);
  }
  pbw_free(&m);
}

/* A model with an If (then_branch: Identity(x) -> t; else_branch: its own
   initializer k and Not(k) -> e) and a node with a list of two sub-graphs. */
static void subgraph_model(pbw *m) {
  pbw g = {0}, then_g = {0}, else_g = {0}, list[2] = {{0}, {0}}, if_attrs = {0}, multi_attrs = {0};
  static const int64_t d4[] = {4};
  static const char *const c_in[] = {"c"}, *const x_in[] = {"x"}, *const k_in[] = {"k"};
  static const uint8_t yes = 1;
  pbw_str(&then_g, 2, "then");
  pbw_node(&then_g, "Identity", NULL, x_in, 1, "t", NULL);
  pbw_value_info(&then_g, 12, "t", 1, 1, d4, NULL);
  pbw_str(&else_g, 2, "else");
  pbw_scalar_init(&else_g, "k", 9, &yes, 1);
  pbw_node(&else_g, "Not", NULL, k_in, 1, "e", NULL);
  pbw_value_info(&else_g, 12, "e", 9, 0, NULL, NULL);
  pbw_str(&list[0], 2, "first");
  pbw_str(&list[1], 2, "second");
  pbw_value_info(&list[1], 11, "s", 1, 0, NULL, NULL);
  pbw_graph_attr(&if_attrs, "then_branch", &then_g);
  pbw_graph_attr(&if_attrs, "else_branch", &else_g);
  pbw_graphs_attr(&multi_attrs, "bodies", list, 2);
  pbw_node(&g, "If", "branch", c_in, 1, "r", &if_attrs);
  pbw_node(&g, "Multi", NULL, c_in, 1, "q", &multi_attrs);
  pbw_model(m, &g, 17);
  pbw_free(&g);
  pbw_free(&then_g);
  pbw_free(&else_g);
  pbw_free(&list[0]);
  pbw_free(&list[1]);
  pbw_free(&if_attrs);
  pbw_free(&multi_attrs);
}

static void test_subgraph_attributes_are_read_with_their_nodes_and_values(void **state) {
  (void)state;
  pbw m = {0};
  char err[256];
  subgraph_model(&m);
  onnx_model *om = onnx_read_model(m.buf, m.len, err, sizeof err);
  if (om == NULL) fail_msg("%s", err);
  const onnx_node *branch = &om->graph.nodes[0], *multi = &om->graph.nodes[1];
  assert_int_equal(branch->n_attrs, 2);
  const onnx_attr *then_a = &branch->attrs[0], *else_a = &branch->attrs[1];
  assert_true(then_a->has_g);
  assert_int_equal(then_a->type, ONNX_ATTR_GRAPH);
  assert_int_equal(then_a->n_graphs, 0);
  assert_string_equal(then_a->g->name, "then");
  assert_int_equal(then_a->g->n_nodes, 1);
  assert_string_equal(then_a->g->nodes[0].op_type, "Identity");
  assert_string_equal(then_a->g->nodes[0].inputs[0], "x");
  assert_string_equal(then_a->g->outputs[0].name, "t");
  assert_true(else_a->has_g);
  assert_int_equal(else_a->g->n_initializers, 1);
  assert_string_equal(else_a->g->initializers[0].name, "k");
  assert_string_equal(else_a->g->nodes[0].inputs[0], "k");
  assert_false(multi->attrs[0].has_g);
  assert_int_equal(multi->attrs[0].type, ONNX_ATTR_GRAPHS);
  assert_int_equal(multi->attrs[0].n_graphs, 2);
  assert_string_equal(multi->attrs[0].graphs[0].name, "first");
  assert_string_equal(multi->attrs[0].graphs[1].name, "second");
  assert_string_equal(multi->attrs[0].graphs[1].inputs[0].name, "s");
  onnx_model_free(om);
  pbw_free(&m);
}

/* A model whose graph holds an If whose then_branch holds an If ...: depth
   sub-graphs nested in one another, the innermost holding an Identity. */
static void nested_model(pbw *m, int depth) {
  pbw g = {0};
  static const char *const in[] = {"c"};
  pbw_node(&g, "Identity", NULL, in, 1, "o", NULL);
  for (int d = 0; d < depth; d++) {
    pbw outer = {0}, attrs = {0};
    pbw_graph_attr(&attrs, "then_branch", &g);
    pbw_node(&outer, "If", NULL, in, 1, "o", &attrs);
    pbw_free(&attrs);
    pbw_free(&g);
    g = outer;
  }
  pbw_model(m, &g, 17);
  pbw_free(&g);
}

static void test_subgraphs_nested_to_the_limit_are_read_and_deeper_ones_refused(void **state) {
  (void)state;
  pbw m = {0};
  char err[256], expect[128];
  nested_model(&m, ONNX_MAX_GRAPH_DEPTH);
  onnx_model *om = onnx_read_model(m.buf, m.len, err, sizeof err);
  if (om == NULL) fail_msg("%s", err);
  const onnx_graph *g = &om->graph;
  for (int d = 0; d < ONNX_MAX_GRAPH_DEPTH; d++) {
    assert_string_equal(g->nodes[0].op_type, "If");
    assert_true(g->nodes[0].attrs[0].has_g);
    g = g->nodes[0].attrs[0].g;
  }
  assert_string_equal(g->nodes[0].op_type, "Identity");
  onnx_model_free(om);
  pbw_free(&m);
  /* one more level, and far more: refused at the limit, without going deeper */
  snprintf(expect, sizeof expect, "AttributeProto.g: sub-graphs nested more than %d deep",
           ONNX_MAX_GRAPH_DEPTH);
  nested_model(&m, ONNX_MAX_GRAPH_DEPTH + 1);
  expect_model_error(m.buf, m.len, expect);
  pbw_free(&m);
  nested_model(&m, 1000);
  expect_model_error(m.buf, m.len, expect);
  pbw_free(&m);
}

/* Graph{node{attribute (bytes of at)}} inside a model. */
static void model_with_attr(pbw *m, const pbw *at) {
  pbw g = {0}, attrs = {0};
  static const char *const in[] = {"c"};
  pbw_msg(&attrs, 5, at);
  pbw_node(&g, "If", NULL, in, 1, "o", &attrs);
  pbw_model(m, &g, 17);
  pbw_free(&g);
  pbw_free(&attrs);
}

static void expect_attr_error(const pbw *at, const char *expect) {
  pbw m = {0};
  model_with_attr(&m, at);
  expect_model_error(m.buf, m.len, expect);
  pbw_free(&m);
}

static void test_malformed_subgraphs_make_the_model_malformed(void **state) {
  (void)state;
  pbw at = {0}, bad = {0};
  pbw_int(&at, 6, 1);                                  /* g as a varint */
  expect_attr_error(&at, "AttributeProto.g: wire type 0");
  pbw_free(&at);
  pbw_int(&at, 11, 1);                                 /* graphs as a varint */
  expect_attr_error(&at, "AttributeProto.graphs: wire type 0");
  pbw_free(&at);
  pbw_str(&at, 1, "then_branch");
  pbw_bytes(&at, 6, "", 0);
  pbw_bytes(&at, 6, "", 0);
  expect_attr_error(&at, "AttributeProto 'then_branch': g given twice");
  pbw_free(&at);
  pbw_bytes(&bad, 2, "a\0b", 3);                       /* the sub-graph's name holds a NUL */
  pbw_msg(&at, 6, &bad);
  expect_attr_error(&at, "GraphProto.name: contains a NUL byte");
  pbw_free(&at);
  pbw_msg(&at, 11, &bad);
  expect_attr_error(&at, "GraphProto.name: contains a NUL byte");
  pbw_free(&at);
  pbw_free(&bad);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_model_graph_nodes_and_value_infos_are_read),
    cmocka_unit_test(test_attributes_of_every_kind_are_read),
    cmocka_unit_test(test_raw_data_tensor_decodes_with_its_shape),
    cmocka_unit_test(test_float_data_packed_and_unpacked_occurrences_concatenate),
    cmocka_unit_test(test_int32_data_holds_float16_bits_bool_and_negative_int8),
    cmocka_unit_test(test_int64_uint64_double_and_complex_fields_decode),
    cmocka_unit_test(test_string_data_decodes_to_nul_terminated_copies),
    cmocka_unit_test(test_one_element_tensor_gives_scalar_bits),
    cmocka_unit_test(test_tensor_errors_name_the_problem),
    cmocka_unit_test(test_malformed_wire_format_is_rejected_with_its_reason),
    cmocka_unit_test(test_every_prefix_of_a_model_fails_cleanly),
    cmocka_unit_test(test_random_bytes_and_bit_flips_never_crash),
    cmocka_unit_test(test_subgraph_attributes_are_read_with_their_nodes_and_values),
    cmocka_unit_test(test_subgraphs_nested_to_the_limit_are_read_and_deeper_ones_refused),
    cmocka_unit_test(test_malformed_subgraphs_make_the_model_malformed),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
