/* file.c: whole-file reading (see file.h). Reads until end of file rather than
   trusting a size from stat, so that pipes and files that grow or shrink work. */
#include "file.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

char *file_read(const char *path, size_t *len, size_t max) {
  FILE *f = fopen(path, "rb");
  char *buf = NULL;
  size_t n = 0, cap = 0;
  int fail = 0;
  if (f == NULL) return NULL;
  for (;;) {
    if (n > max) { fail = EFBIG; break; }
    if (cap - n < 4096) {
      char *nb = realloc(buf, cap = cap ? cap * 2 : 16384);
      if (nb == NULL) { fail = ENOMEM; break; }
      buf = nb;
    }
    size_t got = fread(buf + n, 1, cap - n - 1, f);
    n += got;
    if (got == 0) break;
  }
  if (fail == 0 && ferror(f)) fail = EIO;
  fclose(f);
  if (fail) {
    free(buf);
    errno = fail;
    return NULL;
  }
  buf[n] = '\0';
  *len = n;
  return buf;
}
