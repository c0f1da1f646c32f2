/* npy.c: a bounds-checked reader and a numpy-identical writer of .npy files.
   The header is a Python dict literal; only the three keys NumPy writes are accepted. */
#define _POSIX_C_SOURCE 200809L

#include "run/npy.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/errbuf.h"

#define NPY_MAGIC     "\x93NUMPY"
#define NPY_MAGIC_LEN 6
#define NPY_ALIGN     64 /* numpy aligns the data to this many bytes */
#define NPY_GROWTH    21 /* numpy pads the header so shape[0] can grow to 21 digits */

/* The one table of numpy dtypes: numpy kind letter, item size, wc dtype.
   Reading looks rows up by (kind, size); writing by dtype. */
/* clang-format off */
#define NPY_DTYPE_LIST(X)                                                     \
  X('b', 1, WC_BOOL)                                                          \
  X('i', 1, WC_INT8)  X('i', 2, WC_INT16)  X('i', 4, WC_INT32)  X('i', 8, WC_INT64)  \
  X('u', 1, WC_UINT8) X('u', 2, WC_UINT16) X('u', 4, WC_UINT32) X('u', 8, WC_UINT64) \
  X('f', 2, WC_FLOAT16) X('f', 4, WC_FLOAT) X('f', 8, WC_DOUBLE)              \
  X('c', 8, WC_COMPLEX64) X('c', 16, WC_COMPLEX128)
/* clang-format on */

typedef struct npy_dtype_row {
  char     kind; /* numpy kind letter */
  unsigned size; /* bytes per element */
  wc_dtype dtype;
} npy_dtype_row;

#define NPY_ROW_(k, s, d) {k, s, d},
static const npy_dtype_row npy_dtypes[] = {NPY_DTYPE_LIST(NPY_ROW_)};
#undef NPY_ROW_
#define NPY_N_DTYPES (sizeof npy_dtypes / sizeof npy_dtypes[0])

const char *npy_descr(wc_dtype t) {
  static const char *const names[] = {
      [WC_BOOL] = "|b1",      [WC_INT8] = "|i1",        [WC_UINT8] = "|u1",    [WC_INT16] = "<i2",
      [WC_UINT16] = "<u2",    [WC_INT32] = "<i4",       [WC_UINT32] = "<u4",   [WC_INT64] = "<i8",
      [WC_UINT64] = "<u8",    [WC_FLOAT16] = "<f2",     [WC_FLOAT] = "<f4",    [WC_DOUBLE] = "<f8",
      [WC_COMPLEX64] = "<c8", [WC_COMPLEX128] = "<c16", [WC_BFLOAT16] = "<u2", [WC_STRING] = "|S",
  };
  return (int)t >= 0 && (size_t)t < sizeof names / sizeof names[0] ? names[t] : NULL;
}

/* ---- the header: a Python dict literal ------------------------------------- */

typedef struct hdr {
  const char *p, *end; /* unread part of the header text */
} hdr;

static void hdr_space(hdr *h) {
  while (h->p < h->end && (*h->p == ' ' || *h->p == '\t' || *h->p == '\n' || *h->p == '\r')) h->p++;
}

/* Consumes c (after blanks); false if the next character is something else. */
static bool hdr_eat(hdr *h, char c) {
  hdr_space(h);
  if (h->p < h->end && *h->p == c) {
    h->p++;
    return true;
  }
  return false;
}

/* A quoted string without escapes, copied into out (cap bytes). */
static bool hdr_string(hdr *h, char *out, size_t cap, char *err, size_t ecap) {
  hdr_space(h);
  if (h->p >= h->end || (*h->p != '\'' && *h->p != '"'))
    return errbuf_fail(err, ecap, "malformed header: expected a quoted string");
  char   q = *h->p++;
  size_t n = 0;
  while (h->p < h->end && *h->p != q) {
    if (*h->p == '\\' || (unsigned char)*h->p < 0x20)
      return errbuf_fail(err, ecap, "malformed header: unsupported character in a string");
    if (n + 1 >= cap) return errbuf_fail(err, ecap, "malformed header: string too long");
    out[n++] = *h->p++;
  }
  if (h->p >= h->end) return errbuf_fail(err, ecap, "malformed header: unterminated string");
  h->p++;
  out[n] = '\0';
  return true;
}

static bool hdr_word(hdr *h, const char *w) {
  size_t n = strlen(w);
  hdr_space(h);
  if ((size_t)(h->end - h->p) < n || memcmp(h->p, w, n) != 0) return false;
  h->p += n;
  return true;
}

