/* interp.c: the generic interpreter: runs any kernel's program on any shapes,
   over the coalesced loop plan, one block of elements per instruction. */
#include <stdlib.h>

#include "broadcast.h"
#include "interp.h"
#include "parallel.h"
#include "registry.h"

#define WC_BLOCK     1024 /* elements per instruction step */
#define WC_MAX_WIDTH 16   /* widest element (complex128) */

/* ---- block operations: one loop per (op, dtype), from the dtype list ---- */

/* The block loops are the interpreter's time (the data is in L1), so on x86-64
   they are compiled twice, for the baseline and for AVX2, and the dynamic
   loader picks one by CPU (GNU ifunc). Not "x86-64-v3": FMA would let the
   compiler contract a * b + c and change results. */
#if defined(__has_feature)
#if __has_feature(thread_sanitizer) /* it instruments the resolvers, run before it starts */
#define BLOCK_LOOP
#endif
/* Under ASan one clone: both are the same source, and each instrumented copy of these
   loops took a minute to compile (test.sh's sanitizer build is this file's time). */
#if __has_feature(address_sanitizer) && !defined(BLOCK_LOOP)
#define BLOCK_LOOP
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) && !defined(BLOCK_LOOP) /* gcc's -fsanitize=address */
#define BLOCK_LOOP
#endif
#if defined(__x86_64__) && defined(__ELF__) && defined(__GLIBC__) && defined(__has_attribute) && \
    !defined(BLOCK_LOOP)
#if __has_attribute(target_clones)
#define BLOCK_LOOP __attribute__((target_clones("avx2", "default")))
#endif
#endif
#ifndef BLOCK_LOOP
#define BLOCK_LOOP
#endif

typedef enum operand_shape { VARYING, UNIFORM_A, UNIFORM_B } operand_shape;

/* A binary loop in three forms: both operands vary, or one is uniform across
   the block and kept in a register (a constant or a broadcast operand), so
   x > 0 or 0.01 * x reads one stream, not two. */
#define LOOP2(FN, TA, TR)                                    \
  {                                                          \
    const TA *x = a, *y = b;                                 \
    TR       *o = dst;                                       \
    if (shape == UNIFORM_B) {                                \
      const TA y0 = y[0];                                    \
      for (int64_t i = 0; i < n; i++) o[i] = FN(x[i], y0);   \
    } else if (shape == UNIFORM_A) {                         \
      const TA x0 = x[0];                                    \
      for (int64_t i = 0; i < n; i++) o[i] = FN(x0, y[i]);   \
    } else                                                   \
      for (int64_t i = 0; i < n; i++) o[i] = FN(x[i], y[i]); \
  }                                                          \
  break
#define LOOP1(FN, TA, TR)                            \
  {                                                  \
    const TA *x = a;                                 \
    TR       *o = dst;                               \
    for (int64_t i = 0; i < n; i++) o[i] = FN(x[i]); \
  }                                                  \
  break

/* The element operations of the operation table (every row but the leaves,
   where and cast), expanded per dtype: a case for each operation defined on
   the dtype, calling its helper wc_<helper>_<suffix> of ops.h. A row added to
   the table needs nothing here. */
#define RESULT_SAME(T) T
#define RESULT_BOOL(T) bool
#define ELEMENTWISE_INFIX(text)  text
#define ELEMENTWISE_PREFIX(text) text
#define ELEMENTWISE_CALL(text)   text
#define ELEMENTWISE_LEAF(text)
#define ELEMENTWISE_SELECT(text)
#define ELEMENTWISE_CAST(text)
#define ELEMENTWISE_REDUCE(text)
#define UNPAREN_(...)      __VA_ARGS__
#define OP_CASE_(P, ...)   OP_CASE_ARGS_(UNPAREN_ P, __VA_ARGS__)
#define OP_CASE_ARGS_(...) OP_CASE_AT_(__VA_ARGS__)
#define OP_CASE_AT_(E, T, s, kind, NAME, spell, arity, dom, res, form, helper, on_bool) \
  ELEMENTWISE_##form(WC_DOM_WHEN(WC_DOM_FLAG(kind, dom), E)(                            \
      case WC_OP_##NAME: LOOP##arity(wc_##helper##_##s, T, RESULT_##res(T));))
