/* test_ep_match.c: finding a manifest's region in a graph by structure (ep/match.c) over
   graphs built here value by value (ep/graph.c): a Mul -> Add -> Relu chain found by its
   output's name and, renamed, by its edges; refused where a literal has another value, an
   intermediate is read outside or is a graph output, a node is taken, an operator differs,
   a parameter is computed inside; two sinks of one value, the second reached from the value;
   ep_match_types on dtypes, ranks and fixed extents. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <wherec/wherec.h>

#include "graph.h"
#include "manifest.h"
#include "match.h"

/* ---- the manifest ------------------------------------------------------------------------ */

#define HEAD "{\"format\": \"wherec-import-manifest\", \"version\": 2, \"kernels\": ["
#define TAIL "]}"

/* y = Relu(Mul(x, 2.0f) + b): x float [N,4], b float [4], the literal two, one output. */
#define CHAIN                                                                                          \
  "{\"name\": \"chain\", \"scope\": null,"                                                             \
  " \"nodes\": ["                                                                                      \
  "  {\"op_type\": \"Relu\", \"inputs\": [\"s\"], \"outputs\": [\"y\"]},"                              \
  "  {\"op_type\": \"Add\", \"inputs\": [\"m\", \"b\"], \"outputs\": [\"s\"]},"                        \
  "  {\"op_type\": \"Mul\", \"inputs\": [\"x\", \"two\"], \"outputs\": [\"m\"]}],"                     \
  " \"params\": ["                                                                                     \
  "  {\"name\": \"x\", \"tensor\": \"x\", \"dtype\": \"float\", \"shape\": [\"N\", 4]},"               \
  "  {\"name\": \"b\", \"tensor\": \"b\", \"dtype\": \"float\", \"shape\": [4]}],"                     \
  " \"literals\": [{\"tensor\": \"two\", \"dtype\": \"float\", \"bits\": \"0x40000000\"}],"            \
  " \"baked\": [],"                                                                                    \
  " \"outputs\": [{\"name\": \"out\", \"tensor\": \"y\", \"dtype\": \"float\", \"shape\": [\"N\", 4]}]}"

static ep_manifest manifest;
static char        why[512];

static const ep_mkernel *kernel_of(const char *text) {
  char err[256];
  ep_manifest_free(&manifest);
  if (!ep_manifest_parse(text, strlen(text), &manifest, err, sizeof err)) fail_msg("manifest: %s", err);
  return &manifest.kernels[0];
}

static const ep_mkernel *chain(void) { return kernel_of(HEAD CHAIN TAIL); }

/* ---- graphs ------------------------------------------------------------------------------- */

static const float TWO = 2.0f, THREE = 3.0f;

/* A node of op over values named by NULL-terminated lists ("" an omitted input). */
static int node(ep_graph *g, const char *op, const char *const *in, const char *const *out) {
  int vi[8], vo[8], ni = 0, no = 0;
  for (; in[ni]; ni++) vi[ni] = ep_graph_value(g, in[ni]);
  for (; out[no]; no++) vo[no] = ep_graph_value(g, out[no]);
  int id = ep_graph_add_node(g, op, NULL, vi, ni, vo, no);
  assert_true(id >= 0);
  return id;
}
#define IN(...) ((const char *const[]){__VA_ARGS__, NULL})
#define OUT IN

/* A value of known dtype and shape (rank 0..2 here). */
static int typed(ep_graph *g, const char *name, int dtype, int rank, int64_t d0, int64_t d1) {
  int v = ep_graph_value(g, name);
  assert_true(v >= 0);
  g->values[v].dtype = dtype;
  g->values[v].rank = rank;
  g->values[v].dims[0] = d0;
  g->values[v].dims[1] = d1;
  return v;
}

/* A constant initializer of one float. */
static int constant(ep_graph *g, const char *name, const float *value) {
  int v = typed(g, name, WC_FLOAT, 0, 0, 0);
  g->values[v].data = value;
  g->values[v].bytes = sizeof *value;
  return v;
}

/* The chain, its tensors named by names[]: x, two, m, b, s, y; y a graph output. The nodes
   go in after `before` unrelated ones, so no index is the one a test might guess. */
typedef struct chain_ids {
  int x, two, m, b, s, y;   /* values */
  int mul, add, relu;       /* nodes */
} chain_ids;

static chain_ids add_chain(ep_graph *g, const char *const names[6], const float *two, int before) {
  chain_ids c;
  for (int i = 0; i < before; i++) {
    char in[32], out[32];
    snprintf(in, sizeof in, "%s_pre%d", names[0], i);
    snprintf(out, sizeof out, "%s_pre%d", names[0], i + 1);
    node(g, "Neg", IN(in), OUT(out));
  }
  c.b = typed(g, names[3], WC_FLOAT, 1, 4, 0);
  c.x = typed(g, names[0], WC_FLOAT, 2, -1, 4);
  c.two = constant(g, names[1], two);
  c.mul = node(g, "Mul", IN(names[0], names[1]), OUT(names[2]));
  c.add = node(g, "Add", IN(names[2], names[3]), OUT(names[4]));
  c.relu = node(g, "Relu", IN(names[4]), OUT(names[5]));
  c.m = ep_graph_find(g, names[2]);
  c.s = ep_graph_find(g, names[4]);
  c.y = typed(g, names[5], WC_FLOAT, 2, -1, 4);
  g->values[c.y].graph_output = true;
  return c;
}

static const char *const NAMES[6] = {"x", "two", "m", "b", "s", "y"};

