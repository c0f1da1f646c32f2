/* wherec/inverse_trig.h: asin, acos and atan correctly rounded to nearest even
   for float, float16 and bfloat16, without libm and without a branch, computed
   as exp is (wherec/exp.h says how, and why the bits are the same everywhere):
   a pair h + l within a proven bound B of f(x), rounded to odd, then into the
   target; B is below the distance D of every input's f(x) from the format's
   rounding boundaries (tests/runtime/crmath_hardest.c). The constants were
   computed with mpmath at 300 bits (pairs: the value rounded to a double, then
   the remainder rounded; within 2^-106 of the value): crmath_tables.py atan
   and asin in tests/runtime. u = 2^-53 below. */
#ifndef WHEREC_INVERSE_TRIG_H
#define WHEREC_INVERSE_TRIG_H

#include <stdint.h>

#include "crmath.h"
#include "exp.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- atan ----------------------------------------------------------------------
   atan is odd: a = |x| clamped to 2^64 (atan(a) is within 1/a of pi/2, which
   is 2^-25.9 away from every float midpoint and farther from the half
   formats' ones, so every a >= 2^64, inf too, rounds as 2^64 does: pi/2
   rounded, float 0x3fc90fdb), the sign put back on the rounded result.
   t = u/v, (u, v) = (a, 1) when a <= 1, (1, a) when a > 1; c = i/64 the
   nearest to q = RN(u/v) (i <= 64, |t - c| <= 2^-7 + 2^-53), and
     atan(t) = atan(c) + atan(d),  d = (t - c)/(1 + t c) = N/M,
     N = u - v c,  M = v + u c,
   both exact: when i = 0, N = u and M = v; when i >= 1 and a <= 1: a > 2^-7,
   a c is exact (24 + 7 bits), a multiple of 2^-36 below 1, so M = 1 + a c is
   one below 2 (37 bits), and N = a - c by Sterbenz (|a - c| <= 2^-7 <= c/2);
   when i >= 1 and a > 1: a < 128, a c is a multiple of 2^-29 below 2, N = 1
   - a c one below 2, M = a + c a multiple of 2^-23 below 2^8 (31 bits). So
   contracting v*c and u*c changes nothing. atan(a) = T + s atan(d), (T, s) =
   (atan(c), 1) when a <= 1, (pi/2 - atan(c), -1) when a > 1: one table of T
   = TH + TL (within 2^-106 T) indexed by i and a > 1. |d| <= |t - c|.
   - d = dh + dl: dh = N/M rounded (u = 2^-53) and truncated to 15 bits (<
     2^-14 relative), so dh*M is exact (15 + 37 bits) and within 2^-13.9 of
     N: r = N - dh*M is exact (Sterbenz; fused, exact too), dl = r/M within
     u |dl| <= 2^-67 |d|.
   - atan(d) = d + p, p = d^3 (-1/3 + d^2/5 - d^4/7 + d^6/9) (Taylor,
     truncation <= |d|^11/11 <= 2^-73.5 |d|), evaluated at e = RN(dh + dl)
     (within 1.0001 u |d| of d; p's derivative, <= d^2 <= 2^-14, makes that
     2^-67 |d|); e^2 and e^3 (2u), the coefficient 1/3 (u/2), Horner (its
     inner terms below 2^-15 of it) and the product: |p| <= 2^-15.58 |d|
     within 5.2 u |p| = 2^-66.2 |d|.
   - S = TH + s dh exactly with its error err (Fast2Sum: TH >= atan(1/64)
     > |dh|, or TH = 0); low = err + (TL + s (dl + p)): dl + p (<= 2^-13.58
     |d|) rounded within 2^-66.58 |d|, the other two additions within u (|TL|
     + 2^-13.58 |d|) and u |low| (|err| <= u |S|, |TL| <= u |TH|); h + l = S
     + low exactly (Fast2Sum).
   In all |h + l - atan(a)| <= 2^-64.0 |d| + 2^-105 (|T| + |S|). Relative to
   atan(a): when a <= 1, |d| <= 1.0001 atan(a) (i = 0: d = a; i >= 1: |d| <=
   2^-7 <= 1.0001 atan(2^-7) < 1.0001 atan(a)), T = atan(c) <= atan(a) + |d|
   and S <= T + |d|: B = 2^-63.9; when a > 1, atan(a) >= pi/4 >= 2^6.6 |d|
   and T, S <= 1.01 atan(a): B = 2^-70. Tiny and subnormal x: d = a exactly,
   every step is relative (a^3 >= 2^-447, a normal double): B holds there too.
   D (crmath_hardest): float 2^-55.1 (x = 0x1.1ad646p-4), float16 2^-27.4,
   bfloat16 2^-19.8. */

