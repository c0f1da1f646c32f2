/* test_where_index.c: the registry's index of plain-where kernels (src/registry.c):
   built from the built-in table's parameters, whatever their order, and race-free. */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <cmocka.h>

#include "registry.h"
#include "testlib.h"
#include "wc_builtin.h"

/* One dtype per index width: where moves bits, so these stand for all. */
static const wc_dtype width_dtype[WC_WHERE_WIDTHS] = {WC_UINT8, WC_UINT16, WC_FLOAT, WC_DOUBLE,
                                                      WC_COMPLEX128};
static const int64_t dim_extent[2] = {3, 5};          /* distinct: a swapped extent shows */

/* Operands c, x, y and out of rank `rank` where operand k varies along dim d
   when bit 3d + k of `bits` is set (extent dim_extent[d]), else has extent 1. */
static void make_operands(int rank, int bits, wc_dtype dt, wc_tensor t[4]) {
  int64_t shape[3][WC_MAX_RANK], out[WC_MAX_RANK];
  tl_rng rng = {(uint64_t)bits + 1};
  for (int d = 0; d < rank; d++) {
    out[d] = 1;
    for (int k = 0; k < 3; k++) {
      shape[k][d] = (bits >> (3 * d + k)) & 1 ? dim_extent[d] : 1;
      if (shape[k][d] > 1) out[d] = shape[k][d];
    }
  }
  for (int k = 0; k < 3; k++) {
    t[k] = tl_alloc(k == 0 ? WC_BOOL : dt, rank, shape[k]);
    tl_fill(&rng, &t[k], 0.5);
  }
  t[3] = tl_alloc(dt, rank, out);
}

/* Checks that entry e, found for plan L, is a plain where whose parameters
   bind to the plan's shapes with the extents e passes. */
static void assert_entry_serves(const wc_where_entry *e, const wc_loop *L, size_t width) {
  const wc_kernel *k = e->k;
  wc_tensor in[3];
  size_t ext[WC_MAX_OPERANDS * WC_MAX_RANK];
  assert_int_equal(k->kind, WC_KIND_ELEMENTWISE);
  assert_int_equal(k->n_inputs, 3);
  assert_int_equal(wc_dtype_size(k->out_dtype), width);
  assert_true(e->range == k->range);
  const wc_instr *top = &k->program[k->n_instrs - 1];
  assert_int_equal(top->op, WC_OP_WHERE);
  assert_int_equal(k->program[top->a].a, e->in[0]);
  assert_int_equal(k->program[top->b].a, e->in[1]);
  assert_int_equal(k->program[top->c].a, e->in[2]);
  for (int o = 0; o < 3; o++) {
    in[e->in[o]].rank = L->rank;
    for (int d = 0; d < L->rank; d++)
      in[e->in[o]].shape[d] = L->stride[o][d] ? L->extent[d] : 1;
  }
  assert_true(wc__kernel_bind(k, in, ext));
  for (int s = 0; s < k->n_extents; s++)
    assert_int_equal(ext[s], L->extent[e->ext_dim[s]]);
}

/* Every signature of rank 1 and 2 at every width: what the index claims is
   served by a kernel whose parameters fit, and wc_where matches the reference. */
static void test_every_indexed_pattern_and_width_is_served_by_a_kernel_that_fits(void **state) {
  (void)state;
  const wc_where_index *ix = wc__where_builtin();
  assert_non_null(ix);
  for (int w = 0; w < WC_WHERE_WIDTHS; w++) {
    int served = 0;
    for (int rank = 1; rank <= 2; rank++)
      for (int bits = 0; bits < 1 << (3 * rank); bits++) {
        wc_tensor t[4];
        wc_loop L;
        make_operands(rank, bits, width_dtype[w], t);
        const wc_tensor *ops[4] = {&t[0], &t[1], &t[2], &t[3]};
        wc__loop_plan(&L, 4, ops, t[3].rank, t[3].shape);
        size_t width = wc_dtype_size(width_dtype[w]);
        const wc_where_entry *e = wc__where_index_find(ix, &L, width);
        if (e != NULL) {
          assert_entry_serves(e, &L, width);
          served++;
        }
        wc_tensor ref = tl_alloc(t[3].dtype, t[3].rank, t[3].shape);
        tl_assert_status(wc_where(&t[0], &t[1], &t[2], &t[3]), WC_OK);
        tl_assert_status(wc_ref_where(&t[0], &t[1], &t[2], &ref), WC_OK);
        assert_int_equal(tl_first_difference(t[3].dtype, t[3].data, ref.data,
                                             tl_count(t[3].rank, t[3].shape)), -1);
        tl_free(&ref);
        for (int k = 0; k < 4; k++) tl_free(&t[k]);
      }
    assert_true(served >= 7);                          /* the patterns of wc_builtin.where */
  }
}

