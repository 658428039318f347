/* Tensor.size(dim) / stride(dim) as status calls: the value cannot be mistaken for the error (-1) that
   ct_size / ct_stride return. */
#include "core/internal.h"

/* Sizes and strides are never negative, so ct_size / ct_stride answer -1 only for a failure. */
static ct_status query(int64_t (*fn)(const ct_tensor *, int64_t), const ct_tensor *t, int64_t dim, int64_t *out) {
  if (!t) return ct__null_arg(1, "input");
  if (!out) return ct__null_arg(3, "out");
  int64_t v = fn(t, dim);
  if (v < 0) return ct_last_error();
  *out = v;
  return CT_OK;
}

ct_status ct_size_at(const ct_tensor *t, int64_t dim, int64_t *out) { return query(ct_size, t, dim, out); }
ct_status ct_stride_at(const ct_tensor *t, int64_t dim, int64_t *out) { return query(ct_stride, t, dim, out); }
