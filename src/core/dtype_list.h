/* The one list of dtypes. Every per-dtype fact is a column of this list: the traits table
   (src/core/dtype.c) is generated from it, and so are the switches and loop tables that convert, load,
   store or name elements (src/core/elem.h, src/core/cast.c, src/core/math_bits.c, the reductions' stores in
   src/ops/reduce/red.h) and the kernels' dtype lists and C types (src/kernels/cpu/dtypes.h).
   Adding a dtype starts with a row here (docs/ARCHITECTURE.md: "How to add a dtype").

   CT_DTYPE_LIST(X, A...) calls, in ct_dtype order,
     X(A..., S, T, K, LOAD, STORE, NAME, LEGACY, SCALAR, CPP, TYPEMETA, DIGITS, MAX, SIGNED, ACC, OPMATH,
       COMPLEX, REAL)
   The arguments A... are passed through first (so that a row can expand the list again: cast.c crosses
   it with itself); pass ~ when there are none. The columns:
     S        the enum suffix: CT_##S
     T        the storage C type: bool is a byte (uint8_t, read as nonzero), float16 and bfloat16 their
              bits (uint16_t), complex the ct_complex64 / ct_complex128 structs
     K        how generated code treats it: BOOL, INT, HALF (float16/bfloat16: computed in float and rounded
              once, as c10::Half / c10::BFloat16 do), FLOAT, COMPLEX
     LOAD     T -> its compute value (HALF: the float it stands for), STORE the way back; CT__ID otherwise
     NAME     "float32" (torch.float32); LEGACY "FloatTensor" (torch.FloatTensor); SCALAR ATen's ScalarType
              name ("Float", in "not implemented for 'Float'" messages)
     CPP      the C++ type c10 prints in conversion messages ("value cannot be converted to type int without
              overflow": AT_FORALL_SCALAR_TYPES' spelling)
     TYPEMETA caffe2::TypeMeta's name, which random's bounds checks and the out= dtype checks print
              ("long int", "c10::Half")
     DIGITS   std::numeric_limits<T>::digits (of a complex type's component): mantissa bits with the
              implicit one for floating types, value bits for integers
     MAX      std::numeric_limits<T>::max() as a double (of a complex type's component; int64's is 2^63 as a
              double); the lowest value follows from it (traits' lowest)
     SIGNED   c10::isSignedType
     ACC      at::acc_type<T, is_cuda = false> (torch 1.13 aten/src/ATen/AccumulateType.h, CPU_ACC_TYPE
              rows): floating types accumulate in double (float16/bfloat16 in float), integers in int64,
              bool in bool, complex in complex<double>. See the traits' acc_dtype for where torch uses it.
     OPMATH   at::opmath_type<T>: float16/bfloat16 compute in float, every other type in itself
     COMPLEX  c10::toComplexType (bfloat16 -> ComplexFloat: same range as float; float16's ComplexHalf is no
              ctorch dtype: DTYPE_UNSET; non-floating types have none)
     REAL     c10::toRealValueType: a complex type's component type, any other type itself */
#ifndef CTORCH_CORE_DTYPE_LIST_H
#define CTORCH_CORE_DTYPE_LIST_H

#include "core/half.h"
#include "core/internal.h"

#define CT__ID(x) (x)

