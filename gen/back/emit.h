/* emit.h: renders a lowered spec to C through the Lua templates
   (templates/: header.h.tpl and source.c.tpl, which include the others,
   and ops.lua; templates/README.md says what they receive). */
#ifndef WHEREC_GEN_EMIT_H
#define WHEREC_GEN_EMIT_H

#include "base/diag.h"
#include "back/lower.h"

typedef struct emit_input {
  const lower_program *lp;
  const char          *spec_path;     /* as given on the command line; printed in the header */
  const char          *prefix;        /* C prefix of every symbol */
  const char          *templates_dir; /* directory holding the templates */
} emit_input;

/* Renders the header and the source. Returns false with a message in err
   (a template error names the template file and line). */
bool emit_render(const emit_input *in, diag_text *header, diag_text *source, diag_text *err);

#endif
