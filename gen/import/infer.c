/* infer.c: dtypes and shapes of every node's outputs by ONNX's inference rules (the
   operators around element-wise regions: convolutions, pools, normalizations, matrix
   products, the shape and data-movement operators, reductions, recurrences, control flow),
   symbolic extents and their reconciliation, and the folding of constant sub-graphs
   (integer shape arithmetic and data movement, exactly), so that exporters' graphs with
   no value_info get the types their element-wise regions need. Never trusts the model:
   every attribute, constant and rank is checked before use. */
#define _POSIX_C_SOURCE 200809L

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <string.h>

#include "front/sema.h"
#include "import/graph.h"
#include "import/infer_ctx.h"


/* ---- symbols ------------------------------------------------------------------------- */

static int sym_root(const import_graph *gr, int s) {
  while (gr->sym_parent[s] != s) s = gr->sym_parent[s];
  return s;
}

/* a op b of two fixed extents; -1 when it overflows, divides by 0 or is negative. */
static int64_t fixed_op(char op, int64_t a, int64_t b) {
  int64_t r;
  switch (op) {
  case '+': return __builtin_add_overflow(a, b, &r) || r < 0 ? -1 : r;
  case '-': return __builtin_sub_overflow(a, b, &r) || r < 0 ? -1 : r;
  case '*': return __builtin_mul_overflow(a, b, &r) || r < 0 ? -1 : r;
  default: return b <= 0 || a < 0 ? -1 : a / b; /* extents: truncation is floor */
  }
}

int64_t graph_dim(const import_graph *gr, int64_t d) {
  if (d >= 0) return d;
  int s = (int)(-d - 1), r = sym_root(gr, s);
  if (gr->sym_value[r] >= 0) return gr->sym_value[r];
  if (gr->sym_op[s]) { /* an expression: fixed once its operands are (earlier symbols) */
    int64_t a = graph_dim(gr, gr->sym_a[s]), b = graph_dim(gr, gr->sym_b[s]);
    if (a >= 0 && b >= 0 && fixed_op(gr->sym_op[s], a, b) >= 0) return fixed_op(gr->sym_op[s], a, b);
  }
  return WC_SYM(r);
}

int64_t graph_dim_expr(import_graph *gr, char op, int64_t a, int64_t b) {
  a = graph_dim(gr, a);
  b = graph_dim(gr, b);
  if (a >= 0 && b >= 0) return fixed_op(op, a, b) >= 0 ? fixed_op(op, a, b) : WC_SYM(graph_new_sym(gr, NULL));
  if ((op == '*' && b == 1) || (op != '*' && op != '/' && b == 0) || (op == '/' && b == 1)) return a;
  if ((op == '*' && a == 1) || (op == '+' && a == 0)) return b;
  if (a < 0 && b >= 0 && (op == '+' || op == '-')) { /* (x + c) - c and (x - c) + c are x */
    int s = (int)(-a - 1);
    if (gr->sym_op[s] == (op == '+' ? '-' : '+') && gr->sym_b[s] == b) return graph_dim(gr, gr->sym_a[s]);
  }
  if ((op == '+' || op == '*') && a > b) { /* one order for the commutative ones */
    int64_t t = a;
    a = b;
    b = t;
  }
  for (int s = 0; s < gr->n_syms; s++)
    if (gr->sym_op[s] == op && graph_dim(gr, gr->sym_a[s]) == a && graph_dim(gr, gr->sym_b[s]) == b)
      return graph_dim(gr, WC_SYM(s));
  int s = graph_new_sym(gr, NULL);
  gr->sym_op[s] = op;
  gr->sym_a[s] = a;
  gr->sym_b[s] = b;
  return WC_SYM(s);
}

int64_t fresh(import_graph *gr) { return WC_SYM(graph_new_sym(gr, NULL)); }

/* Records that dims a and b (resolved) are one extent. False when both are fixed and differ. */
bool unify(import_graph *gr, int64_t a, int64_t b) {
  a = graph_dim(gr, a);
  b = graph_dim(gr, b);
  if (a == b) return true;
  if (a >= 0 && b >= 0) return false;
  if (a >= 0 || b >= 0) {
    int64_t s = a < 0 ? a : b, c = a < 0 ? b : a;
    gr->sym_value[-s - 1] = c;
    return true;
  }
  int ra = (int)(-a - 1), rb = (int)(-b - 1);
  if (ra < rb) gr->sym_parent[rb] = ra;
  else gr->sym_parent[ra] = rb;
  return true;
}

/* ONNX's multidirectional broadcasting, symbols reconciled as equal (the common case: the
   runtime checks the extents it is given). False when fixed extents disagree. */
static bool bcast(import_graph *gr, const ast_shape *a, const ast_shape *b, ast_shape *out) {
  ast_shape r = {a->rank > b->rank ? a->rank : b->rank, {0}};
  for (int d = 0; d < r.rank; d++) {
    int     ia = d - (r.rank - a->rank), ib = d - (r.rank - b->rank);
    int64_t x = ia >= 0 ? graph_dim(gr, a->dims[ia]) : 1,
            y = ib >= 0 ? graph_dim(gr, b->dims[ib]) : 1;
    if (x == y || y == 1) r.dims[d] = x;
    else if (x == 1) r.dims[d] = y;
    else if (!unify(gr, x, y)) return false;
    else r.dims[d] = graph_dim(gr, x);
  }
  *out = r;
  return true;
}

/* ---- inputs and constants ----------------------------------------------------------- */

void refuse(const ctx *c, const char *why) {
  if (!*c->why) *c->why = why;
}

/* s as "[2,batch,?]" in the arena, for refuse()'s reasons. */
const char *shape_text(const ctx *c, const ast_shape *s) {
  char   buf[WC_MAX_RANK * 24 + 3];
  size_t n = 0;
  buf[n++] = '[';
  for (int d = 0; d < s->rank; d++) {
    int64_t e = graph_dim(c->gr, s->dims[d]);
    n += (size_t)snprintf(buf + n, sizeof buf - n, "%s", d ? "," : "");
    if (e >= 0) n += (size_t)snprintf(buf + n, sizeof buf - n, "%lld", (long long)e);
    else n += (size_t)snprintf(buf + n, sizeof buf - n, "%.20s", c->gr->syms[-e - 1]);
  }
  snprintf(buf + n, sizeof buf - n, "]");
  return graph_fmt(c->gr, "%s", buf);
}

graph_value *in_val(const ctx *c, int k) {
  return k < c->n->n_inputs && c->ni->in[k] >= 0 ? &c->gr->vals[c->ni->in[k]] : NULL;
}

wc_dtype in_dtype(const ctx *c, int k) {
  graph_value *v = in_val(c, k);
  return v ? v->dtype : (wc_dtype)0;
}

bool in_shape(const ctx *c, int k, ast_shape *s) {
  graph_value *v = in_val(c, k);
  if (!v || !v->shaped) return false;
  *s = v->shape;
  for (int d = 0; d < s->rank; d++) s->dims[d] = graph_dim(c->gr, s->dims[d]);
  return true;
}

int64_t attr_i(const onnx_node *n, const char *name, int64_t dflt) {
  const onnx_attr *a = graph_attr(n, name);
  return a && a->has_i ? a->i : dflt;
}

const onnx_attr *attr_ints(const onnx_node *n, const char *name) {
  const onnx_attr *a = graph_attr(n, name);
  return a && a->n_ints > 0 ? a : NULL;
}

static bool small_count(const int64_t *dims, int rank, size_t size, size_t *count) {
  size_t n = 1;
  for (int d = 0; d < rank; d++) {
    if (dims[d] < 0) return false;
    if (dims[d] == 0) n = 0;
    else if (n > FOLD_MAX / (size_t)dims[d]) return false;
    else n *= (size_t)dims[d];
  }
  if (size && n > FOLD_MAX / size) return false;
  *count = n;
  return true;
}

/* The value of constant v, when it is small and of a fixed-size wherec dtype. */
static bool const_of(const ctx *c, const graph_value *v, cval *out) {
  if (!v || !v->constant || v->dtype == 0 || v->dtype == WC_STRING) return false;
  const onnx_tensor *t = v->constant;
  size_t             size = wc_dtype_size(v->dtype), n;
  if (t->rank > WC_MAX_RANK || !small_count(t->dims, t->rank, size, &n)) return false;
  wc_tensor w;
  char     *strings;
  if (!onnx_tensor_to_wc(t, &w, &strings, NULL, 0)) return false;
  out->t = v->dtype;
  out->s.rank = t->rank;
  for (int d = 0; d < t->rank; d++) out->s.dims[d] = t->dims[d];
  out->n = n;
  out->data = graph_alloc(c->gr, n * size, 1);
  if (n) memcpy(out->data, w.data, n * size);
  free(w.data);
  free(strings);
  return true;
}

bool const_in(const ctx *c, int k, cval *out) { return const_of(c, in_val(c, k), out); }

bool is_int(wc_dtype t) {
  ast_dtype_class k = ast_dtype_class_of(t);
  return k == AST_CLASS_SINT || k == AST_CLASS_UINT || k == AST_CLASS_BOOL;
}

/* Element i of an integer constant as int64 (uint64 beyond INT64_MAX wraps, as a cast). */
int64_t geti(const cval *v, size_t i) {
  const uint8_t *p = v->data + i * wc_dtype_size(v->t);
  switch (v->t) {
  case WC_BOOL:
  case WC_UINT8: return *p;
  case WC_INT8: return (int8_t)*p;
  case WC_INT16: {
    int16_t x;
    memcpy(&x, p, 2);
    return x;
  }
  case WC_UINT16: {
    uint16_t x;
    memcpy(&x, p, 2);
    return x;
  }
  case WC_INT32: {
    int32_t x;
    memcpy(&x, p, 4);
    return x;
  }
  case WC_UINT32: {
    uint32_t x;
    memcpy(&x, p, 4);
    return x;
  }
  case WC_INT64: {
    int64_t x;
    memcpy(&x, p, 8);
    return x;
  }
  case WC_UINT64: {
    uint64_t x;
    memcpy(&x, p, 8);
    return (int64_t)x;
  }
  default: return 0;
  }
}

void seti(cval *v, size_t i, int64_t x) {
  uint8_t *p = v->data + i * wc_dtype_size(v->t);
  uint64_t u = (uint64_t)x;
  if (v->t == WC_BOOL) u = x != 0;
  for (size_t b = 0; b < wc_dtype_size(v->t); b++) p[b] = (uint8_t)(u >> (8 * b));
}

/* An integer constant's elements as int64 (a 1-D list: shapes, axes, pads ...). */
bool ints_in(const ctx *c, int k, int64_t **vals, size_t *n) {
  cval v;
  if (!const_in(c, k, &v) || !is_int(v.t)) return false;
  *vals = graph_alloc(c->gr, v.n, sizeof **vals);
  for (size_t i = 0; i < v.n; i++) (*vals)[i] = geti(&v, i);
  *n = v.n;
  return true;
}

/* Input k as a list of extents: an integer constant, or a symbolic vector (svec). */
bool dims_in(const ctx *c, int k, int64_t **vals, bool **sym, size_t *n) {
  if (ints_in(c, k, vals, n)) {
    *sym = graph_alloc(c->gr, *n, sizeof **sym);
    return true;
  }
  graph_value *v = in_val(c, k);
  if (!v) return false;
  const svec *s = &c->sv[v - c->gr->vals];
  if (s->n < 0) return false;
  *n = (size_t)s->n;
  *vals = graph_alloc(c->gr, *n, sizeof **vals);
  *sym = graph_alloc(c->gr, *n, sizeof **sym);
  for (size_t i = 0; i < *n; i++) {
    (*vals)[i] = s->sym[i] ? graph_dim(c->gr, s->v[i]) : s->v[i];
    (*sym)[i] = s->sym[i] && (*vals)[i] < 0;
  }
  return true;
}

