/* The pointwise ops, one line each. This list is the one place an op is named: pointwise.h declares the
   prototypes of its regular ops from it, the library defines their public forms from it (each op's
   kernels and checks are in its descriptor), docs/api/pointwise.md is generated from it, and the
   differential tests take the ops they must cover from it.

   CT_POINTWISE_OPS(OP, ALIAS, IRREGULAR) expands to one call per op:
     OP(name, form, torch, kind)         an op with a regular signature
     ALIAS(name, form, torch, target)    another name of the OP entry <target>: its forms call target's
     IRREGULAR(name, torch)              an op whose signature is its own (options, Python-number or
                                         int arguments, three operands, a single form): declared by
                                         hand in pointwise.h
   form: which functions ct_<name> has:
     UNARY              ct_X(t), ct_X_(self) (in place) and ct_X_out(out, t)
     UNARY_NO_INPLACE   ct_X(t) and ct_X_out(out, t)
     BINARY             ct_X(a, b), ct_X_(self, other) and ct_X_out(out, a, b)
     BINARY_NO_INPLACE  ct_X(a, b) and ct_X_out(out, a, b)
     ALPHA              the BINARY forms with a last `const ct_alpha_opts *` (add, sub)
   torch: the PyTorch function (its in-place form is the Tensor method with a trailing underscore).
   kind: how the result dtype is found:
     SAME          the input's dtype; operands must share it
     FLOAT         the input's dtype, integers and bool computing in the default float dtype
     COMMON        the operands' common dtype (torch.result_type)
     COMMON_FLOAT  the common dtype, integers and bool computing in the default float dtype
     COMPARE       computed in the common dtype, bool result (an out= of another dtype gets 1 / 0)
     PREDICATE     any input dtype, bool result
   Python-number operands are wrapped-number tensors (ct_wrapped_scalar), or in C plain C numbers: the
   C macros of the BINARY and ALPHA forms are generated from this table (scripts/pointwise_args.c writes
   pointwise_args.h).

   Adding a regular op is a line here and, next to its kernels in src/ops/pointwise, its descriptor
   `const ct_pw_op ct__pw_op_<name>` (then `make docs`, and its differential cases in tests/diff). */
#ifndef CTORCH_POINTWISE_OPS_H
#define CTORCH_POINTWISE_OPS_H

/* For the entry kinds a use of the table has nothing to do with. */
#define CT_POINTWISE_SKIP(...)

