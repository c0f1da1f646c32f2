/* driver.h: one call that turns a spec file into DIR/<prefix>.h and DIR/<prefix>.c.
   Shared by `wherec gen` and `wherec check`; the lowering and emitter sit behind it. */
#ifndef WHEREC_GEN_DRIVER_H
#define WHEREC_GEN_DRIVER_H

#include <stddef.h>
#include <stdio.h>

typedef struct gen_options {
  const char *prefix;          /* overrides option prefix; NULL: the spec's, else the file's base name */
  const char *templates_dir;   /* NULL: the built-in templates directory */
  int         unroll;          /* overrides option unroll when > 0 */
} gen_options;

/* Returns 0 on success (prefix_out gets the C prefix used), 1 when the spec has
   errors (diagnostics written to err, nothing written), 4 when rendering or
   writing failed (message on err). */
int gen_generate(const char *spec_path, const char *out_dir, const gen_options *opt,
                 FILE *err, char *prefix_out, size_t prefix_cap);

#endif
