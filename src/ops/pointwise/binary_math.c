/* Binary math: atan2, hypot, logaddexp, logaddexp2, nextafter, copysign, xlogy (arctan2 and
   torch.special.xlogy are aliases in the op table). The vectorized part of a row uses the SLEEF functions
   torch's Vectorized calls, the rest glibc, as torch does (binary_common.h), so results match torch bit
   for bit. */
/* The loops never rely on floating-point exception flags; telling GCC so lets it evaluate both sides of
   the formulas' selects and vectorize them (torch 1.13 is built the same way). */
/* GCC builds this file with -fno-trapping-math (CMakeLists.txt: CT_FP_RELAXED_SOURCES). */

#include "ops/pointwise/binary_common.h"

#define BF(x) ct__bfloat16_to_float(x)
#define H(x) ct__half_to_float(x)

/* ---- atan2, hypot: SLEEF vectorized, glibc scalar; bfloat16 computes in float and rounds ---- */
#define SL2_LOOPS(name)                                                                  \
  CT_VS_LOOP2(name##_CT_FLOAT32, float, CT_W_F32, name##_f32_vb, name##_f32_s)           \
  CT_VS_LOOP2(name##_CT_FLOAT64, double, CT_W_F64, name##_f64_vb, name##_f64_s)          \
  CT_VS_LOOP2(name##_CT_BFLOAT16, uint16_t, CT_W_R16, name##_bf_vb, name##_bf_s)         \
  static const ct_loop *const name##_loops[CT_NUM_DTYPES + 1] = {                            \
      [CT_BFLOAT16] = CT_LOOP_REF(name##_CT_BFLOAT16),                                                \
      [CT_FLOAT32] = CT_LOOP_REF(name##_CT_FLOAT32),                                                  \
      [CT_FLOAT64] = CT_LOOP_REF(name##_CT_FLOAT64),                                                  \
  };

CT_SL2_BLOCKS(atan2, CT_SL_ATAN2)
CT_SL2_SCALAR_FNS(atan2, atan2f, atan2)
SL2_LOOPS(atan2)
CT_SL2_BLOCKS(hypot, CT_SL_HYPOT)
CT_SL2_SCALAR_FNS(hypot, hypotf, hypot)
SL2_LOOPS(hypot)

/* nextafter: bfloat16 has c10's own bit-stepping nextafter (musl's) on every path */
CT_SL2_BLOCKS(nextafter, CT_SL_NEXTAFTER)
static inline float nextafter_f32_s(float a, float b, const void *c) {
  (void)c;
  return nextafterf(a, b);
}
static inline double nextafter_f64_s(double a, double b, const void *c) {
  (void)c;
  return nextafter(a, b);
}
static inline uint16_t nextafter_bf_s(uint16_t from, uint16_t to, const void *c) {
  (void)c;
  float f = BF(from), t = BF(to);
  if (f != f || t != t) return ct__float_to_bfloat16(f + t);
  if (from == to) return from;
  uint16_t af = from & 0x7FFF, at = to & 0x7FFF;
  if (af == 0) return at == 0 ? to : (uint16_t)((to & 0x8000) | 1);
  return (af > at || ((from ^ to) & 0x8000)) ? (uint16_t)(from - 1) : (uint16_t)(from + 1);
}
CT_VS_LOOP2(nextafter_CT_FLOAT32, float, CT_W_F32, nextafter_f32_vb, nextafter_f32_s)
CT_VS_LOOP2(nextafter_CT_FLOAT64, double, CT_W_F64, nextafter_f64_vb, nextafter_f64_s)
CT_BINARY_LOOP(nextafter_CT_BFLOAT16, uint16_t, uint16_t, CT_ID, uint16_t, CT_ID, nextafter_bf_s(a, b, ctx))
static const ct_loop *const nextafter_loops[CT_NUM_DTYPES + 1] = {
    [CT_BFLOAT16] = CT_LOOP_REF(nextafter_CT_BFLOAT16),
    [CT_FLOAT32] = CT_LOOP_REF(nextafter_CT_FLOAT32),
    [CT_FLOAT64] = CT_LOOP_REF(nextafter_CT_FLOAT64),
};

/* ---- logaddexp, logaddexp2 ----
   vectorized: m = maximum(a, b) (NaN-propagating); m + log(1 + exp(-|a - b|)) (base 2:
   m + log2(1 + pow(2, -|a - b|))), a where a == b == +-inf. Scalar: a if isinf(a) && a == b, else the same
   with m = std::max(a, b) and glibc. bfloat16 computes in float. */
/* the loop context's first byte says which base: 0 for e, 1 for 2 */
static inline bool base2(const void *c) { return ((const ct_pw_ctx *)c)->bytes[0] != 0; }
static void lae_f32_vb(float *o, const float *a, bool as, const float *b, bool bs, int64_t n, const void *c) {
  ct__logaddexp_f32(o, a, as, b, bs, n, base2(c));
}
static void lae_f64_vb(double *o, const double *a, bool as, const double *b, bool bs, int64_t n, const void *c) {
  ct__logaddexp_f64(o, a, as, b, bs, n, base2(c));
}
static inline float lae_f32_s(float a, float b, const void *c) {
  if (isinf(a) && a == b) return a;
  float m = a < b ? b : a, t = -fabsf(a - b);
  return base2(c) ? m + log2f(1.0f + powf(2.0f, t)) : m + logf(1.0f + expf(t));
}
static inline double lae_f64_s(double a, double b, const void *c) {
  if (isinf(a) && a == b) return a;
  double m = a < b ? b : a, t = -fabs(a - b);
  return base2(c) ? m + log2(1.0 + pow(2.0, t)) : m + log(1.0 + exp(t));
}
/* bfloat16 computes in float and rounds once */
static inline uint16_t lae_bf_s(uint16_t x, uint16_t y, const void *c) {
  return ct__float_to_bfloat16(lae_f32_s(BF(x), BF(y), c));
}
static void lae_bf_vb(uint16_t *o, const uint16_t *a, bool as, const uint16_t *b, bool bs, int64_t n, const void *c) {
  float fa[CT_BIN_CHUNK], fb[CT_BIN_CHUNK], r[CT_BIN_CHUNK];
  for (int64_t k0 = 0; k0 < n; k0 += CT_BIN_CHUNK) {
    int64_t m = n - k0 < CT_BIN_CHUNK ? n - k0 : CT_BIN_CHUNK;
    for (int64_t k = 0; k < m; k++) {
      fa[k] = BF(a[as ? k0 + k : 0]);
      fb[k] = BF(b[bs ? k0 + k : 0]);
    }
    ct__logaddexp_f32(r, fa, true, fb, true, m, base2(c));
    for (int64_t k = 0; k < m; k++) o[k0 + k] = ct__float_to_bfloat16(r[k]);
  }
}
CT_VS_LOOP2(lae_CT_FLOAT32, float, CT_W_F32, lae_f32_vb, lae_f32_s)
CT_VS_LOOP2(lae_CT_FLOAT64, double, CT_W_F64, lae_f64_vb, lae_f64_s)
CT_VS_LOOP2(lae_CT_BFLOAT16, uint16_t, CT_W_R16, lae_bf_vb, lae_bf_s)
static const ct_loop *const lae_loops[CT_NUM_DTYPES + 1] = {
    [CT_BFLOAT16] = CT_LOOP_REF(lae_CT_BFLOAT16),
    [CT_FLOAT32] = CT_LOOP_REF(lae_CT_FLOAT32),
    [CT_FLOAT64] = CT_LOOP_REF(lae_CT_FLOAT64),
};
/* The loops' context: whether the op is logaddexp2. */
static void lae_prepare(ct_dtype common, const void *args, ct_pw_ctx *ctx) {
  (void)common;
  (void)args;
  ctx->bytes[0] = 0;
}
static void lae2_prepare(ct_dtype common, const void *args, ct_pw_ctx *ctx) {
  (void)common;
  (void)args;
  ctx->bytes[0] = 1;
}

/* ---- copysign: the sign bit of b on a (bit operations for every dtype, NaN payloads kept) ---- */
CT_BINARY_LOOP(copysign_CT_FLOAT32, float, float, CT_ID, float, CT_ID, copysignf(a, b))
CT_BINARY_LOOP(copysign_CT_FLOAT64, double, double, CT_ID, double, CT_ID, copysign(a, b))
CT_BINARY_LOOP(copysign_R16, uint16_t, uint16_t, CT_ID, uint16_t, CT_ID, (uint16_t)((a & 0x7FFF) | (b & 0x8000)))
static const ct_loop *const copysign_loops[CT_NUM_DTYPES + 1] = {
    [CT_FLOAT16] = CT_LOOP_REF(copysign_R16),
    [CT_BFLOAT16] = CT_LOOP_REF(copysign_R16),
    [CT_FLOAT32] = CT_LOOP_REF(copysign_CT_FLOAT32),
    [CT_FLOAT64] = CT_LOOP_REF(copysign_CT_FLOAT64),
};

/* ---- xlogy: NaN if y is NaN, 0 if x == 0, else x * log(y) (scalar loop in torch too) ---- */
static inline float xlogy_f(float x, float y) {
  if (isnan(y)) return NAN;
  if (x == 0) return 0.0f;
  return x * logf(y);
}
static inline double xlogy_d(double x, double y) {
  if (isnan(y)) return NAN;
  if (x == 0) return 0.0;
  return x * log(y);
}
CT_BINARY_LOOP(xlogy_CT_FLOAT32, float, float, CT_ID, float, CT_ID, xlogy_f(a, b))
CT_BINARY_LOOP(xlogy_CT_FLOAT64, double, double, CT_ID, double, CT_ID, xlogy_d(a, b))
/* float16: std::log(Half) is float, one rounding; bfloat16: std::log(BFloat16) rounds, then the product */
CT_BINARY_LOOP(xlogy_CT_FLOAT16, uint16_t, float, ct__half_to_float, uint16_t, ct__float_to_half, xlogy_f(a, b))
CT_BINARY_LOOP(xlogy_CT_BFLOAT16, uint16_t, float, ct__bfloat16_to_float, uint16_t, ct__float_to_bfloat16,
               isnan(b) ? NAN : a == 0 ? 0.0f : ct__rb(logf(b)) * a)
static const ct_loop *const xlogy_loops[CT_NUM_DTYPES + 1] = {
    [CT_FLOAT16] = CT_LOOP_REF(xlogy_CT_FLOAT16),
    [CT_BFLOAT16] = CT_LOOP_REF(xlogy_CT_BFLOAT16),
    [CT_FLOAT32] = CT_LOOP_REF(xlogy_CT_FLOAT32),
    [CT_FLOAT64] = CT_LOOP_REF(xlogy_CT_FLOAT64),
};

/* ---- ops ---- */
const ct_pw_op ct__pw_op_atan2 = {CT_PW_OP("atan2", "atan2_cpu", COMMON_FLOAT, atan2_loops),
                                  .run = ct__bin_pw_run};
const ct_pw_op ct__pw_op_hypot = {CT_PW_OP("hypot", "hypot_cpu", COMMON, hypot_loops), .run = ct__bin_pw_run};
const ct_pw_op ct__pw_op_nextafter = {CT_PW_OP("nextafter", "nextafter_cpu", COMMON, nextafter_loops),
                                      .run = ct__bin_pw_run};
const ct_pw_op ct__pw_op_copysign = {
    CT_PW_OP_ATEN("copysign", ("aten::copysign.Tensor", "aten::copysign_.Tensor", "aten::copysign.out"),
                  "copysign_cpu", COMMON_FLOAT, copysign_loops, DIFF),
    .run = ct__bin_pw_run};
const ct_pw_op ct__pw_op_xlogy = {
    CT_PW_OP_ATEN("xlogy", ("aten::xlogy.Tensor", "aten::xlogy_.Tensor", "aten::xlogy.OutTensor"),
                  "xlogy_cpu", COMMON_FLOAT, xlogy_loops, DIFF),
    .run = ct__bin_pw_run};
const ct_pw_op ct__pw_op_logaddexp = {CT_PW_OP("logaddexp", "logaddexp_cpu", COMMON, lae_loops),
                                      .prepare = lae_prepare, .run = ct__bin_pw_run};
const ct_pw_op ct__pw_op_logaddexp2 = {CT_PW_OP("logaddexp2", "logaddexp2_cpu", COMMON, lae_loops),
                                       .prepare = lae2_prepare, .run = ct__bin_pw_run};
