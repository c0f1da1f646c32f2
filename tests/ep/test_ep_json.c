/* test_ep_json.c: the execution provider's JSON reader (ep/json.c): valid documents into
   their tree (nesting, every escape and \u surrogate pairs into UTF-8, numbers, empty
   containers), each kind of bad input refused with NULL and a message naming its line,
   the depth limit at exactly JSON_MAX_DEPTH, and json_get / json_get_string. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "json.h"

static char err[256];

static json *parse(const char *text) { return json_parse(text, strlen(text), err, sizeof err); }

/* text is refused, with a message "line <line>: ..." holding phrase. */
static void refused_at(const char *text, size_t len, int line, const char *phrase) {
  char  want[32];
  json *j = json_parse(text, len, err, sizeof err);
  if (j) {
    json_free(j);
    fail_msg("accepted: %.*s", (int)len, text);
  }
  snprintf(want, sizeof want, "line %d: ", line);
  if (strncmp(err, want, strlen(want)) != 0 || !strstr(err, phrase))
    fail_msg("%.*s: message '%s', expected '%s...%s'", (int)len, text, err, want, phrase);
  if (strchr(err, '\n')) fail_msg("a message of more than one line: %s", err);
}

static void refused(const char *text, int line, const char *phrase) {
  refused_at(text, strlen(text), line, phrase);
}

/* The element i of an array (or member i of an object). */
static const json *nth(const json *c, size_t i) {
  const json *e = c->first;
  while (e && i--) e = e->next;
  assert_non_null(e);
  return e;
}

/* ---- valid documents ---------------------------------------------------------------------- */

static void test_json_reads_nested_objects_and_arrays_in_order(void **state) {
  (void)state;
  json *j = parse(" {\"a\": [1, [2, {\"b\": [true, false, null]}], {}],\n \"c\": {\"d\": {\"e\": \"f\"}}} ");
  assert_non_null(j);
  assert_string_equal(err, "");
  assert_int_equal(j->kind, JSON_OBJECT);
  assert_int_equal(j->count, 2);
  assert_null(j->key);
  const json *a = json_get(j, "a");
  assert_non_null(a);
  assert_string_equal(a->key, "a");
  assert_int_equal(a->kind, JSON_ARRAY);
  assert_int_equal(a->count, 3);
  assert_int_equal(nth(a, 0)->kind, JSON_NUMBER);
  assert_true(nth(a, 0)->number == 1.0);
  assert_null(nth(a, 0)->key);
  const json *inner = nth(a, 1);
  assert_int_equal(inner->kind, JSON_ARRAY);
  assert_int_equal(inner->count, 2);
  const json *b = json_get(nth(inner, 1), "b");
  assert_non_null(b);
  assert_int_equal(b->count, 3);
  assert_int_equal(nth(b, 0)->kind, JSON_BOOL);
  assert_true(nth(b, 0)->boolean);
  assert_int_equal(nth(b, 1)->kind, JSON_BOOL);
  assert_false(nth(b, 1)->boolean);
  assert_int_equal(nth(b, 2)->kind, JSON_NULL);
  assert_null(nth(b, 2)->next);
  assert_int_equal(nth(a, 2)->kind, JSON_OBJECT);
  assert_int_equal(nth(a, 2)->count, 0);
  assert_null(nth(a, 2)->first);
  assert_string_equal(json_get_string(json_get(json_get(j, "c"), "d"), "e"), "f");
  json_free(j);
}

