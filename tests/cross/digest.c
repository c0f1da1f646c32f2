/* digest.c: runs every kernel of one generated table on fixed, deterministic inputs
   and prints a digest of its outputs per kernel, for comparing CPUs bit for bit
   (tests/cross/run.sh: x86-64 against aarch64, s390x and riscv64 under qemu-user).

   Built like check's harness, against one generated table:
     cc -DWC_CHECK_TABLE=<prefix>_table -DWC_CHECK_HEADER=\"<prefix>.h\" digest.c <prefix>.c libwherec.a -lm
   Each kernel runs at two bindings of its symbolic extents (all 1; then 1021, 37, 5,
   3, 2, ... shrunk to at most 2^15 output elements) on inputs drawn from a counter
   hash: NaNs with payloads of both signs, +-inf, +-0, subnormals, +-1, the largest
   finite and smallest normal values, the hardest inputs of exp, log, tanh, sigmoid and
   erf (tests/runtime/CRMATH.md) and their neighbours, overflow and saturation
   thresholds, integer limits, small exact values and arbitrary bits. The specialized
   path (wc_run / wc_run_multi), the interpreter and the reference must agree on each
   CPU (else exit 3); the line printed per kernel is
     <kernel> in=<FNV-1a 64 of the inputs> out=<FNV-1a 64 of the outputs>
   both hashed over each element's bytes in little-endian order (a string by its
   characters and its NUL, coordinates as int64), so that big-endian s390x prints what
   x86-64 does. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <wherec/wherec.h>

#if !defined(WC_CHECK_TABLE) || !defined(WC_CHECK_HEADER)
#error "compile with -DWC_CHECK_TABLE=<prefix>_table -DWC_CHECK_HEADER=\"<prefix>.h\""
#endif
#include WC_CHECK_HEADER

#define MAX_EXTENTS  64
#define MAX_ELEMENTS ((int64_t)1 << 15)

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

/* ---- FNV-1a 64 over little-endian element bytes ---------------------------- */

typedef struct fnv {
  uint64_t h;
} fnv;

static void fnv_byte(fnv *f, uint8_t b) {
  f->h ^= b;
  f->h *= 0x100000001b3u;
}

