/* test_check.c: `wherec check`'s driver (gen/check/check.c) end to end, with a stand-in
   gen_generate that writes the hand-made generated-style files of tests/gen/check/. */
#define _POSIX_C_SOURCE 200809L

#include <dirent.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "check/check.h"
#include "back/driver.h"
#include "base/file.h"
#include "handmade.h"

#ifndef CHECK_FIXTURES
#error "CHECK_FIXTURES: the tests/gen/check directory"
#endif
#ifndef CHECK_TEST_CC
#define CHECK_TEST_CC "clang"
#endif

/* ---- the stand-in generator --------------------------------------------- */

static int         stub_rc;            /* what gen_generate returns */
static const char *stub_source;        /* text of handmade.c; NULL: the fixture's */

/* The whole file, NUL-terminated, or NULL: the generator's own reader. */
static char *read_all(const char *path) {
  size_t len;
  return file_read(path, &len, SIZE_MAX);
}

static bool write_all(const char *path, const char *text) {
  FILE *f = fopen(path, "wb");
  if (f == NULL) return false;
  bool ok = fputs(text, f) >= 0;
  return fclose(f) == 0 && ok;
}

/* Writes DIR/handmade.h and DIR/handmade.c as the generator would. */
int gen_generate(const char *spec_path, const char *out_dir, const gen_options *opt, FILE *err,
                 gen_result *result) {
  char path[4096];
  if (stub_rc != 0) {
    fprintf(err, "%s:1:1: error: stand-in spec error\n", spec_path);
    return stub_rc;
  }
  char *h = read_all(CHECK_FIXTURES "/handmade.h");
  char *c = stub_source ? NULL : read_all(CHECK_FIXTURES "/handmade.c");
  snprintf(path, sizeof path, "%s/handmade.h", out_dir);
  bool ok = h && write_all(path, h);
  snprintf(path, sizeof path, "%s/handmade.c", out_dir);
  ok = ok && write_all(path, stub_source ? stub_source : c ? c : "");
  free(h);
  free(c);
  snprintf(result->prefix, sizeof result->prefix, "handmade");
  result->n_unrolls = 1;                               /* what the generator reports it used */
  result->unrolls[0] = opt->unroll > 0 ? opt->unroll : HANDMADE_UNROLL;
  return ok ? 0 : 4;
}

/* ---- running check with its output captured ------------------------------ */

typedef struct run_result {
  int   rc;
  char *out;                           /* what the harness printed (stdout) */
  char *err;                           /* check's messages */
} run_result;

static char tmp_root[256];             /* TMPDIR of every run: leftovers are visible */

/* check_run with stdout and err captured in files. */
static run_result run_check(const check_options *opt) {
  char out_path[300], err_path[300];
  run_result r;
  snprintf(out_path, sizeof out_path, "%s.out", tmp_root);
  snprintf(err_path, sizeof err_path, "%s.err", tmp_root);
  FILE *err = fopen(err_path, "w");
  int fd = open(out_path, O_WRONLY | O_CREAT | O_TRUNC, 0644), saved = dup(1);
  assert_non_null(err);
  assert_true(fd >= 0 && saved >= 0);
  fflush(stdout);
  dup2(fd, 1);                         /* the harness inherits fd 1 */
  r.rc = check_run("handmade.where", opt, err);
  fflush(stdout);
  dup2(saved, 1);
  close(saved);
  close(fd);
  fclose(err);
  r.out = read_all(out_path);
  r.err = read_all(err_path);
  unlink(out_path);
  unlink(err_path);
  assert_non_null(r.out);
  assert_non_null(r.err);
  return r;
}

static void free_result(run_result *r) {
  free(r->out);
  free(r->err);
}

/* Directories check left in tmp_root; each one kept is removed here. */
static int leftovers(void) {
  DIR *d = opendir(tmp_root);
  struct dirent *e;
  int n = 0;
  char path[600], file[900];
  assert_non_null(d);
  while ((e = readdir(d)) != NULL) {
    if (strncmp(e->d_name, "wherec-check-", 13) != 0) continue;
    n++;
    snprintf(path, sizeof path, "%s/%s", tmp_root, e->d_name);
    DIR *k = opendir(path);
    struct dirent *f;
    while (k && (f = readdir(k)) != NULL) {
      snprintf(file, sizeof file, "%s/%s", path, f->d_name);
      if (f->d_name[0] != '.') unlink(file);
    }
    if (k) closedir(k);
    rmdir(path);
  }
  closedir(d);
  return n;
}

