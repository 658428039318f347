/* Argument plumbing shared by the random ops (see random_internal.h). */
#include "ops/create_internal.h"
#include "random/random_internal.h"

void ct__dispatch_error(const char *kernel, ct_dtype dt) {
  ct__error(CT_ERR_RUNTIME, "\"%s\" not implemented for '%s'", kernel, ct_dtype_scalar_name(dt));
}

static ct_tensor_opts tensor_opts(const ct_random_opts *o) {
  ct_tensor_opts t = {0};
  if (o) {
    t.dtype = o->dtype;
    t.device = o->device;
    t.layout = o->layout;
    t.memory_format = o->memory_format;
    t.requires_grad = o->requires_grad;
  }
  return t;
}

ct_tensor *ct__random_empty(const ct_create_op *op, ct_shape size, const ct_random_opts *opts,
                            ct_dtype default_dtype) {
  ct_tensor_opts t = tensor_opts(opts);
  ct_resolved_opts r;
  if (!ct__factory_enter(op, &t, default_dtype, size, &r)) return NULL;
  return ct__empty_with(size, &r);
}

ct_tensor *ct__random_empty_like(const ct_tensor *t, const ct_random_opts *opts) {
  ct_tensor_opts o = tensor_opts(opts);
  if (o.dtype == CT_DTYPE_UNSET) o.dtype = (ct_dtype)t->dtype;
  if (o.device.type == CT_DEVICE_TYPE_UNSET) o.device = ct__tdevice(t);
  ct_memory_format fmt = o.memory_format;
  o.memory_format = CT_MEMORY_FORMAT_UNSET;
  ct_resolved_opts r;
  if (!ct__resolve_opts(&o, o.dtype, &r) ||
      !ct__factory_accepts(&ct__like_request, o.layout, r.device, ct_shape_of(t)))
    return NULL;
  if (fmt != CT_MEMORY_FORMAT_UNSET && fmt != CT_PRESERVE_FORMAT) {
    r.memory_format = fmt;
    return ct__empty_with(ct_shape_of(t), &r);
  }
  return ct__empty_like_with(t, CT_PRESERVE_FORMAT, &r);
}

ct_tensor *ct__complex_as_real(const ct_tensor *t) {
  int64_t nd = t->ndim + 1;
  int64_t sizes_inline[17], strides_inline[17];
  int64_t *sizes = nd <= 17 ? sizes_inline : ct__malloc(2 * (size_t)nd * sizeof(int64_t));
  if (!sizes) return NULL;
  int64_t *strides = nd <= 17 ? strides_inline : sizes + nd;
  for (int64_t d = 0; d < t->ndim; d++) {
    sizes[d] = t->sizes[d];
    strides[d] = ct__mul_wrap(t->strides[d], 2); /* wraps as torch's: a huge stride of a size-1 dim */
  }
  sizes[nd - 1] = 2;
  strides[nd - 1] = 1;
  ct_dtype real = ct_dtype_to_real((ct_dtype)t->dtype);
  ct_tensor *r = ct__tensor_make(t->storage, real, ct__mul_wrap(t->offset, 2), nd, sizes, strides);
  if (sizes != sizes_inline) ct__free(sizes);
  return r;
}
