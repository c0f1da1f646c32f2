/* wherec/activations.h: expm1, selu, softplus, softsign, silu and mish correctly rounded to
   nearest even for float, float16 and bfloat16, each as a whole (one rounding of the true
   value, where ONNX's formulas round exp(x) - 1 or log(exp(x) + 1) two or
   three times and cancel), without libm and without a branch, computed as
   exp is (wherec/exp.h says how, and why the bits are the same everywhere):
   a pair h + l within a proven bound B of f(x), rounded to odd, then into the
   target; B is below the distance D of every input's f(x) from the format's
   rounding boundaries (tests/runtime/crmath_hardest.c). u = 2^-53. */
#ifndef WHEREC_ACTIVATIONS_H
#define WHEREC_ACTIVATIONS_H

#include <stdint.h>

#include "crmath.h"
#include "exp.h"
#include "inverse_hyperbolic.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- expm1 -----------------------------------------------------------------------
   expm1(x) = e^x - 1, two ways, both computed, one selected:
   - |x| <= 3: 2T/(1 - T), T = tanh(x/2) (x/2 exact) = th + tl with x's sign,
     within 2^-64.1 |T| (crmath.h's pair). D = 1 - T by 2Sum (exact) and tl
     (rounded: 2^-105); T's error reaches D as |T|/D <= tanh(3/2)/(1 -
     tanh(3/2)) = 9.5 times (x > 0; below 1 for x < 0), so 2^-60.8 D. N/D, N =
     2T, as tanh's N/M (y0 = 1/dh to 26 bits, e = 1 - y0 D within 2^-76.9,
     |e| <= 2^-24.9, e^3 dropped; n1 y0 exact: 27 + 26 bits) within 2^-75.
     In all 2^-64.1 + 2^-60.8 + 2^-75 <= 2^-60.6 relative. No cancellation
     near 0: expm1(x) ~ x comes from 2T ~ x.
   - |x| > 3: E = e^x = (z + e) 2^K (exp.h: within 2^-58.1 E), x clamped to
     [-104, 89] (beyond, expm1 overflows every format or rounds to -1 in
     each: e^-104 < 2^-150); E - 1 by 2Sum (exact: scaling by 2^K is), the
     low parts added (u 2^-51.9 |E - 1|). E's error relative to E - 1 is
     E/|E - 1| <= e^3/(e^3 - 1) = 1.052 times E's: 2^-58.03.
   B = 2^-58.03. The sign of x is put on the rounded result (expm1(-0) = -0).
   D: see tests/runtime/CRMATH.md (crmath_hardest expm1). */

#define WC_EXPM1_MID_ 0x40400000u /* 3.0f: up to it, the tanh way */

/* expm1(x) = h + *lo within B (h = RN(h + *lo)), x's sign not yet put on (expm1(-0)
   gives +0); selu reads it too. */
WC_INLINE double wc_expm1_pair_(float x, double *lo) {
  WC_CR_CONTRACT_
  uint32_t u = wc_f32_to_bits(x);
  double   sg = wc_bits_to_f64(0x3ff0000000000000u | ((uint64_t)(u & 0x80000000u) << 32));
  double   tl, th = wc_tanh_pair_(0.5 * wc_cr_abs_clamp_(u, WC_EXPM1_MID_), &tl);
  double   t = sg * th, tlo = sg * tl, dh = 1.0 - t, bb = dh - 1.0;
  double   dl = ((1.0 - (dh - bb)) + (-t - bb)) - tlo, nh = t + t, nl = tlo + tlo;
  double   y0 = wc_cr_trunc_(1.0 / dh, 26), dh1 = wc_cr_trunc_(dh, 26), n1 = wc_cr_trunc_(nh, 27);
  double   e = ((1.0 - y0 * dh1) - y0 * (dh - dh1)) - y0 * dl, c2 = e + e * e;
  double   qh = n1 * y0, ql = (nh - n1) * y0 + ((nh + nl) * y0 * c2 + nl * y0), q = qh + ql;
  double   z, el, up, eh, s, sb, rl, hi;
  uint64_t sc;
  ql = ql - (q - qh);
  z = wc_exp_core_((double)wc_cr_clamp_(x, -104.0f, 89.0f), &el, &sc);
  up = wc_bits_to_f64(0x3ff0000000000000u + sc); /* 2^K */
  eh = z * up;
  s = eh - 1.0; /* E - 1 */
  sb = s - eh;
  rl = ((eh - (s - sb)) + (-1.0 - sb)) + el * up;
  hi = s + rl;
  rl = rl - (hi - s);
  *lo = wc_sel_f64((u & 0x7fffffffu) <= WC_EXPM1_MID_, ql, rl);
  return wc_sel_f64((u & 0x7fffffffu) <= WC_EXPM1_MID_, q, hi);
}

