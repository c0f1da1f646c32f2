/* crmath_exhaustive.c: the correctly rounded functions of crmath_funcs.h on
   float (wherec/exp.h, crmath.h, hyperbolic.h, trig.h, inverse_trig.h,
   inverse_hyperbolic.h) against the reference's independent implementations
   (src/ref/ref_exp.c, ref_math.c) on every float bit pattern, or every N-th
   (--stride N), a thread per core; and builds of the same functions with FMA
   contraction and vectorized loops (gcc -ffp-contract=fast and clang, -O3
   -march=native: crmath_variant.c, the raw forms in blocks as generated
   kernels run them) against them; and each raw form (exp.h) against the
   exact one: the same bits or a NaN, and how many NaNs.
   usage: crmath_exhaustive [--stride N] [--threads T] [--no-reference] [FUNCTION...]
   (default: all, N = 1, a thread per core) */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <wherec/kernel.h>

#include "crmath_funcs.h"
#include "ref/reference.h"

#define MAX_THREADS 64
#define SHOWN       5    /* mismatches printed per kind */
#define CHUNK       4096 /* inputs per call of a variant's loop */

typedef void (*loop_fn)(const float *, float *, size_t);

#define DECL_(v, name) void v##_##name(const float *, float *, size_t);
#define GCC_DECL_(name, NAME) DECL_(crmath_gcc_fast, name)
#define CLANG_DECL_(name, NAME) DECL_(crmath_clang_native, name)
#ifdef HAVE_GCC_FAST
CRMATH_FUNCS(GCC_DECL_, GCC_DECL_)
#endif
#ifdef HAVE_CLANG_NATIVE
CRMATH_FUNCS(CLANG_DECL_, CLANG_DECL_)
#endif

#define ONE_(name, NAME) +1
enum { N_FUNCS = 0 CRMATH_FUNCS(ONE_, ONE_) };
static const struct func {
  const char *name;
  wc_opcode   op;
  float (*fn)(float);
  float (*raw)(float); /* its raw form, or NULL */
} funcs[N_FUNCS] = {
#define FUNC_(name, NAME) {#name, WC_OP_##NAME, wc_##name##_f32, NULL},
#define RAW_FUNC_(name, NAME) {#name, WC_OP_##NAME, wc_##name##_f32, wc_##name##_raw_f32},
    CRMATH_FUNCS(FUNC_, RAW_FUNC_)};

#define GCC_FN_(name, NAME) crmath_gcc_fast_##name,
#define CLANG_FN_(name, NAME) crmath_clang_native_##name,
static const struct variant {
  const char *name; /* the flags it was built with */
  loop_fn     fn[N_FUNCS];
} variants[] = {
#ifdef HAVE_GCC_FAST
    {"gcc -std=gnu99 -O3 -march=native -ffp-contract=fast", {CRMATH_FUNCS(GCC_FN_, GCC_FN_)}},
#endif
#ifdef HAVE_CLANG_NATIVE
    {"clang -std=c99 -O3 -march=native", {CRMATH_FUNCS(CLANG_FN_, CLANG_FN_)}},
#endif
    {NULL, {NULL}}};

typedef struct slice {
  int      f;                          /* the function */
  int      no_reference;               /* --no-reference: the exact form taken as proven */
  uint64_t count, stride;              /* inputs i * stride, i < count */
  int      thread, threads;            /* this slice takes every threads-th chunk from thread */
  uint64_t ref_mismatches;             /* wc_<f>_f32 != reference */
  uint64_t raw_mismatches;             /* wc_<f>_raw_f32 neither wc_<f>_f32 nor a NaN */
  uint64_t raw_nans;                   /* wc_<f>_raw_f32 a NaN where wc_<f>_f32 is not */
  uint64_t variant_mismatches[4];      /* variant v != wc_<f>_f32 */
} slice;

static pthread_mutex_t print_lock = PTHREAD_MUTEX_INITIALIZER;

static void show(uint64_t *count, const char *fn, const char *what, uint32_t in, uint32_t want,
                 uint32_t got) {
  if (++*count > SHOWN) return;
  pthread_mutex_lock(&print_lock);
  printf("mismatch (%s): %s(0x%08x = %a) = 0x%08x, got 0x%08x\n", what, fn, (unsigned)in,
         (double)wc_bits_to_f32(in), (unsigned)want, (unsigned)got);
  pthread_mutex_unlock(&print_lock);
}

static void *run_slice(void *arg) {
  slice             *s = arg;
  const struct func *F = &funcs[s->f];
  float              x[CHUNK], got[CHUNK], vgot[CHUNK];
  /* chunks dealt round-robin: the cheap ranges (NaNs, saturated results) spread evenly */
  for (uint64_t i = (uint64_t)s->thread * CHUNK; i < s->count; i += (uint64_t)s->threads * CHUNK) {
    size_t n = s->count - i < CHUNK ? (size_t)(s->count - i) : CHUNK;
    for (size_t j = 0; j < n; j++) x[j] = wc_bits_to_f32((uint32_t)((i + j) * s->stride));
    for (size_t j = 0; j < n; j++) got[j] = F->fn(x[j]);
    for (size_t j = 0; !s->no_reference && j < n; j++) {
      uint32_t u = wc_f32_to_bits(x[j]), g = wc_f32_to_bits(got[j]), want;
      if (x[j] != x[j]) want = u | 0x00400000u; /* NaN: that NaN, quieted (docs/semantics.md) */
      else {
        double r = wc__ref_crf(F->op, x[j], 24, -126, 127);
        want = r != r ? 0x7fc00000u : wc_f32_to_bits((float)r); /* the canonical NaN */
      }
      if (g != want) show(&s->ref_mismatches, F->name, "reference", u, want, g);
    }
    for (size_t j = 0; F->raw != NULL && j < n; j++) {
      float r = F->raw(x[j]);
      if (r != r) s->raw_nans += got[j] == got[j];
      else if (wc_f32_to_bits(r) != wc_f32_to_bits(got[j]))
        show(&s->raw_mismatches, F->name, "raw form", wc_f32_to_bits(x[j]),
             wc_f32_to_bits(got[j]), wc_f32_to_bits(r));
    }
    for (size_t v = 0; variants[v].name != NULL; v++) {
      variants[v].fn[s->f](x, vgot, n);
      for (size_t j = 0; j < n; j++)
        if (wc_f32_to_bits(vgot[j]) != wc_f32_to_bits(got[j]))
          show(&s->variant_mismatches[v], F->name, variants[v].name, wc_f32_to_bits(x[j]),
               wc_f32_to_bits(got[j]), wc_f32_to_bits(vgot[j]));
    }
  }
  return NULL;
}

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

