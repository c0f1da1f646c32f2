/* test_parse.c: unit tests of the spec parser (gen/front/parse.c). Every construct of
   docs/language.md; precedence, error recovery, nesting limits, robustness. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "front/parse.h"
#include "front/sema.h"
#include "spec_text.h"

/* The example of docs/language.md (with its first comments): the parser's
   specification. */
static const char design_example[] =
  "# comment to end of line\n"
  "option prefix = \"model\";     # C prefix of every generated symbol; default: file name\n"
  "option unroll = 8;           # unroll factor of inner loops over symbolic extents\n"
  "\n"
  "kernel pick(c: bool[2,1], x: int32[2,3], y: int32[1,3]) = where(c, x, y);\n"
  "kernel rows(c: bool[N,1], x: float[N,M], y: float[1,M]) = where(c, x, y);\n"
  "kernel leaky(x: float[N,64]) = where(x > 0, x, x * 0.01);\n"
  "kernel clamp(x: float16[8,128], lo: float16[], hi: float16[]) = where(x < lo, lo, "
  "where(x > hi, hi, x));\n"
  "kernel v1(c: bool[B], x: double[B,7], y: double[B,7]) = where_v1(c, x, y);\n"
  "kernel coords(c: bool[4,4]) = argwhere(c);\n"
  "kernel nz(c: float[N,3]) = nonzero(c);\n"
  "\n"
  "# dtype specialization lists: one kernel per listed dtype, named pick2_float, pick2_int32, "
  "...\n"
  "kernel pick2<T: float, int32, float16>(c: bool[N,1], x: T[N,M], y: T[1,M]) = "
  "where(c, x, y);\n";

/* Parse src as "t.where", collecting diagnostics in d (no output). */
static ast_file *parse_str(diag_ctx *d, const char *src) {
  diag_init(d, "t.where", src, strlen(src), NULL);
  return parse_source(src, strlen(src), d);
}

/* The single kernel's expression of src, printed; fails on any diagnostic. */
static void expect_expr(const char *src, const char *want) {
  diag_ctx d;
  diag_text t = {0};
  ast_file *f = parse_str(&d, src);
  assert_non_null(f);
  assert_string_equal(diag_str(&d), "");
  assert_int_equal(f->n_kernels, 1);
  ast_print_expr(&t, f->kernels[0].expr, NULL);
  assert_string_equal(t.data, want);
  diag_text_free(&t);
  ast_file_free(f);
  diag_free(&d);
}

/* Parse src and compare every diagnostic with want. */
static void expect_diag(const char *src, const char *want, int n_errors) {
  diag_ctx d;
  ast_file *f = parse_str(&d, src);
  assert_non_null(f);
  assert_string_equal(diag_str(&d), want);
  assert_int_equal(d.n_errors, n_errors);
  ast_file_free(f);
  diag_free(&d);
}

/* A body: its outputs in order, its statements (`let` or not), each expression. */
static void test_parse_reads_a_body_of_lets_and_outputs(void **state) {
  diag_ctx  d;
  diag_text t = {0};
  (void)state;
  ast_file *f = parse_str(&d, "kernel hs(x: float[N]) -> (y, t) { let t = x + 3.0; y = x * t; }\n"
                              "kernel let(let: float[N]) = let;\n");
  assert_non_null(f);
  assert_string_equal(diag_str(&d), "");
  assert_int_equal(f->n_kernels, 2);
  const ast_kernel *k = &f->kernels[0];
  assert_null(k->expr);
  assert_int_equal(k->n_outputs, 2);
  assert_string_equal(k->outputs[0].name, "y");
  assert_string_equal(k->outputs[1].name, "t");
  assert_int_equal(k->n_stmts, 2);
  assert_true(k->stmts[0].let);
  assert_string_equal(k->stmts[0].name, "t");
  assert_false(k->stmts[1].let);
  ast_print_expr(&t, k->stmts[1].expr, NULL);
  assert_string_equal(t.data, "(* x t)");
  assert_int_equal(f->kernels[1].n_outputs, 0); /* `let` is a name outside bodies */
  diag_text_free(&t);
  ast_file_free(f);
  diag_free(&d);
}

