/* onnx.c: the protobuf wire format (varint, 64-bit, length-delimited, 32-bit) and the ONNX
   messages on it. Every length is checked against its enclosing message; each message is
   read twice (count, then fill) into an arena; sub-graphs at most ONNX_MAX_GRAPH_DEPTH deep. */
#define _POSIX_C_SOURCE 200809L

#include "import/onnx.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/errbuf.h"
#include "base/file.h"

enum { PB_VARINT = 0, PB_I64 = 1, PB_LEN = 2, PB_SGROUP = 3, PB_EGROUP = 4, PB_I32 = 5 };

typedef struct pb_reader {
  const uint8_t *p, *end; /* the unread rest of one message */
} pb_reader;

typedef struct pb_field {
  uint32_t   num;  /* field number */
  uint8_t    wire; /* wire type */
  uint64_t   v;    /* varint, 64-bit and 32-bit values */
  onnx_bytes b;    /* length-delimited payload */
} pb_field;

typedef struct ctx {
  arena         *a;    /* where the messages go */
  const uint8_t *base; /* start of the buffer: messages give byte offsets */
  char          *err;
  size_t         cap;
  bool           failed; /* err holds the first error */
  int            depth;  /* sub-graphs around the graph being read; 0: the model's */
} ctx;

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static bool
fail(ctx *c, const char *fmt, ...) {
  va_list ap;
  if (c->failed || c->err == NULL || c->cap == 0) {
    c->failed = true;
    return false;
  }
  va_start(ap, fmt);
  vsnprintf(c->err, c->cap, fmt, ap);
  va_end(ap);
  c->failed = true;
  return false;
}

static pb_reader reader(onnx_bytes b) {
  pb_reader r = {b.data, b.data + b.len};
  return r;
}

/* At most 10 bytes; the tenth may only hold the 64th bit. */
static bool pb_varint(pb_reader *r, uint64_t *v) {
  uint64_t x = 0;
  for (int shift = 0; shift <= 63; shift += 7) {
    if (r->p >= r->end) return false;
    uint8_t b = *r->p++;
    if (shift == 63 && b > 1) return false;
    x |= (uint64_t)(b & 0x7f) << shift;
    if (!(b & 0x80)) {
      *v = x;
      return true;
    }
  }
  return false;
}

static uint64_t load_le(const uint8_t *p, int n) {
  uint64_t v = 0;
  for (int i = n - 1; i >= 0; i--) v = v << 8 | p[i];
  return v;
}

/* The next field of the message in r: 1 with *f filled, 0 at its end, -1 on
   malformed bytes (message in c). */
static int pb_next(ctx *c, pb_reader *r, const char *msg, pb_field *f) {
  uint64_t tag, len;
  size_t   off = (size_t)(r->p - c->base);
  if (r->p >= r->end) return 0;
  if (!pb_varint(r, &tag))
    return fail(c, "%s: truncated or invalid field tag at byte %zu", msg, off), -1;
  f->num = (uint32_t)(tag >> 3);
  f->wire = (uint8_t)(tag & 7);
  if (f->num == 0 || (tag >> 32) != 0)
    return fail(c, "%s: invalid field number at byte %zu", msg, off), -1;
  switch (f->wire) {
  case PB_VARINT:
    if (!pb_varint(r, &f->v))
      return fail(c, "%s: field %u: truncated or invalid varint at byte %zu", msg, f->num, off), -1;
    break;
  case PB_I64:
  case PB_I32: {
    int n = f->wire == PB_I64 ? 8 : 4;
    if (r->end - r->p < n)
      return fail(c, "%s: field %u: truncated %d-bit value at byte %zu", msg, f->num, n * 8, off),
             -1;
    f->v = load_le(r->p, n);
    r->p += n;
    break;
  }
  case PB_LEN:
    if (!pb_varint(r, &len))
      return fail(c, "%s: field %u: truncated length at byte %zu", msg, f->num, off), -1;
    if (len > (uint64_t)(r->end - r->p))
      return fail(c, "%s: field %u: length %llu runs past the end of its message (byte %zu)", msg,
                  f->num, (unsigned long long)len, off),
             -1;
    f->b.data = r->p;
    f->b.len = (size_t)len;
    r->p += len;
    break;
  case PB_SGROUP:
  case PB_EGROUP:
    return fail(c, "%s: field %u: protobuf groups are not supported (byte %zu)", msg, f->num, off),
           -1;
  default:
    return fail(c, "%s: field %u: invalid wire type %u at byte %zu", msg, f->num, f->wire, off), -1;
  }
  return 1;
}

