/* Creation: torch.empty, zeros, ones, full, eye, arange, linspace, logspace, tensor, from_blob, *_like, new_*. */
#ifndef CTORCH_CREATE_H
#define CTORCH_CREATE_H

#include "args.h"
#include "error.h"
#include "types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Keyword arguments of the factory functions. The zero value is PyTorch's default: default dtype
   (or inferred), CPU (or like the input for *_like / new_*), strided, contiguous (preserve for *_like). */
typedef struct ct_tensor_opts {
  ct_dtype dtype;
  ct_device device;
  ct_layout layout;
  ct_memory_format memory_format;
  bool requires_grad;
} ct_tensor_opts;

/* torch.tensor: copies `data`, read as a C array of `src_dtype` elements in row-major order of
   `shape`, converting to opts->dtype (default: src_dtype). */
CT_API ct_tensor *ct_tensor_from_data(const void *data, ct_dtype src_dtype, ct_shape shape,
                                      const ct_tensor_opts *opts);
/* torch.tensor(data) of Python values: the literal form. A ct_literal is a Python number or a (nested)
   list of them; C builds one with CT_L (args.h): CT_L(1.5, 2) is [1.5, 2], CT_L(CT_L(1, 2), CT_L(3, 4))
   is [[1, 2], [3, 4]], and CT_TENSOR(...) is ct_tensor_literal(CT_L(...), NULL). The dtype is inferred
   as torch.tensor infers it from Python values (C bool values -> bool, integer types -> int64, float
   and double -> the default dtype, _Complex -> the default complex dtype; mixed values promote), unless
   opts->dtype gives it; values are converted as torch.tensor converts Python numbers. A ragged list is
   torch's ValueError. Unlike ct_tensor_from_data (an array of one C type, like torch.from_numpy), the
   element types of the C values decide. ct_literal: args.h. */
CT_API ct_tensor *ct_tensor_literal(ct_literal data, const ct_tensor_opts *opts);
/* torch.from_blob / as_tensor without a copy: wraps caller memory. strides NULL means contiguous.
   deleter(ctx, data) runs once, when the last reference to the storage goes (may be NULL). */
CT_API ct_tensor *ct_from_blob(void *data, ct_dtype dtype, ct_shape shape, const int64_t *strides,
                               void (*deleter)(void *ctx, void *data), void *ctx,
                               const ct_tensor_opts *opts);
/* A 0-dim tensor made from a Python number, flagged as a wrapped number for type promotion. */
CT_API ct_tensor *ct_wrapped_scalar(ct_scalar value);
CT_API bool ct_is_wrapped_number(const ct_tensor *t);
CT_API ct_tensor *ct_scalar_tensor(ct_scalar value, const ct_tensor_opts *opts);

CT_API ct_tensor *ct_empty(ct_shape shape, const ct_tensor_opts *opts);
CT_API ct_tensor *ct_empty_strided(ct_shape shape, ct_shape strides, const ct_tensor_opts *opts);
CT_API ct_tensor *ct_zeros(ct_shape shape, const ct_tensor_opts *opts);
CT_API ct_tensor *ct_ones(ct_shape shape, const ct_tensor_opts *opts);
/* dtype inferred from the value when opts->dtype is UNSET: bool, int64, default float, default complex. */
CT_API ct_tensor *ct_full(ct_shape shape, ct_scalar value, const ct_tensor_opts *opts);

CT_API ct_tensor *ct_empty_like(const ct_tensor *t, const ct_tensor_opts *opts);
CT_API ct_tensor *ct_zeros_like(const ct_tensor *t, const ct_tensor_opts *opts);
CT_API ct_tensor *ct_ones_like(const ct_tensor *t, const ct_tensor_opts *opts);
CT_API ct_tensor *ct_full_like(const ct_tensor *t, ct_scalar value, const ct_tensor_opts *opts);

/* Tensor.new_*: dtype and device default to self's. */
CT_API ct_tensor *ct_new_tensor(const ct_tensor *self, const void *data, ct_dtype src_dtype, ct_shape shape,
                                const ct_tensor_opts *opts);
CT_API ct_tensor *ct_new_empty(const ct_tensor *self, ct_shape shape, const ct_tensor_opts *opts);
CT_API ct_tensor *ct_new_zeros(const ct_tensor *self, ct_shape shape, const ct_tensor_opts *opts);
CT_API ct_tensor *ct_new_ones(const ct_tensor *self, ct_shape shape, const ct_tensor_opts *opts);
CT_API ct_tensor *ct_new_full(const ct_tensor *self, ct_shape shape, ct_scalar value, const ct_tensor_opts *opts);