static bool *taken_for(const ep_graph *g) {
  bool *t = calloc((size_t)g->n_nodes + 1, 1);
  assert_non_null(t);
  return t;
}

/* The match of k in g is refused with a reason holding each of the phrases. */
static void refused(const ep_graph *g, const ep_mkernel *k, const char *p1, const char *p2) {
  bool    *taken = taken_for(g);
  ep_match m;
  if (ep_match_kernel(g, k, NULL, taken, &m, why, sizeof why)) fail_msg("matched");
  if (!strstr(why, p1) || (p2 && !strstr(why, p2))) fail_msg("reason '%s', expected '%s' and '%s'", why, p1, p2 ? p2 : "");
  assert_null(m.nodes);
  for (int n = 0; n < g->n_nodes; n++) assert_false(taken[n]);
  free(taken);
}

static int teardown(void **state) {
  (void)state;
  ep_manifest_free(&manifest);
  return 0;
}

/* ---- found -------------------------------------------------------------------------------- */

static void test_match_finds_a_mul_add_relu_chain_by_its_output_name(void **state) {
  (void)state;
  const ep_mkernel *k = chain();
  ep_graph          g = {0};
  node(&g, "Sigmoid", IN("other"), OUT("o2"));
  chain_ids c = add_chain(&g, NAMES, &TWO, 3);
  node(&g, "Relu", IN("y"), OUT("after")); /* reads the output: allowed */
  bool    *taken = taken_for(&g);
  ep_match m;
  assert_true(ep_match_kernel(&g, k, NULL, taken, &m, why, sizeof why));
  assert_int_equal(m.nodes[0], c.relu); /* the manifest's order: root first */
  assert_int_equal(m.nodes[1], c.add);
  assert_int_equal(m.nodes[2], c.mul);
  for (int n = 0; n < g.n_nodes; n++) assert_int_equal(taken[n], n == c.relu || n == c.add || n == c.mul);
  ep_match_free(&m);
  assert_null(m.nodes);
  free(taken);
  ep_graph_free(&g);
}

static void test_match_binds_params_and_outputs_to_their_value_indices(void **state) {
  (void)state;
  const ep_mkernel *k = chain();
  ep_graph          g = {0};
  /* values made in another order than the manifest's, and some unrelated ones between */
  ep_graph_value(&g, "unrelated0");
  ep_graph_value(&g, "y");
  ep_graph_value(&g, "unrelated1");
  ep_graph_value(&g, "b");
  chain_ids c = add_chain(&g, NAMES, &TWO, 0);
  assert_int_equal(c.y, 1);
  assert_int_equal(c.b, 3);
  bool    *taken = taken_for(&g);
  ep_match m;
  assert_true(ep_match_kernel(&g, k, NULL, taken, &m, why, sizeof why));
  assert_int_equal(m.params[0], c.x); /* x */
  assert_int_equal(m.params[1], c.b); /* b */
  assert_int_equal(m.outputs[0], c.y);
  assert_string_equal(g.values[m.params[0]].name, "x");
  assert_string_equal(g.values[m.params[1]].name, "b");
  ep_match_free(&m);
  free(taken);
  ep_graph_free(&g);
}

static void test_match_finds_the_chain_with_its_input_and_intermediates_renamed(void **state) {
  (void)state;
  const ep_mkernel *k = chain();
  ep_graph          g = {0};
  /* only y keeps its name: found by it, the rest by the edges */
  const char *const renamed[6] = {"input_7", "const_2", "t0", "bias_9", "t1", "y"};
  chain_ids         c = add_chain(&g, renamed, &TWO, 2);
  bool             *taken = taken_for(&g);
  ep_match          m;
  assert_true(ep_match_kernel(&g, k, NULL, taken, &m, why, sizeof why));
  assert_int_equal(m.nodes[0], c.relu);
  assert_int_equal(m.nodes[1], c.add);
  assert_int_equal(m.nodes[2], c.mul);
  assert_int_equal(m.params[0], c.x);
  assert_int_equal(m.params[1], c.b);
  assert_string_equal(g.values[m.params[0]].name, "input_7");
  assert_int_equal(m.outputs[0], c.y);
  ep_match_free(&m);
  free(taken);
  ep_graph_free(&g);
}

static void test_match_finds_the_chain_by_structure_when_its_output_is_renamed_too(void **state) {
  (void)state;
  const ep_mkernel *k = chain();
  ep_graph          g = {0};
  /* a decoy first: a Relu over an Add over a Sub, which a search by type meets first */
  node(&g, "Sub", IN("p", "q"), OUT("d0"));
  node(&g, "Add", IN("d0", "q"), OUT("d1"));
  node(&g, "Relu", IN("d1"), OUT("d2"));
  const char *const renamed[6] = {"a", "c", "t0", "bb", "t1", "result"};
  chain_ids         c = add_chain(&g, renamed, &TWO, 1);
  assert_int_equal(ep_graph_find(&g, "y"), -1);
  bool    *taken = taken_for(&g);
  ep_match m;
  assert_true(ep_match_kernel(&g, k, NULL, taken, &m, why, sizeof why));
  assert_int_equal(m.nodes[0], c.relu);
  assert_int_equal(m.nodes[2], c.mul);
  assert_int_equal(m.params[0], c.x);
  assert_int_equal(m.params[1], c.b);
  assert_int_equal(m.outputs[0], c.y);
  assert_false(taken[0] || taken[1] || taken[2]); /* the decoy is left */
  ep_match_free(&m);
  free(taken);
  ep_graph_free(&g);
}

