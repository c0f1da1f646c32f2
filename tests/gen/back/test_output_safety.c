/* test_output_safety.c: gen_generate on any error leaves -o DIR as it was: no new
   file, no temporary left behind, existing outputs with the same bytes and mtime. */
#include <dirent.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "back/driver.h"
#include "front/parse.h"

static const char good_spec[] =
  "option prefix = \"safe\";\n"
  "kernel pick(c: bool[N], x: float[N], y: float[N]) = where(c, x, y);\n";
static const char other_good_spec[] =
  "option prefix = \"safe\";\n"
  "kernel pick(c: bool[N], x: int8[N], y: int8[N]) = where(c, x, y);\n";
static const char bad_spec[] =
  "option prefix = \"safe\";\n"
  "kernel pick(c: bool[N], x: float[N], y: float[N]) = where(c, x, y + 1e99);\n";

/* A scratch directory with spec.where and out/ (not created yet). */
typedef struct scratch {
  char dir[64], spec[128], out[128], h[160], c[160];
} scratch;

static void scratch_init(scratch *s) {
  strcpy(s->dir, "/tmp/wherec-safety-XXXXXX");
  assert_non_null(mkdtemp(s->dir));
  snprintf(s->spec, sizeof s->spec, "%s/spec.where", s->dir);
  snprintf(s->out, sizeof s->out, "%s/out", s->dir);
  snprintf(s->h, sizeof s->h, "%s/safe.h", s->out);
  snprintf(s->c, sizeof s->c, "%s/safe.c", s->out);
}

static void write_text(const char *path, const char *text) {
  FILE *f = fopen(path, "wb");
  assert_non_null(f);
  assert_int_equal(fwrite(text, 1, strlen(text), f), strlen(text));
  assert_int_equal(fclose(f), 0);
}

static char *read_all(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  size_t cap = 1 << 16, n = 0, got;
  char *buf = malloc(cap);
  assert_non_null(f);
  assert_non_null(buf);
  while ((got = fread(buf + n, 1, cap - n, f)) > 0) {
    n += got;
    if (n == cap) buf = realloc(buf, cap *= 2);
    assert_non_null(buf);
  }
  fclose(f);
  *len = n;
  return buf;
}

static void remove_tree(const char *path) {
  struct stat st;
  if (lstat(path, &st) != 0) return;
  if (S_ISDIR(st.st_mode)) {
    DIR *d = opendir(path);
    struct dirent *e;
    char sub[512];
    assert_non_null(d);
    while ((e = readdir(d)) != NULL) {
      if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
      snprintf(sub, sizeof sub, "%s/%s", path, e->d_name);
      remove_tree(sub);
    }
    closedir(d);
    rmdir(path);
  } else {
    unlink(path);
  }
}

/* gen_generate with diagnostics collected; returns its status, text in msg. */
static int generate(const scratch *s, const char *templates, char *msg, size_t cap) {
  gen_options opt = {NULL, templates, 0};
  FILE *err = tmpfile();
  gen_result used;
  assert_non_null(err);
  int rc = gen_generate(s->spec, s->out, &opt, err, &used);
  rewind(err);
  size_t n = fread(msg, 1, cap - 1, err);
  msg[n] = '\0';
  fclose(err);
  return rc;
}

/* What an output file is now: its bytes and its modification time. */
typedef struct snapshot {
  char           *bytes;
  size_t          len;
  struct timespec mtime;
} snapshot;

static snapshot take(const char *path) {
  snapshot p;
  struct stat st;
  assert_int_equal(stat(path, &st), 0);
  p.bytes = read_all(path, &p.len);
  p.mtime = st.st_mtim;
  return p;
}

static void assert_unchanged(const char *path, snapshot *was) {
  snapshot now = take(path);
  assert_int_equal(now.len, was->len);
  assert_memory_equal(now.bytes, was->bytes, was->len);
  assert_int_equal(now.mtime.tv_sec, was->mtime.tv_sec);
  assert_int_equal(now.mtime.tv_nsec, was->mtime.tv_nsec);
  free(now.bytes);
  free(was->bytes);
}

