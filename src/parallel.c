/* parallel.c: the host's parallel-for hook (wc_set_parallel) and the split of
   one call's flat output into tasks of disjoint, line-aligned ranges. */
#include <stdint.h>

#include "parallel.h"

#define LINE 64 /* task bounds fall on output lines: no line is written by two tasks */

/* The hook (fn, ctx) is a pair read by any thread while another may set it:
   a sequence lock over atomics (seq odd while a writer changes it), so that a
   reader never mixes an old fn with a new ctx. Writers take `writing`. */
static atomic_uint             seq;
static atomic_flag             writing = ATOMIC_FLAG_INIT;
static _Atomic(wc_parallel_fn) hook_fn;
static _Atomic(void *)         hook_ctx;
static atomic_size_t           threshold = WC_PARALLEL_MIN_BYTES;
atomic_size_t                  wc__parallel_min_bytes = SIZE_MAX;

/* Changes the state under the writer's lock; fn_set: fn and ctx too. */
static void set_state(bool fn_set, wc_parallel_fn fn, void *ctx, size_t bytes) {
  while (atomic_flag_test_and_set_explicit(&writing, memory_order_acquire)) {}
  unsigned s = atomic_load_explicit(&seq, memory_order_relaxed);
  atomic_store_explicit(&seq, s + 1, memory_order_relaxed);
  atomic_thread_fence(memory_order_release);
  if (fn_set) {
    atomic_store_explicit(&hook_fn, fn, memory_order_relaxed);
    atomic_store_explicit(&hook_ctx, ctx, memory_order_relaxed);
  } else {
    atomic_store_explicit(&threshold, bytes, memory_order_relaxed);
  }
  bool on = atomic_load_explicit(&hook_fn, memory_order_relaxed) != NULL;
  atomic_store_explicit(&wc__parallel_min_bytes,
                        on ? atomic_load_explicit(&threshold, memory_order_relaxed) : SIZE_MAX,
                        memory_order_relaxed);
  atomic_store_explicit(&seq, s + 2, memory_order_release);
  atomic_flag_clear_explicit(&writing, memory_order_release);
}

void wc_set_parallel(wc_parallel_fn fn, void *ctx) { set_state(true, fn, fn ? ctx : NULL, 0); }

void wc_set_parallel_threshold(size_t bytes) {
  set_state(false, NULL, NULL, bytes ? bytes : WC_PARALLEL_MIN_BYTES);
}

/* A consistent snapshot of the hook and threshold; false when none is set. */
static bool hook_get(wc_parallel_fn *fn, void **ctx, size_t *min_bytes) {
  unsigned s0, s1;
  do {
    while ((s0 = atomic_load_explicit(&seq, memory_order_acquire)) & 1u) {}
    *fn = atomic_load_explicit(&hook_fn, memory_order_relaxed);
    *ctx = atomic_load_explicit(&hook_ctx, memory_order_relaxed);
    *min_bytes = atomic_load_explicit(&threshold, memory_order_relaxed);
    atomic_thread_fence(memory_order_acquire);
    s1 = atomic_load_explicit(&seq, memory_order_relaxed);
  } while (s0 != s1);
  return *fn != NULL;
}

/* One call's split: task t computes [bound(t), bound(t + 1)). */
typedef struct split {
  wc__body_fn body;
  void       *ctx;
  size_t      count, w;   /* elements, element width */
  size_t      row;        /* bounds are multiples of it */
  uintptr_t   base;       /* the output's address */
  size_t      task_bytes; /* a multiple of LINE */
  size_t      n_tasks;    /* 2 or more */
  bool        aligned;    /* bounds on output lines (w divides LINE) */
} split;

static size_t bound(const split *s, size_t t) {
  if (t == 0) return 0;
  if (t >= s->n_tasks) return s->count;
  size_t off = t * s->task_bytes, e;
  if (s->aligned) off += (size_t)(-(s->base + off) & (LINE - 1)); /* up to the next line */
  e = off / s->w / s->row * s->row;
  return e < s->count ? e : s->count;
}

static void run_task(void *ctx, size_t t) {
  const split *s = ctx;
  size_t       b = bound(s, t), e = bound(s, t + 1);
  if (b < e) s->body(s->ctx, b, e);
}

void wc__parallel_for(size_t count, size_t w, const void *out, wc__body_fn body, void *ctx) {
  wc__parallel_rows(count, w, 1, out, body, ctx);
}

void wc__parallel_rows(size_t count, size_t w, size_t row, const void *out, wc__body_fn body,
                       void *ctx) {
  wc_parallel_fn fn;
  void          *hctx;
  size_t         min_bytes, bytes = count * w;
  split          s;
  if (count == 0) return;
  /* the serial hot path (no hook, or a small call) reads one atomic, not the hook's snapshot */
  if (w == 0 || !wc__parallel_splits(bytes) || !hook_get(&fn, &hctx, &min_bytes) ||
      bytes < min_bytes) {
    body(ctx, 0, count);
    return;
  }
  s.task_bytes = min_bytes / 4 / LINE * LINE;
  if (s.task_bytes < LINE) s.task_bytes = LINE;
  s.n_tasks = bytes / s.task_bytes + (bytes % s.task_bytes != 0);
  if (s.n_tasks < 2) {
    body(ctx, 0, count);
    return;
  }
  s.body = body;
  s.ctx = ctx;
  s.count = count;
  s.w = w;
  s.row = row ? row : 1;
  s.base = (uintptr_t)out;
  s.aligned = LINE % w == 0 && s.base % w == 0;
  fn(hctx, run_task, &s, s.n_tasks);
}

/* ---- kernels' range invokers ---- */

typedef struct range_call {
  wc_range_fn        range;
  const size_t      *ext;
  const void *const *in;
  void              *out;
} range_call;

static void range_body(void *ctx, size_t begin, size_t end) {
  const range_call *r = ctx;
  r->range(r->ext, r->in, r->out, begin, end);
}

void wc__parallel_range(wc_range_fn range, const size_t *ext, const void *const *in, void *out,
                        size_t count, size_t w, size_t row) {
  range_call r = {range, ext, in, out};
  wc__parallel_rows(count, w, row, out, range_body, &r);
}

typedef struct outs_call {
  wc_outs_range_fn   range;
  const size_t      *ext;
  const void *const *in;
  void *const       *outs;
} outs_call;

static void outs_body(void *ctx, size_t begin, size_t end) {
  const outs_call *r = ctx;
  r->range(r->ext, r->in, r->outs, begin, end);
}

void wc__run_outs(wc_outs_range_fn range, const size_t *ext, const void *const *in,
                  void *const *outs, size_t count, size_t w, size_t row) {
  outs_call r = {range, ext, in, outs};
  wc__parallel_rows(count, w, row, outs[0], outs_body, &r);
}
