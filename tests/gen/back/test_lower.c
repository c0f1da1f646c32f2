/* test_lower.c: unit tests of lowering (gen/back/lower.c): the loop plan of checked kernels.
   Coalescing, stride classes, value levels, unroll bounds, straight-line code, streaming and its
   threshold, out shapes, and how coordinate kernels read truths (bytewise, one pass). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "back/lower.h"
#include "front/parse.h"
#include "front/sema.h"

/* A spec taken through parse, sema and lower_spec; the plan of its kernels. */
typedef struct plan {
  sema_program  *sp;
  lower_program *lp;
} plan;

static plan plan_spec(const char *src, int unroll) {
  diag_ctx d;
  plan p;
  diag_init(&d, "t.where", src, strlen(src), NULL);
  ast_file *f = parse_source(src, strlen(src), &d);
  assert_non_null(f);
  p.sp = sema_check(f, &d);
  ast_file_free(f);
  assert_string_equal(diag_str(&d), "");
  assert_non_null(p.sp);
  diag_free(&d);
  p.lp = lower_spec(p.sp, unroll);
  assert_non_null(p.lp);
  return p;
}

static void plan_free(plan *p) {
  lower_free(p->lp);
  sema_free(p->sp);
}

/* The plan of the one kernel of a spec. */
static const lower_kernel *only_kernel(const plan *p) {
  assert_int_equal(p->lp->n_kernels, 1);
  return &p->lp->kernels[0];
}

/* Whether parameter par runs along loop l (a stride of "0" is a broadcast). */
static bool runs(const lower_kernel *k, int l, int par) {
  return strcmp(k->loops[l].stride[par], "0") != 0;
}

/* The node of the input par; -1 if the kernel does not read it. */
static int input_node(const lower_kernel *k, int par) {
  for (int i = 0; i < k->n_nodes; i++)
    if (k->nodes[i].ins.op == WC_OP_INPUT && k->nodes[i].ins.a == par) return i;
  return -1;
}

static int elem_nodes(const lower_kernel *k) {
  int n = 0;
  for (int i = 0; i < k->n_nodes; i++) n += k->nodes[i].level == LOWER_ELEM;
  return n;
}

/* "kernel NAME(x: float[SHAPE]) = x + 1 + 2 + ... + n;": n + 1 element operations. */
/* int32: integer sums take no NaN-redo pass, whose extra loop body would take
   budget too (test_lower_redoes_float_blocks_with_nans_pinned). */
static void chain_kernel(char *buf, size_t size, const char *name, const char *shape, int n) {
  size_t at = (size_t)snprintf(buf, size, "kernel %s(x: int32[%s]) = x", name, shape);
  for (int i = 1; i <= n; i++) at += (size_t)snprintf(buf + at, size - at, " + %d", i);
  snprintf(buf + at, size - at, ";\n");
}

/* A balanced sum of the leaves (x + i) for i in [lo, hi): 2 * (hi - lo) - 1 element
   operations besides x, nested about log2(hi - lo) deep (a chain would pass the limit). */
static size_t balanced_sum(char *buf, size_t size, int lo, int hi) {
  if (hi - lo == 1) return (size_t)snprintf(buf, size, "(x + %d)", lo);
  int mid = lo + (hi - lo) / 2;
  size_t at = (size_t)snprintf(buf, size, "(");
  at += balanced_sum(buf + at, size - at, lo, mid);
  at += (size_t)snprintf(buf + at, size - at, " + ");
  at += balanced_sum(buf + at, size - at, mid, hi);
  return at + (size_t)snprintf(buf + at, size - at, ")");
}

/* "kernel k(x: float[N]) = <balanced sum of m leaves>;": 2 * m element operations. */
static void wide_kernel(char *buf, size_t size, int m) {
  size_t at = (size_t)snprintf(buf, size, "kernel k(x: float[N]) = ");
  at += balanced_sum(buf + at, size - at, 1, m + 1);
  snprintf(buf + at, size - at, ";\n");
}

/* ---- coalescing ------------------------------------------------------------------ */

static void test_lower_coalesces_dims_where_every_operand_is_full(void **state) {
  (void)state;
  plan p = plan_spec("kernel k(c: bool[2,3,4], x: float[2,3,4], y: float[2,3,4]) = where(c, x, y);", 0);
  const lower_kernel *k = only_kernel(&p);
  assert_int_equal(k->n_loops, 1);
  assert_int_equal(k->loops[0].fixed, 24);
  assert_int_equal(k->total_fixed, 24);
  plan_free(&p);
}

static void test_lower_coalesces_adjacent_dims_with_the_same_broadcast_status(void **state) {
  (void)state;
  /* y broadcasts along dims 0 and 1 and runs along dim 2: [2*3] then [4] */
  plan p = plan_spec("kernel k(x: float[2,3,4], y: float[4]) = x + y;", 0);
  const lower_kernel *k = only_kernel(&p);
  assert_int_equal(k->n_loops, 2);
  assert_int_equal(k->loops[0].fixed, 6);
  assert_int_equal(k->loops[1].fixed, 4);
  assert_true(runs(k, 0, 0));
  assert_true(runs(k, 1, 0));
  assert_false(runs(k, 0, 1));
  assert_true(runs(k, 1, 1));
  plan_free(&p);
}

static void test_lower_keeps_dims_apart_where_broadcast_status_changes(void **state) {
  (void)state;
  /* c runs along N only, y along M only: neither dim can merge */
  plan p = plan_spec("kernel k(c: bool[N,1], x: float[N,M], y: float[1,M]) = where(c, x, y);", 0);
  const lower_kernel *k = only_kernel(&p);
  assert_int_equal(k->n_loops, 2);
  assert_int_equal(k->loops[0].fixed, -1);
  assert_int_equal(k->loops[1].fixed, -1);
  assert_int_equal(k->total_fixed, -1);
  assert_true(runs(k, 0, 0));
  assert_false(runs(k, 1, 0));
  assert_true(runs(k, 0, 1));
  assert_true(runs(k, 1, 1));
  assert_false(runs(k, 0, 2));
  assert_true(runs(k, 1, 2));
  plan_free(&p);
}

static void test_lower_coalesces_symbolic_with_fixed_dims(void **state) {
  (void)state;
  plan p = plan_spec("kernel k(x: float[N,3], y: float[N,3]) = min(x, y);", 0);
  const lower_kernel *k = only_kernel(&p);
  assert_int_equal(k->n_loops, 1);
  assert_int_equal(k->loops[0].fixed, -1);
  assert_false(k->straight);
  plan_free(&p);
}

static void test_lower_drops_dims_of_extent_one_before_coalescing(void **state) {
  (void)state;
  plan p = plan_spec("kernel k(x: float[1,5,1,3]) = -x;", 0);
  const lower_kernel *k = only_kernel(&p);
  assert_int_equal(k->n_loops, 1);
  assert_int_equal(k->loops[0].fixed, 15);
  assert_true(k->contig[0]);
  plan_free(&p);
}

