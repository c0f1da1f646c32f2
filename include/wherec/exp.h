/* wherec/exp.h: exp correctly rounded to nearest even for float, float16 and
   bfloat16, without libm: a double evaluation with a proven error bound, and an
   exact integer fallback for the few inputs that bound cannot decide. */
#ifndef WHEREC_EXP_H
#define WHEREC_EXP_H

#include <stdint.h>
#include <string.h>

#include "ops.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Why this is right whatever the compiler contracts (a * b + c into an FMA,
   which gcc does across statements under -ffp-contract=fast):
   exp(x) = 2^K * 2^(j/64) * exp(r), k = 64K + j the integer nearest x*64/ln2
   (any neighbour works: only |r| <= ln2/128 (1 + 2^-30) is used), r = x - k*C.
   C1 (C = ln2/64 rounded to a multiple of 2^-45) makes k*C1 exact (|k| < 2^14)
   and x - k*C1 exact (|x| >= 2^-8 when k != 0, so both are multiples of 2^-45
   and the difference is < 2^-7), so contracting them changes nothing; every
   other step is one rounded operation or a fused pair, and a fused pair rounds
   once, so the bounds below (each operation rounded) hold either way.
   - r = rh - k*C2: error <= 2^-53 |r| + 2^-84 <= 2^-60.4 (|r| <= 2^-7.52).
   - q = r + r^2 (1/2 + r/6 + ... + r^4/720), Taylor to degree 6: truncation
     <= |r|^7/7! * 1.01 < 2^-65; rounding: r^2*p2 ~ 2^-16 within 2^-51
     relative, the final add 2^-53 |q| <= 2^-60.5; so |q - expm1(r)| <= 2^-60.3.
   - s = Tl + Th*q (Th + Tl = 2^(j/64) within 2^-106; Tl*q dropped):
     3 * 2^-60.5 Th; then z + e = Th + s exactly (Fast2Sum: Th >= 1 > 16|s|,
     no products, nothing to contract); scaling by 2^K is exact.
   In all |z + e - exp(x)| <= 2^-58 exp(x) < 2^-57 z = B. The rounding of z to
   the target is read off its bits: with ulp = ulp(z) in double, |e| <= ulp/2
   and B <= ulp/8, so exp(x) is within 0.625 ulp of z; unless z is exactly a
   midpoint of the target format, exp(x) rounds as z does. At a midpoint the
   sign of e decides when |e| > B; otherwise the exact fallback wc_exp_slow_
   decides (about one float input in 2^32 would be expected to reach either;
   none does in a build without contraction). exp(x) is never a midpoint (x != 0:
   Lindemann), so round to nearest even only ever applies to exact ties. */

#define WC_EXP_L_ 6 /* fallback limbs: 32 bits each, 160 fraction bits, little-endian */

/* r = (a * b) >> 160: the product of two fallback fixed-point numbers, truncated */
static inline void wc_exp_mul_(uint32_t *r, const uint32_t *a, const uint32_t *b) {
  uint32_t p[2 * WC_EXP_L_];
  int      i, j;
  memset(p, 0, sizeof p);
  for (i = 0; i < WC_EXP_L_; i++) {
    uint64_t c = 0;
    for (j = 0; j < WC_EXP_L_; j++) {
      uint64_t t = (uint64_t)a[i] * b[j] + p[i + j] + c;
      p[i + j] = (uint32_t)t;
      c = t >> 32;
    }
    p[i + WC_EXP_L_] = (uint32_t)c;
  }
  for (i = 0; i < WC_EXP_L_; i++) r[i] = p[i + WC_EXP_L_ - 1];
}

/* a += b (sign > 0) or a -= b; the caller keeps results in range. */
static inline void wc_exp_addsub_(uint32_t *a, const uint32_t *b, int sign) {
  uint64_t c = 0;
  int      i;
  for (i = 0; i < WC_EXP_L_; i++) {
    uint64_t t = sign > 0 ? (uint64_t)a[i] + b[i] + c : (uint64_t)a[i] - b[i] - c;
    a[i] = (uint32_t)t;
    c = sign > 0 ? t >> 32 : (t >> 32) & 1u;
  }
}

