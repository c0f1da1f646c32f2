/* fuzz_onnx.c: libFuzzer target of the ONNX wire reader (gen/import/onnx.h) and the importer:
   any bytes fail with a message or give tensors the runtime accepts and a spec sema accepts. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "import/onnx.h"

#include "import/import.h"
#include "front/parse.h"
#include "front/sema.h"

static void fail(const char *what, const char *detail) {
  fprintf(stderr, "fuzz_onnx: %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
  abort();
}

/* A tensor's elements, when they convert, form a descriptor the runtime
   accepts, with every element there to read (ASan checks the buffer). */
static void convert(const onnx_tensor *t) {
  wc_tensor w;
  char *strings = NULL, err[256] = "";
  uint64_t bits[2];
  int64_t n;
  memset(&w, 0, sizeof w);
  if (onnx_tensor_to_wc(t, &w, &strings, err, sizeof err)) {
    if (wc_count_true(&w, &n) != WC_OK) fail("onnx_tensor_to_wc gave an invalid descriptor", NULL);
    free(w.data);
    free(strings);
  } else if (err[0] == '\0') {
    fail("onnx_tensor_to_wc refused without a message", NULL);
  }
  err[0] = '\0';
  if (!onnx_tensor_scalar(t, bits, err, sizeof err) && err[0] == '\0')
    fail("onnx_tensor_scalar refused without a message", NULL);
}

/* Where the lengths read below go, so that the reads are not optimized away. */
volatile size_t sink;

/* Reads every string and dimension the reader made (ASan checks each pointer). */
static size_t value_infos(const onnx_value_info *v, int n) {
  size_t bytes = 0;
  for (int i = 0; i < n; i++) {
    bytes += strlen(v[i].name);
    for (int d = 0; v[i].has_shape && d < v[i].rank; d++)
      bytes += v[i].dims[d].param ? strlen(v[i].dims[d].param) : (size_t)v[i].dims[d].value;
  }
  return bytes;
}

/* Everything the reader made of graph g and of its sub-graphs, depth levels down
   from the model's graph; never deeper than the reader's limit. */
static void graph(const onnx_graph *g, int depth) {
  if (depth > ONNX_MAX_GRAPH_DEPTH) fail("the reader gave sub-graphs beyond its depth limit", NULL);
  sink = strlen(g->name);
  for (int i = 0; i < g->n_initializers; i++) convert(&g->initializers[i]);
  for (int i = 0; i < g->n_nodes; i++)
    for (int a = 0; a < g->nodes[i].n_attrs; a++) {
      const onnx_attr *at = &g->nodes[i].attrs[a];
      if (at->has_t && at->t) convert(at->t);
      if (at->has_g) graph(at->g, depth + 1);
      for (int k = 0; k < at->n_graphs; k++) graph(&at->graphs[k], depth + 1);
    }
  sink = value_infos(g->inputs, g->n_inputs) + value_infos(g->outputs, g->n_outputs) +
         value_infos(g->value_info, g->n_value_info);
  for (int i = 0; i < g->n_nodes; i++) {
    const onnx_node *o = &g->nodes[i];
    sink = strlen(o->op_type) + strlen(o->domain) + strlen(o->name);
    for (int k = 0; k < o->n_inputs; k++) sink = strlen(o->inputs[k]);
    for (int k = 0; k < o->n_outputs; k++) sink = strlen(o->outputs[k]);
  }
}

static void model(const uint8_t *data, size_t size) {
  char err[256] = "";
  onnx_model *m = onnx_read_model(data, size, err, sizeof err);
  if (m == NULL) {
    if (err[0] == '\0') fail("onnx_read_model refused without a message", NULL);
    return;
  }
  (void)onnx_opset_version(m);
  if (m->has_graph) graph(&m->graph, 0);
  onnx_model_free(m);
}

static void tensor(const uint8_t *data, size_t size) {
  arena a;
  char err[256] = "";
  arena_init(&a);
  onnx_tensor *t = onnx_read_tensor(&a, data, size, err, sizeof err);
  if (t) convert(t);
  else if (err[0] == '\0') fail("onnx_read_tensor refused without a message", NULL);
  arena_free(&a);
}

/* The importer either refuses the model or writes a spec that checks clean. */
static void import(const uint8_t *data, size_t size) {
  static FILE *sink;
  char *spec = NULL;
  if (sink == NULL && (sink = fopen("/dev/null", "w")) == NULL) fail("cannot open /dev/null", NULL);
  if (import_model(data, size, "fuzz", sink, &spec) != GEN_EXIT_OK) {
    free(spec);
    return;
  }
  if (spec == NULL) fail("import_model succeeded without a spec", NULL);
  diag_ctx d;
  diag_init(&d, "imported.where", spec, strlen(spec), NULL);
  ast_file *f = parse_source(spec, strlen(spec), &d);
  sema_program *p = f ? sema_check(f, &d) : NULL;
  if (p == NULL || d.n_errors) {
    fprintf(stderr, "%s\n----\n%s", spec, diag_str(&d));
    fail("the imported spec does not check", NULL);
  }
  sema_free(p);
  ast_file_free(f);
  diag_free(&d);
  free(spec);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  model(data, size);
  tensor(data, size);
  import(data, size);
  return 0;
}
