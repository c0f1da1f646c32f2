/* ref_math.c: the reference's log, tanh, sigmoid, erf, sinh, cosh, expm1, selu, softplus,
   softsign, silu, mish, gelu, gelu_tanh and pow, rounded to nearest even
   into any binary format, computed independently of wherec/crmath.h (other
   algorithms: libm's long double functions, and exact series in fixed point). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fixed.h"
#include "reference.h"

/* ONNX Selu's default alpha and gamma, the exact values of those floats */
#define SELU_A 1.67326319217681884765625
#define SELU_G 1.05070102214813232421875

static double round_exact(double v, int p, int emin, int emax);

/* Why it is right. Fast path: glibc's logl, tanhl, erfl and expl are within a
   few units of the last place of a 64-bit significand (sigmoid = 1/(1 +
   expl(-x)) adds two roundings), far inside the margin DELTA = 2^-45 used
   here, which holds even where long double is only double (or valgrind runs
   x87 code in doubles): 256 units of a 53-bit significand. A value whose
   scaled fraction is farther than DELTA * value from the rounding boundary (a
   midpoint of the target) rounds as f(x) does. Within it, the exact path
   decides: fixed point with 512 fraction bits (24 32-bit limbs, 256 integer
   bits; fixed.h, shared with ref_trig.c), every series summed until its
   terms vanish, each step truncated by at most 2^-512:
   - exp(a) = sum a^n/n! (a = |x| <= 104, float, so each step is an exact
     multiplication by its 24-bit significand, a shift and a division by n):
     an error in a term reaches later ones multiplied by a^m n!/(n+m)! <=
     e^a <= 2^151, so the sum of its ~400 terms is within 2^-351 of exp(a)
     (< 2^151).
   - log(m 2^k) = k ln2 + 2 atanh(s), s = (m - 1)/(m + 1) in [0, 1/3), m in
     [1, 2), atanh(s) = sum s^(2n+1)/(2n+1), ln2 = 2 atanh(1/3): each within
     2^-500.
   - tanh(a) = (e^2a - 1)/(e^2a + 1), sigmoid(x) = 1/(1 + e^-x) (as e^|x|/(1 +
     e^|x|) for x >= 0), by long division: within 2^-340 of values >= 2^-150.
   - cosh(a), sinh(a) = (e^a +- e^-a)/2, e^-a by long division: within
     2^-350 of values >= 2^-149.
   - expm1(x) = e^x - 1 (x >= 0), (1 - 1/e^|x|) negated (x < 0): within
     2^-350 absolute, 2^-200 relative of values >= 2^-149 in magnitude.
   - selu(x) = G x (x > 0: exact in double, 24 + 24 bits), G A expm1(x) (x < 0: expm1
     as above, two exact products by A's and G's significands): 2^-200 relative.
   - softplus(x) = max(x, 0) + log(1 + 1/e^|x|) (fixed.c's log: within
     2^-494 absolute, of values >= 2^-151): 2^-340 relative.
   - softsign(x) = |x|/(1 + |x|) by long division (exact |x|): within 2^-500
     absolute, of values >= 2^-150.
   - silu(x) = x sigmoid(x), sigmoid as above and one exact product by x's
     significand: within 2^-330 relative of values >= 2^-160.
   - mish(x) = x N/(N + 2), N = E (E + 2), E = e^x (tanh(log(1 + E)) is that
     quotient), by long division: within 2^-330 relative of values >= 2^-166.
   - gelu(x) = x Phi(x), Phi(x) = 1/2 + phi0 sum (-1)^n x^(2n+1)/(2^n n! (2n+1)), phi0 =
     1/sqrt(2 pi) (fx_sqrt, fx_recip), |x| <= 16 (its terms below e^128 * 16 < 2^190,
     summed positive and negative apart; an error in a term reaches later ones at most
     e^(x^2/2) <= 2^185 times): within 2^-320 absolute, 2^-160 relative of values >= 2^-160
     (1/2 - phi0 S cancels down to Phi(-16) > 2^-191), one exact product by x's significand.
   - gelu_tanh(x) = x sigmoid(z), z = x (A + C x^2), A = sqrt(8/pi) (fx_pi, fx_quot,
     fx_sqrt: within 2^-495), C = A 44715/10^6, |x| <= 12 (|z| <= 142.4); e^|z| by its
     Taylor series (terms below 2^206; an error in a term reaches later ones at most e^|z|
     <= 2^206 times: within 2^-300 absolute, 2^-300 relative as e^|z| >= 1), then as silu:
     within 2^-290 relative of values >= 2^-206.
   - erf(a) = 2/sqrt(pi) sum (-1)^n a^(2n+1)/(n! (2n+1)) (a <= 3.95, its terms
     below 2^17 in magnitude, summed positive and negative apart), 1/sqrt(pi)
     by Newton's iteration from pi = 16 atan(1/5) - 4 atan(1/239): within
     2^-480.
   So the result is within 2^-180 (relative) of f(x). The rounding then asks
   for the 100 bits below the target's rounding bit to be neither all zeros
   nor all ones; it aborts if that ever fails, so a wrong answer cannot pass
   silently (the nearest a float input comes is 2^-52.6 ulp, sigmoid at
   -2^-24). */

