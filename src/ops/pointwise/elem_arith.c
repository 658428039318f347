/* reciprocal, square, deg2rad, rad2deg, nan_to_num, bitwise_not, logical_not. */
/* GCC builds it with -fno-math-errno -fno-trapping-math (CMakeLists.txt: CT_FP_RELAXED_NO_ERRNO_SOURCES). */

#include <float.h>
#include <math.h>

#include "core/out_wrapper.h"
#include "ops/pointwise/binary_common.h"
#include "ops/pointwise/elem_cplx.h"

/* ---- reciprocal: 1 / a, integers and bool promoted to the default float ---- */
#define DEF_RECIP(E, T, CT, LD, ST) CT_UNARY_LOOP(recip_##E, T, CT, LD, T, ST, (CT)1 / a)
DEF_RECIP(CT_FLOAT16, uint16_t, float, ct__half_to_float, ct__float_to_half)
CT_DT_FLOAT(DEF_RECIP)
CT_ELEM_BF16_LOOP(recip_CT_BFLOAT16, 1.0f / a)
/* Vector code: (re, -im) / (re^2 + im^2). Scalar code: c10::complex 1 / z (elem_cscalar.c). */
#define RECIP_V(T, SQRT, HYPOT, SUF) \
  do {                               \
    T d_ = re * re + im * im;        \
    o[0] = re / d_;                  \
    o[1] = -im / d_;                 \
  } while (0)
#define RECIP_S(T, SQRT, HYPOT, SUF) ct__elem_crecip_##SUF(re, im, o)
CT_ELEM_CLOOPS(recip, 2, RECIP_V, RECIP_S)
#define ENTRY(E, T, CT, LD, ST) [E] = CT_LOOP_REF(recip_##E),
static const ct_loop *const recip_loops[CT_NUM_DTYPES + 1] = {CT_DT_FLOATING(ENTRY)[CT_COMPLEX64] = CT_LOOP_REF(recip_c64),
                                                          [CT_COMPLEX128] = CT_LOOP_REF(recip_c128)};
#undef ENTRY
const ct_pw_op ct__pw_op_reciprocal = {CT_PW_OP("reciprocal", "reciprocal_cpu", FLOAT, recip_loops),
                                       .run = ct__elem_float_run};

/* ---- square: pow(t, 2), so bool becomes int64 and integers wrap ---- */
#define SQ_INT(T, U) ((T)(U)((U)a * (U)a))
CT_UNARY_LOOP(square_CT_UINT8, uint8_t, uint8_t, CT_ID, uint8_t, CT_ID, SQ_INT(uint8_t, uint32_t))
CT_UNARY_LOOP(square_CT_INT8, int8_t, int8_t, CT_ID, int8_t, CT_ID, SQ_INT(int8_t, uint32_t))
CT_UNARY_LOOP(square_CT_INT16, int16_t, int16_t, CT_ID, int16_t, CT_ID, SQ_INT(int16_t, uint32_t))
CT_UNARY_LOOP(square_CT_INT32, int32_t, int32_t, CT_ID, int32_t, CT_ID, SQ_INT(int32_t, uint32_t))
CT_UNARY_LOOP(square_CT_INT64, int64_t, int64_t, CT_ID, int64_t, CT_ID, SQ_INT(int64_t, uint64_t))
#define DEF_SQUARE_F(E, T, CT, LD, ST) CT_UNARY_LOOP(square_##E, T, CT, LD, T, ST, a * a)
DEF_SQUARE_F(CT_FLOAT16, uint16_t, float, ct__half_to_float, ct__float_to_half)
CT_DT_FLOAT(DEF_SQUARE_F)
CT_ELEM_BF16_LOOP(square_CT_BFLOAT16, a * a)
/* Vector code: (re^2 - im^2, re*im + im*re), each product rounded. Scalar code: c10::complex z * z
   (elem_cscalar.c). */
