/* handmade.c: written by hand in the shape of `wherec gen` output for
   tests/gen/check/handmade.where (prefix handmade, unroll 4), to test the check harness. */
#include "handmade.h"

/* ---- pick(c: bool[N], x: float[N], y: float[N]) = where(c, x, y) ---------- */

void handmade_pick_range(size_t N, const bool *a0, const float *a1, const float *a2, float *out,
                         size_t begin, size_t end) {
  size_t i = begin;
  (void)N;
  for (; i + 4 <= end; i += 4) {                      /* load both sides, then select */
    float x0 = a1[i], x1 = a1[i + 1], x2 = a1[i + 2], x3 = a1[i + 3];
    float y0 = a2[i], y1 = a2[i + 1], y2 = a2[i + 2], y3 = a2[i + 3];
    out[i] = a0[i] ? x0 : y0;
    out[i + 1] = a0[i + 1] ? x1 : y1;
    out[i + 2] = a0[i + 2] ? x2 : y2;
    out[i + 3] = a0[i + 3] ? x3 : y3;
  }
  for (; i < end; i++) out[i] = a0[i] ? a1[i] : a2[i];
#ifdef HANDMADE_SWAP_AT
  /* test hook: handmade_wrong.c defines it to swap x and y on one element */
  if (begin <= HANDMADE_SWAP_AT && HANDMADE_SWAP_AT < end)
    out[HANDMADE_SWAP_AT] = a0[HANDMADE_SWAP_AT] ? a2[HANDMADE_SWAP_AT] : a1[HANDMADE_SWAP_AT];
#endif
}

void handmade_pick(size_t N, const bool *a0, const float *a1, const float *a2, float *out) {
  handmade_pick_range(N, a0, a1, a2, out, 0, N);
}

static void handmade_pick_invoke(const size_t *e, const void *const *in, void *out, size_t begin,
                                 size_t end) {
  handmade_pick_range(e[0], (const bool *)in[0], (const float *)in[1], (const float *)in[2],
                      (float *)out, begin, end);
}

static const int64_t handmade_pick_dims_c[] = {WC_SYM(0)};
static const int64_t handmade_pick_dims_x[] = {WC_SYM(0)};
static const int64_t handmade_pick_dims_y[] = {WC_SYM(0)};
static const int64_t handmade_pick_dims_out[] = {WC_SYM(0)};
static const wc_param handmade_pick_params[] = {
  {"c", WC_BOOL, 1, handmade_pick_dims_c, NULL},
  {"x", WC_FLOAT, 1, handmade_pick_dims_x, NULL},
  {"y", WC_FLOAT, 1, handmade_pick_dims_y, NULL},
};
static const char *const handmade_pick_extents[] = {"N"};
static const wc_instr handmade_pick_program[] = {
  {WC_OP_INPUT, WC_BOOL, 0, 0, 0, {0, 0}},
  {WC_OP_INPUT, WC_FLOAT, 1, 0, 0, {0, 0}},
  {WC_OP_INPUT, WC_FLOAT, 2, 0, 0, {0, 0}},
  {WC_OP_WHERE, WC_FLOAT, 0, 1, 2, {0, 0}},
};

/* ---- rows(c: bool[N,1], x: int32[N,M], y: int32[1,M]) = where(c, x, y) ----- */

/* cond is broadcast along the row: one pointer choice, then a block copy
   (memmove: out may be x itself). */
void handmade_rows_range(size_t N, size_t M, const bool *a0, const int32_t *a1, const int32_t *a2,
                         int32_t *out, size_t begin, size_t end) {
  size_t i = begin, r, j;
  (void)N;
  if (begin >= end || M == 0) return;
  r = begin / M;
  j = begin % M;
  while (i < end) {
    size_t n = end - i < M - j ? end - i : M - j;
    const int32_t *src = a0[r] ? a1 + r * M + j : a2 + j;
    memmove(out + i, src, n * sizeof *out);
    i += n;
    r++;
    j = 0;
  }
}

