/* match.c: structural matching of a manifest's region in a graph (match.h): a walk from
   the root back along the region's own edges, binding its boundary tensors on the way. */
#include "match.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <wherec/wherec.h>

typedef struct walk {
  const ep_graph   *g;
  const ep_mkernel *k;
  const ep_const   *baked;
  const bool       *taken;
  int              *rmap;     /* graph node per region node, -1 not yet */
  int              *bound;    /* graph value per boundary tensor (params, literals, baked) */
  char             *why;
  size_t            why_cap;
  bool              types;        /* ep_find_kernel: a place must also pass ep_match_types */
  char              refused[256]; /* the first place whose types differ, else "" */
} walk;

static bool refuse(walk *w, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(w->why, w->why_cap, fmt, ap);
  va_end(ap);
  return false;
}

/* The region node computing tensor name and the output's position, or -1. */
static int region_producer(const ep_mkernel *k, const char *name, int *slot) {
  for (int r = 0; r < k->n_nodes; r++)
    for (int o = 0; o < k->nodes[r].n_outputs; o++)
      if (strcmp(k->nodes[r].outputs[o], name) == 0) return *slot = o, r;
  return -1;
}

/* Boundary tensors are numbered params, then literals, then baked constants. */
static int boundary(const ep_mkernel *k, const char *name) {
  for (int i = 0; i < k->n_params; i++)
    if (strcmp(k->params[i].tensor, name) == 0) return i;
  for (int i = 0; i < k->n_literals; i++)
    if (strcmp(k->literals[i].tensor, name) == 0) return k->n_params + i;
  for (int i = 0; i < k->n_baked; i++)
    if (strcmp(k->baked_tensors[i], name) == 0) return k->n_params + k->n_literals + i;
  return -1;
}

static int live_inputs(const char *const *names, int n) {
  while (n > 0 && !*names[n - 1]) n--;
  return n;
}

static int live_values(const int *values, int n) {
  while (n > 0 && values[n - 1] < 0) n--;
  return n;
}

/* Does graph value gv hold what boundary tensor b of the region holds? */
static bool bind(walk *w, int b, const char *name, int gv) {
  const ep_mkernel *k = w->k;
  const ep_value   *v = &w->g->values[gv];
  if (w->bound[b] == gv) return true;
  /* a parameter is one tensor the fused node reads; a constant only needs its bytes, so
     two copies of it (which onnxruntime's basic rewrites would have merged) both do */
  if (w->bound[b] >= 0 && b < k->n_params) return refuse(w, "'%s' is read as two different values", name);
  if (b >= k->n_params && b < k->n_params + k->n_literals) {
    const ep_mliteral *l = &k->literals[b - k->n_params];
    size_t             size = wc_dtype_size((wc_dtype)l->dtype);
    uint8_t            bytes[8];
    if (!v->data || v->bytes != size || size > 8)
      return refuse(w, "the constant '%s' (as '%s') is not a one-element constant here", name, v->name);
    for (size_t i = 0; i < size; i++) bytes[i] = (uint8_t)(l->bits >> (8 * i));
    if (memcmp(bytes, v->data, size) != 0)
      return refuse(w, "the constant '%s' (as '%s') has another value here", name, v->name);
  } else if (b >= k->n_params + k->n_literals && w->baked) {
    const ep_const *c = &w->baked[b - k->n_params - k->n_literals];
    if (!v->data || v->bytes != c->bytes || memcmp(v->data, c->data, c->bytes) != 0)
      return refuse(w, "the constant '%s' (as '%s') differs here", name, v->name);
  }
  w->bound[b] = gv;
  return true;
}

