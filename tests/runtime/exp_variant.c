/* exp_variant.c: wc_exp_f32 compiled on its own under the flags a build names
   (EXP_VARIANT is the function's name), so builds with contraction can be compared. */
#include <wherec/kernel.h>

float EXP_VARIANT(float x);
float EXP_VARIANT(float x) { return wc_exp_f32(x); }
