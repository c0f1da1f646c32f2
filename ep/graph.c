/* graph.c: the provider's copy of a graph (graph.h): values interned by name in an open
   hash, so a model of thousands of nodes is read in linear time. */
#define _POSIX_C_SOURCE 200809L
#include "graph.h"

#include <stdlib.h>
#include <string.h>

static uint32_t hash(const char *s) {
  uint32_t h = 2166136261u; /* FNV-1a */
  while (*s) h = (h ^ (unsigned char)*s++) * 16777619u;
  return h;
}

static bool rehash(ep_graph *g) {
  int  n = g->n_slots ? 2 * g->n_slots : 256;
  int *s = calloc((size_t)n, sizeof *s);
  if (!s) return false;
  for (int v = 0; v < g->n_values; v++) {
    uint32_t i = hash(g->values[v].name) & (uint32_t)(n - 1);
    while (s[i]) i = (i + 1) & (uint32_t)(n - 1);
    s[i] = v + 1;
  }
  free(g->slots);
  g->slots = s;
  g->n_slots = n;
  return true;
}

int ep_graph_find(const ep_graph *g, const char *name) {
  if (!name || !*name || !g->n_slots) return -1;
  for (uint32_t i = hash(name) & (uint32_t)(g->n_slots - 1);; i = (i + 1) & (uint32_t)(g->n_slots - 1)) {
    if (!g->slots[i]) return -1;
    if (strcmp(g->values[g->slots[i] - 1].name, name) == 0) return g->slots[i] - 1;
  }
}

static void *grow(void *p, int *cap, size_t size) {
  int   n = *cap ? 2 * *cap : 64;
  void *q = realloc(p, (size_t)n * size);
  if (q) *cap = n;
  return q;
}

int ep_graph_value(ep_graph *g, const char *name) {
  if (g->failed || !name || !*name) return -1;
  int v = ep_graph_find(g, name);
  if (v >= 0) return v;
  if (2 * (g->n_values + 1) > g->n_slots && !rehash(g)) return g->failed = true, -1;
  if (g->n_values == g->cap_values) {
    ep_value *q = grow(g->values, &g->cap_values, sizeof *q);
    if (!q) return g->failed = true, -1;
    g->values = q;
  }
  char *copy = strdup(name);
  if (!copy) return g->failed = true, -1;
  v = g->n_values++;
  g->values[v] = (ep_value){.name = copy, .producer = -1, .rank = -1};
  uint32_t i = hash(name) & (uint32_t)(g->n_slots - 1);
  while (g->slots[i]) i = (i + 1) & (uint32_t)(g->n_slots - 1);
  g->slots[i] = v + 1;
  return v;
}

int ep_graph_add_node(ep_graph *g, const char *op_type, const void *handle, const int *inputs,
                      int n_inputs, const int *outputs, int n_outputs) {
  if (g->failed) return -1;
  if (g->n_nodes == g->cap_nodes) {
    ep_node *q = grow(g->nodes, &g->cap_nodes, sizeof *q);
    if (!q) return g->failed = true, -1;
    g->nodes = q;
  }
  ep_node n = {.op_type = strdup(op_type ? op_type : ""), .handle = handle,
               .n_inputs = n_inputs, .n_outputs = n_outputs,
               .inputs = malloc(((size_t)n_inputs + 1) * sizeof(int)),
               .outputs = malloc(((size_t)n_outputs + 1) * sizeof(int))};
  if (!n.op_type || !n.inputs || !n.outputs) {
    free(n.op_type), free(n.inputs), free(n.outputs);
    return g->failed = true, -1;
  }
  if (n_inputs) memcpy(n.inputs, inputs, (size_t)n_inputs * sizeof(int));
  if (n_outputs) memcpy(n.outputs, outputs, (size_t)n_outputs * sizeof(int));
  int id = g->n_nodes++;
  g->nodes[id] = n;
  for (int k = 0; k < n_inputs; k++)
    if (inputs[k] >= 0) g->values[inputs[k]].n_consumers++;
  for (int k = 0; k < n_outputs; k++)
    if (outputs[k] >= 0) g->values[outputs[k]].producer = id;
  return id;
}

void ep_graph_free(ep_graph *g) {
  for (int i = 0; i < g->n_nodes; i++) {
    free(g->nodes[i].op_type);
    free(g->nodes[i].inputs);
    free(g->nodes[i].outputs);
  }
  for (int v = 0; v < g->n_values; v++) free(g->values[v].name);
  free(g->nodes);
  free(g->values);
  free(g->slots);
  *g = (ep_graph){0};
}
