/* ort.c: `wherec import --ort DIR` (ort.h): import, gen, the compiler, then measure.py,
   each step's failure reported with what it was doing. */
#include "ort/ort.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "back/driver.h"
#include "base/exit_status.h"
#include "base/paths.h"
#include "base/spawn.h"

#ifndef WHEREC_MEASURE_SOURCE
#define WHEREC_MEASURE_SOURCE "gen/ort/measure.py"
#endif
#ifndef WHEREC_REL_MEASURE
#define WHEREC_REL_MEASURE "../share/wherec/ort/measure.py"
#endif
#ifndef WHEREC_EP_BUILT
#define WHEREC_EP_BUILT "libwherec_ep.so"
#endif
#ifndef WHEREC_REL_EP
#define WHEREC_REL_EP "../lib/libwherec_ep.so"
#endif

#define MAX_ARGS 64

static const char *join(char *out, const char *dir, const char *file) {
  snprintf(out, PATH_MAX, "%s/%s", dir, file);
  return out;
}

/* Compiles DIR/kernels.c into DIR/kernels.so, through a temporary name. */
static int compile(const char *dir, const ort_options *o) {
  char        src[PATH_MAX], lib[PATH_MAX], tmp[PATH_MAX + 16], inc[PATH_MAX + 4], flags[1024];
  const char *include = gen_env_or("WHEREC_INCLUDE_DIR", gen_include_dir(WHEREC_INCLUDE_DIR));
  char       *argv[MAX_ARGS];
  int         k = 0;
  snprintf(inc, sizeof inc, "-I%s", include);
  snprintf(tmp, sizeof tmp, "%s.tmp%ld", join(lib, dir, ORT_LIBRARY), (long)getpid());
  snprintf(flags, sizeof flags, "%s", o->cflags ? o->cflags : "-O3 -march=native");
  argv[k++] = (char *)(o->cc ? o->cc : "clang");
  argv[k++] = "-std=c99";
  for (char *f = strtok(flags, " \t"); f && k < MAX_ARGS - 8; f = strtok(NULL, " \t")) argv[k++] = f;
  argv[k++] = "-fPIC";
  argv[k++] = "-shared";
  argv[k++] = inc;
  argv[k++] = "-o";
  argv[k++] = tmp;
  argv[k++] = (char *)join(src, dir, ORT_PREFIX ".c");
  argv[k] = NULL;
  int rc = spawn_run(argv, NULL);
  if (rc != 0) {
    unlink(tmp);
    if (rc == SPAWN_NOT_STARTED)
      fprintf(stderr, "wherec: error: cannot start the compiler %s (%s): give one with --cc\n", argv[0],
              strerror(errno));
    else fprintf(stderr, "wherec: error: %s failed on %s (status %d)\n", argv[0], src, rc);
    return GEN_EXIT_TOOLCHAIN;
  }
  if (rename(tmp, lib) != 0) {
    fprintf(stderr, "wherec: error: cannot write %s: %s\n", lib, strerror(errno));
    unlink(tmp);
    return GEN_EXIT_TOOLCHAIN;
  }
  fprintf(stderr, "wherec: wrote %s\n", lib);
  return GEN_EXIT_OK;
}

static const char *measure_script(char *buf) {
  return gen_env_or("WHEREC_MEASURE_SCRIPT", gen_installed_file(WHEREC_REL_MEASURE, WHEREC_MEASURE_SOURCE, buf));
}

/* DIR/model.basic.onnx: the model after onnxruntime's basic rewrites (measure.py
   --optimize), the graph GetCapability is handed; NULL (with a warning) when no python with
   onnxruntime can make it, and the model is imported as it is. */
