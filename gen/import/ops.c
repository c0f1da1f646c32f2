/* ops.c: the operator table of wherec import, expanded from ONNX_OP_LIST (ops.h),
   and the look-up by domain and op_type. */
#include "import/ops.h"

#include <stddef.h>
#include <string.h>

#define OP_ROW_(n, k, s, lo, hi, c, since, ty) {#n, IMPORT_##k, s, lo, hi, c, since, ty},
static const op_row op_table[] = {ONNX_OP_LIST(OP_ROW_)};
#undef OP_ROW_

const op_row *op_lookup(const char *domain, const char *op_type) {
  if (domain[0] != '\0' && strcmp(domain, "ai.onnx") != 0) return NULL;
  for (size_t k = 0; k < sizeof op_table / sizeof *op_table; k++)
    if (strcmp(op_table[k].name, op_type) == 0) return &op_table[k];
  return NULL;
}

int op_operands(const op_row *op, int n_inputs) {
  if (op && (op->kind == IMPORT_CASTLIKE || op->kind == IMPORT_DROPOUT))
    return 1; /* CastLike's second input gives a dtype; Dropout's ratio and mode are no operands */
  if (op && op->kind == IMPORT_POW) return 1; /* the exponent is a constant, spelled as literals */
  return n_inputs;
}

bool op_gives_bool(const op_row *op) {
  return op && (op->kind == IMPORT_CMP || op->kind == IMPORT_NOT || op->kind == IMPORT_LOGIC ||
                op->kind == IMPORT_ISNAN || op->kind == IMPORT_ISINF);
}
