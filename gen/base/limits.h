/* limits.h: the bounds of command-line values that a layer enforces and the
   command line (base/cli.c) states in its help, here so that the command line
   sits in base/ without reading the layers above it. */
#ifndef WHEREC_GEN_LIMITS_H
#define WHEREC_GEN_LIMITS_H

#define SEMA_MAX_UNROLL  64      /* option unroll takes 1 .. SEMA_MAX_UNROLL (front/sema.c) */
#define CHECK_MAX_TRIALS 1000000 /* the harness takes --trials 1 .. this (check/harness.c) */
#define RUN_MAX_THREADS  256     /* threads a run takes at most (--threads, run/run.c) */

#endif
