/* How C calls pass what a Python call passes (docs/ARCHITECTURE.md, "API conventions").

   - CT_NUM(x): a C number as the Python number it stands for (a ct_scalar): bool is a bool, every
     integer type an int, float and double a float, float/double _Complex a complex; a ct_scalar
     passes through. The factories take numbers through it: ct_full(CT_SHAPE(2), 3.5, NULL).
   - CT_ARG(x): a binary op's operand: a tensor pointer passes through (NULL too: the chain rule),
     a C number becomes a wrapped number (torch's promotion for Python numbers); the call makes the
     wrapped-number tensor and releases it. ct_mul(0.1, t), ct_add(t, 1, NULL).
   - Every function that takes an options struct is, in C, a macro of the same name that accepts for
     that argument only NULL or a pointer to that very struct type, and only tensor pointers where
     tensors go: ct_mean(x, 0), ct_sum(x, 1) or ct_sqrt(2) do not compile. The macros call the
     function of the same name, so its address (`ct_sum` without a call) is the plain function.

   C only: C++ has ctorch.hpp. The library's own sources are built with CT_BUILDING_LIBRARY, which
   leaves the macros out so that the functions can be defined under their names. */
#ifndef CTORCH_ARGS_H
#define CTORCH_ARGS_H

#include "error.h"
#include "types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* An operand of a binary op: a tensor (which may be NULL: a failed earlier call) when is_number is
   false, else the Python number to wrap (kind 0: a C value no Python int ctorch holds can stand for). */
typedef struct ct_arg {
  const ct_tensor *tensor;
  ct_scalar number;
  bool is_number;
} ct_arg;

/* A Python value for torch.tensor(data) (ct_tensor_literal, create.h): a number or a list of values. */
typedef struct ct_literal {
  const struct ct_literal *items; /* a list's values; NULL for a number */
  int64_t n;                      /* a list's length; -1 for a number */
  ct_scalar number;               /* a number's value */
} ct_literal;

/* The calls behind the binary ops' C forms (pointwise_args.h, generated): each wraps the numbers among
   its operands (torch's wrapped numbers), calls fn, releases them and returns fn's result. Two numbers
   are two wrapped numbers, as torch.mul(2, 3) is. */
struct ct_alpha_opts;
struct ct_div_opts;
CT_API ct_tensor *ct_call_binary(ct_tensor *(*fn)(const ct_tensor *, const ct_tensor *),
                                 ct_arg a, ct_arg b);
CT_API ct_status ct_call_binary_(ct_status (*fn)(ct_tensor *, const ct_tensor *),
                                 ct_tensor *self, ct_arg other);
CT_API ct_status ct_call_binary_out(ct_status (*fn)(ct_tensor *, const ct_tensor *, const ct_tensor *),
                                    ct_tensor *out, ct_arg a, ct_arg b);
CT_API ct_tensor *ct_call_alpha(ct_tensor *(*fn)(const ct_tensor *, const ct_tensor *, const struct ct_alpha_opts *),
                                ct_arg a, ct_arg b, const struct ct_alpha_opts *opts);
CT_API ct_status ct_call_alpha_(ct_status (*fn)(ct_tensor *, const ct_tensor *, const struct ct_alpha_opts *),
                                ct_tensor *self, ct_arg other, const struct ct_alpha_opts *opts);
CT_API ct_status ct_call_alpha_out(ct_status (*fn)(ct_tensor *, const ct_tensor *, const ct_tensor *,
                                                   const struct ct_alpha_opts *),
                                   ct_tensor *out, ct_arg a, ct_arg b, const struct ct_alpha_opts *opts);
CT_API ct_tensor *ct_call_div(ct_tensor *(*fn)(const ct_tensor *, const ct_tensor *, const struct ct_div_opts *),
                              ct_arg a, ct_arg b, const struct ct_div_opts *opts);
CT_API ct_status ct_call_div_(ct_status (*fn)(ct_tensor *, const ct_tensor *, const struct ct_div_opts *),
                              ct_tensor *self, ct_arg other, const struct ct_div_opts *opts);
CT_API ct_status ct_call_div_out(ct_status (*fn)(ct_tensor *, const ct_tensor *, const ct_tensor *,
                                                 const struct ct_div_opts *),
                                 ct_tensor *out, ct_arg a, ct_arg b, const struct ct_div_opts *opts);
