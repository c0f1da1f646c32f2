/* ref_exp.c: the reference's exp, rounded to nearest even into any binary
   format, computed independently of wherec/exp.h (another algorithm, libm). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reference.h"

/* Why it is right. Fast path: libm's expl in long double. glibc's expl is
   within a few ulps of the 64-bit significand (its documented bound is 1-2),
   far inside the margin DELTA = 2^-45 used here, which holds even where long
   double is only double (or valgrind runs x87 code in doubles): 256 ulps of a
   53-bit significand. A result whose scaled fraction is farther than
   DELTA * value from the rounding boundary (a midpoint of the target) rounds
   as exp(x) does. Within it, the
   exact path decides: the Taylor series of exp(x) itself, no argument
   reduction and no constants, in fixed point with 480 fraction bits (20
   32-bit limbs). Each term is the previous one times |x| (an integer times a
   power of two) over n, each step truncated by < 2^-480; an error in one
   term reaches later ones multiplied by |x|^m n!/(n+m)! <= e^|x| <= 2^151, so
   the sum of <= 600 terms is within 2^-310 of exp(|x|) (or of the alternating
   sum, for x < 0), against a result >= 2^-151: relative error < 2^-159. The
   rounding then asks for 100 bits below the target's last bit to be neither
   all zeros after a one nor all ones after a zero; it aborts if that ever
   fails, so a wrong answer cannot pass silently. */

#define LIMBS 20        /* 640 bits: value = sum limb[i] 2^(32 i - 480) */
#define FRAC  (15 * 32) /* fraction bits */

static int bit_of(const uint32_t *a, int i) {
  return i < 0 ? 0 : (int)((a[i / 32] >> (i % 32)) & 1u);
}

/* a = a * m >> sh (sh >= 0) or a * m << -sh */
static void mul_small_shift(uint32_t *a, uint32_t m, int sh) {
  uint32_t t[LIMBS + 1];
  uint64_t c = 0;
  memset(t, 0, sizeof t);
  for (int i = 0; i < LIMBS; i++) {
    c += (uint64_t)a[i] * m;
    t[i] = (uint32_t)c;
    c >>= 32;
  }
  t[LIMBS] = (uint32_t)c;
  memset(a, 0, LIMBS * sizeof *a);
  for (int i = 0; i < 32 * LIMBS; i++) {
    int from = i + sh;
    if (from >= 0 && from < 32 * (LIMBS + 1) && ((t[from / 32] >> (from % 32)) & 1u))
      a[i / 32] |= 1u << (i % 32);
  }
}

static void div_small(uint32_t *a, uint32_t n) {
  uint64_t rem = 0;
  for (int i = LIMBS - 1; i >= 0; i--) {
    uint64_t cur = rem << 32 | a[i];
    a[i] = (uint32_t)(cur / n);
    rem = cur % n;
  }
}

static void add_to(uint32_t *a, const uint32_t *b, int sign) {
  uint64_t c = 0;
  for (int i = 0; i < LIMBS; i++) {
    uint64_t t = sign > 0 ? (uint64_t)a[i] + b[i] + c : (uint64_t)a[i] - b[i] - c;
    a[i] = (uint32_t)t;
    c = sign > 0 ? t >> 32 : (t >> 32) & 1u;
  }
}

static double pow2(int e) { return ldexp(1.0, e); }

/* q (an integer) times 2^quantum, or inf from 2^(emax+1) on */
static double finish(double q, int quantum, int emax) {
  double r = ldexp(q, quantum);
  return r >= pow2(emax + 1) ? HUGE_VAL : r;
}

/* The exact path: the series, then the rounding with its self-check. */
static double exp_exact(float x, int p, int emin, int emax) {
  uint32_t pos[LIMBS], neg[LIMBS], term[LIMBS];
  int      ex, msb, e, lsb;
  float    fm = frexpf(fabsf(x), &ex);
  uint32_t m = (uint32_t)ldexpf(fm, 24); /* |x| = m 2^(ex - 24), exactly */
  memset(pos, 0, sizeof pos);
  memset(neg, 0, sizeof neg);
  memset(term, 0, sizeof term);
  term[FRAC / 32] = pos[FRAC / 32] = 1u;
  for (uint32_t n = 1; n < 1000; n++) {
    int zero = 1;
    mul_small_shift(term, m, 24 - ex);
    div_small(term, n);
    add_to(x < 0 && (n & 1u) ? neg : pos, term, 1);
    for (int i = 0; i < LIMBS; i++) zero &= term[i] == 0;
    if (zero) break;
  }
  add_to(pos, neg, -1); /* exp(x) = pos - neg > 0 */
  for (msb = 32 * LIMBS - 1; !bit_of(pos, msb); msb--) {}
  e = msb - FRAC;
  lsb = (e > emin ? e : emin) - p + 1 + FRAC; /* bit of the target's ulp */
  if (lsb > msb + 1) return 0.0;              /* below half the smallest subnormal */
  double q = 0;
  for (int i = msb; i >= lsb; i--) q = 2 * q + bit_of(pos, i);
  int round = bit_of(pos, lsb - 1), same = 1, sticky = 0;
  for (int i = lsb - 2; i >= lsb - 101; i--) same &= bit_of(pos, i) == !round;
  for (int i = lsb - 2; i >= 0; i--) sticky |= bit_of(pos, i);
  if (same) {
    fprintf(stderr, "ref_exp: exp(%a) is too close to a rounding boundary\n", (double)x);
    abort();
  }
  if (round && (sticky || fmod(q, 2.0) != 0)) q += 1;
  return finish(q, lsb - FRAC, emax);
}

double wc__ref_exp_exact(float x, int p, int emin, int emax) { return exp_exact(x, p, emin, emax); }

double wc__ref_exp(float x, int p, int emin, int emax) {
  if (x != x) return x;
  if (x > 89.0f) return HUGE_VAL; /* exp(89) > 4.4e38 > 2^128 */
  if (x < -104.0f) return 0.0;    /* exp(-104) < 6.9e-46 < 2^-150 */
  long double y = expl((long double)x), v, n, f;
  int         ey, quantum;
  frexpl(y, &ey);
  quantum = (ey - 1 > emin ? ey - 1 : emin) - p + 1;
  v = ldexpl(y, -quantum); /* y in units of the target's ulp: exact */
  n = floorl(v);
  f = v - n;
  if (fabsl(f - 0.5L) <= ldexpl(v, -45)) return exp_exact(x, p, emin, emax); /* DELTA */
  return finish((double)(n + (f > 0.5L ? 1 : 0)), quantum, emax);
}
