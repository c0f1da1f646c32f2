/* reference.h: naive helpers of the reference evaluator (reference.c), shared
   only with reference_eval.c; nothing outside src/ref/ includes this. */
#ifndef WHEREC_SRC_REF_REFERENCE_H
#define WHEREC_SRC_REF_REFERENCE_H

#include <wherec/wherec.h>

/* Broadcast offset of a multi-index, multi-index of a flat index by division,
   and the non-zero test of one element. */
int64_t wc__ref_offset(const wc_tensor *t, int r, const int64_t *idx);
void    wc__ref_unflatten(int64_t k, int r, const int64_t *shape, int64_t *idx);
bool    wc__ref_truth(const wc_tensor *t, int64_t k);

/* exp(x) rounded to nearest even with p significand bits and normal exponents
   [emin, emax] (subnormals below), as a double (ref_exp.c; x not NaN unless
   returned as is). _exact: always the exact series (tests check the two agree). */
double wc__ref_exp(float x, int p, int emin, int emax);
double wc__ref_exp_exact(float x, int p, int emin, int emax);

/* exp, log, tanh, sigmoid, erf, the operations of the table's domain CRF,
   the same way (ref_math.c): NaN for the log of a negative, +-inf where the
   value is; _exact: always the exact series (tests check the two agree). */
double wc__ref_crf(wc_opcode op, float x, int p, int emin, int emax);
double wc__ref_crf_exact(wc_opcode op, float x, int p, int emin, int emax);

/* sin, cos, tan, asin, acos, atan, asinh, acosh, atanh (op WC_OP_SIN to
   WC_OP_ATANH; NaN for any other op) the same way (ref_trig.c): NaN for x outside the domain (sin(inf), asin(2), acosh(0.5),
   atanh(3)), +-inf where the value is (atanh(+-1), asinh(+-inf)); _exact:
   always the exact path (fixed point). */
double wc__ref_trig(wc_opcode op, float x, int p, int emin, int emax);
double wc__ref_trig_exact(wc_opcode op, float x, int p, int emin, int emax);

/* pow(x, y) the same way (ref_math.c), for x and y not NaN: C's powl special
   values, NaN for a negative x and a non-integer y; _exact: always the exact
   path (integer arithmetic for exact results, else fixed point). */
double wc__ref_pow(float x, float y, int p, int emin, int emax);
double wc__ref_pow_exact(float x, float y, int p, int emin, int emax);

#endif
