/* cli.c: the command line of `wherec` (see cli.h): the table of commands and options, and
   what is generated from it: each command's parsing (args.h's grammar), usage and help. */
#include "base/cli.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "base/args.h"
#include "base/exit_status.h"
#include "base/limits.h"

#ifndef WHEREC_VERSION
#define WHEREC_VERSION "unknown"
#endif

#define GEN    CLI_TAKES(CLI_GEN)
#define CHECK  CLI_TAKES(CLI_CHECK)
#define RUN    CLI_TAKES(CLI_RUN)
#define IMPORT CLI_TAKES(CLI_IMPORT)
#define ALL    (GEN | CHECK | RUN | IMPORT)

/* clang-format off */
const cli_command_row cli_commands[CLI_N_COMMANDS] = {
  [CLI_GEN] = {"gen", {"SPEC"},
    "write DIR/<prefix>.h and DIR/<prefix>.c, the C of SPEC's kernels",
    "Checks SPEC and writes DIR/<prefix>.h and DIR/<prefix>.c: deterministic bytes, "
    "rewritten only when their content changes (temporary file, then rename); on any "
    "error nothing in DIR changes. The prefix is --prefix, else the spec's option prefix, "
    "else its file name, and must be a C identifier."},
  [CLI_CHECK] = {"check", {"SPEC"},
    "generate, compile and compare every kernel with the reference and the interpreter",
    "Generates SPEC into a temporary directory (under $TMPDIR), compiles it strictly "
    "(-std=c99 -Wall -Wextra -Werror -pedantic, then --cflags) with clang or CC, and runs "
    "every kernel on random inputs full of NaNs, infinities, -0.0, subnormals, integer "
    "extremes and empty strings, at extents around the unroll factor and zero. It compares, "
    "bit for bit, the direct call, the call split into ranges, wc_run (specialized and "
    "interpreted), the interpreter and the reference, and prints a table; on a mismatch it "
    "names the kernel, index, inputs, expected and got, and exits 3. When stderr is a "
    "terminal, it shows there the kernels done out of the total, erased at the end; "
    "otherwise it prints nothing more."},
  [CLI_RUN] = {"run", {"SPEC", "KERNEL", "IN.npy..."},
    "compile SPEC (cached) and run KERNEL on .npy files",
    "Generates SPEC, compiles it with clang or CC (-std=c99 -O2 -fPIC -shared) into a "
    "shared object cached by content hash, loads it and runs KERNEL on the .npy inputs "
    "(one per parameter, in order, each of its dtype and shape). "
    "Writes OUT.npy, only on success and atomically, and says which path ran "
    "(specialized or interpreted)."},
  [CLI_IMPORT] = {"import", {"MODEL.onnx"},
    "write a spec of an ONNX model's element-wise regions; dim_params become symbolic "
    "extents",
    "Reads MODEL.onnx (its own protobuf reader) and writes SPEC, a .where spec with one "
    "kernel per maximal element-wise region of the graph: selects (Where, NonZero), "
    "comparisons, logic, arithmetic, activations and casts, each node fused into its one "
    "consumer; a value read by several nodes, by a node that is not element-wise, by a "
    "sub-graph (If, Loop, Scan) or by the graph's outputs ends a kernel. Dtypes and shapes "
    "come from the model's inputs, initializers and value infos, else from each operator's "
    "rule: fixed dimensions stay fixed, and every named dimension (dim_param) becomes a "
    "symbolic extent, bound when the kernel is called. One-element constants become "
    "literals, other constants parameters. Each kernel is checked by the spec front end "
    "before it is written. stderr lists every kernel with the nodes it holds and every "
    "node not taken, with the reason. Beside SPEC goes a JSON manifest (SPEC.json, or "
    "--manifest FILE) that names, per kernel, the ONNX nodes it replaces and the graph "
    "tensor bound to each parameter and output. Both are written atomically, and only "
    "when at least one kernel was imported. --verify then runs the model in onnxruntime "
    "and each kernel on the model's own tensors, on both paths, and prints a table: "
    "bit-exact, or the largest ulp distance and the operators onnxruntime approximates; "
    "that half is a Python script (verify.py) run with $WHEREC_ORT_PYTHON, which needs "
    "onnxruntime, onnx and numpy. It exits 3 when a kernel of exact operators differs."},
};

