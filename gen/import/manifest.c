/* manifest.c: the JSON manifest of an import: per kernel the ONNX nodes it replaces and the
   graph tensor bound to each parameter and output (layout in docs/cli.md, "The manifest"). */
#include "import/manifest.h"

#include <string.h>

#include "import/fusion.h"
#include "import/spec_write.h"

/* Length of the UTF-8 sequence at s (1 to 4), or 0 when it is not one (overlong forms,
   surrogates and code points past U+10FFFF included). */
static int utf8_length(const unsigned char *s) {
  int      n = s[0] >= 0xf0 ? 4 : s[0] >= 0xe0 ? 3 : 2;
  uint32_t c = s[0] & (0x3fu >> (n - 1));
  if (s[0] < 0xc2 || s[0] > 0xf4) return 0;
  for (int k = 1; k < n; k++) {
    if ((s[k] & 0xc0) != 0x80) return 0;
    c = c << 6 | (s[k] & 0x3fu);
  }
  if ((n == 3 && c < 0x800) || (n == 4 && (c < 0x10000 || c > 0x10ffff)) ||
      (c >= 0xd800 && c <= 0xdfff))
    return 0;
  return n;
}

void manifest_string(diag_text *t, const char *s) {
  const unsigned char *p = (const unsigned char *)(s ? s : "");
  diag_text_putn(t, "\"", 1);
  while (*p) {
    if (*p == '"' || *p == '\\') {
      diag_text_printf(t, "\\%c", *p++);
    } else if (*p < 0x20 || *p == 0x7f) {
      diag_text_printf(t, "\\u%04x", *p++);
    } else if (*p < 0x80) {
      diag_text_putn(t, (const char *)p++, 1);
    } else {
      int n = utf8_length(p);
      if (n) diag_text_putn(t, (const char *)p, (size_t)n);
      else diag_text_printf(t, "\\ufffd");
      p += n ? n : 1;
    }
  }
  diag_text_putn(t, "\"", 1);
}

/* A shape as a JSON array: fixed extents as numbers, symbolic ones as their names in
   the kernel (ext_names). */
static void shape_json(diag_text *t, const ast_shape *s, const char *const *ext_names) {
  diag_text_printf(t, "[");
  for (int d = 0; d < s->rank; d++) {
    if (d) diag_text_printf(t, ", ");
    if (s->dims[d] >= 0) diag_text_printf(t, "%lld", (long long)s->dims[d]);
    else manifest_string(t, ext_names[-s->dims[d] - 1]);
  }
  diag_text_printf(t, "]");
}

/* Is name one of g's initializers? */
static bool is_initializer(const onnx_graph *g, const char *name) {
  for (int i = 0; i < g->n_initializers; i++)
    if (strcmp(g->initializers[i].name, name) == 0) return true;
  return false;
}

/* Where a leaf's graph tensor comes from, for the runtime that binds it: a graph input,
   an initializer, a node's output, or a value of the scopes around a sub-graph. */
static const char *origin(const import_graph *gr, const graph_value *v) {
  if (v->input >= 0) return "input";
  if (v->producer >= 0) return "node";
  if (is_initializer(gr->g, v->name)) return "initializer";
  return gr->outer ? "outer" : "initializer";
}

/* The entry of node i: its index in its graph, operator, name, inputs ("" for an omitted
   optional one) and outputs: the edges a runtime matches the region by. */
static void node_json(const import_graph *gr, int i, bool first, diag_text *t) {
  const onnx_node *n = gr->nodes[i].n;
  diag_text_printf(t, "%s\n        {\"index\": %d, \"op_type\": ", first ? "" : ",", i);
  manifest_string(t, n->op_type);
  diag_text_printf(t, ", \"name\": ");
  manifest_string(t, n->name);
  diag_text_printf(t, ", \"inputs\": [");
  for (int k = 0; k < n->n_inputs; k++) {
    if (k) diag_text_printf(t, ", ");
    manifest_string(t, n->inputs[k]);
  }
  diag_text_printf(t, "], \"outputs\": [");
  for (int o = 0; o < n->n_outputs; o++) {
    if (o) diag_text_printf(t, ", ");
    manifest_string(t, n->outputs[o]);
  }
  diag_text_printf(t, "]}");
}

/* The node entries of region r, root first, then the others from the outputs back (the
   order of the spec's comment line). */
static void nodes_json(const spec_writer *w, int r, diag_text *t) {
  const import_graph *gr = w->gr;
  int                 root = w->f->regions[r].root;
  node_json(gr, root, true, t);
  for (int k = gr->g->n_nodes - 1; k >= 0; k--) {
    int i = gr->order[k];
    if (i != root && w->f->nodes[i].region == r) node_json(gr, i, false, t);
  }
  diag_text_printf(t, "\n      ]");
}

/* The kernel's symbolic extents in the order the generated functions take them (first
   appearance in the parameters), each with the graph's dimension name. */
