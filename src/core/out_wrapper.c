/* out_wrapper's out= rule (core/out_wrapper.h). */
#include "core/out_wrapper.h"

#include "core/cast.h"

ct_status ct__out_wrapper_copy(ct_tensor *out, const ct_tensor *r) {
  /* _maybe_resize_out: an out with r's element count (and not empty) keeps its shape; resize_ to the shape
     out already has keeps its strides */
  if (out->numel == 0 || out->numel != r->numel) {
    if (!ct__tensor_resize_ok(out, r->ndim, r->sizes)) return ct_last_error();
    ct_status s =
        ct__has_sizes(out, r->ndim, r->sizes) ? CT_OK : ct__tensor_resize(out, r->ndim, r->sizes, NULL);
    if (s != CT_OK) return s;
  }
  if (!ct__check_copy_devices(out, r)) return ct_last_error();
  if (!ct_can_cast((ct_dtype)r->dtype, (ct_dtype)out->dtype)) {
    ct__error(CT_ERR_RUNTIME,
              "Attempting to cast from %s to out tensor with dtype %s, but this can't be cast because it is "
              "not safe!",
              ct_dtype_name((ct_dtype)r->dtype), ct_dtype_name((ct_dtype)out->dtype));
    return CT_ERR_RUNTIME;
  }
  /* copy_'s Meta kernel checks no shapes: out may keep a shape r does not broadcast to */
  return out->device_type == CT_META ? CT_OK : ct__copy_into(out, r);
}