static void test_lower_gives_a_single_element_kernel_one_loop_of_one(void **state) {
  (void)state;
  plan p = plan_spec("kernel k(x: float[1,1], y: float[]) = x * y;", 0);
  const lower_kernel *k = only_kernel(&p);
  assert_int_equal(k->n_loops, 1);
  assert_int_equal(k->loops[0].fixed, 1);
  assert_int_equal(k->total_fixed, 1);
  assert_true(k->invariant[0]);
  assert_true(k->invariant[1]);
  assert_false(runs(k, 0, 0));
  assert_false(runs(k, 0, 1));
  plan_free(&p);
}

/* ---- stride classes ---------------------------------------------------------------- */

static void test_lower_classes_each_operand_contiguous_broadcast_or_scalar(void **state) {
  (void)state;
  /* x steps along the row; c is one value per row; lo and hi one value per call */
  plan p = plan_spec("kernel k(c: bool[N,1], x: float[N,M], lo: float[], hi: float[]) = "
                     "where(c, max(x, lo), hi);", 0);
  const lower_kernel *k = only_kernel(&p);
  assert_int_equal(k->n_loops, 2);
  assert_false(k->contig[0]);
  assert_false(k->invariant[0]);
  assert_true(k->contig[1]);
  assert_false(k->invariant[1]);
  for (int par = 2; par < 4; par++) {
    assert_false(k->contig[par]);
    assert_true(k->invariant[par]);
    assert_false(runs(k, 0, par));
    assert_false(runs(k, 1, par));
  }
  assert_int_equal(k->nodes[input_node(k, 0)].level, LOWER_ROW);
  assert_int_equal(k->nodes[input_node(k, 1)].level, LOWER_ELEM);
  assert_int_equal(k->nodes[input_node(k, 2)].level, LOWER_KERNEL);
  assert_int_equal(k->nodes[input_node(k, 3)].level, LOWER_KERNEL);
  plan_free(&p);
}

static void test_lower_marks_a_row_broadcast_operand_contiguous_but_not_along_rows(void **state) {
  (void)state;
  plan p = plan_spec("kernel k(x: float[N,M], y: float[1,M]) = x - y;", 0);
  const lower_kernel *k = only_kernel(&p);
  assert_true(k->contig[1]);
  assert_false(k->invariant[1]);
  assert_false(runs(k, 0, 1));
  assert_true(runs(k, 1, 1));
  plan_free(&p);
}

static void test_lower_marks_an_operand_broadcast_along_the_inner_loop_not_contiguous(void **state) {
  (void)state;
  plan p = plan_spec("kernel k(x: float[4,8], y: float[4,1]) = x / y;", 0);
  const lower_kernel *k = only_kernel(&p);
  assert_int_equal(k->n_loops, 2);
  assert_true(k->contig[0]);
  assert_false(k->contig[1]);
  assert_false(k->invariant[1]);
  assert_true(runs(k, 0, 1));
  assert_false(runs(k, 1, 1));
  plan_free(&p);
}

/* ---- the value DAG and its levels ------------------------------------------------------ */

static void test_lower_shares_common_subexpressions(void **state) {
  (void)state;
  /* x, 0, x > 0, 0.01, x * 0.01, where: x is read once */
  plan p = plan_spec("kernel leaky(x: float[N,64]) = where(x > 0, x, x * 0.01);", 0);
  const lower_kernel *k = only_kernel(&p);
  assert_int_equal(k->n_nodes, 6);
  int reads = 0;
  for (int i = 0; i < k->n_nodes; i++) reads += k->nodes[i].ins.op == WC_OP_INPUT;
  assert_int_equal(reads, 1);
  assert_int_equal(k->nodes[k->n_nodes - 1].ins.op, WC_OP_WHERE);
  plan_free(&p);
}

static void test_lower_puts_each_value_at_the_level_it_varies_at(void **state) {
  (void)state;
  /* a * b once per call; c && d once per row; the compare with x per element */
  plan p = plan_spec("kernel k(c: bool[N,1], d: bool[N,1], x: float[N,M], a: float[], b: float[]) = "
                     "where(c && d, x, a * b);", 0);
  const lower_kernel *k = only_kernel(&p);
  const lower_node *top = &k->nodes[k->n_nodes - 1];
  assert_int_equal(top->ins.op, WC_OP_WHERE);
  assert_int_equal(top->level, LOWER_ELEM);
  assert_int_equal(k->nodes[top->ins.a].ins.op, WC_OP_AND);
  assert_int_equal(k->nodes[top->ins.a].level, LOWER_ROW);
  assert_int_equal(k->nodes[top->ins.b].level, LOWER_ELEM);
  assert_int_equal(k->nodes[top->ins.c].ins.op, WC_OP_MUL);
  assert_int_equal(k->nodes[top->ins.c].level, LOWER_KERNEL);
  plan_free(&p);
}

static void test_lower_hoists_literals_to_the_kernel_level(void **state) {
  (void)state;
  plan p = plan_spec("kernel k(x: int32[N]) = x * 3 + 4;", 0);
  const lower_kernel *k = only_kernel(&p);
  for (int i = 0; i < k->n_nodes; i++)
    if (k->nodes[i].ins.op == WC_OP_CONST) assert_int_equal(k->nodes[i].level, LOWER_KERNEL);
  assert_int_equal(elem_nodes(k), 3);                  /* x, x * 3, + 4 */
  plan_free(&p);
}

static void test_lower_turns_bitwise_operators_on_bool_into_logic(void **state) {
  (void)state;
  /* a, b, a & b -> AND, a | b -> OR, (a & b) ^ (a | b) -> NE */
  plan p = plan_spec("kernel k(a: bool[N], b: bool[N]) = (a & b) ^ (a | b);", 0);
  const lower_kernel *k = only_kernel(&p);
  assert_int_equal(k->n_nodes, 5);
  assert_int_equal(k->nodes[2].ins.op, WC_OP_AND);
  assert_int_equal(k->nodes[3].ins.op, WC_OP_OR);
  assert_int_equal(k->nodes[4].ins.op, WC_OP_NE);
  plan_free(&p);
}

static void test_lower_gives_each_new_operator_its_opcode(void **state) {
  (void)state;
  plan p = plan_spec("kernel k(x: int32[N], f: float[N]) = ((x % x) & (x | x) ^ ~(x << x >> x)) + "
                     "fmod(x, x) + int32(floor(f) + ceil(f) + round(f) + trunc(f) + sqrt(f) + "
                     "fmod(f, f));",
                     0);
  const lower_kernel *k = only_kernel(&p);
  static const wc_opcode want[] = {WC_OP_MOD,   WC_OP_BAND, WC_OP_BOR,  WC_OP_BXOR,
                                   WC_OP_BNOT,  WC_OP_SHL,  WC_OP_SHR,  WC_OP_FMOD,
                                   WC_OP_FLOOR, WC_OP_CEIL, WC_OP_ROUND, WC_OP_TRUNC,
                                   WC_OP_SQRT};
  for (size_t w = 0; w < sizeof want / sizeof *want; w++) {
    int found = 0;
    for (int i = 0; i < k->n_nodes; i++) found += k->nodes[i].ins.op == want[w];
    assert_true(found >= 1);
  }
  plan_free(&p);
}