/* An error inside a body skips past its '}': the next kernel is read. */
static void test_parse_recovers_after_the_body_of_a_bad_kernel(void **state) {
  (void)state;
  expect_diag("kernel k(x: float[N]) -> (y) { y = x + ; }\nkernel j(x: float[N]) -> y;\n",
              "t.where:1:40: error: expected an expression, got ';'\n"
              "kernel k(x: float[N]) -> (y) { y = x + ; }\n"
              "                                       ^\n"
              "t.where:2:26: error: expected '(' before the output names, got 'y'\n"
              "kernel j(x: float[N]) -> y;\n"
              "                         ^\n",
              2);
}

static void test_parse_accepts_design_example_block(void **state) {
  static const char *const names[] = {"pick", "rows", "leaky", "clamp",
                                      "v1", "coords", "nz", "pick2"};
  diag_ctx d;
  ast_file *f = parse_str(&d, design_example);
  const ast_kernel *k;
  int i;
  (void)state;
  assert_non_null(f);
  assert_string_equal(diag_str(&d), "");
  assert_int_equal(f->n_options, 2);
  assert_string_equal(f->options[0].name, "prefix");
  assert_int_equal(f->options[0].kind, AST_OPTION_STRING);
  assert_string_equal(f->options[0].text, "model");
  assert_string_equal(f->options[1].name, "unroll");
  assert_int_equal(f->options[1].kind, AST_OPTION_INT);
  assert_int_equal(f->options[1].ival, 8);
  assert_int_equal(f->n_kernels, 8);
  for (i = 0; i < 8; i++) assert_string_equal(f->kernels[i].name, names[i]);

  k = &f->kernels[7];
  assert_int_equal(k->loc.line, 14);
  assert_int_equal(k->loc.col, 8);
  assert_int_equal(k->n_tvars, 1);
  assert_string_equal(k->tvars[0].name, "T");
  assert_int_equal(k->tvars[0].n_types, 3);
  assert_string_equal(k->tvars[0].types[0].name, "float");
  assert_string_equal(k->tvars[0].types[1].name, "int32");
  assert_string_equal(k->tvars[0].types[2].name, "float16");
  assert_int_equal(k->n_params, 3);
  assert_string_equal(k->params[1].name, "x");
  assert_string_equal(k->params[1].type, "T");
  assert_int_equal(k->params[1].rank, 2);
  assert_string_equal(k->params[1].dims[0].name, "N");
  assert_string_equal(k->params[1].dims[1].name, "M");

  k = &f->kernels[3];
  assert_int_equal(k->params[1].rank, 0);
  assert_int_equal(k->params[0].rank, 2);
  assert_null(k->params[0].dims[0].name);
  assert_int_equal(k->params[0].dims[0].value, 8);
  assert_int_equal(k->params[0].dims[1].value, 128);
  ast_file_free(f);
  diag_free(&d);
}

static void test_parse_kernel_with_two_type_variables(void **state) {
  diag_ctx d;
  ast_file *f = parse_str(&d, "kernel K<T: f32, i8, U: u8>(x: T[], y: U[]) = x;");
  (void)state;
  assert_string_equal(diag_str(&d), "");
  assert_int_equal(f->kernels[0].n_tvars, 2);
  assert_int_equal(f->kernels[0].tvars[0].n_types, 2);
  assert_string_equal(f->kernels[0].tvars[0].types[1].name, "i8");
  assert_string_equal(f->kernels[0].tvars[1].name, "U");
  assert_int_equal(f->kernels[0].tvars[1].n_types, 1);
  ast_file_free(f);
  diag_free(&d);
}

static void test_parse_shapes_scalar_fixed_symbolic_mixed_and_omitted(void **state) {
  diag_ctx d;
  ast_file *f = parse_str(&d, "kernel k(a: f32[], b: f32[2,1], c: f32[N,M], d: f32[N,64], "
                              "e: f32, g: f32[0x10]) = a;");
  const ast_param *p;
  (void)state;
  assert_string_equal(diag_str(&d), "");
  p = f->kernels[0].params;
  assert_int_equal(p[0].rank, 0);
  assert_int_equal(p[1].rank, 2);
  assert_int_equal(p[1].dims[0].value, 2);
  assert_int_equal(p[1].dims[1].value, 1);
  assert_string_equal(p[2].dims[1].name, "M");
  assert_string_equal(p[3].dims[0].name, "N");
  assert_int_equal(p[3].dims[1].value, 64);
  assert_int_equal(p[4].rank, 0);
  assert_int_equal(p[5].dims[0].value, 16);
  ast_file_free(f);
  diag_free(&d);
}

