/* wherec/gelu_tanh.h: gelu_tanh(x) = x/2 (1 + tanh(s (x + c x^3))), s = sqrt(2/pi), c =
   0.044715 (the exact decimal): ONNX's Gelu with approximate="tanh", with exact real
   constants, correctly rounded to nearest even as a whole for float, float16 and bfloat16,
   without libm and without a branch, computed as exp is (wherec/exp.h says how, and why
   the bits are the same everywhere): a pair h + l within a proven bound B of gelu_tanh(x),
   rounded to odd, then into the target; B is below the distance D of every input's
   gelu_tanh(x) from the format's rounding boundaries (tests/runtime/crmath_hardest.c).
   u = 2^-53. */
#ifndef WHEREC_GELU_TANH_H
#define WHEREC_GELU_TANH_H

#include <stdint.h>

#include "crmath.h"
#include "exp.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- gelu_tanh -------------------------------------------------------------------
   (1 + tanh z)/2 = sigmoid(2z), so gelu_tanh(x) = x sigmoid(t) = x/(1 + e^-t), t = x w,
   w = A + C y, y = x^2, A = 2s, C = 2sc: silu's way with t in place of x. x is clamped to
   [-11, 6]: above 6, x - gelu_tanh(x) < x e^-t(6) = 2^-36.05 x, below the half ulp under
   x in every format (2^-25 x at least), so it rounds to x, selected; below -11,
   |gelu_tanh(x)| < |gelu_tanh(-11)| < 11 e^-112.5 < 2^-158.9 rounds to -0 in every format,
   and the clamped x gives it. So |t| <= 112.6.
   t to 2^-75.4 |t| (a double pair): y exact (48 bits), y = yh + yl (yh to 29 bits, yl of
   19), C = C1 + C2 (C1 of 24 bits, C2 within 2^-78 C), A = A1 + A2 (2^-110); C1 yh and C1
   yl exact (53 and 43 bits), C2 y rounded (|C2 y| <= 2^-24.8 w: u 2^-24.8 w); A1 + C1 yh by
   2Sum (exact), the rest summed into lo (|lo| <= 2^-24.6 w, three additions: 2^-76.5 w),
   Fast2Sum: w = wh + wl within 2^-75.5 w. Then x w as silu's product (wh to 29 bits, x wh1
   exact, x (wh - wh1) exact, x wl and their sum rounded: 2^-80.9): 2^-75.4 |t| <= 2^-68.5
   absolute.
   E = e^-t: exp_core_ of -th (a double, not a float: its steps hold, as -th - k C1 is
   exact: both are multiples of ulp(th) (which divides 2^-45, C1's last place, for |th| <
   256), and the difference, below 2^-7.52 in magnitude, has at most 53 bits, ulp(th)
   >= 2^-60 where k != 0; |k| < 2^14), (z + e) 2^K within 2^-58.1 e^-th, times e^-tl =
   1 - tl (+ tl^2/2 <= 2^-93, |tl| <= 2^-46): e - z tl (u 2^-46 z): E within 2^-58.1 +
   2^-68.5 (t's error) + 2^-92 <= 2^-58.099. Scaling by 2^K is exact (E in [e^-25,
   e^112.6], normal).
   sigmoid(t) = 1/(1 + E) as crmath.h's sigmoid pair (D = 1 + E by 2Sum, 1/D = y0 (1 + c +
   c^2) within 2^-73; E's error scaled by E/(1 + E) < 1), then x S as silu's product
   (2^-80.9): B = 2^-58.09 (the same as silu's).
   Below 2^-26 in magnitude no bound is needed, the structure decides, as in gelu.h:
   gelu_tanh(x) = x/2 + x^2/sqrt(2 pi) - 0.0668 x^4 + ... (A/4 = 1/sqrt(2 pi), gelu's
   coefficient), h + l = x/2 + RN(x^2 A/4) (x^2 exact, x/2 exact, Fast2Sum), and both lie
   strictly between x/2 and x/2 + 1.01 x^2 A/4 (< 2^-26 |x/2|, and < 2^-250), on the side
   of l, with no rounding boundary of any format between (x/2 is a value of the format or a
   midpoint when subnormal; every other boundary is 2^-26 |x/2| away at least, or half the
   least subnormal, 2^-150 for float, 2^-134 for bfloat16, of which x/2 is a multiple;
   float16 has no non-zero input there): both round alike (gelu_tanh(2^-149) rounds up to
   2^-149, gelu_tanh(-2^-149) to -0).
   gelu_tanh keeps x's sign (sigmoid > 0), gelu_tanh(-0) = -0, gelu_tanh(-inf) = -0 (the
   limit; ONNX's formula gives NaN there), gelu_tanh(inf) = inf.
   D (crmath_hardest gelu_tanh:MIN): float 2^-50.5 from 2^-6 up (x = 0x1.56d068p-2), 2^-53.3
   from 2^-26 up (0x1.6148dep-16, as gelu: the same x^2 coefficient); float16 2^-25.2 over
   every input, bfloat16 2^-20.1 from 2^-26 up (below, the structure). */

#define WC_GELU_TANH_TOP_ 6.0f
#define WC_GELU_TANH_BOT_ -11.0f

/* t = x (A + C x^2) = th + *tl within 2^-75.4 |t| (th = RN(th + *tl)), xd a float's value
   in [-11, 6]. */
WC_INLINE double wc_gelu_tanh_arg_(double xd, double *tl) {
  WC_CR_CONTRACT_
  double y = xd * xd, yh = wc_cr_trunc_(y, 29), yl = y - yh;
  double b = 0x1.2444f2p-4 * yh, S = 0x1.9884533d43651p+0 + b, sb = S - 0x1.9884533d43651p+0;
  double se = (0x1.9884533d43651p+0 - (S - sb)) + (b - sb);
  double lo = se + ((-0x1.cbc0d30ebfd15p-54 + 0x1.2444f2p-4 * yl) + 0x1.49b1695e937bcp-29 * y);
  double wh = S + lo, wl = lo - (wh - S), w1 = wc_cr_trunc_(wh, 29);
  double p1 = xd * w1, p2 = xd * (wh - w1) + xd * wl, th = p1 + p2;
  *tl = p2 - (th - p1);
  return th;
}

/* gelu_tanh(x) rounded to odd at 53 bits, x a float (above 6: anything, for the callers
   to replace; below -11, a value that rounds to -0 in every format), or NaN. */
WC_INLINE double wc_gelu_tanh_odd_(float x) {
  WC_CR_CONTRACT_
  uint32_t u = wc_f32_to_bits(x);
  double   xd = (double)wc_cr_clamp_(x, WC_GELU_TANH_BOT_, WC_GELU_TANH_TOP_), x2 = xd * xd;
  double   tl, th = wc_gelu_tanh_arg_(xd, &tl), z, e, h, l, sh, sl, p, pl, hs;
  uint64_t k;
  z = wc_exp_core_(-th, &e, &k); /* E = e^-t */
  e = e - z * tl;
  sh = wc_cr_recip_1p_(z, e, k, &sl); /* S = 1/(1 + E) */
  p = wc_cr_mul_pair_(xd, sh, sl, &pl); /* x S, as silu's product */
  l = x2 * 0x1.9884533d43651p-2 + 0.0; /* below 2^-26: x/2 + x^2 A/4 */
  hs = xd * 0.5;
  h = hs + l;
  l = l - (h - hs);
  h = wc_sel_f64(x2 < 0x1p-52, h, p);
  l = wc_sel_f64(x2 < 0x1p-52, l, pl);
  return wc_bits_to_f64(wc_f64_to_bits(wc_cr_odd_(h, l)) | ((uint64_t)(u & 0x80000000u) << 32));
}

WC_INLINE float wc_gelu_tanh_f32(float x) {
  float r = wc_sel_f32(x > WC_GELU_TANH_TOP_, x, (float)wc_gelu_tanh_odd_(x));
  return wc_sel_f32(x != x, wc_quiet_f32(x), r);
}
/* gelu_tanh in plain double (exp.h's raw forms): x/(1 + E), E = e^-t, t = th + tl as the
   exact form's (2^-68.5: t enters E as an absolute error, up to |t| = 112.6, which plain
   double could not keep), E by exp_plain_'s steps with tl subtracted from r (r within 2u
   |r| + 2^-86, below 2^-59.5: E within 2^-51.25 E), E's error scaled by E/(1 + E) < 1, the
   sum and the quotient within 2^-53 each: 2^-50.5. x is clamped to -11 (below, |y| <
   2^-158.9 rounds to -0 as gelu_tanh(x) does) and t's x to 6: above 6, y = x/(1 + e^-t(6))
   (1 + 2^-50.5) and gelu_tanh(x) both lie in [x (1 - 2^-36), x], with no float midpoint
   (the half ulp under x is 2^-25 x at least): both round to x, as the exact form selects,
   and y is far from the midpoint (+-inf: inf and -0). Subnormal results (|x| < 2^-125, and
   x from about -10.77 to -10.10) and NaN give the NaN. */
WC_INLINE float wc_gelu_tanh_raw_f32(float x) {
  WC_CR_CONTRACT_
  float    xl = wc_sel_f32(x < WC_GELU_TANH_BOT_, WC_GELU_TANH_BOT_, x); /* floats: no widening */
  float    xt = wc_sel_f32(xl > WC_GELU_TANH_TOP_, WC_GELU_TANH_TOP_, xl);
  double   tl, th = wc_gelu_tanh_arg_((double)xt, &tl);
  double   m = th * -0x1.71547652b82fep+6 + 0x1.8p52, kd = m - 0x1.8p52; /* e^-t */
  uint64_t mb = wc_f64_to_bits(m), j = mb & 63u;
  double   r = ((-th - kd * 0x1.62e42fefa4000p-7) - tl) - kd * -0x1.8432a1b0e2634p-49;
  double   p = 1.0 + r * (1.0 + r * (0.5 + r * (0x1.5555555555555p-3 +
               r * (0x1.5555555555555p-5 + r * 0x1.1111111111111p-7))));
  double   e = wc_bits_to_f64(wc_f64_to_bits(wc_exp_tab_[2 * j] * p) + ((mb >> 6) << 52));
  return wc_cr_raw_round_signed_((double)xl / (1.0 + e), x);
}

WC_INLINE wc_float16 wc_gelu_tanh_f16(wc_float16 a) {
  float x = (float)wc_cr_f16_in_(a);
  return wc_cr_f16_or_x_(a, x, WC_GELU_TANH_TOP_, wc_gelu_tanh_odd_(x));
}
WC_INLINE wc_bfloat16 wc_gelu_tanh_bf16(wc_bfloat16 a) {
  float x = wc_bf16_to_f32(a);
  return wc_cr_bf16_or_x_(a, x, WC_GELU_TANH_TOP_, wc_gelu_tanh_odd_(x));
}

#ifdef __cplusplus
}
#endif
#endif
