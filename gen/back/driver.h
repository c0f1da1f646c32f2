/* driver.h: one call that turns a spec file into DIR/<prefix>.h and DIR/<prefix>.c.
   Shared by `wherec gen` and `wherec check`; the lowering and emitter sit behind it. */
#ifndef WHEREC_GEN_DRIVER_H
#define WHEREC_GEN_DRIVER_H

#include <stddef.h>
#include <stdio.h>

#include "base/exit_status.h"
#include "front/sema.h"

typedef struct gen_options {
  const char *prefix; /* overrides option prefix; NULL: the spec's, else the file's base name */
  const char *templates_dir; /* NULL: the built-in templates directory */
  int         unroll;        /* overrides option unroll when > 0 */
} gen_options;

#define GEN_MAX_PREFIX  SEMA_MAX_PREFIX /* bytes of a C prefix, which names the output files */
#define GEN_MAX_UNROLLS 8 /* distinct unroll factors reported: each costs check five bindings */

/* What a successful gen_generate used: `wherec check` hands the unroll factors
   to its harness, which straddles each with its extents. */
typedef struct gen_result {
  char prefix[GEN_MAX_PREFIX + 1]; /* the C prefix of the generated symbols */
  int  n_unrolls;                  /* distinct factors below (0: no kernel has an element loop) */
  int  unrolls[GEN_MAX_UNROLLS];   /* of the kernels' element loops, each once, in kernel order;
                                      the first GEN_MAX_UNROLLS */
} gen_result;

/* Returns GEN_EXIT_OK on success (result, unless NULL, gets what was used),
   GEN_EXIT_BAD_INPUT when the spec has errors (diagnostics written to err, nothing
   written), GEN_EXIT_TOOLCHAIN when rendering or writing failed (message on err). */
int gen_generate(const char *spec_path, const char *out_dir, const gen_options *opt, FILE *err,
                 gen_result *result);

#endif
