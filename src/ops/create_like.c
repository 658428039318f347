/* torch.*_like and Tensor.new_*: factories whose dtype and device default to an existing tensor's. */
#include "core/cast.h"
#include "ops/create_internal.h"

/* PyTorch checks requires_grad after the fill, so the value's own errors come first. */
static ct_tensor *like(const ct_tensor *t, const ct_tensor_opts *opts, const ct_scalar *fill, bool zero) {
  if (!t) return ct__null_ptr_arg("t");
  ct_resolved_opts o;
  if (!ct__resolve_opts_like(t, opts, &o)) return NULL;
  bool rg = o.requires_grad;
  o.requires_grad = false;
  ct_tensor *r = ct__empty_like_with(t, o.memory_format, &o);
  if (!r) return NULL;
  if (zero) ct__zero_storage(r);
  if (fill && r->device_type != CT_META && (!ct__scalar_fits(*fill, o.dtype) || ct__fill(r, *fill) != CT_OK)) {
    ct_release(r);
    return NULL;
  }
  return ct__own(ct__finish_requires_grad(r, rg));
}

ct_tensor *ct_empty_like(const ct_tensor *t, const ct_tensor_opts *opts) { return like(t, opts, NULL, false); }
ct_tensor *ct_zeros_like(const ct_tensor *t, const ct_tensor_opts *opts) { return like(t, opts, NULL, true); }

ct_tensor *ct_ones_like(const ct_tensor *t, const ct_tensor_opts *opts) {
  ct_scalar one = ct_scalar_int(1);
  return like(t, opts, &one, false);
}

ct_tensor *ct_full_like(const ct_tensor *t, ct_scalar value, const ct_tensor_opts *opts) {
  if (!t) return ct__null_ptr_arg("t"); /* before the value's check: a NULL keeps the pending error */
  return ct__check_scalar(value) ? like(t, opts, &value, false) : NULL;
}

/* Tensor.new_*: a fresh contiguous tensor of the given shape (not self's), dtype/device from self. */
static ct_tensor *new_of(const ct_tensor *self, ct_shape shape, const ct_tensor_opts *opts, const ct_scalar *fill,
                         bool zero) {
  if (!self) return ct__null_ptr_arg("self");
  ct_resolved_opts o;
  if (!ct__resolve_opts_like(self, opts, &o)) return NULL;
  if (fill) return ct__own(ct__full_with(shape, *fill, &o));
  bool rg = o.requires_grad;
  o.requires_grad = false;
  ct_tensor *r = ct__empty_with(shape, &o);
  if (r && zero) ct__zero_storage(r);
  return ct__own(ct__finish_requires_grad(r, rg));
}

ct_tensor *ct_new_empty(const ct_tensor *self, ct_shape shape, const ct_tensor_opts *opts) {
  return new_of(self, shape, opts, NULL, false);
}
ct_tensor *ct_new_zeros(const ct_tensor *self, ct_shape shape, const ct_tensor_opts *opts) {
  return new_of(self, shape, opts, NULL, true);
}
ct_tensor *ct_new_ones(const ct_tensor *self, ct_shape shape, const ct_tensor_opts *opts) {
  ct_scalar one = ct_scalar_int(1);
  return new_of(self, shape, opts, &one, false);
}
ct_tensor *ct_new_full(const ct_tensor *self, ct_shape shape, ct_scalar value, const ct_tensor_opts *opts) {
  if (!self) return ct__null_ptr_arg("self");
  return ct__check_scalar(value) ? new_of(self, shape, opts, &value, false) : NULL;
}

ct_tensor *ct_new_tensor(const ct_tensor *self, const void *data, ct_dtype src_dtype, ct_shape shape,
                         const ct_tensor_opts *opts) {
  if (!self) return ct__null_ptr_arg("self");
  ct_resolved_opts o;
  if (!ct__resolve_opts_like(self, opts, &o)) return NULL;
  return ct__own(ct__tensor_from_data_with(data, src_dtype, shape, &o));
}