/* shape: '(' [int {',' int} [',']] ')'; ints may carry Python 2's 'L'. */
static bool hdr_shape(hdr *h, npy_array *a, char *err, size_t ecap) {
  if (!hdr_eat(h, '(')) return errbuf_fail(err, ecap, "malformed header: 'shape' is not a tuple");
  a->t.rank = 0;
  for (;;) {
    if (hdr_eat(h, ')')) return true;
    hdr_space(h);
    if (h->p >= h->end || *h->p < '0' || *h->p > '9') {
      if (h->p < h->end && *h->p == '-')
        return errbuf_fail(err, ecap, "negative extent in 'shape'");
      return errbuf_fail(err, ecap, "malformed header: 'shape' holds a non-integer");
    }
    int64_t v = 0;
    while (h->p < h->end && *h->p >= '0' && *h->p <= '9') {
      int d = *h->p++ - '0';
      if (v > (INT64_MAX - d) / 10)
        return errbuf_fail(err, ecap, "shape overflow: an extent exceeds 2^63-1");
      v = v * 10 + d;
    }
    if (h->p < h->end && *h->p == 'L') h->p++;
    if (a->t.rank >= WC_MAX_RANK)
      return errbuf_fail(err, ecap, "rank exceeds %d (the largest wherec supports)", WC_MAX_RANK);
    a->t.shape[a->t.rank++] = v;
    if (hdr_eat(h, ',')) continue;
    if (hdr_eat(h, ')')) return true;
    return errbuf_fail(err, ecap, "malformed header: bad 'shape' tuple");
  }
}

/* Maps a dtype string to a wc dtype and item size. */
static bool parse_descr(const char *d, wc_dtype want, wc_dtype *dt, size_t *size, char *err,
                        size_t ecap) {
  char               order = d[0];
  char               kind = order ? d[1] : '\0';
  const char        *digits = kind ? d + 2 : d;
  unsigned long long n = 0;
  if (order != '<' && order != '>' && order != '|' && order != '=')
    return errbuf_fail(err, ecap, "unsupported dtype '%s'", d);
  if (*digits == '\0' && (kind == 'O'))
    return errbuf_fail(err, ecap, "object arrays ('%s') are not supported", d);
  if (*digits < '0' || *digits > '9') return errbuf_fail(err, ecap, "unsupported dtype '%s'", d);
  for (const char *q = digits; *q; q++) {
    if (*q < '0' || *q > '9' || n > 100000000u)
      return errbuf_fail(err, ecap, "unsupported dtype '%s'", d);
    n = n * 10 + (unsigned)(*q - '0');
  }
  if (kind == 'O') return errbuf_fail(err, ecap, "object arrays ('%s') are not supported", d);
  if (kind == 'U')
    return errbuf_fail(err, ecap,
                       "unicode strings ('%s') are not supported; save bytes (dtype 'S')", d);
  if (order == '>' && n > 1 && kind != 'S')
    return errbuf_fail(
        err, ecap, "big-endian dtype '%s' is not supported; convert with .astype('<%s')", d, d + 1);
  if (order == '|' && n > 1 && kind != 'S' && kind != 'V')
    return errbuf_fail(err, ecap, "unsupported dtype '%s' (multi-byte type without byte order)", d);
  if (kind == 'S') {
    if (n == 0) return errbuf_fail(err, ecap, "zero-width strings ('%s') are not supported", d);
    *dt = WC_STRING;
    *size = (size_t)n;
    return true;
  }
  /* bfloat16: numpy has no such dtype; it arrives as integers or raw pairs of bytes */
  if (want == WC_BFLOAT16 && n == 2 && (kind == 'u' || kind == 'i' || kind == 'V')) {
    *dt = WC_BFLOAT16;
    *size = 2;
    return true;
  }
  for (size_t i = 0; i < NPY_N_DTYPES; i++)
    if (npy_dtypes[i].kind == kind && npy_dtypes[i].size == n) {
      *dt = npy_dtypes[i].dtype;
      *size = n;
      return true;
    }
  if (kind == 'V' && n == 2)
    return errbuf_fail(err, ecap,
                       "raw 2-byte dtype '%s' (bfloat16?) is accepted only for a bfloat16 "
                       "parameter",
                       d);
  return errbuf_fail(err, ecap, "unsupported dtype '%s'", d);
}

