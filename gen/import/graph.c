/* graph.c: the ONNX graph for wherec import: values by name (initializers, inputs, node
   outputs), their dtypes and static or symbolic shapes, consumers, order and sub-graph reads. */
#define _POSIX_C_SOURCE 200809L

#include "import/graph.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "front/sema.h"

const char *graph_fmt(const import_graph *gr, const char *f, ...) {
  va_list ap;
  char    buf[1024];
  va_start(ap, f);
  vsnprintf(buf, sizeof buf, f, ap);
  va_end(ap);
  return arena_strdup(gr->a, buf);
}

void *graph_alloc(const import_graph *gr, size_t n, size_t size) {
  return arena_array(gr->a, n ? n : 1, size);
}

/* ---- names ------------------------------------------------------------------------ */

static uint64_t name_hash(const char *s) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (; *s; s++) h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
  return h;
}

int graph_find(const import_graph *gr, const char *name) {
  for (uint64_t i = name_hash(name);; i++) {
    int v = gr->hash[i & (uint64_t)(gr->hash_cap - 1)];
    if (v < 0) return -1;
    if (strcmp(gr->vals[v].name, name) == 0) return v;
  }
}

static int add_value(import_graph *gr, const char *name) {
  int v = gr->n_vals++;
  memset(&gr->vals[v], 0, sizeof gr->vals[v]);
  gr->vals[v].name = name;
  gr->vals[v].producer = -1;
  gr->vals[v].input = -1;
  gr->vals[v].captured_by = -1;
  for (uint64_t i = name_hash(name);; i++) {
    int *slot = &gr->hash[i & (uint64_t)(gr->hash_cap - 1)];
    if (*slot < 0) {
      *slot = v;
      break;
    }
  }
  return v;
}

const char *graph_node_label(const import_graph *gr, int n) {
  const onnx_node *o = gr->nodes[n].n;
  if (o->name[0]) return graph_fmt(gr, "%s '%.200s'", o->op_type, o->name);
  if (o->n_outputs > 0) return graph_fmt(gr, "%s (output '%.200s')", o->op_type, o->outputs[0]);
  return graph_fmt(gr, "%s", o->op_type);
}

const char *graph_dtype_label(const import_graph *gr, int32_t elem) {
  static const char *const more[] = {
      "float8e4m3fn", "float8e4m3fnuz", "float8e5m2", "float8e5m2fnuz", "uint4",      "int4",
      "float4e2m1",   "float8e8m0",     "uint2",      "int2",           "float6e2m3", "float6e3m2"};
  if (elem >= 1 && elem <= 16 && wc_dtype_name((wc_dtype)elem))
    return wc_dtype_name((wc_dtype)elem);
  if (elem >= 17 && elem < 17 + (int32_t)(sizeof more / sizeof *more)) return more[elem - 17];
  return graph_fmt(gr, "data type %d", elem);
}

const onnx_attr *graph_attr(const onnx_node *n, const char *name) {
  for (int i = 0; i < n->n_attrs; i++)
    if (strcmp(n->attrs[i].name, name) == 0) return &n->attrs[i];
  return NULL;
}

/* ---- values: dtypes and shapes ------------------------------------------------------ */

int graph_intern_sym(import_graph *gr, const char *name) {
  for (int i = 0; i < gr->n_syms; i++) /* a made-up extent is no dim_param, whatever its name */
    if (gr->sym_named[i] && strcmp(gr->syms[i], name) == 0) return i;
  int s = graph_new_sym(gr, name);
  gr->sym_named[s] = true;
  return s;
}

