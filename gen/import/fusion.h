/* fusion.h: which nodes of the graph fuse into which kernel: each node's typing check
   and the regions (a root and the producers only it consumes) that become kernels. */
#ifndef WHEREC_GEN_IMPORT_FUSION_H
#define WHEREC_GEN_IMPORT_FUSION_H

#include <stdbool.h>
#include <stdio.h>

#include "base/diag.h"
#include "import/graph.h"
#include "import/import.h"

/* What fusion decided for one node, and what its typing check read off its attributes
   (each with the operator's default when the attribute is absent). */
typedef struct fusion_node {
  const char *reason;         /* why it cannot be fused, NULL when it can */
  int         region;         /* -1 when in none */
  int         depth;          /* operators between it and its region's root */
  int         copies;         /* times its value appears in the region's expression */
  bool        let;            /* read by several nodes of its region: a `let` of the kernel,
                                 computed once (its expression nests from depth 0) */
  float       alpha;          /* LeakyRelu, ThresholdedRelu, HardSigmoid, Elu, Selu, Celu */
  float       beta;           /* HardSigmoid */
  float       gamma;          /* Selu */
  float       lambd, bias;    /* Shrink */
  int         flag;           /* Mod: fmod (0 or 1), or MOD_FLOOR_FLOAT; BitShift: 1 for LEFT; IsInf: 1 detect_negative
                                 | 2 detect_positive; Pow: 1 for pow(x, y); Gelu: 1 for
                                 approximate="tanh" */
  wc_dtype    cast_to;        /* Cast, CastLike */
  bool        has_lo, has_hi; /* Clip-6 attributes given */
  float       lo, hi;         /* Clip-6 attributes */
  float       epsilon;        /* BatchNormalization */
  double      expo;           /* Pow: the constant exponent (when it is one) */
  int         pad;            /* BatchNormalization, QuantizeLinear, DequantizeLinear: the 1s
                                 appended to the shape of a per-channel (per-axis) parameter
                                 so that it broadcasts along X's channel axis */
} fusion_node;

/* Mod's flag for fmod=0 on floats (Mod-28): the floor modulo, numpy's np.mod. */
#define MOD_FLOOR_FLOAT 2

/* A region: one kernel's worth of nodes. Fusion sets root; the writer (import.c,
   spec_write.c) sets the rest. */
typedef struct fusion_region {
  int         root;     /* node index */
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

/* The inputs of node ni its expression reads, in slot order: op_operands (ops.h), and
   Pow's exponent too when it is no constant scalar (then the form is pow(x, y)). */
int fusion_operands(const import_graph *gr, const graph_node *ni);

/* Checks every node of gr and forms the maximal element-wise regions, from the
   outputs backwards: a fusable node joins the region of its consumers when they all
   sit in one region (it is no graph output, no sub-graph and no node outside that
   region reads it, and its consumer is no NonZero's value), while the expression
   stays within IMPORT_MAX_DEPTH and IMPORT_MAX_COPIES (import.h); else it roots a
   region of its own. Every region is a kernel. */
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
