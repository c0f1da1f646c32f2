/* paths.h: where wherec finds its templates, headers, check harness and libwherec:
   beside an installed executable first (relocatable installs), else in the build tree. */
#ifndef WHEREC_GEN_PATHS_H
#define WHEREC_GEN_PATHS_H

/* Each function looks for the installed file or directory relative to the running
   executable (<exe dir>/../share/wherec/templates and so on, as laid out by
   cmake/install.cmake) and returns its path if it exists there; otherwise it
   returns the build tree's path. Results live in static storage, one buffer per
   function, valid until the next call of the same function. */

/* The Lua templates: installed, else WHEREC_TEMPLATES_DIR (the source tree's). */
const char *gen_default_templates_dir(void);

/* For `wherec check`: <prefix>/include, <prefix>/share/wherec/check/harness.c and
   <prefix>/lib/libwherec.a (or .so), else build_tree (which may be NULL). */
const char *gen_include_dir(const char *build_tree);
const char *gen_harness_source(const char *build_tree);
const char *gen_runtime_lib(const char *build_tree);

/* Any other installed file: rel (relative to the executable's directory) when it is
   there, else build_tree; out holds the path found (PATH_MAX bytes). */
const char *gen_installed_file(const char *rel, const char *build_tree, char *out);
/* The value of the environment variable var when it is set and not empty, else
   found: the one way WHEREC_TEMPLATES, WHEREC_INCLUDE_DIR, WHEREC_HARNESS and
   WHEREC_RUNTIME_LIB override what the functions above find. */
const char *gen_env_or(const char *var, const char *found);

#endif
