/* rows_bench.c: wherec_bench_rows, the C side of bench/rows.py: the row kernels of
   rows.where and the plain C loops, under every build, at one and two threads.
   usage: wherec_bench_rows --data DIR [--quick] [-o RECORDS] CASE...
   CASE is NAME:KERNEL:E=V,E=V,... (the kernel's symbolic extents, e.g.
   softmax_bcast-128:softmax_bcast:B=1,S=128,H=12). Each input is read from
   DIR/NAME.PARAM.bin (raw, its shape by the kernel's table and the extents).
   For each case every build's kernel must give build 0's bytes, at one thread
   and at two; then DIR/NAME.wherec.bin gets the kernel's output and
   DIR/NAME.plain-BUILD.bin each build's plain loop's, for rows.py to check
   against onnxruntime and float64. Without --quick each column is timed: one
   record per column, NAME threads build way median-ns (tab-separated).
   A kernel that rows_set does not list (rows.where's profile, p_*) has no
   plain loop: its table's invoker is timed, at one thread only. */
#define _POSIX_C_SOURCE 200809L
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "rows.h"
#include "run/pool.h"

#define REPS 15                     /* samples per column; the median is kept */
#define SAMPLE_NS 2e6               /* short calls repeat within a sample to last this long */
#define MAX_BUILDS 8
#define MAX_IN 3
#define SPLIT_BYTES ((size_t)64 << 10) /* the runtime's parallel threshold here: tasks of 16 KiB */

/* One build: its generated table (two threads go through the runtime's plan
   and parallel hook) and its direct calls. */
typedef struct build {
  char                   name[32];
  const wc_kernel_table *table;
  const rows_entry      *set;
} build;

/* One case: its operands, and the calls of one build. */
typedef struct rcase {
  const char      *name;
  const wc_kernel *k;
  size_t           ext[WC_PLAN_MAX_EXTENTS];
  wc_tensor        in[MAX_IN], out;
  const void      *in_data[MAX_IN];
  size_t           count, row;      /* output elements, elements per row */
  rows_fn          fn;              /* the build's call being timed; NULL: kern's invoker */
  const wc_kernel *kern;            /* the build's kernel (its table's entry) */
  const wc_plan   *plan;            /* two threads, generated: the build's plan */
} rcase;

static pool *pool2;

/* ---- the ways of running a case ---- */

static void run_one(const rcase *c) {
  void *outs[1] = {c->out.data};
  if (c->fn)
    c->fn(c->ext, c->in_data, c->out.data, 0, c->count);
  else if (c->kern->range)
    c->kern->range(c->ext, c->in_data, c->out.data, 0, c->count);
  else
    c->kern->range_outs(c->ext, c->in_data, outs, 0, c->count);
}

/* two threads, plain loop: tasks of whole rows, about SPLIT_BYTES / 4 of
   output each, as the runtime splits the generated kernel's */
static size_t rows_per_task(const rcase *c) {
  size_t r = SPLIT_BYTES / 4 / (c->row * sizeof(float));
  return r ? r : 1;
}
static void plain_task(void *ctx, size_t t) {
  const rcase *c = ctx;
  size_t       step = rows_per_task(c) * c->row, b = t * step, e = b + step;
  c->fn(c->ext, c->in_data, c->out.data, b, e < c->count ? e : c->count);
}
static void run_plain2(const rcase *c) {
  size_t step = rows_per_task(c) * c->row;
  pool_parallel(pool2, plain_task, (void *)c, (c->count + step - 1) / step);
}
/* two threads, generated: wc_plan_run_multi with the pool installed */
static void run_gen2(const rcase *c) {
  void *outs[1] = {c->out.data};
  wc_plan_run_multi(c->plan, c->in_data, outs);
}

typedef void (*way_fn)(const rcase *c);

/* ---- loading ---- */

static int load_builds(build *b, const char *dir) {
  const char *list = BENCH_BUILDS; /* name=flags,... */
  int         n = 0;
  while (*list && n < MAX_BUILDS) {
    const char *end = strchr(list, ','), *eq = strchr(list, '=');
    size_t      len = end ? (size_t)(end - list) : strlen(list);
    char        path[1024];
    void       *dl;
    snprintf(b[n].name, sizeof b[n].name, "%.*s", (int)(eq - list), list);
    snprintf(path, sizeof path, "%s/set-rows-%s.so", dir, b[n].name);
    /* RTLD_LOCAL: every build defines the same names */
    if ((dl = dlopen(path, RTLD_NOW | RTLD_LOCAL)) == NULL ||
        (b[n].table = dlsym(dl, "rb_table")) == NULL ||
        (b[n].set = dlsym(dl, "rows_set")) == NULL) {
      fprintf(stderr, "wherec_bench_rows: %s\n", dlerror());
      return -1;
    }
    n++;
    list += len + (end != NULL);
  }
  return n;
}

static const rows_entry *find_entry(const build *b, const char *kernel) {
  for (const rows_entry *e = b->set; e->kernel; e++)
    if (strcmp(e->kernel, kernel) == 0) return e;
  return NULL;
}