void set_const(const ctx *c, int k, const cval *v);
bool new_cval(const ctx *c, wc_dtype t, const ast_shape *s, cval *out);

/* Output k's symbolic vector (n elements, copied); a constant when no element is symbolic
   (the fixed part of a symbolic shape, or none of it: a Slice of the extents after the
   last). */
static void set_sv(const ctx *c, int k, size_t n, const int64_t *v, const bool *sym) {
  bool any = false;
  for (size_t i = 0; i < n; i++) any = any || sym[i];
  if (n > WC_MAX_RANK || k >= c->n->n_outputs || c->n->outputs[k][0] == '\0') return;
  int o = graph_find(c->gr, c->n->outputs[k]);
  if (o < 0) return;
  cval               cv;
  const graph_value *ov = &c->gr->vals[o]; /* of the shape set_out gave it: [n], or [] */
  if (!any) {
    if (is_int(ov->dtype) && ov->shaped && ov->shape.rank <= 1 &&
        (ov->shape.rank == 0 ? n == 1 : ov->shape.dims[0] == (int64_t)n) &&
        new_cval(c, ov->dtype, &ov->shape, &cv)) {
      for (size_t i = 0; i < n; i++) seti(&cv, i, v[i]);
      set_const(c, k, &cv);
    }
    return;
  }
  svec *s = &c->sv[o];
  s->n = (int)n;
  s->v = graph_alloc(c->gr, n, sizeof *s->v);
  s->sym = graph_alloc(c->gr, n, sizeof *s->sym);
  memcpy(s->v, v, n * sizeof *v);
  memcpy(s->sym, sym, n * sizeof *sym);
}

/* Passes input 0's symbolic vector through unchanged (Squeeze, Unsqueeze, Cast, Identity, a
   1-D Reshape). */
static void pass_sv(const ctx *c) {
  int64_t *v;
  bool    *sym;
  size_t   n;
  if (!in_val(c, 0) || c->sv[c->ni->in[0]].n < 0 || !is_int(in_dtype(c, 0))) return;
  if (dims_in(c, 0, &v, &sym, &n)) set_sv(c, 0, n, v, sym);
}

bool new_cval(const ctx *c, wc_dtype t, const ast_shape *s, cval *out) {
  size_t n, size = wc_dtype_size(t);
  if (size == 0 || t == WC_STRING || !small_count(s->dims, s->rank, size, &n)) return false;
  if (*c->folded + n * size > FOLD_MAX_TOTAL) return false;
  *c->folded += n * size;
  out->t = t;
  out->s = *s;
  out->n = n;
  out->data = graph_alloc(c->gr, n * size, 1);
  return true;
}

static const onnx_tensor *to_tensor(const ctx *c, const cval *v) {
  onnx_tensor *t = graph_alloc(c->gr, 1, sizeof *t);
  t->name = "";
  t->data_type = (int32_t)v->t;
  t->rank = v->s.rank;
  t->dims = graph_alloc(c->gr, (size_t)v->s.rank, sizeof *t->dims);
  for (int d = 0; d < v->s.rank; d++) t->dims[d] = v->s.dims[d];
  t->has_raw = true;
  t->raw.data = v->data;
  t->raw.len = v->n * wc_dtype_size(v->t);
  return t;
}

/* ---- outputs -------------------------------------------------------------------------- */

static void print_shape(FILE *f, const import_graph *gr, wc_dtype t, int32_t elem,
                        const ast_shape *s) {
  fprintf(f, "%s", t ? wc_dtype_name(t) : graph_dtype_label(gr, elem));
  if (!s) return;
  fputc('[', f);
  for (int d = 0; d < s->rank; d++) {
    int64_t x = graph_dim(gr, s->dims[d]);
    if (x >= 0) fprintf(f, "%s%lld", d ? "," : "", (long long)x);
    else fprintf(f, "%s%s", d ? "," : "", gr->syms[-x - 1]);
  }
  fputc(']', f);
}

/* Output k of the node gets dtype t (0: unknown) and shape s (NULL: unknown). Where the
   model's value_info gave one already, it stays, and a disagreement is noted. */
void set_out(const ctx *c, int k, wc_dtype t, const ast_shape *s) {
  import_graph *gr = c->gr;
  if (k >= c->n->n_outputs || c->n->outputs[k][0] == '\0') return;
  int v = graph_find(gr, c->n->outputs[k]);
  if (v < 0) return;
  graph_value *o = &gr->vals[v];
  bool         clash = false;
  if (t && o->elem && o->elem != (int32_t)t) clash = true;
  if (s && o->shaped) {
    if (o->shape.rank != s->rank) clash = true;
    for (int d = 0; !clash && d < s->rank; d++) {
      int64_t a = graph_dim(gr, o->shape.dims[d]), b = graph_dim(gr, s->dims[d]);
      if (a >= 0 && b >= 0 && a != b) clash = true;
      else if (a < 0 || b < 0) unify(gr, a, b);
    }
  }
  if (clash && c->quiet) return;
  if (clash) {
    fprintf(gr->log, "wherec: warning: value '%s': the model's value_info says ", o->name);
    print_shape(gr->log, gr, o->dtype, o->elem, o->shaped ? &o->shape : NULL);
    fprintf(gr->log, ", inference by %s's rule gives ", c->n->op_type);
    print_shape(gr->log, gr, t, (int32_t)t, s);
    fprintf(gr->log, "; the value_info is kept\n");
    return;
  }
  if (t && o->elem == 0) {
    o->elem = (int32_t)t;
    o->dtype = t;
  }
  if (s && !o->shaped && s->rank <= WC_MAX_RANK) {
    o->shape = *s;
    o->shaped = true;
  }
}

void set_const(const ctx *c, int k, const cval *v) {
  set_out(c, k, v->t, &v->s);
  if (k >= c->n->n_outputs || c->n->outputs[k][0] == '\0') return;
  int vi = graph_find(c->gr, c->n->outputs[k]);
  if (vi < 0) return;
  graph_value *o = &c->gr->vals[vi];
  if (o->elem != (int32_t)v->t || o->is_output)
    return; /* value_info disagrees, or runtime-visible */
  o->constant = to_tensor(c, v);
  c->gr->nodes[o->producer].folded = true;
}

/* ---- shape rules -------------------------------------------------------------------------- */

static int norm_axis(int64_t a, int rank, bool *ok) {
  if (a < -rank || a >= rank) {
    *ok = false;
    return 0;
  }
  return (int)(a < 0 ? a + rank : a);
}

/* norm_axis, refusing an axis out of range with the reason. */
int axis_in(const ctx *c, int64_t a, int rank, bool *ok) {
  bool was = *ok;
  int  r = norm_axis(a, rank, ok);
  if (was && !*ok)
    refuse(c, graph_fmt(c->gr, "axis %lld is out of range for rank %d", (long long)a, rank));
  return r;
}

/* Output extent of a convolution or pool along one axis. */
static int64_t window_out(import_graph *gr, int64_t in, int64_t k, int64_t stride, int64_t dil,
                          int64_t pb, int64_t pe, const char *auto_pad, bool ceil_mode) {
  if (stride < 1 || dil < 1 || k < 1 || pb < 0 || pe < 0 || k > INT32_MAX || dil > INT32_MAX ||
      pb > INT32_MAX || pe > INT32_MAX)
    return fresh(gr);
  int64_t eff = (k - 1) * dil + 1;
  bool    same = auto_pad &&
              (strcmp(auto_pad, "SAME_UPPER") == 0 || strcmp(auto_pad, "SAME_LOWER") == 0);
  bool valid = auto_pad && strcmp(auto_pad, "VALID") == 0;
  if (in < 0) { /* symbolic: the extent stays the expression of it */
    if (stride == 1 && (same || (!valid && pb + pe == eff - 1))) return in;
    if (same) return graph_dim_expr(gr, '/', graph_dim_expr(gr, '+', in, stride - 1), stride);
    if (valid) pb = pe = 0;
    int64_t off = pb + pe - eff; /* span = in + off */
    int64_t span = off >= 0 ? graph_dim_expr(gr, '+', in, off) : graph_dim_expr(gr, '-', in, -off);
    if (ceil_mode) span = graph_dim_expr(gr, '+', span, stride - 1);
    return graph_dim_expr(gr, '+', graph_dim_expr(gr, '/', span, stride), 1);
  }
  if (in > INT64_MAX / 4) return fresh(gr);
  if (same) return (in + stride - 1) / stride;
  if (valid) pb = pe = 0;
  int64_t span = in + pb + pe - eff;
  if (span < 0) return fresh(gr);
  return (ceil_mode ? (span + stride - 1) / stride : span / stride) + 1;
}

const char *attr_str(const onnx_node *n, const char *name, char *buf, size_t cap) {
  const onnx_attr *a = graph_attr(n, name);
  if (!a || !a->has_s) return NULL;
  size_t len = a->s.len < cap - 1 ? a->s.len : cap - 1;
  memcpy(buf, a->s.data, len);
  buf[len] = '\0';
  return buf;
}

/* Conv, ConvTranspose, the pools: [N, C_out, spatial...]. */
void rule_window(const ctx *c, bool conv, bool transpose, int w_in) {
  ast_shape x, w = {0, {0}};
  if (!in_shape(c, 0, &x) && conv && in_shape(c, w_in, &w) && w.rank >= 3) {
    /* X of no known rank: W's rank is X's, and W gives the output channels */
    int64_t   group = attr_i(c->n, "group", 1);
    ast_shape o = {w.rank, {fresh(c->gr)}};
    o.dims[1] = !transpose ? w.dims[0]
                : w.dims[1] >= 0 && group > 0 && group < INT32_MAX && w.dims[1] < INT32_MAX
                    ? w.dims[1] * group
                    : fresh(c->gr);
    for (int d = 2; d < w.rank; d++) o.dims[d] = fresh(c->gr);
    set_out(c, 0, c->t, &o);
    return;
  }
  if (!in_shape(c, 0, &x) || x.rank < 3) {
    if (in_shape(c, 0, &x))
      refuse(c, graph_fmt(c->gr, "X is %s; %s wants a batch, channels and a spatial axis at least",
                          shape_text(c, &x), c->n->op_type));
    set_out(c, 0, c->t, NULL);
    return;
  }
  int              sp = x.rank - 2;
  const onnx_attr *ks = attr_ints(c->n, "kernel_shape"), *st = attr_ints(c->n, "strides"),
                  *dl = attr_ints(c->n, "dilations"), *pd = attr_ints(c->n, "pads"),
                  *op = attr_ints(c->n, "output_padding"), *os = attr_ints(c->n, "output_shape");
  bool        have_w = conv && in_shape(c, w_in, &w) && w.rank == x.rank;
  char        apb[32];
  const char *ap = attr_str(c->n, "auto_pad", apb, sizeof apb);
  ast_shape   o = x;
  if (conv) {
    int64_t group = attr_i(c->n, "group", 1);
    o.dims[1] = !have_w      ? fresh(c->gr)
                : !transpose ? w.dims[0]
                : w.dims[1] >= 0 && group > 0 && group < INT32_MAX && w.dims[1] < INT32_MAX
                    ? w.dims[1] * group
                    : fresh(c->gr);
  }
  for (int d = 0; d < sp; d++) {
    int64_t k = ks && ks->n_ints == sp ? ks->ints[d] : have_w ? w.dims[2 + d] : -1;
    int64_t s = st && st->n_ints == sp ? st->ints[d] : 1;
    int64_t dil = dl && dl->n_ints == sp ? dl->ints[d] : 1;
    int64_t pb = pd && pd->n_ints == 2 * sp ? pd->ints[d] : 0;
    int64_t pe = pd && pd->n_ints == 2 * sp ? pd->ints[sp + d] : 0;
    int64_t in = x.dims[2 + d];
    const char *bad = s < 1 ? "stride" : dil < 1 ? "dilation" : pb < 0 || pe < 0 ? "pad" : NULL;
    if (bad || (ks && ks->n_ints == sp && k < 1)) {
      refuse(c, bad ? graph_fmt(c->gr, "a %s of %lld along axis %d", bad,
                                (long long)(bad[0] == 's' ? s : bad[0] == 'd' ? dil : pb < 0 ? pb : pe), 2 + d)
                    : graph_fmt(c->gr, "a kernel extent of %lld along axis %d", (long long)k, 2 + d));
      set_out(c, 0, c->t, NULL);
      return;
    }
    int64_t eff = k >= 1 && dil <= INT32_MAX && k <= INT32_MAX ? (k - 1) * dil + 1 : -1;
    bool    padded = !ap || strcmp(ap, "NOTSET") == 0;
    if (!transpose && in >= 0 && eff > 0 && padded && in <= INT32_MAX && pb <= INT32_MAX &&
        pe <= INT32_MAX && in + pb + pe < eff) {
      refuse(c, graph_fmt(c->gr, "the window (%lld) is longer than the padded input (%lld) along "
                          "axis %d", (long long)eff, (long long)(in + pb + pe), 2 + d));
      set_out(c, 0, c->t, NULL);
      return;
    }
    if (!transpose) {
      o.dims[2 + d] = k < 0 ? fresh(c->gr)
                            : window_out(c->gr, in, k, s, dil, pb, pe, ap,
                                         attr_i(c->n, "ceil_mode", 0) != 0);
      continue;
    }
    int64_t opd = op && op->n_ints == sp ? op->ints[d] : 0;
    if (os && os->n_ints == sp && os->ints[d] >= 0) o.dims[2 + d] = os->ints[d];
    else if (in < 0 || k < 1 || s < 1 || dil < 1 || in > INT32_MAX || k > INT32_MAX ||
             s > INT32_MAX || dil > INT32_MAX || opd < 0 || opd > INT32_MAX || pb < 0 || pe < 0 ||
             pb > INT32_MAX || pe > INT32_MAX)
      o.dims[2 + d] = fresh(c->gr);
    else if (ap && strncmp(ap, "SAME", 4) == 0) o.dims[2 + d] = in * s;
    else {
      int64_t e = s * (in - 1) + opd + (k - 1) * dil + 1 - pb - pe;
      o.dims[2 + d] = e >= 0 ? e : fresh(c->gr);
    }
  }
  set_out(c, 0, c->t, &o);
  if (c->n->n_outputs > 1) set_out(c, 1, WC_INT64, &o); /* MaxPool's indices */
}

