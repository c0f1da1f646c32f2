/* test_exp.c: wc_exp_f32/f16/bf16 (wherec/exp.h) on special values, the overflow
   and underflow boundaries and hard cases; float16/bfloat16 exhaustively; the
   reference's two paths. (test_crmath tests the rounding steps exp.h shares.) */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include <wherec/kernel.h>

#include "ref/reference.h"

static float f32_of(uint32_t u) { float f; memcpy(&f, &u, sizeof f); return f; }
static uint32_t bits_of(float f) { uint32_t u; memcpy(&u, &f, sizeof u); return u; }
static uint32_t exp_bits(uint32_t x) { return bits_of(wc_exp_f32(f32_of(x))); }

/* xorshift64: the same sample on every run */
static uint64_t rng = 0x9e3779b97f4a7c15u;
static uint32_t next32(void) {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return (uint32_t)(rng >> 16);
}

/* Correctly rounded results from Python's decimal module at 120 digits (a third
   oracle, independent of both C implementations). */
static const uint32_t known[][2] = {
    {0x3f800000u, 0x402df854u}, /* exp(0x1.0000000000000p+0) */
    {0xbf800000u, 0x3ebc5ab2u}, /* exp(-0x1.0000000000000p+0) */
    {0x3f000000u, 0x3fd3094cu}, /* exp(0x1.0000000000000p-1) */
    {0x33800000u, 0x3f800001u}, /* exp(0x1.0000000000000p-24) */
    {0xb3000000u, 0x3f800000u}, /* exp(-0x1.0000000000000p-25) */
    {0x34000000u, 0x3f800001u}, /* exp(0x1.0000000000000p-23) */
    {0xb3800000u, 0x3f7fffffu}, /* exp(-0x1.0000000000000p-24) */
    {0x41200000u, 0x46ac14eeu}, /* exp(0x1.4000000000000p+3) */
    {0xc1200000u, 0x383e6bceu}, /* exp(-0x1.4000000000000p+3) */
    {0x42b17217u, 0x7f7fff84u}, /* exp(0x1.62e42e0000000p+6) */
    {0x42b17218u, 0x7f800000u}, /* exp(0x1.62e4300000000p+6) */
    {0xc2cff1b4u, 0x00000001u}, /* exp(-0x1.9fe3680000000p+6) */
    {0xc2cff1b5u, 0x00000000u}, /* exp(-0x1.9fe36a0000000p+6) */
    {0xc2ae0000u, 0x00b33687u}, /* exp(-0x1.5c00000000000p+6) */
    {0xc2aeac4fu, 0x00800026u}, /* exp(-0x1.5d589e0000000p+6) */
    {0x42b00000u, 0x7ef882b7u}, /* exp(0x1.6000000000000p+6) */
    {0x3c400000u, 0x3f818242u}, /* exp(0x1.8000000000000p-7) */
    {0xbc400000u, 0x3f7d047cu}, /* exp(-0x1.8000000000000p-7) */
    {0x3a83126fu, 0x3f8020c9u}, /* exp(0x1.0624de0000000p-10) */
    {0x3f317218u, 0x40000000u}, /* exp(0x1.62e4300000000p-1) */
    {0x41a00000u, 0x4de75844u}, /* exp(0x1.4000000000000p+4) */
    {0xc2c80000u, 0x0000001bu}, /* exp(-0x1.9000000000000p+6) */
    {0xc2ce0000u, 0x00000001u}, /* exp(-0x1.9c00000000000p+6) */
    {0xc292f27cu, 0x0a7fffedu}, /* exp(-0x1.25e4f80000000p+6) */
    {0x00000001u, 0x3f800000u}, /* exp(0x1.0000000000000p-149) */
    /* the hardest cases: the floats whose exp lies nearest a midpoint (found with expl
       over all floats, confirmed by tests/runtime/crmath_hardest.c with MPFR; the
       nearest is 2^-28.7 ulp, 2^-52.7 relative, away) */
    {0xc16912cdu, 0x34fd331bu}, /* exp(-0x1.d2259a0000000p+3): 2^-28.7 ulp from a midpoint */
    {0xbbf0edf1u, 0x3f7e1fe9u}, /* exp(-0x1.e1dbe20000000p-8): 2^-27.7 ulp from a midpoint */
    {0xc2b2e798u, 0x000f6dceu}, /* exp(-0x1.65cf300000000p+6): 2^-27.7 ulp from a midpoint */
    {0x377eff81u, 0x3f800080u}, /* exp(0x1.fdff020000000p-17): 2^-27.6 ulp from a midpoint */
    {0xbae0e25cu, 0x3f7f8fa7u}, /* exp(-0x1.c1c4b80000000p-10): 2^-27.2 ulp from a midpoint */
    {0xb3000000u, 0x3f800000u}, /* exp(-0x1.0000000000000p-25): 2^-27.0 ulp from a midpoint */
    {0x39c6be5bu, 0x3f800c6du}, /* exp(0x1.8d7cb60000000p-12): 2^-27.0 ulp from a midpoint */
    {0x38e69cc1u, 0x3f80039au}, /* exp(0x1.cd39820000000p-14): 2^-26.9 ulp from a midpoint */
};

static void test_exp_matches_values_computed_in_decimal(void **state) {
  (void)state;
  for (size_t i = 0; i < sizeof known / sizeof known[0]; i++) {
    if (exp_bits(known[i][0]) != known[i][1])
      print_message("exp(%a): expected 0x%08x, got 0x%08x\n", (double)f32_of(known[i][0]),
                    (unsigned)known[i][1], (unsigned)exp_bits(known[i][0]));
    assert_int_equal(exp_bits(known[i][0]), known[i][1]);
  }
}

