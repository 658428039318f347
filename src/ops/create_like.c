/* torch.*_like and Tensor.new_*: factories whose dtype and device default to an existing tensor's. */
#include "core/cast.h"
#include "ops/create_internal.h"

/* *_like on a non-strided input: torch builds empty_like and zeros_like of COO and CSR / CSC inputs, ones_like
   and full_like of CSR / CSC ones (the sparse issue fills these), and refuses a COO input in fill_. */
#define LIKE_OP(NAME, ATEN, CPU, LAYOUTS) \
  { CT_CREATE_OP(NAME, ATEN, CPU), .layouts = (LAYOUTS), .grad = CT_OP_GRAD_NONE }
static const ct_op empty_like_op =
    LIKE_OP("empty_like", "aten::empty_like", &ct__fill_nothing, CT_CREATE_SPARSE);
static const ct_op zeros_like_op =
    LIKE_OP("zeros_like", "aten::zeros_like", &ct__fill_nothing, CT_CREATE_SPARSE);
static const ct_op ones_like_op =
    LIKE_OP("ones_like", "aten::fill_.Scalar", &ct__fill_nothing, CT_CREATE_COMPRESSED);
static const ct_op full_like_op =
    LIKE_OP("full_like", "aten::fill_.Scalar", &ct__fill_nothing, CT_CREATE_COMPRESSED);
/* A layout asked of *_like (a strided input): empty_like goes through empty_strided, which refuses it; zeros_like
   builds a COO zero tensor itself. */
const ct_create_op ct__like_request = {{CT_CREATE_OP("empty_like", "aten::empty_strided", &ct__fill_nothing)},
                                       CT_FACTORY_STRIDED};
static const ct_create_op zeros_like_request = {
    {CT_CREATE_OP("zeros_like", "aten::empty_strided", &ct__fill_nothing), .layouts = CT_CREATE_COO},
    CT_FACTORY_STRIDED};

/* Tensor.new_*: factories on self's options, so self's layout is the request's when none is given. new_ones and
   new_full are new_empty + fill_, which refuses COO. */
/* clang-format off */
#define NEW_OP(NAME, ATEN, LAYOUTS) \
  {{CT_CREATE_OP(NAME, ATEN, &ct__fill_nothing), .layouts = (LAYOUTS), .grad = CT_OP_GRAD_NONE}, CT_FACTORY_EMPTY}
static const ct_create_op new_empty_op = NEW_OP("new_empty", "aten::new_empty", CT_CREATE_SPARSE);
static const ct_create_op new_zeros_op = NEW_OP("new_zeros", "aten::new_zeros", CT_CREATE_SPARSE);
static const ct_create_op new_ones_op = NEW_OP("new_ones", "aten::fill_.Scalar", CT_CREATE_COMPRESSED);
static const ct_create_op new_full_op = NEW_OP("new_full", "aten::fill_.Scalar", CT_CREATE_COMPRESSED);
/* clang-format on */
/* new_tensor takes no layout; it ignores a COO self's (the result is strided) */
static const ct_create_op new_tensor_op = {
    {CT_CREATE_OP("new_tensor", "aten::new_tensor", &ct__fill_nothing)}, CT_FACTORY_NO_ARG};

/* The *_like impl: PyTorch checks requires_grad after the fill, so the value's own errors come first. */
static ct_tensor *like_with(const ct_tensor *t, const ct_resolved_opts *ro, const ct_scalar *fill,
                            bool zero) {
  ct_resolved_opts o = *ro;
  o.requires_grad = false;
  ct_tensor *r = ct__empty_like_with(t, o.memory_format, &o);
  if (!r) return NULL;
  ct_status s = zero   ? ct__fill_run(&ct__zero_op, r, NULL)
                : fill ? ct__fill_run(&ct__fill_op, r, fill)
                       : CT_OK;
  if (s != CT_OK) {
    ct_release(r);
    return NULL;
  }
  return ct__finish_requires_grad(r, ro->requires_grad);
}

