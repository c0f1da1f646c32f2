/* test_crmath.c: log, tanh, sigmoid, erf (wherec/crmath.h), sinh and cosh
   (wherec/hyperbolic.h), sin, cos, tan (trig.h), asin, acos, atan
   (inverse_trig.h), asinh, acosh, atanh (inverse_hyperbolic.h), expm1, selu, softplus,
   softsign, silu and mish (activations.h), gelu (gelu.h), gelu_tanh (gelu_tanh.h) on special values,
   boundaries and the hardest inputs; every float16 and bfloat16 input against the
   reference (src/ref/ref_math.c); the reference's two paths; the shared rounding
   steps of wherec/exp.h against exact rounding. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include <wherec/kernel.h>

#include "ref/reference.h"

enum { F_LOG, F_TANH, F_SIGMOID, F_ERF, F_EXP, F_SINH, F_COSH, F_SIN, F_COS, F_TAN, F_ASIN,
       F_ACOS, F_ATAN, F_ASINH, F_ACOSH, F_ATANH, F_EXPM1, F_SELU, F_SOFTPLUS,
       F_SOFTSIGN, F_SILU, F_MISH, F_GELU, F_GELU_TANH, N_FUNCS };

/* Each function: its name, opcode, three forms, and how it orders its results (1
   increasing, -1 decreasing, 2 even and increasing in |x|, 0 neither) */
static const struct fn {
  const char *name;
  wc_opcode   op;
  float (*f32)(float);
  wc_float16 (*f16)(wc_float16);
  wc_bfloat16 (*bf16)(wc_bfloat16);
  int order;
} fns[N_FUNCS] = {
#define FN_(name, NAME, order) {#name, WC_OP_##NAME, wc_##name##_f32, wc_##name##_f16, wc_##name##_bf16, order}
    FN_(log, LOG, 1),    FN_(tanh, TANH, 1),  FN_(sigmoid, SIGMOID, 1), FN_(erf, ERF, 1),
    FN_(exp, EXP, 1),    FN_(sinh, SINH, 1),  FN_(cosh, COSH, 2),       FN_(sin, SIN, 0),
    FN_(cos, COS, 0),    FN_(tan, TAN, 0),    FN_(asin, ASIN, 1),       FN_(acos, ACOS, -1),
    FN_(atan, ATAN, 1),  FN_(asinh, ASINH, 1), FN_(acosh, ACOSH, 1),    FN_(atanh, ATANH, 1),
    FN_(expm1, EXPM1, 1), FN_(selu, SELU, 1), FN_(softplus, SOFTPLUS, 1),
    FN_(softsign, SOFTSIGN, 1),
    FN_(silu, SILU, 0),   FN_(mish, MISH, 0),   FN_(gelu, GELU, 0),
    FN_(gelu_tanh, GELU_TANH, 0),
#undef FN_
};

static float    f32_of(uint32_t u) { return wc_bits_to_f32(u); }
static uint32_t bits_of(float f) { return wc_f32_to_bits(f); }

static float       f32_fn(int f, float x) { return fns[f].f32(x); }
static wc_float16  f16_fn(int f, wc_float16 x) { return fns[f].f16(x); }
static wc_bfloat16 bf16_fn(int f, wc_bfloat16 x) { return fns[f].bf16(x); }
static uint32_t fn_bits(int f, uint32_t x) { return bits_of(f32_fn(f, f32_of(x))); }

/* xorshift64: the same sample on every run */
static uint64_t rng = 0x9e3779b97f4a7c15u;
static uint32_t next32(void) {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return (uint32_t)(rng >> 16);
}

/* The float inputs whose values lie nearest a rounding boundary, with the
   correctly rounded results (tests/runtime/crmath_hardest.c, MPFR at 256 bits,
   over every float). */
