/* test_cli.c: the command line of wherec (gen/base/cli.c, gen/main.c), checked against its table:
   each command's help lists every option it takes, takes each, refuses others with status 2. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "base/exit_status.h"
#include "base/cli.h"

#define MAX_WORDS 16

/* What cli_parse did with one command line. */
typedef struct parsed {
  int      rc;
  cli_args a;
  char    *out, *err; /* what it printed */
} parsed;

/* What went to f (a tmpfile), which is closed; free it. */
static char *contents(FILE *f) {
  char  *text = calloc(1, 1 << 16);
  size_t n;
  assert_non_null(text);
  rewind(f);
  n = fread(text, 1, (1 << 16) - 1, f);
  assert_true(n < (1 << 16) - 1); /* all of it */
  fclose(f);
  return text;
}

/* Parses the NULL-terminated words after "wherec". */
static parsed parse(const char *const *words) {
  char  *argv[MAX_WORDS + 2] = {"wherec"};
  int    argc = 1;
  parsed p;
  while (words[argc - 1]) {
    assert_true(argc <= MAX_WORDS);
    argv[argc] = (char *)words[argc - 1];
    argc++;
  }
  FILE *out = tmpfile(), *err = tmpfile();
  assert_non_null(out);
  assert_non_null(err);
  p.rc = cli_parse(argc, argv, &p.a, out, err);
  p.out = contents(out);
  p.err = contents(err);
  return p;
}

static void done(parsed *p) {
  if (p->rc < 0) cli_free(&p->a);
  free(p->out);
  free(p->err);
}

/* A help text as cli.c writes it: c < 0 for the overview. Free it. */
static char *help_of(int c) {
  FILE *f = tmpfile();
  assert_non_null(f);
  if (c < 0) cli_print_overview(f);
  else cli_print_help(f, (cli_command)c);
  return contents(f);
}

/* The whole of a file; free it. */
static char *slurp(const char *path) {
  FILE *f = fopen(path, "rb");
  assert_non_null(f);
  return contents(f);
}

/* Runs the wherec executable with args (a shell word list); its exit status, stdout
   and stderr. */
static int run_wherec(const char *args, char **out, char **err) {
  char dir[] = "/tmp/wherec_cli_XXXXXX", cmd[1024], o[64], e[64];
  assert_non_null(mkdtemp(dir));
  snprintf(o, sizeof o, "%s/out", dir);
  snprintf(e, sizeof e, "%s/err", dir);
  snprintf(cmd, sizeof cmd, "'%s' %s >%s 2>%s", WHEREC_EXE, args, o, e);
  int status = system(cmd);
  *out = slurp(o);
  *err = slurp(e);
  unlink(o);
  unlink(e);
  rmdir(dir);
  assert_true(WIFEXITED(status));
  return WEXITSTATUS(status);
}

static bool takes(int c, int o) { return (cli_options[o].commands & CLI_TAKES(c)) != 0; }

/* "--threads N", "--interp". */
static const char *spelling(int o, char *buf, size_t cap) {
  const cli_option_row *r = &cli_options[o];
  snprintf(buf, cap, "%s%s%s", r->name, r->value ? " " : "", r->value ? r->value : "");
  return buf;
}

/* Does help hold option o's line: "\n  --threads N" then spaces or a new line? */
static bool has_option_line(const char *help, int o) {
  char buf[64], line[80];
  snprintf(line, sizeof line, "\n  %s", spelling(o, buf, sizeof buf));
  for (const char *p = strstr(help, line); p; p = strstr(p + 1, line))
    if (p[strlen(line)] == ' ' || p[strlen(line)] == '\n') return true;
  return false;
}

/* Words for command c with everything it needs (operands, required options), then
   option o (if >= 0) with a value it takes; *expect is that value's number. */
static void good_line(int c, int o, const char **w, uint64_t *expect) {
  static char number[32];
  int         n = 0;
  w[n++] = cli_commands[c].name;
  for (int i = 0; i < CLI_MAX_OPERANDS && cli_commands[c].operands[i]; i++)
    if (!strstr(cli_commands[c].operands[i], "...")) w[n++] = "x";
  for (int r = 0; r < CLI_N_OPTIONS; r++)
    if (takes(c, r) && cli_options[r].required && r != o) {
      w[n++] = cli_options[r].name;
      w[n++] = "req";
    }
  *expect = 0;
  if (o >= 0) {
    const cli_option_row *r = &cli_options[o];
    w[n++] = r->name;
    switch (r->kind) {
    case CLI_FLAG: break;
    case CLI_WORD:
    case CLI_WORDS: w[n++] = "v"; break;
    case CLI_TEXT: w[n++] = ""; break;
    case CLI_NUMBER:
      snprintf(number, sizeof number, "%llu", (unsigned long long)r->hi);
      w[n++] = number;
      *expect = r->hi;
      break;
    case CLI_NUMBER_HEX:
      w[n++] = "0x10";
      *expect = 16;
      break;
    }
  }
  w[n] = NULL;
}