/* ---- not found ---------------------------------------------------------------------------- */

static void test_match_refuses_a_literal_constant_of_another_value(void **state) {
  (void)state;
  const ep_mkernel *k = chain();
  ep_graph          g = {0};
  add_chain(&g, NAMES, &THREE, 0);
  refused(&g, k, "the constant 'two' (as 'two') has another value here", NULL);
  ep_graph_free(&g);
}

static void test_match_refuses_a_literal_that_is_no_constant_or_not_one_element(void **state) {
  (void)state;
  const ep_mkernel *k = chain();
  ep_graph          g = {0};
  chain_ids         c = add_chain(&g, NAMES, &TWO, 0);
  g.values[c.two].data = NULL; /* a graph input, not an initializer */
  refused(&g, k, "'two' (as 'two') is not a one-element constant here", NULL);
  static const float pair[2] = {2.0f, 2.0f};
  g.values[c.two].data = pair;
  g.values[c.two].bytes = sizeof pair;
  refused(&g, k, "is not a one-element constant here", NULL);
  ep_graph_free(&g);
}

static void test_match_refuses_an_intermediate_also_read_outside(void **state) {
  (void)state;
  const ep_mkernel *k = chain();
  ep_graph          g = {0};
  add_chain(&g, NAMES, &TWO, 0);
  node(&g, "Neg", IN("m"), OUT("elsewhere")); /* Mul's output read by a node outside */
  refused(&g, k, "'m', computed inside, is read outside it", NULL);
  ep_graph_free(&g);
  /* read outside under another name: the same */
  g = (ep_graph){0};
  const char *const renamed[6] = {"a", "c", "t0", "bb", "t1", "y"};
  add_chain(&g, renamed, &TWO, 0);
  node(&g, "Identity", IN("t1"), OUT("copy"));
  refused(&g, k, "'t1', computed inside, is read outside it", NULL);
  ep_graph_free(&g);
}

static void test_match_refuses_an_intermediate_that_is_a_graph_output(void **state) {
  (void)state;
  const ep_mkernel *k = chain();
  ep_graph          g = {0};
  chain_ids         c = add_chain(&g, NAMES, &TWO, 0);
  g.values[c.s].graph_output = true;
  refused(&g, k, "'s', computed inside, is read outside it", NULL);
  ep_graph_free(&g);
}

static void test_match_taken_nodes_are_not_matched_twice(void **state) {
  (void)state;
  const ep_mkernel *k = chain();
  ep_graph          g = {0};
  chain_ids         c = add_chain(&g, NAMES, &TWO, 0);
  bool             *taken = taken_for(&g);
  ep_match          m;
  assert_true(ep_match_kernel(&g, k, NULL, taken, &m, why, sizeof why));
  ep_match_free(&m);
  assert_false(ep_match_kernel(&g, k, NULL, taken, &m, why, sizeof why));
  assert_string_equal(why, "its Relu node is claimed by another kernel");
  assert_null(m.nodes);
  /* one node of the chain taken is enough to refuse it */
  memset(taken, 0, (size_t)g.n_nodes);
  taken[c.add] = true;
  assert_false(ep_match_kernel(&g, k, NULL, taken, &m, why, sizeof why));
  assert_string_equal(why, "its Add node is claimed by another kernel");
  assert_false(taken[c.relu] || taken[c.mul]); /* a refusal takes nothing */
  free(taken);
  ep_graph_free(&g);
}

static void test_match_takes_a_second_copy_of_the_chain_by_structure(void **state) {
  (void)state;
  const ep_mkernel *k = chain();
  ep_graph          g = {0};
  const char *const second[6] = {"x2", "two2", "m2", "b2", "s2", "y2"};
  chain_ids         c2 = add_chain(&g, second, &TWO, 0);
  chain_ids         c1 = add_chain(&g, NAMES, &TWO, 0);
  bool             *taken = taken_for(&g);
  ep_match          m;
  assert_true(ep_match_kernel(&g, k, NULL, taken, &m, why, sizeof why)); /* by name: y */
  assert_int_equal(m.nodes[0], c1.relu);
  ep_match_free(&m);
  assert_true(ep_match_kernel(&g, k, NULL, taken, &m, why, sizeof why)); /* then the other */
  assert_int_equal(m.nodes[0], c2.relu);
  assert_int_equal(m.params[0], c2.x);
  assert_int_equal(m.outputs[0], c2.y);
  ep_match_free(&m);
  for (int n = 0; n < g.n_nodes; n++) assert_true(taken[n]);
  assert_false(ep_match_kernel(&g, k, NULL, taken, &m, why, sizeof why)); /* no third */
  free(taken);
  ep_graph_free(&g);
}

static void test_match_gives_a_wrong_operator_type_naming_both_types(void **state) {
  (void)state;
  const ep_mkernel *k = chain();
  ep_graph          g = {0};
  typed(&g, "b", WC_FLOAT, 1, 4, 0);
  constant(&g, "two", &TWO);
  node(&g, "Mul", IN("x", "two"), OUT("m"));
  node(&g, "Sub", IN("m", "b"), OUT("s")); /* Sub where the region has Add */
  node(&g, "Relu", IN("s"), OUT("y"));
  refused(&g, k, "a Sub node stands where the region has a Add", NULL);
  ep_graph_free(&g);
  /* the root itself */
  g = (ep_graph){0};
  typed(&g, "b", WC_FLOAT, 1, 4, 0);
  constant(&g, "two", &TWO);
  node(&g, "Mul", IN("x", "two"), OUT("m"));
  node(&g, "Add", IN("m", "b"), OUT("s"));
  node(&g, "LeakyRelu", IN("s"), OUT("y"));
  refused(&g, k, "LeakyRelu", "Relu");
  ep_graph_free(&g);
}