const cli_option_row cli_options[CLI_N_OPTIONS] = {
  [CLI_OUT_DIR]   = {"-o", "DIR", GEN, true, CLI_WORD, 0, 0,
                     "the directory to write into"},
  [CLI_OUT_NPY]   = {"-o", "OUT.npy", RUN, true, CLI_WORDS, 0, 0,
                     "the .npy file to write the kernel's output to; a kernel with several "
                     "outputs takes one -o per output, in the order the spec names them"},
  [CLI_OUT_SPEC]  = {"-o", "SPEC", IMPORT, false, CLI_WORD, 0, 0,
                     "the spec to write (this or --ort DIR is required)"},
  [CLI_MANIFEST]  = {"--manifest", "FILE", IMPORT, false, CLI_WORD, 0, 0,
                     "the JSON manifest to write: per kernel its ONNX nodes and the graph "
                     "tensor of each parameter and output (default: SPEC.json)"},
  [CLI_VERIFY]    = {"--verify", NULL, IMPORT, false, CLI_FLAG, 0, 0,
                     "then run the model in onnxruntime and every kernel on its tensors, on "
                     "both paths, and print how each compares (a python script, verify.py, "
                     "run with $WHEREC_ORT_PYTHON)"},
  [CLI_INPUT_NPY] = {"--input", "IN.npy", IMPORT, false, CLI_WORDS, 0, 0,
                     "with --verify or --ort: the model's inputs, one per graph input in "
                     "order (default: made from --seed)"},
  [CLI_BAKE_LIMIT] = {"--bake-limit", "BYTES", IMPORT, false, CLI_NUMBER, 0, (int64_t)1 << 30,
                      "initializers a kernel reads of at most BYTES become constants baked "
                      "into the generated C; larger ones (or with an element that has no "
                      "exact literal) stay parameters; 0: none (default 65536)"},
  [CLI_ORT]       = {"--ort", "DIR", IMPORT, false, CLI_WORD, 0, 0,
                     "write into DIR what onnxruntime needs to run the model's regions as "
                     "wherec kernels (kernels.where, its manifest kernels.where.json and "
                     "the compiled kernels.so), then time each region against onnxruntime "
                     "and record in the manifest which are faster (measure.py, run with "
                     "$WHEREC_ORT_PYTHON; --input gives the shapes to time at); the "
                     "execution provider (docs/onnxruntime.md) claims those"},
  [CLI_LIST_OPERATORS] = {"--list-operators", NULL, IMPORT, false, CLI_FLAG, 0, 0,
                          "print the ONNX operators import takes, one JSON object each (its "
                          "since-versions, inputs, dtypes, attributes, type and shape rule, "
                          "formula or builder, and how onnxruntime compares), and exit; no "
                          "MODEL.onnx"},
  [CLI_DIM] = {"--dim", "NAME=N", IMPORT, false, CLI_WORDS, 0, 0,
               "fix the model's dim_param NAME to the extent N (N > 0; once or more): its "
               "kernels are specialized to it, and what depends on it (an If on the batch size) "
               "is decided at import"},
  [CLI_LITERAL_ACTS] = {"--literal-activations", NULL, IMPORT, false, CLI_FLAG, 0, 0,
                        "write Softplus, Mish, Elu, Selu, Celu, Softsign, Gelu, x * Sigmoid(x) "
                        "and PyTorch's x * (erf(x / sqrt(2)) + 1) * 0.5 as ONNX's formulas "
                        "(log(exp(x) + 1), alpha * (exp(x) - 1), ...: each step rounded) "
                        "instead of the correctly rounded softplus, mish, expm1, selu, "
                        "softsign, silu and gelu"},
  [CLI_SHAPES] = {"--shapes", NULL, IMPORT, false, CLI_FLAG, 0, 0,
                  "print the dtype and shape inference gives every value of the model's graph, "
                  "as JSON (an extent is a number, its dim_param's name, or null where "
                  "inference made it up), and exit; no spec"},
  [CLI_PREFIX]    = {"--prefix", "P", GEN, false, CLI_WORD, 0, 0,
                     "C prefix of every symbol (default: the spec's option prefix, else its "
                     "file name)"},
  [CLI_INTERP]    = {"--interp", NULL, RUN, false, CLI_FLAG, 0, 0,
                     "run the generic interpreter instead of the compiled kernel"},
  [CLI_THREADS]   = {"--threads", "N", RUN, false, CLI_NUMBER, 1, RUN_MAX_THREADS,
                     "split a large call (1 MiB of output or more) over N threads with "
                     "wc_set_parallel (default 1); every N gives the same bytes"},
  [CLI_CC]        = {"--cc", "CC", CHECK | RUN | IMPORT, false, CLI_WORD, 0, 0,
                     "the C compiler (default: clang)"},
  [CLI_CFLAGS]    = {"--cflags", "FLAGS", CHECK | IMPORT, false, CLI_TEXT, 0, 0,
                     "optimisation flags for the generated code, space-separated (default: "
                     "-O2 for check, -O3 -march=native for the kernels import compiles), e.g. "
                     "\"-O3 -march=native\""},
  [CLI_TRIALS]    = {"--trials", "N", CHECK, false, CLI_NUMBER, 1, CHECK_MAX_TRIALS,
                     "bindings of the symbolic extents per kernel (default: a walk of the "
                     "extents around the unroll factors, then 8 random bindings)"},
  [CLI_SEED]      = {"--seed", "S", CHECK | IMPORT, false, CLI_NUMBER_HEX, 0, UINT64_MAX,
                     "random seed, decimal or 0x hex (default 1)"},
  [CLI_SANITIZE]  = {"--sanitize", NULL, CHECK, false, CLI_FLAG, 0, 0,
                     "build with -fsanitize=address,undefined"},
  [CLI_UNROLL]    = {"--unroll", "N", GEN | CHECK, false, CLI_NUMBER, 1, SEMA_MAX_UNROLL,
                     "unroll factor of the inner loops (default: the spec's option unroll, "
                     "else 1)"},
  [CLI_TEMPLATES] = {"--templates", "DIR", GEN | CHECK, false, CLI_WORD, 0, 0,
                     "render with the Lua templates in DIR (default: $WHEREC_TEMPLATES, else "
                     "the installed ones)"},
};

