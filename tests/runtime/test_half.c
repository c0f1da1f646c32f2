/* test_half.c: the float16 / bfloat16 <-> float conversions of wherec/ops.h,
   checked exhaustively against an independent reference built on double arithmetic. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <wherec/kernel.h>

/* ---- float bits, written here rather than borrowed from ops.h -------------- */

static float f32_of(uint32_t u) { float f; memcpy(&f, &u, sizeof f); return f; }
static uint32_t bits_of(float f) { uint32_t u; memcpy(&u, &f, sizeof u); return u; }

/* ---- mismatch bookkeeping: count every case, show the first few failures --- */

typedef struct tally {
  const char *what;
  unsigned long checked, failed;
} tally;

static void expect16(tally *t, uint32_t input, unsigned expected, unsigned got) {
  t->checked++;
  if (expected == got) return;
  if (t->failed < 10)
    print_message("%s: input 0x%08lx: expected 0x%04x, got 0x%04x\n", t->what,
                  (unsigned long)input, expected, got);
  t->failed++;
}

static void expect32(tally *t, unsigned input, uint32_t expected, uint32_t got) {
  t->checked++;
  if (expected == got) return;
  if (t->failed < 10)
    print_message("%s: input 0x%04x: expected 0x%08lx, got 0x%08lx\n", t->what, input,
                  (unsigned long)expected, (unsigned long)got);
  t->failed++;
}

static void report(const tally *t) {
  print_message("  %s: %lu cases checked, %lu mismatches\n", t->what, t->checked, t->failed);
  assert_int_equal(t->failed, 0);
}

/* ---- the two 16-bit formats, described by their parameters ---------------- */

typedef struct half_format {
  const char *name;
  int frac_bits;                 /* stored fraction bits: 10 (float16), 7 (bfloat16) */
  int bias;                      /* exponent bias: 15, 127 */
  unsigned (*convert)(float);    /* the ops.h conversion under test */
  unsigned (*nan_rule)(float);   /* the chosen result for a NaN input */
} half_format;

static int exp_bits(const half_format *fmt) { return 15 - fmt->frac_bits; }
static unsigned max_exp(const half_format *fmt) { return (1u << exp_bits(fmt)) - 1u; }
static unsigned inf_bits(const half_format *fmt) { return max_exp(fmt) << fmt->frac_bits; }

/* Magnitude of pattern h (sign ignored), reading the all-ones exponent as an
   ordinary exponent: for the +inf pattern this is the first power of two past
   the largest finite value (2^16, 2^128), the upper neighbour for overflow. */
static double magnitude(const half_format *fmt, unsigned h) {
  unsigned e = (h >> fmt->frac_bits) & max_exp(fmt);
  double m = (double)(h & ((1u << fmt->frac_bits) - 1u));
  double scale = ldexp(1.0, fmt->frac_bits);
  if (e == 0) return ldexp(m / scale, 1 - fmt->bias);            /* subnormal */
  return ldexp(1.0 + m / scale, (int)e - fmt->bias);
}

static int is_nan_pattern(const half_format *fmt, unsigned h) {
  return ((h >> fmt->frac_bits) & max_exp(fmt)) == max_exp(fmt) &&
         (h & ((1u << fmt->frac_bits) - 1u)) != 0;
}

/* Independent decode to float bits: value from the formula, NaN payload moved
   to the top of float's 23-bit fraction, sign kept. */
static uint32_t ref_decode(const half_format *fmt, unsigned h) {
  int neg = (h & 0x8000u) != 0;
  unsigned e = (h >> fmt->frac_bits) & max_exp(fmt);
  unsigned m = h & ((1u << fmt->frac_bits) - 1u);
  if (e == max_exp(fmt)) {
    if (m == 0) return bits_of(neg ? -INFINITY : INFINITY);
    return (neg ? 0x80000000u : 0u) | 0x7f800000u | m * (1u << (23 - fmt->frac_bits));
  }
  double v = magnitude(fmt, h);
  float f = (float)v;
  if ((double)f != v) fail_msg("reference decode of 0x%04x is not a float", h);
  return bits_of(neg ? -f : f);
}

/* Independent rounding of a float to the format, nearest with ties to even:
   scale |x| so the format's quantum at x is 1, round with nearbyint (default
   rounding mode), and overflow to inf when the rounded value needs an
   exponent past the largest finite one. */
