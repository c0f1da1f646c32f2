/* test_parallel.c: the parallel split (wc_set_parallel): wc_run, wc_plan_run, wc_interpret,
   wc_where and wc_where_v1 give the serial bytes under hooks of every task order and on threads. */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <wherec/wherec.h>

#include "golden.h"
#include "run/pool.h"
#include "testlib.h"

/* The hook on real threads: the pool of `wherec run --threads`, or an
   adapter of examples/parallel/ when built for one. */
#if defined(ADAPTER_OPENMP)
#include "parallel/openmp_hook.h"
static int   omp_none; /* OpenMP's threads need no context */
static void *threads_open(void) { return &omp_none; }
static void  threads_close(void *ctx) { (void)ctx; }
#define threads_fn parallel_openmp
#elif defined(ADAPTER_PTHREADPOOL)
#include <pthreadpool.h>

#include "parallel/pthreadpool_hook.h"
static void *threads_open(void) { return pthreadpool_create(3); }
static void  threads_close(void *ctx) { pthreadpool_destroy(ctx); }
#define threads_fn parallel_pthreadpool
#else
static void *threads_open(void) { return pool_create(3); }
static void  threads_close(void *ctx) { pool_destroy(ctx); }
#define threads_fn pool_parallel
#endif

/* ---- hooks ---- */

typedef struct hook_log {
  atomic_int calls;     /* hook calls */
  atomic_int max_tasks; /* most tasks of one call */
} hook_log;

static hook_log hlog;

static void note_call(size_t n) {
  atomic_fetch_add(&hlog.calls, 1);
  if ((int)n > atomic_load(&hlog.max_tasks)) atomic_store(&hlog.max_tasks, (int)n);
}

/* Last task first, on the calling thread. */
static void hook_reversed(void *ctx, wc_task_fn task, void *task_ctx, size_t n) {
  (void)ctx;
  note_call(n);
  for (size_t i = n; i-- > 0;) task(task_ctx, i);
}

/* A random order (Fisher-Yates over the indices). */
static void hook_shuffled(void *ctx, wc_task_fn task, void *task_ctx, size_t n) {
  tl_rng *r = ctx;
  size_t *order = malloc(n * sizeof *order);
  assert_non_null(order);
  note_call(n);
  for (size_t i = 0; i < n; i++) order[i] = i;
  for (size_t i = n; i > 1; i--) {
    size_t j = (size_t)tl_below(r, (int64_t)i), t = order[i - 1];
    order[i - 1] = order[j];
    order[j] = t;
  }
  for (size_t i = 0; i < n; i++) task(task_ctx, order[i]);
  free(order);
}

static void *threads_ctx;
static void  hook_threads(void *ctx, wc_task_fn task, void *task_ctx, size_t n) {
   note_call(n);
   threads_fn(ctx, task, task_ctx, n);
}

static tl_rng shuffle_rng = {0x2545f4914f6cdd1du};

typedef struct hook_case {
  const char    *name;
  wc_parallel_fn fn;
  void         **ctx;
} hook_case;

static void           *shuffle_ctx = &shuffle_rng;
static const hook_case hooks[] = {
    {"reversed", hook_reversed, NULL},
    {"shuffled", hook_shuffled, &shuffle_ctx},
    {"threads", hook_threads, &threads_ctx},
};
#define N_HOOKS (sizeof hooks / sizeof *hooks)

static void install(const hook_case *h) { wc_set_parallel(h->fn, h->ctx ? *h->ctx : NULL); }

static int setup(void **state) {
  (void)state;
  threads_ctx = threads_open();
  return threads_ctx == NULL ? -1 : 0;
}
/* Before each test: serial, default threshold (a failed test may leave either). */
static int reset(void **state) {
  (void)state;
  wc_set_parallel(NULL, NULL);
  wc_set_parallel_threshold(0);
  return 0;
}
static int teardown(void **state) {
  (void)state;
  wc_set_parallel(NULL, NULL);
  wc_set_parallel_threshold(0);
  threads_close(threads_ctx);
  return 0;
}

/* ---- one call, serial and split ---- */

typedef enum call_kind { RUN, PLAN, INTERP, WHERE, WHERE_V1 } call_kind;
static const char *const kind_name[] = {"wc_run", "wc_plan_run", "wc_interpret", "wc_where",
                                        "wc_where_v1"};

