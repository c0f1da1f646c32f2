/* threads.c: the gen_2thr column: the case's kernel through wc_run with a
   2-thread pool installed by wc_set_parallel, as a host runtime would split it. */
#include <errno.h>

#include "bench.h"
#include "run/pool.h"

/* The runtime splits a call of at least WC_PARALLEL_MIN_BYTES of output into
   tasks of P_K_range over disjoint, line-aligned ranges of the flat output
   and hands them to the hook (here the pool of gen/run/pool.c: the calling
   thread and a worker take tasks from a counter); smaller calls stay serial.
   The pool lives across calls, as a runtime's does; the hook is installed for
   this column's calls only, so the other columns stay serial. */
static pool *pools[THREADS_MAX + 1];

int threads_run(const wc_kernel_table *table, const char *kernel, const wc_tensor *in, int n_in,
                wc_tensor *out, int n_threads) {
  wc_path   path;
  wc_status s;
  if (n_threads < 1 || n_threads > THREADS_MAX) return EINVAL;
  if (pools[n_threads] == NULL && (pools[n_threads] = pool_create(n_threads)) == NULL) return EAGAIN;
  wc_set_parallel(pool_parallel, pools[n_threads]);
  s = wc_run(table, kernel, in, n_in, out, &path);
  wc_set_parallel(NULL, NULL);
  return s != WC_OK || path != WC_PATH_SPECIALIZED ? EINVAL : 0;
}