#define DTYPE_CASE_(E, code, name, T, alias, s, kind)                 \
  case WC_##E:                                                        \
    switch (op) { WC_OP_ROWS_(OP_CASE_, (E, T, s, kind)) default: break; } \
    break;

/* Operation op on operands of dtype t (validate.c has checked that it is
   defined there), its value's dtype as the table gives it. */
BLOCK_LOOP static void op_block(wc_opcode op, wc_dtype t, operand_shape shape, void *dst,
                                const void *a, const void *b, int64_t n) {
  /* clang-format off */
  switch (t) { WC_DTYPE_LIST(DTYPE_CASE_) default: break; }
  /* clang-format on */
}

/* where: values move as bits of their width, blended under a mask from the
   condition (read as bytes: compilers vectorize neither bool loads nor a ?:
   that may branch). */
#define SELECT_W(T)                            \
  {                                            \
    const T *x = a, *y = b;                    \
    T       *o = dst;                          \
    for (int64_t i = 0; i < n; i++) {          \
      T m = (T)((T)0 - (T)(c[i] != 0));        \
      o[i] = (T)((x[i] & m) | (y[i] & (T)~m)); \
    }                                          \
  }                                            \
  break
BLOCK_LOOP static void select_block(size_t w, void *dst, const void *cond, const void *a,
                                    const void *b, int64_t n) {
  const uint8_t *c = cond;
  switch (w) {
  case 1: SELECT_W(uint8_t);
  case 2: SELECT_W(uint16_t);
  case 4: SELECT_W(uint32_t);
  case 8: SELECT_W(uint64_t);
  default:
    for (int64_t i = 0; i < n; i++)
      memmove((char *)dst + i * 16, (const char *)(c[i] ? a : b) + i * 16, 16);
    break;
  }
}

/* Casts go through a wide value: int64 (sint), uint64 (uint, bool) or double
   (real, exact for every float type); then to the target. */
typedef enum wide_class { WIDE_SINT, WIDE_UINT, WIDE_REAL } wide_class;
typedef union wide_block {
  int64_t  sint[WC_BLOCK];
  uint64_t uint[WC_BLOCK];
  double   real[WC_BLOCK];
} wide_block;

/* clang-format off */
#define LOAD_TO_(field, cls, T, s)                                             \
  { const T *x = src; for (int64_t i = 0; i < n; i++) w->field[i] = wc_load_##s(x[i]); \
    return cls; }
#define LOAD_SINT(E, T, s) case WC_##E: LOAD_TO_(sint, WIDE_SINT, T, s)
#define LOAD_UINT(E, T, s) case WC_##E: LOAD_TO_(uint, WIDE_UINT, T, s)
#define LOAD_BOOL(E, T, s) case WC_##E: LOAD_TO_(uint, WIDE_UINT, T, s)
#define LOAD_REAL(E, T, s) case WC_##E: LOAD_TO_(real, WIDE_REAL, T, s)
#define LOAD_HALF(E, T, s) case WC_##E: LOAD_TO_(real, WIDE_REAL, T, s)
#define LOAD_COMPLEX(E, T, s)
#define LOAD_STRING(E, T, s)
#define LOAD_(E, code, name, T, alias, s, kind) LOAD_##kind(E, T, s)
/* clang-format on */

static wide_class load_wide(wc_dtype from, wide_block *w, const void *src, int64_t n) {
  /* clang-format off */
  switch (from) { WC_DTYPE_LIST(LOAD_) default: break; }
  /* clang-format on */
  return WIDE_UINT;
}

