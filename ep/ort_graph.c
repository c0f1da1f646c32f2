/* ort_graph.c: ORT's graph (OrtGraph, valid only inside GetCapability) copied into the
   provider's ep_graph: operator types, edges by value name, types, constant initializers. */
#include <stdlib.h>
#include <string.h>

#include "provider.h"

/* The tensor type and shape ORT knows for value info vi, and its data if it is a constant
   initializer (ORT's memory, valid while the session lives). */
static void read_value(ep_graph *g, ep_value *v, const OrtValueInfo *vi) {
  const OrtTypeInfo               *type = NULL;
  const OrtTensorTypeAndShapeInfo *tensor = NULL;
  if (ep_ok(ORT(GetValueInfoTypeInfo, ort_GetValueInfoTypeInfo)(vi, &type)) && type &&
      ep_ok(ORT(CastTypeInfoToTensorInfo, ort_CastTypeInfoToTensorInfo)(type, &tensor)) && tensor) {
    int    elem = 0;
    size_t rank = 0;
    if (ep_ok(ORT(GetTensorElementType, ort_GetTensorElementType)(tensor, &elem))) v->dtype = elem;
    if (ep_ok(ORT(GetDimensionsCount, ort_GetDimensionsCount)(tensor, &rank)) && rank <= 16 &&
        ep_ok(ORT(GetDimensions, ort_GetDimensions)(tensor, v->dims, rank)))
      v->rank = (int)rank;
  }
  /* Before ORT 1.24 (TensorTypeAndShape_HasShape) a value without a shape reports rank 0,
     like a scalar: take rank 0 as unknown (a constant's below is known). Running a scalar
     where the kernel declares more is still right: the interpreter broadcasts it. */
  if (v->rank == 0) v->rank = -1;
  bool yes = false;
  if (ep_ok(ORT(ValueInfo_IsFromOuterScope, ort_ValueInfo_Is)(vi, &yes)) && yes) g->nested = true;
  yes = false;
  if (ep_ok(ORT(ValueInfo_IsGraphOutput, ort_ValueInfo_Is)(vi, &yes))) v->graph_output = yes;
  yes = false;
  const OrtValue *init = NULL;
  if (!ep_ok(ORT(ValueInfo_IsConstantInitializer, ort_ValueInfo_Is)(vi, &yes)) || !yes ||
      !ep_ok(ORT(ValueInfo_GetInitializerValue, ort_ValueInfo_GetInitializerValue)(vi, &init)) || !init)
    return;
  OrtTensorTypeAndShapeInfo *info = NULL;
  size_t                     count = 0;
  int                        elem = 0;
  void                      *data = NULL;
  if (ep_ok(ORT(GetTensorTypeAndShape, ort_GetTensorTypeAndShape)(init, &info)) && info) {
    if (ep_ok(ORT(GetTensorShapeElementCount, ort_GetDimensionsCount)(info, &count)) &&
        ep_ok(ORT(GetTensorElementType, ort_GetTensorElementType)(info, &elem)) &&
        wc_dtype_size((wc_dtype)elem) && elem != WC_STRING &&
        ep_ok(ORT(GetTensorMutableData, ort_GetTensorMutableData)((OrtValue *)init, &data))) {
      v->data = data;
      v->bytes = count * wc_dtype_size((wc_dtype)elem);
      size_t rank = 0;
      if (ep_ok(ORT(GetDimensionsCount, ort_GetDimensionsCount)(info, &rank)) && rank <= 16 &&
          ep_ok(ORT(GetDimensions, ort_GetDimensions)(info, v->dims, rank)))
        v->rank = (int)rank; /* the constant's own shape, a scalar's too */
    }
    ORT(ReleaseTensorTypeAndShapeInfo, ort_ReleaseTensorTypeAndShapeInfo)(info);
  }
}

