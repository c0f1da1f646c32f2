/* validate.c: the checks of a kernel table's descriptions (wc_register, and
   wc_run / wc_prepare / wc_interpret on a kernel no registration checked). */
#include "registry.h"

#define ARITY_(name, arity) arity,
static const uint8_t op_arity[WC_OP_COUNT_] = {WC_OPCODE_LIST(ARITY_)};
#undef ARITY_

static bool known_dtype(unsigned t) { return wc_dtype_size((wc_dtype)t) != 0; }

/* Kinds of dtype (the last column of WC_DTYPE_LIST), as bits. */
enum {
  K_SINT = 1 << 0,
  K_UINT = 1 << 1,
  K_REAL = 1 << 2,
  K_HALF = 1 << 3,
  K_BOOL = 1 << 4,
  K_COMPLEX = 1 << 5,
  K_STRING = 1 << 6,
  K_INT = K_SINT | K_UINT,
  K_FLOAT = K_REAL | K_HALF,
  K_NUM = K_INT | K_FLOAT
};
#define KIND_BIT_(E, code, name, T, alias, s, kind) [WC_##E] = K_##kind,
static const uint8_t kind_bit[WC_DTYPE_MAX_ + 1] = {WC_DTYPE_LIST(KIND_BIT_)};
#undef KIND_BIT_

/* The kinds each arithmetic operation is defined on (README, Semantics). The
   interpreter's per-kind switches have a case for exactly these and would
   write nothing for another, so a table applying one elsewhere is refused. */
static const uint8_t arith_kinds[WC_OP_COUNT_] = {
    [WC_OP_ADD] = K_NUM,     [WC_OP_SUB] = K_NUM,     [WC_OP_MUL] = K_NUM,
    [WC_OP_DIV] = K_NUM,     [WC_OP_NEG] = K_NUM,     [WC_OP_MIN] = K_NUM,
    [WC_OP_MAX] = K_NUM,     [WC_OP_ABS] = K_NUM,     [WC_OP_FMOD] = K_NUM,
    [WC_OP_MOD] = K_INT,     [WC_OP_BAND] = K_INT,    [WC_OP_BOR] = K_INT,
    [WC_OP_BXOR] = K_INT,    [WC_OP_BNOT] = K_INT,    [WC_OP_SHL] = K_INT,
    [WC_OP_SHR] = K_INT,     [WC_OP_FLOOR] = K_FLOAT, [WC_OP_CEIL] = K_FLOAT,
    [WC_OP_ROUND] = K_FLOAT, [WC_OP_TRUNC] = K_FLOAT, [WC_OP_SQRT] = K_FLOAT,
};

/* The dtypes the interpreter and the reference assume of an instruction's
   operands (they read each operand at its own dtype's width, so a mismatch
   would read past a buffer): ops of arity 2 take operands of one dtype, each
   op a dtype it is defined on. Operand dtypes are known: operands are
   earlier instructions, already checked. */
static bool typed(const wc_kernel *k, const wc_instr *ins) {
  const wc_instr *p = k->program;
  int             n = op_arity[ins->op]; /* operands past it hold no index: not read */
  unsigned t = ins->dtype, ta = n >= 1 ? p[ins->a].dtype : 0u, tb = n >= 2 ? p[ins->b].dtype : 0u,
           tc = n >= 3 ? p[ins->c].dtype : 0u;
  switch ((wc_opcode)ins->op) {
  case WC_OP_INPUT: return ins->a < k->n_inputs && t == (unsigned)k->inputs[ins->a].dtype;
  case WC_OP_CONST: return true;
  case WC_OP_WHERE: return ta == WC_BOOL && tb == t && tc == t;
  case WC_OP_OR:
  case WC_OP_AND: return t == WC_BOOL && ta == WC_BOOL && tb == WC_BOOL;
  case WC_OP_NOT: return t == WC_BOOL && ta == WC_BOOL;
  case WC_OP_EQ:
  case WC_OP_NE: return t == WC_BOOL && ta == tb;
  case WC_OP_LT:
  case WC_OP_LE:
  case WC_OP_GT:
  case WC_OP_GE: return t == WC_BOOL && ta == tb && (kind_bit[ta] & (K_NUM | K_BOOL));
  case WC_OP_CAST: /* between numbers and bool; complex and string only to themselves */
    return t == ta || ((kind_bit[t] & (K_NUM | K_BOOL)) && (kind_bit[ta] & (K_NUM | K_BOOL)));
  case WC_OP_EXP: return ta == t && (t == WC_FLOAT || t == WC_FLOAT16 || t == WC_BFLOAT16);
  default: return ta == t && (n < 2 || tb == t) && (arith_kinds[ins->op] & kind_bit[t]);
  }
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
    int n = op_arity[ins->op];
    if ((n >= 1 && ins->a >= i) || (n >= 2 && ins->b >= i) || (n >= 3 && ins->c >= i))
      return WC_E_ARG;
    if (!typed(k, ins)) return WC_E_ARG;
  }
  const wc_instr *top = &k->program[k->n_instrs - 1];
  if (k->kind <= WC_KIND_WHERE_V1 && top->dtype != (unsigned)k->out_dtype) return WC_E_ARG;
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
    if (p->rank > rank) rank = p->rank;
  }
  /* every extent is bound by some parameter; the output pattern has the
     parameters' broadcast rank and names only their extents */
  for (int e = 0; e < k->n_extents; e++)
    if (!named[e]) return WC_E_ARG;
  if (!pattern_ok(k, k->out_rank, k->out_dims, NULL) || k->out_rank != rank) return WC_E_ARG;
  if (k->kind <= WC_KIND_WHERE_V1) return k->range != NULL ? WC_OK : WC_E_ARG;
  if (k->out_dtype != WC_INT64 || k->count == NULL || k->coords == NULL) return WC_E_ARG;
  return WC_OK;
}