static void test_every_row_of_the_table_is_whole(void **state) {
  (void)state;
  for (int c = 0; c < CLI_N_COMMANDS; c++) {
    const cli_command_row *r = &cli_commands[c];
    assert_non_null(r->name);
    assert_non_null(r->operands[0]);
    assert_non_null(r->summary);
    assert_non_null(r->about);
  }
  for (int o = 0; o < CLI_N_OPTIONS; o++) {
    const cli_option_row *r = &cli_options[o];
    assert_non_null(r->name);
    assert_non_null(r->help);
    assert_true(r->commands != 0 && r->commands < CLI_TAKES(CLI_N_COMMANDS));
    assert_true((r->value == NULL) == (r->kind == CLI_FLAG));
    assert_true(r->lo <= r->hi);
    assert_true(!r->required || r->kind == CLI_WORD || r->kind == CLI_WORDS);
    for (int c = 0; c < CLI_N_COMMANDS; c++) /* one spelling, one option, per command */
      for (int p = 0; p < o && takes(c, o); p++)
        assert_false(takes(c, p) && strcmp(cli_options[p].name, r->name) == 0);
  }
}

/* `wherec CMD --help` is cli.c's help of CMD, which names every option CMD takes (in
   the usage line and on a line of its own) and no other. */
static void test_each_commands_help_lists_every_option_it_takes(void **state) {
  (void)state;
  for (int c = 0; c < CLI_N_COMMANDS; c++) {
    char args[64], *out, *err, *help = help_of(c), buf[64];
    snprintf(args, sizeof args, "%s --help", cli_commands[c].name);
    assert_int_equal(run_wherec(args, &out, &err), GEN_EXIT_OK);
    assert_string_equal(out, help);
    assert_string_equal(err, "");
    const char *usage_end = strstr(help, "\n\n");
    assert_non_null(usage_end);
    for (int o = 0; o < CLI_N_OPTIONS; o++) {
      char usage[80];
      spelling(o, buf, sizeof buf);
      if (!takes(c, o)) {
        if (strstr(help, buf)) fail_msg("%s --help names %s", cli_commands[c].name, buf);
        continue;
      }
      if (!has_option_line(help, o)) fail_msg("%s --help lacks %s", cli_commands[c].name, buf);
      snprintf(usage, sizeof usage, cli_options[o].required ? " %s" : " [%s]", buf);
      const char *hit = strstr(help, usage);
      if (hit == NULL || hit > usage_end)
        fail_msg("%s --help: the usage lacks%s", cli_commands[c].name, usage);
    }
    assert_non_null(strstr(help, "\n  -h, --help "));
    free(out);
    free(err);
    free(help);
  }
}

/* `wherec --help` is the overview: every command's usage, and its options. */
static void test_the_overview_lists_every_command_and_its_options(void **state) {
  (void)state;
  char *out, *err, *help = help_of(-1), buf[64], *usage_end = strstr(help, "\n\n");
  assert_int_equal(run_wherec("--help", &out, &err), GEN_EXIT_OK);
  assert_string_equal(out, help);
  assert_non_null(usage_end);
  for (int c = 0; c < CLI_N_COMMANDS; c++) {
    char usage[64];
    snprintf(usage, sizeof usage, "wherec %s %s", cli_commands[c].name,
             cli_commands[c].operands[0]);
    char *hit = strstr(help, usage);
    assert_true(hit && hit < usage_end);
  }
  for (int o = 0; o < CLI_N_OPTIONS; o++) {
    char line[80];
    snprintf(line, sizeof line, "\n    %s", spelling(o, buf, sizeof buf));
    if (!strstr(help, line)) fail_msg("wherec --help lacks %s", buf);
  }
  free(out);
  free(err);
  free(help);
}

static void test_each_command_takes_each_of_its_options(void **state) {
  (void)state;
  for (int c = 0; c < CLI_N_COMMANDS; c++)
    for (int o = -1; o < CLI_N_OPTIONS; o++) {
      const char *w[MAX_WORDS + 1];
      uint64_t    expect;
      if (o >= 0 && !takes(c, o)) continue;
      good_line(c, o, w, &expect);
      parsed p = parse(w);
      if (p.rc != -1)
        fail_msg("%s with %s: %d: %s", w[0], o >= 0 ? cli_options[o].name : "-", p.rc, p.err);
      assert_int_equal(p.a.command, c);
      if (o >= 0) {
        assert_non_null(p.a.value[o]);
        assert_int_equal(p.a.number[o], expect);
      }
      done(&p);
    }
}