static const double wc_atan_tab_[4 * 65] = { /* atan(i/64), then pi/2 - atan(i/64) = TH + TL */
    0x0.0p+0, 0x0.0p+0, 0x1.fff555bbb729bp-7, -0x1.220c39d4dff50p-61,
    0x1.ffd55bba97625p-6, -0x1.5ec431444912cp-60, 0x1.7fb818430da2ap-5, -0x1.86ef8f794f105p-63,
    0x1.ff55bb72cfdeap-5, -0x1.c934d86d23f1dp-60, 0x1.3f59f0e7c559dp-4, 0x1.ac4ce285df847p-58,
    0x1.7ee182602f10fp-4, -0x1.cfb654c0c3d98p-58, 0x1.be39ebe6f07c3p-4, 0x1.f7b8f29a05987p-58,
    0x1.fd5ba9aac2f6ep-4, -0x1.cd37686760c17p-59, 0x1.1e1fafb043727p-3, -0x1.b485914dacf8cp-59,
    0x1.3d6eee8c6626cp-3, 0x1.61a3b0ce9281bp-57, 0x1.5c9811e3ec26ap-3, -0x1.054ab2c010f3dp-58,
    0x1.7b97b4bce5b02p-3, 0x1.347b0b4f881cap-58, 0x1.9a6a8e96c8626p-3, 0x1.cf601e7b4348ep-59,
    0x1.b90d7529260a2p-3, 0x1.17b10d2e0e5abp-61, 0x1.d77d5df205736p-3, 0x1.c648d1534597ep-57,
    0x1.f5b75f92c80ddp-3, 0x1.8ab6e3cf7afbdp-57, 0x1.09dc597d86362p-2, 0x1.62e47390cb865p-56,
    0x1.18bf5a30bf178p-2, 0x1.30ca4748b1bf9p-57, 0x1.278372057ef46p-2, -0x1.077cdd36dfc81p-56,
    0x1.362773707ebccp-2, -0x1.963a544b672d8p-57, 0x1.44aa436c2af0ap-2, -0x1.5d5e43c55b3bap-56,
    0x1.530ad9951cd4ap-2, -0x1.2566480884082p-57, 0x1.614840309cfe2p-2, -0x1.a725715711f00p-56,
    0x1.6f61941e4def1p-2, -0x1.c63aae6f6e918p-56, 0x1.7d5604b63b3f7p-2, 0x1.69c885c2b249ap-56,
    0x1.8b24d394a1b25p-2, 0x1.b6d0ba3748fa8p-56, 0x1.98cd5454d6b18p-2, 0x1.9e6c988fd0a77p-56,
    0x1.a64eec3cc23fdp-2, -0x1.24dec1b50b7ffp-56, 0x1.b3a911da65c6cp-2, 0x1.ae187b1ca5040p-56,
    0x1.c0db4c94ec9f0p-2, -0x1.cc1ce70934c34p-56, 0x1.cde53432c1351p-2, -0x1.a2cfa4418f1adp-56,
    0x1.dac670561bb4fp-2, 0x1.a2b7f222f65e2p-56, 0x1.e77eb7f175a34p-2, 0x1.0e53dc1bf3435p-56,
    0x1.f40dd0b541418p-2, -0x1.a3992dc382a23p-57, 0x1.0039c73c1a40cp-1, -0x1.b32c949c9d593p-55,
    0x1.0657e94db30d0p-1, -0x1.d5b495f6349e6p-56, 0x1.0c6145b5b43dap-1, 0x1.974fa13b5404fp-58,
    0x1.1255d9bfbd2a9p-1, -0x1.2bdaee1c0ee35p-58, 0x1.1835a88be7c13p-1, 0x1.c621cec00c301p-55,
    0x1.1e00babdefeb4p-1, -0x1.928df287a668fp-58, 0x1.23b71e2cc9e6ap-1, 0x1.c421c9f38224ep-57,
    0x1.2958e59308e31p-1, -0x1.09e73b0c6c087p-56, 0x1.2ee628406cbcap-1, 0x1.c5d5e9ff0cf8dp-55,
    0x1.345f01cce37bbp-1, 0x1.1021137c71102p-55, 0x1.39c391cd4171ap-1, -0x1.2304331d8bf46p-55,
    0x1.3f13fb89e96f4p-1, 0x1.ecf8b492644f0p-56, 0x1.445065b795b56p-1, -0x1.f76d0163f79c8p-56,
    0x1.4978fa3269ee1p-1, 0x1.2419a87f2a458p-56, 0x1.4e8de5bb6ec04p-1, 0x1.4a33dbeb3796cp-55,
    0x1.538f57b89061fp-1, -0x1.1bb74abda520cp-55, 0x1.587d81f732fbbp-1, -0x1.5e5c9d8c5a950p-56,
    0x1.5d58987169b18p-1, 0x1.0028e4bc5e7cap-57, 0x1.6220d115d7b8ep-1, -0x1.2b785350ee8c1p-57,
    0x1.66d663923e087p-1, -0x1.6ea6febe8bbbap-56, 0x1.6b798920b3d99p-1, -0x1.a80386188c50ep-55,
    0x1.700a7c5784634p-1, -0x1.8c34d25aadef6p-56, 0x1.748978fba8e0fp-1, 0x1.7b2a6165884a1p-59,
    0x1.78f6bbd5d315ep-1, 0x1.406a089803740p-55, 0x1.7d528289fa093p-1, 0x1.560821e2f3aa9p-55,
    0x1.819d0b7158a4dp-1, -0x1.bf76229d3b917p-56, 0x1.85d69576cc2c5p-1, 0x1.6b66e7fc8b8c3p-57,
    0x1.89ff5ff57f1f8p-1, -0x1.55b9a5e177a1bp-55, 0x1.8e17aa99cc05ep-1, -0x1.ec182ab042f61p-56,
    0x1.921fb54442d18p-1, 0x1.1a62633145c07p-55, 0x1.921fb54442d18p+0, 0x1.1a62633145c07p-54,
    0x1.8e1fca98cb633p+0, 0x1.1299ee93be016p-56, 0x1.8a205fd558740p+0, -0x1.30228c09a91b4p-54,
    0x1.8621f4822a647p+0, -0x1.26d12837ecc05p-57, 0x1.82250768ac529p+0, -0x1.e78c96d05afcbp-58,
    0x1.7e2a1635c67bep+0, 0x1.bf9d9508e7c82p-54, 0x1.7a319d1e3fe07p+0, 0x1.775dc87d51fe0p-54,
    0x1.763c1685d3c9cp+0, 0x1.d736a03d2b373p-57, 0x1.7249faa996a21p+0, 0x1.a8cc1e7480c68p-54,
    0x1.6e5bbf4e3a633p+0, 0x1.a8068fbbb3283p-54, 0x1.6a71d772b60cbp+0, -0x1.11d212e88c8fdp-54,
    0x1.668cb307c54cbp+0, 0x1.55b872ea367d6p-57, 0x1.62acbeaca61b8p+0, 0x1.c6ac9f134fa91p-60,
    0x1.5ed2637169c54p+0, -0x1.f4189dc29459ep-54, 0x1.5afe069f1e104p+0, 0x1.8330116e9a3b9p-58,
    0x1.5730098602231p+0, 0x1.e1994906dd0d7p-54, 0x1.5368c951e9cfdp+0, -0x1.96f47948a99f1p-54,
    0x1.4fa89ee4e1440p+0, -0x1.3e56b9b2ed212p-54, 0x1.4befdeb8130bap+0, 0x1.e89234905f110p-55,
    0x1.483ed8c2e3147p+0, -0x1.477ccb02049b2p-55, 0x1.4495d86823225p+0, 0x1.4d29adbab2a62p-54,
    0x1.40f5246938156p+0, -0x1.1c8c17bac6e15p-55, 0x1.3d5cfedefb9c6p+0, -0x1.81e1a79b537d2p-55,
    0x1.39cda5381b920p+0, -0x1.ef5101e3d70e5p-56, 0x1.3647503caf55cp+0, 0x1.17e21d9a42c9ap-55,
    0x1.32ca3416b401ap+0, 0x1.bff041c0992e0p-54, 0x1.2f56805f1a64fp+0, -0x1.4d472d7231f8dp-56,
    0x1.2bec602f0d252p+0, 0x1.658e7a1aa32d2p-55, 0x1.288bfa3512419p+0, 0x1.8e684e7a2281bp-56,
    0x1.253570cda95fdp+0, 0x1.5db888d438feep-55, 0x1.21e8e21f07a9cp+0, 0x1.8d699cf392f14p-54,
    0x1.1ea6683792844p+0, 0x1.062c9883530e4p-55, 0x1.1b6e192ebbe44p+0, 0x1.b1b466a88828ep-54,
    0x1.18400747e568bp+0, 0x1.ad9ad85491df3p-55, 0x1.151c4116f2812p+0, 0x1.4ed588e9b614bp-54,
    0x1.1202d1a635b12p+0, 0x1.f3f8ad7f946d1p-54, 0x1.0ef3c09d694b0p+0, 0x1.8fcf88aed2e80p-54,
    0x1.0bef126968b2bp+0, 0x1.00ed691d90802p-54, 0x1.08f4c864643c4p+0, -0x1.a5bfdbd9f2a2cp-55,
    0x1.0604e0fe4ef0fp+0, -0x1.c8ae842ec057ap-54, 0x1.031f57e54adbep+0, 0x1.338b4259c0270p-54,
    0x1.0044262dddde3p+0, 0x1.c3bc53e5aaf7ap-55, 0x1.fae684f57cc00p-1, -0x1.46479c173e7afp-55,
    0x1.f559424818e66p-1, 0x1.bbbb718dfa201p-57, 0x1.efe068bba2275p-1, 0x1.24a3b2e61a70bp-55,
    0x1.ea7bd8bb44317p-1, -0x1.506e0cffd1159p-56, 0x1.e52b6efe9c33cp-1, 0x1.3e486c1959596p-55,
    0x1.dfef04d0efedbp-1, -0x1.9f0971d6f161cp-56, 0x1.dac670561bb4fp-1, 0x1.a2b7f222f65e2p-55,
    0x1.d5b184cd16e2cp-1, 0x1.d521d4eea7d44p-56, 0x1.d0b012cff5412p-1, -0x1.5f07ddbf9ebccp-56,
    0x1.cbc1e89152a76p-1, -0x1.1c0cead74734ap-55, 0x1.c6e6d2171bf18p-1, 0x1.f4ba8d3373e1bp-55,
    0x1.c21e9972adea3p-1, -0x1.805d24c938dc2p-55, 0x1.bd6906f6479aap-1, -0x1.13e7ba3e2ea15p-55,
    0x1.b8c5e167d1c98p-1, -0x1.19bd9c2741720p-58, 0x1.b434ee31013fdp-1, -0x1.0520d0701d877p-55,
    0x1.afb5f18cdcc22p-1, -0x1.e2eddfb3cd03cp-55, 0x1.ab48aeb2b28d2p-1, 0x1.e8b57b951019bp-56,
    0x1.a6ece7fe8b99dp-1, 0x1.bd7948ff2fac9p-56, 0x1.a2a25f172cfe4p-1, -0x1.d700509dad6cep-56,
    0x1.9e68d511b976bp-1, 0x1.d9eb0c63689ddp-55, 0x1.9a400a9306839p-1, -0x1.d6064eeff375dp-57,
    0x1.9627bfeeb99d3p-1, -0x1.aa5e488aa6084p-56, 0x1.921fb54442d18p-1, 0x1.1a62633145c07p-55
};

