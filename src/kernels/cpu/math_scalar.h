/* Scalar math of the unary math ops, written as PyTorch 1.13 computes it on the CPU: the complex
   arithmetic of c10::complex and Vectorized<c10::complex<T>>, and the special functions of
   ATen/native/Math.h (erfinv, digamma, trigamma, zeta/polygamma, i0), in the same operation order.
   PyTorch's AVX2 kernels are C++ compiled with FMA and GCC's default -ffp-contract=fast, so a*b+c in
   those functions is one fused operation; CT_FMA / CT_FMAF spell out where. */
#ifndef CTORCH_KERNELS_MATH_SCALAR_H
#define CTORCH_KERNELS_MATH_SCALAR_H

#include <complex.h>
#include <math.h>
#include <stdint.h>

#include "kernels/cpu/dtypes.h"
#include "kernels/cpu/torch_compat.h"

/* GCC's contraction in torch (kernels/cpu/torch_compat.h) */
#define CT_FMAF CT_COMPAT_FMAF
#define CT_FMA CT_COMPAT_FMA

/* ---- complex parts ---- */
static inline float ct__creal_float(ct_c64 z) { return crealf(z); }
static inline float ct__cimag_float(ct_c64 z) { return cimagf(z); }
static inline double ct__creal_double(ct_c128 z) { return creal(z); }
static inline double ct__cimag_double(ct_c128 z) { return cimag(z); }
static inline ct_c64 ct__cmake_float(float re, float im) { return CMPLXF(re, im); }
static inline ct_c128 ct__cmake_double(double re, double im) { return CMPLX(re, im); }

/* Vectorized<complex>::reciprocal: (c, -d) / (c*c + d*d), the squares added after rounding (hadd). */
static inline ct_c64 ct__cvec_recip_f(ct_c64 z) {
  float c = crealf(z), d = cimagf(z);
  float cc = c * c, dd = d * d;
  float a2 = cc + dd;
  return CMPLXF(c / a2, -d / a2);
}
static inline ct_c128 ct__cvec_recip_d(ct_c128 z) {
  double c = creal(z), d = cimag(z);
  double cc = c * c, dd = d * d;
  double a2 = cc + dd;
  return CMPLX(c / a2, -d / a2);
}

/* c10::complex division (a + bi) / z: ((ac + bd) + (bc - ad)i) / (c*c + d*d), contracted (GCC fuses
   float numerators: the second product; the denominator and double: the first). */
static inline ct_c64 ct__c10_div_f(float a, float b, ct_c64 z) {
  float c = crealf(z), d = cimagf(z);
  float den = CT_FMAF(c, c, d * d);
  return CMPLXF(CT_FMAF(b, d, a * c) / den, CT_FMAF(-a, d, b * c) / den);
}
static inline ct_c128 ct__c10_div_d(double a, double b, ct_c128 z) {
  double c = creal(z), d = cimag(z);
  double den = CT_FMA(c, c, d * d);
  return CMPLX(CT_FMA(a, c, b * d) / den, CT_FMA(b, c, -(a * d)) / den);
}
/* c10::complex multiplication, contracted. */
static inline ct_c64 ct__c10_mul_f(ct_c64 x, ct_c64 y) {
  float a = crealf(x), b = cimagf(x), c = crealf(y), d = cimagf(y);
  return CMPLXF(CT_FMAF(a, c, -(b * d)), CT_FMAF(a, d, b * c));
}
static inline ct_c128 ct__c10_mul_d(ct_c128 x, ct_c128 y) {
  double a = creal(x), b = cimag(x), c = creal(y), d = cimag(y);
  return CMPLX(CT_FMA(a, c, -(b * d)), CT_FMA(a, d, b * c));
}

/* Both parts divided by a real k (the vectorized complex log2/log10). */
static inline ct_c64 ct__cscale_div_f(ct_c64 z, float k) { return CMPLXF(crealf(z) / k, cimagf(z) / k); }
static inline ct_c128 ct__cscale_div_d(ct_c128 z, double k) { return CMPLX(creal(z) / k, cimag(z) / k); }

