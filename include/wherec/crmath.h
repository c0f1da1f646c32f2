/* wherec/crmath.h: log, tanh, sigmoid and erf correctly rounded to nearest even
   for float, float16 and bfloat16, without libm and without a branch; computed
   as exp is (wherec/exp.h says how, and why the bits are the same everywhere):
   a pair h + l within a proven bound B of f(x), rounded to odd, then into the
   target; B is below the distance D of every input's f(x) from the format's
   rounding boundaries (tests/runtime/crmath_hardest.c). The tables are made by
   tests/runtime/crmath_tables.py, which also computes the bounds of log and erf
   that depend on them. */
#ifndef WHEREC_CRMATH_H
#define WHEREC_CRMATH_H

#include <stdint.h>

#include "exp.h"
#include "ops.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The canonical quiet NaN (log of a negative) and the infinities, as floats. */
#define WC_CR_NAN_ 0x7fc00000u
#define WC_CR_INF_ 0x7f800000u

/* ---- log ---------------------------------------------------------------------
   x = 2^k z, z in [0.6973, 1.3946) (z's bits are x's less k << 23, k from the
   bits of x - OFF; a subnormal x is scaled by 2^23 first, exactly), the
   interval i of z (its 2^16 bit patterns) gives invc ~ 1/z of 24 bits (1 on
   the interval [1 - 2^-9, 1 + 2^-8) around 1) and -log(invc) = LH + LL, LH a
   multiple of 2^-45, LL within 2^-99. log x = k ln2 - log(invc) + log1p(r):
   - r = z*invc - 1 is exact (48-bit product within 2^-8 of 1), |r| <= 2^-8.
   - TH = k*L1 + LH is exact (L1 = ln2 to a multiple of 2^-45, |k| <= 149: a
     multiple of 2^-45 below 2^7), TL = k*L2 + LL within 2^-93; so contracting
     k*L1 changes nothing. (S, E1) = TH + r exactly (2Sum: additions only).
   - t = r^2 (-1/2 + r/3 - ... - r^6/8) ~ log1p(r) - r: truncation <=
     |r|^9/9 (1 + 2^-8); rounding (r*r, the product, Horner's last step) within
     3.04 * 2^-53 |t|, |t| <= 2^-17.
   - l = E1 + (TL + t), two roundings of at most 2^-53 * 2^-17 each (none on
     the interval around 1: E1 = TL = 0); h + l = S + l exactly (Fast2Sum).
   Relative to |log x| (>= |r|/(1 + |r|) around 1, >= 2^-9 elsewhere, > 0.33
   when k != 0), per interval (crmath_tables.py bounds): B = 2^-59.68.
   D: float 2^-57.8 (x = 0x1.b121a6p+76), float16 2^-26.8, bfloat16 2^-25.1.
   log(+0) = log(-0) = -inf, log(+inf) = +inf, log of a negative (-inf too)
   the canonical NaN. */

static const double wc_log_tab_[3 * 128] = { /* invc, LH, LL */
    0x1.6e1f780000000p+0, -0x1.6e60f20af1a00p-2, 0x1.5063505bf8a4ap-47,
    0x1.6c16c20000000p+0, -0x1.68ac8589c6a00p-2, -0x1.da4c9d8973d57p-51,
    0x1.6a13ce0000000p+0, -0x1.6300334baac00p-2, -0x1.de3818fcda3a9p-49,
    0x1.6816820000000p+0, -0x1.5d5bdfa596000p-2, 0x1.ac16a087123dcp-47,
    0x1.661ec80000000p+0, -0x1.57bf791c8d200p-2, 0x1.194908363633dp-49,
    0x1.642c860000000p+0, -0x1.522ae1b38a400p-2, 0x1.5a8f7e9603514p-49,
    0x1.623fa80000000p+0, -0x1.4c9e0b8172c00p-2, -0x1.b536e50098b18p-49,
    0x1.6058160000000p+0, -0x1.4718dc171c400p-2, -0x1.b043ed3052c06p-50,
    0x1.5e75bc0000000p+0, -0x1.419b438d5e800p-2, -0x1.875f6eca8fe9dp-47,
    0x1.5c98840000000p+0, -0x1.3c252b3333200p-2, 0x1.30d5691c00549p-47,
    0x1.5ac0580000000p+0, -0x1.36b67b4be1000p-2, -0x1.f1c9b644f94e3p-47,
    0x1.58ed240000000p+0, -0x1.314f20fd35c00p-2, -0x1.a6514b47887c8p-47,
    0x1.571ed40000000p+0, -0x1.2bef087dc9400p-2, 0x1.5aa56d6bc74dbp-47,
    0x1.5555560000000p+0, -0x1.269623134dc00p-2, 0x1.d61f10477b7a5p-48,
    0x1.5390960000000p+0, -0x1.21445b28eb800p-2, -0x1.5d04ebdb0f47cp-47,
    0x1.51d0800000000p+0, -0x1.1bf99a35a6c00p-2, 0x1.1644ab8365e7cp-47,
    0x1.5015020000000p+0, -0x1.16b5ced2cfc00p-2, 0x1.2ad582109be66p-47,
    0x1.4e5e0c0000000p+0, -0x1.1178ece27e400p-2, -0x1.3af8cebbed46ap-48,
    0x1.4cab8a0000000p+0, -0x1.0c42db3e16200p-2, -0x1.6ab1c5d818c5ep-47,
    0x1.4afd6a0000000p+0, -0x1.071385f4d5800p-2, -0x1.89c5b16ed4d3cp-48,
    0x1.4953a00000000p+0, -0x1.01eaeae26c600p-2, -0x1.51dcfbbc5b021p-48,
    0x1.47ae160000000p+0, -0x1.f991d04b3b400p-3, 0x1.c184ccede2df2p-48,
    0x1.460cbe0000000p+0, -0x1.ef5ae7bdd0000p-3, 0x1.ccc8547ebe13ep-49,
    0x1.446f880000000p+0, -0x1.e530fa7e71000p-3, 0x1.70b760fd1830cp-49,
    0x1.42d6640000000p+0, -0x1.db13e56d48800p-3, -0x1.a922852f48cfbp-48,
    0x1.4141420000000p+0, -0x1.d10383e656000p-3, 0x1.9b37e7528118fp-47,
    0x1.3fb0140000000p+0, -0x1.c6ffbc8f01000p-3, 0x1.1ecf2c5962a7dp-48,
    0x1.3e22cc0000000p+0, -0x1.bd0874c3bd800p-3, -0x1.56fdd35649fa7p-48,
    0x1.3c995c0000000p+0, -0x1.b31d9095bcc00p-3, -0x1.c0e32b87ef9a4p-47,
    0x1.3b13b20000000p+0, -0x1.a93ed8c8ad800p-3, -0x1.ca6f2bf4e2507p-47,
    0x1.3991c40000000p+0, -0x1.9f6c489089800p-3, 0x1.ddf0a5b9ecec6p-47,
    0x1.3813820000000p+0, -0x1.95a5b2ef70000p-3, -0x1.64de859547ac4p-47,
    0x1.3698e00000000p+0, -0x1.8beb03b390000p-3, 0x1.8cd54aa428226p-47,
    0x1.3521d00000000p+0, -0x1.823c18551a400p-3, 0x1.091232cbc613dp-49,
    0x1.33ae460000000p+0, -0x1.7898da4444c00p-3, -0x1.bdf3c7b9cb22ep-49,
    0x1.323e360000000p+0, -0x1.6f0131d756c00p-3, 0x1.97a77927b76dep-47,
    0x1.30d1900000000p+0, -0x1.6574eb68c1400p-3, 0x1.8c9d34f0f9b77p-48,
    0x1.2f684c0000000p+0, -0x1.5bf407b543c00p-3, -0x1.b0fb82930251dp-47,
    0x1.2e025c0000000p+0, -0x1.527e5e2a1b400p-3, -0x1.8cf6395a5f670p-47,
    0x1.2c9fb60000000p+0, -0x1.4913e0133b400p-3, -0x1.22da5568203e0p-47,
    0x1.2b404c0000000p+0, -0x1.3fb4627992800p-3, -0x1.130bc1244ac3ep-48,
    0x1.29e4140000000p+0, -0x1.365fd48159000p-3, 0x1.10415e55078c3p-49,
    0x1.288b020000000p+0, -0x1.2d16169868000p-3, -0x1.180dccc878a60p-47,
    0x1.27350c0000000p+0, -0x1.23d715e49c000p-3, -0x1.f71471fd5840ep-47,
    0x1.25e2280000000p+0, -0x1.1aa2bea23f800p-3, 0x1.03ac6ed838b30p-47,
    0x1.24924a0000000p+0, -0x1.1178ee227e400p-3, -0x1.5f78ce7507f1ap-49,
    0x1.2345680000000p+0, -0x1.08598e99e3800p-3, -0x1.fbf8a400784a5p-47,
    0x1.21fb780000000p+0, -0x1.fe89129dbd800p-4, 0x1.4d7593e84569dp-47,
    0x1.20b4720000000p+0, -0x1.ec73a990a1000p-4, -0x1.11b350f448847p-49,
    0x1.1f70480000000p+0, -0x1.da72783844800p-4, 0x1.5faff8160f889p-48,
    0x1.1e2ef40000000p+0, -0x1.c885845bc4800p-4, -0x1.8d30719777ea2p-47,
    0x1.1cf06c0000000p+0, -0x1.b6ac995ad5800p-4, -0x1.49dffaafdde33p-47,
    0x1.1bb4a40000000p+0, -0x1.a4e763cb1c000p-4, 0x1.e42f6b9440873p-47,
    0x1.1a7b960000000p+0, -0x1.9335e4d594800p-4, -0x1.882e1d5e9e977p-48,
    0x1.1945380000000p+0, -0x1.8197e2740e000p-4, -0x1.f7fdcf96ff8a2p-47,
    0x1.1811820000000p+0, -0x1.700d3deeac000p-4, -0x1.1258dafacba84p-49,
    0x1.16e06a0000000p+0, -0x1.5e95b9b979000p-4, -0x1.e335c51de95b6p-49,
    0x1.15b1e60000000p+0, -0x1.4d31165208000p-4, 0x1.53c2582f4d745p-48,
    0x1.1485f20000000p+0, -0x1.3bdf6b1d1f000p-4, 0x1.130156594ef92p-47,
    0x1.135c820000000p+0, -0x1.2aa0580471800p-4, 0x1.73f8ae301852cp-49,
    0x1.1235900000000p+0, -0x1.1973d41465800p-4, 0x1.d0d75504aa51ep-47,
    0x1.1111120000000p+0, -0x1.08599959e3800p-4, -0x1.a488a436c69f9p-48,
    0x1.0fef020000000p+0, -0x1.eea338406b000p-5, -0x1.ed0b1b20c75eep-47,
    0x1.0ecf580000000p+0, -0x1.ccb762dddb000p-5, -0x1.6286dd31b6a5fp-49,
    0x1.0db20c0000000p+0, -0x1.aaef598fb1000p-5, 0x1.e5eb91f2a9fd0p-50,
    0x1.0c97160000000p+0, -0x1.894ac049fb000p-5, -0x1.297a8c370b0b1p-48,
    0x1.0b7e700000000p+0, -0x1.67c9752d4c000p-5, 0x1.842fbe7a284fbp-47,
    0x1.0a68120000000p+0, -0x1.466b16c2de000p-5, -0x1.1d7e45db2255dp-48,
    0x1.0953f40000000p+0, -0x1.252f4078d2000p-5, 0x1.fbbd47f45e416p-47,
    0x1.0842120000000p+0, -0x1.0416069e74000p-5, -0x1.19b80c9bb5940p-48,
    0x1.0732620000000p+0, -0x1.c63d83414a000p-6, -0x1.dd412093c0bb3p-48,
    0x1.0624de0000000p+0, -0x1.8492858c8c000p-6, -0x1.2f2d737f1412fp-47,
    0x1.0519800000000p+0, -0x1.432ab25980000p-6, -0x1.8813992db8d53p-47,
    0x1.0410420000000p+0, -0x1.0205a38936000p-6, 0x1.3326c191f39f5p-47,
    0x1.03091c0000000p+0, -0x1.8244e0388c000p-7, 0x1.f241f6904cc58p-47,
    0x1.0204080000000p+0, -0x1.01014f588c000p-7, -0x1.e6d28ccc57d85p-47,
    0x1.0101020000000p+0, -0x1.0081539588000p-8, -0x1.aaaf2f61e47fdp-51,
    0x1.0000000000000p+0, 0x0.0p+0, 0x0.0p+0,
    0x1.fc07f20000000p-1, 0x1.fe01b4b108000p-8, -0x1.150e3cd185896p-48,
    0x1.f81f840000000p-1, 0x1.fc0a070fc0000p-7, 0x1.0499f37db89abp-48,
    0x1.f4465c0000000p-1, 0x1.7b916b7d5c000p-6, -0x1.9246db36ce51ap-47,
    0x1.f07c200000000p-1, 0x1.f82990e784000p-6, -0x1.8ff660e5d2dc6p-47,
    0x1.ecc07e0000000p-1, 0x1.39e84cdfec000p-5, -0x1.f7cc02e424e15p-51,
    0x1.e9131c0000000p-1, 0x1.77457a632e000p-5, -0x1.4abce59ecd08dp-48,
    0x1.e573ae0000000p-1, 0x1.b42dbed197000p-5, 0x1.28e3466540ea6p-48,
    0x1.e1e1e40000000p-1, 0x1.f0a2e80116000p-5, 0x1.f530bdeb38b7ep-48,
    0x1.de5d700000000p-1, 0x1.16535fea37800p-4, 0x1.a8b4310ae39f0p-47,
    0x1.dae60a0000000p-1, 0x1.341d6321bd000p-4, 0x1.640d4c4efd535p-47,
    0x1.d77b660000000p-1, 0x1.51b06dd061800p-4, 0x1.48ac9e267b9e2p-50,
    0x1.d41d440000000p-1, 0x1.6f0d15ae57000p-4, -0x1.fff20dfa95b3ep-47,
    0x1.d0cb5a0000000p-1, 0x1.8c34544319800p-4, 0x1.a54bd6522b11ap-47,
    0x1.cd856a0000000p-1, 0x1.a926c6e4ad800p-4, -0x1.25a97a2c81d1dp-47,
    0x1.ca4b320000000p-1, 0x1.c5e53a15bc800p-4, -0x1.3920a8b288ef1p-50,
    0x1.c71c740000000p-1, 0x1.e27062e2af000p-4, 0x1.d6f4f4f0aa9c0p-47,
    0x1.c3f8f20000000p-1, 0x1.fec901fdbe800p-4, 0x1.a6a616f47c862p-47,
    0x1.c0e0720000000p-1, 0x1.0d77dfad09000p-3, -0x1.649568bb38747p-47,
    0x1.bdd2ba0000000p-1, 0x1.1b72a6e2f6800p-3, -0x1.b32fd08e931d7p-50,
    0x1.bacf920000000p-1, 0x1.29552c41ff400p-3, 0x1.2ddc05d994acap-47,
    0x1.b7d6c60000000p-1, 0x1.371fb811e9000p-3, -0x1.481995d813ac1p-50,
    0x1.b4e81c0000000p-1, 0x1.44d2b38cb7c00p-3, 0x1.28f7d3d674a33p-47,
    0x1.b203660000000p-1, 0x1.526e54ea1b400p-3, 0x1.1cb7c77d13fabp-48,
    0x1.af286e0000000p-1, 0x1.5ff2fc8a79400p-3, 0x1.0821ce06481e0p-49,
    0x1.ac57040000000p-1, 0x1.6d60f3519d400p-3, -0x1.67aeabfc61682p-47,
    0x1.a98ef80000000p-1, 0x1.7ab886a10d800p-3, 0x1.635be323babfap-47,
    0x1.a6d01c0000000p-1, 0x1.87f9feb20c800p-3, 0x1.4ab41fe40ff34p-47,
    0x1.a41a420000000p-1, 0x1.9525a80f45800p-3, -0x1.4879becffd1cap-47,
    0x1.a16d400000000p-1, 0x1.a23bbffe2b400p-3, 0x1.6719371105cffp-47,
    0x1.9ec8ea0000000p-1, 0x1.af3c91880c000p-3, -0x1.c331a31ae8320p-55,
    0x1.9c2d160000000p-1, 0x1.bc2861f2d8c00p-3, 0x1.e4c5f38414f9ap-48,
    0x1.99999a0000000p-1, 0x1.c8ff7a79a9c00p-3, -0x1.da53da288bb7bp-47,
    0x1.970e500000000p-1, 0x1.d5c21434fbc00p-3, -0x1.a191bbcf9d708p-49,
    0x1.948b120000000p-1, 0x1.e2706bc2af400p-3, -0x1.3ca42bd57ba5cp-48,
    0x1.920fb60000000p-1, 0x1.ef0ad5adc5800p-3, 0x1.683318c0f9207p-47,
    0x1.8f9c1a0000000p-1, 0x1.fb918195e4000p-3, -0x1.b9e2aac5a2c86p-47,
    0x1.8d301a0000000p-1, 0x1.040256434d000p-2, 0x1.4ced89ca1fd56p-48,
    0x1.8acb920000000p-1, 0x1.0a324b7739000p-2, 0x1.e3a2e7e24f664p-47,
    0x1.886e600000000p-1, 0x1.1058bd1ae4a00p-2, 0x1.c3313f36ebeecp-47,
    0x1.8618620000000p-1, 0x1.1675c97aba600p-2, 0x1.1239cc72ec65cp-50,
    0x1.83c9780000000p-1, 0x1.1c898b3699a00p-2, -0x1.be1cb8e1f538ep-53,
    0x1.8181820000000p-1, 0x1.22941e6cf7a00p-2, -0x1.2dd77af706914p-47,
    0x1.7f40600000000p-1, 0x1.2895a0bde8600p-2, 0x1.47bd6925f4a2dp-47,
    0x1.7d05f60000000p-1, 0x1.2e8e268e11e00p-2, -0x1.35b7a6c788a04p-47,
    0x1.7ad2220000000p-1, 0x1.347dd5c187e00p-2, -0x1.194a75591caafp-47,
    0x1.78a4ca0000000p-1, 0x1.3a64c02694600p-2, 0x1.f992f07453990p-50,
    0x1.767dd00000000p-1, 0x1.404303a86a800p-2, 0x1.0dd0beec49f91p-50,
    0x1.745d180000000p-1, 0x1.4618ba21c5e00p-2, 0x1.94fa16f11a112p-47,
    0x1.72428a0000000p-1, 0x1.4be5f3af77800p-2, 0x1.c1af98b9efdd2p-47,
    0x1.702e060000000p-1, 0x1.51aad7c2df800p-2, 0x1.6fde49ea28a80p-49
};

