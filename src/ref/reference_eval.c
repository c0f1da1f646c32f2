/* reference_eval.c: the reference evaluator of kernel programs: one element
   at a time, the expression tree walked recursively, every operation written
   out here again (exact 128-bit integers, double arithmetic) so that it checks
   the interpreter and generated code rather than sharing their mistakes. */
#include <stdlib.h>
#include <string.h>

#include "reference.h"
#include "tensor.h"

__extension__ typedef __int128          ref_i128; /* exact integer results */
__extension__ typedef unsigned __int128 ref_u128; /* products of two 64-bit values */

/* One element's value: its bits in its dtype (strings: the pointer). */
typedef struct ref_val {
  uint64_t    bits[2]; /* low bytes first; complex: re, im */
  const char *str;     /* WC_STRING */
} ref_val;

static int ref_bits(wc_dtype t) { return (int)wc_dtype_size(t) * 8; }

static bool is_signed(wc_dtype t) {
  return t == WC_INT8 || t == WC_INT16 || t == WC_INT32 || t == WC_INT64;
}
static bool is_int(wc_dtype t) {
  return is_signed(t) || t == WC_UINT8 || t == WC_UINT16 || t == WC_UINT32 || t == WC_UINT64;
}
static bool is_float(wc_dtype t) {
  return t == WC_FLOAT || t == WC_DOUBLE || t == WC_FLOAT16 || t == WC_BFLOAT16;
}

/* Integer value of v: sign-extended for signed dtypes. */
static ref_i128 as_int(wc_dtype t, ref_val v) {
  int      n = ref_bits(t);
  uint64_t u = n == 64 ? v.bits[0] : v.bits[0] & ((1ull << n) - 1);
  if (is_signed(t) && n < 64 && (u >> (n - 1)) & 1) return (ref_i128)u - ((ref_i128)1 << n);
  if (is_signed(t) && n == 64) return (ref_i128)(int64_t)u;
  return (ref_i128)u;
}

/* x reduced modulo 2^bits into t's range. */
static ref_val from_int(wc_dtype t, ref_i128 x) {
  ref_val  v = {{0, 0}, NULL};
  int      n = ref_bits(t);
  ref_i128 m = (ref_i128)1 << n;
  x %= m;
  if (x < 0) x += m; /* now 0 <= x < 2^n: the bits */
  v.bits[0] = (uint64_t)x;
  return v;
}

static double as_double(wc_dtype t, ref_val v) {
  switch (t) {
  case WC_FLOAT: {
    float    f;
    uint32_t u = (uint32_t)v.bits[0];
    memcpy(&f, &u, 4);
    return f;
  }
  case WC_DOUBLE: {
    double d;
    memcpy(&d, &v.bits[0], 8);
    return d;
  }
  case WC_FLOAT16: return wc_f16_to_f32((uint16_t)v.bits[0]);
  case WC_BFLOAT16: return wc_bf16_to_f32((uint16_t)v.bits[0]);
  default: return 0;
  }
}

/* A float result rounded into t: double, or float, or through float to 16
   bits; a NaN result is quiet (README, Semantics, as wherec/ops.h pins it). */
static ref_val from_double(wc_dtype t, double d) {
  ref_val  v = {{0, 0}, NULL};
  float    f = (float)d;
  uint32_t u;
  uint64_t du;
  memcpy(&u, &f, 4);
  memcpy(&du, &d, 8);
  if (d != d) {
    u |= 1u << 22;
    du |= 1ull << 51;
  }
  f = wc_bits_to_f32(u);
  switch (t) {
  case WC_DOUBLE: v.bits[0] = du; break;
  case WC_FLOAT: v.bits[0] = u; break;
  case WC_FLOAT16: v.bits[0] = wc_f32_to_f16(f); break;
  case WC_BFLOAT16: v.bits[0] = wc_f32_to_bf16(f); break;
  default: break;
  }
  return v;
}

static bool ref_isnan(double d) { return d != d; }

static ref_val from_bool(bool b) {
  ref_val v = {{b ? 1u : 0u, 0}, NULL};
  return v;
}