static void test_json_reads_empty_containers_and_an_empty_string(void **state) {
  (void)state;
  json *j = parse("[[], {}, \"\", [[]], {\"\": {}}]");
  assert_non_null(j);
  assert_int_equal(j->count, 5);
  assert_int_equal(nth(j, 0)->kind, JSON_ARRAY);
  assert_int_equal(nth(j, 0)->count, 0);
  assert_null(nth(j, 0)->first);
  assert_int_equal(nth(j, 1)->kind, JSON_OBJECT);
  assert_int_equal(nth(j, 1)->count, 0);
  assert_int_equal(nth(j, 2)->kind, JSON_STRING);
  assert_string_equal(nth(j, 2)->string, "");
  assert_int_equal(nth(j, 3)->count, 1);
  assert_int_equal(nth(nth(j, 3), 0)->count, 0);
  const json *empty_key = json_get(nth(j, 4), "");
  assert_non_null(empty_key);
  assert_int_equal(empty_key->kind, JSON_OBJECT);
  json_free(j);
  const char *docs[] = {"[]", "{}", " \t\r\n[ \n ]\n", "{ }"};
  for (size_t i = 0; i < sizeof docs / sizeof *docs; i++) {
    j = parse(docs[i]);
    assert_non_null(j);
    assert_int_equal(j->count, 0);
    json_free(j);
  }
}

static void test_json_reads_a_lone_scalar_as_the_document(void **state) {
  (void)state;
  json *j = parse("  \"x\"\n");
  assert_non_null(j);
  assert_int_equal(j->kind, JSON_STRING);
  assert_string_equal(j->string, "x");
  json_free(j);
  j = parse("-12.5e1");
  assert_non_null(j);
  assert_true(j->number == -125.0);
  json_free(j);
  j = parse("null");
  assert_non_null(j);
  assert_int_equal(j->kind, JSON_NULL);
  json_free(j);
  j = parse("true");
  assert_non_null(j);
  assert_true(j->kind == JSON_BOOL && j->boolean);
  json_free(j);
}

static void test_json_unescapes_every_escape(void **state) {
  (void)state;
  json *j = parse("[\"q\\\"b\\\\s\\/n\\nt\\tr\\rb\\bf\\f\", \"\\u0041\\u00e9\\u20AC\\uffFF\"]");
  assert_non_null(j);
  assert_string_equal(nth(j, 0)->string, "q\"b\\s/n\nt\tr\rb\bf\f");
  /* U+0041, U+00E9 (2 bytes), U+20AC (3 bytes), U+FFFF (3 bytes), hex digits of either case */
  assert_string_equal(nth(j, 1)->string, "A\xc3\xa9\xe2\x82\xac\xef\xbf\xbf");
  json_free(j);
}

static void test_json_joins_a_surrogate_pair_into_one_four_byte_character(void **state) {
  (void)state;
  json *j = parse("[\"\\ud83d\\ude00\", \"a\\uD800\\uDC00z\", \"\\udbff\\udfff\"]");
  assert_non_null(j);
  assert_string_equal(nth(j, 0)->string, "\xf0\x9f\x98\x80"); /* U+1F600 */
  assert_string_equal(nth(j, 1)->string, "a\xf0\x90\x80\x80z"); /* U+10000 */
  assert_string_equal(nth(j, 2)->string, "\xf4\x8f\xbf\xbf"); /* U+10FFFF */
  json_free(j);
}

static void test_json_reads_a_lone_surrogate_as_u_fffd(void **state) {
  (void)state;
  json *j = parse("[\"\\ud83d\", \"\\ude00x\", \"\\ud83dx\"]");
  assert_non_null(j);
  assert_string_equal(nth(j, 0)->string, "\xef\xbf\xbd");
  assert_string_equal(nth(j, 1)->string, "\xef\xbf\xbdx");
  assert_string_equal(nth(j, 2)->string, "\xef\xbf\xbdx");
  json_free(j);
}

static void test_json_keeps_utf8_bytes_and_ends_a_string_at_an_escaped_nul(void **state) {
  (void)state;
  json *j = parse("[\"caf\xc3\xa9 \xf0\x9f\x98\x80\", \"ab\\u0000cd\"]");
  assert_non_null(j);
  assert_string_equal(nth(j, 0)->string, "caf\xc3\xa9 \xf0\x9f\x98\x80");
  assert_string_equal(nth(j, 1)->string, "ab"); /* json.h: a \u0000 ends it early */
  json_free(j);
}

