/* The MT19937 engine exactly as at::mt19937 runs it: same seeding, same lazy twist (`left` counts down
   to the next twist, `next` indexes the state), so the stream and the saved (left, next) pair match
   PyTorch draw for draw. */
#ifndef CTORCH_RANDOM_MT19937_H
#define CTORCH_RANDOM_MT19937_H

#include <stdbool.h>
#include <stdint.h>

#define CT_MT_N 624
#define CT_MT_M 397

typedef struct ct_mt19937 {
  uint64_t seed; /* the full 64-bit seed given; only its low 32 bits seed the state */
  int32_t left;  /* draws until the next twist, plus one (1 right after seeding) */
  bool seeded;
  uint32_t next; /* index of the next state word to temper */
  uint32_t state[CT_MT_N];
} ct_mt19937;

void ct__mt_seed(ct_mt19937 *mt, uint64_t seed);
/* PyTorch's validity rule for a state loaded by set_state. */
bool ct__mt_valid(const ct_mt19937 *mt);
/* Regenerates all 624 words (the "twist"). */
void ct__mt_twist(ct_mt19937 *mt);

static inline uint32_t ct__mt_temper(uint32_t y) {
  y ^= y >> 11;
  y ^= (y << 7) & 0x9d2c5680u;
  y ^= (y << 15) & 0xefc60000u;
  y ^= y >> 18;
  return y;
}

/* One 32-bit draw. A state loaded with next + left > 625 (which PyTorch accepts but then reads past
   its array) reads zeros there instead of foreign memory. */
static inline uint32_t ct__mt_next(ct_mt19937 *mt) {
  if (--mt->left == 0) ct__mt_twist(mt);
  uint32_t i = mt->next++;
  return ct__mt_temper(i < CT_MT_N ? mt->state[i] : 0);
}

/* n consecutive draws into out, the same values n calls of ct__mt_next give, but a state block at a
   time so the tempering vectorizes. */
void ct__mt_fill(ct_mt19937 *mt, uint32_t *out, int64_t n);

#endif
