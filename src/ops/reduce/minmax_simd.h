/* The float32 max/min kernels written for AVX-512 (minmax_avx512.c); minmax.c calls them when
   ct__math_simd() says the CPU has it, and its generic kernels otherwise. */
#ifndef CTORCH_OPS_REDUCE_MINMAX_SIMD_H
#define CTORCH_OPS_REDUCE_MINMAX_SIMD_H

#include <math.h>
#include <stdint.h>

#include "kernels/cpu/math_simd.h"

#if CT_MATH_X86
/* The extreme of n contiguous floats (n >= 0; -inf / inf for none), NaN if any is NaN. */
float ct__vmax_f32_avx512(const float *x, int64_t n);
float ct__vmin_f32_avx512(const float *x, int64_t n);
#endif

#endif
