/* rows_tried.c: the row kernels of rows.where (softmax_full, layernorm, rmsnorm) as
   rows_tried.sh rebuilds them (as generated, with raw arithmetic, with raw exp too):
   ns per element, the best of REPS calls, one thread; and a hash of each output, so
   the variants' bits can be compared. usage: rows-tried [S] [REPS] */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rb.h"

static double now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return 1e9 * (double)t.tv_sec + (double)t.tv_nsec;
}

static uint64_t fnv(const float *v, size_t n) { /* FNV-1a of the bytes */
  const unsigned char *p = (const unsigned char *)v;
  uint64_t             h = 14695981039346656037u;
  for (size_t i = 0; i < n * sizeof *v; i++) h = (h ^ p[i]) * 1099511628211u;
  return h;
}

int main(int argc, char **argv) {
  size_t S = argc > 1 ? (size_t)atoi(argv[1]) : 128, H = 12, D = 768;
  int    reps = argc > 2 ? atoi(argv[2]) : 20;
  size_t n = H * S * S, nl = S * D;
  bool  *mask = malloc(n);
  float *s = malloc(n * sizeof(float)), *y = malloc(n * sizeof(float));
  float *x = malloc(nl * sizeof(float)), *yl = malloc(nl * sizeof(float)), g[768], b[768];
  double best[3] = {1e300, 1e300, 1e300};
  uint64_t seed = 1;
  if (!mask || !s || !y || !x || !yl) return 1;
  for (size_t i = 0; i < n; i++) { /* 80% kept, the diagonal always */
    seed = seed * 6364136223846793005u + 1442695040888963407u;
    mask[i] = (seed >> 33) % 5 != 0 || (i / S) % S == i % S;
    s[i] = (float)((int64_t)(seed >> 40) % 2001 - 1000) / 100.0f;
  }
  for (size_t i = 0; i < nl; i++) x[i] = (float)((int64_t)(i * 2654435761u % 2001) - 1000) / 250.0f;
  for (size_t i = 0; i < D; i++) g[i] = 1.0f + (float)(i % 7) / 64.0f, b[i] = (float)(i % 5) / 32.0f;
  for (int r = 0; r < reps; r++) {
    double t0 = now_ns();
    rb_softmax_full(1, H, S, mask, s, y);
    double t1 = now_ns();
    rb_layernorm(1, S, x, g, b, yl);
    double t2 = now_ns();
    rb_rmsnorm(1, S, x, g, yl);
    double t3 = now_ns(), t[3] = {t1 - t0, t2 - t1, t3 - t2};
    for (int k = 0; k < 3; k++) best[k] = t[k] < best[k] ? t[k] : best[k];
  }
  uint64_t hs = fnv(y, n), hr = fnv(yl, nl);
  rb_layernorm(1, S, x, g, b, yl);
  printf("softmax_full %.3f layernorm %.3f rmsnorm %.3f ns/element; outputs %016llx %016llx %016llx\n",
         best[0] / (double)n, best[1] / (double)nl, best[2] / (double)nl, (unsigned long long)hs,
         (unsigned long long)fnv(yl, nl), (unsigned long long)hr);
  free(mask), free(s), free(y), free(x), free(yl);
  return 0;
}
