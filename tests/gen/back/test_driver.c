/* test_driver.c: what gen_generate reports it used (gen_result): the prefix, and
   the unroll factor of each kernel's element loop, once each, in kernel order. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "back/driver.h"
#include "back/lower.h"
#include "front/parse.h"

/* Generates text (as spec.where in a scratch directory) with the given
   --unroll (0: none) into *r; returns gen_generate's status. */
static int generate(const char *text, int unroll, gen_result *r) {
  char dir[] = "/tmp/wherec-driver-XXXXXX", spec[64], path[sizeof dir + sizeof r->prefix + 4];
  gen_options opt = {NULL, NULL, unroll};
  assert_non_null(mkdtemp(dir));
  snprintf(spec, sizeof spec, "%s/spec.where", dir);
  FILE *f = fopen(spec, "wb");
  assert_non_null(f);
  fputs(text, f);
  assert_int_equal(fclose(f), 0);
  memset(r, 0x55, sizeof *r);                          /* nothing left over from before */
  int rc = gen_generate(spec, dir, &opt, stderr, r);
  for (int i = 0; i < 2; i++) {
    snprintf(path, sizeof path, "%s/%s.%s", dir, rc == 0 ? r->prefix : "spec", i ? "c" : "h");
    unlink(path);
  }
  unlink(spec);
  assert_int_equal(rmdir(dir), 0);
  return rc;
}

/* The unroll factor lowering plans for each kernel of text (the oracle). */
static int planned_unrolls(const char *text, int unroll, int *out, int cap) {
  diag_ctx d;
  diag_init(&d, "spec.where", text, strlen(text), stderr);
  ast_file *af = parse_source(text, strlen(text), &d);
  assert_non_null(af);
  sema_program *sp = sema_check(af, &d);
  assert_non_null(sp);
  lower_program *lp = lower_spec(sp, unroll);
  assert_non_null(lp);
  int n = lp->n_kernels;
  assert_true(n <= cap);
  for (int i = 0; i < n; i++) out[i] = lp->kernels[i].unroll;
  lower_free(lp);
  sema_free(sp);
  ast_file_free(af);
  diag_free(&d);
  return n;
}

/* (x + lo) + ... + (x + hi), summed as a balanced tree (the parser bounds the height). */
static size_t append_terms(char *t, size_t len, size_t cap, int lo, int hi) {
  if (lo == hi) return len + (size_t)snprintf(t + len, cap - len, "(x + %d)", lo);
  int mid = lo + (hi - lo) / 2;
  len += (size_t)snprintf(t + len, cap - len, "(");
  len = append_terms(t, len, cap, lo, mid);
  len += (size_t)snprintf(t + len, cap - len, " + ");
  len = append_terms(t, len, cap, mid + 1, hi);
  return len + (size_t)snprintf(t + len, cap - len, ")");
}

/* "kernel NAME(x: float[N]) = <terms sums of x + i>;" appended to t: about
   2 * terms element operations, so the more terms, the fewer unrolled copies. */
static void append_sum(char *t, size_t cap, const char *name, int terms) {
  size_t len = strlen(t);
  len += (size_t)snprintf(t + len, cap - len, "kernel %s(x: float[N]) = ", name);
  len = append_terms(t, len, cap, 1, terms);
  assert_true(len + 3 < cap);
  snprintf(t + len, cap - len, ";\n");
}

static void test_gen_generate_reports_the_prefix_it_used(void **state) {
  gen_result r;
  (void)state;
  assert_int_equal(generate("option prefix = \"named\";\nkernel k(x: float[N]) = x;\n", 0, &r), 0);
  assert_string_equal(r.prefix, "named");
  assert_int_equal(generate("kernel k(x: float[N]) = x;\n", 0, &r), 0);
  assert_string_equal(r.prefix, "spec");                /* the file's base name */
}

static void test_gen_generate_reports_each_unroll_factor_once_in_kernel_order(void **state) {
  static char text[1 << 16] = "option unroll = 8;\n"
                              "kernel a(x: float[N]) = x + 1;\n"
                              "kernel b(c: bool[N], x: int8[N]) = where(c, x, x * 2);\n";
  int plan[8];
  gen_result r;
  (void)state;
  append_sum(text, sizeof text, "heavy", 400);                           /* fewer copies */
  strcat(text, "kernel coords(c: bool[N]) = argwhere(c);\n"              /* no element loop */
               "kernel none(x: float[0, N]) = x + 1;\n");               /* empty: no loop */
  append_sum(text, sizeof text, "heavy_again", 400);
  assert_int_equal(planned_unrolls(text, 0, plan, 8), 6);
  assert_int_equal(plan[0], 8);
  assert_true(plan[2] >= 1 && plan[2] < 8);
  assert_int_equal(generate(text, 0, &r), 0);
  assert_int_equal(r.n_unrolls, 2);
  assert_int_equal(r.unrolls[0], 8);
  assert_int_equal(r.unrolls[1], plan[2]);
}

static void test_gen_generate_reports_the_unroll_override_where_it_applies(void **state) {
  static char text[1 << 17] = "option unroll = 8;\nkernel a(x: float[N]) = x + 1;\n";
  int plan[2];
  gen_result r;
  (void)state;
  append_sum(text, sizeof text, "heavy", 1500);                          /* the override is cut */
  assert_int_equal(planned_unrolls(text, 3, plan, 2), 2);
  assert_int_equal(plan[0], 3);
  assert_true(plan[1] < 3);
  assert_int_equal(generate(text, 3, &r), 0);
  assert_int_equal(r.n_unrolls, 2);
  assert_int_equal(r.unrolls[0], 3);
  assert_int_equal(r.unrolls[1], plan[1]);
}

static void test_gen_generate_reports_no_factor_without_an_element_loop(void **state) {
  gen_result r;
  (void)state;
  assert_int_equal(generate("kernel nz(c: bool[N]) = nonzero(c);\n", 0, &r), 0);
  assert_int_equal(r.n_unrolls, 0);
}

static void test_gen_generate_reports_at_most_gen_max_unrolls_factors(void **state) {
  static char text[1 << 17] = "option unroll = 64;\n";
  int plan[GEN_MAX_UNROLLS + 4], distinct = 0;
  gen_result r;
  (void)state;
  for (int i = 0; i < GEN_MAX_UNROLLS + 4; i++) {      /* ever longer: ever fewer copies */
    char name[16];
    snprintf(name, sizeof name, "k%d", i);
    append_sum(text, sizeof text, name, 20 + 4 * i);
  }
  int n = planned_unrolls(text, 0, plan, GEN_MAX_UNROLLS + 4);
  for (int i = 0; i < n; i++) distinct += i == 0 || plan[i] != plan[i - 1];
  assert_true(distinct > GEN_MAX_UNROLLS);              /* the spec has more than fit */
  assert_int_equal(generate(text, 0, &r), 0);
  assert_int_equal(r.n_unrolls, GEN_MAX_UNROLLS);
  for (int i = 0, j = 0; j < GEN_MAX_UNROLLS; i++)     /* the first ones, in kernel order */
    if (i == 0 || plan[i] != plan[i - 1]) assert_int_equal(r.unrolls[j++], plan[i]);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_gen_generate_reports_the_prefix_it_used),
    cmocka_unit_test(test_gen_generate_reports_each_unroll_factor_once_in_kernel_order),
    cmocka_unit_test(test_gen_generate_reports_the_unroll_override_where_it_applies),
    cmocka_unit_test(test_gen_generate_reports_no_factor_without_an_element_loop),
    cmocka_unit_test(test_gen_generate_reports_at_most_gen_max_unrolls_factors),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
