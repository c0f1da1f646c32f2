/* wherec/pow.h: pow(x, y) correctly rounded to nearest even for float,
   float16 and bfloat16, without libm, the same bits on every CPU and under
   any FMA contraction. Unlike exp, log, tanh, sigmoid and erf (exp.h,
   crmath.h) pow has two operands: 2^64 float pairs are too many to search for
   the nearest to a rounding boundary, and some results are exact midpoints
   ((1 + 2^-12)^2 = 1 + 2^-11 + 2^-24, 2^-150 = (2^-75)^2), so no bound is
   small enough for every input. pow therefore has a rare branch, which the
   other functions do not (a loop calling it does not vectorize):
   - fast path: x^y = exp(y log x) as a pair (h, l) within B(t) = 2^-58 +
     2^-59.6 |t| (relative, t = y log x clamped to [-110, 100]) of x^y, so at
     most 2^-52.7; the pair perturbed by -+ B h is rounded into the target
     both ways (round to odd, then nearest even, as exp.h); rounding is
     monotonic, so when the two agree x^y rounds there too. They disagree
     only when x^y is within B of a midpoint: the exact midpoints, and at
     most about one random float pair in 2^28 (far fewer where |t| is small,
     and for the half types; none in 4 * 10^6 random pairs).
   - rare path: an exact x^y (y = n 2^-j, n odd: x must be a 2^j-th power,
     and its root's odd part to the n must fit in 53 bits) is computed exactly
     with integers and rounded; anything else is computed again in
     double-double (log by the atanh series, exp by its Taylor series, each
     operation within about 2^-104, the result within about 2^-92) and
     rounded from that pair. That path is not proven to decide every pair: a
     non-exact x^y nearer than that to a midpoint would be rounded from the
     pair as it stands (the worst cases of 2^64 float pairs are not known
     here; CORE-MATH's powf ends in a double-double path too).
     tests/runtime/pow_random.c compares both paths with MPFR on random pairs
     biased to the hard regions (3 * 10^8 pairs, 0 mismatches).
   Special values are C's powf: pow(x, +-0) = 1 and pow(1, y) = 1 even for a
   NaN, pow(-1, +-inf) = 1, a negative x with a non-integer y the canonical
   quiet NaN, odd integers y keep x's sign, 0 and inf as C99 F.9.4.4. NaN
   operands otherwise as ops.h's + - * /: x's NaN, else y's, quieted
   (float16 keeps the payload, bfloat16 gives the quiet NaN of its sign).
   The half types are computed from their float values and rounded once from
   the pair (wc_cr_round_p_), never through float. */
#ifndef WHEREC_POW_H
#define WHEREC_POW_H

#include <stdint.h>

