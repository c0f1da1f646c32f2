/* expr.h: the expression trees wherec import writes a kernel from: parameters, exact
   literals, the spec's operators and calls, printed as spec text. */
#ifndef WHEREC_GEN_IMPORT_EXPR_H
#define WHEREC_GEN_IMPORT_EXPR_H

#include <stdbool.h>
#include <stdint.h>

#include "base/diag.h"
#include "import/graph.h"

/* A node of a kernel's expression. */
typedef struct ex {
  enum { EX_PARAM, EX_LIT, EX_UNARY, EX_BINARY, EX_CALL } kind;
  wc_dtype    dtype; /* dtype of the value */
  const char *text;  /* name, literal, operator or function */
  bool        typed; /* EX_LIT: spelled T(lit), as no sibling types it */
  int         n;     /* operands */
  struct ex  *arg[3];
} ex;

/* Where trees are made: the graph's arena, and the first constant that had no literal
   (the kernel is then refused with that reason). */
typedef struct ex_ctx {
  const import_graph *gr;
  const char         *unspellable;
} ex_ctx;

ex *ex_make(ex_ctx *x, int kind, wc_dtype t, const char *text, int n, ex *a, ex *b, ex *c);
ex *ex_lit(ex_ctx *x, wc_dtype t, const char *text);
/* A literal of dtype t from bits; a stand-in and x->unspellable set if it has no spelling. */
ex *ex_lit_bits(ex_ctx *x, wc_dtype t, const uint64_t bits[2]);
/* The literal of dtype t nearest v: v as float for float, float16 and bfloat16 (those two
   rounded from the float, as numpy rounds a Python float operand), v for double; v exactly
   for the integers (the checks made sure it is whole). */
ex *ex_lit_num(ex_ctx *x, wc_dtype t, double v);
ex *ex_bin(ex_ctx *x, const char *op, wc_dtype t, ex *a, ex *b);
ex *ex_unary(ex_ctx *x, const char *op, wc_dtype t, ex *a);
ex *ex_call(ex_ctx *x, const char *fn, wc_dtype t, int n, ex *a, ex *b, ex *c);
ex *ex_fn1(ex_ctx *x, const char *fn, wc_dtype t, ex *a);
ex *ex_sel(ex_ctx *x, ex *c, ex *a, ex *b); /* where(c, a, b) */
/* a converted to dtype t (a itself when it has it). */
ex *ex_convert(ex_ctx *x, wc_dtype t, ex *a);

/* numeric_limits<T>::lowest() and max() of a float dtype, as bits. */
void ex_float_limits(wc_dtype t, uint64_t lo[2], uint64_t hi[2]);
/* +inf (neg: -inf) of a float dtype, as bits. */
void ex_float_inf(wc_dtype t, bool neg, uint64_t bits[2]);
/* a > b for two literals of dtype t as the spec spells them (false when either is NaN). */
bool ex_lit_greater(wc_dtype t, const char *a, const char *b);

/* e as spec text (nested: inside another operator, so binaries take parentheses). */
void ex_print(diag_text *t, const ex *e, bool nested);
/* Does e name `name` (a let's, by pointer) / any parameter or let (name NULL)? */
bool ex_names(const ex *e, const char *name);

/* The spelling of a value of dtype t with the given bits, such that the spec's literal
   rules give back exactly those bits; false when there is none (complex, strings, NaNs
   other than the canonical quiet one). */
bool spec_literal_text(wc_dtype t, const uint64_t bits[2], char *out, size_t cap);

#endif
