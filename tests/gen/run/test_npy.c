/* test_npy.c: the .npy reader and writer: every dtype round trip, numpy's exact
   header, every class of bad file with its message, and garbage that must not crash. */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "run/npy.h"

/* A .npy image from a header dict and data bytes (version 1, numpy padding). */
static size_t make_npy(unsigned char *out, size_t cap, int version, const char *dict,
                       const void *data, size_t n) {
  size_t dl = strlen(dict), pre = version == 1 ? 10 : 12;
  size_t hlen = dl + 1, pad = (64 - (pre + hlen) % 64) % 64;
  size_t total = pre + hlen + pad + n;
  assert_true(total <= cap);
  memcpy(out, "\x93NUMPY", 6);
  out[6] = (unsigned char)version;
  out[7] = 0;
  size_t h = hlen + pad;
  out[8] = (unsigned char)h;
  out[9] = (unsigned char)(h >> 8);
  if (version != 1) {
    out[10] = (unsigned char)(h >> 16);
    out[11] = (unsigned char)(h >> 24);
  }
  memcpy(out + pre, dict, dl);
  memset(out + pre + dl, ' ', pad);
  out[pre + dl + pad] = '\n';
  if (n) memcpy(out + pre + hlen + pad, data, n);
  return total;
}

/* Parses an image that must fail, and checks the message contains `expect`. */
static void expect_error(const unsigned char *buf, size_t len, wc_dtype want, const char *expect) {
  npy_array a;
  char err[256] = "";
  assert_false(npy_parse(buf, len, want, &a, err, sizeof err));
  if (strstr(err, expect) == NULL) fail_msg("message '%s' lacks '%s'", err, expect);
  assert_null(a.t.data);
}

static void expect_dict_error(const char *dict, const char *expect) {
  unsigned char buf[512];
  static const unsigned char data[64];
  size_t len = make_npy(buf, sizeof buf, 1, dict, data, 4);
  expect_error(buf, len, 0, expect);
}

/* Encodes t, parses it back, and checks dtype, shape and data bytes. */
static void round_trip(const wc_tensor *t, wc_dtype want) {
  unsigned char *buf;
  size_t len;
  char err[256];
  npy_array a;
  assert_true(npy_encode(t, &buf, &len, err, sizeof err));
  assert_int_equal((10 + (size_t)(buf[8] | buf[9] << 8)) % 64, 0);   /* data aligned to 64 */
  if (!npy_parse(buf, len, want, &a, err, sizeof err)) fail_msg("%s", err);
  assert_int_equal(a.t.dtype, t->dtype);
  assert_int_equal(a.t.rank, t->rank);
  size_t count = 1;
  for (int d = 0; d < t->rank; d++) {
    assert_int_equal(a.t.shape[d], t->shape[d]);
    count *= (size_t)t->shape[d];
  }
  if (t->dtype == WC_STRING) {
    for (size_t i = 0; i < count; i++)
      assert_string_equal(((const char **)a.t.data)[i], ((const char **)t->data)[i]);
  } else if (count) {
    assert_memory_equal(a.t.data, t->data, count * wc_dtype_size(t->dtype));
  }
  npy_free(&a);
  free(buf);
}

static void test_every_numeric_dtype_round_trips(void **state) {
  (void)state;
  static const wc_dtype all[] = {WC_BOOL, WC_INT8, WC_INT16, WC_INT32, WC_INT64, WC_UINT8,
                                 WC_UINT16, WC_UINT32, WC_UINT64, WC_FLOAT16, WC_FLOAT,
                                 WC_DOUBLE, WC_COMPLEX64, WC_COMPLEX128};
  unsigned char data[6 * 16];
  for (size_t i = 0; i < sizeof data; i++) data[i] = (unsigned char)(i * 37 + 11);
  for (size_t k = 0; k < sizeof all / sizeof *all; k++) {
    wc_tensor t = {all[k], 2, {2, 3}, data};
    if (all[k] == WC_BOOL)
      for (size_t i = 0; i < 6; i++) data[i] = (unsigned char)(i & 1);
    round_trip(&t, 0);
  }
}

