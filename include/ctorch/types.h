/* Value types shared by the whole API: dtypes, devices, layouts, memory formats, scalars, shapes. */
#ifndef CTORCH_TYPES_H
#define CTORCH_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(_WIN32)
#define CT_API __declspec(dllexport)
#else
#define CT_API __attribute__((visibility("default")))
#endif

typedef struct ct_tensor ct_tensor;
typedef struct ct_storage ct_storage;
typedef struct ct_generator ct_generator;

/* Explicit values: part of the ABI, never renumbered. UNSET (0) in an options struct means
   "PyTorch's default for this call". */
typedef enum ct_dtype {
  CT_DTYPE_UNSET = 0,
  CT_BOOL = 1,
  CT_UINT8 = 2,
  CT_INT8 = 3,
  CT_INT16 = 4,
  CT_INT32 = 5,
  CT_INT64 = 6,
  CT_FLOAT16 = 7,
  CT_BFLOAT16 = 8,
  CT_FLOAT32 = 9,
  CT_FLOAT64 = 10,
  CT_COMPLEX64 = 11,
  CT_COMPLEX128 = 12
} ct_dtype;
#define CT_NUM_DTYPES 12

typedef enum ct_device_type {
  CT_DEVICE_TYPE_UNSET = 0,
  CT_CPU = 1,
  CT_CUDA = 2,
  CT_META = 3
} ct_device_type;

/* index -1 means "no index" (torch.device('cuda')). A zero-initialized ct_device is UNSET. */
typedef struct ct_device {
  ct_device_type type;
  int32_t index;
} ct_device;
#ifndef __cplusplus
#define CT_DEVICE_CPU ((ct_device){CT_CPU, -1})
#define CT_DEVICE_META ((ct_device){CT_META, -1})
#define CT_DEVICE_CUDA(i) ((ct_device){CT_CUDA, (i)})
#else
/* C++ has no compound literals: the same values as temporaries. */
#define CT_DEVICE_CPU (ct_device{CT_CPU, -1})
#define CT_DEVICE_META (ct_device{CT_META, -1})
#define CT_DEVICE_CUDA(i) (ct_device{CT_CUDA, static_cast<int32_t>(i)})
#endif

typedef enum ct_layout {
  CT_LAYOUT_UNSET = 0,
  CT_STRIDED = 1,
  CT_SPARSE_COO = 2,
  CT_SPARSE_CSR = 3,
  CT_SPARSE_CSC = 4,
  CT_SPARSE_BSR = 5,
  CT_SPARSE_BSC = 6,
  CT_JAGGED = 7
} ct_layout;

typedef enum ct_memory_format {
  CT_MEMORY_FORMAT_UNSET = 0,
  CT_CONTIGUOUS_FORMAT = 1,
  CT_CHANNELS_LAST = 2,
  CT_CHANNELS_LAST_3D = 3,
  CT_PRESERVE_FORMAT = 4
} ct_memory_format;

/* A Python number. Kinds follow Python's: bool, int, float, complex. */
typedef enum ct_scalar_kind {
  CT_SCALAR_BOOL = 1,
  CT_SCALAR_INT = 2,
  CT_SCALAR_DOUBLE = 3,
  CT_SCALAR_COMPLEX = 4
} ct_scalar_kind;

typedef struct ct_complex128 { double re, im; } ct_complex128;
typedef struct ct_complex64 { float re, im; } ct_complex64;

typedef struct ct_scalar {
  ct_scalar_kind kind;
  union {
    bool b;
    int64_t i;
    double d;
    ct_complex128 c;
  } v;
} ct_scalar;

CT_API ct_scalar ct_scalar_bool(bool v);
CT_API ct_scalar ct_scalar_int(int64_t v);
CT_API ct_scalar ct_scalar_double(double v);
CT_API ct_scalar ct_scalar_complex(double re, double im);

#define CT_INT(x) ct_scalar_int(x)
#define CT_DOUBLE(x) ct_scalar_double(x)
#define CT_BOOLV(x) ct_scalar_bool(x)
#define CT_COMPLEX(re, im) ct_scalar_complex((re), (im))

/* A shape or a list of dims: a borrowed array and its length. */
typedef struct ct_shape {
  const int64_t *data;
  int64_t ndim;
} ct_shape;
typedef ct_shape ct_dims;

#ifndef __cplusplus
#define CT_SHAPE(...) \
  ((ct_shape){(const int64_t[]){__VA_ARGS__}, (int64_t)(sizeof((int64_t[]){__VA_ARGS__}) / sizeof(int64_t))})
