/* test_cast_limits.c: float and double -> every integer width at the integer
   limits (+-2^(bits-1), +-2^bits and their neighbours), NaN, +-inf and -0.0:
   truncate, saturate, NaN -> 0, in kernel.h's helpers, the interpreter and the reference. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <cmocka.h>

#include "testlib.h"

/* The integer dtypes, from the one dtype list. */
#define INT_ONLY_SINT(E) WC_##E,
#define INT_ONLY_UINT(E) WC_##E,
#define INT_ONLY_REAL(E)
#define INT_ONLY_HALF(E)
#define INT_ONLY_BOOL(E)
#define INT_ONLY_COMPLEX(E)
#define INT_ONLY_STRING(E)
#define INT_ONLY_(E, code, name, T, alias, s, kind) INT_ONLY_##kind(E)
static const wc_dtype int_dtypes[] = {WC_DTYPE_LIST(INT_ONLY_)};
#define N_INT_DTYPES ((int)(sizeof int_dtypes / sizeof int_dtypes[0]))

static int  int_bits(wc_dtype t) { return (int)wc_dtype_size(t) * 8; }
static bool int_signed(wc_dtype t) {
  return t == WC_INT8 || t == WC_INT16 || t == WC_INT32 || t == WC_INT64;
}

/* The rule of docs/semantics.md, spelled out on exact comparisons with powers of two:
   NaN -> 0; at or past a limit -> that limit; else truncated toward zero.
   The result as the integer's bits, zero-extended to 64. */
static uint64_t expected_bits(wc_dtype to, double d) {
  int      n = int_bits(to);
  uint64_t mask = n == 64 ? UINT64_MAX : (UINT64_C(1) << n) - 1;
  if (d != d) return 0;
  if (int_signed(to)) {
    double top = ldexp(1.0, n - 1); /* 2^(n-1), exact */
    if (d >= top) return mask >> 1;
    if (d <= -top) return (UINT64_C(1) << (n - 1)) & mask;
    return (uint64_t)(int64_t)trunc(d) & mask;
  }
  if (d >= ldexp(1.0, n)) return mask;
  if (d <= 0.0) return 0; /* (-1, 0) truncates to 0 as well */
  return (uint64_t)trunc(d);
}

/* Inputs: +-2^(b-1), +-2^b and both neighbours of each in the source type,
   for every integer width b, then NaN (both signs), +-inf, +-0.0, +-0.5,
   +-1.5. Returns the count. */
static int limit_inputs(wc_dtype from, double *v) {
  static const int widths[] = {8, 16, 32, 64};
  int              n = 0;
  for (int w = 0; w < 4; w++)
    for (int e = widths[w] - 1; e <= widths[w]; e++)
      for (int sign = -1; sign <= 1; sign += 2) {
        double p = sign * ldexp(1.0, e);
        if (from == WC_FLOAT) {
          float f = (float)p;
          v[n++] = nextafterf(f, -INFINITY);
          v[n++] = f;
          v[n++] = nextafterf(f, INFINITY);
        } else {
          v[n++] = nextafter(p, -INFINITY);
          v[n++] = p;
          v[n++] = nextafter(p, INFINITY);
        }
      }
  const double more[] = {NAN, -NAN, INFINITY, -INFINITY, 0.0, -0.0, 0.5, -0.5, 1.5, -1.5};
  for (size_t i = 0; i < sizeof more / sizeof more[0]; i++) v[n++] = more[i];
  return n;
}

/* kernel.h's cast helper of dtype `to`, on a double (as generated code calls it). */
#define HELPER_SINT(E, s) case WC_##E: return (uint64_t)wc_##s##_from_real(d) & mask;
#define HELPER_UINT(E, s) case WC_##E: return (uint64_t)wc_##s##_from_real(d);
#define HELPER_REAL(E, s)
#define HELPER_HALF(E, s)
#define HELPER_BOOL(E, s)
#define HELPER_COMPLEX(E, s)
#define HELPER_STRING(E, s)
#define HELPER_(E, code, name, T, alias, s, kind) HELPER_##kind(E, s)
static uint64_t helper_bits(wc_dtype to, double d) {
  int      n = int_bits(to);
  uint64_t mask = n == 64 ? UINT64_MAX : (UINT64_C(1) << n) - 1;
  switch (to) {
    WC_DTYPE_LIST(HELPER_)
  default: break;
  }
  fail();
  return 0;
}

