/* float32 max, min, argmax and argmin of a contiguous run with AVX2 instructions, for CPUs without
   AVX-512. The same computation as the generic kernels in minmax.c, lane for lane: their 16-lane
   vectors are two 8-lane halves here, and "x replaces m when x > m" is vmaxps(x, m) (which returns m
   for a NaN or equal x, ties between -0 and +0 included), so the results are the same bits, the index
   of argmax too. GCC's lowering of the generic 16-lane selects through integer masks ran the 16M max at
   about 0.15x torch's speed on an AVX2 machine. */
#include "ops/reduce/minmax_simd.h"

#if CT_ISA_X86

#include <stdbool.h>

#define UNORD(a, b) _mm256_cmp_ps(a, b, _CMP_UNORD_Q)

/* 4 x 16 lanes: accumulator q's halves are m[2q] (lanes 0-7) and m[2q + 1] (lanes 8-15). */
#define DEF_EXT2(NAME, VOP, MAX, INIT)                                                              \
  CT_TARGET_AVX2 float NAME(const float *x, int64_t n) {                                            \
    const __m256 init = _mm256_set1_ps(INIT);                                                       \
    __m256 m[8], nan = _mm256_setzero_ps();                                                         \
    for (int q = 0; q < 8; q++) m[q] = init;                                                        \
    int64_t k = 0;                                                                                  \
    for (; k + 64 <= n; k += 64) {                                                                  \
      __m256 v[8];                                                                                  \
      for (int q = 0; q < 8; q++) v[q] = _mm256_loadu_ps(x + k + 8 * q);                            \
      nan = _mm256_or_ps(nan, _mm256_or_ps(_mm256_or_ps(UNORD(v[0], v[1]), UNORD(v[2], v[3])),      \
                                           _mm256_or_ps(UNORD(v[4], v[5]), UNORD(v[6], v[7]))));    \
      for (int q = 0; q < 8; q++) m[q] = VOP(v[q], m[q]);                                           \
    }                                                                                               \
    for (int h = 0; h < 2;                                                                          \
         h++) { /* the generic merge: m0 <- (m1 over m0); m2 <- (m3 over m2); m0 <- (m2 over m0) */ \
      m[h] = VOP(m[2 + h], m[h]);                                                                   \
      m[4 + h] = VOP(m[6 + h], m[4 + h]);                                                           \
      m[h] = VOP(m[4 + h], m[h]);                                                                   \
    }                                                                                               \
    float lanes[16];                                                                                \
    _mm256_storeu_ps(lanes, m[0]);                                                                  \
    _mm256_storeu_ps(lanes + 8, m[1]);                                                              \
    return ct__vext_finish(lanes, x, k, n, _mm256_movemask_ps(nan) != 0, MAX);                      \
  }
DEF_EXT2(ct__vmax_f32_avx2, _mm256_max_ps, true, -INFINITY)
DEF_EXT2(ct__vmin_f32_avx2, _mm256_min_ps, false, INFINITY)

/* Each lane keeps its extreme and the index where it first saw it (int32: n < 2^31); then the lanes
   merge in the generic order, by value, ties to the smaller index; a NaN anywhere: the first NaN. */
#define DEF_ARGEXT2(NAME, CMP, OP, INIT)                                                                       \
  CT_TARGET_AVX2 int64_t NAME(const float *x, int64_t n, float *val) {                                       \
    const __m256 init = _mm256_set1_ps(INIT);                                                                \
    const __m256i step = _mm256_set1_epi32(64);                                                              \
    __m256 m[8], nan = _mm256_setzero_ps();                                                                  \
    __m256i c[8], id[8];                                                                                     \
    for (int q = 0; q < 8; q++) {                                                                            \
      m[q] = init;                                                                                           \
      c[q] = _mm256_add_epi32(_mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7), _mm256_set1_epi32(8 * q));          \
      id[q] = _mm256_setzero_si256();                                                                        \
    }                                                                                                        \
    int64_t k = 0;                                                                                           \
    for (; k + 64 <= n; k += 64) {                                                                           \
      for (int q = 0; q < 8; q++) {                                                                          \
        __m256 v = _mm256_loadu_ps(x + k + 8 * q), h = _mm256_cmp_ps(v, m[q], CMP);                          \
        m[q] = _mm256_blendv_ps(m[q], v, h);                                                                 \
        id[q] = _mm256_castps_si256(_mm256_blendv_ps(_mm256_castsi256_ps(id[q]), _mm256_castsi256_ps(c[q]), h)); \
        nan = _mm256_or_ps(nan, UNORD(v, v));                                                                \
        c[q] = _mm256_add_epi32(c[q], step);                                                                 \
      }                                                                                                      \
    }                                                                                                        \
    float lv[64];                                                                                            \
    int32_t li[64];                                                                                          \
    for (int q = 0; q < 8; q++) {                                                                            \
      _mm256_storeu_ps(lv + 8 * q, m[q]);                                                                    \
      _mm256_storeu_si256((__m256i *)(li + 8 * q), id[q]);                                                   \
    }                                                                                                        \
    bool any_nan = _mm256_movemask_ps(nan) != 0;                                                             \
    float best = lv[0];                                                                                      \
    int64_t bi = li[0];                                                                                      \
    for (int j = 0; j < 64; j++)                                                                             \
      if (lv[j] OP best || (lv[j] == best && li[j] < bi)) best = lv[j], bi = li[j];                          \
    return ct__varg_finish(x, n, k, any_nan, best, bi, val, (1 OP 0));                                         \
  }
DEF_ARGEXT2(ct__vargmax_f32_avx2, _CMP_GT_OQ, >, -INFINITY)
DEF_ARGEXT2(ct__vargmin_f32_avx2, _CMP_LT_OQ, <, INFINITY)

#endif
