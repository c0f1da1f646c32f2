/* pow_random.c: wherec/pow.h's pow against MPFR on random operand pairs, on
   float, float16 and bfloat16 (each pair's operands rounded into the format),
   biased to where pow is hard: results near 1, integer and half-integer
   exponents, x near 1 with a large y, results near overflow and underflow
   (subnormals), perfect squares and powers. MPFR is exact for pow (mpfr_pow,
   the target's precision and exponent range, mpfr_subnormalize), so any
   mismatch is a wrong result of pow.h. NaN results only have to be NaN of
   the right kind (pow.h's payload rules are tested in test_pow.c). Every 8th
   pair also goes through the rare path alone (exact results, then
   double-double), which the fast path leaves about one pair in 2^27.
   usage: pow_random [--count N] [--seed S] [--threads T]   (default 10^6) */
#include <math.h>
#include <mpfr.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <wherec/kernel.h>

typedef struct job {
  uint64_t seed, count, bad, checked;
} job;

static uint64_t next(uint64_t *s) { /* splitmix64 */
  uint64_t z = (*s += 0x9e3779b97f4a7c15u);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
  return z ^ (z >> 31);
}

static float f32(uint32_t u) { return wc_bits_to_f32(u); }

/* a random pair, by one of several recipes */
static void pick(uint64_t *s, float *x, float *y) {
  uint64_t r = next(s), q = next(s);
  uint32_t lo = (uint32_t)q, hi = (uint32_t)(q >> 32);
  switch (r % 10) {
  case 0: /* any bits */
    *x = f32(lo);
    *y = f32(hi);
    break;
  case 1: /* x near 1, y large: results anywhere in range */
    *x = f32(0x3f800000u + (uint32_t)((int32_t)(lo % 0x20000u) - 0x10000) / (1u + (hi & 255u)));
    *y = (float)((double)((int32_t)hi) * 0x1p-24 * (double)(1u << (hi % 16)));
    break;
  case 2: /* small integer y */
    *x = f32((lo & 0x807fffffu) | ((112u + (hi >> 8) % 32u) << 23));
    *y = (float)((int)(hi % 81u) - 40);
    break;
  case 3: /* y = n / 2^j */
    *x = f32((lo & 0x007fffffu) | ((100u + (hi >> 8) % 60u) << 23));
    *y = (float)((int)(hi % 129u) - 64) / (float)(1u << ((hi >> 20) % 6u));
    break;
  case 4: { /* results near 2^T, T from subnormal to overflow */
    double t = -152.0 + (double)(hi % 285u) + (double)(lo & 0xffffu) * 0x1p-16;
    *x = f32((lo & 0x007fffffu) | ((120u + (hi >> 12) % 16u) << 23));
    *y = (float)(t / (log2((double)*x) + (*x == 1.0f ? 1.0 : 0.0)));
    break;
  }
  case 5: /* perfect squares and powers of small odd numbers */
  {
    uint32_t m = 1u + 2u * (lo % 2048u), k = 1u + (hi % 3u);
    float    b = (float)m;
    *x = b;
    for (uint32_t i = 1; i < k && *x < 1e6f; i++) *x *= b;
    *x *= f32((uint32_t)(100u + (hi >> 8) % 56u) << 23);
    *y = (float)((int)((hi >> 16) % 13u) - 6) / (float)(1u << ((hi >> 4) % 3u));
  } break;
  case 6: /* moderate x and y */
    *x = f32((lo & 0x807fffffu) | ((100u + (hi >> 8) % 56u) << 23));
    *y = f32((hi & 0x807fffffu) | ((118u + (lo >> 24) % 13u) << 23));
    break;
  default: /* positive x, y in [-64, 64] */
    *x = f32((lo & 0x7fffffffu) % 0x7f800000u);
    *y = (float)((double)(int32_t)hi * 0x1p-25);
    break;
  }
  if (r & (1u << 20)) *x = -*x;
}

static const struct fmt {
  const char *name;
  int         p;
  mpfr_exp_t  emin, emax;
} fmts[] = {{"float", 24, -148, 128}, {"float16", 11, -23, 16}, {"bfloat16", 8, -132, 128}};