static void fnv_le(fnv *f, uint64_t v, size_t w) { /* w bytes of v, lowest first */
  for (size_t i = 0; i < w; i++) fnv_byte(f, (uint8_t)(v >> (8 * i)));
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

/* n elements of dtype t: each element's bytes as the little-endian CPU holds them. */
static void hash_elements(fnv *f, wc_dtype t, const void *data, int64_t n) {
  size_t w = wc_dtype_size(t);
  int    kind = dtype_kind(t);
  for (int64_t i = 0; i < n; i++) {
    const char *p = (const char *)data + (size_t)i * w;
    if (kind == K_STRING) {
      const char *s;
      memcpy(&s, p, sizeof s);
      if (s == NULL) fnv_le(f, 0xff, 1); /* never a character of a C string */
      else
        do fnv_byte(f, (uint8_t)*s);
        while (*s++);
    } else if (kind == K_COMPLEX) {
      fnv_le(f, load_bits(p, w / 2), w / 2);
      fnv_le(f, load_bits(p + w / 2, w / 2), w / 2);
    } else {
      fnv_le(f, load_bits(p, w), w);
    }
  }
}

/* ---- fixed inputs --------------------------------------------------------------- */

/* splitmix64 of a counter: the same stream on every CPU. */
static uint64_t mix(uint64_t z) {
  z += 0x9e3779b97f4a7c15u;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
  return z ^ (z >> 31);
}

/* float edges as float bits: NaNs (quiet, payloads, signalling, both signs), +-inf,
   +-0, subnormals, +-1, largest finite, smallest normal. */
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

/* Float inputs where the functions are hardest or change regime (as float bits):
   the nearest inputs to a rounding boundary of exp, log, tanh, sigmoid, erf, sinh and cosh
   (CRMATH.md), -2^-24 and 2^-11 (sigmoid's series), 2^-6 (its switch to exp), exp's
   overflow and underflow thresholds, where tanh and erf reach +-1, 0.5, 2, pi, sinh's
   and cosh's overflow threshold (0.5 is where sinh switches from its series); the
   domains' edges of the inverse functions, and large arguments of the circular ones. */
static const uint32_t hard_f32[] = {
    0xc16912cdu /* -0x1.d2259ap+3: exp */,   0x65d890d3u /* 0x1.b121a6p+76: log */,
    0x3ac37de2u /* 0x1.86fbc4p-10: tanh */,  0x3d21bc81u /* 0x1.437902p-5: sigmoid */,
    0x3940ead6u /* 0x1.81d5acp-13: erf */,   0xb3800000u /* -2^-24 */,
    0x3a000000u /* 2^-11 */,                 0x3c800000u /* 2^-6 */,
    0x42b17217u /* 0x1.62e42ep+6: exp's largest finite */, 0x42b17218u /* overflows */,
    0xc2cff1b4u /* -0x1.9fe368p+6: exp underflows to 0 */, 0xc2ce8ed0u /* -0x1.9d1da0p+6 */,
    0x41102cb3u /* 9.010913: tanh reaches 1 */, 0x407ad445u /* 3.919206: erf reaches 1 */,
    0x3f000000u /* 0.5 */,                   0x40490fdbu /* pi */,
    0x42b2d4fcu /* 0x1.65a9f8p+6: sinh's and cosh's largest finite */, 0x42b2d4fdu /* overflows */,
    0x3a1285ffu /* 0x1.250bfep-11: sinh */,  0x3a6f7750u /* 0x1.deeeap-11: cosh */,
    0x3f800000u /* 1: asin, acos, atanh and acosh's edge */, 0x3f7fffffu /* 1 - 2^-24 */,
    0xbf800000u /* -1 */,                    0x3fc90fdbu /* pi/2 rounded: tan's largest */,
    0x7f7fffffu /* FLT_MAX: sin, cos, tan reduce it exactly */, 0x4b800000u /* 2^24 */};
#define N_HARD (sizeof hard_f32 / sizeof hard_f32[0])

static uint64_t sign_bit(wc_dtype t) {
  return t == WC_DOUBLE ? UINT64_C(1) << 63 : t == WC_FLOAT ? UINT64_C(1) << 31 : UINT64_C(1) << 15;
}

static float f32_of_bits(uint32_t u) { return wc_bits_to_f32(u); }

/* A float of type t (float, double, float16, bfloat16), as bits, from hash h. */
static uint64_t fill_float(uint64_t h, wc_dtype t) {
  unsigned pick = (unsigned)(h & 15);
  uint64_t r = h >> 4;
  float    v;
  if (pick < 3) { /* an edge */
    unsigned e = (unsigned)(r % N_EDGES);
    switch (t) {
    case WC_FLOAT: return edges_f32[e];
    case WC_FLOAT16: return edges_f16[e];
    case WC_BFLOAT16: return edges_bf16[e];
    default: return edges_f64[e];
    }
  }
  if (pick < 6) { /* a hard input, its neighbours, either sign */
    uint32_t u = hard_f32[r % N_HARD];
    int      step = (int)((r >> 8) % 3) - 1;
    u = (uint32_t)((int64_t)u + step);
    if ((r >> 12) & 1) u ^= 0x80000000u;
    v = f32_of_bits(u);
  } else if (pick < 9) { /* a small exact value, k / 8 */
    v = (float)((int)(r % 401) - 200) / 8.0f;
  } else if (pick < 10) { /* +-2^(b-1), +-2^b for an integer width b, neighbours */
    static const int widths[] = {8, 16, 32, 64};
    int              b = widths[r % 4] - (int)((r >> 2) & 1);
    double           d = (double)((uint64_t)1 << (b - 1)) * 2.0;
    if (t == WC_DOUBLE) {
      uint64_t bits;
      memcpy(&bits, &d, sizeof bits);
      bits += (uint64_t)((int)((r >> 3) % 3) - 1);
      return (r >> 5) & 1 ? bits | sign_bit(t) : bits;
    }
    v = (float)d;
    uint32_t u = wc_f32_to_bits(v) + (uint32_t)((int)((r >> 3) % 3) - 1);
    if ((r >> 5) & 1) u |= 0x80000000u;
    v = f32_of_bits(u);
  } else { /* any bits */
    switch (t) {
    case WC_FLOAT: return r & 0xffffffffu;
    case WC_FLOAT16:
    case WC_BFLOAT16: return r & 0xffffu;
    default: return mix(h);
    }
  }
  switch (t) {
  case WC_FLOAT: return wc_f32_to_bits(v);
  case WC_FLOAT16: return wc_f32_to_f16(v);
  case WC_BFLOAT16: return wc_f32_to_bf16(v);
  default: {
    double   d = (double)v;
    uint64_t bits;
    memcpy(&bits, &d, sizeof bits);
    return bits;
  }
  }
}

/* An integer of `bits` width from hash h: limits, -1..1, shift counts, small, any. */
static uint64_t fill_int(uint64_t h, int bits, bool is_signed) {
  uint64_t mask = bits == 64 ? UINT64_MAX : (UINT64_C(1) << bits) - 1;
  uint64_t top = UINT64_C(1) << (bits - 1), w = (uint64_t)bits;
  uint64_t sedges[] = {top, top - 1, mask, 0, 1, top + 1, top - 2, w - 1, w, 200};
  uint64_t uedges[] = {0, 1, mask, mask - 1, top, top - 1, 2, w - 1, w, 200};
  uint64_t pick = h & 7, r = h >> 3, v;
  if (pick < 3) v = (is_signed ? sedges : uedges)[r % 10];
  else if (pick < 6) v = (uint64_t)((int64_t)(r % 17) - 8);
  else v = mix(h);
  return v & mask;
}

static const char *const string_pool[] = {
    "", "a", "b", "", "where", "caf\xc3\xa9", "0", "a longer string, with spaces"};
#define N_STRINGS (sizeof string_pool / sizeof string_pool[0])

/* Fills input `slot` of a kernel: element i from mix(seed, slot, i). */
static void fill(uint64_t seed, wc_dtype t, void *data, int64_t n) {
  size_t w = wc_dtype_size(t);
  int    kind = dtype_kind(t);
  for (int64_t i = 0; i < n; i++) {
    char    *p = (char *)data + (size_t)i * w;
    uint64_t h = mix(seed ^ mix((uint64_t)i));
    switch (kind) {
    case K_BOOL: *(bool *)p = (h >> 17) & 1; break;
    case K_STRING: *(const char **)p = string_pool[h % N_STRINGS]; break;
    case K_SINT:
    case K_UINT: store_bits(p, w, fill_int(h, (int)w * 8, kind == K_SINT)); break;
    case K_COMPLEX: {
      wc_dtype part = t == WC_COMPLEX64 ? WC_FLOAT : WC_DOUBLE;
      store_bits(p, w / 2, fill_float(h, part));
      store_bits(p + w / 2, w / 2, fill_float(mix(h), part));
      break;
    }
    default: store_bits(p, w, fill_float(h, t)); break;
    }
  }
}

/* ---- running ------------------------------------------------------------------------ */

static void *xcalloc(size_t n) {
  void *p = calloc(n ? n : 1, 1);
  if (p == NULL) {
    fprintf(stderr, "digest: out of memory\n");
    exit(1);
  }
  return p;
}

static uint64_t name_hash(const char *s) {
  fnv f = {0xcbf29ce484222325u};
  while (*s) fnv_byte(&f, (uint8_t)*s++);
  return f.h;
}

static int64_t count_of(int rank, const int64_t *shape) {
  int64_t n = 1;
  for (int d = 0; d < rank; d++) n *= shape[d];
  return n;
}

static int failures;

static void fail(const wc_kernel *k, const char *what, wc_status s) {
  printf("%s: %s %s\n", k->name, what, s == WC_OK ? "differs from the reference" : wc_status_str(s));
  failures++;
}

/* One binding: inputs filled, every path run and compared, outputs hashed into out. */
static void run_binding(const wc_kernel_table *table, const wc_kernel *k, const size_t *ext,
                        fnv *in_hash, fnv *out_hash) {
  wc_tensor in[WC_MAX_INPUTS];
  int64_t   shape[WC_MAX_RANK];
  uint64_t  seed = name_hash(k->name);
  for (int i = 0; i < k->n_inputs; i++) {
    const wc_param *p = &k->inputs[i];
    memset(&in[i], 0, sizeof in[i]);
    in[i].dtype = p->dtype;
    in[i].rank = p->rank;
    for (int d = 0; d < p->rank; d++)
      in[i].shape[d] = p->dims[d] >= 0 ? p->dims[d] : (int64_t)ext[-p->dims[d] - 1];
    int64_t n = count_of(p->rank, in[i].shape);
    in[i].data = xcalloc((size_t)n * wc_dtype_size(p->dtype));
    fill(mix(seed + (uint64_t)i), p->dtype, in[i].data, n);
    hash_elements(in_hash, p->dtype, in[i].data, n);
  }
  for (int d = 0; d < k->out_rank; d++)
    shape[d] = k->out_dims[d] >= 0 ? k->out_dims[d] : (int64_t)ext[-k->out_dims[d] - 1];
  int64_t total = count_of(k->out_rank, shape);

  if (k->kind == WC_KIND_ARGWHERE || k->kind == WC_KIND_NONZERO) {
    int64_t  cap = total * k->out_rank;
    int64_t *got[3];
    int64_t  n[3];
    for (int w = 0; w < 3; w++) {
      wc_tensor o;
      wc_path   path = WC_PATH_SPECIALIZED;
      memset(&o, 0, sizeof o);
      got[w] = xcalloc((size_t)(cap ? cap : 1) * sizeof(int64_t));
      o.dtype = WC_INT64;
      o.rank = 1;
      o.shape[0] = cap;
      o.data = got[w];
      wc_status s = w == 0   ? wc_run(table, k->name, in, k->n_inputs, &o, &path)
                    : w == 1 ? wc_interpret(k, in, k->n_inputs, &o)
                             : wc_ref_run(k, in, k->n_inputs, &o);
      n[w] = o.shape[0] * o.shape[1];
      if (s != WC_OK) fail(k, w == 0 ? "wc_run" : w == 1 ? "interpreter" : "reference", s);
      else if (path != WC_PATH_SPECIALIZED) fail(k, "wc_run took the interpreted path;", WC_E_ARG);
    }
    for (int w = 0; w < 2; w++)
      if (n[w] != n[2] || memcmp(got[w], got[2], (size_t)n[2] * sizeof(int64_t)) != 0)
        fail(k, w == 0 ? "wc_run" : "interpreter", WC_OK);
    fnv_le(out_hash, (uint64_t)n[0], 8);
    hash_elements(out_hash, WC_INT64, got[0], n[0]);
    for (int w = 0; w < 3; w++) free(got[w]);
  } else {
    int       no = k->n_outputs > 1 ? k->n_outputs : 1;
    wc_tensor outs[3][WC_MAX_OPERANDS];
    for (int w = 0; w < 3; w++) {
      for (int o = 0; o < no; o++) {
        wc_dtype t = k->n_outputs > 1 ? k->outputs[o].dtype : k->out_dtype;
        memset(&outs[w][o], 0, sizeof outs[w][o]);
        outs[w][o].dtype = t;
        outs[w][o].rank = k->out_rank;
        memcpy(outs[w][o].shape, shape, (size_t)k->out_rank * sizeof *shape);
        outs[w][o].data = xcalloc((size_t)total * wc_dtype_size(t));
        memset(outs[w][o].data, 0xa5 + w, (size_t)total * wc_dtype_size(t));
      }
      wc_path   path = WC_PATH_SPECIALIZED;
      wc_status s = w == 0   ? wc_run_multi(table, k->name, in, k->n_inputs, outs[w], no, &path)
                    : w == 1 ? wc_interpret_multi(k, in, k->n_inputs, outs[w], no)
                             : wc_ref_run_multi(k, in, k->n_inputs, outs[w], no);
      if (s != WC_OK) fail(k, w == 0 ? "wc_run_multi" : w == 1 ? "interpreter" : "reference", s);
      else if (path != WC_PATH_SPECIALIZED) fail(k, "wc_run_multi took the interpreted path;", WC_E_ARG);
    }
    for (int o = 0; o < no; o++) {
      size_t bytes = (size_t)total * wc_dtype_size(outs[0][o].dtype);
      for (int w = 0; w < 2; w++)
        if (memcmp(outs[w][o].data, outs[2][o].data, bytes) != 0)
          fail(k, w == 0 ? "wc_run_multi" : "interpreter", WC_OK);
      hash_elements(out_hash, outs[0][o].dtype, outs[0][o].data, total);
      for (int w = 0; w < 3; w++) free(outs[w][o].data);
    }
  }
  for (int i = 0; i < k->n_inputs; i++) free(in[i].data);
}

/* The output elements of binding ext. */
static int64_t output_size(const wc_kernel *k, const size_t *ext) {
  int64_t n = 1;
  for (int d = 0; d < k->out_rank; d++)
    n *= k->out_dims[d] >= 0 ? k->out_dims[d] : (int64_t)ext[-k->out_dims[d] - 1];
  return n;
}

int main(void) {
  static const size_t sizes[] = {1021, 37, 5, 3};
  const wc_kernel_table *table = &WC_CHECK_TABLE;
  wc_status              s = wc_register(table);
  if (s != WC_OK) {
    printf("wc_register: %s\n", wc_status_str(s));
    return 3;
  }
  for (int i = 0; i < table->n_kernels; i++) {
    const wc_kernel *k = &table->kernels[i];
    size_t           ext[MAX_EXTENTS];
    fnv              in_hash = {0xcbf29ce484222325u}, out_hash = {0xcbf29ce484222325u};
    if (k->n_extents > MAX_EXTENTS) {
      printf("%s: %d extents\n", k->name, k->n_extents);
      return 3;
    }
    for (int e = 0; e < k->n_extents; e++) ext[e] = 1;
    run_binding(table, k, ext, &in_hash, &out_hash);
    for (int e = 0; e < k->n_extents; e++) ext[e] = e < 4 ? sizes[e] : 2;
    for (int e = 0; e < k->n_extents; e++) /* the largest first, while too many */
      while (output_size(k, ext) > MAX_ELEMENTS && ext[e] > 1) ext[e] = (ext[e] + 1) / 2;
    if (k->n_extents > 0) run_binding(table, k, ext, &in_hash, &out_hash);
    printf("%s in=%016" PRIx64 " out=%016" PRIx64 "\n", k->name, in_hash.h, out_hash.h);
  }
  return failures ? 3 : 0;
}