static void test_match_refuses_another_number_of_inputs_or_an_unknown_source(void **state) {
  (void)state;
  const ep_mkernel *k = chain();
  ep_graph          g = {0};
  typed(&g, "b", WC_FLOAT, 1, 4, 0);
  constant(&g, "two", &TWO);
  node(&g, "Mul", IN("x", "two"), OUT("m"));
  node(&g, "Add", IN("m", "b", "extra"), OUT("s"));
  node(&g, "Relu", IN("s"), OUT("y"));
  refused(&g, k, "Add has 3 inputs here, 2 in the region", NULL);
  ep_graph_free(&g);
  /* trailing omitted inputs do not count */
  g = (ep_graph){0};
  typed(&g, "b", WC_FLOAT, 1, 4, 0);
  constant(&g, "two", &TWO);
  node(&g, "Mul", IN("x", "two", ""), OUT("m"));
  node(&g, "Add", IN("m", "b"), OUT("s"));
  node(&g, "Relu", IN("s"), OUT("y"));
  bool    *taken = taken_for(&g);
  ep_match m;
  assert_true(ep_match_kernel(&g, k, NULL, taken, &m, why, sizeof why));
  ep_match_free(&m);
  free(taken);
  ep_graph_free(&g);
}

static void test_match_refuses_when_the_intermediate_comes_from_outside(void **state) {
  (void)state;
  const ep_mkernel *k = chain();
  ep_graph          g = {0};
  /* Add reads a graph input where the region has Mul's output */
  typed(&g, "b", WC_FLOAT, 1, 4, 0);
  node(&g, "Add", IN("m", "b"), OUT("s"));
  node(&g, "Relu", IN("s"), OUT("y"));
  refused(&g, k, "'m' (as 'm') is not computed by a Mul here", NULL);
  ep_graph_free(&g);
}

static void test_match_refuses_a_parameter_computed_inside_the_region(void **state) {
  (void)state;
  /* y = Relu(x) + p, p a parameter; here y = Relu(x) + Relu(x): p would be the region's own
     value, which the fused node cannot take as an input */
  const ep_mkernel *k = kernel_of(
      HEAD "{\"name\": \"k\", \"scope\": null, \"nodes\": ["
           " {\"op_type\": \"Add\", \"inputs\": [\"r\", \"p\"], \"outputs\": [\"y\"]},"
           " {\"op_type\": \"Relu\", \"inputs\": [\"x\"], \"outputs\": [\"r\"]}],"
           " \"params\": [{\"name\": \"x\", \"tensor\": \"x\", \"dtype\": \"float\", \"shape\": [4]},"
           "              {\"name\": \"p\", \"tensor\": \"p\", \"dtype\": \"float\", \"shape\": [4]}],"
           " \"literals\": [], \"baked\": [],"
           " \"outputs\": [{\"name\": \"out\", \"tensor\": \"y\", \"dtype\": \"float\", \"shape\": [4]}]}" TAIL);
  ep_graph g = {0};
  node(&g, "Relu", IN("x"), OUT("r"));
  node(&g, "Add", IN("r", "r"), OUT("y"));
  refused(&g, k, "'p'", "computed inside");
  ep_graph_free(&g);
  /* with p from outside it is found */
  g = (ep_graph){0};
  node(&g, "Relu", IN("x"), OUT("r"));
  node(&g, "Add", IN("r", "q"), OUT("y"));
  bool    *taken = taken_for(&g);
  ep_match m;
  assert_true(ep_match_kernel(&g, k, NULL, taken, &m, why, sizeof why));
  assert_int_equal(m.params[1], ep_graph_find(&g, "q"));
  ep_match_free(&m);
  free(taken);
  ep_graph_free(&g);
}

/* Two outputs: s (Add's) and y (Mul's, the root); a node outside between them. */
static void test_match_refuses_a_node_outside_between_two_of_its_nodes(void **state) {
  (void)state;
  const ep_mkernel *k = kernel_of(
      HEAD "{\"name\": \"k\", \"scope\": null, \"nodes\": ["
           " {\"op_type\": \"Mul\", \"inputs\": [\"s\", \"c\"], \"outputs\": [\"y\"]},"
           " {\"op_type\": \"Add\", \"inputs\": [\"x\", \"b\"], \"outputs\": [\"s\"]}],"
           " \"params\": [{\"name\": \"x\", \"tensor\": \"x\", \"dtype\": \"float\", \"shape\": [4]},"
           "              {\"name\": \"b\", \"tensor\": \"b\", \"dtype\": \"float\", \"shape\": [4]},"
           "              {\"name\": \"c\", \"tensor\": \"c\", \"dtype\": \"float\", \"shape\": [4]}],"
           " \"literals\": [], \"baked\": [],"
           " \"outputs\": [{\"name\": \"y\", \"tensor\": \"y\", \"dtype\": \"float\", \"shape\": [4]},"
           "             {\"name\": \"s\", \"tensor\": \"s\", \"dtype\": \"float\", \"shape\": [4]}]}" TAIL);
  ep_graph g = {0};
  node(&g, "Add", IN("x", "b"), OUT("s"));
  node(&g, "Neg", IN("s"), OUT("c")); /* s leaves the region and comes back as c */
  node(&g, "Mul", IN("s", "c"), OUT("y"));
  refused(&g, k, "a node outside lies between two of its nodes", NULL);
  ep_graph_free(&g);
  /* c from elsewhere: both outputs bound */
  g = (ep_graph){0};
  node(&g, "Add", IN("x", "b"), OUT("s"));
  node(&g, "Neg", IN("s"), OUT("n")); /* s read outside: it is an output, allowed */
  node(&g, "Mul", IN("s", "c"), OUT("y"));
  bool    *taken = taken_for(&g);
  ep_match m;
  assert_true(ep_match_kernel(&g, k, NULL, taken, &m, why, sizeof why));
  assert_int_equal(m.outputs[0], ep_graph_find(&g, "y"));
  assert_int_equal(m.outputs[1], ep_graph_find(&g, "s"));
  assert_false(taken[1]);
  ep_match_free(&m);
  free(taken);
  ep_graph_free(&g);
}