static void test_lower_drops_a_cast_to_the_same_dtype(void **state) {
  (void)state;
  plan p = plan_spec("kernel k(x: float[N]) = float(x) + float(int32(x));", 0);
  const lower_kernel *k = only_kernel(&p);
  int casts = 0;
  for (int i = 0; i < k->n_nodes; i++) casts += k->nodes[i].ins.op == WC_OP_CAST;
  assert_int_equal(casts, 2);                          /* float -> int32 -> float */
  assert_int_equal(k->n_nodes, 4);                     /* x, two casts, the sum */
  plan_free(&p);
}

/* ---- row selects ------------------------------------------------------------------------ */

static void test_lower_selects_whole_rows_when_the_condition_is_per_row(void **state) {
  (void)state;
  plan p = plan_spec("kernel k(c: bool[N,1], x: float[N,M], y: float[]) = where(c, x, y);", 0);
  const lower_kernel *k = only_kernel(&p);
  assert_true(k->row_select.enabled);
  assert_int_equal(k->row_select.cond, input_node(k, 0));
  assert_int_equal(k->row_select.branch[0], input_node(k, 1));
  assert_int_equal(k->row_select.branch[1], input_node(k, 2));
  assert_true(k->row_select.copy[0]);                 /* x: block copy */
  assert_false(k->row_select.copy[1]);                /* y: fill */
  plan_free(&p);
}

static void test_lower_selects_per_element_when_a_branch_is_computed(void **state) {
  (void)state;
  plan p = plan_spec("kernel k(c: bool[N,1], x: float[N,M], y: float[N,M]) = where(c, x, -y);", 0);
  assert_false(only_kernel(&p)->row_select.enabled);
  plan_free(&p);
}

static void test_lower_selects_per_element_when_the_condition_varies_along_the_row(void **state) {
  (void)state;
  plan p = plan_spec("kernel k(c: bool[N,M], x: float[N,M], y: float[N,M]) = where(c, x, y);", 0);
  assert_false(only_kernel(&p)->row_select.enabled);
  plan_free(&p);
}

/* ---- unroll bounds ------------------------------------------------------------------------ */

static void test_lower_unrolls_once_by_default(void **state) {
  (void)state;
  plan p = plan_spec("kernel k(x: float[N]) = -x;", 0);
  assert_int_equal(p.lp->unroll, 1);
  assert_int_equal(only_kernel(&p)->unroll, 1);
  plan_free(&p);
}

static void test_lower_takes_the_unroll_option_of_the_spec(void **state) {
  (void)state;
  plan p = plan_spec("option unroll = 8;\nkernel k(x: float[N]) = -x;", 0);
  assert_int_equal(p.lp->unroll, 8);
  assert_int_equal(only_kernel(&p)->unroll, 8);
  plan_free(&p);
}

static void test_lower_lets_the_unroll_argument_override_the_spec(void **state) {
  (void)state;
  plan p = plan_spec("option unroll = 8;\nkernel k(x: float[N]) = -x;", 4);
  assert_int_equal(p.lp->unroll, 4);
  assert_int_equal(only_kernel(&p)->unroll, 4);
  plan_free(&p);
}

static void test_lower_bounds_the_unroll_factor_by_the_work_of_the_body(void **state) {
  (void)state;
  char src[8192];
  wide_kernel(src, sizeof src, 150);                   /* 300 element operations */
  plan p = plan_spec(src, 64);
  const lower_kernel *k = only_kernel(&p);
  assert_int_equal(elem_nodes(k), 300);
  assert_int_equal(p.lp->unroll, 64);
  assert_int_equal(k->unroll, LOWER_MAX_UNROLL_WORK / 300);   /* 6 copies of 300 */
  assert_true(k->unroll * 300 <= LOWER_MAX_UNROLL_WORK);
  plan_free(&p);
}

static void test_lower_never_unrolls_below_one(void **state) {
  (void)state;
  char src[65536];
  wide_kernel(src, sizeof src, 1500);                  /* more work than one unrolled body may have */
  plan p = plan_spec(src, 8);
  assert_true(elem_nodes(only_kernel(&p)) > LOWER_MAX_UNROLL_WORK);
  assert_int_equal(only_kernel(&p)->unroll, 1);
  plan_free(&p);
}

/* Kernels of 16 element operations unrolled 64 times take 16 * (64 + 1) = 1040 of
   the spec's budget each, the remainder loop counted: 1008 of them leave
   2^20 - 1008 * 1040 = 256, enough for 256 / 16 = 16 copies, which is the
   unrolled body and its remainder: kernel 1008 unrolls 15 times. Nothing is left
   for the kernels after it, and none of them unrolls or becomes straight-line code. */
static void test_lower_shares_the_unroll_budget_of_a_spec_in_declaration_order(void **state) {
  (void)state;
  enum { N_SYMBOLIC = 1012 };
  size_t size = (size_t)(N_SYMBOLIC + 1) * 128;
  char *src = malloc(size), line[128];
  assert_non_null(src);
  src[0] = '\0';
  size_t at = 0;
  for (int i = 0; i < N_SYMBOLIC; i++) {
    char name[16];
    snprintf(name, sizeof name, "k%d", i);
    chain_kernel(line, sizeof line, name, "N", 15);
    at += (size_t)snprintf(src + at, size - at, "%s", line);
  }
  snprintf(src + at, size - at, "kernel tail(x: float[4]) = -x;\n");
  plan p = plan_spec(src, 64);
  assert_int_equal(p.lp->n_kernels, N_SYMBOLIC + 1);
  int64_t spent = 0;
  for (int i = 0; i < N_SYMBOLIC; i++) {
    const lower_kernel *k = &p.lp->kernels[i];
    assert_int_equal(elem_nodes(k), 16);
    if (i < 1008) assert_int_equal(k->unroll, 64);
    else if (i == 1008) assert_int_equal(k->unroll, 15);
    else assert_int_equal(k->unroll, 1);
    if (i <= 1008) spent += 16 * (k->unroll + 1);
  }
  assert_int_equal(spent, LOWER_MAX_TOTAL_WORK);
  assert_false(p.lp->kernels[N_SYMBOLIC].straight);
  plan_free(&p);
  free(src);
}

/* Straight-line code takes its elements x operations from the same budget:
   kernels of 16 operations over 64 fixed elements cost 16 * 2 for their loop
   (unroll 1 and its remainder) and 64 * 16 = 1024 as straight-line code, 1056
   in all: 992 of them leave 2^20 - 992 * 1056 = 1024, of which kernel 992's
   loop takes 32, leaving too little for its straight-line code; no kernel
   after it becomes straight-line code either. */
