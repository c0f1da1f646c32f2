/* check.h: `wherec check`: generate a spec into a temporary directory, build the
   generated code with the check harness and libwherec, run it and report. */
#ifndef WHEREC_GEN_CHECK_H
#define WHEREC_GEN_CHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "base/exit_status.h"

#include "base/limits.h" /* CHECK_MAX_TRIALS */

typedef struct check_options {
  const char *cc;            /* compiler command; NULL: "clang" */
  const char *trials;        /* per kernel, decimal; NULL: the harness's default */
  const char *seed;          /* decimal or 0x; NULL: the harness's default */
  bool        sanitize;      /* build generated code and harness with ASan + UBSan */
  int         unroll;        /* > 0: overrides the spec's unroll option */
  const char *templates_dir; /* NULL: the generator's default */
  const char *cflags;        /* space-separated flags for the generated code; NULL: -O2 */
} check_options;

/* Generates spec_path, builds and runs the harness: its table goes to stdout,
   messages to err. Returns a GEN_EXIT_ status. The temporary directory is removed,
   except after a mismatch or a failed build (its path is printed on err). */
int check_run(const char *spec_path, const check_options *opt, FILE *err);

#endif
