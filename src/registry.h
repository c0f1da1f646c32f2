/* registry.h: the kernel registry (registry.c): registered tables, binding of
   shapes to a kernel's symbolic extents, and the plain-where kernels wc_where uses. */
#ifndef WHEREC_SRC_REGISTRY_H
#define WHEREC_SRC_REGISTRY_H

#include "broadcast.h"

/* Binds every parameter of k to the shape of its input, right-aligned; ext
   gets one value per symbolic extent (0 for one no parameter names). False
   when a shape does not fit the pattern or the table is malformed. */
bool wc__kernel_bind(const wc_kernel *k, const wc_tensor *in, size_t *ext);
/* Whether wc_register took t (its kernels are checked). */
bool wc__registered(const wc_kernel_table *t);

/* ---- table checks (validate.c) ---------------------------------------------
   WC_E_ARG for a malformed description. wc__program_check: what the
   interpreter reads (kind, parameter dtypes, the program: opcodes known,
   operands earlier instructions, input indices in range, operand dtypes as
   each opcode takes them, the value of the kernel's dtype; where_v1 a where of
   three parameters). wc__kernel_check: that, and the name, the parameters'
   and output's shape patterns (ranks, extent indices in range, every extent
   bound by a parameter, the output of the parameters' broadcast rank) and
   the invokers of the kind (range; count, coords and int64 out). Several
   outputs: an elementwise kernel, within WC_MAX_OPERANDS with its inputs,
   each output an instruction of its dtype with output 0's shape pattern,
   invoked through range_outs. */
wc_status wc__program_check(const wc_kernel *k);
wc_status wc__kernel_check(const wc_kernel *k);

/* k's outputs: n_outputs, read as 1 when below 2 (a table may leave it 0);
   the instruction and dtype of output o. */
static inline int wc__n_outputs(const wc_kernel *k) { return k->n_outputs > 1 ? k->n_outputs : 1; }
static inline int wc__out_instr(const wc_kernel *k, int o) {
  return k->n_outputs > 1 ? k->out_instrs[o] : k->n_instrs - 1;
}
static inline wc_dtype wc__out_dtype(const wc_kernel *k, int o) {
  return k->n_outputs > 1 ? k->outputs[o].dtype : k->out_dtype;
}

/* A kernel with row reductions (operations.h, REDUCE): R, the rank of its rows,
   the output's last R axes (each reduction's b; wc__program_check: the same in
   all, 1 to the output's rank); 0 for any other kernel. */
static inline int wc__kernel_rows(const wc_kernel *k) {
  for (int i = 0; i < k->n_instrs; i++)
    if (wc_op_reduces((wc_opcode)k->program[i].op)) return k->program[i].b;
  return 0;
}
/* Elements per row of k's output pattern, its symbolic extents bound to ext; 1
   without rows. */
static inline size_t wc__row_elems_bound(const wc_kernel *k, const size_t *ext) {
  size_t n = 1;
  for (int d = k->out_rank - wc__kernel_rows(k); d < k->out_rank; d++)
    n *= k->out_dims[d] >= 0 ? (size_t)k->out_dims[d] : ext[-(k->out_dims[d] + 1)];
  return n;
}

/* ---- plain-where index --------------------------------------------------
   Plain where(c, x, y) kernels by element width and stride signature: which
   of c, x, y vary along each dim of a coalesced plan of rank 1 or 2. Built
   from a table's kernel parameters, so the order of its kernels does not
   matter; the runtime's own kernels (generated/wc_builtin.where) are one. */
#define WC_WHERE_WIDTHS      5        /* 1, 2, 4, 8, 16 bytes */
#define WC_WHERE_KEYS        (8 + 64) /* signatures of rank 1, then 2 */
#define WC_WHERE_MAX_EXTENTS 2        /* symbolic extents of an indexed kernel */

typedef struct wc_where_entry {
  const wc_kernel *k;                             /* NULL: no kernel serves this slot */
  wc_range_fn      range;                         /* k->range, beside the rest of the entry */
  bool             direct;                        /* in = {0, 1, 2}, ext_dim = {0, 1} */
  int8_t           in[3];                         /* parameter index of c, x, y */
  int8_t           ext_dim[WC_WHERE_MAX_EXTENTS]; /* plan dim each symbolic extent takes */
} wc_where_entry;

typedef struct wc_where_index {
  wc_where_entry slot[WC_WHERE_KEYS][WC_WHERE_WIDTHS];
} wc_where_index;

/* Fills ix from t's plain-where kernels; of two with one signature and width
   the first is kept (they compute the same bits). */
void wc__where_index_build(wc_where_index *ix, const wc_kernel_table *t);
/* The entry serving plan L (operands cond, x, y, out) at element width
   `width`, or NULL. */
const wc_where_entry *wc__where_index_find(const wc_where_index *ix, const wc_loop *L,
                                           size_t width);
/* The index of the runtime's own kernels; NULL while another thread is
   building it (once, on first use). */
const wc_where_index *wc__where_builtin(void);

/* Runs where through a plain-where kernel whose pattern fits the plan of
   (cond, x, y, out): the runtime's own first, then registered ones (where
   moves bits, so a uint32 kernel serves float and int32 alike). False when
   none does. */
bool wc__where_registered(const wc_loop *loop, const wc_tensor *cond, const wc_tensor *x,
                          const wc_tensor *y, wc_tensor *out);

#endif
