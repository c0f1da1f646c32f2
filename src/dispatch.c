/* dispatch.c: the kernel registry, wc_run (specialized kernel when shapes fit
   the pattern, interpreter otherwise) and wc_where's use of registered kernels. */
#include <stdlib.h>

#include "internal.h"
#include "wc_builtin.h"

#define WC_MAX_WHERE_KERNELS 256

/* A registered kernel that is a plain where(c, x, y) of three parameters. */
typedef struct where_kernel {
  const wc_kernel *k;
  int    ic, ix, iy;                                   /* parameter index of c, x, y */
  size_t width;                                        /* element width of x, y, out */
} where_kernel;

static const wc_kernel_table *tables[WC_MAX_TABLES];
static int n_tables;
static where_kernel where_kernels[WC_MAX_WHERE_KERNELS];
static int n_where_kernels;

const wc_kernel *wc_find_kernel(const wc_kernel_table *t, const char *name) {
  if (t == NULL || name == NULL || t->kernels == NULL) return NULL;   /* NULL: no kernels */
  for (int i = 0; i < t->n_kernels; i++) {
    const char *k = t->kernels[i].name;
    if (k != NULL && strcmp(k, name) == 0) return &t->kernels[i];
  }
  return NULL;
}

/* Recognises where(c, x, y) over three distinct parameters. */
static bool plain_where(const wc_kernel *k, where_kernel *w) {
  const wc_instr *top;
  if (k->kind != WC_KIND_ELEMENTWISE || k->n_inputs != 3 || k->n_instrs != 4 || k->range == NULL)
    return false;
  /* generated code reads bool as (byte != 0): it would turn other 1-byte values to 0/1 */
  if (k->out_dtype == WC_BOOL) return false;
  top = &k->program[3];
  /* operands index earlier instructions and those read parameters 0..2:
     wc__where_registered stores the data pointers by these indices */
  if (top->op != WC_OP_WHERE || top->a > 2 || top->b > 2 || top->c > 2) return false;
  const wc_instr *c = &k->program[top->a], *x = &k->program[top->b], *y = &k->program[top->c];
  if (c->op != WC_OP_INPUT || x->op != WC_OP_INPUT || y->op != WC_OP_INPUT) return false;
  if (c->a > 2 || x->a > 2 || y->a > 2 || c->a == x->a || c->a == y->a || x->a == y->a)
    return false;
  w->k = k;
  w->ic = c->a; w->ix = x->a; w->iy = y->a;
  w->width = wc_dtype_size(k->out_dtype);
  return true;
}

wc_status wc_register(const wc_kernel_table *t) {
  where_kernel found[WC_MAX_WHERE_KERNELS], w;
  int n_found = 0;
  if (t == NULL || t->n_kernels < 0 || (t->n_kernels > 0 && t->kernels == NULL)) return WC_E_ARG;
  for (int i = 0; i < n_tables; i++)
    if (tables[i] == t) return WC_OK;
  if (n_tables == WC_MAX_TABLES) return WC_E_CAPACITY;
  /* found fills only after the room check: a table of more plain-where
     kernels than fit is refused before any is stored */
  for (int i = 0; i < t->n_kernels; i++)
    if (plain_where(&t->kernels[i], &w)) {
      if (n_where_kernels + n_found == WC_MAX_WHERE_KERNELS) return WC_E_CAPACITY;
      found[n_found++] = w;
    }
  tables[n_tables++] = t;
  for (int i = 0; i < n_found; i++) where_kernels[n_where_kernels++] = found[i];
  return WC_OK;
}

/* Binds a parameter's shape pattern to an actual shape, right-aligned (missing
   leading dims count as 1 on either side); symbolic extents must agree with
   earlier bindings. */
static bool bind(const wc_param *p, int rank, const int64_t *shape, int n_extents, size_t *ext,
                 bool *bound) {
  int r = p->rank > rank ? p->rank : rank;
  for (int i = 0; i < r; i++) {
    int pd = p->rank - 1 - i, ad = rank - 1 - i;
    int64_t pe = pd >= 0 ? p->dims[pd] : 1, ae = ad >= 0 ? shape[ad] : 1;
    if (pe >= 0) {
      if (pe != ae) return false;
      continue;
    }
    int64_t sym = -pe - 1;
    if (sym >= n_extents) return false;                /* a malformed table, not a fit */
    if (bound[sym] && ext[sym] != (size_t)ae) return false;
    bound[sym] = true;
    ext[sym] = (size_t)ae;
  }
  return true;
}

