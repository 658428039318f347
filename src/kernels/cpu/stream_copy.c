/* ct__stream_copy: whole 32-byte blocks (AVX2) or 16-byte ones (SSE2) streamed to an aligned destination,
   the unaligned head and the tail by memcpy. */
#include "kernels/cpu/stream_copy.h"

#include <stdint.h>
#include <string.h>

#include "core/cpu_isa.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#if CT_ISA_X86
#include <immintrin.h>
#endif

/* The bytes before dst's next multiple of align, at most n. */
static size_t head_bytes(const void *dst, size_t align, size_t n) {
  size_t h = (align - (uintptr_t)dst % align) % align;
  return h < n ? h : n;
}

#if CT_ISA_X86
/* 128 bytes per step: four loads ahead of four streamed stores. Returns the bytes it copied. */
CT_TARGET_AVX2 static size_t stream_body_avx2(char *d, const char *s, size_t n) {
  size_t k = 0;
  for (; k + 128 <= n; k += 128) {
    __m256i a = _mm256_loadu_si256((const __m256i *)(s + k)),
            b = _mm256_loadu_si256((const __m256i *)(s + k + 32)),
            c = _mm256_loadu_si256((const __m256i *)(s + k + 64)),
            e = _mm256_loadu_si256((const __m256i *)(s + k + 96));
    _mm256_stream_si256((__m256i *)(d + k), a);
    _mm256_stream_si256((__m256i *)(d + k + 32), b);
    _mm256_stream_si256((__m256i *)(d + k + 64), c);
    _mm256_stream_si256((__m256i *)(d + k + 96), e);
  }
  return k;
}
#endif

#if defined(__SSE2__)
static size_t stream_body_sse2(char *d, const char *s, size_t n) {
  size_t k = 0;
  for (; k + 64 <= n; k += 64) {
    __m128i a = _mm_loadu_si128((const __m128i *)(s + k)), b = _mm_loadu_si128((const __m128i *)(s + k + 16)),
            c = _mm_loadu_si128((const __m128i *)(s + k + 32)),
            e = _mm_loadu_si128((const __m128i *)(s + k + 48));
    _mm_stream_si128((__m128i *)(d + k), a);
    _mm_stream_si128((__m128i *)(d + k + 16), b);
    _mm_stream_si128((__m128i *)(d + k + 32), c);
    _mm_stream_si128((__m128i *)(d + k + 48), e);
  }
  return k;
}
#endif

void ct__stream_copy(void *dst, const void *src, size_t n) {
  char *d = dst;
  const char *s = src;
  size_t h = head_bytes(d, 32, n), k = 0;
  memcpy(d, s, h);
  d += h, s += h, n -= h;
#if CT_ISA_X86
  if (ct__cpu_isa() >= CT_ISA_AVX2) k = stream_body_avx2(d, s, n);
  else
#endif
  {
#if defined(__SSE2__)
    k = stream_body_sse2(d, s, n);
#endif
  }
  memcpy(d + k, s + k, n - k);
#if defined(__SSE2__)
  _mm_sfence();
#endif
}
