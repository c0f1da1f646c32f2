/* wherec/operations.h: the operation table, one row per operation. The opcode enum,
   the spec's operators and functions, their typing, the runtime's checks, the
   interpreter's dispatch and the templates' spelling are all expanded from it. */
#ifndef WHEREC_OPERATIONS_H
#define WHEREC_OPERATIONS_H

#include <stdbool.h>

#include "dtypes.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- domains: the dtypes an operation takes ---------------------------------
   One flag per kind of WC_DTYPE_LIST, in the order SINT UINT REAL HALF BOOL
   COMPLEX STRING: 1 takes that kind's dtypes, 0 does not, 2 (REAL only) takes
   float but not double. For a comparison the domain is its operands'. */
#define WC_DOM_ANY   (1, 1, 1, 1, 1, 1, 1) /* every dtype: == != where */
#define WC_DOM_BOOL  (0, 0, 0, 0, 1, 0, 0) /* bool: || && ! */
#define WC_DOM_ORD   (1, 1, 1, 1, 1, 0, 0) /* ordered: numbers and bool: < <= > >= */
#define WC_DOM_NUM   (1, 1, 1, 1, 0, 0, 0) /* numbers: + - * / min max abs fmod */
#define WC_DOM_INT   (1, 1, 0, 0, 0, 0, 0) /* integers: % & | ^ ~ << >> */
#define WC_DOM_FLOAT (0, 0, 1, 1, 0, 0, 0) /* float16, bfloat16, float, double: floor .. sqrt */
#define WC_DOM_CRF   (0, 0, 2, 1, 0, 0, 0) /* correctly rounded functions: float, float16, bfloat16 */

/* ---- the table ----------------------------------------------------------------
   X(NAME, spelling, arity, domain, result, form, helper, on_bool)
   NAME      WC_OP_<NAME>; the Lua templates see the same name
   spelling  how the spec writes it: an operator ("+") or a function name ("min")
   arity     operands (earlier instructions a, b, c)
   domain    WC_DOM_<domain>: the dtypes its operands take (where: its branches)
   result    SAME: the operands' dtype; BOOL; TO: a cast's target
   form      INFIX a op b, PREFIX op a, CALL f(a, b): in the spec; LEAF (an input or a
             constant), SELECT (where), CAST (written as a dtype: float(x)) and REDUCE (a
             row reduction, row_sum(a) or row_sum(a, R): its value at an element is the
             fold of a over the element's row, the kernel's last R axes, and the
             instruction's b holds R) have rules of their own
   helper    the element operation of <wherec/ops.h>: wc_<helper>_<dtype suffix>
   on_bool   what the spec's operator means on bool, outside its domain (& | ^ are
             && || !=), or NONE
   ORDER: opcodes are the table ABI's numbers: new rows go at the end, so a table
   generated for an older runtime stays valid. */
