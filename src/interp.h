/* interp.h: the generic interpreter (interp.c), which the kernel runner
   (run.c) falls back to when shapes do not fit a kernel's pattern. */
#ifndef WHEREC_SRC_INTERP_H
#define WHEREC_SRC_INTERP_H

#include <wherec/wherec.h>

/* Runs an elementwise kernel's program by interpretation; inputs and out
   already checked (dtypes, broadcast shape). */
wc_status wc__interp_elementwise(const wc_kernel *k, const wc_tensor *in, wc_tensor *out);
/* The same for the n_out outputs of a kernel (outs[0] as out above; every
   output of its shape and of its instruction's dtype, checked). */
wc_status wc__interp_outputs(const wc_kernel *k, const wc_tensor *in, wc_tensor *outs, int n_out);

#endif
