/* manifest.c: the import manifest into ep_manifest (manifest.h): every member the provider
   relies on is checked for presence and type, so a damaged file is refused, not half read. */
#include "manifest.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <wherec/wherec.h>

typedef struct parse {
  char  *err;
  size_t err_cap;
  int    kernel;
  void **blocks;  /* every allocation, freed together */
  int    n_blocks, cap_blocks;
  bool   failed;
} parse;

static bool fail(parse *p, const char *what, const char *detail) {
  if (!p->failed && p->kernel < 0) snprintf(p->err, p->err_cap, "%s%s", what, detail); /* the top level */
  else if (!p->failed) snprintf(p->err, p->err_cap, "kernel %d: %s%s", p->kernel, what, detail);
  for (char *c = p->err_cap && !p->failed ? p->err : NULL; c && *c; c++)
    if ((unsigned char)*c < 0x20) *c = '?'; /* detail is the manifest's text: one line */
  p->failed = true;
  return false;
}

static void *alloc(parse *p, size_t n, size_t size) {
  if (p->failed) return NULL;
  if (p->n_blocks == p->cap_blocks) {
    int    cap = p->cap_blocks ? 2 * p->cap_blocks : 16;
    void **b = realloc(p->blocks, (size_t)cap * sizeof *b);
    if (!b) return fail(p, "out of memory", ""), NULL;
    p->blocks = b;
    p->cap_blocks = cap;
  }
  void *q = calloc(n ? n : 1, size);
  if (!q) return fail(p, "out of memory", ""), NULL;
  return p->blocks[p->n_blocks++] = q;
}

static const json *member(parse *p, const json *o, const char *key, json_kind kind) {
  const json *m = json_get(o, key);
  if (!m || m->kind != kind) return fail(p, "missing or mistyped member: ", key), NULL;
  return m;
}

static const char *string(parse *p, const json *o, const char *key) {
  const json *m = member(p, o, key, JSON_STRING);
  return m ? m->string : NULL;
}

static int dtype(parse *p, const json *o) {
  const char *name = string(p, o, "dtype");
  for (int t = 1; name && t <= 16; t++)
    if (wc_dtype_name((wc_dtype)t) && strcmp(wc_dtype_name((wc_dtype)t), name) == 0) return t;
  if (name) fail(p, "unknown dtype: ", name);
  return 0;
}

/* An array of strings into *out (count *n). */
static bool strings(parse *p, const json *o, const char *key, const char ***out, int *n) {
  const json *a = member(p, o, key, JSON_ARRAY);
  if (!a) return false;
  *out = alloc(p, a->count, sizeof **out);
  *n = 0;
  for (const json *e = a->first; e && *out; e = e->next) {
    if (e->kind != JSON_STRING) return fail(p, "not a string in ", key);
    (*out)[(*n)++] = e->string;
  }
  return !p->failed;
}

/* A shape: fixed extents as numbers, symbolic ones as names (-1 here). */
static int shape(parse *p, const json *a, int64_t dims[16]) {
  if (!a || a->kind != JSON_ARRAY || a->count > 16) return fail(p, "bad shape", ""), -1;
  int r = 0;
  for (const json *e = a->first; e; e = e->next, r++) {
    if (e->kind == JSON_NUMBER && e->number >= 0 && e->number < 9.0e18 && e->number == (double)(int64_t)e->number)
      dims[r] = (int64_t)e->number;
    else if (e->kind == JSON_STRING) dims[r] = -1;
    else return fail(p, "bad extent in a shape", ""), -1;
  }
  return r;
}

static bool param(parse *p, const json *o, ep_mparam *q) {
  q->name = string(p, o, "name");
  q->tensor = string(p, o, "tensor");
  q->dtype = dtype(p, o);
  const json *s = json_get(o, "shape");
  if (s && s->kind == JSON_NULL) q->rank = -1; /* an output the model leaves unshaped */
  else q->rank = shape(p, s, q->dims);
  const json *ts = json_get(o, "tensor_shape");
  if (ts && ts->kind == JSON_NULL) {
    q->flat = true;
    if (q->rank != 1) return fail(p, "a flat tensor not declared as a vector: ", q->name);
  } else if (ts) {
    int64_t own[16];
    int     r = shape(p, ts, own);
    q->pad = q->rank - r;
    if (r >= 0 && q->pad < 0) return fail(p, "tensor_shape longer than shape: ", q->name);
  }
  return !p->failed;
}

static bool literal(parse *p, const json *o, ep_mliteral *l) {
  l->tensor = string(p, o, "tensor");
  l->dtype = dtype(p, o);
  const char *bits = string(p, o, "bits");
  if (!bits) return false;
  char *end = NULL;
  errno = 0;
  l->bits = strtoull(bits, &end, 16);
  size_t width = l->dtype ? 8 * wc_dtype_size((wc_dtype)l->dtype) : 64; /* wider than the dtype: */
  if (strncmp(bits, "0x", 2) != 0 || !end || *end || errno == ERANGE ||    /* not its element */
      (width < 64 && l->bits >> width))
    return fail(p, "bad literal bits: ", bits);
  return true;
}