/* Every option a command does not take, and one no command takes, is a usage error. */
static void test_each_command_refuses_the_options_it_does_not_take(void **state) {
  (void)state;
  for (int c = 0; c < CLI_N_COMMANDS; c++)
    for (int o = 0; o < CLI_N_OPTIONS; o++) {
      const char *w[MAX_WORDS + 1];
      uint64_t    expect;
      char        want[128];
      bool        spelled_here = false;
      for (int p = 0; p < CLI_N_OPTIONS; p++)
        spelled_here |= takes(c, p) && strcmp(cli_options[p].name, cli_options[o].name) == 0;
      if (spelled_here) continue; /* -o of another command */
      good_line(c, -1, w, &expect);
      int n = 0;
      while (w[n]) n++;
      w[n] = cli_options[o].name;
      w[n + 1] = NULL;
      parsed p = parse(w);
      snprintf(want, sizeof want, "wherec: %s: unknown option '%s'\nusage: wherec %s ",
               cli_commands[c].name, cli_options[o].name, cli_commands[c].name);
      assert_int_equal(p.rc, GEN_EXIT_USAGE);
      assert_non_null(strstr(p.err, want));
      done(&p);
    }
}

/* Through the executable: an unknown option of each command exits 2 with its usage. */
static void test_an_unknown_option_exits_2_for_every_command(void **state) {
  (void)state;
  for (int c = 0; c < CLI_N_COMMANDS; c++) {
    char args[64], want[128], *out, *err;
    snprintf(args, sizeof args, "%s --no-such-option", cli_commands[c].name);
    snprintf(want, sizeof want, "wherec: %s: unknown option '--no-such-option'\nusage: wherec %s ",
             cli_commands[c].name, cli_commands[c].name);
    assert_int_equal(run_wherec(args, &out, &err), GEN_EXIT_USAGE);
    assert_string_equal(out, "");
    assert_true(strncmp(err, want, strlen(want)) == 0);
    free(out);
    free(err);
  }
}

static void test_misuse_names_what_is_wrong(void **state) {
  (void)state;
  static const struct {
    const char *words[8];
    const char *msg;
  } cases[] = {
      {{"gen", NULL}, "wherec: gen: missing SPEC\n"},
      {{"gen", "a", "b", "-o", "d", NULL}, "wherec: gen: one SPEC only\n"},
      {{"gen", "a", NULL}, "wherec: gen: missing -o DIR\n"},
      {{"gen", "a", "-o", "", NULL}, "wherec: gen: option '-o' needs a value\n"},
      {{"gen", "a", "-o", "d", "--unroll", "65", NULL},
       "wherec: gen: --unroll takes a whole number from 1 to 64, not '65'\n"},
      {{"check", "a", "--cc", "", NULL}, "wherec: check: option '--cc' needs a value\n"},
      {{"check", "a", "--trials", "0", NULL},
       "wherec: check: --trials takes a whole number from 1 to 1000000, not '0'\n"},
      {{"check", "a", "--seed", "-1", NULL},
       "wherec: check: --seed takes an unsigned 64-bit number, not '-1'\n"},
      {{"check", "a", "--seed", "18446744073709551616", NULL},
       "wherec: check: --seed takes an unsigned 64-bit number, not '18446744073709551616'\n"},
      {{"check", "a", "--sanitize=1", NULL}, "wherec: check: option '--sanitize' takes no value\n"},
      {{"run", "s", NULL}, "wherec: run: missing KERNEL\n"},
      {{"run", "s", "k", NULL}, "wherec: run: missing -o OUT.npy\n"},
      {{"run", "s", "k", "-o", "o", "--threads", " 2", NULL},
       "wherec: run: --threads takes a whole number from 1 to 256, not ' 2'\n"},
      {{"run", "s", "k", "-o", NULL}, "wherec: run: option '-o' needs a value\n"},
      {{"import", NULL}, "wherec: import: missing MODEL.onnx\n"},
      {{"import", "m", "n", NULL}, "wherec: import: one MODEL.onnx only\n"},
      {{"frob", NULL}, "wherec: unknown command 'frob'\nusage: wherec gen "},
      {{NULL}, "usage: wherec gen "},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    parsed p = parse(cases[i].words);
    assert_int_equal(p.rc, GEN_EXIT_USAGE);
    if (strncmp(p.err, cases[i].msg, strlen(cases[i].msg)) != 0)
      fail_msg("case %zu: got '%s', want '%s'", i, p.err, cases[i].msg);
    assert_non_null(strstr(p.err, "usage: wherec "));
    assert_string_equal(p.out, "");
    done(&p);
  }
}

