/* pbcmp.c: test helper: compares a kernel's output .npy with a backend test's output_N.pb
   (node_cmp), or prints the name a TensorProto file carries. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "node_cmp.h"
#include "run/npy.h"
#include "import/onnx.h"

int main(int argc, char **argv) {
  char      err[512], *strings = NULL;
  size_t    len;
  arena     a;
  wc_tensor t;
  int       rc = 1, name_only = argc == 3 && strcmp(argv[1], "--name") == 0;
  if (argc != 3) {
    fprintf(stderr, "usage: pbcmp EXPECTED.pb GOT.npy | pbcmp --name TENSOR.pb\n");
    return 2;
  }
  const char *pb = name_only ? argv[2] : argv[1];
  uint8_t    *buf = onnx_slurp(pb, &len, err, sizeof err);
  if (buf == NULL) {
    fprintf(stderr, "pbcmp: %s: %s\n", pb, err);
    return 1;
  }
  arena_init(&a);
  onnx_tensor *tp = onnx_read_tensor(&a, buf, len, err, sizeof err);
  if (tp == NULL) {
    fprintf(stderr, "pbcmp: %s: %s\n", pb, err);
  } else if (name_only) {
    printf("%s\n", tp->name);
    rc = 0;
  } else if (!onnx_tensor_to_wc(tp, &t, &strings, err, sizeof err)) {
    fprintf(stderr, "pbcmp: %s: %s\n", pb, err);
  } else {
    npy_array got;
    if (npy_read(argv[2], t.dtype, &got, err, sizeof err)) {
      rc = node_cmp(&t, &got.t, argv[2], stdout);
      npy_free(&got);
    } else {
      fprintf(stderr, "pbcmp: %s: %s\n", argv[2], err);
    }
    free(t.data);
    free(strings);
  }
  arena_free(&a);
  free(buf);
  return rc;
}
