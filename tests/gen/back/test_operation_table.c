/* test_operation_table.c: the layers agree on the operation table: for every
   operation the spec can write and every dtype, sema accepts it exactly when the
   runtime's table checks accept its lowered program and the interpreter runs it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <wherec/wherec.h>

#include "back/lower.h"
#include "front/parse.h"
#include "front/sema.h"

enum { N = 19 }; /* elements per operand: not a multiple of any block */

/* The spec text of one operation of the table on operands of dtype t, as its
   form is written: a + b, -a, min(a, b), where(c, a, b), row_sum(a). */
static bool spec_of(wc_opcode op, wc_dtype t, const char *spelling, const char *form, char *buf,
                    size_t cap) {
  const char *name = wc_dtype_name(t);
  int         n;
  if (strcmp(form, "INFIX") == 0)
    n = snprintf(buf, cap, "kernel k(a: %s[%d], b: %s[%d]) = a %s b;", name, N, name, N, spelling);
  else if (strcmp(form, "PREFIX") == 0)
    n = snprintf(buf, cap, "kernel k(a: %s[%d]) = %sa;", name, N, spelling);
  else if (strcmp(form, "SELECT") == 0)
    n = snprintf(buf, cap, "kernel k(c: bool[%d], a: %s[%d], b: %s[%d]) = %s(c, a, b);", N, name,
                 N, name, N, spelling);
  else if (strcmp(form, "REDUCE") == 0)
    n = snprintf(buf, cap, "kernel k(a: %s[%d]) = %s(a);", name, N, spelling);
  else if (strcmp(form, "CALL") == 0 && wc_op_arity(op) == 1)
    n = snprintf(buf, cap, "kernel k(a: %s[%d]) = %s(a);", name, N, spelling);
  else if (strcmp(form, "CALL") == 0)
    n = snprintf(buf, cap, "kernel k(a: %s[%d], b: %s[%d]) = %s(a, b);", name, N, name, N,
                 spelling);
  else return false; /* leaves and casts have rules of their own */
  return n > 0 && (size_t)n < cap;
}

/* The lowered program of the spec's one kernel, as a kernel the runtime can
   check and interpret (the generated table carries the same program). */
typedef struct lowered {
  wc_kernel      k;
  wc_param       params[3];
  int64_t        dims[3][1];
  int64_t        out_dims[1];
  wc_instr      *program;
  lower_program *lp;
  sema_program  *sp;
} lowered;

static bool lower_spec_text(const char *src, lowered *out) {
  diag_ctx  d;
  ast_file *f;
  diag_init(&d, "t.where", src, strlen(src), NULL);
  f = parse_source(src, strlen(src), &d);
  assert_non_null(f);
  out->sp = sema_check(f, &d);
  ast_file_free(f);
  diag_free(&d);
  if (out->sp == NULL) return false;
  out->lp = lower_spec(out->sp, 0);
  assert_non_null(out->lp);
  const lower_kernel *lk = &out->lp->kernels[0];
  const sema_kernel  *sk = lk->sk;
  memset(&out->k, 0, sizeof out->k);
  out->program = calloc((size_t)lk->n_nodes, sizeof *out->program);
  assert_non_null(out->program);
  for (int i = 0; i < lk->n_nodes; i++) out->program[i] = lk->nodes[i].ins;
  for (int p = 0; p < sk->n_params; p++) {
    out->dims[p][0] = N;
    out->params[p] = (wc_param){sk->params[p].name, sk->params[p].dtype, 1, out->dims[p], NULL};
  }
  out->out_dims[0] = N;
  out->k = (wc_kernel){.name = "k",
                       .kind = WC_KIND_ELEMENTWISE,
                       .n_inputs = sk->n_params,
                       .inputs = out->params,
                       .out_dtype = sk->out_dtype,
                       .out_rank = 1,
                       .out_dims = out->out_dims,
                       .n_instrs = lk->n_nodes,
                       .program = out->program};
  return true;
}

static void lowered_free(lowered *l) {
  free(l->program);
  lower_free(l->lp);
  sema_free(l->sp);
}

/* Runs k twice over outputs filled with two canaries: true when the runtime
   accepted it and the interpreter wrote every output byte (the runs agree). */
