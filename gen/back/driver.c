/* driver.c: spec file in, DIR/<prefix>.h and DIR/<prefix>.c out: parse,
   check, lower, render, then write only what changed, atomically. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "back/driver.h"
#include "back/emit.h"
#include "base/file.h"
#include "back/lower.h"
#include "front/parse.h"
#include "base/paths.h"
#include "front/sema.h"

/* Default prefix: the file's base name without extension, made a C identifier,
   into out (cap bytes); returns its whole length. */
static size_t prefix_from_path(const char *path, char *out, size_t cap) {
  const char *base = strrchr(path, '/');
  size_t      n = 0;
  base = base ? base + 1 : path;
  if (!(*base == '_' || (*base >= 'a' && *base <= 'z') || (*base >= 'A' && *base <= 'Z'))) {
    if (n + 1 < cap) out[n] = '_';
    n++;
  }
  for (; *base && *base != '.'; base++) {
    char c = *base;
    bool ok = c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
              (c >= '0' && c <= '9');
    if (n + 1 < cap) out[n] = ok ? c : '_';
    n++;
  }
  out[n < cap ? n : cap - 1] = '\0';
  return n; /* its length, even when cut short to cap - 1 bytes */
}

/* ---- symbols: every kernel K emits P_K, P_K_range, P_K_program, ... ---- */

typedef struct symbol {
  char name[300]; /* the symbol without the "P_" prefix */
  int  kernel;    /* whose it is; -1 for the file's own (table, kernels) */
} symbol;

static int symbol_cmp(const void *a, const void *b) {
  const symbol *x = a, *y = b;
  int           c = strcmp(x->name, y->name);
  return c ? c : x->kernel - y->kernel;
}

/* Kernel names such as `a_range` (beside `a`) or `table` pass sema but would
   define one C symbol twice: report them before anything is generated. */
static void check_symbols(const sema_program *sp, diag_ctx *d) {
  static const char *const suffix[] = {"",        "_range",  "_range_any",    "_range_avx2",
                                       "_count",  "_invoke", "_count_invoke", "_coords_invoke",
                                       "_fill",   "_params", "_extents",      "_out_dims",
                                       "_program"};
  size_t                   n = 2, cap = 2;
  for (int i = 0; i < sp->n_kernels; i++)
    cap += sizeof suffix / sizeof *suffix + (size_t)sp->kernels[i].n_params;
  symbol *syms = malloc(cap * sizeof *syms);
  if (syms == NULL) {
    diag_error(d, (diag_loc){0, 0, 0, 0}, "out of memory");
    return;
  }
  snprintf(syms[0].name, sizeof syms[0].name, "table");
  snprintf(syms[1].name, sizeof syms[1].name, "kernels");
  syms[0].kernel = syms[1].kernel = -1;
  for (int i = 0; i < sp->n_kernels; i++) {
    const sema_kernel *k = &sp->kernels[i];
    for (size_t j = 0; j < sizeof suffix / sizeof *suffix; j++, n++) {
      snprintf(syms[n].name, sizeof syms[n].name, "%s%s", k->name, suffix[j]);
      syms[n].kernel = i;
    }
    for (int p = 0; p < k->n_params; p++, n++) {
      snprintf(syms[n].name, sizeof syms[n].name, "%s_dims%d", k->name, p);
      syms[n].kernel = i;
    }
  }
  qsort(syms, n, sizeof *syms, symbol_cmp);
  for (size_t i = 1; i < n; i++) {
    const symbol *a = &syms[i - 1], *b = &syms[i];
    if (strcmp(a->name, b->name) != 0 || a->kernel == b->kernel) continue;
    const sema_kernel *kb = &sp->kernels[b->kernel];
    if (a->kernel < 0)
      diag_error(d, kb->loc,
                 "kernel name '%s' would define the C symbol <prefix>_%s, which "
                 "the generated file defines itself",
                 kb->name, b->name);
    else {
      diag_error(d, kb->loc, "kernels '%s' and '%s' would both define the C symbol <prefix>_%s",
                 sp->kernels[a->kernel].name, kb->name, b->name);
      diag_note(d, sp->kernels[a->kernel].loc, "'%s' declared here", sp->kernels[a->kernel].name);
    }
  }
  free(syms);
}

