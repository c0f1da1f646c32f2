/* run.h: `wherec run`: generate and compile a spec (cached by content hash), load it,
   and run one kernel on .npy files, on the calling thread or split over a pool. */
#ifndef WHEREC_GEN_RUN_H
#define WHEREC_GEN_RUN_H

#include <stdbool.h>

#include "base/exit_status.h"

#include "base/limits.h" /* RUN_MAX_THREADS */

typedef struct run_options {
  const char        *spec;   /* SPEC */
  const char        *kernel; /* KERNEL */
  const char *const *inputs; /* IN.npy paths, in parameter order */
  int                n_inputs;
  const char *const *outs;    /* OUT.npy paths, one per output of the kernel, in order */
  int                n_outs;
  const char        *cc;      /* compiler command; NULL: "clang" */
  bool               interp;  /* the interpreter instead of the compiled kernel */
  int                threads; /* 1 .. RUN_MAX_THREADS; below 2: the calling thread only */
} run_options;

/* The command. Messages go to stderr, among them the path that ran ("specialized"
   or "interpreted"). Returns a GEN_EXIT_ status. OUT.npy is written only on
   success, atomically. Environment: WHEREC_CACHE_DIR (else $XDG_CACHE_HOME/wherec,
   else ~/.cache/wherec), WHEREC_INCLUDE_DIR, WHEREC_TEMPLATES. */
int run_command(const run_options *o);

#endif