/* clang-format off */
#define WC_OP_LIST(X) WC_OP_ROWS_(WC_OP_ROW_, X)
#define WC_OP_ROWS_(X, P)                                                               \
  X(P, INPUT, "",         0, ANY,   SAME, LEAF,   input, NONE) /* a = input index */       \
  X(P, CONST, "",         0, ANY,   SAME, LEAF,   const, NONE) /* bits = the value */      \
  X(P, WHERE, "where",    3, ANY,   SAME, SELECT, sel,   NONE) /* a: bool condition */     \
  X(P, OR,    "||",       2, BOOL,  SAME, INFIX,  or,    NONE)                             \
  X(P, AND,   "&&",       2, BOOL,  SAME, INFIX,  and,   NONE)                             \
  X(P, NOT,   "!",        1, BOOL,  SAME, PREFIX, not,   NONE)                             \
  X(P, EQ,    "==",       2, ANY,   BOOL, INFIX,  eq,    NONE)                             \
  X(P, NE,    "!=",       2, ANY,   BOOL, INFIX,  ne,    NONE)                             \
  X(P, LT,    "<",        2, ORD,   BOOL, INFIX,  lt,    NONE)                             \
  X(P, LE,    "<=",       2, ORD,   BOOL, INFIX,  le,    NONE)                             \
  X(P, GT,    ">",        2, ORD,   BOOL, INFIX,  gt,    NONE)                             \
  X(P, GE,    ">=",       2, ORD,   BOOL, INFIX,  ge,    NONE)                             \
  X(P, ADD,   "+",        2, NUM,   SAME, INFIX,  add,   NONE)                             \
  X(P, SUB,   "-",        2, NUM,   SAME, INFIX,  sub,   NONE)                             \
  X(P, MUL,   "*",        2, NUM,   SAME, INFIX,  mul,   NONE)                             \
  X(P, DIV,   "/",        2, NUM,   SAME, INFIX,  div,   NONE)                             \
  X(P, NEG,   "-",        1, NUM,   SAME, PREFIX, neg,   NONE)                             \
  X(P, MIN,   "min",      2, NUM,   SAME, CALL,   min,   NONE)                             \
  X(P, MAX,   "max",      2, NUM,   SAME, CALL,   max,   NONE)                             \
  X(P, ABS,   "abs",      1, NUM,   SAME, CALL,   abs,   NONE)                             \
  X(P, CAST,  "",         1, ANY,   TO,   CAST,   cast,  NONE) /* numbers and bool */      \
  X(P, MOD,   "%",        2, INT,   SAME, INFIX,  mod,   NONE) /* the divisor's sign */    \
  X(P, FMOD,  "fmod",     2, NUM,   SAME, CALL,   fmod,  NONE) /* the dividend's sign */   \
  X(P, BAND,  "&",        2, INT,   SAME, INFIX,  band,  AND)                              \
  X(P, BOR,   "|",        2, INT,   SAME, INFIX,  bor,   OR)                               \
  X(P, BXOR,  "^",        2, INT,   SAME, INFIX,  bxor,  NE)                               \
  X(P, BNOT,  "~",        1, INT,   SAME, PREFIX, bnot,  NONE)                             \
  X(P, SHL,   "<<",       2, INT,   SAME, INFIX,  shl,   NONE)                             \
  X(P, SHR,   ">>",       2, INT,   SAME, INFIX,  shr,   NONE)                             \
  X(P, FLOOR, "floor",    1, FLOAT, SAME, CALL,   floor, NONE)                             \
  X(P, CEIL,  "ceil",     1, FLOAT, SAME, CALL,   ceil,  NONE)                             \
  X(P, ROUND, "round",    1, FLOAT, SAME, CALL,   round, NONE) /* half to even */          \
  X(P, TRUNC, "trunc",    1, FLOAT, SAME, CALL,   trunc, NONE)                             \
  X(P, SQRT,  "sqrt",     1, FLOAT, SAME, CALL,   sqrt,  NONE)                             \
  X(P, EXP,   "exp",      1, CRF,   SAME, CALL,   exp,   NONE) /* exp.h */                 \
  X(P, LOG,   "log",      1, CRF,   SAME, CALL,   log,   NONE) /* crmath.h */              \
  X(P, TANH,  "tanh",     1, CRF,   SAME, CALL,   tanh,  NONE) /* crmath.h */              \
  X(P, SIGMOID, "sigmoid", 1, CRF,  SAME, CALL,   sigmoid, NONE) /* crmath.h */            \
  X(P, ERF,   "erf",      1, CRF,   SAME, CALL,   erf,   NONE) /* crmath.h */              \
  X(P, POW,   "pow",      2, CRF,   SAME, CALL,   pow,   NONE) /* pow.h */               \
  X(P, SINH,  "sinh",     1, CRF,   SAME, CALL,   sinh,  NONE) /* hyperbolic.h */        \
  X(P, COSH,  "cosh",     1, CRF,   SAME, CALL,   cosh,  NONE) /* hyperbolic.h */        \
  X(P, SIN,   "sin",      1, CRF,   SAME, CALL,   sin,   NONE) /* trig.h */              \
  X(P, COS,   "cos",      1, CRF,   SAME, CALL,   cos,   NONE) /* trig.h */              \
  X(P, TAN,   "tan",      1, CRF,   SAME, CALL,   tan,   NONE) /* trig.h */              \
  X(P, ASIN,  "asin",     1, CRF,   SAME, CALL,   asin,  NONE) /* inverse_trig.h */      \
  X(P, ACOS,  "acos",     1, CRF,   SAME, CALL,   acos,  NONE) /* inverse_trig.h */      \
  X(P, ATAN,  "atan",     1, CRF,   SAME, CALL,   atan,  NONE) /* inverse_trig.h */      \
  X(P, ASINH, "asinh",    1, CRF,   SAME, CALL,   asinh, NONE) /* inverse_hyperbolic.h */ \
  X(P, ACOSH, "acosh",    1, CRF,   SAME, CALL,   acosh, NONE) /* inverse_hyperbolic.h */ \
  X(P, ATANH, "atanh",    1, CRF,   SAME, CALL,   atanh, NONE) /* inverse_hyperbolic.h */ \
  X(P, EXPM1, "expm1",    1, CRF,   SAME, CALL,   expm1, NONE) /* activations.h */       \
  X(P, SOFTPLUS, "softplus", 1, CRF, SAME, CALL,  softplus, NONE) /* activations.h */    \
  X(P, SOFTSIGN, "softsign", 1, CRF, SAME, CALL,  softsign, NONE) /* activations.h */    \
  X(P, SILU,  "silu",     1, CRF,   SAME, CALL,   silu,  NONE) /* activations.h */        \
  X(P, MISH,  "mish",     1, CRF,   SAME, CALL,   mish,  NONE) /* activations.h */ \
  X(P, GELU,  "gelu",     1, CRF,   SAME, CALL,   gelu,  NONE) /* gelu.h */               \
  X(P, GELU_TANH, "gelu_tanh", 1, CRF, SAME, CALL, gelu_tanh, NONE) /* gelu_tanh.h */    \
  X(P, RSUM,  "row_sum",  1, NUM,   SAME, REDUCE, rsum,  NONE) /* b = rows' rank; rows.h */ \
  X(P, RMAX,  "row_max",  1, NUM,   SAME, REDUCE, rmax,  NONE) /* rows.h */              \
  X(P, RMIN,  "row_min",  1, NUM,   SAME, REDUCE, rmin,  NONE) /* rows.h */              \
  X(P, RMEAN, "row_mean", 1, FLOAT, SAME, REDUCE, rmean, NONE) /* rows.h */              \
  X(P, SELU,  "selu",     1, CRF,   SAME, CALL,   selu,  NONE) /* activations.h */