int graph_new_sym(import_graph *gr, const char *name) {
  if (name == NULL) name = graph_fmt(gr, "unk__%d", gr->n_syms);
  size_t n = (size_t)gr->n_syms;
  if (n == 0 || (n >= 16 && (n & (n - 1)) == 0)) { /* capacity 16, then doubling */
    size_t       cap = n ? 2 * n : 16;
    const char **ns = graph_alloc(gr, cap, sizeof *ns);
    int         *np = graph_alloc(gr, cap, sizeof *np);
    int64_t     *nv = graph_alloc(gr, cap, sizeof *nv);
    bool        *nn = graph_alloc(gr, cap, sizeof *nn);
    char        *no = graph_alloc(gr, cap, sizeof *no);
    int64_t     *na = graph_alloc(gr, cap, sizeof *na), *nb = graph_alloc(gr, cap, sizeof *nb);
    if (n) {
      memcpy(ns, gr->syms, sizeof *ns * n);
      memcpy(np, gr->sym_parent, sizeof *np * n);
      memcpy(nv, gr->sym_value, sizeof *nv * n);
      memcpy(nn, gr->sym_named, sizeof *nn * n);
      memcpy(no, gr->sym_op, sizeof *no * n);
      memcpy(na, gr->sym_a, sizeof *na * n);
      memcpy(nb, gr->sym_b, sizeof *nb * n);
    }
    gr->syms = ns;
    gr->sym_parent = np;
    gr->sym_value = nv;
    gr->sym_named = nn;
    gr->sym_op = no;
    gr->sym_a = na;
    gr->sym_b = nb;
  }
  gr->syms[gr->n_syms] = name;
  gr->sym_named[gr->n_syms] = false;
  gr->sym_op[gr->n_syms] = 0;
  gr->sym_parent[gr->n_syms] = gr->n_syms;
  gr->sym_value[gr->n_syms] = -1;
  return gr->n_syms++;
}

/* A value's dtype and static shape from a ValueInfoProto, where it gives them. */
static void apply_info(import_graph *gr, graph_value *v, const onnx_value_info *vi) {
  if (!vi->is_tensor) return;
  if (v->elem == 0 && vi->elem_type) {
    v->elem = vi->elem_type;
    v->dtype = vi->elem_type >= 1 && vi->elem_type <= 16 ? (wc_dtype)vi->elem_type : (wc_dtype)0;
  }
  if (v->shaped || !vi->has_shape || vi->rank > WC_MAX_RANK) return;
  ast_shape s = {vi->rank, {0}};
  for (int d = 0; d < vi->rank; d++) {
    if (vi->dims[d].param && vi->dims[d].param[0] && strcmp(vi->dims[d].param, "?") != 0)
      s.dims[d] = WC_SYM(graph_intern_sym(gr, vi->dims[d].param)); /* "?": unnamed */
    else if (vi->dims[d].value >= 0) s.dims[d] = vi->dims[d].value;
    else /* an unnamed extent: a symbol of its own */ s.dims[d] = WC_SYM(graph_new_sym(gr, NULL));
  }
  v->shape = s;
  v->shaped = true;
}

static void apply_tensor(graph_value *v, const onnx_tensor *t) {
  v->constant = t;
  v->elem = t->data_type;
  v->dtype = t->data_type >= 1 && t->data_type <= 16 ? (wc_dtype)t->data_type : (wc_dtype)0;
  if (t->rank > WC_MAX_RANK) return;
  for (int d = 0; d < t->rank; d++)
    if (t->dims[d] < 0) return;
  v->shape.rank = t->rank;
  for (int d = 0; d < t->rank; d++) v->shape.dims[d] = t->dims[d];
  v->shaped = true;
}

static bool malformed(import_graph *gr, const char *f, ...) DIAG_PRINTF(2, 3);
static bool malformed(import_graph *gr, const char *f, ...) {
  va_list ap;
  fputs("wherec: error: malformed model: ", gr->log);
  if (gr->outer) fprintf(gr->log, "in sub-graph '%s': ", gr->g->name);
  va_start(ap, f);
  vfprintf(gr->log, f, ap);
  va_end(ap);
  fputc('\n', gr->log);
  return false;
}

/* A value of the scopes around a sub-graph (gr->outer, outwards) that the sub-graph reads:
   a value of gr with the outer one's dtype, shape and constant (a kernel's parameter or
   literal, like a graph input), or -1 when no scope defines name. */
static int outer_value(import_graph *gr, const char *name) {
  for (const import_graph *o = gr->outer; o; o = o->outer) {
    int w = graph_find(o, name);
    if (w < 0) continue;
    const graph_value *ov = &o->vals[w];
    int                v = add_value(gr, name);
    graph_value       *nv = &gr->vals[v];
    nv->constant = ov->constant;
    nv->dtype = ov->dtype;
    nv->elem = ov->elem;
    nv->shaped = ov->shaped;
    nv->shape = ov->shape;
    for (int d = 0; nv->shaped && d < nv->shape.rank; d++) {
      int64_t e = graph_dim(o, ov->shape.dims[d]);
      nv->shape.dims[d] = e >= 0 ? e : WC_SYM(graph_intern_sym(gr, o->syms[-e - 1]));
    }
    return v;
  }
  return -1;
}

/* A negative dim_value (other than -1, which converters write for "unknown", and which
   reads as no value) is no extent. */