WC_INLINE double wc_expm1_odd_(float x) {
  double l, h = wc_expm1_pair_(x, &l);
  return wc_cr_odd_(h, l);
}

WC_INLINE float wc_expm1_f32(float x) {
  uint32_t u = wc_f32_to_bits(x);
  float    r = wc_bits_to_f32(wc_f32_to_bits((float)wc_expm1_odd_(x)) | (u & 0x80000000u));
  return wc_sel_f32(x != x, wc_quiet_f32(x), r);
}
WC_INLINE wc_float16 wc_expm1_f16(wc_float16 a) {
  return wc_cr_f16_of_(a, wc_expm1_odd_((float)wc_cr_f16_in_(a)), (uint16_t)(a & 0x8000u));
}
WC_INLINE wc_bfloat16 wc_expm1_bf16(wc_bfloat16 a) {
  return wc_cr_bf16_of_(a, wc_expm1_odd_(wc_bf16_to_f32(a)), (uint16_t)(a & 0x8000u));
}

/* expm1 in plain double (exp.h's raw forms): wc_expm1_plain_, within
   2^-49.0 |expm1(x)|, x clamped to [-104, 89] (above, it overflows:
   expm1(89) > 2^128.4; below, it rounds to -1, as every result from -17.33
   down, a normal float). x's sign is put on (expm1(-0) = -0, where y is +0);
   below 2^-126 in magnitude y = x (x^2/2 is below half its ulp in double),
   which is the rounding of expm1(x) for a negative x, and the NaN for a
   positive one (the subnormal rule); a NaN x gives the NaN. */
WC_INLINE float wc_expm1_raw_f32(float x) {
  float r = wc_cr_raw_round_(wc_expm1_plain_((double)wc_cr_clamp_(x, -104.0f, 89.0f)),
                             WC_CR_RAW_TINY_, x != x);
  return wc_bits_to_f32(wc_f32_to_bits(r) | (wc_f32_to_bits(x) & 0x80000000u));
}

/* ---- selu ------------------------------------------------------------------------
   selu(x) = G x for x > 0 and G A (e^x - 1) for x <= 0, ONNX's Selu with its default
   floats A = 1.67326319217681884765625 (0x1.ac5afap+0) and G = 1.05070102214813232421875
   (0x1.0cfabep+0), the exact values of those floats, rounded once (ONNX's formula rounds
   e^x, the difference and two products). x > 0: G x is exact in double (24 + 24 bits)
   and rounds once into the target (B = 0; above the format's largest finite value / G it
   overflows to inf, as G x does: x is clamped to FLT_MAX, G FLT_MAX > 2^128 still
   overflows every format). x <= 0: expm1's pair E = eh + el (within 2^-58.03, above; x
   clamped to -104, where G A (e^x - 1) rounds to -RN(G A) in every format: e^-104 <
   2^-150 and G A, 47 bits, is no midpoint), then A (eh + el) and G times that pair as
   silu's split product (crmath.h's wc_cr_mul_pair_: 2^-80.9 each), the pair's sign that
   of x (selu(-0) = -0, selu(+0) = +0): B = 2^-58.02. selu(-inf) = -RN(G A)
   (-1.7580993 in float), selu(+inf) = +inf, a NaN gives its quiet NaN. Tiny x: G A x (1
   + x/2 + ...) with nothing cancelled (expm1's pair has no cancellation near 0). D
   (crmath_hardest selu, x <= 0, every input with subnormal results too): float 2^-55.4
   (-0x1.d0c176p-5), float16 2^-23.8, bfloat16 2^-18.9: all above B. */

#define WC_SELU_ALPHA_ 0x1.ac5afap+0 /* 1.67326319217681884765625, ONNX's alpha */
#define WC_SELU_GAMMA_ 0x1.0cfabep+0 /* 1.05070102214813232421875, ONNX's gamma */