#define WC_ATAN_TOP_ 0x5f800000u /* 2^64 */

/* atan(a) rounded to odd at 53 bits, a in [0, 2^64]. */
WC_INLINE double wc_atan_odd_(double a) {
  WC_CR_CONTRACT_
  int      big = a > 1.0;
  double   u = wc_sel_f64(big, 1.0, a), v = wc_sel_f64(big, a, 1.0), q = u / v;
  double   m = q * 64.0 + 0x1.8p52, c = (m - 0x1.8p52) * 0x1p-6;
  uint64_t i = (wc_f64_to_bits(m) - 0x4338000000000000u) + (uint64_t)(big ? 65 : 0);
  double   n = u - v * c, w = v + u * c; /* exact: N and M */
  double   dh = wc_cr_trunc_(n / w, 15), dl = (n - dh * w) / w;
  double   e = dh + dl, e2 = e * e, sg = wc_sel_f64(big, -1.0, 1.0), sdh = sg * dh;
  double   p = (e * e2) * (-0x1.5555555555555p-2 + e2 * (0x1.999999999999ap-3 +
               e2 * (-0x1.2492492492492p-3 + e2 * 0x1.c71c71c71c71cp-4)));
  double   th = wc_atan_tab_[2 * i], s = th + sdh;
  double   low = (sdh - (s - th)) + (wc_atan_tab_[2 * i + 1] + sg * (dl + p)), h = s + low;
  return wc_cr_odd_(h, low - (h - s));
}

