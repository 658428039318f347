/* Devices: parsing and formatting with PyTorch's rules (c10/core/Device.cpp). */
#include <stdio.h>

#include "core/internal.h"

/* c10::DeviceIndex is int8_t: larger indices do not fit. */
#define MAX_DEVICE_INDEX 127

bool ct_cuda_is_available(void) { return false; }

bool ct_device_equal(ct_device a, ct_device b) { return a.type == b.type && a.index == b.index; }

static const char *device_type_name(ct_device_type t) {
  switch (t) {
    case CT_CUDA: return "cuda";
    case CT_META: return "meta";
    default: return "cpu";
  }
}

/* snprintf's contract: buf may be NULL only when n is 0 (a length query). */
static bool check_buf(const char *fn, const char *buf, size_t n) {
  if (buf || n == 0) return true;
  ct__error(CT_ERR_VALUE, "%s: buf is NULL but n is %zu", fn, n);
  return false;
}

int ct_device_str(ct_device d, char *buf, size_t n) {
  if (!check_buf("ct_device_str", buf, n)) return -1;
  if (d.index >= 0) return snprintf(buf, n, "%s:%d", device_type_name(d.type), (int)d.index);
  return snprintf(buf, n, "%s", device_type_name(d.type));
}

int ct_device_repr(ct_device d, char *buf, size_t n) {
  if (!check_buf("ct_device_repr", buf, n)) return -1;
  if (d.index >= 0) return snprintf(buf, n, "device(type='%s', index=%d)", device_type_name(d.type), (int)d.index);
  return snprintf(buf, n, "device(type='%s')", device_type_name(d.type));
}

ct_status ct_device_from_ordinal(int64_t ordinal, ct_device *out) {
  if (ordinal < 0) {
    ct__error(CT_ERR_RUNTIME, "Device index must not be negative");
    return CT_ERR_RUNTIME;
  }
  /* PyTorch silently wraps an ordinal above 127 into its int8 DeviceIndex; we refuse instead. */
  if (ordinal > MAX_DEVICE_INDEX) {
    ct__error(CT_ERR_RUNTIME, "Device index must be at most %d (DeviceIndex is int8), got %lld", MAX_DEVICE_INDEX,
              (long long)ordinal);
    return CT_ERR_RUNTIME;
  }
  if (!out) {
    ct__error(CT_ERR_VALUE, "ct_device_from_ordinal: out is NULL");
    return CT_ERR_VALUE;
  }
  *out = (ct_device){CT_CUDA, (int32_t)ordinal};
  return CT_OK;
}

/* Every device type PyTorch 1.13 knows, in the order of its error message; `type` is UNSET for the
   ones ctorch does not implement. */
static const struct {
  const char *name;
  ct_device_type type;
} known_types[] = {
    {"cpu", CT_CPU},  {"cuda", CT_CUDA}, {"ipu", 0},    {"xpu", 0},  {"mkldnn", 0},        {"opengl", 0},
    {"opencl", 0},    {"ideep", 0},      {"hip", 0},    {"ve", 0},   {"fpga", 0},          {"ort", 0},
    {"xla", 0},       {"lazy", 0},       {"vulkan", 0}, {"mps", 0},  {"meta", CT_META},    {"hpu", 0},
    {"privateuseone", 0},
};
#define NUM_KNOWN_TYPES (sizeof known_types / sizeof known_types[0])

static bool is_name_char(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
static bool is_digit(char c) { return c >= '0' && c <= '9'; }

/* Matches PyTorch's grammar ([a-zA-Z_]+)(?::([1-9][0-9]*|0))? exactly: no spaces, no sign, no
   leading zeros. Sets the name length and the index text (NULL when absent). */
static bool split_device_string(const char *s, size_t *name_len, const char **index) {
  size_t i = 0;
  while (is_name_char(s[i])) i++;
  *name_len = i;
  *index = NULL;
  if (i == 0) return false;
  if (s[i] == '\0') return true;
  if (s[i] != ':') return false;
  const char *d = s + i + 1;
  if (!is_digit(d[0])) return false;
  size_t k = 1;
  while (is_digit(d[k])) k++;
  if (d[k] != '\0' || (d[0] == '0' && k > 1)) return false;
  *index = d;
  return true;
}

ct_status ct_device_parse(const char *s, ct_device *out) {
  if (!s || !out) {
    ct__error(CT_ERR_VALUE, "ct_device_parse: NULL argument");
    return CT_ERR_VALUE;
  }
  if (s[0] == '\0') {
    ct__error(CT_ERR_RUNTIME, "Device string must not be empty");
    return CT_ERR_RUNTIME;
  }
  size_t name_len;
  const char *index_text;
  if (!split_device_string(s, &name_len, &index_text)) {
    ct__error(CT_ERR_RUNTIME, "Invalid device string: '%s'", s);
    return CT_ERR_RUNTIME;
  }
  /* PyTorch parses the index (std::stoi: it must fit an int) before it looks at the type name. */
  long long index = -1;
  if (index_text) {
    index = 0;
    for (const char *p = index_text; *p; p++) {
      index = index * 10 + (*p - '0');
      if (index > 2147483647LL) {
        ct__error(CT_ERR_RUNTIME, "Could not parse device index '%s' in device string '%s'", index_text, s);
        return CT_ERR_RUNTIME;
      }
    }
  }
  size_t k = 0;
  while (k < NUM_KNOWN_TYPES && !(strlen(known_types[k].name) == name_len && strncmp(known_types[k].name, s, name_len) == 0))
    k++;
  if (k == NUM_KNOWN_TYPES) {
    ct__error(CT_ERR_RUNTIME,
              "Expected one of cpu, cuda, ipu, xpu, mkldnn, opengl, opencl, ideep, hip, ve, fpga, ort, xla, lazy, "
              "vulkan, mps, meta, hpu, privateuseone device type at start of device string: %.*s",
              (int)name_len, s);
    return CT_ERR_RUNTIME;
  }
  if (known_types[k].type == CT_DEVICE_TYPE_UNSET) {
    ct__error(CT_ERR_NOT_IMPLEMENTED, "ctorch does not support the '%s' device type (supported: cpu, cuda, meta)",
              known_types[k].name);
    return CT_ERR_NOT_IMPLEMENTED;
  }
  /* PyTorch wraps an index above 127 into its int8 DeviceIndex (cuda:255 becomes cuda); we refuse. */
  if (index > MAX_DEVICE_INDEX) {
    ct__error(CT_ERR_RUNTIME, "Device index must be at most %d (DeviceIndex is int8), got %lld in device string '%s'",
              MAX_DEVICE_INDEX, index, s);
    return CT_ERR_RUNTIME;
  }
  *out = (ct_device){known_types[k].type, (int32_t)index};
  return CT_OK;
}
