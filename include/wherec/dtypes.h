/* wherec/dtypes.h: the one list of dtypes (WC_DTYPE_LIST), the wc_dtype enum and
   the C element types of float16, bfloat16, complex and string tensors. */
#ifndef WHEREC_DTYPES_H
#define WHEREC_DTYPES_H

#include <stdbool.h>
#include <stdint.h>

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

#ifdef __cplusplus
}
#endif
#endif
