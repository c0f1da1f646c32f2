/* compute.c: running a claimed region: ORT's tensors as wc_tensors (parameters in the
   kernel's order, per-channel ones reshaped, baked ones from the table), outputs of the
   broadcast shape, then a prepared call (wc_prepare_multi, wc_plan_run_multi): the
   specialized kernel or the interpreter. */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "provider.h"

/* A plan and the input shapes it was prepared for. A node's first shapes are kept: a
   session's shapes seldom change, and a call with those runs the plan straight (no
   lookup by name, no checks of the kernel's description, no broadcast); other shapes
   prepare a plan of their own per call, on the stack. */
typedef struct ep_plan {
  int     n_inputs;
  int     rank[WC_MAX_INPUTS];
  int64_t shape[WC_MAX_INPUTS][WC_MAX_RANK];
  int     out_rank;
  int64_t out_shape[WC_MAX_RANK];
  wc_plan plan;
} ep_plan;

typedef struct ep_compute {
  OrtNodeComputeInfo info;      /* first: ORT hands it back */
  ep_provider       *p;
  const wc_kernel   *kernel;
  const ep_mkernel  *mk;
  int                input_of[WC_MAX_INPUTS];  /* fused-node input per kernel input; -1 baked */
  int                pad[WC_MAX_INPUTS];       /* 1s appended to each input's shape */
  bool               flat[WC_MAX_INPUTS];      /* input read as the vector of its elements */
  bool               flat_out;                 /* outputs of the flat inputs' shape */
  int                output_of[WC_MAX_OPERANDS]; /* fused-node output per kernel output */
  _Atomic(ep_plan *) first;     /* set once, by the first call that prepares; then read-only */
} ep_compute;

/* The kernel context running on this thread, for the parallel hook. */
static _Thread_local const OrtKernelContext *running;

static void ort_parallel_for(void *ctx, wc_task_fn task, void *task_ctx, size_t n_tasks) {
  (void)ctx;
  const OrtKernelContext *k = running;
  if (k && n_tasks > 1 &&
      ep_ok(ORT(KernelContext_ParallelFor, ort_KernelContext_ParallelFor)(k, task, n_tasks, 0, task_ctx)))
    return;
  for (size_t i = 0; i < n_tasks; i++) task(task_ctx, i); /* no pool: tasks are idempotent */
}

void ep_install_parallel(size_t min_bytes) {
  wc_set_parallel_threshold(min_bytes);
  wc_set_parallel(ort_parallel_for, NULL);
}

/* The shape of a kernel's flat tensors (any shape, seen as [n]): the first flat input's,
   which the others must have. */
typedef struct flat_shape {
  bool    seen;
  int     rank;
  int64_t dims[WC_MAX_RANK];
} flat_shape;

/* A flat input t as the vector of its elements; false when it differs from the kernel's
   other flat inputs (the import could not prove they agree: ORT's own rank inference). */
static bool flatten(wc_tensor *t, flat_shape *fs) {
  if (fs->seen && (fs->rank != t->rank || memcmp(fs->dims, t->shape, (size_t)t->rank * sizeof(int64_t)) != 0))
    return false;
  fs->seen = true;
  fs->rank = t->rank;
  memcpy(fs->dims, t->shape, (size_t)t->rank * sizeof(int64_t));
  int64_t n = 1;
  for (int d = 0; d < t->rank; d++) n *= t->shape[d]; /* a tensor onnxruntime made: no overflow */
  t->rank = 1;
  t->shape[0] = n;
  return true;
}

