/* fusion.c: which nodes wherec import fuses: each node's typing against its row of the
   operator table (ops.h) and its check, the regions formed from the outputs backwards, and
   the list of what is not taken. */
#include "import/fusion.h"

#include <math.h>
#include <string.h>

#include "front/sema.h"
#include "import/forms.h"

static int64_t attr_i(const onnx_node *n, const char *name, int64_t dflt) {
  const onnx_attr *a = graph_attr(n, name);
  return a && a->has_i ? a->i : dflt;
}

/* The legacy broadcasting of the binary operators before opset 7 (Add-6, Equal-1, ...):
   attribute broadcast 0 wants equal shapes, 1 lets B broadcast to A from position
   axis (default: the trailing dimensions, which is numpy's rule restricted to B). */
static const char *legacy_broadcast(const import_graph *gr, const graph_node *ni) {
  const graph_value *a = &gr->vals[ni->in[0]], *b = &gr->vals[ni->in[1]];
  if (!a->shaped || !b->shaped) return NULL;
  if (attr_i(ni->n, "broadcast", 0) == 0)
    return graph_same_shape(&a->shape, &b->shape)
               ? NULL
               : "before opset 7 its inputs must have one shape unless broadcast=1";
  const onnx_attr *axis = graph_attr(ni->n, "axis");
  if (axis && axis->has_i) {
    int64_t at = axis->i < 0 ? axis->i + a->shape.rank : axis->i;
    if (at != a->shape.rank - b->shape.rank)
      return graph_fmt(gr,
                       "broadcast=1 with axis=%lld aligns B with dimensions of A other than "
                       "the trailing ones, which a kernel's broadcasting cannot express",
                       (long long)axis->i);
  }
  return graph_broadcasts_to(a, b) ? NULL : "broadcast=1, but B does not broadcast to A's shape";
}

/* The attributes of n that its operator has at other opsets but not at the model's (the
   row's AV columns), or NULL: ignored, it would change what the node computes (Clip-11 with
   Clip-6's min). consumed_inputs (a memory hint of opset 1) is no column: it is ignored. */
static const char *versioned_attr_missing(const import_graph *gr, const graph_node *ni) {
  const op_row *op = ni->op;
  for (int k = 0; k < op->n_attrs; k++) {
    const op_attr *a = &op->attrs[k];
    if ((a->from <= 1 && a->until == 0) || !graph_attr(ni->n, a->name)) continue;
    if (gr->opset >= a->from && (a->until == 0 || gr->opset < a->until)) continue;
    return a->until
               ? graph_fmt(gr, "%s has no attribute '%s' at opset %lld (opsets %d to %d have it)",
                           op->name, a->name, (long long)gr->opset, a->from, a->until - 1)
               : graph_fmt(gr, "%s has no attribute '%s' at opset %lld (it came in opset %d)",
                           op->name, a->name, (long long)gr->opset, a->from);
  }
  return NULL;
}

/* The wherec operation spelled spell (a function of the spec), or -1. */
static int spec_function(const char *spell) {
  static const struct {
    const char *spell;
    wc_opcode   op;
  } rows[] = {
#define SPELLING_(NAME, spelling, ...) {spelling, WC_OP_##NAME},
      WC_OP_LIST(SPELLING_)
#undef SPELLING_
  };
  for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
    if (rows[i].spell[0] != 0 && strcmp(rows[i].spell, spell) == 0) return (int)rows[i].op;
  return -1;
}

/* Why a function e's form calls is not defined on its dtype, or NULL. */
static const char *undefined_call(const import_graph *gr, const graph_node *ni, const ex *e) {
  for (int k = 0; k < e->n; k++) {
    const char *why = undefined_call(gr, ni, e->arg[k]);
    if (why) return why;
  }
  if (e->kind != EX_CALL) return NULL;
  int op = spec_function(e->text);
  if (op < 0 || wc_op_defined((wc_opcode)op, e->dtype)) return NULL;
  if (e->dtype == WC_DOUBLE && wc_op_defined((wc_opcode)op, WC_FLOAT))
    return graph_fmt(gr,
                     "%s on double: wherec's exp, log, tanh, sigmoid, erf, pow, the activations "
                     "(expm1, selu, softplus, softsign, silu, mish) and the circular and hyperbolic "
                     "functions are correctly rounded on float, float16 and bfloat16 only "
                     "(double ones are not there yet)",
                     ni->op->name);
  return graph_fmt(gr, "%s calls %s, which is not defined on %s", ni->op->name, e->text,
                   wc_dtype_name(e->dtype));
}

