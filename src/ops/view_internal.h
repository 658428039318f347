/* Shared by the view ops: making views, PyTorch's shape/stride arithmetic and its checks, and the
   unowned forms of the views other views are built from (results are not scope-registered, so a
   list or a composite op can own them as it needs). */
#ifndef CTORCH_OPS_VIEW_INTERNAL_H
#define CTORCH_OPS_VIEW_INTERNAL_H

#include "core/internal.h"
#include "ops/convert_internal.h"

/* ---- making views ---- */
/* A view of t's storage with room for ndim dims whose sizes and strides the caller fills before
   ct__view_done. It carries t's requires_grad flag (views of a tensor that requires grad do too). */
ct_tensor *ct__view_shell(const ct_tensor *t, int64_t ndim, int64_t offset);
/* Finishes a shell: computes numel. Returns v, or NULL (v released) where torch refuses the sizes' product. */
ct_tensor *ct__view_done(ct_tensor *v);
/* A finished view of t with the given geometry (arrays of ndim entries). */
ct_tensor *ct__view_geom(const ct_tensor *t, int64_t ndim, const int64_t *sizes, const int64_t *strides,
                        int64_t offset);
/* A new reference to t itself, for the calls where PyTorch returns `self`. */
ct_tensor *ct__same(const ct_tensor *t);
/* An alias of t with the math bits `flip` (CT_TENSOR_CONJ, CT_TENSOR_NEG) flipped: torch's _conj and
   _neg_view. Not scope-registered. */
ct_tensor *ct__math_bits_view(const ct_tensor *t, unsigned flip);
/* The real (part 0) or imaginary (part 1) floats of a complex tensor as a view of its storage (torch's
   view_as_real(t).select(-1, part), math bits not applied); not scope-registered. Strides and offset
   double with int64 wrap-around, as torch's do: meta set_ admits any stride on a size-1 dim. */
ct_tensor *ct__complex_part_view(const ct_tensor *t, int64_t part);

/* ---- PyTorch's geometry arithmetic ---- */
/* The wrapped dim for Tensor.size(dim) (maybe_wrap_dim without scalar wrapping): a 0-dim tensor has
   no dims at all. -1 after recording PyTorch's IndexError. */
int64_t ct__size_dim(const ct_tensor *t, int64_t dim);
/* at::infer_size: resolves one -1 against numel into out (shape.ndim entries). Records PyTorch's error
   and returns its kind; unflatten rewords two of them, so each has its code. */
typedef enum {
  CT_INFER_OK = 0,
  CT_INFER_TWO_INFERRED,  /* "only one dimension can be inferred" (std::runtime_error) */
  CT_INFER_NEGATIVE,      /* "invalid shape dimension -2" */
  CT_INFER_AMBIGUOUS,     /* "cannot reshape tensor of 0 elements ..." */
  CT_INFER_WRONG_NUMEL,   /* "shape '[2, 5]' is invalid for input of size 6" (std::runtime_error) */
  CT_INFER_SYMBOLIC       /* symint: a product in SymInt's own range, below -2^62 (reshape's SymInt sizes) */
} ct_infer_result;
ct_infer_result ct__infer_size(ct_shape shape, int64_t numel, int64_t *out);
/* The same with reshape's SymInt arithmetic (torch 1.13's reshape_symint): each wrapped partial product
   below -2^62 is refused as SymInt refuses it ("Expected !is_symbolic() ..."). Only an empty tensor with
   huge dims gets there. */
ct_infer_result ct__infer_size_symint(ct_shape shape, int64_t numel, int64_t *out);
/* Whether the wrapped running product of sizes stays out of SymInt's range (computeStride's numel of the
   old shape in reshape); records the error otherwise. */
bool ct__symint_product_ok(int64_t ndim, const int64_t *sizes);
/* Records SymInt's refusal of a value in its own range. */
void ct__symint_error(void);
/* at::detail::computeStride: strides that let sizes `newshape` view t's memory, or false when the
   view would span two contiguous subspaces. */
bool ct__compute_view_strides(const ct_tensor *t, int64_t ndim, const int64_t *newshape, int64_t *out);
/* TensorImpl::safe_compute_numel: false (and PyTorch's error) when the unsigned product overflows.
   A negative size that a zero would let through in PyTorch is refused too, with empty()'s error. */
bool ct__check_numel(int64_t ndim, const int64_t *sizes);
/* The same, with the product in *numel where it passes. */
bool ct__numel_c10(int64_t ndim, const int64_t *sizes, int64_t *numel);
/* as_strided's checks (setStrided + checkInBoundsForStorage) for a view of t, in PyTorch's order. */
bool ct__check_as_strided(const ct_tensor *t, int64_t ndim, const int64_t *sizes, const int64_t *strides,
                          int64_t offset);