void handmade_rows(size_t N, size_t M, const bool *a0, const int32_t *a1, const int32_t *a2,
                   int32_t *out) {
  handmade_rows_range(N, M, a0, a1, a2, out, 0, N * M);
}

static void handmade_rows_invoke(const size_t *e, const void *const *in, void *out, size_t begin,
                                 size_t end) {
  handmade_rows_range(e[0], e[1], (const bool *)in[0], (const int32_t *)in[1],
                      (const int32_t *)in[2], (int32_t *)out, begin, end);
}

static const int64_t handmade_rows_dims_c[] = {WC_SYM(0), 1};
static const int64_t handmade_rows_dims_x[] = {WC_SYM(0), WC_SYM(1)};
static const int64_t handmade_rows_dims_y[] = {1, WC_SYM(1)};
static const int64_t handmade_rows_dims_out[] = {WC_SYM(0), WC_SYM(1)};
static const wc_param handmade_rows_params[] = {
  {"c", WC_BOOL, 2, handmade_rows_dims_c, NULL},
  {"x", WC_INT32, 2, handmade_rows_dims_x, NULL},
  {"y", WC_INT32, 2, handmade_rows_dims_y, NULL},
};
static const char *const handmade_rows_extents[] = {"N", "M"};
static const wc_instr handmade_rows_program[] = {
  {WC_OP_INPUT, WC_BOOL, 0, 0, 0, {0, 0}},
  {WC_OP_INPUT, WC_INT32, 1, 0, 0, {0, 0}},
  {WC_OP_INPUT, WC_INT32, 2, 0, 0, {0, 0}},
  {WC_OP_WHERE, WC_INT32, 0, 1, 2, {0, 0}},
};

/* ---- leaky(x: float[N,5]) = where(x > 0, x, x * 0.01) --------------------- */

void handmade_leaky_range(size_t N, const float *a0, float *out, size_t begin, size_t end) {
  const float k0 = 0.0f, k1 = 0.01f;                  /* 0x00000000, 0x3c23d70a */
  size_t i = begin;
  (void)N;
  for (; i + 4 <= end; i += 4) {
    float v0 = a0[i], v1 = a0[i + 1], v2 = a0[i + 2], v3 = a0[i + 3];
    out[i] = wc_gt_f32(v0, k0) ? v0 : wc_mul_f32(v0, k1);
    out[i + 1] = wc_gt_f32(v1, k0) ? v1 : wc_mul_f32(v1, k1);
    out[i + 2] = wc_gt_f32(v2, k0) ? v2 : wc_mul_f32(v2, k1);
    out[i + 3] = wc_gt_f32(v3, k0) ? v3 : wc_mul_f32(v3, k1);
  }
  for (; i < end; i++) {
    float v = a0[i];
    out[i] = wc_gt_f32(v, k0) ? v : wc_mul_f32(v, k1);
  }
}

void handmade_leaky(size_t N, const float *a0, float *out) {
  handmade_leaky_range(N, a0, out, 0, N * 5);
}

static void handmade_leaky_invoke(const size_t *e, const void *const *in, void *out, size_t begin,
                                  size_t end) {
  handmade_leaky_range(e[0], (const float *)in[0], (float *)out, begin, end);
}

static const int64_t handmade_leaky_dims_x[] = {WC_SYM(0), 5};
static const int64_t handmade_leaky_dims_out[] = {WC_SYM(0), 5};
static const wc_param handmade_leaky_params[] = {
  {"x", WC_FLOAT, 2, handmade_leaky_dims_x, NULL},
};
static const char *const handmade_leaky_extents[] = {"N"};
static const wc_instr handmade_leaky_program[] = {
  {WC_OP_INPUT, WC_FLOAT, 0, 0, 0, {0, 0}},
  {WC_OP_CONST, WC_FLOAT, 0, 0, 0, {0x00000000u, 0}},
  {WC_OP_GT, WC_BOOL, 0, 1, 0, {0, 0}},
  {WC_OP_CONST, WC_FLOAT, 0, 0, 0, {0x3c23d70au, 0}},
  {WC_OP_MUL, WC_FLOAT, 0, 3, 0, {0, 0}},
  {WC_OP_WHERE, WC_FLOAT, 2, 0, 4, {0, 0}},
};