#define STORE_NUM_(E, T, s)                                                  \
  case WC_##E: {                                                             \
    T *o = dst;                                                              \
    switch (cls) {                                                           \
    case WIDE_SINT:                                                          \
      for (int64_t i = 0; i < n; i++) o[i] = wc_##s##_from_sint(w->sint[i]); \
      break;                                                                 \
    case WIDE_UINT:                                                          \
      for (int64_t i = 0; i < n; i++) o[i] = wc_##s##_from_uint(w->uint[i]); \
      break;                                                                 \
    case WIDE_REAL:                                                          \
      for (int64_t i = 0; i < n; i++) o[i] = wc_##s##_from_real(w->real[i]); \
      break;                                                                 \
    }                                                                        \
    break;                                                                   \
  }
#define STORE_SINT(E, T, s) STORE_NUM_(E, T, s)
#define STORE_UINT(E, T, s) STORE_NUM_(E, T, s)
#define STORE_REAL(E, T, s) STORE_NUM_(E, T, s)
#define STORE_HALF(E, T, s) STORE_NUM_(E, T, s)
#define STORE_BOOL(E, T, s) STORE_NUM_(E, T, s)
#define STORE_COMPLEX(E, T, s)
#define STORE_STRING(E, T, s)
#define STORE_(E, code, name, T, alias, s, kind) STORE_##kind(E, T, s)

BLOCK_LOOP static void cast_block(wc_dtype to, wc_dtype from, void *dst, const void *src,
                                  int64_t n) {
  wide_block wb, *w = &wb;
  wide_class cls;
  if (to == from) {
    memmove(dst, src, (size_t)n * wc_dtype_size(to));
    return;
  }
  cls = load_wide(from, w, src, n);
  /* clang-format off */
  switch (to) { WC_DTYPE_LIST(STORE_) default: break; }
  /* clang-format on */
}

/* Evaluates instruction ins of prog over n elements into dst; uniform tells
   which values repeat one element across the block. */
static void exec_block(const wc_instr *prog, const wc_instr *ins, void *dst, const void *const *val,
                       const bool *uniform, int64_t n) {
  wc_opcode     op = (wc_opcode)ins->op;
  const void   *a = val[ins->a], *b = val[ins->b];
  wc_dtype      t = (wc_dtype)prog[ins->a].dtype;
  operand_shape shape = wc_op_arity(op) != 2 ? VARYING
                        : uniform[ins->b] ? UNIFORM_B
                        : uniform[ins->a] ? UNIFORM_A
                                          : VARYING;
  switch (op) {
  case WC_OP_WHERE:
    select_block(wc_dtype_size((wc_dtype)ins->dtype), dst, a, b, val[ins->c], n);
    break;
  case WC_OP_CAST: cast_block((wc_dtype)ins->dtype, t, dst, a, n); break;
  default: op_block(op, t, shape, dst, a, b, n); break;
  }
}

/* n copies of one element of width w: a typed loop per width, not a memcpy
   call per element (a broadcast operand is filled once per block). */
#define FILL_W(T)                                      \
  {                                                    \
    T v;                                               \
    memcpy(&v, src, sizeof v);                         \
    for (int64_t i = 0; i < n; i++) ((T *)dst)[i] = v; \
  }                                                    \
  break
static void fill(void *dst, const void *src, size_t w, int64_t n) {
  switch (w) {
  case 1: FILL_W(uint8_t);
  case 2: FILL_W(uint16_t);
  case 4: FILL_W(uint32_t);
  case 8: FILL_W(uint64_t);
  default:
    for (int64_t i = 0; i < n; i++) memcpy((char *)dst + (size_t)i * w, src, w);
    break;
  }
}

