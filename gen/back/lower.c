/* lower.c: turns each checked kernel into a loop plan (lower.h): broadcast
   dims coalesced, strides and stride classes, a CSE'd operation DAG whose
   values are hoisted to the loop level they vary at, and bounded unrolling. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "back/lower.h"

/* Compilers vectorize the plain loop best; clang turns a manually unrolled
   select into branches (bench/README.md). */
#define DEFAULT_UNROLL 1

typedef struct lower_ctx {
  arena             *a;
  const sema_kernel *sk;
  lower_kernel      *lk;
  int                cap;  /* nodes allocated */
  int               *hash; /* open-addressing table of node indices, -1 empty */
  int                hash_cap;
  int               *stmt_node; /* per statement of a body: the node of its value */
} lower_ctx;

/* ---- C names ------------------------------------------------------------ */

static bool ends_with(const char *s, size_t n, const char *suffix) {
  size_t m = strlen(suffix);
  return n >= m && memcmp(s + n - m, suffix, m) == 0;
}

/* s[from..n) is one or more digits. */
static bool digits_from(const char *s, size_t from, size_t n) {
  if (from >= n) return false;
  for (size_t i = from; i < n; i++)
    if (s[i] < '0' || s[i] > '9') return false;
  return true;
}

/* Whether a spec name could clash in the generated C: the rules lower.h
   lists, and the locals and patterns templates/README.md ("Names") reserves. */
static bool ident_clashes(const char *s) {
  static const char *const taken[] = {
      /* C99/C11 keywords and the types and macros generated code uses */
      "auto", "break", "case", "char", "const", "continue", "default", "do", "double", "else",
      "enum", "extern", "float", "for", "goto", "if", "inline", "int", "long", "register",
      "restrict", "return", "short", "signed", "sizeof", "static", "struct", "switch", "typedef",
      "union", "unsigned", "void", "volatile", "while", "bool", "true", "false", "NULL", "memcpy",
      "defined",
      /* the templates' own locals */
      "out", "n", "i", "j", "u", "rest", "begin", "end", "stream", "chunk", "chunk_at", "chunk_len",
      "dst", "word", "truth", "count", "coords", "result", "ext", "in", "lane", "outer"};
  static const char *const suffixes[] = {"_",      "_t",     "_C",    "_val",   "_row",
                                         "_range", "_count", "_fill", "_invoke"};
  size_t                   n = strlen(s);
  for (size_t i = 0; i < sizeof taken / sizeof *taken; i++)
    if (strcmp(s, taken[i]) == 0) return true;
  for (size_t i = 0; i < sizeof suffixes / sizeof *suffixes; i++)
    if (ends_with(s, n, suffixes[i])) return true;
  if (s[0] == '_' || strncmp(s, "wc_", 3) == 0 || strncmp(s, "WC_", 3) == 0) return true;
  if ((s[0] == 'i' || s[0] == 'e') && digits_from(s, 1, n)) return true; /* i0, e0 */
  size_t l = 0; /* value names: mul_4, const_1 */
  while (l < n && s[l] >= 'a' && s[l] <= 'z') l++;
  return l > 0 && l < n && s[l] == '_' && digits_from(s, l + 1, n);
}

void lower_ident(const char *name, char *out) {
  snprintf(out, LOWER_IDENT_MAX + 1, "%s%s", name, ident_clashes(name) ? "_" : "");
}

static char *ident(arena *a, const char *name) {
  char buf[LOWER_IDENT_MAX + 1];
  lower_ident(name, buf);
  return arena_strdup(a, buf);
}

/* The C name of each node's value: inputs after their parameter, the rest
   after their operation and node number (unique within the kernel). */
static void name_nodes(arena *a, lower_kernel *k) {
  k->node_ident = arena_array(a, (size_t)(k->n_nodes ? k->n_nodes : 1), sizeof *k->node_ident);
  for (int i = 0; i < k->n_nodes; i++) {
    const wc_instr *ins = &k->nodes[i].ins;
    char            buf[LOWER_IDENT_MAX + 32];
    size_t          n = 0;
    if (ins->op == WC_OP_INPUT) {
      snprintf(buf, sizeof buf, "%s_val", k->param_ident[ins->a]);
    } else {
      for (const char *p = ast_op_name((wc_opcode)ins->op); *p; p++) buf[n++] = (char)(*p - 'A' + 'a');
      snprintf(buf + n, sizeof buf - n, "_%d", i);
    }
    k->node_ident[i] = arena_strdup(a, buf);
  }
}

/* ---- how each value is spelled in C ------------------------------------------ */

/* "wc_<stem>_<suffix>" in the arena. */
static const char *helper_name(arena *a, const char *stem, const char *suffix) {
  char buf[64];
  snprintf(buf, sizeof buf, "wc_%s_%s", stem, suffix);
  return arena_strdup(a, buf);
}

/* How the templates write each node's value: a C operator where the C
   operator means the operation exactly (logic on bool; comparisons of
   numbers held as C numbers, not of float16 bits, and not of a value with
   itself, on which compilers warn), ?: for a where of values without a
   blend helper, else the element operation's helper of ops.h. */
