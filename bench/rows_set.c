/* rows_set.c: one build of bench_rows's timed code: the generated row kernels
   (rows.where) beside plain C loops of the same math, compiled together by one
   compiler and flag set into set-rows-NAME.so (bench/CMakeLists.txt). */
#include <math.h>
#include <stdbool.h>
#include <stddef.h>

#include "rb.h"
#include "rows.h"

/* The plain loops: what one writes by hand for a row, in the spec's order of
   operations, in float, one accumulator per reduction, libm's expf and sqrtf:
   softmax in three passes (max, exp and sum, divide), layernorm in three
   (mean, variance, output), rmsnorm in two. */
static void softmax_row(size_t n, const bool *restrict m, const float *restrict s,
                        float *restrict y) {
  float mx = -INFINITY, sum = 0.0f;
  for (size_t j = 0; j < n; j++) {
    float z = m[j] ? s[j] : -INFINITY;
    mx = z > mx ? z : mx;
  }
  for (size_t j = 0; j < n; j++) {
    float e = expf((m[j] ? s[j] : -INFINITY) - mx);
    y[j] = e;
    sum += e;
  }
  for (size_t j = 0; j < n; j++) y[j] = y[j] / sum;
}

static void layernorm_row(size_t n, const float *restrict x, const float *restrict g,
                          const float *restrict b, float *restrict y) {
  float mean = 0.0f, var = 0.0f;
  for (size_t j = 0; j < n; j++) mean += x[j];
  mean /= (float)n;
  for (size_t j = 0; j < n; j++) var += (x[j] - mean) * (x[j] - mean);
  var /= (float)n;
  float inv = 1.0f / sqrtf(var + 0.00001f);
  for (size_t j = 0; j < n; j++) y[j] = (x[j] - mean) * inv * g[j] + b[j];
}

static void rmsnorm_row(size_t n, const float *restrict x, const float *restrict g,
                        float *restrict y) {
  float ss = 0.0f;
  for (size_t j = 0; j < n; j++) ss += x[j] * x[j];
  float r = sqrtf(ss / (float)n + 0.00001f);
  for (size_t j = 0; j < n; j++) y[j] = x[j] / r * g[j];
}

/* softmax_bcast: ext (B, S, H); row r of the output [B,H,S,S] reads mask row
   (r / (H*S)) * S + r % S of [B,1,S,S] */
static void plain_softmax_bcast(const size_t *ext, const void *const *in, void *out,
                                size_t begin, size_t end) {
  size_t S = ext[1], H = ext[2];
  const bool *mask = in[0];
  const float *s = in[1];
  float *y = out;
  for (size_t r = begin / S; r < end / S; r++)
    softmax_row(S, mask + ((r / (H * S)) * S + r % S) * S, s + r * S, y + r * S);
}

/* softmax_full: ext (B, H, S), the mask's rows are the output's */
static void plain_softmax_full(const size_t *ext, const void *const *in, void *out,
                               size_t begin, size_t end) {
  size_t S = ext[2];
  const bool *mask = in[0];
  const float *s = in[1];
  float *y = out;
  for (size_t r = begin / S; r < end / S; r++) softmax_row(S, mask + r * S, s + r * S, y + r * S);
}

static void plain_layernorm(const size_t *ext, const void *const *in, void *out, size_t begin,
                            size_t end) {
  const float *x = in[0];
  float *y = out;
  (void)ext;
  for (size_t i = begin; i < end; i += 768) layernorm_row(768, x + i, in[1], in[2], y + i);
}

static void plain_rmsnorm(const size_t *ext, const void *const *in, void *out, size_t begin,
                          size_t end) {
  const float *x = in[0];
  float *y = out;
  (void)ext;
  for (size_t i = begin; i < end; i += 768) rmsnorm_row(768, x + i, in[1], y + i);
}

/* The generated kernels behind the same signature */
static void gen_softmax_bcast(const size_t *ext, const void *const *in, void *out, size_t begin,
                              size_t end) {
  rb_softmax_bcast_range(ext[0], ext[1], ext[2], in[0], in[1], out, begin, end);
}
static void gen_softmax_full(const size_t *ext, const void *const *in, void *out, size_t begin,
                             size_t end) {
  rb_softmax_full_range(ext[0], ext[1], ext[2], in[0], in[1], out, begin, end);
}
static void gen_layernorm(const size_t *ext, const void *const *in, void *out, size_t begin,
                          size_t end) {
  rb_layernorm_range(ext[0], ext[1], in[0], in[1], in[2], out, begin, end);
}
static void gen_rmsnorm(const size_t *ext, const void *const *in, void *out, size_t begin,
                        size_t end) {
  rb_rmsnorm_range(ext[0], ext[1], in[0], in[1], out, begin, end);
}

const rows_entry rows_set[] = {
    {"softmax_bcast", gen_softmax_bcast, plain_softmax_bcast},
    {"softmax_full", gen_softmax_full, plain_softmax_full},
    {"layernorm", gen_layernorm, plain_layernorm},
    {"rmsnorm", gen_rmsnorm, plain_rmsnorm},
    {NULL, NULL, NULL},
};
