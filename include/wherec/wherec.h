/* wherec/wherec.h: the runtime API of libwherec.
   Where / where_v1 on any dtype and broadcast, coordinates of true elements,
   the dispatcher over generated kernel tables, and the reference evaluator. */
#ifndef WHEREC_WHEREC_H
#define WHEREC_WHEREC_H

#include <wherec/kernel.h>

#ifdef __cplusplus
extern "C" {
#endif

#define WC_MAX_RANK 16

typedef struct wc_tensor {
  wc_dtype dtype;
  int      rank;                   /* 0 = scalar */
  int64_t  shape[WC_MAX_RANK];
  void    *data;                   /* dense, row-major; WC_STRING: array of const char * */
} wc_tensor;

typedef enum wc_status { WC_OK = 0, WC_E_ARG, WC_E_DTYPE, WC_E_RANK, WC_E_SHAPE,
                         WC_E_OVERFLOW, WC_E_CAPACITY, WC_E_NOKERNEL, WC_E_NOMEM } wc_status;

const char *wc_status_str(wc_status s);
size_t      wc_dtype_size(wc_dtype t);      /* 0 for an unknown code */
const char *wc_dtype_name(wc_dtype t);      /* ONNX name: "float", "bfloat16", ...; NULL if unknown */

/* ONNX / numpy multidirectional broadcasting of n shapes. */
wc_status wc_broadcast_shape(const wc_tensor *const *ts, int n, int *rank,
                             int64_t shape[WC_MAX_RANK]);

/* out: caller-allocated, rank/shape = broadcast shape, dtype = x's dtype.
   out may be the buffer of x or y when its shape equals theirs. */
wc_status wc_where(const wc_tensor *cond, const wc_tensor *x, const wc_tensor *y, wc_tensor *out);
/* tf.compat.v1.where: x, y same shape; cond same shape, or a vector over x's
   first dimension selecting whole rows (outer slices). */
wc_status wc_where_v1(const wc_tensor *cond, const wc_tensor *x, const wc_tensor *y, wc_tensor *out);

/* Coordinates of the true (non-zero) elements of cond, any dtype, row-major order.
   argwhere: [n, rank] (tf.where with one argument); nonzero: [rank, n] (ONNX NonZero).
   capacity counts int64 slots; too small -> WC_E_CAPACITY and *n still tells n. */
wc_status wc_count_true(const wc_tensor *cond, int64_t *n);
wc_status wc_argwhere(const wc_tensor *cond, int64_t *coords, int64_t capacity, int64_t *n);
wc_status wc_nonzero (const wc_tensor *cond, int64_t *coords, int64_t capacity, int64_t *n);

/* ---- reference evaluator ---------------------------------------------------
   Deliberately naive (one element at a time, multi-index arithmetic) and
   independent of the fast paths, so that the two can check each other. */
wc_status wc_ref_where(const wc_tensor *cond, const wc_tensor *x, const wc_tensor *y, wc_tensor *out);
wc_status wc_ref_where_v1(const wc_tensor *cond, const wc_tensor *x, const wc_tensor *y, wc_tensor *out);
wc_status wc_ref_argwhere(const wc_tensor *cond, int64_t *coords, int64_t capacity, int64_t *n);
wc_status wc_ref_nonzero(const wc_tensor *cond, int64_t *coords, int64_t capacity, int64_t *n);

#ifdef __cplusplus
}
#endif
#endif
