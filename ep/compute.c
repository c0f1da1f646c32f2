/* compute.c: running a claimed region: ORT's tensors as wc_tensors (parameters in the
   kernel's order, per-channel ones reshaped, baked ones from the table), outputs of the
   broadcast shape, then wc_run_multi: the specialized kernel or the interpreter. */
#include <stdlib.h>
#include <string.h>

#include "provider.h"

typedef struct ep_compute {
  OrtNodeComputeInfo info;      /* first: ORT hands it back */
  ep_provider       *p;
  const wc_kernel   *kernel;
  const ep_mkernel  *mk;
  int                input_of[WC_MAX_INPUTS];  /* fused-node input per kernel input; -1 baked */
  int                pad[WC_MAX_INPUTS];       /* 1s appended to each input's shape */
  int                output_of[WC_MAX_OPERANDS]; /* fused-node output per kernel output */
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

static OrtStatus *input_tensor(const ep_compute *c, OrtKernelContext *kctx, int i, wc_tensor *t) {
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

static OrtStatus *compute(OrtNodeComputeInfo *self, void *state, OrtKernelContext *kctx) {
  (void)state;
  const ep_compute *c = (const ep_compute *)self;
  const wc_kernel  *k = c->kernel;
  wc_tensor         in[WC_MAX_INPUTS], out[WC_MAX_OPERANDS];
  const wc_tensor  *ptrs[WC_MAX_INPUTS];
  for (int i = 0; i < k->n_inputs; i++) {
    OrtStatus *s = input_tensor(c, kctx, i, &in[i]);
    if (s) return s;
    ptrs[i] = &in[i];
  }
  int       rank = 0;
  int64_t   shape[WC_MAX_RANK];
  wc_status st = wc_broadcast_shape(ptrs, k->n_inputs, &rank, shape);
  if (st != WC_OK) return ep_error("wherec: kernel %s: inputs do not broadcast: %s", k->name, wc_status_str(st));
  int n_out = k->n_outputs > 1 ? k->n_outputs : 1;
  for (int o = 0; o < n_out; o++) {
    OrtValue *v = NULL;
    void     *data = NULL;
    out[o] = (wc_tensor){.dtype = k->n_outputs > 1 ? k->outputs[o].dtype : k->out_dtype, .rank = rank};
    memcpy(out[o].shape, shape, sizeof shape);
    if (!ep_ok(ORT(KernelContext_GetOutput, ort_KernelContext_GetOutput)(kctx, (size_t)c->output_of[o], shape,
                                                                        (size_t)rank, &v)) || !v ||
        !ep_ok(ORT(GetTensorMutableData, ort_GetTensorMutableData)(v, &data)))
      return ep_error("wherec: kernel %s: cannot make output %d", k->name, o);
    out[o].data = data;
  }
  running = kctx;
  st = wc_run_multi(c->p->table, k->name, in, k->n_inputs, out, n_out, NULL);
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
    c->input_of[i] = position(in_names, n_in, cl->params[mp]);
    if (c->input_of[i] < 0) {
      snprintf(why, why_cap, "the fused node of %s does not read '%s'", k->name, cl->params[mp]);
      free(c);
      return NULL;
    }
  }
  int n_k_out = k->n_outputs > 1 ? k->n_outputs : 1;
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

void ep_compute_info_free(OrtNodeComputeInfo *info) { free(info); }
