/* crmath_variant.c: the correctly rounded functions of crmath_funcs.h
   (wherec/exp.h, crmath.h, hyperbolic.h, trig.h, inverse_trig.h,
   inverse_hyperbolic.h) over arrays, compiled on their own under the flags a build names (VARIANT is
   the functions' prefix): loops the compiler vectorizes and contracts as it
   likes, for crmath_exhaustive.c to compare bit for bit. The functions with a
   raw form run as a generated kernel runs them (lower.c's plan_nan_redo):
   blocks of raw results, each block again with the exact form when one is a
   NaN. */
#include <stddef.h>
#include <string.h>

#include <wherec/kernel.h>

#include "crmath_funcs.h"

#define CAT_(a, b) a##b
#define CAT(a, b)  CAT_(a, b)
#define LOOP(name, NAME)                                                    \
  void CAT(VARIANT, _##name)(const float *x, float *o, size_t n);       \
  void CAT(VARIANT, _##name)(const float *x, float *o, size_t n) {      \
    for (size_t i = 0; i < n; i++) o[i] = wc_##name##_f32(x[i]);        \
  }
#define BLOCK 64
#define RAW_LOOP(name, NAME)                                                \
  void CAT(VARIANT, _##name)(const float *x, float *o, size_t n);       \
  void CAT(VARIANT, _##name)(const float *x, float *o, size_t n) {      \
    size_t i = 0, l;                                                    \
    for (; i + BLOCK <= n; i += BLOCK) {                                \
      float block[BLOCK];                                               \
      int   any_nan = 0;                                                \
      for (l = 0; l < BLOCK; l++) {                                     \
        block[l] = wc_##name##_raw_f32(x[i + l]);                       \
        any_nan |= block[l] != block[l];                                \
      }                                                                 \
      if (any_nan)                                                      \
        for (l = 0; l < BLOCK; l++) o[i + l] = wc_##name##_f32(x[i + l]); \
      else                                                              \
        memcpy(o + i, block, sizeof block);                             \
    }                                                                   \
    for (; i < n; i++) o[i] = wc_##name##_f32(x[i]);                    \
  }
CRMATH_FUNCS(LOOP, RAW_LOOP)