static bool want_wire(ctx *c, const pb_field *f, uint8_t wire, const char *msg, const char *field) {
  static const char *const names[] = {"varint", "64-bit", "length-delimited", "", "", "32-bit"};
  if (f->wire == wire) return true;
  return fail(c, "%s.%s: wire type %u, expected %s", msg, field, f->wire, names[wire]);
}

/* A string field as a NUL-terminated copy; names with NUL bytes are refused. */
static bool get_string(ctx *c, const pb_field *f, const char *msg, const char *field,
                       const char **out) {
  if (!want_wire(c, f, PB_LEN, msg, field)) return false;
  if (memchr(f->b.data, 0, f->b.len)) return fail(c, "%s.%s: contains a NUL byte", msg, field);
  char *s = arena_strndup(c->a, (const char *)f->b.data, f->b.len);
  if (s == NULL) return fail(c, "out of memory");
  *out = s;
  return true;
}

/* n elements (at least one, so that no count gives NULL), zeroed. */
static void *alloc_n(ctx *c, size_t n, size_t size) {
  void *p = arena_array(c->a, n ? n : 1, size);
  if (p == NULL) fail(c, "out of memory");
  return p;
}

/* Values in a packed run of varints; false if it does not end on a value. */
static bool count_varints(onnx_bytes b, size_t *n) {
  pb_reader r = reader(b);
  uint64_t  v;
  *n = 0;
  while (r.p < r.end) {
    if (!pb_varint(&r, &v)) return false;
    (*n)++;
  }
  return true;
}

/* A repeated integer field (packed or not): counts in pass 1, stores in pass 2. */
static bool count_ints(ctx *c, const pb_field *f, const char *msg, const char *field, size_t *n) {
  size_t k;
  if (f->wire == PB_VARINT) {
    (*n)++;
    return true;
  }
  if (f->wire != PB_LEN) return want_wire(c, f, PB_VARINT, msg, field);
  if (!count_varints(f->b, &k)) return fail(c, "%s.%s: malformed packed varints", msg, field);
  *n += k;
  return true;
}

static void store_ints(const pb_field *f, int64_t *dst, int *n) {
  if (f->wire == PB_VARINT) {
    dst[(*n)++] = (int64_t)f->v;
    return;
  }
  pb_reader r = reader(f->b);
  uint64_t  v;
  while (r.p < r.end && pb_varint(&r, &v)) dst[(*n)++] = (int64_t)v;
}

static bool check_count(ctx *c, size_t n, const char *msg) {
  if (n > (size_t)INT32_MAX / 2) return fail(c, "%s: too many elements", msg);
  return true;
}

/* ---- TensorProto ------------------------------------------------------------- */

/* The wire types a typed data field may use: packed, or its element's own. */
static bool data_wire_ok(uint32_t field, uint8_t wire) {
  switch (field) {
  case ONNX_TENSOR_FLOAT_DATA: return wire == PB_LEN || wire == PB_I32;
  case ONNX_TENSOR_DOUBLE_DATA: return wire == PB_LEN || wire == PB_I64;
  case ONNX_TENSOR_STRING_DATA: return wire == PB_LEN;
  default: return wire == PB_LEN || wire == PB_VARINT;
  }
}

