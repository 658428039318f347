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
/* Integer and bool inputs compute in the default float dtype; complex where PyTorch has a kernel. */
#define CT_POINTWISE_MATH_UNARY_OPS(X)                                                                      \
  X(sqrt) X(rsqrt) X(exp) X(exp2) X(expm1) X(log) X(log2) X(log10) X(log1p) X(sin) X(cos) X(tan) X(asin)    \
  X(arcsin) X(acos) X(arccos) X(atan) X(arctan) X(sinh) X(cosh) X(tanh) X(asinh) X(arcsinh) X(acosh)        \
  X(arccosh) X(atanh) X(arctanh) X(sigmoid) X(erf) X(erfc) X(erfinv) X(lgamma) X(digamma) X(i0) X(sinc)
CT_POINTWISE_MATH_UNARY_OPS(CT_DECLARE_UNARY)
/* torch.special aliases: ct_special_X and ct_special_X_out. */
#define CT_POINTWISE_MATH_SPECIAL_OPS(X) \
  X(special_expit) X(special_exp2) X(special_expm1) X(special_log1p) X(special_erf) X(special_erfc) \
  X(special_erfinv) X(special_gammaln) X(special_digamma) X(special_psi) X(special_i0) X(special_sinc)
CT_POINTWISE_MATH_SPECIAL_OPS(CT_DECLARE_UNARY_NO_INPLACE)

/* logit's eps: kind 0 (the zero value) is None; a bool or int counts as its float value. */
typedef struct ct_logit_opts {
  ct_scalar eps;
} ct_logit_opts;
CT_API ct_tensor *ct_logit(const ct_tensor *t, const ct_logit_opts *opts);
CT_API ct_status ct_logit_(ct_tensor *self, const ct_logit_opts *opts);
CT_API ct_status ct_logit_out(ct_tensor *out, const ct_tensor *t, const ct_logit_opts *opts);
CT_API ct_tensor *ct_special_logit(const ct_tensor *t, const ct_logit_opts *opts);
CT_API ct_status ct_special_logit_out(ct_tensor *out, const ct_tensor *t, const ct_logit_opts *opts);
/* torch.polygamma(n, t); Tensor.polygamma_(n). */
CT_API ct_tensor *ct_polygamma(int64_t n, const ct_tensor *t);
CT_API ct_status ct_polygamma_(ct_tensor *self, int64_t n);
CT_API ct_status ct_polygamma_out(ct_tensor *out, int64_t n, const ct_tensor *t);
CT_API ct_tensor *ct_special_polygamma(int64_t n, const ct_tensor *t);
CT_API ct_status ct_special_polygamma_out(ct_tensor *out, int64_t n, const ct_tensor *t);
/* torch.mvlgamma(t, p) (torch.special.multigammaln); the result is contiguous, as PyTorch's. */
CT_API ct_tensor *ct_mvlgamma(const ct_tensor *t, int64_t p);
CT_API ct_status ct_mvlgamma_(ct_tensor *self, int64_t p);
CT_API ct_status ct_mvlgamma_out(ct_tensor *out, const ct_tensor *t, int64_t p);
CT_API ct_tensor *ct_special_multigammaln(const ct_tensor *t, int64_t p);
CT_API ct_status ct_special_multigammaln_out(ct_tensor *out, const ct_tensor *t, int64_t p);

/* ===== unary elementary: abs, sign, rounding, predicates, complex parts, bitwise/logical not ===== */

/* ===== binary arithmetic: div, remainder, pow, atan2, hypot, min/max, ... ===== */

/* ===== comparison, logical, bitwise and ternary ops ===== */

/* torch.set_num_threads / get_num_threads: threads used by the engine (n <= 0 restores the default). */
CT_API void ct_set_num_threads(int n);
CT_API int ct_get_num_threads(void);

#ifdef __cplusplus
}
#endif
#endif
