/* reference.c: the reference evaluator. Deliberately naive: one element at a
   time, multi-index arithmetic with division, no plans, no coalescing. */
#include "reference.h"
#include "tensor.h"

/* Broadcast rank/shape of three tensors, written out longhand. */
static wc_status ref_shape3(const wc_tensor *a, const wc_tensor *b, const wc_tensor *c, int *rank,
                            int64_t *shape) {
  const wc_tensor *t[3] = {a, b, c};
  int              r = a->rank;
  if (b->rank > r) r = b->rank;
  if (c->rank > r) r = c->rank;
  for (int d = 0; d < r; d++) {
    int64_t e = 1;
    for (int k = 0; k < 3; k++) {
      int     td = d - (r - t[k]->rank);
      int64_t te = td < 0 ? 1 : t[k]->shape[td];
      if (te == 1) continue;
      if (e != 1 && e != te) return WC_E_SHAPE;
      e = te;
    }
    shape[d] = e;
  }
  *rank = r;
  return WC_OK;
}

/* Flat offset in t of the output multi-index idx (rank r), broadcasting t. */
int64_t wc__ref_offset(const wc_tensor *t, int r, const int64_t *idx) {
  int64_t off = 0;
  for (int td = 0; td < t->rank; td++) {
    int64_t i = t->shape[td] == 1 ? 0 : idx[td + (r - t->rank)];
    off = off * t->shape[td] + i;
  }
  return off;
}

/* Multi-index of flat element k of a shape, by repeated division. */
void wc__ref_unflatten(int64_t k, int r, const int64_t *shape, int64_t *idx) {
  for (int d = r - 1; d >= 0; d--) {
    idx[d] = k % shape[d];
    k /= shape[d];
  }
}

/* Validates the operands; *total is out's element count (0 when empty, however
   large its other extents: multiplying them here could overflow). */
static wc_status ref_check(const wc_tensor *c, const wc_tensor *x, const wc_tensor *y,
                           const wc_tensor *o, int64_t *total) {
  const wc_tensor *all[4] = {c, x, y, o};
  for (int i = 0; i < 4; i++) {
    wc_status s = wc__tensor_check(all[i], i == 3 ? total : NULL);
    if (s != WC_OK) return s;
  }
  if (c->dtype != WC_BOOL || x->dtype != y->dtype || o->dtype != x->dtype) return WC_E_DTYPE;
  return WC_OK;
}

static void ref_copy(void *dst, int64_t di, const void *src, int64_t si, size_t w) {
  memcpy((char *)dst + (size_t)di * w, (const char *)src + (size_t)si * w, w);
}

wc_status wc_ref_where(const wc_tensor *c, const wc_tensor *x, const wc_tensor *y, wc_tensor *o) {
  int64_t   shape[WC_MAX_RANK], idx[WC_MAX_RANK], total;
  int       r;
  wc_status s = ref_check(c, x, y, o, &total);
  if (s != WC_OK) return s;
  if ((s = ref_shape3(c, x, y, &r, shape)) != WC_OK) return s;
  if (o->rank != r) return WC_E_SHAPE;
  for (int d = 0; d < r; d++)
    if (o->shape[d] != shape[d]) return WC_E_SHAPE;
  size_t w = wc_dtype_size(x->dtype);
  for (int64_t k = 0; k < total; k++) {
    wc__ref_unflatten(k, r, shape, idx);
    bool pick = ((const uint8_t *)c->data)[wc__ref_offset(c, r, idx)] != 0;
    if (pick) ref_copy(o->data, k, x->data, wc__ref_offset(x, r, idx), w);
    else ref_copy(o->data, k, y->data, wc__ref_offset(y, r, idx), w);
  }
  return WC_OK;
}

