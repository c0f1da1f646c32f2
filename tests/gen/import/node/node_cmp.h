/* node_cmp.h: the node tests' comparison of an output with ONNX's expected one: bit for bit,
   except that where numpy's expected value is a NaN any NaN is accepted. */
#ifndef WHEREC_TESTS_NODE_CMP_H
#define WHEREC_TESTS_NODE_CMP_H

#include <stdio.h>

#include <wherec/wherec.h>

/* 0 when got g matches expected e: same dtype and shape, every element the same bits, or
   both NaN where e is a float NaN (per component for complex); strings by content. Else 1,
   with the dtype, the shape or the first differing elements and their count written to
   out, each line prefixed "what: ". -0.0 and 0.0 differ. */
int node_cmp(const wc_tensor *e, const wc_tensor *g, const char *what, FILE *out);

#endif