/* Cast of v from dtype `from` to dtype `to` (README, Semantics, and wherec/ops.h's rules). */
static ref_val cast(wc_dtype to, wc_dtype from, ref_val v) {
  if (to == from) return v;
  if (to == WC_BOOL) {
    if (is_float(from)) return from_bool(as_double(from, v) != 0.0);
    return from_bool(as_int(from, v) != 0);
  }
  if (is_int(to)) {
    if (from == WC_BOOL) return from_int(to, v.bits[0] & 1);
    if (is_int(from)) return from_int(to, as_int(from, v));
    double   d = as_double(from, v); /* truncate, saturate, NaN -> 0 */
    int      n = ref_bits(to);
    ref_i128 lo = is_signed(to) ? -((ref_i128)1 << (n - 1)) : 0;
    ref_i128 hi = is_signed(to) ? ((ref_i128)1 << (n - 1)) - 1 : ((ref_i128)1 << n) - 1;
    if (ref_isnan(d)) return from_int(to, 0);
    if (d <= (double)lo) return from_int(to, lo);
    if (d >= (double)hi + 1.0 || d >= 18446744073709551616.0) return from_int(to, hi);
    return from_int(to, (ref_i128)d);
  }
  /* to a float type */
  if (from == WC_BOOL) return from_double(to, (double)(v.bits[0] & 1));
  if (is_int(from)) {
    ref_i128 x = as_int(from, v);
    if (to == WC_DOUBLE)
      return from_double(to, is_signed(from) ? (double)(int64_t)x : (double)(uint64_t)x);
    float f = is_signed(from) ? (float)(int64_t)x : (float)(uint64_t)x;
    return from_double(to, f);
  }
  double d = as_double(from, v);
  if (to == WC_DOUBLE) return from_double(to, d);
  return from_double(to, (float)d);
}

/* float or double bits of v (float16 / bfloat16 widened to float bits). */
static uint64_t float_bits(wc_dtype t, ref_val v) {
  if (t == WC_FLOAT16) return wc_f32_to_bits(wc_f16_to_f32((uint16_t)v.bits[0]));
  if (t == WC_BFLOAT16) return wc_f32_to_bits(wc_bf16_to_f32((uint16_t)v.bits[0]));
  return v.bits[0];
}

/* Back from float bits: a 16-bit type rounds (its NaN rule applies). */
static ref_val from_float_bits(wc_dtype t, uint64_t u) {
  ref_val v = {{u, 0}, NULL};
  if (t == WC_FLOAT16) v.bits[0] = wc_f32_to_f16(wc_bits_to_f32((uint32_t)u));
  if (t == WC_BFLOAT16) v.bits[0] = wc_f32_to_bf16(wc_bits_to_f32((uint32_t)u));
  return v;
}

/* The canonical quiet NaN of an invalid operation (README, Semantics). */
static ref_val canonical_nan(wc_dtype t) {
  ref_val v = {{0x7ff8000000000000u, 0}, NULL};
  return t == WC_DOUBLE ? v : from_float_bits(t, 0x7fc00000u);
}

static bool sign_of(double d) {
  uint64_t u;
  memcpy(&u, &d, 8);
  return (u >> 63) != 0;
}

/* |a| with a's sign applied to r (a zero keeps a's sign too). */
static double with_sign_of(double a, double r) { return sign_of(a) ? -r : r; }

/* fmod of finite a, b != 0, longhand: binary long division of |a| by |b|,
   subtracting |b| * 2^k from the largest k down (each subtraction exact:
   s <= r < 2s). */
static double ref_fmod(double a, double b) {
  double r = a < 0 ? -a : a, d = b < 0 ? -b : b, s = d;
  if (r < d) return a;
  while (s * 2 <= r) s *= 2; /* s * 2 overflowing to inf ends it too */
  for (;;) {
    if (r >= s) r -= s;
    if (s == d) break;
    s /= 2;
  }
  return with_sign_of(a, r);
}

/* trunc, floor, ceil and round half to even of a finite double through
   int64 (every |x| < 2^52 converts exactly); a zero result has x's sign. */
static double ref_integral(wc_opcode op, double x) {
  double t, f, r;
  if (!(x < 4503599627370496.0 && x > -4503599627370496.0)) return x; /* integral already */
  t = (double)(int64_t)x;
  f = x - t; /* exact */
  switch (op) {
  case WC_OP_FLOOR: r = f < 0 ? t - 1 : t; break;
  case WC_OP_CEIL: r = f > 0 ? t + 1 : t; break;
  case WC_OP_ROUND:
    if (f > 0.5 || (f == 0.5 && ((int64_t)t & 1))) r = t + 1;
    else if (f < -0.5 || (f == -0.5 && ((int64_t)t & 1))) r = t - 1;
    else r = t;
    break;
  default: r = t; break;
  }
  return r == 0 ? with_sign_of(x, 0.0) : r;
}

/* Correctly rounded sqrt of a finite x > 0 to p bits (53: double; 24: float),
   by the largest integer R with R*R <= N found by bisection in 128 bits,
   N = the significand of x shifted left so that R has p+2 or more bits. */
