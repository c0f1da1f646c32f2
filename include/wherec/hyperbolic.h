/* wherec/hyperbolic.h: sinh and cosh correctly rounded to nearest even for
   float, float16 and bfloat16, without libm and without a branch, computed as
   exp is (wherec/exp.h says how, and why the bits are the same everywhere):
   a pair h + l within a proven bound B of f(x), rounded to odd, then into the
   target; B is below the distance D of every input's f(x) from the format's
   rounding boundaries (tests/runtime/crmath_hardest.c). */
#ifndef WHEREC_HYPERBOLIC_H
#define WHEREC_HYPERBOLIC_H

#include <stdint.h>

#include "crmath.h"
#include "exp.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- exp(a) and exp(-a) --------------------------------------------------------
   E = exp(a) = (z + e) 2^K (exp_core_, within 2^-58.1 E), and 1/E = 2^-K /
   (z + e) as in tanh's 1/M: y0 = 1/z to 26 bits, c = 1 - y0 (z + e) (y0 z1
   and y0 (z - z1) exact: 26 + 26 and 26 + 27 bits, z1 = z to 26 bits; 1 - y0
   z1 exact, |c| <= 2^-24.9), 1/(z + e) = y0 (1 + c + c^2) within 2^-73, and
   E's error carries over: 2^-58.09. Each pair is scaled by 2^K or 2^-K (a in
   [0, 89.5]: 0 <= K <= 130), exactly. */
WC_INLINE void wc_exp_both_(double a, double *eh, double *el, double *rh, double *rl) {
  WC_CR_CONTRACT_
  double   e, z, y0, z1, c, q, r, up, down;
  uint64_t sc;
  z = wc_exp_core_(a, &e, &sc);
  y0 = wc_cr_trunc_(1.0 / z, 26);
  z1 = wc_cr_trunc_(z, 26);
  c = ((1.0 - y0 * z1) - y0 * (z - z1)) - y0 * e;
  q = y0 * (c + c * c) + 0.0; /* a sum: r and *rl read one value (exp.h) */
  r = y0 + q;
  up = wc_bits_to_f64(0x3ff0000000000000u + sc);
  down = wc_bits_to_f64(0x3ff0000000000000u - sc);
  *eh = z * up;
  *el = e * up;
  *rh = r * down;
  *rl = (q - (r - y0)) * down;
}

/* (eh + el) + s (rh + rl), s = +1 or -1, halved and rounded to odd at 53 bits:
   2Sum of the high parts (exact; |eh| > |rh| when s = -1, a >= 1/2), the low
   parts added (2^-104 of the sum), Fast2Sum. */
WC_INLINE double wc_hyp_odd_(double eh, double el, double rh, double rl) {
  WC_CR_CONTRACT_
  double s = eh + rh, bb = s - eh, se = (eh - (s - bb)) + (rh - bb);
  double l = se + (el + rl), h = s + l;
  return wc_cr_odd_(0.5 * h, 0.5 * (l - (h - s)));
}

/* ---- cosh and sinh ---------------------------------------------------------------
   a = |x| clamped to 89.5 (cosh and sinh overflow float from 89.42, the half
   formats sooner; a NaN x is the caller's), the sign put back on sinh.
   - cosh(a) = (E + 1/E)/2: both positive, B = 2^-58.08.
   - sinh(a) = (E - 1/E)/2 for a >= 1/2: the errors of E and 1/E are relative
     to E + 1/E, which is coth(a) <= coth(1/2) = 2.164 times the difference:
     B = 2^-57.0.
   - sinh(a) = a + a^3 P(a^2) for a < 1/2, P Taylor to a^12/15! (truncation
     2^-64.3 a): a^2 exact, a^3, P (its coefficients and Horner's steps) and
     the product within 4.2 * 2^-53 of a^3 P <= 0.042 a: B = 2^-55.5; (h, l)
     by Fast2Sum.
   D (crmath_hardest): cosh float 2^-53.3 (x = 0x1.deeeap-11), float16 2^-29.3,
   bfloat16 2^-20.1; sinh float 2^-54.3 (x = 0x1.250bfep-11, in the series' range),
   float16 2^-26.5, bfloat16 2^-20.1. */

#define WC_HYP_TOP_ 0x42b30000u /* 89.5f */

WC_INLINE double wc_cosh_odd_(double a) {
  double eh, el, rh, rl;
  wc_exp_both_(a, &eh, &el, &rh, &rl);
  return wc_hyp_odd_(eh, el, rh, rl);
}

WC_INLINE double wc_sinh_odd_(double a) {
  WC_CR_CONTRACT_
  double eh, el, rh, rl, a2 = a * a, p, t, hs;
  wc_exp_both_(a, &eh, &el, &rh, &rl);
  p = 0x1.5555555555555p-3 +
      a2 * (0x1.1111111111111p-7 + a2 * (0x1.a01a01a01a01ap-13 + a2 * (0x1.71de3a556c734p-19 +
      a2 * (0x1.ae64567f544e4p-26 + a2 * (0x1.6124613a86d09p-33 + a2 * 0x1.ae7f3e733b81fp-41)))));
  t = (a2 * a) * p + 0.0; /* a sum: hs and its error read one value (exp.h) */
  hs = a + t;
  return wc_sel_f64(a < 0.5, wc_cr_odd_(hs, t - (hs - a)), wc_hyp_odd_(eh, el, -rh, -rl));
}