/* log x rounded to odd at 53 bits, x a positive finite float (any other x:
   anything, without undefined behaviour: i < 128, z in [0.69, 1.4)). */
WC_INLINE double wc_log_odd_(float x) {
  WC_CR_CONTRACT_
  uint32_t ix = wc_f32_to_bits(x), sub = ix < 0x00800000u, tmp;
  uint64_t i;
  double   z, r, kd, th, tl, s, bb, e1, p, t, l, h;
  ix = wc_f32_to_bits(wc_sel_f32(sub != 0, x * 0x1p23f, x));
  tmp = ix - 0x3f328000u;
  i = (tmp >> 16) & 127u; /* 64 bits: gcc gathers with it, not with an unsigned int */
  kd = (double)((int32_t)((tmp >> 23) ^ 256u) - 256 - (int32_t)(sub * 23u));
  z = (double)wc_bits_to_f32(ix - (tmp & 0xff800000u));
  r = z * wc_log_tab_[3 * i] - 1.0;
  th = kd * 0x1.62e42fefa3a00p-1 + wc_log_tab_[3 * i + 1];
  tl = kd * -0x1.0ca86c3898d00p-49 + wc_log_tab_[3 * i + 2];
  s = th + r;
  bb = s - th;
  e1 = (th - (s - bb)) + (r - bb);
  p = -0.5 + r * (0x1.5555555555555p-2 + r * (-0.25 + r * (0x1.999999999999ap-3 +
      r * (-0x1.5555555555555p-3 + r * (0x1.2492492492492p-3 + r * -0.125)))));
  t = (r * r) * p;
  l = e1 + (tl + t);
  h = s + l;
  return wc_cr_odd_(h, l - (h - s));
}

/* log x in plain double (exp.h's raw forms), as wc_log_odd_ without its
   error-free steps: y = TH + (r + (TL + t)). Roundings: TL + t 2^-70, r + ...
   2^-61 (|r| <= 2^-8), the last addition 2^-53 |y|; with t's and TL's (above)
   an absolute 2^-60.9 besides, relative to |log x| >= 2^-9 where TH != 0:
   2^-51.4; where TH = 0 (k = 0, the interval around 1) y = r + t, 2^-52.9. A
   non-positive, infinite or NaN x: the NaN (the exact form's cases). */
WC_INLINE float wc_log_raw_f32(float x) {
  WC_CR_CONTRACT_
  uint32_t u = wc_f32_to_bits(x), sub = u < 0x00800000u, ix, tmp;
  uint64_t i;
  double   z, r, kd, th, tl, p, t;
  ix = wc_f32_to_bits(wc_sel_f32(sub != 0, x * 0x1p23f, x));
  tmp = ix - 0x3f328000u;
  i = (tmp >> 16) & 127u;
  kd = (double)((int32_t)((tmp >> 23) ^ 256u) - 256 - (int32_t)(sub * 23u));
  z = (double)wc_bits_to_f32(ix - (tmp & 0xff800000u));
  r = z * wc_log_tab_[3 * i] - 1.0;
  th = kd * 0x1.62e42fefa3a00p-1 + wc_log_tab_[3 * i + 1];
  tl = kd * -0x1.0ca86c3898d00p-49 + wc_log_tab_[3 * i + 2];
  p = -0.5 + r * (0x1.5555555555555p-2 + r * (-0.25 + r * (0x1.999999999999ap-3 +
      r * (-0x1.5555555555555p-3 + r * (0x1.2492492492492p-3 + r * -0.125)))));
  t = (r * r) * p;
  return wc_cr_raw_round_(th + (r + (tl + t)), 0.0, !(u - 1u < 0x7f7fffffu));
}

/* The float bits of log x where x is not positive and finite: the canonical
   NaN for a negative x (-inf too), -inf for +-0, +inf for +inf (NaN: the
   caller's). */
WC_INLINE uint32_t wc_log_special_(uint32_t u) {
  return u > 0x80000000u ? 0x7fc00000u : (u << 1) == 0 ? 0xff800000u : WC_CR_INF_;
}

/* log x rounded into a half format, or its special value (a NaN x: anything). */
WC_INLINE double wc_log_any_(float x, int p, int emin) {
  uint32_t u = wc_f32_to_bits(x);
  return wc_sel_f64(u - 1u < 0x7f7fffffu, wc_cr_round_p_(wc_log_odd_(x), p, emin),
                    (double)wc_bits_to_f32(wc_log_special_(u)));
}

WC_INLINE float wc_log_f32(float x) {
  uint32_t u = wc_f32_to_bits(x);
  float    r = wc_sel_f32(u - 1u < 0x7f7fffffu, (float)wc_log_odd_(x),
                          wc_bits_to_f32(wc_log_special_(u)));
  return wc_sel_f32(x != x, wc_quiet_f32(x), r);
}
WC_INLINE wc_float16 wc_log_f16(wc_float16 a) {
  return wc_cr_f16_of_special_(a, wc_log_any_((float)wc_cr_f16_in_(a), 11, -14));
}
WC_INLINE wc_bfloat16 wc_log_bf16(wc_bfloat16 a) {
  return wc_cr_bf16_of_special_(a, wc_log_any_(wc_bf16_to_f32(a), 8, -126));
}

/* ---- tanh ----------------------------------------------------------------------
   tanh is odd: a = |x|, clamped to 9.1 (tanh(a) rounds to 1 from a = 9.011
   in every format), the sign put back on the rounded result. c = i/32 the
   nearest to a (i <= 291), d = a - c exact (|d| <= 2^-6, 24 bits), and
   tanh(a) = (T + t) / (1 + T t), T = tanh(c) = TH + TL (TH of 26 bits, TL
   within 2^-79 T), t = tanh(d). No step cancels: T + t > 0.49 T when i > 0
   (|t| < tanh(1/64), T >= tanh(1/32)), 1 + T t in [0.984, 1.016]. Relative
   errors:
   - t = d + d^3 P(d^2) (Taylor to d^9: truncation <= 2^-66.8 |t|; d^3 P
     within 4.05 * 2^-53 of itself, <= 2^-64.6 |t|), (th, tl) by Fast2Sum.
   - N = T + t: (nh, ne) by 2Sum, nl = ne + (TL + tl) (|nl| <= 2^-25 N,
     rounded twice: 2^-77 N).
   - M = 1 + T t: TH * t1 exact (t1: th to 27 bits, 26 + 27 bits), then
     Fast2Sum with 1; the rest (TH (th - t1), TH tl, TL th) rounded: 2^-84.
   - 1/M = y0 (1 + e + e^2) within 2^-74.2: y0 = 1/mh to 26 bits, e = 1 - y0 M
     (y0 * mh1 and y0 * (mh - mh1) exact: 26 + 26 and 26 + 27 bits; 1 - y0
     mh1 exact, |e| <= 2^-24.9, computed within 2^-76.9), e^3 dropped.
   - N / M = n1 y0 (exact: 27 + 26 bits) + l, l = (nh - n1) y0 + ((nh + nl) y0
     c2 + nl y0) rounded within 2^-75 N/M; Fast2Sum.
   B = 2^-64.1. D: float 2^-50.3 (x = 0x1.86fbc4p-10), float16 2^-25.0,
   bfloat16 2^-16.9. */

