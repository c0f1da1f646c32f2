/* import.c: ONNX graph -> regions (a Where, NonZero, Relu, LeakyRelu or Clip node and the
   element-wise producers only it consumes) -> one spec kernel each, checked by the front end. */
#define _POSIX_C_SOURCE 200809L

#include "import/import.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "base/args.h"
#include "front/ast.h"
#include "base/diag.h"
#include "base/file.h"
#include "back/lower.h"
#include "import/onnx.h"
#include "front/parse.h"
#include "front/sema.h"

#define IMPORT_MAX_NAME 64     /* identifiers made from ONNX names are cut to this */

/* The operators import knows: X(op_type, kind, spelling in the spec).
   Every other operator is not element-wise as far as wherec is concerned. */
#define IMPORT_OP_LIST(X)                                                           \
  X(Greater, CMP, ">") X(Less, CMP, "<") X(Equal, CMP, "==")                        \
  X(GreaterOrEqual, CMP, ">=") X(LessOrEqual, CMP, "<=")                            \
  X(Not, NOT, "!") X(And, LOGIC, "&&") X(Or, LOGIC, "||") X(Xor, XOR, "!=")         \
  X(Add, ARITH, "+") X(Sub, ARITH, "-") X(Mul, ARITH, "*") X(Div, ARITH, "/")       \
  X(Neg, NEG, "-") X(Abs, ABS, "abs") X(Min, MINMAX, "min") X(Max, MINMAX, "max")   \
  X(Relu, RELU, "") X(LeakyRelu, LEAKY, "") X(Clip, CLIP, "")                       \
  X(Cast, CAST, "") X(CastLike, CASTLIKE, "") X(Identity, IDENTITY, "")             \
  X(Where, WHERE, "where") X(NonZero, NONZERO, "nonzero") X(Constant, CONSTANT, "")

typedef enum op_kind {
  OP_NONE, OP_CMP, OP_NOT, OP_LOGIC, OP_XOR, OP_ARITH, OP_NEG, OP_ABS, OP_MINMAX,
  OP_RELU, OP_LEAKY, OP_CLIP, OP_CAST, OP_CASTLIKE, OP_IDENTITY, OP_WHERE, OP_NONZERO,
  OP_CONSTANT
} op_kind;

typedef struct op_row {
  const char *name;            /* ONNX op_type */
  op_kind     kind;
  const char *spell;           /* operator or function in the spec, "" if composite */
} op_row;

#define OP_ROW_(n, k, s) {#n, OP_##k, s},
static const op_row op_table[] = { IMPORT_OP_LIST(OP_ROW_) };
#undef OP_ROW_

/* A named value of the graph. */
typedef struct value {
  const char        *name;
  int                producer;   /* node index; -1 for graph inputs and initializers */
  int                input;      /* graph input index (a runtime input), else -1 */
  const onnx_tensor *constant;   /* its fixed value (initializer, Constant), else NULL */
  wc_dtype           dtype;      /* 0 when unknown or not a wherec dtype */
  int32_t            elem;       /* the ONNX elem type as given, for messages */
  bool               shaped;     /* shape known statically */
  ast_shape          shape;      /* fixed extents, or WC_SYM(i) for dim_param i */
  int                n_uses;     /* node input slots that read it */
  bool               is_output;  /* a graph output */
  int                captured_by; /* a node whose sub-graph reads it by name, else -1 */
  int                mark;       /* traversal stamp */
  int                leaf;       /* index in the current kernel's leaves, -1 */
} value;

typedef struct node_info {
  const onnx_node *n;
  op_kind          kind;
  const op_row    *op;           /* NULL for unknown operators */
  int             *in;           /* value per input (-1: omitted optional input) */
  int              out;          /* value of output 0, -1 if none */
  const char      *reason;       /* why it cannot be fused, NULL when it can */
  int              region;       /* -1 when in none */
  int              depth;        /* operators between it and its region's root */
  int              copies;       /* times its value appears in the region's expression */
  float            alpha;        /* LeakyRelu */
  wc_dtype         cast_to;      /* Cast */
  bool             has_lo, has_hi;  /* Clip-6 attributes given */
  float            lo, hi;       /* Clip-6 attributes */
} node_info;

typedef struct region {
  int         root;              /* node index */
  bool        select;            /* holds a Where, NonZero, Relu, LeakyRelu or Clip */
  const char *reason;            /* why it is not taken, NULL when it is */
  const char *name;              /* kernel name */
  diag_text   text;              /* the kernel statement with its comment */
} region;

/* A node of a kernel's expression. */
typedef struct ex {
  enum { EX_PARAM, EX_LIT, EX_UNARY, EX_BINARY, EX_CALL } kind;
  wc_dtype    dtype;             /* dtype of the value */
  const char *text;              /* name, literal, operator or function */
  bool        typed;             /* EX_LIT: spelled T(lit), as no sibling types it */
  int         n;                 /* operands */
  struct ex  *arg[3];
} ex;

typedef struct imp {
  arena             a;           /* everything below; out of memory jumps to oom */
  jmp_buf           oom;
  FILE             *log;
  const onnx_model *m;
  const onnx_graph *g;
  int64_t           opset;
  value            *vals;
  int               n_vals;
  int              *hash;        /* open addressing over vals by name; -1 empty */
  int               hash_cap;
  node_info        *nodes;
  int              *order;       /* topological order */
  int              *n_users;     /* per value: nodes reading it (once per input slot) */
  int             **users;
  int               n_syms;
  const char      **syms;        /* dim_param names: symbol i */
  int               n_regions;
  region           *regions;
  int               stamp;       /* for value.mark */
  int               n_leaves;
  int              *leaves;      /* value ids of the current kernel's leaves */
  const char      **leaf_name;   /* parameter name, or NULL for a literal */
  const char      **leaf_lit;    /* literal spelling */
  wc_dtype         *leaf_dtype;
} imp;

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static const char *fmt(imp *im, const char *f, ...) {
  va_list ap;
  char buf[1024];
  va_start(ap, f);
  vsnprintf(buf, sizeof buf, f, ap);
  va_end(ap);
  return arena_strdup(&im->a, buf);
}

/* s fit for a `#` comment of the spec: a control byte (a newline in an ONNX
   name, say) would end the comment and the rest would be read as spec text. */
static const char *comment_text(imp *im, const char *s) {
  char *t = arena_strdup(&im->a, s ? s : "");
  for (char *p = t; *p; p++)
    if ((unsigned char)*p < 0x20 || *p == 0x7f) *p = '?';
  return t;
}

static void *alloc(imp *im, size_t n, size_t size) {
  return arena_array(&im->a, n ? n : 1, size);
}

/* ---- names ------------------------------------------------------------------------ */

static uint64_t name_hash(const char *s) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (; *s; s++) h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
  return h;
}

static int find_value(const imp *im, const char *name) {
  for (uint64_t i = name_hash(name);; i++) {
    int v = im->hash[i & (uint64_t)(im->hash_cap - 1)];
    if (v < 0) return -1;
    if (strcmp(im->vals[v].name, name) == 0) return v;
  }
}

static int add_value(imp *im, const char *name) {
  int v = im->n_vals++;
  memset(&im->vals[v], 0, sizeof im->vals[v]);
  im->vals[v].name = name;
  im->vals[v].producer = -1;
  im->vals[v].input = -1;
  im->vals[v].leaf = -1;
  im->vals[v].captured_by = -1;
  for (uint64_t i = name_hash(name);; i++) {
    int *slot = &im->hash[i & (uint64_t)(im->hash_cap - 1)];
    if (*slot < 0) { *slot = v; break; }
  }
  return v;
}

/* `Op 'name'`, or `Op (output 'x')` for a node without a name. */
static const char *node_label(imp *im, int n) {
  const onnx_node *o = im->nodes[n].n;
  if (o->name[0]) return fmt(im, "%s '%.200s'", o->op_type, o->name);
  if (o->n_outputs > 0) return fmt(im, "%s (output '%.200s')", o->op_type, o->outputs[0]);
  return fmt(im, "%s", o->op_type);
}

