/* Complex loops of the arithmetic core (arith_cx.c), reproducing torch 1.13's AVX2 forms element by
   element. add's loop context holds alpha (negated for sub) as the loop's complex type. */
#ifndef CTORCH_OPS_ARITH_CX_H
#define CTORCH_OPS_ARITH_CX_H

#include <stdint.h>

void ct__cmul_c64(char **d, const int64_t *s, int64_t n, const void *ctx);
void ct__cmul_c128(char **d, const int64_t *s, int64_t n, const void *ctx);
void ct__cadd_c64(char **d, const int64_t *s, int64_t n, const void *ctx);
void ct__cadd_c128(char **d, const int64_t *s, int64_t n, const void *ctx);

#endif
