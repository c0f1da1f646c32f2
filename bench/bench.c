/* bench.c: times every benchmark case through the generated kernel, the runtime,
   the interpreter, a hand-tuned loop and memcpy; writes machine-readable records. */
#define _POSIX_C_SOURCE 200809L
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <pthread.h>

#include "bench.h"
#include "bk.h"

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
  bool        per_call;        /* a tiny case: also time an empty call (the timing floor) */
} bench_case;

#define N64K "65536"
#define N1M "1048576"
#define N16M "16777216"
#define SAME(name, t, n, p) {name, "same_" #t, CASE_WHERE, p, {n, n, n}, false}

static const bench_case cases[] = {
  SAME("f32 64K p.5", float, N64K, 0.5),     SAME("f32 64K p.01", float, N64K, 0.01),
  SAME("f32 16M p.5", float, N16M, 0.5),     SAME("f32 16M p.01", float, N16M, 0.01),
  SAME("f32 1M p.5 (in L3)", float, N1M, 0.5),  /* where threads are not memory-bound */
  SAME("f16 64K p.5", float16, N64K, 0.5),   SAME("f16 64K p.01", float16, N64K, 0.01),
  SAME("f16 16M p.5", float16, N16M, 0.5),   SAME("f16 16M p.01", float16, N16M, 0.01),
  SAME("i64 64K p.5", int64, N64K, 0.5),     SAME("i64 64K p.01", int64, N64K, 0.01),
  SAME("i64 16M p.5", int64, N16M, 0.5),     SAME("i64 16M p.01", int64, N16M, 0.01),
  SAME("u8 64K p.5", uint8, N64K, 0.5),      SAME("u8 64K p.01", uint8, N64K, 0.01),
  SAME("u8 16M p.5", uint8, N16M, 0.5),      SAME("u8 16M p.01", uint8, N16M, 0.01),
  {"row bcast 16Kx1K", "row_bcast", CASE_WHERE, 0.5, {"16384,1", "16384,1024", "1,1024"}, false},
  {"scalar x 16M", "scalar_x", CASE_WHERE, 0.5, {N16M, "", N16M}, false},
  {"scalar y 16M", "scalar_y", CASE_WHERE, 0.5, {N16M, N16M, ""}, false},
  {"scalar c 16M", "scalar_c", CASE_WHERE, 0.5, {"", N16M, N16M}, false},
  {"6-d bcast 16M", "bcast6", CASE_WHERE, 0.5,
   {"8,1,8,1,8,512", "8,8,1,8,1,512", "1,8,8,8,8,512"}, false},
  {"leaky relu 16M", "leaky", CASE_LEAKY, 0.0, {N16M}, false},
  {"argwhere 4Kx4K p.5", "argw", CASE_ARGWHERE, 0.5, {"4096,4096"}, false},
  {"argwhere 4Kx4K p.01", "argw", CASE_ARGWHERE, 0.01, {"4096,4096"}, false},
  {"nonzero 4Kx4K p.5", "nz", CASE_NONZERO, 0.5, {"4096,4096"}, false},
  {"nonzero 4Kx4K p.01", "nz", CASE_NONZERO, 0.01, {"4096,4096"}, false},
  {"2x2 per call", "tiny", CASE_WHERE, 0.5, {"2,2", "2,2", "2,2"}, true},
};
#define N_CASES (int)(sizeof cases / sizeof cases[0])

/* ---- the state of one case: operands as tensors, buffers for the checks ---- */

