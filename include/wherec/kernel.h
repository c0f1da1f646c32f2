/* wherec/kernel.h: the ABI shared by generated kernels and the runtime.
   C99; generated code includes only this header (through its own header). */
#ifndef WHEREC_KERNEL_H
#define WHEREC_KERNEL_H

#include "dtypes.h"                                    /* WC_DTYPE_LIST, wc_dtype, element types */
#include "ops.h"                                       /* element operations */
#include "exp.h"                                       /* exp, correctly rounded */
#include "crmath.h"                                    /* log, tanh, sigmoid, erf, correctly rounded */
#include "pow.h"                                       /* pow, correctly rounded */
#include "hyperbolic.h"                                /* sinh, cosh, correctly rounded */
#include "trig.h"                                      /* sin, cos, tan, correctly rounded */
#include "inverse_trig.h"                              /* asin, acos, atan, correctly rounded */
#include "inverse_hyperbolic.h"                        /* asinh, acosh, atanh, correctly rounded */
#include "activations.h"                               /* expm1 selu softplus softsign silu mish, correctly rounded */
#include "gelu.h"                                      /* gelu, correctly rounded */
#include "gelu_tanh.h"                                 /* gelu_tanh, correctly rounded */
#include "loop.h"                                      /* blocks the compiler vectorizes */
#include "stream.h"                                    /* streaming stores */
#include "truth.h"                                     /* non-zero byte counts, masks, coordinates */
#include "operations.h"                                /* the operation table */
#include "rows.h"                                      /* row reductions: row_sum, row_max, ... */
#include "table.h"                                     /* wc_instr, wc_param, wc_kernel, tables */

#endif
