/* fusion.c: which nodes wherec import fuses: each node's typing against the spec's rules,
   the regions formed from the outputs backwards, and the list of what is not taken. */
#include "import/fusion.h"

#include <string.h>

static bool numeric(wc_dtype t) {
  ast_dtype_class c = ast_dtype_class_of(t);
  return c == AST_CLASS_SINT || c == AST_CLASS_UINT || c == AST_CLASS_REAL || c == AST_CLASS_HALF;
}

/* Why node i cannot be part of a fused expression, or NULL if it can; what it
   reads off the attributes (alpha, the cast's dtype, Clip-6 bounds) goes into fn. */
static const char *check_node(const import_graph *gr, int i, fusion_node *fn) {
  const graph_node *ni = &gr->nodes[i];
  const onnx_node  *n = ni->n;
  const op_row     *op = ni->op;
  int               nin = n->n_inputs;
  if (n->domain[0] && strcmp(n->domain, "ai.onnx") != 0)
    return graph_fmt(gr, "operator of domain '%.100s' is not supported", n->domain);
  if (op == NULL) return "not element-wise";
  if (ni->kind == OP_CONSTANT) return NULL;
  if (n->n_outputs != 1 || ni->out < 0) return "expected exactly one output";
  for (int k = 0; k < n->n_attrs; k++)
    if (n->attrs[k].is_ref || n->attrs[k].has_g || n->attrs[k].n_graphs)
      return "attribute references or sub-graphs are not supported";
  /* every input present must have a dtype wherec knows */
  for (int k = 0; k < nin; k++) {
    if (ni->in[k] < 0) continue;
    const graph_value *v = &gr->vals[ni->in[k]];
    if (v->dtype == 0)
      return v->elem ? graph_fmt(gr, "input '%.200s' has %s, which wherec does not support",
                                 v->name, graph_dtype_label(gr, v->elem))
                     : graph_fmt(gr, "input '%.200s' has an unknown dtype", v->name);
  }
  wc_dtype t0 = nin > 0 && ni->in[0] >= 0 ? gr->vals[ni->in[0]].dtype : (wc_dtype)0;
  if (op->min_in == op->max_in && nin != op->min_in)
    return graph_fmt(gr, "expected %d inputs, got %d", op->min_in, nin);
  if (nin < 1 || ni->in[0] < 0) return "its first input is missing";
  if (op->max_in >= 0 && nin > op->max_in)
    return graph_fmt(gr, "expected at most %d inputs, got %d", op->max_in, nin);
  for (int k = 1; k < nin; k++) {
    if (ni->in[k] < 0 && ni->kind != OP_CLIP) return "an input is missing";
    wc_dtype tk = ni->in[k] >= 0 ? gr->vals[ni->in[k]].dtype : t0;
    bool     same = (ni->kind != OP_WHERE || k == 2) && ni->kind != OP_CASTLIKE;
    if (same && tk != (ni->kind == OP_WHERE ? gr->vals[ni->in[1]].dtype : t0))
      return "its inputs have different dtypes";
  }
  switch (ni->kind) {
  case OP_CMP:
    if (!numeric(t0) && !(strcmp(op->spell, "==") == 0 && (t0 == WC_BOOL || t0 == WC_STRING)))
      return graph_fmt(gr, "'%s' is not defined on %s in wherec", op->spell, wc_dtype_name(t0));
    return NULL;
  case OP_NOT:
  case OP_LOGIC:
  case OP_XOR: return t0 == WC_BOOL ? NULL : "expects bool inputs";
  case OP_ARITH:
  case OP_NEG:
  case OP_ABS:
  case OP_MINMAX:
  case OP_RELU:
    return numeric(t0) ? NULL : graph_fmt(gr, "not defined on %s in wherec", wc_dtype_name(t0));
  case OP_LEAKY: {
    const onnx_attr *a = graph_attr(n, "alpha");
    ast_dtype_class  c = ast_dtype_class_of(t0);
    if (c != AST_CLASS_REAL && c != AST_CLASS_HALF) return "expects a floating-point input";
    fn->alpha = a && a->has_f ? a->f : 0.01f;
    return NULL;
  }
  case OP_CLIP:
    if (!numeric(t0)) return graph_fmt(gr, "not defined on %s in wherec", wc_dtype_name(t0));
    if (gr->opset > 0 && gr->opset < 11) { /* Clip-6: bounds are float attributes */
      const onnx_attr *lo = graph_attr(n, "min"), *hi = graph_attr(n, "max");
      if (t0 != WC_FLOAT) return "Clip before opset 11 is supported on float only";
      if (nin != 1) return "Clip before opset 11 takes one input";
      fn->has_lo = true;
      fn->has_hi = true;
      fn->lo = lo && lo->has_f ? lo->f : -3.40282347e+38f;
      fn->hi = hi && hi->has_f ? hi->f : 3.40282347e+38f;
      return NULL;
    }
    for (int k = 1; k < nin; k++) {
      const graph_value *b = ni->in[k] >= 0 ? &gr->vals[ni->in[k]] : NULL;
      if (b && (!b->shaped || b->shape.rank != 0)) {
        int64_t count = 1;
        for (int d = 0; b->shaped && d < b->shape.rank; d++) count *= b->shape.dims[d] == 1 ? 1 : 0;
        if (!(b->constant && count == 1))
          return graph_fmt(gr, "bound '%.200s' is not a scalar", b->name);
      }
    }
    return NULL;
  case OP_CAST:
  case OP_CASTLIKE: {
    const onnx_attr *to = graph_attr(n, "to");
    int64_t          code = ni->kind == OP_CASTLIKE ? (int64_t)gr->vals[ni->in[1]].dtype
                            : to && to->has_i       ? to->i
                                                    : -1;
    if (code < 0) return "no 'to' attribute";
    if (code < 1 || code > 16)
      return graph_fmt(gr, "casts to %s are not supported", graph_dtype_label(gr, (int32_t)code));
    fn->cast_to = (wc_dtype)code;
    if (fn->cast_to != t0 && !ast_cast_ok(t0, fn->cast_to))
      return graph_fmt(gr, "casts from %s to %s are not supported", wc_dtype_name(t0),
                       wc_dtype_name(fn->cast_to));
    return NULL;
  }
  case OP_WHERE: return t0 == WC_BOOL ? NULL : "its condition is not bool";
  default: return NULL;
  }
}

