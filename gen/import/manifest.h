/* manifest.h: the JSON that `wherec import` writes beside the spec, so that a runtime's
   graph partitioner can swap each region for its kernel: nodes, parameters, outputs. */
#ifndef WHEREC_GEN_IMPORT_MANIFEST_H
#define WHEREC_GEN_IMPORT_MANIFEST_H

#include "base/diag.h"
#include "import/graph.h"
#include "import/spec_write.h"

/* Version of the manifest's layout (its "version" member); raised on any change a
   reader could trip on. */
#define MANIFEST_VERSION 3

/* Where a sub-graph sits: the attribute of a node of the graph around it, that graph
   being the model's (up == NULL) or itself a sub-graph. */
typedef struct manifest_scope {
  const struct manifest_scope *up;        /* the sub-graph around it, NULL at the top */
  const char                  *title;     /* `sub-graph 'body' of Loop 'l'`, as stderr says */
  int                          node;      /* the node's index in the graph around it */
  const char                  *op_type;   /* If, Loop, Scan */
  const char                  *node_name; /* "" when the model gives none */
  const char                  *attribute; /* then_branch, else_branch, body */
  int                          graph;     /* its index in a GRAPHS attribute, else 0 */
} manifest_scope;

/* The entry of region r, just written by spec_write_kernel (w still holds its leaves,
   extents and output name), as one JSON object appended to *t: the kernel's name, the
   sub-graph it sits in (scope; NULL for the model's graph), its nodes (root first),
   extents, parameters (with the graph tensor each is bound to), the constants it bakes
   in as literals, and its output's graph tensor. Indented for a member of "kernels". */
void manifest_kernel(const spec_writer *w, int r, const manifest_scope *scope, diag_text *t);

/* The manifest's opening (format, version, model, spec, graph, opset) up to the
   "kernels" array's '[' (the entries follow, joined by ",\n"). */
void manifest_open(const import_graph *gr, const char *model_name, const char *spec_name,
                   diag_text *t);

/* Closes what manifest_open opened. */
void manifest_close(diag_text *t);

/* s as a JSON string, quotes included: control characters escaped, bytes that are not
   UTF-8 as U+FFFD, so that any ONNX name gives valid JSON. */
void manifest_string(diag_text *t, const char *s);

#endif