/* exp(|x|) by its Taylor series */
static fx fx_exp_abs(float x) {
  fx       sum = fx_int(1), term = fx_int(1);
  uint32_t m;
  int      sh;
  float_parts(x, &m, &sh);
  if (x == 0) return sum;
  for (uint32_t n = 1; n < 2000 && !fx_is_zero(&term); n++) { /* |x| < 2^24: sh > 0 */
    term = fx_mul_small_shift(&term, m, sh);
    term = fx_div_small(term, n);
    sum = fx_add(sum, &term);
  }
  return sum;
}

/* 1/sqrt(pi): Newton's y <- y (3 - pi y^2) / 2 from the double 1/sqrt(pi) */
static fx fx_inv_sqrt_pi(void) {
  fx a = fx_atan_inv(5), b = fx_atan_inv(239), pi, y, one = fx_int(1);
  a = fx_mul_small_shift(&a, 16, 0);
  b = fx_mul_small_shift(&b, 4, 0);
  pi = fx_sub(a, &b);
  y = fx_mul_small_shift(&one, 0x906eba82u, 32); /* 1/sqrt(pi) to 32 bits */
  for (int i = 0; i < 6; i++) {
    fx y2 = fx_mul(&y, &y), t = fx_mul(&pi, &y2), three = fx_int(3);
    three = fx_sub(three, &t);
    y = fx_mul(&y, &three);
    y = fx_div_small(y, 2);
  }
  return y;
}

/* ---- the exact paths (x finite; log: x > 0) ------------------------------------ */

/* |log x| for a positive finite float x, and its sign in *neg */
static fx fx_log_abs(float x, bool *neg) {
  int   k;
  float m = frexpf(x, &k); /* x = m 2^k, m in [1/2, 1) */
  fx    mf = fx_from_float(2 * m), one = fx_int(1), num, den, s, l, ln2, third, kl;
  k -= 1; /* x = (2m) 2^k, 2m in [1, 2) */
  num = fx_sub(mf, &one);
  den = fx_add(mf, &one);
  s = fx_div(&num, &den);
  l = fx_atanh(&s);
  l = fx_add(l, &l); /* log(2m) */
  third = fx_div_small(fx_int(1), 3);
  ln2 = fx_atanh(&third);
  ln2 = fx_add(ln2, &ln2);
  kl = fx_mul_small_shift(&ln2, (uint32_t)(k < 0 ? -k : k), 0);
  l = k < 0 ? fx_sub(l, &kl) : fx_add(l, &kl);
  *neg = fx_is_neg(&l);
  return *neg ? fx_neg(l) : l;
}

static double log_exact(float x, int p, int emin, int emax) {
  bool neg;
  fx   l = fx_log_abs(x, &neg);
  return fx_round(&l, neg, p, emin, emax, "log", x);
}

static double tanh_exact(float x, int p, int emin, int emax) {
  fx e, one = fx_int(1), num, den, t;
  if (fabsf(x) > 20) return x < 0 ? -1.0 : 1.0; /* 1 - tanh < 2^-57: no format here rounds below 1 */
  e = fx_exp_abs(2 * x);
  num = fx_sub(e, &one);
  den = fx_add(e, &one);
  t = fx_div(&num, &den);
  return fx_round(&t, x < 0, p, emin, emax, "tanh", x);
}

static double sigmoid_exact(float x, int p, int emin, int emax) {
  fx e, one = fx_int(1), den, s;
  if (x > 40) return 1.0;    /* 1 - sigmoid < 2^-57 */
  if (x < -110) return 0.0;  /* sigmoid < 2^-158 */
  e = fx_exp_abs(x);
  den = fx_add(e, &one);
  s = x >= 0 ? fx_div(&e, &den) : fx_div(&one, &den);
  return fx_round(&s, false, p, emin, emax, "sigmoid", x);
}

