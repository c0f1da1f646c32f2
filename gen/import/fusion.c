/* fusion.c: which nodes wherec import fuses: each node's typing against the spec's rules,
   the regions formed from the outputs backwards, and the list of what is not taken. */
#include "import/fusion.h"

#include <math.h>
#include <string.h>

#include "front/sema.h"

static bool floating(wc_dtype t) {
  ast_dtype_class c = ast_dtype_class_of(t);
  return c == AST_CLASS_REAL || c == AST_CLASS_HALF;
}

/* The float attribute name of n, or dflt when n does not give it. */
static float attr_f(const onnx_node *n, const char *name, float dflt) {
  const onnx_attr *a = graph_attr(n, name);
  return a && a->has_f ? a->f : dflt;
}

static int64_t attr_i(const onnx_node *n, const char *name, int64_t dflt) {
  const onnx_attr *a = graph_attr(n, name);
  return a && a->has_i ? a->i : dflt;
}

static bool same_shape(const ast_shape *a, const ast_shape *b) {
  if (a->rank != b->rank) return false;
  for (int d = 0; d < a->rank; d++)
    if (a->dims[d] != b->dims[d]) return false;
  return true;
}

/* Does b broadcast to a without changing a's shape (ONNX's unidirectional rule)?
   True when a shape is not known: the writer refuses unknown shapes of its leaves. */
static bool broadcasts_to(const graph_value *a, const graph_value *b) {
  ast_shape out;
  if (!a->shaped || !b->shaped) return true;
  return sema_broadcast(&a->shape, &b->shape, &out) && same_shape(&out, &a->shape);
}

static bool one_element(const graph_value *v) {
  for (int d = 0; v->shaped && d < v->shape.rank; d++)
    if (v->shape.dims[d] != 1) return false;
  return v->shaped;
}

/* The legacy broadcasting of the binary operators before opset 7 (Add-6, Equal-1, ...):
   attribute broadcast 0 wants equal shapes, 1 lets B broadcast to A from position
   axis (default: the trailing dimensions, which is numpy's rule restricted to B). */
static const char *legacy_broadcast(const import_graph *gr, const graph_node *ni) {
  const graph_value *a = &gr->vals[ni->in[0]], *b = &gr->vals[ni->in[1]];
  if (!a->shaped || !b->shaped) return NULL;
  if (attr_i(ni->n, "broadcast", 0) == 0)
    return same_shape(&a->shape, &b->shape)
               ? NULL
               : "before opset 7 its inputs must have one shape unless broadcast=1";
  const onnx_attr *axis = graph_attr(ni->n, "axis");
  if (axis && axis->has_i) {
    int64_t at = axis->i < 0 ? axis->i + a->shape.rank : axis->i;
    if (at != a->shape.rank - b->shape.rank)
      return graph_fmt(gr,
                       "broadcast=1 with axis=%lld aligns B with dimensions of A other than "
                       "the trailing ones, which a kernel's broadcasting cannot express",
                       (long long)axis->i);
  }
  return broadcasts_to(a, b) ? NULL : "broadcast=1, but B does not broadcast to A's shape";
}

/* v is a whole number of magnitude at most 2^62 (tested in that order: converting a
   NaN or a float past int64 to an integer is undefined). */
static bool whole_number(float v) { return fabsf(v) <= 0x1p62f && v == (float)(int64_t)v; }

/* The value of a one-element constant v as a double (integers exactly up to 2^53),
   false when v is no such constant. */
static bool const_scalar(const graph_value *v, double *out) {
  uint64_t b[2];
  if (!v->constant || !one_element(v) || !onnx_tensor_scalar(v->constant, b, NULL, 0)) return false;
  unsigned bits = (unsigned)wc_dtype_size(v->dtype) * 8u;
  switch (ast_dtype_class_of(v->dtype)) {
  case AST_CLASS_BOOL: *out = b[0] != 0; return true;
  case AST_CLASS_UINT: *out = (double)b[0]; return true;
  case AST_CLASS_SINT: {
    uint64_t u = b[0];
    if (bits < 64 && (u >> (bits - 1)) & 1) u |= ~(uint64_t)0 << bits;
    *out = (double)(int64_t)u;
    return true;
  }
  case AST_CLASS_REAL:
  case AST_CLASS_HALF:
    if (v->dtype == WC_DOUBLE) memcpy(out, &b[0], 8);
    else
      *out = v->dtype == WC_FLOAT16    ? wc_f16_to_f32((wc_float16)b[0])
             : v->dtype == WC_BFLOAT16 ? wc_bf16_to_f32((wc_bfloat16)b[0])
                                       : wc_bits_to_f32((uint32_t)b[0]);
    return true;
  default: return false;
  }
}

