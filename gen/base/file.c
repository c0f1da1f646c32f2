/* file.c: whole files in and out (see file.h). Reads until end of file rather than
   trusting a size from stat; writes through a temporary file and rename. */
#define _POSIX_C_SOURCE 200809L

#include "base/file.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

char *file_read(const char *path, size_t *len, size_t max) {
  FILE  *f = fopen(path, "rb");
  char  *buf = NULL;
  size_t n = 0, cap = 0;
  int    fail = 0;
  if (f == NULL) return NULL;
  errno = 0;
  for (;;) {
    if (n > max) {
      fail = EFBIG;
      break;
    }
    if (cap - n < 4096) {
      char *nb = realloc(buf, cap = cap ? cap * 2 : 16384);
      if (nb == NULL) {
        fail = ENOMEM;
        break;
      }
      buf = nb;
    }
    size_t got = fread(buf + n, 1, cap - n - 1, f);
    n += got;
    if (got == 0) break;
  }
  if (fail == 0 && ferror(f)) fail = errno ? errno : EIO; /* a directory: EISDIR */
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

bool file_stage(const char *path, const void *data, size_t len, char tmp[FILE_TMP_CAP], FILE *err) {
  size_t      old_len, done = 0;
  struct stat st;
  char       *old = file_read(path, &old_len, len); /* a longer file differs anyway */
  bool        same = old && old_len == len && (len == 0 || memcmp(old, data, len) == 0);
  free(old);
  tmp[0] = '\0';
  if (same) return true;
  if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) { /* rename would fail after the other one */
    fprintf(err, "wherec: error: cannot write %s: %s\n", path, strerror(EISDIR));
    return false;
  }
  if ((size_t)snprintf(tmp, FILE_TMP_CAP, "%s.tmpXXXXXX", path) >= FILE_TMP_CAP) {
    fprintf(err, "wherec: error: cannot write %s: path too long\n", path);
    tmp[0] = '\0';
    return false;
  }
  int fd = mkstemp(tmp);
  if (fd < 0) {
    fprintf(err, "wherec: error: cannot create %s: %s\n", tmp, strerror(errno));
    tmp[0] = '\0';
    return false;
  }
  errno = 0;
  while (done < len) {
    ssize_t w = write(fd, (const char *)data + done, len - done);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) break;
    done += (size_t)w;
  }
  bool ok = done == len && fchmod(fd, 0644) == 0;
  int  saved = errno;
  if (close(fd) != 0 && ok) {
    ok = false;
    saved = errno;
  }
  if (!ok) {
    fprintf(err, "wherec: error: cannot write %s: %s\n", path, strerror(saved ? saved : EIO));
    unlink(tmp);
    tmp[0] = '\0';
  }
  return ok;
}

bool file_commit(char tmp[FILE_TMP_CAP], const char *path, FILE *err) {
  bool ok = tmp[0] == '\0' || rename(tmp, path) == 0;
  if (!ok) {
    fprintf(err, "wherec: error: cannot write %s: %s\n", path, strerror(errno));
    unlink(tmp);
  }
  tmp[0] = '\0';
  return ok;
}

bool file_write(const char *path, const void *data, size_t len, FILE *err) {
  char tmp[FILE_TMP_CAP];
  return file_stage(path, data, len, tmp, err) && file_commit(tmp, path, err);
}
