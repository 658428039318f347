/* Shared by the random ops: argument plumbing, output creation, in-place prologue, dtype errors. */
#ifndef CTORCH_RANDOM_INTERNAL_H
#define CTORCH_RANDOM_INTERNAL_H

#include "core/internal.h"
#include "ops/create_internal.h"
#include "random/generator.h"
#include "core/elem.h"
#include "random/walk.h"

/* Draws are staged through buffers of this many 32-bit words on the stack. */
#define CT_RANDOM_CHUNK 1024

static inline ct_generator *ct__sample_gen(const ct_sample_opts *o) {
  return ct__gen_or_default(o ? o->generator : NULL);
}
static inline ct_generator *ct__random_gen(const ct_random_opts *o) {
  return ct__gen_or_default(o ? o->generator : NULL);
}
/* The status a call returns for a NULL input or a failed helper: the error already recorded. */
static inline ct_status ct__random_fail(void) { return ct__null_status(); }

static inline bool ct__is_float_dtype(ct_dtype d) { return ct__dt(d)->category == CT_CAT_FLOAT; }

/* AT_DISPATCH's error: "\"<kernel>\" not implemented for '<ScalarType>'". */
void ct__dispatch_error(const char *kernel, ct_dtype dt);

/* The entry guard of a random factory and its uninitialized output (size + options; dtype default when
   UNSET): op's rule for the requested layout and device (ct__factory_accepts); not scope-registered. */
ct_tensor *ct__random_empty(const ct_create_op *op, ct_shape size, const ct_random_opts *opts,
                            ct_dtype default_dtype);
/* torch.empty_like(t, options): dtype/device like t unless set; memory format preserve unless set
   (t's strides when it is dense, else the same stride order); a layout asked is refused as torch's
   empty_strided does. Not scope-registered. */
ct_tensor *ct__random_empty_like(const ct_tensor *t, const ct_random_opts *opts);

/* The impls behind the public in-place ops that other random ops run (rand, randn, normal(mean, std)...):
   the checks and the fill, self already through its entry guard. */
ct_status ct__uniform_impl(ct_tensor *self, double from, double to, const ct_sample_opts *opts);
ct_status ct__normal_impl(ct_tensor *self, double mean, double std, const ct_sample_opts *opts);

/* Marks self's storage as written (the version counter views share). */
static inline void ct__mark_written(ct_tensor *self) { atomic_fetch_add(&self->storage->version, 1u); }

/* Defines NAME##_cpu, a random op's CPU kernel row: FILL (an expression of t, a: the op's ARGS, whose opts
   member holds the generator, and g) runs under the generator's lock, then t's storage is marked written. */
#define CT_RANDOM_CPU_KERNEL(NAME, ARGS, FILL)                      \
  static ct_status NAME##_cpu_run(ct_tensor *t, const void *args) { \
    const ARGS *a = args;                                           \
    ct_generator *g = ct__sample_gen(a->opts);                      \
    ct__gen_lock(g);                                                \
    FILL;                                                           \
    ct__gen_unlock(g);                                              \
    ct__mark_written(t);                                            \
    return CT_OK;                                                   \
  }                                                                 \
  static const ct_fill_kernel NAME##_cpu = {NAME##_cpu_run};

/* torch's Conjugate/Negative fallback for an in-place random op on a tensor with math bits: the op runs
   on a resolved temporary `tmp` (whose layout, not self's, decides the order of the draws) that is then
   copied back into self (applying its bits, so that self reads the values drawn). `call` is the op's
   call on tmp. */
#define CT_RANDOM_THROUGH_BITS(self, call)                                      \
  do {                                                                          \
    if (CT_UNLIKELY(ct__math_bits(self) != 0)) {                                \
      ct_math_bits_frame bits_frame_;                                           \
      ct_status bits_s_ = ct__math_bits_begin(&bits_frame_, 0, NULL, 1, &self); \
      if (bits_s_ != CT_OK) return bits_s_;                                     \
      ct_tensor *tmp = bits_frame_.out[0];                                      \
      return ct__math_bits_end(&bits_frame_, (call));                           \
    }                                                                           \
  } while (0)

/* view_as_real of a complex tensor: the real dtype with a trailing dim of 2. Not scope-registered. */
ct_tensor *ct__complex_as_real(const ct_tensor *t);

/* exponential_(lambd) on a checked floating target with the generator locked (multinomial's race). */
void ct__exponential_fill(ct_tensor *self, double lambd, ct_generator *g);

#endif
