/* Helpers shared by the view tests: tensors filled with 0, 1, 2, ... and element reads through
   strides, so a test can check which memory a view sees. */
#ifndef CT_VIEW_TEST_UTIL_H
#define CT_VIEW_TEST_UTIL_H

#include "check.h"
#include "core/internal.h" /* fault injection hooks, storage flags */

/* float32 tensor of the shape holding 0, 1, 2, ... in row-major order. */
static inline ct_tensor *arange_f32(ct_shape shape) {
  ct_tensor *t = ct_empty(shape, NULL);
  float *p = ct_data_ptr(t);
  for (int64_t i = 0; p && i < ct_numel(t); i++) p[i] = (float)i;
  return t;
}

static inline ct_tensor *empty_meta(ct_shape shape) {
  return ct_empty(shape, &(ct_tensor_opts){.device = CT_DEVICE_META});
}

/* The i-th element (row-major over the tensor's shape) of a float32 tensor, read through its strides. */
static inline float elem_f32(const ct_tensor *t, int64_t i) {
  const float *p = ct_data_ptr(t);
  int64_t off = 0;
  for (int64_t d = ct_dim(t) - 1; d >= 0; d--) {
    int64_t s = ct_sizes(t)[d];
    off += (i % s) * ct_strides(t)[d];
    i /= s;
  }
  return p[off];
}

/* Asserts every element of a float32 tensor, in row-major order. */
#define CHECK_VALUES(t, ...)                                                  \
  do {                                                                        \
    const float ct_v_[] = {__VA_ARGS__};                                      \
    int64_t ct_nv_ = (int64_t)(sizeof ct_v_ / sizeof ct_v_[0]);              \
    CHECK_EQ_INT(ct_numel(t), ct_nv_);                                        \
    if (ct_numel(t) == ct_nv_)                                                \
      for (int64_t ct_k_ = 0; ct_k_ < ct_nv_; ct_k_++) CHECK(elem_f32(t, ct_k_) == ct_v_[ct_k_]); \
  } while (0)

/* Asserts sizes, strides and storage offset together. */
#define CHECK_GEOM(t, offset, SIZES, STRIDES) \
  do {                                        \
    CHECK_SHAPE(t, SIZES);                    \
    CHECK_STRIDES(t, STRIDES);                \
    CHECK_EQ_INT(ct_storage_offset(t), offset); \
  } while (0)
#define L(...) __VA_ARGS__

#endif
