/* json.c: the JSON reader (json.h): recursive descent over the text, two passes (count the
   values and the string bytes, then fill one block), so a parse allocates once. */
#include "json.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct reader {
  const char *p, *end, *start;
  json       *nodes;   /* NULL in the counting pass */
  char       *chars;   /* NULL in the counting pass */
  size_t      n_nodes, n_chars;
  char       *err;
  size_t      err_cap;
  bool        failed;
} reader;

static bool fail(reader *r, const char *fmt, ...) {
  if (r->failed) return false;
  r->failed = true;
  int line = 1;
  for (const char *q = r->start; q < r->p && q < r->end; q++) line += *q == '\n';
  int n = snprintf(r->err, r->err_cap, "line %d: ", line);
  if (n >= 0 && (size_t)n < r->err_cap) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->err + n, r->err_cap - (size_t)n, fmt, ap);
    va_end(ap);
  }
  return false;
}

static void skip_space(reader *r) {
  while (r->p < r->end && (*r->p == ' ' || *r->p == '\t' || *r->p == '\n' || *r->p == '\r')) r->p++;
}

static json *new_node(reader *r, json_kind kind) {
  json *v = r->nodes ? &r->nodes[r->n_nodes] : NULL;
  r->n_nodes++;
  if (v) *v = (json){.kind = kind};
  return v;
}

static void put_char(reader *r, char c) {
  if (r->chars) r->chars[r->n_chars] = c;
  r->n_chars++;
}

static int hex4(reader *r) {
  if (r->end - r->p < 4) return -1;
  int v = 0;
  for (int k = 0; k < 4; k++) {
    char c = *r->p++;
    int  d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
           : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
    if (d < 0) return -1;
    v = v * 16 + d;
  }
  return v;
}

static void put_utf8(reader *r, uint32_t c) {
  if (c < 0x80) {
    put_char(r, (char)c);
  } else if (c < 0x800) {
    put_char(r, (char)(0xc0 | c >> 6));
    put_char(r, (char)(0x80 | (c & 0x3f)));
  } else if (c < 0x10000) {
    put_char(r, (char)(0xe0 | c >> 12));
    put_char(r, (char)(0x80 | (c >> 6 & 0x3f)));
    put_char(r, (char)(0x80 | (c & 0x3f)));
  } else {
    put_char(r, (char)(0xf0 | c >> 18));
    put_char(r, (char)(0x80 | (c >> 12 & 0x3f)));
    put_char(r, (char)(0x80 | (c >> 6 & 0x3f)));
    put_char(r, (char)(0x80 | (c & 0x3f)));
  }
}

/* A string after its opening quote: its bytes, unescaped and NUL-terminated, at *out. */
static bool read_string(reader *r, const char **out) {
  size_t begin = r->n_chars;
  for (;;) {
    if (r->p >= r->end) return fail(r, "unterminated string");
    unsigned char c = (unsigned char)*r->p++;
    if (c == '"') break;
    if (c < 0x20) return r->p--, fail(r, "control character in a string"); /* its line, not the next */
    if (c != '\\') {
      put_char(r, (char)c);
      continue;
    }
    if (r->p >= r->end) return fail(r, "unterminated string");
    char e = *r->p++;
    switch (e) {
    case '"': case '\\': case '/': put_char(r, e); break;
    case 'b': put_char(r, '\b'); break;
    case 'f': put_char(r, '\f'); break;
    case 'n': put_char(r, '\n'); break;
    case 'r': put_char(r, '\r'); break;
    case 't': put_char(r, '\t'); break;
    case 'u': {
      int u = hex4(r);
      if (u < 0) return fail(r, "bad \\u escape");
      uint32_t cp = (uint32_t)u;
      if (u >= 0xd800 && u < 0xdc00 && r->end - r->p >= 6 && r->p[0] == '\\' && r->p[1] == 'u') {
        r->p += 2;
        int lo = hex4(r);
        if (lo < 0xdc00 || lo > 0xdfff) return fail(r, "bad surrogate pair");
        cp = 0x10000 + (((uint32_t)u - 0xd800) << 10) + ((uint32_t)lo - 0xdc00);
      } else if (u >= 0xd800 && u <= 0xdfff) {
        cp = 0xfffd; /* a lone surrogate */
      }
      put_utf8(r, cp);
      break;
    }
    default: /* its line, and the byte shown so that the message stays one printable line */
      r->p--;
      if (e > 0x20 && e < 0x7f) return fail(r, "bad escape '\\%c'", e);
      return fail(r, "bad escape: byte 0x%02x after '\\'", (unsigned)(unsigned char)e);
    }
  }
  put_char(r, '\0');
  *out = r->chars ? r->chars + begin : NULL;
  return true;
}