/* The graph value of each of n value infos (-1 for an omitted one), read on first sight. */
static bool intern(ep_graph *g, const OrtValueInfo *const *vis, size_t n, int *out) {
  for (size_t i = 0; i < n; i++) {
    const char *name = NULL;
    out[i] = -1;
    if (!vis[i] || !ep_ok(ORT(GetValueInfoName, ort_GetValueInfoName)(vis[i], &name)) || !name || !*name)
      continue;
    bool fresh = ep_graph_find(g, name) < 0;
    out[i] = ep_graph_value(g, name);
    if (out[i] < 0) return false;
    if (fresh) read_value(g, &g->values[out[i]], vis[i]);
  }
  return true;
}

bool ep_read_graph(const OrtGraph *graph, ep_graph *g, char *why, size_t why_cap) {
  size_t          n = 0;
  const OrtNode **nodes = NULL;
  *g = (ep_graph){0};
  if (!ep_ok(ORT(Graph_GetNumNodes, ort_Graph_GetNumNodes)(graph, &n)) ||
      !(nodes = calloc(n + 1, sizeof *nodes)) ||
      !ep_ok(ORT(Graph_GetNodes, ort_Graph_GetNodes)(graph, nodes, n))) {
    snprintf(why, why_cap, "cannot read the graph's nodes");
    free(nodes);
    return false;
  }
  const OrtValueInfo **vis = NULL;
  int                 *idx = NULL;
  size_t               cap = 0;
  bool                 ok = true;
  for (size_t i = 0; ok && i < n; i++) {
    const char *op = NULL, *domain = NULL;
    size_t      ni = 0, no = 0, nimp = 0;
    ok = ep_ok(ORT(Node_GetOperatorType, ort_Node_GetString)(nodes[i], &op)) &&
         ep_ok(ORT(Node_GetDomain, ort_Node_GetString)(nodes[i], &domain)) &&
         ep_ok(ORT(Node_GetNumInputs, ort_Node_GetNum)(nodes[i], &ni)) &&
         ep_ok(ORT(Node_GetNumOutputs, ort_Node_GetNum)(nodes[i], &no)) &&
         ep_ok(ORT(Node_GetNumImplicitInputs, ort_Node_GetNum)(nodes[i], &nimp));
    size_t need = ni + no + nimp + 1;
    if (ok && need > cap) {
      free(vis), free(idx);
      vis = calloc(need, sizeof *vis);
      idx = calloc(need, sizeof *idx);
      cap = need;
      ok = vis && idx;
    }
    if (!ok) break;
    ok = ep_ok(ORT(Node_GetInputs, ort_Node_GetValues)(nodes[i], vis, ni)) &&
         intern(g, vis, ni, idx) &&
         ep_ok(ORT(Node_GetOutputs, ort_Node_GetValues)(nodes[i], vis + ni, no)) &&
         intern(g, vis + ni, no, idx + ni) &&
         ep_ok(ORT(Node_GetImplicitInputs, ort_Node_GetValues)(nodes[i], vis + ni + no, nimp)) &&
         intern(g, vis + ni + no, nimp, idx + ni + no);
    if (!ok) break;
    /* operators of other domains never match the default domain's regions */
    char type[256];
    snprintf(type, sizeof type, "%s%s%s", domain && *domain && strcmp(domain, "ai.onnx") ? domain : "",
             domain && *domain && strcmp(domain, "ai.onnx") ? ":" : "", op ? op : "");
    ok = ep_graph_add_node(g, type, nodes[i], idx, (int)ni, idx + ni, (int)no) >= 0;
    for (size_t k = 0; ok && k < nimp; k++)
      if (idx[ni + no + k] >= 0) g->values[idx[ni + no + k]].n_consumers++; /* read by a body */
  }
  free(vis), free(idx), free(nodes);
  if (!ok || g->failed) {
    snprintf(why, why_cap, "cannot read the graph (ORT refused a query or memory ran out)");
    ep_graph_free(g);
    return false;
  }
  return true;
}
