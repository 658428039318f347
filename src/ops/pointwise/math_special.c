/* Unary math, special functions: sigmoid, logit, erf, erfc, erfinv, lgamma, digamma, polygamma,
   mvlgamma, i0, sinc, and the torch.special names of logit, polygamma and mvlgamma (the others are
   aliases in the op table, include/ctorch/pointwise_ops.h). Kernels follow PyTorch 1.13's CPU choices (see
   kernels/cpu/math_simd.h); the special functions are ATen/native/Math.h's (kernels/cpu/math_scalar.h). */
#include <math.h>

#include "core/cast.h"
#include "kernels/cpu/loops.h"
#include "kernels/cpu/math_scalar.h"
#include "kernels/cpu/math_simd.h"
#include "core/out_wrapper.h"
#include "ops/create_internal.h"
#include "ops/pointwise/pw.h"
#include "ops/view_internal.h"

/* ---- sigmoid: vector 1 / (1 + exp(0 - x)) in blocks, scalar 1 / (1 + std::exp(-x)) on the rest ---- */
#if CT_ISA_X86
#define SIGMOID512F(v) \
  _mm512_div_ps(_mm512_set1_ps(1.0f), _mm512_add_ps(Sleef_expf16_u10avx512f(_mm512_sub_ps(_mm512_setzero_ps(), v)), _mm512_set1_ps(1.0f)))
#define SIGMOID256F(v) \
  _mm256_div_ps(_mm256_set1_ps(1.0f), _mm256_add_ps(Sleef_expf8_u10avx2(_mm256_sub_ps(_mm256_setzero_ps(), v)), _mm256_set1_ps(1.0f)))
#define SIGMOID512D(v) \
  _mm512_div_pd(_mm512_set1_pd(1.0), _mm512_add_pd(Sleef_expd8_u10avx512f(_mm512_sub_pd(_mm512_setzero_pd(), v)), _mm512_set1_pd(1.0)))
#define SIGMOID256D(v) \
  _mm256_div_pd(_mm256_set1_pd(1.0), _mm256_add_pd(Sleef_expd4_u10avx2(_mm256_sub_pd(_mm256_setzero_pd(), v)), _mm256_set1_pd(1.0)))
#endif
#define SIGMOIDSF(x) (1.0f / (Sleef_expf_u10(0.0f - (x)) + 1.0f))
#define SIGMOIDSD(x) (1.0 / (Sleef_exp_u10(0.0 - (x)) + 1.0))
CT_MAP_F32(sigmoid_f32, SIGMOID512F, SIGMOID256F, SIGMOIDSF)
CT_MAP_F64(sigmoid_f64, SIGMOID512D, SIGMOID256D, SIGMOIDSD)
CT_MAP_BF16_VIA(sigmoid_bf16, sigmoid_f32)
CT_ELEM_SCALAR(sigmoid_e_f32, float, float, CT_ID, CT_ID, 1.0f / (1.0f + expf(-a)))
CT_ELEM_SCALAR(sigmoid_e_f64, double, double, CT_ID, CT_ID, 1.0 / (1.0 + exp(-a)))
CT_ELEM_SCALAR(sigmoid_e_bf16, uint16_t, float, ct__bfloat16_to_float, ct__float_to_bfloat16, 1.0f / (1.0f + expf(-a)))

/* complex: the vector path negates as 0 - z, takes the vectorized exp, adds (1, 0) and takes the vector
   reciprocal; GCC fuses exp's final products with that addition. The scalar path is c10::complex
   arithmetic over std::exp. */
