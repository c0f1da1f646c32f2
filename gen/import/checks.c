/* checks.c: the refusals of each operator beyond what its row's columns say (ops.h's check
   column), with the reason a user reads; and the facts its form needs (pad, cast_to). */
#include <math.h>
#include <string.h>

#include "import/forms.h"

static const graph_value *input(const op_ctx *c, int k) { return &c->gr->vals[c->ni->in[k]]; }

static int n_inputs(const op_ctx *c) { return c->ni->n->n_inputs; }

static bool given(const op_ctx *c, int k) { return k < n_inputs(c) && c->ni->in[k] >= 0; }

static bool before(const op_ctx *c, int opset) { return c->gr->opset > 0 && c->gr->opset < opset; }

/* v is a whole number of magnitude at most 2^62 (tested in that order: converting a NaN or
   a float past int64 to an integer is undefined). */
static bool whole_number(float v) { return fabsf(v) <= 0x1p62f && v == (float)(int64_t)v; }

/* A per-channel parameter p of X (BatchNormalization's scale, B, mean, var; a per-axis scale
   or zero point) along axis: one element (then it broadcasts as it is), or a vector of X's
   extent there, which broadcasts once given the 1s of the axes after it (*pad). */
static const char *per_channel(const op_ctx *c, const graph_value *x, const graph_value *p,
                               int axis, bool one_ok, int *pad) {
  if (!p->shaped) return graph_fmt(c->gr, "'%.200s' has a dynamic shape", p->name);
  if (one_ok && graph_one_element(p) && p->shape.rank <= 1) return NULL;
  if (p->shape.rank != 1 || p->shape.dims[0] != x->shape.dims[axis])
    return graph_fmt(c->gr, "'%.200s' is not a vector of X's extent along axis %d", p->name, axis);
  int want = x->shape.rank - 1 - axis;
  if (*pad >= 0 && *pad != want) return "its parameters broadcast in different ways";
  *pad = want;
  return NULL;
}

/* Are the outputs of the node past the first absent or read by nothing? */
static bool extra_outputs_unused(const op_ctx *c) {
  const onnx_node *n = c->ni->n;
  for (int o = 1; o < n->n_outputs; o++) {
    int                v = n->outputs[o][0] ? graph_find(c->gr, n->outputs[o]) : -1;
    const graph_value *val = v >= 0 ? &c->gr->vals[v] : NULL;
    if (val && (val->n_uses > 0 || val->is_output || val->captured_by >= 0)) return false;
  }
  return true;
}

const char *check_none(op_ctx *c) {
  (void)c;
  return NULL;
}

/* Max-6, Min-6, Sum-6 and Mean-6 take inputs of one shape; broadcasting came in opset 8. */
const char *check_same_shape_6(op_ctx *c) {
  for (int k = 1; k < n_inputs(c) && before(c, 8); k++) {
    const graph_value *a = input(c, 0), *b = input(c, k);
    if (a->shaped && b->shaped && !graph_same_shape(&a->shape, &b->shape))
      return "before opset 8 its inputs must have one shape";
  }
  return NULL;
}

const char *check_mod(op_ctx *c) {
  int64_t fmod_ = c->fn->at.Mod.fmod;
  if (fmod_ != 0 && fmod_ != 1)
    return graph_fmt(c->gr, "fmod=%lld: it is 0 or 1", (long long)fmod_);
  if (fmod_ == 0 && graph_floating(c->t) && before(c, 28)) /* Mod-28 defined the floor modulo */
    return "fmod=0 on floating-point inputs: ONNX defines Mod on floats with fmod=1 only before "
           "opset 28";
  return NULL;
}

/* BitShift-28 added signed integers, shifting as the spec's << and >> do (arithmetic right; a
   negative count or one of the width or more gives 0, or -1 to the right of a negative). */
const char *check_bitshift(op_ctx *c) {
  const char *d = c->fn->at.BitShift.direction;
  if (ast_dtype_class_of(c->t) == AST_CLASS_SINT && before(c, 28))
    return graph_fmt(c->gr, "BitShift is not defined on %s before opset 28", wc_dtype_name(c->t));
  if (strcmp(d, "LEFT") != 0 && strcmp(d, "RIGHT") != 0)
    return "its direction is neither \"LEFT\" nor \"RIGHT\"";
  return NULL;
}