static double erf_exact(float x, int p, int emin, int emax) {
  fx  a, a2, t, pos, neg, c;
  if (fabsf(x) > 6) return x < 0 ? -1.0 : 1.0; /* 1 - erf < 2^-55 */
  a = fx_from_float(x);
  a2 = fx_mul(&a, &a);
  t = a;
  pos = a;
  memset(&neg, 0, sizeof neg);
  for (uint32_t n = 1; n < 2000 && !fx_is_zero(&t); n++) { /* t = a^(2n+1)/n! */
    fx term;
    t = fx_mul(&t, &a2);
    t = fx_div_small(t, n);
    term = fx_div_small(t, 2 * n + 1);
    if (n & 1u) neg = fx_add(neg, &term);
    else pos = fx_add(pos, &term);
  }
  pos = fx_sub(pos, &neg);
  c = fx_inv_sqrt_pi();
  pos = fx_mul(&pos, &c);
  pos = fx_add(pos, &pos);
  return fx_round(&pos, x < 0, p, emin, emax, "erf", x);
}

/* cosh and sinh of |x| <= 90: (e^a +- e^-a)/2 (within 2^-350 of values >= 2^-149) */
static double hyp_exact(float x, bool cosh, int p, int emin, int emax) {
  fx e = fx_exp_abs(x), one = fx_int(1), r = fx_div(&one, &e), v;
  v = cosh ? fx_add(e, &r) : fx_sub(e, &r);
  v = fx_div_small(v, 2);
  return fx_round(&v, !cosh && x < 0, p, emin, emax, cosh ? "cosh" : "sinh", x);
}

/* expm1: as ref_expm1 beyond [-110, 90] */
static double expm1_exact(float x, int p, int emin, int emax) {
  fx e, one = fx_int(1), v;
  if (x > 90) return HUGE_VAL;
  if (x < -110) return -1.0;
  e = fx_exp_abs(x);
  if (x >= 0) v = fx_sub(e, &one);
  else {
    v = fx_div(&one, &e);
    v = fx_sub(one, &v);
  }
  return fx_round(&v, x < 0, p, emin, emax, "expm1", x);
}

/* selu: G x above 0 (exact in double), G A expm1(x) below, signed; as ref_selu beyond -110 */
static double selu_exact(float x, int p, int emin, int emax) {
  fx       e, one = fx_int(1), v;
  uint32_t m;
  int      sh;
  if (x != x || x == 0) return x;
  if (x > 0) return round_exact(SELU_G * (double)x, p, emin, emax);
  if (x < -110) return -round_exact(SELU_G * SELU_A, p, emin, emax);
  e = fx_exp_abs(x);
  v = fx_div(&one, &e);
  v = fx_sub(one, &v);
  float_parts((float)SELU_A, &m, &sh);
  v = fx_mul_small_shift(&v, m, sh);
  float_parts((float)SELU_G, &m, &sh);
  v = fx_mul_small_shift(&v, m, sh);
  return fx_round(&v, true, p, emin, emax, "selu", x);
}

/* softplus: max(x, 0) + log(1 + e^-|x|); as ref_softplus beyond [-110, 40] */
static double softplus_exact(float x, int p, int emin, int emax) {
  fx e, one = fx_int(1), v;
  if (x > 40) return x;
  if (x < -110) return 0.0;
  e = fx_exp_abs(x);
  v = fx_div(&one, &e);
  v = fx_add(v, &one);
  v = fx_log(&v);
  if (x > 0) {
    fx xf = fx_from_float(x);
    v = fx_add(v, &xf);
  }
  return fx_round(&v, false, p, emin, emax, "softplus", x);
}

/* mish: x tanh(log(1 + E)) = x N/(N + 2), N = E (E + 2), E = e^x (tanh of a log is
   rational); x above 40, -0 below -120 (|mish| < 2^-166) */
static double mish_exact(float x, int p, int emin, int emax) {
  fx       e, one = fx_int(1), two = fx_int(2), n, d, v;
  uint32_t m;
  int      sh;
  if (x > 40 || x == 0) return x;
  if (x < -120) return -0.0;
  e = fx_exp_abs(x);
  if (x < 0) e = fx_div(&one, &e);
  n = fx_add(e, &two);
  n = fx_mul(&e, &n);
  d = fx_add(n, &two);
  v = fx_div(&n, &d);
  float_parts(x, &m, &sh);
  v = fx_mul_small_shift(&v, m, sh);
  return fx_round(&v, x < 0, p, emin, emax, "mish", x);
}

