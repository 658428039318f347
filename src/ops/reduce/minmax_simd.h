/* The float32 max/min kernels written for AVX-512 (minmax_avx512.c) and AVX2 (minmax_avx2.c); minmax.c
   calls them when ct__cpu_isa() says the CPU has that ISA, and its generic kernels otherwise. */
#ifndef CTORCH_OPS_REDUCE_MINMAX_SIMD_H
#define CTORCH_OPS_REDUCE_MINMAX_SIMD_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>

#include "kernels/cpu/math_simd.h"

/* The end of a float32 max / min kernel in the generic order: the merged 16 lanes in order, then the
   elements x[k, n) in order ("x over r" where x is greater, for max; smaller, for min); NaN when nan or a
   later element is NaN. */
static inline float ct__vext_finish(const float *lanes, const float *x, int64_t k, int64_t n, bool nan,
                                    bool max) {
  float r = lanes[0];
  for (int j = 0; j < 16; j++)
    if (max ? lanes[j] > r : lanes[j] < r) r = lanes[j];
  for (; k < n; k++) {
    nan |= x[k] != x[k];
    if (max ? x[k] > r : x[k] < r) r = x[k];
  }
  return nan ? NAN : r;
}

/* The end of a float32 arg-extreme kernel, the lanes merged into (best, bi) over x[0, k): the rest
   element by element (max: a later element replaces the extreme when greater, else when smaller);
   a NaN anywhere (nan: among the first k): the first NaN. The index; the value in *val. */
static inline int64_t ct__varg_finish(const float *x, int64_t n, int64_t k, bool nan, float best, int64_t bi,
                                      float *val, bool max) {
  for (; k < n && !nan; k++) {
    if (x[k] != x[k]) nan = true;
    if (max ? x[k] > best : x[k] < best) best = x[k], bi = k;
  }
  if (nan) {
    for (int64_t i = 0; i < n; i++)
      if (x[i] != x[i]) {
        *val = x[i];
        return i;
      }
  }
  *val = best;
  return bi;
}

#if CT_ISA_X86
/* The extreme of n contiguous floats (n >= 0; -inf / inf for none), NaN if any is NaN. */
float ct__vmax_f32_avx512(const float *x, int64_t n);
float ct__vmin_f32_avx512(const float *x, int64_t n);
/* The same with AVX2 (minmax_avx2.c), the same bits as the generic kernels; and the first extreme's
   index (n < 2^31; the first NaN if any), its value in *val. */
float ct__vmax_f32_avx2(const float *x, int64_t n);
float ct__vmin_f32_avx2(const float *x, int64_t n);
int64_t ct__vargmax_f32_avx2(const float *x, int64_t n, float *val);
int64_t ct__vargmin_f32_avx2(const float *x, int64_t n, float *val);
#endif

#endif