static bool parse_tensor(ctx *c, onnx_bytes b, onnx_tensor *t) {
  static const char msg[] = "TensorProto";
  pb_reader         r = reader(b);
  pb_field          f;
  size_t            n_dims = 0, n_spans = 0;
  int               rc;
  while ((rc = pb_next(c, &r, msg, &f)) > 0) {
    if (f.num == 1 && !count_ints(c, &f, msg, "dims", &n_dims)) return false;
    if (f.num == 4 || f.num == 5 || f.num == 6 || f.num == 7 || f.num == 10 || f.num == 11) {
      if (!data_wire_ok(f.num, f.wire))
        return fail(c, "%s: data field %u has the wrong wire type %u", msg, f.num, f.wire);
      n_spans++;
    }
  }
  if (rc < 0 || !check_count(c, n_dims, msg) || !check_count(c, n_spans, msg)) return false;
  t->name = "";
  if ((t->dims = alloc_n(c, n_dims, sizeof *t->dims)) == NULL) return false;
  if ((t->spans = alloc_n(c, n_spans, sizeof *t->spans)) == NULL) return false;
  r = reader(b);
  while (pb_next(c, &r, msg, &f) > 0) {
    switch (f.num) {
    case 1: store_ints(&f, t->dims, &t->rank); break;
    case 2:
      if (!want_wire(c, &f, PB_VARINT, msg, "data_type")) return false;
      t->data_type = (int32_t)(uint32_t)f.v;
      break;
    case 3: t->segmented = true; break;
    case 4:
    case 5:
    case 6:
    case 7:
    case 10:
    case 11: {
      onnx_span *s = &t->spans[t->n_spans++];
      s->field = f.num;
      s->wire = f.wire;
      s->bytes = f.b;
      s->value = f.v;
      break;
    }
    case 8:
      if (!get_string(c, &f, msg, "name", &t->name)) return false;
      break;
    case 9:
      if (!want_wire(c, &f, PB_LEN, msg, "raw_data")) return false;
      t->has_raw = true;
      t->raw = f.b;
      break;
    case 13: t->external = true; break;
    case 14:
      if (!want_wire(c, &f, PB_VARINT, msg, "data_location")) return false;
      if (f.v == 1) t->external = true;
      break;
    default: break;
    }
  }
  return !c->failed;
}

/* ---- ValueInfoProto, TypeProto, TensorShapeProto ------------------------------------ */

static bool parse_dim(ctx *c, onnx_bytes b, onnx_dim *d) {
  static const char msg[] = "TensorShapeProto.Dimension";
  pb_reader         r = reader(b);
  pb_field          f;
  int               rc;
  d->value = -1;
  d->param = NULL;
  while ((rc = pb_next(c, &r, msg, &f)) > 0) {
    if (f.num == 1) {
      if (!want_wire(c, &f, PB_VARINT, msg, "dim_value")) return false;
      d->value = (int64_t)f.v;
      d->param = NULL; /* a oneof: the last one given wins */
    } else if (f.num == 2) {
      if (!get_string(c, &f, msg, "dim_param", &d->param)) return false;
      d->value = -1;
    }
  }
  return rc == 0;
}

static bool parse_shape(ctx *c, onnx_bytes b, onnx_value_info *v) {
  static const char msg[] = "TensorShapeProto";
  pb_reader         r = reader(b);
  pb_field          f;
  size_t            n = 0;
  int               rc;
  while ((rc = pb_next(c, &r, msg, &f)) > 0)
    if (f.num == 1) {
      if (!want_wire(c, &f, PB_LEN, msg, "dim")) return false;
      n++;
    }
  if (rc < 0 || !check_count(c, n, msg)) return false;
  if ((v->dims = alloc_n(c, n, sizeof *v->dims)) == NULL) return false;
  v->rank = 0;
  r = reader(b);
  while (pb_next(c, &r, msg, &f) > 0)
    if (f.num == 1 && !parse_dim(c, f.b, &v->dims[v->rank++])) return false;
  v->has_shape = true;
  return !c->failed;
}

static bool parse_tensor_type(ctx *c, onnx_bytes b, onnx_value_info *v) {
  static const char msg[] = "TypeProto.Tensor";
  pb_reader         r = reader(b);
  pb_field          f;
  int               rc;
  while ((rc = pb_next(c, &r, msg, &f)) > 0) {
    if (f.num == 1) {
      if (!want_wire(c, &f, PB_VARINT, msg, "elem_type")) return false;
      v->elem_type = (int32_t)(uint32_t)f.v;
    } else if (f.num == 2) {
      if (!want_wire(c, &f, PB_LEN, msg, "shape")) return false;
      if (v->has_shape) return fail(c, "%s: shape given twice", msg);
      if (!parse_shape(c, f.b, v)) return false;
    }
  }
  return rc == 0;
}

static bool parse_type(ctx *c, onnx_bytes b, onnx_value_info *v) {
  static const char msg[] = "TypeProto";
  pb_reader         r = reader(b);
  pb_field          f;
  int               rc;
  v->has_type = true;
  while ((rc = pb_next(c, &r, msg, &f)) > 0) {
    if (f.num == 1) {
      if (!want_wire(c, &f, PB_LEN, msg, "tensor_type")) return false;
      if (v->is_tensor) return fail(c, "%s: tensor_type given twice", msg);
      v->is_tensor = true;
      if (!parse_tensor_type(c, f.b, v)) return false;
    }
  }
  return rc == 0;
}

