/* torch's scalar complex formulas (c10::complex's operator* and operator/ as its kernels use them),
   written as they read after inlining and compiled the way PyTorch compiled them: GCC contracting
   a * b + c into FMA (-ffp-contract=fast, GNU C++'s default) on the AVX2/FMA build. The contraction
   decides the last bit, so these functions live apart from the vector-formula loops, which must not be
   contracted. (Which NaN a NaN result is, is not reproduced: docs/ARCHITECTURE.md.) */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("O2", "fp-contract=fast", "no-math-errno") /* contracted in Debug builds too */
#endif

#include <math.h>

#include "ops/pointwise/elem_internal.h"

/* z * z: (a*a - b*b, a*b + b*a) */
#define DEF_SQ(name, T)                                        \
  CT_KERNEL_CLONES void name(T a, T b, T *o) {                 \
    o[0] = a * a - b * b;                                      \
    o[1] = a * b + b * a;                                      \
  }
DEF_SQ(ct__elem_csquare_f, float)
DEF_SQ(ct__elem_csquare_d, double)

/* 1 / z: (1, 0) / (c, d) */
#define DEF_RECIP(name, T)                                     \
  CT_KERNEL_CLONES void name(T c, T d, T *o) {                 \
    const T a = 1, b = 0;                                      \
    T den = c * c + d * d;                                     \
    o[0] = (a * c + b * d) / den;                              \
    o[1] = (b * c - a * d) / den;                              \
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
