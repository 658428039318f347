/* clang 14 passes __m256 and __m512 arguments in memory (on the stack) unless the whole translation unit is
   compiled for AVX (-mavx / -mavx512f): its calling convention ignores the target attributes of the caller
   and of the declaration. The library is built for the baseline x86-64 and runs its AVX2 / AVX-512 kernels
   from functions with target attributes (core/cpu_isa.h), so a clang-built kernel would hand SLEEF's vector
   functions (built by GCC, reading their arguments from ymm0/ymm1/zmm0) garbage in the upper lanes: the
   clang build computed exp of the third complex value as exp(re) + 0i. GCC follows the attributes.

   So in clang builds every SLEEF vector function the kernels call is reached through a trampoline
   (sleef_clang_abi.c) that loads the stacked arguments into the registers GCC's code reads and jumps to it;
   return values need nothing (both pass vectors back in ymm0/zmm0, and sincos's pair through the hidden
   pointer). sleef_clang.h renames each function below to its trampoline. A SLEEF vector function missing
   from this list fails the build's clang check (tests/clang_sleef_abi.sh: any vector width, any ISA). Arguments at entry: the return
   address at 0(%rsp), the first vector at 8(%rsp), the second 32 bytes further. */
#ifndef CTORCH_KERNELS_SLEEF_CLANG_ABI_H
#define CTORCH_KERNELS_SLEEF_CLANG_ABI_H

/* ONE_256: one __m256 / __m256d argument (sincos: the hidden result pointer too); TWO_256: two; ONE_512:
   one __m512 / __m512d. The names without an ISA suffix are SLEEF's own dispatchers, same arguments. */
#define CT_SLEEF_ABI_LIST(ONE_256, TWO_256, ONE_512) \
  ONE_256(Sleef_acosd4_u10avx2) ONE_256(Sleef_acosf8_u10avx2) ONE_256(Sleef_asind4_u10avx2) \
  ONE_256(Sleef_asinf8_u10avx2) ONE_256(Sleef_atand4_u10avx2) ONE_256(Sleef_atanf8_u10avx2) \
  ONE_256(Sleef_cosd4_u10avx2) ONE_256(Sleef_cosf8_u10avx2) ONE_256(Sleef_coshd4_u10avx2) \
  ONE_256(Sleef_coshf8_u10avx2) ONE_256(Sleef_erfcd4_u15avx2) ONE_256(Sleef_erfcf8_u15avx2) \
  ONE_256(Sleef_erfd4_u10avx2) ONE_256(Sleef_erff8_u10avx2) ONE_256(Sleef_expd4_u10avx2) \
  ONE_256(Sleef_expf8_u10avx2) ONE_256(Sleef_expm1d4_u10avx2) ONE_256(Sleef_expm1f8_u10avx2) \
  ONE_256(Sleef_lgammad4_u10avx2) ONE_256(Sleef_lgammaf8_u10avx2) ONE_256(Sleef_log10d4_u10avx2) \
  ONE_256(Sleef_log10f8_u10avx2) ONE_256(Sleef_log1pd4_u10avx2) ONE_256(Sleef_log1pf8_u10avx2) \
  ONE_256(Sleef_log2d4_u10avx2) ONE_256(Sleef_log2f8_u10avx2) ONE_256(Sleef_logd4_u10avx2) \
  ONE_256(Sleef_logf8_u10avx2) ONE_256(Sleef_sincosd4_u10avx2) ONE_256(Sleef_sincosf8_u10avx2) \
  ONE_256(Sleef_sind4_u10avx2) ONE_256(Sleef_sinf8_u10avx2) ONE_256(Sleef_sinhd4_u10avx2) \
  ONE_256(Sleef_sinhf8_u10avx2) ONE_256(Sleef_tand4_u10avx2) ONE_256(Sleef_tanf8_u10avx2) \
  ONE_256(Sleef_tanhd4_u10avx2) ONE_256(Sleef_tanhf8_u10avx2) \
  TWO_256(Sleef_atan2d4_u10) TWO_256(Sleef_atan2f8_u10) TWO_256(Sleef_atan2d4_u10avx2) TWO_256(Sleef_atan2f8_u10avx2) TWO_256(Sleef_fmodd4_avx2) \
  TWO_256(Sleef_fmodf8_avx2) TWO_256(Sleef_hypotd4_u05avx2) TWO_256(Sleef_hypotf8_u05avx2) \
  TWO_256(Sleef_nextafterd4_avx2) TWO_256(Sleef_nextafterf8_avx2) TWO_256(Sleef_powd4_u10avx2) \
  TWO_256(Sleef_powf8_u10avx2) \
  ONE_512(Sleef_acosd8_u10avx512f) ONE_512(Sleef_acosf16_u10avx512f) ONE_512(Sleef_asind8_u10avx512f) \
  ONE_512(Sleef_asinf16_u10avx512f) ONE_512(Sleef_atand8_u10avx512f) ONE_512(Sleef_atanf16_u10avx512f) \
  ONE_512(Sleef_cosd8_u10avx512f) ONE_512(Sleef_cosf16_u10avx512f) ONE_512(Sleef_coshd8_u10avx512f) \
  ONE_512(Sleef_coshf16_u10avx512f) ONE_512(Sleef_erfcd8_u15avx512f) ONE_512(Sleef_erfcf16_u15avx512f) \
  ONE_512(Sleef_erfd8_u10avx512f) ONE_512(Sleef_erff16_u10avx512f) ONE_512(Sleef_expd8_u10avx512f) \
  ONE_512(Sleef_expf16_u10avx512f) ONE_512(Sleef_expm1d8_u10avx512f) ONE_512(Sleef_expm1f16_u10avx512f) \
  ONE_512(Sleef_lgammad8_u10avx512f) ONE_512(Sleef_lgammaf16_u10avx512f) ONE_512(Sleef_log10d8_u10avx512f) \
  ONE_512(Sleef_log10f16_u10avx512f) ONE_512(Sleef_log1pd8_u10avx512f) ONE_512(Sleef_log1pf16_u10avx512f) \
  ONE_512(Sleef_log2d8_u10avx512f) ONE_512(Sleef_log2f16_u10avx512f) ONE_512(Sleef_logd8_u10avx512f) \
  ONE_512(Sleef_logf16_u10avx512f) ONE_512(Sleef_sincosd8_u10avx512f) ONE_512(Sleef_sincosf16_u10avx512f) \
  ONE_512(Sleef_sind8_u10avx512f) ONE_512(Sleef_sinf16_u10avx512f) ONE_512(Sleef_sinhd8_u10avx512f) \
  ONE_512(Sleef_sinhf16_u10avx512f) ONE_512(Sleef_tand8_u10avx512f) ONE_512(Sleef_tanf16_u10avx512f) \
  ONE_512(Sleef_tanhd8_u10avx512f) ONE_512(Sleef_tanhf16_u10avx512f)

#endif
