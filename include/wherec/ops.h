/* wherec/ops.h: element operations shared by generated code and the interpreter:
   float16/bfloat16 conversions, selects, arithmetic, comparisons and casts. */
#ifndef WHEREC_OPS_H
#define WHEREC_OPS_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "dtypes.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The small element operations (selects, arithmetic, compares) are inlined where
   they are used whatever the caller's size: the interpreter's per-dtype switches are
   large enough that gcc would otherwise call them per element and not vectorize. */
#if defined(__GNUC__)
#define WC_INLINE static inline __attribute__((always_inline))
#else
#define WC_INLINE static inline
#endif

/* ---- float16 / bfloat16 <-> float, round to nearest even -------------------
   Integer-only bit manipulation so every compiler and flag set gives the same
   bits; shared by generated code, the interpreter and the reference. */

static inline float wc_bits_to_f32(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static inline uint32_t wc_f32_to_bits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static inline double wc_bits_to_f64(uint64_t u) { double d; memcpy(&d, &u, 8); return d; }

static inline float wc_f16_to_f32(wc_float16 h) {
  uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
  uint32_t exp = (h >> 10) & 0x1fu, man = h & 0x3ffu;
  if (exp == 0x1fu)                                   /* inf / NaN: keep payload */
    return wc_bits_to_f32(sign | 0x7f800000u | (man << 13));
  if (exp == 0) {
    if (man == 0) return wc_bits_to_f32(sign);        /* +-0 */
    exp = 113;                                        /* subnormal: normalize */
    while (!(man & 0x400u)) { man <<= 1; exp--; }
    return wc_bits_to_f32(sign | (exp << 23) | ((man & 0x3ffu) << 13));
  }
  return wc_bits_to_f32(sign | ((exp + 112u) << 23) | (man << 13));
}

static inline wc_float16 wc_f32_to_f16(float f) {
  uint32_t u = wc_f32_to_bits(f);
  uint32_t sign = (u >> 16) & 0x8000u, a = u & 0x7fffffffu;
  if (a > 0x7f800000u) {                              /* NaN: keep the top payload bits (as numpy) */
    uint32_t man = (a >> 13) & 0x3ffu;
    return (wc_float16)(sign | 0x7c00u | (man ? man : 1u));
  }
  if (a >= 0x477ff000u) return (wc_float16)(sign | 0x7c00u); /* rounds to inf */
  if (a < 0x38800000u) {                              /* result subnormal or zero */
    uint32_t shift = 126u - (a >> 23);                /* 14 + (113 - exp) */
    uint32_t man, half, rest, q;
    if (shift > 24u) return (wc_float16)sign;         /* below half the smallest subnormal */
    man = (a & 0x7fffffu) | 0x800000u;
    q = man >> shift;
    half = 1u << (shift - 1u);
    rest = man & ((1u << shift) - 1u);
    if (rest > half || (rest == half && (q & 1u))) q++;
    return (wc_float16)(sign | q);
  }
  a += 0xc8000fffu + ((a >> 13) & 1u);                /* rebias exponent, round to even */
  return (wc_float16)(sign | (a >> 13));
}

static inline float wc_bf16_to_f32(wc_bfloat16 b) { return wc_bits_to_f32((uint32_t)b << 16); }

static inline wc_bfloat16 wc_f32_to_bf16(float f) {
  uint32_t u = wc_f32_to_bits(f);
  if ((u & 0x7fffffffu) > 0x7f800000u)                /* NaN: signed quiet NaN (as ml_dtypes) */
    return (wc_bfloat16)(((u >> 16) & 0x8000u) | 0x7fc0u);
  u += 0x7fffu + ((u >> 16) & 1u);
  return (wc_bfloat16)(u >> 16);
}

/* ---- element operations (README, Semantics) ---------------------------
   wc_<op>_<t>(a, b) for each numeric type t (suffixes i8..i64, u8..u64, f16,
   bf16, f32, f64, b).  Generated code and the interpreter both use these, so
   that they agree bit for bit; the reference evaluator has its own.
   Integers wrap modulo 2^bits; x/0 == 0; INT_MIN / -1 == INT_MIN; abs(INT_MIN)
   == INT_MIN; x % 0 == fmod(x, 0) == 0; INT_MIN % -1 == 0; shifts by a count
   outside [0, bits) give 0 (>> of a negative signed value: -1).  Floats:
   IEEE, no contraction (generated files turn it off); NaN compares false
   except !=; min/max return the NaN (a first, as numpy); + - * / fmod of two
   NaNs give a's, quieted (so every compiler gives one bit pattern); invalid
   operations (sqrt of a negative, fmod(inf, y), fmod(x, 0)) give the
   canonical quiet NaN (positive, top fraction bit only) on every CPU. */

/* where on loaded values, branch-free: a mask from the condition blends the
   bits, so compilers emit vector blends (gcc will not if-convert a float ?:
   under its default -ftrapping-math). wc_sel_<t>(c, a, b) = c ? a : b.
   Written b ^ ((a ^ b) & m): with (a & m) | (b & ~m) clang -O2 widens 8- and
   16-bit lanes to 32 bits (7x slower for uint8, bench gen clang-O2). */
#define WC_SEL_OPS_(s, T, U)                                                   \
  WC_INLINE T wc_sel_##s(bool c, T a, T b) {                               \
    U ua, ub, m = (U)((U)0 - (U)c);                                            \
    memcpy(&ua, &a, sizeof ua); memcpy(&ub, &b, sizeof ub);                   \
    ua = (U)(ub ^ ((ua ^ ub) & m));                                            \
    memcpy(&a, &ua, sizeof a); return a; }
