/* arena.c: a region allocator for the generator's front end.
   Chunks grow geometrically up to 1 MiB; a failed malloc jumps to the owner's recovery point. */
#include "base/arena.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define ARENA_MIN_CHUNK ((size_t)16 * 1024)
#define ARENA_MAX_CHUNK ((size_t)1024 * 1024) /* growth stops here: bounded waste */

struct arena_chunk {
  arena_chunk *next;   /* the chunk allocated before this one */
  max_align_t  data[]; /* payload, aligned for any object */
};

void arena_init(arena *a) {
  a->head = NULL;
  a->used = 0;
  a->cap = 0;
  a->oom = NULL;
}

void arena_free(arena *a) {
  arena_chunk *c = a->head;
  while (c) {
    arena_chunk *next = c->next;
    free(c);
    c = next;
  }
  a->head = NULL;
  a->used = a->cap = 0;
}

/* Out of memory: unwind to the owner (parse or sema entry point) if it asked
   for that, so callers deep in recursion need no NULL checks. */
static void *out_of_memory(arena *a) {
  if (a->oom) longjmp(*a->oom, 1);
  return NULL;
}

void *arena_alloc(arena *a, size_t size) {
  const size_t align = sizeof(max_align_t);
  size_t       need = size ? size : 1;
  void        *p;
  if (need > SIZE_MAX - align) return out_of_memory(a);
  need = (need + align - 1) / align * align;
  if (!a->head || a->cap - a->used < need) {
    size_t       cap = !a->cap                    ? ARENA_MIN_CHUNK
                       : a->cap < ARENA_MAX_CHUNK ? a->cap * 2
                                                  : ARENA_MAX_CHUNK;
    arena_chunk *c;
    if (cap < need) cap = need;
    if (cap > SIZE_MAX - sizeof(arena_chunk)) return out_of_memory(a);
    c = malloc(sizeof(arena_chunk) + cap);
    if (!c) return out_of_memory(a);
    c->next = a->head;
    a->head = c;
    a->cap = cap;
    a->used = 0;
  }
  p = (char *)a->head->data + a->used;
  a->used += need;
  memset(p, 0, size);
  return p;
}

void *arena_array(arena *a, size_t n, size_t size) {
  if (size && n > SIZE_MAX / size) return out_of_memory(a);
  return arena_alloc(a, n * size);
}

char *arena_strndup(arena *a, const char *s, size_t len) {
  char *p;
  if (len == SIZE_MAX) return out_of_memory(a);
  p = arena_alloc(a, len + 1);
  if (!p) return NULL;
  if (len) memcpy(p, s, len);
  p[len] = '\0';
  return p;
}

char *arena_strdup(arena *a, const char *s) { return arena_strndup(a, s, strlen(s)); }