static OrtStatus *input_tensor(const ep_compute *c, OrtKernelContext *kctx, int i, wc_tensor *t,
                               flat_shape *fs) {
  const wc_param *wp = &c->kernel->inputs[i];
  if (c->input_of[i] < 0) { /* baked: the table holds it */
    *t = (wc_tensor){.dtype = wp->dtype, .rank = wp->rank, .data = (void *)wp->data};
    for (int d = 0; d < wp->rank; d++) t->shape[d] = wp->dims[d];
    return NULL;
  }
  const OrtValue            *v = NULL;
  OrtTensorTypeAndShapeInfo *info = NULL;
  int                        elem = 0;
  size_t                     rank = 0;
  void                      *data = NULL;
  if (!ep_ok(ORT(KernelContext_GetInput, ort_KernelContext_GetInput)(kctx, (size_t)c->input_of[i], &v)) || !v ||
      !ep_ok(ORT(GetTensorTypeAndShape, ort_GetTensorTypeAndShape)(v, &info)))
    return ep_error("wherec: kernel %s: cannot read input '%s'", c->kernel->name, wp->name);
  bool ok = ep_ok(ORT(GetTensorElementType, ort_GetTensorElementType)(info, &elem)) &&
            ep_ok(ORT(GetDimensionsCount, ort_GetDimensionsCount)(info, &rank)) &&
            rank + (size_t)c->pad[i] <= WC_MAX_RANK &&
            ep_ok(ORT(GetDimensions, ort_GetDimensions)(info, t->shape, rank));
  ORT(ReleaseTensorTypeAndShapeInfo, ort_ReleaseTensorTypeAndShapeInfo)(info);
  if (!ok) return ep_error("wherec: kernel %s: input '%s' has no readable shape", c->kernel->name, wp->name);
  if (elem != (int)wp->dtype)
    return ep_error("wherec: kernel %s: input '%s' is %s, the kernel's is %s", c->kernel->name, wp->name,
                    wc_dtype_name((wc_dtype)elem) ? wc_dtype_name((wc_dtype)elem) : "not a wherec dtype",
                    wc_dtype_name(wp->dtype));
  if (!ep_ok(ORT(GetTensorMutableData, ort_GetTensorMutableData)((OrtValue *)v, &data)))
    return ep_error("wherec: kernel %s: input '%s' has no data", c->kernel->name, wp->name);
  t->dtype = wp->dtype;
  t->rank = (int)rank;
  t->data = data;
  for (int d = 0; d < c->pad[i]; d++) t->shape[t->rank++] = 1; /* [C] read as [C,1,1] */
  if (c->flat[i] && !flatten(t, fs))
    return ep_error("wherec: kernel %s: input '%s' has a shape of its own, where the kernel reads "
                    "tensors of one shape", c->kernel->name, wp->name);
  return NULL;
}

/* check=1: the reference (src/ref, one element at a time) on the very tensors onnxruntime
   handed the kernel, and its outputs compared byte for byte; a difference fails the run
   with the kernel, the output and the first element that differs. */
static OrtStatus *check_against_reference(const ep_compute *c, const wc_tensor *in, const wc_tensor *out,
                                          int n_out) {
  const wc_kernel *k = c->kernel;
  wc_tensor        ref[WC_MAX_OPERANDS];
  OrtStatus       *err = NULL;
  int              made = 0;
  for (; made < n_out; made++) {
    size_t bytes = wc_dtype_size(out[made].dtype);
    for (int d = 0; d < out[made].rank; d++) bytes *= (size_t)out[made].shape[d];
    ref[made] = out[made];
    ref[made].data = malloc(bytes ? bytes : 1);
    if (!ref[made].data) break;
  }
  wc_status st = made < n_out ? WC_E_NOMEM : wc_ref_run_multi(k, in, k->n_inputs, ref, n_out);
  if (st != WC_OK) err = ep_error("wherec: kernel %s: the reference cannot run: %s", k->name, wc_status_str(st));
  for (int o = 0; !err && o < n_out; o++) {
    size_t size = wc_dtype_size(out[o].dtype), n = 1;
    for (int d = 0; d < out[o].rank; d++) n *= (size_t)out[o].shape[d];
    for (size_t i = 0; !err && i < n; i++)
      if (memcmp((const char *)out[o].data + i * size, (const char *)ref[o].data + i * size, size) != 0)
        err = ep_error("wherec: kernel %s: output %d differs from the reference at element %zu", k->name, o, i);
  }
  for (int o = 0; o < made; o++) free(ref[o].data);
  return err;
}

