/* TEMPORARY, views branch only: a minimal ct_clone so reshape's copy path links and runs here.
   The real ct_clone comes from the conversion branch; delete this file when the branches merge.
   Same dtype, contiguous result, any input strides; meta tensors get a meta result with no data. */
#include "core/internal.h"

ct_tensor *ct_clone(const ct_tensor *t, ct_memory_format fmt) {
  (void)fmt; /* always contiguous: the only form reshape asks for */
  if (!t) return NULL;
  ct_tensor *c = ct__empty(t->ndim, t->sizes, (ct_dtype)t->dtype, ct__tdevice(t));
  if (!c) return NULL;
  c->flags = (uint8_t)(t->flags & CT_TENSOR_REQUIRES_GRAD);
  const char *src = ct__tdata(t);
  char *dst = ct__tdata(c);
  if (t->numel == 0 || !src || !dst) return ct__own(c);
  /* Odometer over t's index space, copying one element at a time in row-major order. */
  size_t isz = ct__itemsize((ct_dtype)t->dtype);
  int64_t n = t->ndim;
  int64_t *idx = ct__calloc((size_t)(n ? n : 1), sizeof(int64_t));
  if (!idx) {
    ct_release(c);
    return NULL;
  }
  int64_t off = 0;
  for (int64_t i = 0; i < t->numel; i++) {
    memcpy(dst + (size_t)i * isz, src + off * (int64_t)isz, isz);
    for (int64_t d = n - 1; d >= 0; d--) {
      if (++idx[d] < t->sizes[d]) {
        off += t->strides[d];
        break;
      }
      off -= (idx[d] - 1) * t->strides[d];
      idx[d] = 0;
    }
  }
  ct__free(idx);
  return ct__own(c);
}