/* softsign: |x|/(1 + |x|), signed; +-1 beyond 2^26 (it rounds to 1 from 2^25 on) */
static double softsign_exact(float x, int p, int emin, int emax) {
  fx a, one = fx_int(1), d, v;
  if (fabsf(x) > 0x1p26f) return x < 0 ? -1.0 : 1.0;
  a = fx_from_float_any(x);
  d = fx_add(one, &a);
  v = fx_div(&a, &d);
  return fx_round(&v, x < 0, p, emin, emax, "softsign", x);
}

/* silu below 2^-60 in magnitude: x/2 + x^2/4 - ..., above x/2 by less than 2^-60 |x/2|,
   (and gelu, x/2 + x^2 phi0 - ..., phi0 = 1/sqrt(2 pi) < 1/2: the same holds)
   where x/2 may be a midpoint (a subnormal x/2: silu(2^-149) = 2^-150 + 2^-300) that no
   series here resolves (fx_round would abort); every value strictly between x/2 and x/2
   + x^2/2 rounds alike (no midpoint or representable lies there: they are 2^-25 |x/2|
   apart at least), x/2's neighbour above among the doubles too. */
static double silu_tiny(float x, int p, int emin, int emax) {
  double r = round_exact(nextafter(fabs((double)x / 2), x > 0 ? 1.0 : 0.0), p, emin, emax);
  return x < 0 ? -r : r;
}

/* silu: x sigmoid(x), signed; x above 40, -0 below -120 (|silu| < 2^-166) */
static double silu_exact(float x, int p, int emin, int emax) {
  fx       e, one = fx_int(1), den, s, v;
  uint32_t m;
  int      sh;
  if (x > 40 || x == 0) return x;
  if (x < -120) return -0.0;
  if (fabsf(x) < 0x1p-60f) return silu_tiny(x, p, emin, emax);
  e = fx_exp_abs(x);
  den = fx_add(e, &one);
  s = x >= 0 ? fx_div(&e, &den) : fx_div(&one, &den);
  float_parts(x, &m, &sh);
  v = fx_mul_small_shift(&s, m, sh);
  return fx_round(&v, x < 0, p, emin, emax, "silu", x);
}

/* gelu: x Phi(x), signed; x above 16 (1 - Phi(16) < 2^-190), -0 below -16 (|gelu| <
   2^-188), silu_tiny below 2^-60 */
static double gelu_exact(float x, int p, int emin, int emax) {
  fx       a, a2, t, pos, neg, two, phi0, half = fx_div_small(fx_int(1), 2), v;
  uint32_t m;
  int      sh;
  if (x > 16) return round_exact(x, p, emin, emax);
  if (x == 0) return x;
  if (x < -16) return -0.0;
  if (fabsf(x) < 0x1p-60f) return silu_tiny(x, p, emin, emax);
  a = fx_from_float(x);
  a2 = fx_mul(&a, &a);
  t = a;
  pos = a;
  memset(&neg, 0, sizeof neg);
  for (uint32_t n = 1; n < 4000 && !fx_is_zero(&t); n++) { /* t = a^(2n+1)/(2^n n!) */
    fx term;
    t = fx_mul(&t, &a2);
    t = fx_div_small(t, 2 * n);
    term = fx_div_small(t, 2 * n + 1);
    if (n & 1u) neg = fx_add(neg, &term);
    else pos = fx_add(pos, &term);
  }
  pos = fx_sub(pos, &neg);
  two = fx_pi();
  two = fx_add(two, &two);
  two = fx_sqrt(&two);
  phi0 = fx_recip(&two);
  pos = fx_mul(&pos, &phi0);
  v = x < 0 ? fx_sub(half, &pos) : fx_add(half, &pos);
  float_parts(x, &m, &sh);
  v = fx_mul_small_shift(&v, m, sh);
  return fx_round(&v, x < 0, p, emin, emax, "gelu", x);
}

/* gelu_tanh: x sigmoid(x (A + C x^2)), A = sqrt(8/pi), C = 0.044715 A, signed; x above 10
   (e^-z < 2^-125), -0 below -12 (|gelu_tanh| < 2^-201), silu_tiny below 2^-60 (x/2 +
   x^2/sqrt(2 pi) - ..., as gelu) */