static bool read_number(reader *r, json *v) {
  const char *s = r->p;
  if (r->p < r->end && *r->p == '-') r->p++;
  if (r->p >= r->end || *r->p < '0' || *r->p > '9') return fail(r, "bad number");
  if (*r->p == '0') r->p++;
  else while (r->p < r->end && *r->p >= '0' && *r->p <= '9') r->p++;
  if (r->p < r->end && *r->p == '.') {
    r->p++;
    if (r->p >= r->end || *r->p < '0' || *r->p > '9') return fail(r, "bad number");
    while (r->p < r->end && *r->p >= '0' && *r->p <= '9') r->p++;
  }
  if (r->p < r->end && (*r->p == 'e' || *r->p == 'E')) {
    r->p++;
    if (r->p < r->end && (*r->p == '+' || *r->p == '-')) r->p++;
    if (r->p >= r->end || *r->p < '0' || *r->p > '9') return fail(r, "bad number");
    while (r->p < r->end && *r->p >= '0' && *r->p <= '9') r->p++;
  }
  char   buf[64];
  size_t n = (size_t)(r->p - s);
  if (n >= sizeof buf) return fail(r, "number too long"); /* in both passes: see json_parse */
  if (v) {
    memcpy(buf, s, n);
    buf[n] = '\0';
    v->number = strtod(buf, NULL);
  }
  return true;
}

static bool read_word(reader *r, const char *word) {
  size_t n = strlen(word);
  if ((size_t)(r->end - r->p) < n || memcmp(r->p, word, n) != 0) return fail(r, "unexpected character");
  r->p += n;
  return true;
}

static json *read_value(reader *r, int depth);

/* An array or object after its opening bracket. */
static bool read_container(reader *r, json *v, bool object, int depth) {
  char   close = object ? '}' : ']';
  json **link = v ? &v->first : NULL;
  skip_space(r);
  if (r->p < r->end && *r->p == close) {
    r->p++;
    return true;
  }
  for (;;) {
    const char *key = NULL;
    if (object) {
      skip_space(r);
      if (r->p >= r->end || *r->p != '"') return fail(r, "expected a member name");
      r->p++;
      if (!read_string(r, &key)) return false;
      skip_space(r);
      if (r->p >= r->end || *r->p != ':') return fail(r, "expected ':'");
      r->p++;
    }
    json *e = read_value(r, depth + 1);
    if (r->failed) return false;
    if (v) {
      e->key = key;
      *link = e;
      link = &e->next;
      v->count++;
    }
    skip_space(r);
    if (r->p < r->end && *r->p == ',') {
      r->p++;
      continue;
    }
    if (r->p < r->end && *r->p == close) {
      r->p++;
      return true;
    }
    return fail(r, "expected ',' or '%c'", close);
  }
}

static json *read_value(reader *r, int depth) {
  skip_space(r);
  if (r->p >= r->end) return fail(r, "unexpected end"), NULL;
  char  c = *r->p;
  json *v;
  if (c == '{' || c == '[') {
    /* depth: the containers around this one; JSON_MAX_DEPTH of them nested is the most */
    if (depth >= JSON_MAX_DEPTH) return fail(r, "nested deeper than %d", JSON_MAX_DEPTH), NULL;
    r->p++;
    v = new_node(r, c == '{' ? JSON_OBJECT : JSON_ARRAY);
    read_container(r, v, c == '{', depth);
  } else if (c == '"') {
    r->p++;
    v = new_node(r, JSON_STRING);
    const char *s = NULL;
    if (read_string(r, &s) && v) v->string = s;
  } else if (c == 't' || c == 'f') {
    v = new_node(r, JSON_BOOL);
    if (read_word(r, c == 't' ? "true" : "false") && v) v->boolean = c == 't';
  } else if (c == 'n') {
    v = new_node(r, JSON_NULL);
    read_word(r, "null");
  } else {
    v = new_node(r, JSON_NUMBER);
    read_number(r, v);
  }
  return v;
}

static bool read_document(reader *r, json **root) {
  *root = read_value(r, 0);
  if (r->failed) return false;
  skip_space(r);
  if (r->p != r->end) return fail(r, "text after the value");
  return true;
}

json *json_parse(const char *text, size_t len, char *err, size_t err_cap) {
  /* no text + len when text is NULL (undefined even for 0): "no text" below */
  reader r = {.p = text, .end = text ? text + len : text, .start = text, .err = err, .err_cap = err_cap};
  json  *root = NULL;
  if (err_cap) err[0] = '\0';
  if (!text) return fail(&r, "no text"), NULL;
  if (!read_document(&r, &root)) return NULL; /* counting pass */
  size_t n_nodes = r.n_nodes, n_chars = r.n_chars;
  if (n_nodes > SIZE_MAX / sizeof(json) - 1) return fail(&r, "out of memory"), NULL;
  char *block = malloc(n_nodes * sizeof(json) + n_chars + 1);
  if (!block) return fail(&r, "out of memory"), NULL;
  r = (reader){.p = text, .end = text + len, .start = text, .err = err, .err_cap = err_cap,
               .nodes = (json *)block, .chars = block + n_nodes * sizeof(json)};
  if (!read_document(&r, &root)) { /* the same text: it succeeds again, as both passes check alike */
    free(block);
    return NULL;
  }
  return root;
}

void json_free(json *root) { free(root); }

const json *json_get(const json *o, const char *key) {
  if (!o || o->kind != JSON_OBJECT) return NULL;
  for (const json *m = o->first; m; m = m->next)
    if (strcmp(m->key, key) == 0) return m;
  return NULL;
}

const char *json_get_string(const json *o, const char *key) {
  const json *m = json_get(o, key);
  return m && m->kind == JSON_STRING ? m->string : NULL;
}