/* ---- coords(c: bool[N,3]) = argwhere(c) ----------------------------------- */

int64_t handmade_coords_count(size_t N, const bool *a0) {
  int64_t n = 0;
  for (size_t i = 0; i < N * 3; i++) n += a0[i];
  return n;
}

/* [n, 2] coordinates, odometer order; writes exactly n rows. */
int64_t handmade_coords(size_t N, const bool *a0, int64_t *coords) {
  int64_t n = 0;
  for (size_t i0 = 0; i0 < N; i0++)
    for (size_t i1 = 0; i1 < 3; i1++)
      if (a0[i0 * 3 + i1]) {
        coords[2 * n] = (int64_t)i0;
        coords[2 * n + 1] = (int64_t)i1;
        n++;
      }
  return n;
}

static int64_t handmade_coords_invoke_count(const size_t *e, const void *const *in) {
  return handmade_coords_count(e[0], (const bool *)in[0]);
}

static void handmade_coords_invoke(const size_t *e, const void *const *in, int64_t count,
                                   int64_t *coords) {
  (void)count;
  handmade_coords(e[0], (const bool *)in[0], coords);
}

static const int64_t handmade_coords_dims_c[] = {WC_SYM(0), 3};
static const int64_t handmade_coords_dims_out[] = {WC_SYM(0), 3};
static const wc_param handmade_coords_params[] = {
  {"c", WC_BOOL, 2, handmade_coords_dims_c, NULL},
};
static const char *const handmade_coords_extents[] = {"N"};
static const wc_instr handmade_coords_program[] = {
  {WC_OP_INPUT, WC_BOOL, 0, 0, 0, {0, 0}},
};

/* ---- nz(c: float[N,2]) = nonzero(c) --------------------------------------- */

int64_t handmade_nz_count(size_t N, const float *a0) {
  int64_t n = 0;
  for (size_t i = 0; i < N * 2; i++) n += wc_ne_f32(a0[i], 0.0f);   /* NaN counts */
  return n;
}

/* [2, n] coordinates: the count first, so each dimension's row starts at d * n. */
int64_t handmade_nz(size_t N, const float *a0, int64_t *coords) {
  int64_t n = handmade_nz_count(N, a0), k = 0;
  for (size_t i0 = 0; i0 < N; i0++)
    for (size_t i1 = 0; i1 < 2; i1++)
      if (wc_ne_f32(a0[i0 * 2 + i1], 0.0f)) {
        coords[k] = (int64_t)i0;
        coords[n + k] = (int64_t)i1;
        k++;
      }
  return n;
}

static int64_t handmade_nz_invoke_count(const size_t *e, const void *const *in) {
  return handmade_nz_count(e[0], (const float *)in[0]);
}

static void handmade_nz_invoke(const size_t *e, const void *const *in, int64_t count,
                               int64_t *coords) {
  (void)count;
  handmade_nz(e[0], (const float *)in[0], coords);
}

static const int64_t handmade_nz_dims_c[] = {WC_SYM(0), 2};
static const int64_t handmade_nz_dims_out[] = {WC_SYM(0), 2};
static const wc_param handmade_nz_params[] = {
  {"c", WC_FLOAT, 2, handmade_nz_dims_c, NULL},
};
static const char *const handmade_nz_extents[] = {"N"};
static const wc_instr handmade_nz_program[] = {
  {WC_OP_INPUT, WC_FLOAT, 0, 0, 0, {0, 0}},
};

/* ---- v1(c: bool[B], x: double[B,3], y: double[B,3]) = where_v1(c, x, y) --- */