const char *check_prelu(op_ctx *c) {
  const graph_value *x = input(c, 0), *s = input(c, 1);
  if (before(c, 7)) { /* PRelu-6: a slope of one element, of X's shape, or per channel (which
                         exporters wrote and onnxruntime runs): [C] or [C,1,...] against [N,C,...] */
    if (graph_one_element(s) || !x->shaped || !s->shaped || graph_same_shape(&x->shape, &s->shape))
      return NULL;
    c->fn->pad = -1;
    if (x->shape.rank >= 2 && s->shape.rank == 1 && !per_channel(c, x, s, 1, false, &c->fn->pad))
      return NULL;
    c->fn->pad = 0;
    if (x->shape.rank >= 2 && s->shape.rank == x->shape.rank - 1 && graph_broadcasts_to(x, s) &&
        s->shape.dims[0] == x->shape.dims[1])
      return NULL;
    return "before opset 7 its slope has one element, X's shape or one value per channel";
  }
  return graph_broadcasts_to(x, s)
             ? NULL
             : graph_fmt(c->gr, "slope '%.200s' does not broadcast to X's shape", s->name);
}

const char *check_clip(op_ctx *c) {
  if (before(c, 11)) { /* Clip-6: bounds are float attributes */
    if (!graph_floating(c->t))
      return "Clip before opset 11 is defined on floating-point inputs only";
    if (n_inputs(c) != 1) return "Clip before opset 11 takes one input";
    return NULL;
  }
  for (int k = 1; k < n_inputs(c); k++) {
    const graph_value *b = given(c, k) ? input(c, k) : NULL;
    if (b && (!b->shaped || b->shape.rank != 0) && !(b->constant && graph_one_element(b)))
      return graph_fmt(c->gr, "bound '%.200s' is not a scalar", b->name);
  }
  return NULL;
}

const char *check_shrink(op_ctx *c) {
  float lambd = c->fn->at.Shrink.lambd, bias = c->fn->at.Shrink.bias;
  if (!graph_floating(c->t) && (!whole_number(lambd) || !whole_number(bias)))
    return graph_fmt(c->gr, "lambd %g or bias %g is not a whole number, which %s cannot hold",
                     (double)lambd, (double)bias, wc_dtype_name(c->t));
  return NULL;
}

/* Cast's `to`, CastLike's target_type's dtype: one wherec has, and a conversion the spec has. */
const char *check_cast(op_ctx *c) {
  int64_t code = c->ni->op->id == OP_CastLike ? (int64_t)input(c, 1)->dtype : c->fn->at.Cast.to;
  if (code < 0) return "no 'to' attribute";
  if (code < 1 || code > 16)
    return graph_fmt(c->gr, "casts to %s are not supported",
                     graph_dtype_label(c->gr, (int32_t)code));
  c->fn->cast_to = (wc_dtype)code;
  if (c->fn->cast_to != c->t && !wc_cast_defined(c->t, c->fn->cast_to))
    return graph_fmt(c->gr,
                     "casts from %s to %s are not supported (the spec converts between strings, "
                     "complex and other dtypes not at all)",
                     wc_dtype_name(c->t), wc_dtype_name(c->fn->cast_to));
  return NULL;
}

const char *check_gelu(op_ctx *c) {
  const char *a = c->fn->at.Gelu.approximate;
  if (strcmp(a, "none") != 0 && strcmp(a, "tanh") != 0)
    return "its approximate is neither \"none\" nor \"tanh\"";
  return NULL;
}

/* Inference only: the identity. Dropout-6's is_test and every ratio give it. */
const char *check_dropout(op_ctx *c) {
  if (before(c, 12) && n_inputs(c) > 1) return "Dropout before opset 12 takes one input";
  if (given(c, 1) && !graph_floating(input(c, 1)->dtype))
    return "its ratio is not a floating-point value";
  if (given(c, 2)) {
    const graph_value *m = input(c, 2);
    double             on;
    if (m->dtype != WC_BOOL) return "its training_mode is not bool";
    if (!graph_const_scalar(m, &on))
      return graph_fmt(c->gr,
                       "training_mode '%.200s' is not a constant: wherec imports Dropout's "
                       "inference form (the identity) only",
                       m->name);
    if (on != 0)
      return "training_mode is true: training draws a random mask, and wherec imports Dropout's "
             "inference form (the identity) only";
  }
  if (!extra_outputs_unused(c))
    return "its mask output is read: a kernel computes one output (in inference the mask is "
           "all true)";
  return NULL;
}