void infer_global_pool(const ctx *c) {
  ast_shape x;
  if (!in_shape(c, 0, &x) || x.rank < 2) {
    set_out(c, 0, in_dtype(c, 0), NULL);
    return;
  }
  for (int d = 2; d < x.rank; d++) x.dims[d] = 1;
  set_out(c, 0, in_dtype(c, 0), &x);
}

void infer_same(const ctx *c) { /* the dtype the row's type rule gives */
  ast_shape x;
  bool      ok = in_shape(c, 0, &x);
  set_out(c, 0, c->t, ok ? &x : NULL);
}

void infer_gemm(const ctx *c) {
  ast_shape a, b;
  if (!in_shape(c, 0, &a) || !in_shape(c, 1, &b) || a.rank != 2 || b.rank != 2) {
    set_out(c, 0, in_dtype(c, 0), NULL);
    return;
  }
  ast_shape o = {
      2,
      {a.dims[attr_i(c->n, "transA", 0) ? 1 : 0], b.dims[attr_i(c->n, "transB", 0) ? 0 : 1]}};
  set_out(c, 0, in_dtype(c, 0), &o);
}

void rule_matmul(const ctx *c, wc_dtype t, int b_in) {
  ast_shape a, b;
  if (!in_shape(c, 0, &a) || !in_shape(c, b_in, &b) || a.rank < 1 || b.rank < 1) {
    set_out(c, 0, t, NULL);
    return;
  }
  ast_shape ba = {a.rank > 2 ? a.rank - 2 : 0, {0}}, bb = {b.rank > 2 ? b.rank - 2 : 0, {0}}, o;
  memcpy(ba.dims, a.dims, sizeof(int64_t) * (size_t)ba.rank);
  memcpy(bb.dims, b.dims, sizeof(int64_t) * (size_t)bb.rank);
  if (!bcast(c->gr, &ba, &bb, &o)) {
    set_out(c, 0, t, NULL);
    return;
  }
  if (a.rank >= 2) o.dims[o.rank++] = a.dims[a.rank - 2];
  if (b.rank >= 2) o.dims[o.rank++] = b.dims[b.rank - 1];
  unify(c->gr, a.dims[a.rank - 1], b.dims[b.rank >= 2 ? b.rank - 2 : 0]);
  set_out(c, 0, t, o.rank <= WC_MAX_RANK ? &o : NULL);
}

/* Total elements of s, or -1 when symbolic or past int64. */
static int64_t count_of(const ast_shape *s) {
  int64_t n = 1;
  for (int d = 0; d < s->rank; d++) {
    if (s->dims[d] < 0) return -1;
    if (s->dims[d] && n > INT64_MAX / s->dims[d]) return -1;
    n *= s->dims[d];
  }
  return n;
}

static bool reshape_to(const ctx *c, const ast_shape *x, const int64_t *sh, const bool *sym,
                       size_t n, bool allowzero, ast_shape *o) {
  if (n > WC_MAX_RANK) {
    refuse(c, graph_fmt(c->gr, "a shape of %zu dimensions (wherec takes %d)", n, WC_MAX_RANK));
    return false;
  }
  o->rank = (int)n;
  int     minus = -1;
  int64_t known = 1;
  for (size_t d = 0; d < n; d++) {
    int64_t e = sh[d];
    if (sym && sym[d]) {
      o->dims[d] = e;
      continue;
    }
    if (e == 0 && !allowzero) {
      if (x && (int)d >= x->rank)
        refuse(c, graph_fmt(c->gr, "the shape's 0 at %zu copies an extent past the input's rank %d",
                            d, x->rank));
      if (!x || (int)d >= x->rank) return false;
      e = x->dims[d];
    } else if (e == -1) {
      if (minus >= 0) refuse(c, "the shape has two -1s");
      if (minus >= 0) return false;
      minus = (int)d;
      continue;
    } else if (e < 0) {
      refuse(c, graph_fmt(c->gr, "the shape has the extent %lld", (long long)e));
      return false;
    }
    o->dims[d] = e;
    if (e < 0) known = -1;
    else if (known >= 0 && e && known <= INT64_MAX / e) known *= e;
    else if (e) known = -1;
    else known = 0;
  }
  if (minus >= 0) {
    /* the symbols the new shape names cancel those of x; the rest must be fixed */
    ast_shape rest = {0, {0}};
    bool      used[WC_MAX_RANK] = {false}, ok = x != NULL;
    int64_t   k2 = 1;
    for (int d = 0; ok && d < x->rank; d++) rest.dims[rest.rank++] = x->dims[d];
    for (size_t d = 0; ok && d < n; d++) {
      if ((int)d == minus) continue;
      int64_t e = o->dims[d];
      int     j = 0;
      while (j < rest.rank && (used[j] || rest.dims[j] != e)) j++;
      if (j < rest.rank) used[j] = true;
      else if (e >= 0 && e > 0 && k2 <= INT64_MAX / e) k2 *= e;
      else ok = false;
    }
    ast_shape left = {0, {0}};
    for (int j = 0; ok && j < rest.rank; j++)
      if (!used[j]) left.dims[left.rank++] = rest.dims[j];
    int64_t tl = ok ? count_of(&left) : -1;
    if (ok && tl >= 0 && k2 > 0 && tl % k2 == 0) o->dims[minus] = tl / k2;
    else if (ok && k2 == 1 && left.rank == 1) o->dims[minus] = left.dims[0];
    else o->dims[minus] = fresh(c->gr);
    (void)known;
  }
  return true;
}

void infer_reshape(const ctx *c) {
  ast_shape x, o;
  bool      hx = in_shape(c, 0, &x);
  int64_t  *sh = NULL;
  size_t    n = 0;
  bool      ok;
  if (c->gr->opset > 0 && c->gr->opset < 5) {
    const onnx_attr *a = attr_ints(c->n, "shape");
    ok = a && reshape_to(c, hx ? &x : NULL, a->ints, NULL, (size_t)a->n_ints, false, &o);
  } else {
    bool *sym = NULL;
    ok = dims_in(c, 1, &sh, &sym, &n) &&
         reshape_to(c, hx ? &x : NULL, sh, sym, n, attr_i(c->n, "allowzero", 0) != 0, &o);
  }
  if (ok && hx && count_of(&x) >= 0 && count_of(&o) >= 0 && count_of(&x) != count_of(&o)) {
    refuse(c, graph_fmt(c->gr, "%s has %lld elements, the shape %s %lld", shape_text(c, &x),
                        (long long)count_of(&x), shape_text(c, &o), (long long)count_of(&o)));
    ok = false;
  }
  cval v;
  if (ok && const_in(c, 0, &v) && count_of(&o) == (int64_t)v.n) { /* data unchanged */
    v.s = o;
    {
      set_const(c, 0, &v);
      return;
    }
  }
  set_out(c, 0, in_dtype(c, 0), ok ? &o : NULL);
  if (ok && hx && x.rank <= 1 && o.rank <= 1) pass_sv(c); /* a shape vector stays one */
}

void infer_flatten(const ctx *c) {
  ast_shape x;
  if (!in_shape(c, 0, &x)) {
    set_out(c, 0, in_dtype(c, 0), NULL);
    return;
  }
  bool    ok = true;
  int64_t ax = attr_i(c->n, "axis", 1);
  if (ax == x.rank) ax = x.rank; /* allowed: [N, 1] */
  else ax = axis_in(c, ax, x.rank, &ok);
  if (!ok) {
    set_out(c, 0, in_dtype(c, 0), NULL);
    return;
  }
  ast_shape a = {(int)ax, {0}}, b = {x.rank - (int)ax, {0}};
  memcpy(a.dims, x.dims, sizeof(int64_t) * (size_t)a.rank);
  memcpy(b.dims, x.dims + ax, sizeof(int64_t) * (size_t)b.rank);
  int64_t   na = count_of(&a), nb = count_of(&b);
  ast_shape o = {2,
                 {na >= 0       ? na
                  : a.rank == 1 ? a.dims[0]
                                : fresh(c->gr),
                  nb >= 0       ? nb
                  : b.rank == 1 ? b.dims[0]
                                : fresh(c->gr)}};
  cval      v;
  if (const_in(c, 0, &v) && count_of(&o) == (int64_t)v.n) {
    v.s = o;
    {
      set_const(c, 0, &v);
      return;
    }
  }
  set_out(c, 0, in_dtype(c, 0), &o);
}

/* Axes of Squeeze, Unsqueeze, Reduce*: the attribute before opset `input_since`, else input 1. */
static bool axes_of(const ctx *c, int input_since, int64_t **ax, size_t *n, bool *given) {
  *given = false;
  *n = 0;
  if (c->gr->opset >= input_since || c->gr->opset == 0) {
    if (!in_val(c, 1)) return true;
    *given = true;
    return ints_in(c, 1, ax, n);
  }
  const onnx_attr *a = graph_attr(c->n, "axes");
  if (!a || a->n_ints == 0) return true;
  *given = true;
  *ax = a->ints;
  *n = (size_t)a->n_ints;
  return true;
}

