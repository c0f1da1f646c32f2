/* exit_status.h: the exit statuses of every wherec command and of the check harness
   (README, The CLI); one list, so `wherec`, its commands and the harness agree. */
#ifndef WHEREC_GEN_EXIT_STATUS_H
#define WHEREC_GEN_EXIT_STATUS_H

/* C99: the check harness (installed beside this header) includes it as well. */
typedef enum gen_exit {
  GEN_EXIT_OK = 0,        /* done; check: every kernel matched the reference */
  GEN_EXIT_BAD_INPUT = 1, /* diagnostics: a bad spec, model or .npy file */
  GEN_EXIT_USAGE = 2,     /* a bad command line */
  GEN_EXIT_MISMATCH = 3,  /* check: a kernel disagreed with the reference */
  GEN_EXIT_TOOLCHAIN = 4  /* the compiler, the harness or the file system failed */
} gen_exit;

#endif
