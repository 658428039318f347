/* Devices: parsing and formatting with PyTorch's rules. */
#include <stdio.h>

#include "core/internal.h"

bool ct_cuda_is_available(void) { return false; }

bool ct_device_equal(ct_device a, ct_device b) { return a.type == b.type && a.index == b.index; }

static const char *device_type_name(ct_device_type t) {
  switch (t) {
    case CT_CUDA: return "cuda";
    case CT_META: return "meta";
    default: return "cpu";
  }
}

int ct_device_str(ct_device d, char *buf, size_t n) {
  if (d.index >= 0) return snprintf(buf, n, "%s:%d", device_type_name(d.type), (int)d.index);
  return snprintf(buf, n, "%s", device_type_name(d.type));
}

int ct_device_repr(ct_device d, char *buf, size_t n) {
  if (d.index >= 0) return snprintf(buf, n, "device(type='%s', index=%d)", device_type_name(d.type), (int)d.index);
  return snprintf(buf, n, "device(type='%s')", device_type_name(d.type));
}

ct_status ct_device_from_ordinal(int64_t ordinal, ct_device *out) {
  if (ordinal < 0) {
    ct__error(CT_ERR_RUNTIME, "Device index must not be negative");
    return CT_ERR_RUNTIME;
  }
  *out = (ct_device){CT_CUDA, (int32_t)ordinal};
  return CT_OK;
}

ct_status ct_device_parse(const char *s, ct_device *out) {
  (void)s;
  (void)out;
  ct__error(CT_ERR_NOT_IMPLEMENTED, "ct_device_parse: pending");
  return CT_ERR_NOT_IMPLEMENTED;
}
