/* expr.c: expression trees of wherec import's kernels: their nodes, exact literals in each
   dtype, and their spelling as spec text. */
#include "import/expr.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <wherec/exp.h>

#include "front/ast.h"

/* Bits of an element of dtype t. */
static unsigned dtype_bits(wc_dtype t) { return (unsigned)wc_dtype_size(t) * 8u; }

/* ---- literals ----------------------------------------------------------------------- */

/* Adds ".0" to a float spelling that looks like an integer, for the reader. */
static void float_text(char *out, size_t cap, const char *s) {
  snprintf(out, cap, "%s%s", s, strpbrk(s, ".en") ? "" : ".0");
}

bool spec_literal_text(wc_dtype t, const uint64_t bits[2], char *out, size_t cap) {
  char     tmp[64];
  unsigned nbits = dtype_bits(t);
  switch (ast_dtype_class_of(t)) {
  case AST_CLASS_BOOL: snprintf(out, cap, "%s", bits[0] ? "true" : "false"); return true;
  case AST_CLASS_SINT: {
    uint64_t u = bits[0];
    if (nbits < 64 && (u >> (nbits - 1)) & 1) u |= ~(uint64_t)0 << nbits; /* sign-extend */
    snprintf(out, cap, "%lld", (long long)(int64_t)u);
    return true;
  }
  case AST_CLASS_UINT: snprintf(out, cap, "%llu", (unsigned long long)bits[0]); return true;
  case AST_CLASS_REAL:
  case AST_CLASS_HALF: {
    uint64_t sign = bits[0] >> (nbits - 1) & 1, qnan;
    double   v;
    if (t == WC_DOUBLE) {
      memcpy(&v, &bits[0], 8);
      qnan = 0x7ff8000000000000ull;
    } else {
      uint32_t b32 = t == WC_FLOAT ? (uint32_t)bits[0] : 0;
      float    f = t == WC_FLOAT16    ? wc_f16_to_f32((wc_float16)bits[0])
                   : t == WC_BFLOAT16 ? wc_bf16_to_f32((wc_bfloat16)bits[0])
                                      : wc_bits_to_f32(b32);
      v = f;
      qnan = t == WC_FLOAT ? 0x7fc00000u : t == WC_FLOAT16 ? 0x7e00u : 0x7fc0u;
    }
    if (isnan(v)) {
      if ((bits[0] & ~((uint64_t)1 << (nbits - 1))) != qnan) return false;
      snprintf(out, cap, "%snan", sign ? "-" : "");
      return true;
    }
    if (isinf(v)) {
      snprintf(out, cap, "%sinf", sign ? "-" : "");
      return true;
    }
    /* shortest of %.9g / %.17g that reads back to the same bits the way sema reads it */
    for (int digits = t == WC_DOUBLE ? 17 : 9; digits <= 17; digits += 8) {
      snprintf(tmp, sizeof tmp, "%.*g", digits, v);
      uint64_t back;
      if (t == WC_DOUBLE) {
        double d = strtod(tmp, NULL);
        memcpy(&back, &d, 8);
      } else {
        float f = strtof(tmp, NULL);
        back = t == WC_FLOAT16    ? wc_f32_to_f16(f)
               : t == WC_BFLOAT16 ? wc_f32_to_bf16(f)
                                  : wc_f32_to_bits(f);
      }
      if (back == bits[0]) {
        float_text(out, cap, tmp);
        return true;
      }
    }
    return false;
  }
  default: return false;
  }
}

/* Rounding is monotonic, so the decimal spellings order as their values do. */
bool ex_lit_greater(wc_dtype t, const char *a, const char *b) {
  switch (ast_dtype_class_of(t)) {
  case AST_CLASS_SINT: return strtoll(a, NULL, 10) > strtoll(b, NULL, 10);
  case AST_CLASS_UINT: return strtoull(a, NULL, 10) > strtoull(b, NULL, 10);
  default: return strtod(a, NULL) > strtod(b, NULL);
  }
}