static void test_scalar_and_zero_size_arrays_round_trip(void **state) {
  (void)state;
  double v = -0.0;
  wc_tensor scalar = {WC_DOUBLE, 0, {0}, &v};
  wc_tensor empty = {WC_FLOAT, 3, {4, 0, 2}, NULL};
  round_trip(&scalar, 0);
  round_trip(&empty, 0);
}

static void test_bfloat16_round_trips_as_uint16_bits(void **state) {
  (void)state;
  uint16_t bits[3] = {0x3fc0, 0xffc1, 0x8000};
  wc_tensor t = {WC_BFLOAT16, 1, {3}, bits};
  unsigned char *buf;
  size_t len;
  char err[128];
  assert_string_equal(npy_descr(WC_BFLOAT16), "<u2");
  assert_true(npy_encode(&t, &buf, &len, err, sizeof err));
  assert_non_null(strstr((char *)buf + 10, "'descr': '<u2'"));
  free(buf);
  round_trip(&t, WC_BFLOAT16);
}

static void test_bfloat16_parameter_accepts_u2_i2_and_raw_v2(void **state) {
  (void)state;
  static const char *const descr[] = {"<u2", "<i2", "<V2", "|V2"};
  uint16_t bits[2] = {0x3f80, 0x7fc0};
  for (size_t i = 0; i < 4; i++) {
    char dict[128];
    unsigned char buf[256];
    npy_array a;
    char err[128];
    snprintf(dict, sizeof dict, "{'descr': '%s', 'fortran_order': False, 'shape': (2,), }", descr[i]);
    size_t len = make_npy(buf, sizeof buf, 1, dict, bits, sizeof bits);
    assert_true(npy_parse(buf, len, WC_BFLOAT16, &a, err, sizeof err));
    assert_int_equal(a.t.dtype, WC_BFLOAT16);
    assert_memory_equal(a.t.data, bits, sizeof bits);
    npy_free(&a);
  }
}

static void test_raw_v2_without_bfloat16_parameter_is_rejected(void **state) {
  (void)state;
  expect_dict_error("{'descr': '<V2', 'fortran_order': False, 'shape': (2,), }",
                    "accepted only for a bfloat16 parameter");
}

static void test_strings_round_trip_as_fixed_width_bytes(void **state) {
  (void)state;
  const char *s[4] = {"ab", "", "xyz", NULL};
  const char *expect[4] = {"ab", "", "xyz", ""};
  wc_tensor t = {WC_STRING, 2, {2, 2}, s};
  wc_tensor e = {WC_STRING, 2, {2, 2}, expect};
  unsigned char *buf;
  size_t len;
  char err[128];
  assert_true(npy_encode(&t, &buf, &len, err, sizeof err));
  assert_non_null(strstr((char *)buf + 10, "'descr': '|S3'"));      /* the longest string */
  free(buf);
  round_trip(&e, 0);
}

static void test_full_width_string_gets_its_own_terminator(void **state) {
  (void)state;
  unsigned char buf[256];
  npy_array a;
  char err[128];
  size_t len = make_npy(buf, sizeof buf, 1, "{'descr': '|S3', 'fortran_order': False, 'shape': (2,), }",
                        "abcd\0\0", 6);
  assert_true(npy_parse(buf, len, 0, &a, err, sizeof err));
  assert_string_equal(((const char **)a.t.data)[0], "abc");
  assert_string_equal(((const char **)a.t.data)[1], "d");
  npy_free(&a);
}

static void test_all_empty_strings_are_written_as_width_one(void **state) {
  (void)state;
  const char *s[2] = {"", ""};
  wc_tensor t = {WC_STRING, 1, {2}, s};
  unsigned char *buf;
  size_t len;
  char err[128];
  assert_true(npy_encode(&t, &buf, &len, err, sizeof err));
  assert_non_null(strstr((char *)buf + 10, "'descr': '|S1'"));
  free(buf);
}

