/* maximum, minimum (NaN-propagating) and fmax, fmin (NaN-ignoring). No complex support, as in PyTorch.
   The vectorized rows of maximum/minimum are _mm256_max_ps / _mm256_min_ps (b wins ties, so
   maximum(-0., 0.) is 0.) with NaN propagated; the scalar ones are std::max / std::min (a wins ties). Which NaN comes out is
   not reproduced (docs/ARCHITECTURE.md "NaN policy"). */
/* The loops never rely on floating-point exception flags; telling GCC so lets it evaluate both sides of
   the formulas' selects and vectorize them (torch 1.13 is built the same way). */
/* GCC builds this file with -fno-trapping-math (CMakeLists.txt: CT_FP_RELAXED_SOURCES). */

#include "ops/pointwise/binary_common.h"

#define BF(x) ct__bfloat16_to_float(x)
#define H(x) ct__half_to_float(x)


/* ---- maximum ---- */
#define MAX_V(a, b, NANV) (((a) != (a) || (b) != (b)) ? (NANV) : ((a) > (b) ? (a) : (b)))
#define MIN_V(a, b, NANV) (((a) != (a) || (b) != (b)) ? (NANV) : ((a) < (b) ? (a) : (b)))
#define MAX_S(a, b, NANV) (((a) != (a) || (b) != (b)) ? (NANV) : ((a) < (b) ? (b) : (a)))
#define MIN_S(a, b, NANV) (((a) != (a) || (b) != (b)) ? (NANV) : ((b) < (a) ? (b) : (a)))