/* The *_like prologue: the guard on t, then the options (a layout asked of a strided input: `request`). */
static ct_tensor *like(const ct_op *op, const ct_create_op *request, const ct_tensor *t,
                       const ct_tensor_opts *opts, const ct_scalar *fill, bool zero) {
  CT__NONNULL_PTR(t);
  if (!ct__create_input_ok(op, t)) return NULL;
  ct_resolved_opts o;
  if (!ct__resolve_opts_like(t, opts, &o) ||
      !ct__factory_accepts(request, ct__opts_layout(opts), o.device, ct_shape_of(t)))
    return NULL;
  return ct__own(like_with(t, &o, fill, zero));
}

ct_tensor *ct_empty_like(const ct_tensor *t, const ct_tensor_opts *opts) {
  return like(&empty_like_op, &ct__like_request, t, opts, NULL, false);
}
ct_tensor *ct_zeros_like(const ct_tensor *t, const ct_tensor_opts *opts) {
  return like(&zeros_like_op, &zeros_like_request, t, opts, NULL, true);
}

ct_tensor *ct_ones_like(const ct_tensor *t, const ct_tensor_opts *opts) {
  ct_scalar one = ct_scalar_int(1);
  return like(&ones_like_op, &ct__like_request, t, opts, &one, false);
}

ct_tensor *ct_full_like(const ct_tensor *t, ct_scalar value, const ct_tensor_opts *opts) {
  CT__NONNULL_PTR(t); /* before the value's check: a NULL keeps the pending error */
  return ct__check_scalar(value) ? like(&full_like_op, &ct__like_request, t, opts, &value, false) : NULL;
}

/* Tensor.new_*: a fresh contiguous tensor of the given shape (not self's), dtype/device/layout from self. */
static ct_tensor *new_of(const ct_create_op *op, const ct_tensor *self, ct_shape shape,
                         const ct_tensor_opts *opts, const ct_scalar *fill, bool zero) {
  CT__NONNULL_PTR(self);
  ct_resolved_opts o;
  ct_layout layout = ct__opts_layout(opts) ? ct__opts_layout(opts) : (ct_layout)self->layout;
  if (!ct__resolve_opts_like(self, opts, &o) || !ct__factory_accepts(op, layout, o.device, shape))
    return NULL;
  if (fill) return ct__own(ct__full_with(shape, *fill, &o));
  return ct__own(zero ? ct__zeros_with(shape, &o) : ct__empty_with(shape, &o));
}

ct_tensor *ct_new_empty(const ct_tensor *self, ct_shape shape, const ct_tensor_opts *opts) {
  return new_of(&new_empty_op, self, shape, opts, NULL, false);
}
ct_tensor *ct_new_zeros(const ct_tensor *self, ct_shape shape, const ct_tensor_opts *opts) {
  return new_of(&new_zeros_op, self, shape, opts, NULL, true);
}
ct_tensor *ct_new_ones(const ct_tensor *self, ct_shape shape, const ct_tensor_opts *opts) {
  ct_scalar one = ct_scalar_int(1);
  return new_of(&new_ones_op, self, shape, opts, &one, false);
}
ct_tensor *ct_new_full(const ct_tensor *self, ct_shape shape, ct_scalar value, const ct_tensor_opts *opts) {
  CT__NONNULL_PTR(self);
  return ct__check_scalar(value) ? new_of(&new_full_op, self, shape, opts, &value, false) : NULL;
}

ct_tensor *ct_new_tensor(const ct_tensor *self, const void *data, ct_dtype src_dtype, ct_shape shape,
                         const ct_tensor_opts *opts) {
  CT__NONNULL_PTR(self);
  if (self->layout >= CT_SPARSE_CSR) /* torch's options of a sparse-compressed self */
    return CT_ERR_NULL(CT_ERR_RUNTIME, "Cannot map DispatchKey SparseCsr%s to a unique layout.",
                       self->device_type == CT_META   ? "Meta"
                       : self->device_type == CT_CUDA ? "CUDA"
                                                      : "CPU");
  ct_resolved_opts o;
  if (!ct__resolve_opts_like(self, opts, &o) ||
      !ct__factory_accepts(&new_tensor_op, ct__opts_layout(opts), o.device, shape))
    return NULL;
  return ct__own(ct__tensor_from_data_with(data, src_dtype, shape, &o));
}