/* Binds every parameter of k; false when a shape does not fit the pattern. */
static bool bind_all(const wc_kernel *k, const wc_tensor *in, size_t *ext) {
  bool bound[WC_MAX_OPERANDS * WC_MAX_RANK];
  if (k->n_extents < 0 || k->n_extents > WC_MAX_OPERANDS * WC_MAX_RANK) return false;
  memset(bound, 0, (size_t)k->n_extents * sizeof *bound);   /* only what is used: a hot path */
  for (int i = 0; i < k->n_inputs; i++)
    if (!bind(&k->inputs[i], in[i].rank, in[i].shape, k->n_extents, ext, bound)) return false;
  for (int e = 0; e < k->n_extents; e++)
    if (!bound[e]) ext[e] = 0;
  return true;
}

/* The value a coordinate kernel lists the true elements of: the parameter
   itself when the program is a lone parameter (lone), else the program's
   result, of the inputs' broadcast shape. Only the shape here: the
   specialized path needs no more, so the data waits for coords_eval. */
static wc_status coords_shape(const wc_kernel *k, const wc_tensor *in, bool lone,
                              wc_tensor *value, int64_t *count) {
  const wc_instr *top = &k->program[k->n_instrs - 1];
  const wc_tensor *ptr[WC_MAX_OPERANDS];
  wc_status s;
  if (lone) { *value = in[top->a]; return WC_OK; }
  memset(value, 0, sizeof *value);
  value->dtype = (wc_dtype)top->dtype;
  for (int i = 0; i < k->n_inputs; i++) ptr[i] = &in[i];
  if ((s = wc_broadcast_shape(ptr, k->n_inputs, &value->rank, value->shape)) != WC_OK) return s;
  return wc__shape_count(value->dtype, value->rank, value->shape, count);
}

/* Interprets the program into a temporary of count elements (*temp, the
   caller frees) that becomes value's data. */
static wc_status coords_eval(const wc_kernel *k, const wc_tensor *in, int64_t count,
                             wc_tensor *value, void **temp) {
  *temp = malloc((size_t)count * wc_dtype_size(value->dtype) + 1);
  if (*temp == NULL) return WC_E_NOMEM;
  value->data = *temp;
  wc_kernel ew = *k;
  ew.kind = WC_KIND_ELEMENTWISE;
  return wc__interp_elementwise(&ew, in, value);
}

/* argwhere / nonzero through the kernel (specialized) or the runtime. */
static wc_status run_coords(const wc_kernel *k, const wc_tensor *in, wc_tensor *out,
                            bool specialize, wc_path *path) {
  size_t ext[WC_MAX_OPERANDS * WC_MAX_RANK];
  const void *data[WC_MAX_OPERANDS];
  const wc_instr *top = &k->program[k->n_instrs - 1];
  const bool lone = top->op == WC_OP_INPUT && k->n_inputs == 1;
  int64_t cap, n, need, count = 0;
  wc_tensor value;
  void *temp = NULL;
  wc_status s;
  if (out->dtype != WC_INT64) return WC_E_DTYPE;
  if ((s = wc__tensor_check(out, &cap)) != WC_OK) return s;
  if ((s = coords_shape(k, in, lone, &value, &count)) != WC_OK) return s;
  int rank = value.rank;
  bool rows = k->kind == WC_KIND_ARGWHERE;
  /* The generated function lists coordinates of the pattern's rank; inputs of
     a lower rank bind (leading extents 1) but want coordinates of their own. */
  if (specialize && k->count && k->coords && rank == k->out_rank && bind_all(k, in, ext)) {
    for (int i = 0; i < k->n_inputs; i++) data[i] = in[i].data;
    n = k->count(ext, data);
    need = n * rank;
    if (need <= cap) k->coords(ext, data, n, out->data);
    if (path) *path = WC_PATH_SPECIALIZED;
    s = need <= cap ? WC_OK : WC_E_CAPACITY;
  } else {
    if (!lone && (s = coords_eval(k, in, count, &value, &temp)) != WC_OK) { free(temp); return s; }
    s = rows ? wc_argwhere(&value, out->data, cap, &n) : wc_nonzero(&value, out->data, cap, &n);
    if (path) *path = WC_PATH_INTERPRETED;
    free(temp);
  }
  if (s != WC_OK && s != WC_E_CAPACITY) return s;
  out->rank = 2;
  out->shape[0] = rows ? n : rank;
  out->shape[1] = rows ? rank : n;
  return s;
}

