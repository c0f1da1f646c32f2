/* ep.c: wherec's execution provider for onnxruntime: the factory ORT loads, the provider
   per session (manifest and kernels from its options), GetCapability and Compile. */
#define _POSIX_C_SOURCE 200809L
#include <dlfcn.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "match.h"
#include "provider.h"

const ort_fn *ep_ort;
const ort_fn *ep_ort_ep;
int           ep_ort_version;

#define EP_VERSION "0.1.0"
/* The provider's parallel threshold: onnxruntime splits its own element-wise nodes at far
   smaller sizes than wherec's 1 MiB default, and ORT's pool is cheap to enter (PP-OCRv4 rec
   at 2 threads: 0.93x onnxruntime alone at 1 MiB, 1.18x at 64 KiB; bench/README.md). */
#define EP_PARALLEL_MIN_BYTES ((size_t)64 << 10)
#define EP_EXPORT __attribute__((visibility("default")))

bool ep_ok(OrtStatus *s) {
  if (!s) return true;
  ORT(ReleaseStatus, ort_ReleaseStatus)(s);
  return false;
}

OrtStatus *ep_error(const char *fmt, ...) {
  char    msg[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  return ORT(CreateStatus, ort_CreateStatus)(ORT_FAIL, msg);
}

void ep_log(ep_provider *p, int level, const char *fmt, ...) {
  char    msg[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  if (p->logger)
    ep_ok(ORT(Logger_LogMessage, ort_Logger_LogMessage)(p->logger, level, msg, __FILE__, __LINE__, "wherec"));
}

/* A region's decision: to ORT's log (claimed and left at info, refused at warning, not
   found at verbose: a sub-graph misses most kernels) and as a JSON line of the report. */
static void report(ep_provider *p, const ep_mkernel *k, const char *decision, const char *why) {
  int level = strcmp(decision, "refused") == 0     ? ORT_LOG_WARNING
              : strcmp(decision, "not found") == 0 ? ORT_LOG_VERBOSE
                                                   : ORT_LOG_INFO;
  ep_log(p, level, "wherec: kernel %s: %s: %s", k->name, decision, why);
  if (!p->report) return;
  fprintf(p->report, "{\"kernel\": \"%s\", \"decision\": \"%s\", \"why\": \"", k->name, decision);
  for (const char *c = why; *c; c++)
    if (*c == '"' || *c == '\\') fprintf(p->report, "\\%c", *c);
    else fputc((unsigned char)*c < 0x20 ? ' ' : *c, p->report);
  fprintf(p->report, "\"}\n");
  fflush(p->report);
}

/* ---- GetCapability -------------------------------------------------------------------- */

/* The baked constants of manifest kernel k, from the table, for the value check. */
static ep_const *baked_of(const ep_provider *p, int ki) {
  const ep_mkernel *mk = &p->manifest.kernels[ki];
  const wc_kernel  *k = p->kernels[ki];
  ep_const         *b = calloc((size_t)mk->n_baked + 1, sizeof *b);
  for (int i = 0; b && i < mk->n_baked; i++)
    for (int q = 0; q < k->n_inputs; q++)
      if (k->inputs[q].data && strcmp(k->inputs[q].name, mk->baked_names[i]) == 0) {
        size_t n = wc_dtype_size(k->inputs[q].dtype);
        for (int d = 0; d < k->inputs[q].rank; d++) n *= (size_t)k->inputs[q].dims[d];
        b[i] = (ep_const){k->inputs[q].data, n};
      }
  return b;
}

static bool add_claim(ep_provider *p, int ki, const ep_graph *g, const ep_match *m) {
  const ep_mkernel *mk = &p->manifest.kernels[ki];
  if (p->n_claims == p->cap_claims) {
    int       cap = p->cap_claims ? 2 * p->cap_claims : 16;
    ep_claim *c = realloc(p->claims, (size_t)cap * sizeof *c);
    if (!c) return false;
    p->claims = c;
    p->cap_claims = cap;
  }
  ep_claim c = {ki, calloc((size_t)mk->n_params + 1, sizeof(char *)), calloc((size_t)mk->n_outputs + 1, sizeof(char *))};
  bool     ok = c.params && c.outputs;
  for (int i = 0; ok && i < mk->n_params; i++) ok = (c.params[i] = strdup(g->values[m->params[i]].name));
  for (int o = 0; ok && o < mk->n_outputs; o++) ok = (c.outputs[o] = strdup(g->values[m->outputs[o]].name));
  if (!ok) {
    for (int i = 0; c.params && i < mk->n_params; i++) free(c.params[i]);
    for (int o = 0; c.outputs && o < mk->n_outputs; o++) free(c.outputs[o]);
    free(c.params), free(c.outputs);
    return false;
  }
  p->claims[p->n_claims++] = c;
  return true;
}

/* Whether g holds fused nodes of this provider: onnxruntime asks again after inlining the
   function nodes (HardSwish, ...) no provider took, handing the first pass's fused nodes. */
static bool has_own_fused_nodes(const ep_graph *g) {
  for (int i = 0; i < g->n_nodes; i++)
    if (strncmp(g->nodes[i].op_type, EP_NAME ":", sizeof EP_NAME) == 0) return true;
  return false;
}

static OrtStatus *get_capability(OrtEp *self, const OrtGraph *graph, OrtEpGraphSupportInfo *support) {
  ep_provider *p = (ep_provider *)self;
  ep_graph     g;
  char         why[512];
  if (!ep_read_graph(graph, &g, why, sizeof why)) return ep_error("wherec: %s", why);
  /* onnxruntime 1.23 names the fused nodes of each sub-graph alike (the EP's name, the
     model's hash, a count that starts at 0 in every graph) and then refuses the second as a
     kernel registered twice: there, sub-graphs are left to onnxruntime (1.24 counts apart) */
  const OrtNode *parent = NULL;
  bool           nested = g.nested || (ep_ok(ORT(Graph_GetParentNode, ort_Graph_GetParentNode)(graph, &parent)) && parent);
  bool           old_ort = ep_ort_version != 0 && ep_ort_version < 124;
  bool           subgraphs_ok = !nested || !old_ort;
  /* the same count restarts at 0 in a second pass over one graph (after onnxruntime has
     inlined function nodes): a second pass of 1.23 claims nothing new */
  bool           second_pass = old_ort && has_own_fused_nodes(&g);
  bool          *taken = calloc((size_t)g.n_nodes + 1, 1);
  const OrtNode **fuse = calloc((size_t)g.n_nodes + 1, sizeof *fuse);
  int            found = 0;
  OrtStatus     *err = NULL;
  for (int ki = 0; taken && fuse && !err && ki < p->manifest.n_kernels; ki++) {
    const ep_mkernel *mk = &p->manifest.kernels[ki];
    if (*p->only && strcmp(p->only, mk->name) != 0) continue;
    ep_const *baked = baked_of(p, ki);
    ep_match  m;
    ep_found  place = ep_find_kernel(&g, mk, baked, taken, &m, why, sizeof why);
    free(baked);
    if (place != EP_FOUND) {
      report(p, mk, place == EP_REFUSED ? "refused" : "not found", why);
      found += place == EP_REFUSED;
      continue;
    }
    found++;
    if (!subgraphs_ok) {
      report(p, mk, "left to onnxruntime",
             "in a sub-graph, which onnxruntime before 1.24 cannot take fused nodes of (their names clash)");
    } else if (second_pass) {
      report(p, mk, "left to onnxruntime",
             "found in onnxruntime's second pass over the graph (after it inlined function nodes), whose fused "
             "nodes onnxruntime before 1.24 names as the first pass's (their names clash)");
    } else if (!p->claim_all && !(mk->measured && mk->faster)) {
      snprintf(why, sizeof why, mk->measured ? "measured slower than onnxruntime (%.2f us against %.2f us)"
                                             : "not measured at import (claim=all claims it)",
               mk->wherec_us, mk->ort_us);
      report(p, mk, "left to onnxruntime", why);
    } else if (!add_claim(p, ki, &g, &m)) {
      err = ep_error("wherec: out of memory");
    } else {
      for (int r = 0; r < mk->n_nodes; r++) fuse[r] = g.nodes[m.nodes[r]].handle;
      err = ORT_EP(EpGraphSupportInfo_AddNodesToFuse, ort_EP_AddNodesToFuse)(support, fuse, (size_t)mk->n_nodes, NULL);
      snprintf(why, sizeof why, mk->measured ? "%d nodes; measured %.2f us against onnxruntime's %.2f us"
                                             : "%d nodes (claim=all)",
               mk->n_nodes, mk->wherec_us, mk->ort_us);
      if (!err) report(p, mk, "claimed", why);
    }
    ep_match_free(&m);
  }
  if (!taken || !fuse) err = ep_error("wherec: out of memory");
  if (!err && !found && p->manifest.n_kernels && g.n_nodes > 8)
    ep_log(p, ORT_LOG_WARNING, "wherec: none of the %d kernels of the manifest is in this graph of %d nodes: "
                               "was it imported from another model? onnxruntime runs every node",
           p->manifest.n_kernels, g.n_nodes);
  free(taken);
  free(fuse);
  ep_graph_free(&g);
  return err;
}

/* ---- Compile ------------------------------------------------------------------------------ */

/* The names of a node's inputs or outputs (count *n), or NULL. */
static const char **value_names(const OrtNode *node, bool outputs, size_t *n) {
  *n = 0;
  if (!ep_ok(outputs ? ORT(Node_GetNumOutputs, ort_Node_GetNum)(node, n) : ORT(Node_GetNumInputs, ort_Node_GetNum)(node, n)))
    return NULL;
  const OrtValueInfo **vis = calloc(*n + 1, sizeof *vis);
  const char         **names = calloc(*n + 1, sizeof *names);
  if (!vis || !names ||
      !ep_ok(outputs ? ORT(Node_GetOutputs, ort_Node_GetValues)(node, vis, *n) : ORT(Node_GetInputs, ort_Node_GetValues)(node, vis, *n))) {
    free(vis), free(names);
    return NULL;
  }
  for (size_t i = 0; i < *n; i++)
    if (!vis[i] || !ep_ok(ORT(GetValueInfoName, ort_GetValueInfoName)(vis[i], &names[i]))) names[i] = NULL;
  free(vis);
  return names;
}

static OrtStatus *compile(OrtEp *self, const OrtGraph **graphs, const OrtNode **fused, size_t count,
                          OrtNodeComputeInfo **infos, OrtNode **ep_context_nodes) {
  (void)graphs, (void)ep_context_nodes;
  ep_provider *p = (ep_provider *)self;
  for (size_t f = 0; f < count; f++) infos[f] = NULL;
  for (size_t f = 0; f < count; f++) {
    size_t       n_in = 0, n_out = 0;
    const char **in = value_names(fused[f], false, &n_in), **out = value_names(fused[f], true, &n_out);
    const ep_claim *claim = NULL;
    for (int c = p->n_claims - 1; in && out && !claim && c >= 0; c--) /* the latest claim first */
      for (size_t o = 0; o < n_out; o++)
        if (out[o] && strcmp(out[o], p->claims[c].outputs[0]) == 0) claim = &p->claims[c];
    char why[512] = "cannot read the fused node";
    if (claim) infos[f] = ep_compute_info(p, claim, in, n_in, out, n_out, why, sizeof why);
    else if (in && out) snprintf(why, sizeof why, "no claim computes the fused node's outputs");
    free(in), free(out);
    if (!infos[f]) {
      for (size_t q = 0; q < f; q++) ep_compute_info_free(infos[q]), infos[q] = NULL;
      return ep_error("wherec: Compile: %s", why);
    }
  }
  return NULL;
}

static void release_infos(OrtEp *self, OrtNodeComputeInfo **infos, size_t count) {
  (void)self;
  for (size_t i = 0; i < count; i++) ep_compute_info_free(infos[i]);
}

static const char *ep_get_name(const OrtEp *self) {
  (void)self;
  return EP_NAME;
}

/* ---- the provider's options and its kernels ------------------------------------------------ */

/* Session option ep.<name>.key (ORT adds EP options under that prefix; the name lower-cased
   in the versions seen, as given in others), into buf; false when it is not set. */
static bool option(const OrtSessionOptions *so, const char *key, char *buf, size_t cap) {
  char lower[64], full[128];
  size_t i = 0;
  for (; EP_NAME[i] && i + 1 < sizeof lower; i++) lower[i] = (char)(EP_NAME[i] | (EP_NAME[i] >= 'A' && EP_NAME[i] <= 'Z' ? 0x20 : 0));
  lower[i] = '\0';
  const char *names[] = {lower, EP_NAME};
  for (int n = 0; n < 2; n++) {
    size_t size = cap;
    snprintf(full, sizeof full, "ep.%s.%s", names[n], key);
    if (ep_ok(ORT(GetSessionConfigEntry, ort_GetSessionConfigEntry)(so, full, buf, &size)) && size > 1) return true;
  }
  return false;
}

static char *read_file(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  char  *buf = NULL;
  size_t cap = 0, n = 0;
  for (;;) {
    if (n + 4096 > cap) {
      char *b = realloc(buf, cap = cap * 2 + 8192);
      if (!b) break;
      buf = b;
    }
    size_t got = fread(buf + n, 1, cap - n, f);
    n += got;
    if (got == 0) break;
  }
  bool bad = ferror(f);
  fclose(f);
  if (bad || !buf) return free(buf), NULL;
  *len = n;
  return buf;
}

static void provider_free(ep_provider *p) {
  for (int c = 0; c < p->n_claims; c++) {
    for (int i = 0; i < p->manifest.kernels[p->claims[c].kernel].n_params; i++) free(p->claims[c].params[i]);
    for (int o = 0; o < p->manifest.kernels[p->claims[c].kernel].n_outputs; o++) free(p->claims[c].outputs[o]);
    free(p->claims[c].params), free(p->claims[c].outputs);
  }
  free(p->claims);
  free(p->kernels);
  ep_manifest_free(&p->manifest);
  if (p->library) dlclose(p->library);
  if (p->report) fclose(p->report);
  free(p);
}

/* Loads the manifest and the kernels library the options name, and pairs their kernels. */
static OrtStatus *provider_load(ep_provider *p, const OrtSessionOptions *so) {
  char manifest[4096], kernels[4096], table[256], claim[32], report_path[4096];
  if (!option(so, "manifest", manifest, sizeof manifest) || !option(so, "kernels", kernels, sizeof kernels))
    return ep_error("wherec: the provider needs the options 'manifest' (the model's manifest, from wherec "
                    "import --ort DIR) and 'kernels' (the compiled kernels library there)");
  if (option(so, "claim", claim, sizeof claim)) {
    if (strcmp(claim, "all") && strcmp(claim, "measured"))
      return ep_error("wherec: option claim is '%s': it is 'measured' (the default) or 'all'", claim);
    p->claim_all = strcmp(claim, "all") == 0;
  }
  option(so, "only", p->only, sizeof p->only);
  char check[8];
  if (option(so, "check", check, sizeof check)) {
    if (strcmp(check, "0") && strcmp(check, "1"))
      return ep_error("wherec: option check is '%s': it is 0 (the default) or 1", check);
    p->check = strcmp(check, "1") == 0;
  }
  if (option(so, "report", report_path, sizeof report_path) && !(p->report = fopen(report_path, "a")))
    return ep_error("wherec: cannot open the report file '%s'", report_path);
  size_t len = 0;
  char  *text = read_file(manifest, &len), err[512];
  if (!text) return ep_error("wherec: cannot read the manifest '%s'", manifest);
  bool parsed = ep_manifest_parse(text, len, &p->manifest, err, sizeof err);
  free(text);
  if (!parsed) return ep_error("wherec: the manifest '%s': %s", manifest, err);
  if (!(p->library = dlopen(kernels, RTLD_NOW | RTLD_LOCAL)))
    return ep_error("wherec: cannot load the kernels '%s': %s", kernels, dlerror());
  if (!option(so, "table", table, sizeof table)) snprintf(table, sizeof table, "kernels_table");
  if (!(p->table = dlsym(p->library, table)))
    return ep_error("wherec: the kernels '%s' define no table '%s'", kernels, table);
  p->kernels = calloc((size_t)p->manifest.n_kernels + 1, sizeof *p->kernels);
  if (!p->kernels) return ep_error("wherec: out of memory");
  for (int k = 0; k < p->manifest.n_kernels; k++) {
    const ep_mkernel *mk = &p->manifest.kernels[k];
    const wc_kernel  *wk = wc_find_kernel(p->table, mk->name);
    if (!wk || wk->kind != WC_KIND_ELEMENTWISE || (wk->n_outputs > 1 ? wk->n_outputs : 1) != mk->n_outputs)
      return ep_error("wherec: the kernels '%s' and the manifest '%s' disagree on kernel '%s': "
                      "were they made by one import?", kernels, manifest, mk->name);
    for (int i = 0; i < wk->n_inputs; i++)
      if (wk->inputs[i].dtype == WC_STRING)
        return ep_error("wherec: kernel '%s' reads strings, which the provider does not take", mk->name);
    p->kernels[k] = wk;
  }
  if (*p->only && !wc_find_kernel(p->table, p->only))
    return ep_error("wherec: option only names '%s', which the manifest '%s' has no kernel of", p->only,
                    manifest);
  return NULL;
}

/* ---- the factory ------------------------------------------------------------------------- */

static const char *factory_name(const OrtEpFactory *f) { (void)f; return EP_NAME; }
static const char *factory_vendor(const OrtEpFactory *f) { (void)f; return "wherec"; }
static uint32_t factory_vendor_id(const OrtEpFactory *f) { (void)f; return 0; }
static const char *factory_version(const OrtEpFactory *f) { (void)f; return EP_VERSION; }
static bool factory_stream_aware(const OrtEpFactory *f) { (void)f; return false; }

static OrtStatus *factory_no_transfer(OrtEpFactory *f, OrtDataTransferImpl **out) {
  (void)f;
  *out = NULL; /* CPU memory only: nothing to copy */
  return NULL;
}

static OrtStatus *factory_devices(OrtEpFactory *f, const OrtHardwareDevice *const *devices, size_t n,
                                  OrtEpDevice **ep_devices, size_t max, size_t *count) {
  *count = 0;
  for (size_t i = 0; i < n && *count < max; i++) {
    if (ORT(HardwareDevice_Type, ort_HardwareDevice_Type)(devices[i]) != ORT_DEVICE_CPU) continue;
    OrtStatus *s = ORT_EP(CreateEpDevice, ort_EP_CreateEpDevice)(f, devices[i], NULL, NULL, &ep_devices[*count]);
    if (s) return s;
    ++*count;
  }
  return NULL;
}

static OrtStatus *factory_create_ep(OrtEpFactory *f, const OrtHardwareDevice *const *devices,
                                    const OrtKeyValuePairs *const *metadata, size_t n,
                                    const OrtSessionOptions *so, const OrtLogger *logger, OrtEp **out) {
  (void)f, (void)devices, (void)metadata, (void)n;
  *out = NULL;
  ep_provider *p = calloc(1, sizeof *p);
  if (!p) return ep_error("wherec: out of memory");
  p->ort = (OrtEp){.ort_version_supported = ORT_EP_API_VERSION, .GetName = ep_get_name,
                   .GetCapability = get_capability, .Compile = compile,
                   .ReleaseNodeComputeInfos = release_infos};
  p->logger = logger;
  OrtStatus *s = provider_load(p, so);
  if (s) {
    provider_free(p);
    return s;
  }
  char   text[32] = "";
  size_t min_bytes = option(so, "parallel_min_bytes", text, sizeof text) ? strtoull(text, NULL, 10)
                                                                        : EP_PARALLEL_MIN_BYTES;
  ep_install_parallel(min_bytes);
  *out = &p->ort;
  return NULL;
}

static void factory_release_ep(OrtEpFactory *f, OrtEp *ep) {
  (void)f;
  if (ep) provider_free((ep_provider *)ep);
}

static OrtEpFactory factory = {
    .ort_version_supported = ORT_EP_API_VERSION, .GetName = factory_name, .GetVendor = factory_vendor,
    .GetSupportedDevices = factory_devices, .CreateEp = factory_create_ep, .ReleaseEp = factory_release_ep,
    .GetVendorId = factory_vendor_id, .GetVersion = factory_version,
    .CreateDataTransfer = factory_no_transfer, .IsStreamAware = factory_stream_aware};

/* The library's entry points, which ORT looks up by name. */
EP_EXPORT OrtStatus *CreateEpFactories(const char *registered_name, const OrtApiBase *base,
                                       const OrtLogger *logger, OrtEpFactory **factories, size_t max,
                                       size_t *count) {
  (void)registered_name, (void)logger;
  *count = 0;
  const ort_fn *api = base->GetApi(ORT_EP_API_VERSION);
  if (!api) {
    /* no table to make a status with: ORT reports that no factory was made; say why */
    fprintf(stderr, "wherec: onnxruntime %s is older than 1.23, the first with plugin execution "
                    "providers (API version %d): this provider cannot run in it\n",
            base->GetVersionString ? base->GetVersionString() : "(unknown)", ORT_EP_API_VERSION);
    return NULL;
  }
  ep_ort = api;
  const char *v = base->GetVersionString ? base->GetVersionString() : NULL;
  int         major = 0, minor = 0;
  if (v && sscanf(v, "%d.%d", &major, &minor) == 2) ep_ort_version = major * 100 + minor;
  ep_ort_ep = ORT(GetEpApi, ort_GetEpApi)();
  if (max < 1) return ep_error("wherec: onnxruntime left no room for a factory");
  factories[0] = &factory;
  *count = 1;
  return NULL;
}

EP_EXPORT OrtStatus *ReleaseEpFactory(OrtEpFactory *f) {
  (void)f;
  return NULL;
}
