/* Tensor.to and the dtype shorthands, contiguous and clone: each either returns its input (a new
   reference) or a fresh tensor filled by the copy engine. */
#include "core/cast.h"
#include "core/layout_rules.h"
#include "ops/create_internal.h"

/* Results of a differentiable conversion keep requires_grad when their dtype can carry gradients. */
static ct_tensor *finish_copy(ct_tensor *r, const ct_tensor *src) {
  if (ct__copy_into(r, src) != CT_OK) {
    ct_release(r);
    return NULL;
  }
  ct_dtype d = (ct_dtype)r->dtype;
  if (ct_dtype_is_floating_point(d) || ct_dtype_is_complex(d)) ct__grad_mark_result(r, src);
  return ct__own(r);
}

/* at::_to_copy: empty_like's layout rules on the target dtype and device, then copy_. A source with math
   bits is resolved first, in its own dtype (torch's fallback resolves _to_copy's input): the cast then sees
   its values, as a negated float becoming complex has a +0 imaginary part. */
static ct_tensor *to_copy(const ct_tensor *t, ct_dtype dtype, ct_device device, ct_memory_format fmt) {
  ct_resolved_opts o = {.dtype = dtype, .device = device};
  ct_tensor *r = ct__empty_like_with(t, fmt, &o);
  if (!r || !ct__math_bits(t) || dtype == (ct_dtype)t->dtype) return r ? finish_copy(r, t) : NULL;
  ct_tensor *src = ct__resolve_bits(t);
  ct_tensor *res = src ? finish_copy(r, src) : (ct_release(r), NULL);
  if (res && (ct_dtype_is_floating_point(dtype) || ct_dtype_is_complex(dtype))) ct__grad_mark_result(res, t);
  ct_release(src);
  return res;
}

ct_tensor *ct_to(const ct_tensor *t, const ct_to_opts *opts) {
  if (!t) return ct__null_ptr_arg("t");
  ct_to_opts to = opts ? *opts : (ct_to_opts){0};
  ct_tensor_opts f = {.dtype = to.dtype, .device = to.device};
  ct_resolved_opts o;
  if (!ct__resolve_opts_like(t, &f, &o)) return NULL;
  ct_memory_format fmt = to.memory_format == CT_MEMORY_FORMAT_UNSET ? CT_PRESERVE_FORMAT : to.memory_format;
  /* _to_will_alias: same dtype and device, no copy asked, and a format the tensor already suggests */
  bool alias = o.dtype == (ct_dtype)t->dtype && ct_device_equal(o.device, ct__tdevice(t)) && !to.copy &&
               (fmt == CT_PRESERVE_FORMAT || ct__suggest_memory_format(t) == fmt);
  if (alias) return ct__own(ct_retain((ct_tensor *)t));
  return to_copy(t, o.dtype, o.device, fmt);
}

ct_tensor *ct_to_dtype(const ct_tensor *t, ct_dtype dtype) { return ct_to(t, &(ct_to_opts){.dtype = dtype}); }

ct_tensor *ct_type_as(const ct_tensor *t, const ct_tensor *other) {
  if (!t || !other) return ct__null_ptr_arg(!t ? "t" : "other");
  return ct_to(t, &(ct_to_opts){.dtype = (ct_dtype)other->dtype, .device = ct__tdevice(other)});
}

ct_tensor *ct_float(const ct_tensor *t) { return ct_to_dtype(t, CT_FLOAT32); }
ct_tensor *ct_double(const ct_tensor *t) { return ct_to_dtype(t, CT_FLOAT64); }
ct_tensor *ct_half(const ct_tensor *t) { return ct_to_dtype(t, CT_FLOAT16); }
ct_tensor *ct_bfloat16(const ct_tensor *t) { return ct_to_dtype(t, CT_BFLOAT16); }
ct_tensor *ct_int(const ct_tensor *t) { return ct_to_dtype(t, CT_INT32); }
ct_tensor *ct_long(const ct_tensor *t) { return ct_to_dtype(t, CT_INT64); }
ct_tensor *ct_short(const ct_tensor *t) { return ct_to_dtype(t, CT_INT16); }
ct_tensor *ct_char(const ct_tensor *t) { return ct_to_dtype(t, CT_INT8); }
ct_tensor *ct_byte(const ct_tensor *t) { return ct_to_dtype(t, CT_UINT8); }
ct_tensor *ct_bool(const ct_tensor *t) { return ct_to_dtype(t, CT_BOOL); }

ct_tensor *ct_clone(const ct_tensor *t, ct_memory_format fmt) {
  if (!t) return ct__null_ptr_arg("t");
  return to_copy(t, (ct_dtype)t->dtype, ct__tdevice(t), fmt == CT_MEMORY_FORMAT_UNSET ? CT_PRESERVE_FORMAT : fmt);
}

ct_tensor *ct_contiguous(const ct_tensor *t, ct_memory_format fmt) {
  if (!t) return ct__null_ptr_arg("t");
  if (fmt == CT_MEMORY_FORMAT_UNSET) fmt = CT_CONTIGUOUS_FORMAT;
  if (ct_is_contiguous(t, fmt)) return ct__own(ct_retain((ct_tensor *)t));
  if (fmt == CT_PRESERVE_FORMAT)
    return CT_ERR_NULL(CT_ERR_RUNTIME, "preserve memory format is unsupported by the contiguous operator");
  return ct_clone(t, fmt);
}