WC_SEL_OPS_(i8, int8_t, uint8_t)
WC_SEL_OPS_(i16, int16_t, uint16_t)
WC_SEL_OPS_(i32, int32_t, uint32_t)
WC_SEL_OPS_(i64, int64_t, uint64_t)
WC_SEL_OPS_(u8, uint8_t, uint8_t)
WC_SEL_OPS_(u16, uint16_t, uint16_t)
WC_SEL_OPS_(u32, uint32_t, uint32_t)
WC_SEL_OPS_(u64, uint64_t, uint64_t)
WC_SEL_OPS_(f16, wc_float16, uint16_t)
WC_SEL_OPS_(bf16, wc_bfloat16, uint16_t)
WC_SEL_OPS_(f32, float, uint32_t)
WC_SEL_OPS_(f64, double, uint64_t)

#define WC_CMP_OPS_(s, T)                                                      \
  WC_INLINE bool wc_eq_##s(T a, T b) { return a == b; }                   \
  WC_INLINE bool wc_ne_##s(T a, T b) { return a != b; }                   \
  WC_INLINE bool wc_lt_##s(T a, T b) { return a < b; }                    \
  WC_INLINE bool wc_le_##s(T a, T b) { return a <= b; }                   \
  WC_INLINE bool wc_gt_##s(T a, T b) { return a > b; }                    \
  WC_INLINE bool wc_ge_##s(T a, T b) { return a >= b; }

/* Wrapping arithmetic through uint64_t: no signed overflow, no promotion to int. */
#define WC_WRAP_OPS_(s, T)                                                     \
  WC_INLINE T wc_add_##s(T a, T b) { return (T)((uint64_t)a + (uint64_t)b); } \
  WC_INLINE T wc_sub_##s(T a, T b) { return (T)((uint64_t)a - (uint64_t)b); } \
  WC_INLINE T wc_mul_##s(T a, T b) { return (T)((uint64_t)a * (uint64_t)b); } \
  WC_INLINE T wc_neg_##s(T a) { return (T)((uint64_t)0 - (uint64_t)a); }  \
  WC_INLINE T wc_min_##s(T a, T b) { return a < b ? a : b; }              \
  WC_INLINE T wc_max_##s(T a, T b) { return a > b ? a : b; }              \
  WC_CMP_OPS_(s, T)

/* Bitwise operations and << on the bits (through uint64_t: no promotion to a
   signed int, no shift of a negative value); a count is read as the
   unsigned value of its bits, so a negative signed count is out of range. */
#define WC_BITS_OPS_(s, T)                                                     \
  WC_INLINE T wc_band_##s(T a, T b) { return (T)((uint64_t)a & (uint64_t)b); } \
  WC_INLINE T wc_bor_##s(T a, T b) { return (T)((uint64_t)a | (uint64_t)b); } \
  WC_INLINE T wc_bxor_##s(T a, T b) { return (T)((uint64_t)a ^ (uint64_t)b); } \
  WC_INLINE T wc_bnot_##s(T a) { return (T)~(uint64_t)a; }               \
  WC_INLINE T wc_shl_##s(T a, T b) {                                       \
    uint64_t c = (uint64_t)b;                                                  \
    return c >= 8 * sizeof(T) ? (T)0 : (T)((uint64_t)a << c); }

