/* test_vec.c: unit tests of gen/base/vec.h, the one growable array: slots in
   order and zeroed, in an arena or by malloc, and the limits refused whole. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "base/vec.h"

typedef struct pair {
  int a, b;
} pair;

static void test_vec_keeps_its_elements_in_order_across_growth_in_an_arena(void **state) {
  arena a;
  VEC(pair) v = {0};
  (void)state;
  arena_init(&a);
  for (int i = 0; i < 1000; i++) {
    pair *p = vec_push(&a, &v);
    assert_non_null(p);
    assert_int_equal(p->a, 0);                         /* a new slot is zeroed */
    assert_int_equal(p->b, 0);
    p->a = i;
    p->b = -i;
  }
  assert_int_equal(v.n, 1000);
  assert_true(v.cap >= v.n);
  for (int i = 0; i < 1000; i++) {
    assert_int_equal(v.data[i].a, i);
    assert_int_equal(v.data[i].b, -i);
  }
  arena_free(&a);
}

static void test_vec_grows_by_malloc_without_an_arena_and_frees_empty(void **state) {
  VEC(int) v = {0};
  (void)state;
  for (int i = 0; i < 100; i++) *vec_push(NULL, &v) = i * i;
  assert_int_equal(v.n, 100);
  for (int i = 0; i < 100; i++) assert_int_equal(v.data[i], i * i);
  vec_free(&v);
  assert_null(v.data);
  assert_int_equal(v.n, 0);
  assert_int_equal(v.cap, 0);
}

static void test_vec_refuses_more_than_vec_max_elements_and_keeps_what_it_has(void **state) {
  VEC(char) v = {0};
  (void)state;
  *vec_push(NULL, &v) = 'x';
  char *kept = v.data;
  v.n = v.cap = VEC_MAX;                               /* as if full; nothing is allocated */
  assert_false(vec_grow_(NULL, &v.data, v.n, &v.cap, sizeof *v.data));
  assert_null(vec_push(NULL, &v));
  assert_ptr_equal(v.data, kept);
  assert_int_equal(v.cap, VEC_MAX);
  v.n = v.cap = 1;
  assert_int_equal(v.data[0], 'x');
  vec_free(&v);
}

static void test_vec_refuses_a_byte_size_that_overflows(void **state) {
  VEC(char) v = {0};
  (void)state;
  /* 8 slots (the first growth) of SIZE_MAX / 4 bytes each do not fit a size_t */
  assert_false(vec_grow_(NULL, &v.data, 0, &v.cap, SIZE_MAX / 4));
  assert_null(v.data);
  assert_int_equal(v.cap, 0);
  assert_true(vec_grow_(NULL, &v.data, 0, &v.cap, sizeof *v.data));
  assert_int_equal(v.cap, 8);
  vec_free(&v);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_vec_keeps_its_elements_in_order_across_growth_in_an_arena),
      cmocka_unit_test(test_vec_grows_by_malloc_without_an_arena_and_frees_empty),
      cmocka_unit_test(test_vec_refuses_more_than_vec_max_elements_and_keeps_what_it_has),
      cmocka_unit_test(test_vec_refuses_a_byte_size_that_overflows),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
