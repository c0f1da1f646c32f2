/* ops.h: the ONNX operators wherec import takes, one row each: its since-versions, its
   inputs, the dtypes it takes, its attributes (types, defaults, the opsets that have them),
   its type and shape rule, its formula in the spec language (or the builder that makes it),
   the check that refuses what a kernel cannot compute, and how onnxruntime's kernel compares.
   Adding an operator is a row here and its tests (docs/layout.md). */
#ifndef WHEREC_GEN_IMPORT_OPS_H
#define WHEREC_GEN_IMPORT_OPS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "front/ast.h"
#include "import/onnx.h"

/* Dtype classes an operator's typed input may have (bits of 1 << ast_dtype_class). */
#define OPT_B   (1u << AST_CLASS_BOOL)
#define OPT_S   (1u << AST_CLASS_SINT)
#define OPT_U   (1u << AST_CLASS_UINT)
#define OPT_F   ((1u << AST_CLASS_REAL) | (1u << AST_CLASS_HALF))
#define OPT_STR (1u << AST_CLASS_STRING)
#define OPT_CX  (1u << AST_CLASS_COMPLEX)
#define OPT_INT (OPT_S | OPT_U)
#define OPT_NUM (OPT_S | OPT_U | OPT_F)
#define OPT_SGN (OPT_S | OPT_F)
#define OPT_EQ  (OPT_NUM | OPT_B | OPT_STR)
#define OPT_ALL (OPT_EQ | OPT_CX)

/* The dtype of an operator's output (its type rule). T is the dtype of its typed input. */
typedef enum op_out {
  OUT_T,     /* T */
  OUT_BOOL,  /* bool, whatever T is */
  OUT_INT64, /* int64 (NonZero's coordinates, Shape, ArgMax) */
  OUT_INT32, /* int32 (ConvInteger, MatMulInteger) */
  OUT_CAST,  /* Cast's `to`; CastLike's second input's dtype */
  OUT_QUANT, /* the zero point's dtype, else output_dtype, else uint8 */
  OUT_SCALE, /* the scale's (second input's) dtype */
  OUT_RULE   /* what the shape rule gives (a dtype attribute, a zero point's dtype) */
} op_out;

/* How onnxruntime's kernel compares with the row's formula (verify.py, opsets.py). */
typedef enum op_ort {
  ORT_EXACT,  /* the same bits */
  ORT_APPROX, /* onnxruntime approximates a function wherec rounds correctly */
  ORT_REORDER /* onnxruntime computes in another order (the row's note says how) */
} op_ort;

/* The attribute columns: A(type, name, default) is one every version has; AV(type, name,
   default, from, until) one the versions of opsets from to until - 1 have (until 0: every
   later one); a node that carries it at another opset is refused (it would change what the
   node computes). Types: f (float), i (int64), s (string). */
typedef float       op_attr_f;
typedef int64_t     op_attr_i;
typedef const char *op_attr_s;
#define LEGACY_BROADCAST AV(i, broadcast, 0, 1, 7) AV(i, axis, 0, 1, 7)
/* Reduce*'s: axes an attribute until `input` (an input from then on; its ints are read by
   the check, not the column), keepdims, and noop_with_empty_axes from then on. */
#define REDUCE_ATTRS(input) \
  AV(i, axes, 0, 1, input) A(i, keepdims, 1) AV(i, noop_with_empty_axes, 0, input, 0)

/* X(Name, since, inputs, types, out, rule, attributes, formula, check, onnxruntime):
   - since: ONNX's since-versions of the operator (onnx.defs), the first its opset;
   - inputs: the input names, `?` after an optional one, `...` after a variadic last one,
     and what each is: T (typed: every T input has the operator's dtype T), B (bool) or *
     (its own rules, in the check);
   - types: the classes T may have;
   - out: the dtype of its output (op_out); rule: its shape rule, infer.c's infer_<rule>
     (broadcast: its inputs broadcast together; first: its first input's shape, the others
     broadcast to it or are parameters; dynamic: known when it runs; the rest are the rules
     of the operators no kernel computes, named after what they do);
   - formula: F("spec text"), with the inputs and the float attributes by name and the
     numbers in T, or B(name), a builder in forms.c for forms that depend on a dtype or an
     attribute's value, or NONE: no kernel computes it (inference alone reads the row). The
     number of times the formula reads each input (which bounds how far a region nests) is
     counted from the formula itself;
   - check: the refusals beyond the columns (checks.c: check_name), or none;
   - onnxruntime: ORT(EXACT), ORT(APPROX) or ORTR("how", "dtypes where it shows" or "").
   Constant is taken as a value (inference reads it), never a kernel. */