/* The same for ops with three operands that take Python numbers (where's a and b, lerp's weight, clamp's
   bounds, masked_fill's value): each number is wrapped, NULL passes as it is. */
CT_API ct_tensor *ct_call_ternary(ct_tensor *(*fn)(const ct_tensor *, const ct_tensor *, const ct_tensor *),
                                  ct_arg a, ct_arg b, ct_arg c);
CT_API ct_status ct_call_ternary_(ct_status (*fn)(ct_tensor *, const ct_tensor *, const ct_tensor *),
                                  ct_tensor *self, ct_arg b, ct_arg c);
CT_API ct_status ct_call_ternary_out(ct_status (*fn)(ct_tensor *, const ct_tensor *, const ct_tensor *,
                                                     const ct_tensor *),
                                     ct_tensor *out, ct_arg a, ct_arg b, ct_arg c);

#if !defined(__cplusplus) && !defined(CT_BUILDING_LIBRARY)

static inline ct_scalar ct__num_scalar(ct_scalar s) { return s; }
static inline ct_scalar ct__num_bool(bool v) { return ct_scalar_bool(v); }
static inline ct_scalar ct__num_int(long long v) { return ct_scalar_int((int64_t)v); }
/* An unsigned value above INT64_MAX is no Python int ctorch can hold: an invalid scalar (kind 0),
   which every call refuses, rather than a silently wrapped one. */
static inline ct_scalar ct__num_uint(unsigned long long v) {
  if (v > (unsigned long long)INT64_MAX) {
    ct_scalar bad = {(ct_scalar_kind)0, {false}};
    return bad;
  }
  return ct_scalar_int((int64_t)v);
}
static inline ct_scalar ct__num_double(double v) { return ct_scalar_double(v); }
static inline ct_scalar ct__num_ldouble(long double v) { return ct_scalar_double((double)v); }

#ifndef __STDC_NO_COMPLEX__
/* A complex number is an array of two reals (C11 6.2.5): read through a union, without <complex.h>
   (whose `I` and `complex` macros a library header must not impose). */
static inline ct_scalar ct__num_cdouble(double _Complex z) {
  union { double _Complex z; double p[2]; } u;
  u.z = z;
  return ct_scalar_complex(u.p[0], u.p[1]);
}
static inline ct_scalar ct__num_cfloat(float _Complex z) {
  union { float _Complex z; float p[2]; } u;
  u.z = z;
  return ct_scalar_complex(u.p[0], u.p[1]);
}
#define CT__NUM_COMPLEX(p) , float _Complex: p##cfloat, double _Complex: p##cdouble
#else
#define CT__NUM_COMPLEX(p)
#endif

/* The C number types and the function (prefix p) that takes each. */
#define CT__NUM_CASES(p)                                                                               \
  ct_scalar: p##scalar, _Bool: p##bool, char: p##int, signed char: p##int, short: p##int, int: p##int,    \
  long: p##int, long long: p##int, unsigned char: p##int, unsigned short: p##int, unsigned int: p##int,  \
  unsigned long: p##uint, unsigned long long: p##uint, float: p##double, double: p##double,              \
  long double: p##ldouble CT__NUM_COMPLEX(p)

#define CT_NUM(x) _Generic((x), CT__NUM_CASES(ct__num_))(x)

static inline ct_arg ct__arg_tensor(const ct_tensor *t) {
  ct_arg a = {t, {(ct_scalar_kind)0, {false}}, false};
  return a;
}
#define CT__ARG_OF(name, T)                          \
  static inline ct_arg ct__arg_##name(T v) {          \
    ct_arg a = {NULL, ct__num_##name(v), true};      \
    return a;                                        \
  }
CT__ARG_OF(scalar, ct_scalar)
CT__ARG_OF(bool, bool)
CT__ARG_OF(int, long long)
CT__ARG_OF(uint, unsigned long long)
CT__ARG_OF(double, double)
CT__ARG_OF(ldouble, long double)
#ifndef __STDC_NO_COMPLEX__
CT__ARG_OF(cfloat, float _Complex)
CT__ARG_OF(cdouble, double _Complex)
#endif
#undef CT__ARG_OF

