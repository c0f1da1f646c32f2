/* main.c: the `wherec` command line (README, The CLI): gen, check, run and import.
   Parses the arguments of gen and check itself; run and import parse their own (args.h for all). */
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/args.h"
#include "check/check.h"
#include "import/import.h"
#include "run/run.h"
#include "back/driver.h"
#include "front/sema.h"
#include "base/exit_status.h"

#ifndef WHEREC_VERSION
#define WHEREC_VERSION "unknown"
#endif

static const char usage_text[] =
    "usage: wherec gen SPEC -o DIR [--prefix P] [--templates DIR] [--unroll N]\n"
    "       wherec check SPEC [--cc CC] [--cflags FLAGS] [--trials N] [--seed S] [--sanitize]\n"
    "                         [--unroll N] [--templates DIR]\n"
    "       wherec run SPEC KERNEL IN.npy... -o OUT.npy [--interp] [--cc CC]\n"
    "       wherec import MODEL.onnx -o SPEC\n"
    "       wherec --help | --version\n";

static const char help_text[] =
    "wherec: ahead-of-time compiler of fused select (Where) kernels.\n"
    "\n"
    "  gen SPEC -o DIR       write DIR/<prefix>.h and DIR/<prefix>.c (files whose\n"
    "                        content is unchanged are not rewritten)\n"
    "    --prefix P          C prefix of every symbol (default: option prefix, else\n"
    "                        the spec's file name)\n"
    "    --templates DIR     render with the Lua templates in DIR\n"
    "    --unroll N          unroll factor of inner loops, 1..64 (default: option unroll, else 1)\n"
    "\n"
    "  check SPEC            generate, compile with clang, and compare every kernel\n"
    "                        with the reference and the interpreter on random edge-case\n"
    "                        inputs; prints a table\n"
    "    --cc CC             compiler to use (default: clang)\n"
    "    --cflags FLAGS      optimisation flags for the generated code (default: -O2),\n"
    "                        e.g. \"-O3 -march=native\"\n"
    "    --trials N          bindings of the symbolic extents per kernel\n"
    "    --seed S            random seed (decimal or 0x hex)\n"
    "    --sanitize          build with -fsanitize=address,undefined\n"
    "    --unroll N, --templates DIR   as for gen\n"
    "\n"
    "  run SPEC KERNEL IN.npy... -o OUT.npy\n"
    "                        compile the spec (cached by content hash), run KERNEL on\n"
    "                        the .npy inputs and write its output\n"
    "    --interp            run the generic interpreter instead of the compiled kernel\n"
    "    --cc CC             compiler for the cache (default: clang)\n"
    "\n"
    "  import MODEL.onnx -o SPEC\n"
    "                        write a spec of the model's Where / NonZero nodes with\n"
    "                        static shapes, fused with their element-wise producers;\n"
    "                        every node not taken is listed with the reason\n"
    "\n"
    "  The environment variables WHEREC_INCLUDE_DIR, WHEREC_HARNESS and\n"
    "  WHEREC_RUNTIME_LIB point check at the headers, the check harness and libwherec.\n"
    "\n"
    "exit status: 0 ok, 1 errors in the spec, 2 usage, 3 check mismatch, 4 toolchain failure\n";

#if defined(__GNUC__)
__attribute__((format(printf, 1, 2)))
#endif
static int
usage_error(const char *fmt, ...) {
  va_list ap;
  fprintf(stderr, "wherec: ");
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fprintf(stderr, "\n%s", usage_text);
  return GEN_EXIT_USAGE;
}

/* Parses argv[2..argc): the options of one command and exactly one operand.
   Returns -1 when all is well, GEN_EXIT_OK after --help, else GEN_EXIT_USAGE. */
static int parse_args(int argc, char **argv, const args_opt *opts, int n_opts,
                      const char **operand) {
  char msg[256];
  int  n;
  switch (args_parse(argc - 1, argv + 1, opts, n_opts, operand, 1, &n, "one spec only", msg,
                     sizeof msg)) {
  case ARGS_HELP: fputs(help_text, stdout); return GEN_EXIT_OK;
  case ARGS_USAGE: return usage_error("%s: %s", argv[1], msg);
  case ARGS_OK: break;
  }
  if (n == 0) return usage_error("%s: missing SPEC", argv[1]);
  return -1;
}