/* clang-format off */
#define ONNX_OP_LIST(X)                                                                            \
  X(Greater, "1 7 9 13", "A:T B:T", OPT_NUM, OUT_BOOL, broadcast, LEGACY_BROADCAST,                \
    F("A > B"), none, ORT(EXACT))                                                                  \
  X(Less, "1 7 9 13", "A:T B:T", OPT_NUM, OUT_BOOL, broadcast, LEGACY_BROADCAST,                   \
    F("A < B"), none, ORT(EXACT))                                                                  \
  X(Equal, "1 7 11 13 19", "A:T B:T", OPT_EQ, OUT_BOOL, broadcast, LEGACY_BROADCAST,               \
    F("A == B"), none, ORT(EXACT))                                                                 \
  X(GreaterOrEqual, "12 16", "A:T B:T", OPT_NUM, OUT_BOOL, broadcast, ,                            \
    F("A >= B"), none, ORT(EXACT))                                                                 \
  X(LessOrEqual, "12 16", "A:T B:T", OPT_NUM, OUT_BOOL, broadcast, ,                               \
    F("A <= B"), none, ORT(EXACT))                                                                 \
  X(Not, "1", "X:T", OPT_B, OUT_BOOL, broadcast, , F("!X"), none, ORT(EXACT))                      \
  X(And, "1 7", "A:T B:T", OPT_B, OUT_BOOL, broadcast, LEGACY_BROADCAST,                           \
    F("A && B"), none, ORT(EXACT))                                                                 \
  X(Or, "1 7", "A:T B:T", OPT_B, OUT_BOOL, broadcast, LEGACY_BROADCAST,                            \
    F("A || B"), none, ORT(EXACT))                                                                 \
  X(Xor, "1 7", "A:T B:T", OPT_B, OUT_BOOL, broadcast, LEGACY_BROADCAST,                           \
    F("A != B"), none, ORT(EXACT))                                                                 \
  X(Add, "1 6 7 13 14", "A:T B:T", OPT_NUM, OUT_T, broadcast, LEGACY_BROADCAST,                    \
    F("A + B"), none, ORT(EXACT))                                                                  \
  X(Sub, "1 6 7 13 14", "A:T B:T", OPT_NUM, OUT_T, broadcast, LEGACY_BROADCAST,                    \
    F("A - B"), none, ORT(EXACT))                                                                  \
  X(Mul, "1 6 7 13 14", "A:T B:T", OPT_NUM, OUT_T, broadcast, LEGACY_BROADCAST,                    \
    F("A * B"), none, ORT(EXACT))                                                                  \
  X(Div, "1 6 7 13 14", "A:T B:T", OPT_NUM, OUT_T, broadcast, LEGACY_BROADCAST,                    \
    F("A / B"), none, ORT(EXACT))                                                                  \
  X(Mod, "10 13 28", "A:T B:T", OPT_NUM, OUT_T, broadcast, A(i, fmod, 0),                          \
    B(mod), mod, ORT(EXACT))                                                                       \
  X(BitwiseAnd, "18", "A:T B:T", OPT_INT, OUT_T, broadcast, , F("A & B"), none, ORT(EXACT))        \
  X(BitwiseOr, "18", "A:T B:T", OPT_INT, OUT_T, broadcast, , F("A | B"), none, ORT(EXACT))         \
  X(BitwiseXor, "18", "A:T B:T", OPT_INT, OUT_T, broadcast, , F("A ^ B"), none, ORT(EXACT))        \
  X(BitwiseNot, "18", "X:T", OPT_INT, OUT_T, broadcast, , F("~X"), none, ORT(EXACT))               \
  X(BitShift, "11 28", "X:T Y:T", OPT_INT, OUT_T, broadcast, A(s, direction, ""),                  \
    B(bitshift), bitshift, ORT(EXACT))                                                             \
  X(Neg, "1 6 13", "X:T", OPT_SGN, OUT_T, broadcast, , F("-X"), none, ORT(EXACT))                  \
  X(Abs, "1 6 13", "X:T", OPT_NUM, OUT_T, broadcast, , F("abs(X)"), none, ORT(EXACT))              \
  X(Floor, "1 6 13", "X:T", OPT_F, OUT_T, broadcast, , F("floor(X)"), none, ORT(EXACT))            \
  X(Ceil, "1 6 13", "X:T", OPT_F, OUT_T, broadcast, , F("ceil(X)"), none, ORT(EXACT))              \
  X(Round, "11 22", "X:T", OPT_F, OUT_T, broadcast, , F("round(X)"), none, ORT(EXACT))             \
  X(Sqrt, "1 6 13", "X:T", OPT_F, OUT_T, broadcast, , F("sqrt(X)"), none, ORT(EXACT))              \
  X(Reciprocal, "1 6 13", "X:T", OPT_F, OUT_T, broadcast, , F("1 / X"), none, ORT(EXACT))          \
  X(Softsign, "1 22", "input:T", OPT_F, OUT_T, broadcast, , B(softsign), none, ORT(APPROX))        \
  X(IsNaN, "9 13 20", "X:T", OPT_F, OUT_BOOL, broadcast, , F("X != X"), none, ORT(EXACT))          \
  X(IsInf, "10 20", "X:T", OPT_F, OUT_BOOL, broadcast,                                             \
    A(i, detect_negative, 1) A(i, detect_positive, 1), B(isinf), none, ORT(EXACT))                 \
  X(Min, "1 6 8 12 13", "data_0:T...", OPT_NUM, OUT_T, broadcast, , B(min), same_shape_6,          \
    ORT(EXACT))                                                                                    \
  X(Max, "1 6 8 12 13", "data_0:T...", OPT_NUM, OUT_T, broadcast, , B(max), same_shape_6,          \
    ORT(EXACT))                                                                                    \
  X(Relu, "1 6 13 14", "X:T", OPT_NUM, OUT_T, broadcast, ,                                         \
    F("where(X < 0, 0, X)"), none, ORT(EXACT))                                                     \
  X(LeakyRelu, "1 6 16", "X:T", OPT_F, OUT_T, broadcast, A(f, alpha, 0.01f),                       \
    B(leaky_relu), none, ORT(EXACT))                                                               \
  X(PRelu, "1 6 7 9 16", "X:T slope:T", OPT_NUM, OUT_T, first, , B(prelu), prelu,                  \
    ORT(EXACT))                                                                                    \
  X(Clip, "1 6 11 12 13", "input:T min?:T max?:T", OPT_NUM, OUT_T, first,                          \
    AV(f, min, -3.40282347e+38f, 1, 11) AV(f, max, 3.40282347e+38f, 1, 11), B(clip), clip,         \
    ORT(EXACT))                                                                                    \
  X(ThresholdedRelu, "10 22", "X:T", OPT_F, OUT_T, broadcast, A(f, alpha, 1.0f),                   \
    F("where(X > alpha, X, 0)"), none, ORT(EXACT))                                                 \
  X(Shrink, "9", "input:T", OPT_NUM, OUT_T, broadcast,                                             \
    A(f, lambd, 0.5f) A(f, bias, 0.0f), B(shrink), shrink, ORT(EXACT))                             \
  X(Sign, "9 13", "input:T", OPT_NUM, OUT_T, broadcast, , B(sign), none, ORT(EXACT))               \
  X(HardSigmoid, "1 6 22", "X:T", OPT_F, OUT_T, broadcast,                                         \
    A(f, alpha, 0.2f) A(f, beta, 0.5f), F("max(0, min(1, alpha * X + beta))"), none,               \
    ORTR("computes HardSigmoid as one fused multiply-add", ""))                                    \
  X(HardSwish, "14 22", "X:T", OPT_F, OUT_T, broadcast, ,                                          \
    F("X * max(0, min(1, 0.16666666666666666 * X + 0.5))"), none,                                  \
    ORTR("computes HardSwish's alpha * x + beta in another order", ""))                            \
  X(Elu, "1 6 22", "X:T", OPT_F, OUT_T, broadcast, A(f, alpha, 1.0f), B(elu), none,                \
    ORT(APPROX))                                                                                   \
  X(Selu, "1 6 22", "X:T", OPT_F, OUT_T, broadcast,                                                \
    A(f, alpha, 1.67326319217681884765625f) A(f, gamma, 1.05070102214813232421875f), B(selu),      \
    none, ORT(APPROX))                                                                             \
  X(Celu, "12 28", "X:T", OPT_F, OUT_T, broadcast, A(f, alpha, 1.0f), B(celu), none,               \
    ORT(APPROX))                                                                                   \
  X(Cast, "1 6 9 13 19 21 23 24 25 28", "input:T", OPT_ALL, OUT_CAST, broadcast,                   \
    A(i, to, -1) AV(i, saturate, 1, 19, 0) AV(s, round_mode, "up", 24, 0), B(cast), cast,          \
    ORT(EXACT))                                                                                    \
  X(CastLike, "15 19 21 23 24 25", "input:T target_type:*", OPT_ALL, OUT_CAST, first,              \
    AV(i, saturate, 1, 19, 0) AV(s, round_mode, "up", 24, 0), B(cast), cast, ORT(EXACT))           \
  X(Identity, "1 13 14 16 19 21 23 24 25", "input:T", OPT_ALL, OUT_T, broadcast, ,                 \
    F("input"), none, ORT(EXACT))                                                                  \
  X(Where, "9 16", "condition:B X:T Y:T", OPT_ALL, OUT_T, broadcast, ,                             \
    F("where(condition, X, Y)"), none, ORT(EXACT))                                                 \
  X(NonZero, "9 13", "X:T", OPT_ALL, OUT_INT64, dynamic, , F("nonzero(X)"), none,                  \
    ORT(EXACT))                                                                                    \
  X(Constant, "1 9 11 12 13 19 21 23 24 25", "", OPT_ALL, OUT_T, first, , F(""), none,             \
    ORT(EXACT))                                                                                    \
  X(Exp, "1 6 13", "input:T", OPT_F, OUT_T, broadcast, , F("exp(input)"), none,                    \
    ORT(APPROX))                                                                                   \
  X(Log, "1 6 13", "input:T", OPT_F, OUT_T, broadcast, , F("log(input)"), none,                    \
    ORT(APPROX))                                                                                   \
  X(Tanh, "1 6 13", "input:T", OPT_F, OUT_T, broadcast, , F("tanh(input)"), none,                  \
    ORT(APPROX))                                                                                   \
  X(Erf, "9 13", "input:T", OPT_F, OUT_T, broadcast, , F("erf(input)"), none,                      \
    ORT(APPROX))                                                                                   \
  X(Sigmoid, "1 6 13", "X:T", OPT_F, OUT_T, broadcast, , F("sigmoid(X)"), none,                    \
    ORT(APPROX))                                                                                   \
  X(Sinh, "9 22", "input:T", OPT_F, OUT_T, broadcast, , F("sinh(input)"), none,                    \
    ORT(APPROX))                                                                                   \
  X(Cosh, "9 22", "input:T", OPT_F, OUT_T, broadcast, , F("cosh(input)"), none,                    \
    ORT(APPROX))                                                                                   \
  X(Sin, "7 22", "input:T", OPT_F, OUT_T, broadcast, , F("sin(input)"), none,                      \
    ORT(APPROX))                                                                                   \
  X(Cos, "7 22", "input:T", OPT_F, OUT_T, broadcast, , F("cos(input)"), none,                      \
    ORT(APPROX))                                                                                   \
  X(Tan, "7 22", "input:T", OPT_F, OUT_T, broadcast, , F("tan(input)"), none,                      \
    ORT(APPROX))                                                                                   \
  X(Asin, "7 22", "input:T", OPT_F, OUT_T, broadcast, , F("asin(input)"), none,                    \
    ORT(APPROX))                                                                                   \
  X(Acos, "7 22", "input:T", OPT_F, OUT_T, broadcast, , F("acos(input)"), none,                    \
    ORT(APPROX))                                                                                   \
  X(Atan, "7 22", "input:T", OPT_F, OUT_T, broadcast, , F("atan(input)"), none,                    \
    ORT(APPROX))                                                                                   \
  X(Asinh, "9 22", "input:T", OPT_F, OUT_T, broadcast, , F("asinh(input)"), none,                  \
    ORT(APPROX))                                                                                   \
  X(Acosh, "9 22", "input:T", OPT_F, OUT_T, broadcast, , F("acosh(input)"), none,                  \
    ORT(APPROX))                                                                                   \
  X(Atanh, "9 22", "input:T", OPT_F, OUT_T, broadcast, , F("atanh(input)"), none,                  \
    ORT(APPROX))                                                                                   \
  X(Softplus, "1 22", "X:T", OPT_F, OUT_T, broadcast, , B(softplus), none, ORT(APPROX))            \
  X(Mish, "18 22", "X:T", OPT_F, OUT_T, broadcast, , B(mish), none, ORT(APPROX))                   \
  X(Gelu, "20", "X:T", OPT_F, OUT_T, broadcast, A(s, approximate, "none"), B(gelu), gelu,          \
    ORT(APPROX))                                                                                   \
  X(Sum, "1 6 8 13", "data_0:T...", OPT_F, OUT_T, broadcast, , B(sum), same_shape_6,               \
    ORTR("adds Sum's float16 inputs in float and rounds once", "float16"))                         \
  X(Mean, "1 6 8 13", "data_0:T...", OPT_F, OUT_T, broadcast, , B(mean), same_shape_6,             \
    ORTR("adds Mean's float16 inputs in float and rounds once", "float16"))                        \
  X(Dropout, "1 6 7 10 12 13 22", "data:T ratio?:* training_mode?:*", OPT_F, OUT_T, dropout,       \
    AV(i, is_test, 0, 1, 7) AV(f, ratio, 0.5f, 1, 12) AV(i, seed, 0, 12, 0), F("data"), dropout,   \
    ORT(EXACT))                                                                                    \
  X(Pow, "1 7 12 13 15", "X:T Y:*", OPT_F | OPT_S, OUT_T, broadcast, LEGACY_BROADCAST,             \
    B(pow), pow, ORT(APPROX))                                                                      \
  X(BatchNormalization, "1 6 7 9 14 15", "X:T scale:T B:T input_mean:T input_var:T", OPT_F,        \
    OUT_T, first,                                                                                  \
    A(f, epsilon, 1e-5f) A(f, momentum, 0.9f) AV(i, is_test, 0, 1, 7) AV(i, spatial, 1, 1, 9)      \
    AV(i, training_mode, 0, 14, 0), B(batchnorm), batchnorm,                                       \
    ORTR("folds BatchNormalization into a scale and a shift per channel", ""))                     \
  X(QuantizeLinear, "10 13 19 21 23 24 25 28", "x:T y_scale:* y_zero_point?:*", OPT_F | OPT_S,     \
    OUT_QUANT, first,                                                                              \
    AV(i, axis, 1, 13, 0) AV(i, block_size, 0, 21, 0) AV(i, output_dtype, 0, 21, 0)                \
    AV(i, saturate, 1, 19, 0) AV(i, precision, 0, 23, 0), B(quantize), quantize, ORT(EXACT))       \
  X(DequantizeLinear, "10 13 19 21 23 24 25 28", "x:T x_scale:* x_zero_point?:*", OPT_INT,         \
    OUT_SCALE, first, AV(i, axis, 1, 13, 0) AV(i, block_size, 0, 21, 0)                            \
    AV(i, output_dtype, 0, 23, 0), B(dequantize),                                                  \
    dequantize, ORT(EXACT))                                                                        \
  /* the operators no kernel computes: their type and shape rules only (infer.c) */                \
  X(Conv, "1 11 22", "X:T W:T B?:T", OPT_F, OUT_T, conv, , NONE, none, ORT(EXACT))                 \
  X(ConvInteger, "10", "x:T w:* x_zero_point?:* w_zero_point?:*", OPT_INT, OUT_INT32, conv, ,      \
    NONE, none, ORT(EXACT))                                                                        \
  X(ConvTranspose, "1 11 22", "X:T W:T B?:T", OPT_F, OUT_T, conv_transpose, ,                      \
    NONE, none, ORT(EXACT))                                                                        \
  X(MaxPool, "1 8 10 11 12 22", "X:T", OPT_NUM, OUT_T, pool, , NONE, none, ORT(EXACT))             \
  X(AveragePool, "1 7 10 11 19 22", "X:T", OPT_F, OUT_T, pool, , NONE, none, ORT(EXACT))           \
  X(LpPool, "1 2 11 18 22", "X:T", OPT_F, OUT_T, pool, , NONE, none, ORT(EXACT))                   \
  X(GlobalAveragePool, "1 22", "X:T", OPT_F, OUT_T, global_pool, , NONE, none, ORT(EXACT))         \
  X(GlobalMaxPool, "1 22", "X:T", OPT_F, OUT_T, global_pool, , NONE, none, ORT(EXACT))             \
  X(GlobalLpPool, "1 2 22", "X:T", OPT_F, OUT_T, global_pool, , NONE, none, ORT(EXACT))            \
  X(InstanceNormalization, "1 6 22", "input:T scale:T B:T", OPT_F, OUT_T, same, ,                  \
    NONE, none, ORT(EXACT))                                                                        \
  X(LRN, "1 13", "X:T", OPT_F, OUT_T, same, , NONE, none, ORT(EXACT))                              \
  X(Softmax, "1 11 13", "input:T", OPT_F, OUT_T, same, A(i, axis, -1), B(softmax), softmax,        \
    ORT(APPROX))                                                                                   \
  X(LogSoftmax, "1 11 13", "input:T", OPT_F, OUT_T, same, A(i, axis, -1), B(log_softmax), softmax, \
    ORT(APPROX))                                                                                   \
  X(Hardmax, "1 11 13", "input:T", OPT_F, OUT_T, same, , NONE, none, ORT(EXACT))                   \
  X(LayerNormalization, "17", "X:T Scale:* B?:*", OPT_F, OUT_T, same,                             \
    A(i, axis, -1) A(f, epsilon, 1e-5f) A(i, stash_type, 1), B(layer_norm), norm, ORT(APPROX))     \
  X(MeanVarianceNormalization, "9 13", "X:T", OPT_F, OUT_T, same, , NONE, none, ORT(EXACT))        \
  X(GroupNormalization, "18 21", "X:T scale:T bias:T", OPT_F, OUT_T, same, ,                       \
    NONE, none, ORT(EXACT))                                                                        \
  X(Trilu, "14", "input:T k?:*", OPT_ALL, OUT_T, same, , NONE, none, ORT(EXACT))                   \
  X(CumSum, "11 14", "x:T axis:*", OPT_NUM, OUT_T, same, , NONE, none, ORT(EXACT))                 \
  X(ReverseSequence, "10 28", "input:T sequence_lens:*", OPT_ALL, OUT_T, same, ,                   \
    NONE, none, ORT(EXACT))                                                                        \
  X(Gemm, "1 6 7 9 11 13", "A:T B:T C?:T", OPT_NUM, OUT_T, gemm, , NONE, none, ORT(EXACT))         \
  X(MatMul, "1 9 13", "A:T B:T", OPT_NUM, OUT_T, matmul, , NONE, none, ORT(EXACT))                 \
  X(DynamicQuantizeLinear, "11", "x:T", OPT_F, OUT_T, dynamic_quantize, , NONE, none, ORT(EXACT))  \
  X(MatMulInteger, "10", "A:T B:* a_zero_point?:* b_zero_point?:*", OPT_INT, OUT_INT32, matmul, ,  \
    NONE, none, ORT(EXACT))                                                                        \
  X(Reshape, "1 5 13 14 19 21 23 24 25", "data:T shape?:*", OPT_ALL, OUT_T, reshape, ,             \
    NONE, none, ORT(EXACT))                                                                        \
  X(Flatten, "1 9 11 13 21 23 24 25", "input:T", OPT_ALL, OUT_T, flatten, ,                        \
    NONE, none, ORT(EXACT))                                                                        \
  X(Transpose, "1 13 21 23 24 25", "data:T", OPT_ALL, OUT_T, transpose, , NONE, none, ORT(EXACT))  \
  X(Concat, "1 4 11 13", "inputs:T...", OPT_ALL, OUT_T, concat, , NONE, none, ORT(EXACT))          \
  X(Split, "1 2 11 13 18", "input:T split?:*", OPT_ALL, OUT_T, split, , NONE, none, ORT(EXACT))    \
  X(Slice, "1 10 11 13", "data:T starts?:* ends?:* axes?:* steps?:*", OPT_ALL, OUT_T, slice, ,     \
    NONE, none, ORT(EXACT))                                                                        \
  X(Gather, "1 11 13", "data:T indices:*", OPT_ALL, OUT_T, gather, , NONE, none, ORT(EXACT))       \
  X(Squeeze, "1 11 13 21 23 24 25", "data:T axes?:*", OPT_ALL, OUT_T, squeeze, ,                   \
    NONE, none, ORT(EXACT))                                                                        \
  X(Unsqueeze, "1 11 13 21 23 24 25", "data:T axes?:*", OPT_ALL, OUT_T, unsqueeze, ,               \
    NONE, none, ORT(EXACT))                                                                        \
  X(Expand, "8 13", "input:T shape:*", OPT_ALL, OUT_T, expand, , NONE, none, ORT(EXACT))           \
  X(Tile, "1 6 13", "input:T repeats?:* axis?:*", OPT_ALL, OUT_T, tile, , NONE, none, ORT(EXACT))  \
  X(Resize, "10 11 13 18 19", "X:T roi?:* scales?:* sizes?:*", OPT_ALL, OUT_T, resize, ,           \
    NONE, none, ORT(EXACT))                                                                        \
  X(Upsample, "1 7 9 10", "X:T scales?:*", OPT_ALL, OUT_T, upsample, , NONE, none, ORT(EXACT))     \
  X(Pad, "1 2 11 13 18 19 21 23 24 25", "data:T pads?:* constant_value?:* axes?:*",                \
    OPT_ALL, OUT_T, pad, , NONE, none, ORT(EXACT))                                                 \
  X(ReduceSum, "1 11 13", "data:T axes?:*", OPT_NUM, OUT_T, reduce_axes_13,                        \
    REDUCE_ATTRS(13),                                                                              \
    B(reduce), reduce_last, ORTR("sums in another order", ""))                                     \
  X(ReduceMean, "1 11 13 18", "data:T axes?:*", OPT_NUM, OUT_T, reduce_axes_18,                    \
    REDUCE_ATTRS(18),                                                                              \
    B(reduce), reduce_last, ORTR("sums in another order", ""))                                     \
  X(ReduceMax, "1 11 12 13 18 20", "data:T axes?:*", OPT_ALL, OUT_T, reduce_axes_18,               \
    REDUCE_ATTRS(18),                                                                              \
    B(reduce), reduce_last, ORT(EXACT))                                                            \
  X(ReduceMin, "1 11 12 13 18 20", "data:T axes?:*", OPT_ALL, OUT_T, reduce_axes_18,               \
    REDUCE_ATTRS(18),                                                                              \
    B(reduce), reduce_last, ORT(EXACT))                                                            \
  X(ReduceProd, "1 11 13 18", "data:T axes?:*", OPT_NUM, OUT_T, reduce_axes_18, ,                  \
    NONE, none, ORT(EXACT))                                                                        \
  X(ReduceL1, "1 11 13 18", "data:T axes?:*", OPT_NUM, OUT_T, reduce_axes_18, ,                    \
    NONE, none, ORT(EXACT))                                                                        \
  X(ReduceL2, "1 11 13 18", "data:T axes?:*", OPT_NUM, OUT_T, reduce_axes_18,                      \
    REDUCE_ATTRS(18),                                                                              \
    B(reduce), reduce_last, ORTR("sums in another order", ""))                                     \
  X(ReduceLogSum, "1 11 13 18 28", "data:T axes?:*", OPT_NUM, OUT_T, reduce_axes_18, ,             \
    NONE, none, ORT(EXACT))                                                                        \
  X(ReduceLogSumExp, "1 11 13 18 28", "data:T axes?:*", OPT_NUM, OUT_T, reduce_axes_18,            \
    REDUCE_ATTRS(18),                                                                              \
    B(reduce), reduce_last, ORT(APPROX))                                                           \
  X(ReduceSumSquare, "1 11 13 18", "data:T axes?:*", OPT_NUM, OUT_T, reduce_axes_18,               \
    REDUCE_ATTRS(18),                                                                              \
    B(reduce), reduce_last, ORTR("sums in another order", ""))                                     \
  X(ArgMax, "1 11 12 13", "data:T", OPT_NUM, OUT_INT64, arg_reduce, , NONE, none, ORT(EXACT))      \
  X(ArgMin, "1 11 12 13", "data:T", OPT_NUM, OUT_INT64, arg_reduce, , NONE, none, ORT(EXACT))      \
  X(Shape, "1 13 15 19 21 23 24 25", "data:T", OPT_ALL, OUT_INT64, shape, ,                        \
    NONE, none, ORT(EXACT))                                                                        \
  X(Size, "1 13 19 21 23 24 25", "data:T", OPT_ALL, OUT_INT64, size, , NONE, none, ORT(EXACT))     \
  X(ConstantOfShape, "9 20 21 23 24 25", "input:*", OPT_ALL, OUT_T, constant_of_shape, ,           \
    NONE, none, ORT(EXACT))                                                                        \
  X(Range, "11 27", "start:T limit:T delta:T", OPT_NUM, OUT_T, range, , NONE, none, ORT(EXACT))    \
  X(LSTM, "1 7 14 22", "X:T W:T R:T B?:T sequence_lens?:* initial_h?:T initial_c?:T P?:T",         \
    OPT_F, OUT_T, rnn, , NONE, none, ORT(EXACT))                                                   \
  X(GRU, "1 3 7 14 22", "X:T W:T R:T B?:T sequence_lens?:* initial_h?:T", OPT_F, OUT_T, rnn, ,     \
    NONE, none, ORT(EXACT))                                                                        \
  X(RNN, "1 7 14 22", "X:T W:T R:T B?:T sequence_lens?:* initial_h?:T", OPT_F, OUT_T, rnn, ,       \
    NONE, none, ORT(EXACT))                                                                        \
  X(LpNormalization, "1 22", "input:T", OPT_F, OUT_T, same, , NONE, none, ORT(EXACT))              \
  X(RMSNormalization, "23", "X:T scale:*", OPT_F, OUT_SCALE, same,                                \
    A(i, axis, -1) A(f, epsilon, 1e-5f) A(i, stash_type, 1), B(rms_norm), norm, ORT(APPROX))       \
  X(RotaryEmbedding, "23", "X:T cos_cache:T sin_cache:T position_ids?:*", OPT_F, OUT_T, same, ,    \
    NONE, none, ORT(EXACT))                                                                        \
  X(Swish, "24", "X:T", OPT_F, OUT_T, same, , NONE, none, ORT(EXACT))                              \
  X(SwiGLU, "28", "A:T B:T", OPT_F, OUT_T, broadcast, , NONE, none, ORT(EXACT))                    \
  X(CumProd, "26", "x:T axis:*", OPT_NUM, OUT_T, same, , NONE, none, ORT(EXACT))                   \
  X(ScatterElements, "11 13 16 18", "data:T indices:* updates:T", OPT_ALL, OUT_T, same, ,          \
    NONE, none, ORT(EXACT))                                                                        \
  X(ScatterND, "11 13 16 18", "data:T indices:* updates:T", OPT_ALL, OUT_T, same, ,                \
    NONE, none, ORT(EXACT))                                                                        \
  X(TensorScatter, "24", "past_cache:T update:T write_indices?:*", OPT_ALL, OUT_T, same, ,         \
    NONE, none, ORT(EXACT))                                                                        \
  X(TopK, "1 10 11 24", "X:T K?:*", OPT_NUM, OUT_T, topk, , NONE, none, ORT(EXACT))                \
  X(GatherElements, "11 13", "data:T indices:*", OPT_ALL, OUT_T, gather_elements, ,                \
    NONE, none, ORT(EXACT))                                                                        \
  X(GatherND, "11 12 13", "data:T indices:*", OPT_ALL, OUT_T, gather_nd, , NONE, none, ORT(EXACT)) \
  X(OneHot, "9 11 28", "indices:* depth:* values:T", OPT_ALL, OUT_T, onehot, ,                     \
    NONE, none, ORT(EXACT))                                                                        \
  X(Compress, "9 11 28", "input:T condition:*", OPT_ALL, OUT_T, compress, , NONE, none, ORT(EXACT)) \
  X(Unique, "11 28", "X:T", OPT_ALL, OUT_T, unique, , NONE, none, ORT(EXACT))                      \
  X(DepthToSpace, "1 11 13 28", "input:T", OPT_ALL, OUT_T, depth_to_space, ,                       \
    NONE, none, ORT(EXACT))                                                                        \
  X(SpaceToDepth, "1 13 28", "input:T", OPT_ALL, OUT_T, space_to_depth, , NONE, none, ORT(EXACT))  \
  X(Einsum, "12 28", "Inputs:T...", OPT_NUM, OUT_T, einsum, , NONE, none, ORT(EXACT))              \
  X(Det, "11 22", "X:T", OPT_F, OUT_T, det, , NONE, none, ORT(EXACT))                              \
  X(NonMaxSuppression, "10 11",                                                                    \
    "boxes:T scores:* max_output_boxes_per_class?:* iou_threshold?:* score_threshold?:*", OPT_F,   \
    OUT_INT64, nms, , NONE, none, ORT(EXACT))                                                      \
  X(RoiAlign, "10 16 22", "X:T rois:T batch_indices:*", OPT_F, OUT_T, roi, , NONE, none,           \
    ORT(EXACT))                                                                                    \
  X(MaxRoiPool, "1 22", "X:T rois:T", OPT_F, OUT_T, roi, , NONE, none, ORT(EXACT))                 \
  X(GridSample, "16 20 22", "X:T grid:*", OPT_ALL, OUT_T, grid_sample, , NONE, none, ORT(EXACT))   \
  X(AffineGrid, "20", "theta:T size:*", OPT_F, OUT_T, affine_grid, , NONE, none, ORT(EXACT))       \
  X(MaxUnpool, "9 11 22", "X:T I:* output_shape?:*", OPT_F, OUT_T, max_unpool, ,                   \
    NONE, none, ORT(EXACT))                                                                        \
  X(Col2Im, "18", "input:T image_shape:* block_shape:*", OPT_ALL, OUT_T, col2im, ,                 \
    NONE, none, ORT(EXACT))                                                                        \
  X(CenterCropPad, "18", "input_data:T shape:*", OPT_ALL, OUT_T, center_crop_pad, ,                \
    NONE, none, ORT(EXACT))                                                                        \
  X(DeformConv, "19 22", "X:T W:T offset:T B?:T mask?:T", OPT_F, OUT_T, conv, ,                    \
    NONE, none, ORT(EXACT))                                                                        \
  X(DFT, "17 20", "input:T dft_length?:* axis?:*", OPT_F, OUT_T, dft, , NONE, none, ORT(EXACT))    \
  X(STFT, "17", "signal:T frame_step:* window?:T frame_length?:*", OPT_F, OUT_T, stft, ,           \
    NONE, none, ORT(EXACT))                                                                        \
  X(HannWindow, "17", "size:*", OPT_ALL, OUT_RULE, window_fn, , NONE, none, ORT(EXACT))            \
  X(HammingWindow, "17", "size:*", OPT_ALL, OUT_RULE, window_fn, , NONE, none, ORT(EXACT))         \
  X(BlackmanWindow, "17", "size:*", OPT_ALL, OUT_RULE, window_fn, , NONE, none, ORT(EXACT))        \
  X(MelWeightMatrix, "17",                                                                         \
    "num_mel_bins:* dft_length:* sample_rate:* lower_edge_hertz:* upper_edge_hertz:*", OPT_ALL,    \
    OUT_RULE, mel, , NONE, none, ORT(EXACT))                                                       \
  X(QLinearConv, "10",                                                                             \
    "x:T x_scale:* x_zero_point:* w:* w_scale:* w_zero_point:* y_scale:* y_zero_point:* B?:*",     \
    OPT_INT, OUT_RULE, qlinear_conv, , NONE, none, ORT(EXACT))                                     \
  X(QLinearMatMul, "10 21",                                                                        \
    "a:T a_scale:* a_zero_point:* b:* b_scale:* b_zero_point:* y_scale:* y_zero_point:*",          \
    OPT_INT, OUT_RULE, qlinear_matmul, , NONE, none, ORT(EXACT))                                   \
  X(Attention, "23 24 25",                                                                         \
    "Q:T K:T V:* attn_mask?:* past_key?:T past_value?:* nonpad_kv_seqlen?:*", OPT_F, OUT_T,        \
    attention, , NONE, none, ORT(EXACT))                                                           \
  X(RandomNormal, "1 22", "", OPT_ALL, OUT_RULE, random, , NONE, none, ORT(EXACT))                 \
  X(RandomUniform, "1 22", "", OPT_ALL, OUT_RULE, random, , NONE, none, ORT(EXACT))                \
  X(RandomNormalLike, "1 22", "input:T", OPT_ALL, OUT_RULE, like, , NONE, none, ORT(EXACT))        \
  X(RandomUniformLike, "1 22", "input:T", OPT_ALL, OUT_RULE, like, , NONE, none, ORT(EXACT))       \
  X(Bernoulli, "15 22", "input:T", OPT_F, OUT_RULE, like, , NONE, none, ORT(EXACT))                \
  X(EyeLike, "9 22", "input:T", OPT_ALL, OUT_RULE, like, , NONE, none, ORT(EXACT))                 \
  X(Multinomial, "7 22", "input:T", OPT_F, OUT_RULE, multinomial, , NONE, none, ORT(EXACT))        \
  X(BitCast, "26", "input:T", OPT_ALL, OUT_RULE, bitcast, , NONE, none, ORT(EXACT))                \
  X(NegativeLogLikelihoodLoss, "12 13 22", "input:T target:* weight?:T", OPT_F, OUT_T, loss, ,     \
    NONE, none, ORT(EXACT))                                                                        \
  X(SoftmaxCrossEntropyLoss, "12 13", "scores:T labels:* weights?:T", OPT_F, OUT_T, loss, ,        \
    NONE, none, ORT(EXACT))                                                                        \
  X(RegexFullMatch, "20", "X:T", OPT_STR, OUT_BOOL, same, , NONE, none, ORT(EXACT))                \
  X(StringConcat, "20", "X:T Y:T", OPT_STR, OUT_T, broadcast, , NONE, none, ORT(EXACT))            \
  X(StringNormalizer, "10", "X:T", OPT_STR, OUT_T, string_normalizer, , NONE, none, ORT(EXACT))    \
  X(StringSplit, "20", "X:T", OPT_STR, OUT_RULE, opaque, , NONE, none, ORT(EXACT))                 \
  X(TfIdfVectorizer, "9", "X:T", OPT_INT | OPT_STR, OUT_RULE, tfidf, , NONE, none, ORT(EXACT))     \
  X(ImageDecoder, "20", "encoded_stream:T", OPT_U, OUT_RULE, opaque, , NONE, none, ORT(EXACT))     \
  X(CausalConvWithState, "27", "input:T weight:T bias?:T past_state?:T", OPT_F, OUT_T, opaque, ,   \
    NONE, none, ORT(EXACT))                                                                        \
  X(LinearAttention, "27", "query:T key:T value:T past_state?:* decay?:T beta?:T", OPT_F, OUT_T,   \
    opaque, , NONE, none, ORT(EXACT))                                                              \
  /* sequences and optionals: no tensors (SequenceLength and OptionalHasElement scalars) */       \
  X(SequenceConstruct, "11", "inputs:T...", OPT_ALL, OUT_RULE, opaque, , NONE, none, ORT(EXACT))   \
  X(SequenceEmpty, "11", "", OPT_ALL, OUT_RULE, opaque, , NONE, none, ORT(EXACT))                  \
  X(SequenceAt, "11", "input_sequence:* position:*", OPT_ALL, OUT_RULE, opaque, ,                  \
    NONE, none, ORT(EXACT))                                                                        \
  X(SequenceErase, "11", "input_sequence:* position?:*", OPT_ALL, OUT_RULE, opaque, ,              \
    NONE, none, ORT(EXACT))                                                                        \
  X(SequenceInsert, "11", "input_sequence:* tensor:* position?:*", OPT_ALL, OUT_RULE, opaque, ,    \
    NONE, none, ORT(EXACT))                                                                        \
  X(SequenceLength, "11", "input_sequence:*", OPT_ALL, OUT_RULE, opaque, , NONE, none, ORT(EXACT)) \
  X(SequenceMap, "17", "input_sequence:* additional_inputs:*...", OPT_ALL, OUT_RULE, opaque, ,     \
    NONE, none, ORT(EXACT))                                                                        \
  X(SplitToSequence, "11 24", "input:T split?:*", OPT_ALL, OUT_RULE, opaque, ,                     \
    NONE, none, ORT(EXACT))                                                                        \
  X(ConcatFromSequence, "11", "input_sequence:*", OPT_ALL, OUT_RULE, opaque, ,                     \
    NONE, none, ORT(EXACT))                                                                        \
  X(Optional, "15 28", "input?:*", OPT_ALL, OUT_RULE, opaque, , NONE, none, ORT(EXACT))            \
  X(OptionalGetElement, "15 18 28", "input:*", OPT_ALL, OUT_RULE, opaque, , NONE, none, ORT(EXACT)) \
  X(OptionalHasElement, "15 18 28", "input?:*", OPT_ALL, OUT_RULE, opaque, , NONE, none, ORT(EXACT)) \
  X(If, "1 11 13 16 19 21 23 24 25", "cond:B", OPT_B, OUT_T, control, , NONE, none, ORT(EXACT))    \
  X(Loop, "1 11 13 16 19 21 23 24 25", "M?:* cond?:* v_initial:*...", OPT_ALL, OUT_T, control, ,   \
    NONE, none, ORT(EXACT))                                                                        \
  X(Scan, "8 9 11 16 19 21 23 24 25", "initial_state_and_scan_inputs:*...",                        \
    OPT_ALL, OUT_T, control, , NONE, none, ORT(EXACT))
