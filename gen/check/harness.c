/* harness.c: the runner `wherec check` builds against one generated kernel table:
   every kernel, every path, edge-biased random inputs, compared bit for bit with the reference. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <wherec/wherec.h>

#if !defined(WC_CHECK_TABLE) || !defined(WC_CHECK_HEADER)
#error "compile with -DWC_CHECK_TABLE=<prefix>_table -DWC_CHECK_HEADER=\"<prefix>.h\""
#endif
#include WC_CHECK_HEADER

/* Relative, so it resolves in the source tree (gen/) and installed (share/wherec/). */
#include "../base/exit_status.h"

#define MAX_EXTENTS         64
#define MAX_ELEMENTS        ((int64_t)1 << 16) /* per output; larger bindings are shrunk */
#define LARGE_EXTENT        1000
#define TWOWAY_MAX_ELEMENTS ((int64_t)1 << 12) /* per base trial: one run per dim it can break */

/* ---- random values biased to the edges ----------------------------------- */

typedef struct rng {
  uint64_t s;
} rng; /* xorshift64* state, never 0 */

static uint64_t rng_next(rng *r) {
  r->s ^= r->s >> 12;
  r->s ^= r->s << 25;
  r->s ^= r->s >> 27;
  return r->s * 0x2545F4914F6CDD1DULL;
}

static uint64_t rng_below(rng *r, uint64_t n) { return n ? rng_next(r) % n : 0; }

/* A state from a seed: splitmix64's finalizer, so that nearby seeds (and
   kernels) get unrelated streams; never 0, which xorshift cannot leave. */
static rng rng_seed(uint64_t seed) {
  uint64_t z = seed + 0x9e3779b97f4a7c15u;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
  z ^= z >> 31;
  rng r = {z ? z : 1};
  return r;
}

/* Kinds of kernel.h's dtype list, expanded from that one list. */
enum { K_SINT, K_UINT, K_REAL, K_HALF, K_BOOL, K_COMPLEX, K_STRING };

static int dtype_kind(wc_dtype t) {
  switch (t) {
#define KIND_(E, code, name, ctype, alias, sfx, kind) \
  case WC_##E: return K_##kind;
    WC_DTYPE_LIST(KIND_)
#undef KIND_
  default: return -1;
  }
}

static const char *dtype_text(wc_dtype t) { return wc_dtype_name(t) ? wc_dtype_name(t) : "?"; }

/* The float type of one part of t (complex: its parts), for fills and printing. */
static wc_dtype float_part(wc_dtype t) {
  return t == WC_COMPLEX64 ? WC_FLOAT : t == WC_COMPLEX128 ? WC_DOUBLE : t;
}

/* NaN with payloads (quiet and signalling, both signs), +-inf, +-0, subnormals
   (smallest, largest, negative), +-1, largest finite, smallest normal. */
static const uint32_t edges_f32[] = {0x7fc00000u, 0x7fc12345u, 0xffc00001u, 0x7f800001u,
                                     0xff812345u, 0x7f800000u, 0xff800000u, 0x00000000u,
                                     0x80000000u, 0x00000001u, 0x007fffffu, 0x80000001u,
                                     0x3f800000u, 0xbf800000u, 0x7f7fffffu, 0x00800000u};
static const uint64_t edges_f64[] = {
    0x7ff8000000000000u, 0x7ff800000000beefu, 0xfff8000000000001u, 0x7ff0000000000001u,
    0xfff00000deadbeefu, 0x7ff0000000000000u, 0xfff0000000000000u, 0x0000000000000000u,
    0x8000000000000000u, 0x0000000000000001u, 0x000fffffffffffffu, 0x8000000000000001u,
    0x3ff0000000000000u, 0xbff0000000000000u, 0x7fefffffffffffffu, 0x0010000000000000u};
static const uint16_t edges_f16[] = {0x7e00, 0x7e01, 0xfe00, 0x7c01, 0xfd55, 0x7c00,
                                     0xfc00, 0x0000, 0x8000, 0x0001, 0x03ff, 0x8001,
                                     0x3c00, 0xbc00, 0x7bff, 0x0400};
static const uint16_t edges_bf16[] = {0x7fc0, 0x7fc1, 0xffc0, 0x7f81, 0xff81, 0x7f80,
                                      0xff80, 0x0000, 0x8000, 0x0001, 0x007f, 0x8001,
                                      0x3f80, 0xbf80, 0x7f7f, 0x0080};
#define N_EDGES 16

/* Strings the fills draw from, "" twice; a string output may only hold these. */
static const char *const string_pool[] = {
    "", "a", "b", "", "where", "caf\xc3\xa9", "0", "a longer string, with spaces"};
#define N_STRINGS (sizeof string_pool / sizeof string_pool[0])

/* The sign bit of float type t (complex: of a part). */
static uint64_t sign_bit(wc_dtype t) {
  return t == WC_DOUBLE ? UINT64_C(1) << 63 : t == WC_FLOAT ? UINT64_C(1) << 31 : UINT64_C(1) << 15;
}

/* Where float -> integer casts saturate: +-2^(b-1) and +-2^b for every
   integer width b, or a neighbour (one step of the bits below or above), in
   float type t; a power past t's range is its infinity (and the step above a NaN). */
static uint64_t int_limit(rng *r, wc_dtype t) {
  static const int widths[] = {8, 16, 32, 64};
  int              mb = t == WC_DOUBLE ? 52 : t == WC_FLOAT ? 23 : t == WC_FLOAT16 ? 10 : 7;
  uint64_t         bias = t == WC_DOUBLE ? 1023 : t == WC_FLOAT16 ? 15 : 127, inf = 2 * bias + 1;
  uint64_t         e = (uint64_t)widths[rng_below(r, 4)] - rng_below(r, 2) + bias;
  uint64_t         bits = (e < inf ? e : inf) << mb, step = rng_below(r, 3);
  bits = step == 0 ? bits - 1 : step == 1 ? bits : bits + 1;
  return rng_below(r, 2) ? bits | sign_bit(t) : bits;
}

/* One float value of type t (float, double, float16, bfloat16) as bits:
   2/8 edges, 1/8 integer limits, 1/8 zero of either sign, 2/8 small exact
   values, 2/8 any bits. */
static uint64_t fill_float(rng *r, wc_dtype t) {
  uint64_t pick = rng_below(r, 8), e = rng_below(r, N_EDGES), any = rng_next(r), bits;
  double   v = ((double)rng_below(r, 401) - 200.0) / 8.0; /* exact in every float type */
  if (pick == 2) return int_limit(r, t);
  if (pick == 3) return any & 1 ? sign_bit(t) : 0;
  switch (t) {
  case WC_FLOAT: return pick < 3 ? edges_f32[e] : pick < 6 ? wc_f32_to_bits((float)v) : any >> 32;
  case WC_FLOAT16: return pick < 3 ? edges_f16[e] : pick < 6 ? wc_f32_to_f16((float)v) : any >> 48;
  case WC_BFLOAT16:
    return pick < 3 ? edges_bf16[e] : pick < 6 ? wc_f32_to_bf16((float)v) : any >> 48;
  default: memcpy(&bits, &v, sizeof bits); return pick < 3 ? edges_f64[e] : pick < 6 ? bits : any;
  }
}

/* One integer of `bits` width: MIN, MAX, -1, 0, 1, MIN+1, MAX-1 (or the
   unsigned analogues), the shift counts bits-1, bits and 200 (past every
   width), small values, or any bits. */