/* The exact fallback: r = x - k ln2 in 160-bit fixed point (x exact, ln2
   truncated at 2^-160, |k| <= 151), exp(r) by its Taylor series (|r| < 0.35,
   about 35 terms, each step truncated: error < 2^-150), 2^k exp(r) rounded to
   p bits with normal exponents [emin, emax]. The float whose exp lies nearest
   a midpoint is 2^-52.7 (relative) from it, far outside that error
   (tests/runtime/test_exp.c lists the hardest cases). */
static inline double wc_exp_slow_(float x, int p, int emin, int emax) {
  static const uint32_t ln2[WC_EXP_L_] = {0x40f34326u, 0x03f2f6afu, 0xc9e3b398u,
                                          0xd1cf79abu, 0xb17217f7u, 0u};
  uint32_t u = wc_f32_to_bits(x), ax[WC_EXP_L_], kl[WC_EXP_L_], s[WC_EXP_L_], t[WC_EXP_L_];
  uint32_t m = (u & 0x7fffffu) | ((u >> 23) & 0xffu ? 0x800000u : 0u), kk;
  int      sh = (int)((u >> 23) & 0xffu) - 150 + 160, neg = (int)(u >> 31), rneg, n, i, msb, e, keep, b;
  double   kd = (double)x * 0x1.71547652b82fep+0;
  int      k = (int)(kd + (kd < 0 ? -0.5 : 0.5));
  uint64_t c, q, up;
  if (!((u >> 23) & 0xffu)) sh++;                     /* subnormal exponent */
  memset(ax, 0, sizeof ax);
  for (i = 0; i < 24; i++)                            /* |x| as fixed point */
    if (((m >> i) & 1u) && sh + i >= 0) ax[(sh + i) / 32] |= 1u << ((sh + i) % 32);
  kk = (uint32_t)(k < 0 ? -k : k);                    /* kl = |k| ln2 */
  for (c = 0, i = 0; i < WC_EXP_L_; i++) {
    c += (uint64_t)ln2[i] * kk;
    kl[i] = (uint32_t)c;
    c >>= 32;
  }
  for (i = WC_EXP_L_ - 1; i > 0 && ax[i] == kl[i]; i--) {}
  rneg = ax[i] >= kl[i] ? neg : !neg;                 /* |r| = ||x| - |k| ln2| */
  if (ax[i] >= kl[i]) wc_exp_addsub_(ax, kl, -1);
  else {
    wc_exp_addsub_(kl, ax, -1);
    memcpy(ax, kl, sizeof ax);
  }
  memset(s, 0, sizeof s);
  memset(t, 0, sizeof t);
  s[WC_EXP_L_ - 1] = t[WC_EXP_L_ - 1] = 1u;
  for (n = 1; n < 64; n++) {                          /* t = |r|^n / n!, s = exp(r) */
    uint64_t rem = 0;
    wc_exp_mul_(t, t, ax);
    for (i = WC_EXP_L_ - 1; i >= 0; i--) {
      uint64_t cur = (rem << 32) | t[i];
      t[i] = (uint32_t)(cur / (uint64_t)n);
      rem = cur % (uint64_t)n;
    }
    wc_exp_addsub_(s, t, rneg && (n & 1) ? -1 : 1);
  }
  msb = s[WC_EXP_L_ - 1] ? 160 : 159;                 /* s in [0.7, 1.42] */
  e = k + msb - 160;                                  /* exponent of the result */
  keep = p - (e < emin ? emin - e : 0);               /* bits kept: fewer when subnormal */
  if (keep < 0) return 0.0;
  b = msb - keep + 1;                                 /* lowest kept bit */
  for (q = 0, i = msb; i >= b; i--) q = (q << 1) | ((s[i / 32] >> (i % 32)) & 1u);
  up = (s[(b - 1) / 32] >> ((b - 1) % 32)) & 1u;      /* the bit below; then sticky or odd */
  if (up) {
    uint64_t sticky = 0;
    for (i = b - 2; i >= 0; i--) sticky |= (s[i / 32] >> (i % 32)) & 1u;
    up = sticky | (q & 1u);
  }
  {
    double r = (double)(q + up) * wc_bits_to_f64((uint64_t)(e - keep + 1 + 1023) << 52);
    return r >= wc_bits_to_f64((uint64_t)(emax + 1 + 1023) << 52) ? wc_bits_to_f64(0x7ff0000000000000u) : r;
  }
}

