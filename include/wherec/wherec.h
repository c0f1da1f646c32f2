/* wherec/wherec.h: the runtime API of libwherec.
   Where / where_v1 on any dtype and broadcast, coordinates of true elements,
   the registry and runner of generated kernel tables, and the reference evaluator. */
#ifndef WHEREC_WHEREC_H
#define WHEREC_WHEREC_H

#include <wherec/kernel.h>

#ifdef __cplusplus
extern "C" {
#endif

#define WC_MAX_RANK 16

typedef struct wc_tensor {
  wc_dtype dtype;
  int      rank;                   /* 0 = scalar */
  int64_t  shape[WC_MAX_RANK];
  void    *data;                   /* dense, row-major; WC_STRING: array of const char * */
} wc_tensor;

typedef enum wc_status { WC_OK = 0, WC_E_ARG, WC_E_DTYPE, WC_E_RANK, WC_E_SHAPE,
                         WC_E_OVERFLOW, WC_E_CAPACITY, WC_E_NOKERNEL, WC_E_NOMEM } wc_status;

const char *wc_status_str(wc_status s);
size_t      wc_dtype_size(wc_dtype t);      /* 0 for an unknown code */
const char *wc_dtype_name(wc_dtype t);      /* ONNX name: "float", "bfloat16", ...; NULL if unknown */

/* ONNX / numpy multidirectional broadcasting of n shapes. */
wc_status wc_broadcast_shape(const wc_tensor *const *ts, int n, int *rank,
                             int64_t shape[WC_MAX_RANK]);

/* out: caller-allocated, rank/shape = broadcast shape, dtype = x's dtype.
   out may be the buffer of x or y when its shape equals theirs. */
wc_status wc_where(const wc_tensor *cond, const wc_tensor *x, const wc_tensor *y, wc_tensor *out);
/* tf.compat.v1.where: x, y same shape; cond same shape, or a vector over x's
   first dimension selecting whole rows (outer slices). */
wc_status wc_where_v1(const wc_tensor *cond, const wc_tensor *x, const wc_tensor *y, wc_tensor *out);

/* Coordinates of the true (non-zero) elements of cond, any dtype, row-major order.
   argwhere: [n, rank] (tf.where with one argument); nonzero: [rank, n] (ONNX NonZero).
   capacity counts int64 slots; too small -> WC_E_CAPACITY and *n still tells n. */
wc_status wc_count_true(const wc_tensor *cond, int64_t *n);
wc_status wc_argwhere(const wc_tensor *cond, int64_t *coords, int64_t capacity, int64_t *n);
wc_status wc_nonzero (const wc_tensor *cond, int64_t *coords, int64_t capacity, int64_t *n);

/* ---- generated kernel tables (see <wherec/kernel.h>) ----------------------
   wc_register: at start-up (not thread-safe against concurrent calls); then
   wc_where also uses the table's plain-where kernels. Registering a table
   twice is a no-op; at most WC_MAX_TABLES tables (WC_E_CAPACITY beyond).
   wc_run: runs kernel `kernel` of `table` on n_inputs tensors (parameter
   order). The specialized function runs when dtypes match and the shapes fit
   the kernel's pattern (binding its symbolic extents); otherwise the generic
   interpreter. *path (may be NULL) tells which ran.
   Baked parameters (wc_param.data, a spec's `const`): the caller passes
   either a tensor for every parameter (those given for baked ones are not
   read) or for its own only (the parameters whose data is NULL, in order);
   the same for wc_prepare (and then wc_plan_run's data pointers),
   wc_interpret, wc_run_multi, wc_ref_run.
   Elementwise kernels: out has the broadcast shape and the kernel's dtype.
   argwhere / nonzero kernels: out is int64 with room for rank * n elements
   (its element count is the capacity); on return out->rank = 2 and
   out->shape = [n, rank] (argwhere) or [rank, n] (nonzero), also when the
   capacity was too small (WC_E_CAPACITY).
   wc_register checks every kernel of the table first and refuses a
   malformed one (operands not earlier instructions, unknown opcodes, kinds
   or dtypes, operand dtypes an opcode does not take, parameter or extent
   indices out of range, shape patterns that disagree, more than
   WC_MAX_INPUTS inputs, a missing invoker for the kind) with WC_E_ARG,
   registering nothing. wc_run (and wc_prepare) on a table not registered
   make the same checks of the kernel they run, on each call; wc_interpret
   checks what the interpreter reads (kind, parameter dtypes, program). */
#define WC_MAX_TABLES 64
wc_status wc_register(const wc_kernel_table *table);
wc_status wc_run(const wc_kernel_table *table, const char *kernel,
                 const wc_tensor *inputs, int n_inputs, wc_tensor *out, wc_path *path);
/* ---- prepared calls ----------------------------------------------------------
   wc_prepare binds kernel `kernel` of `table` to the shapes of inputs and out
   once, with every check wc_run makes (kernel found, the table's description
   when it is not registered, dtypes, ranks, shapes, the broadcast output shape,
   overflow), into *plan: caller-owned storage, nothing allocated. It reads the
   descriptors' dtype, rank and shape only (data may be NULL) and copies what
   the call needs, so the tensors may go; the plan points into the table and
   stays valid while the table does. It records the path: specialized when the
   dtypes match and the shapes fit the kernel's pattern (extents bound once),
   else interpreted. Argwhere / nonzero kernels are refused with WC_E_ARG (their
   output size depends on the data: run them with wc_run). On failure the plan
   is cleared, and wc_plan_run refuses it.
   wc_plan_run runs a plan on data pointers: input_data[i] for parameter i,
   out_data for the output (which may be the buffer of an input of the output's
   shape and dtype, as in wc_where). NULL data when the output has elements:
   WC_E_ARG; an empty output runs nothing. The specialized path calls the
   kernel's range function straight, allocating nothing; the interpreted one
   is wc_interpret's (its block scratch is allocated per call, WC_E_NOMEM).
   A plan is read-only for wc_plan_run: threads may share one. */
#define WC_PLAN_MAX_EXTENTS (WC_MAX_OPERANDS * WC_MAX_RANK)
typedef struct wc_plan {
  wc_range_fn      range;      /* specialized: the kernel's invoker; NULL: interpreted */
  int64_t          count;      /* elements of the output */
  size_t           bytes;      /* bytes of the output: the parallel threshold's measure */
  int              n_inputs;   /* data pointers wc_plan_run reads */
  wc_path          path;       /* the path chosen; 0 in a cleared plan */
  const wc_kernel *kernel;     /* NULL in a cleared plan */
  int              v1[3];      /* where_v1 interpreted: parameters of cond, x, y */
  union {
    size_t extents[WC_PLAN_MAX_EXTENTS]; /* specialized: one per symbolic extent */
    struct {
      int     rank[WC_MAX_OPERANDS];     /* interpreted: inputs, then the output */
      int64_t shape[WC_MAX_OPERANDS][WC_MAX_RANK];
    } shapes;
  } u;                        /* by path */
  int              n_outputs;  /* 1; more in a plan of wc_prepare_multi */
  wc_outs_range_fn range_outs; /* several outputs, specialized: the kernel's invoker */
  int              n_baked;    /* baked parameters (wc_param.data) the runtime passes */
} wc_plan;
wc_status wc_prepare(const wc_kernel_table *table, const char *kernel, const wc_tensor *inputs,
                     int n_inputs, const wc_tensor *out, wc_plan *plan);
wc_status wc_plan_run(const wc_plan *plan, const void *const *input_data, void *out_data);

/* ---- kernels with several outputs ------------------------------------------
   A kernel whose spec names several outputs (`-> (y, t) { ... }`) computes
   them in one pass: wc_run_multi takes outs[o] for output o, in the order the
   spec names them (k->outputs; n_outs = k->n_outputs), each of the inputs'
   broadcast shape and of its output's dtype, with the rules of wc_run (an
   output may be the buffer of an input of its shape and dtype; outputs do not
   overlap one another). Any other kernel runs too, with its one output
   (n_outs 1). wc_run, wc_prepare and wc_interpret refuse a kernel of several
   outputs (WC_E_ARG): they have one out. The prepared form: wc_prepare_multi
   as wc_prepare, and wc_plan_run_multi with one data pointer per output
   (wc_plan_run refuses such a plan); wc_interpret_multi and wc_ref_run_multi
   are the interpreter's and the reference's. Parallel splits follow output 0. */
wc_status wc_run_multi(const wc_kernel_table *table, const char *kernel, const wc_tensor *inputs,
                       int n_inputs, wc_tensor *outs, int n_outs, wc_path *path);
wc_status wc_prepare_multi(const wc_kernel_table *table, const char *kernel,
                           const wc_tensor *inputs, int n_inputs, const wc_tensor *outs,
                           int n_outs, wc_plan *plan);
wc_status wc_plan_run_multi(const wc_plan *plan, const void *const *input_data,
                            void *const *out_data);
wc_status wc_interpret_multi(const wc_kernel *k, const wc_tensor *inputs, int n_inputs,
                             wc_tensor *outs, int n_outs);

/* ---- parallel execution -----------------------------------------------------
   The runtime owns no threads: the host installs its own parallel-for, and
   calls whose output has at least the threshold's bytes (default
   WC_PARALLEL_MIN_BYTES) are split through it into tasks, each computing a
   disjoint range of the flat output (the kernel's P_K_range), so any split
   gives the same bytes as the serial call. Split: wc_run and wc_plan_run
   (both paths), wc_where and wc_where_v1; argwhere / nonzero stay serial.
   Smaller calls, and every call while no hook is installed (the default),
   run serially on the calling thread and never call the hook.
   A hook fn(ctx, task, task_ctx, n_tasks) must call task(task_ctx, i) once
   for every i in [0, n_tasks), in any order, on any threads (the calling one
   too), and return when all have returned. Tasks are independent and about
   a quarter of the threshold each (n_tasks = output bytes / that, rounded
   up), so a dynamic schedule balances a busy core; their bounds fall on
   64-byte lines of the output. The hook is called from whichever threads
   call the runtime, possibly at once: a pool that is not reentrant must run
   nested or concurrent calls inline (examples/parallel/ shows adapters for
   OpenMP and pthreadpool).
   wc_set_parallel(NULL, NULL) restores serial execution. Setting is
   race-free against running calls (C11 atomics): a call uses either the old
   or the new (fn, ctx) pair, never a mix, so the host must keep the old
   pool alive until calls that may have started before the change return.
   wc_set_parallel_threshold(bytes): 0 restores the default; at most one
   task per 64-byte line however small. The hook's task count and bounds
   depend on the output's address and size only. */
typedef void (*wc_task_fn)(void *task_ctx, size_t task);
typedef void (*wc_parallel_fn)(void *ctx, wc_task_fn task, void *task_ctx, size_t n_tasks);
#define WC_PARALLEL_MIN_BYTES ((size_t)1 << 20)
void wc_set_parallel(wc_parallel_fn fn, void *ctx);
void wc_set_parallel_threshold(size_t bytes);

/* The kernel of that name in table, or NULL. */
const wc_kernel *wc_find_kernel(const wc_kernel_table *table, const char *kernel);
/* Runs the interpreter alone on a kernel (same rules as wc_run). */
wc_status wc_interpret(const wc_kernel *k, const wc_tensor *inputs, int n_inputs, wc_tensor *out);

/* ---- reference evaluator ---------------------------------------------------
   Deliberately naive (one element at a time, multi-index arithmetic) and
   independent of the fast paths, so that the two can check each other. */
wc_status wc_ref_where(const wc_tensor *cond, const wc_tensor *x, const wc_tensor *y, wc_tensor *out);
wc_status wc_ref_where_v1(const wc_tensor *cond, const wc_tensor *x, const wc_tensor *y, wc_tensor *out);
wc_status wc_ref_argwhere(const wc_tensor *cond, int64_t *coords, int64_t capacity, int64_t *n);
wc_status wc_ref_nonzero(const wc_tensor *cond, int64_t *coords, int64_t capacity, int64_t *n);
/* Evaluates kernel k's program element by element (expression tree), with
   its own implementation of every operation; same contract as wc_run. */
wc_status wc_ref_run(const wc_kernel *k, const wc_tensor *inputs, int n_inputs, wc_tensor *out);
wc_status wc_ref_run_multi(const wc_kernel *k, const wc_tensor *inputs, int n_inputs,
                           wc_tensor *outs, int n_outs);

#ifdef __cplusplus
}
#endif
#endif
