/* spec_write.c: regions rendered as .where text: leaves become parameters (named from the
   ONNX names) or exact literals, nodes become the spec's operators in onnxruntime's forms. */
#define _POSIX_C_SOURCE 200809L

#include "import/spec_write.h"

#include "import/forms.h"

#include <math.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

#include <wherec/exp.h>

#include "front/ast.h"

#define IMPORT_MAX_NAME 64 /* identifiers made from ONNX names are cut to this */

/* Is value v computed inside region (by a node of it other than a Constant)? Else it
   is one of the region's leaves. */
static bool computed_in(const spec_writer *w, int region, int v) {
  int p = w->gr->vals[v].producer;
  return p >= 0 && w->f->nodes[p].region == region && w->gr->nodes[p].op->id != OP_Constant;
}

/* ---- names ------------------------------------------------------------------------ */

/* s fit for a `#` comment of the spec: a control byte (a newline in an ONNX
   name, say) would end the comment and the rest would be read as spec text. */
static const char *comment_text(const import_graph *gr, const char *s) {
  char *t = arena_strdup(gr->a, s ? s : "");
  for (char *p = t; *p; p++)
    if ((unsigned char)*p < 0x20 || *p == 0x7f) *p = '?';
  return t;
}

static bool is_reserved(const char *s) {
  static const char *const words[] = {
      "kernel",  "option", "true", "false", "inf",  "nan", "where", "where_v1", "argwhere",
      "nonzero", "min",    "max",  "abs",   "i8",   "i16", "i32",   "i64",      "u8",
      "u16",     "u32",    "u64",  "f16",   "bf16", "f32", "f64",   "c64",      "c128"};
  wc_dtype t;
  for (size_t i = 0; i < sizeof words / sizeof *words; i++)
    if (strcmp(s, words[i]) == 0) return true;
  return ast_dtype_lookup(s, &t);
}

/* An identifier from an ONNX name, different from every name in taken[0, n). */
static const char *ident(spec_writer *w, const char *name, const char *const *taken, int n) {
  char   base[IMPORT_MAX_NAME + 8], out[IMPORT_MAX_NAME + 24];
  size_t k = 0;
  if (!(name[0] == '_' || ((name[0] | 0x20) >= 'a' && (name[0] | 0x20) <= 'z'))) base[k++] = 'v';
  for (const char *p = name; *p && k < IMPORT_MAX_NAME; p++) {
    char c = *p;
    bool ok = c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
              (c >= '0' && c <= '9');
    base[k++] = ok ? c : '_';
  }
  base[k] = '\0';
  if (is_reserved(base)) {
    base[k++] = '_';
    base[k] = '\0';
  }
  snprintf(out, sizeof out, "%s", base);
  for (int suffix = 2;; suffix++) {
    int i = 0;
    while (i < n && strcmp(taken[i], out) != 0) i++;
    if (i == n) break;
    snprintf(out, sizeof out, "%s_%d", base, suffix);
  }
  return arena_strdup(w->gr->a, out);
}

/* Would the kernel name k clash with a symbol the generated C derives from
   another name (P_table, P_kernels, P_<k>_range, P_<k>_dims0, ...)? */
static bool clashes_in_c(const char *k) {
  static const char *const suffixes[] = {"_range",   "_count",    "_coords",  "_invoke", "_params",
                                         "_program", "_out_dims", "_extents", "_dims"};
  size_t                   n = strlen(k), m = n;
  if (strcmp(k, "table") == 0 || strcmp(k, "kernels") == 0) return true;
  while (m > 0 && k[m - 1] >= '0' && k[m - 1] <= '9') m--; /* _dims0, _dims12 */
  for (size_t i = 0; i < sizeof suffixes / sizeof *suffixes; i++) {
    size_t l = strlen(suffixes[i]);
    if (n >= l && memcmp(k + n - l, suffixes[i], l) == 0) return true;
    if (m < n && m >= l && memcmp(k + m - l, suffixes[i], l) == 0) return true;
  }
  return false;
}