/* Whether in[] has the shapes plan p was prepared for. */
static bool same_shapes(const ep_plan *p, const wc_tensor *in, int n) {
  if (p->n_inputs != n) return false;
  for (int i = 0; i < n; i++)
    if (p->rank[i] != in[i].rank || memcmp(p->shape[i], in[i].shape, (size_t)in[i].rank * sizeof(int64_t)) != 0)
      return false;
  return true;
}

/* A plan for in[] into *local; kept as the node's first when it has none. */
static OrtStatus *prepare(ep_compute *c, const wc_tensor *in, int n_out, wc_plan *local, int *rank,
                          int64_t *shape) {
  const wc_kernel *k = c->kernel;
  const wc_tensor *ptrs[WC_MAX_INPUTS];
  wc_tensor        outs[WC_MAX_OPERANDS];
  for (int i = 0; i < k->n_inputs; i++) ptrs[i] = &in[i];
  wc_status st = wc_broadcast_shape(ptrs, k->n_inputs, rank, shape);
  if (st != WC_OK) return ep_error("wherec: kernel %s: inputs do not broadcast: %s", k->name, wc_status_str(st));
  for (int o = 0; o < n_out; o++) {
    outs[o] = (wc_tensor){.dtype = k->n_outputs > 1 ? k->outputs[o].dtype : k->out_dtype, .rank = *rank};
    memcpy(outs[o].shape, shape, (size_t)*rank * sizeof(int64_t));
  }
  st = wc_prepare_multi(c->p->table, k->name, in, k->n_inputs, outs, n_out, local);
  if (st != WC_OK) return ep_error("wherec: kernel %s: %s", k->name, wc_status_str(st));
  if (atomic_load_explicit(&c->first, memory_order_acquire) == NULL) {
    ep_plan *p = malloc(sizeof *p);
    if (!p) return NULL; /* no cache: the next call prepares again */
    p->n_inputs = k->n_inputs;
    for (int i = 0; i < k->n_inputs; i++) {
      p->rank[i] = in[i].rank;
      memcpy(p->shape[i], in[i].shape, sizeof p->shape[i]);
    }
    p->out_rank = *rank;
    memcpy(p->out_shape, shape, sizeof p->out_shape);
    p->plan = *local;
    ep_plan *none = NULL;
    if (!atomic_compare_exchange_strong_explicit(&c->first, &none, p, memory_order_acq_rel, memory_order_acquire))
      free(p); /* another thread's call kept its own first */
  }
  return NULL;
}

static OrtStatus *compute(OrtNodeComputeInfo *self, void *state, OrtKernelContext *kctx) {
  (void)state;
  ep_compute      *c = (ep_compute *)self;
  const wc_kernel *k = c->kernel;
  wc_tensor        in[WC_MAX_INPUTS], out[WC_MAX_OPERANDS];
  const void      *in_data[WC_MAX_INPUTS];
  void            *out_data[WC_MAX_OPERANDS];
  flat_shape       fs = {0};
  for (int i = 0; i < k->n_inputs; i++) {
    OrtStatus *s = input_tensor(c, kctx, i, &in[i], &fs);
    if (s) return s;
    in_data[i] = in[i].data;
  }
  int            n_out = k->n_outputs > 1 ? k->n_outputs : 1;
  const ep_plan *first = atomic_load_explicit(&c->first, memory_order_acquire);
  const wc_plan *plan;
  wc_plan        local;
  int            rank;
  int64_t        shape[WC_MAX_RANK];
  if (first && same_shapes(first, in, k->n_inputs)) {
    plan = &first->plan;
    rank = first->out_rank;
    memcpy(shape, first->out_shape, sizeof shape);
  } else {
    OrtStatus *s = prepare(c, in, n_out, &local, &rank, shape);
    if (s) return s;
    plan = &local;
  }
  for (int o = 0; o < n_out; o++) {
    OrtValue *v = NULL;
    void     *data = NULL;
    out[o] = (wc_tensor){.dtype = k->n_outputs > 1 ? k->outputs[o].dtype : k->out_dtype, .rank = rank};
    memcpy(out[o].shape, shape, sizeof shape);
    bool           as_flat = c->flat_out && fs.seen; /* ORT's tensor of the flat inputs' shape */
    const int64_t *ort_shape = as_flat ? fs.dims : shape;
    size_t         ort_rank = as_flat ? (size_t)fs.rank : (size_t)rank;
    if (!ep_ok(ORT(KernelContext_GetOutput, ort_KernelContext_GetOutput)(kctx, (size_t)c->output_of[o], ort_shape,
                                                                        ort_rank, &v)) || !v ||
        !ep_ok(ORT(GetTensorMutableData, ort_GetTensorMutableData)(v, &data)))
      return ep_error("wherec: kernel %s: cannot make output %d", k->name, o);
    out[o].data = out_data[o] = data;
  }
  running = kctx;
  wc_status st = wc_plan_run_multi(plan, in_data, out_data);
  running = NULL;
  if (st != WC_OK) return ep_error("wherec: kernel %s: %s", k->name, wc_status_str(st));
  return c->p->check ? check_against_reference(c, in, out, n_out) : NULL;
}