static void test_lower_takes_straight_line_code_from_the_budget_of_a_spec(void **state) {
  (void)state;
  enum { N_FIXED = 995 };
  size_t size = (size_t)N_FIXED * 128;
  char *src = malloc(size), line[128];
  assert_non_null(src);
  size_t at = 0;
  src[0] = '\0';
  for (int i = 0; i < N_FIXED; i++) {
    char name[16];
    snprintf(name, sizeof name, "s%d", i);
    chain_kernel(line, sizeof line, name, "64", 15);
    at += (size_t)snprintf(src + at, size - at, "%s", line);
  }
  plan p = plan_spec(src, 1);
  assert_int_equal(p.lp->n_kernels, N_FIXED);
  for (int i = 0; i < N_FIXED; i++) {
    const lower_kernel *k = &p.lp->kernels[i];
    assert_int_equal(elem_nodes(k), 16);
    assert_int_equal(k->unroll, 1);
    if (k->straight != (i < 992))
      fail_msg("kernel '%s': straight %d, expected %d", k->sk->name, k->straight, i < 992);
  }
  plan_free(&p);
  free(src);
}

/* Float and double + - * / evaluate a block in plain IEEE arithmetic first
   (c_op_raw), except a product an addition reads (contraction could fuse
   them); kernels with a half output, or nothing plain to do, keep one pass. */
static void test_lower_redoes_float_blocks_with_nans_pinned(void **state) {
  (void)state;
  plan p = plan_spec("kernel fma(x: float[N], y: float[N]) = x * y + 1.0;\n"
                     "kernel scaled(x: double[N]) -> (y, big) { y = x * 2.0 / 3.0; big = y > 1.0; }\n"
                     "kernel half(x: float16[N]) = x + x;\n"
                     "kernel to_half(x: float[N]) = float16(x + 1.0);\n"
                     "kernel clamp(x: float[N]) = min(max(x, 0.0), 6.0);\n",
                     4);
  const lower_kernel *fma = &p.lp->kernels[0], *scaled = &p.lp->kernels[1];
  assert_true(fma->nan_redo);
  for (int i = 0; i < fma->n_nodes; i++) {
    const lower_node *n = &fma->nodes[i];
    if (n->ins.op == WC_OP_MUL) assert_null(n->c_op_raw);
    if (n->ins.op == WC_OP_ADD) assert_string_equal(n->c_op_raw, "wc_add_raw_f32");
  }
  assert_true(scaled->nan_redo);
  for (int i = 0; i < scaled->n_nodes; i++) {
    const lower_node *n = &scaled->nodes[i];
    if (n->ins.op == WC_OP_MUL) assert_string_equal(n->c_op_raw, "wc_mul_raw_f64");
    if (n->ins.op == WC_OP_DIV) assert_string_equal(n->c_op_raw, "wc_div_raw_f64");
  }
  assert_false(p.lp->kernels[2].nan_redo);
  assert_false(p.lp->kernels[3].nan_redo);
  assert_false(p.lp->kernels[4].nan_redo);
  plan_free(&p);
}

/* The correctly rounded functions take their raw forms on float (exp.h), and the
   block tests each of their values, read by anything (a comparison hides a NaN);
   not on the half types, nor where no output is a float (no block to redo). */
static void test_lower_takes_raw_functions_checked_in_float_blocks(void **state) {
  (void)state;
  plan p = plan_spec("kernel elu(x: float[N]) = where(x < 0, exp(x) - 1.0, x);\n"
                     "kernel gate(x: float[N], y: float[N]) = where(sigmoid(x) > 0.5, tanh(y), log(y));\n"
                     "kernel half(x: float16[N]) = exp(x);\n"
                     "kernel test(x: float[N]) = exp(x) > 2.0;\n"
                     "kernel acts(x: float[N]) = silu(x) + mish(x) + softplus(where(x < 0, expm1(x), x));\n"
                     "kernel arcs(x: float[N]) = asin(x) + acos(x) + atan(x) + erf(x) + sinh(x) + cosh(x) +\n"
                     "  asinh(x) + acosh(x) + atanh(x);\n",
                     5);
  const lower_kernel *elu = &p.lp->kernels[0], *gate = &p.lp->kernels[1], *acts = &p.lp->kernels[4];
  int                 checked = 0;
  assert_true(elu->nan_redo);
  assert_true(gate->nan_redo);
  for (int k = 0; k < 2; k++)
    for (int i = 0; i < p.lp->kernels[k].n_nodes; i++) {
      const lower_node *n = &p.lp->kernels[k].nodes[i];
      if (n->ins.op == WC_OP_EXP) assert_string_equal(n->c_op_raw, "wc_exp_raw_f32");
      if (n->ins.op == WC_OP_SIGMOID) assert_string_equal(n->c_op_raw, "wc_sigmoid_raw_f32");
      if (n->ins.op == WC_OP_TANH) assert_string_equal(n->c_op_raw, "wc_tanh_raw_f32");
      if (n->ins.op == WC_OP_LOG) assert_string_equal(n->c_op_raw, "wc_log_raw_f32");
      checked += n->raw_checked;
      assert_int_equal(n->raw_checked, n->ins.op == WC_OP_EXP || n->ins.op == WC_OP_SIGMOID ||
                                           n->ins.op == WC_OP_TANH || n->ins.op == WC_OP_LOG);
    }
  assert_int_equal(checked, 4);
  assert_false(p.lp->kernels[2].nan_redo);
  assert_false(p.lp->kernels[3].nan_redo);
  assert_true(acts->nan_redo); /* the activations' raw forms (activations.h) */
  checked = 0;
  for (int i = 0; i < acts->n_nodes; i++) {
    const lower_node *n = &acts->nodes[i];
    if (n->ins.op == WC_OP_SILU) assert_string_equal(n->c_op_raw, "wc_silu_raw_f32");
    if (n->ins.op == WC_OP_MISH) assert_string_equal(n->c_op_raw, "wc_mish_raw_f32");
    if (n->ins.op == WC_OP_SOFTPLUS) assert_string_equal(n->c_op_raw, "wc_softplus_raw_f32");
    if (n->ins.op == WC_OP_EXPM1) assert_string_equal(n->c_op_raw, "wc_expm1_raw_f32");
    checked += n->raw_checked;
  }
  assert_int_equal(checked, 4);
  assert_true(p.lp->kernels[5].nan_redo); /* erf's (crmath.h), the inverse circular, hyperbolic and
                                             inverse hyperbolic functions' */
  checked = 0;
  for (int i = 0; i < p.lp->kernels[5].n_nodes; i++) {
    const lower_node *n = &p.lp->kernels[5].nodes[i];
    if (n->ins.op == WC_OP_ASIN) assert_string_equal(n->c_op_raw, "wc_asin_raw_f32");
    if (n->ins.op == WC_OP_ACOS) assert_string_equal(n->c_op_raw, "wc_acos_raw_f32");
    if (n->ins.op == WC_OP_ATAN) assert_string_equal(n->c_op_raw, "wc_atan_raw_f32");
    if (n->ins.op == WC_OP_ERF) assert_string_equal(n->c_op_raw, "wc_erf_raw_f32");
    if (n->ins.op == WC_OP_SINH) assert_string_equal(n->c_op_raw, "wc_sinh_raw_f32");
    if (n->ins.op == WC_OP_COSH) assert_string_equal(n->c_op_raw, "wc_cosh_raw_f32");
    if (n->ins.op == WC_OP_ASINH) assert_string_equal(n->c_op_raw, "wc_asinh_raw_f32");
    if (n->ins.op == WC_OP_ACOSH) assert_string_equal(n->c_op_raw, "wc_acosh_raw_f32");
    if (n->ins.op == WC_OP_ATANH) assert_string_equal(n->c_op_raw, "wc_atanh_raw_f32");
    checked += n->raw_checked;
  }
  assert_int_equal(checked, 9);
  plan_free(&p);
}

