/* test_mul_fits.c: wc__mul_fits (src/tensor.h), the overflow check of every
   element count and byte size; built twice: with the compiler's builtin, and
   with WC_PORTABLE_BITS (the division other compilers get). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "tensor.h"

__extension__ typedef unsigned __int128 u128; /* the exact product, gcc and clang */

static void test_mul_fits_exactly_when_the_product_is_at_most_int64_max(void **state) {
  (void)state;
  const int64_t edge[] = {0,
                          1,
                          2,
                          3,
                          (int64_t)1 << 31,
                          (int64_t)1 << 32,
                          3037000499, /* floor(sqrt(INT64_MAX)) */
                          3037000500,
                          INT64_MAX / 3,
                          INT64_MAX / 2,
                          INT64_MAX / 2 + 1,
                          INT64_MAX - 1,
                          INT64_MAX};
  const int n = (int)(sizeof edge / sizeof *edge);
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      const int64_t           a = edge[i], b = edge[j];
      const u128              exact = (u128)a * (u128)b;
      int64_t                 r = -1;
      const bool              fits = wc__mul_fits(a, b, &r);
      assert_int_equal(fits, exact <= (u128)INT64_MAX);
      if (fits) assert_true(r == (int64_t)exact);
    }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_mul_fits_exactly_when_the_product_is_at_most_int64_max),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