/* import writes either a spec (-o SPEC) or what onnxruntime needs (--ort DIR): neither, or
   both, is a usage error that says so (main.c checks it after the parse). */
static void test_import_takes_either_a_spec_or_an_ort_directory(void **state) {
  (void)state;
  const char *lines[] = {"import m.onnx", "import m.onnx -o s.where --ort d",
                         "import m.onnx -o s.where --cc gcc"};
  for (size_t i = 0; i < sizeof lines / sizeof *lines; i++) {
    char *out, *err;
    assert_int_equal(run_wherec(lines[i], &out, &err), GEN_EXIT_USAGE);
    assert_non_null(strstr(err, "wherec: import: "));
    assert_non_null(strstr(err, i < 2 ? "either -o SPEC or --ort DIR" : "go with --ort"));
    free(out);
    free(err);
  }
}

/* --list-operators takes no model; --shapes writes no spec; --dim is NAME=N with N > 0:
   each misused is a usage error that says so (the JSON itself: test_fusion). */
static void test_import_list_operators_and_shapes_are_modes_of_their_own(void **state) {
  (void)state;
  const char *lines[] = {"import m.onnx --list-operators", "import m.onnx --shapes -o s.where",
                         "import m.onnx --shapes --verify", "import m.onnx -o s.where --dim T",
                         "import m.onnx -o s.where --dim T=0", "import m.onnx -o s.where --dim =4"};
  const char *want[] = {"--list-operators takes no MODEL.onnx", "--shapes writes no spec",
                        "--shapes writes no spec", "--dim T: expected NAME=N",
                        "--dim T=0: expected NAME=N", "--dim =4: expected NAME=N"};
  for (size_t i = 0; i < sizeof lines / sizeof *lines; i++) {
    char *out, *err;
    assert_int_equal(run_wherec(lines[i], &out, &err), GEN_EXIT_USAGE);
    if (!strstr(err, want[i])) fail_msg("%s: got '%s', want '%s'", lines[i], err, want[i]);
    assert_string_equal(out, "");
    free(out);
    free(err);
  }
}

/* Operands and options in any order, the inputs of run, an empty --cflags, --help
   anywhere, and the version. */
static void test_well_formed_lines_parse_whole(void **state) {
  (void)state;
  static const char *const run[] = {"run",   "--threads=3", "s",        "k",  "a.npy",  "-o",
                                    "o.npy", "b.npy",       "--interp", "--", "-c.npy", NULL};
  parsed                   p = parse(run);
  assert_int_equal(p.rc, -1);
  assert_int_equal(p.a.command, CLI_RUN);
  assert_int_equal(p.a.n_operands, 5);
  assert_string_equal(p.a.operands[4], "-c.npy");
  assert_string_equal(p.a.value[CLI_OUT_NPY], "o.npy");
  assert_int_equal(p.a.number[CLI_THREADS], 3);
  assert_non_null(p.a.value[CLI_INTERP]);
  assert_null(p.a.value[CLI_CC]);
  done(&p);
  static const char *const check[] = {"check", "--cflags", "", "s", NULL};
  p = parse(check);
  assert_int_equal(p.rc, -1);
  assert_string_equal(p.a.value[CLI_CFLAGS], "");
  done(&p);
  static const char *const help[] = {"gen", "--bogus", "-h", NULL}; /* as args_parse: first wins */
  p = parse(help);
  assert_int_equal(p.rc, GEN_EXIT_USAGE);
  done(&p);
  static const char *const help2[] = {"import", "m", "-h", "--bogus", NULL};
  char                    *want = help_of(CLI_IMPORT);
  p = parse(help2);
  assert_int_equal(p.rc, GEN_EXIT_OK);
  assert_string_equal(p.out, want);
  free(want);
  done(&p);
  static const char *const version[] = {"--version", NULL};
  p = parse(version);
  assert_int_equal(p.rc, GEN_EXIT_OK);
  assert_true(strncmp(p.out, "wherec ", 7) == 0);
  done(&p);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_every_row_of_the_table_is_whole),
      cmocka_unit_test(test_each_commands_help_lists_every_option_it_takes),
      cmocka_unit_test(test_the_overview_lists_every_command_and_its_options),
      cmocka_unit_test(test_each_command_takes_each_of_its_options),
      cmocka_unit_test(test_each_command_refuses_the_options_it_does_not_take),
      cmocka_unit_test(test_an_unknown_option_exits_2_for_every_command),
      cmocka_unit_test(test_misuse_names_what_is_wrong),
      cmocka_unit_test(test_import_takes_either_a_spec_or_an_ort_directory),
      cmocka_unit_test(test_import_list_operators_and_shapes_are_modes_of_their_own),
      cmocka_unit_test(test_well_formed_lines_parse_whole),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
