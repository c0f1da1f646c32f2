/* measure.c: what every timed program in bench/ shares: the clock, the
   median of samples, and buffers placed as numpy places its arrays. */
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE                       /* madvise, MADV_HUGEPAGE */
#include <stdlib.h>
#include <time.h>
#if defined(__linux__)
#include <sys/mman.h>
#endif

#include "bench.h"

#define HUGE_PAGE ((size_t)2 << 20)

double bench_now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return 1e9 * (double)t.tv_sec + (double)t.tv_nsec;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

double bench_median(double *t, int n) {
  qsort(t, (size_t)n, sizeof t[0], cmp_double);
  return t[n / 2];
}

void *bench_buffer(size_t bytes, bool huge_pages) {
  size_t size = (bytes + HUGE_PAGE - 1) / HUGE_PAGE * HUGE_PAGE;
  void *p = aligned_alloc(HUGE_PAGE, size ? size : HUGE_PAGE);
#if defined(MADV_HUGEPAGE)
  /* a hint: failure leaves the pages as they are */
  if (p) madvise(p, size, huge_pages ? MADV_HUGEPAGE : MADV_NOHUGEPAGE);
#else
  (void)huge_pages;
#endif
  return p;
}
