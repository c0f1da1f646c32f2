/* crmath_hardest.c: the inputs of log, tanh, sigmoid, erf, sinh, cosh, the circular
   functions and their inverses, the inverse hyperbolic functions, expm1, selu, softplus,
   softsign, silu, mish, gelu and gelu_tanh (and exp) whose values lie nearest a rounding boundary (a midpoint) of
   float, float16 and bfloat16, over every input: long double (libm) as a filter, MPFR at 256 bits
   for the candidates. Its minimum is the distance D that the error bounds of
   wherec/crmath.h must stay below (their proofs quote it). Not run by test.sh
   (minutes); tests/runtime/crmath_exhaustive.c checks the functions themselves.
   usage: crmath_hardest [--threads N] [FUNCTION[:MIN]...]   (default: all, a thread
   per core; MIN: only |x| >= MIN, e.g. sigmoid:0x1p-6, the part its small-argument
   series leaves to exp; up to 4 MINs of one function in one scan, a list each) */
#include <math.h>
#include <mpfr.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define KEEP 12          /* hardest inputs kept per function and format */
#define FILTER 0x1p-40L  /* long double distances (relative) below this go to MPFR */

typedef long double (*ld_fn)(long double);
typedef int (*mp_fn)(mpfr_t, const mpfr_t, mpfr_rnd_t);

static long double sigmoidl(long double x) { return 1.0L / (1.0L + expl(-x)); }
static int mpfr_sigmoid(mpfr_t r, const mpfr_t x, mpfr_rnd_t rnd) {
  mpfr_t t;
  mpfr_init2(t, mpfr_get_prec(r) + 64);
  mpfr_neg(t, x, MPFR_RNDN);
  mpfr_exp(t, t, MPFR_RNDN);
  mpfr_add_ui(t, t, 1, MPFR_RNDN);
  mpfr_ui_div(r, 1, t, rnd);
  mpfr_clear(t);
  return 0;
}

/* selu = G A expm1(x) for x <= 0, ONNX's default alpha A and gamma G (their floats' exact
   values; G A is exact in long double, 47 bits). x > 0 is skipped (a NaN): there G x is
   exact in double and rounded once, B = 0, and G x may be a midpoint (G 3 is one). */
#define SELU_A_ 1.67326319217681884765625
#define SELU_G_ 1.05070102214813232421875
static long double selul(long double x) { return x > 0 ? NAN : (SELU_G_ * SELU_A_) * expm1l(x); }
static int mpfr_selu(mpfr_t r, const mpfr_t x, mpfr_rnd_t rnd) {
  mpfr_t t;
  mpfr_init2(t, mpfr_get_prec(r) + 64);
  mpfr_expm1(t, x, MPFR_RNDN);
  mpfr_mul_d(t, t, SELU_G_ * SELU_A_, MPFR_RNDN);
  mpfr_set(r, t, rnd);
  mpfr_clear(t);
  return 0;
}

/* softplus = log(1 + e^x), as x + log1p(e^-x) for x > 0 (no cancellation) */
static long double softplusl(long double x) { return x > 0 ? x + log1pl(expl(-x)) : log1pl(expl(x)); }
static int mpfr_softplus(mpfr_t r, const mpfr_t x, mpfr_rnd_t rnd) {
  mpfr_t t;
  mpfr_init2(t, mpfr_get_prec(r) + 64);
  mpfr_abs(t, x, MPFR_RNDN);
  mpfr_neg(t, t, MPFR_RNDN);
  mpfr_exp(t, t, MPFR_RNDN);
  mpfr_log1p(t, t, MPFR_RNDN);
  if (mpfr_sgn(x) > 0) mpfr_add(r, t, x, rnd);
  else mpfr_set(r, t, rnd);
  mpfr_clear(t);
  return 0;
}