/* A tensor of parameter p's shape pattern under the extents. */
static void shape_of(wc_tensor *t, const wc_param *p, const size_t *ext) {
  t->dtype = p->dtype;
  t->rank = p->rank;
  for (int d = 0; d < p->rank; d++)
    t->shape[d] = p->dims[d] < 0 ? (int64_t)ext[-p->dims[d] - 1] : p->dims[d];
}

static size_t elements(const wc_tensor *t) {
  size_t n = 1;
  for (int d = 0; d < t->rank; d++) n *= (size_t)t->shape[d];
  return n;
}

static bool read_file(const char *path, void *data, size_t bytes) {
  FILE *f = fopen(path, "rb");
  bool  ok = f && fread(data, 1, bytes, f) == bytes && fgetc(f) == EOF;
  if (f) fclose(f);
  if (!ok) fprintf(stderr, "wherec_bench_rows: cannot read %zu bytes from %s\n", bytes, path);
  return ok;
}

static bool write_file(const char *path, const void *data, size_t bytes) {
  FILE *f = fopen(path, "wb");
  bool  ok = f && fwrite(data, 1, bytes, f) == bytes;
  if (f && fclose(f) != 0) ok = false;
  if (!ok) fprintf(stderr, "wherec_bench_rows: cannot write %s\n", path);
  return ok;
}

/* Parses NAME:KERNEL:E=V,... against build 0's table and reads the inputs. */
static bool load_case(rcase *c, char *arg, const build *b0, const char *dir) {
  char *kernel = strchr(arg, ':'), *exts = kernel ? strchr(kernel + 1, ':') : NULL, path[4096];
  if (!exts) return false;
  *kernel++ = '\0';
  *exts++ = '\0';
  c->name = arg;
  if ((c->k = wc_find_kernel(b0->table, kernel)) == NULL) return false;
  for (char *e = strtok(exts, ","); e; e = strtok(NULL, ",")) {
    char *eq = strchr(e, '=');
    int   i = 0;
    if (!eq) return false;
    *eq = '\0';
    while (i < c->k->n_extents && strcmp(c->k->extent_names[i], e) != 0) i++;
    if (i == c->k->n_extents) return false;
    c->ext[i] = (size_t)strtoull(eq + 1, NULL, 10);
  }
  if (c->k->n_inputs > MAX_IN) return false;
  for (int i = 0; i < c->k->n_inputs; i++) {
    const wc_param *p = &c->k->inputs[i];
    shape_of(&c->in[i], p, c->ext);
    size_t bytes = elements(&c->in[i]) * wc_dtype_size(p->dtype);
    if ((c->in[i].data = bench_buffer(bytes, true)) == NULL) return false;
    snprintf(path, sizeof path, "%s/%s.%s.bin", dir, c->name, p->name);
    if (!read_file(path, c->in[i].data, bytes)) return false;
    c->in_data[i] = c->in[i].data;
  }
  wc_param out = {"y", c->k->out_dtype, c->k->out_rank, c->k->out_dims, NULL};
  shape_of(&c->out, &out, c->ext);
  c->count = elements(&c->out);
  c->row = (size_t)c->out.shape[c->out.rank - 1];
  c->out.data = bench_buffer(c->count * sizeof(float), true);
  return c->out.data != NULL && c->k->out_dtype == WC_FLOAT;
}

/* ---- checking and timing ---- */

/* Runs every build's kernel at one and two threads against build 0's bytes,
   and writes the outputs rows.py checks: build 0's kernel's, each plain loop's. */
static bool check_case(rcase *c, const build *b, int nb, wc_plan *plans, const char *dir) {
  size_t bytes = c->count * sizeof(float);
  float *want = malloc(bytes);
  char   path[4096];
  bool   ok = want != NULL;
  for (int i = 0; ok && i < nb; i++) {
    const rows_entry *e = find_entry(&b[i], c->k->name);
    c->plan = &plans[i];
    c->kern = wc_find_kernel(b[i].table, c->k->name);
    for (int threads = 1; ok && threads <= 2; threads++) {
      memset(c->out.data, 0xff, bytes);
      c->fn = e ? e->gen : NULL;
      wc_set_parallel(threads == 2 ? pool_parallel : NULL, threads == 2 ? pool2 : NULL);
      if (threads == 2)
        run_gen2(c);
      else
        run_one(c);
      wc_set_parallel(NULL, NULL);
      if (i == 0 && threads == 1) {
        memcpy(want, c->out.data, bytes);
        snprintf(path, sizeof path, "%s/%s.wherec.bin", dir, c->name);
        ok = write_file(path, want, bytes);
      } else if (memcmp(want, c->out.data, bytes) != 0) {
        fprintf(stderr, "wherec_bench_rows: %s: %s's kernel at %d thread(s) gives other bytes "
                "than %s's at one\n", c->name, b[i].name, threads, b[0].name);
        ok = false;
      }
    }
    if (e == NULL) continue; /* a profile kernel */
    c->fn = e->plain;
    run_one(c);
    snprintf(path, sizeof path, "%s/%s.plain-%s.bin", dir, c->name, b[i].name);
    ok = ok && write_file(path, c->out.data, bytes);
  }
  free(want);
  return ok;
}

