/* ort.h: `wherec import MODEL --ort DIR`: what onnxruntime needs to run a model's regions
   as wherec kernels, written into DIR, each region timed against onnxruntime's own nodes. */
#ifndef WHEREC_GEN_ORT_H
#define WHEREC_GEN_ORT_H

#include "import/import.h"

typedef struct ort_options {
  import_options import; /* --bake-limit, --input, --seed (manifest and verify: unused) */
  const char    *cc;     /* NULL: clang */
  const char    *cflags; /* NULL: -O3 -march=native */
} ort_options;

/* The files it writes, in DIR. */
#define ORT_SPEC     "kernels.where"
#define ORT_MANIFEST "kernels.where.json"
#define ORT_LIBRARY  "kernels.so"
#define ORT_PREFIX   "kernels" /* the C prefix: the library's table is kernels_table */

/* Imports model into DIR/kernels.where and its manifest, generates and compiles the kernels
   into DIR/kernels.so (written atomically), then runs measure.py, which adds to each kernel
   of the manifest what it measured. A python without onnxruntime leaves the regions
   untimed with a warning (the provider's default policy then claims none). Returns a
   GEN_EXIT_ status. */
int ort_build(const char *model, const char *dir, const ort_options *o);

#endif