static void rule_squeeze(const ctx *c, bool un) {
  ast_shape x, o = {0, {0}};
  int64_t  *ax = NULL;
  size_t    n;
  bool      given, ok = in_shape(c, 0, &x) && axes_of(c, 13, &ax, &n, &given);
  if (ok && un) {
    o.rank = x.rank + (int)n;
    bool mark[WC_MAX_RANK] = {false};
    ok = (size_t)x.rank + n <= WC_MAX_RANK && given;
    for (size_t i = 0; ok && i < n; i++) {
      int a = axis_in(c, ax[i], o.rank, &ok);
      if (ok && mark[a]) {
        refuse(c, graph_fmt(c->gr, "axis %lld is given twice", (long long)ax[i]));
        ok = false;
      }
      if (ok) mark[a] = true;
    }
    for (int d = 0, k = 0; ok && d < o.rank; d++) o.dims[d] = mark[d] ? 1 : x.dims[k++];
  } else if (ok) {
    bool mark[WC_MAX_RANK] = {false};
    for (size_t i = 0; ok && i < n; i++) {
      int a = axis_in(c, ax[i], x.rank, &ok);
      if (ok) mark[a] = true;
    }
    for (int d = 0; ok && d < x.rank; d++) {
      int64_t e = x.dims[d];
      if (given ? mark[d] : e == 1) {
        if (e >= 0 && e != 1) {
          refuse(c, graph_fmt(c->gr, "axis %d of %s has extent %lld, and Squeeze removes 1s", d,
                              shape_text(c, &x), (long long)e));
          ok = false;
        }
        continue;
      }
      if (!given && e < 0) ok = false; /* unknown whether it is 1 */
      o.dims[o.rank++] = e;
    }
  }
  cval v;
  if (ok && const_in(c, 0, &v)) {
    v.s = o;
    {
      set_const(c, 0, &v);
      return;
    }
  }
  set_out(c, 0, in_dtype(c, 0), ok ? &o : NULL);
  if (ok) pass_sv(c);
}

void infer_transpose(const ctx *c) {
  ast_shape x, o;
  if (!in_shape(c, 0, &x)) {
    set_out(c, 0, in_dtype(c, 0), NULL);
    return;
  }
  const onnx_attr *p = attr_ints(c->n, "perm");
  bool             ok = !p || p->n_ints == x.rank, seen[WC_MAX_RANK] = {false};
  if (!ok) refuse(c, graph_fmt(c->gr, "perm has %d axes, the input %s", p->n_ints, shape_text(c, &x)));
  int              perm[WC_MAX_RANK];
  o.rank = x.rank;
  for (int d = 0; ok && d < x.rank; d++) {
    int64_t s = p ? p->ints[d] : x.rank - 1 - d;
    ok = s >= 0 && s < x.rank && !seen[s];
    if (!ok) refuse(c, graph_fmt(c->gr, "perm is no permutation of the %d axes of %s", x.rank,
                                 shape_text(c, &x)));
    if (ok) {
      seen[s] = true;
      o.dims[d] = x.dims[s];
      perm[d] = (int)s;
    }
  }
  cval v, out;
  if (ok && const_in(c, 0, &v) && new_cval(c, v.t, &o, &out)) { /* fold: a shape computation's */
    size_t size = wc_dtype_size(v.t), stride[WC_MAX_RANK], mul = 1;
    for (int d = x.rank - 1; d >= 0; d--) stride[d] = mul, mul *= (size_t)x.dims[d];
    for (size_t i = 0; i < out.n; i++) {
      size_t rem = i, src = 0;
      for (int d = o.rank - 1; d >= 0; d--) {
        src += rem % (size_t)o.dims[d] * stride[perm[d]];
        rem /= (size_t)o.dims[d];
      }
      memcpy(out.data + i * size, v.data + src * size, size);
    }
    set_const(c, 0, &out);
    return;
  }
  set_out(c, 0, in_dtype(c, 0), ok ? &o : NULL);
}

void infer_concat(const ctx *c) {
  ast_shape o, x;
  wc_dtype  t = in_dtype(c, 0);
  bool      ok = c->n->n_inputs > 0 && in_shape(c, 0, &o);
  int       ax = ok ? axis_in(c, attr_i(c->n, "axis", 0), o.rank, &ok) : 0;
  for (int k = 1; ok && k < c->n->n_inputs; k++) {
    ok = in_shape(c, k, &x);
    if (ok && x.rank != o.rank) {
      refuse(c, graph_fmt(c->gr, "input %d is %s, input 0 of rank %d", k, shape_text(c, &x), o.rank));
      ok = false;
    }
    for (int d = 0; ok && d < o.rank; d++) {
      if (d != ax) {
        if (!(ok = unify(c->gr, o.dims[d], x.dims[d])))
          refuse(c, graph_fmt(c->gr, "input %d is %s, whose axis %d differs from the others' (%lld)",
                              k, shape_text(c, &x), d, (long long)graph_dim(c->gr, o.dims[d])));
      } else if (o.dims[d] >= 0 && x.dims[d] >= 0 && o.dims[d] <= INT64_MAX - x.dims[d])
        o.dims[d] += x.dims[d];
      else o.dims[d] = fresh(c->gr);
    }
  }
  /* folding: every input a small constant of one dtype */
  cval out;
  if (ok && t && new_cval(c, t, &o, &out)) {
    size_t outer = 1, size = wc_dtype_size(t), off = 0;
    for (int d = 0; d < ax; d++) outer *= (size_t)o.dims[d];
    bool  all = true;
    cval *parts = graph_alloc(c->gr, (size_t)c->n->n_inputs, sizeof *parts);
    for (int k = 0; all && k < c->n->n_inputs; k++)
      all = const_in(c, k, &parts[k]) && parts[k].t == t;
    for (size_t i = 0; all && i < outer; i++)
      for (int k = 0; k < c->n->n_inputs; k++) {
        size_t chunk = outer ? parts[k].n / outer * size : 0;
        memcpy(out.data + off, parts[k].data + i * chunk, chunk);
        off += chunk;
      }
    if (all) {
      set_const(c, 0, &out);
      return;
    }
  }
  set_out(c, 0, t, ok ? &o : NULL);
  if (ok && o.rank == 1 && is_int(t)) { /* shape lists: constants and symbolic vectors */
    int64_t ov[WC_MAX_RANK], *pv;
    bool    os[WC_MAX_RANK], *ps;
    size_t  m = 0, pn;
    for (int k = 0; k < c->n->n_inputs; k++) {
      if (!dims_in(c, k, &pv, &ps, &pn) || m + pn > WC_MAX_RANK) return;
      memcpy(ov + m, pv, pn * sizeof *pv);
      memcpy(os + m, ps, pn * sizeof *ps);
      m += pn;
    }
    set_sv(c, 0, m, ov, os);
  }
}

void infer_split(const ctx *c) {
  ast_shape        x;
  int              n = c->n->n_outputs;
  bool             ok = in_shape(c, 0, &x) && n > 0;
  int              ax = ok ? axis_in(c, attr_i(c->n, "axis", 0), x.rank, &ok) : 0;
  int64_t         *sp = NULL;
  size_t           ns = 0;
  const onnx_attr *a = attr_ints(c->n, "split");
  if (a) {
    sp = a->ints;
    ns = (size_t)a->n_ints;
  } else if (in_val(c, 1) && !ints_in(c, 1, &sp, &ns)) sp = NULL, ns = 0, ok = ok && false;
  for (int k = 0; k < n; k++) {
    ast_shape o = x;
    if (ok) {
      if (ns == (size_t)n) o.dims[ax] = sp[k] >= 0 ? sp[k] : fresh(c->gr);
      else if (ns == 0 && x.dims[ax] >= 0 && x.dims[ax] % n == 0) o.dims[ax] = x.dims[ax] / n;
      else o.dims[ax] = fresh(c->gr);
    }
    set_out(c, k, in_dtype(c, 0), ok ? &o : NULL);
  }
}

static int64_t clampi(int64_t v, int64_t lo, int64_t hi) { return v < lo ? lo : v > hi ? hi : v; }

void infer_slice(const ctx *c) {
  ast_shape x;
  wc_dtype  t = in_dtype(c, 0);
  if (!in_shape(c, 0, &x)) {
    set_out(c, 0, t, NULL);
    return;
  }
  int64_t *st = NULL, *en = NULL, *ax = NULL, *sp = NULL;
  size_t   n = 0, ne = 0, na = 0, nsp = 0;
  bool     ok;
  if (c->gr->opset > 0 && c->gr->opset < 10) {
    const onnx_attr *a = attr_ints(c->n, "starts"), *b = attr_ints(c->n, "ends"),
                    *d = attr_ints(c->n, "axes");
    ok = a && b && a->n_ints == b->n_ints;
    if (ok) st = a->ints, en = b->ints, n = ne = (size_t)a->n_ints;
    if (ok && d) ax = d->ints, na = (size_t)d->n_ints;
  } else {
    ok = ints_in(c, 1, &st, &n) && ints_in(c, 2, &en, &ne) && n == ne;
    if (ok && in_val(c, 3)) ok = ints_in(c, 3, &ax, &na);
    if (ok && in_val(c, 4)) ok = ints_in(c, 4, &sp, &nsp) && nsp == n;
  }
  if (ok && ax && na != n) ok = false;
  ast_shape o = x;
  int64_t   lo[WC_MAX_RANK], step[WC_MAX_RANK];
  bool      seen[WC_MAX_RANK] = {false};
  for (int d = 0; d < x.rank; d++) lo[d] = 0, step[d] = 1;
  for (size_t i = 0; ok && i < n; i++) {
    int a = axis_in(c, ax ? ax[i] : (int64_t)i, x.rank, &ok);
    if (ok && seen[a]) refuse(c, graph_fmt(c->gr, "axis %d is sliced twice", a));
    if (!ok || seen[a]) {
      ok = false;
      break;
    }
    seen[a] = true;
    int64_t s = sp ? sp[i] : 1, e = x.dims[a];
    if (s == 0) {
      refuse(c, graph_fmt(c->gr, "a step of 0 along axis %d", a));
      ok = false;
      break;
    }
    step[a] = s;
    if (e < 0) { /* symbolic L: a step of 1 from b >= 0 to the end or to -f is L - b, L - b - f */
      if (s == 1 && st[i] >= 0 && st[i] <= INT32_MAX && en[i] >= INT32_MAX)
        o.dims[a] = graph_dim_expr(c->gr, '-', e, st[i]);
      else if (s == 1 && st[i] >= 0 && st[i] <= INT32_MAX && en[i] < 0 && en[i] >= -INT32_MAX)
        o.dims[a] = graph_dim_expr(c->gr, '-', e, st[i] - en[i]);
      else o.dims[a] = fresh(c->gr);
      continue;
    }
    int64_t b = st[i] < 0 ? (st[i] < -e ? 0 : st[i] + e) : st[i];
    int64_t f = en[i] < 0 ? (en[i] < -e ? -1 : en[i] + e) : en[i];
    if (s > 0) {
      b = clampi(b, 0, e);
      f = clampi(f, 0, e);
      o.dims[a] = f > b ? (f - b - 1) / s + 1 : 0;
    } else {
      b = clampi(b, 0, e - 1);
      f = clampi(f, -1, e - 1);
      o.dims[a] = b <= f ? 0 : s < -INT64_MAX ? 1 : (b - f - 1) / (-s) + 1;
    }
    lo[a] = b;
  }
  cval v, out;
  if (ok && const_in(c, 0, &v) && new_cval(c, t, &o, &out)) { /* fold */
    size_t size = wc_dtype_size(t);
    for (size_t i = 0; i < out.n; i++) {
      size_t rem = i, src = 0, mul = 1;
      for (int d = o.rank - 1; d >= 0; d--) {
        size_t  id = rem % (size_t)o.dims[d];
        int64_t sd = lo[d] + (int64_t)id * step[d];
        rem /= (size_t)o.dims[d];
        src += (size_t)sd * mul;
        mul *= (size_t)x.dims[d];
      }
      memcpy(out.data + i * size, v.data + src * size, size);
    }
    {
      set_const(c, 0, &out);
      return;
    }
  }
  set_out(c, 0, t, ok ? &o : NULL);
  int64_t *sv;
  bool    *sym;
  size_t   nv;
  if (ok && x.rank == 1 && o.dims[0] >= 0 && dims_in(c, 0, &sv, &sym, &nv) &&
      nv == (size_t)x.dims[0]) {
    int64_t ov[WC_MAX_RANK];
    bool    os[WC_MAX_RANK];
    for (int64_t i = 0; i < o.dims[0] && i < WC_MAX_RANK; i++) {
      int64_t src = lo[0] + i * step[0];
      ov[i] = sv[src];
      os[i] = sym[src];
    }
    if (o.dims[0] <= WC_MAX_RANK) set_sv(c, 0, (size_t)o.dims[0], ov, os);
  }
}

