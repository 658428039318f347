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
/* Every form PyTorch has, no more: predicates (isnan, isinf, isfinite, isreal) and views/aliases (positive,
   conj, real, imag) have neither an in-place nor an out= form; signbit, isposinf, isneginf and angle have
   out= but no in-place form. */
/* (Declared one by one, not through macros, so tools that read this header see them.) */
CT_API ct_tensor *ct_abs(const ct_tensor *t);
CT_API ct_status ct_abs_(ct_tensor *self);
CT_API ct_status ct_abs_out(ct_tensor *out, const ct_tensor *t);
CT_API ct_tensor *ct_absolute(const ct_tensor *t);
CT_API ct_status ct_absolute_(ct_tensor *self);
CT_API ct_status ct_absolute_out(ct_tensor *out, const ct_tensor *t);
CT_API ct_tensor *ct_sign(const ct_tensor *t);
CT_API ct_status ct_sign_(ct_tensor *self);
CT_API ct_status ct_sign_out(ct_tensor *out, const ct_tensor *t);
CT_API ct_tensor *ct_sgn(const ct_tensor *t);
CT_API ct_status ct_sgn_(ct_tensor *self);
CT_API ct_status ct_sgn_out(ct_tensor *out, const ct_tensor *t);
CT_API ct_tensor *ct_ceil(const ct_tensor *t);
CT_API ct_status ct_ceil_(ct_tensor *self);
CT_API ct_status ct_ceil_out(ct_tensor *out, const ct_tensor *t);
CT_API ct_tensor *ct_floor(const ct_tensor *t);
CT_API ct_status ct_floor_(ct_tensor *self);
CT_API ct_status ct_floor_out(ct_tensor *out, const ct_tensor *t);
CT_API ct_tensor *ct_trunc(const ct_tensor *t);
CT_API ct_status ct_trunc_(ct_tensor *self);
CT_API ct_status ct_trunc_out(ct_tensor *out, const ct_tensor *t);
CT_API ct_tensor *ct_fix(const ct_tensor *t);
CT_API ct_status ct_fix_(ct_tensor *self);
CT_API ct_status ct_fix_out(ct_tensor *out, const ct_tensor *t);
CT_API ct_tensor *ct_frac(const ct_tensor *t);
CT_API ct_status ct_frac_(ct_tensor *self);
CT_API ct_status ct_frac_out(ct_tensor *out, const ct_tensor *t);
CT_API ct_tensor *ct_reciprocal(const ct_tensor *t);
CT_API ct_status ct_reciprocal_(ct_tensor *self);
CT_API ct_status ct_reciprocal_out(ct_tensor *out, const ct_tensor *t);
CT_API ct_tensor *ct_square(const ct_tensor *t);
CT_API ct_status ct_square_(ct_tensor *self);
CT_API ct_status ct_square_out(ct_tensor *out, const ct_tensor *t);
CT_API ct_tensor *ct_deg2rad(const ct_tensor *t);
CT_API ct_status ct_deg2rad_(ct_tensor *self);
CT_API ct_status ct_deg2rad_out(ct_tensor *out, const ct_tensor *t);
CT_API ct_tensor *ct_rad2deg(const ct_tensor *t);
CT_API ct_status ct_rad2deg_(ct_tensor *self);
CT_API ct_status ct_rad2deg_out(ct_tensor *out, const ct_tensor *t);
CT_API ct_tensor *ct_conj_physical(const ct_tensor *t);
CT_API ct_status ct_conj_physical_(ct_tensor *self);
CT_API ct_status ct_conj_physical_out(ct_tensor *out, const ct_tensor *t);
CT_API ct_tensor *ct_bitwise_not(const ct_tensor *t);
CT_API ct_status ct_bitwise_not_(ct_tensor *self);
CT_API ct_status ct_bitwise_not_out(ct_tensor *out, const ct_tensor *t);
CT_API ct_tensor *ct_logical_not(const ct_tensor *t);
CT_API ct_status ct_logical_not_(ct_tensor *self);
CT_API ct_status ct_logical_not_out(ct_tensor *out, const ct_tensor *t);
CT_API ct_tensor *ct_signbit(const ct_tensor *t);
CT_API ct_status ct_signbit_out(ct_tensor *out, const ct_tensor *t);
CT_API ct_tensor *ct_isposinf(const ct_tensor *t);
CT_API ct_status ct_isposinf_out(ct_tensor *out, const ct_tensor *t);
CT_API ct_tensor *ct_isneginf(const ct_tensor *t);
CT_API ct_status ct_isneginf_out(ct_tensor *out, const ct_tensor *t);
CT_API ct_tensor *ct_angle(const ct_tensor *t);
CT_API ct_status ct_angle_out(ct_tensor *out, const ct_tensor *t);
/* Functional only. positive returns t itself (a new reference; bool tensors are an error). conj: ctorch has
   no lazy conjugate bit, so a complex t gives a new tensor holding the conjugate (the values of torch's
   resolved conj()); other dtypes give t itself. real/imag of a complex t are views of its storage (float
   dtype, strides doubled); real of a real t is t itself, imag of one is an error. */
