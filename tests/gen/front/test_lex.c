/* test_lex.c: unit tests of the spec lexer (gen/front/lexer.re).
   Token kinds, spans, lines and columns; lexical diagnostics; safety on random bytes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "front/lex.h"

/* A lexer over a private copy of src that ends in the NUL sentinel lex_init
   requires, so ASan sees reads past the end. */
typedef struct fixture {
  char     *buf;               /* copy of the source plus the sentinel */
  size_t    len;               /* source bytes */
  diag_ctx  d;                 /* collected diagnostics */
  lex_state l;
} fixture;

static void open_src(fixture *f, const char *src, size_t len) {
  f->buf = malloc(len + 1);
  assert_non_null(f->buf);
  memcpy(f->buf, src, len);
  f->buf[len] = '\0';
  f->len = len;
  diag_init(&f->d, "t.where", f->buf, len, NULL);
  lex_init(&f->l, f->buf, len, &f->d);
}

static void close_src(fixture *f) {
  diag_free(&f->d);
  free(f->buf);
}

/* The kinds of every token of src up to and including LEX_EOF. */
static int lex_kinds(fixture *f, const char *src, lex_kind *kinds, int max) {
  int n = 0;
  open_src(f, src, strlen(src));
  for (;;) {
    lex_token t = lex_next(&f->l);
    assert_true(n < max);
    kinds[n++] = t.kind;
    if (t.kind == LEX_EOF) return n;
  }
}

static void test_lex_reports_line_and_column_of_each_token(void **state) {
  static const struct { lex_kind kind; int line, col; size_t off, len; } want[] = {
    {LEX_KERNEL, 1, 1, 0, 6}, {LEX_IDENT, 1, 8, 7, 1}, {LEX_LPAREN, 1, 9, 8, 1},
    {LEX_IDENT, 1, 10, 9, 1}, {LEX_COLON, 1, 11, 10, 1}, {LEX_IDENT, 1, 13, 12, 3},
    {LEX_LBRACK, 1, 16, 15, 1}, {LEX_IDENT, 1, 17, 16, 1}, {LEX_RBRACK, 1, 18, 17, 1},
    {LEX_RPAREN, 1, 19, 18, 1}, {LEX_ASSIGN, 1, 21, 20, 1},
    {LEX_IDENT, 3, 3, 35, 1}, {LEX_PLUS, 3, 5, 37, 1}, {LEX_FLOAT, 3, 7, 39, 4},
    {LEX_SEMI, 3, 11, 43, 1}, {LEX_EOF, 4, 1, 45, 0},
  };
  const char *src = "kernel k(x: f32[N]) = # comment\n\n  x + 0.25;\n";
  fixture f;
  size_t i;
  (void)state;
  open_src(&f, src, strlen(src));
  for (i = 0; i < sizeof want / sizeof *want; i++) {
    lex_token t = lex_next(&f.l);
    assert_int_equal(t.kind, want[i].kind);
    assert_int_equal(t.loc.line, want[i].line);
    assert_int_equal(t.loc.col, want[i].col);
    assert_int_equal(t.loc.off, want[i].off);
    assert_int_equal(t.loc.len, want[i].len);
    assert_int_equal(t.len, want[i].len);
    assert_ptr_equal(t.text, f.buf + want[i].off);
  }
  assert_int_equal(f.d.n_errors, 0);
  close_src(&f);
}

static void test_lex_recognizes_every_punctuator_and_operator(void **state) {
  static const lex_kind want[] = {
    LEX_LPAREN, LEX_RPAREN, LEX_LBRACK, LEX_RBRACK, LEX_LT, LEX_GT, LEX_COMMA, LEX_SEMI,
    LEX_COLON, LEX_ASSIGN, LEX_LBRACE, LEX_RBRACE, LEX_OROR, LEX_ANDAND, LEX_NOT, LEX_EQ,
    LEX_NE, LEX_LT, LEX_LE, LEX_GT, LEX_GE, LEX_PLUS, LEX_MINUS, LEX_STAR, LEX_SLASH,
    LEX_LE, LEX_NOT, LEX_NE, LEX_EQ, LEX_EOF};
  lex_kind got[64];
  fixture f;
  int i, n;
  (void)state;
  n = lex_kinds(&f, "( ) [ ] < > , ; : = { } || && ! == != < <= > >= + - * / <=!!===", got, 64);
  assert_int_equal(n, (int)(sizeof want / sizeof *want));
  for (i = 0; i < n; i++) assert_int_equal(got[i], want[i]);
  assert_int_equal(f.d.n_errors, 0);
  close_src(&f);
}

