/* testlib.h: helpers for the runtime tests: a seeded RNG, tensors filled with
   edge values of every dtype, and shape builders. */
#ifndef WHEREC_TESTLIB_H
#define WHEREC_TESTLIB_H

#include <wherec/wherec.h>

/* Every dtype, in WC_DTYPE_LIST's order. */
#define TL_COUNT_(E, code, name, ctype, alias, sfx, kind) +1
enum { TL_N_DTYPES = 0 WC_DTYPE_LIST(TL_COUNT_) };
#undef TL_COUNT_
extern const wc_dtype tl_all_dtypes[TL_N_DTYPES];

typedef struct tl_rng { uint64_t s; } tl_rng;          /* xorshift64* state */

uint64_t tl_next(tl_rng *r);
int64_t  tl_below(tl_rng *r, int64_t n);               /* uniform in [0, n) */

/* Element count of a shape. */
int64_t tl_count(int rank, const int64_t *shape);

/* A descriptor of dtype/shape over caller-owned data (which may be NULL). */
wc_tensor tl_tensor(wc_dtype dt, int rank, const int64_t *shape, const void *data);

/* A tensor of dtype/shape whose data is malloc'ed at exactly its byte size
   (so ASan sees any overrun); free with tl_free. */
wc_tensor tl_alloc(wc_dtype dt, int rank, const int64_t *shape);
void      tl_free(wc_tensor *t);

/* Fills t with random values biased to edges: NaN payloads, +-inf, -0.0,
   subnormals, integer extremes, empty strings; bool with p(true) = p_true. */
void tl_fill(tl_rng *r, wc_tensor *t, double p_true);

/* Bytes of t's data (element count * size). */
size_t tl_bytes(const wc_tensor *t);

/* The first of n elements of dtype dt that differ in any bit, or -1. */
int64_t tl_first_difference(wc_dtype dt, const void *a, const void *b, int64_t n);

/* ---- names for failure messages ----------------------------------------------
   A failure names what failed as the project spells it, never by number: an
   operation as the operation table's row ("ADD (+)", "EXP (exp)"), a status as its
   enumerator, a path as WC_PATH_*; dtypes by wc_dtype_name. Each takes any value
   (an opcode outside the table says so). */
static inline const char *tl_op_name(int op) {
  switch (op) {
#define X(NAME, spell, arity, dom, res, form, helper, on_bool) \
  case WC_OP_##NAME: return sizeof spell > 1 ? #NAME " (" spell ")" : #NAME;
    WC_OP_LIST(X)
#undef X
  default: return "an opcode outside the operation table";
  }
}

static inline const char *tl_status_name(wc_status s) {
  switch (s) {
  case WC_OK: return "WC_OK";
  case WC_E_ARG: return "WC_E_ARG";
  case WC_E_DTYPE: return "WC_E_DTYPE";
  case WC_E_RANK: return "WC_E_RANK";
  case WC_E_SHAPE: return "WC_E_SHAPE";
  case WC_E_OVERFLOW: return "WC_E_OVERFLOW";
  case WC_E_CAPACITY: return "WC_E_CAPACITY";
  case WC_E_NOKERNEL: return "WC_E_NOKERNEL";
  case WC_E_NOMEM: return "WC_E_NOMEM";
  }
  return "a status outside wc_status";
}

static inline const char *tl_path_name(wc_path p) {
  switch (p) {
  case WC_PATH_SPECIALIZED: return "WC_PATH_SPECIALIZED";
  case WC_PATH_INTERPRETED: return "WC_PATH_INTERPRETED";
  }
  return "a path outside wc_path";
}

/* tl_assert_status(call, want): the call's status must be want; a failure names the
   call and both statuses ("wc_where(&c, &x, &y, &o) returned WC_E_SHAPE (shapes do
   not match or do not broadcast), expected WC_OK") where cmocka's assert_int_equal
   would print two numbers. For files that include <cmocka.h>. */
#define tl_assert_status(call, want)                                               \
  do {                                                                             \
    wc_status tl_got_ = (call), tl_want_ = (want);                                 \
    if (tl_got_ != tl_want_)                                                       \
      fail_msg("%s returned %s (%s), expected %s", #call, tl_status_name(tl_got_), \
               wc_status_str(tl_got_), tl_status_name(tl_want_));                  \
  } while (0)

/* tl_assert_dtype(got, want): two dtypes, named on failure. */
#define tl_assert_dtype(got, want)                                                              \
  do {                                                                                          \
    wc_dtype tl_got_ = (got), tl_want_ = (want);                                                \
    if (tl_got_ != tl_want_)                                                                    \
      fail_msg("%s is %s, expected %s", #got, wc_dtype_name(tl_got_), wc_dtype_name(tl_want_)); \
  } while (0)

/* tl_assert_path(got, want): two wc_path values, named on failure. */
#define tl_assert_path(got, want)                                                             \
  do {                                                                                        \
    wc_path tl_got_ = (got), tl_want_ = (want);                                               \
    if (tl_got_ != tl_want_)                                                                  \
      fail_msg("%s is %s, expected %s", #got, tl_path_name(tl_got_), tl_path_name(tl_want_)); \
  } while (0)

#endif