WC_INLINE double wc_selu_odd_(float x) {
  WC_CR_CONTRACT_
  uint32_t u = wc_f32_to_bits(x);
  float    xc = wc_cr_clamp_(x, -104.0f, 0x1.fffffep127f);
  double   el, eh = wc_expm1_pair_(wc_sel_f32(xc > 0.0f, 0.0f, xc), &el), pl, ql;
  double   p = wc_cr_mul_pair_(WC_SELU_ALPHA_, eh, el, &pl);
  double   q = wc_cr_mul_pair_(WC_SELU_GAMMA_, p, pl, &ql);
  uint64_t sign = (uint64_t)(u & 0x80000000u) << 32;
  double   neg = wc_bits_to_f64(wc_f64_to_bits(wc_cr_odd_(q, ql)) | sign);
  return wc_sel_f64(xc > 0.0f, WC_SELU_GAMMA_ * (double)xc, neg);
}

WC_INLINE float wc_selu_f32(float x) {
  return wc_sel_f32(x != x, wc_quiet_f32(x), (float)wc_selu_odd_(x));
}
WC_INLINE wc_float16 wc_selu_f16(wc_float16 a) {
  return wc_cr_f16_of_(a, wc_selu_odd_((float)wc_cr_f16_in_(a)), 0u);
}
WC_INLINE wc_bfloat16 wc_selu_bf16(wc_bfloat16 a) {
  return wc_cr_bf16_of_(a, wc_selu_odd_(wc_bf16_to_f32(a)), 0u);
}

/* selu in plain double (exp.h's raw forms): G x (exact) rounded for x > 0; below, G A
   times expm1's plain form (2^-49.0) in one rounded product (G A is exact in double,
   47 bits): 2^-48.9 |selu(x)|, x clamped to -104 as above. Subnormal results (|x| <
   2^-126.8) and NaN give the NaN (wc_cr_raw_round_signed_, x's sign put on). */
WC_INLINE float wc_selu_raw_f32(float x) {
  float  xn = wc_sel_f32(x < -104.0f, -104.0f, wc_sel_f32(x > 0.0f, 0.0f, x));
  double e = wc_expm1_plain_((double)xn);
  float  r = wc_cr_raw_round_signed_((WC_SELU_ALPHA_ * WC_SELU_GAMMA_) * e, x);
  return wc_sel_f32(x > 0.0f, (float)(WC_SELU_GAMMA_ * (double)x), r);
}

/* ---- softplus --------------------------------------------------------------------
   softplus(x) = log(1 + e^x) = max(x, 0) + log1p(E), E = e^-|x| in (0, 1]:
   no cancellation (both terms >= 0). a = |x| clamped to 104 (beyond, e^-a <
   2^-150: softplus rounds to x above, to +0 below, in every format); E = (z +
   e) 2^K within 2^-58.1 E (exp.h), eh = z 2^K, el = e 2^K. L = log1p(E), two
   ways, both computed, one selected:
   - eh >= 2^-20: log V, V = 1 + E by 2Sum (exact) and el (rounded: 2^-104
     V), by inverse_hyperbolic.h's log of a pair (V >= 1 + 2^-20 as it asks):
     BL = 2^-59.41, plus E's error, 2^-58.1 E/(1 + E) of V, which is at most
     2^-58.1 of log V (log(1 + E) >= E/(1 + E)), plus 2^-102/log V <= 2^-82:
     2^-57.61.
   - eh < 2^-20: E - E^2/2 + E^3/3 (truncation E^4/4 <= 2^-62 E); eh^2 (-1/2
     + eh/3) within 4u of itself (<= 2^-21 E), el added (u 2^-21 E), then
     Fast2Sum with eh: E's error 2^-58.1 (L <= E) and 2^-62 + 2^-72: 2^-58.0.
   m + L (m = max(x, 0), exact): 2Sum, the low parts added, Fast2Sum: u^2.
   L <= m + L, so B = 2^-57.61. D: tests/runtime/CRMATH.md. */

#define WC_SOFTPLUS_TOP_ 0x42d00000u /* 104.0f */

/* softplus(x) = h + *lo within B (h = RN(h + *lo)), a = |x| clamped to 104 (112 for
   mish: exp_core_ holds up to |a| < 177, E >= 2^-162). */