/* What the commands read from the environment. */
static const struct { const char *name; unsigned commands; const char *help; } environment[] = {
  {"WHEREC_TEMPLATES", GEN | CHECK | RUN, "the Lua templates (default: the installed ones, "
                                          "else the source tree's)"},
  {"WHEREC_INCLUDE_DIR", CHECK | RUN, "the wherec headers the generated code compiles against"},
  {"WHEREC_HARNESS", CHECK, "the check harness's source"},
  {"WHEREC_RUNTIME_LIB", CHECK, "the libwherec the harness links"},
  {"TMPDIR", CHECK | IMPORT, "where the temporary directory goes (default: /tmp)"},
  {"WHEREC_ORT_PYTHON", IMPORT, "--verify's python, with onnxruntime, onnx and numpy (default: "
                                "python3)"},
  {"WHEREC_VERIFY_SCRIPT", IMPORT, "--verify's script (default: the installed verify.py)"},
  {"WHEREC_CACHE_DIR", RUN | IMPORT, "the cache (default: $XDG_CACHE_HOME/wherec, else "
                            "~/.cache/wherec)"},
};

/* exit_status.h's statuses, and the commands that return each. */
static const struct { int status; unsigned commands; const char *meaning; } statuses[] = {
  {GEN_EXIT_OK, ALL, "ok"},
  {GEN_EXIT_BAD_INPUT, ALL, "bad input (diagnostics)"},
  {GEN_EXIT_USAGE, ALL, "usage"},
  {GEN_EXIT_MISMATCH, CHECK | IMPORT, "a kernel disagreed"},
  {GEN_EXIT_TOOLCHAIN, ALL, "toolchain failure"},
};
/* clang-format on */

#define N_OF(a) (sizeof(a) / sizeof((a)[0]))

/* ---- help text ----------------------------------------------------------------- */

#define WIDTH  80 /* the longest line */
#define COLUMN 22 /* where the help of an option or variable starts */