static void spell_nodes(arena *a, lower_kernel *k) {
  for (int i = 0; i < k->n_nodes; i++) {
    lower_node     *n = &k->nodes[i];
    wc_opcode       op = (wc_opcode)n->ins.op;
    wc_dtype        t = (wc_dtype)n->ins.dtype;
    wc_dtype        at = op == WC_OP_INPUT || op == WC_OP_CONST
                             ? t
                             : (wc_dtype)k->nodes[n->ins.a].ins.dtype;
    ast_dtype_class c = ast_dtype_class_of(at);
    bool            plain = c == AST_CLASS_SINT || c == AST_CLASS_UINT || c == AST_CLASS_REAL;
    n->render = LOWER_RENDER_CALL;
    switch (op) {
    case WC_OP_INPUT:
    case WC_OP_CONST: n->render = LOWER_RENDER_LEAF; break;
    case WC_OP_WHERE: {
      ast_dtype_class tc = ast_dtype_class_of(t);
      if (tc == AST_CLASS_SINT || tc == AST_CLASS_UINT || tc == AST_CLASS_REAL ||
          tc == AST_CLASS_HALF)
        n->c_op = helper_name(a, "sel", ast_dtype_suffix(t));
      else n->render = LOWER_RENDER_TERNARY;
      break;
    }
    case WC_OP_RSUM:
    case WC_OP_RMAX:
    case WC_OP_RMIN:
    case WC_OP_RMEAN: /* written by the row template: lanes, steps, end */
      n->render = LOWER_RENDER_LEAF;
      n->c_op = helper_name(a, ast_op_helper(op), "");
      n->c_acc = helper_name(a, "racc", ast_dtype_suffix(at));
      break;
    case WC_OP_OR:
    case WC_OP_AND: n->render = LOWER_RENDER_INFIX; break;
    case WC_OP_NOT: n->render = LOWER_RENDER_PREFIX; break;
    case WC_OP_CAST: {
      const char *from = c == AST_CLASS_SINT                         ? "sint"
                         : c == AST_CLASS_UINT || c == AST_CLASS_BOOL ? "uint"
                                                                      : "real";
      char        stem[32];
      snprintf(stem, sizeof stem, "%s_from", ast_dtype_suffix(t));
      n->c_op = helper_name(a, stem, from);
      n->c_load = helper_name(a, "load", ast_dtype_suffix(at));
      break;
    }
    default:
      if (wc_op_gives_bool(op) && (plain || at == WC_BOOL) && n->ins.a != n->ins.b)
        n->render = LOWER_RENDER_INFIX;
      else n->c_op = helper_name(a, ast_op_helper(op), ast_dtype_suffix(at));
      break;
    }
    if (n->render == LOWER_RENDER_INFIX || n->render == LOWER_RENDER_PREFIX)
      n->c_op = ast_op_spelling(op);
  }
}

/* ---- the operation DAG, hash-consed so common subexpressions exist once ---- */

static uint64_t instr_hash(const wc_instr *i) {
  uint64_t h = (uint64_t)i->op * 0x9e3779b97f4a7c15u;
  h ^= (uint64_t)i->dtype + 0x7f4a7c15u + (h << 6) + (h >> 2);
  h ^= ((uint64_t)i->a << 32 | (uint64_t)i->b << 16 | i->c) * 0xbf58476d1ce4e5b9u;
  h ^= i->bits[0] * 0x94d049bb133111ebu ^ i->bits[1];
  return h ^ (h >> 31);
}

static bool instr_equal(const wc_instr *x, const wc_instr *y) {
  return x->op == y->op && x->dtype == y->dtype && x->a == y->a && x->b == y->b && x->c == y->c &&
         x->bits[0] == y->bits[0] && x->bits[1] == y->bits[1];
}

/* The node computing ins, added unless an equal one exists. */
static int node(lower_ctx *c, wc_instr ins, lower_level level) {
  lower_kernel *k = c->lk;
  size_t        h = (size_t)(instr_hash(&ins) % (uint64_t)c->hash_cap);
  while (c->hash[h] >= 0) {
    if (instr_equal(&k->nodes[c->hash[h]].ins, &ins)) return c->hash[h];
    h = (h + 1) % (size_t)c->hash_cap;
  }
  if (k->n_nodes == c->cap) { /* grow: nodes and table */
    int         ncap = c->cap * 2;
    lower_node *nn = arena_array(c->a, (size_t)ncap, sizeof *nn);
    memcpy(nn, k->nodes, (size_t)k->n_nodes * sizeof *nn);
    k->nodes = nn;
    c->cap = ncap;
    c->hash_cap = ncap * 2;
    c->hash = arena_array(c->a, (size_t)c->hash_cap, sizeof *c->hash);
    for (int i = 0; i < c->hash_cap; i++) c->hash[i] = -1;
    for (int i = 0; i < k->n_nodes; i++) {
      size_t g = (size_t)(instr_hash(&k->nodes[i].ins) % (uint64_t)c->hash_cap);
      while (c->hash[g] >= 0) g = (g + 1) % (size_t)c->hash_cap;
      c->hash[g] = i;
    }
    return node(c, ins, level);
  }
  int id = k->n_nodes++;
  k->nodes[id].ins = ins;
  k->nodes[id].level = level;
  c->hash[h] = id;
  return id;
}

static wc_instr instr(wc_opcode op, wc_dtype t, int a, int b, int cc) {
  wc_instr i;
  memset(&i, 0, sizeof i);
  i.op = (uint8_t)op;
  i.dtype = (uint8_t)t;
  i.a = (uint16_t)a;
  i.b = (uint16_t)b;
  i.c = (uint16_t)cc;
  return i;
}

static lower_level max_level(lower_ctx *c, int n, const int *ops) {
  lower_level l = LOWER_KERNEL;
  for (int i = 0; i < n; i++)
    if (c->lk->nodes[ops[i]].level > l) l = c->lk->nodes[ops[i]].level;
  return l;
}