static bool parse_value_info(ctx *c, onnx_bytes b, onnx_value_info *v) {
  static const char msg[] = "ValueInfoProto";
  pb_reader         r = reader(b);
  pb_field          f;
  int               rc;
  v->name = "";
  while ((rc = pb_next(c, &r, msg, &f)) > 0) {
    if (f.num == 1) {
      if (!get_string(c, &f, msg, "name", &v->name)) return false;
    } else if (f.num == 2) {
      if (!want_wire(c, &f, PB_LEN, msg, "type")) return false;
      if (v->has_type) return fail(c, "%s '%s': type given twice", msg, v->name);
      if (!parse_type(c, f.b, v)) return false;
    }
  }
  return rc == 0;
}

/* ---- NodeProto, AttributeProto --------------------------------------------------- */

static bool parse_graph(ctx *c, onnx_bytes b, onnx_graph *g);

/* A sub-graph (If's branches, Loop's and Scan's bodies) is read like the model's
   graph, so that import sees which outer values its nodes name; the nesting is
   bounded, so that a hostile file cannot run the reader out of stack. */
static bool parse_subgraph(ctx *c, const pb_field *f, const char *field, onnx_graph *g) {
  static const char msg[] = "AttributeProto";
  if (!want_wire(c, f, PB_LEN, msg, field)) return false;
  if (c->depth >= ONNX_MAX_GRAPH_DEPTH)
    return fail(c, "%s.%s: sub-graphs nested more than %d deep (byte %zu)", msg, field,
                ONNX_MAX_GRAPH_DEPTH, (size_t)(f->b.data - c->base));
  c->depth++;
  bool ok = parse_graph(c, f->b, g);
  c->depth--;
  return ok;
}

static bool parse_attr(ctx *c, onnx_bytes b, onnx_attr *at) {
  static const char msg[] = "AttributeProto";
  pb_reader         r = reader(b);
  pb_field          f;
  size_t            n_floats = 0, n_ints = 0, n_graphs = 0;
  int               rc;
  while ((rc = pb_next(c, &r, msg, &f)) > 0) {
    if (f.num == 7) {
      if (f.wire == PB_I32) n_floats++;
      else if (f.wire == PB_LEN && f.b.len % 4 == 0) n_floats += f.b.len / 4;
      else return fail(c, "%s.floats: malformed", msg);
    } else if (f.num == 8 && !count_ints(c, &f, msg, "ints", &n_ints)) {
      return false;
    } else if (f.num == 11) {
      if (!want_wire(c, &f, PB_LEN, msg, "graphs")) return false;
      n_graphs++;
    }
  }
  if (rc < 0 || !check_count(c, n_floats, msg) || !check_count(c, n_ints, msg) ||
      !check_count(c, n_graphs, msg))
    return false;
  at->name = "";
  if ((at->floats = alloc_n(c, n_floats, sizeof *at->floats)) == NULL) return false;
  if ((at->ints = alloc_n(c, n_ints, sizeof *at->ints)) == NULL) return false;
  if (n_graphs && (at->graphs = alloc_n(c, n_graphs, sizeof *at->graphs)) == NULL) return false;
  r = reader(b);
  while (pb_next(c, &r, msg, &f) > 0) {
    switch (f.num) {
    case 1:
      if (!get_string(c, &f, msg, "name", &at->name)) return false;
      break;
    case 2: {
      uint32_t u = (uint32_t)f.v;
      if (!want_wire(c, &f, PB_I32, msg, "f")) return false;
      memcpy(&at->f, &u, sizeof u);
      at->has_f = true;
      break;
    }
    case 3:
      if (!want_wire(c, &f, PB_VARINT, msg, "i")) return false;
      at->i = (int64_t)f.v;
      at->has_i = true;
      break;
    case 4:
      if (!want_wire(c, &f, PB_LEN, msg, "s")) return false;
      at->s = f.b;
      at->has_s = true;
      break;
    case 5:
      if (!want_wire(c, &f, PB_LEN, msg, "t")) return false;
      if (at->has_t) return fail(c, "%s '%s': t given twice", msg, at->name);
      if ((at->t = alloc_n(c, 1, sizeof *at->t)) == NULL || !parse_tensor(c, f.b, at->t))
        return false;
      at->has_t = true;
      break;
    case 6:
      if (at->has_g) return fail(c, "%s '%s': g given twice", msg, at->name);
      if ((at->g = alloc_n(c, 1, sizeof *at->g)) == NULL || !parse_subgraph(c, &f, "g", at->g))
        return false;
      at->has_g = true;
      break;
    case 7:
      if (f.wire == PB_I32) {
        uint32_t u = (uint32_t)f.v;
        memcpy(&at->floats[at->n_floats++], &u, 4);
      } else {
        for (size_t i = 0; i + 4 <= f.b.len; i += 4) {
          uint32_t u = (uint32_t)load_le(f.b.data + i, 4);
          memcpy(&at->floats[at->n_floats++], &u, 4);
        }
      }
      break;
    case 8: store_ints(&f, at->ints, &at->n_ints); break;
    case 11:
      if (!parse_subgraph(c, &f, "graphs", &at->graphs[at->n_graphs++])) return false;
      break;
    case 20:
      if (!want_wire(c, &f, PB_VARINT, msg, "type")) return false;
      at->type = (int32_t)(uint32_t)f.v;
      break;
    case 21: at->is_ref = true; break;
    default: break;
    }
  }
  return !c->failed;
}

