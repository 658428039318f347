/* Operands with math bits (is_conj, is_neg) in the engine: torch 1.13's Conjugate and Negative fallbacks
   (MathBitsFallback.h). Kernels never see a bit: an input that has one is read through a resolved
   temporary; an output that has one (in-place ops, out=) is computed into a resolved temporary that is
   then copied back with copy_, which applies the output's bits, so the output reads the result. An input
   that is the output itself (an in-place op's self) reads the output's temporary. */
#include "iter/iter.h"

#include "core/cast.h"
#include "core/layout_rules.h"

struct ct_iter_bits {
  ct_tensor *given[CT_ITER_MAX_OPERANDS]; /* outputs with bits (retained), written back from their temporary */
  ct_tensor *temps[CT_ITER_MAX_OPERANDS]; /* one reference to each temporary, by operand */
};

static void free_bits(struct ct_iter_bits *b) {
  for (int k = 0; k < CT_ITER_MAX_OPERANDS; k++) {
    ct_release(b->given[k]);
    ct_release(b->temps[k]);
  }
  ct__free(b);
}

ct_status ct__iter_build_resolved(ct_iter *it, const ct_iter_config *cfg) {
  struct ct_iter_bits *b = ct__calloc(1, sizeof *b);
  if (!b) return CT_ERR_OUT_OF_MEMORY;
  ct_iter_config c = *cfg;
  for (int o = 0; o < cfg->n_out; o++) {
    ct_tensor *t = cfg->out[o];
    if (!t || !ct__math_bits(t)) continue;
    /* the write-back copy_ refuses an output whose elements repeat: refused before anything is written */
    if (cfg->check_mem_overlap && !ct__check_no_internal_overlap(t)) goto fail;
    ct_tensor *r = ct__resolve_bits(t);
    if (!r) goto fail;
    b->given[o] = ct_retain(t);
    b->temps[o] = r;
    c.out[o] = r;
    for (int i = 0; i < cfg->n_in; i++)
      if (cfg->in[i] == t) c.in[i] = r; /* read-write: the op reads what it writes */
  }
  for (int i = 0; i < cfg->n_in; i++) {
    const ct_tensor *t = c.in[i];
    if (!ct__math_bits(t)) continue;
    ct_tensor *r = NULL;
    for (int j = 0; j < i && !r; j++)
      if (cfg->in[j] == t) r = ct_retain((ct_tensor *)c.in[j]);
    if (!r) r = ct__resolve_bits(t);
    if (!r) goto fail;
    b->temps[cfg->n_out + i] = r;
    c.in[i] = r;
  }
  ct_status s = ct__iter_build(it, &c); /* no operand has bits now */
  if (s != CT_OK) {
    free_bits(b);
    return s;
  }
  it->bits = b;
  return CT_OK;
fail:
  free_bits(b);
  return ct__null_status();
}

ct_tensor *ct__iter_bits_take(ct_iter *it, int o) {
  struct ct_iter_bits *b = it->bits;
  ct_tensor *given = b->given[o];
  if (!given || !it->ops[o]) return NULL;
  ct__math_bits_write_back(given, it->ops[o]);
  ct_release(it->ops[o]);
  it->ops[o] = NULL;
  b->given[o] = NULL;
  return given;
}

void ct__iter_bits_finish(ct_iter *it) {
  struct ct_iter_bits *b = it->bits;
  for (int o = 0; o < it->n_out; o++)
    if (b->given[o] && it->ops[o]) ct__math_bits_write_back(b->given[o], it->ops[o]);
  free_bits(b);
  it->bits = NULL;
}
