/* manifest.h: the import manifest (docs/cli.md, "The manifest", versions 2 and 3) as the execution
   provider reads it: per kernel, the nodes it replaces and the tensors at its edges. */
#ifndef WHEREC_EP_MANIFEST_H
#define WHEREC_EP_MANIFEST_H

#include <stdbool.h>
#include <stdint.h>

#include "json.h"

#define EP_MANIFEST_VERSION 3 /* the newest it reads; 2 is 3 without flat tensors */
#define EP_MANIFEST_OLDEST  2

typedef struct ep_mnode {
  const char  *op_type;
  int          n_inputs, n_outputs;
  const char **inputs;   /* "" for an omitted optional input */
  const char **outputs;
} ep_mnode;

typedef struct ep_mparam {
  const char *name, *tensor;
  int         dtype;     /* wc_dtype */
  int         rank;      /* as the kernel declares it */
  int64_t     dims[16];  /* fixed extents; -1 symbolic */
  int         pad;       /* 1s the kernel appends to the tensor's own shape (per-channel) */
  bool        flat;      /* "tensor_shape": null: a tensor of any shape, which the kernel
                            reads or writes as the vector of its elements ([n]); every flat
                            tensor of a kernel has the one shape (the import could not know it) */
} ep_mparam;

typedef struct ep_mliteral {
  const char *tensor;
  int         dtype;
  uint64_t    bits;      /* the element's bits, little end first */
} ep_mliteral;

typedef struct ep_mkernel {
  const char  *name;
  bool         in_subgraph;        /* scope is not null */
  int          n_nodes, n_params, n_literals, n_baked, n_outputs;
  ep_mnode    *nodes;              /* root first */
  ep_mparam   *params;
  ep_mliteral *literals;
  const char **baked_tensors;      /* the graph tensors of the baked constants */
  const char **baked_names;        /* their names in the kernel */
  ep_mparam   *outputs;            /* name, tensor, dtype */
  bool         measured;           /* a "measured" member: the import timed the region */
  bool         faster;             /* measured: wherec's kernel beat onnxruntime's nodes */
  double       ort_us, wherec_us;  /* measured: time of a call of each */
} ep_mkernel;

typedef struct ep_manifest {
  json       *doc;       /* the parsed text; the strings above point into it */
  int         n_kernels;
  ep_mkernel *kernels;
  void      **blocks_;   /* the allocations behind kernels, freed by ep_manifest_free */
  int         n_blocks_;
} ep_manifest;

/* Reads the manifest text into m. false with a message in err on bad JSON or a member
   that is missing or of the wrong type ("kernel 3: params[1]: no dtype"). */
bool ep_manifest_parse(const char *text, size_t len, ep_manifest *m, char *err, size_t err_cap);
void ep_manifest_free(ep_manifest *m);

#endif
