/* vec.h: one growable array for every element type: VEC(T) declares it, vec_push
   adds a zeroed slot; backed by an arena (old storage abandoned) or by malloc. */
#ifndef WHEREC_GEN_VEC_H
#define WHEREC_GEN_VEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "base/arena.h"

/* At most VEC_MAX elements, so that a count fits the AST's int fields. */
#define VEC_MAX ((size_t)0x7fffffff)

/* A vector of T; zero-initialise it ({0}) to start empty. */
#define VEC(T)                         \
  struct {                             \
    T     *data; /* n used slots */    \
    size_t n;    /* slots used */      \
    size_t cap;  /* slots allocated */ \
  }

/* Doubles the storage whose pointer is at *data_field (a T *, n used slots of
   size bytes, *cap allocated): in a when a is not NULL, else by realloc.
   False, with nothing changed, when the count would pass VEC_MAX, the new byte
   size would overflow, or memory ran out (an arena with an oom point jumps there). */
bool vec_grow_(arena *a, void *data_field, size_t n, size_t *cap, size_t size);

/* A pointer to a new zeroed slot at the end of v (a VEC(T) *; evaluated more
   than once), or NULL when vec_grow_ failed. a: the arena, or NULL for malloc. */
#define vec_push(a, v)                                                                   \
  ((v)->n < (v)->cap || vec_grow_((a), &(v)->data, (v)->n, &(v)->cap, sizeof *(v)->data) \
       ? (memset(&(v)->data[(v)->n], 0, sizeof *(v)->data), &(v)->data[(v)->n++])        \
       : NULL)

/* Frees a malloc-backed vector and empties it (an arena's is freed with the arena). */
#define vec_free(v) (free((v)->data), (v)->data = NULL, (v)->n = (v)->cap = 0)

#endif
