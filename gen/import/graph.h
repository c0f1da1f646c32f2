/* graph.h: an ONNX model's graph as wherec import sees it: named values with dtypes and
   static (or symbolic) shapes, nodes with their operator row, consumers, topological order. */
#ifndef WHEREC_GEN_IMPORT_GRAPH_H
#define WHEREC_GEN_IMPORT_GRAPH_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "base/arena.h"
#include "base/diag.h"
#include "front/ast.h"
#include "import/onnx.h"
#include "import/ops.h"

/* A named value of the graph. */
typedef struct graph_value {
  const char        *name;
  int                producer;    /* node index; -1 for graph inputs and initializers */
  int                input;       /* graph input index (a runtime input), else -1 */
  const onnx_tensor *constant;    /* its fixed value (initializer, Constant), else NULL */
  wc_dtype           dtype;       /* 0 when unknown or not a wherec dtype */
  int32_t            elem;        /* the ONNX elem type as given, for messages */
  bool               shaped;      /* shape known statically */
  ast_shape          shape;       /* fixed extents, or WC_SYM(i) for dim_param i */
  int                n_uses;      /* node input slots that read it */
  bool               is_output;   /* a graph output */
  int                captured_by; /* a node whose sub-graph reads it by name, else -1 */
} graph_value;

/* A node of the graph, resolved to values. */
typedef struct graph_node {
  const onnx_node *n;
  const op_row    *op;     /* NULL for unknown operators */
  int             *in;     /* value per input (-1: omitted optional input) */
  int              out;    /* value of output 0, -1 if none */
  bool             folded; /* its output is a constant computed at import (infer.c) */
} graph_node;

/* Is ni a node of operator id? */
static inline bool graph_is(const graph_node *ni, op_id id) { return ni->op && ni->op->id == id; }

/* The graph. Everything lives in the arena *a (out of memory jumps out through it). */
typedef struct import_graph import_graph;
struct import_graph {
  arena                     *a;
  FILE                      *log; /* malformed-model messages and notes go here */
  const onnx_model          *m;
  const onnx_graph          *g;
  int64_t                    opset; /* of the default domain, 0 if not given */
  graph_value               *vals;
  int                        n_vals;
  int                       *hash; /* open addressing over vals by name; -1 empty */
  int                        hash_cap;
  graph_node                *nodes;   /* one per node of g, in g's order */
  int                       *order;   /* node indices in topological order */
  int                       *n_users; /* per value: nodes reading it (once per input slot) */
  int                      **users;   /* per value: those nodes, in node order */
  int                        n_syms;
  const char               **syms; /* dim_param names (or unk__N for unnamed dims): symbol i */
  int                       *sym_parent; /* union-find: symbols inference found to be one extent */
  int64_t                   *sym_value;  /* per root: the fixed extent it equals, or -1 */
  bool                      *sym_named;  /* per symbol: a dim_param's (graph_intern_sym finds it by
                                            name), not one inference made up (named unk__N, which
                                            a model's own dim_param may be called too) */
  char                      *sym_op;     /* per symbol: the operator of the extent it stands
                                            for when inference computed it from two others
                                            ('+', '-', '*', '/': batch * 4), else 0 */
  int64_t                   *sym_a, *sym_b; /* its operands: fixed extents or WC_SYM */
  const struct import_graph *outer;      /* for a sub-graph (If, Loop, Scan body): the graph
                                            around it, whose values it may read; else NULL */
  bool literal_activations; /* the model's graph: --literal-activations (forms.c) */
};

/* Reads model m into gr: values, nodes, order, the values sub-graphs read, and the
   dtypes and shapes of the known operators' outputs. False after printing on log why
   the model is malformed (a name defined twice, an undefined input, a cycle). */
bool graph_build(import_graph *gr, arena *a, FILE *log, const onnx_model *m);

/* graph_build with extents fixed by the user (import --dim NAME=N): each of dims[0, n_dims)
   is "NAME=N", N > 0; the dim_param NAME of the graph's inputs is N wherever it stands, so
   inference decides what it depends on (an If on the batch size). A NAME the graph has no
   dim_param of is said on log. */
bool graph_build_dims(import_graph *gr, arena *a, FILE *log, const onnx_model *m,
                      const char *const *dims, int n_dims);

/* Symbol of dim_param name (a new one when first seen). */
int graph_intern_sym(import_graph *gr, const char *name);

/* A new symbol called name, or unk__N (N: its number) when name is NULL. */
int graph_new_sym(import_graph *gr, const char *name);

/* Dim d (fixed, or WC_SYM) in terms of the reconciled symbols: fixed when inference
   found its extent (or the operands of the expression it stands for), else the symbol
   that stands for its class. */
int64_t graph_dim(const import_graph *gr, int64_t d);

/* The extent a op b (op '+', '-', '*', '/'; each fixed, or WC_SYM): computed when both
   are fixed (a fresh symbol when that overflows, divides by 0 or is negative), the other operand for x * 1, x + 0,
   x - 0 and x / 1, else the symbol that stands for the expression, the same one each
   time it is formed (so that two tensors reshaped by batch * 4 have one shape). */
int64_t graph_dim_expr(import_graph *gr, char op, int64_t a, int64_t b);

/* infer.c: the dtypes and shapes of every node's outputs by ONNX's rules, the symbols
   reconciled, and constant sub-graphs folded (their nodes marked folded). */
void graph_infer(import_graph *gr);

/* graph_build for sub-graph g of model m (an If branch, a Loop or Scan body) inside the
   graph outer (built): a value g reads and does not define is outer's (or a scope around
   it), with its dtype, shape and constant: a kernel's parameter, as a graph input is. */
bool graph_build_body(import_graph *gr, arena *a, FILE *log, const onnx_model *m,
                      const onnx_graph *g, const import_graph *outer);

/* The value called name, or -1. */
int graph_find(const import_graph *gr, const char *name);

/* `Op 'name'`, or `Op (output 'x')` for a node without a name (in the arena). */
const char *graph_node_label(const import_graph *gr, int n);

/* The name of an ONNX elem type, also of those wherec has no dtype for. */
const char *graph_dtype_label(const import_graph *gr, int32_t elem);

/* The attribute of n called name, or NULL. */
const onnx_attr *graph_attr(const onnx_node *n, const char *name);

/* printf into the arena (cut at 1 KiB: for messages and names). */
const char *graph_fmt(const import_graph *gr, const char *f, ...) DIAG_PRINTF(2, 3);

/* n elements of size bytes, zeroed, in the arena (n may be 0). */
void *graph_alloc(const import_graph *gr, size_t n, size_t size);

/* ---- values, for the operators' checks and forms ---- */

bool graph_same_shape(const ast_shape *a, const ast_shape *b);

/* Does b broadcast to a without changing a's shape (ONNX's unidirectional rule)? True when
   a shape is not known: the writer refuses unknown shapes of its leaves. */
bool graph_broadcasts_to(const graph_value *a, const graph_value *b);

/* Is v of a known shape with one element? */
bool graph_one_element(const graph_value *v);

/* The value of a one-element constant v as a double (integers exactly up to 2^53), false
   when v is no such constant. */
bool graph_const_scalar(const graph_value *v, double *out);

/* Is t float, double, float16 or bfloat16? */
bool graph_floating(wc_dtype t);

/* --literal-activations, set on the model's graph: a sub-graph (If, Loop, Scan body) reads
   the outermost graph's; no graph (a formula parsed alone): false. */
bool graph_literal_activations(const import_graph *gr);

#endif