static uint64_t fill_int(rng *r, int bits, bool is_signed) {
  uint64_t mask = bits == 64 ? UINT64_MAX : (UINT64_C(1) << bits) - 1;
  uint64_t top = UINT64_C(1) << (bits - 1), w = (uint64_t)bits;
  uint64_t sedges[] = {top, top - 1, mask, 0, 1, top + 1, top - 2, w - 1, w, 200};
  uint64_t uedges[] = {0, 1, mask, mask - 1, top, top - 1, 2, w - 1, w, 200};
  uint64_t pick = rng_below(r, 8), v;
  if (pick < 3) v = (is_signed ? sedges : uedges)[rng_below(r, 10)];
  else if (pick < 6) v = (uint64_t)((int64_t)rng_below(r, 17) - 8);
  else v = rng_next(r);
  return v & mask;
}

static void store_bits(void *p, size_t w, uint64_t v) {
  uint8_t  b1 = (uint8_t)v;
  uint16_t b2 = (uint16_t)v;
  uint32_t b4 = (uint32_t)v;
  switch (w) {
  case 1: memcpy(p, &b1, 1); break;
  case 2: memcpy(p, &b2, 2); break;
  case 4: memcpy(p, &b4, 4); break;
  default: memcpy(p, &v, 8); break;
  }
}

static uint64_t load_bits(const void *p, size_t w) {
  uint8_t  b1;
  uint16_t b2;
  uint32_t b4;
  uint64_t b8;
  switch (w) {
  case 1: memcpy(&b1, p, 1); return b1;
  case 2: memcpy(&b2, p, 2); return b2;
  case 4: memcpy(&b4, p, 4); return b4;
  default: memcpy(&b8, p, 8); return b8;
  }
}

/* Fills n elements of dtype t; bool elements are true with probability p_true. */
static void fill(rng *r, wc_dtype t, void *data, int64_t n, double p_true) {
  size_t w = wc_dtype_size(t);
  int    kind = dtype_kind(t);
  for (int64_t i = 0; i < n; i++) {
    char *p = (char *)data + (size_t)i * w;
    switch (kind) {
    case K_BOOL: *(bool *)p = (double)(rng_next(r) >> 11) * 0x1.0p-53 < p_true; break;
    case K_STRING: *(const char **)p = string_pool[rng_below(r, N_STRINGS)]; break;
    case K_SINT:
    case K_UINT: store_bits(p, w, fill_int(r, (int)w * 8, kind == K_SINT)); break;
    case K_COMPLEX:
      store_bits(p, w / 2, fill_float(r, float_part(t)));
      store_bits(p + w / 2, w / 2, fill_float(r, float_part(t)));
      break;
    default: store_bits(p, w, fill_float(r, t)); break;
    }
  }
}

static bool is_nan_bits(wc_dtype t, uint64_t u) {
  switch (t) {
  case WC_FLOAT: return (u & 0x7fffffffu) > 0x7f800000u;
  case WC_DOUBLE: return (u & INT64_MAX) > 0x7ff0000000000000u;
  case WC_FLOAT16: return (u & 0x7fffu) > 0x7c00u;
  case WC_BFLOAT16: return (u & 0x7fffu) > 0x7f80u;
  default: return false;
  }
}

/* ---- printing values --------------------------------------------------------- */

/* A float's readable value; NaN says its sign and whether it is quiet. */
static void put_float(FILE *f, wc_dtype t, uint64_t u) {
  if (is_nan_bits(t, u)) {
    uint64_t quiet = t == WC_DOUBLE    ? UINT64_C(1) << 51
                     : t == WC_FLOAT   ? 1u << 22
                     : t == WC_FLOAT16 ? 1u << 9
                                       : 1u << 6;
    fprintf(f, "%snan, %s", u & sign_bit(t) ? "-" : "", u & quiet ? "quiet" : "signalling");
    return;
  }
  switch (t) {
  case WC_DOUBLE: {
    double d;
    memcpy(&d, &u, 8);
    fprintf(f, "%.17g", d);
    break;
  }
  case WC_FLOAT: fprintf(f, "%.9g", (double)wc_bits_to_f32((uint32_t)u)); break;
  case WC_FLOAT16: fprintf(f, "%.6g", (double)wc_f16_to_f32((uint16_t)u)); break;
  default: fprintf(f, "%.6g", (double)wc_bf16_to_f32((uint16_t)u)); break;
  }
}

/* "0x<bits> (<value>)" of one element of dtype t at p. */
static void put_value(FILE *f, wc_dtype t, const void *p) {
  size_t w = wc_dtype_size(t);
  int    kind = dtype_kind(t);
  if (kind == K_STRING) {
    const char *s;
    memcpy(&s, p, sizeof s);
    fprintf(f, "%p (", (const void *)s);
    size_t i = 0;
    while (i < N_STRINGS && string_pool[i] != s) i++;
    if (s == NULL) fprintf(f, "NULL)");
    else if (i < N_STRINGS) fprintf(f, "\"%s\")", s);
    else fprintf(f, "not an input string)");
    return;
  }
  if (kind == K_COMPLEX) {
    uint64_t re = load_bits(p, w / 2), im = load_bits((const char *)p + w / 2, w / 2);
    fprintf(f, "0x%0*" PRIx64 ":0x%0*" PRIx64 " (", (int)w, re, (int)w, im);
    put_float(f, float_part(t), re);
    fprintf(f, ", ");
    put_float(f, float_part(t), im);
    fprintf(f, ")");
    return;
  }
  uint64_t u = load_bits(p, w);
  fprintf(f, "0x%0*" PRIx64 " (", (int)w * 2, u);
  if (kind == K_BOOL) fprintf(f, "%s", u == 0 ? "false" : u == 1 ? "true" : "not a bool");
  else if (kind == K_UINT) fprintf(f, "%" PRIu64, u);
  else if (kind == K_SINT) {
    int64_t s;
    if (w == 8) memcpy(&s, &u, 8);
    else s = (int64_t)u - ((u >> (w * 8 - 1)) ? INT64_C(1) << (w * 8) : 0); /* sign-extend */
    fprintf(f, "%" PRId64, s);
  } else put_float(f, t, u);
  fprintf(f, ")");
}

/* ---- one kernel, one binding -------------------------------------------------- */

typedef struct kcheck {
  const wc_kernel *k;
  const size_t    *list; /* extents the first trials walk (from the unroll factors) */
  size_t           n_list;
  size_t           random_max; /* later trials also draw extents from [0, random_max] */
  int64_t          trials;     /* trials run */
  int64_t          elements;   /* output elements (coordinates, and counts) compared, all paths */
  int64_t          mismatches; /* differing elements (or failed calls) */
  bool             reported;   /* the first mismatch has been printed */
  int64_t          unfit;      /* trials with a leading dim of 2 (fit no pattern) */
  int64_t          twoway;     /* trials binding one symbolic extent two ways */
  size_t          *seen;       /* bindings tried, n_extents each */
  int64_t          n_seen;     /* distinct bindings in seen */
} kcheck;

typedef struct trial {
  size_t      ext[MAX_EXTENTS];    /* binding of the symbolic extents */
  wc_tensor   in[WC_MAX_INPUTS];   /* inputs; data malloc'ed at its exact size */
  const void *data[WC_MAX_INPUTS]; /* the same pointers, for the invokers */
  int         rank;                /* rank of the output (coordinates: of the value) */
  int64_t     shape[WC_MAX_RANK];
  int64_t     total; /* elements of that shape */
  const char *note;  /* how the shapes were made, for reports */
} trial;

static bool is_coords(const wc_kernel *k) {
  return k->kind == WC_KIND_ARGWHERE || k->kind == WC_KIND_NONZERO;
}

