/* spawn.h: runs one toolchain program (the compiler, the check harness) without a shell
   and waits for it; for `wherec run` and `wherec check`. */
#ifndef WHEREC_GEN_SPAWN_H
#define WHEREC_GEN_SPAWN_H

/* spawn_run's result when the program could not be started at all. */
enum { SPAWN_NOT_STARTED = -1 };

/* Runs argv (argv[0] searched in PATH, as execvp does) and waits for it.
   log_path: a file (created with mode 0600, truncated) that receives its stdout
   and stderr, or NULL to inherit them. Returns its exit status, 128 + the
   signal that killed it, or SPAWN_NOT_STARTED with errno set when it could not
   be started (no such program, not executable, the log cannot be opened, no
   process to spare) -- so that callers can tell a missing toolchain from a
   failing one. execvp's argv is `char *const[]` for historical reasons; the
   strings are not written. */
int spawn_run(char *const argv[], const char *log_path);

#endif