static bool parse_node(ctx *c, onnx_bytes b, onnx_node *n) {
  static const char msg[] = "NodeProto";
  pb_reader         r = reader(b);
  pb_field          f;
  size_t            n_in = 0, n_out = 0, n_attr = 0;
  int               rc;
  while ((rc = pb_next(c, &r, msg, &f)) > 0) {
    if (f.num == 1) n_in++;
    else if (f.num == 2) n_out++;
    else if (f.num == 5) n_attr++;
  }
  if (rc < 0 || !check_count(c, n_in + n_out + n_attr, msg)) return false;
  n->name = n->op_type = n->domain = "";
  if ((n->inputs = alloc_n(c, n_in, sizeof *n->inputs)) == NULL ||
      (n->outputs = alloc_n(c, n_out, sizeof *n->outputs)) == NULL ||
      (n->attrs = alloc_n(c, n_attr, sizeof *n->attrs)) == NULL)
    return false;
  r = reader(b);
  while (pb_next(c, &r, msg, &f) > 0) {
    switch (f.num) {
    case 1:
      if (!get_string(c, &f, msg, "input", &n->inputs[n->n_inputs++])) return false;
      break;
    case 2:
      if (!get_string(c, &f, msg, "output", &n->outputs[n->n_outputs++])) return false;
      break;
    case 3:
      if (!get_string(c, &f, msg, "name", &n->name)) return false;
      break;
    case 4:
      if (!get_string(c, &f, msg, "op_type", &n->op_type)) return false;
      break;
    case 7:
      if (!get_string(c, &f, msg, "domain", &n->domain)) return false;
      break;
    case 5:
      if (!want_wire(c, &f, PB_LEN, msg, "attribute") ||
          !parse_attr(c, f.b, &n->attrs[n->n_attrs++]))
        return false;
      break;
    default: break;
    }
  }
  return !c->failed;
}

/* ---- GraphProto, ModelProto ------------------------------------------------------ */

static bool parse_graph(ctx *c, onnx_bytes b, onnx_graph *g) {
  static const char msg[] = "GraphProto";
  pb_reader         r = reader(b);
  pb_field          f;
  size_t            n[16] = {0};
  int               rc;
  while ((rc = pb_next(c, &r, msg, &f)) > 0) {
    if (f.num == 1 || f.num == 5 || f.num == 11 || f.num == 12 || f.num == 13) {
      if (!want_wire(c, &f, PB_LEN, msg, "node, initializer, input, output or value_info"))
        return false;
      n[f.num]++;
    }
    if (f.num == 15) g->n_sparse_initializers++;
  }
  if (rc < 0 || !check_count(c, n[1] + n[5] + n[11] + n[12] + n[13], msg)) return false;
  g->name = "";
  if ((g->nodes = alloc_n(c, n[1], sizeof *g->nodes)) == NULL ||
      (g->initializers = alloc_n(c, n[5], sizeof *g->initializers)) == NULL ||
      (g->inputs = alloc_n(c, n[11], sizeof *g->inputs)) == NULL ||
      (g->outputs = alloc_n(c, n[12], sizeof *g->outputs)) == NULL ||
      (g->value_info = alloc_n(c, n[13], sizeof *g->value_info)) == NULL)
    return false;
  r = reader(b);
  while (pb_next(c, &r, msg, &f) > 0) {
    bool ok = true;
    switch (f.num) {
    case 1: ok = parse_node(c, f.b, &g->nodes[g->n_nodes++]); break;
    case 2: ok = get_string(c, &f, msg, "name", &g->name); break;
    case 5: ok = parse_tensor(c, f.b, &g->initializers[g->n_initializers++]); break;
    case 11: ok = parse_value_info(c, f.b, &g->inputs[g->n_inputs++]); break;
    case 12: ok = parse_value_info(c, f.b, &g->outputs[g->n_outputs++]); break;
    case 13: ok = parse_value_info(c, f.b, &g->value_info[g->n_value_info++]); break;
    default: break;
    }
    if (!ok) return false;
  }
  return !c->failed;
}

