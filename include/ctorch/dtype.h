/* dtype, device, layout and memory-format names and properties, all answered from one traits table. */
#ifndef CTORCH_DTYPE_H
#define CTORCH_DTYPE_H

#include "error.h"
#include "types.h"

#ifdef __cplusplus
extern "C" {
#endif

CT_API size_t ct_dtype_itemsize(ct_dtype dt);
CT_API bool ct_dtype_is_floating_point(ct_dtype dt);
CT_API bool ct_dtype_is_complex(ct_dtype dt);
CT_API bool ct_dtype_is_signed(ct_dtype dt);
/* "torch.float32" */
CT_API const char *ct_dtype_name(ct_dtype dt);
/* "torch.FloatTensor" */
CT_API const char *ct_dtype_legacy_type_name(ct_dtype dt);
/* ATen's scalar type name used in messages: "Float", "Long", "ComplexDouble", "Half", ... */
CT_API const char *ct_dtype_scalar_name(ct_dtype dt);
/* Parses "float32", "torch.float32", and PyTorch's aliases ("float", "double", "half", "long", ...). */
CT_API ct_status ct_dtype_parse(const char *name, ct_dtype *out);
/* The complex dtype of a floating one (float32 -> complex64) and the real dtype of a complex one. */
CT_API ct_dtype ct_dtype_to_complex(ct_dtype dt);
CT_API ct_dtype ct_dtype_to_real(ct_dtype dt);

/* torch.promote_types: the smallest dtype both promote to (PyTorch's table). */
CT_API ct_dtype ct_promote_types(ct_dtype a, ct_dtype b);
/* torch.can_cast: no complex -> real, no floating -> integral, nothing non-bool -> bool. */
CT_API bool ct_can_cast(ct_dtype from, ct_dtype to);
/* torch.result_type(a, b): a Python number is passed as a wrapped-number tensor (ct_wrapped_scalar). */
CT_API ct_status ct_result_type(const ct_tensor *a, const ct_tensor *b, ct_dtype *out);

/* torch.get_default_dtype / set_default_dtype: float32 or float64 only (process-wide). */
CT_API ct_dtype ct_get_default_dtype(void);
CT_API ct_status ct_set_default_dtype(ct_dtype dt);

/* Devices. Parse "cpu", "cuda", "cuda:1", "meta" with PyTorch's errors for bad strings. */
CT_API ct_status ct_device_parse(const char *s, ct_device *out);
/* The legacy bare ordinal: torch.device(1) is cuda:1. Negative ordinals are an error. */
CT_API ct_status ct_device_from_ordinal(int64_t ordinal, ct_device *out);
/* str(device): "cuda:1", "cpu". Writes at most n bytes (NUL included); returns the full length. */
CT_API int ct_device_str(ct_device d, char *buf, size_t n);
/* repr(device): "device(type='cuda', index=0)". */
CT_API int ct_device_repr(ct_device d, char *buf, size_t n);
CT_API bool ct_device_equal(ct_device a, ct_device b);
/* torch.device(type, index): type a device string without an index ("cuda"), index >= 0, with torch's
   errors in its order ("type (string) must not include an index because index was passed explicitly:
   cuda:1", "Device index must not be negative"); an index above 127 (torch keeps its low bits) is
   refused. torch.device(type) with no index is ct_device_parse. */
CT_API ct_status ct_device_make(const char *type, int64_t index, ct_device *out);
/* Whether a CUDA backend is compiled in and a device is present. */
CT_API bool ct_cuda_is_available(void);

/* "torch.strided", "torch.sparse_coo", ..., "torch.jagged" */
CT_API const char *ct_layout_name(ct_layout l);
/* "torch.contiguous_format", "torch.channels_last", ... */
CT_API const char *ct_memory_format_name(ct_memory_format f);

#ifdef __cplusplus
}
#endif
#endif
