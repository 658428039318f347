/* Unary math, powers and logarithms: sqrt, rsqrt, exp, exp2, expm1, log, log2, log10, log1p.
   Real kernels follow PyTorch 1.13's CPU choices (see kernels/cpu/math_simd.h); complex ones follow
   Vectorized<c10::complex<T>>: exp by its formula on SLEEF's exp and sincos, the rest through libm's
   complex functions, which is what std::log/std::sqrt of c10::complex call. */
#include <math.h>

#include "kernels/cpu/loops.h"
#include "kernels/cpu/math_scalar.h"
#include "kernels/cpu/math_simd.h"
#include "ops/pointwise/pw.h"

/* ---- sqrt: correctly rounded everywhere, so any vector width gives the same bits ---- */
#if CT_ISA_X86
#define SQRT512F(v) _mm512_sqrt_ps(v)
#define SQRT256F(v) _mm256_sqrt_ps(v)
#define SQRT512D(v) _mm512_sqrt_pd(v)
#define SQRT256D(v) _mm256_sqrt_pd(v)
#endif
CT_MAP_F32(sqrt_f32, SQRT512F, SQRT256F, sqrtf)
CT_MAP_F64(sqrt_f64, SQRT512D, SQRT256D, sqrt)
CT_VML_REAL_LOOPS(sqrt)
CT_MAP_SCALAR(sqrt_c64, ct_c64, ct_c64, CT_ID, CT_ID, csqrtf(a))
CT_MAP_SCALAR(sqrt_c128, ct_c128, ct_c128, CT_ID, CT_ID, csqrt(a))
CT_VML_LOOP(sqrt_loop_c64, ct_c64, sqrt_c64)
CT_VML_LOOP(sqrt_loop_c128, ct_c128, sqrt_c128)

static const ct_loop *const sqrt_loops[CT_NUM_DTYPES + 1] = {CT_REAL_LOOPS(sqrt), CT_COMPLEX_LOOPS(sqrt)};
const ct_pw_op ct__pw_op_sqrt = {CT_PW_OP("sqrt", "sqrt_vml_cpu", FLOAT, sqrt_loops)};

/* ---- rsqrt: vector 1 / sqrt(x) in blocks, scalar 1 / std::sqrt(x) on the rest. For float and double
   both are the same two correctly rounded operations; bfloat16's scalar path rounds sqrt to bfloat16
   first; complex vector path takes the vector reciprocal, the scalar one c10::complex's division. ---- */
#if CT_ISA_X86
#define RSQRT512F(v) _mm512_div_ps(_mm512_set1_ps(1.0f), _mm512_sqrt_ps(v))
#define RSQRT256F(v) _mm256_div_ps(_mm256_set1_ps(1.0f), _mm256_sqrt_ps(v))
#define RSQRT512D(v) _mm512_div_pd(_mm512_set1_pd(1.0), _mm512_sqrt_pd(v))
#define RSQRT256D(v) _mm256_div_pd(_mm256_set1_pd(1.0), _mm256_sqrt_pd(v))
#endif
#define RSQRTF(x) (1.0f / sqrtf(x))
#define RSQRTD(x) (1.0 / sqrt(x))
CT_MAP_F32(rsqrt_f32, RSQRT512F, RSQRT256F, RSQRTF)
CT_MAP_F64(rsqrt_f64, RSQRT512D, RSQRT256D, RSQRTD)
CT_MAP_BF16_VIA(rsqrt_bf16, rsqrt_f32)
CT_ELEM_SCALAR(rsqrt_e_f32, float, float, CT_ID, CT_ID, RSQRTF(a))
CT_ELEM_SCALAR(rsqrt_e_f64, double, double, CT_ID, CT_ID, RSQRTD(a))
CT_ELEM_SCALAR(rsqrt_e_bf16, uint16_t, float, ct__bfloat16_to_float, ct__float_to_bfloat16,
               1.0f / ct__bfloat16_to_float(ct__float_to_bfloat16(sqrtf(a))))