/* numpy.save(f, np.arange(3, dtype='<i4')) with numpy 1.24 and 2.x. */
static void test_header_is_byte_identical_to_numpy_save(void **state) {
  (void)state;
  static const char expect_hdr[] =
    "{'descr': '<i4', 'fortran_order': False, 'shape': (3,), }";
  int32_t v[3] = {0, 1, 2};
  wc_tensor t = {WC_INT32, 1, {3}, v};
  unsigned char *buf;
  size_t len;
  char err[128];
  assert_true(npy_encode(&t, &buf, &len, err, sizeof err));
  assert_int_equal(len, 128 + 12);
  assert_memory_equal(buf, "\x93NUMPY\x01\x00\x76\x00", 10);
  assert_memory_equal(buf + 10, expect_hdr, sizeof expect_hdr - 1);
  for (size_t i = 10 + sizeof expect_hdr - 1; i < 127; i++) assert_int_equal(buf[i], ' ');
  assert_int_equal(buf[127], '\n');
  assert_memory_equal(buf + 128, v, sizeof v);
  free(buf);
}

static void test_versions_two_and_three_are_read(void **state) {
  (void)state;
  for (int version = 2; version <= 3; version++) {
    unsigned char buf[256];
    npy_array a;
    char err[128];
    int16_t v[2] = {-5, 7};
    size_t len = make_npy(buf, sizeof buf, version,
                          "{'descr': '<i2', 'fortran_order': False, 'shape': (2,), }", v, sizeof v);
    assert_true(npy_parse(buf, len, 0, &a, err, sizeof err));
    assert_int_equal(a.t.dtype, WC_INT16);
    assert_memory_equal(a.t.data, v, sizeof v);
    npy_free(&a);
  }
}

static void test_python2_long_extents_and_double_quotes_are_read(void **state) {
  (void)state;
  unsigned char buf[256];
  npy_array a;
  char err[128];
  uint8_t v[6] = {1, 2, 3, 4, 5, 6};
  size_t len = make_npy(buf, sizeof buf, 1,
                        "{\"shape\": (2L, 3L), \"descr\": \"|u1\", \"fortran_order\": False}", v, 6);
  assert_true(npy_parse(buf, len, 0, &a, err, sizeof err));
  assert_int_equal(a.t.rank, 2);
  assert_int_equal(a.t.shape[1], 3);
  npy_free(&a);
}

static void test_bool_bytes_other_than_zero_read_as_true(void **state) {
  (void)state;
  unsigned char buf[256];
  npy_array a;
  char err[128];
  uint8_t v[3] = {0, 2, 255};
  size_t len = make_npy(buf, sizeof buf, 1, "{'descr': '|b1', 'fortran_order': False, 'shape': (3,), }", v, 3);
  assert_true(npy_parse(buf, len, 0, &a, err, sizeof err));
  assert_memory_equal(a.t.data, "\0\1\1", 3);
  npy_free(&a);
}

static void test_fortran_order_is_rejected(void **state) {
  (void)state;
  expect_dict_error("{'descr': '<f4', 'fortran_order': True, 'shape': (1,), }", "Fortran-order");
}

static void test_big_endian_is_rejected(void **state) {
  (void)state;
  expect_dict_error("{'descr': '>f4', 'fortran_order': False, 'shape': (1,), }", "big-endian dtype '>f4'");
}

static void test_object_arrays_are_rejected(void **state) {
  (void)state;
  expect_dict_error("{'descr': '|O', 'fortran_order': False, 'shape': (1,), }", "object arrays");
}

static void test_unicode_and_unknown_dtypes_are_rejected(void **state) {
  (void)state;
  expect_dict_error("{'descr': '<U3', 'fortran_order': False, 'shape': (1,), }", "unicode strings");
  expect_dict_error("{'descr': '<f16', 'fortran_order': False, 'shape': (1,), }", "unsupported dtype '<f16'");
  expect_dict_error("{'descr': '<M8[s]', 'fortran_order': False, 'shape': (1,), }", "unsupported dtype");
  expect_dict_error("{'descr': '|f4', 'fortran_order': False, 'shape': (1,), }", "unsupported dtype");
  expect_dict_error("{'descr': '|S0', 'fortran_order': False, 'shape': (1,), }", "zero-width");
  expect_dict_error("{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (1,), }", "structured");
}

static void test_bad_magic_and_version_are_rejected(void **state) {
  (void)state;
  unsigned char buf[256];
  size_t len = make_npy(buf, sizeof buf, 1, "{'descr': '<f4', 'fortran_order': False, 'shape': (), }", "abcd", 4);
  buf[1] = 'n';
  expect_error(buf, len, 0, "bad magic");
  buf[1] = 'N';
  buf[6] = 4;
  expect_error(buf, len, 0, "unsupported .npy format version 4.0");
  expect_error((const unsigned char *)"", 0, 0, "bad magic");
}

