/* wherec/exp.h: exp correctly rounded to nearest even for float, float16 and
   bfloat16, without libm and without a branch (the loops that call it
   vectorize); and the rounding steps the other correctly rounded functions
   (wherec/crmath.h) share with it. */
#ifndef WHEREC_EXP_H
#define WHEREC_EXP_H

#include <stdint.h>
#include <string.h>

#include "ops.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- how a correctly rounded function is computed --------------------------
   Each function f evaluates, in double and for every lane alike, a pair (h, l)
   with h = RN(h + l) and |h + l - f(x)| <= B |f(x)|, B proven in its comment
   whatever the compiler contracts: every step is an addition, an exact
   product (few enough significand bits), or a rounded product or a * b + c
   whose error is bounded as if each operation were rounded (a fused pair
   rounds once, so the bound holds either way). h + l is rounded to odd at 53
   bits (wc_cr_odd_: h, or its neighbour towards l when l != 0 and h is even),
   which then rounds to nearest even into the target exactly as h + l would
   (Boldo and Melquiond: rounding to odd at 53 bits, then to nearest at p <= 51
   bits, rounds once), by the conversion to float or by wc_cr_round_p_.
   Why that is f(x) correctly rounded: for every input of the format, f(x) is
   at least D |f(x)| away from every rounding boundary (midpoint) of the format
   (tests/runtime/crmath_hardest.c finds the nearest, over every input, with
   MPFR; each function's comment quotes D), and B < D: h + l and f(x) lie on
   the same side of every midpoint. So no input needs more precision than the
   bound, there is no slow path, and every compiler, flag set and CPU gives the
   same bits (IEEE double arithmetic rounding to nearest; not under
   -ffast-math, which reassociates, nor with flush-to-zero).
   tests/runtime/crmath_exhaustive.c compares every float input with the
   reference's independent implementation (src/ref/ref_math.c), under builds
   with FMA contraction too; test_exp and test_crmath every float16 and
   bfloat16 input. */

/* The raw forms' NaN (see "the raw forms" below). */
#define WC_CR_RAW_NAN_ 0x7fc00000u

static inline uint64_t wc_f64_to_bits(double d) { uint64_t u; memcpy(&u, &d, 8); return u; }

/* At the start of the bodies that evaluate f: clang may contract them (into
   FMAs where the target has them) whatever the file around says; the bounds
   hold either way, and the one trap of contraction, a product feeding two
   additions of which only one would be fused, never arises: every product
   an error-free sum reads is exact or goes through "+ 0.0" first (a sum,
   which nothing fuses further). gcc cannot scope its contraction to a
   function that others inline, so it follows the file (generated files turn
   it off). */
#if defined(__clang__)
#define WC_CR_CONTRACT_ _Pragma("clang fp contract(fast)")
#else
#define WC_CR_CONTRACT_
#endif

/* a b + c, fused by hand where gcc targets FMA: gcc contracts only when told, and the
   generated files tell it not to, so the raw forms written for FMA (erf, atan) spell it;
   elsewhere as written (clang contracts under WC_CR_CONTRACT_). Each use is bounded as
   if rounded, fused or not. */
#if defined(__FMA__) && !defined(__clang__)
#define WC_F_(a, b, c) __builtin_fma(a, b, c)
#else
#define WC_F_(a, b, c) ((a) * (b) + (c))
#endif

/* h + l rounded to odd at 53 bits, h = RN(h + l): h if l == 0 or h is odd,
   else h's neighbour towards l. On the bits: one step towards zero when l
   is against h's sign (then h - 1 is h's lower neighbour in magnitude, and
   l's distance to it less than one step), and the last bit set when l != 0. */
WC_INLINE double wc_cr_odd_(double h, double l) {
  uint64_t hb = wc_f64_to_bits(h), lb = wc_f64_to_bits(l), nz = (uint64_t)(l != 0.0);
  return wc_bits_to_f64((hb - (((hb ^ lb) >> 63) & nz)) | nz);
}

/* v with its last 53 - bits significand bits cleared: bits significant bits
   left, so products of such numbers are exact. */
WC_INLINE double wc_cr_trunc_(double v, int bits) {
  return wc_bits_to_f64(wc_f64_to_bits(v) & ~(((uint64_t)1 << (53 - bits)) - 1u));
}

/* w (normal, or 0) rounded to nearest even to p bits with normal exponents
   from emin (a multiple of 2^(emin - p + 1) below: subnormals): adding C =
   2^(e + 53 - p), e = max(exponent of w, emin), rounds |w| at that quantum
   (C's last place), ties to even, and subtracting C is exact. */
WC_INLINE double wc_cr_round_p_(double w, int p, int emin) {
  uint64_t b = wc_f64_to_bits(w), sign = b & 0x8000000000000000u, e = (b >> 52) & 0x7ffu;
  uint64_t lo = (uint64_t)(emin + 1023);
  double   c, a = wc_bits_to_f64(b ^ sign);
  e = e < lo ? lo : e;
  c = wc_bits_to_f64((e + (uint64_t)(53 - p)) << 52);
  return wc_bits_to_f64(wc_f64_to_bits((a + c) - c) | sign);
}

/* float16 <-> double without a branch (ops.h's conversions loop over a
   subnormal's bits), for the lanes of a vector. Out: v a float16 value (or
   at least 2^16 in magnitude: infinity). */
WC_INLINE double wc_cr_f16_in_(wc_float16 h) {
  uint64_t s = (uint64_t)(h & 0x8000u) << 48, e = (h >> 10) & 0x1fu, m = h & 0x3ffu;
  double   sub = (double)m * 0x1p-24;
  double   nor = wc_bits_to_f64(((e + 1008u + (e == 31u ? 1008u : 0u)) << 52) | (m << 42));
  return wc_bits_to_f64(wc_f64_to_bits(wc_sel_f64(e == 0, sub, nor)) | s);
}
WC_INLINE wc_float16 wc_cr_f16_out_(double v) {
  uint64_t b = wc_f64_to_bits(v);
  uint16_t s = (uint16_t)((b >> 48) & 0x8000u);
  double   a = wc_bits_to_f64(b & 0x7fffffffffffffffu);
  uint16_t nor = (uint16_t)(((((b >> 52) & 0x7ffu) - 1008u) << 10) | ((b >> 42) & 0x3ffu));
  uint16_t sub = (uint16_t)(int32_t)(wc_sel_f64(a < 0x1p-14, a, 0.0) * 0x1p24);
  uint16_t r = a < 0x1p-14 ? sub : nor;
  return (wc_float16)(s | (a >= 0x1p16 ? 0x7c00u : r));
}

/* NaN results of the half types, as ops.h's conversions give them from the
   float rule (that NaN, quieted): float16 keeps the payload, bfloat16 gives
   the quiet NaN of that sign. */
WC_INLINE wc_float16 wc_cr_f16_nan_(wc_float16 h) { return (wc_float16)(h | 0x0200u); }
WC_INLINE wc_bfloat16 wc_cr_bf16_nan_(wc_bfloat16 h) {
  return (wc_bfloat16)((h & 0x8000u) | 0x7fc0u);
}

/* The half result of a function whose double w (already rounded into the format)
   may be a special value, a NaN meaning the canonical one (log, acosh, atanh
   outside their domains); a NaN input a gives its own NaN. */
WC_INLINE wc_float16 wc_cr_f16_of_special_(wc_float16 a, double w) {
  uint16_t nan = (uint16_t)(w != w ? 0x7e00u : 0u); /* the canonical NaN's float16 */
  return wc_sel_f16((a & 0x7fffu) > 0x7c00u, wc_cr_f16_nan_(a),
                    (wc_float16)(wc_cr_f16_out_(wc_sel_f64(w != w, 0.0, w)) | nan));
}
WC_INLINE wc_bfloat16 wc_cr_bf16_of_special_(wc_bfloat16 a, double w) {
  return wc_sel_bf16((a & 0x7fffu) > 0x7f80u, wc_cr_bf16_nan_(a),
                     (wc_bfloat16)(wc_f32_to_bits((float)w) >> 16));
}

/* ---- exp -------------------------------------------------------------------
   exp(x) = 2^K 2^(j/64) exp(r), k = 64K + j the integer nearest x*64/ln2
   (t + 1.5*2^52 rounds it; any neighbour would do: only |r| <= ln2/128
   (1 + 2^-38) is used), r = x - k*C, C = ln2/64 = C1 + C2. For float x
   (|x| <= 104, and -x for sigmoid), k*C1 is exact (C1 has 39 bits, |k| <
   2^14) and so is x - k*C1 (both multiples of 2^-45, as |x| > 2^-8 when
   k != 0, and the difference < 2^-7): contracting them changes nothing.
   - r = rh - k*C2: error <= 2^-53 |r| + 2^-86 <= 2^-60.5 (|r| <= 2^-7.52).
   - q = r + r^2 (1/2 + r/6 + ... + r^4/720), Taylor to degree 6: truncation
     <= |r|^7/7! * 1.01 < 2^-65; rounding: r^2 * p2 within 3.1 * 2^-53 of
     its value (<= 2^-16.1), the final add 2^-53 |q| <= 2^-60.5; so
     |q - expm1(r)| <= 2^-60.3.
   - s = Tl + Th*q (Th + Tl = 2^(j/64) within 2^-104 Th; Tl*q dropped: 2^-60.5
     Th): the product and the sum 2^-60.5 Th each; then z + e = Th + s exactly
     (Fast2Sum: Th >= 1 > 16|s|, no products); scaling by 2^K is exact.
   In all |z + e - exp(x)| <= Th 2^-60.5 (1.15 + 4 * 1.006) <= 2^-58.1 exp(x)
   = B. D (tests/runtime/crmath_hardest.c): float 2^-52.6 (x = -0x1.d2259ap+3),
   float16 2^-26.4, bfloat16 2^-24.2. Above 89 and below -104 the results are
   selected: inf and +0. */

static const double wc_exp_tab_[128] = { /* 2^(j/64) = tab[2j] + tab[2j+1] */
    0x1.0000000000000p+0, 0x0.0p+0, 0x1.02c9a3e778061p+0, -0x1.19083535b085dp-56,
    0x1.059b0d3158574p+0, 0x1.d73e2a475b465p-55, 0x1.0874518759bc8p+0, 0x1.186be4bb284ffp-57,
    0x1.0b5586cf9890fp+0, 0x1.8a62e4adc610bp-54, 0x1.0e3ec32d3d1a2p+0, 0x1.03a1727c57b53p-59,
    0x1.11301d0125b51p+0, -0x1.6c51039449b3ap-54, 0x1.1429aaea92de0p+0, -0x1.32fbf9af1369ep-54,
    0x1.172b83c7d517bp+0, -0x1.19041b9d78a76p-55, 0x1.1a35beb6fcb75p+0, 0x1.e5b4c7b4968e4p-55,
    0x1.1d4873168b9aap+0, 0x1.e016e00a2643cp-54, 0x1.2063b88628cd6p+0, 0x1.dc775814a8495p-55,
    0x1.2387a6e756238p+0, 0x1.9b07eb6c70573p-54, 0x1.26b4565e27cddp+0, 0x1.2bd339940e9d9p-55,
    0x1.29e9df51fdee1p+0, 0x1.612e8afad1255p-55, 0x1.2d285a6e4030bp+0, 0x1.0024754db41d5p-54,
    0x1.306fe0a31b715p+0, 0x1.6f46ad23182e4p-55, 0x1.33c08b26416ffp+0, 0x1.32721843659a6p-54,
    0x1.371a7373aa9cbp+0, -0x1.63aeabf42eae2p-54, 0x1.3a7db34e59ff7p+0, -0x1.5e436d661f5e3p-56,
    0x1.3dea64c123422p+0, 0x1.ada0911f09ebcp-55, 0x1.4160a21f72e2ap+0, -0x1.ef3691c309278p-58,
    0x1.44e086061892dp+0, 0x1.89b7a04ef80d0p-59, 0x1.486a2b5c13cd0p+0, 0x1.3c1a3b69062f0p-56,
    0x1.4bfdad5362a27p+0, 0x1.d4397afec42e2p-56, 0x1.4f9b2769d2ca7p+0, -0x1.4b309d25957e3p-54,
    0x1.5342b569d4f82p+0, -0x1.07abe1db13cadp-55, 0x1.56f4736b527dap+0, 0x1.9bb2c011d93adp-54,
    0x1.5ab07dd485429p+0, 0x1.6324c054647adp-54, 0x1.5e76f15ad2148p+0, 0x1.ba6f93080e65ep-54,
    0x1.6247eb03a5585p+0, -0x1.383c17e40b497p-54, 0x1.6623882552225p+0, -0x1.bb60987591c34p-54,
    0x1.6a09e667f3bcdp+0, -0x1.bdd3413b26456p-54, 0x1.6dfb23c651a2fp+0, -0x1.bbe3a683c88abp-57,
    0x1.71f75e8ec5f74p+0, -0x1.16e4786887a99p-55, 0x1.75feb564267c9p+0, -0x1.0245957316dd3p-54,
    0x1.7a11473eb0187p+0, -0x1.41577ee04992fp-55, 0x1.7e2f336cf4e62p+0, 0x1.05d02ba15797ep-56,
    0x1.82589994cce13p+0, -0x1.d4c1dd41532d8p-54, 0x1.868d99b4492edp+0, -0x1.fc6f89bd4f6bap-54,
    0x1.8ace5422aa0dbp+0, 0x1.6e9f156864b27p-54, 0x1.8f1ae99157736p+0, 0x1.5cc13a2e3976cp-55,
    0x1.93737b0cdc5e5p+0, -0x1.75fc781b57ebcp-57, 0x1.97d829fde4e50p+0, -0x1.d185b7c1b85d1p-54,
    0x1.9c49182a3f090p+0, 0x1.c7c46b071f2bep-56, 0x1.a0c667b5de565p+0, -0x1.359495d1cd533p-54,
    0x1.a5503b23e255dp+0, -0x1.d2f6edb8d41e1p-54, 0x1.a9e6b5579fdbfp+0, 0x1.0fac90ef7fd31p-54,
    0x1.ae89f995ad3adp+0, 0x1.7a1cd345dcc81p-54, 0x1.b33a2b84f15fbp+0, -0x1.2805e3084d708p-57,
    0x1.b7f76f2fb5e47p+0, -0x1.5584f7e54ac3bp-56, 0x1.bcc1e904bc1d2p+0, 0x1.23dd07a2d9e84p-55,
    0x1.c199bdd85529cp+0, 0x1.11065895048ddp-55, 0x1.c67f12e57d14bp+0, 0x1.2884dff483cadp-54,
    0x1.cb720dcef9069p+0, 0x1.503cbd1e949dbp-56, 0x1.d072d4a07897cp+0, -0x1.cbc3743797a9cp-54,
    0x1.d5818dcfba487p+0, 0x1.2ed02d75b3707p-55, 0x1.da9e603db3285p+0, 0x1.c2300696db532p-54,
    0x1.dfc97337b9b5fp+0, -0x1.1a5cd4f184b5cp-54, 0x1.e502ee78b3ff6p+0, 0x1.39e8980a9cc8fp-55,
    0x1.ea4afa2a490dap+0, -0x1.e9c23179c2893p-54, 0x1.efa1bee615a27p+0, 0x1.dc7f486a4b6b0p-54,
    0x1.f50765b6e4540p+0, 0x1.9d3e12dd8a18bp-54, 0x1.fa7c1819e90d8p+0, 0x1.74853f3a5931ep-55,
};

/* exp(x) = (z + *lo) 2^K for x a float (or its negation) in [-104, 104]: z =
   RN(z + *lo), |z + *lo - exp(x) 2^-K| <= 2^-58.1 exp(x) 2^-K, z in [0.99,
   2.02]; *scale holds K << 52 (modulo 2^64): added to the bits of a normal
   double, it multiplies by 2^K. */
WC_INLINE double wc_exp_core_(double x, double *lo, uint64_t *scale) {
  WC_CR_CONTRACT_
  double   t = x * 0x1.71547652b82fep+6, m = t + 0x1.8p52, kd = m - 0x1.8p52;
  uint64_t mb = wc_f64_to_bits(m), j = mb & 63u; /* mb = bits(1.5*2^52) + k */
  double   r = (x - kd * 0x1.62e42fefa4000p-7) - kd * -0x1.8432a1b0e2634p-49;
  double   p2 = 0x1.0p-1 + r * (0x1.5555555555555p-3 + r * (0x1.5555555555555p-5 +
                r * (0x1.1111111111111p-7 + r * 0x1.6c16c16c16c17p-10)));
  double   q = r + (r * r) * p2;
  double   th = wc_exp_tab_[2 * j], s = wc_exp_tab_[2 * j + 1] + th * q, z = th + s;
  *lo = s - (z - th);
  *scale = (mb >> 6) << 52; /* floor(k / 64) << 52: bits(1.5*2^52) >> 6 << 52 is 0 */
  return z;
}

/* exp(x) rounded to odd at 53 bits, for a float x in [-104, 89] (outside,
   anything: the callers select the results there, as for NaN). */
WC_INLINE double wc_exp_odd_(float x) {
  double   z, e;
  uint64_t sc;
  z = wc_exp_core_((double)x, &e, &sc);
  return wc_bits_to_f64(wc_f64_to_bits(wc_cr_odd_(z, e)) + sc);
}

/* exp's value in a format, by the rounding the format gives w (finite x in
   [-104, 89]), or the special value: inf above 89 (exp(89) > 2^128 overflows
   every format), +0 below -104 (exp(-104) < 2^-150 rounds to 0 in each); NaN
   stays the caller's. */
WC_INLINE double wc_exp_special_(float x, double w) {
  return wc_sel_f64(x > 89.0f, wc_bits_to_f64(0x7ff0000000000000u), wc_sel_f64(x < -104.0f, 0.0, w));
}

/* exp on float, float16 and bfloat16: NaN stays that NaN, quieted (as every
   float op); the half types rounded once, directly (no double rounding). */
WC_INLINE float wc_exp_f32(float x) {
  float r = (float)wc_exp_odd_(x);
  r = wc_sel_f32(x > 89.0f, wc_bits_to_f32(0x7f800000u), wc_sel_f32(x < -104.0f, 0.0f, r));
  return wc_sel_f32(x != x, wc_quiet_f32(x), r);
}
/* ---- the raw forms: a block's first pass ---------------------------------
   wc_<f>_raw_f32(x) is wc_<f>_f32(x) or a NaN. It evaluates f(x) in plain
   double, one rounding per operation and no error-free steps, into y within
   a proven 2^-47 |f(x)| (each function's comment), and rounds y to float
   unless a float midpoint is within 2^-46 |y| of y, where the rounding of
   f(x) could differ: then, for a NaN x and where f(x) is a subnormal float
   (the midpoint test needs normal results), it gives a NaN. That is about
   one input in 2^20. A generated kernel evaluates a block of elements with
   the raw forms and, when any of them is a NaN, the whole block again with
   the exact forms (lower.c's plan_nan_redo): a NaN costs time, never bits.
   crmath_exhaustive checks every float input: each raw result is the exact
   one or a NaN. */

/* y rounded to float, or a NaN where that may not be f(x)'s rounding: where
   a float midpoint lies within 256 ulps of y's binade (2^-44 of its bottom,
   2^-45 |y| at least): y's last 29 bits are those float rounding drops,
   2^28 at a midpoint, and an error of at most 2^-47 |f(x)| < 2^-46 |y| (2^7
   ulps) cannot cross a midpoint 256 ulps away; where y is in (tiny, 2^-126),
   a subnormal float, whose midpoints the test does not see (below tiny, y
   rounds to 0: the callers' tiny is 0 or 2^-150 (1 - 2^-40)); and where bad
   (the input, a NaN). Everything else is a normal float or above: overflow
   rounds as the other results do. One select: each test costs its lanes. */
WC_INLINE float wc_cr_raw_round_(double y, double tiny, int bad) {
  uint32_t lo = (uint32_t)wc_f64_to_bits(y) & 0x1fffffffu;
  int      hard = (lo - (0x10000000u - 256u) < 512u) | ((y < 0x1p-126) & (y > tiny)) | bad;
  return wc_sel_f32(hard, wc_bits_to_f32(WC_CR_RAW_NAN_), (float)y);
}
#define WC_CR_RAW_TINY_ 0x1.ffffffffffep-151 /* 2^-150 (1 - 2^-40) */

/* y, a value of x's sign (f(x) has it, f(-0) = -0), rounded as above with
   the callers' tiny 2^-150 (1 - 2^-40): its magnitude (the subnormal test
   reads magnitudes), then x's sign put on; a NaN x gives the NaN. */
WC_INLINE float wc_cr_raw_round_signed_(double y, float x) {
  float r = wc_cr_raw_round_(wc_bits_to_f64(wc_f64_to_bits(y) & 0x7fffffffffffffffu),
                             WC_CR_RAW_TINY_, x != x);
  return wc_bits_to_f32(wc_f32_to_bits(r) | (wc_f32_to_bits(x) & 0x80000000u));
}

/* exp(x) in plain double for x in [-104, 89]: 2^(j/64) (its double, within
   2^-53) times p(r) = 1 + r + ... + r^5/120 (Taylor: truncation |r|^6/720
   <= 2^-54.6 for |r| <= 2^-7.52; Horner's roundings within 1.01 * 2^-53 |p|
   whatever contracts), r as exp_core_'s (within 2^-60.5), the product within
   2^-53, scaling by 2^K exact: 2^-51.3 exp(x) in all. */
WC_INLINE double wc_exp_plain_(double x) {
  WC_CR_CONTRACT_
  double   t = x * 0x1.71547652b82fep+6, m = t + 0x1.8p52, kd = m - 0x1.8p52;
  uint64_t mb = wc_f64_to_bits(m), j = mb & 63u;
  double   r = (x - kd * 0x1.62e42fefa4000p-7) - kd * -0x1.8432a1b0e2634p-49;
  double   p = 1.0 + r * (1.0 + r * (0.5 + r * (0x1.5555555555555p-3 +
               r * (0x1.5555555555555p-5 + r * 0x1.1111111111111p-7))));
  return wc_bits_to_f64(wc_f64_to_bits(wc_exp_tab_[2 * j] * p) + ((mb >> 6) << 52));
}

/* expm1(t) = e^t - 1 in plain double for a float t in [-104, 89], without
   a table (no gather: as cheap as exp_plain_): t = k ln2 + r, k the integer
   nearest t/ln2, |r| <= ln2/2 (1 + 2^-40), r = (t - k L1) - k L2 (ln2 =
   L1 + L2 within 2^-102, crmath.h's log constants) within u |r| + 2^-94, q
   = r + r^2 p = expm1(r) Taylor to r^12 (truncation |r|^12/13! 1.03 <=
   2^-50.86 |r|), p by Estrin's scheme (a short dependency chain: gcc does
   not contract generated code): p within 5 u of itself (its terms add up to
   at most 1.3 p), r^2 and the product u each, |r^2 p| <= 0.2 |r|, so the
   roundings before the last addition 1.4 u |r|; E = (2^k - 1) + 2^k q.
   - k = 0 (|t| < ln2/2): r = t exactly, E = q, |E| >= 0.845 |r|: (5.2 +
     1.66 + 1) u <= 2^-50.0 |E|. No cancellation near 0.
   - k != 0: 2^k |q| <= 1.42 |E| and e^t <= 3.42 |E| (|t| >= ln2/2): r's
     error 1.19 u, q's 7.9 u |q| (11.2 u |E|), the product 1.42 u (2^k
     exact: the double stays normal), 2^k - 1 (exact for |k| <= 53, else
     within 0.7 u |E|) and the last sum u: 15.5 u <= 2^-49.0 |E|.
   Whatever contracts: each step is bounded as if rounded. */
WC_INLINE double wc_expm1_plain_(double t) {
  WC_CR_CONTRACT_
  double m = t * 0x1.71547652b82fep+0 + 0x1.8p52, kd = m - 0x1.8p52;
  double sc = wc_bits_to_f64(0x3ff0000000000000u + (wc_f64_to_bits(m) << 52)); /* 2^k */
  double r = (t - kd * 0x1.62e42fefa3a00p-1) - kd * -0x1.0ca86c3898d00p-49;
  double r2 = r * r, r4 = r2 * r2;
  double p = (0.5 + r * 0x1.5555555555555p-3) + r2 * (0x1.5555555555555p-5 + r * 0x1.1111111111111p-7);
  double p4 = (0x1.6c16c16c16c17p-10 + r * 0x1.a01a01a01a01ap-13) +
              r2 * (0x1.a01a01a01a01ap-16 + r * 0x1.71de3a556c734p-19);
  double p8 = (0x1.27e4fb7789f5cp-22 + r * 0x1.ae64567f544e4p-26) + r2 * 0x1.1eed8eff8d898p-29;
  return (sc - 1.0) + sc * (r + r2 * ((p + r4 * p4) + (r4 * r4) * p8));
}

/* x clamped to [lo, hi], a NaN kept. */
WC_INLINE float wc_cr_clamp_(float x, float lo, float hi) {
  return wc_sel_f32(x > hi, hi, wc_sel_f32(x < lo, lo, x));
}

/* Clamped to 89, exp overflows (exp(89) > 2^128.4); to -104, it rounds to
   0 (exp(-104) < 2^-150.04). */
WC_INLINE float wc_exp_raw_f32(float x) {
  return wc_cr_raw_round_(wc_exp_plain_((double)wc_cr_clamp_(x, -104.0f, 89.0f)), WC_CR_RAW_TINY_,
                          x != x);
}

WC_INLINE wc_float16 wc_exp_f16(wc_float16 a) {
  float  x = (float)wc_cr_f16_in_(a);
  double w = wc_exp_special_(x, wc_cr_round_p_(wc_exp_odd_(x), 11, -14));
  return wc_sel_f16((a & 0x7fffu) > 0x7c00u, wc_cr_f16_nan_(a), wc_cr_f16_out_(w));
}
WC_INLINE wc_bfloat16 wc_exp_bf16(wc_bfloat16 a) {
  float  x = wc_bf16_to_f32(a);
  double w = wc_exp_special_(x, wc_cr_round_p_(wc_exp_odd_(x), 8, -126));
  return wc_sel_bf16((a & 0x7fffu) > 0x7f80u, wc_cr_bf16_nan_(a),
                     (wc_bfloat16)(wc_f32_to_bits((float)w) >> 16));
}

#ifdef __cplusplus
}
#endif
#endif
