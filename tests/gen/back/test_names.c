/* test_names.c: the C names of spec names (lower_ident): as in the spec unless
   they could clash, then with a trailing '_', one-to-one. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "back/lower.h"

static const char *ident(const char *name) {
  static char buf[LOWER_IDENT_MAX + 1];
  lower_ident(name, buf);
  return buf;
}

static void test_ordinary_names_stay_as_in_the_spec(void **state) {
  static const char *const names[] = {"x", "c", "cond", "N", "M", "x1", "lo", "hi", "rows",
                                      "e", "ix", "i0x", "Mul_4", "x_rows", "value"};
  (void)state;
  for (size_t i = 0; i < sizeof names / sizeof *names; i++) assert_string_equal(ident(names[i]), names[i]);
}

static void test_names_that_clash_in_c_get_a_trailing_underscore(void **state) {
  static const char *const names[] = {
    "int", "for", "case", "bool", "true", "NULL", "memcpy",            /* C and what it uses */
    "out", "n", "i", "j", "u", "rest", "begin", "end", "stream", "count", "coords", "result",
    "i0", "i12", "e0", "e3",                                           /* loop extents, indices */
    "x_row", "x_val", "const_1", "mul_4", "where_12", "e_1",                /* the templates' values */
    "k_range", "k_count", "k_fill", "k_invoke",                        /* what generated code calls */
    "size_t", "my_t", "UINT64_C", "wc_sel", "WC_SYM", "_x", "x_"};
  char want[LOWER_IDENT_MAX + 2];
  (void)state;
  for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
    snprintf(want, sizeof want, "%s_", names[i]);
    assert_string_equal(ident(names[i]), want);
  }
}

/* x_ is mangled too, so x and x_ (both legal spec names) stay apart. */
static void test_mangling_is_one_to_one(void **state) {
  char a[LOWER_IDENT_MAX + 1], b[LOWER_IDENT_MAX + 1], c[LOWER_IDENT_MAX + 1];
  (void)state;
  lower_ident("out", a);
  lower_ident("out_", b);
  lower_ident("out__", c);
  assert_string_equal(a, "out_");
  assert_string_equal(b, "out__");
  assert_string_equal(c, "out___");
}

static void test_the_longest_spec_name_keeps_every_byte(void **state) {
  char name[256], want[257];
  (void)state;
  memset(name, 'a', 254);
  strcpy(name + 254, "_");
  snprintf(want, sizeof want, "%s_", name);
  assert_string_equal(ident(name), want);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_ordinary_names_stay_as_in_the_spec),
    cmocka_unit_test(test_names_that_clash_in_c_get_a_trailing_underscore),
    cmocka_unit_test(test_mangling_is_one_to_one),
    cmocka_unit_test(test_the_longest_spec_name_keeps_every_byte),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