const char *check_pow(op_ctx *c) {
  const graph_value *y = input(c, 1);
  double             e = 0;
  bool               cst = graph_const_scalar(y, &e);
  ast_dtype_class    yc = ast_dtype_class_of(y->dtype);
  if (yc != AST_CLASS_SINT && yc != AST_CLASS_UINT && !graph_floating(y->dtype))
    return graph_fmt(c->gr, "its exponent has %s, which is no number", wc_dtype_name(y->dtype));
  if (graph_floating(c->t)) {
    if (cst && (e == 2 || e == 1 || e == 0 || e == -1 || e == 0.5)) return NULL; /* exact forms */
    if (c->t == WC_DOUBLE)
      return cst ? graph_fmt(c->gr,
                             "Pow of a double base by %g: wherec's pow is correctly rounded on "
                             "float, float16 and bfloat16 only (the exponents -1, 0, 0.5, 1 and 2 "
                             "it computes exactly)",
                             e)
                 : "Pow of a double base: wherec's pow is correctly rounded on float, float16 and "
                   "bfloat16 only";
    return NULL;
  }
  if (c->t != WC_INT32 && c->t != WC_INT64)
    return graph_fmt(c->gr, "Pow is not defined on %s (its integer bases are int32 and int64)",
                     wc_dtype_name(c->t));
  if (before(c, 12)) return "Pow takes integer bases from opset 12 on";
  if (!cst)
    return graph_fmt(c->gr,
                     "exponent '%.200s' of an integer base is not a constant scalar: a kernel "
                     "multiplies copies of the base (wherec's pow is on float, float16 and "
                     "bfloat16)",
                     y->name);
  if (e != floor(e)) return graph_fmt(c->gr, "exponent %g of an integer base is not whole", e);
  if (e > 4)
    return graph_fmt(c->gr,
                     "exponent %g of an integer base: a kernel multiplies at most 4 copies of the "
                     "base (wherec's pow is on float, float16 and bfloat16)",
                     e);
  return NULL;
}

const char *check_batchnorm(op_ctx *c) {
  const graph_value *x = input(c, 0);
  if (!extra_outputs_unused(c))
    return "its training outputs (the running or saved mean and variance) are read: wherec "
           "imports the inference form only";
  if (!before(c, 14) && c->fn->at.BatchNormalization.training_mode != 0)
    return "training_mode=1 normalizes by the batch's statistics: wherec imports the inference "
           "form only";
  if (!x->shaped) return "X has a dynamic shape";
  if (x->shape.rank < 2) return "X has rank below 2 (BatchNormalization wants N x C x ...)";
  c->fn->pad = -1;
  bool spatial = !(before(c, 9) && c->fn->at.BatchNormalization.spatial == 0);
  for (int k = 1; k < 5; k++) {
    const graph_value *p = input(c, k);
    const char        *why;
    if (!spatial) { /* per activation: [C, D1, ...], which broadcasts to X as it is */
      if (!graph_broadcasts_to(x, p) || !p->shaped || p->shape.rank != x->shape.rank - 1)
        return graph_fmt(c->gr, "spatial=0, but '%.200s' does not have X's shape past N", p->name);
      continue;
    }
    if ((why = per_channel(c, x, p, 1, false, &c->fn->pad))) return why;
  }
  if (c->fn->pad < 0) c->fn->pad = 0;
  return NULL;
}

/* The scale and zero point of QuantizeLinear and DequantizeLinear: per tensor, or per axis
   (from opset 13), never per block. */