#define CT_ARG(x)                                                                                       \
  _Generic((x), ct_tensor *: ct__arg_tensor, const ct_tensor *: ct__arg_tensor, void *: ct__arg_tensor, \
           CT__NUM_CASES(ct__arg_))(x)

/* Literal tensors (torch.tensor of Python values, create.h): CT_LIT(x) is one value, a number (as
   CT_NUM reads it) or a ct_literal; CT_L(x, ...) is the list of the values given, up to 64 of them
   (for more, ct_tensor_from_data takes a C array). */
static inline ct_literal ct__lit_literal(ct_literal l) { return l; }
#define CT__LIT_OF(name, T)                            \
  static inline ct_literal ct__lit_##name(T v) {        \
    ct_literal l = {NULL, -1, ct__num_##name(v)};     \
    return l;                                         \
  }
CT__LIT_OF(scalar, ct_scalar)
CT__LIT_OF(bool, bool)
CT__LIT_OF(int, long long)
CT__LIT_OF(uint, unsigned long long)
CT__LIT_OF(double, double)
CT__LIT_OF(ldouble, long double)
#ifndef __STDC_NO_COMPLEX__
CT__LIT_OF(cfloat, float _Complex)
CT__LIT_OF(cdouble, double _Complex)
#endif
#undef CT__LIT_OF
static inline ct_literal ct__lit_list(const ct_literal *items, int64_t n) {
  ct_literal l = {items, n, {(ct_scalar_kind)0, {false}}};
  return l;
}
#define CT_LIT(x) _Generic((x), ct_literal: ct__lit_literal, CT__NUM_CASES(ct__lit_))(x)
#define CT_L(...) \
  ct__lit_list((const ct_literal[]){CT__MAP(CT_LIT, __VA_ARGS__)}, CT__NARGS(__VA_ARGS__))

