/* test_golden.c: the generator's output, byte for byte: golden specs under
   tests/golden/ against their committed .h/.c, and generated/ against what the
   generator makes now. WHEREC_UPDATE_GOLDEN=1 rewrites the golden files. */
#include <setjmp.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "driver.h"

static char *slurp(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  *len = 0;
  if (f == NULL) return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *buf = malloc((size_t)n + 1);
  *len = fread(buf, 1, (size_t)n, f);
  buf[*len] = '\0';
  fclose(f);
  return buf;
}

/* Generates spec (relative to the source tree) into a temp dir and compares
   prefix.h / prefix.c with those in expect_dir; update: copy them there. */
static void check_outputs(const char *spec, const char *expect_dir, const char *prefix) {
  char tmp[] = "/tmp/wherec-golden-XXXXXX", got_path[512], want_path[512], used[128];
  bool update = getenv("WHEREC_UPDATE_GOLDEN") != NULL;
  assert_non_null(mkdtemp(tmp));
  assert_int_equal(chdir(WHEREC_SOURCE_DIR), 0);      /* the spec path is printed: keep it relative */
  assert_int_equal(gen_generate(spec, tmp, NULL, stderr, used, sizeof used), 0);
  assert_string_equal(used, prefix);
  static const char *const ext[] = {"h", "c"};
  for (int i = 0; i < 2; i++) {
    size_t gl, wl;
    snprintf(got_path, sizeof got_path, "%s/%s.%s", tmp, prefix, ext[i]);
    snprintf(want_path, sizeof want_path, "%s/%s.%s", expect_dir, prefix, ext[i]);
    char *got = slurp(got_path, &gl);
    assert_non_null(got);
    if (update) {
      FILE *f = fopen(want_path, "wb");
      assert_non_null(f);
      fwrite(got, 1, gl, f);
      fclose(f);
    }
    char *want = slurp(want_path, &wl);
    if (want == NULL || gl != wl || memcmp(got, want, gl) != 0)
      fail_msg("%s differs from what the generator makes now (%s); "
               "run with WHEREC_UPDATE_GOLDEN=1 if the change is intended", want_path, got_path);
    free(got);
    free(want);
    unlink(got_path);
  }
  rmdir(tmp);
}

static void test_golden_basic_spec_renders_the_committed_c(void **state) {
  (void)state;
  check_outputs("tests/golden/basic.where", "tests/golden", "golden");
}

static void test_generated_builtin_kernels_are_current(void **state) {
  (void)state;
  check_outputs("generated/wc_builtin.where", "generated", "wc_builtin");
}

static void test_generation_is_deterministic(void **state) {
  (void)state;
  char a[] = "/tmp/wherec-det-a-XXXXXX", b[] = "/tmp/wherec-det-b-XXXXXX", pa[512], pb[512], used[64];
  assert_non_null(mkdtemp(a));
  assert_non_null(mkdtemp(b));
  assert_int_equal(chdir(WHEREC_SOURCE_DIR), 0);
  assert_int_equal(gen_generate("examples/onnx_where.where", a, NULL, stderr, used, sizeof used), 0);
  assert_int_equal(gen_generate("examples/onnx_where.where", b, NULL, stderr, used, sizeof used), 0);
  static const char *const ext[] = {"h", "c"};
  for (int i = 0; i < 2; i++) {
    size_t la, lb;
    snprintf(pa, sizeof pa, "%s/%s.%s", a, used, ext[i]);
    snprintf(pb, sizeof pb, "%s/%s.%s", b, used, ext[i]);
    char *x = slurp(pa, &la), *y = slurp(pb, &lb);
    assert_non_null(x);
    assert_non_null(y);
    assert_int_equal(la, lb);
    assert_memory_equal(x, y, la);
    free(x);
    free(y);
    unlink(pa);
    unlink(pb);
  }
  rmdir(a);
  rmdir(b);
}

/* `a` and `a_range` pass the spec's rules but both define <prefix>_a_range. */
static void test_kernel_names_that_clash_in_c_are_errors_and_write_nothing(void **state) {
  (void)state;
  char dir[] = "/tmp/wherec-clash-XXXXXX", spec[600], out[600], used[64];
  assert_non_null(mkdtemp(dir));
  snprintf(spec, sizeof spec, "%s/clash.where", dir);
  snprintf(out, sizeof out, "%s/out", dir);
  FILE *f = fopen(spec, "w");
  assert_non_null(f);
  fputs("kernel a(x: float[N]) = x;\nkernel a_range(x: float[N]) = x;\nkernel table(x: int8[]) = x;\n", f);
  fclose(f);
  FILE *err = tmpfile();
  assert_int_equal(gen_generate(spec, out, NULL, err, used, sizeof used), 1);
  rewind(err);
  char text[4096];
  size_t n = fread(text, 1, sizeof text - 1, err);
  text[n] = '\0';
  fclose(err);
  assert_non_null(strstr(text, "clash.where:2:8: error: kernels 'a' and 'a_range' would both define"));
  assert_non_null(strstr(text, "clash.where:3:8: error: kernel name 'table' would define"));
  assert_int_equal(access(out, F_OK), -1);            /* nothing written, not even the directory */
  unlink(spec);
  rmdir(dir);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_golden_basic_spec_renders_the_committed_c),
    cmocka_unit_test(test_generated_builtin_kernels_are_current),
    cmocka_unit_test(test_generation_is_deterministic),
    cmocka_unit_test(test_kernel_names_that_clash_in_c_are_errors_and_write_nothing),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
