/* npy.h: reading and writing NumPy .npy files (format versions 1, 2 and 3) as wc_tensors.
   Little-endian, C order; every dtype of wc_dtype; strings as fixed-width bytes ('S'). */
#ifndef WHEREC_GEN_NPY_H
#define WHEREC_GEN_NPY_H

#include <stdbool.h>
#include <stddef.h>

#include <wherec/wherec.h>

#define NPY_MAX_HEADER 65536             /* header bytes accepted (every version-1 header fits) */
#define NPY_MAX_FILE   ((size_t)1 << 40) /* file bytes npy_read accepts */

/* An array read from a .npy file. Everything it points to is owned by it. */
typedef struct npy_array {
  wc_tensor t;         /* dtype, rank, shape; data: malloc'ed, dense */
  char     *strings;   /* WC_STRING: the NUL-terminated copies t.data points into */
  char      descr[40]; /* the dtype as the header wrote it ("<f4"), for messages */
} npy_array;

/* Parses the whole .npy image buf[0, len). want is the dtype the caller
   expects, or 0 for none; it only matters for bfloat16, which NumPy has no
   dtype for: with want == WC_BFLOAT16 the integer dtypes '<u2' and '<i2' and
   raw 2-byte '<V2' (what ml_dtypes' bfloat16 saves as) read as bfloat16 bits.
   Bool bytes other than 0 read as true. On failure returns false, leaves
   *out empty and writes a one-line message (no path, no newline) to err. */
bool npy_parse(const unsigned char *buf, size_t len, wc_dtype want, npy_array *out, char *err,
               size_t err_cap);

/* npy_parse of the file at path (messages do not name the path). */
bool npy_read(const char *path, wc_dtype want, npy_array *out, char *err, size_t err_cap);

void npy_free(npy_array *a);

/* The .npy image of t, byte-identical to what numpy.save writes for the same
   array: bfloat16 as '<u2' bits, strings as '|S<longest, at least 1>' (NULL
   pointers as empty strings). *buf is malloc'ed. False with a message in err
   for an invalid tensor. */
bool npy_encode(const wc_tensor *t, unsigned char **buf, size_t *len, char *err, size_t err_cap);

/* npy_encode into a temporary file beside path, then rename over path: a
   reader never sees half a file and a failure leaves path untouched. */
bool npy_write(const char *path, const wc_tensor *t, char *err, size_t err_cap);

/* The numpy dtype string npy_encode writes for t ("<f4", "|b1", "<u2" for bfloat16);
   "|S" for strings (the width depends on the data); NULL for an unknown dtype. */
const char *npy_descr(wc_dtype t);

#endif