/* clang-format off */
#define CT_DTYPE_LIST(X, ...)                                                                                         \
  X(__VA_ARGS__, BOOL,       uint8_t,       BOOL,    CT__ID, CT__ID, "bool",       "BoolTensor",          "Bool",                 \
    "bool",                 "bool",                 1,  1.0,                     0, BOOL,       BOOL,       DTYPE_UNSET, BOOL)       \
  X(__VA_ARGS__, UINT8,      uint8_t,       INT,     CT__ID, CT__ID, "uint8",      "ByteTensor",          "Byte",                 \
    "uint8_t",              "unsigned char",        8,  255.0,                   0, INT64,      UINT8,      DTYPE_UNSET, UINT8)      \
  X(__VA_ARGS__, INT8,       int8_t,        INT,     CT__ID, CT__ID, "int8",       "CharTensor",          "Char",                 \
    "int8_t",               "signed char",          7,  127.0,                   1, INT64,      INT8,       DTYPE_UNSET, INT8)       \
  X(__VA_ARGS__, INT16,      int16_t,       INT,     CT__ID, CT__ID, "int16",      "ShortTensor",         "Short",                \
    "int16_t",              "short int",            15, 32767.0,                 1, INT64,      INT16,      DTYPE_UNSET, INT16)      \
  X(__VA_ARGS__, INT32,      int32_t,       INT,     CT__ID, CT__ID, "int32",      "IntTensor",           "Int",                  \
    "int",                  "int",                  31, 2147483647.0,            1, INT64,      INT32,      DTYPE_UNSET, INT32)      \
  X(__VA_ARGS__, INT64,      int64_t,       INT,     CT__ID, CT__ID, "int64",      "LongTensor",          "Long",                 \
    "int64_t",              "long int",             63, 9223372036854775807.0,   1, INT64,      INT64,      DTYPE_UNSET, INT64)      \
  X(__VA_ARGS__, FLOAT16,    uint16_t,      HALF,    ct__half_to_float, ct__float_to_half, "float16", "HalfTensor", "Half",       \
    "at::Half",             "c10::Half",            11, 65504.0,                 1, FLOAT32,    FLOAT32,    DTYPE_UNSET, FLOAT16)    \
  X(__VA_ARGS__, BFLOAT16,   uint16_t,      HALF,    ct__bfloat16_to_float, ct__float_to_bfloat16, "bfloat16", "BFloat16Tensor", \
    "BFloat16", "at::BFloat16",     "c10::BFloat16",        8,  0x1.fep127,              1, FLOAT32,    FLOAT32,    COMPLEX64,   BFLOAT16)   \
  X(__VA_ARGS__, FLOAT32,    float,         FLOAT,   CT__ID, CT__ID, "float32",    "FloatTensor",         "Float",                \
    "float",                "float",                24, 0x1.fffffep127,          1, FLOAT64,    FLOAT32,    COMPLEX64,   FLOAT32)    \
  X(__VA_ARGS__, FLOAT64,    double,        FLOAT,   CT__ID, CT__ID, "float64",    "DoubleTensor",        "Double",               \
    "double",               "double",               53, 0x1.fffffffffffffp1023,  1, FLOAT64,    FLOAT64,    COMPLEX128,  FLOAT64)    \
  X(__VA_ARGS__, COMPLEX64,  ct_complex64,  COMPLEX, CT__ID, CT__ID, "complex64",  "ComplexFloatTensor",  "ComplexFloat",         \
    "c10::complex<float>",  "c10::complex<float>",  24, 0x1.fffffep127,          1, COMPLEX128, COMPLEX64,  COMPLEX64,   FLOAT32)    \
  X(__VA_ARGS__, COMPLEX128, ct_complex128, COMPLEX, CT__ID, CT__ID, "complex128", "ComplexDoubleTensor", "ComplexDouble",        \
    "c10::complex<double>", "c10::complex<double>", 53, 0x1.fffffffffffffp1023,  1, COMPLEX128, COMPLEX128, COMPLEX128,  FLOAT64)
/* clang-format on */

/* The category of each kind (the traits' category: bool < integer < floating < complex). */
#define CT__KIND_CAT_BOOL CT_CAT_BOOL
#define CT__KIND_CAT_INT CT_CAT_INT
#define CT__KIND_CAT_HALF CT_CAT_FLOAT
#define CT__KIND_CAT_FLOAT CT_CAT_FLOAT
#define CT__KIND_CAT_COMPLEX CT_CAT_COMPLEX

#endif
