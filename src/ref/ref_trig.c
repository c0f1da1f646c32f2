/* ref_trig.c: the reference's sin, cos, tan, asin, acos, atan, asinh, acosh and
   atanh, rounded to nearest even into any binary format, computed
   independently of wherec/crmath.h (other algorithms: libm's long double
   functions, and exact series in fixed point, fixed.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fixed.h"
#include "reference.h"

/* Why it is right. Fast path: glibc's sinl, cosl, tanl (exact reduction of
   any argument, Payne-Hanek), asinl, acosl, atanl, asinhl, acoshl and atanhl
   are within a few units of the last place of a 64-bit significand, far
   inside the margin DELTA = 2^-45 (relative) that round_ld leaves around every
   rounding boundary, as in ref_math.c. Within it, the exact path decides, in
   fixed point (fixed.h: 512 fraction bits, 256 integer bits; u = 2^-512, each
   step truncated by less than u). The pieces, bounded in fixed.c: pi within
   2^-499 (so pi/2 within 2^-500 + u), ln 2 within 2^-502, sqrt within 8 u
   relative (+ u), 1/b within 4 u relative (+ u), a/b within 6 u relative (+
   (a + 1) u), log v within 2^-494 absolute. A float x is exact in fixed point
   (|x| < 2^128, last bit >= 2^-149), and so are x^2 (last bit >= 2^-298) and
   1 +- x^2 for |x| <= 2^64.
   - sin, cos, tan: |x| = q pi/2 + r: while k = round(|r| 2/pi) in long double
     is non-zero, r <- |r| - k pi/2 (k an exact integer; at most 4 rounds: |r|
     < 2^66, then < 13, then <= pi/4 (1 + 2^-60), then k = 0), so the sum of
     the k is below 2^128 and r is within 2^128 2^-500 + 4 u < 2^-370 of its
     true value. The closest a float comes to a multiple of pi/2 is |r| =
     2^-29.2 (x = 0x1.f37c8ap+95, every float >= 0.78 searched), so r is within
     2^-340 relative (reduce aborts below 2^-150: it cannot happen); below 0.78
     r = |x| exactly. sin r and cos r by Taylor (|r| < 0.8: ~60 terms t <- t
     r^2/((2n)(2n+1)), each within 2.2 u, the positive and negative terms summed
     apart): within 2^-504 plus the error of r, relative to sin r >= 0.9 |r|
     (2^-339; 2^-354 for an unreduced x >= 2^-149) or cos r >= 0.69. tan = +-sin
     r/cos r or -+cos r/sin r (|cot r| < 2^30): within 2^-338.
   - atan(a), a = |x|: for a > 1, pi/2 - atan(1/a) (1/a within 5 u). Then while
     a > 1/8 (at most 3 times: tan(pi/32) < 1/8), a <- a/(1 + sqrt(1 + a^2))
     (atan halves; the map's derivative is <= 1/2, each step adds < 20 u), the
     series sum (-1)^n a^(2n+1)/(2n+1) (~85 terms of 2.2 u), times 2^h (h <= 3
     halvings): within 2^-499 absolute, against atan >= 0.12 once a halving or
     the inversion happened; a <= 1/8 is exact and the series is within 2^-504,
     against atan a >= 0.99 a >= 2^-149: 2^-354 relative. atan(+-inf) = +-pi/2.
   - asin(a) = atan(t), t = a/sqrt(1 - a^2) (1 - a^2 >= 2^-23 exact; t within
     14 u relative + 2 u absolute, and atan moves by |dt|/(1 + t^2) <= 14 u
     atan t + 2 u: relative again, 2^-354 for the tiniest a), asin(1) = pi/2;
     acos(x) = pi/2 -+ asin(|x|) within 2^-497, against acos >= acos(1 - 2^-24)
     > 2^-12 for x < 1: 2^-485 relative.
   - asinh(a) = log(a + sqrt(a^2 + 1)) for a <= 2^64 (v within 8 u relative +
     2 u: the log moves by < 11 u, plus its 2^-494, against asinh a >= 0.88 a
     >= 2^-150: 2^-343 relative); acosh(a) = log(a + sqrt(a^2 - 1)) for 1 < a
     <= 2^64 (a^2 - 1 >= 2^-22 exact, v within 9 u relative, acosh a >=
     acosh(1 + 2^-23) > 2^-12: 2^-481 relative); above 2^64 (where a^2 would
     leave the 256 integer bits) log(a (1 + sqrt(1 +- (1/a)^2))) (1/a >= 2^-128
     within 2^-380 relative, v within 2^-378 relative, the value > 44).
   - atanh(a) = fx_atanh(a) for a < 1/3 (the series from an exact a, <= 162
     terms of 2 u: within 2^-503, against atanh a >= a >= 2^-149: 2^-353
     relative), else log((1 + a)/(1 - a))/2 (1 - a >= 2^-24 exact, the quotient
     within 8 u relative + 2 u, atanh >= 0.34): 2^-492 relative.
   So the result is within 2^-338 (relative) of f(x), far inside the 2^-180
   that fx_round needs: it decides from the 100 bits below the target's
   rounding bit and aborts if they are all zeros after a one or all ones after
   a zero, so a wrong answer cannot pass silently (never met by a float16, a
   bfloat16 or a sample of 2^22 floats, checked against MPFR). */

