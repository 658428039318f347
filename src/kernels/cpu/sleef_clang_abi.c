/* The trampolines of sleef_clang_abi.h (clang builds on x86-64 only): each moves the vector arguments that
   clang stacked into the registers that SLEEF's GCC-built code reads, then jumps to the SLEEF function,
   which returns straight to the caller. Hidden: they are no part of the library's interface. */
#include "core/cpu_isa.h"

#if CT_ISA_X86 && defined(__clang__)
#include "kernels/cpu/sleef_clang_abi.h"

#define CT_TRAMP_HEAD(f)                                                                   \
  ".text\n.p2align 4\n.globl ct__abi_" #f "\n.hidden ct__abi_" #f "\n.type ct__abi_" #f \
  ",@function\nct__abi_" #f ":\n"
#define CT_TRAMP_TAIL(f) "\tjmp " #f "@PLT\n.size ct__abi_" #f ", .-ct__abi_" #f "\n"
#define CT_TRAMP_ONE_256(f) __asm__(CT_TRAMP_HEAD(f) "\tvmovups 8(%rsp), %ymm0\n" CT_TRAMP_TAIL(f));
#define CT_TRAMP_TWO_256(f) \
  __asm__(CT_TRAMP_HEAD(f) "\tvmovups 8(%rsp), %ymm0\n\tvmovups 40(%rsp), %ymm1\n" CT_TRAMP_TAIL(f));
#define CT_TRAMP_ONE_512(f) __asm__(CT_TRAMP_HEAD(f) "\tvmovups 8(%rsp), %zmm0\n" CT_TRAMP_TAIL(f));
CT_SLEEF_ABI_LIST(CT_TRAMP_ONE_256, CT_TRAMP_TWO_256, CT_TRAMP_ONE_512)
#else
/* ISO C wants a translation unit to declare something. */
typedef int ct__sleef_clang_abi_unused;
#endif
