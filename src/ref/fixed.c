/* fixed.c: the reference's fixed-point numbers (fixed.h), moved out of
   ref_math.c unchanged, and what ref_trig.c adds: shifts, a reciprocal and a
   square root by Newton's iteration, pi, ln 2 and the log of a value >= 1.
   Error bounds, in units u = 2^-512 (every truncation is below one u): see
   each function; the callers' comments (ref_math.c, ref_trig.c) sum them. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fixed.h"

fx fx_int(uint32_t v) {
  fx r;
  memset(&r, 0, sizeof r);
  r.w[FRAC / 32] = v;
  return r;
}

int  fx_bit(const fx *a, int i) { return i < 0 ? 0 : (int)((a->w[i / 32] >> (i % 32)) & 1u); }
bool fx_is_zero(const fx *a) {
  for (int i = 0; i < NL; i++)
    if (a->w[i]) return false;
  return true;
}
bool fx_is_neg(const fx *a) { return (a->w[NL - 1] >> 31) != 0; }

fx fx_add(fx a, const fx *b) {
  uint64_t c = 0;
  for (int i = 0; i < NL; i++) {
    c += (uint64_t)a.w[i] + b->w[i];
    a.w[i] = (uint32_t)c;
    c >>= 32;
  }
  return a;
}

fx fx_neg(fx a) {
  uint64_t c = 1;
  for (int i = 0; i < NL; i++) {
    c += (uint64_t)(uint32_t)~a.w[i];
    a.w[i] = (uint32_t)c;
    c >>= 32;
  }
  return a;
}

fx fx_sub(fx a, const fx *b) {
  fx nb = fx_neg(*b);
  return fx_add(a, &nb);
}

/* a >= b, both non-negative */
bool fx_ge(const fx *a, const fx *b) {
  for (int i = NL - 1; i >= 0; i--)
    if (a->w[i] != b->w[i]) return a->w[i] > b->w[i];
  return true;
}

/* a * m >> sh (a >= 0, truncated; sh >= 0) */
fx fx_mul_small_shift(const fx *a, uint32_t m, int sh) {
  uint32_t t[NL + 1];
  fx       r;
  uint64_t c = 0;
  for (int i = 0; i < NL; i++) {
    c += (uint64_t)a->w[i] * m;
    t[i] = (uint32_t)c;
    c >>= 32;
  }
  t[NL] = (uint32_t)c;
  memset(&r, 0, sizeof r);
  for (int i = 0; i < 32 * NL; i++) {
    int from = i + sh;
    if (from < 32 * (NL + 1) && ((t[from / 32] >> (from % 32)) & 1u)) r.w[i / 32] |= 1u << (i % 32);
  }
  return r;
}

fx fx_div_small(fx a, uint32_t n) { /* a >= 0, truncated */
  uint64_t rem = 0;
  for (int i = NL - 1; i >= 0; i--) {
    uint64_t cur = rem << 32 | a.w[i];
    if (!cur) continue; /* leading zero limbs: quotient 0, remainder 0 */
    a.w[i] = (uint32_t)(cur / n);
    rem = cur % n;
  }
  return a;
}

/* a * b (both >= 0), truncated (zero limbs of a and the top zero limbs of b
   skipped: they add nothing) */
fx fx_mul(const fx *a, const fx *b) {
  uint32_t p[2 * NL];
  fx       r;
  int      nb = NL;
  memset(p, 0, sizeof p);
  while (nb > 0 && !b->w[nb - 1]) nb--;
  for (int i = 0; i < NL; i++) {
    uint64_t c = 0;
    if (!a->w[i]) continue;
    for (int j = 0; j < nb; j++) {
      uint64_t t = (uint64_t)a->w[i] * b->w[j] + p[i + j] + c;
      p[i + j] = (uint32_t)t;
      c = t >> 32;
    }
    p[i + nb] = (uint32_t)c;
  }
  for (int i = 0; i < NL; i++) r.w[i] = p[i + FRAC / 32];
  return r;
}

