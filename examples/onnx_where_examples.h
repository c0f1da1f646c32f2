/* onnx_where_examples.h: the 14 worked examples of the ONNX Where-16 page as
   one X-macro list, shared by the runtime demo and the tests. */
#ifndef WHEREC_ONNX_WHERE_EXAMPLES_H
#define WHEREC_ONNX_WHERE_EXAMPLES_H

#include <math.h>

#define WC_EX_LIST(...) {__VA_ARGS__}
#define WC_EX_TFTF WC_EX_LIST(1, 0, 1, 0)             /* [[True, False], [True, False]] */

/* X(name, DTYPE, ctype, cond rank, cond shape, cond, x rank, x shape, x,
     y rank, y shape, y, out rank, out shape, out) */
#define WC_ONNX_WHERE_EXAMPLES(X)                                                         \
  X(test_cc_where_bool, WC_BOOL, bool, 2, WC_EX_LIST(2, 2), WC_EX_TFTF,                  \
    2, WC_EX_LIST(2, 2), WC_EX_LIST(1, 1, 0, 0), 2, WC_EX_LIST(2, 2), WC_EX_LIST(0, 0, 1, 1), \
    2, WC_EX_LIST(2, 2), WC_EX_LIST(1, 0, 0, 1))                                          \
  X(test_cc_where_double, WC_DOUBLE, double, 2, WC_EX_LIST(2, 2), WC_EX_TFTF,            \
    2, WC_EX_LIST(2, 2), WC_EX_LIST(1, 2, 3, 4), 2, WC_EX_LIST(2, 2), WC_EX_LIST(5, 6, 7, 8), \
    2, WC_EX_LIST(2, 2), WC_EX_LIST(1, 6, 3, 8))                                          \
  X(test_cc_where_int16, WC_INT16, int16_t, 2, WC_EX_LIST(2, 2), WC_EX_TFTF,             \
    2, WC_EX_LIST(2, 2), WC_EX_LIST(1, 2, 3, 4), 2, WC_EX_LIST(2, 2), WC_EX_LIST(-5, -6, -7, -8), \
    2, WC_EX_LIST(2, 2), WC_EX_LIST(1, -6, 3, -8))                                        \
  X(test_cc_where_int8, WC_INT8, int8_t, 2, WC_EX_LIST(2, 2), WC_EX_TFTF,                \
    2, WC_EX_LIST(2, 2), WC_EX_LIST(1, 2, 3, 4), 2, WC_EX_LIST(2, 2), WC_EX_LIST(-5, -6, -7, -8), \
    2, WC_EX_LIST(2, 2), WC_EX_LIST(1, -6, 3, -8))                                        \
  X(test_cc_where_nan_inf, WC_FLOAT, float, 1, WC_EX_LIST(6), WC_EX_LIST(1, 0, 1, 0, 1, 0), \
    1, WC_EX_LIST(6), WC_EX_LIST(NAN, 1, INFINITY, 2, -INFINITY, 3),                      \
    1, WC_EX_LIST(6), WC_EX_LIST(0, NAN, 0, INFINITY, 0, -INFINITY),                      \
    1, WC_EX_LIST(6), WC_EX_LIST(NAN, NAN, INFINITY, INFINITY, -INFINITY, -INFINITY))     \
  X(test_cc_where_nan_inf_bcast, WC_FLOAT, float, 2, WC_EX_LIST(2, 1), WC_EX_LIST(1, 0),  \
    2, WC_EX_LIST(2, 3), WC_EX_LIST(INFINITY, 1, INFINITY, 2, INFINITY, 3),               \
    2, WC_EX_LIST(1, 3), WC_EX_LIST(-INFINITY, NAN, 0),                                   \
    2, WC_EX_LIST(2, 3), WC_EX_LIST(INFINITY, 1, INFINITY, -INFINITY, NAN, 0))            \
  X(test_cc_where_string, WC_STRING, wc_string, 2, WC_EX_LIST(2, 2), WC_EX_TFTF,         \
    2, WC_EX_LIST(2, 2), WC_EX_LIST("a", "b", "c", "d"), 2, WC_EX_LIST(2, 2),             \
    WC_EX_LIST("e", "f", "g", "h"), 2, WC_EX_LIST(2, 2), WC_EX_LIST("a", "f", "c", "h"))  \
  X(test_cc_where_uint16, WC_UINT16, uint16_t, 2, WC_EX_LIST(2, 2), WC_EX_TFTF,          \
    2, WC_EX_LIST(2, 2), WC_EX_LIST(1, 2, 3, 4), 2, WC_EX_LIST(2, 2), WC_EX_LIST(5, 6, 7, 8), \
    2, WC_EX_LIST(2, 2), WC_EX_LIST(1, 6, 3, 8))                                          \
  X(test_cc_where_uint32, WC_UINT32, uint32_t, 2, WC_EX_LIST(2, 2), WC_EX_TFTF,          \
    2, WC_EX_LIST(2, 2), WC_EX_LIST(1, 2, 3, 4), 2, WC_EX_LIST(2, 2), WC_EX_LIST(5, 6, 7, 8), \
    2, WC_EX_LIST(2, 2), WC_EX_LIST(1, 6, 3, 8))                                          \
  X(test_cc_where_uint64, WC_UINT64, uint64_t, 2, WC_EX_LIST(2, 2), WC_EX_TFTF,          \
    2, WC_EX_LIST(2, 2), WC_EX_LIST(1, 2, 3, 4), 2, WC_EX_LIST(2, 2), WC_EX_LIST(5, 6, 7, 8), \
    2, WC_EX_LIST(2, 2), WC_EX_LIST(1, 6, 3, 8))                                          \
  X(test_cc_where_uint8, WC_UINT8, uint8_t, 2, WC_EX_LIST(2, 2), WC_EX_TFTF,             \
    2, WC_EX_LIST(2, 2), WC_EX_LIST(1, 2, 3, 4), 2, WC_EX_LIST(2, 2), WC_EX_LIST(5, 6, 7, 8), \
    2, WC_EX_LIST(2, 2), WC_EX_LIST(1, 6, 3, 8))                                          \
  X(test_where_bcast, WC_INT32, int32_t, 2, WC_EX_LIST(2, 1), WC_EX_LIST(1, 0),           \
    2, WC_EX_LIST(2, 3), WC_EX_LIST(1, 2, 3, 4, 5, 6), 2, WC_EX_LIST(1, 3), WC_EX_LIST(10, 20, 30), \
    2, WC_EX_LIST(2, 3), WC_EX_LIST(1, 2, 3, 10, 20, 30))                                 \
  X(test_where_example, WC_FLOAT, float, 2, WC_EX_LIST(2, 2), WC_EX_TFTF,                \
    2, WC_EX_LIST(2, 2), WC_EX_LIST(1, 2, 3, 4), 2, WC_EX_LIST(2, 2), WC_EX_LIST(5, 6, 7, 8), \
    2, WC_EX_LIST(2, 2), WC_EX_LIST(1, 6, 3, 8))                                          \
  X(test_where_long_example, WC_INT64, int64_t, 2, WC_EX_LIST(2, 2), WC_EX_LIST(1, 0, 1, 1), \
    2, WC_EX_LIST(2, 2), WC_EX_LIST(1, 2, 3, 4), 2, WC_EX_LIST(2, 2), WC_EX_LIST(9, 8, 7, 6), \
    2, WC_EX_LIST(2, 2), WC_EX_LIST(1, 8, 3, 4))

#endif
