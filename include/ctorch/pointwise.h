/* Pointwise ops. Each comes in three forms where PyTorch has them: ct_X (a new tensor), ct_X_ (in place,
   returns a status) and ct_X_out (writes into out, resized as PyTorch resizes out= tensors). A Python
   number operand is a wrapped-number tensor (ct_wrapped_scalar). */
#ifndef CTORCH_POINTWISE_H
#define CTORCH_POINTWISE_H

#include "error.h"
#include "types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* alpha for add and sub; kind 0 (the zero value) means 1. */
typedef struct ct_alpha_opts {
  ct_scalar alpha;
} ct_alpha_opts;

#define CT_DECLARE_UNARY(name)                          \
  CT_API ct_tensor *ct_##name(const ct_tensor *t);       \
  CT_API ct_status ct_##name##_(ct_tensor *self);        \
  CT_API ct_status ct_##name##_out(ct_tensor *out, const ct_tensor *t);
/* Ops without an in-place form (bool results, views): ct_X and ct_X_out. */
#define CT_DECLARE_UNARY_NO_INPLACE(name)          \
  CT_API ct_tensor *ct_##name(const ct_tensor *t); \
  CT_API ct_status ct_##name##_out(ct_tensor *out, const ct_tensor *t);
#define CT_DECLARE_BINARY(name)                                          \
  CT_API ct_tensor *ct_##name(const ct_tensor *a, const ct_tensor *b);   \
  CT_API ct_status ct_##name##_(ct_tensor *self, const ct_tensor *other); \
  CT_API ct_status ct_##name##_out(ct_tensor *out, const ct_tensor *a, const ct_tensor *b);
#define CT_DECLARE_BINARY_NO_INPLACE(name)                             \
  CT_API ct_tensor *ct_##name(const ct_tensor *a, const ct_tensor *b); \
  CT_API ct_status ct_##name##_out(ct_tensor *out, const ct_tensor *a, const ct_tensor *b);
#define CT_DECLARE_ALPHA(name)                                                                \
  CT_API ct_tensor *ct_##name(const ct_tensor *a, const ct_tensor *b, const ct_alpha_opts *opts); \
  CT_API ct_status ct_##name##_(ct_tensor *self, const ct_tensor *other, const ct_alpha_opts *opts); \
  CT_API ct_status ct_##name##_out(ct_tensor *out, const ct_tensor *a, const ct_tensor *b, const ct_alpha_opts *opts);

/* ===== arithmetic core (add, sub, mul, neg) ===== */
#define CT_POINTWISE_ARITH_UNARY_OPS(X) X(neg) X(negative)
#define CT_POINTWISE_ARITH_BINARY_OPS(X) X(mul) X(multiply)
#define CT_POINTWISE_ALPHA_OPS(X) X(add) X(sub) X(subtract)
CT_POINTWISE_ARITH_UNARY_OPS(CT_DECLARE_UNARY)
CT_POINTWISE_ARITH_BINARY_OPS(CT_DECLARE_BINARY)
CT_POINTWISE_ALPHA_OPS(CT_DECLARE_ALPHA)

/* ===== unary math: exp/log/trig/hyperbolic/special functions ===== */

/* ===== unary elementary: abs, sign, rounding, predicates, complex parts, bitwise/logical not ===== */

/* ===== binary arithmetic: div, remainder, pow, atan2, hypot, min/max, ... ===== */

/* ===== comparison, logical, bitwise and ternary ops ===== */
/* Comparisons give bool (an out= of another dtype receives 1 / 0; Tensor.eq_ and friends store the
   result in self's dtype). Aliases: not_equal = ne, less = lt, less_equal = le, greater = gt,
   greater_equal = ge. */
#define CT_POINTWISE_COMPARE_OPS(X) \
  X(eq) X(ne) X(not_equal) X(lt) X(less) X(le) X(less_equal) X(gt) X(greater) X(ge) X(greater_equal)
/* logical_*: bool result (out= and in place keep their dtype); bitwise_*: bool and integer dtypes;
   bitwise shifts: integer dtypes, count taken mod 32 (mod 64 for int64), arithmetic right shift. */
#define CT_POINTWISE_LOGICAL_OPS(X) X(logical_and) X(logical_or) X(logical_xor)
#define CT_POINTWISE_BITWISE_OPS(X) \
  X(bitwise_and) X(bitwise_or) X(bitwise_xor) X(bitwise_left_shift) X(bitwise_right_shift)
