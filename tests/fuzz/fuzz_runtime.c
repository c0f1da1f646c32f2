/* fuzz_runtime.c: libFuzzer target of libwherec's entry points: random tensor descriptors
   over exactly sized buffers; statuses follow <wherec/wherec.h>, results match the reference. */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <wherec/wherec.h>

#include "golden.h"

#define MAX_BYTES 2048                 /* data of a descriptor the fuzzer backs with memory */
#define MAX_CAP   96                   /* int64 slots of a coordinate buffer */
#define MAX_IN    4                    /* inputs handed to wc_run */

/* ---- the input as a stream of choices ------------------------------------- */

typedef struct stream {
  const uint8_t *p;
  size_t         n;
} stream;

static uint8_t u8(stream *s) {
  if (s->n == 0) return 0;
  s->n--;
  return *s->p++;
}

static void fail(const char *what) {
  fprintf(stderr, "fuzz_runtime: %s\n", what);
  abort();
}

/* ---- descriptors -------------------------------------------------------------- */

/* A descriptor with the buffer behind it and what the rules say of it. */
typedef struct desc {
  wc_tensor t;
  void     *buf;                       /* malloc'ed at exactly `bytes` (owned), or NULL */
  size_t    bytes;
  bool      ok;                        /* valid by <wherec/wherec.h>, data included */
  int64_t   count;                     /* elements, when ok */
} desc;

static const char *const strs[] = {"", "a", "bc", "\xff"};

/* The element count by <wherec/wherec.h> (empty whatever the rest; no overflow of
   the count or of the bytes); false when the descriptor is invalid. */
static bool model_count(const wc_tensor *t, int64_t *count) {
  size_t size = wc_dtype_size(t->dtype);
  int64_t n = 1;
  bool empty = false, over = false;
  if ((int)t->dtype < 1 || (int)t->dtype > 16 || size == 0) return false;
  if (t->rank < 0 || t->rank > WC_MAX_RANK) return false;
  for (int d = 0; d < t->rank; d++) {
    if (t->shape[d] < 0) return false;
    if (t->shape[d] == 0) empty = true;
  }
  for (int d = 0; d < t->rank && !empty; d++) {
    if (__builtin_mul_overflow(n, t->shape[d], &n)) over = true;
    if (over) break;
  }
  if (empty) n = 0;
  else if (over || n > (int64_t)(PTRDIFF_MAX / size)) return false;
  *count = n;
  return true;
}

static int64_t pick_extent(stream *s) {
  static const int64_t small[] = {1, 2, 1, 3, 0, 2, 1, 4};
  static const int64_t huge[] = {-1, INT64_MIN, INT64_MAX, (int64_t)1 << 32, (int64_t)1 << 62,
                                 3037000500, INT64_MAX / 2 + 1, (int64_t)1 << 31, -2, 1000};
  uint8_t b = u8(s);
  return b < 232 ? small[b % 8] : huge[b % 10];
}

static wc_dtype pick_dtype(stream *s) {
  static const int bad[] = {0, 17, 255, -1, 1000, INT_MAX, INT_MIN, 8};
  uint8_t b = u8(s);
  return b < 240 ? (wc_dtype)(1 + b % 16) : (wc_dtype)bad[b % 8];
}

static int pick_rank(stream *s) {
  static const int bad[] = {-1, WC_MAX_RANK, WC_MAX_RANK + 1, INT_MIN, INT_MAX, 7, 16, 5};
  uint8_t b = u8(s);
  return b < 224 ? b % 5 : bad[b % 8];
}

/* Gives d a buffer (or NULL) by the rules: a valid descriptor that fits gets
   memory of exactly its byte size; one too big to back gets NULL data (so the
   runtime must refuse it); an invalid one gets NULL or a 1-byte buffer. */
static void back(stream *s, desc *d) {
  int64_t count;
  uint8_t mode = u8(s);
  bool valid = model_count(&d->t, &count);
  size_t bytes = valid ? (size_t)count * wc_dtype_size(d->t.dtype) : 1;
  d->buf = NULL;
  d->bytes = 0;
  if (mode % 16 != 0 && (!valid || bytes <= MAX_BYTES)) {
    d->bytes = bytes;
    d->buf = malloc(bytes ? bytes : 1);
    if (d->buf == NULL) fail("out of memory");
    if (valid && d->t.dtype == WC_STRING) {
      for (int64_t i = 0; i < count; i++) {
        uint8_t b = u8(s);
        ((const char **)d->buf)[i] = b % 5 == 4 ? NULL : strs[b % 5];
      }
    } else {
      for (size_t i = 0; i < bytes; i++) ((uint8_t *)d->buf)[i] = u8(s);
    }
  }
  d->t.data = d->buf;
  d->ok = valid && (count == 0 || d->buf != NULL);
  d->count = valid ? count : 0;
}