static void extents_json(const spec_writer *w, diag_text *t) {
  const import_graph *gr = w->gr;
  bool               *seen = graph_alloc(gr, (size_t)gr->n_syms + 1, sizeof *seen);
  bool                first = true;
  diag_text_printf(t, "[");
  for (int l = 0; l < w->n_leaves; l++) {
    if (!w->leaf_name[l] || w->leaf_baked[l]) continue;
    ast_shape shape = spec_leaf_shape(w, l);
    for (int d = 0; d < shape.rank; d++) {
      int64_t e = shape.dims[d];
      if (e >= 0 || seen[-e - 1]) continue;
      seen[-e - 1] = true;
      diag_text_printf(t, "%s\n        {\"name\": ", first ? "" : ",");
      manifest_string(t, w->ext_names[-e - 1]);
      diag_text_printf(t, ", \"dim\": ");
      if (-e - 1 < gr->n_syms) manifest_string(t, gr->syms[-e - 1]);
      else diag_text_printf(t, "null"); /* a flat kernel's n: no dimension of the graph */
      diag_text_printf(t, "}");
      first = false;
    }
  }
  diag_text_printf(t, first ? "]" : "\n      ]");
}

/* The parameters in declaration order: the kernel's name, the graph tensor, where it
   comes from, dtype and shape as declared (and the tensor's own shape when a per-channel
   parameter is declared with 1s after it). */
static void params_json(const spec_writer *w, diag_text *t) {
  const import_graph *gr = w->gr;
  bool                first = true;
  for (int l = 0; l < w->n_leaves; l++) {
    const graph_value *v = &gr->vals[w->leaves[l]];
    if (!w->leaf_name[l] || w->leaf_baked[l]) continue;
    ast_shape shape = spec_leaf_shape(w, l);
    diag_text_printf(t, "%s\n        {\"name\": ", first ? "" : ",");
    manifest_string(t, w->leaf_name[l]);
    diag_text_printf(t, ", \"tensor\": ");
    manifest_string(t, v->name);
    diag_text_printf(t, ", \"from\": \"%s\", \"constant\": %s, \"dtype\": \"%s\", \"shape\": ",
                     origin(gr, v), v->constant ? "true" : "false", wc_dtype_name(v->dtype));
    shape_json(t, &shape, w->ext_names);
    if (l == w->flat_leaf) { /* any shape, read as the vector of its elements */
      diag_text_printf(t, ", \"tensor_shape\": null");
    } else if (shape.rank != v->shape.rank) {
      diag_text_printf(t, ", \"tensor_shape\": ");
      shape_json(t, &v->shape, w->ext_names);
    }
    diag_text_printf(t, "}");
    first = false;
  }
  diag_text_printf(t, first ? "]" : "\n      ]");
}

/* One literal entry: the graph tensor, its dtype, the literal as the spec spells it and
   its bits (the element as an unsigned integer of the dtype's width, in hex), which a
   runtime compares with the tensor it finds. */
static void literal_json(const graph_value *v, const char *text, bool first, diag_text *t) {
  uint64_t bits[2] = {0, 0};
  onnx_tensor_scalar(v->constant, bits, NULL, 0); /* succeeded for the literal's text */
  diag_text_printf(t, "%s\n        {\"tensor\": ", first ? "" : ",");
  manifest_string(t, v->name);
  diag_text_printf(t, ", \"dtype\": \"%s\", \"value\": ", wc_dtype_name(v->dtype));
  manifest_string(t, text);
  diag_text_printf(t, ", \"bits\": \"0x%llx\"}", (unsigned long long)bits[0]);
}

/* The one-element constants the kernel holds as literals (no parameter): those its
   expression reads as leaves, then those a node's rule read at import and wrote into the
   formula (Pow's constant exponent, Clip's bounds), which a runtime checks as well. */
static void literals_json(const spec_writer *w, int r, diag_text *t) {
  const import_graph *gr = w->gr;
  bool                first = true;
  for (int l = 0; l < w->n_leaves; l++) {
    const graph_value *v = &gr->vals[w->leaves[l]];
    if (w->leaf_name[l] || !w->leaf_lit[l]) continue;
    literal_json(v, w->leaf_lit[l], first, t);
    first = false;
  }
  bool *seen = graph_alloc(gr, (size_t)gr->n_vals + 1, sizeof *seen);
  for (int l = 0; l < w->n_leaves; l++) seen[w->leaves[l]] = true;
  for (int k = 0; k < gr->g->n_nodes; k++) {
    int               i = gr->order[k];
    const graph_node *ni = &gr->nodes[i];
    if (w->f->nodes[i].region != r) continue;
    for (int q = 0; q < ni->n->n_inputs; q++) {
      int v = ni->in[q];
      if (fusion_reads(w->f, i, q)) continue;
      uint64_t bits[2];
      char     text[80];
      if (v < 0 || seen[v] || !gr->vals[v].constant ||
          !onnx_tensor_scalar(gr->vals[v].constant, bits, NULL, 0) ||
          !spec_literal_text(gr->vals[v].dtype, bits, text, sizeof text))
        continue;
      seen[v] = true;
      literal_json(&gr->vals[v], text, first, t);
      first = false;
    }
  }
  diag_text_printf(t, first ? "]" : "\n      ]");
}