static bool match_node(walk *w, int r, int gn) {
  const ep_mkernel *k = w->k;
  const ep_mnode   *rn = &k->nodes[r];
  const ep_node    *n = &w->g->nodes[gn];
  if (w->rmap[r] >= 0) return w->rmap[r] == gn || refuse(w, "%s is reached two ways", rn->op_type);
  for (int q = 0; q < k->n_nodes; q++)
    if (w->rmap[q] == gn) return refuse(w, "two of its nodes fall on one node here");
  if (w->taken[gn]) return refuse(w, "its %s node is claimed by another kernel", rn->op_type);
  if (strcmp(rn->op_type, n->op_type) != 0)
    return refuse(w, "a %s node stands where the region has a %s", n->op_type, rn->op_type);
  int ni = live_inputs(rn->inputs, rn->n_inputs);
  if (ni != live_values(n->inputs, n->n_inputs))
    return refuse(w, "%s has %d inputs here, %d in the region", n->op_type,
                  live_values(n->inputs, n->n_inputs), ni);
  w->rmap[r] = gn;
  for (int i = 0; i < ni; i++) {
    const char *name = rn->inputs[i];
    int         gv = n->inputs[i], slot = 0;
    if (!*name || gv < 0) {
      if (*name || gv >= 0) return refuse(w, "%s's input %d is omitted on one side", rn->op_type, i);
      continue;
    }
    int rp = region_producer(k, name, &slot);
    if (rp >= 0) {
      int gp = w->g->values[gv].producer;
      if (gp < 0 || w->g->nodes[gp].n_outputs <= slot || w->g->nodes[gp].outputs[slot] != gv)
        return refuse(w, "'%s' (as '%s') is not computed by a %s here", name, w->g->values[gv].name,
                      k->nodes[rp].op_type);
      if (!match_node(w, rp, gp)) return false;
      continue;
    }
    int b = boundary(k, name);
    if (b < 0) return refuse(w, "the manifest does not say where '%s' comes from", name);
    if (!bind(w, b, name, gv)) return false;
  }
  return true;
}

/* Values computed inside that are read outside, and paths that leave and come back. */
static bool closed(walk *w, const int *outputs) {
  const ep_graph   *g = w->g;
  const ep_mkernel *k = w->k;
  for (int r = 0; r < k->n_nodes; r++) {
    const ep_node *n = &g->nodes[w->rmap[r]];
    for (int o = 0; o < n->n_outputs; o++) {
      int gv = n->outputs[o], inside = 0, is_out = 0;
      if (gv < 0) continue;
      for (int q = 0; q < k->n_outputs; q++) is_out |= outputs[q] == gv;
      if (is_out) continue;
      for (int q = 0; q < k->n_nodes; q++) {
        const ep_node *c = &g->nodes[w->rmap[q]];
        for (int i = 0; i < c->n_inputs; i++) inside += c->inputs[i] == gv;
      }
      if (g->values[gv].graph_output || g->values[gv].n_consumers > inside)
        return refuse(w, "'%s', computed inside, is read outside it", g->values[gv].name);
    }
  }
  if (k->n_outputs < 2) return true; /* one sink: nothing outside can lead back in */
  /* nodes outside reachable from the outputs; none of them may feed a node inside */
  bool *out_reach = calloc((size_t)g->n_values + 1, 1), *inside = calloc((size_t)g->n_nodes + 1, 1);
  bool  ok = out_reach && inside;
  if (!ok) refuse(w, "out of memory");
  for (int r = 0; ok && r < k->n_nodes; r++) inside[w->rmap[r]] = true;
  for (int q = 0; ok && q < k->n_outputs; q++) out_reach[outputs[q]] = true;
  for (bool grew = ok; grew;) {
    grew = false;
    for (int gn = 0; gn < g->n_nodes; gn++) {
      const ep_node *n = &g->nodes[gn];
      bool           reached = false;
      for (int i = 0; i < n->n_inputs; i++) reached |= n->inputs[i] >= 0 && out_reach[n->inputs[i]];
      if (!reached) continue;
      if (inside[gn]) {
        for (int i = 0; i < n->n_inputs; i++)
          if (n->inputs[i] >= 0 && out_reach[n->inputs[i]] && g->values[n->inputs[i]].producer >= 0 &&
              !inside[g->values[n->inputs[i]].producer])
            ok = refuse(w, "a node outside lies between two of its nodes");
        continue;
      }
      for (int o = 0; o < n->n_outputs; o++)
        if (n->outputs[o] >= 0 && !out_reach[n->outputs[o]]) out_reach[n->outputs[o]] = grew = true;
    }
  }
  free(out_reach);
  free(inside);
  return ok;
}

/* The graph node reading value gv as input i with rn's type, from node `from` on; -1. */
static int reader(const ep_graph *g, int gv, int i, const char *op_type, int from) {
  for (int gn = from; gn < g->n_nodes; gn++)
    if (g->nodes[gn].n_inputs > i && g->nodes[gn].inputs[i] == gv && strcmp(g->nodes[gn].op_type, op_type) == 0)
      return gn;
  return -1;
}

/* Region nodes the root's inputs do not lead to: a second sink (y1 = f(s) beside y2 = g(s))
   and what only it reads. Each is looked for among the graph nodes reading, at the same
   input, a value a matched node computes; a reader that does not fit is undone and the
   next one tried. */