static double ref_sqrt(double x, int p) {
  uint64_t u, m;
  int      e, k, nb = 0, sh;
  memcpy(&u, &x, 8);
  e = (int)(u >> 52);
  m = u & ((UINT64_C(1) << 52) - 1);
  if (e) m |= UINT64_C(1) << 52;
  else e = 1;
  e -= 1075; /* x = m * 2^e */
  for (uint64_t v = m; v; v >>= 1) nb++;
  k = 2 * (p + 2) + 2 - nb;
  if ((e - k) % 2 != 0) k++;
  ref_u128 n = (ref_u128)m << k, lo = 0, hi = (ref_u128)1 << 60;
  while (lo < hi) {
    ref_u128 mid = (lo + hi + 1) / 2;
    if (mid * mid <= n) lo = mid;
    else hi = mid - 1;
  }
  bool     sticky = lo * lo != n;
  uint64_t r = (uint64_t)lo, low, half;
  nb = 0;
  for (uint64_t v = r; v; v >>= 1) nb++;
  sh = nb - p;
  low = r & ((UINT64_C(1) << sh) - 1);
  half = UINT64_C(1) << (sh - 1);
  r >>= sh;
  if (low > half || (low == half && (sticky || (r & 1)))) r++;
  double d = (double)r; /* r <= 2^p: exact */
  for (k = (e - k) / 2 + sh; k > 0; k--) d *= 2;
  for (; k < 0; k++) d /= 2; /* exact: the result is normal */
  return d;
}

/* neg, abs, min, max move or pick bits (IEEE sign operations and selections:
   no conversion that would quiet a signalling NaN); + - * / compute. */
static ref_val arith_float(wc_opcode op, wc_dtype t, ref_val va, ref_val vb) {
  double   a = as_double(t, va), b = as_double(t, vb), r = 0;
  uint64_t sign = t == WC_DOUBLE ? 1ull << 63 : 1ull << 31;
  switch (op) {
  case WC_OP_NEG: return from_float_bits(t, float_bits(t, va) ^ sign);
  case WC_OP_ABS: return from_float_bits(t, float_bits(t, va) & ~sign);
  case WC_OP_MIN:
    return from_float_bits(t, float_bits(t, ref_isnan(a)   ? va
                                            : ref_isnan(b) ? vb
                                                           : (a < b ? va : vb)));
  case WC_OP_MAX:
    return from_float_bits(t, float_bits(t, ref_isnan(a)   ? va
                                            : ref_isnan(b) ? vb
                                                           : (a > b ? va : vb)));
  default: break;
  }
  /* pow(x, +-0) and pow(1, y) are 1 even for a NaN (C's pow) */
  if (op == WC_OP_POW && (b == 0 || a == 1)) return from_double(t, 1.0);
  /* + - * / fmod exp pow with a NaN operand, or a NaN into a function of one:
     the first NaN, quieted (README, Semantics, via wherec/ops.h) */
  if (ref_isnan(a) || ref_isnan(b)) {
    uint64_t quiet = t == WC_DOUBLE ? 1ull << 51 : 1ull << 22;
    return from_float_bits(t, float_bits(t, ref_isnan(a) ? va : vb) | quiet);
  }
  if (wc_op_defined(op, WC_FLOAT) && !wc_op_defined(op, WC_DOUBLE)) {
    /* exp, log, ...: correctly rounded into t itself (float, float16, bfloat16) */
    if (op == WC_OP_POW) {
      double r = t == WC_FLOAT16    ? wc__ref_pow((float)a, (float)b, 11, -14, 15)
                 : t == WC_BFLOAT16 ? wc__ref_pow((float)a, (float)b, 8, -126, 127)
                                    : wc__ref_pow((float)a, (float)b, 24, -126, 127);
      return ref_isnan(r) ? canonical_nan(t) : from_double(t, r); /* negative ^ non-integer */
    }
    double r = t == WC_FLOAT16    ? wc__ref_crf(op, (float)a, 11, -14, 15)
               : t == WC_BFLOAT16 ? wc__ref_crf(op, (float)a, 8, -126, 127)
                                  : wc__ref_crf(op, (float)a, 24, -126, 127);
    return ref_isnan(r) ? canonical_nan(t) : from_double(t, r); /* log of a negative */
  }
  switch (op) {
  case WC_OP_ADD: r = a + b; break;
  case WC_OP_SUB: r = a - b; break;
  case WC_OP_MUL: r = a * b; break;
  case WC_OP_DIV: r = a / b; break;
  default: break;
  }
  /* inf - inf, 0 * inf, 0 / 0: the canonical NaN, not the CPU's default one */
  if (ref_isnan(r)) return canonical_nan(t);
  switch (op) {
  case WC_OP_FMOD:                                     /* exact: no rounding below */
    if (a - a != 0 || b == 0) return canonical_nan(t); /* a infinite, or b zero */
    if (b - b != 0) return va;                         /* b infinite */
    r = ref_fmod(a, b);
    break;
  case WC_OP_FLOOR:
  case WC_OP_CEIL:
  case WC_OP_ROUND:
  case WC_OP_TRUNC: r = ref_integral(op, a); break;
  case WC_OP_SQRT:
    if (a == 0 || a - a != 0) {
      if (a < 0) return canonical_nan(t); /* -inf */
      return va;                          /* +-0, +inf */
    }
    if (a < 0) return canonical_nan(t);
    r = ref_sqrt(a, t == WC_DOUBLE ? 53 : 24);
    break;
  default: break;
  }
  /* float: + - * / in double, rounded once, is the correctly rounded float
     result; fmod, floor .. trunc are exact and sqrt rounded already */
  return from_double(t, t == WC_DOUBLE ? r : (double)(float)r);
}