static bool is_reserved(const char *s) {
  static const char *const words[] = {"kernel", "option", "true", "false", "inf", "nan",
                                      "where", "where_v1", "argwhere", "nonzero", "min",
                                      "max", "abs", "i8", "i16", "i32", "i64", "u8", "u16",
                                      "u32", "u64", "f16", "bf16", "f32", "f64", "c64", "c128"};
  wc_dtype t;
  for (size_t i = 0; i < sizeof words / sizeof *words; i++)
    if (strcmp(s, words[i]) == 0) return true;
  return ast_dtype_lookup(s, &t);
}

/* An identifier from an ONNX name, different from every name in taken[0, n). */
static const char *ident(imp *im, const char *name, const char *const *taken, int n) {
  char base[IMPORT_MAX_NAME + 8], out[IMPORT_MAX_NAME + 24];
  size_t k = 0;
  if (!(name[0] == '_' || ((name[0] | 0x20) >= 'a' && (name[0] | 0x20) <= 'z'))) base[k++] = 'v';
  for (const char *p = name; *p && k < IMPORT_MAX_NAME; p++) {
    char c = *p;
    bool ok = c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    base[k++] = ok ? c : '_';
  }
  base[k] = '\0';
  if (is_reserved(base)) { base[k++] = '_'; base[k] = '\0'; }
  snprintf(out, sizeof out, "%s", base);
  for (int suffix = 2;; suffix++) {
    int i = 0;
    while (i < n && strcmp(taken[i], out) != 0) i++;
    if (i == n) break;
    snprintf(out, sizeof out, "%s_%d", base, suffix);
  }
  return arena_strdup(&im->a, out);
}

/* The name of an ONNX elem type, also of those wherec has no dtype for. */
static const char *dtype_label(imp *im, int32_t elem) {
  static const char *const more[] = {"float8e4m3fn", "float8e4m3fnuz", "float8e5m2",
                                     "float8e5m2fnuz", "uint4", "int4", "float4e2m1",
                                     "float8e8m0", "uint2", "int2", "float6e2m3", "float6e3m2"};
  if (elem >= 1 && elem <= 16 && wc_dtype_name((wc_dtype)elem)) return wc_dtype_name((wc_dtype)elem);
  if (elem >= 17 && elem < 17 + (int32_t)(sizeof more / sizeof *more)) return more[elem - 17];
  return fmt(im, "data type %d", elem);
}

/* Would the kernel name k clash with a symbol the generated C derives from
   another name (P_table, P_kernels, P_<k>_range, P_<k>_dims0, ...)? */
static bool clashes_in_c(const char *k) {
  static const char *const suffixes[] = {"_range", "_count", "_coords", "_invoke", "_params",
                                         "_program", "_out_dims", "_extents", "_dims"};
  size_t n = strlen(k), m = n;
  if (strcmp(k, "table") == 0 || strcmp(k, "kernels") == 0) return true;
  while (m > 0 && k[m - 1] >= '0' && k[m - 1] <= '9') m--;        /* _dims0, _dims12 */
  for (size_t i = 0; i < sizeof suffixes / sizeof *suffixes; i++) {
    size_t l = strlen(suffixes[i]);
    if (n >= l && memcmp(k + n - l, suffixes[i], l) == 0) return true;
    if (m < n && m >= l && memcmp(k + m - l, suffixes[i], l) == 0) return true;
  }
  return false;
}

/* A kernel name: an identifier that no generated symbol can clash with. */
static const char *kernel_ident(imp *im, const char *name, const char *const *taken, int n) {
  const char *k = ident(im, name, taken, n);
  return clashes_in_c(k) ? ident(im, fmt(im, "%s_k", k), taken, n) : k;
}

/* ---- the graph: values, shapes, dtypes ----------------------------------------- */

static int intern_sym(imp *im, const char *name) {
  for (int i = 0; i < im->n_syms; i++)
    if (strcmp(im->syms[i], name) == 0) return i;
  if (im->n_syms % 16 == 0) {
    const char **ns = alloc(im, (size_t)im->n_syms + 16, sizeof *ns);
    if (im->n_syms) memcpy(ns, im->syms, sizeof *ns * (size_t)im->n_syms);
    im->syms = ns;
  }
  im->syms[im->n_syms] = name;
  return im->n_syms++;
}

/* A value's dtype and static shape from a ValueInfoProto, where it gives them. */
static void apply_info(imp *im, value *v, const onnx_value_info *vi) {
  if (!vi->is_tensor) return;
  if (v->elem == 0 && vi->elem_type) {
    v->elem = vi->elem_type;
    v->dtype = vi->elem_type >= 1 && vi->elem_type <= 16 ? (wc_dtype)vi->elem_type : (wc_dtype)0;
  }
  if (v->shaped || !vi->has_shape || vi->rank > WC_MAX_RANK) return;
  ast_shape s = {vi->rank, {0}};
  for (int d = 0; d < vi->rank; d++) {
    if (vi->dims[d].param && vi->dims[d].param[0]) s.dims[d] = WC_SYM(intern_sym(im, vi->dims[d].param));
    else if (vi->dims[d].value >= 0) s.dims[d] = vi->dims[d].value;
    else return;                                     /* unknown extent: dynamic */
  }
  v->shape = s;
  v->shaped = true;
}

