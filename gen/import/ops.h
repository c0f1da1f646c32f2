/* ops.h: the ONNX operators wherec import knows, one row each: its kind, its spelling
   in the spec, its inputs, the dtypes it takes, the opset it appeared in. */
#ifndef WHEREC_GEN_IMPORT_OPS_H
#define WHEREC_GEN_IMPORT_OPS_H

#include <stdbool.h>

#include "front/ast.h"

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

/* X(op_type, kind, spelling, min inputs, max inputs (-1: any), copies, since, dtypes):
   spelling is the spec's operator or function ("" when the form is composite);
   copies is how many times the expression names an operand at most (Relu and the
   other activations compare before they select); since is the opset the operator
   appeared in; dtypes the classes its first typed input (Where's x) may have.
   Every other operator is not element-wise as far as wherec is concerned. The forms
   of the composite kinds are in spec_write.c (emit_node). */
/* clang-format off */
#define ONNX_OP_LIST(X)                                                                           \
  X(Greater, CMP, ">", 2, 2, 1, 1, OPT_NUM)          X(Less, CMP, "<", 2, 2, 1, 1, OPT_NUM)      \
  X(Equal, CMP, "==", 2, 2, 1, 1, OPT_EQ)            X(GreaterOrEqual, CMP, ">=", 2, 2, 1, 12, OPT_NUM) \
  X(LessOrEqual, CMP, "<=", 2, 2, 1, 12, OPT_NUM)                                            \
  X(Not, NOT, "!", 1, 1, 1, 1, OPT_B)                X(And, LOGIC, "&&", 2, 2, 1, 1, OPT_B)      \
  X(Or, LOGIC, "||", 2, 2, 1, 1, OPT_B)              X(Xor, LOGIC, "!=", 2, 2, 1, 1, OPT_B)      \
  X(Add, ARITH, "+", 2, 2, 1, 1, OPT_NUM)            X(Sub, ARITH, "-", 2, 2, 1, 1, OPT_NUM)     \
  X(Mul, ARITH, "*", 2, 2, 1, 1, OPT_NUM)            X(Div, ARITH, "/", 2, 2, 1, 1, OPT_NUM)     \
  X(Mod, MOD, "", 2, 2, 1, 10, OPT_NUM)                                                      \
  X(BitwiseAnd, ARITH, "&", 2, 2, 1, 18, OPT_INT)    X(BitwiseOr, ARITH, "|", 2, 2, 1, 18, OPT_INT) \
  X(BitwiseXor, ARITH, "^", 2, 2, 1, 18, OPT_INT)    X(BitwiseNot, UNARY, "~", 1, 1, 1, 18, OPT_INT) \
  X(BitShift, BITSHIFT, "", 2, 2, 1, 11, OPT_INT)                                              \
  X(Neg, UNARY, "-", 1, 1, 1, 1, OPT_SGN)            X(Abs, FUNC, "abs", 1, 1, 1, 1, OPT_NUM)   \
  X(Floor, FUNC, "floor", 1, 1, 1, 1, OPT_F)         X(Ceil, FUNC, "ceil", 1, 1, 1, 1, OPT_F)   \
  X(Round, FUNC, "round", 1, 1, 1, 11, OPT_F)        X(Sqrt, FUNC, "sqrt", 1, 1, 1, 1, OPT_F)   \
  X(Reciprocal, RECIP, "", 1, 1, 1, 1, OPT_F)        X(Softsign, SOFTSIGN, "", 1, 1, 2, 1, OPT_F) \
  X(IsNaN, ISNAN, "", 1, 1, 2, 9, OPT_F)             X(IsInf, ISINF, "", 1, 1, 2, 10, OPT_F)    \
  X(Min, MINMAX, "min", 1, -1, 1, 1, OPT_NUM)        X(Max, MINMAX, "max", 1, -1, 1, 1, OPT_NUM) \
  X(Relu, RELU, "", 1, 1, 2, 1, OPT_NUM)             X(LeakyRelu, LEAKY, "", 1, 1, 3, 1, OPT_F)  \
  X(PRelu, PRELU, "", 2, 2, 3, 1, OPT_NUM)           X(Clip, CLIP, "", 1, 3, 4, 1, OPT_NUM)     \
  X(ThresholdedRelu, THRELU, "", 1, 1, 2, 10, OPT_F) X(Shrink, SHRINK, "", 1, 1, 4, 9, OPT_NUM) \
  X(Sign, SIGN, "", 1, 1, 4, 9, OPT_NUM)             X(HardSigmoid, HSIGMOID, "", 1, 1, 1, 1, OPT_F) \
  X(HardSwish, HSWISH, "", 1, 1, 2, 14, OPT_F)       X(Elu, ELU, "", 1, 1, 3, 1, OPT_F)         \
  X(Selu, SELU, "", 1, 1, 3, 1, OPT_F)               X(Celu, CELU, "", 1, 1, 2, 12, OPT_F)      \
  X(Cast, CAST, "", 1, 1, 1, 1, OPT_ALL)             X(CastLike, CASTLIKE, "", 2, 2, 1, 15, OPT_ALL) \
  X(Identity, IDENTITY, "", 1, 1, 1, 1, OPT_ALL)                                             \
  X(Where, WHERE, "where", 3, 3, 1, 9, OPT_ALL)      X(NonZero, NONZERO, "nonzero", 1, 1, 1, 9, OPT_ALL) \
  X(Constant, CONSTANT, "", 0, -1, 1, 1, OPT_ALL)                                          \
  X(Exp, FUNC, "exp", 1, 1, 1, 1, OPT_F)             X(Log, FUNC, "log", 1, 1, 1, 1, OPT_F)     \
  X(Tanh, FUNC, "tanh", 1, 1, 1, 1, OPT_F)           X(Erf, FUNC, "erf", 1, 1, 1, 9, OPT_F)     \
  X(Sigmoid, FUNC, "sigmoid", 1, 1, 1, 1, OPT_F)                                             \
  X(Sinh, FUNC, "sinh", 1, 1, 1, 9, OPT_F)           X(Cosh, FUNC, "cosh", 1, 1, 1, 9, OPT_F)   \
  X(Sin, FUNC, "sin", 1, 1, 1, 7, OPT_F)             X(Cos, FUNC, "cos", 1, 1, 1, 7, OPT_F)     \
  X(Tan, FUNC, "tan", 1, 1, 1, 7, OPT_F)             X(Asin, FUNC, "asin", 1, 1, 1, 7, OPT_F)   \
  X(Acos, FUNC, "acos", 1, 1, 1, 7, OPT_F)           X(Atan, FUNC, "atan", 1, 1, 1, 7, OPT_F)   \
  X(Asinh, FUNC, "asinh", 1, 1, 1, 9, OPT_F)         X(Acosh, FUNC, "acosh", 1, 1, 1, 9, OPT_F) \
  X(Atanh, FUNC, "atanh", 1, 1, 1, 9, OPT_F)                                                 \
  X(Softplus, SOFTPLUS, "", 1, 1, 1, 1, OPT_F)       X(Mish, MISH, "", 1, 1, 2, 18, OPT_F)      \
  X(Gelu, GELU, "", 1, 1, 3, 20, OPT_F)                                                      \
  X(Sum, SUM, "+", 1, -1, 1, 1, OPT_F)               X(Mean, MEAN, "", 1, -1, 1, 1, OPT_F)      \
  X(Dropout, DROPOUT, "", 1, 3, 1, 1, OPT_F)         X(Pow, POW, "", 2, 2, 4, 1, OPT_F | OPT_S) \
  X(BatchNormalization, BATCHNORM, "", 5, 5, 1, 1, OPT_F)                                    \
  X(QuantizeLinear, QUANTIZE, "", 2, 3, 1, 10, OPT_F | OPT_S)                               \
  X(DequantizeLinear, DEQUANTIZE, "", 2, 3, 1, 10, OPT_INT)
