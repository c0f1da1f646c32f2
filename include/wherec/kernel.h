/* wherec/kernel.h: the ABI shared by generated kernels and the runtime.
   C99; generated code includes only this header (through its own header). */
#ifndef WHEREC_KERNEL_H
#define WHEREC_KERNEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Element types of fp16, bf16 and complex tensors. */
typedef uint16_t wc_float16;                          /* IEEE binary16 bits */
typedef uint16_t wc_bfloat16;                         /* top half of a binary32 */
typedef struct wc_complex64 { float re, im; } wc_complex64;
typedef struct wc_complex128 { double re, im; } wc_complex128;
typedef const char *wc_string;                        /* borrowed, NUL-terminated */

/* The one list of dtypes: X(ENUM, onnx code, name, C type, spec alias,
   C suffix of the element operations, kind).  Every per-dtype table (enum,
   names, sizes, lexer keywords, C types and operations in generated code,
   interpreter dispatch) is expanded from this list, in this order.
   Kinds: SINT, UINT, REAL (float, double), HALF (float16, bfloat16: stored as
   bits, computed in float), BOOL, COMPLEX, STRING. */
#define WC_DTYPE_LIST(X)                                                     \
  X(FLOAT,      1,  "float",      float,         "f32",  f32,  REAL)        \
  X(UINT8,      2,  "uint8",      uint8_t,       "u8",   u8,   UINT)        \
  X(INT8,       3,  "int8",       int8_t,        "i8",   i8,   SINT)        \
  X(UINT16,     4,  "uint16",     uint16_t,      "u16",  u16,  UINT)        \
  X(INT16,      5,  "int16",      int16_t,       "i16",  i16,  SINT)        \
  X(INT32,      6,  "int32",      int32_t,       "i32",  i32,  SINT)        \
  X(INT64,      7,  "int64",      int64_t,       "i64",  i64,  SINT)        \
  X(STRING,     8,  "string",     wc_string,     "",     str,  STRING)      \
  X(BOOL,       9,  "bool",       bool,          "",     b,    BOOL)        \
  X(FLOAT16,    10, "float16",    wc_float16,    "f16",  f16,  HALF)        \
  X(DOUBLE,     11, "double",     double,        "f64",  f64,  REAL)        \
  X(UINT32,     12, "uint32",     uint32_t,      "u32",  u32,  UINT)        \
  X(UINT64,     13, "uint64",     uint64_t,      "u64",  u64,  UINT)        \
  X(COMPLEX64,  14, "complex64",  wc_complex64,  "c64",  c64,  COMPLEX)     \
  X(COMPLEX128, 15, "complex128", wc_complex128, "c128", c128, COMPLEX)     \
  X(BFLOAT16,   16, "bfloat16",   wc_bfloat16,   "bf16", bf16, HALF)

#define WC_DTYPE_ENUM_(E, code, name, ctype, alias, sfx, kind) WC_##E = code,
typedef enum wc_dtype { WC_DTYPE_LIST(WC_DTYPE_ENUM_) WC_DTYPE_MAX_ = 16 } wc_dtype;
#undef WC_DTYPE_ENUM_

typedef enum wc_path { WC_PATH_SPECIALIZED = 1, WC_PATH_INTERPRETED = 2 } wc_path;

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

/* ---- element operations (DESIGN §4) -------------------------------------
   wc_<op>_<t>(a, b) for each numeric type t (suffixes i8..i64, u8..u64, f16,
   bf16, f32, f64, b).  Generated code and the interpreter both use these, so
   that they agree bit for bit; the reference evaluator has its own.
   Integers wrap modulo 2^bits; x/0 == 0; INT_MIN / -1 == INT_MIN; abs(INT_MIN)
   == INT_MIN.  Floats: IEEE, no contraction (generated files turn it off);
   NaN compares false except !=; min/max return the NaN (a first, as numpy);
   + - * / of two NaNs give a's, quieted (so every compiler gives one bit
   pattern). */

/* where on loaded values, branch-free: a mask from the condition blends the
   bits, so compilers emit vector blends (gcc will not if-convert a float ?:
   under its default -ftrapping-math). wc_sel_<t>(c, a, b) = c ? a : b. */
