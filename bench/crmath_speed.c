/* crmath_speed.c: ns per element of the kernels of bench/crmath.where on 16M
   floats (the best of 9 calls, one thread, timed by the process's CPU time, which a
   machine shared with other work inflates less than the wall time), for bench/crmath.sh.
   usage: crmath_speed [NAME...]   (default: every kernel; names: the table's) */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "crb.h"

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

typedef void (*kernel_fn)(size_t, const float *, float *);

int main(int argc, char **argv) {
  static const struct {
    const char *name;
    kernel_fn   fn;
    double      lo, hi; /* inputs uniform in [lo, hi) */
  } ks[] = {{"exp", crb_exp_k, -10, 10},         {"log", crb_log_k, 0.01, 100},
            {"tanh", crb_tanh_k, -10, 10},       {"sigmoid", crb_sigmoid_k, -10, 10},
            {"erf", crb_erf_k, -4, 4},           {"sinh", crb_sinh_k, -10, 10},
            {"cosh", crb_cosh_k, -10, 10},       {"sin", crb_sin_k, -10, 10},
            {"cos", crb_cos_k, -10, 10},         {"tan", crb_tan_k, -10, 10},
            {"asin", crb_asin_k, -1, 1},         {"acos", crb_acos_k, -1, 1},
            {"atan", crb_atan_k, -10, 10},       {"asinh", crb_asinh_k, -10, 10},
            {"acosh", crb_acosh_k, 1, 100},      {"atanh", crb_atanh_k, -0.999, 0.999},
            {"relu", crb_relu_k, -10, 10},
            {"elu", crb_elu_k, -10, 10},         {"silu", crb_silu_k, -10, 10},
            {"gelu", crb_gelu_k, -4, 4},         {"expm1", crb_expm1_k, -10, 10},
            {"softplus", crb_softplus_k, -10, 10}, {"softsign", crb_softsign_k, -10, 10},
            {"silu_cr", crb_silu_cr_k, -10, 10}, {"elu_cr", crb_elu_cr_k, -10, 10},
            {"mish", crb_mish_k, -10, 10},       {"gelu_cr", crb_gelu_cr_k, -4, 4},
            {"gelu_tanh", crb_gelu_tanh_k, -4, 4}, {"gelu_tanh_lit", crb_gelu_tanh_lit_k, -4, 4},
            {"selu_cr", crb_selu_cr_k, -10, 10}, {"selu", crb_selu_k, -10, 10}};
  for (int a = 1; a < argc; a++) { /* a misspelt name would time nothing and say nothing */
    size_t k = 0;
    while (k < sizeof ks / sizeof ks[0] && strcmp(argv[a], ks[k].name) != 0) k++;
    if (k == sizeof ks / sizeof ks[0]) {
      fprintf(stderr, "crmath_speed: no kernel '%s' (names: the table in crmath_speed.c)\n", argv[a]);
      return 2;
    }
  }
  size_t n = (size_t)1 << 24;
  float *x = malloc(n * sizeof *x), *o = malloc(n * sizeof *o);
  if (!x || !o) return 1;
  for (size_t k = 0; k < sizeof ks / sizeof ks[0]; k++) {
    uint64_t s = 88172645463325252u;
    double   best = 1e9;
    int      wanted = argc < 2;
    for (int a = 1; a < argc; a++) wanted |= strcmp(argv[a], ks[k].name) == 0;
    if (!wanted) continue;
    for (size_t i = 0; i < n; i++) {
      s ^= s << 13;
      s ^= s >> 7;
      s ^= s << 17;
      x[i] = (float)(ks[k].lo + (ks[k].hi - ks[k].lo) * ((double)(s >> 11) * 0x1p-53));
    }
    memset(o, 0, n * sizeof *o);
    for (int r = 0; r < 9; r++) {
      double t0 = now(), t;
      ks[k].fn(n, x, o);
      t = now() - t0;
      if (t < best) best = t;
    }
    printf("%s %.3f\n", ks[k].name, best / (double)n * 1e9);
  }
  free(x);
  free(o);
  return 0;
}
