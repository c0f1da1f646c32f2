/* reference_eval.c: the reference evaluator of kernel programs: one element
   at a time, the expression tree walked recursively, every operation written
   out here again (exact 128-bit integers, double arithmetic) so that it checks
   the interpreter and generated code rather than sharing their mistakes. */
#include <stdlib.h>

#include "reference.h"
#include "tensor.h"

__extension__ typedef __int128          ref_i128; /* exact integer results */
__extension__ typedef unsigned __int128 ref_u128; /* products of two 64-bit values */

/* One element's value: its bits in its dtype (strings: the pointer). */
typedef struct ref_val {
  uint64_t    bits[2]; /* low bytes first; complex: re, im */
  const char *str;     /* WC_STRING */
} ref_val;

static int ref_bits(wc_dtype t) { return (int)wc_dtype_size(t) * 8; }

static bool is_signed(wc_dtype t) {
  return t == WC_INT8 || t == WC_INT16 || t == WC_INT32 || t == WC_INT64;
}
static bool is_int(wc_dtype t) {
  return is_signed(t) || t == WC_UINT8 || t == WC_UINT16 || t == WC_UINT32 || t == WC_UINT64;
}
static bool is_float(wc_dtype t) {
  return t == WC_FLOAT || t == WC_DOUBLE || t == WC_FLOAT16 || t == WC_BFLOAT16;
}

/* Integer value of v: sign-extended for signed dtypes. */
static ref_i128 as_int(wc_dtype t, ref_val v) {
  int      n = ref_bits(t);
  uint64_t u = n == 64 ? v.bits[0] : v.bits[0] & ((1ull << n) - 1);
  if (is_signed(t) && n < 64 && (u >> (n - 1)) & 1) return (ref_i128)u - ((ref_i128)1 << n);
  if (is_signed(t) && n == 64) return (ref_i128)(int64_t)u;
  return (ref_i128)u;
}

/* x reduced modulo 2^bits into t's range. */
static ref_val from_int(wc_dtype t, ref_i128 x) {
  ref_val  v = {{0, 0}, NULL};
  int      n = ref_bits(t);
  ref_i128 m = (ref_i128)1 << n;
  x %= m;
  if (x < 0) x += m; /* now 0 <= x < 2^n: the bits */
  v.bits[0] = (uint64_t)x;
  return v;
}

static double as_double(wc_dtype t, ref_val v) {
  switch (t) {
  case WC_FLOAT: {
    float    f;
    uint32_t u = (uint32_t)v.bits[0];
    memcpy(&f, &u, 4);
    return f;
  }
  case WC_DOUBLE: {
    double d;
    memcpy(&d, &v.bits[0], 8);
    return d;
  }
  case WC_FLOAT16: return wc_f16_to_f32((uint16_t)v.bits[0]);
  case WC_BFLOAT16: return wc_bf16_to_f32((uint16_t)v.bits[0]);
  default: return 0;
  }
}

/* A float result rounded into t: double, or float, or through float to 16
   bits; a NaN result is quiet (README, Semantics, as wherec/ops.h pins it). */
static ref_val from_double(wc_dtype t, double d) {
  ref_val  v = {{0, 0}, NULL};
  float    f = (float)d;
  uint32_t u;
  uint64_t du;
  memcpy(&u, &f, 4);
  memcpy(&du, &d, 8);
  if (d != d) {
    u |= 1u << 22;
    du |= 1ull << 51;
  }
  f = wc_bits_to_f32(u);
  switch (t) {
  case WC_DOUBLE: v.bits[0] = du; break;
  case WC_FLOAT: v.bits[0] = u; break;
  case WC_FLOAT16: v.bits[0] = wc_f32_to_f16(f); break;
  case WC_BFLOAT16: v.bits[0] = wc_f32_to_bf16(f); break;
  default: break;
  }
  return v;
}

static bool ref_isnan(double d) { return d != d; }

static ref_val from_bool(bool b) {
  ref_val v = {{b ? 1u : 0u, 0}, NULL};
  return v;
}

