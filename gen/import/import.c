/* import.c: `wherec import`: reads the model (graph.c), lets fusion.c choose the regions,
   writes each as a kernel (spec_write.c) and keeps those the front end accepts. */
#define _POSIX_C_SOURCE 200809L

#include "import/import.h"

#include <setjmp.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "base/file.h"
#include "front/parse.h"
#include "front/sema.h"
#include "import/fusion.h"
#include "import/graph.h"
#include "import/manifest.h"
#include "import/onnx.h"
#include "import/spec_write.h"
#include "import/verify.h"

/* A sub-graph imported on its own (an If branch, a Loop or Scan body): its graph, read
   inside the graph around it, and its regions. */
typedef struct body {
  import_graph   gr;
  fusion         f;
  manifest_scope scope; /* where it sits; scope.title: `sub-graph 'then_branch' of If 'x'` */
} body;

/* One import: everything but the model lives in the arena; out of memory jumps to oom. */
typedef struct imp {
  arena              a;
  jmp_buf            oom;
  FILE              *log;
  onnx_model        *m; /* NULL until read */
  import_graph       gr;
  fusion             f;
  body             **bodies; /* in the order met, depth first */
  int                n_bodies, cap_bodies;
  const char       **names; /* kernel names taken so far, all graphs */
  int                n_kernels, cap_names;
  int64_t            bake_limit; /* initializers up to this many bytes become constants */
  const char *const *dims;       /* --dim NAME=N */
  int                n_dims;
  bool               literal_activations; /* --literal-activations */
  int                const_seq; /* constants named so far, all graphs (their names' numbers) */
} imp;

/* Runs the front end on one kernel statement: why it is refused (its first error), or
   NULL. Sema refuses parameters that do not broadcast with the kernel's output
   (instantiate() in front/sema.c), so a kernel it accepts has an output shape. */
static const char *check_kernel(imp *im, const char *text, size_t len) {
  diag_ctx    d;
  const char *why = NULL;
  diag_init(&d, "import", text, len, NULL);
  ast_file     *af = parse_source(text, len, &d);
  sema_program *sp = af ? sema_check(af, &d) : NULL;
  if (d.n_errors > 0) {
    const diag_entry *e = diag_first_error(&d);
    const char       *msg = e && e->message ? e->message : "";
    why = graph_fmt(&im->gr, "the generator rejects it: %.*s", (int)strcspn(msg, "\n"), msg);
  }
  if (sp) sema_free(sp);
  if (af) ast_file_free(af);
  diag_free(&d);
  return why;
}

/* Writes region r as a kernel named apart from kernel_names[0, n_kernels) and checks it:
   the region's text and manifest entry (scope: the sub-graph's, NULL for the model's
   graph), or its reason. */
static void take_region(imp *im, spec_writer *w, fusion *f, int r, const char *const *kernel_names,
                        int n_kernels, const manifest_scope *scope) {
  fusion_region *rg = &f->regions[r];
  diag_text      stmt = {0};
  rg->reason = spec_write_kernel(w, r, kernel_names, n_kernels, &rg->name, &stmt);
  if (!rg->reason) rg->reason = check_kernel(im, stmt.data, stmt.len);
  if (!rg->reason) {
    spec_write_comment(w, r, &rg->text);
    diag_text_printf(&rg->text, "%s", stmt.data);
    manifest_kernel(w, r, scope, &rg->manifest);
  }
  diag_text_free(&stmt);
}

/* Writes and checks every region of f (graph order), recording the names taken. */
static void take_regions(imp *im, const import_graph *gr, fusion *f, const manifest_scope *scope) {
  spec_writer w;
  spec_write_init(&w, gr, f);
  w.bake_limit = im->bake_limit;
  w.const_seq = &im->const_seq;
  for (int r = f->n_regions - 1; r >= 0; r--) { /* numbered from the outputs back */
    if (im->n_kernels + 1 >= im->cap_names) {
      int          cap = im->cap_names * 2 + 16;
      const char **nn = graph_alloc(gr, (size_t)cap, sizeof *nn);
      if (im->n_kernels) memcpy(nn, im->names, sizeof *nn * (size_t)im->n_kernels);
      im->names = nn;
      im->cap_names = cap;
    }
    take_region(im, &w, f, r, im->names, im->n_kernels, scope);
    if (!f->regions[r].reason) im->names[im->n_kernels++] = f->regions[r].name;
  }
}