#define WC_SINT_OPS_(s, T, TMIN, TMAX)                                         \
  WC_WRAP_OPS_(s, T)                                                           \
  WC_BITS_OPS_(s, T)                                                           \
  static inline T wc_div_##s(T a, T b) {                                       \
    return b == 0 ? (T)0 : b == -1 ? wc_neg_##s(a) : (T)(a / b); }            \
  /* remainder of the truncating division: the dividend's sign (C, fmod) */  \
  static inline T wc_fmod_##s(T a, T b) {                                      \
    return b == 0 || b == -1 ? (T)0 : (T)(a % b); }                           \
  /* the divisor's sign (ONNX Mod, Python): r and b of opposite signs, so     \
     r + b cannot overflow */                                                  \
  static inline T wc_mod_##s(T a, T b) {                                       \
    T r = wc_fmod_##s(a, b);                                                   \
    return r != 0 && (r < 0) != (b < 0) ? (T)(r + b) : r; }                   \
  /* arithmetic >>: sign-extended to 64 bits, so counts from bits to 63 and  \
     beyond all fill with the sign */                                          \
  static inline T wc_shr_##s(T a, T b) {                                       \
    uint64_t c = (uint64_t)b, u = (uint64_t)(int64_t)a, m = (uint64_t)0 - (u >> 63); \
    return (T)(((u ^ m) >> (c > 63 ? 63 : c)) ^ m); }                         \
  /* |a| with |MIN| == MIN, in unsigned arithmetic: gcc 12 reads the form   \
     a < 0 ? -a : a as an abs undefined at MIN, and at -O3 -mavx2 then       \
     miscompiles selects that depend on it (tests/check/abs_of_min.where) */ \
  static inline T wc_abs_##s(T a) {                                            \
    uint64_t u = (uint64_t)a, m = (uint64_t)0 - (u >> 63);                    \
    return (T)((u ^ m) - m); }                                                 \
  /* float -> int: truncate; NaN -> 0; out of range saturates */               \
  static inline T wc_##s##_from_real(double d) {                               \
    return d != d ? (T)0 : d <= (double)(TMIN) ? (T)(TMIN)                    \
         : d >= -(double)(TMIN) ? (T)(TMAX) : (T)d; }                          \
  static inline T wc_##s##_from_sint(int64_t v) { return (T)(uint64_t)v; }    \
  static inline T wc_##s##_from_uint(uint64_t v) { return (T)v; }             \
  static inline int64_t wc_load_##s(T a) { return (int64_t)a; }

#define WC_UINT_OPS_(s, T, TMAX)                                               \
  WC_WRAP_OPS_(s, T)                                                           \
  WC_BITS_OPS_(s, T)                                                           \
  static inline T wc_div_##s(T a, T b) { return b == 0 ? (T)0 : (T)(a / b); } \
  static inline T wc_fmod_##s(T a, T b) { return b == 0 ? (T)0 : (T)(a % b); } \
  static inline T wc_mod_##s(T a, T b) { return wc_fmod_##s(a, b); }          \
  static inline T wc_shr_##s(T a, T b) {                                       \
    uint64_t c = (uint64_t)b;                                                  \
    return c >= 8 * sizeof(T) ? (T)0 : (T)((uint64_t)a >> c); }               \
  static inline T wc_abs_##s(T a) { return a; }                               \
  static inline T wc_##s##_from_real(double d) {                               \
    return d != d || d <= 0.0 ? (T)0 : d >= (double)(TMAX) + 1.0 ? (T)(TMAX) : (T)d; } \
  static inline T wc_##s##_from_sint(int64_t v) { return (T)(uint64_t)v; }    \
  static inline T wc_##s##_from_uint(uint64_t v) { return (T)v; }             \
  static inline uint64_t wc_load_##s(T a) { return (uint64_t)a; }

