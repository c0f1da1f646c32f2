/* registry.c: the kernel registry: tables by wc_register, kernels by name,
   binding of shapes to symbolic extents, and the plain-where kernels wc_where runs. */
#include <stdatomic.h>

#include "parallel.h"
#include "registry.h"
#include "wc_builtin.h"

#define WC_MAX_WHERE_KERNELS 256

/* A registered kernel that is a plain where(c, x, y) of three parameters. */
typedef struct where_kernel {
  const wc_kernel *k;
  int              in[3]; /* parameter index of c, x, y */
  size_t           width; /* element width of x, y, out */
} where_kernel;

static const wc_kernel_table *tables[WC_MAX_TABLES];
static int                    n_tables;
static where_kernel           where_kernels[WC_MAX_WHERE_KERNELS];
static int                    n_where_kernels;

const wc_kernel *wc_find_kernel(const wc_kernel_table *t, const char *name) {
  if (t == NULL || name == NULL || t->kernels == NULL) return NULL; /* NULL: no kernels */
  for (int i = 0; i < t->n_kernels; i++) {
    const char *k = t->kernels[i].name;
    if (k != NULL && strcmp(k, name) == 0) return &t->kernels[i];
  }
  return NULL;
}

/* Recognises where(c, x, y) over three distinct parameters; in[] gets the
   parameter index of c, x and y. */
static bool plain_where(const wc_kernel *k, int in[3]) {
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
  in[0] = c->a;
  in[1] = x->a;
  in[2] = y->a;
  return true;
}

bool wc__registered(const wc_kernel_table *t) {
  for (int i = 0; i < n_tables; i++)
    if (tables[i] == t) return true;
  return false;
}

wc_status wc_register(const wc_kernel_table *t) {
  where_kernel found[WC_MAX_WHERE_KERNELS], w;
  int          n_found = 0;
  if (t == NULL || t->n_kernels < 0 || (t->n_kernels > 0 && t->kernels == NULL)) return WC_E_ARG;
  if (wc__registered(t)) return WC_OK;
  if (n_tables == WC_MAX_TABLES) return WC_E_CAPACITY;
  /* checked once here, so that wc_run and wc_prepare can trust the table */
  for (int i = 0; i < t->n_kernels; i++)
    if (wc__kernel_check(&t->kernels[i]) != WC_OK) return WC_E_ARG;
  /* found fills only after the room check: a table of more plain-where
     kernels than fit is refused before any is stored */
  for (int i = 0; i < t->n_kernels; i++)
    if (plain_where(&t->kernels[i], w.in)) {
      if (n_where_kernels + n_found == WC_MAX_WHERE_KERNELS) return WC_E_CAPACITY;
      w.k = &t->kernels[i];
      w.width = wc_dtype_size(w.k->out_dtype);
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
    int     pd = p->rank - 1 - i, ad = rank - 1 - i;
    int64_t pe = pd >= 0 ? p->dims[pd] : 1, ae = ad >= 0 ? shape[ad] : 1;
    if (pe >= 0) {
      if (pe != ae) return false;
      continue;
    }
    int64_t sym = -(pe + 1);            /* no overflow at INT64_MIN */
    if (sym >= n_extents) return false; /* a malformed table, not a fit */
    if (bound[sym] && ext[sym] != (size_t)ae) return false;
    bound[sym] = true;
    ext[sym] = (size_t)ae;
  }
  return true;
}

bool wc__kernel_bind(const wc_kernel *k, const wc_tensor *in, size_t *ext) {
  bool bound[WC_MAX_OPERANDS * WC_MAX_RANK];
  if (k->n_extents < 0 || k->n_extents > WC_MAX_OPERANDS * WC_MAX_RANK) return false;
  memset(bound, 0, (size_t)k->n_extents * sizeof *bound); /* only what is used: a hot path */
  for (int i = 0; i < k->n_inputs; i++)
    if (!bind(&k->inputs[i], in[i].rank, in[i].shape, k->n_extents, ext, bound)) return false;
  for (int e = 0; e < k->n_extents; e++)
    if (!bound[e]) ext[e] = 0;
  return true;
}

/* ---- plain-where index ---- */

/* Slot of an element width in the index, -1 for none (strings go by pointer width). */
static int width_slot(size_t w) {
  switch (w) {
  case 1: return 0;
  case 2: return 1;
  case 4: return 2;
  case 8: return 3;
  case 16: return 4;
  default: return -1;
  }
}