/* A sub-graph input the body leaves untyped gets the type the node gives it (Loop: the
   iteration count, the condition and the loop-carried values; Scan: its states, and its
   scan inputs less the scanned axis). A copy of g with those inputs, in the arena. */
static const onnx_graph *typed_body(const import_graph *outer, int node, const onnx_graph *g) {
  const graph_node *gn = &outer->nodes[node];
  const onnx_node  *n = gn->n;
  bool              loop = strcmp(n->op_type, "Loop") == 0, scan = strcmp(n->op_type, "Scan") == 0;
  if ((!loop && !scan) || (scan && outer->opset > 0 && outer->opset < 9))
    return g; /* Scan-8's first input is sequence_lens: its inputs do not line up */
  onnx_graph      *c = graph_alloc(outer, 1, sizeof *c);
  onnx_value_info *in = graph_alloc(outer, (size_t)g->n_inputs, sizeof *in);
  *c = *g;
  if (g->n_inputs) memcpy(in, g->inputs, sizeof *in * (size_t)g->n_inputs);
  c->inputs = in;
  int n_state = n->n_inputs;
  if (scan) {
    const onnx_attr *a = graph_attr(n, "num_scan_inputs");
    n_state = a && a->has_i && a->i >= 0 && a->i <= n->n_inputs ? n->n_inputs - (int)a->i : -1;
    if (n_state < 0) return c;
  }
  for (int k = 0; k < g->n_inputs; k++) {
    onnx_value_info *vi = &in[k];
    if (vi->is_tensor && vi->elem_type && vi->has_shape) continue;
    int                src = k; /* Loop's inputs: M, cond, states; Scan's: states, scans */
    const graph_value *v = src < n->n_inputs && gn->in[src] >= 0 ? &outer->vals[gn->in[src]] : NULL;
    bool               drop = scan && k >= n_state; /* a scan input: one slice of it */
    if (loop && k == 0) {
      vi->has_type = vi->is_tensor = true;
      vi->elem_type = WC_INT64;
      vi->has_shape = true;
      vi->rank = 0;
      continue;
    }
    if (loop && k == 1) {
      vi->has_type = vi->is_tensor = true;
      vi->elem_type = WC_BOOL;
      vi->has_shape = true;
      vi->rank = 0;
      continue;
    }
    if (!v || !v->dtype) continue;
    vi->has_type = vi->is_tensor = true;
    if (!vi->elem_type) vi->elem_type = (int32_t)v->dtype;
    if (vi->has_shape || !v->shaped || (drop && v->shape.rank < 1)) continue;
    vi->has_shape = true;
    vi->rank = v->shape.rank - (drop ? 1 : 0);
    vi->dims = graph_alloc(outer, (size_t)vi->rank, sizeof *vi->dims);
    for (int d = 0; d < vi->rank; d++) {
      int64_t e = v->shape.dims[d + (drop ? 1 : 0)];
      vi->dims[d].value = e >= 0 ? e : -1;
      vi->dims[d].param = e >= 0 ? NULL : outer->syms[-e - 1];
    }
  }
  return c;
}

/* s with its control characters as '?' (in the arena): for a comment line of the spec. */
static const char *one_line(const import_graph *gr, const char *s) {
  char *t = arena_strdup(gr->a, s);
  for (char *p = t; *p; p++)
    if ((unsigned char)*p < 0x20 || *p == 0x7f) *p = '?';
  return t;
}

/* Imports the sub-graphs of the nodes of gr (and theirs, depth first; up: gr's own
   scope, NULL for the model's graph): false when one is malformed (after printing why). */
