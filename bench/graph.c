/* graph.c: kernels that are graphs against the same nodes as separate kernels and a
   tuned loop reading each input once and writing each output once (bench_graph).
   usage: wherec_bench_graph [--quick] [-o RECORDS] [--dump DIR]
   -o writes one record per timing (n, way, median ns; tab-separated) for
   graph_peers.py, which times onnxruntime on the same graphs right after; --dump
   writes each size's x and the one-pass outputs y and t (raw float32, DIR/x-N.f32,
   y-N.f32, t-N.f32) for it to check onnxruntime's outputs against. */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "bg.h"

#define REPS 31

/* The clip of the tuned loops: max then min, a NaN kept (as wherec's). */
static inline float clip06(float s) {
  float t = s > 0.0f || s != s ? s : 0.0f;
  return t < 6.0f || t != t ? t : 6.0f;
}

/* The tuned loops: one pass, each value in a register, the same operations in
   the same order, plain C arithmetic: on x86 the same bits as wherec's for one
   NaN operand; wherec also pins which of two NaNs wins and the invalid
   operations' NaN, selects these loops leave out (the inputs here hold no NaN). */
static void tuned_hard_swish(size_t n, const float *restrict x, float *restrict y) {
  for (size_t i = 0; i < n; i++) y[i] = x[i] * clip06(x[i] + 3.0f) / 6.0f;
}

static void tuned_two(size_t n, const float *restrict x, float *restrict y, float *restrict t) {
  for (size_t i = 0; i < n; i++) {
    float c = clip06(x[i] + 3.0f);
    t[i] = c;
    y[i] = x[i] * c / 6.0f;
  }
}

/* The buffers of one size: x, the outputs, and the separate kernels' intermediates. */
typedef struct bufs {
  size_t n;
  float *x, *y, *t, *s, *m;
} bufs;

typedef void (*way_fn)(const bufs *b);

static void one_pass(const bufs *b) { bg_hard_swish(b->n, b->x, b->y); }
static void two_one_pass(const bufs *b) { bg_hs_two(b->n, b->x, b->y, b->t); }
static void separate(const bufs *b) {
  bg_add3(b->n, b->x, b->s);
  bg_clip06(b->n, b->s, b->t);
  bg_mul(b->n, b->x, b->t, b->m);
  bg_div6(b->n, b->m, b->y);
}
static void tuned_one(const bufs *b) { tuned_hard_swish(b->n, b->x, b->y); }
static void tuned_pair(const bufs *b) { tuned_two(b->n, b->x, b->y, b->t); }

static double time_ns(way_fn f, const bufs *b) {
  double t[REPS];
  f(b); /* warm */
  for (int r = 0; r < REPS; r++) {
    double t0 = bench_now_ns();
    f(b);
    t[r] = bench_now_ns() - t0;
  }
  return bench_median(t, REPS);
}

/* The one-pass kernels give the separate kernels' bytes (and the tuned loops'). */
static bool same_bytes(const bufs *b) {
  size_t bytes = b->n * sizeof(float);
  float *y1 = malloc(bytes ? bytes : 1), *t1 = malloc(bytes ? bytes : 1);
  bool   ok = y1 && t1;
  if (ok) {
    separate(b);
    memcpy(y1, b->y, bytes);
    memcpy(t1, b->t, bytes);
    two_one_pass(b);
    ok = memcmp(y1, b->y, bytes) == 0 && memcmp(t1, b->t, bytes) == 0;
    one_pass(b);
    ok = ok && memcmp(y1, b->y, bytes) == 0;
    tuned_one(b);
    ok = ok && memcmp(y1, b->y, bytes) == 0;
  }
  free(y1);
  free(t1);
  return ok;
}

/* Writes n floats to DIR/NAME-N.f32. */
static bool dump(const char *dir, const char *name, size_t n, const float *v) {
  char path[4096];
  snprintf(path, sizeof path, "%s/%s-%zu.f32", dir, name, n);
  FILE *f = fopen(path, "wb");
  bool  ok = f && fwrite(v, sizeof *v, n, f) == n;
  if (f && fclose(f) != 0) ok = false;
  if (!ok) fprintf(stderr, "bench_graph: cannot write %s\n", path);
  return ok;
}