/* A random descriptor; dtype and shape may be imposed (want_dtype > 0,
   shape != NULL) so that most calls get past the checks. */
static void make(stream *s, desc *d, wc_dtype want_dtype, int rank, const int64_t *shape) {
  memset(d, 0, sizeof *d);
  d->t.dtype = want_dtype > 0 ? want_dtype : pick_dtype(s);
  d->t.rank = shape ? rank : pick_rank(s);
  for (int i = 0; i < WC_MAX_RANK; i++) d->t.shape[i] = -7;   /* beyond the rank: never read */
  for (int i = 0; i < d->t.rank && i < WC_MAX_RANK; i++)
    d->t.shape[i] = shape ? shape[i] : pick_extent(s);
  back(s, d);
}

static void drop(desc *d) {
  free(d->buf);
  d->buf = NULL;
}

/* A second descriptor like d over a buffer of its own with the same bytes. */
static void clone(const desc *d, desc *c) {
  *c = *d;
  if (d->buf) {
    c->buf = malloc(d->bytes ? d->bytes : 1);
    if (c->buf == NULL) fail("out of memory");
    memcpy(c->buf, d->buf, d->bytes);
  }
  c->t.data = c->t.data == d->buf ? c->buf : c->t.data;
}

static bool same_bytes(const desc *a, const desc *b) {
  return a->bytes == b->bytes && (a->bytes == 0 || memcmp(a->buf, b->buf, a->bytes) == 0);
}

/* Broadcast of n valid shapes, written out here again; false if they do not. */
static bool model_broadcast(const wc_tensor *const *ts, int n, int *rank, int64_t *shape) {
  int r = 0;
  for (int i = 0; i < n; i++) if (ts[i]->rank > r) r = ts[i]->rank;
  for (int d = 0; d < r; d++) {
    int64_t e = 1;
    for (int i = 0; i < n; i++) {
      int td = d - (r - ts[i]->rank);
      int64_t te = td < 0 ? 1 : ts[i]->shape[td];
      if (te == 1) continue;
      if (e != 1 && e != te) return false;
      e = te;
    }
    shape[d] = e;
  }
  *rank = r;
  return true;
}

static bool same_shape(const wc_tensor *a, const wc_tensor *b) {
  if (a->rank != b->rank) return false;
  for (int d = 0; d < a->rank; d++)
    if (a->shape[d] != b->shape[d]) return false;
  return true;
}

/* ---- entry points ------------------------------------------------------------- */

static void fuzz_broadcast(stream *s, desc *ds, int n_ds) {
  const wc_tensor *ts[4];
  int64_t shape[WC_MAX_RANK], want[WC_MAX_RANK];
  int rank = -1, want_rank, n = (int)(u8(s) % 6) - 1;   /* -1 .. 4 */
  bool all_ok = true;
  for (int i = 0; i < 4; i++) ts[i] = &ds[i % n_ds].t;
  if (n < 0) {
    if (wc_broadcast_shape(ts, n, &rank, shape) == WC_OK) fail("broadcast of n < 0 accepted");
    return;
  }
  for (int i = 0; i < n; i++) {
    const wc_tensor *t = ts[i];
    if (t->rank < 0 || t->rank > WC_MAX_RANK) all_ok = false;
    for (int d = 0; all_ok && d < t->rank; d++) all_ok = t->shape[d] >= 0;
  }
  wc_status st = wc_broadcast_shape(ts, n, &rank, shape);
  bool want_ok = all_ok && model_broadcast(ts, n, &want_rank, want);
  if ((st == WC_OK) != want_ok) fail("wc_broadcast_shape status disagrees with the rules");
  if (st == WC_OK) {
    if (rank != want_rank) fail("wc_broadcast_shape rank");
    for (int d = 0; d < rank; d++)
      if (shape[d] != want[d]) fail("wc_broadcast_shape extent");
  }
}

