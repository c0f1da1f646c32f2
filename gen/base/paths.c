/* paths.c: where wherec finds its templates, headers, check harness and libwherec:
   relative to its own executable when installed (via /proc/self/exe), else the build tree. */
#define _XOPEN_SOURCE 700 /* realpath, readlink */
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/paths.h"

/* The build tree's templates (gen/CMakeLists.txt and cmake/install.cmake define it). */
#ifndef WHEREC_TEMPLATES_DIR
#define WHEREC_TEMPLATES_DIR "templates"
#endif

/* The installed layout, relative to the directory of the installed executable.
   cmake/install.cmake computes these from GNUInstallDirs; the defaults are the
   layout of the default install directories. */
#ifndef WHEREC_REL_TEMPLATES
#define WHEREC_REL_TEMPLATES "../share/wherec/templates"
#endif
#ifndef WHEREC_REL_INCLUDE
#define WHEREC_REL_INCLUDE "../include"
#endif
#ifndef WHEREC_REL_HARNESS
#define WHEREC_REL_HARNESS "../share/wherec/check/harness.c"
#endif
#ifndef WHEREC_REL_RUNTIME
#define WHEREC_REL_RUNTIME "../lib/libwherec.a"
#endif

/* rel resolved against the running executable's directory, canonical (no "..",
   no symbolic links), into out[PATH_MAX]; NULL if it does not exist or the
   executable cannot be found. /proc/self/exe names the real file behind any
   symbolic link, so a wherec linked into another bin/ still finds its own tree.
   An absolute rel (an install directory configured as an absolute path) is
   taken as it is. */
static const char *beside_exe(const char *rel, char *out) {
  char exe[PATH_MAX], joined[PATH_MAX];
  if (rel[0] == '/') return realpath(rel, out);
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (n <= 0 || (size_t)n >= sizeof exe - 1) return NULL;
  exe[n] = '\0';
  char *slash = strrchr(exe, '/');
  if (slash == NULL) return NULL;
  *slash = '\0'; /* "/wherec" leaves "": the root */
  if (snprintf(joined, sizeof joined, "%s/%s", exe, rel) >= (int)sizeof joined) return NULL;
  return realpath(joined, out);
}

static bool is_dir(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static bool is_readable_file(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, R_OK) == 0;
}

const char *gen_default_templates_dir(void) {
  static char buf[PATH_MAX];
  const char *p = beside_exe(WHEREC_REL_TEMPLATES, buf);
  return p && is_dir(p) ? p : WHEREC_TEMPLATES_DIR;
}

/* An include directory counts only if it holds our headers: <prefix>/include
   exists on most systems whether or not wherec was installed there. */
const char *gen_include_dir(const char *build_tree) {
  static char buf[PATH_MAX];
  char        probe[PATH_MAX + 32];
  const char *p = beside_exe(WHEREC_REL_INCLUDE, buf);
  if (p == NULL) return build_tree;
  snprintf(probe, sizeof probe, "%s/wherec/wherec.h", p);
  return is_readable_file(probe) ? p : build_tree;
}

const char *gen_harness_source(const char *build_tree) {
  static char buf[PATH_MAX];
  const char *p = beside_exe(WHEREC_REL_HARNESS, buf);
  return p && is_readable_file(p) ? p : build_tree;
}

const char *gen_runtime_lib(const char *build_tree) {
  static char buf[PATH_MAX];
  const char *p = beside_exe(WHEREC_REL_RUNTIME, buf);
  return p && is_readable_file(p) ? p : build_tree;
}

const char *gen_installed_file(const char *rel, const char *build_tree, char *out) {
  const char *p = beside_exe(rel, out);
  return p && is_readable_file(p) ? p : build_tree;
}

const char *gen_env_or(const char *var, const char *found) {
  const char *v = getenv(var);
  return v && *v ? v : found;
}
