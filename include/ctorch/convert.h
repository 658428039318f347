/* Conversion and copying: to, type casts, contiguous, clone, copy_, item, element access, export, equal. */
#ifndef CTORCH_CONVERT_H
#define CTORCH_CONVERT_H

#include "args.h"
#include "error.h"
#include "types.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ct_to_opts {
  ct_dtype dtype;                 /* UNSET: keep */
  ct_device device;               /* UNSET: keep */
  ct_memory_format memory_format; /* UNSET: preserve */
  bool copy;                      /* always return a new tensor */
  bool non_blocking;
} ct_to_opts;

/* Tensor.to: returns t itself (a new reference to the same handle) when nothing changes and copy is false. */
CT_API ct_tensor *ct_to(const ct_tensor *t, const ct_to_opts *opts);
CT_API ct_tensor *ct_to_dtype(const ct_tensor *t, ct_dtype dtype);
CT_API ct_tensor *ct_type_as(const ct_tensor *t, const ct_tensor *other);
CT_API ct_tensor *ct_float(const ct_tensor *t);
CT_API ct_tensor *ct_double(const ct_tensor *t);
CT_API ct_tensor *ct_half(const ct_tensor *t);
CT_API ct_tensor *ct_bfloat16(const ct_tensor *t);
CT_API ct_tensor *ct_int(const ct_tensor *t);
CT_API ct_tensor *ct_long(const ct_tensor *t);
CT_API ct_tensor *ct_short(const ct_tensor *t);
CT_API ct_tensor *ct_char(const ct_tensor *t);
CT_API ct_tensor *ct_byte(const ct_tensor *t);
CT_API ct_tensor *ct_bool(const ct_tensor *t);
/* Tensor.to(other): other's dtype and device, memory format preserved; t itself when nothing changes. */
CT_API ct_tensor *ct_to_other(const ct_tensor *t, const ct_tensor *other);
/* Tensor.cpu(): t itself for a CPU tensor, else a copy on the CPU (a meta tensor has no data to copy). */
CT_API ct_tensor *ct_cpu(const ct_tensor *t);

/* Tensor.contiguous(memory_format): t itself when already so. UNSET means contiguous_format. */
CT_API ct_tensor *ct_contiguous(const ct_tensor *t, ct_memory_format fmt);
/* torch.clone(memory_format): UNSET means preserve. */
CT_API ct_tensor *ct_clone(const ct_tensor *t, ct_memory_format fmt);
/* Tensor.copy_(src): src broadcast to self's shape, any dtype, cast with PyTorch's CPU semantics. */
CT_API ct_status ct_copy_(ct_tensor *self, const ct_tensor *src);
/* Tensor.fill_(value) / zero_(): every element, any strides; torch's refusals (a leaf that requires
   grad, a value that does not fit the dtype: "value cannot be converted to type int8_t without
   overflow"; meta tensors skip the value check as torch's do). On failure self is unchanged. */
CT_API ct_status ct_fill_(ct_tensor *self, ct_scalar value);
CT_API ct_status ct_zero_(ct_tensor *self);

/* Tensor.item(): one-element tensors only. The scalar's kind follows the dtype (bool, int, float, complex). */
CT_API ct_status ct_item(const ct_tensor *t, ct_scalar *out);
CT_API ct_status ct_item_double(const ct_tensor *t, double *out);
CT_API ct_status ct_item_int64(const ct_tensor *t, int64_t *out);
CT_API ct_status ct_item_bool(const ct_tensor *t, bool *out);
CT_API ct_status ct_item_complex(const ct_tensor *t, ct_complex128 *out);
/* t[index] for a full index (ndim entries, negative allowed): read or write one element. */
CT_API ct_status ct_get_item(const ct_tensor *t, const int64_t *index, ct_scalar *out);
CT_API ct_status ct_set_item(ct_tensor *t, const int64_t *index, ct_scalar value);
/* Copies every element, in row-major order of t's shape, into buf as `dtype` elements (the C form of
   tolist() / numpy()). buf_bytes must be at least numel * itemsize(dtype). */
CT_API ct_status ct_copy_to_buffer(const ct_tensor *t, void *buf, ct_dtype dtype, size_t buf_bytes);
/* torch.equal: same shape and same values. */
CT_API ct_status ct_equal(const ct_tensor *a, const ct_tensor *b, bool *out);

/* C: each function above with options is also a macro of its name that checks its arguments (args.h). */
#if !defined(__cplusplus) && !defined(CT_BUILDING_LIBRARY)
#define ct_to(...) CT__CHECKED(2, CT__CK_ct_to, ct_to, __VA_ARGS__)
#define CT__CK_ct_to(t, o) ct_to(CT__T(t), CT__OPTS(ct_to_opts, o))
#endif

#ifdef __cplusplus
}
#endif
#endif