/* Element of CONST instruction ins, written from its bits. */
static void const_value(const wc_instr *ins, void *dst) {
  size_t w = wc_dtype_size((wc_dtype)ins->dtype);
  if (w == 16) {
    memcpy(dst, &ins->bits[0], 8);
    memcpy((char *)dst + 8, &ins->bits[1], 8);
  } else if (ins->dtype == WC_COMPLEX64) {
    uint32_t re = (uint32_t)ins->bits[0], im = (uint32_t)ins->bits[1];
    memcpy(dst, &re, 4);
    memcpy((char *)dst + 4, &im, 4);
  } else {
    /* little-endian and big-endian alike: the value is the low w bytes */
    uint8_t  b8 = (uint8_t)ins->bits[0];
    uint16_t b16 = (uint16_t)ins->bits[0];
    uint32_t b32 = (uint32_t)ins->bits[0];
    uint64_t b64 = ins->bits[0];
    switch (w) {
    case 1: memcpy(dst, &b8, 1); break;
    case 2: memcpy(dst, &b16, 2); break;
    case 4: memcpy(dst, &b32, 4); break;
    default: memcpy(dst, &b64, 8); break;
    }
  }
}

/* Operand block of an input row segment of n elements at p, broadcast along
   the row or contiguous (the plan's innermost strides are 0 or 1): the data
   itself when contiguous, else a filled copy in scratch. Bools are normalized
   to 0/1 (any non-zero byte is true, as in generated code and the reference;
   the block operations load C bools, which must be 0 or 1). */
static const void *load_input(void *scratch, const char *p, wc_dtype t, bool broadcast, int64_t n) {
  if (t == WC_BOOL) {
    uint8_t *b = scratch;
    if (broadcast) memset(b, *p != 0, (size_t)n);
    else
      for (int64_t j = 0; j < n; j++) b[j] = p[j] != 0;
    return b;
  }
  if (!broadcast) return p;
  fill(scratch, p, wc_dtype_size(t), n);
  return scratch;
}

/* Whether every operand of ins is uniform across the block. */
static bool operands_uniform(const wc_instr *ins, const bool *uniform) {
  int k = wc_op_arity((wc_opcode)ins->op);
  return (k < 1 || uniform[ins->a]) && (k < 2 || uniform[ins->b]) && (k < 3 || uniform[ins->c]);
}

#define SCRATCH(i) (scratch + (size_t)(i)*WC_BLOCK * WC_MAX_WIDTH)

/* One interpreted call, shared read-only by the tasks of a split. */
typedef struct interp_call {
  const wc_kernel *k;
  const wc_tensor *in;
  wc_tensor       *out;     /* output 0 */
  wc_tensor       *outs;    /* n_out outputs, of one shape */
  int              n_out;   /* outputs: above 1, each written from its instruction's block */
  wc_loop          L;
  const bool      *uniform; /* per value: one element repeated across every block */
  atomic_bool      nomem;   /* a task could not allocate its scratch */
} interp_call;

/* The block of n elements at flat element `at` of every output of a kernel
   with several, from its instruction's values. An output that is an input's
   own data (a contiguous input) is first copied to scratch: another output
   may be that input's buffer (in place), and is written first. */
static void store_outputs(const interp_call *c, int64_t at, char *scratch, const void **val,
                          int64_t n) {
  for (int o = 0; o < c->n_out; o++) {
    int    i = wc__out_instr(c->k, o);
    size_t w = wc_dtype_size(c->outs[o].dtype);
    if (c->k->program[i].op == WC_OP_INPUT && val[i] != SCRATCH(i)) {
      memcpy(SCRATCH(i), val[i], (size_t)n * w);
      val[i] = SCRATCH(i);
    }
  }
  for (int o = 0; o < c->n_out; o++) {
    int    i = wc__out_instr(c->k, o);
    size_t w = wc_dtype_size(c->outs[o].dtype);
    memmove((char *)c->outs[o].data + (size_t)at * w, val[i], (size_t)n * w);
  }
}

