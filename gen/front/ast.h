/* ast.h: the syntax tree of `.where` specs, typed in place by sema.
   Expressions are trees of literals, parameter references, operators and calls. */
#ifndef WHEREC_GEN_AST_H
#define WHEREC_GEN_AST_H

#include <stdbool.h>
#include <stdint.h>

#include <wherec/wherec.h>

#include "base/arena.h"
#include "base/diag.h"

/* The domains of the operation table (WC_DOM_* of <wherec/operations.h>), by
   name, for the diagnostics that say what an operation takes. */
typedef enum ast_domain {
  AST_DOM_ANY,   /* every dtype: == != */
  AST_DOM_BOOL,  /* bool only: || && ! */
  AST_DOM_ORD,   /* numbers and bool: < <= > >= */
  AST_DOM_NUM,   /* integers and floats: + min abs fmod ... */
  AST_DOM_INT,   /* integers: % ~ << >> (and & | ^, which have a meaning on bool too) */
  AST_DOM_FLOAT, /* float16, bfloat16, float, double: floor ceil round trunc sqrt */
  AST_DOM_CRF    /* float, float16, bfloat16: the correctly rounded functions, exp */
} ast_domain;

/* Calls that are not operations of the table: X(NAME, spelling, arity). A call of
   an operation (where, min, exp, ...) is AST_FN_OP with u.call.op; a cast
   (`float(x)`, `T(x)`) is AST_FN_CAST; a call is AST_FN_UNRESOLVED until sema
   looks its name up. */
#define AST_FN_LIST(X) \
  X(WHERE_V1, "where_v1", 3) X(ARGWHERE, "argwhere", 1) X(NONZERO, "nonzero", 1)

#define AST_FN_ENUM_(name, str, arity) AST_FN_##name,
typedef enum ast_fn {
  AST_FN_UNRESOLVED = 0,
  AST_FN_OP,
  AST_FN_LIST(AST_FN_ENUM_) AST_FN_CAST,
  AST_FN_COUNT_
} ast_fn;
#undef AST_FN_ENUM_

typedef enum ast_expr_kind {
  AST_LIT,    /* literal: u.lit */
  AST_PARAM,  /* reference to a kernel parameter: u.param */
  AST_UNARY,  /* ! ~ or unary -: u.unary */
  AST_BINARY, /* || && == != < <= > >= + - * / % & | ^ << >>: u.binary */
  AST_CALL    /* built-in function or cast: u.call */
} ast_expr_kind;

typedef enum ast_lit_kind {
  AST_LIT_INT,   /* 42, 0x2a */
  AST_LIT_FLOAT, /* 0.01, 1e-3, .5 */
  AST_LIT_BOOL,  /* true, false */
  AST_LIT_INF,   /* inf */
  AST_LIT_NAN    /* nan */
} ast_lit_kind;

/* A shape pattern: rank dims, each a fixed extent >= 0 or WC_SYM(i) for the
   kernel's i-th symbolic extent (see <wherec/kernel.h>). */
typedef struct ast_shape {
  int     rank;              /* 0 = scalar */
  int64_t dims[WC_MAX_RANK]; /* outermost first */
} ast_shape;

/* The class of a dtype (the kind column of WC_DTYPE_LIST), for type rules and lowering. */
typedef enum ast_dtype_class {
  AST_CLASS_NONE, /* not a dtype */
  AST_CLASS_BOOL,
  AST_CLASS_SINT,    /* int8 .. int64 */
  AST_CLASS_UINT,    /* uint8 .. uint64 */
  AST_CLASS_REAL,    /* float, double */
  AST_CLASS_HALF,    /* float16, bfloat16: stored as bits, computed in float */
  AST_CLASS_COMPLEX, /* complex64, complex128 */
  AST_CLASS_STRING
} ast_dtype_class;

typedef struct ast_expr ast_expr;