void infer_gather(const ctx *c) {
  ast_shape x, ix;
  wc_dtype  t = in_dtype(c, 0);
  bool      ok = in_shape(c, 0, &x) && in_shape(c, 1, &ix) && x.rank >= 1;
  int       ax = ok ? axis_in(c, attr_i(c->n, "axis", 0), x.rank, &ok) : 0;
  ast_shape o = {0, {0}};
  if (ok && x.rank - 1 + ix.rank > WC_MAX_RANK) ok = false;
  if (ok) {
    for (int d = 0; d < ax; d++) o.dims[o.rank++] = x.dims[d];
    for (int d = 0; d < ix.rank; d++) o.dims[o.rank++] = ix.dims[d];
    for (int d = ax + 1; d < x.rank; d++) o.dims[o.rank++] = x.dims[d];
  }
  cval v, iv, out;
  if (ok && const_in(c, 1, &iv) && is_int(iv.t) && x.dims[ax] >= 0) /* indices known: in range */
    for (size_t i = 0; i < iv.n && ok; i++)
      if (geti(&iv, i) < -x.dims[ax] || geti(&iv, i) >= x.dims[ax]) {
        refuse(c, graph_fmt(c->gr, "index %lld is out of range for extent %lld",
                            (long long)geti(&iv, i), (long long)x.dims[ax]));
        ok = false;
      }
  if (ok && const_in(c, 0, &v) && const_in(c, 1, &iv) && is_int(iv.t) && x.dims[ax] > 0 &&
      new_cval(c, t, &o, &out)) {
    size_t size = wc_dtype_size(t), inner = 1, outer = 1, e = (size_t)x.dims[ax];
    for (int d = ax + 1; d < x.rank; d++) inner *= (size_t)x.dims[d];
    for (int d = 0; d < ax; d++) outer *= (size_t)x.dims[d];
    bool in_range = true;
    for (size_t i = 0; i < iv.n && in_range; i++) {
      int64_t k = geti(&iv, i);
      if (k < -(int64_t)e || k >= (int64_t)e) {
        refuse(c, graph_fmt(c->gr, "index %lld is out of range for extent %zu", (long long)k, e));
        in_range = false;
      }
    }
    for (size_t a = 0; in_range && a < outer; a++)
      for (size_t i = 0; i < iv.n; i++) {
        int64_t k = geti(&iv, i);
        size_t  idx = (size_t)(k < 0 ? k + (int64_t)e : k);
        memcpy(out.data + ((a * iv.n + i) * inner) * size, v.data + ((a * e + idx) * inner) * size,
               inner * size);
      }
    if (in_range) {
      set_const(c, 0, &out);
      return;
    }
  }
  set_out(c, 0, t, ok ? &o : NULL);
  int64_t *sv, *ix_v;
  bool    *sym;
  size_t   nv, ni;
  if (ok && x.rank == 1 && ix.rank <= 1 && dims_in(c, 0, &sv, &sym, &nv) &&
      ints_in(c, 1, &ix_v, &ni) && ni <= WC_MAX_RANK) {
    int64_t ov[WC_MAX_RANK];
    bool    os[WC_MAX_RANK];
    for (size_t i = 0; i < ni; i++) {
      int64_t k = ix_v[i] < 0 ? ix_v[i] + (int64_t)nv : ix_v[i];
      if (k < 0 || k >= (int64_t)nv) return;
      ov[i] = sv[k];
      os[i] = sym[k];
    }
    bool any = false;
    for (size_t i = 0; i < ni; i++) any = any || os[i];
    if (!any && is_int(t) && new_cval(c, t, &o, &out)) { /* fixed extents of a symbolic shape */
      for (size_t i = 0; i < ni; i++) seti(&out, i, ov[i]);
      set_const(c, 0, &out);
      return;
    }
    set_sv(c, 0, ni, ov, os);
  }
}

static void rule_expand_tile(const ctx *c, bool tile) {
  ast_shape x, o;
  int64_t  *sh;
  size_t    n;
  bool     *sym = NULL;
  bool ok = in_shape(c, 0, &x) && (tile ? ints_in(c, 1, &sh, &n) : dims_in(c, 1, &sh, &sym, &n)) &&
            n <= WC_MAX_RANK;
  if (ok && tile) {
    ok = (int)n == x.rank;
    o = x;
    for (int d = 0; ok && d < x.rank; d++) {
      if (sh[d] < 0) ok = false;
      else if (x.dims[d] >= 0 && (sh[d] == 0 || x.dims[d] <= INT64_MAX / sh[d]))
        o.dims[d] = x.dims[d] * sh[d];
      else if (sh[d] != 1) o.dims[d] = fresh(c->gr);
    }
  } else if (ok) {
    ast_shape s = {(int)n, {0}};
    for (size_t d = 0; d < n; d++) s.dims[d] = sh[d] >= 0 || sym[d] ? sh[d] : fresh(c->gr);
    ok = bcast(c->gr, &x, &s, &o);
  }
  set_out(c, 0, in_dtype(c, 0), ok ? &o : NULL);
}

static void rule_resize(const ctx *c, bool upsample) {
  ast_shape x, o;
  wc_dtype  t = in_dtype(c, 0);
  if (!in_shape(c, 0, &x)) {
    set_out(c, 0, t, NULL);
    return;
  }
  o = x;
  int64_t *sz;
  size_t   n;
  cval     sc;
  int      si = upsample || c->gr->opset == 10 ? 1 : 2;
  bool     ok = false;
  if (!upsample && c->gr->opset >= 11 && ints_in(c, 3, &sz, &n) && n == (size_t)x.rank) {
    for (int d = 0; d < x.rank; d++) o.dims[d] = sz[d] >= 0 ? sz[d] : fresh(c->gr);
    ok = true;
  } else {
    const onnx_attr *sa = upsample && c->gr->opset < 9 ? graph_attr(c->n, "scales") : NULL;
    bool             have = sa ? sa->n_floats == x.rank
                               : const_in(c, si, &sc) && sc.t == WC_FLOAT && sc.n == (size_t)x.rank;
    for (int d = 0; have && d < x.rank; d++) {
      float f;
      if (sa) f = sa->floats[d];
      else memcpy(&f, sc.data + 4 * (size_t)d, 4);
      if (!(f > 0 && f < 1e6f)) o.dims[d] = fresh(c->gr);
      else if (f == 1.0f) o.dims[d] = x.dims[d];
      else if (x.dims[d] < 0 || x.dims[d] > ((int64_t)1 << 40)) o.dims[d] = fresh(c->gr);
      else o.dims[d] = (int64_t)((double)x.dims[d] * (double)f); /* floor */
    }
    ok = have;
  }
  set_out(c, 0, t, ok ? &o : NULL);
}

void infer_pad(const ctx *c) {
  ast_shape x, o;
  wc_dtype  t = in_dtype(c, 0);
  int64_t  *p = NULL, *ax = NULL;
  size_t    n = 0, na = 0;
  bool      ok = in_shape(c, 0, &x);
  if (ok && c->gr->opset > 0 && c->gr->opset < 11) {
    const onnx_attr *a = attr_ints(c->n, "pads");
    if (!a) a = attr_ints(c->n, "paddings");
    ok = a != NULL;
    if (ok) p = a->ints, n = (size_t)a->n_ints;
  } else if (ok) {
    ok = ints_in(c, 1, &p, &n);
    if (ok && in_val(c, 3)) ok = ints_in(c, 3, &ax, &na);
  }
  size_t naxes = ax ? na : (size_t)x.rank;
  if (ok && n != 2 * naxes) ok = false;
  o = x;
  for (size_t i = 0; ok && i < naxes; i++) {
    int a = ax ? axis_in(c, ax[i], x.rank, &ok) : (int)i;
    if (!ok) break;
    if (p[i] < -INT32_MAX || p[i] > INT32_MAX || p[naxes + i] < -INT32_MAX ||
        p[naxes + i] > INT32_MAX) {
      ok = false;
      break;
    }
    int64_t add = p[i] + p[naxes + i]; /* both within int32: no overflow */
    if (o.dims[a] >= 0 && o.dims[a] < INT64_MAX / 2 && o.dims[a] + add >= 0) o.dims[a] += add;
    else if (add != 0) o.dims[a] = fresh(c->gr);
  }
  set_out(c, 0, t, ok ? &o : NULL);
}

static void rule_reduce(const ctx *c, int axes_input_since, bool arg) {
  ast_shape x;
  wc_dtype  t = arg ? WC_INT64 : in_dtype(c, 0);
  if (!in_shape(c, 0, &x)) {
    set_out(c, 0, t, NULL);
    return;
  }
  int64_t *ax = NULL, one;
  size_t   n = 0;
  bool     given = false, ok = true;
  if (arg) {
    one = attr_i(c->n, "axis", 0);
    ax = &one;
    n = 1;
    given = true;
  } else ok = axes_of(c, axes_input_since, &ax, &n, &given);
  bool keep = attr_i(c->n, "keepdims", 1) != 0, mark[WC_MAX_RANK] = {false};
  if (ok && !given && attr_i(c->n, "noop_with_empty_axes", 0) != 0) {
    set_out(c, 0, t, &x);
    return;
  }
  for (size_t i = 0; ok && i < n; i++) {
    int a = axis_in(c, ax[i], x.rank, &ok);
    if (ok) mark[a] = true;
  }
  ast_shape o = {0, {0}};
  for (int d = 0; ok && d < x.rank; d++) {
    if (!given || mark[d]) {
      if (keep) o.dims[o.rank++] = 1;
    } else o.dims[o.rank++] = x.dims[d];
  }
  set_out(c, 0, t, ok ? &o : NULL);
}

void infer_shape(const ctx *c) {
  ast_shape x;
  bool      ok = in_shape(c, 0, &x);
  int64_t   lo = 0, hi = ok ? x.rank : 0;
  if (ok) {
    int64_t s = attr_i(c->n, "start", 0), e = attr_i(c->n, "end", x.rank);
    if (s < 0) s += x.rank;
    if (e < 0) e += x.rank;
    lo = clampi(s, 0, x.rank);
    hi = clampi(e, 0, x.rank);
    if (hi < lo) hi = lo;
  }
  ast_shape o = {1, {hi - lo}};
  if (!ok) { /* the input's rank is unknown: still a vector, of an extent no one knows */
    o.dims[0] = fresh(c->gr);
    set_out(c, 0, WC_INT64, &o);
    return;
  }
  cval v;
  bool fixed = true;
  for (int64_t d = lo; d < hi; d++) fixed = fixed && x.dims[d] >= 0;
  if (fixed && new_cval(c, WC_INT64, &o, &v)) {
    for (int64_t d = lo; d < hi; d++) seti(&v, (size_t)(d - lo), x.dims[d]);
    {
      set_const(c, 0, &v);
      return;
    }
  }
  set_out(c, 0, WC_INT64, &o);
  bool sym[WC_MAX_RANK];
  for (int64_t d = lo; d < hi; d++) sym[d - lo] = x.dims[d] < 0;
  set_sv(c, 0, (size_t)(hi - lo), x.dims + lo, sym);
}