static void test_json_reads_numbers_of_every_form(void **state) {
  (void)state;
  json *j = parse("[0, -0, 7, -42, 3.25, -0.5, 1e3, 1E+3, 25e-2, 2.5E-1, 123456789012, 1e308, 4.9e-324]");
  assert_non_null(j);
  const double want[] = {0, -0.0, 7, -42, 3.25, -0.5, 1000, 1000, 0.25, 0.25, 123456789012.0, 1e308, 4.9e-324};
  assert_int_equal(j->count, sizeof want / sizeof *want);
  for (size_t i = 0; i < j->count; i++) {
    assert_int_equal(nth(j, i)->kind, JSON_NUMBER);
    if (nth(j, i)->number != want[i]) fail_msg("number %zu: %g, expected %g", i, nth(j, i)->number, want[i]);
  }
  assert_true(nth(j, 1)->number == 0.0); /* -0 reads as a zero (its sign is not a concern) */
  json_free(j);
}

static void test_json_reads_only_the_length_given(void **state) {
  (void)state;
  const char text[] = "[1, 2]garbage that is not JSON";
  json      *j = json_parse(text, 6, err, sizeof err);
  assert_non_null(j);
  assert_int_equal(j->count, 2);
  json_free(j);
  /* a buffer with no NUL at all */
  char raw[3] = {'"', 'a', '"'};
  j = json_parse(raw, sizeof raw, err, sizeof err);
  assert_non_null(j);
  assert_string_equal(j->string, "a");
  json_free(j);
}

static void test_json_accepts_nesting_of_exactly_json_max_depth(void **state) {
  (void)state;
  char text[2 * JSON_MAX_DEPTH + 8];
  int  n = 0;
  for (int d = 0; d < JSON_MAX_DEPTH; d++) text[n++] = '[';
  text[n++] = '7'; /* a scalar inside the innermost array */
  for (int d = 0; d < JSON_MAX_DEPTH; d++) text[n++] = ']';
  json *j = json_parse(text, (size_t)n, err, sizeof err);
  assert_non_null(j);
  const json *v = j;
  for (int d = 0; d < JSON_MAX_DEPTH; d++) {
    assert_int_equal(v->kind, JSON_ARRAY);
    v = v->first;
  }
  assert_true(v->kind == JSON_NUMBER && v->number == 7.0);
  json_free(j);
  /* objects count alike */
  char obj[8 * JSON_MAX_DEPTH];
  n = 0;
  for (int d = 0; d < JSON_MAX_DEPTH; d++) n += snprintf(obj + n, sizeof obj - (size_t)n, "{\"k\":");
  int inner = n;
  n += snprintf(obj + n, sizeof obj - (size_t)n, "{}"); /* one more: refused */
  for (int d = 0; d < JSON_MAX_DEPTH; d++) obj[n++] = '}';
  refused_at(obj, (size_t)n, 1, "nested deeper than 64");
  n = inner + snprintf(obj + inner, sizeof obj - (size_t)inner, "null"); /* JSON_MAX_DEPTH objects */
  for (int d = 0; d < JSON_MAX_DEPTH; d++) obj[n++] = '}';
  j = json_parse(obj, (size_t)n, err, sizeof err);
  assert_non_null(j);
  json_free(j);
}

/* ---- refusals ----------------------------------------------------------------------------- */

static void test_json_rejects_nesting_deeper_than_json_max_depth_with_its_line(void **state) {
  (void)state;
  char text[2 * JSON_MAX_DEPTH + 8];
  int  n = 0;
  text[n++] = '\n';
  for (int d = 0; d <= JSON_MAX_DEPTH; d++) text[n++] = '[';
  for (int d = 0; d <= JSON_MAX_DEPTH; d++) text[n++] = ']';
  refused_at(text, (size_t)n, 2, "nested deeper than 64");
  /* far deeper: refused before the stack is at risk */
  size_t deep = 1000000;
  char  *big = malloc(deep);
  assert_non_null(big);
  memset(big, '[', deep);
  refused_at(big, deep, 1, "nested deeper than");
  free(big);
}

