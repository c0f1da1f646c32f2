/* wherec/stream.h: streaming (non-temporal) stores for outputs larger than the
   last-level cache, and the thresholds generated kernels stream by. */
#ifndef WHEREC_STREAM_H
#define WHEREC_STREAM_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- outputs larger than the last-level cache -------------------------------
   A generated kernel whose whole output has at least WC_STREAM_MIN_BYTES bytes
   computes it in chunks of WC_STREAM_CHUNK bytes in L1 (2 KiB measured best of
   1 to 16 KiB) and writes each with non-temporal stores (wc_stream_copy): the
   output's lines are not read from memory before they are written, 12-15%
   faster for a 16M float or int64 where here. Which kernels may stream is the
   generator's choice (gen/back/lower.c, plan_streaming). The default is this
   machine's L3 (32 MiB); define either when compiling generated code to tune
   it: WC_STREAM_MIN_BYTES=1 streams every call (tests do), SIZE_MAX none. */
#ifndef WC_STREAM_MIN_BYTES
#define WC_STREAM_MIN_BYTES ((size_t)32 << 20)
#endif
/* That holds for rows copied whole (a row select: where(c[N,1], x[N,M], y[N,M]),
   or a scalar condition), 1.3-1.6x faster than memcpy on either kind of pages.
   Rows computed in L1 chunks and streamed out win on huge pages (5-15% for a
   float or int64 where of three full operands) but lose on 4 KiB pages, what
   plain malloc gives (8-10%; bench, builds x pages): so they stream only from
   WC_STREAM_COMPUTED_MIN_BYTES, by default never. A runtime whose buffers sit on
   huge pages defines it, to WC_STREAM_MIN_BYTES for example. */
#ifndef WC_STREAM_COMPUTED_MIN_BYTES
#define WC_STREAM_COMPUTED_MIN_BYTES SIZE_MAX
#endif
#ifndef WC_STREAM_CHUNK
#define WC_STREAM_CHUNK 2048
#endif

/* Copies bytes from src to dst (not overlapping, or the same buffer) with
   non-temporal stores where the target has them (SSE2 under gcc or clang,
   through their builtins: generated code includes no intrinsics header), else
   memcpy. They are weakly ordered: a kernel calls wc_stream_fence once before
   it returns (a fence per copy would wait for every chunk to reach memory). */
#if defined(__SSE2__) && defined(__GNUC__)
typedef long long wc_v2di_ __attribute__((vector_size(16)));
static inline void wc_stream_copy(void *dst, const void *src, size_t bytes) {
  char *d = (char *)dst;
  const char *s = (const char *)src;
  size_t head = (size_t)(-(uintptr_t)d & 15u);         /* movntdq stores 16-byte aligned */
  if (d == s) return;
  if (head > bytes) head = bytes;
  memcpy(d, s, head);
  for (d += head, s += head, bytes -= head; bytes >= 16; bytes -= 16, d += 16, s += 16) {
    wc_v2di_ v;
    memcpy(&v, s, 16);
#if defined(__clang__)
    __builtin_nontemporal_store(v, (wc_v2di_ *)(void *)d);
#else
    __builtin_ia32_movntdq((wc_v2di_ *)(void *)d, v);
#endif
  }
  memcpy(d, s, bytes);
}
static inline void wc_stream_fence(void) { __builtin_ia32_sfence(); }
#else
static inline void wc_stream_copy(void *dst, const void *src, size_t bytes) {
  if (dst != src) memcpy(dst, src, bytes);
}
static inline void wc_stream_fence(void) {}
#endif

#ifdef __cplusplus
}
#endif
#endif
