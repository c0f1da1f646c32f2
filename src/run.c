/* run.c: running one kernel of a table: wc_run (the specialized function when
   shapes fit its pattern, the interpreter otherwise), wc_interpret, coordinates. */
#include <stdlib.h>

#include "interp.h"
#include "parallel.h"
#include "registry.h"
#include "tensor.h"
#include "where.h"

/* A call's tensors for every parameter of k, baked ones included: in when k
   has none; else the caller gave either every parameter (n_in == n_inputs: the
   tensors given for baked ones are not read) or only its own (the parameters
   whose data is NULL, in order), and full receives the whole list with each
   baked parameter as a tensor of its fixed dims and data. */
static wc_status full_inputs(const wc_kernel *k, const wc_tensor *in, int n_in,
                             wc_tensor full[WC_MAX_OPERANDS], const wc_tensor **out) {
  int baked = 0, j = 0;
  *out = in;
  if (k == NULL || k->n_inputs < 0 || k->n_inputs > WC_MAX_INPUTS ||
      (k->n_inputs > 0 && k->inputs == NULL))
    return WC_OK; /* check_call's to refuse */
  for (int i = 0; i < k->n_inputs; i++) baked += k->inputs[i].data != NULL;
  if (baked == 0) return WC_OK;
  if (n_in != k->n_inputs && n_in != k->n_inputs - baked) return WC_E_ARG;
  if (n_in > 0 && in == NULL) return WC_E_ARG;
  for (int i = 0; i < k->n_inputs; i++) {
    const wc_param *p = &k->inputs[i];
    if (p->data == NULL) {
      full[i] = in[n_in == k->n_inputs ? i : j++];
      continue;
    }
    if (p->rank < 0 || p->rank > WC_MAX_RANK || (p->rank > 0 && p->dims == NULL))
      return WC_E_ARG;
    memset(&full[i], 0, sizeof full[i]);
    full[i].dtype = p->dtype;
    full[i].rank = p->rank;
    for (int d = 0; d < p->rank; d++) {
      if (p->dims[d] < 0) return WC_E_ARG; /* a baked parameter has a fixed shape */
      full[i].shape[d] = p->dims[d];
    }
    full[i].data = (void *)p->data; /* only read */
  }
  *out = full;
  return WC_OK;
}

/* The data pointers of every parameter of a prepared kernel, from the
   caller's (plan->n_inputs of them: every parameter, or its own only). */
static const void *const *full_data(const wc_plan *p, const void *const *data,
                                    const void *buf[WC_MAX_OPERANDS]) {
  const wc_kernel *k = p->kernel;
  int              j = 0;
  if (p->n_baked == 0) return data;
  for (int i = 0; i < k->n_inputs; i++)
    buf[i] = k->inputs[i].data ? k->inputs[i].data : data[p->n_inputs == k->n_inputs ? i : j++];
  return buf;
}

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

/* The checks of a call of k on n_in inputs: their descriptors and dtypes,
   and for the elementwise kinds out's (*count: its elements; v1: where_v1's
   cond, x and y parameters). Coordinate kinds: out is run_coords' to check. */
static wc_status check_call(const wc_kernel *k, const wc_tensor *in, int n_in, const wc_tensor *out,
                            int64_t *count, int v1[3]) {
  const wc_tensor *ptr[WC_MAX_OPERANDS];
  int64_t          shape[WC_MAX_RANK];
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
  if (k->kind == WC_KIND_ARGWHERE || k->kind == WC_KIND_NONZERO) return WC_OK;
  if ((s = wc__tensor_check(out, count)) != WC_OK) return s;
  if (out->dtype != k->out_dtype) return WC_E_DTYPE;
  if (k->kind == WC_KIND_WHERE_V1) {
    const wc_instr *top = &k->program[k->n_instrs - 1];
    if (top->op != WC_OP_WHERE) return WC_E_ARG;
    v1[0] = k->program[top->a].a;
    v1[1] = k->program[top->b].a;
    v1[2] = k->program[top->c].a;
    return wc__where_v1_check(&in[v1[0]], &in[v1[1]], &in[v1[2]], out);
  }
  if ((s = wc_broadcast_shape(ptr, n_in, &rank, shape)) != WC_OK) return s;
  return wc__same_shape(out, rank, shape) ? WC_OK : WC_E_SHAPE;
}

/* check_call for every output: output 0 as there, then each other one of its
   output's dtype and output 0's shape. */