/* ---- straight-line code ------------------------------------------------------------------- */

static void test_lower_writes_a_small_fixed_kernel_as_straight_line_code(void **state) {
  (void)state;
  plan p = plan_spec("kernel pick(c: bool[2,1], x: int32[2,3], y: int32[1,3]) = where(c, x, y);", 0);
  const lower_kernel *k = only_kernel(&p);
  assert_true(k->straight);
  assert_int_equal(k->total_fixed, 6);
  for (int i = 0; i < 2; i++)
    for (int j = 0; j < 3; j++) {
      const int64_t *off = k->straight_off[i * 3 + j];
      assert_int_equal(off[0], i);                    /* c[i, 0] */
      assert_int_equal(off[1], i * 3 + j);            /* x[i, j] */
      assert_int_equal(off[2], j);                    /* y[0, j] */
    }
  plan_free(&p);
}

static void test_lower_gives_scalar_operands_of_straight_line_code_offset_zero(void **state) {
  (void)state;
  plan p = plan_spec("kernel k(x: float[4], lo: float[]) = max(x, lo);", 0);
  const lower_kernel *k = only_kernel(&p);
  assert_true(k->straight);
  for (int e = 0; e < 4; e++) {
    assert_int_equal(k->straight_off[e][0], e);
    assert_int_equal(k->straight_off[e][1], 0);
  }
  plan_free(&p);
}

static void test_lower_cuts_straight_line_code_off_past_its_element_count(void **state) {
  (void)state;
  char src[256];
  snprintf(src, sizeof src, "kernel a(x: float[%d]) = -x;\nkernel b(x: float[%d]) = -x;",
           LOWER_MAX_STRAIGHT, LOWER_MAX_STRAIGHT + 1);
  plan p = plan_spec(src, 0);
  assert_true(p.lp->kernels[0].straight);
  assert_false(p.lp->kernels[1].straight);
  assert_int_equal(p.lp->kernels[1].total_fixed, LOWER_MAX_STRAIGHT + 1);
  plan_free(&p);
}

static void test_lower_cuts_straight_line_code_off_past_its_work(void **state) {
  (void)state;
  char src[2048], b[1024];
  /* 64 elements of 64 operations is 4096, of 65 operations 4160 */
  chain_kernel(src, sizeof src, "fits", "64", 63);
  chain_kernel(b, sizeof b, "over", "64", 64);
  strcat(src, b);
  plan p = plan_spec(src, 0);
  assert_int_equal(elem_nodes(&p.lp->kernels[0]) * 64, LOWER_MAX_STRAIGHT_WORK);
  assert_true(p.lp->kernels[0].straight);
  assert_false(p.lp->kernels[1].straight);
  plan_free(&p);
}

static void test_lower_loops_over_symbolic_and_empty_kernels(void **state) {
  (void)state;
  plan p = plan_spec("kernel sym(x: float[N]) = -x;\n"
                     "kernel none(x: float[3,0]) = -x;\n", 0);
  assert_false(p.lp->kernels[0].straight);
  assert_false(p.lp->kernels[0].empty);
  assert_true(p.lp->kernels[1].empty);
  assert_false(p.lp->kernels[1].straight);
  assert_int_equal(p.lp->kernels[1].total_fixed, 0);
  plan_free(&p);
}

static void test_lower_marks_a_kernel_empty_whatever_its_symbolic_extents(void **state) {
  (void)state;
  plan p = plan_spec("kernel k(x: float[N,0]) = -x;", 0);
  const lower_kernel *k = only_kernel(&p);
  assert_true(k->empty);
  assert_int_equal(k->total_fixed, -1);
  plan_free(&p);
}

/* ---- streaming ------------------------------------------------------------------------------ */

static void test_lower_streams_a_where_of_three_full_operands(void **state) {
  (void)state;
  plan p = plan_spec("kernel f(c: bool[N], x: float[N], y: float[N]) = where(c, x, y);\n"
                     "kernel i(c: bool[N], x: int64[N], y: int64[N]) = where(c, x, y);\n", 0);
  assert_true(p.lp->kernels[0].streams);
  assert_true(p.lp->kernels[1].streams);
  plan_free(&p);
}

static void test_lower_does_not_stream_a_kernel_reading_one_full_input(void **state) {
  (void)state;
  plan p = plan_spec("kernel leaky(x: float[N,64]) = where(x > 0, x, x * 0.01);\n"
                     "kernel scalar_y(c: bool[N], x: float[N], y: float[]) = where(c, x, y);\n", 0);
  assert_false(p.lp->kernels[0].streams);
  assert_false(p.lp->kernels[1].streams);             /* 1 + 4 bytes read per 4 written */
  plan_free(&p);
}

static void test_lower_counts_only_inputs_that_run_along_every_loop(void **state) {
  (void)state;
  /* x (4 bytes) is full; c and y are broadcast along a loop: 4 < 2 * 4 */
  plan p = plan_spec("kernel k(c: bool[N,1], x: float[N,M], y: float[1,M]) = where(c, x, y);", 0);
  assert_false(only_kernel(&p)->streams);
  plan_free(&p);
}

static void test_lower_does_not_count_unused_inputs_for_streaming(void **state) {
  (void)state;
  plan p = plan_spec("kernel used(c: bool[N], x: float[N], y: float[N]) = where(c, x, y);\n"
                     "kernel unused(c: bool[N], x: float[N], z: float[N]) = where(c, x, x);\n", 0);
  assert_true(p.lp->kernels[0].streams);
  assert_false(p.lp->kernels[1].streams);
  plan_free(&p);
}

static void test_lower_streams_a_row_select_that_copies_rows(void **state) {
  (void)state;
  plan p = plan_spec("kernel k(c: bool[N,1], x: float[N,M], y: float[N,M]) = where(c, x, y);", 0);
  const lower_kernel *k = only_kernel(&p);
  assert_true(k->row_select.enabled);
  assert_true(k->streams);
  plan_free(&p);
}

static void test_lower_does_not_stream_empty_kernels(void **state) {
  (void)state;
  plan p = plan_spec("kernel k(c: bool[N,0], x: float[N,0], y: float[N,0]) = where(c, x, y);", 0);
  const lower_kernel *k = only_kernel(&p);
  assert_true(k->empty);
  assert_false(k->streams);
  plan_free(&p);
}

static void test_lower_streams_computed_rows_from_the_computed_rows_threshold(void **state) {
  (void)state;
  plan p = plan_spec("kernel k(c: bool[N], x: float[N], y: float[N]) = where(c, x, y);", 0);
  const lower_kernel *k = only_kernel(&p);
  assert_false(k->row_select.enabled);
  assert_true(k->streams);
  assert_string_equal(k->stream_min, "WC_STREAM_COMPUTED_MIN_BYTES");
  plan_free(&p);
}

