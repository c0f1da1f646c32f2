/* check.c: `wherec check`: spec -> temporary directory -> generated code + harness
   compiled and linked with libwherec -> harness run; every step an argv, no shell. */
#define _POSIX_C_SOURCE 200809L

#include "check/check.h"

#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "back/driver.h"
#include "base/file.h"
#include "base/paths.h"
#include "base/spawn.h"

/* Where the build tree keeps what the harness needs. An installed wherec finds
   its own copies beside its executable (paths.h), and the environment
   overrides both (see gen_env_or). */
#ifndef WHEREC_INCLUDE_DIR
#define WHEREC_INCLUDE_DIR NULL
#endif
#ifndef WHEREC_HARNESS_SOURCE
#define WHEREC_HARNESS_SOURCE NULL
#endif
#ifndef WHEREC_RUNTIME_ARCHIVE
#define WHEREC_RUNTIME_ARCHIVE NULL
#endif
/* libwherec built with sanitizers links only into sanitized programs. */
#ifndef WHEREC_RUNTIME_SANITIZED
#define WHEREC_RUNTIME_SANITIZED 0
#endif

#define CHECK_MAX_ARGS 48
#define CHECK_MAX_DIR  1024 /* the temporary directory's path */
#define CHECK_MAX_PATH 4096 /* everything else: dir + prefix + a suffix fits */

/* An argv under construction. execvp's argv is `char *const[]` for historical
   reasons; the strings are never written, so const is cast away here only. */
typedef struct check_argv {
  char *v[CHECK_MAX_ARGS + 1]; /* NULL-terminated */
  int   n;                     /* arguments given; above CHECK_MAX_ARGS, some did not fit */
} check_argv;

/* Appends s. One that does not fit is still counted, so that build_step
   refuses the argv instead of running it without, say, its "-o" (which would
   write the object file into the working directory). */
static void arg(check_argv *a, const char *s) {
  if (a->n < CHECK_MAX_ARGS) a->v[a->n] = (char *)s;
  a->n++;
  a->v[a->n < CHECK_MAX_ARGS ? a->n : CHECK_MAX_ARGS] = NULL;
}