static long double const two_over_pi = 0.636619772367581343075535053490057448L;

/* ---- sin, cos, tan ---------------------------------------------------------- */

/* k (a positive integer below 2^130, a long double) exactly in fixed point */
static fx fx_of_ld_int(long double k) {
  int      e;
  uint64_t m = (uint64_t)ldexpl(frexpl(k, &e), 64);
  fx       r = fx_int((uint32_t)m);
  r.w[FRAC / 32 + 1] = (uint32_t)(m >> 32);
  return fx_shift(r, e - 64); /* for e < 64 only zero bits go */
}

/* |x| = q pi/2 + r (x finite): returns |r| (<= pi/4 (1 + 2^-60)), q mod 4 in
   *quad, r < 0 in *neg */
static fx reduce(float x, int *quad, bool *neg, const char *what) {
  fx   m = fx_from_float_any(x), half;
  int  q = 0;
  bool s = false, reduced = false;
  *quad = 0;
  *neg = false;
  if (fabsf(x) < 0.78f) return m; /* < pi/4 */
  half = fx_pi();
  half = fx_shift(half, -1);
  for (int it = 0; it < 8; it++) {
    long double k = roundl(fx_to_ld(&m) * two_over_pi);
    fx          t;
    if (k == 0) break;
    t = fx_of_ld_int(k);
    t = fx_mul(&t, &half);
    q += (s ? -1 : 1) * (int)fmodl(k, 4);
    m = fx_sub(m, &t);
    if (fx_is_neg(&m)) {
      m = fx_neg(m);
      s = !s;
    }
    reduced = true;
  }
  if (reduced && fx_msb(&m) < FRAC - 150) {
    fprintf(stderr, "wherec reference: %s(%a): the reduced argument is below 2^-150\n", what,
            (double)x);
    abort();
  }
  *quad = q & 3;
  *neg = s;
  return m;
}

/* sin m (want_sin) or cos m by Taylor, 0 <= m < 0.8 */
static fx sin_cos(const fx *m, bool want_sin) {
  fx m2 = fx_mul(m, m), t = want_sin ? *m : fx_int(1), pos = t, neg;
  memset(&neg, 0, sizeof neg);
  for (uint32_t n = 1; n < 500 && !fx_is_zero(&t); n++) {
    t = fx_mul(&t, &m2);
    t = fx_div_small(t, want_sin ? (2 * n) * (2 * n + 1) : (2 * n - 1) * (2 * n));
    if (n & 1u) neg = fx_add(neg, &t);
    else pos = fx_add(pos, &t);
  }
  return fx_sub(pos, &neg);
}

enum trig { SIN, COS, TAN };

static double trig_exact(float x, enum trig f, int p, int emin, int emax) {
  static const char *const name[] = {"sin", "cos", "tan"};
  int                      q;
  bool                     rneg, neg;
  fx                       m = reduce(x, &q, &rneg, name[f]), v;
  /* f(|x|) = f(q pi/2 + r), r = +-m */
  if (f == SIN) {
    v = sin_cos(&m, !(q & 1));
    neg = q & 1 ? q == 3 : rneg != (q == 2);
  } else if (f == COS) {
    v = sin_cos(&m, q & 1);
    neg = q & 1 ? (q == 1) != rneg : q == 2;
  } else {
    fx s = sin_cos(&m, true), c = sin_cos(&m, false);
    v = q & 1 ? fx_quot(&c, &s) : fx_quot(&s, &c); /* tan r or -cot r */
    neg = q & 1 ? !rneg : rneg;
  }
  if (f != COS && x < 0) neg = !neg;
  return fx_round(&v, neg, p, emin, emax, name[f], x);
}

