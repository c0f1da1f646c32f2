/* spawn.c: fork and execvp with a close-on-exec pipe that carries execvp's errno back,
   so that "could not start" never looks like an exit status; output to a log or inherited. */
#define _POSIX_C_SOURCE 200809L

#include "base/spawn.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

/* Closes fd without disturbing errno, which still describes the failure being reported. */
static void spawn_close(int fd) {
  int saved = errno;
  if (fd >= 0) close(fd);
  errno = saved;
}

/* The child's side: output to log_fd (if any), then execvp. Only async-signal-safe
   calls between fork and exec. On failure the errno goes up the pipe and the
   child exits without running anything of the parent's (no atexit, no stdio). */
static void spawn_child(char *const argv[], int log_fd, int report_fd) {
  int err;
  if (log_fd < 0 || (dup2(log_fd, 1) >= 0 && dup2(log_fd, 2) >= 0)) execvp(argv[0], argv);
  err = errno;
  if (write(report_fd, &err, sizeof err) != (ssize_t)sizeof err) _exit(126);
  _exit(127);
}

int spawn_run(char *const argv[], const char *log_path) {
  int     report[2], log_fd = -1, status, err = 0;
  ssize_t got;
  pid_t   pid;
  if (log_path && (log_fd = open(log_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600)) < 0)
    return SPAWN_NOT_STARTED;
  if (pipe(report) != 0) {
    spawn_close(log_fd);
    return SPAWN_NOT_STARTED;
  }
  if (fcntl(report[1], F_SETFD, FD_CLOEXEC) != 0) {
    spawn_close(report[0]);
    spawn_close(report[1]);
    spawn_close(log_fd);
    return SPAWN_NOT_STARTED;
  }
  fflush(NULL); /* what we printed comes before what the child prints */
  if ((pid = fork()) < 0) {
    spawn_close(report[0]);
    spawn_close(report[1]);
    spawn_close(log_fd);
    return SPAWN_NOT_STARTED;
  }
  if (pid == 0) {
    close(report[0]);
    spawn_child(argv, log_fd, report[1]);
  }
  close(report[1]);
  if (log_fd >= 0) close(log_fd);
  /* end of file: exec succeeded (the write end closed on exec); an int: execvp's errno */
  while ((got = read(report[0], &err, sizeof err)) < 0 && errno == EINTR) {}
  close(report[0]);
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) return SPAWN_NOT_STARTED;
  if (got == (ssize_t)sizeof err) {
    errno = err;
    return SPAWN_NOT_STARTED;
  }
  /* without WUNTRACED waitpid reports only children that exited or were killed */
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