static bool parse_opset(ctx *c, onnx_bytes b, onnx_opset *o) {
  static const char msg[] = "OperatorSetIdProto";
  pb_reader         r = reader(b);
  pb_field          f;
  int               rc;
  o->domain = "";
  while ((rc = pb_next(c, &r, msg, &f)) > 0) {
    if (f.num == 1 && !get_string(c, &f, msg, "domain", &o->domain)) return false;
    if (f.num == 2) {
      if (!want_wire(c, &f, PB_VARINT, msg, "version")) return false;
      o->version = (int64_t)f.v;
    }
  }
  return rc == 0;
}

static bool parse_model(ctx *c, onnx_bytes b, onnx_model *m) {
  static const char msg[] = "ModelProto";
  pb_reader         r = reader(b);
  pb_field          f;
  size_t            n_opsets = 0;
  int               rc;
  while ((rc = pb_next(c, &r, msg, &f)) > 0) {
    if (f.num == 8) {
      if (!want_wire(c, &f, PB_LEN, msg, "opset_import")) return false;
      n_opsets++;
    }
    if (f.num == 7) {
      if (!want_wire(c, &f, PB_LEN, msg, "graph")) return false;
      if (m->has_graph) return fail(c, "%s: graph given twice", msg);
      m->has_graph = true;
    }
  }
  if (rc < 0 || !check_count(c, n_opsets, msg)) return false;
  if ((m->opsets = alloc_n(c, n_opsets, sizeof *m->opsets)) == NULL) return false;
  r = reader(b);
  while (pb_next(c, &r, msg, &f) > 0) {
    if (f.num == 1) {
      if (!want_wire(c, &f, PB_VARINT, msg, "ir_version")) return false;
      m->ir_version = (int64_t)f.v;
    } else if (f.num == 8) {
      if (!parse_opset(c, f.b, &m->opsets[m->n_opsets++])) return false;
    } else if (f.num == 7) {
      if (!parse_graph(c, f.b, &m->graph)) return false;
    }
  }
  if (!c->failed && !m->has_graph) return fail(c, "%s: no graph", msg);
  return !c->failed;
}

onnx_model *onnx_read_model(const uint8_t *buf, size_t len, char *err, size_t cap) {
  onnx_model *m = calloc(1, sizeof *m);
  ctx         c = {NULL, buf, err, cap, false, 0};
  onnx_bytes  b = {buf, len};
  if (m == NULL) {
    fail(&c, "out of memory");
    return NULL;
  }
  arena_init(&m->arena);
  c.a = &m->arena;
  if (buf == NULL || len == 0) fail(&c, "empty file: not an ONNX model");
  else if (len > ONNX_MAX_FILE) fail(&c, "file too large (protobuf's limit is 2 GiB)");
  else parse_model(&c, b, m);
  if (c.failed) {
    onnx_model_free(m);
    return NULL;
  }
  return m;
}

void onnx_model_free(onnx_model *m) {
  if (m == NULL) return;
  arena_free(&m->arena);
  free(m);
}

onnx_tensor *onnx_read_tensor(arena *a, const uint8_t *buf, size_t len, char *err, size_t cap) {
  ctx          c = {a, buf, err, cap, false, 0};
  onnx_bytes   b = {buf, len};
  onnx_tensor *t;
  if (len > ONNX_MAX_FILE) {
    fail(&c, "file too large");
    return NULL;
  }
  if ((t = alloc_n(&c, 1, sizeof *t)) == NULL || !parse_tensor(&c, b, t)) return NULL;
  return t;
}

int64_t onnx_opset_version(const onnx_model *m) {
  for (int i = 0; i < m->n_opsets; i++)
    if (m->opsets[i].domain[0] == '\0' || strcmp(m->opsets[i].domain, "ai.onnx") == 0)
      return m->opsets[i].version;
  return 0;
}

