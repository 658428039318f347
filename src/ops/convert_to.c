/* Tensor.to and the dtype shorthands, contiguous and clone: each either returns its input (a new
   reference) or a fresh tensor filled by the copy engine. */
#include "core/cast.h"
#include "core/layout_rules.h"
#include "ops/convert_internal.h"
#include "ops/create_internal.h"
#include "ops/view_op.h"

/* torch computes to (aten::_to_copy), clone and contiguous of a COO tensor and all but contiguous of the
   compressed layouts, which have no is_contiguous: pending in ctorch. The dtype shorthands (float(), ...) are
   aten::to.dtype: to's descriptor. */
static const ct_view_op to_op = {CT_COPY_OP("to", "aten::_to_copy", CT_LAYOUTS_ALL)};
static const ct_view_op type_as_op = {CT_COPY_OP("type_as", "aten::type_as", CT_LAYOUTS_ALL)};
static const ct_view_op clone_op = {CT_COPY_OP("clone", "aten::clone", CT_LAYOUTS_ALL)};
static const ct_view_op contiguous_op = {CT_COPY_OP("contiguous", "aten::contiguous", CT_LAYOUTS_ALL),
                                         .compressed = CT_SPARSE_NO_IS_CONTIGUOUS};

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
  CT__VIEW_ENTER_PTR(&to_op, t, t);
  return ct__to_impl(t, opts);
}

ct_tensor *ct__to_impl(const ct_tensor *t, const ct_to_opts *opts) {
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

ct_tensor *ct__to_dtype_impl(const ct_tensor *t, ct_dtype dtype) {
  return ct__to_impl(t, &(ct_to_opts){.dtype = dtype});
}

ct_tensor *ct_to_dtype(const ct_tensor *t, ct_dtype dtype) {
  CT__VIEW_ENTER_PTR(&to_op, t, t);
  return ct__to_dtype_impl(t, dtype);
}

ct_tensor *ct_type_as(const ct_tensor *t, const ct_tensor *other) {
  CT__OP_ENTER_PTR(&type_as_op.op, t, t, other);
  /* other's options carry its layout, which to(options) checks before anything else */
  if (t->layout != other->layout)
    return CT_ERR_NULL(
        CT_ERR_RUNTIME,
        "to(options) doesn't support converting to a different layout, but got self.layout being %s "
        "and options.layout set as %s",
        ct__layout_c10_name((ct_layout)t->layout), ct__layout_c10_name((ct_layout)other->layout));
  if (CT_UNLIKELY(t->layout != CT_STRIDED)) return (ct__sparse_refuse(&type_as_op, t), NULL);
  return ct__to_impl(t, &(ct_to_opts){.dtype = (ct_dtype)other->dtype, .device = ct__tdevice(other)});
}

#define CT_TO_SHORTHAND(FN, DTYPE)        \
  ct_tensor *FN(const ct_tensor *t) {     \
    CT__VIEW_ENTER_PTR(&to_op, t, t);     \
    return ct__to_dtype_impl(t, (DTYPE)); \
  }
CT_TO_SHORTHAND(ct_float, CT_FLOAT32)
CT_TO_SHORTHAND(ct_double, CT_FLOAT64)
CT_TO_SHORTHAND(ct_half, CT_FLOAT16)
CT_TO_SHORTHAND(ct_bfloat16, CT_BFLOAT16)
CT_TO_SHORTHAND(ct_int, CT_INT32)
CT_TO_SHORTHAND(ct_long, CT_INT64)
CT_TO_SHORTHAND(ct_short, CT_INT16)
CT_TO_SHORTHAND(ct_char, CT_INT8)
CT_TO_SHORTHAND(ct_byte, CT_UINT8)
CT_TO_SHORTHAND(ct_bool, CT_BOOL)

ct_tensor *ct__clone_impl(const ct_tensor *t, ct_memory_format fmt) {
  return to_copy(t, (ct_dtype)t->dtype, ct__tdevice(t), fmt == CT_MEMORY_FORMAT_UNSET ? CT_PRESERVE_FORMAT : fmt);
}

ct_tensor *ct_clone(const ct_tensor *t, ct_memory_format fmt) {
  CT__VIEW_ENTER_PTR(&clone_op, t, t);
  return ct__clone_impl(t, fmt);
}

ct_tensor *ct__contiguous_impl(const ct_tensor *t, ct_memory_format fmt) {
  if (fmt == CT_MEMORY_FORMAT_UNSET) fmt = CT_CONTIGUOUS_FORMAT;
  if (ct_is_contiguous(t, fmt)) return ct__own(ct_retain((ct_tensor *)t));
  if (fmt == CT_PRESERVE_FORMAT)
    return CT_ERR_NULL(CT_ERR_RUNTIME, "preserve memory format is unsupported by the contiguous operator");
  return ct__clone_impl(t, fmt);
}

ct_tensor *ct_contiguous(const ct_tensor *t, ct_memory_format fmt) {
  CT__VIEW_ENTER_PTR(&contiguous_op, t, t);
  return ct__contiguous_impl(t, fmt);
}