void infer_size(const ctx *c) {
  ast_shape x, o = {0, {0}};
  cval      v;
  if (in_shape(c, 0, &x) && count_of(&x) >= 0 && new_cval(c, WC_INT64, &o, &v)) {
    seti(&v, 0, count_of(&x));
    {
      set_const(c, 0, &v);
      return;
    }
  }
  set_out(c, 0, WC_INT64, &o);
}

void infer_constant_of_shape(const ctx *c) {
  const onnx_attr *va = graph_attr(c->n, "value");
  wc_dtype         t = WC_FLOAT;
  cval             fill = {0};
  bool             have_fill = false;
  if (va && va->has_t) {
    graph_value tmp = {0};
    tmp.constant = va->t;
    tmp.elem = va->t->data_type;
    tmp.dtype = va->t->data_type >= 1 && va->t->data_type <= 16 ? (wc_dtype)va->t->data_type
                                                                : (wc_dtype)0;
    t = tmp.dtype;
    have_fill = const_of(c, &tmp, &fill) && fill.n == 1;
  }
  int64_t  *sh;
  size_t    n;
  ast_shape o;
  bool     *sym = NULL;
  bool      ok = dims_in(c, 0, &sh, &sym, &n) && n <= WC_MAX_RANK;
  if (ok) {
    o.rank = (int)n;
    for (size_t d = 0; d < n; d++) o.dims[d] = sh[d] >= 0 || sym[d] ? sh[d] : (ok = false, 0);
  } else {
    ast_shape s;
    ok = in_shape(c, 0, &s) && s.rank == 1 && s.dims[0] >= 0 && s.dims[0] <= WC_MAX_RANK;
    if (ok) {
      o.rank = (int)s.dims[0];
      for (int d = 0; d < o.rank; d++) o.dims[d] = fresh(c->gr);
    }
  }
  cval out;
  if (ok && t && (have_fill || !va) && new_cval(c, t, &o, &out)) {
    size_t size = wc_dtype_size(t);
    for (size_t i = 0; i < out.n; i++)
      if (have_fill) memcpy(out.data + i * size, fill.data, size);
      else memset(out.data + i * size, 0, size);
    {
      set_const(c, 0, &out);
      return;
    }
  }
  set_out(c, 0, t, ok ? &o : NULL);
}

void infer_range(const ctx *c) {
  wc_dtype t = in_dtype(c, 0);
  cval     a, b, d, out;
  if (is_int(t) && t != WC_BOOL && const_in(c, 0, &a) && const_in(c, 1, &b) && const_in(c, 2, &d) &&
      a.n == 1 && b.n == 1 && d.n == 1 && geti(&d, 0) != 0) {
    int64_t s = geti(&a, 0), l = geti(&b, 0), st = geti(&d, 0);
    if (s > -((int64_t)1 << 40) && s < ((int64_t)1 << 40) && l > -((int64_t)1 << 40) &&
        l < ((int64_t)1 << 40) && st > -((int64_t)1 << 40) && st < ((int64_t)1 << 40)) {
      int64_t   cnt = st > 0 ? (l - s + st - 1) / st : (s - l + (-st) - 1) / (-st);
      ast_shape o = {1, {cnt > 0 ? cnt : 0}};
      if (new_cval(c, t, &o, &out)) {
        for (size_t i = 0; i < out.n; i++) seti(&out, i, s + (int64_t)i * st);
        {
          set_const(c, 0, &out);
          return;
        }
      }
    }
  }
  ast_shape o = {1, {fresh(c->gr)}};
  set_out(c, 0, t, &o);
}

/* LSTM, GRU, RNN: Y, Y_h (, Y_c). */
void infer_rnn(const ctx *c) {
  ast_shape x, h0;
  wc_dtype  t = in_dtype(c, 0);
  bool      bf0 = attr_i(c->n, "layout", 0) != 0;
  if (!in_shape(c, 0, &x)) { /* X is [seq, batch, input] by definition: its extents unknown,
                                batch the initial state's when that is known */
    bool hb = in_shape(c, 5, &h0) && h0.rank == 3;
    x = (ast_shape){3, {fresh(c->gr), hb ? h0.dims[bf0 ? 0 : 1] : fresh(c->gr), fresh(c->gr)}};
    if (bf0) {
      int64_t tmp = x.dims[0];
      x.dims[0] = x.dims[1];
      x.dims[1] = tmp;
    }
  }
  if (x.rank != 3) {
    for (int k = 0; k < c->n->n_outputs; k++) set_out(c, k, t, NULL);
    return;
  }
  char        db[32];
  const char *dir = attr_str(c->n, "direction", db, sizeof db);
  int64_t     nd = dir && strcmp(dir, "bidirectional") == 0 ? 2 : 1;
  int64_t     h = attr_i(c->n, "hidden_size", -1);
  int64_t     hid = h > 0 ? h : fresh(c->gr);
  bool        bf = attr_i(c->n, "layout", 0) != 0;
  int64_t     seq = bf ? x.dims[1] : x.dims[0], batch = bf ? x.dims[0] : x.dims[1];
  ast_shape y = bf ? (ast_shape){4, {batch, seq, nd, hid}} : (ast_shape){4, {seq, nd, batch, hid}};
  ast_shape yh = bf ? (ast_shape){3, {batch, nd, hid}} : (ast_shape){3, {nd, batch, hid}};
  set_out(c, 0, t, &y);
  for (int k = 1; k < c->n->n_outputs && k < 3; k++) set_out(c, k, t, &yh);
}

/* A sub-graph's output k: its value_info's dtype and fixed shape. */
static bool body_out(const ctx *c, const onnx_graph *g, int k, wc_dtype *t, ast_shape *s,
                     bool *shaped) {
  if (!g || k < 0 || k >= g->n_outputs) return false;
  const onnx_value_info *vi = &g->outputs[k];
  *t = vi->is_tensor && vi->elem_type >= 1 && vi->elem_type <= 16 ? (wc_dtype)vi->elem_type
                                                                  : (wc_dtype)0;
  *shaped = vi->is_tensor && vi->has_shape && vi->rank <= WC_MAX_RANK;
  if (*shaped) {
    s->rank = vi->rank;
    for (int d = 0; d < vi->rank; d++) {
      if (vi->dims[d].param && vi->dims[d].param[0])
        s->dims[d] = WC_SYM(graph_intern_sym(c->gr, vi->dims[d].param));
      else s->dims[d] = vi->dims[d].value >= 0 ? vi->dims[d].value : fresh(c->gr);
    }
  }
  return true;
}

/* Output k of sub-graph g as the graph around it sees it, g inferred on the spot: the outer
   values it reads are known by now (they come before the node). Its messages are dropped:
   the import of g's own kernels prints them. A symbolic extent keeps its dim_param's name;
   one inference made up gets a fresh symbol of the outer graph. */
static bool inferred_out(const ctx *c, const onnx_graph *g, int k, wc_dtype *t, ast_shape *s,
                         bool *shaped) {
  import_graph sub;
  char        *text = NULL;
  size_t       len = 0;
  FILE        *quiet = g && k >= 0 && k < g->n_outputs ? open_memstream(&text, &len) : NULL;
  if (!quiet) return false;
  bool ok = graph_build_body(&sub, c->gr->a, quiet, c->gr->m, g, c->gr);
  fclose(quiet);
  free(text);
  int v = ok ? graph_find(&sub, g->outputs[k].name) : -1;
  if (v < 0) return false;
  const graph_value *o = &sub.vals[v];
  *t = o->dtype;
  *shaped = o->shaped;
  if (!o->shaped) return true;
  *s = o->shape;
  for (int d = 0; d < s->rank; d++) {
    int64_t e = graph_dim(&sub, s->dims[d]);
    bool    named = e < 0 && sub.sym_named[-e - 1];
    s->dims[d] = e >= 0  ? e
                 : named ? WC_SYM(graph_intern_sym(c->gr, sub.syms[-e - 1]))
                         : fresh(c->gr);
  }
  return true;
}

/* If: its branches' outputs, each branch inferred; the dtype either gives, the shape where
   both give one of a rank (an extent they disagree on becomes a fresh symbol). A condition
   known at import takes its branch's alone. */
static void if_out(const ctx *c, int k, const onnx_graph *then_g, const onnx_graph *else_g) {
  wc_dtype  t1 = 0, t2 = 0;
  ast_shape s1, s2;
  bool      h1 = false, h2 = false;
  cval      cond;
  if (const_in(c, 0, &cond) && cond.n == 1) { /* decided at import (a rank test, say) */
    const onnx_graph *g = geti(&cond, 0) ? then_g : else_g;
    if (!inferred_out(c, g, k, &t1, &s1, &h1)) body_out(c, g, k, &t1, &s1, &h1);
    set_out(c, k, t1, h1 ? &s1 : NULL);
    return;
  }
  bool a = inferred_out(c, then_g, k, &t1, &s1, &h1), b = inferred_out(c, else_g, k, &t2, &s2, &h2);
  if (!a) body_out(c, then_g, k, &t1, &s1, &h1);
  if (!b) body_out(c, else_g, k, &t2, &s2, &h2);
  bool shaped = h1 && h2 && s1.rank == s2.rank;
  for (int d = 0; shaped && d < s1.rank; d++)
    if (s1.dims[d] != s2.dims[d]) s1.dims[d] = fresh(c->gr);
  set_out(c, k, t1 ? t1 : t2, shaped ? &s1 : NULL);
}

void infer_control(const ctx *c) {
  const onnx_attr  *tb = graph_attr(c->n, "then_branch"), *body = graph_attr(c->n, "body");
  const onnx_graph *g = tb && tb->has_g ? tb->g : body && body->has_g ? body->g : NULL;
  bool is_if = strcmp(c->n->op_type, "If") == 0, is_loop = strcmp(c->n->op_type, "Loop") == 0;
  int  n_state = is_loop ? c->n->n_inputs - 2 : 0;
  if (!is_if && !is_loop) { /* Scan: state inputs are the first N - num_scan_inputs */
    int64_t ns = attr_i(c->n, "num_scan_inputs", -1);
    n_state = ns >= 0 && ns <= c->n->n_inputs ? c->n->n_inputs - (int)ns : 0;
  }
  for (int k = 0; k < c->n->n_outputs; k++) {
    wc_dtype  t = 0;
    ast_shape s;
    bool      shaped = false;
    if (is_if) {
      const onnx_attr *eb = graph_attr(c->n, "else_branch");
      if_out(c, k, g, eb && eb->has_g ? eb->g : NULL);
      continue;
    } else if (k < n_state) { /* loop-carried: the initial value's type */
      int in = is_loop ? 2 + k : k;
      t = in_dtype(c, in);
      shaped = in_shape(c, in, &s);
      if (!t) body_out(c, g, is_loop ? 1 + k : k, &t, &s, &shaped);
    } else { /* scan outputs: one more axis in front */
      bool b = body_out(c, g, is_loop ? 1 + k : k, &t, &s, &shaped);
      if (b && shaped && s.rank < WC_MAX_RANK) {
        memmove(s.dims + 1, s.dims, sizeof(int64_t) * (size_t)s.rank);
        s.rank++;
        s.dims[0] = fresh(c->gr);
      } else shaped = false;
    }
    set_out(c, k, t, shaped ? &s : NULL);
  }
}

/* Element-wise operators (those ops.h lists and the rest ONNX has): broadcast inputs from..to. */
static void rule_elementwise(const ctx *c, wc_dtype t, int from, int to) {
  ast_shape o = {0, {0}}, x;
  bool      ok = to > from;
  for (int k = from; ok && k < to; k++) {
    if (!in_val(c, k)) continue;
    ast_shape before = o;
    ok = in_shape(c, k, &x);
    if (ok && !bcast(c->gr, &o, &x, &o)) {
      refuse(c, graph_fmt(c->gr, "shapes %s and %s do not broadcast", shape_text(c, &before),
                          shape_text(c, &x)));
      ok = false;
    }
  }
  set_out(c, 0, t, ok ? &o : NULL);
}