/* Are the outputs of n past the first absent or read by nothing (Dropout's mask,
   BatchNormalization's training statistics)? */
static bool extra_outputs_unused(const import_graph *gr, const onnx_node *n) {
  for (int o = 1; o < n->n_outputs; o++) {
    int v = n->outputs[o][0] ? graph_find(gr, n->outputs[o]) : -1;
    if (v >= 0 && (gr->vals[v].n_uses > 0 || gr->vals[v].is_output || gr->vals[v].captured_by >= 0))
      return false;
  }
  return true;
}

/* A per-channel parameter p of X (BatchNormalization's scale, B, mean, var; a per-axis
   scale or zero point) along axis: one element (then it broadcasts as it is), or a vector
   of X's extent there, which broadcasts once given the 1s of the axes after it (*pad). */
static const char *per_channel(const import_graph *gr, const graph_value *x, const graph_value *p,
                               int axis, bool one_ok, int *pad) {
  if (!p->shaped) return graph_fmt(gr, "'%.200s' has a dynamic shape", p->name);
  if (one_ok && one_element(p) && p->shape.rank <= 1) return NULL;
  if (p->shape.rank != 1 || p->shape.dims[0] != x->shape.dims[axis])
    return graph_fmt(gr, "'%.200s' is not a vector of X's extent along axis %d", p->name, axis);
  int want = x->shape.rank - 1 - axis;
  if (*pad >= 0 && *pad != want) return "its parameters broadcast in different ways";
  *pad = want;
  return NULL;
}

/* The attributes of the imported operators that some of their versions have and others
   lack (onnx.defs; tests/gen/import/opsets.py checks this list against it): ops, a list of
   names separated by spaces; the versions of opsets from to until - 1 (until 0: all since)
   have it. consumed_inputs (a memory hint of opset 1) is not listed: it is ignored. */
static const struct {
  const char *ops, *attr;
  int         from, until;
} versioned_attrs[] = {
    {"Add Sub Mul Div Greater Less Equal And Or Xor Pow", "broadcast", 1, 7},
    {"Add Sub Mul Div Greater Less Equal And Or Xor Pow", "axis", 1, 7},
    {"Clip", "min", 1, 11},
    {"Clip", "max", 1, 11},
    {"Dropout BatchNormalization", "is_test", 1, 7},
    {"Dropout", "ratio", 1, 12},
    {"Dropout", "seed", 12, 0},
    {"BatchNormalization", "spatial", 1, 9},
    {"BatchNormalization", "training_mode", 14, 0},
    {"QuantizeLinear DequantizeLinear", "axis", 13, 0},
    {"QuantizeLinear DequantizeLinear", "block_size", 21, 0},
    {"QuantizeLinear", "output_dtype", 21, 0},
    {"QuantizeLinear Cast CastLike", "saturate", 19, 0},
};

/* An attribute of n that n's operator has at other opsets but not at the model's, or NULL:
   ignored, it would change what the node computes (Clip-11 with Clip-6's min). */
static const char *versioned_attr_missing(const import_graph *gr, const onnx_node *n) {
  size_t len = strlen(n->op_type);
  for (size_t r = 0; r < sizeof versioned_attrs / sizeof *versioned_attrs; r++) {
    const char *o = versioned_attrs[r].ops, *at;
    for (at = strstr(o, n->op_type); at; at = strstr(at + 1, n->op_type))
      if ((at == o || at[-1] == ' ') && (at[len] == ' ' || at[len] == '\0')) break;
    if (!at || !graph_attr(n, versioned_attrs[r].attr)) continue;
    if (gr->opset >= versioned_attrs[r].from &&
        (versioned_attrs[r].until == 0 || gr->opset < versioned_attrs[r].until))
      continue;
    return versioned_attrs[r].until
               ? graph_fmt(gr, "%s has no attribute '%s' at opset %lld (opsets %d to %d have it)",
                           n->op_type, versioned_attrs[r].attr, (long long)gr->opset,
                           versioned_attrs[r].from, versioned_attrs[r].until - 1)
               : graph_fmt(gr, "%s has no attribute '%s' at opset %lld (it came in opset %d)",
                           n->op_type, versioned_attrs[r].attr, (long long)gr->opset,
                           versioned_attrs[r].from);
  }
  return NULL;
}

/* Is the spec function spelled spell one of the correctly rounded ones, defined on
   float but not on double (domain CRF of operations.h)? */