static bool check_dims(import_graph *gr, const onnx_value_info *vi, int n) {
  for (int i = 0; i < n; i++)
    for (int d = 0; vi[i].is_tensor && vi[i].has_shape && d < vi[i].rank; d++)
      if (vi[i].dims[d].value < -1 && !vi[i].dims[d].param)
        return malformed(gr, "value '%s' has dimension %d of extent %lld", vi[i].name, d,
                         (long long)vi[i].dims[d].value);
  return true;
}

/* Values of initializers, graph inputs and node outputs; uses and graph outputs;
   the nodes with their inputs resolved and their operator row. */
static bool build_values(import_graph *gr) {
  const onnx_graph *g = gr->g;
  if (!check_dims(gr, g->inputs, g->n_inputs) || !check_dims(gr, g->outputs, g->n_outputs) ||
      !check_dims(gr, g->value_info, g->n_value_info))
    return false;
  size_t n = (size_t)g->n_initializers + (size_t)g->n_inputs;
  for (int i = 0; i < g->n_nodes; i++) n += (size_t)g->nodes[i].n_outputs;
  if (gr->outer) { /* room for the outer values it reads */
    n += (size_t)g->n_outputs;
    for (int i = 0; i < g->n_nodes; i++) n += (size_t)g->nodes[i].n_inputs;
  }
  gr->vals = graph_alloc(gr, n, sizeof *gr->vals);
  for (gr->hash_cap = 16; (size_t)gr->hash_cap < 2 * n; gr->hash_cap *= 2) {}
  gr->hash = graph_alloc(gr, (size_t)gr->hash_cap, sizeof *gr->hash);
  for (int i = 0; i < gr->hash_cap; i++) gr->hash[i] = -1;

  for (int i = 0; i < g->n_initializers; i++) {
    const onnx_tensor *t = &g->initializers[i];
    if (graph_find(gr, t->name) >= 0)
      return malformed(gr, "initializer '%s' is given twice", t->name);
    apply_tensor(&gr->vals[add_value(gr, t->name)], t);
  }
  for (int i = 0; i < g->n_inputs; i++) {
    const onnx_value_info *vi = &g->inputs[i];
    int                    v = graph_find(gr, vi->name);
    if (v >= 0 && gr->vals[v].input >= 0)
      return malformed(gr, "graph input '%s' is listed twice", vi->name);
    if (v >= 0 && gr->m->ir_version < 4) continue; /* IR < 4 lists every initializer: a constant */
    if (v < 0) v = add_value(gr, vi->name);
    graph_value *val = &gr->vals[v];
    if (val->constant) { /* an overridable default: a runtime input */
      val->constant = NULL;
      val->shaped = false;
      val->elem = 0;
    }
    val->input = i;
    apply_info(gr, val, vi);
  }
  for (int i = 0; i < g->n_nodes; i++)
    for (int o = 0; o < g->nodes[i].n_outputs; o++) {
      const char *name = g->nodes[i].outputs[o];
      if (name[0] == '\0') continue;
      if (graph_find(gr, name) >= 0) return malformed(gr, "value '%s' is defined twice", name);
      gr->vals[add_value(gr, name)].producer = i;
    }
  for (int i = 0; i < g->n_value_info; i++) {
    int v = graph_find(gr, g->value_info[i].name);
    if (v >= 0 && !gr->vals[v].constant) apply_info(gr, &gr->vals[v], &g->value_info[i]);
  }
  for (int i = 0; i < g->n_outputs; i++) {
    int v = graph_find(gr, g->outputs[i].name);
    if (v < 0) v = outer_value(gr, g->outputs[i].name);
    if (v < 0) return malformed(gr, "graph output '%s' is never computed", g->outputs[i].name);
    gr->vals[v].is_output = true;
    if (!gr->vals[v].constant) apply_info(gr, &gr->vals[v], &g->outputs[i]);
  }
  gr->nodes = graph_alloc(gr, (size_t)g->n_nodes, sizeof *gr->nodes);
  for (int i = 0; i < g->n_nodes; i++) {
    graph_node *ni = &gr->nodes[i];
    ni->n = &g->nodes[i];
    ni->in = graph_alloc(gr, (size_t)ni->n->n_inputs, sizeof *ni->in);
    ni->out = ni->n->n_outputs > 0 && ni->n->outputs[0][0] ? graph_find(gr, ni->n->outputs[0]) : -1;
    for (int k = 0; k < ni->n->n_inputs; k++) {
      const char *name = ni->n->inputs[k];
      ni->in[k] = name[0] ? graph_find(gr, name) : -1;
      if (name[0] && ni->in[k] < 0) ni->in[k] = outer_value(gr, name);
      if (name[0] && ni->in[k] < 0)
        return malformed(gr, "node %s reads '%s', which nothing defines", graph_node_label(gr, i),
                         name);
      if (ni->in[k] >= 0) gr->vals[ni->in[k]].n_uses++;
    }
    ni->op = op_lookup(ni->n->domain, ni->n->op_type);
  }
  return true;
}