/* The command as one line a user can paste into a shell. */
static void put_command(FILE *err, char *const argv[]) {
  static const char safe[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                             "0123456789-_=+./,:@%";
  for (int i = 0; argv[i]; i++) {
    const char *s = argv[i];
    bool        plain = *s != '\0';
    for (const char *c = s; *c && plain; c++) plain = strchr(safe, *c) != NULL;
    if (plain) {
      fprintf(err, "%s%s", i ? " " : "  ", s);
      continue;
    }
    fprintf(err, "%s'", i ? " " : "  ");
    for (const char *c = s; *c; c++)
      if (*c == '\'') fputs("'\\''", err);
      else fputc(*c, err);
    fputc('\'', err);
  }
  fputc('\n', err);
}

/* Removes the (flat) temporary directory and what it holds. */
static void remove_dir(const char *dir) {
  DIR           *d = opendir(dir);
  struct dirent *e;
  char           path[CHECK_MAX_PATH];
  if (d == NULL) return;
  while ((e = readdir(d)) != NULL) {
    if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
    snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    unlink(path);
  }
  closedir(d);
  rmdir(dir);
}

typedef enum check_step { STEP_OK, STEP_NO_COMPILER, STEP_FAILED } check_step;

/* Progress on a terminal: when err is stderr and stderr a terminal (not TERM=dumb),
   "wherec check: compiling" while the compiler runs, then the harness (--progress)
   shows kernels done out of the total; each line is erased before anything else is
   written, and nothing is shown otherwise. */
static bool status_shown;

static bool progress_wanted(FILE *err) {
  const char *term = getenv("TERM");
  return err == stderr && isatty(STDERR_FILENO) && !(term && strcmp(term, "dumb") == 0);
}

static void status_show(FILE *err, const char *what) {
  fprintf(err, "\rwherec check: %s\033[K", what);
  fflush(err);
  status_shown = true;
}

static void status_clear(FILE *err) {
  if (!status_shown) return;
  fputs("\r\033[K", err);
  fflush(err);
  status_shown = false;
}

/* One build step: runs argv with its output captured in log; on failure says
   which command failed and shows what the compiler printed. */
static check_step build_step(check_argv *a, const char *what, const char *log, FILE *err) {
  if (a->n > CHECK_MAX_ARGS) {
    status_clear(err);
    fprintf(err, "wherec check: %s needs %d arguments; the limit is %d (fewer --cflags words)\n",
            what, a->n, CHECK_MAX_ARGS);
    return STEP_FAILED;
  }
  int rc = spawn_run(a->v, log);
  if (rc == 0) return STEP_OK;
  status_clear(err);
  if (rc == SPAWN_NOT_STARTED) {
    fprintf(err, "wherec check: cannot run the compiler '%s': %s\n", a->v[0], strerror(errno));
    return STEP_NO_COMPILER;
  }
  fprintf(err, "wherec check: %s failed (exit status %d):\n", what, rc);
  put_command(err, a->v);
  size_t len;
  char  *text = file_read(log, &len, SIZE_MAX);
  if (text && len) fprintf(err, "%s%s", text, text[len - 1] == '\n' ? "" : "\n");
  free(text);
  return STEP_FAILED;
}

/* Standard, warnings and optimisation; cflags (space-separated, NULL: -O2)
   is split into the buffer words, which must outlive the argv. */
static void add_flags(check_argv *a, const char *std, bool werror, bool sanitize,
                      const char *cflags, char *words, size_t cap) {
  arg(a, std);
  arg(a, "-Wall");
  arg(a, "-Wextra");
  if (werror) {
    arg(a, "-Werror");
    arg(a, "-pedantic");
  }
  if (cflags == NULL) arg(a, "-O2");
  else {
    snprintf(words, cap, "%s", cflags);
    for (char *w = strtok(words, " \t"); w; w = strtok(NULL, " \t")) arg(a, w);
  }
  if (sanitize) {
    arg(a, "-fsanitize=address,undefined");
    arg(a, "-fno-sanitize-recover=all");
    arg(a, "-g");
  }
}

/* What the harness needs and where check works; NULL: not found. */
typedef struct check_paths {
  const char *include_dir;          /* the wherec include directory */
  const char *harness_src;          /* harness.c */
  const char *runtime;              /* libwherec (.a or .so) */
  char        dir[CHECK_MAX_DIR];   /* the temporary directory */
  char        src[CHECK_MAX_PATH];  /* generated <prefix>.c */
  char        obj[CHECK_MAX_PATH];  /* its object file */
  char        hobj[CHECK_MAX_PATH]; /* the harness's object file */
  char        exe[CHECK_MAX_PATH];  /* the linked harness */
  char        log[CHECK_MAX_PATH];  /* what the compiler printed */
} check_paths;

/* Finds the include directory, harness and libwherec (environment first);
   false after a message on err naming the first one missing. */
static bool find_inputs(check_paths *p, FILE *err) {
  p->include_dir = gen_env_or("WHEREC_INCLUDE_DIR", gen_include_dir(WHEREC_INCLUDE_DIR));
  p->harness_src = gen_env_or("WHEREC_HARNESS", gen_harness_source(WHEREC_HARNESS_SOURCE));
  p->runtime = gen_env_or("WHEREC_RUNTIME_LIB", gen_runtime_lib(WHEREC_RUNTIME_ARCHIVE));
  const char *missing = !p->include_dir   ? "the wherec include directory (set WHEREC_INCLUDE_DIR)"
                        : !p->harness_src ? "harness.c (set WHEREC_HARNESS)"
                        : !p->runtime     ? "libwherec (set WHEREC_RUNTIME_LIB)"
                        : access(p->harness_src, R_OK) != 0 ? p->harness_src
                        : access(p->runtime, R_OK) != 0     ? p->runtime
                                                            : NULL;
  if (missing) fprintf(err, "wherec check: cannot find %s\n", missing);
  return missing == NULL;
}

/* Makes the temporary directory under TMPDIR (else /tmp); false after a message. */
static bool make_dir(check_paths *p, FILE *err) {
  const char *tmp = getenv("TMPDIR");
  if (tmp == NULL || *tmp == '\0' || strlen(tmp) > CHECK_MAX_DIR - 32) tmp = "/tmp";
  snprintf(p->dir, sizeof p->dir, "%s/wherec-check-XXXXXX", tmp);
  if (mkdtemp(p->dir) != NULL) return true;
  fprintf(err, "wherec check: cannot create a temporary directory: %s\n", strerror(errno));
  return false;
}

/* The generated code compiled as a user would, the harness compiled against
   its header, and both linked with libwherec into p->exe. */
static check_step build(const check_paths *p, const char *prefix, const check_options *opt,
                        bool sanitize, FILE *err) {
  const char *cc = opt->cc ? opt->cc : "clang";
  char        def_table[300], def_header[300], inc_dir[CHECK_MAX_PATH], inc_out[CHECK_MAX_PATH],
      rpath[CHECK_MAX_PATH], cflag_words[CHECK_MAX_PATH];
  check_step step;
  check_argv a;
  snprintf(inc_dir, sizeof inc_dir, "-I%s", p->include_dir);
  snprintf(inc_out, sizeof inc_out, "-I%s", p->dir);
  snprintf(def_table, sizeof def_table, "-DWC_CHECK_TABLE=%s_table", prefix);
  snprintf(def_header, sizeof def_header, "-DWC_CHECK_HEADER=\"%s.h\"", prefix);

  a.n = 0;
  arg(&a, cc);
  add_flags(&a, "-std=c99", true, sanitize, opt->cflags, cflag_words, sizeof cflag_words);
  arg(&a, inc_dir);
  arg(&a, "-c");
  arg(&a, p->src);
  arg(&a, "-o");
  arg(&a, p->obj);
  if ((step = build_step(&a, "compiling the generated code", p->log, err)) != STEP_OK) return step;

  a.n = 0;
  arg(&a, cc);
  add_flags(&a, "-std=c11", false, sanitize, NULL, NULL, 0);
  arg(&a, inc_out);
  arg(&a, inc_dir);
  arg(&a, def_table);
  arg(&a, def_header);
  arg(&a, "-c");
  arg(&a, p->harness_src);
  arg(&a, "-o");
  arg(&a, p->hobj);
  if ((step = build_step(&a, "compiling the check harness", p->log, err)) != STEP_OK) return step;

  a.n = 0;
  arg(&a, cc);
  if (sanitize) arg(&a, "-fsanitize=address,undefined");
  arg(&a, p->hobj);
  arg(&a, p->obj);
  arg(&a, p->runtime);
  arg(&a, "-lm");                  /* the reference in libwherec uses libm (expl) */
  if (strstr(p->runtime, ".so")) { /* a shared libwherec: find it at run time */
    const char *slash = strrchr(p->runtime, '/');
    snprintf(rpath, sizeof rpath, "-Wl,-rpath,%.*s", slash ? (int)(slash - p->runtime) : 1,
             slash ? p->runtime : ".");
    arg(&a, rpath);
  }
  arg(&a, "-o");
  arg(&a, p->exe);
  return build_step(&a, "linking the check harness", p->log, err);
}

/* Runs the harness on the unroll factors the generator used (it straddles
   each with its extents) and turns its exit status into check's. */
static int run_harness(const check_paths *p, const gen_result *g, const check_options *opt,
                       bool progress, FILE *err) {
  char       unroll_text[GEN_MAX_UNROLLS][16];
  check_argv a;
  a.n = 0;
  arg(&a, p->exe);
  if (opt->trials) {
    arg(&a, "--trials");
    arg(&a, opt->trials);
  }
  if (opt->seed) {
    arg(&a, "--seed");
    arg(&a, opt->seed);
  }
  for (int i = 0; i < g->n_unrolls; i++) {
    snprintf(unroll_text[i], sizeof unroll_text[i], "%d", g->unrolls[i]);
    arg(&a, "--unroll");
    arg(&a, unroll_text[i]);
  }
  if (progress) arg(&a, "--progress");
  int rc = spawn_run(a.v, NULL); /* the harness shares stdout */
  if (progress && rc != 0) fputs("\r\033[K", err); /* a crash may leave its line shown */
  if (rc == 0) {
    remove_dir(p->dir);
    return GEN_EXIT_OK;
  }
  if (rc == GEN_EXIT_MISMATCH) {
    fprintf(err, "wherec check: mismatch; generated code and harness kept in %s\n", p->dir);
    return GEN_EXIT_MISMATCH;
  }
  if (rc == SPAWN_NOT_STARTED || rc == GEN_EXIT_USAGE) {
    fprintf(err, "wherec check: cannot run the harness %s: %s\n", p->exe,
            rc == SPAWN_NOT_STARTED ? strerror(errno) : "it rejected its arguments");
    fprintf(err, "wherec check: kept %s\n", p->dir);
    return GEN_EXIT_TOOLCHAIN;
  }
  /* a crash or a sanitizer report: the generated code is the likely cause */
  fprintf(err, "wherec check: the harness failed (%s %d); see its report above\n",
          rc > 128 ? "signal" : "exit status", rc > 128 ? rc - 128 : rc);
  fprintf(err, "wherec check: generated code and harness kept in %s\n", p->dir);
  return GEN_EXIT_MISMATCH;
}

int check_run(const char *spec_path, const check_options *opt, FILE *err) {
  bool        sanitize = opt->sanitize || WHEREC_RUNTIME_SANITIZED;
  check_paths p;
  gen_result  g;

  if (!find_inputs(&p, err)) return GEN_EXIT_TOOLCHAIN;
  if (opt->cflags && strlen(opt->cflags) >= CHECK_MAX_PATH) {
    /* refused whole rather than cut, possibly inside a flag */
    fprintf(err, "wherec check: --cflags is longer than %d bytes\n", CHECK_MAX_PATH - 1);
    return GEN_EXIT_TOOLCHAIN;
  }
  if (!make_dir(&p, err)) return GEN_EXIT_TOOLCHAIN;

  gen_options gopt = {NULL, opt->templates_dir, opt->unroll};
  int         rc = gen_generate(spec_path, p.dir, &gopt, err, &g);
  if (rc != 0) {
    remove_dir(p.dir);
    return rc == GEN_EXIT_BAD_INPUT ? GEN_EXIT_BAD_INPUT : GEN_EXIT_TOOLCHAIN;
  }
  snprintf(p.src, sizeof p.src, "%s/%s.c", p.dir, g.prefix);
  snprintf(p.obj, sizeof p.obj, "%s/%s.o", p.dir, g.prefix);
  /* not C identifiers, so no spec's prefix (<prefix>.o) can name the same files */
  snprintf(p.hobj, sizeof p.hobj, "%s/check-harness.o", p.dir);
  snprintf(p.exe, sizeof p.exe, "%s/check-harness", p.dir);
  snprintf(p.log, sizeof p.log, "%s/cc-log.txt", p.dir);

  bool progress = progress_wanted(err);
  if (progress) status_show(err, "compiling");
  check_step step = build(&p, g.prefix, opt, sanitize, err);
  status_clear(err);
  if (step == STEP_OK) return run_harness(&p, &g, opt, progress, err);
  if (step == STEP_NO_COMPILER) remove_dir(p.dir); /* nothing there to debug */
  else fprintf(err, "wherec check: generated code kept in %s\n", p.dir);
  return GEN_EXIT_TOOLCHAIN;
}