#define DEF_FLOAT_MINMAX(name, VOP, SOP)                                                                    \
  static inline float name##_f32_v(float a, float b, const void *c) {                                      \
    (void)c;                                                                                                \
    return VOP(a, b, NAN);                                                                        \
  }                                                                                                         \
  static inline float name##_f32_s(float a, float b, const void *c) {                                      \
    (void)c;                                                                                                \
    return SOP(a, b, NAN);                                                                                  \
  }                                                                                                         \
  static inline double name##_f64_v(double a, double b, const void *c) {                                   \
    (void)c;                                                                                                \
    return VOP(a, b, (double)NAN);                                                                        \
  }                                                                                                         \
  static inline double name##_f64_s(double a, double b, const void *c) {                                   \
    (void)c;                                                                                                \
    return SOP(a, b, (double)NAN);                                                                          \
  }                                                                                                         \
  /* Vectorized<BFloat16> and scalar: in float (ties resolved as above)  */                               \
  static inline uint16_t name##_bf_v(uint16_t x, uint16_t y, const void *c) {                              \
    (void)c;                                                                                                \
    float a = BF(x), b = BF(y);                                                                             \
    return (a != a || b != b) ? (uint16_t)0x7FC0 : ct__float_to_bfloat16(VOP(a, b, 0.0f));                 \
  }                                                                                                         \
  static inline uint16_t name##_bf_s(uint16_t x, uint16_t y, const void *c) {                              \
    (void)c;                                                                                                \
    float a = BF(x), b = BF(y);                                                                             \
    return (a != a || b != b) ? (uint16_t)0x7FC0 : ct__float_to_bfloat16(SOP(a, b, 0.0f));                 \
  }                                                                                                         \
  CT_VBLOCK_ELEM(name##_f32_vb, float, name##_f32_v)                                                        \
  CT_VBLOCK_ELEM(name##_f64_vb, double, name##_f64_v)                                                       \
  CT_VBLOCK_ELEM(name##_bf_vb, uint16_t, name##_bf_v)                                                       \
  CT_VS_LOOP2(name##_CT_FLOAT32, float, CT_W_F32, name##_f32_vb, name##_f32_s)                              \
  CT_VS_LOOP2(name##_CT_FLOAT64, double, CT_W_F64, name##_f64_vb, name##_f64_s)                             \
  CT_VS_LOOP2(name##_CT_BFLOAT16, uint16_t, CT_W_R16, name##_bf_vb, name##_bf_s)
DEF_FLOAT_MINMAX(max, MAX_V, MAX_S)
DEF_FLOAT_MINMAX(min, MIN_V, MIN_S)

/* float16: the generic Vectorized<Half> keeps a NaN a (else the comparison's pick); the scalar path
   returns quiet_NaN (0x7E00) */
static inline uint16_t max_h_v(uint16_t x, uint16_t y, const void *c) {
  (void)c;
  float a = H(x), b = H(y);
  return a != a ? x : (a > b ? x : y);
}
static inline uint16_t min_h_v(uint16_t x, uint16_t y, const void *c) {
  (void)c;
  float a = H(x), b = H(y);
  return a != a ? x : (a < b ? x : y);
}
static inline uint16_t max_h_s(uint16_t x, uint16_t y, const void *c) {
  (void)c;
  float a = H(x), b = H(y);
  return (a != a || b != b) ? (uint16_t)0x7E00 : (a < b ? y : x);
}
static inline uint16_t min_h_s(uint16_t x, uint16_t y, const void *c) {
  (void)c;
  float a = H(x), b = H(y);
  return (a != a || b != b) ? (uint16_t)0x7E00 : (b < a ? y : x);
}
CT_VBLOCK_ELEM(max_h_vb, uint16_t, max_h_v)
CT_VBLOCK_ELEM(min_h_vb, uint16_t, min_h_v)
CT_VS_LOOP2(max_CT_FLOAT16, uint16_t, CT_W_R16, max_h_vb, max_h_s)
CT_VS_LOOP2(min_CT_FLOAT16, uint16_t, CT_W_R16, min_h_vb, min_h_s)

/* integers: both paths agree; bool: || and && */
#define DEF_INT_MINMAX(E, T, CT, LD, ST)                                           \
  CT_BINARY_LOOP(max_##E, T, T, CT_ID, T, CT_ID, (a < b ? b : a))                   \
  CT_BINARY_LOOP(min_##E, T, T, CT_ID, T, CT_ID, (b < a ? b : a))
CT_DT_INTEGRAL(DEF_INT_MINMAX)
CT_BINARY_LOOP(max_CT_BOOL, uint8_t, bool, CT_LDB, bool, CT_ID, a || b)
CT_BINARY_LOOP(min_CT_BOOL, uint8_t, bool, CT_LDB, bool, CT_ID, a && b)

#define ENTRY(E, T, CT, LD, ST) [E] = CT_LOOP_REF(max_##E),
static const ct_loop *const max_loops[CT_NUM_DTYPES + 1] = {CT_DT_BOOL(ENTRY) CT_DT_INTEGRAL(ENTRY) CT_DT_FLOATING(ENTRY)};
#undef ENTRY
#define ENTRY(E, T, CT, LD, ST) [E] = CT_LOOP_REF(min_##E),
static const ct_loop *const min_loops[CT_NUM_DTYPES + 1] = {CT_DT_BOOL(ENTRY) CT_DT_INTEGRAL(ENTRY) CT_DT_FLOATING(ENTRY)};
#undef ENTRY

/* ---- fmax / fmin (a scalar loop in torch); integers as maximum. What torch's builds of std::fmax give:
   float and double keep a on ties (fmax(0., -0.) is 0.), return the number when one side is a quiet NaN,
   a signaling NaN (quieted) when one side is one, and b (quieted) when both are NaN; float16 and bfloat16
   (glibc's fmaxf) keep b on ties and return a when both are NaN. ---- */
static inline bool snan_f(float x) { return x != x && !(ct__f32_bits(x) & 0x00400000u); }
static inline bool snan_d(double x) {
  uint64_t u;
  memcpy(&u, &x, sizeof u);
  return x != x && !(u & UINT64_C(0x0008000000000000));
}
#define FMINMAX_F(name, T, SNAN, PICK)                                  \
  static inline T name(T a, T b) {                                     \
    if (a != a || b != b) {                                            \
      if (a != a && b != b) return b + b;                              \
      if (SNAN(a)) return a + a;                                       \
      if (SNAN(b)) return b + b;                                       \
      return a != a ? b : a;                                           \
    }                                                                  \
    return PICK;                                                       \
  }
FMINMAX_F(fmax_f32, float, snan_f, (b > a ? b : a))
FMINMAX_F(fmin_f32, float, snan_f, (b < a ? b : a))
FMINMAX_F(fmax_f64, double, snan_d, (b > a ? b : a))
FMINMAX_F(fmin_f64, double, snan_d, (b < a ? b : a))
#define FMAX_R(a, b) ((a) != (a) ? ((b) != (b) ? (a) : (b)) : (b) != (b) ? (a) : ((a) > (b) ? (a) : (b)))
#define FMIN_R(a, b) ((a) != (a) ? ((b) != (b) ? (a) : (b)) : (b) != (b) ? (a) : ((a) < (b) ? (a) : (b)))
CT_BINARY_LOOP(fmax_CT_FLOAT32, float, float, CT_ID, float, CT_ID, fmax_f32(a, b))
CT_BINARY_LOOP(fmin_CT_FLOAT32, float, float, CT_ID, float, CT_ID, fmin_f32(a, b))
CT_BINARY_LOOP(fmax_CT_FLOAT64, double, double, CT_ID, double, CT_ID, fmax_f64(a, b))
CT_BINARY_LOOP(fmin_CT_FLOAT64, double, double, CT_ID, double, CT_ID, fmin_f64(a, b))
CT_BINARY_LOOP(fmax_CT_FLOAT16, uint16_t, float, ct__half_to_float, uint16_t, ct__float_to_half, FMAX_R(a, b))
CT_BINARY_LOOP(fmin_CT_FLOAT16, uint16_t, float, ct__half_to_float, uint16_t, ct__float_to_half, FMIN_R(a, b))
/* bfloat16 widens by a shift, which keeps a signaling NaN signaling, and glibc's fmaxf then returns NaN
   (float16's conversion quiets it, so float16 takes the number): NaN-ness, not the payload, is the contract */
#define FMAX_RS(a, b) (snan_f(a) || snan_f(b) ? (a) + (b) : FMAX_R(a, b))
#define FMIN_RS(a, b) (snan_f(a) || snan_f(b) ? (a) + (b) : FMIN_R(a, b))
CT_BINARY_LOOP(fmax_CT_BFLOAT16, uint16_t, float, ct__bfloat16_to_float, uint16_t, ct__float_to_bfloat16, FMAX_RS(a, b))
CT_BINARY_LOOP(fmin_CT_BFLOAT16, uint16_t, float, ct__bfloat16_to_float, uint16_t, ct__float_to_bfloat16, FMIN_RS(a, b))
#define ENTRY(E, T, CT, LD, ST) [E] = CT_LOOP_REF(max_##E),
static const ct_loop *const fmax_loops[CT_NUM_DTYPES + 1] = {
    CT_DT_BOOL(ENTRY) CT_DT_INTEGRAL(ENTRY)[CT_FLOAT16] = CT_LOOP_REF(fmax_CT_FLOAT16), [CT_BFLOAT16] = CT_LOOP_REF(fmax_CT_BFLOAT16),
    [CT_FLOAT32] = CT_LOOP_REF(fmax_CT_FLOAT32), [CT_FLOAT64] = CT_LOOP_REF(fmax_CT_FLOAT64)};
#undef ENTRY
#define ENTRY(E, T, CT, LD, ST) [E] = CT_LOOP_REF(min_##E),
static const ct_loop *const fmin_loops[CT_NUM_DTYPES + 1] = {
    CT_DT_BOOL(ENTRY) CT_DT_INTEGRAL(ENTRY)[CT_FLOAT16] = CT_LOOP_REF(fmin_CT_FLOAT16), [CT_BFLOAT16] = CT_LOOP_REF(fmin_CT_BFLOAT16),
    [CT_FLOAT32] = CT_LOOP_REF(fmin_CT_FLOAT32), [CT_FLOAT64] = CT_LOOP_REF(fmin_CT_FLOAT64)};
#undef ENTRY

/* PyTorch rejects complex inputs before anything else (their meta functions). */
static ct_status minmax_run(const ct_pw_op *op, ct_tensor *out, const ct_tensor *const *in, int n_in, bool inplace,
                            const void *args, ct_tensor **result) {
  const ct_tensor *a = in[0], *b = in[1];
  if (result) *result = NULL;
  CT__NONNULL_STATUS(a, b);
  if (!result && !out) return ct__null_named_status("out", 0);
  if (ct__dt((ct_dtype)a->dtype)->category == CT_CAT_COMPLEX || ct__dt((ct_dtype)b->dtype)->category == CT_CAT_COMPLEX) {
    const char *name = op == &ct__pw_op_maximum   ? "maximum"
                       : op == &ct__pw_op_minimum ? "minimum"
                       : op == &ct__pw_op_fmax    ? "fmax"
                                                  : "fmin";
    ct__error(CT_ERR_RUNTIME, "%s not implemented for complex tensors.", name);
    return CT_ERR_RUNTIME;
  }
  return ct__bin_pw_run(op, out, in, n_in, inplace, args, result);
}

const ct_pw_op ct__pw_op_maximum = {CT_PW_OP("maximum", "maximum_cpu", COMMON, max_loops), .run = minmax_run};
const ct_pw_op ct__pw_op_minimum = {CT_PW_OP("minimum", "minimum_cpu", COMMON, min_loops), .run = minmax_run};
const ct_pw_op ct__pw_op_fmax = {CT_PW_OP("fmax", "fmax_cpu", COMMON, fmax_loops), .run = minmax_run};
const ct_pw_op ct__pw_op_fmin = {CT_PW_OP("fmin", "fmin_cpu", COMMON, fmin_loops), .run = minmax_run};