/* The spec's text, or NULL after a message on err. */
static char *read_spec(const char *spec_path, size_t *len, FILE *err) {
  char *src = file_read(spec_path, len, PARSE_MAX_SOURCE);
  if (src != NULL) return src;
  if (errno == EFBIG)
    fprintf(err, "%s: error: spec is too large (more than %zu bytes)\n", spec_path,
            PARSE_MAX_SOURCE);
  else fprintf(err, "%s: error: cannot read spec: %s\n", spec_path, strerror(errno));
  return NULL;
}

/* --prefix, if given, follows sema_is_c_ident; false after a message on err. */
static bool prefix_option_ok(const gen_options *opt, FILE *err) {
  if (opt->prefix && strlen(opt->prefix) > GEN_MAX_PREFIX) { /* it would be cut short */
    fprintf(err, "wherec: error: --prefix is too long (%zu bytes; the limit is %d)\n",
            strlen(opt->prefix), GEN_MAX_PREFIX);
    return false;
  }
  if (opt->prefix && !sema_is_c_ident(opt->prefix)) {
    fprintf(err, "wherec: error: --prefix '%s' is not a valid C identifier\n", opt->prefix);
    return false;
  }
  return true;
}

/* The C prefix into prefix (GEN_MAX_PREFIX + 1 bytes): --prefix, else option
   prefix (sema checked it), else the file's base name, which must follow the
   same rule; false after a message on err. */
static bool choose_prefix(const gen_options *opt, const sema_program *sp, const char *spec_path,
                          char *prefix, FILE *err) {
  if (opt->prefix) snprintf(prefix, GEN_MAX_PREFIX + 1, "%s", opt->prefix);
  else if (sp->prefix) snprintf(prefix, GEN_MAX_PREFIX + 1, "%s", sp->prefix);
  else {
    size_t len = prefix_from_path(spec_path, prefix, GEN_MAX_PREFIX + 1);
    if (len > GEN_MAX_PREFIX) {
      fprintf(err,
              "%s: error: the prefix taken from the file name is too long (%zu bytes; the limit "
              "is %d); name a shorter one with `option prefix = \"...\";` or --prefix\n",
              spec_path, len, GEN_MAX_PREFIX);
      return false;
    }
    if (!sema_is_c_ident(prefix)) { /* the rule `option prefix` follows */
      fprintf(err,
              "%s: error: the prefix '%s' taken from the file name is not a valid C "
              "identifier; name one with `option prefix = \"...\";` or --prefix\n",
              spec_path, prefix);
      return false;
    }
  }
  return true;
}

/* Limits of the plan that sema cannot see: wc_instr operands are 16-bit. */
static void check_plan(const lower_program *lp, const sema_program *sp, diag_ctx *d) {
  for (int i = 0; i < lp->n_kernels; i++)
    if (lp->kernels[i].n_nodes > UINT16_MAX)
      diag_error(d, sp->kernels[i].loc, "kernel '%s' needs %d operations; the limit is %d",
                 sp->kernels[i].name, lp->kernels[i].n_nodes, UINT16_MAX);
}

/* What result reports: the prefix, and the unroll factor of each kernel with
   an element loop (not coordinate kinds, not empty ones), each once. */
static void fill_result(gen_result *r, const lower_program *lp, const char *prefix) {
  snprintf(r->prefix, sizeof r->prefix, "%s", prefix);
  r->n_unrolls = 0;
  for (int i = 0; i < lp->n_kernels && r->n_unrolls < GEN_MAX_UNROLLS; i++) {
    const lower_kernel *k = &lp->kernels[i];
    if (k->sk->kind == WC_KIND_ARGWHERE || k->sk->kind == WC_KIND_NONZERO || k->empty) continue;
    int j = 0;
    while (j < r->n_unrolls && r->unrolls[j] != k->unroll) j++;
    if (j == r->n_unrolls) r->unrolls[r->n_unrolls++] = k->unroll;
  }
}

/* DIR/<prefix>.h and DIR/<prefix>.c, each written only if it changed and
   renamed into place only when both are staged. DIR is made if missing
   (*made_dir tells, so a failure can remove it); tmp_h, tmp_c name what is
   staged but not renamed, for the caller to remove. */