WC_INLINE double wc_softplus_pair_(float x, double a, double *lo) {
  WC_CR_CONTRACT_
  double   e, z, up, eh, el, vh, vb, vl, hi, g, gh, m, rh, rb, rl, h;
  uint64_t sc;
  z = wc_exp_core_(-a, &e, &sc);
  up = wc_bits_to_f64(0x3ff0000000000000u + sc); /* 2^K */
  eh = z * up;
  el = e * up;
  vh = 1.0 + eh; /* V = 1 + E */
  vb = vh - 1.0;
  vl = ((1.0 - (vh - vb)) + (eh - vb)) + el;
  hi = wc_ahyp_log_(vh, vl, lo);
  g = (eh * eh) * (-0.5 + eh * 0x1.5555555555555p-2) + el; /* the series, below 2^-20 */
  gh = eh + g;
  g = g - (gh - eh);
  hi = wc_sel_f64(eh < 0x1p-20, gh, hi);
  *lo = wc_sel_f64(eh < 0x1p-20, g, *lo);
  m = wc_sel_f64(x > 0.0f, (double)x, 0.0); /* m + L */
  rh = m + hi;
  rb = rh - m;
  rl = ((m - (rh - rb)) + (hi - rb)) + *lo;
  h = rh + rl;
  *lo = rl - (h - rh);
  return h;
}

WC_INLINE double wc_softplus_odd_(float x) {
  double l, h = wc_softplus_pair_(x, wc_cr_abs_clamp_(wc_f32_to_bits(x), WC_SOFTPLUS_TOP_), &l);
  return wc_cr_odd_(h, l);
}

WC_INLINE float wc_softplus_f32(float x) {
  float r = wc_sel_f32(x > 104.0f, x, (float)wc_softplus_odd_(x));
  return wc_sel_f32(x != x, wc_quiet_f32(x), r);
}
WC_INLINE wc_float16 wc_softplus_f16(wc_float16 a) {
  float x = (float)wc_cr_f16_in_(a);
  return wc_cr_f16_or_x_(a, x, 104.0f, wc_softplus_odd_(x));
}
WC_INLINE wc_bfloat16 wc_softplus_bf16(wc_bfloat16 a) {
  float x = wc_bf16_to_f32(a);
  return wc_cr_bf16_or_x_(a, x, 104.0f, wc_softplus_odd_(x));
}

/* log1p e in plain double for e in [0, 1] (softplus's e^-|x|), without a
   table (no gather): 2 atanh(s), s = e/(2 + e) in [0, 1/3], = t + t z P(z),
   t = 2s, z = s^2, P = 1/3 + z/5 + ... + z^13/29 by Estrin's scheme. s
   within 2u plus e's error (scaled by 2/(2 + e) <= 1), which reaches L =
   log1p e scaled by 2s/((1 - s^2) L) <= 1.08; truncation z^15/31/(1 - z)
   <= 2^-52.3 (1.62u); z P <= 0.042 is within 8u of itself (z, P's 5u, the
   two products), and the last addition u: 1.08 (e's error + 2u) + 3.7u. No
   cancellation near e = 0: L = t (1 + z P). */
WC_INLINE double wc_log1p_plain_(double e) {
  WC_CR_CONTRACT_
  double s = e / (2.0 + e), z = s * s, z2 = z * z, z4 = z2 * z2, t = s + s;
  double p = ((0x1.5555555555555p-2 + z * 0x1.999999999999ap-3) +
              z2 * (0x1.2492492492492p-3 + z * 0x1.c71c71c71c71cp-4)) +
             z4 * ((0x1.745d1745d1746p-4 + z * 0x1.3b13b13b13b14p-4) +
                   z2 * (0x1.1111111111111p-4 + z * 0x1.e1e1e1e1e1e1ep-5));
  double p8 = ((0x1.af286bca1af28p-5 + z * 0x1.8618618618618p-5) +
               z2 * (0x1.642c8590b2164p-5 + z * 0x1.47ae147ae147bp-5)) +
              z4 * (0x1.2f684bda12f68p-5 + z * 0x1.1a7b9611a7b96p-5);
  return t + t * (z * (p + (z4 * z4) * p8));
}

/* softplus in plain double (exp.h's raw forms): m + L, m = max(x, 0) exact,
   L = log1p(E) (wc_log1p_plain_: 1.08 (2^-51.3 + 2u) + 3.7u <= 2^-49.7 L),
   E = e^-a (exp_plain_: 2^-51.3 E), a = |x| clamped to 104; L <= m + L and
   the sum's rounding: 2^-49.6 in all. Beyond 104: x + e^-104 is x in double
   above, and e^-104 < 2^-150 (1 - 2^-40) rounds to +0 below. Subnormal
   results (x from -103.97 to -87.34) and NaN give the NaN. */