static bool match_other_sinks(walk *w) {
  const ep_mkernel *k = w->k;
  int               n_bound = k->n_params + k->n_literals + k->n_baked;
  int              *save = malloc(((size_t)k->n_nodes + (size_t)n_bound + 1) * sizeof(int));
  if (!save) return refuse(w, "out of memory");
  for (bool grew = true; grew;) {
    grew = false;
    for (int r = 0; r < k->n_nodes && !grew; r++) {
      const ep_mnode *rn = &k->nodes[r];
      for (int i = 0; w->rmap[r] < 0 && i < rn->n_inputs && !grew; i++) {
        int slot = 0, rp = *rn->inputs[i] ? region_producer(k, rn->inputs[i], &slot) : -1;
        if (rp < 0 || w->rmap[rp] < 0) continue;
        const ep_node *pn = &w->g->nodes[w->rmap[rp]];
        if (slot >= pn->n_outputs || pn->outputs[slot] < 0) continue;
        for (int gn = reader(w->g, pn->outputs[slot], i, rn->op_type, 0); gn >= 0 && !grew;
             gn = reader(w->g, pn->outputs[slot], i, rn->op_type, gn + 1)) {
          memcpy(save, w->rmap, (size_t)k->n_nodes * sizeof(int));
          memcpy(save + k->n_nodes, w->bound, (size_t)n_bound * sizeof(int));
          grew = match_node(w, r, gn);
          if (!grew) {
            memcpy(w->rmap, save, (size_t)k->n_nodes * sizeof(int));
            memcpy(w->bound, save + k->n_nodes, (size_t)n_bound * sizeof(int));
          }
        }
      }
    }
  }
  free(save);
  return true; /* try_root says which node stayed unreached */
}

static bool try_root(walk *w, int gn, ep_match *m) {
  const ep_mkernel *k = w->k;
  int               n_bound = k->n_params + k->n_literals + k->n_baked;
  for (int r = 0; r < k->n_nodes; r++) w->rmap[r] = -1;
  for (int b = 0; b < n_bound; b++) w->bound[b] = -1;
  if (!match_node(w, 0, gn) || !match_other_sinks(w)) return false;
  for (int r = 0; r < k->n_nodes; r++)
    if (w->rmap[r] < 0) return refuse(w, "its %s node is not reached from the root", k->nodes[r].op_type);
  for (int p = 0; p < k->n_params; p++) {
    if (w->bound[p] < 0) return refuse(w, "its parameter '%s' is read by none of its nodes", k->params[p].name);
    /* a parameter comes from outside: the fused node could not take its own value as input */
    const ep_value *v = &w->g->values[w->bound[p]];
    for (int r = 0; v->producer >= 0 && r < k->n_nodes; r++)
      if (w->rmap[r] == v->producer)
        return refuse(w, "its parameter '%s' is computed inside it here (as '%s')", k->params[p].name, v->name);
  }
  for (int o = 0; o < k->n_outputs; o++) {
    int slot = 0, rp = region_producer(k, k->outputs[o].tensor, &slot);
    if (rp < 0) return refuse(w, "no node of it computes its output '%s'", k->outputs[o].tensor);
    const ep_node *n = &w->g->nodes[w->rmap[rp]];
    if (slot >= n->n_outputs || n->outputs[slot] < 0) return refuse(w, "its output is not computed here");
    m->outputs[o] = n->outputs[slot];
  }
  if (!closed(w, m->outputs)) return false;
  memcpy(m->nodes, w->rmap, (size_t)k->n_nodes * sizeof *w->rmap);
  memcpy(m->params, w->bound, (size_t)k->n_params * sizeof *w->bound);
  if (w->types && !ep_match_types(w->g, k, m, w->why, w->why_cap)) {
    if (!*w->refused) snprintf(w->refused, sizeof w->refused, "%s", w->why);
    return false; /* the search goes on: a twin of the region may sit elsewhere */
  }
  return true;
}

void ep_match_free(ep_match *m) {
  free(m->nodes);
  free(m->params);
  free(m->outputs);
  *m = (ep_match){0};
}

