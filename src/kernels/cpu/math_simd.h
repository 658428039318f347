/* Vectorized transcendental kernels for the unary math ops: SLEEF's vector functions (the u10 ones
   PyTorch's Vectorized<T> calls) in AVX-512 and AVX2 variants picked at run time, a scalar fallback,
   and the drivers that run a contiguous "map" over any operand layout.

   PyTorch 1.13 computes these ops in one of three ways and we follow each:
   - "vml" ops (exp, log, sin, tanh, erf, ...): every element goes through the vector function, strided
     operands through a contiguous buffer, the tail through a partial vector (ct__vml_run);
   - cpu_kernel_vec ops (sigmoid, rsqrt, sinh, cosh, logit): contiguous rows run the vector function in
     blocks of two vectors and the scalar function (libm) on the rest, strided rows are all scalar
     (ct__kvec_run);
   - cpu_kernel ops (asinh, exp2, digamma, ...): the scalar function everywhere (CT_UNARY_LOOP). */
#ifndef CTORCH_KERNELS_MATH_SIMD_H
#define CTORCH_KERNELS_MATH_SIMD_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "core/cpu_isa.h" /* the variants below are picked by ct__cpu_isa() */
#include "kernels/cpu/dtypes.h"
#include "kernels/cpu/sleef_x86.h"
#include "kernels/cpu/torch_compat.h"

/* y[i] = f(x[i]) for n contiguous elements (y may equal x). ctx is the op's loop context. */
typedef void (*ct_map_fn)(void *y, const void *x, int64_t n, const void *ctx);
/* One element: *y = f(*x). */
typedef void (*ct_elem_fn)(void *y, const void *x, const void *ctx);

/* A "vml" loop: map over every element, strided operands staged through a contiguous buffer. */
void ct__vml_run(char **d, const int64_t *s, int64_t n, size_t isz, ct_map_fn map, const void *ctx);
/* A cpu_kernel_vec loop: contiguous output with a contiguous (or broadcast) input runs bulk on the
   largest multiple of blk elements and elem on the rest; any other layout runs elem throughout. */
void ct__kvec_run(char **d, const int64_t *s, int64_t n, size_t isz, int64_t blk, ct_map_fn bulk, ct_elem_fn elem,
                  const void *ctx);

/* bfloat16 through a float map: widen, map, round to nearest even, as Vectorized<BFloat16> does. */
void ct__map_bf16_via_f32(uint16_t *y, const uint16_t *x, int64_t n, ct_map_fn f32map, const void *ctx);
/* The parts of Vectorized<c10::complex<T>>::exp of m <= CT_CEXP_CHUNK contiguous complex values
   (math_exp.c): e = exp(re), sn/cs = sin/cos(im) from SLEEF's u10 functions; exp is (e*cs, e*sn). */
#define CT_CEXP_CHUNK 256
void ct__cexp_parts_c64(const void *x, int64_t m, float *e, float *sn, float *cs);
void ct__cexp_parts_c128(const void *x, int64_t m, double *e, double *sn, double *cs);

#define CT_VML_LOOP(fname, T, map)                                                \
  static void fname(char **d, const int64_t *s, int64_t n, const void *ctx) {     \
    ct__vml_run(d, s, n, sizeof(T), (map), ctx);                                  \
  } \
  CT_LOOP_PLAIN(fname)
#define CT_KVEC_LOOP(fname, T, blk, bulk, elem)                                   \
  static void fname(char **d, const int64_t *s, int64_t n, const void *ctx) {     \
    ct__kvec_run(d, s, n, sizeof(T), (blk), (bulk), (elem), ctx);                 \
  } \
  CT_LOOP_PLAIN(fname)
/* The cpu_kernel_vec loops of an op from its bulk maps name##_f32, ... and element functions name##_e_f32, ...
   (blocks of two AVX2 vectors). */
