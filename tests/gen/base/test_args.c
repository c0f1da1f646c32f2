/* test_args.c: unit tests of gen/base/args.c, the command-line grammar of every wherec command:
   values spelled three ways, flags, operands in order, `--`, and each usage error. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "base/args.h"

typedef struct parsed {
  const char *out, *cc, *flag;     /* -o, --cc, --flag */
  const char *ops[4];
  int         n;
  char        msg[128];
  args_result r;
} parsed;

/* Parses the NULL-terminated words (a command name first) with -o, --cc and --flag. */
static parsed parse(int max_operands, const char *one_only, char **words) {
  parsed p;
  int argc = 0;
  memset(&p, 0, sizeof p);
  const args_opt opts[] = {{"-o", true, &p.out, NULL, NULL},
                           {"--cc", true, &p.cc, NULL, NULL},
                           {"--flag", false, &p.flag, NULL, NULL}};
  while (words[argc]) argc++;
  p.r = args_parse(argc, words, opts, 3, p.ops, max_operands, &p.n, one_only, p.msg, sizeof p.msg);
  return p;
}

static void test_args_takes_values_after_a_space_or_an_equals_sign(void **state) {
  char *w[] = {"cmd", "-o", "dir", "--cc=gcc", "spec", NULL};
  parsed p = parse(1, NULL, w);
  (void)state;
  assert_int_equal(p.r, ARGS_OK);
  assert_string_equal(p.out, "dir");
  assert_string_equal(p.cc, "gcc");
  assert_null(p.flag);
  assert_int_equal(p.n, 1);
  assert_string_equal(p.ops[0], "spec");
}

static void test_args_collects_operands_in_order_around_options(void **state) {
  char *w[] = {"cmd", "a", "--flag", "b", "-", "--", "-o", NULL};
  parsed p = parse(4, NULL, w);
  (void)state;
  assert_int_equal(p.r, ARGS_OK);
  assert_string_equal(p.flag, "1");
  assert_null(p.out);
  assert_int_equal(p.n, 4);
  assert_string_equal(p.ops[0], "a");
  assert_string_equal(p.ops[1], "b");
  assert_string_equal(p.ops[2], "-");
  assert_string_equal(p.ops[3], "-o");
}

static void test_args_reports_help_before_anything_else(void **state) {
  char *w[] = {"cmd", "--bogus", NULL}, *h[] = {"cmd", "-h", "--bogus", NULL};
  (void)state;
  assert_int_equal(parse(1, NULL, w).r, ARGS_USAGE);
  assert_int_equal(parse(1, NULL, h).r, ARGS_HELP);
}

static void test_args_rejects_each_misuse_with_its_message(void **state) {
  static const struct { const char *words[5]; const char *msg; } cases[] = {
    {{"cmd", "--bogus=1", NULL}, "unknown option '--bogus'"},
    {{"cmd", "-x", NULL}, "unknown option '-x'"},
    {{"cmd", "--flag=1", NULL}, "option '--flag' takes no value"},
    {{"cmd", "-o", NULL}, "option '-o' needs a value"},
    {{"cmd", "a", "b", NULL}, "one spec only"},
  };
  (void)state;
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    parsed p = parse(1, "one spec only", (char **)cases[i].words);
    assert_int_equal(p.r, ARGS_USAGE);
    assert_string_equal(p.msg, cases[i].msg);
  }
}

static void test_args_says_too_many_operands_without_a_message_of_its_own(void **state) {
  char *w[] = {"cmd", "a", "b", NULL};
  parsed p = parse(1, NULL, w);
  (void)state;
  assert_int_equal(p.r, ARGS_USAGE);
  assert_string_equal(p.msg, "too many operands");
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_args_takes_values_after_a_space_or_an_equals_sign),
    cmocka_unit_test(test_args_collects_operands_in_order_around_options),
    cmocka_unit_test(test_args_reports_help_before_anything_else),
    cmocka_unit_test(test_args_rejects_each_misuse_with_its_message),
    cmocka_unit_test(test_args_says_too_many_operands_without_a_message_of_its_own),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