/* ---- sub-graphs: the outer values they read ------------------------------------- */

/* The names one sub-graph defines (its inputs, initializers and node outputs): inside
   it they hide the outer values of the same name. Chained to the enclosing sub-graph's. */
typedef struct scope {
  const char        **names; /* open addressing by name_hash; NULL: empty */
  size_t              cap;   /* a power of two, above the count of names */
  const struct scope *up;    /* the enclosing sub-graph's, NULL for the outermost */
} scope;

static void scope_add(scope *s, const char *name) {
  if (name[0] == '\0') return;
  for (uint64_t i = name_hash(name);; i++) {
    const char **slot = &s->names[i & (uint64_t)(s->cap - 1)];
    if (*slot == NULL) {
      *slot = name;
      return;
    }
    if (strcmp(*slot, name) == 0) return;
  }
}

/* Does s, or a sub-graph around it, define name? */
static bool scope_hides(const scope *s, const char *name) {
  for (; s; s = s->up)
    for (uint64_t i = name_hash(name);; i++) {
      const char *slot = s->names[i & (uint64_t)(s->cap - 1)];
      if (slot == NULL) break;
      if (strcmp(slot, name) == 0) return true;
    }
  return false;
}

/* The reads of outer values by sub-graphs, (value, node) pairs: the order must put the
   value's producer before the node, as an input's. */
typedef struct captures {
  int *val, *node;
  int  n, cap;
} captures;

/* A name read inside a sub-graph of node: an outer value unless a sub-graph defines it. */
static void capture(import_graph *gr, captures *c, const scope *s, const char *name, int node) {
  if (name[0] == '\0' || scope_hides(s, name)) return;
  int v = graph_find(gr, name);
  if (v < 0) return;
  if (gr->vals[v].captured_by < 0) gr->vals[v].captured_by = node;
  if (gr->vals[v].producer < 0 || gr->vals[v].producer == node) return; /* the latter: a cycle */
  if (c->n == c->cap) {
    int  cap = c->cap * 2 + 16;
    int *nv = graph_alloc(gr, (size_t)cap, sizeof *nv),
        *nn = graph_alloc(gr, (size_t)cap, sizeof *nn);
    if (c->n) {
      memcpy(nv, c->val, sizeof *nv * (size_t)c->n);
      memcpy(nn, c->node, sizeof *nn * (size_t)c->n);
    }
    c->val = nv;
    c->node = nn;
    c->cap = cap;
  }
  c->val[c->n] = v;
  c->node[c->n++] = node;
}

static void capture_attrs(import_graph *gr, captures *c, const onnx_node *n, const scope *up,
                          int node);

/* The outer values sub-graph g (of node) reads: its nodes' inputs and its outputs
   that neither g nor a sub-graph around it defines, in g and in its own sub-graphs.
   The reader bounds the nesting (ONNX_MAX_GRAPH_DEPTH), so the recursion is too. */
static void capture_graph(import_graph *gr, captures *c, const onnx_graph *g, const scope *up,
                          int node) {
  size_t n = (size_t)g->n_inputs + (size_t)g->n_initializers;
  for (int i = 0; i < g->n_nodes; i++) n += (size_t)g->nodes[i].n_outputs;
  scope s = {NULL, 1, up};
  while (s.cap < 2 * n) s.cap *= 2;
  s.names = graph_alloc(gr, s.cap, sizeof *s.names);
  for (int i = 0; i < g->n_inputs; i++) scope_add(&s, g->inputs[i].name);
  for (int i = 0; i < g->n_initializers; i++) scope_add(&s, g->initializers[i].name);
  for (int i = 0; i < g->n_nodes; i++)
    for (int o = 0; o < g->nodes[i].n_outputs; o++) scope_add(&s, g->nodes[i].outputs[o]);
  for (int i = 0; i < g->n_nodes; i++) {
    for (int k = 0; k < g->nodes[i].n_inputs; k++) capture(gr, c, &s, g->nodes[i].inputs[k], node);
    capture_attrs(gr, c, &g->nodes[i], &s, node);
  }
  for (int i = 0; i < g->n_outputs; i++) capture(gr, c, &s, g->outputs[i].name, node);
}