/* Two sinks of one value: s = x * two; y1 = s + b (the root); y2 = Relu(s), which the root's
   inputs do not lead to. */
#define SINKS                                                                                          \
  "{\"name\": \"sinks\", \"scope\": null, \"nodes\": ["                                                  \
  " {\"op_type\": \"Add\", \"inputs\": [\"s\", \"b\"], \"outputs\": [\"y1\"]},"                         \
  " {\"op_type\": \"Mul\", \"inputs\": [\"x\", \"two\"], \"outputs\": [\"s\"]},"                        \
  " {\"op_type\": \"Relu\", \"inputs\": [\"s\"], \"outputs\": [\"y2\"]}],"                               \
  " \"params\": [{\"name\": \"x\", \"tensor\": \"x\", \"dtype\": \"float\", \"shape\": [4]},"           \
  "              {\"name\": \"b\", \"tensor\": \"b\", \"dtype\": \"float\", \"shape\": [4]}],"          \
  " \"literals\": [{\"tensor\": \"two\", \"dtype\": \"float\", \"bits\": \"0x40000000\"}],"            \
  " \"baked\": [],"                                                                                    \
  " \"outputs\": [{\"name\": \"y1\", \"tensor\": \"y1\", \"dtype\": \"float\", \"shape\": [4]},"         \
  "             {\"name\": \"y2\", \"tensor\": \"y2\", \"dtype\": \"float\", \"shape\": [4]}]}"

static void test_match_reaches_a_second_sink_through_a_value_both_read(void **state) {
  (void)state;
  const ep_mkernel *k = kernel_of(HEAD SINKS TAIL);
  for (int renamed = 0; renamed < 2; renamed++) { /* by the root's name, then by structure */
    ep_graph g = {0};
    node(&g, "Relu", IN("elsewhere"), OUT("r0")); /* a Relu reading another value */
    constant(&g, renamed ? "c2" : "two", &TWO);
    int mul = node(&g, "Mul", IN(renamed ? "in" : "x", renamed ? "c2" : "two"), OUT(renamed ? "t" : "s"));
    int relu = node(&g, "Relu", IN(renamed ? "t" : "s"), OUT(renamed ? "o2" : "y2"));
    int add = node(&g, "Add", IN(renamed ? "t" : "s", "b"), OUT(renamed ? "o1" : "y1"));
    bool    *taken = taken_for(&g);
    ep_match m;
    if (!ep_match_kernel(&g, k, NULL, taken, &m, why, sizeof why)) fail_msg("refused: %s", why);
    assert_int_equal(m.nodes[0], add);
    assert_int_equal(m.nodes[1], mul);
    assert_int_equal(m.nodes[2], relu);
    assert_int_equal(m.outputs[0], ep_graph_find(&g, renamed ? "o1" : "y1"));
    assert_int_equal(m.outputs[1], ep_graph_find(&g, renamed ? "o2" : "y2"));
    assert_false(taken[0]);
    ep_match_free(&m);
    free(taken);
    ep_graph_free(&g);
  }
}

static void test_match_refuses_a_second_sink_the_graph_lacks_or_reads_elsewhere(void **state) {
  (void)state;
  const ep_mkernel *k = kernel_of(HEAD SINKS TAIL);
  ep_graph          g = {0};
  constant(&g, "two", &TWO);
  node(&g, "Mul", IN("x", "two"), OUT("s"));
  node(&g, "Add", IN("s", "b"), OUT("y1"));
  node(&g, "Sigmoid", IN("s"), OUT("y2")); /* another operator where the region has Relu */
  refused(&g, k, "its Relu node is not reached from the root", NULL);
  ep_graph_free(&g);
  g = (ep_graph){0};
  constant(&g, "two", &TWO);
  node(&g, "Mul", IN("x", "two"), OUT("s"));
  node(&g, "Add", IN("s", "b"), OUT("y1"));
  node(&g, "Relu", IN("s"), OUT("y2"));
  node(&g, "Neg", IN("s"), OUT("n")); /* s read outside as well: it is no output of the kernel */
  refused(&g, k, "'s', computed inside, is read outside it", NULL);
  ep_graph_free(&g);
}

