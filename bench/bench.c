/* bench.c: times every benchmark case through the generated kernel, the runtime,
   the interpreter, a hand-tuned loop and memcpy; writes machine-readable records. */
#define _POSIX_C_SOURCE 200809L
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench.h"
#include "bk.h"

/* ---- direct calls of the generated kernels (bench.where) and the tuned
   loops, which share their signatures: one adapter per signature ---- */

#define CALL_N3(name, fn) \
  static void name(bench_args *a) { fn(a->ext[0], a->in[0], a->in[1], a->in[2], a->out); }
#define CALL_RC3(name, fn) \
  static void name(bench_args *a) { fn(a->ext[0], a->ext[1], a->in[0], a->in[1], a->in[2], a->out); }
#define CALL_6D(name, fn)                                                      \
  static void name(bench_args *a) {                                            \
    fn(a->ext[0], a->ext[1], a->ext[2], a->ext[3], a->ext[4], a->ext[5],       \
       a->in[0], a->in[1], a->in[2], a->out);                                  \
  }
#define CALL_N1(name, fn) static void name(bench_args *a) { fn(a->ext[0], a->in[0], a->out); }
#define CALL_COORDS(name, fn) \
  static void name(bench_args *a) { a->n = fn(a->ext[0], a->ext[1], a->in[0], a->out); }
#define CALL_FIXED3(name, fn) static void name(bench_args *a) { fn(a->in[0], a->in[1], a->in[2], a->out); }

CALL_N3(gen_same_float, bk_same_float)          CALL_N3(tun_same_w4, tuned_same_w4)
CALL_N3(gen_same_float16, bk_same_float16)      CALL_N3(tun_same_w2, tuned_same_w2)
CALL_N3(gen_same_int64, bk_same_int64)          CALL_N3(tun_same_w8, tuned_same_w8)
CALL_N3(gen_same_uint8, bk_same_uint8)          CALL_N3(tun_same_w1, tuned_same_w1)
CALL_RC3(gen_row_bcast, bk_row_bcast)           CALL_RC3(tun_row_bcast, tuned_row_bcast)
CALL_N3(gen_scalar_x, bk_scalar_x)              CALL_N3(tun_scalar_x, tuned_scalar_x)
CALL_N3(gen_scalar_y, bk_scalar_y)              CALL_N3(tun_scalar_y, tuned_scalar_y)
CALL_N3(gen_scalar_c, bk_scalar_c)              CALL_N3(tun_scalar_c, tuned_scalar_c)
CALL_6D(gen_bcast6, bk_bcast6)                  CALL_6D(tun_bcast6, tuned_bcast6)
CALL_N1(gen_leaky, bk_leaky)                    CALL_N1(tun_leaky, tuned_leaky)
CALL_COORDS(gen_argw, bk_argw)                  CALL_COORDS(tun_argwhere, tuned_argwhere)
CALL_COORDS(gen_nz, bk_nz)                      CALL_COORDS(tun_nonzero, tuned_nonzero)
CALL_FIXED3(gen_tiny, bk_tiny)                  CALL_FIXED3(tun_tiny, tuned_tiny)

/* ---- the cases: the one list (numpy_bench.py reads the records it yields) ---- */

typedef enum case_kind { CASE_WHERE, CASE_LEAKY, CASE_ARGWHERE, CASE_NONZERO } case_kind;
static const char *const kind_names[] = {"where", "leaky", "argwhere", "nonzero"};
static bool is_coords(case_kind k) { return k == CASE_ARGWHERE || k == CASE_NONZERO; }

typedef struct bench_case {
  const char *name;            /* row of the table */
  const char *kernel;          /* kernel of bench.where */
  case_kind   kind;
  double      p;               /* probability that a condition element is true */
  const char *shape[BENCH_MAX_INPUTS];  /* per input: "R,C"; "" is a scalar */
  bench_fn    gen, tuned;
  bool        per_call;        /* a tiny case: also time an empty call (the timing floor) */
} bench_case;