static unsigned ref_round(const half_format *fmt, float x) {
  unsigned sign = signbit(x) ? 0x8000u : 0u;
  if (isnan(x)) return fmt->nan_rule(x);
  if (isinf(x)) return sign | inf_bits(fmt);
  double ax = fabs((double)x);
  int p = fmt->frac_bits, emin = 1 - fmt->bias;
  if (ax < ldexp(1.0, emin)) {                    /* subnormal range: quantum 2^(emin-p) */
    double q = nearbyint(ldexp(ax, p - emin));    /* 2^p rounds up to the smallest normal */
    return sign | (unsigned)q;
  }
  int e2;
  (void)frexp(ax, &e2);                           /* ax in [2^(e2-1), 2^e2) */
  int u = e2 - 1;
  double q = nearbyint(ldexp(ax, p - u));         /* significand in [2^p, 2^(p+1)] */
  if (q == ldexp(1.0, p + 1)) { q /= 2; u++; }    /* carried into the next binade */
  int biased = u + fmt->bias;
  if (biased >= (int)max_exp(fmt)) return sign | inf_bits(fmt);
  return sign | ((unsigned)biased << p) | (unsigned)(q - ldexp(1.0, p));
}

/* NaN rules, written from their specs. float16: numpy, top 10 payload bits and
   the sign, a zero result payload becomes 1, no quieting. bfloat16: ml_dtypes,
   the signed quiet NaN. */
static unsigned f16_nan_rule(float x) {
  uint32_t frac = bits_of(x) & 0x7fffffu;
  unsigned top = (unsigned)(frac / 8192u);        /* drop the 13 low payload bits */
  return (signbit(x) ? 0x8000u : 0u) | 0x7c00u | (top ? top : 1u);
}
static unsigned bf16_nan_rule(float x) { return signbit(x) ? 0xffc0u : 0x7fc0u; }

static unsigned kernel_f32_to_f16(float x) { return wc_f32_to_f16(x); }
static unsigned kernel_f32_to_bf16(float x) { return wc_f32_to_bf16(x); }

static const half_format F16 = {"float16", 10, 15, kernel_f32_to_f16, f16_nan_rule};
static const half_format BF16 = {"bfloat16", 7, 127, kernel_f32_to_bf16, bf16_nan_rule};

/* Fixed-seed xorshift64. */
static uint64_t rng_state;
static uint32_t next_u32(void) {
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 7;
  rng_state ^= rng_state << 17;
  return (uint32_t)(rng_state >> 32);
}

/* ---- shared checks ---------------------------------------------------------- */

/* Every pattern round-trips through float; NaNs follow the format's rule. */
static void check_round_trips(const half_format *fmt, tally *t) {
  for (unsigned h = 0; h <= 0xffffu; h++) {
    float x = f32_of(ref_decode(fmt, h));
    unsigned expected = is_nan_pattern(fmt, h) ? fmt->nan_rule(x) : h;
    expect16(t, bits_of(x), expected, fmt->convert(x));
  }
}

/* Midpoints between adjacent values (and between the largest finite value and
   the first power of two past it), both signs. mode 0: the midpoint itself,
   which goes to the even pattern; mode 1: the floats just below and just above
   it, which go to the nearer pattern. The reference is held to the same
   expectations, so it is checked where it is easiest to get wrong. */
static void check_midpoints(const half_format *fmt, int mode, tally *t, tally *ref) {
  for (unsigned i = 0; i < inf_bits(fmt); i++) {
    double lo = magnitude(fmt, i), hi = magnitude(fmt, i + 1u);
    double mid = (lo + hi) / 2;
    float fm = (float)mid;
    if ((double)fm != mid) fail_msg("%s midpoint after 0x%04x is not a float", fmt->name, i);
    for (unsigned sign = 0; sign <= 0x8000u; sign += 0x8000u) {
      float x = sign ? -fm : fm;
      if (mode == 0) {
        unsigned even = sign | (i % 2u == 0 ? i : i + 1u);
        expect16(t, bits_of(x), even, fmt->convert(x));
        expect16(ref, bits_of(x), even, ref_round(fmt, x));
      } else {
        float below = nextafterf(x, 0.0f);
        float above = nextafterf(x, sign ? -INFINITY : INFINITY);
        expect16(t, bits_of(below), sign | i, fmt->convert(below));
        expect16(t, bits_of(above), sign | (i + 1u), fmt->convert(above));
        expect16(ref, bits_of(below), sign | i, ref_round(fmt, below));
        expect16(ref, bits_of(above), sign | (i + 1u), ref_round(fmt, above));
      }
    }
  }
}