static void test_kernel_h_helpers_saturate_at_every_integer_limit(void **state) {
  (void)state;
  double v[64];
  for (int f = 0; f < 2; f++) {
    wc_dtype from = f ? WC_DOUBLE : WC_FLOAT;
    int      n = limit_inputs(from, v);
    for (int t = 0; t < N_INT_DTYPES; t++)
      for (int i = 0; i < n; i++) {
        uint64_t want = expected_bits(int_dtypes[t], v[i]), got = helper_bits(int_dtypes[t], v[i]);
        if (want != got)
          fail_msg("%s(%a) from %s: 0x%llx, expected 0x%llx", wc_dtype_name(int_dtypes[t]), v[i],
                   wc_dtype_name(from), (unsigned long long)got, (unsigned long long)want);
      }
  }
}

/* A one-instruction-after-input kernel: to(x) of x: from[N]. */
typedef struct cast_kernel {
  int64_t   dims[1];
  wc_param  param;
  wc_instr  prog[2];
  wc_kernel k;
} cast_kernel;

static void make_cast(cast_kernel *c, wc_dtype to, wc_dtype from) {
  c->dims[0] = WC_SYM(0);
  c->param = (wc_param){"x", from, 1, c->dims, NULL};
  c->prog[0] = (wc_instr){WC_OP_INPUT, (uint8_t)from, 0, 0, 0, {0, 0}};
  c->prog[1] = (wc_instr){WC_OP_CAST, (uint8_t)to, 0, 0, 0, {0, 0}};
  c->k = (wc_kernel){"cast", WC_KIND_ELEMENTWISE, 1, &c->param, 1, NULL, to, 1, c->dims,
                     2, c->prog, NULL, NULL, NULL, 1, NULL, NULL, NULL};
}

typedef wc_status (*run_fn)(const wc_kernel *, const wc_tensor *, int, wc_tensor *);

/* Every limit input of float and double cast to every integer dtype through `run`. */
static void check_runner(run_fn run, const char *what) {
  double      v[64];
  float       vf[64];
  uint64_t    out[64];
  cast_kernel c;
  for (int f = 0; f < 2; f++) {
    wc_dtype from = f ? WC_DOUBLE : WC_FLOAT;
    int64_t  n = limit_inputs(from, v);
    for (int64_t i = 0; i < n; i++) vf[i] = (float)v[i];
    for (int t = 0; t < N_INT_DTYPES; t++) {
      wc_dtype to = int_dtypes[t];
      size_t   w = wc_dtype_size(to);
      make_cast(&c, to, from);
      wc_tensor in = tl_tensor(from, 1, &n, f ? (void *)v : (void *)vf);
      wc_tensor o = tl_tensor(to, 1, &n, out);
      memset(out, 0xa5, sizeof out);
      tl_assert_status(run(&c.k, &in, 1, &o), WC_OK);
      for (int64_t i = 0; i < n; i++) {
        uint64_t got = 0, want = expected_bits(to, v[i]);
        memcpy(&got, (const char *)out + (size_t)i * w, w); /* little-endian */
        if (got != want)
          fail_msg("%s: %s(%a) from %s: 0x%llx, expected 0x%llx", what, wc_dtype_name(to), v[i],
                   wc_dtype_name(from), (unsigned long long)got, (unsigned long long)want);
      }
    }
  }
}

static void test_interpreter_saturates_at_every_integer_limit(void **state) {
  (void)state;
  check_runner(wc_interpret, "interpreter");
}

static void test_reference_saturates_at_every_integer_limit(void **state) {
  (void)state;
  check_runner(wc_ref_run, "reference");
}

/* 2^63 is INT64_MAX, not INT64_MIN (what x86-64's undefined plain cast gives). Read
   through volatile, so no compiler folds the cast (it may fold an undefined
   one to the saturated value and hide the bug). */
static void test_two_to_the_63_casts_to_int64_max_from_float_and_double(void **state) {
  (void)state;
  volatile double d63 = 0x1p63, d64 = 0x1p64, d31 = 0x1p31, d32 = 0x1p32;
  volatile float  f63 = 0x1p63f;
  assert_true(wc_i64_from_real(d63) == INT64_MAX);
  assert_true(wc_i64_from_real(wc_load_f32(f63)) == INT64_MAX);
  assert_true(wc_i64_from_real(-d63) == INT64_MIN);
  assert_true(wc_u64_from_real(d64) == UINT64_MAX);
  assert_true(wc_i32_from_real(d31) == INT32_MAX);
  assert_true(wc_u32_from_real(d32) == UINT32_MAX);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_kernel_h_helpers_saturate_at_every_integer_limit),
      cmocka_unit_test(test_interpreter_saturates_at_every_integer_limit),
      cmocka_unit_test(test_reference_saturates_at_every_integer_limit),
      cmocka_unit_test(test_two_to_the_63_casts_to_int64_max_from_float_and_double),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
