/* test_spawn.c: unit tests of gen/base/spawn.c, the one way wherec runs a toolchain program:
   exit statuses, signals, output to a log or inherited, and programs that cannot start. */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <fcntl.h>
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

#include "base/file.h"
#include "base/spawn.h"

static char tmp_dir[256];              /* this run's scratch directory */

static void scratch(char *out, size_t cap, const char *name) {
  snprintf(out, cap, "%s/%s", tmp_dir, name);
}

/* The whole file, NUL-terminated, or NULL: the generator's own reader. */
static char *read_all(const char *path) {
  size_t len;
  return file_read(path, &len, SIZE_MAX);
}

static void write_file(const char *path, const char *text, mode_t mode) {
  FILE *f = fopen(path, "w");
  assert_non_null(f);
  fputs(text, f);
  assert_int_equal(fclose(f), 0);
  assert_int_equal(chmod(path, mode), 0);
}

static void expect_not_started(char *const argv[], const char *log, int err) {
  errno = 0;
  assert_int_equal(spawn_run(argv, log), SPAWN_NOT_STARTED);
  assert_int_equal(errno, err);
}

static void test_spawn_returns_zero_for_a_program_that_succeeds(void **state) {
  (void)state;
  char *argv[] = {"true", NULL};
  assert_int_equal(spawn_run(argv, NULL), 0);
}

static void test_spawn_returns_the_exit_status_of_a_program_that_fails(void **state) {
  (void)state;
  char *fails[] = {"false", NULL}, *seven[] = {"sh", "-c", "exit 7", NULL};
  assert_int_equal(spawn_run(fails, NULL), 1);
  assert_int_equal(spawn_run(seven, NULL), 7);
}

static void test_spawn_returns_128_plus_the_signal_that_killed_the_program(void **state) {
  (void)state;
  char *argv[] = {"sh", "-c", "kill -9 $$", NULL};
  assert_int_equal(spawn_run(argv, NULL), 128 + 9);
}

/* An exit status of 127 (the shell's "not found") is still an exit status. */
static void test_spawn_tells_a_program_that_exits_127_from_one_that_does_not_start(void **state) {
  (void)state;
  char *argv[] = {"sh", "-c", "exit 127", NULL};
  assert_int_equal(spawn_run(argv, NULL), 127);
}

static void test_spawn_reports_a_program_that_does_not_exist_as_not_started(void **state) {
  (void)state;
  char *path[] = {"/nonexistent/program", NULL}, *searched[] = {"wherec-no-such-program", NULL};
  expect_not_started(path, NULL, ENOENT);
  expect_not_started(searched, NULL, ENOENT);
}

static void test_spawn_reports_a_file_that_is_not_executable_as_not_started(void **state) {
  (void)state;
  char prog[300];
  scratch(prog, sizeof prog, "not-executable");
  write_file(prog, "#!/bin/sh\nexit 0\n", 0644);
  char *argv[] = {prog, NULL};
  expect_not_started(argv, NULL, EACCES);
  unlink(prog);
}

static void test_spawn_sends_stdout_and_stderr_to_a_truncated_private_log(void **state) {
  (void)state;
  char log[300];
  struct stat st;
  scratch(log, sizeof log, "both.log");
  char *argv[] = {"sh", "-c", "echo out; echo err >&2; exit 3", NULL};
  assert_int_equal(spawn_run(argv, log), 3);
  char *text = read_all(log);
  assert_non_null(text);
  assert_string_equal(text, "out\nerr\n");
  free(text);
  assert_int_equal(stat(log, &st), 0);
  assert_int_equal(st.st_mode & 0777, 0600);
  write_file(log, "old text, longer than what the program prints\n", 0600);
  char *echo[] = {"echo", "new", NULL};
  assert_int_equal(spawn_run(echo, log), 0);
  text = read_all(log);
  assert_string_equal(text, "new\n");
  free(text);
  unlink(log);
}

/* The program is not run at all when its output has nowhere to go. */
static void test_spawn_reports_a_log_that_cannot_be_opened_as_not_started(void **state) {
  (void)state;
  char log[300], marker[300], script[700];
  scratch(log, sizeof log, "no-such-dir/x.log");
  scratch(marker, sizeof marker, "ran");
  snprintf(script, sizeof script, "touch '%s'", marker);
  char *argv[] = {"sh", "-c", script, NULL};
  expect_not_started(argv, log, ENOENT);
  assert_int_equal(access(marker, F_OK), -1);
}

/* What the caller printed before the call comes before what the child prints. */
static void test_spawn_flushes_the_callers_output_before_the_child_writes(void **state) {
  (void)state;
  char out[300];
  scratch(out, sizeof out, "shared.out");
  fflush(stdout);
  int saved = dup(1), fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0600);
  assert_true(saved >= 0 && fd >= 0);
  dup2(fd, 1);
  close(fd);
  fputs("parent first, ", stdout);                   /* no newline: still buffered */
  char *argv[] = {"echo", "child second", NULL};
  int rc = spawn_run(argv, NULL);
  fflush(stdout);
  dup2(saved, 1);
  close(saved);
  assert_int_equal(rc, 0);
  char *text = read_all(out);
  assert_non_null(text);
  assert_string_equal(text, "parent first, child second\n");
  free(text);
  unlink(out);
}

int main(void) {
  const char *base = getenv("TMPDIR");
  snprintf(tmp_dir, sizeof tmp_dir, "%s/wherec-test-spawn-XXXXXX", base && *base ? base : "/tmp");
  if (mkdtemp(tmp_dir) == NULL) return 1;
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_spawn_returns_zero_for_a_program_that_succeeds),
    cmocka_unit_test(test_spawn_returns_the_exit_status_of_a_program_that_fails),
    cmocka_unit_test(test_spawn_returns_128_plus_the_signal_that_killed_the_program),
    cmocka_unit_test(test_spawn_tells_a_program_that_exits_127_from_one_that_does_not_start),
    cmocka_unit_test(test_spawn_reports_a_program_that_does_not_exist_as_not_started),
    cmocka_unit_test(test_spawn_reports_a_file_that_is_not_executable_as_not_started),
    cmocka_unit_test(test_spawn_sends_stdout_and_stderr_to_a_truncated_private_log),
    cmocka_unit_test(test_spawn_reports_a_log_that_cannot_be_opened_as_not_started),
    cmocka_unit_test(test_spawn_flushes_the_callers_output_before_the_child_writes),
  };
  int failed = cmocka_run_group_tests(tests, NULL, NULL);
  rmdir(tmp_dir);
  return failed;
}
