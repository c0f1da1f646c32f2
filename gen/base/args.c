/* args.c: the command-line grammar of every wherec command (see args.h); gen/base/cli.c
   parses each command with it from the one table of options. */
#include "base/args.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
static args_result
usage(char *msg, size_t cap, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  if (cap) vsnprintf(msg, cap, fmt, ap);
  va_end(ap);
  return ARGS_USAGE;
}

args_result args_parse(int argc, char **argv, const args_opt *opts, int n_opts,
                       const char **operands, int max_operands, int *n_operands,
                       const char *one_only, char *msg, size_t cap) {
  bool options_done = false;
  *n_operands = 0;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!options_done && (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0)) return ARGS_HELP;
    if (!options_done && strcmp(a, "--") == 0) {
      options_done = true;
      continue;
    }
    if (options_done || a[0] != '-' || a[1] == '\0') { /* "-" alone is an operand */
      if (*n_operands == max_operands)
        return usage(msg, cap, "%s", one_only ? one_only : "too many operands");
      operands[(*n_operands)++] = a;
      continue;
    }
    const char     *eq = strncmp(a, "--", 2) == 0 ? strchr(a, '=') : NULL;
    size_t          len = eq ? (size_t)(eq - a) : strlen(a);
    const args_opt *o = NULL;
    for (int k = 0; k < n_opts && !o; k++)
      if (strlen(opts[k].name) == len && strncmp(opts[k].name, a, len) == 0) o = &opts[k];
    if (o == NULL) return usage(msg, cap, "unknown option '%.*s'", (int)len, a);
    if (!o->has_value) {
      if (eq) return usage(msg, cap, "option '%s' takes no value", o->name);
      *o->value = "1";
    } else if (eq) {
      *o->value = eq + 1;
    } else if (i + 1 < argc) {
      *o->value = argv[++i];
    } else {
      return usage(msg, cap, "option '%s' needs a value", o->name);
    }
    if (o->all) o->all[(*o->n_all)++] = *o->value;
  }
  return ARGS_OK;
}