/* cond, x, y and out for a select; most often made to fit each other. */
static void make_select(stream *s, desc *c, desc *x, desc *y, desc *o, bool v1) {
  uint8_t bias = u8(s);
  make(s, c, bias & 1 ? WC_BOOL : 0, 0, NULL);
  make(s, x, 0, 0, NULL);
  if (bias & 2) make(s, y, x->t.dtype, x->t.rank, v1 ? x->t.shape : NULL);
  else make(s, y, 0, 0, NULL);
  if (v1 && (bias & 2) && c->t.dtype == WC_BOOL && (bias & 8) && x->t.rank >= 1 &&
      x->t.rank <= WC_MAX_RANK) {
    int64_t row[1] = {x->t.shape[0]};
    drop(c);
    make(s, c, WC_BOOL, bias & 16 ? 1 : x->t.rank, bias & 16 ? row : x->t.shape);
  }
  if (bias & 4) {
    const wc_tensor *in[3] = {&c->t, &x->t, &y->t};
    int64_t shape[WC_MAX_RANK];
    int rank = 0;
    wc_status st = v1 ? WC_OK : wc_broadcast_shape(in, 3, &rank, shape);
    if (v1 && x->t.rank >= 0 && x->t.rank <= WC_MAX_RANK) {
      rank = x->t.rank;
      memcpy(shape, x->t.shape, sizeof shape);
    }
    if (st == WC_OK && rank >= 0 && rank <= WC_MAX_RANK) {
      make(s, o, x->t.dtype, rank, shape);
      /* in place: out may be x's or y's very buffer when shape and dtype agree */
      if ((bias & 32) && x->buf && same_shape(&o->t, &x->t) && o->t.dtype == x->t.dtype) {
        o->t.data = x->buf;
        o->ok = x->ok;
      } else if ((bias & 64) && y->buf && same_shape(&o->t, &y->t) && o->t.dtype == y->t.dtype) {
        o->t.data = y->buf;
        o->ok = y->ok;
      }
      return;
    }
  }
  make(s, o, 0, 0, NULL);
}

/* What wc_where / wc_where_v1 must answer, by the rules. */
static bool model_select(const desc *c, const desc *x, const desc *y, const desc *o, bool v1) {
  const wc_tensor *in[3] = {&c->t, &x->t, &y->t};
  int64_t shape[WC_MAX_RANK];
  int rank;
  if (!c->ok || !x->ok || !y->ok || !o->ok) return false;
  if (c->t.dtype != WC_BOOL || x->t.dtype != y->t.dtype || o->t.dtype != x->t.dtype) return false;
  if (v1) {
    if (!same_shape(&y->t, &x->t) || !same_shape(&o->t, &x->t)) return false;
    return same_shape(&c->t, &x->t) ||
           (c->t.rank == 1 && x->t.rank > 1 && c->t.shape[0] == x->t.shape[0]);
  }
  if (!model_broadcast(in, 3, &rank, shape)) return false;
  wc_tensor want = o->t;
  want.rank = rank;
  memcpy(want.shape, shape, sizeof shape);
  return same_shape(&o->t, &want);
}

/* The fast select and the reference on copies of the same operands: the
   status follows the rules, results agree bit for bit, a refused call
   leaves out (or the input it shares a buffer with) untouched. */
static void fuzz_select(stream *s, bool v1) {
  desc c, x, y, o, x2, y2, o2, before;
  make_select(s, &c, &x, &y, &o, v1);
  bool in_x = x.buf && o.t.data == x.buf, in_y = y.buf && o.t.data == y.buf;
  clone(&x, &x2);
  clone(&y, &y2);
  clone(&o, &o2);
  clone(&o, &before);
  if (in_x || in_y) {                                  /* the reference writes elsewhere */
    free(o2.buf);
    o2.bytes = in_x ? x.bytes : y.bytes;
    o2.buf = calloc(1, o2.bytes ? o2.bytes : 1);
    if (o2.buf == NULL) fail("out of memory");
    o2.t.data = o2.buf;
  }
  bool want = model_select(&c, &x, &y, &o, v1);
  wc_status sr = v1 ? wc_ref_where_v1(&c.t, &x2.t, &y2.t, &o2.t) : wc_ref_where(&c.t, &x2.t, &y2.t, &o2.t);
  wc_status sf = v1 ? wc_where_v1(&c.t, &x.t, &y.t, &o.t) : wc_where(&c.t, &x.t, &y.t, &o.t);
  if ((sf == WC_OK) != want) fail(v1 ? "wc_where_v1 status disagrees with the rules"
                                     : "wc_where status disagrees with the rules");
  if ((sr == WC_OK) != want) fail("reference select status disagrees with the rules");
  if (sf == WC_OK) {
    size_t bytes = (size_t)o.count * wc_dtype_size(o.t.dtype);
    if (bytes && memcmp(o.t.data, o2.t.data, bytes) != 0) fail("select differs from the reference");
  } else if (in_x ? !same_bytes(&x, &x2) : in_y ? !same_bytes(&y, &y2) : !same_bytes(&o, &before)) {
    fail("a refused select wrote to out");
  }
  drop(&before);
  drop(&c); drop(&x); drop(&y); drop(&o); drop(&x2); drop(&y2); drop(&o2);
}

