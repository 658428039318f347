/* Views: share the input's storage, never copy (reshape copies only when no view is possible).
   Sizes, strides, storage offsets and error messages are PyTorch's. */
#ifndef CTORCH_VIEW_H
#define CTORCH_VIEW_H

#include "error.h"
#include "types.h"

#ifdef __cplusplus
extern "C" {
#endif

CT_API ct_tensor *ct_view(const ct_tensor *t, ct_shape shape);
CT_API ct_tensor *ct_reshape(const ct_tensor *t, ct_shape shape);
CT_API ct_tensor *ct_view_as(const ct_tensor *t, const ct_tensor *other);
CT_API ct_tensor *ct_reshape_as(const ct_tensor *t, const ct_tensor *other);
/* storage_offset NULL keeps t's offset. */
CT_API ct_tensor *ct_as_strided(const ct_tensor *t, ct_shape size, ct_shape stride, const int64_t *storage_offset);
CT_API ct_tensor *ct_transpose(const ct_tensor *t, int64_t dim0, int64_t dim1);
CT_API ct_tensor *ct_t(const ct_tensor *t);
CT_API ct_tensor *ct_T(const ct_tensor *t);
CT_API ct_tensor *ct_mT(const ct_tensor *t);
CT_API ct_tensor *ct_permute(const ct_tensor *t, ct_dims dims);
CT_API ct_tensor *ct_movedim(const ct_tensor *t, ct_dims source, ct_dims destination);
CT_API ct_tensor *ct_squeeze(const ct_tensor *t);
CT_API ct_tensor *ct_squeeze_dim(const ct_tensor *t, int64_t dim);
CT_API ct_tensor *ct_squeeze_dims(const ct_tensor *t, ct_dims dims);
CT_API ct_tensor *ct_unsqueeze(const ct_tensor *t, int64_t dim);
/* torch.flatten(start_dim=0, end_dim=-1). */
CT_API ct_tensor *ct_flatten(const ct_tensor *t, int64_t start_dim, int64_t end_dim);
CT_API ct_tensor *ct_unflatten(const ct_tensor *t, int64_t dim, ct_shape sizes);
/* -1 in shape keeps that size. */
CT_API ct_tensor *ct_expand(const ct_tensor *t, ct_shape shape);
CT_API ct_tensor *ct_expand_as(const ct_tensor *t, const ct_tensor *other);
CT_API ct_tensor *ct_broadcast_to(const ct_tensor *t, ct_shape shape);
CT_API ct_tensor *ct_narrow(const ct_tensor *t, int64_t dim, int64_t start, int64_t length);
CT_API ct_tensor *ct_select(const ct_tensor *t, int64_t dim, int64_t index);
/* t[start:end:step] along dim; end CT_END means to the end; step must be positive. */
CT_API ct_tensor *ct_slice(const ct_tensor *t, int64_t dim, int64_t start, int64_t end, int64_t step);
CT_API ct_tensor *ct_unfold(const ct_tensor *t, int64_t dimension, int64_t size, int64_t step);
/* torch.diagonal(offset=0, dim1=0, dim2=1). */
CT_API ct_tensor *ct_diagonal(const ct_tensor *t, int64_t offset, int64_t dim1, int64_t dim2);
CT_API ct_tensor_list *ct_unbind(const ct_tensor *t, int64_t dim);
CT_API ct_tensor_list *ct_split(const ct_tensor *t, int64_t split_size, int64_t dim);
CT_API ct_tensor_list *ct_split_with_sizes(const ct_tensor *t, ct_shape split_sizes, int64_t dim);
CT_API ct_tensor_list *ct_chunk(const ct_tensor *t, int64_t chunks, int64_t dim);
CT_API ct_tensor_list *ct_tensor_split(const ct_tensor *t, int64_t sections, int64_t dim);
CT_API ct_tensor_list *ct_tensor_split_indices(const ct_tensor *t, ct_shape indices, int64_t dim);
CT_API void ct_tensor_list_release(ct_tensor_list *list);
CT_API ct_tensor *ct_detach(const ct_tensor *t);
CT_API ct_tensor *ct_alias(const ct_tensor *t);

/* torch's lazy conjugate and negative bits (torch 1.13). ct_conj (pointwise.h) of a complex tensor is a
   view with the conjugate bit flipped, and ct_imag of a conjugated tensor a view with the negative bit:
   no data is copied, and every op reads such a tensor's values as conjugated / negated (in-place ops and
   out= write through it). Views keep the bits; clone, contiguous of a non-contiguous tensor, to and copy
   give tensors without them. is_conj / is_neg tell whether t has the bit (false for NULL).
   resolve_conj / resolve_neg return t itself (a new reference) when it lacks the bit, else a new tensor
   holding its values (torch: empty_like + copy_) with neither bit. */
CT_API bool ct_is_conj(const ct_tensor *t);
CT_API bool ct_is_neg(const ct_tensor *t);
CT_API ct_tensor *ct_resolve_conj(const ct_tensor *t);
CT_API ct_tensor *ct_resolve_neg(const ct_tensor *t);

/* In place: they change self's metadata (and, for resize_, may grow its storage). */
CT_API ct_status ct_set_(ct_tensor *self, const ct_tensor *source);
CT_API ct_status ct_set_storage_(ct_tensor *self, ct_storage *source, int64_t storage_offset, ct_shape size,
                                 ct_shape stride);
/* memory_format UNSET is PyTorch's None: contiguous strides, except that unchanged sizes keep their
   strides; CT_CONTIGUOUS_FORMAT and the channels-last formats restride after resizing. */
CT_API ct_status ct_resize_(ct_tensor *self, ct_shape size, ct_memory_format fmt);
CT_API ct_status ct_resize_as_(ct_tensor *self, const ct_tensor *other);

#ifdef __cplusplus
}
#endif
#endif