#define DEF_CSIGMOID(T, CT, SFX, FMA_, CEXPS, RECIP, DIV)                                          \
  static void sigmoid_c##SFX(void *y_, const void *x_, int64_t n, const void *ctx) {             \
    (void)ctx;                                                                                    \
    CT *y = y_;                                                                                   \
    const CT *x = x_;                                                                             \
    CT neg[CT_CEXP_CHUNK];                                                                        \
    T e[CT_CEXP_CHUNK], sn[CT_CEXP_CHUNK], cs[CT_CEXP_CHUNK];                                     \
    for (int64_t off = 0; off < n; off += CT_CEXP_CHUNK) {                                        \
      int64_t m = n - off < CT_CEXP_CHUNK ? n - off : CT_CEXP_CHUNK;                              \
      for (int64_t i = 0; i < m; i++)                                                             \
        neg[i] = ct__cmake_##T((T)0 - ct__creal_##T(x[off + i]), (T)0 - ct__cimag_##T(x[off + i])); \
      ct__cexp_parts_c##SFX(neg, m, e, sn, cs);                                                   \
      for (int64_t i = 0; i < m; i++)                                                             \
        y[off + i] = RECIP(ct__cmake_##T(FMA_(e[i], cs[i], (T)1), FMA_(e[i], sn[i], (T)0)));      \
    }                                                                                             \
  }                                                                                               \
  static inline CT sigmoid_s##SFX(CT a) {                                                         \
    CT e = CEXPS(ct__cmake_##T(-ct__creal_##T(a), -ct__cimag_##T(a)));                           \
    return DIV((T)1, (T)0, ct__cmake_##T((T)1 + ct__creal_##T(e), (T)0 + ct__cimag_##T(e)));      \
  }                                                                                               \
  CT_ELEM_SCALAR(sigmoid_e_c##SFX, CT, CT, CT_ID, CT_ID, sigmoid_s##SFX(a))
DEF_CSIGMOID(float, ct_c64, 64, fmaf, cexpf, ct__cvec_recip_f, ct__c10_div_f)
DEF_CSIGMOID(double, ct_c128, 128, fma, cexp, ct__cvec_recip_d, ct__c10_div_d)
CT_KVEC_REAL_LOOPS(sigmoid)
CT_KVEC_COMPLEX_LOOPS(sigmoid)
static const ct_loop *const sigmoid_loops[CT_NUM_DTYPES + 1] = {CT_REAL_LOOPS(sigmoid),
                                                                CT_COMPLEX_LOOPS(sigmoid)};
const ct_pw_op ct__pw_op_sigmoid = {CT_PW_OP("sigmoid", "sigmoid_cpu", FLOAT, sigmoid_loops),
                                    .run = ct__pw_run_staged};

/* ---- logit: log(x / (1 - x)) after clamping to [eps, 1 - eps] (eps None is -1, NaN: no clamp).
   Vector path: SLEEF's log, no x == 1 test; scalar path: x == 1 gives inf. bfloat16 rounds after each
   operation, as c10::BFloat16 arithmetic does. ---- */
typedef struct logit_ctx {
  int clamp;
  float lo_f, hi_f;
  double lo_d, hi_d;
} logit_ctx;
#define LCTX ((const logit_ctx *)ctx)

static inline float logit_clamp_vec_f(float x, const logit_ctx *c) {
  if (!c->clamp) return x;
  float m = c->lo_f > x ? c->lo_f : x; /* _mm256_max_ps(lo, x): x if either is NaN */
  return c->hi_f < m ? c->hi_f : m;    /* _mm256_min_ps(hi, m): m if either is NaN */
}
static inline double logit_clamp_vec_d(double x, const logit_ctx *c) {
  if (!c->clamp) return x;
  double m = c->lo_d > x ? c->lo_d : x;
  return c->hi_d < m ? c->hi_d : m;
}
static inline float logit_clamp_scalar_f(float x, const logit_ctx *c) {
  return !c->clamp ? x : x < c->lo_f ? c->lo_f : (x > c->hi_f ? c->hi_f : x);
}
static inline double logit_clamp_scalar_d(double x, const logit_ctx *c) {
  return !c->clamp ? x : x < c->lo_d ? c->lo_d : (x > c->hi_d ? c->hi_d : x);
}
static inline float bf(float x) { return ct__bfloat16_to_float(ct__float_to_bfloat16(x)); }

/* vector path: the ratio in a buffer, then the log map */
CT_SLEEF_MAPS(logit_log, log, u10)
#define DEF_LOGIT_VEC(S, T, C)                                                  \
  static void logit_##S(void *y_, const void *x_, int64_t n, const void *ctx) { \
    T *y = y_;                                                                  \
    const T *x = x_;                                                            \
    T buf[256];                                                                 \
    for (int64_t off = 0; off < n; off += 256) {                                \
      int64_t m = n - off < 256 ? n - off : 256;                                \
      for (int64_t i = 0; i < m; i++) {                                         \
        T v = logit_clamp_vec_##C(x[off + i], LCTX);                            \
        buf[i] = v / ((T)1 - v);                                                \
      }                                                                         \
      logit_log_##S(y + off, buf, m, NULL);                                     \
    }                                                                           \
  }
DEF_LOGIT_VEC(f32, float, f)
DEF_LOGIT_VEC(f64, double, d)
static void logit_ratio_bf16(void *y_, const void *x_, int64_t n, const void *ctx) {
  float *y = y_;
  const float *x = x_;
  for (int64_t i = 0; i < n; i++) {
    float v = logit_clamp_vec_f(x[i], LCTX);
    y[i] = bf(v / bf(1.0f - v));
  }
  logit_log_f32(y, y, n, NULL);
}
CT_MAP_BF16_VIA(logit_bf16, logit_ratio_bf16)
CT_ELEM_SCALAR(logit_e_f32, float, float, CT_ID, CT_ID,
               (a = logit_clamp_scalar_f(a, LCTX), a == 1.0f ? INFINITY : logf(a / (1.0f - a))))
CT_ELEM_SCALAR(logit_e_f64, double, double, CT_ID, CT_ID,
               (a = logit_clamp_scalar_d(a, LCTX), a == 1.0 ? INFINITY : log(a / (1.0 - a))))
CT_ELEM_SCALAR(logit_e_bf16, uint16_t, float, ct__bfloat16_to_float, ct__float_to_bfloat16,
               (a = logit_clamp_scalar_f(a, LCTX), a == 1.0f ? INFINITY : logf(bf(a / bf(1.0f - a)))))
CT_KVEC_REAL_LOOPS(logit)
static const ct_loop *const logit_loops[CT_NUM_DTYPES + 1] = {CT_REAL_LOOPS(logit)};

typedef struct logit_args {
  ct_scalar eps;
} logit_args;

static bool logit_check(ct_dtype common, const ct_tensor *const *in, const void *args) {
  (void)in;
  const logit_args *a = args;
  /* eps.to<scalar_t>() runs inside the kernel */
  if (a->eps.kind && !ct__scalar_fits(a->eps, common)) return false;
  return true;
}

static void logit_prepare(ct_dtype common, const void *args, ct_pw_ctx *ctx) {
  const logit_args *a = args;
  logit_ctx *c = (logit_ctx *)ctx->bytes;
  double eps = a->eps.kind ? ct__scalar_to_double(a->eps) : -1.0;
  memset(c, 0, sizeof *c);
  if (common == CT_BFLOAT16) {
    float e = bf((float)eps);
    c->clamp = e == e;
    c->lo_f = e;
    c->hi_f = bf(1.0f - e);
  } else if (common == CT_FLOAT32) {
    float e = (float)eps;
    c->clamp = e == e;
    c->lo_f = e;
    c->hi_f = 1.0f - e;
  } else {
    c->clamp = eps == eps;
    c->lo_d = eps;
    c->hi_d = 1.0 - eps;
  }
}

/* torch/_refs' special.logit on meta: torch.clamp's check first */
static bool logit_ref_check(ct_dtype common, const ct_tensor *const *in, const void *args) {
  (void)in, (void)args;
  if (ct__dt(common)->category != CT_CAT_COMPLEX) return true;
  ct__error(CT_ERR_RUNTIME, "clamp is not supported for complex types");
  return false;
}
/* Its result's layout: the reference's chain replayed on meta stand-ins. The type promotion wrapper converts an
   integral, bool, float16 or bfloat16 self to the computation dtype (a prim's layout of self alone), then
   log(true_divide(c, sub(1, c))) with c = clamp(self, lo, hi) runs as TensorIterator lays each step out (clamp's
   as any unary op's; sub's number operand breaks TensorIterator's fast setup, so sub lays out again by its
   dims' order), and a float16 or bfloat16 result is converted back (a prim's layout). */
static void logit_ref_strides(const ct_tensor *const *in, int n_in, const ct_tensor *r, int64_t *strides) {
  (void)n_in;
  memcpy(strides, r->strides, (size_t)r->ndim * sizeof(int64_t));
  ct_dtype dt = (ct_dtype)in[0]->dtype;
  ct_dtype comp = dt == CT_FLOAT16 || dt == CT_BFLOAT16 ? CT_FLOAT32 : (ct_dtype)r->dtype;
  if (ct_scope_begin() != CT_OK) {
    ct_scope_end();
    return;
  }
  const ct_tensor *conv = ct__pw_ref_converted(in[0], comp), *one = ct__own(ct__wrapped_scalar(CT_INT(1)));
  ct_tensor *c = conv ? ct__pw_apply(&ct__pw_op_log, conv, NULL) : NULL; /* clamp's layout */
  ct_tensor *den = c && one ? ct__pw_apply(&ct__pw_op_sub, one, c) : NULL;
  ct_tensor *q = den ? ct__pw_apply(&ct__pw_op_true_divide, c, den) : NULL;
  ct_tensor *res = q ? ct__pw_apply(&ct__pw_op_log, q, NULL) : NULL;
  if (res && comp != (ct_dtype)r->dtype) /* converted back */
    ct__prims_elementwise_strides((const ct_tensor *const[]){res}, 1, res->ndim, res->sizes, strides);
  else if (res) memcpy(strides, res->strides, (size_t)r->ndim * sizeof(int64_t));
  ct_scope_end();
}

static const ct_pw_op logit_op = {CT_PW_OP("logit", "logit_cpu", FLOAT, logit_loops),
                                  .kernel_check = logit_check,
                                  .prepare = logit_prepare,
                                  .run = ct__pw_run_staged,
                                  .meta_check = logit_ref_check,
                                  .ref_device = ct__pw_ref_operand_device,
                                  .ref_cpu_check = logit_check, /* clamp's conversion of eps and 1 - eps */
                                  .ref_strides = logit_ref_strides};

/* Python's argument parser: eps is a float (bool and int convert), never complex. */
static bool logit_eps_ok(const ct_logit_opts *opts, const char *fn) {
  if (opts && opts->eps.kind == CT_SCALAR_COMPLEX) {
    ct__error(CT_ERR_TYPE, "%s(): argument 'eps' (position %d) must be float, not complex", fn,
              fn[strlen(fn) - 1] == '_' ? 1 : 2); /* Tensor.logit_(eps) vs torch.logit(input, eps) */
    return false;
  }
  return true;
}
static logit_args logit_make(const ct_logit_opts *opts) {
  logit_args a = {{0}};
  if (opts) a.eps = opts->eps;
  return a;
}
static ct_tensor *logit_new(const ct_tensor *t, const ct_logit_opts *opts, const char *fn) {
  if (!t) return ct__null_ptr_arg("t");
  if (!logit_eps_ok(opts, fn) || !CT__PW_ENTER(&logit_op, NULL, false, t)) return NULL;
  logit_args a = logit_make(opts);
  ct_tensor *r = NULL;
  if (CT__OP_ON_META(t)) ct__pw_ref_run(&logit_op, NULL, &t, 1, &a, &r); /* torch/_refs' logit */
  else ct__pw_run_staged(&logit_op, NULL, &t, 1, false, &a, &r);
  return r;
}
static ct_status logit_into(ct_tensor *out, const ct_tensor *t, const ct_logit_opts *opts, bool inplace,
                            const char *fn) {
  CT__NONNULL_STATUS(t, out);
  if (!logit_eps_ok(opts, fn)) return CT_ERR_TYPE;
  if (!inplace && !CT__OP_OUT_GRAD_OK(&logit_op.op, out, t)) return CT_ERR_RUNTIME;
  if (!CT__PW_ENTER(&logit_op, inplace ? NULL : out, inplace, t)) return ct_last_error();
  if (!inplace && !ct__pw_out_device_ok(CT_PW_DEV_COPY, out, &t, 1)) return ct_last_error();
  logit_args a = logit_make(opts);
  if (CT__OP_ON_META(out, t)) /* logit_'s Meta kernel checks nothing; logit.out is torch/_refs' logit */
    return inplace ? ct__pw_meta_inplace_noop(out) : ct__pw_ref_run(&logit_op, out, &t, 1, &a, NULL);
  return ct__pw_run_staged(&logit_op, out, &t, 1, inplace, &a, NULL);
}
ct_tensor *ct_logit(const ct_tensor *t, const ct_logit_opts *opts) { return logit_new(t, opts, "logit"); }
ct_status ct_logit_(ct_tensor *self, const ct_logit_opts *opts) { return logit_into(self, self, opts, true, "logit_"); }
ct_status ct_logit_out(ct_tensor *out, const ct_tensor *t, const ct_logit_opts *opts) {
  return logit_into(out, t, opts, false, "logit");
}
ct_tensor *ct_special_logit(const ct_tensor *t, const ct_logit_opts *opts) {
  return logit_new(t, opts, "special_logit");
}
ct_status ct_special_logit_out(ct_tensor *out, const ct_tensor *t, const ct_logit_opts *opts) {
  return logit_into(out, t, opts, false, "special_logit");
}

/* ---- erf, erfc, lgamma: SLEEF (erfc is u15, as PyTorch) ---- */
CT_VML_SLEEF(erf, erf, u10)
CT_VML_SLEEF(erfc, erfc, u15)
CT_VML_SLEEF(lgamma, lgamma, u10)
static const ct_loop *const erf_loops[CT_NUM_DTYPES + 1] = {CT_REAL_LOOPS(erf)};
static const ct_loop *const erfc_loops[CT_NUM_DTYPES + 1] = {CT_REAL_LOOPS(erfc)};
static const ct_loop *const lgamma_loops[CT_NUM_DTYPES + 1] = {CT_REAL_LOOPS(lgamma)};
const ct_pw_op ct__pw_op_erf = {CT_PW_OP("erf", "erf_vml_cpu", FLOAT, erf_loops)};
const ct_pw_op ct__pw_op_erfc = {CT_PW_OP("erfc", "erfc_vml_cpu", FLOAT, erfc_loops)};
const ct_pw_op ct__pw_op_lgamma = {CT_PW_OP("lgamma", "lgamma_vml_cpu", FLOAT, lgamma_loops)};

/* ---- erfinv, i0: Math.h's scalar functions mapped over vectors (bfloat16 through float, rounded by the
   vector conversion) ---- */
#define MAPPED_SCALAR(name, FF, FD)                                                            \
  CT_MAP_SCALAR(name##_f32, float, float, CT_ID, CT_ID, FF(a))                                 \
  CT_MAP_SCALAR(name##_f64, double, double, CT_ID, CT_ID, FD(a))                               \
  CT_MAP_SCALAR(name##_bf16, uint16_t, float, ct__bfloat16_to_float, ct__float_to_bfloat16, FF(a)) \
  CT_VML_LOOP(name##_loop_f32, float, name##_f32)                                              \
  CT_VML_LOOP(name##_loop_f64, double, name##_f64)                                             \
  CT_VML_LOOP(name##_loop_bf16, uint16_t, name##_bf16)
MAPPED_SCALAR(erfinv, ct__erfinv_f, ct__erfinv_d)
MAPPED_SCALAR(i0, ct__i0_f, ct__i0_d)
static const ct_loop *const erfinv_loops[CT_NUM_DTYPES + 1] = {CT_REAL_LOOPS(erfinv)};
static const ct_loop *const i0_loops[CT_NUM_DTYPES + 1] = {CT_REAL_LOOPS(i0)};
const ct_pw_op ct__pw_op_erfinv = {CT_PW_OP("erfinv", "erfinv_vml_cpu", FLOAT, erfinv_loops)};
const ct_pw_op ct__pw_op_i0 = {CT_PW_OP("i0", "i0_vml_cpu", FLOAT, i0_loops)};

/* ---- digamma, trigamma, polygamma: scalar kernels; bfloat16 computes in float ---- */
#define SCALAR_REAL(name, FF, FD)                                                                          \
  CT_UNARY_LOOP(name##_loop_f32, float, float, CT_ID, float, CT_ID, FF)                                    \
  CT_UNARY_LOOP(name##_loop_f64, double, double, CT_ID, double, CT_ID, FD)                                 \
  CT_UNARY_LOOP(name##_loop_bf16, uint16_t, float, ct__bfloat16_to_float, uint16_t, ct__float_to_bfloat16, FF)
SCALAR_REAL(digamma, ct__digamma_f(a), ct__digamma_d(a))
SCALAR_REAL(trigamma, ct__trigamma_f(a), ct__trigamma_d(a))
#define PG_N (*(const int64_t *)ctx)
CT_UNARY_LOOP(polygamma_loop_f32, float, float, CT_ID, float, CT_ID, ct__polygamma_f(a, PG_N))
CT_UNARY_LOOP(polygamma_loop_f64, double, double, CT_ID, double, CT_ID, ct__polygamma_d(a, PG_N))
CT_UNARY_LOOP(polygamma_loop_bf16, uint16_t, float, ct__bfloat16_to_float, uint16_t, ct__float_to_bfloat16,
              ct__polygamma_bf(a, PG_N))
static const ct_loop *const digamma_loops[CT_NUM_DTYPES + 1] = {CT_REAL_LOOPS(digamma)};
static const ct_loop *const trigamma_loops[CT_NUM_DTYPES + 1] = {CT_REAL_LOOPS(trigamma)};
static const ct_loop *const polygamma_loops[CT_NUM_DTYPES + 1] = {CT_REAL_LOOPS(polygamma)};
const ct_pw_op ct__pw_op_digamma = {CT_PW_OP("digamma", "digamma", FLOAT, digamma_loops)};
static void polygamma_prepare(ct_dtype common, const void *args, ct_pw_ctx *ctx) {
  (void)common;
  memcpy(ctx->bytes, args, sizeof(int64_t));
}
static const ct_pw_op trigamma_op = {
    CT_PW_OP_ATEN("polygamma", ("aten::polygamma", "aten::polygamma.out", "aten::polygamma.out"), "trigamma",
                  FLOAT, trigamma_loops, DIFF)};
static const ct_pw_op polygamma_op = {
    CT_PW_OP_ATEN("polygamma", ("aten::polygamma", "aten::polygamma.out", "aten::polygamma.out"), "polygamma",
                  FLOAT, polygamma_loops, DIFF),
    .prepare = polygamma_prepare};

static const ct_pw_op *polygamma_kernel(int64_t n) {
  if (n < 0) {
    ct__error(CT_ERR_RUNTIME, "polygamma(n, x) does not support negative n.");
    return NULL;
  }
  return n == 0 ? &ct__pw_op_digamma : n == 1 ? &trigamma_op : &polygamma_op;
}
ct_tensor *ct_polygamma(int64_t n, const ct_tensor *t) {
  if (!t) return ct__null_ptr_arg("t");
  if (!CT__PW_ENTER(&polygamma_op, NULL, false, t)) return NULL;
  const ct_pw_op *op = polygamma_kernel(n);
  if (!op) return NULL;
  ct_tensor *r = NULL;
  ct__pw_run(op, NULL, &t, 1, false, &n, &r);
  return r;
}
ct_status ct_polygamma_(ct_tensor *self, int64_t n) {
  CT__NONNULL_STATUS(self);
  if (!CT__PW_ENTER(&polygamma_op, NULL, true, self)) return ct_last_error();
  const ct_pw_op *op = polygamma_kernel(n);
  if (!op) return CT_ERR_RUNTIME;
  const ct_tensor *in[1] = {self};
  return ct__pw_run(op, self, in, 1, true, &n, NULL);
}
ct_status ct_polygamma_out(ct_tensor *out, int64_t n, const ct_tensor *t) {
  CT__NONNULL_STATUS(t, out);
  if (!CT__OP_OUT_GRAD_OK(&polygamma_op.op, out, t)) return CT_ERR_RUNTIME;
  if (!CT__PW_ENTER(&polygamma_op, out, false, t)) return ct_last_error();
  const ct_pw_op *op = polygamma_kernel(n);
  if (!op) return CT_ERR_RUNTIME;
  return ct__pw_run(op, out, &t, 1, false, &n, NULL);
}
ct_tensor *ct_special_polygamma(int64_t n, const ct_tensor *t) { return ct_polygamma(n, t); }
ct_status ct_special_polygamma_out(ct_tensor *out, int64_t n, const ct_tensor *t) { return ct_polygamma_out(out, n, t); }

/* ---- sinc: sin(pi x) / (pi x), 1 at 0; a scalar kernel in the compute type (c10::pi<T> * x) ---- */
#define PI_D 3.14159265358979323846
static inline float sinc_f(float a) {
  if (a == 0.0f) return 1.0f;
  float p = (float)PI_D * a;
  return sinf(p) / p;
}
static inline double sinc_d(double a) {
  if (a == 0.0) return 1.0;
  double p = PI_D * a;
  return sin(p) / p;
}
static inline float sinc_bf(float a) {
  if (a == 0.0f) return 1.0f;
  float p = bf(bf((float)PI_D) * a);
  return bf(sinf(p)) / p;
}
static inline ct_c64 sinc_c64(ct_c64 a) {
  if (crealf(a) == 0.0f && cimagf(a) == 0.0f) return CMPLXF(1.0f, 0.0f);
  ct_c64 p = ct__c10_mul_f(CMPLXF((float)PI_D, 0.0f), a);
  ct_c64 s = csinf(p);
  return ct__c10_div_f(crealf(s), cimagf(s), p);
}
static inline ct_c128 sinc_c128(ct_c128 a) {
  if (creal(a) == 0.0 && cimag(a) == 0.0) return CMPLX(1.0, 0.0);
  ct_c128 p = ct__c10_mul_d(CMPLX(PI_D, 0.0), a);
  ct_c128 s = csin(p);
  return ct__c10_div_d(creal(s), cimag(s), p);
}
CT_UNARY_LOOP(sinc_loop_f32, float, float, CT_ID, float, CT_ID, sinc_f(a))
CT_UNARY_LOOP(sinc_loop_f64, double, double, CT_ID, double, CT_ID, sinc_d(a))
CT_UNARY_LOOP(sinc_loop_bf16, uint16_t, float, ct__bfloat16_to_float, uint16_t, ct__float_to_bfloat16, sinc_bf(a))
CT_UNARY_LOOP(sinc_loop_c64, ct_c64, ct_c64, CT_ID, ct_c64, CT_ID, sinc_c64(a))
CT_UNARY_LOOP(sinc_loop_c128, ct_c128, ct_c128, CT_ID, ct_c128, CT_ID, sinc_c128(a))
static const ct_loop *const sinc_loops[CT_NUM_DTYPES + 1] = {CT_REAL_LOOPS(sinc), CT_COMPLEX_LOOPS(sinc)};
const ct_pw_op ct__pw_op_sinc = {CT_PW_OP("sinc", "sinc_cpu", FLOAT, sinc_loops)};

/* ---- mvlgamma: sum_{j<p} lgamma(x - j/2) + p(p-1)/4 log(pi), computed as PyTorch's composite does:
   args = arange(-(p-1)/2, 1/2, 1/2) + x in the compute dtype, lgamma (SLEEF, as the vml kernel), a sum
   over the last dim from 0, then the constant added in the compute dtype. The result is contiguous. ---- */
/* Values staged per chunk; p may not exceed it. */
#define MVL_MAX_VALUES 4096
typedef struct mvl_ctx {
  int64_t p;
  double c; /* p(p-1)/4 log(pi) */
} mvl_ctx;

/* The sum over the last dim as PyTorch's cascade_sum does it for a contiguous row of n values:
   rows shorter than a vector go through row_sum (4 interleaved partial sums, combined at the end;
   multi_row_sum's levels for long rows), longer ones through vectorized_inner_sum (the same over
   W-lane vectors, then the scalar tail, then the lanes); the result is added to the zero-filled output.
   VS is Vectorized<T>::size() on AVX2 and W the lanes of the accumulator. */
#define DEF_ROW_SUM(name, T, VW, VS)                                                                    \
  static void name##_lanes(const T *items, int64_t n, int W, T *out) { /* row_sum, n items of W lanes */ \
    enum { ILP = 4, LEVELS = 4 };                                                                      \
    int64_t rows = n / ILP;                                                                            \
    int64_t cl = 1;                                                                                    \
    if (rows > 2) {                                                                                    \
      cl = 64 - __builtin_clzll((unsigned long long)(rows - 1)) + 0;                                   \
    }                                                                                                  \
    int64_t level_power = cl / LEVELS > 4 ? cl / LEVELS : 4;                                           \
    int64_t step = (int64_t)1 << level_power, mask = step - 1;                                         \
    T acc[LEVELS][ILP][8];                                                                             \
    memset(acc, 0, sizeof acc);                                                                        \
    int64_t i = 0;                                                                                     \
    while (i + step <= rows) {                                                                         \
      for (int64_t j = 0; j < step; ++j, ++i)                                                          \
        for (int k = 0; k < ILP; k++)                                                                  \
          for (int l = 0; l < W; l++) acc[0][k][l] += items[(i * ILP + k) * W + l];                    \
      for (int j = 1; j < LEVELS; j++) {                                                               \
        for (int k = 0; k < ILP; k++)                                                                  \
          for (int l = 0; l < W; l++) {                                                                \
            acc[j][k][l] += acc[j - 1][k][l];                                                          \
            acc[j - 1][k][l] = 0;                                                                      \
          }                                                                                            \
        if ((i & (mask << (j * level_power))) != 0) break;                                             \
      }                                                                                                \
    }                                                                                                  \
    for (; i < rows; i++)                                                                              \
      for (int k = 0; k < ILP; k++)                                                                    \
        for (int l = 0; l < W; l++) acc[0][k][l] += items[(i * ILP + k) * W + l];                      \
    for (int j = 1; j < LEVELS; j++)                                                                   \
      for (int k = 0; k < ILP; k++)                                                                    \
        for (int l = 0; l < W; l++) acc[0][k][l] += acc[j][k][l];                                      \
    for (int64_t t = rows * ILP; t < n; t++)                                                           \
      for (int l = 0; l < W; l++) acc[0][0][l] += items[t * W + l];                                    \
    for (int k = 1; k < ILP; k++)                                                                      \
      for (int l = 0; l < W; l++) acc[0][0][l] += acc[0][k][l];                                        \
    for (int l = 0; l < W; l++) out[l] = acc[0][0][l];                                                 \
  }                                                                                                    \
  static T name(const T *x, int64_t n) {                                                               \
    T r;                                                                                               \
    if (n < (VS)) {                                                                                    \
      name##_lanes(x, n, 1, &r);                                                                       \
    } else {                                                                                           \
      int64_t nv = n / (VS);                                                                           \
      T lanes[VW];                                                                                      \
      name##_vec_items(x, nv, lanes);                                                                  \
      r = 0;                                                                                           \
      for (int64_t k = nv * (VS); k < n; k++) r += x[k];                                               \
      for (int l = 0; l < VW; l++) r += lanes[l];                                                       \
    }                                                                                                  \
    return (T)0 + r;                                                                                   \
  }
/* float and double vectors load VS = W values; bfloat16's 16 values load as two float halves added. */
static void row_sum_f32_lanes(const float *items, int64_t n, int W, float *out);
static void row_sum_f64_lanes(const double *items, int64_t n, int W, double *out);
static void row_sum_bf16_lanes(const float *items, int64_t n, int W, float *out);
static void row_sum_f32_vec_items(const float *x, int64_t nv, float *lanes) { row_sum_f32_lanes(x, nv, 8, lanes); }
static void row_sum_f64_vec_items(const double *x, int64_t nv, double *lanes) { row_sum_f64_lanes(x, nv, 4, lanes); }
static void row_sum_bf16_vec_items(const float *x, int64_t nv, float *lanes) {
  float items[MVL_MAX_VALUES / 2];
  for (int64_t i = 0; i < nv; i++)
    for (int l = 0; l < 8; l++) items[i * 8 + l] = x[i * 16 + l] + x[i * 16 + 8 + l];
  row_sum_bf16_lanes(items, nv, 8, lanes);
}
DEF_ROW_SUM(row_sum_f32, float, 8, 8)
DEF_ROW_SUM(row_sum_f64, double, 4, 4)
DEF_ROW_SUM(row_sum_bf16, float, 8, 16)

/* lgamma over the p values x + a_k of each element, then the row sum and the constant. Chunks hold
   whole rows; a row longer than the buffer (p > MVL_MAX_VALUES) is summed block by block in order,
   which is no longer PyTorch's exact order. */
#define DEF_MVL(name, T, ST, LOAD, ROUND, STORE, LGMAP, ROWSUM, CONST)                                    \
  static void name(void *y_, const void *x_, int64_t n, const void *ctx) {                              \
    const mvl_ctx *c = ctx;                                                                             \
    ST *y = y_;                                                                                         \
    const ST *x = x_;                                                                                   \
    T vals[MVL_MAX_VALUES];                                                                             \
    const int64_t p = c->p;                                                                             \
    const T cst = CONST;                                                                                \
    int64_t per = MVL_MAX_VALUES / p;                                                                   \
    if (per == 0) {                                                                                     \
      for (int64_t i = 0; i < n; i++) {                                                                 \
        T xi = LOAD(x[i]), acc = 0;                                                                     \
        for (int64_t k0 = 0; k0 < p; k0 += MVL_MAX_VALUES) {                                            \
          int64_t b = p - k0 < MVL_MAX_VALUES ? p - k0 : MVL_MAX_VALUES;                                \
          for (int64_t k = 0; k < b; k++)                                                               \
            vals[k] = ROUND(ROUND((T)(-(double)p * 0.5 + 0.5 + 0.5 * (double)(k0 + k))) + xi);          \
          LGMAP(vals, vals, b, NULL);                                                                   \
          for (int64_t k = 0; k < b; k++) acc += ROUND(vals[k]);                                        \
        }                                                                                               \
        y[i] = STORE(ROUND((T)0 + acc) + cst, (const char *)(y + i), c);                                \
      }                                                                                                 \
      return;                                                                                           \
    }                                                                                                   \
    for (int64_t off = 0; off < n; off += per) {                                                        \
      int64_t m = n - off < per ? n - off : per;                                                        \
      for (int64_t i = 0; i < m; i++) {                                                                 \
        T xi = LOAD(x[off + i]);                                                                        \
        for (int64_t k = 0; k < p; k++) vals[i * p + k] = ROUND(ROUND((T)(-(double)p * 0.5 + 0.5 + 0.5 * (double)k)) + xi); \
      }                                                                                                 \
      LGMAP(vals, vals, m * p, NULL);                                                                   \
      for (int64_t i = 0; i < m; i++) {                                                                 \
        for (int64_t k = 0; k < p; k++) vals[i * p + k] = ROUND(vals[i * p + k]);                       \
        y[off + i] = STORE(ROUND(ROWSUM(vals + i * p, p)) + cst, (const char *)(y + off + i), c);        \
      }                                                                                                 \
    }                                                                                                   \
  }
#define MVL_ID(x) (x)
#define MVL_STORE(x, at, c) (x)
#define MVL_STORE_BF16(x, at, c) ct__float_to_bfloat16(x)
DEF_MVL(mvlgamma_f32, float, float, MVL_ID, MVL_ID, MVL_STORE, lgamma_f32, row_sum_f32, (float)c->c)
DEF_MVL(mvlgamma_f64, double, double, MVL_ID, MVL_ID, MVL_STORE, lgamma_f64, row_sum_f64, c->c)
DEF_MVL(mvlgamma_bf16, float, uint16_t, ct__bfloat16_to_float, bf, MVL_STORE_BF16, lgamma_f32, row_sum_bf16,
        bf((float)c->c))
CT_VML_LOOP(mvlgamma_loop_f32, float, mvlgamma_f32)
CT_VML_LOOP(mvlgamma_loop_f64, double, mvlgamma_f64)
CT_VML_LOOP(mvlgamma_loop_bf16, uint16_t, mvlgamma_bf16)
static const ct_loop *const mvlgamma_loops[CT_NUM_DTYPES + 1] = {CT_REAL_LOOPS(mvlgamma)};
static void mvlgamma_prepare(ct_dtype common, const void *args, ct_pw_ctx *ctx) {
  (void)common;
  memcpy(ctx->bytes, args, sizeof(mvl_ctx));
}
static const ct_pw_op mvlgamma_op = {CT_PW_OP("mvlgamma", "lgamma_vml_cpu", FLOAT, mvlgamma_loops),
                                     .prepare = mvlgamma_prepare};

/* A block of n bytes on device could be allocated: the allocation PyTorch's composite makes, tried (and
   given back untouched) so that it fails where PyTorch's fails, with its out-of-memory error. Blocks up
   to 1 GiB are taken to succeed without trying. */
static bool mvlgamma_could_allocate(uint64_t n, ct_device device) {
  if (n <= ((uint64_t)1 << 30) || device.type == CT_META) return true;
  ct_storage *s = ct__storage_alloc((size_t)n, device);
  ct_storage_release(s);
  return s != NULL;
}

/* PyTorch's composite materialises arange(p) ((p) values) and then args = arange + t.unsqueeze(-1)
   ([*t.shape, p] values) before its first lgamma, so its time, O(numel * p) like ctorch's, is bounded by
   what those allocations allow: a huge p fails at once, with their errors (a size that is not an int64,
   "Storage size calculation overflowed", out of memory). ctorch needs neither block but refuses where
   they cannot be made, instead of computing for hours. dt is the compute dtype. */
static bool mvlgamma_arange_fits(const ct_tensor *t, int64_t p, ct_dtype dt, bool ref, uint64_t *elems) {
  /* arange(-(p - 1) / 2, 1/2, 1/2), or torch/_refs' arange(1 - p, 1, 1): its size is computed in double */
  double size_d =
      ref ? ceil(1.0 - (double)(int64_t)(1 - (uint64_t)p)) : ceil((0.5 - (-(double)p * 0.5 + 0.5)) / 0.5);
  if (size_d >= 9223372036854775808.0) {
    ct__error(CT_ERR_RUNTIME, "IntArrayRef contains an int that cannot be represented as a SymInt: %lld",
              (long long)INT64_MIN);
    return false;
  }
  int64_t n = (int64_t)size_d;
  uint64_t bytes;
  if (!ct__storage_nbytes(1, &n, NULL, ct__itemsize(dt), 0, &bytes)) return false;
  if (!mvlgamma_could_allocate(bytes, ct__tdevice(t))) return false;
  *elems = (uint64_t)n;
  return true;
}

static bool mvlgamma_args_fit(const ct_tensor *t, uint64_t p, ct_dtype dt) {
  int64_t small[17];
  int64_t nd = t->ndim + 1;
  int64_t *sizes = nd <= 17 ? small : ct__malloc((size_t)nd * sizeof *sizes);
  if (!sizes) return false;
  if (t->ndim) memcpy(sizes, t->sizes, (size_t)t->ndim * sizeof *sizes);
  sizes[nd - 1] = (int64_t)p;
  uint64_t bytes;
  bool ok = ct__storage_nbytes(nd, sizes, NULL, ct__itemsize(dt), 0, &bytes) &&
            mvlgamma_could_allocate(bytes, ct__tdevice(t));
  if (sizes != small) ct__free(sizes);
  return ok;
}

/* mvlgamma_check, then what fails in the composite, in its order: arange's kernel dispatch (complex),
   its step (integers in place, whose step 0.5 becomes 0), its size and block, args' block, then lgamma
   (float16). ref: torch/_refs' multigammaln instead (mvlgamma.out's Meta kernel), which converts a bool or
   integral self to the default dtype without a check and whose arange(1 - p, 1, 1) refuses p < 0 after its
   kernel dispatch. */
static bool mvlgamma_check(const ct_tensor *t, int64_t p, bool inplace, bool ref) {
  ct_dtype d = (ct_dtype)t->dtype;
  if (d == CT_BOOL && !ref) {
    ct__error(CT_ERR_RUNTIME, "The input tensor may not be a boolean tensor.");
    return false;
  }
  if (p < 1 && !ref) {
    ct__error(CT_ERR_RUNTIME, "p has to be greater than or equal to 1");
    return false;
  }
  if (ct__dt(d)->category == CT_CAT_COMPLEX) {
    ct__error(CT_ERR_RUNTIME, "\"arange_cpu\" not implemented for '%s'", ct__dt(d)->scalar_name);
    return false;
  }
  if (p < 0) { /* p = 0: an empty arange, an empty sum */
    ct__error(CT_ERR_RUNTIME, "upper bound and larger bound inconsistent with step sign");
    return false;
  }
  if (inplace && ct__dt(d)->category == CT_CAT_INT) {
    ct__error(CT_ERR_RUNTIME, "step must be nonzero");
    return false;
  }
  ct_dtype dt = ct__dt(d)->category <= CT_CAT_INT ? ct_get_default_dtype() : d;
  uint64_t elems;
  if (!mvlgamma_arange_fits(t, p, dt, ref, &elems)) return false;
  if (!mvlgamma_args_fit(t, elems, dt)) return false;
  /* the CPU kernel's refusal (arange's is on the CPU); the reference computes float16 in float32 */
  if (d == CT_FLOAT16 && t->device_type != CT_META && !ref) {
    ct__error(CT_ERR_RUNTIME, "\"lgamma_vml_cpu\" not implemented for 'Half'");
    return false;
  }
  return true;
}

/* mvlgamma(t, p) into a new contiguous tensor (not registered with a scope): PyTorch's composite
   computes in t's dtype (the default float for integers); in place and out= copy from it. */
static ct_tensor *mvlgamma_new(const ct_tensor *t, int64_t p, bool inplace, bool ref) {
  if (!mvlgamma_check(t, p, inplace, ref)) return NULL;
  ct_dtype d = (ct_dtype)t->dtype;
  if (ct__dt(d)->category <= CT_CAT_INT) d = ct_get_default_dtype();
  ct_tensor *r = ct__empty(t->ndim, t->sizes, d, ct__tdevice(t));
  if (!r) return NULL;
  /* p * (p - 1) in int64 as PyTorch computes it (wrapping instead of overflowing) */
  mvl_ctx c = {p, (double)(int64_t)((uint64_t)p * (uint64_t)(p - 1)) * log(PI_D) * 0.25};
  /* ref: a call on meta, where the values are never read (a CPU t's result only meets out_wrapper's refusal of
     the meta out), so nothing is computed */
  if (!ref && ct__pw_run(&mvlgamma_op, r, &t, 1, false, &c, NULL) != CT_OK) {
    ct_release(r);
    return NULL;
  }
  return r;
}

ct_tensor *ct_mvlgamma(const ct_tensor *t, int64_t p) {
  if (!t) return ct__null_ptr_arg("t");
  if (!CT__PW_ENTER(&mvlgamma_op, NULL, false, t)) return NULL;
  return ct__own(mvlgamma_new(t, p, false, false));
}

ct_status ct_mvlgamma_(ct_tensor *self, int64_t p) {
  CT__NONNULL_STATUS(self);
  if (!CT__PW_ENTER(&mvlgamma_op, NULL, true, self)) return ct_last_error();
  if (!ct__check_inplace(self)) return CT_ERR_RUNTIME;
  ct_tensor *r = mvlgamma_new(self, p, true, false);
  if (!r) return ct_last_error();
  ct_status s = ct__copy_into(self, r);
  ct_release(r);
  return s;
}

/* PyTorch computes mvlgamma(t, p), checks the cast (its message names the input's dtype, then the
   result's), resizes out like resize_output and copies. */
ct_status ct_mvlgamma_out(ct_tensor *out, const ct_tensor *t, int64_t p) {
  CT__NONNULL_STATUS(t, out);
  if (!CT__OP_OUT_GRAD_OK(&mvlgamma_op.op, out, t)) return CT_ERR_RUNTIME;
  if (!CT__PW_ENTER(&mvlgamma_op, out, false, t)) return ct_last_error();
  bool meta = CT__OP_ON_META(out, t); /* its Meta kernel: torch/_refs' multigammaln under out_wrapper */
  ct_tensor *r = mvlgamma_new(t, p, false, meta);
  if (!r) return ct_last_error();
  if (meta) {
    ct_status s = ct__out_wrapper_copy(out, r);
    ct_release(r);
    return s;
  }
  ct_status s = CT_OK;
  if (!ct_can_cast((ct_dtype)r->dtype, (ct_dtype)out->dtype)) {
    ct__error(CT_ERR_RUNTIME, "mvlgamma: result type %s can't be cast to the desired output type %s",
              ct__dt((ct_dtype)t->dtype)->scalar_name, ct__dt((ct_dtype)r->dtype)->scalar_name);
    s = CT_ERR_RUNTIME;
  }
  if (s == CT_OK && !ct__check_copy_devices(out, r)) s = CT_ERR_RUNTIME; /* before resize_output touches out */
  bool same = s == CT_OK && out->ndim == r->ndim;
  for (int64_t i = 0; same && i < r->ndim; i++) same = out->sizes[i] == r->sizes[i];
  if (s == CT_OK && !same) s = ct__tensor_resize(out, r->ndim, r->sizes, NULL);
  if (s == CT_OK) s = ct__copy_into(out, r);
  ct_release(r);
  return s;
}
ct_tensor *ct_special_multigammaln(const ct_tensor *t, int64_t p) { return ct_mvlgamma(t, p); }
ct_status ct_special_multigammaln_out(ct_tensor *out, const ct_tensor *t, int64_t p) {
  return ct_mvlgamma_out(out, t, p);
}
