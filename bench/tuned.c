/* tuned.c: the hand-tuned C loops each benchmark case is held against, written
   as an expert would without intrinsics: restrict, branch-free blends, block copies. */
#include <string.h>

#include "bench.h"

/* Each loop takes restrict parameters (gcc trusts restrict on parameters,
   not on locals: no run-time overlap checks) and the generated kernel's
   signature, so bench.c calls both alike. The condition is read as the 0/1
   byte it is (B(c): gcc vectorizes no loads of _Bool), and 0 - c is an
   all-ones or all-zero mask that blends the two loads: the compiler emits
   vector blends, and no data-dependent branch exists. */
#define B(c) ((const uint8_t *)(c))

/* Plain where moves bits: one loop per element width. */
#define SAME(W, T)                                                             \
  void tuned_same_w##W(size_t n, const bool *restrict c, const T *restrict x,   \
                       const T *restrict y, T *restrict o) {                   \
    for (size_t i = 0; i < n; i++) {                                           \
      const T m = (T)((T)0 - (T)B(c)[i]);                                      \
      o[i] = (T)((x[i] & m) | (y[i] & (T)~m));                                 \
    }                                                                          \
  }
SAME(1, uint8_t)
SAME(2, uint16_t)
SAME(4, uint32_t)
SAME(8, uint64_t)

/* The condition is constant along a row: choose the source row once, copy it. */
void tuned_row_bcast(size_t rows, size_t cols, const bool *restrict c, const float *restrict x,
                     const float *restrict y, float *restrict o) {
  for (size_t r = 0; r < rows; r++)
    memcpy(o + r * cols, c[r] ? x + r * cols : y, cols * sizeof *o);
}

/* A scalar operand is one register, blended against the streamed operand. */
void tuned_scalar_x(size_t n, const bool *restrict c, const uint32_t *restrict x,
                    const uint32_t *restrict y, uint32_t *restrict o) {
  const uint32_t s = *x;
  for (size_t i = 0; i < n; i++) {
    const uint32_t m = 0u - (uint32_t)B(c)[i];
    o[i] = (s & m) | (y[i] & ~m);
  }
}

void tuned_scalar_y(size_t n, const bool *restrict c, const uint32_t *restrict x,
                    const uint32_t *restrict y, uint32_t *restrict o) {
  const uint32_t s = *y;
  for (size_t i = 0; i < n; i++) {
    const uint32_t m = 0u - (uint32_t)B(c)[i];
    o[i] = (x[i] & m) | (s & ~m);
  }
}

/* A scalar condition picks a whole operand: one copy. */
void tuned_scalar_c(size_t n, const bool *restrict c, const float *restrict x,
                    const float *restrict y, float *restrict o) {
  memcpy(o, *c ? x : y, n * sizeof *o);
}

/* Five outer loops walk the broadcast strides; the contiguous inner row of
   F elements is a blend. Extents in the kernel's order (of first appearance). */
void tuned_bcast6(size_t A, size_t C, size_t E, size_t F, size_t B, size_t D,
                  const bool *restrict c, const uint32_t *restrict x,
                  const uint32_t *restrict y, uint32_t *restrict o) {
  for (size_t ia = 0; ia < A; ia++)
    for (size_t ib = 0; ib < B; ib++)
      for (size_t ic = 0; ic < C; ic++)
        for (size_t id = 0; id < D; id++)
          for (size_t ie = 0; ie < E; ie++, o += F) {
            const uint8_t *cr = B(c) + ((ia * C + ic) * E + ie) * F;
            const uint32_t *xr = x + ((ia * B + ib) * D + id) * F;
            const uint32_t *yr = y + (((ib * C + ic) * D + id) * E + ie) * F;
            for (size_t f = 0; f < F; f++) {
              const uint32_t m = 0u - (uint32_t)cr[f];
              o[f] = (xr[f] & m) | (yr[f] & ~m);
            }
          }
}

/* Leaky relu in one pass, blending the bits of x and x * 0.01f. Written as
   `v > 0 ? v : v * 0.01f`, gcc sinks the multiply into the false arm, will
   not speculate it (it may raise an FP exception) and emits a branch:
   twenty times slower on random signs. */
