/* wherec/gelu.h: gelu(x) = x Phi(x) = (x/2)(1 + erf(x/sqrt(2))), Phi the standard normal
   distribution function, with exact real constants, correctly rounded to nearest even as a
   whole for float, float16 and bfloat16, without libm and without a branch, computed as exp
   is (wherec/exp.h says how, and why the bits are the same everywhere): a pair h + l within
   a proven bound B of gelu(x), rounded to odd, then into the target; B is below the
   distance D of every input's gelu(x) from the format's rounding boundaries
   (tests/runtime/crmath_hardest.c). u = 2^-53. */
#ifndef WHEREC_GELU_H
#define WHEREC_GELU_H

#include <stdint.h>

#include "crmath.h"
#include "exp.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- gelu ------------------------------------------------------------------------
   For x < 0, Phi(x) = erfc(-x/sqrt(2))/2 is tiny (2^-157 at -14.5): erf's 1 + erf
   would cancel it away, so both signs go through Q = Phi(-a), a = |x|, which has
   relative accuracy down to where gelu underflows: Phi(x) = Q for x < 0, 1 - Q for x
   >= 0 (Q <= 1/2 <= 1 - Q, so Q's relative error reaches 1 - Q at most once).
   Q(a) = e^(-a^2/2) h(a), h(a) = Q(a) e^(a^2/2) (Mills' ratio over sqrt(2 pi)), an
   entire function, decreasing from 1/2 to 0.0274 on [0, 14.5], with h' = a h - 1/sqrt(2
   pi) and h^(k+1) = a h^(k) + k h^(k-1) for k >= 1 (differentiate h' = a h - const).
   Two ways, both computed, one selected:
   - |x| >= 2^-6: a clamped to 14.5 (below -14.5, |gelu(x)| < |gelu(-14.5)| < 2^-152.9
     rounds to -0 in every format, and the clamped x gives it; above 14.5 gelu(x) = x
     (1 - Q) rounds to x, selected: Q(5.4) < 2^-25).
     E = e^(-a^2/2): a^2/2 is exact (a float: 48 bits), a multiple of 2^-59 below 106
     (a >= 2^-6), so exp_core_'s steps hold as for a float (x - k C1 is a multiple of
     2^-59 below 2^-7 in magnitude: exact; |k| < 2^14): (z + e) 2^K within 2^-58.1 E.
     H = h(a): c = i/16 the nearest to a (i <= 232), d = a - c exact (|d| <= 2^-5), h(c +
     d) = sum b_k d^k, b_k = h^(k)(c)/k!: b0 = B0H + B0L, b1 = B1H + B1L from the table
     (B1H of 29 bits, so B1H d is exact), b2 = ((c B1H + B0H) + (c B1L + B0L))/2 (c B1H
     exact, 8 + 29 bits: the cancellation of c b1 + b0, up to 2^-7.2 at c = 14.5, costs
     nothing), b_(k+1) = (c b_k + b_(k-1))/(k + 1) up to b10, P = b2 + d (b3 + ... + d
     b10) by Horner; (S, Se) = B0H + B1H d (Fast2Sum: |b1 d| <= |b0|/20), low = Se + (B0L
     + (B1L d + d^2 P)), Fast2Sum. Per interval (crmath_tables.py bounds: the truncation
     after b10, the recurrence's and Horner's roundings, the sums of low, the table's
     own errors) H is within Bh = 2^-60.92 h.
     Q = E H: z H = z1 h1 + (z1 h2 + z2 h1 + z2 h2 + z hl + e hh) (z1, h1: z and hh
     truncated to 26 bits, so the first three products are exact, z2 h2 within u 2^-50
     z hh; the others u^2), four sums within u 2^-23.9 z hh each, Fast2Sum: 2^-74.6 in
     all; scaling by 2^K (a multiplication: the low part may be 0) exact (Q >= 2^-158,
     normal). Q within 2^-58.1 + 2^-60.92 + 2^-74.6 <= 2^-57.90.
     1 - Q: 2Sum (exact), -ql added (u 2^-52), Fast2Sum. Then x P as silu's x sigmoid(x)
     (activations.h: P to 29 bits, x P1 exact, the rest rounded): 2^-80.9.
     B = 2^-57.90.
   - |x| < 2^-6: gelu(x) = x/2 + x^2 phi0 (1 - x^2/6 + x^4/40 - x^6/336 + ...), phi0 =
     1/sqrt(2 pi); x^2 exact, l = x^2 R(x^2) within 3.01u |l| (phi0 rounded, R's last
     sum, the product; the inner terms below 2^-12 of R), the truncation x^8/3456 <=
     2^-59.7 |l|; x/2 exact, Fast2Sum. |l| <= 2 phi0 |x| (1.013) |x/2|, |gelu| >= |x/2|
     (1 - 2 phi0 |x|): B(x) = 2^-51.7 |x| (at most 2^-57.7).
     Below 2^-26 no bound is needed, the structure decides: x/2 is a value of the format or
     a midpoint (when it is a subnormal), every other boundary is farther from x/2 than
     2^-26 |x/2| (normal) or half the least subnormal (2^-150 for float, 2^-134 for
     bfloat16, of which x/2 is a multiple; float16 has no non-zero input there), gelu(x)
     and h + l both lie strictly between x/2 and x/2 + 1.01 x^2 phi0 (< 2^-26 |x/2| and <
     2^-250), on the side of l: both round alike (gelu(2^-149) rounds up to 2^-149,
     gelu(-2^-149) to -0).
   gelu keeps x's sign (Phi > 0), gelu(-0) = -0, gelu(-inf) = -0 (the limit; ONNX's formula
   gives NaN there), gelu(inf) = inf.
   D (crmath_hardest gelu:MIN): float 2^-51.3 from 2^-6 up (x = 0x1.5b4488p-2), 2^-53.4 from
   2^-26 up (0x1.6148dep-16, where B(x) <= 2^-62.7); float16 2^-24.6 over every input,
   bfloat16 2^-20.2 from 2^-26 up (below, the structure). */

#define WC_GELU_TOP_ 0x41680000u /* 14.5f */

