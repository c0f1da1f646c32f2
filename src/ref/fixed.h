/* fixed.h: the reference's fixed-point numbers (fixed.c), shared by its exact
   paths (ref_math.c, ref_trig.c) only; nothing outside src/ref/ includes this.
   A value is sum w[i] 2^(32 i - FRAC) in two's complement: 512 fraction bits
   and 256 integer bits (the sign among them). Every operation truncates (by
   less than u = 2^-512) unless it says exact. The names are macros for wc__fx_*,
   so the library exports nothing under a short name. */
#ifndef WHEREC_SRC_REF_FIXED_H
#define WHEREC_SRC_REF_FIXED_H

#include <stdbool.h>
#include <stdint.h>

#define NL   24        /* limbs */
#define FRAC (16 * 32) /* fraction bits */

typedef struct fx {
  uint32_t w[NL];
} fx;

#define fx_int             wc__fx_int
#define fx_bit             wc__fx_bit
#define fx_is_zero         wc__fx_is_zero
#define fx_is_neg          wc__fx_is_neg
#define fx_add             wc__fx_add
#define fx_neg             wc__fx_neg
#define fx_sub             wc__fx_sub
#define fx_ge              wc__fx_ge
#define fx_mul_small_shift wc__fx_mul_small_shift
#define fx_div_small       wc__fx_div_small
#define fx_mul             wc__fx_mul
#define fx_div             wc__fx_div
#define float_parts        wc__fx_float_parts
#define fx_from_float      wc__fx_from_float
#define fx_from_float_any  wc__fx_from_float_any
#define fx_atanh           wc__fx_atanh
#define fx_atan_inv        wc__fx_atan_inv
#define fx_round           wc__fx_round
#define fx_msb             wc__fx_msb
#define fx_shift           wc__fx_shift
#define fx_pi              wc__fx_pi
#define fx_ln2             wc__fx_ln2
#define fx_log             wc__fx_log
#define fx_sqrt            wc__fx_sqrt
#define fx_to_ld           wc__fx_to_ld
#define fx_recip           wc__fx_recip
#define fx_quot            wc__fx_quot
#define round_ld           wc__fx_round_ld

fx   fx_int(uint32_t v);         /* v, exact */
int  fx_bit(const fx *a, int i); /* bit i (0 for i < 0) */
bool fx_is_zero(const fx *a);
bool fx_is_neg(const fx *a);
fx   fx_add(fx a, const fx *b);       /* exact (no overflow at the sizes used) */
fx   fx_neg(fx a);                    /* exact */
fx   fx_sub(fx a, const fx *b);       /* exact */
bool fx_ge(const fx *a, const fx *b); /* a >= b, both non-negative */
fx   fx_mul_small_shift(const fx *a, uint32_t m, int sh); /* a m 2^-sh (a >= 0, sh >= 0) */
fx   fx_div_small(fx a, uint32_t n);                      /* a / n (a >= 0) */
fx   fx_mul(const fx *a, const fx *b);                    /* a b (both >= 0) */
fx   fx_div(const fx *a, const fx *b);                    /* a / b (a >= 0, b > 0), bit by bit */

/* |x| of a float: its 24-bit significand m and the shift sh with |x| = m 2^-sh */
void float_parts(float x, uint32_t *m, int *sh);
fx   fx_from_float(float x);     /* |x|, exact, for |x| < 2^24 */
fx   fx_from_float_any(float y); /* |y|, exact (|y| < 2^128) */

fx fx_atanh(const fx *s);   /* sum s^(2n+1)/(2n+1), 0 <= s < 1/3: within 2^-503 */
fx fx_atan_inv(uint32_t q); /* atan(1/q) by its series: within 2^-502 for q >= 5 */

/* v (>= 0, within 2^-180 relative of the true value) rounded to nearest even
   to p bits with normal exponents [emin, emax], as a double (negated if neg);
   aborts (naming what(x)) when the 100 bits below the rounding bit cannot
   decide it. */
double fx_round(const fx *v, bool neg, int p, int emin, int emax, const char *what, float x);

/* The fast paths' rounding: y (finite, non-zero, within a few units of a
   64-bit significand of f(x)) rounded to p bits, or NaN when it is within
   DELTA * |y| of a rounding boundary (a midpoint of the target). */
#define DELTA 0x1p-45L
double round_ld(long double y, int p, int emin, int emax);

/* The additions of ref_trig.c's exact paths. */
int fx_msb(const fx *a);   /* index of the top bit of a > 0 */
fx  fx_shift(fx a, int n); /* a 2^n (a >= 0): exact for n >= 0 (no overflow), truncated for n < 0 */
fx  fx_pi(void);           /* 16 atan(1/5) - 4 atan(1/239): within 2^-499 (once a thread) */
fx  fx_ln2(void);          /* 2 atanh(1/3): within 2^-502 (once a thread) */
fx  fx_log(const fx *v);   /* log v for 1 <= v < 2^255: within 2^-494 absolute */
fx  fx_sqrt(const fx *a);  /* sqrt a for 0 < a < 2^255: within 8 u relative (+ 1 u) */
fx  fx_recip(const fx *b); /* 1/b for 2^-254 < b < 2^254: within 4 u relative (+ 1 u) */
fx  fx_quot(const fx *a, const fx *b); /* a/b = a (1/b): within 6 u relative, + (a + 1) u */
long double fx_to_ld(const fx *a);     /* a >= 0 as a long double (rounded) */

#endif