/* Each keyword's and operator's name (lex_kind_str) is its spelling: lexed,
   it gives that kind and nothing else. */
static void test_lex_kind_names_of_keywords_and_operators_lex_as_their_kind(void **state) {
  (void)state;
  for (int k = LEX_KERNEL; k < LEX_KIND_COUNT_; k++) {
    lex_kind got[4];
    fixture  f;
    assert_int_equal(lex_kinds(&f, lex_kind_str((lex_kind)k), got, 4), 2);
    if (got[0] != (lex_kind)k) fail_msg("'%s' lexes as %s", lex_kind_str((lex_kind)k), lex_kind_str(got[0]));
    assert_int_equal(got[1], LEX_EOF);
    assert_int_equal(f.d.n_errors, 0);
    close_src(&f);
  }
  assert_string_equal(lex_kind_str(LEX_KIND_COUNT_), "token");
}

static void test_lex_reads_integer_hex_and_float_literals(void **state) {
  static const lex_kind want[] = {LEX_INT, LEX_INT, LEX_INT, LEX_FLOAT, LEX_FLOAT, LEX_FLOAT,
                                  LEX_FLOAT, LEX_FLOAT, LEX_FLOAT, LEX_FLOAT, LEX_EOF};
  lex_kind got[16];
  fixture f;
  int i, n;
  (void)state;
  n = lex_kinds(&f, "42 0x2A 0XffFF 0.01 1e-3 1.5e+10 .5 5. 2E8 0.5e3", got, 16);
  assert_int_equal(n, (int)(sizeof want / sizeof *want));
  for (i = 0; i < n; i++) assert_int_equal(got[i], want[i]);
  assert_int_equal(f.d.n_errors, 0);
  close_src(&f);
}

static void test_lex_keywords_match_only_whole_words(void **state) {
  static const lex_kind want[] = {LEX_KERNEL, LEX_IDENT, LEX_OPTION, LEX_IDENT, LEX_INF,
                                  LEX_IDENT, LEX_NAN, LEX_IDENT, LEX_TRUE, LEX_FALSE,
                                  LEX_IDENT, LEX_IDENT, LEX_EOF};
  lex_kind got[16];
  fixture f;
  int i, n;
  (void)state;
  n = lex_kinds(&f, "kernel kernels option options inf infinity nan nan_ true false False _x9",
                got, 16);
  assert_int_equal(n, (int)(sizeof want / sizeof *want));
  for (i = 0; i < n; i++) assert_int_equal(got[i], want[i]);
  close_src(&f);
}

static void test_lex_string_literal_spans_its_quotes(void **state) {
  fixture f;
  lex_token t;
  (void)state;
  open_src(&f, "option prefix = \"model\";", 24);
  lex_next(&f.l);
  lex_next(&f.l);
  lex_next(&f.l);
  t = lex_next(&f.l);
  assert_int_equal(t.kind, LEX_STRING);
  assert_int_equal(t.loc.col, 17);
  assert_int_equal(t.len, 7);
  assert_memory_equal(t.text, "\"model\"", 7);
  assert_int_equal(lex_next(&f.l).kind, LEX_SEMI);
  close_src(&f);
}

static void test_lex_skips_comments_with_any_text_to_end_of_line(void **state) {
  lex_kind got[8];
  fixture f;
  int n;
  (void)state;
  n = lex_kinds(&f, "# caf\xc3\xa9 @ \" $\nx # tail", got, 8);
  assert_int_equal(n, 2);
  assert_int_equal(got[0], LEX_IDENT);
  assert_int_equal(f.d.n_errors, 0);
  close_src(&f);
}

static void test_lex_counts_columns_in_bytes(void **state) {
  fixture f;
  lex_token t;
  (void)state;
  open_src(&f, "\t\tx", 3);
  t = lex_next(&f.l);
  assert_int_equal(t.loc.col, 3);
  close_src(&f);
}

static void test_lex_skips_utf8_byte_order_mark(void **state) {
  fixture f;
  lex_token t;
  (void)state;
  open_src(&f, "\xEF\xBB\xBFkernel", 9);
  t = lex_next(&f.l);
  assert_int_equal(t.kind, LEX_KERNEL);
  assert_int_equal(t.loc.col, 4);
  assert_int_equal(f.d.n_errors, 0);
  close_src(&f);
}