/* Folds an integer element-wise node of constant inputs (exact: integer arithmetic). */
static bool fold_int(const ctx *c, const char *op) {
  cval a, b, w = {0}, out;
  int  nin = c->n->n_inputs;
  bool where = strcmp(op, "Where") == 0;
  if (nin < 1 || nin > 3 || !const_in(c, 0, &a) || !is_int(a.t)) return false;
  if (nin >= 2 && (!const_in(c, 1, &b) || !is_int(b.t))) return false;
  if (where && (nin != 3 || !const_in(c, 2, &w) || w.t != b.t)) return false;
  if (!where && nin == 2 && a.t != b.t) return false;
  if (!where && nin == 3) return false;
  ast_shape o = a.s;
  if (nin >= 2 && !bcast(c->gr, &a.s, &b.s, &o)) return false;
  if (where && !bcast(c->gr, &o, &w.s, &o)) return false;
  bool cmp = !strcmp(op, "Equal") || !strcmp(op, "Less") || !strcmp(op, "Greater") ||
             !strcmp(op, "LessOrEqual") || !strcmp(op, "GreaterOrEqual") || !strcmp(op, "Not") ||
             !strcmp(op, "And") || !strcmp(op, "Or");
  wc_dtype t = cmp ? WC_BOOL : where ? b.t : a.t;
  if (!strcmp(op, "Cast")) {
    int64_t to = attr_i(c->n, "to", 0);
    if (!(to >= 1 && to <= 16 && is_int((wc_dtype)to))) return false;
    t = (wc_dtype)to;
  }
  if (!new_cval(c, t, &o, &out)) return false;
  bool uns = ast_dtype_class_of(a.t) == AST_CLASS_UINT;
  for (size_t i = 0; i < out.n; i++) {
    size_t rem = i, ia = 0, ib = 0, iw = 0, ma = 1, mb = 1, mw = 1;
    for (int d = o.rank - 1; d >= 0; d--) {
      size_t id = rem % (size_t)o.dims[d];
      rem /= (size_t)o.dims[d];
      int da = d - (o.rank - a.s.rank), db = d - (o.rank - (nin >= 2 ? b.s.rank : 0)),
          dw = d - (o.rank - w.s.rank);
      if (da >= 0) ia += (a.s.dims[da] == 1 ? 0 : id) * ma, ma *= (size_t)a.s.dims[da];
      if (nin >= 2 && db >= 0) ib += (b.s.dims[db] == 1 ? 0 : id) * mb, mb *= (size_t)b.s.dims[db];
      if (where && dw >= 0) iw += (w.s.dims[dw] == 1 ? 0 : id) * mw, mw *= (size_t)w.s.dims[dw];
    }
    int64_t  x = geti(&a, ia), y = nin >= 2 ? geti(&b, ib) : 0, r;
    uint64_t ux = (uint64_t)x, uy = (uint64_t)y;
    if (!strcmp(op, "Add")) r = (int64_t)(ux + uy);
    else if (!strcmp(op, "Sub")) r = (int64_t)(ux - uy);
    else if (!strcmp(op, "Mul")) r = (int64_t)(ux * uy);
    else if (!strcmp(op, "Div")) {
      if (y == 0 || (!uns && y == -1 && x == INT64_MIN)) return false;
      r = uns ? (int64_t)(ux / uy) : x / y;
    } else if (!strcmp(op, "Mod")) { /* fmod 0: the divisor's sign (Python's %); 1: C's */
      if (y == 0) return false;
      r = uns ? (int64_t)(ux % uy) : y == -1 ? 0 : x % y;
      if (!uns && r != 0 && (r < 0) != (y < 0) && attr_i(c->n, "fmod", 0) == 0) r += y;
    } else if (!strcmp(op, "Max")) r = uns ? (int64_t)(ux > uy ? ux : uy) : x > y ? x : y;
    else if (!strcmp(op, "Min")) r = uns ? (int64_t)(ux < uy ? ux : uy) : x < y ? x : y;
    else if (!strcmp(op, "Equal")) r = x == y;
    else if (!strcmp(op, "Less")) r = uns ? ux < uy : x < y;
    else if (!strcmp(op, "Greater")) r = uns ? ux > uy : x > y;
    else if (!strcmp(op, "LessOrEqual")) r = uns ? ux <= uy : x <= y;
    else if (!strcmp(op, "GreaterOrEqual")) r = uns ? ux >= uy : x >= y;
    else if (!strcmp(op, "Not")) r = !x;
    else if (!strcmp(op, "And")) r = x && y;
    else if (!strcmp(op, "Or")) r = x || y;
    else if (!strcmp(op, "Neg")) r = (int64_t)(0 - ux);
    else if (!strcmp(op, "Abs")) r = x < 0 && !uns ? (int64_t)(0 - ux) : x;
    else if (!strcmp(op, "Identity") || !strcmp(op, "Cast")) r = x;
    else if (where) r = x ? y : geti(&w, iw);
    else return false;
    if (a.t == WC_BOOL && !cmp && strcmp(op, "Identity") && strcmp(op, "Cast") && !where)
      return false;
    /* narrower results wrap, as the operators do on their own dtype */
    seti(&out, i, r);
  }
  if ((a.t != WC_INT64 && a.t != WC_UINT64 && a.t != WC_INT32 && a.t != WC_BOOL) && !cmp &&
      strcmp(op, "Cast") && strcmp(op, "Identity") && !where)
    return false; /* sub-int32 arithmetic promotes in C: skip rather than reason about it */
  set_const(c, 0, &out);
  return true;
}

/* Element i of a float, double or integer constant as a double (int64 past 2^53 rounds). */
static double getf(const cval *v, size_t i) {
  const uint8_t *p = v->data + i * wc_dtype_size(v->t);
  if (v->t == WC_FLOAT) {
    float x;
    memcpy(&x, p, 4);
    return x;
  }
  if (v->t == WC_DOUBLE) {
    double x;
    memcpy(&x, p, 8);
    return x;
  }
  return ast_dtype_class_of(v->t) == AST_CLASS_UINT ? (double)(uint64_t)geti(v, i)
                                                     : (double)geti(v, i);
}

/* fold_float's operations (its `which`) in float and in double: each rounds once. */
#define FOLD_OP_(name, T, sqrt_, fabs_) \
  static T name(int which, T x, T y) {  \
    switch (which) {                    \
    case 0: return x + y;               \
    case 1: return x - y;               \
    case 2: return x * y;               \
    case 3: return x / y;               \
    case 4: return sqrt_(x);            \
    case 5: return -x;                  \
    case 6: return fabs_(x);            \
    case 7: return (T)1 / x;            \
    default: return x;                  \
    }                                   \
  }
FOLD_OP_(fold_op_f, float, sqrtf, fabsf)
FOLD_OP_(fold_op_d, double, sqrt, fabs)
#undef FOLD_OP_

/* Folds a float or double node of constant inputs (one element each, or one shape) whose
   operation IEEE 754 rounds correctly, so that its bits are those of every conforming
   machine and of the kernel it would be in: Add, Sub, Mul, Div, Sqrt, Neg, Abs,
   Reciprocal, Identity, and Cast from an integer or between float and double (PyTorch's
   attention scale, 1 / sqrt(float(head_dim)), is one). A NaN anywhere is left to the
   kernel (its payload rules); functions (exp, tanh, ...) are never folded. */
static bool fold_float(const ctx *c) {
  static const char *const ops[] = {"Add", "Sub", "Mul", "Div", "Sqrt", "Neg", "Abs",
                                    "Reciprocal", "Identity", "Cast"};
  const char *op = c->n->op_type;
  int         which = -1, nin = c->n->n_inputs;
  for (int k = 0; k < 10; k++)
    if (strcmp(op, ops[k]) == 0) which = k;
  wc_dtype t = which == 9 ? (wc_dtype)attr_i(c->n, "to", 0) : c->t;
  cval     a, b, out;
  if (which < 0 || (t != WC_FLOAT && t != WC_DOUBLE) || nin != (which < 4 ? 2 : 1) ||
      !const_in(c, 0, &a) || (nin == 2 && !const_in(c, 1, &b)))
    return false;
  bool int_in = is_int(a.t) && a.t != WC_BOOL;
  if (!(a.t == WC_FLOAT || a.t == WC_DOUBLE || (which == 9 && int_in)) ||
      (which != 9 && a.t != t) || (nin == 2 && b.t != t))
    return false;
  ast_shape o = a.s;
  if (nin == 2 && b.n != 1) o = b.s;
  if (!new_cval(c, t, &o, &out) || (a.n != 1 && a.n != out.n) ||
      (nin == 2 && b.n != 1 && b.n != out.n) ||
      (nin == 2 && a.n == out.n && b.n == out.n && !graph_same_shape(&a.s, &b.s)))
    return false;
  for (size_t i = 0; i < out.n; i++) {
    size_t  ia = a.n == 1 ? 0 : i;
    int64_t k = int_in ? geti(&a, ia) : 0; /* an integer Cast rounds once, from the integer */
    bool    u = a.t == WC_UINT64 || a.t == WC_UINT32;
    double  x = int_in ? (u ? (double)(uint64_t)k : (double)k) : getf(&a, ia),
            y = nin == 2 ? getf(&b, b.n == 1 ? 0 : i) : 0, r;
    if (t == WC_FLOAT) { /* in float: each operation rounds to float once */
      float xf = int_in ? (u ? (float)(uint64_t)k : (float)k) : (float)x, yf = (float)y,
            rf = fold_op_f(which, xf, yf);
      if (xf != xf || yf != yf || rf != rf) return false;
      memcpy(out.data + i * 4, &rf, 4);
      continue;
    }
    r = fold_op_d(which, x, y);
    if (x != x || y != y || r != r) return false;
    memcpy(out.data + i * 8, &r, 8);
  }
  set_const(c, 0, &out);
  return true;
}

/* ---- the rules the table names (ops.h's rule column) ------------------------------------ */

/* What every element-wise row does first: folds an integer node of constant inputs, and
   passes shape values through Identity and integer Casts. True when that set the output. */
static bool elementwise_known(const ctx *c) {
  const op_row *op = c->ni->op;
  if (fold_int(c, c->n->op_type) || fold_float(c)) return true;
  if (op->id == OP_Identity || (op->id == OP_Cast && is_int(c->t))) pass_sv(c);
  cval v;
  if (op->id == OP_Identity && const_in(c, 0, &v)) {
    set_const(c, 0, &v);
    return true;
  }
  return false;
}

/* Add, Sub, Mul and Div of integer extents (a Shape's elements, constants) as a shape
   vector: a symbolic one gives the extent that stays the expression (graph_dim_expr). */
static void extent_arith(const ctx *c) {
  static const char ops[][4] = {"Add", "Sub", "Mul", "Div"};
  char              op = 0;
  for (int k = 0; k < 4; k++)
    if (strcmp(c->n->op_type, ops[k]) == 0) op = "+-*/"[k];
  int64_t *a, *b;
  bool    *sa, *sb;
  size_t   na, nb;
  if (!op || c->n->n_inputs != 2 || !is_int(c->t) || !dims_in(c, 0, &a, &sa, &na) ||
      !dims_in(c, 1, &b, &sb, &nb) || (na != nb && na != 1 && nb != 1))
    return;
  size_t  n = na > nb ? na : nb;
  int64_t v[WC_MAX_RANK];
  bool    sym[WC_MAX_RANK];
  for (size_t i = 0; i < n && n <= WC_MAX_RANK; i++) {
    int64_t x = a[na == 1 ? 0 : i], y = b[nb == 1 ? 0 : i];
    bool    xs = sa[na == 1 ? 0 : i], ys = sb[nb == 1 ? 0 : i];
    if ((!xs && x < 0) || (!ys && y < 0)) return; /* -1 of a Reshape: no extent */
    v[i] = graph_dim_expr(c->gr, op, x, y);
    sym[i] = v[i] < 0;
    if (!xs && !ys && v[i] < 0) return; /* fixed arithmetic out of range: fold_int's */
  }
  if (n <= WC_MAX_RANK) set_sv(c, 0, n, v, sym);
}