static void test_match_checks_baked_constants_by_their_bytes(void **state) {
  (void)state;
  const ep_mkernel *k = kernel_of(
      HEAD "{\"name\": \"k\", \"scope\": null, \"nodes\": ["
           " {\"op_type\": \"Add\", \"inputs\": [\"x\", \"w\"], \"outputs\": [\"y\"]}],"
           " \"params\": [{\"name\": \"x\", \"tensor\": \"x\", \"dtype\": \"float\", \"shape\": [2]}],"
           " \"literals\": [], \"baked\": [{\"name\": \"w_c1\", \"tensor\": \"w\", \"dtype\": \"float\", \"shape\": [2]}],"
           " \"outputs\": [{\"name\": \"out\", \"tensor\": \"y\", \"dtype\": \"float\", \"shape\": [2]}]}" TAIL);
  static const float w[2] = {1.5f, -2.0f}, other[2] = {1.5f, 2.0f};
  ep_const           baked = {w, sizeof w};
  ep_graph           g = {0};
  node(&g, "Add", IN("x", "weights"), OUT("y"));
  int v = ep_graph_find(&g, "weights");
  g.values[v].data = other;
  g.values[v].bytes = sizeof other;
  bool    *taken = taken_for(&g);
  ep_match m;
  assert_false(ep_match_kernel(&g, k, &baked, taken, &m, why, sizeof why));
  assert_string_equal(why, "the constant 'w' (as 'weights') differs here");
  g.values[v].data = w;
  assert_true(ep_match_kernel(&g, k, &baked, taken, &m, why, sizeof why));
  ep_match_free(&m);
  memset(taken, 0, (size_t)g.n_nodes);
  g.values[v].data = other;
  assert_true(ep_match_kernel(&g, k, NULL, taken, &m, why, sizeof why)); /* NULL: unchecked */
  ep_match_free(&m);
  free(taken);
  ep_graph_free(&g);
}

static void test_match_says_no_node_computes_the_output_in_an_unrelated_graph(void **state) {
  (void)state;
  const ep_mkernel *k = chain();
  ep_graph          g = {0};
  node(&g, "Conv", IN("a", "w"), OUT("b"));
  refused(&g, k, "no Relu node computes 'y', and no Relu node here starts the same nodes", NULL);
  ep_graph_free(&g);
}

/* ---- ep_match_types ----------------------------------------------------------------------- */

/* Matches the chain in g (built by the caller), then runs ep_match_types. */
static bool types_of(ep_graph *g, const ep_mkernel *k) {
  bool    *taken = taken_for(g);
  ep_match m;
  if (!ep_match_kernel(g, k, NULL, taken, &m, why, sizeof why)) fail_msg("not matched: %s", why);
  bool ok = ep_match_types(g, k, &m, why, sizeof why);
  ep_match_free(&m);
  free(taken);
  return ok;
}

static void test_match_types_accepts_the_declared_types(void **state) {
  (void)state;
  const ep_mkernel *k = chain();
  ep_graph          g = {0};
  chain_ids         c = add_chain(&g, NAMES, &TWO, 0);
  g.values[c.x].dims[0] = 8; /* a symbolic N: any extent */
  g.values[c.y].dims[0] = 8;
  assert_true(types_of(&g, k));
  ep_graph_free(&g);
}

static void test_match_types_refuses_a_float16_parameter_the_kernel_takes_as_float(void **state) {
  (void)state;
  const ep_mkernel *k = chain();
  ep_graph          g = {0};
  chain_ids         c = add_chain(&g, NAMES, &TWO, 0);
  g.values[c.x].dtype = WC_FLOAT16;
  assert_false(types_of(&g, k));
  assert_string_equal(why, "parameter 'x': onnxruntime has float16[?,4], the kernel float[?,4]");
  ep_graph_free(&g);
  /* an output alike */
  g = (ep_graph){0};
  c = add_chain(&g, NAMES, &TWO, 0);
  g.values[c.y].dtype = WC_DOUBLE;
  assert_false(types_of(&g, k));
  assert_string_equal(why, "output 'out': onnxruntime has double[?,4], the kernel float[?,4]");
  ep_graph_free(&g);
}

static void test_match_types_refuses_a_fixed_extent_4_against_5(void **state) {
  (void)state;
  const ep_mkernel *k = chain();
  ep_graph          g = {0};
  chain_ids         c = add_chain(&g, NAMES, &TWO, 0);
  g.values[c.x].dims[1] = 5;
  assert_false(types_of(&g, k));
  assert_string_equal(why, "parameter 'x': onnxruntime has float[?,5], the kernel float[?,4]");
  ep_graph_free(&g);
  /* another rank */
  g = (ep_graph){0};
  c = add_chain(&g, NAMES, &TWO, 0);
  g.values[c.b].rank = 2;
  g.values[c.b].dims[1] = 4;
  g.values[c.b].dims[0] = 1;
  assert_false(types_of(&g, k));
  assert_string_equal(why, "parameter 'b': onnxruntime has float[1,4], the kernel float[4]");
  ep_graph_free(&g);
}

static void test_match_types_accepts_unknown_dtypes_ranks_and_dims(void **state) {
  (void)state;
  const ep_mkernel *k = chain();
  ep_graph          g = {0};
  chain_ids         c = add_chain(&g, NAMES, &TWO, 0);
  g.values[c.x].dims[1] = -1;   /* an unknown extent where the kernel says 4 */
  g.values[c.b].dtype = 0;      /* an unknown dtype */
  g.values[c.b].rank = -1;      /* an unknown rank */
  g.values[c.y].rank = -1;
  assert_true(types_of(&g, k));
  ep_graph_free(&g);
}