/* Elements [j0, j1) of the current row: the program one block at a time. */
static void interp_row(const interp_call *c, const wc_loop_iter *it, int64_t j0, int64_t j1,
                       char *scratch, const void **val) {
  const wc_instr *prog = c->k->program;
  const bool     *uniform = c->uniform;
  int             n_in = c->k->n_inputs, n_ins = c->k->n_instrs, last = n_ins - 1;
  size_t          wout = wc_dtype_size(c->out->dtype);
  for (; j0 < j1; j0 += WC_BLOCK) {
    int64_t n = j1 - j0 < WC_BLOCK ? j1 - j0 : WC_BLOCK;
    char   *o = (char *)c->out->data + (size_t)(it->off[n_in] + j0) * wout;
    for (int i = 0; i < n_ins; i++) {
      const wc_instr *ins = &prog[i];
      if (ins->op == WC_OP_CONST) continue;
      if (ins->op == WC_OP_INPUT) {
        int              a = ins->a;
        const wc_tensor *t = &c->in[a];
        const char      *p = (const char *)t->data +
                        (size_t)(it->off[a] + (uniform[i] ? 0 : j0)) * wc_dtype_size(t->dtype);
        val[i] = load_input(SCRATCH(i), p, t->dtype, uniform[i], n);
        continue;
      }
      void *dst = i == last && c->n_out == 1 ? (void *)o : SCRATCH(i);
      if (ins->op == WC_OP_WHERE && uniform[ins->a] && !uniform[i]) {
        /* any non-zero byte is true, as in select_block */
        const void *pick = *(const uint8_t *)val[ins->a] ? val[ins->b] : val[ins->c];
        memmove(dst, pick, (size_t)n * wc_dtype_size((wc_dtype)ins->dtype));
      } else if (uniform[i]) {
        exec_block(prog, ins, dst, val, uniform, 1);
        fill(dst, dst, wc_dtype_size((wc_dtype)ins->dtype), n);
      } else {
        exec_block(prog, ins, dst, val, uniform, n);
      }
      val[i] = dst;
    }
    if (c->n_out > 1) store_outputs(c, it->off[n_in] + j0, scratch, val, n);
    else if (prog[last].op == WC_OP_INPUT || prog[last].op == WC_OP_CONST)
      memmove(o, val[last], (size_t)n * wout);
  }
}

/* Flat output elements [begin, end), with scratch of its own: a task of a
   split call, or the whole call. */
static void interp_range(void *ctx, size_t begin, size_t end) {
  interp_call    *c = ctx;
  const wc_instr *prog = c->k->program;
  int             n_ins = c->k->n_instrs;
  int64_t         row = c->L.extent[c->L.rank - 1];
  wc_loop_iter    it;
  char           *scratch = malloc((size_t)n_ins * WC_BLOCK * WC_MAX_WIDTH);
  const void    **val = malloc((size_t)n_ins * sizeof *val);
  if (scratch == NULL || val == NULL) {
    atomic_store_explicit(&c->nomem, true, memory_order_relaxed);
    free(scratch);
    free(val);
    return;
  }
  for (int i = 0; i < n_ins; i++)
    if (prog[i].op == WC_OP_CONST) {
      char one[WC_MAX_WIDTH];
      const_value(&prog[i], one);
      fill(SCRATCH(i), one, wc_dtype_size((wc_dtype)prog[i].dtype), WC_BLOCK);
      val[i] = SCRATCH(i);
    }
  int64_t j = (int64_t)begin % row, left = (int64_t)(end - begin);
  wc__loop_seek(&c->L, &it, (int64_t)begin / row);
  for (;;) {
    int64_t j1 = row - j < left ? row : j + left;
    interp_row(c, &it, j, j1, scratch, val);
    left -= j1 - j;
    j = 0;
    if (left == 0 || !wc__loop_next_row(&c->L, &it)) break;
  }
  free(scratch);
  free(val);
}
#undef SCRATCH

/* ---- kernels with row reductions ---------------------------------------------
   A row at a time: each instruction over the whole row (in blocks), so a
   reduction finds its operand's row complete; its value fills the row. */

/* The fold of n elements at src into one value, written n times at dst
   (rows.h: the order every path shares). */
#define FOLD_(OP, T, s)                                                    \
  {                                                                        \
    wc_racc_##s acc[WC_ROW_LANES];                                         \
    const T    *x = src;                                                   \
    T           r;                                                         \
    wc_##OP##_init_##s(acc);                                               \
    for (int64_t j = 0; j < n; j++)                                        \
      acc[j % WC_ROW_LANES] = wc_##OP##_step_##s(acc[j % WC_ROW_LANES], x[j]); \
    r = wc_##OP##_end_##s(acc, (size_t)n);                                 \
    for (int64_t j = 0; j < n; j++) ((T *)dst)[j] = r;                     \
    return;                                                                \
  }