/* ---- tensor values ----------------------------------------------------------------- */

/* Walks the values of one typed data field across its occurrences. */
typedef struct val_iter {
  const onnx_tensor *t;
  uint32_t           field;
  int                span; /* next occurrence to open */
  pb_reader          run;  /* the packed run being read */
} val_iter;

/* 1 with the next value's bits in *v, 0 at the end, -1 for a malformed run. */
static int val_next(val_iter *it, uint64_t *v) {
  int width = it->field == ONNX_TENSOR_FLOAT_DATA    ? 4
              : it->field == ONNX_TENSOR_DOUBLE_DATA ? 8
                                                     : 0;
  for (;;) {
    if (it->run.p < it->run.end) {
      if (width == 0) return pb_varint(&it->run, v) ? 1 : -1;
      if (it->run.end - it->run.p < width) return -1;
      *v = load_le(it->run.p, width);
      it->run.p += width;
      return 1;
    }
    if (it->span >= it->t->n_spans) return 0;
    const onnx_span *s = &it->t->spans[it->span++];
    if (s->field != it->field) continue;
    if (s->wire == PB_LEN) {
      it->run = reader(s->bytes);
      continue;
    }
    *v = s->value;
    return 1;
  }
}

/* The data field that holds dtype's values when raw_data is absent. */
static uint32_t data_field(wc_dtype t) {
  switch (t) {
  case WC_FLOAT:
  case WC_COMPLEX64: return ONNX_TENSOR_FLOAT_DATA;
  case WC_DOUBLE:
  case WC_COMPLEX128: return ONNX_TENSOR_DOUBLE_DATA;
  case WC_INT64: return ONNX_TENSOR_INT64_DATA;
  case WC_UINT32:
  case WC_UINT64: return ONNX_TENSOR_UINT64_DATA;
  case WC_STRING: return ONNX_TENSOR_STRING_DATA;
  default: return ONNX_TENSOR_INT32_DATA;
  }
}

static bool to_strings(const onnx_tensor *t, size_t count, wc_tensor *out, char **strings,
                       char *err, size_t cap) {
  size_t n = 0, bytes = 0;
  for (int i = 0; i < t->n_spans; i++)
    if (t->spans[i].field == ONNX_TENSOR_STRING_DATA) {
      n++;
      bytes += t->spans[i].bytes.len + 1;
    }
  if (n != count)
    return errbuf_fail(err, cap, "tensor '%s' holds %zu strings for %zu elements", t->name, n,
                       count);
  const char **ptr = malloc(count ? count * sizeof *ptr : 1);
  char        *buf = malloc(bytes ? bytes : 1), *p = buf;
  if (ptr == NULL || buf == NULL) {
    free(ptr);
    free(buf);
    return errbuf_fail(err, cap, "out of memory");
  }
  n = 0;
  for (int i = 0; i < t->n_spans; i++) {
    const onnx_span *s = &t->spans[i];
    if (s->field != ONNX_TENSOR_STRING_DATA) continue;
    memcpy(p, s->bytes.data, s->bytes.len);
    p[s->bytes.len] = '\0';
    ptr[n++] = p;
    p += s->bytes.len + 1;
  }
  out->data = (void *)ptr;
  *strings = buf;
  return true;
}