/* clang-format on */

/* What an operator computes; the rules of each kind (dtypes, the expression) are
   in graph.c (inference), fusion.c (typing) and spec_write.c (the form). */
typedef enum import_kind {
  IMPORT_NONE,
  IMPORT_CMP,      /* a comparison: bool */
  IMPORT_NOT,      /* ! on bool */
  IMPORT_LOGIC,    /* && || and != (xor) on bool */
  IMPORT_ARITH,    /* a binary operator of the spec in the operands' dtype */
  IMPORT_MOD,      /* % or fmod, by the fmod attribute */
  IMPORT_BITSHIFT, /* << or >>, by the direction attribute */
  IMPORT_UNARY,    /* a unary operator of the spec: - ~ */
  IMPORT_FUNC,     /* a function of the spec of one operand */
  IMPORT_RECIP,
  IMPORT_SOFTSIGN,
  IMPORT_ISNAN,
  IMPORT_ISINF,
  IMPORT_MINMAX,
  IMPORT_RELU,
  IMPORT_LEAKY,
  IMPORT_PRELU,
  IMPORT_CLIP,
  IMPORT_THRELU,
  IMPORT_SHRINK,
  IMPORT_SIGN,
  IMPORT_HSIGMOID,
  IMPORT_HSWISH,
  IMPORT_ELU,
  IMPORT_SELU,
  IMPORT_CELU,
  IMPORT_CAST,
  IMPORT_CASTLIKE,
  IMPORT_IDENTITY,
  IMPORT_WHERE,
  IMPORT_NONZERO,
  IMPORT_CONSTANT,
  IMPORT_SOFTPLUS,   /* log(exp(x) + 1), ONNX's function body */
  IMPORT_MISH,       /* x * tanh(softplus(x)) */
  IMPORT_GELU,       /* approximate "none": (0.5 * x) * (erf(x / sqrt(2)) + 1) */
  IMPORT_SUM,        /* + folded from the left */
  IMPORT_MEAN,       /* the Sum, then / the count */
  IMPORT_DROPOUT,    /* inference: the identity */
  IMPORT_POW,        /* pow(x, y), or a constant exponent computed exactly (fusion.c) */
  IMPORT_BATCHNORM,  /* inference form, in ONNX's reference order */
  IMPORT_QUANTIZE,   /* saturate(round(x / scale) + zero_point) */
  IMPORT_DEQUANTIZE  /* (x - zero_point) * scale */
} import_kind;

typedef struct op_row {
  const char *name; /* ONNX op_type */
  import_kind     kind;
  const char *spell;  /* operator or function in the spec, "" if composite */
  int         min_in; /* inputs it takes at least */
  int         max_in; /* inputs it takes at most, -1 when any number */
  int         copies; /* times its expression names an operand, at most */
  int         since;  /* the opset it appeared in */
  unsigned    types;  /* OPT_ classes its typed input may have */
} op_row;

/* The row of op_type in domain ("" or "ai.onnx"), or NULL if import does not know it. */
const op_row *op_lookup(const char *domain, const char *op_type);

/* Inputs of a node of op with n_inputs that are operands of its expression
   (CastLike's second input gives a dtype only). */
int op_operands(const op_row *op, int n_inputs);

/* Does the value of a node of op have dtype bool whatever its inputs' dtype? */
bool op_gives_bool(const op_row *op);

#endif