static bool take_bodies(imp *im, const import_graph *gr, const manifest_scope *up) {
  for (int i = 0; i < gr->g->n_nodes; i++) {
    const onnx_node *n = gr->nodes[i].n;
    for (int a = 0; a < n->n_attrs; a++) {
      const onnx_attr *at = &n->attrs[a];
      int              count = at->has_g ? 1 : at->n_graphs;
      for (int k = 0; k < count; k++) {
        const onnx_graph *g = at->has_g ? at->g : &at->graphs[k];
        if (im->n_bodies == im->cap_bodies) {
          int    cap = im->cap_bodies * 2 + 4;
          body **nb = graph_alloc(gr, (size_t)cap, sizeof *nb);
          if (im->n_bodies) memcpy(nb, im->bodies, sizeof *nb * (size_t)im->n_bodies);
          im->bodies = nb;
          im->cap_bodies = cap;
        }
        body *b = graph_alloc(gr, 1, sizeof *b);
        b->scope = (manifest_scope){up, NULL, i, n->op_type, n->name, at->name, k};
        b->scope.title = one_line(
            gr, graph_fmt(gr, "sub-graph '%s' of %s", at->name, graph_node_label(gr, i)));
        im->bodies[im->n_bodies++] = b;
        if (!graph_build_body(&b->gr, &im->a, im->log, im->m, typed_body(gr, i, g), gr))
          return false;
        fusion_form(&b->f, &b->gr);
        take_regions(im, &b->gr, &b->f, &b->scope);
        if (!take_bodies(im, &b->gr, &b->scope)) return false;
      }
    }
  }
  return true;
}

static void free_bodies(imp *im) {
  for (int k = 0; k < im->n_bodies; k++) fusion_free(&im->bodies[k]->f);
  im->n_bodies = 0;
}

static int run_import(imp *im, const uint8_t *buf, size_t len, const char *model_name,
                      const char *spec_name, char **spec, char **manifest) {
  char err[512];
  im->m = onnx_read_model(buf, len, err, sizeof err);
  if (im->m == NULL) {
    fprintf(im->log, "wherec: error: %s: %s\n", model_name, err);
    return GEN_EXIT_BAD_INPUT;
  }
  int rc = GEN_EXIT_BAD_INPUT;
  if (!graph_build_dims(&im->gr, &im->a, im->log, im->m, im->dims, im->n_dims)) goto done;
  im->gr.literal_activations = im->literal_activations;
  fusion_form(&im->f, &im->gr);
  take_regions(im, &im->gr, &im->f, NULL);
  if (!take_bodies(im, &im->gr, NULL)) goto done;
  fusion_report(&im->f, &im->gr, im->log);
  for (int k = 0; k < im->n_bodies; k++) { /* headed by the sub-graph, when it lists any */
    char  *text = NULL;
    size_t n = 0;
    FILE  *mem = open_memstream(&text, &n);
    if (mem == NULL) {
      fprintf(im->log, "wherec: in %s:\n", im->bodies[k]->scope.title);
      fusion_report(&im->bodies[k]->f, &im->bodies[k]->gr, im->log);
      continue;
    }
    fusion_report(&im->bodies[k]->f, &im->bodies[k]->gr, mem);
    fclose(mem);
    if (text && n) fprintf(im->log, "wherec: in %s:\n%s", im->bodies[k]->scope.title, text);
    free(text);
  }
  if (im->n_kernels == 0) {
    fprintf(im->log, "wherec: error: %s: no element-wise region could be imported\n", model_name);
    goto done;
  }
  diag_text   out = {0}, man = {0};
  const char *sep = ""; /* between the manifest's kernel entries */
  spec_write_header(&im->gr, model_name, &out);
  manifest_open(&im->gr, model_name, spec_name, &man);
  for (int r = im->f.n_regions - 1; r >= 0; r--) {
    const fusion_region *rg = &im->f.regions[r];
    if (rg->reason) continue;
    diag_text_printf(&out, "\n%s", rg->text.data);
    diag_text_printf(&man, "%s%s", sep, rg->manifest.data);
    sep = ",\n";
    fusion_report_kernel(&im->f, &im->gr, r, im->log);
  }
  for (int k = 0; k < im->n_bodies; k++) {
    const body *b = im->bodies[k];
    bool        first = true;
    for (int r = b->f.n_regions - 1; r >= 0; r--) {
      const fusion_region *rg = &b->f.regions[r];
      if (rg->reason) continue;
      if (first)
        diag_text_printf(&out, "\n# In %s (its outer values are parameters).\n", b->scope.title);
      first = false;
      diag_text_printf(&out, "\n%s", rg->text.data);
      diag_text_printf(&man, "%s%s", sep, rg->manifest.data);
      sep = ",\n";
      fusion_report_kernel(&b->f, &b->gr, r, im->log);
    }
  }
  manifest_close(&man);
  if (out.truncated || man.truncated) {
    diag_text_free(&out);
    diag_text_free(&man);
    longjmp(im->oom, 1);
  }
  *spec = out.data;
  if (manifest) *manifest = man.data;
  else diag_text_free(&man);
  rc = GEN_EXIT_OK;
done:
  fusion_free(&im->f);
  free_bodies(im);
  onnx_model_free(im->m);
  im->m = NULL;
  return rc;
}