/* The key of a plan's stride signature: bit 3d + k tells operand k (c, x, y)
   varies along dim d; rank-1 keys first. One function for plans and for
   kernels (through the plan a kernel serves), so both sides agree. Unrolled:
   wc_where asks it on every call. */
static inline int signature_key(const wc_loop *L) {
  const int64_t(*s)[WC_MAX_RANK] = L->stride;
  int key = (s[0][0] != 0) | (s[1][0] != 0) << 1 | (s[2][0] != 0) << 2;
  if (L->rank == 1) return key;
  return 8 + (key | (s[0][1] != 0) << 3 | (s[1][1] != 0) << 4 | (s[2][1] != 0) << 5);
}

/* The signature a plain-where kernel serves, read from its parameters: a
   symbolic extent varies, a fixed 1 (or a missing leading dim) broadcasts.
   e->ext_dim gets the plan dim of each symbolic extent. False for a kernel
   that serves no whole signature (a fixed extent other than 1, rank above 2,
   a symbolic extent on two dims or on none). */
static bool kernel_signature(const wc_kernel *k, wc_where_entry *e, int *key) {
  wc_loop plan; /* the plan k serves: strides 0 or 1 */
  int     rank = 0;
  if (k->n_extents < 0 || k->n_extents > WC_WHERE_MAX_EXTENTS) return false;
  for (int s = 0; s < WC_WHERE_MAX_EXTENTS; s++) e->ext_dim[s] = -1;
  for (int o = 0; o < 3; o++)
    if (k->inputs[e->in[o]].rank > rank) rank = k->inputs[e->in[o]].rank;
  if (rank < 1 || rank > 2) return false;
  plan.rank = rank;
  for (int o = 0; o < 3; o++)
    for (int d = 0; d < rank; d++) plan.stride[o][d] = 0;
  for (int o = 0; o < 3; o++) {
    const wc_param *p = &k->inputs[e->in[o]];
    for (int pd = 0; pd < p->rank; pd++) {
      int     d = rank - p->rank + pd;                        /* right-aligned */
      int64_t pe = p->dims[pd], sym = pe < 0 ? -(pe + 1) : 0; /* no overflow at INT64_MIN */
      if (pe == 1) continue;
      if (pe >= 0 || sym >= k->n_extents) return false;
      if (e->ext_dim[sym] >= 0 && e->ext_dim[sym] != d) return false;
      e->ext_dim[sym] = (int8_t)d;
      plan.stride[o][d] = 1;
    }
  }
  for (int s = 0; s < k->n_extents; s++)
    if (e->ext_dim[s] < 0) return false;
  for (int s = k->n_extents; s < WC_WHERE_MAX_EXTENTS; s++) e->ext_dim[s] = 0; /* read, unused */
  *key = signature_key(&plan);
  return true;
}

void wc__where_index_build(wc_where_index *ix, const wc_kernel_table *t) {
  memset(ix, 0, sizeof *ix);
  for (int i = 0; i < t->n_kernels; i++) {
    const wc_kernel *k = &t->kernels[i];
    wc_where_entry   e;
    int              in[3], key, w;
    if (!plain_where(k, in) || (w = width_slot(wc_dtype_size(k->out_dtype))) < 0) continue;
    for (int o = 0; o < 3; o++) e.in[o] = (int8_t)in[o];
    if (!kernel_signature(k, &e, &key) || ix->slot[key][w].k != NULL) continue;
    e.k = k;
    e.range = k->range;
    e.direct = e.in[0] == 0 && e.in[1] == 1 && e.in[2] == 2 && e.ext_dim[0] == 0 &&
               (k->n_extents < 2 || e.ext_dim[1] == 1);
    ix->slot[key][w] = e;
  }
}

/* wc__where_index_find, inline for wc_where's hot path. */
static inline const wc_where_entry *index_find(const wc_where_index *ix, const wc_loop *L,
                                               size_t width) {
  int w = width_slot(width);
  if (L->rank > 2 || w < 0) return NULL;
  const wc_where_entry *e = &ix->slot[signature_key(L)][w];
  return e->k != NULL ? e : NULL;
}