/* The reads of every input slot by node i's form, made with stand-ins for the inputs, and
   why a function it calls is not defined on its dtype. */
static ex *stand_in(form *f, int k, int pad) {
  (void)pad;
  int v = f->ni->in[k];
  return ex_make(f->x, EX_PARAM, v >= 0 ? f->gr->vals[v].dtype : f->t, "_", 0, NULL, NULL, NULL);
}

static const char *count_reads(const import_graph *gr, int i, fusion_node *fn) {
  const graph_node *ni = &gr->nodes[i];
  ex_ctx            x = {gr, NULL};
  form              f = {&x, gr, ni, fn, &fn->at, fn->t, stand_in, NULL, -1, fn->reads};
  ex               *e = form_node(&f);
  if (x.unspellable) return x.unspellable;
  return undefined_call(gr, ni, e);
}

/* Why node i cannot be part of a fused expression, or NULL if it can; its attributes, the
   dtype it is typed on, the facts of its check and its reads go into fn. The columns of
   its row are checked here; its check does the rest. */
static const char *check_node(const import_graph *gr, int i, fusion_node *fn) {
  const graph_node *ni = &gr->nodes[i];
  const onnx_node  *n = ni->n;
  const op_row     *op = ni->op;
  int               nin = n->n_inputs;
  if (op == NULL && n->domain[0] && strcmp(n->domain, "ai.onnx") != 0)
    return graph_fmt(gr, "operator of domain '%.100s' is not supported", n->domain);
  if (ni->folded) return NULL; /* a constant now, like a Constant's */
  if (op == NULL || !op->elementwise) return "not element-wise";
  if (op->id == OP_Constant) return NULL;
  if (gr->opset > 0 && gr->opset < op->first)
    return graph_fmt(gr, "%s is not in opset %lld: it appeared in opset %d", op->name,
                     (long long)gr->opset, op->first);
  const char *gone = gr->opset > 0 ? versioned_attr_missing(gr, ni) : NULL;
  if (gone) return gone;
  if (ni->out < 0) return "expected exactly one output";
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
  if (op->min_in == op->max_in && nin != op->min_in)
    return graph_fmt(gr, "expected %d inputs, got %d", op->min_in, nin);
  if (nin < op->min_in)
    return graph_fmt(gr, "expected at least %d inputs, got %d", op->min_in, nin);
  if (nin < 1 || ni->in[0] < 0) return "its first input is missing";
  if (op->max_in >= 0 && nin > op->max_in)
    return graph_fmt(gr, "expected at most %d inputs, got %d", op->max_in, nin);
  /* the dtype the operator is typed on: its first T input's; the other T inputs share it */
  for (int k = 0; k < nin; k++) {
    int slot = k < op->n_named ? k : op->n_named - 1; /* a variadic input repeats the last */
    if (ni->in[k] < 0 && !op->in_optional[slot]) return "an input is missing";
  }
  fn->t = gr->vals[ni->in[op->typed]].dtype;
  for (int k = 0; k < nin; k++) {
    int  slot = k < op->n_named ? k : op->n_named - 1;
    char kind = op->in_kind[slot];
    if (ni->in[k] < 0) continue;
    wc_dtype tk = gr->vals[ni->in[k]].dtype;
    if (kind == 'T' && tk != fn->t) return "its inputs have different dtypes";
    if (kind == 'B' && tk != WC_BOOL) return graph_fmt(gr, "its %s is not bool", op->in_name[slot]);
  }
  if (!(op->types & (1u << ast_dtype_class_of(fn->t))))
    return op->types == OPT_B
               ? "expects bool inputs"
               : graph_fmt(gr, "%s is not defined on %s", op->name, wc_dtype_name(fn->t));
  op->read_attrs(gr, n, &fn->at);
  if (gr->opset > 0 && gr->opset < 7 && op_attr_find(op, "broadcast", 9) && op->in_kind[1] == 'T') {
    const char *why = legacy_broadcast(gr, ni);
    if (why) return why;
  }
  op_ctx      c = {gr, ni, fn, fn->t};
  const char *why = op->check(&c);
  if (why) return why;
  for (int o = 1; o < n->n_outputs; o++) { /* a kernel computes one output */
    int v = n->outputs[o][0] ? graph_find(gr, n->outputs[o]) : -1;
    if (v >= 0 && (gr->vals[v].n_uses > 0 || gr->vals[v].is_output || gr->vals[v].captured_by >= 0))
      return "expected exactly one output";
  }
  fn->reads = graph_alloc(gr, (size_t)nin, sizeof *fn->reads);
  return count_reads(gr, i, fn);
}

