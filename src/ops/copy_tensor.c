/* Tensor.copy_ and the export of elements into a caller buffer. */
#include "core/cast.h"
#include "ops/create_internal.h"


ct_status ct_copy_(ct_tensor *self, const ct_tensor *src) {
  CT__NONNULL_STATUS(self, src);
  if (!ct__check_inplace(self)) return CT_ERR_RUNTIME;
  ct_status st = ct__copy_into(self, src);
  if (st == CT_OK && self->storage) atomic_fetch_add_explicit(&self->storage->version, 1, memory_order_relaxed);
  return st;
}

ct_status ct_copy_to_buffer(const ct_tensor *t, void *buf, ct_dtype dtype, size_t buf_bytes) {
  CT__NONNULL_STATUS(t);
  if (!ct__check_dtype(dtype)) return CT_ERR_TYPE;
  if (t->device_type == CT_META) {
    ct__error(CT_ERR_NOT_IMPLEMENTED, "Cannot copy out of meta tensor; no data!");
    return CT_ERR_NOT_IMPLEMENTED;
  }
  size_t need = (size_t)t->numel * ct__itemsize(dtype);
  if (buf_bytes < need || (!buf && need)) {
    ct__error(CT_ERR_VALUE, "copy_to_buffer: a buffer of %zu bytes cannot hold %lld elements of %s (%zu bytes)",
              buf ? buf_bytes : (size_t)0, (long long)t->numel, ct_dtype_name(dtype), need);
    return CT_ERR_VALUE;
  }
  if (need == 0) return CT_OK;
  ct_tensor *out = ct__borrow_contiguous(buf, dtype, t->ndim, t->sizes);
  if (!out) return ct_last_error();
  ct_status st = ct__copy_into(out, t);
  ct_release(out);
  return st;
}

bool ct__check_copy_devices(const ct_tensor *dst, const ct_tensor *src) {
  if (ct_device_equal(ct__tdevice(dst), ct__tdevice(src))) return true;
  char a[32], b[32];
  ct_device_str(ct__tdevice(src), a, sizeof a);
  ct_device_str(ct__tdevice(dst), b, sizeof b);
  ct__error(CT_ERR_RUNTIME, "Attempting to copy from device %s to device %s, but cross-device copies are not allowed!", a, b);
  return false;
}