static void test_lower_streams_rows_copied_whole_from_the_copy_threshold(void **state) {
  (void)state;
  plan p = plan_spec("kernel f(c: bool[N,1], x: float[N,M], y: float[N,M]) = where(c, x, y);\n"
                     "kernel u(c: bool[N,1], x: uint8[N,M], y: uint8[N,M]) = where(c, x, y);\n", 0);
  for (int i = 0; i < 2; i++) {
    const lower_kernel *k = &p.lp->kernels[i];
    assert_true(k->row_select.enabled);
    assert_true(k->streams);
    assert_string_equal(k->stream_min, "WC_STREAM_MIN_BYTES");
  }
  plan_free(&p);
}

static void test_lower_gives_no_stream_threshold_to_kernels_that_do_not_stream(void **state) {
  (void)state;
  plan p = plan_spec("kernel leaky(x: float[N,64]) = where(x > 0, x, x * 0.01);\n"
                     "kernel copies(c: bool[N,1], x: float[N,M], y: float[]) = where(c, x, y);\n"
                     "kernel coords(c: bool[N]) = argwhere(c);\n", 0);
  assert_true(p.lp->kernels[1].row_select.enabled);
  for (int i = 0; i < 3; i++) {
    assert_false(p.lp->kernels[i].streams);
    assert_null(p.lp->kernels[i].stream_min);
  }
  plan_free(&p);
}

/* ---- out shapes ------------------------------------------------------------------------------ */

static void test_lower_out_shape_is_the_broadcast_of_every_parameter(void **state) {
  (void)state;
  /* z is not read, but wc_run broadcasts it with the others */
  plan p = plan_spec("kernel k(x: float[N,1], y: float[4], z: float[2,1,1]) = x + y;", 0);
  ast_shape s;
  assert_true(lower_out_shape(&p.sp->kernels[0], &s));
  assert_int_equal(s.rank, 3);
  assert_int_equal(s.dims[0], 2);
  assert_int_equal(s.dims[1], WC_SYM(0));
  assert_int_equal(s.dims[2], 4);
  plan_free(&p);
}

static void test_lower_out_shape_of_where_v1_is_the_shape_of_x(void **state) {
  (void)state;
  plan p = plan_spec("kernel v1(c: bool[B], x: double[B,7], y: double[B,7]) = where_v1(c, x, y);", 0);
  ast_shape s;
  assert_true(lower_out_shape(&p.sp->kernels[0], &s));
  assert_int_equal(s.rank, 2);
  assert_int_equal(s.dims[0], WC_SYM(0));
  assert_int_equal(s.dims[1], 7);
  plan_free(&p);
}

static void test_lower_out_shape_of_coordinates_is_the_shape_of_the_value(void **state) {
  (void)state;
  plan p = plan_spec("kernel nz(c: float[N,3]) = nonzero(c);", 0);
  ast_shape s;
  assert_true(lower_out_shape(&p.sp->kernels[0], &s));
  assert_int_equal(s.rank, 2);
  assert_int_equal(s.dims[0], WC_SYM(0));
  assert_int_equal(s.dims[1], 3);
  plan_free(&p);
}

static void test_lower_out_shape_refuses_parameters_that_do_not_broadcast(void **state) {
  (void)state;
  /* sema refuses such a kernel; the driver asks lower_out_shape of any it is given */
  sema_param params[2];
  sema_kernel sk;
  ast_shape s;
  memset(params, 0, sizeof params);
  memset(&sk, 0, sizeof sk);
  params[0].dtype = params[1].dtype = WC_FLOAT;
  params[0].shape.rank = params[1].shape.rank = 1;
  params[0].shape.dims[0] = 3;
  params[1].shape.dims[0] = 4;
  sk.kind = WC_KIND_ELEMENTWISE;
  sk.n_params = 2;
  sk.params = params;
  assert_false(lower_out_shape(&sk, &s));
  params[1].shape.dims[0] = 1;
  assert_true(lower_out_shape(&sk, &s));
  assert_int_equal(s.rank, 1);
  assert_int_equal(s.dims[0], 3);
}

/* ---- where_v1 ------------------------------------------------------------------------------------ */

static void test_lower_runs_a_where_v1_vector_condition_along_the_first_dim(void **state) {
  (void)state;
  plan p = plan_spec("kernel v1(c: bool[B], x: double[B,7], y: double[B,7]) = where_v1(c, x, y);", 0);
  const lower_kernel *k = only_kernel(&p);
  assert_int_equal(k->n_loops, 2);
  assert_int_equal(k->loops[0].fixed, -1);
  assert_int_equal(k->loops[1].fixed, 7);
  assert_true(runs(k, 0, 0));
  assert_false(runs(k, 1, 0));
  assert_false(k->contig[0]);
  assert_true(k->contig[1]);
  assert_true(k->contig[2]);
  assert_true(k->row_select.enabled);
  assert_int_equal(k->row_select.cond, input_node(k, 0));
  assert_true(k->row_select.copy[0]);
  assert_true(k->row_select.copy[1]);
  plan_free(&p);
}

static void test_lower_coalesces_a_where_v1_condition_of_the_shape_of_x(void **state) {
  (void)state;
  plan p = plan_spec("kernel v1(c: bool[B,7], x: double[B,7], y: double[B,7]) = where_v1(c, x, y);", 0);
  const lower_kernel *k = only_kernel(&p);
  assert_int_equal(k->n_loops, 1);
  assert_true(k->contig[0]);
  assert_false(k->row_select.enabled);
  plan_free(&p);
}

static void test_lower_treats_a_scalar_where_v1_as_one_element(void **state) {
  (void)state;
  plan p = plan_spec("kernel v1(c: bool[], x: float[], y: float[]) = where_v1(c, x, y);", 0);
  const lower_kernel *k = only_kernel(&p);
  assert_int_equal(k->n_loops, 1);
  assert_int_equal(k->total_fixed, 1);
  assert_true(k->straight);
  for (int par = 0; par < 3; par++) assert_true(k->invariant[par]);
  plan_free(&p);
}

/* ---- coordinates ------------------------------------------------------------------------------------ */

static void test_lower_loops_over_every_dim_of_a_coordinate_kernel(void **state) {
  (void)state;
  /* the odometer needs true indices: no coalescing, no dims dropped */
  plan p = plan_spec("kernel coords(c: bool[4,1,4]) = argwhere(c);", 0);
  const lower_kernel *k = only_kernel(&p);
  assert_int_equal(k->n_loops, 3);
  assert_int_equal(k->loops[0].fixed, 4);
  assert_int_equal(k->loops[1].fixed, 1);
  assert_int_equal(k->loops[2].fixed, 4);
  assert_int_equal(k->total_fixed, 16);
  plan_free(&p);
}

static void test_lower_never_writes_coordinates_as_straight_line_code(void **state) {
  (void)state;
  plan p = plan_spec("kernel coords(c: bool[2,2]) = argwhere(c);\n"
                     "kernel nz(c: float[N,3]) = nonzero(c);\n", 0);
  for (int i = 0; i < 2; i++) {
    const lower_kernel *k = &p.lp->kernels[i];
    assert_int_equal(k->n_loops, 2);
    assert_false(k->straight);
    assert_false(k->streams);
    assert_false(k->row_select.enabled);
  }
  plan_free(&p);
}

