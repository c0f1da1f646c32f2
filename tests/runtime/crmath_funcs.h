/* crmath_funcs.h: the correctly rounded functions of one argument that the
   exhaustive checker runs, one row each: RAW(name, NAME) for those with a raw
   form (wherec/exp.h: wc_<name>_raw_f32, run in blocks as generated kernels run
   it), X(name, NAME) for the others. */
#ifndef WHEREC_TESTS_CRMATH_FUNCS_H
#define WHEREC_TESTS_CRMATH_FUNCS_H

#define CRMATH_FUNCS(X, RAW)                                                                     \
  RAW(exp, EXP) RAW(log, LOG) RAW(tanh, TANH) RAW(sigmoid, SIGMOID) RAW(erf, ERF) RAW(sinh, SINH) \
  RAW(cosh, COSH) RAW(sin, SIN) RAW(cos, COS) RAW(tan, TAN) RAW(asin, ASIN) RAW(acos, ACOS) RAW(atan, ATAN)    \
  RAW(asinh, ASINH) RAW(acosh, ACOSH) RAW(atanh, ATANH) RAW(expm1, EXPM1) RAW(selu, SELU) RAW(softplus, SOFTPLUS) \
  X(softsign, SOFTSIGN) RAW(silu, SILU) RAW(mish, MISH) RAW(gelu, GELU) \
  RAW(gelu_tanh, GELU_TANH)

#endif
