/* spec_write.c: regions rendered as .where text: leaves become parameters (named from the
   ONNX names) or exact literals, nodes become the spec's operators in onnxruntime's forms. */
#define _POSIX_C_SOURCE 200809L

#include "import/spec_write.h"

#include <math.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

#include <wherec/exp.h>

#include "front/ast.h"

#define IMPORT_MAX_NAME 64 /* identifiers made from ONNX names are cut to this */

/* A node of a kernel's expression. */
typedef struct ex {
  enum { EX_PARAM, EX_LIT, EX_UNARY, EX_BINARY, EX_CALL } kind;
  wc_dtype    dtype; /* dtype of the value */
  const char *text;  /* name, literal, operator or function */
  bool        typed; /* EX_LIT: spelled T(lit), as no sibling types it */
  int         n;     /* operands */
  struct ex  *arg[3];
} ex;

/* Bits of an element of dtype t. */
static unsigned dtype_bits(wc_dtype t) { return (unsigned)wc_dtype_size(t) * 8u; }

/* Is value v computed inside region (by a node of it other than a Constant)? Else it
   is one of the region's leaves. */
static bool computed_in(const spec_writer *w, int region, int v) {
  int p = w->gr->vals[v].producer;
  return p >= 0 && w->f->nodes[p].region == region && w->gr->nodes[p].kind != IMPORT_CONSTANT;
}

/* ---- names ------------------------------------------------------------------------ */

/* s fit for a `#` comment of the spec: a control byte (a newline in an ONNX
   name, say) would end the comment and the rest would be read as spec text. */
static const char *comment_text(const import_graph *gr, const char *s) {
  char *t = arena_strdup(gr->a, s ? s : "");
  for (char *p = t; *p; p++)
    if ((unsigned char)*p < 0x20 || *p == 0x7f) *p = '?';
  return t;
}

static bool is_reserved(const char *s) {
  static const char *const words[] = {
      "kernel",  "option", "true", "false", "inf",  "nan", "where", "where_v1", "argwhere",
      "nonzero", "min",    "max",  "abs",   "i8",   "i16", "i32",   "i64",      "u8",
      "u16",     "u32",    "u64",  "f16",   "bf16", "f32", "f64",   "c64",      "c128"};
  wc_dtype t;
  for (size_t i = 0; i < sizeof words / sizeof *words; i++)
    if (strcmp(s, words[i]) == 0) return true;
  return ast_dtype_lookup(s, &t);
}

/* An identifier from an ONNX name, different from every name in taken[0, n). */
static const char *ident(spec_writer *w, const char *name, const char *const *taken, int n) {
  char   base[IMPORT_MAX_NAME + 8], out[IMPORT_MAX_NAME + 24];
  size_t k = 0;
  if (!(name[0] == '_' || ((name[0] | 0x20) >= 'a' && (name[0] | 0x20) <= 'z'))) base[k++] = 'v';
  for (const char *p = name; *p && k < IMPORT_MAX_NAME; p++) {
    char c = *p;
    bool ok = c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
              (c >= '0' && c <= '9');
    base[k++] = ok ? c : '_';
  }
  base[k] = '\0';
  if (is_reserved(base)) {
    base[k++] = '_';
    base[k] = '\0';
  }
  snprintf(out, sizeof out, "%s", base);
  for (int suffix = 2;; suffix++) {
    int i = 0;
    while (i < n && strcmp(taken[i], out) != 0) i++;
    if (i == n) break;
    snprintf(out, sizeof out, "%s_%d", base, suffix);
  }
  return arena_strdup(w->gr->a, out);
}

/* Would the kernel name k clash with a symbol the generated C derives from
   another name (P_table, P_kernels, P_<k>_range, P_<k>_dims0, ...)? */
static bool clashes_in_c(const char *k) {
  static const char *const suffixes[] = {"_range",   "_count",    "_coords",  "_invoke", "_params",
                                         "_program", "_out_dims", "_extents", "_dims"};
  size_t                   n = strlen(k), m = n;
  if (strcmp(k, "table") == 0 || strcmp(k, "kernels") == 0) return true;
  while (m > 0 && k[m - 1] >= '0' && k[m - 1] <= '9') m--; /* _dims0, _dims12 */
  for (size_t i = 0; i < sizeof suffixes / sizeof *suffixes; i++) {
    size_t l = strlen(suffixes[i]);
    if (n >= l && memcmp(k + n - l, suffixes[i], l) == 0) return true;
    if (m < n && m >= l && memcmp(k + m - l, suffixes[i], l) == 0) return true;
  }
  return false;
}

/* A kernel name: an identifier that no generated symbol can clash with. */
static const char *kernel_ident(spec_writer *w, const char *name, const char *const *taken, int n) {
  const char *k = ident(w, name, taken, n);
  if (strncmp(k, "const_", 6) == 0) /* <prefix>_const_... are the constants' arrays */
    k = ident(w, graph_fmt(w->gr, "k_%s", k), taken, n);
  return clashes_in_c(k) ? ident(w, graph_fmt(w->gr, "%s_k", k), taken, n) : k;
}

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

/* a > b for two literals of dtype t as the spec spells them (false when either is
   NaN). Rounding is monotonic, so the decimal spellings order as their values do. */
static bool lit_greater(wc_dtype t, const char *a, const char *b) {
  switch (ast_dtype_class_of(t)) {
  case AST_CLASS_SINT: return strtoll(a, NULL, 10) > strtoll(b, NULL, 10);
  case AST_CLASS_UINT: return strtoull(a, NULL, 10) > strtoull(b, NULL, 10);
  default: return strtod(a, NULL) > strtod(b, NULL);
  }
}