/* Cast of v from dtype `from` to dtype `to` (README, Semantics, and wherec/ops.h's rules). */
static ref_val cast(wc_dtype to, wc_dtype from, ref_val v) {
  if (to == from) return v;
  if (to == WC_BOOL) {
    if (is_float(from)) return from_bool(as_double(from, v) != 0.0);
    return from_bool(as_int(from, v) != 0);
  }
  if (is_int(to)) {
    if (from == WC_BOOL) return from_int(to, v.bits[0] & 1);
    if (is_int(from)) return from_int(to, as_int(from, v));
    double   d = as_double(from, v); /* truncate, saturate, NaN -> 0 */
    int      n = ref_bits(to);
    ref_i128 lo = is_signed(to) ? -((ref_i128)1 << (n - 1)) : 0;
    ref_i128 hi = is_signed(to) ? ((ref_i128)1 << (n - 1)) - 1 : ((ref_i128)1 << n) - 1;
    if (ref_isnan(d)) return from_int(to, 0);
    if (d <= (double)lo) return from_int(to, lo);
    if (d >= (double)hi + 1.0 || d >= 18446744073709551616.0) return from_int(to, hi);
    return from_int(to, (ref_i128)d);
  }
  /* to a float type */
  if (from == WC_BOOL) return from_double(to, (double)(v.bits[0] & 1));
  if (is_int(from)) {
    ref_i128 x = as_int(from, v);
    if (to == WC_DOUBLE)
      return from_double(to, is_signed(from) ? (double)(int64_t)x : (double)(uint64_t)x);
    float f = is_signed(from) ? (float)(int64_t)x : (float)(uint64_t)x;
    return from_double(to, f);
  }
  double d = as_double(from, v);
  if (to == WC_DOUBLE) return from_double(to, d);
  return from_double(to, (float)d);
}

/* float or double bits of v (float16 / bfloat16 widened to float bits). */
static uint64_t float_bits(wc_dtype t, ref_val v) {
  if (t == WC_FLOAT16) return wc_f32_to_bits(wc_f16_to_f32((uint16_t)v.bits[0]));
  if (t == WC_BFLOAT16) return wc_f32_to_bits(wc_bf16_to_f32((uint16_t)v.bits[0]));
  return v.bits[0];
}

/* Back from float bits: a 16-bit type rounds (its NaN rule applies). */
static ref_val from_float_bits(wc_dtype t, uint64_t u) {
  ref_val v = {{u, 0}, NULL};
  if (t == WC_FLOAT16) v.bits[0] = wc_f32_to_f16(wc_bits_to_f32((uint32_t)u));
  if (t == WC_BFLOAT16) v.bits[0] = wc_f32_to_bf16(wc_bits_to_f32((uint32_t)u));
  return v;
}

/* neg, abs, min, max move or pick bits (IEEE sign operations and selections:
   no conversion that would quiet a signalling NaN); + - * / compute. */
static ref_val arith_float(wc_opcode op, wc_dtype t, ref_val va, ref_val vb) {
  double   a = as_double(t, va), b = as_double(t, vb), r = 0;
  uint64_t sign = t == WC_DOUBLE ? 1ull << 63 : 1ull << 31;
  switch (op) {
  case WC_OP_NEG: return from_float_bits(t, float_bits(t, va) ^ sign);
  case WC_OP_ABS: return from_float_bits(t, float_bits(t, va) & ~sign);
  case WC_OP_MIN:
    return from_float_bits(t, float_bits(t, ref_isnan(a)   ? va
                                            : ref_isnan(b) ? vb
                                                           : (a < b ? va : vb)));
  case WC_OP_MAX:
    return from_float_bits(t, float_bits(t, ref_isnan(a)   ? va
                                            : ref_isnan(b) ? vb
                                                           : (a > b ? va : vb)));
  default: break;
  }
  /* + - * / exp with a NaN operand: the first NaN, quieted (README, Semantics, via wherec/ops.h) */
  if (ref_isnan(a) || ref_isnan(b)) {
    uint64_t quiet = t == WC_DOUBLE ? 1ull << 51 : 1ull << 22;
    return from_float_bits(t, float_bits(t, ref_isnan(a) ? va : vb) | quiet);
  }
  if (op == WC_OP_EXP) /* correctly rounded into t itself: float, float16, bfloat16 */
    return from_double(t, t == WC_FLOAT16    ? wc__ref_exp((float)a, 11, -14, 15)
                          : t == WC_BFLOAT16 ? wc__ref_exp((float)a, 8, -126, 127)
                                             : wc__ref_exp((float)a, 24, -126, 127));
  switch (op) {
  case WC_OP_ADD: r = a + b; break;
  case WC_OP_SUB: r = a - b; break;
  case WC_OP_MUL: r = a * b; break;
  case WC_OP_DIV: r = a / b; break;
  default: break;
  }
  /* float: + - * / in double, rounded once, is the correctly rounded float result */
  return from_double(t, t == WC_DOUBLE ? r : (double)(float)r);
}

