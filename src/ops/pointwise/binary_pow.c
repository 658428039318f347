/* pow and float_power, with PyTorch's three overloads chosen by which argument is a wrapped number:

   pow(Tensor, Tensor)  a binary op ("pow" kernel): integer powers by squaring (negative exponents give
                        1, +-1 or 0, overflow wraps), SLEEF/glibc pow for floats, cpow for complex.
   pow(Tensor, Scalar)  a unary op on base.to(result_type(base, exp)) whose out= must have exactly that
                        dtype: exp 0 fills ones, exp 1 copies, "Integers to negative integer powers are not
                        allowed.", the exponent converted to the dtype with c10's overflow check, and torch's
                        special cases: 0.5 sqrt, -0.5 1/sqrt, -1 1/x (float, double, bfloat16, complex),
                        2 x*x, 3 x*x*x, -2 1/(x*x) (float, double, bfloat16 after rounding the exponent to
                        bfloat16, complex).
   pow(Scalar, Tensor)  a contiguous result of exp's shape: ones when the base is 1, else
                        pow(Tensor, Tensor) of the wrapped base into it.
   float_power          the same in float64 (complex128 when either side is complex), with its own
                        dtype checks for out= and in-place. */
/* The loops never rely on floating-point exception flags; telling GCC so lets it evaluate both sides of
   the formulas' selects and vectorize them (torch 1.13 is built the same way). */
/* GCC builds this file with -fno-trapping-math (CMakeLists.txt: CT_FP_RELAXED_SOURCES). */

#include "core/cast.h"
#include "core/elem.h"
#include "ops/pointwise/binary_common.h"
#include "core/out_wrapper.h"

#define BF(x) ct__bfloat16_to_float(x)
#define H(x) ct__half_to_float(x)

static bool is_wrapped(const ct_tensor *t) { return (t->flags & CT_TENSOR_WRAPPED_NUMBER) != 0; }
static ct_scalar wrapped_value(const ct_tensor *t) { return ct__load_scalar((ct_dtype)t->dtype, ct__tdata(t)); }

/* c10::Scalar::equal(double): a bool never equals a number. */
static bool scalar_equal(ct_scalar s, double v) {
  switch (s.kind) {
    case CT_SCALAR_INT: return (double)s.v.i == v;
    case CT_SCALAR_DOUBLE: return s.v.d == v;
    case CT_SCALAR_COMPLEX: return s.v.c.re == v && s.v.c.im == 0;
    default: return false;
  }
}

/* ---- integer powers (native::powi): computed in unsigned arithmetic, so overflow wraps ---- */
#define POWI_LOOP(T, U)                                                \
  U r = 1, x = (U)a;                                                   \
  for (U e = (U)b; e; e >>= 1) {                                       \
    if (e & 1) r = (U)(r * x);                                         \
    x = (U)(x * x);                                                    \
  }                                                                    \
  return (T)r;
#define DEF_POWI(name, T, U)                                           \
  static inline T name(T a, T b) {                                     \
    if (b < 0) {                                                       \
      if (a == 1) return 1;                                            \
      if (a == -1) return (b & 1) ? (T)-1 : (T)1;                      \
      return 0;                                                        \
    }                                                                  \
    POWI_LOOP(T, U)                                                    \
  }
static inline uint8_t powi_u8(uint8_t a, uint8_t b) { POWI_LOOP(uint8_t, unsigned) }
DEF_POWI(powi_i8, int8_t, unsigned)
DEF_POWI(powi_i16, int16_t, unsigned)
DEF_POWI(powi_i32, int32_t, uint32_t)
DEF_POWI(powi_i64, int64_t, uint64_t)

/* ====================================== pow(Tensor, Tensor) ====================================== */
CT_BINARY_LOOP(pow_CT_UINT8, uint8_t, uint8_t, CT_ID, uint8_t, CT_ID, powi_u8(a, b))
CT_BINARY_LOOP(pow_CT_INT8, int8_t, int8_t, CT_ID, int8_t, CT_ID, powi_i8(a, b))
CT_BINARY_LOOP(pow_CT_INT16, int16_t, int16_t, CT_ID, int16_t, CT_ID, powi_i16(a, b))
CT_BINARY_LOOP(pow_CT_INT32, int32_t, int32_t, CT_ID, int32_t, CT_ID, powi_i32(a, b))
CT_BINARY_LOOP(pow_CT_INT64, int64_t, int64_t, CT_ID, int64_t, CT_ID, powi_i64(a, b))
/* float16 has no vectorized pow in torch 1.13: std::pow in float everywhere */
CT_BINARY_LOOP(pow_CT_FLOAT16, uint16_t, float, ct__half_to_float, uint16_t, ct__float_to_half, powf(a, b))
/* complex: std::pow(complex, complex) is glibc's cpow on both paths */
CT_BINARY_LOOP(pow_CT_COMPLEX64, ct_c64, ct_c64, CT_ID, ct_c64, CT_ID, cpowf(a, b))
CT_BINARY_LOOP(pow_CT_COMPLEX128, ct_c128, ct_c128, CT_ID, ct_c128, CT_ID, cpow(a, b))