/* pow(x, y) correctly rounded into a format by MPFR, as a double */
static double oracle(mpfr_t r, float x, float y, const struct fmt *f) {
  mpfr_t mx, my;
  int    inex;
  double d;
  mpfr_inits2(24, mx, my, (mpfr_ptr)0);
  mpfr_set_flt(mx, x, MPFR_RNDN);
  mpfr_set_flt(my, y, MPFR_RNDN);
  mpfr_set_prec(r, f->p);
  mpfr_set_emin(f->emin);
  mpfr_set_emax(f->emax);
  inex = mpfr_pow(r, mx, my, MPFR_RNDN);
  inex = mpfr_check_range(r, inex, MPFR_RNDN);
  mpfr_subnormalize(r, inex, MPFR_RNDN);
  d = mpfr_get_d(r, MPFR_RNDN);
  mpfr_set_emin(mpfr_get_emin_min());
  mpfr_set_emax(mpfr_get_emax_max());
  mpfr_clears(mx, my, (mpfr_ptr)0);
  return d;
}

static int same(double got, double want) {
  if (want != want) return got != got;
  return got == want && (got != 0 || (wc_f64_to_bits(got) >> 63) == (wc_f64_to_bits(want) >> 63));
}

static void *run(void *arg) {
  job   *j = arg;
  mpfr_t r;
  mpfr_init2(r, 24);
  for (uint64_t i = 0; i < j->count; i++) {
    float x, y;
    pick(&j->seed, &x, &y);
    for (int k = 0; k < 3; k++) {
      float  xs = x, ys = y;
      double got, want;
      if (k == 1) {
        xs = wc_f16_to_f32(wc_f32_to_f16(x));
        ys = wc_f16_to_f32(wc_f32_to_f16(y));
        got = wc_f16_to_f32(wc_pow_f16(wc_f32_to_f16(x), wc_f32_to_f16(y)));
      } else if (k == 2) {
        xs = wc_bf16_to_f32(wc_f32_to_bf16(x));
        ys = wc_bf16_to_f32(wc_f32_to_bf16(y));
        got = wc_bf16_to_f32(wc_pow_bf16(wc_f32_to_bf16(x), wc_f32_to_bf16(y)));
      } else {
        got = wc_pow_f32(x, y);
      }
      want = oracle(r, xs, ys, &fmts[k]);
      j->checked++;
      if (!same(got, want)) {
        if (j->bad++ < 20)
          fprintf(stderr, "%s: pow(%a, %a) = %a, MPFR %a\n", fmts[k].name, (double)xs, (double)ys,
                  got, want);
      }
      /* the rare path on its own (the fast path decides nearly every pair) */
      if ((i & 7u) == 0 && xs > 0 && xs != 1.0f && xs - xs == 0 && ys != 0 && ys - ys == 0) {
        double w = wc_pow_rare_(xs, ys, fmts[k].p, k == 1 ? -14 : -126);
        got = k == 0   ? (double)(float)w
              : k == 1 ? wc_f16_to_f32(wc_cr_f16_out_(w))
                       : (double)(float)w;
        j->checked++;
        if (!same(got, want) && j->bad++ < 20)
          fprintf(stderr, "%s rare path: pow(%a, %a) = %a, MPFR %a\n", fmts[k].name, (double)xs,
                  (double)ys, got, want);
      }
    }
  }
  mpfr_clear(r);
  mpfr_free_cache();
  return NULL;
}

int main(int argc, char **argv) {
  uint64_t  count = 1000000, seed = 0x9e3779b9u, bad = 0, checked = 0;
  int       threads = 2;
  job       jobs[64];
  pthread_t tid[64];
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!strcmp(argv[i], "--count")) count = strtoull(argv[i + 1], NULL, 0);
    else if (!strcmp(argv[i], "--seed")) seed = strtoull(argv[i + 1], NULL, 0);
    else if (!strcmp(argv[i], "--threads")) threads = atoi(argv[i + 1]);
    else {
      fprintf(stderr, "usage: pow_random [--count N] [--seed S] [--threads T]\n");
      return 2;
    }
  }
  if (threads < 1 || threads > 64) threads = 1;
  for (int t = 0; t < threads; t++) {
    jobs[t].seed = seed + (uint64_t)t * 0x1000000000000u;
    jobs[t].count = count / (uint64_t)threads + ((uint64_t)t < count % (uint64_t)threads);
    jobs[t].bad = jobs[t].checked = 0;
    pthread_create(&tid[t], NULL, run, &jobs[t]);
  }
  for (int t = 0; t < threads; t++) {
    pthread_join(tid[t], NULL);
    bad += jobs[t].bad;
    checked += jobs[t].checked;
  }
  printf("pow_random: %llu pairs, %llu results (float, float16, bfloat16), %llu mismatches\n",
         (unsigned long long)count, (unsigned long long)checked, (unsigned long long)bad);
  return bad != 0;
}
