/* MT19937 seeding, twisting and bulk drawing (see mt19937.h). */
#include "random/mt19937.h"

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

void ct__mt_twist(ct_mt19937 *mt) {
  uint32_t *s = mt->state;
  /* Three loops with no dependence shorter than the vector width, so each vectorizes. */
  for (int j = 0; j < CT_MT_N - CT_MT_M; j++) s[j] = s[j + CT_MT_M] ^ twist(s[j], s[j + 1]);
  for (int j = CT_MT_N - CT_MT_M; j < CT_MT_N - 1; j++) s[j] = s[j + CT_MT_M - CT_MT_N] ^ twist(s[j], s[j + 1]);
  s[CT_MT_N - 1] = s[CT_MT_M - 1] ^ twist(s[CT_MT_N - 1], s[0]);
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
      const uint32_t *src = mt->state + start;
      for (int64_t i = 0; i < take; i++) out[i] = ct__mt_temper(src[i]);
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