#include "crmath.h"
#include "exp.h"
#include "ops.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- fast path ---------------------------------------------------------------
   log: wc_log_odd_'s steps (crmath.h) kept as the pair (h, l) instead of
   rounded: |h + l - log x| <= 2^-59.68 |log x| for every positive finite
   float x (its comment's per-interval bound).
   t = y (h + l): h = A1 + A2 with A1 of 26 bits (A2 = h - A1 exact, 27 bits),
   so y*A1 and y*A2 are exact (y has 24 bits); the rounding of y*l and of the
   sum y*A2 + y*l stay below 2^-77 |t|; (th, tl) by Fast2Sum. With the log's
   error, |th + tl - y log x| <= 2^-59.66 |th|.
   exp(th + tl): exp.h's exp core (the same table and polynomial) with tl
   folded into the reduced argument: k*C1 and th - k*C1 are exact for |th| <
   128 as for a float there (multiples of 2^-60 below 2^-7), tl - k*C2 is
   within 2^-88, so r keeps exp.h's bound and |z + e - exp(th + tl) 2^-K| <=
   2^-58.1 exp(th + tl) 2^-K. exp(d) - 1 <= d (1 + d) for the error d of t:
   in all B = 2^-58 + 2^-59.6 |th| (rounded up below, with room for the
   roundings of its own computation). th above 100 (x^y > 2^144) or below
   -110 (x^y < 2^-158) is clamped there (tl = 0): the bound's slack covers
   the error, and both ends round to inf or 0 in every format. */

/* log x = *lo + return value (see above), x a positive finite float. */
WC_INLINE double wc_pow_log_(float x, double *lo) {
  WC_CR_CONTRACT_
  uint32_t ix = wc_f32_to_bits(x), sub = ix < 0x00800000u, tmp;
  uint64_t i;
  double   z, r, kd, th, tl, s, bb, e1, p, t, l, h;
  ix = wc_f32_to_bits(wc_sel_f32(sub != 0, x * 0x1p23f, x));
  tmp = ix - 0x3f328000u;
  i = (tmp >> 16) & 127u;
  kd = (double)((int32_t)((tmp >> 23) ^ 256u) - 256 - (int32_t)(sub * 23u));
  z = (double)wc_bits_to_f32(ix - (tmp & 0xff800000u));
  r = z * wc_log_tab_[3 * i] - 1.0;
  th = kd * 0x1.62e42fefa3a00p-1 + wc_log_tab_[3 * i + 1];
  tl = kd * -0x1.0ca86c3898d00p-49 + wc_log_tab_[3 * i + 2];
  s = th + r;
  bb = s - th;
  e1 = (th - (s - bb)) + (r - bb);
  p = -0.5 + r * (0x1.5555555555555p-2 +
                  r * (-0.25 +
                       r * (0x1.999999999999ap-3 + r * (-0x1.5555555555555p-3 +
                                                        r * (0x1.2492492492492p-3 + r * -0.125)))));
  t = (r * r) * p;
  l = e1 + (tl + t);
  h = s + l;
  *lo = l - (h - s);
  return h;
}

/* exp(th + tl) = z + *lo scaled by *scale = 2^K (a normal double), |th| <= 110. */
WC_INLINE double wc_pow_exp_(double th, double tl, double *lo, double *scale) {
  WC_CR_CONTRACT_
  double   t = th * 0x1.71547652b82fep+6, m = t + 0x1.8p52, kd = m - 0x1.8p52;
  uint64_t mb = wc_f64_to_bits(m), j = mb & 63u;
  double   rh = th - kd * 0x1.62e42fefa4000p-7, u = tl - kd * -0x1.8432a1b0e2634p-49;
  double   r = rh + u;
  double   p2 = 0x1.0p-1 + r * (0x1.5555555555555p-3 +
                              r * (0x1.5555555555555p-5 +
                                   r * (0x1.1111111111111p-7 + r * 0x1.6c16c16c16c17p-10)));
  double   q = r + (r * r) * p2;
  double   ht = wc_exp_tab_[2 * j], s = wc_exp_tab_[2 * j + 1] + ht * q, z = ht + s;
  int32_t  k = (int32_t)kd, big = (k - (int32_t)j) / 64;
  *lo = s - (z - ht);
  *scale = wc_bits_to_f64((uint64_t)(big + 1023) << 52);
  return z;
}

/* h + l (|l| <= ulp(h)) rounded to nearest even at p bits, normal exponents
   from emin, as a double: to odd at 53 bits, then to p (exp.h). */
WC_INLINE double wc_pow_round_(double h, double l, int p, int emin) {
  double a = h + l, b = l - (a - h);
  return wc_cr_round_p_(wc_cr_odd_(a, b), p, emin);
}

/* ---- rare path: exact results ------------------------------------------------ */

/* |v| = m 2^e with m odd, v a finite non-zero float. */
static inline uint32_t wc_pow_odd_part_(float v, int *e) {
  uint32_t u = wc_f32_to_bits(v) & 0x7fffffffu, m = u & 0x7fffffu, ex = u >> 23;
  *e = ex ? (int)ex - 150 : -149;
  m |= ex ? 0x800000u : 0u;
  while (!(m & 1u)) {
    m >>= 1;
    ++*e;
  }
  return m;
}

/* The integer square root of m when m is a perfect square, else 0. */
static inline uint32_t wc_pow_isqrt_(uint32_t m) {
  uint32_t lo = 0, hi = 4096; /* m < 2^24 */
  while (lo < hi) {
    uint32_t mid = (lo + hi + 1) / 2;
    if (mid * mid <= m) lo = mid;
    else hi = mid - 1;
  }
  return lo * lo == m ? lo : 0;
}

/* v 2^k for v a double and |k| <= 600, the result normal: two exact steps. */
static inline double wc_pow_ldexp_(double v, int k) {
  int k1 = k / 2;
  v *= wc_bits_to_f64((uint64_t)(k1 + 1023) << 52);
  return v * wc_bits_to_f64((uint64_t)(k - k1 + 1023) << 52);
}

/* x^y exactly, x > 0 and y non-zero both finite floats, when it is a dyadic
   number of at most 53 bits in [2^-400, 2^400]; else 0. y = n 2^f, n odd:
   for f < 0, x^(2^f) must be rational (n and 2^-f are coprime), so x = m 2^e
   is a 2^-f-th power (e divisible, m a perfect power: square roots f times);
   then x^y = m^n 2^(e n) is dyadic only if m = 1 or n > 0. Every midpoint of
   the formats here has at most 25 bits, so a result that is not exact or
   longer than 53 bits is no midpoint. */
static inline double wc_pow_exact_(float x, float y) {
  int      e, f, neg = y < 0, i;
  uint32_t m = wc_pow_odd_part_(x, &e), n = wc_pow_odd_part_(y, &f);
  uint64_t mn = 1;
  int64_t  en;
  for (; f < 0; f++) {
    if ((e & 1) != 0) return 0.0;
    e /= 2;
    if (m > 1 && (m = wc_pow_isqrt_(m)) == 0) return 0.0;
  }
  if (f > 10 || n > 1024) return 0.0; /* |n 2^f| > 2^20: 2^(e n 2^f) out of range if m = 1 */
  n <<= f;
  if (m > 1 && neg) return 0.0;
  for (i = 0; m > 1 && i < (int)n; i++) {
    if (mn > (UINT64_C(1) << 53) / m) return 0.0;
    mn *= m;
  }
  en = (int64_t)e * (int64_t)n * (neg ? -1 : 1);
  if (en < -400 || en > 400) return 0.0;
  return wc_pow_ldexp_((double)mn, (int)en);
}

/* ---- rare path: double-double ------------------------------------------------
   Sums by 2Sum, products by Dekker's product (Veltkamp's split into halves
   of 26 bits: the partial products and their sums are exact), every rounded
   product that feeds two expressions written as "+ 0.0" (a sum, which no
   contraction fuses into one use only); each operation within about 2^-104
   relative. */
typedef struct wc_pow_dd_ {
  double h, l;
} wc_pow_dd_;

static inline wc_pow_dd_ wc_pow_dd_sum_(double a, double b) {
  wc_pow_dd_ r;
  double     bb;
  r.h = a + b;
  bb = r.h - a;
  r.l = (a - (r.h - bb)) + (b - bb);
  return r;
}
static inline wc_pow_dd_ wc_pow_dd_prod_(double a, double b) {
  wc_pow_dd_ r;
  double     ca = a * 134217729.0 + 0.0, cb = b * 134217729.0 + 0.0; /* 2^27 + 1 */
  double     ah = ca - (ca - a), al = a - ah, bh = cb - (cb - b), bl = b - bh;
  r.h = a * b + 0.0;
  r.l = (((ah * bh - r.h) + ah * bl) + al * bh) + al * bl;
  return r;
}
static inline wc_pow_dd_ wc_pow_dd_add_(wc_pow_dd_ a, wc_pow_dd_ b) {
  wc_pow_dd_ s = wc_pow_dd_sum_(a.h, b.h);
  return wc_pow_dd_sum_(s.h, s.l + (a.l + b.l));
}
static inline wc_pow_dd_ wc_pow_dd_mul_(wc_pow_dd_ a, wc_pow_dd_ b) {
  wc_pow_dd_ p = wc_pow_dd_prod_(a.h, b.h);
  return wc_pow_dd_sum_(p.h, p.l + (a.h * b.l + a.l * b.h));
}
/* a / d, d a double */
static inline wc_pow_dd_ wc_pow_dd_div_(wc_pow_dd_ a, double d) {
  double     q = a.h / d;
  wc_pow_dd_ p = wc_pow_dd_prod_(q, d);
  double     r = ((a.h - p.h) - p.l + a.l) / d;
  return wc_pow_dd_sum_(q, r);
}
static inline wc_pow_dd_ wc_pow_mk_(double h, double l) {
  wc_pow_dd_ r;
  r.h = h;
  r.l = l;
  return r;
}

/* ln2 = LN2H + LN2M + LN2L to 160 bits */
#define WC_POW_LN2H_ 0x1.62e42fefa39efp-1
#define WC_POW_LN2M_ 0x1.abc9e3b39803fp-56
#define WC_POW_LN2L_ 0x1.7b57a079a1934p-111

/* k ln2, |k| < 2^20, in double-double */
static inline wc_pow_dd_ wc_pow_dd_kln2_(double k) {
  wc_pow_dd_ a = wc_pow_dd_prod_(k, WC_POW_LN2H_), b = wc_pow_dd_prod_(k, WC_POW_LN2M_);
  return wc_pow_dd_add_(a, wc_pow_mk_(b.h, b.l + k * WC_POW_LN2L_));
}

/* log x, x a positive finite float: x = 2^k m, m in [0.70, 1.42), log m = 2
   atanh(s), s = (m - 1)/(m + 1), |s| < 0.172: 23 terms, the last < 2^-110. */
static inline wc_pow_dd_ wc_pow_dd_log_(float x) {
  int        e;
  uint32_t   mo = wc_pow_odd_part_(x, &e), top = 0;
  double     m;
  wc_pow_dd_ s, s2, acc;
  int        n;
  while ((mo >> top) > 1u) top++;
  e += (int)top; /* x = (mo 2^-top) 2^e, mo 2^-top in [1, 2) */
  m = (double)mo * wc_bits_to_f64((uint64_t)(1023 - (int)top) << 52);
  if (m > 1.4142135623730951) {
    m *= 0.5;
    e++;
  }
  s = wc_pow_dd_div_(wc_pow_mk_(m - 1.0, 0.0), m + 1.0); /* m - 1, m + 1 exact */
  s2 = wc_pow_dd_mul_(s, s);
  acc = wc_pow_dd_div_(wc_pow_mk_(1.0, 0.0), 45.0);
  for (n = 21; n >= 0; n--)
    acc = wc_pow_dd_add_(wc_pow_dd_mul_(acc, s2),
                         wc_pow_dd_div_(wc_pow_mk_(1.0, 0.0), 2.0 * n + 1.0));
  acc = wc_pow_dd_mul_(acc, s);
  acc = wc_pow_mk_(2.0 * acc.h, 2.0 * acc.l);
  return wc_pow_dd_add_(wc_pow_dd_kln2_((double)e), acc);
}

/* exp(t) = 2^k exp(r), r = t - k ln2 in [-0.35, 0.35], Taylor to degree 27
   (the remainder < 2^-110) by Horner: 1 + r/1 (1 + r/2 (1 + ...)). Returns
   the pair scaled by 2^k in *scale, |t.h| <= 110. */
static inline wc_pow_dd_ wc_pow_dd_exp_(wc_pow_dd_ t, double *scale) {
  double     k = t.h * 1.4426950408889634 + 0x1.8p52;
  wc_pow_dd_ r, acc = wc_pow_mk_(1.0, 0.0), kl;
  int        n;
  k -= 0x1.8p52;
  kl = wc_pow_dd_kln2_(k);
  r = wc_pow_dd_add_(t, wc_pow_mk_(-kl.h, -kl.l));
  for (n = 27; n >= 1; n--)
    acc = wc_pow_dd_add_(wc_pow_mk_(1.0, 0.0), wc_pow_dd_div_(wc_pow_dd_mul_(r, acc), (double)n));
  *scale = wc_bits_to_f64((uint64_t)((int)k + 1023) << 52);
  return acc;
}

/* x^y rounded as wc_pow_pos_ by the rare path. */
static inline double wc_pow_rare_(float x, float y, int p, int emin) {
  double     ex = wc_pow_exact_(x, y), sc;
  wc_pow_dd_ t, v;
  if (ex != 0.0) return wc_cr_round_p_(ex, p, emin);
  t = wc_pow_dd_mul_(wc_pow_dd_log_(x), wc_pow_mk_((double)y, 0.0));
  if (t.h > 100.0) t = wc_pow_mk_(100.0, 0.0);
  if (t.h < -110.0) t = wc_pow_mk_(-110.0, 0.0);
  v = wc_pow_dd_exp_(t, &sc);
  return wc_pow_round_(v.h * sc, v.l * sc, p, emin);
}

/* x^y for x > 0 and y non-zero, both finite, rounded to p bits with normal
   exponents from emin (a double that converts exactly; >= 2^(emax+1): inf). */
WC_INLINE double wc_pow_pos_(float x, float y, int p, int emin) {
  WC_CR_CONTRACT_
  double ll, lh = wc_pow_log_(x, &ll), yd = (double)y;
  double a1 = wc_cr_trunc_(lh, 26), a2 = lh - a1;
  double p1 = yd * a1, s = yd * a2 + yd * ll, th = p1 + s, tl = s - (th - p1);
  double c = wc_sel_f64(th > 100.0, 100.0, wc_sel_f64(th < -110.0, -110.0, th));
  double z, e, sc, h, l, eps, lo, hi;
  tl = wc_sel_f64(c == th, tl, 0.0);
  z = wc_pow_exp_(c, tl, &e, &sc);
  h = z * sc;
  l = e * sc;
  eps = h * (0x1.1p-58 + wc_sel_f64(c < 0.0, -c, c) * 0x1.7p-60);
  lo = wc_pow_round_(h, l - eps, p, emin);
  hi = wc_pow_round_(h, l + eps, p, emin);
  return lo == hi ? lo : wc_pow_rare_(x, y, p, emin);
}

/* ---- special values ------------------------------------------------------------ */

/* y's class: 0 not an integer, 1 an even integer (or infinite), 2 an odd one. */
WC_INLINE int wc_pow_yclass_(float y) {
  uint32_t a = wc_f32_to_bits(y) & 0x7fffffffu, ex = a >> 23, sh, m;
  if (ex > 150u) return 1; /* |y| >= 2^24 (and inf): even */
  if (ex < 127u) return a == 0 ? 1 : 0;
  sh = 150u - ex;
  m = (a & 0x7fffffu) | 0x800000u;
  if (ex == 150u) return 1 + (int)(m & 1u);
  return (m & ((1u << sh) - 1u)) ? 0 : 1 + (int)((m >> sh) & 1u);
}

/* pow(x, y) rounded to p bits with normal exponents from emin, for x and y
   floats that are not NaN (except where the result is 1): specials as C;
   the invalid case gives a NaN (the callers put the canonical one). */
WC_INLINE double wc_pow_any_(float x, float y, int p, int emin) {
  uint32_t ux = wc_f32_to_bits(x), uy = wc_f32_to_bits(y), ax = ux & 0x7fffffffu;
  uint32_t ay = uy & 0x7fffffffu, ysign = uy >> 31;
  int      cls = wc_pow_yclass_(y), neg = (ux >> 31) != 0 && cls == 2;
  double   inf = wc_bits_to_f64(UINT64_C(0x7ff0000000000000)), r;
  if (ay == 0 || ux == 0x3f800000u) return 1.0;
  if (ay == 0x7f800000u) {
    if (ax == 0x3f800000u) return 1.0;
    return (ax < 0x3f800000u) == (ysign == 0) ? 0.0 : inf;
  }
  if (ax == 0 || ax == 0x7f800000u) r = (ax == 0) == (ysign != 0) ? inf : 0.0;
  else if ((ux >> 31) != 0 && cls == 0) return inf - inf;
  else r = wc_pow_pos_(wc_bits_to_f32(ax), y, p, emin);
  return neg ? -r : r;
}

/* Which NaN pow gives when an operand is NaN: 1 x's, 2 y's, 0 none (pow(NaN,
   0) and pow(1, NaN) are 1; x's NaN before y's). */
WC_INLINE int wc_pow_nan_pick_(float x, float y) {
  return (x != x && y != 0.0f) ? 1 : (y != y && x != 1.0f) ? 2 : 0;
}

WC_INLINE float wc_pow_f32(float a, float b) {
  int    pick = wc_pow_nan_pick_(a, b);
  double w;
  if (pick) return wc_quiet_f32(pick == 1 ? a : b);
  w = wc_pow_any_(a, b, 24, -126);
  return w != w ? wc_bits_to_f32(WC_CR_NAN_) : (float)w;
}
WC_INLINE wc_float16 wc_pow_f16(wc_float16 a, wc_float16 b) {
  float  x = (float)wc_cr_f16_in_(a), y = (float)wc_cr_f16_in_(b);
  int    pick = (a & 0x7fffu) > 0x7c00u && (b & 0x7fffu) != 0 ? 1
                : (b & 0x7fffu) > 0x7c00u && a != 0x3c00u     ? 2
                                                              : 0;
  double w;
  if (pick) return wc_cr_f16_nan_(pick == 1 ? a : b);
  w = wc_pow_any_(x, y, 11, -14);
  return w != w ? (wc_float16)0x7e00u : wc_cr_f16_out_(w);
}
WC_INLINE wc_bfloat16 wc_pow_bf16(wc_bfloat16 a, wc_bfloat16 b) {
  float  x = wc_bf16_to_f32(a), y = wc_bf16_to_f32(b);
  int    pick = wc_pow_nan_pick_(x, y);
  double w;
  if (pick) return wc_cr_bf16_nan_(pick == 1 ? a : b);
  w = wc_pow_any_(x, y, 8, -126);
  return w != w ? (wc_bfloat16)0x7fc0u : (wc_bfloat16)(wc_f32_to_bits((float)w) >> 16);
}

#ifdef __cplusplus
}
#endif
#endif
