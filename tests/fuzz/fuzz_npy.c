/* fuzz_npy.c: libFuzzer target of the .npy reader (gen/run/npy.h): any bytes either
   fail with a one-line message or give a valid tensor that survives npy_encode and a re-read. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run/npy.h"

static void fail(const char *what, const char *detail) {
  fprintf(stderr, "fuzz_npy: %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
  abort();
}

/* a and b hold the same array (strings compared as text). */
static bool same_array(const wc_tensor *a, const wc_tensor *b, int64_t count) {
  if (a->dtype != b->dtype || a->rank != b->rank) return false;
  for (int d = 0; d < a->rank; d++)
    if (a->shape[d] != b->shape[d]) return false;
  if (a->dtype == WC_STRING) {
    const char *const *sa = a->data, *const *sb = b->data;
    for (int64_t i = 0; i < count; i++)
      if (strcmp(sa[i], sb[i]) != 0) return false;
    return true;
  }
  return count == 0 || memcmp(a->data, b->data, (size_t)count * wc_dtype_size(a->dtype)) == 0;
}

/* One read with the dtype the caller expects (0 or bfloat16). */
static void read_as(const uint8_t *data, size_t size, wc_dtype want) {
  npy_array a, b;
  char err[256] = "";
  unsigned char *buf;
  size_t len;
  int64_t count, n;
  if (!npy_parse(data, size, want, &a, err, sizeof err)) {
    if (err[0] == '\0' || strchr(err, '\n')) fail("a refusal without a one-line message", err);
    if (a.t.data != NULL || a.strings != NULL) fail("a refusal left data behind", err);
    return;
  }
  /* the runtime accepts the tensor, and every element is there to read */
  if (wc_count_true(&a.t, &n) != WC_OK) fail("the tensor read is not a valid descriptor", a.descr);
  count = 1;
  for (int d = 0; d < a.t.rank; d++) count *= a.t.shape[d];
  if (!npy_encode(&a.t, &buf, &len, err, sizeof err)) fail("npy_encode refused what was read", err);
  if (!npy_parse(buf, len, want, &b, err, sizeof err)) fail("npy_encode's output does not read", err);
  if (!same_array(&a.t, &b.t, count)) fail("the array changed through npy_encode", a.descr);
  free(buf);
  npy_free(&b);
  npy_free(&a);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  read_as(data, size, (wc_dtype)0);
  read_as(data, size, WC_BFLOAT16);
  (void)npy_descr((wc_dtype)(size % 20));
  return 0;
}
