/* Pointwise ops. Each comes in three forms where PyTorch has them: ct_X (a new tensor), ct_X_ (in place,
   returns a status) and ct_X_out (writes into out, resized as PyTorch resizes out= tensors). A Python
   number operand is a wrapped-number tensor (ct_wrapped_scalar); in C a binary op also takes it as a C
   number, in either position (ct_mul(0.1, t), ct_add(t, 1, NULL): args.h and pointwise_args.h).

   The ops are listed in pointwise_ops.h; those with a regular signature are declared here from that
   list, the others one by one below. docs/api/pointwise.md lists every op with its prototypes, torch
   name, promotion kind and dtypes. */
#ifndef CTORCH_POINTWISE_H
#define CTORCH_POINTWISE_H

#include "error.h"
#include "pointwise_ops.h"
#include "types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* alpha for add and sub; kind 0 (the zero value) means 1. */
typedef struct ct_alpha_opts {
  ct_scalar alpha;
} ct_alpha_opts;

/* The forms of pointwise_ops.h's entries. */
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

/* The regular ops of pointwise_ops.h: an entry of form F declares CT_DECLARE_F(name). */
#define CT_POINTWISE_DECLARE(name, form, torch, kind_or_target) CT_DECLARE_##form(name)
CT_POINTWISE_OPS(CT_POINTWISE_DECLARE, CT_POINTWISE_DECLARE, CT_POINTWISE_SKIP)

/* ===== unary math with arguments of their own ===== */
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
/* torch.mvlgamma(t, p) (torch.special.multigammaln); the result is contiguous, as PyTorch's. It takes
   O(numel * p) time, as PyTorch does; PyTorch first allocates p and numel * p values (arange(p) and the
   lgamma arguments), so p is bounded as there: where those blocks could not be had (their sizes overflow,
   or a trial allocation of a block over 1 GiB fails) the call fails at once with PyTorch's error. */
CT_API ct_tensor *ct_mvlgamma(const ct_tensor *t, int64_t p);
CT_API ct_status ct_mvlgamma_(ct_tensor *self, int64_t p);
CT_API ct_status ct_mvlgamma_out(ct_tensor *out, const ct_tensor *t, int64_t p);
CT_API ct_tensor *ct_special_multigammaln(const ct_tensor *t, int64_t p);
CT_API ct_status ct_special_multigammaln_out(ct_tensor *out, const ct_tensor *t, int64_t p);

/* ===== unary elementary ops with arguments or forms of their own ===== */
/* Functional only (no in-place or out= form). positive returns t itself (a new reference; bool tensors
   are an error). conj: a complex t gives a view of its storage with the conjugate bit flipped (no copy;
   view.h's ct_is_conj), other dtypes give t itself; conj_physical computes the conjugate into new memory.
   real/imag of a complex t are views of its storage (float dtype, strides doubled); imag of a conjugated t
   has the negative bit (ct_is_neg); real of a real t is t itself, imag of one is an error. */
CT_API ct_tensor *ct_positive(const ct_tensor *t);
CT_API ct_tensor *ct_conj(const ct_tensor *t);
CT_API ct_tensor *ct_real(const ct_tensor *t);
CT_API ct_tensor *ct_imag(const ct_tensor *t);
/* Predicates that follow ATen's composites (isnan is t != t, isinf abs(t) == inf, ...): the result has the
   layout of the composite's last step. Integer and bool tensors give all false (isnan, isinf) or all
   true (isfinite, isreal). */
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

/* ===== binary arithmetic with arguments of their own: div, pow ===== */
/* Python numbers go in as wrapped-number tensors (ct_wrapped_scalar), in either position:
   ct_remainder(ct_wrapped_scalar(ct_scalar_int(5)), t) is torch.remainder(5, t). pow follows PyTorch's
   three overloads by which argument is a wrapped number: ct_pow(t, e) with e a wrapped number is
   pow(Tensor, Scalar) (torch's special cases for exponents 0, 1, 2, 3, -2, 0.5, -0.5, -1 and the integer
   rules: "Integers to negative integer powers are not allowed."), ct_pow(b, t) with b a wrapped number is
   pow(Scalar, Tensor) (a contiguous result; base 1 gives ones), otherwise pow(Tensor, Tensor). The same
   holds for float_power, which always computes in float64 / complex128. */
