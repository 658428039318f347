/* The generator object and the draw primitives every distribution is built from. */
#ifndef CTORCH_RANDOM_GENERATOR_H
#define CTORCH_RANDOM_GENERATOR_H

#include <pthread.h>

#include "core/internal.h"
#include "random/mt19937.h"

/* torch.Generator(): a new generator starts from this seed (c10's default_rng_seed_val). */
#define CT_DEFAULT_RNG_SEED UINT64_C(67280421310721)

struct ct_generator {
  _Atomic int32_t refcount;
  bool is_default;       /* the process-wide default generator is never freed */
  pthread_mutex_t mutex; /* held for the whole of every op that draws, so concurrent ops never interleave */
  ct_mt19937 mt;
  /* Box-Muller's second value, kept for the next scalar-path normal (PyTorch's
     next_double_normal_sample); the float one is only saved and restored. */
  bool has_next_double;
  bool has_next_float;
  double next_double;
  float next_float;
};

/* g itself, or the default generator for NULL (created on first use). */
ct_generator *ct__gen_or_default(ct_generator *g);
static inline void ct__gen_lock(ct_generator *g) { pthread_mutex_lock(&g->mutex); }
static inline void ct__gen_unlock(ct_generator *g) { pthread_mutex_unlock(&g->mutex); }

/* Reseeds and forgets the cached normals (caller holds the lock). */
void ct__gen_reseed_locked(ct_generator *g, uint64_t seed);

/* ---- draws (caller holds the lock) ---- */
static inline uint32_t ct__gen_u32(ct_generator *g) { return ct__mt_next(&g->mt); }
/* random64(): the first draw is the high word. */
static inline uint64_t ct__gen_u64(ct_generator *g) {
  uint64_t hi = ct__mt_next(&g->mt);
  uint64_t lo = ct__mt_next(&g->mt);
  return (hi << 32) | lo;
}

/* uniform_real_distribution's [0, 1) values: the low `digits` bits of a draw times 2^-digits. */
static inline float ct__u24(uint32_t r) { return (float)(r & 0xFFFFFFu) * 0x1p-24f; }
static inline double ct__u53(uint64_t r) { return (double)(r & ((UINT64_C(1) << 53) - 1)) * 0x1p-53; }
static inline float ct__u11(uint32_t r) { return (float)(r & 0x7FFu) * 0x1p-11f; }
static inline float ct__u8(uint32_t r) { return (float)(r & 0xFFu) * 0x1p-8f; }
static inline double ct__gen_uniform_double(ct_generator *g) { return ct__u53(ct__gen_u64(g)); }
/* ct__u53 of (hi << 32 | lo), in a form that vectorizes: both parts convert exactly and their sum is
   below 2^53, so the value is the same. */
static inline double ct__u53_pair(uint32_t hi, uint32_t lo) {
  return ((double)(hi & 0x1FFFFFu) * 0x1p32 + (double)lo) * 0x1p-53;
}

/* In-place conversion of raw draws written into an output buffer: n words into n floats (U24), or
   2n words into n doubles (U53). Words are read and values written with memcpy, so the two views of
   the same bytes respect C's aliasing rules; the loops still vectorize. */
static inline void ct__u24_inplace(char *p, int64_t n) {
  for (int64_t i = 0; i < n; i++) {
    uint32_t r;
    memcpy(&r, p + 4 * i, 4);
    float f = ct__u24(r);
    memcpy(p + 4 * i, &f, 4);
  }
}
static inline void ct__u53_inplace(char *p, int64_t n) {
  for (int64_t i = 0; i < n; i++) {
    uint32_t hi, lo;
    memcpy(&hi, p + 8 * i, 4);
    memcpy(&lo, p + 8 * i + 4, 4);
    double d = ct__u53_pair(hi, lo);
    memcpy(p + 8 * i, &d, 8);
  }
}

/* normal_distribution<double>(mean, std) for one element: the cached second value when there is one,
   else a fresh Box-Muller pair (the first uniform gives the angle) whose sine half is cached. */
double ct__gen_normal(ct_generator *g, double mean, double std);

#endif