static const double wc_tanh_tab_[2 * 292] = { /* tanh(i/32) = TH + TL */
    0x0.0p+0, 0x0.0p+0, 0x1.ffd5598000000p-6, 0x1.92b1de28305fcp-34,
    0x1.ff55998000000p-5, -0x1.fcf28fa6caa6dp-37, 0x1.7ee1028000000p-4, -0x1.c027b61f65ff7p-31,
    0x1.fd59928000000p-4, 0x1.e25c1a7e057b5p-31, 0x1.3d6bc78000000p-3, 0x1.88461282019a7p-30,
    0x1.7b8ff90000000p-3, 0x1.dfbbb193f1a62p-34, 0x1.b8fd040000000p-3, 0x1.6a7c9257891e6p-31,
    0x1.f597ea8000000p-3, -0x1.65e37a0eca729p-31, 0x1.18a39a0000000p-2, -0x1.94b7ba03bc97dp-30,
    0x1.35f98a0000000p-2, 0x1.d4ca1be3a10d1p-31, 0x1.52c2c58000000p-2, -0x1.e279f74e82953p-30,
    0x1.6ef53e0000000p-2, -0x1.7370500eaf1f6p-30, 0x1.8a87e18000000p-2, -0x1.a661e3b1030b4p-29,
    0x1.a5729f0000000p-2, -0x1.b77fc8c7780bcp-30, 0x1.bfae6a8000000p-2, 0x1.cb926eeb7fc5bp-29,
    0x1.d9353d8000000p-2, -0x1.52ea1935dae24p-31, 0x1.f202118000000p-2, 0x1.1b23aed23f80cp-29,
    0x1.05086f0000000p-1, 0x1.7b6a5b4ebeb05p-28, 0x1.10af480000000p-1, -0x1.f409efaf59f41p-29,
    0x1.1bf47e8000000p-1, 0x1.5dc7caa44439ap-28, 0x1.26d76f8000000p-1, -0x1.9b9871c82dd45p-30,
    0x1.3157e00000000p-1, -0x1.608ea4c01d495p-29, 0x1.3b75f88000000p-1, 0x1.e5ba16b6c95e1p-28,
    0x1.45323e8000000p-1, -0x1.5686ebec62a7dp-28, 0x1.4e8d898000000p-1, -0x1.27f791f2dbd53p-28,
    0x1.5788ff0000000p-1, 0x1.0d29986e918bbp-29, 0x1.6026098000000p-1, 0x1.573e110ddb517p-28,
    0x1.6866508000000p-1, 0x1.c6100a8cfd397p-28, 0x1.704bb18000000p-1, 0x1.bfe5c0a06517dp-28,
    0x1.77d8390000000p-1, -0x1.cbfa83cf129e5p-29, 0x1.7f0e1a8000000p-1, -0x1.993dc8ee90810p-28,
    0x1.85efab8000000p-1, -0x1.758635d53ce6ap-28, 0x1.8c7f5c8000000p-1, -0x1.47f0965c6cdc4p-29,
    0x1.92bfb38000000p-1, -0x1.e4c91cce5bb17p-30, 0x1.98b3460000000p-1, 0x1.d048c92ac1618p-28,
    0x1.9e5cb58000000p-1, 0x1.d226b497077d9p-28, 0x1.a3bea98000000p-1, 0x1.55ae566473035p-31,
    0x1.a8dbcc0000000p-1, -0x1.e73b42cf652b6p-28, 0x1.adb6c58000000p-1, 0x1.b5aaffbbf7eebp-30,
    0x1.b2523b8000000p-1, 0x1.b596f713b6dd5p-28, 0x1.b6b0cc0000000p-1, -0x1.12edd57a701dfp-29,
    0x1.bad50a8000000p-1, -0x1.acba1f3c8b898p-28, 0x1.bec17f0000000p-1, 0x1.db121e742b8b1p-29,
    0x1.c278a50000000p-1, 0x1.52723bd983d5dp-28, 0x1.c5fce80000000p-1, 0x1.840af8b5c89bcp-29,
    0x1.c950a30000000p-1, 0x1.a0645fbf6c1d7p-28, 0x1.cc76208000000p-1, -0x1.3f8fd8dbe74ecp-29,
    0x1.cf6f978000000p-1, 0x1.b7d5dd834edd5p-31, 0x1.d23f2d8000000p-1, 0x1.b608f89b2def5p-30,
    0x1.d4e6f48000000p-1, -0x1.bd794f5636412p-29, 0x1.d768ea8000000p-1, 0x1.347882f7e4afep-30,
    0x1.d9c6fb0000000p-1, -0x1.9e387ae1edb8dp-33, 0x1.dc02fd8000000p-1, -0x1.bd425bb82b448p-28,
    0x1.de1eb58000000p-1, 0x1.37518f2a2213ep-29, 0x1.e01bd50000000p-1, -0x1.679e58a22f352p-29,
    0x1.e1fbf98000000p-1, -0x1.ccad93f1c011dp-33, 0x1.e3c0af0000000p-1, 0x1.7e14b50f05537p-30,
    0x1.e56b6f0000000p-1, 0x1.f7d5fe7ca68fep-28, 0x1.e6fda20000000p-1, 0x1.5e693d6a04fd5p-28,
    0x1.e8789f0000000p-1, -0x1.89f912d03c2a9p-28, 0x1.e9ddab8000000p-1, 0x1.2c4e2b0447fcfp-29,
    0x1.eb2dff0000000p-1, -0x1.1509b67283a25p-28, 0x1.ec6abf8000000p-1, 0x1.e598743c200d2p-29,
    0x1.ed95060000000p-1, -0x1.e43c2c2cc3bcdp-29, 0x1.eeaddb8000000p-1, -0x1.d2e5a714dfa2dp-29,
    0x1.efb63c0000000p-1, 0x1.f339987a37a8cp-29, 0x1.f0af170000000p-1, -0x1.70b48a202f60ap-29,
    0x1.f1994e0000000p-1, -0x1.1b606f95fe119p-30, 0x1.f275b78000000p-1, -0x1.7e559fa7d42bdp-30,
    0x1.f3451e0000000p-1, 0x1.133c41e342bfep-30, 0x1.f408418000000p-1, -0x1.b7c561358617bp-29,
    0x1.f4bfd70000000p-1, -0x1.e90170ece802fp-28, 0x1.f56c898000000p-1, -0x1.531ae20a47a1ep-29,
    0x1.f60efb0000000p-1, 0x1.6094245537a2bp-28, 0x1.f6a7c50000000p-1, -0x1.4488af4f31ca3p-28,
    0x1.f737768000000p-1, 0x1.95516dadeb49ep-28, 0x1.f7be990000000p-1, -0x1.7d177108b09c3p-29,
    0x1.f83dac0000000p-1, -0x1.b83d12530c1b5p-30, 0x1.f8b5290000000p-1, 0x1.bebe77230c4b6p-33,
    0x1.f925828000000p-1, -0x1.f58e3e388f81cp-29, 0x1.f98f240000000p-1, -0x1.7f22c3be2ee7fp-28,
    0x1.f9f2730000000p-1, -0x1.db01939cc4f7cp-29, 0x1.fa4fcf8000000p-1, -0x1.7de41cd2f27f0p-28,
    0x1.faa7938000000p-1, -0x1.a450a17f9541bp-28, 0x1.fafa140000000p-1, -0x1.a28ccdba5dfe8p-28,
    0x1.fb47a10000000p-1, -0x1.38496e2e20627p-28, 0x1.fb90860000000p-1, -0x1.70ab0d120502dp-28,
    0x1.fbd5098000000p-1, 0x1.73d71f32d2ca7p-28, 0x1.fc156f0000000p-1, 0x1.fa4f6e9a22f3ep-28,
    0x1.fc51f58000000p-1, -0x1.63f824ad69683p-29, 0x1.fc8ad78000000p-1, -0x1.f00dc279fe73ep-29,
    0x1.fcc04d0000000p-1, -0x1.2191da2188c10p-28, 0x1.fcf28a8000000p-1, -0x1.c2a83388bc1d3p-28,
    0x1.fd21c10000000p-1, -0x1.b8e69fd20220fp-31, 0x1.fd4e1f8000000p-1, -0x1.34fcd5a63d519p-28,
    0x1.fd77d10000000p-1, 0x1.1a0affe20af0bp-29, 0x1.fd9eff0000000p-1, 0x1.9e24e94f30535p-28,
    0x1.fdc3d08000000p-1, -0x1.eff2e00a2f375p-29, 0x1.fde6690000000p-1, -0x1.1bee716bdfd85p-29,
    0x1.fe06eb0000000p-1, 0x1.a2084904beec2p-31, 0x1.fe25770000000p-1, -0x1.a501386bec4e9p-28,
    0x1.fe422a8000000p-1, -0x1.917f04e7f090ep-30, 0x1.fe5d228000000p-1, -0x1.8903f08a8169ap-29,
    0x1.fe76798000000p-1, -0x1.16562fd4a62f8p-28, 0x1.fe8e488000000p-1, -0x1.cf2e9ded7b688p-30,
    0x1.fea4a78000000p-1, -0x1.fe59457dc75c6p-28, 0x1.feb9ac0000000p-1, -0x1.4567bdc6b49d5p-31,
    0x1.fecd6b8000000p-1, -0x1.5ced7f233b358p-33, 0x1.fedff98000000p-1, -0x1.819eaf3a7cef8p-29,
    0x1.fef1680000000p-1, 0x1.2e912d77ea6b7p-28, 0x1.ff01c90000000p-1, 0x1.81aea4524d183p-30,
    0x1.ff112c8000000p-1, -0x1.c56f88c458f24p-29, 0x1.ff1fa18000000p-1, -0x1.3e527f950fc67p-31,
    0x1.ff2d368000000p-1, 0x1.a6816ca3072eap-28, 0x1.ff39f98000000p-1, 0x1.60c816e70f2efp-29,
    0x1.ff45f70000000p-1, -0x1.64f6628f5bbe6p-28, 0x1.ff513a8000000p-1, -0x1.13a8e8f4edf24p-28,
    0x1.ff5bcf8000000p-1, -0x1.2e6dbbfe07a21p-29, 0x1.ff65c08000000p-1, 0x1.af0e2ba78c32dp-30,
    0x1.ff6f178000000p-1, 0x1.3aa3b90356549p-28, 0x1.ff77de0000000p-1, 0x1.4b9047af2d41cp-30,
    0x1.ff801c8000000p-1, -0x1.3198a20acea68p-30, 0x1.ff87db0000000p-1, 0x1.2292f1e6e8462p-28,
    0x1.ff8f220000000p-1, -0x1.92aace8737306p-28, 0x1.ff95f78000000p-1, 0x1.a63ce04a0a0fep-28,
    0x1.ff9c638000000p-1, 0x1.5df4f9e37ce1cp-28, 0x1.ffa26c0000000p-1, 0x1.b30018c52efd5p-29,
    0x1.ffa8170000000p-1, 0x1.1416842d0ae49p-30, 0x1.ffad6a0000000p-1, 0x1.c72a1ff8671e8p-29,
    0x1.ffb26a8000000p-1, 0x1.3c0bd1b7c4ae9p-28, 0x1.ffb71d8000000p-1, 0x1.434ab785c799fp-28,
    0x1.ffbb880000000p-1, -0x1.7c1d10869fc1ap-28, 0x1.ffbfad8000000p-1, 0x1.0d85613a38b8bp-30,
    0x1.ffc3930000000p-1, -0x1.6a8e5596ab2c1p-30, 0x1.ffc73c0000000p-1, -0x1.9cc90e29365f7p-31,
    0x1.ffcaac0000000p-1, 0x1.f90732ee855bbp-28, 0x1.ffcde70000000p-1, 0x1.a6d25fe7008dep-28,
    0x1.ffd0f00000000p-1, 0x1.4f8c4d161e0a2p-29, 0x1.ffd3ca0000000p-1, -0x1.84045212b8697p-29,
    0x1.ffd6778000000p-1, 0x1.9ed5fdfba90a0p-31, 0x1.ffd8fb8000000p-1, 0x1.e5700986db5ebp-29,
    0x1.ffdb588000000p-1, 0x1.98403109e8a24p-28, 0x1.ffdd910000000p-1, 0x1.0a7984d492485p-28,
    0x1.ffdfa70000000p-1, 0x1.0a9cc1bb9c71dp-28, 0x1.ffe19d0000000p-1, -0x1.b936f5fc5f34dp-28,
    0x1.ffe3740000000p-1, 0x1.aa9934e35a1d2p-30, 0x1.ffe52f0000000p-1, -0x1.d0f94e78a5e38p-28,
    0x1.ffe6ce8000000p-1, 0x1.68966e543f3d4p-28, 0x1.ffe8558000000p-1, -0x1.d4aebf371ab13p-29,
    0x1.ffe9c48000000p-1, -0x1.29a27ce330825p-29, 0x1.ffeb1d0000000p-1, 0x1.e0e79cbee1cbdp-28,
    0x1.ffec610000000p-1, 0x1.3cd1d23f6ef27p-28, 0x1.ffed918000000p-1, -0x1.884ae41e9433fp-30,
    0x1.ffeeaf8000000p-1, -0x1.79a9d4d427838p-28, 0x1.ffefbc0000000p-1, -0x1.1b3c5ebdd00d9p-28,
    0x1.fff0b80000000p-1, 0x1.1d737315339fcp-28, 0x1.fff1a50000000p-1, 0x1.128bb32adefd9p-28,
    0x1.fff2840000000p-1, -0x1.d405610d2ebdep-28, 0x1.fff3550000000p-1, -0x1.4246d24232f72p-29,
    0x1.fff4198000000p-1, -0x1.9720eecaffe92p-29, 0x1.fff4d20000000p-1, -0x1.7b2a4de86de92p-31,
    0x1.fff57f8000000p-1, -0x1.07eea51684fcep-28, 0x1.fff6228000000p-1, -0x1.e9e9b79246bdep-28,
    0x1.fff6bb8000000p-1, -0x1.be19c3799b88bp-28, 0x1.fff74b0000000p-1, 0x1.0f3948e827bc6p-30,
    0x1.fff7d20000000p-1, 0x1.33e7438a6d0a2p-29, 0x1.fff8510000000p-1, -0x1.065e5ab40dfcep-29,
    0x1.fff8c80000000p-1, 0x1.c6dc33e426798p-29, 0x1.fff9380000000p-1, 0x1.0eafb3ebd658ap-29,
    0x1.fff9a10000000p-1, 0x1.e857d71af5147p-28, 0x1.fffa040000000p-1, 0x1.3fd2e3f5cf1afp-30,
    0x1.fffa610000000p-1, -0x1.2b44aad0accdbp-28, 0x1.fffab80000000p-1, 0x1.75542cc15f546p-30,
    0x1.fffb0a0000000p-1, -0x1.7246e648076bdp-30, 0x1.fffb570000000p-1, -0x1.931fe9152b26dp-29,
    0x1.fffb9f0000000p-1, 0x1.7e0f48b8dfe91p-28, 0x1.fffbe30000000p-1, 0x1.7968f2689e722p-29,
    0x1.fffc230000000p-1, -0x1.dc84009f919eap-29, 0x1.fffc5f0000000p-1, -0x1.846083c7ab290p-28,
    0x1.fffc970000000p-1, 0x1.b3c074df9bb94p-29, 0x1.fffccc0000000p-1, -0x1.1054963dec757p-32,
    0x1.fffcfd8000000p-1, 0x1.621f186acebf5p-28, 0x1.fffd2c8000000p-1, -0x1.3f259a832d5cep-28,
    0x1.fffd580000000p-1, 0x1.80a4128a192a8p-28, 0x1.fffd818000000p-1, -0x1.ff58ff4a07349p-29,
    0x1.fffda80000000p-1, 0x1.12fdb39ab23a4p-29, 0x1.fffdcc8000000p-1, -0x1.5c769cf404c12p-29,
    0x1.fffdee8000000p-1, 0x1.f006a2def894fp-30, 0x1.fffe0e8000000p-1, 0x1.1973547a487a7p-28,
    0x1.fffe2d0000000p-1, -0x1.d5367b8fe7bf3p-28, 0x1.fffe490000000p-1, 0x1.424df7c42695ep-29,
    0x1.fffe638000000p-1, 0x1.5f129deedd314p-28, 0x1.fffe7c8000000p-1, 0x1.3959fde36a5c3p-28,
    0x1.fffe940000000p-1, 0x1.efcc6c74a4831p-29, 0x1.fffeaa0000000p-1, 0x1.5683db09515f4p-28,
    0x1.fffebf0000000p-1, -0x1.f4c2607a9fbb0p-29, 0x1.fffed28000000p-1, -0x1.550d43e9f6c43p-28,
    0x1.fffee48000000p-1, 0x1.c461a0ba4500ep-29, 0x1.fffef60000000p-1, -0x1.c26480ad1c2aap-28,
    0x1.ffff060000000p-1, -0x1.72ce6e6d6a091p-29, 0x1.ffff150000000p-1, 0x1.f8ee9e9623948p-30,
    0x1.ffff238000000p-1, -0x1.a23ad37228908p-28, 0x1.ffff308000000p-1, 0x1.571dc66237f8dp-28,
    0x1.ffff3d0000000p-1, 0x1.d54731c7dfccfp-28, 0x1.ffff490000000p-1, 0x1.e63c0db693d72p-31,
    0x1.ffff540000000p-1, 0x1.d81b5825700a9p-29, 0x1.ffff5e8000000p-1, 0x1.de7ff6e3d8219p-31,
    0x1.ffff688000000p-1, -0x1.809b238ccee37p-28, 0x1.ffff718000000p-1, 0x1.4585e88aa8160p-34,
    0x1.ffff7a0000000p-1, 0x1.166f42da0ead8p-28, 0x1.ffff820000000p-1, 0x1.f88740e6420a6p-28,
    0x1.ffff8a0000000p-1, -0x1.13ba9f4e8a61cp-28, 0x1.ffff910000000p-1, 0x1.751249bb08bbfp-31,
    0x1.ffff978000000p-1, 0x1.f8e4f691ebba7p-28, 0x1.ffff9e0000000p-1, 0x1.01b80a4254065p-29,
    0x1.ffffa40000000p-1, -0x1.bb1ef912c136cp-34, 0x1.ffffa98000000p-1, 0x1.220f0ab88dffap-29,
    0x1.ffffaf0000000p-1, -0x1.8aac63013e8fap-28, 0x1.ffffb38000000p-1, 0x1.cfdf804e854b8p-28,
    0x1.ffffb88000000p-1, -0x1.37f70f58b1704p-28, 0x1.ffffbc8000000p-1, 0x1.82cb1c35a70b2p-28,
    0x1.ffffc10000000p-1, -0x1.dd1c64062a7d3p-28, 0x1.ffffc48000000p-1, 0x1.91ea681abff6ap-29,
    0x1.ffffc80000000p-1, 0x1.93a878ed68e80p-28, 0x1.ffffcb8000000p-1, 0x1.3f94f4e243568p-29,
    0x1.ffffcf0000000p-1, -0x1.f7966ce6d9bf5p-28, 0x1.ffffd18000000p-1, 0x1.e6f07888dbfacp-28,
    0x1.ffffd48000000p-1, 0x1.4cfea0f01164bp-30, 0x1.ffffd70000000p-1, 0x1.63c549e6de68ap-28,
    0x1.ffffd98000000p-1, 0x1.2d939f64c9155p-28, 0x1.ffffdc0000000p-1, -0x1.dc4f3ac95740ap-31,
    0x1.ffffde0000000p-1, 0x1.3b0520b7a333ep-28, 0x1.ffffe00000000p-1, 0x1.a2b8b7a2ef5d0p-28,
    0x1.ffffe20000000p-1, 0x1.0bf9ebdbfc18fp-28, 0x1.ffffe40000000p-1, -0x1.e732ed8a004e7p-30,
    0x1.ffffe58000000p-1, 0x1.1fe02daea04edp-28, 0x1.ffffe70000000p-1, 0x1.e69b73f9db695p-28,
    0x1.ffffe88000000p-1, 0x1.e72ce17385270p-28, 0x1.ffffea0000000p-1, 0x1.2d9605ecbd99ap-28,
    0x1.ffffeb8000000p-1, -0x1.d70e331ad2843p-31, 0x1.ffffec8000000p-1, 0x1.b85de563408bdp-28,
    0x1.ffffee0000000p-1, -0x1.dd6dc7e1c5adbp-29, 0x1.ffffef0000000p-1, -0x1.3633860128795p-31,
    0x1.fffff00000000p-1, 0x1.8f7e9db2d94afp-32, 0x1.fffff10000000p-1, -0x1.39db34839da61p-31,
    0x1.fffff20000000p-1, -0x1.bf3fe162c7e02p-29, 0x1.fffff28000000p-1, 0x1.f71281a1129e6p-28,
    0x1.fffff38000000p-1, 0x1.8eccd0d700b59p-30, 0x1.fffff48000000p-1, -0x1.9350afaadf9afp-28,
    0x1.fffff50000000p-1, 0x1.8105271cf516fp-32, 0x1.fffff58000000p-1, 0x1.6b821424142a4p-28,
    0x1.fffff68000000p-1, -0x1.93a7878508888p-28, 0x1.fffff70000000p-1, -0x1.c0d67f60aeb55p-29,
    0x1.fffff78000000p-1, -0x1.d855d04034d3cp-30, 0x1.fffff80000000p-1, -0x1.40edc378bb2f3p-30,
    0x1.fffff88000000p-1, -0x1.aadc0f2de23e3p-30, 0x1.fffff90000000p-1, -0x1.8344aaeaaecaap-29,
    0x1.fffff98000000p-1, -0x1.5154033c12d09p-28, 0x1.fffff98000000p-1, 0x1.e9a48a6d519d1p-28,
    0x1.fffffa0000000p-1, 0x1.e50521c2f29b0p-29, 0x1.fffffa8000000p-1, -0x1.9d8689ac12212p-31,
    0x1.fffffb0000000p-1, -0x1.861b927f11998p-28, 0x1.fffffb0000000p-1, 0x1.fbe036a33f565p-29,
    0x1.fffffb8000000p-1, -0x1.4a130cf66c9dcp-29, 0x1.fffffb8000000p-1, 0x1.9354c0d4b6541p-28,
    0x1.fffffc0000000p-1, -0x1.5af2049d5af60p-30, 0x1.fffffc0000000p-1, 0x1.9ed8cec19e9f9p-28,
    0x1.fffffc8000000p-1, -0x1.13eb20bc693f1p-29, 0x1.fffffc8000000p-1, 0x1.30afba55529aap-28,
    0x1.fffffd0000000p-1, -0x1.2f7c86fdbe6b5p-28, 0x1.fffffd0000000p-1, 0x1.5c96881de4f6dp-30,
    0x1.fffffd0000000p-1, 0x1.c61cf815984ffp-28, 0x1.fffffd8000000p-1, -0x1.c24edddbbd934p-29,
    0x1.fffffd8000000p-1, 0x1.8ac5152f7bfedp-30, 0x1.fffffd8000000p-1, 0x1.92eb086fdbfb2p-28,
    0x1.fffffe0000000p-1, -0x1.4f49d26804a1fp-28, 0x1.fffffe0000000p-1, -0x1.0b3da12282fb2p-30,
    0x1.fffffe0000000p-1, 0x1.72cdaf2a40ed0p-29, 0x1.fffffe0000000p-1, 0x1.a65538736a892p-28,
    0x1.fffffe8000000p-1, -0x1.7b17439046cdbp-28, 0x1.fffffe8000000p-1, -0x1.53ffeccea749dp-29,
    0x1.fffffe8000000p-1, 0x1.a6c48a69c16f3p-32, 0x1.fffffe8000000p-1, 0x1.a5e3ec6b6f30ap-29,
    0x1.fffffe8000000p-1, 0x1.8049a752fa8c9p-28, 0x1.ffffff0000000p-1, -0x1.dcdf3ddf69e51p-28,
    0x1.ffffff0000000p-1, -0x1.43e5d4b57ec6ap-28, 0x1.ffffff0000000p-1, -0x1.68622e0e9972fp-29,
    0x1.ffffff0000000p-1, -0x1.698a20efbad79p-31, 0x1.ffffff0000000p-1, 0x1.4682bc63c3b2fp-30,
    0x1.ffffff0000000p-1, 0x1.91873e437e9a7p-29, 0x1.ffffff0000000p-1, 0x1.38aeb8d9bea7ap-28
};

