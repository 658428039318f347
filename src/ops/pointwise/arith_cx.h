/* Complex loops of the arithmetic core (arith_cx.c), reproducing torch 1.13's AVX2 forms element by
   element. add's loop context holds alpha (negated for sub) as the loop's complex type. */
#ifndef CTORCH_OPS_ARITH_CX_H
#define CTORCH_OPS_ARITH_CX_H

#include "iter/iter.h"

/* their descriptors (CT_LOOP_REF(ct__cmul_c64), ...) */
CT_LOOP_EXTERN(ct__cmul_c64)
CT_LOOP_EXTERN(ct__cmul_c128)
CT_LOOP_EXTERN(ct__cadd_c64)
CT_LOOP_EXTERN(ct__cadd_c128)

#endif