typedef struct run_ctx {
  const bench_case *c;
  wc_tensor in[BENCH_MAX_INPUTS], out;
  int       n_in;
  int64_t   capacity;          /* out's slots (coordinate kinds: rank * elements) */
  void     *src;               /* memcpy's source, as large as the output */
  size_t    out_bytes;         /* output bytes (coordinates: the larger of n * rank * 8 and the bools) */
  size_t    from_input;        /* of them memcpy reads from in[0] (coordinates: the bools) */
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

/* The bound: the bytes a call moves at memcpy's rate. A coordinates case
   copies from its own input, so that the bound is timed on the pages the
   kernel reads (this VM moves a case by up to 2x from one buffer placement to
   the next, on huge pages most). */
static void v_memcpy(bench_args *a) {
  const run_ctx *r = CTX(a);
  memcpy(a->out, r->in[0].data, r->from_input);
  memcpy((char *)a->out + r->from_input, (const char *)r->src + r->from_input,
         r->out_bytes - r->from_input);
}

/* memcpy of the output's size on two threads, each copying one half: what the
   machine's memory gives two threads, the limit of the gen_2thr column. */
static void *copy_half(void *arg) {
  bench_args *a = arg;
  size_t half = CTX(a)->out_bytes / 2;
  memcpy((char *)a->out + half, (const char *)CTX(a)->src + half, CTX(a)->out_bytes - half);
  return NULL;
}
static void v_memcpy_2thr(bench_args *a) {
  pthread_t t;
  if (pthread_create(&t, NULL, copy_half, a) != 0) {
    CTX(a)->status = WC_E_ARG;
    return;
  }
  memcpy(a->out, CTX(a)->src, CTX(a)->out_bytes / 2);
  pthread_join(t, NULL);
}
static void v_null(bench_args *a) { (void)a; }

/* The count of coordinates alone: one pass over the input, the least a kernel
   that must know n before it writes (nonzero's [rank, n]) reads twice. */
static void v_count(bench_args *a) {
  run_ctx *r = CTX(a);
  int64_t  n = 0;
  r->status = wc_count_true(&r->in[0], &n);
  a->n = n;
}

/* ---- the columns: each build's tuned loop and generated kernel (the first
   build's tuned loop first: its output is the expected one), then the runtime's ---- */

typedef enum column_kind {
  COL_TUNED, COL_GEN, COL_WC_RUN, COL_RUNTIME, COL_INTERP, COL_THREADS, COL_MEMCPY, COL_MEMCPY_2THR,
  COL_FLOOR, COL_COUNT
} column_kind;
static const char *const column_names[] = {"tuned",    "gen",    "wc_run",      "runtime", "interp",
                                           "gen_2thr", "memcpy", "memcpy_2thr", "floor",   "count"};

typedef struct column {
  column_kind        kind;
  const bench_build *build;    /* tuned and gen: the build timed; else NULL (libwherec, bk_table) */
  bench_fn           fn;
} column;
#define MAX_COLUMNS (2 * BENCH_MAX_BUILDS + 8)

static bench_build builds[BENCH_MAX_BUILDS];
static int         n_builds;

/* Pages the buffers sit on: plain malloc (4 KiB pages, what most callers
   have), or transparent huge pages from 4 MiB up, as numpy places its arrays. */
typedef enum pages { PAGES_HUGE, PAGES_4K, N_PAGES } pages;
static const char *const pages_names[] = {"huge", "4k"};

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

/* Every 4096th float starts a run of these (as cases.py puts them), so that a peer
   dropping a zero's sign or flushing subnormals shows: -0.0, subnormals, and a
   normal whose product with 0.01 is subnormal. */
static const float specials[] = {-0.0f, 0x1p-149f, -0x1p-140f, 0x1.8p-127f, -0x1.8p-126f};

/* Bools true with probability p; floats in [-1, 1) (half negative, for leaky
   relu) but for the specials; other dtypes random bits. */
static void fill_random(wc_dtype t, void *data, int64_t n, double p) {
  for (int64_t i = 0; i < n; i++) {
    if (t == WC_BOOL) ((bool *)data)[i] = rng_unit() < p;
    else if (t == WC_FLOAT && i % 4096 < 5) ((float *)data)[i] = specials[i % 4096];
    else if (t == WC_FLOAT) ((float *)data)[i] = (float)(2.0 * rng_unit() - 1.0);
    else {
      uint64_t v = rng();
      memcpy((char *)data + (size_t)i * wc_dtype_size(t), &v, wc_dtype_size(t));
    }
  }
}

/* A buffer on the pages asked for: plain malloc, or as numpy allocates its
   arrays, cache-line aligned and from 4 MiB up on transparent huge pages
   (numpy's column is timed on them). Never NULL-sized. */
static void *alloc_on(size_t bytes, pages pg) {
  if (pg == PAGES_4K) return malloc(bytes + 64);
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
static bool setup(const bench_case *c, bool quick, pages pg, run_ctx *r, bench_args *a) {
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
    t->data = alloc_on((size_t)elements(t) * wc_dtype_size(t->dtype), pg);
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
  r->out.data = a->out = alloc_on(r->out_bytes, pg);
  r->src = alloc_on(r->out_bytes, pg);
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

/* Runs column col once on fresh output and checks it: the first column's
   output (the first build's tuned loop) becomes the expected one (and, in
   quick mode, is checked against the reference); every other column but
   memcpy and the empty call must match it byte for byte. */
static bool check_column(const bench_case *c, const column *col, bool first, run_ctx *r,
                         bench_args *a, bool quick, void **expect, size_t *expect_bytes,
                         int64_t *expect_n) {
  const bool coords = is_coords(c->kind);
  memset(a->out, 0xa5, *expect_bytes ? *expect_bytes : r->out_bytes);   /* stale output cannot pass */
  r->status = WC_OK;
  a->n = 0;
  col->fn(a);
  if (r->status != WC_OK) {
    fprintf(stderr, "wherec_bench: %s: %s: %s\n", c->name, column_names[col->kind], wc_status_str(r->status));
    return false;
  }
  if (!first) {
    if (col->kind == COL_COUNT && a->n == *expect_n) return true;
    if (col->kind == COL_MEMCPY || col->kind == COL_MEMCPY_2THR || col->kind == COL_FLOOR ||
        (a->n == *expect_n && memcmp(a->out, *expect, *expect_bytes) == 0))
      return true;
    fprintf(stderr, "wherec_bench: %s: %s %s disagrees with the tuned loop\n", c->name,
            column_names[col->kind], col->build ? col->build->name : "");
    return false;
  }
  *expect_n = a->n;
  *expect_bytes = coords ? (size_t)a->n * (size_t)r->in[0].rank * 8 : r->out_bytes;
  /* what memcpy copies: the output, or for coordinates the larger of the
     output and the bools read (p = .01 reads 16 MB to write 2.7 MB: the copy
     rate of 2.7 MB, from cache, would not be the rate of the bytes moved) */
  if (coords) {
    const size_t bools = (size_t)elements(&r->in[0]) * wc_dtype_size(r->in[0].dtype);
    r->out_bytes = *expect_bytes > bools ? *expect_bytes : bools;
    r->from_input = bools;
  }
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

/* The case's description (numpy_bench.py rebuilds the operands from it:
   name, kind, dtype, p, shapes, elements, bytes moved, output bytes). */
static void write_case(FILE *rec, const bench_case *c, const run_ctx *r, const bench_args *a,
                       int64_t n) {
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
}

/* The median time of each column: time, case, pages, column, build ("-": not a build). */
static void write_times(FILE *rec, const bench_case *c, pages pg, const column *col, int n_col,
                        const double *ns) {
  for (int i = 0; i < n_col; i++)
    fprintf(rec, "time\t%s\t%s\t%s\t%s\t%.3f\n", c->name, pages_names[pg], column_names[col[i].kind],
            col[i].build ? col[i].build->name : "-", ns[i]);
  fflush(rec);
}

/* The columns that apply to case c: the builds' calls of its kernel, then
   the runtime's entry points. */
static int columns_of(const bench_case *c, const bench_args *a, bool quick, column *col) {
  int n = 0;
  for (int pass = 0; pass < 2; pass++)
    for (int b = 0; b < n_builds; b++) {
      const bench_set_entry *e = builds_find(&builds[b], c->kernel);
      if (e == NULL) return -1;
      col[n++] = (column){pass ? COL_GEN : COL_TUNED, &builds[b], pass ? e->gen : e->tuned};
    }
  col[n++] = (column){COL_WC_RUN, NULL, v_wc_run};
  if (c->kind != CASE_LEAKY) col[n++] = (column){COL_RUNTIME, NULL, v_runtime};
  col[n++] = (column){COL_INTERP, NULL, v_interp};
  if (!is_coords(c->kind) && (quick || a->count >= THREADS_MIN_COUNT))
    col[n++] = (column){COL_THREADS, NULL, v_threads};
  col[n++] = (column){COL_MEMCPY, NULL, v_memcpy};
  if (is_coords(c->kind)) col[n++] = (column){COL_COUNT, NULL, v_count};
  /* a thread start per call (about 33 us) is noise only on outputs past the cache */
  if (!is_coords(c->kind) && (quick || a->count >= 16 * THREADS_MIN_COUNT))
    col[n++] = (column){COL_MEMCPY_2THR, NULL, v_memcpy_2thr};
  if (c->per_call) col[n++] = (column){COL_FLOOR, NULL, v_null};
  return n;
}

/* The best (lowest) time of a kind of column. */
static double best_of(const column *col, int n_col, const double *ns, column_kind kind, bool worst) {
  double t = -1;
  for (int i = 0; i < n_col; i++)
    if (col[i].kind == kind && (t < 0 || (worst ? ns[i] > t : ns[i] < t))) t = ns[i];
  return t;
}

/* One case on one kind of pages: every column checked, then timed. Samples
   go round the columns (sample s of each before sample s + 1 of any), so
   background load on a shared machine falls on all of them alike. */
static bool run_case(const bench_case *c, bool quick, pages pg, int reps, FILE *rec) {
  run_ctx r;
  bench_args a;
  column col[MAX_COLUMNS];
  long inner[MAX_COLUMNS];
  double ns[MAX_COLUMNS], t[MAX_COLUMNS][MAX_REPS];
  void *expect = NULL;
  size_t expect_bytes = 0;
  int64_t expect_n = 0;
  int n_col = 0;
  bool ok = setup(c, quick, pg, &r, &a) && (n_col = columns_of(c, &a, quick, col)) > 0;
  if (!ok) fprintf(stderr, "wherec_bench: %s: cannot set up (kernel %s)\n", c->name, c->kernel);
  for (int i = 0; i < n_col && ok; i++)
    ok = check_column(c, &col[i], i == 0, &r, &a, quick, &expect, &expect_bytes, &expect_n);
  if (ok && !quick) {
    for (int i = 0; i < n_col; i++) inner[i] = calibrate(col[i].fn, &a);
    for (int s = 0; s < reps; s++)
      for (int i = 0; i < n_col; i++) t[i][s] = sample(col[i].fn, &a, inner[i]);
    for (int i = 0; i < n_col; i++) ns[i] = bench_median(t[i], reps);
    if (pg == 0) write_case(rec, c, &r, &a, expect_n);
    write_times(rec, c, pg, col, n_col, ns);
    fprintf(stderr, "  %-22s %-4s gen %12.3f us (worst build)   tuned %12.3f us (best)\n", c->name,
            pages_names[pg], best_of(col, n_col, ns, COL_GEN, true) / 1e3,
            best_of(col, n_col, ns, COL_TUNED, false) / 1e3);
  }
  free(expect);
  teardown(&r);
  return ok;
}

static int usage(void) {
  fprintf(stderr,
          "usage: wherec_bench [--quick] [--reps N] [--only TEXT] [--pages huge|4k] [--gen-dir DIR]\n"
          "                    [--sets DIR] [-o FILE]\n"
          "  --quick        small sizes, no timing: check every column against the\n"
          "                 tuned loop and the tuned loop against the reference\n"
          "  --reps N       timed samples per column (median; default 11)\n"
          "  --only TEXT    cases whose name contains TEXT\n"
          "  --pages P      only buffers on huge pages, or only plain malloc (4 KiB pages)\n"
          "  --gen-dir DIR  also time the generator on a 1000-kernel spec written there\n"
          "  --sets DIR     where the builds (set-*.so) are (default: the build tree's)\n"
          "  -o FILE        records to FILE (default: standard output)\n");
  return 2;
}

int main(int argc, char **argv) {
  bool quick = false;
  int reps = 11, pages_from = 0, pages_to = N_PAGES;
  const char *only = NULL, *gen_dir = NULL, *out_path = NULL, *sets = BENCH_SET_DIR;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--quick") == 0) quick = true;
    else if (strcmp(argv[i], "--reps") == 0 && i + 1 < argc) reps = atoi(argv[++i]);
    else if (strcmp(argv[i], "--only") == 0 && i + 1 < argc) only = argv[++i];
    else if (strcmp(argv[i], "--gen-dir") == 0 && i + 1 < argc) gen_dir = argv[++i];
    else if (strcmp(argv[i], "--sets") == 0 && i + 1 < argc) sets = argv[++i];
    else if (strcmp(argv[i], "--pages") == 0 && i + 1 < argc) {
      const char *pg = argv[++i];
      if (strcmp(pg, "huge") == 0) pages_from = PAGES_HUGE;
      else if (strcmp(pg, "4k") == 0) pages_from = PAGES_4K;
      else return usage();
      pages_to = pages_from + 1;
    } else if (strcmp(argv[i], "-o") == 0 && i + 1 < argc) out_path = argv[++i];
    else return usage();
  }
  if (reps < 1 || reps > MAX_REPS) return usage();
  if ((n_builds = builds_load(builds, BENCH_MAX_BUILDS, sets)) <= 0) {
    if (n_builds == 0) fprintf(stderr, "wherec_bench: no builds (neither gcc nor clang was found)\n");
    return 1;
  }
  FILE *rec = out_path ? fopen(out_path, "w") : stdout;
  if (rec == NULL) { perror(out_path); return 1; }
  for (int b = 0; b < n_builds; b++) fprintf(rec, "build\t%s\t%s\n", builds[b].name, builds[b].flags);
  /* wc_where also takes the bench table's plain-where kernels (after the built-in ones) */
  if (wc_register(&bk_table) != WC_OK) return 1;
  bool ok = true;
  for (int i = 0; i < N_CASES; i++)
    if (only == NULL || strstr(cases[i].name, only))
      for (int pg = pages_from; pg < pages_to; pg++)
        ok = run_case(&cases[i], quick, (pages)pg, reps, rec) && ok;
  if (gen_dir && !quick) {
    genscale_result g;
    if (genscale_run(gen_dir, 1000, 5, &g) == 0)
      fprintf(rec, "genscale\t%d\t%.6f\t%zu\t%zu\n", g.kernels, g.seconds, g.bytes_c, g.bytes_h);
    else {
      fprintf(stderr, "wherec_bench: generator scale run failed in %s\n", gen_dir);
      ok = false;
    }
  }
  if (quick) printf("wherec_bench --quick: %s\n", ok ? "every column agrees" : "MISMATCH");
  if (rec != stdout) fclose(rec);
  return ok ? 0 : 1;
}
