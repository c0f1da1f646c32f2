/* lower.h: lowering of a checked kernel to a loop plan: coalesced loops,
   per-operand strides and stride classes, the CSE'd expression DAG with the
   loop level of each value, unroll bounds, the C names of parameters, extents
   and values. All decisions live here, in C; the Lua templates only format
   the plan (templates/README.md lists what they receive). */
#ifndef WHEREC_GEN_LOWER_H
#define WHEREC_GEN_LOWER_H

#include "front/sema.h"

#define LOWER_MAX_UNROLL_WORK   2048 /* unroll x per-element operations, at most */
#define LOWER_MAX_STRAIGHT      64   /* fixed kernels this small become straight-line code */
#define LOWER_MAX_STRAIGHT_WORK 4096 /* elements x per-element operations, at most */
/* Element operations emitted for a whole spec (unrolled loop bodies and
   straight-line code), at most: past it, kernels in declaration order get
   fewer unrolled copies and loops instead of straight-line code, so that a
   small hostile spec cannot make gigabytes of C. */
#define LOWER_MAX_TOTAL_WORK    ((int64_t)1 << 20)
#define LOWER_MAX_ROW_CACHES    4    /* row caches of a kernel with row reductions (rows.h) */

/* Where a value is computed: once per call, once per row, once per element. */
typedef enum lower_level { LOWER_KERNEL = 0, LOWER_ROW = 1, LOWER_ELEM = 2 } lower_level;

/* How the templates write a node's value in C (spell_nodes decides). */
typedef enum lower_render {
  LOWER_RENDER_LEAF,    /* an input's element or a constant */
  LOWER_RENDER_INFIX,   /* a c_op b */
  LOWER_RENDER_PREFIX,  /* c_op a */
  LOWER_RENDER_CALL,    /* c_op(a, ...), a cast's operand through c_load(a) */
  LOWER_RENDER_TERNARY  /* a ? b : c */
} lower_render;

typedef struct lower_node {
  wc_instr     ins;    /* the operation; operands are node indices */
  lower_level  level;  /* max of its operands' levels (inputs: their stride class) */
  lower_render render; /* how the value is written in C */
  const char  *c_op;   /* INFIX, PREFIX: the C operator; CALL: the function ("wc_add_f32") */
  const char  *c_load; /* a cast: the function that loads its operand ("wc_load_i32"), else NULL */
  const char  *c_op_raw; /* nan_redo: the plain IEEE form of the operation ("wc_add_raw_f32"), or NULL */
  bool         raw_checked; /* c_op_raw may give a NaN where c_op does not (the correctly rounded
                               functions' raw forms): the block tests this value too */
  int          phase;  /* row kernels: the reductions that must be done before this value
                          (0: none; a reduction: 1 + its operand's) */
  const char  *c_acc;  /* a reduction: the type of its lanes ("wc_racc_f16"); its C
                          is c_op with _init, _step, _end (rows.h: "wc_rsum" + "_f16") */
  int          cache_pass; /* row kernels: the pass that stores this value in a row cache
                              for the later passes to read (a costly value: a correctly
                              rounded function's), or -1 */
} lower_node;

/* A pass over each row of a kernel with row reductions: its element loop
   folds the reductions of one depth (the last pass: stores the outputs). */
typedef struct lower_pass {
  int  n_reduce; /* reductions folded (0 in the last pass) */
  int *reduce;
  int  n_elem;   /* element values its loop computes, in order */
  int *elem;
  int  n_row;    /* row values computed after it (of its reductions), in order */
  int *row;
  int  n_elem_c; /* elem when the row fits the caches (WC_ROW_CACHE): a cached value of an */
  int *elem_c;   /* earlier pass is read from its cache, not computed again */
} lower_pass;

typedef struct lower_loop {
  char   *extent; /* C expression of the extent: "N", "N * 3", "12" */
  int64_t fixed;  /* the extent when every factor is fixed, else -1 */
  char  **stride; /* per parameter: C expression of its stride in elements, "0" if broadcast */
} lower_loop;

/* The row of a where whose condition is invariant along the row: one pointer
   choice, then a block copy (contiguous branch) or a fill (invariant branch). */
typedef struct lower_row_select {
  bool enabled;
  int  cond;      /* node of the condition (level <= LOWER_ROW) */
  int  branch[2]; /* nodes of x (true) and y (false) */
  bool copy[2];   /* branch is a contiguous input: block copy, else fill */
} lower_row_select;