/* clang-format on */

/* com.microsoft's operators that onnxruntime's optimizers and quantizer write into models
   (fused convolutions and products, the quantized element-wise operators, its attention and
   norms): the same columns, the identifier Ms<op_type> (the op_type is the identifier less
   "Ms"), since-version 1, shape rules only. */
/* clang-format off */
#define MS_OP_LIST(X)                                                                              \
  X(MsFusedConv, "1", "X:T W:T B?:T Z?:T", OPT_F, OUT_T, conv, , NONE, none, ORT(EXACT))           \
  X(MsFusedGemm, "1", "A:T B:T C?:T", OPT_F, OUT_T, gemm, , NONE, none, ORT(EXACT))                \
  X(MsFusedMatMul, "1", "A:T B:T", OPT_F, OUT_T, fused_matmul, , NONE, none, ORT(EXACT))           \
  X(MsGelu, "1", "X:T", OPT_F, OUT_T, same, , NONE, none, ORT(EXACT))                              \
  X(MsFastGelu, "1", "X:T bias?:T", OPT_F, OUT_T, same, , NONE, none, ORT(EXACT))                  \
  X(MsQuickGelu, "1", "X:T", OPT_F, OUT_T, same, , NONE, none, ORT(EXACT))                         \
  X(MsBiasGelu, "1", "A:T B:T", OPT_F, OUT_T, same, , NONE, none, ORT(EXACT))                      \
  X(MsBiasAdd, "1", "X:T bias:T skip:T", OPT_F, OUT_T, same, , NONE, none, ORT(EXACT))             \
  X(MsInverse, "1", "X:T", OPT_F, OUT_T, same, , NONE, none, ORT(EXACT))                           \
  X(MsSkipLayerNormalization, "1", "input:T skip:T gamma:T beta?:T bias?:T", OPT_F, OUT_T,         \
    skip_norm, , NONE, none, ORT(EXACT))                                                           \
  X(MsSkipSimplifiedLayerNormalization, "1", "input:T skip:T gamma:T bias?:T", OPT_F, OUT_T,       \
    skip_norm, , NONE, none, ORT(EXACT))                                                           \
  X(MsAttention, "1", "input:T weights:T bias?:T mask_index?:* past?:T attention_bias?:T "      \
    "past_sequence_length?:*", OPT_F, OUT_T, ms_attention, , NONE, none, ORT(EXACT))                                          \
  X(MsMultiHeadAttention, "1", "query:T key?:T value?:T bias?:T key_padding_mask?:* "             \
    "attention_bias?:T past_key?:T past_value?:T past_sequence_length?:* cache_indirection?:*", OPT_F, OUT_T, ms_attention, ,    \
    NONE, none, ORT(EXACT))                                                                        \
  X(MsDynamicQuantizeMatMul, "1", "A:T B:* b_scale:* b_zero_point?:* bias?:*", OPT_F, OUT_T,       \
    matmul, , NONE, none, ORT(EXACT))                                                              \
  X(MsMatMulIntegerToFloat, "1", "A:* B:* a_scale:* b_scale:* a_zero_point?:* b_zero_point?:* "   \
    "bias?:*", OPT_ALL, OUT_RULE, ms_matmul_to_float, , NONE, none, ORT(EXACT))                               \
  X(MsMatMulNBits, "1", "A:T B:* scales:* zero_points?:* g_idx?:* bias?:*", OPT_F, OUT_T, matmul_nbits, , NONE, none, ORT(EXACT))  \
  X(MsDynamicQuantizeLSTM, "1", "X:T W:* R:* B?:* sequence_lens?:* initial_h?:T initial_c?:T "   \
    "P?:* W_scale:* W_zero_point:* R_scale:* R_zero_point:*", OPT_F, OUT_T, rnn, , NONE, none, ORT(EXACT))                                                   \
  X(MsQLinearAdd, "1", "A:T A_scale:* A_zero_point?:* B:T B_scale:* B_zero_point?:* "   \
    "C_scale:* C_zero_point?:*", OPT_INT, OUT_T, qlinear_binary, ,      \
    NONE, none, ORT(EXACT))                                                                        \
  X(MsQLinearMul, "1", "A:T A_scale:* A_zero_point?:* B:T B_scale:* B_zero_point?:* "   \
    "C_scale:* C_zero_point?:*", OPT_INT, OUT_T, qlinear_binary, ,      \
    NONE, none, ORT(EXACT))                                                                        \
  X(MsQLinearSigmoid, "1", "X:T X_scale:* X_zero_point?:* Y_scale:* Y_zero_point?:*", OPT_INT, OUT_T, same, ,      \
    NONE, none, ORT(EXACT))                                                                        \
  X(MsQLinearLeakyRelu, "1", "X:T X_scale:* X_zero_point?:* Y_scale:* Y_zero_point?:*", OPT_INT, OUT_T, same, ,    \
    NONE, none, ORT(EXACT))                                                                        \
  X(MsQLinearAveragePool, "1", "X:T x_scale:* x_zero_point?:* y_scale:* y_zero_point?:*", OPT_INT, OUT_T, pool, ,  \
    NONE, none, ORT(EXACT))                                                                        \
  X(MsQLinearGlobalAveragePool, "1", "X:T x_scale:* x_zero_point:* y_scale:* y_zero_point:*", OPT_INT, OUT_T,     \
    global_pool, , NONE, none, ORT(EXACT))