WC_INLINE float wc_atan_f32(float x) {
  uint32_t u = wc_f32_to_bits(x);
  float    r = (float)wc_atan_odd_(wc_cr_abs_clamp_(u, WC_ATAN_TOP_));
  r = wc_bits_to_f32(wc_f32_to_bits(r) | (u & 0x80000000u));
  return wc_sel_f32(x != x, wc_quiet_f32(x), r);
}
WC_INLINE wc_float16 wc_atan_f16(wc_float16 a) {
  return wc_cr_f16_of_(a, wc_atan_odd_(wc_cr_f16_abs_(a, WC_ATAN_TOP_)), (uint16_t)(a & 0x8000u));
}
WC_INLINE wc_bfloat16 wc_atan_bf16(wc_bfloat16 a) {
  return wc_cr_bf16_of_(a, wc_atan_odd_(wc_cr_bf16_abs_(a, WC_ATAN_TOP_)), (uint16_t)(a & 0x8000u));
}

/* ---- sqrt(t) as a pair -------------------------------------------------------
   For t = (1 - a)/2, a float a in [1/2, 1]: t = 0 or t in [2^-25, 1/4], a float
   (other t > 0: the same steps, unused). y0 = 1/sqrt(t) from the bits (the
   exponent halved, a magic constant: |y0 sqrt(t) - 1| <= 0.034365, the maximum
   over every float t in [1, 4), and y0's error repeats with period 4), two
   Newton steps y' = y (3/2 - t y^2 / 2): relative error e -> 3/2 e^2 + e^3/2
   (+ 4 roundings, 3.2 u) gives 2^-9.12, then 2^-17.66; s0 = t y rounded (u)
   and truncated to 26 bits (< 2^-25): |s0/sqrt(t) - 1| <= 2^-17.63. So p =
   s0^2 is exact (52 bits), r = t - p too (Sterbenz), rho = r/p = t/s0^2 - 1
   is within u|rho|, |rho| <= 2^-16.6, and
     sqrt(t) = s0 sqrt(1 + rho) = s0 (1 + rho/2 - rho^2/8 + rho^3/16 - 5 rho^4/128),
   truncation <= 7/256 |rho|^5 <= 2^-88 s0: sl = s0 rho (1/2 - ...) is within
   4.2 u of itself (rho, Horner's last sum and the two products), |sl| <=
   2^-17.6 s0: |s0 + sl - sqrt(t)| <= 2^-68.5 sqrt(t). t = 0 gives s0 = r = 0,
   rho = 0/2^-200 = 0 (p + 2^-200 is p when p > 0: p >= 2^-25.1); the seed's
   2^511 squares to no overflow (t y y is ((t/2) y) y = 0). */