/* Checks inputs against k's parameters and runs it. */
static wc_status run_kernel(const wc_kernel *k, const wc_tensor *in, int n_in, wc_tensor *out,
                            bool specialize, wc_path *path) {
  size_t ext[WC_MAX_OPERANDS * WC_MAX_RANK];
  const void *data[WC_MAX_OPERANDS];
  const wc_tensor *ptr[WC_MAX_OPERANDS], *v1[3] = {NULL, NULL, NULL};  /* where_v1: c, x, y */
  int64_t count, shape[WC_MAX_RANK];
  int rank;
  wc_status s;
  if (k == NULL) return WC_E_NOKERNEL;
  if (out == NULL || n_in != k->n_inputs || (n_in > 0 && in == NULL)) return WC_E_ARG;
  if (n_in >= WC_MAX_OPERANDS) return WC_E_ARG;
  for (int i = 0; i < n_in; i++) {
    if ((s = wc__tensor_check(&in[i], NULL)) != WC_OK) return s;
    if (in[i].dtype != k->inputs[i].dtype) return WC_E_DTYPE;
    ptr[i] = &in[i];
  }
  if (k->kind == WC_KIND_ARGWHERE || k->kind == WC_KIND_NONZERO)
    return run_coords(k, in, out, specialize, path);
  if ((s = wc__tensor_check(out, &count)) != WC_OK) return s;
  if (out->dtype != k->out_dtype) return WC_E_DTYPE;
  if (k->kind == WC_KIND_WHERE_V1) {
    const wc_instr *top = &k->program[k->n_instrs - 1];
    if (top->op != WC_OP_WHERE) return WC_E_ARG;
    v1[0] = &in[k->program[top->a].a];
    v1[1] = &in[k->program[top->b].a];
    v1[2] = &in[k->program[top->c].a];
    if ((s = wc__where_v1_check(v1[0], v1[1], v1[2], out)) != WC_OK) return s;
  } else {
    if ((s = wc_broadcast_shape(ptr, n_in, &rank, shape)) != WC_OK) return s;
    if (!wc__same_shape(out, rank, shape)) return WC_E_SHAPE;
  }
  if (specialize && k->range && bind_all(k, in, ext)) {
    for (int i = 0; i < n_in; i++) data[i] = in[i].data;
    if (count > 0) k->range(ext, data, out->data, 0, (size_t)count);
    if (path) *path = WC_PATH_SPECIALIZED;
    return WC_OK;
  }
  if (path) *path = WC_PATH_INTERPRETED;
  if (k->kind != WC_KIND_WHERE_V1) return wc__interp_elementwise(k, in, out);
  wc__where_v1_run(v1[0], v1[1], v1[2], out);   /* checked above */
  return WC_OK;
}

wc_status wc_run(const wc_kernel_table *table, const char *kernel, const wc_tensor *inputs,
                 int n_inputs, wc_tensor *out, wc_path *path) {
  if (table == NULL || kernel == NULL) return WC_E_ARG;
  return run_kernel(wc_find_kernel(table, kernel), inputs, n_inputs, out, true, path);
}

wc_status wc_interpret(const wc_kernel *k, const wc_tensor *inputs, int n_inputs, wc_tensor *out) {
  return run_kernel(k, inputs, n_inputs, out, false, NULL);
}

/* Built-in kernels (generated/wc_builtin.where), in the spec's order: one
   block of widths per pattern. */
typedef enum builtin_pattern {
  BUILTIN_SAME, BUILTIN_SCALAR_X, BUILTIN_SCALAR_Y, BUILTIN_SCALAR_C, BUILTIN_ROWS,
  BUILTIN_COLS, BUILTIN_ROW_BCAST, BUILTIN_PATTERNS, BUILTIN_NONE = -1
} builtin_pattern;
#define BUILTIN_WIDTHS 5                               /* 1, 2, 4, 8, 16 bytes */

