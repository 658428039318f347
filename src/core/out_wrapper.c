/* out_wrapper's out= rule (core/out_wrapper.h). */
#include "core/out_wrapper.h"

#include "core/cast.h"

static ct_status safe_copy_checks(ct_tensor *out, const ct_tensor *r) {
  if (!ct__check_copy_devices(out, r)) return ct_last_error();
  if (!ct_can_cast((ct_dtype)r->dtype, (ct_dtype)out->dtype)) {
    ct__error(CT_ERR_RUNTIME,
              "Attempting to cast from %s to out tensor with dtype %s, but this can't be cast because it is "
              "not safe!",
              ct_dtype_name((ct_dtype)r->dtype), ct_dtype_name((ct_dtype)out->dtype));
    return CT_ERR_RUNTIME;
  }
  return CT_OK;
}

ct_status ct__out_wrapper_copy(ct_tensor *out, const ct_tensor *r) {
  /* _maybe_resize_out: an out with r's element count (and not empty) keeps its shape; resize_ to the shape
     out already has keeps its strides. torch resizes before _safe_copy_out's checks; ctorch does so only for
     a meta out (no data: tests/diff/README.md, "Where ctorch follows torch against its own rule") and checks
     an out that holds data first, so that a failing call leaves it as it was. */
  bool meta = out->device_type == CT_META;
  if (out->numel == 0 || out->numel != r->numel) {
    if (!ct__tensor_resize_ok(out, r->ndim, r->sizes)) return ct_last_error();
    ct_status s = meta ? CT_OK : safe_copy_checks(out, r);
    if (s == CT_OK && !ct__has_sizes(out, r->ndim, r->sizes))
      s = ct__tensor_resize(out, r->ndim, r->sizes, NULL);
    if (s != CT_OK) return s;
  }
  ct_status s = safe_copy_checks(out, r);
  if (s != CT_OK) return s;
  /* copy_'s Meta kernel checks no shapes: out may keep a shape r does not broadcast to */
  return meta ? CT_OK : ct__copy_into(out, r);
}
