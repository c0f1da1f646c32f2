/* pb2npy.c: test helper: a serialized TensorProto (the backend tests' input_N.pb,
   output_0.pb) to a .npy file, through the same readers and writer wherec uses. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run/npy.h"
#include "import/onnx.h"

int main(int argc, char **argv) {
  char err[512], *strings = NULL;
  size_t len;
  arena a;
  wc_tensor t;
  int rc = 1;
  if (argc != 3 && argc != 4) {
    fprintf(stderr, "usage: pb2npy TENSOR.pb OUT.npy [D0,D1,...]\n"
                    "  (D0,...: the same elements in another shape, as a kernel's per-channel\n"
                    "  parameter [C,1,1] of a [C] tensor; \"-\" for a scalar)\n");
    return 2;
  }
  uint8_t *buf = onnx_slurp(argv[1], &len, err, sizeof err);
  if (buf == NULL) {
    fprintf(stderr, "pb2npy: %s: %s\n", argv[1], err);
    return 1;
  }
  arena_init(&a);
  onnx_tensor *pb = onnx_read_tensor(&a, buf, len, err, sizeof err);
  if (pb == NULL || !onnx_tensor_to_wc(pb, &t, &strings, err, sizeof err)) {
    fprintf(stderr, "pb2npy: %s: %s\n", argv[1], err);
  } else {
    if (argc == 4) { /* reshape: the element count must stay */
      int64_t before = 1, after = 1, dims[WC_MAX_RANK];
      int     rank = 0;
      char   *p = argv[3];
      for (int d = 0; d < t.rank; d++) before *= t.shape[d];
      while (strcmp(argv[3], "-") != 0 && *p && rank < WC_MAX_RANK) {
        dims[rank] = strtoll(p, &p, 10);
        after *= dims[rank++];
        if (*p == ',') p++;
      }
      if (after != before) {
        fprintf(stderr, "pb2npy: %s: %lld elements, not %lld\n", argv[1], (long long)before,
                (long long)after);
        free(t.data);
        free(strings);
        arena_free(&a);
        free(buf);
        return 1;
      }
      t.rank = rank;
      for (int d = 0; d < rank; d++) t.shape[d] = dims[d];
    }
    if (npy_write(argv[2], &t, err, sizeof err)) rc = 0;
    else fprintf(stderr, "pb2npy: %s: %s\n", argv[2], err);
    free(t.data);
    free(strings);
  }
  arena_free(&a);
  free(buf);
  return rc;
}
