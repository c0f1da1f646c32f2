/* tests/golden/unity.c: a generated source after wherec's headers in one
   translation unit, as a unity build puts them: it must still compile under
   -march=native (source.c.tpl then keeps the file's target as it is). */
#include <wherec/wherec.h>

#include "golden.c"