static void test_match_types_checks_a_per_channel_parameter_by_its_own_shape(void **state) {
  (void)state;
  /* b declared [4,1,1], the tensor [4] */
  const ep_mkernel *k = kernel_of(
      HEAD "{\"name\": \"k\", \"scope\": null, \"nodes\": ["
           " {\"op_type\": \"Add\", \"inputs\": [\"x\", \"b\"], \"outputs\": [\"y\"]}],"
           " \"params\": [{\"name\": \"x\", \"tensor\": \"x\", \"dtype\": \"float\", \"shape\": [\"N\", 4, 2, 2]},"
           "   {\"name\": \"b\", \"tensor\": \"b\", \"dtype\": \"float\", \"shape\": [4, 1, 1], \"tensor_shape\": [4]}],"
           " \"literals\": [], \"baked\": [],"
           " \"outputs\": [{\"name\": \"out\", \"tensor\": \"y\", \"dtype\": \"float\", \"shape\": null}]}" TAIL);
  ep_graph g = {0};
  node(&g, "Add", IN("x", "b"), OUT("y"));
  int b = typed(&g, "b", WC_FLOAT, 1, 4, 0);
  assert_true(types_of(&g, k));
  g.values[b].dims[0] = 5;
  assert_false(types_of(&g, k));
  assert_string_equal(why, "parameter 'b': onnxruntime has float[5], the kernel float[4]");
  g.values[b].rank = 3; /* [4,1,1] as the tensor's shape is not the [4] the kernel reshapes */
  g.values[b].dims[0] = 4;
  g.values[b].dims[1] = g.values[b].dims[2] = 1;
  assert_false(types_of(&g, k));
  ep_graph_free(&g);
}

/* ---- the graph ---------------------------------------------------------------------------- */

static void test_graph_interns_values_by_name_and_counts_consumers(void **state) {
  (void)state;
  ep_graph g = {0};
  assert_int_equal(ep_graph_find(&g, "a"), -1);
  assert_int_equal(ep_graph_value(&g, ""), -1);
  assert_int_equal(ep_graph_value(&g, NULL), -1);
  int a = ep_graph_value(&g, "a");
  assert_int_equal(ep_graph_value(&g, "a"), a);
  int n = node(&g, "Add", IN("a", "a", ""), OUT("b", ""));
  node(&g, "Neg", IN("b"), OUT("c"));
  int b = ep_graph_find(&g, "b");
  assert_int_equal(g.values[a].n_consumers, 2);
  assert_int_equal(g.values[a].producer, -1);
  assert_int_equal(g.values[b].producer, n);
  assert_int_equal(g.values[b].n_consumers, 1);
  assert_int_equal(g.nodes[n].inputs[2], -1);
  assert_int_equal(g.values[a].rank, -1);
  /* thousands of values: the hash grows, every name still found */
  char name[32];
  for (int i = 0; i < 5000; i++) {
    snprintf(name, sizeof name, "v%d", i);
    assert_int_equal(ep_graph_value(&g, name), 3 + i);
  }
  for (int i = 0; i < 5000; i++) {
    snprintf(name, sizeof name, "v%d", i);
    assert_int_equal(ep_graph_find(&g, name), 3 + i);
  }
  assert_false(g.failed);
  ep_graph_free(&g);
  assert_int_equal(g.n_values, 0);
}

/* ep_find_kernel passes over a place whose types differ (the chain named by the output's
   tensor, its b of 5 elements) and finds the twin elsewhere; the refused place stays free. */
static void test_find_passes_over_a_place_of_other_types_to_its_twin(void **state) {
  (void)state;
  ep_graph  g = {0};
  chain_ids wrong = add_chain(&g, NAMES, &TWO, 0);
  g.values[wrong.b].dims[0] = 5;
  static const char *const twin[6] = {"x2", "two2", "m2", "b2", "s2", "y2"};
  chain_ids right = add_chain(&g, twin, &TWO, 1);
  bool     *taken = taken_for(&g);
  ep_match  m;
  assert_int_equal(ep_find_kernel(&g, chain(), NULL, taken, &m, why, sizeof why), EP_FOUND);
  assert_int_equal(m.nodes[0], right.relu);
  assert_int_equal(m.params[0], right.x);
  assert_false(taken[wrong.relu] || taken[wrong.add] || taken[wrong.mul]);
  assert_true(taken[right.relu] && taken[right.add] && taken[right.mul]);
  ep_match_free(&m);
  free(taken);
  ep_graph_free(&g);
}

/* With no place of the kernel's types, ep_find_kernel says EP_REFUSED with the difference,
   and takes nothing. */
static void test_find_refuses_when_every_place_has_other_types(void **state) {
  (void)state;
  ep_graph  g = {0};
  chain_ids c = add_chain(&g, NAMES, &TWO, 0);
  g.values[c.b].dims[0] = 5;
  bool    *taken = taken_for(&g);
  ep_match m;
  assert_int_equal(ep_find_kernel(&g, chain(), NULL, taken, &m, why, sizeof why), EP_REFUSED);
  assert_non_null(strstr(why, "float[5], the kernel float[4]"));
  for (int n = 0; n < g.n_nodes; n++) assert_false(taken[n]);
  free(taken);
  ep_graph_free(&g);
}

/* y = Add(Mul(x, two), two): the literal read twice. */
#define TWICE                                                                                          \
  "{\"name\": \"twice\", \"scope\": null,"                                                             \
  " \"nodes\": ["                                                                                      \
  "  {\"op_type\": \"Add\", \"inputs\": [\"m\", \"two\"], \"outputs\": [\"y\"]},"                      \
  "  {\"op_type\": \"Mul\", \"inputs\": [\"x\", \"two\"], \"outputs\": [\"m\"]}],"                     \
  " \"params\": [{\"name\": \"x\", \"tensor\": \"x\", \"dtype\": \"float\", \"shape\": [4]}],"      \
  " \"literals\": [{\"tensor\": \"two\", \"dtype\": \"float\", \"bits\": \"0x40000000\"}],"            \
  " \"baked\": [],"                                                                                    \
  " \"outputs\": [{\"name\": \"out\", \"tensor\": \"y\", \"dtype\": \"float\", \"shape\": [4]}]}"