static ref_val arith_int(wc_opcode op, wc_dtype t, ref_val va, ref_val vb) {
  ref_i128 a = as_int(t, va), b = as_int(t, vb), r = 0;
  switch (op) {
  case WC_OP_ADD: r = a + b; break;
  case WC_OP_SUB: r = a - b; break;
  case WC_OP_MUL:
    r = (ref_i128)(((ref_u128)a * (ref_u128)b) & UINT64_MAX);
    break;                                       /* mod 2^64 is enough */
  case WC_OP_DIV: r = b == 0 ? 0 : a / b; break; /* exact; INT_MIN/-1 wraps below */
  case WC_OP_NEG: r = -a; break;
  case WC_OP_ABS: r = a < 0 ? -a : a; break;
  case WC_OP_MIN: r = a < b ? a : b; break;
  case WC_OP_MAX: r = a > b ? a : b; break;
  default: break;
  }
  return from_int(t, r);
}

static bool compare(wc_opcode op, wc_dtype t, ref_val va, ref_val vb) {
  if (t == WC_STRING) {
    bool eq = strcmp(va.str ? va.str : "", vb.str ? vb.str : "") == 0;
    return op == WC_OP_EQ ? eq : !eq;
  }
  if (t == WC_COMPLEX64 || t == WC_COMPLEX128) {
    double p[4];
    for (int k = 0; k < 2; k++) {
      if (t == WC_COMPLEX128) {
        memcpy(&p[k], &va.bits[k], 8);
        memcpy(&p[2 + k], &vb.bits[k], 8);
      } else {
        p[k] = as_double(WC_FLOAT, (ref_val){{va.bits[k], 0}, NULL});
        p[2 + k] = as_double(WC_FLOAT, (ref_val){{vb.bits[k], 0}, NULL});
      }
    }
    bool eq = p[0] == p[2] && p[1] == p[3];
    return op == WC_OP_EQ ? eq : !eq;
  }
  if (is_float(t)) {
    double a = as_double(t, va), b = as_double(t, vb);
    switch (op) {
    case WC_OP_EQ: return a == b;
    case WC_OP_NE: return a != b;
    case WC_OP_LT: return a < b;
    case WC_OP_LE: return a <= b;
    case WC_OP_GT: return a > b;
    default: return a >= b;
    }
  }
  ref_i128 a = t == WC_BOOL ? (ref_i128)(va.bits[0] & 1) : as_int(t, va);
  ref_i128 b = t == WC_BOOL ? (ref_i128)(vb.bits[0] & 1) : as_int(t, vb);
  switch (op) {
  case WC_OP_EQ: return a == b;
  case WC_OP_NE: return a != b;
  case WC_OP_LT: return a < b;
  case WC_OP_LE: return a <= b;
  case WC_OP_GT: return a > b;
  default: return a >= b;
  }
}

