/* run.h: `wherec run SPEC KERNEL IN.npy... -o OUT.npy [--interp] [--threads N] [--cc CC]`:
   generate and compile the spec (cached by content hash), load it, run one kernel on .npy files. */
#ifndef WHEREC_GEN_RUN_H
#define WHEREC_GEN_RUN_H

#include "base/exit_status.h"

/* The command: argv[0] is "run", the operands and options follow. Messages go
   to stderr, among them the path that ran ("specialized" or "interpreted").
   Returns a RUN_ exit status. OUT.npy is written only on success, atomically.
   Environment: WHEREC_CACHE_DIR (else $XDG_CACHE_HOME/wherec, else
   ~/.cache/wherec), WHEREC_INCLUDE_DIR, WHEREC_TEMPLATES. */
int run_main(int argc, char **argv);

#endif
