/* The one CPU-feature detection (cpu_isa.h). */
#include "core/cpu_isa.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

/* bits 0-1: the level, bit 2: FMA, bit 3: AVX-512 BW + VL + DQ; -1 until detected (racing first calls store the same value) */
static _Atomic int detected = -1;
static _Atomic int forced = -1;

/* The level CTORCH_ISA names (CT_ISA_AVX512 when unset or not a level's name). */
static int env_level(void) {
  const char *e = getenv("CTORCH_ISA");
  if (!e) return CT_ISA_AVX512;
  if (!strcmp(e, "generic")) return CT_ISA_GENERIC;
  if (!strcmp(e, "avx2")) return CT_ISA_AVX2;
  return CT_ISA_AVX512;
}

static int detect(void) {
  int level = CT_ISA_GENERIC, fma = 0, bwvldq = 0;
#if CT_ISA_X86
  __builtin_cpu_init();
  fma = __builtin_cpu_supports("fma") ? 1 : 0;
  bwvldq = __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512vl") &&
           __builtin_cpu_supports("avx512dq");
  if (__builtin_cpu_supports("avx2") && fma) { /* every AVX2 CPU has F16C (clang cannot ask for it) */
    level = CT_ISA_AVX2;
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq")) level = CT_ISA_AVX512;
  }
#endif
  int env = env_level();
  if (env < level) {
    level = env;
    if (env < CT_ISA_AVX2) fma = 0;
  }
  return level | fma << 2 | bwvldq << 3;
}

static int features(void) {
  int f = atomic_load_explicit(&detected, memory_order_relaxed);
  if (f < 0) {
    f = detect();
    atomic_store_explicit(&detected, f, memory_order_relaxed);
  }
  return f;
}

ct_isa ct__cpu_isa(void) {
  int d = features() & 3, f = atomic_load_explicit(&forced, memory_order_relaxed);
  return (ct_isa)(f >= 0 && f < d ? f : d);
}

bool ct__cpu_fma(void) {
  int f = atomic_load_explicit(&forced, memory_order_relaxed);
  return (features() >> 2 & 1) && !(f >= 0 && f < CT_ISA_AVX2);
}

bool ct__cpu_avx512_bw_vl_dq(void) { return features() >> 3 & 1; }

void ct__cpu_force_isa(int level) { atomic_store_explicit(&forced, level, memory_order_relaxed); }