CT_SL2_BLOCKS(powt, CT_SL_POW)
CT_SL2_SCALAR_FNS(powt, powf, pow)
CT_VS_LOOP2(pow_CT_FLOAT32, float, CT_W_F32, powt_f32_vb, powt_f32_s)
CT_VS_LOOP2(pow_CT_FLOAT64, double, CT_W_F64, powt_f64_vb, powt_f64_s)
CT_VS_LOOP2(pow_CT_BFLOAT16, uint16_t, CT_W_R16, powt_bf_vb, powt_bf_s)

#define ENTRY(E, T, CT, LD, ST) [E] = CT_LOOP_REF(pow_##E),
static const ct_loop *const powt_loops[CT_NUM_DTYPES + 1] = {CT_DT_ALL_NUMERIC(ENTRY)};
#undef ENTRY

/* ====================================== pow(Tensor, Scalar) ====================================== */
typedef enum { PS_POW, PS_ONE, PS_COPY, PS_SQR, PS_CUBE, PS_INVSQR, PS_SQRT, PS_RSQRT, PS_RECIP } ps_mode;

typedef struct ps_ctx {
  int mode;
  float f;   /* the exponent of the vectorized float path; float16/bfloat16: the exponent in that dtype */
  double d;  /* the exponent of the scalar float/double path */
  int64_t i; /* integer dtypes: the exponent converted to the dtype */
  double re, im;
} ps_ctx;

#define PS(c) ((const ps_ctx *)(c))

/* out[k] = EXPR(x) over n elements with byte strides os / xs */
#define PS_EACH(T, CT, LD, ST, EXPR)                                 \
  for (int64_t k = 0; k < n; k++) {                                  \
    CT x = LD(*(const T *)(xp + k * xs));                            \
    (void)x;                                                         \
    *(T *)(op + k * os) = ST(EXPR);                                  \
  }
#define PS_COPY_EACH(T) \
  for (int64_t k = 0; k < n; k++) *(T *)(op + k * os) = *(const T *)(xp + k * xs);

/* The special-case formulas shared by the two paths (POW left to the caller). */
#define PS_SQRT_CASE(T, CT, LD, ST, SQRT) \
  case PS_SQRT: PS_EACH(T, CT, LD, ST, SQRT) break;
#define PS_MODES(T, CT, LD, ST, ONE, SQR, CUBE, INVSQR, SQRT, RSQRT, RECIP) \
  case PS_ONE: PS_EACH(T, CT, LD, ST, ONE) break;                         \
  case PS_COPY: PS_COPY_EACH(T) break;                                    \
  case PS_SQR: PS_EACH(T, CT, LD, ST, SQR) break;                         \
  case PS_CUBE: PS_EACH(T, CT, LD, ST, CUBE) break;                       \
  case PS_INVSQR: PS_EACH(T, CT, LD, ST, INVSQR) break;                   \
  PS_SQRT_CASE(T, CT, LD, ST, SQRT)                                       \
  case PS_RSQRT: PS_EACH(T, CT, LD, ST, RSQRT) break;                     \
  case PS_RECIP: PS_EACH(T, CT, LD, ST, RECIP) break;

/* A unary loop split like torch's: VSEG(op, xp, xs, n, c) on the vectorized prefix of a row, SSEG on
   the rest (and on rows that do not vectorize). */
#define PS_LOOP(fname, T, W, VSEG, SSEG)                                                  \
  static void fname(char **d, const int64_t *s, int64_t n, const void *c) {                \
    int64_t k = ct__torch_vec_prefix2(s, 2, (int64_t)sizeof(T), (int64_t)sizeof(T), n, (W)); \
    if (k > 0) VSEG(d[0], d[1], s[1], k, c);                                              \
    if (k < n) SSEG(d[0] + k * s[0], s[0], d[1] + k * s[1], s[1], n - k, c);              \
  } \
  CT_LOOP_PLAIN(fname)