/* float and double. Compilers assume NaNs never signal, so they may drop a
   quieting step ((float)(double)x, x * 1.0) or commute the operands of + and
   * (which picks the NaN that propagates); the results are pinned down here:
   an arithmetic NaN is always quiet, a's NaN wins over b's, and an invalid
   operation gives the canonical quiet NaN (positive, top fraction bit only),
   not the CPU's default NaN (x86's is negative, ARM's positive). abs and neg
   work on the sign bit, so no folding of -(x + y) can flip a NaN's sign. */
#define WC_REAL_OPS_(s, T, UT, SIGN, INF, QUIET)                               \
  WC_INLINE T wc_quiet_##s(T a) {                                          \
    UT u; memcpy(&u, &a, sizeof u);                                            \
    u |= (UT)((UT)0 - (UT)((u & (UT)~(UT)(SIGN)) > (UT)(INF))) & (UT)(QUIET);  \
    memcpy(&a, &u, sizeof u); return a; }                                      \
  /* the NaN an arithmetic result r of a and b must be: a's, else b's, else   \
     (an invalid operation: inf - inf, 0 * inf, 0 / 0) the canonical one */    \
  WC_INLINE T wc_arith_nan_##s(T a, T b, T r) {                           \
    UT canon = (UT)(INF) | (UT)(QUIET); T c; memcpy(&c, &canon, sizeof c);     \
    return wc_quiet_##s(wc_sel_##s(a != a, a, wc_sel_##s(b != b, b, wc_sel_##s(r != r, c, r)))); } \
  WC_INLINE T wc_add_##s(T a, T b) { return wc_arith_nan_##s(a, b, a + b); } \
  WC_INLINE T wc_sub_##s(T a, T b) { return wc_arith_nan_##s(a, b, a - b); } \
  WC_INLINE T wc_mul_##s(T a, T b) { return wc_arith_nan_##s(a, b, a * b); } \
  WC_INLINE T wc_div_##s(T a, T b) { return wc_arith_nan_##s(a, b, a / b); } \
  /* plain IEEE arithmetic, NaNs as the CPU makes them: the same bits       \
     whenever the result is not a NaN, and whether it is one never depends  \
     on an operand NaN's bits; a generated loop evaluates a block with      \
     these, and redoes the block with the pinned forms if a result is NaN   \
     (lower.c: plan_nan_redo) */                                             \
  WC_INLINE T wc_add_raw_##s(T a, T b) { return a + b; }                  \
  WC_INLINE T wc_sub_raw_##s(T a, T b) { return a - b; }                  \
  WC_INLINE T wc_mul_raw_##s(T a, T b) { return a * b; }                  \
  WC_INLINE T wc_div_raw_##s(T a, T b) { return a / b; }                  \
  WC_INLINE T wc_neg_##s(T a) {                                            \
    UT u; memcpy(&u, &a, sizeof u); u ^= (UT)(SIGN); memcpy(&a, &u, sizeof u); return a; } \
  WC_INLINE T wc_abs_##s(T a) {                                            \
    UT u; memcpy(&u, &a, sizeof u); u &= ~(UT)(SIGN); memcpy(&a, &u, sizeof u); return a; } \
  WC_INLINE T wc_min_##s(T a, T b) { return wc_sel_##s(a < b || a != a, a, b); } \
  WC_INLINE T wc_max_##s(T a, T b) { return wc_sel_##s(a > b || a != a, a, b); } \
  WC_INLINE T wc_##s##_from_real(double d) { return wc_quiet_##s((T)d); }  \
  WC_INLINE T wc_##s##_from_sint(int64_t v) { return (T)v; }              \
  WC_INLINE T wc_##s##_from_uint(uint64_t v) { return (T)v; }             \
  WC_INLINE double wc_load_##s(T a) { return (double)a; }                 \
  WC_CMP_OPS_(s, T)

