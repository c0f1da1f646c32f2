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

#include "back/driver.h"
#include "back/lower.h"
#include "front/parse.h"
#include "front/sema.h"

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
  char tmp[] = "/tmp/wherec-golden-XXXXXX", got_path[512], want_path[512];
  gen_result used;
  bool update = getenv("WHEREC_UPDATE_GOLDEN") != NULL;
  assert_non_null(mkdtemp(tmp));
  assert_int_equal(chdir(WHEREC_SOURCE_DIR), 0);      /* the spec path is printed: keep it relative */
  assert_int_equal(gen_generate(spec, tmp, NULL, stderr, &used), 0);
  assert_string_equal(used.prefix, prefix);
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
  char a[] = "/tmp/wherec-det-a-XXXXXX", b[] = "/tmp/wherec-det-b-XXXXXX", pa[512], pb[512];
  gen_result used;
  assert_non_null(mkdtemp(a));
  assert_non_null(mkdtemp(b));
  assert_int_equal(chdir(WHEREC_SOURCE_DIR), 0);
  assert_int_equal(gen_generate("examples/onnx_where.where", a, NULL, stderr, &used), 0);
  assert_int_equal(gen_generate("examples/onnx_where.where", b, NULL, stderr, &used), 0);
  static const char *const ext[] = {"h", "c"};
  for (int i = 0; i < 2; i++) {
    size_t la, lb;
    snprintf(pa, sizeof pa, "%s/%s.%s", a, used.prefix, ext[i]);
    snprintf(pb, sizeof pb, "%s/%s.%s", b, used.prefix, ext[i]);
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
  char dir[] = "/tmp/wherec-clash-XXXXXX", spec[600], out[600];
  gen_result used;
  assert_non_null(mkdtemp(dir));
  snprintf(spec, sizeof spec, "%s/clash.where", dir);
  snprintf(out, sizeof out, "%s/out", dir);
  FILE *f = fopen(spec, "w");
  assert_non_null(f);
  fputs("kernel a(x: float[N]) = x;\nkernel a_range(x: float[N]) = x;\nkernel table(x: int8[]) = x;\n", f);
  fclose(f);
  FILE *err = tmpfile();
  assert_int_equal(gen_generate(spec, out, NULL, err, &used), 1);
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

/* A file named __x.where would give reserved names (__x_k): refused as
   `option prefix = "__x"` is, with nothing written. */
static void test_prefix_from_a_file_name_follows_the_identifier_rule(void **state) {
  (void)state;
  char dir[] = "/tmp/wherec-prefix-XXXXXX", spec[600], out[600], text[4096];
  gen_result used;
  assert_non_null(mkdtemp(dir));
  snprintf(spec, sizeof spec, "%s/__x.where", dir);
  snprintf(out, sizeof out, "%s/out", dir);
  FILE *f = fopen(spec, "w");
  assert_non_null(f);
  fputs("kernel k(x: float[N]) = x;\n", f);
  fclose(f);
  FILE *err = tmpfile();
  assert_int_equal(gen_generate(spec, out, NULL, err, &used), 1);
  rewind(err);
  size_t n = fread(text, 1, sizeof text - 1, err);
  text[n] = '\0';
  fclose(err);
  assert_non_null(strstr(text, "error: the prefix '__x' taken from the file name is not a valid C identifier"));
  assert_int_equal(access(out, F_OK), -1);
  unlink(spec);
  rmdir(dir);
}

/* spec lowered through the whole front end with the given unroll factor (0:
   the spec's or the default); a failed test on any diagnostic. */
static lower_program *lower_str(const char *spec, int unroll, ast_file **af, sema_program **sp) {
  diag_ctx d;
  diag_init(&d, "t.where", spec, strlen(spec), stderr);
  *af = parse_source(spec, strlen(spec), &d);
  assert_non_null(*af);
  *sp = sema_check(*af, &d);
  assert_non_null(*sp);
  diag_free(&d);
  return lower_spec(*sp, unroll);
}

/* Sixteen symbolic extents of 255 bytes: the loop's extent expression is
   written whole (it once stopped at 1023 bytes, mid-name). */
static void test_extent_of_sixteen_long_names_is_written_whole(void **state) {
  char spec[8192], want[8192];
  size_t n = 0, w = 0;
  ast_file *af;
  sema_program *sp;
  (void)state;
  n += (size_t)sprintf(spec, "kernel k(x: float[");
  for (int d = 0; d < 16; d++) {
    if (d) { spec[n++] = ','; memcpy(want + w, " * ", 3); w += 3; }
    memset(spec + n, 'A' + d, 255);
    memset(want + w, 'A' + d, 255);
    n += 255;
    w += 255;
  }
  strcpy(spec + n, "]) = x;\n");
  want[w] = '\0';
  lower_program *lp = lower_str(spec, 0, &af, &sp);
  assert_non_null(lp);
  assert_int_equal(lp->kernels[0].n_loops, 1);
  assert_string_equal(lp->kernels[0].loops[0].extent, want);
  lower_free(lp);
  sema_free(sp);
  ast_file_free(af);
}

/* 2048 instances of a 41-operation kernel over 64 fixed elements would each be
   straight-line code: 2048 * 64 * 41 operations, about 260 MB of C. The file's
   budget keeps the first kernels straight and unrolled, the rest plain loops. */
static void test_straight_line_and_unrolled_code_of_a_file_is_bounded(void **state) {
  static const char spec[] =
    "option unroll = 8;\n"
    "kernel k<A: i8, i16, i32, i64, u8, u16, u32, u64, f16, bf16, f32, f64, bool, c64, c128, string,\n"
    "         B: i8, i16, i32, i64, u8, u16, u32, u64, f16, bf16, f32, f64, bool, c64, c128, string,\n"
    "         C: i8, i16, i32, i64, u8, u16, u32, u64>(x: f32[64], a: A[], b: B[], c: C[]) =\n"
    "  ((((x*2 + x*3) + (x*4 + (x*5 + x*6))) + ((x*7 + x*8) + (x*9 + (x*10 + x*11)))) +\n"
    "   (((x*12 + x*13) + (x*14 + (x*15 + x*16))) + ((x*17 + x*18) + (x*19 + (x*20 + (x*21 + x*22))))));\n";
  ast_file *af;
  sema_program *sp;
  int64_t emitted = 0, floor = 0;
  (void)state;
  lower_program *lp = lower_str(spec, 8, &af, &sp);
  assert_non_null(lp);
  assert_int_equal(lp->n_kernels, 2048);
  for (int i = 0; i < lp->n_kernels; i++) {
    const lower_kernel *k = &lp->kernels[i];
    int64_t work = 0;
    for (int j = 0; j < k->n_nodes; j++) work += k->nodes[j].level == LOWER_ELEM;
    emitted += work * (k->unroll + 1) + (k->straight ? k->total_fixed * work : 0);
    floor += work * 2;                                  /* a loop and its remainder */
  }
  assert_true(lp->kernels[0].straight);
  assert_int_equal(lp->kernels[0].unroll, 8);
  assert_false(lp->kernels[lp->n_kernels - 1].straight);
  assert_int_equal(lp->kernels[lp->n_kernels - 1].unroll, 1);
  assert_true(emitted <= LOWER_MAX_TOTAL_WORK + floor);
  lower_free(lp);
  sema_free(sp);
  ast_file_free(af);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_golden_basic_spec_renders_the_committed_c),
    cmocka_unit_test(test_generated_builtin_kernels_are_current),
    cmocka_unit_test(test_generation_is_deterministic),
    cmocka_unit_test(test_kernel_names_that_clash_in_c_are_errors_and_write_nothing),
    cmocka_unit_test(test_prefix_from_a_file_name_follows_the_identifier_rule),
    cmocka_unit_test(test_extent_of_sixteen_long_names_is_written_whole),
    cmocka_unit_test(test_straight_line_and_unrolled_code_of_a_file_is_bounded),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