/* Level of parameter p's values: invariant, per row, or per element. */
static lower_level param_level(const lower_kernel *k, int p) {
  if (k->invariant[p]) return LOWER_KERNEL;
  return k->contig[p] ? LOWER_ELEM : LOWER_ROW;
}

/* Lowers expression e to nodes; returns the node of its value. */
static int lower_expr(lower_ctx *c, const ast_expr *e) {
  int       ops[3] = {0, 0, 0}, n = 0;
  wc_opcode op = WC_OP_CONST;
  switch (e->kind) {
  case AST_LIT: {
    wc_instr i = instr(WC_OP_CONST, e->dtype, 0, 0, 0);
    i.bits[0] = e->u.lit.bits[0];
    i.bits[1] = e->u.lit.bits[1];
    return node(c, i, LOWER_KERNEL);
  }
  case AST_PARAM:
    if (e->u.param.stmt >= 0) return c->stmt_node[e->u.param.stmt]; /* computed once */
    return node(c, instr(WC_OP_INPUT, e->dtype, e->u.param.index, 0, 0),
                param_level(c->lk, e->u.param.index));
  case AST_UNARY:
    ops[n++] = lower_expr(c, e->u.unary.arg);
    op = e->u.unary.op;
    break;
  case AST_BINARY:
    ops[n++] = lower_expr(c, e->u.binary.lhs);
    ops[n++] = lower_expr(c, e->u.binary.rhs);
    op = e->u.binary.op;
    if (e->dtype == WC_BOOL && ast_op_on_bool(op) != WC_OP_NONE) op = ast_op_on_bool(op); /* & | ^ */
    break;
  case AST_CALL:
    for (int i = 0; i < e->u.call.n_args; i++) ops[n++] = lower_expr(c, e->u.call.args[i]);
    switch (e->u.call.fn) {
    case AST_FN_OP: op = e->u.call.op; break;
    case AST_FN_WHERE_V1: op = WC_OP_WHERE; break;
    case AST_FN_CAST:
      if (c->lk->nodes[ops[0]].ins.dtype == e->dtype) return ops[0]; /* identity */
      op = WC_OP_CAST;
      break;
    default: return ops[0]; /* argwhere / nonzero: their value */
    }
    break;
  }
  if (wc_op_reduces(op)) /* one value per row; b holds the rows' rank, as in the table */
    return node(c, instr(op, e->dtype, ops[0], e->u.call.rows, 0), LOWER_ROW);
  return node(c, instr(op, e->dtype, ops[0], n > 1 ? ops[1] : 0, n > 2 ? ops[2] : 0),
              max_level(c, n, ops));
}

/* The values of a kernel: the statements of its body in order (each a node,
   so a value read twice is computed once), then each output's node. One
   output that is not the last node (none is, unless a statement's value is
   dead) would break the single-output templates' assumption: it is planned
   as a kernel of several outputs. */
static void lower_values(lower_ctx *c) {
  const sema_kernel *sk = c->sk;
  lower_kernel      *k = c->lk;
  c->stmt_node = arena_array(c->a, (size_t)sk->n_stmts + 1, sizeof *c->stmt_node);
  for (int i = 0; i < sk->n_stmts; i++) c->stmt_node[i] = lower_expr(c, sk->stmts[i]);
  k->n_outputs = sk->n_outputs;
  k->out_node = arena_array(c->a, (size_t)sk->n_outputs, sizeof *k->out_node);
  k->out_ident = arena_array(c->a, (size_t)sk->n_outputs, sizeof *k->out_ident);
  for (int o = 0; o < sk->n_outputs; o++) {
    k->out_node[o] = o == 0 ? lower_expr(c, sk->value) : lower_expr(c, sk->outputs[o].value);
    k->out_ident[o] = sk->body ? ident(c->a, sk->outputs[o].name) : arena_strdup(c->a, "out");
  }
  k->multi = sk->n_outputs > 1 || k->out_node[0] != k->n_nodes - 1;
}

/* ---- loops -------------------------------------------------------------- */

/* "N * M * 12" of a list of output dims (fixed parts folded). Measured, then
   written into the arena: extent names are up to 255 bytes, 16 of them. Sema
   keeps the product of the fixed extents within SEMA_MAX_ELEMENTS. */
static char *extent_expr(arena *a, char *const *names, const int64_t *dims, int n, int64_t *fixed) {
  char   *buf = NULL;
  size_t  len = 0;
  int64_t f = 1;
  bool    sym = false;
  for (int i = 0; i < n; i++)
    if (dims[i] >= 0) f *= dims[i];
  for (int pass = 0; pass < 2; pass++) {
    size_t at = 0;
#define PUT(...) \
  (at += (size_t)snprintf(buf ? buf + at : NULL, buf ? len + 1 - at : 0, __VA_ARGS__))
    sym = false;
    for (int i = 0; i < n; i++) {
      if (dims[i] >= 0) continue;
      PUT("%s%s", sym ? " * " : "", names[-dims[i] - 1]);
      sym = true;
    }
    if (!sym) PUT("%lld", (long long)f);
    else if (f != 1) PUT(" * %lld", (long long)f);
#undef PUT
    if (buf == NULL) {
      len = at;
      buf = arena_alloc(a, len + 1);
    }
  }
  *fixed = sym ? -1 : f;
  return buf;
}

/* Product of loop extent variables e<i> for the given loops, or "1". */
static char *stride_expr(arena *a, const bool *inner_full, int from, int n_loops) {
  char   buf[512];
  size_t len = 0;
  for (int l = from; l < n_loops; l++) {
    if (!inner_full[l]) continue;
    len += (size_t)snprintf(buf + len, sizeof buf - len, "%se%d", len ? " * " : "", l);
    if (len >= sizeof buf) len = sizeof buf - 1;
  }
  return arena_strdup(a, len ? buf : "1");
}

