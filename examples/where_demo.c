/* where_demo.c: runs every worked example of the ONNX Where-16 page through
   libwherec's wc_where and prints inputs and output; exits 1 on a mismatch. */
#include <inttypes.h>
#include <stdio.h>
#include <wherec/wherec.h>

#include "onnx_where_examples.h"

/* Prints element i of a tensor's data in the dtype's natural notation. */
static void print_elem(wc_dtype dt, const void *data, int64_t i) {
  switch (dt) {
    case WC_BOOL: printf("%s", ((const bool *)data)[i] ? "True" : "False"); break;
    case WC_INT8: printf("%d", ((const int8_t *)data)[i]); break;
    case WC_INT16: printf("%d", ((const int16_t *)data)[i]); break;
    case WC_INT32: printf("%" PRId32, ((const int32_t *)data)[i]); break;
    case WC_INT64: printf("%" PRId64, ((const int64_t *)data)[i]); break;
    case WC_UINT8: printf("%u", ((const uint8_t *)data)[i]); break;
    case WC_UINT16: printf("%u", ((const uint16_t *)data)[i]); break;
    case WC_UINT32: printf("%" PRIu32, ((const uint32_t *)data)[i]); break;
    case WC_UINT64: printf("%" PRIu64, ((const uint64_t *)data)[i]); break;
    case WC_FLOAT: printf("%g", ((const float *)data)[i]); break;
    case WC_DOUBLE: printf("%g", ((const double *)data)[i]); break;
    case WC_STRING: printf("'%s'", ((const wc_string *)data)[i]); break;
    default: printf("?"); break;
  }
}

static void print_tensor(const char *label, const wc_tensor *t) {
  int64_t n = 1;
  printf("  %-9s shape=(", label);
  for (int d = 0; d < t->rank; d++) { printf("%s%" PRId64, d ? ", " : "", t->shape[d]); n *= t->shape[d]; }
  printf("%s) %-7s [", t->rank == 1 ? "," : "", wc_dtype_name(t->dtype));
  for (int64_t i = 0; i < n; i++) { printf("%s", i ? ", " : ""); print_elem(t->dtype, t->data, i); }
  printf("]\n");
}

static wc_tensor make(wc_dtype dt, int rank, const int64_t *shape, const void *data) {
  wc_tensor t = {dt, rank, {0}, (void *)data};
  for (int d = 0; d < rank; d++) t.shape[d] = shape[d];
  return t;
}

/* Same values as expected: bytes, or text for strings (NaN == NaN by bits). */
static bool same(const wc_tensor *a, const void *b) {
  int64_t n = 1;
  for (int d = 0; d < a->rank; d++) n *= a->shape[d];
  if (a->dtype != WC_STRING) return memcmp(a->data, b, (size_t)n * wc_dtype_size(a->dtype)) == 0;
  for (int64_t i = 0; i < n; i++)
    if (strcmp(((const wc_string *)a->data)[i], ((const wc_string *)b)[i]) != 0) return false;
  return true;
}

int main(void) {
  int failures = 0, count = 0;
#define X(name, DT, T, cr, cs, cv, xr, xs, xv, yr, ys, yv, orank, os, ov)                  \
  {                                                                                       \
    static const int64_t sc[] = cs, sx[] = xs, sy[] = ys, so[] = os;                      \
    static const bool c[] = cv;                                                           \
    static const T x[] = xv, y[] = yv, expect[] = ov;                                     \
    T out[sizeof expect / sizeof *expect] = {0};                                          \
    wc_tensor tc = make(WC_BOOL, cr, sc, c), tx = make(DT, xr, sx, x),                    \
              ty = make(DT, yr, sy, y), to = make(DT, orank, so, out);                    \
    wc_status s = wc_where(&tc, &tx, &ty, &to);                                           \
    bool ok = s == WC_OK && same(&to, expect);                                            \
    printf("%s: Where(condition, x, y) -> %s\n", #name, ok ? "ok" : wc_status_str(s));   \
    print_tensor("condition", &tc);                                                       \
    print_tensor("x", &tx);                                                               \
    print_tensor("y", &ty);                                                               \
    if (s == WC_OK) print_tensor("output", &to);                                          \
    failures += !ok;                                                                      \
    count++;                                                                              \
  }
  WC_ONNX_WHERE_EXAMPLES(X)
#undef X
  printf("%d passed, %d failed\n", count - failures, failures);
  return failures ? 1 : 0;
}