static bool run_size(size_t n, bool quick, FILE *rec, const char *dir) {
  bufs b = {n, NULL, NULL, NULL, NULL, NULL};
  float **all[] = {&b.x, &b.y, &b.t, &b.s, &b.m};
  bool    ok = true;
  for (size_t i = 0; i < sizeof all / sizeof *all; i++)
    ok &= (*all[i] = bench_buffer(n * sizeof(float), true)) != NULL;
  for (size_t i = 0; ok && i < n; i++) /* -10 .. 10 */
    b.x[i] = (float)((int64_t)(i * 2654435761u % 2001) - 1000) / 100.0f;
  ok = ok && same_bytes(&b);
  if (!ok) fprintf(stderr, "bench_graph: n=%zu: the ways disagree (or no memory)\n", n);
  if (ok && dir) { /* the one pass's outputs (same_bytes: every way's) */
    two_one_pass(&b);
    ok = dump(dir, "x", n, b.x) && dump(dir, "y", n, b.y) && dump(dir, "t", n, b.t);
  }
  if (ok && !quick) {
    double hs = time_ns(one_pass, &b), hs_sep = time_ns(separate, &b);
    double hs_t = time_ns(tuned_one, &b);
    double two = time_ns(two_one_pass, &b), two_t = time_ns(tuned_pair, &b);
    printf("%-10zu %-28s %10.0f %8.2fx %12.2fx\n", n, "hard_swish (one pass)", hs, hs / hs_t,
           hs_sep / hs);
    printf("%-10s %-28s %10.0f %8s %12s\n", "", "  4 separate kernels", hs_sep, "", "");
    printf("%-10s %-28s %10.0f %8s %12s\n", "", "  tuned loop", hs_t, "", "");
    printf("%-10s %-28s %10.0f %8.2fx %12.2fx\n", "", "hs_two -> (y, t) (one pass)", two,
           two / two_t, hs_sep / two);
    printf("%-10s %-28s %10.0f %8s %12s\n", "", "  tuned loop, 2 outputs", two_t, "", "");
    if (rec) {
      fprintf(rec, "time\t%zu\thard_swish\t%.1f\ntime\t%zu\tseparate\t%.1f\n", n, hs, n, hs_sep);
      fprintf(rec, "time\t%zu\ttuned\t%.1f\ntime\t%zu\ths_two\t%.1f\n", n, hs_t, n, two);
      fprintf(rec, "time\t%zu\ttuned_two\t%.1f\n", n, two_t);
      fflush(rec);
    }
  }
  for (size_t i = 0; i < sizeof all / sizeof *all; i++) free(*all[i]);
  return ok;
}

int main(int argc, char **argv) {
  bool        quick = false;
  const char *records = NULL, *dir = NULL;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--quick") == 0) {
      quick = true;
    } else if (strcmp(argv[i], "-o") == 0 && i + 1 < argc) {
      records = argv[++i];
    } else if (strcmp(argv[i], "--dump") == 0 && i + 1 < argc) {
      dir = argv[++i];
    } else {
      fprintf(stderr, "usage: %s [--quick] [-o RECORDS] [--dump DIR]\n", argv[0]);
      return 2;
    }
  }
  FILE *rec = records ? fopen(records, "w") : NULL;
  if (records && !rec) {
    fprintf(stderr, "bench_graph: cannot write %s\n", records);
    return 1;
  }
  size_t sizes[] = {65536, 1u << 20, 1u << 24};
  bool   ok = true;
  if (!quick)
    printf("%-10s %-28s %10s %9s %13s\n", "n", "way", "median ns", "/ tuned", "separate / it");
  for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++)
    ok &= run_size(quick ? sizes[i] / 64 + 3 : sizes[i], quick, rec, dir);
  if (rec && fclose(rec) != 0) ok = false;
  return ok ? 0 : 1;
}
