/* validate.c: the checks of a kernel table's descriptions (wc_register, and
   wc_run / wc_prepare / wc_interpret on a kernel no registration checked). */
#include "registry.h"

static bool known_dtype(unsigned t) { return wc_dtype_size((wc_dtype)t) != 0; }

/* The dtypes the interpreter and the reference assume of an instruction's
   operands (they read each operand at its own dtype's width, so a mismatch
   would read past a buffer): ops of arity 2 take operands of one dtype, each
   op a dtype it is defined on. Operand dtypes are known: operands are
   earlier instructions, already checked. */
static bool typed(const wc_kernel *k, const wc_instr *ins) {
  const wc_instr *p = k->program;
  wc_opcode       op = (wc_opcode)ins->op;
  int             n = wc_op_arity(op); /* operands past it hold no index: not read */
  unsigned t = ins->dtype, ta = n >= 1 ? p[ins->a].dtype : 0u, tb = n >= 2 ? p[ins->b].dtype : 0u,
           tc = n >= 3 ? p[ins->c].dtype : 0u;
  switch (op) {
  case WC_OP_INPUT: return ins->a < k->n_inputs && t == (unsigned)k->inputs[ins->a].dtype;
  case WC_OP_CONST: return true;
  case WC_OP_WHERE: return ta == WC_BOOL && tb == t && tc == t;
  case WC_OP_CAST: return wc_cast_defined((wc_dtype)ta, (wc_dtype)t);
  default: /* the table's result rule: the operands' dtype, or bool */
    if (!wc_op_defined(op, (wc_dtype)ta) || (n >= 2 && tb != ta)) return false;
    return t == (wc_op_gives_bool(op) ? (unsigned)WC_BOOL : ta);
  }
}

/* The outputs of a kernel with several: an elementwise kernel's, each the
   value of an instruction of its dtype (output 0 of out_dtype). */
static bool outputs_ok(const wc_kernel *k) {
  if (k->n_outputs <= 1) return k->n_outputs >= 0;
  if (k->kind != WC_KIND_ELEMENTWISE || k->n_inputs + k->n_outputs > WC_MAX_OPERANDS ||
      k->outputs == NULL || k->out_instrs == NULL || k->outputs[0].dtype != k->out_dtype)
    return false;
  for (int o = 0; o < k->n_outputs; o++)
    if (k->out_instrs[o] >= k->n_instrs ||
        (unsigned)k->outputs[o].dtype != k->program[k->out_instrs[o]].dtype)
      return false;
  return true;
}

/* Row reductions: in an elementwise kernel, each over the same last R axes
   of its output (b), 1 <= R <= WC_MAX_RANK (the output pattern's rank at
   least: wc__kernel_check; a call's output's: the interpreter). */
static bool rows_ok(const wc_kernel *k) {
  int r = wc__kernel_rows(k);
  for (int i = 0; i < k->n_instrs; i++)
    if (wc_op_reduces((wc_opcode)k->program[i].op) && (k->program[i].b != r || r < 1))
      return false;
  return r == 0 || (k->kind == WC_KIND_ELEMENTWISE && r <= WC_MAX_RANK);
}

/* Output o of a kernel with several has output 0's shape pattern. */
static bool same_pattern(const wc_kernel *k, const wc_param *o) {
  if (o->rank != k->out_rank || (o->rank > 0 && o->dims == NULL)) return false;
  for (int d = 0; d < o->rank; d++)
    if (o->dims[d] != k->out_dims[d]) return false;
  return true;
}