/* Each element of array key of o, through fn, into a new array of n elements. */
#define EACH(p, o, key, type, out, n, fn)                                          \
  do {                                                                            \
    const json *a_ = member(p, o, key, JSON_ARRAY);                               \
    if (!a_) break;                                                               \
    (out) = alloc(p, a_->count, sizeof(type));                                    \
    (n) = 0;                                                                      \
    for (const json *e_ = a_->first; e_ && (out) && !(p)->failed; e_ = e_->next) { \
      if (e_->kind != JSON_OBJECT) { fail(p, "not an object in ", key); break; }  \
      fn(p, e_, &(out)[(n)++]);                                                   \
    }                                                                             \
  } while (0)

static bool node(parse *p, const json *o, ep_mnode *n) {
  n->op_type = string(p, o, "op_type");
  return strings(p, o, "inputs", &n->inputs, &n->n_inputs) &&
         strings(p, o, "outputs", &n->outputs, &n->n_outputs);
}

static bool baked(parse *p, const json *o, ep_mparam *b) {
  b->name = string(p, o, "name");
  b->tensor = string(p, o, "tensor");
  return !p->failed;
}

static bool kernel(parse *p, const json *o, ep_mkernel *k) {
  k->name = string(p, o, "name");
  const json *scope = json_get(o, "scope");
  k->in_subgraph = scope && scope->kind == JSON_OBJECT;
  EACH(p, o, "nodes", ep_mnode, k->nodes, k->n_nodes, node);
  EACH(p, o, "params", ep_mparam, k->params, k->n_params, param);
  EACH(p, o, "literals", ep_mliteral, k->literals, k->n_literals, literal);
  ep_mparam *b = NULL;
  EACH(p, o, "baked", ep_mparam, b, k->n_baked, baked);
  EACH(p, o, "outputs", ep_mparam, k->outputs, k->n_outputs, param);
  if (p->failed) return false;
  if (k->n_nodes < 1 || k->n_outputs < 1) return fail(p, "a kernel without nodes or outputs", "");
  k->baked_tensors = alloc(p, (size_t)k->n_baked, sizeof *k->baked_tensors);
  k->baked_names = alloc(p, (size_t)k->n_baked, sizeof *k->baked_names);
  for (int i = 0; i < k->n_baked && !p->failed; i++) {
    k->baked_tensors[i] = b[i].tensor;
    k->baked_names[i] = b[i].name;
  }
  const json *m = json_get(o, "measured");
  if (m && m->kind == JSON_OBJECT) {
    const json *f = member(p, m, "faster", JSON_BOOL);
    const json *a = member(p, m, "ort_us", JSON_NUMBER), *w = member(p, m, "wherec_us", JSON_NUMBER);
    if (!f || !a || !w) return false;
    k->measured = true;
    k->faster = f->boolean;
    k->ort_us = a->number;
    k->wherec_us = w->number;
  }
  return !p->failed;
}

bool ep_manifest_parse(const char *text, size_t len, ep_manifest *m, char *err, size_t err_cap) {
  *m = (ep_manifest){0};
  char jerr[160];
  m->doc = json_parse(text, len, jerr, sizeof jerr);
  if (!m->doc) {
    snprintf(err, err_cap, "not JSON: %s", jerr);
    return false;
  }
  parse       p = {.err = err, .err_cap = err_cap, .kernel = -1};
  const char *format = json_get_string(m->doc, "format");
  const json *version = json_get(m->doc, "version");
  if (!format || strcmp(format, "wherec-import-manifest") != 0) {
    snprintf(err, err_cap, "not a wherec import manifest");
  } else if (!version || version->kind != JSON_NUMBER ||
             !(version->number == EP_MANIFEST_OLDEST || version->number == EP_MANIFEST_VERSION)) {
    snprintf(err, err_cap, "manifest version %g, this provider reads versions %d and %d (import the "
             "model again with this wherec)", version && version->kind == JSON_NUMBER ? version->number : 0.0,
             EP_MANIFEST_OLDEST, EP_MANIFEST_VERSION);
  } else {
    const json *ks = member(&p, m->doc, "kernels", JSON_ARRAY);
    if (ks) {
      m->kernels = alloc(&p, ks->count, sizeof *m->kernels);
      for (const json *e = ks->first; e && m->kernels && !p.failed; e = e->next) {
        p.kernel = m->n_kernels;
        if (e->kind != JSON_OBJECT) fail(&p, "not an object", "");
        else kernel(&p, e, &m->kernels[m->n_kernels++]);
      }
    }
    if (!p.failed) {
      m->blocks_ = p.blocks;
      m->n_blocks_ = p.n_blocks;
      return true;
    }
  }
  for (int i = 0; i < p.n_blocks; i++) free(p.blocks[i]);
  free(p.blocks);
  json_free(m->doc);
  *m = (ep_manifest){0};
  return false;
}

void ep_manifest_free(ep_manifest *m) {
  for (int i = 0; i < m->n_blocks_; i++) free(m->blocks_[i]);
  free(m->blocks_);
  json_free(m->doc);
  *m = (ep_manifest){0};
}