/* Random float bit patterns: 1,000,000 uniform, then 2048 per (sign, exponent)
   pair so every binade, including the subnormal and NaN ones, is covered. */
static void check_random(const half_format *fmt, tally *t) {
  rng_state = 0x9e3779b97f4a7c15u;
  for (unsigned long k = 0; k < 1000000ul; k++) {
    uint32_t u = next_u32();
    float x = f32_of(u);
    expect16(t, u, ref_round(fmt, x), fmt->convert(x));
  }
  for (uint32_t se = 0; se < 512u; se++)
    for (unsigned k = 0; k < 2048u; k++) {
      uint32_t u = (se << 23) | (next_u32() & 0x7fffffu);
      float x = f32_of(u);
      expect16(t, u, ref_round(fmt, x), fmt->convert(x));
    }
}

/* Every NaN float (2 * (2^23 - 1) patterns) against the format's NaN rule. */
static void check_all_nans(const half_format *fmt, tally *t) {
  for (uint32_t sign = 0; sign <= 1u; sign++)
    for (uint32_t frac = 1; frac <= 0x7fffffu; frac++) {
      uint32_t u = (sign << 31) | 0x7f800000u | frac;
      float x = f32_of(u);
      expect16(t, u, fmt->nan_rule(x), fmt->convert(x));
    }
}

typedef struct known { float x; unsigned expected; } known;

/* Hand-derived cases, each also checked with the sign flipped. */
static void check_known(const half_format *fmt, const known *cases, size_t n, tally *t) {
  for (size_t k = 0; k < n; k++)
    for (int neg = 0; neg <= 1; neg++) {
      float x = neg ? -cases[k].x : cases[k].x;
      unsigned expected = cases[k].expected | (neg ? 0x8000u : 0u);
      expect16(t, bits_of(x), expected, fmt->convert(x));
      expect16(t, bits_of(x), expected, ref_round(fmt, x));
    }
}

/* Every float with bits in [lo, hi), both signs: at most `boundary` (bits)
   gives `below`, from it on `above`. */
static void check_range(const half_format *fmt, uint32_t lo, uint32_t hi, uint32_t boundary,
                        unsigned below, unsigned above, tally *t) {
  for (uint32_t u = lo; u < hi; u++)
    for (uint32_t sign = 0; sign <= 1u; sign++) {
      uint32_t v = (sign << 31) | u;
      unsigned expected = (u < boundary ? below : above) | (sign ? 0x8000u : 0u);
      expect16(t, v, expected, fmt->convert(f32_of(v)));
    }
}

/* ---- float16 / bfloat16 -> float -------------------------------------------- */

static void test_f16_to_f32_decodes_all_65536_patterns(void **state) {
  (void)state;
  tally t = {"f16->f32 all patterns", 0, 0};
  for (unsigned h = 0; h <= 0xffffu; h++)
    expect32(&t, h, ref_decode(&F16, h), bits_of(wc_f16_to_f32((wc_float16)h)));
  report(&t);
}

static void test_bf16_to_f32_decodes_all_65536_patterns(void **state) {
  (void)state;
  tally t = {"bf16->f32 all patterns", 0, 0};
  for (unsigned h = 0; h <= 0xffffu; h++)
    expect32(&t, h, ref_decode(&BF16, h), bits_of(wc_bf16_to_f32((wc_bfloat16)h)));
  report(&t);
}

/* ---- float -> float16 --------------------------------------------------------- */

static void test_f32_to_f16_round_trips_all_65536_patterns(void **state) {
  (void)state;
  tally t = {"f32->f16 round trips", 0, 0};
  check_round_trips(&F16, &t);
  report(&t);
}

static void test_f32_to_f16_rounds_midpoints_to_even(void **state) {
  (void)state;
  tally t = {"f32->f16 midpoints", 0, 0}, ref = {"reference f16 midpoints", 0, 0};
  check_midpoints(&F16, 0, &t, &ref);
  report(&ref);
  report(&t);
}

static void test_f32_to_f16_rounds_neighbours_of_midpoints_to_nearest(void **state) {
  (void)state;
  tally t = {"f32->f16 midpoint neighbours", 0, 0}, ref = {"reference f16 neighbours", 0, 0};
  check_midpoints(&F16, 1, &t, &ref);
  report(&ref);
  report(&t);
}

