/* main.c: the consumer example: calls a generated kernel directly, then registers
   the generated table and goes through wc_where and wc_run; exits 1 on a wrong value. */
#include <stdio.h>
#include <string.h>

#include <wherec/wherec.h>

#include "model.h"

static int failures;

/* Compares n floats bit for bit (so -0.0 and 0.0 differ) and prints them. */
static void expect(const char *what, const float *got, const float *want, int n) {
  int ok = memcmp(got, want, (size_t)n * sizeof *got) == 0;
  printf("%-36s %s:", what, ok ? "ok  " : "FAIL");
  for (int i = 0; i < n; i++) printf(" %g", (double)got[i]);
  printf("\n");
  if (!ok) {
    printf("%-36s want:", "");
    for (int i = 0; i < n; i++) printf(" %g", (double)want[i]);
    printf("\n");
    failures++;
  }
}

static void expect_ok(const char *what, wc_status s) {
  if (s != WC_OK) {
    printf("%-36s FAIL: %s\n", what, wc_status_str(s));
    failures++;
  }
}

int main(void) {
  /* 1. The generated fused kernel, called directly: leaky(x) = x > 0 ? x : x * 0.125. */
  float x[6] = {-8.0f, 2.0f, -0.5f, 0.0f, 3.5f, -16.0f};
  float leaky_want[6] = {-1.0f, 2.0f, -0.0625f, 0.0f, 3.5f, -2.0f};
  float out6[6];
  model_leaky(6, x, out6);
  expect("model_leaky (direct call)", out6, leaky_want, 6);

  /* 2. wc_where after registering the table: c [3,1], x [3,4], y [1,4] matches
     select_rows, so the runtime uses the generated kernel for it. */
  expect_ok("wc_register(&model_table)", wc_register(&model_table));
  bool c[3] = {true, false, true};
  float xs[12] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
  float ys[4] = {-1, -2, -3, -4};
  float rows[12];
  float rows_want[12] = {1, 2, 3, 4, -1, -2, -3, -4, 9, 10, 11, 12};
  wc_tensor tc = {WC_BOOL, 2, {3, 1}, c};
  wc_tensor tx = {WC_FLOAT, 2, {3, 4}, xs};
  wc_tensor ty = {WC_FLOAT, 2, {1, 4}, ys};
  wc_tensor tout = {WC_FLOAT, 2, {3, 4}, rows};
  expect_ok("wc_where", wc_where(&tc, &tx, &ty, &tout));
  expect("wc_where (select_rows pattern)", rows, rows_want, 12);

  /* 3. wc_run by kernel name: a shape that fits leaky's pattern [N] runs the
     generated code; a [2,3] tensor does not and runs the interpreter. */
  wc_path path = 0;
  wc_tensor in = {WC_FLOAT, 1, {6}, x};
  wc_tensor out = {WC_FLOAT, 1, {6}, out6};
  memset(out6, 0, sizeof out6);
  expect_ok("wc_run leaky [6]", wc_run(&model_table, "leaky", &in, 1, &out, &path));
  expect("wc_run leaky [6]", out6, leaky_want, 6);
  if (path != WC_PATH_SPECIALIZED) {
    printf("wc_run leaky [6] took path %d, not the specialized kernel\n", (int)path);
    failures++;
  }
  in.rank = out.rank = 2;
  in.shape[0] = out.shape[0] = 2;
  in.shape[1] = out.shape[1] = 3;
  memset(out6, 0, sizeof out6);
  expect_ok("wc_run leaky [2,3]", wc_run(&model_table, "leaky", &in, 1, &out, &path));
  expect("wc_run leaky [2,3] (interpreter)", out6, leaky_want, 6);
  if (path != WC_PATH_INTERPRETED) {
    printf("wc_run leaky [2,3] took path %d, not the interpreter\n", (int)path);
    failures++;
  }

  printf(failures ? "consumer: %d FAILED\n" : "consumer: all results right\n", failures);
  return failures ? 1 : 0;
}