/* a / b (a >= 0, b > 0), truncated: long division of a 2^FRAC by b, bit by bit */
fx fx_div(const fx *a, const fx *b) {
  fx  q, rem;
  int n = 32 * NL + FRAC;
  memset(&q, 0, sizeof q);
  memset(&rem, 0, sizeof rem);
  for (int i = n - 1; i >= 0; i--) {
    int top = (int)(rem.w[NL - 1] >> 31), in = fx_bit(a, i - FRAC);
    for (int k = NL - 1; k > 0; k--) rem.w[k] = rem.w[k] << 1 | rem.w[k - 1] >> 31;
    rem.w[0] = rem.w[0] << 1 | (uint32_t)in;
    if (top || fx_ge(&rem, b)) {
      rem = fx_sub(rem, b);
      if (i < 32 * NL) q.w[i / 32] |= 1u << (i % 32);
    }
  }
  return q;
}

/* |x| of a float: its 24-bit significand m and the shift sh with |x| = m 2^-sh */
void float_parts(float x, uint32_t *m, int *sh) {
  int   e;
  float f = frexpf(fabsf(x), &e);
  *m = (uint32_t)ldexpf(f, 24);
  *sh = 24 - e;
}

fx fx_from_float(float x) { /* |x|, exactly (FRAC > 149 + 24) */
  uint32_t m;
  int      sh;
  fx       one = fx_int(1);
  float_parts(x, &m, &sh);
  return fx_mul_small_shift(&one, m, sh); /* m 2^-sh: a shift right by sh */
}

/* atanh(s) = sum s^(2n+1)/(2n+1), 0 <= s < 1/3 */
fx fx_atanh(const fx *s) {
  fx s2 = fx_mul(s, s), pw = *s, sum = *s;
  for (uint32_t n = 1; n < 1000 && !fx_is_zero(&pw); n++) {
    fx t;
    pw = fx_mul(&pw, &s2);
    t = fx_div_small(pw, 2 * n + 1);
    sum = fx_add(sum, &t);
  }
  return sum;
}

/* atan(1/q) = sum (-1)^n / ((2n+1) q^(2n+1)) */
fx fx_atan_inv(uint32_t q) {
  fx pw = fx_div_small(fx_int(1), q), sum = pw;
  for (uint32_t n = 1; n < 1000 && !fx_is_zero(&pw); n++) {
    fx t;
    pw = fx_div_small(fx_div_small(pw, q), q);
    t = fx_div_small(pw, 2 * n + 1);
    sum = n & 1u ? fx_sub(sum, &t) : fx_add(sum, &t);
  }
  return sum;
}

/* v (>= 0, within 2^-180 relative of the true value) rounded to p bits with
   normal exponents [emin, emax], as a double (negated if neg); aborts when the
   100 bits below the rounding bit cannot decide it. */
double fx_round(const fx *v, bool neg, int p, int emin, int emax, const char *what, float x) {
  int    msb, e, lsb, round, same = 1, sticky = 0;
  double q = 0;
  if (fx_is_zero(v)) return neg ? -0.0 : 0.0;
  for (msb = 32 * NL - 1; !fx_bit(v, msb); msb--) {}
  e = msb - FRAC;
  lsb = (e > emin ? e : emin) - p + 1 + FRAC; /* bit of the target's ulp */
  if (lsb > msb + 1) return neg ? -0.0 : 0.0;
  for (int i = msb; i >= lsb; i--) q = 2 * q + fx_bit(v, i);
  round = fx_bit(v, lsb - 1);
  for (int i = lsb - 2; i >= lsb - 101; i--) same &= fx_bit(v, i) == !round;
  for (int i = lsb - 2; i >= 0; i--) sticky |= fx_bit(v, i);
  if (same) {
    fprintf(stderr, "wherec reference: %s(%a) is too close to a rounding boundary\n", what,
            (double)x);
    abort();
  }
  if (round && (sticky || fmod(q, 2.0) != 0)) q += 1;
  q = ldexp(q, lsb - FRAC);
  if (q >= ldexp(1.0, emax + 1)) q = HUGE_VAL;
  return neg ? -q : q;
}

/* |y| in fixed point, exactly (|y| < 2^128) */
fx fx_from_float_any(float y) {
  uint32_t m;
  int      sh;
  fx       one = fx_int(1), r;
  float_parts(y, &m, &sh);
  if (sh >= 0) return fx_mul_small_shift(&one, m, sh);
  r = fx_mul_small_shift(&one, m, 0);
  for (; sh < 0; sh++) r = fx_add(r, &r);
  return r;
}