static long double softsignl(long double x) { return x / (1.0L + fabsl(x)); }
static int mpfr_softsign(mpfr_t r, const mpfr_t x, mpfr_rnd_t rnd) {
  mpfr_t t;
  mpfr_init2(t, mpfr_get_prec(r) + 160); /* |x| + 1 exactly */
  mpfr_abs(t, x, MPFR_RNDN);
  mpfr_add_ui(t, t, 1, MPFR_RNDN);
  mpfr_div(r, x, t, rnd);
  mpfr_clear(t);
  return 0;
}

static long double silul(long double x) { return x / (1.0L + expl(-x)); }
static int mpfr_silu(mpfr_t r, const mpfr_t x, mpfr_rnd_t rnd) {
  mpfr_t t;
  mpfr_init2(t, mpfr_get_prec(r) + 64);
  mpfr_sigmoid(t, x, MPFR_RNDN);
  mpfr_mul(r, t, x, rnd);
  mpfr_clear(t);
  return 0;
}

/* mish = x tanh(softplus(x)) = x N/(N + 2), N = e^x (e^x + 2) */
static long double mishl(long double x) {
  long double e = expl(x), n = e * (e + 2.0L);
  return x * n / (n + 2.0L);
}
static int mpfr_mish(mpfr_t r, const mpfr_t x, mpfr_rnd_t rnd) {
  mpfr_t t;
  mpfr_init2(t, mpfr_get_prec(r) + 64);
  mpfr_softplus(t, x, MPFR_RNDN);
  mpfr_tanh(t, t, MPFR_RNDN);
  mpfr_mul(r, t, x, rnd);
  mpfr_clear(t);
  return 0;
}

/* gelu = x/2 (1 + erf(x/sqrt2)), as x/2 erfc(-x/sqrt2) for x < 0 (no cancellation) */
static long double gelul(long double x) {
  long double t = x * 0.707106781186547524400844362104849039L;
  return x < 0 ? x / 2 * erfcl(-t) : x / 2 * (1.0L + erfl(t));
}
static int mpfr_gelu(mpfr_t r, const mpfr_t x, mpfr_rnd_t rnd) {
  mpfr_t t, s;
  mpfr_inits2(mpfr_get_prec(r) + 64, t, s, (mpfr_ptr)0);
  mpfr_sqrt_ui(s, 2, MPFR_RNDN);
  mpfr_div(t, x, s, MPFR_RNDN);
  if (mpfr_sgn(x) < 0) {
    mpfr_neg(t, t, MPFR_RNDN);
    mpfr_erfc(t, t, MPFR_RNDN);
  } else {
    mpfr_erf(t, t, MPFR_RNDN);
    mpfr_add_ui(t, t, 1, MPFR_RNDN);
  }
  mpfr_mul(t, t, x, MPFR_RNDN);
  mpfr_div_2ui(r, t, 1, rnd);
  mpfr_clears(t, s, (mpfr_ptr)0);
  return 0;
}

/* gelu_tanh = x/2 (1 + tanh(s (x + 0.044715 x^3))) = x/(1 + e^-z), z = 2 s x (1 + 0.044715 x^2)
   (no cancellation); x above 10 (e^-z < 2^-125) and 0 below -12 (|gelu_tanh| < 2^-201), where
   expl's huge arguments would cost the scan ten times as much */
static long double gelu_tanhl(long double x) {
  if (x > 10) return x;
  if (x < -12) return 0;
  return x / (1.0L + expl(-x * (1.59576912160573071175978423973752747L +
                                0.0713548162726002487763387522798635L * (x * x))));
}
static int mpfr_gelu_tanh(mpfr_t r, const mpfr_t x, mpfr_rnd_t rnd) {
  mpfr_t t, s;
  mpfr_inits2(mpfr_get_prec(r) + 64, t, s, (mpfr_ptr)0);
  mpfr_const_pi(s, MPFR_RNDN);
  mpfr_ui_div(s, 8, s, MPFR_RNDN);
  mpfr_sqrt(s, s, MPFR_RNDN); /* 2 sqrt(2/pi) */
  mpfr_sqr(t, x, MPFR_RNDN);
  mpfr_mul_ui(t, t, 44715, MPFR_RNDN);
  mpfr_div_ui(t, t, 1000000, MPFR_RNDN);
  mpfr_add_ui(t, t, 1, MPFR_RNDN);
  mpfr_mul(t, t, s, MPFR_RNDN);
  mpfr_mul(t, t, x, MPFR_RNDN);
  mpfr_neg(t, t, MPFR_RNDN);
  mpfr_exp(t, t, MPFR_RNDN);
  mpfr_add_ui(t, t, 1, MPFR_RNDN);
  mpfr_div(r, x, t, rnd);
  mpfr_clears(t, s, (mpfr_ptr)0);
  return 0;
}