#define FOLD_INT_(T, s)                     \
  switch (op) {                             \
  case WC_OP_RSUM: FOLD_(rsum, T, s)        \
  case WC_OP_RMAX: FOLD_(rmax, T, s)        \
  case WC_OP_RMIN: FOLD_(rmin, T, s)        \
  default: return;                          \
  }
#define FOLD_FLOAT_(T, s)                   \
  switch (op) {                             \
  case WC_OP_RSUM: FOLD_(rsum, T, s)        \
  case WC_OP_RMAX: FOLD_(rmax, T, s)        \
  case WC_OP_RMIN: FOLD_(rmin, T, s)        \
  case WC_OP_RMEAN: FOLD_(rmean, T, s)      \
  default: return;                          \
  }
#define FOLD_SINT(E, T, s)    case WC_##E: FOLD_INT_(T, s)
#define FOLD_UINT(E, T, s)    case WC_##E: FOLD_INT_(T, s)
#define FOLD_REAL(E, T, s)    case WC_##E: FOLD_FLOAT_(T, s)
#define FOLD_HALF(E, T, s)    case WC_##E: FOLD_FLOAT_(T, s)
#define FOLD_BOOL(E, T, s)
#define FOLD_COMPLEX(E, T, s)
#define FOLD_STRING(E, T, s)
#define FOLD_DTYPE_(E, code, name, T, alias, s, kind) FOLD_##kind(E, T, s)

static void fold_row(wc_opcode op, wc_dtype t, void *dst, const void *src, int64_t n) {
  /* clang-format off */
  switch (t) { WC_DTYPE_LIST(FOLD_DTYPE_) default: break; }
  /* clang-format on */
}

/* One interpreted call of a kernel with rows of `row` elements: per input,
   its element offset along the outer dims (stride per outer dim, 0 where
   broadcast) and within a row (off[j]; NULL: j itself). */
typedef struct rows_call {
  const wc_kernel *k;
  const wc_tensor *in;
  wc_tensor       *outs;
  int              n_out, outer_rank;
  int64_t          row;
  int64_t          outer[WC_MAX_RANK];
  int64_t          stride[WC_MAX_INPUTS][WC_MAX_RANK];
  int64_t         *off[WC_MAX_INPUTS];
  bool             along[WC_MAX_INPUTS]; /* input varies within a row */
  atomic_bool      nomem;
} rows_call;

/* Row r of input a into dst (bools as 0/1), or the data itself when its row
   is contiguous. */
static const void *row_input(const rows_call *c, int a, int64_t r, void *dst) {
  const wc_tensor *t = &c->in[a];
  size_t           w = wc_dtype_size(t->dtype);
  int64_t          base = 0;
  for (int d = c->outer_rank - 1; d >= 0; d--) {
    base += (r % c->outer[d]) * c->stride[a][d];
    r /= c->outer[d];
  }
  const char *p = (const char *)t->data + (size_t)base * w;
  if (!c->along[a]) {
    if (t->dtype == WC_BOOL) memset(dst, *p != 0, (size_t)c->row);
    else fill(dst, p, w, c->row);
    return dst;
  }
  if (c->off[a] == NULL && t->dtype != WC_BOOL) return p;
  for (int64_t j = 0; j < c->row; j++) {
    const char *e = p + (size_t)(c->off[a] ? c->off[a][j] : j) * w;
    if (t->dtype == WC_BOOL) ((uint8_t *)dst)[j] = *e != 0;
    else memcpy((char *)dst + (size_t)j * w, e, w);
  }
  return dst;
}