/* Every plain-where kernel of the built-in table has a slot: a line added to
   wc_builtin.where is used without any change to the runtime. */
static void test_every_builtin_kernel_has_a_slot_in_the_index(void **state) {
  (void)state;
  const wc_where_index *ix = wc__where_builtin();
  assert_non_null(ix);
  for (int i = 0; i < wc_builtin_table.n_kernels; i++) {
    bool found = false;
    for (int key = 0; key < WC_WHERE_KEYS && !found; key++)
      for (int w = 0; w < WC_WHERE_WIDTHS && !found; w++)
        found = ix->slot[key][w].k == &wc_builtin_table.kernels[i];
    assert_true(found);
  }
}

/* The index of the built-in kernels taken in another order holds the same
   kernels in the same slots. */
static void assert_same_index_in_order(const int *order) {
  int n = wc_builtin_table.n_kernels;
  wc_kernel *kernels = malloc((size_t)n * sizeof *kernels);
  wc_where_index *ix = malloc(sizeof *ix);
  assert_non_null(kernels);
  assert_non_null(ix);
  for (int i = 0; i < n; i++) kernels[i] = wc_builtin_table.kernels[order[i]];
  wc_kernel_table t = {"shuffled", "test", n, kernels};
  wc__where_index_build(ix, &t);
  const wc_where_index *builtin = wc__where_builtin();
  for (int key = 0; key < WC_WHERE_KEYS; key++)
    for (int w = 0; w < WC_WHERE_WIDTHS; w++) {
      const wc_where_entry *a = &ix->slot[key][w], *b = &builtin->slot[key][w];
      assert_int_equal(a->k == NULL, b->k == NULL);
      if (a->k == NULL) continue;
      assert_string_equal(a->k->name, b->k->name);
      assert_memory_equal(a->in, b->in, sizeof a->in);
      assert_memory_equal(a->ext_dim, b->ext_dim, sizeof a->ext_dim);
      assert_int_equal(a->direct, b->direct);
    }
  free(ix);
  free(kernels);
}

static void test_the_index_does_not_depend_on_the_order_of_the_table(void **state) {
  (void)state;
  int n = wc_builtin_table.n_kernels, order[256] = {0};
  tl_rng rng = {2026};
  assert_true(n <= 256);
  for (int i = 0; i < n; i++) order[i] = n - 1 - i;     /* reversed */
  assert_same_index_in_order(order);
  for (int i = 0; i < n; i++) order[i] = i;
  for (int i = n - 1; i > 0; i--) {                      /* shuffled */
    int j = (int)tl_below(&rng, i + 1), s = order[i];
    order[i] = order[j];
    order[j] = s;
  }
  assert_same_index_in_order(order);
}

/* ---- first calls from several threads at once ---- */

#define RACE_THREADS 4
static pthread_barrier_t race_start;

/* Waits for the others, then runs a rows-pattern where and checks it. */
static void *race_where(void *arg) {
  wc_tensor t[4], ref;
  int ok = 1;
  make_operands(2, 0x37, width_dtype[(intptr_t)arg % WC_WHERE_WIDTHS], t);  /* rows */
  ref = tl_alloc(t[3].dtype, t[3].rank, t[3].shape);
  pthread_barrier_wait(&race_start);
  ok &= wc_where(&t[0], &t[1], &t[2], &t[3]) == WC_OK;
  ok &= wc_ref_where(&t[0], &t[1], &t[2], &ref) == WC_OK;
  ok &= tl_first_difference(t[3].dtype, t[3].data, ref.data, tl_count(t[3].rank, t[3].shape)) == -1;
  tl_free(&ref);
  for (int k = 0; k < 4; k++) tl_free(&t[k]);
  return ok ? arg : NULL;
}

/* Runs first in this process: the threads' calls are the index's first use. */
static void test_first_calls_from_several_threads_give_the_reference_result(void **state) {
  (void)state;
  pthread_t th[RACE_THREADS];
  assert_int_equal(pthread_barrier_init(&race_start, NULL, RACE_THREADS), 0);
  for (intptr_t i = 0; i < RACE_THREADS; i++)
    assert_int_equal(pthread_create(&th[i], NULL, race_where, (void *)(i + 1)), 0);
  for (intptr_t i = 0; i < RACE_THREADS; i++) {
    void *r;
    assert_int_equal(pthread_join(th[i], &r), 0);
    assert_ptr_equal(r, (void *)(i + 1));
  }
  pthread_barrier_destroy(&race_start);
  assert_non_null(wc__where_builtin());                  /* built by then */
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_first_calls_from_several_threads_give_the_reference_result),
    cmocka_unit_test(test_every_indexed_pattern_and_width_is_served_by_a_kernel_that_fits),
    cmocka_unit_test(test_every_builtin_kernel_has_a_slot_in_the_index),
    cmocka_unit_test(test_the_index_does_not_depend_on_the_order_of_the_table),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