/* A whole unsigned number (base 10, or 0x hex when `hex`) in [lo, hi]. */
static bool parse_uint(const char *s, bool hex, uint64_t lo, uint64_t hi, uint64_t *v) {
  char *end;
  if (s == NULL || *s < '0' || *s > '9') return false; /* no sign, no space */
  bool is_hex = hex && s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
  *v = strtoull(s, &end, is_hex ? 16 : 10);
  return *end == '\0' && *v >= lo && *v <= hi;
}

/* --unroll's value into *unroll (0 when absent); false when it is not 1..64. */
static bool parse_unroll(const char *s, int *unroll) {
  uint64_t v = 0;
  *unroll = 0;
  if (s == NULL) return true;
  if (!parse_uint(s, false, 1, SEMA_MAX_UNROLL, &v)) return false;
  *unroll = (int)v;
  return true;
}

static int bad_unroll(const char *s) {
  return usage_error("--unroll takes a whole number from 1 to %d, not '%s'", SEMA_MAX_UNROLL, s);
}

static int cmd_gen(int argc, char **argv) {
  const char    *spec, *out = NULL, *unroll = NULL;
  gen_options    g = {NULL, NULL, 0};
  const args_opt opts[] = {
      {"-o", true, &out},
      {"--prefix", true, &g.prefix},
      {"--templates", true, &g.templates_dir},
      {"--unroll", true, &unroll},
  };
  int rc = parse_args(argc, argv, opts, (int)(sizeof opts / sizeof opts[0]), &spec);
  if (rc >= 0) return rc;
  if (out == NULL) return usage_error("%s: missing -o DIR", "gen");
  if (!parse_unroll(unroll, &g.unroll)) return bad_unroll(unroll);
  return gen_generate(spec, out, &g, stderr, NULL);
}

static int cmd_check(int argc, char **argv) {
  const char    *spec, *sanitize = NULL, *unroll = NULL;
  check_options  c = {NULL, NULL, NULL, false, 0, NULL, NULL};
  uint64_t       v;
  const args_opt opts[] = {
      {"--cc", true, &c.cc},
      {"--cflags", true, &c.cflags},
      {"--trials", true, &c.trials},
      {"--seed", true, &c.seed},
      {"--sanitize", false, &sanitize},
      {"--unroll", true, &unroll},
      {"--templates", true, &c.templates_dir},
  };
  int rc = parse_args(argc, argv, opts, (int)(sizeof opts / sizeof opts[0]), &spec);
  if (rc >= 0) return rc;
  if (c.cc && *c.cc == '\0') return usage_error("--cc needs a compiler");
  if (c.trials && !parse_uint(c.trials, false, 1, 1000000, &v))
    return usage_error("--trials takes a whole number from 1 to 1000000, not '%s'", c.trials);
  if (c.seed && !parse_uint(c.seed, true, 0, UINT64_MAX, &v))
    return usage_error("--seed takes an unsigned 64-bit number, not '%s'", c.seed);
  if (!parse_unroll(unroll, &c.unroll)) return bad_unroll(unroll);
  c.sanitize = sanitize != NULL;
  return check_run(spec, &c, stderr);
}

int main(int argc, char **argv) {
  const char *cmd = argc > 1 ? argv[1] : NULL;
  if (cmd == NULL) {
    fputs(usage_text, stderr);
    return GEN_EXIT_USAGE;
  }
  if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0 || strcmp(cmd, "help") == 0) {
    fputs(usage_text, stdout);
    fputs("\n", stdout);
    fputs(help_text, stdout);
    return GEN_EXIT_OK;
  }
  if (strcmp(cmd, "--version") == 0) {
    printf("wherec %s\n", WHEREC_VERSION);
    return GEN_EXIT_OK;
  }
  if (strcmp(cmd, "gen") == 0) return cmd_gen(argc, argv);
  if (strcmp(cmd, "check") == 0) return cmd_check(argc, argv);
  if (strcmp(cmd, "run") == 0) return run_main(argc - 1, argv + 1);
  if (strcmp(cmd, "import") == 0) return import_main(argc - 1, argv + 1);
  return usage_error("unknown command '%s'", cmd);
}
