/* driver.h: one call that turns a spec file into DIR/<prefix>.h and DIR/<prefix>.c.
   Shared by `wherec gen` and `wherec check`; the lowering and emitter sit behind it. */
#ifndef WHEREC_GEN_DRIVER_H
#define WHEREC_GEN_DRIVER_H

#include <stddef.h>
#include <stdio.h>

#include "base/exit_status.h"

typedef struct gen_options {
  const char *prefix;          /* overrides option prefix; NULL: the spec's, else the file's base name */
  const char *templates_dir;   /* NULL: the built-in templates directory */
  int         unroll;          /* overrides option unroll when > 0 */
} gen_options;

/* Returns GEN_EXIT_OK on success (prefix_out gets the C prefix used),
   GEN_EXIT_BAD_INPUT when the spec has errors (diagnostics written to err, nothing
   written), GEN_EXIT_TOOLCHAIN when rendering or writing failed (message on err). */
int gen_generate(const char *spec_path, const char *out_dir, const gen_options *opt,
                 FILE *err, char *prefix_out, size_t prefix_cap);

#endif