/* ---- float and double ---- */
#define ID(x) (x)
static void ps_f32_v(char *op, const char *xp, int64_t xs, int64_t n, const void *c) {
  const int64_t os = sizeof(float);
  switch (PS(c)->mode) {
    PS_MODES(float, float, ID, ID, 1.0f, x * x, x * x * x, 1.0f / (x * x), sqrtf(x), 1.0f / sqrtf(x), 1.0f / x)
    default: ct__sl2_f32(CT_SL_POW, (float *)op, (const float *)xp, xs != 0, &PS(c)->f, false, n);
  }
}
static void ps_f32_s(char *op, int64_t os, const char *xp, int64_t xs, int64_t n, const void *c) {
  switch (PS(c)->mode) {
    PS_MODES(float, float, ID, ID, 1.0f, x * x, x * x * x, 1.0f / (x * x), sqrtf(x), 1.0f / sqrtf(x), 1.0f / x)
    default: {
      double e = PS(c)->d;
      PS_EACH(float, float, ID, ID, (float)pow((double)x, e))
    }
  }
}
static void ps_f64_v(char *op, const char *xp, int64_t xs, int64_t n, const void *c) {
  const int64_t os = sizeof(double);
  switch (PS(c)->mode) {
    PS_MODES(double, double, ID, ID, 1.0, x * x, x * x * x, 1.0 / (x * x), sqrt(x), 1.0 / sqrt(x), 1.0 / x)
    default: ct__sl2_f64(CT_SL_POW, (double *)op, (const double *)xp, xs != 0, &PS(c)->d, false, n);
  }
}
static void ps_f64_s(char *op, int64_t os, const char *xp, int64_t xs, int64_t n, const void *c) {
  switch (PS(c)->mode) {
    PS_MODES(double, double, ID, ID, 1.0, x * x, x * x * x, 1.0 / (x * x), sqrt(x), 1.0 / sqrt(x), 1.0 / x)
    default: {
      double e = PS(c)->d;
      PS_EACH(double, double, ID, ID, pow(x, e))
    }
  }
}
PS_LOOP(pows_CT_FLOAT32, float, CT_W_F32, ps_f32_v, ps_f32_s)
PS_LOOP(pows_CT_FLOAT64, double, CT_W_F64, ps_f64_v, ps_f64_s)

/* ---- bfloat16: every step rounds to bfloat16; the vectorized path computes 1/sqrt in one float step, the scalar one rounds sqrt first ---- */
#define RV ct__rb
#define RS ct__rb
static void ps_bf_v(char *op, const char *xp, int64_t xs, int64_t n, const void *c) {
  const int64_t os = sizeof(uint16_t);
  switch (PS(c)->mode) {
    PS_MODES(uint16_t, float, BF, ct__float_to_bfloat16, 1.0f, x * x, RV(x * x) * x, 1.0f / RV(x * x), sqrtf(x),
             1.0f / sqrtf(x), 1.0f / x)
    default: {
      float fx[CT_BIN_CHUNK], r[CT_BIN_CHUNK];
      for (int64_t k0 = 0; k0 < n; k0 += CT_BIN_CHUNK) {
        int64_t m = n - k0 < CT_BIN_CHUNK ? n - k0 : CT_BIN_CHUNK;
        for (int64_t k = 0; k < m; k++) fx[k] = BF(*(const uint16_t *)(xp + (k0 + k) * xs));
        ct__sl2_f32(CT_SL_POW, r, fx, true, &PS(c)->f, false, m);
        for (int64_t k = 0; k < m; k++) ((uint16_t *)op)[k0 + k] = ct__float_to_bfloat16(r[k]);
      }
    }
  }
}
#undef PS_SQRT_CASE
#define PS_SQRT_CASE(T, CT, LD, ST, SQRT)
static void ps_bf_s(char *op, int64_t os, const char *xp, int64_t xs, int64_t n, const void *c) {
  switch (PS(c)->mode) {
    /* sqrt goes through torch's vml loop, vectorized whatever the layout */
    case PS_SQRT: PS_EACH(uint16_t, float, BF, ct__float_to_bfloat16, sqrtf(x)) break;
    PS_MODES(uint16_t, float, BF, ct__float_to_bfloat16, 1.0f, x * x, RS(x * x) * x, 1.0f / RS(x * x), sqrtf(x),
             1.0f / RS(sqrtf(x)), 1.0f / x)
    default: {
      float e = PS(c)->f;
      PS_EACH(uint16_t, float, BF, ct__float_to_bfloat16, powf(x, e))
    }
  }
}
#undef PS_SQRT_CASE
#define PS_SQRT_CASE(T, CT, LD, ST, SQRT) \
  case PS_SQRT: PS_EACH(T, CT, LD, ST, SQRT) break;
PS_LOOP(pows_CT_BFLOAT16, uint16_t, CT_W_R16, ps_bf_v, ps_bf_s)

