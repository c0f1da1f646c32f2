/* where.c: the generic Where and tf.compat.v1.where kernels. Values are moved
   as opaque bits of their element width (1, 2, 4, 8 or 16 bytes). */
#include "broadcast.h"
#include "parallel.h"
#include "registry.h"
#include "tensor.h"
#include "where.h"

typedef struct wc_u128 {
  uint64_t lo, hi;
} wc_u128; /* a 16-byte element (complex128) */

/* One row of the select, cond contiguous (stride 1); x and y either contiguous
   or broadcast (stride 0). Branch-free: a mask from cond blends the two loads,
   so compilers emit vector blends; the loop per stride class lets them see
   constant strides. */
#define WC_SELECT_ROW(W, T)                                                                   \
  static void select_row_##W(int64_t n, const uint8_t *c, const T *x, int64_t sx, const T *y, \
                             int64_t sy, T *o) {                                              \
    if (sx && sy)                                                                             \
      for (int64_t i = 0; i < n; i++) {                                                       \
        T m = (T)0 - (T)(c[i] != 0);                                                          \
        o[i] = (T)((x[i] & m) | (y[i] & (T)~m));                                              \
      }                                                                                       \
    else if (sx) {                                                                            \
      const T b = y[0];                                                                       \
      for (int64_t i = 0; i < n; i++) {                                                       \
        T m = (T)0 - (T)(c[i] != 0);                                                          \
        o[i] = (T)((x[i] & m) | (b & (T)~m));                                                 \
      }                                                                                       \
    } else if (sy) {                                                                          \
      const T a = x[0];                                                                       \
      for (int64_t i = 0; i < n; i++) {                                                       \
        T m = (T)0 - (T)(c[i] != 0);                                                          \
        o[i] = (T)((a & m) | (y[i] & (T)~m));                                                 \
      }                                                                                       \
    } else {                                                                                  \
      const T a = x[0], b = y[0];                                                             \
      for (int64_t i = 0; i < n; i++) {                                                       \
        T m = (T)0 - (T)(c[i] != 0);                                                          \
        o[i] = (T)((a & m) | (b & (T)~m));                                                    \
      }                                                                                       \
    }                                                                                         \
  }
WC_SELECT_ROW(1, uint8_t)
WC_SELECT_ROW(2, uint16_t)
WC_SELECT_ROW(4, uint32_t)
WC_SELECT_ROW(8, uint64_t)
#undef WC_SELECT_ROW

static void select_row_16(int64_t n, const uint8_t *c, const wc_u128 *x, int64_t sx,
                          const wc_u128 *y, int64_t sy, wc_u128 *o) {
  for (int64_t i = 0; i < n; i++) {
    uint64_t       m = (uint64_t)0 - (uint64_t)(c[i] != 0);
    const wc_u128 *a = &x[i * sx], *b = &y[i * sy];
    wc_u128        r;
    r.lo = (a->lo & m) | (b->lo & ~m);
    r.hi = (a->hi & m) | (b->hi & ~m);
    o[i] = r;
  }
}

/* cond broadcast along the row: one pointer choice, then a block copy or a fill. */
static void copy_row(int64_t n, size_t w, const char *src, int64_t ss, char *o) {
  if (ss) {
    if (src != o) memmove(o, src, (size_t)n * w);
    return;
  }
  for (int64_t i = 0; i < n; i++) memcpy(o + (size_t)i * w, src, w);
}

/* One generic select: a plan whose operands are cond, x, y, out, and the
   element width w that picks the copy. */
typedef struct where_call {
  const wc_loop *L;
  size_t         w;
  const uint8_t *c;
  const char    *x, *y;
  char          *out;
} where_call;

/* Row elements [j, j + n) at the iterator's row. */
static void where_segment(const where_call *a, const wc_loop_iter *it, int64_t j, int64_t n) {
  const wc_loop *L = a->L;
  size_t         w = a->w;
  int            in = L->rank - 1;
  int64_t        sc = L->stride[0][in], sx = L->stride[1][in], sy = L->stride[2][in];
  const uint8_t *cr = a->c + it->off[0] + j * sc;
  const char    *xr = a->x + (size_t)(it->off[1] + j * sx) * w;
  const char    *yr = a->y + (size_t)(it->off[2] + j * sy) * w;
  char          *orow = a->out + (size_t)(it->off[3] + j) * w;
  if (sc == 0) {
    copy_row(n, w, *cr ? xr : yr, *cr ? sx : sy, orow);
    return;
  }
  switch (w) {
  case 1:
    select_row_1(n, cr, (const uint8_t *)xr, sx, (const uint8_t *)yr, sy, (uint8_t *)orow);
    break;
  case 2:
    select_row_2(n, cr, (const uint16_t *)xr, sx, (const uint16_t *)yr, sy, (uint16_t *)orow);
    break;
  case 4:
    select_row_4(n, cr, (const uint32_t *)xr, sx, (const uint32_t *)yr, sy, (uint32_t *)orow);
    break;
  case 8:
    select_row_8(n, cr, (const uint64_t *)xr, sx, (const uint64_t *)yr, sy, (uint64_t *)orow);
    break;
  default:
    select_row_16(n, cr, (const wc_u128 *)xr, sx, (const wc_u128 *)yr, sy, (wc_u128 *)orow);
    break;
  }
}