static const struct fn {
  const char *name;
  ld_fn       ld;
  mp_fn       mp;
} fns[] = {{"log", logl, mpfr_log}, {"tanh", tanhl, mpfr_tanh}, {"sigmoid", sigmoidl, mpfr_sigmoid},
           {"erf", erfl, mpfr_erf}, {"exp", expl, mpfr_exp}, {"sinh", sinhl, mpfr_sinh},
           {"cosh", coshl, mpfr_cosh}, {"sin", sinl, mpfr_sin}, {"cos", cosl, mpfr_cos},
           {"tan", tanl, mpfr_tan}, {"asin", asinl, mpfr_asin}, {"acos", acosl, mpfr_acos},
           {"atan", atanl, mpfr_atan}, {"asinh", asinhl, mpfr_asinh}, {"acosh", acoshl, mpfr_acosh},
           {"atanh", atanhl, mpfr_atanh}, {"expm1", expm1l, mpfr_expm1}, {"selu", selul, mpfr_selu},
           {"softplus", softplusl, mpfr_softplus}, {"softsign", softsignl, mpfr_softsign},
           {"silu", silul, mpfr_silu}, {"mish", mishl, mpfr_mish}, {"gelu", gelul, mpfr_gelu},
           {"gelu_tanh", gelu_tanhl, mpfr_gelu_tanh}};

static const struct fmt {
  const char *name;
  int         p, emin, emax;
} fmts[] = {{"float", 24, -126, 127}, {"float16", 11, -14, 15}, {"bfloat16", 8, -126, 127}};

typedef struct hard {
  uint32_t x;    /* the input's float bits */
  double   rel;  /* |f(x) - m| / |f(x)|, m the nearest midpoint */
  double   ulps; /* the same in units of the target's last place */
  double   val;  /* f(x) correctly rounded to the format (MPFR) */
} hard;

static float f32(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }

/* the distance of y (finite, > 0 in magnitude) to the nearest midpoint of fmt,
   relative and in ulps; and y rounded (half to even) into fmt */
static void dist_ld(long double y, const struct fmt *f, double *rel, double *ulps) {
  int         e;
  long double a = fabsl(y), v, q;
  frexpl(a, &e);
  e -= 1;
  if (e < f->emin) e = f->emin;
  q = ldexpl(1.0L, e - f->p + 1);
  v = a / q;
  v = fabsl(v - floorl(v) - 0.5L);
  *ulps = (double)v;
  *rel = (double)(v * q / a);
}