/* float16 and bfloat16: each operation in float, rounded to nearest even. */
#define WC_HALF_OPS_(s, T, TO, FROM)                                           \
  WC_INLINE T wc_add_##s(T a, T b) { return FROM(wc_add_f32(TO(a), TO(b))); } \
  WC_INLINE T wc_sub_##s(T a, T b) { return FROM(wc_sub_f32(TO(a), TO(b))); } \
  WC_INLINE T wc_mul_##s(T a, T b) { return FROM(wc_mul_f32(TO(a), TO(b))); } \
  WC_INLINE T wc_div_##s(T a, T b) { return FROM(wc_div_f32(TO(a), TO(b))); } \
  WC_INLINE T wc_neg_##s(T a) { return FROM(wc_neg_f32(TO(a))); }         \
  WC_INLINE T wc_abs_##s(T a) { return FROM(wc_abs_f32(TO(a))); }         \
  WC_INLINE T wc_min_##s(T a, T b) { return FROM(wc_min_f32(TO(a), TO(b))); } \
  WC_INLINE T wc_max_##s(T a, T b) { return FROM(wc_max_f32(TO(a), TO(b))); } \
  WC_INLINE bool wc_eq_##s(T a, T b) { return TO(a) == TO(b); }           \
  WC_INLINE bool wc_ne_##s(T a, T b) { return TO(a) != TO(b); }           \
  WC_INLINE bool wc_lt_##s(T a, T b) { return TO(a) < TO(b); }            \
  WC_INLINE bool wc_le_##s(T a, T b) { return TO(a) <= TO(b); }           \
  WC_INLINE bool wc_gt_##s(T a, T b) { return TO(a) > TO(b); }            \
  WC_INLINE bool wc_ge_##s(T a, T b) { return TO(a) >= TO(b); }           \
  WC_INLINE T wc_fmod_##s(T a, T b) { return FROM(wc_fmod_f32(TO(a), TO(b))); } \
  WC_INLINE T wc_floor_##s(T a) { return FROM(wc_floor_f32(TO(a))); }     \
  WC_INLINE T wc_ceil_##s(T a) { return FROM(wc_ceil_f32(TO(a))); }       \
  WC_INLINE T wc_round_##s(T a) { return FROM(wc_round_f32(TO(a))); }     \
  WC_INLINE T wc_trunc_##s(T a) { return FROM(wc_trunc_f32(TO(a))); }     \
  WC_INLINE T wc_sqrt_##s(T a) { return FROM(wc_sqrt_f32(TO(a))); }       \
  WC_INLINE T wc_##s##_from_real(double d) { return FROM(wc_f32_from_real(d)); } \
  WC_INLINE T wc_##s##_from_sint(int64_t v) { return FROM((float)v); }    \
  WC_INLINE T wc_##s##_from_uint(uint64_t v) { return FROM((float)v); }   \
  WC_INLINE double wc_load_##s(T a) { return (double)TO(a); }

WC_SINT_OPS_(i8, int8_t, INT8_MIN, INT8_MAX)
WC_SINT_OPS_(i16, int16_t, INT16_MIN, INT16_MAX)
WC_SINT_OPS_(i32, int32_t, INT32_MIN, INT32_MAX)
WC_SINT_OPS_(i64, int64_t, INT64_MIN, INT64_MAX)
WC_UINT_OPS_(u8, uint8_t, UINT8_MAX)
WC_UINT_OPS_(u16, uint16_t, UINT16_MAX)
WC_UINT_OPS_(u32, uint32_t, UINT32_MAX)
WC_UINT_OPS_(u64, uint64_t, UINT64_MAX)
WC_REAL_OPS_(f32, float, uint32_t, 0x80000000u, 0x7f800000u, 0x00400000u)
WC_REAL_OPS_(f64, double, uint64_t, 0x8000000000000000u, 0x7ff0000000000000u, 0x0008000000000000u)

/* fmod, floor ceil round trunc and sqrt of float and double, exact or
   correctly rounded by integer arithmetic on the bits: no libm, and no
   compiler, flag or CPU (x86 and ARM disagree on the default NaN) changes a
   bit. MB: fraction bits; BIAS: exponent bias; CANON: the canonical quiet
   NaN; CHUNK: exponent bits fmod reduces per step (a remainder below 2^(MB+1)
   shifted by CHUNK stays below 2^64); SQS: the even shift of sqrt's radicand
   that leaves MB+2 or MB+3 result bits (one to round with, and a sticky
   remainder). */
