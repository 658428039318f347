/* The dtypes as C types for generated kernels: X(ENUM, T, CT, LOAD, STORE) where T is the storage type,
   CT the compute type (float16/bfloat16 compute in float and round once, as PyTorch's CPU does),
   LOAD converts T to CT and STORE CT to T. Lists by category so an op names what it supports. */
#ifndef CTORCH_KERNELS_DTYPES_H
#define CTORCH_KERNELS_DTYPES_H

#include <complex.h>
#include <stdbool.h>
#include <stdint.h>

#include "core/half.h"

/* glibc's <complex.h> defines CMPLX and CMPLXF for GCC >= 4.7 only; clang (which reports itself as GCC
   4.2) has the same builtin. */
#if defined(__clang__) && !defined(CMPLX)
#define CMPLX(x, y) __builtin_complex((double)(x), (double)(y))
#define CMPLXF(x, y) __builtin_complex((float)(x), (float)(y))
#endif
/* Keeps GCC's vectorizer away from a function whose vectorized form would round differently (GCC fuses
   vector mul + addsub into vfmsubadd even without contraction). clang has no such attribute, and with
   contraction off (CMakeLists.txt) its vectorizer does not fuse. */
#if defined(__GNUC__) && !defined(__clang__)
#define CT_NO_TREE_VECTORIZE __attribute__((optimize("no-tree-vectorize")))
#else
#define CT_NO_TREE_VECTORIZE
#endif

#define CT_ID(x) (x)
/* A bool element read as its byte and normalised: any nonzero byte is true, as torch's loops load bool
   (c10::load<bool>). A tensor viewed as bool can hold other bytes than 0 and 1 (a uint8 tensor's view),
   and reading such a byte as C bool is undefined behaviour. Kernels with bool inputs take uint8_t
   storage and load through CT_LDB. */
#define CT_LDB(x) ((uint8_t)(x) != 0)

typedef float _Complex ct_c64;
typedef double _Complex ct_c128;

#define CT_DT_BOOL(X) X(CT_BOOL, bool, bool, CT_ID, CT_ID)
#define CT_DT_INTEGRAL(X)                     \
  X(CT_UINT8, uint8_t, uint8_t, CT_ID, CT_ID) \
  X(CT_INT8, int8_t, int8_t, CT_ID, CT_ID)    \
  X(CT_INT16, int16_t, int16_t, CT_ID, CT_ID) \
  X(CT_INT32, int32_t, int32_t, CT_ID, CT_ID) \
  X(CT_INT64, int64_t, int64_t, CT_ID, CT_ID)
#define CT_DT_REDUCED_FLOAT(X)                                              \
  X(CT_FLOAT16, uint16_t, float, ct__half_to_float, ct__float_to_half)      \
  X(CT_BFLOAT16, uint16_t, float, ct__bfloat16_to_float, ct__float_to_bfloat16)
#define CT_DT_FLOAT(X)                     \
  X(CT_FLOAT32, float, float, CT_ID, CT_ID) \
  X(CT_FLOAT64, double, double, CT_ID, CT_ID)
#define CT_DT_COMPLEX(X)                          \
  X(CT_COMPLEX64, ct_c64, ct_c64, CT_ID, CT_ID) \
  X(CT_COMPLEX128, ct_c128, ct_c128, CT_ID, CT_ID)

/* Common unions of categories. */
#define CT_DT_FLOATING(X) CT_DT_REDUCED_FLOAT(X) CT_DT_FLOAT(X)
#define CT_DT_ALL_NUMERIC(X) CT_DT_INTEGRAL(X) CT_DT_FLOATING(X) CT_DT_COMPLEX(X)
#define CT_DT_ALL(X) CT_DT_BOOL(X) CT_DT_ALL_NUMERIC(X)

#endif