/* The header dict: exactly 'descr', 'fortran_order' and 'shape', once each. */
static bool parse_header(hdr *h, wc_dtype want, npy_array *a, size_t *itemsize, char *err,
                         size_t ecap) {
  bool seen_descr = false, seen_order = false, seen_shape = false;
  char key[32];
  if (!hdr_eat(h, '{')) return errbuf_fail(err, ecap, "malformed header: not a dict");
  for (;;) {
    if (hdr_eat(h, '}')) break;
    if (!hdr_string(h, key, sizeof key, err, ecap)) return false;
    if (!hdr_eat(h, ':'))
      return errbuf_fail(err, ecap, "malformed header: expected ':' after '%s'", key);
    if (strcmp(key, "descr") == 0 && !seen_descr) {
      seen_descr = true;
      hdr_space(h);
      if (h->p < h->end && (*h->p == '[' || *h->p == '{'))
        return errbuf_fail(err, ecap, "structured dtypes are not supported");
      if (!hdr_string(h, a->descr, sizeof a->descr, err, ecap)) return false;
    } else if (strcmp(key, "fortran_order") == 0 && !seen_order) {
      seen_order = true;
      if (hdr_word(h, "True"))
        return errbuf_fail(err, ecap,
                           "Fortran-order arrays are not supported; save np.ascontiguousarray(a)");
      if (!hdr_word(h, "False"))
        return errbuf_fail(err, ecap, "malformed header: 'fortran_order' is not a bool");
    } else if (strcmp(key, "shape") == 0 && !seen_shape) {
      seen_shape = true;
      if (!hdr_shape(h, a, err, ecap)) return false;
    } else {
      return errbuf_fail(err, ecap, "malformed header: unexpected or repeated key '%s'", key);
    }
    if (!hdr_eat(h, ',')) {
      if (hdr_eat(h, '}')) break;
      return errbuf_fail(err, ecap, "malformed header: expected ',' or '}'");
    }
  }
  hdr_space(h);
  if (h->p != h->end) return errbuf_fail(err, ecap, "malformed header: text after the dict");
  if (!seen_descr || !seen_order || !seen_shape)
    return errbuf_fail(err, ecap, "malformed header: missing key '%s'",
                       !seen_descr   ? "descr"
                       : !seen_order ? "fortran_order"
                                     : "shape");
  return parse_descr(a->descr, want, &a->t.dtype, itemsize, err, ecap);
}

/* ---- reading ------------------------------------------------------------------ */

/* Element count of the shape; false when it (or its size in bytes) overflows. */
static bool shape_count(const wc_tensor *t, size_t itemsize, size_t *count) {
  uint64_t n = 1, nonzero = 1;
  bool     zero = false;
  for (int d = 0; d < t->rank; d++) {
    uint64_t e = (uint64_t)t->shape[d];
    if (e == 0) {
      zero = true;
      continue;
    }
    if (nonzero > (uint64_t)INT64_MAX / e) return false;
    nonzero *= e;
  }
  n = zero ? 0 : nonzero;
  if (!zero && itemsize && nonzero > (uint64_t)INT64_MAX / itemsize)
    return false;                                                   /* empty: any extents */
  if (n > SIZE_MAX / (itemsize + 1 + sizeof(char *))) return false; /* room for string copies */
  *count = (size_t)n;
  return true;
}

static bool read_strings(npy_array *a, const unsigned char *data, size_t count, size_t width,
                         char *err, size_t ecap) {
  const char **ptrs = malloc(count ? count * sizeof *ptrs : 1);
  char        *copy = malloc(count ? count * (width + 1) : 1);
  if (ptrs == NULL || copy == NULL) {
    free(ptrs);
    free(copy);
    return errbuf_fail(err, ecap, "out of memory");
  }
  for (size_t i = 0; i < count; i++) {
    char *s = copy + i * (width + 1);
    memcpy(s, data + i * width, width);
    s[width] = '\0'; /* numpy pads with NULs; a full-width string has none */
    ptrs[i] = s;
  }
  a->t.data = (void *)ptrs;
  a->strings = copy;
  return true;
}