void ex_float_limits(wc_dtype t, uint64_t lo[2], uint64_t hi[2]) {
  lo[1] = hi[1] = 0;
  switch (t) {
  case WC_DOUBLE:
    lo[0] = 0xffefffffffffffffull;
    hi[0] = 0x7fefffffffffffffull;
    break;
  case WC_FLOAT16:
    lo[0] = 0xfbff;
    hi[0] = 0x7bff;
    break;
  case WC_BFLOAT16:
    lo[0] = 0xff7f;
    hi[0] = 0x7f7f;
    break;
  default:
    lo[0] = 0xff7fffff;
    hi[0] = 0x7f7fffff;
    break;
  }
}

/* ---- trees ------------------------------------------------------------------------- */

ex *ex_make(ex_ctx *x, int kind, wc_dtype t, const char *text, int n, ex *a, ex *b, ex *c) {
  ex *e = graph_alloc(x->gr, 1, sizeof *e);
  e->kind = kind;
  e->dtype = t;
  e->text = text;
  e->n = n;
  e->arg[0] = a;
  e->arg[1] = b;
  e->arg[2] = c;
  return e;
}

ex *ex_lit(ex_ctx *x, wc_dtype t, const char *text) {
  ex *e = ex_make(x, EX_LIT, t, text, 0, NULL, NULL, NULL);
  e->typed = true; /* until a sibling types it */
  return e;
}

static void unspellable(ex_ctx *x, wc_dtype t) {
  if (!x->unspellable)
    x->unspellable = graph_fmt(
        x->gr, "a constant it needs has no literal in %s (a NaN with a payload, or out of range)",
        wc_dtype_name(t));
}

ex *ex_lit_bits(ex_ctx *x, wc_dtype t, const uint64_t bits[2]) {
  char text[80];
  if (spec_literal_text(t, bits, text, sizeof text))
    return ex_lit(x, t, arena_strdup(x->gr->a, text));
  unspellable(x, t); /* the kernel is refused; a stand-in keeps the tree whole */
  return ex_lit(x, t, "0");
}

ex *ex_lit_num(ex_ctx *x, wc_dtype t, double v) {
  uint64_t bits[2] = {0, 0};
  float    f = (float)v;
  switch (t) {
  case WC_DOUBLE: memcpy(&bits[0], &v, 8); break;
  case WC_FLOAT: bits[0] = wc_f32_to_bits(f); break;
  case WC_FLOAT16: bits[0] = wc_f32_to_f16(f); break;
  case WC_BFLOAT16: bits[0] = wc_f32_to_bf16(f); break;
  default:
    if (!(v >= -0x1p63 && v < 0x1p63)) { /* past int64 (or NaN): no integer literal */
      unspellable(x, t);
      v = 0;
    }
    bits[0] = (uint64_t)(int64_t)v;
    break;
  }
  if (ast_dtype_class_of(t) == AST_CLASS_UINT && v < 0) bits[0] = 0;
  return ex_lit_bits(x, t, bits);
}

/* A literal operand needs no cast when another operand has a dtype. */
static void untype_siblings(ex *e, int first) {
  bool typed_other = false;
  for (int i = first; i < e->n; i++) typed_other |= e->arg[i]->kind != EX_LIT;
  if (!typed_other) return;
  for (int i = first; i < e->n; i++)
    if (e->arg[i]->kind == EX_LIT) e->arg[i]->typed = false;
}

/* Are a and b the same expression (the same tree, spelled alike)? */
static bool ex_same(const ex *a, const ex *b) {
  if (a == b) return true;
  if (a->kind != b->kind || a->dtype != b->dtype || a->n != b->n || a->typed != b->typed ||
      strcmp(a->text, b->text) != 0)
    return false;
  for (int k = 0; k < a->n; k++)
    if (!ex_same(a->arg[k], b->arg[k])) return false;
  return true;
}