/* Equal of shape values decided where it can be (a symbolic extent is no negative number:
   PyTorch's expand(n, -1, -1) tests its sizes against -1), and Where of a known condition
   between shape values: a shape vector the node's readers (Expand) take. */
static void extent_select(const ctx *c) {
  int64_t *a, *b, *w;
  bool    *sa, *sb, *sw;
  size_t   na, nb, nw;
  cval     cond, out;
  if (strcmp(c->n->op_type, "Equal") == 0 && c->n->n_inputs == 2 && dims_in(c, 0, &a, &sa, &na) &&
      dims_in(c, 1, &b, &sb, &nb) && (na == nb || na == 1 || nb == 1) && na <= WC_MAX_RANK &&
      nb <= WC_MAX_RANK) {
    const graph_value *o = c->ni->out >= 0 ? &c->gr->vals[c->ni->out] : NULL;
    size_t             n = na > nb ? na : nb;
    if (!o || !o->shaped || !new_cval(c, WC_BOOL, &o->shape, &out) || out.n != n) return;
    for (size_t i = 0; i < n; i++) {
      int64_t x = a[na == 1 ? 0 : i], y = b[nb == 1 ? 0 : i];
      bool    xs = sa[na == 1 ? 0 : i], ys = sb[nb == 1 ? 0 : i];
      if (!xs && !ys) seti(&out, i, x == y);
      else if (xs && ys && x == y) seti(&out, i, 1);
      else if ((xs && !ys && y < 0) || (ys && !xs && x < 0)) seti(&out, i, 0); /* extents >= 0 */
      else return;
    }
    set_const(c, 0, &out);
  } else if (strcmp(c->n->op_type, "Where") == 0 && c->n->n_inputs == 3 && const_in(c, 0, &cond) &&
             cond.t == WC_BOOL && dims_in(c, 1, &a, &sa, &na) && dims_in(c, 2, &w, &sw, &nw)) {
    size_t n = cond.n;
    if (n > WC_MAX_RANK || (na != n && na != 1) || (nw != n && nw != 1)) return;
    int64_t v[WC_MAX_RANK];
    bool    sym[WC_MAX_RANK];
    for (size_t i = 0; i < n; i++) {
      bool take = geti(&cond, i) != 0;
      v[i] = take ? a[na == 1 ? 0 : i] : w[nw == 1 ? 0 : i];
      sym[i] = take ? sa[na == 1 ? 0 : i] : sw[nw == 1 ? 0 : i];
    }
    set_sv(c, 0, n, v, sym);
  }
}

void infer_broadcast(const ctx *c) {
  if (elementwise_known(c)) return;
  rule_elementwise(c, c->t, 0, c->n->n_inputs);
  extent_arith(c);
  extent_select(c);
}

void infer_first(const ctx *c) {
  if (!elementwise_known(c)) rule_elementwise(c, c->t, 0, 1);
}

/* NonZero: [rank of x, the count of non-zero elements, known when it runs]. */
void infer_dynamic(const ctx *c) {
  ast_shape x, o = {2, {0, 0}};
  if (!in_shape(c, 0, &x)) {
    set_out(c, 0, c->t, NULL);
    return;
  }
  o.dims[0] = x.rank;
  o.dims[1] = fresh(c->gr);
  set_out(c, 0, c->t, &o);
}

/* Dropout: the data's shape, and its mask's (bool from opset 10). */
void infer_dropout(const ctx *c) {
  ast_shape x;
  bool      ok = in_shape(c, 0, &x);
  set_out(c, 0, c->t, ok ? &x : NULL);
  set_out(c, 1, c->gr->opset >= 10 || c->gr->opset == 0 ? WC_BOOL : c->t, ok ? &x : NULL);
}

/* DynamicQuantizeLinear: y uint8 of x's shape, its scale (float) and zero point (uint8)
   scalars. */
void infer_dynamic_quantize(const ctx *c) {
  ast_shape x, scalar = {0, {0}};
  set_out(c, 0, WC_UINT8, in_shape(c, 0, &x) ? &x : NULL);
  set_out(c, 1, WC_FLOAT, &scalar);
  set_out(c, 2, WC_UINT8, &scalar);
}

void infer_conv(const ctx *c) { rule_window(c, true, false, 1); }
void infer_conv_transpose(const ctx *c) { rule_window(c, true, true, 1); }
void infer_pool(const ctx *c) { rule_window(c, false, false, 1); }
void infer_matmul(const ctx *c) { rule_matmul(c, c->t, 1); }
void infer_squeeze(const ctx *c) { rule_squeeze(c, false); }
void infer_unsqueeze(const ctx *c) { rule_squeeze(c, true); }
void infer_expand(const ctx *c) { rule_expand_tile(c, false); }
void infer_tile(const ctx *c) { rule_expand_tile(c, true); }
void infer_resize(const ctx *c) { rule_resize(c, false); }
void infer_upsample(const ctx *c) { rule_resize(c, true); }
void infer_reduce_axes_13(const ctx *c) { rule_reduce(c, 13, false); } /* axes an input from 13 */
void infer_reduce_axes_18(const ctx *c) { rule_reduce(c, 18, false); } /* ... from 18 */
void infer_arg_reduce(const ctx *c) { rule_reduce(c, 0, true); }

/* ---- the pass -------------------------------------------------------------------------- */

/* The value of a Constant node, as a tensor (value_float / value_int are scalars). */
static const onnx_tensor *constant_value(import_graph *gr, const onnx_node *n) {
  const onnx_attr *at;
  if ((at = graph_attr(n, "value")) && at->has_t) return at->t;
  onnx_tensor *t = graph_alloc(gr, 1, sizeof *t);
  uint8_t     *raw = graph_alloc(gr, 8, 1);
  t->name = "";
  t->has_raw = true;
  t->raw.data = raw;
  if ((at = graph_attr(n, "value_float")) && at->has_f) {
    t->data_type = WC_FLOAT;
    memcpy(raw, &at->f, 4);
    t->raw.len = 4;
    return t;
  }
  if ((at = graph_attr(n, "value_int")) && at->has_i) {
    t->data_type = WC_INT64;
    memcpy(raw, &at->i, 8);
    t->raw.len = 8;
    return t;
  }
  if ((at = graph_attr(n, "value_ints")) && at->n_ints > 0) {
    t->data_type = WC_INT64;
    t->rank = 1;
    t->dims = graph_alloc(gr, 1, sizeof *t->dims);
    t->dims[0] = at->n_ints;
    t->raw.data = (const uint8_t *)at->ints; /* little-endian host */
    t->raw.len = (size_t)at->n_ints * 8;
    return t;
  }
  if ((at = graph_attr(n, "value_floats")) && at->n_floats > 0) {
    t->data_type = WC_FLOAT;
    t->rank = 1;
    t->dims = graph_alloc(gr, 1, sizeof *t->dims);
    t->dims[0] = at->n_floats;
    t->raw.data = (const uint8_t *)at->floats;
    t->raw.len = (size_t)at->n_floats * 4;
    return t;
  }
  return NULL;
}

/* The dtype of a table operator's output by its row's type rule, 0 when unknown. */
static wc_dtype known_dtype(const ctx *c) {
  const op_row *op = c->ni->op;
  switch (op->out) {
  case OUT_T: return in_dtype(c, op->typed);
  case OUT_BOOL: return WC_BOOL;
  case OUT_INT64: return WC_INT64;
  case OUT_INT32: return WC_INT32;
  case OUT_SCALE: return in_dtype(c, 1);
  case OUT_RULE: return 0;
  case OUT_CAST: {
    if (op->id == OP_CastLike) return in_dtype(c, 1);
    const onnx_attr *to = graph_attr(c->n, "to");
    return to && to->has_i && to->i >= 1 && to->i <= 16 ? (wc_dtype)to->i : (wc_dtype)0;
  }
  case OUT_QUANT: { /* the zero point's, else output_dtype (opset 21), else uint8 */
    const onnx_attr *od = graph_attr(c->n, "output_dtype");
    if (c->n->n_inputs > 2 && in_dtype(c, 2)) return in_dtype(c, 2);
    if (od && od->has_i && od->i != 0)
      return od->i >= 1 && od->i <= 16 ? (wc_dtype)od->i : (wc_dtype)0;
    return WC_UINT8;
  }
  }
  return 0;
}

static void infer_node(ctx *c) {
  const onnx_node  *n = c->n;
  const graph_node *ni = c->ni;
  if (graph_is(ni, OP_Constant)) {
    const onnx_tensor *t = constant_value(c->gr, n);
    if (t && ni->out >= 0) {
      graph_value *o = &c->gr->vals[ni->out];
      o->constant = t;
      o->elem = t->data_type;
      o->dtype = t->data_type >= 1 && t->data_type <= 16 ? (wc_dtype)t->data_type : (wc_dtype)0;
      if (t->rank <= WC_MAX_RANK) {
        bool ok = true;
        for (int d = 0; d < t->rank; d++) ok = ok && t->dims[d] >= 0;
        o->shape.rank = ok ? t->rank : 0;
        for (int d = 0; ok && d < t->rank; d++) o->shape.dims[d] = t->dims[d];
        o->shaped = ok;
      }
    }
    return;
  }
  if (ni->op) { /* its row's type and shape rule */
    const char *why = NULL;
    c->why = &why;
    c->t = known_dtype(c);
    ni->op->infer(c);
    if (why && !c->quiet)
      fprintf(c->gr->log, "wherec: warning: %s: %s: its rule cannot apply, so its output has "
              "no shape\n", graph_node_label(c->gr, (int)(ni - c->gr->nodes)), why);
  }
}

#define INFER_PASSES 4

/* What inference knows: shaped values, constants, and extents a symbol was found to be. */
static size_t known_facts(const import_graph *gr) {
  size_t n = 0;
  for (int v = 0; v < gr->n_vals; v++) n += gr->vals[v].shaped + (gr->vals[v].constant != NULL);
  for (int s = 0; s < gr->n_syms; s++) n += gr->sym_value[s] >= 0 || gr->sym_parent[s] != s;
  return n;
}

void graph_infer(import_graph *gr) {
  size_t folded = 0;
  svec  *sv = graph_alloc(gr, (size_t)gr->n_vals, sizeof *sv);
  for (int v = 0; v < gr->n_vals; v++) sv[v].n = -1;
  /* A symbol may be found to be an extent only after the nodes that read it (a broadcast
     further on, an If decided on it): passes again, silent, give those nodes what they can
     know then (a Gather of that extent is a constant, an If on it is decided), until one
     learns nothing (at most INFER_PASSES). A static graph needs one. */
  size_t known = known_facts(gr), before;
  int    pass = 0;
  do {
    before = known;
    for (int k = 0; k < gr->g->n_nodes; k++) {
      int i = gr->order[k];
      ctx c = {gr, &gr->nodes[i], gr->nodes[i].n, &folded, sv, 0, pass > 0, NULL};
      infer_node(&c);
    }
    known = known_facts(gr);
  } while (gr->n_syms > 0 && known != before && ++pass < INFER_PASSES);
  /* every shape in terms of the reconciled symbols */
  for (int v = 0; v < gr->n_vals; v++)
    for (int d = 0; gr->vals[v].shaped && d < gr->vals[v].shape.rank; d++)
      gr->vals[v].shape.dims[d] = graph_dim(gr, gr->vals[v].shape.dims[d]);
}