static void test_parse_follows_c_precedence(void **state) {
  (void)state;
  expect_expr("kernel k() = a || b && c == d < e + f * g;",
              "(|| a (&& b (== c (< d (+ e (* f g))))))");
  expect_expr("kernel k() = a * b + c < d == e && f || g;",
              "(|| (&& (== (< (+ (* a b) c) d) e) f) g)");
  expect_expr("kernel k() = a != b <= c - d / e;", "(!= a (<= b (- c (/ d e))))");
  expect_expr("kernel k() = a > b >= c;", "(>= (> a b) c)");
}

static void test_parse_places_bitwise_shift_and_remainder_operators_at_c_precedence(void **state) {
  (void)state;
  /* || < && < | < ^ < & < == < relational < shifts < additive < * / % */
  expect_expr("kernel k() = a || b && c | d ^ e & f == g;",
              "(|| a (&& b (| c (^ d (& e (== f g))))))");
  expect_expr("kernel k() = a & b ^ c | d;", "(| (^ (& a b) c) d)");
  expect_expr("kernel k() = a < b << c + d % e;", "(< a (<< b (+ c (% d e))))");
  expect_expr("kernel k() = a >> b > c;", "(> (>> a b) c)");
  expect_expr("kernel k() = a % b * c / d;", "(/ (* (% a b) c) d)");
  expect_expr("kernel k() = a << b >> c;", "(>> (<< a b) c)");
  expect_expr("kernel k() = a == b & c;", "(& (== a b) c)");
}

static void test_parse_reads_complement_as_a_unary_operator(void **state) {
  (void)state;
  expect_expr("kernel k() = ~a & -b;", "(& (~ a) (neg b))");
  expect_expr("kernel k() = ~~a;", "(~ (~ a))");
  expect_expr("kernel k() = ~a % !b;", "(% (~ a) (! b))");
  expect_expr("kernel k() = ~1;", "(~ 1)");
}

static void test_parse_reads_fmod_and_rounding_functions_as_calls(void **state) {
  (void)state;
  expect_expr("kernel k() = fmod(a, b) + sqrt(floor(x)) - ceil(round(trunc(y)));",
              "(- (+ (fmod a b) (sqrt (floor x))) (ceil (round (trunc y))))");
}

static void test_parse_reports_a_binary_operator_without_left_operand(void **state) {
  (void)state;
  expect_diag("kernel k(x: i32[]) = % x;",
              "t.where:1:22: error: expected an expression, got '%'\n"
              "kernel k(x: i32[]) = % x;\n"
              "                     ^\n",
              1);
  expect_diag("kernel k(x: i32[]) = x << ;",
              "t.where:1:27: error: expected an expression, got ';'\n"
              "kernel k(x: i32[]) = x << ;\n"
              "                          ^\n",
              1);
}

static void test_parse_binary_operators_are_left_associative(void **state) {
  (void)state;
  expect_expr("kernel k() = a - b - c;", "(- (- a b) c)");
  expect_expr("kernel k() = a / b * c;", "(* (/ a b) c)");
  expect_expr("kernel k() = a || b || c;", "(|| (|| a b) c)");
}

static void test_parse_unary_operators_bind_tighter_than_binary(void **state) {
  (void)state;
  expect_expr("kernel k() = -a * !b;", "(* (neg a) (! b))");
  expect_expr("kernel k() = - -a;", "(neg (neg a))");
  expect_expr("kernel k() = (a + b) * c;", "(* (+ a b) c)");
}

static void test_parse_folds_minus_into_numeric_literals(void **state) {
  (void)state;
  expect_expr("kernel k() = x + -1;", "(+ x -1)");
  expect_expr("kernel k() = -(2.5) * -inf;", "(* -2.5 -inf)");
  expect_expr("kernel k() = - -3 - nan;", "(- 3 nan)");
  expect_expr("kernel k() = x * -nan;", "(* x -nan)");
  expect_expr("kernel k() = -true;", "(neg true)");
}