/* ---- float16: std::pow in float with the exponent rounded to half, no special cases ---- */
static void ps_h_s(char *op, int64_t os, const char *xp, int64_t xs, int64_t n, const void *c) {
  switch (PS(c)->mode) {
    case PS_ONE: PS_EACH(uint16_t, float, H, ct__float_to_half, 1.0f) break;
    case PS_COPY: PS_COPY_EACH(uint16_t) break;
    default: {
      float e = PS(c)->f;
      PS_EACH(uint16_t, float, H, ct__float_to_half, powf(x, e))
    }
  }
}
static void pows_CT_FLOAT16(char **d, const int64_t *s, int64_t n, const void *c) { ps_h_s(d[0], s[0], d[1], s[1], n, c); }
CT_LOOP_PLAIN(pows_CT_FLOAT16)

/* ---- complex ----
   The vectorized rows use Vectorized<complex>'s operator* ((ac - bd, ad - -bc) through hsub) and
   reciprocal ((c, -d) / (c^2 + d^2)); the scalar ones c10::complex's operator* and operator/ as GCC compiled
   them (a*c - b*d and a*d + b*c with the first product fused; division as in binary_div.c). sqrt is
   csqrt on both; pow is cpow (std::pow) on both. */
static inline ct_c64 mk64(float re, float im) { return CMPLXF(re, im); }
static inline ct_c128 mk128(double re, double im) { return CMPLX(re, im); }
/* x * y - z fused where GCC fused it (torch compat, kernels/cpu/torch_compat.h) */
static inline float fmsf(float x, float y, float z) { return CT_COMPAT_FMAF(x, y, -z); }
static inline double fmsd(double x, double y, double z) { return CT_COMPAT_FMA(x, y, -z); }

#define CPX_FNS(sfx, T, CT, MK, RE, IM, FMA, FMS)                                                      \
  static inline CT cmul_v_##sfx(CT x, CT y) {                                                          \
    T a = RE(x), b = IM(x), c = RE(y), d = IM(y);                                                      \
    return MK(a * c - b * d, a * d - b * -c);                                                          \
  }                                                                                                    \
  static inline CT crecip_v_##sfx(CT y) {                                                              \
    T c = RE(y), d = IM(y), den = c * c + d * d;                                                       \
    return MK(c / den, -d / den);                                                                      \
  }                                                                                                    \
  static inline CT cmul_s_##sfx(CT x, CT y) {                                                          \
    T a = RE(x), b = IM(x), c = RE(y), d = IM(y);                                                      \
    return MK(FMS(a, c, b * d), FMA(a, d, b * c));                                                     \
  }                                                                                                    \
  static inline CT cdiv_s_##sfx(CT x, CT y) {                                                          \
    T a = RE(x), b = IM(x), c = RE(y), d = IM(y);                                                      \
    T den = FMA(c, c, d * d);                                                                          \
    return MK(FMA(a, c, b * d) / den, FMS(b, c, a * d) / den);                                         \
  }
CPX_FNS(64, float, ct_c64, mk64, crealf, cimagf, CT_COMPAT_FMAF, fmsf)
CPX_FNS(128, double, ct_c128, mk128, creal, cimag, CT_COMPAT_FMA, fmsd)

