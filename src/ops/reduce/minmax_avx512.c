/* float32 max and min of a contiguous run with AVX-512 instructions. vmaxps/vminps keep the running
   extreme (x > m ? x : m, as the generic kernels in minmax.c compute it, in their order), and one
   unordered compare finds a NaN in two vectors at once. The generic kernels spend a compare, a blend and a NaN test on each
   vector, which on data in cache runs at about 60% of this speed. */
#include "ops/reduce/minmax_simd.h"

#if CT_ISA_X86

#define UNORD(a, b) _mm512_cmp_ps_mask(a, b, _CMP_UNORD_Q)

/* The generic kernels' order, as minmax_avx2.c keeps it: four 16-lane accumulators over blocks of 64, merged
   m0 <- (m1 over m0), m2 <- (m3 over m2), m0 <- (m2 over m0), then the 16 lanes in order, then the elements
   after the last block in order. Where x and m are equal (-0 and +0 among them) "x over m" keeps m, so which
   zero comes out depends on this order. */
#define DEF_EXT512(NAME, VOP, MAX, INIT)                                       \
  CT_TARGET_AVX512 float NAME(const float *x, int64_t n) {                     \
    const __m512 init = _mm512_set1_ps(INIT);                                  \
    __m512 m0 = init, m1 = init, m2 = init, m3 = init;                         \
    __mmask16 nan = 0;                                                         \
    int64_t k = 0;                                                             \
    for (; k + 64 <= n; k += 64) {                                             \
      __m512 a = _mm512_loadu_ps(x + k), b = _mm512_loadu_ps(x + k + 16);      \
      __m512 c = _mm512_loadu_ps(x + k + 32), d = _mm512_loadu_ps(x + k + 48); \
      nan |= UNORD(a, b) | UNORD(c, d);                                        \
      m0 = VOP(a, m0), m1 = VOP(b, m1), m2 = VOP(c, m2), m3 = VOP(d, m3);      \
    }                                                                          \
    m0 = VOP(m1, m0);                                                          \
    m2 = VOP(m3, m2);                                                          \
    m0 = VOP(m2, m0);                                                          \
    float lanes[16];                                                           \
    _mm512_storeu_ps(lanes, m0);                                               \
    return ct__vext_finish(lanes, x, k, n, nan != 0, MAX);                     \
  }
DEF_EXT512(ct__vmax_f32_avx512, _mm512_max_ps, true, -INFINITY)
DEF_EXT512(ct__vmin_f32_avx512, _mm512_min_ps, false, INFINITY)

#endif