/* exp(x) for finite x, rounded to nearest even with p significand bits and
   normal exponents [emin, emax] (subnormals below emin), as a double. */
static inline double wc_exp_round_(float x, int p, int emin, int emax) {
  static const double tab[128] = { /* 2^(j/64) = tab[2j] + tab[2j+1] */
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
  double   xd = (double)x, t, rh, r, p2, q, s, z, e, th, sc;
  int32_t  k, kk, j;
  uint64_t zb, m, half, rem, qq;
  int      ez, nb;
  if (xd > 89.0) return wc_bits_to_f64(0x7ff0000000000000u); /* exp(89) > 2^128 */
  if (xd < -104.0) return 0.0;                        /* exp(-104) < 2^-150 */
  t = xd * 0x1.71547652b82fep+6;                      /* x * 64/ln2 */
  k = (int32_t)(t + (t < 0 ? -0.5 : 0.5));
  kk = k + 64 * 200;                                  /* >= 0: no shift of a negative */
  j = kk & 63;
  rh = xd - (double)k * 0x1.62e42fefa4000p-7;         /* exact */
  r = rh - (double)k * -0x1.8432a1b0e2634p-49;
  p2 = 0x1.0p-1 + r * (0x1.5555555555555p-3 + r * (0x1.5555555555555p-5
       + r * (0x1.1111111111111p-7 + r * 0x1.6c16c16c16c17p-10)));
  q = r + (r * r) * p2;                               /* expm1(r) */
  th = tab[2 * j];
  s = tab[2 * j + 1] + th * q;
  z = th + s;
  e = s - (z - th);                                   /* z + e == th + s exactly */
  sc = wc_bits_to_f64((uint64_t)((kk >> 6) - 200 + 1023) << 52);
  z *= sc;
  e *= sc;
  memcpy(&zb, &z, sizeof zb);
  ez = (int)(zb >> 52) - 1023;
  m = (zb & 0xfffffffffffffu) | ((uint64_t)1 << 52);
  nb = 53 - p + (ez < emin ? emin - ez : 0);          /* low bits of z below the target's ulp */
  if (nb > 53) return 0.0;                            /* below half the smallest subnormal */
  half = (uint64_t)1 << (nb - 1);
  rem = m & ((half << 1) - 1u);
  qq = m >> nb;
  if (rem == half) {                                  /* z is a midpoint: e, or the fallback */
    double b = z * 0x1.0p-57;
    if (!(e > b || e < -b)) return wc_exp_slow_(x, p, emin, emax);
    rem += e > 0 ? 1u : 0u;
  }
  qq += rem > half ? 1u : 0u;
  z = (double)qq * wc_bits_to_f64((uint64_t)(ez - 52 + nb + 1023) << 52);
  return z >= wc_bits_to_f64((uint64_t)(emax + 1 + 1023) << 52) ? wc_bits_to_f64(0x7ff0000000000000u) : z;
}

/* exp on float, float16 and bfloat16: NaN stays that NaN, quieted (as every
   float op); the half types rounded once, directly (no double rounding). */
static inline float wc_exp_f32(float x) {
  if (x != x) return wc_quiet_f32(x);
  return (float)wc_exp_round_(x, 24, -126, 127);
}
static inline wc_float16 wc_exp_f16(wc_float16 a) {
  float x = wc_f16_to_f32(a);
  return wc_f32_to_f16(x != x ? wc_quiet_f32(x) : (float)wc_exp_round_(x, 11, -14, 15));
}
static inline wc_bfloat16 wc_exp_bf16(wc_bfloat16 a) {
  float x = wc_bf16_to_f32(a);
  return wc_f32_to_bf16(x != x ? wc_quiet_f32(x) : (float)wc_exp_round_(x, 8, -126, 127));
}

#ifdef __cplusplus
}
#endif
#endif