static const uint32_t hardest[][3] = {
    {F_LOG, 0x65d890d3u, 0x4254d1f9u}, /* log(0x1.b121a6p+76): 2^-57.8 relative */
    {F_LOG, 0x4c5d65a5u, 0x418f034bu}, /* log(0x1.bacb4ap+25): 2^-56.7 relative */
    {F_LOG, 0x4d604ebeu, 0x419a352cu}, /* log(0x1.c09d7cp+27): 2^-56.0 relative */
    {F_LOG, 0x66a8c860u, 0x42595e46u}, /* log(0x1.5190cp+78): 2^-54.9 relative */
    {F_LOG, 0x1f116ab8u, 0xc233b53eu}, /* log(0x1.22d57p-65): 2^-54.6 relative */
    {F_LOG, 0x41178febu, 0x400fe5e7u}, /* log(0x1.2f1fd6p+3): 2^-54.6 relative */
    {F_LOG, 0x3c413d3au, 0xc08e158fu}, /* log(0x1.827a74p-7): 2^-53.8 relative */
    {F_LOG, 0x6f31a8ecu, 0x42845a89u}, /* log(0x1.6351d8p+95): 2^-53.2 relative */
    {F_LOG, 0x38dcbe38u, 0xc1128ba4u}, /* log(0x1.b97c7p-14): 2^-53.0 relative */
    {F_LOG, 0x5ee8984eu, 0x422e4a21u}, /* log(0x1.d1309cp+62): 2^-52.8 relative */
    {F_LOG, 0x4665a9a6u, 0x41198725u}, /* log(0x1.cb534cp+13): 2^-52.7 relative */
    {F_LOG, 0x3bf86ef0u, 0xc09c399eu}, /* log(0x1.f0ddep-8): 2^-52.6 relative */
    {F_TANH, 0x3ac37de2u, 0x3ac37dd9u}, /* tanh(0x1.86fbc4p-10): 2^-50.3 relative */
    {F_TANH, 0xbac37de2u, 0xbac37dd9u}, /* tanh(-0x1.86fbc4p-10): 2^-50.3 relative */
    {F_TANH, 0x3eee0566u, 0x3ede3cbeu}, /* tanh(0x1.dc0accp-2): 2^-49.6 relative */
    {F_TANH, 0xbeee0566u, 0xbede3cbeu}, /* tanh(-0x1.dc0accp-2): 2^-49.6 relative */
    {F_TANH, 0x40acb4d0u, 0x3f7ffd50u}, /* tanh(0x1.5969ap+2): 2^-49.2 relative */
    {F_TANH, 0xc0acb4d0u, 0xbf7ffd50u}, /* tanh(-0x1.5969ap+2): 2^-49.2 relative */
    {F_TANH, 0x3cd41b91u, 0x3cd40f70u}, /* tanh(0x1.a83722p-6): 2^-49.1 relative */
    {F_TANH, 0xbcd41b91u, 0xbcd40f70u}, /* tanh(-0x1.a83722p-6): 2^-49.1 relative */
    {F_TANH, 0x40c5e8cau, 0x3f7fff71u}, /* tanh(0x1.8bd194p+2): 2^-48.8 relative */
    {F_TANH, 0xc0c5e8cau, 0xbf7fff71u}, /* tanh(-0x1.8bd194p+2): 2^-48.8 relative */
    {F_TANH, 0x3d7c3055u, 0x3d7bdee1u}, /* tanh(0x1.f860aap-5): 2^-48.8 relative */
    {F_TANH, 0xbd7c3055u, 0xbd7bdee1u}, /* tanh(-0x1.f860aap-5): 2^-48.8 relative */
    {F_SIGMOID, 0xb3800000u, 0x3f000000u}, /* sigmoid(-0x1p-24): 2^-76.6 relative */
    {F_SIGMOID, 0x34000000u, 0x3f000000u}, /* sigmoid(0x1p-23): 2^-73.6 relative */
    {F_SIGMOID, 0xb4400000u, 0x3effffffu}, /* sigmoid(-0x1.8p-23): 2^-71.8 relative */
    {F_SIGMOID, 0xb4a00000u, 0x3efffffeu}, /* sigmoid(-0x1.4p-22): 2^-69.6 relative */
    {F_SIGMOID, 0x34c00000u, 0x3f000001u}, /* sigmoid(0x1.8p-22): 2^-68.8 relative */
    {F_SIGMOID, 0xb4e00000u, 0x3efffffdu}, /* sigmoid(-0x1.cp-22): 2^-68.2 relative */
    {F_SIGMOID, 0xb5100000u, 0x3efffffcu}, /* sigmoid(-0x1.2p-21): 2^-67.1 relative */
    {F_SIGMOID, 0x35200000u, 0x3f000002u}, /* sigmoid(0x1.4p-21): 2^-66.6 relative */
    {F_SIGMOID, 0xb5300000u, 0x3efffffbu}, /* sigmoid(-0x1.6p-21): 2^-66.2 relative */
    {F_SIGMOID, 0xb5500000u, 0x3efffffau}, /* sigmoid(-0x1.ap-21): 2^-65.5 relative */
    {F_SIGMOID, 0x35600000u, 0x3f000003u}, /* sigmoid(0x1.cp-21): 2^-65.2 relative */
    {F_SIGMOID, 0xb5700000u, 0x3efffff9u}, /* sigmoid(-0x1.ep-21): 2^-64.9 relative */
    {F_ERF, 0x3940ead6u, 0x3959af14u}, /* erf(0x1.81d5acp-13): 2^-56.3 relative */
    {F_ERF, 0xb940ead6u, 0xb959af14u}, /* erf(-0x1.81d5acp-13): 2^-56.3 relative */
    {F_ERF, 0x39c0057du, 0x39d8ac49u}, /* erf(0x1.800afap-12): 2^-51.4 relative */
    {F_ERF, 0xb9c0057du, 0xb9d8ac49u}, /* erf(-0x1.800afap-12): 2^-51.4 relative */
    {F_ERF, 0x36aea466u, 0x36c51007u}, /* erf(0x1.5d48ccp-18): 2^-50.5 relative */
    {F_ERF, 0xb6aea466u, 0xb6c51007u}, /* erf(-0x1.5d48ccp-18): 2^-50.5 relative */
    {F_ERF, 0x358e9d2du, 0x35a0ec32u}, /* erf(0x1.1d3a5ap-20): 2^-50.3 relative */
    {F_ERF, 0xb58e9d2du, 0xb5a0ec32u}, /* erf(-0x1.1d3a5ap-20): 2^-50.3 relative */
    {F_ERF, 0x00aa320cu, 0x00c00b88u}, /* erf(0x1.546418p-126): 2^-49.6 relative */
    {F_ERF, 0x012a320cu, 0x01400b88u}, /* erf(0x1.546418p-125): 2^-49.6 relative */
    {F_ERF, 0x01aa320cu, 0x01c00b88u}, /* erf(0x1.546418p-124): 2^-49.6 relative */
    {F_ERF, 0x022a320cu, 0x02400b88u}, /* erf(0x1.546418p-123): 2^-49.6 relative */
    /* the circular functions and their inverses (the nearest to a midpoint found over
       every float: trig.h's and inverse_trig.h's comments) */
    {F_SIN, 0x73243f06u, 0x3e943a84u},   /* sin(0x1.487e0cp+103): 2^-54.2 relative */
    {F_SIN, 0x46199998u, 0xbeb1fa5du},   /* sin(0x1.33333p+13): 2^-54.0 relative */
    {F_SIN, 0x55cafb2au, 0xbf7e7a17u},   /* sin(0x1.95f654p+44): 2^-53.5 relative */
    {F_COS, 0x6115cb11u, 0x3f78142fu},   /* cos(0x1.2b9622p+67): 2^-55.9 relative */
    {F_COS, 0x5f18b878u, 0x3f7f14bbu},   /* cos(0x1.3170fp+63): 2^-55.6 relative */
    {F_COS, 0x59443c0au, 0x3f425f62u},   /* cos(0x1.887814p+51): 2^-55.5 relative */
    {F_TAN, 0x5ffd33a4u, 0x3fd06c8cu},   /* tan(0x1.fa6748p+64): 2^-54.5 relative */
    {F_TAN, 0x5d5873aeu, 0x3ea6bfedu},   /* tan(0x1.b0e75cp+59): 2^-52.2 relative */
    {F_TAN, 0x7714b423u, 0x3fe83698u},   /* tan(0x1.296846p+111): 2^-51.8 relative */
    {F_ATAN, 0x3d8d6b23u, 0x3d8d31c3u},  /* atan(0x1.1ad646p-4): 2^-55.1 relative */
    {F_ATAN, 0x3b7c1bc9u, 0x3b7c1b78u},  /* atan(0x1.f83792p-9): 2^-52.0 relative */
    {F_ATAN, 0x4c700518u, 0x3fc90fdbu},  /* atan(0x1.e00a3p+25): 2^-51.5 relative */
    {F_ATAN, 0x4c700517u, 0x3fc90fdau},  /* atan(0x1.e00a2ep+25): 2^-51.4 relative */
    {F_ASIN, 0x3f083a1au, 0x3f0fa5b2u},  /* asin(0x1.107434p-1): 2^-53.6 relative */
    {F_ASIN, 0xbf083a1au, 0xbf0fa5b2u},  /* asin(-0x1.107434p-1): 2^-53.6 relative */
    {F_ASIN, 0x3de5fa1eu, 0x3de6768eu},  /* asin(0x1.cbf43cp-4): 2^-52.4 relative */
    {F_ASIN, 0x39e89768u, 0x39e89769u},  /* asin(0x1.d12edp-12): 2^-50.3 relative */
    {F_ACOS, 0x39826222u, 0x3fc907b5u},  /* acos(0x1.04c444p-12): 2^-57.1 relative */
    {F_ACOS, 0x328885a3u, 0x3fc90fdbu},  /* acos(0x1.110b46p-26): 2^-54.5 relative */
    {F_ACOS, 0xbc406ccdu, 0x3fca90b6u},  /* acos(-0x1.80d99ap-7): 2^-53.6 relative */
    {F_ACOS, 0xba9d5f75u, 0x3fc93733u},  /* acos(-0x1.3abeeap-10): 2^-51.4 relative */
    /* the inverse hyperbolic functions (inverse_hyperbolic.h's comment) */
    {F_ASINH, 0x655890d3u, 0x4254d1f9u}, /* asinh(0x1.b121a6p+75): 2^-57.8 relative */
    {F_ASINH, 0xe55890d3u, 0xc254d1f9u}, /* asinh(-0x1.b121a6p+75): 2^-57.8 relative */
    {F_ASINH, 0x4ce04ebeu, 0x419a352cu}, /* asinh(0x1.c09d7cp+26): 2^-55.9 relative */
    {F_ASINH, 0x4bdd65a5u, 0x418f034bu}, /* asinh(0x1.bacb4ap+24): 2^-55.1 relative */
    {F_ACOSH, 0x655890d3u, 0x4254d1f9u}, /* acosh(0x1.b121a6p+75): 2^-57.8 relative */
    {F_ACOSH, 0x4bdd65a5u, 0x418f034au}, /* acosh(0x1.bacb4ap+24): 2^-56.8 relative */
    {F_ACOSH, 0x4ce04ebeu, 0x419a352cu}, /* acosh(0x1.c09d7cp+26): 2^-56.1 relative */
    {F_ATANH, 0x3a71e7a1u, 0x3a71e7a6u}, /* atanh(0x1.e3cf42p-11): 2^-52.9 relative */
    {F_ATANH, 0xba71e7a1u, 0xba71e7a6u}, /* atanh(-0x1.e3cf42p-11): 2^-52.9 relative */
    {F_ATANH, 0x39b89ba2u, 0x39b89ba3u}, /* atanh(0x1.713744p-12): 2^-52.4 relative */
    {F_ATANH, 0x3ad637ebu, 0x3ad637f7u}, /* atanh(0x1.ac6fd6p-10): 2^-51.8 relative */
    {F_ATANH, 0x3ddc2eceu, 0x3ddd0980u}, /* atanh(0x1.b85d9cp-4): 2^-50.3 relative */
    /* sigmoid beyond the structured cases near 0: |x| >= 2^-11 */
    {F_SIGMOID, 0xba928601u, 0x3effdb5fu}, /* sigmoid(-0x1.250c02p-10): 2^-55.0 relative */
    {F_SIGMOID, 0x3d21bc81u, 0x3f0286dcu}, /* sigmoid(0x1.437902p-5): 2^-53.1 relative */
    {F_SIGMOID, 0xbe104170u, 0x3eedff70u}, /* sigmoid(-0x1.2082ep-3): 2^-52.8 relative */
    {F_SIGMOID, 0x3b128604u, 0x3f0024a1u}, /* sigmoid(0x1.250c08p-9): 2^-50.9 relative */
    {F_SIGMOID, 0xbf1964d0u, 0x3eb584b1u}, /* sigmoid(-0x1.32c9ap-1): 2^-50.8 relative */
    {F_SIGMOID, 0x3a689801u, 0x3f000e89u}, /* sigmoid(0x1.d13002p-11): 2^-50.0 relative */
    {F_SIGMOID, 0xbda363f4u, 0x3ef5cb23u}, /* sigmoid(-0x1.46c7e8p-4): 2^-49.8 relative */
    {F_SIGMOID, 0xc164ddcbu, 0x3524acb6u}, /* sigmoid(-0x1.c9bb96p+3): 2^-49.1 relative */
    {F_SIGMOID, 0x3e8dffafu, 0x3f11a30fu}, /* sigmoid(0x1.1bff5ep-2): 2^-49.0 relative */
    {F_SIGMOID, 0xbd655024u, 0x3ef8d5fau}, /* sigmoid(-0x1.caa048p-5): 2^-48.9 relative */
    {F_SIGMOID, 0x3eb2c9b8u, 0x3f161fc8u}, /* sigmoid(0x1.65937p-2): 2^-48.7 relative */
    {F_SIGMOID, 0xbd567bbbu, 0x3ef94c86u}, /* sigmoid(-0x1.acf776p-5): 2^-48.6 relative */
    {F_SINH, 0x3a1285ffu, 0x3a1285ffu}, /* sinh(0x1.250bfep-11): 2^-54.3 relative */
    {F_SINH, 0xba1285ffu, 0xba1285ffu}, /* sinh(-0x1.250bfep-11): 2^-54.3 relative */
    {F_SINH, 0x3b36aa1fu, 0x3b36aa2fu}, /* sinh(0x1.6d543ep-9): 2^-50.7 relative */
    {F_SINH, 0xbb36aa1fu, 0xbb36aa2fu}, /* sinh(-0x1.6d543ep-9): 2^-50.7 relative */
    {F_SINH, 0x3f7df258u, 0x3f94d8aau}, /* sinh(0x1.fbe4bp-1): 2^-50.0 relative */
    {F_SINH, 0xbf7df258u, 0xbf94d8aau}, /* sinh(-0x1.fbe4bp-1): 2^-50.0 relative */
    {F_SINH, 0x3f99144cu, 0x3fc04512u}, /* sinh(0x1.322898p+0): 2^-49.7 relative */
    {F_SINH, 0xbf99144cu, 0xbfc04512u}, /* sinh(-0x1.322898p+0): 2^-49.7 relative */
    {F_COSH, 0x3a6f7750u, 0x3f800004u}, /* cosh(0x1.deeeap-11): 2^-53.3 relative */
    {F_COSH, 0xba6f7750u, 0x3f800004u}, /* cosh(-0x1.deeeap-11): 2^-53.3 relative */
    {F_COSH, 0x3d609528u, 0x3f803145u}, /* cosh(0x1.c12a5p-5): 2^-52.7 relative */
    {F_COSH, 0xbd609528u, 0x3f803145u}, /* cosh(-0x1.c12a5p-5): 2^-52.7 relative */
    {F_EXPM1, 0x3dc252ddu, 0x3dcbd76bu}, /* expm1(0x1.84a5bap-4): 2^-52.8 relative */
    {F_EXPM1, 0x34ca62c1u, 0x34ca62c3u}, /* expm1(0x1.94c582p-22): 2^-52.4 relative */
    {F_EXPM1, 0xb675cbfcu, 0xb675cbdfu}, /* expm1(-0x1.eb97f8p-19): 2^-52.3 relative */
    {F_EXPM1, 0x3a254e7au, 0x3a255bd3u}, /* expm1(0x1.4a9cf4p-11): 2^-52.3 relative */
    {F_EXPM1, 0x33b504f3u, 0x33b504f3u}, /* expm1(0x1.6a09e6p-24): 2^-51.8 relative */
    {F_EXPM1, 0xbb7b3b6cu, 0xbb7ac04eu}, /* expm1(-0x1.f676d8p-9): 2^-51.4 relative */
    {F_SOFTPLUS, 0x39ea41d0u, 0x3f3180bdu}, /* softplus(0x1.d483ap-12): 2^-57.0 relative */
    {F_SOFTPLUS, 0x40a3f888u, 0x40a42924u}, /* softplus(0x1.47f11p+2): 2^-52.5 relative */
    {F_SOFTPLUS, 0x3ad68ba7u, 0x3f31a7c1u}, /* softplus(0x1.ad174ep-10): 2^-52.2 relative */
    {F_SOFTPLUS, 0x398b9622u, 0x3f317ad1u}, /* softplus(0x1.172c44p-12): 2^-51.9 relative */
    {F_SOFTPLUS, 0xb36fa39fu, 0x3f317218u}, /* softplus(-0x1.df473ep-25): 2^-51.0 relative */
    {F_SOFTPLUS, 0xbee22485u, 0x3efe3490u}, /* softplus(-0x1.c4490ap-2): 2^-50.5 relative */
    {F_SOFTSIGN, 0x3c7c0fc2u, 0x3c783e10u}, /* softsign(0x1.f81f84p-7): 2^-54.0 relative */
    {F_SOFTSIGN, 0xbc7c0fc2u, 0xbc783e10u}, /* softsign(-0x1.f81f84p-7): 2^-54.0 relative */
    {F_SOFTSIGN, 0x3c0b8116u, 0x3c0a5391u}, /* softsign(0x1.17022cp-7): 2^-53.1 relative */
    {F_SOFTSIGN, 0x3bc17b88u, 0x3bc058c8u}, /* softsign(0x1.82f71p-8): 2^-52.6 relative */
    {F_SILU, 0xbf503320u, 0xbe7fd440u}, /* silu(-0x1.a0664p-1): 2^-49.7 relative */
    {F_SILU, 0x3ecea6b0u, 0x3e77cc40u}, /* silu(0x1.9d4d6p-2): 2^-49.6 relative */
    {F_SILU, 0xc1ee41a0u, 0xac73de8cu}, /* silu(-0x1.dc834p+4): 2^-49.4 relative */
    {F_SILU, 0x3c99acdau, 0x3c1b1dd8u}, /* silu(0x1.3359b4p-6): 2^-49.3 relative */
    {F_MISH, 0xb3a00000u, 0xb33fffffu}, /* mish(-0x1.4p-24): 2^-52.6 relative */
    {F_MISH, 0x33a00000u, 0x33400000u}, /* mish(0x1.4p-24): 2^-52.6 relative */
    {F_MISH, 0x3f193f7fu, 0x3eee01d1u}, /* mish(0x1.327efep-1): 2^-50.9 relative */
    {F_MISH, 0x3b64c4d0u, 0x3b09844bu}, /* mish(0x1.c989ap-9): 2^-50.8 relative */
    {F_GELU, 0x3eada244u, 0x3e5bbb3eu}, /* gelu(0x1.5b4488p-2): 2^-51.3 relative */
    {F_GELU, 0xc0925885u, 0xb7382e06u}, /* gelu(-0x1.24b10ap+2): 2^-51.2 relative */
    {F_GELU, 0x3e493cc6u, 0x3de896f5u}, /* gelu(0x1.92798cp-3): 2^-51.0 relative */
    {F_GELU, 0xbe493cc6u, 0xbda9e297u}, /* gelu(-0x1.92798cp-3): 2^-50.5 relative */
    {F_GELU, 0x37b0a46fu, 0x3730a531u}, /* gelu(0x1.6148dep-16): 2^-53.4 relative (series) */
    {F_GELU, 0xb7b0a46fu, 0xb730a3adu}, /* gelu(-0x1.6148dep-16): 2^-53.4 relative (series) */
    {F_GELU_TANH, 0x37b0a46fu, 0x3730a531u}, /* gelu_tanh(0x1.6148dep-16): 2^-53.3 relative */
    {F_GELU_TANH, 0xb7b0a46fu, 0xb730a3adu}, /* gelu_tanh(-0x1.6148dep-16): 2^-53.3 relative */
    {F_GELU_TANH, 0x334aa765u, 0x32caa765u}, /* gelu_tanh(0x1.954ecap-25): 2^-50.7 relative */
    {F_GELU_TANH, 0xb34aa765u, 0xb2caa765u}, /* gelu_tanh(-0x1.954ecap-25): 2^-50.7 relative */
    {F_GELU_TANH, 0x3eab6834u, 0x3e5858f6u}, /* gelu_tanh(0x1.56d068p-2): 2^-50.5 relative */
    {F_GELU_TANH, 0x37f5c377u, 0x3775c4efu}, /* gelu_tanh(0x1.eb86eep-16): 2^-50.4 relative */
    {F_GELU_TANH, 0x3c6feb06u, 0x3bf2b89bu}, /* gelu_tanh(0x1.dfd60cp-7): 2^-50.3 relative */
    {F_GELU_TANH, 0x3f414d8fu, 0x3f15c5ddu}, /* gelu_tanh(0x1.829b1ep-1): 2^-50.0 relative */
    {F_GELU_TANH, 0xc0773385u, 0xb90b96f9u}, /* gelu_tanh(-0x1.ee670ap+1): 2^-49.4 relative */
    {F_GELU_TANH, 0xc0d3541cu, 0xaa69e369u}, /* gelu_tanh(-0x1.a6a838p+2): 2^-49.3 relative */
    {F_GELU_TANH, 0x40878b38u, 0x40878b0bu}, /* gelu_tanh(0x1.0f167p+2): 2^-49.2 relative */
    {F_GELU_TANH, 0xc0a103efu, 0xb4466f4au}, /* gelu_tanh(-0x1.4207dep+2): 2^-48.1 relative */
    {F_SELU, 0xbd6860bbu, 0xbdc695d4u}, /* selu(-0x1.d0c176p-5): 2^-55.4 relative */
    {F_SELU, 0xba31e4aeu, 0xba9c52f0u}, /* selu(-0x1.63c95cp-11): 2^-54.6 relative */
    {F_SELU, 0xb8cc3d34u, 0xb933870eu}, /* selu(-0x1.987a68p-14): 2^-53.2 relative */
    {F_SELU, 0xba9b669eu, 0xbb08862du}, /* selu(-0x1.36cd3cp-10): 2^-51.6 relative */
    {F_SELU, 0xaae1210du, 0xab45e651u}, /* selu(-0x1.c2421ap-42): 2^-51.2 relative */
    {F_SELU, 0xb875972fu, 0xb8d7e147u}, /* selu(-0x1.eb2e5ep-15): 2^-51.1 relative */
    {F_SELU, 0xbcfb0cc4u, 0xbd59568au}, /* selu(-0x1.f61988p-6): 2^-51.0 relative */
    {F_SELU, 0xb83b89abu, 0xb8a4d9f0u}, /* selu(-0x1.771356p-15): 2^-50.6 relative */
    {F_SELU, 0xb008bc46u, 0xb07064fdu}, /* selu(-0x1.11788cp-31): 2^-50.3 relative */
    {F_SELU, 0xbfd8c2cau, 0xbfb7a7e5u}, /* selu(-0x1.b18594p+0): 2^-50.0 relative */
    {F_SELU, 0xbf10d90au, 0xbf427a2au}, /* selu(-0x1.21b214p-1): 2^-49.7 relative */
    {F_SELU, 0xaf23a9acu, 0xaf8fde23u}, /* selu(-0x1.475358p-33): 2^-49.6 relative */
    /* silu's structured cases below 2^-11: x/2 + x^2/4 on a midpoint */
    {F_SILU, 0xb3800000u, 0xb3000000u}, /* silu(-0x1p-24): 2^-76.6 relative */
    {F_SILU, 0x35400000u, 0x34c00004u}, /* silu(0x1.8p-21): 2^-65.8 relative */
};

