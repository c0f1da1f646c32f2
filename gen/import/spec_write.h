/* spec_write.h: the regions fusion chose, rendered as .where text: a kernel statement
   per region (parameters, exact literals, the expression), its comment and the header. */
#ifndef WHEREC_GEN_IMPORT_SPEC_WRITE_H
#define WHEREC_GEN_IMPORT_SPEC_WRITE_H

#include <stdbool.h>
#include <stdint.h>

#include "base/diag.h"
#include "import/expr.h"
#include "import/fusion.h"
#include "import/graph.h"

/* The writer's state over one graph: the current kernel's leaves (the values it
   reads but does not compute), which become parameters or literals. */
typedef struct spec_writer {
  const import_graph *gr;
  const fusion       *f;
  int                 stamp; /* for mark */
  int                *mark;  /* per value: traversal stamp */
  int                *leaf;  /* per value: index in leaves, -1 */
  int                 n_leaves;
  int                *leaves;    /* value ids of the current kernel's leaves */
  const char        **leaf_name; /* parameter name, or NULL for a literal */
  const char        **leaf_lit;  /* literal spelling */
  wc_dtype           *leaf_dtype;
  ex_ctx              ex;        /* the trees of the kernel being written; ex.unspellable:
                                    a constant of it with no literal in its dtype */
  int                *leaf_pad;  /* 1s appended to a parameter's shape (a per-channel
                                    parameter of BatchNormalization, ...), -1 unread */
  int                 cur_pad;   /* the 1s the leaf being built is read with */
  int                *let_mark;  /* per value: stamp when it is a `let` of the current kernel */
  const char        **let_name;  /* per value: that let's name */
  const char        **ext_names; /* per symbol of the graph: its extent's name in the last
                                    kernel written */
  const char         *out_name;  /* the last kernel's output as its `-> (...)` names it;
                                    NULL for the one-expression form (the C calls it out) */
  int                 n_extra;   /* the last kernel's other outputs (after out_name) */
  int                 extra[IMPORT_MAX_EXTRA_OUTPUTS]; /* their nodes; let_name names them */
  int64_t             bake_limit; /* initializers of at most this many bytes become constants
                                     (`const` statements before the kernel); 0: none */
  int                *const_seq;  /* constants named so far, shared by every graph's writer
                                     (names are <tensor>_c<number>, unique in the spec) */
  int                 own_seq;    /* const_seq's target when nobody shares one */
  bool               *leaf_baked; /* per leaf: a constant (leaf_name is the constant's) */
  int                 flat_leaf;  /* the current kernel's leaf of a shape unknown at import
                                     (even its rank), which every other leaf broadcasts to
                                     as a scalar: the kernel reads it and writes its outputs
                                     as vectors of their elements ([n]); -1 when none */
} spec_writer;

/* A writer for the regions f formed on gr (its arrays in gr's arena). */
void spec_write_init(spec_writer *w, const import_graph *gr, const fusion *f);

/* Region r as one kernel statement `kernel NAME(PARAMS) = EXPR;\n`, appended to *stmt,
   named *name (distinct from kernel_names[0, n_kernels) and from every symbol the
   generated C derives). Notes on log which constants become parameters. NULL, or why
   the region cannot be written (a dynamic shape, an unknown dtype, only constants). */
const char *spec_write_kernel(spec_writer *w, int r, const char *const *kernel_names, int n_kernels,
                              const char **name, diag_text *stmt);

/* The shape leaf l of the last kernel written is declared with: its value's, with the 1s
   of a per-channel read, or [n] for the flat leaf (n: ext_names[gr->n_syms]). */
ast_shape spec_leaf_shape(const spec_writer *w, int l);

/* The shape output value v of the last kernel written is declared with: its own, or [n]
   in a flat kernel. */
ast_shape spec_output_shape(const spec_writer *w, const graph_value *v);

/* The `# out = Root 'name', Producer ...` line naming the nodes region r fuses, root first. */
void spec_write_comment(const spec_writer *w, int r, diag_text *t);

/* The comment that opens the spec: the model, its graph and opset. */
void spec_write_header(const import_graph *gr, const char *model_name, diag_text *t);

#endif
