/* <immintrin.h> and <sleef.h> for clang on x86-64, in place of the GCC builds'
     #pragma GCC push_options / #pragma GCC target("avx2,fma") / #include <sleef.h> / #pragma GCC pop_options
   which clang ignores. sleef.h declares its vector functions (and the FMA scalar ones) only when the ISA
   macros (__AVX__, __AVX2__, __AVX512F__) are defined: they are defined for the include only, and every
   declaration gets the matching target attribute, so that the kernels compiled for that ISA (target
   attributes, called after a CPU check) can call them, as in the GCC build. sleef.h also declares its
   functions with a const-qualified return type ("CONST double f(double)"), which GCC ignores but clang
   keeps in the function type, so that taking their addresses as double (*)(double) would not type-check;
   sleef.h leaves CONST empty for the Intel compiler, and so it is told that it is one for the include.
   Then every vector function the kernels call is renamed (an asm label) to its trampoline, which puts
   clang's stacked vector arguments where SLEEF's GCC-built code reads them (sleef_clang_abi.h says why). */
#ifndef CTORCH_KERNELS_SLEEF_CLANG_H
#define CTORCH_KERNELS_SLEEF_CLANG_H

#include <immintrin.h>
#include <x86intrin.h>

#pragma clang attribute push(__attribute__((target("avx512f,avx512dq,avx2,fma,f16c"))), apply_to = function)
#ifndef __AVX__
#define __AVX__ 1
#define CT_SLEEF_UNDEF_AVX
#endif
#ifndef __AVX2__
#define __AVX2__ 1
#define CT_SLEEF_UNDEF_AVX2
#endif
#ifndef __AVX512F__
#define __AVX512F__ 1
#define CT_SLEEF_UNDEF_AVX512F
#endif
#ifndef __INTEL_COMPILER
#define __INTEL_COMPILER 1
#define CT_SLEEF_UNDEF_INTEL
#endif

#include <sleef.h>

#ifdef CT_SLEEF_UNDEF_AVX
#undef __AVX__
#undef CT_SLEEF_UNDEF_AVX
#endif
#ifdef CT_SLEEF_UNDEF_AVX2
#undef __AVX2__
#undef CT_SLEEF_UNDEF_AVX2
#endif
#ifdef CT_SLEEF_UNDEF_AVX512F
#undef __AVX512F__
#undef CT_SLEEF_UNDEF_AVX512F
#endif
#ifdef CT_SLEEF_UNDEF_INTEL
#undef __INTEL_COMPILER
#undef CT_SLEEF_UNDEF_INTEL
#endif
#pragma clang attribute pop

#include "kernels/cpu/sleef_clang_abi.h"
#define CT_SLEEF_VIA_TRAMPOLINE(f) extern __typeof__(f) f __asm__("ct__abi_" #f);
CT_SLEEF_ABI_LIST(CT_SLEEF_VIA_TRAMPOLINE, CT_SLEEF_VIA_TRAMPOLINE, CT_SLEEF_VIA_TRAMPOLINE)
#undef CT_SLEEF_VIA_TRAMPOLINE

#endif