void tuned_leaky(size_t n, const float *restrict x, float *restrict o) {
  for (size_t i = 0; i < n; i++) {
    const float v = x[i], s = v * 0.01f;
    uint32_t vb, sb, r;
    memcpy(&vb, &v, 4);
    memcpy(&sb, &s, 4);
    const uint32_t m = 0u - (uint32_t)(v > 0.0f);
    r = (vb & m) | (sb & ~m);
    memcpy(&o[i], &r, 4);
  }
}

/* Bools are 0 or 1 bytes, so the popcount of 8 of them is their count. */
static int64_t count_true(const uint8_t *c, size_t n) {
  int64_t count = 0;
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    uint64_t w;
    memcpy(&w, c + i, 8);
    count += __builtin_popcountll(w);
  }
  for (; i < n; i++) count += c[i];
  return count;
}

/* Bit k set when bool p[k] is 1, k < 64: 8 bools of 0/1 at a time, gathered
   into 8 bits by one multiply. */
static uint64_t mask64(const uint8_t *p) {
  uint64_t m = 0;
  for (int k = 0; k < 8; k++) {
    uint64_t w;
    memcpy(&w, p + 8 * k, 8);
    m |= ((w * UINT64_C(0x0102040810204080)) >> 56) << (8 * k);
  }
  return m;
}

/* Coordinates of the count true elements, 64 bools at a time: their mask,
   then one slot per set bit by ctz, the first two and the rounds of 8 after
   them written without testing what is left (a slot past the last set bit
   gets column j + 63 and is overwritten by the next block), so sparse rows
   take no data-dependent branch; near the end of the output, exactly one per
   set bit. `step` separates the two coordinates of an element and `next` the
   elements: (1, 2) for argwhere's [n, 2] rows, (count, 1) for nonzero's [2, n]. */
static int64_t fill_coords(const uint8_t *restrict c, size_t rows, size_t cols, int64_t count,
                           int64_t *restrict coords, size_t step, size_t next) {
  const uint64_t guard = UINT64_C(1) << 63;
  int64_t n = 0;
#define SLOT(q, bits) (s[(q) * next] = r, s[(q) * next + step] = j + __builtin_ctzll(bits), m &= m - 1)
  for (int64_t r = 0; r < (int64_t)rows && n < count; r++) {
    const uint8_t *cr = c + (size_t)r * cols;
    for (int64_t j = 0; j < (int64_t)cols; j += 64) {
      const size_t rest = cols - (size_t)j;
      uint64_t m = 0;
      if (rest >= 64) m = mask64(cr + j);
      else
        for (size_t k = 0; k < rest; k++) m |= (uint64_t)cr[j + (int64_t)k] << k;
      const int set = __builtin_popcountll(m);
      int64_t *s = coords + (size_t)n * next;
      if (n + 66 <= count) {
        int k = 2;
        SLOT(0, m | guard), SLOT(1, m | guard);
        for (; k + 8 <= set; k += 8, s += 8 * next)
          SLOT(2, m), SLOT(3, m), SLOT(4, m), SLOT(5, m), SLOT(6, m), SLOT(7, m), SLOT(8, m), SLOT(9, m);
        if (k < set)
          SLOT(2, m | guard), SLOT(3, m | guard), SLOT(4, m | guard), SLOT(5, m | guard),
              SLOT(6, m | guard), SLOT(7, m | guard), SLOT(8, m | guard), SLOT(9, m | guard);
      } else {
        for (; m; s += next) SLOT(0, m);
      }
      n += set;
    }
  }
#undef SLOT
  return n;
}

/* Count, then fill, as numpy and the generated kernels do: callers size
   the output from the count. */
int64_t tuned_argwhere(size_t rows, size_t cols, const bool *c, int64_t *coords) {
  const int64_t count = count_true(B(c), rows * cols);
  return fill_coords(B(c), rows, cols, count, coords, 1, 2);
}

int64_t tuned_nonzero(size_t rows, size_t cols, const bool *c, int64_t *coords) {
  const int64_t count = count_true(B(c), rows * cols);
  return fill_coords(B(c), rows, cols, count, coords, (size_t)count, 1);
}

/* Four elements: straight-line blends, no loop. */
void tuned_tiny(const bool *restrict c, const uint32_t *restrict x, const uint32_t *restrict y,
                uint32_t *restrict o) {
  for (int i = 0; i < 4; i++) {
    const uint32_t m = 0u - (uint32_t)B(c)[i];
    o[i] = (x[i] & m) | (y[i] & ~m);
  }
}