WC_INLINE double wc_atrig_sqrt_(double t, double *sl) {
  WC_CR_CONTRACT_
  double y = wc_bits_to_f64(0x5fe6eb50c7b537a9u - (wc_f64_to_bits(t) >> 1)), s, p, rho;
  y = y * (1.5 - 0.5 * t * y * y);
  y = y * (1.5 - 0.5 * t * y * y);
  s = wc_cr_trunc_(t * y, 26);
  p = s * s;
  rho = (t - p) / (p + 0x1p-200);
  *sl = s * (rho * (0.5 + rho * (-0.125 + rho * (0.0625 + rho * -0x1.4p-5))));
  return s;
}

/* ---- asin and acos ------------------------------------------------------------
   The core: asin(s) for s in [0, 1/2].
   s = sh + sl, sh of at most 26 bits, |sl| <= 2^-17.6 sh, and z = s^2 given
   exactly, a double of at most 48 bits (a^2 for a float a, or t).
     asin(s) = s (1 + E(z)),  E(z) = z (c0 + z (c1 + z G(z))),
   c0 = 1/6 and c1 = 3/40 (Taylor) as pairs (C0H + C0L, C1H + C1L), G of
   degree 13 (interpolating at the 14 Chebyshev nodes of [0, 1/4], its
   coefficients rounded to doubles): |z^3 (G(z) - G*(z))| <= 2^-64.54 on [0,
   1/4], G* = ((E/z - c0)/z - c1)/z the exact one (mpmath at 200 bits on
   20001 points, spacing 2^-16.3, far below the width of the error's
   oscillations). E <= 0.0472.
   Absolute errors in E (which are relative errors of asin(s) = s (1 + E)):
   - g = G(z) by Horner within 2^-56.70 (each step's product and sum rounded:
     sum over k of z^k u (z |h_k+1| + |h_k|), h_k the partial sums' maxima),
     2^-62.70 in E (z^3 <= 2^-6);
   - q = z g (<= 0.01350) rounded: 2^-59.2, 2^-63.2 in E (z^2);
   - w = C1H + q with its error (Fast2Sum, |C1H| > |q|), plus C1L (exact but
     for 2^-110); w = wh + wl, wh = w to 26 bits (wl rounded, 2^-82);
   - v = c0 + z w: z = z1 + z2 (z1 to 26 bits, z2 of at most 22 bits), z1 wh
     exact (52 bits), C0H + z1 wh with its error (Fast2Sum: C0H > z1 wh <=
     0.0221), and z2 wh + z wl + C0L rounded (2^-83 each); v = vh + vl, vh to
     26 bits;
   - E = z1 vh (exact) + (z2 vh + z vl) (2^-81.4), split as eh (27 bits) + el;
   - s (1 + E) = sh + sh eh (exact: 26 + 27 bits; Fast2Sum, sh > sh eh) +
     (sl + (sh el + sl (eh + el))): roundings 2^-70.5 s (|sl| <= 2^-17.6 s);
     Fast2Sum.
   Core: A = ah + al within 2^-64.54 + 2^-62.70 + 2^-63.20 + 2^-70 = 2^-61.67
   of asin(s) relatively (s exact); with the sqrt's 2^-68.5: 2^-61.6.
   Then f = K + mu A, K = KH + KL (0, pi/2 or pi, within 2^-106), mu in {1,
   -1, 2, -2} (mu ah exact): KH + mu ah with its error (Fast2Sum: KH = 0 or
   KH >= pi/2 > |mu A| <= pi/3), KL + mu al and the error (2^-104 f); h + l
   by Fast2Sum. The sum cancels at most by F = |mu| A / f (A's error
   multiplied by F):
   - asin, a <= 1/2: s = a, z = a^2 (exact), f = A: F = 1, B = 2^-61.6.
   - asin, a > 1/2: s = sqrt(t), z = t = (1 - a)/2 (exact: 1 - a by
     Sterbenz), f = pi/2 - 2 A (A <= pi/6): F <= 2, B = 2^-60.6.
   - acos, |x| <= 1/2: f = pi/2 - asin(x) (A <= pi/6): F <= 1/2, B = 2^-62.6.
   - acos, x > 1/2: f = 2 A: F = 1, B = 2^-61.6; x < -1/2: f = pi - 2 A: F <=
     1/2, B = 2^-62.6.
   asin: B = 2^-60.6. D (crmath_hardest): float 2^-53.6 (x = 0x1.107434p-1),
   float16 2^-24.0, bfloat16 2^-18.5.
   acos: B = 2^-61.6. D: float 2^-57.1 (x = 0x1.04c444p-12), float16 2^-27.1,
   bfloat16 2^-20.3.
   |x| > 1 (inf too): the canonical NaN; asin(+-1) = +-pi/2 and acos(-1) = pi
   rounded (t = 0: s = 0, A = 0, f = K), acos(1) = +0 (f = 0 + 2 * 0). */