static double gelu_tanh_exact(float x, int p, int emin, int emax) {
  fx       a, z, c, w, e, term, one = fx_int(1), den, s, v, eight = fx_int(8), pi = fx_pi();
  uint32_t m;
  int      sh;
  if (x > 10) return round_exact(x, p, emin, emax);
  if (x == 0) return x;
  if (x < -12) return -0.0;
  if (fabsf(x) < 0x1p-60f) return silu_tiny(x, p, emin, emax);
  w = fx_quot(&eight, &pi);
  w = fx_sqrt(&w); /* A */
  a = fx_from_float(x);
  z = fx_mul(&a, &a);
  c = fx_div_small(fx_int(44715), 1000000u);
  z = fx_mul(&z, &c);
  z = fx_add(z, &one);
  z = fx_mul(&z, &w);
  z = fx_mul(&z, &a); /* |z| */
  e = one;
  term = one;
  for (uint32_t n = 1; n < 4000 && !fx_is_zero(&term); n++) { /* e^|z| */
    term = fx_mul(&term, &z);
    term = fx_div_small(term, n);
    e = fx_add(e, &term);
  }
  den = fx_add(e, &one);
  s = x >= 0 ? fx_div(&e, &den) : fx_div(&one, &den);
  float_parts(x, &m, &sh);
  v = fx_mul_small_shift(&s, m, sh);
  return fx_round(&v, x < 0, p, emin, emax, "gelu_tanh", x);
}

/* ---- the fast paths: long double, the exact path within DELTA of a boundary ---- */

static double ref_log(float x, int p, int emin, int emax) {
  double r;
  if (x != x) return x;
  if (x < 0) return NAN;
  if (x == 0) return -HUGE_VAL;
  if (isinf(x)) return HUGE_VAL;
  if (x == 1) return 0.0;
  r = round_ld(logl((long double)x), p, emin, emax);
  return r == r ? r : log_exact(x, p, emin, emax);
}

static double ref_tanh(float x, int p, int emin, int emax) {
  double r;
  if (x != x || x == 0) return x;
  if (fabsf(x) > 20) return x < 0 ? -1.0 : 1.0;
  r = round_ld(tanhl((long double)x), p, emin, emax);
  return r == r ? r : tanh_exact(x, p, emin, emax);
}

static double ref_sigmoid(float x, int p, int emin, int emax) {
  double r;
  if (x != x) return x;
  if (x > 40) return 1.0;
  if (x < -110) return 0.0;
  r = round_ld(1.0L / (1.0L + expl(-(long double)x)), p, emin, emax);
  return r == r ? r : sigmoid_exact(x, p, emin, emax);
}

/* cosh and sinh overflow every format here above 90 (cosh(90) > 2^128.8) */
static double ref_cosh(float x, int p, int emin, int emax) {
  double r;
  if (x != x) return x;
  if (fabsf(x) > 90) return HUGE_VAL;
  r = round_ld(coshl((long double)x), p, emin, emax);
  return r == r ? r : hyp_exact(x, true, p, emin, emax);
}

static double ref_sinh(float x, int p, int emin, int emax) {
  double r;
  if (x != x || x == 0) return x;
  if (fabsf(x) > 90) return x < 0 ? -HUGE_VAL : HUGE_VAL;
  r = round_ld(sinhl((long double)x), p, emin, emax);
  return r == r ? r : hyp_exact(x, false, p, emin, emax);
}

/* expm1 overflows every format here above 90, and rounds to -1 below -110
   (e^-110 < 2^-158) */
static double ref_expm1(float x, int p, int emin, int emax) {
  double r;
  if (x != x || x == 0) return x;
  if (x > 90) return HUGE_VAL;
  if (x < -110) return -1.0;
  r = round_ld(expm1l((long double)x), p, emin, emax);
  return r == r ? r : expm1_exact(x, p, emin, emax);
}

/* selu: G x above 0, G A expm1(x) below (G A exact in long double, 47 bits), -RN(G A)
   below -110 (e^-110 < 2^-158, and G A is no midpoint of any format) */
static double ref_selu(float x, int p, int emin, int emax) {
  double r;
  if (x != x || x == 0) return x;
  if (x > 0) return round_exact(SELU_G * (double)x, p, emin, emax);
  if (x < -110) return -round_exact(SELU_G * SELU_A, p, emin, emax);
  r = round_ld((long double)(SELU_G * SELU_A) * expm1l((long double)x), p, emin, emax);
  return r == r ? r : selu_exact(x, p, emin, emax);
}