static const double wc_gelu_tab_[4 * 233] = { /* h(i/16) = B0H + B0L, h'(i/16) = B1H + B1L */
    0x1.0000000000000p-1, 0x0.0p+0, -0x1.9884534000000p-2, 0x1.5e4d7b9781a62p-33,
    0x1.e76f76611d38bp-2, -0x1.ed7e6416d726cp-56, -0x1.7a0d5bd000000p-2, -0x1.cc645f9317133p-32,
    0x1.d0af2b9f3f96ep-2, 0x1.11a3ed2742504p-56, -0x1.5e6e6dd000000p-2, 0x1.a92374edf550bp-32,
    0x1.bb9424c284ca0p-2, 0x1.341b5e4e2d305p-56, -0x1.45588c6000000p-2, 0x1.cd60360585f4cp-32,
    0x1.a7f808169e570p-2, 0x1.321648ec65d38p-56, -0x1.2e86513000000p-2, -0x1.e6f3d1e7b99abp-32,
    0x1.95b88e3513a03p-2, 0x1.cef89d50846d1p-57, -0x1.19baa6d000000p-2, 0x1.a95e83a82f574p-33,
    0x1.84b705ec74443p-2, 0x1.5930c60b036a7p-57, -0x1.06bfb10000000p-2, -0x1.25f2dd738607dp-32,
    0x1.74d7e856327fdp-2, 0x1.56f066fd23b01p-56, -0x1.eacbbb3000000p-3, 0x1.cacb921ca001dp-36,
    0x1.66027ad4c24afp-2, 0x1.afd28a45ae232p-58, -0x1.cb062ba000000p-3, -0x1.711fc7fc89b75p-33,
    0x1.58207d0ae1552p-2, 0x1.f3fd538287947p-56, -0x1.ade419d000000p-3, 0x1.b6b5bb27fa904p-35,
    0x1.4b1de1265fdfap-2, -0x1.b31066794951ap-56, -0x1.93234d1000000p-3, 0x1.5c435b77ad260p-33,
    0x1.3ee88d16af92ep-2, -0x1.bbff40345d6fdp-56, -0x1.7a88e48000000p-3, 0x1.2aa7f63502addp-33,
    0x1.3370237bca626p-2, 0x1.5b5ccb581f89cp-59, -0x1.63e0714000000p-3, -0x1.ae6d013ae79e1p-36,
    0x1.28a5d34642fd9p-2, -0x1.e7f3afc8884afp-56, -0x1.4efb2f3000000p-3, 0x1.e9847afe95a87p-33,
    0x1.1e7c2d26d017dp-2, -0x1.51009c34e43e8p-56, -0x1.3baf577000000p-3, -0x1.a6a81bb63f6b4p-33,
    0x1.14e6fe0b79445p-2, -0x1.0a4cd0ac1dff1p-57, -0x1.29d78a2000000p-3, -0x1.40da7fe2265d8p-33,
    0x1.0bdb2e039df32p-2, -0x1.389f1b0bbd828p-57, -0x1.19524a7000000p-3, -0x1.a571eb423ae9ep-34,
    0x1.034ea2fb1d9acp-2, -0x1.1c94c31f24034p-59, -0x1.0a018c2000000p-3, -0x1.39f84eb415ddbp-33,
    0x1.f6704da1278cep-3, -0x1.fb1d36932a5fbp-57, -0x1.f7949e5000000p-4, 0x1.62da30ba01917p-34,
    0x1.e71ea0b6d3bbcp-3, -0x1.944a43fe20cd4p-57, -0x1.dd288f4000000p-4, -0x1.6b5b25225a2a8p-35,
    0x1.d898de09c6f19p-3, 0x1.d6ac48da9b5e4p-57, -0x1.c49321e000000p-4, 0x1.b1e3eb8f6404cp-35,
    0x1.cad0f1473e897p-3, 0x1.05a6373e5ffbfp-57, -0x1.adacd3a000000p-4, 0x1.7da52b5dd79d4p-34,
    0x1.bdb9f2a73a6d4p-3, -0x1.4b7a21c2500b7p-57, -0x1.9851f1b000000p-4, 0x1.b4c60f9f736f6p-34,
    0x1.b1480a1beb5c2p-3, 0x1.bf1a599b35522p-60, -0x1.84622fe000000p-4, -0x1.323ad1304f3b9p-34,
    0x1.a5705596892b7p-3, -0x1.d00ba6107c90ep-59, -0x1.71c04c3000000p-4, -0x1.7211d8b415c14p-36,
    0x1.9a28d2051dd86p-3, -0x1.c621f6c75f150p-57, -0x1.6051bca000000p-4, -0x1.4414035c26d6fp-34,
    0x1.8f6846b88149ep-3, 0x1.f1abc41100df6p-62, -0x1.4ffe672000000p-4, 0x1.4b4dfac31d7c5p-35,
    0x1.852632ebdcfd0p-3, -0x1.29463d964b38ap-57, -0x1.40b0612000000p-4, 0x1.bf106b43b63c6p-34,
    0x1.7b5abd2fd03adp-3, 0x1.800e52e98304cp-58, -0x1.3253b6d000000p-4, 0x1.259cdf9e38baap-35,
    0x1.71fea482e5ef7p-3, -0x1.ddf6804f396dcp-57, -0x1.24d638a000000p-4, 0x1.5cfbedea65bb2p-34,
    0x1.690b32e7a6754p-3, -0x1.b481a2aa56609p-57, -0x1.18274e1000000p-4, -0x1.7572335e2d5c4p-38,
    0x1.607a314e4d3a1p-3, -0x1.15d932f5c360ep-57, -0x1.0c37cde000000p-4, -0x1.6894cd85a6594p-34,
    0x1.5845dcad2a54ep-3, 0x1.c9ff43b08bf90p-57, -0x1.00f9da4000000p-4, -0x1.91021a8ffa503p-38,
    0x1.5068dc2714e63p-3, -0x1.41427f887d5d7p-59, -0x1.ecc181a000000p-5, -0x1.ebaf5138928e9p-35,
    0x1.48de38232294ap-3, 0x1.3a4b336e97a6bp-57, -0x1.d8c1bcc000000p-5, 0x1.158e666c2e6d1p-38,
    0x1.41a1523c2dabfp-3, -0x1.481680297a152p-61, -0x1.c5df0a6000000p-5, 0x1.1d1e0aaa9a4a6p-35,
    0x1.3aadddf19e980p-3, -0x1.a4235d20a0b3bp-58, -0x1.b405cc7000000p-5, 0x1.1e0be6fb67756p-35,
    0x1.33ffda057cb5dp-3, -0x1.004253ebca472p-57, -0x1.a323f93000000p-5, -0x1.d665a9e45eefdp-35,
    0x1.2d938a7609c28p-3, 0x1.9687d4bac9a7fp-59, -0x1.9328f69000000p-5, 0x1.d063e2238931bp-35,
    0x1.2765730324f6dp-3, 0x1.7751d92c2f263p-59, -0x1.8405789000000p-5, 0x1.234f8cf0de19dp-35,
    0x1.21725231700b8p-3, 0x1.b027a77ad33e6p-57, -0x1.75ab640000000p-5, 0x1.1152bf3f93234p-35,
    0x1.1bb71cbeb8b87p-3, -0x1.9ec7659dc8236p-57, -0x1.680db34000000p-5, -0x1.cd71833d75392p-35,
    0x1.1630f97c8369ep-3, 0x1.188ef4b87184ap-58, -0x1.5b205e5000000p-5, 0x1.48af807bd4750p-37,
    0x1.10dd3d86c5b6bp-3, -0x1.fc68837c51108p-64, -0x1.4ed8448000000p-5, -0x1.4dbc6332b0ba5p-37,
    0x1.0bb968cded93fp-3, 0x1.188df3f4c6335p-63, -0x1.432b191000000p-5, -0x1.cb99eb8e080cep-38,
    0x1.06c322ec41bf1p-3, 0x1.98d9377b286e9p-57, -0x1.380f511000000p-5, 0x1.f21f5d559248ap-35,
    0x1.01f8383f7c1ddp-3, 0x1.7b8ac1c1e0ad4p-58, -0x1.2d7c131000000p-5, -0x1.f4531b9b8d6f3p-43,
    0x1.faad2e80766fap-4, 0x1.9dbf8d0bbd2d8p-58, -0x1.236928b000000p-5, -0x1.d8d61523340aep-35,
    0x1.f1b89c231e9b8p-4, -0x1.da9b41d833643p-58, -0x1.19cef11000000p-5, -0x1.d8e0dcc19cf2ap-35,
    0x1.e90f1086f8db4p-4, 0x1.42829eb868fe2p-58, -0x1.10a654b000000p-5, 0x1.322d80ab35250p-38,
    0x1.e0ad19879ee09p-4, 0x1.489f6c2982090p-58, -0x1.07e8ba6000000p-5, 0x1.6174d763eafc8p-35,
    0x1.d88f77f233dbdp-4, -0x1.677b327ba1982p-58, -0x1.ff1ffa8000000p-6, -0x1.08478e2b5592cp-36,
    0x1.d0b31c082543cp-4, -0x1.fa9e33c6acfbdp-58, -0x1.ef2cc77000000p-6, 0x1.6b87f302048fdp-36,
    0x1.c9152247ebb78p-4, -0x1.f8c77ae71b117p-58, -0x1.dfed2da000000p-6, 0x1.2f3b9a9bba147p-36,
    0x1.c1b2d075ab928p-4, 0x1.45799778707c4p-58, -0x1.d15735a000000p-6, 0x1.57a5de5f6adc6p-40,
    0x1.ba8992de2b79bp-4, -0x1.ae9e4b507374dp-58, -0x1.c361906000000p-6, -0x1.5821ed64f35aap-36,
    0x1.b396f9cf1e260p-4, -0x1.1646b36c1f44dp-61, -0x1.b6038a8000000p-6, -0x1.2079295774489p-39,
    0x1.acd8b74035c2ap-4, 0x1.7a5a8b7e7e456p-63, -0x1.a935008000000p-6, -0x1.383b226dd9f3dp-38,
    0x1.a64c9ca8e3dcdp-4, 0x1.d3769e1adc1b7p-58, -0x1.9cee544000000p-6, -0x1.a7272d9375b52p-37,
    0x1.9ff098ff0a8a8p-4, -0x1.5e68455bb63a1p-58, -0x1.9128632000000p-6, -0x1.2d6afee8e99c4p-37,
    0x1.99c2b6db3b3a0p-4, -0x1.f9a402f2d631ap-59, -0x1.85dc7d0000000p-6, 0x1.10854debbf1adp-36,
    0x1.93c11abf6eac2p-4, 0x1.d209d70c635a7p-58, -0x1.7b045bf000000p-6, 0x1.90b864fe4680dp-37,
    0x1.8dea017d68d0dp-4, -0x1.7f72726328043p-58, -0x1.709a1cc000000p-6, 0x1.d129d7093e87dp-37,
    0x1.883bbeba3b7b1p-4, -0x1.e01015ae79e3dp-59, -0x1.669837e000000p-6, 0x1.e502e7bc74317p-39,
    0x1.82b4bb8c94dcep-4, -0x1.990ea270aca77p-59, -0x1.5cf97b1000000p-6, 0x1.45df4ff3981d6p-36,
    0x1.7d537533bb1a5p-4, 0x1.8ef8a772fa2c8p-62, -0x1.53b9035000000p-6, 0x1.1a86c35141bb0p-36,
    0x1.78167be545a31p-4, -0x1.4bc09598d615ep-60, -0x1.4ad2379000000p-6, 0x1.6358f2c7258fbp-37,
    0x1.72fc71afcfdd5p-4, 0x1.e27312b7216e7p-58, -0x1.4240c39000000p-6, -0x1.ae4a8965d6ab3p-37,
    0x1.6e0409710781ap-4, 0x1.8b681fc4edeaep-60, -0x1.3a00935000000p-6, -0x1.5b5a6966f0902p-37,
    0x1.692c05dd9c385p-4, -0x1.2976b51738affp-58, -0x1.320dcea000000p-6, -0x1.5be15e4f3282ep-36,
    0x1.64733899b5f9ep-4, 0x1.6bbf800d16becp-59, -0x1.2a64d55000000p-6, -0x1.22ddc5aa4e5d4p-37,
    0x1.5fd88160b4b1ap-4, 0x1.c571480cd3ed7p-58, -0x1.23023b6000000p-6, 0x1.440322ca7efd0p-40,
    0x1.5b5acd3b15fbbp-4, 0x1.3b0a597c9f99ep-58, -0x1.1be2c5b000000p-6, 0x1.aab115c58ef76p-37,
    0x1.56f915c175cf7p-4, 0x1.ecb86e18cc4d9p-62, -0x1.150366d000000p-6, 0x1.9bee4dee0f8e8p-36,
    0x1.52b2606bb4b6ep-4, -0x1.d9ed52be1624ap-60, -0x1.0e613c1000000p-6, 0x1.1639a02c23924p-36,
    0x1.4e85bdeb62122p-4, 0x1.a7804564ea7fap-58, -0x1.07f98ad000000p-6, -0x1.b1df0e3f4db9fp-36,
    0x1.4a7249909b035p-4, 0x1.df2f08f62e185p-59, -0x1.01c9be2000000p-6, 0x1.d2bbaa844c061p-36,
    0x1.467728b89f246p-4, 0x1.e41cb500fe9e0p-61, -0x1.f79ec7e000000p-7, -0x1.1f6a216e1b771p-37,
    0x1.42938a456b3f9p-4, -0x1.6792ce4530394p-61, -0x1.ec10571000000p-7, -0x1.457c9160d14bcp-37,
    0x1.3ec6a61db80a3p-4, -0x1.ba2f0d8c20a47p-61, -0x1.e0e3c61000000p-7, -0x1.43876a1e5be21p-38,
    0x1.3b0fbcb4c77bep-4, 0x1.31794a900891fp-58, -0x1.d614eb7000000p-7, 0x1.afaea9330e086p-37,
    0x1.376e169976e3ep-4, -0x1.05c64297e0b7fp-58, -0x1.cb9fd46000000p-7, -0x1.1d94cfc70c9ccp-39,
    0x1.33e1040c166bap-4, 0x1.26aaa373af0f7p-58, -0x1.c180c1c000000p-7, 0x1.caa710a96e8f6p-37,
    0x1.3067dc9a90635p-4, 0x1.aa1857998fb5ap-58, -0x1.b7b424a000000p-7, 0x1.7ede5c8b0c954p-37,
    0x1.2d01fec27390ap-4, -0x1.015ceffeeecfdp-58, -0x1.ae369bc000000p-7, -0x1.76e7830493f7fp-39,
    0x1.29aecf987bdcfp-4, -0x1.ada46add1aa7cp-62, -0x1.a504f0d000000p-7, -0x1.f71cd4fd225a0p-37,
    0x1.266dba753c377p-4, 0x1.85d77752a4361p-59, -0x1.9c1c15f000000p-7, -0x1.d3d431ca4d18bp-37,
    0x1.233e30a6935b6p-4, -0x1.78803acd32cf6p-58, -0x1.9379236000000p-7, 0x1.67592d7e50640p-37,
    0x1.201fa9259b7acp-4, 0x1.4a005c06100b4p-58, -0x1.8b19553000000p-7, -0x1.b387373f57347p-39,
    0x1.1d11a050ca9b6p-4, -0x1.37a9274c489efp-59, -0x1.82fa09a000000p-7, 0x1.65b054c34d6efp-38,
    0x1.1a1397a9fec96p-4, -0x1.346636a6c1e94p-60, -0x1.7b18bec000000p-7, -0x1.a8cedc1563850p-37,
    0x1.1725159836312p-4, -0x1.48009712c672dp-58, -0x1.7373112000000p-7, 0x1.4d464b2bff880p-37,
    0x1.1445a52cb7b7cp-4, -0x1.debe16e94854fp-58, -0x1.6c06b9a000000p-7, 0x1.2cc41b8f921f6p-40,
    0x1.1174d5eb74da4p-4, 0x1.ca31beb7b3a3dp-58, -0x1.64d18c6000000p-7, -0x1.d97d969bb8f39p-38,
    0x1.0eb23b967175fp-4, 0x1.4cf5a12c7b145p-59, -0x1.5dd1771000000p-7, 0x1.9a019c08a6ad7p-37,
    0x1.0bfd6dfc01ac1p-4, -0x1.2a23ecd423e55p-58, -0x1.57047f6000000p-7, -0x1.874d3fd9900f8p-37,
    0x1.095608c7b15f1p-4, 0x1.fe1c4aaf40c1ap-62, -0x1.5068c23000000p-7, -0x1.cab3808d90be2p-37,
    0x1.06bbab55abd0bp-4, -0x1.38b6cb1d08a25p-58, -0x1.49fc71f000000p-7, 0x1.5033a872f1cdbp-38,
    0x1.042df8887cb8dp-4, 0x1.c1c01fa9f670cp-59, -0x1.43bdd59000000p-7, 0x1.dcafd882fd69ap-37,
    0x1.01ac96a106c8fp-4, -0x1.4188a52e7a8cep-59, -0x1.3dab478000000p-7, -0x1.6731cb9ddb966p-37,
    0x1.fe6e5e311bedcp-5, 0x1.1a8c3738851b8p-60, -0x1.37c334e000000p-7, 0x1.a6cb6e87e6283p-38,
    0x1.f99adcf96c502p-5, -0x1.b5efee900b46ap-59, -0x1.32041c1000000p-7, 0x1.82456118c0689p-39,
    0x1.f4de089ab1cc0p-5, 0x1.d8d8f763a5ef3p-62, -0x1.2c6c8c4000000p-7, 0x1.24c3f5b4df666p-41,
    0x1.f03745b82d653p-5, 0x1.7e0e7c8d065a8p-59, -0x1.26fb246000000p-7, -0x1.dbb2ec67c25bep-39,
    0x1.eba5fe5b14b2ap-5, 0x1.f61ed10bbb526p-60, -0x1.21ae927000000p-7, 0x1.eb60e2f7aaff7p-37,
    0x1.e729a1b80c862p-5, 0x1.11a482f47225fp-59, -0x1.1c85929000000p-7, 0x1.b708078738cf7p-37,
    0x1.e2c1a3f78ab73p-5, 0x1.a0348de80c823p-60, -0x1.177eee9000000p-7, 0x1.dbd56d02d2ba2p-37,
    0x1.de6d7e00f509ep-5, -0x1.b0524972a8ddcp-59, -0x1.12997d1000000p-7, 0x1.2e26592e04d47p-39,
    0x1.da2cad4855d33p-5, 0x1.067d4bf689709p-59, -0x1.0dd4210000000p-7, -0x1.d7d6a6d8ae9b2p-37,
    0x1.d5feb39e8175ep-5, -0x1.16b745e7c1005p-59, -0x1.092dc91000000p-7, 0x1.b6caa1cd1830fp-37,
    0x1.d1e317038a1d6p-5, 0x1.dcc024399b4a1p-59, -0x1.04a56ec000000p-7, -0x1.c59e1f5141b9fp-37,
    0x1.cdd9617b6144fp-5, -0x1.8e850b1516141p-60, -0x1.003a169000000p-7, 0x1.d7a5e4dea4681p-37,
    0x1.c9e120e488937p-5, -0x1.25b6cb9d698b5p-59, -0x1.f7d59d5000000p-8, -0x1.7c815a9f8f8d8p-39,
    0x1.c5f9e6d0b5759p-5, 0x1.4eedb43378123p-60, -0x1.ef6d5e4000000p-8, -0x1.999eb0d080cd1p-41,
    0x1.c223485f4c98bp-5, -0x1.9f26170929466p-59, -0x1.e739b22000000p-8, 0x1.cd2ee280b9a2ap-38,
    0x1.be5cde199c090p-5, -0x1.03c11e378a2fbp-59, -0x1.df38ec9000000p-8, -0x1.34f6767ab85cap-42,
    0x1.baa643d0bc394p-5, -0x1.2872745f659d7p-60, -0x1.d769720000000p-8, -0x1.8d128ea4c26b2p-38,
    0x1.b6ff187d01a1dp-5, -0x1.6cb64abf89644p-59, -0x1.cfc9b6c000000p-8, 0x1.8da1988caeeb1p-46,
    0x1.b366fe1ee9f86p-5, 0x1.2fa751b96b2fap-59, -0x1.c8583e3000000p-8, -0x1.da05f8a1db34ap-41,
    0x1.afdd99a1713cdp-5, -0x1.51e79e9653c77p-60, -0x1.c1139a5000000p-8, 0x1.3e17e1ab8a15bp-38,
    0x1.ac6292bdbbfdcp-5, 0x1.4eeb71192e8b4p-61, -0x1.b9fa6ae000000p-8, 0x1.cd8dc69000643p-38,
    0x1.a8f593e0054e3p-5, -0x1.d1f2029b9ac0ep-61, -0x1.b30b5ce000000p-8, 0x1.9eded68c85c3ep-42,
    0x1.a5964a0dbfe4fp-5, -0x1.10471db63dcb2p-60, -0x1.ac452a1000000p-8, 0x1.78129e7fbbb98p-38,
    0x1.a24464ccdad37p-5, 0x1.712fc1454dc0bp-59, -0x1.a5a6982000000p-8, 0x1.6e22a5a12db1dp-38,
    0x1.9eff960c1b22bp-5, -0x1.618c3e874252fp-60, -0x1.9f2e786000000p-8, -0x1.236e1fbf8d9d6p-39,
    0x1.9bc7920c7c79bp-5, -0x1.c819abb0e0b48p-59, -0x1.98dba74000000p-8, -0x1.1d639e6a0fa70p-38,
    0x1.989c0f4b8bb95p-5, -0x1.0d85bf55f7a9cp-59, -0x1.92ad0bc000000p-8, 0x1.a255dc9c4aad9p-38,
    0x1.957cc66eaf32bp-5, 0x1.9edc6c7e9ac89p-59, -0x1.8ca196e000000p-8, 0x1.cde907afc35a3p-39,
    0x1.9269722f50cddp-5, -0x1.9403443e0f2cap-59, -0x1.86b8438000000p-8, 0x1.ad181bdec7686p-39,
    0x1.8f61cf47df19ap-5, 0x1.134ce4d8165b1p-60, -0x1.80f015b000000p-8, -0x1.48d336615b681p-38,
    0x1.8c659c619adb9p-5, -0x1.d12d80bebd1b7p-59, -0x1.7b481a9000000p-8, 0x1.de1ee0d3a7134p-38,
    0x1.89749a0327421p-5, -0x1.1ba5d28b468c6p-59, -0x1.75bf678000000p-8, -0x1.26ee1f457135ep-39,
    0x1.868e8a7fd36a7p-5, -0x1.2eb7c4ee116d7p-67, -0x1.70551a6000000p-8, 0x1.d417554452c5dp-39,
    0x1.83b331e794670p-5, -0x1.b7f959659f640p-60, -0x1.6b0858b000000p-8, 0x1.ccdf99cb11e74p-38,
    0x1.80e255f7a76d5p-5, -0x1.ebae2279e5c68p-59, -0x1.65d84f8000000p-8, -0x1.ea11be5e42373p-46,
    0x1.7e1bbe0bd4454p-5, 0x1.7d2d3cd9d8709p-59, -0x1.60c4333000000p-8, -0x1.307f211cbb61cp-39,
    0x1.7b5f3310487cap-5, -0x1.da8139d5cefa4p-63, -0x1.5bcb3f0000000p-8, 0x1.33ec161f1f1bcp-39,
    0x1.78ac7f7404469p-5, 0x1.28499107bfb9cp-59, -0x1.56ecb4c000000p-8, -0x1.6d17dbc81bedcp-38,
    0x1.76036f1bd24f5p-5, 0x1.13a64ba754341p-60, -0x1.5227dcd000000p-8, -0x1.29e10fa788291p-40,
    0x1.7363cf55c4230p-5, 0x1.90003043ec4bbp-59, -0x1.4d7c059000000p-8, 0x1.f98fff8841de2p-38,
    0x1.70cd6ecd2d1d2p-5, -0x1.b8b99083949f3p-60, -0x1.48e8833000000p-8, -0x1.a0d3195129fe5p-38,
    0x1.6e401d7f16237p-5, -0x1.59c232d8bbab5p-59, -0x1.446cafd000000p-8, -0x1.4081591f18f40p-40,
    0x1.6bbbacaf24bbfp-5, -0x1.32fd3d18ce4b9p-60, -0x1.4007eac000000p-8, 0x1.2b6e58bc2d958p-39,
    0x1.693feedcf0526p-5, -0x1.576cdf86e0243p-59, -0x1.3bb998a000000p-8, 0x1.116f87054c558p-38,
    0x1.66ccb7b9c0c57p-5, -0x1.6c7f8b0100bc9p-59, -0x1.3781231000000p-8, -0x1.50de272754a93p-39,
    0x1.6461dc1eb192cp-5, -0x1.c2d892af89c0fp-59, -0x1.335df8a000000p-8, 0x1.c32cb41df38f9p-42,
    0x1.61ff320335338p-5, 0x1.53672f27b239bp-59, -0x1.2f4f8c6000000p-8, -0x1.ab644c475eca0p-38,
    0x1.5fa49073f474cp-5, 0x1.ce13bb33de4ddp-63, -0x1.2b55560000000p-8, -0x1.8a6f3cc520986p-38,
    0x1.5d51cf8a05c9fp-5, 0x1.6faf2e29a23d2p-59, -0x1.276ed17000000p-8, 0x1.34c7b538d81bcp-38,
    0x1.5b06c86278cccp-5, -0x1.64b27971f1896p-61, -0x1.239b7eb000000p-8, 0x1.d394d0fcb8adcp-38,
    0x1.58c355163249fp-5, -0x1.58a18b22cb101p-59, -0x1.1fdae1d000000p-8, -0x1.d9a781c7bfe06p-44,
    0x1.568750b2156a7p-5, -0x1.f4612a7de17fcp-59, -0x1.1c2c82d000000p-8, 0x1.1de7e15d8cbb9p-38,
    0x1.5452972f76b07p-5, 0x1.4132c99125217p-59, -0x1.188fed4000000p-8, 0x1.98c8224b489acp-38,
    0x1.5225056cd5a9dp-5, 0x1.c621a2cb3b93fp-60, -0x1.1504b05000000p-8, 0x1.3fff60cabb569p-38,
    0x1.4ffe7926da5ddp-5, 0x1.5ab11a2a8d2d7p-59, -0x1.118a5ea000000p-8, -0x1.2b09032219761p-40,
    0x1.4dded0f193a22p-5, -0x1.2ea09c1401e90p-59, -0x1.0e208e3000000p-8, 0x1.58510d4a560e8p-40,
    0x1.4bc5ec31f3a31p-5, 0x1.29841e5064c9ap-59, -0x1.0ac6d82000000p-8, 0x1.d89b859676003p-38,
    0x1.49b3ab17880dbp-5, -0x1.d6f08cc4be1b2p-60, -0x1.077cd8a000000p-8, 0x1.97bbc8bbd32e8p-38,
    0x1.47a7ee966b664p-5, -0x1.bd9b1c4325636p-64, -0x1.04422ee000000p-8, -0x1.6d2d215be22a1p-38,
    0x1.45a298616d362p-5, -0x1.c47e3ab6ec610p-60, -0x1.01167d1000000p-8, 0x1.2217456cd92e4p-41,
    0x1.43a38ae46ed46p-5, -0x1.93a50d2c0d7b4p-59, -0x1.fbf2cfe000000p-9, 0x1.c919d3328297bp-40,
    0x1.41aaa93ef2a92p-5, -0x1.bdd22fd0f732fp-59, -0x1.f5d52e1000000p-9, 0x1.3a75157f3974fp-39,
    0x1.3fb7d73edbe31p-5, 0x1.e930b714b219ep-60, -0x1.efd368e000000p-9, 0x1.5ccb88a8d374fp-39,
    0x1.3dcaf95b5caefp-5, 0x1.d66a71a1c4667p-59, -0x1.e9ecd97000000p-9, -0x1.6bc73a99d01eap-39,
    0x1.3be3f4b011168p-5, -0x1.249ec13a9fcccp-59, -0x1.e420ddd000000p-9, -0x1.b00755954a423p-39,
    0x1.3a02aef844c27p-5, -0x1.9f857dbc8ccc1p-59, -0x1.de6ed8a000000p-9, 0x1.4f64cc1ebef9bp-40,
    0x1.38270e8a61ef0p-5, 0x1.51941333f3feap-59, -0x1.d8d630e000000p-9, -0x1.8c61bf399204fp-39,
    0x1.3650fa5387f58p-5, 0x1.43f80de0f8f40p-61, -0x1.d356522000000p-9, -0x1.00574549e2353p-39,
    0x1.348059d347df7p-5, 0x1.968ad6c51219ep-62, -0x1.cdeeac0000000p-9, 0x1.5e076739cd259p-39,
    0x1.32b51517858a9p-5, -0x1.a973181ba6789p-59, -0x1.c89eb22000000p-9, 0x1.5d7c11036e9d2p-39,
    0x1.30ef14b87bf39p-5, -0x1.72c9a9a9f54f6p-60, -0x1.c365dc2000000p-9, 0x1.3a6e961ba18f9p-42,
    0x1.2f2e41d4e34efp-5, 0x1.c5c360d0d4d2bp-61, -0x1.be43a57000000p-9, 0x1.119b8b4d93e48p-40,
    0x1.2d72860e37a4dp-5, -0x1.d888d3c3ff180p-61, -0x1.b9378d1000000p-9, -0x1.13f2797e920a9p-39,
    0x1.2bbbcb851eb3dp-5, 0x1.ba1c1d3bab20ep-59, -0x1.b44115b000000p-9, 0x1.0340f4a56948bp-39,
    0x1.2a09fcd5ebeccp-5, 0x1.8e1ef4c0c83c4p-60, -0x1.af5fc54000000p-9, 0x1.2a1a0d2ceeb4ep-39,
    0x1.285d051541646p-5, -0x1.2ceb84a57e3bbp-59, -0x1.aa93252000000p-9, 0x1.8045802b69da4p-39,
    0x1.26b4cfcccca6cp-5, 0x1.984a932e2fd40p-60, -0x1.a5dac1d000000p-9, -0x1.3ff78dc5f3e0cp-39,
    0x1.251148f81e624p-5, 0x1.c2d7f51f2c867p-59, -0x1.a1362b1000000p-9, -0x1.2c24526845fe1p-39,
    0x1.23725d019beb2p-5, 0x1.705b15b0fcbd6p-61, -0x1.9ca4f38000000p-9, -0x1.a483942f8266cp-40,
    0x1.21d7f8bf89a45p-5, 0x1.17def51fa93b3p-59, -0x1.9826b0b000000p-9, -0x1.1d275a6eb1138p-39,
    0x1.204209712d63dp-5, 0x1.fb23e42212f95p-59, -0x1.93bafb1000000p-9, 0x1.1bd7b4eb4bdebp-40,
    0x1.1eb07cbc07f21p-5, -0x1.7089ae1af0a1fp-63, -0x1.8f616db000000p-9, -0x1.45f59a2afe8c3p-45,
    0x1.1d2340a924cdbp-5, 0x1.2707d990a6044p-59, -0x1.8b19a66000000p-9, -0x1.88460180072f3p-41,
    0x1.1b9a43a27f663p-5, 0x1.3ae39bff10515p-60, -0x1.86e3458000000p-9, 0x1.d7e26a6cc3c91p-39,
    0x1.1a1574707d06ep-5, -0x1.2215d5de6c111p-61, -0x1.82bdedc000000p-9, -0x1.f5650e3f82e69p-39,
    0x1.1894c2377ab58p-5, -0x1.5372204189080p-59, -0x1.7ea9449000000p-9, 0x1.7ea85092f0380p-39,
    0x1.17181c756e4e1p-5, 0x1.9f448095e55abp-59, -0x1.7aa4f15000000p-9, 0x1.c8dfb982ef449p-43,
    0x1.159f72ff9a2dcp-5, 0x1.92c9650a0a172p-59, -0x1.76b09df000000p-9, 0x1.f675b8330cab7p-40,
    0x1.142ab60052c49p-5, -0x1.96741db487487p-62, -0x1.72cbf66000000p-9, -0x1.3a8acf6f3f32bp-39,
    0x1.12b9d5f4d56dap-5, 0x1.dfbb31d5ed6ffp-59, -0x1.6ef6a8e000000p-9, -0x1.047dfe4c55b60p-44,
    0x1.114cc3ab2ff38p-5, 0x1.36c0ed7748036p-59, -0x1.6b30659000000p-9, -0x1.06f1f37c663a2p-39,
    0x1.0fe37040382b5p-5, -0x1.42650ddc9c64ep-61, -0x1.6778deb000000p-9, -0x1.f28d2a41efce8p-39,
    0x1.0e7dcd1d93192p-5, 0x1.0874a781f595ap-62, -0x1.63cfc87000000p-9, -0x1.afd602a94d88ep-40,
    0x1.0d1bcbf7cb142p-5, -0x1.1f157804e4fabp-59, -0x1.6034d8d000000p-9, -0x1.985baa3b17d14p-41,
    0x1.0bbd5ecc7466ap-5, -0x1.809f58c79a5edp-62, -0x1.5ca7c7b000000p-9, -0x1.7cbfba3aba862p-41,
    0x1.0a6277e05fec2p-5, -0x1.c265790736407p-59, -0x1.59284ec000000p-9, 0x1.d794a6cd1e56ep-39,
    0x1.090b09bddb32cp-5, -0x1.d892e7584b1e7p-61, -0x1.55b6294000000p-9, -0x1.77eab493b4c08p-39,
    0x1.07b70732fdac3p-5, 0x1.3fbb195e3315ep-60, -0x1.5251146000000p-9, -0x1.1f40631a1935ep-39,
    0x1.06666350027c9p-5, 0x1.8f725ea780c7ap-60, -0x1.4ef8cec000000p-9, 0x1.ceab0b348444dp-44,
    0x1.05191165ae7bbp-5, -0x1.82e6404698924p-59, -0x1.4bad189000000p-9, -0x1.c418d2e0926f8p-39,
    0x1.03cf0503c2002p-5, 0x1.89d0a40d876e3p-59, -0x1.486db3b000000p-9, -0x1.11334ce92c9c2p-40,
    0x1.028831f77610ap-5, 0x1.1e36e8282004ep-59, -0x1.453a635000000p-9, -0x1.7fdcd1667a312p-39,
    0x1.01448c4a049a1p-5, 0x1.8aa9bbcbe21f5p-59, -0x1.4212ec4000000p-9, 0x1.7bc4454a57b64p-39,
    0x1.0004083f3b4ebp-5, 0x1.23f3c7a059158p-63, -0x1.3ef7148000000p-9, 0x1.2a70b0b11cf84p-40,
    0x1.fd8d34a831a80p-6, 0x1.0bc6a000dc798p-60, -0x1.3be6a3a000000p-9, 0x1.0b36a1231a8f7p-40,
    0x1.fb186e7ae7d44p-6, 0x1.84dd693b76af7p-61, -0x1.38e1627000000p-9, 0x1.07fe1bb9bcd88p-39,
    0x1.f8a9a7cd58721p-6, 0x1.ac27d0bf6d78cp-61, -0x1.35e71b0000000p-9, -0x1.8e4f4ffb27f44p-40,
    0x1.f640cae0c8e8ap-6, 0x1.8fcdceaaedd3ep-60, -0x1.32f798c000000p-9, -0x1.e1d4c7be16a85p-43,
    0x1.f3ddc25e8b10bp-6, 0x1.7bc56e79fe305p-61, -0x1.3012a84000000p-9, 0x1.b311130483f82p-39,
    0x1.f1807955950d6p-6, -0x1.dff377e8b21cdp-62, -0x1.2d38173000000p-9, -0x1.2d47be349e2a8p-40,
    0x1.ef28db382a14ep-6, -0x1.a9961fc42c8afp-63, -0x1.2a67b4a000000p-9, 0x1.e402c80e97267p-39,
    0x1.ecd6d3d9939f3p-6, -0x1.68548fe039caep-62, -0x1.27a1507000000p-9, -0x1.d71aad3f4ccb6p-39,
    0x1.ea8a4f6bea760p-6, -0x1.3326b633d8814p-60, -0x1.24e4bbf000000p-9, -0x1.4ed5329b3bd43p-40,
    0x1.e8433a7def25ep-6, 0x1.5c0b8fde343eap-60, -0x1.2231c94000000p-9, 0x1.255fc55671c2ap-40,
    0x1.e60181f8f1559p-6, 0x1.07fb75eba1bb2p-67, -0x1.1f884b9000000p-9, -0x1.34f04d42ea441p-39,
    0x1.e3c5131ec58b7p-6, 0x1.bf3b1e981da3cp-60, -0x1.1ce8173000000p-9, -0x1.6f9cfc52431fcp-39,
    0x1.e18ddb87c8efbp-6, 0x1.b030395091eedp-61, -0x1.1a51016000000p-9, 0x1.c4a6d10a959e6p-39,
    0x1.df5bc920f29aep-6, -0x1.596ab969edf59p-61, -0x1.17c2e03000000p-9, 0x1.480798ad8bbcbp-39,
    0x1.dd2eca29f2072p-6, -0x1.ecba9e5638ac4p-65, -0x1.153d8ac000000p-9, -0x1.695ef8adf223fp-39,
    0x1.db06cd335a3c5p-6, -0x1.364a4c8adaa29p-61, -0x1.12c0d93000000p-9, 0x1.5991b18405a8bp-39,
    0x1.d8e3c11cd9536p-6, -0x1.8f3325074d6e3p-61, -0x1.104ca44000000p-9, 0x1.d7a6c038d925ap-40,
    0x1.d6c595137bf12p-6, 0x1.476aabd1f3ab0p-62, -0x1.0de0c5c000000p-9, 0x1.d3441d354c51ep-39,
    0x1.d4ac388ffc5b7p-6, -0x1.43c6cf16e3414p-61, -0x1.0b7d183000000p-9, -0x1.a36ff8a260bc3p-40,
    0x1.d2979b551ccefp-6, 0x1.45e9e93a0964dp-60, -0x1.0921771000000p-9, 0x1.667d5d3ca9c27p-43,
    0x1.d087ad6e0cbf6p-6, -0x1.ef06b4b4e2b80p-60, -0x1.06cdbe8000000p-9, 0x1.f0991a9af4f08p-40,
    0x1.ce7c5f2cd8adbp-6, 0x1.4b2623c95cce8p-60, -0x1.0481cb7000000p-9, 0x1.c2e8dacd5882cp-40,
    0x1.cc75a128e444fp-6, 0x1.13b545bab644cp-61, -0x1.023d7b9000000p-9, -0x1.3c0561461494fp-39,
    0x1.ca73643d6e6dbp-6, -0x1.48bbe5ae0ec33p-61, -0x1.0000ad6000000p-9, -0x1.4f3900ff3da2fp-39,
    0x1.c87599881f0e6p-6, 0x1.64ce9ed3edca7p-67, -0x1.fb96800000000p-10, -0x1.ef0ed1c39ce65p-40,
    0x1.c67c32679e2edp-6, -0x1.dbd76120db540p-60, -0x1.f73a269000000p-10, -0x1.7297b3cdada75p-41,
    0x1.c487207a34382p-6, 0x1.3d56c5d8e0d8ep-62, -0x1.f2ec0f8000000p-10, 0x1.e1594307d07efp-40,
    0x1.c296559c730e0p-6, -0x1.950ca9413800bp-61, -0x1.eeabfd1000000p-10, -0x1.e4da6afe634e3p-40,
    0x1.c0a9c3e7e7bdep-6, 0x1.c47d20568f0edp-60, -0x1.ea79b32000000p-10, 0x1.a7c425d2385d3p-40
};