static bool interpreter_runs(const wc_kernel *k) {
  unsigned char in_bytes[3][N * 16], out_bytes[2][N * 16];
  wc_tensor     in[3], out[2];
  for (int p = 0; p < k->n_inputs; p++) {
    for (size_t b = 0; b < sizeof in_bytes[p]; b++) in_bytes[p][b] = (unsigned char)(b * 37 + p);
    in[p] = (wc_tensor){k->inputs[p].dtype, 1, {N}, in_bytes[p]};
  }
  for (int p = 0; p < k->n_inputs; p++) /* strings are pointers: give them real ones */
    if (k->inputs[p].dtype == WC_STRING)
      for (int i = 0; i < N; i++) ((const char **)(void *)in_bytes[p])[i] = (i + p) % 3 ? "a" : "";
  for (int run = 0; run < 2; run++) {
    memset(out_bytes[run], run ? 0x5a : 0xa5, sizeof out_bytes[run]);
    out[run] = (wc_tensor){k->out_dtype, 1, {N}, out_bytes[run]};
    if (wc_interpret(k, in, k->n_inputs, &out[run]) != WC_OK) return false;
  }
  return memcmp(out_bytes[0], out_bytes[1], N * wc_dtype_size(k->out_dtype)) == 0;
}

/* Every (operation, dtype) pair: sema's verdict, the runtime's (its table
   checks and the interpreter, on the program lowering made) and the table's
   own (wc_op_defined) are one. On bool, & | ^ lower to && || != (on_bool). */
static void test_sema_validate_and_interpreter_accept_the_same_operation_dtype_pairs(
    void **state) {
  (void)state;
  static const wc_dtype all[] = {
#define X(E, code, name, T, alias, sfx, kind) WC_##E,
      WC_DTYPE_LIST(X)
#undef X
  };
  struct row {
    wc_opcode   op;
    const char *spelling, *form;
  } rows[] = {
#define X(NAME, spell, arity, dom, res, form, helper, on_bool) {WC_OP_##NAME, spell, #form},
      WC_OP_LIST(X)
#undef X
  };
  int pairs = 0, accepted = 0;
  for (size_t r = 0; r < sizeof rows / sizeof *rows; r++)
    for (size_t i = 0; i < sizeof all / sizeof *all; i++) {
      char      src[256];
      wc_opcode op = rows[r].op;
      wc_dtype  t = all[i];
      if (!spec_of(op, t, rows[r].spelling, rows[r].form, src, sizeof src)) continue;
      pairs++;
      lowered   l;
      bool      sema_ok = lower_spec_text(src, &l);
      wc_opcode want = op;
      if (t == WC_BOOL && ast_op_on_bool(op) != WC_OP_NONE) want = ast_op_on_bool(op);
      if (sema_ok != wc_op_defined(want, t))
        fail_msg("%s: sema %s, the table says %s", src, sema_ok ? "accepts" : "refuses",
                 wc_op_defined(want, t) ? "defined" : "undefined");
      if (!sema_ok) {
        /* the runtime refuses the same pair, as a program written by hand */
        wc_param p[3] = {{"c", WC_BOOL, 0, NULL, NULL}, {"a", t, 0, NULL, NULL}, {"b", t, 0, NULL, NULL}};
        wc_instr prog[4] = {{WC_OP_INPUT, WC_BOOL, 0, 0, 0, {0, 0}},
                            {WC_OP_INPUT, (uint8_t)t, 1, 0, 0, {0, 0}},
                            {WC_OP_INPUT, (uint8_t)t, 2, 0, 0, {0, 0}},
                            {(uint8_t)op, (uint8_t)(wc_op_gives_bool(op) ? WC_BOOL : t),
                             op == WC_OP_WHERE ? 0 : 1, 2, 2, {0, 0}}};
        int64_t  none[1] = {0};
        wc_kernel k = {.name = "k",
                       .kind = WC_KIND_ELEMENTWISE,
                       .n_inputs = 3,
                       .inputs = p,
                       .out_dtype = (wc_dtype)prog[3].dtype,
                       .out_dims = none,
                       .n_instrs = 4,
                       .program = prog};
        wc_tensor in[3] = {{WC_BOOL, 0, {0}, none}, {t, 0, {0}, none}, {t, 0, {0}, none}};
        int64_t   out_bits[2] = {0, 0};
        wc_tensor out = {k.out_dtype, 0, {0}, out_bits};
        if (wc_interpret(&k, in, 3, &out) != WC_E_ARG)
          fail_msg("%s: sema refuses it, the runtime runs it", src);
        continue;
      }
      accepted++;
      const wc_instr *top = &l.program[l.k.n_instrs - 1];
      assert_int_equal(top->op, want);
      if (!interpreter_runs(&l.k)) fail_msg("%s: sema accepts it, the runtime does not run it", src);
      lowered_free(&l);
    }
  assert_true(pairs > 16 * 30);
  assert_true(accepted > 100);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_sema_validate_and_interpreter_accept_the_same_operation_dtype_pairs),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
