/* The dtypes as C types for generated kernels: X(ENUM, T, CT, LOAD, STORE) where T is the storage type,
   CT the compute type (float16/bfloat16 compute in float and round once, as PyTorch's CPU does),
   LOAD converts T to CT and STORE CT to T. Lists by category so an op names what it supports. */
#ifndef CTORCH_KERNELS_DTYPES_H
#define CTORCH_KERNELS_DTYPES_H

#include <complex.h>
#include <stdbool.h>
#include <stdint.h>

#include "core/dtype_list.h"
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

/* The lists come from the dtype list (core/dtype_list.h), one expansion each, filtered by kind. A kernel
   stores bool as C bool and loads it from its byte through CT_LDB, computes float16/bfloat16 in float and
   complex numbers as C's _Complex types (the list's storage structs have the same layout). */
#define CT__KT_BOOL(T)       bool
#define CT__KT_INT(T)        T
#define CT__KT_HALF(T)       T
#define CT__KT_FLOAT(T)      T
#define CT__KT_COMPLEX(T)    CT__KT_##T
#define CT__KT_ct_complex64  ct_c64
#define CT__KT_ct_complex128 ct_c128
#define CT__KCT_BOOL(T)      bool
#define CT__KCT_INT(T)       T
#define CT__KCT_HALF(T)      float
#define CT__KCT_FLOAT(T)     T
#define CT__KCT_COMPLEX(T)   CT__KT_##T
/* One row as X(ENUM, T, CT, LOAD, STORE) when its kind is selected: B I H F C are 1 for the kinds
   bool, integer, float16/bfloat16, float/double and complex that the list takes. */
#define CT__KDT_IF_0(X, ...)
#define CT__KDT_IF_1(X, ...)              X(__VA_ARGS__)
#define CT__KDT_ON_BOOL(B, I, H, F, C)    CT__KDT_IF_##B
#define CT__KDT_ON_INT(B, I, H, F, C)     CT__KDT_IF_##I
#define CT__KDT_ON_HALF(B, I, H, F, C)    CT__KDT_IF_##H
#define CT__KDT_ON_FLOAT(B, I, H, F, C)   CT__KDT_IF_##F
#define CT__KDT_ON_COMPLEX(B, I, H, F, C) CT__KDT_IF_##C
#define CT__KDT_ROW(X, B, I, H, F, C, S, T, K, LOAD, STORE, ...) \
  CT__KDT_ON_##K(B, I, H, F, C)(X, CT_##S, CT__KT_##K(T), CT__KCT_##K(T), LOAD, STORE)

#define CT_DT_BOOL(X)          CT_DTYPE_LIST(CT__KDT_ROW, X, 1, 0, 0, 0, 0)
#define CT_DT_INTEGRAL(X)      CT_DTYPE_LIST(CT__KDT_ROW, X, 0, 1, 0, 0, 0)
#define CT_DT_REDUCED_FLOAT(X) CT_DTYPE_LIST(CT__KDT_ROW, X, 0, 0, 1, 0, 0)
#define CT_DT_FLOAT(X)         CT_DTYPE_LIST(CT__KDT_ROW, X, 0, 0, 0, 1, 0)
#define CT_DT_COMPLEX(X)       CT_DTYPE_LIST(CT__KDT_ROW, X, 0, 0, 0, 0, 1)
/* Common unions of categories. */
#define CT_DT_FLOATING(X)    CT_DTYPE_LIST(CT__KDT_ROW, X, 0, 0, 1, 1, 0)
#define CT_DT_ALL_NUMERIC(X) CT_DTYPE_LIST(CT__KDT_ROW, X, 0, 1, 1, 1, 1)
#define CT_DT_ALL(X)         CT_DTYPE_LIST(CT__KDT_ROW, X, 1, 1, 1, 1, 1)

/* The C type a kernel computes each dtype in, ct_kt_CT_FLOAT16 (float), and at::acc_type<T, false>'s,
   CT_ACC_T(CT_FLOAT32) (double: the traits' acc_dtype as a C type). */
#define CT__KT_TYPEDEF(A, S, T, K, ...) typedef CT__KCT_##K(T) ct_kt_CT_##S;
CT_DTYPE_LIST(CT__KT_TYPEDEF, ~)
#define CT__KACC_TYPEDEF(A, S, T, K, LD, ST, NAME, LEG, SCA, CPP, TM, DIG, MAX, SGN, ACC, ...) \
  typedef ct_kt_CT_##ACC ct_acc_t_CT_##S;
CT_DTYPE_LIST(CT__KACC_TYPEDEF, ~)
#define CT_ACC_T(ENUM) ct_acc_t_##ENUM

#endif
