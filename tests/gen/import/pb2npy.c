/* pb2npy.c: test helper: a serialized TensorProto (the backend tests' input_N.pb,
   output_0.pb) to a .npy file, through the same readers and writer wherec uses. */
#include <stdio.h>
#include <stdlib.h>

#include "run/npy.h"
#include "import/onnx.h"

int main(int argc, char **argv) {
  char err[512], *strings = NULL;
  size_t len;
  arena a;
  wc_tensor t;
  int rc = 1;
  if (argc != 3) {
    fprintf(stderr, "usage: pb2npy TENSOR.pb OUT.npy\n");
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
    if (npy_write(argv[2], &t, err, sizeof err)) rc = 0;
    else fprintf(stderr, "pb2npy: %s: %s\n", argv[2], err);
    free(t.data);
    free(strings);
  }
  arena_free(&a);
  free(buf);
  return rc;
}