/* Values checked against MPFR and the boundaries where results change. */
static const uint32_t known[][3] = {
    {F_LOG, 0x3f800000u, 0x00000000u},     /* log(1) = +0 */
    {F_LOG, 0x40000000u, 0x3f317218u},     /* log(2) */
    {F_LOG, 0x3f7fffffu, 0xb3800000u},     /* log(1 - 2^-24) = -2^-24 - 2^-49 - ... */
    {F_LOG, 0x3f800001u, 0x33ffffffu},     /* log(1 + 2^-23) */
    {F_LOG, 0x00000001u, 0xc2ce8ed0u},     /* log of the smallest subnormal */
    {F_LOG, 0x7f7fffffu, 0x42b17218u},     /* log(FLT_MAX) */
    {F_TANH, 0x3f800000u, 0x3f42f7d6u},    /* tanh(1) */
    {F_TANH, 0x41102cb4u, 0x3f800000u},    /* tanh(9.0109) = 1 */
    {F_TANH, 0x41102cb3u, 0x3f7fffffu},    /* its predecessor: below 1 */
    {F_TANH, 0x39800000u, 0x39800000u},    /* tanh(2^-12) rounds to 2^-12 */
    {F_TANH, 0x00000001u, 0x00000001u},    /* tanh(2^-149) */
    {F_SIGMOID, 0x00000000u, 0x3f000000u}, /* sigmoid(0) = 1/2 */
    {F_SIGMOID, 0x3f800000u, 0x3f3b26a8u}, /* sigmoid(1) */
    {F_SIGMOID, 0x418aa123u, 0x3f800000u}, /* sigmoid(17.33) = 1 */
    {F_SIGMOID, 0x418aa122u, 0x3f7fffffu}, /* its predecessor: below 1 */
    {F_SIGMOID, 0xc2cff1b5u, 0x00000000u}, /* sigmoid(-103.97) underflows to 0 */
    {F_SIGMOID, 0xc2cff1b4u, 0x00000001u}, /* its successor: the smallest subnormal */
    {F_SIGMOID, 0xc2aeac50u, 0x007fffe6u}, /* sigmoid(-87.34): subnormal */
    {F_ERF, 0x3f800000u, 0x3f57bb3du},     /* erf(1) */
    {F_ERF, 0x407ad445u, 0x3f800000u},     /* erf(3.9192) = 1 */
    {F_ERF, 0x407ad444u, 0x3f7fffffu},     /* its predecessor: below 1 */
    {F_ERF, 0x00000001u, 0x00000001u},     /* erf(2^-149) = 2^-149 (2/sqrt(pi) 2^-149 rounds down) */
    {F_ERF, 0x00000002u, 0x00000002u},     /* erf(2^-148) */
    {F_ERF, 0x00000007u, 0x00000008u},     /* erf(7 2^-149) = 7.9 2^-149 */
    {F_EXPM1, 0x00000001u, 0x00000001u},   /* expm1(2^-149) = 2^-149 */
    {F_EXPM1, 0x80000000u, 0x80000000u},   /* expm1(-0) = -0 */
    {F_EXPM1, 0x2edbe6ffu, 0x2edbe6ffu},   /* expm1(1e-10): exp(x) - 1 gives 0 */
    {F_EXPM1, 0x3f800000u, 0x3fdbf0a9u},   /* expm1(1) */
    {F_EXPM1, 0xc18aa123u, 0xbf800000u},   /* expm1(-17.33) = -1 */
    {F_EXPM1, 0xc18aa122u, 0xbf7fffffu},   /* its successor: above -1 */
    {F_EXPM1, 0x42b17217u, 0x7f7fff84u},   /* expm1(88.72): the largest finite */
    {F_EXPM1, 0x42b17218u, 0x7f800000u},   /* its successor overflows */
    {F_EXPM1, 0xff800000u, 0xbf800000u},   /* expm1(-inf) = -1 */
    {F_SELU, 0x3f800000u, 0x3f867d5fu},   /* selu(1) = gamma */
    {F_SELU, 0x40400000u, 0x4049bc0eu},   /* selu(3): 3 gamma is a midpoint, to even */
    {F_SELU, 0x00000000u, 0x00000000u},   /* selu(+0) = +0 */
    {F_SELU, 0x80000000u, 0x80000000u},   /* selu(-0) = -0 */
    {F_SELU, 0xbf800000u, 0xbf8e4016u},   /* selu(-1) */
    {F_SELU, 0xc1200000u, 0xbfe106c9u},   /* selu(-10) */
    {F_SELU, 0xb2800000u, 0xb2e10966u},   /* selu(-2^-26) */
    {F_SELU, 0x80000001u, 0x80000002u},   /* selu(-2^-149) = -1.758 2^-149 */
    {F_SELU, 0x80000003u, 0x80000005u},   /* selu(-3 2^-149) = -5.27 2^-149 */
    {F_SELU, 0xc18671ffu, 0xbfe10966u},   /* selu(-16.805662) = -gamma alpha rounded */
    {F_SELU, 0xc18671feu, 0xbfe10965u},   /* its successor: above */
    {F_SELU, 0xff800000u, 0xbfe10966u},   /* selu(-inf) = -gamma alpha rounded */
    {F_SELU, 0x7f73a597u, 0x7f7fffffu},   /* selu(3.24e38): the largest finite */
    {F_SELU, 0x7f73a598u, 0x7f800000u},   /* its successor overflows */
    {F_SELU, 0x7f800000u, 0x7f800000u},   /* selu(inf) = inf */
    {F_SOFTPLUS, 0x00000000u, 0x3f317218u}, /* softplus(0) = log 2 */
    {F_SOFTPLUS, 0xc1a00000u, 0x310da433u}, /* softplus(-20): log(exp(x) + 1) gives 0 */
    {F_SOFTPLUS, 0x42c80000u, 0x42c80000u}, /* softplus(100) = 100: log(exp(x) + 1) gives inf */
    {F_SOFTPLUS, 0xc2cff1b5u, 0x00000000u}, /* softplus(-103.97) underflows to 0 */
    {F_SOFTPLUS, 0xc2cff1b4u, 0x00000001u}, /* its successor: the smallest subnormal */
    {F_SOFTPLUS, 0x7f800000u, 0x7f800000u}, /* softplus(inf) = inf */
    {F_SOFTPLUS, 0xff800000u, 0x00000000u}, /* softplus(-inf) = +0 */
    {F_SOFTSIGN, 0x3f800000u, 0x3f000000u}, /* softsign(1) = 1/2 */
    {F_SOFTSIGN, 0x4c000000u, 0x3f800000u}, /* softsign(2^25) = 1 - 2^-25 + 2^-50: rounds to 1 */
    {F_SOFTSIGN, 0x4bffffffu, 0x3f7fffffu}, /* softsign(2^25 - 2): below 1 */
    {F_SOFTSIGN, 0xff800000u, 0xbf800000u}, /* softsign(-inf) = -1 */
    {F_SILU, 0x00000001u, 0x00000001u},   /* silu(2^-149) = 2^-150 + 2^-300: rounds up */
    {F_SILU, 0x80000001u, 0x80000000u},   /* silu(-2^-149) = -2^-150 + 2^-300: rounds to -0 */
    {F_SILU, 0x00000003u, 0x00000002u},   /* silu(3 2^-149) = 1.5 2^-149 + ...: 2^-148 */
    {F_SILU, 0x80000003u, 0x80000001u},   /* silu(-3 2^-149) = -1.5 2^-149 + ...: -2^-149 */
    {F_SILU, 0x34000000u, 0x33800000u},   /* silu(2^-23) = 2^-24 + 2^-48 - 2^-97.6: below */
    {F_SILU, 0x80000000u, 0x80000000u},   /* silu(-0) = -0 */
    {F_SILU, 0xff800000u, 0x80000000u},   /* silu(-inf) = -0 */
    {F_GELU, 0x3f800000u, 0x3f57625fu},   /* gelu(1) */
    {F_GELU, 0xbf800000u, 0xbe227686u},   /* gelu(-1) */
    {F_GELU, 0xc0400000u, 0xbb84b34cu},   /* gelu(-3): (x/2)(1 + erf(x/sqrt2)) loses 9 bits */
    {F_GELU, 0xc1200000u, 0x9ab83c9bu},   /* gelu(-10) = -7.6e-23: the formula gives -0 */
    {F_GELU, 0xc1525706u, 0x80800054u},   /* gelu(-13.146245): the last normal result */
    {F_GELU, 0xc1525707u, 0x807fffebu},   /* its successor: subnormal */
    {F_GELU, 0xc165b274u, 0x80000001u},   /* gelu(-14.356067): -2^-149 */
    {F_GELU, 0xc165b275u, 0x80000000u},   /* its successor rounds to -0 */
    {F_GELU, 0xc1680000u, 0x80000000u},   /* gelu(-14.5) = -0 */
    {F_GELU, 0x40ab1ed8u, 0x40ab1ed7u},   /* gelu(5.3475151): below x */
    {F_GELU, 0x40ab1ed9u, 0x40ab1ed9u},   /* its successor: x */
    {F_GELU, 0x00000001u, 0x00000001u},   /* gelu(2^-149) = 2^-150 + 2^-298/sqrt(2 pi): up */
    {F_GELU, 0x80000001u, 0x80000000u},   /* gelu(-2^-149) = -2^-150 + ...: rounds to -0 */
    {F_GELU, 0x80000003u, 0x80000001u},   /* gelu(-3 2^-149) = -1.5 2^-149 + ...: -2^-149 */
    {F_GELU, 0x80000000u, 0x80000000u},   /* gelu(-0) = -0 */
    {F_GELU, 0xff800000u, 0x80000000u},   /* gelu(-inf) = -0 */
    {F_GELU, 0x7f800000u, 0x7f800000u},   /* gelu(inf) = inf */
    {F_GELU, 0x7f7fffffu, 0x7f7fffffu},   /* gelu(FLT_MAX) = FLT_MAX */
    {F_GELU_TANH, 0x3f800000u, 0x3f57585cu}, /* gelu_tanh(1) */
    {F_GELU_TANH, 0xbf800000u, 0xbe229e91u}, /* gelu_tanh(-1) */
    {F_GELU_TANH, 0xc0400000u, 0xbb6e6150u}, /* gelu_tanh(-3) */
    {F_GELU_TANH, 0xc1200000u, 0x8223e47fu}, /* gelu_tanh(-10) = -1.2e-37: ONNX's formula gives -0 */
    {F_GELU_TANH, 0xc1219c35u, 0x808000b2u}, /* gelu_tanh(-10.100636): the last normal result */
    {F_GELU_TANH, 0xc1219c36u, 0x807ffff8u}, /* its successor: subnormal */
    {F_GELU_TANH, 0xc12c5579u, 0x80000001u}, /* gelu_tanh(-10.770867): -2^-149 */
    {F_GELU_TANH, 0xc12c557au, 0x80000000u}, /* its successor rounds to -0 */
    {F_GELU_TANH, 0xc1300000u, 0x80000000u}, /* gelu_tanh(-11) = -0 */
    {F_GELU_TANH, 0x409fcff8u, 0x409fcff7u}, /* gelu_tanh(4.9941368): below x */
    {F_GELU_TANH, 0x409fcff9u, 0x409fcff9u}, /* its successor: x */
    {F_GELU_TANH, 0x40c00001u, 0x40c00001u}, /* above 6 (selected): x */
    {F_GELU_TANH, 0x00000001u, 0x00000001u}, /* gelu_tanh(2^-149) = 2^-150 + 2^-298/sqrt(2 pi): up */
    {F_GELU_TANH, 0x80000001u, 0x80000000u}, /* gelu_tanh(-2^-149): rounds to -0 */
    {F_GELU_TANH, 0x80000003u, 0x80000001u}, /* gelu_tanh(-3 2^-149) = -1.5 2^-149 + ...: -2^-149 */
    {F_GELU_TANH, 0x80000000u, 0x80000000u}, /* gelu_tanh(-0) = -0 */
    {F_GELU_TANH, 0xff800000u, 0x80000000u}, /* gelu_tanh(-inf) = -0 */
    {F_GELU_TANH, 0x7f800000u, 0x7f800000u}, /* gelu_tanh(inf) = inf */
    {F_GELU_TANH, 0x7f7fffffu, 0x7f7fffffu}, /* gelu_tanh(FLT_MAX) = FLT_MAX */
};