static void test_malformed_header_dicts_are_rejected(void **state) {
  (void)state;
  expect_dict_error("{'descr': '<f4', 'shape': (1,), }", "missing key 'fortran_order'");
  expect_dict_error("{'descr': '<f4', 'descr': '<f4', 'fortran_order': False, 'shape': (1,), }", "repeated key");
  expect_dict_error("{'descr': '<f4', 'fortran_order': False, 'shape': (1,), 'x': 1}", "unexpected");
  expect_dict_error("{'descr': '<f4', 'fortran_order': False, 'shape': [1], }", "not a tuple");
  expect_dict_error("{'descr': '<f4', 'fortran_order': False, 'shape': (-1,), }", "negative extent");
  expect_dict_error("{'descr': '<f4', 'fortran_order': 0, 'shape': (1,), }", "not a bool");
  expect_dict_error("{'descr': '<f4', 'fortran_order': False, 'shape': (1,), } x", "text after");
  expect_dict_error("['descr']", "not a dict");
  expect_dict_error("{'descr': '<f4", "malformed header");
}

static void test_shape_overflow_is_rejected(void **state) {
  (void)state;
  expect_dict_error("{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999999999999,), }",
                    "shape overflow");
  expect_dict_error("{'descr': '<f4', 'fortran_order': False, 'shape': (4294967296, 4294967296), }",
                    "shape overflow");
  expect_dict_error("{'descr': '<f8', 'fortran_order': False, 'shape': (4611686018427387904,), }",
                    "shape overflow");
  expect_dict_error("{'descr': '<f4', 'fortran_order': False, "
                    "'shape': (1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1), }", "rank exceeds 16");
}

static void test_header_too_long_is_rejected_before_reading_it(void **state) {
  (void)state;
  unsigned char buf[16] = "\x93NUMPY\x02\x00\xff\xff\xff\xff";
  expect_error(buf, 12, 0, "header too long");
}

static void test_truncated_data_and_trailing_bytes_are_rejected(void **state) {
  (void)state;
  unsigned char buf[256];
  size_t len = make_npy(buf, sizeof buf, 1, "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }",
                        "abcdefgh", 8);
  expect_error(buf, len - 1, 0, "truncated data (8 bytes expected, 7 present)");
  buf[len] = 0;
  expect_error(buf, len + 1, 0, "1 unexpected bytes after the data");
}

static void test_every_prefix_of_a_valid_file_fails_cleanly(void **state) {
  (void)state;
  unsigned char buf[256];
  size_t len = make_npy(buf, sizeof buf, 1, "{'descr': '<c8', 'fortran_order': False, 'shape': (1, 2), }",
                        "0123456789abcdef", 16);
  for (size_t n = 0; n < len; n++) {
    unsigned char *copy = malloc(n ? n : 1);   /* exact size, so ASan sees any overread */
    npy_array a;
    char err[128];
    memcpy(copy, buf, n);
    assert_false(npy_parse(copy, n, 0, &a, err, sizeof err));
    assert_true(strstr(err, "truncated") || strstr(err, "magic") || strstr(err, "malformed"));
    free(copy);
  }
}

/* xorshift64*: deterministic garbage. */
static uint64_t next_rand(uint64_t *s) {
  *s ^= *s >> 12;
  *s ^= *s << 25;
  *s ^= *s >> 27;
  return *s * 2685821657736338717ull;
}

