/* parse.h: recursive-descent parser of `.where` specs (README, The spec language).
   Reports every syntax error in a file, resynchronizing at the next statement. */
#ifndef WHEREC_GEN_PARSE_H
#define WHEREC_GEN_PARSE_H

#include <stddef.h>

#include "front/ast.h"
#include "base/diag.h"

/* Deepest expression nesting (parentheses, unary operators, operand chains). */
#define PARSE_MAX_DEPTH  200
/* Largest source accepted, in bytes (16 MiB: a spec of the most kernels
   sema takes is a few MiB). */
#define PARSE_MAX_SOURCE ((size_t)1 << 24)
/* Most expression nodes (operands, operators, calls) in one file: bounds the
   syntax tree's memory whatever the file holds. */
#define PARSE_MAX_NODES  200000
/* Most values of all `const` arrays of one file (they are not expression
   nodes: 4 MiB of float32 constants per file). */
#define PARSE_MAX_VALUES ((int64_t)1 << 20)

/* Parse src[0, len) (any bytes; it need not be NUL-terminated).  Errors go to
   d; statements with syntax errors are left out of the result, so sema can
   still check the others.  NULL only when out of memory or the source is too
   large (both reported).  Free with ast_file_free. */
ast_file *parse_source(const char *src, size_t len, diag_ctx *d);

#endif