static bool takes(cli_command c, cli_option o) {
  return (cli_options[o].commands & CLI_TAKES(c)) != 0;
}

/* Writes len bytes of word at column *col: on a new line indented by indent when it would
   pass WIDTH, else after a space unless the line holds only its indent. */
static void put_word(FILE *f, int *col, int indent, const char *word, int len) {
  if (*col > indent && *col + 1 + len > WIDTH) {
    fprintf(f, "\n%*s", indent, "");
    *col = indent;
  }
  if (*col != indent) {
    fputc(' ', f);
    (*col)++;
  }
  fprintf(f, "%.*s", len, word);
  *col += len;
}

/* Writes text from column indent, wrapped with the same indent, and ends the line;
   col is the column the line is at (on a new line when it is too far). */
static void put_text(FILE *f, int col, int indent, const char *text) {
  if (col > 0 && col + 2 > indent) { /* no room for two spaces */
    fputc('\n', f);
    col = 0;
  }
  fprintf(f, "%*s", indent - col, "");
  col = indent;
  for (const char *p = text; *p;) {
    size_t len = strcspn(p, " ");
    if (len) put_word(f, &col, indent, p, (int)len);
    p += len + (p[len] == ' ');
  }
  fputc('\n', f);
}

/* An option as the usage line and the help spell it: "--threads N". */
static const char *spelling(cli_option o, char *buf, size_t cap) {
  const cli_option_row *r = &cli_options[o];
  snprintf(buf, cap, "%s%s%s", r->name, r->value ? " " : "", r->value ? r->value : "");
  return buf;
}

/* "wherec CMD OPERANDS -o X [--opt V]...", wrapped under its first operand; lead
   ("usage: " or its width in spaces) goes first. */
static void put_usage(FILE *f, const char *lead, cli_command c) {
  const cli_command_row *cmd = &cli_commands[c];
  char                   buf[64];
  int                    col = fprintf(f, "%swherec %s", lead, cmd->name), indent = col + 1;
  for (int i = 0; i < CLI_MAX_OPERANDS && cmd->operands[i]; i++)
    put_word(f, &col, indent, cmd->operands[i], (int)strlen(cmd->operands[i]));
  for (int required = 1; required >= 0; required--) /* required options first */
    for (int o = 0; o < CLI_N_OPTIONS; o++) {
      if (!takes(c, (cli_option)o) || cli_options[o].required != required) continue;
      char word[80];
      int  len = snprintf(word, sizeof word, required ? "%s" : "[%s]",
                          spelling((cli_option)o, buf, sizeof buf));
      put_word(f, &col, indent, word, len);
    }
  fputc('\n', f);
}

/* Every command's usage, and the forms that take none. */
static void put_usages(FILE *f) {
  for (int c = 0; c < CLI_N_COMMANDS; c++) put_usage(f, c ? "       " : "usage: ", (cli_command)c);
  fprintf(f, "       wherec CMD --help | --help | --version\n");
}

/* The options of c, one a line, indented by indent; numbers say their range first. */
static void put_options(FILE *f, cli_command c, int indent) {
  char buf[64], help[512];
  for (int o = 0; o < CLI_N_OPTIONS; o++) {
    const cli_option_row *r = &cli_options[o];
    if (!takes(c, (cli_option)o)) continue;
    if ((r->kind == CLI_NUMBER || r->kind == CLI_NUMBER_HEX) && r->hi != UINT64_MAX)
      snprintf(help, sizeof help, "%" PRIu64 " to %" PRIu64 ": %s", r->lo, r->hi, r->help);
    else snprintf(help, sizeof help, "%s", r->help);
    int col = fprintf(f, "%*s%s", indent, "", spelling((cli_option)o, buf, sizeof buf));
    put_text(f, col, COLUMN, help);
  }
}

/* The variables the commands in mask read, or that any does (mask ALL). */
static void put_environment(FILE *f, unsigned mask) {
  bool any = false;
  for (size_t i = 0; i < N_OF(environment); i++) {
    if (!(environment[i].commands & mask)) continue;
    if (!any) fprintf(f, "\nenvironment:\n");
    any = true;
    put_text(f, fprintf(f, "  %s", environment[i].name), COLUMN, environment[i].help);
  }
}