static void apply_tensor(value *v, const onnx_tensor *t) {
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

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static bool malformed(imp *im, const char *f, ...) {
  va_list ap;
  fputs("wherec: error: malformed model: ", im->log);
  va_start(ap, f);
  vfprintf(im->log, f, ap);
  va_end(ap);
  fputc('\n', im->log);
  return false;
}

/* Values of initializers, graph inputs and node outputs; uses and graph outputs. */
static bool build_values(imp *im) {
  const onnx_graph *g = im->g;
  size_t n = (size_t)g->n_initializers + (size_t)g->n_inputs;
  for (int i = 0; i < g->n_nodes; i++) n += (size_t)g->nodes[i].n_outputs;
  im->vals = alloc(im, n, sizeof *im->vals);
  for (im->hash_cap = 16; (size_t)im->hash_cap < 2 * n; im->hash_cap *= 2) {}
  im->hash = alloc(im, (size_t)im->hash_cap, sizeof *im->hash);
  for (int i = 0; i < im->hash_cap; i++) im->hash[i] = -1;

  for (int i = 0; i < g->n_initializers; i++) {
    const onnx_tensor *t = &g->initializers[i];
    if (find_value(im, t->name) >= 0) return malformed(im, "initializer '%s' is given twice", t->name);
    apply_tensor(&im->vals[add_value(im, t->name)], t);
  }
  for (int i = 0; i < g->n_inputs; i++) {
    const onnx_value_info *vi = &g->inputs[i];
    int v = find_value(im, vi->name);
    if (v >= 0 && im->vals[v].input >= 0) return malformed(im, "graph input '%s' is listed twice", vi->name);
    if (v >= 0 && im->m->ir_version < 4) continue;  /* IR < 4 lists every initializer: a constant */
    if (v < 0) v = add_value(im, vi->name);
    value *val = &im->vals[v];
    if (val->constant) {                              /* an overridable default: a runtime input */
      val->constant = NULL;
      val->shaped = false;
      val->elem = 0;
    }
    val->input = i;
    apply_info(im, val, vi);
  }
  for (int i = 0; i < g->n_nodes; i++)
    for (int o = 0; o < g->nodes[i].n_outputs; o++) {
      const char *name = g->nodes[i].outputs[o];
      if (name[0] == '\0') continue;
      if (find_value(im, name) >= 0) return malformed(im, "value '%s' is defined twice", name);
      im->vals[add_value(im, name)].producer = i;
    }
  for (int i = 0; i < g->n_value_info; i++) {
    int v = find_value(im, g->value_info[i].name);
    if (v >= 0 && !im->vals[v].constant) apply_info(im, &im->vals[v], &g->value_info[i]);
  }
  for (int i = 0; i < g->n_outputs; i++) {
    int v = find_value(im, g->outputs[i].name);
    if (v < 0) return malformed(im, "graph output '%s' is never computed", g->outputs[i].name);
    im->vals[v].is_output = true;
    if (!im->vals[v].constant) apply_info(im, &im->vals[v], &g->outputs[i]);
  }
  im->nodes = alloc(im, (size_t)g->n_nodes, sizeof *im->nodes);
  for (int i = 0; i < g->n_nodes; i++) {
    node_info *ni = &im->nodes[i];
    ni->n = &g->nodes[i];
    ni->region = -1;
    ni->in = alloc(im, (size_t)ni->n->n_inputs, sizeof *ni->in);
    ni->out = ni->n->n_outputs > 0 && ni->n->outputs[0][0] ? find_value(im, ni->n->outputs[0]) : -1;
    for (int k = 0; k < ni->n->n_inputs; k++) {
      const char *name = ni->n->inputs[k];
      ni->in[k] = name[0] ? find_value(im, name) : -1;
      if (name[0] && ni->in[k] < 0)
        return malformed(im, "node %s reads '%s', which nothing defines", node_label(im, i), name);
      if (ni->in[k] >= 0) im->vals[ni->in[k]].n_uses++;
    }
    if (ni->n->domain[0] == '\0' || strcmp(ni->n->domain, "ai.onnx") == 0)
      for (size_t k = 0; k < sizeof op_table / sizeof *op_table; k++)
        if (strcmp(op_table[k].name, ni->n->op_type) == 0) {
          ni->op = &op_table[k];
          ni->kind = op_table[k].kind;
        }
  }
  return true;
}

/* ---- sub-graphs: the outer values they read ------------------------------------- */

/* The names one sub-graph defines (its inputs, initializers and node outputs): inside
   it they hide the outer values of the same name. Chained to the enclosing sub-graph's. */
typedef struct scope {
  const char        **names;     /* open addressing by name_hash; NULL: empty */
  size_t              cap;       /* a power of two, above the count of names */
  const struct scope *up;        /* the enclosing sub-graph's, NULL for the outermost */
} scope;

static void scope_add(scope *s, const char *name) {
  if (name[0] == '\0') return;
  for (uint64_t i = name_hash(name);; i++) {
    const char **slot = &s->names[i & (uint64_t)(s->cap - 1)];
    if (*slot == NULL) { *slot = name; return; }
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

/* A name read inside a sub-graph of node: an outer value unless a sub-graph defines it. */
static void capture(imp *im, const scope *s, const char *name, int node) {
  if (name[0] == '\0' || scope_hides(s, name)) return;
  int v = find_value(im, name);
  if (v >= 0 && im->vals[v].captured_by < 0) im->vals[v].captured_by = node;
}

static void capture_attrs(imp *im, const onnx_node *n, const scope *up, int node);

/* The outer values sub-graph g (of node) reads: its nodes' inputs and its outputs
   that neither g nor a sub-graph around it defines, in g and in its own sub-graphs.
   The reader bounds the nesting (ONNX_MAX_GRAPH_DEPTH), so the recursion is too. */
static void capture_graph(imp *im, const onnx_graph *g, const scope *up, int node) {
  size_t n = (size_t)g->n_inputs + (size_t)g->n_initializers;
  for (int i = 0; i < g->n_nodes; i++) n += (size_t)g->nodes[i].n_outputs;
  scope s = {NULL, 1, up};
  while (s.cap < 2 * n) s.cap *= 2;
  s.names = alloc(im, s.cap, sizeof *s.names);
  for (int i = 0; i < g->n_inputs; i++) scope_add(&s, g->inputs[i].name);
  for (int i = 0; i < g->n_initializers; i++) scope_add(&s, g->initializers[i].name);
  for (int i = 0; i < g->n_nodes; i++)
    for (int o = 0; o < g->nodes[i].n_outputs; o++) scope_add(&s, g->nodes[i].outputs[o]);
  for (int i = 0; i < g->n_nodes; i++) {
    for (int k = 0; k < g->nodes[i].n_inputs; k++) capture(im, &s, g->nodes[i].inputs[k], node);
    capture_attrs(im, &g->nodes[i], &s, node);
  }
  for (int i = 0; i < g->n_outputs; i++) capture(im, &s, g->outputs[i].name, node);
}

static void capture_attrs(imp *im, const onnx_node *n, const scope *up, int node) {
  for (int a = 0; a < n->n_attrs; a++) {
    const onnx_attr *at = &n->attrs[a];
    if (at->has_g) capture_graph(im, at->g, up, node);
    for (int k = 0; k < at->n_graphs; k++) capture_graph(im, &at->graphs[k], up, node);
  }
}

/* Values read inside the sub-graphs of If, Loop, Scan (or any node with graph
   attributes) are needed as values: such a read names them, it is no input slot. */
static void find_captures(imp *im) {
  for (int i = 0; i < im->g->n_nodes; i++) capture_attrs(im, &im->g->nodes[i], NULL, i);
}

/* Kahn's algorithm: ONNX requires sorted nodes, but a reader should not trust that. */
static bool topo_sort(imp *im) {
  int n = im->g->n_nodes, head = 0, tail = 0;
  int *pending = alloc(im, (size_t)n, sizeof *pending);
  im->order = alloc(im, (size_t)n, sizeof *im->order);
  int *n_users = alloc(im, (size_t)im->n_vals, sizeof *n_users);
  int **users = alloc(im, (size_t)im->n_vals, sizeof *users);
  for (int i = 0; i < n; i++)
    for (int k = 0; k < im->nodes[i].n->n_inputs; k++) {
      int v = im->nodes[i].in[k];
      if (v >= 0) n_users[v]++;
      if (v >= 0 && im->vals[v].producer >= 0) pending[i]++;
    }
  for (int v = 0; v < im->n_vals; v++) {
    users[v] = alloc(im, (size_t)n_users[v], sizeof **users);
    n_users[v] = 0;
  }
  for (int i = 0; i < n; i++) {
    for (int k = 0; k < im->nodes[i].n->n_inputs; k++) {
      int v = im->nodes[i].in[k];
      if (v >= 0) users[v][n_users[v]++] = i;
    }
    if (pending[i] == 0) im->order[tail++] = i;
  }
  im->n_users = n_users;
  im->users = users;
  while (head < tail) {
    const onnx_node *o = im->nodes[im->order[head++]].n;
    for (int k = 0; k < o->n_outputs; k++) {
      int v = o->outputs[k][0] ? find_value(im, o->outputs[k]) : -1;
      for (int u = 0; v >= 0 && im->vals[v].producer >= 0 && u < n_users[v]; u++)
        if (--pending[users[v][u]] == 0) im->order[tail++] = users[v][u];
    }
  }
  if (tail != n) return malformed(im, "the graph has a cycle");
  return true;
}

static const onnx_attr *attr(const onnx_node *n, const char *name) {
  for (int i = 0; i < n->n_attrs; i++)
    if (strcmp(n->attrs[i].name, name) == 0) return &n->attrs[i];
  return NULL;
}

/* The value of a Constant node, as a tensor (value_float / value_int are scalars). */
static const onnx_tensor *constant_value(imp *im, const onnx_node *n) {
  const onnx_attr *at;
  if ((at = attr(n, "value")) && at->has_t) return at->t;
  onnx_tensor *t = alloc(im, 1, sizeof *t);
  uint8_t *raw = alloc(im, 8, 1);
  t->name = "";
  t->has_raw = true;
  t->raw.data = raw;
  if ((at = attr(n, "value_float")) && at->has_f) {
    t->data_type = WC_FLOAT;
    memcpy(raw, &at->f, 4);
    t->raw.len = 4;
    return t;
  }
  if ((at = attr(n, "value_int")) && at->has_i) {
    t->data_type = WC_INT64;
    memcpy(raw, &at->i, 8);
    t->raw.len = 8;
    return t;
  }
  return NULL;
}

/* Dtype and shape of the outputs of the operators import knows, where the
   model's value_info does not already give them. */
static void infer(imp *im) {
  for (int k = 0; k < im->g->n_nodes; k++) {
    int i = im->order[k];
    node_info *ni = &im->nodes[i];
    if (ni->out < 0 || ni->kind == OP_NONE) continue;
    value *o = &im->vals[ni->out];
    if (ni->kind == OP_CONSTANT) {
      const onnx_tensor *t = constant_value(im, ni->n);
      if (t) apply_tensor(o, t);
      continue;
    }
    wc_dtype t0 = ni->n->n_inputs > 0 && ni->in[0] >= 0 ? im->vals[ni->in[0]].dtype : (wc_dtype)0;
    wc_dtype dt = t0;
    if (ni->kind == OP_CMP || ni->kind == OP_NOT || ni->kind == OP_LOGIC || ni->kind == OP_XOR) dt = WC_BOOL;
    if (ni->kind == OP_WHERE) dt = ni->n->n_inputs > 1 && ni->in[1] >= 0 ? im->vals[ni->in[1]].dtype : 0;
    if (ni->kind == OP_NONZERO) dt = WC_INT64;
    if (ni->kind == OP_CAST) {
      const onnx_attr *to = attr(ni->n, "to");
      dt = to && to->has_i && to->i >= 1 && to->i <= 16 ? (wc_dtype)to->i : (wc_dtype)0;
    }
    if (ni->kind == OP_CASTLIKE) dt = ni->n->n_inputs > 1 && ni->in[1] >= 0 ? im->vals[ni->in[1]].dtype : 0;
    if (o->elem == 0 && dt) {
      o->dtype = dt;
      o->elem = (int32_t)dt;
    }
    if (o->shaped || ni->kind == OP_NONZERO) continue;
    /* Clip's bounds are scalars and CastLike's second input gives a dtype
       only: the shape is the first input's; the rest broadcast */
    int n_shape = ni->kind == OP_CLIP || ni->kind == OP_CASTLIKE ? 1 : ni->n->n_inputs;
    ast_shape s = {0, {0}};
    bool ok = n_shape > 0;
    for (int j = 0; j < n_shape && ok; j++) {
      int v = ni->in[j];
      ok = v >= 0 && im->vals[v].shaped && sema_broadcast(&s, &im->vals[v].shape, &s);
    }
    if (ok) {
      o->shape = s;
      o->shaped = true;
    }
  }
}

/* ---- which nodes can be fused ---------------------------------------------------- */

static bool numeric(wc_dtype t) {
  ast_dtype_class c = ast_dtype_class_of(t);
  return c == AST_CLASS_SINT || c == AST_CLASS_UINT || c == AST_CLASS_REAL || c == AST_CLASS_HALF;
}

/* Why node i cannot be part of a fused expression, or NULL if it can. */
static const char *check_node(imp *im, int i) {
  node_info *ni = &im->nodes[i];
  const onnx_node *n = ni->n;
  int nin = n->n_inputs;
  if (n->domain[0] && strcmp(n->domain, "ai.onnx") != 0)
    return fmt(im, "operator of domain '%.100s' is not supported", n->domain);
  if (ni->op == NULL) return "not element-wise";
  if (ni->kind == OP_CONSTANT) return NULL;
  if (n->n_outputs != 1 || ni->out < 0) return "expected exactly one output";
  for (int k = 0; k < n->n_attrs; k++)
    if (n->attrs[k].is_ref || n->attrs[k].has_g || n->attrs[k].n_graphs)
      return "attribute references or sub-graphs are not supported";
  /* every input present must have a dtype wherec knows */
  for (int k = 0; k < nin; k++) {
    if (ni->in[k] < 0) continue;
    const value *v = &im->vals[ni->in[k]];
    if (v->dtype == 0)
      return v->elem ? fmt(im, "input '%.200s' has %s, which wherec does not support", v->name,
                           dtype_label(im, v->elem))
                     : fmt(im, "input '%.200s' has an unknown dtype", v->name);
  }
  wc_dtype t0 = nin > 0 && ni->in[0] >= 0 ? im->vals[ni->in[0]].dtype : (wc_dtype)0;
  int want = ni->kind == OP_CMP || ni->kind == OP_LOGIC || ni->kind == OP_XOR ||
             ni->kind == OP_ARITH || ni->kind == OP_CASTLIKE ? 2
           : ni->kind == OP_WHERE ? 3 : ni->kind == OP_MINMAX || ni->kind == OP_CLIP ? -1 : 1;
  if (want > 0 && nin != want) return fmt(im, "expected %d inputs, got %d", want, nin);
  if (nin < 1 || ni->in[0] < 0) return "its first input is missing";
  if (ni->kind == OP_CLIP && nin > 3) return fmt(im, "expected at most 3 inputs, got %d", nin);
  for (int k = 1; k < nin; k++) {
    if (ni->in[k] < 0 && ni->kind != OP_CLIP) return "an input is missing";
    wc_dtype tk = ni->in[k] >= 0 ? im->vals[ni->in[k]].dtype : t0;
    bool same = (ni->kind != OP_WHERE || k == 2) && ni->kind != OP_CASTLIKE;
    if (same && tk != (ni->kind == OP_WHERE ? im->vals[ni->in[1]].dtype : t0))
      return "its inputs have different dtypes";
  }
  switch (ni->kind) {
  case OP_CMP:
    if (!numeric(t0) && !(strcmp(ni->op->spell, "==") == 0 &&
                          (t0 == WC_BOOL || t0 == WC_STRING)))
      return fmt(im, "'%s' is not defined on %s in wherec", ni->op->spell, wc_dtype_name(t0));
    return NULL;
  case OP_NOT: case OP_LOGIC: case OP_XOR:
    return t0 == WC_BOOL ? NULL : "expects bool inputs";
  case OP_ARITH: case OP_NEG: case OP_ABS: case OP_MINMAX: case OP_RELU:
    return numeric(t0) ? NULL : fmt(im, "not defined on %s in wherec", wc_dtype_name(t0));
  case OP_LEAKY: {
    const onnx_attr *a = attr(n, "alpha");
    ast_dtype_class c = ast_dtype_class_of(t0);
    if (c != AST_CLASS_REAL && c != AST_CLASS_HALF) return "expects a floating-point input";
    ni->alpha = a && a->has_f ? a->f : 0.01f;
    return NULL;
  }
  case OP_CLIP:
    if (!numeric(t0)) return fmt(im, "not defined on %s in wherec", wc_dtype_name(t0));
    if (im->opset > 0 && im->opset < 11) {        /* Clip-6: bounds are float attributes */
      const onnx_attr *lo = attr(n, "min"), *hi = attr(n, "max");
      if (t0 != WC_FLOAT) return "Clip before opset 11 is supported on float only";
      if (nin != 1) return "Clip before opset 11 takes one input";
      ni->has_lo = true;
      ni->has_hi = true;
      ni->lo = lo && lo->has_f ? lo->f : -3.40282347e+38f;
      ni->hi = hi && hi->has_f ? hi->f : 3.40282347e+38f;
      return NULL;
    }
    for (int k = 1; k < nin; k++) {
      const value *b = ni->in[k] >= 0 ? &im->vals[ni->in[k]] : NULL;
      if (b && (!b->shaped || b->shape.rank != 0)) {
        int64_t count = 1;
        for (int d = 0; b->shaped && d < b->shape.rank; d++) count *= b->shape.dims[d] == 1 ? 1 : 0;
        if (!(b->constant && count == 1))
          return fmt(im, "bound '%.200s' is not a scalar", b->name);
      }
    }
    return NULL;
  case OP_CAST:
  case OP_CASTLIKE: {
    const onnx_attr *to = attr(n, "to");
    int64_t code = ni->kind == OP_CASTLIKE ? (int64_t)im->vals[ni->in[1]].dtype : to && to->has_i ? to->i : -1;
    if (code < 0) return "no 'to' attribute";
    if (code < 1 || code > 16) return fmt(im, "casts to %s are not supported", dtype_label(im, (int32_t)code));
    ni->cast_to = (wc_dtype)code;
    if (ni->cast_to != t0 && !ast_cast_ok(t0, ni->cast_to))
      return fmt(im, "casts from %s to %s are not supported", wc_dtype_name(t0), wc_dtype_name(ni->cast_to));
    return NULL;
  }
  case OP_WHERE:
    return t0 == WC_BOOL ? NULL : "its condition is not bool";
  default:
    return NULL;
  }
}

/* Inputs that are operands of the expression (CastLike's second gives a dtype only). */
static int n_operands(const node_info *ni) {
  return ni->kind == OP_CASTLIKE ? 1 : ni->n->n_inputs;
}

/* Times the expression of op names its operand k (see emit_node). */
static int copies_of(const node_info *ni, int k) {
  if (k >= n_operands(ni)) return 0;
  switch (ni->kind) {
  case OP_RELU: return 2;
  case OP_LEAKY: return 3;
  case OP_CLIP: return 4;      /* x < lo ? (lo > hi ? hi : lo) : (x > hi ? hi : x) */
  default: return 1;
  }
}

static bool is_select(op_kind k) {
  return k == OP_WHERE || k == OP_NONZERO || k == OP_RELU || k == OP_LEAKY || k == OP_CLIP;
}

/* Regions, from the outputs backwards: a fusable node joins the region of its
   consumers when they all sit in one region (and it is no graph output and no
   sub-graph reads it), while the expression stays within IMPORT_MAX_DEPTH and
   IMPORT_MAX_COPIES. */
static void form_regions(imp *im) {
  int n = im->g->n_nodes;
  im->regions = alloc(im, (size_t)n, sizeof *im->regions);
  for (int k = n - 1; k >= 0; k--) {
    int i = im->order[k];
    node_info *ni = &im->nodes[i];
    ni->reason = check_node(im, i);
    if (ni->reason || ni->kind == OP_CONSTANT) continue;
    int region = -1, depth = 0, copies = 0;
    const value *out = &im->vals[ni->out];
    bool join = ni->kind != OP_NONZERO && !out->is_output && out->captured_by < 0 && out->n_uses > 0;
    /* a node reading the value twice is listed twice: count each slot once */
    for (int u = 0; u < im->n_users[ni->out] && join; u++) {
      int c = im->users[ni->out][u];
      const node_info *cn = &im->nodes[c];
      if (u > 0 && im->users[ni->out][u - 1] == c) continue;
      for (int s = 0; s < cn->n->n_inputs && join; s++) {
        if (cn->in[s] != ni->out) continue;
        if (cn->region < 0 || (region >= 0 && cn->region != region)) join = false;
        region = cn->region;
        if (cn->depth + 1 > depth) depth = cn->depth + 1;
        copies += cn->copies * copies_of(cn, s);
      }
    }
    if (join && depth <= IMPORT_MAX_DEPTH && copies <= IMPORT_MAX_COPIES) {
      ni->region = region;
      ni->depth = depth;
      ni->copies = copies;
    } else {
      region = im->n_regions++;
      memset(&im->regions[region], 0, sizeof im->regions[region]);
      im->regions[region].root = i;
      ni->region = region;
      ni->depth = 0;
      ni->copies = 1;
    }
    if (is_select(ni->kind)) im->regions[ni->region].select = true;
  }
}

/* ---- literals ----------------------------------------------------------------------- */

/* Adds ".0" to a float spelling that looks like an integer, for the reader. */
static void float_text(char *out, size_t cap, const char *s) {
  snprintf(out, cap, "%s%s", s, strpbrk(s, ".en") ? "" : ".0");
}

/* The spelling of a value of dtype t with the given bits, such that the
   spec's literal rules give back exactly those bits; false when there is
   none (complex, strings, NaNs other than the canonical quiet one). */
static bool literal_text(wc_dtype t, const uint64_t bits[2], char *out, size_t cap) {
  char tmp[64];
  unsigned nbits = ast_dtype_bits(t);
  switch (ast_dtype_class_of(t)) {
  case AST_CLASS_BOOL:
    snprintf(out, cap, "%s", bits[0] ? "true" : "false");
    return true;
  case AST_CLASS_SINT: {
    uint64_t u = bits[0];
    if (nbits < 64 && (u >> (nbits - 1)) & 1) u |= ~(uint64_t)0 << nbits;   /* sign-extend */
    snprintf(out, cap, "%lld", (long long)(int64_t)u);
    return true;
  }
  case AST_CLASS_UINT:
    snprintf(out, cap, "%llu", (unsigned long long)bits[0]);
    return true;
  case AST_CLASS_REAL:
  case AST_CLASS_HALF: {
    uint64_t sign = bits[0] >> (nbits - 1) & 1, qnan;
    double v;
    if (t == WC_DOUBLE) {
      memcpy(&v, &bits[0], 8);
      qnan = 0x7ff8000000000000ull;
    } else {
      uint32_t b32 = t == WC_FLOAT ? (uint32_t)bits[0] : 0;
      float f = t == WC_FLOAT16 ? wc_f16_to_f32((wc_float16)bits[0])
              : t == WC_BFLOAT16 ? wc_bf16_to_f32((wc_bfloat16)bits[0]) : wc_bits_to_f32(b32);
      v = f;
      qnan = t == WC_FLOAT ? 0x7fc00000u : t == WC_FLOAT16 ? 0x7e00u : 0x7fc0u;
    }
    if (isnan(v)) {
      if ((bits[0] & ~((uint64_t)1 << (nbits - 1))) != qnan) return false;
      snprintf(out, cap, "%snan", sign ? "-" : "");
      return true;
    }
    if (isinf(v)) {
      snprintf(out, cap, "%sinf", sign ? "-" : "");
      return true;
    }
    /* shortest of %.9g / %.17g that reads back to the same bits the way sema reads it */
    for (int digits = t == WC_DOUBLE ? 17 : 9; digits <= 17; digits += 8) {
      snprintf(tmp, sizeof tmp, "%.*g", digits, v);
      uint64_t back;
      if (t == WC_DOUBLE) {
        double d = strtod(tmp, NULL);
        memcpy(&back, &d, 8);
      } else {
        float f = strtof(tmp, NULL);
        back = t == WC_FLOAT16 ? wc_f32_to_f16(f) : t == WC_BFLOAT16 ? wc_f32_to_bf16(f)
                                                                    : wc_f32_to_bits(f);
      }
      if (back == bits[0]) {
        float_text(out, cap, tmp);
        return true;
      }
    }
    return false;
  }
  default:
    return false;
  }
}

/* a > b for two values of dtype t (false when either is NaN). */
static bool value_greater(wc_dtype t, const uint64_t a[2], const uint64_t b[2]) {
  unsigned n = ast_dtype_bits(t);
  switch (ast_dtype_class_of(t)) {
  case AST_CLASS_SINT: {
    int64_t x = (int64_t)(a[0] << (64 - n)) >> (64 - n), y = (int64_t)(b[0] << (64 - n)) >> (64 - n);
    return x > y;
  }
  case AST_CLASS_UINT: return a[0] > b[0];
  default: {
    double x, y;
    if (t == WC_DOUBLE) { memcpy(&x, &a[0], 8); memcpy(&y, &b[0], 8); }
    else if (t == WC_FLOAT16) { x = wc_f16_to_f32((wc_float16)a[0]); y = wc_f16_to_f32((wc_float16)b[0]); }
    else if (t == WC_BFLOAT16) { x = wc_bf16_to_f32((wc_bfloat16)a[0]); y = wc_bf16_to_f32((wc_bfloat16)b[0]); }
    else { x = wc_bits_to_f32((uint32_t)a[0]); y = wc_bits_to_f32((uint32_t)b[0]); }
    return x > y;
  }
  }
}

/* numeric_limits<T>::lowest() and max() of a float dtype, as bits. */
static void float_limits(wc_dtype t, uint64_t lo[2], uint64_t hi[2]) {
  lo[1] = hi[1] = 0;
  switch (t) {
  case WC_DOUBLE: lo[0] = 0xffefffffffffffffull; hi[0] = 0x7fefffffffffffffull; break;
  case WC_FLOAT16: lo[0] = 0xfbff; hi[0] = 0x7bff; break;
  case WC_BFLOAT16: lo[0] = 0xff7f; hi[0] = 0x7f7f; break;
  default: lo[0] = 0xff7fffff; hi[0] = 0x7f7fffff; break;
  }
}

/* ---- expressions ------------------------------------------------------------------- */

static ex *mk(imp *im, int kind, wc_dtype t, const char *text, int n, ex *a, ex *b, ex *c) {
  ex *e = alloc(im, 1, sizeof *e);
  e->kind = kind;
  e->dtype = t;
  e->text = text;
  e->n = n;
  e->arg[0] = a;
  e->arg[1] = b;
  e->arg[2] = c;
  return e;
}

static ex *lit(imp *im, wc_dtype t, const char *text) {
  ex *e = mk(im, EX_LIT, t, text, 0, NULL, NULL, NULL);
  e->typed = true;             /* until a sibling types it */
  return e;
}

/* A literal of dtype t from bits; NULL if it has no spelling. */
static ex *lit_bits(imp *im, wc_dtype t, const uint64_t bits[2]) {
  char text[80];
  return literal_text(t, bits, text, sizeof text) ? lit(im, t, arena_strdup(&im->a, text)) : NULL;
}

/* A literal operand needs no cast when another operand has a dtype. */
static void untype_siblings(ex *e, int first) {
  bool typed_other = false;
  for (int i = first; i < e->n; i++) typed_other |= e->arg[i]->kind != EX_LIT;
  if (!typed_other) return;
  for (int i = first; i < e->n; i++)
    if (e->arg[i]->kind == EX_LIT) e->arg[i]->typed = false;
}

static ex *bin(imp *im, const char *op, wc_dtype t, ex *a, ex *b) {
  ex *e = mk(im, EX_BINARY, t, op, 2, a, b, NULL);
  untype_siblings(e, 0);
  return e;
}

static ex *call(imp *im, const char *fn, wc_dtype t, int n, ex *a, ex *b, ex *c) {
  ex *e = mk(im, EX_CALL, t, fn, n, a, b, c);
  if (strcmp(fn, "where") == 0) untype_siblings(e, 1);
  else if (strcmp(fn, "min") == 0 || strcmp(fn, "max") == 0) untype_siblings(e, 0);
  return e;
}

static ex *sel(imp *im, ex *c, ex *x, ex *y) {
  return call(im, "where", x->dtype, 3, c, x, y);
}

static ex *build(imp *im, int region, int v);

/* The expression of node i (in region). The forms of Relu, LeakyRelu and Clip
   match onnxruntime bit for bit on -0.0 and NaN: the operand is returned as it
   is unless a comparison that NaN fails says otherwise. */
static ex *emit_node(imp *im, int region, int i) {
  node_info *ni = &im->nodes[i];
  const int *in = ni->in;
  int nin = ni->n->n_inputs;
  ex *x = build(im, region, in[0]);
  wc_dtype t = x->dtype;
  uint64_t zero[2] = {0, 0};
  switch (ni->kind) {
  case OP_CMP:
    return bin(im, ni->op->spell, WC_BOOL, x, build(im, region, in[1]));
  case OP_LOGIC:
  case OP_XOR:                 /* on bool, a != b is xor, and names each operand once */
    return bin(im, ni->op->spell, WC_BOOL, x, build(im, region, in[1]));
  case OP_ARITH:
    return bin(im, ni->op->spell, t, x, build(im, region, in[1]));
  case OP_NOT:
  case OP_NEG:
    return mk(im, EX_UNARY, t, ni->op->spell, 1, x, NULL, NULL);
  case OP_ABS:
    return call(im, "abs", t, 1, x, NULL, NULL);
  case OP_MINMAX:
    for (int k = 1; k < nin; k++) x = call(im, ni->op->spell, t, 2, x, build(im, region, in[k]), NULL);
    return x;
  case OP_RELU:                /* Relu(-0.0) = -0.0 and Relu(NaN) = NaN, as onnxruntime */
    return sel(im, bin(im, "<", WC_BOOL, x, lit_bits(im, t, zero)), lit_bits(im, t, zero),
               build(im, region, in[0]));
  case OP_LEAKY: {
    char a[80];
    uint64_t bits[2] = {0, 0};
    double d = ni->alpha;
    ex *scaled;
    if (t == WC_DOUBLE) {      /* the float attribute, widened exactly */
      memcpy(&bits[0], &d, 8);
      literal_text(WC_DOUBLE, bits, a, sizeof a);
      scaled = bin(im, "*", t, build(im, region, in[0]), lit(im, t, arena_strdup(&im->a, a)));
    } else {                   /* float; float16 / bfloat16 compute in float, as onnxruntime */
      bits[0] = wc_f32_to_bits(ni->alpha);
      literal_text(WC_FLOAT, bits, a, sizeof a);
      ex *xf = build(im, region, in[0]);
      if (t != WC_FLOAT) xf = call(im, "float", WC_FLOAT, 1, xf, NULL, NULL);
      scaled = bin(im, "*", WC_FLOAT, xf, lit(im, WC_FLOAT, arena_strdup(&im->a, a)));
      if (t != WC_FLOAT) scaled = call(im, wc_dtype_name(t), t, 1, scaled, NULL, NULL);
    }
    return sel(im, bin(im, "<", WC_BOOL, x, lit_bits(im, t, zero)), scaled, build(im, region, in[0]));
  }
  case OP_CLIP: {
    /* min(max(x, lo), hi) as onnxruntime computes it: x < lo ? lo : x, then
       > hi ? hi : that; absent float bounds are the dtype's lowest and max */
    ex *lo = NULL, *hi = NULL;
    uint64_t lb[2], hb[2];
    ast_dtype_class c = ast_dtype_class_of(t);
    float_limits(t, lb, hb);
    if (ni->has_lo) {          /* Clip-6 attributes */
      lb[0] = wc_f32_to_bits(ni->lo);
      hb[0] = wc_f32_to_bits(ni->hi);
    }
    if (nin > 1 && in[1] >= 0) lo = build(im, region, in[1]);
    else if (c == AST_CLASS_REAL || c == AST_CLASS_HALF) lo = lit_bits(im, t, lb);
    if (nin > 2 && in[2] >= 0) hi = build(im, region, in[2]);
    else if (c == AST_CLASS_REAL || c == AST_CLASS_HALF) hi = lit_bits(im, t, hb);
    if (lo == NULL && hi == NULL) return x;
    if (hi == NULL) return sel(im, bin(im, "<", WC_BOOL, x, lo), lo, build(im, region, in[0]));
    ex *upper = sel(im, bin(im, ">", WC_BOOL, build(im, region, in[0]), hi), hi,
                    build(im, region, in[0]));
    if (lo == NULL) return upper;
    ex *low = lo;
    if (lo->kind == EX_LIT && hi->kind == EX_LIT) {
      uint64_t lv[2] = {0, 0}, hv[2] = {0, 0};
      /* both fixed: decide lo > hi now (then everything below lo becomes hi) */
      if (nin > 1 && in[1] >= 0 && im->vals[in[1]].constant)
        onnx_tensor_scalar(im->vals[in[1]].constant, lv, NULL, 0);
      else
        memcpy(lv, lb, sizeof lv);
      if (nin > 2 && in[2] >= 0 && im->vals[in[2]].constant)
        onnx_tensor_scalar(im->vals[in[2]].constant, hv, NULL, 0);
      else
        memcpy(hv, hb, sizeof hv);
      if (value_greater(t, lv, hv)) low = lit(im, t, hi->text);
    } else {
      low = sel(im, bin(im, ">", WC_BOOL, lo, hi), hi, lo);
    }
    return sel(im, bin(im, "<", WC_BOOL, x, lo), low, upper);
  }
  case OP_CAST:
  case OP_CASTLIKE:
    return ni->cast_to == t ? x : call(im, wc_dtype_name(ni->cast_to), ni->cast_to, 1, x, NULL, NULL);
  case OP_IDENTITY:
    return x;
  case OP_WHERE:
    return sel(im, x, build(im, region, in[1]), build(im, region, in[2]));
  case OP_NONZERO:
    return call(im, "nonzero", WC_INT64, 1, x, NULL, NULL);
  default:
    return x;
  }
}

/* The expression for value v inside region: its producer's if that is in the
   region, else the leaf (parameter or literal). */
static ex *build(imp *im, int region, int v) {
  const value *val = &im->vals[v];
  if (val->producer >= 0 && im->nodes[val->producer].region == region &&
      im->nodes[val->producer].kind != OP_CONSTANT)
    return emit_node(im, region, val->producer);
  int l = val->leaf;
  if (im->leaf_name[l]) return mk(im, EX_PARAM, val->dtype, im->leaf_name[l], 0, NULL, NULL, NULL);
  return lit(im, im->leaf_dtype[l], im->leaf_lit[l]);
}

static void print_ex(diag_text *t, const ex *e, bool nested) {
  switch (e->kind) {
  case EX_PARAM:
    diag_text_printf(t, "%s", e->text);
    break;
  case EX_LIT:
    if (e->typed) diag_text_printf(t, "%s(%s)", wc_dtype_name(e->dtype), e->text);
    else if (e->text[0] == '-' && nested) diag_text_printf(t, "(%s)", e->text);
    else diag_text_printf(t, "%s", e->text);
    break;
  case EX_UNARY:
    diag_text_printf(t, "%s", e->text);
    print_ex(t, e->arg[0], true);
    break;
  case EX_BINARY:
    if (nested) diag_text_printf(t, "(");
    print_ex(t, e->arg[0], true);
    diag_text_printf(t, " %s ", e->text);
    print_ex(t, e->arg[1], true);
    if (nested) diag_text_printf(t, ")");
    break;
  case EX_CALL:
    diag_text_printf(t, "%s(", e->text);
    for (int i = 0; i < e->n; i++) {
      if (i) diag_text_printf(t, ", ");
      print_ex(t, e->arg[i], false);
    }
    diag_text_printf(t, ")");
    break;
  }
}

/* ---- kernels ------------------------------------------------------------------------ */

/* The leaves of region (values it reads but does not compute), first appearance order. */
static void collect_leaves(imp *im, int region, int v) {
  value *val = &im->vals[v];
  if (val->mark == im->stamp) return;
  val->mark = im->stamp;
  if (val->producer >= 0 && im->nodes[val->producer].region == region &&
      im->nodes[val->producer].kind != OP_CONSTANT) {
    const node_info *ni = &im->nodes[val->producer];
    for (int k = 0; k < n_operands(ni); k++)
      if (ni->in[k] >= 0) collect_leaves(im, region, ni->in[k]);
    return;
  }
  val->leaf = im->n_leaves;
  im->leaves[im->n_leaves++] = v;
}

/* Leaves in parameter order: graph inputs in graph order, then the rest in order of appearance. */
static void sort_leaves(imp *im) {
  for (int i = 1; i < im->n_leaves; i++) {          /* insertion sort: stable, few leaves */
    int v = im->leaves[i], j = i;
    int key = im->vals[v].input >= 0 ? im->vals[v].input : INT32_MAX;
    while (j > 0) {
      int u = im->leaves[j - 1];
      int ku = im->vals[u].input >= 0 ? im->vals[u].input : INT32_MAX;
      if (ku <= key) break;
      im->leaves[j] = u;
      j--;
    }
    im->leaves[j] = v;
  }
  for (int i = 0; i < im->n_leaves; i++) im->vals[im->leaves[i]].leaf = i;
}

static void print_shape(diag_text *t, const ast_shape *s, const char **ext_names) {
  diag_text_printf(t, "[");
  for (int d = 0; d < s->rank; d++) {
    if (d) diag_text_printf(t, ",");
    if (s->dims[d] >= 0) diag_text_printf(t, "%lld", (long long)s->dims[d]);
    else diag_text_printf(t, "%s", ext_names[-s->dims[d] - 1]);
  }
  diag_text_printf(t, "]");
}

/* Runs the front end on one kernel statement: the first error, or NULL. */
static const char *check_kernel(imp *im, const char *text, size_t len) {
  diag_ctx d;
  const char *why = NULL;
  diag_init(&d, "import", text, len, NULL);
  ast_file *af = parse_source(text, len, &d);
  sema_program *sp = af ? sema_check(af, &d) : NULL;
  ast_shape out;
  if (sp && d.n_errors == 0 && sp->n_kernels == 1 && !lower_out_shape(&sp->kernels[0], &out))
    why = "its inputs do not broadcast together";
  if (d.n_errors > 0) {
    const char *msg = diag_str(&d), *e = strstr(msg, "error: ");
    const char *start = e ? e + 7 : msg, *nl = strchr(start, '\n');
    why = fmt(im, "the generator rejects it: %.*s", (int)(nl ? nl - start : (ptrdiff_t)strlen(start)), start);
  }
  if (sp) sema_free(sp);
  if (af) ast_file_free(af);
  diag_free(&d);
  return why;
}

/* Does region r cover the whole graph (every node in it, or a Constant it reads)? */
static bool whole_graph(imp *im, int r) {
  if (im->n_regions != 1) return false;
  for (int i = 0; i < im->g->n_nodes; i++) {
    const node_info *ni = &im->nodes[i];
    if (ni->region == r) continue;
    if (ni->kind != OP_CONSTANT || ni->out < 0) return false;
    for (int u = 0; u < im->n_users[ni->out]; u++)
      if (im->nodes[im->users[ni->out][u]].region != r) return false;
  }
  return true;
}

/* Turns region r into a kernel statement, or sets its reason. */
static void make_kernel(imp *im, int r, const char **kernel_names, int n_kernels) {
  region *rg = &im->regions[r];
  const node_info *root = &im->nodes[rg->root];
  bool whole = whole_graph(im, r);
  im->stamp++;
  im->n_leaves = 0;
  /* the whole graph: its inputs in graph order, used or not */
  if (whole)
    for (int i = 0; i < im->g->n_inputs; i++) {
      int v = find_value(im, im->g->inputs[i].name);
      if (v >= 0 && im->vals[v].input >= 0 && im->vals[v].mark != im->stamp) {
        im->vals[v].mark = im->stamp;
        im->vals[v].leaf = im->n_leaves;
        im->leaves[im->n_leaves++] = v;
      }
    }
  collect_leaves(im, r, root->out);
  sort_leaves(im);

  /* literals: one-element constants whose rank the others' covers */
  int max_rank = 0;
  for (int l = 0; l < im->n_leaves; l++) {
    const value *v = &im->vals[im->leaves[l]];
    im->leaf_lit[l] = NULL;
    im->leaf_name[l] = NULL;
    im->leaf_dtype[l] = v->dtype;
    if (!v->shaped) {
      rg->reason = fmt(im, "input '%.200s' has a dynamic shape", v->name);
      return;
    }
    if (v->dtype == 0) {
      rg->reason = fmt(im, "input '%.200s' has an unknown dtype", v->name);
      return;
    }
    uint64_t bits[2];
    char text[80];
    if (v->constant && onnx_tensor_scalar(v->constant, bits, NULL, 0) &&
        literal_text(v->dtype, bits, text, sizeof text))
      im->leaf_lit[l] = arena_strdup(&im->a, text);
    else if (v->shape.rank > max_rank)
      max_rank = v->shape.rank;
  }
  int n_params = 0;
  const char **taken = alloc(im, (size_t)im->n_leaves + (size_t)im->n_syms + 1, sizeof *taken);
  for (int l = 0; l < im->n_leaves; l++) {
    const value *v = &im->vals[im->leaves[l]];
    if (im->leaf_lit[l] && v->shape.rank <= max_rank) continue;
    im->leaf_lit[l] = NULL;
    im->leaf_name[l] = ident(im, v->name, taken, n_params);
    taken[n_params++] = im->leaf_name[l];
    if (v->constant)
      fprintf(im->log, "wherec: note: %s reads the constant '%s'; it becomes parameter '%s'\n",
              node_label(im, rg->root), v->name, im->leaf_name[l]);
  }
  if (n_params == 0) {
    rg->reason = "all its inputs are constants";
    return;
  }
  /* symbolic extents: named after the dim_params, distinct from the parameters */
  const char **ext_names = alloc(im, (size_t)im->n_syms + 1, sizeof *ext_names);
  for (int s = 0; s < im->n_syms; s++) {
    ext_names[s] = ident(im, im->syms[s], taken, n_params + s);
    taken[n_params + s] = ext_names[s];
  }

  ex *e = emit_node(im, r, rg->root);
  const char *base = whole && im->g->name[0] ? im->g->name : im->vals[root->out].name;
  rg->name = kernel_ident(im, base, kernel_names, n_kernels);
  diag_text t = {0};
  diag_text_printf(&t, "kernel %s(", rg->name);
  for (int l = 0, k = 0; l < im->n_leaves; l++) {
    const value *v = &im->vals[im->leaves[l]];
    if (!im->leaf_name[l]) continue;
    diag_text_printf(&t, "%s%s: %s", k++ ? ", " : "", im->leaf_name[l], wc_dtype_name(v->dtype));
    print_shape(&t, &v->shape, ext_names);
  }
  diag_text_printf(&t, ") = ");
  print_ex(&t, e, false);
  diag_text_printf(&t, ";\n");
  if (t.truncated) longjmp(im->oom, 1);
  rg->reason = check_kernel(im, t.data, t.len);
  if (rg->reason) {
    diag_text_free(&t);
    return;
  }
  /* a comment naming the nodes it fuses, root first */
  diag_text_printf(&rg->text, "# %s = %s", comment_text(im, im->vals[root->out].name),
                   comment_text(im, node_label(im, rg->root)));
  for (int k = im->g->n_nodes - 1; k >= 0; k--) {
    int i = im->order[k];
    if (i != rg->root && im->nodes[i].region == r)
      diag_text_printf(&rg->text, ", %s", comment_text(im, node_label(im, i)));
  }
  diag_text_printf(&rg->text, "\n%s", t.data);
  diag_text_free(&t);
}

/* Lists on the log every node that no kernel takes, with the reason. */
static void report(imp *im) {
  for (int k = 0; k < im->g->n_nodes; k++) {
    int i = im->order[k];
    const node_info *ni = &im->nodes[i];
    const char *why = ni->reason;
    if (why == NULL && ni->kind == OP_CONSTANT) {
      bool used = false;
      for (int u = 0; ni->out >= 0 && u < im->n_users[ni->out]; u++) {
        int reg = im->nodes[im->users[ni->out][u]].region;
        if (reg >= 0 && im->regions[reg].select && !im->regions[reg].reason) used = true;
      }
      if (!used) why = "no kernel reads it";
    } else if (why == NULL) {
      const region *rg = &im->regions[ni->region];
      const char *root = node_label(im, rg->root);
      int reader = rg->root == i ? im->vals[ni->out].captured_by : -1;
      if (!rg->select && reader >= 0)
        why = fmt(im, "its value is read inside a sub-graph of %s, so it is not fused",
                  node_label(im, reader));
      else if (!rg->select)
        why = "element-wise, but no Where, NonZero, Relu, LeakyRelu or Clip to fuse it into";
      else if (rg->reason && rg->root == i)
        why = rg->reason;
      else if (rg->reason)
        why = fmt(im, "fused into %s, which is not taken: %s", root, rg->reason);
    }
    if (why) fprintf(im->log, "wherec: not taken: %s: %s\n", node_label(im, i), why);
  }
}

static int run_import(imp *im, const uint8_t *buf, size_t len, const char *model_name, char **spec) {
  char err[512];
  onnx_model *m = onnx_read_model(buf, len, err, sizeof err);
  if (m == NULL) {
    fprintf(im->log, "wherec: error: %s: %s\n", model_name, err);
    return GEN_EXIT_BAD_INPUT;
  }
  im->m = m;
  im->g = &m->graph;
  im->opset = onnx_opset_version(m);
  int rc = GEN_EXIT_BAD_INPUT;
  if (!build_values(im) || !topo_sort(im)) goto done;
  find_captures(im);
  infer(im);
  form_regions(im);
  im->leaves = alloc(im, (size_t)im->n_vals, sizeof *im->leaves);
  im->leaf_name = alloc(im, (size_t)im->n_vals, sizeof *im->leaf_name);
  im->leaf_lit = alloc(im, (size_t)im->n_vals, sizeof *im->leaf_lit);
  im->leaf_dtype = alloc(im, (size_t)im->n_vals, sizeof *im->leaf_dtype);
  const char **names = alloc(im, (size_t)im->n_regions + 1, sizeof *names);
  int n_kernels = 0;
  /* regions were numbered from the outputs back; emit them in graph order */
  for (int r = im->n_regions - 1; r >= 0; r--) {
    if (!im->regions[r].select) continue;
    make_kernel(im, r, names, n_kernels);
    if (!im->regions[r].reason) names[n_kernels++] = im->regions[r].name;
  }
  report(im);
  if (n_kernels == 0) {
    fprintf(im->log, "wherec: error: %s: no Where or NonZero node could be imported\n", model_name);
    goto done;
  }
  diag_text out = {0};
  diag_text_printf(&out, "# Imported by wherec import from %s (graph '%s', opset %lld).\n"
                         "# One kernel per Where / NonZero / Relu / LeakyRelu / Clip node and the\n"
                         "# element-wise producers only it consumes.\n",
                   comment_text(im, model_name), comment_text(im, im->g->name), (long long)im->opset);
  for (int r = im->n_regions - 1; r >= 0; r--) {
    region *rg = &im->regions[r];
    if (!rg->select || rg->reason) continue;
    diag_text_printf(&out, "\n%s", rg->text.data);
    fprintf(im->log, "wherec: kernel %s: %s\n", rg->name, node_label(im, rg->root));
  }
  if (out.truncated) {
    diag_text_free(&out);
    longjmp(im->oom, 1);
  }
  *spec = out.data;
  rc = GEN_EXIT_OK;
done:
  for (int r = 0; r < im->n_regions; r++) diag_text_free(&im->regions[r].text);
  im->n_regions = 0;
  onnx_model_free(m);
  im->m = NULL;
  return rc;
}

int import_model(const uint8_t *buf, size_t len, const char *model_name, FILE *log, char **spec) {
  imp *im = calloc(1, sizeof *im);
  int rc;
  *spec = NULL;
  if (im == NULL) {
    fprintf(log, "wherec: error: out of memory\n");
    return GEN_EXIT_BAD_INPUT;
  }
  arena_init(&im->a);
  im->a.oom = &im->oom;
  im->log = log;
  if (setjmp(im->oom) == 0) {
    rc = run_import(im, buf, len, model_name, spec);
  } else {
    for (int r = 0; r < im->n_regions; r++) diag_text_free(&im->regions[r].text);
    onnx_model_free((onnx_model *)im->m);
    fprintf(log, "wherec: error: out of memory\n");
    rc = GEN_EXIT_BAD_INPUT;
  }
  arena_free(&im->a);
  free(im);
  return rc;
}

/* ---- the command ------------------------------------------------------------------- */

static const char import_usage[] = "usage: wherec import MODEL.onnx -o SPEC\n";

int import_main(int argc, char **argv) {
  const char *model = NULL, *out = NULL;
  const args_opt opts[] = {{"-o", true, &out}};
  char msg[256];
  int n;
  switch (args_parse(argc, argv, opts, 1, &model, 1, &n, "one model only", msg, sizeof msg)) {
  case ARGS_HELP: fputs(import_usage, stdout); return GEN_EXIT_OK;
  case ARGS_USAGE:
    fprintf(stderr, "wherec: import: %s\n%s", msg, import_usage);
    return GEN_EXIT_USAGE;
  case ARGS_OK: break;
  }
  if (out && *out == '\0') {
    fprintf(stderr, "wherec: import: option '-o' needs a value\n%s", import_usage);
    return GEN_EXIT_USAGE;
  }
  if (n == 0 || out == NULL) {
    fprintf(stderr, "wherec: import: missing %s\n%s", n ? "-o SPEC" : "MODEL.onnx", import_usage);
    return GEN_EXIT_USAGE;
  }
  char err[512], *spec = NULL;
  size_t len;
  uint8_t *buf = onnx_slurp(model, &len, err, sizeof err);
  if (buf == NULL) {
    fprintf(stderr, "wherec: error: %s: %s\n", model, err);
    return GEN_EXIT_BAD_INPUT;
  }
  int rc = import_model(buf, len, model, stderr, &spec);
  free(buf);
  if (rc == GEN_EXIT_OK) {
    if (file_write(out, spec, strlen(spec), stderr)) fprintf(stderr, "wherec: wrote %s\n", out);
    else rc = GEN_EXIT_TOOLCHAIN;
  }
  free(spec);
  return rc;
}