static void *xmalloc(size_t n) {
  void *p = malloc(n ? n : 1); /* never NULL: empty tensors too */
  if (p == NULL) {
    fprintf(stderr, "check_harness: out of memory\n");
    exit(1);
  }
  return p;
}

static int64_t count_of(int rank, const int64_t *shape) {
  int64_t n = 1;
  for (int d = 0; d < rank; d++) n *= shape[d];
  return n;
}

static size_t tensor_bytes(const wc_tensor *t) {
  return (size_t)count_of(t->rank, t->shape) * wc_dtype_size(t->dtype);
}

/* Offset of output multi-index idx in input i (broadcast, right-aligned;
   where_v1's row-select condition is left-aligned). */
static int64_t input_offset(const wc_kernel *k, const trial *tr, int i, const int64_t *idx) {
  const wc_tensor *t = &tr->in[i];
  int64_t          off = 0;
  if (k->kind == WC_KIND_WHERE_V1 && t->rank == 1 && tr->rank > 1)
    return t->shape[0] == 1 ? 0 : idx[0];
  for (int d = 0; d < t->rank; d++) {
    int     od = tr->rank - t->rank + d;
    int64_t e = t->shape[d];
    off = off * e + (e == 1 || od < 0 ? 0 : idx[od]);
  }
  return off;
}

static void put_binding(const kcheck *kc, const trial *tr) {
  const wc_kernel *k = kc->k;
  if (k->n_extents == 0) printf("fixed shapes");
  for (int e = 0; e < k->n_extents; e++)
    printf("%s%s=%zu", e ? " " : "", k->extent_names ? k->extent_names[e] : "?", tr->ext[e]);
  if (tr->note) printf(", %s", tr->note);
}

/* The element of the output (or value) at flat index `flat`: its multi-index
   and the input values there. */
static void put_inputs_at(const kcheck *kc, const trial *tr, int64_t flat) {
  int64_t idx[WC_MAX_RANK];
  for (int d = tr->rank - 1; d >= 0; d--) {
    idx[d] = tr->shape[d] ? flat % tr->shape[d] : 0;
    flat = tr->shape[d] ? flat / tr->shape[d] : 0;
  }
  printf(" [");
  for (int d = 0; d < tr->rank; d++) printf("%s%" PRId64, d ? ", " : "", idx[d]);
  printf("]\n");
  for (int i = 0; i < kc->k->n_inputs; i++) {
    const wc_tensor *t = &tr->in[i];
    size_t           off = (size_t)input_offset(kc->k, tr, i, idx) * wc_dtype_size(t->dtype);
    printf("    input %-8s %-10s ", kc->k->inputs[i].name, dtype_text(t->dtype));
    put_value(stdout, t->dtype, (const char *)t->data + off);
    printf("\n");
  }
}

/* ---- progress on a terminal ---------------------------------------------- */

/* With --progress (`wherec check` passes it when its stderr is a terminal), a line
   "wherec check: 17/78 kernels (checking NAME)" on stderr, rewritten in place as
   kernels finish and erased before anything is written to stdout, so the table
   and reports read as without it. Without --progress, nothing. */
static bool progress_on, progress_shown;

static void progress_clear(void) {
  if (!progress_shown) return;
  fflush(stdout);
  fputs("\r\033[K", stderr);
  fflush(stderr);
  progress_shown = false;
}

static void progress_show(int done, int total, const char *name) {
  if (!progress_on) return;
  fflush(stdout);
  fprintf(stderr, "\rwherec check: %d/%d kernels (checking %s)\033[K", done, total,
          name ? name : "?");
  fflush(stderr);
  progress_shown = true;
}

/* Opens a mismatch report; true when it is the kernel's first (print details). */
static bool begin_report(kcheck *kc, const trial *tr, const char *path, int64_t count) {
  kc->mismatches += count;
  if (kc->reported) return false;
  kc->reported = true;
  progress_clear();
  printf("mismatch in kernel '%s', path %s, binding ", kc->k->name, path);
  put_binding(kc, tr);
  printf(":\n");
  return true;
}

static void failf(kcheck *kc, const trial *tr, const char *path, const char *fmt, ...) {
  va_list ap;
  if (!begin_report(kc, tr, path, 1)) return;
  printf("    ");
  va_start(ap, fmt);
  vprintf(fmt, ap);
  va_end(ap);
  printf("\n");
}

/* Compares n elements of dtype t; reports the first difference. */
static void compare_as(kcheck *kc, const trial *tr, wc_dtype t, const char *path,
                       const char *expect_name, const void *expect, const void *got, int64_t n) {
  size_t  w = wc_dtype_size(t);
  int64_t  diffs = 0, first = -1;
  for (int64_t i = 0; i < n; i++) {
    const char *a = (const char *)expect + (size_t)i * w, *b = (const char *)got + (size_t)i * w;
    if (memcmp(a, b, w) == 0) continue;
    if (first < 0) first = i;
    diffs++;
  }
  kc->elements += n;
  if (diffs == 0 || !begin_report(kc, tr, path, diffs)) return;
  printf("    %" PRId64 " of %" PRId64 " elements differ; first at flat index %" PRId64, diffs, n,
         first);
  put_inputs_at(kc, tr, first);
  printf("    expected (%s): ", expect_name);
  put_value(stdout, t, (const char *)expect + (size_t)first * w);
  printf("\n    got (%s): ", path);
  put_value(stdout, t, (const char *)got + (size_t)first * w);
  printf("\n");
}

/* The same of the output dtype. */
static void compare(kcheck *kc, const trial *tr, const char *path, const char *expect_name,
                    const void *expect, const void *got, int64_t n) {
  compare_as(kc, tr, kc->k->out_dtype, path, expect_name, expect, got, n);
}

/* Compares coordinate lists ([n, rank] or [rank, n]). */
static void compare_coords(kcheck *kc, const trial *tr, const char *path, const int64_t *expect,
                           int64_t n_expect, const int64_t *got, int64_t n_got) {
  bool    rows = kc->k->kind == WC_KIND_ARGWHERE;
  int     r = tr->rank;
  int64_t first = -1, diffs = 0;
  kc->elements++; /* the count itself */
  if (n_expect != n_got) {
    failf(kc, tr, path, "%" PRId64 " true elements expected (reference), %" PRId64 " got", n_expect,
          n_got);
    return;
  }
  for (int64_t i = 0; i < n_expect * r; i++)
    if (expect[i] != got[i]) {
      if (first < 0) first = i;
      diffs++;
    }
  kc->elements += n_expect * r;
  if (diffs == 0 || !begin_report(kc, tr, path, diffs)) return;
  int64_t row = rows ? first / r : first % n_expect, dim = rows ? first % r : first / n_expect;
  int64_t flat = 0;
  for (int d = 0; d < r; d++) {
    int64_t c = rows ? expect[row * r + d] : expect[d * n_expect + row];
    flat = flat * tr->shape[d] + c;
  }
  printf("    %" PRId64 " of %" PRId64 " coordinates differ; first at flat index %" PRId64
         " (true element %" PRId64 ", dim %" PRId64 "): expected %" PRId64 ", got %" PRId64 "\n"
         "    expected element",
         diffs, n_expect * r, first, row, dim, expect[first], got[first]);
  put_inputs_at(kc, tr, flat);
}

/* Input shapes from the patterns and the binding, then the output shape:
   broadcast (elementwise, coordinates) or x's (where_v1). */
