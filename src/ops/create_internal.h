/* Shared by the creation ops. */
#ifndef CTORCH_OPS_CREATE_INTERNAL_H
#define CTORCH_OPS_CREATE_INTERNAL_H

#include "core/internal.h"
#include "core/op.h" /* ct__error_no_meta_kernel */

/* Factory options with defaults filled in. */
typedef struct ct_resolved_opts {
  ct_dtype dtype;
  ct_device device;
  ct_memory_format memory_format;
  bool requires_grad;
} ct_resolved_opts;

/* Fills defaults (dtype: default_dtype when UNSET, device: CPU) and validates dtype, device and
   layout. requires_grad is checked when the tensor is finished (see ct__finish_requires_grad). */
bool ct__resolve_opts(const ct_tensor_opts *opts, ct_dtype default_dtype, ct_resolved_opts *out);
/* The same with dtype and device defaulting to those of `like` (the *_like and new_* factories). */
bool ct__resolve_opts_like(const ct_tensor *like, const ct_tensor_opts *opts, ct_resolved_opts *out);
bool ct__format_strides(int64_t ndim, const int64_t *sizes, ct_memory_format fmt, int64_t *strides);
/* An uninitialized tensor honouring dtype, device, memory format and requires_grad; not scope-registered. */
ct_tensor *ct__empty_with(ct_shape shape, const ct_resolved_opts *o);
/* An uninitialized tensor with the given strides (torch.empty_strided); o->memory_format is ignored. */
ct_tensor *ct__empty_strided_with(int64_t ndim, const int64_t *sizes, const int64_t *strides, const ct_resolved_opts *o);
/* PyTorch's empty_like(t, memory_format): PRESERVE keeps the strides of a dense input and infers
   dense strides in the same dimension order otherwise; other formats lay out t's shape afresh. */
ct_tensor *ct__empty_like_with(const ct_tensor *t, ct_memory_format fmt, const ct_resolved_opts *o);
/* Sets requires_grad on a finished tensor, as PyTorch's bindings do after the op (so the op's own
   argument errors come first). On a dtype that cannot require gradients, releases t and records
   PyTorch's error. Returns t or NULL. */
ct_tensor *ct__finish_requires_grad(ct_tensor *t, bool requires_grad);
/* A tensor of `shape` filled with v: checked conversion first (c10's "value cannot be converted to
   type ... without overflow", skipped on meta as PyTorch's fill_ is), then the fill; not scope-registered. */
ct_tensor *ct__full_with(ct_shape shape, ct_scalar v, const ct_resolved_opts *o);
/* torch.tensor(data): a copy of a row-major C array of src_dtype elements, cast to o->dtype. */
ct_tensor *ct__tensor_from_data_with(const void *data, ct_dtype src_dtype, ct_shape shape, const ct_resolved_opts *o);
/* A contiguous tensor over caller memory that the library never frees (storage without an
   allocator); not scope-registered. Used to read or write C arrays through the copy engine. */
ct_tensor *ct__borrow_contiguous(const void *data, ct_dtype dtype, int64_t ndim, const int64_t *sizes);
/* ct_wrapped_scalar's tensor, not scope-registered (the number forms of the binary ops release it). */
ct_tensor *ct__wrapped_scalar(ct_scalar value);
/* Zeroes every byte of t's storage (a fresh dense tensor); no-op on meta. */
void ct__zero_storage(ct_tensor *t);

#endif