CT_API ct_tensor *ct_positive(const ct_tensor *t);
CT_API ct_tensor *ct_conj(const ct_tensor *t);
CT_API ct_tensor *ct_real(const ct_tensor *t);
CT_API ct_tensor *ct_imag(const ct_tensor *t);
CT_API ct_tensor *ct_isnan(const ct_tensor *t);
CT_API ct_tensor *ct_isinf(const ct_tensor *t);
CT_API ct_tensor *ct_isfinite(const ct_tensor *t);
CT_API ct_tensor *ct_isreal(const ct_tensor *t);

/* torch.round(input, *, decimals=0). decimals != 0 rounds to that many decimal places (negative: to tens,
   hundreds, ...), float32/float64/bfloat16 only, as PyTorch's round.decimals. */
typedef struct ct_round_opts {
  int64_t decimals;
} ct_round_opts;
CT_API ct_tensor *ct_round(const ct_tensor *t, const ct_round_opts *opts);
CT_API ct_status ct_round_(ct_tensor *self, const ct_round_opts *opts);
CT_API ct_status ct_round_out(ct_tensor *out, const ct_tensor *t, const ct_round_opts *opts);

/* torch.nan_to_num(input, nan=0.0, posinf=None, neginf=None): NaN becomes nan, +inf posinf (default the
   dtype's largest finite value), -inf neginf (default the lowest). */
typedef struct ct_nan_to_num_opts {
  double nan;
  bool has_posinf;
  double posinf;
  bool has_neginf;
  double neginf;
} ct_nan_to_num_opts;
CT_API ct_tensor *ct_nan_to_num(const ct_tensor *t, const ct_nan_to_num_opts *opts);
CT_API ct_status ct_nan_to_num_(ct_tensor *self, const ct_nan_to_num_opts *opts);
CT_API ct_status ct_nan_to_num_out(ct_tensor *out, const ct_tensor *t, const ct_nan_to_num_opts *opts);

/* ===== binary arithmetic: div, remainder, pow, atan2, hypot, min/max, ... ===== */
/* Python numbers go in as wrapped-number tensors (ct_wrapped_scalar), in either position:
   ct_remainder(ct_wrapped_scalar(ct_scalar_int(5)), t) is torch.remainder(5, t). pow follows PyTorch's
   three overloads by which argument is a wrapped number: ct_pow(t, e) with e a wrapped number is
   pow(Tensor, Scalar) (torch's special cases for exponents 0, 1, 2, 3, -2, 0.5, -0.5, -1 and the integer
   rules: "Integers to negative integer powers are not allowed."), ct_pow(b, t) with b a wrapped number is
   pow(Scalar, Tensor) (a contiguous result; base 1 gives ones), otherwise pow(Tensor, Tensor). The same
   holds for float_power, which always computes in float64 / complex128. */

/* div / divide: rounding_mode NULL (true division), "trunc" or "floor"; any other string fails with
   PyTorch's message. (Declared one by one, not through macros, so tools that read this header see them.) */
typedef struct ct_div_opts {
  const char *rounding_mode;
} ct_div_opts;