#define WC_SEL_OPS_(s, T, U)                                                   \
  static inline T wc_sel_##s(bool c, T a, T b) {                               \
    U ua, ub, m = (U)((U)0 - (U)c);                                            \
    memcpy(&ua, &a, sizeof ua); memcpy(&ub, &b, sizeof ub);                   \
    ua = (U)((ua & m) | (ub & (U)~m));                                         \
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
  static inline bool wc_eq_##s(T a, T b) { return a == b; }                   \
  static inline bool wc_ne_##s(T a, T b) { return a != b; }                   \
  static inline bool wc_lt_##s(T a, T b) { return a < b; }                    \
  static inline bool wc_le_##s(T a, T b) { return a <= b; }                   \
  static inline bool wc_gt_##s(T a, T b) { return a > b; }                    \
  static inline bool wc_ge_##s(T a, T b) { return a >= b; }

/* Wrapping arithmetic through uint64_t: no signed overflow, no promotion to int. */
#define WC_WRAP_OPS_(s, T)                                                     \
  static inline T wc_add_##s(T a, T b) { return (T)((uint64_t)a + (uint64_t)b); } \
  static inline T wc_sub_##s(T a, T b) { return (T)((uint64_t)a - (uint64_t)b); } \
  static inline T wc_mul_##s(T a, T b) { return (T)((uint64_t)a * (uint64_t)b); } \
  static inline T wc_neg_##s(T a) { return (T)((uint64_t)0 - (uint64_t)a); }  \
  static inline T wc_min_##s(T a, T b) { return a < b ? a : b; }              \
  static inline T wc_max_##s(T a, T b) { return a > b ? a : b; }              \
  WC_CMP_OPS_(s, T)

#define WC_SINT_OPS_(s, T, TMIN, TMAX)                                         \
  WC_WRAP_OPS_(s, T)                                                           \
  static inline T wc_div_##s(T a, T b) {                                       \
    return b == 0 ? (T)0 : b == -1 ? wc_neg_##s(a) : (T)(a / b); }            \
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
  static inline T wc_div_##s(T a, T b) { return b == 0 ? (T)0 : (T)(a / b); } \
  static inline T wc_abs_##s(T a) { return a; }                               \
  static inline T wc_##s##_from_real(double d) {                               \
    return d != d || d <= 0.0 ? (T)0 : d >= (double)(TMAX) + 1.0 ? (T)(TMAX) : (T)d; } \
  static inline T wc_##s##_from_sint(int64_t v) { return (T)(uint64_t)v; }    \
  static inline T wc_##s##_from_uint(uint64_t v) { return (T)v; }             \
  static inline uint64_t wc_load_##s(T a) { return (uint64_t)a; }

/* float and double. Compilers assume NaNs never signal, so they may drop a
   quieting step ((float)(double)x, x * 1.0) or commute the operands of + and
   * (which picks the NaN that propagates); the results are pinned down here:
   an arithmetic NaN is always quiet, and a's NaN wins over b's. abs and neg
   work on the sign bit, so no folding of -(x + y) can flip a NaN's sign. */
#define WC_REAL_OPS_(s, T, UT, SIGN, INF, QUIET)                               \
  static inline T wc_quiet_##s(T a) {                                          \
    UT u; memcpy(&u, &a, sizeof u);                                            \
    u |= (UT)((UT)0 - (UT)((u & (UT)~(UT)(SIGN)) > (UT)(INF))) & (UT)(QUIET);  \
    memcpy(&a, &u, sizeof u); return a; }                                      \
  static inline T wc_add_##s(T a, T b) { return wc_quiet_##s(wc_sel_##s(a != a, a, a + b)); } \
  static inline T wc_sub_##s(T a, T b) { return wc_quiet_##s(wc_sel_##s(a != a, a, a - b)); } \
  static inline T wc_mul_##s(T a, T b) { return wc_quiet_##s(wc_sel_##s(a != a, a, a * b)); } \
  static inline T wc_div_##s(T a, T b) { return wc_quiet_##s(wc_sel_##s(a != a, a, a / b)); } \
  static inline T wc_neg_##s(T a) {                                            \
    UT u; memcpy(&u, &a, sizeof u); u ^= (UT)(SIGN); memcpy(&a, &u, sizeof u); return a; } \
  static inline T wc_abs_##s(T a) {                                            \
    UT u; memcpy(&u, &a, sizeof u); u &= ~(UT)(SIGN); memcpy(&a, &u, sizeof u); return a; } \
  static inline T wc_min_##s(T a, T b) { return wc_sel_##s(a < b || a != a, a, b); } \
  static inline T wc_max_##s(T a, T b) { return wc_sel_##s(a > b || a != a, a, b); } \
  static inline T wc_##s##_from_real(double d) { return wc_quiet_##s((T)d); }  \
  static inline T wc_##s##_from_sint(int64_t v) { return (T)v; }              \
  static inline T wc_##s##_from_uint(uint64_t v) { return (T)v; }             \
  static inline double wc_load_##s(T a) { return (double)a; }                 \
  WC_CMP_OPS_(s, T)