static void test_f32_to_f16_overflows_to_inf_from_65520(void **state) {
  (void)state;
  const known cases[] = {
    {65504.0f, 0x7bffu},                 /* largest finite */
    {65488.0f, 0x7bfeu},                 /* midpoint 65472|65504: even 0x7bfe */
    {65519.99f, 0x7bffu},
    {65520.0f, 0x7c00u},                 /* midpoint 65504|65536: even is inf */
    {65536.0f, 0x7c00u},
    {1e10f, 0x7c00u},
    {FLT_MAX, 0x7c00u},
    {INFINITY, 0x7c00u},
  };
  tally t = {"f32->f16 overflow", 0, 0};
  check_known(&F16, cases, sizeof cases / sizeof cases[0], &t);
  float edge = 65520.0f;
  expect16(&t, bits_of(nextafterf(edge, 0.0f)), 0x7bffu, wc_f32_to_f16(nextafterf(edge, 0.0f)));
  expect16(&t, bits_of(nextafterf(edge, INFINITY)), 0x7c00u,
           wc_f32_to_f16(nextafterf(edge, INFINITY)));
  /* every float from 65504 to 2^17: below 65520 finite, from it on inf */
  check_range(&F16, bits_of(65504.0f), bits_of(131072.0f), bits_of(65520.0f), 0x7bffu, 0x7c00u,
              &t);
  report(&t);
}

static void test_f32_to_f16_rounds_subnormals_and_underflows_to_zero(void **state) {
  (void)state;
  const known cases[] = {
    {0.0f, 0x0000u},
    {FLT_TRUE_MIN, 0x0000u},
    {FLT_MIN, 0x0000u},
    {0x1p-26f, 0x0000u},
    {0x1p-25f, 0x0000u},                 /* midpoint 0|2^-24: even is 0 */
    {0x1p-24f, 0x0001u},                 /* smallest subnormal */
    {0x1.8p-24f, 0x0002u},               /* 1.5 quanta: even is 2 */
    {0x1.4p-23f, 0x0002u},               /* 2.5 quanta: even is 2 */
    {0x1.cp-23f, 0x0004u},               /* 3.5 quanta: even is 4 */
    {0x1.ff8p-15f, 0x03ffu},             /* largest subnormal, 1023 quanta */
    {0x1.ffcp-15f, 0x0400u},             /* 1023.5 quanta: even is the smallest normal */
    {0x1p-14f, 0x0400u},                 /* smallest normal */
    {1.0f, 0x3c00u},
    {0x1.002p0f, 0x3c00u},               /* 1 + half an ulp: even is 1 */
    {0x1.006p0f, 0x3c02u},               /* 1 + 1.5 ulp: even is 0x3c02 */
    {0.1f, 0x2e66u},
    {3.14159265f, 0x4248u},
  };
  tally t = {"f32->f16 subnormals and underflow", 0, 0};
  check_known(&F16, cases, sizeof cases / sizeof cases[0], &t);
  float half_min = 0x1p-25f;
  expect16(&t, bits_of(nextafterf(half_min, 1.0f)), 0x0001u,
           wc_f32_to_f16(nextafterf(half_min, 1.0f)));
  expect16(&t, bits_of(nextafterf(-half_min, -1.0f)), 0x8001u,
           wc_f32_to_f16(nextafterf(-half_min, -1.0f)));
  expect16(&t, bits_of(nextafterf(half_min, 0.0f)), 0x0000u,
           wc_f32_to_f16(nextafterf(half_min, 0.0f)));
  /* every float from 2^-26 to 2^-24 (0 up to and including 2^-25, 1 above)
     and from 2^-24 to 2^-23 (1 below 1.5 quanta, 2 from it on, ties to even) */
  check_range(&F16, bits_of(0x1p-26f), bits_of(0x1p-24f), bits_of(0x1p-25f) + 1u, 0x0000u, 0x0001u, &t);
  check_range(&F16, bits_of(0x1p-24f), bits_of(0x1p-23f), bits_of(0x1.8p-24f), 0x0001u, 0x0002u,
              &t);
  report(&t);
}