#define WC_REAL_EXACT_OPS_(s, T, UT, SIGN, INF, MB, BIAS, CANON, CHUNK, SQS)     \
  static inline T wc_bits_##s(UT u) { T a; memcpy(&a, &u, sizeof a); return a; } \
  /* C fmod: a - n*b with n = trunc(a/b), exact, a's sign; NaN a, then NaN b, \
     win (quieted); fmod(inf, y) and fmod(x, 0) are invalid; |a| < |b| is a. \
     The significands' remainder is reduced CHUNK exponent steps at a time. */ \
  static inline T wc_fmod_##s(T a, T b) {                                      \
    UT ua, ub, sa, ma, mb;                                                     \
    uint64_t r;                                                                \
    int ea, eb, d;                                                             \
    memcpy(&ua, &a, sizeof ua); memcpy(&ub, &b, sizeof ub);                   \
    sa = ua & (UT)(SIGN); ua &= (UT)~(UT)(SIGN); ub &= (UT)~(UT)(SIGN);       \
    if (ua > (UT)(INF)) return wc_quiet_##s(a);                                \
    if (ub > (UT)(INF)) return wc_quiet_##s(b);                                \
    if (ua == (UT)(INF) || ub == 0) return wc_bits_##s((UT)(CANON));           \
    if (ua < ub) return a;                                                     \
    ea = (int)(ua >> (MB)); eb = (int)(ub >> (MB));                            \
    ma = ua & (((UT)1 << (MB)) - 1); mb = ub & (((UT)1 << (MB)) - 1);         \
    if (ea) ma |= (UT)1 << (MB); else ea = 1;                                  \
    if (eb) mb |= (UT)1 << (MB); else eb = 1;                                  \
    r = (uint64_t)(ma % mb);                                                   \
    for (d = ea - eb; d > 0 && r != 0; d -= CHUNK)                             \
      r = (r << (d < (CHUNK) ? d : (CHUNK))) % (uint64_t)mb;                   \
    if (r == 0) return wc_bits_##s(sa);                                        \
    while (r < ((uint64_t)1 << (MB)) && eb > 1) { r <<= 1; eb--; }            \
    if (r >= ((uint64_t)1 << (MB)))                                            \
      r = ((uint64_t)eb << (MB)) | (r & (((uint64_t)1 << (MB)) - 1));          \
    return wc_bits_##s((UT)((UT)r | sa)); }                                    \
  /* to an integral value: mode 0 trunc, 1 floor, 2 ceil, 3 half to even;   \
     exact, the sign kept (floor(-0.0) is -0.0, ceil(-0.5) is -0.0), a NaN  \
     quieted, an integral or infinite a as it is */                            \
  static inline T wc_integral_##s(T a, int mode) {                             \
    UT u, mag, unit, frac;                                                     \
    int e, neg, up;                                                            \
    memcpy(&u, &a, sizeof u);                                                  \
    mag = u & (UT)~(UT)(SIGN); neg = (u & (UT)(SIGN)) != 0;                    \
    if (mag > (UT)(INF)) return wc_quiet_##s(a);                               \
    e = (int)(mag >> (MB)) - (BIAS);                                           \
    if (e >= (MB) || mag == 0) return a;                                       \
    if (e < 0) { /* |a| < 1: to 0 or 1 of a's sign */                         \
      up = mode == 1 ? neg : mode == 2 ? !neg                                  \
         : mode == 3 ? mag > ((UT)((BIAS) - 1) << (MB)) : 0;                   \
      return wc_bits_##s((UT)((u & (UT)(SIGN)) | (up ? (UT)(BIAS) << (MB) : 0))); } \
    unit = (UT)1 << ((MB) - e);                                                \
    frac = mag & (unit - 1);                                                   \
    if (frac == 0) return a;                                                   \
    up = mode == 1 ? neg : mode == 2 ? !neg                                    \
       : mode == 3 ? frac > unit / 2 || (frac == unit / 2 && (mag & unit)) : 0; \
    u &= (UT)~(unit - 1);                                                      \
    return wc_bits_##s((UT)(up ? u + unit : u)); }                             \
  static inline T wc_trunc_##s(T a) { return wc_integral_##s(a, 0); }          \
  static inline T wc_floor_##s(T a) { return wc_integral_##s(a, 1); }          \
  static inline T wc_ceil_##s(T a) { return wc_integral_##s(a, 2); }           \
  static inline T wc_round_##s(T a) { return wc_integral_##s(a, 3); }          \
  /* Correctly rounded: a = m * 2^p with p even, then the digit-by-digit     \
     integer square root of m * 2^SQS (two radicand bits per step), rounded  \
     to nearest even with the remainder as sticky bit (a tie cannot occur). \
     sqrt(-0.0) is -0.0, of a NaN that NaN quieted, of a negative invalid. */ \
  static inline T wc_sqrt_##s(T a) {                                           \
    UT u, m;                                                                   \
    uint64_t q = 0, rem = 0, low, half;                                        \
    int e, p, i, sh;                                                           \
    memcpy(&u, &a, sizeof u);                                                  \
    if ((u & (UT)~(UT)(SIGN)) > (UT)(INF)) return wc_quiet_##s(a);             \
    if ((u & (UT)~(UT)(SIGN)) == 0 || u == (UT)(INF)) return a;                \
    if (u & (UT)(SIGN)) return wc_bits_##s((UT)(CANON));                       \
    e = (int)(u >> (MB)); m = u & (((UT)1 << (MB)) - 1);                       \
    if (e) m |= (UT)1 << (MB);                                                 \
    else for (e = 1; !(m & ((UT)1 << (MB))); e--) m <<= 1;                     \
    p = e - (BIAS) - (MB);                                                     \
    if (p % 2 != 0) { m <<= 1; p--; }                                          \
    for (i = ((MB) + 3 + (SQS)) / 2 - 1; i >= 0; i--) {                        \
      int at = 2 * i - (SQS);                                                  \
      rem = (rem << 2) | (at >= 0 ? (uint64_t)(m >> at) & 3u : 0u);            \
      if (rem >= ((q << 2) | 1u)) { rem -= (q << 2) | 1u; q = (q << 1) | 1u; } \
      else q <<= 1;                                                            \
    }                                                                          \
    sh = (q >> ((MB) + 2)) ? 2 : 1;                                            \
    low = q & (((uint64_t)1 << sh) - 1); half = (uint64_t)1 << (sh - 1);       \
    q >>= sh;                                                                  \
    if (low > half || (low == half && (rem != 0 || (q & 1u)))) q++;            \
    return wc_bits_##s((UT)(((UT)((p - (SQS)) / 2 + sh + (BIAS) + (MB)) << (MB)) \
                            + (UT)(q - ((uint64_t)1 << (MB))))); }