/* The directory holds exactly safe.h and safe.c: no temporary file left. */
static void assert_only_outputs(const char *dir) {
  DIR *d = opendir(dir);
  struct dirent *e;
  int n = 0;
  assert_non_null(d);
  while ((e = readdir(d)) != NULL) {
    if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
    if (strcmp(e->d_name, "safe.h") != 0 && strcmp(e->d_name, "safe.c") != 0)
      fail_msg("unexpected file %s/%s", dir, e->d_name);
    n++;
  }
  closedir(d);
  assert_int_equal(n, 2);
}

/* Generates the good spec into out/ and backdates both outputs, so that any
   rewrite, even within the same second, shows in their mtimes. */
static void good_outputs(scratch *s, snapshot *h, snapshot *c) {
  char msg[4096];
  const struct timespec old[2] = {{1000000000, 0}, {1000000000, 0}};
  write_text(s->spec, good_spec);
  assert_int_equal(generate(s, NULL, msg, sizeof msg), 0);
  assert_int_equal(utimensat(AT_FDCWD, s->h, old, 0), 0);
  assert_int_equal(utimensat(AT_FDCWD, s->c, old, 0), 0);
  *h = take(s->h);
  *c = take(s->c);
}

static void test_spec_errors_create_neither_the_directory_nor_a_file(void **state) {
  scratch s;
  char msg[4096];
  (void)state;
  scratch_init(&s);
  write_text(s.spec, bad_spec);
  assert_int_equal(generate(&s, NULL, msg, sizeof msg), 1);
  assert_non_null(strstr(msg, "error: literal 1e99 overflows float"));
  assert_int_equal(access(s.out, F_OK), -1);
  remove_tree(s.dir);
}

static void test_spec_errors_leave_existing_outputs_untouched(void **state) {
  scratch s;
  snapshot h, c;
  char msg[4096];
  (void)state;
  scratch_init(&s);
  good_outputs(&s, &h, &c);
  write_text(s.spec, bad_spec);
  assert_int_equal(generate(&s, NULL, msg, sizeof msg), 1);
  assert_unchanged(s.h, &h);
  assert_unchanged(s.c, &c);
  assert_only_outputs(s.out);
  remove_tree(s.dir);
}

static void test_unchanged_outputs_are_not_rewritten(void **state) {
  scratch s;
  snapshot h, c;
  char msg[4096];
  (void)state;
  scratch_init(&s);
  good_outputs(&s, &h, &c);
  assert_int_equal(generate(&s, NULL, msg, sizeof msg), 0);
  assert_unchanged(s.h, &h);
  assert_unchanged(s.c, &c);
  assert_only_outputs(s.out);
  remove_tree(s.dir);
}

/* A templates directory copied from the real one with one file replaced. */
static void broken_templates(const scratch *s, char *dir, size_t cap, const char *file,
                             const char *text) {
  static const char *const files[] = {"header.h.tpl", "source.c.tpl", "ops.lua"};
  char from[512], to[512];
  snprintf(dir, cap, "%s/templates", s->dir);
  assert_int_equal(mkdir(dir, 0755), 0);
  for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
    size_t len;
    snprintf(from, sizeof from, "%s/templates/%s", WHEREC_SOURCE_DIR, files[i]);
    snprintf(to, sizeof to, "%s/%s", dir, files[i]);
    char *body = read_all(from, &len);
    body = realloc(body, len + 1);
    assert_non_null(body);
    body[len] = '\0';
    write_text(to, strcmp(files[i], file) == 0 ? text : body);
    free(body);
  }
}

/* A template that fails, in the header, in the source (after the header has
   rendered), or in ops.lua: exit 4, and the old outputs stay as they were. */
static void test_template_errors_leave_existing_outputs_untouched(void **state) {
  static const struct { const char *file, *text; } breaks[] = {
    {"header.h.tpl", "% error('broken header template')\n"},
    {"source.c.tpl", "$(spec.no_such_field.x)\n"},
    {"source.c.tpl", "unbalanced $( here\n"},
    {"ops.lua", "return nil + 1\n"},
  };
  (void)state;
  for (size_t i = 0; i < sizeof breaks / sizeof *breaks; i++) {
    scratch s;
    snapshot h, c;
    char msg[4096], tdir[256];
    scratch_init(&s);
    good_outputs(&s, &h, &c);
    write_text(s.spec, other_good_spec);                /* new content: would rewrite both */
    broken_templates(&s, tdir, sizeof tdir, breaks[i].file, breaks[i].text);
    assert_int_equal(generate(&s, tdir, msg, sizeof msg), 4);
    assert_true(msg[0] != '\0');
    assert_unchanged(s.h, &h);
    assert_unchanged(s.c, &c);
    assert_only_outputs(s.out);
    remove_tree(s.dir);
  }
}