/* The rows whose first element is in [begin, end), with buffers of their own. */
static void rows_range(void *ctx, size_t begin, size_t end) {
  rows_call      *c = ctx;
  const wc_instr *prog = c->k->program;
  int             n_ins = c->k->n_instrs;
  int64_t         row = c->row;
  char           *buf = malloc((size_t)n_ins * (size_t)row * WC_MAX_WIDTH);
  const void    **val = malloc((size_t)n_ins * sizeof *val);
  if (buf == NULL || val == NULL) {
    atomic_store_explicit(&c->nomem, true, memory_order_relaxed);
    free(buf);
    free(val);
    return;
  }
#define ROWBUF(i) (buf + (size_t)(i) * (size_t)row * WC_MAX_WIDTH)
  for (int i = 0; i < n_ins; i++)
    if (prog[i].op == WC_OP_CONST) {
      char one[WC_MAX_WIDTH];
      const_value(&prog[i], one);
      fill(ROWBUF(i), one, wc_dtype_size((wc_dtype)prog[i].dtype), row);
      val[i] = ROWBUF(i);
    }
  for (int64_t r = ((int64_t)begin + row - 1) / row; r < ((int64_t)end + row - 1) / row; r++) {
    for (int i = 0; i < n_ins; i++) {
      const wc_instr *ins = &prog[i];
      wc_opcode       op = (wc_opcode)ins->op;
      if (op == WC_OP_CONST) continue;
      if (op == WC_OP_INPUT) {
        val[i] = row_input(c, ins->a, r, ROWBUF(i));
        continue;
      }
      if (wc_op_reduces(op)) {
        fold_row(op, (wc_dtype)prog[ins->a].dtype, ROWBUF(i), val[ins->a], row);
        val[i] = ROWBUF(i);
        continue;
      }
      /* an element operation, in blocks (casts convert through a block) */
      const wc_instr ops[3] = {prog[ins->a], prog[ins->b], prog[ins->c]};
      wc_instr       at = *ins;
      const bool     varying[3] = {false, false, false};
      at.a = 0;
      at.b = 1;
      at.c = 2;
      for (int64_t j = 0; j < row; j += WC_BLOCK) {
        int64_t     n = row - j < WC_BLOCK ? row - j : WC_BLOCK;
        const void *v[3];
        for (int o = 0; o < 3; o++)
          v[o] = (const char *)val[o == 0 ? ins->a : o == 1 ? ins->b : ins->c] +
                 (size_t)j * wc_dtype_size((wc_dtype)ops[o].dtype);
        exec_block(ops, &at, ROWBUF(i) + (size_t)j * wc_dtype_size((wc_dtype)ins->dtype), v,
                   varying, n);
      }
      val[i] = ROWBUF(i);
    }
    for (int o = 0; o < c->n_out; o++) {
      size_t w = wc_dtype_size(c->outs[o].dtype);
      memmove((char *)c->outs[o].data + (size_t)(r * row) * w, val[wc__out_instr(c->k, o)],
              (size_t)row * w);
    }
  }
#undef ROWBUF
  free(buf);
  free(val);
}