/* float16 and bfloat16: each operation in float, rounded to nearest even. */
#define WC_HALF_OPS_(s, T, TO, FROM)                                           \
  static inline T wc_add_##s(T a, T b) { return FROM(wc_add_f32(TO(a), TO(b))); } \
  static inline T wc_sub_##s(T a, T b) { return FROM(wc_sub_f32(TO(a), TO(b))); } \
  static inline T wc_mul_##s(T a, T b) { return FROM(wc_mul_f32(TO(a), TO(b))); } \
  static inline T wc_div_##s(T a, T b) { return FROM(wc_div_f32(TO(a), TO(b))); } \
  static inline T wc_neg_##s(T a) { return FROM(wc_neg_f32(TO(a))); }         \
  static inline T wc_abs_##s(T a) { return FROM(wc_abs_f32(TO(a))); }         \
  static inline T wc_min_##s(T a, T b) { return FROM(wc_min_f32(TO(a), TO(b))); } \
  static inline T wc_max_##s(T a, T b) { return FROM(wc_max_f32(TO(a), TO(b))); } \
  static inline bool wc_eq_##s(T a, T b) { return TO(a) == TO(b); }           \
  static inline bool wc_ne_##s(T a, T b) { return TO(a) != TO(b); }           \
  static inline bool wc_lt_##s(T a, T b) { return TO(a) < TO(b); }            \
  static inline bool wc_le_##s(T a, T b) { return TO(a) <= TO(b); }           \
  static inline bool wc_gt_##s(T a, T b) { return TO(a) > TO(b); }            \
  static inline bool wc_ge_##s(T a, T b) { return TO(a) >= TO(b); }           \
  static inline T wc_##s##_from_real(double d) { return FROM(wc_f32_from_real(d)); } \
  static inline T wc_##s##_from_sint(int64_t v) { return FROM((float)v); }    \
  static inline T wc_##s##_from_uint(uint64_t v) { return FROM((float)v); }   \
  static inline double wc_load_##s(T a) { return (double)TO(a); }

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

/* ---- outputs larger than the last-level cache -------------------------------
   A generated kernel whose whole output has at least WC_STREAM_MIN_BYTES bytes
   computes it in chunks of WC_STREAM_CHUNK bytes in L1 (2 KiB measured best of
   1 to 16 KiB) and writes each with non-temporal stores (wc_stream_copy): the
   output's lines are not read from memory before they are written, 12-15%
   faster for a 16M float or int64 where here. Which kernels may stream is the
   generator's choice (gen/lower.c, plan_streaming). The default is this
   machine's L3 (32 MiB); define either when compiling generated code to tune
   it: WC_STREAM_MIN_BYTES=1 streams every call (tests do), SIZE_MAX none. */
#ifndef WC_STREAM_MIN_BYTES
#define WC_STREAM_MIN_BYTES ((size_t)32 << 20)
#endif
#ifndef WC_STREAM_CHUNK
#define WC_STREAM_CHUNK 2048
#endif

/* Copies bytes from src to dst (not overlapping, or the same buffer) with
   non-temporal stores where the target has them (SSE2 under gcc or clang,
   through their builtins: generated code includes no intrinsics header), else
   memcpy. They are weakly ordered: a kernel calls wc_stream_fence once before
   it returns (a fence per copy would wait for every chunk to reach memory). */
#if defined(__SSE2__) && defined(__GNUC__)
typedef long long wc_v2di_ __attribute__((vector_size(16)));
static inline void wc_stream_copy(void *dst, const void *src, size_t bytes) {
  char *d = (char *)dst;
  const char *s = (const char *)src;
  size_t head = (size_t)(-(uintptr_t)d & 15u);         /* movntdq stores 16-byte aligned */
  if (d == s) return;
  if (head > bytes) head = bytes;
  memcpy(d, s, head);
  for (d += head, s += head, bytes -= head; bytes >= 16; bytes -= 16, d += 16, s += 16) {
    wc_v2di_ v;
    memcpy(&v, s, 16);
#if defined(__clang__)
    __builtin_nontemporal_store(v, (wc_v2di_ *)(void *)d);
#else
    __builtin_ia32_movntdq((wc_v2di_ *)(void *)d, v);
#endif
  }
  memcpy(d, s, bytes);
}
static inline void wc_stream_fence(void) { __builtin_ia32_sfence(); }
#else
static inline void wc_stream_copy(void *dst, const void *src, size_t bytes) {
  if (dst != src) memcpy(dst, src, bytes);
}
static inline void wc_stream_fence(void) {}
#endif