struct ast_expr {
  ast_expr_kind kind;   /* which member of u is live */
  diag_loc      loc;    /* the literal, the name, the operator or the callee */
  int           height; /* 1 for a leaf, else 1 + the highest operand (<= PARSE_MAX_DEPTH) */
  wc_dtype      dtype;  /* after sema: dtype of the value (0 before) */
  ast_shape     shape;  /* after sema: shape pattern of the value */
  union {
    struct {
      ast_lit_kind kind;    /* how the literal was written */
      const char  *text;    /* spelling without a folded minus: "300", "0x1f", "inf" */
      bool         neg;     /* a unary minus was folded into the literal */
      bool         boolval; /* AST_LIT_BOOL: the value */
      uint64_t     bits[2]; /* after sema: the value's bits in dtype, as wc_instr.bits */
    } lit;
    struct {
      const char *name;  /* parameter or statement name */
      int         index; /* after sema: parameter number, declaration order (-1: a statement) */
      int         stmt;  /* after sema: statement of the body it names (-1: a parameter) */
    } param;
    struct {
      wc_opcode op;  /* a PREFIX operation of the table: WC_OP_NOT, WC_OP_NEG, WC_OP_BNOT */
      ast_expr *arg; /* the operand */
    } unary;
    struct {
      wc_opcode op;  /* an INFIX operation of the table: WC_OP_OR .. WC_OP_SHR */
      ast_expr *lhs; /* left operand */
      ast_expr *rhs; /* right operand */
    } binary;
    struct {
      const char *name;       /* callee as written: "where", "float", "T" */
      ast_fn      fn;         /* after sema: AST_FN_OP, a function of AST_FN_LIST, AST_FN_CAST */
      wc_opcode   op;         /* AST_FN_OP: the operation called */
      int         cast_var;   /* AST_FN_CAST: type variable index, -1 for a dtype name */
      wc_dtype    cast_dtype; /* AST_FN_CAST: target (after sema, also for T(x)) */
      int         rows;       /* a row reduction (REDUCE): R, its rows' rank (the
                                 optional second argument, default 1; after sema) */
      int         n_args;     /* arguments written (a reduction's R dropped by sema) */
      ast_expr  **args;       /* n_args operands, in order */
    } call;
  } u; /* per kind */
};

typedef struct ast_name {
  const char *name; /* NUL-terminated copy of the identifier */
  diag_loc    loc;  /* where it is written */
} ast_name;

/* A dtype variable of a specialization list: `T: float, int32`. */
typedef struct ast_tvar {
  const char *name;    /* "T" */
  diag_loc    loc;     /* the variable's name */
  int         n_types; /* dtypes listed (0 for `T:`, which sema rejects) */
  ast_name   *types;   /* dtype names or aliases as written */
} ast_tvar;

typedef struct ast_dim {
  const char *name;    /* symbolic extent, or NULL for a fixed one */
  uint64_t    value;   /* fixed extent */
  bool        too_big; /* fixed extent does not fit in 64 bits */
  diag_loc    loc;     /* the extent as written */
} ast_dim;

typedef struct ast_param {
  const char *name;     /* parameter name */
  diag_loc    loc;      /* the parameter's name */
  const char *type;     /* dtype name, alias or type variable as written */
  diag_loc    type_loc; /* where type is written */
  int         rank;     /* dims written; no brackets means a scalar */
  ast_dim    *dims;     /* rank entries, outermost first */
} ast_param;

/* A statement of a kernel's body: `let t = x + 3.0;` or `y = ...;` (an output). */
typedef struct ast_stmt {
  const char *name; /* the name it defines */
  diag_loc    loc;  /* the name as written */
  bool        let;  /* written with `let` */
  ast_expr   *expr; /* its value */
} ast_stmt;

typedef struct ast_kernel {
  const char *name;     /* kernel name before specialization */
  diag_loc    loc;      /* the kernel's name */
  int         n_tvars;  /* type variables (0: not specialized) */
  ast_tvar   *tvars;    /* specialization list, declaration order */
  int         n_params; /* parameters */
  ast_param  *params;   /* declaration order */
  ast_expr   *expr;     /* the kernel's value (one-expression form); NULL for a body */
  int         n_outputs; /* names of `-> (y, t)`; 0 in the one-expression form */
  ast_name   *outputs;   /* in the order the generated function takes them */
  int         n_stmts;   /* statements of the body `{ ... }` */
  ast_stmt   *stmts;     /* in source order */
} ast_kernel;

