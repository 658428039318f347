/* Division family: div/divide (rounding_mode None, "trunc", "floor"), true_divide, floor_divide,
   remainder, fmod. Integer division by zero raises PyTorch's "ZeroDivisionError" before anything is
   written; INT_MIN / -1 wraps (PyTorch itself dies of SIGFPE there for int32/int64). Float floor
   division and remainder are Python's, with signed zeros, computed by torch's own formulas (see
   binary_common.h for the vectorized/scalar split of a row). */
/* The loops never rely on floating-point exception flags; telling GCC so lets it evaluate both sides of
   the formulas' selects and vectorize them (torch 1.13 is built the same way). */
/* GCC builds this file with -fno-trapping-math (CMakeLists.txt: CT_FP_RELAXED_SOURCES). */

#include "core/cast.h"
#include "core/dtype_list.h"
#include "core/out_wrapper.h"
#include "ops/pointwise/binary_common.h"

/* ---- ZeroDivisionError ---- */

#define ZERO_RUN(T)                                                             \
  for (int64_t k = 0; k < n; k++)                                               \
    if (((uint64_t)(int64_t) * (const T *)(p + k * stride) & mask) == 0) return true; \
  return false;

/* bool and integer dtypes, each read as its storage type (bool: its byte, any nonzero byte is true as in
   CT_LDB) */
#define ZERO_CASE(A, S, T, K, ...) ZERO_CASE_##K(S, T)
#define ZERO_CASE_BOOL(S, T)       ZERO_CASE_INT(S, T)
#define ZERO_CASE_INT(S, T) \
  case CT_##S: {            \
    ZERO_RUN(T)             \
  }
#define ZERO_CASE_HALF(S, T)
#define ZERO_CASE_FLOAT(S, T)
#define ZERO_CASE_COMPLEX(S, T)
static bool any_zero_run(const char *p, int64_t stride, int64_t n, ct_dtype dt, uint64_t mask) {
  switch (dt) {
    CT_DTYPE_LIST(ZERO_CASE, ~)
    default: return false;
  }
}

bool ct__bin_has_zero_divisor(const ct_tensor *a, const ct_tensor *t, ct_dtype common) {
  if (a->numel == 0 || t->numel == 0 || !t->storage->data) return false;
  size_t bits = ct__itemsize(common) * 8;
  uint64_t mask = bits >= 64 ? ~UINT64_C(0) : (UINT64_C(1) << bits) - 1;
  ct_dtype dt = (ct_dtype)t->dtype;
  int64_t isz = (int64_t)ct__itemsize(dt);
  const char *base = ct__tdata(t);
  bool found = false;
  if (ct_is_contiguous(t, CT_CONTIGUOUS_FORMAT)) {
    found = any_zero_run(base, isz, t->numel, dt, mask);
  } else {
    /* odometer over the outer dims, the last dim as the run */
    int64_t nd = t->ndim, inner = t->sizes[nd - 1], st = t->strides[nd - 1] * isz;
    int64_t idx[nd > 1 ? nd - 1 : 1];
    memset(idx, 0, sizeof idx);
    int64_t rows = t->numel / inner;
    for (int64_t r = 0; r < rows && !found; r++) {
      const char *p = base;
      for (int64_t d = 0; d < nd - 1; d++) p += idx[d] * t->strides[d] * isz;
      found = any_zero_run(p, st, inner, dt, mask);
      for (int64_t d = nd - 2; d >= 0; d--) {
        if (++idx[d] < t->sizes[d]) break;
        idx[d] = 0;
      }
    }
  }
  if (found) ct__error(CT_ERR_RUNTIME, "ZeroDivisionError");
  return found;
}

/* check hook of the integer-dividing kernels: the divisor is in[1] */
static bool zero_check(ct_dtype common, const ct_tensor *const *in, const void *args) {
  (void)args;
  int cat = ct__dt(common)->category;
  if (cat != CT_CAT_INT) return true;
  return !ct__bin_has_zero_divisor(in[0], in[1], common);
}

/* ---- integer kernels ----
   zero_check refuses a zero divisor before the loop; a divisor can still turn zero during it when the out
   is the divisor's own memory written through an overlapping geometry (empty_strided with repeating
   elements: torch's kernel raises ZeroDivisionError midway there), so b == 0 gives 0, never a trap. */
#define INT_DIVT(T, U) (b == 0 ? (T)0 : b == -1 ? (T)(U)(0u - (U)a) : (T)(a / b))
#define INT_DIVF(T, U) \
  (b == 0 ? (T)0 : b == -1 ? (T)(U)(0u - (U)a) : (T)(a / b - ((a % b != 0) && ((a % b < 0) != (b < 0)))))
#define INT_REM(T, U) \
  (b == 0 ? (T)0 : b == -1 ? (T)0 : (T)(a % b + (((a % b != 0) & ((a % b < 0) != (b < 0))) ? b : 0)))