/* the function of each row, correctly rounded by the reference */
static uint32_t ref_bits(int f, uint32_t x) {
  double r = wc__ref_crf(fns[f].op, f32_of(x), 24, -126, 127);
  return r != r ? 0x7fc00000u : bits_of((float)r);
}

static void test_crmath_matches_the_hardest_cases_and_known_values(void **state) {
  (void)state;
  for (size_t i = 0; i < sizeof hardest / sizeof hardest[0]; i++) {
    int f = (int)hardest[i][0];
    if (fn_bits(f, hardest[i][1]) != hardest[i][2])
      print_message("%s(%a): expected 0x%08x, got 0x%08x\n", fns[f].name, (double)f32_of(hardest[i][1]),
                    (unsigned)hardest[i][2], (unsigned)fn_bits(f, hardest[i][1]));
    assert_int_equal(fn_bits(f, hardest[i][1]), hardest[i][2]);
    assert_int_equal(ref_bits(f, hardest[i][1]), hardest[i][2]);
  }
  for (size_t i = 0; i < sizeof known / sizeof known[0]; i++) {
    int f = (int)known[i][0];
    if (fn_bits(f, known[i][1]) != known[i][2] || ref_bits(f, known[i][1]) != known[i][2])
      print_message("%s(%a): expected 0x%08x, got 0x%08x, reference 0x%08x\n", fns[f].name,
                    (double)f32_of(known[i][1]), (unsigned)known[i][2],
                    (unsigned)fn_bits(f, known[i][1]), (unsigned)ref_bits(f, known[i][1]));
    assert_int_equal(fn_bits(f, known[i][1]), known[i][2]);
    assert_int_equal(ref_bits(f, known[i][1]), known[i][2]);
  }
}

