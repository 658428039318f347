/* torch.device(type, index): the type string parsed as torch.device(str) does, then the explicit index
   (THPDevice_pynew's checks, in its order). */
#include "core/internal.h"

#define MAX_DEVICE_INDEX 127

ct_status ct_device_make(const char *type, int64_t index, ct_device *out) {
  if (!type) return ct__null_arg(1, "type");
  if (!out) return ct__null_arg(3, "out");
  ct_device d;
  ct_status st = ct_device_parse(type, &d);
  if (st != CT_OK) return st;
  if (d.index >= 0) {
    ct__error(CT_ERR_RUNTIME, "type (string) must not include an index because index was passed explicitly: %s", type);
    return CT_ERR_RUNTIME;
  }
  if (index < 0) {
    ct__error(CT_ERR_RUNTIME, "Device index must not be negative");
    return CT_ERR_RUNTIME;
  }
  /* torch keeps the low bits of an index that does not fit its int8 DeviceIndex (cuda 200 becomes
     index 65480): refused here, as ct_device_parse and ct_device_from_ordinal refuse it. */
  if (index > MAX_DEVICE_INDEX) {
    ct__error(CT_ERR_RUNTIME, "Device index must be at most %d (DeviceIndex is int8), got %lld", MAX_DEVICE_INDEX,
              (long long)index);
    return CT_ERR_RUNTIME;
  }
  *out = (ct_device){d.type, (int32_t)index};
  return CT_OK;
}