/* Tensor::toString() as Python shows it: "torch.FloatTensor", "CPUBoolType", "MetaFloatType". */
void ct__tensor_type_str(const ct_tensor *t, char *buf, size_t n);

/* ---- the views' _impls: what a public view does after its entry guard ----
   Internal callers (other views, composites) call these, never the public functions, so that autograd will
   record one node per public call. Results are not scope-registered (NULL + error on failure), so a list or
   a composite owns them as it needs; the public function is its guard + ct__own(impl). */
ct_tensor *ct__view_impl(const ct_tensor *t, ct_shape shape);
ct_tensor *ct__reshape_impl(const ct_tensor *t, ct_shape shape);
/* reshape for a shell over t (from ct__view_shell) whose sizes are already final; consumes v. */
ct_tensor *ct__reshape_shell(const ct_tensor *t, ct_tensor *v);
ct_tensor *ct__as_strided_impl(const ct_tensor *t, ct_shape size, ct_shape stride,
                               const int64_t *storage_offset);
ct_tensor *ct__expand_impl(const ct_tensor *t, ct_shape shape);
ct_tensor *ct__transpose_impl(const ct_tensor *t, int64_t dim0, int64_t dim1);
ct_tensor *ct__t_impl(const ct_tensor *t);
ct_tensor *ct__T_impl(const ct_tensor *t);
ct_tensor *ct__mT_impl(const ct_tensor *t);
ct_tensor *ct__permute_impl(const ct_tensor *t, ct_dims dims);
/* permute with already wrapped, distinct dims (no checks). */
ct_tensor *ct__permute_unchecked(const ct_tensor *t, const int64_t *order);
ct_tensor *ct__movedim_impl(const ct_tensor *t, ct_dims source, ct_dims destination);
ct_tensor *ct__squeeze_impl(const ct_tensor *t);
ct_tensor *ct__squeeze_dim_impl(const ct_tensor *t, int64_t dim);
ct_tensor *ct__squeeze_dims_impl(const ct_tensor *t, ct_dims dims);
ct_tensor *ct__unsqueeze_impl(const ct_tensor *t, int64_t dim);
ct_tensor *ct__flatten_impl(const ct_tensor *t, int64_t start_dim, int64_t end_dim);
ct_tensor *ct__unflatten_impl(const ct_tensor *t, int64_t dim, ct_shape sizes);
ct_tensor *ct__slice_impl(const ct_tensor *t, int64_t dim, int64_t start, int64_t end, int64_t step);
ct_tensor *ct__narrow_impl(const ct_tensor *t, int64_t dim, int64_t start, int64_t length);
ct_tensor *ct__select_impl(const ct_tensor *t, int64_t dim, int64_t index);
ct_tensor *ct__unfold_impl(const ct_tensor *t, int64_t dimension, int64_t size, int64_t step);
ct_tensor *ct__diagonal_impl(const ct_tensor *t, int64_t offset, int64_t dim1, int64_t dim2);
ct_tensor *ct__alias_impl(const ct_tensor *t);
ct_tensor *ct__detach_impl(const ct_tensor *t);
ct_tensor *ct__conj_impl(const ct_tensor *t);
/* resolve_conj (bit CT_TENSOR_CONJ) / resolve_neg (CT_TENSOR_NEG). */
ct_tensor *ct__resolve_impl(const ct_tensor *t, unsigned bit);
/* set_ and resize_: self changed in place (nothing changes on failure). */
ct_status ct__set_storage_impl(ct_tensor *self, ct_storage *source, int64_t storage_offset, ct_shape size,
                               ct_shape stride);
ct_status ct__set_impl(ct_tensor *self, const ct_tensor *source);
ct_status ct__resize_impl(ct_tensor *self, ct_shape size, ct_memory_format fmt);
ct_status ct__resize_as_impl(ct_tensor *self, const ct_tensor *other);
/* The list views: lists and pieces not scope-registered (ct__own_list registers both). */
ct_tensor_list *ct__unbind_impl(const ct_tensor *t, int64_t dim);
ct_tensor_list *ct__split_impl(const ct_tensor *t, int64_t split_size, int64_t dim);
ct_tensor_list *ct__split_with_sizes_impl(const ct_tensor *t, ct_shape split_sizes, int64_t dim);
ct_tensor_list *ct__chunk_impl(const ct_tensor *t, int64_t chunks, int64_t dim);
ct_tensor_list *ct__tensor_split_impl(const ct_tensor *t, int64_t sections, int64_t dim);
ct_tensor_list *ct__tensor_split_indices_impl(const ct_tensor *t, ct_shape indices, int64_t dim);

#endif
