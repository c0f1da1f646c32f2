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
  import_kind          kind; /* IMPORT_NONE for unknown operators */
  const op_row    *op;   /* NULL for unknown operators */
  int             *in;   /* value per input (-1: omitted optional input) */
  int              out;  /* value of output 0, -1 if none */
} graph_node;

/* The graph. Everything lives in the arena *a (out of memory jumps out through it). */
typedef struct import_graph {
  arena            *a;
  FILE             *log; /* malformed-model messages and notes go here */
  const onnx_model *m;
  const onnx_graph *g;
  int64_t           opset; /* of the default domain, 0 if not given */
  graph_value      *vals;
  int               n_vals;
  int              *hash; /* open addressing over vals by name; -1 empty */
  int               hash_cap;
  graph_node       *nodes;   /* one per node of g, in g's order */
  int              *order;   /* node indices in topological order */
  int              *n_users; /* per value: nodes reading it (once per input slot) */
  int             **users;   /* per value: those nodes, in node order */
  int               n_syms;
  const char      **syms; /* dim_param names: symbol i */
} import_graph;

/* Reads model m into gr: values, nodes, order, the values sub-graphs read, and the
   dtypes and shapes of the known operators' outputs. False after printing on log why
   the model is malformed (a name defined twice, an undefined input, a cycle). */
bool graph_build(import_graph *gr, arena *a, FILE *log, const onnx_model *m);

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

#endif
