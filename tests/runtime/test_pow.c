/* test_pow.c: pow (wherec/pow.h) on C's special values, NaN operands, exact
   results and midpoints (integer powers, square roots of squares, x^1.5,
   subnormal midpoints), hard cases, its rare path alone, a strided sample of
   every float16 and bfloat16 pair against the reference (src/ref/ref_math.c),
   and the reference's two paths against each other. Random float pairs against
   MPFR: pow_random.c. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include <wherec/kernel.h>

#include "ref/reference.h"

static float    f32_of(uint32_t u) { return wc_bits_to_f32(u); }
static uint32_t bits_of(float f) { return wc_f32_to_bits(f); }
static uint32_t pow_bits(uint32_t x, uint32_t y) {
  return bits_of(wc_pow_f32(f32_of(x), f32_of(y)));
}

/* the reference's float pow as float bits (x, y not NaN) */
static uint32_t ref_bits(float x, float y) {
  double r = wc__ref_pow(x, y, 24, -126, 127);
  return r != r ? 0x7fc00000u : bits_of((float)r);
}

static void expect_pow(uint32_t x, uint32_t y, uint32_t want) {
  uint32_t got = pow_bits(x, y);
  if (got != want)
    fail_msg("pow(%a, %a) = %a (0x%08x), want %a (0x%08x)", (double)f32_of(x), (double)f32_of(y),
             (double)f32_of(got), got, (double)f32_of(want), want);
}

#define INF  0x7f800000u
#define NINF 0xff800000u
#define NZ   0x80000000u
#define ONE  0x3f800000u
#define CNAN 0x7fc00000u

/* C99 F.9.4.4, every row (and the values the reference gives them) */
static void test_pow_special_values_follow_c(void **state) {
  static const uint32_t rows[][3] = {
      {0x7fc00000u, 0, ONE},   /* pow(NaN, +0) = 1 */
      {0xffc12345u, NZ, ONE},  /* pow(NaN, -0) = 1 */
      {ONE, 0x7fc00000u, ONE}, /* pow(1, NaN) = 1 */
      {ONE, INF, ONE},         /* pow(1, inf) */
      {0xbf800000u, INF, ONE}, /* pow(-1, +-inf) = 1 */
      {0xbf800000u, NINF, ONE},
      {0x3f000000u, INF, 0}, /* |x| < 1: +inf -> +0, -inf -> +inf */
      {0xbf000000u, NINF, INF},
      {0x40000000u, INF, INF}, /* |x| > 1: +inf -> +inf, -inf -> +0 */
      {0xc0000000u, NINF, 0},
      {0, 0x40400000u, 0}, /* pow(+-0, odd > 0) = +-0 */
      {NZ, 0x40400000u, NZ},
      {NZ, 0x40000000u, 0}, /* even or non-integer > 0: +0 */
      {NZ, 0x3f000000u, 0},
      {NZ, 0xc0400000u, NINF}, /* pow(+-0, odd < 0) = +-inf */
      {0, 0xc0400000u, INF},
      {NZ, 0xc0000000u, INF}, /* even or non-integer < 0: +inf */
      {NZ, 0xbf000000u, INF},
      {NZ, NINF, INF}, /* pow(+-0, -inf) = +inf */
      {NZ, INF, 0},
      {INF, 0xbf000000u, 0}, /* pow(+inf, y < 0) = +0, y > 0: +inf */
      {INF, 0x3f000000u, INF},
      {NINF, 0x40400000u, NINF}, /* pow(-inf, y) = pow(-0, -y) */
      {NINF, 0xc0400000u, NZ},
      {NINF, 0x40000000u, INF},
      {NINF, 0xc0000000u, 0},
      {NINF, 0xdf000000u, 0},           /* y = -2^63: even */
      {0xc0000000u, 0x3f000000u, CNAN}, /* negative ^ non-integer: invalid */
      {0x80000001u, 0x3fc00000u, CNAN},
      {0xc0000000u, 0x40400000u, 0xc1000000u}, /* (-2)^3 = -8 */
      {0xc0000000u, 0xc0400000u, 0xbe000000u}, /* (-2)^-3 = -1/8 */
      {0xc0000000u, 0x4b800000u, INF},         /* (-2)^(2^24) */
      {0xbf000000u, 0x4b7fffffu, NZ},          /* (-1/2)^(2^24 - 1): odd, underflows to -0 */
      {0x40000000u, 0x43000000u, INF},         /* 2^128 overflows */
      {0x40000000u, 0x42fe0000u, 0x7f000000u}, /* 2^127 */
      {0x40000000u, 0xc3150000u, 1},           /* 2^-149 */
      {0x40000000u, 0xc3160000u, 0},           /* 2^-150: the midpoint, to even 0 */
      {0x7f7fffffu, 0x3f800000u, 0x7f7fffffu}, /* x^1 = x */
      {0x00000001u, 0x3f800000u, 0x00000001u},
      {0x40490fdbu, 0x3f800000u, 0x40490fdbu},
  };
  (void)state;
  for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
    expect_pow(rows[i][0], rows[i][1], rows[i][2]);
    if (f32_of(rows[i][0]) == f32_of(rows[i][0]) && f32_of(rows[i][1]) == f32_of(rows[i][1]))
      assert_int_equal(ref_bits(f32_of(rows[i][0]), f32_of(rows[i][1])), rows[i][2]);
  }
  /* the half types: the same rules, their own NaN */
  assert_int_equal(wc_pow_f16(0xc000u, 0x3800u), 0x7e00u); /* (-2)^0.5 */
  assert_int_equal(wc_pow_bf16(0xc000u, 0x3f00u), 0x7fc0u);
  assert_int_equal(wc_pow_f16(0x8000u, 0xc200u), 0xfc00u); /* (-0)^-3 = -inf */
  assert_int_equal(wc_pow_bf16(0x8000u, 0xc040u), 0xff80u);
  assert_int_equal(wc_pow_f16(0x7e00u, 0x0000u), 0x3c00u);  /* NaN^0 = 1 */
  assert_int_equal(wc_pow_bf16(0x3f80u, 0x7fc1u), 0x3f80u); /* 1^NaN = 1 */
  assert_int_equal(wc_pow_f16(0x4000u, 0x4c00u), 0x7c00u);  /* 2^16 overflows float16 */
  assert_int_equal(wc_pow_f16(0x4000u, 0xce00u), 0x0001u);  /* 2^-24 */
  assert_int_equal(wc_pow_f16(0x4000u, 0xce40u), 0x0000u);  /* 2^-25: midpoint, to 0 */
}