static void test_json_rejects_truncated_text_with_its_line(void **state) {
  (void)state;
  refused("", 1, "unexpected end");
  refused("   \n  ", 2, "unexpected end");
  refused("[", 1, "unexpected end");
  refused("[1,\n", 2, "unexpected end");
  refused("{\"a\": 1", 1, "expected ',' or '}'");
  refused("[1, 2", 1, "expected ',' or ']'");
  refused("{\"a\"", 1, "expected ':'");
  refused("{\"a\":", 1, "unexpected end");
  refused("{\n\"a", 2, "unterminated string");
  refused("\"abc\\", 1, "unterminated string");
  refused("[\"\\u12", 1, "bad \\u escape");
  refused("tr", 1, "unexpected character");
  refused("nul", 1, "unexpected character");
  refused("{", 1, "expected a member name");
  /* every proper prefix of a document is refused */
  const char *doc = "{\"k\": [1, -2.5e3, \"s\\u00e9\", true, null, {}]}";
  for (size_t len = 0; len < strlen(doc); len++) {
    json *j = json_parse(doc, len, err, sizeof err);
    if (j) fail_msg("the prefix of %zu bytes was accepted", len);
    assert_int_equal(strncmp(err, "line 1: ", 8), 0);
  }
  json *j = parse(doc);
  assert_non_null(j);
  json_free(j);
}

static void test_json_rejects_text_after_the_value_with_its_line(void **state) {
  (void)state;
  refused("{} {}", 1, "text after the value");
  refused("[1]\n\n]", 3, "text after the value");
  refused("1 2", 1, "text after the value");
  refused("\"a\" x", 1, "text after the value");
  refused("null,", 1, "text after the value");
  refused_at("[]\0", 3, 1, "text after the value"); /* a NUL byte inside the length */
}

static void test_json_rejects_a_missing_colon_with_its_line(void **state) {
  (void)state;
  refused("{\n  \"a\": 1,\n  \"b\" 2\n}", 3, "expected ':'");
  refused("{\"a\" = 1}", 1, "expected ':'");
}

static void test_json_rejects_missing_and_trailing_commas_with_their_line(void **state) {
  (void)state;
  refused("[1 2]", 1, "expected ',' or ']'");
  refused("{\"a\": 1 \"b\": 2}", 1, "expected ',' or '}'");
  refused("[1,\n2,\n]", 3, "bad number");
  refused("{\"a\": 1,\n}", 2, "expected a member name");
  refused("[,1]", 1, "bad number");
  refused("{1: 2}", 1, "expected a member name");
  refused("{'a': 2}", 1, "expected a member name");
}

static void test_json_rejects_bad_escapes_with_their_line(void **state) {
  (void)state;
  refused("[\"\\x41\"]", 1, "bad escape '\\x'");
  refused("\n\n[\"ok\", \"\\a\"]", 3, "bad escape '\\a'");
  refused("\"\\'\"", 1, "bad escape");
  refused("\"\\u12G4\"", 1, "bad \\u escape");
  refused("\"\\u-123\"", 1, "bad \\u escape");
  refused("\"\\U0041\"", 1, "bad escape '\\U'");
  /* a high surrogate followed by an escape that is not a low one */
  refused("\"\\ud83d\\u0041\"", 1, "bad surrogate pair");
  refused("\"\\ud83d\\ud83d\"", 1, "bad surrogate pair");
  refused("\"\\ud83d\\uzzzz\"", 1, "bad surrogate pair");
  /* the escaped byte is shown as a character only where it prints: the message stays one
     line (a newline there once broke it, found by fuzz_ep_manifest) */
  refused("[\"\\\n\"]", 1, "bad escape: byte 0x0a after '\\'");
  refused("\n\"\\\xff\"", 2, "bad escape: byte 0xff after '\\'");
  refused("\"\\ \"", 1, "bad escape: byte 0x20 after '\\'");
  refused_at("\"\\\0\"", 4, 1, "bad escape: byte 0x00 after '\\'");
}