/* softplus is x above 40 (e^-40 < 2^-57 x), +0 below -110 (< 2^-158) */
static double ref_softplus(float x, int p, int emin, int emax) {
  double      r;
  long double xl = (long double)x;
  if (x != x) return x;
  if (x > 40) return x;
  if (x < -110) return 0.0;
  r = round_ld(x > 0 ? xl + log1pl(expl(-xl)) : log1pl(expl(xl)), p, emin, emax);
  return r == r ? r : softplus_exact(x, p, emin, emax);
}

static double ref_softsign(float x, int p, int emin, int emax) {
  double r;
  if (x != x || x == 0) return x;
  if (fabsf(x) > 0x1p26f) return x < 0 ? -1.0 : 1.0;
  r = round_ld((long double)x / (1.0L + fabsl((long double)x)), p, emin, emax);
  return r == r ? r : softsign_exact(x, p, emin, emax);
}

/* silu is x above 40 (x e^-x < 2^-57 x), -0 below -120, silu_tiny below 2^-60 */
static double ref_silu(float x, int p, int emin, int emax) {
  double      r;
  long double xl = (long double)x;
  if (x != x || x == 0) return x;
  if (x > 40) return x;
  if (x < -120) return -0.0;
  if (fabsf(x) < 0x1p-60f) return silu_tiny(x, p, emin, emax);
  r = round_ld(xl / (1.0L + expl(-xl)), p, emin, emax);
  return r == r ? r : silu_exact(x, p, emin, emax);
}

/* mish as mish_exact's formula in long double (no cancellation: N >= 0) */
static double ref_mish(float x, int p, int emin, int emax) {
  double      r;
  long double e = expl((long double)x), n = e * (e + 2.0L);
  if (x != x || x == 0) return x;
  if (x > 40) return x;
  if (x < -120) return -0.0;
  r = round_ld((long double)x * n / (n + 2.0L), p, emin, emax);
  return r == r ? r : mish_exact(x, p, emin, emax);
}

/* gelu as x/2 (1 + erf(x/sqrt2)), or x/2 erfc(-x/sqrt2) for x < 0 (no cancellation;
   x/sqrt2 rounded twice to 64 bits moves erfc by 2t^2 2^-63 <= 2^-55.3 of itself at t =
   -x/sqrt2 <= 11.4: far inside DELTA) */
static double ref_gelu(float x, int p, int emin, int emax) {
  double      r;
  long double xl = (long double)x, t = xl * 0.707106781186547524400844362104849039L;
  if (x != x || x == 0) return x;
  if (x > 16) return round_exact(x, p, emin, emax);
  if (x < -16) return -0.0;
  if (fabsf(x) < 0x1p-60f) return silu_tiny(x, p, emin, emax);
  r = round_ld(x < 0 ? xl / 2 * erfcl(-t) : xl / 2 * (1.0L + erfl(t)), p, emin, emax);
  return r == r ? r : gelu_exact(x, p, emin, emax);
}

/* gelu_tanh as x/(1 + e^-z), z = x (A + C x^2) in long double (z within 2^-62 |z| <= 2^-54.8:
   far inside DELTA) */
static double ref_gelu_tanh(float x, int p, int emin, int emax) {
  double      r;
  long double xl = (long double)x;
  long double z = xl * (1.59576912160573071175978423973752747L +
                        0.0713548162726002487763387522798635L * (xl * xl));
  if (x != x || x == 0) return x;
  if (x > 10) return round_exact(x, p, emin, emax);
  if (x < -12) return -0.0;
  if (fabsf(x) < 0x1p-60f) return silu_tiny(x, p, emin, emax);
  r = round_ld(xl / (1.0L + expl(-z)), p, emin, emax);
  return r == r ? r : gelu_tanh_exact(x, p, emin, emax);
}

static double ref_erf(float x, int p, int emin, int emax) {
  double r;
  if (x != x || x == 0) return x;
  if (fabsf(x) > 6) return x < 0 ? -1.0 : 1.0;
  r = round_ld(erfl((long double)x), p, emin, emax);
  return r == r ? r : erf_exact(x, p, emin, emax);
}

/* ---- pow ------------------------------------------------------------------------
   Fast path: powl (glibc: within a few units of a 64-bit significand), rounded
   by round_ld. Within DELTA of a boundary: an exact result (a dyadic of at
   most 53 bits: every representable value and midpoint of the formats) is
   found with integers and rounded exactly; any other value is computed in
   fixed point, exp(y log|x|) with log as above and exp(t) = sum t^n/n! (|t|
   <= 120, so its terms stay below 2^174), 1/exp(|t|) by long division for t <
   0: within 2^-300 relative, and an inexact value has a non-zero bit in the
   100 below the rounding bit, or a one among zeros, so fx_round decides it. */