/* count_true, argwhere and nonzero against the reference, with a capacity
   of exactly the slots the buffer has. */
static void fuzz_coords(stream *s) {
  desc c;
  uint8_t b = u8(s);
  int64_t cap = b < 250 ? b % MAX_CAP : -1 - (b % 3);
  int64_t n1 = -1, n2 = -1, nt = -1;
  size_t bytes = cap > 0 ? (size_t)cap * sizeof(int64_t) : 0;
  make(s, &c, 0, 0, NULL);
  int64_t *a = malloc(bytes ? bytes : 1), *r = malloc(bytes ? bytes : 1);
  if (a == NULL || r == NULL) fail("out of memory");
  int64_t *arg = u8(s) % 8 == 0 ? NULL : a;
  for (int pass = 0; pass < 2; pass++) {
    memset(a, 0, bytes);
    memset(r, 0, bytes);
    wc_status sf = pass ? wc_nonzero(&c.t, arg, cap, &n1) : wc_argwhere(&c.t, arg, cap, &n1);
    wc_status sr = pass ? wc_ref_nonzero(&c.t, arg ? r : NULL, cap, &n2)
                        : wc_ref_argwhere(&c.t, arg ? r : NULL, cap, &n2);
    if ((sf == WC_OK) != (sr == WC_OK) || (sf == WC_E_CAPACITY) != (sr == WC_E_CAPACITY))
      fail("coordinates: status differs from the reference");
    if (sf == WC_OK && (!c.ok || cap < 0)) fail("coordinates of an invalid descriptor");
    if (sf == WC_OK || sf == WC_E_CAPACITY) {
      if (n1 != n2) fail("coordinates: count differs from the reference");
      if (sf == WC_OK && arg && memcmp(a, r, (size_t)(n1 * c.t.rank) * sizeof *a) != 0)
        fail("coordinates differ from the reference");
    }
  }
  wc_status st = wc_count_true(&c.t, &nt);
  if ((st == WC_OK) != c.ok) fail("wc_count_true status disagrees with the rules");
  if (st == WC_OK && cap >= 0 && nt != n2) fail("wc_count_true differs from the reference");
  free(a);
  free(r);
  drop(&c);
}

/* A shape for parameter p with its symbolic extents bound by ext. */
static void pattern_shape(const wc_param *p, const int64_t *ext, int64_t *shape) {
  for (int d = 0; d < p->rank; d++) shape[d] = p->dims[d] >= 0 ? p->dims[d] : ext[-p->dims[d] - 1];
}

static void run_outputs_agree(const wc_kernel *k, wc_status s1, wc_status s2, wc_status s3,
                              const desc *o1, const desc *o2, const desc *o3) {
  bool coords = k->kind == WC_KIND_ARGWHERE || k->kind == WC_KIND_NONZERO;
  if ((s1 == WC_OK) != (s3 == WC_OK) || (s2 == WC_OK) != (s3 == WC_OK)) {
    fprintf(stderr, "fuzz_runtime: kernel %s: wc_run %d, wc_interpret %d, wc_ref_run %d\n",
            k->name, (int)s1, (int)s2, (int)s3);
    fail("wc_run / wc_interpret / wc_ref_run disagree on the status");
  }
  if (coords && ((s1 == WC_E_CAPACITY) != (s3 == WC_E_CAPACITY) ||
                 (s2 == WC_E_CAPACITY) != (s3 == WC_E_CAPACITY)))
    fail("wc_run / wc_interpret / wc_ref_run disagree on the capacity");
  if (s3 != WC_OK && !(coords && s3 == WC_E_CAPACITY)) return;
  if (coords) {
    if (!same_shape(&o1->t, &o3->t) || !same_shape(&o2->t, &o3->t) || o3->t.rank != 2)
      fail("coordinate kernels disagree on the shape");
    if (s3 != WC_OK) return;
    size_t bytes = (size_t)(o3->t.shape[0] * o3->t.shape[1]) * sizeof(int64_t);
    if (bytes && (memcmp(o1->t.data, o3->t.data, bytes) || memcmp(o2->t.data, o3->t.data, bytes)))
      fail("coordinate kernels differ from the reference");
    return;
  }
  if (!same_bytes(o1, o3)) fail("wc_run differs from the reference");
  if (!same_bytes(o2, o3)) fail("wc_interpret differs from the reference");
}

