/* errbuf.c: error messages into a caller's buffer (see errbuf.h); one copy for the
   .npy and ONNX readers. */
#include "base/errbuf.h"

#include <stdarg.h>
#include <stdio.h>

bool errbuf_fail(char *err, size_t cap, const char *fmt, ...) {
  va_list ap;
  if (err == NULL || cap == 0) return false;
  va_start(ap, fmt);
  vsnprintf(err, cap, fmt, ap);
  va_end(ap);
  return false;
}
