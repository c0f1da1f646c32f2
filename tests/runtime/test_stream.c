/* test_stream.c: wherec/stream.h's streaming copy, which generated kernels use
   for outputs past the last-level cache: every length around the 16-byte
   stores, from and to every alignment, and in place; nothing outside the
   destination written. Built with the compiler under test (its builtins) and
   with clang when the suite has it (clang's non-temporal store builtin). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include <wherec/stream.h>

enum { MAX_LEN = 300, PAD = 32, CANARY = 0xc3 };

typedef void copy_fn(void *dst, const void *src, size_t bytes);
static void  copy_here(void *dst, const void *src, size_t bytes) {
   wc_stream_copy(dst, src, bytes);
   wc_stream_fence();
}
#ifdef HAVE_STREAM_CLANG
copy_fn stream_clang;
#endif
static copy_fn *const builds[] = {
    copy_here,
#ifdef HAVE_STREAM_CLANG
    stream_clang,
#endif
};
enum { N_BUILDS = sizeof builds / sizeof builds[0] };

static void test_stream_copy_copies_every_length_and_alignment_and_nothing_else(void **state) {
  (void)state;
  static unsigned char src[MAX_LEN + 2 * PAD], dst[MAX_LEN + 2 * PAD];
  for (size_t i = 0; i < sizeof src; i++) src[i] = (unsigned char)(i * 131u + 7u);
  for (int b = 0; b < N_BUILDS; b++)
    for (size_t len = 0; len <= MAX_LEN; len++)
      for (size_t to = 0; to < 16; to++)
        for (size_t from = 0; from < 16; from += 5) {
          memset(dst, CANARY, sizeof dst);
          builds[b](dst + PAD + to, src + PAD + from, len);
          assert_memory_equal(dst + PAD + to, src + PAD + from, len);
          for (size_t i = 0; i < PAD + to; i++) assert_int_equal(dst[i], CANARY);
          for (size_t i = PAD + to + len; i < sizeof dst; i++) assert_int_equal(dst[i], CANARY);
        }
}

/* dst == src (an in-place kernel call): the bytes stay as they were. */
static void test_stream_copy_onto_itself_keeps_the_bytes(void **state) {
  (void)state;
  unsigned char b[MAX_LEN], want[MAX_LEN];
  for (size_t i = 0; i < sizeof b; i++) b[i] = want[i] = (unsigned char)(i ^ 0x5a);
  for (int k = 0; k < N_BUILDS; k++)
    for (size_t at = 0; at < 16; at++) {
      builds[k](b + at, b + at, sizeof b - at);
      assert_memory_equal(b, want, sizeof b);
    }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_stream_copy_copies_every_length_and_alignment_and_nothing_else),
      cmocka_unit_test(test_stream_copy_onto_itself_keeps_the_bytes),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
