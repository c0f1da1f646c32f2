/* import.h: `wherec import MODEL.onnx -o SPEC`: the maximal element-wise regions of an
   ONNX model (selects, activations, arithmetic, casts), each as a kernel of a .where spec. */
#ifndef WHEREC_GEN_IMPORT_H
#define WHEREC_GEN_IMPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "base/exit_status.h"

/* Bounds on one fused expression (a region). */
/* ONNX operators nested in one expression; keeps the spec far below the
   parser's nesting limit. */
#define IMPORT_MAX_DEPTH         24
/* Copies of one producer in an expression (Relu, Clip and the other
   activations name their operand several times). */
#define IMPORT_MAX_COPIES        16
/* Outputs one kernel writes besides its root's: values it computes that something outside
   it reads too (a graph output, another operator). Bounded well below WC_MAX_OPERANDS,
   which parameters and outputs share. */
#define IMPORT_MAX_EXTRA_OUTPUTS 8

/* What the command takes besides the model and the spec. */
typedef struct import_options {
  const char        *manifest;   /* where the manifest goes; NULL: the spec's path + ".json" */
  bool               verify;     /* then run every kernel against onnxruntime (verify.h) */
  const char *const *inputs;     /* verify: one .npy per graph input; NULL: made */
  int                n_inputs;   /* in inputs */
  const char        *seed;       /* verify: for made inputs; NULL: 1 */
  int64_t            bake_limit; /* initializers of at most this many bytes become
                                    constants (`const`) of the spec; 0: none */
  const char *const *dims;       /* "NAME=N": the dim_param NAME is N (graph_build_dims) */
  int                n_dims;
  bool               literal_activations; /* Softplus, Mish, Elu, Selu, Celu, Softsign, SiLU,
                                             Gelu as ONNX's formulas (forms.c, expr.c), not
                                             softplus, expm1, selu, softsign, silu, gelu */
} import_options;

/* The default of --bake-limit: 64 KiB. */
#define IMPORT_BAKE_LIMIT ((int64_t)65536)

/* The command: imports the model at path model into the spec at path out, and writes
   the manifest (manifest.h) beside it (o may be NULL: the defaults). Lists every node
   it does not take (with the reason) and every kernel it writes on stderr. Both files
   are written only when at least one kernel was imported, each atomically. With
   o->verify, then verifies every kernel (verify.h). Returns a GEN_EXIT_ status. */
int import_command(const char *model, const char *out, const import_options *o);

/* The dtype and shape inference gives every value of the model's graph in buf[0, len), as
   JSON on out ({"opset": N, "values": [{"name", "dtype", "constant", "shape"}]}: constant
   when inference knows its value (an initializer, a folded node); a dtype wherec has
   none of, or a shape of unknown rank, is null; an extent is a number, its dim_param's
   name, or null when inference made it up). For `wherec import --shapes` and the test of
   the rules against onnx's own inference. o may be NULL; its dims apply. */
int import_shapes(const uint8_t *buf, size_t len, const import_options *o, FILE *out, FILE *log);

/* The spec text for the model in buf[0, len) (model_name goes into its
   header comment). Returns GEN_EXIT_OK with *spec malloc'ed, or
   GEN_EXIT_BAD_INPUT after printing why on log. For tests and fuzzing. */
int import_model(const uint8_t *buf, size_t len, const char *model_name, FILE *log, char **spec);

/* import_model that also gives the manifest's text (when manifest is not NULL; malloc'ed
   on success, else NULL), which names the spec spec_name. */
int import_model_manifest(const uint8_t *buf, size_t len, const char *model_name,
                          const char *spec_name, FILE *log, char **spec, char **manifest);
/* import_model_manifest with the command's options (bake_limit, dims; manifest, verify and
   the inputs are the command's). */
int import_model_options(const uint8_t *buf, size_t len, const char *model_name,
                         const char *spec_name, FILE *log, char **spec, char **manifest,
                         const import_options *o);
/* The same with the initializers of at most bake_limit bytes baked in as constants
   (import_model_manifest: IMPORT_BAKE_LIMIT). */
int import_model_baked(const uint8_t *buf, size_t len, const char *model_name,
                       const char *spec_name, FILE *log, char **spec, char **manifest,
                       int64_t bake_limit);

#endif
