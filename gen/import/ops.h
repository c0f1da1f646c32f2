/* ops.h: the ONNX operators wherec import knows, one row each: its kind, its spelling
   in the spec, how many inputs it takes and how often its expression names an operand. */
#ifndef WHEREC_GEN_IMPORT_OPS_H
#define WHEREC_GEN_IMPORT_OPS_H

#include <stdbool.h>

/* X(op_type, kind, spelling, min inputs, max inputs (-1: any), copies, select):
   spelling is the spec's operator or function ("" when the form is composite);
   copies is how many times the expression names each operand (Relu, LeakyRelu
   and Clip compare before they select); select marks a region's anchor.
   Every other operator is not element-wise as far as wherec is concerned. */
/* clang-format off */
#define OP_LIST(X)                                                                     \
  X(Greater, CMP, ">", 2, 2, 1, false)       X(Less, CMP, "<", 2, 2, 1, false)          \
  X(Equal, CMP, "==", 2, 2, 1, false)        X(GreaterOrEqual, CMP, ">=", 2, 2, 1, false) \
  X(LessOrEqual, CMP, "<=", 2, 2, 1, false)                                            \
  X(Not, NOT, "!", 1, 1, 1, false)           X(And, LOGIC, "&&", 2, 2, 1, false)        \
  X(Or, LOGIC, "||", 2, 2, 1, false)         X(Xor, XOR, "!=", 2, 2, 1, false)          \
  X(Add, ARITH, "+", 2, 2, 1, false)         X(Sub, ARITH, "-", 2, 2, 1, false)         \
  X(Mul, ARITH, "*", 2, 2, 1, false)         X(Div, ARITH, "/", 2, 2, 1, false)         \
  X(Neg, NEG, "-", 1, 1, 1, false)           X(Abs, ABS, "abs", 1, 1, 1, false)         \
  X(Min, MINMAX, "min", 1, -1, 1, false)     X(Max, MINMAX, "max", 1, -1, 1, false)     \
  X(Relu, RELU, "", 1, 1, 2, true)           X(LeakyRelu, LEAKY, "", 1, 1, 3, true)     \
  X(Clip, CLIP, "", 1, 3, 4, true)                                                     \
  X(Cast, CAST, "", 1, 1, 1, false)          X(CastLike, CASTLIKE, "", 2, 2, 1, false)  \
  X(Identity, IDENTITY, "", 1, 1, 1, false)                                            \
  X(Where, WHERE, "where", 3, 3, 1, true)    X(NonZero, NONZERO, "nonzero", 1, 1, 1, true) \
  X(Constant, CONSTANT, "", 0, -1, 1, false)
/* clang-format on */

/* What an operator computes; the rules of each kind (dtypes, the expression) are
   in graph.c (inference), fusion.c (typing) and spec_write.c (the form). */
typedef enum op_kind {
  OP_NONE,
  OP_CMP,
  OP_NOT,
  OP_LOGIC,
  OP_XOR,
  OP_ARITH,
  OP_NEG,
  OP_ABS,
  OP_MINMAX,
  OP_RELU,
  OP_LEAKY,
  OP_CLIP,
  OP_CAST,
  OP_CASTLIKE,
  OP_IDENTITY,
  OP_WHERE,
  OP_NONZERO,
  OP_CONSTANT
} op_kind;

typedef struct op_row {
  const char *name; /* ONNX op_type */
  op_kind     kind;
  const char *spell;  /* operator or function in the spec, "" if composite */
  int         min_in; /* inputs it takes at least */
  int         max_in; /* inputs it takes at most, -1 when any number */
  int         copies; /* times its expression names each operand */
  bool        select; /* a Where, NonZero, Relu, LeakyRelu or Clip: a region
                         holding one becomes a kernel */
} op_row;

/* The row of op_type in domain ("" or "ai.onnx"), or NULL if import does not know it. */
const op_row *op_lookup(const char *domain, const char *op_type);

/* Inputs of a node of op with n_inputs that are operands of its expression
   (CastLike's second input gives a dtype only). */
int op_operands(const op_row *op, int n_inputs);

#endif