static void test_lower_computes_the_value_whose_coordinates_are_listed(void **state) {
  (void)state;
  plan p = plan_spec("kernel pos(x: float[N,3]) = argwhere(x > 0);", 0);
  const lower_kernel *k = only_kernel(&p);
  const lower_node *top = &k->nodes[k->n_nodes - 1];
  assert_int_equal(top->ins.op, WC_OP_GT);
  assert_int_equal(top->ins.dtype, WC_BOOL);
  assert_int_equal(top->level, LOWER_ELEM);
  plan_free(&p);
}

static void test_lower_gives_a_scalar_coordinate_kernel_no_loops(void **state) {
  (void)state;
  plan p = plan_spec("kernel one(c: bool[]) = argwhere(c);", 0);
  const lower_kernel *k = only_kernel(&p);
  assert_int_equal(k->n_loops, 0);
  assert_true(k->invariant[0]);
  assert_int_equal(k->total_fixed, 1);
  plan_free(&p);
}

static void test_lower_reads_a_contiguous_byte_input_in_place_in_one_pass(void **state) {
  (void)state;
  static const char *const kinds[] = {"argwhere", "nonzero"};
  static const char *const dtypes[] = {"bool", "int8", "uint8"};
  static const char *const shapes[] = {"N", "N,3", "2,N,M", "A,1,B,65"};
  for (int kd = 0; kd < 2; kd++)
    for (int d = 0; d < 3; d++)
      for (int s = 0; s < 4; s++) {
        char src[128];
        snprintf(src, sizeof src, "kernel k(c: %s[%s]) = %s(c);", dtypes[d], shapes[s], kinds[kd]);
        plan p = plan_spec(src, 0);
        const lower_kernel *k = only_kernel(&p);
        assert_true(k->bytewise);
        assert_true(k->one_pass);
        plan_free(&p);
      }
}

/* K_count nests every loop but the innermost, whose byte row it counts whole;
   computed truths take every loop. */
static void test_lower_counts_byte_rows_whole_and_computed_truths_one_by_one(void **state) {
  (void)state;
  plan p = plan_spec("kernel b(c: bool[A,B,C]) = nonzero(c);\n"
                     "kernel v(c: float[A,B,C]) = nonzero(c);\n"
                     "kernel s(c: bool[]) = argwhere(c);\n", 0);
  assert_int_equal(p.lp->kernels[0].count_loops, 2);
  assert_int_equal(p.lp->kernels[1].count_loops, 3);
  assert_int_equal(p.lp->kernels[2].count_loops, 0);
  plan_free(&p);
}

/* A correctly rounded function per element makes a kernel compute-bound (the
   whole target's vectors, AVX-512 kept); selects, arithmetic, a function
   computed once per call or per row, and coordinates stay memory-bound. */
static void test_lower_keeps_wide_vectors_for_a_correctly_rounded_function_per_element(
    void **state) {
  (void)state;
  plan p = plan_spec("kernel e(x: float[N]) = exp(x);\n"
                     "kernel silu(x: float[N,C]) = x * sigmoid(x);\n"
                     "kernel h(x: float16[N], y: float16[N]) = where(x > y, pow(x, y), y);\n"
                     "kernel multi(x: float[N]) -> (y, t) { let t = tanh(x); y = x * t; }\n"
                     "kernel relu(x: float[N]) = where(x < 0, 0, x);\n"
                     "kernel div(x: double[N], y: double[N]) = x / sqrt(y);\n"
                     "kernel row(x: float[N,C], s: float[N,1]) = x * exp(s);\n"
                     "kernel once(x: float[N], s: float[]) = x * exp(s);\n"
                     "kernel coords(x: float[N]) = argwhere(exp(x) > 2);\n", 0);
  for (int i = 0; i < 4; i++) assert_true(p.lp->kernels[i].compute_bound);
  for (int i = 4; i < 9; i++) assert_false(p.lp->kernels[i].compute_bound);
  plan_free(&p);
}

static void test_lower_reads_a_byte_input_broadcast_along_outer_loops_in_place(void **state) {
  (void)state;
  /* d makes the value's shape [N, M]: c's rows repeat, each one contiguous */
  plan p = plan_spec("kernel k(c: bool[1,M], d: bool[N,M]) = argwhere(c);", 0);
  const lower_kernel *k = only_kernel(&p);
  assert_int_equal(k->n_loops, 2);
  assert_false(runs(k, 0, 0));
  assert_true(k->bytewise);
  assert_true(k->one_pass);
  plan_free(&p);
}

/* nonzero's one pass reads its input as the whole output, contiguous: a byte
   input broadcast along an outer loop (an unused parameter makes the output
   larger) is counted, then filled, row by row; reading it in one pass read
   past its end. */
static void test_lower_counts_then_fills_nonzero_of_a_byte_input_smaller_than_the_output(
    void **state) {
  (void)state;
  plan p = plan_spec("kernel k(c: uint8[1,M], d: bool[N,M]) = nonzero(c);", 0);
  const lower_kernel *k = only_kernel(&p);
  assert_true(k->bytewise);
  assert_false(k->one_pass);
  plan_free(&p);
}

static void test_lower_computes_truth_bytes_of_other_values(void **state) {
  (void)state;
  static const char *const specs[] = {
      "kernel k(c: int16[N]) = nonzero(c);",                  /* 2-byte elements */
      "kernel k(c: float[N,3]) = argwhere(c);",               /* 4-byte elements */
      "kernel k(c: uint8[N]) = argwhere(c > 0);",             /* a computed value */
      "kernel k(c: bool[N,M]) = nonzero(!c);",                /* a computed bool */
      "kernel k(c: bool[N,1], d: bool[N,M]) = argwhere(c);",  /* broadcast along rows */
      "kernel k(c: int8[N,1], d: bool[N,M]) = nonzero(c);",   /* likewise */
      "kernel k(c: bool[]) = argwhere(c);",                   /* a scalar: no rows */
      "kernel k(c: uint8[]) = nonzero(c);",
      "kernel k(c: bool[N], x: bool[N], y: bool[N]) = where(c, x, y);", /* not coordinates */
  };
  for (size_t i = 0; i < sizeof specs / sizeof *specs; i++) {
    plan p = plan_spec(specs[i], 0);
    const lower_kernel *k = only_kernel(&p);
    assert_false(k->bytewise);
    assert_false(k->one_pass);
    plan_free(&p);
  }
}

/* A let read by two outputs is one node; each output names its node, and the
   kernel is planned for several outputs (every value a local: no straight-line
   code, row select or streaming, however small and fixed). */
