/* node_cmp.c: the node tests' comparison of an output with ONNX's expected one: bit for bit,
   except that where numpy's expected value is a NaN any NaN is accepted. */
#include "node_cmp.h"

#include <inttypes.h>
#include <string.h>

#define NODE_CMP_SHOWN 8 /* mismatches printed */

/* Is the element at p of a float kind (component of a complex one) a NaN? The expected
   NaNs come from numpy, whose sign and payload are the machine's, not ONNX's; wherec pins
   its own (docs/semantics.md), so only NaN-ness is compared there. */
static int is_nan_bits(const unsigned char *p, size_t size) {
  uint64_t b = 0;
  memcpy(&b, p, size); /* little-endian host, as the .npy files */
  switch (size) {
  case 2: return (b & 0x7fffu) > 0x7c00u;
  case 4: return (b & 0x7fffffffu) > 0x7f800000u;
  case 8: return (b & 0x7fffffffffffffffu) > 0x7ff0000000000000u;
  }
  return 0;
}

/* The part size NaN is judged on for dtype t, 0 when t has no NaN. */
static size_t nan_part(wc_dtype t) {
  switch (t) {
  case WC_FLOAT16: return 2;
  case WC_FLOAT:
  case WC_COMPLEX64: return 4;
  case WC_DOUBLE:
  case WC_COMPLEX128: return 8;
  default: return 0; /* bfloat16: see same_element */
  }
}

static int same_element(wc_dtype t, const unsigned char *e, const unsigned char *g, size_t size) {
  if (t == WC_BFLOAT16) {
    uint16_t x, y;
    memcpy(&x, e, 2);
    memcpy(&y, g, 2);
    if ((x & 0x7fffu) > 0x7f80u) return (y & 0x7fffu) > 0x7f80u;
    return x == y;
  }
  size_t part = nan_part(t);
  if (part == 0) return memcmp(e, g, size) == 0;
  for (size_t o = 0; o < size; o += part) {
    int ok = is_nan_bits(e + o, part) ? is_nan_bits(g + o, part) : memcmp(e + o, g + o, part) == 0;
    if (!ok) return 0;
  }
  return 1;
}

static void print_element(FILE *out, wc_dtype t, const void *p, size_t size) {
  if (t == WC_STRING) {
    fprintf(out, "\"%s\"", *(const char *const *)p);
    return;
  }
  fprintf(out, "0x");
  for (size_t i = size; i-- > 0;) fprintf(out, "%02x", ((const unsigned char *)p)[i]);
  if (t == WC_FLOAT) fprintf(out, " (%.9g)", (double)*(const float *)p);
  if (t == WC_DOUBLE) fprintf(out, " (%.17g)", *(const double *)p);
}

int node_cmp(const wc_tensor *e, const wc_tensor *g, const char *what, FILE *out) {
  if (e->dtype != g->dtype) {
    fprintf(out, "%s: dtype %s, expected %s\n", what, wc_dtype_name(g->dtype), wc_dtype_name(e->dtype));
    return 1;
  }
  int same_shape = e->rank == g->rank;
  for (int d = 0; same_shape && d < e->rank; d++) same_shape = e->shape[d] == g->shape[d];
  if (!same_shape) {
    fprintf(out, "%s: shape (", what);
    for (int d = 0; d < g->rank; d++) fprintf(out, "%s%" PRId64, d ? "," : "", g->shape[d]);
    fprintf(out, "), expected (");
    for (int d = 0; d < e->rank; d++) fprintf(out, "%s%" PRId64, d ? "," : "", e->shape[d]);
    fprintf(out, ")\n");
    return 1;
  }
  size_t n = 1, size = wc_dtype_size(e->dtype), bad = 0;
  for (int d = 0; d < e->rank; d++) n *= (size_t)e->shape[d];
  for (size_t i = 0; i < n; i++) {
    const unsigned char *pe = (const unsigned char *)e->data + i * size;
    const unsigned char *pg = (const unsigned char *)g->data + i * size;
    int ok = e->dtype == WC_STRING ? strcmp(*(const char *const *)pe, *(const char *const *)pg) == 0
                                   : same_element(e->dtype, pe, pg, size);
    if (ok) continue;
    if (bad++ < NODE_CMP_SHOWN) {
      fprintf(out, "%s: element %zu: expected ", what, i);
      print_element(out, e->dtype, pe, size);
      fprintf(out, ", got ");
      print_element(out, e->dtype, pg, size);
      fprintf(out, "\n");
    }
  }
  if (bad) fprintf(out, "%s: %zu of %zu elements differ\n", what, bad, n);
  return bad != 0;
}

