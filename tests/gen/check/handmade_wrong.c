/* handmade_wrong.c: handmade.c with one deliberate bug: kernel pick swaps x and y
   on flat element 5, so the harness must exit 3 and name the kernel and index. */
#define HANDMADE_SWAP_AT 5
#include "handmade.c"
