/* import.h: `wherec import MODEL.onnx -o SPEC`: the maximal element-wise regions of an
   ONNX model (selects, activations, arithmetic, casts), each as a kernel of a .where spec. */
#ifndef WHEREC_GEN_IMPORT_H
#define WHEREC_GEN_IMPORT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "base/exit_status.h"

/* Bounds on one fused expression (a region). */
/* ONNX operators nested in one expression; keeps the spec far below the
   parser's nesting limit. */
#define IMPORT_MAX_DEPTH  24
/* Copies of one producer in an expression (Relu, Clip and the other
   activations name their operand several times). */
#define IMPORT_MAX_COPIES 16

/* The command: imports the model at path model into the spec at path out. Lists
   every node it does not take (with the reason) and every kernel it writes on
   stderr. out is written only when at least one kernel was imported, atomically.
   Returns a GEN_EXIT_ status. */
int import_command(const char *model, const char *out);

/* The spec text for the model in buf[0, len) (model_name goes into its
   header comment). Returns GEN_EXIT_OK with *spec malloc'ed, or
   GEN_EXIT_BAD_INPUT after printing why on log. For tests and fuzzing. */
int import_model(const uint8_t *buf, size_t len, const char *model_name, FILE *log, char **spec);

#endif