/* The search of ep_match_kernel and ep_find_kernel. */
static ep_found find(const ep_graph *g, const ep_mkernel *k, const ep_const *baked, bool *taken,
                     ep_match *m, char *why, size_t why_cap, bool types) {
  int  n_bound = k->n_params + k->n_literals + k->n_baked;
  walk w = {.g = g, .k = k, .baked = baked, .taken = taken, .why = why, .why_cap = why_cap,
            .types = types,
            .rmap = malloc(((size_t)k->n_nodes + 1) * sizeof(int)),
            .bound = malloc(((size_t)n_bound + 1) * sizeof(int))};
  *m = (ep_match){.nodes = malloc(((size_t)k->n_nodes + 1) * sizeof(int)),
                  .params = malloc(((size_t)k->n_params + 1) * sizeof(int)),
                  .outputs = malloc(((size_t)k->n_outputs + 1) * sizeof(int))};
  bool found = false;
  if (!w.rmap || !w.bound || !m->nodes || !m->params || !m->outputs) {
    refuse(&w, "out of memory");
  } else {
    /* by name first: the node computing the root's tensor (the output's, in a region of one) */
    const char *root_out = k->nodes[0].n_outputs > 0 ? k->nodes[0].outputs[0] : k->outputs[0].tensor;
    int         gv = ep_graph_find(g, root_out), named = -1;
    if (gv >= 0 && g->values[gv].producer >= 0) {
      named = g->values[gv].producer;
      found = try_root(&w, named, m);
    }
    /* then by structure: every node of the root's type */
    char first[256];
    snprintf(first, sizeof first, "%s", named >= 0 ? why : "");
    for (int gn = 0; !found && gn < g->n_nodes; gn++)
      if (gn != named && strcmp(g->nodes[gn].op_type, k->nodes[0].op_type) == 0)
        found = try_root(&w, gn, m);
    if (!found && *w.refused) snprintf(why, why_cap, "%s", w.refused);
    else if (!found && named >= 0) snprintf(why, why_cap, "%s", first);
    else if (!found && !*first)
      snprintf(why, why_cap, "no %s node computes '%s', and no %s node here starts the same nodes",
               k->nodes[0].op_type, root_out, k->nodes[0].op_type);
  }
  free(w.rmap);
  free(w.bound);
  if (!found) {
    ep_match_free(m);
    return *w.refused ? EP_REFUSED : EP_NOT_FOUND;
  }
  for (int r = 0; r < k->n_nodes; r++) taken[m->nodes[r]] = true;
  return EP_FOUND;
}

bool ep_match_kernel(const ep_graph *g, const ep_mkernel *k, const ep_const *baked, bool *taken,
                     ep_match *m, char *why, size_t why_cap) {
  return find(g, k, baked, taken, m, why, why_cap, false) == EP_FOUND;
}

ep_found ep_find_kernel(const ep_graph *g, const ep_mkernel *k, const ep_const *baked, bool *taken,
                        ep_match *m, char *why, size_t why_cap) {
  return find(g, k, baked, taken, m, why, why_cap, true);
}

static void shape_text(char *buf, size_t cap, int dtype, int rank, const int64_t *dims) {
  int n = snprintf(buf, cap, "%s[", wc_dtype_name((wc_dtype)dtype) ? wc_dtype_name((wc_dtype)dtype) : "?");
  for (int d = 0; d < rank && n > 0 && (size_t)n < cap; d++)
    n += dims[d] >= 0 ? snprintf(buf + n, cap - (size_t)n, "%s%lld", d ? "," : "", (long long)dims[d])
                      : snprintf(buf + n, cap - (size_t)n, "%s?", d ? "," : "");
  if (n > 0 && (size_t)n < cap) snprintf(buf + n, cap - (size_t)n, "]");
}

/* One tensor: the kernel's declaration (rank - pad of its dims: the tensor's own) against
   what ORT knows. */
static bool same_type(const ep_value *v, const ep_mparam *p, const char *what, char *why, size_t cap) {
  char ort[160], ker[160];
  bool differ = v->dtype && v->dtype != p->dtype;
  int  rank = p->rank - p->pad;
  if (p->rank >= 0 && v->rank >= 0 && !p->flat) { /* a flat tensor may have any shape */
    differ |= v->rank != rank;
    for (int d = 0; !differ && d < rank; d++)
      differ |= p->dims[d] >= 0 && v->dims[d] >= 0 && p->dims[d] != v->dims[d];
  }
  if (!differ) return true;
  shape_text(ort, sizeof ort, v->dtype, v->rank, v->dims);
  shape_text(ker, sizeof ker, p->dtype, rank, p->dims);
  snprintf(why, cap, "%s '%s': onnxruntime has %s, the kernel %s", what, p->name, ort, ker);
  return false;
}

bool ep_match_types(const ep_graph *g, const ep_mkernel *k, const ep_match *m, char *why, size_t cap) {
  for (int p = 0; p < k->n_params; p++)
    if (!same_type(&g->values[m->params[p]], &k->params[p], "parameter", why, cap)) return false;
  for (int o = 0; o < k->n_outputs; o++)
    if (!same_type(&g->values[m->outputs[o]], &k->outputs[o], "output", why, cap)) return false;
  return true;
}