static bool correctly_rounded_only(const char *spell) {
  static const struct {
    const char *spell;
    wc_opcode   op;
  } rows[] = {
#define SPELLING_(NAME, spelling, ...) {spelling, WC_OP_##NAME},
      WC_OP_LIST(SPELLING_)
#undef SPELLING_
  };
  for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
    if (rows[i].spell[0] != 0 && strcmp(rows[i].spell, spell) == 0)
      return wc_op_defined(rows[i].op, WC_FLOAT) && !wc_op_defined(rows[i].op, WC_DOUBLE);
  return false;
}

/* Why node i cannot be part of a fused expression, or NULL if it can; what it
   reads off the attributes (alpha, the cast's dtype, Clip-6 bounds, ...) goes into fn. */
static const char *check_node(const import_graph *gr, int i, fusion_node *fn) {
  const graph_node *ni = &gr->nodes[i];
  const onnx_node  *n = ni->n;
  const op_row     *op = ni->op;
  int               nin = n->n_inputs;
  if (n->domain[0] && strcmp(n->domain, "ai.onnx") != 0)
    return graph_fmt(gr, "operator of domain '%.100s' is not supported", n->domain);
  if (ni->folded) return NULL; /* a constant now, like a Constant's */
  if (op == NULL) return "not element-wise";
  if (ni->kind == IMPORT_CONSTANT) return NULL;
  if (gr->opset > 0 && gr->opset < op->since)
    return graph_fmt(gr, "%s is not in opset %lld: it appeared in opset %d", op->name,
                     (long long)gr->opset, op->since);
  const char *gone = gr->opset > 0 ? versioned_attr_missing(gr, n) : NULL;
  if (gone) return gone;
  if ((ni->kind == IMPORT_DROPOUT || ni->kind == IMPORT_BATCHNORM) && ni->out >= 0 &&
      !extra_outputs_unused(gr, n))
    return ni->kind == IMPORT_DROPOUT
               ? "its mask output is read: a kernel computes one output (in inference the "
                 "mask is all true)"
               : "its training outputs (the running or saved mean and variance) are read: "
                 "wherec imports the inference form only";
  if ((n->n_outputs != 1 && ni->kind != IMPORT_DROPOUT && ni->kind != IMPORT_BATCHNORM) ||
      ni->out < 0)
    return "expected exactly one output";
  for (int k = 0; k < n->n_attrs; k++)
    if (n->attrs[k].is_ref || n->attrs[k].has_g || n->attrs[k].n_graphs)
      return "attribute references or sub-graphs are not supported";
  /* every input present must have a dtype wherec knows */
  for (int k = 0; k < nin; k++) {
    if (ni->in[k] < 0) continue;
    const graph_value *v = &gr->vals[ni->in[k]];
    if (v->dtype == 0)
      return v->elem ? graph_fmt(gr, "input '%.200s' has %s, which wherec does not support",
                                 v->name, graph_dtype_label(gr, v->elem))
                     : graph_fmt(gr, "input '%.200s' has an unknown dtype", v->name);
  }
  wc_dtype t0 = nin > 0 && ni->in[0] >= 0 ? gr->vals[ni->in[0]].dtype : (wc_dtype)0;
  if (op->min_in == op->max_in && nin != op->min_in)
    return graph_fmt(gr, "expected %d inputs, got %d", op->min_in, nin);
  if (nin < op->min_in)
    return graph_fmt(gr, "expected at least %d inputs, got %d", op->min_in, nin);
  if (nin < 1 || ni->in[0] < 0) return "its first input is missing";
  if (op->max_in >= 0 && nin > op->max_in)
    return graph_fmt(gr, "expected at most %d inputs, got %d", op->max_in, nin);
  for (int k = 1; k < nin; k++) {
    bool optional = ni->kind == IMPORT_CLIP || ni->kind == IMPORT_DROPOUT ||
                    ((ni->kind == IMPORT_QUANTIZE || ni->kind == IMPORT_DEQUANTIZE) && k == 2);
    if (ni->in[k] < 0 && !optional) return "an input is missing";
    wc_dtype tk = ni->in[k] >= 0 ? gr->vals[ni->in[k]].dtype : t0;
    bool     same = (ni->kind != IMPORT_WHERE || k == 2) && ni->kind != IMPORT_CASTLIKE &&
                ni->kind != IMPORT_DROPOUT && ni->kind != IMPORT_POW &&
                ni->kind != IMPORT_QUANTIZE && ni->kind != IMPORT_DEQUANTIZE;
    if (same && tk != (ni->kind == IMPORT_WHERE ? gr->vals[ni->in[1]].dtype : t0))
      return "its inputs have different dtypes";
  }
  /* the dtype the operator is typed on: Where's x, every other operator's first input */
  wc_dtype t = ni->kind == IMPORT_WHERE ? gr->vals[ni->in[1]].dtype : t0;
  if (ni->kind == IMPORT_WHERE && t0 != WC_BOOL) return "its condition is not bool";
  if (!(op->types & (1u << ast_dtype_class_of(t))))
    return op->types == OPT_B
               ? "expects bool inputs"
               : graph_fmt(gr, "%s is not defined on %s", op->name, wc_dtype_name(t));
  bool legacy = gr->opset > 0 && gr->opset < 7;
  if (legacy && (ni->kind == IMPORT_CMP || ni->kind == IMPORT_LOGIC || ni->kind == IMPORT_ARITH))
    return legacy_broadcast(gr, ni);
  switch (ni->kind) {
  case IMPORT_MINMAX: /* Max-6 and Min-6 take inputs of one shape; broadcasting came in opset 8 */
    for (int k = 1; k < nin && gr->opset > 0 && gr->opset < 8; k++) {
      const graph_value *a = &gr->vals[ni->in[0]], *b = &gr->vals[ni->in[k]];
      if (a->shaped && b->shaped && !same_shape(&a->shape, &b->shape))
        return "before opset 8 its inputs must have one shape";
    }
    return NULL;
  case IMPORT_LEAKY: fn->alpha = attr_f(n, "alpha", 0.01f); return NULL;
  case IMPORT_THRELU: fn->alpha = attr_f(n, "alpha", 1.0f); return NULL;
  case IMPORT_ELU:
  case IMPORT_CELU: fn->alpha = attr_f(n, "alpha", 1.0f); return NULL;
  case IMPORT_SELU:
    fn->alpha = attr_f(n, "alpha", 1.67326319217681884765625f);
    fn->gamma = attr_f(n, "gamma", 1.05070102214813232421875f);
    return NULL;
  case IMPORT_HSIGMOID:
    fn->alpha = attr_f(n, "alpha", 0.2f);
    fn->beta = attr_f(n, "beta", 0.5f);
    return NULL;
  case IMPORT_SHRINK:
    fn->lambd = attr_f(n, "lambd", 0.5f);
    fn->bias = attr_f(n, "bias", 0.0f);
    if (!floating(t) && (!whole_number(fn->lambd) || !whole_number(fn->bias)))
      return graph_fmt(gr, "lambd %g or bias %g is not a whole number, which %s cannot hold",
                       (double)fn->lambd, (double)fn->bias, wc_dtype_name(t));
    return NULL;
  case IMPORT_PRELU: {
    const graph_value *x = &gr->vals[ni->in[0]], *s = &gr->vals[ni->in[1]];
    if (legacy) { /* PRelu-6: a slope of one element, of X's shape, or per channel (which
                     exporters wrote and onnxruntime runs): [C] or [C,1,...] against [N,C,...] */
      if (one_element(s) || !x->shaped || !s->shaped || same_shape(&x->shape, &s->shape))
        return NULL;
      fn->pad = -1;
      if (x->shape.rank >= 2 && s->shape.rank == 1 && !per_channel(gr, x, s, 1, false, &fn->pad))
        return NULL;
      fn->pad = 0;
      if (x->shape.rank >= 2 && s->shape.rank == x->shape.rank - 1 && broadcasts_to(x, s) &&
          s->shape.dims[0] == x->shape.dims[1])
        return NULL;
      return "before opset 7 its slope has one element, X's shape or one value per channel";
    }
    return broadcasts_to(x, s)
               ? NULL
               : graph_fmt(gr, "slope '%.200s' does not broadcast to X's shape", s->name);
  }
  case IMPORT_MOD:
    if (attr_i(n, "fmod", 0) != 0 && attr_i(n, "fmod", 0) != 1) /* before narrowing it */
      return graph_fmt(gr, "fmod=%lld: it is 0 or 1", (long long)attr_i(n, "fmod", 0));
    fn->flag = (int)attr_i(n, "fmod", 0);
    if (fn->flag == 0 && floating(t)) { /* Mod-28 defined it: the floor modulo, numpy's */
      if (gr->opset > 0 && gr->opset < 28)
        return "fmod=0 on floating-point inputs: ONNX defines Mod on floats with fmod=1 only "
               "before opset 28";
      fn->flag = MOD_FLOOR_FLOAT;
    }
    return NULL;
  case IMPORT_BITSHIFT: {
    const onnx_attr *d = graph_attr(n, "direction");
    /* BitShift-28 added signed integers, shifting as the spec's << and >> do (arithmetic
       right; a negative count or one of the width or more gives 0, or -1 to the right of a
       negative) */
    if (ast_dtype_class_of(t) == AST_CLASS_SINT && gr->opset > 0 && gr->opset < 28)
      return graph_fmt(gr, "BitShift is not defined on %s before opset 28", wc_dtype_name(t));
    if (d && d->has_s && d->s.len == 4 && memcmp(d->s.data, "LEFT", 4) == 0) fn->flag = 1;
    else if (d && d->has_s && d->s.len == 5 && memcmp(d->s.data, "RIGHT", 5) == 0) fn->flag = 0;
    else return "its direction is neither \"LEFT\" nor \"RIGHT\"";
    return NULL;
  }
  case IMPORT_ISINF:
    fn->flag = (attr_i(n, "detect_negative", 1) != 0) | (attr_i(n, "detect_positive", 1) != 0) << 1;
    return NULL;
  case IMPORT_CLIP:
    if (gr->opset > 0 && gr->opset < 11) { /* Clip-6: bounds are float attributes */
      if (!floating(t0)) return "Clip before opset 11 is defined on floating-point inputs only";
      if (nin != 1) return "Clip before opset 11 takes one input";
      fn->has_lo = true;
      fn->has_hi = true;
      fn->lo = attr_f(n, "min", -3.40282347e+38f);
      fn->hi = attr_f(n, "max", 3.40282347e+38f);
      return NULL;
    }
    for (int k = 1; k < nin; k++) {
      const graph_value *b = ni->in[k] >= 0 ? &gr->vals[ni->in[k]] : NULL;
      if (b && (!b->shaped || b->shape.rank != 0) && !(b->constant && one_element(b)))
        return graph_fmt(gr, "bound '%.200s' is not a scalar", b->name);
    }
    return NULL;
  case IMPORT_CAST:
  case IMPORT_CASTLIKE: {
    const onnx_attr *to = graph_attr(n, "to");
    int64_t          code = ni->kind == IMPORT_CASTLIKE ? (int64_t)gr->vals[ni->in[1]].dtype
                            : to && to->has_i       ? to->i
                                                    : -1;
    if (code < 0) return "no 'to' attribute";
    if (code < 1 || code > 16)
      return graph_fmt(gr, "casts to %s are not supported", graph_dtype_label(gr, (int32_t)code));
    fn->cast_to = (wc_dtype)code;
    if (fn->cast_to != t0 && !wc_cast_defined(t0, fn->cast_to))
      return graph_fmt(gr,
                       "casts from %s to %s are not supported (the spec converts between "
                       "strings, complex and other dtypes not at all)",
                       wc_dtype_name(t0), wc_dtype_name(fn->cast_to));
    return NULL;
  }
  case IMPORT_FUNC:
  case IMPORT_SOFTPLUS:
  case IMPORT_MISH:
  case IMPORT_GELU:
    if (t == WC_DOUBLE && (ni->kind != IMPORT_FUNC || correctly_rounded_only(op->spell)))
      return graph_fmt(gr,
                       "%s on double: wherec's exp, log, tanh, sigmoid, erf, pow and the "
                       "circular and hyperbolic functions are correctly rounded on float, "
                       "float16 and bfloat16 only (double ones are not there yet)",
                       op->name);
    if (ni->kind == IMPORT_GELU) {
      const onnx_attr *a = graph_attr(n, "approximate");
      if (a && a->has_s && !(a->s.len == 4 && memcmp(a->s.data, "none", 4) == 0)) {
        if (a->s.len == 4 && memcmp(a->s.data, "tanh", 4) == 0) {
          fn->flag = 1; /* the tanh form */
          return NULL;
        }
        return "its approximate is neither \"none\" nor \"tanh\"";
      }
    }
    return NULL;
  case IMPORT_SUM:
  case IMPORT_MEAN: /* Sum-6 and Mean-6 take inputs of one shape; broadcasting came in opset 8 */
    for (int k = 1; k < nin && gr->opset > 0 && gr->opset < 8; k++) {
      const graph_value *a = &gr->vals[ni->in[0]], *b = &gr->vals[ni->in[k]];
      if (a->shaped && b->shaped && !same_shape(&a->shape, &b->shape))
        return "before opset 8 its inputs must have one shape";
    }
    return NULL;
  case IMPORT_DROPOUT: {
    if (gr->opset > 0 && gr->opset < 12 && nin > 1)
      return "Dropout before opset 12 takes one input";
    if (nin > 1 && ni->in[1] >= 0 && !floating(gr->vals[ni->in[1]].dtype))
      return "its ratio is not a floating-point value";
    if (nin > 2 && ni->in[2] >= 0) {
      const graph_value *m = &gr->vals[ni->in[2]];
      double             on;
      if (m->dtype != WC_BOOL) return "its training_mode is not bool";
      if (!const_scalar(m, &on))
        return graph_fmt(gr,
                         "training_mode '%.200s' is not a constant: wherec imports Dropout's "
                         "inference form (the identity) only",
                         m->name);
      if (on != 0)
        return "training_mode is true: training draws a random mask, and wherec imports "
               "Dropout's inference form (the identity) only";
    }
    return NULL; /* Dropout-6's is_test and every ratio: inference is the identity */
  }
  case IMPORT_POW: {
    const graph_value *y = &gr->vals[ni->in[1]];
    double             e = 0;
    bool               cst = const_scalar(y, &e);
    if (ast_dtype_class_of(y->dtype) != AST_CLASS_SINT &&
        ast_dtype_class_of(y->dtype) != AST_CLASS_UINT && !floating(y->dtype))
      return graph_fmt(gr, "its exponent has %s, which is no number", wc_dtype_name(y->dtype));
    fn->expo = e;
    fn->flag = 0;
    if (floating(t)) {
      if (cst && (e == 2 || e == 1 || e == 0 || e == -1 || e == 0.5)) return NULL; /* exact forms */
      if (t == WC_DOUBLE)
        return cst ? graph_fmt(gr,
                               "Pow of a double base by %g: wherec's pow is correctly rounded on "
                               "float, float16 and bfloat16 only (the exponents -1, 0, 0.5, 1 and "
                               "2 it computes exactly)",
                               e)
                   : "Pow of a double base: wherec's pow is correctly rounded on float, float16 "
                     "and bfloat16 only";
      fn->flag = 1; /* pow(x, y), y converted to x's dtype first */
      return NULL;
    }
    if (t != WC_INT32 && t != WC_INT64)
      return graph_fmt(gr, "Pow is not defined on %s (its integer bases are int32 and int64)",
                       wc_dtype_name(t));
    if (gr->opset > 0 && gr->opset < 12) return "Pow takes integer bases from opset 12 on";
    if (!cst)
      return graph_fmt(gr,
                       "exponent '%.200s' of an integer base is not a constant scalar: a kernel "
                       "multiplies copies of the base (wherec's pow is on float, float16 and "
                       "bfloat16)",
                       y->name);
    if (e != floor(e)) return graph_fmt(gr, "exponent %g of an integer base is not whole", e);
    if (e > 4)
      return graph_fmt(gr,
                       "exponent %g of an integer base: a kernel multiplies at most 4 copies of "
                       "the base (wherec's pow is on float, float16 and bfloat16)",
                       e);
    return NULL;
  }
  case IMPORT_BATCHNORM: {
    const graph_value *x = &gr->vals[ni->in[0]];
    if (gr->opset >= 14 && attr_i(n, "training_mode", 0) != 0)
      return "training_mode=1 normalizes by the batch's statistics: wherec imports the "
             "inference form only";
    if (!x->shaped) return "X has a dynamic shape";
    if (x->shape.rank < 2) return "X has rank below 2 (BatchNormalization wants N x C x ...)";
    fn->epsilon = attr_f(n, "epsilon", 1e-5f);
    fn->pad = -1;
    bool spatial = !(gr->opset > 0 && gr->opset < 9 && attr_i(n, "spatial", 1) == 0);
    for (int k = 1; k < 5; k++) {
      const graph_value *p = &gr->vals[ni->in[k]];
      const char        *why;
      if (!spatial) { /* per activation: [C, D1, ...], which broadcasts to X as it is */
        if (!broadcasts_to(x, p) || !p->shaped || p->shape.rank != x->shape.rank - 1)
          return graph_fmt(gr, "spatial=0, but '%.200s' does not have X's shape past N", p->name);
        continue;
      }
      if ((why = per_channel(gr, x, p, 1, false, &fn->pad))) return why;
    }
    if (fn->pad < 0) fn->pad = 0;
    return NULL;
  }
  case IMPORT_QUANTIZE:
  case IMPORT_DEQUANTIZE: {
    bool               q = ni->kind == IMPORT_QUANTIZE;
    const graph_value *x = &gr->vals[ni->in[0]], *s = &gr->vals[ni->in[1]];
    const graph_value *z = nin > 2 && ni->in[2] >= 0 ? &gr->vals[ni->in[2]] : NULL;
    int64_t            axis = attr_i(n, "axis", 1), bs = attr_i(n, "block_size", 0);
    if (q && (t == WC_DOUBLE || (!floating(t) && t != WC_INT32)))
      return graph_fmt(gr, "QuantizeLinear is not defined on %s", wc_dtype_name(t));
    if (!q && t != WC_INT8 && t != WC_UINT8 && t != WC_INT32 &&
        !((t == WC_INT16 || t == WC_UINT16) && (gr->opset <= 0 || gr->opset >= 21)))
      return graph_fmt(gr, "DequantizeLinear is not defined on %s at opset %lld", wc_dtype_name(t),
                       (long long)gr->opset);
    if (s->dtype != WC_FLOAT && !((s->dtype == WC_FLOAT16 || s->dtype == WC_BFLOAT16) &&
                                  (gr->opset <= 0 || gr->opset >= 19)))
      return graph_fmt(gr, "its scale is %s (float, and float16 or bfloat16 from opset 19)",
                       wc_dtype_name(s->dtype));
    if (q && s->dtype != t && t != WC_INT32) return "x and y_scale have different dtypes";
    if (bs != 0)
      return graph_fmt(gr,
                       "block_size=%lld: block quantization repeats each scale along an axis, "
                       "which a kernel's broadcasting cannot express",
                       (long long)bs);
    wc_dtype to = z ? z->dtype : WC_UINT8;
    if (q) {
      int64_t od = attr_i(n, "output_dtype", 0);
      if (od != 0 && z && od != (int64_t)z->dtype)
        return "output_dtype differs from the zero point's dtype";
      if (od != 0) to = od >= 1 && od <= 16 ? (wc_dtype)od : (wc_dtype)0;
      if (!(to == WC_UINT8 || to == WC_INT8 ||
            ((to == WC_INT16 || to == WC_UINT16) && (gr->opset <= 0 || gr->opset >= 21))))
        return graph_fmt(gr, "quantizing to %s is not supported (uint8, int8; int16, uint16 from "
                             "opset 21)",
                         to ? wc_dtype_name(to) : graph_dtype_label(gr, (int32_t)od));
      fn->cast_to = to;
    } else if (z && z->dtype != t) {
      return "x and its zero point have different dtypes";
    }
    if (!x->shaped) return "x has a dynamic shape";
    fn->pad = -1;
    const char *why;
    if (gr->opset > 0 && gr->opset < 13 && !(one_element(s) && (!z || one_element(z))))
      return "before opset 13 its scale and zero point are scalars (per tensor)";
    if (!one_element(s) && (axis < -x->shape.rank || axis >= x->shape.rank))
      return graph_fmt(gr, "axis %lld is out of range for x of rank %d", (long long)axis,
                       x->shape.rank);
    if (axis < 0) axis += x->shape.rank;
    if ((why = per_channel(gr, x, s, (int)axis, true, &fn->pad))) return why;
    if (z && (why = per_channel(gr, x, z, (int)axis, true, &fn->pad))) return why;
    if (z && one_element(z) != one_element(s)) return "its scale and zero point differ in shape";
    if (fn->pad < 0) fn->pad = 0;
    return NULL;
  }
  default: return NULL;
  }
}