/* cond picks whole rows of 3. */
void handmade_v1_range(size_t B, const bool *a0, const double *a1, const double *a2, double *out,
                       size_t begin, size_t end) {
  (void)B;
  for (size_t i = begin; i < end; i++) {
    double x = a1[i], y = a2[i];
    out[i] = a0[i / 3] ? x : y;
  }
}

void handmade_v1(size_t B, const bool *a0, const double *a1, const double *a2, double *out) {
  handmade_v1_range(B, a0, a1, a2, out, 0, B * 3);
}

static void handmade_v1_invoke(const size_t *e, const void *const *in, void *out, size_t begin,
                               size_t end) {
  handmade_v1_range(e[0], (const bool *)in[0], (const double *)in[1], (const double *)in[2],
                    (double *)out, begin, end);
}

static const int64_t handmade_v1_dims_c[] = {WC_SYM(0)};
static const int64_t handmade_v1_dims_x[] = {WC_SYM(0), 3};
static const int64_t handmade_v1_dims_y[] = {WC_SYM(0), 3};
static const int64_t handmade_v1_dims_out[] = {WC_SYM(0), 3};
static const wc_param handmade_v1_params[] = {
  {"c", WC_BOOL, 1, handmade_v1_dims_c, NULL},
  {"x", WC_DOUBLE, 2, handmade_v1_dims_x, NULL},
  {"y", WC_DOUBLE, 2, handmade_v1_dims_y, NULL},
};
static const char *const handmade_v1_extents[] = {"B"};
static const wc_instr handmade_v1_program[] = {
  {WC_OP_INPUT, WC_BOOL, 0, 0, 0, {0, 0}},
  {WC_OP_INPUT, WC_DOUBLE, 1, 0, 0, {0, 0}},
  {WC_OP_INPUT, WC_DOUBLE, 2, 0, 0, {0, 0}},
  {WC_OP_WHERE, WC_DOUBLE, 0, 1, 2, {0, 0}},
};

/* ---- clamp(x: float16[N], lo: float16[], hi: float16[]) ------------------- */
/*      = where(x < lo, lo, where(x > hi, hi, x))                              */

void handmade_clamp_range(size_t N, const wc_float16 *a0, const wc_float16 *a1,
                          const wc_float16 *a2, wc_float16 *out, size_t begin, size_t end) {
  const wc_float16 lo = *a1, hi = *a2;                 /* scalars stay in registers */
  (void)N;
  for (size_t i = begin; i < end; i++) {
    wc_float16 v = a0[i];
    wc_float16 inner = wc_gt_f16(v, hi) ? hi : v;
    out[i] = wc_lt_f16(v, lo) ? lo : inner;
  }
}

void handmade_clamp(size_t N, const wc_float16 *a0, const wc_float16 *a1, const wc_float16 *a2,
                    wc_float16 *out) {
  handmade_clamp_range(N, a0, a1, a2, out, 0, N);
}

static void handmade_clamp_invoke(const size_t *e, const void *const *in, void *out, size_t begin,
                                  size_t end) {
  handmade_clamp_range(e[0], (const wc_float16 *)in[0], (const wc_float16 *)in[1],
                       (const wc_float16 *)in[2], (wc_float16 *)out, begin, end);
}

static const int64_t handmade_clamp_dims_x[] = {WC_SYM(0)};
static const int64_t handmade_clamp_dims_out[] = {WC_SYM(0)};
static const wc_param handmade_clamp_params[] = {
  {"x", WC_FLOAT16, 1, handmade_clamp_dims_x, NULL},
  {"lo", WC_FLOAT16, 0, NULL, NULL},
  {"hi", WC_FLOAT16, 0, NULL, NULL},
};
static const char *const handmade_clamp_extents[] = {"N"};
static const wc_instr handmade_clamp_program[] = {
  {WC_OP_INPUT, WC_FLOAT16, 0, 0, 0, {0, 0}},
  {WC_OP_INPUT, WC_FLOAT16, 1, 0, 0, {0, 0}},
  {WC_OP_INPUT, WC_FLOAT16, 2, 0, 0, {0, 0}},
  {WC_OP_LT, WC_BOOL, 0, 1, 0, {0, 0}},
  {WC_OP_GT, WC_BOOL, 0, 2, 0, {0, 0}},
  {WC_OP_WHERE, WC_FLOAT16, 4, 2, 0, {0, 0}},
  {WC_OP_WHERE, WC_FLOAT16, 3, 1, 5, {0, 0}},
};

