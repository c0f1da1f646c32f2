/* wherec/inverse_hyperbolic.h: asinh, acosh and atanh correctly rounded to
   nearest even for float, float16 and bfloat16, without libm and without a
   branch, computed as exp is (wherec/exp.h says how, and why the bits are the
   same everywhere): a pair h + l within a proven bound B of f(x), rounded to
   odd, then into the target; B is below the distance D of every input's f(x)
   from the format's rounding boundaries (tests/runtime/crmath_hardest.c).
   All three are log V of a double pair V = vh + vl >= 1 + 2^-20 known to
   2^-100 relative (asinh: V = a + sqrt(a^2 + 1), acosh: x + sqrt(x^2 - 1),
   atanh: (1 + a)/(1 - a), halved), by crmath.h's log table; asinh and atanh
   use a short odd series below 2^-20. With V as an exact-enough pair, log V
   does not cancel near V = 1 (its relative error is r's, |r| >= 2^-20), so
   no other series is needed. u = 2^-53 below; each bound holds whether or
   not the compiler contracts (every product an error-free step reads is
   exact or goes through "+ 0.0", exp.h). */
#ifndef WHEREC_INVERSE_HYPERBOLIC_H
#define WHEREC_INVERSE_HYPERBOLIC_H

#include <stdint.h>

#include "crmath.h"
#include "exp.h"
#include "inverse_trig.h" /* wc_raw_sqrt_ */

