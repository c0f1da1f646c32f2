/* tried.c: alternatives in how kernels use memory (huge pages, non-temporal
   stores and their chunk size, a bit-packed condition), each timed against the
   others in one run: `cmake --build build --target bench_tried`. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "bench.h"                           /* tuned_same_w4: the loop kept; timing, buffers */

#define N ((size_t)16 << 20)                   /* elements: 64 MB of float, past the LLC */
#define REPS 11

/* A buffer for the comparison, first touched outside the timing. */
static void *buffer(size_t bytes, bool huge_pages) {
  void *p = bench_buffer(bytes, huge_pages);
  if (p == NULL) { perror("bench_buffer"); exit(1); }
  memset(p, 0, bytes);
  return p;
}

/* ---- the alternatives (the kept loop is tuned_same_w4, as the generated kernel) ---- */

/* The condition as bits, 8 elements per byte: 1/8 of the condition bytes. */
static void where_bits(size_t n, const bool *restrict c, const uint32_t *restrict x,
                       const uint32_t *restrict y, uint32_t *restrict o) {
  const uint8_t *bits = (const uint8_t *)c;
  for (size_t i0 = 0; i0 < n; i0 += 8) {
    unsigned b = bits[i0 / 8];
    for (size_t k = 0; k < 8; k++) {
      uint32_t m = 0u - ((b >> k) & 1u);
      o[i0 + k] = (x[i0 + k] & m) | (y[i0 + k] & ~m);
    }
  }
}

/* Non-temporal stores from intrinsics in the loop: the output bypasses the
   cache, so its lines are not read first (o 16-byte aligned; n a multiple of 4). */
static void where_stream(size_t n, const bool *restrict c, const uint32_t *restrict x,
                         const uint32_t *restrict y, uint32_t *restrict o) {
#if defined(__SSE2__)
  const __m128i zero = _mm_setzero_si128();
  for (size_t i = 0; i + 4 <= n; i += 4) {
    uint32_t cw;
    memcpy(&cw, c + i, 4);
    __m128i b = _mm_cvtsi32_si128((int)cw);
    b = _mm_unpacklo_epi16(_mm_unpacklo_epi8(b, zero), zero);
    __m128i m = _mm_cmpgt_epi32(b, zero);
    __m128i v = _mm_or_si128(_mm_and_si128(m, _mm_loadu_si128((const __m128i *)(x + i))),
                             _mm_andnot_si128(m, _mm_loadu_si128((const __m128i *)(y + i))));
    _mm_stream_si128((__m128i *)(o + i), v);
  }
  _mm_sfence();
#else
  tuned_same_w4(n, c, x, y, o);
#endif
}

/* What generated kernels do past the last-level cache: chunks computed in L1,
   each streamed out by wc_stream_copy; chunk_bytes is the variable tried. */
static size_t chunk_bytes;
static void where_chunked(size_t n, const bool *restrict c, const uint32_t *restrict x,
                          const uint32_t *restrict y, uint32_t *restrict o) {
  uint32_t chunk[16384 / 4];
  const size_t per = chunk_bytes / 4;
  for (size_t c0 = 0; c0 < n; c0 += per) {
    size_t m = n - c0 < per ? n - c0 : per;
    tuned_same_w4(m, c + c0, x + c0, y + c0, chunk);
    wc_stream_copy(o + c0, chunk, m * 4);
  }
  wc_stream_fence();
}

/* ---- one comparison: variants timed in turn, sample by sample ---- */

typedef struct variant {
  const char *name;
  size_t chunk;                                        /* where_chunked's chunk_bytes */
  void (*fn)(size_t, const bool *restrict, const uint32_t *restrict, const uint32_t *restrict,
             uint32_t *restrict);
  const bool *c;                                       /* its condition (bytes or bits) */
  const uint32_t *x, *y;
  uint32_t *o;
} variant;

static void compare(const char *title, const variant *v, int nv) {
  double t[8][REPS], med[8];
  for (int r = 0; r < REPS; r++)
    for (int k = 0; k < nv; k++) {
      chunk_bytes = v[k].chunk;
      double t0 = bench_now_ns();
      v[k].fn(N, v[k].c, v[k].x, v[k].y, v[k].o);
      t[k][r] = bench_now_ns() - t0;
    }
  printf("%s\n", title);
  for (int k = 0; k < nv; k++) {
    med[k] = bench_median(t[k], REPS);
    bool same = memcmp(v[k].o, v[0].o, N * 4) == 0;
    printf("  %-38s %7.2f ms  %5.2fx the first%s\n", v[k].name, med[k] / 1e6, med[k] / med[0],
           same ? "" : "  OUTPUT DIFFERS");
  }
}

int main(void) {
  bool *c = buffer(N, true), *bits = buffer(N / 8, true), *c_small = buffer(N, false);
  uint32_t *x = buffer(N * 4, true), *y = buffer(N * 4, true), *o = buffer(N * 4, true);
  uint32_t *o2 = buffer(N * 4, true), *x_small = buffer(N * 4, false);
  uint32_t *y_small = buffer(N * 4, false), *o_small = buffer(N * 4, false);
  uint8_t *packed = (uint8_t *)bits;
  uint64_t s = 0x9e3779b97f4a7c15u;
  for (size_t i = 0; i < N; i++) {
    s ^= s << 13; s ^= s >> 7; s ^= s << 17;
    c[i] = c_small[i] = (s & 1) != 0;                  /* p = 0.5 */
    packed[i / 8] = (uint8_t)(packed[i / 8] | (c[i] << (i % 8)));
    x[i] = x_small[i] = (uint32_t)(s >> 32);
    y[i] = y_small[i] = (uint32_t)s;
  }
  printf("where(c, x, y), float32 bits, %zu elements, p = 0.5; medians of %d\n", N, REPS);
  const variant pages[] = {{"huge pages (kept: numpy's way)", 0, tuned_same_w4, c, x, y, o},
                           {"4 KiB pages", 0, tuned_same_w4, c_small, x_small, y_small, o_small}};
  compare("page size of the buffers:", pages, 2);
  const variant stores[] = {
    {"plain stores", 0, tuned_same_w4, c, x, y, o},
    {"non-temporal, 1 KiB chunks", 1024, where_chunked, c, x, y, o2},
    {"non-temporal, 2 KiB chunks (kept)", 2048, where_chunked, c, x, y, o2},
    {"non-temporal, 4 KiB chunks", 4096, where_chunked, c, x, y, o2},
    {"non-temporal, 8 KiB chunks", 8192, where_chunked, c, x, y, o2},
    {"non-temporal, 16 KiB chunks", 16384, where_chunked, c, x, y, o2},
    {"non-temporal, intrinsics in the loop", 0, where_stream, c, x, y, o2}};
  compare("stores of a 64 MB output (generated code streams past WC_STREAM_MIN_BYTES):", stores, 7);
  const variant cond[] = {{"bool bytes (kept)", 0, tuned_same_w4, c, x, y, o},
                          {"bit-packed condition", 0, where_bits, bits, x, y, o2}};
  compare("condition format:", cond, 2);
  return 0;
}