static void capture_attrs(import_graph *gr, captures *c, const onnx_node *n, const scope *up,
                          int node) {
  for (int a = 0; a < n->n_attrs; a++) {
    const onnx_attr *at = &n->attrs[a];
    if (at->has_g) capture_graph(gr, c, at->g, up, node);
    for (int k = 0; k < at->n_graphs; k++) capture_graph(gr, c, &at->graphs[k], up, node);
  }
}

/* Values read inside the sub-graphs of If, Loop, Scan (or any node with graph
   attributes) are needed as values: such a read names them, it is no input slot. Each
   read goes into *caps too. */
static void find_captures(import_graph *gr, captures *caps) {
  for (int i = 0; i < gr->g->n_nodes; i++) capture_attrs(gr, caps, &gr->g->nodes[i], NULL, i);
}

/* ---- order and consumers ------------------------------------------------------------ */

/* Kahn's algorithm: ONNX requires sorted nodes, but a reader should not trust that. A
   value a node's sub-graph reads orders as one of its inputs (caps). */
static bool topo_sort(import_graph *gr, const captures *caps) {
  int  n = gr->g->n_nodes, head = 0, tail = 0;
  int *pending = graph_alloc(gr, (size_t)n, sizeof *pending);
  gr->order = graph_alloc(gr, (size_t)n, sizeof *gr->order);
  int  *n_users = graph_alloc(gr, (size_t)gr->n_vals, sizeof *n_users);
  int **users = graph_alloc(gr, (size_t)gr->n_vals, sizeof *users);
  for (int i = 0; i < n; i++)
    for (int k = 0; k < gr->nodes[i].n->n_inputs; k++) {
      int v = gr->nodes[i].in[k];
      if (v >= 0) n_users[v]++;
      if (v >= 0 && gr->vals[v].producer >= 0) pending[i]++;
    }
  int *n_later = graph_alloc(gr, (size_t)gr->n_vals, sizeof *n_later);
  for (int k = 0; k < caps->n; k++) {
    pending[caps->node[k]]++;
    n_later[caps->val[k]]++;
  }
  int **later = graph_alloc(gr, (size_t)gr->n_vals, sizeof *later); /* capturing nodes */
  for (int v = 0; v < gr->n_vals; v++) {
    users[v] = graph_alloc(gr, (size_t)n_users[v], sizeof **users);
    later[v] = graph_alloc(gr, (size_t)n_later[v], sizeof **later);
    n_users[v] = 0;
    n_later[v] = 0;
  }
  for (int k = 0; k < caps->n; k++) later[caps->val[k]][n_later[caps->val[k]]++] = caps->node[k];
  for (int i = 0; i < n; i++) {
    for (int k = 0; k < gr->nodes[i].n->n_inputs; k++) {
      int v = gr->nodes[i].in[k];
      if (v >= 0) users[v][n_users[v]++] = i;
    }
    if (pending[i] == 0) gr->order[tail++] = i;
  }
  gr->n_users = n_users;
  gr->users = users;
  while (head < tail) {
    const onnx_node *o = gr->nodes[gr->order[head++]].n;
    for (int k = 0; k < o->n_outputs; k++) {
      int v = o->outputs[k][0] ? graph_find(gr, o->outputs[k]) : -1;
      for (int u = 0; v >= 0 && gr->vals[v].producer >= 0 && u < n_users[v]; u++)
        if (--pending[users[v][u]] == 0) gr->order[tail++] = users[v][u];
      for (int u = 0; v >= 0 && gr->vals[v].producer >= 0 && u < n_later[v]; u++)
        if (--pending[later[v][u]] == 0) gr->order[tail++] = later[v][u];
    }
  }
  if (tail != n) return malformed(gr, "the graph has a cycle");
  return true;
}