/* ---- interpreter programs --------------------------------------------------
   A kernel's expression as straight-line SSA code: instruction i computes a
   tensor of dtype `dtype` from earlier instructions a, b, c.  The last
   instruction is the kernel's value. */
#define WC_OPCODE_LIST(X)                                                    \
  X(INPUT, 0) /* a = input index */                                         \
  X(CONST, 0) /* bits[0], bits[1] = value bits (complex: re, im) */         \
  X(WHERE, 3) X(OR, 2) X(AND, 2) X(NOT, 1)                                  \
  X(EQ, 2) X(NE, 2) X(LT, 2) X(LE, 2) X(GT, 2) X(GE, 2)                     \
  X(ADD, 2) X(SUB, 2) X(MUL, 2) X(DIV, 2) X(NEG, 1)                         \
  X(MIN, 2) X(MAX, 2) X(ABS, 1) X(CAST, 1)

#define WC_OPCODE_ENUM_(name, arity) WC_OP_##name,
typedef enum wc_opcode { WC_OPCODE_LIST(WC_OPCODE_ENUM_) WC_OP_COUNT_ } wc_opcode;
#undef WC_OPCODE_ENUM_

typedef struct wc_instr {
  uint8_t  op;                 /* wc_opcode */
  uint8_t  dtype;              /* wc_dtype of the result */
  uint16_t a, b, c;            /* operands: indices of earlier instructions */
  uint64_t bits[2];            /* WC_OP_CONST: the value's bits in dtype */
} wc_instr;

/* ---- kernel tables ---------------------------------------------------------- */
typedef enum wc_kernel_kind {
  WC_KIND_ELEMENTWISE = 0,     /* where / fused expression: out has the broadcast shape */
  WC_KIND_WHERE_V1 = 1,        /* tf.compat.v1.where rules on inputs 0, 1, 2 */
  WC_KIND_ARGWHERE = 2,        /* int64 [n, rank] coordinates of the value */
  WC_KIND_NONZERO = 3          /* int64 [rank, n] coordinates of the value */
} wc_kernel_kind;

/* A dimension of a shape pattern: >= 0 a fixed extent, < 0 symbolic extent
   number -(d + 1) (extents numbered in order of first appearance). */
#define WC_SYM(d) (-(int64_t)(d) - 1)

/* Most operands of one kernel: its inputs plus its output. The spec checker
   refuses a kernel with more parameters; the runtime and the check harness
   size their per-call arrays by it. */
#define WC_MAX_OPERANDS 34
#define WC_MAX_INPUTS   (WC_MAX_OPERANDS - 1)

typedef struct wc_param {
  const char    *name;         /* parameter name in the spec */
  wc_dtype       dtype;
  int            rank;
  const int64_t *dims;         /* rank entries, fixed or WC_SYM */
} wc_param;

/* Typed invokers: the generated function behind a uniform signature.
   extents: one per symbolic extent; inputs: one data pointer per parameter. */
typedef void (*wc_range_fn)(const size_t *extents, const void *const *inputs,
                            void *out, size_t begin, size_t end);
typedef int64_t (*wc_count_fn)(const size_t *extents, const void *const *inputs);
/* Fills the coordinates of the count true elements (count from the count
   invoker: the dispatcher counts once, to check the capacity, and passes it). */
typedef void (*wc_coords_fn)(const size_t *extents, const void *const *inputs,
                             int64_t count, int64_t *coords);

typedef struct wc_kernel {
  const char      *name;       /* kernel name in the spec (after specialization) */
  wc_kernel_kind   kind;
  int              n_inputs;
  const wc_param  *inputs;
  int              n_extents;  /* symbolic extents */
  const char *const *extent_names;
  wc_dtype         out_dtype;
  int              out_rank;   /* elementwise kinds: broadcast shape pattern */
  const int64_t   *out_dims;
  int              n_instrs;
  const wc_instr  *program;
  wc_range_fn      range;      /* elementwise kinds */
  wc_count_fn      count;      /* coordinate kinds */
  wc_coords_fn     coords;     /* coordinate kinds */
} wc_kernel;

typedef struct wc_kernel_table {
  const char      *prefix;     /* C prefix of the generated symbols */
  const char      *spec;       /* spec path the table was generated from */
  int              n_kernels;
  const wc_kernel *kernels;
} wc_kernel_table;

#ifdef __cplusplus
}
#endif
#endif