#define SQ_V(T, SQRT, HYPOT, SUF) (o[0] = re * re - im * im, o[1] = re * im + im * re)
#define SQ_S(T, SQRT, HYPOT, SUF) ct__elem_csquare_##SUF(re, im, o)
CT_ELEM_CLOOPS(square, 2, SQ_V, SQ_S)
#define ENTRY(E, T, CT, LD, ST) [E] = CT_LOOP_REF(square_##E),
static const ct_loop *const square_loops[CT_NUM_DTYPES + 1] = {CT_DT_INTEGRAL(ENTRY) CT_DT_FLOATING(ENTRY)[CT_COMPLEX64] =
                                                               CT_LOOP_REF(square_c64),
                                                           [CT_COMPLEX128] = CT_LOOP_REF(square_c128)};
#undef ENTRY

/* pow's meta function converts a bool base to the result type of (base, 2): int64, laid out as .to() does. */
static const ct_tensor *square_base(const ct_tensor *t) {
  if (!t || t->dtype != CT_BOOL) return t;
  ct_tensor *c = ct__elem_empty_like(t, CT_INT64);
  if (c && ct__copy_into(c, t) != CT_OK) {
    ct_release(c);
    return NULL;
  }
  return c;
}
static void square_done(const ct_tensor *base, const ct_tensor *t) {
  if (base != t) ct_release((ct_tensor *)base);
}

static ct_status square_run(const ct_pw_op *op, ct_tensor *out, const ct_tensor *const *in, int n_in, bool inplace,
                            const void *args, ct_tensor **result) {
  const ct_tensor *base[1] = {square_base(in[0])};
  ct_status s = ct__pw_run(op, out, base, n_in, inplace, args, result);
  square_done(base[0], in[0]);
  return s;
}
const ct_pw_op ct__pw_op_square = {
    CT_PW_OP_ATEN("pow", ("aten::pow.Tensor_Scalar", "aten::pow_.Scalar", "aten::pow.Tensor_Scalar_out"),
                  "pow", SAME, square_loops, DIFF),
    .run = square_run};

/* ---- deg2rad / rad2deg: ATen multiplies by a wrapped double (so float16 uses the constant rounded to
   float16); integer and bool inputs give the default float dtype, laid out as empty_like(t). ---- */
#define M_PI_180 0.017453292519943295769236907684886127134428718885417
#define M_180_PI 57.295779513082320876798154814105170332405472466564

static ct_tensor *wrapped_double(double v) {
  ct_tensor *s = ct__empty(0, NULL, CT_FLOAT64, CT_DEVICE_CPU);
  if (!s) return NULL;
  *(double *)ct__tdata(s) = v;
  s->flags |= CT_TENSOR_WRAPPED_NUMBER;
  return s;
}

static bool angle_conv_check(const ct_tensor *t, bool to_rad) {
  return ct__elem_reject_complex(t, to_rad ? "deg2rad is not supported for complex tensors."
                                           : "rad2deg is not supported for complex tensors.");
}

/* mul's kernel for the dtypes a product with a float scalar can have. Every path computes in float
   and rounds once. */
#define DEF_MULF(E, T, CT, LD, ST) CT_BINARY_LOOP(mulc_##E, T, CT, LD, T, ST, a * b)
DEF_MULF(CT_FLOAT16, uint16_t, float, ct__half_to_float, ct__float_to_half)
CT_DT_FLOAT(DEF_MULF)
DEF_MULF(CT_BFLOAT16, uint16_t, float, ct__bfloat16_to_float, ct__float_to_bfloat16)
#define ENTRY(E, T, CT, LD, ST) [E] = CT_LOOP_REF(mulc_##E),
static const ct_loop *const mulc_loops[CT_NUM_DTYPES + 1] = {CT_DT_FLOATING(ENTRY)};
#undef ENTRY
static const ct_pw_op mulc_op = {CT_PW_OP_ATEN(
    "mul", ("aten::mul.Tensor", "aten::mul_.Tensor", "aten::mul.out"), "mul_cpu", COMMON, mulc_loops, DIFF)};

/* mul_out(out, t, c) with c a wrapped number (out == t: mul_). */
static ct_status angle_conv_run(ct_tensor *out, const ct_tensor *t, bool to_rad) {
  CT__NONNULL_STATUS(t, out);
  if (!angle_conv_check(t, to_rad)) return CT_ERR_RUNTIME;
  ct_tensor *c = wrapped_double(to_rad ? M_PI_180 : M_180_PI);
  if (!c) return ct__elem_null();
  const ct_tensor *in[2] = {t, c};
  ct_status s = ct__bin_pw_run(&mulc_op, out, in, 2, out == t, NULL, NULL);
  ct_release(c);
  return s;
}