/* asin(a) (big = 0) or asin(sqrt((1 - a)/2)) (big = 1) as ah + al, a in [0, 1]. */
WC_INLINE double wc_asin_core_(double a, int big, double *al) {
  WC_CR_CONTRACT_
  double t = (1.0 - a) * 0.5, sl, sh = wc_atrig_sqrt_(t, &sl);
  double z, z1, z2, g, q, w, wh, wl, vh, vl, vt, pv, eh, el, ph, s, low, ah;
  sh = wc_sel_f64(big, sh, a);
  sl = wc_sel_f64(big, sl, 0.0);
  z = wc_sel_f64(big, t, a * a);
  z1 = wc_cr_trunc_(z, 26);
  z2 = z - z1;
  g = 0x1.6db6db6db6db7p-5 + z * (0x1.f1c71c71c72e7p-6 + z * (0x1.6e8ba2e8a7f5dp-6 +
      z * (0x1.1c4ec4f38e73bp-6 + z * (0x1.c999969967ee9p-7 + z * (0x1.7a87e673b89fbp-7 +
      z * (0x1.3fd6bfaf1c41ap-7 + z * (0x1.13577f0a61036p-7 + z * (0x1.d77825d1ce08ap-8 +
      z * (0x1.da20fb495b398p-8 + z * (0x1.168f0b5d2c241p-9 + z * (0x1.0a3689a0bea70p-6 +
      z * (-0x1.0dbef55bc72bap-6 + z * 0x1.97990527640e8p-6))))))))))));
  q = z * g + 0.0; /* a sum: w and its error read one value (exp.h) */
  w = 0x1.3333333333333p-4 + q;
  wl = (q - (w - 0x1.3333333333333p-4)) + 0x1.999999999999ap-59;
  wh = wc_cr_trunc_(w, 26);
  wl = (w - wh) + wl;
  pv = z1 * wh;
  vh = 0x1.5555555555555p-3 + pv;
  vl = (pv - (vh - 0x1.5555555555555p-3)) + (0x1.5555555555555p-57 + (z2 * wh + z * wl));
  vt = wc_cr_trunc_(vh, 26);
  vl = (vh - vt) + vl;
  eh = z1 * vt;
  el = z2 * vt + z * vl;
  ph = wc_cr_trunc_(eh, 27);
  el = (eh - ph) + el;
  eh = ph;
  ph = sh * eh;
  s = sh + ph;
  low = (ph - (s - sh)) + (sl + (sh * el + sl * (eh + el)));
  ah = s + low;
  *al = low - (ah - s);
  return ah;
}

/* K + mu (ah + al) rounded to odd (see above). */
WC_INLINE double wc_atrig_join_(double kh, double kl, double mu, double ah, double al) {
  WC_CR_CONTRACT_
  double m = mu * ah, s = kh + m, low = (m - (s - kh)) + (kl + mu * al), h = s + low;
  return wc_cr_odd_(h, low - (h - s));
}

#define WC_ATRIG_ONE_ 0x3f800000u /* 1.0f */
#define WC_PI2H_ 0x1.921fb54442d18p+0
#define WC_PI2L_ 0x1.1a62633145c07p-54

/* asin(a) rounded to odd, a in [0, 1]. */
WC_INLINE double wc_asin_odd_(double a) {
  int    big = a > 0.5;
  double al, ah = wc_asin_core_(a, big, &al);
  return wc_atrig_join_(wc_sel_f64(big, WC_PI2H_, 0.0), wc_sel_f64(big, WC_PI2L_, 0.0),
                        wc_sel_f64(big, -2.0, 1.0), ah, al);
}

/* acos(x) rounded to odd, a = |x| in [0, 1], neg: x < 0. */
WC_INLINE double wc_acos_odd_(double a, int neg) {
  int    big = a > 0.5;
  double al, ah = wc_asin_core_(a, big, &al);
  double kh = wc_sel_f64(big, wc_sel_f64(neg, 2.0 * WC_PI2H_, 0.0), WC_PI2H_);
  double kl = wc_sel_f64(big, wc_sel_f64(neg, 2.0 * WC_PI2L_, 0.0), WC_PI2L_);
  double mu = wc_sel_f64(big, wc_sel_f64(neg, -2.0, 2.0), wc_sel_f64(neg, 1.0, -1.0));
  return wc_atrig_join_(kh, kl, mu, ah, al);
}

/* Domain errors: |x| > 1, inf too (NaN: the caller's). */
#define WC_ATRIG_DOM_F32_(u) (((u) & 0x7fffffffu) - 0x3f800001u < 0x40000000u)
#define WC_ATRIG_DOM_F16_(h) ((uint32_t)((h) & 0x7fffu) - 0x3c01u < 0x4000u)
#define WC_ATRIG_DOM_BF16_(h) ((uint32_t)((h) & 0x7fffu) - 0x3f81u < 0x4000u)

WC_INLINE float wc_asin_f32(float x) {
  uint32_t u = wc_f32_to_bits(x);
  float    r = (float)wc_asin_odd_(wc_cr_abs_clamp_(u, WC_ATRIG_ONE_));
  r = wc_bits_to_f32(wc_f32_to_bits(r) | (u & 0x80000000u));
  r = wc_sel_f32(WC_ATRIG_DOM_F32_(u), wc_bits_to_f32(WC_CR_NAN_), r);
  return wc_sel_f32(x != x, wc_quiet_f32(x), r);
}
WC_INLINE wc_float16 wc_asin_f16(wc_float16 a) {
  wc_float16 r = wc_cr_f16_of_(a, wc_asin_odd_(wc_cr_f16_abs_(a, WC_ATRIG_ONE_)),
                               (uint16_t)(a & 0x8000u));
  return wc_sel_f16(WC_ATRIG_DOM_F16_(a), (wc_float16)0x7e00u, r);
}
WC_INLINE wc_bfloat16 wc_asin_bf16(wc_bfloat16 a) {
  wc_bfloat16 r = wc_cr_bf16_of_(a, wc_asin_odd_(wc_cr_bf16_abs_(a, WC_ATRIG_ONE_)),
                                 (uint16_t)(a & 0x8000u));
  return wc_sel_bf16(WC_ATRIG_DOM_BF16_(a), (wc_bfloat16)0x7fc0u, r);
}