/* clang-format on */

/* Every row: ONNX's, then com.microsoft's. */
#define ALL_OP_LIST(X) ONNX_OP_LIST(X) MS_OP_LIST(X)

/* Every operator's name as an enumerator, OP_Relu, ... */
typedef enum op_id {
#define OP_ID_(Name, ...) OP_##Name,
  ALL_OP_LIST(OP_ID_)
#undef OP_ID_
      OP_N
} op_id;

/* A typed struct per operator of its attributes (op_attrs_Relu, ...), each member the
   attribute's value or its default, and their union. */
#define A(type, name, dflt)               op_attr_##type name;
#define AV(type, name, dflt, from, until) op_attr_##type name;
#define OP_ATTRS_(Name, since, in, ty, out, shape, attrs, ...) \
  typedef struct op_attrs_##Name {                             \
    attrs char none_; /* no struct is empty */                 \
  } op_attrs_##Name;
ALL_OP_LIST(OP_ATTRS_)
#undef OP_ATTRS_
#undef A
#undef AV
typedef union op_attrs {
#define OP_MEMBER_(Name, ...) op_attrs_##Name Name;
  ALL_OP_LIST(OP_MEMBER_)
#undef OP_MEMBER_
} op_attrs;

/* An attribute column, for the generic checks and --list-operators. */
typedef struct op_attr {
  const char *name;
  char        type; /* 'f', 'i' or 's' */
  double      num;  /* the default of an f or i attribute */
  const char *str;  /* the default of an s attribute */
  int         from, until;
} op_attr;