typedef struct lower_kernel {
  const sema_kernel *sk;        /* the checked kernel */
  int                n_loops;   /* >= 1 for elementwise kinds; value rank for coordinates */
  lower_loop        *loops;     /* outermost first */
  bool              *contig;    /* per parameter: steps by 1 along the innermost loop */
  bool              *invariant; /* per parameter: one element for the whole call */
  int                n_nodes;
  lower_node        *nodes;       /* topological order; the last is the kernel's value
                                     (output 0's, when it has one output) */
  int                n_outputs;   /* 1, or the outputs of a kernel with several */
  int               *out_node;    /* per output: the node it stores */
  char             **out_ident;   /* per output: its pointer's C name ("out" when one) */
  bool               multi;       /* several outputs: every value a local, each stored (no
                                     straight-line code, row select or streaming) */
  int                unroll;      /* unroll factor of the innermost loop */
  int64_t            total_fixed; /* element count when every extent is fixed, else -1 */
  bool               empty;    /* a fixed output extent is 0: no elements, whatever the binding */
  bool               streams;  /* large outputs may take non-temporal stores (plan_streaming) */
  const char        *stream_min; /* streams: from how many output bytes, a macro of wherec/stream.h:
                                    WC_STREAM_MIN_BYTES (a row select: rows copied whole) or
                                    WC_STREAM_COMPUTED_MIN_BYTES (rows computed); else NULL */
  bool               compute_bound; /* a correctly rounded function per element: the kernel keeps
                                       the target's widest vectors (AVX-512), where memory-bound
                                       ones take 32-byte vectors (plan_vectors) */
  bool               nan_redo; /* the innermost loop's blocks evaluate with plain IEEE arithmetic
                                  (c_op_raw) and are redone with the pinned forms when a result
                                  is NaN (plan_nan_redo) */
  bool               straight; /* P_K is straight-line code (small fixed kernel) */
  int64_t          **straight_off; /* straight: [element][parameter] element offsets */
  lower_row_select   row_select;
  bool               bytewise; /* coordinates: the value is a 1-byte input stepping by 1 along the
                                  innermost loop, its rows their own truth bytes (plan_truth) */
  bool               one_pass; /* coordinates: K lists in one pass, counting as it goes */
  int                count_loops; /* coordinates: the loops K_count nests (bytewise: all but the
                                     innermost, whose byte row wc_count_nonzero counts whole) */
  int                rows;     /* row reductions: R, the rows' rank (sema_kernel.rows), the
                                  innermost loop being the rows; else 0 */
  int                n_passes; /* rows: one pass per depth of reductions, then the outputs' */
  lower_pass        *passes;
  int                n_row0;   /* rows: row values needing no reduction, before the passes */
  int               *row0;
  int                n_caches; /* rows: values kept in row caches (lower_node.cache_pass) */
  char **param_ident;  /* per parameter: its C name in the generated code (lower_ident) */
  char **extent_ident; /* per symbolic extent: its C name (lower_ident) */
  char **node_ident;   /* per node: the C name of its value, "x_val", "const_1", "mul_4" */
} lower_kernel;

typedef struct lower_program {
  arena               arena; /* owns everything below */
  const sema_program *sp;
  int                 unroll; /* the unroll option in force */
  int                 n_kernels;
  lower_kernel       *kernels;
} lower_program;

/* The output shape pattern of a kernel as the runtime sees it: the broadcast
   of all its parameters (x's shape for where_v1); false if they do not
   broadcast together (sema refuses such kernels). */
bool lower_out_shape(const sema_kernel *sk, ast_shape *out);

/* The longest name lower_ident makes: a spec identifier (255 bytes) and '_'. */
#define LOWER_IDENT_MAX 256

/* A spec name as a C identifier of the generated code: the name itself, or
   the name with '_' appended when it could clash with a C keyword or type, a
   name of kernel.h (wc_, WC_), a local the templates declare (out, n, i0,
   e0, x_row, x_val, mul_4, ...), a function the generated code calls
   (<prefix>_<kernel>_range, _count, _fill, whatever the prefix) or another
   mangled name (every name that ends in '_' is mangled, so the mapping is
   one-to-one). out gets at least LOWER_IDENT_MAX + 1 bytes. */
void lower_ident(const char *name, char *out);

/* Lowers every kernel of sp; unroll > 0 overrides the spec's option
   (default 1). NULL only when out of memory. Free with lower_free. */
lower_program *lower_spec(const sema_program *sp, int unroll);
void           lower_free(lower_program *lp);

#endif