/* Runs the call into out (out->data may be an input's buffer). */
static wc_status call(call_kind kind, const char *kernel, const wc_tensor *in, int n,
                      wc_tensor *out) {
  const wc_kernel *k = kernel ? wc_find_kernel(&golden_table, kernel) : NULL;
  const void      *data[3];
  wc_plan          plan;
  wc_status        s;
  switch (kind) {
  case RUN: return wc_run(&golden_table, kernel, in, n, out, NULL);
  case PLAN:
    if ((s = wc_prepare(&golden_table, kernel, in, n, out, &plan)) != WC_OK) return s;
    for (int i = 0; i < n; i++) data[i] = in[i].data;
    return wc_plan_run(&plan, data, out->data);
  case INTERP: return wc_interpret(k, in, n, out);
  case WHERE: return wc_where(&in[0], &in[1], &in[2], out);
  case WHERE_V1: return wc_where_v1(&in[0], &in[1], &in[2], out);
  }
  return WC_E_ARG;
}

/* The serial bytes, then under every hook (out prefilled with garbage):
   the same status and the same bytes. Also in place over input `inplace`
   (-1: none) when given. */
static void check_split(call_kind kind, const char *kernel, wc_tensor *in, int n,
                        const wc_tensor *desc, int inplace) {
  wc_tensor want = tl_alloc(desc->dtype, desc->rank, desc->shape);
  wc_tensor got = tl_alloc(desc->dtype, desc->rank, desc->shape);
  size_t    bytes = tl_bytes(&want);
  wc_set_parallel(NULL, NULL);
  wc_status s = call(kind, kernel, in, n, &want);
  tl_assert_status(s, WC_OK);
  for (size_t h = 0; h < N_HOOKS; h++) {
    install(&hooks[h]);
    memset(got.data, 0xa5, bytes);
    assert_int_equal(call(kind, kernel, in, n, &got), s);
    wc_set_parallel(NULL, NULL);
    int64_t at = tl_first_difference(desc->dtype, want.data, got.data,
                                     tl_count(desc->rank, desc->shape));
    if (at >= 0)
      fail_msg("%s %s, hook %s: element %lld differs from the serial call", kind_name[kind],
               kernel ? kernel : "", hooks[h].name, (long long)at);
    if (inplace >= 0 && bytes) {
      void *saved = in[inplace].data;
      memcpy(got.data, saved, bytes);
      in[inplace].data = got.data;
      install(&hooks[h]);
      assert_int_equal(call(kind, kernel, in, n, &got), s);
      wc_set_parallel(NULL, NULL);
      in[inplace].data = saved;
      if (memcmp(want.data, got.data, bytes) != 0)
        fail_msg("%s %s in place, hook %s: differs from the serial call", kind_name[kind],
                 kernel ? kernel : "", hooks[h].name);
    }
  }
  tl_free(&want);
  tl_free(&got);
}

/* ---- the golden kernels on shapes of both paths, odd sizes ---- */

typedef struct shape_case {
  const char *kernel;
  int         rank[3];
  int64_t     shape[3][3];
} shape_case;

/* Extents: odd, around lines and blocks; the patterns of every golden kernel
   (fitting: specialized; missing: interpreted by wc_run). */
static const shape_case shape_cases[] = {
    {"row_bcast", {2, 2, 2}, {{37, 1}, {37, 131}, {1, 131}}},
    {"row_bcast", {2, 2, 1}, {{5, 1}, {5, 1031}, {1031}}},
    {"row_bcast", {2, 2, 2}, {{1000, 1}, {1000, 3}, {1, 3}}},
    {"row_bcast", {2, 2, 2}, {{33, 17}, {33, 17}, {1, 17}}},
    {"row_bcast", {2, 2, 2}, {{3, 1}, {3, 2049}, {3, 1}}},
    {"scalar_y", {1, 1, 0}, {{4099}, {4099}, {0}}},
    {"scalar_y", {1, 1, 1}, {{4099}, {4099}, {4099}}},
    {"leaky", {2}, {{67, 64}}},
    {"leaky", {2}, {{67, 63}}},
    {"clamp_f16", {1, 0, 0}, {{10001}, {0}, {0}}},
    {"clamp_f16", {2, 0, 0}, {{77, 131}, {0}, {0}}},
    {"rows_v1", {1, 2, 2}, {{4001}, {4001, 3}, {4001, 3}}},
    {"rows_v1", {1, 2, 2}, {{401}, {401, 33}, {401, 33}}},
    {"sign_int8", {1}, {{30011}}},
    {"sign_int8", {2}, {{3, 10007}}},
    {"sign_bfloat16", {1}, {{9001}}},
    {"sign_bfloat16", {2}, {{9001, 1}}},
    {"fixed_2x2", {2, 2, 2}, {{2, 2}, {2, 2}, {2, 2}}},
};