/* Q(a) = Phi(-a) = h + *lo within 2^-57.90 (h = RN(h + *lo)), a a float's value in [2^-6,
   14.5] (in [0, 2^-6): finite, anything). */
WC_INLINE double wc_gelu_q_(double a, double *lo) {
  WC_CR_CONTRACT_
  double   m = a * 16.0 + 0x1.8p52, c = (m - 0x1.8p52) * 0.0625, d = a - c, d2 = d * d;
  uint64_t i = wc_f64_to_bits(m) - 0x4338000000000000u, sc; /* round(16 a) */
  double   b0h = wc_gelu_tab_[4 * i], b0l = wc_gelu_tab_[4 * i + 1];
  double   b1h = wc_gelu_tab_[4 * i + 2], b1l = wc_gelu_tab_[4 * i + 3], b1 = b1h + b1l;
  double   b2, b3, b4, b5, b6, b7, b8, b9, b10, p, s1, S, Se, low, hh, hl, z, e, up;
  double   z1, z2, h1, h2, p1, p2, q;
  b2 = ((c * b1h + b0h) + (c * b1l + b0l)) * 0.5;
  b3 = (c * b2 + b1) * 0x1.5555555555555p-2;
  b4 = (c * b3 + b2) * 0.25;
  b5 = (c * b4 + b3) * 0.2;
  b6 = (c * b5 + b4) * 0x1.5555555555555p-3;
  b7 = (c * b6 + b5) * 0x1.2492492492492p-3;
  b8 = (c * b7 + b6) * 0.125;
  b9 = (c * b8 + b7) * 0x1.c71c71c71c71cp-4;
  b10 = (c * b9 + b8) * 0.1;
  p = b2 + d * (b3 + d * (b4 + d * (b5 + d * (b6 + d * (b7 + d * (b8 + d * (b9 + d * b10)))))));
  s1 = b1h * d;
  S = b0h + s1;
  Se = s1 - (S - b0h);
  low = Se + (b0l + (b1l * d + d2 * p));
  hh = S + low;
  hl = low - (hh - S);
  z = wc_exp_core_(-(a * a) * 0.5, &e, &sc); /* E = (z + e) 2^K */
  up = wc_bits_to_f64(0x3ff0000000000000u + sc);
  z1 = wc_cr_trunc_(z, 26);
  z2 = z - z1;
  h1 = wc_cr_trunc_(hh, 26);
  h2 = hh - h1;
  p1 = z1 * h1;
  p2 = ((z1 * h2 + z2 * h1) + z2 * h2) + (z * hl + e * hh);
  q = p1 + p2;
  *lo = (p2 - (q - p1)) * up;
  return q * up;
}