/* numeric_limits<T>::lowest() and max() of a float dtype, as bits. */
static void float_limits(wc_dtype t, uint64_t lo[2], uint64_t hi[2]) {
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

/* ---- expressions ------------------------------------------------------------------- */

static ex *mk(spec_writer *w, int kind, wc_dtype t, const char *text, int n, ex *a, ex *b, ex *c) {
  ex *e = graph_alloc(w->gr, 1, sizeof *e);
  e->kind = kind;
  e->dtype = t;
  e->text = text;
  e->n = n;
  e->arg[0] = a;
  e->arg[1] = b;
  e->arg[2] = c;
  return e;
}

static ex *lit(spec_writer *w, wc_dtype t, const char *text) {
  ex *e = mk(w, EX_LIT, t, text, 0, NULL, NULL, NULL);
  e->typed = true; /* until a sibling types it */
  return e;
}

/* A literal of dtype t from bits; NULL if it has no spelling. */
static ex *lit_bits(spec_writer *w, wc_dtype t, const uint64_t bits[2]) {
  char text[80];
  if (spec_literal_text(t, bits, text, sizeof text)) return lit(w, t, arena_strdup(w->gr->a, text));
  /* the kernel is refused (spec_write_kernel); a stand-in keeps the tree whole */
  if (!w->unspellable)
    w->unspellable = graph_fmt(
        w->gr, "a constant it needs has no literal in %s (a NaN with a payload, or out of range)",
        wc_dtype_name(t));
  return lit(w, t, "0");
}

/* A literal operand needs no cast when another operand has a dtype. */
static void untype_siblings(ex *e, int first) {
  bool typed_other = false;
  for (int i = first; i < e->n; i++) typed_other |= e->arg[i]->kind != EX_LIT;
  if (!typed_other) return;
  for (int i = first; i < e->n; i++)
    if (e->arg[i]->kind == EX_LIT) e->arg[i]->typed = false;
}

static ex *bin(spec_writer *w, const char *op, wc_dtype t, ex *a, ex *b) {
  ex *e = mk(w, EX_BINARY, t, op, 2, a, b, NULL);
  untype_siblings(e, 0);
  return e;
}

static ex *call(spec_writer *w, const char *fn, wc_dtype t, int n, ex *a, ex *b, ex *c) {
  ex *e = mk(w, EX_CALL, t, fn, n, a, b, c);
  if (strcmp(fn, "where") == 0) untype_siblings(e, 1);
  else if (strcmp(fn, "min") == 0 || strcmp(fn, "max") == 0 || strcmp(fn, "pow") == 0)
    untype_siblings(e, 0);
  return e;
}

static ex *sel(spec_writer *w, ex *c, ex *x, ex *y) {
  return call(w, "where", x->dtype, 3, c, x, y);
}

static ex *build(spec_writer *w, int region, int v);

/* Value v read per channel: a parameter declared with pad 1s after its shape, so that
   [C] broadcasts as [C,1,...] along X's channel axis (a literal broadcasts anyway). */
static ex *chan(spec_writer *w, int region, int v, int pad) {
  if (pad > 0 && computed_in(w, region, v)) {
    if (!w->unspellable)
      w->unspellable = graph_fmt(w->gr,
                                 "per-channel parameter '%.200s' is computed inside the kernel, "
                                 "where it cannot be given the 1s it broadcasts with",
                                 w->gr->vals[v].name);
    pad = 0;
  }
  w->cur_pad = pad;
  ex *e = build(w, region, v);
  w->cur_pad = 0;
  return e;
}

/* The literal of dtype t nearest v (an attribute or a constant of ONNX's formula):
   v as float for float, float16 and bfloat16 (those two rounded from the float, as
   numpy rounds a Python float operand), v for double; v exactly for the integers
   (fusion checked that it is whole). */
static ex *lit_num(spec_writer *w, wc_dtype t, double v) {
  uint64_t bits[2] = {0, 0};
  float    f = (float)v;
  switch (t) {
  case WC_DOUBLE: memcpy(&bits[0], &v, 8); break;
  case WC_FLOAT: bits[0] = wc_f32_to_bits(f); break;
  case WC_FLOAT16: bits[0] = wc_f32_to_f16(f); break;
  case WC_BFLOAT16: bits[0] = wc_f32_to_bf16(f); break;
  default:
    if (!(v >= -0x1p63 && v < 0x1p63)) { /* past int64 (or NaN): no integer literal */
      if (!w->unspellable)
        w->unspellable = graph_fmt(
            w->gr,
            "a constant it needs has no literal in %s (a NaN with a payload, or out of range)",
            wc_dtype_name(t));
      v = 0;
    }
    bits[0] = (uint64_t)(int64_t)v;
    break;
  }
  if (ast_dtype_class_of(t) == AST_CLASS_UINT && v < 0) bits[0] = 0;
  return lit_bits(w, t, bits);
}

/* An expression of a float attribute: its value widened exactly for double, as given
   for the other dtypes (lit_num). */
static ex *lit_attr(spec_writer *w, wc_dtype t, float a) { return lit_num(w, t, a); }

static ex *fn1(spec_writer *w, const char *fn, wc_dtype t, ex *a) {
  return call(w, fn, t, 1, a, NULL, NULL);
}

/* Gelu's approximate="tanh", ONNX's function body (Gelu-20) step by step in x's dtype,
   each step correctly rounded: its float constants 2/pi = 0.63661977236f and 0.044715f
   cast to the dtype (CastLike), sqrt(2/pi) a Sqrt in the dtype, then
   (0.5 * x) * (1 + tanh(sqrt(2/pi) * (x + 0.044715 * pow(x, 3)))). x1, x2, x3: the
   three reads of x. */
static ex *gelu_tanh(spec_writer *w, wc_dtype t, ex *x1, ex *x2, ex *x3) {
  float  two_over_pi = 0.63661977236f, c0 = 0.044715f;
  double c = t == WC_FLOAT16    ? (double)wc_f16_to_f32(wc_f32_to_f16(two_over_pi))
             : t == WC_BFLOAT16 ? (double)wc_bf16_to_f32(wc_f32_to_bf16(two_over_pi))
                                : (double)two_over_pi;
  ex    *cube = call(w, "pow", t, 2, x1, lit_num(w, t, 3.0), NULL);
  ex    *inner = bin(w, "+", t, x2, bin(w, "*", t, lit_num(w, t, c0), cube));
  /* sqrt of the dtype's 2/pi, correctly rounded in the dtype: sqrt in double, then one
     rounding to the dtype's p bits (53 >= 2p + 2: no double rounding), exact in float */
  double s = t == WC_FLOAT16    ? wc_cr_round_p_(sqrt(c), 11, -14)
             : t == WC_BFLOAT16 ? wc_cr_round_p_(sqrt(c), 8, -126)
                                : (double)(float)sqrt(c);
  ex    *arg = bin(w, "*", t, lit_num(w, t, s), inner);
  ex    *phi = bin(w, "+", t, lit_num(w, t, 1.0), fn1(w, "tanh", t, arg));
  return bin(w, "*", t, bin(w, "*", t, lit_num(w, t, 0.5), x3), phi);
}

/* Mod-28's fmod=0 on floats, numpy's np.mod: r = fmod(a, b) (exact), moved by b when
   it is non-zero against b's sign (one rounding, as A - floor(A / B) * B; b infinite
   gives b), a zero result with b's sign; NaNs stay NaN:
   where(r != 0, where((r < 0) != (b < 0), r + b, r), where(b < 0, -0.0, 0.0)).
   a appears 4 times, b 7 (copies_of in fusion.c). */
static ex *floor_mod(spec_writer *w, int region, const int *in, wc_dtype t) {
  uint64_t zero[2] = {0, 0}, neg_zero[2] = {0, 0};
  neg_zero[0] = t == WC_DOUBLE ? 0x8000000000000000ull : t == WC_FLOAT ? 0x80000000u : 0x8000u;
#define R_ call(w, "fmod", t, 2, build(w, region, in[0]), build(w, region, in[1]), NULL)
#define B_NEG_ bin(w, "<", WC_BOOL, build(w, region, in[1]), lit_bits(w, t, zero))
  ex *moved = sel(w, bin(w, "!=", WC_BOOL, bin(w, "<", WC_BOOL, R_, lit_bits(w, t, zero)), B_NEG_),
                  bin(w, "+", t, R_, build(w, region, in[1])), R_);
  ex *signed_zero = sel(w, B_NEG_, lit_bits(w, t, neg_zero), lit_bits(w, t, zero));
  return sel(w, bin(w, "!=", WC_BOOL, R_, lit_bits(w, t, zero)), moved, signed_zero);
#undef R_
#undef B_NEG_
}

/* The expression of node i (in region). Each form is ONNX's definition computed in the
   tensor's dtype (float16 and bfloat16 one operation at a time in float, rounded, by
   the spec's rule), in the order of onnxruntime's kernel where ONNX leaves a choice:
   the operand is returned as it is (-0.0, NaN) unless a comparison that NaN fails
   says otherwise. */
static ex *emit_node(spec_writer *w, int region, int i) {
  const graph_node  *ni = &w->gr->nodes[i];
  const fusion_node *fn = &w->f->nodes[i];
  const int         *in = ni->in;
  int                nin = ni->n->n_inputs;
  ex                *x = build(w, region, in[0]);
  wc_dtype           t = x->dtype;
  uint64_t           zero[2] = {0, 0};
  ast_dtype_class    cls = ast_dtype_class_of(t);
#define X_ build(w, region, in[0]) /* another copy of the first operand */
  switch (ni->kind) {
  case IMPORT_CMP:
  case IMPORT_LOGIC: /* on bool, a != b is xor, and names each operand once */
    return bin(w, ni->op->spell, WC_BOOL, x, build(w, region, in[1]));
  case IMPORT_ARITH: return bin(w, ni->op->spell, t, x, build(w, region, in[1]));
  case IMPORT_MOD:
    if (fn->flag == MOD_FLOOR_FLOAT) return floor_mod(w, region, in, t);
    return fn->flag ? call(w, "fmod", t, 2, x, build(w, region, in[1]), NULL)
                    : bin(w, "%", t, x, build(w, region, in[1]));
  case IMPORT_BITSHIFT: return bin(w, fn->flag ? "<<" : ">>", t, x, build(w, region, in[1]));
  case IMPORT_NOT:
  case IMPORT_UNARY: return mk(w, EX_UNARY, t, ni->op->spell, 1, x, NULL, NULL);
  case IMPORT_FUNC: return fn1(w, ni->op->spell, t, x);
  case IMPORT_RECIP: return bin(w, "/", t, lit_num(w, t, 1.0), x); /* np.reciprocal */
  case IMPORT_SOFTSIGN:                                            /* x / (1 + |x|) */
    return bin(w, "/", t, x, bin(w, "+", t, lit_num(w, t, 1.0), fn1(w, "abs", t, X_)));
  case IMPORT_ISNAN: return bin(w, "!=", WC_BOOL, x, X_);
  case IMPORT_ISINF: { /* by detect_negative (1) and detect_positive (2) */
    uint64_t inf[2] = {0, 0}, ninf[2] = {0, 0};
    float    pf = INFINITY, nf = -INFINITY;
    inf[0] = t == WC_DOUBLE     ? 0x7ff0000000000000ull
             : t == WC_FLOAT16  ? wc_f32_to_f16(pf)
             : t == WC_BFLOAT16 ? wc_f32_to_bf16(pf)
                                : wc_f32_to_bits(pf);
    ninf[0] = t == WC_DOUBLE     ? 0xfff0000000000000ull
              : t == WC_FLOAT16  ? wc_f32_to_f16(nf)
              : t == WC_BFLOAT16 ? wc_f32_to_bf16(nf)
                                 : wc_f32_to_bits(nf);
    if (fn->flag == 3) return bin(w, "==", WC_BOOL, fn1(w, "abs", t, x), lit_bits(w, t, inf));
    if (fn->flag == 2) return bin(w, "==", WC_BOOL, x, lit_bits(w, t, inf));
    if (fn->flag == 1) return bin(w, "==", WC_BOOL, x, lit_bits(w, t, ninf));
    /* neither: false everywhere, still of x's shape */
    return bin(w, "&&", WC_BOOL, bin(w, "==", WC_BOOL, x, lit_bits(w, t, inf)),
               bin(w, "==", WC_BOOL, X_, lit_bits(w, t, ninf)));
  }
  case IMPORT_MINMAX: /* folded from the left, as onnxruntime */
    for (int k = 1; k < nin; k++)
      x = call(w, ni->op->spell, t, 2, x, build(w, region, in[k]), NULL);
    return x;
  case IMPORT_RELU: /* Relu(-0.0) = -0.0 and Relu(NaN) = NaN, as onnxruntime */
    return sel(w, bin(w, "<", WC_BOOL, x, lit_bits(w, t, zero)), lit_bits(w, t, zero), X_);
  case IMPORT_LEAKY: {
    ex *scaled;
    if (t == WC_DOUBLE) { /* the float attribute, widened exactly */
      scaled = bin(w, "*", t, X_, lit_num(w, t, fn->alpha));
    } else { /* float; float16 / bfloat16 compute in float, as onnxruntime */
      ex *xf = X_;
      if (t != WC_FLOAT) xf = call(w, "float", WC_FLOAT, 1, xf, NULL, NULL);
      scaled = bin(w, "*", WC_FLOAT, xf, lit_num(w, WC_FLOAT, fn->alpha));
      if (t != WC_FLOAT) scaled = call(w, wc_dtype_name(t), t, 1, scaled, NULL, NULL);
    }
    return sel(w, bin(w, "<", WC_BOOL, x, lit_bits(w, t, zero)), scaled, X_);
  }
  case IMPORT_PRELU: /* x < 0 ? x * slope : x; the slope broadcasts to x */
    return sel(w, bin(w, "<", WC_BOOL, x, lit_bits(w, t, zero)),
               bin(w, "*", t, X_, chan(w, region, in[1], fn->pad)), X_); /* PRelu-6: per channel */
  case IMPORT_THRELU: /* x > alpha ? x : 0 */
    return sel(w, bin(w, ">", WC_BOOL, x, lit_attr(w, t, fn->alpha)), X_, lit_bits(w, t, zero));
  case IMPORT_SHRINK: { /* x < -lambd ? x + bias : x > lambd ? x - bias : 0 */
    ex *upper = sel(w, bin(w, ">", WC_BOOL, X_, lit_attr(w, t, fn->lambd)),
                    bin(w, "-", t, X_, lit_attr(w, t, fn->bias)), lit_bits(w, t, zero));
    if (cls == AST_CLASS_UINT && fn->lambd >= 0) return upper; /* x < -lambd never holds */
    return sel(w, bin(w, "<", WC_BOOL, x, lit_num(w, t, -(double)fn->lambd)),
               bin(w, "+", t, X_, lit_attr(w, t, fn->bias)), upper);
  }
  case IMPORT_SIGN: { /* 1, -1, else x == 0 ? 0 : x (NaN stays NaN; -0.0 gives 0.0, as numpy) */
    ex *rest = lit_bits(w, t, zero);
    if (cls == AST_CLASS_REAL || cls == AST_CLASS_HALF)
      rest = sel(w, bin(w, "==", WC_BOOL, X_, lit_bits(w, t, zero)), rest, X_);
    if (cls != AST_CLASS_UINT)
      rest = sel(w, bin(w, "<", WC_BOOL, X_, lit_bits(w, t, zero)), lit_num(w, t, -1.0), rest);
    return sel(w, bin(w, ">", WC_BOOL, x, lit_bits(w, t, zero)), lit_num(w, t, 1.0), rest);
  }
  case IMPORT_HSIGMOID: /* max(0, min(1, alpha * x + beta)): no fused multiply-add */
    return call(
        w, "max", t, 2, lit_bits(w, t, zero),
        call(w, "min", t, 2, lit_num(w, t, 1.0),
             bin(w, "+", t, bin(w, "*", t, lit_attr(w, t, fn->alpha), x), lit_attr(w, t, fn->beta)),
             NULL),
        NULL);
  case IMPORT_HSWISH: /* x * max(0, min(1, alpha * x + beta)), alpha = 1/6, beta = 0.5 */
    return bin(
        w, "*", t, x,
        call(w, "max", t, 2, lit_bits(w, t, zero),
             call(w, "min", t, 2, lit_num(w, t, 1.0),
                  bin(w, "+", t, bin(w, "*", t, lit_num(w, t, 1.0 / 6.0), X_), lit_num(w, t, 0.5)),
                  NULL),
             NULL));
  case IMPORT_ELU: /* x < 0 ? alpha * (exp(x) - 1) : x */
    return sel(w, bin(w, "<", WC_BOOL, x, lit_bits(w, t, zero)),
               bin(w, "*", t, lit_attr(w, t, fn->alpha),
                   bin(w, "-", t, fn1(w, "exp", t, X_), lit_num(w, t, 1.0))),
               X_);
  case IMPORT_SELU: /* x > 0 ? gamma * x : (exp(x) - 1) * alpha * gamma, in the order (and so
                   with the roundings) of ONNX's reference, not the algebra of its formula */
    return sel(w, bin(w, ">", WC_BOOL, x, lit_bits(w, t, zero)),
               bin(w, "*", t, lit_attr(w, t, fn->gamma), X_),
               bin(w, "*", t,
                   bin(w, "*", t, bin(w, "-", t, fn1(w, "exp", t, X_), lit_num(w, t, 1.0)),
                       lit_attr(w, t, fn->alpha)),
                   lit_attr(w, t, fn->gamma)));
  case IMPORT_CELU: /* max(0, x) + min(0, alpha * (exp(x / alpha) - 1)) */
    return bin(
        w, "+", t, call(w, "max", t, 2, lit_bits(w, t, zero), x, NULL),
        call(w, "min", t, 2, lit_bits(w, t, zero),
             bin(w, "*", t, lit_attr(w, t, fn->alpha),
                 bin(w, "-", t, fn1(w, "exp", t, bin(w, "/", t, X_, lit_attr(w, t, fn->alpha))),
                     lit_num(w, t, 1.0))),
             NULL));
  case IMPORT_CLIP: {
    /* min(max(x, lo), hi) as onnxruntime computes it: x < lo ? lo : x, then
       > hi ? hi : that; absent float bounds are the dtype's lowest and max */
    ex      *lo = NULL, *hi = NULL;
    uint64_t lb[2], hb[2];
    float_limits(t, lb, hb);
    if (fn->has_lo) { /* Clip-6 attributes, as numpy converts them to the dtype */
      lo = lit_num(w, t, fn->lo);
      hi = lit_num(w, t, fn->hi);
    }
    if (nin > 1 && in[1] >= 0) lo = build(w, region, in[1]);
    else if (!lo && (cls == AST_CLASS_REAL || cls == AST_CLASS_HALF)) lo = lit_bits(w, t, lb);
    if (nin > 2 && in[2] >= 0) hi = build(w, region, in[2]);
    else if (!hi && (cls == AST_CLASS_REAL || cls == AST_CLASS_HALF)) hi = lit_bits(w, t, hb);
    if (lo == NULL && hi == NULL) return x;
    if (hi == NULL) return sel(w, bin(w, "<", WC_BOOL, x, lo), lo, X_);
    ex *upper = sel(w, bin(w, ">", WC_BOOL, X_, hi), hi, X_);
    if (lo == NULL) return upper;
    ex *low = lo;
    if (lo->kind == EX_LIT && hi->kind == EX_LIT) {
      /* both fixed: decide lo > hi now (then everything below lo becomes hi) */
      if (lit_greater(t, lo->text, hi->text)) low = lit(w, t, hi->text);
    } else {
      low = sel(w, bin(w, ">", WC_BOOL, lo, hi), hi, lo);
    }
    return sel(w, bin(w, "<", WC_BOOL, x, lo), low, upper);
  }
  case IMPORT_CAST:
  case IMPORT_CASTLIKE:
    return fn->cast_to == t ? x
                            : call(w, wc_dtype_name(fn->cast_to), fn->cast_to, 1, x, NULL, NULL);
  case IMPORT_IDENTITY: return x;
  case IMPORT_WHERE: return sel(w, x, build(w, region, in[1]), build(w, region, in[2]));
  case IMPORT_NONZERO: return call(w, "nonzero", WC_INT64, 1, x, NULL, NULL);
  case IMPORT_DROPOUT: return x; /* inference: the identity */
  case IMPORT_SOFTPLUS: /* log(exp(x) + 1): ONNX's function body (inf from exp(x) > max) */
    return fn1(w, "log", t, bin(w, "+", t, fn1(w, "exp", t, x), lit_num(w, t, 1.0)));
  case IMPORT_MISH: /* x * tanh(log(exp(x) + 1)) */
    return bin(w, "*", t, x,
               fn1(w, "tanh", t,
                   fn1(w, "log", t, bin(w, "+", t, fn1(w, "exp", t, X_), lit_num(w, t, 1.0)))));
  case IMPORT_GELU:
    if (fn->flag) /* tanh: ONNX's function body, in its order and with its float constants */
      return gelu_tanh(w, t, x, X_, X_);
    /* (0.5 * x) * (erf(x / sqrt(2)) + 1), sqrt(2) rounded to the dtype */
    return bin(w, "*", t, bin(w, "*", t, lit_num(w, t, 0.5), x),
               bin(w, "+", t, fn1(w, "erf", t, bin(w, "/", t, X_, lit_num(w, t, sqrt(2.0)))),
                   lit_num(w, t, 1.0)));
  case IMPORT_SUM:
  case IMPORT_MEAN: /* folded from the left, as ONNX's reference and onnxruntime; Mean divides
                       the sum by the count */
    for (int k = 1; k < nin; k++) x = bin(w, "+", t, x, build(w, region, in[k]));
    return ni->kind == IMPORT_MEAN ? bin(w, "/", t, x, lit_num(w, t, (double)nin)) : x;
  case IMPORT_POW: { /* pow(x, y), or the constant exponents computed exactly (fusion.c) */
    double e = fn->expo;
    if (fn->flag) { /* y converted to x's dtype first (a Cast), pow correctly rounded */
      ex *y;
      if (fusion_operands(w->gr, ni) < 2) y = lit_num(w, t, e);
      else {
        y = build(w, region, in[1]);
        if (y->dtype != t) y = call(w, wc_dtype_name(t), t, 1, y, NULL, NULL);
      }
      return call(w, "pow", t, 2, x, y, NULL);
    }
    if (e == 0) /* 1, also for NaN; x's shape */
      return sel(w, bin(w, "==", WC_BOOL, x, X_), lit_num(w, t, 1.0), lit_num(w, t, 1.0));
    if (cls == AST_CLASS_REAL || cls == AST_CLASS_HALF) {
      uint64_t inf[2] = {0, 0}, ninf[2] = {0, 0};
      inf[0] = t == WC_DOUBLE     ? 0x7ff0000000000000ull
               : t == WC_FLOAT16  ? 0x7c00u
               : t == WC_BFLOAT16 ? 0x7f80u
                                  : 0x7f800000u;
      ninf[0] = inf[0] | (uint64_t)1 << (dtype_bits(t) - 1);
      if (e == 2) return bin(w, "*", t, x, X_);    /* x * x is x^2 correctly rounded */
      if (e == 1) return bin(w, "*", t, x, lit_num(w, t, 1.0)); /* a NaN comes out quiet */
      if (e == -1) return bin(w, "/", t, lit_num(w, t, 1.0), x);
      /* e == 0.5: sqrt, but pow(-0, 0.5) is +0 and pow(-inf, 0.5) is +inf */
      return sel(w, bin(w, "==", WC_BOOL, x, lit_bits(w, t, ninf)), lit_bits(w, t, inf),
                 bin(w, "+", t, fn1(w, "sqrt", t, X_), lit_bits(w, t, zero)));
    }
    if (e < 0) /* 1 / x^-e truncated: 1 for 1, +-1 for -1, 0 otherwise (also for 0) */
      return sel(w, bin(w, "==", WC_BOOL, x, lit_num(w, t, 1.0)), lit_num(w, t, 1.0),
                 sel(w, bin(w, "==", WC_BOOL, X_, lit_num(w, t, -1.0)),
                     lit_num(w, t, fmod(e, 2.0) != 0 ? -1.0 : 1.0), lit_bits(w, t, zero)));
    for (int k = 1; k < (int)e; k++) x = bin(w, "*", t, x, X_); /* wraps, as numpy */
    return x;
  }
  case IMPORT_BATCHNORM: { /* scale * (x - mean) / sqrt(var + epsilon) + B, in that order */
    int p = fn->pad;
    ex *num =
        bin(w, "*", t, chan(w, region, in[1], p), bin(w, "-", t, x, chan(w, region, in[3], p)));
    ex *den =
        fn1(w, "sqrt", t, bin(w, "+", t, chan(w, region, in[4], p), lit_attr(w, t, fn->epsilon)));
    return bin(w, "+", t, bin(w, "/", t, num, den), chan(w, region, in[2], p));
  }
  case IMPORT_QUANTIZE: { /* saturate(round(x / scale) + zero_point): the sum in double (exact
                             below 2^53), the cast saturates (and takes NaN to 0) */
    ex *r;
    if (t == WC_INT32) /* x / scale in double, as numpy promotes int32 / float32 */
      r = fn1(w, "round", WC_DOUBLE,
              bin(w, "/", WC_DOUBLE, call(w, "double", WC_DOUBLE, 1, x, NULL, NULL),
                  call(w, "double", WC_DOUBLE, 1, chan(w, region, in[1], fn->pad), NULL, NULL)));
    else r = fn1(w, "round", t, bin(w, "/", t, x, chan(w, region, in[1], fn->pad)));
    if (nin > 2 && in[2] >= 0)
      r = bin(w, "+", WC_DOUBLE,
              r->dtype == WC_DOUBLE ? r : call(w, "double", WC_DOUBLE, 1, r, NULL, NULL),
              call(w, "double", WC_DOUBLE, 1, chan(w, region, in[2], fn->pad), NULL, NULL));
    return call(w, wc_dtype_name(fn->cast_to), fn->cast_to, 1, r, NULL, NULL);
  }
  case IMPORT_DEQUANTIZE: { /* (float(x) - float(zero_point)) * scale, in float; rounded
                               once to a float16 or bfloat16 scale's dtype */
    wc_dtype st = w->gr->vals[in[1]].dtype;
    ex      *d = call(w, "float", WC_FLOAT, 1, x, NULL, NULL);
    if (nin > 2 && in[2] >= 0)
      d = bin(w, "-", WC_FLOAT, d,
              call(w, "float", WC_FLOAT, 1, chan(w, region, in[2], fn->pad), NULL, NULL));
    ex *sc = chan(w, region, in[1], fn->pad);
    if (st != WC_FLOAT) sc = call(w, "float", WC_FLOAT, 1, sc, NULL, NULL);
    d = bin(w, "*", WC_FLOAT, d, sc);
    return st == WC_FLOAT ? d : call(w, wc_dtype_name(st), st, 1, d, NULL, NULL);
  }
  default: return x;
  }
#undef X_
}

/* The expression for value v inside region: its producer's if that is in the
   region, else the leaf (parameter or literal). */
static ex *build(spec_writer *w, int region, int v) {
  const graph_value *val = &w->gr->vals[v];
  if (computed_in(w, region, v) && w->let_mark[v] == w->stamp) /* a let: by its name */
    return mk(w, EX_PARAM, val->dtype, w->let_name[v], 0, NULL, NULL, NULL);
  if (computed_in(w, region, v)) return emit_node(w, region, val->producer);
  int l = w->leaf[v];
  if (w->leaf_name[l]) {
    if (w->leaf_pad[l] < 0) w->leaf_pad[l] = w->cur_pad;
    else if (w->leaf_pad[l] != w->cur_pad && !w->unspellable)
      w->unspellable = graph_fmt(w->gr,
                                 "'%.200s' is read both per channel and as it is, and a "
                                 "parameter has one shape",
                                 val->name);
    return mk(w, EX_PARAM, val->dtype, w->leaf_name[l], 0, NULL, NULL, NULL);
  }
  return lit(w, w->leaf_dtype[l], w->leaf_lit[l]);
}

static void print_ex(diag_text *t, const ex *e, bool nested) {
  switch (e->kind) {
  case EX_PARAM: diag_text_printf(t, "%s", e->text); break;
  case EX_LIT:
    if (e->typed) diag_text_printf(t, "%s(%s)", wc_dtype_name(e->dtype), e->text);
    else if (e->text[0] == '-' && nested) diag_text_printf(t, "(%s)", e->text);
    else diag_text_printf(t, "%s", e->text);
    break;
  case EX_UNARY:
    diag_text_printf(t, "%s", e->text);
    print_ex(t, e->arg[0], true);
    break;
  case EX_BINARY:
    if (nested) diag_text_printf(t, "(");
    print_ex(t, e->arg[0], true);
    diag_text_printf(t, " %s ", e->text);
    print_ex(t, e->arg[1], true);
    if (nested) diag_text_printf(t, ")");
    break;
  case EX_CALL:
    diag_text_printf(t, "%s(", e->text);
    for (int i = 0; i < e->n; i++) {
      if (i) diag_text_printf(t, ", ");
      print_ex(t, e->arg[i], false);
    }
    diag_text_printf(t, ")");
    break;
  }
}

/* Does e name `name` (a let's, by pointer) / any parameter or let (EX_PARAM)? */
static bool ex_names(const ex *e, const char *name) {
  if (e->kind == EX_PARAM) return name == NULL || e->text == name;
  for (int i = 0; i < e->n; i++)
    if (ex_names(e->arg[i], name)) return true;
  return false;
}

/* ---- kernels ------------------------------------------------------------------------ */

/* The leaves of region (values it reads but does not compute), first appearance order. */
static void collect_leaves(spec_writer *w, int region, int v) {
  if (w->mark[v] == w->stamp) return;
  w->mark[v] = w->stamp;
  if (computed_in(w, region, v)) {
    const graph_node *ni = &w->gr->nodes[w->gr->vals[v].producer];
    for (int k = 0; k < fusion_operands(w->gr, ni); k++)
      if (ni->in[k] >= 0) collect_leaves(w, region, ni->in[k]);
    return;
  }
  w->leaf[v] = w->n_leaves;
  w->leaves[w->n_leaves++] = v;
}

/* Leaves in parameter order: graph inputs in graph order, then the rest in order of appearance. */
static void sort_leaves(spec_writer *w) {
  for (int i = 1; i < w->n_leaves; i++) { /* insertion sort: stable, few leaves */
    int v = w->leaves[i], j = i;
    int key = w->gr->vals[v].input >= 0 ? w->gr->vals[v].input : INT32_MAX;
    while (j > 0) {
      int u = w->leaves[j - 1];
      int ku = w->gr->vals[u].input >= 0 ? w->gr->vals[u].input : INT32_MAX;
      if (ku <= key) break;
      w->leaves[j] = u;
      j--;
    }
    w->leaves[j] = v;
  }
  for (int i = 0; i < w->n_leaves; i++) w->leaf[w->leaves[i]] = i;
}

static void print_shape(diag_text *t, const ast_shape *s, const char **ext_names) {
  diag_text_printf(t, "[");
  for (int d = 0; d < s->rank; d++) {
    if (d) diag_text_printf(t, ",");
    if (s->dims[d] >= 0) diag_text_printf(t, "%lld", (long long)s->dims[d]);
    else diag_text_printf(t, "%s", ext_names[-s->dims[d] - 1]);
  }
  diag_text_printf(t, "]");
}

/* The leaves of region r in parameter order (graph inputs first, in graph order). An
   input the region does not read is no parameter: it would widen the broadcast shape
   of a kernel that ignores it. */
static void find_leaves(spec_writer *w, int r) {
  const import_graph *gr = w->gr;
  w->stamp++;
  w->n_leaves = 0;
  collect_leaves(w, r, gr->nodes[w->f->regions[r].root].out);
  sort_leaves(w);
}

void spec_write_init(spec_writer *w, const import_graph *gr, const fusion *f) {
  size_t n = (size_t)gr->n_vals;
  memset(w, 0, sizeof *w);
  w->gr = gr;
  w->f = f;
  w->mark = graph_alloc(gr, n, sizeof *w->mark);
  w->leaf = graph_alloc(gr, n, sizeof *w->leaf);
  for (size_t v = 0; v < n; v++) w->leaf[v] = -1;
  w->leaves = graph_alloc(gr, n, sizeof *w->leaves);
  w->leaf_name = graph_alloc(gr, n, sizeof *w->leaf_name);
  w->leaf_lit = graph_alloc(gr, n, sizeof *w->leaf_lit);
  w->leaf_dtype = graph_alloc(gr, n, sizeof *w->leaf_dtype);
  w->leaf_pad = graph_alloc(gr, n, sizeof *w->leaf_pad);
  w->let_mark = graph_alloc(gr, n, sizeof *w->let_mark);
  w->let_name = graph_alloc(gr, n, sizeof *w->let_name);
  w->leaf_baked = graph_alloc(gr, n, sizeof *w->leaf_baked);
  w->bake_limit = 65536; /* IMPORT_BAKE_LIMIT */
  w->const_seq = &w->own_seq;
}

/* The values of constant v as a `const` statement's list ("1.5, -0.0, ..."), when v
   is at most bake_limit bytes of bool, integers or floats and every element has an
   exact literal; else NULL (it stays a parameter). */
static const char *bake_values(spec_writer *w, const graph_value *v) {
  wc_tensor       t;
  char           *strings = NULL, err[256], text[80];
  diag_text       out = {0};
  ast_dtype_class c = ast_dtype_class_of(v->dtype);
  int64_t         n = 1;
  size_t          size = wc_dtype_size(v->dtype);
  bool            ok = true;
  if (w->bake_limit <= 0 || !v->constant || c == AST_CLASS_COMPLEX || c == AST_CLASS_STRING ||
      c == AST_CLASS_NONE || size == 0)
    return NULL;
  for (int d = 0; d < v->shape.rank; d++) {
    if (v->shape.dims[d] < 0) return NULL;
    if (v->shape.dims[d] > 0 && n > w->bake_limit / v->shape.dims[d]) return NULL;
    n *= v->shape.dims[d];
  }
  if (n * (int64_t)size > w->bake_limit) return NULL;
  if (!onnx_tensor_to_wc(v->constant, &t, &strings, err, sizeof err)) return NULL;
  for (int64_t i = 0; i < n && ok; i++) {
    uint64_t bits[2] = {0, 0};
    memcpy(&bits[0], (const char *)t.data + (size_t)i * size, size); /* zero-extended */
    ok = spec_literal_text(v->dtype, bits, text, sizeof text);
    if (ok) diag_text_printf(&out, "%s%s", i == 0 ? "" : i % 8 == 0 ? ",\n  " : ", ", text);
  }
  free(t.data);
  free(strings);
  if (out.truncated) {
    diag_text_free(&out);
    longjmp(*w->gr->a->oom, 1);
  }
  const char *s = ok ? arena_strdup(w->gr->a, out.data ? out.data : "") : NULL;
  diag_text_free(&out);
  return s;
}

const char *spec_write_kernel(spec_writer *w, int r, const char *const *kernel_names, int n_kernels,
                              const char **name, diag_text *stmt) {
  const import_graph  *gr = w->gr;
  const fusion_region *rg = &w->f->regions[r];
  const graph_node    *root = &gr->nodes[rg->root];
  bool                 whole = fusion_whole_graph(w->f, gr, r); /* named after the graph */
  find_leaves(w, r);

  /* literals: one-element constants whose rank the others' covers */
  int max_rank = 0;
  for (int l = 0; l < w->n_leaves; l++) {
    const graph_value *v = &gr->vals[w->leaves[l]];
    w->leaf_lit[l] = NULL;
    w->leaf_name[l] = NULL;
    w->leaf_baked[l] = false;
    w->leaf_dtype[l] = v->dtype;
    w->leaf_pad[l] = -1;
    if (!v->shaped) return graph_fmt(gr, "input '%.200s' has a dynamic shape", v->name);
    if (v->dtype == 0) return graph_fmt(gr, "input '%.200s' has an unknown dtype", v->name);
    uint64_t bits[2];
    char     text[80];
    if (v->constant && onnx_tensor_scalar(v->constant, bits, NULL, 0) &&
        spec_literal_text(v->dtype, bits, text, sizeof text))
      w->leaf_lit[l] = arena_strdup(gr->a, text);
    else if (v->shape.rank > max_rank) max_rank = v->shape.rank;
  }
  int          n_params = 0, n_own = 0; /* names taken; parameters that are no constant */
  const char **leaf_values = graph_alloc(gr, (size_t)w->n_leaves + 1, sizeof *leaf_values);
  int n_lets = 0;
  for (int k = 0; k < gr->g->n_nodes; k++) {
    int i = gr->order[k];
    n_lets += i != rg->root && w->f->nodes[i].region == r && w->f->nodes[i].let;
  }
  const char **taken =
      graph_alloc(gr, (size_t)w->n_leaves + (size_t)gr->n_syms + (size_t)n_lets + 2, sizeof *taken);
  for (int l = 0; l < w->n_leaves; l++) {
    const graph_value *v = &gr->vals[w->leaves[l]];
    if (w->leaf_lit[l] && v->shape.rank <= max_rank) continue;
    w->leaf_lit[l] = NULL;
    w->leaf_baked[l] = false;
    leaf_values[l] = v->constant ? bake_values(w, v) : NULL;
    if (leaf_values[l]) { /* a constant of the spec, named apart from every other one */
      w->leaf_baked[l] = true;
      w->leaf_name[l] = ident(w, graph_fmt(gr, "%s_c%d", v->name, ++*w->const_seq), taken, n_params);
      taken[n_params++] = w->leaf_name[l];
      fprintf(gr->log, "wherec: note: %s reads the constant '%s'; it is baked in as '%s'\n",
              graph_node_label(gr, rg->root), v->name, w->leaf_name[l]);
      continue;
    }
    w->leaf_name[l] = ident(w, v->name, taken, n_params);
    taken[n_params++] = w->leaf_name[l];
    n_own++;
    if (v->constant)
      fprintf(gr->log, "wherec: note: %s reads the constant '%s'; it becomes parameter '%s'\n",
              graph_node_label(gr, rg->root), v->name, w->leaf_name[l]);
  }
  if (n_own == 0) return "all its inputs are constants";
  /* symbolic extents: named after the dim_params, distinct from the parameters */
  const char **ext_names = graph_alloc(gr, (size_t)gr->n_syms + 1, sizeof *ext_names);
  for (int s = 0; s < gr->n_syms; s++) {
    ext_names[s] = ident(w, gr->syms[s], taken, n_params + s);
    taken[n_params + s] = ext_names[s];
  }

  /* lets (values several nodes of the region read), in graph order, then the output */
  int         n_taken = n_params + gr->n_syms;
  const char *out_name = NULL;
  int        *lets = graph_alloc(gr, (size_t)n_lets, sizeof *lets);
  ex        **let_ex = graph_alloc(gr, (size_t)n_lets, sizeof *let_ex);
  n_lets = 0;
  for (int k = 0; k < gr->g->n_nodes; k++) {
    int i = gr->order[k];
    if (i == rg->root || w->f->nodes[i].region != r || !w->f->nodes[i].let) continue;
    int v = gr->nodes[i].out;
    lets[n_lets++] = i;
    w->let_name[v] = ident(w, gr->vals[v].name, taken, n_taken);
    taken[n_taken++] = w->let_name[v];
    w->let_mark[v] = w->stamp;
  }
  if (n_lets) out_name = ident(w, gr->vals[root->out].name, taken, n_taken);
  w->ext_names = ext_names;
  w->unspellable = NULL;
  for (int k = 0; k < n_lets; k++) { /* a let of literals only is inlined (the spec wants
                                         a let to read a parameter) */
    let_ex[k] = emit_node(w, r, lets[k]);
    if (!ex_names(let_ex[k], NULL)) w->let_mark[gr->nodes[lets[k]].out] = 0;
  }
  ex *e = emit_node(w, r, rg->root);
  if (w->unspellable) return w->unspellable;
  /* keep the lets something reads (a form may drop an operand: Pow by 0), outputs back */
  bool *keep = graph_alloc(gr, (size_t)n_lets, sizeof *keep);
  for (int k = n_lets - 1; k >= 0; k--) {
    int v = gr->nodes[lets[k]].out;
    if (w->let_mark[v] != w->stamp) continue;
    keep[k] = ex_names(e, w->let_name[v]);
    for (int j = k + 1; j < n_lets && !keep[k]; j++)
      keep[k] = keep[j] && ex_names(let_ex[j], w->let_name[v]);
  }
  int n_kept = 0;
  for (int k = 0; k < n_lets; k++)
    if (keep[k]) lets[n_kept] = lets[k], let_ex[n_kept++] = let_ex[k];
  n_lets = n_kept;
  w->out_name = n_lets ? out_name : NULL;
  const char *base = whole && gr->g->name[0] ? gr->g->name : gr->vals[root->out].name;
  *name = kernel_ident(w, base, kernel_names, n_kernels);
  for (int l = 0; l < w->n_leaves; l++) { /* its constants, each with the 1s it is read with */
    const graph_value *v = &gr->vals[w->leaves[l]];
    if (!w->leaf_baked[l]) continue;
    ast_shape shape = v->shape;
    for (int d = 0; d < w->leaf_pad[l] && shape.rank < WC_MAX_RANK; d++)
      shape.dims[shape.rank++] = 1;
    diag_text_printf(stmt, "const %s: %s", w->leaf_name[l], wc_dtype_name(v->dtype));
    print_shape(stmt, &shape, ext_names);
    diag_text_printf(stmt, " = {%s%s};\n", strchr(leaf_values[l], '\n') ? "\n  " : "",
                     leaf_values[l]);
  }
  diag_text_printf(stmt, "kernel %s(", *name);
  for (int l = 0, k = 0; l < w->n_leaves; l++) {
    const graph_value *v = &gr->vals[w->leaves[l]];
    if (!w->leaf_name[l] || w->leaf_baked[l]) continue;
    diag_text_printf(stmt, "%s%s: %s", k++ ? ", " : "", w->leaf_name[l], wc_dtype_name(v->dtype));
    ast_shape shape = v->shape; /* with the 1s of a per-channel parameter */
    for (int d = 0; d < w->leaf_pad[l] && shape.rank < WC_MAX_RANK; d++)
      shape.dims[shape.rank++] = 1;
    print_shape(stmt, &shape, ext_names);
  }
  if (n_lets == 0) {
    diag_text_printf(stmt, ") = ");
    print_ex(stmt, e, false);
    diag_text_printf(stmt, ";\n");
  } else {
    diag_text_printf(stmt, ") -> (%s) {\n", out_name);
    for (int k = 0; k < n_lets; k++) {
      diag_text_printf(stmt, "  let %s = ", w->let_name[gr->nodes[lets[k]].out]);
      print_ex(stmt, let_ex[k], false);
      diag_text_printf(stmt, ";\n");
    }
    diag_text_printf(stmt, "  %s = ", out_name);
    print_ex(stmt, e, false);
    diag_text_printf(stmt, ";\n}\n");
  }
  if (stmt->truncated) {
    diag_text_free(stmt);
    longjmp(*gr->a->oom, 1);
  }
  return NULL;
}

void spec_write_comment(const spec_writer *w, int r, diag_text *t) {
  const import_graph *gr = w->gr;
  int                 root = w->f->regions[r].root;
  diag_text_printf(t, "# %s = %s", comment_text(gr, gr->vals[gr->nodes[root].out].name),
                   comment_text(gr, graph_node_label(gr, root)));
  for (int k = gr->g->n_nodes - 1; k >= 0; k--) {
    int i = gr->order[k];
    if (i != root && w->f->nodes[i].region == r)
      diag_text_printf(t, ", %s", comment_text(gr, graph_node_label(gr, i)));
  }
  diag_text_printf(t, "\n");
}

void spec_write_header(const import_graph *gr, const char *model_name, diag_text *t) {
  diag_text_printf(t,
                   "# Imported by wherec import from %s (graph '%s', opset %lld).\n"
                   "# One kernel per maximal element-wise region (the nodes after the kernel's "
                   "name).\n",
                   comment_text(gr, model_name), comment_text(gr, gr->g->name),
                   (long long)gr->opset);
}