static bool shape_trial(kcheck *kc, trial *tr) {
  const wc_kernel *k = kc->k;
  const wc_tensor *ptr[WC_MAX_INPUTS];
  for (int i = 0; i < k->n_inputs; i++) {
    wc_tensor *t = &tr->in[i];
    memset(t, 0, sizeof *t);
    t->dtype = k->inputs[i].dtype;
    t->rank = k->inputs[i].rank;
    for (int d = 0; d < t->rank; d++) {
      int64_t p = k->inputs[i].dims[d];
      t->shape[d] = p >= 0 ? p : (int64_t)tr->ext[-p - 1];
    }
    ptr[i] = t;
  }
  if (k->kind == WC_KIND_WHERE_V1) {
    const wc_tensor *x = &tr->in[k->program[k->program[k->n_instrs - 1].b].a];
    tr->rank = x->rank;
    memcpy(tr->shape, x->shape, sizeof tr->shape);
  } else if (wc_broadcast_shape(ptr, k->n_inputs, &tr->rank, tr->shape) != WC_OK) {
    return false;
  }
  tr->total = count_of(tr->rank, tr->shape);
  return true;
}

/* The extents every binding walks: 0, 1, u-1, u, u+1, 2u, 3u+1 for each
   unroll factor u and for the block length WC_LOOP_BLOCK (each remainder of
   the unrolled loop and of the blocks), and a large one. */
static size_t binding_list(const uint64_t *unrolls, int n_unrolls, size_t *list) {
  size_t n = 0;
  list[n++] = 0;
  list[n++] = 1;
  for (int i = 0; i <= n_unrolls; i++) {
    size_t u = i < n_unrolls ? (size_t)unrolls[i] : (size_t)WC_LOOP_BLOCK;
    size_t cand[] = {u - 1, u, u + 1, 2 * u, 3 * u + 1};
    for (size_t c = 0; c < 5; c++) {
      size_t j = 0;
      while (j < n && list[j] != cand[c]) j++;
      if (j == n) list[n++] = cand[c];
    }
  }
  list[n++] = LARGE_EXTENT;
  return n;
}

/* Binding of trial t: the first trials walk the list (each extent offset by
   its number, so every extent meets every value), later trials draw from the
   list and from [0, random_max]; then the largest extents shrink until the
   output has at most MAX_ELEMENTS elements. */
static void bind_trial(kcheck *kc, trial *tr, int64_t t, rng *r) {
  int n = kc->k->n_extents;
  for (int e = 0; e < n; e++) {
    if (t < (int64_t)kc->n_list) tr->ext[e] = kc->list[((size_t)t + (size_t)e) % kc->n_list];
    else if (rng_below(r, 2)) tr->ext[e] = kc->list[rng_below(r, kc->n_list)];
    else tr->ext[e] = (size_t)rng_below(r, kc->random_max + 1);
  }
  while (shape_trial(kc, tr) && tr->total > MAX_ELEMENTS) {
    int big = 0;
    for (int e = 1; e < n; e++)
      if (tr->ext[e] > tr->ext[big]) big = e;
    if (n == 0 || tr->ext[big] <= 1) break;
    tr->ext[big] = tr->ext[big] > kc->random_max ? kc->random_max : tr->ext[big] / 2;
  }
}

/* Remembers the binding; counts it when new. */
static void note_binding(kcheck *kc, const trial *tr) {
  int n = kc->k->n_extents;
  for (int64_t i = 0; i < kc->n_seen; i++)
    if (n == 0 || memcmp(&kc->seen[i * n], tr->ext, (size_t)n * sizeof(size_t)) == 0) return;
  if (n > 0) memcpy(&kc->seen[kc->n_seen * n], tr->ext, (size_t)n * sizeof(size_t));
  kc->n_seen++;
}

/* Ties: where an input shares its dtype with an earlier one, one element in 8
   copies an element of that one (a zero with a random sign), so that == <=
   min max meet equal operands, and +0 meets -0. */
static void add_ties(trial *tr, int i, rng *r) {
  wc_tensor *t = &tr->in[i];
  int        j = 0;
  while (j < i && tr->in[j].dtype != t->dtype) j++;
  int64_t n = count_of(t->rank, t->shape);
  int64_t m = j < i ? count_of(tr->in[j].rank, tr->in[j].shape) : 0;
  size_t  w = wc_dtype_size(t->dtype);
  bool    is_float = dtype_kind(t->dtype) == K_REAL || dtype_kind(t->dtype) == K_HALF;
  for (int64_t e = 0; m > 0 && e < n; e++) {
    if (rng_below(r, 8) != 0) continue;
    char *p = (char *)t->data + (size_t)e * w;
    memcpy(p, (const char *)tr->in[j].data + (size_t)rng_below(r, (uint64_t)m) * w, w);
    uint64_t u = load_bits(p, w), sign = sign_bit(t->dtype);
    if (is_float && (u & ~sign) == 0 && rng_below(r, 2)) store_bits(p, w, u ^ sign);
  }
}

/* Random inputs; a baked parameter (a constant) of its fixed shape gets its
   own data, which the runtime passes in its place anyway. */
static void fill_inputs(trial *tr, const wc_kernel *k, rng *r) {
  static const double p_true[] = {0.5, 0.5, 0.5, 0.5, 0.1, 0.9, 0.0, 1.0}; /* some all-false */
  for (int i = 0; i < k->n_inputs; i++) {
    wc_tensor      *t = &tr->in[i];
    const wc_param *p = &k->inputs[i];
    t->data = xmalloc(tensor_bytes(t));
    fill(r, t->dtype, t->data, count_of(t->rank, t->shape), p_true[rng_below(r, 8)]);
    if (p->data && t->rank == p->rank &&
        memcmp(t->shape, p->dims, (size_t)p->rank * sizeof *p->dims) == 0)
      memcpy(t->data, p->data, tensor_bytes(t));
    tr->data[i] = t->data;
    add_ties(tr, i, r);
  }
}

static void free_inputs(trial *tr, int n) {
  for (int i = 0; i < n; i++) free(tr->in[i].data);
}

static wc_tensor out_tensor(wc_dtype t, int rank, const int64_t *shape, int poison) {
  wc_tensor o;
  memset(&o, 0, sizeof o);
  o.dtype = t;
  o.rank = rank;
  memcpy(o.shape, shape, (size_t)rank * sizeof *shape);
  o.data = xmalloc(tensor_bytes(&o));
  memset(o.data, poison, tensor_bytes(&o)); /* unwritten elements show up */
  return o;
}

/* Does every input fit its parameter's pattern (right-aligned, missing dims
   are 1, one value per symbolic extent)? Mirrors the dispatcher's rule. */
static bool fits_pattern(const wc_kernel *k, const trial *tr) {
  int64_t bound[MAX_EXTENTS];
  for (int e = 0; e < MAX_EXTENTS; e++) bound[e] = -1;
  for (int i = 0; i < k->n_inputs; i++) {
    const wc_param  *p = &k->inputs[i];
    const wc_tensor *t = &tr->in[i];
    int              r = p->rank > t->rank ? p->rank : t->rank;
    for (int j = 0; j < r; j++) {
      int     pd = p->rank - 1 - j, td = t->rank - 1 - j;
      int64_t pe = pd >= 0 ? p->dims[pd] : 1, te = td >= 0 ? t->shape[td] : 1;
      if (pe >= 0) {
        if (pe != te) return false;
      } else if (bound[-pe - 1] >= 0 && bound[-pe - 1] != te) {
        return false;
      } else {
        bound[-pe - 1] = te;
      }
    }
  }
  return true;
}

static const char *path_name(wc_path p) {
  return p == WC_PATH_SPECIALIZED   ? "specialized"
         : p == WC_PATH_INTERPRETED ? "interpreted"
                                    : "none";
}