CT_MAP_SCALAR(rsqrt_c64, ct_c64, ct_c64, CT_ID, CT_ID, ct__cvec_recip_f(csqrtf(a)))
CT_MAP_SCALAR(rsqrt_c128, ct_c128, ct_c128, CT_ID, CT_ID, ct__cvec_recip_d(csqrt(a)))
CT_ELEM_SCALAR(rsqrt_e_c64, ct_c64, ct_c64, CT_ID, CT_ID, ct__c10_div_f(1.0f, 0.0f, csqrtf(a)))
CT_ELEM_SCALAR(rsqrt_e_c128, ct_c128, ct_c128, CT_ID, CT_ID, ct__c10_div_d(1.0, 0.0, csqrt(a)))
CT_KVEC_REAL_LOOPS(rsqrt)
CT_KVEC_COMPLEX_LOOPS(rsqrt)
static const ct_loop *const rsqrt_loops[CT_NUM_DTYPES + 1] = {CT_REAL_LOOPS(rsqrt), CT_COMPLEX_LOOPS(rsqrt)};
const ct_pw_op ct__pw_op_rsqrt = {CT_PW_OP("rsqrt", "rsqrt_cpu", FLOAT, rsqrt_loops),
                                  .run = ct__pw_run_staged};

/* ---- exp ---- */
CT_VML_SLEEF(exp, exp, u10)

/* Complex exp as Vectorized<c10::complex<T>>::exp: exp(a) * (cos(b), sin(b)) with SLEEF's u10 exp and
   sincos, run as float/double maps over the split real and imaginary parts. */
/* sincos of n values of one element type: S (f32, f64) names it; W lanes per AVX2 vector and 2 * W per
   AVX-512 one (an M-bit mask); PS the intrinsics' suffix (ps, pd), X the AVX-512 half's (f32x8, f64x4),
   D SLEEF's vector type suffix ("", d), SL / SL2 / SL1 SLEEF's function suffixes (f8, f16, f: AVX2,
   AVX-512, scalar). */
#if CT_ISA_X86
#define SINCOS_X86(S, T, W, M, PS, X, D, SL, SL2)                                                  \
  CT_TARGET_AVX512 static void sincos_##S##_avx512(T *sn, T *cs, const T *x, int64_t n) {          \
    for (int64_t i = 0; i < n; i += 2 * W) {                                                       \
      __mmask##M m = (__mmask##M)((1u << (n - i >= 2 * W ? 2 * W : n - i)) - 1u);                  \
      __m512##D v = _mm512_maskz_loadu_##PS(m, x + i);                                             \
      Sleef___m512##D##_2 r = Sleef_sincos##SL2##_u10avx512f(v);                                   \
      unsigned h = ct__trig_halves_##SL2(v); /* PyTorch's AVX2 grouping, see math_simd.h */        \
      for (int k = 0; k < 2; k++) {                                                                \
        if (!(h & (1u << k))) continue;                                                            \
        Sleef___m256##D##_2 q = Sleef_sincos##SL##_u10avx2(k ? _mm512_extract##X##_##PS(v, 1)      \
                                                             : _mm512_cast##PS##512_##PS##256(v)); \
        r.x = k ? _mm512_insert##X(r.x, q.x, 1) : _mm512_insert##X(r.x, q.x, 0);                   \
        r.y = k ? _mm512_insert##X(r.y, q.y, 1) : _mm512_insert##X(r.y, q.y, 0);                   \
      }                                                                                            \
      _mm512_mask_storeu_##PS(sn + i, m, r.x);                                                     \
      _mm512_mask_storeu_##PS(cs + i, m, r.y);                                                     \
    }                                                                                              \
  }                                                                                                \
  CT_TARGET_AVX2 static void sincos_##S##_avx2(T *sn, T *cs, const T *x, int64_t n) {              \
    for (int64_t i = 0; i < n; i += W) {                                                           \
      int64_t k = n - i >= W ? W : n - i;                                                          \
      T t[W] = {0}, a[W], b[W];                                                                    \
      memcpy(t, x + i, (size_t)k * sizeof(T));                                                     \
      Sleef___m256##D##_2 r = Sleef_sincos##SL##_u10avx2(_mm256_loadu_##PS(t));                    \
      _mm256_storeu_##PS(a, r.x);                                                                  \
      _mm256_storeu_##PS(b, r.y);                                                                  \
      memcpy(sn + i, a, (size_t)k * sizeof(T));                                                    \
      memcpy(cs + i, b, (size_t)k * sizeof(T));                                                    \
    }                                                                                              \
  }
