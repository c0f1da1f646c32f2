/* exp_exhaustive.c: wc_exp_f32 against the reference's independent exp on all
   2^32 float bit patterns, a thread per core; and builds of wc_exp_f32 with FMA
   contraction (gcc -ffp-contract=fast, clang, -O3 -march=native) against it. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <wherec/kernel.h>

#include "ref/reference.h"

#define MAX_THREADS 64
#define SHOWN   5 /* mismatches printed per kind */

/* The builds under other flags (CMake compiles exp_variant.c with them). */
typedef float (*exp_fn)(float);
#ifdef HAVE_GCC_FAST
float exp_gcc_fast(float);
#endif
#ifdef HAVE_CLANG_NATIVE
float exp_clang_native(float);
#endif
static const struct variant {
  const char *name; /* the flags it was built with */
  exp_fn      fn;
} variants[] = {
#ifdef HAVE_GCC_FAST
    {"gcc -std=gnu99 -O3 -march=native -ffp-contract=fast", exp_gcc_fast},
#endif
#ifdef HAVE_CLANG_NATIVE
    {"clang -std=c99 -O3 -march=native", exp_clang_native},
#endif
    {NULL, NULL}};
#define N_VARIANTS (sizeof variants / sizeof variants[0] - 1)

typedef struct slice {
  uint64_t begin, end;                     /* bit patterns [begin, end) */
  uint64_t ref_mismatches;                 /* wc_exp_f32 != reference */
  uint64_t variant_mismatches[4];          /* variant i != wc_exp_f32 */
} slice;

static pthread_mutex_t print_lock = PTHREAD_MUTEX_INITIALIZER;

static void show(uint64_t *count, const char *what, uint32_t in, uint32_t want, uint32_t got) {
  if (++*count > SHOWN) return;
  pthread_mutex_lock(&print_lock);
  printf("mismatch (%s): exp(0x%08x = %a) = 0x%08x, got 0x%08x\n", what, (unsigned)in,
         (double)wc_bits_to_f32(in), (unsigned)want, (unsigned)got);
  pthread_mutex_unlock(&print_lock);
}

static void *run_slice(void *arg) {
  slice *s = arg;
  for (uint64_t b = s->begin; b < s->end; b++) {
    uint32_t u = (uint32_t)b;
    float    x = wc_bits_to_f32(u);
    uint32_t got = wc_f32_to_bits(wc_exp_f32(x));
    /* NaN: that NaN, quieted (docs/semantics.md) */
    uint32_t want = x != x ? u | 0x00400000u
                           : wc_f32_to_bits((float)wc__ref_exp(x, 24, -126, 127));
    if (got != want) show(&s->ref_mismatches, "reference", u, want, got);
    for (size_t v = 0; v < N_VARIANTS; v++) {
      uint32_t vg = wc_f32_to_bits(variants[v].fn(x));
      if (vg != got) show(&s->variant_mismatches[v], variants[v].name, u, got, vg);
    }
  }
  return NULL;
}

int main(void) {
  pthread_t       th[MAX_THREADS];
  slice           sl[MAX_THREADS];
  long            cores = sysconf(_SC_NPROCESSORS_ONLN);
  int             threads = cores < 1 ? 1 : cores > MAX_THREADS ? MAX_THREADS : (int)cores;
  struct timespec t0, t1;
  uint64_t        total = 0, per = ((uint64_t)1 << 32) / (uint64_t)threads;
  int             failed = 0;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (int i = 0; i < threads; i++) {
    memset(&sl[i], 0, sizeof sl[i]);
    sl[i].begin = per * (uint64_t)i;
    sl[i].end = i == threads - 1 ? (uint64_t)1 << 32 : per * (uint64_t)(i + 1);
    if (pthread_create(&th[i], NULL, run_slice, &sl[i]) != 0) return 2;
  }
  for (int i = 0; i < threads; i++) pthread_join(th[i], NULL);
  clock_gettime(CLOCK_MONOTONIC, &t1);
  for (int i = 0; i < threads; i++) total += sl[i].ref_mismatches;
  printf("exp on float: %llu mismatches against the reference in 2^32 inputs\n",
         (unsigned long long)total);
  failed |= total != 0;
  for (size_t v = 0; v < N_VARIANTS; v++) {
    uint64_t n = 0;
    for (int i = 0; i < threads; i++) n += sl[i].variant_mismatches[v];
    printf("exp on float built with %s: %llu mismatches in 2^32 inputs\n", variants[v].name,
           (unsigned long long)n);
    failed |= n != 0;
  }
  printf("%d threads (one per core), %.1f s\n", threads,
         (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec));
  return failed;
}