/* NaN operands as ops.h's + - * /: x's NaN, else y's, quieted; float16 keeps
   the payload, bfloat16 gives the quiet NaN of its sign */
static void test_pow_gives_the_first_nan_operand_quieted(void **state) {
  (void)state;
  expect_pow(0x7f800001u, 0x40000000u, 0x7fc00001u); /* signalling x, quieted */
  expect_pow(0x40000000u, 0xff800123u, 0xffc00123u); /* y's NaN when x is not */
  expect_pow(0x7fa00000u, 0xffc00001u, 0x7fe00000u); /* both: x's */
  expect_pow(0xbf800000u, 0x7fc00000u, 0x7fc00000u); /* pow(-1, NaN) is NaN */
  expect_pow(0x7f800001u, 0x3f800000u, 0x7fc00001u); /* NaN^1 */
  assert_int_equal(wc_pow_f16(0x7c01u, 0x4000u), 0x7e01u);
  assert_int_equal(wc_pow_f16(0x4000u, 0xfd23u), 0xff23u);
  assert_int_equal(wc_pow_f16(0x7d00u, 0xfe00u), 0x7f00u);
  assert_int_equal(wc_pow_bf16(0xff81u, 0x4000u), 0xffc0u);
  assert_int_equal(wc_pow_bf16(0x4000u, 0x7f81u), 0x7fc0u);
}

/* exact values and midpoints (rounded to even): integer powers, roots of
   powers, x^1.5, subnormal midpoints; each also against the reference */
