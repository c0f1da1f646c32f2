/* diag.h: diagnostics of the generator, printed like clang:
   `path:line:col: error: message`, the source line, and a caret under the column. */
#ifndef WHEREC_GEN_DIAG_H
#define WHEREC_GEN_DIAG_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#if defined(__GNUC__)
#define DIAG_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define DIAG_PRINTF(f, a)
#endif

/* Errors shown per file; beyond it one line says so and the rest are only counted. */
#define DIAG_MAX_ERRORS 1000

/* A place in the source; every token and AST node carries one. */
typedef struct diag_loc {
  int    line; /* 1-based line; 0 = no location (whole file) */
  int    col;  /* 1-based column, counted in bytes */
  size_t off;  /* byte offset of the first byte */
  size_t len;  /* bytes spanned (at least 1 for a token, 0 at end of file) */
} diag_loc;

/* A growable NUL-terminated string; all printing in the front end goes through it. */
typedef struct diag_text {
  char  *data;      /* NULL until something is appended */
  size_t len;       /* bytes used, without the NUL */
  size_t cap;       /* bytes allocated */
  bool   truncated; /* an allocation failed; text is incomplete */
} diag_text;

/* What a recorded diagnostic is: callers test this, never the printed text. */
typedef enum diag_level { DIAG_LEVEL_ERROR, DIAG_LEVEL_NOTE } diag_level;

/* One diagnostic as recorded beside the printed text. */
typedef struct diag_entry {
  diag_level level;   /* error or note */
  diag_loc   loc;     /* where it points (line 0: the whole file) */
  char      *message; /* the message alone (no location, level or quoted line);
                         NULL when it could not be allocated */
} diag_entry;

typedef struct diag_ctx {
  const char *path;        /* printed in front of every location */
  const char *src;         /* the source text, for the quoted line */
  size_t      src_len;     /* bytes in src */
  FILE       *out;         /* each diagnostic is also written here; may be NULL */
  diag_text   text;        /* every diagnostic printed so far */
  int         n_errors;    /* errors reported */
  int         n_notes;     /* notes reported */
  diag_entry *entries;     /* every diagnostic shown, in order (best effort: an
                              allocation failure drops one) */
  int         n_entries;   /* entries recorded */
  int         cap_entries; /* entries allocated */
} diag_ctx;

/* src is not copied and must outlive d; out may be NULL (collect only). */
void diag_init(diag_ctx *d, const char *path, const char *src, size_t src_len, FILE *out);
void diag_free(diag_ctx *d);

/* The one entry point of every error: counts it and prints it with the source line. */
void diag_error(diag_ctx *d, diag_loc loc, const char *fmt, ...) DIAG_PRINTF(3, 4);
/* A note attached to the error just reported (a related declaration, say). */
void diag_note(diag_ctx *d, diag_loc loc, const char *fmt, ...) DIAG_PRINTF(3, 4);

/* Everything printed so far ("" when nothing was). */
const char *diag_str(const diag_ctx *d);
/* The first error recorded, or NULL when there is none. */
const diag_entry *diag_first_error(const diag_ctx *d);

void diag_text_printf(diag_text *t, const char *fmt, ...) DIAG_PRINTF(2, 3);
void diag_text_vprintf(diag_text *t, const char *fmt, va_list ap) DIAG_PRINTF(2, 0);
void diag_text_putn(diag_text *t, const char *s, size_t n);
void diag_text_free(diag_text *t);

#endif