/* A kernel name: an identifier that no generated symbol can clash with. */
static const char *kernel_ident(spec_writer *w, const char *name, const char *const *taken, int n) {
  const char *k = ident(w, name, taken, n);
  if (strncmp(k, "const_", 6) == 0) /* <prefix>_const_... are the constants' arrays */
    k = ident(w, graph_fmt(w->gr, "k_%s", k), taken, n);
  return clashes_in_c(k) ? ident(w, graph_fmt(w->gr, "%s_k", k), taken, n) : k;
}

/* ---- expressions ------------------------------------------------------------------- */

static ex *build(spec_writer *w, int region, int v);

/* Value v read per channel: a parameter declared with pad 1s after its shape, so that
   [C] broadcasts as [C,1,...] along X's channel axis (a literal broadcasts anyway). */
static ex *chan(spec_writer *w, int region, int v, int pad) {
  if (pad > 0 && computed_in(w, region, v)) {
    if (!w->ex.unspellable)
      w->ex.unspellable = graph_fmt(w->gr,
                                    "per-channel parameter '%.200s' is computed inside the kernel, "
                                    "where it cannot be given the 1s it broadcasts with",
                                    w->gr->vals[v].name);
    pad = 0;
  }
  w->cur_pad = pad;
  ex *e = build(w, region, v);
  w->cur_pad = 0;
  return e;
}

/* One read of input k of the node being written: its producer's expression or the leaf. */
static ex *read_input(form *f, int k, int pad) {
  return chan(f->reader, f->region, f->ni->in[k], pad);
}

/* The expression of node i (in region): its row's formula or builder (forms.c). */
static ex *emit_node(spec_writer *w, int region, int i) {
  const graph_node  *ni = &w->gr->nodes[i];
  const fusion_node *fn = &w->f->nodes[i];
  int               *reads = graph_alloc(w->gr, (size_t)ni->n->n_inputs + 1, sizeof *reads);
  form               f = {&w->ex, w->gr, ni, fn, &fn->at, fn->t, read_input, w, region, reads};
  return form_node(&f);
}

/* The expression for value v inside region: its producer's if that is in the
   region, else the leaf (parameter or literal). */
static ex *build(spec_writer *w, int region, int v) {
  const graph_value *val = &w->gr->vals[v];
  if (computed_in(w, region, v) && w->let_mark[v] == w->stamp) /* a let: by its name */
    return ex_make(&w->ex, EX_PARAM, val->dtype, w->let_name[v], 0, NULL, NULL, NULL);
  if (computed_in(w, region, v)) return emit_node(w, region, val->producer);
  int l = w->leaf[v];
  if (w->leaf_name[l]) {
    if (w->leaf_pad[l] < 0) w->leaf_pad[l] = w->cur_pad;
    else if (w->leaf_pad[l] != w->cur_pad && !w->ex.unspellable)
      w->ex.unspellable = graph_fmt(w->gr,
                                    "'%.200s' is read both per channel and as it is, and a "
                                    "parameter has one shape",
                                    val->name);
    return ex_make(&w->ex, EX_PARAM, val->dtype, w->leaf_name[l], 0, NULL, NULL, NULL);
  }
  return ex_lit(&w->ex, w->leaf_dtype[l], w->leaf_lit[l]);
}

/* ---- kernels ------------------------------------------------------------------------ */

/* The leaves of region (values it reads but does not compute), first appearance order. */
static void collect_leaves(spec_writer *w, int region, int v) {
  if (w->mark[v] == w->stamp) return;
  w->mark[v] = w->stamp;
  if (computed_in(w, region, v)) {
    const graph_node *ni = &w->gr->nodes[w->gr->vals[v].producer];
    for (int k = 0; k < ni->n->n_inputs; k++)
      if (ni->in[k] >= 0 && fusion_reads(w->f, w->gr->vals[v].producer, k))
        collect_leaves(w, region, ni->in[k]);
    return;
  }
  w->leaf[v] = w->n_leaves;
  w->leaves[w->n_leaves++] = v;
}