CT_DECLARE_BINARY(pow)
CT_DECLARE_BINARY(float_power)

/* div / divide: rounding_mode NULL (true division), "trunc" or "floor"; any other string fails with
   PyTorch's message. */
typedef struct ct_div_opts {
  const char *rounding_mode;
} ct_div_opts;
CT_API ct_tensor *ct_div(const ct_tensor *a, const ct_tensor *b, const ct_div_opts *opts);
CT_API ct_status ct_div_(ct_tensor *self, const ct_tensor *other, const ct_div_opts *opts);
CT_API ct_status ct_div_out(ct_tensor *out, const ct_tensor *a, const ct_tensor *b, const ct_div_opts *opts);
CT_API ct_tensor *ct_divide(const ct_tensor *a, const ct_tensor *b, const ct_div_opts *opts);
CT_API ct_status ct_divide_(ct_tensor *self, const ct_tensor *other, const ct_div_opts *opts);
CT_API ct_status ct_divide_out(ct_tensor *out, const ct_tensor *a, const ct_tensor *b, const ct_div_opts *opts);

/* ===== comparison and ternary ops with arguments of their own ===== */
/* isclose / allclose: rtol and atol of kind 0 (the zero value) mean PyTorch's 1e-05 and 1e-08. */
typedef struct ct_isclose_opts {
  ct_scalar rtol;
  ct_scalar atol;
  bool equal_nan;
} ct_isclose_opts;
CT_API ct_tensor *ct_isclose(const ct_tensor *a, const ct_tensor *b, const ct_isclose_opts *opts);
/* torch.allclose: the answer goes to *out. */
CT_API ct_status ct_allclose(const ct_tensor *a, const ct_tensor *b, bool *out, const ct_isclose_opts *opts);

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
CT_API ct_tensor *ct_clamp_min(const ct_tensor *t, const ct_tensor *min);
CT_API ct_status ct_clamp_min_(ct_tensor *self, const ct_tensor *min);
CT_API ct_status ct_clamp_min_out(ct_tensor *out, const ct_tensor *t, const ct_tensor *min);
CT_API ct_tensor *ct_clamp_max(const ct_tensor *t, const ct_tensor *max);
CT_API ct_status ct_clamp_max_(ct_tensor *self, const ct_tensor *max);
CT_API ct_status ct_clamp_max_out(ct_tensor *out, const ct_tensor *t, const ct_tensor *max);

/* masked_fill(t, mask, value): value a wrapped number or a 0-dim tensor. The out-of-place result has the
   broadcast shape of t and mask, contiguous. */
CT_API ct_tensor *ct_masked_fill(const ct_tensor *t, const ct_tensor *mask, const ct_tensor *value);
CT_API ct_status ct_masked_fill_(ct_tensor *self, const ct_tensor *mask, const ct_tensor *value);

/* torch.set_num_threads / get_num_threads: threads used by the engine (n <= 0 restores the default). */
CT_API void ct_set_num_threads(int n);
CT_API int ct_get_num_threads(void);

/* C: the table's regular ops as macros that check their arguments and take Python numbers as binary
   operands (generated: pointwise_args.h); the same for the ops declared by hand above (args.h). */
