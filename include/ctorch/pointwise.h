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
/* Python numbers go in as wrapped-number tensors (ct_wrapped_scalar), in either position:
   ct_remainder(ct_wrapped_scalar(ct_scalar_int(5)), t) is torch.remainder(5, t). pow follows PyTorch's
   three overloads by which argument is a wrapped number: ct_pow(t, e) with e a wrapped number is
   pow(Tensor, Scalar) (torch's special cases for exponents 0, 1, 2, 3, -2, 0.5, -0.5, -1 and the integer
   rules: "Integers to negative integer powers are not allowed."), ct_pow(b, t) with b a wrapped number is
   pow(Scalar, Tensor) (a contiguous result; base 1 gives ones), otherwise pow(Tensor, Tensor). The same
   holds for float_power, which always computes in float64 / complex128. */

/* div / divide: rounding_mode NULL (true division), "trunc" or "floor"; any other string fails with
   PyTorch's message. */
typedef struct ct_div_opts {
  const char *rounding_mode;
} ct_div_opts;
#define CT_DECLARE_DIV(name)                                                                          \
  CT_API ct_tensor *ct_##name(const ct_tensor *a, const ct_tensor *b, const ct_div_opts *opts);       \
  CT_API ct_status ct_##name##_(ct_tensor *self, const ct_tensor *other, const ct_div_opts *opts);    \
  CT_API ct_status ct_##name##_out(ct_tensor *out, const ct_tensor *a, const ct_tensor *b, const ct_div_opts *opts);
#define CT_POINTWISE_DIV_OPS(X) X(div) X(divide)
#define CT_POINTWISE_BINARY_ARITH_OPS(X)                                                               \
  X(true_divide) X(floor_divide) X(remainder) X(fmod) X(pow) X(float_power) X(atan2) X(arctan2) X(hypot) \
  X(nextafter) X(copysign) X(xlogy)
/* no in-place form in PyTorch */
#define CT_POINTWISE_BINARY_ARITH_NO_INPLACE_OPS(X) \
  X(logaddexp) X(logaddexp2) X(maximum) X(minimum) X(fmax) X(fmin) X(special_xlogy)
CT_POINTWISE_DIV_OPS(CT_DECLARE_DIV)
CT_POINTWISE_BINARY_ARITH_OPS(CT_DECLARE_BINARY)
CT_POINTWISE_BINARY_ARITH_NO_INPLACE_OPS(CT_DECLARE_BINARY_NO_INPLACE)

/* ===== comparison, logical, bitwise and ternary ops ===== */

/* torch.set_num_threads / get_num_threads: threads used by the engine (n <= 0 restores the default). */
CT_API void ct_set_num_threads(int n);
CT_API int ct_get_num_threads(void);

#ifdef __cplusplus
}
#endif
#endif
