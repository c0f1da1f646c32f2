/* fusion.h: which nodes of the graph fuse into which kernel: each node's typing check
   and the regions (a root and the producers only it consumes) that become kernels. */
#ifndef WHEREC_GEN_IMPORT_FUSION_H
#define WHEREC_GEN_IMPORT_FUSION_H

#include <stdbool.h>
#include <stdio.h>

#include "base/diag.h"
#include "import/graph.h"
#include "import/import.h"

/* What fusion decided for one node, and what its checks read off it. */
typedef struct fusion_node {
  const char *reason;  /* why it cannot be fused, NULL when it can */
  int         region;  /* -1 when in none */
  int         depth;   /* operators between it and its region's root */
  int         copies;  /* times its value appears in the region's expression */
  bool        let;     /* read by several nodes of its region: a `let` of the kernel,
                          computed once (its expression nests from depth 0) */
  bool        output;  /* a let that is an output of the kernel too: something outside
                          its region reads it (a graph output, another operator) */
  op_attrs    at;      /* its attributes, in its operator's struct (defaults filled in) */
  wc_dtype    t;       /* the dtype its operator is typed on (its row's typed input's) */
  wc_dtype    cast_to; /* Cast, CastLike, QuantizeLinear: the dtype it makes */
  int         pad;     /* BatchNormalization, QuantizeLinear, DequantizeLinear, PRelu-6: the 1s
                          appended to the shape of a per-channel (per-axis) parameter so that
                          it broadcasts along X's channel axis */
  int        *reads;   /* per input slot: times its formula reads it (0: no operand, such as
                          CastLike's target_type or a constant exponent) */
} fusion_node;

/* A region: one kernel's worth of nodes. Fusion sets root; the writer (import.c,
   spec_write.c) sets the rest. */
typedef struct fusion_region {
  int         root;     /* node index */
  int         n_extra;  /* its other outputs (fusion_node.output) */
  const char *reason;   /* why it is not taken, NULL when it is */
  const char *name;     /* kernel name, once written */
  diag_text   text;     /* the kernel statement with its comment, once taken */
  diag_text   manifest; /* its entry in the manifest (manifest.h), once taken */
} fusion_region;

typedef struct fusion {
  fusion_node   *nodes;   /* per graph node */
  fusion_region *regions; /* numbered from the graph's outputs back */
  int            n_regions;
} fusion;

/* Does node i's expression read its input slot k? */
bool fusion_reads(const fusion *f, int i, int k);

/* Checks every node of gr and forms the maximal element-wise regions, from the
   outputs backwards: a fusable node joins the region of its consumers when they all
   sit in one region, while the expression stays within IMPORT_MAX_DEPTH and
   IMPORT_MAX_COPIES (import.h); read in a region and also outside it (a graph output, a
   sub-graph, another region or operator), it joins the region of its first reader as one
   more output when it has that region's shape, no path from its other readers leads back
   into the region (kernels would wait on each other) and the region has fewer than
   IMPORT_MAX_EXTRA_OUTPUTS; else it roots a region of its own. NonZero's region is one
   expression. Every region is a kernel. */
void fusion_form(fusion *f, const import_graph *gr);

/* Does region r cover the whole graph (every node in it, or a Constant it reads)? */
bool fusion_whole_graph(const fusion *f, const import_graph *gr, int r);

/* Lists on log every node that no kernel takes, with the reason (after writing). */
void fusion_report(const fusion *f, const import_graph *gr, FILE *log);

/* `wherec: kernel NAME: Root, Producer ...` on log: the nodes region r (taken) holds. */
void fusion_report_kernel(const fusion *f, const import_graph *gr, int r, FILE *log);

/* Frees the regions' texts. */
void fusion_free(fusion *f);

#endif
