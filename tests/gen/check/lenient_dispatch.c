/* lenient_dispatch.c: a dispatcher with a hole, for testing the check harness:
   linked with --wrap=wc_run,--wrap=wc_prepare, it reports the specialized path when
   the fixed extents fit even though a symbolic extent is bound two ways. */
#include <wherec/wherec.h>

wc_status __real_wc_run(const wc_kernel_table *table, const char *kernel, const wc_tensor *inputs,
                        int n_inputs, wc_tensor *out, wc_path *path);
wc_status __real_wc_prepare(const wc_kernel_table *table, const char *kernel,
                            const wc_tensor *inputs, int n_inputs, const wc_tensor *out,
                            wc_plan *plan);
wc_status __wrap_wc_run(const wc_kernel_table *table, const char *kernel, const wc_tensor *inputs,
                        int n_inputs, wc_tensor *out, wc_path *path);
wc_status __wrap_wc_prepare(const wc_kernel_table *table, const char *kernel,
                            const wc_tensor *inputs, int n_inputs, const wc_tensor *out,
                            wc_plan *plan);

/* The binding without its check of symbolic extents: fixed extents only. */
static int fixed_fit(const wc_kernel *k, const wc_tensor *in) {
  for (int i = 0; i < k->n_inputs; i++) {
    const wc_param *p = &k->inputs[i];
    int             r = p->rank > in[i].rank ? p->rank : in[i].rank;
    for (int j = 0; j < r; j++) {
      int     pd = p->rank - 1 - j, ad = in[i].rank - 1 - j;
      int64_t pe = pd >= 0 ? p->dims[pd] : 1, ae = ad >= 0 ? in[i].shape[ad] : 1;
      if (pe >= 0 && pe != ae) return 0;
    }
  }
  return 1;
}

/* The right bytes (the interpreter ran), the wrong path reported. */
wc_status __wrap_wc_run(const wc_kernel_table *table, const char *kernel, const wc_tensor *inputs,
                        int n_inputs, wc_tensor *out, wc_path *path) {
  wc_status        s = __real_wc_run(table, kernel, inputs, n_inputs, out, path);
  const wc_kernel *k = wc_find_kernel(table, kernel);
  if (s == WC_OK && path && *path == WC_PATH_INTERPRETED && fixed_fit(k, inputs))
    *path = WC_PATH_SPECIALIZED;
  return s;
}

wc_status __wrap_wc_prepare(const wc_kernel_table *table, const char *kernel,
                            const wc_tensor *inputs, int n_inputs, const wc_tensor *out,
                            wc_plan *plan) {
  wc_status s = __real_wc_prepare(table, kernel, inputs, n_inputs, out, plan);
  if (s == WC_OK && plan->path == WC_PATH_INTERPRETED && fixed_fit(plan->kernel, inputs))
    plan->path = WC_PATH_SPECIALIZED;
  return s;
}