static void dist_mp(const struct fn *fn, uint32_t u, const struct fmt *f, hard *h) {
  mpfr_t x, y, t;
  mpfr_exp_t e;
  mpfr_inits2(256, x, y, t, (mpfr_ptr)0);
  mpfr_set_flt(x, f32(u), MPFR_RNDN);
  int neg;
  fn->mp(y, x, MPFR_RNDN);
  neg = mpfr_sgn(y) < 0;
  mpfr_abs(y, y, MPFR_RNDN);
  e = mpfr_get_exp(y) - 1; /* y in [2^e, 2^(e+1)) */
  if (e < f->emin) e = f->emin;
  mpfr_mul_2si(t, y, -(long)(e - f->p + 1), MPFR_RNDN); /* exact */
  mpfr_frac(t, t, MPFR_RNDN);
  mpfr_sub_d(t, t, 0.5, MPFR_RNDN);
  mpfr_abs(t, t, MPFR_RNDN);
  h->ulps = mpfr_get_d(t, MPFR_RNDN);
  mpfr_mul_2si(t, t, (long)(e - f->p + 1), MPFR_RNDN);
  mpfr_div(t, t, y, MPFR_RNDN);
  h->rel = mpfr_get_d(t, MPFR_RNDN);
  /* the correctly rounded value: y in units of the quantum, to the nearest integer (ties even) */
  mpfr_mul_2si(t, y, -(long)(e - f->p + 1), MPFR_RNDN);
  mpfr_rint(t, t, MPFR_RNDN);
  mpfr_mul_2si(t, t, (long)(e - f->p + 1), MPFR_RNDN);
  h->val = mpfr_get_d(t, MPFR_RNDN);
  if (h->val >= ldexp(1.0, f->emax + 1)) h->val = HUGE_VAL;
  if (neg) h->val = -h->val;
  mpfr_clears(x, y, t, (mpfr_ptr)0);
}

static void keep(hard *list, const hard *h) { /* sorted ascending by rel, KEEP long */
  int i = KEEP - 1;
  if (h->rel >= list[i].rel) return;
  while (i > 0 && list[i - 1].rel > h->rel) {
    list[i] = list[i - 1];
    i--;
  }
  list[i] = *h;
}

/* The ranges |x| >= mins[r] of the function searched (FUNCTION:MIN, once or more: one
   scan, a list each), ascending; inputs below mins[0] are skipped. */
#define MAX_MINS 4
static double mins[MAX_MINS];
static int    n_mins;

/* h into the list of each range that holds input x */
static void keep_ranges(hard (*lists)[KEEP], float x, const hard *h) {
  for (int r = 0; r < n_mins; r++)
    if (fabsf(x) >= mins[r]) keep(lists[r], h);
}

typedef struct job {
  const struct fn *fn;
  uint64_t         begin, end;
  hard             list[MAX_MINS][KEEP];
  uint64_t         candidates;
} job;

static void *run(void *arg) {
  job *j = arg;
  for (int r = 0; r < MAX_MINS; r++)
    for (int i = 0; i < KEEP; i++) j->list[r][i].rel = 1.0;
  for (uint64_t b = j->begin; b < j->end; b++) {
    uint32_t    u = (uint32_t)b;
    float       x = f32(u);
    long double y;
    double      rel, ulps;
    if (x != x || x == 0 || fabsf(x) < mins[0]) continue;
    y = j->fn->ld((long double)x);
    if (y != y || y == 0 || isinf(y)) continue;
    if (fabsl(y) >= 0x1p128L) continue; /* overflows (exp): no midpoint below inf matters */
    dist_ld(y, &fmts[0], &rel, &ulps);
    if (rel < FILTER) {
      hard h;
      h.x = u;
      dist_mp(j->fn, u, &fmts[0], &h);
      j->candidates++;
      keep_ranges(j->list, x, &h);
    }
  }
  return NULL;
}

static void report(const char *fn, const struct fmt *f, const hard *list, uint64_t cand, double secs,
                   double min) {
  if (min > 0) printf("(%s: only |x| >= %a)\n", fn, min);
  printf("%s on %s: nearest %.1f (log2, relative) = %.1f (log2, ulps); %llu candidates; %.0f s\n", fn,
         f->name, log2(list[0].rel), log2(list[0].ulps), (unsigned long long)cand, secs);
  for (int i = 0; i < KEEP && list[i].rel < 1.0; i++)
    printf("  {0x%08xu, %a}, /* %s(%a): 2^%.1f relative, 2^%.1f ulp from a midpoint */\n",
           (unsigned)list[i].x, list[i].val, fn, (double)f32(list[i].x), log2(list[i].rel),
           log2(list[i].ulps));
}

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