static void test_pow_rounds_exact_midpoints_to_even(void **state) {
  static const uint32_t rows[][3] = {
      {0x3f800800u, 0x40000000u, 0x3f801000u}, /* (1 + 2^-12)^2 = 1 + 2^-11 + 2^-24 -> 1 + 2^-11 */
      {0x41300000u, 0x40e00000u, 0x4b94ace2u}, /* 11^7 = 19487171, 25 bits -> 19487172 */
      {0x42f20000u, 0x40600000u, 0x4b94ace2u}, /* 121^3.5 = 11^7 */
      {0x1a000000u, 0x40000000u, 0x00000000u}, /* (2^-75)^2 = 2^-150 -> 0 */
      {0x27400000u, 0x40400000u, 0x0000000eu}, /* (3 2^-50)^3 = 13.5 2^-149 -> 14 */
      {0x1ac00000u, 0x40000000u, 0x00000004u}, /* (3 2^-75)^2 = 4.5 2^-149 -> 4 */
      {0x1a400000u, 0x40000000u, 0x00000001u}, /* (3 2^-76)^2 = 1.125 2^-149 */
      {0x4b7fe001u, 0x3f000000u, 0x457ff000u}, /* sqrt(4095^2) = 4095 */
      {0x4b7fe001u, 0x3fc00000u, 0x517fd003u}, /* (4095^2)^1.5 = 4095^3 = 68669157375 */
      {0x41100000u, 0x3fc00000u, 0x41d80000u}, /* 9^1.5 = 27 */
      {0x3e800000u, 0xbfc00000u, 0x41000000u}, /* (1/4)^-1.5 = 8 */
      {0x4f800000u, 0x3d800000u, 0x40800000u}, /* (2^32)^(1/16) = 4 */
      {0x43800000u, 0xbe000000u, 0x3f000000u}, /* 256^(-1/8) = 1/2 */
      {0x40400000u, 0x41700000u, 0x4b5af26bu}, /* 3^15 = 14348907 */
      {0x40400000u, 0x41800000u, 0x4c2435d0u}, /* 3^16 = 43046721 -> 43046720 */
  };
  (void)state;
  for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
    float x = f32_of(rows[i][0]), y = f32_of(rows[i][1]);
    expect_pow(rows[i][0], rows[i][1], rows[i][2]);
    assert_int_equal(ref_bits(x, y), rows[i][2]);
    assert_int_equal(bits_of((float)wc__ref_pow_exact(x, y, 24, -126, 127)), rows[i][2]);
  }
  /* float16: 63^2 = 3969 (12 bits) -> 3968; bfloat16: 17^2 = 289 (9 bits) -> 288 */
  assert_int_equal(wc_pow_f16(wc_f32_to_f16(63.0f), 0x4000u), wc_f32_to_f16(3968.0f));
  assert_int_equal(wc_pow_bf16(wc_f32_to_bf16(17.0f), 0x4000u), wc_f32_to_bf16(288.0f));
}

/* pairs near a rounding boundary (the one CORE-MATH's powf notes among them, and
   the nearest a search found), checked against both of the reference's paths and
   the rare path alone */
static void test_pow_matches_the_reference_on_hard_cases(void **state) {
  static const uint32_t pairs[][2] = {
      {0x3f7e895au, 0xc668582cu}, /* 0x1.fd12b4p-1, -0x1.d0b058p+13 (CORE-MATH) */
      {0x3f800800u, 0x40400000u}, /* (1 + 2^-12)^3: 1 + 3 2^-12 + 3 2^-24 + 2^-36 */
      {0x3f800001u, 0x4b000000u}, /* (1 + 2^-23)^(2^23): e, nearly */
      {0x3f7fffffu, 0xcb800000u}, /* (1 - 2^-24)^(-2^24) */
      {0x3f800001u, 0x4c000000u},
      {0x40490fdbu, 0x42b10000u}, /* pi^88.5: near overflow */
      {0x3dcccccdu, 0x42180000u}, /* 0.1^38 */
      {0x3dcccccdu, 0x42300000u}, /* 0.1^44: subnormal */
      {0x3f000001u, 0x43150000u}, /* (1/2 + 2^-24)^149: near 2^-149 */
      {0x4b7fffffu, 0x3f000000u}, /* sqrt(2^24 - 1) */
      {0x4b7fffffu, 0xbfc00000u},
      /* the nearest to a float midpoint among 2 * 10^7 pairs of pow_random's recipes
         (long double, then MPFR): 20.9 to 23.1 bits beyond the last place */
      {0x447cb50bu, 0x3b57c43fu}, /* 0x1.f96a16p+9 ^ 0x1.af887ep-9 */
      {0x3519733eu, 0xbff0a6d2u}, /* 0x1.32e67cp-21 ^ -0x1.e14da4p+0 */
      {0x3f8001a1u, 0xc383b4a2u}, /* 0x1.000342p+0 ^ -0x1.076944p+8 */
      {0x4c1b1882u, 0xc00a74d4u}, /* 0x1.363104p+25 ^ -0x1.14e9a8p+1 */
      {0x41cb035eu, 0xc1500000u}, /* 0x1.9606bcp+4 ^ -13 */
      {0x51222a10u, 0xc0000000u}, /* 0x1.44542p+35 ^ -2 */
      {0x41cbc000u, 0xc0800000u}, /* 0x1.978p+4 ^ -4 */
  };
  (void)state;
  for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
    float    x = f32_of(pairs[i][0]), y = f32_of(pairs[i][1]);
    uint32_t want = ref_bits(x, y);
    assert_int_equal(bits_of((float)wc__ref_pow_exact(x, y, 24, -126, 127)), want);
    expect_pow(pairs[i][0], pairs[i][1], want);
    assert_int_equal(bits_of((float)wc_pow_rare_(x, y, 24, -126)), want);
  }
}