static check_options options(void) {
  check_options o = {CHECK_TEST_CC, "6", "7", false, 0, NULL, NULL};
  return o;
}

static int setup(void **state) {
  (void)state;
  stub_rc = 0;
  stub_source = NULL;
  return 0;
}

/* ---- the tests ------------------------------------------------------------- */

static void test_check_passes_and_removes_its_directory_when_all_kernels_match(void **state) {
  (void)state;
  check_options o = options();
  run_result r = run_check(&o);
  assert_int_equal(r.rc, GEN_EXIT_OK);
  assert_non_null(strstr(r.out, "9 kernels, 54 trials, 0 mismatches"));
  assert_non_null(strstr(r.out, "unroll 4"));          /* the stand-in reports HANDMADE_UNROLL */
  assert_int_equal(leftovers(), 0);
  free_result(&r);
}

static void test_check_exits_3_names_kernel_and_index_and_keeps_directory_on_mismatch(void **state) {
  (void)state;
  stub_source = "#define HANDMADE_SWAP_AT 5\n#include \"" CHECK_FIXTURES "/handmade.c\"\n";
  check_options o = options();
  o.trials = "16";
  run_result r = run_check(&o);
  assert_int_equal(r.rc, GEN_EXIT_MISMATCH);
  assert_non_null(strstr(r.out, "mismatch in kernel 'pick'"));
  assert_non_null(strstr(r.out, "first at flat index 5 "));
  assert_non_null(strstr(r.err, "kept in"));
  assert_int_equal(leftovers(), 1);
  free_result(&r);
}

static void test_check_exits_4_naming_the_command_when_generated_code_does_not_compile(void **state) {
  (void)state;
  stub_source = "#include \"handmade.h\"\nint handmade_broken(void) { int unused; return 0; }\n";
  check_options o = options();
  run_result r = run_check(&o);
  assert_int_equal(r.rc, GEN_EXIT_TOOLCHAIN);
  assert_non_null(strstr(r.err, "compiling the generated code failed"));
  assert_non_null(strstr(r.err, "-std=c99 -Wall -Wextra -Werror -pedantic -O2"));
  assert_non_null(strstr(r.err, "unused"));            /* the compiler's own message */
  assert_non_null(strstr(r.err, "kept in"));
  assert_int_equal(leftovers(), 1);
  free_result(&r);
}

static void test_check_exits_4_and_cleans_up_when_the_compiler_is_missing(void **state) {
  (void)state;
  check_options o = options();
  o.cc = "/nonexistent/wherec-test-cc";
  run_result r = run_check(&o);
  assert_int_equal(r.rc, GEN_EXIT_TOOLCHAIN);
  assert_non_null(strstr(r.err, "cannot run the compiler '/nonexistent/wherec-test-cc'"));
  assert_int_equal(leftovers(), 0);
  free_result(&r);
}

/* Past the argv's room the "-o obj" would fall off and the compiler would write
   handmade.o into the working directory: check refuses to run such a command. */
static void test_check_refuses_a_compile_command_too_long_for_its_argv(void **state) {
  (void)state;
  char cflags[39 * 4 + 1] = "";                       /* 39 words: "-o obj" just past the end */
  for (int i = 0; i < 39; i++) strcat(cflags, "-O2 ");
  check_options o = options();
  o.cflags = cflags;
  unlink("handmade.o");
  run_result r = run_check(&o);
  assert_int_equal(r.rc, GEN_EXIT_TOOLCHAIN);
  assert_non_null(strstr(r.err, "compiling the generated code needs "));
  assert_non_null(strstr(r.err, " arguments; the limit is 48"));
  assert_int_equal(access("handmade.o", F_OK), -1);
  assert_int_equal(leftovers(), 1);
  free_result(&r);
}

/* --cflags longer than its buffer is refused before anything is made, not cut
   (possibly inside a flag) and compiled. */
