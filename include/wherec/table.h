/* wherec/table.h: the table ABI: interpreter programs (wc_instr), parameters,
   kernels and kernel tables, as generated code fills them and the runtime reads them. */
#ifndef WHEREC_TABLE_H
#define WHEREC_TABLE_H

#include <stddef.h>
#include <stdint.h>

#include "dtypes.h"
#include "operations.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Which way wc_run ran a kernel: its specialized function or the interpreter. */
typedef enum wc_path { WC_PATH_SPECIALIZED = 1, WC_PATH_INTERPRETED = 2 } wc_path;

/* ---- interpreter programs --------------------------------------------------
   A kernel's expression as straight-line SSA code: instruction i computes a
   tensor of dtype `dtype` from earlier instructions a, b, c (the operation
   table, operations.h, gives each opcode's operands).  The last instruction is
   the kernel's value; a kernel with several outputs lists the instruction of
   each (wc_kernel.out_instrs). */
typedef struct wc_instr {
  uint8_t  op;                 /* wc_opcode */
  uint8_t  dtype;              /* wc_dtype of the result */
  uint16_t a, b, c;            /* operands: indices of earlier instructions */
  uint64_t bits[2];            /* WC_OP_CONST: the value's bits in dtype */
} wc_instr;

/* ---- kernel tables ---------------------------------------------------------- */
typedef enum wc_kernel_kind {
  WC_KIND_ELEMENTWISE = 0,     /* where / fused expression: out has the broadcast shape */
  WC_KIND_WHERE_V1 = 1,        /* tf.compat.v1.where rules on inputs 0, 1, 2 */
  WC_KIND_ARGWHERE = 2,        /* int64 [n, rank] coordinates of the value */
  WC_KIND_NONZERO = 3          /* int64 [rank, n] coordinates of the value */
} wc_kernel_kind;

/* A dimension of a shape pattern: >= 0 a fixed extent, < 0 symbolic extent
   number -(d + 1) (extents numbered in order of first appearance). */
#define WC_SYM(d) (-(int64_t)(d) - 1)

/* Most operands of one kernel: its inputs plus its output. The spec checker
   refuses a kernel with more parameters; the runtime and the check harness
   size their per-call arrays by it. */
#define WC_MAX_OPERANDS 34
#define WC_MAX_INPUTS   (WC_MAX_OPERANDS - 1)

/* A parameter. A baked one (data not NULL: a `const` of the spec, such as an
   initializer of an imported model) has fixed dims and its dense row-major
   elements in data: the generated function reads its static array, and the
   runtime passes data to the interpreter and the reference, so callers pass
   no tensor for it (or any tensor, which is not read: see wc_run). */
typedef struct wc_param {
  const char    *name;         /* parameter name in the spec */
  wc_dtype       dtype;
  int            rank;
  const int64_t *dims;         /* rank entries, fixed or WC_SYM */
  const void    *data;         /* baked: the constant's elements; NULL: the caller's */
} wc_param;

/* Typed invokers: the generated function behind a uniform signature.
   extents: one per symbolic extent; inputs: one data pointer per parameter. */
typedef void (*wc_range_fn)(const size_t *extents, const void *const *inputs,
                            void *out, size_t begin, size_t end);
typedef int64_t (*wc_count_fn)(const size_t *extents, const void *const *inputs);
/* Fills the coordinates of the count true elements (count from the count
   invoker: wc_run counts once, to check the capacity, and passes it). */
typedef void (*wc_coords_fn)(const size_t *extents, const void *const *inputs,
                             int64_t count, int64_t *coords);
/* A kernel with several outputs: one data pointer per output, in order. */
typedef void (*wc_outs_range_fn)(const size_t *extents, const void *const *inputs,
                                 void *const *outs, size_t begin, size_t end);

typedef struct wc_kernel {
  const char      *name;       /* kernel name in the spec (after specialization) */
  wc_kernel_kind   kind;
  int              n_inputs;
  const wc_param  *inputs;
  int              n_extents;  /* symbolic extents */
  const char *const *extent_names;
  wc_dtype         out_dtype;
  int              out_rank;   /* elementwise kinds: broadcast shape pattern */
  const int64_t   *out_dims;
  int              n_instrs;
  const wc_instr  *program;
  wc_range_fn      range;      /* elementwise kinds */
  wc_count_fn      count;      /* coordinate kinds */
  wc_coords_fn     coords;     /* coordinate kinds */
  /* Several outputs (elementwise kind only; out_dtype, out_rank and out_dims
     describe output 0, and every output has that shape pattern): */
  int              n_outputs;  /* 1 for a kernel of one output (range, program's last value) */
  const wc_param  *outputs;    /* n_outputs > 1: name, dtype, shape pattern of each; else NULL */
  const uint16_t  *out_instrs; /* n_outputs > 1: the instruction each output stores; else NULL */
  wc_outs_range_fn range_outs; /* n_outputs > 1: the invoker (range is NULL); else NULL */
} wc_kernel;

typedef struct wc_kernel_table {
  const char      *prefix;     /* C prefix of the generated symbols */
  const char      *spec;       /* spec path the table was generated from */
  int              n_kernels;
  const wc_kernel *kernels;
} wc_kernel_table;

#ifdef __cplusplus
}
#endif
#endif