static void test_crmath_of_special_values(void **state) {
  (void)state;
  /* +-0: log -inf; tanh, erf keep the sign; sigmoid 1/2 */
  assert_int_equal(fn_bits(F_LOG, 0x00000000u), 0xff800000u);
  assert_int_equal(fn_bits(F_LOG, 0x80000000u), 0xff800000u);
  assert_int_equal(fn_bits(F_TANH, 0x80000000u), 0x80000000u);
  assert_int_equal(fn_bits(F_ERF, 0x80000000u), 0x80000000u);
  assert_int_equal(fn_bits(F_SIGMOID, 0x80000000u), 0x3f000000u);
  /* +-inf */
  assert_int_equal(fn_bits(F_LOG, 0x7f800000u), 0x7f800000u);
  assert_int_equal(fn_bits(F_LOG, 0xff800000u), 0x7fc00000u);
  assert_int_equal(fn_bits(F_TANH, 0x7f800000u), 0x3f800000u);
  assert_int_equal(fn_bits(F_TANH, 0xff800000u), 0xbf800000u);
  assert_int_equal(fn_bits(F_ERF, 0x7f800000u), 0x3f800000u);
  assert_int_equal(fn_bits(F_ERF, 0xff800000u), 0xbf800000u);
  assert_int_equal(fn_bits(F_SIGMOID, 0x7f800000u), 0x3f800000u);
  assert_int_equal(fn_bits(F_SIGMOID, 0xff800000u), 0x00000000u);
  /* log of a negative: the canonical quiet NaN, in every format */
  assert_int_equal(fn_bits(F_LOG, 0xbf800000u), 0x7fc00000u);
  assert_int_equal(fn_bits(F_LOG, 0x80000001u), 0x7fc00000u);
  assert_int_equal(fn_bits(F_LOG, 0xff7fffffu), 0x7fc00000u);
  assert_int_equal(wc_log_f16(0xbc00u), 0x7e00u);
  assert_int_equal(wc_log_bf16(0xbf80u), 0x7fc0u);
  assert_int_equal(wc_log_f16(0x8000u), 0xfc00u);
  assert_int_equal(wc_log_bf16(0x7f80u), 0x7f80u);
  /* sinh keeps the sign of +-0 and +-inf, cosh is 1 and +inf there */
  assert_int_equal(fn_bits(F_SINH, 0x80000000u), 0x80000000u);
  assert_int_equal(fn_bits(F_COSH, 0x80000000u), 0x3f800000u);
  assert_int_equal(fn_bits(F_SINH, 0xff800000u), 0xff800000u);
  assert_int_equal(fn_bits(F_COSH, 0xff800000u), 0x7f800000u);
  assert_int_equal(wc_sinh_f16(0xfc00u), 0xfc00u);
  assert_int_equal(wc_cosh_bf16(0xff80u), 0x7f80u);
  /* the circular functions: infinities are outside the domain, zeros keep their sign */
  assert_int_equal(fn_bits(F_SIN, 0x7f800000u), 0x7fc00000u);
  assert_int_equal(fn_bits(F_COS, 0xff800000u), 0x7fc00000u);
  assert_int_equal(fn_bits(F_TAN, 0x7f800000u), 0x7fc00000u);
  assert_int_equal(fn_bits(F_SIN, 0x80000000u), 0x80000000u);
  assert_int_equal(fn_bits(F_TAN, 0x80000000u), 0x80000000u);
  assert_int_equal(fn_bits(F_COS, 0x80000000u), 0x3f800000u);
  assert_int_equal(wc_sin_f16(0x7c00u), 0x7e00u);
  assert_int_equal(wc_cos_bf16(0xff80u), 0x7fc0u);
  /* their inverses: the edges of the domain, and beyond it the canonical NaN */
  assert_int_equal(fn_bits(F_ASIN, 0x3f800000u), 0x3fc90fdbu); /* pi/2 */
  assert_int_equal(fn_bits(F_ASIN, 0xbf800000u), 0xbfc90fdbu);
  assert_int_equal(fn_bits(F_ACOS, 0x3f800000u), 0x00000000u);
  assert_int_equal(fn_bits(F_ACOS, 0xbf800000u), 0x40490fdbu); /* pi */
  assert_int_equal(fn_bits(F_ASIN, 0x3f800001u), 0x7fc00000u);
  assert_int_equal(fn_bits(F_ACOS, 0xff800000u), 0x7fc00000u);
  assert_int_equal(fn_bits(F_ATAN, 0x7f800000u), 0x3fc90fdbu);
  assert_int_equal(fn_bits(F_ATAN, 0xff800000u), 0xbfc90fdbu);
  assert_int_equal(fn_bits(F_ASIN, 0x80000000u), 0x80000000u);
  assert_int_equal(fn_bits(F_ATAN, 0x80000000u), 0x80000000u);
  assert_int_equal(wc_acos_f16(0x3c00u), 0x0000u);
  assert_int_equal(wc_asin_bf16(0x4000u), 0x7fc0u);
  /* the inverse hyperbolic functions */
  assert_int_equal(fn_bits(F_ASINH, 0xff800000u), 0xff800000u);
  assert_int_equal(fn_bits(F_ASINH, 0x80000000u), 0x80000000u);
  assert_int_equal(fn_bits(F_ACOSH, 0x3f800000u), 0x00000000u);
  assert_int_equal(fn_bits(F_ACOSH, 0x7f800000u), 0x7f800000u);
  assert_int_equal(fn_bits(F_ACOSH, 0x3f7fffffu), 0x7fc00000u);
  assert_int_equal(fn_bits(F_ACOSH, 0x00000000u), 0x7fc00000u);
  assert_int_equal(fn_bits(F_ACOSH, 0xff800000u), 0x7fc00000u);
  assert_int_equal(fn_bits(F_ATANH, 0x3f800000u), 0x7f800000u);
  assert_int_equal(fn_bits(F_ATANH, 0xbf800000u), 0xff800000u);
  assert_int_equal(fn_bits(F_ATANH, 0x3f800001u), 0x7fc00000u);
  assert_int_equal(fn_bits(F_ATANH, 0x80000000u), 0x80000000u);
  assert_int_equal(wc_atanh_f16(0xbc00u), 0xfc00u);
  assert_int_equal(wc_acosh_bf16(0x3f00u), 0x7fc0u);
  /* subnormal inputs */
  assert_int_equal(fn_bits(F_TANH, 0x80000001u), 0x80000001u);
  assert_int_equal(fn_bits(F_SINH, 0x80000001u), 0x80000001u);
  assert_int_equal(fn_bits(F_COSH, 0x80000001u), 0x3f800000u);
  assert_int_equal(fn_bits(F_SIGMOID, 0x00000001u), 0x3f000000u);
  assert_int_equal(fn_bits(F_SIN, 0x80000001u), 0x80000001u);
  assert_int_equal(fn_bits(F_TAN, 0x00000001u), 0x00000001u);
  assert_int_equal(fn_bits(F_ASIN, 0x00000001u), 0x00000001u);
  assert_int_equal(fn_bits(F_ATAN, 0x80000001u), 0x80000001u);
  assert_int_equal(fn_bits(F_ASINH, 0x00000001u), 0x00000001u);
  assert_int_equal(fn_bits(F_ATANH, 0x80000001u), 0x80000001u);
  assert_int_equal(fn_bits(F_ACOS, 0x00000001u), 0x3fc90fdbu);
  assert_int_equal(fn_bits(F_COS, 0x00000001u), 0x3f800000u);
}

