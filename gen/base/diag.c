/* diag.c: diagnostics of the generator, printed like clang.
   Errors and notes share one printer that quotes the source line under the message. */
#include "base/diag.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Quoted source lines longer than this are shown as a window around the column. */
#define DIAG_WINDOW 160

/* Append n bytes, doubling the buffer; on allocation failure the text is
   marked truncated rather than failing the caller (diagnostics are best effort). */
void diag_text_putn(diag_text *t, const char *s, size_t n) {
  if (t->truncated) return;
  if (n >= SIZE_MAX / 2 - t->len) {
    t->truncated = true;
    return;
  }
  if (t->len + n + 1 > t->cap) {
    size_t cap = t->cap ? t->cap : 256;
    char  *p;
    while (cap < t->len + n + 1) cap *= 2;
    p = realloc(t->data, cap);
    if (!p) {
      t->truncated = true;
      return;
    }
    t->data = p;
    t->cap = cap;
  }
  if (n) memcpy(t->data + t->len, s, n);
  t->len += n;
  t->data[t->len] = '\0';
}

/* vprintf into t: format into a small buffer, or measure and format again. */
void diag_text_vprintf(diag_text *t, const char *fmt, va_list ap) {
  char    small[256];
  va_list ap2;
  int     n;
  va_copy(ap2, ap);
  n = vsnprintf(small, sizeof small, fmt, ap);
  if (n < 0) {
    va_end(ap2);
    return;
  }
  if ((size_t)n < sizeof small) {
    diag_text_putn(t, small, (size_t)n);
  } else {
    char *big = malloc((size_t)n + 1);
    if (big) {
      vsnprintf(big, (size_t)n + 1, fmt, ap2);
      diag_text_putn(t, big, (size_t)n);
      free(big);
    } else {
      t->truncated = true;
    }
  }
  va_end(ap2);
}

void diag_text_printf(diag_text *t, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  diag_text_vprintf(t, fmt, ap);
  va_end(ap);
}

void diag_text_free(diag_text *t) {
  free(t->data);
  t->data = NULL;
  t->len = t->cap = 0;
  t->truncated = false;
}

void diag_init(diag_ctx *d, const char *path, const char *src, size_t src_len, FILE *out) {
  memset(d, 0, sizeof *d);
  d->path = path ? path : "<input>";
  d->src = src;
  d->src_len = src ? src_len : 0;
  d->out = out;
}

void diag_free(diag_ctx *d) {
  for (int i = 0; i < d->n_entries; i++) free(d->entries[i].message);
  free(d->entries);
  d->entries = NULL;
  d->n_entries = d->cap_entries = 0;
  diag_text_free(&d->text);
}

const char *diag_str(const diag_ctx *d) { return d->text.data ? d->text.data : ""; }

const diag_entry *diag_first_error(const diag_ctx *d) {
  for (int i = 0; i < d->n_entries; i++)
    if (d->entries[i].level == DIAG_LEVEL_ERROR) return &d->entries[i];
  return NULL;
}

/* Keeps the diagnostic whose message is msg[0, n) as an entry, so that callers can
   test its level and message without parsing the text. Best effort, like the text. */
static void record(diag_ctx *d, diag_level level, diag_loc loc, const char *msg, size_t n) {
  if (d->n_entries == d->cap_entries) {
    int         cap = d->cap_entries ? 2 * d->cap_entries : 8;
    diag_entry *e = realloc(d->entries, sizeof *e * (size_t)cap);
    if (!e) return;
    d->entries = e;
    d->cap_entries = cap;
  }
  diag_entry *e = &d->entries[d->n_entries++];
  e->level = level;
  e->loc = loc;
  e->message = malloc(n + 1);
  if (e->message) {
    memcpy(e->message, msg, n);
    e->message[n] = '\0';
  }
}

/* Append the line that holds loc and a caret under its column.  Control bytes
   print as spaces (tabs stay tabs so the caret lines up), UTF-8 continuation
   bytes take no caret column, and very long lines are cut to a window. */
