/* float32 max and min of a contiguous run with AVX-512 instructions. vmaxps/vminps keep the running
   extreme (x > m ? x : m, as the generic kernels in minmax.c compute it), and one unordered compare finds
   a NaN in two vectors at once. The generic kernels spend a compare, a blend and a NaN test on each
   vector, which on data in cache runs at about 60% of this speed. */
#include "ops/reduce/minmax_simd.h"

#if CT_ISA_X86

#define UNORD(a, b) _mm512_cmp_ps_mask(a, b, _CMP_UNORD_Q)

#define DEF_EXT512(NAME, VOP, VREDUCE, INIT)                                                                   \
  CT_TARGET_AVX512 float NAME(const float *x, int64_t n) {                                                     \
    const __m512 init = _mm512_set1_ps(INIT);                                                                  \
    __m512 m0 = init, m1 = init, m2 = init, m3 = init;                                                         \
    __mmask16 nan = 0;                                                                                         \
    int64_t k = 0;                                                                                             \
    for (; k + 64 <= n; k += 64) {                                                                             \
      __m512 a = _mm512_loadu_ps(x + k), b = _mm512_loadu_ps(x + k + 16);                                      \
      __m512 c = _mm512_loadu_ps(x + k + 32), d = _mm512_loadu_ps(x + k + 48);                                 \
      nan |= UNORD(a, b) | UNORD(c, d);                                                                        \
      m0 = VOP(a, m0), m1 = VOP(b, m1), m2 = VOP(c, m2), m3 = VOP(d, m3);                                      \
    }                                                                                                          \
    for (; k + 16 <= n; k += 16) {                                                                             \
      __m512 a = _mm512_loadu_ps(x + k);                                                                       \
      nan |= UNORD(a, a);                                                                                      \
      m0 = VOP(a, m0);                                                                                         \
    }                                                                                                          \
    if (k < n) {                                                                                               \
      __m512 a = _mm512_mask_loadu_ps(init, (__mmask16)((1u << (n - k)) - 1), x + k);                          \
      nan |= UNORD(a, a);                                                                                      \
      m0 = VOP(a, m0);                                                                                         \
    }                                                                                                          \
    if (nan) return NAN;                                                                                       \
    return VREDUCE(VOP(VOP(m0, m1), VOP(m2, m3)));                                                             \
  }
DEF_EXT512(ct__vmax_f32_avx512, _mm512_max_ps, _mm512_reduce_max_ps, -INFINITY)
DEF_EXT512(ct__vmin_f32_avx512, _mm512_min_ps, _mm512_reduce_min_ps, INFINITY)

#endif