WC_INLINE float wc_softplus_raw_f32(float x) {
  double e = wc_exp_plain_(-wc_cr_abs_clamp_(wc_f32_to_bits(x), WC_SOFTPLUS_TOP_));
  double y = wc_sel_f64(x > 0.0f, (double)x, 0.0) + wc_log1p_plain_(e);
  return wc_cr_raw_round_(y, WC_CR_RAW_TINY_, x != x);
}

/* ---- softsign --------------------------------------------------------------------
   softsign(x) = x/(1 + |x|) is odd: a = |x| clamped to 2^26 (from 2^25 on it rounds to 1
   in every format: 1 - 1/(1 + a) > 1 - 2^-25, the midpoint below 1; a NaN x is the
   caller's), the sign put back on the rounded result. D = 1 + a by 2Sum (dh + dl
   exactly), then a/D as tanh's N/M with N = a (24 bits, exact): y0 = 1/dh to 26 bits,
   e = 1 - y0 D (y0 dh1 and y0 (dh - dh1) exact: 26 + 26 and 26 + 27 bits; 1 - y0 dh1
   exact, Sterbenz; y0 dl rounded: e within 2^-76.9), |e| <= 2^-24.9; a/D = a y0 / (1 -
   e) = h + l, h = a y0 exact (24 + 26 bits), l = h (e + e^2) (u |l| <= 2^-77.9 h),
   e^3/(1 - e) dropped (2^-74.6): B = 2^-73.9. Near 0 nothing cancels: a/D = a - a^2 +
   ... from h = a. */

#define WC_SOFTSIGN_TOP_ 0x4c800000u /* 2^26 */

WC_INLINE double wc_softsign_odd_(double a) {
  WC_CR_CONTRACT_
  double dh = 1.0 + a, bb = dh - 1.0, dl = (1.0 - (dh - bb)) + (a - bb);
  double y0 = wc_cr_trunc_(1.0 / dh, 26), dh1 = wc_cr_trunc_(dh, 26);
  double e = ((1.0 - y0 * dh1) - y0 * (dh - dh1)) - y0 * dl;
  double h = a * y0, l = h * (e + e * e) + 0.0; /* a sum: s and its error read one value */
  double s = h + l;
  return wc_cr_odd_(s, l - (s - h));
}

WC_INLINE float wc_softsign_f32(float x) {
  uint32_t u = wc_f32_to_bits(x);
  float    r = (float)wc_softsign_odd_(wc_cr_abs_clamp_(u, WC_SOFTSIGN_TOP_));
  r = wc_bits_to_f32(wc_f32_to_bits(r) | (u & 0x80000000u));
  return wc_sel_f32(x != x, wc_quiet_f32(x), r);
}
WC_INLINE wc_float16 wc_softsign_f16(wc_float16 a) {
  return wc_cr_f16_of_(a, wc_softsign_odd_(wc_cr_f16_abs_(a, WC_SOFTSIGN_TOP_)),
                       (uint16_t)(a & 0x8000u));
}
WC_INLINE wc_bfloat16 wc_softsign_bf16(wc_bfloat16 a) {
  return wc_cr_bf16_of_(a, wc_softsign_odd_(wc_cr_bf16_abs_(a, WC_SOFTSIGN_TOP_)),
                        (uint16_t)(a & 0x8000u));
}