/* wc_run (and a plan) must report the path the shapes call for. */
static void check_path(kcheck *kc, const trial *tr, const char *path, wc_path got) {
  wc_path want = fits_pattern(kc->k, tr) ? WC_PATH_SPECIALIZED : WC_PATH_INTERPRETED;
  if (got != want)
    failf(kc, tr, path, "%s took the %s path; shapes %s the pattern, so %s was expected", path,
          path_name(got), want == WC_PATH_SPECIALIZED ? "fit" : "do not fit", path_name(want));
}

/* ---- kernels with several outputs ---- */

/* Every output against the reference's, labelled "path, output y". */
static void compare_outs(kcheck *kc, const trial *tr, const char *path, const wc_tensor *ref,
                         const wc_tensor *got) {
  for (int o = 0; o < kc->k->n_outputs; o++) {
    char label[1024];
    snprintf(label, sizeof label, "%s, output %s", path, kc->k->outputs[o].name);
    compare_as(kc, tr, ref[o].dtype, label, "reference", ref[o].data, got[o].data, tr->total);
  }
}

/* Fills every output with one byte, so that unwritten elements show up. */
static void poison_outs(const wc_kernel *k, wc_tensor *got, int byte) {
  for (int o = 0; o < k->n_outputs; o++) memset(got[o].data, byte, tensor_bytes(&got[o]));
}

/* range_outs over three pieces in a random order. */
static void range_split(const wc_kernel *k, const trial *tr, const void *const *in,
                        void *const *outs, rng *r) {
  size_t n = (size_t)tr->total, a = (size_t)rng_below(r, n + 1), b = (size_t)rng_below(r, n + 1);
  size_t cut[4] = {0, a < b ? a : b, a < b ? b : a, n};
  int    first = (int)rng_below(r, 3);
  for (int p = 0; p < 3; p++) {
    int q = (first + p) % 3;
    k->range_outs(tr->ext, in, outs, cut[q], cut[q + 1]);
  }
}

/* In place: output o is (a copy of) an input of its shape and dtype. */
static void run_outputs_in_place(kcheck *kc, const trial *tr, const wc_tensor *ref,
                                 wc_tensor *got, void *const *gp) {
  const wc_kernel *k = kc->k;
  for (int o = 0; o < k->n_outputs; o++)
    for (int i = 0; i < k->n_inputs; i++) {
      const wc_tensor *in = &tr->in[i];
      if (in->dtype != got[o].dtype || in->rank != tr->rank ||
          memcmp(in->shape, tr->shape, (size_t)tr->rank * sizeof *tr->shape) != 0)
        continue;
      const void *data[WC_MAX_INPUTS];
      char        path_buf[600];
      poison_outs(k, got, 0x3c);
      memcpy(data, tr->data, (size_t)k->n_inputs * sizeof *data);
      memcpy(got[o].data, in->data, tensor_bytes(in));
      data[i] = got[o].data;
      k->range_outs(tr->ext, data, gp, 0, (size_t)tr->total);
      snprintf(path_buf, sizeof path_buf, "in-place (%s = %s)", k->outputs[o].name,
               k->inputs[i].name);
      compare_outs(kc, tr, path_buf, ref, got);
    }
}

/* A kernel with several outputs: range_outs whole and split, wc_run_multi,
   a plan, the interpreter and in place, every output against the reference. */
static void run_outputs(kcheck *kc, const wc_kernel_table *table, trial *tr, rng *r,
                        bool direct) {
  const wc_kernel *k = kc->k;
  int              no = k->n_outputs;
  wc_tensor        ref[WC_MAX_OPERANDS], got[WC_MAX_OPERANDS];
  void            *gp[WC_MAX_OPERANDS];
  wc_path          path = (wc_path)0;
  wc_plan          plan;
  wc_status        s;
  for (int o = 0; o < no; o++) {
    ref[o] = out_tensor(k->outputs[o].dtype, tr->rank, tr->shape, 0xee);
    got[o] = out_tensor(k->outputs[o].dtype, tr->rank, tr->shape, 0xa5);
    gp[o] = got[o].data;
  }
  const char *run_path = direct ? "wc_run_multi" : "wc_run_multi-unfit";
  const char *plan_path = direct ? "wc_prepare_multi" : "wc_prepare_multi-unfit";
  if ((s = wc_ref_run_multi(k, tr->in, k->n_inputs, ref, no)) != WC_OK) {
    failf(kc, tr, "reference", "wc_ref_run_multi returned %s", wc_status_str(s));
  } else {
    if (direct) {
      k->range_outs(tr->ext, tr->data, gp, 0, (size_t)tr->total);
      compare_outs(kc, tr, "range", ref, got);
      poison_outs(k, got, 0x5a);
      range_split(k, tr, tr->data, gp, r);
      compare_outs(kc, tr, "range-split", ref, got);
    }
    poison_outs(k, got, 0xc3);
    if ((s = wc_run_multi(table, k->name, tr->in, k->n_inputs, got, no, &path)) != WC_OK)
      failf(kc, tr, run_path, "wc_run_multi returned %s", wc_status_str(s));
    else {
      check_path(kc, tr, run_path, path);
      compare_outs(kc, tr, run_path, ref, got);
    }
    poison_outs(k, got, 0x96);
    if ((s = wc_prepare_multi(table, k->name, tr->in, k->n_inputs, got, no, &plan)) != WC_OK)
      failf(kc, tr, plan_path, "wc_prepare_multi returned %s", wc_status_str(s));
    else if ((s = wc_plan_run_multi(&plan, tr->data, gp)) != WC_OK)
      failf(kc, tr, plan_path, "wc_plan_run_multi returned %s", wc_status_str(s));
    else {
      check_path(kc, tr, plan_path, plan.path);
      compare_outs(kc, tr, plan_path, ref, got);
    }
    if (direct) {
      poison_outs(k, got, 0x3c);
      if ((s = wc_interpret_multi(k, tr->in, k->n_inputs, got, no)) != WC_OK)
        failf(kc, tr, "interpreter", "wc_interpret_multi returned %s", wc_status_str(s));
      else compare_outs(kc, tr, "interpreter", ref, got);
      run_outputs_in_place(kc, tr, ref, got, gp);
    }
  }
  for (int o = 0; o < no; o++) {
    free(ref[o].data);
    free(got[o].data);
  }
}

/* Elementwise and where_v1 kernels: range, split range, wc_run, interpreter
   and in place, each against the reference. `direct` false: only wc_run
   (the shapes may not fit the pattern). */