/* Flat output elements [begin, end): a task of a split call, or all of it. */
static void where_range(void *ctx, size_t begin, size_t end) {
  const where_call *a = ctx;
  int64_t           row = a->L->extent[a->L->rank - 1];
  int64_t           j = (int64_t)begin % row, left = (int64_t)(end - begin);
  wc_loop_iter      it;
  wc__loop_seek(a->L, &it, (int64_t)begin / row);
  for (;;) {
    int64_t n = row - j < left ? row - j : left;
    where_segment(a, &it, j, n);
    left -= n;
    j = 0;
    if (left == 0 || !wc__loop_next_row(a->L, &it)) break;
  }
}

/* The plain select over a plan whose operands are cond, x, y, out; w picks
   the copy width. */
static void where_loop(const wc_loop *L, size_t w, const bool *cond, const void *x, const void *y,
                       void *out) {
  where_call a = {L, w, (const uint8_t *)cond, x, y, out};
  if (L->count == 0) return;
  wc__parallel_for((size_t)L->count, w, out, where_range, &a);
}

/* Checks shared by both entry points: descriptors valid, cond bool, x and y
   of one dtype, out of x's dtype. *count (may be NULL) gets out's checked
   element count. */
static wc_status check_operands(const wc_tensor *cond, const wc_tensor *x, const wc_tensor *y,
                                const wc_tensor *out, int64_t *count) {
  const wc_tensor *all[4] = {cond, x, y, out};
  for (int i = 0; i < 4; i++) {
    wc_status s = wc__tensor_check(all[i], i == 3 ? count : NULL);
    if (s != WC_OK) return s;
  }
  if (cond->dtype != WC_BOOL || x->dtype != y->dtype || out->dtype != x->dtype) return WC_E_DTYPE;
  return WC_OK;
}

/* Plans the loop, then runs a registered kernel that fits, or the generic loop. */
static void run_where(const wc_tensor *cond, const wc_tensor *x, const wc_tensor *y,
                      wc_tensor *out) {
  const wc_tensor *ops[4] = {cond, x, y, out};
  wc_loop          loop;
  wc__loop_plan(&loop, 4, ops, out->rank, out->shape);
  if (loop.count == 0 || wc__where_registered(&loop, cond, x, y, out)) return;
  where_loop(&loop, wc_dtype_size(x->dtype), cond->data, x->data, y->data, out->data);
}

/* All four shapes equal (the common case): one flat run of n elements (out's
   checked count: 0 when empty, whose other extents may multiply past int64),
   so neither the broadcast shape nor a loop plan is needed. */
static bool run_flat(const wc_tensor *cond, const wc_tensor *x, const wc_tensor *y, wc_tensor *out,
                     int64_t n) {
  wc_loop L;
  if (!wc__same_shape(x, cond->rank, cond->shape) || !wc__same_shape(y, cond->rank, cond->shape) ||
      !wc__same_shape(out, cond->rank, cond->shape))
    return false;
  if (n == 0) return true;
  L.rank = 1;
  L.n_ops = 4;
  L.count = L.extent[0] = n;
  for (int k = 0; k < 4; k++) L.stride[k][0] = 1;
  if (!wc__where_registered(&L, cond, x, y, out))
    where_loop(&L, wc_dtype_size(x->dtype), cond->data, x->data, y->data, out->data);
  return true;
}

wc_status wc_where(const wc_tensor *cond, const wc_tensor *x, const wc_tensor *y, wc_tensor *out) {
  const wc_tensor *in[3] = {cond, x, y};
  int64_t          shape[WC_MAX_RANK];
  int64_t          n;
  int              rank;
  wc_status        s = check_operands(cond, x, y, out, &n);
  if (s != WC_OK) return s;
  if (run_flat(cond, x, y, out, n)) return WC_OK;
  s = wc_broadcast_shape(in, 3, &rank, shape);
  if (s != WC_OK) return s;
  if (!wc__same_shape(out, rank, shape)) return WC_E_SHAPE;
  run_where(cond, x, y, out);
  return WC_OK;
}

wc_status wc__where_v1_check(const wc_tensor *cond, const wc_tensor *x, const wc_tensor *y,
                             const wc_tensor *out) {
  wc_status s = check_operands(cond, x, y, out, NULL);
  if (s != WC_OK) return s;
  if (!wc__same_shape(y, x->rank, x->shape) || !wc__same_shape(out, x->rank, x->shape))
    return WC_E_SHAPE;
  if (wc__same_shape(cond, x->rank, x->shape)) return WC_OK; /* element select (also scalars) */
  if (cond->rank == 1 && x->rank > 1 && cond->shape[0] == x->shape[0]) return WC_OK;
  return WC_E_SHAPE;
}

void wc__where_v1_run(const wc_tensor *cond, const wc_tensor *x, const wc_tensor *y,
                      wc_tensor *out) {
  if (cond->rank == x->rank) {
    run_where(cond, x, y, out);
    return;
  }
  /* Row select: cond seen as [n, 1, ..., 1] broadcasts over each outer slice. */
  wc_tensor rows = *cond;
  rows.rank = x->rank;
  for (int d = 1; d < x->rank; d++) rows.shape[d] = 1;
  run_where(&rows, x, y, out);
}

wc_status wc_where_v1(const wc_tensor *cond, const wc_tensor *x, const wc_tensor *y,
                      wc_tensor *out) {
  wc_status s = wc__where_v1_check(cond, x, y, out);
  if (s != WC_OK) return s;
  wc__where_v1_run(cond, x, y, out);
  return WC_OK;
}
