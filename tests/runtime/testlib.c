/* testlib.c: test helpers: RNG, tensor allocation, edge-value fills. */
#include "testlib.h"

#include <stdlib.h>

const wc_dtype tl_all_dtypes[TL_N_DTYPES] = {
#define X(E, code, name, ctype, alias, sfx, kind) WC_##E,
    WC_DTYPE_LIST(X)
#undef X
};

uint64_t tl_next(tl_rng *r) {
  r->s ^= r->s >> 12;
  r->s ^= r->s << 25;
  r->s ^= r->s >> 27;
  return r->s * 0x2545F4914F6CDD1DULL;
}

int64_t tl_below(tl_rng *r, int64_t n) { return n <= 0 ? 0 : (int64_t)(tl_next(r) % (uint64_t)n); }

int64_t tl_count(int rank, const int64_t *shape) {
  int64_t n = 1;
  for (int d = 0; d < rank; d++) n *= shape[d];
  return n;
}

wc_tensor tl_tensor(wc_dtype dt, int rank, const int64_t *shape, const void *data) {
  wc_tensor t;
  memset(&t, 0, sizeof t);
  t.dtype = dt;
  t.rank = rank;
  for (int d = 0; d < rank; d++) t.shape[d] = shape[d];
  t.data = (void *)data;
  return t;
}

wc_tensor tl_alloc(wc_dtype dt, int rank, const int64_t *shape) {
  wc_tensor t = tl_tensor(dt, rank, shape, NULL);
  size_t bytes = tl_bytes(&t);
  t.data = bytes ? malloc(bytes) : NULL;
  return t;
}

void tl_free(wc_tensor *t) { free(t->data); t->data = NULL; }

size_t tl_bytes(const wc_tensor *t) {
  return (size_t)tl_count(t->rank, t->shape) * wc_dtype_size(t->dtype);
}

static const char *const tl_strings[] = {"", "a", "bc", "", "where", "\xc3\xa9t\xc3\xa9", "zz"};

/* Random bits of width w, one time in four replaced by an edge pattern. */
static uint64_t edge_bits(tl_rng *r, wc_dtype dt) {
  static const uint64_t f32[] = {0x7fc00000u, 0x7f800001u, 0xffc12345u, 0x7f800000u, 0xff800000u,
                                 0x80000000u, 0x00000001u, 0x807fffffu, 0x3f800000u};
  static const uint64_t f64[] = {0x7ff8000000000000u, 0x7ff0000000000001u, 0xfff8dead00000000u,
                                 0x7ff0000000000000u, 0xfff0000000000000u, 0x8000000000000000u,
                                 0x0000000000000001u, 0x800fffffffffffffu, 0x3ff0000000000000u};
  static const uint64_t f16[] = {0x7e00, 0x7c01, 0xfe55, 0x7c00, 0xfc00, 0x8000, 0x0001, 0x83ff, 0x3c00};
  static const uint64_t bf16[] = {0x7fc0, 0x7f81, 0xffc5, 0x7f80, 0xff80, 0x8000, 0x0001, 0x807f, 0x3f80};
  static const uint64_t ints[] = {0, 1, UINT64_MAX, 0x80ull, 0x7full, 0x8000ull, 0x7fffull, 0x80000000ull,
                                  0x7fffffffull, 0x8000000000000000ull, 0x7fffffffffffffffull};
  uint64_t v = tl_next(r);
  if (tl_below(r, 4) != 0) return v;
  switch (dt) {
    case WC_FLOAT: case WC_COMPLEX64: return f32[tl_below(r, 9)];
    case WC_DOUBLE: case WC_COMPLEX128: return f64[tl_below(r, 9)];
    case WC_FLOAT16: return f16[tl_below(r, 9)];
    case WC_BFLOAT16: return bf16[tl_below(r, 9)];
    default: return ints[tl_below(r, 11)];
  }
}

void tl_fill(tl_rng *r, wc_tensor *t, double p_true) {
  int64_t n = tl_count(t->rank, t->shape);
  size_t w = wc_dtype_size(t->dtype);
  for (int64_t i = 0; i < n; i++) {
    char *p = (char *)t->data + (size_t)i * w;
    if (t->dtype == WC_BOOL) {
      *(bool *)p = (double)(tl_next(r) >> 11) * 0x1.0p-53 < p_true;
    } else if (t->dtype == WC_STRING) {
      *(const char **)p = tl_strings[tl_below(r, (int64_t)(sizeof tl_strings / sizeof *tl_strings))];
    } else {
      /* complex: two parts, each its own (edge) value */
      size_t part = (t->dtype == WC_COMPLEX64 || t->dtype == WC_COMPLEX128) ? w / 2 : w;
      for (size_t off = 0; off < w; off += part) {
        uint64_t v = edge_bits(r, t->dtype);
        if (tl_below(r, 8) == 0) v = 0;               /* plenty of zeros for coordinates */
        memcpy(p + off, &v, part);                    /* little-endian: low bytes */
      }
    }
  }
}

int64_t tl_first_difference(wc_dtype dt, const void *a, const void *b, int64_t n) {
  size_t w = wc_dtype_size(dt);
  for (int64_t i = 0; i < n; i++)
    if (memcmp((const char *)a + (size_t)i * w, (const char *)b + (size_t)i * w, w) != 0) return i;
  return -1;
}
