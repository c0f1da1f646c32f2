/* spec_text.h: spec text made to measure for the front-end tests (test_parse, test_sema):
   expressions of a given size and depth, for the limits on operations and nesting. */
#ifndef WHEREC_TESTS_GEN_SPEC_TEXT_H
#define WHEREC_TESTS_GEN_SPEC_TEXT_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A balanced sum of 2^k leaves x: 2^(k+1) - 1 expression nodes, nesting k.
   malloc'ed; include after <cmocka.h>. */
static char *balanced(int k) {
  size_t len = 1;
  int i;
  char *s, *t;
  for (i = 0; i < k; i++) len = 2 * len + 3;
  s = malloc(len + 1);
  t = malloc(len + 1);
  assert_non_null(s);
  assert_non_null(t);
  strcpy(s, "x");
  for (i = 0; i < k; i++) {
    sprintf(t, "(%s+%s)", s, s);
    strcpy(s, t);
  }
  free(t);
  return s;
}

#endif