WC_INLINE float wc_acos_f32(float x) {
  uint32_t u = wc_f32_to_bits(x);
  float    r = (float)wc_acos_odd_(wc_cr_abs_clamp_(u, WC_ATRIG_ONE_), (int)(u >> 31));
  r = wc_sel_f32(WC_ATRIG_DOM_F32_(u), wc_bits_to_f32(WC_CR_NAN_), r);
  return wc_sel_f32(x != x, wc_quiet_f32(x), r);
}
WC_INLINE wc_float16 wc_acos_f16(wc_float16 a) {
  wc_float16 r = wc_cr_f16_of_(a, wc_acos_odd_(wc_cr_f16_abs_(a, WC_ATRIG_ONE_), a >> 15), 0);
  return wc_sel_f16(WC_ATRIG_DOM_F16_(a), (wc_float16)0x7e00u, r);
}
WC_INLINE wc_bfloat16 wc_acos_bf16(wc_bfloat16 a) {
  wc_bfloat16 r = wc_cr_bf16_of_(a, wc_acos_odd_(wc_cr_bf16_abs_(a, WC_ATRIG_ONE_), a >> 15), 0);
  return wc_sel_bf16(WC_ATRIG_DOM_BF16_(a), (wc_bfloat16)0x7fc0u, r);
}

/* ---- the raw forms (exp.h: a block's first pass) ------------------------------
   The classic split in plain double, one polynomial for both halves: A =
   asin(s) = s + s (z R(z)), z = s^2 in [0, 1/4], with (s, z) = (a, a^2) when a
   <= 1/2 and (sqrt(t), t), t = (1 - a)/2, when a > 1/2 (both z exact); R of
   degree 11 interpolating R* = (asin(s)/s - 1)/z at the 12 Chebyshev nodes of
   [0, 1/4] (crmath_tables.py asin_raw_coefficients: z |R - R*| <= 2^-53.9).
   sqrt(t) without libm (a vectorized sqrt needs -fno-math-errno): y0 from the
   bits as wc_atrig_sqrt_'s (within 0.034365), three Newton steps (e -> 3/2 e^2
   + e^3/2 + 3.2 u: 2^-9.12, 2^-17.66, 2^-34.74), s0 = t y (rounded: within
   2^-34.73), then s = s0 + (t - s0^2) y/2: t - s0^2 is exact, or rounded once
   when fused (Sterbenz: s0^2 within 2^-33 of t), and s0 + (t - s0^2)/(2 sqrt(t))
   = sqrt(t) (1 - e^2/2 + ...), so s within 1.5 u + 2^-68 = 2^-52.41 of sqrt(t)
   (crmath_tables.py asin_raw_bound). t = 0 gives y = 2^511 1.5^3 (h y y is
   ((t/2) y) y = 0, no overflow) and s = 0. Horner's roundings (pointwise
   magnitudes), z r, s q and the sum s + s q: A within 2^-52.28 of asin(s) when
   s = a (s exact), 2^-51.34 with the square root's error (s's relative error is
   A's). Then f = K + mu A as the exact form's join (mu A exact, the sum rounded
   once; K's double within 2^-53.86 of pi/2, twice that of pi):
   - asin, a <= 1/2: f = A, 2^-52.28; a > 1/2: f = pi/2 - 2 A, 2 A <= 2 f
     (A <= pi/6): 2^-49.93.
   - acos, |x| <= 1/2: pi/2 - A (A <= f/2); x > 1/2: 2 A; x < -1/2: pi - 2 A
     (2 A <= f/2): 2^-51.34 at most.
   Whatever the compiler contracts: each step is bounded as if rounded. |x| > 1,
   inf and NaN give the NaN (the exact forms give their NaN); a subnormal asin
   is a NaN (exp.h), asin(-0) = -0, acos(1) = +0. */

/* atan's raw form: a = |x| clamped to 2^64 as the exact form's, atan(a) = K + mu
   atan(t), |t| <= tan(pi/8), from one division t = N/M (N and M exact: a float
   less or plus 1 has at most 27 bits): (t, K, mu) = (a, 0, 1) up to tan(pi/8),
   ((a - 1)/(a + 1), pi/4, 1) up to 1/tan(pi/8), else (1/a, pi/2, -1). atan(t) =
   t R(t^2), R of degree 10 interpolating atan(s)/s at the 11 Chebyshev nodes of
   z in [0, tan(pi/8)^2]: crmath_tables.py atan_raw_bound, with t's rounding, z's
   (through z R'/R), Horner's at pointwise magnitudes and the product: A within
   2^-51.1 of atan(t); |A| <= f when K = pi/4, 3 |A| <= f when K = pi/2, K's
   double and the sum: 2^-50.54. A subnormal result is a NaN (exp.h), atan(-0)
   = -0, inf rounds as 2^64 (pi/2), a NaN gives the NaN. Under gcc, which
   contracts only when told, R's products and sums are fused by hand where the
   target has FMA (crmath.h's erf raw form says why). */