int import_model_manifest(const uint8_t *buf, size_t len, const char *model_name,
                          const char *spec_name, FILE *log, char **spec, char **manifest) {
  return import_model_baked(buf, len, model_name, spec_name, log, spec, manifest,
                            IMPORT_BAKE_LIMIT);
}

int import_model_baked(const uint8_t *buf, size_t len, const char *model_name,
                       const char *spec_name, FILE *log, char **spec, char **manifest,
                       int64_t bake_limit) {
  import_options o = {.bake_limit = bake_limit};
  return import_model_options(buf, len, model_name, spec_name, log, spec, manifest, &o);
}

int import_model_options(const uint8_t *buf, size_t len, const char *model_name,
                         const char *spec_name, FILE *log, char **spec, char **manifest,
                         const import_options *o) {
  imp *im = calloc(1, sizeof *im);
  int  rc;
  *spec = NULL;
  if (manifest) *manifest = NULL;
  if (im == NULL) {
    fprintf(log, "wherec: error: out of memory\n");
    return GEN_EXIT_BAD_INPUT;
  }
  arena_init(&im->a);
  im->a.oom = &im->oom;
  im->log = log;
  im->bake_limit = o->bake_limit;
  im->dims = o->dims;
  im->n_dims = o->n_dims;
  im->literal_activations = o->literal_activations;
  if (setjmp(im->oom) == 0) {
    rc = run_import(im, buf, len, model_name, spec_name, spec, manifest);
  } else {
    fusion_free(&im->f);
    free_bodies(im);
    onnx_model_free(im->m);
    fprintf(log, "wherec: error: out of memory\n");
    rc = GEN_EXIT_BAD_INPUT;
  }
  arena_free(&im->a);
  free(im);
  return rc;
}

int import_model(const uint8_t *buf, size_t len, const char *model_name, FILE *log, char **spec) {
  return import_model_manifest(buf, len, model_name, "", log, spec, NULL);
}

/* ---- the inferred shapes ------------------------------------------------------------ */

/* s as a JSON string on out: manifest_string's escaping, so that a name of any bytes (an
   ONNX name need not be UTF-8) gives valid JSON. */
static void json_name(FILE *out, const char *s) {
  diag_text t = {0};
  manifest_string(&t, s);
  if (t.data) fputs(t.data, out);
  diag_text_free(&t);
}

/* Extent e as --shapes spells it: a number, a dim_param's name, or the expression a
   computed extent stands for ("(height - 1) / 2 + 1"); false for one inference made up. */
static bool dim_text(const import_graph *gr, int64_t e, int depth, diag_text *t) {
  e = graph_dim(gr, e);
  if (e >= 0) {
    diag_text_printf(t, "%lld", (long long)e);
    return true;
  }
  int s = (int)(-e - 1);
  if (gr->sym_named[s]) {
    diag_text_printf(t, "%s", gr->syms[s]);
    return true;
  }
  if (!gr->sym_op[s] || depth > 8) return false;
  if (depth) diag_text_printf(t, "(");
  bool ok = dim_text(gr, gr->sym_a[s], depth + 1, t);
  diag_text_printf(t, " %c ", gr->sym_op[s]);
  ok = ok && dim_text(gr, gr->sym_b[s], depth + 1, t);
  if (depth) diag_text_printf(t, ")");
  return ok;
}

