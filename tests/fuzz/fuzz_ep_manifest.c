/* fuzz_ep_manifest.c: libFuzzer target of the execution provider's readers (ep/json.c,
   ep/manifest.c): any bytes either fail with a one-line message or give a tree, and a
   manifest, whose every member is there to read; each kernel read is then looked for in a
   graph made of its own nodes (ep/match.c), which may fail but must not crash. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <wherec/wherec.h>

#include "json.h"
#include "manifest.h"
#include "match.h"

static void fail(const char *what, const char *detail) {
  fprintf(stderr, "fuzz_ep_manifest: %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
  abort();
}

static void one_line(const char *err) {
  if (err[0] == '\0' || strchr(err, '\n')) fail("a refusal without a one-line message", err);
}

/* Every value of the tree, its strings read to their end; the counts hold. */
static size_t walk(const json *v, int depth) {
  size_t n = 1, members = 0;
  if (depth > JSON_MAX_DEPTH) fail("a tree deeper than JSON_MAX_DEPTH", NULL);
  if (v->kind == JSON_STRING && !v->string) fail("a string without text", NULL);
  if (v->kind == JSON_STRING) (void)strlen(v->string);
  for (const json *e = v->first; e; e = e->next, members++) {
    if (v->kind == JSON_OBJECT && (!e->key || json_get(v, e->key) == NULL)) fail("a member without its name", NULL);
    if (v->kind == JSON_ARRAY && e->key) fail("an element with a name", e->key);
    n += walk(e, depth + 1);
  }
  if (members != v->count) fail("a container whose count is not its members", NULL);
  return n;
}

/* A graph of the kernel's own nodes: its literals hold their bits, its parameters and
   outputs their declared types. */
static void match_own_nodes(const ep_mkernel *k) {
  ep_graph g = {0};
  uint8_t (*lit)[8] = calloc((size_t)k->n_literals + 1, 8);
  if (!lit) return;
  for (int r = k->n_nodes - 1; r >= 0; r--) {
    const ep_mnode *n = &k->nodes[r];
    int *in = calloc((size_t)n->n_inputs + 1, sizeof *in), *out = calloc((size_t)n->n_outputs + 1, sizeof *out);
    if (!in || !out) fail("out of memory", NULL);
    for (int i = 0; i < n->n_inputs; i++) in[i] = ep_graph_value(&g, n->inputs[i]);
    for (int o = 0; o < n->n_outputs; o++) out[o] = ep_graph_value(&g, n->outputs[o]);
    ep_graph_add_node(&g, n->op_type, NULL, in, n->n_inputs, out, n->n_outputs);
    free(in);
    free(out);
  }
  for (int l = 0; l < k->n_literals; l++) {
    int v = ep_graph_find(&g, k->literals[l].tensor);
    if (v < 0) continue;
    size_t size = wc_dtype_size((wc_dtype)k->literals[l].dtype);
    for (int b = 0; b < 8; b++) lit[l][b] = (uint8_t)(k->literals[l].bits >> (8 * b));
    g.values[v].data = lit[l];
    g.values[v].bytes = size <= 8 ? size : 8;
  }
  for (int p = 0; p < k->n_params + k->n_outputs; p++) {
    const ep_mparam *q = p < k->n_params ? &k->params[p] : &k->outputs[p - k->n_params];
    int              v = ep_graph_find(&g, q->tensor);
    if (v < 0) continue;
    g.values[v].dtype = q->dtype;
    g.values[v].rank = q->rank >= 0 ? q->rank - q->pad : -1;
    memcpy(g.values[v].dims, q->dims, sizeof q->dims);
    if (p >= k->n_params) g.values[v].graph_output = true;
  }
  bool    *taken = calloc((size_t)g.n_nodes + 1, 1);
  ep_match m;
  char     why[512];
  if (taken && !g.failed && ep_match_kernel(&g, k, NULL, taken, &m, why, sizeof why)) {
    for (int r = 0; r < k->n_nodes; r++)
      if (m.nodes[r] < 0 || m.nodes[r] >= g.n_nodes || !taken[m.nodes[r]]) fail("a match outside the graph", k->name);
    for (int p = 0; p < k->n_params; p++)
      if (m.params[p] < 0 || m.params[p] >= g.n_values) fail("a parameter bound to no value", k->params[p].name);
    for (int o = 0; o < k->n_outputs; o++)
      if (m.outputs[o] < 0 || m.outputs[o] >= g.n_values) fail("an output bound to no value", k->outputs[o].name);
    (void)ep_match_types(&g, k, &m, why, sizeof why);
    ep_match_free(&m);
    if (ep_match_kernel(&g, k, NULL, taken, &m, why, sizeof why)) fail("a region matched twice", k->name);
  }
  free(taken);
  free(lit);
  ep_graph_free(&g);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char  err[256] = "";
  json *j = json_parse((const char *)data, size, err, sizeof err);
  if (!j) {
    one_line(err);
    if (strncmp(err, "line ", 5) != 0) fail("a JSON error without its line", err);
  } else {
    if (err[0]) fail("a tree and an error", err);
    walk(j, 0);
    json_free(j);
  }

  ep_manifest m;
  if (!ep_manifest_parse((const char *)data, size, &m, err, sizeof err)) {
    one_line(err);
    if (m.doc || m.kernels || m.n_kernels || m.blocks_) fail("a refusal left data behind", err);
    return 0;
  }
  for (int ki = 0; ki < m.n_kernels; ki++) {
    const ep_mkernel *k = &m.kernels[ki];
    if (!k->name || k->n_nodes < 1 || k->n_outputs < 1) fail("a kernel without name, nodes or outputs", NULL);
    for (int r = 0; r < k->n_nodes; r++) {
      if (!k->nodes[r].op_type) fail("a node without op_type", k->name);
      for (int i = 0; i < k->nodes[r].n_inputs; i++) (void)strlen(k->nodes[r].inputs[i]);
      for (int o = 0; o < k->nodes[r].n_outputs; o++) (void)strlen(k->nodes[r].outputs[o]);
    }
    for (int p = 0; p < k->n_params + k->n_outputs; p++) {
      const ep_mparam *q = p < k->n_params ? &k->params[p] : &k->outputs[p - k->n_params];
      if (!q->name || !q->tensor || !wc_dtype_name((wc_dtype)q->dtype)) fail("a parameter half read", k->name);
      if (q->rank < -1 || q->rank > 16 || q->pad < 0 || (q->rank >= 0 && q->pad > q->rank))
        fail("a parameter of a bad rank", q->name);
      for (int d = 0; d < q->rank; d++)
        if (q->dims[d] < -1) fail("a negative extent", q->name);
    }
    for (int l = 0; l < k->n_literals; l++) {
      size_t width = 8 * wc_dtype_size((wc_dtype)k->literals[l].dtype);
      if (!k->literals[l].tensor || !width) fail("a literal half read", k->name);
      if (width < 64 && k->literals[l].bits >> width) fail("literal bits wider than the dtype", k->literals[l].tensor);
    }
    for (int b = 0; b < k->n_baked; b++)
      if (!k->baked_tensors[b] || !k->baked_names[b]) fail("a baked constant half read", k->name);
    match_own_nodes(k);
  }
  ep_manifest_free(&m);
  return 0;
}