static void test_exp_of_special_values(void **state) {
  (void)state;
  assert_int_equal(exp_bits(0x00000000u), 0x3f800000u); /* exp(+0) = 1 */
  assert_int_equal(exp_bits(0x80000000u), 0x3f800000u); /* exp(-0) = 1 */
  assert_int_equal(exp_bits(0x7f800000u), 0x7f800000u); /* exp(+inf) = +inf */
  assert_int_equal(exp_bits(0xff800000u), 0x00000000u); /* exp(-inf) = +0 */
  assert_int_equal(exp_bits(0x7f7fffffu), 0x7f800000u); /* overflow */
  assert_int_equal(exp_bits(0xff7fffffu), 0x00000000u); /* underflow */
  assert_int_equal(exp_bits(0x80000001u), 0x3f800000u); /* exp(-tiny) rounds to 1 */
}

static void test_exp_keeps_a_nan_quieted(void **state) {
  (void)state;
  static const uint32_t nans[] = {0x7fc00000u, 0xffc00000u, 0x7f800001u, 0xff812345u,
                                  0x7fbfffffu, 0x7fffffffu};
  for (size_t i = 0; i < sizeof nans / sizeof nans[0]; i++)
    assert_int_equal(exp_bits(nans[i]), nans[i] | 0x00400000u);
  assert_int_equal(wc_exp_f16(0x7d01u), wc_f32_to_f16(f32_of(0x7fa02000u | 0x00400000u)));
  assert_int_equal(wc_exp_f16(0x7d01u) & 0x7e00u, 0x7e00u);
  assert_int_equal(wc_exp_bf16(0xff81u), 0xffc0u);
}

/* exp is monotone: on a sample of neighbouring floats the results are in order. */
static void test_exp_is_monotone_across_the_range(void **state) {
  (void)state;
  for (int i = 0; i < 100000; i++) {
    uint32_t x = next32();
    float    a = f32_of(x), b;
    if (a != a) continue;
    b = f32_of(x + 1u);
    if (b != b) continue;
    if (a < b) assert_true(wc_exp_f32(a) <= wc_exp_f32(b));
    else assert_true(wc_exp_f32(a) >= wc_exp_f32(b));
  }
}

/* The formats: significand bits, emin, emax. */
static const int fmt[3][3] = {{24, -126, 127}, {11, -14, 15}, {8, -126, 127}};

/* exp on float16 and bfloat16 over all 65,536 inputs: each correctly rounded
   straight from exp(x) (the reference), not through float; and how often the
   float result, rounded again, would differ (double rounding). */
static void test_exp_on_float16_and_bfloat16_is_correctly_rounded_everywhere(void **state) {
  (void)state;
  for (int half = 0; half < 2; half++) {
    unsigned long wrong = 0, twice = 0;
    for (uint32_t h = 0; h < 65536u; h++) {
      float    x = half ? wc_bf16_to_f32((uint16_t)h) : wc_f16_to_f32((uint16_t)h);
      uint16_t got = half ? wc_exp_bf16((uint16_t)h) : wc_exp_f16((uint16_t)h);
      uint16_t via_float = half ? wc_f32_to_bf16(wc_exp_f32(x)) : wc_f32_to_f16(wc_exp_f32(x));
      uint16_t want;
      if (x != x) want = via_float;                   /* NaN: the float rule, quieted */
      else {
        float r = (float)wc__ref_exp(x, fmt[1 + half][0], fmt[1 + half][1], fmt[1 + half][2]);
        want = half ? wc_f32_to_bf16(r) : wc_f32_to_f16(r); /* exact: r is in the format */
      }
      if (got != want && wrong++ < 5)
        print_message("exp(0x%04x): expected 0x%04x, got 0x%04x\n", (unsigned)h, want, got);
      if (via_float != want && twice++ < 5)
        print_message("exp(0x%04x) through float: 0x%04x, correctly rounded: 0x%04x\n",
                      (unsigned)h, via_float, want);
    }
    print_message("exp on %s: %lu of 65536 wrong; rounding the float result again would "
                  "differ on %lu\n", half ? "bfloat16" : "float16", wrong, twice);
    assert_int_equal(wrong, 0);
  }
}

/* The reference's two paths (expl, and the exact series it falls back on)
   agree, on a sample of every format and on the hard cases. */
static void test_exp_reference_paths_agree(void **state) {
  (void)state;
  for (int i = 0; i < 3000; i++) {
    uint32_t    u = next32();
    const int  *f = fmt[i % 3];
    float       x;
    u = (u & 0x80ffffffu) | ((uint32_t)(100 + (u >> 24) % 34) << 23); /* |x| in [2^-27, 128) */
    x = f32_of(u);
    if (x > 89.0f || x < -104.0f) continue;
    assert_true(wc__ref_exp_exact(x, f[0], f[1], f[2]) == wc__ref_exp(x, f[0], f[1], f[2]));
  }
  for (size_t i = 0; i < sizeof known / sizeof known[0]; i++) { /* and the hard cases */
    float x = f32_of(known[i][0]);
    if (x > 89.0f || x < -104.0f) continue;
    assert_int_equal(bits_of((float)wc__ref_exp_exact(x, 24, -126, 127)), known[i][1]);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_exp_matches_values_computed_in_decimal),
      cmocka_unit_test(test_exp_of_special_values),
      cmocka_unit_test(test_exp_keeps_a_nan_quieted),
      cmocka_unit_test(test_exp_is_monotone_across_the_range),
      cmocka_unit_test(test_exp_on_float16_and_bfloat16_is_correctly_rounded_everywhere),
      cmocka_unit_test(test_exp_reference_paths_agree),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