static void test_f32_to_f16_keeps_nan_sign_and_top_payload_bits(void **state) {
  (void)state;
  static const struct { uint32_t in; unsigned expected; } cases[] = {
    {0x7fc00000u, 0x7e00u},              /* default quiet NaN */
    {0xffc00000u, 0xfe00u},
    {0x7fa00000u, 0x7d00u},              /* signalling stays signalling */
    {0x7f800001u, 0x7c01u},              /* payload only in dropped bits: becomes 1 */
    {0xff801fffu, 0xfc01u},
    {0x7f802000u, 0x7c01u},
    {0x7fffffffu, 0x7fffu},
    {0xffffe000u, 0xffffu},
  };
  tally t = {"f32->f16 NaNs", 0, 0};
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++)
    expect16(&t, cases[k].in, cases[k].expected, wc_f32_to_f16(f32_of(cases[k].in)));
  check_all_nans(&F16, &t);
  report(&t);
}

static void test_f32_to_f16_matches_reference_on_random_floats(void **state) {
  (void)state;
  tally t = {"f32->f16 random", 0, 0};
  check_random(&F16, &t);
  report(&t);
}

/* ---- float -> bfloat16 -------------------------------------------------------- */

static void test_f32_to_bf16_round_trips_all_65536_patterns(void **state) {
  (void)state;
  tally t = {"f32->bf16 round trips", 0, 0};
  check_round_trips(&BF16, &t);
  report(&t);
}

static void test_f32_to_bf16_rounds_midpoints_to_even(void **state) {
  (void)state;
  tally t = {"f32->bf16 midpoints", 0, 0}, ref = {"reference bf16 midpoints", 0, 0};
  check_midpoints(&BF16, 0, &t, &ref);
  report(&ref);
  report(&t);
}

static void test_f32_to_bf16_rounds_neighbours_of_midpoints_to_nearest(void **state) {
  (void)state;
  tally t = {"f32->bf16 midpoint neighbours", 0, 0}, ref = {"reference bf16 neighbours", 0, 0};
  check_midpoints(&BF16, 1, &t, &ref);
  report(&ref);
  report(&t);
}

static void test_f32_to_bf16_overflows_to_inf_from_0x7f7f8000(void **state) {
  (void)state;
  static const struct { uint32_t in; unsigned expected; } cases[] = {
    {0x7f7f0000u, 0x7f7fu},              /* largest finite */
    {0x7f7e8000u, 0x7f7eu},              /* midpoint 0x7f7e|0x7f7f: even */
    {0x7f7f7fffu, 0x7f7fu},
    {0x7f7f8000u, 0x7f80u},              /* midpoint to 2^128: even is inf */
    {0x7f7fffffu, 0x7f80u},              /* FLT_MAX */
    {0x7f800000u, 0x7f80u},
  };
  tally t = {"f32->bf16 overflow", 0, 0};
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++)
    for (uint32_t sign = 0; sign <= 1u; sign++) {
      uint32_t u = (sign << 31) | cases[k].in;
      unsigned expected = cases[k].expected | (sign ? 0x8000u : 0u);
      expect16(&t, u, expected, wc_f32_to_bf16(f32_of(u)));
      expect16(&t, u, expected, ref_round(&BF16, f32_of(u)));
    }
  /* every float from the largest finite bfloat16 to inf */
  check_range(&BF16, 0x7f7f0000u, 0x7f800001u, 0x7f7f8000u, 0x7f7fu, 0x7f80u, &t);
  report(&t);
}

static void test_f32_to_bf16_rounds_subnormals_and_small_values(void **state) {
  (void)state;
  static const struct { uint32_t in; unsigned expected; } cases[] = {
    {0x00000000u, 0x0000u},
    {0x00000001u, 0x0000u},              /* smallest float subnormal */
    {0x00007fffu, 0x0000u},
    {0x00008000u, 0x0000u},              /* midpoint 0|smallest: even is 0 */
    {0x00008001u, 0x0001u},
    {0x00010000u, 0x0001u},              /* smallest bfloat16 subnormal */
    {0x00017fffu, 0x0001u},
    {0x00018000u, 0x0002u},              /* 1.5 quanta: even is 2 */
    {0x00028000u, 0x0002u},              /* 2.5 quanta: even is 2 */
    {0x007f8000u, 0x0080u},              /* 127.5 quanta: even is the smallest normal */
    {0x007fffffu, 0x0080u},              /* largest float subnormal */
    {0x00800000u, 0x0080u},              /* FLT_MIN */
    {0x3f800000u, 0x3f80u},              /* 1 */
    {0x3f808000u, 0x3f80u},              /* 1 + half an ulp: even */
    {0x3f808001u, 0x3f81u},
    {0x3f818000u, 0x3f82u},              /* 1 + 1.5 ulp: even */
    {0x3dcccccdu, 0x3dcdu},              /* 0.1f */
    {0x40490fdbu, 0x4049u},              /* pi */
  };
  tally t = {"f32->bf16 subnormals and small values", 0, 0};
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++)
    for (uint32_t sign = 0; sign <= 1u; sign++) {
      uint32_t u = (sign << 31) | cases[k].in;
      unsigned expected = cases[k].expected | (sign ? 0x8000u : 0u);
      expect16(&t, u, expected, wc_f32_to_bf16(f32_of(u)));
      expect16(&t, u, expected, ref_round(&BF16, f32_of(u)));
    }
  /* every float subnormal, both signs, against the reference */
  for (uint32_t u = 0; u < 0x00800000u; u++)
    for (uint32_t sign = 0; sign <= 1u; sign++) {
      float x = f32_of((sign << 31) | u);
      expect16(&t, bits_of(x), ref_round(&BF16, x), wc_f32_to_bf16(x));
    }
  report(&t);
}