/* gelu(x) rounded to odd at 53 bits, x a float in [-14.5, 14.5] or NaN (above: anything,
   for the callers to replace; below, a value that rounds to -0 in every format). */
WC_INLINE double wc_gelu_odd_(float x) {
  WC_CR_CONTRACT_
  uint32_t u = wc_f32_to_bits(x);
  double   xd = (double)wc_cr_clamp_(x, -14.5f, 14.5f), x2 = xd * xd, ql, qh, ph, bb, pl, sh;
  double   sl, p2, p, hs, l, s, h;
  qh = wc_gelu_q_(wc_cr_abs_clamp_(u, WC_GELU_TOP_), &ql);
  ph = 1.0 - qh; /* 1 - Q */
  bb = ph - 1.0;
  pl = ((1.0 - (ph - bb)) + (-qh - bb)) - ql;
  sh = ph + pl;
  pl = pl - (sh - ph);
  sl = wc_sel_f64(x < 0.0f, ql, pl);
  sh = wc_sel_f64(x < 0.0f, qh, sh);
  p = wc_cr_mul_pair_(xd, sh, sl, &p2); /* x P, as silu's product */
  /* the series below 2^-6 */
  l = x2 * (0x1.9884533d43651p-2 +
            x2 * (-0x1.1058377e2cee0p-4 +
                  x2 * (0x1.46d04297691dap-7 + x2 * -0x1.37403f6ba1100p-10))) +
      0.0; /* a sum: s and its error read one value (exp.h) */
  hs = xd * 0.5;
  s = hs + l;
  l = l - (s - hs);
  h = wc_sel_f64(x2 < 0x1p-12, s, p);
  l = wc_sel_f64(x2 < 0x1p-12, l, p2);
  return wc_bits_to_f64(wc_f64_to_bits(wc_cr_odd_(h, l)) | ((uint64_t)(u & 0x80000000u) << 32));
}