/* The statuses the commands in mask return, each kept on one line. */
static void put_statuses(FILE *f, unsigned mask) {
  char item[80];
  int  col = fprintf(f, "\nexit status:") - 1, indent = col + 1, last = -1;
  for (size_t i = 0; i < N_OF(statuses); i++)
    if (statuses[i].commands & mask) last = (int)i;
  for (int i = 0; i <= last; i++)
    if (statuses[i].commands & mask)
      put_word(f, &col, indent, item,
               snprintf(item, sizeof item, "%d %s%s", statuses[i].status, statuses[i].meaning,
                        i < last ? "," : ""));
  fputc('\n', f);
}

void cli_print_overview(FILE *f) {
  put_usages(f);
  fprintf(f, "\nwherec: ahead-of-time compiler of fused select (Where) kernels.\n");
  for (int c = 0; c < CLI_N_COMMANDS; c++) {
    const cli_command_row *cmd = &cli_commands[c];
    fputc('\n', f);
    int col = fprintf(f, "  %s", cmd->name);
    for (int i = 0; i < CLI_MAX_OPERANDS && cmd->operands[i]; i++)
      col += fprintf(f, " %s", cmd->operands[i]);
    put_text(f, col, COLUMN, cmd->summary);
    put_options(f, (cli_command)c, 4);
  }
  fprintf(f, "\n  Every command takes --help: `wherec CMD --help` says more.\n");
  put_environment(f, ALL);
  put_statuses(f, ALL);
}

void cli_print_help(FILE *f, cli_command c) {
  put_usage(f, "usage: ", c);
  fputc('\n', f);
  put_text(f, 0, 0, cli_commands[c].about);
  fprintf(f, "\noptions:\n");
  put_options(f, c, 2);
  put_text(f, fprintf(f, "  -h, --help"), COLUMN, "print this help");
  put_environment(f, CLI_TAKES(c));
  put_statuses(f, CLI_TAKES(c));
}

/* ---- parsing --------------------------------------------------------------------- */

/* A whole number (base 10, or 0x hex when hex) in [lo, hi]; no sign, no space. */
static bool parse_number(const char *s, bool hex, uint64_t lo, uint64_t hi, uint64_t *v) {
  char *end;
  if (*s < '0' || *s > '9') return false;
  bool is_hex = hex && s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
  errno = 0;
  *v = strtoull(s, &end, is_hex ? 16 : 10);
  return errno == 0 && *end == '\0' && *v >= lo && *v <= hi;
}

/* Whether option o's value v is one its kind takes (*n: a number's value); else why. */
static bool value_ok(cli_option o, const char *v, uint64_t *n, char *msg, size_t cap) {
  const cli_option_row *r = &cli_options[o];
  switch (r->kind) {
  case CLI_FLAG:
  case CLI_TEXT: return true;
  case CLI_WORD:
  case CLI_WORDS:
    if (*v) return true;
    snprintf(msg, cap, "option '%s' needs a value", r->name);
    return false;
  case CLI_NUMBER:
  case CLI_NUMBER_HEX:
    if (parse_number(v, r->kind == CLI_NUMBER_HEX, r->lo, r->hi, n)) return true;
    if (r->hi == UINT64_MAX)
      snprintf(msg, cap, "%s takes an unsigned 64-bit number, not '%.100s'", r->name, v);
    else
      snprintf(msg, cap, "%s takes a whole number from %" PRIu64 " to %" PRIu64 ", not '%.100s'",
               r->name, r->lo, r->hi, v);
    return false;
  }
  return false;
}

/* A usage error of command c: the message, then its usage; a is released. */
static int usage_error(cli_args *a, FILE *err, const char *msg) {
  fprintf(err, "wherec: %s: %s\n", cli_commands[a->command].name, msg);
  put_usage(err, "usage: ", a->command);
  cli_free(a);
  return GEN_EXIT_USAGE;
}

/* argv[0] is the command's name; the options of c anywhere, then its operands' count
   and its required options. */