/* The shape the runtime gives the output (or the coordinates' value): the
   broadcast of every parameter, or x's shape for tf.compat.v1.where. False if
   the parameters do not broadcast together. */
bool lower_out_shape(const sema_kernel *sk, ast_shape *out) {
  if (sk->kind == WC_KIND_WHERE_V1) {
    *out = sk->params[1].shape;
    return true;
  }
  out->rank = 0;
  for (int p = 0; p < sk->n_params; p++)
    if (!sema_broadcast(out, &sk->params[p].shape, out)) return false;
  return true;
}

/* Builds the loops of k over the output (elementwise: dims of extent 1
   dropped and dims coalesced when every parameter is alike in both;
   coordinates: every dim of the value, so the odometer sees true indices). */
static void plan_loops(lower_ctx *c, bool coords) {
  const sema_kernel *sk = c->sk;
  lower_kernel      *k = c->lk;
  ast_shape          shape;
  lower_out_shape(sk, &shape);
  int np = sk->n_params, r = shape.rank;
  /* per kept dim: its output dims and which parameters run along it */
  int64_t dims[WC_MAX_RANK][WC_MAX_RANK];
  int     n_dims[WC_MAX_RANK];
  bool   *full = arena_array(c->a, (size_t)(WC_MAX_RANK + 1) * (size_t)(np + 1), sizeof *full);
  bool   *f = full + (size_t)WC_MAX_RANK * (size_t)(np + 1); /* the dim being looked at */
  int     nl = 0;
#define FULL(l, p) full[(size_t)(l) * (size_t)(np + 1) + (size_t)(p)]
  bool rowsel_v1 = sk->kind == WC_KIND_WHERE_V1 && sk->params[0].shape.rank == 1 && r > 1;
  int  row_from = sk->rows ? r - sk->rows : r, row_loop = -1; /* rows: their loop, the last */
  for (int d = 0; d < r; d++) {
    int64_t od = shape.dims[d];
    for (int p = 0; p < np; p++) {
      const ast_shape *ps = &sk->params[p].shape;
      /* tf.compat.v1 row select: a vector condition runs along the first dim */
      int pd = (rowsel_v1 && p == 0) ? (d == 0 ? 0 : -1) : d - (r - ps->rank);
      f[p] = pd >= 0 && ps->dims[pd] != 1;
    }
    if (d >= row_from) { /* the rows' axes make one loop of their own, extents of 1 too
                            (sema: a parameter runs along all of them or none) */
      if (row_loop < 0) {
        n_dims[nl] = 0;
        for (int p = 0; p < np; p++) FULL(nl, p) = false;
        row_loop = nl++;
      }
      for (int p = 0; p < np; p++) FULL(row_loop, p) = FULL(row_loop, p) || f[p];
      dims[row_loop][n_dims[row_loop]++] = od;
      continue;
    }
    if (od == 1 && !coords) continue;
    bool merge = nl > 0 && !coords;
    for (int p = 0; p < np && merge; p++) merge = FULL(nl - 1, p) == f[p];
    if (!merge) {
      n_dims[nl] = 0;
      for (int p = 0; p < np; p++) FULL(nl, p) = f[p];
      nl++;
    }
    dims[nl - 1][n_dims[nl - 1]++] = od;
  }
  if (nl == 0 && !coords) { /* a single element */
    n_dims[0] = 1;
    dims[0][0] = 1;
    for (int p = 0; p < np; p++) FULL(0, p) = false;
    nl = 1;
  }
  k->n_loops = nl;
  k->loops = arena_array(c->a, (size_t)(nl ? nl : 1), sizeof *k->loops);
  k->total_fixed = 1;
  k->empty = false;
  for (int l = 0; l < nl; l++) {
    lower_loop *L = &k->loops[l];
    for (int i = 0; i < n_dims[l]; i++) k->empty |= dims[l][i] == 0;
    L->extent = extent_expr(c->a, k->extent_ident, dims[l], n_dims[l], &L->fixed);
    if (L->fixed < 0) k->total_fixed = -1;
    else if (k->total_fixed >= 0) k->total_fixed *= L->fixed;
    L->stride = arena_array(c->a, (size_t)(np ? np : 1), sizeof *L->stride);
  }
  for (int p = 0; p < np; p++) {
    bool pf[WC_MAX_RANK];
    bool any = false;
    for (int l = 0; l < nl; l++) {
      pf[l] = FULL(l, p);
      any |= pf[l];
    }
    for (int l = 0; l < nl; l++)
      k->loops[l].stride[p] = pf[l] ? stride_expr(c->a, pf, l + 1, nl) : arena_strdup(c->a, "0");
    k->invariant[p] = !any;
    k->contig[p] = nl > 0 && pf[nl - 1];
  }
#undef FULL
}

/* Whether parameter p runs along loop L (else it is broadcast there). */
static bool runs_along(const lower_loop *L, int p) { return strcmp(L->stride[p], "0") != 0; }

/* Offsets of every parameter for every element of a small fixed kernel. The
   strides, in elements, are worked out once; each element only sums them. */