#include "pointwise_args.h"
#if !defined(__cplusplus) && !defined(CT_BUILDING_LIBRARY)
#define ct_logit(...) CT__CHECKED(2, CT__CK_ct_logit, ct_logit, __VA_ARGS__)
#define CT__CK_ct_logit(t, o) ct_logit(CT__T(t), CT__OPTS(ct_logit_opts, o))
#define ct_logit_(...) CT__CHECKED(2, CT__CK_ct_logit_, ct_logit_, __VA_ARGS__)
#define CT__CK_ct_logit_(self, o) ct_logit_(CT__TM(self), CT__OPTS(ct_logit_opts, o))
#define ct_logit_out(...) CT__CHECKED(3, CT__CK_ct_logit_out, ct_logit_out, __VA_ARGS__)
#define CT__CK_ct_logit_out(out, t, o) ct_logit_out(CT__TM(out), CT__T(t), CT__OPTS(ct_logit_opts, o))
#define ct_special_logit(...) CT__CHECKED(2, CT__CK_ct_special_logit, ct_special_logit, __VA_ARGS__)
#define CT__CK_ct_special_logit(t, o) ct_special_logit(CT__T(t), CT__OPTS(ct_logit_opts, o))
#define ct_special_logit_out(...) CT__CHECKED(3, CT__CK_ct_special_logit_out, ct_special_logit_out, __VA_ARGS__)
#define CT__CK_ct_special_logit_out(out, t, o) \
  ct_special_logit_out(CT__TM(out), CT__T(t), CT__OPTS(ct_logit_opts, o))
#define ct_round(...) CT__CHECKED(2, CT__CK_ct_round, ct_round, __VA_ARGS__)
#define CT__CK_ct_round(t, o) ct_round(CT__T(t), CT__OPTS(ct_round_opts, o))
#define ct_round_(...) CT__CHECKED(2, CT__CK_ct_round_, ct_round_, __VA_ARGS__)
#define CT__CK_ct_round_(self, o) ct_round_(CT__TM(self), CT__OPTS(ct_round_opts, o))
#define ct_round_out(...) CT__CHECKED(3, CT__CK_ct_round_out, ct_round_out, __VA_ARGS__)
#define CT__CK_ct_round_out(out, t, o) ct_round_out(CT__TM(out), CT__T(t), CT__OPTS(ct_round_opts, o))
#define ct_nan_to_num(...) CT__CHECKED(2, CT__CK_ct_nan_to_num, ct_nan_to_num, __VA_ARGS__)
#define CT__CK_ct_nan_to_num(t, o) ct_nan_to_num(CT__T(t), CT__OPTS(ct_nan_to_num_opts, o))
#define ct_nan_to_num_(...) CT__CHECKED(2, CT__CK_ct_nan_to_num_, ct_nan_to_num_, __VA_ARGS__)
#define CT__CK_ct_nan_to_num_(self, o) ct_nan_to_num_(CT__TM(self), CT__OPTS(ct_nan_to_num_opts, o))
#define ct_nan_to_num_out(...) CT__CHECKED(3, CT__CK_ct_nan_to_num_out, ct_nan_to_num_out, __VA_ARGS__)
#define CT__CK_ct_nan_to_num_out(out, t, o) \
  ct_nan_to_num_out(CT__TM(out), CT__T(t), CT__OPTS(ct_nan_to_num_opts, o))
#define ct_isclose(...) CT__CHECKED(3, CT__CK_ct_isclose, ct_isclose, __VA_ARGS__)
#define CT__CK_ct_isclose(t, t2, o) ct_isclose(CT__T(t), CT__T(t2), CT__OPTS(ct_isclose_opts, o))
#define ct_allclose(...) CT__CHECKED(4, CT__CK_ct_allclose, ct_allclose, __VA_ARGS__)
#define CT__CK_ct_allclose(t, t2, a, o) ct_allclose(CT__T(t), CT__T(t2), a, CT__OPTS(ct_isclose_opts, o))
#define ct_addcmul(...) CT__CHECKED(4, CT__CK_ct_addcmul, ct_addcmul, __VA_ARGS__)
#define CT__CK_ct_addcmul(t, t2, t3, o) ct_addcmul(CT__T(t), CT__T(t2), CT__T(t3), CT__OPTS(ct_addc_opts, o))
#define ct_addcmul_(...) CT__CHECKED(4, CT__CK_ct_addcmul_, ct_addcmul_, __VA_ARGS__)
#define CT__CK_ct_addcmul_(self, t, t2, o) \
  ct_addcmul_(CT__TM(self), CT__T(t), CT__T(t2), CT__OPTS(ct_addc_opts, o))