static int parse_command(cli_command c, int argc, char **argv, cli_args *a, FILE *out, FILE *err) {
  const cli_command_row *cmd = &cli_commands[c];
  args_opt               opts[CLI_N_OPTIONS];
  int                    n_opts = 0, n_fixed = 0;
  bool                   repeats = false;
  char                   msg[256], one_only[64];
  for (int o = 0; o < CLI_N_OPTIONS; o++) {
    if (!takes(c, (cli_option)o)) continue;
    bool many = cli_options[o].kind == CLI_WORDS;
    if (many && (a->all[o] = malloc(sizeof *a->all[o] * (size_t)argc)) == NULL)
      return usage_error(a, err, "out of memory");
    opts[n_opts++] = (args_opt){cli_options[o].name, cli_options[o].kind != CLI_FLAG, &a->value[o],
                                many ? a->all[o] : NULL, &a->n_all[o]};
  }
  for (int i = 0; i < CLI_MAX_OPERANDS && cmd->operands[i]; i++) {
    size_t len = strlen(cmd->operands[i]);
    repeats = len > 3 && strcmp(cmd->operands[i] + len - 3, "...") == 0;
    n_fixed += !repeats;
  }
  a->command = c;
  a->operands = malloc(sizeof *a->operands * (size_t)argc);
  if (a->operands == NULL) return usage_error(a, err, "out of memory");
  snprintf(one_only, sizeof one_only, "one %s only", cmd->operands[0]);
  switch (args_parse(argc, argv, opts, n_opts, a->operands, repeats ? argc : n_fixed,
                     &a->n_operands, n_fixed == 1 && !repeats ? one_only : NULL, msg, sizeof msg)) {
  case ARGS_HELP:
    cli_print_help(out, c);
    cli_free(a);
    return GEN_EXIT_OK;
  case ARGS_USAGE: return usage_error(a, err, msg);
  case ARGS_OK: break;
  }
  for (int o = 0; o < CLI_N_OPTIONS; o++) {
    if (a->value[o] && !value_ok((cli_option)o, a->value[o], &a->number[o], msg, sizeof msg))
      return usage_error(a, err, msg);
    for (int i = 0; i < a->n_all[o]; i++)
      if (!value_ok((cli_option)o, a->all[o][i], &a->number[o], msg, sizeof msg))
        return usage_error(a, err, msg);
  }
  if (a->n_operands < n_fixed && !(c == CLI_IMPORT && a->value[CLI_LIST_OPERATORS])) {
    snprintf(msg, sizeof msg, "missing %s", cmd->operands[a->n_operands]);
    return usage_error(a, err, msg);
  }
  for (int o = 0; o < CLI_N_OPTIONS; o++)
    if (takes(c, (cli_option)o) && cli_options[o].required && a->value[o] == NULL) {
      snprintf(msg, sizeof msg, "missing %s", spelling((cli_option)o, one_only, sizeof one_only));
      return usage_error(a, err, msg);
    }
  return -1;
}

int cli_parse(int argc, char **argv, cli_args *a, FILE *out, FILE *err) {
  const char *word = argc > 1 ? argv[1] : NULL;
  memset(a, 0, sizeof *a);
  if (word == NULL) {
    put_usages(err);
    return GEN_EXIT_USAGE;
  }
  if (strcmp(word, "--help") == 0 || strcmp(word, "-h") == 0 || strcmp(word, "help") == 0) {
    cli_print_overview(out);
    return GEN_EXIT_OK;
  }
  if (strcmp(word, "--version") == 0) {
    fprintf(out, "wherec %s\n", WHEREC_VERSION);
    return GEN_EXIT_OK;
  }
  for (int c = 0; c < CLI_N_COMMANDS; c++)
    if (strcmp(word, cli_commands[c].name) == 0)
      return parse_command((cli_command)c, argc - 1, argv + 1, a, out, err);
  fprintf(err, "wherec: unknown command '%s'\n", word);
  put_usages(err);
  return GEN_EXIT_USAGE;
}

void cli_free(cli_args *a) {
  for (int o = 0; o < CLI_N_OPTIONS; o++) {
    free(a->all[o]);
    a->all[o] = NULL;
    a->n_all[o] = 0;
  }
  free(a->operands);
  a->operands = NULL;
  a->n_operands = 0;
}