static void test_random_bytes_and_bit_flips_never_crash(void **state) {
  (void)state;
  unsigned char valid[256];
  uint64_t seed = 0x5eed;
  size_t vlen = make_npy(valid, sizeof valid, 1,
                         "{'descr': '|S3', 'fortran_order': False, 'shape': (2, 2), }", "abcdefghijkl", 12);
  for (int iter = 0; iter < 20000; iter++) {
    size_t n = iter % 2 ? vlen : (size_t)(next_rand(&seed) % 200);
    unsigned char *b = malloc(n ? n : 1);
    npy_array a;
    char err[128];
    if (iter % 2) {
      memcpy(b, valid, n);
      for (int k = 0; k < 1 + iter % 4; k++) b[next_rand(&seed) % n] ^= (unsigned char)(1u << (next_rand(&seed) % 8));
    } else {
      for (size_t i = 0; i < n; i++) b[i] = (unsigned char)next_rand(&seed);
      if (n >= 8 && iter % 4 == 0) memcpy(b, "\x93NUMPY\x01\x00", 8);
    }
    if (npy_parse(b, n, iter % 3 ? 0 : WC_BFLOAT16, &a, err, sizeof err)) npy_free(&a);
    free(b);
  }
}

static void test_write_is_atomic_and_leaves_no_temporary(void **state) {
  (void)state;
  char dir[] = "/tmp/wherec_npy_XXXXXX", path[256], err[256];
  float v[2] = {1.0f, 2.0f};
  wc_tensor t = {WC_FLOAT, 1, {2}, v};
  wc_tensor bad = {(wc_dtype)99, 1, {2}, v};
  npy_array a;
  struct stat st;
  assert_non_null(mkdtemp(dir));
  snprintf(path, sizeof path, "%s/out.npy", dir);
  assert_false(npy_write(path, &bad, err, sizeof err));
  assert_int_equal(stat(path, &st), -1);                      /* nothing written on error */
  assert_true(npy_write(path, &t, err, sizeof err));
  assert_true(npy_read(path, 0, &a, err, sizeof err));
  assert_memory_equal(a.t.data, v, sizeof v);
  npy_free(&a);
  snprintf(path, sizeof path, "%s/missing/out.npy", dir);
  assert_false(npy_write(path, &t, err, sizeof err));
  assert_non_null(strstr(err, "cannot create"));
  snprintf(path, sizeof path, "%s/out.npy", dir);
  unlink(path);
  assert_int_equal(rmdir(dir), 0);                            /* no temporary left behind */
}

static void test_missing_file_is_reported(void **state) {
  (void)state;
  npy_array a;
  char err[256];
  assert_false(npy_read("/nonexistent/x.npy", 0, &a, err, sizeof err));
  assert_non_null(strstr(err, "cannot open"));
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_every_numeric_dtype_round_trips),
    cmocka_unit_test(test_scalar_and_zero_size_arrays_round_trip),
    cmocka_unit_test(test_bfloat16_round_trips_as_uint16_bits),
    cmocka_unit_test(test_bfloat16_parameter_accepts_u2_i2_and_raw_v2),
    cmocka_unit_test(test_raw_v2_without_bfloat16_parameter_is_rejected),
    cmocka_unit_test(test_strings_round_trip_as_fixed_width_bytes),
    cmocka_unit_test(test_full_width_string_gets_its_own_terminator),
    cmocka_unit_test(test_all_empty_strings_are_written_as_width_one),
    cmocka_unit_test(test_header_is_byte_identical_to_numpy_save),
    cmocka_unit_test(test_versions_two_and_three_are_read),
    cmocka_unit_test(test_python2_long_extents_and_double_quotes_are_read),
    cmocka_unit_test(test_bool_bytes_other_than_zero_read_as_true),
    cmocka_unit_test(test_fortran_order_is_rejected),
    cmocka_unit_test(test_big_endian_is_rejected),
    cmocka_unit_test(test_object_arrays_are_rejected),
    cmocka_unit_test(test_unicode_and_unknown_dtypes_are_rejected),
    cmocka_unit_test(test_bad_magic_and_version_are_rejected),
    cmocka_unit_test(test_malformed_header_dicts_are_rejected),
    cmocka_unit_test(test_shape_overflow_is_rejected),
    cmocka_unit_test(test_header_too_long_is_rejected_before_reading_it),
    cmocka_unit_test(test_truncated_data_and_trailing_bytes_are_rejected),
    cmocka_unit_test(test_every_prefix_of_a_valid_file_fails_cleanly),
    cmocka_unit_test(test_random_bytes_and_bit_flips_never_crash),
    cmocka_unit_test(test_write_is_atomic_and_leaves_no_temporary),
    cmocka_unit_test(test_missing_file_is_reported),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