#define CT_KVEC_REAL_LOOPS(name)                                     \
  CT_KVEC_LOOP(name##_loop_f32, float, 16, name##_f32, name##_e_f32) \
  CT_KVEC_LOOP(name##_loop_f64, double, 8, name##_f64, name##_e_f64) \
  CT_KVEC_LOOP(name##_loop_bf16, uint16_t, 32, name##_bf16, name##_e_bf16)
#define CT_KVEC_COMPLEX_LOOPS(name)                                  \
  CT_KVEC_LOOP(name##_loop_c64, ct_c64, 8, name##_c64, name##_e_c64) \
  CT_KVEC_LOOP(name##_loop_c128, ct_c128, 4, name##_c128, name##_e_c128)
/* An op's loop table entries (name##_loop_bf16, ...): the real floating types with bfloat16 (PyTorch's
   AT_DISPATCH_FLOATING_TYPES_AND(kBFloat16)), and the complex types where the op has complex kernels. */
#define CT_REAL_LOOPS(name)                                                                   \
  [CT_BFLOAT16] = CT_LOOP_REF(name##_loop_bf16), [CT_FLOAT32] = CT_LOOP_REF(name##_loop_f32), \
  [CT_FLOAT64] = CT_LOOP_REF(name##_loop_f64)
#define CT_COMPLEX_LOOPS(name) \
  [CT_COMPLEX64] = CT_LOOP_REF(name##_loop_c64), [CT_COMPLEX128] = CT_LOOP_REF(name##_loop_c128)

/* ---- map generators from per-width vector expressions ----
   V512(v) / V256(v) / S(x) are macros or functions of one vector (scalar); `ctx` is in scope. */
#if CT_ISA_X86
#define CT_MAP_F32(name, V512, V256, S)                                                              \
  CT_TARGET_AVX512 static void name##_avx512(float *y, const float *x, int64_t n, const void *ctx) {  \
    (void)ctx;                                                                                        \
    int64_t i = 0;                                                                                    \
    for (; i + 16 <= n; i += 16) _mm512_storeu_ps(y + i, V512(_mm512_loadu_ps(x + i)));               \
    if (i < n) {                                                                                      \
      __mmask16 m_ = (__mmask16)((1u << (n - i)) - 1u);                                               \
      _mm512_mask_storeu_ps(y + i, m_, V512(_mm512_maskz_loadu_ps(m_, x + i)));                       \
    }                                                                                                 \
  }                                                                                                   \
  CT_TARGET_AVX2 static void name##_avx2(float *y, const float *x, int64_t n, const void *ctx) {      \
    (void)ctx;                                                                                        \
    int64_t i = 0;                                                                                    \
    for (; i + 8 <= n; i += 8) _mm256_storeu_ps(y + i, V256(_mm256_loadu_ps(x + i)));                 \
    if (i < n) {                                                                                      \
      float t_[8] = {0};                                                                              \
      memcpy(t_, x + i, (size_t)(n - i) * sizeof(float));                                            \
      _mm256_storeu_ps(t_, V256(_mm256_loadu_ps(t_)));                                                \
      memcpy(y + i, t_, (size_t)(n - i) * sizeof(float));                                            \
    }                                                                                                 \
  }                                                                                                   \
  static void name##_scalar(float *y, const float *x, int64_t n, const void *ctx) {                  \
    (void)ctx;                                                                                        \
    for (int64_t i = 0; i < n; i++) y[i] = S(x[i]);                                                   \
  }                                                                                                   \
  static void name(void *y, const void *x, int64_t n, const void *ctx) {                             \
    switch (ct__cpu_isa()) {                                                                        \
      case CT_ISA_AVX512: name##_avx512((float *)y, (const float *)x, n, ctx); break;                \
      case CT_ISA_AVX2: name##_avx2((float *)y, (const float *)x, n, ctx); break;                    \
      default: name##_scalar((float *)y, (const float *)x, n, ctx);                                   \
    }                                                                                                 \
  }

#define CT_MAP_F64(name, V512, V256, S)                                                              \
  CT_TARGET_AVX512 static void name##_avx512(double *y, const double *x, int64_t n, const void *ctx) { \
    (void)ctx;                                                                                        \
    int64_t i = 0;                                                                                    \
    for (; i + 8 <= n; i += 8) _mm512_storeu_pd(y + i, V512(_mm512_loadu_pd(x + i)));                 \
    if (i < n) {                                                                                      \
      __mmask8 m_ = (__mmask8)((1u << (n - i)) - 1u);                                                 \
      _mm512_mask_storeu_pd(y + i, m_, V512(_mm512_maskz_loadu_pd(m_, x + i)));                       \
    }                                                                                                 \
  }                                                                                                   \
  CT_TARGET_AVX2 static void name##_avx2(double *y, const double *x, int64_t n, const void *ctx) {    \
    (void)ctx;                                                                                        \
    int64_t i = 0;                                                                                    \
    for (; i + 4 <= n; i += 4) _mm256_storeu_pd(y + i, V256(_mm256_loadu_pd(x + i)));                 \
    if (i < n) {                                                                                      \
      double t_[4] = {0};                                                                             \
      memcpy(t_, x + i, (size_t)(n - i) * sizeof(double));                                           \
      _mm256_storeu_pd(t_, V256(_mm256_loadu_pd(t_)));                                                \
      memcpy(y + i, t_, (size_t)(n - i) * sizeof(double));                                           \
    }                                                                                                 \
  }                                                                                                   \
  static void name##_scalar(double *y, const double *x, int64_t n, const void *ctx) {                \
    (void)ctx;                                                                                        \
    for (int64_t i = 0; i < n; i++) y[i] = S(x[i]);                                                   \
  }                                                                                                   \
  static void name(void *y, const void *x, int64_t n, const void *ctx) {                             \
    switch (ct__cpu_isa()) {                                                                        \
      case CT_ISA_AVX512: name##_avx512((double *)y, (const double *)x, n, ctx); break;              \
      case CT_ISA_AVX2: name##_avx2((double *)y, (const double *)x, n, ctx); break;                  \
      default: name##_scalar((double *)y, (const double *)x, n, ctx);                                 \
    }                                                                                                 \
  }
#else
#define CT_MAP_F32(name, V512, V256, S)                                                 \
  static void name(void *y_, const void *x_, int64_t n, const void *ctx) {             \
    (void)ctx;                                                                          \
    float *y = y_;                                                                      \
    const float *x = x_;                                                                \
    for (int64_t i = 0; i < n; i++) y[i] = S(x[i]);                                     \
  }
#define CT_MAP_F64(name, V512, V256, S)                                                 \
  static void name(void *y_, const void *x_, int64_t n, const void *ctx) {             \
    (void)ctx;                                                                          \
    double *y = y_;                                                                     \
    const double *x = x_;                                                                \
    for (int64_t i = 0; i < n; i++) y[i] = S(x[i]);                                     \
  }
#endif

/* A SLEEF function in every width: CT_SLEEF_F32(exp_f32, exp, u10) maps Sleef_expf16_u10avx512f,
   Sleef_expf8_u10avx2 and the scalar Sleef_expf_u10. */
#define CT_SLEEF_F32(name, fn, ulp) \
  CT_MAP_F32(name, Sleef_##fn##f16_##ulp##avx512f, Sleef_##fn##f8_##ulp##avx2, Sleef_##fn##f_##ulp)
#define CT_SLEEF_F64(name, fn, ulp) \
  CT_MAP_F64(name, Sleef_##fn##d8_##ulp##avx512f, Sleef_##fn##d4_##ulp##avx2, Sleef_##fn##_##ulp)

/* Both widths of a SLEEF function: name##_f32 and name##_f64. (SLEEF's AVX-512 and AVX2 logarithms
   differ only in their NaN bits, which are not reproduced.) */
#define CT_SLEEF_MAPS(name, fn, ulp) CT_SLEEF_F32(name##_f32, fn, ulp) CT_SLEEF_F64(name##_f64, fn, ulp)

/* SLEEF's trigonometric functions take a fast argument reduction only when every lane of the vector is
   small (float sin/cos/sincos: |x| < 125; double sin/cos/tan/sincos: |x| < 1e14), so a lane's result can
   depend on its neighbours. PyTorch groups lanes by AVX2 vectors (8 floats / 4 doubles from the start of
   each run): a 16-lane (8-lane) vector whose halves would choose differently has the half that is all
   small recomputed with the AVX2 function, giving PyTorch's bits. */
#define CT_TRIG_LIMIT_F 125.0f
#define CT_TRIG_LIMIT_D 1e14
#if CT_ISA_X86
/* Bit k set: half k (lanes 8k..8k+7 / 4k..4k+3) must be recomputed with the AVX2 function (never without
   CT_TORCH_TRIG_LANES, kernels/cpu/torch_compat.h). */
CT_TARGET_AVX512 static inline unsigned ct__trig_halves_f16(__m512 v) {
  if (!CT_TORCH_TRIG_LANES) return 0;
  __mmask16 small = _mm512_cmp_ps_mask(_mm512_abs_ps(v), _mm512_set1_ps(CT_TRIG_LIMIT_F), _CMP_LT_OQ);
  if (small == 0xFFFF) return 0;
  return ((small & 0xFF) == 0xFF ? 1u : 0u) | ((small >> 8) == 0xFF ? 2u : 0u);
}
CT_TARGET_AVX512 static inline unsigned ct__trig_halves_d8(__m512d v) {
  if (!CT_TORCH_TRIG_LANES) return 0;
  __mmask8 small = _mm512_cmp_pd_mask(_mm512_abs_pd(v), _mm512_set1_pd(CT_TRIG_LIMIT_D), _CMP_LT_OQ);
  if (small == 0xFF) return 0;
  return ((small & 0xF) == 0xF ? 1u : 0u) | ((small >> 4) == 0xF ? 2u : 0u);
}
#define CT_SLEEF_TRIGFIX_F(fn, ulp)                                                                    \
  CT_TARGET_AVX512 __attribute__((unused)) static inline __m512 ct__##fn##_##ulp##_tf16(__m512 v) {    \
    __m512 r = Sleef_##fn##f16_##ulp##avx512f(v);                                                      \
    unsigned h = ct__trig_halves_f16(v);                                                               \
    if (h & 1u) r = _mm512_insertf32x8(r, Sleef_##fn##f8_##ulp##avx2(_mm512_castps512_ps256(v)), 0);   \
    if (h & 2u) r = _mm512_insertf32x8(r, Sleef_##fn##f8_##ulp##avx2(_mm512_extractf32x8_ps(v, 1)), 1); \
    return r;                                                                                          \
  }
#define CT_SLEEF_TRIGFIX_D(fn, ulp)                                                                    \
  CT_TARGET_AVX512 static inline __m512d ct__##fn##_##ulp##_td8(__m512d v) {                          \
    __m512d r = Sleef_##fn##d8_##ulp##avx512f(v);                                                      \
    unsigned h = ct__trig_halves_d8(v);                                                                \
    if (h & 1u) r = _mm512_insertf64x4(r, Sleef_##fn##d4_##ulp##avx2(_mm512_castpd512_pd256(v)), 0);  \
    if (h & 2u) r = _mm512_insertf64x4(r, Sleef_##fn##d4_##ulp##avx2(_mm512_extractf64x4_pd(v, 1)), 1); \
    return r;                                                                                          \
  }
/* float and double maps of a trigonometric SLEEF function (tan's float version needs no fix). */
#define CT_SLEEF_TRIG_MAPS(name, fn, ulp, fix_float)                                                   \
  CT_SLEEF_TRIGFIX_F(fn, ulp)                                                                          \
  CT_SLEEF_TRIGFIX_D(fn, ulp)                                                                          \
  CT_MAP_F32(name##_f32, CT_TRIG_PICK_##fix_float(ct__##fn##_##ulp##_tf16, Sleef_##fn##f16_##ulp##avx512f), \
             Sleef_##fn##f8_##ulp##avx2, Sleef_##fn##f_##ulp)                                         \
  CT_MAP_F64(name##_f64, ct__##fn##_##ulp##_td8, Sleef_##fn##d4_##ulp##avx2, Sleef_##fn##_##ulp)
#define CT_TRIG_PICK_1(fixed, plain) fixed
#define CT_TRIG_PICK_0(fixed, plain) plain
#else
#define CT_SLEEF_TRIG_MAPS(name, fn, ulp, fix_float) CT_SLEEF_F32(name##_f32, fn, ulp) CT_SLEEF_F64(name##_f64, fn, ulp)
#endif

/* A bfloat16 map through a float map (the vector conversion both ways). */
#define CT_MAP_BF16_VIA(name, f32map)                                                  \
  static void name(void *y, const void *x, int64_t n, const void *ctx) {              \
    ct__map_bf16_via_f32((uint16_t *)y, (const uint16_t *)x, n, (f32map), ctx);        \
  }

/* A map of a scalar C expression EXPR(a) over n elements of T (compute type CT). */
#define CT_MAP_SCALAR(name, T, CT, LOAD, STORE, EXPR)                                    \
  static void name(void *y_, const void *x_, int64_t n, const void *ctx) {              \
    (void)ctx;                                                                            \
    T *y = (T *)y_;                                                                       \
    const T *x = (const T *)x_;                                                           \
    for (int64_t i = 0; i < n; i++) {                                                     \
      CT a = LOAD(x[i]);                                                                  \
      y[i] = STORE(EXPR);                                                                 \
    }                                                                                     \
  }
/* One element of a scalar C expression. */
#define CT_ELEM_SCALAR(name, T, CT, LOAD, STORE, EXPR)                                   \
  static void name(void *y_, const void *x_, const void *ctx) {                         \
    (void)ctx;                                                                            \
    T xv_;                                                                                \
    memcpy(&xv_, x_, sizeof(T));                                                          \
    CT a = LOAD(xv_);                                                                     \
    T r_ = STORE(EXPR);                                                                   \
    memcpy(y_, &r_, sizeof(T));                                                           \
  }

/* The float32/float64/bfloat16 "vml" loops of a real op from its float32 and float64 maps:
   name_loop_f32, name_loop_f64, name_loop_bf16. */
#define CT_VML_REAL_LOOPS(name)                               \
  CT_MAP_BF16_VIA(name##_bf16, name##_f32)                    \
  CT_VML_LOOP(name##_loop_f32, float, name##_f32)             \
  CT_VML_LOOP(name##_loop_f64, double, name##_f64)            \
  CT_VML_LOOP(name##_loop_bf16, uint16_t, name##_bf16)
/* ... of a SLEEF function. */
#define CT_VML_SLEEF(name, fn, ulp) \
  CT_SLEEF_F32(name##_f32, fn, ulp) \
  CT_SLEEF_F64(name##_f64, fn, ulp) \
  CT_VML_REAL_LOOPS(name)

#endif