#define INT_FMOD(T, U) (b == 0 || b == -1 ? (T)0 : (T)(a % b))

#define DEF_SIGNED(name, OP)                                                                    \
  CT_BINARY_LOOP(name##_CT_INT8, int8_t, int8_t, CT_ID, int8_t, CT_ID, OP(int8_t, uint8_t))     \
  CT_BINARY_LOOP(name##_CT_INT16, int16_t, int16_t, CT_ID, int16_t, CT_ID, OP(int16_t, uint16_t)) \
  CT_BINARY_LOOP(name##_CT_INT32, int32_t, int32_t, CT_ID, int32_t, CT_ID, OP(int32_t, uint32_t)) \
  CT_BINARY_LOOP(name##_CT_INT64, int64_t, int64_t, CT_ID, int64_t, CT_ID, OP(int64_t, uint64_t))
DEF_SIGNED(divt, INT_DIVT)
DEF_SIGNED(divf, INT_DIVF)
DEF_SIGNED(rem, INT_REM)
DEF_SIGNED(fmod, INT_FMOD)
/* uint8: floor == trunc, remainder == fmod */
CT_BINARY_LOOP(divt_CT_UINT8, uint8_t, uint8_t, CT_ID, uint8_t, CT_ID, (uint8_t)(b ? a / b : 0))
CT_BINARY_LOOP(rem_CT_UINT8, uint8_t, uint8_t, CT_ID, uint8_t, CT_ID, (uint8_t)(b ? a % b : 0))

/* ---- true division ---- */
CT_BINARY_LOOP(div_CT_FLOAT32, float, float, CT_ID, float, CT_ID, a / b)
CT_BINARY_LOOP(div_CT_FLOAT64, double, double, CT_ID, double, CT_ID, a / b)
CT_BINARY_LOOP(div_CT_FLOAT16, uint16_t, float, ct__half_to_float, uint16_t, ct__float_to_half, a / b)

#define BF(x) ct__bfloat16_to_float(x)
/* bfloat16: one quotient in float, rounded, on either path */
CT_BINARY_LOOP(div_CT_BFLOAT16, uint16_t, float, ct__bfloat16_to_float, uint16_t, ct__float_to_bfloat16, a / b)

/* complex: the vectorized rows compute Vectorized's (ac + bd, bc - ad) / (c^2 + d^2) (binary_sleef.c);
   c10::complex's scalar operator/ is the same formula, which GCC compiled into fma(c, c, d*d),
   fma(a, c, b*d) and b*c - a*d as one fused multiply-subtract (torch compat: CT_COMPAT_FMA, rounded
   per operation with the switch off, kernels/cpu/torch_compat.h). (Which NaN comes out of NaN operands,
   which torch's instruction order decides, is not reproduced: docs/ARCHITECTURE.md.) */
#define CDIV_SCALAR(T, MK, RE, IM, FMA)                                                     \
  {                                                                                         \
    T a = RE(x), b = IM(x), c = RE(y), d = IM(y);                                           \
    T den = FMA(c, c, d * d), re = FMA(a, c, b * d), im = FMA(b, c, -(a * d));              \
    return MK(re / den, im / den);                                                          \
  }
static inline ct_c64 cdiv64_s(ct_c64 x, ct_c64 y, const void *ctx) {
  (void)ctx;
  CDIV_SCALAR(float, CMPLXF, crealf, cimagf, CT_COMPAT_FMAF)
}
static inline ct_c128 cdiv128_s(ct_c128 x, ct_c128 y, const void *ctx) {
  (void)ctx;
  CDIV_SCALAR(double, CMPLX, creal, cimag, CT_COMPAT_FMA)
}
static void cdiv64_vb(ct_c64 *o, const ct_c64 *a, bool as, const ct_c64 *b, bool bs, int64_t n, const void *c) {
  (void)c;
  ct__cdiv_c64((float *)o, (const float *)a, as, (const float *)b, bs, n);
}
static void cdiv128_vb(ct_c128 *o, const ct_c128 *a, bool as, const ct_c128 *b, bool bs, int64_t n, const void *c) {
  (void)c;
  ct__cdiv_c128((double *)o, (const double *)a, as, (const double *)b, bs, n);
}
CT_VS_LOOP2(div_CT_COMPLEX64, ct_c64, CT_W_C64, cdiv64_vb, cdiv64_s)
CT_VS_LOOP2(div_CT_COMPLEX128, ct_c128, CT_W_C128, cdiv128_vb, cdiv128_s)

static const ct_loop *const div_loops[CT_NUM_DTYPES + 1] = {
    [CT_FLOAT16] = CT_LOOP_REF(div_CT_FLOAT16),     [CT_BFLOAT16] = CT_LOOP_REF(div_CT_BFLOAT16),   [CT_FLOAT32] = CT_LOOP_REF(div_CT_FLOAT32),
    [CT_FLOAT64] = CT_LOOP_REF(div_CT_FLOAT64),     [CT_COMPLEX64] = CT_LOOP_REF(div_CT_COMPLEX64), [CT_COMPLEX128] = CT_LOOP_REF(div_CT_COMPLEX128),
};
/* true_divide, and div without a rounding mode */
const ct_pw_op ct__pw_op_true_divide = {
    CT_PW_OP_ATEN("div", ("aten::div.Tensor", "aten::div_.Tensor", "aten::div.out"), "div_true_cpu",
                  COMMON_FLOAT, div_loops, DIFF),
    .run = ct__bin_pw_run};

/* ---- trunc division ---- */
CT_BINARY_LOOP(divt_CT_FLOAT32, float, float, CT_ID, float, CT_ID, truncf(a / b))
CT_BINARY_LOOP(divt_CT_FLOAT64, double, double, CT_ID, double, CT_ID, trunc(a / b))
CT_BINARY_LOOP(divt_CT_FLOAT16, uint16_t, float, ct__half_to_float, uint16_t, ct__float_to_half, truncf(ct__rh(a / b)))
CT_BINARY_LOOP(divt_CT_BFLOAT16, uint16_t, float, ct__bfloat16_to_float, uint16_t, ct__float_to_bfloat16, truncf(ct__rb(a / b)))

static const ct_loop *const divt_loops[CT_NUM_DTYPES + 1] = {
    [CT_UINT8] = CT_LOOP_REF(divt_CT_UINT8),     [CT_INT8] = CT_LOOP_REF(divt_CT_INT8),         [CT_INT16] = CT_LOOP_REF(divt_CT_INT16),
    [CT_INT32] = CT_LOOP_REF(divt_CT_INT32),     [CT_INT64] = CT_LOOP_REF(divt_CT_INT64),       [CT_FLOAT16] = CT_LOOP_REF(divt_CT_FLOAT16),
    [CT_BFLOAT16] = CT_LOOP_REF(divt_CT_BFLOAT16), [CT_FLOAT32] = CT_LOOP_REF(divt_CT_FLOAT32), [CT_FLOAT64] = CT_LOOP_REF(divt_CT_FLOAT64),
};
static const ct_pw_op div_trunc_op = {
    CT_PW_OP_ATEN("div", ("aten::div.Tensor_mode", "aten::div_.Tensor_mode", "aten::div.out_mode"),
                  "div_trunc_cpu", COMMON, divt_loops, DIFF),
    .kernel_check = zero_check};

/* ---- floor division: torch's div_floor_kernel formulas ----
   vectorized: mod = fmod(a, b); div = (a - mod) / b; div -= 1 where mod != 0 and sign(b) != sign(mod);
   fl = floor(div); fl += 1 where div - fl > 0.5; fl = copysign(0, a / b) where div == 0; a / b where
   b == 0. Scalar: the same with an early a / b for b == 0. R rounds after each step (bfloat16 and the
   float16 vector path work in their own type). */
/* Every step is evaluated unconditionally and then selected (no short-circuits), so the compiler can
   vectorize it without -fno-trapping-math. */
#define FLOORDIV_VEC(T, R, FLOOR, COPYSIGN, a, b, mod)                         \
  {                                                                            \
    T div_ = R(R((a) - (mod)) / (b));                                          \
    T dm1_ = R(div_ - 1);                                                      \
    div_ = (((mod) != 0) & (((b) < 0) != ((mod) < 0))) ? dm1_ : div_;          \
    T fl_ = R(FLOOR(div_));                                                    \
    T frac_ = R(div_ - fl_), fp1_ = R(fl_ + 1);                                \
    fl_ = frac_ > (T)0.5 ? fp1_ : fl_;                                         \
    T basic_ = R((a) / (b));                                                   \
    T zero_ = COPYSIGN((T)0, basic_);                                          \
    fl_ = div_ == 0 ? zero_ : fl_;                                             \
    return (b) == 0 ? basic_ : fl_;                                            \
  }
#define FLOORDIV_SCA(T, R, FLOOR, COPYSIGN, a, b, mod)                         \
  {                                                                            \
    if ((b) == 0) return R((a) / (b));                                         \
    T div_ = R(R((a) - (mod)) / (b));                                          \
    if ((mod) != 0 && (((b) < 0) != ((mod) < 0))) div_ = R(div_ - 1);          \
    T fl_;                                                                     \
    if (div_ != 0) {                                                           \
      fl_ = R(FLOOR(div_));                                                    \
      if (R(div_ - fl_) > (T)0.5) fl_ = R(fl_ + 1);                            \
    } else {                                                                   \
      fl_ = COPYSIGN((T)0, R((a) / (b)));                                      \
    }                                                                          \
    return fl_;                                                                \
  }
#define ID(x) (x)

static inline float floor_f32_v(float a, float b, float mod) FLOORDIV_VEC(float, ID, floorf, copysignf, a, b, mod)
static inline float floor_f32_s(float a, float b, const void *c) {
  (void)c;
  float mod = fmodf(a, b);
  FLOORDIV_SCA(float, ID, floorf, copysignf, a, b, mod)
}
static inline double floor_f64_v(double a, double b, double mod) FLOORDIV_VEC(double, ID, floor, copysign, a, b, mod)
static inline double floor_f64_s(double a, double b, const void *c) {
  (void)c;
  double mod = fmod(a, b);
  FLOORDIV_SCA(double, ID, floor, copysign, a, b, mod)
}
static inline float floor_bf_v(float a, float b, float mod) FLOORDIV_VEC(float, ct__rb, floorf, copysignf, a, b, mod)
static inline uint16_t floor_bf_s(uint16_t x, uint16_t y, const void *c) {
  (void)c;
  float a = BF(x), b = BF(y), mod = ct__rb(fmodf(a, b));
  float r;
  {
    r = 0;
    if (b == 0) {
      r = ct__rb(a / b);
    } else {
      float div = ct__rb(ct__rb(a - mod) / b);
      if (mod != 0 && ((b < 0) != (mod < 0))) div = ct__rb(div - 1);
      if (div != 0) {
        r = ct__rb(floorf(div));
        if (ct__rb(div - r) > 0.5f) r = ct__rb(r + 1);
      } else {
        r = copysignf(0, ct__rb(a / b));
      }
    }
  }
  return ct__float_to_bfloat16(r);
}
/* float16: the vectorized path (generic Vectorized<Half>) rounds each step to half and uses glibc's fmod;
   the scalar one keeps the float results of `auto mod = std::fmod(a, b)` and `(a - mod) / b`. */
static inline float floor_h_v(float a, float b) {
  float mod = ct__rh(fmodf(a, b));
  FLOORDIV_VEC(float, ct__rh, floorf, copysignf, a, b, mod)
}
static inline float floor_h_s(float a, float b) {
  if (b == 0) return a / b;
  float mod = fmodf(a, b);
  float div = (a - mod) / b;
  if (mod != 0 && ((b < 0) != (mod < 0))) div -= 1;
  float fl;
  if (div != 0) {
    fl = ct__rh(floorf(div));
    if (div - fl > 0.5f) fl = ct__rh(fl + 1);
  } else {
    fl = copysignf(0, ct__rh(a / b));
  }
  return fl;
}

/* vector blocks through SLEEF's fmod: a chunk of fmod results, then the element formula (compiled for
   the CPU clones, so floor/copysign/compares vectorize) */
#define FMOD_ELEMS(ELEM, CVT)                                                                  \
  if (as && bs) {                                                                              \
    for (int64_t k = 0; k < m; k++) o[k0 + k] = CVT(ELEM(pa[k], pb[k], mod[k]));               \
  } else if (bs) {                                                                             \
    const float_t_ x = pa[0];                                                                  \
    for (int64_t k = 0; k < m; k++) o[k0 + k] = CVT(ELEM(x, pb[k], mod[k]));                   \
  } else {                                                                                     \
    const float_t_ y = pb[0];                                                                  \
    for (int64_t k = 0; k < m; k++) o[k0 + k] = CVT(ELEM(pa[k], y, mod[k]));                   \
  }
#define FMOD_VBLOCK(name, T, SL, ELEM)                                                                 \
  CT_KERNEL_CLONES static void name(T *o, const T *a, bool as, const T *b, bool bs, int64_t n,         \
                                    const void *ctx) {                                                 \
    typedef T float_t_;                                                                                \
    (void)ctx;                                                                                         \
    T mod[CT_BIN_CHUNK];                                                                               \
    for (int64_t k0 = 0; k0 < n; k0 += CT_BIN_CHUNK) {                                                 \
      int64_t m = n - k0 < CT_BIN_CHUNK ? n - k0 : CT_BIN_CHUNK;                                       \
      const T *pa = as ? a + k0 : a, *pb = bs ? b + k0 : b;                                            \
      SL(CT_SL_FMOD, mod, pa, as, pb, bs, m);                                                          \
      FMOD_ELEMS(ELEM, ID)                                                                             \
    }                                                                                                  \
  }
/* bfloat16: through float scratch, results stored the vectorized way */
#define FMOD_VBLOCK_BF(name, ELEM)                                                                       \
  CT_KERNEL_CLONES static void name(uint16_t *o, const uint16_t *a, bool as, const uint16_t *b, bool bs, \
                                    int64_t n, const void *ctx) {                                      \
    typedef float float_t_;                                                                            \
    (void)ctx;                                                                                         \
    float fa[CT_BIN_CHUNK], fb[CT_BIN_CHUNK], mod[CT_BIN_CHUNK];                                       \
    for (int64_t k0 = 0; k0 < n; k0 += CT_BIN_CHUNK) {                                                 \
      int64_t m = n - k0 < CT_BIN_CHUNK ? n - k0 : CT_BIN_CHUNK;                                       \
      int64_t ma = as ? m : 1, mb = bs ? m : 1;                                                        \
      for (int64_t k = 0; k < ma; k++) fa[k] = BF(a[(as ? k0 : 0) + k]);                               \
      for (int64_t k = 0; k < mb; k++) fb[k] = BF(b[(bs ? k0 : 0) + k]);                               \
      ct__sl2_f32(CT_SL_FMOD, mod, fa, as, fb, bs, m);                                                 \
      for (int64_t k = 0; k < m; k++) mod[k] = ct__rb(mod[k]);                                        \
      const float *pa = fa, *pb = fb;                                                                  \
      FMOD_ELEMS(ELEM, ct__float_to_bfloat16)                                                             \
    }                                                                                                  \
  }

FMOD_VBLOCK(floor_f32_vb, float, ct__sl2_f32, floor_f32_v)
FMOD_VBLOCK(floor_f64_vb, double, ct__sl2_f64, floor_f64_v)
FMOD_VBLOCK_BF(floor_bf_vb, floor_bf_v)
CT_VS_LOOP2(divf_CT_FLOAT32, float, CT_W_F32, floor_f32_vb, floor_f32_s)
CT_VS_LOOP2(divf_CT_FLOAT64, double, CT_W_F64, floor_f64_vb, floor_f64_s)
CT_VS_LOOP2(divf_CT_BFLOAT16, uint16_t, CT_W_R16, floor_bf_vb, floor_bf_s)
#define H(x) ct__half_to_float(x)
#define FLOOR_HV(x, y, c) ct__float_to_half(floor_h_v(H(x), H(y)))
CT_VBLOCK_ELEM(floor_h_vb, uint16_t, FLOOR_HV)
static inline uint16_t floor_h_sw(uint16_t x, uint16_t y, const void *c) {
  (void)c;
  return ct__float_to_half(floor_h_s(H(x), H(y)));
}
CT_VS_LOOP2(divf_CT_FLOAT16, uint16_t, CT_W_R16, floor_h_vb, floor_h_sw)

static const ct_loop *const divf_loops[CT_NUM_DTYPES + 1] = {
    [CT_UINT8] = CT_LOOP_REF(divt_CT_UINT8),     [CT_INT8] = CT_LOOP_REF(divf_CT_INT8),         [CT_INT16] = CT_LOOP_REF(divf_CT_INT16),
    [CT_INT32] = CT_LOOP_REF(divf_CT_INT32),     [CT_INT64] = CT_LOOP_REF(divf_CT_INT64),       [CT_FLOAT16] = CT_LOOP_REF(divf_CT_FLOAT16),
    [CT_BFLOAT16] = CT_LOOP_REF(divf_CT_BFLOAT16), [CT_FLOAT32] = CT_LOOP_REF(divf_CT_FLOAT32), [CT_FLOAT64] = CT_LOOP_REF(divf_CT_FLOAT64),
};
/* torch/_refs' _floor_divide on meta: floating or integral (not bool) operands after promotion */
static bool floor_divide_ref_check(ct_dtype common, const ct_tensor *const *in, const void *args) {
  (void)in, (void)args;
  ct_dtype_category cat = ct__dt(common)->category;
  if (cat == CT_CAT_FLOAT || cat == CT_CAT_INT) return true;
  ct__error(CT_ERR_RUNTIME, "%s not supported for floor_divide", ct__dt(common)->torch_name);
  return false;
}

/* _floor_divide's rule for operands on two devices: a Python number (a wrapped one reaches the reference as one)
   becomes a tensor on the other operand's device, scalar_tensor(number, dtype=the computation dtype), a checked
   conversion on the CPU (a meta fill converts nothing); else a dividend on the CPU refuses a divisor elsewhere and
   any other takes the divisor to its own device (prims.device_put). It computes on the dividend's device. */
static bool floor_divide_ref_device(const ct_tensor *const *in, int n_in, ct_device *dev) {
  bool a_number = in[0]->flags & CT_TENSOR_WRAPPED_NUMBER, b_number = in[1]->flags & CT_TENSOR_WRAPPED_NUMBER;
  /* the binary references' own refusal, before their broadcast (which cannot fail) */
  if (a_number && b_number) {
    ct__error(CT_ERR_VALUE, "Receive two Number inputs to an elementwise binary operation!");
    return false;
  }
  *dev = ct__tdevice(in[a_number]);
  if (a_number || b_number) {
    const ct_tensor *number = in[b_number];
    ct_dtype common;
    /* a promotion torch refuses is the route's to report */
    if (dev->type != CT_CPU || ct__result_type(in, n_in, &common) != CT_OK) return true;
    return ct__scalar_fits(ct__load_scalar((ct_dtype)number->dtype, ct__tdata(number)),
                           (ct_dtype)ct__dt(common)->opmath_dtype);
  }
  if (ct_device_equal(*dev, ct__tdevice(in[1])) || in[0]->device_type != CT_CPU) return true;
  char a[32], b[32];
  ct_device_str(*dev, a, sizeof a);
  ct_device_str(ct__tdevice(in[1]), b, sizeof b);
  ct__error(CT_ERR_RUNTIME,
            "Expected divisor (b) to be on the same device (%s) as dividend (a), but it is found on %s!", a,
            b);
  return false;
}

/* The layout of torch/_refs' _floor_divide's result: a prim's over the broadcast operands for floating and
   unsigned dtypes (the last where, prims.div), for signed ones aten::sub's (TensorIterator's) of prims.div's
   result and the converted offset, which is contiguous (logical_and's composite fills an empty out through
   its Python reference's out_wrapper), run here on meta stand-ins. */
static void floor_divide_ref_strides(const ct_tensor *const *in, int n_in, const ct_tensor *r,
                                     int64_t *strides) {
  ct_dtype dt = (ct_dtype)r->dtype;
  if (ct_scope_begin() != CT_OK) {
    ct_scope_end();
    return;
  }
  /* the computation dtype: float32 for float16 and bfloat16 operands (elementwise_dtypes' opmath) */
  ct_dtype comp = dt == CT_FLOAT16 || dt == CT_BFLOAT16 ? CT_FLOAT32 : dt;
  const ct_tensor *conv[2] = {ct__pw_ref_converted(in[0], comp),
                              n_in > 1 ? ct__pw_ref_converted(in[1], comp) : NULL};
  ct__prims_elementwise_strides(conv, n_in, r->ndim, r->sizes, strides);
  if (ct__dt(dt)->category != CT_CAT_INT || !ct__dt(dt)->is_signed) {
    ct_scope_end();
    return;
  }
  ct_tensor *div = ct__own(ct__pw_meta_strided(r->ndim, r->sizes, strides, dt));
  ct_tensor *off = ct__own(ct__empty(r->ndim, r->sizes, dt, CT_DEVICE_META));
  ct_tensor *res = div && off ? ct__pw_apply(&ct__pw_op_sub, div, off) : NULL;
  if (res) memcpy(strides, res->strides, (size_t)r->ndim * sizeof(int64_t));
  ct_scope_end();
}

/* floor_divide, and div with rounding_mode 'floor' (div's Meta kernel is its structured one: no ref's checks) */
#define FLOOR_DIVIDE_OP                                                                         \
  CT_PW_OP_ATEN("floor_divide",                                                                 \
                ("aten::floor_divide", "aten::floor_divide_.Tensor", "aten::floor_divide.out"), \
                "div_floor_cpu", COMMON, divf_loops, OUT_INPLACE),                              \
      .kernel_check = zero_check, .run = ct__bin_pw_run
const ct_pw_op ct__pw_op_floor_divide = {FLOOR_DIVIDE_OP,
                                         .dev = CT_PW_DEV_COPY,
                                         .meta_check = floor_divide_ref_check,
                                         .meta_inplace_noop = true,
                                         .ref_device = floor_divide_ref_device,
                                         .ref_cpu_check = zero_check, /* fmod's and prims.div's */
                                         .ref_strides = floor_divide_ref_strides};
static const ct_pw_op div_floor_op = {FLOOR_DIVIDE_OP};

/* ---- remainder: mod = fmod(a, b); mod += b where mod != 0 and sign(b) != sign(mod) ---- */
#define REM_ELEM(T, R, a, b, mod)                                            \
  {                                                                          \
    T sum_ = R((mod) + (b));                                                 \
    return (((mod) != 0) & (((b) < 0) != ((mod) < 0))) ? sum_ : (mod);       \
  }
static inline float rem_f32_v(float a, float b, float mod) { (void)a; REM_ELEM(float, ID, a, b, mod) }
static inline float rem_f32_s(float a, float b, const void *c) {
  (void)c;
  float mod = fmodf(a, b);
  REM_ELEM(float, ID, a, b, mod)
}
static inline double rem_f64_v(double a, double b, double mod) { (void)a; REM_ELEM(double, ID, a, b, mod) }
static inline double rem_f64_s(double a, double b, const void *c) {
  (void)c;
  double mod = fmod(a, b);
  REM_ELEM(double, ID, a, b, mod)
}
static inline float rem_bf_v(float a, float b, float mod) { (void)a; REM_ELEM(float, ct__rb, a, b, mod) }
static inline uint16_t rem_bf_s(uint16_t x, uint16_t y, const void *c) {
  (void)c;
  float a = BF(x), b = BF(y), mod = ct__rb(fmodf(a, b));
  float r = (mod != 0 && ((b < 0) != (mod < 0))) ? ct__rb(mod + b) : mod;
  return ct__float_to_bfloat16(r);
}
FMOD_VBLOCK(rem_f32_vb, float, ct__sl2_f32, rem_f32_v)
FMOD_VBLOCK(rem_f64_vb, double, ct__sl2_f64, rem_f64_v)
FMOD_VBLOCK_BF(rem_bf_vb, rem_bf_v)
CT_VS_LOOP2(rem_CT_FLOAT32, float, CT_W_F32, rem_f32_vb, rem_f32_s)
CT_VS_LOOP2(rem_CT_FLOAT64, double, CT_W_F64, rem_f64_vb, rem_f64_s)
CT_VS_LOOP2(rem_CT_BFLOAT16, uint16_t, CT_W_R16, rem_bf_vb, rem_bf_s)
static inline float rem_h(float a, float b) {
  float mod = ct__rh(fmodf(a, b));
  return (mod != 0 && ((b < 0) != (mod < 0))) ? ct__rh(mod + b) : mod;
}
CT_BINARY_LOOP(rem_CT_FLOAT16, uint16_t, float, ct__half_to_float, uint16_t, ct__float_to_half, rem_h(a, b))

static const ct_loop *const rem_loops[CT_NUM_DTYPES + 1] = {
    [CT_UINT8] = CT_LOOP_REF(rem_CT_UINT8),     [CT_INT8] = CT_LOOP_REF(rem_CT_INT8),         [CT_INT16] = CT_LOOP_REF(rem_CT_INT16),
    [CT_INT32] = CT_LOOP_REF(rem_CT_INT32),     [CT_INT64] = CT_LOOP_REF(rem_CT_INT64),       [CT_FLOAT16] = CT_LOOP_REF(rem_CT_FLOAT16),
    [CT_BFLOAT16] = CT_LOOP_REF(rem_CT_BFLOAT16), [CT_FLOAT32] = CT_LOOP_REF(rem_CT_FLOAT32), [CT_FLOAT64] = CT_LOOP_REF(rem_CT_FLOAT64),
};
/* remainder.Scalar_Tensor (a Python number first) has no Meta kernel of its own in torch 1.13: torch/_refs'
   remainder stands in, whose prims.remainder lays the result out by compute_elementwise_output_strides over the
   tensor operand as converted to the result dtype (TensorIterator's layout differs for some empty or size-1
   dims). The op's other overloads keep their structured Meta kernel's layout. */
static ct_status remainder_run(const ct_pw_op *op, ct_tensor *out, const ct_tensor *const *in, int n_in,
                               bool inplace, const void *args, ct_tensor **result) {
  bool scalar_first = !out && result && n_in == 2 && in[0] && in[1] &&
                      in[0]->flags & CT_TENSOR_WRAPPED_NUMBER && CT__OP_ON_META(in[0], in[1]);
  if (!scalar_first) return ct__bin_pw_run(op, out, in, n_in, inplace, args, result);
  if (ct_scope_begin() != CT_OK) return CT_ERR_OUT_OF_MEMORY;
  ct_tensor *r = NULL, *kept = NULL; /* r: owned by this scope */
  ct_status s = ct__bin_pw_run(op, NULL, in, n_in, false, args, &r);
  if (s == CT_OK) {
    int64_t strides[r->ndim + 1];
    const ct_tensor *conv = ct__pw_ref_converted(in[1], (ct_dtype)r->dtype);
    if (conv) ct__prims_elementwise_strides(&conv, 1, r->ndim, r->sizes, strides);
    kept = conv ? ct__pw_meta_strided(r->ndim, r->sizes, strides, (ct_dtype)r->dtype) : NULL;
    if (!kept) s = ct_last_error() ? ct_last_error() : CT_ERR_OUT_OF_MEMORY;
  }
  ct_scope_end();
  *result = kept ? ct__own(kept) : NULL;
  return s;
}
const ct_pw_op ct__pw_op_remainder = {
    CT_PW_OP_ATEN("remainder", CT_PW_ATEN_TENSOR("remainder"), "remainder_cpu", COMMON, rem_loops, DIFF),
    .kernel_check = zero_check, .run = remainder_run};

/* ---- fmod ---- */
static void fmod_f32_vb(float *o, const float *a, bool as, const float *b, bool bs, int64_t n, const void *c) {
  (void)c;
  ct__sl2_f32(CT_SL_FMOD, o, a, as, b, bs, n);
}
static void fmod_f64_vb(double *o, const double *a, bool as, const double *b, bool bs, int64_t n, const void *c) {
  (void)c;
  ct__sl2_f64(CT_SL_FMOD, o, a, as, b, bs, n);
}
static inline float fmod_f32_s(float a, float b, const void *c) { (void)c; return fmodf(a, b); }
static inline double fmod_f64_s(double a, double b, const void *c) { (void)c; return fmod(a, b); }
static inline float fmod_bf_v(float a, float b, float mod) { (void)a; (void)b; return mod; }
static inline uint16_t fmod_bf_s(uint16_t x, uint16_t y, const void *c) {
  (void)c;
  return ct__float_to_bfloat16(fmodf(BF(x), BF(y)));
}
FMOD_VBLOCK_BF(fmod_bf_vb, fmod_bf_v)
CT_VS_LOOP2(fmod_CT_FLOAT32, float, CT_W_F32, fmod_f32_vb, fmod_f32_s)
CT_VS_LOOP2(fmod_CT_FLOAT64, double, CT_W_F64, fmod_f64_vb, fmod_f64_s)
CT_VS_LOOP2(fmod_CT_BFLOAT16, uint16_t, CT_W_R16, fmod_bf_vb, fmod_bf_s)
CT_BINARY_LOOP(fmod_CT_FLOAT16, uint16_t, float, ct__half_to_float, uint16_t, ct__float_to_half, fmodf(a, b))

static const ct_loop *const fmod_loops[CT_NUM_DTYPES + 1] = {
    [CT_UINT8] = CT_LOOP_REF(rem_CT_UINT8),      [CT_INT8] = CT_LOOP_REF(fmod_CT_INT8),         [CT_INT16] = CT_LOOP_REF(fmod_CT_INT16),
    [CT_INT32] = CT_LOOP_REF(fmod_CT_INT32),     [CT_INT64] = CT_LOOP_REF(fmod_CT_INT64),       [CT_FLOAT16] = CT_LOOP_REF(fmod_CT_FLOAT16),
    [CT_BFLOAT16] = CT_LOOP_REF(fmod_CT_BFLOAT16), [CT_FLOAT32] = CT_LOOP_REF(fmod_CT_FLOAT32), [CT_FLOAT64] = CT_LOOP_REF(fmod_CT_FLOAT64),
};
const ct_pw_op ct__pw_op_fmod = {
    CT_PW_OP_ATEN("fmod", CT_PW_ATEN_TENSOR("fmod"), "fmod_cpu", COMMON, fmod_loops, DIFF),
    .kernel_check = zero_check, .run = ct__bin_pw_run};

/* ---- public entries ---- */

/* The op for a rounding mode, or NULL with PyTorch's error for an unknown one. */
static const ct_pw_op *div_mode_op(const ct_div_opts *opts) {
  const char *m = opts ? opts->rounding_mode : NULL;
  if (!m) return &ct__pw_op_true_divide;
  if (strcmp(m, "trunc") == 0) return &div_trunc_op;
  if (strcmp(m, "floor") == 0) return &div_floor_op;
  ct__error(CT_ERR_RUNTIME, "div expected rounding_mode to be one of None, 'trunc', or 'floor' but found '%s'", m);
  return NULL;
}

static ct_status div_run(ct_tensor *out, const ct_tensor *a, const ct_tensor *b, const ct_div_opts *opts, bool inplace,
                         ct_tensor **result) {
  if (result) *result = NULL;
  CT__NONNULL_STATUS(a, b);
  if (!result && !out) return ct__null_named_status("out", 0);
  /* any rounding mode dispatches div's Tensor_mode overloads */
  const ct_pw_op *aten = opts && opts->rounding_mode ? &div_trunc_op : &ct__pw_op_true_divide;
  if (out && !inplace && !CT__OP_OUT_GRAD_OK(&aten->op, out, a, b)) return CT_ERR_RUNTIME;
  if (!CT__PW_ENTER(aten, inplace ? NULL : out, inplace, a, b)) return ct_last_error();
  const ct_pw_op *op = div_mode_op(opts);
  if (!op) return CT_ERR_RUNTIME;
  const ct_tensor *in[2] = {a, b};
  return ct__bin_pw_run(op, out, in, 2, inplace, NULL, result);
}

ct_tensor *ct_div(const ct_tensor *a, const ct_tensor *b, const ct_div_opts *opts) {
  ct_tensor *r;
  div_run(NULL, a, b, opts, false, &r);
  return r;
}
ct_status ct_div_(ct_tensor *self, const ct_tensor *other, const ct_div_opts *opts) {
  return div_run(self, self, other, opts, true, NULL);
}
ct_status ct_div_out(ct_tensor *out, const ct_tensor *a, const ct_tensor *b, const ct_div_opts *opts) {
  return div_run(out, a, b, opts, false, NULL);
}
ct_tensor *ct_divide(const ct_tensor *a, const ct_tensor *b, const ct_div_opts *opts) { return ct_div(a, b, opts); }
ct_status ct_divide_(ct_tensor *self, const ct_tensor *other, const ct_div_opts *opts) {
  return ct_div_(self, other, opts);
}
ct_status ct_divide_out(ct_tensor *out, const ct_tensor *a, const ct_tensor *b, const ct_div_opts *opts) {
  return ct_div_out(out, a, b, opts);
}
