/* sema.h: semantic checks of a parsed spec, and the kernel instances they produce.
   Expands dtype specialization lists, types every expression and checks its shapes. */
#ifndef WHEREC_GEN_SEMA_H
#define WHEREC_GEN_SEMA_H

#include <stdbool.h>
#include <stdint.h>

#include "front/ast.h"
#include "base/diag.h"

#define SEMA_MAX_KERNELS  10000  /* kernel instances per file, after specialization */
#define SEMA_MAX_NODES    200000 /* expression nodes of all instances together */
#include "base/limits.h"  /* SEMA_MAX_UNROLL */
/* A prefix names the outputs <prefix>.h and <prefix>.c, each written first as
   <prefix>.h.tmpXXXXXX, so it leaves 12 of a file name's 255 bytes (NAME_MAX). */
#define SEMA_MAX_PREFIX   243
/* Fixed extents of a parameter or output multiply to at most this many elements
   (zeros aside), so that the byte size of any dtype fits in int64_t. */
#define SEMA_MAX_ELEMENTS (INT64_MAX / 16)

/* A `const` of the spec: its elements' bits, as wc_instr.bits[0] holds a
   constant of its dtype (no complex or string constants). */
typedef struct sema_const {
  const char     *name;     /* as the spec names it */
  diag_loc        loc;      /* its declaration */
  wc_dtype        dtype;
  ast_shape       shape;    /* fixed extents only */
  int64_t         n;        /* elements: the product of the extents */
  const uint64_t *bits;     /* n elements' bits, row-major */
} sema_const;

typedef struct sema_param {
  const char       *name;  /* parameter name in the spec */
  diag_loc          loc;   /* its declaration */
  wc_dtype          dtype; /* concrete (type variables substituted) */
  ast_shape         shape; /* fixed extents >= 0, symbolic WC_SYM(extent index) */
  const sema_const *cst;   /* a constant the kernel reads (appended after the declared
                              parameters, in order of first reading), else NULL */
} sema_param;

typedef struct sema_binding {
  const char *var;   /* type variable: "T" */
  wc_dtype    dtype; /* its dtype in this instance */
} sema_binding;

/* An output of a kernel: the generated function takes one pointer per output,
   in this order. Every output has the kernel's output shape (out_shape): a
   value of a smaller shape is broadcast to it, as the one output always was. */
typedef struct sema_output {
  const char     *name;  /* as `-> (y, t)` names it; "out" in the one-expression form */
  diag_loc        loc;   /* the name in the output list (the kernel's name there) */
  const ast_expr *value; /* typed: the statement that assigns it (or the value) */
} sema_output;

/* One kernel after specialization: what lowering turns into C and a program. */
typedef struct sema_kernel {
  const char         *name;         /* instance name: "pick2_float" ("pick" if not specialized) */
  const char         *base;         /* kernel name in the spec: "pick2" */
  diag_loc            loc;          /* the kernel's name in the spec */
  int                 n_bindings;   /* type variables (0 if the kernel has none) */
  const sema_binding *bindings;     /* their dtypes here, declaration order */
  wc_kernel_kind      kind;         /* elementwise, where_v1, argwhere or nonzero */
  int                 n_params;     /* inputs, the constants it reads included */
  const sema_param   *params;       /* declaration order: input i of the kernel; then the
                                       constants it reads (cst != NULL) */
  int                 n_extents;    /* symbolic extents */
  const char *const  *extent_names; /* order of first appearance: WC_SYM(i) is [i] */
  const ast_expr     *expr;         /* the whole typed expression */
  const ast_expr     *value;        /* what the program computes: expr, except the
                                       argument of a top-level argwhere / nonzero */
  int                 n_stmts;      /* statements of a body (0 in the one-expression form) */
  ast_expr *const    *stmts;        /* typed values, source order; a reference to statement
                                       j (u.param.stmt == j) has stmts[j]'s dtype and shape */
  int                 n_outputs;    /* 1 in the one-expression form */
  const sema_output  *outputs;      /* outputs[0].value is value */
  bool                body;         /* written with `-> (...) { ... }` */
  int                 rows;         /* R when it has row reductions (row_sum, ...): each
                                       reduces the output's last R axes; else 0 */
  wc_dtype            out_dtype;    /* output 0's; WC_INT64 for argwhere / nonzero */
  ast_shape           out_shape;    /* elementwise: shape of the output; where_v1: x's
                                       shape; argwhere / nonzero: shape of the value
                                       whose coordinates form the [n, rank] / [rank, n]
                                       output.  Except for where_v1 it is the broadcast
                                       of value's shape and every parameter's (unused
                                       parameters too, as wc_run broadcasts all inputs);
                                       value->shape may be smaller. */
} sema_kernel;

typedef struct sema_program {
  arena        arena;      /* owns everything below; independent of the ast_file */
  const char  *prefix;     /* option prefix, NULL if the spec sets none */
  diag_loc     prefix_loc; /* its value in the spec */
  int          unroll;     /* option unroll, 0 if the spec sets none */
  diag_loc     unroll_loc; /* its value in the spec */
  int          n_kernels;  /* kernel instances */
  sema_kernel *kernels;    /* declaration order, specializations in place */
  int          n_consts;   /* `const` statements (every one read by some kernel) */
  sema_const  *consts;     /* declaration order */
} sema_program;

/* Check f, reporting every error to d.  Returns the program, or NULL when the
   file has any error at all (d->n_errors > 0 afterwards, including errors the
   parser reported earlier into the same d).  Free with sema_free. */
sema_program *sema_check(const ast_file *f, diag_ctx *d);
void          sema_free(sema_program *p);

/* ONNX multidirectional broadcasting of two shape patterns (right-aligned;
   1 stretches; a symbol meets only itself or 1).  false if they do not. */
bool sema_broadcast(const ast_shape *a, const ast_shape *b, ast_shape *out);

/* A readable listing of p (options, then each kernel with its typed tree). */
void sema_dump(diag_text *t, const sema_program *p);

/* s can be used as a C identifier of its own: the syntax, at most 255 bytes, not a
   keyword (C11, plus bool/true/false), not reserved (`__x`, `_X`). The rule for a
   prefix, whether `option prefix` or --prefix gives it. */
bool sema_is_c_ident(const char *s);

#endif