static void plan_straight(lower_ctx *c) {
  lower_kernel *k = c->lk;
  int           np = c->sk->n_params, nl = k->n_loops;
  int64_t       n = k->total_fixed;
  int64_t      *stride = arena_array(c->a, (size_t)(nl ? nl : 1) * (size_t)(np ? np : 1),
                                     sizeof *stride);
  for (int p = 0; p < np; p++) {
    int64_t s = 1;
    for (int l = nl - 1; l >= 0; l--) {
      bool runs = runs_along(&k->loops[l], p);
      stride[(size_t)l * (size_t)np + (size_t)p] = runs ? s : 0;
      if (runs) s *= k->loops[l].fixed;
    }
  }
  k->straight_off = arena_array(c->a, (size_t)(n ? n : 1), sizeof *k->straight_off);
  for (int64_t e = 0; e < n; e++) {
    int64_t idx[WC_MAX_RANK], rem = e;
    for (int l = nl - 1; l >= 0; l--) {
      idx[l] = rem % k->loops[l].fixed;
      rem /= k->loops[l].fixed;
    }
    k->straight_off[e] = arena_array(c->a, (size_t)(np ? np : 1), sizeof **k->straight_off);
    for (int p = 0; p < np; p++) {
      int64_t off = 0;
      for (int l = 0; l < nl; l++) off += idx[l] * stride[(size_t)l * (size_t)np + (size_t)p];
      k->straight_off[e][p] = off;
    }
  }
}

/* A where whose condition does not vary along the row, whose branches are
   contiguous inputs or row invariants: copy or fill whole rows. */
static void plan_row_select(lower_kernel *k) {
  const lower_node *top = &k->nodes[k->n_nodes - 1];
  lower_row_select *rs = &k->row_select;
  if (top->ins.op != WC_OP_WHERE || top->level != LOWER_ELEM) return;
  if (k->nodes[top->ins.a].level == LOWER_ELEM) return;
  int br[2] = {top->ins.b, top->ins.c};
  for (int i = 0; i < 2; i++) {
    const lower_node *b = &k->nodes[br[i]];
    bool              copy = b->ins.op == WC_OP_INPUT && b->level == LOWER_ELEM;
    if (b->level == LOWER_ELEM && !copy) return;
    rs->branch[i] = br[i];
    rs->copy[i] = copy;
  }
  rs->cond = top->ins.a;
  rs->enabled = true;
}

/* Whether large outputs take non-temporal stores (WC_STREAM_MIN_BYTES). They
   win when reads dominate: bench/tried.c and a sweep of buffer placements put
   a float or int64 where (three full-size inputs) 5-20% ahead, but a kernel
   reading one full-size input per output (leaky relu, a row-broadcast copy)
   up to 40% behind in some placements. So: when the full-size inputs it
   reads move at least twice the output's bytes, and its rows are computed or
   copied (a row select that only fills rows from scalars has nothing to stream).
   Rows copied whole stream from WC_STREAM_MIN_BYTES of output; rows computed
   (through chunks in L1) from WC_STREAM_COMPUTED_MIN_BYTES, by default never:
   they lose on 4 KiB pages (docs/generated-code.md). */
static int elem_work(const lower_kernel *k);

/* Whether a product may take the plain form: contraction (clang's
   -ffp-contract=fast ignores the file's pragma) can fuse a plain product
   only into an addition or subtraction that reads it, directly or through a
   negation or a conversion, so every reader must be one of these. */
static bool product_stays_rounded(const lower_kernel *k, int id) {
  for (int i = id + 1; i < k->n_nodes; i++) {
    const wc_instr *u = &k->nodes[i].ins;
    int             arity = wc_op_arity((wc_opcode)u->op);
    if (!((arity > 0 && u->a == id) || (arity > 1 && u->b == id) || (arity > 2 && u->c == id)))
      continue;
    switch ((wc_opcode)u->op) {
    case WC_OP_MUL:
    case WC_OP_DIV:
    case WC_OP_MIN:
    case WC_OP_MAX:
    case WC_OP_EQ:
    case WC_OP_NE:
    case WC_OP_LT:
    case WC_OP_LE:
    case WC_OP_GT:
    case WC_OP_GE: break;
    default: return false;
    }
  }
  return true;
}

/* NaNs cost most of a float kernel's time: ops.h pins which NaN each
   operation gives (three selects and a quieting per + - * /). Plain IEEE
   arithmetic gives the same bits wherever the result is not a NaN, and
   whether a value is a NaN never depends on an operand NaN's bits (every
   operation of the table propagates NaN-ness alone; casts and comparisons
   read only whether). So each block of the innermost loop is evaluated with
   the plain forms into locals and stored only when no float output lane is a
   NaN; otherwise it is evaluated again, pinned, before anything is stored
   (an output may be an input's buffer). Taken when the innermost values hold
   float or double + - * / (or a raw function) and every output is float, double, an integer or
   bool (a half output would carry a plain NaN's bits into a conversion).
   The correctly rounded functions on float take their raw forms too (exp.h),
   which give a NaN where they cannot decide the rounding: the block tests
   each such value as well (raw_checked). */
static void plan_nan_redo(arena *a, lower_kernel *k, int64_t *budget) {
  bool any_raw = false, any_real_out = false;
  for (int o = 0; o < k->n_outputs; o++) {
    const lower_node *n = &k->nodes[k->out_node[o]];
    ast_dtype_class   c = ast_dtype_class_of((wc_dtype)n->ins.dtype);
    if (n->level != LOWER_ELEM) return;
    if (c == AST_CLASS_REAL) any_real_out = true;
    else if (c != AST_CLASS_SINT && c != AST_CLASS_UINT && c != AST_CLASS_BOOL) return;
  }
  if (!any_real_out || elem_work(k) > *budget) return;
  for (int i = 0; i < k->n_nodes; i++) {
    lower_node *n = &k->nodes[i];
    wc_opcode   op = (wc_opcode)n->ins.op;
    wc_dtype    t = (wc_dtype)n->ins.dtype;
    if (n->level != LOWER_ELEM || n->render != LOWER_RENDER_CALL || (t != WC_FLOAT && t != WC_DOUBLE))
      continue;
    n->raw_checked = wc_op_has_raw_form(op) && t == WC_FLOAT;
    if (op != WC_OP_ADD && op != WC_OP_SUB && op != WC_OP_MUL && op != WC_OP_DIV &&
        !n->raw_checked)
      continue;
    if (op == WC_OP_MUL && !product_stays_rounded(k, i)) continue;
    char stem[16];
    snprintf(stem, sizeof stem, "%s_raw", ast_op_helper(op));
    n->c_op_raw = helper_name(a, stem, ast_dtype_suffix(t));
    any_raw = true;
  }
  if (!any_raw) return;
  k->nan_redo = true;
  *budget -= elem_work(k);
}