/* Leaves in parameter order: graph inputs in graph order, then the rest in order of appearance. */
static void sort_leaves(spec_writer *w) {
  for (int i = 1; i < w->n_leaves; i++) { /* insertion sort: stable, few leaves */
    int v = w->leaves[i], j = i;
    int key = w->gr->vals[v].input >= 0 ? w->gr->vals[v].input : INT32_MAX;
    while (j > 0) {
      int u = w->leaves[j - 1];
      int ku = w->gr->vals[u].input >= 0 ? w->gr->vals[u].input : INT32_MAX;
      if (ku <= key) break;
      w->leaves[j] = u;
      j--;
    }
    w->leaves[j] = v;
  }
  for (int i = 0; i < w->n_leaves; i++) w->leaf[w->leaves[i]] = i;
}

ast_shape spec_leaf_shape(const spec_writer *w, int l) {
  ast_shape shape = w->gr->vals[w->leaves[l]].shape;
  if (l == w->flat_leaf) return (ast_shape){.rank = 1, .dims = {WC_SYM(w->gr->n_syms)}};
  for (int d = 0; d < w->leaf_pad[l] && shape.rank < WC_MAX_RANK; d++) shape.dims[shape.rank++] = 1;
  return shape;
}

ast_shape spec_output_shape(const spec_writer *w, const graph_value *v) {
  if (w->flat_leaf >= 0) return (ast_shape){.rank = 1, .dims = {WC_SYM(w->gr->n_syms)}};
  return v->shape;
}

static void print_shape(diag_text *t, const ast_shape *s, const char **ext_names) {
  diag_text_printf(t, "[");
  for (int d = 0; d < s->rank; d++) {
    if (d) diag_text_printf(t, ",");
    if (s->dims[d] >= 0) diag_text_printf(t, "%lld", (long long)s->dims[d]);
    else diag_text_printf(t, "%s", ext_names[-s->dims[d] - 1]);
  }
  diag_text_printf(t, "]");
}

/* The leaves of region r in parameter order (graph inputs first, in graph order). An
   input the region does not read is no parameter: it would widen the broadcast shape
   of a kernel that ignores it. */
static void find_leaves(spec_writer *w, int r) {
  const import_graph *gr = w->gr;
  w->stamp++;
  w->n_leaves = 0;
  collect_leaves(w, r, gr->nodes[w->f->regions[r].root].out);
  sort_leaves(w);
}

void spec_write_init(spec_writer *w, const import_graph *gr, const fusion *f) {
  size_t n = (size_t)gr->n_vals;
  memset(w, 0, sizeof *w);
  w->gr = gr;
  w->ex.gr = gr;
  w->f = f;
  w->mark = graph_alloc(gr, n, sizeof *w->mark);
  w->leaf = graph_alloc(gr, n, sizeof *w->leaf);
  for (size_t v = 0; v < n; v++) w->leaf[v] = -1;
  w->leaves = graph_alloc(gr, n, sizeof *w->leaves);
  w->leaf_name = graph_alloc(gr, n, sizeof *w->leaf_name);
  w->leaf_lit = graph_alloc(gr, n, sizeof *w->leaf_lit);
  w->leaf_dtype = graph_alloc(gr, n, sizeof *w->leaf_dtype);
  w->leaf_pad = graph_alloc(gr, n, sizeof *w->leaf_pad);
  w->let_mark = graph_alloc(gr, n, sizeof *w->let_mark);
  w->let_name = graph_alloc(gr, n, sizeof *w->let_name);
  w->leaf_baked = graph_alloc(gr, n, sizeof *w->leaf_baked);
  w->bake_limit = 65536; /* IMPORT_BAKE_LIMIT */
  w->const_seq = &w->own_seq;
}

/* The values of constant v as a `const` statement's list ("1.5, -0.0, ..."), when v
   is at most bake_limit bytes of bool, integers or floats and every element has an
   exact literal; else NULL (it stays a parameter). */