wc_status wc__program_check(const wc_kernel *k) {
  if (k->kind < WC_KIND_ELEMENTWISE || k->kind > WC_KIND_NONZERO) return WC_E_ARG;
  if (k->n_inputs < 0 || k->n_inputs > WC_MAX_INPUTS || (k->n_inputs > 0 && k->inputs == NULL))
    return WC_E_ARG;
  for (int i = 0; i < k->n_inputs; i++)
    if (!known_dtype(k->inputs[i].dtype)) return WC_E_ARG;
  /* operands are 16-bit indices of earlier instructions */
  if (k->n_instrs < 1 || k->n_instrs > 65536 || k->program == NULL) return WC_E_ARG;
  for (int i = 0; i < k->n_instrs; i++) {
    const wc_instr *ins = &k->program[i];
    if (ins->op >= WC_OP_COUNT_ || !known_dtype(ins->dtype)) return WC_E_ARG;
    int n = wc_op_arity((wc_opcode)ins->op);
    if ((n >= 1 && ins->a >= i) || (n >= 2 && ins->b >= i) || (n >= 3 && ins->c >= i))
      return WC_E_ARG;
    if (!typed(k, ins)) return WC_E_ARG;
  }
  if (!outputs_ok(k) || !rows_ok(k)) return WC_E_ARG;
  const wc_instr *top = &k->program[k->n_instrs - 1];
  if (k->kind <= WC_KIND_WHERE_V1 && k->n_outputs <= 1 && top->dtype != (unsigned)k->out_dtype)
    return WC_E_ARG;
  if (k->kind == WC_KIND_WHERE_V1) { /* tf.compat.v1.where of three parameters */
    const wc_instr *p = k->program;
    if (top->op != WC_OP_WHERE || p[top->a].op != WC_OP_INPUT || p[top->b].op != WC_OP_INPUT ||
        p[top->c].op != WC_OP_INPUT)
      return WC_E_ARG;
  }
  return WC_OK;
}

/* A shape pattern: rank entries, each fixed or a symbolic extent of k; marks
   the extents it names in `named`. */
static bool pattern_ok(const wc_kernel *k, int rank, const int64_t *dims, bool *named) {
  if (rank < 0 || rank > WC_MAX_RANK || (rank > 0 && dims == NULL)) return false;
  for (int d = 0; d < rank; d++) {
    int64_t sym = dims[d] < 0 ? -(dims[d] + 1) : -1; /* no overflow at INT64_MIN */
    if (sym >= k->n_extents) return false;
    if (sym >= 0 && named) named[sym] = true;
  }
  return true;
}

wc_status wc__kernel_check(const wc_kernel *k) {
  bool      named[WC_MAX_OPERANDS * WC_MAX_RANK];
  int       rank = 0;
  wc_status s;
  if (k->name == NULL) return WC_E_ARG;
  if ((s = wc__program_check(k)) != WC_OK) return s;
  if (k->n_extents < 0 || k->n_extents > WC_MAX_OPERANDS * WC_MAX_RANK) return WC_E_ARG;
  memset(named, 0, sizeof named);
  for (int i = 0; i < k->n_inputs; i++) {
    const wc_param *p = &k->inputs[i];
    if (!pattern_ok(k, p->rank, p->dims, named)) return WC_E_ARG;
    for (int d = 0; p->data != NULL && d < p->rank; d++)
      if (p->dims[d] < 0) return WC_E_ARG; /* a baked parameter's shape is fixed */
    if (p->rank > rank) rank = p->rank;
  }
  /* every extent is bound by some parameter; the output pattern has the
     parameters' broadcast rank and names only their extents */
  for (int e = 0; e < k->n_extents; e++)
    if (!named[e]) return WC_E_ARG;
  if (!pattern_ok(k, k->out_rank, k->out_dims, NULL) || k->out_rank != rank) return WC_E_ARG;
  if (wc__kernel_rows(k) > k->out_rank) return WC_E_ARG;
  for (int o = 0; o < k->n_outputs && k->n_outputs > 1; o++)
    if (!same_pattern(k, &k->outputs[o])) return WC_E_ARG;
  if (k->n_outputs > 1) return k->range_outs != NULL ? WC_OK : WC_E_ARG;
  if (k->kind <= WC_KIND_WHERE_V1) return k->range != NULL ? WC_OK : WC_E_ARG;
  if (k->out_dtype != WC_INT64 || k->count == NULL || k->coords == NULL) return WC_E_ARG;
  return WC_OK;
}
