/* crmath_variant.c: exp, log, tanh, sigmoid and erf (wherec/exp.h, wherec/crmath.h)
   over arrays, compiled on their own under the flags a build names (VARIANT is
   the functions' prefix): loops the compiler vectorizes and contracts as it
   likes, for crmath_exhaustive.c to compare bit for bit. */
#include <stddef.h>

#include <wherec/kernel.h>

#define CAT_(a, b) a##b
#define CAT(a, b)  CAT_(a, b)
#define LOOP(name)                                                      \
  void CAT(VARIANT, _##name)(const float *x, float *o, size_t n);       \
  void CAT(VARIANT, _##name)(const float *x, float *o, size_t n) {      \
    for (size_t i = 0; i < n; i++) o[i] = wc_##name##_f32(x[i]);        \
  }
LOOP(exp)
LOOP(log)
LOOP(tanh)
LOOP(sigmoid)
LOOP(erf)