static void quote_line(diag_text *t, const diag_ctx *d, diag_loc loc) {
  size_t start, end, col0, from, to, i;
  if (!d->src || loc.line <= 0 || loc.col <= 0) return;
  col0 = (size_t)loc.col - 1;
  if (loc.off > d->src_len || col0 > loc.off) return;
  start = loc.off - col0;
  end = loc.off;
  /* past the window nothing is shown: no need to find the end of a long line */
  while (end < d->src_len && end <= loc.off + DIAG_WINDOW && d->src[end] != '\n') end++;
  if (end > start && d->src[end - 1] == '\r') end--;
  from = start;
  to = end;
  if (to - from > DIAG_WINDOW) {
    from = col0 > DIAG_WINDOW / 2 ? start + col0 - DIAG_WINDOW / 2 : start;
    if (to - from > DIAG_WINDOW) to = from + DIAG_WINDOW;
  }
  if (from > start) diag_text_putn(t, "...", 3);
  for (i = from; i < to; i++) {
    unsigned char c = (unsigned char)d->src[i];
    char          out = (c < 0x20 && c != '\t') || c == 0x7f ? ' ' : (char)c;
    diag_text_putn(t, &out, 1);
  }
  if (to < end) diag_text_putn(t, "...", 3);
  diag_text_putn(t, "\n", 1);
  if (from > start) diag_text_putn(t, "   ", 3);
  for (i = from; i < loc.off && i < to; i++) {
    unsigned char c = (unsigned char)d->src[i];
    if ((c & 0xc0) == 0x80) continue;
    diag_text_putn(t, c == '\t' ? "\t" : " ", 1);
  }
  diag_text_putn(t, "^\n", 2);
}

/* Format one diagnostic into d->text, record it and echo it to d->out. */
static void emit(diag_ctx *d, diag_level lv, diag_loc loc, const char *fmt, va_list ap) {
  const char *level = lv == DIAG_LEVEL_ERROR ? "error" : "note";
  size_t      begin = d->text.len, msg;
  if (loc.line > 0) diag_text_printf(&d->text, "%s:%d:%d: %s: ", d->path, loc.line, loc.col, level);
  else diag_text_printf(&d->text, "%s: %s: ", d->path, level);
  msg = d->text.len;
  diag_text_vprintf(&d->text, fmt, ap);
  if (!d->text.truncated) record(d, lv, loc, d->text.data + msg, d->text.len - msg);
  diag_text_putn(&d->text, "\n", 1);
  quote_line(&d->text, d, loc);
  if (d->out && !d->text.truncated) {
    fwrite(d->text.data + begin, 1, d->text.len - begin, d->out);
    fflush(d->out);
  }
}

static void emitf(diag_ctx *d, diag_level level, diag_loc loc, const char *fmt, ...)
    DIAG_PRINTF(4, 5);
static void emitf(diag_ctx *d, diag_level level, diag_loc loc, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  emit(d, level, loc, fmt, ap);
  va_end(ap);
}

void diag_error(diag_ctx *d, diag_loc loc, const char *fmt, ...) {
  static const diag_loc nowhere = {0, 0, 0, 0};
  va_list               ap;
  d->n_errors++;
  if (d->n_errors > DIAG_MAX_ERRORS) {
    /* a hostile file can hold millions of errors: say so once, then count only */
    if (d->n_errors == DIAG_MAX_ERRORS + 1)
      emitf(d, DIAG_LEVEL_ERROR, nowhere,
            "too many errors; the rest are not shown (the limit is %d)", DIAG_MAX_ERRORS);
    return;
  }
  va_start(ap, fmt);
  emit(d, DIAG_LEVEL_ERROR, loc, fmt, ap);
  va_end(ap);
}

void diag_note(diag_ctx *d, diag_loc loc, const char *fmt, ...) {
  va_list ap;
  d->n_notes++;
  if (d->n_errors > DIAG_MAX_ERRORS) return; /* its error was not shown */
  va_start(ap, fmt);
  emit(d, DIAG_LEVEL_NOTE, loc, fmt, ap);
  va_end(ap);
}