/* torch.eye(n) and torch.eye(n, m). */
CT_API ct_tensor *ct_eye(int64_t n, const ct_tensor_opts *opts);
CT_API ct_tensor *ct_eye_m(int64_t n, int64_t m, const ct_tensor_opts *opts);
/* torch.arange(start, end, step): dtype int64 when all three are integers, else the default float.
   ct_arange_end is torch.arange(end) (start 0, step 1). */
CT_API ct_tensor *ct_arange(ct_scalar start, ct_scalar end, ct_scalar step, const ct_tensor_opts *opts);
CT_API ct_tensor *ct_arange_end(ct_scalar end, const ct_tensor_opts *opts);
CT_API ct_tensor *ct_linspace(ct_scalar start, ct_scalar end, int64_t steps, const ct_tensor_opts *opts);
/* base 10.0 is PyTorch's default. */
CT_API ct_tensor *ct_logspace(ct_scalar start, ct_scalar end, int64_t steps, double base,
                              const ct_tensor_opts *opts);

/* C: each function above is also a macro of its name that checks its arguments and takes numbers as
   C values (CT_NUM, args.h): ct_full(CT_SHAPE(2, 3), 3.5, NULL), ct_arange(0, 10, 2, NULL). */
#if !defined(__cplusplus) && !defined(CT_BUILDING_LIBRARY)
#define ct_tensor_from_data(...) CT__CHECKED(4, CT__CK_ct_tensor_from_data, ct_tensor_from_data, __VA_ARGS__)
#define CT__CK_ct_tensor_from_data(a, a2, a3, o) ct_tensor_from_data(a, a2, a3, CT__OPTS(ct_tensor_opts, o))
#define ct_from_blob(...) CT__CHECKED(7, CT__CK_ct_from_blob, ct_from_blob, __VA_ARGS__)
#define CT__CK_ct_from_blob(a, a2, a3, a4, a5, a6, o) \
  ct_from_blob(a, a2, a3, a4, a5, a6, CT__OPTS(ct_tensor_opts, o))
