/* run.c: running one kernel of a table: wc_run (the specialized function when
   shapes fit its pattern, the interpreter otherwise), wc_interpret, coordinates. */
#include <stdlib.h>

#include "interp.h"
#include "registry.h"
#include "tensor.h"
#include "where.h"

/* The value a coordinate kernel lists the true elements of: the parameter
   itself when the program is a lone parameter (lone), else the program's
   result, of the inputs' broadcast shape. Only the shape here: the
   specialized path needs no more, so the data waits for coords_eval. */
static wc_status coords_shape(const wc_kernel *k, const wc_tensor *in, bool lone, wc_tensor *value,
                              int64_t *count) {
  const wc_instr  *top = &k->program[k->n_instrs - 1];
  const wc_tensor *ptr[WC_MAX_OPERANDS];
  wc_status        s;
  if (lone) {
    *value = in[top->a];
    return WC_OK;
  }
  memset(value, 0, sizeof *value);
  value->dtype = (wc_dtype)top->dtype;
  for (int i = 0; i < k->n_inputs; i++) ptr[i] = &in[i];
  if ((s = wc_broadcast_shape(ptr, k->n_inputs, &value->rank, value->shape)) != WC_OK) return s;
  return wc__shape_count(value->dtype, value->rank, value->shape, count);
}

/* Interprets the program into a temporary of count elements (*temp, the
   caller frees) that becomes value's data. */
static wc_status coords_eval(const wc_kernel *k, const wc_tensor *in, int64_t count,
                             wc_tensor *value, void **temp) {
  *temp = malloc((size_t)count * wc_dtype_size(value->dtype) + 1);
  if (*temp == NULL) return WC_E_NOMEM;
  value->data = *temp;
  wc_kernel ew = *k;
  ew.kind = WC_KIND_ELEMENTWISE;
  return wc__interp_elementwise(&ew, in, value);
}

/* argwhere / nonzero through the kernel (specialized) or the runtime. */
static wc_status run_coords(const wc_kernel *k, const wc_tensor *in, wc_tensor *out,
                            bool specialize, wc_path *path) {
  size_t          ext[WC_MAX_OPERANDS * WC_MAX_RANK];
  const void     *data[WC_MAX_OPERANDS];
  const wc_instr *top = &k->program[k->n_instrs - 1];
  const bool      lone = top->op == WC_OP_INPUT && k->n_inputs == 1;
  int64_t         cap, n, need, count = 0;
  wc_tensor       value;
  void           *temp = NULL;
  wc_status       s;
  if (out->dtype != WC_INT64) return WC_E_DTYPE;
  if ((s = wc__tensor_check(out, &cap)) != WC_OK) return s;
  if ((s = coords_shape(k, in, lone, &value, &count)) != WC_OK) return s;
  int  rank = value.rank;
  bool rows = k->kind == WC_KIND_ARGWHERE;
  /* The generated function lists coordinates of the pattern's rank; inputs of
     a lower rank bind (leading extents 1) but want coordinates of their own. */
  if (specialize && k->count && k->coords && rank == k->out_rank && wc__kernel_bind(k, in, ext)) {
    for (int i = 0; i < k->n_inputs; i++) data[i] = in[i].data;
    n = k->count(ext, data);
    need = n * rank;
    if (need <= cap) k->coords(ext, data, n, out->data);
    if (path) *path = WC_PATH_SPECIALIZED;
    s = need <= cap ? WC_OK : WC_E_CAPACITY;
  } else {
    if (!lone && (s = coords_eval(k, in, count, &value, &temp)) != WC_OK) {
      free(temp);
      return s;
    }
    s = rows ? wc_argwhere(&value, out->data, cap, &n) : wc_nonzero(&value, out->data, cap, &n);
    if (path) *path = WC_PATH_INTERPRETED;
    free(temp);
  }
  if (s != WC_OK && s != WC_E_CAPACITY) return s;
  out->rank = 2;
  out->shape[0] = rows ? n : rank;
  out->shape[1] = rows ? rank : n;
  return s;
}

/* Checks inputs against k's parameters and runs it. */
static wc_status run_kernel(const wc_kernel *k, const wc_tensor *in, int n_in, wc_tensor *out,
                            bool specialize, wc_path *path) {
  size_t           ext[WC_MAX_OPERANDS * WC_MAX_RANK];
  const void      *data[WC_MAX_OPERANDS];
  const wc_tensor *ptr[WC_MAX_OPERANDS], *v1[3] = {NULL, NULL, NULL}; /* where_v1: c, x, y */
  int64_t          count, shape[WC_MAX_RANK];
  int              rank;
  wc_status        s;
  if (k == NULL) return WC_E_NOKERNEL;
  if (out == NULL || n_in != k->n_inputs || (n_in > 0 && in == NULL)) return WC_E_ARG;
  if (n_in >= WC_MAX_OPERANDS) return WC_E_ARG;
  for (int i = 0; i < n_in; i++) {
    if ((s = wc__tensor_check(&in[i], NULL)) != WC_OK) return s;
    if (in[i].dtype != k->inputs[i].dtype) return WC_E_DTYPE;
    ptr[i] = &in[i];
  }
  if (k->kind == WC_KIND_ARGWHERE || k->kind == WC_KIND_NONZERO)
    return run_coords(k, in, out, specialize, path);
  if ((s = wc__tensor_check(out, &count)) != WC_OK) return s;
  if (out->dtype != k->out_dtype) return WC_E_DTYPE;
  if (k->kind == WC_KIND_WHERE_V1) {
    const wc_instr *top = &k->program[k->n_instrs - 1];
    if (top->op != WC_OP_WHERE) return WC_E_ARG;
    v1[0] = &in[k->program[top->a].a];
    v1[1] = &in[k->program[top->b].a];
    v1[2] = &in[k->program[top->c].a];
    if ((s = wc__where_v1_check(v1[0], v1[1], v1[2], out)) != WC_OK) return s;
  } else {
    if ((s = wc_broadcast_shape(ptr, n_in, &rank, shape)) != WC_OK) return s;
    if (!wc__same_shape(out, rank, shape)) return WC_E_SHAPE;
  }
  if (specialize && k->range && wc__kernel_bind(k, in, ext)) {
    for (int i = 0; i < n_in; i++) data[i] = in[i].data;
    if (count > 0) k->range(ext, data, out->data, 0, (size_t)count);
    if (path) *path = WC_PATH_SPECIALIZED;
    return WC_OK;
  }
  if (path) *path = WC_PATH_INTERPRETED;
  if (k->kind != WC_KIND_WHERE_V1) return wc__interp_elementwise(k, in, out);
  wc__where_v1_run(v1[0], v1[1], v1[2], out); /* checked above */
  return WC_OK;
}

wc_status wc_run(const wc_kernel_table *table, const char *kernel, const wc_tensor *inputs,
                 int n_inputs, wc_tensor *out, wc_path *path) {
  if (table == NULL || kernel == NULL) return WC_E_ARG;
  return run_kernel(wc_find_kernel(table, kernel), inputs, n_inputs, out, true, path);
}

wc_status wc_interpret(const wc_kernel *k, const wc_tensor *inputs, int n_inputs, wc_tensor *out) {
  return run_kernel(k, inputs, n_inputs, out, false, NULL);
}