static void test_json_rejects_control_characters_in_strings_with_their_line(void **state) {
  (void)state;
  refused("[\"a\nb\"]", 1, "control character in a string");
  refused("\n[\"a\tb\"]", 2, "control character in a string");
  refused("{\"k\x01\": 1}", 1, "control character in a string");
  refused("\"\x1f\"", 1, "control character in a string");
  refused_at("\"a\0b\"", 5, 1, "control character in a string");
  /* 0x7f and bytes >= 0x80 are no control characters here */
  json *j = parse("\"\x7f\xc3\xa9\"");
  assert_non_null(j);
  json_free(j);
}

static void test_json_rejects_bad_numbers_with_their_line(void **state) {
  (void)state;
  const char *bad[] = {"-", "+1", ".5", "1.", "1.e3", "1e", "1e+", "1E-", "-.5", "--1", "NaN",
                       "Infinity", "-Infinity", "[\n-]", "[1, .2]", "{\"a\":\n\n -x}"};
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    int line = 1;
    for (const char *c = bad[i]; *c; c++) line += *c == '\n';
    refused(bad[i], line, "bad number");
  }
  /* leading zeros and hex: the 0 is a number, what follows is not where it stands */
  refused("01", 1, "text after the value");
  refused("0x10", 1, "text after the value");
  refused("[00]", 1, "expected ',' or ']'");
  refused("-01", 1, "text after the value");
}

static void test_json_rejects_a_number_too_long_to_read_instead_of_dropping_it(void **state) {
  (void)state;
  /* 1.000...0001 (70 characters): valid JSON, longer than the reader takes; refused, where
     the reader once returned the array without it (and without what followed) */
  char text[128] = "[1.";
  size_t n = strlen(text);
  while (n < 70) text[n++] = '0';
  text[n++] = '1';
  strcpy(text + n, ", 2]");
  refused(text, 1, "number too long");
  refused(text + 1, 1, "number too long"); /* alone, without the array around it */
  /* 63 characters is the most */
  char ok[80] = "1.";
  for (n = 2; n < 63; n++) ok[n] = '5';
  ok[n] = '\0';
  json *j = parse(ok);
  assert_non_null(j);
  assert_true(j->number > 1.5 && j->number < 1.6);
  json_free(j);
}

static void test_json_rejects_bad_literals_with_their_line(void **state) {
  (void)state;
  refused("[True]", 1, "bad number");
  refused("[\ntrue, fals]", 2, "unexpected character");
  refused("[nil]", 1, "unexpected character");
  refused("[truex]", 1, "expected ',' or ']'");
  refused("[undefined]", 1, "bad number");
}

static void test_json_counts_lines_up_to_the_error(void **state) {
  (void)state;
  refused("{\n\"a\": [1,\n2,\n3,\n\"\\q\"]}", 5, "bad escape");
  refused("\r\n\r\n\r\n{x}", 4, "expected a member name"); /* CR LF counts once */
  /* newlines inside an escaped string value count as none */
  refused("[\"a\\nb\\nc\", x]", 1, "bad number");
}

static void test_json_writes_a_message_that_fits_the_buffer_given(void **state) {
  (void)state;
  char small[12];
  memset(small, 'Z', sizeof small);
  assert_null(json_parse("[1 2]", 5, small, sizeof small));
  assert_string_equal(small, "line 1: exp"); /* cut, NUL-terminated */
  assert_null(json_parse("[1 2]", 5, NULL, 0)); /* no buffer at all */
  assert_null(json_parse(NULL, 0, err, sizeof err));
  assert_string_equal(err, "line 1: no text");
  /* a success clears the buffer */
  strcpy(err, "stale");
  json *j = parse("[]");
  assert_non_null(j);
  assert_string_equal(err, "");
  json_free(j);
  json_free(NULL);
}

