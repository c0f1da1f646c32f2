/* json.h: a small JSON reader for the execution provider's manifest: the whole text into a
   tree of values in one allocation block, strict RFC 8259, with a depth limit and errors. */
#ifndef WHEREC_EP_JSON_H
#define WHEREC_EP_JSON_H

#include <stdbool.h>
#include <stddef.h>

typedef enum json_kind { JSON_NULL, JSON_BOOL, JSON_NUMBER, JSON_STRING, JSON_ARRAY, JSON_OBJECT } json_kind;

typedef struct json json;
struct json {
  json_kind   kind;
  bool        boolean;  /* JSON_BOOL */
  double      number;   /* JSON_NUMBER */
  const char *string;   /* JSON_STRING: UTF-8, NUL-terminated (a \u0000 ends it early) */
  const char *key;      /* the member's name, inside an object; else NULL */
  json       *first;    /* JSON_ARRAY, JSON_OBJECT: the first element or member */
  json       *next;     /* the next element or member of the container */
  size_t      count;    /* JSON_ARRAY, JSON_OBJECT: elements or members */
};

/* Deepest nesting json_parse accepts (the manifest nests six deep). */
#define JSON_MAX_DEPTH 64

/* Parses text[0, len). Returns the root, or NULL with a message in err ("line 3: expected
   ':'") on bad input or no memory. Everything lives in one block: json_free(root) frees it. */
json *json_parse(const char *text, size_t len, char *err, size_t err_cap);
void  json_free(json *root);

/* The member key of object o, or NULL (also when o is not an object). */
const json *json_get(const json *o, const char *key);
/* The string of member key, or NULL when o has no such member or it is not a string. */
const char *json_get_string(const json *o, const char *key);

#endif
