/* set.c: one build of the timed code. bench/CMakeLists.txt compiles the
   generated kernels (bk.c), the tuned loops (tuned.c) and this file into one
   shared object per compiler and flag set (gcc and clang, -O2 and -O3
   -march=native), as users build generated C; wherec_bench loads each and
   finds its calls in `bench_set`, by name. */
#include <stddef.h>

#include "bench.h"
#include "bk.h"

/* Direct calls of the generated kernels (bench.where) and the tuned loops,
   which share their signatures: one adapter per signature. */
#define CALL_N3(name, fn) \
  static void name(bench_args *a) { fn(a->ext[0], a->in[0], a->in[1], a->in[2], a->out); }
#define CALL_RC3(name, fn) \
  static void name(bench_args *a) { fn(a->ext[0], a->ext[1], a->in[0], a->in[1], a->in[2], a->out); }
#define CALL_6D(name, fn)                                                      \
  static void name(bench_args *a) {                                            \
    fn(a->ext[0], a->ext[1], a->ext[2], a->ext[3], a->ext[4], a->ext[5],       \
       a->in[0], a->in[1], a->in[2], a->out);                                  \
  }
#define CALL_N1(name, fn) static void name(bench_args *a) { fn(a->ext[0], a->in[0], a->out); }
#define CALL_COORDS(name, fn) \
  static void name(bench_args *a) { a->n = fn(a->ext[0], a->ext[1], a->in[0], a->out); }
#define CALL_FIXED3(name, fn) static void name(bench_args *a) { fn(a->in[0], a->in[1], a->in[2], a->out); }

/* The one list: X(call shape, generated kernel, tuned loop). A case of
   bench.c names its generated kernel; `gen_K` and `tuned_K` are its calls. */
#define BENCH_CALLS(X)                                                         \
  X(CALL_N3, same_float, tuned_same_w4)                                        \
  X(CALL_N3, same_float16, tuned_same_w2)                                      \
  X(CALL_N3, same_int64, tuned_same_w8)                                        \
  X(CALL_N3, same_uint8, tuned_same_w1)                                        \
  X(CALL_RC3, row_bcast, tuned_row_bcast)                                      \
  X(CALL_N3, scalar_x, tuned_scalar_x)                                         \
  X(CALL_N3, scalar_y, tuned_scalar_y)                                         \
  X(CALL_N3, scalar_c, tuned_scalar_c)                                         \
  X(CALL_6D, bcast6, tuned_bcast6)                                             \
  X(CALL_N1, leaky, tuned_leaky)                                               \
  X(CALL_COORDS, argw, tuned_argwhere)                                         \
  X(CALL_COORDS, nz, tuned_nonzero)                                            \
  X(CALL_FIXED3, tiny, tuned_tiny)

#define ADAPTERS(shape, kernel, tuned) shape(gen_##kernel, bk_##kernel) shape(tun_##kernel, tuned)
BENCH_CALLS(ADAPTERS)

#define ENTRY(shape, kernel, tuned) {#kernel, gen_##kernel, tun_##kernel},
const bench_set_entry bench_set[] = {BENCH_CALLS(ENTRY){NULL, NULL, NULL}};