static void run_elementwise(kcheck *kc, const wc_kernel_table *table, trial *tr, rng *r,
                            bool direct) {
  const wc_kernel *k = kc->k;
  if (k->n_outputs > 1) {
    run_outputs(kc, table, tr, r, direct);
    return;
  }
  wc_dtype         t = k->out_dtype;
  size_t           bytes = (size_t)tr->total * wc_dtype_size(t);
  size_t           n = (size_t)tr->total;
  wc_tensor        ref = out_tensor(t, tr->rank, tr->shape, 0xee), got;
  wc_path          path = (wc_path)0;
  wc_status        s;
  if ((s = wc_ref_run(k, tr->in, k->n_inputs, &ref)) != WC_OK) {
    failf(kc, tr, "reference", "wc_ref_run returned %s", wc_status_str(s));
    free(ref.data);
    return;
  }
  const char *run_path = direct ? "wc_run" : "wc_run-unfit";
  got = out_tensor(t, tr->rank, tr->shape, 0xa5);
  if (direct) {
    k->range(tr->ext, tr->data, got.data, 0, n);
    compare(kc, tr, "range", "reference", ref.data, got.data, tr->total);

    /* the same bytes from three pieces, run in a random order */
    wc_tensor split = out_tensor(t, tr->rank, tr->shape, 0x5a);
    size_t    a = (size_t)rng_below(r, n + 1), b = (size_t)rng_below(r, n + 1), cut[4];
    if (a > b) {
      size_t x = a;
      a = b;
      b = x;
    }
    cut[0] = 0;
    cut[1] = a;
    cut[2] = b;
    cut[3] = n;
    int first = (int)rng_below(r, 3);
    for (int p = 0; p < 3; p++) {
      int q = (first + p) % 3;
      k->range(tr->ext, tr->data, split.data, cut[q], cut[q + 1]);
    }
    compare(kc, tr, "range-split", "range, whole", got.data, split.data, tr->total);
    free(split.data);
  }

  memset(got.data, 0xc3, bytes);
  {
    /* the caller's own tensors only (baked parameters left out), as a
       runtime passes them; the full list goes to the other entry points */
    wc_tensor own[WC_MAX_INPUTS];
    int       n_own = 0;
    for (int i = 0; i < k->n_inputs; i++)
      if (k->inputs[i].data == NULL) own[n_own++] = tr->in[i];
    s = wc_run(table, k->name, own, n_own, &got, &path);
  }
  if (s != WC_OK) {
    failf(kc, tr, run_path, "wc_run returned %s", wc_status_str(s));
  } else {
    check_path(kc, tr, run_path, path);
    compare(kc, tr, run_path, "reference", ref.data, got.data, tr->total);
  }

  /* the same call prepared: the plan must record the same path */
  const char *plan_path = direct ? "wc_prepare" : "wc_prepare-unfit";
  wc_plan     plan;
  memset(got.data, 0x96, bytes);
  if ((s = wc_prepare(table, k->name, tr->in, k->n_inputs, &got, &plan)) != WC_OK) {
    failf(kc, tr, plan_path, "wc_prepare returned %s", wc_status_str(s));
  } else if ((s = wc_plan_run(&plan, tr->data, got.data)) != WC_OK) {
    failf(kc, tr, plan_path, "wc_plan_run returned %s", wc_status_str(s));
  } else {
    check_path(kc, tr, plan_path, plan.path);
    compare(kc, tr, plan_path, "reference", ref.data, got.data, tr->total);
  }

  if (direct) {
    memset(got.data, 0x3c, bytes);
    if ((s = wc_interpret(k, tr->in, k->n_inputs, &got)) != WC_OK)
      failf(kc, tr, "interpreter", "wc_interpret returned %s", wc_status_str(s));
    else compare(kc, tr, "interpreter", "reference", ref.data, got.data, tr->total);

    /* in place: out is (a copy of) an input of the output's shape and dtype */
    for (int i = 0; i < k->n_inputs; i++) {
      const wc_tensor *in = &tr->in[i];
      if (k->inputs[i].data != NULL || in->dtype != t || in->rank != tr->rank ||
          memcmp(in->shape, tr->shape, (size_t)tr->rank * sizeof *tr->shape) != 0)
        continue;
      const void *data[WC_MAX_INPUTS];
      char        path_buf[64];
      memcpy(data, tr->data, (size_t)k->n_inputs * sizeof *data);
      memcpy(got.data, in->data, bytes);
      data[i] = got.data;
      k->range(tr->ext, data, got.data, 0, n);
      snprintf(path_buf, sizeof path_buf, "in-place (out = %s)", k->inputs[i].name);
      compare(kc, tr, path_buf, "reference", ref.data, got.data, tr->total);
    }
  }
  free(got.data);
  free(ref.data);
}

/* Runs wc_run / wc_interpret / wc_ref_run on a coordinate kernel; *n from out's shape. */
typedef wc_status (*coords_call)(const wc_kernel_table *, const wc_kernel *, const trial *,
                                 wc_tensor *, wc_path *);

static wc_status call_run(const wc_kernel_table *table, const wc_kernel *k, const trial *tr,
                          wc_tensor *out, wc_path *path) {
  return wc_run(table, k->name, tr->in, k->n_inputs, out, path);
}
static wc_status call_interp(const wc_kernel_table *table, const wc_kernel *k, const trial *tr,
                             wc_tensor *out, wc_path *path) {
  (void)table;
  (void)path;
  return wc_interpret(k, tr->in, k->n_inputs, out);
}
static wc_status call_ref(const wc_kernel_table *table, const wc_kernel *k, const trial *tr,
                          wc_tensor *out, wc_path *path) {
  (void)table;
  (void)path;
  return wc_ref_run(k, tr->in, k->n_inputs, out);
}

/* Coordinates into a buffer of capacity total * rank; returns n, or -1 on failure. */
static int64_t coords_via(kcheck *kc, const wc_kernel_table *table, const trial *tr,
                          const char *path, coords_call call, int64_t *buf, wc_path *p) {
  int64_t   cap = tr->total * tr->rank;
  wc_tensor out;
  memset(&out, 0, sizeof out);
  out.dtype = WC_INT64;
  out.rank = 1;
  out.shape[0] = cap;
  out.data = buf;
  wc_status s = call(table, kc->k, tr, &out, p);
  if (s != WC_OK) {
    failf(kc, tr, path, "returned %s", wc_status_str(s));
    return -1;
  }
  bool rows = kc->k->kind == WC_KIND_ARGWHERE;
  if (out.rank != 2 || out.shape[rows ? 1 : 0] != tr->rank) {
    failf(kc, tr, path, "coordinates of shape rank %d [%" PRId64 ", %" PRId64 "], value rank %d",
          out.rank, out.shape[0], out.shape[1], tr->rank);
    return -1;
  }
  return out.shape[rows ? 0 : 1];
}

/* argwhere / nonzero kernels: count + coords (exact-size buffer), wc_run and
   the interpreter against the reference. */
static void run_coords(kcheck *kc, const wc_kernel_table *table, trial *tr, bool direct) {
  const wc_kernel *k = kc->k;
  size_t           cap_bytes = (size_t)(tr->total * tr->rank) * sizeof(int64_t);
  int64_t         *ref = xmalloc(cap_bytes), *got = xmalloc(cap_bytes);
  const char      *run_path = direct ? "wc_run" : "wc_run-unfit";
  wc_path          path = (wc_path)0;
  int64_t          n_ref = coords_via(kc, table, tr, "reference", call_ref, ref, NULL), n;
  if (n_ref < 0) goto done;
  if (direct) {
    n = k->count(tr->ext, tr->data);
    if (n < 0 || n > tr->total) {
      failf(kc, tr, "count", "count returned %" PRId64 " for %" PRId64 " elements", n, tr->total);
    } else {
      int64_t *exact = xmalloc((size_t)(n * tr->rank) * sizeof(int64_t));
      k->coords(tr->ext, tr->data, n, exact);
      compare_coords(kc, tr, "count+coords", ref, n_ref, exact, n);
      free(exact);
    }
  }
  if ((n = coords_via(kc, table, tr, run_path, call_run, got, &path)) >= 0) {
    check_path(kc, tr, run_path, path);
    compare_coords(kc, tr, run_path, ref, n_ref, got, n);
  }
  if (direct && (n = coords_via(kc, table, tr, "interpreter", call_interp, got, NULL)) >= 0)
    compare_coords(kc, tr, "interpreter", ref, n_ref, got, n);
done:
  free(ref);
  free(got);
}