/* ---- json_get and json_get_string -------------------------------------------------------- */

static void test_json_get_finds_a_member_by_name_and_only_in_objects(void **state) {
  (void)state;
  json *j = parse("{\"a\": 1, \"b\": {\"a\": 2}, \"c\": [\"a\"], \"a\": 3, \"e\\u0301\": 4}");
  assert_non_null(j);
  assert_true(json_get(j, "a")->number == 1.0); /* the first of a repeated name */
  assert_true(json_get(json_get(j, "b"), "a")->number == 2.0);
  assert_null(json_get(j, "d"));
  assert_null(json_get(j, "A"));
  assert_null(json_get(j, ""));
  assert_non_null(json_get(j, "e\xcc\x81")); /* by its unescaped bytes */
  assert_null(json_get(json_get(j, "c"), "a")); /* an array has no members */
  assert_null(json_get(nth(j, 0), "a"));        /* nor a number */
  assert_null(json_get(NULL, "a"));
  json_free(j);
}

static void test_json_get_string_gives_strings_only(void **state) {
  (void)state;
  json *j = parse("{\"s\": \"text\", \"n\": 1, \"t\": true, \"z\": null, \"o\": {}, \"a\": [\"x\"], \"e\": \"\"}");
  assert_non_null(j);
  assert_string_equal(json_get_string(j, "s"), "text");
  assert_string_equal(json_get_string(j, "e"), "");
  assert_null(json_get_string(j, "n"));
  assert_null(json_get_string(j, "t"));
  assert_null(json_get_string(j, "z"));
  assert_null(json_get_string(j, "o"));
  assert_null(json_get_string(j, "a"));
  assert_null(json_get_string(j, "missing"));
  assert_null(json_get_string(json_get(j, "a"), "s"));
  assert_null(json_get_string(NULL, "s"));
  json_free(j);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_json_reads_nested_objects_and_arrays_in_order),
      cmocka_unit_test(test_json_reads_empty_containers_and_an_empty_string),
      cmocka_unit_test(test_json_reads_a_lone_scalar_as_the_document),
      cmocka_unit_test(test_json_unescapes_every_escape),
      cmocka_unit_test(test_json_joins_a_surrogate_pair_into_one_four_byte_character),
      cmocka_unit_test(test_json_reads_a_lone_surrogate_as_u_fffd),
      cmocka_unit_test(test_json_keeps_utf8_bytes_and_ends_a_string_at_an_escaped_nul),
      cmocka_unit_test(test_json_reads_numbers_of_every_form),
      cmocka_unit_test(test_json_reads_only_the_length_given),
      cmocka_unit_test(test_json_accepts_nesting_of_exactly_json_max_depth),
      cmocka_unit_test(test_json_rejects_nesting_deeper_than_json_max_depth_with_its_line),
      cmocka_unit_test(test_json_rejects_truncated_text_with_its_line),
      cmocka_unit_test(test_json_rejects_text_after_the_value_with_its_line),
      cmocka_unit_test(test_json_rejects_a_missing_colon_with_its_line),
      cmocka_unit_test(test_json_rejects_missing_and_trailing_commas_with_their_line),
      cmocka_unit_test(test_json_rejects_bad_escapes_with_their_line),
      cmocka_unit_test(test_json_rejects_control_characters_in_strings_with_their_line),
      cmocka_unit_test(test_json_rejects_bad_numbers_with_their_line),
      cmocka_unit_test(test_json_rejects_a_number_too_long_to_read_instead_of_dropping_it),
      cmocka_unit_test(test_json_rejects_bad_literals_with_their_line),
      cmocka_unit_test(test_json_counts_lines_up_to_the_error),
      cmocka_unit_test(test_json_writes_a_message_that_fits_the_buffer_given),
      cmocka_unit_test(test_json_get_finds_a_member_by_name_and_only_in_objects),
      cmocka_unit_test(test_json_get_string_gives_strings_only),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