static void test_lex_returns_eof_again_and_again(void **state) {
  fixture f;
  int i;
  (void)state;
  open_src(&f, "x", 1);
  assert_int_equal(lex_next(&f.l).kind, LEX_IDENT);
  for (i = 0; i < 3; i++) {
    lex_token t = lex_next(&f.l);
    assert_int_equal(t.kind, LEX_EOF);
    assert_int_equal(t.loc.off, 1);
    assert_int_equal(t.loc.col, 2);
  }
  close_src(&f);
}

/* Lex all of src (len bytes): an error token must come back, and the
   diagnostics must read want exactly. */
static void expect_diag(const char *src, size_t len, const char *want, int n_errors) {
  fixture f;
  bool saw_bad = false;
  open_src(&f, src, len);
  for (;;) {
    lex_token t = lex_next(&f.l);
    if (t.kind == LEX_ERROR) saw_bad = true;
    if (t.kind == LEX_EOF) break;
  }
  assert_true(saw_bad);
  assert_string_equal(diag_str(&f.d), want);
  assert_int_equal(f.d.n_errors, n_errors);
  close_src(&f);
}

static void test_lex_reports_invalid_character_with_caret(void **state) {
  (void)state;
  expect_diag("x = a @ b;", 10,
              "t.where:1:7: error: invalid character '@'\n"
              "x = a @ b;\n"
              "      ^\n",
              1);
}

static void test_lex_reads_single_bar_and_ampersand_as_bitwise_operators(void **state) {
  static const lex_kind want[] = {LEX_IDENT, LEX_PIPE, LEX_IDENT, LEX_AMP, LEX_IDENT,
                                  LEX_OROR,  LEX_IDENT, LEX_ANDAND, LEX_IDENT, LEX_EOF};
  lex_kind got[16];
  fixture  f;
  int      i, n;
  (void)state;
  n = lex_kinds(&f, "a | b & c || d && e", got, 16);
  assert_int_equal(n, (int)(sizeof want / sizeof *want));
  for (i = 0; i < n; i++) assert_int_equal(got[i], want[i]);
  assert_int_equal(f.d.n_errors, 0);
  close_src(&f);
}

static void test_lex_reads_remainder_xor_complement_and_shifts(void **state) {
  static const lex_kind want[] = {LEX_PERCENT, LEX_CARET, LEX_TILDE, LEX_SHL, LEX_SHR,
                                  LEX_SHL,     LEX_LT,    LEX_SHR,   LEX_GE,  LEX_LE,
                                  LEX_LT,      LEX_GT,    LEX_EOF};
  lex_kind got[16];
  fixture  f;
  int      i, n;
  (void)state;
  /* the longest match, as in C: <<< is << then <, >>>= is >> then >= */
  n = lex_kinds(&f, "% ^ ~ << >> <<< >>>= <=< >", got, 16);
  assert_int_equal(n, (int)(sizeof want / sizeof *want));
  for (i = 0; i < n; i++) assert_int_equal(got[i], want[i]);
  assert_int_equal(f.d.n_errors, 0);
  close_src(&f);
}

static void test_lex_reports_one_error_for_a_run_of_non_ascii_bytes(void **state) {
  (void)state;
  expect_diag("x\xc3\xa9\xc3\xa9 y", 7,
              "t.where:1:2: error: invalid byte 0xC3 (non-ASCII text may appear only in comments "
              "and strings)\n"
              "x\xc3\xa9\xc3\xa9 y\n"
              " ^\n",
              1);
}

static void test_lex_reports_nul_byte_inside_the_source(void **state) {
  (void)state;
  expect_diag("ab\0cd", 5,
              "t.where:1:3: error: invalid NUL byte\n"
              "ab cd\n"
              "  ^\n",
              1);
}

static void test_lex_reports_nul_byte_inside_a_string(void **state) {
  (void)state;
  expect_diag("\"a\0b\"", 5,
              "t.where:1:3: error: invalid NUL byte in string literal\n"
              "\"a b\"\n"
              "  ^\n",
              1);
}

static void test_lex_reports_unterminated_string(void **state) {
  (void)state;
  expect_diag("p = \"model;\nx", 13,
              "t.where:1:5: error: unterminated string literal\n"
              "p = \"model;\n"
              "    ^\n",
              1);
}