/* The element of input tensor t at output multi-index idx (rank r). */
static ref_val load(const wc_tensor *t, int r, const int64_t *idx) {
  ref_val     v = {{0, 0}, NULL};
  size_t      w = wc_dtype_size(t->dtype);
  const char *p = (const char *)t->data + (size_t)wc__ref_offset(t, r, idx) * w;
  if (t->dtype == WC_STRING) memcpy(&v.str, p, sizeof v.str);
  else if (t->dtype == WC_COMPLEX64) {
    uint32_t re, im;
    memcpy(&re, p, 4);
    memcpy(&im, p + 4, 4);
    v.bits[0] = re;
    v.bits[1] = im;
  } else if (w == 16) {
    memcpy(&v.bits[0], p, 8);
    memcpy(&v.bits[1], p + 8, 8);
  } else {
    uint8_t  b1;
    uint16_t b2;
    uint32_t b4;
    switch (w) {
    case 1:
      memcpy(&b1, p, 1);
      v.bits[0] = b1;
      break;
    case 2:
      memcpy(&b2, p, 2);
      v.bits[0] = b2;
      break;
    case 4:
      memcpy(&b4, p, 4);
      v.bits[0] = b4;
      break;
    default: memcpy(&v.bits[0], p, 8); break;
    }
  }
  if (t->dtype == WC_BOOL) v.bits[0] = v.bits[0] != 0;
  return v;
}

static void store(wc_dtype t, ref_val v, void *p) {
  size_t w = wc_dtype_size(t);
  if (t == WC_STRING) {
    memcpy(p, &v.str, sizeof v.str);
    return;
  }
  if (t == WC_COMPLEX64) {
    uint32_t re = (uint32_t)v.bits[0], im = (uint32_t)v.bits[1];
    memcpy(p, &re, 4);
    memcpy((char *)p + 4, &im, 4);
    return;
  }
  if (w == 16) {
    memcpy(p, &v.bits[0], 8);
    memcpy((char *)p + 8, &v.bits[1], 8);
    return;
  }
  uint8_t  b1 = (uint8_t)v.bits[0];
  uint16_t b2 = (uint16_t)v.bits[0];
  uint32_t b4 = (uint32_t)v.bits[0];
  switch (w) {
  case 1: memcpy(p, &b1, 1); break;
  case 2: memcpy(p, &b2, 2); break;
  case 4: memcpy(p, &b4, 4); break;
  default: memcpy(p, &v.bits[0], 8); break;
  }
}

/* Value of instruction i at output multi-index idx: the tree, recursively. */
static ref_val eval(const wc_kernel *k, int i, const wc_tensor *in, int r, const int64_t *idx) {
  const wc_instr *ins = &k->program[i];
  wc_opcode       op = (wc_opcode)ins->op;
  wc_dtype        t = (wc_dtype)ins->dtype;
  ref_val         v = {{0, 0}, NULL};
  switch (op) {
  case WC_OP_INPUT: return load(&in[ins->a], r, idx);
  case WC_OP_CONST:
    v.bits[0] = ins->bits[0];
    v.bits[1] = ins->bits[1];
    return v;
  case WC_OP_WHERE:
    return eval(k, ins->a, in, r, idx).bits[0] ? eval(k, ins->b, in, r, idx)
                                               : eval(k, ins->c, in, r, idx);
  case WC_OP_OR:
    return from_bool(eval(k, ins->a, in, r, idx).bits[0] || eval(k, ins->b, in, r, idx).bits[0]);
  case WC_OP_AND:
    return from_bool(eval(k, ins->a, in, r, idx).bits[0] && eval(k, ins->b, in, r, idx).bits[0]);
  case WC_OP_NOT: return from_bool(!eval(k, ins->a, in, r, idx).bits[0]);
  case WC_OP_CAST: return cast(t, (wc_dtype)k->program[ins->a].dtype, eval(k, ins->a, in, r, idx));
  case WC_OP_EQ:
  case WC_OP_NE:
  case WC_OP_LT:
  case WC_OP_LE:
  case WC_OP_GT:
  case WC_OP_GE:
    return from_bool(compare(op, (wc_dtype)k->program[ins->a].dtype, eval(k, ins->a, in, r, idx),
                             eval(k, ins->b, in, r, idx)));
  default: {
    ref_val a = eval(k, ins->a, in, r, idx);
    ref_val b = (op == WC_OP_NEG || op == WC_OP_ABS || op == WC_OP_EXP)
                    ? a
                    : eval(k, ins->b, in, r, idx);
    return is_float(t) ? arith_float(op, t, a, b) : arith_int(op, t, a, b);
  }
  }
}