/* tanh(a) = h + *lo within B = 2^-64.1 (h = RN(h + *lo)), a in [0, 9.1]. */
WC_INLINE double wc_tanh_pair_(double a, double *lo) {
  WC_CR_CONTRACT_
  double   m = a * 32.0 + 0x1.8p52, c = (m - 0x1.8p52) * 0.03125, d = a - c;
  uint64_t i = wc_f64_to_bits(m) - 0x4338000000000000u; /* round(32 a) */
  double   d2 = d * d, p, tp, th, tl, T, TL, nh, bb, ne, nl, t1, mh, ml, y0, mh1, e, c2, n1, h, l;
  p = -0x1.5555555555555p-2 +
      d2 * (0x1.1111111111111p-3 + d2 * (-0x1.ba1ba1ba1ba1cp-5 + d2 * 0x1.664f4882c10fap-6));
  tp = (d2 * d) * p + 0.0; /* a sum: th and tl read one value (exp.h) */
  th = d + tp;
  tl = tp - (th - d);
  T = wc_tanh_tab_[2 * i];
  TL = wc_tanh_tab_[2 * i + 1];
  nh = T + th; /* N = T + t */
  bb = nh - T;
  ne = (T - (nh - bb)) + (th - bb);
  nl = ne + (TL + tl);
  t1 = wc_cr_trunc_(th, 27); /* M = 1 + T t */
  mh = 1.0 + T * t1;
  ml = (T * t1 - (mh - 1.0)) + (T * (th - t1) + (T * tl + TL * th));
  y0 = wc_cr_trunc_(1.0 / mh, 26); /* 1/M */
  mh1 = wc_cr_trunc_(mh, 26);
  e = ((1.0 - y0 * mh1) - y0 * (mh - mh1)) - y0 * ml;
  c2 = e + e * e;
  n1 = wc_cr_trunc_(nh, 27); /* N / M */
  h = n1 * y0;
  l = (nh - n1) * y0 + ((nh + nl) * y0 * c2 + nl * y0);
  th = h + l;
  *lo = l - (th - h);
  return th;
}

