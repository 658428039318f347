/* torch.empty and the resolution of factory options shared by every creation op. */
#include "ops/create_internal.h"

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

/* Strides for a memory format (channels_last: NHWC order) over sizes; records an error for a rank
   the format does not fit. */
bool ct__format_strides(int64_t ndim, const int64_t *sizes, ct_memory_format fmt, int64_t *strides) {
  static const int cl2d[] = {1, 3, 2, 0};
  static const int cl3d[] = {1, 4, 3, 2, 0};
  const int *order = NULL;
  if (fmt == CT_CHANNELS_LAST) {
    if (ndim != 4) {
      ct__error(CT_ERR_RUNTIME, "required rank 4 tensor to use channels_last format");
      return false;
    }
    order = cl2d;
  } else if (fmt == CT_CHANNELS_LAST_3D) {
    if (ndim != 5) {
      ct__error(CT_ERR_RUNTIME, "required rank 5 tensor to use channels_last_3d format");
      return false;
    }
    order = cl3d;
  }
  if (!order) {
    ct__contiguous_strides(ndim, sizes, strides);
    return true;
  }
  /* Unlike contiguous strides, PyTorch's channels-last strides do not clamp sizes to 1:
     empty(2, 0, 4, 5, channels_last) has strides (0, 1, 0, 0). */
  int64_t s = 1;
  for (int64_t k = 0; k < ndim; k++) {
    strides[order[k]] = s;
    s *= sizes[order[k]];
  }
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
