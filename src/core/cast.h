/* The casting core: the single place that converts values between dtypes, with PyTorch 1.13's CPU
   semantics (c10::convert / static_cast_with_inter_type on x86), plus the strided N-d copy engine
   built on it. Every op that reads or writes an element of another dtype goes through here. */
#ifndef CTORCH_CORE_CAST_H
#define CTORCH_CORE_CAST_H

#include "core/internal.h"

/* ---- element conversion ---- */

/* double -> integer as x86's cvttsd2si does it (what PyTorch's static_cast compiles to): NaN, +-inf
   and out-of-range values give the minimum of the conversion width. Explicit range checks keep the C
   defined and give the same answer on any host. */
static inline int64_t ct__f64_to_i64(double x) {
  return (x >= -9223372036854775808.0 && x < 9223372036854775808.0) ? (int64_t)x : INT64_MIN;
}
static inline int32_t ct__f64_to_i32(double x) {
  return (x > -2147483649.0 && x < 2147483648.0) ? (int32_t)x : INT32_MIN;
}

/* n elements of dtype st at src become n elements of dtype dt at dst (both contiguous).
   Same dtype copies the bytes. Float -> int follows x86 (NaN, inf and out-of-range give the
   "integer indefinite" INT_MIN of the conversion width); int8/int16 convert through int32 and wrap,
   uint8 through int64 and wraps; -> bool is "nonzero" (NaN too; complex: real part only);
   complex -> real drops the imaginary part; float16/bfloat16 round to nearest even through float
   (so double -> float16 rounds twice, as c10::Half does). dst and src must not overlap unless equal. */
void ct__cast_n(void *dst, ct_dtype dt, const void *src, ct_dtype st, int64_t n);
/* The same with byte strides (any sign, 0 allowed for src). */
void ct__cast_strided(char *dst, int64_t dst_stride, ct_dtype dt, const char *src, int64_t src_stride, ct_dtype st,
                      int64_t n);

/* ---- scalars ---- */

/* The element at p as a Python number: bool, int (integer dtypes), float (floating dtypes) or complex. */
ct_scalar ct__load_scalar(ct_dtype dt, const void *p);
/* Writes v into the element at p, converting from v's natural type (bool, int64, double, complex128)
   with the cast semantics above: no range check (int 1000 into uint8 wraps to 232, 2.7 into int32 is 2). */
void ct__store_scalar(ct_dtype dt, void *p, ct_scalar v);
/* c10's checked conversion (Scalar::to<T>, used by fill_, full, scalar_tensor, item): false, with
   PyTorch's "value cannot be converted to type uint8_t without overflow", when v does not fit dt. */
bool ct__scalar_fits(ct_scalar v, ct_dtype dt);
/* The C++ type name PyTorch prints for a dtype in conversion messages: "uint8_t", "int", "at::Half", ... */
const char *ct__dtype_cpp_name(ct_dtype dt);

/* ---- copying ---- */

/* Tensor.copy_ semantics without autograd: src broadcast to dst's shape, any dtype pair, PyTorch's
   shape, overlap and meta errors. dst is written only when the call succeeds. Copies into a meta
   dst do nothing (as in PyTorch); copies out of a meta src fail. */
ct_status ct__copy_into(ct_tensor *dst, const ct_tensor *src);
/* The device check of an out= form that computes a result and copies it into out (resize_output, then
   copy_): "Attempting to copy from device meta to device cpu, but cross-device copies are not allowed!".
   Such forms run it before resizing out, so that a failed call leaves out as it was. */
bool ct__check_copy_devices(const ct_tensor *dst, const ct_tensor *src);
/* Writes v (converted with ct__store_scalar, no range check) into every element of t; no-op for meta
   tensors. Fails only when it cannot allocate its loop descriptor (rank > 8). */
ct_status ct__fill(ct_tensor *t, ct_scalar v);

#endif