static wc_status check_outs(const wc_kernel *k, const wc_tensor *in, int n_in,
                            const wc_tensor *outs, int n_out, int64_t *count, int v1[3]) {
  wc_status s;
  if (k == NULL) return WC_E_NOKERNEL;
  if (outs == NULL || n_out != wc__n_outputs(k)) return WC_E_ARG;
  if ((s = check_call(k, in, n_in, &outs[0], count, v1)) != WC_OK) return s;
  for (int o = 1; o < n_out; o++) {
    if ((s = wc__tensor_check(&outs[o], NULL)) != WC_OK) return s;
    if (outs[o].dtype != wc__out_dtype(k, o)) return WC_E_DTYPE;
    if (!wc__same_shape(&outs[o], outs[0].rank, outs[0].shape)) return WC_E_SHAPE;
  }
  return WC_OK;
}

/* Checks inputs against k's parameters and runs it. */
static wc_status run_kernel(const wc_kernel *k, const wc_tensor *in, int n_in, wc_tensor *out,
                            bool specialize, wc_path *path) {
  size_t      ext[WC_MAX_OPERANDS * WC_MAX_RANK];
  const void *data[WC_MAX_OPERANDS];
  int64_t     count = 0;
  int         v1[3] = {0, 0, 0};
  wc_status   s;
  if (k != NULL && k->n_outputs > 1) return WC_E_ARG; /* several outputs: wc_run_multi */
  if ((s = check_call(k, in, n_in, out, &count, v1)) != WC_OK) return s;
  if (k->kind == WC_KIND_ARGWHERE || k->kind == WC_KIND_NONZERO)
    return run_coords(k, in, out, specialize, path);
  if (specialize && k->range && wc__kernel_bind(k, in, ext)) {
    for (int i = 0; i < n_in; i++) data[i] = in[i].data;
    if (count > 0)
      wc__run_range(k->range, ext, data, out->data, (size_t)count, wc_dtype_size(out->dtype),
                    wc__row_elems_bound(k, ext));
    if (path) *path = WC_PATH_SPECIALIZED;
    return WC_OK;
  }
  if (path) *path = WC_PATH_INTERPRETED;
  if (k->kind != WC_KIND_WHERE_V1) return wc__interp_elementwise(k, in, out);
  wc__where_v1_run(&in[v1[0]], &in[v1[1]], &in[v1[2]], out); /* checked above */
  return WC_OK;
}

/* The kernel of table a call runs, and the checks of its description when no
   registration made them (registered tables were checked whole). */
static wc_status find_checked(const wc_kernel_table *table, const char *kernel,
                              const wc_kernel **k) {
  if (table == NULL || kernel == NULL) return WC_E_ARG;
  if ((*k = wc_find_kernel(table, kernel)) == NULL) return WC_E_NOKERNEL;
  return wc__registered(table) ? WC_OK : wc__kernel_check(*k);
}

/* run_kernel for a kernel of several outputs (one: run_kernel itself). */
static wc_status run_outputs(const wc_kernel *k, const wc_tensor *in, int n_in, wc_tensor *outs,
                             int n_out, bool specialize, wc_path *path) {
  size_t      ext[WC_MAX_OPERANDS * WC_MAX_RANK];
  const void *data[WC_MAX_OPERANDS];
  void       *out_data[WC_MAX_OPERANDS];
  int64_t     count = 0;
  int         v1[3];
  wc_status   s;
  if (k != NULL && k->n_outputs <= 1)
    return outs == NULL || n_out != 1 ? WC_E_ARG : run_kernel(k, in, n_in, outs, specialize, path);
  if ((s = check_outs(k, in, n_in, outs, n_out, &count, v1)) != WC_OK) return s;
  if (specialize && wc__kernel_bind(k, in, ext)) { /* range_outs: checked non-NULL */
    for (int i = 0; i < n_in; i++) data[i] = in[i].data;
    for (int o = 0; o < n_out; o++) out_data[o] = outs[o].data;
    if (count > 0)
      wc__run_outs(k->range_outs, ext, data, out_data, (size_t)count, wc_dtype_size(outs[0].dtype),
                   wc__row_elems_bound(k, ext));
    if (path) *path = WC_PATH_SPECIALIZED;
    return WC_OK;
  }
  if (path) *path = WC_PATH_INTERPRETED;
  return wc__interp_outputs(k, in, outs, n_out);
}

wc_status wc_run_multi(const wc_kernel_table *table, const char *kernel, const wc_tensor *inputs,
                       int n_inputs, wc_tensor *outs, int n_outs, wc_path *path) {
  const wc_kernel *k;
  wc_tensor        full[WC_MAX_OPERANDS];
  wc_status        s = find_checked(table, kernel, &k);
  if (s == WC_OK) s = full_inputs(k, inputs, n_inputs, full, &inputs);
  if (s == WC_OK && inputs == full) n_inputs = k->n_inputs;
  return s != WC_OK ? s : run_outputs(k, inputs, n_inputs, outs, n_outs, true, path);
}