static void plan_streaming(lower_kernel *k) {
  const sema_kernel *sk = k->sk;
  size_t             read = 0;
  for (int p = 0; p < sk->n_params; p++) {
    bool used = false, full = true;
    for (int i = 0; i < k->n_nodes; i++)
      used |= k->nodes[i].ins.op == WC_OP_INPUT && k->nodes[i].ins.a == p;
    for (int l = 0; l < k->n_loops; l++) full &= runs_along(&k->loops[l], p);
    if (used && full) read += wc_dtype_size(sk->params[p].dtype);
  }
  const lower_row_select *rs = &k->row_select;
  k->streams = !k->empty && read >= 2 * wc_dtype_size(sk->out_dtype) &&
               (!rs->enabled || rs->copy[0] || rs->copy[1]);
  if (k->streams)
    k->stream_min = rs->enabled ? "WC_STREAM_MIN_BYTES" : "WC_STREAM_COMPUTED_MIN_BYTES";
}

/* How a coordinate kernel finds its true elements. A value that is a 1-byte
   input (bool, int8, uint8) stepping by 1 along the innermost loop is read in
   place: its rows are their own truth bytes (any non-zero byte is true), which
   wherec/truth.h counts and lists (bytewise); K then lists in one pass,
   counting as it goes, and reads the input once, not twice (one_pass):
   argwhere appends rows (wc_argwhere_row), nonzero packs each true byte's
   coordinates into one word while true is rare and unpacks them once n is
   known (wc_nonzero_bytes, over the whole input). Other values are computed
   into blocks of 64 truth bytes, counted by K_count, then listed by K_fill. */
static void plan_truth(lower_kernel *k) {
  const wc_instr *top = &k->nodes[k->n_nodes - 1].ins;
  k->bytewise = k->n_loops > 0 && top->op == WC_OP_INPUT &&
                wc_dtype_size(k->sk->params[top->a].dtype) == 1 && k->contig[top->a];
  /* nonzero lists in one pass by reading the input as one contiguous run of the
     output's elements: only when it has the output's shape; a byte input
     broadcast along an outer loop counts, then fills. */
  ast_shape        out;
  const ast_shape *in = &k->sk->params[top->a].shape;
  bool             whole = lower_out_shape(k->sk, &out) && out.rank == in->rank &&
               memcmp(out.dims, in->dims, (size_t)in->rank * sizeof *in->dims) == 0;
  k->one_pass = k->bytewise && (k->sk->kind == WC_KIND_ARGWHERE || whole);
  k->count_loops = k->bytewise ? k->n_loops - 1 : k->n_loops;
}

/* Which vectors an elementwise kernel is built with where the target has 64-byte
   ones (AVX-512, templates/source.c.tpl). A kernel that moves memory (selects,
   arithmetic, conversions) ran 1.1-1.5x slower with them from memory on Zen 4
   and no faster in cache, so by default a generated file takes 32-byte vectors.
   A kernel that computes a correctly rounded function per element is bound by
   its arithmetic instead: with 64-byte vectors exp, sigmoid and log ran
   1.7-1.9x faster under gcc -O3 -march=native (bench/README.md). So a kernel is
   compute-bound, and keeps the whole target, when a value of its innermost loop
   is one of those functions (domain CRF of include/wherec/operations.h). The
   bits are the same either way. Coordinate kernels keep 32-byte vectors:
   wherec/truth.h's masks ran slower with 64-byte ones. */
static void plan_vectors(lower_kernel *k) {
  for (int i = 0; i < k->n_nodes; i++)
    if (k->nodes[i].level == LOWER_ELEM && ast_op_domain((wc_opcode)k->nodes[i].ins.op) == AST_DOM_CRF)
      k->compute_bound = true;
}

static int elem_work(const lower_kernel *k) {
  int n = 0;
  for (int i = 0; i < k->n_nodes; i++) n += k->nodes[i].level == LOWER_ELEM;
  return n ? n : 1;
}

/* The passes over each row of a kernel with row reductions. A value's phase
   is how deep in reductions it sits (a reduction: 1 + its operand's); pass p
   folds the reductions of phase p + 1, its loop computing the element values
   they read, and is followed by the row values of that phase (1 / sqrt(var +
   eps)); the last pass computes the outputs' element values and stores them.
   A value read by two passes is computed in each: a row takes one pass per
   depth, reading its inputs again from cache. */
/* The element values of pass p (its reductions' operands, or the outputs for the last),
   into need: what they read at element level, stopping at values of an earlier pass's
   cache when `cached`. */