WC_REAL_EXACT_OPS_(f32, float, uint32_t, 0x80000000u, 0x7f800000u, 23, 127, 0x7fc00000u, 40, 26)
WC_REAL_EXACT_OPS_(f64, double, uint64_t, 0x8000000000000000u, 0x7ff0000000000000u, 52, 1023,
                   0x7ff8000000000000u, 11, 56)
WC_HALF_OPS_(f16, wc_float16, wc_f16_to_f32, wc_f32_to_f16)
WC_HALF_OPS_(bf16, wc_bfloat16, wc_bf16_to_f32, wc_f32_to_bf16)

/* bool: logic, equality and order (false < true); casts test != 0. */
static inline bool wc_or_b(bool a, bool b) { return a || b; }
static inline bool wc_and_b(bool a, bool b) { return a && b; }
static inline bool wc_not_b(bool a) { return !a; }
WC_CMP_OPS_(b, bool)
static inline bool wc_b_from_real(double d) { return d != 0.0; }
static inline bool wc_b_from_sint(int64_t v) { return v != 0; }
static inline bool wc_b_from_uint(uint64_t v) { return v != 0; }
static inline uint64_t wc_load_b(bool a) { return a ? 1u : 0u; }

/* complex and string: equality only (IEEE per part; NULL string is ""). */
static inline bool wc_eq_c64(wc_complex64 a, wc_complex64 b) { return a.re == b.re && a.im == b.im; }
static inline bool wc_ne_c64(wc_complex64 a, wc_complex64 b) { return !wc_eq_c64(a, b); }
static inline bool wc_eq_c128(wc_complex128 a, wc_complex128 b) { return a.re == b.re && a.im == b.im; }
static inline bool wc_ne_c128(wc_complex128 a, wc_complex128 b) { return !wc_eq_c128(a, b); }
static inline bool wc_eq_str(wc_string a, wc_string b) { return strcmp(a ? a : "", b ? b : "") == 0; }
static inline bool wc_ne_str(wc_string a, wc_string b) { return !wc_eq_str(a, b); }

/* Casts between numeric types and bool: wc_<to>_from_<class>(wc_load_<from>(x)),
   the class being sint (int64_t), uint (uint64_t, also bool) or real (double,
   exact for every float type). Int -> int wraps; to float16/bfloat16 rounds
   through float. */

#ifdef __cplusplus
}
#endif
#endif
