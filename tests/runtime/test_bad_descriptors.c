/* test_bad_descriptors.c: a table of bad tensor descriptors, each with the status every
   runtime entry point must return for it, in every operand position, touching no byte. */
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include <wherec/wherec.h>

#include "golden.h"

#define BIG ((int64_t)1 << 62)
#define SENTINEL 0xab

/* One descriptor and what the rules of the runtime API (wherec/wherec.h) make of it. */
typedef struct bad_case {
  const char *what;
  int         dtype;           /* as stored in wc_tensor.dtype (may be no dtype at all) */
  int         rank;
  int64_t     shape[4];        /* the first min(rank, 4) extents; the rest are 1 */
  bool        has_data;        /* data points at a sentinel buffer, else NULL */
  wc_status   status;          /* of every entry point that validates the descriptor */
  wc_status   bcast;           /* of wc_broadcast_shape, which reads rank and extents only */
} bad_case;

static const bad_case cases[] = {
  {"dtype 0 (undefined)", 0, 1, {2}, true, WC_E_DTYPE, WC_OK},
  {"dtype 17 (past bfloat16)", 17, 1, {2}, true, WC_E_DTYPE, WC_OK},
  {"dtype -1", -1, 1, {2}, true, WC_E_DTYPE, WC_OK},
  {"dtype INT_MAX", INT_MAX, 0, {0}, true, WC_E_DTYPE, WC_OK},
  {"rank -1", WC_FLOAT, -1, {2}, true, WC_E_RANK, WC_E_RANK},
  {"rank 17", WC_FLOAT, WC_MAX_RANK + 1, {1}, true, WC_E_RANK, WC_E_RANK},
  {"rank INT_MIN", WC_FLOAT, INT_MIN, {2}, true, WC_E_RANK, WC_E_RANK},
  {"rank INT_MAX", WC_INT8, INT_MAX, {2}, true, WC_E_RANK, WC_E_RANK},
  {"extent -1", WC_FLOAT, 2, {2, -1}, true, WC_E_SHAPE, WC_E_SHAPE},
  {"extent INT64_MIN", WC_DOUBLE, 1, {INT64_MIN}, true, WC_E_SHAPE, WC_E_SHAPE},
  {"negative extent beside a zero", WC_FLOAT, 2, {0, -3}, true, WC_E_SHAPE, WC_E_SHAPE},
  {"element count past int64", WC_UINT8, 2, {(int64_t)1 << 32, (int64_t)1 << 32}, true,
   WC_E_OVERFLOW, WC_OK},
  {"element count INT64_MAX * 2", WC_BOOL, 2, {INT64_MAX, 2}, true, WC_E_OVERFLOW, WC_OK},
  {"bytes of float past int64", WC_FLOAT, 1, {BIG}, true, WC_E_OVERFLOW, WC_OK},
  {"bytes of complex128 past int64", WC_COMPLEX128, 2, {(int64_t)1 << 30, (int64_t)1 << 30},
   true, WC_E_OVERFLOW, WC_OK},
  {"no data for 3 elements", WC_FLOAT, 1, {3}, false, WC_E_ARG, WC_OK},
  {"no data for a scalar", WC_INT32, 0, {0}, false, WC_E_ARG, WC_OK},
  {"no data for strings", WC_STRING, 1, {2}, false, WC_E_ARG, WC_OK},
  {"no data, negative extent (shape first)", WC_FLOAT, 1, {-2}, false, WC_E_SHAPE, WC_E_SHAPE},
  {"no data, huge and overflowing", WC_FLOAT, 2, {BIG, BIG}, false, WC_E_OVERFLOW, WC_OK},
};

/* The valid descriptors that resemble bad ones: empty whatever the other extents. */
static const bad_case good[] = {
  {"empty beside extents whose product overflows", WC_FLOAT, 3, {BIG, BIG, 0}, false, WC_OK, WC_OK},
  {"empty first, huge after", WC_FLOAT, 3, {0, BIG, BIG}, false, WC_OK, WC_OK},
  {"empty vector without data", WC_FLOAT, 1, {0}, false, WC_OK, WC_OK},
};

