/* arena.h: a region allocator for the generator's front end.
   Everything a parse or a sema run allocates lives in one arena and is freed at once. */
#ifndef WHEREC_GEN_ARENA_H
#define WHEREC_GEN_ARENA_H

#include <setjmp.h>
#include <stddef.h>

typedef struct arena_chunk arena_chunk;

typedef struct arena {
  arena_chunk *head; /* newest chunk; older ones follow its next links */
  size_t       used; /* bytes handed out from head */
  size_t       cap;  /* usable bytes in head */
  jmp_buf     *oom;  /* where to longjmp when malloc fails; NULL: return NULL */
} arena;

void arena_init(arena *a);
void arena_free(arena *a);
/* Zeroed, suitably aligned memory for any object; never NULL unless a->oom is NULL. */
void *arena_alloc(arena *a, size_t size);
/* n elements of size bytes, with an overflow check on n * size. */
void *arena_array(arena *a, size_t n, size_t size);
/* A NUL-terminated copy of the len bytes at s. */
char *arena_strndup(arena *a, const char *s, size_t len);
char *arena_strdup(arena *a, const char *s);

#endif