#define ct_addcmul_out(...) CT__CHECKED(5, CT__CK_ct_addcmul_out, ct_addcmul_out, __VA_ARGS__)
#define CT__CK_ct_addcmul_out(out, t, t2, t3, o) \
  ct_addcmul_out(CT__TM(out), CT__T(t), CT__T(t2), CT__T(t3), CT__OPTS(ct_addc_opts, o))
#define ct_addcdiv(...) CT__CHECKED(4, CT__CK_ct_addcdiv, ct_addcdiv, __VA_ARGS__)
#define CT__CK_ct_addcdiv(t, t2, t3, o) ct_addcdiv(CT__T(t), CT__T(t2), CT__T(t3), CT__OPTS(ct_addc_opts, o))
#define ct_addcdiv_(...) CT__CHECKED(4, CT__CK_ct_addcdiv_, ct_addcdiv_, __VA_ARGS__)
#define CT__CK_ct_addcdiv_(self, t, t2, o) \
  ct_addcdiv_(CT__TM(self), CT__T(t), CT__T(t2), CT__OPTS(ct_addc_opts, o))
#define ct_addcdiv_out(...) CT__CHECKED(5, CT__CK_ct_addcdiv_out, ct_addcdiv_out, __VA_ARGS__)
#define CT__CK_ct_addcdiv_out(out, t, t2, t3, o) \
  ct_addcdiv_out(CT__TM(out), CT__T(t), CT__T(t2), CT__T(t3), CT__OPTS(ct_addc_opts, o))
#define ct_positive(t) ct_positive(CT__T(t))
#define ct_conj(t) ct_conj(CT__T(t))
#define ct_real(t) ct_real(CT__T(t))
#define ct_imag(t) ct_imag(CT__T(t))
#define ct_isnan(t) ct_isnan(CT__T(t))
#define ct_isinf(t) ct_isinf(CT__T(t))
#define ct_isfinite(t) ct_isfinite(CT__T(t))
#define ct_isreal(t) ct_isreal(CT__T(t))
#define ct_div(...) CT__CHECKED(3, CT__CK_ct_div, ct_div, __VA_ARGS__)
#define CT__CK_ct_div(a, b, o) ct_call_div(ct_div, CT_ARG(a), CT_ARG(b), CT__OPTS(ct_div_opts, o))
#define ct_div_(...) CT__CHECKED(3, CT__CK_ct_div_, ct_div_, __VA_ARGS__)
#define CT__CK_ct_div_(self, other, o) ct_call_div_(ct_div_, CT__TM(self), CT_ARG(other), CT__OPTS(ct_div_opts, o))
#define ct_div_out(...) CT__CHECKED(4, CT__CK_ct_div_out, ct_div_out, __VA_ARGS__)
#define CT__CK_ct_div_out(out, a, b, o) \
  ct_call_div_out(ct_div_out, CT__TM(out), CT_ARG(a), CT_ARG(b), CT__OPTS(ct_div_opts, o))
#define ct_divide(...) CT__CHECKED(3, CT__CK_ct_divide, ct_divide, __VA_ARGS__)
#define CT__CK_ct_divide(a, b, o) ct_call_div(ct_divide, CT_ARG(a), CT_ARG(b), CT__OPTS(ct_div_opts, o))
#define ct_divide_(...) CT__CHECKED(3, CT__CK_ct_divide_, ct_divide_, __VA_ARGS__)
#define CT__CK_ct_divide_(self, other, o) ct_call_div_(ct_divide_, CT__TM(self), CT_ARG(other), CT__OPTS(ct_div_opts, o))
#define ct_divide_out(...) CT__CHECKED(4, CT__CK_ct_divide_out, ct_divide_out, __VA_ARGS__)
#define CT__CK_ct_divide_out(out, a, b, o) \
  ct_call_div_out(ct_divide_out, CT__TM(out), CT_ARG(a), CT_ARG(b), CT__OPTS(ct_div_opts, o))