/* ---- silu ------------------------------------------------------------------------
   silu(x) = x sigmoid(x) (SiLU, Swish with beta 1), rounded once. x clamped to [-112,
   18]: above 18 silu(x) = x (1 - e^-x + ...) rounds to x in every format (x e^-x <
   2^-25.9 x, below the half ulp under x); below -112 |silu(x)| < 2^-154.8 rounds to -0,
   as silu(-112) does. sigmoid(x) = sh + sl within crmath.h's bound Bs (its pair; exp_core_
   holds up to |x| < 177), then x (sh + sl): s1 = sh to 29 bits, x s1 exact (24 + 29
   bits), x (sh - s1) exact (24 + 24 bits), x sl rounded (u^2 |x sh|) and added (u
   2^-28 |x sh|), Fast2Sum: B = Bs + 2^-80.9, i.e. 2^-58.09 where sigmoid takes exp
   (|x| >= 2^-6), 2^-49.5 |x^3/48| + 2^-80.9 <= 2^-73.1 in its series (2^-11 <= |x| <
   2^-6) and 2^-80.9 below 2^-11. D (crmath_hardest silu:MIN) is above these from 2^-24
   up: silu = x/2 + x^2/4 - x^4/48 + ..., and near 2^-23 x/2 + x^2/4 is a midpoint at a
   distance of about x^4/48 (relative x^3/24 >= 2^-76.6).
   Below 2^-24 no bound decides (x/2 is a midpoint when subnormal: silu(2^-149) = 2^-150
   + 2^-300), the structure does: x = m 2^q (m of 24 bits, q <= -48), x/2 + x^2/4 and
   the midpoints and representables near x/2 are multiples of 2^(2q-2), the latter
   2^(q-25) |x/2| apart at least, and silu lies strictly between x/2 and x/2 + x^2/2, an
   interval with no midpoint or representable inside, and so does h + l: its error is
   p2's two roundings, u |p2| (|p2| <= 2^-29 |x|; x^2/2 once s1 = 1/2, |x| < 2^-27) and
   u |x sl| (|sl| <= u/2, or x/4 once sh = 1/2, |x| < 2^-52), at most 2^(q-30) |x/2|
   in each range, below the distance x^2/4 of silu from x/2 and below 2^(q-25) |x/2|. */

WC_INLINE double wc_silu_odd_(float x) {
  WC_CR_CONTRACT_
  float    xc = wc_cr_clamp_(x, -112.0f, 18.0f);
  double   sl, sh = wc_sigmoid_pair_(xc, &sl), pl, p = wc_cr_mul_pair_((double)xc, sh, sl, &pl);
  uint64_t sign = (uint64_t)(wc_f32_to_bits(x) & 0x80000000u) << 32; /* silu(-0) = -0 */
  return wc_bits_to_f64(wc_f64_to_bits(wc_cr_odd_(p, pl)) | sign);
}

WC_INLINE float wc_silu_f32(float x) {
  float r = wc_sel_f32(x > 18.0f, x, (float)wc_silu_odd_(x));
  return wc_sel_f32(x != x, wc_quiet_f32(x), r);
}
WC_INLINE wc_float16 wc_silu_f16(wc_float16 a) {
  float x = (float)wc_cr_f16_in_(a);
  return wc_cr_f16_or_x_(a, x, 18.0f, wc_silu_odd_(x));
}
WC_INLINE wc_bfloat16 wc_silu_bf16(wc_bfloat16 a) {
  float x = wc_bf16_to_f32(a);
  return wc_cr_bf16_or_x_(a, x, 18.0f, wc_silu_odd_(x));
}

/* silu in plain double (exp.h's raw forms): x/(1 + E), E = e^-x within
   2^-51.3 E (exp_plain_, whose steps hold up to |x| < 177 as exp_core_'s),
   E's error scaled by E/(1 + E) < 1, the sum and the quotient within 2^-53
   each: 2^-50.6. x is clamped to -112 (below, silu(-112), |y| < 2^-154.8,
   rounds to -0 as silu(x) does) and E's argument to -18: above 18, y = x/(1
   + e^-18) (1 + 2^-50.6) and silu(x) both lie in [x (1 - 2^-25.9), x], with
   no float midpoint (the half ulp under x is 2^-25 x at least): both round
   to x, as the exact form selects, and y is 2^-2.1 ulp or more from the
   midpoint (+-inf: inf and -0). Subnormal results (|x| < 2^-125, and x from
   about -109 to -92) and NaN give the NaN. */
WC_INLINE float wc_silu_raw_f32(float x) {
  float  xl = wc_sel_f32(x < -112.0f, -112.0f, x); /* the clamps on floats: no mask widening */
  double e = wc_exp_plain_((double)-wc_sel_f32(xl > 18.0f, 18.0f, xl));
  return wc_cr_raw_round_signed_((double)xl / (1.0 + e), x);
}