/* CT__NARGS: how many arguments (1 to 64); CT__MAP(f, ...): f(x1), f(x2), ... */
#define CT__NARGS(...) CT__NARGS_(__VA_ARGS__, 64, 63, 62, 61, 60, 59, 58, 57, 56, 55, 54, 53, 52, 51, 50, 49, 48, 47, 46, 45, 44, 43, 42, 41, 40, 39, 38, 37, 36, 35, 34, 33, 32, 31, 30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20, 19, 18, 17, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0)
#define CT__NARGS_(_1, _2, _3, _4, _5, _6, _7, _8, _9, _10, _11, _12, _13, _14, _15, _16, _17, _18, _19, _20, _21, _22, _23, _24, _25, _26, _27, _28, _29, _30, _31, _32, _33, _34, _35, _36, _37, _38, _39, _40, _41, _42, _43, _44, _45, _46, _47, _48, _49, _50, _51, _52, _53, _54, _55, _56, _57, _58, _59, _60, _61, _62, _63, _64, n, ...) n
#define CT__CAT(a, b) CT__CAT_(a, b)
#define CT__CAT_(a, b) a##b
#define CT__MAP(f, ...) CT__CAT(CT__MAP_, CT__NARGS(__VA_ARGS__))(f, __VA_ARGS__)
#define CT__MAP_1(f, x) f(x)
#define CT__MAP_2(f, x, ...) f(x), CT__MAP_1(f, __VA_ARGS__)
#define CT__MAP_3(f, x, ...) f(x), CT__MAP_2(f, __VA_ARGS__)
#define CT__MAP_4(f, x, ...) f(x), CT__MAP_3(f, __VA_ARGS__)
#define CT__MAP_5(f, x, ...) f(x), CT__MAP_4(f, __VA_ARGS__)
#define CT__MAP_6(f, x, ...) f(x), CT__MAP_5(f, __VA_ARGS__)
#define CT__MAP_7(f, x, ...) f(x), CT__MAP_6(f, __VA_ARGS__)
#define CT__MAP_8(f, x, ...) f(x), CT__MAP_7(f, __VA_ARGS__)
#define CT__MAP_9(f, x, ...) f(x), CT__MAP_8(f, __VA_ARGS__)
#define CT__MAP_10(f, x, ...) f(x), CT__MAP_9(f, __VA_ARGS__)
#define CT__MAP_11(f, x, ...) f(x), CT__MAP_10(f, __VA_ARGS__)
#define CT__MAP_12(f, x, ...) f(x), CT__MAP_11(f, __VA_ARGS__)
#define CT__MAP_13(f, x, ...) f(x), CT__MAP_12(f, __VA_ARGS__)
#define CT__MAP_14(f, x, ...) f(x), CT__MAP_13(f, __VA_ARGS__)
#define CT__MAP_15(f, x, ...) f(x), CT__MAP_14(f, __VA_ARGS__)
#define CT__MAP_16(f, x, ...) f(x), CT__MAP_15(f, __VA_ARGS__)
#define CT__MAP_17(f, x, ...) f(x), CT__MAP_16(f, __VA_ARGS__)
#define CT__MAP_18(f, x, ...) f(x), CT__MAP_17(f, __VA_ARGS__)
#define CT__MAP_19(f, x, ...) f(x), CT__MAP_18(f, __VA_ARGS__)
#define CT__MAP_20(f, x, ...) f(x), CT__MAP_19(f, __VA_ARGS__)
#define CT__MAP_21(f, x, ...) f(x), CT__MAP_20(f, __VA_ARGS__)
#define CT__MAP_22(f, x, ...) f(x), CT__MAP_21(f, __VA_ARGS__)
#define CT__MAP_23(f, x, ...) f(x), CT__MAP_22(f, __VA_ARGS__)
#define CT__MAP_24(f, x, ...) f(x), CT__MAP_23(f, __VA_ARGS__)
#define CT__MAP_25(f, x, ...) f(x), CT__MAP_24(f, __VA_ARGS__)
#define CT__MAP_26(f, x, ...) f(x), CT__MAP_25(f, __VA_ARGS__)
#define CT__MAP_27(f, x, ...) f(x), CT__MAP_26(f, __VA_ARGS__)
#define CT__MAP_28(f, x, ...) f(x), CT__MAP_27(f, __VA_ARGS__)
#define CT__MAP_29(f, x, ...) f(x), CT__MAP_28(f, __VA_ARGS__)
#define CT__MAP_30(f, x, ...) f(x), CT__MAP_29(f, __VA_ARGS__)
#define CT__MAP_31(f, x, ...) f(x), CT__MAP_30(f, __VA_ARGS__)
#define CT__MAP_32(f, x, ...) f(x), CT__MAP_31(f, __VA_ARGS__)
#define CT__MAP_33(f, x, ...) f(x), CT__MAP_32(f, __VA_ARGS__)
#define CT__MAP_34(f, x, ...) f(x), CT__MAP_33(f, __VA_ARGS__)
#define CT__MAP_35(f, x, ...) f(x), CT__MAP_34(f, __VA_ARGS__)
#define CT__MAP_36(f, x, ...) f(x), CT__MAP_35(f, __VA_ARGS__)
#define CT__MAP_37(f, x, ...) f(x), CT__MAP_36(f, __VA_ARGS__)
#define CT__MAP_38(f, x, ...) f(x), CT__MAP_37(f, __VA_ARGS__)
#define CT__MAP_39(f, x, ...) f(x), CT__MAP_38(f, __VA_ARGS__)
#define CT__MAP_40(f, x, ...) f(x), CT__MAP_39(f, __VA_ARGS__)
#define CT__MAP_41(f, x, ...) f(x), CT__MAP_40(f, __VA_ARGS__)
#define CT__MAP_42(f, x, ...) f(x), CT__MAP_41(f, __VA_ARGS__)
#define CT__MAP_43(f, x, ...) f(x), CT__MAP_42(f, __VA_ARGS__)
#define CT__MAP_44(f, x, ...) f(x), CT__MAP_43(f, __VA_ARGS__)
#define CT__MAP_45(f, x, ...) f(x), CT__MAP_44(f, __VA_ARGS__)
#define CT__MAP_46(f, x, ...) f(x), CT__MAP_45(f, __VA_ARGS__)
#define CT__MAP_47(f, x, ...) f(x), CT__MAP_46(f, __VA_ARGS__)
#define CT__MAP_48(f, x, ...) f(x), CT__MAP_47(f, __VA_ARGS__)
#define CT__MAP_49(f, x, ...) f(x), CT__MAP_48(f, __VA_ARGS__)
#define CT__MAP_50(f, x, ...) f(x), CT__MAP_49(f, __VA_ARGS__)
#define CT__MAP_51(f, x, ...) f(x), CT__MAP_50(f, __VA_ARGS__)
#define CT__MAP_52(f, x, ...) f(x), CT__MAP_51(f, __VA_ARGS__)
#define CT__MAP_53(f, x, ...) f(x), CT__MAP_52(f, __VA_ARGS__)
#define CT__MAP_54(f, x, ...) f(x), CT__MAP_53(f, __VA_ARGS__)
#define CT__MAP_55(f, x, ...) f(x), CT__MAP_54(f, __VA_ARGS__)
#define CT__MAP_56(f, x, ...) f(x), CT__MAP_55(f, __VA_ARGS__)
#define CT__MAP_57(f, x, ...) f(x), CT__MAP_56(f, __VA_ARGS__)
#define CT__MAP_58(f, x, ...) f(x), CT__MAP_57(f, __VA_ARGS__)
#define CT__MAP_59(f, x, ...) f(x), CT__MAP_58(f, __VA_ARGS__)
#define CT__MAP_60(f, x, ...) f(x), CT__MAP_59(f, __VA_ARGS__)
#define CT__MAP_61(f, x, ...) f(x), CT__MAP_60(f, __VA_ARGS__)
#define CT__MAP_62(f, x, ...) f(x), CT__MAP_61(f, __VA_ARGS__)
#define CT__MAP_63(f, x, ...) f(x), CT__MAP_62(f, __VA_ARGS__)
#define CT__MAP_64(f, x, ...) f(x), CT__MAP_63(f, __VA_ARGS__)