/* A constant read twice may be two copies of equal bytes (as at ORT_DISABLE_ALL, before
   onnxruntime merges them); a parameter read twice must be one tensor. */
static void test_match_takes_two_copies_of_a_constant_but_not_of_a_parameter(void **state) {
  (void)state;
  static const float TWO_AGAIN = 2.0f;
  ep_graph           g = {0};
  typed(&g, "x", WC_FLOAT, 1, 4, 0);
  constant(&g, "twoA", &TWO);
  constant(&g, "twoB", &TWO_AGAIN);
  node(&g, "Mul", IN("x", "twoA"), OUT("m"));
  node(&g, "Add", IN("m", "twoB"), OUT("y"));
  bool    *taken = taken_for(&g);
  ep_match m;
  assert_true(ep_match_kernel(&g, kernel_of(HEAD TWICE TAIL), NULL, taken, &m, why, sizeof why));
  ep_match_free(&m);
  free(taken);
  ep_graph_free(&g);
  /* Mul(x, x) against Mul(a, b): the parameter x would be two tensors */
  const char *square =
      HEAD "{\"name\": \"sq\", \"scope\": null, \"nodes\": [{\"op_type\": \"Mul\", \"inputs\": [\"x\", \"x\"],"
           " \"outputs\": [\"y\"]}], \"params\": [{\"name\": \"x\", \"tensor\": \"x\", \"dtype\": \"float\","
           " \"shape\": [4]}], \"literals\": [], \"baked\": [], \"outputs\": [{\"name\": \"out\", \"tensor\":"
           " \"y\", \"dtype\": \"float\", \"shape\": [4]}]}" TAIL;
  g = (ep_graph){0};
  node(&g, "Mul", IN("a", "b"), OUT("y"));
  refused(&g, kernel_of(square), "read as two different values", NULL);
  ep_graph_free(&g);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_teardown(test_match_finds_a_mul_add_relu_chain_by_its_output_name, teardown),
      cmocka_unit_test_teardown(test_match_binds_params_and_outputs_to_their_value_indices, teardown),
      cmocka_unit_test_teardown(test_match_finds_the_chain_with_its_input_and_intermediates_renamed, teardown),
      cmocka_unit_test_teardown(test_match_finds_the_chain_by_structure_when_its_output_is_renamed_too, teardown),
      cmocka_unit_test_teardown(test_match_refuses_a_literal_constant_of_another_value, teardown),
      cmocka_unit_test_teardown(test_match_refuses_a_literal_that_is_no_constant_or_not_one_element, teardown),
      cmocka_unit_test_teardown(test_match_refuses_an_intermediate_also_read_outside, teardown),
      cmocka_unit_test_teardown(test_match_refuses_an_intermediate_that_is_a_graph_output, teardown),
      cmocka_unit_test_teardown(test_match_taken_nodes_are_not_matched_twice, teardown),
      cmocka_unit_test_teardown(test_match_takes_a_second_copy_of_the_chain_by_structure, teardown),
      cmocka_unit_test_teardown(test_match_gives_a_wrong_operator_type_naming_both_types, teardown),
      cmocka_unit_test_teardown(test_match_refuses_another_number_of_inputs_or_an_unknown_source, teardown),
      cmocka_unit_test_teardown(test_match_refuses_when_the_intermediate_comes_from_outside, teardown),
      cmocka_unit_test_teardown(test_match_refuses_a_parameter_computed_inside_the_region, teardown),
      cmocka_unit_test_teardown(test_match_refuses_a_node_outside_between_two_of_its_nodes, teardown),
      cmocka_unit_test_teardown(test_match_reaches_a_second_sink_through_a_value_both_read, teardown),
      cmocka_unit_test_teardown(test_match_refuses_a_second_sink_the_graph_lacks_or_reads_elsewhere, teardown),
      cmocka_unit_test_teardown(test_match_checks_baked_constants_by_their_bytes, teardown),
      cmocka_unit_test_teardown(test_match_says_no_node_computes_the_output_in_an_unrelated_graph, teardown),
      cmocka_unit_test_teardown(test_match_types_accepts_the_declared_types, teardown),
      cmocka_unit_test_teardown(test_match_types_refuses_a_float16_parameter_the_kernel_takes_as_float, teardown),
      cmocka_unit_test_teardown(test_match_types_refuses_a_fixed_extent_4_against_5, teardown),
      cmocka_unit_test_teardown(test_match_types_accepts_unknown_dtypes_ranks_and_dims, teardown),
      cmocka_unit_test_teardown(test_match_types_checks_a_per_channel_parameter_by_its_own_shape, teardown),
      cmocka_unit_test(test_graph_interns_values_by_name_and_counts_consumers),
      cmocka_unit_test_teardown(test_find_passes_over_a_place_of_other_types_to_its_twin, teardown),
      cmocka_unit_test_teardown(test_find_refuses_when_every_place_has_other_types, teardown),
      cmocka_unit_test_teardown(test_match_takes_two_copies_of_a_constant_but_not_of_a_parameter, teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