static void test_parse_calls_casts_and_literals(void **state) {
  (void)state;
  expect_expr("kernel k() = where(c, min(a, 1), max(abs(b), 0x10));",
              "(where c (min a 1) (max (abs b) 0x10))");
  expect_expr("kernel k() = float(x) + int32(y) * f16(z) - T(w);",
              "(- (+ (float x) (* (int32 y) (f16 z))) (T w))");
  expect_expr("kernel k() = argwhere(x > 1e-3 || false);", "(argwhere (|| (> x 1e-3) false))");
  expect_expr("kernel k() = nonzero(.5 == true);", "(nonzero (== .5 true))");
  expect_expr("kernel k() = where_v1(c, x, y);", "(where_v1 c x y)");
}

static void test_parse_records_literal_kinds(void **state) {
  diag_ctx d;
  ast_file *f = parse_str(&d, "kernel k() = f(1, 0.5, true, false, inf, nan);");
  ast_expr **a;
  (void)state;
  assert_string_equal(diag_str(&d), "");
  a = f->kernels[0].expr->u.call.args;
  assert_int_equal(a[0]->u.lit.kind, AST_LIT_INT);
  assert_int_equal(a[1]->u.lit.kind, AST_LIT_FLOAT);
  assert_int_equal(a[2]->u.lit.kind, AST_LIT_BOOL);
  assert_true(a[2]->u.lit.boolval);
  assert_false(a[3]->u.lit.boolval);
  assert_int_equal(a[4]->u.lit.kind, AST_LIT_INF);
  assert_int_equal(a[5]->u.lit.kind, AST_LIT_NAN);
  assert_int_equal(a[1]->loc.col, 19);
  ast_file_free(f);
  diag_free(&d);
}

static void test_parse_accepts_empty_file_and_stray_semicolons(void **state) {
  (void)state;
  expect_diag("", "", 0);
  expect_diag(";; # nothing\n;", "", 0);
}

static void test_parse_reports_unexpected_token_with_caret(void **state) {
  (void)state;
  expect_diag("kernel k(x: float[]) = x +;\n",
              "t.where:1:27: error: expected an expression, got ';'\n"
              "kernel k(x: float[]) = x +;\n"
              "                          ^\n",
              1);
}

static void test_parse_reports_missing_token_at_end_of_file_after_last_token(void **state) {
  (void)state;
  expect_diag("kernel k(x: float[]) = x\n",
              "t.where:1:25: error: expected ';' after the kernel expression at end of file\n"
              "kernel k(x: float[]) = x\n"
              "                        ^\n",
              1);
}

static void test_parse_reports_top_level_junk(void **state) {
  (void)state;
  expect_diag("kernal k(x: float[]) = x;\nkernel ok(x: f32[]) = x;\n",
              "t.where:1:1: error: expected 'kernel', 'option' or 'const', got 'kernal'\n"
              "kernal k(x: float[]) = x;\n"
              "^\n",
              1);
}

static void test_parse_recovers_at_next_kernel_after_missing_semicolon(void **state) {
  diag_ctx d;
  ast_file *f = parse_str(&d, "kernel a(x: f32[]) = x\nkernel b(x: f32[]) = x;\n");
  (void)state;
  assert_string_equal(diag_str(&d),
                      "t.where:2:1: error: expected ';' after the kernel expression, got 'kernel'\n"
                      "kernel b(x: f32[]) = x;\n"
                      "^\n");
  assert_int_equal(f->n_kernels, 1);
  assert_string_equal(f->kernels[0].name, "b");
  ast_file_free(f);
  diag_free(&d);
}

static void test_parse_reports_every_error_in_a_file(void **state) {
  diag_ctx d;
  ast_file *f = parse_str(&d,
                          "kernel a(x: f32[) = x;\n"
                          "kernel b(x f32[]) = x;\n"
                          "kernel ok(x: f32[]) = x;\n"
                          "option unroll = ;\n"
                          "kernel c<T float>(x: T[]) = x;\n");
  (void)state;
  assert_string_equal(diag_str(&d),
                      "t.where:1:17: error: expected an extent (an integer or a name), got ')'\n"
                      "kernel a(x: f32[) = x;\n"
                      "                ^\n"
                      "t.where:2:12: error: expected ':' after the parameter name, got 'f32'\n"
                      "kernel b(x f32[]) = x;\n"
                      "           ^\n"
                      "t.where:4:17: error: expected an integer or a string as the option's value, "
                      "got ';'\n"
                      "option unroll = ;\n"
                      "                ^\n"
                      "t.where:5:12: error: expected ':' after the type variable, got 'float'\n"
                      "kernel c<T float>(x: T[]) = x;\n"
                      "           ^\n");
  assert_int_equal(d.n_errors, 4);
  assert_int_equal(f->n_kernels, 1);
  assert_string_equal(f->kernels[0].name, "ok");
  ast_file_free(f);
  diag_free(&d);
}