WC_INLINE float wc_gelu_f32(float x) {
  float r = wc_sel_f32(x > 14.5f, x, (float)wc_gelu_odd_(x));
  return wc_sel_f32(x != x, wc_quiet_f32(x), r);
}
/* gelu in plain double (exp.h's raw forms), within 2^-47.5, without a table of its own
   (exp_plain_'s one read): every a = |x| (clamped to 14.5 as above) the same way, h(a) =
   P(a)/D(a), degree 8 over 9 (crmath_tables.py's GELU_RAW_P, GELU_RAW_D, fitted by
   Lawson's iteration: all coefficients positive, D's roots 2.5 or more away from [0,
   14.5]), within 2^-51.99 h (crmath_tables.py bounds: the Taylor series of P/D - h over
   1856 intervals, on the double coefficients); P and D by Horner, positive terms and a >=
   0: within gamma_16 and gamma_18 (one rounding per product and per sum, fewer where it
   contracts); E = e^(-a^2/2) within 2^-51.3 (exp_plain_, its r as exp_core_'s, a^2/2
   exact); e = E P rounded. Then |gelu| = a e/D (x < 0) or a (D - e)/D = a (1 - e/D) (x
   >= 0: e/D's error is Q's relative one, scaled by Q/(1 - Q) <= 1), two or three more
   roundings: 2^-51.99 + 2^-51.3 + (16 + 18 + 4) u (1.001) <= 2^-47.5. Rounded on |gelu|
   (the midpoint test is on magnitudes), x's sign put back (a NaN stays one); below -14.5
   |y| < 2^-152.9 rounds to 0; above 14.5, x; tiny x, a subnormal: a NaN. */
