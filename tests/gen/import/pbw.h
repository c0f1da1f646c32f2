/* pbw.h: a tiny protobuf writer for tests: builds ONNX messages byte by byte,
   so that tests can make well-formed models and exactly the malformed ones they need. */
#ifndef WHEREC_TESTS_PBW_H
#define WHEREC_TESTS_PBW_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct pbw {
  uint8_t *buf;                /* malloc'ed; free with pbw_free */
  size_t   len, cap;
} pbw;

static inline void pbw_raw(pbw *w, const void *p, size_t n) {
  if (n == 0) return;
  if (w->len + n > w->cap) {
    w->cap = (w->len + n) * 2 + 64;
    w->buf = realloc(w->buf, w->cap);
  }
  memcpy(w->buf + w->len, p, n);
  w->len += n;
}

static inline void pbw_varint(pbw *w, uint64_t v) {
  uint8_t b[10];
  int n = 0;
  do {
    b[n] = (uint8_t)(v & 0x7f);
    v >>= 7;
    if (v) b[n] |= 0x80;
    n++;
  } while (v);
  pbw_raw(w, b, (size_t)n);
}

static inline void pbw_tag(pbw *w, uint32_t field, int wire) { pbw_varint(w, (uint64_t)field << 3 | (uint64_t)wire); }
static inline void pbw_int(pbw *w, uint32_t field, int64_t v) { pbw_tag(w, field, 0); pbw_varint(w, (uint64_t)v); }
static inline void pbw_bytes(pbw *w, uint32_t field, const void *p, size_t n) {
  pbw_tag(w, field, 2);
  pbw_varint(w, n);
  pbw_raw(w, p, n);
}
static inline void pbw_str(pbw *w, uint32_t field, const char *s) { pbw_bytes(w, field, s, strlen(s)); }
static inline void pbw_msg(pbw *w, uint32_t field, const pbw *m) { pbw_bytes(w, field, m->buf, m->len); }
static inline void pbw_f32(pbw *w, uint32_t field, float f) {
  uint8_t b[4];
  uint32_t u;
  memcpy(&u, &f, 4);
  for (int i = 0; i < 4; i++) b[i] = (uint8_t)(u >> (8 * i));
  pbw_tag(w, field, 5);
  pbw_raw(w, b, 4);
}
static inline void pbw_free(pbw *w) { free(w->buf); memset(w, 0, sizeof *w); }

/* ValueInfoProto of a tensor: dims >= 0 fixed, -1 unknown; params[i] (if not NULL)
   symbolic; rank < 0: no shape (unknown rank). */
static inline void pbw_value_info(pbw *w, uint32_t field, const char *name, int elem, int rank,
                                  const int64_t *dims, const char *const *params) {
  pbw vi = {0}, type = {0}, tt = {0}, shape = {0};
  for (int d = 0; d < rank; d++) {
    pbw dim = {0};
    if (params && params[d]) pbw_str(&dim, 2, params[d]);
    else if (dims[d] >= 0) pbw_int(&dim, 1, dims[d]);
    pbw_msg(&shape, 1, &dim);
    pbw_free(&dim);
  }
  pbw_int(&tt, 1, elem);
  if (rank >= 0) pbw_msg(&tt, 2, &shape);     /* rank < 0: no shape at all */
  pbw_msg(&type, 1, &tt);
  pbw_str(&vi, 1, name);
  pbw_msg(&vi, 2, &type);
  pbw_msg(w, field, &vi);
  pbw_free(&vi);
  pbw_free(&type);
  pbw_free(&tt);
  pbw_free(&shape);
}

/* NodeProto with up to 4 inputs and one output ("" inputs stay empty strings). */
static inline void pbw_node(pbw *graph, const char *op, const char *name, const char *const *in,
                            int n_in, const char *out, const pbw *attrs) {
  pbw n = {0};
  for (int i = 0; i < n_in; i++) pbw_str(&n, 1, in[i]);
  pbw_str(&n, 2, out);
  if (name) pbw_str(&n, 3, name);
  pbw_str(&n, 4, op);
  if (attrs) pbw_raw(&n, attrs->buf, attrs->len);   /* attribute fields, already tagged */
  pbw_msg(graph, 1, &n);
  pbw_free(&n);
}

/* An AttributeProto holding one sub-graph (field g, type GRAPH), tagged as a
   NodeProto attribute for pbw_node's attrs. */
static inline void pbw_graph_attr(pbw *attrs, const char *name, const pbw *graph) {
  pbw at = {0};
  pbw_str(&at, 1, name);
  pbw_msg(&at, 6, graph);
  pbw_int(&at, 20, 5);
  pbw_msg(attrs, 5, &at);
  pbw_free(&at);
}

/* An AttributeProto holding a list of n sub-graphs (field graphs, type GRAPHS). */
static inline void pbw_graphs_attr(pbw *attrs, const char *name, const pbw *graphs, int n) {
  pbw at = {0};
  pbw_str(&at, 1, name);
  for (int i = 0; i < n; i++) pbw_msg(&at, 11, &graphs[i]);
  pbw_int(&at, 20, 10);
  pbw_msg(attrs, 5, &at);
  pbw_free(&at);
}

/* A scalar initializer with raw data. */
static inline void pbw_scalar_init(pbw *graph, const char *name, int dtype, const void *raw, size_t n) {
  pbw t = {0};
  pbw_int(&t, 2, dtype);
  pbw_str(&t, 8, name);
  pbw_bytes(&t, 9, raw, n);
  pbw_msg(graph, 5, &t);
  pbw_free(&t);
}

/* ModelProto around a graph: ir_version 8, opset `opset` of the default domain. */
static inline void pbw_model(pbw *model, const pbw *graph, int opset) {
  pbw os = {0};
  pbw_int(&os, 2, opset);
  pbw_int(model, 1, 8);
  pbw_msg(model, 8, &os);
  pbw_msg(model, 7, graph);
  pbw_free(&os);
}

#endif