/* Inputs of sc at random; the output descriptor (no data). */
static const wc_kernel *make_case(tl_rng *r, const shape_case *sc, wc_tensor *in, wc_tensor *out) {
  const wc_kernel *k = wc_find_kernel(&golden_table, sc->kernel);
  const wc_tensor *ptr[3];
  assert_non_null(k);
  for (int i = 0; i < k->n_inputs; i++) {
    in[i] = tl_alloc(k->inputs[i].dtype, sc->rank[i], sc->shape[i]);
    tl_fill(r, &in[i], 0.5);
    ptr[i] = &in[i];
  }
  memset(out, 0, sizeof *out);
  out->dtype = k->out_dtype;
  if (k->kind == WC_KIND_WHERE_V1) {
    out->rank = in[1].rank;
    memcpy(out->shape, in[1].shape, sizeof out->shape);
  } else {
    tl_assert_status(wc_broadcast_shape(ptr, k->n_inputs, &out->rank, out->shape), WC_OK);
  }
  return k;
}

/* Thresholds: tasks of one line, of a few lines, and of a quarter MiB. */
static const size_t thresholds[] = {1, 1000, 0};

static void test_kernels_give_the_serial_bytes_under_every_split(void **state) {
  (void)state;
  tl_rng r = {0x9e3779b97f4a7c15u};
  for (size_t t = 0; t < sizeof thresholds / sizeof *thresholds; t++) {
    wc_set_parallel_threshold(thresholds[t]);
    for (size_t i = 0; i < sizeof shape_cases / sizeof *shape_cases; i++) {
      wc_tensor        in[3], desc;
      const wc_kernel *k = make_case(&r, &shape_cases[i], in, &desc);
      int              n = k->n_inputs, xi = n == 3 ? 1 : 0;
      bool             same = in[xi].dtype == desc.dtype && in[xi].rank == desc.rank &&
                  memcmp(in[xi].shape, desc.shape, (size_t)desc.rank * sizeof desc.shape[0]) == 0;
      for (call_kind kind = RUN; kind <= INTERP; kind++)
        check_split(kind, shape_cases[i].kernel, in, n, &desc, same ? xi : -1);
      for (int j = 0; j < n; j++) tl_free(&in[j]);
    }
  }
  wc_set_parallel_threshold(0);
}

/* ---- wc_where and wc_where_v1: every width, flat, broadcast, rank 3 ---- */

typedef struct where_case {
  int     rank[3];
  int64_t shape[3][4];
} where_case;

static const where_case where_cases[] = {
    {{1, 1, 1}, {{20011}, {20011}, {20011}}},                  /* flat */
    {{2, 2, 2}, {{301, 1}, {301, 67}, {1, 67}}},               /* cond per row, y per column */
    {{1, 0, 1}, {{5003}, {0}, {5003}}},                        /* scalar x */
    {{0, 1, 1}, {{0}, {5003}, {5003}}},                        /* scalar cond */
    {{2, 2, 2}, {{67, 1}, {1, 301}, {67, 301}}},               /* outer product of c and x */
    {{3, 3, 3}, {{7, 1, 9}, {7, 65, 9}, {1, 65, 1}}},          /* rank 3: the generic loop */
    {{4, 4, 4}, {{3, 1, 5, 1}, {3, 7, 5, 11}, {1, 7, 1, 11}}}, /* rank 4 */
};

static const wc_dtype where_dtypes[] = {WC_BOOL,   WC_UINT8,      WC_FLOAT16, WC_FLOAT,
                                        WC_DOUBLE, WC_COMPLEX128, WC_STRING};

static void where_desc(const wc_tensor *in, wc_tensor *out) {
  const wc_tensor *ptr[3] = {&in[0], &in[1], &in[2]};
  memset(out, 0, sizeof *out);
  out->dtype = in[1].dtype;
  tl_assert_status(wc_broadcast_shape(ptr, 3, &out->rank, out->shape), WC_OK);
}