wc_status wc_ref_where_v1(const wc_tensor *c, const wc_tensor *x, const wc_tensor *y,
                          wc_tensor *o) {
  int64_t   idx[WC_MAX_RANK], total;
  bool      rows;
  wc_status s = ref_check(c, x, y, o, &total);
  if (s != WC_OK) return s;
  if (y->rank != x->rank || o->rank != x->rank) return WC_E_SHAPE;
  for (int d = 0; d < x->rank; d++)
    if (y->shape[d] != x->shape[d] || o->shape[d] != x->shape[d]) return WC_E_SHAPE;
  rows = c->rank != x->rank;
  if (rows && !(c->rank == 1 && x->rank > 1 && c->shape[0] == x->shape[0])) return WC_E_SHAPE;
  for (int d = 0; !rows && d < x->rank; d++)
    if (c->shape[d] != x->shape[d]) return WC_E_SHAPE;
  size_t w = wc_dtype_size(x->dtype);
  for (int64_t k = 0; k < total; k++) {
    wc__ref_unflatten(k, x->rank, x->shape, idx);
    bool pick = ((const uint8_t *)c->data)[rows ? idx[0] : k] != 0;
    ref_copy(o->data, k, pick ? x->data : y->data, k, w);
  }
  return WC_OK;
}

/* Element k of t is non-zero: by value, through float conversion for floats. */
bool wc__ref_truth(const wc_tensor *t, int64_t k) {
  const void *p = (const char *)t->data + (size_t)k * wc_dtype_size(t->dtype);
  /* One case a line, as written. */
  /* clang-format off */
  switch (t->dtype) {
#define REF_INT(E, T) case E: { T v; memcpy(&v, p, sizeof v); return v != 0; }
    REF_INT(WC_BOOL, uint8_t) REF_INT(WC_INT8, int8_t) REF_INT(WC_UINT8, uint8_t)
    REF_INT(WC_INT16, int16_t) REF_INT(WC_UINT16, uint16_t) REF_INT(WC_INT32, int32_t)
    REF_INT(WC_UINT32, uint32_t) REF_INT(WC_INT64, int64_t) REF_INT(WC_UINT64, uint64_t)
#undef REF_INT
    case WC_FLOAT: { float v; memcpy(&v, p, 4); return v != 0.0f; }
    case WC_DOUBLE: { double v; memcpy(&v, p, 8); return v != 0.0; }
    case WC_FLOAT16: { wc_float16 v; memcpy(&v, p, 2); return wc_f16_to_f32(v) != 0.0f; }
    case WC_BFLOAT16: { wc_bfloat16 v; memcpy(&v, p, 2); return wc_bf16_to_f32(v) != 0.0f; }
    case WC_COMPLEX64: { wc_complex64 v; memcpy(&v, p, sizeof v); return v.re != 0.0f || v.im != 0.0f; }
    case WC_COMPLEX128: { wc_complex128 v; memcpy(&v, p, sizeof v); return v.re != 0.0 || v.im != 0.0; }
    case WC_STRING: { wc_string v; memcpy(&v, p, sizeof v); return v != NULL && strlen(v) > 0; }
  }
  /* clang-format on */
  return false;
}

/* Naive coordinates: count, check capacity, then unflatten each true element. */
static wc_status ref_coords(const wc_tensor *c, int64_t *coords, int64_t cap, int64_t *n,
                            bool rows) {
  int64_t   total, count = 0, idx[WC_MAX_RANK];
  wc_status s = wc__tensor_check(c, &total);
  if (s != WC_OK) return s;
  if (n == NULL || cap < 0) return WC_E_ARG;
  for (int64_t k = 0; k < total; k++) count += wc__ref_truth(c, k);
  *n = count;
  if (count * c->rank > cap) return WC_E_CAPACITY;
  if (count * c->rank > 0 && coords == NULL) return WC_E_ARG;
  for (int64_t k = 0, j = 0; k < total; k++) {
    if (!wc__ref_truth(c, k)) continue;
    wc__ref_unflatten(k, c->rank, c->shape, idx);
    for (int d = 0; d < c->rank; d++) {
      if (rows) coords[j * c->rank + d] = idx[d];
      else coords[d * count + j] = idx[d];
    }
    j++;
  }
  return WC_OK;
}

wc_status wc_ref_argwhere(const wc_tensor *c, int64_t *coords, int64_t cap, int64_t *n) {
  return ref_coords(c, coords, cap, n, true);
}

wc_status wc_ref_nonzero(const wc_tensor *c, int64_t *coords, int64_t cap, int64_t *n) {
  return ref_coords(c, coords, cap, n, false);
}