WC_INLINE float wc_cosh_f32(float x) {
  float r = (float)wc_cosh_odd_(wc_cr_abs_clamp_(wc_f32_to_bits(x), WC_HYP_TOP_));
  return wc_sel_f32(x != x, wc_quiet_f32(x), r);
}
WC_INLINE wc_float16 wc_cosh_f16(wc_float16 a) {
  return wc_cr_f16_of_(a, wc_cosh_odd_(wc_cr_f16_abs_(a, WC_HYP_TOP_)), 0);
}
WC_INLINE wc_bfloat16 wc_cosh_bf16(wc_bfloat16 a) {
  return wc_cr_bf16_of_(a, wc_cosh_odd_(wc_cr_bf16_abs_(a, WC_HYP_TOP_)), 0);
}

WC_INLINE float wc_sinh_f32(float x) {
  uint32_t u = wc_f32_to_bits(x);
  float    r = (float)wc_sinh_odd_(wc_cr_abs_clamp_(u, WC_HYP_TOP_));
  r = wc_bits_to_f32(wc_f32_to_bits(r) | (u & 0x80000000u));
  return wc_sel_f32(x != x, wc_quiet_f32(x), r);
}
WC_INLINE wc_float16 wc_sinh_f16(wc_float16 a) {
  return wc_cr_f16_of_(a, wc_sinh_odd_(wc_cr_f16_abs_(a, WC_HYP_TOP_)), (uint16_t)(a & 0x8000u));
}
WC_INLINE wc_bfloat16 wc_sinh_bf16(wc_bfloat16 a) {
  return wc_cr_bf16_of_(a, wc_sinh_odd_(wc_cr_bf16_abs_(a, WC_HYP_TOP_)), (uint16_t)(a & 0x8000u));
}

/* ---- the raw forms (exp.h: a block's first pass) ------------------------------
   No table (no gather): a = |x| clamped to 89.5 as the exact forms', k the
   integer nearest a/ln2 (0 <= k <= 129; any neighbour would do), r = (a - k L1)
   - k L2 (expm1_plain_'s constants: k L1 and the difference exact, then one
   rounding: within u |r| + 2^-94, |r| <= H = ln2/2 (1 + 2^-40); r = a when k =
   0), z = r^2, and e^r = c + s, e^-r = c - s with c = cosh r = 1 + z C(z) and
   s = sinh r = r + (r z) S(z), C and S of degree 4 interpolating (cosh r -
   1)/z and (sinh(r)/r - 1)/z at the 5 Chebyshev nodes of z in [0, H^2]
   (crmath_tables.py hyp_raw_coefficients). e^a = 2^k (c + s) and e^-a = 2^-k
   (c - s), halved by 2^(k-1) and 2^(-k-1) (exact, normal doubles):
   - cosh a = the sum: e^r's and e^-r's errors (truncation, Horner's roundings
     at pointwise magnitudes, z's rounding, c + s or c - s, r's error) within
     2^-51.08 of each (c +- s >= 1/sqrt 2), then the sum: 2^-50.74.
   - sinh a = s when k = 0 (a < ln2/2: no cancellation, r = a exact): 2^-52.87;
     else the difference, whose terms' errors count coth a <= coth(ln2/2) = 3
     times: 2^-49.37.
   crmath_tables.py hyp_raw_bound. Each step bounded as if rounded, whatever
   contracts; under gcc fused by hand where the target has FMA (crmath.h's erf
   raw form says why). From 89.42 up (inf too) y overflows float as the exact
   forms' results do; sinh(-0) = -0; a subnormal sinh gives a NaN (exp.h), so
   does a NaN x. */
WC_INLINE double wc_hyp_raw_(double a, double *ch) {
  WC_CR_CONTRACT_
  double   m = WC_F_(a, 0x1.71547652b82fep+0, 0x1.8p52), kd = m - 0x1.8p52;
  uint64_t kb = wc_f64_to_bits(m) << 52; /* k << 52: bits(1.5*2^52) << 52 is 0 */
  double   r = WC_F_(kd, 0x1.0ca86c3898d00p-49, WC_F_(kd, -0x1.62e42fefa3a00p-1, a)), z = r * r;
  double   c = WC_F_(z, WC_F_(z, WC_F_(z, WC_F_(z, WC_F_(z, 0x1.28917c89a43bcp-22,
               0x1.a019b9149a41cp-16), 0x1.6c16c17889ef1p-10), 0x1.5555555553d68p-5),
               0x1.0000000000001p-1), 1.0);
  double   s = WC_F_(r * z, WC_F_(z, WC_F_(z, WC_F_(z, WC_F_(z, 0x1.af389ecfc4bb6p-26,
               0x1.71de0db2f6b19p-19), 0x1.a01a01a7c2efep-13), 0x1.11111111109b5p-7),
               0x1.5555555555556p-3), r);
  double   eh = (c + s) * wc_bits_to_f64(0x3fe0000000000000u + kb); /* 2^(k-1) */
  double   el = (c - s) * wc_bits_to_f64(0x3fe0000000000000u - kb); /* 2^(-k-1) */
  *ch = eh + el;
  return wc_sel_f64(kd == 0.0, s, eh - el);
}

WC_INLINE float wc_sinh_raw_f32(float x) {
  double ch;
  return wc_cr_raw_round_signed_(wc_hyp_raw_(wc_cr_abs_clamp_(wc_f32_to_bits(x), WC_HYP_TOP_), &ch), x);
}
WC_INLINE float wc_cosh_raw_f32(float x) {
  double ch;
  wc_hyp_raw_(wc_cr_abs_clamp_(wc_f32_to_bits(x), WC_HYP_TOP_), &ch);
  return wc_cr_raw_round_(ch, 0.0, x != x);
}

#ifdef __cplusplus
}
#endif
#endif
