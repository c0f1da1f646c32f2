/* forms.c: each operator's expression: the formulas of ops.h read by a small parser, and the
   builders of the forms that depend on a dtype or an attribute's value. Each form is ONNX's
   definition computed in the tensor's dtype (float16 and bfloat16 one operation at a time in
   float, rounded, by the spec's rule), in the order of onnxruntime's kernel where ONNX leaves
   a choice: the operand is returned as it is (-0.0, NaN) unless a comparison that NaN fails
   says otherwise. */
#include "import/forms.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <wherec/exp.h>

ex *form_in(form *f, int k) {
  f->reads[k]++;
  return f->read(f, k, 0);
}

ex *form_in_chan(form *f, int k, int pad) {
  f->reads[k]++;
  return f->read(f, k, pad);
}

/* Is input k given (an optional one may be absent or empty)? */
static bool given(const form *f, int k) { return k < f->ni->n->n_inputs && f->ni->in[k] >= 0; }

static int n_inputs(const form *f) { return f->ni->n->n_inputs; }

/* ---- formulas ------------------------------------------------------------------------- */

typedef struct parser {
  form       *f;
  const char *p;
  const char *why; /* the first error */
} parser;

static const struct {
  const char *op;
  int         prec;
  bool        gives_bool;
} binaries[] = {/* longest first, so that && is not read as & */
                {"||", 1, true},  {"&&", 2, true}, {"==", 6, true},  {"!=", 6, true},
                {"<=", 7, true},  {">=", 7, true}, {"<<", 8, false}, {">>", 8, false},
                {"|", 3, false},  {"^", 4, false}, {"&", 5, false},  {"<", 7, true},
                {">", 7, true},   {"+", 9, false}, {"-", 9, false},  {"*", 10, false},
                {"/", 10, false}, {"%", 10, false}};

static void skip_space(parser *ps) {
  while (*ps->p == ' ') ps->p++;
}

static ex *fail(parser *ps, const char *why) {
  if (!ps->why)
    ps->why = graph_fmt(ps->f->gr, "formula of %s: %s at '%s'", ps->f->ni->n->op_type, why, ps->p);
  return ex_lit(ps->f->x, ps->f->t, "0");
}