static void pass_needs(const lower_kernel *k, int p, bool cached, bool *need) {
  const lower_pass *ps = &k->passes[p];
  memset(need, 0, (size_t)k->n_nodes * sizeof *need);
  if (p < k->n_passes - 1)
    for (int r = 0; r < ps->n_reduce; r++) need[k->nodes[ps->reduce[r]].ins.a] = true;
  else
    for (int o = 0; o < k->n_outputs; o++) need[k->out_node[o]] = true;
  for (int i = k->n_nodes - 1; i >= 0; i--) {
    const lower_node *v = &k->nodes[i];
    wc_opcode         op = (wc_opcode)v->ins.op;
    if (!need[i] || v->level != LOWER_ELEM || op == WC_OP_INPUT || op == WC_OP_CONST) continue;
    if (cached && v->cache_pass >= 0 && v->cache_pass < p) continue; /* read from its cache */
    int arity = wc_op_arity(op);
    if (arity > 0) need[v->ins.a] = true;
    if (arity > 1) need[v->ins.b] = true;
    if (arity > 2) need[v->ins.c] = true;
  }
}

/* Row caches: a correctly rounded function's value (or one computed from it) that a later
   pass reads again is stored by the first pass computing it, in a row cache of
   WC_ROW_CACHE elements, and read back: softmax computes exp once per element, not twice.
   At most LOWER_MAX_ROW_CACHES, the first found; a row longer than the caches computes
   everything again in each pass (elem). */
static void plan_row_caches(arena *a, lower_kernel *k, bool *need, int *list) {
  int   n = k->n_nodes;
  bool *costly = arena_array(a, (size_t)n, sizeof *costly);
  int  *first = arena_array(a, (size_t)n, sizeof *first);
  for (int i = 0; i < n; i++) {
    lower_node *v = &k->nodes[i];
    wc_opcode   op = (wc_opcode)v->ins.op;
    int         arity = op == WC_OP_INPUT || op == WC_OP_CONST ? 0 : wc_op_arity(op);
    const int   ops[3] = {v->ins.a, v->ins.b, v->ins.c};
    v->cache_pass = -1;
    first[i] = -1;
    costly[i] = v->level == LOWER_ELEM && ast_op_domain(op) == AST_DOM_CRF;
    for (int j = 0; j < arity; j++) costly[i] |= v->level == LOWER_ELEM && costly[ops[j]];
  }
  for (int p = k->n_passes - 1; p >= 0; p--)
    for (int e = 0; e < k->passes[p].n_elem; e++) first[k->passes[p].elem[e]] = p;
  /* in pass order: a costly value of an earlier pass that this pass reads becomes cached */
  k->n_caches = 0;
  for (int p = 1; p < k->n_passes; p++) {
    pass_needs(k, p, true, need);
    for (int i = 0; i < n && k->n_caches < LOWER_MAX_ROW_CACHES; i++) {
      lower_node *v = &k->nodes[i];
      if (!need[i] || !costly[i] || first[i] < 0 || first[i] >= p || v->cache_pass >= 0) continue;
      v->cache_pass = first[i];
      k->n_caches++;
    }
  }
  for (int p = 0; p < k->n_passes; p++) {
    lower_pass *ps = &k->passes[p];
    int         m = 0;
    pass_needs(k, p, true, need);
    for (int i = 0; i < n; i++)
      if (need[i] && k->nodes[i].level == LOWER_ELEM) list[m++] = i;
    ps->elem_c = arena_array(a, (size_t)(m ? m : 1), sizeof *ps->elem_c);
    memcpy(ps->elem_c, list, (size_t)m * sizeof *list);
    ps->n_elem_c = m;
  }
}

static void plan_rows(arena *a, lower_kernel *k) {
  int   n = k->n_nodes, depth = 0;
  bool *need = arena_array(a, (size_t)n, sizeof *need);
  int  *list = arena_array(a, (size_t)n, sizeof *list);
  for (int i = 0; i < n; i++) {
    lower_node *v = &k->nodes[i];
    wc_opcode   op = (wc_opcode)v->ins.op;
    int         arity = op == WC_OP_INPUT || op == WC_OP_CONST ? 0 : wc_op_arity(op);
    const int   ops[3] = {v->ins.a, v->ins.b, v->ins.c};
    v->phase = 0;
    for (int j = 0; j < arity; j++)
      if (k->nodes[ops[j]].phase > v->phase) v->phase = k->nodes[ops[j]].phase;
    if (wc_op_reduces(op) && ++v->phase > depth) depth = v->phase;
  }
#define PICK(field, count, cond)                        \
  do {                                                  \
    int m_ = 0;                                         \
    for (int i = 0; i < n; i++)                         \
      if (cond) list[m_++] = i;                         \
    field = arena_array(a, (size_t)(m_ ? m_ : 1), sizeof *field); \
    memcpy(field, list, (size_t)m_ * sizeof *list);     \
    count = m_;                                         \
  } while (0)
#define ROW_VALUE(i, p) \
  (k->nodes[i].level == LOWER_ROW && !wc_op_reduces((wc_opcode)k->nodes[i].ins.op) && k->nodes[i].phase == (p))
  k->n_passes = depth + 1;
  k->passes = arena_array(a, (size_t)k->n_passes, sizeof *k->passes);
  PICK(k->row0, k->n_row0, ROW_VALUE(i, 0));
  for (int p = 0; p <= depth; p++) {
    lower_pass *ps = &k->passes[p];
    memset(need, 0, (size_t)n * sizeof *need);
    if (p < depth) {
      PICK(ps->reduce, ps->n_reduce,
           wc_op_reduces((wc_opcode)k->nodes[i].ins.op) && k->nodes[i].phase == p + 1);
      for (int r = 0; r < ps->n_reduce; r++) need[k->nodes[ps->reduce[r]].ins.a] = true;
      PICK(ps->row, ps->n_row, ROW_VALUE(i, p + 1));
    } else {
      for (int o = 0; o < k->n_outputs; o++) need[k->out_node[o]] = true;
    }
    for (int i = n - 1; i >= 0; i--) { /* what the needed element values read */
      const lower_node *v = &k->nodes[i];
      wc_opcode         op = (wc_opcode)v->ins.op;
      if (!need[i] || v->level != LOWER_ELEM || op == WC_OP_INPUT || op == WC_OP_CONST) continue;
      int arity = wc_op_arity(op);
      if (arity > 0) need[v->ins.a] = true;
      if (arity > 1) need[v->ins.b] = true;
      if (arity > 2) need[v->ins.c] = true;
    }
    PICK(ps->elem, ps->n_elem, need[i] && k->nodes[i].level == LOWER_ELEM);
  }
  plan_row_caches(a, k, need, list);
#undef ROW_VALUE
#undef PICK
}