static void test_check_refuses_cflags_too_long_to_hold_whole(void **state) {
  (void)state;
  static char cflags[8192];
  memset(cflags, 'x', sizeof cflags - 1);
  memcpy(cflags, "-DX=", 4);
  check_options o = options();
  o.cflags = cflags;
  run_result r = run_check(&o);
  assert_int_equal(r.rc, GEN_EXIT_TOOLCHAIN);
  assert_non_null(strstr(r.err, "--cflags is longer than"));
  assert_int_equal(leftovers(), 0);
  free_result(&r);
}

static void test_check_exits_1_on_spec_errors_without_building(void **state) {
  (void)state;
  stub_rc = 1;
  check_options o = options();
  run_result r = run_check(&o);
  assert_int_equal(r.rc, GEN_EXIT_BAD_INPUT);
  assert_non_null(strstr(r.err, "stand-in spec error"));
  assert_string_equal(r.out, "");
  assert_int_equal(leftovers(), 0);
  free_result(&r);
}

static void test_check_exits_4_when_the_generator_cannot_write(void **state) {
  (void)state;
  stub_rc = 4;
  check_options o = options();
  run_result r = run_check(&o);
  assert_int_equal(r.rc, GEN_EXIT_TOOLCHAIN);
  assert_int_equal(leftovers(), 0);
  free_result(&r);
}

static void test_check_environment_overrides_the_runtime_library_path(void **state) {
  (void)state;
  setenv("WHEREC_RUNTIME_LIB", "/nonexistent/libwherec.a", 1);
  check_options o = options();
  run_result r = run_check(&o);
  unsetenv("WHEREC_RUNTIME_LIB");
  assert_int_equal(r.rc, GEN_EXIT_TOOLCHAIN);
  assert_non_null(strstr(r.err, "cannot find /nonexistent/libwherec.a"));
  assert_int_equal(leftovers(), 0);
  free_result(&r);
}

static void test_check_unroll_option_is_passed_to_the_harness(void **state) {
  (void)state;
  check_options o = options();
  o.unroll = 3;
  run_result r = run_check(&o);
  assert_int_equal(r.rc, GEN_EXIT_OK);
  assert_non_null(strstr(r.out, "unroll 3\n"));
  free_result(&r);
}

static void test_check_sanitize_builds_and_passes_under_asan_and_ubsan(void **state) {
  (void)state;
  check_options o = options();
  o.sanitize = true;
  o.trials = "3";
  run_result r = run_check(&o);
  assert_int_equal(r.rc, GEN_EXIT_OK);
  assert_non_null(strstr(r.out, "0 mismatches"));
  assert_int_equal(leftovers(), 0);
  free_result(&r);
}

int main(void) {
  const char *base = getenv("TMPDIR");
  snprintf(tmp_root, sizeof tmp_root, "%s/wherec-test-check-XXXXXX", base && *base ? base : "/tmp");
  if (mkdtemp(tmp_root) == NULL) return 1;
  setenv("TMPDIR", tmp_root, 1);
#define T(f) cmocka_unit_test_setup(f, setup)
  const struct CMUnitTest tests[] = {
    T(test_check_passes_and_removes_its_directory_when_all_kernels_match),
    T(test_check_exits_3_names_kernel_and_index_and_keeps_directory_on_mismatch),
    T(test_check_exits_4_naming_the_command_when_generated_code_does_not_compile),
    T(test_check_exits_4_and_cleans_up_when_the_compiler_is_missing),
    T(test_check_refuses_a_compile_command_too_long_for_its_argv),
    T(test_check_refuses_cflags_too_long_to_hold_whole),
    T(test_check_exits_1_on_spec_errors_without_building),
    T(test_check_exits_4_when_the_generator_cannot_write),
    T(test_check_environment_overrides_the_runtime_library_path),
    T(test_check_unroll_option_is_passed_to_the_harness),
    T(test_check_sanitize_builds_and_passes_under_asan_and_ubsan),
  };
#undef T
  int failed = cmocka_run_group_tests(tests, NULL, NULL);
  leftovers();
  rmdir(tmp_root);
  return failed;
}