/* One value of a constant: a literal, `-` folded in as in expressions. */
typedef struct ast_value {
  const char  *text;    /* spelling without the minus: "300", "0x1f", "1.5e-3", "inf" */
  diag_loc     loc;     /* the literal (its minus included) */
  ast_lit_kind kind;    /* how it was written */
  bool         neg;     /* written with a minus */
  bool         boolval; /* AST_LIT_BOOL: the value */
} ast_value;

/* `const w: float[2,3] = {1, 2, 3, 4, 5, 6};` at the top level: an array that
   the kernels reading `w` bake into the generated code (sema appends it to
   each one's parameters, with its data). */
typedef struct ast_const {
  ast_param  decl;      /* name, dtype and shape, as a parameter writes them */
  diag_loc   brace;     /* the '{' of the values */
  int64_t    n_values;  /* values written */
  ast_value *values;    /* row-major */
} ast_const;

typedef enum ast_option_kind { AST_OPTION_INT, AST_OPTION_STRING } ast_option_kind;

typedef struct ast_option {
  const char     *name;      /* "prefix", "unroll", or anything (sema checks) */
  diag_loc        loc;       /* the option's name */
  ast_option_kind kind;      /* how the value was written */
  const char     *text;      /* string contents without quotes, or the integer's spelling */
  uint64_t        ival;      /* AST_OPTION_INT: value */
  bool            too_big;   /* AST_OPTION_INT: value does not fit in 64 bits */
  diag_loc        value_loc; /* the value as written */
} ast_option;

/* A parsed file: statements that parsed cleanly, in source order. */
typedef struct ast_file {
  arena       arena;     /* owns every node and string below */
  int         n_options; /* option statements */
  ast_option *options;   /* in source order */
  int         n_kernels; /* kernel statements without syntax errors */
  ast_kernel *kernels;   /* in source order */
  int         n_consts;  /* const statements without syntax errors */
  ast_const  *consts;    /* in source order */
} ast_file;

void ast_file_free(ast_file *f);

/* A deep copy of e, strings included, into a (sema types one copy per
   specialization, and the copy outlives the file's arena). */
ast_expr *ast_clone(arena *a, const ast_expr *e);

/* Dtypes as the spec spells them, expanded from WC_DTYPE_LIST: lookup by ONNX
   name or alias ("f32"), the class, and the bits of the element type (0 if
   unknown). Names and sizes are the runtime's: wc_dtype_name, wc_dtype_size. */
bool            ast_dtype_lookup(const char *name, wc_dtype *out);
ast_dtype_class ast_dtype_class_of(wc_dtype t);
unsigned        ast_dtype_bits(wc_dtype t);
const char     *ast_dtype_suffix(wc_dtype t); /* of the element operations: "f32" */
/* The operation table as the spec sees it (<wherec/operations.h>): an
   operation's spelling, its domain, what its operator means on bool (WC_OP_NONE
   when nothing), and the operation a function name calls (WC_OP_NONE when none);
   its name ("ADD") and the stem of its element operation in ops.h ("add"). */
const char *ast_op_spelling(wc_opcode op);
const char *ast_op_name(wc_opcode op);
const char *ast_op_helper(wc_opcode op);
ast_domain  ast_op_domain(wc_opcode op);
wc_opcode   ast_op_on_bool(wc_opcode op);
wc_opcode   ast_op_called(const char *name);
const char *ast_fn_str(ast_fn fn); /* "where_v1", ..., "cast" */
int         ast_fn_arity(ast_fn fn);

/* Value of a decimal or 0x hexadecimal integer spelling; false on overflow. */
bool ast_parse_uint(const char *text, uint64_t *out);

/* "[N,3]" (extent_names may be NULL: symbols print as "?0"). */
void ast_print_shape(diag_text *t, const ast_shape *s, const char *const *extent_names);
/* An S-expression of e; typed nodes also print ":dtype[shape]". */
void ast_print_expr(diag_text *t, const ast_expr *e, const char *const *extent_names);

#endif