/* tanh(a) rounded to odd at 53 bits, a in [0, 9.1]. */
WC_INLINE double wc_tanh_odd_(double a) {
  double l, h = wc_tanh_pair_(a, &l);
  return wc_cr_odd_(h, l);
}

/* |x| of a float's bits u, clamped to the float of bits top (NaN too: its
   bits are above), as a double: an integer min, which every vector unit has. */
WC_INLINE double wc_cr_abs_clamp_(uint32_t u, uint32_t top) {
  uint32_t a = u & 0x7fffffffu;
  return (double)wc_bits_to_f32(a < top ? a : top);
}

/* The half types for the functions of |x| (tanh, erf, sinh, cosh): |x| as
   wc_cr_abs_clamp_ gives it, and w (f(|x|) rounded to odd) rounded once into
   the format with sign put on (x's sign bit for an odd function, 0 for cosh);
   a NaN x gives its NaN (wc_cr_f16_nan_, wc_cr_bf16_nan_). */
WC_INLINE double wc_cr_f16_abs_(wc_float16 a, uint32_t top) {
  return wc_cr_abs_clamp_(wc_f32_to_bits((float)wc_cr_f16_in_(a)), top);
}
WC_INLINE double wc_cr_bf16_abs_(wc_bfloat16 a, uint32_t top) {
  return wc_cr_abs_clamp_((uint32_t)a << 16, top);
}
WC_INLINE wc_float16 wc_cr_f16_of_(wc_float16 a, double w, uint16_t sign) {
  return wc_sel_f16((a & 0x7fffu) > 0x7c00u, wc_cr_f16_nan_(a),
                    (wc_float16)(wc_cr_f16_out_(wc_cr_round_p_(w, 11, -14)) | sign));
}
WC_INLINE wc_bfloat16 wc_cr_bf16_of_(wc_bfloat16 a, double w, uint16_t sign) {
  return wc_sel_bf16((a & 0x7fffu) > 0x7f80u, wc_cr_bf16_nan_(a),
                     (wc_bfloat16)((wc_f32_to_bits((float)wc_cr_round_p_(w, 8, -126)) >> 16) | sign));
}
/* The half types of a function f of x, not |x|, that is x itself above top (f(x)
   rounds to x there in every format: softplus, silu, mish, gelu): w = f(x) rounded
   to odd at 53 bits (computed for x = a's value), rounded once into the format, or
   x above top; a NaN x gives its NaN. */
WC_INLINE wc_float16 wc_cr_f16_or_x_(wc_float16 a, float x, float top, double w) {
  double v = wc_sel_f64(x > top, (double)x, wc_cr_round_p_(w, 11, -14));
  return wc_sel_f16((a & 0x7fffu) > 0x7c00u, wc_cr_f16_nan_(a), wc_cr_f16_out_(v));
}
WC_INLINE wc_bfloat16 wc_cr_bf16_or_x_(wc_bfloat16 a, float x, float top, double w) {
  double v = wc_sel_f64(x > top, (double)x, wc_cr_round_p_(w, 8, -126));
  return wc_sel_bf16((a & 0x7fffu) > 0x7f80u, wc_cr_bf16_nan_(a),
                     (wc_bfloat16)(wc_f32_to_bits((float)v) >> 16));
}

#define WC_TANH_TOP_ 0x4111999au /* 9.1f */

WC_INLINE float wc_tanh_f32(float x) {
  uint32_t u = wc_f32_to_bits(x);
  float    r = (float)wc_tanh_odd_(wc_cr_abs_clamp_(u, WC_TANH_TOP_));
  r = wc_bits_to_f32(wc_f32_to_bits(r) | (u & 0x80000000u));
  return wc_sel_f32(x != x, wc_quiet_f32(x), r);
}
WC_INLINE wc_float16 wc_tanh_f16(wc_float16 a) {
  return wc_cr_f16_of_(a, wc_tanh_odd_(wc_cr_f16_abs_(a, WC_TANH_TOP_)), (uint16_t)(a & 0x8000u));
}
WC_INLINE wc_bfloat16 wc_tanh_bf16(wc_bfloat16 a) {
  return wc_cr_bf16_of_(a, wc_tanh_odd_(wc_cr_bf16_abs_(a, WC_TANH_TOP_)), (uint16_t)(a & 0x8000u));
}

/* tanh in plain double (exp.h's raw forms), a = |x| in [0, 9.1]: tanh a
   = E/(E + 2), E = expm1(2a) = (S - 1) + S q, S = 2^K 2^(j/64) = Sh + Sl
   (exp_tab_'s pair scaled exactly), r as in exp_core_, q = expm1(r) Taylor
   to r^6 (truncation 2^-57.3 |q|, roundings 2^-52.8 |q|). Sh - 1 is exact
   (Sterbenz when K = 0, else a multiple of ulp(Sh) below 2^(K+1)); K = 0 =
   j gives E = q, and otherwise E >= 2a >= 2^-7.53, where |S q| <= 1.01 E and
   |S - 1| <= 2.01 E: the sums, the product, q and the dropped Sl q give
   2^-50.2 E; E/(E + 2) 2^-49.0 tanh(a). a = 0 gives 0 (-0 for -0). */
WC_INLINE float wc_tanh_raw_f32(float x) {
  WC_CR_CONTRACT_
  uint32_t u = wc_f32_to_bits(x);
  double   a = wc_cr_abs_clamp_(u, WC_TANH_TOP_), t = a + a;
  double   m = t * 0x1.71547652b82fep+6 + 0x1.8p52, kd = m - 0x1.8p52;
  uint64_t mb = wc_f64_to_bits(m), j = mb & 63u;
  double   sc = wc_bits_to_f64(0x3ff0000000000000u + ((mb >> 6) << 52)); /* 2^K */
  double   r = (t - kd * 0x1.62e42fefa4000p-7) - kd * -0x1.8432a1b0e2634p-49;
  double   q = r + (r * r) * (0.5 + r * (0x1.5555555555555p-3 + r * (0x1.5555555555555p-5 +
               r * (0x1.1111111111111p-7 + r * 0x1.6c16c16c16c17p-10))));
  double   sh = wc_exp_tab_[2 * j] * sc, e = ((sh - 1.0) + wc_exp_tab_[2 * j + 1] * sc) + sh * q;
  float    v = wc_cr_raw_round_(e / (e + 2.0), 0.0, x != x);
  return wc_bits_to_f32(wc_f32_to_bits(v) | (u & 0x80000000u));
}

/* ---- sigmoid -------------------------------------------------------------------
   sigmoid(x) = 1/(1 + exp(-x)), correctly rounded as a whole. Two ways, both
   computed, one selected:
   - |x| < 2^-6: 1/2 + x/4 + x^3 Q(x^2), Q the Taylor series of tanh(x/2)/2 to
     x^9 (truncation below 2^-18 |x|^11); 1/2 + x/4 by Fast2Sum, x^3 Q within
     4.1 * 2^-53 of itself, one more rounding adding it: B(x) <= 2^-49.5
     |x^3/48| relative. Its D: for |x| >= 2^-11 below (the enumeration);
     below 2^-11, 1/2 + x/4 is a multiple of ulp(x)/4, as every midpoint
     near 1/2 is, and the rest, about x^3/48, is less than half that step:
     the distance to a midpoint is at least |x^3/48| (1 - 2^-10) > B(x).
   - otherwise E = exp(-x) = (z + e) 2^K (exp.h: within 2^-58.1 E), D = 1 + E
     by 2Sum, 1/D = y0 (1 + c + c^2) as in tanh (within 2^-73): the relative
     error of 1/(1 + E) is at most E/(1 + E) < 1 times E's: B = 2^-58.09.
   Above 18 and below -104 the results are selected: sigmoid rounds to 1 above
   17.33 and to 0 below -103.98 in every format.
   D: float 2^-76.6 (x = -2^-24: 1/2 - 2^-26 + 2^-77.6, the first way); for
   |x| >= 2^-11 2^-55.0 (x = -0x1.250c02p-10, the first way again: there
   B(x) < 2^-84), and for |x| >= 2^-6 2^-53.1 (x = 0x1.437902p-5); float16
   2^-37.6, bfloat16 2^-28.6 (over all inputs, both ways well below). */

/* 1/(1 + E) = h + *lo, E = (z + e) 2^K as exp_core_ gives it (scale = K << 52): D = 1 +
   E as a pair (Fast2Sum of 1 and E's head, E's tail added), y0 = 1/D to 26 bits, the
   residual c = 1 - y0 D exact in its head (26 + 26 bits), 1/D = y0 (1 + c + c^2 + ...),
   Fast2Sum. sigmoid's pair (below) and gelu_tanh's quotient share it: one sequence of
   operations, whose bound each caller's comment carries. */
WC_INLINE double wc_cr_recip_1p_(double z, double e, uint64_t scale, double *lo) {
  WC_CR_CONTRACT_
  double sc = wc_bits_to_f64(scale + 0x3ff0000000000000u); /* 2^K */
  double eh = z * sc, dh = 1.0 + eh, bb = dh - 1.0;        /* D = 1 + E */
  double dl = ((1.0 - (dh - bb)) + (eh - bb)) + e * sc;
  double y0 = wc_cr_trunc_(1.0 / dh, 26), dh1 = wc_cr_trunc_(dh, 26);
  double c = ((1.0 - y0 * dh1) - y0 * (dh - dh1)) - y0 * dl;
  double l = y0 * (c + c * c) + 0.0; /* a sum: h and l read one value (exp.h) */
  double h = y0 + l;
  *lo = l - (h - y0);
  return h;
}

/* x (sh + sl) = p + *lo for a float x and a pair sh + sl (|sl| <= ulp(sh)/2), silu's split
   product: s1 = sh to 29 bits, x s1 exact (24 + 29 bits), x (sh - s1) exact (24 + 24
   bits), x sl rounded (u^2 |x sh|) and added (u 2^-28 |x sh|), Fast2Sum. silu, gelu and
   gelu_tanh end with it. */