#define ct_pow(a, b) ct_call_binary(ct_pow, CT_ARG(a), CT_ARG(b))
#define ct_pow_(self, other) ct_call_binary_(ct_pow_, CT__TM(self), CT_ARG(other))
#define ct_pow_out(out, a, b) ct_call_binary_out(ct_pow_out, CT__TM(out), CT_ARG(a), CT_ARG(b))
#define ct_float_power(a, b) ct_call_binary(ct_float_power, CT_ARG(a), CT_ARG(b))
#define ct_float_power_(self, other) ct_call_binary_(ct_float_power_, CT__TM(self), CT_ARG(other))
#define ct_float_power_out(out, a, b) ct_call_binary_out(ct_float_power_out, CT__TM(out), CT_ARG(a), CT_ARG(b))
/* Python numbers where torch takes them: where's a and b, lerp's weight, clamp's bounds (NULL: None),
   masked_fill's value. ct_where(c, t, 0.0), ct_lerp(a, b, 0.5), ct_clamp(t, 0, 1), ct_masked_fill(t, m, -1). */
#define ct_where(c, a, b) ct_call_ternary(ct_where, CT_ARG(CT__T(c)), CT_ARG(a), CT_ARG(b))
#define ct_where_out(out, c, a, b) ct_call_ternary_out(ct_where_out, CT__TM(out), CT_ARG(CT__T(c)), CT_ARG(a), CT_ARG(b))
#define ct_lerp(t, end, w) ct_call_ternary(ct_lerp, CT_ARG(CT__T(t)), CT_ARG(CT__T(end)), CT_ARG(w))
#define ct_lerp_(self, end, w) ct_call_ternary_(ct_lerp_, CT__TM(self), CT_ARG(CT__T(end)), CT_ARG(w))
#define ct_lerp_out(out, t, end, w) \
  ct_call_ternary_out(ct_lerp_out, CT__TM(out), CT_ARG(CT__T(t)), CT_ARG(CT__T(end)), CT_ARG(w))
#define ct_clamp(t, lo, hi) ct_call_ternary(ct_clamp, CT_ARG(CT__T(t)), CT_ARG(lo), CT_ARG(hi))
#define ct_clamp_(self, lo, hi) ct_call_ternary_(ct_clamp_, CT__TM(self), CT_ARG(lo), CT_ARG(hi))
#define ct_clamp_out(out, t, lo, hi) ct_call_ternary_out(ct_clamp_out, CT__TM(out), CT_ARG(CT__T(t)), CT_ARG(lo), CT_ARG(hi))
#define ct_clip(t, lo, hi) ct_call_ternary(ct_clip, CT_ARG(CT__T(t)), CT_ARG(lo), CT_ARG(hi))
#define ct_clip_(self, lo, hi) ct_call_ternary_(ct_clip_, CT__TM(self), CT_ARG(lo), CT_ARG(hi))
#define ct_clip_out(out, t, lo, hi) ct_call_ternary_out(ct_clip_out, CT__TM(out), CT_ARG(CT__T(t)), CT_ARG(lo), CT_ARG(hi))
#define ct_clamp_min(t, lo) ct_call_binary(ct_clamp_min, CT_ARG(CT__T(t)), CT_ARG(lo))
#define ct_clamp_min_(self, lo) ct_call_binary_(ct_clamp_min_, CT__TM(self), CT_ARG(lo))
#define ct_clamp_min_out(out, t, lo) ct_call_binary_out(ct_clamp_min_out, CT__TM(out), CT_ARG(CT__T(t)), CT_ARG(lo))
#define ct_clamp_max(t, hi) ct_call_binary(ct_clamp_max, CT_ARG(CT__T(t)), CT_ARG(hi))
#define ct_clamp_max_(self, hi) ct_call_binary_(ct_clamp_max_, CT__TM(self), CT_ARG(hi))
#define ct_clamp_max_out(out, t, hi) ct_call_binary_out(ct_clamp_max_out, CT__TM(out), CT_ARG(CT__T(t)), CT_ARG(hi))
#define ct_masked_fill(t, mask, v) ct_call_ternary(ct_masked_fill, CT_ARG(CT__T(t)), CT_ARG(CT__T(mask)), CT_ARG(v))
#define ct_masked_fill_(self, mask, v) ct_call_ternary_(ct_masked_fill_, CT__TM(self), CT_ARG(CT__T(mask)), CT_ARG(v))
#endif

#ifdef __cplusplus
}
#endif
#endif