static void test_f32_to_bf16_maps_every_nan_to_signed_quiet_nan(void **state) {
  (void)state;
  static const struct { uint32_t in; unsigned expected; } cases[] = {
    {0x7fc00000u, 0x7fc0u}, {0xffc00000u, 0xffc0u}, {0x7f800001u, 0x7fc0u},
    {0xff800001u, 0xffc0u}, {0x7fffffffu, 0x7fc0u}, {0x7fa00000u, 0x7fc0u},
  };
  tally t = {"f32->bf16 NaNs", 0, 0};
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++)
    expect16(&t, cases[k].in, cases[k].expected, wc_f32_to_bf16(f32_of(cases[k].in)));
  check_all_nans(&BF16, &t);
  report(&t);
}

static void test_f32_to_bf16_matches_reference_on_random_floats(void **state) {
  (void)state;
  tally t = {"f32->bf16 random", 0, 0};
  check_random(&BF16, &t);
  report(&t);
}

/* All 2^32 floats through both conversions: about four minutes, so only when
   WHEREC_HALF_EXHAUSTIVE is set in the environment. */
static void test_f32_to_half_matches_reference_on_all_floats_when_asked(void **state) {
  (void)state;
  if (!getenv("WHEREC_HALF_EXHAUSTIVE")) skip();
  tally t16 = {"f32->f16 all floats", 0, 0}, tb = {"f32->bf16 all floats", 0, 0};
  uint32_t u = 0;
  do {
    float x = f32_of(u);
    expect16(&t16, u, ref_round(&F16, x), wc_f32_to_f16(x));
    expect16(&tb, u, ref_round(&BF16, x), wc_f32_to_bf16(x));
  } while (++u != 0);
  report(&t16);
  report(&tb);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_f16_to_f32_decodes_all_65536_patterns),
    cmocka_unit_test(test_bf16_to_f32_decodes_all_65536_patterns),
    cmocka_unit_test(test_f32_to_f16_round_trips_all_65536_patterns),
    cmocka_unit_test(test_f32_to_f16_rounds_midpoints_to_even),
    cmocka_unit_test(test_f32_to_f16_rounds_neighbours_of_midpoints_to_nearest),
    cmocka_unit_test(test_f32_to_f16_overflows_to_inf_from_65520),
    cmocka_unit_test(test_f32_to_f16_rounds_subnormals_and_underflows_to_zero),
    cmocka_unit_test(test_f32_to_f16_keeps_nan_sign_and_top_payload_bits),
    cmocka_unit_test(test_f32_to_f16_matches_reference_on_random_floats),
    cmocka_unit_test(test_f32_to_bf16_round_trips_all_65536_patterns),
    cmocka_unit_test(test_f32_to_bf16_rounds_midpoints_to_even),
    cmocka_unit_test(test_f32_to_bf16_rounds_neighbours_of_midpoints_to_nearest),
    cmocka_unit_test(test_f32_to_bf16_overflows_to_inf_from_0x7f7f8000),
    cmocka_unit_test(test_f32_to_bf16_rounds_subnormals_and_small_values),
    cmocka_unit_test(test_f32_to_bf16_maps_every_nan_to_signed_quiet_nan),
    cmocka_unit_test(test_f32_to_bf16_matches_reference_on_random_floats),
    cmocka_unit_test(test_f32_to_half_matches_reference_on_all_floats_when_asked),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