wc_status wc_interpret_multi(const wc_kernel *k, const wc_tensor *inputs, int n_inputs,
                             wc_tensor *outs, int n_outs) {
  if (k == NULL) return WC_E_NOKERNEL;
  wc_tensor full[WC_MAX_OPERANDS];
  wc_status s;
  if (wc__program_check(k) != WC_OK) return WC_E_ARG;
  if ((s = full_inputs(k, inputs, n_inputs, full, &inputs)) != WC_OK) return s;
  if (inputs == full) n_inputs = k->n_inputs;
  return run_outputs(k, inputs, n_inputs, outs, n_outs, false, NULL);
}

wc_status wc_run(const wc_kernel_table *table, const char *kernel, const wc_tensor *inputs,
                 int n_inputs, wc_tensor *out, wc_path *path) {
  const wc_kernel *k;
  wc_tensor        full[WC_MAX_OPERANDS];
  wc_status        s = find_checked(table, kernel, &k);
  if (s == WC_OK) s = full_inputs(k, inputs, n_inputs, full, &inputs);
  if (s == WC_OK && inputs == full) n_inputs = k->n_inputs;
  return s != WC_OK ? s : run_kernel(k, inputs, n_inputs, out, true, path);
}

wc_status wc_interpret(const wc_kernel *k, const wc_tensor *inputs, int n_inputs, wc_tensor *out) {
  if (k == NULL) return WC_E_NOKERNEL;
  wc_tensor full[WC_MAX_OPERANDS];
  wc_status s;
  if (wc__program_check(k) != WC_OK) return WC_E_ARG;
  if ((s = full_inputs(k, inputs, n_inputs, full, &inputs)) != WC_OK) return s;
  if (inputs == full) n_inputs = k->n_inputs;
  return run_kernel(k, inputs, n_inputs, out, false, NULL);
}

/* ---- prepared calls ---- */

/* wc_prepare of n_outs outputs (multi: wc_prepare_multi, which takes a
   kernel of several; wc_prepare only one of one). */
static wc_status prepare(const wc_kernel_table *table, const char *kernel, const wc_tensor *inputs,
                         int n_inputs, const wc_tensor *outs, int n_outs, bool multi,
                         wc_plan *plan) {
  wc_tensor        in[WC_MAX_OPERANDS], o[WC_MAX_OPERANDS], full[WC_MAX_OPERANDS];
  static char      dummy; /* data for the checks, which test it for NULL only */
  const wc_kernel *k;
  const wc_tensor *given = inputs;
  int              n_given = n_inputs;
  wc_status        s;
  if ((s = find_checked(table, kernel, &k)) != WC_OK) return s;
  if (k->kind == WC_KIND_ARGWHERE || k->kind == WC_KIND_NONZERO) return WC_E_ARG;
  if ((s = full_inputs(k, given, n_given, full, &inputs)) != WC_OK) return s;
  if (inputs == full) n_inputs = k->n_inputs;
  if (outs == NULL || n_inputs != k->n_inputs || (n_inputs > 0 && inputs == NULL)) return WC_E_ARG;
  if (n_outs != wc__n_outputs(k) || (!multi && n_outs > 1)) return WC_E_ARG;
  /* copies: the shapes only are the caller's; their data need not exist yet */
  for (int i = 0; i < n_inputs; i++) {
    in[i] = inputs[i];
    if (k->inputs[i].data == NULL) in[i].data = (void *)&dummy;
  }
  for (int i = 0; i < n_outs; i++) {
    o[i] = outs[i];
    o[i].data = (void *)&dummy;
  }
  if ((s = check_outs(k, in, n_inputs, o, n_outs, &plan->count, plan->v1)) != WC_OK) return s;
  plan->n_inputs = n_given; /* the data pointers wc_plan_run takes */
  plan->n_baked = 0;
  for (int i = 0; i < n_inputs; i++) plan->n_baked += k->inputs[i].data != NULL;
  plan->n_outputs = n_outs;
  plan->bytes = (size_t)plan->count * wc_dtype_size(k->out_dtype); /* checked: no overflow */
  if (wc__kernel_bind(k, in, plan->u.extents)) {
    plan->range = k->range; /* checked non-NULL for the kind (range_outs for several) */
    plan->range_outs = k->range_outs;
    plan->path = WC_PATH_SPECIALIZED;
  } else {
    for (int i = 0; i <= n_inputs; i++) {
      const wc_tensor *t = i < n_inputs ? &in[i] : &o[0];
      plan->u.shapes.rank[i] = t->rank;
      memcpy(plan->u.shapes.shape[i], t->shape, (size_t)t->rank * sizeof t->shape[0]);
    }
    plan->path = WC_PATH_INTERPRETED;
  }
  plan->kernel = k;
  return WC_OK;
}

