/* provider.h: what the execution provider's units share: ORT's API tables, the provider's
   state (one per session), its claims and its compiled nodes. */
#ifndef WHEREC_EP_PROVIDER_H
#define WHEREC_EP_PROVIDER_H

#include <stdbool.h>
#include <stdio.h>

#include <wherec/wherec.h>

#include "graph.h"
#include "manifest.h"
#include "ort_abi.h"

#define EP_NAME "WherecExecutionProvider"

/* ORT's tables, set once by CreateEpFactories. */
extern const ort_fn *ep_ort;     /* OrtApi, version ORT_EP_API_VERSION */
extern const ort_fn *ep_ort_ep;  /* OrtEpApi */
extern int ep_ort_version;       /* major * 100 + minor of the running onnxruntime, 0 unknown */
#define ORT(slot, type) ((type)ep_ort[ORT_##slot])
#define ORT_EP(slot, type) ((type)ep_ort_ep[ORT_EP_##slot])

/* An ORT status as a bool: true when s is NULL (success); an error is released. */
bool ep_ok(OrtStatus *s);
/* A new ORT status (code ORT_FAIL) with a printf-formed message. */
OrtStatus *ep_error(const char *fmt, ...);

/* A region claimed in a graph: the graph tensors the fused node will read and write. */
typedef struct ep_claim {
  int    kernel;       /* index in the manifest and the table */
  char **params;       /* the graph tensor bound to each manifest parameter */
  char **outputs;      /* the graph tensor of each output */
} ep_claim;

/* The provider, one per session. */
typedef struct ep_provider {
  OrtEp                  ort;       /* first: ORT hands it back */
  const OrtLogger       *logger;
  ep_manifest            manifest;
  void                  *library;   /* dlopen handle of the kernels */
  const wc_kernel_table *table;
  const wc_kernel      **kernels;   /* the table's kernel of each manifest kernel */
  bool                   claim_all; /* claim=all: every region that matches */
  bool                   check;     /* check=1: every call compared with the reference */
  FILE                  *report;    /* report=PATH: one JSON line per decision, else NULL */
  char                   only[256]; /* only=KERNEL: the one kernel considered (measure.py); "" all */
  ep_claim              *claims;
  int                    n_claims, cap_claims;
} ep_provider;

/* Writes a message to ORT's log at level, and to the report file when one is open. */
void ep_log(ep_provider *p, int level, const char *fmt, ...);

/* The provider's copy of ORT's graph (ort_graph.c); false with g->failed or a status. */
bool ep_read_graph(const OrtGraph *graph, ep_graph *g, char *why, size_t why_cap);

/* The compute info of the fused node of claim c (compute.c), whose inputs and outputs ORT
   names in_names and out_names; NULL with a message in why. */
OrtNodeComputeInfo *ep_compute_info(ep_provider *p, const ep_claim *c, const char *const *in_names,
                                    size_t n_in, const char *const *out_names, size_t n_out,
                                    char *why, size_t why_cap);
void ep_compute_info_free(OrtNodeComputeInfo *info);

/* Routes wherec's parallel hook to the intra-op pool of the kernel context running, for
   calls of at least min_bytes of output (0: wherec's default, 1 MiB). */
void ep_install_parallel(size_t min_bytes);

#endif