/* ---- atan, asin, acos --------------------------------------------------------- */

/* atan a for a >= 0 (a < 2^254); half: pi/2 if already known, else NULL */
static fx atan_fx(fx a, const fx *half) {
  fx   one = fx_int(1), eighth = fx_shift(one, -3), pos, neg, a2, t;
  bool inv = !fx_ge(&one, &a);
  int  h = 0;
  if (inv) a = fx_recip(&a);
  while (!fx_ge(&eighth, &a)) {
    t = fx_mul(&a, &a);
    t = fx_add(t, &one);
    t = fx_sqrt(&t);
    t = fx_add(t, &one);
    a = fx_quot(&a, &t);
    h++;
  }
  a2 = fx_mul(&a, &a);
  t = a;
  pos = a;
  memset(&neg, 0, sizeof neg);
  for (uint32_t n = 1; n < 1000 && !fx_is_zero(&t); n++) { /* t = a^(2n+1) */
    fx term;
    t = fx_mul(&t, &a2);
    term = fx_div_small(t, 2 * n + 1);
    if (n & 1u) neg = fx_add(neg, &term);
    else pos = fx_add(pos, &term);
  }
  pos = fx_sub(pos, &neg);
  pos = fx_shift(pos, h);
  if (inv) {
    fx hp = half ? *half : fx_shift(fx_pi(), -1);
    pos = fx_sub(hp, &pos);
  }
  return pos;
}

static double atan_exact(float x, int p, int emin, int emax) {
  fx v;
  if (isinf(x)) v = fx_shift(fx_pi(), -1);
  else v = atan_fx(fx_from_float_any(x), NULL);
  return fx_round(&v, x < 0, p, emin, emax, "atan", x);
}

/* asin a for 0 < a <= 1 (a a float) */
static fx asin_fx(float a, const fx *half) {
  fx x = fx_from_float(a), one = fx_int(1), d, s, t;
  if (a == 1) return half ? *half : fx_shift(fx_pi(), -1);
  d = fx_mul(&x, &x);
  d = fx_sub(one, &d);
  s = fx_sqrt(&d);
  t = fx_quot(&x, &s);
  return atan_fx(t, half);
}

static double asin_exact(float x, int p, int emin, int emax) {
  fx v = asin_fx(fabsf(x), NULL);
  return fx_round(&v, x < 0, p, emin, emax, "asin", x);
}

static double acos_exact(float x, int p, int emin, int emax) {
  fx half = fx_shift(fx_pi(), -1), v = half;
  if (x != 0) {
    fx a = asin_fx(fabsf(x), &half);
    v = x > 0 ? fx_sub(v, &a) : fx_add(v, &a);
  }
  return fx_round(&v, false, p, emin, emax, "acos", x);
}

/* ---- asinh, acosh, atanh ------------------------------------------------------ */

/* asinh |x| (sign = 1) or acosh x (sign = -1, x > 1) */
static fx ash_fx(float x, int sign) {
  fx a = fx_from_float_any(x), one = fx_int(1), v, t;
  if (fabsf(x) <= 0x1p64f) { /* a + sqrt(a^2 +- 1) */
    t = fx_mul(&a, &a);
    t = sign > 0 ? fx_add(t, &one) : fx_sub(t, &one);
    t = fx_sqrt(&t);
    v = fx_add(a, &t);
  } else { /* a (1 + sqrt(1 +- (1/a)^2)) */
    fx ia = fx_recip(&a);
    t = fx_mul(&ia, &ia);
    t = sign > 0 ? fx_add(one, &t) : fx_sub(one, &t);
    t = fx_sqrt(&t);
    t = fx_add(t, &one);
    v = fx_mul(&a, &t);
  }
  return fx_log(&v);
}

static double asinh_exact(float x, int p, int emin, int emax) {
  fx v = ash_fx(x, 1);
  return fx_round(&v, x < 0, p, emin, emax, "asinh", x);
}

static double acosh_exact(float x, int p, int emin, int emax) {
  fx v = ash_fx(x, -1);
  return fx_round(&v, false, p, emin, emax, "acosh", x);
}