/* Once per kernel: every input padded to the output rank and given a leading
   dim of 2 (data repeated), which broadcasts but fits no pattern, through wc_run. */
static void run_unfit(kcheck *kc, const wc_kernel_table *table, const trial *base, rng *r) {
  const wc_kernel *k = kc->k;
  trial            tr;
  int              R = base->rank;
  if (R + 1 > WC_MAX_RANK) return;
  if (k->kind == WC_KIND_WHERE_V1)
    for (int i = 0; i < k->n_inputs; i++)
      if (base->in[i].rank != R) return; /* row select cannot take a leading dim */
  int own = 0; /* a baked parameter (a constant) keeps its fixed shape */
  for (int i = 0; i < k->n_inputs; i++) own += k->inputs[i].data == NULL;
  if (own == 0) return;
  memcpy(&tr, base, sizeof tr);
  tr.note = "every input with a leading dim of 2";
  for (int i = 0; i < k->n_inputs; i++) {
    const wc_tensor *b = &base->in[i];
    wc_tensor       *t = &tr.in[i];
    size_t           bytes = tensor_bytes(b);
    if (k->inputs[i].data != NULL) {
      t->data = xmalloc(bytes);
      memcpy(t->data, b->data, bytes);
      tr.data[i] = t->data;
      continue;
    }
    t->rank = R + 1;
    t->shape[0] = 2;
    for (int d = 1; d <= R; d++) {
      int bd = d - 1 - (R - b->rank);
      t->shape[d] = bd >= 0 ? b->shape[bd] : 1;
    }
    t->data = xmalloc(2 * bytes);
    memcpy(t->data, b->data, bytes);
    memcpy((char *)t->data + bytes, b->data, bytes);
    tr.data[i] = t->data;
  }
  tr.rank = R + 1;
  tr.shape[0] = 2;
  memcpy(&tr.shape[1], base->shape, (size_t)R * sizeof *tr.shape);
  tr.total = 2 * base->total;
  kc->unfit++;
  if (is_coords(k)) run_coords(kc, table, &tr, false);
  else run_elementwise(kc, table, &tr, r, false);
  free_inputs(&tr, k->n_inputs);
}

/* Shapes that broadcast but bind one symbolic extent two ways: in base's
   shapes, one dim of one input whose extent is bound to 2 or more becomes 1
   (c: [1,1] against x: [37,13] in c: [N,1], x: [N,M]); each such dim in
   turn, when the shapes then fit no pattern. wc_run and wc_prepare must
   interpret them (a kernel run with one of the two values would read past
   the smaller input). Returns the trials run. where_v1 does not broadcast:
   those shapes are errors there. */
static int run_twoway(kcheck *kc, const wc_kernel_table *table, const trial *base, rng *r) {
  const wc_kernel *k = kc->k;
  const wc_tensor *ptr[WC_MAX_INPUTS];
  static trial     tr; /* large: not on the stack */
  char             note[160];
  int              ran = 0;
  if (k->kind == WC_KIND_WHERE_V1) return 0;
  for (int i = 0; i < k->n_inputs; i++)
    for (int d = 0; d < k->inputs[i].rank; d++) {
      int64_t p = k->inputs[i].dims[d], v = base->in[i].shape[d];
      if (p >= 0 || v < 2) continue;
      memcpy(&tr, base, sizeof tr);
      tr.in[i].shape[d] = 1;
      for (int j = 0; j < k->n_inputs; j++) ptr[j] = &tr.in[j];
      if (wc_broadcast_shape(ptr, k->n_inputs, &tr.rank, tr.shape) != WC_OK || fits_pattern(k, &tr))
        continue;
      snprintf(note, sizeof note, "%s dim %d set to 1: %s bound two ways (1 and %" PRId64 ")",
               k->inputs[i].name, d, k->extent_names ? k->extent_names[-p - 1] : "?", v);
      tr.note = note;
      tr.total = count_of(tr.rank, tr.shape);
      tr.in[i].data = xmalloc(tensor_bytes(&tr.in[i]));
      fill(r, tr.in[i].dtype, tr.in[i].data, count_of(tr.in[i].rank, tr.in[i].shape), 0.5);
      tr.data[i] = tr.in[i].data;
      kc->twoway++;
      if (is_coords(k)) run_coords(kc, table, &tr, false);
      else run_elementwise(kc, table, &tr, r, false);
      free(tr.in[i].data); /* the other inputs are base's */
      ran++;
    }
  return ran;
}

/* A table entry the harness can run: invokers, patterns, program in range. */
static const char *entry_problem(const wc_kernel *k) {
  if (k->name == NULL) return "kernel without a name";
  if (k->n_inputs < 0 || k->n_inputs > WC_MAX_INPUTS || (k->n_inputs > 0 && k->inputs == NULL))
    return "bad input list (or too many inputs for the harness)";
  if (k->n_extents < 0 || k->n_extents > MAX_EXTENTS) return "too many symbolic extents";
  if (k->n_instrs < 1 || k->program == NULL) return "no program";
  if (is_coords(k)            ? (k->count == NULL || k->coords == NULL)
      : k->n_outputs > 1 ? (k->range_outs == NULL || k->outputs == NULL)
                         : k->range == NULL)
    return "missing invoker";
  for (int i = 0; i < k->n_instrs; i++)
    if (k->program[i].op == WC_OP_INPUT && k->program[i].a >= k->n_inputs)
      return "program reads an input that does not exist";
  for (int i = 0; i < k->n_inputs; i++) {
    const wc_param *p = &k->inputs[i];
    if (p->name == NULL) return "input without a name";
    if (p->rank < 0 || p->rank > WC_MAX_RANK || (p->rank > 0 && p->dims == NULL))
      return "bad input pattern";
    for (int d = 0; d < p->rank; d++)
      if (p->dims[d] < 0 && -p->dims[d] - 1 >= k->n_extents)
        return "pattern names an unknown extent";
  }
  if (k->kind == WC_KIND_WHERE_V1) {
    const wc_instr *top = &k->program[k->n_instrs - 1];
    if (top->op != WC_OP_WHERE || k->program[top->b].op != WC_OP_INPUT)
      return "where_v1 program is not where(c, x, y) over inputs";
  }
  return NULL;
}

/* The out pattern, bound, must be the shape the runtime computes. */
static void check_out_pattern(kcheck *kc, const trial *tr) {
  const wc_kernel *k = kc->k;
  bool             same = k->out_rank == tr->rank && (k->out_rank == 0 || k->out_dims != NULL);
  for (int d = 0; same && d < k->out_rank; d++) {
    int64_t p = k->out_dims[d];
    same = (p >= 0 ? p : (int64_t)tr->ext[-p - 1]) == tr->shape[d];
  }
  if (!same)
    failf(kc, tr, "table", "out pattern (rank %d) does not give the output shape", k->out_rank);
}

static bool every_extent_above_1(const wc_kernel *k, const trial *tr) {
  for (int e = 0; e < k->n_extents; e++)
    if (tr->ext[e] < 2) return false;
  return true;
}

static uint64_t hash_name(const char *s) {
  uint64_t h = 1469598103934665603u; /* FNV-1a */
  while (*s) h = (h ^ (uint8_t)*s++) * 1099511628211u;
  return h;
}