static void test_crmath_keeps_a_nan_quieted(void **state) {
  (void)state;
  static const uint32_t nans[] = {0x7fc00000u, 0xffc00000u, 0x7f800001u, 0xff812345u,
                                  0x7fbfffffu, 0x7fffffffu};
  for (int f = 0; f < N_FUNCS; f++) {
    for (size_t i = 0; i < sizeof nans / sizeof nans[0]; i++)
      assert_int_equal(fn_bits(f, nans[i]), nans[i] | 0x00400000u);
    /* the half types as their conversions give a quieted float NaN */
    assert_int_equal(f16_fn(f, 0x7d01u), wc_f32_to_f16(wc_quiet_f32(wc_f16_to_f32(0x7d01u))));
    assert_int_equal(f16_fn(f, 0xfe00u), 0xfe00u);
    assert_int_equal(bf16_fn(f, 0xff81u), 0xffc0u);
    assert_int_equal(bf16_fn(f, 0x7f81u), 0x7fc0u);
  }
}

/* The monotone functions (fns[].order): on a sample of neighbouring floats the
   results are in order (where both are defined). */
static void test_crmath_is_monotone_across_the_range(void **state) {
  (void)state;
  for (int f = 0; f < N_FUNCS; f++)
    for (int i = 0; fns[f].order != 0 && i < 100000; i++) {
      uint32_t x = next32();
      float    a = f32_of(x), b = f32_of(x + 1u), ra, rb;
      if (a != a || b != b) continue;
      if (fns[f].order == 2) { /* neighbours: one sign */
        a = fabsf(a);
        b = fabsf(b);
      }
      ra = f32_fn(f, a);
      rb = f32_fn(f, b);
      if (ra != ra || rb != rb) continue; /* outside the domain */
      if ((a < b) == (fns[f].order != -1)) assert_true(ra <= rb);
      else assert_true(ra >= rb);
    }
}

