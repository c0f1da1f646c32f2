/* match.h: finding an imported region in the graph ORT hands the provider, by structure:
   operator types and the edges between the region's nodes, with its constants by value. */
#ifndef WHEREC_EP_MATCH_H
#define WHEREC_EP_MATCH_H

#include <stdbool.h>
#include <stddef.h>

#include "graph.h"
#include "manifest.h"

/* A baked constant's elements, as the kernel table holds them (for the value check). */
typedef struct ep_const {
  const void *data;
  size_t      bytes;
} ep_const;

/* Where a kernel sits in the graph. */
typedef struct ep_match {
  int *nodes;    /* graph node of each region node, in the manifest's order */
  int *params;   /* graph value bound to each parameter */
  int *outputs;  /* graph value computed by each output */
} ep_match;

/* Finds kernel k in g among the nodes not taken[]. The root is looked up first by the name
   of the tensor it computes, then among every node of its type; the rest of the region
   must then follow by its edges (renames of values in between do not matter), its literals
   and baked constants (baked[i], or unchecked when baked is NULL) must be constants of the
   same bytes, no value computed inside may be read outside but the outputs, and no node
   outside may lie on a path between two of its nodes. On success fills m (free it with
   ep_match_free) and marks the nodes taken; else writes why into why. */
bool ep_match_kernel(const ep_graph *g, const ep_mkernel *k, const ep_const *baked, bool *taken,
                     ep_match *m, char *why, size_t why_cap);
/* The types ORT reports against the kernel's: each parameter's and output's dtype, its
   rank and each fixed extent where ORT knows them. false with the first difference. */
bool ep_match_types(const ep_graph *g, const ep_mkernel *k, const ep_match *m, char *why,
                    size_t why_cap);
void ep_match_free(ep_match *m);

/* ep_match_kernel with ep_match_types for each place found: a place whose types differ is
   passed over and the search goes on, so a twin of the region elsewhere is still found and
   nothing is taken for a refused place. EP_REFUSED when places were found but none with
   the kernel's types (why: the first one's difference). */
typedef enum ep_found { EP_NOT_FOUND, EP_FOUND, EP_REFUSED } ep_found;
ep_found ep_find_kernel(const ep_graph *g, const ep_mkernel *k, const ep_const *baked, bool *taken,
                        ep_match *m, char *why, size_t why_cap);

#endif