/* Argument checks for the macros. Each names its argument twice (a _Generic that only types it, then
   the argument), so a nested call's text is copied once more per level, not once per association. */
/* A tensor pointer (const or not); NULL passes (the chain rule). */
#define CT__T(t) ((void)_Generic((t), ct_tensor *: 0, const ct_tensor *: 0, void *: 0), (t))
/* A tensor the call writes (self, out=): not a const one. */
#define CT__TM(t) ((void)_Generic((t), ct_tensor *: 0, void *: 0), (t))
/* Where a call writes a new tensor (ct_max_dim's values): a ct_tensor ** (or NULL: not wanted). */
#define CT__TP(p) ((void)_Generic((p), ct_tensor **: 0, void *: 0), (p))
/* An options argument: NULL, or a pointer to exactly the struct type T. */
#define CT__OPTS(T, ...) ((void)_Generic((__VA_ARGS__), T *: 0, const T *: 0, void *: 0), (__VA_ARGS__))

/* CT__CHECKED(k, checked, fn, args...): checked(args...) when there are exactly k arguments, else
   fn(args...). An argument that is a compound literal with commas, `(ct_shape){p, n}` or
   `&(ct_reduce_opts){.dims = d, .keepdim = true}`, counts as several to the preprocessor, and which of
   them belong to which parameter cannot be told: such a call goes to the function unchecked (C's own
   checks of the prototype still apply). A misuse such as ct_mean(x, 0) has no such commas. */
#define CT__CHECKED(k, checked, fn, ...) \
  CT__IF(CT__ARGC_IS(k, CT__NARGS(__VA_ARGS__)))(checked, fn)(__VA_ARGS__)
#define CT__IF(c) CT__CAT(CT__IF_, c)
#define CT__IF_1(t, f) t
#define CT__IF_0(t, f) f
#define CT__ARGC_IS(k, n) CT__IS_PROBE(CT__CAT(CT__CAT(CT__EQ_, k), CT__CAT(_, n)))
#define CT__PROBE ~, 1
#define CT__SECOND(a, b, ...) b
#define CT__IS_PROBE(...) CT__SECOND(__VA_ARGS__, 0, ~)
#define CT__EQ_1_1 CT__PROBE
#define CT__EQ_2_2 CT__PROBE
#define CT__EQ_3_3 CT__PROBE
#define CT__EQ_4_4 CT__PROBE
#define CT__EQ_5_5 CT__PROBE
#define CT__EQ_6_6 CT__PROBE
#define CT__EQ_7_7 CT__PROBE
#define CT__EQ_8_8 CT__PROBE

#endif /* C, not the library */

#ifdef __cplusplus
}
#endif
#endif
