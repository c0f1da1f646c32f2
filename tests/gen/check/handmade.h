/* handmade.h: written by hand in the shape of `wherec gen` output for
   tests/gen/check/handmade.where (prefix handmade, option unroll = 4). Do not regenerate. */
#ifndef HANDMADE_H
#define HANDMADE_H

#include <wherec/kernel.h>

#ifdef __cplusplus
extern "C" {
#endif

#define HANDMADE_UNROLL 4

void handmade_pick(size_t N, const bool *a0, const float *a1, const float *a2, float *out);
void handmade_pick_range(size_t N, const bool *a0, const float *a1, const float *a2, float *out,
                         size_t begin, size_t end);

void handmade_rows(size_t N, size_t M, const bool *a0, const int32_t *a1, const int32_t *a2,
                   int32_t *out);
void handmade_rows_range(size_t N, size_t M, const bool *a0, const int32_t *a1, const int32_t *a2,
                         int32_t *out, size_t begin, size_t end);

void handmade_leaky(size_t N, const float *a0, float *out);
void handmade_leaky_range(size_t N, const float *a0, float *out, size_t begin, size_t end);

int64_t handmade_coords_count(size_t N, const bool *a0);
int64_t handmade_coords(size_t N, const bool *a0, int64_t *coords);

int64_t handmade_nz_count(size_t N, const float *a0);
int64_t handmade_nz(size_t N, const float *a0, int64_t *coords);

void handmade_v1(size_t B, const bool *a0, const double *a1, const double *a2, double *out);
void handmade_v1_range(size_t B, const bool *a0, const double *a1, const double *a2, double *out,
                       size_t begin, size_t end);

void handmade_clamp(size_t N, const wc_float16 *a0, const wc_float16 *a1, const wc_float16 *a2,
                    wc_float16 *out);
void handmade_clamp_range(size_t N, const wc_float16 *a0, const wc_float16 *a1,
                          const wc_float16 *a2, wc_float16 *out, size_t begin, size_t end);

void handmade_names(size_t N, const bool *a0, const wc_string *a1, const wc_string *a2,
                    wc_string *out);
void handmade_names_range(size_t N, const bool *a0, const wc_string *a1, const wc_string *a2,
                          wc_string *out, size_t begin, size_t end);

void handmade_cplx(size_t N, const bool *a0, const wc_complex128 *a1, const wc_complex128 *a2,
                   wc_complex128 *out);
void handmade_cplx_range(size_t N, const bool *a0, const wc_complex128 *a1,
                         const wc_complex128 *a2, wc_complex128 *out, size_t begin, size_t end);

extern const wc_kernel_table handmade_table;

#ifdef __cplusplus
}
#endif
#endif