int main(int argc, char **argv) {
  pthread_t th[MAX_THREADS];
  slice     sl[MAX_THREADS];
  long      cores = sysconf(_SC_NPROCESSORS_ONLN);
  int       threads = cores < 1 ? 1 : cores > MAX_THREADS ? MAX_THREADS : (int)cores;
  uint64_t  stride = 1;
  int       failed = 0, wanted[N_FUNCS] = {0}, any = 0, no_reference = 0;
  for (int a = 1; a < argc; a++) {
    int known = 0;
    /* A raw form or a build changed, the exact form not (it was proven against the
       reference on every input before): the rest against the exact form only, 5-10x
       faster than the reference's long double and fixed-point paths. */
    if (strcmp(argv[a], "--no-reference") == 0) {
      no_reference = 1;
      continue;
    }
    /* a count that does not read as a positive number is refused: --stride 0 or a typo
       would otherwise mean every input, hours of work nobody asked for */
    if ((strcmp(argv[a], "--stride") == 0 || strcmp(argv[a], "--threads") == 0) && a + 1 < argc) {
      char              *end;
      unsigned long long n = strtoull(argv[a + 1], &end, 0);
      if (*end != '\0' || n < 1 || argv[a + 1][0] == '-') {
        fprintf(stderr, "crmath_exhaustive: %s wants a positive number, not '%s'\n", argv[a],
                argv[a + 1]);
        return 2;
      }
      if (strcmp(argv[a], "--stride") == 0) stride = n;
      else threads = n > MAX_THREADS ? MAX_THREADS : (int)n; /* a shared machine: fewer */
      a++;
      continue;
    }
    for (int f = 0; f < N_FUNCS; f++)
      if (strcmp(argv[a], funcs[f].name) == 0) wanted[f] = any = known = 1;
    if (!known) {
      fprintf(stderr, "usage: crmath_exhaustive [--stride N] [--threads N] [--no-reference] "
                      "[FUNCTION...]\nunknown: %s\n", argv[a]);
      return 2;
    }
  }
  for (int f = 0; f < N_FUNCS; f++) /* a raw form generated kernels take goes unproven */
    if (wc_op_has_raw_form(funcs[f].op) != (funcs[f].raw != NULL)) {
      fprintf(stderr, "crmath_exhaustive: %s: operations.h's WC_RAW_FORM_OPS and "
                      "crmath_funcs.h's RAW rows disagree\n", funcs[f].name);
      return 2;
    }
  for (int f = 0; f < N_FUNCS; f++) {
    uint64_t total = (((uint64_t)1 << 32) + stride - 1) / stride, refm = 0, rawm = 0, nans = 0;
    double   t0 = now();
    if (any && !wanted[f]) continue;
    for (int i = 0; i < threads; i++) {
      memset(&sl[i], 0, sizeof sl[i]);
      sl[i].f = f;
      sl[i].no_reference = no_reference;
      sl[i].stride = stride;
      sl[i].count = total;
      sl[i].thread = i;
      sl[i].threads = threads;
      if (pthread_create(&th[i], NULL, run_slice, &sl[i]) != 0) return 2;
    }
    for (int i = 0; i < threads; i++) pthread_join(th[i], NULL);
    for (int i = 0; i < threads; i++) refm += sl[i].ref_mismatches;
    if (no_reference)
      printf("%s on float: the exact form not compared with the reference (--no-reference), "
             "%llu inputs (every %llu%s), %.1f s\n", funcs[f].name, (unsigned long long)total,
             (unsigned long long)stride, stride == 1 ? "st: all 2^32" : "th", now() - t0);
    else
      printf("%s on float: %llu mismatches against the reference in %llu inputs (every %llu%s), "
             "%.1f s\n", funcs[f].name, (unsigned long long)refm, (unsigned long long)total,
             (unsigned long long)stride, stride == 1 ? "st: all 2^32" : "th", now() - t0);
    failed |= refm != 0;
    for (int i = 0; i < threads; i++) rawm += sl[i].raw_mismatches, nans += sl[i].raw_nans;
    if (funcs[f].raw != NULL)
      printf("%s_raw on float: %llu mismatches, %llu NaNs (the exact form's inputs)\n", funcs[f].name,
             (unsigned long long)rawm, (unsigned long long)nans);
    failed |= rawm != 0;
    for (size_t v = 0; variants[v].name != NULL; v++) {
      uint64_t n = 0;
      for (int i = 0; i < threads; i++) n += sl[i].variant_mismatches[v];
      printf("%s on float built with %s: %llu mismatches\n", funcs[f].name, variants[v].name,
             (unsigned long long)n);
      failed |= n != 0;
    }
    fflush(stdout);
  }
  printf("%d threads\n", threads);
  return failed;
}