/* a << c and a >> c with the count c as a value (negative: out of range);
   counts outside [0, bits) give 0, or -1 for >> of a negative value. << by
   doubling c times modulo 2^bits; >> as the floor of a / 2^c. */
static ref_i128 ref_shift(wc_opcode op, wc_dtype t, ref_i128 a, ref_i128 c) {
  int n = ref_bits(t);
  if (c < 0 || c >= n) return op == WC_OP_SHR && a < 0 ? -1 : 0;
  if (op == WC_OP_SHL) {
    for (int i = 0; i < (int)c; i++) a = as_int(t, from_int(t, a * 2));
    return a;
  }
  ref_i128 d = (ref_i128)1 << c, q = a / d;
  return a % d != 0 && a < 0 ? q - 1 : q;
}

static ref_val arith_int(wc_opcode op, wc_dtype t, ref_val va, ref_val vb) {
  ref_i128 a = as_int(t, va), b = as_int(t, vb), r = 0;
  switch (op) {
  case WC_OP_FMOD: r = b == 0 ? 0 : a - b * (a / b); break; /* exact; the dividend's sign */
  case WC_OP_MOD: /* a - b * floor(a / b): the divisor's sign */
    if (b != 0) {
      ref_i128 q = a / b;
      if (q * b != a && (a < 0) != (b < 0)) q--;
      r = a - b * q;
    }
    break;
  case WC_OP_BAND: r = a & b; break; /* two's complement in 128 bits, reduced below */
  case WC_OP_BOR: r = a | b; break;
  case WC_OP_BXOR: r = a ^ b; break;
  case WC_OP_BNOT: r = -a - 1; break;
  case WC_OP_SHL:
  case WC_OP_SHR: r = ref_shift(op, t, a, b); break;
  case WC_OP_ADD: r = a + b; break;
  case WC_OP_SUB: r = a - b; break;
  case WC_OP_MUL:
    r = (ref_i128)(((ref_u128)a * (ref_u128)b) & UINT64_MAX);
    break;                                       /* mod 2^64 is enough */
  case WC_OP_DIV: r = b == 0 ? 0 : a / b; break; /* exact; INT_MIN/-1 wraps below */
  case WC_OP_NEG: r = -a; break;
  case WC_OP_ABS: r = a < 0 ? -a : a; break;
  case WC_OP_MIN: r = a < b ? a : b; break;
  case WC_OP_MAX: r = a > b ? a : b; break;
  default: break;
  }
  return from_int(t, r);
}

