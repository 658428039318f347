/* CPU feature checks (see cpu.h). */
#include "random/cpu.h"

#ifdef CT_X86_VARIANTS
static _Atomic int avx2 = -1, avx2_fma = -1;

bool ct__cpu_avx2(void) {
  int v = avx2;
  if (v < 0) {
    __builtin_cpu_init();
    v = __builtin_cpu_supports("avx2") ? 1 : 0;
    avx2 = v;
  }
  return v;
}

bool ct__cpu_avx2_fma(void) {
  int v = avx2_fma;
  if (v < 0) {
    __builtin_cpu_init();
    v = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") ? 1 : 0;
    avx2_fma = v;
  }
  return v;
}
#else
typedef int ct_cpu_unused; /* an empty translation unit is not ISO C */
#endif