/* The formats: significand bits, emin, emax. */
static const int fmt[3][3] = {{24, -126, 127}, {11, -14, 15}, {8, -126, 127}};

/* Every float16 and bfloat16 input: each correctly rounded straight from f(x)
   (the reference), not through float; and how often the float result, rounded
   again, would differ (double rounding). */
static void test_crmath_on_float16_and_bfloat16_is_correctly_rounded_everywhere(void **state) {
  (void)state;
  for (int f = 0; f < N_FUNCS; f++)
    for (int half = 0; half < 2; half++) {
      unsigned long wrong = 0, twice = 0;
      for (uint32_t h = 0; h < 65536u; h++) {
        float    x = half ? wc_bf16_to_f32((uint16_t)h) : wc_f16_to_f32((uint16_t)h);
        uint16_t got = half ? bf16_fn(f, (uint16_t)h) : f16_fn(f, (uint16_t)h);
        float    fr = f32_fn(f, x);
        uint16_t via_float = half ? wc_f32_to_bf16(fr) : wc_f32_to_f16(fr), want;
        if (x != x) want = via_float; /* NaN: the float rule, quieted */
        else {
          double r = wc__ref_crf(fns[f].op, x, fmt[1 + half][0], fmt[1 + half][1], fmt[1 + half][2]);
          float  rf = r != r ? f32_of(0x7fc00000u) : (float)r; /* exact: r is in the format */
          want = half ? wc_f32_to_bf16(rf) : wc_f32_to_f16(rf);
        }
        if (got != want && wrong++ < 5)
          print_message("%s(0x%04x): expected 0x%04x, got 0x%04x\n", fns[f].name, (unsigned)h, want, got);
        if (via_float != want) twice++;
      }
      print_message("%s on %s: %lu of 65536 wrong; rounding the float result again would differ "
                    "on %lu\n", fns[f].name, half ? "bfloat16" : "float16", wrong, twice);
      assert_int_equal(wrong, 0);
    }
}