int import_shapes(const uint8_t *buf, size_t len, const import_options *o, FILE *out, FILE *log) {
  char         err[512];
  arena        a;
  jmp_buf      oom;
  import_graph gr;
  onnx_model  *m = onnx_read_model(buf, len, err, sizeof err);
  if (m == NULL) {
    fprintf(log, "wherec: error: %s\n", err);
    return GEN_EXIT_BAD_INPUT;
  }
  arena_init(&a);
  a.oom = &oom;
  int rc = GEN_EXIT_OK;
  if (setjmp(oom) != 0) {
    fprintf(log, "wherec: error: out of memory\n");
    rc = GEN_EXIT_BAD_INPUT;
  } else if (!graph_build_dims(&gr, &a, log, m, o ? o->dims : NULL, o ? o->n_dims : 0)) {
    rc = GEN_EXIT_BAD_INPUT;
  } else {
    fprintf(out, "{\"opset\": %lld, \"values\": [", (long long)gr.opset);
    for (int v = 0; v < gr.n_vals; v++) {
      const graph_value *x = &gr.vals[v];
      fprintf(out, "%s\n  {\"name\": ", v ? "," : "");
      json_name(out, x->name);
      fprintf(out, ", \"dtype\": ");
      if (x->dtype) fprintf(out, "\"%s\"", wc_dtype_name(x->dtype));
      else fprintf(out, "null");
      fprintf(out, ", \"constant\": %s, \"shape\": ", x->constant ? "true" : "false");
      if (!x->shaped) {
        fprintf(out, "null}");
        continue;
      }
      fputc('[', out);
      for (int d = 0; d < x->shape.rank; d++) { /* a named extent by its name, a computed one
                                                    as its expression; a made-up one null */
        int64_t   e = graph_dim(&gr, x->shape.dims[d]);
        diag_text t = {0};
        if (d) fprintf(out, ", ");
        if (e >= 0) fprintf(out, "%lld", (long long)e);
        else if (dim_text(&gr, e, 0, &t) && t.data && !t.truncated) json_name(out, t.data);
        else fprintf(out, "null");
        diag_text_free(&t);
      }
      fprintf(out, "]}");
    }
    fprintf(out, "\n]}\n");
  }
  arena_free(&a);
  onnx_model_free(m);
  return rc;
}

/* ---- the command ------------------------------------------------------------------- */

int import_command(const char *model, const char *out, const import_options *o) {
  char        err[512], *spec = NULL, *manifest = NULL, *default_path = NULL;
  const char *manifest_path = o ? o->manifest : NULL;
  size_t      len;
  uint8_t    *buf = onnx_slurp(model, &len, err, sizeof err);
  if (buf == NULL) {
    fprintf(stderr, "wherec: error: %s: %s\n", model, err);
    return GEN_EXIT_BAD_INPUT;
  }
  import_options defaults = {.bake_limit = IMPORT_BAKE_LIMIT};
  int rc = import_model_options(buf, len, model, out, stderr, &spec, &manifest, o ? o : &defaults);
  free(buf);
  if (rc == GEN_EXIT_OK && manifest_path == NULL) {
    size_t n = strlen(out);
    default_path = malloc(n + sizeof ".json");
    if (default_path == NULL) {
      fprintf(stderr, "wherec: error: out of memory\n");
      rc = GEN_EXIT_TOOLCHAIN;
    } else {
      memcpy(default_path, out, n);
      memcpy(default_path + n, ".json", sizeof ".json");
      manifest_path = default_path;
    }
  }
  if (rc == GEN_EXIT_OK) {
    if (file_write(out, spec, strlen(spec), stderr)) fprintf(stderr, "wherec: wrote %s\n", out);
    else rc = GEN_EXIT_TOOLCHAIN;
  }
  if (rc == GEN_EXIT_OK) {
    if (file_write(manifest_path, manifest, strlen(manifest), stderr))
      fprintf(stderr, "wherec: wrote %s\n", manifest_path);
    else rc = GEN_EXIT_TOOLCHAIN;
  }
  if (rc == GEN_EXIT_OK && o && o->verify) {
    import_verify_options v = {o->inputs, o->n_inputs, o->seed};
    rc = import_verify(model, out, manifest_path, &v);
  }
  free(default_path);
  free(manifest);
  free(spec);
  return rc;
}
