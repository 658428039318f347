/* Creation: torch.empty, zeros, ones, full, eye, arange, linspace, logspace, tensor, from_blob, *_like, new_*. */
#ifndef CTORCH_CREATE_H
#define CTORCH_CREATE_H

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
/* torch.arange(start, end, step): dtype int64 when all three are integers, else the default float. */
CT_API ct_tensor *ct_arange(ct_scalar start, ct_scalar end, ct_scalar step, const ct_tensor_opts *opts);
CT_API ct_tensor *ct_linspace(ct_scalar start, ct_scalar end, int64_t steps, const ct_tensor_opts *opts);
/* base 10.0 is PyTorch's default. */
CT_API ct_tensor *ct_logspace(ct_scalar start, ct_scalar end, int64_t steps, double base,
                              const ct_tensor_opts *opts);

#ifdef __cplusplus
}
#endif
#endif
