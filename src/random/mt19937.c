/* MT19937 seeding, twisting and bulk drawing (see mt19937.h). */
#include "random/mt19937.h"

#include "core/cpu_isa.h"

#define CT_MT_MATRIX_A 0x9908b0dfu
#define CT_MT_UMASK 0x80000000u
#define CT_MT_LMASK 0x7fffffffu

void ct__mt_seed(ct_mt19937 *mt, uint64_t seed) {
  mt->seed = seed;
  mt->seeded = true;
  mt->state[0] = (uint32_t)(seed & 0xffffffffu);
  for (uint32_t j = 1; j < CT_MT_N; j++)
    mt->state[j] = 1812433253u * (mt->state[j - 1] ^ (mt->state[j - 1] >> 30)) + j;
  mt->left = 1; /* the first draw twists */
  mt->next = 0;
}

bool ct__mt_valid(const ct_mt19937 *mt) {
  return mt->seeded && mt->left > 0 && mt->left <= CT_MT_N && mt->next <= CT_MT_N;
}

static inline uint32_t twist(uint32_t u, uint32_t v) {
  return (((u & CT_MT_UMASK) | (v & CT_MT_LMASK)) >> 1) ^ ((v & 1u) ? CT_MT_MATRIX_A : 0u);
}

/* The loops are written once, inlined into a baseline and an AVX2 copy (wider vectors); the CPU
   picks one at run time. */

CT_ALWAYS_INLINE void twist_loops(uint32_t *s) {
  /* Three loops with no dependence shorter than the vector width, so each vectorizes. */
  for (int j = 0; j < CT_MT_N - CT_MT_M; j++) s[j] = s[j + CT_MT_M] ^ twist(s[j], s[j + 1]);
  for (int j = CT_MT_N - CT_MT_M; j < CT_MT_N - 1; j++) s[j] = s[j + CT_MT_M - CT_MT_N] ^ twist(s[j], s[j + 1]);
  s[CT_MT_N - 1] = s[CT_MT_M - 1] ^ twist(s[CT_MT_N - 1], s[0]);
}

CT_ALWAYS_INLINE void temper_loop(const uint32_t *restrict src, uint32_t *restrict out, int64_t n) {
  for (int64_t i = 0; i < n; i++) out[i] = ct__mt_temper(src[i]);
}

static void twist_base(uint32_t *s) { twist_loops(s); }
static void temper_base(const uint32_t *restrict src, uint32_t *restrict out, int64_t n) { temper_loop(src, out, n); }

#if CT_ISA_X86
CT_TARGET_AVX2 static void twist_avx2(uint32_t *s) { twist_loops(s); }
CT_TARGET_AVX2 static void temper_avx2(const uint32_t *restrict src, uint32_t *restrict out, int64_t n) {
  temper_loop(src, out, n);
}
#define TWIST(s) (ct__cpu_isa() >= CT_ISA_AVX2 ? twist_avx2(s) : twist_base(s))
#define TEMPER(src, out, n) (ct__cpu_isa() >= CT_ISA_AVX2 ? temper_avx2(src, out, n) : temper_base(src, out, n))
#else
#define TWIST(s) twist_base(s)
#define TEMPER(src, out, n) temper_base(src, out, n)
#endif

void ct__mt_twist(ct_mt19937 *mt) {
  TWIST(mt->state);
  mt->left = CT_MT_N;
  mt->next = 0;
}

void ct__mt_fill(ct_mt19937 *mt, uint32_t *out, int64_t n) {
  while (n > 0) {
    if (mt->left == 1) {
      /* ct__mt_next would twist on this draw: twist now and account for the draw below. */
      ct__mt_twist(mt);
      mt->left = CT_MT_N + 1;
    }
    int64_t avail = mt->left - 1;
    int64_t take = avail < n ? avail : n;
    uint32_t start = mt->next;
    if ((int64_t)start + take <= CT_MT_N) {
      TEMPER(mt->state + start, out, take);
    } else {
      for (int64_t i = 0; i < take; i++) {
        int64_t k = (int64_t)start + i;
        out[i] = ct__mt_temper(k < CT_MT_N ? mt->state[k] : 0);
      }
    }
    mt->left -= (int32_t)take;
    mt->next += (uint32_t)take;
    out += take;
    n -= take;
  }
}