int main(int argc, char **argv) {
  long cores = sysconf(_SC_NPROCESSORS_ONLN);
  int  threads = cores < 1 ? 1 : cores > 16 ? 16 : (int)cores;
  if (argc > 2 && strcmp(argv[1], "--threads") == 0) { /* a shared machine: fewer */
    int n = atoi(argv[2]);
    threads = n < 1 ? 1 : n > 16 ? 16 : n;
    argv[2] = argv[0];
    argc -= 2;
    argv += 2;
  }
  for (size_t k = 0; k < sizeof fns / sizeof fns[0]; k++) {
    const struct fn *fn = &fns[k];
    int              wanted = argc < 2;
    size_t           len = strlen(fn->name);
    n_mins = 0;
    for (int a = 1; a < argc; a++)
      if (strncmp(argv[a], fn->name, len) == 0 && (argv[a][len] == 0 || argv[a][len] == ':') &&
          n_mins < MAX_MINS) {
        double m = argv[a][len] == ':' ? strtod(argv[a] + len + 1, NULL) : 0;
        int    r = n_mins++;
        for (; r > 0 && mins[r - 1] > m; r--) mins[r] = mins[r - 1]; /* ascending */
        mins[r] = m;
      }
    if (!wanted && n_mins == 0) continue;
    if (n_mins == 0) mins[n_mins++] = 0;
    /* the half formats: every input through MPFR */
    for (int fi = 1; fi < 3; fi++) {
      hard     list[MAX_MINS][KEEP];
      double   t0 = now();
      uint64_t n = 0;
      for (int r = 0; r < MAX_MINS; r++)
        for (int i = 0; i < KEEP; i++) list[r][i].rel = 1.0;
      for (uint32_t h = 0; h < 65536; h++) {
        uint32_t u;
        float    x;
        hard     hd;
        if (fi == 2) u = h << 16;
        else { /* float16 -> float bits */
          uint32_t s = (h & 0x8000u) << 16, e = (h >> 10) & 31u, m = h & 0x3ffu;
          if (e == 31) continue;
          if (e == 0) {
            if (!m) continue;
            e = 113;
            while (!(m & 0x400u)) { m <<= 1; e--; }
            m &= 0x3ffu;
            u = s | (e << 23) | (m << 13);
          } else u = s | ((e + 112) << 23) | (m << 13);
        }
        x = f32(u);
        if (x != x || x == 0 || isinf(x) || fabsf(x) < mins[0]) continue;
        {
          long double y = fn->ld((long double)x);
          if (y == 0 || y != y || isinf(y) || fabsl(y) >= ldexpl(1.0L, fmts[fi].emax + 1)) continue;
        }
        hd.x = u;
        dist_mp(fn, u, &fmts[fi], &hd);
        n++;
        keep_ranges(list, x, &hd);
      }
      for (int r = 0; r < n_mins; r++) report(fn->name, &fmts[fi], list[r], n, now() - t0, mins[r]);
    }
    {
      pthread_t th[16];
      job       jobs[16];
      hard      all[MAX_MINS][KEEP];
      uint64_t  per = ((uint64_t)1 << 32) / (uint64_t)threads, cand = 0;
      double    t0 = now();
      for (int i = 0; i < threads; i++) {
        memset(&jobs[i], 0, sizeof jobs[i]);
        jobs[i].fn = fn;
        jobs[i].begin = per * (uint64_t)i;
        jobs[i].end = i == threads - 1 ? (uint64_t)1 << 32 : per * (uint64_t)(i + 1);
        pthread_create(&th[i], NULL, run, &jobs[i]);
      }
      for (int r = 0; r < MAX_MINS; r++)
        for (int i = 0; i < KEEP; i++) all[r][i].rel = 1.0;
      for (int i = 0; i < threads; i++) {
        pthread_join(th[i], NULL);
        cand += jobs[i].candidates;
        for (int r = 0; r < n_mins; r++)
          for (int k2 = 0; k2 < KEEP; k2++) keep(all[r], &jobs[i].list[r][k2]);
      }
      for (int r = 0; r < n_mins; r++) report(fn->name, &fmts[0], all[r], cand, now() - t0, mins[r]);
    }
    fflush(stdout);
  }
  return 0;
}
