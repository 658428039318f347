/* Branch-free compaction: every element is written at the current end and the end advances by its mask
   byte, so the loop never waits on a mispredicted branch; AVX2 does eight 4-byte (or four 8-byte) elements
   per step through a permutation chosen by the mask bits. A write is made only where the slot lies below
   kend, so a chunk never writes into the next chunk's part of the result (another thread's). */
#include "ops/index/mask_compact.h"

#include <pthread.h>
#include <string.h>

#include "core/cpu_isa.h"

CT_KERNEL_CLONES int64_t ct__mask_count(const unsigned char *m, int64_t n) {
  int64_t k = 0;
  for (int64_t r = 0; r < n; r++) k += m[r] != 0;
  return k;
}

/* Scalar: one element per step; stops once k reaches kend (every byte left is zero then). */
#define COMPACT_SCALAR(T)                              \
  for (; r < n && k < kend; r++) {                     \
    T e;                                               \
    memcpy(&e, src + r * (int64_t)sizeof e, sizeof e); \
    memcpy(dst + k * (int64_t)sizeof e, &e, sizeof e); \
    k += m[r] != 0;                                    \
  }

#if CT_ISA_X86
#include <immintrin.h>

/* lanes (of 32 bits) that a mask of 8 elements keeps, packed to the front: 4-byte elements: bit t is
   element t; 8-byte elements (4 per vector, two lanes each): bit t of the low 4 bits is element t. */
static int32_t perm8[256][8], perm4[16][8];
static pthread_once_t perms_once = PTHREAD_ONCE_INIT;
static void init_perms(void) {
  for (int b = 0; b < 256; b++) {
    int o = 0;
    for (int t = 0; t < 8; t++)
      if (b >> t & 1) perm8[b][o++] = t;
    for (; o < 8; o++) perm8[b][o] = 0;
  }
  for (int b = 0; b < 16; b++) {
    int o = 0;
    for (int t = 0; t < 4; t++)
      if (b >> t & 1) perm4[b][o++] = 2 * t, perm4[b][o++] = 2 * t + 1;
    for (; o < 8; o++) perm4[b][o] = 0;
  }
}

/* bits of the 8 mask bytes at m that are non-zero */
CT_TARGET_AVX2 CT_ALWAYS_INLINE unsigned mask_bits8(const unsigned char *m) {
  long long w;
  memcpy(&w, m, 8);
  __m128i z = _mm_cmpeq_epi8(_mm_cvtsi64_si128(w), _mm_setzero_si128());
  return ~(unsigned)_mm_movemask_epi8(z) & 0xff;
}

CT_TARGET_AVX2 static int64_t compact_avx2(char *dst, int64_t k, int64_t kend, const char *src,
                                           const unsigned char *m, int64_t n, size_t isz) {
  int64_t r = 0;
  if (isz == 4) {
    for (; r + 8 <= n && k + 8 <= kend; r += 8) { /* a full vector is stored: it must fit below kend */
      unsigned b = mask_bits8(m + r);
      __m256i v = _mm256_loadu_si256((const __m256i *)(src + 4 * r));
      __m256i p = _mm256_loadu_si256((const __m256i *)perm8[b]);
      _mm256_storeu_si256((__m256i *)(dst + 4 * k), _mm256_permutevar8x32_epi32(v, p));
      k += __builtin_popcount(b);
    }
    COMPACT_SCALAR(uint32_t)
  } else {
    for (; r + 8 <= n && k + 8 <= kend; r += 8) {
      unsigned b = mask_bits8(m + r);
      __m256i v0 = _mm256_loadu_si256((const __m256i *)(src + 8 * r));
      __m256i v1 = _mm256_loadu_si256((const __m256i *)(src + 8 * r + 32));
      __m256i p0 = _mm256_loadu_si256((const __m256i *)perm4[b & 15]);
      __m256i p1 = _mm256_loadu_si256((const __m256i *)perm4[b >> 4]);
      _mm256_storeu_si256((__m256i *)(dst + 8 * k), _mm256_permutevar8x32_epi32(v0, p0));
      k += __builtin_popcount(b & 15);
      _mm256_storeu_si256((__m256i *)(dst + 8 * k), _mm256_permutevar8x32_epi32(v1, p1));
      k += __builtin_popcount(b >> 4);
    }
    COMPACT_SCALAR(uint64_t)
  }
  return k;
}
#endif

int64_t ct__mask_compact(char *dst, int64_t k, int64_t kend, const char *src, const unsigned char *m,
                         int64_t n, size_t isz) {
  int64_t r = 0;
#if CT_ISA_X86
  if ((isz == 4 || isz == 8) && ct__cpu_isa() >= CT_ISA_AVX2) {
    pthread_once(&perms_once, init_perms);
    return compact_avx2(dst, k, kend, src, m, n, isz);
  }
#endif
  switch (isz) {
    case 1: COMPACT_SCALAR(uint8_t) break;
    case 2: COMPACT_SCALAR(uint16_t) break;
    case 4: COMPACT_SCALAR(uint32_t) break;
    case 8: COMPACT_SCALAR(uint64_t) break;
    default:
      for (; r < n && k < kend; r++) {
        memcpy(dst + k * (int64_t)isz, src + r * (int64_t)isz, isz);
        k += m[r] != 0;
      }
  }
  return k;
}
