/* Pointwise ops: one descriptor per op (name, promotion kind, loops per dtype, optional argument checks)
   and the generic entry that runs any of them through the engine in its three forms: out-of-place,
   in-place (`_`) and `_out`. */
#ifndef CTORCH_OPS_PW_H
#define CTORCH_OPS_PW_H

#include "iter/iter.h"

typedef enum ct_pw_kind {
  CT_PW_SAME,         /* unary, dtype kept, all operands must share it (abs, neg) */
  CT_PW_FLOAT,        /* promote, integers and bool to the default float (sqrt, exp) */
  CT_PW_COMMON,       /* promote to the common dtype (add, mul) */
  CT_PW_COMMON_FLOAT, /* promote, then integers and bool to the default float (true div, atan2) */
  CT_PW_COMPARE,      /* promote, bool result (eq, lt, logical_and) */
  CT_PW_PREDICATE,    /* unary, any dtype, bool result (isnan, signbit) */
} ct_pw_kind;

/* Room for an op's loop context (alpha, a scalar in the compute dtype, ...). */
typedef struct ct_pw_ctx {
  _Alignas(16) unsigned char bytes[64];
} ct_pw_ctx;

typedef struct ct_pw_op {
  const char *kernel; /* the name in PyTorch's "not implemented" message: "abs_cpu" */
  ct_pw_kind kind;
  const ct_loop_fn *loops; /* [CT_NUM_DTYPES + 1] by compute dtype; NULL: not implemented */
  /* Op-specific argument and dtype checks PyTorch makes; records the error and returns false. */
  bool (*check)(ct_dtype common, const ct_tensor *const *in, const void *args);
  /* Fills the loop context for the compute dtype from the op's arguments. */
  void (*prepare)(ct_dtype common, const void *args, ct_pw_ctx *ctx);
} ct_pw_op;

/* Runs op. out NULL: a new result is stored in *result. inplace: out is in[0] and keeps its shape. */
ct_status ct__pw_run(const ct_pw_op *op, ct_tensor *out, const ct_tensor *const *in, int n_in, bool inplace,
                     const void *args, ct_tensor **result);

/* The same, but inputs of another dtype are first converted into temporaries laid out as Tensor.to lays
   them out, as TensorIterator does, instead of on the fly: for kernels whose vector and scalar paths
   differ (cpu_kernel_vec), so that the loop sees PyTorch's rows. */
ct_status ct__pw_run_staged(const ct_pw_op *op, ct_tensor *out, const ct_tensor *const *in, int n_in, bool inplace,
                            const void *args, ct_tensor **result);

/* Defines the three public forms of a unary / binary op from its descriptor. */
#define CT_PW_UNARY_API(name, desc)                                                   \
  ct_tensor *ct_##name(const ct_tensor *t) {                                         \
    ct_tensor *r = NULL;                                                              \
    ct__pw_run(&(desc), NULL, &t, 1, false, NULL, &r);                                \
    return r;                                                                         \
  }                                                                                   \
  ct_status ct_##name##_(ct_tensor *self) {                                          \
    const ct_tensor *in[1] = {self};                                                  \
    return ct__pw_run(&(desc), self, in, 1, true, NULL, NULL);                        \
  }                                                                                   \
  ct_status ct_##name##_out(ct_tensor *out, const ct_tensor *t) {                    \
    return ct__pw_run(&(desc), out, &t, 1, false, NULL, NULL);                        \
  }

#define CT_PW_BINARY_API(name, desc)                                                  \
  ct_tensor *ct_##name(const ct_tensor *a, const ct_tensor *b) {                     \
    const ct_tensor *in[2] = {a, b};                                                  \
    ct_tensor *r = NULL;                                                              \
    ct__pw_run(&(desc), NULL, in, 2, false, NULL, &r);                                \
    return r;                                                                         \
  }                                                                                   \
  ct_status ct_##name##_(ct_tensor *self, const ct_tensor *other) {                  \
    const ct_tensor *in[2] = {self, other};                                           \
    return ct__pw_run(&(desc), self, in, 2, true, NULL, NULL);                        \
  }                                                                                   \
  ct_status ct_##name##_out(ct_tensor *out, const ct_tensor *a, const ct_tensor *b) { \
    const ct_tensor *in[2] = {a, b};                                                  \
    return ct__pw_run(&(desc), out, in, 2, false, NULL, NULL);                        \
  }

#endif