/* clang-format on */
/* WC_OP_LIST's rows without the pass-through argument P of WC_OP_ROWS_ (which
   lets a list nested in another, as the interpreter's dispatch, see its row). */
#define WC_OP_ROW_(X, ...) X(__VA_ARGS__)

#define WC_OP_ENUM_(NAME, spell, arity, dom, res, form, helper, on_bool) WC_OP_##NAME,
typedef enum wc_opcode { WC_OP_LIST(WC_OP_ENUM_) WC_OP_COUNT_ } wc_opcode;
#undef WC_OP_ENUM_
#define WC_OP_NONE WC_OP_COUNT_ /* on_bool of the operators that have no meaning on bool */

/* Operands of op (0 for an opcode outside the table). */
static inline int wc_op_arity(wc_opcode op) {
  switch (op) {
#define WC_OP_ARITY_(NAME, spell, arity, dom, res, form, helper, on_bool) \
  case WC_OP_##NAME: return arity;
    WC_OP_LIST(WC_OP_ARITY_)
#undef WC_OP_ARITY_
  default: return 0;
  }
}

#define WC_OP_RESULT_IS_BOOL_SAME false
#define WC_OP_RESULT_IS_BOOL_BOOL true
#define WC_OP_RESULT_IS_BOOL_TO   false
/* Is op's value bool whatever its operands' dtype (the comparisons)? */
static inline bool wc_op_gives_bool(wc_opcode op) {
  switch (op) {
#define WC_OP_GIVES_BOOL_(NAME, spell, arity, dom, res, form, helper, on_bool) \
  case WC_OP_##NAME: return WC_OP_RESULT_IS_BOOL_##res;
    WC_OP_LIST(WC_OP_GIVES_BOOL_)
#undef WC_OP_GIVES_BOOL_
  default: return false;
  }
}

#define WC_OP_FORM_REDUCES_LEAF   false
#define WC_OP_FORM_REDUCES_SELECT false
#define WC_OP_FORM_REDUCES_INFIX  false
#define WC_OP_FORM_REDUCES_PREFIX false
#define WC_OP_FORM_REDUCES_CALL   false
#define WC_OP_FORM_REDUCES_CAST   false
#define WC_OP_FORM_REDUCES_REDUCE true
/* Is op a row reduction (row_sum, ...: form REDUCE)? */
static inline bool wc_op_reduces(wc_opcode op) {
  switch (op) {
#define WC_OP_REDUCES_(NAME, spell, arity, dom, res, form, helper, on_bool) \
  case WC_OP_##NAME: return WC_OP_FORM_REDUCES_##form;
    WC_OP_LIST(WC_OP_REDUCES_)
#undef WC_OP_REDUCES_
  default: return false;
  }
}

/* The lanes of a row reduction: element i of a row is folded into lane i % 16,
   in order, each lane starting from the operation's identity; then the lanes
   are combined pairwise (lane l with lane l + 8, then l + 4, l + 2, l + 1).
   One order for every compiler, vector width, CPU and thread count. */
#define WC_ROW_LANES 16

/* ---- domain flags as tokens, for lists expanded per (operation, dtype) -------
   WC_DOM_FLAG(kind, domain) is the domain's flag for a kind of dtypes, and
   WC_DOM_WHEN(flag, E)(text) is text when the flag takes dtype WC_<E>, else
   nothing: the interpreter expands a case only for the pairs an operation is
   defined on, so a row added here needs no case of its own there. */