#define OP_MAX_INPUTS 9 /* named inputs of a row; a variadic one repeats the last */

struct import_graph;
struct infer_ctx;
struct graph_node;
struct fusion_node;
struct form;
struct ex;

/* What an operator's check reads and writes: the node, its typed dtype T, and the facts the
   check derives for the form (fusion.h's fusion_node: the attributes, pad, cast_to). */
typedef struct op_ctx {
  const struct import_graph *gr;
  const struct graph_node   *ni;
  struct fusion_node        *fn;
  wc_dtype                   t;
} op_ctx;

/* The type and shape rules the rows name (infer.c). */
#define OP_RULE_DECL_(Name, since, in, ty, out, rule, ...) \
  void infer_##rule(const struct infer_ctx *c);
ALL_OP_LIST(OP_RULE_DECL_)
#undef OP_RULE_DECL_

typedef struct op_row {
  op_id       id;
  const char *name;    /* ONNX op_type */
  const char *since;   /* ONNX's since-versions, "1 6 13" */
  int         first;   /* the first of them: the opset the operator appeared in */
  const char *inputs;  /* the inputs column as written */
  int         n_named; /* inputs named */
  const char *in_name[OP_MAX_INPUTS];
  char        in_kind[OP_MAX_INPUTS]; /* 'T', 'B' or '*' */
  bool        in_optional[OP_MAX_INPUTS];
  int         min_in, max_in; /* max_in -1: any number */
  int         typed;          /* the index of its first T input */
  unsigned    types;          /* OPT_ classes T may have */
  op_out      out;
  const char *rule;                         /* the shape rule's name */
  void (*infer)(const struct infer_ctx *c); /* the type and shape rule */
  const op_attr *attrs;
  int            n_attrs;
  void (*read_attrs)(const struct import_graph *gr, const onnx_node *n, op_attrs *out);
  bool        elementwise;             /* a kernel computes it: a formula or a builder */
  const char *formula;                 /* spec text, or NULL when built */
  const char *builder;                 /* the builder's name, or NULL */
  struct ex *(*build)(struct form *f); /* NULL for a formula */
  const char *(*check)(op_ctx *c);     /* NULL when the columns say it all */
  op_ort      ort;
  const char *ort_why;    /* ORT_REORDER: how */
  const char *ort_dtypes; /* ORT_REORDER: the output dtypes where it shows ("" every one) */
  const char *domain;     /* "" (ONNX's) or "com.microsoft" */
} op_row;

/* The row of op_type in domain ("" or "ai.onnx", or "com.microsoft"), or NULL if import
   does not know it. */
const op_row *op_lookup(const char *domain, const char *op_type);

/* The row of id. */
const op_row *op_get(op_id id);

/* The index of input name in op's inputs (a formula's identifier), or -1. */
int op_input_index(const op_row *op, const char *name, size_t len);

/* The attribute column name of op, or NULL. */
const op_attr *op_attr_find(const op_row *op, const char *name, size_t len);

/* Does the value of a node of op have dtype bool whatever its inputs' dtype? */
bool op_gives_bool(const op_row *op);

/* The table as JSON (wherec import --list-operators): per operator its domain, since-versions,
   inputs, dtype classes, attributes, type and shape rule, formula or builder, checks and how
   onnxruntime compares. */
void op_list_json(FILE *out);

#endif