static void check_kernel(kcheck *kc, const wc_kernel_table *table, int64_t trials, uint64_t seed) {
  const wc_kernel *k = kc->k;
  const char      *problem = entry_problem(k);
  static trial     tr;
  rng              r = rng_seed(seed ^ hash_name(k->name ? k->name : ""));
  bool             unfit_done = false, twoway_done = false;
  memset(&tr, 0, sizeof tr);
  if (problem) {
    failf(kc, &tr, "table", "%s", problem);
    return;
  }
  kc->seen = xmalloc((size_t)trials * (size_t)(k->n_extents ? k->n_extents : 1) * sizeof(size_t));
  for (int64_t t = 0; t < trials; t++) {
    memset(&tr, 0, sizeof tr);
    bind_trial(kc, &tr, t, &r);
    if (!shape_trial(kc, &tr)) {
      failf(kc, &tr, "table", "the input patterns do not broadcast");
      break;
    }
    kc->trials++;
    note_binding(kc, &tr);
    fill_inputs(&tr, k, &r);
    if (is_coords(k)) {
      run_coords(kc, table, &tr, true);
    } else {
      check_out_pattern(kc, &tr);
      run_elementwise(kc, table, &tr, &r, true);
    }
    if (!unfit_done && tr.total > 0 && 2 * tr.total <= MAX_ELEMENTS) {
      run_unfit(kc, table, &tr, &r);
      unfit_done = true;
    }
    /* until a binding of every extent to 2 or more has had them (before it,
       some extents cannot be bound two ways) */
    if (!twoway_done && tr.total > 0 && tr.total <= TWOWAY_MAX_ELEMENTS)
      twoway_done = run_twoway(kc, table, &tr, &r) > 0 && every_extent_above_1(k, &tr);
    free_inputs(&tr, k->n_inputs);
  }
  free(kc->seen);
  kc->seen = NULL;
}

/* ---- the table of results --------------------------------------------------- */

static const char *kind_name(wc_kernel_kind kind) {
  switch (kind) {
  case WC_KIND_ELEMENTWISE: return "elementwise";
  case WC_KIND_WHERE_V1: return "where_v1";
  case WC_KIND_ARGWHERE: return "argwhere";
  case WC_KIND_NONZERO: return "nonzero";
  default: return "?";
  }
}

/* "bool,float,float->float" into buf. */
static void dtypes_text(const wc_kernel *k, char *buf, size_t cap) {
  size_t len = 0;
  buf[0] = '\0';
  for (int i = 0; i < k->n_inputs && len < cap; i++)
    len += (size_t)snprintf(buf + len, cap - len, "%s%s", i ? "," : "",
                            dtype_text(k->inputs[i].dtype));
  for (int o = 0; o < (k->n_outputs > 1 ? k->n_outputs : 1) && len < cap; o++)
    len += (size_t)snprintf(buf + len, cap - len, "%s%s", o ? "," : "->",
                            is_coords(k)        ? "int64"
                            : k->n_outputs > 1 ? dtype_text(k->outputs[o].dtype)
                                               : dtype_text(k->out_dtype));
}

static int usage(const char *argv0) {
  fprintf(stderr, "usage: %s [--trials N] [--seed S] [--unroll U]... [--progress]\n", argv0);
  return GEN_EXIT_USAGE;
}

/* A whole decimal or 0x number in [lo, hi]. */
static bool parse_num(const char *s, uint64_t lo, uint64_t hi, uint64_t *v) {
  char *end;
  if (s == NULL || *s == '\0' || *s == '-') return false;
  *v = strtoull(s, &end, 0);
  return *end == '\0' && *v >= lo && *v <= hi;
}

int main(int argc, char **argv) {
  const wc_kernel_table *table = &WC_CHECK_TABLE;
  uint64_t               trials = 0, seed = 1, umax = 0;
  int                    n_unrolls = 0, name_w = 6, dt_w = 6;
  int64_t                total_trials = 0, total_mismatches = 0, unfit = 0, twoway = 0;
  /* As many unroll factors as the command line holds (`wherec check` passes what
     the generator used), and the extents their bindings walk (binding_list). */
  uint64_t *unrolls = xmalloc((size_t)argc * sizeof *unrolls);
  size_t   *list = xmalloc((3 + 5 * ((size_t)argc + 1)) * sizeof *list), n_list;
  char      dt[256];
  unrolls[0] = 8;
  for (int i = 1; i < argc; i += 2) { /* --name value pairs, and --progress */
    if (strcmp(argv[i], "--progress") == 0) {
      progress_on = true;
      i--;
      continue;
    }
    bool      is_unroll = strcmp(argv[i], "--unroll") == 0;
    uint64_t *dst = strcmp(argv[i], "--trials") == 0 ? &trials
                    : strcmp(argv[i], "--seed") == 0 ? &seed
                    : is_unroll                      ? &unrolls[n_unrolls]
                                                     : NULL;
    uint64_t  lo = dst == &seed ? 0 : 1;
    uint64_t  hi = dst == &seed ? UINT64_MAX : dst == &trials ? 1000000 : 1024;
    if (dst == NULL || i + 1 >= argc || !parse_num(argv[i + 1], lo, hi, dst)) {
      free(unrolls);
      free(list);
      return usage(argv[0]);
    }
    n_unrolls += is_unroll;
  }
  if (n_unrolls == 0) n_unrolls = 1; /* the generator's default, 8 */
  for (int i = 0; i < n_unrolls; i++) umax = unrolls[i] > umax ? unrolls[i] : umax;
  n_list = binding_list(unrolls, n_unrolls, list);
  if (trials == 0) trials = n_list + 8; /* the whole list, then as many random */
  for (int i = 0; i < table->n_kernels; i++) {
    int n = (int)strlen(table->kernels[i].name ? table->kernels[i].name : "");
    dtypes_text(&table->kernels[i], dt, sizeof dt);
    if (n > name_w) name_w = n;
    if ((int)strlen(dt) > dt_w) dt_w = (int)strlen(dt);
  }
  printf("wherec check: %s (prefix %s), %" PRIu64 " trials per kernel, seed %" PRIu64 ", unroll",
         table->spec ? table->spec : "?", table->prefix ? table->prefix : "?", trials, seed);
  for (int i = 0; i < n_unrolls; i++) printf("%s%" PRIu64, i ? "," : " ", unrolls[i]);
  printf("\n%-*s  %-11s  %-*s  %8s  %10s  %10s\n", name_w, "kernel", "kind", dt_w, "dtypes",
         "bindings", "elements", "mismatches");
  for (int i = 0; i < table->n_kernels; i++) {
    kcheck kc;
    memset(&kc, 0, sizeof kc);
    kc.k = &table->kernels[i];
    kc.list = list;
    kc.n_list = n_list;
    kc.random_max = (size_t)(4 * umax);
    fflush(stdout);
    progress_show(i, table->n_kernels, kc.k->name);
    check_kernel(&kc, table, (int64_t)trials, seed);
    dtypes_text(kc.k, dt, sizeof dt);
    progress_clear();
    printf("%-*s  %-11s  %-*s  %8" PRId64 "  %10" PRId64 "  %10" PRId64 "\n", name_w,
           kc.k->name ? kc.k->name : "?", kind_name(kc.k->kind), dt_w, dt, kc.n_seen, kc.elements,
           kc.mismatches);
    total_trials += kc.trials;
    total_mismatches += kc.mismatches;
    unfit += kc.unfit;
    twoway += kc.twoway;
  }
  printf("shapes outside the patterns, through wc_run and wc_prepare: %" PRId64
         " with a leading dim of 2, %" PRId64 " binding one extent two ways\n",
         unfit, twoway);
  printf("%d kernels, %" PRId64 " trials, %" PRId64 " mismatches\n", table->n_kernels, total_trials,
         total_mismatches);
  free(unrolls);
  free(list);
  return total_mismatches ? GEN_EXIT_MISMATCH : GEN_EXIT_OK;
}