int fusion_operands(const import_graph *gr, const graph_node *ni) {
  double e;
  if (ni->kind == IMPORT_POW && ni->n->n_inputs == 2 && ni->in[1] >= 0 &&
      !const_scalar(&gr->vals[ni->in[1]], &e))
    return 2; /* pow(x, y) reads y */
  return op_operands(ni->op, ni->n->n_inputs);
}

/* Times the expression of node ni names its input slot k (see spec_write.c); once
   for a node outside every region (an unknown operator), which stops the join anyway. */
static int copies_of(const import_graph *gr, const graph_node *ni, const fusion_node *fn, int k) {
  if (k >= fusion_operands(gr, ni)) return 0;
  if (ni->kind == IMPORT_MOD && fn->flag == MOD_FLOOR_FLOAT) return k == 0 ? 4 : 7; /* spec_write.c */
  return ni->op ? ni->op->copies : 1;
}

void fusion_form(fusion *f, const import_graph *gr) {
  int n = gr->g->n_nodes;
  f->nodes = graph_alloc(gr, (size_t)n, sizeof *f->nodes);
  f->regions = graph_alloc(gr, (size_t)n, sizeof *f->regions);
  f->n_regions = 0;
  for (int i = 0; i < n; i++) f->nodes[i].region = -1;
  for (int k = n - 1; k >= 0; k--) {
    int               i = gr->order[k];
    const graph_node *ni = &gr->nodes[i];
    fusion_node      *fn = &f->nodes[i];
    fn->reason = check_node(gr, i, fn);
    if (fn->reason || ni->kind == IMPORT_CONSTANT || ni->folded) continue;
    int                region = -1, depth = 0, copies = 0;
    const graph_value *out = &gr->vals[ni->out];
    bool               join = ni->kind != IMPORT_NONZERO && !out->is_output && out->captured_by < 0 &&
                out->n_uses > 0;
    /* a node reading the value twice is listed twice: count each slot once; a value
       read by several nodes joins when they are all in one region, as a `let` of that
       kernel (computed once); read also outside it, it ends the kernel */
    int readers = 0;
    for (int u = 0; u < gr->n_users[ni->out] && join; u++) {
      int                c = gr->users[ni->out][u];
      const graph_node  *cn = &gr->nodes[c];
      const fusion_node *cf = &f->nodes[c];
      if (u > 0 && gr->users[ni->out][u - 1] == c) continue;
      readers++;
      for (int s = 0; s < cn->n->n_inputs && join; s++) {
        if (cn->in[s] != ni->out) continue;
        if (cf->region < 0 || (region >= 0 && cf->region != region)) join = false;
        region = cf->region;
        if (cf->depth + 1 > depth) depth = cf->depth + 1;
        copies += cf->copies * copies_of(gr, cn, cf, s);
      }
    }
    if (join && readers > 1 && gr->nodes[f->regions[region].root].kind == IMPORT_NONZERO)
      join = false; /* nonzero's kernel is one expression: no body, no let */
    if (join && readers > 1 && copies > 0) { /* a let: named once, nests anew */
      fn->region = region;
      fn->let = true;
      fn->depth = 0;
      fn->copies = 1;
    } else if (join && depth <= IMPORT_MAX_DEPTH && copies <= IMPORT_MAX_COPIES) {
      fn->region = region;
      fn->depth = depth;
      fn->copies = copies;
    } else {
      region = f->n_regions++;
      memset(&f->regions[region], 0, sizeof f->regions[region]);
      f->regions[region].root = i;
      fn->region = region;
      fn->depth = 0;
      fn->copies = 1;
    }
  }
}