static bool compare(wc_opcode op, wc_dtype t, ref_val va, ref_val vb) {
  if (t == WC_STRING) {
    bool eq = strcmp(va.str ? va.str : "", vb.str ? vb.str : "") == 0;
    return op == WC_OP_EQ ? eq : !eq;
  }
  if (t == WC_COMPLEX64 || t == WC_COMPLEX128) {
    double p[4];
    for (int k = 0; k < 2; k++) {
      if (t == WC_COMPLEX128) {
        memcpy(&p[k], &va.bits[k], 8);
        memcpy(&p[2 + k], &vb.bits[k], 8);
      } else {
        p[k] = as_double(WC_FLOAT, (ref_val){{va.bits[k], 0}, NULL});
        p[2 + k] = as_double(WC_FLOAT, (ref_val){{vb.bits[k], 0}, NULL});
      }
    }
    bool eq = p[0] == p[2] && p[1] == p[3];
    return op == WC_OP_EQ ? eq : !eq;
  }
  if (is_float(t)) {
    double a = as_double(t, va), b = as_double(t, vb);
    switch (op) {
    case WC_OP_EQ: return a == b;
    case WC_OP_NE: return a != b;
    case WC_OP_LT: return a < b;
    case WC_OP_LE: return a <= b;
    case WC_OP_GT: return a > b;
    default: return a >= b;
    }
  }
  ref_i128 a = t == WC_BOOL ? (ref_i128)(va.bits[0] & 1) : as_int(t, va);
  ref_i128 b = t == WC_BOOL ? (ref_i128)(vb.bits[0] & 1) : as_int(t, vb);
  switch (op) {
  case WC_OP_EQ: return a == b;
  case WC_OP_NE: return a != b;
  case WC_OP_LT: return a < b;
  case WC_OP_LE: return a <= b;
  case WC_OP_GT: return a > b;
  default: return a >= b;
  }
}

/* The element of input tensor t at output multi-index idx (rank r). */
static ref_val load(const wc_tensor *t, int r, const int64_t *idx) {
  ref_val     v = {{0, 0}, NULL};
  size_t      w = wc_dtype_size(t->dtype);
  const char *p = (const char *)t->data + (size_t)wc__ref_offset(t, r, idx) * w;
  if (t->dtype == WC_STRING) memcpy(&v.str, p, sizeof v.str);
  else if (t->dtype == WC_COMPLEX64) {
    uint32_t re, im;
    memcpy(&re, p, 4);
    memcpy(&im, p + 4, 4);
    v.bits[0] = re;
    v.bits[1] = im;
  } else if (w == 16) {
    memcpy(&v.bits[0], p, 8);
    memcpy(&v.bits[1], p + 8, 8);
  } else {
    uint8_t  b1;
    uint16_t b2;
    uint32_t b4;
    switch (w) {
    case 1:
      memcpy(&b1, p, 1);
      v.bits[0] = b1;
      break;
    case 2:
      memcpy(&b2, p, 2);
      v.bits[0] = b2;
      break;
    case 4:
      memcpy(&b4, p, 4);
      v.bits[0] = b4;
      break;
    default: memcpy(&v.bits[0], p, 8); break;
    }
  }
  if (t->dtype == WC_BOOL) v.bits[0] = v.bits[0] != 0;
  return v;
}

static void store(wc_dtype t, ref_val v, void *p) {
  size_t w = wc_dtype_size(t);
  if (t == WC_STRING) {
    memcpy(p, &v.str, sizeof v.str);
    return;
  }
  if (t == WC_COMPLEX64) {
    uint32_t re = (uint32_t)v.bits[0], im = (uint32_t)v.bits[1];
    memcpy(p, &re, 4);
    memcpy((char *)p + 4, &im, 4);
    return;
  }
  if (w == 16) {
    memcpy(p, &v.bits[0], 8);
    memcpy((char *)p + 8, &v.bits[1], 8);
    return;
  }
  uint8_t  b1 = (uint8_t)v.bits[0];
  uint16_t b2 = (uint16_t)v.bits[0];
  uint32_t b4 = (uint32_t)v.bits[0];
  switch (w) {
  case 1: memcpy(p, &b1, 1); break;
  case 2: memcpy(p, &b2, 2); break;
  case 4: memcpy(p, &b4, 4); break;
  default: memcpy(p, &v.bits[0], 8); break;
  }
}

/* Value of instruction i at output multi-index idx: the tree, recursively. */
static ref_val eval(const wc_kernel *k, int i, const wc_tensor *in, int r, const int64_t *idx);

/* ---- row reductions -------------------------------------------------------
   Written from the rule (operations.h, WC_ROW_LANES) rather than rows.h:
   element j of the row goes into lane j mod 16 in order, each lane starting
   at the identity; lanes then meet pairwise, l with l + 8, l + 4, l + 2,
   l + 1. Float16 and bfloat16 sum in float, rounded once at the end; mean
   divides the sum by the row's length in the lanes' dtype. The output shape
   of the call and the last row's value of each reduction (a reduction read
   at every element of its row is folded once per row) are the evaluator's,
   per thread, reset by each call. */
enum { LANES = 16, MEMO = 64 };
static _Thread_local const int64_t *call_shape;
static _Thread_local struct row_memo {
  bool    valid;
  int64_t outer[WC_MAX_RANK];
  ref_val v;
} memo[MEMO];

