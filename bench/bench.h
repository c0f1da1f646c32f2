/* bench.h: what the benchmark's files share: the operands of one timed call,
   the hand-tuned loops (tuned.c), the split through wc_set_parallel (threads.c) and
   the generator-scale run (genscale.c). */
#ifndef WHEREC_BENCH_H
#define WHEREC_BENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <wherec/wherec.h>

#define BENCH_MAX_EXTENTS 6
#define BENCH_MAX_INPUTS 3

/* One call of a case's kernel: the same operands for every variant. */
typedef struct bench_args {
  const wc_kernel *k;                  /* the case's kernel in the generated table */
  size_t      ext[BENCH_MAX_EXTENTS];  /* symbolic extents, in the kernel's order (as P_K takes them) */
  const void *in[BENCH_MAX_INPUTS];    /* input data, in parameter order */
  void       *out;                     /* output; int64 coordinates for argwhere / nonzero */
  size_t      count;                   /* output elements (elementwise kinds) */
  int64_t     n;                       /* argwhere / nonzero: true elements found */
  void       *ctx;                     /* the benchmark's own state (runtime tensors) */
} bench_args;

typedef void (*bench_fn)(bench_args *a);

/* One kernel of a build (set.c): the generated kernel's call and the tuned
   loop's, by the kernel's name in bench.where. A build's `bench_set` ends
   with a NULL name. */
typedef struct bench_set_entry {
  const char *kernel;
  bench_fn    gen, tuned;
} bench_set_entry;

/* builds.c: the builds of set.c wherec_bench times (BENCH_BUILDS: gcc and
   clang at -O2 and -O3 -march=native), loaded from dir. builds_load returns
   how many, or -1 with a message; builds_find the entry of a kernel or NULL. */
#define BENCH_MAX_BUILDS 8
typedef struct bench_build {
  char                   name[32];    /* gcc-O2, ... */
  char                   flags[96];   /* gcc -O2, ... */
  const bench_set_entry *set;
  void                  *dl;
} bench_build;
int                    builds_load(bench_build *b, int max, const char *dir);
const bench_set_entry *builds_find(const bench_build *b, const char *kernel);

/* Hand-tuned loops (tuned.c), one per case shape, with the signature of the
   generated kernel they stand beside (bools are 0/1 bytes). */
void tuned_same_w1(size_t n, const bool *restrict c, const uint8_t *restrict x,
                   const uint8_t *restrict y, uint8_t *restrict o);
void tuned_same_w2(size_t n, const bool *restrict c, const uint16_t *restrict x,
                   const uint16_t *restrict y, uint16_t *restrict o);
void tuned_same_w4(size_t n, const bool *restrict c, const uint32_t *restrict x,
                   const uint32_t *restrict y, uint32_t *restrict o);
void tuned_same_w8(size_t n, const bool *restrict c, const uint64_t *restrict x,
                   const uint64_t *restrict y, uint64_t *restrict o);
void tuned_row_bcast(size_t rows, size_t cols, const bool *restrict c, const float *restrict x,
                     const float *restrict y, float *restrict o);
void tuned_scalar_x(size_t n, const bool *restrict c, const uint32_t *restrict x,
                    const uint32_t *restrict y, uint32_t *restrict o);
void tuned_scalar_y(size_t n, const bool *restrict c, const uint32_t *restrict x,
                    const uint32_t *restrict y, uint32_t *restrict o);
void tuned_scalar_c(size_t n, const bool *restrict c, const float *restrict x,
                    const float *restrict y, float *restrict o);
void tuned_bcast6(size_t A, size_t C, size_t E, size_t F, size_t B, size_t D,
                  const bool *restrict c, const uint32_t *restrict x,
                  const uint32_t *restrict y, uint32_t *restrict o);
void tuned_leaky(size_t n, const float *restrict x, float *restrict o);
int64_t tuned_argwhere(size_t rows, size_t cols, const bool *c, int64_t *coords);
int64_t tuned_nonzero(size_t rows, size_t cols, const bool *c, int64_t *coords);
void tuned_tiny(const bool *restrict c, const uint32_t *restrict x, const uint32_t *restrict y,
                uint32_t *restrict o);

/* measure.c: the monotonic clock in ns; the median of n samples (sorts t);
   a buffer on 2 MiB boundaries, on transparent huge pages or explicitly not
   (numpy madvises its arrays of 4 MiB and more onto them). NULL if out of memory. */
double bench_now_ns(void);
double bench_median(double *t, int n);
void  *bench_buffer(size_t bytes, bool huge_pages);

/* Runs kernel of table through wc_run with a pool of n_threads threads
   installed by wc_set_parallel (P_K_range tasks); 0, or an errno (EINVAL also
   when the call fails or does not take the specialized path). */
#define THREADS_MAX 64
int threads_run(const wc_kernel_table *table, const char *kernel, const wc_tensor *in, int n_in,
                wc_tensor *out, int n_threads);

/* Writes a spec of n_kernels varied kernels to dir/scale.where, generates it
   reps times (gen_generate into fresh directories) and reports the median. */
typedef struct genscale_result {
  int    kernels;                      /* kernels in the spec */
  double seconds;                      /* median time of one gen_generate */
  size_t bytes_c, bytes_h;             /* generated .c and .h */
} genscale_result;
int genscale_run(const char *dir, int n_kernels, int reps, genscale_result *r);

#endif
