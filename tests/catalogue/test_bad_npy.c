/* test_bad_npy.c: the .npy half of the bad-input catalogue: each truncated or garbage
   file under tests/catalogue/npy/ is refused by npy_read with exactly its message. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "run/npy.h"

#ifndef WHEREC_CATALOGUE_DIR
#error "WHEREC_CATALOGUE_DIR must name tests/catalogue"
#endif

/* File under npy/ and the one-line message npy_read gives for it. */
static const struct { const char *file, *message; } cases[] = {
  {"001-empty-file.npy",
   "not a .npy file (bad magic)"},
  {"002-truncated-magic.npy",
   "not a .npy file (bad magic)"},
  {"003-magic-only.npy",
   "truncated header"},
  {"004-format-version-4.npy",
   "unsupported .npy format version 4.0"},
  {"005-header-length-past-the-end.npy",
   "truncated header (118 bytes announced, 30 present)"},
  {"006-version-2-header-over-64-kib.npy",
   "header too long (70000 bytes; the limit is 65536)"},
  {"007-nul-byte-in-the-header.npy",
   "malformed header: NUL byte"},
  {"008-header-not-a-dict.npy",
   "malformed header: not a dict"},
  {"009-fortran-order.npy",
   "Fortran-order arrays are not supported; save np.ascontiguousarray(a)"},
  {"010-big-endian-float.npy",
   "big-endian dtype '>f4' is not supported; convert with .astype('<f4')"},
  {"011-object-array.npy",
   "object arrays ('|O') are not supported"},
  {"012-unicode-strings.npy",
   "unicode strings ('<U3') are not supported; save bytes (dtype 'S')"},
  {"013-negative-extent.npy",
   "negative extent in 'shape'"},
  {"014-extent-past-int64.npy",
   "shape overflow: an extent exceeds 2^63-1"},
  {"015-element-count-past-int64.npy",
   "shape overflow: the element count does not fit in 64 bits"},
  {"016-rank-17.npy",
   "rank exceeds 16 (the largest wherec supports)"},
  {"017-truncated-data.npy",
   "truncated data (16 bytes expected, 8 present)"},
  {"018-bytes-after-the-data.npy",
   "4 unexpected bytes after the data"},
  {"019-missing-shape.npy",
   "malformed header: missing key 'shape'"},
  {"020-repeated-key.npy",
   "malformed header: unexpected or repeated key 'descr'"},
  {"021-raw-2-byte-dtype-for-a-float-parameter.npy",
   "raw 2-byte dtype '<V2' (bfloat16?) is accepted only for a bfloat16 parameter"},
  {"022-structured-dtype.npy",
   "structured dtypes are not supported"},
  {"023-zero-width-strings.npy",
   "zero-width strings ('|S0') are not supported"},
  {"024-random-bytes.npy",
   "not a .npy file (bad magic)"},
  {"025-elf-header.npy",
   "not a .npy file (bad magic)"},
  {"026-unterminated-string-in-the-header.npy",
   "malformed header: expected ',' or '}'"},
};

static void test_every_bad_npy_file_is_refused_with_its_message(void **state) {
  (void)state;
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    char path[512], err[256] = "";
    npy_array a;
    snprintf(path, sizeof path, "%s/npy/%s", WHEREC_CATALOGUE_DIR, cases[i].file);
    if (npy_read(path, (wc_dtype)0, &a, err, sizeof err)) fail_msg("%s was accepted", cases[i].file);
    if (strcmp(err, cases[i].message) != 0)
      fail_msg("%s: message \"%s\", expected \"%s\"", cases[i].file, err, cases[i].message);
    assert_null(a.t.data);
    assert_null(a.strings);
  }
}

/* Every prefix of a good file (a file cut short anywhere) is refused with a
   message, also when the caller expects bfloat16 (which widens the dtypes read). */
static void test_truncated_npy_files_are_refused_at_every_length(void **state) {
  static const char header[] = "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }";
  static const float values[2] = {1, 2};
  unsigned char good[128 + sizeof values];
  npy_array a;
  char err[256];
  (void)state;
  memset(good, ' ', sizeof good);
  memcpy(good, "\x93NUMPY\x01\x00\x76\x00", 10);        /* version 1.0, 118 header bytes */
  memcpy(good + 10, header, sizeof header - 1);
  good[127] = '\n';
  memcpy(good + 128, values, sizeof values);
  assert_true(npy_parse(good, sizeof good, (wc_dtype)0, &a, err, sizeof err));
  npy_free(&a);
  for (size_t n = 0; n < sizeof good; n++) {
    err[0] = '\0';
    assert_false(npy_parse(good, n, WC_BFLOAT16, &a, err, sizeof err));
    assert_true(err[0] != '\0');
    assert_null(a.t.data);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_every_bad_npy_file_is_refused_with_its_message),
    cmocka_unit_test(test_truncated_npy_files_are_refused_at_every_length),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
