/* fuzz_spec.c: libFuzzer target of the spec front end: bytes -> parse_source ->
   sema_check -> lower_spec -> emit_render into memory (no file is written). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "back/emit.h"
#include "back/lower.h"
#include "front/parse.h"
#include "front/sema.h"

#ifndef WHEREC_FUZZ_TEMPLATES
#error "WHEREC_FUZZ_TEMPLATES must name the source tree's templates/ directory"
#endif

/* Stops the run with a message: an invariant of the front end does not hold. */
static void broken(const char *what, const diag_ctx *d, const diag_text *msg) {
  fprintf(stderr, "fuzz_spec: %s\n%s%s", what, diag_str(d), msg && msg->data ? msg->data : "");
  abort();
}

/* The work of gen_generate after the spec is read, up to the rendered text:
   every spec either has diagnostics or renders. */
static void generate(const diag_ctx *d, const sema_program *sp) {
  lower_program *lp;
  diag_text header = {0}, source = {0}, msg = {0}, dump = {0};
  sema_dump(&dump, sp);
  diag_text_free(&dump);
  for (int i = 0; i < sp->n_kernels; i++) {
    ast_shape shape;
    if (!lower_out_shape(&sp->kernels[i], &shape))           /* sema refuses such kernels */
      broken("sema accepted a kernel whose parameters do not broadcast together", d, NULL);
  }
  lp = lower_spec(sp, 0);
  if (lp == NULL) broken("lower_spec failed", d, NULL);
  for (int i = 0; i < lp->n_kernels; i++)
    if (lp->kernels[i].n_nodes > UINT16_MAX) {                /* the driver reports it */
      lower_free(lp);
      return;
    }
  emit_input in = {lp, "fuzz.where", sp->prefix ? sp->prefix : "fuzz", WHEREC_FUZZ_TEMPLATES};
  if (!emit_render(&in, &header, &source, &msg)) broken("emit_render failed", d, &msg);
  if (header.truncated || source.truncated) broken("rendered text truncated", d, NULL);
  diag_text_free(&header);
  diag_text_free(&source);
  diag_text_free(&msg);
  lower_free(lp);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  diag_ctx d;
  ast_file *af;
  sema_program *sp = NULL;
  diag_init(&d, "fuzz.where", (const char *)data, size, NULL);
  af = parse_source((const char *)data, size, &d);
  if (af == NULL) broken("parse_source returned NULL", &d, NULL);
  sp = sema_check(af, &d);
  if ((sp == NULL) != (d.n_errors > 0)) broken("sema result and error count disagree", &d, NULL);
  if (d.n_errors > 0 && d.text.len == 0) broken("errors without diagnostics", &d, NULL);
  if (sp) generate(&d, sp);
  sema_free(sp);
  ast_file_free(af);
  diag_free(&d);
  return 0;
}
