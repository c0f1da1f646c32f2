/* verify.c: `wherec import --verify`: finds verify.py and a python with onnxruntime, runs
   the script on what import wrote, and maps its exit status to wherec's. */
#undef _POSIX_C_SOURCE
#define _XOPEN_SOURCE 700 /* realpath, readlink */
#include "import/verify.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/exit_status.h"
#include "base/paths.h"
#include "base/spawn.h"

#ifndef WHEREC_VERIFY_SOURCE
#define WHEREC_VERIFY_SOURCE "gen/import/verify.py"
#endif
#ifndef WHEREC_REL_VERIFY
#define WHEREC_REL_VERIFY "../share/wherec/import/verify.py"
#endif

/* The running executable's directory joined with rel, when that file exists; else NULL. */
static const char *installed(const char *rel, char *out) {
  char    exe[PATH_MAX], joined[PATH_MAX + 8];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (n <= 0 || (size_t)n >= sizeof exe - 1) return NULL;
  exe[n] = '\0';
  char *slash = strrchr(exe, '/');
  if (slash == NULL) return NULL;
  *slash = '\0';
  if (snprintf(joined, sizeof joined, "%s/%s", exe, rel) >= (int)sizeof joined) return NULL;
  return realpath(joined, out) && access(out, R_OK) == 0 ? out : NULL;
}

/* The wherec the script runs kernels with: this very executable. */
static const char *self_path(char *out) {
  ssize_t n = readlink("/proc/self/exe", out, PATH_MAX - 1);
  if (n <= 0 || n >= PATH_MAX - 1) return "wherec";
  out[n] = '\0';
  return out;
}

int import_verify(const char *model, const char *spec, const char *manifest,
                  const import_verify_options *o) {
  char         script_buf[PATH_MAX], exe[PATH_MAX];
  const char  *found = installed(WHEREC_REL_VERIFY, script_buf);
  const char  *script = gen_env_or("WHEREC_VERIFY_SCRIPT", found ? found : WHEREC_VERIFY_SOURCE);
  const char  *python = gen_env_or("WHEREC_ORT_PYTHON", "python3");
  int          n_in = o && o->inputs ? o->n_inputs : 0;
  const char **argv = calloc((size_t)n_in * 2 + 16, sizeof *argv);
  if (argv == NULL) {
    fprintf(stderr, "wherec: error: out of memory\n");
    return GEN_EXIT_TOOLCHAIN;
  }
  int k = 0;
  argv[k++] = python;
  argv[k++] = script;
  argv[k++] = "--wherec";
  argv[k++] = self_path(exe);
  argv[k++] = "--model";
  argv[k++] = model;
  argv[k++] = "--spec";
  argv[k++] = spec;
  argv[k++] = "--manifest";
  argv[k++] = manifest;
  if (o && o->seed) {
    argv[k++] = "--seed";
    argv[k++] = o->seed;
  }
  for (int i = 0; i < n_in; i++) {
    argv[k++] = "--input";
    argv[k++] = o->inputs[i];
  }
  fflush(stdout);
  fflush(stderr);
  int rc = spawn_run((char *const *)argv, NULL);
  free(argv);
  if (rc == SPAWN_NOT_STARTED) {
    fprintf(stderr,
            "wherec: error: --verify cannot start %s (%s): set WHEREC_ORT_PYTHON to a "
            "python with onnxruntime, onnx and numpy\n",
            python, strerror(errno));
    return GEN_EXIT_TOOLCHAIN;
  }
  switch (rc) {
  case GEN_EXIT_OK:
  case GEN_EXIT_BAD_INPUT:
  case GEN_EXIT_MISMATCH:
  case GEN_EXIT_TOOLCHAIN: return rc;
  default:
    fprintf(stderr, "wherec: error: --verify: %s %s failed (status %d)\n", python, script, rc);
    return GEN_EXIT_TOOLCHAIN;
  }
}