CT_API ct_tensor *ct_div(const ct_tensor *a, const ct_tensor *b, const ct_div_opts *opts);
CT_API ct_status ct_div_(ct_tensor *self, const ct_tensor *other, const ct_div_opts *opts);
CT_API ct_status ct_div_out(ct_tensor *out, const ct_tensor *a, const ct_tensor *b, const ct_div_opts *opts);
CT_API ct_tensor *ct_divide(const ct_tensor *a, const ct_tensor *b, const ct_div_opts *opts);
CT_API ct_status ct_divide_(ct_tensor *self, const ct_tensor *other, const ct_div_opts *opts);
CT_API ct_status ct_divide_out(ct_tensor *out, const ct_tensor *a, const ct_tensor *b, const ct_div_opts *opts);
CT_API ct_tensor *ct_true_divide(const ct_tensor *a, const ct_tensor *b);
CT_API ct_status ct_true_divide_(ct_tensor *self, const ct_tensor *other);
CT_API ct_status ct_true_divide_out(ct_tensor *out, const ct_tensor *a, const ct_tensor *b);
CT_API ct_tensor *ct_floor_divide(const ct_tensor *a, const ct_tensor *b);
CT_API ct_status ct_floor_divide_(ct_tensor *self, const ct_tensor *other);
CT_API ct_status ct_floor_divide_out(ct_tensor *out, const ct_tensor *a, const ct_tensor *b);
CT_API ct_tensor *ct_remainder(const ct_tensor *a, const ct_tensor *b);
CT_API ct_status ct_remainder_(ct_tensor *self, const ct_tensor *other);
CT_API ct_status ct_remainder_out(ct_tensor *out, const ct_tensor *a, const ct_tensor *b);
CT_API ct_tensor *ct_fmod(const ct_tensor *a, const ct_tensor *b);
CT_API ct_status ct_fmod_(ct_tensor *self, const ct_tensor *other);
CT_API ct_status ct_fmod_out(ct_tensor *out, const ct_tensor *a, const ct_tensor *b);
CT_API ct_tensor *ct_pow(const ct_tensor *a, const ct_tensor *b);
CT_API ct_status ct_pow_(ct_tensor *self, const ct_tensor *other);
CT_API ct_status ct_pow_out(ct_tensor *out, const ct_tensor *a, const ct_tensor *b);
CT_API ct_tensor *ct_float_power(const ct_tensor *a, const ct_tensor *b);
CT_API ct_status ct_float_power_(ct_tensor *self, const ct_tensor *other);
CT_API ct_status ct_float_power_out(ct_tensor *out, const ct_tensor *a, const ct_tensor *b);
CT_API ct_tensor *ct_atan2(const ct_tensor *a, const ct_tensor *b);
CT_API ct_status ct_atan2_(ct_tensor *self, const ct_tensor *other);
CT_API ct_status ct_atan2_out(ct_tensor *out, const ct_tensor *a, const ct_tensor *b);
CT_API ct_tensor *ct_arctan2(const ct_tensor *a, const ct_tensor *b);
CT_API ct_status ct_arctan2_(ct_tensor *self, const ct_tensor *other);
CT_API ct_status ct_arctan2_out(ct_tensor *out, const ct_tensor *a, const ct_tensor *b);
CT_API ct_tensor *ct_hypot(const ct_tensor *a, const ct_tensor *b);
CT_API ct_status ct_hypot_(ct_tensor *self, const ct_tensor *other);
CT_API ct_status ct_hypot_out(ct_tensor *out, const ct_tensor *a, const ct_tensor *b);
CT_API ct_tensor *ct_nextafter(const ct_tensor *a, const ct_tensor *b);
CT_API ct_status ct_nextafter_(ct_tensor *self, const ct_tensor *other);
CT_API ct_status ct_nextafter_out(ct_tensor *out, const ct_tensor *a, const ct_tensor *b);
CT_API ct_tensor *ct_copysign(const ct_tensor *a, const ct_tensor *b);
CT_API ct_status ct_copysign_(ct_tensor *self, const ct_tensor *other);
CT_API ct_status ct_copysign_out(ct_tensor *out, const ct_tensor *a, const ct_tensor *b);
CT_API ct_tensor *ct_xlogy(const ct_tensor *a, const ct_tensor *b);
CT_API ct_status ct_xlogy_(ct_tensor *self, const ct_tensor *other);
CT_API ct_status ct_xlogy_out(ct_tensor *out, const ct_tensor *a, const ct_tensor *b);
/* no in-place form in PyTorch */
CT_API ct_tensor *ct_logaddexp(const ct_tensor *a, const ct_tensor *b);
CT_API ct_status ct_logaddexp_out(ct_tensor *out, const ct_tensor *a, const ct_tensor *b);
CT_API ct_tensor *ct_logaddexp2(const ct_tensor *a, const ct_tensor *b);
CT_API ct_status ct_logaddexp2_out(ct_tensor *out, const ct_tensor *a, const ct_tensor *b);
CT_API ct_tensor *ct_maximum(const ct_tensor *a, const ct_tensor *b);
CT_API ct_status ct_maximum_out(ct_tensor *out, const ct_tensor *a, const ct_tensor *b);
CT_API ct_tensor *ct_minimum(const ct_tensor *a, const ct_tensor *b);
CT_API ct_status ct_minimum_out(ct_tensor *out, const ct_tensor *a, const ct_tensor *b);
CT_API ct_tensor *ct_fmax(const ct_tensor *a, const ct_tensor *b);
CT_API ct_status ct_fmax_out(ct_tensor *out, const ct_tensor *a, const ct_tensor *b);
CT_API ct_tensor *ct_fmin(const ct_tensor *a, const ct_tensor *b);
CT_API ct_status ct_fmin_out(ct_tensor *out, const ct_tensor *a, const ct_tensor *b);
CT_API ct_tensor *ct_special_xlogy(const ct_tensor *a, const ct_tensor *b);
CT_API ct_status ct_special_xlogy_out(ct_tensor *out, const ct_tensor *a, const ct_tensor *b);

/* ===== comparison, logical, bitwise and ternary ops ===== */

/* torch.set_num_threads / get_num_threads: threads used by the engine (n <= 0 restores the default). */
CT_API void ct_set_num_threads(int n);
CT_API int ct_get_num_threads(void);

#ifdef __cplusplus
}
#endif
#endif