static ref_val fold2(wc_opcode op, wc_dtype t, ref_val a, ref_val b) {
  wc_opcode step = op == WC_OP_RMAX ? WC_OP_MAX : op == WC_OP_RMIN ? WC_OP_MIN : WC_OP_ADD;
  return is_float(t) ? arith_float(step, t, a, b) : arith_int(step, t, a, b);
}

static ref_val identity(wc_opcode op, wc_dtype t) {
  int      bits = ref_bits(t);
  ref_i128 lo = is_signed(t) ? -((ref_i128)1 << (bits - 1)) : 0;
  ref_i128 hi = is_signed(t) ? ((ref_i128)1 << (bits - 1)) - 1 : ((ref_i128)1 << bits) - 1;
  if (is_float(t)) return from_double(t, op == WC_OP_RMAX ? -1.0 / 0.0 : op == WC_OP_RMIN ? 1.0 / 0.0 : -0.0);
  return from_int(t, op == WC_OP_RMAX ? lo : op == WC_OP_RMIN ? hi : 0);
}

static ref_val reduce(const wc_kernel *k, int i, const wc_tensor *in, int r, const int64_t *idx) {
  const wc_instr *ins = &k->program[i];
  wc_opcode       op = (wc_opcode)ins->op;
  wc_dtype        t = (wc_dtype)k->program[ins->a].dtype;
  bool            half = t == WC_FLOAT16 || t == WC_BFLOAT16;
  /* max and min pick an element, bits kept (a NaN too): no conversion */
  wc_dtype acc = half && (op == WC_OP_RSUM || op == WC_OP_RMEAN) ? WC_FLOAT : t;
  int             outer = r > ins->b ? r - ins->b : 0; /* fewer axes: one row of all */
  struct row_memo *m = i < MEMO ? &memo[i] : NULL;
  if (m && m->valid && memcmp(m->outer, idx, (size_t)outer * sizeof *idx) == 0) return m->v;
  ref_val lane[LANES];
  int64_t at[WC_MAX_RANK], n = 1;
  for (int l = 0; l < LANES; l++) lane[l] = identity(op, acc);
  for (int d = 0; d < r; d++) at[d] = d < outer ? idx[d] : 0;
  for (int d = outer; d < r; d++) n *= call_shape[d];
  for (int64_t j = 0; j < n; j++) {
    int64_t rest = j;
    for (int d = r - 1; d >= outer; d--) {
      at[d] = rest % call_shape[d];
      rest /= call_shape[d];
    }
    ref_val x = eval(k, ins->a, in, r, at);
    if (acc != t) x.bits[0] = float_bits(t, x); /* exact, NaN payloads kept (no double on the way:
                                                   RISC-V's conversions make NaNs canonical) */
    lane[j % LANES] = fold2(op, acc, lane[j % LANES], x);
  }
  for (int w = LANES / 2; w > 0; w /= 2)
    for (int l = 0; l < w; l++) lane[l] = fold2(op, acc, lane[l], lane[l + w]);
  ref_val v = lane[0];
  if (op == WC_OP_RMEAN) v = arith_float(WC_OP_DIV, acc, v, from_double(acc, (double)n));
  if (acc != t) v = from_float_bits(t, v.bits[0]); /* one rounding, bits of a NaN as ops.h */
  if (m) {
    m->valid = true;
    memcpy(m->outer, idx, (size_t)outer * sizeof *idx);
    m->v = v;
  }
  return v;
}

/* Starts a call of the evaluator on an output of shape `shape`. */
static void begin_call(const int64_t *shape) {
  call_shape = shape;
  memset(memo, 0, sizeof memo);
}