CT_POINTWISE_COMPARE_OPS(CT_DECLARE_BINARY)
CT_POINTWISE_LOGICAL_OPS(CT_DECLARE_BINARY)
CT_POINTWISE_BITWISE_OPS(CT_DECLARE_BINARY)

/* isclose / allclose: rtol and atol of kind 0 (the zero value) mean PyTorch's 1e-05 and 1e-08. */
typedef struct ct_isclose_opts {
  ct_scalar rtol;
  ct_scalar atol;
  bool equal_nan;
} ct_isclose_opts;
CT_API ct_tensor *ct_isclose(const ct_tensor *a, const ct_tensor *b, const ct_isclose_opts *opts);
/* torch.allclose: the answer goes to *out. */
CT_API ct_status ct_allclose(const ct_tensor *a, const ct_tensor *b, const ct_isclose_opts *opts, bool *out);

/* where(condition, a, b): condition bool (uint8 accepted, as PyTorch does with a warning); a and b
   promote (Python numbers as wrapped-number tensors). */
CT_API ct_tensor *ct_where(const ct_tensor *condition, const ct_tensor *a, const ct_tensor *b);
CT_API ct_status ct_where_out(ct_tensor *out, const ct_tensor *condition, const ct_tensor *a, const ct_tensor *b);

/* lerp(t, end, weight): a wrapped-number weight is PyTorch's Number weight, any other tensor its Tensor
   weight (same dtype as t). */
CT_API ct_tensor *ct_lerp(const ct_tensor *t, const ct_tensor *end, const ct_tensor *weight);
CT_API ct_status ct_lerp_(ct_tensor *self, const ct_tensor *end, const ct_tensor *weight);
CT_API ct_status ct_lerp_out(ct_tensor *out, const ct_tensor *t, const ct_tensor *end, const ct_tensor *weight);

/* addcmul / addcdiv: t + value * tensor1 * tensor2 (/ tensor2); value of kind 0 means 1. */
typedef struct ct_addc_opts {
  ct_scalar value;
} ct_addc_opts;
#define CT_DECLARE_ADDC(name)                                                                               \
  CT_API ct_tensor *ct_##name(const ct_tensor *t, const ct_tensor *tensor1, const ct_tensor *tensor2,        \
                              const ct_addc_opts *opts);                                                    \
  CT_API ct_status ct_##name##_(ct_tensor *self, const ct_tensor *tensor1, const ct_tensor *tensor2,         \
                                const ct_addc_opts *opts);                                                  \
  CT_API ct_status ct_##name##_out(ct_tensor *out, const ct_tensor *t, const ct_tensor *tensor1,            \
                                   const ct_tensor *tensor2, const ct_addc_opts *opts);
CT_DECLARE_ADDC(addcmul)
CT_DECLARE_ADDC(addcdiv)

/* clamp(t, min, max) (alias clip): NULL is None; when every bound given is a wrapped number this is
   PyTorch's Scalar overload, else its Tensor overload. clamp_min / clamp_max take one bound. */
#define CT_DECLARE_CLAMP(name)                                                                          \
  CT_API ct_tensor *ct_##name(const ct_tensor *t, const ct_tensor *min, const ct_tensor *max);          \
  CT_API ct_status ct_##name##_(ct_tensor *self, const ct_tensor *min, const ct_tensor *max);           \
  CT_API ct_status ct_##name##_out(ct_tensor *out, const ct_tensor *t, const ct_tensor *min, const ct_tensor *max);
CT_DECLARE_CLAMP(clamp)
CT_DECLARE_CLAMP(clip)
CT_DECLARE_BINARY(clamp_min)
CT_DECLARE_BINARY(clamp_max)

/* masked_fill(t, mask, value): value a wrapped number or a 0-dim tensor. The out-of-place result has the
   broadcast shape of t and mask, contiguous. */
CT_API ct_tensor *ct_masked_fill(const ct_tensor *t, const ct_tensor *mask, const ct_tensor *value);
CT_API ct_status ct_masked_fill_(ct_tensor *self, const ct_tensor *mask, const ct_tensor *value);

/* torch.set_num_threads / get_num_threads: threads used by the engine (n <= 0 restores the default). */
CT_API void ct_set_num_threads(int n);
CT_API int ct_get_num_threads(void);

#ifdef __cplusplus
}
#endif
#endif