bool fusion_whole_graph(const fusion *f, const import_graph *gr, int r) {
  if (f->n_regions != 1) return false;
  for (int i = 0; i < gr->g->n_nodes; i++) {
    const graph_node *ni = &gr->nodes[i];
    if (f->nodes[i].region == r) continue;
    if ((ni->kind != IMPORT_CONSTANT && !ni->folded) || ni->out < 0) return false;
    for (int u = 0; u < gr->n_users[ni->out]; u++)
      if (f->nodes[gr->users[ni->out][u]].region != r) return false;
  }
  return true;
}

/* Why node i is not taken, NULL when a kernel takes it (or reads it, for a Constant). */
static const char *not_taken(const fusion *f, const import_graph *gr, int i) {
  const graph_node  *ni = &gr->nodes[i];
  const fusion_node *fn = &f->nodes[i];
  if (fn->reason) return fn->reason;
  if (ni->folded) return NULL; /* listed as folded */
  if (ni->kind == IMPORT_CONSTANT) {
    for (int u = 0; ni->out >= 0 && u < gr->n_users[ni->out]; u++) {
      int reg = f->nodes[gr->users[ni->out][u]].region;
      if (reg >= 0 && !f->regions[reg].reason) return NULL;
    }
    return "no kernel reads it";
  }
  const fusion_region *rg = &f->regions[fn->region];
  if (rg->reason && rg->root == i) return rg->reason;
  if (rg->reason)
    return graph_fmt(gr, "fused into %s, which is not taken: %s", graph_node_label(gr, rg->root),
                     rg->reason);
  return NULL;
}