WC_INLINE float wc_gelu_raw_f32(float x) {
  WC_CR_CONTRACT_
  uint32_t u = wc_f32_to_bits(x);
  double   a = wc_cr_abs_clamp_(u, WC_GELU_TOP_), p, q, e, y;
  float    v;
  /* P(a) */
  p = 0x1.0000000000001p-1 +
      a * (0x1.5fa01b0391e93p-1 +
           a * (0x1.df3dc436ed5b9p-2 +
                a * (0x1.9a410d8451cfbp-3 +
                     a * (0x1.dcc4990c09242p-5 +
                          a * (0x1.7f594cf2ad094p-7 +
                               a * (0x1.a0c57315714e3p-10 +
                                    a * (0x1.199542273f161p-13 + a * 0x1.6e734c82a30f1p-18)))))));
  /* D(a) - 1 */
  q = 1.0 + a * (0x1.15f1225119d22p+1 +
                 a * (0x1.15936dc10d328p+1 +
                      a * (0x1.4fa7a021102fdp+0 +
                           a * (0x1.0fc259ff8395ep-1 +
                                a * (0x1.32e0189200358p-3 +
                                     a * (0x1.e5f888c6c8f91p-6 +
                                          a * (0x1.0611d72e4f55cp-8 +
                                               a * (0x1.60e9796810d5ep-12 +
                                                    a * 0x1.cb4706e1c0326p-17))))))));
  e = wc_exp_plain_(-(a * a) * 0.5) * p;
  y = wc_sel_f64(x > 14.5f, (double)x, (a * wc_sel_f64(x < 0.0f, e, q - e)) / q);
  v = wc_cr_raw_round_(y, WC_CR_RAW_TINY_, x != x);
  return wc_bits_to_f32(wc_f32_to_bits(v) | (u & 0x80000000u));
}

WC_INLINE wc_float16 wc_gelu_f16(wc_float16 a) {
  float x = (float)wc_cr_f16_in_(a);
  return wc_cr_f16_or_x_(a, x, 14.5f, wc_gelu_odd_(x));
}
WC_INLINE wc_bfloat16 wc_gelu_bf16(wc_bfloat16 a) {
  float x = wc_bf16_to_f32(a);
  return wc_cr_bf16_or_x_(a, x, 14.5f, wc_gelu_odd_(x));
}

#ifdef __cplusplus
}
#endif
#endif