/* A kernel of the golden table on inputs that mostly fit its patterns. */
static void fuzz_run(stream *s) {
  const wc_kernel_table *tab = &golden_table;
  uint8_t which = u8(s), bias = u8(s);
  const wc_kernel *k = &tab->kernels[which % tab->n_kernels];
  const char *name = which % 17 == 16 ? "no_such_kernel" : k->name;
  int n_in = k->n_inputs + (bias & 0x80 ? (int)(u8(s) % 3) - 1 : 0);
  int64_t ext[8], shape[WC_MAX_RANK];
  desc in[MAX_IN + 1], o1, o2, o3;
  wc_tensor ts[MAX_IN + 1];
  wc_path path;
  if (n_in < 0) n_in = 0;
  for (int e = 0; e < 8; e++) ext[e] = bias & 32 ? pick_extent(s) : (int64_t)(u8(s) % 6);
  for (int i = 0; i < n_in; i++) {
    const wc_param *p = i < k->n_inputs ? &k->inputs[i] : NULL;
    if (p && (bias & 1)) {
      pattern_shape(p, ext, shape);
      make(s, &in[i], (bias & 2) ? p->dtype : 0, p->rank, shape);
    } else {
      make(s, &in[i], p && (bias & 2) ? p->dtype : 0, 0, NULL);
    }
    ts[i] = in[i].t;
  }
  if (k->kind == WC_KIND_ARGWHERE || k->kind == WC_KIND_NONZERO) {
    int64_t cap[1] = {u8(s) % (MAX_BYTES / 8)};
    make(s, &o1, bias & 4 ? WC_INT64 : 0, 1, cap);
  } else {
    const wc_tensor *ptr[MAX_IN + 1];
    int rank = 0;
    for (int i = 0; i < n_in; i++) ptr[i] = &ts[i];
    if ((bias & 4) && n_in <= k->n_inputs &&
        wc_broadcast_shape(ptr, n_in, &rank, shape) == WC_OK)
      make(s, &o1, bias & 8 ? k->out_dtype : 0, rank, shape);
    else
      make(s, &o1, 0, 0, NULL);
  }
  clone(&o1, &o2);
  clone(&o1, &o3);
  wc_status s1 = wc_run(tab, name, ts, n_in, &o1.t, bias & 16 ? NULL : &path);
  wc_status s2 = wc_interpret(k, ts, n_in, &o2.t);
  wc_status s3 = wc_ref_run(k, ts, n_in, &o3.t);
  if (name != k->name) {
    if (s1 != WC_E_NOKERNEL) fail("wc_run found a kernel that does not exist");
  } else {
    run_outputs_agree(k, s1, s2, s3, &o1, &o2, &o3);
  }
  for (int i = 0; i < n_in; i++) drop(&in[i]);
  drop(&o1); drop(&o2); drop(&o3);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static bool registered;
  stream s = {data, size};
  if (!registered) {
    if (wc_register(&golden_table) != WC_OK) fail("wc_register of the golden table failed");
    registered = true;
  }
  /* the entry points in an order the input chooses, until it runs out */
  for (int step = 0; step < 8 && s.n > 0; step++) {
    switch (u8(&s) % 5) {
      case 0: {
        desc ds[3];
        for (int i = 0; i < 3; i++) make(&s, &ds[i], 0, 0, NULL);
        fuzz_broadcast(&s, ds, 3);
        for (int i = 0; i < 3; i++) drop(&ds[i]);
        break;
      }
      case 1: fuzz_select(&s, false); break;
      case 2: fuzz_select(&s, true); break;
      case 3: fuzz_coords(&s); break;
      default: fuzz_run(&s); break;
    }
  }
  (void)wc_status_str((wc_status)(size % 12));
  (void)wc_dtype_name((wc_dtype)(size % 20));
  return 0;
}