static void test_parse_stays_quiet_about_tokens_the_lexer_reported(void **state) {
  (void)state;
  expect_diag("kernel k(x: f32[]) = x @ x;\n",
              "t.where:1:24: error: invalid character '@'\n"
              "kernel k(x: f32[]) = x @ x;\n"
              "                       ^\n",
              1);
}

static void test_parse_rejects_trailing_commas(void **state) {
  (void)state;
  expect_diag("kernel k(x: f32[N,]) = x;",
              "t.where:1:19: error: expected an extent after ',', got ']'\n"
              "kernel k(x: f32[N,]) = x;\n"
              "                  ^\n",
              1);
  expect_diag("kernel k<T: f32,>(x: T[]) = x;",
              "t.where:1:17: error: expected a dtype after ',', got '>'\n"
              "kernel k<T: f32,>(x: T[]) = x;\n"
              "                ^\n",
              1);
}

/* "kernel k(x: float[]) = " + open * "(" + "x" + close * ")" + ";" */
static char *nested(size_t open, size_t close) {
  static const char head[] = "kernel k(x: float[]) = ";
  size_t n = sizeof head - 1;
  char *s = malloc(n + open + close + 3);
  assert_non_null(s);
  memcpy(s, head, n);
  memset(s + n, '(', open);
  s[n + open] = 'x';
  memset(s + n + open + 1, ')', close);
  strcpy(s + n + open + 1 + close, ";");
  return s;
}

static void test_parse_rejects_200000_nested_parentheses_with_one_error(void **state) {
  char *src = nested(200000, 200000);
  diag_ctx d;
  ast_file *f = parse_str(&d, src);
  (void)state;
  assert_non_null(f);
  assert_int_equal(d.n_errors, 1);
  assert_non_null(strstr(diag_str(&d),
                         "t.where:1:223: error: expression nested too deeply (the limit is 200)\n"));
  assert_int_equal(f->n_kernels, 0);
  ast_file_free(f);
  diag_free(&d);
  free(src);
}

static void test_parse_accepts_nesting_up_to_the_limit(void **state) {
  char *src = nested(PARSE_MAX_DEPTH - 1, PARSE_MAX_DEPTH - 1);
  diag_ctx d;
  ast_file *f = parse_str(&d, src);
  (void)state;
  assert_int_equal(d.n_errors, 0);
  assert_int_equal(f->n_kernels, 1);
  ast_file_free(f);
  diag_free(&d);
  free(src);
  src = nested(PARSE_MAX_DEPTH, PARSE_MAX_DEPTH);
  f = parse_str(&d, src);
  assert_int_equal(d.n_errors, 1);
  ast_file_free(f);
  diag_free(&d);
  free(src);
}

/* "kernel k(x: float[]) = " + prefix + n * unit + suffix + ";" */
static char *repeated(const char *prefix, const char *unit, size_t n, const char *suffix) {
  static const char head[] = "kernel k(x: float[]) = ";
  size_t lu = strlen(unit), i;
  char *s = malloc(sizeof head + strlen(prefix) + n * lu + strlen(suffix) + 2);
  char *o = s;
  assert_non_null(s);
  o += sprintf(o, "%s%s", head, prefix);
  for (i = 0; i < n; i++, o += lu) memcpy(o, unit, lu);
  sprintf(o, "%s;", suffix);
  return s;
}

static void test_parse_bounds_unary_chains_calls_and_operand_chains(void **state) {
  static const struct { const char *prefix, *unit, *suffix; } shapes[] = {
    {"", "-", "x"}, {"", "!", "x"}, {"x", "+x", ""}, {"x", "*x", ""},
    {"", "abs(", "x"}, {"", "-(", "x"}};
  size_t i;
  (void)state;
  for (i = 0; i < sizeof shapes / sizeof *shapes; i++) {
    char *ok = repeated(shapes[i].prefix, shapes[i].unit, 150, shapes[i].suffix);
    char *deep = repeated(shapes[i].prefix, shapes[i].unit, 200000, shapes[i].suffix);
    diag_ctx d;
    ast_file *f = parse_str(&d, deep);
    assert_int_equal(d.n_errors, 1);
    assert_non_null(strstr(diag_str(&d), "error: expression nested too deeply (the limit is 200)\n"));
    ast_file_free(f);
    diag_free(&d);
    if (shapes[i].unit[strlen(shapes[i].unit) - 1] != '(') {
      f = parse_str(&d, ok);
      assert_int_equal(d.n_errors, 0);
      ast_file_free(f);
      diag_free(&d);
    }
    free(ok);
    free(deep);
  }
}