/* The rows' plan: outer dims and strides per input, offsets within a row. */
static wc_status interp_rows(const wc_kernel *k, const wc_tensor *in, wc_tensor *outs, int n_out,
                             int rows) {
  const wc_tensor *out = &outs[0];
  int              rank = out->rank, n_in = k->n_inputs;
  rows_call        c = {.k = k, .in = in, .outs = outs, .n_out = n_out, .row = 1};
  wc_status        s = WC_OK;
  c.outer_rank = rows < rank ? rank - rows : 0; /* an output of fewer axes: one row of all */
  int64_t count = 1;
  for (int d = 0; d < rank; d++) /* an empty output first: its other extents may be huge */
    if (out->shape[d] == 0) return WC_OK;
  for (int d = 0; d < rank; d++) { /* the products of a checked, non-empty output fit */
    count *= out->shape[d];
    if (d < c.outer_rank) c.outer[d] = out->shape[d];
    else c.row *= out->shape[d];
  }
  for (int a = 0; a < n_in; a++) {
    const wc_tensor *t = &in[a];
    int64_t          st = 1, row_st[WC_MAX_RANK] = {0};
    bool             contiguous = true;
    for (int d = rank - 1; d >= rank - t->rank; d--) { /* right-aligned, 0 where broadcast */
      int64_t dim = t->shape[d - (rank - t->rank)];
      int64_t s_d = dim == 1 && out->shape[d] != 1 ? 0 : st;
      if (d < c.outer_rank) c.stride[a][d] = s_d;
      else row_st[d] = s_d;
      st *= dim;
    }
    /* offsets within a row: j's coordinates over the row's dims */
    int64_t expect = 1;
    for (int d = rank - 1; d >= c.outer_rank; d--) {
      if (out->shape[d] != 1 && row_st[d] != expect) contiguous = false;
      expect *= out->shape[d];
      c.along[a] |= row_st[d] != 0 && out->shape[d] != 1;
    }
    if (!c.along[a] || contiguous) continue;
    c.off[a] = malloc((size_t)c.row * sizeof *c.off[a]);
    if (c.off[a] == NULL) {
      s = WC_E_NOMEM;
      break;
    }
    for (int64_t j = 0; j < c.row; j++) {
      int64_t rest = j, o = 0;
      for (int d = rank - 1; d >= c.outer_rank; d--) {
        o += (rest % out->shape[d]) * row_st[d];
        rest /= out->shape[d];
      }
      c.off[a][j] = o;
    }
  }
  if (s == WC_OK) {
    atomic_init(&c.nomem, false);
    wc__parallel_rows((size_t)count, wc_dtype_size(out->dtype), (size_t)c.row, out->data,
                      rows_range, &c);
    if (atomic_load_explicit(&c.nomem, memory_order_relaxed)) s = WC_E_NOMEM;
  }
  for (int a = 0; a < n_in; a++) free(c.off[a]);
  return s;
}

wc_status wc__interp_elementwise(const wc_kernel *k, const wc_tensor *in, wc_tensor *out) {
  return wc__interp_outputs(k, in, out, 1);
}

wc_status wc__interp_outputs(const wc_kernel *k, const wc_tensor *in, wc_tensor *outs, int n_out) {
  const wc_tensor *ops[WC_MAX_OPERANDS];
  int              n_in = k->n_inputs, n_ins = k->n_instrs;
  const wc_instr  *prog = k->program;
  wc_tensor       *out = &outs[0];
  interp_call      c = {.k = k, .in = in, .out = out, .outs = outs, .n_out = n_out};
  if (n_in + 1 > WC_MAX_OPERANDS || n_ins < 1) return WC_E_ARG;
  int rows = wc__kernel_rows(k);
  if (rows > 0) return interp_rows(k, in, outs, n_out, rows);
  for (int i = 0; i < n_in; i++) ops[i] = &in[i];
  ops[n_in] = out;
  wc__loop_plan(&c.L, n_in + 1, ops, out->rank, out->shape);
  if (c.L.count == 0) return WC_OK;

  /* uniform[i]: value i is one element repeated across every block (a
     constant, an input broadcast along the row, or an operation on such values
     alone; the plan's strides are the same for every row, so this is known
     once per call); it is computed once per block and filled, and a where on
     a uniform condition copies the chosen operand without reading the other. */
  int   inner = c.L.rank - 1;
  bool *uniform = malloc((size_t)n_ins * sizeof *uniform);
  if (uniform == NULL) return WC_E_NOMEM;
  for (int i = 0; i < n_ins; i++)
    uniform[i] = prog[i].op == WC_OP_CONST   ? true
                 : prog[i].op == WC_OP_INPUT ? c.L.stride[prog[i].a][inner] == 0
                                             : operands_uniform(&prog[i], uniform);
  c.uniform = uniform;
  atomic_init(&c.nomem, false);
  wc__parallel_for((size_t)c.L.count, wc_dtype_size(out->dtype), out->data, interp_range, &c);
  free(uniform);
  return atomic_load_explicit(&c.nomem, memory_order_relaxed) ? WC_E_NOMEM : WC_OK;
}