/* Fixes the dim_params dims name ("NAME=N") to their extents. */
static void bind_dims(import_graph *gr, const char *const *dims, int n_dims) {
  for (int k = 0; k < n_dims; k++) {
    const char *eq = strrchr(dims[k], '=');
    if (!eq) continue; /* the command line checked the form */
    char   *name = arena_strndup(gr->a, dims[k], (size_t)(eq - dims[k]));
    int64_t value = strtoll(eq + 1, NULL, 10);
    int     s = -1;
    for (int i = 0; i < gr->n_syms && s < 0; i++)
      if (gr->sym_named[i] && strcmp(gr->syms[i], name) == 0) s = i;
    if (s < 0) {
      fprintf(gr->log, "wherec: warning: --dim %s: the graph has no dim_param '%s'\n", dims[k],
              name);
      continue;
    }
    gr->sym_value[s] = value; /* no symbol is joined to another yet: s is its root */
  }
}

bool graph_build(import_graph *gr, arena *a, FILE *log, const onnx_model *m) {
  return graph_build_dims(gr, a, log, m, NULL, 0);
}

static bool build_body(import_graph *gr, arena *a, FILE *log, const onnx_model *m,
                       const onnx_graph *g, const import_graph *outer, const char *const *dims,
                       int n_dims);

bool graph_build_dims(import_graph *gr, arena *a, FILE *log, const onnx_model *m,
                      const char *const *dims, int n_dims) {
  return build_body(gr, a, log, m, &m->graph, NULL, dims, n_dims);
}

bool graph_build_body(import_graph *gr, arena *a, FILE *log, const onnx_model *m,
                      const onnx_graph *g, const import_graph *outer) {
  return build_body(gr, a, log, m, g, outer, NULL, 0);
}

static bool build_body(import_graph *gr, arena *a, FILE *log, const onnx_model *m,
                       const onnx_graph *g, const import_graph *outer, const char *const *dims,
                       int n_dims) {
  memset(gr, 0, sizeof *gr);
  gr->a = a;
  gr->log = log;
  gr->m = m;
  gr->g = g;
  gr->outer = outer;
  gr->opset = onnx_opset_version(m);
  captures caps = {NULL, NULL, 0, 0};
  if (!build_values(gr)) return false;
  bind_dims(gr, dims, n_dims);
  find_captures(gr, &caps);
  if (!topo_sort(gr, &caps)) return false;
  graph_infer(gr);
  return true;
}

/* ---- values ----------------------------------------------------------------------- */

bool graph_floating(wc_dtype t) {
  ast_dtype_class c = ast_dtype_class_of(t);
  return c == AST_CLASS_REAL || c == AST_CLASS_HALF;
}

bool graph_same_shape(const ast_shape *a, const ast_shape *b) {
  if (a->rank != b->rank) return false;
  for (int d = 0; d < a->rank; d++)
    if (a->dims[d] != b->dims[d]) return false;
  return true;
}

bool graph_broadcasts_to(const graph_value *a, const graph_value *b) {
  ast_shape out;
  if (!a->shaped || !b->shaped) return true;
  return sema_broadcast(&a->shape, &b->shape, &out) && graph_same_shape(&out, &a->shape);
}

bool graph_one_element(const graph_value *v) {
  for (int d = 0; v->shaped && d < v->shape.rank; d++)
    if (v->shape.dims[d] != 1) return false;
  return v->shaped;
}

bool graph_const_scalar(const graph_value *v, double *out) {
  uint64_t b[2];
  if (!v->constant || !graph_one_element(v) || !onnx_tensor_scalar(v->constant, b, NULL, 0))
    return false;
  unsigned bits = (unsigned)wc_dtype_size(v->dtype) * 8u;
  switch (ast_dtype_class_of(v->dtype)) {
  case AST_CLASS_BOOL: *out = b[0] != 0; return true;
  case AST_CLASS_UINT: *out = (double)b[0]; return true;
  case AST_CLASS_SINT: {
    uint64_t u = b[0];
    if (bits < 64 && (u >> (bits - 1)) & 1) u |= ~(uint64_t)0 << bits;
    *out = (double)(int64_t)u;
    return true;
  }
  case AST_CLASS_REAL:
  case AST_CLASS_HALF:
    if (v->dtype == WC_DOUBLE) memcpy(out, &b[0], 8);
    else
      *out = v->dtype == WC_FLOAT16    ? wc_f16_to_f32((wc_float16)b[0])
             : v->dtype == WC_BFLOAT16 ? wc_bf16_to_f32((wc_bfloat16)b[0])
                                       : wc_bits_to_f32((uint32_t)b[0]);
    return true;
  default: return false;
  }
}

bool graph_literal_activations(const import_graph *gr) {
  while (gr && gr->outer) gr = gr->outer;
  return gr && gr->literal_activations;
}
