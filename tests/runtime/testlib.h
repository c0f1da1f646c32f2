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

#endif