/* the rare path (exact results, then double-double) alone gives the fast
   path's results, on pairs of every kind */
static uint64_t rng = 0x9e3779b97f4a7c15u;
static uint32_t next32(void) {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return (uint32_t)(rng >> 16);
}
static void test_pow_rare_path_agrees_with_the_fast_path(void **state) {
  int checked = 0;
  (void)state;
  for (int i = 0; i < 200000; i++) {
    uint32_t xb = next32() & 0x7fffffffu, yb = next32();
    float    x, y;
    if (i & 1) xb = 0x3f800000u + (next32() % 0x40000u) - 0x20000u; /* near 1 */
    if (i & 2) yb = (yb & 0x807fffffu) | ((120u + yb % 16u) << 23);
    x = f32_of(xb);
    y = f32_of(yb);
    if (!(x > 0) || x - x != 0 || y != y || y - y != 0 || y == 0 || x == 1) continue;
    checked++;
    if (bits_of((float)wc_pow_rare_(x, y, 24, -126)) != pow_bits(xb, yb))
      fail_msg("rare path: pow(%a, %a)", (double)x, (double)y);
  }
  assert_true(checked > 100000);
}

/* float16 and bfloat16: a strided sample of the 2^32 pairs against the reference */
static void check_half(int bf, uint32_t sx, uint32_t sy) {
  long bad = 0;
  for (uint32_t a = 0; a < 65536; a += sx)
    for (uint32_t b = (a * 7u) % sy; b < 65536; b += sy) {
      float    x = bf ? wc_bf16_to_f32((uint16_t)a) : wc_f16_to_f32((uint16_t)a);
      float    y = bf ? wc_bf16_to_f32((uint16_t)b) : wc_f16_to_f32((uint16_t)b);
      uint16_t got = bf ? wc_pow_bf16((uint16_t)a, (uint16_t)b)
                        : wc_pow_f16((uint16_t)a, (uint16_t)b);
      uint16_t want;
      double   r;
      if (x != x || y != y) continue; /* NaN rules: the test above */
      r = bf ? wc__ref_pow(x, y, 8, -126, 127) : wc__ref_pow(x, y, 11, -14, 15);
      want = r != r ? (bf ? 0x7fc0u : 0x7e00u)
             : bf   ? wc_f32_to_bf16((float)r)
                    : wc_f32_to_f16((float)r);
      if (got != want && bad++ < 10)
        print_error("%s pow(%a, %a) = 0x%04x, reference 0x%04x\n", bf ? "bfloat16" : "float16",
                    (double)x, (double)y, got, want);
    }
  assert_int_equal(bad, 0);
}
static void test_pow_on_float16_pairs_matches_the_reference(void **state) {
  (void)state;
  check_half(0, 17, 53);
}
static void test_pow_on_bfloat16_pairs_matches_the_reference(void **state) {
  (void)state;
  check_half(1, 17, 53);
}

/* the reference's fast path (powl) and exact path (integers, fixed point) agree */
static void test_pow_reference_paths_agree(void **state) {
  (void)state;
  for (int i = 0; i < 300; i++) {
    float x = f32_of((next32() % 0x7f800000u)),
          y = f32_of(((next32() & 0x807fffffu) | ((118u + next32() % 14u) << 23)));
    if (i % 3 == 0) x = f32_of(0x3f800000u + next32() % 4096u);
    assert_int_equal(bits_of((float)wc__ref_pow(x, y, 24, -126, 127)),
                     bits_of((float)wc__ref_pow_exact(x, y, 24, -126, 127)));
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_pow_special_values_follow_c),
      cmocka_unit_test(test_pow_gives_the_first_nan_operand_quieted),
      cmocka_unit_test(test_pow_rounds_exact_midpoints_to_even),
      cmocka_unit_test(test_pow_matches_the_reference_on_hard_cases),
      cmocka_unit_test(test_pow_rare_path_agrees_with_the_fast_path),
      cmocka_unit_test(test_pow_on_float16_pairs_matches_the_reference),
      cmocka_unit_test(test_pow_on_bfloat16_pairs_matches_the_reference),
      cmocka_unit_test(test_pow_reference_paths_agree),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