/* Is s sigmoid(v)? */
static bool is_sigmoid_of(const ex *s, const ex *v) {
  return s->kind == EX_CALL && strcmp(s->text, "sigmoid") == 0 && ex_same(s->arg[0], v);
}

/* x * sigmoid(x) (SiLU: a Mul of a value and its Sigmoid, either order) is written
   silu(x), rounded once, unless --literal-activations (the model's graph says). */
static bool is_silu(const ex_ctx *x, const char *op, const ex *a, const ex *b) {
  return strcmp(op, "*") == 0 && !graph_literal_activations(x->gr) &&
         (is_sigmoid_of(b, a) || is_sigmoid_of(a, b));
}

/* Is e the literal of dtype t nearest v (ex_lit_num's)? */
static bool is_lit_of(ex_ctx *x, const ex *e, wc_dtype t, double v) {
  if (e->kind != EX_LIT || e->dtype != t) return false;
  const char *w = ex_lit_num(x, t, v)->text;
  return !ex_lit_greater(t, e->text, w) && !ex_lit_greater(t, w, e->text);
}

/* Is p a product of v and the literal c, either order? */
static bool is_product_of(ex_ctx *x, const ex *p, const ex *v, double c) {
  return p->kind == EX_BINARY && strcmp(p->text, "*") == 0 &&
         ((ex_same(p->arg[0], v) && is_lit_of(x, p->arg[1], v->dtype, c)) ||
          (ex_same(p->arg[1], v) && is_lit_of(x, p->arg[0], v->dtype, c)));
}

/* v when s is erf(v / sqrt(2)) + 1 (the sum either order, sqrt(2) rounded to the dtype),
   else NULL. */
static ex *erf_plus_one_of(ex_ctx *x, const ex *s, wc_dtype t) {
  if (s->kind != EX_BINARY || strcmp(s->text, "+") != 0) return NULL;
  const ex *e = is_lit_of(x, s->arg[1], t, 1.0)   ? s->arg[0]
                : is_lit_of(x, s->arg[0], t, 1.0) ? s->arg[1]
                                                  : NULL;
  if (!e || e->kind != EX_CALL || strcmp(e->text, "erf") != 0 || e->dtype != t) return NULL;
  const ex *q = e->arg[0];
  if (q->kind != EX_BINARY || strcmp(q->text, "/") != 0 || q->arg[0]->dtype != t ||
      !is_lit_of(x, q->arg[1], t, sqrt(2.0)))
    return NULL;
  return q->arg[0];
}

/* v when a * b is PyTorch's exported exact GELU of v, else NULL: (v * (erf(v / sqrt(2)) +
   1)) * 0.5 (torch.onnx's gelu), (v * 0.5) * (erf(v / sqrt(2)) + 1) (0.5 * x * (1 +
   erf(x / sqrt(2))) written out) or v * ((erf(v / sqrt(2)) + 1) * 0.5), every product and
   the sum in either order, the constants the dtype's roundings of 0.5, 1 and sqrt(2), on
   float, float16 and bfloat16; written gelu(v), rounded once, unless --literal-activations. */
static ex *torch_gelu_of(ex_ctx *x, const char *op, wc_dtype t, ex *a, ex *b) {
  if (strcmp(op, "*") != 0 || graph_literal_activations(x->gr) ||
      (t != WC_FLOAT && t != WC_FLOAT16 && t != WC_BFLOAT16))
    return NULL;
  for (int k = 0; k < 2; k++) {
    ex *l = k ? b : a, *r = k ? a : b, *v;
    if (is_lit_of(x, r, t, 0.5) && l->kind == EX_BINARY && strcmp(l->text, "*") == 0)
      for (int j = 0; j < 2; j++)
        if ((v = erf_plus_one_of(x, l->arg[1 - j], t)) && ex_same(v, l->arg[j])) return v;
    if ((v = erf_plus_one_of(x, r, t)) && is_product_of(x, l, v, 0.5)) return v;
    if (r->kind == EX_BINARY && strcmp(r->text, "*") == 0)
      for (int j = 0; j < 2; j++)
        if (is_lit_of(x, r->arg[1 - j], t, 0.5) && (v = erf_plus_one_of(x, r->arg[j], t)) &&
            ex_same(v, l))
          return v;
  }
  return NULL;
}