static bool write_outputs(const char *out_dir, const char *prefix, const diag_text *header,
                          const diag_text *source, char tmp_h[FILE_TMP_CAP],
                          char tmp_c[FILE_TMP_CAP], bool *made_dir, FILE *err) {
  char path_h[4096], path_c[4096];
  if ((size_t)snprintf(path_h, sizeof path_h, "%s/%s.h", out_dir, prefix) >= sizeof path_h ||
      (size_t)snprintf(path_c, sizeof path_c, "%s/%s.c", out_dir, prefix) >= sizeof path_c) {
    fprintf(err, "wherec: error: output path too long: %s\n", out_dir);
    return false;
  }
  if (mkdir(out_dir, 0755) == 0) *made_dir = true;
  else if (errno != EEXIST) {
    fprintf(err, "wherec: error: cannot create %s: %s\n", out_dir, strerror(errno));
    return false;
  }
  return file_stage(path_h, header->data, header->len, tmp_h, err) &&
         file_stage(path_c, source->data, source->len, tmp_c, err) &&
         file_commit(tmp_h, path_h, err) && file_commit(tmp_c, path_c, err);
}

int gen_generate(const char *spec_path, const char *out_dir, const gen_options *opt, FILE *err,
                 gen_result *result) {
  gen_options    none = {NULL, NULL, 0};
  diag_ctx       d;
  ast_file      *af = NULL;
  sema_program  *sp = NULL;
  lower_program *lp = NULL;
  diag_text      header = {0}, source = {0}, msg = {0};
  char           prefix[GEN_MAX_PREFIX + 1], tmp_h[FILE_TMP_CAP] = "", tmp_c[FILE_TMP_CAP] = "";
  bool           made_dir = false;
  size_t         len;
  int            rc = GEN_EXIT_BAD_INPUT;
  if (opt == NULL) opt = &none;
  char *src = read_spec(spec_path, &len, err);
  if (src == NULL) return GEN_EXIT_BAD_INPUT;
  diag_init(&d, spec_path, src, len, err);
  af = parse_source(src, len, &d);
  if (af != NULL) sp = sema_check(af, &d);
  if (sp == NULL || d.n_errors > 0) goto done;
  check_symbols(sp, &d);
  if (!prefix_option_ok(opt, err) || d.n_errors > 0) goto done;
  if (!choose_prefix(opt, sp, spec_path, prefix, err)) goto done;

  rc = GEN_EXIT_TOOLCHAIN;
  lp = lower_spec(sp, opt->unroll);
  if (lp == NULL) {
    fprintf(err, "wherec: error: out of memory\n");
    goto done;
  }
  check_plan(lp, sp, &d);
  if (d.n_errors > 0) {
    rc = GEN_EXIT_BAD_INPUT;
    goto done;
  }
  const char *tdir = opt->templates_dir;
  if (tdir == NULL) tdir = gen_env_or("WHEREC_TEMPLATES", gen_default_templates_dir());
  emit_input in = {lp, spec_path, prefix, tdir};
  if (!emit_render(&in, &header, &source, &msg)) {
    fprintf(err, "%s", msg.data ? msg.data : "wherec: error: rendering failed\n");
    goto done;
  }
  if (header.truncated || source.truncated) {
    fprintf(err, "wherec: error: out of memory\n");
    goto done;
  }
  if (!write_outputs(out_dir, prefix, &header, &source, tmp_h, tmp_c, &made_dir, err)) goto done;
  if (result) fill_result(result, lp, prefix);
  rc = GEN_EXIT_OK;
done:
  if (tmp_h[0]) unlink(tmp_h); /* staged but not renamed */
  if (tmp_c[0]) unlink(tmp_c);
  if (rc != 0 && made_dir) rmdir(out_dir); /* empty: nothing was renamed into it */
  diag_text_free(&header);
  diag_text_free(&source);
  diag_text_free(&msg);
  lower_free(lp);
  if (sp) sema_free(sp);
  if (af) ast_file_free(af);
  diag_free(&d);
  free(src);
  return rc;
}