const wc_where_entry *wc__where_index_find(const wc_where_index *ix, const wc_loop *L,
                                           size_t width) {
  return index_find(ix, L, width);
}

/* The built-in index is built once, by the first caller; state goes
   UNBUILT -> BUILDING -> BUILT. A caller that finds another thread building
   takes the generic loop meanwhile, which gives the same bits: no lock, no
   wait, and no read of the index before it is complete (acquire/release). */
enum { UNBUILT, BUILDING, BUILT };
static wc_where_index builtin_index;
static atomic_int     builtin_state = UNBUILT;

/* The first calls: claims the build or finds it claimed. */
static const wc_where_index *builtin_build_once(void) {
  int s = UNBUILT;
  if (!atomic_compare_exchange_strong_explicit(&builtin_state, &s, BUILDING, memory_order_acquire,
                                               memory_order_acquire))
    return s == BUILT ? &builtin_index : NULL;
  wc__where_index_build(&builtin_index, &wc_builtin_table);
  atomic_store_explicit(&builtin_state, BUILT, memory_order_release);
  return &builtin_index;
}

/* wc__where_builtin, inline for the hot path: one acquire load once built. */
static inline const wc_where_index *builtin(void) {
  if (atomic_load_explicit(&builtin_state, memory_order_acquire) == BUILT) return &builtin_index;
  return builtin_build_once();
}

const wc_where_index *wc__where_builtin(void) { return builtin(); }

/* The registered plain-where kernels, in order of registration: the first
   whose parameters bind to the plan's shapes runs. Out of line: its arrays
   would cost wc_where's hot path a large frame. */
static bool where_user(const wc_loop *L, size_t w, const void *const ops[3], void *out) {
  size_t      ext[WC_MAX_OPERANDS * WC_MAX_RANK];
  bool        bound[WC_MAX_OPERANDS * WC_MAX_RANK];
  int64_t     shapes[3][WC_MAX_RANK];
  const void *data[3];
  for (int k = 0; k < 3; k++)
    for (int d = 0; d < L->rank; d++) shapes[k][d] = L->stride[k][d] ? L->extent[d] : 1;
  for (int i = 0; i < n_where_kernels; i++) {
    const where_kernel *wk = &where_kernels[i];
    int                 ne = wk->k->n_extents;
    bool                fits = true;
    if (wk->width != w) continue;
    if (ne < 0 || ne > WC_MAX_OPERANDS * WC_MAX_RANK) continue;
    memset(bound, 0, (size_t)ne * sizeof *bound);
    for (int o = 0; o < 3 && fits; o++)
      fits = bind(&wk->k->inputs[wk->in[o]], L->rank, shapes[o], ne, ext, bound);
    if (!fits) continue;
    for (int o = 0; o < 3; o++) data[wk->in[o]] = ops[o];
    wc__run_range(wk->k->range, ext, data, out, (size_t)L->count, w, 1);
    return true;
  }
  return false;
}

bool wc__where_registered(const wc_loop *L, const wc_tensor *cond, const wc_tensor *x,
                          const wc_tensor *y, wc_tensor *out) {
  size_t                w = wc_dtype_size(x->dtype), ext[WC_WHERE_MAX_EXTENTS];
  const void           *ops[3] = {cond->data, x->data, y->data}, *data[3];
  const wc_where_index *ix = builtin();
  const wc_where_entry *e = ix ? index_find(ix, L, w) : NULL;
  if (e == NULL) return n_where_kernels > 0 && where_user(L, w, ops, out->data);
  /* Extents from the plan's dims. Reordering through e's indices costs a 2x2
     call a nanosecond (the stores wait for the indices), so only when needed. */
  if (e->direct) {
    ext[0] = (size_t)L->extent[0];
    ext[1] = L->rank == 2 ? (size_t)L->extent[1] : 0; /* extent[1] unset in rank 1 */
    wc__run_range(e->range, ext, ops, out->data, (size_t)L->count, w, 1);
    return true;
  }
  ext[0] = (size_t)L->extent[e->ext_dim[0]];
  ext[1] = (size_t)L->extent[e->ext_dim[1]];
  data[e->in[0]] = ops[0];
  data[e->in[1]] = ops[1];
  data[e->in[2]] = ops[2];
  wc__run_range(e->range, ext, data, out->data, (size_t)L->count, w, 1);
  return true;
}
