/* torch.empty and the resolution of factory options shared by every creation op. */
#include "ops/create_internal.h"

#include "core/layout_rules.h"

bool ct__resolve_opts(const ct_tensor_opts *opts, ct_dtype default_dtype, ct_resolved_opts *out) {
  ct_tensor_opts o = opts ? *opts : (ct_tensor_opts){0};
  out->dtype = o.dtype == CT_DTYPE_UNSET ? default_dtype : o.dtype;
  if (!ct__check_dtype(out->dtype)) return false;
  out->device = o.device.type == CT_DEVICE_TYPE_UNSET ? CT_DEVICE_CPU : o.device;
  if (out->device.type == CT_CUDA && out->device.index < 0) out->device.index = 0;
  if (out->device.type == CT_CPU) out->device.index = -1;
  if (o.layout != CT_LAYOUT_UNSET && o.layout != CT_STRIDED) {
    ct__error(CT_ERR_NOT_IMPLEMENTED, "layout %s is not supported by this factory yet", ct_layout_name(o.layout));
    return false;
  }
  out->memory_format = o.memory_format;
  out->requires_grad = o.requires_grad;
  if (o.requires_grad && !ct_dtype_is_floating_point(out->dtype) && !ct_dtype_is_complex(out->dtype)) {
    ct__error(CT_ERR_RUNTIME, "Only Tensors of floating point and complex dtype can require gradients");
    return false;
  }
  return true;
}

/* Strides for a memory format; records PyTorch's error for a rank the format does not fit. */
bool ct__format_strides(int64_t ndim, const int64_t *sizes, ct_memory_format fmt, int64_t *strides) {
  if (fmt == CT_CHANNELS_LAST && ndim != 4) {
    ct__error(CT_ERR_RUNTIME, "required rank 4 tensor to use channels_last format");
    return false;
  }
  if (fmt == CT_CHANNELS_LAST_3D && ndim != 5) {
    ct__error(CT_ERR_RUNTIME, "required rank 5 tensor to use channels_last_3d format");
    return false;
  }
  ct__format_strides_for(ndim, sizes, fmt, strides);
  return true;
}

ct_tensor *ct__empty_with(ct_shape shape, const ct_resolved_opts *o) {
  if (o->memory_format == CT_PRESERVE_FORMAT) {
    ct__error(CT_ERR_RUNTIME, "preserve memory format is unsupported by the contiguous operator");
    return NULL;
  }
  ct_tensor *t = ct__empty(shape.ndim, shape.data, o->dtype, o->device);
  if (!t) return NULL;
  if (o->memory_format == CT_CHANNELS_LAST || o->memory_format == CT_CHANNELS_LAST_3D) {
    if (!ct__format_strides(t->ndim, t->sizes, o->memory_format, t->strides)) {
      ct_release(t);
      return NULL;
    }
  }
  if (o->requires_grad) t->flags |= CT_TENSOR_REQUIRES_GRAD;
  return t;
}

ct_tensor *ct_empty(ct_shape shape, const ct_tensor_opts *opts) {
  ct_resolved_opts o;
  if (!ct__resolve_opts(opts, ct_get_default_dtype(), &o)) return NULL;
  return ct__own(ct__empty_with(shape, &o));
}