static void test_parse_rejects_more_than_200000_operations_in_a_file(void **state) {
  char *expr = balanced(18), *src = malloc(strlen(expr) + 100);
  diag_ctx d;
  ast_file *f;
  (void)state;
  assert_non_null(src);
  sprintf(src, "kernel k(x: f32[]) = %s;\nkernel ok(x: f32[]) = x;\nkernel bad(x: f32[]) = x +;\n",
          expr);
  f = parse_str(&d, src);
  assert_non_null(f);
  assert_int_equal(d.n_errors, 1);
  assert_non_null(strstr(diag_str(&d), "error: too many operations in one file (the limit is 200000)\n"));
  assert_int_equal(f->n_kernels, 0);
  ast_file_free(f);
  diag_free(&d);
  free(src);
  free(expr);
}

static void test_parse_accepts_a_file_of_many_operations_below_the_limit(void **state) {
  char *expr = balanced(16), *src = malloc(strlen(expr) + 100);   /* 131071 nodes */
  diag_ctx d;
  ast_file *f;
  (void)state;
  assert_non_null(src);
  sprintf(src, "kernel k(x: f32[]) = %s;\n", expr);
  f = parse_str(&d, src);
  assert_int_equal(d.n_errors, 0);
  assert_int_equal(f->n_kernels, 1);
  ast_file_free(f);
  diag_free(&d);
  free(src);
  free(expr);
}

static void test_parse_rejects_a_source_over_16_mib_without_reading_it(void **state) {
  size_t len = PARSE_MAX_SOURCE + 1;
  char *src = malloc(len);
  diag_ctx d;
  (void)state;
  assert_non_null(src);
  memset(src, ' ', len);
  diag_init(&d, "t.where", src, len, NULL);
  assert_null(parse_source(src, len, &d));
  assert_string_equal(diag_str(&d),
                      "t.where: error: source is too large (16777217 bytes; the limit is 16777216)\n");
  diag_free(&d);
  free(src);
}

static void test_parse_shows_1000_errors_then_only_counts_them(void **state) {
  char *src = malloc(1500 * 3 + 1);
  const char *p;
  diag_ctx d;
  ast_file *f;
  int i, shown = 0;
  (void)state;
  assert_non_null(src);
  for (i = 0; i < 1500; i++) memcpy(src + 3 * i, "1;\n", 3);
  src[1500 * 3] = '\0';
  f = parse_str(&d, src);
  assert_int_equal(d.n_errors, 1500);
  for (p = diag_str(&d); (p = strstr(p, ": error: ")) != NULL; p++) shown++;
  assert_int_equal(shown, 1001);
  assert_non_null(strstr(diag_str(&d), "t.where:1000:1: error: expected 'kernel', 'option' or 'const', got '1'\n"));
  assert_null(strstr(diag_str(&d), "t.where:1001:1:"));
  p = diag_str(&d);
  assert_string_equal(p + strlen(p) - strlen("t.where: error: too many errors; the rest are not shown "
                                             "(the limit is 1000)\n"),
                      "t.where: error: too many errors; the rest are not shown (the limit is 1000)\n");
  ast_file_free(f);
  diag_free(&d);
  free(src);
}

/* xorshift64*: a fixed, portable random sequence. */
static uint64_t next_rand(uint64_t *s) {
  *s ^= *s >> 12;
  *s ^= *s << 25;
  *s ^= *s >> 27;
  return *s * 2685821657736338717u;
}

/* Parse and check src; the program exists exactly when nothing was reported,
   and every error line names the file. */