WC_INLINE double wc_cr_mul_pair_(double x, double sh, double sl, double *lo) {
  WC_CR_CONTRACT_
  double s1 = wc_cr_trunc_(sh, 29);
  double p1 = x * s1, p2 = x * (sh - s1) + x * sl, p = p1 + p2;
  *lo = p2 - (p - p1);
  return p;
}

/* sigmoid(x) = h + *lo within B (h = RN(h + *lo)), x a float in [-104, 18] (in
   [-112, 18] for silu, activations.h: exp_core_'s steps hold up to |x| < 177). */
WC_INLINE double wc_sigmoid_pair_(float x, double *lo) {
  WC_CR_CONTRACT_
  double   xd = (double)x, x2 = xd * xd, q, h0, e0, ls, hs, z, e, h, l;
  uint64_t k;
  q = (x2 * xd) * (-0x1.5555555555555p-6 +
                   x2 * (0x1.1111111111111p-9 + x2 * (-0x1.ba1ba1ba1ba1cp-13 + x2 * 0x1.664f4882c10fap-16)));
  h0 = 0.5 + xd * 0.25;
  e0 = xd * 0.25 - (h0 - 0.5);
  ls = e0 + q;
  hs = h0 + ls;
  ls = ls - (hs - h0);
  z = wc_exp_core_(-xd, &e, &k);
  h = wc_cr_recip_1p_(z, e, k, &l);
  *lo = wc_sel_f64(x2 < 0x1p-12, ls, l);
  return wc_sel_f64(x2 < 0x1p-12, hs, h);
}

/* sigmoid(x) rounded to odd at 53 bits, x a float in [-104, 18] (outside:
   anything, for the callers to replace). */
WC_INLINE double wc_sigmoid_odd_(float x) {
  double l, h = wc_sigmoid_pair_(x, &l);
  return wc_cr_odd_(h, l);
}

/* sigmoid's value in a format from w, its rounding (x finite in [-104, 18]),
   or 1 above 18 (sigmoid rounds to 1 from 17.33 in every format), +0 below
   -104 (it rounds to 0 below -103.98); NaN stays the caller's. */
WC_INLINE double wc_sigmoid_special_(float x, double w) {
  return wc_sel_f64(x > 18.0f, 1.0, wc_sel_f64(x < -104.0f, 0.0, w));
}

WC_INLINE float wc_sigmoid_f32(float x) {
  float r = (float)wc_sigmoid_odd_(x);
  r = wc_sel_f32(x > 18.0f, 1.0f, wc_sel_f32(x < -104.0f, 0.0f, r));
  return wc_sel_f32(x != x, wc_quiet_f32(x), r);
}
/* sigmoid in plain double (exp.h's raw forms): 1/(1 + E), E = exp(-x)
   within 2^-51.3 E (exp_plain_), the sum and the quotient within 2^-53 each
   (E/(1 + E) < 1 scales E's error): 2^-50.6 in all. Clamped to 18, it
   rounds to 1 (sigmoid(18) > 1 - 2^-25.9); to -104, to 0 (< 2^-150.04). */
WC_INLINE float wc_sigmoid_raw_f32(float x) {
  double y = 1.0 / (1.0 + wc_exp_plain_(-(double)wc_cr_clamp_(x, -104.0f, 18.0f)));
  return wc_cr_raw_round_(y, WC_CR_RAW_TINY_, x != x);
}

WC_INLINE wc_float16 wc_sigmoid_f16(wc_float16 a) {
  float  x = (float)wc_cr_f16_in_(a);
  double w = wc_sigmoid_special_(x, wc_cr_round_p_(wc_sigmoid_odd_(x), 11, -14));
  return wc_sel_f16((a & 0x7fffu) > 0x7c00u, wc_cr_f16_nan_(a), wc_cr_f16_out_(w));
}
WC_INLINE wc_bfloat16 wc_sigmoid_bf16(wc_bfloat16 a) {
  float  x = wc_bf16_to_f32(a);
  double w = wc_sigmoid_special_(x, wc_cr_round_p_(wc_sigmoid_odd_(x), 8, -126));
  return wc_sel_bf16((a & 0x7fffu) > 0x7f80u, wc_cr_bf16_nan_(a),
                     (wc_bfloat16)(wc_f32_to_bits((float)w) >> 16));
}

/* ---- erf ---------------------------------------------------------------------
   erf is odd: a = |x|, clamped to 3.95 (erf rounds to 1 from a = 3.92 in
   every format), the sign put back. c = i/32 the nearest to a (i <= 126), d
   = a - c exact (|d| <= 2^-6), and around c (Taylor, erf' = E = 2/sqrt(pi)
   exp(-t^2), whose derivatives are Hermite polynomials):
     erf(c + d) = erf(c) + E(c) d G,  G = sum_n (-1)^n H_n(c) d^n / (n+1)!
   G - 1 = d (a1 + d (a2 + ... + d a8)), a_n = (-1)^n H_n(c)/(n+1)! from
   a1 = -c and a_(n+1) = -2/(n+2) c a_n - 2n/((n+1)(n+2)) a_(n-1) (the
   Hermite recurrence): no table but erf(c) = SH + SL and E(c) = EH + EL (EH
   of 29 bits, so EH*d is exact). Then (S, Se) = SH + EH*d (Fast2Sum: erf(c)
   > E(c)/64 when i > 0, SH = 0 when i = 0), low = Se + (SL + (EL*d + (EH*d
   + EL*d) g1)), and Fast2Sum. Per interval (crmath_tables.py bounds: the
   truncation after n = 8, g1's roundings, the sums') B = 2^-60.07.
   D: float 2^-56.3 (x = 0x1.81d5acp-13), float16 2^-25.9, bfloat16 2^-21.9. */