static ref_val eval(const wc_kernel *k, int i, const wc_tensor *in, int r, const int64_t *idx) {
  const wc_instr *ins = &k->program[i];
  wc_opcode       op = (wc_opcode)ins->op;
  wc_dtype        t = (wc_dtype)ins->dtype;
  ref_val         v = {{0, 0}, NULL};
  switch (op) {
  case WC_OP_INPUT: return load(&in[ins->a], r, idx);
  case WC_OP_CONST:
    v.bits[0] = ins->bits[0];
    v.bits[1] = ins->bits[1];
    return v;
  case WC_OP_WHERE:
    return eval(k, ins->a, in, r, idx).bits[0] ? eval(k, ins->b, in, r, idx)
                                               : eval(k, ins->c, in, r, idx);
  case WC_OP_OR:
    return from_bool(eval(k, ins->a, in, r, idx).bits[0] || eval(k, ins->b, in, r, idx).bits[0]);
  case WC_OP_AND:
    return from_bool(eval(k, ins->a, in, r, idx).bits[0] && eval(k, ins->b, in, r, idx).bits[0]);
  case WC_OP_NOT: return from_bool(!eval(k, ins->a, in, r, idx).bits[0]);
  case WC_OP_CAST: return cast(t, (wc_dtype)k->program[ins->a].dtype, eval(k, ins->a, in, r, idx));
  case WC_OP_RSUM:
  case WC_OP_RMAX:
  case WC_OP_RMIN:
  case WC_OP_RMEAN: return reduce(k, i, in, r, idx);
  case WC_OP_EQ:
  case WC_OP_NE:
  case WC_OP_LT:
  case WC_OP_LE:
  case WC_OP_GT:
  case WC_OP_GE:
    return from_bool(compare(op, (wc_dtype)k->program[ins->a].dtype, eval(k, ins->a, in, r, idx),
                             eval(k, ins->b, in, r, idx)));
  default: {
    ref_val a = eval(k, ins->a, in, r, idx);
    ref_val b = wc_op_arity(op) == 1 ? a : eval(k, ins->b, in, r, idx);
    return is_float(t) ? arith_float(op, t, a, b) : arith_int(op, t, a, b);
  }
  }
}

/* Broadcast shape of the inputs, longhand (no shared broadcasting code). */
static wc_status ref_shape(const wc_tensor *in, int n, int *rank, int64_t *shape) {
  int r = 0;
  for (int i = 0; i < n; i++)
    if (in[i].rank > r) r = in[i].rank;
  for (int d = 0; d < r; d++) {
    int64_t e = 1;
    for (int i = 0; i < n; i++) {
      int     td = d - (r - in[i].rank);
      int64_t te = td < 0 ? 1 : in[i].shape[td];
      if (te == 1) continue;
      if (e != 1 && e != te) return WC_E_SHAPE;
      e = te;
    }
    shape[d] = e;
  }
  *rank = r;
  return WC_OK;
}

/* Every parameter's tensor: a baked one (wc_param.data) from the table, the
   others from the caller, who gave either all parameters or its own only. */
static const wc_tensor *ref_inputs(const wc_kernel *k, const wc_tensor *in, int *n_in,
                                   wc_tensor full[WC_MAX_INPUTS]) {
  int baked = 0, j = 0, n = k->n_inputs;
  if (n < 0 || n > WC_MAX_INPUTS || (n > 0 && k->inputs == NULL)) return in;
  for (int i = 0; i < n; i++) baked += k->inputs[i].data != NULL;
  if (baked == 0 || (*n_in != n && *n_in != n - baked) || (*n_in > 0 && in == NULL)) return in;
  for (int i = 0; i < n; i++) {
    const wc_param *p = &k->inputs[i];
    if (p->data == NULL) {
      full[i] = in[*n_in == n ? i : j++];
      continue;
    }
    memset(&full[i], 0, sizeof full[i]);
    full[i].dtype = p->dtype;
    full[i].rank = p->rank < 0 || p->rank > WC_MAX_RANK ? -1 : p->rank; /* -1: refused */
    for (int d = 0; d < full[i].rank; d++) full[i].shape[d] = p->dims[d];
    full[i].data = (void *)p->data;
  }
  *n_in = n;
  return full;
}