wc_status wc_prepare(const wc_kernel_table *table, const char *kernel, const wc_tensor *inputs,
                     int n_inputs, const wc_tensor *out, wc_plan *plan) {
  wc_status s;
  if (plan == NULL) return WC_E_ARG;
  memset(plan, 0, sizeof *plan); /* cleared: refused by wc_plan_run until prepared */
  if ((s = prepare(table, kernel, inputs, n_inputs, out, 1, false, plan)) != WC_OK)
    memset(plan, 0, sizeof *plan);
  return s;
}

wc_status wc_prepare_multi(const wc_kernel_table *table, const char *kernel,
                           const wc_tensor *inputs, int n_inputs, const wc_tensor *outs,
                           int n_outs, wc_plan *plan) {
  wc_status s;
  if (plan == NULL) return WC_E_ARG;
  memset(plan, 0, sizeof *plan);
  if ((s = prepare(table, kernel, inputs, n_inputs, outs, n_outs, true, plan)) != WC_OK)
    memset(plan, 0, sizeof *plan);
  return s;
}

/* The interpreted path: the descriptors again, from the plan's shapes (every
   output of output 0's). */
static wc_status plan_interpret(const wc_plan *p, const void *const *data, void *const *out_data) {
  wc_tensor in[WC_MAX_OPERANDS], o[WC_MAX_OPERANDS];
  int       n = p->kernel->n_inputs;
  for (int i = 0; i < n + p->n_outputs; i++) {
    wc_tensor *t = i < n ? &in[i] : &o[i - n];
    int        at = i < n ? i : n;
    t->dtype = i < n ? p->kernel->inputs[i].dtype : wc__out_dtype(p->kernel, i - n);
    t->rank = p->u.shapes.rank[at];
    memcpy(t->shape, p->u.shapes.shape[at], (size_t)t->rank * sizeof t->shape[0]);
    t->data = i < n ? (void *)data[i] : out_data[i - n]; /* inputs only read */
  }
  if (p->kernel->kind != WC_KIND_WHERE_V1)
    return wc__interp_outputs(p->kernel, in, o, p->n_outputs);
  wc__where_v1_run(&in[p->v1[0]], &in[p->v1[1]], &in[p->v1[2]], &o[0]);
  return WC_OK;
}

/* The data pointers of a plan's run: n of each (pointer arrays not NULL). */
static bool data_given(const void *const *data, int n) {
  if (n > 0 && data == NULL) return false;
  for (int i = 0; i < n; i++)
    if (data[i] == NULL) return false;
  return true;
}

wc_status wc_plan_run(const wc_plan *plan, const void *const *input_data, void *out_data) {
  const void *buf[WC_MAX_OPERANDS];
  if (plan == NULL || plan->kernel == NULL || plan->n_outputs > 1) return WC_E_ARG;
  if (plan->count == 0) return WC_OK; /* nothing read or written */
  if (out_data == NULL || !data_given(input_data, plan->n_inputs)) return WC_E_ARG;
  input_data = full_data(plan, input_data, buf);
  if (plan->range != NULL) {
    wc__run_range(plan->range, plan->u.extents, input_data, out_data, (size_t)plan->count,
                  plan->bytes / (size_t)plan->count,
                  wc__row_elems_bound(plan->kernel, plan->u.extents));
    return WC_OK;
  }
  return plan_interpret(plan, input_data, &out_data);
}

wc_status wc_plan_run_multi(const wc_plan *plan, const void *const *input_data,
                            void *const *out_data) {
  const void *buf[WC_MAX_OPERANDS];
  if (plan == NULL || plan->kernel == NULL || out_data == NULL) return WC_E_ARG;
  if (plan->n_outputs <= 1) return wc_plan_run(plan, input_data, out_data[0]);
  if (plan->count == 0) return WC_OK; /* nothing read or written */
  if (!data_given(input_data, plan->n_inputs) ||
      !data_given((const void *const *)out_data, plan->n_outputs))
    return WC_E_ARG;
  input_data = full_data(plan, input_data, buf);
  if (plan->range_outs != NULL) {
    wc__run_outs(plan->range_outs, plan->u.extents, input_data, out_data, (size_t)plan->count,
                 plan->bytes / (size_t)plan->count,
                 wc__row_elems_bound(plan->kernel, plan->u.extents));
    return WC_OK;
  }
  return plan_interpret(plan, input_data, out_data);
}