/* Broadcast shape of the inputs, longhand (no shared broadcasting code). */
static wc_status ref_shape(const wc_tensor *in, int n, int *rank, int64_t *shape) {
  int r = 0;
  for (int i = 0; i < n; i++)
    if (in[i].rank > r) r = in[i].rank;
  for (int d = 0; d < r; d++) {
    int64_t e = 1;
    for (int i = 0; i < n; i++) {
      int     td = d - (r - in[i].rank);
      int64_t te = td < 0 ? 1 : in[i].shape[td];
      if (te == 1) continue;
      if (e != 1 && e != te) return WC_E_SHAPE;
      e = te;
    }
    shape[d] = e;
  }
  *rank = r;
  return WC_OK;
}

wc_status wc_ref_run(const wc_kernel *k, const wc_tensor *in, int n_in, wc_tensor *out) {
  int64_t   shape[WC_MAX_RANK], idx[WC_MAX_RANK], total;
  int       r;
  wc_status s;
  if (k == NULL) return WC_E_NOKERNEL;
  if (out == NULL || n_in != k->n_inputs || (n_in > 0 && in == NULL)) return WC_E_ARG;
  for (int i = 0; i < n_in; i++) {
    if ((s = wc__tensor_check(&in[i], NULL)) != WC_OK) return s;
    if (in[i].dtype != k->inputs[i].dtype) return WC_E_DTYPE;
  }
  if ((s = wc__tensor_check(out, NULL)) != WC_OK) return s;
  const wc_instr *top = &k->program[k->n_instrs - 1];
  if (k->kind == WC_KIND_WHERE_V1) {
    if (top->op != WC_OP_WHERE) return WC_E_ARG;
    return wc_ref_where_v1(&in[k->program[top->a].a], &in[k->program[top->b].a],
                           &in[k->program[top->c].a], out);
  }
  if ((s = ref_shape(in, n_in, &r, shape)) != WC_OK) return s;
  if ((s = wc__shape_count((wc_dtype)top->dtype, r, shape, &total)) != WC_OK) return s;
  if (k->kind == WC_KIND_ARGWHERE || k->kind == WC_KIND_NONZERO) {
    /* the value tensor, then the naive coordinate listing */
    wc_tensor value = {(wc_dtype)top->dtype, r, {0}, NULL};
    int64_t   cap, n = 0;
    if (out->dtype != WC_INT64) return WC_E_DTYPE;
    for (int d = 0; d < r; d++) value.shape[d] = shape[d];
    value.data = malloc((size_t)total * wc_dtype_size(value.dtype) + 1);
    if (value.data == NULL) return WC_E_NOMEM;
    for (int64_t e = 0; e < total; e++) {
      wc__ref_unflatten(e, r, shape, idx);
      store(value.dtype, eval(k, k->n_instrs - 1, in, r, idx),
            (char *)value.data + (size_t)e * wc_dtype_size(value.dtype));
    }
    wc__tensor_check(out, &cap);
    s = k->kind == WC_KIND_ARGWHERE ? wc_ref_argwhere(&value, out->data, cap, &n)
                                    : wc_ref_nonzero(&value, out->data, cap, &n);
    free(value.data);
    if (s != WC_OK && s != WC_E_CAPACITY) return s;
    out->rank = 2;
    out->shape[0] = k->kind == WC_KIND_ARGWHERE ? n : r;
    out->shape[1] = k->kind == WC_KIND_ARGWHERE ? r : n;
    return s;
  }
  if (out->dtype != k->out_dtype) return WC_E_DTYPE;
  if (out->rank != r) return WC_E_SHAPE;
  for (int d = 0; d < r; d++)
    if (out->shape[d] != shape[d]) return WC_E_SHAPE;
  size_t w = wc_dtype_size(out->dtype);
  for (int64_t e = 0; e < total; e++) {
    wc__ref_unflatten(e, r, shape, idx);
    store(out->dtype, eval(k, k->n_instrs - 1, in, r, idx), (char *)out->data + (size_t)e * w);
  }
  return WC_OK;
}