static unsigned char sentinel[4][256];

static wc_tensor make(const bad_case *c, int slot) {
  wc_tensor t;
  memset(&t, 0, sizeof t);
  t.dtype = (wc_dtype)c->dtype;
  t.rank = c->rank;
  for (int d = 0; d < WC_MAX_RANK; d++) t.shape[d] = d < 4 ? c->shape[d] : 1;
  if (c->rank >= 1 && c->rank <= 4)
    for (int d = c->rank; d < 4; d++) t.shape[d] = 1;
  t.data = c->has_data ? sentinel[slot] : NULL;
  return t;
}

/* A valid operand: bool (slot 0) or float [2, 3], over a sentinel buffer. */
static wc_tensor valid(int slot) {
  wc_tensor t;
  memset(&t, 0, sizeof t);
  t.dtype = slot == 0 ? WC_BOOL : WC_FLOAT;
  t.rank = 2;
  t.shape[0] = 2;
  t.shape[1] = 3;
  t.data = sentinel[slot];
  return t;
}

static bool untouched(void) {
  for (int s = 0; s < 4; s++)
    for (size_t i = 0; i < sizeof sentinel[s]; i++)
      if (sentinel[s][i] != SENTINEL) return false;
  return true;
}

static void reset(void) { memset(sentinel, SENTINEL, sizeof sentinel); }

static void expect(const bad_case *c, const char *entry, int pos, wc_status got, wc_status want) {
  if (got != want)
    fail_msg("%s: %s (operand %d) returned %s, expected %s", c->what, entry, pos,
             wc_status_str(got), wc_status_str(want));
  if (!untouched()) fail_msg("%s: %s (operand %d) wrote to a buffer", c->what, entry, pos);
}

/* The bad descriptor as cond, x, y and out of every select entry point. */
static void test_bad_descriptor_in_any_select_operand_returns_its_status(void **state) {
  (void)state;
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    const bad_case *c = &cases[i];
    for (int pos = 0; pos < 4; pos++) {
      wc_tensor t[4] = {valid(0), valid(1), valid(2), valid(3)};
      t[pos] = make(c, pos);
      reset();
      expect(c, "wc_where", pos, wc_where(&t[0], &t[1], &t[2], &t[3]), c->status);
      expect(c, "wc_where_v1", pos, wc_where_v1(&t[0], &t[1], &t[2], &t[3]), c->status);
      expect(c, "wc_ref_where", pos, wc_ref_where(&t[0], &t[1], &t[2], &t[3]), c->status);
      expect(c, "wc_ref_where_v1", pos, wc_ref_where_v1(&t[0], &t[1], &t[2], &t[3]), c->status);
    }
  }
}

/* The bad descriptor as the tensor whose true elements are listed or counted. */
static void test_bad_descriptor_as_a_condition_of_coordinates_returns_its_status(void **state) {
  (void)state;
  int64_t coords[16], n = -1;
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    const bad_case *c = &cases[i];
    wc_tensor t = make(c, 0);
    reset();
    expect(c, "wc_count_true", 0, wc_count_true(&t, &n), c->status);
    expect(c, "wc_argwhere", 0, wc_argwhere(&t, coords, 16, &n), c->status);
    expect(c, "wc_nonzero", 0, wc_nonzero(&t, coords, 16, &n), c->status);
    expect(c, "wc_ref_argwhere", 0, wc_ref_argwhere(&t, coords, 16, &n), c->status);
    expect(c, "wc_ref_nonzero", 0, wc_ref_nonzero(&t, coords, 16, &n), c->status);
  }
}