bool fusion_reads(const fusion *f, int i, int k) {
  const fusion_node *fn = &f->nodes[i];
  return fn->reads && !fn->reason && fn->reads[k] > 0;
}

/* Times the expression of node i names its input slot k; once for a node outside every
   region (an unknown operator), which stops the join anyway. */
static int copies_of(const graph_node *ni, const fusion_node *fn, int k) {
  if (!ni->op || !fn->reads) return 1;
  return fn->reads[k];
}

/* Does a node downstream of node `from` (from included) sit in region r? Then r reading
   from's inputs through an output of its own would make a cycle of kernels. seen: a
   stamp per node, *stamp bumped per question. */
static bool reaches(const fusion *f, const import_graph *gr, int from, int r, int *seen, int *stamp,
                    int *stack) {
  int top = 0;
  ++*stamp;
  stack[top++] = from;
  seen[from] = *stamp;
  while (top > 0) {
    int x = stack[--top];
    if (f->nodes[x].region == r) return true;
    const onnx_node *n = gr->nodes[x].n;
    for (int o = 0; o < n->n_outputs; o++) {
      int v = n->outputs[o][0] ? graph_find(gr, n->outputs[o]) : -1;
      for (int u = 0; v >= 0 && u < gr->n_users[v]; u++) {
        int c = gr->users[v][u];
        if (seen[c] != *stamp) {
          seen[c] = *stamp;
          stack[top++] = c;
        }
      }
      if (v >= 0 && gr->vals[v].captured_by >= 0 && seen[gr->vals[v].captured_by] != *stamp) {
        seen[gr->vals[v].captured_by] = *stamp;
        stack[top++] = gr->vals[v].captured_by;
      }
    }
  }
  return false;
}

/* Can node i's value be an output of region r besides its root's, read there and outside:
   a body (no nonzero), room for one more output, the root's shape (every output has the
   kernel's), and no reader outside r from which r is reached. */
static bool extra_output_ok(const fusion *f, const import_graph *gr, int i, int r, int *seen,
                            int *stamp, int *stack) {
  const graph_node  *root = &gr->nodes[f->regions[r].root];
  const graph_value *v = &gr->vals[gr->nodes[i].out], *rv = &gr->vals[root->out];
  if (graph_is(root, OP_NonZero) || f->regions[r].n_extra >= IMPORT_MAX_EXTRA_OUTPUTS) return false;
  if (!v->shaped || !rv->shaped || v->shape.rank != rv->shape.rank) return false;
  for (int d = 0; d < v->shape.rank; d++)
    if (graph_dim(gr, v->shape.dims[d]) != graph_dim(gr, rv->shape.dims[d])) return false;
  for (int u = 0; u < gr->n_users[gr->nodes[i].out]; u++) {
    int c = gr->users[gr->nodes[i].out][u];
    if (f->nodes[c].region != r && reaches(f, gr, c, r, seen, stamp, stack)) return false;
  }
  return v->captured_by < 0 || !reaches(f, gr, v->captured_by, r, seen, stamp, stack);
}

