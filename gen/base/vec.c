/* vec.c: growth of the type-generic vector of vec.h, with its overflow checks,
   in an arena or by realloc. */
#include "base/vec.h"

#include <stdint.h>
#include <stdlib.h>

bool vec_grow_(arena *a, void *data_field, size_t n, size_t *cap, size_t size) {
  void  *old, *data;
  size_t want = *cap ? *cap * 2 : 8;
  if (*cap >= VEC_MAX) return false;
  if (want > VEC_MAX) want = VEC_MAX;
  if (size && want > SIZE_MAX / size) return false;
  /* the field is a T *: copied as bytes, since it is not a void * object */
  memcpy(&old, data_field, sizeof old);
  if (a) {
    data = arena_array(a, want, size);
    if (data && n) memcpy(data, old, n * size);
  } else {
    data = realloc(old, want * size);
  }
  if (data == NULL) return false;
  memcpy(data_field, &data, sizeof data);
  *cap = want;
  return true;
}