static ct_tensor *angle_conv(const ct_tensor *t, bool to_rad) {
  if (!t) return NULL;
  if (!angle_conv_check(t, to_rad)) return NULL;
  ct_dtype dt = ct__dt((ct_dtype)t->dtype)->category <= CT_CAT_INT ? ct_get_default_dtype() : (ct_dtype)t->dtype;
  ct_tensor *r = ct__elem_empty_like(t, dt);
  if (!r) return NULL;
  if (angle_conv_run(r, t, to_rad) != CT_OK) {
    ct_release(r);
    return NULL;
  }
  return ct__own(r);
}

/* The route of deg2rad and rad2deg (in place, out is t). */
static ct_status angle_conv_route(const ct_pw_op *op, ct_tensor *out, const ct_tensor *const *in, int n_in,
                                  bool inplace, const void *args, ct_tensor **result) {
  (void)n_in;
  (void)inplace;
  (void)args;
  bool to_rad = op == &ct__pw_op_deg2rad;
  if (!result) return angle_conv_run(out, in[0], to_rad);
  *result = angle_conv(in[0], to_rad);
  return *result ? CT_OK : ct__elem_null();
}
/* Their promotion and dtypes are those of the product they are: mul's kernel with a float scalar. */
const ct_pw_op ct__pw_op_deg2rad = {CT_PW_OP("deg2rad", "mul_cpu", FLOAT, mulc_loops),
                                    .run = angle_conv_route};
const ct_pw_op ct__pw_op_rad2deg = {CT_PW_OP("rad2deg", "mul_cpu", FLOAT, mulc_loops),
                                    .run = angle_conv_route};