static void test_missing_templates_directory_writes_nothing(void **state) {
  scratch s;
  char msg[4096], tdir[128];
  (void)state;
  scratch_init(&s);
  write_text(s.spec, good_spec);
  snprintf(tdir, sizeof tdir, "%s/no-such-templates", s.dir);
  assert_int_equal(generate(&s, tdir, msg, sizeof msg), 4);
  assert_int_equal(access(s.out, F_OK), -1);          /* not even the directory */
  remove_tree(s.dir);
}

/* -o names a regular file: nothing can be written under it (even as root). */
static void test_output_directory_that_is_a_file_fails_and_stays_as_it_was(void **state) {
  scratch s;
  snapshot f;
  char msg[4096];
  (void)state;
  scratch_init(&s);
  write_text(s.spec, good_spec);
  write_text(s.out, "not a directory\n");
  f = take(s.out);
  assert_int_equal(generate(&s, NULL, msg, sizeof msg), 4);
  assert_non_null(strstr(msg, "wherec: error: cannot "));
  assert_unchanged(s.out, &f);
  remove_tree(s.dir);
}

/* The source cannot be written (a directory is in its way): the header,
   although it rendered and changed, is not replaced either. */
static void test_a_failed_second_output_leaves_the_first_untouched(void **state) {
  scratch s;
  snapshot h;
  char msg[4096];
  (void)state;
  scratch_init(&s);
  write_text(s.spec, good_spec);
  assert_int_equal(mkdir(s.out, 0755), 0);
  write_text(s.h, "/* an older header */\n");
  assert_int_equal(mkdir(s.c, 0755), 0);
  h = take(s.h);
  write_text(s.spec, other_good_spec);
  assert_int_equal(generate(&s, NULL, msg, sizeof msg), 4);
  assert_non_null(strstr(msg, "safe.c: Is a directory"));
  assert_unchanged(s.h, &h);
  assert_only_outputs(s.out);
  remove_tree(s.dir);
}

/* A spec over the size limit is refused before it is read whole. */
static void test_spec_over_the_size_limit_is_refused_and_writes_nothing(void **state) {
  scratch s;
  char msg[4096], want[256];
  FILE *f;
  (void)state;
  scratch_init(&s);
  f = fopen(s.spec, "wb");
  assert_non_null(f);
  assert_int_equal(fseek(f, (long)PARSE_MAX_SOURCE, SEEK_SET), 0);  /* sparse: 16 MiB + 1 */
  assert_int_equal(fputc('\n', f), '\n');
  assert_int_equal(fclose(f), 0);
  assert_int_equal(generate(&s, NULL, msg, sizeof msg), 1);
  snprintf(want, sizeof want, "%s: error: spec is too large (more than %zu bytes)\n", s.spec,
           (size_t)PARSE_MAX_SOURCE);
  assert_string_equal(msg, want);
  assert_int_equal(access(s.out, F_OK), -1);
  remove_tree(s.dir);
}

/* gen_generate with --prefix `prefix`: its status, its messages in msg. */
static int generate_with_prefix(const scratch *s, const char *spec, const char *prefix,
                                gen_result *used, char *msg, size_t cap) {
  gen_options opt = {prefix, NULL, 0};
  FILE *err = tmpfile();
  assert_non_null(err);
  int status = gen_generate(spec, s->out, &opt, err, used);
  rewind(err);
  msg[fread(msg, 1, cap - 1, err)] = '\0';
  fclose(err);
  return status;
}

/* The longest prefix names the symbols and the files whole: its outputs and
   their temporary names fit a file name. */