static const char *optimized(const char *model, const char *dir, char *out) {
  char        script_buf[PATH_MAX];
  const char *python = gen_env_or("WHEREC_ORT_PYTHON", "python3");
  const char *argv[] = {python, measure_script(script_buf), "--model", model, "--optimize",
                        join(out, dir, "model.basic.onnx"), NULL};
  int rc = spawn_run((char *const *)argv, NULL);
  if (rc == 0) return out;
  fprintf(stderr, "wherec: warning: %s %s --optimize %s: the model is imported as it is, so the "
                  "regions onnxruntime's basic rewrites change (a BatchNormalization after a Conv, "
                  "an Identity) are not found in its session\n",
          python, argv[1], rc == SPAWN_NOT_STARTED ? "could not start" : "failed");
  return NULL;
}

/* Runs measure.py on DIR; a python that cannot run it leaves the regions untimed. */
static int measure(const char *model, const char *dir, const ort_options *o) {
  char        script_buf[PATH_MAX], ep_buf[PATH_MAX];
  const char *script = measure_script(script_buf);
  const char *ep = gen_env_or("WHEREC_EP_LIBRARY", gen_installed_file(WHEREC_REL_EP, WHEREC_EP_BUILT, ep_buf));
  const char *python = gen_env_or("WHEREC_ORT_PYTHON", "python3");
  const char *argv[MAX_ARGS + 8];
  int         k = 0;
  argv[k++] = python;
  argv[k++] = script;
  argv[k++] = "--model";
  argv[k++] = model;
  argv[k++] = "--dir";
  argv[k++] = dir;
  argv[k++] = "--ep-library";
  argv[k++] = ep;
  if (o->import.seed) {
    argv[k++] = "--seed";
    argv[k++] = o->import.seed;
  }
  for (int i = 0; o->import.inputs && i < o->import.n_inputs && k < MAX_ARGS; i++) {
    argv[k++] = "--input";
    argv[k++] = o->import.inputs[i];
  }
  argv[k] = NULL;
  int rc = spawn_run((char *const *)argv, NULL);
  if (rc == 0) return GEN_EXIT_OK;
  if (rc == SPAWN_NOT_STARTED || rc == GEN_EXIT_TOOLCHAIN) {
    fprintf(stderr, "wherec: warning: the regions were not timed (%s %s %s): the execution "
                    "provider's default policy claims none of them, claim=all claims every one; "
                    "set WHEREC_ORT_PYTHON to a python with onnxruntime (>= 1.23), onnx and numpy\n",
            python, script, rc == SPAWN_NOT_STARTED ? "could not start" : "has no onnxruntime");
    return GEN_EXIT_OK;
  }
  fprintf(stderr, "wherec: error: %s %s failed (status %d)\n", python, script, rc);
  return rc == GEN_EXIT_BAD_INPUT ? GEN_EXIT_BAD_INPUT : GEN_EXIT_TOOLCHAIN;
}

int ort_build(const char *model, const char *dir, const ort_options *o) {
  char spec[PATH_MAX], manifest[PATH_MAX], basic[PATH_MAX];
  if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
    fprintf(stderr, "wherec: error: cannot make the directory %s: %s\n", dir, strerror(errno));
    return GEN_EXIT_BAD_INPUT;
  }
  if (access(model, R_OK) != 0) {
    fprintf(stderr, "wherec: error: cannot read %s: %s\n", model, strerror(errno));
    return GEN_EXIT_BAD_INPUT;
  }
  const char *seen = optimized(model, dir, basic);
  if (seen) model = seen;
  import_options io = o->import;
  io.manifest = join(manifest, dir, ORT_MANIFEST);
  io.verify = false;
  join(spec, dir, ORT_SPEC);
  unlink(spec); /* a kernel-less import writes none: an older one must not pass for it */
  int rc = import_command(model, spec, &io);
  if (rc != GEN_EXIT_OK) return rc;
  if (access(spec, R_OK) != 0) {
    fprintf(stderr, "wherec: error: %s has no region wherec can run: nothing for onnxruntime\n", model);
    return GEN_EXIT_BAD_INPUT;
  }
  gen_options g = {.prefix = ORT_PREFIX};
  rc = gen_generate(spec, dir, &g, stderr, NULL);
  if (rc != GEN_EXIT_OK) return rc;
  rc = compile(dir, o);
  if (rc != GEN_EXIT_OK) return rc;
  return measure(model, dir, o);
}
