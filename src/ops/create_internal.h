/* Shared by the creation ops. */
#ifndef CTORCH_OPS_CREATE_INTERNAL_H
#define CTORCH_OPS_CREATE_INTERNAL_H

#include "core/internal.h"

/* Factory options with defaults filled in. */
typedef struct ct_resolved_opts {
  ct_dtype dtype;
  ct_device device;
  ct_memory_format memory_format;
  bool requires_grad;
} ct_resolved_opts;

/* Fills defaults (dtype: default_dtype when UNSET, device: CPU) and validates. */
bool ct__resolve_opts(const ct_tensor_opts *opts, ct_dtype default_dtype, ct_resolved_opts *out);
bool ct__format_strides(int64_t ndim, const int64_t *sizes, ct_memory_format fmt, int64_t *strides);
/* An uninitialized tensor honouring dtype, device, memory format and requires_grad; not scope-registered. */
ct_tensor *ct__empty_with(ct_shape shape, const ct_resolved_opts *o);

#endif