/* The reference's two paths (long double, and the exact series it falls back
   on) agree on a sample of every format, and on the hardest cases. */
static void test_crmath_reference_paths_agree(void **state) {
  (void)state;
  for (int f = 0; f < N_FUNCS; f++) {
    for (int i = 0; i < 300; i++) {
      uint32_t   u = next32();
      const int *q = fmt[i % 3];
      float      x;
      u = (u & 0x80ffffffu) | ((uint32_t)(90 + (u >> 24) % 45) << 23); /* |x| in [2^-37, 2^7) */
      x = f32_of(u);
      if (f == F_LOG) x = fabsf(x);
      if ((f == F_EXP && (x > 89.0f || x < -104.0f)) || ((f == F_SINH || f == F_COSH) && fabsf(x) > 89.0f))
        continue; /* the exact paths: no overflow */
      {
        double r = wc__ref_crf(fns[f].op, x, q[0], q[1], q[2]);
        if (r != r || isinf(r)) continue; /* outside the domain, or a pole */
        assert_true(wc__ref_crf_exact(fns[f].op, x, q[0], q[1], q[2]) == r);
      }
    }
  }
  for (size_t i = 0; i < sizeof hardest / sizeof hardest[0]; i++) {
    int f = (int)hardest[i][0];
    assert_int_equal(bits_of((float)wc__ref_crf_exact(fns[f].op, f32_of(hardest[i][1]), 24, -126, 127)),
                     hardest[i][2]);
  }
}

/* wc_cr_odd_ then the conversion or wc_cr_round_p_ round h + l once: against
   rounding h + l to nearest even directly, for pairs at and near midpoints of p
   bits. h = RN(h + l), so no midpoint lies strictly between h and h + l (it
   would be a double nearer h + l): h + l rounds as h unless h is a midpoint,
   which l's sign then decides (a tie, to even, when l = 0). h's rounding is
   exact in long double. */
static double round_exact(double h, double l, int p, int emin) {
  int         e;
  long double a = fabsl((long double)h), q, n, fr;
  frexpl(a, &e);
  e = e - 1 < emin ? emin : e - 1;
  q = ldexpl(1.0L, e - p + 1);
  n = floorl(a / q);
  fr = a / q - n;
  if (fr == 0.5L && l != 0) fr += (l > 0) == (h > 0) ? 0.25L : -0.25L;
  if (fr > 0.5L || (fr == 0.5L && fmodl(n, 2.0L) != 0)) n += 1;
  return (double)(h < 0 ? -n * q : n * q);
}

static void test_crmath_rounding_steps_round_once(void **state) {
  (void)state;
  for (int i = 0; i < 200000; i++) {
    int    p = i % 3 == 0 ? 24 : i % 3 == 1 ? 11 : 8, emin = p == 11 ? -14 : -126;
    double m = 1.0 + (double)(next32() & ((1u << (p - 1)) - 1u)) * ldexp(1.0, 1 - p); /* p bits */
    double h = ldexp(m + ldexp(1.0, -p), (int)(next32() % 40) - 20);                  /* a midpoint */
    double l = ldexp((double)(int32_t)next32(), -31) * ldexp(h, -54);                 /* |l| <= ulp/2 */
    uint64_t hb;
    if (i % 5 == 0) l = i % 10 == 0 ? 0.0 : -0.0;
    if (i % 7 == 0) {                /* or near one: h a few units of the last place off */
      memcpy(&hb, &h, 8);
      hb += (uint64_t)(next32() % 5) - 2u;
      memcpy(&h, &hb, 8);
    }
    if (i & 8) {
      h = -h;
      l = -l;
    }
    {
      double w = wc_cr_odd_(h, l), want = round_exact(h, l, p, emin);
      double got = p == 24 ? (double)(float)w : wc_cr_round_p_(w, p, emin);
      if (got != want)
        print_message("p=%d h=%a l=%a: expected %a, got %a\n", p, h, l, want, got);
      assert_true(got == want);
    }
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_crmath_matches_the_hardest_cases_and_known_values),
      cmocka_unit_test(test_crmath_of_special_values),
      cmocka_unit_test(test_crmath_keeps_a_nan_quieted),
      cmocka_unit_test(test_crmath_is_monotone_across_the_range),
      cmocka_unit_test(test_crmath_on_float16_and_bfloat16_is_correctly_rounded_everywhere),
      cmocka_unit_test(test_crmath_reference_paths_agree),
      cmocka_unit_test(test_crmath_rounding_steps_round_once),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