static int width_index(size_t w) {
  switch (w) {
    case 1: return 0;
    case 2: return 1;
    case 4: return 2;
    case 8: return 3;
    default: return 4;
  }
}

/* The pattern of a coalesced (cond, x, y) plan, from the stride classes. */
static builtin_pattern classify(const wc_loop *L) {
  bool c0 = L->stride[0][0] != 0, x0 = L->stride[1][0] != 0, y0 = L->stride[2][0] != 0;
  if (L->rank == 1) {
    if (c0 && x0 && y0) return BUILTIN_SAME;
    if (c0 && !x0 && y0) return BUILTIN_SCALAR_X;
    if (c0 && x0 && !y0) return BUILTIN_SCALAR_Y;
    if (!c0 && x0 && y0) return BUILTIN_SCALAR_C;
    return BUILTIN_NONE;
  }
  if (L->rank != 2) return BUILTIN_NONE;
  bool c1 = L->stride[0][1] != 0, x1 = L->stride[1][1] != 0, y1 = L->stride[2][1] != 0;
  if (!x0 || !x1 || !y1) return BUILTIN_NONE;
  if (c0 && !c1) return y0 ? BUILTIN_ROWS : BUILTIN_ROW_BCAST;
  if (!c0 && c1 && y0) return BUILTIN_COLS;
  return BUILTIN_NONE;
}

/* Runs the built-in kernel for the plan, if one fits. */
static bool where_builtin(const wc_loop *L, const wc_tensor *cond, const wc_tensor *x,
                          const wc_tensor *y, wc_tensor *out) {
  builtin_pattern p = classify(L);
  if (p == BUILTIN_NONE) return false;
  const wc_kernel *k = &wc_builtin_table.kernels[p * BUILTIN_WIDTHS + width_index(wc_dtype_size(x->dtype))];
  size_t ext[2] = {(size_t)L->extent[0], L->rank == 2 ? (size_t)L->extent[1] : 0};
  const void *data[3] = {cond->data, x->data, y->data};
  if (p == BUILTIN_COLS) { ext[0] = ext[1]; ext[1] = (size_t)L->extent[0]; }  /* C before R */
  k->range(ext, data, out->data, 0, (size_t)L->count);
  return true;
}

/* wc_where's fast path: a registered plain-where kernel whose element width
   is x's and whose pattern fits the coalesced shapes (where moves bits, so a
   uint32 kernel serves float and int32 alike). */
bool wc__where_registered(const wc_loop *L, const wc_tensor *cond, const wc_tensor *x,
                          const wc_tensor *y, wc_tensor *out) {
  size_t w = wc_dtype_size(x->dtype), ext[WC_MAX_OPERANDS * WC_MAX_RANK];
  int64_t shapes[3][WC_MAX_RANK];
  const void *data[3];
  if (where_builtin(L, cond, x, y, out)) return true;
  if (n_where_kernels == 0) return false;             /* no table registered one */
  for (int k = 0; k < 3; k++)
    for (int d = 0; d < L->rank; d++) shapes[k][d] = L->stride[k][d] ? L->extent[d] : 1;
  for (int i = 0; i < n_where_kernels; i++) {
    const where_kernel *wk = &where_kernels[i];
    bool bound[WC_MAX_OPERANDS * WC_MAX_RANK];
    int ne = wk->k->n_extents;
    if (wk->width != w) continue;
    if (ne < 0 || ne > WC_MAX_OPERANDS * WC_MAX_RANK) continue;
    memset(bound, 0, (size_t)ne * sizeof *bound);
    if (!bind(&wk->k->inputs[wk->ic], L->rank, shapes[0], ne, ext, bound) ||
        !bind(&wk->k->inputs[wk->ix], L->rank, shapes[1], ne, ext, bound) ||
        !bind(&wk->k->inputs[wk->iy], L->rank, shapes[2], ne, ext, bound))
      continue;
    data[wk->ic] = cond->data;
    data[wk->ix] = x->data;
    data[wk->iy] = y->data;
    wk->k->range(ext, data, out->data, 0, (size_t)L->count);
    return true;
  }
  return false;
}
