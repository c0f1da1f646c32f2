/* genscale.c: generator scale: a spec of many varied kernels (patterns x dtypes)
   is generated with gen_generate, timed, and its output measured per kernel. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "bench.h"
#include "back/driver.h"

/* Kernel shapes cycled through: "%s" is the dtype. `numeric` patterns use
   arithmetic or order, so they skip bool, complex and string. */
typedef struct pattern {
  const char *name;
  const char *decl;            /* parameters and expression, after the kernel name */
  bool        numeric;
} pattern;

static const pattern patterns[] = {
  {"same", "(c: bool[N], x: %s[N], y: %s[N]) = where(c, x, y)", false},
  {"rows", "(c: bool[R,1], x: %s[R,C], y: %s[1,C]) = where(c, x, y)", false},
  {"cols", "(c: bool[1,C], x: %s[R,C], y: %s[R,C]) = where(c, x, y)", false},
  {"scalar_y", "(c: bool[N], x: %s[N], y: %s[]) = where(c, x, y)", false},
  {"scalar_c", "(c: bool[], x: %s[N], y: %s[N]) = where(c, x, y)", false},
  {"bcast4", "(c: bool[A,1,C,1], x: %s[A,B,1,D], y: %s[1,B,C,D]) = where(c, x, y)", false},
  {"fixed", "(c: bool[2,1], x: %s[2,3], y: %s[1,3]) = where(c, x, y)", false},
  {"v1_rows", "(c: bool[R], x: %s[R,C], y: %s[R,C]) = where_v1(c, x, y)", false},
  {"clamp", "(x: %s[N,M], lo: %s[], hi: %s[]) = where(x < lo, lo, where(x > hi, hi, x))", true},
  {"fused", "(x: %s[N], y: %s[N]) = where(x > y, x - y, y * 2)", true},
  {"argwhere", "(c: %s[H,W]) = argwhere(c)", false},
};
#define N_PATTERNS (int)(sizeof patterns / sizeof patterns[0])

static const char *const dtypes[] = {
  "float", "double", "float16", "bfloat16", "int8", "int16", "int32", "int64",
  "uint8", "uint16", "uint32", "uint64", "bool", "complex64", "string",
};
#define N_DTYPES (int)(sizeof dtypes / sizeof dtypes[0])
#define N_NUMERIC 12           /* dtypes[0 .. 11] take arithmetic */

static int write_spec(const char *path, int n_kernels) {
  FILE *f = fopen(path, "w");
  if (f == NULL) return -1;
  fprintf(f, "# %d kernels for the generator-scale benchmark (bench/genscale.c)\n", n_kernels);
  fprintf(f, "option prefix = \"scale\";\n");
  for (int i = 0; i < n_kernels; i++) {
    const pattern *p = &patterns[i % N_PATTERNS];
    const char *t = dtypes[(i / N_PATTERNS) % (p->numeric ? N_NUMERIC : N_DTYPES)];
    fprintf(f, "kernel k%04d_%s", i, p->name);
    fprintf(f, p->decl, t, t, t);   /* patterns use the dtype two or three times */
    fprintf(f, ";\n");
  }
  return fclose(f);
}

static size_t file_size(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 ? (size_t)st.st_size : 0;
}

int genscale_run(const char *dir, int n_kernels, int reps, genscale_result *r) {
  char spec[4096], out[4096], file[4200];
  double t[64];
  if (reps < 1 || reps > 64) return -1;
  mkdir(dir, 0777);   /* may exist already: writing the spec tells */
  snprintf(spec, sizeof spec, "%s/scale.where", dir);
  if (write_spec(spec, n_kernels) != 0) return -1;
  for (int i = 0; i < reps; i++) {
    struct timespec a, b;
    snprintf(out, sizeof out, "%s/out%d", dir, i);
    mkdir(out, 0777);
    /* no output yet: unchanged files are not rewritten, which would time less */
    snprintf(file, sizeof file, "%s/scale.c", out);
    remove(file);
    snprintf(file, sizeof file, "%s/scale.h", out);
    remove(file);
    clock_gettime(CLOCK_MONOTONIC, &a);
    if (gen_generate(spec, out, NULL, stderr, NULL) != 0) return -1;
    clock_gettime(CLOCK_MONOTONIC, &b);
    t[i] = (double)(b.tv_sec - a.tv_sec) + 1e-9 * (double)(b.tv_nsec - a.tv_nsec);
  }
  r->kernels = n_kernels;
  r->seconds = bench_median(t, reps);
  snprintf(file, sizeof file, "%s/out0/scale.c", dir);
  r->bytes_c = file_size(file);
  snprintf(file, sizeof file, "%s/out0/scale.h", dir);
  r->bytes_h = file_size(file);
  return 0;
}