static OrtStatus *create_state(OrtNodeComputeInfo *self, OrtNodeComputeContext *ctx, void **state) {
  (void)self, (void)ctx;
  *state = NULL;
  return NULL;
}

static void release_state(OrtNodeComputeInfo *self, void *state) { (void)self, (void)state; }

/* The index of name in names, or -1. */
static int position(const char *const *names, size_t n, const char *name) {
  for (size_t i = 0; i < n; i++)
    if (names[i] && strcmp(names[i], name) == 0) return (int)i;
  return -1;
}

OrtNodeComputeInfo *ep_compute_info(ep_provider *p, const ep_claim *cl, const char *const *in_names,
                                    size_t n_in, const char *const *out_names, size_t n_out,
                                    char *why, size_t why_cap) {
  const wc_kernel  *k = p->kernels[cl->kernel];
  const ep_mkernel *mk = &p->manifest.kernels[cl->kernel];
  ep_compute       *c = calloc(1, sizeof *c);
  if (!c) return snprintf(why, why_cap, "out of memory"), NULL;
  c->info = (OrtNodeComputeInfo){ORT_EP_API_VERSION, create_state, compute, release_state};
  atomic_init(&c->first, NULL);
  c->p = p;
  c->kernel = k;
  c->mk = mk;
  for (int i = 0; i < k->n_inputs; i++) {
    c->input_of[i] = -1;
    if (k->inputs[i].data) continue; /* baked */
    int mp = -1;
    for (int q = 0; q < mk->n_params; q++)
      if (strcmp(mk->params[q].name, k->inputs[i].name) == 0) mp = q;
    if (mp < 0) {
      snprintf(why, why_cap, "the manifest has no parameter '%s' of kernel %s", k->inputs[i].name, k->name);
      free(c);
      return NULL;
    }
    c->pad[i] = mk->params[mp].pad;
    c->flat[i] = mk->params[mp].flat;
    c->input_of[i] = position(in_names, n_in, cl->params[mp]);
    if (c->input_of[i] < 0) {
      snprintf(why, why_cap, "the fused node of %s does not read '%s'", k->name, cl->params[mp]);
      free(c);
      return NULL;
    }
  }
  int n_k_out = k->n_outputs > 1 ? k->n_outputs : 1;
  for (int o = 0; o < mk->n_outputs; o++) c->flat_out |= mk->outputs[o].flat;
  for (int o = 0; o < n_k_out; o++) {
    c->output_of[o] = position(out_names, n_out, cl->outputs[o]);
    if (c->output_of[o] < 0) {
      snprintf(why, why_cap, "the fused node of %s does not write '%s'", k->name, cl->outputs[o]);
      free(c);
      return NULL;
    }
  }
  return &c->info;
}

void ep_compute_info_free(OrtNodeComputeInfo *info) {
  if (!info) return;
  free(atomic_load(&((ep_compute *)info)->first));
  free(info);
}