#define SINCOS_X86_CALLS(S)            \
  int lvl = ct__cpu_isa();             \
  if (lvl == CT_ISA_AVX512) {          \
    sincos_##S##_avx512(sn, cs, x, n); \
    return;                            \
  }                                    \
  if (lvl == CT_ISA_AVX2) {            \
    sincos_##S##_avx2(sn, cs, x, n);   \
    return;                            \
  }
#else
#define SINCOS_X86(S, T, W, M, PS, X, D, SL, SL2)
#define SINCOS_X86_CALLS(S)
#endif
#define DEF_SINCOS(S, T, W, M, PS, X, D, SL, SL2, SL1)          \
  SINCOS_X86(S, T, W, M, PS, X, D, SL, SL2)                     \
  static void sincos_##S(T *sn, T *cs, const T *x, int64_t n) { \
    SINCOS_X86_CALLS(S)                                         \
    for (int64_t i = 0; i < n; i++) {                           \
      Sleef_##T##2 r = Sleef_sincos##SL1##_u10(x[i]);           \
      sn[i] = r.x;                                              \
      cs[i] = r.y;                                              \
    }                                                           \
  }
DEF_SINCOS(f32, float, 8, 16, ps, f32x8, , f8, f16, f)
DEF_SINCOS(f64, double, 4, 8, pd, f64x4, d, d4, d8, )

/* exp on the real parts; sincos, as PyTorch, on the interleaved (re, im) values, whose lanes also decide
   SLEEF's argument reduction (math_simd.h), keeping the imaginary lanes. */
#define DEF_CEXP(SFX, T, CT, expmap, sincos)                                                  \
  void ct__cexp_parts_##SFX(const void *x_, int64_t m, T *e, T *sn, T *cs) {                \
    const CT *x = x_;                                                                        \
    T re[CT_CEXP_CHUNK], s2[2 * CT_CEXP_CHUNK], c2[2 * CT_CEXP_CHUNK];                       \
    for (int64_t i = 0; i < m; i++) re[i] = ct__creal_##T(x[i]);                             \
    expmap(e, re, m, NULL);                                                                  \
    sincos(s2, c2, (const T *)x_, 2 * m);                                                    \
    for (int64_t i = 0; i < m; i++) {                                                        \
      sn[i] = s2[2 * i + 1];                                                                 \
      cs[i] = c2[2 * i + 1];                                                                 \
    }                                                                                        \
  }                                                                                          \
  static void exp_##SFX(void *y_, const void *x_, int64_t n, const void *ctx) {             \
    (void)ctx;                                                                               \
    CT *y = y_;                                                                              \
    const CT *x = x_;                                                                        \
    T e[CT_CEXP_CHUNK], sn[CT_CEXP_CHUNK], cs[CT_CEXP_CHUNK];                                \
    for (int64_t off = 0; off < n; off += CT_CEXP_CHUNK) {                                   \
      int64_t m = n - off < CT_CEXP_CHUNK ? n - off : CT_CEXP_CHUNK;                         \
      ct__cexp_parts_##SFX(x + off, m, e, sn, cs);                                           \
      for (int64_t i = 0; i < m; i++) y[off + i] = ct__cmake_##T(e[i] * cs[i], e[i] * sn[i]); \
    }                                                                                        \
  }
DEF_CEXP(c64, float, ct_c64, exp_f32, sincos_f32)
DEF_CEXP(c128, double, ct_c128, exp_f64, sincos_f64)
CT_VML_LOOP(exp_loop_c64, ct_c64, exp_c64)
CT_VML_LOOP(exp_loop_c128, ct_c128, exp_c128)
static const ct_loop *const exp_loops[CT_NUM_DTYPES + 1] = {CT_REAL_LOOPS(exp), CT_COMPLEX_LOOPS(exp)};
const ct_pw_op ct__pw_op_exp = {CT_PW_OP("exp", "exp_vml_cpu", FLOAT, exp_loops)};

/* ---- exp2: a scalar kernel (std::exp2) for float16, bfloat16, float and double ---- */
CT_UNARY_LOOP(exp2_loop_f16, uint16_t, float, ct__half_to_float, uint16_t, ct__float_to_half, exp2f(a))
CT_UNARY_LOOP(exp2_loop_bf16, uint16_t, float, ct__bfloat16_to_float, uint16_t, ct__float_to_bfloat16, exp2f(a))
CT_UNARY_LOOP(exp2_loop_f32, float, float, CT_ID, float, CT_ID, exp2f(a))
CT_UNARY_LOOP(exp2_loop_f64, double, double, CT_ID, double, CT_ID, exp2(a))
static const ct_loop *const exp2_loops[CT_NUM_DTYPES + 1] = {
    CT_REAL_LOOPS(exp2), [CT_FLOAT16] = CT_LOOP_REF(exp2_loop_f16)};
