/* Complex multiplication, division and addition in the two forms torch 1.13's AVX2 build computes them
   (kernels/cpu/torch_compat.h): c10::complex's scalar operators, whose products GCC fuses (cmul_s, cdiv_s:
   FMA is CT_COMPAT_FMA(F), so with the switch off one rounding per operation), and Vectorized<complex>'s
   (cmul_v, cdiv_v: separately rounded products combined by hsub / hadd). The kernels that reproduce torch's
   vector / scalar split of a row pick one per element (ternary_lerp.c's addcmul / addcdiv, addr). */
#ifndef CTORCH_KERNELS_CPLX_FORMS_H
#define CTORCH_KERNELS_CPLX_FORMS_H

#include "kernels/cpu/dtypes.h"
#include "kernels/cpu/torch_compat.h"

#define CT__DEF_CX(SUF, T, R, FMA)                                                                       \
  static inline T cmul_s_##SUF(T x, T y) { /* c10::complex operator*, products fused */                  \
    R a = creal(x), b = cimag(x), c = creal(y), d = cimag(y);                                            \
    R bd = b * d, bc = b * c;                                                                            \
    return CMPLX_##SUF(FMA(a, c, -bd), FMA(a, d, bc));                                                   \
  }                                                                                                      \
  static inline T cmul_v_##SUF(T x, T y) { /* Vectorized: mul, then hsub */                              \
    R a = creal(x), b = cimag(x), c = creal(y), d = cimag(y);                                            \
    R ac = a * c, bd = b * d, ad = a * d, bc = b * c;                                                    \
    return CMPLX_##SUF(ac - bd, ad + bc);                                                                \
  }                                                                                                      \
  static inline T cdiv_s_##SUF(T x, T y) { /* c10::complex operator/ (1.13), products fused */           \
    R a = creal(x), b = cimag(x), c = creal(y), d = cimag(y);                                            \
    R dd = d * d, bd = b * d, ad = a * d;                                                                \
    R den = FMA(c, c, dd);                                                                               \
    return CMPLX_##SUF(FMA(a, c, bd) / den, FMA(b, c, -ad) / den);                                       \
  }                                                                                                      \
  static inline T cdiv_v_##SUF(T x, T y) { /* Vectorized: mul, hadd, div by |y|^2 */                     \
    R a = creal(x), b = cimag(x), c = creal(y), d = cimag(y);                                            \
    R ac = a * c, bd = b * d, mad = a * -d, bc = b * c, cc = c * c, dd = d * d;                          \
    R den = cc + dd;                                                                                     \
    return CMPLX_##SUF((ac + bd) / den, (mad + bc) / den);                                               \
  }                                                                                                      \
  static inline T cadd_##SUF(T x, T y) { return CMPLX_##SUF(creal(x) + creal(y), cimag(x) + cimag(y)); } \
  static inline T csub_##SUF(T x, T y) { return CMPLX_##SUF(creal(x) - creal(y), cimag(x) - cimag(y)); }
#define CMPLX_c64  CMPLXF
#define CMPLX_c128 CMPLX
CT__DEF_CX(c64, ct_c64, float, CT_COMPAT_FMAF)
CT__DEF_CX(c128, ct_c128, double, CT_COMPAT_FMA)

#endif
