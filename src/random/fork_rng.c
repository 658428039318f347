/* torch.random.fork_rng: save the state of the generators in use, run, restore. The default
   generator is always saved (PyTorch's CPU state); more generators may be listed. */
#include "random/generator.h"

typedef struct snapshot {
  ct_generator *gen;
  ct_mt19937 mt;
  bool has_next_double, has_next_float;
  double next_double;
  float next_float;
} snapshot;
/* a generator's stream state, between a generator and a snapshot (the same field names) */
#define COPY_STATE(to, from)                                                               \
  ((to)->mt = (from)->mt, (to)->has_next_double = (from)->has_next_double,                 \
   (to)->has_next_float = (from)->has_next_float, (to)->next_double = (from)->next_double, \
   (to)->next_float = (from)->next_float)

struct ct_rng_fork {
  int64_t n;
  snapshot saved[];
};

ct_rng_fork *ct_fork_rng_begin(ct_generator *const *generators, int64_t n) {
  if (n < 0 || (n > 0 && !generators)) {
    ct__error(CT_ERR_VALUE, "fork_rng: invalid generator list");
    return NULL;
  }
  ct_rng_fork *f = ct__malloc(sizeof *f + (size_t)(n + 1) * sizeof(snapshot));
  if (!f) return NULL;
  f->n = n + 1;
  for (int64_t i = 0; i <= n; i++) {
    ct_generator *g = ct_generator_retain(ct__gen_or_default(i == 0 ? NULL : generators[i - 1]));
    snapshot *s = &f->saved[i];
    ct__gen_lock(g);
    s->gen = g;
    COPY_STATE(s, g);
    ct__gen_unlock(g);
  }
  return f;
}

ct_status ct_fork_rng_end(ct_rng_fork *f) {
  CT__NONNULL_STATUS(f);
  /* Restore in reverse so a generator listed twice ends in its earliest saved state. */
  for (int64_t i = f->n - 1; i >= 0; i--) {
    snapshot *s = &f->saved[i];
    ct_generator *g = s->gen;
    ct__gen_lock(g);
    COPY_STATE(g, s);
    ct__gen_unlock(g);
    ct_generator_release(g);
  }
  ct__free(f);
  return CT_OK;
}

ct_status ct_fork_rng(ct_generator *const *generators, int64_t n, void (*fn)(void *ctx), void *ctx) {
  ct_rng_fork *f = ct_fork_rng_begin(generators, n);
  if (!f) return ct_last_error();
  if (fn) fn(ctx);
  return ct_fork_rng_end(f);
}