const ct_pw_op ct__pw_op_exp2 = {CT_PW_OP("exp2", "exp2", FLOAT, exp2_loops)};

/* ---- expm1, log1p: real only ---- */
CT_VML_SLEEF(expm1, expm1, u10)
static const ct_loop *const expm1_loops[CT_NUM_DTYPES + 1] = {CT_REAL_LOOPS(expm1)};
const ct_pw_op ct__pw_op_expm1 = {CT_PW_OP("expm1", "expm1_vml_cpu", FLOAT, expm1_loops)};

CT_VML_SLEEF(log1p, log1p, u10)
static const ct_loop *const log1p_loops[CT_NUM_DTYPES + 1] = {CT_REAL_LOOPS(log1p)};
const ct_pw_op ct__pw_op_log1p = {CT_PW_OP("log1p", "log1p_vml_cpu", FLOAT, log1p_loops)};

/* ---- log, log2, log10: complex log2/log10 divide std::log's parts by log(2) / log(10) rounded to T ---- */
CT_SLEEF_MAPS(log, log, u10)
CT_SLEEF_MAPS(log2, log2, u10)
CT_SLEEF_MAPS(log10, log10, u10)
CT_VML_REAL_LOOPS(log)
CT_VML_REAL_LOOPS(log2)
CT_VML_REAL_LOOPS(log10)
#define CLOG_DIV_F(z, k) ct__cscale_div_f(clogf(z), (float)(k))
#define CLOG_DIV_D(z, k) ct__cscale_div_d(clog(z), (k))
CT_MAP_SCALAR(log_c64, ct_c64, ct_c64, CT_ID, CT_ID, clogf(a))
CT_MAP_SCALAR(log_c128, ct_c128, ct_c128, CT_ID, CT_ID, clog(a))
CT_MAP_SCALAR(log2_c64, ct_c64, ct_c64, CT_ID, CT_ID, CLOG_DIV_F(a, 0.69314718055994530942))
CT_MAP_SCALAR(log2_c128, ct_c128, ct_c128, CT_ID, CT_ID, CLOG_DIV_D(a, 0.69314718055994530942))
CT_MAP_SCALAR(log10_c64, ct_c64, ct_c64, CT_ID, CT_ID, CLOG_DIV_F(a, 2.30258509299404568402))
CT_MAP_SCALAR(log10_c128, ct_c128, ct_c128, CT_ID, CT_ID, CLOG_DIV_D(a, 2.30258509299404568402))
CT_VML_LOOP(log_loop_c64, ct_c64, log_c64)
CT_VML_LOOP(log_loop_c128, ct_c128, log_c128)
CT_VML_LOOP(log2_loop_c64, ct_c64, log2_c64)
CT_VML_LOOP(log2_loop_c128, ct_c128, log2_c128)
CT_VML_LOOP(log10_loop_c64, ct_c64, log10_c64)
CT_VML_LOOP(log10_loop_c128, ct_c128, log10_c128)
static const ct_loop *const log_loops[CT_NUM_DTYPES + 1] = {CT_REAL_LOOPS(log), CT_COMPLEX_LOOPS(log)};
static const ct_loop *const log2_loops[CT_NUM_DTYPES + 1] = {CT_REAL_LOOPS(log2), CT_COMPLEX_LOOPS(log2)};
static const ct_loop *const log10_loops[CT_NUM_DTYPES + 1] = {CT_REAL_LOOPS(log10), CT_COMPLEX_LOOPS(log10)};
const ct_pw_op ct__pw_op_log = {CT_PW_OP("log", "log_vml_cpu", FLOAT, log_loops)};
const ct_pw_op ct__pw_op_log2 = {CT_PW_OP("log2", "log2_vml_cpu", FLOAT, log2_loops)};
const ct_pw_op ct__pw_op_log10 = {CT_PW_OP("log10", "log10_vml_cpu", FLOAT, log10_loops)};
