/* The CPU's instruction-set level: the one detection every ISA-specific kernel asks (cpuid once, cached),
   the target attributes its hand-written variants are compiled with, and the clones the compiler makes of
   plain C loops. See docs/ARCHITECTURE.md ("ISA dispatch"). */
#ifndef CTORCH_CORE_CPU_ISA_H
#define CTORCH_CORE_CPU_ISA_H

#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Ordered: a level includes the ones below it. */
typedef enum ct_isa {
  CT_ISA_GENERIC = 0, /* x86-64 baseline (SSE2), or another architecture: portable C */
  CT_ISA_AVX2 = 1,    /* AVX2 + FMA + F16C */
  CT_ISA_AVX512 = 2,  /* AVX-512 F + DQ, on top of AVX2 */
} ct_isa;

/* The level the hand-written kernels run at: the CPU's, lowered by the environment variable CTORCH_ISA
   (generic, avx2 or avx512; read once, at the first call; a level above the CPU's is ignored) and by
   ct__cpu_force_isa. */
ct_isa ct__cpu_isa(void);
/* FMA3 at a level below AVX2 (AMD Piledriver has FMA without AVX2): only SLEEF's scalar FMA functions
   (binary_sleef.c) ask. False when the level is lowered below AVX2. */
bool ct__cpu_fma(void);
/* AVX-512 BW, VL and DQ, as the CPU has them whatever the level (CTORCH_ISA does not lower it): torch 1.13's
   mkldnn_bf16_device_check, which sends its bfloat16 products to oneDNN (kernels/cpu/dnnl.h). */
bool ct__cpu_avx512_bw_vl_dq(void);
/* Tests: run the hand-written kernels at a level below the CPU's (-1: back to the detected one). */
void ct__cpu_force_isa(int level);

#ifdef __cplusplus
}
#endif

/* CT_ISA_X86: the hand-written x86 variants are compiled (GCC and clang on x86-64). -DCT_NO_X86_VARIANTS
   compiles the portable code only (CTORCH_ISA=generic runs the same code in a normal build). */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(CT_NO_X86_VARIANTS)
#define CT_ISA_X86 1
/* A function holding one level's variant: called only where ct__cpu_isa() is at least that level. */
#define CT_TARGET_AVX2 __attribute__((target("avx2,fma,f16c")))
#define CT_TARGET_AVX512 __attribute__((target("avx512f,avx512dq,avx2,fma,f16c")))
/* Inlined into the variant that calls it, so that it is compiled for that variant's level. */
#define CT_ALWAYS_INLINE static inline __attribute__((always_inline))
#else
#define CT_ISA_X86 0
#define CT_ALWAYS_INLINE static inline
#endif

/* Plain C loops the compiler vectorizes (the loop generators, reductions, casts): compiled for x86-64-v4
   (the AVX512 level), v3 (AVX2) and the baseline, the CPU's copy bound at load time by GCC's target_clones
   (an IFUNC resolver reading cpuid itself: CTORCH_ISA does not reach it). Their copies give the same bits:
   ISO C without contraction (CMakeLists.txt) and no reassociation leave the vectorizer no choice of
   rounding. clang builds the baseline copy only. */
#if CT_ISA_X86 && !defined(__clang__)
#define CT_KERNEL_CLONES __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))
#else
#define CT_KERNEL_CLONES
#endif

#endif
