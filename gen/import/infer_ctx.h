/* infer_ctx.h: what a type and shape rule reads and writes (infer.c's helpers), shared by
   infer.c and the rules of the rarer operators (infer_rules.c). Internal to gen/import. */
#ifndef WHEREC_GEN_IMPORT_INFER_CTX_H
#define WHEREC_GEN_IMPORT_INFER_CTX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "import/graph.h"

/* Largest constant tensor folded or materialized (bytes), and all of them together. */
#define FOLD_MAX       ((size_t)1 << 16)
#define FOLD_MAX_TOTAL ((size_t)1 << 26)

/* A 1-D integer value known element by element, some elements symbolic extents (the
   output of Shape on a tensor of symbolic shape, and the slices, gathers and concatenations
   of it): what lets Reshape's computed shapes keep their symbols. */
typedef struct svec {
  int      n; /* -1: not known */
  int64_t *v; /* fixed values, or WC_SYM where sym[i] */
  bool    *sym;
} svec;

/* One node being inferred. */
typedef struct infer_ctx {
  import_graph     *gr;
  const graph_node *ni;
  const onnx_node  *n;
  size_t           *folded; /* bytes folded so far */
  svec             *sv;     /* per value */
  wc_dtype          t;      /* its output's dtype by its row's type rule (ops.h), 0 unknown */
  bool              quiet;  /* the second pass: its disagreements were said in the first */
  const char      **why;    /* set by refuse(): why its rule cannot apply to what it has */
} ctx;

/* A folded or given constant, dense. */
typedef struct cval {
  wc_dtype  t;
  ast_shape s;
  size_t    n;    /* elements */
  uint8_t  *data; /* n * size bytes, in the arena */
} cval;

/* The node's inputs are known and make no sense for its operator (a wrong rank, an axis
   out of range, a negative extent, an overflowing product): why, which infer_node says once
   with the node's name (the first reason a rule gives is kept). Its output gets no shape. */
void refuse(const ctx *c, const char *why);

/* s as "[2,batch,?]" in the arena, for refuse()'s reasons. */
const char *shape_text(const ctx *c, const ast_shape *s);

/* Input k: its value (NULL when omitted), dtype (0 unknown), shape in reconciled symbols
   (false when not known). */
graph_value *in_val(const ctx *c, int k);
wc_dtype     in_dtype(const ctx *c, int k);
bool         in_shape(const ctx *c, int k, ast_shape *s);

/* Attributes: an int (dflt when absent), a non-empty ints list, a string into buf. */
int64_t          attr_i(const onnx_node *n, const char *name, int64_t dflt);
const onnx_attr *attr_ints(const onnx_node *n, const char *name);
const char      *attr_str(const onnx_node *n, const char *name, char *buf, size_t cap);

/* Input k's value when it is a small constant; its elements as int64. */
bool    const_in(const ctx *c, int k, cval *out);
bool    is_int(wc_dtype t);
int64_t geti(const cval *v, size_t i);
void    seti(cval *v, size_t i, int64_t x);
bool    new_cval(const ctx *c, wc_dtype t, const ast_shape *s, cval *out);

/* Input k as int64s: an integer constant (ints_in), or also a symbolic vector whose
   symbolic elements are WC_SYM with sym[i] set (dims_in). */
bool ints_in(const ctx *c, int k, int64_t **vals, size_t *n);
bool dims_in(const ctx *c, int k, int64_t **vals, bool **sym, size_t *n);

/* Output k gets dtype t (0: unknown) and shape s (NULL: unknown); or constant v. */
void set_out(const ctx *c, int k, wc_dtype t, const ast_shape *s);
void set_const(const ctx *c, int k, const cval *v);

/* Axis a of a rank, negative from the end; *ok false (and refused) when out of range. */
int axis_in(const ctx *c, int64_t a, int rank, bool *ok);

/* A new symbolic extent; whether dims a and b are one extent (false: both fixed, differing). */
int64_t fresh(import_graph *gr);
bool    unify(import_graph *gr, int64_t a, int64_t b);

/* The rules of Conv and the pools (W at input w_in) and of MatMul (B at input b_in), for
   the operators that share them with other inputs (QLinearConv, QLinearMatMul). */
void rule_window(const ctx *c, bool conv, bool transpose, int w_in);
void rule_matmul(const ctx *c, wc_dtype t, int b_in);

#endif