#define CPX_SEGS(sfx, T, CT, MK, SQRT, POW)                                                                      \
  /* kept away from GCC's vectorizer, which fuses mul + addsub into vfmsubadd even without contraction */       \
  CT_NO_TREE_VECTORIZE static void ps_c##sfx##_v(char *op, const char *xp, int64_t xs, \
                                                                            int64_t n, const void *c) {          \
    const int64_t os = sizeof(CT);                                                                               \
    const CT e = MK((T)PS(c)->re, (T)PS(c)->im);                                                                 \
    switch (PS(c)->mode) {                                                                                       \
      PS_MODES(CT, CT, ID, ID, MK(1, 0), cmul_v_##sfx(x, x), cmul_v_##sfx(cmul_v_##sfx(x, x), x),                \
               crecip_v_##sfx(cmul_v_##sfx(x, x)), SQRT(x), crecip_v_##sfx(SQRT(x)), crecip_v_##sfx(x))          \
      default: PS_EACH(CT, CT, ID, ID, POW(x, e))                                                                \
    }                                                                                                            \
  }                                                                                                              \
  CT_NO_TREE_VECTORIZE static void ps_c##sfx##_s(char *op, int64_t os, const char *xp, \
                                                                            int64_t xs, int64_t n, const void *c) { \
    const CT one = MK(1, 0), e = MK((T)PS(c)->re, (T)PS(c)->im);                                                 \
    switch (PS(c)->mode) {                                                                                       \
      PS_MODES(CT, CT, ID, ID, one, cmul_s_##sfx(x, x), cmul_s_##sfx(cmul_s_##sfx(x, x), x),                     \
               cdiv_s_##sfx(one, cmul_s_##sfx(x, x)), SQRT(x), cdiv_s_##sfx(one, SQRT(x)), cdiv_s_##sfx(one, x))  \
      default: PS_EACH(CT, CT, ID, ID, POW(x, e))                                                                \
    }                                                                                                            \
  }
CPX_SEGS(64, float, ct_c64, mk64, csqrtf, cpowf)
CPX_SEGS(128, double, ct_c128, mk128, csqrt, cpow)
PS_LOOP(pows_CT_COMPLEX64, ct_c64, CT_W_C64, ps_c64_v, ps_c64_s)
PS_LOOP(pows_CT_COMPLEX128, ct_c128, CT_W_C128, ps_c128_v, ps_c128_s)

/* ---- integers ---- */
#define PS_INT(fname, T, POWI)                                                                \
  static void fname(char **d, const int64_t *s, int64_t n, const void *c) {                   \
    char *op = d[0];                                                                          \
    const char *xp = d[1];                                                                    \
    int64_t os = s[0], xs = s[1];                                                             \
    T e = (T)PS(c)->i;                                                                        \
    switch (PS(c)->mode) {                                                                    \
      case PS_ONE: PS_EACH(T, T, ID, ID, (T)1) break;                                         \
      case PS_COPY: PS_COPY_EACH(T) break;                                                    \
      default: PS_EACH(T, T, ID, ID, POWI(x, e))                                              \
    }                                                                                         \
  } \
  CT_LOOP_PLAIN(fname)
PS_INT(pows_CT_UINT8, uint8_t, powi_u8)
PS_INT(pows_CT_INT8, int8_t, powi_i8)
PS_INT(pows_CT_INT16, int16_t, powi_i16)
PS_INT(pows_CT_INT32, int32_t, powi_i32)
PS_INT(pows_CT_INT64, int64_t, powi_i64)

#define ENTRY(E, T, CT, LD, ST) [E] = CT_LOOP_REF(pows_##E),
static const ct_loop *const pows_loops[CT_NUM_DTYPES + 1] = {CT_DT_ALL_NUMERIC(ENTRY)};

/* pow's three overloads (float_power, a composite, checks its dtypes and runs them): their ATen
   operators for the entry guard and the rows their engines (pt_engine, ps_engine) take their loops from. */
static const ct_pw_op pow_tt_op = {
    CT_PW_OP_ATEN("pow", ("aten::pow.Tensor_Tensor", "aten::pow_.Tensor", "aten::pow.Tensor_Tensor_out"),
                  "pow", COMMON, powt_loops, DIFF)};
static const ct_pw_op pow_ts_op = {
    CT_PW_OP_ATEN("pow", ("aten::pow.Tensor_Scalar", "aten::pow_.Scalar", "aten::pow.Tensor_Scalar_out"),
                  "pow", COMMON, pows_loops, DIFF)};
static const ct_pw_op pow_st_op = {
    CT_PW_OP_ATEN("pow", ("aten::pow.Scalar", "aten::pow.Scalar", "aten::pow.Scalar_out"), "pow", COMMON,
                  powt_loops, DIFF)};
#undef ENTRY

/* The loop context for base ^ exp in dtype `dt` (exp already checked to fit). */
static void ps_prepare(ct_dtype dt, ct_scalar exp, ps_ctx *c) {
  memset(c, 0, sizeof *c);
  c->mode = PS_POW;
  if (scalar_equal(exp, 0.0)) {
    c->mode = PS_ONE;
    return;
  }
  if (scalar_equal(exp, 1.0)) {
    c->mode = PS_COPY;
    return;
  }
  int cat = ct__dt(dt)->category;
  if (cat == CT_CAT_INT) {
    ct__store_scalar(CT_INT64, &c->i, exp);
    c->i = ct__elem_round_i64(dt, c->i); /* the exponent as the dtype's value (it fits), widened back */
    return;
  }
  double e = ct__scalar_to_double(exp);
  c->re = e;
  c->im = exp.kind == CT_SCALAR_COMPLEX ? exp.v.c.im : 0.0;
  c->d = e;
  c->f = (float)e;
  bool sqrt_family = dt == CT_FLOAT32 || dt == CT_FLOAT64 || dt == CT_BFLOAT16 || cat == CT_CAT_COMPLEX;
  if (sqrt_family) {
    if (scalar_equal(exp, 0.5)) c->mode = PS_SQRT;
    else if (scalar_equal(exp, -0.5)) c->mode = PS_RSQRT;
    else if (scalar_equal(exp, -1.0)) c->mode = PS_RECIP;
    if (c->mode != PS_POW) return;
  }
  if (dt == CT_FLOAT16) {
    c->f = ct__half_to_float(ct__float_to_half((float)e)); /* c10::Half(double) rounds through float */
    return;
  }
  double v = e;
  if (dt == CT_BFLOAT16) {
    c->f = ct__rb((float)e);
    v = c->f;
  }
  bool real_exp = cat != CT_CAT_COMPLEX || c->im == 0;
  if (real_exp && v == 2.0) c->mode = PS_SQR;
  else if (real_exp && v == 3.0) c->mode = PS_CUBE;
  else if (real_exp && v == -2.0) c->mode = PS_INVSQR;
}

/* ============================================ runners ============================================ */

typedef struct ps_check_args {
  ct_scalar exp;
  const ct_iter *it; /* its operands' devices are settled before validate: the row to take */
} ps_check_args;

/* after the iterator's checks (out's dtype: check_out_dtype, before the devices) */
static bool ps_validate(ct_dtype common, const void *arg) {
  const ps_check_args *a = arg;
  if (scalar_equal(a->exp, 0.0) || scalar_equal(a->exp, 1.0)) return true;
  if (!ct__pw_row(&pow_ts_op, a->it->is_meta)[common]) {
    ct__error(CT_ERR_RUNTIME, "\"pow\" not implemented for '%s'", ct__dt(common)->scalar_name);
    return false;
  }
  /* the kernel's exp_scalar.to<scalar_t>() (to<double> / to<complex<double>> for the wide types); a call on
     meta runs no kernel */
  if (a->it->is_meta || common == CT_FLOAT32 || common == CT_FLOAT64 ||
      ct__dt(common)->category == CT_CAT_COMPLEX)
    return true;
  return ct__scalar_fits(a->exp, common);
}

/* The unary engine run of pow(Tensor, Scalar) in `common`. */
static ct_status ps_engine(ct_tensor *out, const ct_tensor *base, ct_scalar exp, ct_dtype common, bool inplace,
                           ct_tensor **result) {
  ct_iter it;
  ps_check_args chk = {exp, &it};
  /* build_output_borrowing_argument_owning_unary_op(out, base.to(common)): check_all_same_dtype */
  ct_iter_config cfg = {.n_out = 1,
                        .n_in = 1,
                        .check_mem_overlap = true,
                        .check_out_dtype = true,
                        .no_resize_outputs = inplace};
  cfg.out[0] = out;
  cfg.in[0] = base;
  cfg.promote_inputs = true; /* base.to(common): the iterator sees the converted copy */
  cfg.compute_dtype = common;
  cfg.validate = ps_validate;
  cfg.validate_arg = &chk;
  ct_status s = ct__iter_build(&it, &cfg);
  if (s != CT_OK) return s;
  ps_ctx ctx;
  ps_prepare(common, exp, &ctx);
  ct__iter_run(&it, ct__pw_row(&pow_ts_op, it.is_meta)[common], &ctx);
  if (result) *result = ct__own(ct__iter_take_output(&it, 0));
  ct__iter_finish(&it);
  return result && !*result ? CT_ERR_OUT_OF_MEMORY : CT_OK;
}

typedef struct ps_arg {
  ct_scalar exp;
  ct_dtype common;
} ps_arg;

static ct_status ps_fn(const void *arg, ct_tensor *out, const ct_tensor *const *in, bool inplace, ct_tensor **result) {
  const ps_arg *p = arg;
  return ps_engine(out, in[0], p->exp, p->common, inplace, result);
}

/* pow(base, exp) with exp a Python number, computed in `common` (UNSET: result_type(base, exp)); base goes
   in converted to that dtype (torch's base.to(common)). */
static ct_status pow_tensor_scalar(ct_tensor *out, const ct_tensor *base, const ct_tensor *wexp, ct_scalar exp,
                                   ct_dtype common, bool inplace, ct_tensor **result) {
  if (common == CT_DTYPE_UNSET) {
    if (ct__dt((ct_dtype)base->dtype)->category <= CT_CAT_INT && exp.kind != CT_SCALAR_DOUBLE &&
        exp.kind != CT_SCALAR_COMPLEX && ct__scalar_to_int64(exp) < 0) {
      ct__error(CT_ERR_RUNTIME, "Integers to negative integer powers are not allowed.");
      return CT_ERR_RUNTIME;
    }
    const ct_tensor *ops[2] = {base, wexp};
    ct_status s = ct__result_type(ops, 2, &common);
    if (s != CT_OK) return s;
  }
  if (out && (ct_dtype)out->dtype != common) return ps_engine(out, base, exp, common, inplace, result); /* its error */
  ps_arg a = {exp, common};
  return ct__bin_cast_run(ps_fn, &a, common, out, &base, 1, inplace, result);
}

static bool pt_row_ok(ct_dtype common, bool meta) {
  if (!ct__pw_row(&pow_tt_op, meta)[common]) {
    ct__error(CT_ERR_RUNTIME, "\"pow\" not implemented for '%s'", ct__dt(common)->scalar_name);
    return false;
  }
  return true;
}

static bool pt_validate(ct_dtype common, const void *arg) {
  const ct_iter *it = arg; /* its operands' devices are settled before validate: the row to take */
  return pt_row_ok(common, it->is_meta);
}

/* The binary engine run of pow(a, b), computed in `common` (UNSET: result_type). */
static ct_status pt_engine(ct_tensor *out, const ct_tensor *a, const ct_tensor *b, ct_dtype common, bool inplace,
                           ct_tensor **result) {
  ct_iter_config cfg = {.n_out = 1, .n_in = 2, .check_mem_overlap = true, .no_resize_outputs = inplace};
  cfg.allow_cpu_scalars = true; /* pow.Tensor_Tensor's meta is build_borrowing_binary_op */
  cfg.out[0] = out;
  cfg.in[0] = a;
  cfg.in[1] = b;
  cfg.promote_inputs = true;
  cfg.cast_to_outputs = true;
  cfg.enforce_safe_cast = true;
  cfg.compute_dtype = common;
  cfg.validate = pt_validate;
  ct_iter it;
  cfg.validate_arg = &it;
  ct_status s = ct__iter_build(&it, &cfg);
  if (s != CT_OK) return s;
  ct__iter_run(&it, ct__pw_row(&pow_tt_op, it.is_meta)[it.common], NULL);
  if (result) *result = ct__own(ct__iter_take_output(&it, 0));
  ct__iter_finish(&it);
  return result && !*result ? CT_ERR_OUT_OF_MEMORY : CT_OK;
}

static ct_status pt_fn(const void *arg, ct_tensor *out, const ct_tensor *const *in, bool inplace, ct_tensor **result) {
  return pt_engine(out, in[0], in[1], *(const ct_dtype *)arg, inplace, result);
}

/* pow(a, b) as a binary op, through torch's casting route. */
static ct_status pow_tensor_tensor(ct_tensor *out, const ct_tensor *a, const ct_tensor *b, ct_dtype common, bool inplace,
                                   ct_tensor **result) {
  const ct_tensor *in[2] = {a, b};
  ct_dtype c = common;
  if (c == CT_DTYPE_UNSET && ct__result_type(in, 2, &c) != CT_OK) c = CT_DTYPE_UNSET;
  return ct__bin_cast_run(pt_fn, &common, c, out, in, 2, inplace, result);
}

/* pow(Scalar base, Tensor exp): the result has exp's shape, contiguous (an out= of another shape is
   resized so); base 1 fills ones of the result dtype. `common` forces the compute dtype (float_power). */
static ct_status pow_scalar_tensor(ct_tensor *out, const ct_tensor *base, const ct_tensor *exp, ct_dtype common,
                                   ct_tensor **result) {
  ct_scalar bv = wrapped_value(base);
  if (common != CT_DTYPE_UNSET && bv.kind != CT_SCALAR_COMPLEX)
    bv = ct_scalar_double(ct__scalar_to_double(bv)); /* float_power's casted base */
  ct_dtype rdt = common;
  if (rdt == CT_DTYPE_UNSET) {
    const ct_tensor *ops[2] = {base, exp};
    ct_status s = ct__result_type(ops, 2, &rdt);
    if (s != CT_OK) return s;
  }
  bool one = scalar_equal(bv, 1.0);
  if (out && !one) {
    /* the errors pow(Tensor, Tensor) would raise, before out is resized */
    if (!pt_row_ok(rdt, exp->device_type == CT_META)) return CT_ERR_RUNTIME;
    if ((ct_dtype)out->dtype != rdt && !ct_can_cast(rdt, (ct_dtype)out->dtype)) {
      ct__error(CT_ERR_RUNTIME, "result type %s can't be cast to the desired output type %s", ct__dt(rdt)->scalar_name,
                ct__dt((ct_dtype)out->dtype)->scalar_name);
      return CT_ERR_RUNTIME;
    }
  }
  if (out && !ct__resize_out_ok(out, CT_DTYPE_UNSET, ct__tdevice(exp))) /* structured resize_out, before it */
    return CT_ERR_RUNTIME;
  ct_tensor *dst = out;
  if (!dst) {
    dst = ct__empty(exp->ndim, exp->sizes, rdt, ct__tdevice(exp));
    if (!dst) return CT_ERR_OUT_OF_MEMORY;
  } else {
    bool same = out->ndim == exp->ndim;
    for (int64_t d = 0; same && d < exp->ndim; d++) same = out->sizes[d] == exp->sizes[d];
    if (!same) {
      ct_status s = ct__tensor_resize(out, exp->ndim, exp->sizes, NULL);
      if (s != CT_OK) return s;
    }
  }
  ct_status s;
  if (one)
    s = ct__fill(dst, ct_scalar_int(1));
  else
    s = pow_tensor_tensor(dst, base, exp, common, false, NULL);
  if (!out) {
    if (s != CT_OK) {
      ct_release(dst);
      return s;
    }
    *result = ct__own(dst);
    if (!*result) return CT_ERR_OUT_OF_MEMORY;
  }
  return s;
}

/* Dispatch on which argument is a Python number. `common` UNSET for pow, the float_power dtype otherwise. */
static ct_status pow_dispatch(ct_tensor *out, const ct_tensor *a, const ct_tensor *b, ct_dtype common, bool inplace,
                              ct_tensor **result) {
  if (result) *result = NULL;
  CT__NONNULL_STATUS(a, b);
  if (!result && !out) return ct__null_named_status("out", 0);
  const ct_pw_op *op = is_wrapped(b) ? &pow_ts_op : is_wrapped(a) && !inplace ? &pow_st_op : &pow_tt_op;
  if (out && !inplace && !CT__OP_OUT_GRAD_OK(&op->op, out, a, b)) return CT_ERR_RUNTIME;
  if (!CT__PW_ENTER(op, inplace ? NULL : out, inplace, a, b)) return ct_last_error();
  if (is_wrapped(b)) {
    ct_scalar e = wrapped_value(b);
    if (common != CT_DTYPE_UNSET) /* float_power converts its exponent to double / complex */
      e = common == CT_COMPLEX128 ? ct_scalar_complex(ct__scalar_to_double(e), e.kind == CT_SCALAR_COMPLEX ? e.v.c.im : 0)
                                  : ct_scalar_double(ct__scalar_to_double(e));
    return pow_tensor_scalar(out, a, b, e, common, inplace, result);
  }
  if (is_wrapped(a) && !inplace) return pow_scalar_tensor(out, a, b, common, result);
  return pow_tensor_tensor(out, a, b, common, inplace, result);
}

ct_tensor *ct_pow(const ct_tensor *a, const ct_tensor *b) {
  ct_tensor *r;
  pow_dispatch(NULL, a, b, CT_DTYPE_UNSET, false, &r);
  return r;
}
ct_status ct_pow_(ct_tensor *self, const ct_tensor *other) { return pow_dispatch(self, self, other, CT_DTYPE_UNSET, true, NULL); }
ct_status ct_pow_out(ct_tensor *out, const ct_tensor *a, const ct_tensor *b) {
  return pow_dispatch(out, a, b, CT_DTYPE_UNSET, false, NULL);
}

/* ========================================== float_power ========================================== */
static ct_dtype float_power_dtype(const ct_tensor *a, const ct_tensor *b) {
  return ct__dt((ct_dtype)a->dtype)->category == CT_CAT_COMPLEX || ct__dt((ct_dtype)b->dtype)->category == CT_CAT_COMPLEX
             ? CT_COMPLEX128
             : CT_FLOAT64;
}

ct_tensor *ct_float_power(const ct_tensor *a, const ct_tensor *b) {
  ct_tensor *r = NULL;
  if (!a || !b) return ct__null_ptr_arg(!a ? "a" : "b");
  pow_dispatch(NULL, a, b, float_power_dtype(a, b), false, &r);
  return r;
}

ct_status ct_float_power_(ct_tensor *self, const ct_tensor *other) {
  CT__NONNULL_STATUS(self, other);
  ct_dtype dt = float_power_dtype(self, other);
  if ((ct_dtype)self->dtype != dt) {
    ct__error(CT_ERR_RUNTIME, "the base given to float_power_ has dtype %s but the operation's result requires dtype %s",
              ct__dt((ct_dtype)self->dtype)->scalar_name, ct__dt(dt)->scalar_name);
    return CT_ERR_RUNTIME;
  }
  return pow_dispatch(self, self, other, dt, true, NULL);
}

ct_status ct_float_power_out(ct_tensor *out, const ct_tensor *a, const ct_tensor *b) {
  CT__NONNULL_STATUS(out, a, b);
  ct_dtype dt = float_power_dtype(a, b);
  if ((ct_dtype)out->dtype != dt) {
    ct__error(CT_ERR_RUNTIME, "the output given to float_power has dtype %s but the operation's result requires dtype %s",
              ct__dt((ct_dtype)out->dtype)->scalar_name, ct__dt(dt)->scalar_name);
    return CT_ERR_RUNTIME;
  }
  return pow_dispatch(out, a, b, dt, false, NULL);
}