ex *ex_bin(ex_ctx *x, const char *op, wc_dtype t, ex *a, ex *b) {
  if (is_silu(x, op, a, b)) return ex_fn1(x, "silu", t, is_sigmoid_of(b, a) ? a : b);
  ex *v = torch_gelu_of(x, op, t, a, b);
  if (v) return ex_fn1(x, "gelu", t, v);
  ex *e = ex_make(x, EX_BINARY, t, op, 2, a, b, NULL);
  untype_siblings(e, 0);
  return e;
}

ex *ex_unary(ex_ctx *x, const char *op, wc_dtype t, ex *a) {
  return ex_make(x, EX_UNARY, t, op, 1, a, NULL, NULL);
}

ex *ex_call(ex_ctx *x, const char *fn, wc_dtype t, int n, ex *a, ex *b, ex *c) {
  ex *e = ex_make(x, EX_CALL, t, fn, n, a, b, c);
  if (strcmp(fn, "where") == 0) untype_siblings(e, 1);
  else if (strcmp(fn, "min") == 0 || strcmp(fn, "max") == 0 || strcmp(fn, "pow") == 0)
    untype_siblings(e, 0);
  return e;
}

ex *ex_fn1(ex_ctx *x, const char *fn, wc_dtype t, ex *a) {
  return ex_call(x, fn, t, 1, a, NULL, NULL);
}

ex *ex_sel(ex_ctx *x, ex *c, ex *a, ex *b) { return ex_call(x, "where", a->dtype, 3, c, a, b); }

ex *ex_convert(ex_ctx *x, wc_dtype t, ex *a) {
  return a->dtype == t ? a : ex_call(x, wc_dtype_name(t), t, 1, a, NULL, NULL);
}

void ex_float_inf(wc_dtype t, bool neg, uint64_t bits[2]) {
  bits[1] = 0;
  bits[0] = t == WC_DOUBLE     ? 0x7ff0000000000000ull
            : t == WC_FLOAT16  ? 0x7c00u
            : t == WC_BFLOAT16 ? 0x7f80u
                               : 0x7f800000u;
  if (neg) bits[0] |= (uint64_t)1 << (dtype_bits(t) - 1);
}

/* ---- text --------------------------------------------------------------------------- */

void ex_print(diag_text *t, const ex *e, bool nested) {
  switch (e->kind) {
  case EX_PARAM: diag_text_printf(t, "%s", e->text); break;
  case EX_LIT:
    if (e->typed) diag_text_printf(t, "%s(%s)", wc_dtype_name(e->dtype), e->text);
    else if (e->text[0] == '-' && nested) diag_text_printf(t, "(%s)", e->text);
    else diag_text_printf(t, "%s", e->text);
    break;
  case EX_UNARY:
    diag_text_printf(t, "%s", e->text);
    ex_print(t, e->arg[0], true);
    break;
  case EX_BINARY:
    if (nested) diag_text_printf(t, "(");
    ex_print(t, e->arg[0], true);
    diag_text_printf(t, " %s ", e->text);
    ex_print(t, e->arg[1], true);
    if (nested) diag_text_printf(t, ")");
    break;
  case EX_CALL:
    diag_text_printf(t, "%s(", e->text);
    for (int i = 0; i < e->n; i++) {
      if (i) diag_text_printf(t, ", ");
      ex_print(t, e->arg[i], false);
    }
    diag_text_printf(t, ")");
    break;
  }
}

bool ex_names(const ex *e, const char *name) {
  if (e->kind == EX_PARAM) return name == NULL || e->text == name;
  for (int i = 0; i < e->n; i++)
    if (ex_names(e->arg[i], name)) return true;
  return false;
}
