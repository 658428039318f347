/* The tensor handle: ownership, scopes and queries. */
#ifndef CTORCH_TENSOR_H
#define CTORCH_TENSOR_H

#include "error.h"
#include "types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Ownership. Every returned ct_tensor* is a new reference; arguments are borrowed.
   Inside a scope, the innermost scope owns every tensor (and storage) returned while it is open. */
CT_API ct_tensor *ct_retain(ct_tensor *t);
CT_API void ct_release(ct_tensor *t);
/* Opens a scope. Fails (CT_ERR_OUT_OF_MEMORY) only when memory runs out; ct_scope_end must still be
   called once for it, and results made meanwhile belong to the enclosing scope. */
CT_API ct_status ct_scope_begin(void);
/* Releases everything the innermost scope owns. */
CT_API void ct_scope_end(void);
/* Hands t out of the innermost scope: it survives ct_scope_end, owned by the enclosing scope, or by
   the caller when there is none. Returns t. */
CT_API ct_tensor *ct_keep(ct_tensor *t);
/* Number of references (for tests and debugging). */
CT_API int64_t ct_refcount(const ct_tensor *t);
/* One rule for every result, returned or written through an out-pointer (ct_max_dim's values and
   indices, ct_var_mean's, a ct_tensor_list): outside a scope the caller owns it and releases it once;
   inside a scope the scope owns it, and the caller must not release it (ct_keep hands it out).
   Releasing a reference a scope holds is refused and recorded as a RuntimeError instead of freeing
   ("ct_release: the tensor is owned by a scope ..."): always when scopes hold every reference left (the
   count keeps how many scope entries hold one, up to 7), and in debug mode (ct_set_debug,
   CTORCH_DEBUG=1) when the calling thread's scope entries, searched, hold every one left.
   The same for storages (ct_storage_release) and lists (ct_tensor_list_release). */

/* Carrying a tensor across loop iterations: ends the innermost scope, keeps next alive as a reference
   the caller owns (not handed to an enclosing scope, so a long loop does not pile results up there),
   releases the tensor *carried held and stores next there. *carried must be NULL or a reference the
   caller owns (made outside any scope, kept out of one with ct_keep, or from an earlier call). When next
   is NULL (the iteration failed), *carried is left as it was and the recorded error is returned.
     ct_tensor *ema = ct_zeros(...);                       // outside any scope
     for (...) { ct_scope_begin(); ct_scope_end_replace(&ema, ct_add(ct_mul(ema, a), b, NULL)); }
     ct_release(ema);                                                                       */
CT_API ct_status ct_scope_end_replace(ct_tensor **carried, ct_tensor *next);

/* Queries. On a NULL tensor they return 0 / false / NULL. Negative dims count from the end;
   a bad dim records PyTorch's IndexError and returns -1 (size, stride). */
CT_API int64_t ct_dim(const ct_tensor *t);
CT_API int64_t ct_ndim(const ct_tensor *t);
CT_API int64_t ct_size(const ct_tensor *t, int64_t dim);
CT_API int64_t ct_stride(const ct_tensor *t, int64_t dim);
/* The same as status calls, the value through out: Tensor.size(dim) / stride(dim) with torch's
   IndexError ("Dimension out of range (expected to be in range of [-2, 1], but got 2)"). */
CT_API ct_status ct_size_at(const ct_tensor *t, int64_t dim, int64_t *out);
CT_API ct_status ct_stride_at(const ct_tensor *t, int64_t dim, int64_t *out);
/* The whole shape / strides as borrowed arrays, valid while t lives and is not resized. */
CT_API const int64_t *ct_sizes(const ct_tensor *t);
CT_API const int64_t *ct_strides(const ct_tensor *t);
CT_API ct_shape ct_shape_of(const ct_tensor *t);
CT_API int64_t ct_storage_offset(const ct_tensor *t);
CT_API int64_t ct_numel(const ct_tensor *t);
CT_API int64_t ct_nelement(const ct_tensor *t);
CT_API int64_t ct_element_size(const ct_tensor *t);
CT_API int64_t ct_nbytes(const ct_tensor *t);
CT_API ct_dtype ct_dtype_of(const ct_tensor *t);
CT_API ct_device ct_device_of(const ct_tensor *t);
CT_API ct_layout ct_layout_of(const ct_tensor *t);
/* memory_format UNSET means contiguous_format, as in PyTorch. */
CT_API bool ct_is_contiguous(const ct_tensor *t, ct_memory_format fmt);
CT_API bool ct_is_floating_point(const ct_tensor *t);
CT_API bool ct_is_complex(const ct_tensor *t);
CT_API bool ct_is_signed(const ct_tensor *t);
CT_API bool ct_is_cuda(const ct_tensor *t);
CT_API bool ct_is_meta(const ct_tensor *t);
/* -1 for CPU tensors, the index for CUDA ones. */
CT_API int64_t ct_get_device(const ct_tensor *t);
/* Address of the first element (storage data + offset * itemsize); NULL for meta or empty storage. */
CT_API void *ct_data_ptr(const ct_tensor *t);
/* A new reference to the tensor's storage. */
CT_API ct_storage *ct_untyped_storage(const ct_tensor *t);
/* Tensor.is_set_to(tensor): whether a and b have the same storage, offset, sizes and strides, through *out
   (written only on success). A status call, as torch's is an operator with errors: a meta argument is
   refused with torch's NotImplementedError ("Could not run 'aten::is_set_to' with arguments from the 'Meta'
   backend. ..."), as is a sparse one; a NULL a, b or out records a ValueError. A tensor with a conjugate or
   negative bit is never set to anything (torch's fallbacks hand the kernel a resolved copy). */
CT_API ct_status ct_is_set_to(const ct_tensor *a, const ct_tensor *b, bool *out);

/* Tensor.requires_grad and requires_grad_: True refuses a tensor that is neither floating nor complex, False a
   non-leaf, with torch's RuntimeErrors. */
CT_API bool ct_requires_grad(const ct_tensor *t);
CT_API ct_status ct_requires_grad_(ct_tensor *t, bool requires_grad);

/* torch.Size helpers. A malformed list (negative length, or entries without data) records a ValueError;
   they then return -1. */
CT_API int64_t ct_shape_numel(ct_shape s);
CT_API int64_t ct_shape_count(ct_shape s, int64_t value);
/* Index of the first occurrence; records PyTorch's ValueError and returns -1 if absent. */
CT_API int64_t ct_shape_index(ct_shape s, int64_t value);
/* "torch.Size([2, 3])"; returns the full length like snprintf. */
CT_API int ct_shape_str(ct_shape s, char *buf, size_t n);

#ifdef __cplusplus
}
#endif
#endif
