/* errbuf.h: error messages into a caller's buffer, for the readers that report through
   `char *err, size_t cap` instead of a diagnostic context (.npy, ONNX). */
#ifndef WHEREC_GEN_ERRBUF_H
#define WHEREC_GEN_ERRBUF_H

#include <stdbool.h>
#include <stddef.h>

/* Formats the message into err (cap bytes, always NUL-terminated, cut to fit;
   nothing when err is NULL or cap is 0) and returns false, so that a check
   reads `return errbuf_fail(err, cap, "...", ...);`. */
#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
bool errbuf_fail(char *err, size_t cap, const char *fmt, ...);

#endif
