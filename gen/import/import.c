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
#include "import/onnx.h"
#include "import/spec_write.h"

/* One import: everything but the model lives in the arena; out of memory jumps to oom. */
typedef struct imp {
  arena        a;
  jmp_buf      oom;
  FILE        *log;
  onnx_model  *m; /* NULL until read */
  import_graph gr;
  fusion       f;
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
   the region's text, or its reason. */
static void take_region(imp *im, spec_writer *w, int r, const char *const *kernel_names,
                        int n_kernels) {
  fusion_region *rg = &im->f.regions[r];
  diag_text      stmt = {0};
  rg->reason = spec_write_kernel(w, r, kernel_names, n_kernels, &rg->name, &stmt);
  if (!rg->reason) rg->reason = check_kernel(im, stmt.data, stmt.len);
  if (!rg->reason) {
    spec_write_comment(w, r, &rg->text);
    diag_text_printf(&rg->text, "%s", stmt.data);
  }
  diag_text_free(&stmt);
}

static int run_import(imp *im, const uint8_t *buf, size_t len, const char *model_name,
                      char **spec) {
  char err[512];
  im->m = onnx_read_model(buf, len, err, sizeof err);
  if (im->m == NULL) {
    fprintf(im->log, "wherec: error: %s: %s\n", model_name, err);
    return GEN_EXIT_BAD_INPUT;
  }
  int rc = GEN_EXIT_BAD_INPUT;
  if (!graph_build(&im->gr, &im->a, im->log, im->m)) goto done;
  fusion_form(&im->f, &im->gr);
  spec_writer w;
  spec_write_init(&w, &im->gr, &im->f);
  const char **names = graph_alloc(&im->gr, (size_t)im->f.n_regions + 1, sizeof *names);
  int          n_kernels = 0;
  /* regions were numbered from the outputs back; write them in graph order */
  for (int r = im->f.n_regions - 1; r >= 0; r--) {
    take_region(im, &w, r, names, n_kernels);
    if (!im->f.regions[r].reason) names[n_kernels++] = im->f.regions[r].name;
  }
  fusion_report(&im->f, &im->gr, im->log);
  if (n_kernels == 0) {
    fprintf(im->log, "wherec: error: %s: no element-wise region could be imported\n", model_name);
    goto done;
  }
  diag_text out = {0};
  spec_write_header(&im->gr, model_name, &out);
  for (int r = im->f.n_regions - 1; r >= 0; r--) {
    const fusion_region *rg = &im->f.regions[r];
    if (rg->reason) continue;
    diag_text_printf(&out, "\n%s", rg->text.data);
    fusion_report_kernel(&im->f, &im->gr, r, im->log);
  }
  if (out.truncated) {
    diag_text_free(&out);
    longjmp(im->oom, 1);
  }
  *spec = out.data;
  rc = GEN_EXIT_OK;
done:
  fusion_free(&im->f);
  onnx_model_free(im->m);
  im->m = NULL;
  return rc;
}

int import_model(const uint8_t *buf, size_t len, const char *model_name, FILE *log, char **spec) {
  imp *im = calloc(1, sizeof *im);
  int  rc;
  *spec = NULL;
  if (im == NULL) {
    fprintf(log, "wherec: error: out of memory\n");
    return GEN_EXIT_BAD_INPUT;
  }
  arena_init(&im->a);
  im->a.oom = &im->oom;
  im->log = log;
  if (setjmp(im->oom) == 0) {
    rc = run_import(im, buf, len, model_name, spec);
  } else {
    fusion_free(&im->f);
    onnx_model_free(im->m);
    fprintf(log, "wherec: error: out of memory\n");
    rc = GEN_EXIT_BAD_INPUT;
  }
  arena_free(&im->a);
  free(im);
  return rc;
}

/* ---- the command ------------------------------------------------------------------- */

int import_command(const char *model, const char *out) {
  char     err[512], *spec = NULL;
  size_t   len;
  uint8_t *buf = onnx_slurp(model, &len, err, sizeof err);
  if (buf == NULL) {
    fprintf(stderr, "wherec: error: %s: %s\n", model, err);
    return GEN_EXIT_BAD_INPUT;
  }
  int rc = import_model(buf, len, model, stderr, &spec);
  free(buf);
  if (rc == GEN_EXIT_OK) {
    if (file_write(out, spec, strlen(spec), stderr)) fprintf(stderr, "wherec: wrote %s\n", out);
    else rc = GEN_EXIT_TOOLCHAIN;
  }
  free(spec);
  return rc;
}