static void test_lower_computes_a_let_once_and_stores_each_output(void **state) {
  (void)state;
  plan p = plan_spec("kernel hs(x: float[2,3]) -> (y, t) { let t = x + 3.0; y = x * t * t; }", 0);
  const lower_kernel *k = only_kernel(&p);
  int                 adds = 0;
  for (int i = 0; i < k->n_nodes; i++) adds += k->nodes[i].ins.op == WC_OP_ADD;
  assert_int_equal(adds, 1);
  assert_int_equal(k->n_outputs, 2);
  assert_int_equal(k->out_node[0], k->n_nodes - 1);
  assert_int_equal(k->nodes[k->out_node[1]].ins.op, WC_OP_ADD);
  assert_string_equal(k->out_ident[0], "y");
  assert_string_equal(k->out_ident[1], "t");
  assert_true(k->multi);
  assert_false(k->straight);
  assert_false(k->row_select.enabled);
  assert_false(k->streams);
  plan_free(&p);
}

/* One output written as a body is the one-expression kernel: its value the
   last node, stored through `out`, planned as before. */
static void test_lower_plans_a_body_of_one_output_as_one_expression(void **state) {
  (void)state;
  plan p = plan_spec("kernel k(x: float[2,3]) -> (out) { let t = x + 3.0; out = t * t; }", 0);
  const lower_kernel *k = only_kernel(&p);
  assert_int_equal(k->n_outputs, 1);
  assert_int_equal(k->out_node[0], k->n_nodes - 1);
  assert_false(k->multi);
  assert_true(k->straight);
  plan_free(&p);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_lower_coalesces_dims_where_every_operand_is_full),
    cmocka_unit_test(test_lower_coalesces_adjacent_dims_with_the_same_broadcast_status),
    cmocka_unit_test(test_lower_keeps_dims_apart_where_broadcast_status_changes),
    cmocka_unit_test(test_lower_coalesces_symbolic_with_fixed_dims),
    cmocka_unit_test(test_lower_drops_dims_of_extent_one_before_coalescing),
    cmocka_unit_test(test_lower_gives_a_single_element_kernel_one_loop_of_one),
    cmocka_unit_test(test_lower_classes_each_operand_contiguous_broadcast_or_scalar),
    cmocka_unit_test(test_lower_marks_a_row_broadcast_operand_contiguous_but_not_along_rows),
    cmocka_unit_test(test_lower_marks_an_operand_broadcast_along_the_inner_loop_not_contiguous),
    cmocka_unit_test(test_lower_shares_common_subexpressions),
    cmocka_unit_test(test_lower_puts_each_value_at_the_level_it_varies_at),
    cmocka_unit_test(test_lower_hoists_literals_to_the_kernel_level),
    cmocka_unit_test(test_lower_turns_bitwise_operators_on_bool_into_logic),
    cmocka_unit_test(test_lower_gives_each_new_operator_its_opcode),
    cmocka_unit_test(test_lower_drops_a_cast_to_the_same_dtype),
    cmocka_unit_test(test_lower_selects_whole_rows_when_the_condition_is_per_row),
    cmocka_unit_test(test_lower_selects_per_element_when_a_branch_is_computed),
    cmocka_unit_test(test_lower_selects_per_element_when_the_condition_varies_along_the_row),
    cmocka_unit_test(test_lower_unrolls_once_by_default),
    cmocka_unit_test(test_lower_takes_the_unroll_option_of_the_spec),
    cmocka_unit_test(test_lower_lets_the_unroll_argument_override_the_spec),
    cmocka_unit_test(test_lower_bounds_the_unroll_factor_by_the_work_of_the_body),
    cmocka_unit_test(test_lower_never_unrolls_below_one),
    cmocka_unit_test(test_lower_shares_the_unroll_budget_of_a_spec_in_declaration_order),
    cmocka_unit_test(test_lower_takes_straight_line_code_from_the_budget_of_a_spec),
    cmocka_unit_test(test_lower_redoes_float_blocks_with_nans_pinned),
    cmocka_unit_test(test_lower_takes_raw_functions_checked_in_float_blocks),
    cmocka_unit_test(test_lower_writes_a_small_fixed_kernel_as_straight_line_code),
    cmocka_unit_test(test_lower_gives_scalar_operands_of_straight_line_code_offset_zero),
    cmocka_unit_test(test_lower_cuts_straight_line_code_off_past_its_element_count),
    cmocka_unit_test(test_lower_cuts_straight_line_code_off_past_its_work),
    cmocka_unit_test(test_lower_loops_over_symbolic_and_empty_kernels),
    cmocka_unit_test(test_lower_marks_a_kernel_empty_whatever_its_symbolic_extents),
    cmocka_unit_test(test_lower_counts_byte_rows_whole_and_computed_truths_one_by_one),
    cmocka_unit_test(test_lower_keeps_wide_vectors_for_a_correctly_rounded_function_per_element),
    cmocka_unit_test(test_lower_streams_a_where_of_three_full_operands),
    cmocka_unit_test(test_lower_does_not_stream_a_kernel_reading_one_full_input),
    cmocka_unit_test(test_lower_counts_only_inputs_that_run_along_every_loop),
    cmocka_unit_test(test_lower_does_not_count_unused_inputs_for_streaming),
    cmocka_unit_test(test_lower_streams_a_row_select_that_copies_rows),
    cmocka_unit_test(test_lower_does_not_stream_empty_kernels),
    cmocka_unit_test(test_lower_streams_computed_rows_from_the_computed_rows_threshold),
    cmocka_unit_test(test_lower_streams_rows_copied_whole_from_the_copy_threshold),
    cmocka_unit_test(test_lower_gives_no_stream_threshold_to_kernels_that_do_not_stream),
    cmocka_unit_test(test_lower_out_shape_is_the_broadcast_of_every_parameter),
    cmocka_unit_test(test_lower_out_shape_of_where_v1_is_the_shape_of_x),
    cmocka_unit_test(test_lower_out_shape_of_coordinates_is_the_shape_of_the_value),
    cmocka_unit_test(test_lower_out_shape_refuses_parameters_that_do_not_broadcast),
    cmocka_unit_test(test_lower_runs_a_where_v1_vector_condition_along_the_first_dim),
    cmocka_unit_test(test_lower_coalesces_a_where_v1_condition_of_the_shape_of_x),
    cmocka_unit_test(test_lower_treats_a_scalar_where_v1_as_one_element),
    cmocka_unit_test(test_lower_loops_over_every_dim_of_a_coordinate_kernel),
    cmocka_unit_test(test_lower_never_writes_coordinates_as_straight_line_code),
    cmocka_unit_test(test_lower_computes_the_value_whose_coordinates_are_listed),
    cmocka_unit_test(test_lower_gives_a_scalar_coordinate_kernel_no_loops),
    cmocka_unit_test(test_lower_reads_a_contiguous_byte_input_in_place_in_one_pass),
    cmocka_unit_test(test_lower_counts_then_fills_nonzero_of_a_byte_input_smaller_than_the_output),
    cmocka_unit_test(test_lower_reads_a_byte_input_broadcast_along_outer_loops_in_place),
    cmocka_unit_test(test_lower_computes_truth_bytes_of_other_values),
    cmocka_unit_test(test_lower_computes_a_let_once_and_stores_each_output),
    cmocka_unit_test(test_lower_plans_a_body_of_one_output_as_one_expression),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