/* Times the expression of node ni names its input slot k (see spec_write.c); once
   for a node outside every region (an unknown operator), which stops the join anyway. */
static int copies_of(const graph_node *ni, int k) {
  if (k >= op_operands(ni->op, ni->n->n_inputs)) return 0;
  return ni->op ? ni->op->copies : 1;
}

void fusion_form(fusion *f, const import_graph *gr) {
  int n = gr->g->n_nodes;
  f->nodes = graph_alloc(gr, (size_t)n, sizeof *f->nodes);
  f->regions = graph_alloc(gr, (size_t)n, sizeof *f->regions);
  f->n_regions = 0;
  for (int i = 0; i < n; i++) f->nodes[i].region = -1;
  for (int k = n - 1; k >= 0; k--) {
    int               i = gr->order[k];
    const graph_node *ni = &gr->nodes[i];
    fusion_node      *fn = &f->nodes[i];
    fn->reason = check_node(gr, i, fn);
    if (fn->reason || ni->kind == OP_CONSTANT) continue;
    int                region = -1, depth = 0, copies = 0;
    const graph_value *out = &gr->vals[ni->out];
    bool               join = ni->kind != OP_NONZERO && !out->is_output && out->captured_by < 0 &&
                out->n_uses > 0;
    /* a node reading the value twice is listed twice: count each slot once */
    for (int u = 0; u < gr->n_users[ni->out] && join; u++) {
      int                c = gr->users[ni->out][u];
      const graph_node  *cn = &gr->nodes[c];
      const fusion_node *cf = &f->nodes[c];
      if (u > 0 && gr->users[ni->out][u - 1] == c) continue;
      for (int s = 0; s < cn->n->n_inputs && join; s++) {
        if (cn->in[s] != ni->out) continue;
        if (cf->region < 0 || (region >= 0 && cf->region != region)) join = false;
        region = cf->region;
        if (cf->depth + 1 > depth) depth = cf->depth + 1;
        copies += cf->copies * copies_of(cn, s);
      }
    }
    if (join && depth <= IMPORT_MAX_DEPTH && copies <= IMPORT_MAX_COPIES) {
      fn->region = region;
      fn->depth = depth;
      fn->copies = copies;
    } else {
      region = f->n_regions++;
      memset(&f->regions[region], 0, sizeof f->regions[region]);
      f->regions[region].root = i;
      fn->region = region;
      fn->depth = 0;
      fn->copies = 1;
    }
    if (ni->op->select) f->regions[fn->region].select = true;
  }
}

bool fusion_whole_graph(const fusion *f, const import_graph *gr, int r) {
  if (f->n_regions != 1) return false;
  for (int i = 0; i < gr->g->n_nodes; i++) {
    const graph_node *ni = &gr->nodes[i];
    if (f->nodes[i].region == r) continue;
    if (ni->kind != OP_CONSTANT || ni->out < 0) return false;
    for (int u = 0; u < gr->n_users[ni->out]; u++)
      if (f->nodes[gr->users[ni->out][u]].region != r) return false;
  }
  return true;
}

/* Why node i is not taken, NULL when a kernel takes it (or reads it, for a Constant). */
static const char *not_taken(const fusion *f, const import_graph *gr, int i) {
  const graph_node  *ni = &gr->nodes[i];
  const fusion_node *fn = &f->nodes[i];
  if (fn->reason) return fn->reason;
  if (ni->kind == OP_CONSTANT) {
    for (int u = 0; ni->out >= 0 && u < gr->n_users[ni->out]; u++) {
      int reg = f->nodes[gr->users[ni->out][u]].region;
      if (reg >= 0 && f->regions[reg].select && !f->regions[reg].reason) return NULL;
    }
    return "no kernel reads it";
  }
  const fusion_region *rg = &f->regions[fn->region];
  int                  reader = rg->root == i ? gr->vals[ni->out].captured_by : -1;
  if (!rg->select && reader >= 0)
    return graph_fmt(gr, "its value is read inside a sub-graph of %s, so it is not fused",
                     graph_node_label(gr, reader));
  if (!rg->select)
    return "element-wise, but no Where, NonZero, Relu, LeakyRelu or Clip to fuse it into";
  if (rg->reason && rg->root == i) return rg->reason;
  if (rg->reason)
    return graph_fmt(gr, "fused into %s, which is not taken: %s", graph_node_label(gr, rg->root),
                     rg->reason);
  return NULL;
}

void fusion_report(const fusion *f, const import_graph *gr, FILE *log) {
  for (int k = 0; k < gr->g->n_nodes; k++) {
    int         i = gr->order[k];
    const char *why = not_taken(f, gr, i);
    if (why) fprintf(log, "wherec: not taken: %s: %s\n", graph_node_label(gr, i), why);
  }
}

void fusion_free(fusion *f) {
  for (int r = 0; r < f->n_regions; r++) diag_text_free(&f->regions[r].text);
  f->n_regions = 0;
}