/* wc_broadcast_shape reads ranks and extents, nothing else. */
static void test_bad_descriptor_in_broadcast_returns_its_rank_or_shape_status(void **state) {
  (void)state;
  int rank;
  int64_t shape[WC_MAX_RANK];
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    const bad_case *c = &cases[i];
    wc_tensor t = make(c, 0), v = valid(1);
    const wc_tensor *both[2] = {&v, &t};
    wc_status want = c->bcast;
    if (want == WC_OK && c->rank == 1 && c->shape[0] != 3 && c->shape[0] != 1) want = WC_E_SHAPE;
    if (want == WC_OK && c->rank == 2 && c->shape[1] != 3 && c->shape[1] != 1) want = WC_E_SHAPE;
    if (want == WC_OK && c->rank == 2 && c->shape[0] != 2 && c->shape[0] != 1) want = WC_E_SHAPE;
    reset();
    expect(c, "wc_broadcast_shape", 1, wc_broadcast_shape(both, 2, &rank, shape), want);
  }
}

/* The bad descriptor as the input or the output of a generated kernel. */
static void test_bad_descriptor_in_a_kernel_call_returns_its_status(void **state) {
  (void)state;
  const wc_kernel *k = wc_find_kernel(&golden_table, "leaky");
  assert_non_null(k);
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    const bad_case *c = &cases[i];
    wc_tensor in = make(c, 0), out = valid(1), ok_in = valid(2), bad_out = make(c, 3);
    out.shape[1] = 64;
    ok_in.shape[1] = 64;
    out.data = ok_in.data = NULL;                      /* 128 elements: never reached */
    reset();
    expect(c, "wc_run", 0, wc_run(&golden_table, "leaky", &in, 1, &out, NULL), c->status);
    expect(c, "wc_interpret", 0, wc_interpret(k, &in, 1, &out), c->status);
    expect(c, "wc_ref_run", 0, wc_ref_run(k, &in, 1, &out), c->status);
    ok_in.data = sentinel[2];
    ok_in.shape[0] = 1;
    ok_in.shape[1] = 64;
    expect(c, "wc_run (out)", 1, wc_run(&golden_table, "leaky", &ok_in, 1, &bad_out, NULL), c->status);
    expect(c, "wc_interpret (out)", 1, wc_interpret(k, &ok_in, 1, &bad_out), c->status);
    expect(c, "wc_ref_run (out)", 1, wc_ref_run(k, &ok_in, 1, &bad_out), c->status);
  }
}

/* Empty tensors are valid whatever their other extents and with no data. */
static void test_empty_descriptors_are_valid_everywhere(void **state) {
  (void)state;
  int64_t n = -1, coords[1];
  const wc_kernel *k = wc_find_kernel(&golden_table, "leaky");
  for (size_t i = 0; i < sizeof good / sizeof *good; i++) {
    const bad_case *c = &good[i];
    wc_tensor x = make(c, 1), y = make(c, 2), o = make(c, 3), cond = make(c, 0);
    cond.dtype = WC_BOOL;
    reset();
    expect(c, "wc_where", 1, wc_where(&cond, &x, &y, &o), WC_OK);
    expect(c, "wc_where_v1", 1, wc_where_v1(&cond, &x, &y, &o), WC_OK);
    expect(c, "wc_ref_where", 1, wc_ref_where(&cond, &x, &y, &o), WC_OK);
    expect(c, "wc_ref_where_v1", 1, wc_ref_where_v1(&cond, &x, &y, &o), WC_OK);
    expect(c, "wc_argwhere", 0, wc_argwhere(&x, coords, 0, &n), WC_OK);
    assert_int_equal(n, 0);
    expect(c, "wc_nonzero", 0, wc_nonzero(&x, NULL, 0, &n), WC_OK);
    expect(c, "wc_run", 0, wc_run(&golden_table, "leaky", &x, 1, &o, NULL), WC_OK);
    expect(c, "wc_interpret", 0, wc_interpret(k, &x, 1, &o), WC_OK);
    expect(c, "wc_ref_run", 0, wc_ref_run(k, &x, 1, &o), WC_OK);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_bad_descriptor_in_any_select_operand_returns_its_status),
    cmocka_unit_test(test_bad_descriptor_as_a_condition_of_coordinates_returns_its_status),
    cmocka_unit_test(test_bad_descriptor_in_broadcast_returns_its_rank_or_shape_status),
    cmocka_unit_test(test_bad_descriptor_in_a_kernel_call_returns_its_status),
    cmocka_unit_test(test_empty_descriptors_are_valid_everywhere),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
