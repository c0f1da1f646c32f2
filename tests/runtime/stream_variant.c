/* stream_variant.c: wc_stream_copy and its fence as one function, compiled by
   another compiler for test_stream (STREAM_VARIANT names it). */
#include <wherec/stream.h>

void STREAM_VARIANT(void *dst, const void *src, size_t bytes);
void STREAM_VARIANT(void *dst, const void *src, size_t bytes) {
  wc_stream_copy(dst, src, bytes);
  wc_stream_fence();
}