/* ---- erfinv (calc_erfinv): a rational first guess and two Newton steps ---- */
#define CT_DEF_ERFINV(name, T, SFX, FMA_, TWO_OVER_SQRTPI, CENTRAL)                                \
  static inline T name(T y) {                                                                      \
    const T a0 = (T)0.886226899, a1 = (T)-1.645349621, a2 = (T)0.914624893, a3 = (T)-0.140543331; \
    const T b0 = (T)-2.118377725, b1 = (T)1.442710462, b2 = (T)-0.329097515, b3 = (T)0.012229801;  \
    const T c0 = (T)-1.970840454, c1 = (T)-1.624906493, c2 = (T)3.429567803, c3 = (T)1.641345311;  \
    const T d0 = (T)3.543889200, d1 = (T)1.637067800;                                               \
    T y_abs = fabs##SFX(y), x, z, num, dem;                                                        \
    if (y_abs > 1) return (T)NAN;                                                                  \
    if (y_abs == 1) return copysign##SFX((T)INFINITY, y);                                          \
    if (y_abs <= (CENTRAL)) {                                                                      \
      z = y * y;                                                                                   \
      num = FMA_(FMA_(FMA_(a3, z, a2), z, a1), z, a0);                                             \
      dem = FMA_(FMA_(FMA_(FMA_(b3, z, b2), z, b1), z, b0), z, (T)1);                              \
      x = y * num / dem;                                                                           \
    } else {                                                                                       \
      z = sqrt##SFX(-log##SFX(((T)1 - y_abs) / (T)2));                                             \
      num = FMA_(FMA_(FMA_(c3, z, c2), z, c1), z, c0);                                             \
      dem = FMA_(FMA_(d1, z, d0), z, (T)1);                                                        \
      x = copysign##SFX(num, y) / dem;                                                             \
    }                                                                                              \
    x = x - (erf##SFX(x) - y) / ((TWO_OVER_SQRTPI) * exp##SFX(-x * x));                            \
    x = x - (erf##SFX(x) - y) / ((TWO_OVER_SQRTPI) * exp##SFX(-x * x));                            \
    return x;                                                                                      \
  }
CT_DEF_ERFINV(ct__erfinv_f, float, f, CT_FMAF, (2.0f / (float)1.7724538509055160273), 0.7f)
CT_DEF_ERFINV(ct__erfinv_d, double, , CT_FMA, (2.0 / 1.7724538509055160273), 0.7)

/* ---- digamma (calc_digamma); negative x: digamma(1 - x) - pi / tan(pi * frac(x)) ---- */
/* digamma for x > 0 in T: S is the literal suffix (f or none), so float's constants are float literals. */
#define CT_DEF_DIGAMMA_POS(name, T, S, LOG, FMA)                                       \
  static inline T name(T x) {                                                          \
    static const T PSI_10 = 2.25175258906672110764##S;                                 \
    static const T A[] = {8.33333333333333333333E-2##S, -2.10927960927960927961E-2##S, \
                          7.57575757575757575758E-3##S, -4.16666666666666666667E-3##S, \
                          3.96825396825396825397E-3##S, -8.33333333333333333333E-3##S, \
                          8.33333333333333333333E-2##S};                               \
    T result = 0;                                                                      \
    while (x < 10) {                                                                   \
      result -= 1 / x;                                                                 \
      x += 1;                                                                          \
    }                                                                                  \
    if (x == 10) return result + PSI_10;                                               \
    T y = 0;                                                                           \
    if (x < 1.0e17##S) {                                                               \
      T z = 1 / (x * x), p = 0;                                                        \
      for (int i = 0; i <= 6; i++) p = FMA(p, z, A[i]);                                \
      y = z * p;                                                                       \
    }                                                                                  \
    return result + LOG(x) - (0.5##S / x) - y;                                         \
  }
CT_DEF_DIGAMMA_POS(ct__digamma_pos_d, double, , log, CT_FMA)
CT_DEF_DIGAMMA_POS(ct__digamma_pos_f, float, f, logf, CT_FMAF)

static inline double ct__digamma_d(double x) {
  if (x == 0) return copysign(INFINITY, -x);
  if (x < 0) {
    if (x == trunc(x)) return NAN;
    double q, r = modf(x, &q);
    return ct__digamma_pos_d(1 - x) - 3.14159265358979323846 / tan(3.14159265358979323846 * r);
  }
  return ct__digamma_pos_d(x);
}

static inline float ct__digamma_f(float x) {
  if (x == 0) return copysignf(INFINITY, -x);
  if (x < 0) {
    if (x == truncf(x)) return NAN;
    double q, r = modf((double)x, &q);
    float pi_over_tan_pi_x = (float)(3.14159265358979323846 / tan(3.14159265358979323846 * r));
    /* 1 - x >= 1 here, so the recursion lands in the positive branch (x == 0 cannot recur) */
    return ct__digamma_pos_f(1 - x) - pi_over_tan_pi_x;
  }
  return ct__digamma_pos_f(x);
}

/* ---- trigamma ---- */
static inline double ct__trigamma_d(double x) {
  const double pi = 3.14159265358979323846;
  double sign = +1, result = 0;
  if (x < 0.5) {
    sign = -1;
    const double sin_pi_x = sin(pi * x);
    result -= (pi * pi) / (sin_pi_x * sin_pi_x);
    x = 1 - x;
  }
  for (int i = 0; i < 6; ++i) {
    result += 1 / (x * x);
    x += 1;
  }
  const double ixx = 1 / (x * x);
  result += CT_FMA(ixx, CT_FMA(-ixx, CT_FMA(-ixx, 1. / 42, 1. / 30), 1. / 6), 1 + 1 / (2 * x)) / x;
  return sign * result;
}

static inline float ct__trigamma_f(float x) {
  const float pi = 3.14159265358979323846f;
  float sign = +1, result = 0;
  if (x < 0.5f) {
    sign = -1;
    const float sin_pi_x = sinf(pi * x);
    result -= (pi * pi) / (sin_pi_x * sin_pi_x);
    x = 1 - x;
  }
  for (int i = 0; i < 6; ++i) {
    result += 1 / (x * x);
    x += 1;
  }
  const float ixx = 1 / (x * x);
  result += CT_FMAF(ixx, CT_FMAF(-ixx, CT_FMAF(-ixx, 1.f / 42, 1.f / 30), 1.f / 6), 1 + 1 / (2 * x)) / x;
  return sign * result;
}

/* ---- Hurwitz zeta (Cephes) of T arguments accumulated in ACC, PyTorch's acc_type: double for float
   and double, float for bfloat16. Math.h calls ::pow, ::floor and ::fabs, the C library's double
   functions, whatever the argument type; so does calc_polygamma with ::exp and ::lgamma. ---- */
#define CT_DEF_ZETA(name, T, ACC, FMA_)                                                \
  static inline T name(T x, T q) {                                                                     \
    static const ACC A[] = {12.0, -720.0, 30240.0, -1209600.0, 47900160.0, -1.8924375803183791606e9,   \
                            7.47242496e10, -2.950130727918164224e12, 1.1646782814350067249e14,         \
                            -4.5979787224074726105e15, 1.8152105401943546773e17,                        \
                            -7.1661652561756670113e18};                                                \
    const ACC MACHEP = (ACC)1.11022302462515654042E-16;                                                \
    ACC a, b, k, s, t, w;                                                                              \
    if (x == 1) return (T)INFINITY;                                                                    \
    if (x < 1) return (T)NAN;                                                                          \
    if (q <= 0) {                                                                                      \
      if (q == floor((double)q)) return (T)INFINITY;                                                   \
      if (x != floor((double)x)) return (T)NAN;                                                        \
    }                                                                                                  \
    /* cephes' loop below steps a from q up past 9 one at a time: from a huge negative q that is ~|q| \
       steps (torch 1.13 runs them all: hours, or forever once a + 1 == a). Past 2^24 steps ctorch      \
       answers NaN instead, a documented difference (tests/diff/README.md). */                         \
    if (q < -(ACC)16777216.0) return (T)NAN;                                                           \
    s = (ACC)pow((double)q, -(double)x);                                                                             \
    a = q;                                                                                             \
    int i = 0;                                                                                         \
    b = 0;                                                                                             \
    while ((i < 9) || (a <= (ACC)9.0)) {                                                               \
      i += 1;                                                                                          \
      a += 1;                                                                                          \
      b = (ACC)pow((double)a, -(double)x);                                                                         \
      s += b;                                                                                          \
      if ((-MACHEP * s < b) && (b < MACHEP * s)) return (T)s;                                          \
    }                                                                                                  \
    w = a;                                                                                             \
    s += b * w / ((ACC)x - 1);                                                                         \
    s = FMA_(-(ACC)0.5, b, s);                                                                         \
    a = 1;                                                                                             \
    k = 0;                                                                                             \
    for (int j = 0; j < 12; j++) {                                                                     \
      a *= (ACC)x + k;                                                                                 \
      b /= w;                                                                                          \
      t = a * b / A[j];                                                                                \
      s = s + t;                                                                                       \
      t = (ACC)fabs((double)(t / s));                                                                  \
      if (t < MACHEP) return (T)s;                                                                     \
      k += 1;                                                                                          \
      a *= (ACC)x + k;                                                                                 \
      b /= w;                                                                                          \
      k += 1;                                                                                          \
    }                                                                                                  \
    return (T)s;                                                                                       \
  }
CT_DEF_ZETA(ct__zeta_d, double, double, CT_FMA)
CT_DEF_ZETA(ct__zeta_f, float, double, CT_FMA)
CT_DEF_ZETA(ct__zeta_bf, float, float, CT_FMAF)

/* calc_polygamma for n >= 2: (-1)^(n+1) n! zeta(n + 1, x). torch's calc_polygamma takes `int n`: the
   kernel's int64 n arrives truncated to 32 bits (polygamma(2^32 + 2, x) is polygamma(2, x); INT64_MAX is
   -1), and its n + 1 wraps in int (INT_MAX + 1 is INT_MIN). Both wraps are done in unsigned here, where
   int64 n + 1 would overflow. */
static inline int32_t ct__i32_wrap(uint32_t u) { return u <= INT32_MAX ? (int32_t)u : -(int32_t)(~u) - 1; }
static inline double ct__polygamma_d(double x, int64_t n64) {
  int32_t n = ct__i32_wrap((uint32_t)n64), n1 = ct__i32_wrap((uint32_t)n + 1u);
  double sign = (n % 2) ? 1.0 : -1.0;
  return sign * exp(lgamma((double)n + 1.0)) * ct__zeta_d((double)n1, x);
}
static inline float ct__polygamma_f(float x, int64_t n64) {
  int32_t n = ct__i32_wrap((uint32_t)n64), n1 = ct__i32_wrap((uint32_t)n + 1u);
  float sign = (n % 2) ? 1.0f : -1.0f;
  return (float)(sign * exp(lgamma((double)((float)n + 1.0f))) * ct__zeta_f((float)n1, x));
}
/* bfloat16: n + 1 and zeta's result are bfloat16 values (rounded), the product double. */
static inline float ct__polygamma_bf(float x, int64_t n64) {
  int32_t n = ct__i32_wrap((uint32_t)n64), n1i = ct__i32_wrap((uint32_t)n + 1u);
  float sign = (n % 2) ? 1.0f : -1.0f;
  float n1 = ct__bfloat16_to_float(ct__float_to_bfloat16(ct__bfloat16_to_float(ct__float_to_bfloat16((float)n)) + 1.0f));
  float z = ct__bfloat16_to_float(ct__float_to_bfloat16(
      ct__zeta_bf(ct__bfloat16_to_float(ct__float_to_bfloat16((float)n1i)), x)));
  return (float)(sign * exp(lgamma((double)n1)) * z);
}

/* ---- i0 (calc_i0): Chebyshev series of exp(-x) I0(x) ---- */
#define CT_I0E_A                                                                                       \
  -4.41534164647933937950E-18, 3.33079451882223809783E-17, -2.43127984654795469359E-16,                \
      1.71539128555513303061E-15, -1.16853328779934516808E-14, 7.67618549860493561688E-14,             \
      -4.85644678311192946090E-13, 2.95505266312963983461E-12, -1.72682629144155570723E-11,            \
      9.67580903537323691224E-11, -5.18979560163526290666E-10, 2.65982372468238665035E-9,              \
      -1.30002500998624804212E-8, 6.04699502254191894932E-8, -2.67079385394061173391E-7,               \
      1.11738753912010371815E-6, -4.41673835845875056359E-6, 1.64484480707288970893E-5,                \
      -5.75419501008210370398E-5, 1.88502885095841655729E-4, -5.76375574538582365885E-4,               \
      1.63947561694133579842E-3, -4.32430999505057594430E-3, 1.05464603945949983183E-2,                \
      -2.37374148058994688156E-2, 4.93052842396707084878E-2, -9.49010970480476444210E-2,               \
      1.71620901522208775349E-1, -3.04682672343198398683E-1, 6.76795274409476084995E-1
#define CT_I0E_B                                                                                       \
  -7.23318048787475395456E-18, -4.83050448594418207126E-18, 4.46562142029675999901E-17,                \
      3.46122286769746109310E-17, -2.82762398051658348494E-16, -3.42548561967721913462E-16,            \
      1.77256013305652638360E-15, 3.81168066935262242075E-15, -9.55484669882830764870E-15,             \
      -4.15056934728722208663E-14, 1.54008621752140982691E-14, 3.85277838274214270114E-13,             \
      7.18012445138366623367E-13, -1.79417853150680611778E-12, -1.32158118404477131188E-11,            \
      -3.14991652796324136454E-11, 1.18891471078464383424E-11, 4.94060238822496958910E-10,             \
      3.39623202570838634515E-9, 2.26666899049817806459E-8, 2.04891858946906374183E-7,                 \
      2.89137052083475648297E-6, 6.88975834691682398426E-5, 3.36911647825569408990E-3,                 \
      8.04490411014108831608E-1

#define CT_DEF_CHBEVL(name, T, FMA_)                                     \
  static inline T name(T x, const T *array, int len) {                   \
    T b0 = array[0], b1 = 0, b2 = 0;                                     \
    for (int i = 1; i < len; ++i) {                                      \
      b2 = b1;                                                           \
      b1 = b0;                                                           \
      b0 = FMA_(x, b1, -b2) + array[i];                                  \
    }                                                                    \
    return (T)0.5 * (b0 - b2);                                           \
  }
CT_DEF_CHBEVL(ct__chbevl_d, double, CT_FMA)
CT_DEF_CHBEVL(ct__chbevl_f, float, CT_FMAF)

static inline double ct__i0_d(double x_) {
  static const double A[] = {CT_I0E_A}, B[] = {CT_I0E_B};
  double x = fabs(x_);
  if (x <= 8.0) return exp(x) * ct__chbevl_d((x / 2.0) - 2.0, A, 30);
  return exp(x) * ct__chbevl_d(32.0 / x - 2.0, B, 25) / sqrt(x);
}
static inline float ct__i0_f(float x_) {
  static const float A[] = {CT_I0E_A}, B[] = {CT_I0E_B};
  float x = fabsf(x_);
  if (x <= 8.0f) return expf(x) * ct__chbevl_f((x / 2.0f) - 2.0f, A, 30);
  return expf(x) * ct__chbevl_f(32.0f / x - 2.0f, B, 25) / sqrtf(x);
}

#endif