static void test_prefix_of_the_longest_length_names_its_outputs_whole(void **state) {
  scratch s;
  char msg[4096], prefix[GEN_MAX_PREFIX + 1], path[512];
  gen_result used;
  (void)state;
  scratch_init(&s);
  write_text(s.spec, good_spec);
  memset(prefix, 'p', GEN_MAX_PREFIX);
  prefix[GEN_MAX_PREFIX] = '\0';
  assert_int_equal(generate_with_prefix(&s, s.spec, prefix, &used, msg, sizeof msg), 0);
  assert_string_equal(msg, "");
  assert_string_equal(used.prefix, prefix);
  for (int c = 0; c < 2; c++) {
    snprintf(path, sizeof path, "%s/%s.%s", s.out, prefix, c ? "c" : "h");
    assert_int_equal(access(path, F_OK), 0);
  }
  remove_tree(s.dir);
}

static void test_prefix_option_that_would_be_cut_short_is_refused(void **state) {
  scratch s;
  char msg[4096], prefix[300], want[128];
  gen_result used;
  (void)state;
  scratch_init(&s);
  write_text(s.spec, good_spec);
  memset(prefix, 'p', GEN_MAX_PREFIX + 1);
  prefix[GEN_MAX_PREFIX + 1] = '\0';
  assert_int_equal(generate_with_prefix(&s, s.spec, prefix, &used, msg, sizeof msg), 1);
  snprintf(want, sizeof want, "wherec: error: --prefix is too long (%d bytes; the limit is %d)\n",
           GEN_MAX_PREFIX + 1, GEN_MAX_PREFIX);
  assert_string_equal(msg, want);
  assert_int_equal(access(s.out, F_OK), -1);
  remove_tree(s.dir);
}

/* A spec without a prefix takes its file's base name: one too long for the
   outputs' names is refused, not cut short. */
static void test_prefix_from_a_file_name_too_long_is_refused(void **state) {
  scratch s;
  char msg[4096], spec[512], want[1024], base[GEN_MAX_PREFIX + 2];
  gen_result used;
  (void)state;
  scratch_init(&s);
  memset(base, 'f', GEN_MAX_PREFIX + 1);
  base[GEN_MAX_PREFIX + 1] = '\0';
  snprintf(spec, sizeof spec, "%s/%s.where", s.dir, base);
  write_text(spec, "kernel k(x: float[N]) = x;\n");
  assert_int_equal(generate_with_prefix(&s, spec, NULL, &used, msg, sizeof msg), 1);
  snprintf(want, sizeof want,
           "%s: error: the prefix taken from the file name is too long (%d bytes; the limit is "
           "%d); name a shorter one with `option prefix = \"...\";` or --prefix\n",
           spec, GEN_MAX_PREFIX + 1, GEN_MAX_PREFIX);
  assert_string_equal(msg, want);
  assert_int_equal(access(s.out, F_OK), -1);
  base[GEN_MAX_PREFIX] = '\0'; /* the longest: taken whole */
  snprintf(spec, sizeof spec, "%s/%s.where", s.dir, base);
  write_text(spec, "kernel k(x: float[N]) = x;\n");
  assert_int_equal(generate_with_prefix(&s, spec, NULL, &used, msg, sizeof msg), 0);
  assert_string_equal(used.prefix, base);
  remove_tree(s.dir);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_spec_errors_create_neither_the_directory_nor_a_file),
    cmocka_unit_test(test_spec_errors_leave_existing_outputs_untouched),
    cmocka_unit_test(test_unchanged_outputs_are_not_rewritten),
    cmocka_unit_test(test_template_errors_leave_existing_outputs_untouched),
    cmocka_unit_test(test_missing_templates_directory_writes_nothing),
    cmocka_unit_test(test_output_directory_that_is_a_file_fails_and_stays_as_it_was),
    cmocka_unit_test(test_a_failed_second_output_leaves_the_first_untouched),
    cmocka_unit_test(test_spec_over_the_size_limit_is_refused_and_writes_nothing),
    cmocka_unit_test(test_prefix_of_the_longest_length_names_its_outputs_whole),
    cmocka_unit_test(test_prefix_option_that_would_be_cut_short_is_refused),
    cmocka_unit_test(test_prefix_from_a_file_name_too_long_is_refused),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