/* ---- row reductions ----
   A kernel reduces rows of its output's last axis (row_sum, ...: the checks took only
   nodes reducing their input's last axis). So a node that reduces joins a region only
   when its input runs along the whole of the root's last axis (a Softmax of a value
   broadcast along it would sum copies), and a Reduce*, whose output lacks the axis
   (keepdims: extent 1), is never a root: its value is read inside a kernel or not taken. */
static bool reduces_rows(const graph_node *ni) {
  return ni->op && (ni->op->check == check_softmax || ni->op->check == check_norm ||
                    ni->op->check == check_reduce_last);
}

static bool row_of_root(const fusion *f, const import_graph *gr, int i, int r) {
  const graph_value *x = &gr->vals[gr->nodes[i].in[0]];
  const graph_value *rv = &gr->vals[gr->nodes[f->regions[r].root].out];
  if (!x->shaped || !rv->shaped || x->shape.rank == 0 || rv->shape.rank == 0) return false;
  return graph_dim(gr, x->shape.dims[x->shape.rank - 1]) ==
         graph_dim(gr, rv->shape.dims[rv->shape.rank - 1]);
}

void fusion_form(fusion *f, const import_graph *gr) {
  int  n = gr->g->n_nodes, stamp = 0;
  int *seen = graph_alloc(gr, (size_t)n, sizeof *seen),
      *stack = graph_alloc(gr, (size_t)n, sizeof *stack);
  f->nodes = graph_alloc(gr, (size_t)n, sizeof *f->nodes);
  f->regions = graph_alloc(gr, (size_t)n, sizeof *f->regions);
  f->n_regions = 0;
  for (int i = 0; i < n; i++) f->nodes[i].region = -1;
  for (int k = n - 1; k >= 0; k--) {
    int               i = gr->order[k];
    const graph_node *ni = &gr->nodes[i];
    fusion_node      *fn = &f->nodes[i];
    fn->reason = check_node(gr, i, fn);
    if (fn->reason || graph_is(ni, OP_Constant) || ni->folded) continue;
    const graph_value *out = &gr->vals[ni->out];
    /* the region of its first reader in a kernel, the reads there (a node reading the value
       twice is listed twice: each slot counts once), and whether anything else reads it:
       another region, an operator no kernel takes, a sub-graph, the graph's outputs */
    int  region = -1, depth = 0, copies = 0, readers = 0;
    bool outside = out->is_output || out->captured_by >= 0;
    for (int u = 0; u < gr->n_users[ni->out]; u++) {
      int                c = gr->users[ni->out][u];
      const graph_node  *cn = &gr->nodes[c];
      const fusion_node *cf = &f->nodes[c];
      if (u > 0 && gr->users[ni->out][u - 1] == c) continue;
      if (cf->region < 0 || (region >= 0 && cf->region != region)) {
        outside = true;
        continue;
      }
      region = cf->region;
      readers++;
      for (int s = 0; s < cn->n->n_inputs; s++) {
        if (cn->in[s] != ni->out) continue;
        if (cf->depth + 1 > depth) depth = cf->depth + 1;
        copies += cf->copies * copies_of(cn, cf, s);
      }
    }
    bool join = region >= 0 && !graph_is(ni, OP_NonZero);
    if (join && reduces_rows(ni) &&
        (graph_is(&gr->nodes[f->regions[region].root], OP_NonZero) || !row_of_root(f, gr, i, region)))
      join = false;
    if (join && (readers > 1 || outside) &&
        graph_is(&gr->nodes[f->regions[region].root], OP_NonZero))
      join = false;        /* nonzero's kernel is one expression: no body, no let */
    if (join && outside) { /* read in the region and elsewhere: one more output of it */
      if (copies > 0 && extra_output_ok(f, gr, i, region, seen, &stamp, stack)) {
        fn->region = region;
        fn->let = fn->output = true;
        fn->depth = 0;
        fn->copies = 1;
        f->regions[region].n_extra++;
        continue;
      }
      join = false;
    }
    if (join && readers > 1 && copies > 0) { /* a let: named once, nests anew */
      fn->region = region;
      fn->let = true;
      fn->depth = 0;
      fn->copies = 1;
    } else if (join && depth <= IMPORT_MAX_DEPTH && copies <= IMPORT_MAX_COPIES) {
      fn->region = region;
      fn->depth = depth;
      fn->copies = copies;
    } else if (reduces_rows(ni) && ni->op->check == check_reduce_last) {
      fn->reason = "a reduction whose value no kernel with its row reads (its output lacks the "
                   "row: it is read outside, or beside a value broadcast along the row)";
    } else {
      region = f->n_regions++;
      memset(&f->regions[region], 0, sizeof f->regions[region]);
      f->regions[region].root = i;
      fn->region = region;
      fn->depth = 0;
      fn->copies = 1;
    }
  }
}