wc_status wc_ref_run(const wc_kernel *k, const wc_tensor *in, int n_in, wc_tensor *out) {
  int64_t   shape[WC_MAX_RANK], idx[WC_MAX_RANK], total;
  int       r;
  wc_status s;
  wc_tensor full[WC_MAX_INPUTS];
  if (k == NULL) return WC_E_NOKERNEL;
  in = ref_inputs(k, in, &n_in, full);
  /* one out: a kernel of several outputs is wc_ref_run_multi's, as wc_run refuses it */
  if (out == NULL || n_in != k->n_inputs || (n_in > 0 && in == NULL) || k->n_outputs > 1)
    return WC_E_ARG;
  for (int i = 0; i < n_in; i++) {
    if ((s = wc__tensor_check(&in[i], NULL)) != WC_OK) return s;
    if (in[i].dtype != k->inputs[i].dtype) return WC_E_DTYPE;
  }
  if ((s = wc__tensor_check(out, NULL)) != WC_OK) return s;
  const wc_instr *top = &k->program[k->n_instrs - 1];
  if (k->kind == WC_KIND_WHERE_V1) {
    if (top->op != WC_OP_WHERE) return WC_E_ARG;
    return wc_ref_where_v1(&in[k->program[top->a].a], &in[k->program[top->b].a],
                           &in[k->program[top->c].a], out);
  }
  if ((s = ref_shape(in, n_in, &r, shape)) != WC_OK) return s;
  if ((s = wc__shape_count((wc_dtype)top->dtype, r, shape, &total)) != WC_OK) return s;
  if (k->kind == WC_KIND_ARGWHERE || k->kind == WC_KIND_NONZERO) {
    /* the value tensor, then the naive coordinate listing */
    wc_tensor value = {(wc_dtype)top->dtype, r, {0}, NULL};
    int64_t   cap, n = 0;
    if (out->dtype != WC_INT64) return WC_E_DTYPE;
    for (int d = 0; d < r; d++) value.shape[d] = shape[d];
    value.data = malloc((size_t)total * wc_dtype_size(value.dtype) + 1);
    if (value.data == NULL) return WC_E_NOMEM;
    for (int64_t e = 0; e < total; e++) {
      wc__ref_unflatten(e, r, shape, idx);
      store(value.dtype, eval(k, k->n_instrs - 1, in, r, idx),
            (char *)value.data + (size_t)e * wc_dtype_size(value.dtype));
    }
    wc__tensor_check(out, &cap);
    s = k->kind == WC_KIND_ARGWHERE ? wc_ref_argwhere(&value, out->data, cap, &n)
                                    : wc_ref_nonzero(&value, out->data, cap, &n);
    free(value.data);
    if (s != WC_OK && s != WC_E_CAPACITY) return s;
    out->rank = 2;
    out->shape[0] = k->kind == WC_KIND_ARGWHERE ? n : r;
    out->shape[1] = k->kind == WC_KIND_ARGWHERE ? r : n;
    return s;
  }
  if (out->dtype != k->out_dtype) return WC_E_DTYPE;
  if (out->rank != r) return WC_E_SHAPE;
  for (int d = 0; d < r; d++)
    if (out->shape[d] != shape[d]) return WC_E_SHAPE;
  size_t w = wc_dtype_size(out->dtype);
  begin_call(shape);
  for (int64_t e = 0; e < total; e++) {
    wc__ref_unflatten(e, r, shape, idx);
    store(out->dtype, eval(k, k->n_instrs - 1, in, r, idx), (char *)out->data + (size_t)e * w);
  }
  return WC_OK;
}

/* Several outputs: every output's value at an element is evaluated before
   any is stored (an output may be an input's buffer, in place). */
wc_status wc_ref_run_multi(const wc_kernel *k, const wc_tensor *in, int n_in, wc_tensor *outs,
                           int n_outs) {
  int64_t   shape[WC_MAX_RANK], idx[WC_MAX_RANK], total;
  ref_val   v[WC_MAX_OPERANDS];
  int       r;
  wc_status s;
  if (k == NULL) return WC_E_NOKERNEL;
  if (outs == NULL || n_outs < 1) return WC_E_ARG;
  if (k->n_outputs <= 1) return n_outs == 1 ? wc_ref_run(k, in, n_in, outs) : WC_E_ARG;
  if (n_outs != k->n_outputs || n_outs > WC_MAX_OPERANDS) return WC_E_ARG;
  wc_tensor full[WC_MAX_INPUTS];
  in = ref_inputs(k, in, &n_in, full);
  if (n_in != k->n_inputs || (n_in > 0 && in == NULL)) return WC_E_ARG;
  for (int i = 0; i < n_in; i++) {
    if ((s = wc__tensor_check(&in[i], NULL)) != WC_OK) return s;
    if (in[i].dtype != k->inputs[i].dtype) return WC_E_DTYPE;
  }
  if ((s = ref_shape(in, n_in, &r, shape)) != WC_OK) return s;
  for (int o = 0; o < n_outs; o++) {
    if ((s = wc__tensor_check(&outs[o], NULL)) != WC_OK) return s;
    if (outs[o].dtype != k->outputs[o].dtype) return WC_E_DTYPE;
    if (outs[o].rank != r) return WC_E_SHAPE;
    for (int d = 0; d < r; d++)
      if (outs[o].shape[d] != shape[d]) return WC_E_SHAPE;
  }
  if ((s = wc__shape_count(outs[0].dtype, r, shape, &total)) != WC_OK) return s;
  begin_call(shape);
  for (int64_t e = 0; e < total; e++) {
    wc__ref_unflatten(e, r, shape, idx);
    for (int o = 0; o < n_outs; o++) v[o] = eval(k, k->out_instrs[o], in, r, idx);
    for (int o = 0; o < n_outs; o++)
      store(outs[o].dtype, v[o], (char *)outs[o].data + (size_t)e * wc_dtype_size(outs[o].dtype));
  }
  return WC_OK;
}