static void front_end_holds(const char *src, size_t len) {
  diag_ctx d;
  ast_file *f;
  sema_program *p;
  diag_init(&d, "r.where", src, len, NULL);
  f = parse_source(src, len, &d);
  assert_non_null(f);
  p = sema_check(f, &d);
  assert_true((p != NULL) == (d.n_errors == 0));
  if (d.n_errors) assert_memory_equal(diag_str(&d), "r.where:", 8);
  sema_free(p);
  ast_file_free(f);
  diag_free(&d);
}

static void test_parse_and_sema_survive_random_bytes(void **state) {
  uint64_t seed = 42;
  int round;
  (void)state;
  for (round = 0; round < 3000; round++) {
    size_t len = (size_t)(next_rand(&seed) % 512), i;
    char *src = malloc(len ? len : 1);
    assert_non_null(src);
    for (i = 0; i < len; i++) src[i] = (char)(next_rand(&seed) >> 56);
    front_end_holds(src, len);
    free(src);
  }
}

static void test_parse_and_sema_survive_random_token_soup(void **state) {
  static const char *const vocab[] = {
    "kernel", "option", "k", "x", "y", "c", "N", "M", "T", "U", "float", "int8", "uint8",
    "bool", "string", "complex64", "f16", "where", "where_v1", "argwhere", "nonzero", "min",
    "max", "abs", "(", ")", "[", "]", "<", ">", ",", ";", ":", "=", "+", "-", "*", "/",
    "||", "&&", "!", "==", "!=", "<=", ">=", "0", "1", "2", "300", "-1", "0.5", "1e999",
    "inf", "nan", "true", "false", "\"m\"", "prefix", "unroll", "#c\n", "\n", "{", "@"};
  static const char *const starts[] = {
    "kernel k(x: float[N], c: bool[N]) = ", "kernel k<T: float, int8>(x: T[N,M], y: T[M]) = ",
    "kernel k(c: bool[B], x: f32[B,2], y: f32[B,2]) = ", ""};
  uint64_t seed = 7;
  int round;
  (void)state;
  for (round = 0; round < 3000; round++) {
    diag_text t = {0};
    int n = (int)(next_rand(&seed) % 40), i;
    diag_text_printf(&t, "%s", starts[next_rand(&seed) % 4]);
    for (i = 0; i < n; i++)
      diag_text_printf(&t, "%s ", vocab[next_rand(&seed) % (sizeof vocab / sizeof *vocab)]);
    front_end_holds(t.data, t.len);
    diag_text_free(&t);
  }
}

static void test_parse_and_sema_survive_mutations_of_the_design_example(void **state) {
  uint64_t seed = 99;
  size_t len = sizeof design_example - 1;
  int round;
  (void)state;
  for (round = 0; round < 2000; round++) {
    char *src = malloc(len);
    int flips = 1 + (int)(next_rand(&seed) % 4), i;
    assert_non_null(src);
    memcpy(src, design_example, len);
    for (i = 0; i < flips; i++) {
      uint64_t r = next_rand(&seed);
      src[r % len] = "();,<>[]:=+-x0N \n\"#"[(r >> 32) % 19];
    }
    front_end_holds(src, len);
    free(src);
  }
}

static void test_parse_reads_a_const_statement_with_its_literal_values(void **state) {
  diag_ctx  d;
  ast_file *f;
  (void)state;
  f = parse_str(&d, "const w: f32[1,3] = {1, -2.5e-3, inf, -nan, true};\n"
                    "kernel k(const: float[N]) = const + 1.0;\n"); /* `const` is no keyword there */
  assert_string_equal(diag_str(&d), "");
  assert_non_null(f);
  assert_int_equal(f->n_consts, 1);
  assert_int_equal(f->n_kernels, 1);
  assert_string_equal(f->consts[0].decl.name, "w");
  assert_string_equal(f->consts[0].decl.type, "f32");
  assert_int_equal(f->consts[0].decl.rank, 2);
  assert_int_equal(f->consts[0].n_values, 5);
  assert_int_equal(f->consts[0].values[0].kind, AST_LIT_INT);
  assert_false(f->consts[0].values[0].neg);
  assert_int_equal(f->consts[0].values[1].kind, AST_LIT_FLOAT);
  assert_true(f->consts[0].values[1].neg);
  assert_string_equal(f->consts[0].values[1].text, "2.5e-3");
  assert_int_equal(f->consts[0].values[1].loc.col, 25); /* the minus */
  assert_int_equal(f->consts[0].values[1].loc.len, 7);
  assert_int_equal(f->consts[0].values[2].kind, AST_LIT_INF);
  assert_int_equal(f->consts[0].values[3].kind, AST_LIT_NAN);
  assert_true(f->consts[0].values[3].neg);
  assert_int_equal(f->consts[0].values[4].kind, AST_LIT_BOOL);
  assert_true(f->consts[0].values[4].boolval);
  ast_file_free(f);
  diag_free(&d);
}