static const double wc_erf_tab_[4 * 128] = { /* erf(i/32) = SH + SL, E(i/32) = EH + EL */
    0x0.0p+0, 0x0.0p+0, 0x1.20dd750000000p+0, 0x1.0a6db446b8ea4p-30,
    0x1.20c5645dd2538p-5, -0x1.b1f39547818dcp-63, 0x1.209546b000000p+0, -0x1.76198b01ce0fap-31,
    0x1.207d480e90658p-4, 0x1.4c35c43362a08p-58, 0x1.1fbd27d000000p+0, -0x1.1c696a4238e24p-31,
    0x1.b0081148a873ap-4, -0x1.f00e81462af98p-61, 0x1.1e565bd000000p+0, -0x1.6ffcb162d13b5p-30,
    0x1.1f5e1a35c3b89p-3, 0x1.d0b6d6493e0f4p-57, 0x1.1c62fa2000000p+0, -0x1.79649c632decap-32,
    0x1.662a0bdf7a89fp-3, -0x1.ef80fee2b133cp-59, 0x1.19e5e93000000p+0, -0x1.1a6d53c661ab3p-30,
    0x1.ac45e37fe2526p-3, 0x1.48d48536c61e3p-57, 0x1.16e2d71000000p+0, -0x1.b0c9ce6865ad0p-30,
    0x1.f190aa85540e2p-3, -0x1.e521a09cb1b7dp-57, 0x1.135e307000000p+0, 0x1.741dabc3a7f5cp-30,
    0x1.1af54e232d609p-2, -0x1.bee921fa4172bp-56, 0x1.0f5d160000000p+0, 0x1.7bf206c1be887p-31,
    0x1.3c9aa8b84bedap-2, 0x1.38e845397242dp-58, 0x1.0ae54fa000000p+0, 0x1.241c8a2fedf31p-30,
    0x1.5da9f415ff23fp-2, -0x1.a72e51e19194bp-59, 0x1.05fd3ed000000p+0, -0x1.04f5a1f17d497p-30,
    0x1.7e15944d9d3e4p-2, -0x1.95fdc3865d9b7p-57, 0x1.00abcf4000000p+0, -0x1.e7856d4f25f8ap-32,
    0x1.9dd0d2b721f39p-2, -0x1.1671c021d14c4p-56, 0x1.f5f0cdb000000p-1, -0x1.d59d9f8803583p-34,
    0x1.bccfec24855b8p-2, -0x1.47292aeeaa2fap-56, 0x1.e9d5a8e000000p-1, 0x1.324d3732f4dd4p-31,
    0x1.db081ce6e2a48p-2, -0x1.7ff0a3296d9ccp-56, 0x1.dd167c5000000p-1, -0x1.8316ad761af9ap-32,
    0x1.f86faa9428f9dp-2, 0x1.99988b110a612p-56, 0x1.cfc41e3000000p-1, 0x1.b1f7e331fca91p-31,
    0x1.0a7ef5c18edd2p-1, 0x1.5e809f1a31a28p-56, 0x1.c1efca5000000p-1, -0x1.96bfbab3f7e28p-31,
    0x1.1855a5fd3dd50p-1, 0x1.8f68268624501p-55, 0x1.b3aafcc000000p-1, 0x1.3a816e561374ap-32,
    0x1.25b8a88b6dd7fp-1, 0x1.9534a3b5bd215p-55, 0x1.a5074e2000000p-1, 0x1.576203f5b181ep-33,
    0x1.32a54cb8db67bp-1, -0x1.96263537d4d65p-57, 0x1.96164fb000000p-1, -0x1.390e6f78bbdaep-36,
    0x1.3f196dcd0f135p-1, -0x1.f25f4f6fdf70bp-56, 0x1.86e9694000000p-1, 0x1.34b9db1097b3bp-33,
    0x1.4b13713ad3513p-1, 0x1.e941d89557082p-57, 0x1.7791b88000000p-1, 0x1.b9d00b8961913p-31,
    0x1.569243d2b3a9bp-1, 0x1.8eef7012e8df5p-56, 0x1.681ff25000000p-1, -0x1.2d53f03b74c92p-31,
    0x1.61955607dd15dp-1, 0x1.98fddd4f54897p-55, 0x1.58a445e000000p-1, -0x1.60e2cef71e56cp-31,
    0x1.6c1c9759d0e5fp-1, 0x1.b1432f2cbc455p-55, 0x1.492e42d000000p-1, 0x1.e34b12742c796p-31,
    0x1.762870f720c6fp-1, 0x1.118a1b821cf7cp-55, 0x1.39ccc1b000000p-1, 0x1.36d5a0fd293ecp-33,
    0x1.7fb9bfaed8078p-1, 0x1.66cf14bcad032p-56, 0x1.2a8dcee000000p-1, -0x1.c98c52e6f1c59p-33,
    0x1.88d1cd474a2e0p-1, 0x1.6f57a1a45df78p-55, 0x1.1b7e990000000p-1, -0x1.d9de8cd5dadecp-33,
    0x1.91724951b8fc6p-1, -0x1.27912dd352f8bp-55, 0x1.0cab61f000000p-1, 0x1.0972642629447p-34,
    0x1.999d4192a5715p-1, -0x1.c8871576d5306p-55, 0x1.fc3ee5d000000p-2, 0x1.524afed7c7ff7p-34,
    0x1.a1551a16aaeafp-1, 0x1.a558a46df5f67p-57, 0x1.dfca26f000000p-2, 0x1.6efe1f111a284p-32,
    0x1.a89c850b7d54dp-1, -0x1.e274069b9af78p-55, 0x1.c40b073000000p-2, -0x1.84aae1c4d17d0p-32,
    0x1.af767a741088bp-1, -0x1.c97f778122797p-56, 0x1.a911f09000000p-2, 0x1.bef096f795f61p-32,
    0x1.b5e62fce16095p-1, 0x1.bc3da0f1d0e78p-56, 0x1.8eed36c000000p-2, -0x1.de49b2157f60fp-32,
    0x1.bbef0fbde6221p-1, -0x1.322c1148e0d48p-55, 0x1.75a91a8000000p-2, -0x1.65a25d228fb2bp-35,
    0x1.c194b1d49a184p-1, -0x1.6776b69476ba6p-57, 0x1.5d4fd33000000p-2, 0x1.ca4052924dff4p-32,
    0x1.c6dad2829ec62p-1, -0x1.ab76d4cba3d05p-57, 0x1.45e99bd000000p-2, -0x1.121baa8432feep-32,
    0x1.cbc54b476248dp-1, 0x1.1a504adde06a6p-55, 0x1.2f7cc40000000p-2, -0x1.90bdc980df4a1p-34,
    0x1.d0580b2cfd249p-1, 0x1.4fca6318dfee9p-55, 0x1.1a0dc52000000p-2, -0x1.59b2cce544e97p-32,
    0x1.d4970f9ce00d9p-1, -0x1.56704fcbdd47dp-56, 0x1.059f59b000000p-2, -0x1.0adf4866c444cp-35,
    0x1.d8865d98abe01p-1, -0x1.fcec4afb974d9p-55, 0x1.e4652fb000000p-3, -0x1.1a4a703d2a107p-34,
    0x1.dc29fb60715afp-1, 0x1.ab00e1d243bb7p-55, 0x1.bf8e1b2000000p-3, -0x1.aeec37fdb091fp-34,
    0x1.df85ea8db188ep-1, -0x1.f71e8254d11a9p-55, 0x1.9cb5bd5000000p-3, 0x1.26c4439a30631p-33,
    0x1.e29e22a89d766p-1, 0x1.bcc9ef4df6e3fp-55, 0x1.7bd5c7e000000p-3, -0x1.802c75baac249p-36,
    0x1.e5768c3b4a3fcp-1, 0x1.8b62674f89890p-57, 0x1.5ce595c000000p-3, 0x1.156c2870c5d05p-33,
    0x1.e812fc64db369p-1, 0x1.3c65eda8c4505p-55, 0x1.3fda6bc000000p-3, 0x1.6994562361e84p-39,
    0x1.ea7730ed0bbb9p-1, 0x1.2c5bd7ce1388bp-55, 0x1.24a7b85000000p-3, -0x1.63b474abe7431p-34,
    0x1.eca6ccd709544p-1, 0x1.f3df164d9badap-57, 0x1.0b3f52d000000p-3, -0x1.73c7c8bb30179p-35,
    0x1.eea5557137ae0p-1, -0x1.385e445f2c96dp-55, 0x1.e723727000000p-4, -0x1.1f6d5c91018ccp-34,
    0x1.f0762fde45ee6p-1, 0x1.9c3551b59fc73p-55, 0x1.bb1c973000000p-4, -0x1.b835f22bb5842p-37,
    0x1.f21c9f12f0677p-1, -0x1.7efe429672266p-58, 0x1.92470a6000000p-4, 0x1.b696571ab3503p-36,
    0x1.f39bc242e43e6p-1, -0x1.dbade2f2295e3p-55, 0x1.6c7e64e000000p-4, 0x1.ca072daaa28bcp-34,
    0x1.f4f693b67bd77p-1, -0x1.3a1ee1406c356p-56, 0x1.499d479000000p-4, -0x1.0d632bb38ef8cp-34,
    0x1.f62fe80272419p-1, -0x1.b7c25ec8b416fp-55, 0x1.297db96000000p-4, 0x1.c9ec56eab9c27p-37,
    0x1.f74a6d9a38383p-1, 0x1.c33a329423946p-55, 0x1.0bf97e9000000p-4, 0x1.7ca98ebb9fae1p-34,
    0x1.f848acb544e95p-1, -0x1.b27a62d67b274p-55, 0x1.e1d4cf2000000p-5, -0x1.dbaf65e115f15p-37,
    0x1.f92d077f8d56dp-1, 0x1.8b55ef493fce7p-56, 0x1.b055303000000p-5, 0x1.1080ab9753d4cp-36,
    0x1.f9f9ba8d3c733p-1, 0x1.cd57612f5f4f7p-55, 0x1.83298d7000000p-5, 0x1.7210e5d0271a2p-37,
    0x1.fab0dd89d1309p-1, -0x1.ae61bd9db1babp-55, 0x1.5a08e86000000p-5, -0x1.43607e1b06303p-35,
    0x1.fb54641aebbc9p-1, -0x1.79972bf893ddbp-55, 0x1.34ac36b000000p-5, -0x1.39280fce34d9ep-36,
    0x1.fbe61eef4cf6ap-1, 0x1.15ded88667618p-55, 0x1.12ceb38000000p-5, -0x1.90f25c4f4f62dp-43,
    0x1.fc67bcf2d7b8fp-1, -0x1.0d273418771a5p-55, 0x1.e85c44a000000p-6, -0x1.c880d72ed35edp-38,
    0x1.fcdacca0bfb73p-1, -0x1.2c33d88729e43p-55, 0x1.b116099000000p-6, 0x1.ff736c4d7eb5fp-38,
    0x1.fd40bd6d7a785p-1, 0x1.60d428f21fbb8p-55, 0x1.7f51886000000p-6, 0x1.0ddc7a7b85e96p-38,
    0x1.fd9ae142795e3p-1, 0x1.972801904b9a3p-56, 0x1.529b9e9000000p-6, -0x1.832f0e4b84131p-37,
    0x1.fdea6e062d0c9p-1, -0x1.64c6b684260bcp-56, 0x1.2a875b6000000p-6, -0x1.52a7d5e7aca85p-44,
    0x1.fe307f2b503d0p-1, -0x1.8a555000387f8p-57, 0x1.06ae13b000000p-6, 0x1.a64a93baa1406p-39,
    0x1.fe6e1742f7cf6p-1, -0x1.cebcf3e303f16p-55, 0x1.cd5ec94000000p-7, -0x1.f6de73783d9d6p-38,
    0x1.fea4218d6594ap-1, -0x1.e3333d8f7d98cp-58, 0x1.94624e8000000p-7, -0x1.c7c1454186473p-37,
    0x1.fed37386190fbp-1, 0x1.72b16817d4f0fp-55, 0x1.61beae5000000p-7, 0x1.db95b84f05664p-38,
    0x1.fefcce6813974p-1, -0x1.b27cf5025d1c8p-58, 0x1.34d7dbc000000p-7, 0x1.db5f953780d6ep-37,
    0x1.ff20e0a7ba8c2p-1, -0x1.03f8b2fd7d512p-57, 0x1.0d1d695000000p-7, 0x1.a6e0b32cb5757p-37,
    0x1.ff404760319b4p-1, 0x1.f142071432025p-56, 0x1.d4143aa000000p-8, -0x1.00b4d96eec3c3p-39,
    0x1.ff5b8fb26f5f6p-1, -0x1.7e918d19780fdp-55, 0x1.9646f36000000p-8, -0x1.626771f80c489p-38,
    0x1.ff733814af88cp-1, 0x1.0a87238cea4f9p-56, 0x1.5ff2751000000p-8, -0x1.87e057c61211fp-44,
    0x1.ff87b1913e853p-1, -0x1.3ca99c8d2cea5p-56, 0x1.30499b5000000p-8, 0x1.cabf7161976e3p-43,
    0x1.ff9960f3eb327p-1, -0x1.08b1ca6e97f80p-56, 0x1.06918b6000000p-8, 0x1.aab1224368c77p-39,
    0x1.ffa89fe5b3625p-1, 0x1.934b204fa7706p-55, 0x1.c4412bf000000p-9, 0x1.2e3c2be3bf8f8p-39,
    0x1.ffb5bdf67fe6fp-1, 0x1.4e830346f6e7fp-62, 0x1.84ba300000000p-9, 0x1.29433f37a3616p-39,
    0x1.ffc10194fcb64p-1, 0x1.ea147ac20184fp-55, 0x1.4d78bbb000000p-9, -0x1.cd680bacd5c63p-39,
    0x1.ffcaa8f4c9beap-1, 0x1.b0cee160116f9p-55, 0x1.1d83171000000p-9, -0x1.0241215c98e10p-43,
    0x1.ffd2eae369a07p-1, -0x1.83b0b306f73d7p-57, 0x1.e7f232e000000p-10, -0x1.87673e5d6d1f0p-40,
    0x1.ffd9f78c7524ap-1, 0x1.04ed6ff98e45dp-55, 0x1.a024366000000p-10, -0x1.11c8561b856ffp-43,
    0x1.ffdff92db56e5p-1, -0x1.8aeef06f8b149p-56, 0x1.6235fbd000000p-10, 0x1.e90d1377be40bp-40,
    0x1.ffe514bbdc197p-1, -0x1.cd963345b5c6dp-58, 0x1.2ce8988000000p-10, 0x1.2489c8495a2a5p-43,
    0x1.ffe96a78a04a9p-1, -0x1.2816fccca0095p-55, 0x1.fe41cda000000p-11, -0x1.12c4470d2f5a4p-41,
    0x1.ffed167b12ac2p-1, -0x1.ddc0ce3ed8fcbp-55, 0x1.afc85e1000000p-11, -0x1.f47b75e386ebbp-45,
    0x1.fff0312b010b5p-1, 0x1.155deb2d93f68p-55, 0x1.6caa0d3000000p-11, 0x1.60bfa39b8777ep-41,
    0x1.fff2cfb0453d9p-1, 0x1.9a913686042a3p-55, 0x1.3360ccd000000p-11, 0x1.1ed9d0273c2a9p-42,
    0x1.fff50456dab8cp-1, -0x1.a197ab9f52a4fp-58, 0x1.0295ef6000000p-11, 0x1.64611f6e66e55p-41,
    0x1.fff6dee89352ep-1, 0x1.b96c0ba13851dp-55, 0x1.b23a5a2000000p-12, 0x1.f21081727bce2p-43,
    0x1.fff86cfd3e657p-1, -0x1.2e06af13b7209p-56, 0x1.6be0210000000p-12, 0x1.59a900a7d04f7p-43,
    0x1.fff9ba420e834p-1, 0x1.1379ec5aa630ep-56, 0x1.30538fc000000p-12, -0x1.2204cbce742e8p-42,
    0x1.fffad0b901755p-1, 0x1.70d5c6bd7b275p-57, 0x1.fc0d554000000p-13, 0x1.c33d42958970cp-43,
    0x1.fffbb8f1049c6p-1, 0x1.d2c6266b51f27p-56, 0x1.a740684000000p-13, 0x1.32aa740ed99e3p-48,
    0x1.fffc7a37857d2p-1, -0x1.97b31125dd25ap-56, 0x1.5feada3000000p-13, 0x1.e762daff21014p-43,
    0x1.fffd1ac4135f9p-1, 0x1.eeafa1ecd6cefp-55, 0x1.2408e9c000000p-13, -0x1.7336057e1d816p-43,
    0x1.fffd9fdeabccep-1, 0x1.0c43c38b1d741p-55, 0x1.e3bcf43000000p-14, 0x1.a86a5354c33bap-44,
    0x1.fffe0e0140857p-1, -0x1.6aa36f86c14ddp-57, 0x1.8fdc1b3000000p-14, -0x1.184237a3ebc2cp-45,
    0x1.fffe68f4fa777p-1, 0x1.2f2176070778ep-60, 0x1.49e1772000000p-14, 0x1.3d3504bf84f69p-44,
    0x1.fffeb3ebb267bp-1, 0x1.e47f697047cbap-57, 0x1.0f9e1b5000000p-14, -0x1.1649084ffb720p-45,
    0x1.fffef1960d85dp-1, -0x1.f7cc780a237bap-55, 0x1.be6abbb000000p-15, 0x1.0a5a9c5559b68p-47,
    0x1.ffff2436a21dcp-1, -0x1.3607959a29d36p-55, 0x1.6e2367e000000p-15, -0x1.ec0357c4d2322p-46,
    0x1.ffff4db27f146p-1, 0x1.ddecdd6d729f6p-55, 0x1.2bb5cc2000000p-15, 0x1.72edb1cf310d4p-46,
    0x1.ffff6f9f67e55p-1, 0x1.e1e4483ba034bp-55, 0x1.e9b5e8d000000p-16, 0x1.9ced1a20e8997p-53,
    0x1.ffff8b500e77cp-1, -0x1.1014e1f7cc69bp-56, 0x1.8f4ccca000000p-16, 0x1.ff2435abd191bp-46,
    0x1.ffffa1de8c582p-1, 0x1.832540129302ap-55, 0x1.44f21e5000000p-16, -0x1.beac370663986p-46,
    0x1.ffffb43555b5fp-1, 0x1.c17f83c5c2d0ap-55, 0x1.07ebd2a000000p-16, 0x1.694223a992c03p-47,
    0x1.ffffc316d9ed0p-1, -0x1.8b32f44f46b3bp-55, 0x1.abe09e9000000p-17, 0x1.44b5e4c20c025p-49,
    0x1.ffffcf23ff5fcp-1, -0x1.b18a8b1c01178p-55, 0x1.5a2adfa000000p-17, 0x1.69788f66bbb17p-50,
    0x1.ffffd8e1a2f22p-1, -0x1.c10adf6b19989p-55, 0x1.1783ceb000000p-17, -0x1.ebb782fe33b1ep-48,
    0x1.ffffe0bd3e852p-1, -0x1.d7ece48eb2a50p-58, 0x1.c282cd4000000p-18, -0x1.aa04970d92e0ep-48,
    0x1.ffffe710d565ep-1, 0x1.c9ea52d76dc04p-55, 0x1.6a59722000000p-18, -0x1.95b099cbf8fbcp-48,
    0x1.ffffec2641a9ep-1, -0x1.e7ba4fdd8fb93p-55, 0x1.22df298000000p-18, 0x1.0a21171e19234p-49,
    0x1.fffff039f9e8fp-1, -0x1.9d1bcd6174e99p-55, 0x1.d21397f000000p-19, -0x1.4998d45aaf670p-49,
    0x1.fffff37d63a36p-1, -0x1.753e324286e6bp-57, 0x1.74adc8f000000p-19, 0x1.01934dcc96a71p-49,
    0x1.fffff618c3da6p-1, -0x1.19309ce23aa3ep-58, 0x1.296a70f000000p-19, 0x1.05014c81b732cp-49,
    0x1.fffff82cdcf1bp-1, 0x1.046bbe9a11838p-55, 0x1.d9c736a000000p-20, -0x1.c1388e9d4309bp-50,
    0x1.fffff9d446cccp-1, -0x1.bb06bab98bc7ep-57, 0x1.789fb71000000p-20, 0x1.6aba53fb7649bp-50,
    0x1.fffffb248c39dp-1, 0x1.9b9a417112087p-55, 0x1.2acee2f000000p-20, 0x1.7b36df8f50169p-50,
    0x1.fffffc2f171e3p-1, 0x1.85edd0395f475p-55, 0x1.d9371e3000000p-21, -0x1.07957a897b571p-58,
    0x1.fffffd01f36afp-1, -0x1.d41915db16d51p-55, 0x1.75fa8dc000000p-21, -0x1.bda09ee23a50ap-52,
    0x1.fffffda86faa9p-1, -0x1.d230252d68f25p-56, 0x1.26f9df8000000p-21, 0x1.466f5a1cc678ep-51,
    0x1.fffffe2ba0ea5p-1, -0x1.26cd790893493p-55, 0x1.d06ad6f000000p-22, -0x1.90347af3e458cp-53,
    0x1.fffffe92ced93p-1, -0x1.d2db2ecfe14aep-55, 0x1.6ce1aa4000000p-22, -0x1.42117c81d49e8p-57,
    0x1.fffffee3cc32cp-1, 0x1.e429188c25b27p-56, 0x1.1e1e858000000p-22, -0x1.48ea5f407c052p-52,
    0x1.ffffff233ee1dp-1, 0x1.db123ed17221dp-55, 0x1.bfd7556000000p-23, -0x1.710a5efeae30fp-53,
    0x1.ffffff54dab72p-1, -0x1.a443df641c094p-55, 0x1.5dcd66a000000p-23, -0x1.a6598c649e41cp-56
};