#define WC_DOM_FLAG(kind, dom)                   WC_DOM_APPLY_(WC_DOM_PICK_##kind, WC_DOM_##dom)
#define WC_DOM_APPLY_(macro, args)               macro args
#define WC_DOM_PICK_SINT(s, u, r, h, b, c, t)    s
#define WC_DOM_PICK_UINT(s, u, r, h, b, c, t)    u
#define WC_DOM_PICK_REAL(s, u, r, h, b, c, t)    r
#define WC_DOM_PICK_HALF(s, u, r, h, b, c, t)    h
#define WC_DOM_PICK_BOOL(s, u, r, h, b, c, t)    b
#define WC_DOM_PICK_COMPLEX(s, u, r, h, b, c, t) c
#define WC_DOM_PICK_STRING(s, u, r, h, b, c, t)  t
#define WC_DOM_WHEN(flag, E)                     WC_DOM_WHEN_(flag, E)
#define WC_DOM_WHEN_(flag, E)                    WC_DOM_WHEN_##flag(E)
#define WC_DOM_WHEN_0(E)                         WC_DOM_DROP_
#define WC_DOM_WHEN_1(E)                         WC_DOM_KEEP_
#define WC_DOM_WHEN_2(E)                         WC_DOM_F32_##E
#define WC_DOM_KEEP_(text)                       text
#define WC_DOM_DROP_(text)
#define WC_DOM_F32_FLOAT(text)                   text
#define WC_DOM_F32_DOUBLE(text)

/* ---- domain flags as values -------------------------------------------------- */

/* Does a domain of flags (s .. t, as above) take dtype t? */
static inline bool wc_dom_takes_(wc_dtype dt, int s, int u, int r, int h, int b, int c, int t) {
  int flag = -1;
  switch (dt) {
#define WC_DOM_KIND_FLAG_(E, code, name, T, alias, sfx, kind) \
  case WC_##E: flag = WC_DOM_PICK_##kind(s, u, r, h, b, c, t); break;
    WC_DTYPE_LIST(WC_DOM_KIND_FLAG_)
#undef WC_DOM_KIND_FLAG_
  default: return false;
  }
  return flag == 1 || (flag == 2 && dt == WC_FLOAT);
}
#define WC_DOM_FLAGS_(s, u, r, h, b, c, t) s, u, r, h, b, c, t
#define WC_DOM_ARGS_(dom)                  WC_DOM_APPLY_(WC_DOM_FLAGS_, WC_DOM_##dom)

/* Is operation op defined on operands of dtype t (where: on branches of dtype
   t; a cast: from t, see wc_cast_defined)? The one answer the spec checker,
   the runtime's table checks and the interpreter all give. */
static inline bool wc_op_defined(wc_opcode op, wc_dtype t) {
  switch (op) {
#define WC_OP_DEFINED_(NAME, spell, arity, dom, res, form, helper, on_bool) \
  case WC_OP_##NAME: return wc_dom_takes_(t, WC_DOM_ARGS_(dom));
    WC_OP_LIST(WC_OP_DEFINED_)
#undef WC_OP_DEFINED_
  default: return false;
  }
}

/* The correctly rounded functions with a raw form on float, wc_<name>_raw_f32 (exp.h
   says what a raw form is): generated kernels take them in float blocks (lower.c),
   crmath_exhaustive proves each against the exact form and checks this list against
   the functions it runs. */
#define WC_RAW_FORM_OPS(X) \
  X(EXP) X(LOG) X(TANH) X(SIGMOID) X(ERF) X(SINH) X(COSH) X(SIN) X(COS) X(TAN) X(ASIN) X(ACOS) X(ATAN) X(ASINH) X(ACOSH) X(ATANH) X(EXPM1) \
  X(SOFTPLUS) X(SILU) X(MISH) X(GELU) X(GELU_TANH) X(SELU)

static inline bool wc_op_has_raw_form(wc_opcode op) {
  switch (op) {
#define WC_RAW_FORM_CASE_(NAME) case WC_OP_##NAME:
    WC_RAW_FORM_OPS(WC_RAW_FORM_CASE_)
#undef WC_RAW_FORM_CASE_
    return true;
  default: return false;
  }
}

/* Is a cast from `from` to `to` defined? Numbers and bool convert into each
   other; complex and string cast only to themselves. */
static inline bool wc_cast_defined(wc_dtype from, wc_dtype to) {
  return from == to || (wc_dom_takes_(from, WC_DOM_ARGS_(ORD)) &&
                        wc_dom_takes_(to, WC_DOM_ARGS_(ORD)));
}

#ifdef __cplusplus
}
#endif
#endif