static bool is_ident(char c) {
  return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

static ex *parse_expr(parser *ps, int min_prec);

/* The value of float or integer attribute a of the node, as a double. */
static double attr_value(const form *f, const op_attr *a) {
  const onnx_attr *v = graph_attr(f->ni->n, a->name);
  if (a->type == 'f') return v && v->has_f ? (double)v->f : (double)(float)a->num;
  return v && v->has_i ? (double)v->i : a->num;
}

static ex *parse_call(parser *ps, const char *name) {
  ex *args[3] = {NULL, NULL, NULL};
  int n = 0;
  ps->p++; /* ( */
  skip_space(ps);
  while (*ps->p != ')') {
    if (n == 3) return fail(ps, "more than 3 arguments");
    args[n++] = parse_expr(ps, 1);
    skip_space(ps);
    if (*ps->p == ',') ps->p++;
    else if (*ps->p != ')') return fail(ps, "expected , or )");
    skip_space(ps);
  }
  ps->p++;
  if (n == 0) return fail(ps, "a call without arguments");
  ex_ctx *x = ps->f->x;
  if (strcmp(name, "where") == 0 && n == 3) return ex_sel(x, args[0], args[1], args[2]);
  wc_dtype t = strcmp(name, "nonzero") == 0 ? WC_INT64 : args[0]->dtype;
  return ex_call(x, name, t, n, args[0], args[1], args[2]);
}

static ex *parse_primary(parser *ps) {
  form *f = ps->f;
  skip_space(ps);
  const char *s = ps->p;
  if (*s == '(') {
    ps->p++;
    ex *e = parse_expr(ps, 1);
    skip_space(ps);
    if (*ps->p != ')') return fail(ps, "expected )");
    ps->p++;
    return e;
  }
  if ((*s >= '0' && *s <= '9') || *s == '.') {
    char  *end;
    double v = strtod(s, &end);
    ps->p = end;
    return ex_lit_num(f->x, f->t, v);
  }
  if (!is_ident(*s)) return fail(ps, "expected an operand");
  while (is_ident(*ps->p)) ps->p++;
  size_t len = (size_t)(ps->p - s);
  if (*ps->p == '(') return parse_call(ps, arena_strndup(f->gr->a, s, len));
  int k = op_input_index(f->ni->op, s, len);
  if (k >= 0) return form_in(f, k);
  const op_attr *a = op_attr_find(f->ni->op, s, len);
  if (a && a->type != 's') return ex_lit_num(f->x, f->t, attr_value(f, a));
  return fail(ps, "no input or number attribute of that name");
}

static ex *parse_unary(parser *ps) {
  skip_space(ps);
  char c = *ps->p;
  if (c != '-' && c != '!' && c != '~') return parse_primary(ps);
  ps->p++;
  skip_space(ps);
  ex *e = parse_unary(ps);
  if (c == '-' && e->kind == EX_LIT) /* a negative number or attribute: one literal */
    return ex_lit_num(ps->f->x, e->dtype, -strtod(e->text, NULL));
  return ex_unary(ps->f->x, c == '-' ? "-" : c == '!' ? "!" : "~", e->dtype, e);
}

static ex *parse_expr(parser *ps, int min_prec) {
  ex *lhs = parse_unary(ps);
  for (;;) {
    skip_space(ps);
    size_t k = 0, n = sizeof binaries / sizeof *binaries;
    while (k < n && strncmp(ps->p, binaries[k].op, strlen(binaries[k].op)) != 0) k++;
    if (k == n || binaries[k].prec < min_prec) return lhs;
    ps->p += strlen(binaries[k].op);
    ex *rhs = parse_expr(ps, binaries[k].prec + 1);
    lhs = ex_bin(ps->f->x, binaries[k].op, binaries[k].gives_bool ? WC_BOOL : lhs->dtype, lhs, rhs);
  }
}

ex *form_formula(form *f, const char *text, const char **why) {
  parser ps = {f, text, NULL};
  ex    *e = parse_expr(&ps, 1);
  skip_space(&ps);
  if (*ps.p && !ps.why) fail(&ps, "unexpected text");
  *why = ps.why;
  return e;
}

ex *form_node(form *f) {
  const op_row *op = f->ni->op;
  if (op->build) return op->build(f);
  const char *why = NULL;
  ex         *e = form_formula(f, op->formula, &why);
  if (why && !f->x->unspellable) f->x->unspellable = why;
  return e;
}

/* ---- builders -------------------------------------------------------------------------- */

static ex *zero(form *f) { return ex_lit_num(f->x, f->t, 0.0); }

/* Mod-28's fmod=0 on floats, numpy's np.mod: r = fmod(a, b) (exact), moved by b when it is
   non-zero against b's sign (one rounding, as A - floor(A / B) * B; b infinite gives b), a
   zero result with b's sign; NaNs stay NaN:
   where(r != 0, where((r < 0) != (b < 0), r + b, r), where(b < 0, -0.0, 0.0)). */
static ex *floor_mod(form *f) {
  ex_ctx  *x = f->x;
  wc_dtype t = f->t;
  uint64_t neg_zero[2] = {0, 0};
  neg_zero[0] = t == WC_DOUBLE ? 0x8000000000000000ull : t == WC_FLOAT ? 0x80000000u : 0x8000u;
#define R_     ex_call(x, "fmod", t, 2, form_in(f, 0), form_in(f, 1), NULL)
#define B_NEG_ ex_bin(x, "<", WC_BOOL, form_in(f, 1), zero(f))
  ex *moved = ex_sel(x, ex_bin(x, "!=", WC_BOOL, ex_bin(x, "<", WC_BOOL, R_, zero(f)), B_NEG_),
                     ex_bin(x, "+", t, R_, form_in(f, 1)), R_);
  ex *signed_zero = ex_sel(x, B_NEG_, ex_lit_bits(x, t, neg_zero), zero(f));
  return ex_sel(x, ex_bin(x, "!=", WC_BOOL, R_, zero(f)), moved, signed_zero);
#undef R_
#undef B_NEG_
}

/* % on integers (fmod=0), fmod (fmod=1), or numpy's floor modulo on floats (fmod=0, Mod-28). */
ex *form_mod(form *f) {
  if (f->at->Mod.fmod == 0 && graph_floating(f->t)) return floor_mod(f);
  ex *a = form_in(f, 0), *b = form_in(f, 1);
  return f->at->Mod.fmod ? ex_call(f->x, "fmod", f->t, 2, a, b, NULL)
                         : ex_bin(f->x, "%", f->t, a, b);
}

ex *form_bitshift(form *f) {
  bool left = strcmp(f->at->BitShift.direction, "LEFT") == 0;
  return ex_bin(f->x, left ? "<<" : ">>", f->t, form_in(f, 0), form_in(f, 1));
}

/* By detect_negative and detect_positive; neither: false everywhere, still of X's shape. */
ex *form_isinf(form *f) {
  ex_ctx  *x = f->x;
  uint64_t inf[2], ninf[2];
  ex_float_inf(f->t, false, inf);
  ex_float_inf(f->t, true, ninf);
  bool neg = f->at->IsInf.detect_negative != 0, pos = f->at->IsInf.detect_positive != 0;
  if (neg && pos)
    return ex_bin(x, "==", WC_BOOL, ex_fn1(x, "abs", f->t, form_in(f, 0)),
                  ex_lit_bits(x, f->t, inf));
  if (pos) return ex_bin(x, "==", WC_BOOL, form_in(f, 0), ex_lit_bits(x, f->t, inf));
  if (neg) return ex_bin(x, "==", WC_BOOL, form_in(f, 0), ex_lit_bits(x, f->t, ninf));
  return ex_bin(x, "&&", WC_BOOL,
                ex_bin(x, "==", WC_BOOL, form_in(f, 0), ex_lit_bits(x, f->t, inf)),
                ex_bin(x, "==", WC_BOOL, form_in(f, 0), ex_lit_bits(x, f->t, ninf)));
}

/* A variadic operator folded from the left, as ONNX's reference and onnxruntime. */
static ex *fold(form *f, const char *op, bool call) {
  ex *e = form_in(f, 0);
  for (int k = 1; k < n_inputs(f); k++)
    e = call ? ex_call(f->x, op, f->t, 2, e, form_in(f, k), NULL)
             : ex_bin(f->x, op, f->t, e, form_in(f, k));
  return e;
}

ex *form_min(form *f) { return fold(f, "min", true); }
ex *form_max(form *f) { return fold(f, "max", true); }
ex *form_sum(form *f) { return fold(f, "+", false); }

/* The Sum, then / the count. */
ex *form_mean(form *f) {
  return ex_bin(f->x, "/", f->t, fold(f, "+", false), ex_lit_num(f->x, f->t, (double)n_inputs(f)));
}

/* x < 0 ? x * alpha : x; float16 and bfloat16 multiply in float, as onnxruntime; double by
   the float attribute widened exactly. */
ex *form_leaky_relu(form *f) {
  ex_ctx  *x = f->x;
  wc_dtype t = f->t;
  ex      *scaled;
  if (t == WC_DOUBLE) {
    scaled = ex_bin(x, "*", t, form_in(f, 0), ex_lit_num(x, t, f->at->LeakyRelu.alpha));
  } else {
    ex *xf = ex_convert(x, WC_FLOAT, form_in(f, 0));
    scaled = ex_convert(
        x, t, ex_bin(x, "*", WC_FLOAT, xf, ex_lit_num(x, WC_FLOAT, f->at->LeakyRelu.alpha)));
  }
  return ex_sel(x, ex_bin(x, "<", WC_BOOL, form_in(f, 0), zero(f)), scaled, form_in(f, 0));
}

/* x < 0 ? x * slope : x; the slope broadcasts to x (PRelu-6: per channel). */
ex *form_prelu(form *f) {
  ex_ctx *x = f->x;
  return ex_sel(x, ex_bin(x, "<", WC_BOOL, form_in(f, 0), zero(f)),
                ex_bin(x, "*", f->t, form_in(f, 0), form_in_chan(f, 1, f->fn->pad)), form_in(f, 0));
}

/* min(max(x, lo), hi) as onnxruntime computes it: x < lo ? lo : x, then > hi ? hi : that;
   absent float bounds are the dtype's lowest and max; Clip-6's are float attributes, as numpy
   converts them to the dtype. */
ex *form_clip(form *f) {
  ex_ctx         *x = f->x;
  wc_dtype        t = f->t;
  ast_dtype_class cls = ast_dtype_class_of(t);
  ex             *lo = NULL, *hi = NULL;
  uint64_t        lb[2], hb[2];
  ex_float_limits(t, lb, hb);
  if (f->gr->opset > 0 && f->gr->opset < 11) {
    lo = ex_lit_num(x, t, f->at->Clip.min);
    hi = ex_lit_num(x, t, f->at->Clip.max);
  }
  if (given(f, 1)) lo = form_in(f, 1);
  else if (!lo && (cls == AST_CLASS_REAL || cls == AST_CLASS_HALF)) lo = ex_lit_bits(x, t, lb);
  if (given(f, 2)) hi = form_in(f, 2);
  else if (!hi && (cls == AST_CLASS_REAL || cls == AST_CLASS_HALF)) hi = ex_lit_bits(x, t, hb);
  if (lo == NULL && hi == NULL) return form_in(f, 0);
  if (hi == NULL) return ex_sel(x, ex_bin(x, "<", WC_BOOL, form_in(f, 0), lo), lo, form_in(f, 0));
  ex *upper = ex_sel(x, ex_bin(x, ">", WC_BOOL, form_in(f, 0), hi), hi, form_in(f, 0));
  if (lo == NULL) return upper;
  ex *low = lo;
  if (lo->kind == EX_LIT && hi->kind == EX_LIT) {
    /* both fixed: decide lo > hi now (then everything below lo becomes hi) */
    if (ex_lit_greater(t, lo->text, hi->text)) low = ex_lit(x, t, hi->text);
  } else {
    low = ex_sel(x, ex_bin(x, ">", WC_BOOL, lo, hi), hi, lo);
  }
  return ex_sel(x, ex_bin(x, "<", WC_BOOL, form_in(f, 0), lo), low, upper);
}

/* x < -lambd ? x + bias : x > lambd ? x - bias : 0 */
ex *form_shrink(form *f) {
  ex_ctx  *x = f->x;
  wc_dtype t = f->t;
  float    lambd = f->at->Shrink.lambd, bias = f->at->Shrink.bias;
  ex      *upper = ex_sel(x, ex_bin(x, ">", WC_BOOL, form_in(f, 0), ex_lit_num(x, t, lambd)),
                          ex_bin(x, "-", t, form_in(f, 0), ex_lit_num(x, t, bias)), zero(f));
  if (ast_dtype_class_of(t) == AST_CLASS_UINT && lambd >= 0) return upper; /* never below -lambd */
  return ex_sel(x, ex_bin(x, "<", WC_BOOL, form_in(f, 0), ex_lit_num(x, t, -(double)lambd)),
                ex_bin(x, "+", t, form_in(f, 0), ex_lit_num(x, t, bias)), upper);
}

/* 1, -1, else x == 0 ? 0 : x (NaN stays NaN; -0.0 gives 0.0, as numpy). */
ex *form_sign(form *f) {
  ex_ctx         *x = f->x;
  ast_dtype_class cls = ast_dtype_class_of(f->t);
  ex             *rest = zero(f);
  if (cls == AST_CLASS_REAL || cls == AST_CLASS_HALF)
    rest = ex_sel(x, ex_bin(x, "==", WC_BOOL, form_in(f, 0), zero(f)), rest, form_in(f, 0));
  if (cls != AST_CLASS_UINT)
    rest = ex_sel(x, ex_bin(x, "<", WC_BOOL, form_in(f, 0), zero(f)), ex_lit_num(x, f->t, -1.0),
                  rest);
  return ex_sel(x, ex_bin(x, ">", WC_BOOL, form_in(f, 0), zero(f)), ex_lit_num(x, f->t, 1.0), rest);
}

/* ---- activations: correctly rounded, or ONNX's formulas (--literal-activations) ---------- */

/* ONNX's formulas for the activations: under --literal-activations (set on the model's
   graph; a sub-graph's is the outer one's) and on double, which has no correctly rounded
   activations (the formula is taken or refused as the functions it calls are defined on
   double: Softsign's are, Softplus's exp is not). */
static bool literal_activations(const form *f) {
  return graph_literal_activations(f->gr) || f->t == WC_DOUBLE;
}

/* The form of formula text exact, or of literal where literal_activations. */
static ex *exact_or_literal(form *f, const char *exact, const char *literal) {
  const char *why = NULL;
  ex         *e = form_formula(f, literal_activations(f) ? literal : exact, &why);
  if (why && !f->x->unspellable) f->x->unspellable = why;
  return e;
}

/* Softplus: log(1 + e^x) rounded once, where ONNX's body log(exp(x) + 1) rounds three
   times, overflows above 88.7 and gives 0 below -17 (float). */
ex *form_softplus(form *f) { return exact_or_literal(f, "softplus(X)", "log(exp(X) + 1)"); }

/* Softsign: x / (1 + |x|) rounded once (ONNX's formula rounds twice). */
ex *form_softsign(form *f) {
  return exact_or_literal(f, "softsign(input)", "input / (1 + abs(input))");
}

/* Mish: x tanh(softplus(x)) rounded once (ONNX's body rounds four times). */
ex *form_mish(form *f) { return exact_or_literal(f, "mish(X)", "X * tanh(log(exp(X) + 1))"); }

/* Elu, Selu, Celu: e^x - 1 by expm1 (one rounding, no cancellation near 0), then ONNX's
   scalings in its order. Rounded once as wholes: Elu with alpha 1 (1 * y is y), Celu with
   alpha 1 (x / 1 and 1 * y are exact, and max(0, x) + min(0, y) adds a zero to x or y),
   and Selu with ONNX's default alpha and gamma, the floats the model holds, which is
   selu(x) (activations.h; bench/crmath.where: selu_cr_k against selu_k). */
ex *form_elu(form *f) {
  return exact_or_literal(f, "where(X < 0, alpha * expm1(X), X)",
                          "where(X < 0, alpha * (exp(X) - 1), X)");
}
ex *form_selu(form *f) {
  if (f->at->Selu.alpha == 1.67326319217681884765625f &&
      f->at->Selu.gamma == 1.05070102214813232421875f)
    return exact_or_literal(f, "selu(X)",
                            "where(X > 0, gamma * X, ((exp(X) - 1) * alpha) * gamma)");
  return exact_or_literal(f, "where(X > 0, gamma * X, (expm1(X) * alpha) * gamma)",
                          "where(X > 0, gamma * X, ((exp(X) - 1) * alpha) * gamma)");
}
ex *form_celu(form *f) {
  return exact_or_literal(f, "max(0, X) + min(0, alpha * expm1(X / alpha))",
                          "max(0, X) + min(0, alpha * (exp(X / alpha) - 1))");
}

/* Cast and CastLike: the spec's conversion to the dtype the check found. */
ex *form_cast(form *f) { return ex_convert(f->x, f->fn->cast_to, form_in(f, 0)); }

/* gelu(x) = x Phi(x) (approximate="none") and gelu_tanh(x) (approximate="tanh", the function
   with exact constants), each rounded once; their kernels are faster than ONNX's formulas
   (bench/crmath.where: gelu_cr_k, gelu_tanh_k). Under --literal-activations and on double,
   ONNX's formulas: (0.5 * x) * (erf(x / sqrt(2)) + 1), sqrt(2) rounded to the dtype; and the
   function body (Gelu-20) step by step in x's dtype, each step correctly rounded: its float
   constants 2/pi = 0.63661977236f and 0.044715f cast to the dtype (CastLike), sqrt(2/pi) a
   Sqrt in the dtype, then (0.5 * x) * (1 + tanh(sqrt(2/pi) * (x + 0.044715 * pow(x, 3)))). */
ex *form_gelu(form *f) {
  ex_ctx  *x = f->x;
  wc_dtype t = f->t;
  bool     tanh_form = strcmp(f->at->Gelu.approximate, "tanh") == 0;
  if (!literal_activations(f)) return ex_fn1(x, tanh_form ? "gelu_tanh" : "gelu", t, form_in(f, 0));
  if (!tanh_form)
    return ex_bin(
        x, "*", t, ex_bin(x, "*", t, ex_lit_num(x, t, 0.5), form_in(f, 0)),
        ex_bin(x, "+", t,
               ex_fn1(x, "erf", t, ex_bin(x, "/", t, form_in(f, 0), ex_lit_num(x, t, sqrt(2.0)))),
               ex_lit_num(x, t, 1.0)));
  float  two_over_pi = 0.63661977236f, c0 = 0.044715f;
  double c = t == WC_FLOAT16    ? (double)wc_f16_to_f32(wc_f32_to_f16(two_over_pi))
             : t == WC_BFLOAT16 ? (double)wc_bf16_to_f32(wc_f32_to_bf16(two_over_pi))
                                : (double)two_over_pi;
  ex    *cube = ex_call(x, "pow", t, 2, form_in(f, 0), ex_lit_num(x, t, 3.0), NULL);
  ex    *inner = ex_bin(x, "+", t, form_in(f, 0), ex_bin(x, "*", t, ex_lit_num(x, t, c0), cube));
  /* sqrt of the dtype's 2/pi, correctly rounded in the dtype: sqrt in double, then one
     rounding to the dtype's p bits (53 >= 2p + 2: no double rounding), exact in float */
  double s = t == WC_FLOAT16    ? wc_cr_round_p_(sqrt(c), 11, -14)
             : t == WC_BFLOAT16 ? wc_cr_round_p_(sqrt(c), 8, -126)
                                : (double)(float)sqrt(c);
  ex    *arg = ex_bin(x, "*", t, ex_lit_num(x, t, s), inner);
  ex    *phi = ex_bin(x, "+", t, ex_lit_num(x, t, 1.0), ex_fn1(x, "tanh", t, arg));
  return ex_bin(x, "*", t, ex_bin(x, "*", t, ex_lit_num(x, t, 0.5), form_in(f, 0)), phi);
}

/* pow(x, y) correctly rounded (y converted to x's dtype first, as a Cast), or a constant
   exponent computed exactly: 2, 1, 0, -1 and 0.5 on floats, whole ones up to 4 on integers
   (the check refused the rest). */
ex *form_pow(form *f) {
  ex_ctx         *x = f->x;
  wc_dtype        t = f->t;
  ast_dtype_class cls = ast_dtype_class_of(t);
  double          e = 0;
  bool            cst = graph_const_scalar(&f->gr->vals[f->ni->in[1]], &e);
  bool            real = cls == AST_CLASS_REAL || cls == AST_CLASS_HALF;
  if (real && !(cst && (e == 2 || e == 1 || e == 0 || e == -1 || e == 0.5)))
    return ex_call(x, "pow", t, 2, form_in(f, 0),
                   cst ? ex_lit_num(x, t, e) : ex_convert(x, t, form_in(f, 1)), NULL);
  if (e == 0) /* 1, also for NaN; x's shape */
    return ex_sel(x, ex_bin(x, "==", WC_BOOL, form_in(f, 0), form_in(f, 0)), ex_lit_num(x, t, 1.0),
                  ex_lit_num(x, t, 1.0));
  if (real) {
    uint64_t inf[2], ninf[2];
    ex_float_inf(t, false, inf);
    ex_float_inf(t, true, ninf);
    if (e == 2) return ex_bin(x, "*", t, form_in(f, 0), form_in(f, 0)); /* x^2 correctly rounded */
    if (e == 1) return ex_bin(x, "*", t, form_in(f, 0), ex_lit_num(x, t, 1.0)); /* NaN made quiet */
    if (e == -1) return ex_bin(x, "/", t, ex_lit_num(x, t, 1.0), form_in(f, 0));
    /* e == 0.5: sqrt, but pow(-0, 0.5) is +0 and pow(-inf, 0.5) is +inf */
    return ex_sel(x, ex_bin(x, "==", WC_BOOL, form_in(f, 0), ex_lit_bits(x, t, ninf)),
                  ex_lit_bits(x, t, inf),
                  ex_bin(x, "+", t, ex_fn1(x, "sqrt", t, form_in(f, 0)), zero(f)));
  }
  if (e < 0) /* 1 / x^-e truncated: 1 for 1, +-1 for -1, 0 otherwise (also for 0) */
    return ex_sel(x, ex_bin(x, "==", WC_BOOL, form_in(f, 0), ex_lit_num(x, t, 1.0)),
                  ex_lit_num(x, t, 1.0),
                  ex_sel(x, ex_bin(x, "==", WC_BOOL, form_in(f, 0), ex_lit_num(x, t, -1.0)),
                         ex_lit_num(x, t, fmod(e, 2.0) != 0 ? -1.0 : 1.0), zero(f)));
  ex *p = form_in(f, 0);
  for (int k = 1; k < (int)e; k++) p = ex_bin(x, "*", t, p, form_in(f, 0)); /* wraps, as numpy */
  return p;
}

/* scale * (x - mean) / sqrt(var + epsilon) + B, in that order, each parameter per channel. */
ex *form_batchnorm(form *f) {
  ex_ctx  *x = f->x;
  wc_dtype t = f->t;
  int      p = f->fn->pad;
  ex      *num = ex_bin(x, "*", t, form_in_chan(f, 1, p),
                        ex_bin(x, "-", t, form_in(f, 0), form_in_chan(f, 3, p)));
  ex      *den = ex_fn1(x, "sqrt", t,
                        ex_bin(x, "+", t, form_in_chan(f, 4, p),
                               ex_lit_num(x, t, f->at->BatchNormalization.epsilon)));
  return ex_bin(x, "+", t, ex_bin(x, "/", t, num, den), form_in_chan(f, 2, p));
}

/* saturate(round(x / scale) + zero_point): the sum in double (exact below 2^53), the cast
   saturates (and takes NaN to 0). int32 x is divided in double, as numpy promotes
   int32 / float32. */
ex *form_quantize(form *f) {
  ex_ctx *x = f->x;
  int     p = f->fn->pad;
  ex     *r;
  if (f->t == WC_INT32)
    r = ex_fn1(x, "round", WC_DOUBLE,
               ex_bin(x, "/", WC_DOUBLE, ex_convert(x, WC_DOUBLE, form_in(f, 0)),
                      ex_convert(x, WC_DOUBLE, form_in_chan(f, 1, p))));
  else r = ex_fn1(x, "round", f->t, ex_bin(x, "/", f->t, form_in(f, 0), form_in_chan(f, 1, p)));
  if (given(f, 2))
    r = ex_bin(x, "+", WC_DOUBLE, ex_convert(x, WC_DOUBLE, r),
               ex_convert(x, WC_DOUBLE, form_in_chan(f, 2, p)));
  return ex_call(x, wc_dtype_name(f->fn->cast_to), f->fn->cast_to, 1, r, NULL, NULL);
}

/* (float(x) - float(zero_point)) * scale, in float; rounded once to a float16 or bfloat16
   scale's dtype. */
ex *form_dequantize(form *f) {
  ex_ctx  *x = f->x;
  int      p = f->fn->pad;
  wc_dtype st = f->gr->vals[f->ni->in[1]].dtype;
  ex      *d = ex_call(x, "float", WC_FLOAT, 1, form_in(f, 0), NULL, NULL);
  if (given(f, 2))
    d = ex_bin(x, "-", WC_FLOAT, d,
               ex_call(x, "float", WC_FLOAT, 1, form_in_chan(f, 2, p), NULL, NULL));
  d = ex_bin(x, "*", WC_FLOAT, d, ex_convert(x, WC_FLOAT, form_in_chan(f, 1, p)));
  return ex_convert(x, st, d);
}

/* ---- row reductions (the checks: along the last axis) ---- */

/* exp(x - row_max(x)): softmax's numerator (a kernel computes it once, however often read). */
static ex *shifted_exp(form *f) {
  ex_ctx *x = f->x;
  return ex_fn1(x, "exp", f->t,
                ex_bin(x, "-", f->t, form_in(f, 0), ex_fn1(x, "row_max", f->t, form_in(f, 0))));
}

ex *form_softmax(form *f) {
  return ex_bin(f->x, "/", f->t, shifted_exp(f), ex_fn1(f->x, "row_sum", f->t, shifted_exp(f)));
}

/* x - max - log(sum(exp(x - max))) */
ex *form_log_softmax(form *f) {
  ex_ctx *x = f->x;
  wc_dtype t = f->t;
  ex *d = ex_bin(x, "-", t, form_in(f, 0), ex_fn1(x, "row_max", t, form_in(f, 0)));
  return ex_bin(x, "-", t, d, ex_fn1(x, "log", t, ex_fn1(x, "row_sum", t, shifted_exp(f))));
}

/* The dtype a norm computes in: stash_type 1 is float (float16 and bfloat16 widen to it;
   float and double stay as they are). */
static wc_dtype stash(const form *f) {
  return f->t == WC_FLOAT16 || f->t == WC_BFLOAT16 ? WC_FLOAT : f->t;
}

/* X - row_mean(X), in dtype s (a fresh tree per read). */
static ex *centered(form *f, wc_dtype s) {
  ex_ctx *x = f->x;
  return ex_bin(x, "-", s, ex_convert(x, s, form_in(f, 0)),
                ex_fn1(x, "row_mean", s, ex_convert(x, s, form_in(f, 0))));
}

/* v * (1 / sqrt(mean + epsilon)) * scale, in dtype s, converted back to the node's
   dtype: ONNX's function bodies multiply by the reciprocal (InvStdDev), once per row. */
static ex *normalized(form *f, wc_dtype s, ex *v, ex *mean, float eps) {
  ex_ctx *x = f->x;
  ex     *inv = ex_bin(x, "/", s, ex_lit_num(x, s, 1.0),
                       ex_fn1(x, "sqrt", s, ex_bin(x, "+", s, mean, ex_lit_num(x, s, eps))));
  ex *y = ex_bin(x, "*", s, v, inv);
  y = ex_bin(x, "*", s, y, ex_convert(x, s, form_in(f, 1)));
  if (given(f, 2)) y = ex_bin(x, "+", s, y, ex_convert(x, s, form_in(f, 2)));
  return ex_convert(x, f->t, y);
}

/* LayerNormalization: d = X - mean(X), Y = d * (1 / sqrt(mean(d * d) + epsilon)) * Scale + B,
   in the stash dtype; the variance in a second pass (not mean(X^2) - mean(X)^2, which
   cancels), as ONNX's function body. */
ex *form_layer_norm(form *f) {
  wc_dtype s = stash(f);
  ex      *var = ex_fn1(f->x, "row_mean", s, ex_bin(f->x, "*", s, centered(f, s), centered(f, s)));
  return normalized(f, s, centered(f, s), var, f->at->LayerNormalization.epsilon);
}

/* RMSNormalization: X * (1 / sqrt(mean(X * X) + epsilon)) * scale, in the stash dtype. */
ex *form_rms_norm(form *f) {
  ex_ctx  *x = f->x;
  wc_dtype s = stash(f);
  ex      *sq = ex_bin(x, "*", s, ex_convert(x, s, form_in(f, 0)), ex_convert(x, s, form_in(f, 0)));
  return normalized(f, s, ex_convert(x, s, form_in(f, 0)), ex_fn1(x, "row_mean", s, sq),
                    f->at->RMSNormalization.epsilon);
}

/* Reduce* along the last axis (keepdims: the value broadcasts back along the row). */
ex *form_reduce(form *f) {
  ex_ctx  *x = f->x;
  wc_dtype t = f->t;
  switch (f->ni->op->id) {
  case OP_ReduceSum: return ex_fn1(x, "row_sum", t, form_in(f, 0));
  case OP_ReduceMean: return ex_fn1(x, "row_mean", t, form_in(f, 0));
  case OP_ReduceMax: return ex_fn1(x, "row_max", t, form_in(f, 0));
  case OP_ReduceMin: return ex_fn1(x, "row_min", t, form_in(f, 0));
  case OP_ReduceSumSquare:
    return ex_fn1(x, "row_sum", t, ex_bin(x, "*", t, form_in(f, 0), form_in(f, 0)));
  case OP_ReduceL2:
    return ex_fn1(x, "sqrt", t, ex_fn1(x, "row_sum", t, ex_bin(x, "*", t, form_in(f, 0), form_in(f, 0))));
  default: { /* ReduceLogSumExp, shifted by the row's maximum m so that exp cannot overflow
                (by 0 when m is infinite: a row of -inf gives -inf, one holding inf inf) */
    ex *m[2];
    for (int i = 0; i < 2; i++) {
      uint64_t inf[2];
      ex_float_inf(t, false, inf);
      ex *max = ex_fn1(x, "row_max", t, form_in(f, 0));
      ex *finite = ex_bin(x, "<", WC_BOOL, ex_fn1(x, "abs", t, max), ex_lit_bits(x, t, inf));
      m[i] = ex_sel(x, finite, ex_fn1(x, "row_max", t, form_in(f, 0)), ex_lit_num(x, t, 0.0));
    }
    ex *sum = ex_fn1(x, "row_sum", t, ex_fn1(x, "exp", t, ex_bin(x, "-", t, form_in(f, 0), m[1])));
    return ex_bin(x, "+", t, m[0], ex_fn1(x, "log", t, sum));
  }
  }
}