/* erf(a) rounded to odd at 53 bits, a in [0, 3.95]. */
WC_INLINE double wc_erf_odd_(double a) {
  WC_CR_CONTRACT_
  double   m = a * 32.0 + 0x1.8p52, c = (m - 0x1.8p52) * 0.03125, d = a - c;
  uint64_t i = wc_f64_to_bits(m) - 0x4338000000000000u; /* round(32 a) */
  double   a1 = -c, a2, a3, a4, a5, a6, a7, a8, g1, s1, s2, S, Se, low, h;
  a2 = -0x1.5555555555555p-1 * c * a1 + -0x1.5555555555555p-2;
  a3 = -0x1.0000000000000p-1 * c * a2 + -0x1.5555555555555p-2 * a1;
  a4 = -0x1.999999999999ap-2 * c * a3 + -0x1.3333333333333p-2 * a2;
  a5 = -0x1.5555555555555p-2 * c * a4 + -0x1.1111111111111p-2 * a3;
  a6 = -0x1.2492492492492p-2 * c * a5 + -0x1.e79e79e79e79ep-3 * a4;
  a7 = -0x1.0000000000000p-2 * c * a6 + -0x1.b6db6db6db6dbp-3 * a5;
  a8 = -0x1.c71c71c71c71cp-3 * c * a7 + -0x1.8e38e38e38e39p-3 * a6;
  g1 = d * (a1 + d * (a2 + d * (a3 + d * (a4 + d * (a5 + d * (a6 + d * (a7 + d * a8)))))));
  s1 = wc_erf_tab_[4 * i + 2] * d;
  s2 = wc_erf_tab_[4 * i + 3] * d;
  S = wc_erf_tab_[4 * i] + s1;
  Se = s1 - (S - wc_erf_tab_[4 * i]);
  low = Se + (wc_erf_tab_[4 * i + 1] + (s2 + (s1 + s2) * g1));
  h = S + low;
  return wc_cr_odd_(h, low - (h - S));
}

#define WC_ERF_TOP_ 0x407ccccdu /* 3.95f */

WC_INLINE float wc_erf_f32(float x) {
  uint32_t u = wc_f32_to_bits(x);
  float    r = (float)wc_erf_odd_(wc_cr_abs_clamp_(u, WC_ERF_TOP_));
  r = wc_bits_to_f32(wc_f32_to_bits(r) | (u & 0x80000000u));
  return wc_sel_f32(x != x, wc_quiet_f32(x), r);
}
/* ---- erf's raw form (exp.h: a block's first pass) -------------------------------
   No table (no gather): a = |x| clamped to 3.95 as the exact form's, z = a^2
   (exact), and
   - a < 1: a P(z), P of degree 10 interpolating erf(a)/a at the 11 Chebyshev
     nodes of z in [0, 1] (within 2^-50.82 of it);
   - a >= 1: 1 - e^(-z) Q(s), Q = e^(a^2) erfc(a) of degree 12 in s = (a - C)/(a
     + 2) (C so that s runs over [-w, w], w = 0.3296; a + 2 exact, s within 2u
     of itself) at the 13 Chebyshev nodes; e^(-z) = 2^k e^r, k the integer
     nearest -z/ln2 (>= -23), r = (-k L1 - z) + k (ln2 - L1) (k L1 exact, 49
     bits, the difference a multiple of 2^-46 below 1/2: exact; then one
     rounding), e^r of degree 10 on |r| <= ln2/2 (within 2^-50.54 with r's
     error and Horner's), 2^k put on the exponent (exact). erfc(a) <= 0.1573 <= erf(a)/5.36: the errors of e^r
     and Q count at most 0.19 times in erf.
   crmath_tables.py erf_raw_bound, on grids of z, s and r with Horner's
   roundings at pointwise magnitudes: y within 2^-50.10 (a < 1), 2^-51.40 (a >=
   1) of erf(a); each step bounded as if rounded, whatever contracts. From 3.95
   up (inf too) y is erf(3.95) = 1 - 2^-25.8 within that bound, above the
   midpoint 1 - 2^-25: it rounds to 1, as erf(x) does (from 3.92). x's sign is
   put back, so erf(-0) = -0; a NaN gives the NaN, subnormal results too
   (exp.h).
   gcc fuses only when told (generated files turn contraction off): where the
   target has FMA the products and sums are fused by hand (__builtin_fma,
   inlined). Without FMA under gcc (its -O2 builds: their AVX2 clones cannot
   see the FMA at preprocessing) that way is slower than the exact form, and
   the raw form is the exact form's Taylor series at i/32 kept to n = 6 (G - 1
   to d^6, a1 .. a6) in plain double: y = SH + (ed + ed g1), ed = (EH + EL) d,
   none of the error-free steps. crmath_tables.py erf_raw_taylor_bound, per
   interval (the truncation, g1's roundings as the exact form's bound takes
   them, E's sum, the products and sums, SH within u erf(c)): 2^-49.56. */
#if defined(__GNUC__) && !defined(__clang__) && !defined(__FMA__)
WC_INLINE float wc_erf_raw_f32(float x) {
  double   a = wc_cr_abs_clamp_(wc_f32_to_bits(x), WC_ERF_TOP_);
  double   m = a * 32.0 + 0x1.8p52, c = (m - 0x1.8p52) * 0.03125, d = a - c;
  uint64_t i = wc_f64_to_bits(m) - 0x4338000000000000u; /* round(32 a) */
  double   a1 = -c, a2, a3, a4, a5, a6, g1, ed;
  a2 = -0x1.5555555555555p-1 * c * a1 + -0x1.5555555555555p-2;
  a3 = -0x1.0000000000000p-1 * c * a2 + -0x1.5555555555555p-2 * a1;
  a4 = -0x1.999999999999ap-2 * c * a3 + -0x1.3333333333333p-2 * a2;
  a5 = -0x1.5555555555555p-2 * c * a4 + -0x1.1111111111111p-2 * a3;
  a6 = -0x1.2492492492492p-2 * c * a5 + -0x1.e79e79e79e79ep-3 * a4;
  g1 = d * (a1 + d * (a2 + d * (a3 + d * (a4 + d * (a5 + d * a6)))));
  ed = (wc_erf_tab_[4 * i + 2] + wc_erf_tab_[4 * i + 3]) * d;
  return wc_cr_raw_round_signed_(wc_erf_tab_[4 * i] + (ed + ed * g1), x);
}
#else
WC_INLINE float wc_erf_raw_f32(float x) {
  WC_CR_CONTRACT_
  double a = wc_cr_abs_clamp_(wc_f32_to_bits(x), WC_ERF_TOP_), z = a * a;
  double p = a * WC_F_(z, WC_F_(z, WC_F_(z, WC_F_(z, WC_F_(z, WC_F_(z, WC_F_(z, WC_F_(z, WC_F_(z,
      WC_F_(z, 0x1.43f6d0dee7032p-27, -0x1.462a758d4591dp-23), 0x1.b5d3ea9fd0b5ap-20),
      -0x1.f4684782919e8p-17), 0x1.f99c295886f05p-14), -0x1.c02d67e37081ep-11),
      0x1.565bcb082cca2p-8), -0x1.b82ce3026aae0p-6), 0x1.ce2f21a000d30p-4), -0x1.812746b037352p-2),
      0x1.20dd750429b6bp+0);
  double s = (a - 0x1.fd23c1409cfbap+0) / (a + 2.0);
  double q = WC_F_(s, WC_F_(s, WC_F_(s, WC_F_(s, WC_F_(s, WC_F_(s, WC_F_(s, WC_F_(s, WC_F_(s,
      WC_F_(s, WC_F_(s, WC_F_(s, -0x1.b9a988f086acbp-17, -0x1.cbdf27ac57e40p-16),
      0x1.e66ed27dd21c4p-16), 0x1.75230dca08227p-13), 0x1.501ced7e8fd0fp-15),
      -0x1.06c17efd2e934p-10), -0x1.b964c97188dcdp-11), 0x1.d1fade2d4e00ep-8),
      0x1.e1c798d6b1980p-9), -0x1.466490b2f03d3p-4), 0x1.f30f494553ee3p-3), -0x1.b80e449d92ed1p-2),
      0x1.06c09f64b4176p-2);
  double m = WC_F_(z, -0x1.71547652b82fep+0, 0x1.8p52), kd = m - 0x1.8p52;
  double r = WC_F_(kd, 0x1.0ca86c3898d00p-49, WC_F_(kd, -0x1.62e42fefa3a00p-1, -z));
  double e = WC_F_(r, WC_F_(r, WC_F_(r, WC_F_(r, WC_F_(r, WC_F_(r, WC_F_(r, WC_F_(r, WC_F_(r,
      WC_F_(r, 0x1.28a2c0bee04a5p-22, 0x1.72faf04859965p-19), 0x1.a019a66a5f0b6p-16),
      0x1.a01978c698b9fp-13), 0x1.6c16c17f43acbp-10), 0x1.1111112dd6872p-7), 0x1.55555555520afp-5),
      0x1.555555554b756p-3), 0x1.0000000000005p-1), 0x1.000000000001ep+0), 0x1.0000000000000p+0);
  e = wc_bits_to_f64(wc_f64_to_bits(e) + (wc_f64_to_bits(m) << 52)); /* 2^k e^r */
  return wc_cr_raw_round_signed_(wc_sel_f64(a < 1.0, p, WC_F_(-e, q, 1.0)), x);
}
#endif

WC_INLINE wc_float16 wc_erf_f16(wc_float16 a) {
  return wc_cr_f16_of_(a, wc_erf_odd_(wc_cr_f16_abs_(a, WC_ERF_TOP_)), (uint16_t)(a & 0x8000u));
}
WC_INLINE wc_bfloat16 wc_erf_bf16(wc_bfloat16 a) {
  return wc_cr_bf16_of_(a, wc_erf_odd_(wc_cr_bf16_abs_(a, WC_ERF_TOP_)), (uint16_t)(a & 0x8000u));
}

#ifdef __cplusplus
}
#endif
#endif