/* |v| = m 2^e, m an odd integer (v finite, non-zero) */
static uint64_t odd_parts(float v, int *e) {
  uint64_t m = (uint64_t)ldexpl(frexpl(fabsl((long double)v), e), 24);
  *e -= 24;
  while (!(m & 1u)) {
    m >>= 1;
    ++*e;
  }
  return m;
}

/* |x|^y when it is a dyadic of at most 53 bits within [2^-400, 2^400] (x
   finite non-zero, y finite), else 0: y = n 2^f, n odd; for f < 0, x must be
   a perfect 2^-f-th power (n and 2^-f coprime); then (m 2^e)^(n 2^f) with
   m^N of 53 bits or fewer, and m = 1 when y < 0 (1/m^N is not dyadic). */
static double pow_dyadic(float x, float y) {
  int      e, f;
  uint64_t m = odd_parts(x, &e), n = odd_parts(y, &f), big = 1;
  long     ex;
  for (; f < 0; f++) {
    uint64_t r;
    if (e % 2 != 0) return 0;
    e /= 2;
    r = (uint64_t)llroundl(sqrtl((long double)m));
    if (r * r != m) return 0;
    m = r;
  }
  if (f > 20 || n > (1u << 20) || (n << f) > (1u << 20)) return 0;
  n <<= f;
  if (y < 0 && m != 1) return 0;
  for (uint64_t i = 0; m != 1 && i < n; i++) {
    if (big > (UINT64_C(1) << 53) / m) return 0;
    big *= m;
  }
  ex = (long)e * (long)n * (y < 0 ? -1 : 1);
  if (ex < -400 || ex > 400) return 0;
  return ldexp((double)big, (int)ex);
}

/* v (a positive double) rounded to nearest even to p bits, exponents [emin, emax] */
static double round_exact(double v, int p, int emin, int emax) {
  int    ev, quantum;
  double q, n, f;
  frexp(v, &ev);
  quantum = (ev - 1 > emin ? ev - 1 : emin) - p + 1;
  q = ldexp(v, -quantum);
  n = floor(q);
  f = q - n;
  if (f > 0.5 || (f == 0.5 && fmod(n, 2.0) != 0)) n += 1;
  q = ldexp(n, quantum);
  return q >= ldexp(1.0, emax + 1) ? HUGE_VAL : q;
}

/* |x|^y by the fixed-point path, negated if neg (x finite non-zero, y finite) */
static double pow_fixed(float x, float y, bool neg, int p, int emin, int emax) {
  bool lneg, tneg;
  fx   l = fx_log_abs(fabsf(x), &lneg), yy = fx_from_float_any(y), t, cap = fx_int(120);
  fx   sum = fx_int(1), term = fx_int(1), one = fx_int(1);
  t = fx_mul(&l, &yy);
  tneg = lneg != (y < 0);
  if (fx_ge(&t, &cap)) return tneg ? (neg ? -0.0 : 0.0) : (neg ? -HUGE_VAL : HUGE_VAL);
  for (uint32_t n = 1; n < 2000 && !fx_is_zero(&term); n++) {
    term = fx_mul(&term, &t);
    term = fx_div_small(term, n);
    sum = fx_add(sum, &term);
  }
  if (tneg) sum = fx_div(&one, &sum);
  return fx_round(&sum, neg, p, emin, emax, "pow", x);
}

/* is y an odd integer */
static bool odd_integer(float y) {
  return fabsf(y) < 0x1p24f && fmodf(y, 2.0f) != 0 && truncf(y) == y;
}

static double pow_exact_path(float x, float y, int p, int emin, int emax) {
  bool   neg = x < 0 && odd_integer(y);
  double d = pow_dyadic(x, y);
  if (d != 0) return neg ? -round_exact(d, p, emin, emax) : round_exact(d, p, emin, emax);
  return pow_fixed(x, y, neg, p, emin, emax);
}

/* x or y infinite or zero, x = 1, x negative and y not an integer: C99's
   values (F.9.4.4), written out: glibc's x87 powl mistakes y = -2^63 for an
   odd integer */