/* y (finite, non-zero) rounded to p bits, or NaN when it is within DELTA * |y|
   of a rounding boundary */
double round_ld(long double y, int p, int emin, int emax) {
  long double a = fabsl(y), v, n, f;
  int         ey, quantum;
  double      r;
  frexpl(a, &ey);
  quantum = (ey - 1 > emin ? ey - 1 : emin) - p + 1;
  v = ldexpl(a, -quantum); /* in units of the target's ulp: exact */
  n = floorl(v);
  f = v - n;
  if (fabsl(f - 0.5L) <= DELTA * v) return NAN;
  r = ldexp((double)(n + (f > 0.5L ? 1 : 0)), quantum);
  if (r >= ldexp(1.0, emax + 1)) r = HUGE_VAL;
  return y < 0 ? -r : r;
}

/* ---- ref_trig.c's additions ---------------------------------------------------- */

int fx_msb(const fx *a) {
  int i = NL - 1;
  while (i > 0 && !a->w[i]) i--;
  if (!a->w[i]) return -1;
  return 32 * i + 31 - __builtin_clz(a->w[i]);
}

fx fx_shift(fx a, int n) {
  fx  r;
  int q = (n < 0 ? -n : n) / 32, s = (n < 0 ? -n : n) % 32;
  memset(&r, 0, sizeof r);
  if (n >= 0) {
    for (int i = NL - 1; i >= q; i--)
      r.w[i] = a.w[i - q] << s | (s && i - q > 0 ? a.w[i - q - 1] >> (32 - s) : 0u);
  } else {
    for (int i = 0; i + q < NL; i++)
      r.w[i] = a.w[i + q] >> s | (s && i + q + 1 < NL ? a.w[i + q + 1] << (32 - s) : 0u);
  }
  return r;
}

/* a (>= 0) as a long double, within 2^-60 relative (the top limbs summed) */
long double fx_to_ld(const fx *a) {
  long double r = 0;
  for (int i = NL - 1; i >= 0; i--)
    if (a->w[i]) r += ldexpl((long double)a->w[i], 32 * i - FRAC);
  return r;
}

/* d in [0, 2^31) as fx, exact for a double d >= 2^-40 */
static fx fx_of_double(double d) {
  fx r;
  memset(&r, 0, sizeof r);
  for (int i = FRAC / 32; i >= FRAC / 32 - 3; i--) {
    double f = floor(d);
    r.w[i] = (uint32_t)f;
    d = (d - f) * 4294967296.0;
  }
  return r;
}

/* 1/b for b > 0 with 2^-255 < b < 2^255: b = bn 2^e, bn in [1, 2) (a shift:
   exact for e <= 0, within 1 u relative for e > 0), y from the double 1/bn,
   Newton's y <- y (2 - bn y) five times (2^-52 -> 2^-104 -> ... -> the floor of
   the truncations, 3 u), then 2^-e y: within 4 u relative, plus 1 u absolute
   (the final shift) when e > 0. */
fx fx_recip(const fx *b) {
  int e = fx_msb(b) - FRAC;
  fx  bn = fx_shift(*b, -e), y = fx_of_double(1.0 / (double)fx_to_ld(&bn)), two = fx_int(2);
  for (int i = 0; i < 5; i++) {
    fx t = fx_mul(&bn, &y);
    t = fx_sub(two, &t);
    y = fx_mul(&y, &t);
  }
  return fx_shift(y, -e);
}

/* a / b = a (1/b) (a >= 0, b > 0 as for fx_recip): within 6 u relative, plus
   (a + 1) u absolute */
fx fx_quot(const fx *a, const fx *b) {
  fx r = fx_recip(b);
  return fx_mul(a, &r);
}

/* sqrt a for a > 0 (a < 2^255): a = an 4^j, an in [1, 4) (exact for j <= 0,
   within 1 u relative for j > 0), y from the double 1/sqrt(an), Newton's y <- y
   (3 - an y^2)/2 five times (2^-52 -> ... -> the floor, 4 u), then 2^j an y:
   within 8 u relative, plus 1 u absolute (the final shift) when j < 0. */