/* ---- names(c: bool[N], x: string[N], y: string[]) = where(c, x, y) -------- */

void handmade_names_range(size_t N, const bool *a0, const wc_string *a1, const wc_string *a2,
                          wc_string *out, size_t begin, size_t end) {
  const wc_string y = *a2;
  (void)N;
  for (size_t i = begin; i < end; i++) {
    wc_string x = a1[i];
    out[i] = a0[i] ? x : y;
  }
}

void handmade_names(size_t N, const bool *a0, const wc_string *a1, const wc_string *a2,
                    wc_string *out) {
  handmade_names_range(N, a0, a1, a2, out, 0, N);
}

static void handmade_names_invoke(const size_t *e, const void *const *in, void *out, size_t begin,
                                  size_t end) {
  handmade_names_range(e[0], (const bool *)in[0], (const wc_string *)in[1],
                       (const wc_string *)in[2], (wc_string *)out, begin, end);
}

static const int64_t handmade_names_dims_c[] = {WC_SYM(0)};
static const int64_t handmade_names_dims_x[] = {WC_SYM(0)};
static const int64_t handmade_names_dims_out[] = {WC_SYM(0)};
static const wc_param handmade_names_params[] = {
  {"c", WC_BOOL, 1, handmade_names_dims_c, NULL},
  {"x", WC_STRING, 1, handmade_names_dims_x, NULL},
  {"y", WC_STRING, 0, NULL, NULL},
};
static const char *const handmade_names_extents[] = {"N"};
static const wc_instr handmade_names_program[] = {
  {WC_OP_INPUT, WC_BOOL, 0, 0, 0, {0, 0}},
  {WC_OP_INPUT, WC_STRING, 1, 0, 0, {0, 0}},
  {WC_OP_INPUT, WC_STRING, 2, 0, 0, {0, 0}},
  {WC_OP_WHERE, WC_STRING, 0, 1, 2, {0, 0}},
};

/* ---- cplx(c: bool[2,N], x: complex128[2,N], y: complex128[1]) ------------- */

void handmade_cplx_range(size_t N, const bool *a0, const wc_complex128 *a1,
                         const wc_complex128 *a2, wc_complex128 *out, size_t begin, size_t end) {
  const wc_complex128 y = a2[0];
  (void)N;
  for (size_t i = begin; i < end; i++) {
    wc_complex128 x = a1[i];
    out[i] = a0[i] ? x : y;
  }
}

void handmade_cplx(size_t N, const bool *a0, const wc_complex128 *a1, const wc_complex128 *a2,
                   wc_complex128 *out) {
  handmade_cplx_range(N, a0, a1, a2, out, 0, 2 * N);
}

static void handmade_cplx_invoke(const size_t *e, const void *const *in, void *out, size_t begin,
                                 size_t end) {
  handmade_cplx_range(e[0], (const bool *)in[0], (const wc_complex128 *)in[1],
                      (const wc_complex128 *)in[2], (wc_complex128 *)out, begin, end);
}