static bool pow_special(float x, float y) {
  return x == 0 || y == 0 || isinf(x) || isinf(y) || (x < 0 && truncf(y) != y) || x == 1;
}
static double pow_special_value(float x, float y) {
  bool odd = odd_integer(y);
  if (y == 0 || x == 1) return 1.0;
  if (isinf(y)) {
    if (x == -1) return 1.0;
    return (fabsf(x) < 1) == (y > 0) ? 0.0 : HUGE_VAL;
  }
  if (x == 0) return y < 0 ? (odd ? copysign(HUGE_VAL, x) : HUGE_VAL) : (odd ? (double)x : 0.0);
  if (isinf(x)) {
    double r = y < 0 ? 0.0 : HUGE_VAL;
    return x < 0 && odd ? -r : r;
  }
  return NAN; /* a negative x, y not an integer */
}

/* |x|^y by powl, the sign put back apart (so powl never sees a negative base) */
double wc__ref_pow(float x, float y, int p, int emin, int emax) {
  double      r;
  long double v;
  bool        neg = x < 0 && odd_integer(y);
  if (pow_special(x, y)) return pow_special_value(x, y);
  v = powl(fabsl((long double)x), (long double)y);
  if (v == 0 || isinf(v)) return neg ? -(double)v : (double)v; /* beyond long double's range */
  r = round_ld(v, p, emin, emax);
  if (r != r) return pow_exact_path(x, y, p, emin, emax);
  return neg ? -r : r;
}

double wc__ref_pow_exact(float x, float y, int p, int emin, int emax) {
  if (pow_special(x, y)) return pow_special_value(x, y);
  return pow_exact_path(x, y, p, emin, emax);
}

/* The reference's function of each operation of the table's domain CRF, and
   its exact path alone (for the tests). */
double wc__ref_crf(wc_opcode op, float x, int p, int emin, int emax) {
  switch (op) {
  case WC_OP_EXP: return wc__ref_exp(x, p, emin, emax);
  case WC_OP_LOG: return ref_log(x, p, emin, emax);
  case WC_OP_TANH: return ref_tanh(x, p, emin, emax);
  case WC_OP_SIGMOID: return ref_sigmoid(x, p, emin, emax);
  case WC_OP_ERF: return ref_erf(x, p, emin, emax);
  case WC_OP_SINH: return ref_sinh(x, p, emin, emax);
  case WC_OP_COSH: return ref_cosh(x, p, emin, emax);
  case WC_OP_EXPM1: return ref_expm1(x, p, emin, emax);
  case WC_OP_SELU: return ref_selu(x, p, emin, emax);
  case WC_OP_SOFTPLUS: return ref_softplus(x, p, emin, emax);
  case WC_OP_SOFTSIGN: return ref_softsign(x, p, emin, emax);
  case WC_OP_SILU: return ref_silu(x, p, emin, emax);
  case WC_OP_MISH: return ref_mish(x, p, emin, emax);
  case WC_OP_GELU: return ref_gelu(x, p, emin, emax);
  case WC_OP_GELU_TANH: return ref_gelu_tanh(x, p, emin, emax);
  default: return wc__ref_trig(op, x, p, emin, emax); /* ref_trig.c; NaN for the rest */
  }
}

double wc__ref_crf_exact(wc_opcode op, float x, int p, int emin, int emax) {
  switch (op) {
  case WC_OP_EXP: return wc__ref_exp_exact(x, p, emin, emax);
  case WC_OP_LOG: return log_exact(x, p, emin, emax);
  case WC_OP_TANH: return tanh_exact(x, p, emin, emax);
  case WC_OP_SIGMOID: return sigmoid_exact(x, p, emin, emax);
  case WC_OP_ERF: return erf_exact(x, p, emin, emax);
  case WC_OP_SINH: return hyp_exact(x, false, p, emin, emax);
  case WC_OP_COSH: return hyp_exact(x, true, p, emin, emax);
  case WC_OP_EXPM1: return expm1_exact(x, p, emin, emax);
  case WC_OP_SELU: return selu_exact(x, p, emin, emax);
  case WC_OP_SOFTPLUS: return softplus_exact(x, p, emin, emax);
  case WC_OP_SOFTSIGN: return softsign_exact(x, p, emin, emax);
  case WC_OP_SILU: return silu_exact(x, p, emin, emax);
  case WC_OP_MISH: return mish_exact(x, p, emin, emax);
  case WC_OP_GELU: return gelu_exact(x, p, emin, emax);
  case WC_OP_GELU_TANH: return gelu_tanh_exact(x, p, emin, emax);
  default: return wc__ref_trig_exact(op, x, p, emin, emax);
  }
}