static void test_lex_reports_letters_glued_to_a_number(void **state) {
  (void)state;
  expect_diag("  12abc + 1.5.2", 15,
              "t.where:1:3: error: invalid numeric literal '12abc'\n"
              "  12abc + 1.5.2\n"
              "  ^\n"
              "t.where:1:11: error: invalid numeric literal '1.5.2'\n"
              "  12abc + 1.5.2\n"
              "          ^\n",
              2);
}

static void test_lex_accepts_identifier_of_255_bytes_and_rejects_256(void **state) {
  char src[300];
  fixture f;
  lex_token t;
  (void)state;
  memset(src, 'a', sizeof src);
  open_src(&f, src, LEX_MAX_IDENT);
  t = lex_next(&f.l);
  assert_int_equal(t.kind, LEX_IDENT);
  assert_int_equal(t.len, LEX_MAX_IDENT);
  assert_int_equal(f.d.n_errors, 0);
  close_src(&f);

  open_src(&f, src, LEX_MAX_IDENT + 1);
  t = lex_next(&f.l);
  assert_int_equal(t.kind, LEX_IDENT);
  assert_int_equal(f.d.n_errors, 1);
  assert_non_null(strstr(diag_str(&f.d),
                         "t.where:1:1: error: identifier is too long (256 bytes; the limit is 255)\n"));
  close_src(&f);
}

/* xorshift64*: a fixed, portable random sequence. */
static uint64_t next_rand(uint64_t *s) {
  *s ^= *s >> 12;
  *s ^= *s << 25;
  *s ^= *s >> 27;
  return *s * 2685821657736338717u;
}

static void test_lex_survives_random_bytes(void **state) {
  static const char alphabet[] = "kernel option x1_ 09.eE+-\"#\n\t ()[]<>,;:={}|&!=*/\0\x80\xff@";
  uint64_t seed = 0x5eed1234abcdull;
  int round;
  (void)state;
  for (round = 0; round < 4000; round++) {
    size_t len = (size_t)(next_rand(&seed) % 300), i, tokens = 0;
    char *src = malloc(len + 1);
    fixture f;
    assert_non_null(src);
    for (i = 0; i < len; i++) {
      uint64_t r = next_rand(&seed);
      src[i] = round % 2 ? (char)(r & 0xff) : alphabet[r % (sizeof alphabet - 1)];
    }
    open_src(&f, src, len);
    for (;;) {
      lex_token t = lex_next(&f.l);
      assert_true(t.loc.off + t.len <= len);
      assert_true(t.loc.line >= 1 && t.loc.col >= 1);
      if (t.kind == LEX_EOF) break;
      assert_true(t.len >= 1);
      assert_true(++tokens <= len);
    }
    close_src(&f);
    free(src);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_lex_reports_line_and_column_of_each_token),
    cmocka_unit_test(test_lex_recognizes_every_punctuator_and_operator),
    cmocka_unit_test(test_lex_kind_names_of_keywords_and_operators_lex_as_their_kind),
    cmocka_unit_test(test_lex_reads_integer_hex_and_float_literals),
    cmocka_unit_test(test_lex_keywords_match_only_whole_words),
    cmocka_unit_test(test_lex_string_literal_spans_its_quotes),
    cmocka_unit_test(test_lex_skips_comments_with_any_text_to_end_of_line),
    cmocka_unit_test(test_lex_counts_columns_in_bytes),
    cmocka_unit_test(test_lex_skips_utf8_byte_order_mark),
    cmocka_unit_test(test_lex_returns_eof_again_and_again),
    cmocka_unit_test(test_lex_reports_invalid_character_with_caret),
    cmocka_unit_test(test_lex_reads_single_bar_and_ampersand_as_bitwise_operators),
      cmocka_unit_test(test_lex_reads_remainder_xor_complement_and_shifts),
    cmocka_unit_test(test_lex_reports_one_error_for_a_run_of_non_ascii_bytes),
    cmocka_unit_test(test_lex_reports_nul_byte_inside_the_source),
    cmocka_unit_test(test_lex_reports_nul_byte_inside_a_string),
    cmocka_unit_test(test_lex_reports_unterminated_string),
    cmocka_unit_test(test_lex_reports_letters_glued_to_a_number),
    cmocka_unit_test(test_lex_accepts_identifier_of_255_bytes_and_rejects_256),
    cmocka_unit_test(test_lex_survives_random_bytes),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