bool npy_parse(const unsigned char *buf, size_t len, wc_dtype want, npy_array *out, char *err,
               size_t ecap) {
  npy_array a;
  size_t    hlen, hstart, itemsize = 0, count, nbytes;
  memset(&a, 0, sizeof a);
  memset(out, 0, sizeof *out);
  if (buf == NULL && len > 0) return errbuf_fail(err, ecap, "no data");
  if (len < NPY_MAGIC_LEN || memcmp(buf, NPY_MAGIC, NPY_MAGIC_LEN) != 0)
    return errbuf_fail(err, ecap, "not a .npy file (bad magic)");
  if (len < 8) return errbuf_fail(err, ecap, "truncated header");
  unsigned major = buf[6], minor = buf[7];
  if (major < 1 || major > 3 || minor != 0)
    return errbuf_fail(err, ecap, "unsupported .npy format version %u.%u", major, minor);
  if (major == 1) {
    if (len < 10) return errbuf_fail(err, ecap, "truncated header");
    hlen = (size_t)buf[8] | (size_t)buf[9] << 8;
    hstart = 10;
  } else {
    if (len < 12) return errbuf_fail(err, ecap, "truncated header");
    uint32_t h32 = (uint32_t)buf[8] | (uint32_t)buf[9] << 8 | (uint32_t)buf[10] << 16 |
                   (uint32_t)buf[11] << 24;
    if (h32 > NPY_MAX_HEADER)
      return errbuf_fail(err, ecap, "header too long (%lu bytes; the limit is %d)",
                         (unsigned long)h32, NPY_MAX_HEADER);
    hlen = h32;
    hstart = 12;
  }
  if (hlen > len - hstart)
    return errbuf_fail(err, ecap, "truncated header (%zu bytes announced, %zu present)", hlen,
                       len - hstart);
  for (size_t i = 0; i < hlen; i++) /* latin-1 (v1, v2) or UTF-8 (v3): only ASCII matters */
    if (buf[hstart + i] == 0) return errbuf_fail(err, ecap, "malformed header: NUL byte");
  hdr h = {(const char *)buf + hstart, (const char *)buf + hstart + hlen};
  if (!parse_header(&h, want, &a, &itemsize, err, ecap)) return false;
  if (!shape_count(&a.t, itemsize, &count))
    return errbuf_fail(err, ecap, "shape overflow: the element count does not fit in 64 bits");
  nbytes = count * itemsize;
  size_t have = len - hstart - hlen;
  if (have < nbytes)
    return errbuf_fail(err, ecap, "truncated data (%zu bytes expected, %zu present)", nbytes, have);
  if (have > nbytes)
    return errbuf_fail(err, ecap, "%zu unexpected bytes after the data", have - nbytes);
  const unsigned char *data = buf + hstart + hlen;
  if (a.t.dtype == WC_STRING) {
    if (!read_strings(&a, data, count, itemsize, err, ecap)) return false;
  } else {
    unsigned char *copy = malloc(nbytes ? nbytes : 1);
    if (copy == NULL) return errbuf_fail(err, ecap, "out of memory");
    if (nbytes) memcpy(copy, data, nbytes);
    if (a.t.dtype == WC_BOOL) /* a C bool must hold 0 or 1 */
      for (size_t i = 0; i < nbytes; i++) copy[i] = copy[i] != 0;
    a.t.data = copy;
  }
  *out = a;
  return true;
}

bool npy_read(const char *path, wc_dtype want, npy_array *out, char *err, size_t ecap) {
  FILE          *f = fopen(path, "rb");
  unsigned char *buf = NULL;
  size_t         n = 0, cap = 0;
  bool           ok;
  memset(out, 0, sizeof *out);
  if (f == NULL) return errbuf_fail(err, ecap, "cannot open: %s", strerror(errno));
  for (;;) {
    if (cap - n < 65536) {
      if (cap >= NPY_MAX_FILE) {
        free(buf);
        fclose(f);
        return errbuf_fail(err, ecap, "file too large");
      }
      size_t         ncap = cap ? cap * 2 : 65536;
      unsigned char *nb = realloc(buf, ncap);
      if (nb == NULL) {
        free(buf);
        fclose(f);
        return errbuf_fail(err, ecap, "out of memory");
      }
      buf = nb;
      cap = ncap;
    }
    size_t got = fread(buf + n, 1, cap - n, f);
    n += got;
    if (got == 0) break;
  }
  if (ferror(f)) {
    free(buf);
    fclose(f);
    return errbuf_fail(err, ecap, "read error");
  }
  fclose(f);
  ok = npy_parse(buf, n, want, out, err, ecap);
  free(buf);
  return ok;
}

void npy_free(npy_array *a) {
  if (a == NULL) return;
  free(a->t.data);
  free(a->strings);
  memset(a, 0, sizeof *a);
}

/* ---- writing ------------------------------------------------------------------ */