#define N64K "65536"
#define N1M "1048576"
#define N16M "16777216"
#define SAME(name, t, n, p, w) \
  {name, "same_" #t, CASE_WHERE, p, {n, n, n}, gen_same_##t, tun_same_w##w, false}

static const bench_case cases[] = {
  SAME("f32 64K p.5", float, N64K, 0.5, 4),     SAME("f32 64K p.01", float, N64K, 0.01, 4),
  SAME("f32 16M p.5", float, N16M, 0.5, 4),     SAME("f32 16M p.01", float, N16M, 0.01, 4),
  SAME("f32 1M p.5 (in L3)", float, N1M, 0.5, 4),  /* where threads are not memory-bound */
  SAME("f16 64K p.5", float16, N64K, 0.5, 2),   SAME("f16 64K p.01", float16, N64K, 0.01, 2),
  SAME("f16 16M p.5", float16, N16M, 0.5, 2),   SAME("f16 16M p.01", float16, N16M, 0.01, 2),
  SAME("i64 64K p.5", int64, N64K, 0.5, 8),     SAME("i64 64K p.01", int64, N64K, 0.01, 8),
  SAME("i64 16M p.5", int64, N16M, 0.5, 8),     SAME("i64 16M p.01", int64, N16M, 0.01, 8),
  SAME("u8 64K p.5", uint8, N64K, 0.5, 1),      SAME("u8 64K p.01", uint8, N64K, 0.01, 1),
  SAME("u8 16M p.5", uint8, N16M, 0.5, 1),      SAME("u8 16M p.01", uint8, N16M, 0.01, 1),
  {"row bcast 16Kx1K", "row_bcast", CASE_WHERE, 0.5, {"16384,1", "16384,1024", "1,1024"},
   gen_row_bcast, tun_row_bcast, false},
  {"scalar x 16M", "scalar_x", CASE_WHERE, 0.5, {N16M, "", N16M}, gen_scalar_x, tun_scalar_x, false},
  {"scalar y 16M", "scalar_y", CASE_WHERE, 0.5, {N16M, N16M, ""}, gen_scalar_y, tun_scalar_y, false},
  {"scalar c 16M", "scalar_c", CASE_WHERE, 0.5, {"", N16M, N16M}, gen_scalar_c, tun_scalar_c, false},
  {"6-d bcast 16M", "bcast6", CASE_WHERE, 0.5,
   {"8,1,8,1,8,512", "8,8,1,8,1,512", "1,8,8,8,8,512"}, gen_bcast6, tun_bcast6, false},
  {"leaky relu 16M", "leaky", CASE_LEAKY, 0.0, {N16M}, gen_leaky, tun_leaky, false},
  {"argwhere 4Kx4K p.5", "argw", CASE_ARGWHERE, 0.5, {"4096,4096"}, gen_argw, tun_argwhere, false},
  {"argwhere 4Kx4K p.01", "argw", CASE_ARGWHERE, 0.01, {"4096,4096"}, gen_argw, tun_argwhere, false},
  {"nonzero 4Kx4K p.5", "nz", CASE_NONZERO, 0.5, {"4096,4096"}, gen_nz, tun_nonzero, false},
  {"nonzero 4Kx4K p.01", "nz", CASE_NONZERO, 0.01, {"4096,4096"}, gen_nz, tun_nonzero, false},
  {"2x2 per call", "tiny", CASE_WHERE, 0.5, {"2,2", "2,2", "2,2"}, gen_tiny, tun_tiny, true},
};
#define N_CASES (int)(sizeof cases / sizeof cases[0])

/* ---- the state of one case: operands as tensors, buffers for the checks ---- */

typedef struct run_ctx {
  const bench_case *c;
  wc_tensor in[BENCH_MAX_INPUTS], out;
  int       n_in;
  int64_t   capacity;          /* out's slots (coordinate kinds: rank * elements) */
  void     *src;               /* memcpy's source, as large as the output */
  size_t    out_bytes;         /* output bytes of this case (coordinates: n * rank * 8) */
  wc_status status;            /* of the last runtime call */
} run_ctx;

#define CTX(a) ((run_ctx *)(a)->ctx)

/* Coordinate kinds reshape out to [n, rank] or [rank, n]: give the capacity back. */
static void coords_capacity(run_ctx *r) {
  if (!is_coords(r->c->kind)) return;
  r->out.rank = 1;
  r->out.shape[0] = r->capacity;
}
static int64_t coords_found(const run_ctx *r) {
  if (!is_coords(r->c->kind)) return 0;
  return r->out.shape[r->c->kind == CASE_ARGWHERE ? 0 : 1];
}

static void v_wc_run(bench_args *a) {
  run_ctx *r = CTX(a);
  coords_capacity(r);
  r->status = wc_run(&bk_table, r->c->kernel, r->in, r->n_in, &r->out, NULL);
  a->n = coords_found(r);
}

/* The runtime entry point users call without a table: wc_where (built-in
   and registered kernels), wc_argwhere, wc_nonzero. */
static void v_runtime(bench_args *a) {
  run_ctx *r = CTX(a);
  switch (r->c->kind) {
    case CASE_WHERE: r->status = wc_where(&r->in[0], &r->in[1], &r->in[2], &r->out); break;
    case CASE_ARGWHERE: r->status = wc_argwhere(&r->in[0], a->out, r->capacity, &a->n); break;
    case CASE_NONZERO: r->status = wc_nonzero(&r->in[0], a->out, r->capacity, &a->n); break;
    case CASE_LEAKY: break;
  }
}

static void v_interp(bench_args *a) {
  run_ctx *r = CTX(a);
  coords_capacity(r);
  r->status = wc_interpret(a->k, r->in, r->n_in, &r->out);
  a->n = coords_found(r);
}

static void v_threads(bench_args *a) {
  run_ctx *r = CTX(a);
  r->status = threads_run(&bk_table, r->c->kernel, r->in, r->n_in, &r->out, 2) ? WC_E_ARG : WC_OK;
}

static void v_memcpy(bench_args *a) { memcpy(a->out, CTX(a)->src, CTX(a)->out_bytes); }
static void v_null(bench_args *a) { (void)a; }

/* ---- the variants: the columns, tuned first (its output is the expected one) ---- */

typedef enum variant_id { V_TUNED, V_GEN, V_WC_RUN, V_RUNTIME, V_INTERP, V_THREADS, V_MEMCPY, N_VARIANTS } variant_id;

typedef struct variant {
  const char *name;
  bench_fn    fn;              /* NULL: the case's own (gen, tuned) */
  unsigned    kinds;           /* bit per case_kind it applies to */
  bool        checked;         /* output compared with the tuned loop's */
} variant;

#define ALL_KINDS 0xfu
#define ELEMENTWISE (1u << CASE_WHERE | 1u << CASE_LEAKY)
static const variant variants[N_VARIANTS] = {
  [V_TUNED] = {"tuned", NULL, ALL_KINDS, false},
  [V_GEN] = {"gen", NULL, ALL_KINDS, true},
  [V_WC_RUN] = {"wc_run", v_wc_run, ALL_KINDS, true},
  [V_RUNTIME] = {"runtime", v_runtime, ALL_KINDS & ~(1u << CASE_LEAKY), true},
  [V_INTERP] = {"interp", v_interp, ALL_KINDS, true},
  [V_THREADS] = {"gen_2thr", v_threads, ELEMENTWISE, true},
  [V_MEMCPY] = {"memcpy", v_memcpy, ALL_KINDS, false},
};

/* ---- timing ---- */

#define MAX_REPS 101
#define SAMPLE_NS 2e6          /* short calls repeat within a sample to last this long */
#define THREADS_MIN_COUNT (1u << 20)   /* smaller outputs do not repay a thread start */

/* Calls per sample: short calls repeat within a sample to dwarf the
   clock's resolution. The call timed here is past the warm-up. */
static long calibrate(bench_fn fn, bench_args *a) {
  double t0 = bench_now_ns();
  fn(a);
  double one = bench_now_ns() - t0;
  return one >= SAMPLE_NS ? 1 : (long)(SAMPLE_NS / (one > 1.0 ? one : 1.0)) + 1;
}

/* ns per call over one sample of `inner` calls. */
static double sample(bench_fn f, bench_args *a, long inner) {
  bench_fn volatile fn = f;    /* a real call per iteration, even of an empty function */
  double t0 = bench_now_ns();
  for (long k = 0; k < inner; k++) fn(a);
  return (bench_now_ns() - t0) / (double)inner;
}

/* ---- data ---- */

static uint64_t rng_state = 0x9e3779b97f4a7c15u;
static uint64_t rng(void) {                            /* splitmix64 */
  uint64_t z = (rng_state += 0x9e3779b97f4a7c15u);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
  return z ^ (z >> 31);
}
static double rng_unit(void) { return (double)(rng() >> 11) * 0x1p-53; }

/* Bools true with probability p; floats in [-1, 1) (half negative, for leaky
   relu; never subnormal after * 0.01); other dtypes random bits. */
static void fill_random(wc_dtype t, void *data, int64_t n, double p) {
  for (int64_t i = 0; i < n; i++) {
    if (t == WC_BOOL) ((bool *)data)[i] = rng_unit() < p;
    else if (t == WC_FLOAT) ((float *)data)[i] = (float)(2.0 * rng_unit() - 1.0);
    else {
      uint64_t v = rng();
      memcpy((char *)data + (size_t)i * wc_dtype_size(t), &v, wc_dtype_size(t));
    }
  }
}

/* Buffers as numpy allocates its arrays: cache-line aligned, and from 4 MiB up
   on transparent huge pages (numpy's column is timed on them; on this VM a 16M
   float where runs 1.16-1.24x slower on 4 KiB pages, bench_tried). Never NULL-sized. */
static void *alloc64(size_t bytes) {
  if (bytes < ((size_t)4 << 20)) return aligned_alloc(64, (bytes + 63) / 64 * 64 + 64);
  return bench_buffer(bytes, true);
}

static int64_t elements(const wc_tensor *t) {
  int64_t n = 1;
  for (int d = 0; d < t->rank; d++) n *= t->shape[d];
  return n;
}

/* "R,C" -> rank and shape; in quick mode extents above 64 shrink to 67
   (a multiple of 8 plus 3: every unroll path runs). */
static void parse_shape(const char *s, bool quick, wc_tensor *t) {
  t->rank = 0;
  while (*s) {
    char *end;
    int64_t e = strtoll(s, &end, 10);
    t->shape[t->rank++] = quick && e > 64 ? 67 : e;
    s = *end == ',' ? end + 1 : end;
  }
}

/* Operands of case c, and the extents of its kernel bound from their shapes. */
static bool setup(const bench_case *c, bool quick, run_ctx *r, bench_args *a) {
  const wc_kernel *k = wc_find_kernel(&bk_table, c->kernel);
  const wc_tensor *ptr[BENCH_MAX_INPUTS];
  memset(r, 0, sizeof *r);
  memset(a, 0, sizeof *a);
  if (k == NULL || k->n_extents > BENCH_MAX_EXTENTS || k->n_inputs > BENCH_MAX_INPUTS) return false;
  r->c = c;
  r->n_in = k->n_inputs;
  a->k = k;
  a->ctx = r;
  for (int i = 0; i < r->n_in; i++) {
    wc_tensor *t = &r->in[i];
    t->dtype = k->inputs[i].dtype;
    parse_shape(c->shape[i], quick, t);
    if (t->rank != k->inputs[i].rank) return false;
    for (int d = 0; d < t->rank; d++)
      if (k->inputs[i].dims[d] < 0) a->ext[-k->inputs[i].dims[d] - 1] = (size_t)t->shape[d];
    t->data = alloc64((size_t)elements(t) * wc_dtype_size(t->dtype));
    if (t->data == NULL) return false;
    fill_random(t->dtype, t->data, elements(t), c->p);
    a->in[i] = t->data;
    ptr[i] = t;
  }
  r->out.dtype = k->out_dtype;
  if (is_coords(c->kind)) {
    r->capacity = elements(&r->in[0]) * r->in[0].rank;
    r->out.rank = 1;
    r->out.shape[0] = r->capacity;
    r->out_bytes = (size_t)r->capacity * 8;
  } else {
    if (wc_broadcast_shape(ptr, r->n_in, &r->out.rank, r->out.shape) != WC_OK) return false;
    a->count = (size_t)elements(&r->out);
    r->out_bytes = a->count * wc_dtype_size(k->out_dtype);
  }
  r->out.data = a->out = alloc64(r->out_bytes);
  r->src = alloc64(r->out_bytes);
  if (a->out == NULL || r->src == NULL) return false;
  memset(r->src, 0x3c, r->out_bytes);
  memset(a->out, 0, r->out_bytes);                    /* first touch outside the timing */
  return true;
}

static void teardown(run_ctx *r) {
  for (int i = 0; i < r->n_in; i++) free(r->in[i].data);
  free(r->out.data);
  free(r->src);
}

/* Bytes a call must move: each input read once, the output written once.
   When the condition is a scalar or constant along rows, a full-size x is
   read only in the rows it is picked for (y likewise): x counts in
   proportion to the true conditions, y to the false ones. */
static double bytes_moved(const run_ctx *r, int64_t n) {
  const wc_tensor *c = &r->in[0];
  double b = 0, t = 0;
  if (is_coords(r->c->kind)) return (double)elements(c) + (double)n * c->rank * 8.0;
  bool rows = r->c->kind == CASE_WHERE && r->out.rank > 0 && r->out.shape[r->out.rank - 1] > 1 &&
              (c->rank == 0 || c->shape[c->rank - 1] == 1);
  if (rows) {
    for (int64_t i = 0; i < elements(c); i++) t += ((const bool *)c->data)[i];
    t /= (double)elements(c);
  }
  for (int i = 0; i < r->n_in; i++) {
    double in = (double)elements(&r->in[i]) * (double)wc_dtype_size(r->in[i].dtype);
    if (rows && i > 0 && elements(&r->in[i]) == elements(&r->out)) in *= i == 1 ? t : 1.0 - t;
    b += in;
  }
  return b + (double)r->out_bytes;
}

/* ---- one case: every variant, checked, then timed ---- */

static void shape_str(const wc_tensor *t, char *buf, size_t cap) {
  size_t len = 0;
  buf[0] = '\0';
  for (int d = 0; d < t->rank && len < cap; d++)
    len += (size_t)snprintf(buf + len, cap - len, d ? ",%lld" : "%lld", (long long)t->shape[d]);
}

/* Runs variant v once on fresh output and checks it: the tuned loop's output
   becomes the expected one (and, in quick mode, is checked against the
   reference); any other checked variant must match it byte for byte. */
static bool check_variant(const bench_case *c, int v, bench_fn fn, run_ctx *r, bench_args *a,
                          bool quick, void **expect, size_t *expect_bytes, int64_t *expect_n) {
  const bool coords = is_coords(c->kind);
  memset(a->out, 0xa5, *expect_bytes ? *expect_bytes : r->out_bytes);   /* stale output cannot pass */
  r->status = WC_OK;
  a->n = 0;
  fn(a);
  if (r->status != WC_OK) {
    fprintf(stderr, "wherec_bench: %s: %s: %s\n", c->name, variants[v].name, wc_status_str(r->status));
    return false;
  }
  if (v != V_TUNED) {
    if (!variants[v].checked || (a->n == *expect_n && memcmp(a->out, *expect, *expect_bytes) == 0))
      return true;
    fprintf(stderr, "wherec_bench: %s: %s disagrees with the tuned loop\n", c->name, variants[v].name);
    return false;
  }
  *expect_n = a->n;
  *expect_bytes = coords ? (size_t)a->n * (size_t)r->in[0].rank * 8 : r->out_bytes;
  if (coords) r->out_bytes = *expect_bytes;           /* what memcpy copies */
  if ((*expect = malloc(*expect_bytes + 1)) == NULL) return false;
  memcpy(*expect, a->out, *expect_bytes);
  if (!quick) return true;
  wc_tensor ref = r->out;
  bool ok = (ref.data = malloc(r->capacity ? (size_t)r->capacity * 8 : r->out_bytes + 1)) != NULL;
  if (coords) { ref.rank = 1; ref.shape[0] = r->capacity; }
  ok = ok && wc_ref_run(a->k, r->in, r->n_in, &ref) == WC_OK &&
       memcmp(ref.data, *expect, *expect_bytes) == 0;
  if (!ok) fprintf(stderr, "wherec_bench: %s: the tuned loop disagrees with the reference\n", c->name);
  free(ref.data);
  return ok;
}

/* The case's records: its description (numpy_bench.py rebuilds the operands
   from it: name, kind, dtype, p, shapes, elements, bytes moved, output
   bytes) and the median time of each variant. */
static void write_records(FILE *rec, const bench_case *c, const run_ctx *r, const bench_args *a,
                          int64_t n, const double *ns) {
  char sh[BENCH_MAX_INPUTS][128];
  const bool coords = is_coords(c->kind);
  for (int i = 0; i < BENCH_MAX_INPUTS; i++) {
    sh[i][0] = '\0';
    if (i < r->n_in) shape_str(&r->in[i], sh[i], sizeof sh[i]);
  }
  fprintf(rec, "case\t%s\t%s\t%s\t%g\t%s;%s;%s\t%lld\t%.0f\t%zu\n", c->name, kind_names[c->kind],
          wc_dtype_name(r->in[r->n_in - 1].dtype), c->p, sh[0], sh[1], sh[2],
          (long long)(coords ? elements(&r->in[0]) : (int64_t)a->count), bytes_moved(r, n),
          r->out_bytes);
  for (int v = 0; v < N_VARIANTS + 1; v++)
    if (ns[v] >= 0) fprintf(rec, "time\t%s\t%s\t%.3f\n", c->name, v < N_VARIANTS ? variants[v].name : "floor", ns[v]);
  fflush(rec);
}

/* One case: every variant checked, then timed. Samples go round the
   variants (sample s of each before sample s + 1 of any), so background
   load on a shared machine falls on all of them alike. */
static bool run_case(const bench_case *c, bool quick, int reps, FILE *rec) {
  run_ctx r;
  bench_args a;
  bench_fn fn[N_VARIANTS + 1];                        /* + the empty call: the timing floor */
  long inner[N_VARIANTS + 1];
  double ns[N_VARIANTS + 1], t[N_VARIANTS + 1][MAX_REPS];
  void *expect = NULL;
  size_t expect_bytes = 0;
  int64_t expect_n = 0;
  bool ok = setup(c, quick, &r, &a), go = ok;       /* go: an expected output exists */
  if (!ok) fprintf(stderr, "wherec_bench: %s: cannot set up (kernel %s)\n", c->name, c->kernel);
  for (int v = 0; v < N_VARIANTS && go; v++) {
    const variant *var = &variants[v];
    fn[v] = var->fn ? var->fn : v == V_GEN ? c->gen : c->tuned;
    if (!(var->kinds & (1u << c->kind)) || (v == V_THREADS && !quick && a.count < THREADS_MIN_COUNT))
      fn[v] = NULL;
    else if (!check_variant(c, v, fn[v], &r, &a, quick, &expect, &expect_bytes, &expect_n))
      ok = false, go = v != V_TUNED;
  }
  fn[N_VARIANTS] = c->per_call ? v_null : NULL;
  if (ok && !quick) {
    for (int v = 0; v <= N_VARIANTS; v++)
      if (fn[v]) inner[v] = calibrate(fn[v], &a);
    for (int s = 0; s < reps; s++)
      for (int v = 0; v <= N_VARIANTS; v++)
        if (fn[v]) t[v][s] = sample(fn[v], &a, inner[v]);
    for (int v = 0; v <= N_VARIANTS; v++) ns[v] = fn[v] ? bench_median(t[v], reps) : -1;
    write_records(rec, c, &r, &a, expect_n, ns);
    fprintf(stderr, "  %-22s gen %12.3f us   tuned %12.3f us\n", c->name, ns[V_GEN] / 1e3,
            ns[V_TUNED] / 1e3);
  }
  free(expect);
  teardown(&r);
  return ok;
}

static int usage(void) {
  fprintf(stderr,
          "usage: wherec_bench [--quick] [--reps N] [--only TEXT] [--gen-dir DIR] [-o FILE]\n"
          "  --quick        small sizes, no timing: check every variant against the\n"
          "                 tuned loop and the tuned loop against the reference\n"
          "  --reps N       timed samples per variant (median; default 11)\n"
          "  --only TEXT    cases whose name contains TEXT\n"
          "  --gen-dir DIR  also time the generator on a 1000-kernel spec written there\n"
          "  -o FILE        records to FILE (default: standard output)\n");
  return 2;
}

int main(int argc, char **argv) {
  bool quick = false;
  int reps = 11;
  const char *only = NULL, *gen_dir = NULL, *out_path = NULL;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--quick") == 0) quick = true;
    else if (strcmp(argv[i], "--reps") == 0 && i + 1 < argc) reps = atoi(argv[++i]);
    else if (strcmp(argv[i], "--only") == 0 && i + 1 < argc) only = argv[++i];
    else if (strcmp(argv[i], "--gen-dir") == 0 && i + 1 < argc) gen_dir = argv[++i];
    else if (strcmp(argv[i], "-o") == 0 && i + 1 < argc) out_path = argv[++i];
    else return usage();
  }
  if (reps < 1 || reps > MAX_REPS) return usage();
  FILE *rec = out_path ? fopen(out_path, "w") : stdout;
  if (rec == NULL) { perror(out_path); return 1; }
  /* wc_where also takes the bench table's plain-where kernels (after the built-in ones) */
  if (wc_register(&bk_table) != WC_OK) return 1;
  bool ok = true;
  for (int i = 0; i < N_CASES; i++)
    if (only == NULL || strstr(cases[i].name, only)) ok = run_case(&cases[i], quick, reps, rec) && ok;
  if (gen_dir && !quick) {
    genscale_result g;
    if (genscale_run(gen_dir, 1000, 5, &g) == 0)
      fprintf(rec, "genscale\t%d\t%.6f\t%zu\t%zu\n", g.kernels, g.seconds, g.bytes_c, g.bytes_h);
    else {
      fprintf(stderr, "wherec_bench: generator scale run failed in %s\n", gen_dir);
      ok = false;
    }
  }
  if (quick) printf("wherec_bench --quick: %s\n", ok ? "every variant agrees" : "MISMATCH");
  if (rec != stdout) fclose(rec);
  return ok ? 0 : 1;
}
