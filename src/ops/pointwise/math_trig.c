/* Unary math, trigonometric and hyperbolic: sin, cos, tan, asin, acos, atan, sinh, cosh, tanh, asinh,
   acosh, atanh (their arc* names are aliases in the op table). Real kernels follow PyTorch 1.13's CPU
   choices (SLEEF u10 for the vml and vectorized ones, libm for the scalar ones); complex ones call libm's
   complex functions as std:: does, except asin and atan, which use Vectorized<c10::complex<T>>'s own
   formulas. */
#include <math.h>

#include "kernels/cpu/loops.h"
#include "kernels/cpu/math_scalar.h"
#include "kernels/cpu/math_simd.h"
#include "ops/pointwise/pw.h"

/* A complex "vml" loop pair from scalar complex expressions. */
#define CVML(name, EXPR64, EXPR128)                                              \
  CT_MAP_SCALAR(name##_c64, ct_c64, ct_c64, CT_ID, CT_ID, EXPR64)                \
  CT_MAP_SCALAR(name##_c128, ct_c128, ct_c128, CT_ID, CT_ID, EXPR128)            \
  CT_VML_LOOP(name##_loop_c64, ct_c64, name##_c64)                               \
  CT_VML_LOOP(name##_loop_c128, ct_c128, name##_c128)

/* asin(z) = -i ln(iz + sqrt(1 - z^2)) as the vectorized kernel computes it: 1 - (a*a - b*b) and
   (-b*a) + (-b*a) from rounded products, libm's sqrt and log, then (Im ln, -Re ln). */
#define DEF_CASIN(name, CT, T, SQRT, LOG, SFX)                                   \
  static inline CT name(CT z) {                                                  \
    T a = ct__creal_##T(z), b = ct__cimag_##T(z);                                \
    T aa = a * a, bb = b * b, nab = (-b) * a;                                    \
    T wr = (T)1 - (aa - bb), wi = nab + nab;                                     \
    CT root = SQRT(ct__cmake_##T(wr, wi));                                       \
    CT ln = LOG(ct__cmake_##T(-b + ct__creal_##T(root), a + ct__cimag_##T(root))); \
    return ct__cmake_##T(ct__cimag_##T(ln), -ct__creal_##T(ln));                \
  }
DEF_CASIN(casin_vec_f, ct_c64, float, csqrtf, clogf, f)
DEF_CASIN(casin_vec_d, ct_c128, double, csqrt, clog, )

/* atan(z) = i/2 ln((i + z) / (i - z)) with the vectorized division and multiplication. */
#define DEF_CATAN(name, CT, T, LOG)                                              \
  static inline CT name(CT z) {                                                  \
    T a = ct__creal_##T(z), b = ct__cimag_##T(z);                                \
    T sr = (T)0 + a, si = (T)1 + b; /* i + z */                                  \
    T dr = (T)0 - a, di = (T)1 - b; /* i - z */                                  \
    T ac = sr * dr, bd = si * di, nad = sr * -di, bc = si * dr;                  \
    T dd = dr * dr, ee = di * di;                                                \
    T abs2 = dd + ee;                                                            \
    CT ln = LOG(ct__cmake_##T((ac + bd) / abs2, (nad + bc) / abs2));            \
    T c = ct__creal_##T(ln), d = ct__cimag_##T(ln);                              \
    T zc = (T)0 * c, hd = (T)0.5 * d, zd = (T)0 * d, hnc = (T)0.5 * -c;          \
    return ct__cmake_##T(zc - hd, zd - hnc);                                     \
  }
DEF_CATAN(catan_vec_f, ct_c64, float, clogf)
DEF_CATAN(catan_vec_d, ct_c128, double, clog)

/* ---- vml ops ---- */
CT_SLEEF_TRIG_MAPS(sin, sin, u10, 1)
CT_SLEEF_TRIG_MAPS(cos, cos, u10, 1)
CT_SLEEF_TRIG_MAPS(tan, tan, u10, 0)
CT_VML_REAL_LOOPS(sin)
CT_VML_REAL_LOOPS(cos)
CT_VML_REAL_LOOPS(tan)
CT_VML_SLEEF(asin, asin, u10)
CT_VML_SLEEF(acos, acos, u10)
CT_VML_SLEEF(atan, atan, u10)
CT_VML_SLEEF(tanh, tanh, u10)
CVML(sin, csinf(a), csin(a))
CVML(cos, ccosf(a), ccos(a))
CVML(tan, ctanf(a), ctan(a))
CVML(asin, casin_vec_f(a), casin_vec_d(a))
/* complex128's vectorized acos is pi/2 - asin(z) (complex64's maps std::acos) */
static inline ct_c128 cacos_vec_d(ct_c128 z) {
  ct_c128 s = casin_vec_d(z);
  return CMPLX(1.57079632679489661923 - creal(s), 0.0 - cimag(s));
}
CVML(acos, cacosf(a), cacos_vec_d(a))
CVML(atan, catan_vec_f(a), catan_vec_d(a))
CVML(tanh, ctanhf(a), ctanh(a))

#define VML_OP(name, kernel)                                                              \
  static const ct_loop *const name##_loops[CT_NUM_DTYPES + 1] = {CT_REAL_LOOPS(name),     \
                                                                 CT_COMPLEX_LOOPS(name)}; \
  const ct_pw_op ct__pw_op_##name = {CT_PW_OP(#name, kernel, FLOAT, name##_loops)};
VML_OP(sin, "sin_vml_cpu")
VML_OP(cos, "cos_vml_cpu")
VML_OP(tan, "tan_vml_cpu")
VML_OP(asin, "asin_vml_cpu")
VML_OP(acos, "acos_vml_cpu")
VML_OP(atan, "atan_vml_cpu")
VML_OP(tanh, "tanh_vml_cpu")

/* ---- sinh, cosh: SLEEF in vector blocks, libm on the rest; complex through libm both ways ---- */
#define KVEC_SLEEF(name)                                                                                   \
  CT_SLEEF_F32(name##_f32, name, u10)                                                                      \
  CT_SLEEF_F64(name##_f64, name, u10)                                                                      \
  CT_MAP_BF16_VIA(name##_bf16, name##_f32)                                                                 \
  CT_ELEM_SCALAR(name##_e_f32, float, float, CT_ID, CT_ID, name##f(a))                                     \
  CT_ELEM_SCALAR(name##_e_f64, double, double, CT_ID, CT_ID, name(a))                                      \
  CT_ELEM_SCALAR(name##_e_bf16, uint16_t, float, ct__bfloat16_to_float, ct__float_to_bfloat16, name##f(a)) \
  CT_KVEC_REAL_LOOPS(name)                                                                                 \
  CVML(name, c##name##f(a), c##name(a))
KVEC_SLEEF(sinh)
KVEC_SLEEF(cosh)
static const ct_loop *const sinh_loops[CT_NUM_DTYPES + 1] = {CT_REAL_LOOPS(sinh), CT_COMPLEX_LOOPS(sinh)};
static const ct_loop *const cosh_loops[CT_NUM_DTYPES + 1] = {CT_REAL_LOOPS(cosh), CT_COMPLEX_LOOPS(cosh)};
const ct_pw_op ct__pw_op_sinh = {CT_PW_OP("sinh", "sinh_cpu", FLOAT, sinh_loops), .run = ct__pw_run_staged};
const ct_pw_op ct__pw_op_cosh = {CT_PW_OP("cosh", "cosh_cpu", FLOAT, cosh_loops), .run = ct__pw_run_staged};

/* ---- asinh, acosh, atanh: scalar libm kernels ---- */
#define SCALAR_OP(name)                                                                                    \
  CT_UNARY_LOOP(name##_loop_f32, float, float, CT_ID, float, CT_ID, name##f(a))                            \
  CT_UNARY_LOOP(name##_loop_f64, double, double, CT_ID, double, CT_ID, name(a))                            \
  CT_UNARY_LOOP(name##_loop_bf16, uint16_t, float, ct__bfloat16_to_float, uint16_t, ct__float_to_bfloat16, \
                name##f(a))                                                                                \
  CT_UNARY_LOOP(name##_loop_c64, ct_c64, ct_c64, CT_ID, ct_c64, CT_ID, c##name##f(a))                      \
  CT_UNARY_LOOP(name##_loop_c128, ct_c128, ct_c128, CT_ID, ct_c128, CT_ID, c##name(a))                     \
  static const ct_loop *const name##_loops[CT_NUM_DTYPES + 1] = {CT_REAL_LOOPS(name),                      \
                                                                 CT_COMPLEX_LOOPS(name)};                  \
  const ct_pw_op ct__pw_op_##name = {CT_PW_OP(#name, #name "_cpu", FLOAT, name##_loops)};
SCALAR_OP(asinh)
SCALAR_OP(acosh)
SCALAR_OP(atanh)