bool npy_encode(const wc_tensor *t, unsigned char **buf, size_t *len, char *err, size_t ecap) {
  char        descr[32], header[NPY_MAX_HEADER];
  size_t      itemsize, count, width = 1, n;
  const char *d;
  *buf = NULL;
  *len = 0;
  if (t == NULL || (d = npy_descr(t->dtype)) == NULL)
    return errbuf_fail(err, ecap, "unknown dtype");
  if (t->rank < 0 || t->rank > WC_MAX_RANK)
    return errbuf_fail(err, ecap, "invalid rank %d", t->rank);
  for (int i = 0; i < t->rank; i++)
    if (t->shape[i] < 0) return errbuf_fail(err, ecap, "negative extent");
  itemsize = t->dtype == WC_STRING ? sizeof(char *) : wc_dtype_size(t->dtype);
  if (!shape_count(t, itemsize, &count)) return errbuf_fail(err, ecap, "shape overflow");
  if (count > 0 && t->data == NULL) return errbuf_fail(err, ecap, "no data");
  if (t->dtype == WC_STRING) {
    const char *const *s = t->data;
    for (size_t i = 0; i < count; i++) {
      size_t l = s[i] ? strlen(s[i]) : 0;
      if (l > width) width = l;
    }
    snprintf(descr, sizeof descr, "|S%zu", width);
    itemsize = width;
    if (count > SIZE_MAX / width) return errbuf_fail(err, ecap, "shape overflow");
  } else {
    snprintf(descr, sizeof descr, "%s", d);
  }

  /* The header exactly as numpy.lib.format writes it (sorted keys, tuple repr,
     room for shape[0] to grow, '\n'-terminated, data aligned to 64 bytes). */
  n = (size_t)snprintf(header, sizeof header, "{'descr': '%s', 'fortran_order': False, 'shape': (",
                       descr);
  for (int i = 0; i < t->rank; i++)
    n += (size_t)snprintf(header + n, sizeof header - n, "%s%lld", i ? ", " : "",
                          (long long)t->shape[i]);
  n += (size_t)snprintf(header + n, sizeof header - n, "%s), }", t->rank == 1 ? "," : "");
  if (t->rank > 0) {
    int digits = snprintf(NULL, 0, "%lld", (long long)t->shape[0]);
    for (int i = digits; i < NPY_GROWTH; i++) header[n++] = ' ';
  }
  size_t hlen = n + 1; /* with the '\n' */
  size_t pad = NPY_ALIGN - ((NPY_MAGIC_LEN + 2 + 2 + hlen) % NPY_ALIGN);
  size_t total_h = hlen + pad, data_bytes = count * itemsize;
  if (total_h > 65535) return errbuf_fail(err, ecap, "header too long");
  size_t         total = NPY_MAGIC_LEN + 4 + total_h + data_bytes;
  unsigned char *out = malloc(total);
  if (out == NULL) return errbuf_fail(err, ecap, "out of memory");
  memcpy(out, NPY_MAGIC, NPY_MAGIC_LEN);
  out[6] = 1;
  out[7] = 0;
  out[8] = (unsigned char)(total_h & 0xff);
  out[9] = (unsigned char)(total_h >> 8);
  memcpy(out + 10, header, n);
  memset(out + 10 + n, ' ', pad);
  out[10 + n + pad] = '\n';
  unsigned char *data = out + 10 + total_h;
  if (t->dtype == WC_STRING) {
    const char *const *s = t->data;
    memset(data, 0, data_bytes);
    for (size_t i = 0; i < count; i++)
      if (s[i]) memcpy(data + i * width, s[i], strlen(s[i]));
  } else if (t->dtype == WC_BOOL) {
    const unsigned char *b = t->data;
    for (size_t i = 0; i < count; i++) data[i] = b[i] != 0;
  } else if (data_bytes) {
    memcpy(data, t->data, data_bytes);
  }
  *buf = out;
  *len = total;
  return true;
}

bool npy_write(const char *path, const wc_tensor *t, char *err, size_t ecap) {
  unsigned char *buf;
  size_t         len, done = 0;
  char           tmp[4200];
  if (!npy_encode(t, &buf, &len, err, ecap)) return false;
  if ((size_t)snprintf(tmp, sizeof tmp, "%s.tmpXXXXXX", path) >= sizeof tmp) {
    free(buf);
    return errbuf_fail(err, ecap, "path too long");
  }
  int fd = mkstemp(tmp);
  if (fd < 0) {
    free(buf);
    return errbuf_fail(err, ecap, "cannot create a file beside it: %s", strerror(errno));
  }
  while (done < len) {
    ssize_t w = write(fd, buf + done, len - done);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) break;
    done += (size_t)w;
  }
  free(buf);
  bool ok = done == len && fchmod(fd, 0644) == 0;
  int  saved = errno;
  if (close(fd) != 0 && ok) {
    ok = false;
    saved = errno;
  }
  if (ok && rename(tmp, path) != 0) {
    ok = false;
    saved = errno;
  }
  if (!ok) {
    unlink(tmp);
    return errbuf_fail(err, ecap, "cannot write: %s", strerror(saved ? saved : EIO));
  }
  return true;
}