#ifdef __cplusplus
extern "C" {
#endif

/* ---- sqrt of a pair ------------------------------------------------------------
   s + *lo = sqrt(h + l) = R within 2^-100.5 R, for h + l > 0 given exactly by
   the pair (h = RN(h + l), h in [2^-22, 2^257)), without a square root:
   - y0 = 1/sqrt(h) from the bits (h's exponent halved and negated by the
     shift, the constant 0x5fe6eb50c7b537a9 fitting the significand): |y0
     sqrt(h) - 1| <= 0.0344 (0.03437 over 2^23 significands of each exponent
     parity); Newton y (3/2 - h/2 y^2) maps a relative error e to -3/2 e^2 -
     e^3/2, plus its roundings (h/2 y^2: two, within u of its 1/2; the
     subtraction u; the product u: 3/2 * 2^-52 at most, fused or not):
     0.0344 -> 2^-9.1 -> 2^-17.6 -> 2^-34.7 -> 2^-51.41 after four steps.
   - s = RN(h y) + 0.0 (a sum: the trunc, s - s1 and the callers' sums read
     one value, exp.h): s = R (1 + d), |d| <= 2^-51.41 + u/2 (h against h +
     l) + u <= 2^-50.8.
   - the residual h + l - s^2 (|.| <= 2^-49.8 h): s = s1 + s2, s1 = s to 26
     bits, s2 = s - s1 (27 bits, |s2| < 2^-25 s); h - s1^2 exact (s1^2 of 52
     bits, within a factor 2 of h: Sterbenz); minus 2 s1 s2 (exact product,
     53 bits) exact too (s in [2^e, 2^(e+1)): every term a multiple of
     2^(2e - 77), and the difference (h - s^2) + s2^2 below 2^(2e - 47.4): 30
     bits); then l - s2^2 and the last sum, three roundings of at most u
     2^-49.7 h: 2^-101.1 h.
   - *lo = residual * (y/2): with y = (1 + e')/R, |e'| <= 2^-51.41 + u/2,
     s + residual y/2 - R = -R (d^2/2 + d e' + d^2 e'/2): 2^-101.3 R; the
     residual's error times y/2: 2^-102.1 R; *lo's rounding (u |*lo|, |*lo|
     <= 2^-50.7 R): 2^-103.8 R. In all 2^-100.5 R. */
WC_INLINE double wc_ahyp_sqrt_(double h, double l, double *lo) {
  WC_CR_CONTRACT_
  double y = wc_bits_to_f64(0x5fe6eb50c7b537a9u - (wc_f64_to_bits(h) >> 1)), hh = 0.5 * h;
  double s, s1, s2, d;
  y = y * (1.5 - hh * y * y);
  y = y * (1.5 - hh * y * y);
  y = y * (1.5 - hh * y * y);
  y = y * (1.5 - hh * y * y);
  s = h * y + 0.0; /* a sum: s1, s2 and the callers' sums read one value (exp.h) */
  s1 = wc_cr_trunc_(s, 26);
  s2 = s - s1;
  d = ((h - s1 * s1) - (s1 + s1) * s2) + (l - s2 * s2);
  *lo = d * (0.5 * y);
  return s;
}

/* ---- log of a pair ---------------------------------------------------------------
   log V, V = vh + vl in [1, 2^130), |vl| <= 2^-50 vh, as crmath.h's log does
   it for a float (same table, same intervals: vh = 2^k z, z in [0.6973,
   1.3946), 0 <= k <= 129, the interval i of z from its 7 bits past the
   offset), with a 53-bit z and a low part:
   - c = invc 2^-k (24 bits, exact), z1 = vh to 26 bits, z2 = vh - z1 (27
     bits): z1 c (50 bits) and z2 c (51 bits) exact, z1 c - 1 exact
     (Sterbenz: z1 c within 2^-7.9 of 1), so (s, e) = 2Sum(z1 c - 1, z2 c) is
     vh c - 1 exactly; contracting these products changes nothing. vl c
     (|vl c| <= 2^-49.99) and e + vl c rounded (u 2^-49.99 each), (rh, rl) =
     2Sum(s, e + vl c): r = rh + rl = V c - 1 within 2^-102.0, |rl| <= u |rh|,
     |r| <= 2^-8 + 2^-49 (the doubles of an interval reach the next one's
     start: rmax per interval).
   - TH = k L1 + LH exact (k L1: 8 + 44 bits; both multiples of 2^-45 below
     2^7), TL = k L2 + LL (k L2: 8 + 45 bits, exact) within u 2^-41.8 + 2^-99
     (LL) + 2^-102 k (|ln2 - L1 - L2|) <= 2^-92.9; (S, E1) = 2Sum(TH, rh).
   - log1p(rh + rl) = rh + t + rl (1 - rh) + (<= u |r|^3 1.01 + u^2 r^2), t
     = rh^2 (-1/2 + rh/3 - ... - rh^6/8) (crmath.h's polynomial: truncation
     |r|^9/9/(1 - |r|), roundings 3.04 u |t|, |t| <= r^2/2 (1 + 2|r|/3));
     q = rl - rl rh within u |q| + u^2 r^2.
   - l = E1 + (TL + (t + q)): three roundings of at most u (|t| + |q| + |TL|
     + |E1|), |E1| <= 2^-54 when k = 0 (|S| < 0.34), 2^-46.5 when k > 0; on
     the interval around 1 with k = 0, E1 = TL = 0: one rounding, u (|t| +
     |q|). h + l = S + l exactly (Fast2Sum: |S| > 2^7 |l|).
   Relative to log V, per interval: >= r - r^2/2 on the interval around 1
   with k = 0 (V < 1 + 2^-8; there rh >= 2^-20.01 as V >= 1 + 2^-20 in every
   use), >= log z at the interval's start when k = 0 elsewhere (z >= 1 + 2^-8
   as V >= 1), >= ln2 + log 0.6973 > 0.3325 when k > 0. The maximum over
   the intervals (crmath_tables.py's ahyp_bound, with these
   terms) is BL = 2^-59.41 (the interval above 1's, k = 0; 2^-59.97 around
   1, 2^-65.8 for k > 0), plus (2^-102.0 + eV) / log V for r's rounding and
   V's relative error eV. */
WC_INLINE double wc_ahyp_log_(double vh, double vl, double *lo) {
  WC_CR_CONTRACT_
  uint64_t tmp = wc_f64_to_bits(vh) - 0x3fe6500000000000u, i = (tmp >> 45) & 127u, k = tmp >> 52;
  double   kd = wc_bits_to_f64(0x4330000000000000u | k) - 0x1p52; /* k >= 0 */
  double   c = wc_bits_to_f64(wc_f64_to_bits(wc_log_tab_[3 * i]) - (k << 52));
  double   z1 = wc_cr_trunc_(vh, 26), z2 = vh - z1, a = z1 * c - 1.0, b = z2 * c;
  double   s = a + b, bb = s - a, e = ((a - (s - bb)) + (b - bb)) + vl * c;
  double   rh = s + e, rb = rh - s, rl = (s - (rh - rb)) + (e - rb);
  double   th = kd * 0x1.62e42fefa3a00p-1 + wc_log_tab_[3 * i + 1];
  double   tl = kd * -0x1.0ca86c3898d00p-49 + wc_log_tab_[3 * i + 2];
  double   S = th + rh, sb = S - th, e1 = (th - (S - sb)) + (rh - sb), p, t, q, l, h;
  p = -0.5 + rh * (0x1.5555555555555p-2 + rh * (-0.25 + rh * (0x1.999999999999ap-3 +
      rh * (-0x1.5555555555555p-3 + rh * (0x1.2492492492492p-3 + rh * -0.125)))));
  t = (rh * rh) * p;
  q = rl - rl * rh;
  l = e1 + (tl + (t + q));
  h = S + l;
  *lo = l - (h - S);
  return h;
}

/* ---- asinh -----------------------------------------------------------------------
   asinh is odd: a = |x| clamped to the largest float (+-inf selected after),
   the sign put back on the rounded result.
   - a < 2^-20: asinh(a) = a + a^3 (-1/6 + 3/40 a^2): truncation 5/112 a^7
     <= 2^-124 a, roundings (the coefficient, four operations: 5 u of the a^3
     term, <= 2^-42.5 a) 2^-93.2 a; (h, l) by Fast2Sum. B = 2^-93.
   - a >= 2^-20: V = a + sqrt(a^2 + 1): a^2 exact (48 bits), (h, l) = 2Sum(1,
     a^2) exactly, sqrt by wc_ahyp_sqrt_ (2^-100.5), then 2Sum(s, a) and the
     low parts added (u 2^-50.7 V): eV <= 2^-100.3 V. log V = asinh(a) >=
     2^-20.01 and V - 1 >= 2^-20: B = BL + 2^-79.9 = 2^-59.41.
   D (crmath_hardest): float 2^-57.8 (x = 0x1.b121a6p+75, where asinh is
   log(2x) + 2^-153.5: log's hardest, 0x1.b121a6p+76), float16 2^-27.4, bfloat16
   2^-21.5. */

#define WC_ASINH_TOP_ 0x7f7fffffu /* the largest float */

WC_INLINE double wc_asinh_odd_(double a) {
  WC_CR_CONTRACT_
  double a2 = a * a, h = 1.0 + a2, bb = h - 1.0, l = (1.0 - (h - bb)) + (a2 - bb), sl, s, vh, vl;
  double lo, hi, t, th;
  s = wc_ahyp_sqrt_(h, l, &sl);
  vh = s + a;
  bb = vh - s;
  vl = ((s - (vh - bb)) + (a - bb)) + sl;
  hi = wc_ahyp_log_(vh, vl, &lo);
  t = a * (a2 * (-0x1.5555555555555p-3 + a2 * 0x1.3333333333333p-4)) + 0.0; /* a sum (exp.h) */
  th = a + t;
  return wc_sel_f64(a < 0x1p-20, wc_cr_odd_(th, t - (th - a)), wc_cr_odd_(hi, lo));
}

WC_INLINE float wc_asinh_f32(float x) {
  uint32_t u = wc_f32_to_bits(x);
  float    r = (float)wc_asinh_odd_(wc_cr_abs_clamp_(u, WC_ASINH_TOP_));
  r = wc_sel_f32((u & 0x7fffffffu) == 0x7f800000u, wc_bits_to_f32(WC_CR_INF_), r);
  r = wc_bits_to_f32(wc_f32_to_bits(r) | (u & 0x80000000u));
  return wc_sel_f32(x != x, wc_quiet_f32(x), r);
}
/* The half types: +-inf (clamped to the largest float like every input
   above it) selected as +-inf before the rounding, which keeps it. */
WC_INLINE wc_float16 wc_asinh_f16(wc_float16 a) {
  double w = wc_asinh_odd_(wc_cr_f16_abs_(a, WC_ASINH_TOP_));
  w = wc_sel_f64((a & 0x7fffu) == 0x7c00u, wc_bits_to_f64(0x7ff0000000000000u), w);
  return wc_cr_f16_of_(a, w, (uint16_t)(a & 0x8000u));
}
WC_INLINE wc_bfloat16 wc_asinh_bf16(wc_bfloat16 a) {
  double w = wc_asinh_odd_(wc_cr_bf16_abs_(a, WC_ASINH_TOP_));
  w = wc_sel_f64((a & 0x7fffu) == 0x7f80u, wc_bits_to_f64(0x7ff0000000000000u), w);
  return wc_cr_bf16_of_(a, w, (uint16_t)(a & 0x8000u));
}

/* ---- acosh -----------------------------------------------------------------------
   x >= 1: the float bits clamped to [1 + 2^-23, the largest float], the
   special values selected after: acosh(1) = +0, acosh(+inf) = +inf, x < 1
   (-0, +0 and -inf too) the canonical NaN, a NaN x that NaN quieted.
   - V = x + sqrt(x^2 - 1): x^2 exact (48 bits), (h, l) = Fast2Sum(x^2, -1)
     exactly (x^2 > 1), h >= 2^-22; sqrt by wc_ahyp_sqrt_ (2^-100.5); then
     2Sum(x, s) and the low parts added (u 2^-50.7 V): eV <= 2^-100.3 V. No
     cancellation near 1 (a float x > 1 is at least 1 + 2^-23): V - 1 >=
     2^-11 and log V = acosh(x) >= 2^-11.01. B = BL + 2^-88.9 = 2^-59.41.
   D (crmath_hardest): float 2^-57.8 (x = 0x1.b121a6p+75, as asinh), float16
   2^-24.7, bfloat16 2^-21.5. */

WC_INLINE double wc_acosh_odd_(double x) {
  WC_CR_CONTRACT_
  double x2 = x * x, h = x2 - 1.0, l = -1.0 - (h - x2), sl, s, vh, vb, vl, lo, hi;
  s = wc_ahyp_sqrt_(h, l, &sl);
  vh = x + s;
  vb = vh - x;
  vl = ((x - (vh - vb)) + (s - vb)) + sl;
  hi = wc_ahyp_log_(vh, vl, &lo);
  return wc_cr_odd_(hi, lo);
}

/* The float bits of x clamped to [1 + 2^-23, the largest float] (an integer
   clamp on the bits; negative x, NaN and inf land on an end). */
WC_INLINE double wc_acosh_in_(uint32_t u) {
  uint32_t c = u < 0x3f800001u ? 0x3f800001u : u;
  return (double)wc_bits_to_f32(c > 0x7f7fffffu ? 0x7f7fffffu : c);
}

/* The float bits of acosh at the special inputs (finite x > 1 and NaN: 0,
   the caller's): +0 at 1, +inf at +inf, the canonical NaN below 1. */
WC_INLINE uint32_t wc_acosh_special_(uint32_t u) {
  return u == 0x3f800000u ? 0u : u == 0x7f800000u ? WC_CR_INF_ : WC_CR_NAN_;
}

/* acosh x rounded into a format (p, emin), or its special value (a NaN x:
   anything). */
WC_INLINE double wc_acosh_any_(float x, int p, int emin) {
  uint32_t u = wc_f32_to_bits(x);
  return wc_sel_f64(u - 0x3f800001u < 0x7f800000u - 0x3f800001u,
                    wc_cr_round_p_(wc_acosh_odd_(wc_acosh_in_(u)), p, emin),
                    (double)wc_bits_to_f32(wc_acosh_special_(u)));
}

WC_INLINE float wc_acosh_f32(float x) {
  uint32_t u = wc_f32_to_bits(x);
  float    r = wc_sel_f32(u - 0x3f800001u < 0x7f800000u - 0x3f800001u,
                          (float)wc_acosh_odd_(wc_acosh_in_(u)),
                          wc_bits_to_f32(wc_acosh_special_(u)));
  return wc_sel_f32(x != x, wc_quiet_f32(x), r);
}
WC_INLINE wc_float16 wc_acosh_f16(wc_float16 a) {
  return wc_cr_f16_of_special_(a, wc_acosh_any_((float)wc_cr_f16_in_(a), 11, -14));
}
WC_INLINE wc_bfloat16 wc_acosh_bf16(wc_bfloat16 a) {
  return wc_cr_bf16_of_special_(a, wc_acosh_any_(wc_bf16_to_f32(a), 8, -126));
}

/* ---- atanh -----------------------------------------------------------------------
   atanh is odd: a = |x| clamped to 1 - 2^-24 (the largest float below 1),
   the sign put back on the rounded result; +-1 give +-inf, |x| > 1 (inf
   too) the canonical NaN, a NaN x that NaN quieted.
   - a < 2^-20: atanh(a) = a + a^3 (1/3 + a^2/5): truncation a^7/7 (1 +
     2^-39) <= 2^-122.8 a, roundings (5 u of the a^3 term, <= 2^-41.5 a)
     2^-92.2 a; (h, l) by Fast2Sum. B = 2^-92.
   - a >= 2^-20: log V / 2, V = 1 + w, w = 2a/d, d = 1 - a exact (a is a
     multiple of 2^-43 below 1). y = RN(1/d), wh = RN(2a y) + 0.0 (a sum:
     the trunc, the residual and the 2Sum read one value) = w (1 + dw), |dw|
     <= 2.0001 u; the residual rho = 2a - wh d = -2a dw, |rho| <= 2^-52 2a,
     computed with one rounding (u |rho|):
     a < 1/2: ((2a - wh) + w1 a) + w2 a, w1 = wh to 26 bits, w2 = wh - w1 (27
       bits), both products exact (24-bit a); 2a - wh exact (Sterbenz: wh in
       [2a, 4a] as d in (1/2, 1]); it is rho - wh a, within 2^-32 wh a of -wh
       a (a >= 2^-20), and w1 a within 2^-25 of wh a: their sum is exact
       (Sterbenz), then rounded once with w2 a.
     a >= 1/2: (2a - w1 d) - w2 d: d has 23 bits at most (a multiple of 2^-24
       below 1/2), w1 d and w2 d exact; w1 d = 2a - rho - w2 d within 2^-24
       of 2a: the difference is exact (Sterbenz), then rounded once.
     wl = rho y (3.0001 u |rho/d| <= 2^-103.4 w) and w = wh + rho/d exactly.
     (vh, e) = 2Sum(1, wh) exactly, vl = e + wl (|vl| <= 2^-51.4 V, rounded
     within 2^-104.4 V): eV <= 2^-102.7 V. log V = 2 atanh(a) >= 2^-19.01 and
     V - 1 >= 2^-19; halving is exact: B = BL + 2^-82.2 = 2^-59.41.
   D (crmath_hardest): float 2^-52.9 (x = 0x1.e3cf42p-11), float16 2^-23.1,
   bfloat16 2^-17.3. */

#define WC_ATANH_TOP_ 0x3f7fffffu /* 1 - 2^-24 */

WC_INLINE double wc_atanh_odd_(double a) {
  WC_CR_CONTRACT_
  double a2 = a + a, d = 1.0 - a, y = 1.0 / d, wh = a2 * y + 0.0; /* a sum (exp.h) */
  double w1 = wc_cr_trunc_(wh, 26), w2 = wh - w1, rb, rs, wl, vh, vb, vl, lo, hi, sq, t, th;
  rb = (a2 - w1 * d) - w2 * d;
  rs = ((a2 - wh) + w1 * a) + w2 * a;
  wl = wc_sel_f64(a >= 0.5, rb, rs) * y;
  vh = 1.0 + wh;
  vb = vh - 1.0;
  vl = ((1.0 - (vh - vb)) + (wh - vb)) + wl;
  hi = wc_ahyp_log_(vh, vl, &lo);
  sq = a * a;
  t = a * (sq * (0x1.5555555555555p-2 + sq * 0x1.999999999999ap-3)) + 0.0; /* a sum (exp.h) */
  th = a + t;
  return wc_sel_f64(a < 0x1p-20, wc_cr_odd_(th, t - (th - a)), wc_cr_odd_(0.5 * hi, 0.5 * lo));
}

/* The float bits of atanh where |x| >= 1 or x is 0 (a NaN x: the caller's):
   +-inf at +-1, the canonical NaN above 1 in magnitude; x itself at +-0. */
WC_INLINE uint32_t wc_atanh_special_(uint32_t u) {
  uint32_t m = u & 0x7fffffffu;
  return m == 0x3f800000u ? (u & 0x80000000u) | WC_CR_INF_ : m == 0u ? u : WC_CR_NAN_;
}

/* atanh x rounded into a format (p, emin), or its special value, signed
   (a NaN x: anything). */
WC_INLINE double wc_atanh_any_(float x, int p, int emin) {
  uint32_t u = wc_f32_to_bits(x), m = u & 0x7fffffffu;
  double   w = wc_cr_round_p_(wc_atanh_odd_(wc_cr_abs_clamp_(u, WC_ATANH_TOP_)), p, emin);
  w = wc_bits_to_f64(wc_f64_to_bits(w) | ((uint64_t)(u & 0x80000000u) << 32));
  return wc_sel_f64(m - 1u < 0x3f7fffffu, w, (double)wc_bits_to_f32(wc_atanh_special_(u)));
}

WC_INLINE float wc_atanh_f32(float x) {
  uint32_t u = wc_f32_to_bits(x), m = u & 0x7fffffffu;
  float    r = (float)wc_atanh_odd_(wc_cr_abs_clamp_(u, WC_ATANH_TOP_));
  r = wc_bits_to_f32(wc_f32_to_bits(r) | (u & 0x80000000u));
  r = wc_sel_f32(m - 1u < 0x3f7fffffu, r, wc_bits_to_f32(wc_atanh_special_(u)));
  return wc_sel_f32(x != x, wc_quiet_f32(x), r);
}
WC_INLINE wc_float16 wc_atanh_f16(wc_float16 a) {
  return wc_cr_f16_of_special_(a, wc_atanh_any_((float)wc_cr_f16_in_(a), 11, -14));
}
WC_INLINE wc_bfloat16 wc_atanh_bf16(wc_bfloat16 a) {
  return wc_cr_bf16_of_special_(a, wc_atanh_any_(wc_bf16_to_f32(a), 8, -126));
}

/* ---- the raw forms (exp.h: a block's first pass) ------------------------------
   No table (no gather), one division: each is y = k ln2 + 2 atanh(n/d) (halved
   for atanh), k an integer, s = n/d within 0.2007 of 0 and free of
   cancellation, atanh(s) = A = s + (s z) P(z), z = s^2, P of degree 7
   interpolating (atanh(s)/s - 1)/z at the 8 Chebyshev nodes of z in [0,
   0.2007^2] (crmath_tables.py ahyp_raw_coefficients: A within 2^-52.91 of
   atanh(s) with its roundings), k ln2 rounded once (ln2's double, k <= 129).
   - asinh: q = sqrt(a^2 + 1), V = a + q, k = round(log2 V) from V's bits
     (V 2^-k in [1/sqrt 2, sqrt 2): |s| <= 0.1716); k = 0: s = a/(1 + q) =
     tanh(asinh(a)/2); else s = (V - 2^k)/(V + 2^k) = tanh(log(V 2^-k)/2), V's
     rounding counts at most half in s, and y >= ln2/2 where K = k ln2 <= 2 y.
   - acosh: q = sqrt(x^2 - 1) (x^2 - 1 exact below 2), V = x + q, k as
     asinh's; k = 0: s = q/(x + 1) (x < 1.061: x + 1 exact); else as asinh.
   - atanh: V = (1 + a)/(1 - a) (1 + a and 1 - a exact where k > 0, a >=
     0.142), k = round(log2(1 + a) - log2(1 - a)) from their bits, each a
     piecewise linear log2 within 0.0861 (V 2^-k in [0.666, 1.502]: |s| <=
     0.2005); k = 0: s = a; else s = (1 + a - 2^k (1 - a))/(1 + a + 2^k (1 -
     a)), and y = K/2 + A >= 0.143 where K/2 <= 2.42 y.
   sqrt(t) as asin's raw form (inverse_trig.h: y0 from the bits, three Newton
   steps, one correction; within 2^-52.41 of sqrt(t), t in [2^-22, 2^257)).
   crmath_tables.py ahyp_raw_bound, case by case (s's roundings, V's, A's
   error through s atanh'(s)/atanh(s) <= 1.028, K's rounding and ln2's
   double, the sum): asinh and acosh 2^-48.87, atanh 2^-49.67; each step
   bounded as if rounded, whatever contracts; under gcc fused by hand where
   the target has FMA. A NaN x gives the NaN, and so do the exact forms'
   special inputs (asinh: +-inf; acosh: x <= 1, +inf; atanh: |x| >= 1) and
   subnormal results (exp.h); asinh(-0) = -0, atanh(-0) = -0. */

/* k ln2 + 2 atanh(n/d), kd = k an integer in [0, 129], |n/d| <= 0.2007. */
WC_INLINE double wc_ahyp_raw_(double kd, double n, double d) {
  WC_CR_CONTRACT_
  double s = n / d, z = s * s;
  double p = WC_F_(z, WC_F_(z, WC_F_(z, WC_F_(z, WC_F_(z, WC_F_(z, WC_F_(z, 0x1.16e5fe836c9bbp-4,
             0x1.0e82b7b4f74aep-4), 0x1.3b2a4d993aab3p-4), 0x1.745ca91faa642p-4),
             0x1.c71c72e99a328p-4), 0x1.24924923d689bp-3), 0x1.9999999999f5fp-3),
             0x1.5555555555555p-2);
  return WC_F_(kd, 0x1.62e42fefa39efp-1, 2.0 * WC_F_(s * z, p, s));
}

/* k = round(log2 v) for v >= 1 from its bits (v 2^-k in [1/sqrt 2, sqrt 2)): its
   double (*kd) and 2^k. */
WC_INLINE double wc_ahyp_raw_k_(double v, double *kd) {
  uint64_t k = (wc_f64_to_bits(v) - 0x3fe6a09e667f3bcdu) >> 52;
  *kd = wc_bits_to_f64(0x4330000000000000u | k) - 0x1p52;
  return wc_bits_to_f64((k + 1023u) << 52);
}

WC_INLINE float wc_asinh_raw_f32(float x) {
  WC_CR_CONTRACT_
  uint32_t u = wc_f32_to_bits(x);
  double   a = wc_cr_abs_clamp_(u, WC_ASINH_TOP_), q = wc_raw_sqrt_(WC_F_(a, a, 1.0)), v = a + q;
  double   kd, tk = wc_ahyp_raw_k_(v, &kd);
  int      big = kd != 0.0;
  double   y = wc_ahyp_raw_(kd, wc_sel_f64(big, v - tk, a), wc_sel_f64(big, v + tk, 1.0 + q));
  float    r = wc_cr_raw_round_(y, WC_CR_RAW_TINY_, (u & 0x7fffffffu) >= 0x7f800000u);
  return wc_bits_to_f32(wc_f32_to_bits(r) | (u & 0x80000000u));
}

WC_INLINE float wc_acosh_raw_f32(float x) {
  WC_CR_CONTRACT_
  uint32_t u = wc_f32_to_bits(x);
  double   c = wc_acosh_in_(u), q = wc_raw_sqrt_(WC_F_(c, c, -1.0)), v = c + q;
  double   kd, tk = wc_ahyp_raw_k_(v, &kd);
  int      big = kd != 0.0;
  double   y = wc_ahyp_raw_(kd, wc_sel_f64(big, v - tk, q), wc_sel_f64(big, v + tk, c + 1.0));
  return wc_cr_raw_round_(y, 0.0, !(u - 0x3f800001u < 0x7f800000u - 0x3f800001u));
}

WC_INLINE float wc_atanh_raw_f32(float x) {
  WC_CR_CONTRACT_
  uint32_t u = wc_f32_to_bits(x);
  double   a = wc_cr_abs_clamp_(u, WC_ATANH_TOP_), op = 1.0 + a, om = 1.0 - a;
  uint64_t k = (wc_f64_to_bits(op) - wc_f64_to_bits(om) + ((uint64_t)1 << 51)) >> 52;
  double   kd = wc_bits_to_f64(0x4330000000000000u | k) - 0x1p52;
  double   tm = wc_bits_to_f64((k + 1023u) << 52) * om; /* 2^k (1 - a), exact */
  int      big = k != 0;
  double   y = 0.5 * wc_ahyp_raw_(kd, wc_sel_f64(big, op - tm, a), wc_sel_f64(big, op + tm, 1.0));
  float    r = wc_cr_raw_round_(y, WC_CR_RAW_TINY_, (u & 0x7fffffffu) >= 0x3f800000u);
  return wc_bits_to_f32(wc_f32_to_bits(r) | (u & 0x80000000u));
}

#ifdef __cplusplus
}
#endif
#endif