static const char *bake_values(spec_writer *w, const graph_value *v) {
  wc_tensor       t;
  char           *strings = NULL, err[256], text[80];
  diag_text       out = {0};
  ast_dtype_class c = ast_dtype_class_of(v->dtype);
  int64_t         n = 1;
  size_t          size = wc_dtype_size(v->dtype);
  bool            ok = true;
  if (w->bake_limit <= 0 || !v->constant || c == AST_CLASS_COMPLEX || c == AST_CLASS_STRING ||
      c == AST_CLASS_NONE || size == 0)
    return NULL;
  for (int d = 0; d < v->shape.rank; d++) {
    if (v->shape.dims[d] < 0) return NULL;
    if (v->shape.dims[d] > 0 && n > w->bake_limit / v->shape.dims[d]) return NULL;
    n *= v->shape.dims[d];
  }
  if (n * (int64_t)size > w->bake_limit) return NULL;
  if (!onnx_tensor_to_wc(v->constant, &t, &strings, err, sizeof err)) return NULL;
  for (int64_t i = 0; i < n && ok; i++) {
    uint64_t bits[2] = {0, 0};
    memcpy(&bits[0], (const char *)t.data + (size_t)i * size, size); /* zero-extended */
    ok = spec_literal_text(v->dtype, bits, text, sizeof text);
    if (ok) diag_text_printf(&out, "%s%s", i == 0 ? "" : i % 8 == 0 ? ",\n  " : ", ", text);
  }
  free(t.data);
  free(strings);
  if (out.truncated) {
    diag_text_free(&out);
    longjmp(*w->gr->a->oom, 1);
  }
  const char *s = ok ? arena_strdup(w->gr->a, out.data ? out.data : "") : NULL;
  diag_text_free(&out);
  return s;
}

