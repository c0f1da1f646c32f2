/* verify.h: `wherec import --verify`: each imported kernel run on the model's own tensors
   from onnxruntime, on both paths, and compared with onnxruntime's output (verify.py). */
#ifndef WHEREC_GEN_IMPORT_VERIFY_H
#define WHEREC_GEN_IMPORT_VERIFY_H

/* What the verification takes besides the files import wrote. */
typedef struct import_verify_options {
  const char *const *inputs;   /* one .npy per graph input, in order; NULL: made */
  int                n_inputs; /* in inputs */
  const char        *seed;     /* for made inputs, decimal or 0x hex; NULL: 1 */
} import_verify_options;

/* Runs verify.py (found as $WHEREC_VERIFY_SCRIPT, else installed beside the executable
   under share/wherec/import, else the source tree's) with $WHEREC_ORT_PYTHON (default
   python3) on model, the spec and the manifest import wrote: it prints the table on
   stdout. Returns a GEN_EXIT_ status: ok, BAD_INPUT (the model does not run on the
   inputs), MISMATCH (a kernel of exact operators, or the two paths, disagree) or
   TOOLCHAIN (no python, onnxruntime, onnx or numpy). */
int import_verify(const char *model, const char *spec, const char *manifest,
                  const import_verify_options *o);

#endif
