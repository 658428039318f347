/* torch's scalar complex formulas (c10::complex's operator* and operator/ as its kernels use them),
   written as they read after inlining. torch compat (kernels/cpu/torch_compat.h): PyTorch's AVX2 build
   is GCC with -ffp-contract=fast, which fused the first product of each a * b +- c * d (a * b, or
   c * c of a denominator) with the sum: CT_COMPAT_FMA spells out those contractions (this file once
   asked GCC for them with a `#pragma GCC optimize`, which clang ignores). sgn's sums add an exact zero
   product, so contracting them changes no bit. Off, every product and sum rounds once. (Which NaN a NaN
   result is, is not reproduced: docs/ARCHITECTURE.md.) */
#include <math.h>

#include "ops/pointwise/elem_internal.h"

#define CSC_FMA_float  CT_COMPAT_FMAF
#define CSC_FMA_double CT_COMPAT_FMA

/* z * z: (a*a - b*b, a*b + b*a) */
#define DEF_SQ(name, T)                        \
  CT_KERNEL_CLONES void name(T a, T b, T *o) { \
    o[0] = CSC_FMA_##T(a, a, -(b * b));        \
    o[1] = CSC_FMA_##T(a, b, b * a);           \
  }
DEF_SQ(ct__elem_csquare_f, float)
DEF_SQ(ct__elem_csquare_d, double)

/* 1 / z: (1, 0) / (c, d) */
#define DEF_RECIP(name, T)                     \
  CT_KERNEL_CLONES void name(T c, T d, T *o) { \
    const T a = 1, b = 0;                      \
    T den = CSC_FMA_##T(c, c, d * d);          \
    o[0] = (a * c + b * d) / den;              \
    o[1] = (b * c - a * d) / den;              \
  }
DEF_RECIP(ct__elem_crecip_f, float)
DEF_RECIP(ct__elem_crecip_d, double)

/* sgn: 0 for 0, else z / (|z|, 0) with |z| = std::abs (hypot) */
#define DEF_SGN(name, T, HYPOT)                                \
  CT_KERNEL_CLONES void name(T a, T b, T *o) {                 \
    if (a == 0 && b == 0) {                                    \
      o[0] = 0;                                                \
      o[1] = 0;                                                \
      return;                                                  \
    }                                                          \
    const T c = HYPOT(a, b), d = 0;                            \
    T den = c * c + d * d;                                     \
    o[0] = (a * c + b * d) / den;                              \
    o[1] = (b * c - a * d) / den;                              \
  }
DEF_SGN(ct__elem_csgn_f, float, hypotf)
DEF_SGN(ct__elem_csgn_d, double, hypot)
