/* rows.h: what wherec_bench_rows (rows_bench.c) and each build of rows_set.c share:
   the calls of one row kernel, the generated one and the plain C loop, by name. */
#ifndef WHEREC_BENCH_ROWS_H
#define WHEREC_BENCH_ROWS_H

#include <stddef.h>

/* Computes the whole rows of flat output elements [begin, end) (begin and end
   multiples of the row's length): ext holds the kernel's symbolic extents in
   its order (as rb_K takes them), in its inputs in parameter order. */
typedef void (*rows_fn)(const size_t *ext, const void *const *in, void *out, size_t begin,
                        size_t end);

/* One kernel of a build: `rows_set` in each build ends with a NULL kernel. */
typedef struct rows_entry {
  const char *kernel; /* its name in rows.where */
  rows_fn     gen;    /* rb_K_range */
  rows_fn     plain;  /* the plain C loop of the same math */
} rows_entry;

#endif