static const int64_t handmade_cplx_dims_c[] = {2, WC_SYM(0)};
static const int64_t handmade_cplx_dims_x[] = {2, WC_SYM(0)};
static const int64_t handmade_cplx_dims_y[] = {1};
static const int64_t handmade_cplx_dims_out[] = {2, WC_SYM(0)};
static const wc_param handmade_cplx_params[] = {
  {"c", WC_BOOL, 2, handmade_cplx_dims_c, NULL},
  {"x", WC_COMPLEX128, 2, handmade_cplx_dims_x, NULL},
  {"y", WC_COMPLEX128, 1, handmade_cplx_dims_y, NULL},
};
static const char *const handmade_cplx_extents[] = {"N"};
static const wc_instr handmade_cplx_program[] = {
  {WC_OP_INPUT, WC_BOOL, 0, 0, 0, {0, 0}},
  {WC_OP_INPUT, WC_COMPLEX128, 1, 0, 0, {0, 0}},
  {WC_OP_INPUT, WC_COMPLEX128, 2, 0, 0, {0, 0}},
  {WC_OP_WHERE, WC_COMPLEX128, 0, 1, 2, {0, 0}},
};

/* ---- the table ------------------------------------------------------------- */

static const wc_kernel handmade_kernels[] = {
  {"pick", WC_KIND_ELEMENTWISE, 3, handmade_pick_params, 1, handmade_pick_extents, WC_FLOAT,
   1, handmade_pick_dims_out, 4, handmade_pick_program, handmade_pick_invoke, NULL, NULL, 1, NULL, NULL, NULL},
  {"rows", WC_KIND_ELEMENTWISE, 3, handmade_rows_params, 2, handmade_rows_extents, WC_INT32,
   2, handmade_rows_dims_out, 4, handmade_rows_program, handmade_rows_invoke, NULL, NULL, 1, NULL, NULL, NULL},
  {"leaky", WC_KIND_ELEMENTWISE, 1, handmade_leaky_params, 1, handmade_leaky_extents, WC_FLOAT,
   2, handmade_leaky_dims_out, 6, handmade_leaky_program, handmade_leaky_invoke, NULL, NULL, 1, NULL, NULL, NULL},
  {"coords", WC_KIND_ARGWHERE, 1, handmade_coords_params, 1, handmade_coords_extents, WC_INT64,
   2, handmade_coords_dims_out, 1, handmade_coords_program, NULL, handmade_coords_invoke_count,
   handmade_coords_invoke, 1, NULL, NULL, NULL},
  {"nz", WC_KIND_NONZERO, 1, handmade_nz_params, 1, handmade_nz_extents, WC_INT64,
   2, handmade_nz_dims_out, 1, handmade_nz_program, NULL, handmade_nz_invoke_count,
   handmade_nz_invoke, 1, NULL, NULL, NULL},
  {"v1", WC_KIND_WHERE_V1, 3, handmade_v1_params, 1, handmade_v1_extents, WC_DOUBLE,
   2, handmade_v1_dims_out, 4, handmade_v1_program, handmade_v1_invoke, NULL, NULL, 1, NULL, NULL, NULL},
  {"clamp", WC_KIND_ELEMENTWISE, 3, handmade_clamp_params, 1, handmade_clamp_extents, WC_FLOAT16,
   1, handmade_clamp_dims_out, 7, handmade_clamp_program, handmade_clamp_invoke, NULL, NULL, 1, NULL, NULL, NULL},
  {"names", WC_KIND_ELEMENTWISE, 3, handmade_names_params, 1, handmade_names_extents, WC_STRING,
   1, handmade_names_dims_out, 4, handmade_names_program, handmade_names_invoke, NULL, NULL, 1, NULL, NULL, NULL},
  {"cplx", WC_KIND_ELEMENTWISE, 3, handmade_cplx_params, 1, handmade_cplx_extents,
   WC_COMPLEX128, 2, handmade_cplx_dims_out, 4, handmade_cplx_program, handmade_cplx_invoke,
   NULL, NULL, 1, NULL, NULL, NULL},
};

const wc_kernel_table handmade_table = {
  "handmade", "tests/gen/check/handmade.where",
  (int)(sizeof handmade_kernels / sizeof handmade_kernels[0]), handmade_kernels,
};
