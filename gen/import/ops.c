/* ops.c: the operator table of wherec import, expanded from OP_LIST (ops.h),
   and the look-up by domain and op_type. */
#include "import/ops.h"

#include <stddef.h>
#include <string.h>

#define OP_ROW_(n, k, s, lo, hi, c, since, ty) {#n, OP_##k, s, lo, hi, c, since, ty},
static const op_row op_table[] = {OP_LIST(OP_ROW_)};
#undef OP_ROW_

const op_row *op_lookup(const char *domain, const char *op_type) {
  if (domain[0] != '\0' && strcmp(domain, "ai.onnx") != 0) return NULL;
  for (size_t k = 0; k < sizeof op_table / sizeof *op_table; k++)
    if (strcmp(op_table[k].name, op_type) == 0) return &op_table[k];
  return NULL;
}

int op_operands(const op_row *op, int n_inputs) {
  return op && op->kind == OP_CASTLIKE ? 1 : n_inputs;
}

bool op_gives_bool(const op_row *op) {
  return op && (op->kind == OP_CMP || op->kind == OP_NOT || op->kind == OP_LOGIC ||
                op->kind == OP_ISNAN || op->kind == OP_ISINF);
}
