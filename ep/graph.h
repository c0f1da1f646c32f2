/* graph.h: the graph the provider matches regions in: nodes and values by index, copied out
   of ORT's graph (ep.c) or built by a test, so matching never touches ORT's objects. */
#ifndef WHEREC_EP_GRAPH_H
#define WHEREC_EP_GRAPH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct ep_value {
  char       *name;
  int         producer;     /* node index, -1 for inputs, initializers, outer values */
  int         n_consumers;  /* node input slots (explicit and implicit) reading it */
  bool        graph_output;
  int         dtype;        /* wc_dtype (ONNX code), 0 unknown */
  int         rank;         /* -1 unknown */
  int64_t     dims[16];     /* -1 unknown extent */
  const void *data;         /* a constant initializer's elements (ORT's memory), else NULL */
  size_t      bytes;        /* data's size */
} ep_value;

typedef struct ep_node {
  char       *op_type;
  const void *handle;       /* ORT's node, for AddNodesToFuse */
  int         n_inputs, n_outputs;
  int        *inputs;       /* value indices, -1 for an omitted optional input */
  int        *outputs;
} ep_node;

typedef struct ep_graph {
  ep_node  *nodes;
  ep_value *values;
  int       n_nodes, n_values, cap_nodes, cap_values;
  int      *slots;          /* hash of value names: value index + 1, 0 empty */
  int       n_slots;
  bool      failed;         /* out of memory on the way: the graph is unusable */
  bool      nested;         /* a sub-graph: it reads values of the scopes around it */
} ep_graph;

/* The value called name, created (unknown type, no producer) on first use; -1 if name is
   NULL or "" (an omitted input) or memory ran out. */
int  ep_graph_value(ep_graph *g, const char *name);
/* Adds a node; its inputs and outputs are value indices (-1 omitted). Returns its index. */
int  ep_graph_add_node(ep_graph *g, const char *op_type, const void *handle, const int *inputs,
                       int n_inputs, const int *outputs, int n_outputs);
/* Looks a value up by name: its index or -1. */
int  ep_graph_find(const ep_graph *g, const char *name);
void ep_graph_free(ep_graph *g);

#endif