static void test_where_gives_the_serial_bytes_under_every_split(void **state) {
  (void)state;
  tl_rng r = {0x853c49e6748fea9bu};
  for (size_t t = 0; t < sizeof thresholds / sizeof *thresholds; t++) {
    wc_set_parallel_threshold(thresholds[t]);
    for (size_t c = 0; c < sizeof where_cases / sizeof *where_cases; c++)
      for (size_t d = 0; d < sizeof where_dtypes / sizeof *where_dtypes; d++) {
        const where_case *wc = &where_cases[c];
        wc_tensor         in[3], desc;
        for (int i = 0; i < 3; i++) {
          in[i] = tl_alloc(i == 0 ? WC_BOOL : where_dtypes[d], wc->rank[i], wc->shape[i]);
          tl_fill(&r, &in[i], 0.5);
        }
        where_desc(in, &desc);
        bool same = in[1].rank == desc.rank &&
                    memcmp(in[1].shape, desc.shape, (size_t)desc.rank * sizeof desc.shape[0]) == 0;
        check_split(WHERE, NULL, in, 3, &desc, same ? 1 : -1);
        for (int i = 0; i < 3; i++) tl_free(&in[i]);
      }
  }
  wc_set_parallel_threshold(0);
}

static void test_where_v1_gives_the_serial_bytes_under_every_split(void **state) {
  (void)state;
  tl_rng        r = {0xda942042e4dd58b5u};
  const int64_t rows[] = {1001}, xs[] = {1001, 37};
  wc_set_parallel_threshold(1);
  for (int whole = 0; whole < 2; whole++) {
    wc_tensor in[3], desc;
    in[0] = whole ? tl_alloc(WC_BOOL, 2, xs) : tl_alloc(WC_BOOL, 1, rows);
    in[1] = tl_alloc(WC_INT32, 2, xs);
    in[2] = tl_alloc(WC_INT32, 2, xs);
    for (int i = 0; i < 3; i++) tl_fill(&r, &in[i], 0.5);
    desc = tl_tensor(WC_INT32, 2, xs, NULL);
    check_split(WHERE_V1, NULL, in, 3, &desc, 1);
    for (int i = 0; i < 3; i++) tl_free(&in[i]);
  }
  wc_set_parallel_threshold(0);
}

/* ---- when the hook is called ---- */

/* A flat float where of n elements under the reversed hook; the hook calls. */
static int hook_calls_for(int64_t n) {
  int64_t   shape[1] = {n};
  wc_tensor c = tl_alloc(WC_BOOL, 1, shape), x = tl_alloc(WC_FLOAT, 1, shape);
  wc_tensor y = tl_alloc(WC_FLOAT, 1, shape), o = tl_alloc(WC_FLOAT, 1, shape);
  tl_rng    r = {42};
  tl_fill(&r, &c, 0.5);
  tl_fill(&r, &x, 0.5);
  tl_fill(&r, &y, 0.5);
  atomic_store(&hlog.calls, 0);
  atomic_store(&hlog.max_tasks, 0);
  wc_set_parallel(hook_reversed, NULL);
  tl_assert_status(wc_where(&c, &x, &y, &o), WC_OK);
  wc_set_parallel(NULL, NULL);
  tl_free(&c);
  tl_free(&x);
  tl_free(&y);
  tl_free(&o);
  return atomic_load(&hlog.calls);
}

static void test_calls_below_the_threshold_never_call_the_hook(void **state) {
  (void)state;
  const int64_t at = (int64_t)(WC_PARALLEL_MIN_BYTES / sizeof(float));
  assert_int_equal(hook_calls_for(1), 0);
  assert_int_equal(hook_calls_for(at - 1), 0);
  assert_int_equal(hook_calls_for(at), 1);
  /* tasks of a quarter of the threshold: 4 at it, more above */
  assert_int_equal(atomic_load(&hlog.max_tasks), 4);
  assert_int_equal(hook_calls_for(at + 1), 1);
  assert_int_equal(atomic_load(&hlog.max_tasks), 5);
}

/* scalar_y (c: bool[N], x: double[N], y: double[]) through wc_run or a
   prepared call under the reversed hook; the hook calls. */
static int kernel_hook_calls_for(call_kind kind, int64_t n) {
  int64_t   shape[1] = {n};
  wc_tensor in[3] = {tl_alloc(WC_BOOL, 1, shape), tl_alloc(WC_DOUBLE, 1, shape), tl_alloc(WC_DOUBLE, 0, NULL)};
  wc_tensor o = tl_alloc(WC_DOUBLE, 1, shape);
  tl_rng    r = {43};
  for (int i = 0; i < 3; i++) tl_fill(&r, &in[i], 0.5);
  atomic_store(&hlog.calls, 0);
  atomic_store(&hlog.max_tasks, 0);
  wc_set_parallel(hook_reversed, NULL);
  tl_assert_status(call(kind, "scalar_y", in, 3, &o), WC_OK);
  wc_set_parallel(NULL, NULL);
  for (int i = 0; i < 3; i++) tl_free(&in[i]);
  tl_free(&o);
  return atomic_load(&hlog.calls);
}

