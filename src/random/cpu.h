/* Run-time CPU feature checks for the hand-picked AVX2 / FMA variants (one binary runs anywhere). */
#ifndef CTORCH_RANDOM_CPU_H
#define CTORCH_RANDOM_CPU_H

#include <stdbool.h>

/* -DCT_NO_X86_VARIANTS builds only the portable code (to check it against torch on an x86 machine). */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && !defined(CT_NO_X86_VARIANTS)
#define CT_X86_VARIANTS 1
#define CT_ALWAYS_INLINE static inline __attribute__((always_inline))
#define CT_TARGET_AVX2 __attribute__((target("avx2")))
#define CT_TARGET_AVX2_FMA __attribute__((target("avx2,fma")))
/* Answers are computed once; the first callers may race to store the same value. */
bool ct__cpu_avx2(void);
bool ct__cpu_avx2_fma(void);
#else
#define CT_ALWAYS_INLINE static inline
#endif

#endif