#define CT_POINTWISE_OPS(OP, ALIAS, IRREGULAR)                                                           \
  /* ---- arithmetic core ---- */                                                                        \
  OP(neg, UNARY, "torch.neg", SAME)                                                                      \
  ALIAS(negative, UNARY, "torch.negative", neg)                                                          \
  OP(add, ALPHA, "torch.add", COMMON)                                                                    \
  OP(sub, ALPHA, "torch.sub", COMMON)                                                                    \
  ALIAS(subtract, ALPHA, "torch.subtract", sub)                                                          \
  OP(mul, BINARY, "torch.mul", COMMON)                                                                   \
  ALIAS(multiply, BINARY, "torch.multiply", mul)                                                         \
  /* ---- unary math: complex where PyTorch has a kernel ---- */                                         \
  OP(sqrt, UNARY, "torch.sqrt", FLOAT)                                                                   \
  OP(rsqrt, UNARY, "torch.rsqrt", FLOAT)                                                                 \
  OP(exp, UNARY, "torch.exp", FLOAT)                                                                     \
  OP(exp2, UNARY, "torch.exp2", FLOAT)                                                                   \
  OP(expm1, UNARY, "torch.expm1", FLOAT)                                                                 \
  OP(log, UNARY, "torch.log", FLOAT)                                                                     \
  OP(log2, UNARY, "torch.log2", FLOAT)                                                                   \
  OP(log10, UNARY, "torch.log10", FLOAT)                                                                 \
  OP(log1p, UNARY, "torch.log1p", FLOAT)                                                                 \
  OP(sin, UNARY, "torch.sin", FLOAT)                                                                     \
  OP(cos, UNARY, "torch.cos", FLOAT)                                                                     \
  OP(tan, UNARY, "torch.tan", FLOAT)                                                                     \
  OP(asin, UNARY, "torch.asin", FLOAT)                                                                   \
  ALIAS(arcsin, UNARY, "torch.arcsin", asin)                                                             \
  OP(acos, UNARY, "torch.acos", FLOAT)                                                                   \
  ALIAS(arccos, UNARY, "torch.arccos", acos)                                                             \
  OP(atan, UNARY, "torch.atan", FLOAT)                                                                   \
  ALIAS(arctan, UNARY, "torch.arctan", atan)                                                             \
  OP(sinh, UNARY, "torch.sinh", FLOAT)                                                                   \
  OP(cosh, UNARY, "torch.cosh", FLOAT)                                                                   \
  OP(tanh, UNARY, "torch.tanh", FLOAT)                                                                   \
  OP(asinh, UNARY, "torch.asinh", FLOAT)                                                                 \
  ALIAS(arcsinh, UNARY, "torch.arcsinh", asinh)                                                          \
  OP(acosh, UNARY, "torch.acosh", FLOAT)                                                                 \
  ALIAS(arccosh, UNARY, "torch.arccosh", acosh)                                                          \
  OP(atanh, UNARY, "torch.atanh", FLOAT)                                                                 \
  ALIAS(arctanh, UNARY, "torch.arctanh", atanh)                                                          \
  OP(sigmoid, UNARY, "torch.sigmoid", FLOAT)                                                             \
  OP(erf, UNARY, "torch.erf", FLOAT)                                                                     \
  OP(erfc, UNARY, "torch.erfc", FLOAT)                                                                   \
  OP(erfinv, UNARY, "torch.erfinv", FLOAT)                                                               \
  OP(lgamma, UNARY, "torch.lgamma", FLOAT)                                                               \
  OP(digamma, UNARY, "torch.digamma", FLOAT)                                                             \
  OP(i0, UNARY, "torch.i0", FLOAT)                                                                       \
  OP(sinc, UNARY, "torch.sinc", FLOAT)                                                                   \
  ALIAS(special_expit, UNARY_NO_INPLACE, "torch.special.expit", sigmoid)                                 \
  ALIAS(special_exp2, UNARY_NO_INPLACE, "torch.special.exp2", exp2)                                      \
  ALIAS(special_expm1, UNARY_NO_INPLACE, "torch.special.expm1", expm1)                                   \
  ALIAS(special_log1p, UNARY_NO_INPLACE, "torch.special.log1p", log1p)                                   \
  ALIAS(special_erf, UNARY_NO_INPLACE, "torch.special.erf", erf)                                         \
  ALIAS(special_erfc, UNARY_NO_INPLACE, "torch.special.erfc", erfc)                                      \
  ALIAS(special_erfinv, UNARY_NO_INPLACE, "torch.special.erfinv", erfinv)                                \
  ALIAS(special_gammaln, UNARY_NO_INPLACE, "torch.special.gammaln", lgamma)                              \
  ALIAS(special_digamma, UNARY_NO_INPLACE, "torch.special.digamma", digamma)                             \
  ALIAS(special_psi, UNARY_NO_INPLACE, "torch.special.psi", digamma)                                     \
  ALIAS(special_i0, UNARY_NO_INPLACE, "torch.special.i0", i0)                                            \
  ALIAS(special_sinc, UNARY_NO_INPLACE, "torch.special.sinc", sinc)                                      \
  IRREGULAR(logit, "torch.logit")                                                                        \
  IRREGULAR(special_logit, "torch.special.logit")                                                        \
  IRREGULAR(polygamma, "torch.polygamma")                                                                \
  IRREGULAR(special_polygamma, "torch.special.polygamma")                                                \
  IRREGULAR(mvlgamma, "torch.mvlgamma")                                                                  \
  IRREGULAR(special_multigammaln, "torch.special.multigammaln")                                          \
  /* ---- unary elementary: abs, sign, rounding, predicates, complex parts, bitwise/logical not ---- */  \
  /* Every form PyTorch has, no more: signbit, isposinf, isneginf and angle have out= but no in-place  \
     form. abs and angle of a complex tensor are real; square of bool is int64, as pow(t, 2). */         \
  OP(abs, UNARY, "torch.abs", SAME)                                                                      \
  ALIAS(absolute, UNARY, "torch.absolute", abs)                                                          \
  OP(sign, UNARY, "torch.sign", SAME)                                                                    \
  OP(sgn, UNARY, "torch.sgn", SAME)                                                                      \
  OP(ceil, UNARY, "torch.ceil", SAME)                                                                    \
  OP(floor, UNARY, "torch.floor", SAME)                                                                  \
  OP(trunc, UNARY, "torch.trunc", SAME)                                                                  \
  ALIAS(fix, UNARY, "torch.fix", trunc)                                                                  \
  OP(frac, UNARY, "torch.frac", SAME)                                                                    \
  OP(reciprocal, UNARY, "torch.reciprocal", FLOAT)                                                       \
  OP(square, UNARY, "torch.square", SAME)                                                                \
  OP(deg2rad, UNARY, "torch.deg2rad", FLOAT)                                                             \
  OP(rad2deg, UNARY, "torch.rad2deg", FLOAT)                                                             \
  OP(conj_physical, UNARY, "torch.conj_physical", SAME)                                                  \
  OP(bitwise_not, UNARY, "torch.bitwise_not", SAME)                                                      \
  OP(logical_not, UNARY, "torch.logical_not", COMPARE)                                                   \
  OP(signbit, UNARY_NO_INPLACE, "torch.signbit", PREDICATE)                                              \
  OP(isposinf, UNARY_NO_INPLACE, "torch.isposinf", PREDICATE)                                            \
  OP(isneginf, UNARY_NO_INPLACE, "torch.isneginf", PREDICATE)                                            \
  OP(angle, UNARY_NO_INPLACE, "torch.angle", FLOAT)                                                      \
  IRREGULAR(positive, "torch.positive")                                                                  \
  IRREGULAR(conj, "torch.conj")                                                                          \
  IRREGULAR(real, "torch.real")                                                                          \
  IRREGULAR(imag, "torch.imag")                                                                          \
  IRREGULAR(isnan, "torch.isnan")                                                                        \
  IRREGULAR(isinf, "torch.isinf")                                                                        \
  IRREGULAR(isfinite, "torch.isfinite")                                                                  \
  IRREGULAR(isreal, "torch.isreal")                                                                      \
  IRREGULAR(round, "torch.round")                                                                        \
  IRREGULAR(nan_to_num, "torch.nan_to_num")                                                              \
  /* ---- binary arithmetic: division, remainders, powers, atan2, hypot, min/max, ... ---- */           \
  IRREGULAR(div, "torch.div")                                                                            \
  IRREGULAR(divide, "torch.divide")                                                                      \
  OP(true_divide, BINARY, "torch.true_divide", COMMON_FLOAT)                                             \
  OP(floor_divide, BINARY, "torch.floor_divide", COMMON)                                                 \
  OP(remainder, BINARY, "torch.remainder", COMMON)                                                       \
  OP(fmod, BINARY, "torch.fmod", COMMON)                                                                 \
  IRREGULAR(pow, "torch.pow")                                                                            \
  IRREGULAR(float_power, "torch.float_power")                                                            \
  OP(atan2, BINARY, "torch.atan2", COMMON_FLOAT)                                                         \
  ALIAS(arctan2, BINARY, "torch.arctan2", atan2)                                                         \
  OP(hypot, BINARY, "torch.hypot", COMMON)                                                               \
  OP(nextafter, BINARY, "torch.nextafter", COMMON)                                                       \
  OP(copysign, BINARY, "torch.copysign", COMMON_FLOAT)                                                   \
  OP(heaviside, BINARY, "torch.heaviside", SAME)                                                         \
  OP(xlogy, BINARY, "torch.xlogy", COMMON_FLOAT)                                                         \
  ALIAS(special_xlogy, BINARY_NO_INPLACE, "torch.special.xlogy", xlogy)                                  \
  OP(logaddexp, BINARY_NO_INPLACE, "torch.logaddexp", COMMON)                                            \
  OP(logaddexp2, BINARY_NO_INPLACE, "torch.logaddexp2", COMMON)                                          \
  OP(maximum, BINARY_NO_INPLACE, "torch.maximum", COMMON)                                                \
  OP(minimum, BINARY_NO_INPLACE, "torch.minimum", COMMON)                                                \
  OP(fmax, BINARY_NO_INPLACE, "torch.fmax", COMMON)                                                      \
  OP(fmin, BINARY_NO_INPLACE, "torch.fmin", COMMON)                                                      \
  /* ---- comparison, logical, bitwise and ternary ops ---- */                                          \
  /* Complex operands compare with eq and ne only. Tensor.eq_ and friends store the result in self's   \
     dtype. logical_*: any dtypes; bitwise_*: bool and integers; shifts: integers, the count taken mod \
     32 (mod 64 for int64), an arithmetic right shift. */                                                \
  OP(eq, BINARY, "torch.eq", COMPARE)                                                                    \
  OP(ne, BINARY, "torch.ne", COMPARE)                                                                    \
  ALIAS(not_equal, BINARY, "torch.not_equal", ne)                                                        \
  OP(lt, BINARY, "torch.lt", COMPARE)                                                                    \
  ALIAS(less, BINARY, "torch.less", lt)                                                                  \
  OP(le, BINARY, "torch.le", COMPARE)                                                                    \
  ALIAS(less_equal, BINARY, "torch.less_equal", le)                                                      \
  OP(gt, BINARY, "torch.gt", COMPARE)                                                                    \
  ALIAS(greater, BINARY, "torch.greater", gt)                                                            \
  OP(ge, BINARY, "torch.ge", COMPARE)                                                                    \
  ALIAS(greater_equal, BINARY, "torch.greater_equal", ge)                                                \
  OP(logical_and, BINARY, "torch.logical_and", COMPARE)                                                  \
  OP(logical_or, BINARY, "torch.logical_or", COMPARE)                                                    \
  OP(logical_xor, BINARY, "torch.logical_xor", COMPARE)                                                  \
  OP(bitwise_and, BINARY, "torch.bitwise_and", COMMON)                                                   \
  OP(bitwise_or, BINARY, "torch.bitwise_or", COMMON)                                                     \
  OP(bitwise_xor, BINARY, "torch.bitwise_xor", COMMON)                                                   \
  OP(bitwise_left_shift, BINARY, "torch.bitwise_left_shift", COMMON)                                     \
  OP(bitwise_right_shift, BINARY, "torch.bitwise_right_shift", COMMON)                                   \
  IRREGULAR(isclose, "torch.isclose")                                                                    \
  IRREGULAR(allclose, "torch.allclose")                                                                  \
  IRREGULAR(where, "torch.where")                                                                        \
  IRREGULAR(lerp, "torch.lerp")                                                                          \
  IRREGULAR(addcmul, "torch.addcmul")                                                                    \
  IRREGULAR(addcdiv, "torch.addcdiv")                                                                    \
  IRREGULAR(clamp, "torch.clamp")                                                                        \
  IRREGULAR(clip, "torch.clip")                                                                          \
  IRREGULAR(clamp_min, "torch.clamp_min")                                                                \
  IRREGULAR(clamp_max, "torch.clamp_max")                                                                \
  IRREGULAR(masked_fill, "torch.masked_fill")

#endif
