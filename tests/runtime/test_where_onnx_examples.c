/* test_where_onnx_examples.c: every worked example of the ONNX Where-16 page
   (../shared/seeds/onnx-where-16.rst), through wc_where and the reference. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <wherec/wherec.h>

#include "testlib.h"

#include "onnx_where_examples.h"

/* Runs Where on the example through the generic kernel and the reference and
   checks both against the page's expected output, byte for byte. */
static void check_example(wc_dtype dt, int rc, const int64_t *sc, const bool *c,
                          int rx, const int64_t *sx, const void *x,
                          int ry, const int64_t *sy, const void *y,
                          int ro, const int64_t *so, const void *expect) {
  char got[256], ref[256];
  size_t bytes = wc_dtype_size(dt);
  for (int d = 0; d < ro; d++) bytes *= (size_t)so[d];
  assert_true(bytes <= sizeof got);
  wc_tensor tc = tl_tensor(WC_BOOL, rc, sc, (void *)c), tx = tl_tensor(dt, rx, sx, (void *)x),
            ty = tl_tensor(dt, ry, sy, (void *)y), to = tl_tensor(dt, ro, so, got),
            tr = tl_tensor(dt, ro, so, ref);
  int rank;
  int64_t shape[WC_MAX_RANK];
  const wc_tensor *in[3] = {&tc, &tx, &ty};
  tl_assert_status(wc_broadcast_shape(in, 3, &rank, shape), WC_OK);
  assert_int_equal(rank, ro);
  assert_memory_equal(shape, so, (size_t)ro * sizeof *so);
  tl_assert_status(wc_where(&tc, &tx, &ty, &to), WC_OK);
  tl_assert_status(wc_ref_where(&tc, &tx, &ty, &tr), WC_OK);
  if (dt == WC_STRING) {                              /* strings: compare the text */
    for (size_t i = 0; i < bytes / sizeof(wc_string); i++) {
      assert_string_equal(((wc_string *)got)[i], ((const wc_string *)expect)[i]);
      assert_string_equal(((wc_string *)ref)[i], ((const wc_string *)expect)[i]);
    }
    return;
  }
  assert_memory_equal(got, expect, bytes);
  assert_memory_equal(ref, expect, bytes);
}

#define X(name, DT, T, cr, cs, cv, xr, xs, xv, yr, ys, yv, orank, os, ov)          \
  static void name(void **state) {                                              \
    (void)state;                                                                \
    static const int64_t sc[] = cs, sx[] = xs, sy[] = ys, so[] = os;            \
    static const bool c[] = cv;                                                 \
    static const T x[] = xv, y[] = yv, expect[] = ov;                           \
    check_example(DT, cr, sc, c, xr, sx, x, yr, sy, y, orank, so, expect);      \
  }
WC_ONNX_WHERE_EXAMPLES(X)
#undef X

int main(void) {
#define X(name, ...) cmocka_unit_test(name),
  const struct CMUnitTest tests[] = {WC_ONNX_WHERE_EXAMPLES(X)};
#undef X
  return cmocka_run_group_tests(tests, NULL, NULL);
}