WC_INLINE float wc_atan_raw_f32(float x) {
  WC_CR_CONTRACT_
  uint32_t u = wc_f32_to_bits(x);
  double   a = wc_cr_abs_clamp_(u, WC_ATAN_TOP_), t, z, f;
  int      mid = a > 0x1.a827999fcef32p-2, big = a > 0x1.3504f333f9de6p+1;
  t = wc_sel_f64(big, 1.0, wc_sel_f64(mid, a - 1.0, a)) /
      wc_sel_f64(big, a, wc_sel_f64(mid, a + 1.0, 1.0));
  z = t * t;
  f = t * WC_F_(z, WC_F_(z, WC_F_(z, WC_F_(z, WC_F_(z, WC_F_(z, WC_F_(z, WC_F_(z, WC_F_(z,
      WC_F_(z, 0x1.5a481d863427cp-6, -0x1.64313cce9ec45p-5), 0x1.d1fd520694354p-5),
      -0x1.0ffbe601a7815p-4), 0x1.3afb01b54c5edp-4), -0x1.745baa27cbed6p-4), 0x1.c71c648ac53f4p-4),
      -0x1.249249009562ep-3), 0x1.9999999934e4cp-3), -0x1.55555555551e4p-2), 0x1.0000000000000p+0);
  f = wc_sel_f64(big, WC_PI2H_, wc_sel_f64(mid, 0.5 * WC_PI2H_, 0.0)) +
      wc_sel_f64(big, -1.0, 1.0) * f;
  return wc_bits_to_f32(wc_f32_to_bits(wc_cr_raw_round_(f, WC_CR_RAW_TINY_, x != x)) |
                        (u & 0x80000000u));
}

/* asin(s) with s = a (big = 0) or s = sqrt((1 - a)/2) (big = 1), a in [0, 1]. */
/* sqrt(t) in plain double, the steps above: within 2^-52.41 for t = 0 (0) and t in
   [2^-1022, 2^1022] (the inverse hyperbolic raw forms take it on [2^-22, 2^257)). */
WC_INLINE double wc_raw_sqrt_(double t) {
  WC_CR_CONTRACT_
  double y = wc_bits_to_f64(0x5fe6eb50c7b537a9u - (wc_f64_to_bits(t) >> 1)), h = 0.5 * t, s;
  y = y * (1.5 - (h * y) * y);
  y = y * (1.5 - (h * y) * y);
  y = y * (1.5 - (h * y) * y);
  s = t * y;
  return s + (t - s * s) * (0.5 * y);
}

WC_INLINE double wc_atrig_raw_(double a, int big) {
  WC_CR_CONTRACT_
  double t = (1.0 - a) * 0.5, s, z, rz;
  s = wc_sel_f64(big, wc_raw_sqrt_(t), a);
  z = wc_sel_f64(big, t, a * a);
  rz = 0x1.555555555554fp-3 + z * (0x1.3333333336da5p-4 + z * (0x1.6db6db684b6a1p-5 +
       z * (0x1.f1c71f95269afp-6 + z * (0x1.6e8b2b3b10be4p-6 + z * (0x1.1c593c7b1d958p-6 +
       z * (0x1.c87265d47ef49p-7 + z * (0x1.8522ddffa6208p-7 + z * (0x1.ff5fc4d14c735p-8 +
       z * (0x1.06b9d26d10838p-6 + z * (-0x1.603991d6060e0p-7 + z * 0x1.cd864394d2ff2p-6))))))))));
  return s + s * (z * rz);
}

WC_INLINE float wc_asin_raw_f32(float x) {
  uint32_t u = wc_f32_to_bits(x);
  double   a = wc_cr_abs_clamp_(u, WC_ATRIG_ONE_);
  int      big = a > 0.5;
  double   f = wc_sel_f64(big, WC_PI2H_, 0.0) + wc_sel_f64(big, -2.0, 1.0) * wc_atrig_raw_(a, big);
  float    r = wc_cr_raw_round_(f, WC_CR_RAW_TINY_, WC_ATRIG_DOM_F32_(u) | (x != x));
  return wc_bits_to_f32(wc_f32_to_bits(r) | (u & 0x80000000u));
}

WC_INLINE float wc_acos_raw_f32(float x) {
  uint32_t u = wc_f32_to_bits(x);
  double   a = wc_cr_abs_clamp_(u, WC_ATRIG_ONE_);
  int      big = a > 0.5, neg = (int)(u >> 31);
  double   kh = wc_sel_f64(big, wc_sel_f64(neg, 2.0 * WC_PI2H_, 0.0), WC_PI2H_);
  double   mu = wc_sel_f64(big, wc_sel_f64(neg, -2.0, 2.0), wc_sel_f64(neg, 1.0, -1.0));
  return wc_cr_raw_round_(kh + mu * wc_atrig_raw_(a, big), 0.0, WC_ATRIG_DOM_F32_(u) | (x != x));
}

#ifdef __cplusplus
}
#endif
#endif