static const char *quant_params(op_ctx *c, int64_t axis, int64_t block_size) {
  const graph_value *x = input(c, 0), *s = input(c, 1), *z = given(c, 2) ? input(c, 2) : NULL;
  const char        *why;
  if (block_size != 0)
    return graph_fmt(c->gr,
                     "block_size=%lld: block quantization repeats each scale along an axis, which "
                     "a kernel's broadcasting cannot express",
                     (long long)block_size);
  if (!x->shaped) return "x has a dynamic shape";
  c->fn->pad = -1;
  if (before(c, 13) && !(graph_one_element(s) && (!z || graph_one_element(z))))
    return "before opset 13 its scale and zero point are scalars (per tensor)";
  if (!graph_one_element(s) && (axis < -x->shape.rank || axis >= x->shape.rank))
    return graph_fmt(c->gr, "axis %lld is out of range for x of rank %d", (long long)axis,
                     x->shape.rank);
  if (axis < 0) axis += x->shape.rank;
  if ((why = per_channel(c, x, s, (int)axis, true, &c->fn->pad))) return why;
  if (z && (why = per_channel(c, x, z, (int)axis, true, &c->fn->pad))) return why;
  if (z && graph_one_element(z) != graph_one_element(s))
    return "its scale and zero point differ in shape";
  if (c->fn->pad < 0) c->fn->pad = 0;
  return NULL;
}

/* The scale's dtype: float, and float16 or bfloat16 from opset 19. */
static const char *scale_dtype(op_ctx *c) {
  wc_dtype st = input(c, 1)->dtype;
  if (st != WC_FLOAT && !((st == WC_FLOAT16 || st == WC_BFLOAT16) && !before(c, 19)))
    return graph_fmt(c->gr, "its scale is %s (float, and float16 or bfloat16 from opset 19)",
                     wc_dtype_name(st));
  return NULL;
}

const char *check_quantize(op_ctx *c) {
  const op_attrs_QuantizeLinear *a = &c->fn->at.QuantizeLinear;
  const graph_value             *z = given(c, 2) ? input(c, 2) : NULL;
  wc_dtype                       t = c->t;
  const char                    *why;
  if (t == WC_DOUBLE || (!graph_floating(t) && t != WC_INT32))
    return graph_fmt(c->gr, "QuantizeLinear is not defined on %s", wc_dtype_name(t));
  if ((why = scale_dtype(c))) return why;
  if (input(c, 1)->dtype != t && t != WC_INT32) return "x and y_scale have different dtypes";
  if (a->precision != 0 && a->precision != (int64_t)t)
    return graph_fmt(c->gr,
                     "precision=%lld computes in another dtype than x's, which wherec does not",
                     (long long)a->precision);
  if (a->block_size == 0) {
    wc_dtype to = z ? z->dtype : WC_UINT8;
    if (a->output_dtype != 0 && z && a->output_dtype != (int64_t)z->dtype)
      return "output_dtype differs from the zero point's dtype";
    if (a->output_dtype != 0)
      to = a->output_dtype >= 1 && a->output_dtype <= 16 ? (wc_dtype)a->output_dtype : (wc_dtype)0;
    if (!(to == WC_UINT8 || to == WC_INT8 ||
          ((to == WC_INT16 || to == WC_UINT16) && !before(c, 21))))
      return graph_fmt(
          c->gr, "quantizing to %s is not supported (uint8, int8; int16, uint16 from opset 21)",
          to ? wc_dtype_name(to) : graph_dtype_label(c->gr, (int32_t)a->output_dtype));
    c->fn->cast_to = to;
  }
  return quant_params(c, a->axis, a->block_size);
}

const char *check_dequantize(op_ctx *c) {
  const op_attrs_DequantizeLinear *a = &c->fn->at.DequantizeLinear;
  wc_dtype                         t = c->t;
  const char                      *why;
  if (t != WC_INT8 && t != WC_UINT8 && t != WC_INT32 &&
      !((t == WC_INT16 || t == WC_UINT16) && !before(c, 21)))
    return graph_fmt(c->gr, "DequantizeLinear is not defined on %s at opset %lld", wc_dtype_name(t),
                     (long long)c->gr->opset);
  if ((why = scale_dtype(c))) return why;
  if (given(c, 2) && input(c, 2)->dtype != t) return "x and its zero point have different dtypes";
  if (a->output_dtype != 0 && a->output_dtype != (int64_t)input(c, 1)->dtype)
    return graph_fmt(
        c->gr, "output_dtype=%lld differs from the scale's dtype, which wherec does not convert to",
        (long long)a->output_dtype);
  return quant_params(c, a->axis, a->block_size);
}