/* ---- nan_to_num ---- */
typedef struct nan_ctx {
  double d[3]; /* nan, posinf, neginf replacements (float64) */
  float f[3];  /* the same for the float kernels, already rounded to the dtype */
} nan_ctx;
#define NC(ctx) ((const nan_ctx *)(ctx))
#define NAN_TO_NUM(a, r0, r1, r2) ((a) != (a) ? (r0) : (a) == INFINITY ? (r1) : (a) == -INFINITY ? (r2) : (a))
/* The replacements are read once per call so the contiguous loop vectorizes. */
#define DEF_NAN(E, T, CT, LD, ST, F)                                                             \
  CT_KERNEL_CLONES static void nan_##E(char **d, const int64_t *s, int64_t n, const void *ctx) { \
    const CT r0 = NC(ctx)->F[0], r1 = NC(ctx)->F[1], r2 = NC(ctx)->F[2];                         \
    if (s[0] == (int64_t)sizeof(T) && s[1] == (int64_t)sizeof(T)) {                              \
      T *restrict o = (T *)d[0];                                                                 \
      const T *restrict x = (const T *)d[1];                                                     \
      for (int64_t k = 0; k < n; k++) {                                                          \
        CT a = LD(x[k]);                                                                         \
        o[k] = ST(NAN_TO_NUM(a, r0, r1, r2));                                                    \
      }                                                                                          \
    } else {                                                                                     \
      for (int64_t k = 0; k < n; k++) {                                                          \
        CT a = LD(CT_AT(T, d[1], s[1], k));                                                      \
        CT_OUT(T, d[0], s[0], k) = ST(NAN_TO_NUM(a, r0, r1, r2));                                \
      }                                                                                          \
    }                                                                                            \
  } \
  CT_LOOP_PLAIN(nan_##E)
DEF_NAN(CT_FLOAT16, uint16_t, float, ct__half_to_float, ct__float_to_half, f)
DEF_NAN(CT_BFLOAT16, uint16_t, float, ct__bfloat16_to_float, ct__float_to_bfloat16, f)
DEF_NAN(CT_FLOAT32, float, float, CT_ID, CT_ID, f)
DEF_NAN(CT_FLOAT64, double, double, CT_ID, CT_ID, d)
static const ct_loop *const nan_loops[CT_NUM_DTYPES + 1] = {[CT_FLOAT16] = CT_LOOP_REF(nan_CT_FLOAT16), [CT_BFLOAT16] = CT_LOOP_REF(nan_CT_BFLOAT16),
                                                        [CT_FLOAT32] = CT_LOOP_REF(nan_CT_FLOAT32), [CT_FLOAT64] = CT_LOOP_REF(nan_CT_FLOAT64)};

/* static_cast<scalar_t>(double): through float for the 16-bit types. */
static float to_dtype_float(double v, ct_dtype dt) {
  float f = (float)v;
  if (dt == CT_FLOAT16) return ct__half_to_float(ct__float_to_half(f));
  if (dt == CT_BFLOAT16) return ct__bfloat16_to_float(ct__float_to_bfloat16(f));
  return f;
}

static void nan_prepare(ct_dtype common, const void *args, ct_pw_ctx *ctx) {
  const ct_nan_to_num_opts *o = args;
  nan_ctx *c = (nan_ctx *)ctx->bytes;
  double max = common == CT_FLOAT64 ? DBL_MAX : common == CT_FLOAT16 ? 65504.0 : common == CT_BFLOAT16 ? 0x1.fep127 : FLT_MAX;
  c->d[0] = o ? o->nan : 0.0;
  c->d[1] = o && o->has_posinf ? o->posinf : max;
  c->d[2] = o && o->has_neginf ? o->neginf : -max;
  for (int i = 0; i < 3; i++) c->f[i] = to_dtype_float(c->d[i], common);
}
static const ct_pw_op nan_op = {CT_PW_OP("nan_to_num", "nan_to_num", SAME, nan_loops),
                                .prepare = nan_prepare};

/* What the CPU kernels of torch/_refs' nan_to_num's steps refuse for a floating or complex self on the CPU, in
   its order: where's conversion of the NaN replacement to self's dtype (c10's overflow check), signbit's refusal of
   complex tensors, then the -inf and +inf replacements' conversions (the defaults, the dtype's extremes, fit). */
static bool nan_to_num_ref_cpu_ok(ct_dtype dt, const ct_nan_to_num_opts *o) {
  if (o && !ct__scalar_fits(CT_DOUBLE(o->nan), dt)) return false;
  if (ct_dtype_is_complex(dt)) {
    ct__error(CT_ERR_RUNTIME, "signbit is not implemented for complex tensors.");
    return false;
  }
  if (o && o->has_neginf && !ct__scalar_fits(CT_DOUBLE(o->neginf), dt)) return false;
  return !(o && o->has_posinf) || ct__scalar_fits(CT_DOUBLE(o->posinf), dt);
}

/* nan_to_num.out's Meta kernel is torch/_refs' nan_to_num under out_wrapper: a new result of self's shape and
   dtype on self's device (a clone, or where's chain over the replacements, which checks nothing on meta), then
   out_wrapper's out= rule. A floating or complex self on the CPU (a meta out) meets the CPU checks of the chain's
   steps first; its values are never read (out_wrapper refuses the meta out), so none are computed. */
static ct_status nan_to_num_meta_out(ct_tensor *out, const ct_tensor *t, const ct_nan_to_num_opts *opts) {
  ct_dtype dt = (ct_dtype)t->dtype;
  if (t->device_type != CT_META && ct__dt(dt)->category > CT_CAT_INT && !nan_to_num_ref_cpu_ok(dt, opts))
    return ct_last_error();
  if (ct_scope_begin() != CT_OK) return CT_ERR_OUT_OF_MEMORY;
  ct_tensor *r = ct__own(ct__empty(t->ndim, t->sizes, dt, ct__tdevice(t)));
  ct_status s = r ? ct__out_wrapper_copy(out, r) : ct_last_error() ? ct_last_error() : CT_ERR_OUT_OF_MEMORY;
  ct_scope_end();
  return s;
}

static ct_status nan_to_num_into(ct_tensor *out, const ct_tensor *t, const ct_nan_to_num_opts *opts, bool inplace) {
  CT__NONNULL_STATUS(t, out);
  if (!inplace && !CT__OP_OUT_GRAD_OK(&nan_op.op, out, t)) return CT_ERR_RUNTIME;
  if (!CT__PW_ENTER(&nan_op, inplace ? NULL : out, inplace, t)) return ct_last_error();
  if (!inplace && !ct__pw_out_device_ok(CT_PW_DEV_COPY, out, &t, 1)) return ct_last_error();
  if (!inplace && CT__OP_ON_META(out, t)) return nan_to_num_meta_out(out, t, opts);
  if (out->dtype != t->dtype) {
    ct__error(CT_ERR_RUNTIME, "nan_to_num: dtype of out: %s should be same as input: %s",
              ct__dt((ct_dtype)out->dtype)->scalar_name, ct__dt((ct_dtype)t->dtype)->scalar_name);
    return CT_ERR_RUNTIME;
  }
  if (ct__dt((ct_dtype)t->dtype)->category <= CT_CAT_INT) {
    /* integers have nothing to replace: resize_output + copy_ */
    if (out == t) return CT_OK;
    bool same = out->ndim == t->ndim && (t->ndim == 0 || !memcmp(out->sizes, t->sizes, (size_t)t->ndim * sizeof(int64_t)));
    if (!same) {
      /* torch resizes, then copy_ refuses a partial overlap: the refusal comes first here (out untouched) */
      if (!ct__check_resize_overlap(out, t->ndim, t->sizes, &t, 1)) return CT_ERR_RUNTIME;
      ct_status s = ct__tensor_resize(out, t->ndim, t->sizes, NULL);
      if (s != CT_OK) return s;
    }
    return ct__copy_into(out, t);
  }
  return ct__pw_run(&nan_op, out, &t, 1, inplace, opts, NULL);
}

ct_tensor *ct_nan_to_num(const ct_tensor *t, const ct_nan_to_num_opts *opts) {
  if (!t) return ct__null_ptr_arg("t");
  if (!CT__PW_ENTER(&nan_op, NULL, false, t)) return NULL;
  ct_tensor *r = ct__elem_empty_like(t, (ct_dtype)t->dtype);
  if (!r) return NULL;
  if (nan_to_num_into(r, t, opts, false) != CT_OK) {
    ct_release(r);
    return NULL;
  }
  return ct__own(r);
}
ct_status ct_nan_to_num_(ct_tensor *self, const ct_nan_to_num_opts *opts) { return nan_to_num_into(self, self, opts, true); }
ct_status ct_nan_to_num_out(ct_tensor *out, const ct_tensor *t, const ct_nan_to_num_opts *opts) {
  return nan_to_num_into(out, t, opts, false);
}

/* ---- bitwise_not: bool and integers ---- */
CT_UNARY_LOOP(bnot_CT_BOOL, uint8_t, bool, CT_LDB, bool, CT_ID, !a)
#define DEF_BNOT(E, T, CT, LD, ST) CT_UNARY_LOOP(bnot_##E, T, CT, LD, T, ST, (T)~a)
CT_DT_INTEGRAL(DEF_BNOT)
#define ENTRY(E, T, CT, LD, ST) [E] = CT_LOOP_REF(bnot_##E),
static const ct_loop *const bnot_loops[CT_NUM_DTYPES + 1] = {CT_DT_BOOL(ENTRY) CT_DT_INTEGRAL(ENTRY)};
#undef ENTRY
const ct_pw_op ct__pw_op_bitwise_not = {
    CT_PW_OP_GRAD("bitwise_not", "bitwise_not_cpu", SAME, bnot_loops, OUT_INPLACE)};

/* ---- logical_not: bool result, or !a converted to out's dtype (any) ---- */
#define DEF_LNOT(E, T, CT, LD, ST) CT_UNARY_LOOP(lnot_##E, T, CT, LD, bool, CT_ID, a == 0)
CT_UNARY_LOOP(lnot_CT_BOOL, uint8_t, bool, CT_LDB, bool, CT_ID, !a)
CT_DT_ALL_NUMERIC(DEF_LNOT)
#define ENTRY(E, T, CT, LD, ST) [E] = CT_LOOP_REF(lnot_##E),
static const ct_loop *const lnot_loops[CT_NUM_DTYPES + 1] = {CT_DT_ALL(ENTRY)};
#undef ENTRY
const ct_pw_op ct__pw_op_logical_not = {
    CT_PW_OP_ATEN("logical_not", CT_PW_ATEN_OUT("logical_not"), "logical_not_cpu", COMPARE, lnot_loops, NONE),
    .dev = CT_PW_DEV_COPY, .fn_over_out = true};