static double atanh_exact(float x, int p, int emin, int emax) {
  fx a = fx_from_float(x), third = fx_div_small(fx_int(1), 3), v;
  if (!fx_ge(&a, &third)) { /* a < 1/3 - 2^-512 */
    v = fx_atanh(&a);
  } else {
    fx one = fx_int(1), num = fx_add(a, &one), den = fx_sub(one, &a), r = fx_quot(&num, &den);
    v = fx_log(&r);
    v = fx_shift(v, -1);
  }
  return fx_round(&v, x < 0, p, emin, emax, "atanh", x);
}

/* ---- the entry points: special values, the fast path, the exact path ---------- */

/* the special values of each function (NaN returned as is, domain errors NaN),
   *done set when the value is one of them */
static double special(wc_opcode f, float x, bool *done) {
  *done = true;
  if (x != x) return x;
  switch (f) {
  case WC_OP_SIN:
  case WC_OP_TAN:
    if (isinf(x)) return NAN;
    if (x == 0) return x;
    break;
  case WC_OP_COS:
    if (isinf(x)) return NAN;
    if (x == 0) return 1.0;
    break;
  case WC_OP_ASIN:
    if (fabsf(x) > 1) return NAN;
    if (x == 0) return x;
    break;
  case WC_OP_ACOS:
    if (fabsf(x) > 1) return NAN;
    if (x == 1) return 0.0;
    break;
  case WC_OP_ATAN:
    if (x == 0) return x;
    break;
  case WC_OP_ASINH:
    if (x == 0 || isinf(x)) return x;
    break;
  case WC_OP_ACOSH:
    if (x < 1) return NAN;
    if (x == 1) return 0.0;
    if (isinf(x)) return x;
    break;
  default: /* WC_OP_ATANH */
    if (fabsf(x) > 1) return NAN;
    if (x == 0) return x;
    if (fabsf(x) == 1) return x < 0 ? -HUGE_VAL : HUGE_VAL;
    break;
  }
  *done = false;
  return 0;
}

static double exact(wc_opcode f, float x, int p, int emin, int emax) {
  switch (f) {
  case WC_OP_SIN: return trig_exact(x, SIN, p, emin, emax);
  case WC_OP_COS: return trig_exact(x, COS, p, emin, emax);
  case WC_OP_TAN: return trig_exact(x, TAN, p, emin, emax);
  case WC_OP_ASIN: return asin_exact(x, p, emin, emax);
  case WC_OP_ACOS: return acos_exact(x, p, emin, emax);
  case WC_OP_ATAN: return atan_exact(x, p, emin, emax);
  case WC_OP_ASINH: return asinh_exact(x, p, emin, emax);
  case WC_OP_ACOSH: return acosh_exact(x, p, emin, emax);
  default: return atanh_exact(x, p, emin, emax);
  }
}

static long double fast(wc_opcode f, long double x) {
  switch (f) {
  case WC_OP_SIN: return sinl(x);
  case WC_OP_COS: return cosl(x);
  case WC_OP_TAN: return tanl(x);
  case WC_OP_ASIN: return asinl(x);
  case WC_OP_ACOS: return acosl(x);
  case WC_OP_ATAN: return atanl(x);
  case WC_OP_ASINH: return asinhl(x);
  case WC_OP_ACOSH: return acoshl(x);
  default: return atanhl(x);
  }
}

static double ref(wc_opcode f, float x, int p, int emin, int emax) {
  bool   done;
  double r = special(f, x, &done);
  if (done) return r;
  r = round_ld(fast(f, (long double)x), p, emin, emax);
  return r == r ? r : exact(f, x, p, emin, emax);
}

static double ref_exact(wc_opcode f, float x, int p, int emin, int emax) {
  bool   done;
  double r = special(f, x, &done);
  return done ? r : exact(f, x, p, emin, emax);
}

/* The operations of ref_trig.c: WC_OP_SIN to WC_OP_ATANH (the table's last rows). */
static bool is_trig(wc_opcode op) { return op >= WC_OP_SIN && op <= WC_OP_ATANH; }

double wc__ref_trig(wc_opcode op, float x, int p, int emin, int emax) {
  return is_trig(op) ? ref(op, x, p, emin, emax) : NAN;
}

double wc__ref_trig_exact(wc_opcode op, float x, int p, int emin, int emax) {
  return is_trig(op) ? ref_exact(op, x, p, emin, emax) : NAN;
}