/* Times the columns of one thread count: every build's kernel and plain loop,
   samples going round the columns; writes a record per column. */
static void time_case(rcase *c, const build *b, int nb, wc_plan *plans, int threads, FILE *rec) {
  enum { COLS = 2 * MAX_BUILDS };
  double t[COLS][REPS];
  long   inner[COLS];
  rcase  col[COLS];
  way_fn run[COLS];
  int    n = 0, build_of[COLS];
  bool   plain_of[COLS];
  for (int i = 0; i < nb; i++)
    for (int plain = 0; plain < 2; plain++) {
      const rows_entry *e = find_entry(&b[i], c->k->name);
      if (!e && (plain || threads > 1)) continue; /* a profile kernel: generated, one thread */
      col[n] = *c;
      col[n].fn = !e ? NULL : plain ? e->plain : e->gen;
      col[n].kern = wc_find_kernel(b[i].table, c->k->name);
      col[n].plan = &plans[i];
      run[n] = threads == 1 ? run_one : plain ? run_plain2 : run_gen2;
      build_of[n] = i;
      plain_of[n++] = plain;
    }
  if (n == 0) return;
  if (threads == 2) wc_set_parallel(pool_parallel, pool2);
  for (int j = 0; j < n; j++) { /* warm, then calls per sample */
    run[j](&col[j]);
    double t0 = bench_now_ns();
    run[j](&col[j]);
    double one = bench_now_ns() - t0;
    inner[j] = one >= SAMPLE_NS ? 1 : (long)(SAMPLE_NS / (one > 1 ? one : 1)) + 1;
  }
  for (int r = 0; r < REPS; r++)
    for (int j = 0; j < n; j++) {
      double t0 = bench_now_ns();
      for (long k = 0; k < inner[j]; k++) run[j](&col[j]);
      t[j][r] = (bench_now_ns() - t0) / (double)inner[j];
    }
  wc_set_parallel(NULL, NULL);
  for (int j = 0; j < n; j++)
    fprintf(rec, "%s\t%d\t%s\t%s\t%.1f\n", c->name, threads, b[build_of[j]].name,
            plain_of[j] ? "plain" : "wherec", bench_median(t[j], REPS));
  fflush(rec);
}

int main(int argc, char **argv) {
  const char *dir = NULL, *records = NULL;
  bool        quick = false;
  int         first = 1;
  for (; first < argc && argv[first][0] == '-'; first++) {
    if (strcmp(argv[first], "--quick") == 0) {
      quick = true;
    } else if (strcmp(argv[first], "--data") == 0 && first + 1 < argc) {
      dir = argv[++first];
    } else if (strcmp(argv[first], "-o") == 0 && first + 1 < argc) {
      records = argv[++first];
    } else {
      break;
    }
  }
  if (!dir || first == argc || argv[first][0] == '-') {
    fprintf(stderr, "usage: %s --data DIR [--quick] [-o RECORDS] NAME:KERNEL:E=V,...\n", argv[0]);
    return 2;
  }
  build b[MAX_BUILDS];
  int   nb = load_builds(b, BENCH_SET_DIR);
  FILE *rec = records ? fopen(records, "w") : stdout;
  if (nb <= 0 || !rec || (pool2 = pool_create(2)) == NULL) {
    fprintf(stderr, "wherec_bench_rows: no builds, records or threads\n");
    return 1;
  }
  wc_set_parallel_threshold(SPLIT_BYTES);
  bool ok = true;
  for (int a = first; ok && a < argc; a++) {
    rcase   c;
    wc_plan plans[MAX_BUILDS];
    memset(&c, 0, sizeof c);
    if (!load_case(&c, argv[a], &b[0], dir)) {
      fprintf(stderr, "wherec_bench_rows: bad case or inputs: %s\n", argv[a]);
      ok = false;
      break;
    }
    for (int i = 0; ok && i < nb; i++) { /* each build's plan: its table's invoker */
      wc_status s = wc_prepare_multi(b[i].table, c.k->name, c.in, c.k->n_inputs, &c.out, 1, &plans[i]);
      if (s != WC_OK || plans[i].path != WC_PATH_SPECIALIZED) {
        fprintf(stderr, "wherec_bench_rows: %s: wc_prepare_multi: %s\n", c.name, wc_status_str(s));
        ok = false;
      }
    }
    ok = ok && check_case(&c, b, nb, plans, dir);
    if (ok && !quick) {
      time_case(&c, b, nb, plans, 1, rec);
      time_case(&c, b, nb, plans, 2, rec);
    }
    for (int i = 0; i < c.k->n_inputs; i++) free(c.in[i].data);
    free(c.out.data);
  }
  pool_destroy(pool2);
  if (records && fclose(rec) != 0) ok = false;
  return ok ? 0 : 1;
}