bool fusion_whole_graph(const fusion *f, const import_graph *gr, int r) {
  if (f->n_regions != 1) return false;
  for (int i = 0; i < gr->g->n_nodes; i++) {
    const graph_node *ni = &gr->nodes[i];
    if (f->nodes[i].region == r) continue;
    if ((!graph_is(ni, OP_Constant) && !ni->folded) || ni->out < 0) return false;
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
  if (ni->folded) return NULL; /* listed as folded */
  if (graph_is(ni, OP_Constant)) {
    for (int u = 0; ni->out >= 0 && u < gr->n_users[ni->out]; u++) {
      int reg = f->nodes[gr->users[ni->out][u]].region;
      if (reg >= 0 && !f->regions[reg].reason) return NULL;
    }
    return "no kernel reads it";
  }
  const fusion_region *rg = &f->regions[fn->region];
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
    else if (gr->nodes[i].folded)
      fprintf(log, "wherec: folded: %s: its value is a constant, computed at import\n",
              graph_node_label(gr, i));
  }
}

void fusion_report_kernel(const fusion *f, const import_graph *gr, int r, FILE *log) {
  int root = f->regions[r].root;
  fprintf(log, "wherec: kernel %s: %s", f->regions[r].name, graph_node_label(gr, root));
  for (int k = gr->g->n_nodes - 1; k >= 0; k--) {
    int i = gr->order[k];
    if (i != root && f->nodes[i].region == r && !graph_is(&gr->nodes[i], OP_Constant))
      fprintf(log, ", %s", graph_node_label(gr, i));
  }
  fputc('\n', log);
  int reader = gr->vals[gr->nodes[root].out].captured_by;
  if (reader >= 0)
    fprintf(log, "wherec: note: %s ends kernel %s: its value is read inside a sub-graph of %s\n",
            graph_node_label(gr, root), f->regions[r].name, graph_node_label(gr, reader));
  for (int k = gr->g->n_nodes - 1; k >= 0; k--) { /* its other outputs, and who reads them */
    int i = gr->order[k];
    if (f->nodes[i].region != r || !f->nodes[i].output) continue;
    const graph_value *v = &gr->vals[gr->nodes[i].out];
    const char        *why = v->is_output ? "it is a graph output" : NULL;
    for (int u = 0; !why && u < gr->n_users[gr->nodes[i].out]; u++) {
      int c = gr->users[gr->nodes[i].out][u];
      if (f->nodes[c].region != r) why = graph_fmt(gr, "%s reads it", graph_node_label(gr, c));
    }
    if (!why && v->captured_by >= 0)
      why = graph_fmt(gr, "it is read inside a sub-graph of %s",
                      graph_node_label(gr, v->captured_by));
    fprintf(log, "wherec: note: kernel %s writes the value of %s too: %s\n", f->regions[r].name,
            graph_node_label(gr, i), why ? why : "it is read outside the kernel");
  }
}

void fusion_free(fusion *f) {
  for (int r = 0; r < f->n_regions; r++) {
    diag_text_free(&f->regions[r].text);
    diag_text_free(&f->regions[r].manifest);
  }
  f->n_regions = 0;
}