#define CT_DIMS(...) CT_SHAPE(__VA_ARGS__)
#else
} /* extern "C" */
/* C++17 forms of the same conveniences. CT_SHAPE / CT_DIMS make a temporary array holder that converts
   to ct_shape; a temporary lives to the end of the full expression, so it is safe as a call argument
   (ct_view(x, CT_SHAPE(2, 3))) and inside an options temporary (ct_opts below). Keep a named shape as
   `auto s = CT_SHAPE(2, 3);`: `ct_shape s = CT_SHAPE(2, 3);` would point into a destroyed temporary. */
extern "C++" {
template <int64_t N>
struct ct_shape_array {
  int64_t data[N > 0 ? N : 1];
  operator ct_shape() const noexcept { return ct_shape{N > 0 ? data : nullptr, N}; }
};
template <class... Ints>
inline ct_shape_array<static_cast<int64_t>(sizeof...(Ints))> ct_make_shape(Ints... v) noexcept {
  return {{static_cast<int64_t>(v)...}};
}
/* Options structs: C's `&(ct_reduce_opts){.dims = CT_DIMS(0), .keepdim = true}` is
   `ct_opts<ct_reduce_opts>(CT_DIMS(0), true)` in C++17: the fields in declaration order, the rest zero
   (PyTorch's defaults), without -Wextra's missing-initializer warning. The result is a temporary that
   converts to `const ct_reduce_opts *` for the call it is an argument of; it cannot be kept in a variable
   and passed later (its dims could point into a dead CT_DIMS temporary): name a struct and pass &opts. */
template <class T>
struct ct_opts_holder {
  T value;
  operator const T *() const && noexcept { return &value; }
  operator const T *() const & = delete;
};
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
template <class T, class... Fields>
inline ct_opts_holder<T> ct_opts(Fields &&...fields) {
  return ct_opts_holder<T>{T{static_cast<Fields &&>(fields)...}};
}
#pragma GCC diagnostic pop
}
#define CT_SHAPE(...) (ct_make_shape(__VA_ARGS__))
#define CT_DIMS(...) CT_SHAPE(__VA_ARGS__)
extern "C" {
#endif
/* A list of tensors returned by unbind, split, chunk, ...: one block holding the array.
   Outside a scope, ct_tensor_list_release releases every tensor and frees the list; inside one, the
   scope owns the list and its tensors. */
typedef struct ct_tensor_list {
  int64_t n;
  ct_tensor **items;
} ct_tensor_list;

/* A list of tensors an op reads (cat's and stack's inputs, meshgrid's, index_put's indices): a borrowed
   array and its length, as torch's TensorList / Sequence[Tensor]. `CT_TENSORS(a, b, c)` writes one in
   place; `ct_tensors_of(list)` reads a returned ct_tensor_list. A NULL entry makes the call fail (NULL
   result), as a NULL tensor argument does. */
typedef struct ct_tensors {
  const ct_tensor *const *data;
  int64_t n;
} ct_tensors;

static inline ct_tensors ct_tensors_of(const ct_tensor_list *list) {
  ct_tensors r = {0, 0};
  if (list) {
    r.data = (const ct_tensor *const *)list->items;
    r.n = list->n;
  }
  return r;
}

#ifndef __cplusplus
#define CT_TENSORS(...)                                                    \
  ((ct_tensors){(const ct_tensor *const[]){__VA_ARGS__},                   \
                (int64_t)(sizeof((const ct_tensor *[]){__VA_ARGS__}) / sizeof(const ct_tensor *))})
#else
} /* extern "C" */
extern "C++" {
template <int64_t N>
struct ct_tensors_array {
  const ct_tensor *data[N > 0 ? N : 1];
  operator ct_tensors() const noexcept { return ct_tensors{N > 0 ? data : nullptr, N}; }
};
template <class... Ts>
inline ct_tensors_array<static_cast<int64_t>(sizeof...(Ts))> ct_make_tensors(Ts... v) noexcept {
  return {{static_cast<const ct_tensor *>(v)...}};
}
}
#define CT_TENSORS(...) (ct_make_tensors(__VA_ARGS__))
extern "C" {
#endif

/* "No end" for slice-like arguments (Python's None / omitted end). */
#define CT_END INT64_MAX

/* The shape of a 0-dim tensor; also "no dims given". */
#ifndef __cplusplus
#define CT_SHAPE_SCALAR ((ct_shape){NULL, 0})
#else
#define CT_SHAPE_SCALAR (ct_shape{nullptr, 0})
#endif

#ifdef __cplusplus
}
#endif
#endif