fx fx_sqrt(const fx *a) {
  int e = fx_msb(a) - FRAC, j = e >= 0 ? e / 2 : -((1 - e) / 2); /* floor(e/2) */
  fx  an = fx_shift(*a, -2 * j), y = fx_of_double(1.0 / sqrt((double)fx_to_ld(&an))),
     three = fx_int(3);
  for (int i = 0; i < 5; i++) {
    fx t = fx_mul(&y, &y);
    t = fx_mul(&t, &an);
    t = fx_sub(three, &t);
    y = fx_mul(&y, &t);
    y = fx_shift(y, -1);
  }
  y = fx_mul(&an, &y);
  return fx_shift(y, j);
}

/* pi = 16 atan(1/5) - 4 atan(1/239) (Machin): atan(1/q) sums ~512/(2 log2 q)
   terms, each within 2.1 u (its power of 1/q within 1.1 u: one truncation and
   1/q^2 of the previous error), so atan(1/5) is within 350 u, atan(1/239)
   within 110 u, and pi within 16 * 350 + 4 * 110 < 6100 u < 2^-499. */
static fx atan_inv_sq(uint32_t q) { /* fx_atan_inv(q) with one division by q^2 (q < 2^16) */
  fx pw = fx_div_small(fx_int(1), q), sum = pw;
  for (uint32_t n = 1; n < 1000 && !fx_is_zero(&pw); n++) {
    fx t;
    pw = fx_div_small(pw, q * q);
    t = fx_div_small(pw, 2 * n + 1);
    sum = n & 1u ? fx_sub(sum, &t) : fx_add(sum, &t);
  }
  return sum;
}

fx fx_pi(void) {
  static _Thread_local fx   pi; /* computed once per thread: the exact paths call this often */
  static _Thread_local bool done;
  if (!done) {
    fx a = atan_inv_sq(5), b = atan_inv_sq(239);
    a = fx_mul_small_shift(&a, 16, 0);
    b = fx_mul_small_shift(&b, 4, 0);
    pi = fx_sub(a, &b);
    done = true;
  }
  return pi;
}

/* ln 2 = 2 atanh(1/3) = 2 sum 1/((2n+1) 3^(2n+1)): the powers by divisions by 9
   (within 1.2 u), each term within 2.2 u, ~162 terms: within 2 * 360 u < 2^-502 */
fx fx_ln2(void) {
  static _Thread_local fx   ln2; /* once per thread, as pi */
  static _Thread_local bool done;
  if (!done) {
    fx pw = fx_div_small(fx_int(1), 3), sum = pw;
    for (uint32_t n = 1; n < 1000 && !fx_is_zero(&pw); n++) {
      fx t;
      pw = fx_div_small(pw, 9);
      t = fx_div_small(pw, 2 * n + 1);
      sum = fx_add(sum, &t);
    }
    ln2 = fx_add(sum, &sum);
    done = true;
  }
  return ln2;
}

/* log v for 1 <= v < 2^255: v = m 2^e with m in [1/sqrt 2, sqrt 2) (a shift:
   within 2 u relative, so 2 u on the log), log m = +-2 atanh(s), s = |m - 1|/(m +
   1) <= 0.172 (fx_quot: within 9 u), fx_atanh(s) (~100 terms of 2 u, and the
   error of s times 1/(1 - s^2) < 1.03) within 220 u, then + e ln 2 (e <= 256,
   ln 2 within 720 u: 2^17.5 u): within 2^18 u = 2^-494 absolute. */
fx fx_log(const fx *v) {
  int e = fx_msb(v) - FRAC;
  fx  m = fx_shift(*v, -e), one = fx_int(1), num, den, s, l;
  /* m >= sqrt 2 (against the fraction of sqrt 2, truncated to 32 bits) */
  bool below = m.w[FRAC / 32 - 1] >= 0x6A09E667u;
  if (below) {
    m = fx_shift(m, -1);
    e++;
  }
  num = below ? fx_sub(one, &m) : fx_sub(m, &one);
  den = fx_add(m, &one);
  s = fx_quot(&num, &den);
  l = fx_atanh(&s);
  l = fx_add(l, &l);
  if (below) l = fx_neg(l);
  if (e > 0) {
    fx ln2 = fx_ln2(), kl = fx_mul_small_shift(&ln2, (uint32_t)e, 0);
    l = fx_add(l, &kl);
  }
  return l;
}