#define ct_tensor_literal(...) CT__CHECKED(2, CT__CK_ct_tensor_literal, ct_tensor_literal, __VA_ARGS__)
#define CT__CK_ct_tensor_literal(a, o) ct_tensor_literal(a, CT__OPTS(ct_tensor_opts, o))
#define ct_wrapped_scalar(v) ct_wrapped_scalar(CT_NUM(v))
#define ct_scalar_tensor(...) CT__CHECKED(2, CT__CK_ct_scalar_tensor, ct_scalar_tensor, __VA_ARGS__)
#define CT__CK_ct_scalar_tensor(v, o) ct_scalar_tensor(CT_NUM(v), CT__OPTS(ct_tensor_opts, o))
#define ct_empty(...) CT__CHECKED(2, CT__CK_ct_empty, ct_empty, __VA_ARGS__)
#define CT__CK_ct_empty(a, o) ct_empty(a, CT__OPTS(ct_tensor_opts, o))
#define ct_empty_strided(...) CT__CHECKED(3, CT__CK_ct_empty_strided, ct_empty_strided, __VA_ARGS__)
#define CT__CK_ct_empty_strided(a, a2, o) ct_empty_strided(a, a2, CT__OPTS(ct_tensor_opts, o))
#define ct_zeros(...) CT__CHECKED(2, CT__CK_ct_zeros, ct_zeros, __VA_ARGS__)
#define CT__CK_ct_zeros(a, o) ct_zeros(a, CT__OPTS(ct_tensor_opts, o))
#define ct_ones(...) CT__CHECKED(2, CT__CK_ct_ones, ct_ones, __VA_ARGS__)
#define CT__CK_ct_ones(a, o) ct_ones(a, CT__OPTS(ct_tensor_opts, o))
#define ct_full(...) CT__CHECKED(3, CT__CK_ct_full, ct_full, __VA_ARGS__)
#define CT__CK_ct_full(a, v, o) ct_full(a, CT_NUM(v), CT__OPTS(ct_tensor_opts, o))
#define ct_empty_like(...) CT__CHECKED(2, CT__CK_ct_empty_like, ct_empty_like, __VA_ARGS__)
#define CT__CK_ct_empty_like(t, o) ct_empty_like(CT__T(t), CT__OPTS(ct_tensor_opts, o))
#define ct_zeros_like(...) CT__CHECKED(2, CT__CK_ct_zeros_like, ct_zeros_like, __VA_ARGS__)
#define CT__CK_ct_zeros_like(t, o) ct_zeros_like(CT__T(t), CT__OPTS(ct_tensor_opts, o))
#define ct_ones_like(...) CT__CHECKED(2, CT__CK_ct_ones_like, ct_ones_like, __VA_ARGS__)
#define CT__CK_ct_ones_like(t, o) ct_ones_like(CT__T(t), CT__OPTS(ct_tensor_opts, o))
#define ct_full_like(...) CT__CHECKED(3, CT__CK_ct_full_like, ct_full_like, __VA_ARGS__)
#define CT__CK_ct_full_like(t, v, o) ct_full_like(CT__T(t), CT_NUM(v), CT__OPTS(ct_tensor_opts, o))
#define ct_new_tensor(...) CT__CHECKED(5, CT__CK_ct_new_tensor, ct_new_tensor, __VA_ARGS__)
#define CT__CK_ct_new_tensor(t, a, a2, a3, o) ct_new_tensor(CT__T(t), a, a2, a3, CT__OPTS(ct_tensor_opts, o))
#define ct_new_empty(...) CT__CHECKED(3, CT__CK_ct_new_empty, ct_new_empty, __VA_ARGS__)
#define CT__CK_ct_new_empty(t, a, o) ct_new_empty(CT__T(t), a, CT__OPTS(ct_tensor_opts, o))
#define ct_new_zeros(...) CT__CHECKED(3, CT__CK_ct_new_zeros, ct_new_zeros, __VA_ARGS__)
#define CT__CK_ct_new_zeros(t, a, o) ct_new_zeros(CT__T(t), a, CT__OPTS(ct_tensor_opts, o))
#define ct_new_ones(...) CT__CHECKED(3, CT__CK_ct_new_ones, ct_new_ones, __VA_ARGS__)
#define CT__CK_ct_new_ones(t, a, o) ct_new_ones(CT__T(t), a, CT__OPTS(ct_tensor_opts, o))
#define ct_new_full(...) CT__CHECKED(4, CT__CK_ct_new_full, ct_new_full, __VA_ARGS__)
#define CT__CK_ct_new_full(t, a, v, o) ct_new_full(CT__T(t), a, CT_NUM(v), CT__OPTS(ct_tensor_opts, o))
#define ct_eye(...) CT__CHECKED(2, CT__CK_ct_eye, ct_eye, __VA_ARGS__)
#define CT__CK_ct_eye(a, o) ct_eye(a, CT__OPTS(ct_tensor_opts, o))
#define ct_eye_m(...) CT__CHECKED(3, CT__CK_ct_eye_m, ct_eye_m, __VA_ARGS__)
#define CT__CK_ct_eye_m(a, a2, o) ct_eye_m(a, a2, CT__OPTS(ct_tensor_opts, o))
#define ct_arange(...) CT__CHECKED(4, CT__CK_ct_arange, ct_arange, __VA_ARGS__)
#define CT__CK_ct_arange(v, v2, v3, o) \
  ct_arange(CT_NUM(v), CT_NUM(v2), CT_NUM(v3), CT__OPTS(ct_tensor_opts, o))
#define ct_arange_end(...) CT__CHECKED(2, CT__CK_ct_arange_end, ct_arange_end, __VA_ARGS__)
#define CT__CK_ct_arange_end(v, o) ct_arange_end(CT_NUM(v), CT__OPTS(ct_tensor_opts, o))
#define ct_linspace(...) CT__CHECKED(4, CT__CK_ct_linspace, ct_linspace, __VA_ARGS__)
#define CT__CK_ct_linspace(v, v2, a, o) ct_linspace(CT_NUM(v), CT_NUM(v2), a, CT__OPTS(ct_tensor_opts, o))
#define ct_logspace(...) CT__CHECKED(5, CT__CK_ct_logspace, ct_logspace, __VA_ARGS__)
#define CT__CK_ct_logspace(v, v2, a, a2, o) \
  ct_logspace(CT_NUM(v), CT_NUM(v2), a, a2, CT__OPTS(ct_tensor_opts, o))
/* torch.tensor([...]) of the values given: CT_TENSOR(1.5, 2), CT_TENSOR(CT_L(1, 2), CT_L(3, 4)). */
#define CT_TENSOR(...) ct_tensor_literal(CT_L(__VA_ARGS__), NULL)
#endif

#ifdef __cplusplus
}
#endif
#endif