void fusion_report(const fusion *f, const import_graph *gr, FILE *log) {
  for (int k = 0; k < gr->g->n_nodes; k++) {
    int         i = gr->order[k];
    const char *why = not_taken(f, gr, i);
    if (why) fprintf(log, "wherec: not taken: %s: %s\n", graph_node_label(gr, i), why);
    else if (gr->nodes[i].folded)
      fprintf(log, "wherec: folded: %s: its value is a constant, computed at import\n",
              graph_node_label(gr, i));
  }
}

void fusion_report_kernel(const fusion *f, const import_graph *gr, int r, FILE *log) {
  int root = f->regions[r].root;
  fprintf(log, "wherec: kernel %s: %s", f->regions[r].name, graph_node_label(gr, root));
  for (int k = gr->g->n_nodes - 1; k >= 0; k--) {
    int i = gr->order[k];
    if (i != root && f->nodes[i].region == r && gr->nodes[i].kind != IMPORT_CONSTANT)
      fprintf(log, ", %s", graph_node_label(gr, i));
  }
  fputc('\n', log);
  int reader = gr->vals[gr->nodes[root].out].captured_by;
  if (reader >= 0)
    fprintf(log, "wherec: note: %s ends kernel %s: its value is read inside a sub-graph of %s\n",
            graph_node_label(gr, root), f->regions[r].name, graph_node_label(gr, reader));
}

void fusion_free(fusion *f) {
  for (int r = 0; r < f->n_regions; r++) {
    diag_text_free(&f->regions[r].text);
    diag_text_free(&f->regions[r].manifest);
  }
  f->n_regions = 0;
}