/* ---- mish ------------------------------------------------------------------------
   mish(x) = x tanh(softplus(x)), rounded once. Above 9.1, x: softplus(x) >= x and
   tanh(9.1) > 1 - 2^-25.6, so x (1 - 2^-25.6) at least, which rounds to x in every
   format (the half ulp under x is 2^-25 x at least). Below -112, -0 (|mish(x)| <
   |x| e^x < 2^-154.8, and so at -112). Otherwise S = softplus(x) = sh + sl within
   2^-57.61 S (its pair above, |x| clamped to 112), T = tanh(S) = tanh(sh) + sl (1 -
   tanh(sh)^2) + O(sl^2): tanh(sh) = th + tl within 2^-64.1 (crmath.h's pair: any
   double in [0, 9.1]; sh is clamped there too, for the inputs whose result is
   selected), the correction (|.| <= u S (1 - T^2) <= u T: S (1 - T^2) <= T) within 3u of
   itself, Fast2Sum. S's error reaches T as S (1 - T^2)/T <= 1 times: 2^-57.61 + 2^-64.1
   + 2^-104 <= 2^-57.59 T. Then x T as silu's x sigmoid(x) (2^-80.9): B = 2^-57.58.
   mish keeps x's sign (tanh(S) > 0). D: tests/runtime/CRMATH.md. */

#define WC_MISH_TOP_ 0x42e00000u /* 112.0f */

WC_INLINE double wc_mish_odd_(float x) {
  WC_CR_CONTRACT_
  uint32_t u = wc_f32_to_bits(x);
  double   sl, sh = wc_softplus_pair_(x, wc_cr_abs_clamp_(u, WC_MISH_TOP_), &sl);
  double   tl, th = wc_tanh_pair_(wc_sel_f64(sh < 9.1, sh, 9.1), &tl), t, t1, xd, p1, p2, p;
  tl = tl + sl * (1.0 - th * th);
  t = th + tl;
  tl = tl - (t - th);
  t1 = wc_cr_trunc_(t, 29);
  xd = (double)wc_cr_clamp_(x, -112.0f, 9.1f);
  p1 = xd * t1;
  p2 = xd * (t - t1) + xd * tl;
  p = p1 + p2;
  return wc_bits_to_f64(wc_f64_to_bits(wc_cr_odd_(p, p2 - (p - p1))) |
                        ((uint64_t)(u & 0x80000000u) << 32));
}

WC_INLINE float wc_mish_f32(float x) {
  float r = wc_sel_f32(x > 9.1f, x, (float)wc_mish_odd_(x));
  return wc_sel_f32(x != x, wc_quiet_f32(x), r);
}
WC_INLINE wc_float16 wc_mish_f16(wc_float16 a) {
  float x = (float)wc_cr_f16_in_(a);
  return wc_cr_f16_or_x_(a, x, 9.1f, wc_mish_odd_(x));
}
WC_INLINE wc_bfloat16 wc_mish_bf16(wc_bfloat16 a) {
  float x = wc_bf16_to_f32(a);
  return wc_cr_bf16_or_x_(a, x, 9.1f, wc_mish_odd_(x));
}

/* mish in plain double (exp.h's raw forms), without a log: tanh(log(1 + E))
   = n/(n + 2), n = E (E + 2), E = e^x (exp_plain_: 2^-51.3 E), no
   cancellation (all positive). n within 2 * 2^-51.3 + 2u (E's error scaled by
   (2E + 2)/(E + 2) < 2, two roundings), n/(n + 2) scales it by 2/(n + 2) <= 1,
   then (x n)/(n + 2): three roundings (a fused n + 2 from the exact product
   is as good): 2^-50.3 + 5u <= 2^-49.5 |mish(x)|. x is clamped to -112
   (below, mish(-112), |y| < 2^-154.8, rounds to -0 as mish(x) does) and E's
   argument to 9.1: above 9.1, y = x n/(n + 2) with 2/(n + 2) = 2^-25.26 at
   9.1, and mish(x) both lie in [x (1 - 2^-25.25), x], with no float midpoint
   (the half ulp under x is 2^-25 x at least): both round to x, as the exact
   form selects, and y is 2^-3.6 ulp or more from the midpoint. Subnormal
   results (|x| < 2^-125.2, and x from about -109 to -92) and NaN give the
   NaN. */
WC_INLINE float wc_mish_raw_f32(float x) {
  float  xl = wc_sel_f32(x < -112.0f, -112.0f, x); /* the clamps on floats: no mask widening */
  double e = wc_exp_plain_((double)wc_sel_f32(xl > 9.1f, 9.1f, xl)), n = e * (e + 2.0);
  return wc_cr_raw_round_signed_(((double)xl * n) / (n + 2.0), x);
}

#ifdef __cplusplus
}
#endif
#endif