static void test_parse_recovers_after_a_bad_const_at_the_next_statement(void **state) {
  diag_ctx  d;
  ast_file *f;
  (void)state;
  f = parse_str(&d, "const w: float[2] = {1.0, x};\nconst v: int8 = {};\nkernel k(x: float) = x;\n");
  assert_string_equal(diag_str(&d),
                      "t.where:1:27: error: expected a literal value (a number, inf, nan, true or "
                      "false), got 'x'\n"
                      "const w: float[2] = {1.0, x};\n"
                      "                          ^\n");
  assert_non_null(f);
  assert_int_equal(f->n_consts, 1);
  assert_string_equal(f->consts[0].decl.name, "v"); /* w is left out */
  assert_int_equal(f->consts[0].n_values, 0);
  assert_int_equal(f->n_kernels, 1);
  ast_file_free(f);
  diag_free(&d);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_parse_accepts_design_example_block),
    cmocka_unit_test(test_parse_kernel_with_two_type_variables),
    cmocka_unit_test(test_parse_shapes_scalar_fixed_symbolic_mixed_and_omitted),
    cmocka_unit_test(test_parse_follows_c_precedence),
    cmocka_unit_test(test_parse_places_bitwise_shift_and_remainder_operators_at_c_precedence),
    cmocka_unit_test(test_parse_reads_complement_as_a_unary_operator),
    cmocka_unit_test(test_parse_reads_fmod_and_rounding_functions_as_calls),
    cmocka_unit_test(test_parse_reports_a_binary_operator_without_left_operand),
    cmocka_unit_test(test_parse_binary_operators_are_left_associative),
    cmocka_unit_test(test_parse_unary_operators_bind_tighter_than_binary),
    cmocka_unit_test(test_parse_folds_minus_into_numeric_literals),
    cmocka_unit_test(test_parse_calls_casts_and_literals),
    cmocka_unit_test(test_parse_records_literal_kinds),
    cmocka_unit_test(test_parse_accepts_empty_file_and_stray_semicolons),
    cmocka_unit_test(test_parse_reports_unexpected_token_with_caret),
    cmocka_unit_test(test_parse_reports_missing_token_at_end_of_file_after_last_token),
    cmocka_unit_test(test_parse_reports_top_level_junk),
    cmocka_unit_test(test_parse_recovers_at_next_kernel_after_missing_semicolon),
    cmocka_unit_test(test_parse_reports_every_error_in_a_file),
    cmocka_unit_test(test_parse_stays_quiet_about_tokens_the_lexer_reported),
    cmocka_unit_test(test_parse_rejects_trailing_commas),
    cmocka_unit_test(test_parse_rejects_200000_nested_parentheses_with_one_error),
    cmocka_unit_test(test_parse_accepts_nesting_up_to_the_limit),
    cmocka_unit_test(test_parse_bounds_unary_chains_calls_and_operand_chains),
    cmocka_unit_test(test_parse_rejects_more_than_200000_operations_in_a_file),
    cmocka_unit_test(test_parse_accepts_a_file_of_many_operations_below_the_limit),
    cmocka_unit_test(test_parse_rejects_a_source_over_16_mib_without_reading_it),
    cmocka_unit_test(test_parse_shows_1000_errors_then_only_counts_them),
    cmocka_unit_test(test_parse_and_sema_survive_random_bytes),
    cmocka_unit_test(test_parse_reads_a_body_of_lets_and_outputs),
    cmocka_unit_test(test_parse_recovers_after_the_body_of_a_bad_kernel),
    cmocka_unit_test(test_parse_reads_a_const_statement_with_its_literal_values),
    cmocka_unit_test(test_parse_recovers_after_a_bad_const_at_the_next_statement),
    cmocka_unit_test(test_parse_and_sema_survive_random_token_soup),
    cmocka_unit_test(test_parse_and_sema_survive_mutations_of_the_design_example),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
