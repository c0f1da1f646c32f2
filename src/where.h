/* where.h: what the kernel runner (run.c) takes from the generic Where
   (where.c): the tf.compat.v1.where rules, for kernels of that kind. */
#ifndef WHEREC_SRC_WHERE_H
#define WHEREC_SRC_WHERE_H

#include <wherec/wherec.h>

/* The shape rules of tf.compat.v1.where (and the operand checks of wc_where). */
wc_status wc__where_v1_check(const wc_tensor *cond, const wc_tensor *x, const wc_tensor *y,
                             const wc_tensor *out);
/* Runs tf.compat.v1.where on operands that passed wc__where_v1_check. */
void wc__where_v1_run(const wc_tensor *cond, const wc_tensor *x, const wc_tensor *y,
                      wc_tensor *out);

#endif