/* The initializers baked into the kernel as constants of the spec (`const`, --bake-limit):
   the constant's name, the graph tensor, dtype and shape as declared (with the 1s of a
   per-channel read); a runtime binds no tensor to them. */
static void baked_json(const spec_writer *w, diag_text *t) {
  const import_graph *gr = w->gr;
  bool                first = true;
  for (int l = 0; l < w->n_leaves; l++) {
    const graph_value *v = &gr->vals[w->leaves[l]];
    if (!w->leaf_name[l] || !w->leaf_baked[l]) continue;
    ast_shape shape = spec_leaf_shape(w, l);
    diag_text_printf(t, "%s\n        {\"name\": ", first ? "" : ",");
    manifest_string(t, w->leaf_name[l]);
    diag_text_printf(t, ", \"tensor\": ");
    manifest_string(t, v->name);
    diag_text_printf(t, ", \"dtype\": \"%s\", \"shape\": ", wc_dtype_name(v->dtype));
    shape_json(t, &shape, w->ext_names);
    diag_text_printf(t, "}");
    first = false;
  }
  diag_text_printf(t, first ? "]" : "\n      ]");
}

/* The scope's path from the model's graph down, one step per sub-graph. */
static void path_json(const manifest_scope *s, diag_text *t) {
  if (s->up) {
    path_json(s->up, t);
    diag_text_printf(t, ",");
  }
  diag_text_printf(t, "\n          {\"node\": %d, \"op_type\": ", s->node);
  manifest_string(t, s->op_type);
  diag_text_printf(t, ", \"name\": ");
  manifest_string(t, s->node_name);
  diag_text_printf(t, ", \"attribute\": ");
  manifest_string(t, s->attribute);
  diag_text_printf(t, ", \"graph\": %d}", s->graph);
}

void manifest_kernel(const spec_writer *w, int r, const manifest_scope *scope, diag_text *t) {
  const import_graph  *gr = w->gr;
  const fusion_region *rg = &w->f->regions[r];
  const graph_value   *out = &gr->vals[gr->nodes[rg->root].out];
  diag_text_printf(t, "    {\n      \"name\": ");
  manifest_string(t, rg->name);
  diag_text_printf(t, ",\n      \"scope\": ");
  if (scope) {
    diag_text_printf(t, "{\n        \"title\": ");
    manifest_string(t, scope->title);
    diag_text_printf(t, ",\n        \"path\": [");
    path_json(scope, t);
    diag_text_printf(t, "\n        ]\n      }");
  } else {
    diag_text_printf(t, "null");
  }
  diag_text_printf(t, ",\n      \"nodes\": [");
  nodes_json(w, r, t);
  diag_text_printf(t, ",\n      \"extents\": ");
  extents_json(w, t);
  diag_text_printf(t, ",\n      \"params\": [");
  params_json(w, t);
  diag_text_printf(t, ",\n      \"literals\": [");
  literals_json(w, r, t);
  diag_text_printf(t, ",\n      \"baked\": [");
  baked_json(w, t);
  diag_text_printf(t, ",\n      \"outputs\": [");
  for (int o = 0; o <= w->n_extra; o++) { /* the root's, then the others */
    const graph_value *v = o == 0 ? out : &w->gr->vals[w->gr->nodes[w->extra[o - 1]].out];
    diag_text_printf(t, "%s\n        {\"name\": ", o ? "," : "");
    manifest_string(t, o             ? w->let_name[w->gr->nodes[w->extra[o - 1]].out]
                       : w->out_name ? w->out_name
                                     : "out");
    diag_text_printf(t, ", \"tensor\": ");
    manifest_string(t, v->name);
    diag_text_printf(t, ", \"dtype\": \"%s\", \"shape\": ", wc_dtype_name(v->dtype));
    ast_shape shape = spec_output_shape(w, v);
    if (w->flat_leaf >= 0) {
      shape_json(t, &shape, w->ext_names);
      diag_text_printf(t, ", \"tensor_shape\": null"); /* the flat parameter's */
    } else if (v->shaped) {
      shape_json(t, &shape, w->ext_names);
    } else {
      diag_text_printf(t, "null");
    }
    diag_text_printf(t, "}");
  }
  diag_text_printf(t, "\n      ]\n    }");
}

void manifest_open(const import_graph *gr, const char *model_name, const char *spec_name,
                   diag_text *t) {
  diag_text_printf(
      t, "{\n  \"format\": \"wherec-import-manifest\",\n  \"version\": %d,\n  \"model\": ",
      MANIFEST_VERSION);
  manifest_string(t, model_name);
  diag_text_printf(t, ",\n  \"spec\": ");
  manifest_string(t, spec_name);
  diag_text_printf(t, ",\n  \"graph\": ");
  manifest_string(t, gr->g->name);
  diag_text_printf(t, ",\n  \"opset\": %lld,\n  \"kernels\": [\n", (long long)gr->opset);
}

void manifest_close(diag_text *t) { diag_text_printf(t, "\n  ]\n}\n"); }