/* budget: the element operations the spec's kernels before this one left of
   LOWER_MAX_TOTAL_WORK; this kernel's unrolled and straight-line copies come
   out of it. */
static void lower_kernel_plan(arena *a, const sema_kernel *sk, lower_kernel *k, int unroll,
                              int64_t *budget) {
  lower_ctx c;
  bool      coords = sk->kind == WC_KIND_ARGWHERE || sk->kind == WC_KIND_NONZERO;
  int       np = sk->n_params;
  memset(k, 0, sizeof *k);
  k->sk = sk;
  k->contig = arena_array(a, (size_t)(np ? np : 1), sizeof *k->contig);
  k->invariant = arena_array(a, (size_t)(np ? np : 1), sizeof *k->invariant);
  k->param_ident = arena_array(a, (size_t)(np ? np : 1), sizeof *k->param_ident);
  for (int p = 0; p < np; p++) k->param_ident[p] = ident(a, sk->params[p].name);
  k->extent_ident = arena_array(a, (size_t)(sk->n_extents ? sk->n_extents : 1),
                                sizeof *k->extent_ident);
  for (int e = 0; e < sk->n_extents; e++) k->extent_ident[e] = ident(a, sk->extent_names[e]);
  c.a = a;
  c.sk = sk;
  c.lk = k;
  c.cap = 16;
  k->nodes = arena_array(a, (size_t)c.cap, sizeof *k->nodes);
  c.hash_cap = 32;
  c.hash = arena_array(a, (size_t)c.hash_cap, sizeof *c.hash);
  for (int i = 0; i < c.hash_cap; i++) c.hash[i] = -1;
  plan_loops(&c, coords);
  lower_values(&c); /* one value: the last node, nothing can equal its root */
  name_nodes(a, k);
  spell_nodes(a, k);
  int work = elem_work(k);
  k->rows = sk->rows;
  if (k->rows) { /* a loop per pass over each row: no unrolling, straight code or streams */
    plan_rows(a, k);
    k->unroll = 1;
    *budget -= (int64_t)work * 4 * k->n_passes;
    if (*budget < 0) *budget = 0;
    if (!k->empty) plan_nan_redo(a, k, budget);
    plan_vectors(k);
    return;
  }
  k->unroll = unroll;
  if (work * k->unroll > LOWER_MAX_UNROLL_WORK) k->unroll = LOWER_MAX_UNROLL_WORK / work;
  /* the loop body is emitted unroll + 1 times (unrolled, then the remainder) */
  if ((int64_t)work * (k->unroll + 1) > *budget) k->unroll = (int)(*budget / work) - 1;
  if (k->unroll < 1) k->unroll = 1;
  *budget -= (int64_t)work * (k->unroll + 1);
  if (*budget < 0) *budget = 0;
  if (!coords && !k->empty) plan_nan_redo(a, k, budget);
  k->straight = !coords && !k->multi && !k->empty && k->total_fixed <= LOWER_MAX_STRAIGHT &&
                k->total_fixed >= 0 && k->total_fixed * work <= LOWER_MAX_STRAIGHT_WORK &&
                k->total_fixed * work <= *budget;
  if (k->straight) {
    *budget -= k->total_fixed * work;
    plan_straight(&c);
  }
  if (!coords && !k->multi) plan_row_select(k);
  if (!coords && !k->multi) plan_streaming(k);
  if (!coords && !k->empty) plan_vectors(k);
  if (coords) plan_truth(k);
}

lower_program *lower_spec(const sema_program *sp, int unroll) {
  lower_program *volatile lp = calloc(1, sizeof *lp); /* volatile: survives longjmp */
  jmp_buf oom;
  if (lp == NULL) return NULL;
  arena_init(&lp->arena);
  if (setjmp(oom)) {
    arena_free(&lp->arena);
    free(lp);
    return NULL;
  }
  lp->arena.oom = &oom;
  lp->sp = sp;
  lp->unroll = unroll > 0 ? unroll : sp->unroll > 0 ? sp->unroll : DEFAULT_UNROLL;
  lp->n_kernels = sp->n_kernels;
  lp->kernels = arena_array(&lp->arena, (size_t)(sp->n_kernels ? sp->n_kernels : 1),
                            sizeof *lp->kernels);
  int64_t budget = LOWER_MAX_TOTAL_WORK;
  for (int i = 0; i < sp->n_kernels; i++)
    lower_kernel_plan(&lp->arena, &sp->kernels[i], &lp->kernels[i], lp->unroll, &budget);
  lp->arena.oom = NULL;
  return lp;
}

void lower_free(lower_program *lp) {
  if (lp == NULL) return;
  arena_free(&lp->arena);
  free(lp);
}
