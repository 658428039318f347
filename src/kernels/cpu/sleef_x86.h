/* SLEEF's declarations and the x86 intrinsics, for the hand-written variants (CT_TARGET_AVX2 /
   CT_TARGET_AVX512, core/cpu_isa.h) that call SLEEF's vector functions. sleef.h declares those only when
   the ISA macros are defined: GCC includes it with AVX-512 enabled (the intrinsics first, outside the
   pragma, so each keeps its own ISA), clang through sleef_clang.h (clang ignores #pragma GCC target).
   Call a vector function only from a function compiled for its ISA. */
#ifndef CTORCH_KERNELS_SLEEF_X86_H
#define CTORCH_KERNELS_SLEEF_X86_H

#include "core/cpu_isa.h"

#if CT_ISA_X86 && defined(__clang__)
#include "kernels/cpu/sleef_clang.h"
#elif CT_ISA_X86
#include <immintrin.h>
#pragma GCC push_options
#pragma GCC target("avx512f,avx512dq,avx2,fma,f16c")
#include <sleef.h>
#pragma GCC pop_options
#else
#include <sleef.h>
#endif

#endif