bool onnx_tensor_to_wc(const onnx_tensor *t, wc_tensor *out, char **strings, char *err,
                       size_t cap) {
  uint64_t count = 1, nonzero = 1;
  wc_dtype dt = (wc_dtype)t->data_type;
  size_t   size = t->data_type >= 1 && t->data_type <= 16 ? wc_dtype_size(dt) : 0;
  memset(out, 0, sizeof *out);
  *strings = NULL;
  if (size == 0)
    return errbuf_fail(err, cap, "tensor '%s': unsupported data_type %d", t->name, t->data_type);
  if (t->external)
    return errbuf_fail(err, cap, "tensor '%s': external data is not supported", t->name);
  if (t->segmented)
    return errbuf_fail(err, cap, "tensor '%s': segmented tensors are not supported", t->name);
  if (t->rank > WC_MAX_RANK)
    return errbuf_fail(err, cap, "tensor '%s': rank %d exceeds %d", t->name, t->rank, WC_MAX_RANK);
  for (int d = 0; d < t->rank; d++) {
    if (t->dims[d] < 0) return errbuf_fail(err, cap, "tensor '%s': negative extent", t->name);
    out->shape[d] = t->dims[d];
    if (t->dims[d] == 0) {
      count = 0;
      continue;
    }
    if (nonzero > (uint64_t)INT64_MAX / (uint64_t)t->dims[d])
      return errbuf_fail(err, cap, "tensor '%s': shape overflow", t->name);
    nonzero *= (uint64_t)t->dims[d];
  }
  if (count) count = nonzero;
  if (nonzero > SIZE_MAX / 16) return errbuf_fail(err, cap, "tensor '%s': shape overflow", t->name);
  out->dtype = dt;
  out->rank = t->rank;
  if (dt == WC_STRING) {
    if (t->has_raw) return errbuf_fail(err, cap, "tensor '%s': strings in raw_data", t->name);
    return to_strings(t, (size_t)count, out, strings, err, cap);
  }
  /* The data must be there before anything is allocated for it: a shape of
     billions of elements in a few bytes of file would otherwise allocate them. */
  size_t   bytes = (size_t)count * size;
  size_t   per = dt == WC_COMPLEX64 || dt == WC_COMPLEX128 ? 2 : 1, want = (size_t)count * per;
  size_t   w = size / per, got = 0;
  uint64_t v;
  int      rc = 1;
  if (t->has_raw && t->raw.len != bytes)
    return errbuf_fail(err, cap, "tensor '%s': raw_data holds %zu bytes; its shape needs %zu",
                       t->name, t->raw.len, bytes);
  if (!t->has_raw) { /* complex: two reals a value */
    val_iter it = {t, data_field(dt), 0, {NULL, NULL}};
    while ((rc = val_next(&it, &v)) > 0) got++;
    if (rc < 0) return errbuf_fail(err, cap, "tensor '%s': malformed packed data", t->name);
    if (got != want)
      return errbuf_fail(err, cap, "tensor '%s' holds %zu values; its shape needs %zu", t->name,
                         got, want);
  }
  uint8_t *data = malloc(bytes ? bytes : 1);
  if (data == NULL) return errbuf_fail(err, cap, "out of memory");
  if (t->has_raw) {
    if (bytes) memcpy(data, t->raw.data, bytes);
  } else {
    val_iter it = {t, data_field(dt), 0, {NULL, NULL}};
    for (got = 0; got < want && val_next(&it, &v) > 0; got++)
      for (size_t i = 0; i < w; i++) data[got * w + i] = (uint8_t)(v >> (8 * i));
  }
  if (dt == WC_BOOL)
    for (size_t i = 0; i < bytes; i++) data[i] = data[i] != 0;
  out->data = data;
  return true;
}

bool onnx_tensor_scalar(const onnx_tensor *t, uint64_t bits[2], char *err, size_t cap) {
  wc_tensor w;
  char     *strings;
  int64_t   n = 1;
  for (int d = 0; d < t->rank; d++) n = t->dims[d] == 1 ? n : 0;
  if (n != 1 || t->data_type == WC_STRING)
    return errbuf_fail(err, cap, "tensor '%s' is not a single number", t->name);
  if (!onnx_tensor_to_wc(t, &w, &strings, err, cap)) return false;
  bits[0] = bits[1] = 0;
  if (w.dtype == WC_COMPLEX64) { /* re, im: one float each */
    memcpy(&bits[0], w.data, 4);
    memcpy(&bits[1], (char *)w.data + 4, 4);
  } else if (w.dtype == WC_COMPLEX128) {
    memcpy(&bits[0], w.data, 8);
    memcpy(&bits[1], (char *)w.data + 8, 8);
  } else {
    memcpy(&bits[0], w.data, wc_dtype_size(w.dtype)); /* little-endian host: zero-extended */
  }
  free(w.data);
  return true;
}

uint8_t *onnx_slurp(const char *path, size_t *len, char *err, size_t cap) {
  uint8_t *buf = (uint8_t *)file_read(path, len, ONNX_MAX_FILE);
  if (buf == NULL) {
    if (errno == EFBIG) errbuf_fail(err, cap, "file too large (protobuf's limit is 2 GiB)");
    else if (errno == ENOMEM) errbuf_fail(err, cap, "out of memory");
    else if (errno == EIO) errbuf_fail(err, cap, "read error");
    else errbuf_fail(err, cap, "cannot open: %s", strerror(errno));
  }
  return buf;
}