/* ---- row reductions: a kernel reduces the last axis of its output ---- */

/* Does the node reduce X's last axis (axis, negative from the end)? */
static const char *last_axis(const op_ctx *c, int64_t axis) {
  const graph_value *x = input(c, 0);
  if (!x->shaped) return "its input has a dynamic rank: whether it reduces the last axis is not known";
  if (x->shape.rank == 0) return "its input is a scalar: it has no axis to reduce";
  if (axis < -x->shape.rank || axis >= x->shape.rank)
    return graph_fmt(c->gr, "axis %lld is out of range for rank %d", (long long)axis, x->shape.rank);
  if (axis < 0) axis += x->shape.rank;
  if (axis != x->shape.rank - 1)
    return graph_fmt(c->gr,
                     "it reduces axis %lld of a rank-%d input; a kernel's row reductions reduce "
                     "the last axis",
                     (long long)axis, x->shape.rank);
  return NULL;
}

/* Softmax and LogSoftmax along the last axis: from opset 13 `axis` (default -1) is the
   one axis; before, the input is flattened to 2-D from `axis` (default 1) on, which is the
   last axis alone when axis is rank - 1. */
const char *check_softmax(op_ctx *c) {
  const onnx_attr *a = graph_attr(c->ni->n, "axis");
  return last_axis(c, a && a->has_i ? a->i : before(c, 13) ? 1 : -1);
}

/* LayerNormalization and RMSNormalization along the last axis, their scale and bias of
   X's dtype, and no Mean or InvStdDev read (a kernel computes one output). */
const char *check_norm(op_ctx *c) {
  for (int k = 1; k < n_inputs(c); k++)
    if (given(c, k) && input(c, k)->dtype != c->t)
      return graph_fmt(c->gr, "'%.200s' is %s, X %s: a kernel computes in one dtype",
                       input(c, k)->name, wc_dtype_name(input(c, k)->dtype), wc_dtype_name(c->t));
  if (!extra_outputs_unused(c)) return "its Mean or InvStdDev output is read";
  return last_axis(c, graph_is(c->ni, OP_LayerNormalization) ? c->fn->at.LayerNormalization.axis
                                                             : c->fn->at.RMSNormalization.axis);
}

/* Reduce* over the last axis alone, keeping it (keepdims=1, so the value broadcasts back
   along the row as the kernel's does): axes the attribute before opset 13 (ReduceSum) or
   18 (the others), else a constant input. */
const char *check_reduce_last(op_ctx *c) {
  const onnx_node *n = c->ni->n;
  const onnx_attr *keep = graph_attr(n, "keepdims"), *noop = graph_attr(n, "noop_with_empty_axes");
  int              since = graph_is(c->ni, OP_ReduceSum) ? 13 : 18;
  int64_t          axis = 0;
  bool             all = false;
  if (keep && keep->has_i && keep->i == 0)
    return "keepdims=0: the reduced value would broadcast along other axes than its row";
  if (!before(c, since)) {
    double v;
    if (!given(c, 1)) {
      if (noop && noop->has_i && noop->i != 0) return "noop_with_empty_axes=1 with no axes";
      all = true;
    } else if (!graph_const_scalar(input(c, 1), &v)) {
      return "its axes are not one constant axis";
    } else if (!(v >= -WC_MAX_RANK && v < WC_MAX_RANK)) { /* NaN too; no cast out of range */
      return graph_fmt(c->gr, "axis %g is out of range", v);
    } else axis = (int64_t)v;
  } else {
    const onnx_attr *a = graph_attr(n, "axes");
    if (!a || a->n_ints == 0) all = true;
    else if (a->n_ints != 1) return "it reduces several axes";
    else axis = a->ints[0];
  }
  if (all) { /* every axis: the last one alone when X is a vector */
    const graph_value *x = input(c, 0);
    if (x->shaped && x->shape.rank != 1) return "it reduces every axis of its input";
    axis = -1;
  }
  return last_axis(c, axis);
}