/* The threshold counts the output's bytes (8 per double) for table and
   prepared calls as for wc_where: split from it on, serial below. */
static void test_table_and_prepared_calls_split_from_the_threshold_on(void **state) {
  (void)state;
  const int64_t at = (int64_t)(WC_PARALLEL_MIN_BYTES / sizeof(double));
  for (call_kind kind = RUN; kind <= PLAN; kind++) {
    print_message("%s\n", kind_name[kind]);
    assert_int_equal(kernel_hook_calls_for(kind, at - 1), 0);
    assert_int_equal(kernel_hook_calls_for(kind, at), 1);
    assert_int_equal(atomic_load(&hlog.max_tasks), 4);
  }
}

static void test_a_null_hook_restores_serial_calls(void **state) {
  (void)state;
  const int64_t at = (int64_t)(WC_PARALLEL_MIN_BYTES / sizeof(float));
  assert_int_equal(hook_calls_for(at), 1); /* installs, then resets to NULL */
  int64_t   shape[1] = {at};
  wc_tensor c = tl_alloc(WC_BOOL, 1, shape), x = tl_alloc(WC_FLOAT, 1, shape);
  wc_tensor o = tl_alloc(WC_FLOAT, 1, shape);
  memset(c.data, 1, (size_t)at);
  memset(x.data, 0, (size_t)at * sizeof(float));
  atomic_store(&hlog.calls, 0);
  tl_assert_status(wc_where(&c, &x, &x, &o), WC_OK);
  assert_int_equal(atomic_load(&hlog.calls), 0);
  wc_set_parallel(hook_reversed, NULL);
  wc_set_parallel(NULL, (void *)&hlog); /* NULL fn with a context: still serial */
  tl_assert_status(wc_where(&c, &x, &x, &o), WC_OK);
  assert_int_equal(atomic_load(&hlog.calls), 0);
  tl_free(&c);
  tl_free(&x);
  tl_free(&o);
}

static void test_a_zero_threshold_restores_the_default(void **state) {
  (void)state;
  const int64_t at = (int64_t)(WC_PARALLEL_MIN_BYTES / sizeof(float));
  wc_set_parallel_threshold(1);
  assert_int_equal(hook_calls_for(2), 0); /* 8 bytes: one line, one task: not split */
  assert_int_equal(hook_calls_for(17), 1);
  wc_set_parallel_threshold(0);
  assert_int_equal(hook_calls_for(at - 1), 0);
}

/* Argwhere and nonzero stay serial. */
static void test_coordinates_never_call_the_hook(void **state) {
  (void)state;
  int64_t   shape[1] = {(int64_t)WC_PARALLEL_MIN_BYTES};
  wc_tensor c = tl_alloc(WC_BOOL, 1, shape);
  int64_t   n, coords[4];
  memset(c.data, 0, WC_PARALLEL_MIN_BYTES);
  ((uint8_t *)c.data)[5] = 1;
  atomic_store(&hlog.calls, 0);
  wc_set_parallel_threshold(1);
  wc_set_parallel(hook_reversed, NULL);
  tl_assert_status(wc_argwhere(&c, coords, 4, &n), WC_OK);
  assert_int_equal(n, 1);
  assert_int_equal(coords[0], 5);
  wc_set_parallel(NULL, NULL);
  wc_set_parallel_threshold(0);
  assert_int_equal(atomic_load(&hlog.calls), 0);
  tl_free(&c);
}

/* ---- threads calling the runtime while the hook changes ---- */

typedef struct racer {
  const wc_tensor *in; /* c, x, y */
  wc_tensor        out;
  const void      *want; /* the serial bytes */
  size_t           bytes;
  bool             ok;
} racer;

static void *race(void *arg) {
  racer *r = arg;
  r->ok = true;
  for (int rep = 0; rep < 40; rep++) {
    memset(r->out.data, 0, r->bytes);
    if (wc_where(&r->in[0], &r->in[1], &r->in[2], &r->out) != WC_OK ||
        memcmp(r->out.data, r->want, r->bytes) != 0)
      r->ok = false;
  }
  return NULL;
}