const char *spec_write_kernel(spec_writer *w, int r, const char *const *kernel_names, int n_kernels,
                              const char **name, diag_text *stmt) {
  const import_graph  *gr = w->gr;
  const fusion_region *rg = &w->f->regions[r];
  const graph_node    *root = &gr->nodes[rg->root];
  bool                 whole = fusion_whole_graph(w->f, gr, r); /* named after the graph */
  find_leaves(w, r);

  /* literals: one-element constants whose rank the others' covers */
  int max_rank = 0;
  w->flat_leaf = -1;
  for (int l = 0; l < w->n_leaves; l++) {
    const graph_value *v = &gr->vals[w->leaves[l]];
    w->leaf_lit[l] = NULL;
    w->leaf_name[l] = NULL;
    w->leaf_baked[l] = false;
    w->leaf_dtype[l] = v->dtype;
    w->leaf_pad[l] = -1;
    if (!v->shaped && !v->constant && w->flat_leaf < 0) w->flat_leaf = l;
    else if (!v->shaped) return graph_fmt(gr, "input '%.200s' has a dynamic shape", v->name);
    if (v->dtype == 0) return graph_fmt(gr, "input '%.200s' has an unknown dtype", v->name);
    uint64_t bits[2];
    char     text[80];
    if (v->constant && onnx_tensor_scalar(v->constant, bits, NULL, 0) &&
        spec_literal_text(v->dtype, bits, text, sizeof text))
      w->leaf_lit[l] = arena_strdup(gr->a, text);
    else if (v->shape.rank > max_rank) max_rank = v->shape.rank;
  }
  if (w->flat_leaf >= 0) { /* read flat: the output has its shape only when no other leaf
                              can change it, a rank 0 one broadcasts to any */
    const char *dyn = gr->vals[w->leaves[w->flat_leaf]].name;
    if (graph_is(root, OP_NonZero))
      return graph_fmt(gr, "input '%.200s' has a dynamic shape", dyn);
    for (int l = 0; l < w->n_leaves; l++)
      if (l != w->flat_leaf && gr->vals[w->leaves[l]].shape.rank != 0)
        return graph_fmt(gr,
                         "input '%.200s' has a dynamic shape (even its rank), and '%.200s' "
                         "is no scalar, so the two may broadcast to a shape of neither",
                         dyn, gr->vals[w->leaves[l]].name);
    max_rank = 1;
  }
  int          n_params = 0, n_own = 0; /* names taken; parameters that are no constant */
  const char **leaf_values = graph_alloc(gr, (size_t)w->n_leaves + 1, sizeof *leaf_values);
  int          n_lets = 0;
  for (int k = 0; k < gr->g->n_nodes; k++) {
    int i = gr->order[k];
    n_lets += i != rg->root && w->f->nodes[i].region == r && w->f->nodes[i].let;
  }
  const char **taken = graph_alloc(
      gr, (size_t)w->n_leaves + (size_t)gr->n_syms + (size_t)n_lets + 3, sizeof *taken);
  for (int l = 0; l < w->n_leaves; l++) {
    const graph_value *v = &gr->vals[w->leaves[l]];
    if (w->leaf_lit[l] && v->shape.rank <= max_rank) continue;
    w->leaf_lit[l] = NULL;
    w->leaf_baked[l] = false;
    leaf_values[l] = v->constant ? bake_values(w, v) : NULL;
    if (leaf_values[l]) { /* a constant of the spec, named apart from every other one */
      w->leaf_baked[l] = true;
      w->leaf_name[l] = ident(w, graph_fmt(gr, "%s_c%d", v->name, ++*w->const_seq), taken,
                              n_params);
      taken[n_params++] = w->leaf_name[l];
      fprintf(gr->log, "wherec: note: %s reads the constant '%s'; it is baked in as '%s'\n",
              graph_node_label(gr, rg->root), v->name, w->leaf_name[l]);
      continue;
    }
    w->leaf_name[l] = ident(w, v->name, taken, n_params);
    taken[n_params++] = w->leaf_name[l];
    n_own++;
    if (v->constant)
      fprintf(gr->log, "wherec: note: %s reads the constant '%s'; it becomes parameter '%s'\n",
              graph_node_label(gr, rg->root), v->name, w->leaf_name[l]);
  }
  if (n_own == 0) return "all its inputs are constants";
  /* symbolic extents: named after the dim_params, distinct from the parameters */
  const char **ext_names = graph_alloc(gr, (size_t)gr->n_syms + 1, sizeof *ext_names);
  for (int s = 0; s < gr->n_syms; s++) {
    ext_names[s] = ident(w, gr->syms[s], taken, n_params + s);
    taken[n_params + s] = ext_names[s];
  }
  int n_taken = n_params + gr->n_syms;
  if (w->flat_leaf >= 0) { /* the flat extent: the elements of the leaf of unknown shape */
    ext_names[gr->n_syms] = ident(w, "n", taken, n_taken);
    taken[n_taken++] = ext_names[gr->n_syms];
  }

  /* lets (values several nodes of the region read), in graph order, then the output */
  const char *out_name = NULL;
  int        *lets = graph_alloc(gr, (size_t)n_lets, sizeof *lets);
  ex        **let_ex = graph_alloc(gr, (size_t)n_lets, sizeof *let_ex);
  n_lets = 0;
  for (int k = 0; k < gr->g->n_nodes; k++) {
    int i = gr->order[k];
    if (i == rg->root || w->f->nodes[i].region != r || !w->f->nodes[i].let) continue;
    int v = gr->nodes[i].out;
    lets[n_lets++] = i;
    w->let_name[v] = ident(w, gr->vals[v].name, taken, n_taken);
    taken[n_taken++] = w->let_name[v];
    w->let_mark[v] = w->stamp;
  }
  if (n_lets) out_name = ident(w, gr->vals[root->out].name, taken, n_taken);
  w->ext_names = ext_names;
  w->ex.unspellable = NULL;
  for (int k = 0; k < n_lets; k++) { /* a let of literals only is inlined (the spec wants
                                        a let to read a parameter) */
    let_ex[k] = emit_node(w, r, lets[k]);
    if (ex_names(let_ex[k], NULL)) continue;
    if (w->f->nodes[lets[k]].output)
      return graph_fmt(gr, "its output '%.200s' is a constant, which no kernel writes",
                       gr->vals[gr->nodes[lets[k]].out].name);
    w->let_mark[gr->nodes[lets[k]].out] = 0;
  }
  ex *e = emit_node(w, r, rg->root);
  if (w->ex.unspellable) return w->ex.unspellable;
  /* keep the lets something reads (a form may drop an operand: Pow by 0), outputs back */
  bool *keep = graph_alloc(gr, (size_t)n_lets, sizeof *keep);
  for (int k = n_lets - 1; k >= 0; k--) {
    int v = gr->nodes[lets[k]].out;
    if (w->let_mark[v] != w->stamp) continue;
    keep[k] = w->f->nodes[lets[k]].output || ex_names(e, w->let_name[v]);
    for (int j = k + 1; j < n_lets && !keep[k]; j++)
      keep[k] = keep[j] && ex_names(let_ex[j], w->let_name[v]);
  }
  int n_kept = 0;
  for (int k = 0; k < n_lets; k++)
    if (keep[k]) lets[n_kept] = lets[k], let_ex[n_kept++] = let_ex[k];
  n_lets = n_kept;
  w->out_name = n_lets ? out_name : NULL;
  w->n_extra = 0; /* the other outputs, in graph order after the root's */
  for (int k = 0; k < n_lets; k++)
    if (w->f->nodes[lets[k]].output) w->extra[w->n_extra++] = lets[k];
  const char *base = whole && gr->g->name[0] ? gr->g->name : gr->vals[root->out].name;
  *name = kernel_ident(w, base, kernel_names, n_kernels);
  for (int l = 0; l < w->n_leaves; l++) { /* its constants, each with the 1s it is read with */
    const graph_value *v = &gr->vals[w->leaves[l]];
    if (!w->leaf_baked[l]) continue;
    ast_shape shape = spec_leaf_shape(w, l);
    diag_text_printf(stmt, "const %s: %s", w->leaf_name[l], wc_dtype_name(v->dtype));
    print_shape(stmt, &shape, ext_names);
    diag_text_printf(stmt, " = {%s%s};\n", strchr(leaf_values[l], '\n') ? "\n  " : "",
                     leaf_values[l]);
  }
  diag_text_printf(stmt, "kernel %s(", *name);
  for (int l = 0, k = 0; l < w->n_leaves; l++) {
    const graph_value *v = &gr->vals[w->leaves[l]];
    if (!w->leaf_name[l] || w->leaf_baked[l]) continue;
    diag_text_printf(stmt, "%s%s: %s", k++ ? ", " : "", w->leaf_name[l], wc_dtype_name(v->dtype));
    ast_shape shape = spec_leaf_shape(w, l);
    print_shape(stmt, &shape, ext_names);
  }
  if (n_lets == 0) {
    diag_text_printf(stmt, ") = ");
    ex_print(stmt, e, false);
    diag_text_printf(stmt, ";\n");
  } else {
    diag_text_printf(stmt, ") -> (%s", out_name);
    for (int k = 0; k < w->n_extra; k++)
      diag_text_printf(stmt, ", %s", w->let_name[gr->nodes[w->extra[k]].out]);
    diag_text_printf(stmt, ") {\n");
    for (int k = 0; k < n_lets; k++) {
      diag_text_printf(stmt, "  %s%s = ", w->f->nodes[lets[k]].output ? "" : "let ",
                       w->let_name[gr->nodes[lets[k]].out]);
      ex_print(stmt, let_ex[k], false);
      diag_text_printf(stmt, ";\n");
    }
    diag_text_printf(stmt, "  %s = ", out_name);
    ex_print(stmt, e, false);
    diag_text_printf(stmt, ";\n}\n");
  }
  if (stmt->truncated) {
    diag_text_free(stmt);
    longjmp(*gr->a->oom, 1);
  }
  return NULL;
}

void spec_write_comment(const spec_writer *w, int r, diag_text *t) {
  const import_graph *gr = w->gr;
  int                 root = w->f->regions[r].root;
  diag_text_printf(t, "# %s = %s", comment_text(gr, gr->vals[gr->nodes[root].out].name),
                   comment_text(gr, graph_node_label(gr, root)));
  for (int k = gr->g->n_nodes - 1; k >= 0; k--) {
    int i = gr->order[k];
    if (i != root && w->f->nodes[i].region == r)
      diag_text_printf(t, ", %s", comment_text(gr, graph_node_label(gr, i)));
  }
  diag_text_printf(t, "\n");
}

void spec_write_header(const import_graph *gr, const char *model_name, diag_text *t) {
  diag_text_printf(t,
                   "# Imported by wherec import from %s (graph '%s', opset %lld).\n"
                   "# One kernel per maximal element-wise region (the nodes after the kernel's "
                   "name).\n",
                   comment_text(gr, model_name), comment_text(gr, gr->g->name),
                   (long long)gr->opset);
}
