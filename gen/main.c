/* main.c: the `wherec` executable: cli.c parses the command line from its one table;
   each command here hands its values to its layer (gen, check, run, import) and runs it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "back/driver.h"
#include "base/exit_status.h"
#include "check/check.h"
#include "base/cli.h"
#include "import/import.h"
#include "import/onnx.h"
#include "import/ops.h"
#include "ort/ort.h"
#include "run/run.h"

static int cmd_gen(const cli_args *a) {
  gen_options g = {a->value[CLI_PREFIX], a->value[CLI_TEMPLATES], (int)a->number[CLI_UNROLL]};
  return gen_generate(a->operands[0], a->value[CLI_OUT_DIR], &g, stderr, NULL);
}

static int cmd_check(const cli_args *a) {
  check_options c = {
      .cc = a->value[CLI_CC],
      .trials = a->value[CLI_TRIALS],
      .seed = a->value[CLI_SEED],
      .sanitize = a->value[CLI_SANITIZE] != NULL,
      .unroll = (int)a->number[CLI_UNROLL],
      .templates_dir = a->value[CLI_TEMPLATES],
      .cflags = a->value[CLI_CFLAGS],
  };
  return check_run(a->operands[0], &c, stderr);
}

static int cmd_run(const cli_args *a) {
  run_options r = {
      .spec = a->operands[0],
      .kernel = a->operands[1],
      .inputs = a->operands + 2,
      .n_inputs = a->n_operands - 2,
      .outs = a->all[CLI_OUT_NPY],
      .n_outs = a->n_all[CLI_OUT_NPY],
      .cc = a->value[CLI_CC],
      .interp = a->value[CLI_INTERP] != NULL,
      .threads = (int)a->number[CLI_THREADS],
  };
  return run_command(&r);
}

static int cmd_import(const cli_args *a) {
  if (a->value[CLI_LIST_OPERATORS]) {
    if (a->n_operands > 0) {
      fprintf(stderr,
              "wherec: import: --list-operators takes no MODEL.onnx (wherec import --help)\n");
      return GEN_EXIT_USAGE;
    }
    op_list_json(stdout);
    return fflush(stdout) == 0 ? GEN_EXIT_OK : GEN_EXIT_TOOLCHAIN;
  }
  import_options o = {
      .manifest = a->value[CLI_MANIFEST],
      .verify = a->value[CLI_VERIFY] != NULL,
      .inputs = a->all[CLI_INPUT_NPY],
      .n_inputs = a->n_all[CLI_INPUT_NPY],
      .seed = a->value[CLI_SEED],
      .bake_limit = a->value[CLI_BAKE_LIMIT] ? a->number[CLI_BAKE_LIMIT] : IMPORT_BAKE_LIMIT,
      .dims = a->all[CLI_DIM],
      .n_dims = a->n_all[CLI_DIM],
      .literal_activations = a->value[CLI_LITERAL_ACTS] != NULL,
  };
  for (int k = 0; k < o.n_dims; k++) { /* NAME=N: a name, and a whole N in [1, 2^31) */
    const char *eq = strrchr(o.dims[k], '=');
    char       *end = NULL;
    long long   n = eq ? strtoll(eq + 1, &end, 10) : 0;
    if (!eq || eq == o.dims[k] || !end || *end || eq[1] == '\0' || n < 1 || n >= (1LL << 31)) {
      fprintf(stderr,
              "wherec: import: --dim %s: expected NAME=N, N a whole number from 1 to "
              "2147483647 (wherec import --help)\n",
              o.dims[k]);
      return GEN_EXIT_USAGE;
    }
  }
  if (a->value[CLI_SHAPES]) {
    if (a->value[CLI_OUT_SPEC] || a->value[CLI_ORT] || a->value[CLI_VERIFY]) {
      fprintf(stderr, "wherec: import: --shapes writes no spec: no -o, --ort or --verify "
                      "(wherec import --help)\n");
      return GEN_EXIT_USAGE;
    }
    size_t   len;
    char     err[512];
    uint8_t *buf = onnx_slurp(a->operands[0], &len, err, sizeof err);
    if (buf == NULL) {
      fprintf(stderr, "wherec: error: %s: %s\n", a->operands[0], err);
      return GEN_EXIT_BAD_INPUT;
    }
    int rc = import_shapes(buf, len, &o, stdout, stderr);
    free(buf);
    return rc;
  }
  const char *ort_dir = a->value[CLI_ORT];
  if (!o.verify && !ort_dir && (o.n_inputs > 0 || o.seed)) {
    fprintf(
        stderr,
        "wherec: import: --input and --seed go with --verify or --ort (wherec import --help)\n");
    return GEN_EXIT_USAGE;
  }
  if (!ort_dir == !a->value[CLI_OUT_SPEC] || (ort_dir && o.manifest)) {
    fprintf(stderr, "wherec: import: give either -o SPEC or --ort DIR (which names its own "
                    "files) (wherec import --help)\n");
    return GEN_EXIT_USAGE;
  }
  if (!ort_dir && (a->value[CLI_CC] || a->value[CLI_CFLAGS])) {
    fprintf(stderr, "wherec: import: --cc and --cflags go with --ort (wherec import --help)\n");
    return GEN_EXIT_USAGE;
  }
  if (ort_dir) {
    ort_options r = {.import = o, .cc = a->value[CLI_CC], .cflags = a->value[CLI_CFLAGS]};
    return ort_build(a->operands[0], ort_dir, &r);
  }
  return import_command(a->operands[0], a->value[CLI_OUT_SPEC], &o);
}

int main(int argc, char **argv) {
  static int (*const commands[CLI_N_COMMANDS])(const cli_args *) = {
      [CLI_GEN] = cmd_gen,
      [CLI_CHECK] = cmd_check,
      [CLI_RUN] = cmd_run,
      [CLI_IMPORT] = cmd_import,
  };
  cli_args a;
  int      rc = cli_parse(argc, argv, &a, stdout, stderr);
  if (rc >= 0) return rc;
  rc = commands[a.command](&a);
  cli_free(&a);
  return rc;
}