static void test_calls_from_threads_while_the_hook_changes_give_the_serial_bytes(void **state) {
  (void)state;
  int64_t   shape[1] = {20000};
  wc_tensor in[3] = {tl_alloc(WC_BOOL, 1, shape), tl_alloc(WC_DOUBLE, 1, shape),
                     tl_alloc(WC_DOUBLE, 1, shape)};
  wc_tensor want = tl_alloc(WC_DOUBLE, 1, shape);
  tl_rng    r = {7};
  racer     rc[2];
  pthread_t tid[2];
  for (int i = 0; i < 3; i++) tl_fill(&r, &in[i], 0.5);
  tl_assert_status(wc_where(&in[0], &in[1], &in[2], &want), WC_OK);
  wc_set_parallel_threshold(4096);
  for (int t = 0; t < 2; t++) {
    rc[t] = (racer){in, tl_alloc(WC_DOUBLE, 1, shape), want.data, tl_bytes(&want), false};
    assert_int_equal(pthread_create(&tid[t], NULL, race, &rc[t]), 0);
  }
  for (int flip = 0; flip < 200; flip++) {
    const hook_case *h = &hooks[flip % N_HOOKS];
    if (h->fn == hook_shuffled) wc_set_parallel(NULL, NULL); /* its rng is not thread-safe */
    else install(h);
    wc_set_parallel_threshold(flip % 3 ? 4096 : 100000);
  }
  for (int t = 0; t < 2; t++) {
    pthread_join(tid[t], NULL);
    assert_true(rc[t].ok);
    tl_free(&rc[t].out);
  }
  wc_set_parallel(NULL, NULL);
  wc_set_parallel_threshold(0);
  for (int i = 0; i < 3; i++) tl_free(&in[i]);
  tl_free(&want);
}

#if !defined(ADAPTER_OPENMP) && !defined(ADAPTER_PTHREADPOOL)
/* ---- the pool itself ---- */

#define POOL_TASKS 1000
static atomic_int runs[POOL_TASKS];
static pool      *nest_pool;

static void count_task(void *ctx, size_t i) {
  (void)ctx;
  atomic_fetch_add(&runs[i], 1);
}

/* Task 0 calls the pool again from inside a task: it runs inline. */
static void nesting_task(void *ctx, size_t i) {
  (void)ctx;
  if (i == 0) pool_parallel(nest_pool, count_task, NULL, POOL_TASKS);
}

static void test_pool_runs_every_task_once_and_nested_calls_inline(void **state) {
  (void)state;
  for (int n_threads = 1; n_threads <= 4; n_threads++) {
    nest_pool = pool_create(n_threads);
    assert_non_null(nest_pool);
    for (size_t n = 0; n <= POOL_TASKS; n += n < 3 ? 1 : 333) {
      for (int i = 0; i < POOL_TASKS; i++) atomic_store(&runs[i], 0);
      pool_parallel(nest_pool, count_task, NULL, n);
      for (size_t i = 0; i < POOL_TASKS; i++) assert_int_equal(atomic_load(&runs[i]), i < n);
    }
    for (int i = 0; i < POOL_TASKS; i++) atomic_store(&runs[i], 0);
    pool_parallel(nest_pool, nesting_task, NULL, 8);
    for (size_t i = 0; i < POOL_TASKS; i++) assert_int_equal(atomic_load(&runs[i]), 1);
    pool_destroy(nest_pool);
  }
}
#endif

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup(test_kernels_give_the_serial_bytes_under_every_split, reset),
      cmocka_unit_test_setup(test_where_gives_the_serial_bytes_under_every_split, reset),
      cmocka_unit_test_setup(test_where_v1_gives_the_serial_bytes_under_every_split, reset),
      cmocka_unit_test_setup(test_calls_below_the_threshold_never_call_the_hook, reset),
      cmocka_unit_test_setup(test_table_and_prepared_calls_split_from_the_threshold_on, reset),
      cmocka_unit_test_setup(test_a_null_hook_restores_serial_calls, reset),
      cmocka_unit_test_setup(test_a_zero_threshold_restores_the_default, reset),
      cmocka_unit_test_setup(test_coordinates_never_call_the_hook, reset),
      cmocka_unit_test_setup(test_calls_from_threads_while_the_hook_changes_give_the_serial_bytes,
                             reset),
#if !defined(ADAPTER_OPENMP) && !defined(ADAPTER_PTHREADPOOL)
      cmocka_unit_test(test_pool_runs_every_task_once_and_nested_calls_inline),
#endif
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
