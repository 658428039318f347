/* abs (absolute is its alias in the op table), sign, sgn, signbit, positive. */
/* No kernel here reads errno or FP exception flags; saying so lets GCC vectorize sqrt and the rounding
   functions (PyTorch builds with -fno-math-errno -fno-trapping-math too). */
/* GCC builds it with -fno-math-errno -fno-trapping-math (CMakeLists.txt: CT_FP_RELAXED_NO_ERRNO_SOURCES). */

#include <math.h>

#include "ops/pointwise/elem_cplx.h"

#define CT_WRAP(T, U, expr) ((T)(U)(expr))

/* ---- abs ---- */
#define ABS_INT(T, U) (a < 0 ? CT_WRAP(T, U, 0u - (U)a) : a)
CT_UNARY_LOOP(abs_CT_UINT8, uint8_t, uint8_t, CT_ID, uint8_t, CT_ID, a)
CT_UNARY_LOOP(abs_CT_INT8, int8_t, int8_t, CT_ID, int8_t, CT_ID, ABS_INT(int8_t, uint8_t))
CT_UNARY_LOOP(abs_CT_INT16, int16_t, int16_t, CT_ID, int16_t, CT_ID, ABS_INT(int16_t, uint16_t))
CT_UNARY_LOOP(abs_CT_INT32, int32_t, int32_t, CT_ID, int32_t, CT_ID, ABS_INT(int32_t, uint32_t))
CT_UNARY_LOOP(abs_CT_INT64, int64_t, int64_t, CT_ID, int64_t, CT_ID, ABS_INT(int64_t, uint64_t))
CT_UNARY_LOOP(abs_CT_FLOAT16, uint16_t, float, ct__half_to_float, uint16_t, ct__float_to_half, fabsf(a))
CT_ELEM_BF16_LOOP(abs_CT_BFLOAT16, fabsf(a))
CT_UNARY_LOOP(abs_CT_FLOAT32, float, float, CT_ID, float, CT_ID, fabsf(a))
CT_UNARY_LOOP(abs_CT_FLOAT64, double, double, CT_ID, double, CT_ID, fabs(a))

/* |z|: torch's vector code squares and adds (then sqrt); its scalar code is std::abs (hypot). */
#define CABS_V(T, SQRT, HYPOT, SUF) o[0] = SQRT(re * re + im * im)
#define CABS_S(T, SQRT, HYPOT, SUF) o[0] = HYPOT(re, im)
#define CABS_CV(T, SQRT, HYPOT, SUF) (o[0] = SQRT(re * re + im * im), o[1] = 0)
#define CABS_CS(T, SQRT, HYPOT, SUF) (o[0] = HYPOT(re, im), o[1] = 0)
CT_ELEM_CLOOPS(cabs, 1, CABS_V, CABS_S)  /* complex -> real */
CT_ELEM_CLOOPS(cabsc, 2, CABS_CV, CABS_CS) /* complex -> complex (abs(z, out=complex)) */

static const ct_loop *const abs_loops[CT_NUM_DTYPES + 1] = {
    [CT_UINT8] = CT_LOOP_REF(abs_CT_UINT8),     [CT_INT8] = CT_LOOP_REF(abs_CT_INT8),         [CT_INT16] = CT_LOOP_REF(abs_CT_INT16),
    [CT_INT32] = CT_LOOP_REF(abs_CT_INT32),     [CT_INT64] = CT_LOOP_REF(abs_CT_INT64),       [CT_FLOAT16] = CT_LOOP_REF(abs_CT_FLOAT16),
    [CT_BFLOAT16] = CT_LOOP_REF(abs_CT_BFLOAT16), [CT_FLOAT32] = CT_LOOP_REF(abs_CT_FLOAT32), [CT_FLOAT64] = CT_LOOP_REF(abs_CT_FLOAT64),
    [CT_COMPLEX64] = CT_LOOP_REF(cabsc_c64),    [CT_COMPLEX128] = CT_LOOP_REF(cabsc_c128)};

static const ct_loop *cabs_loop(const ct_tensor *t) {
  return t->dtype == CT_COMPLEX64 ? CT_LOOP_REF(cabs_c64) : CT_LOOP_REF(cabs_c128);
}
static const ct_loop *cabsc_loop(const ct_tensor *t) {
  return t->dtype == CT_COMPLEX64 ? CT_LOOP_REF(cabsc_c64) : CT_LOOP_REF(cabsc_c128);
}

/* abs of a complex tensor is real: computed as ATen's unary_op_impl_with_complex_to_float does, laid out
   as empty_like(self); in place it is an error. Another dtype's functional abs is unary_op_impl: abs.out with
   an empty out, which on meta (out_wrapper, ct__pw_ref_run) is resized contiguous. */
static ct_status abs_run(const ct_pw_op *op, ct_tensor *out, const ct_tensor *const *in, int n_in, bool inplace,
                         const void *args, ct_tensor **result) {
  const ct_tensor *t = in[0];
  if (t && ct__elem_is_complex(t)) {
    if (result) {
      *result = ct__elem_relayout(ct__elem_complex_to_real(t, cabs_loop(t)), t);
      return *result ? CT_OK : ct__elem_null();
    }
    if (inplace) {
      ct__error(CT_ERR_RUNTIME, "In-place abs is not supported for complex tensors.");
      return CT_ERR_RUNTIME;
    }
    if (out && !ct__elem_is_complex(out)) return ct__elem_complex_to_real_out(out, t, cabsc_loop(t));
  }
  if (t && result && t->device_type == CT_META) {
    *result = ct__own(ct__empty(t->ndim, t->sizes, (ct_dtype)t->dtype, ct__tdevice(t)));
    return *result ? CT_OK : ct__elem_null();
  }
  return ct__pw_run(op, out, in, n_in, inplace, args, result);
}

const ct_pw_op ct__pw_op_abs = {CT_PW_OP("abs", "abs_cpu", SAME, abs_loops), .run = abs_run,
                                .dev = CT_PW_DEV_COPY};

/* ---- sign: (0 < a) - (a < 0); NaN and -0.0 give +0 ---- */
#define SIGN_F(a) (float)((0 < (a)) - ((a) < 0))
CT_UNARY_LOOP(sign_CT_BOOL, uint8_t, bool, CT_LDB, bool, CT_ID, a)
CT_UNARY_LOOP(sign_CT_UINT8, uint8_t, uint8_t, CT_ID, uint8_t, CT_ID, (uint8_t)(a > 0))
#define DEF_SIGN_INT(E, T, CT, LD, ST) CT_UNARY_LOOP(sign_##E, T, CT, LD, T, ST, (T)((0 < a) - (a < 0)))
DEF_SIGN_INT(CT_INT8, int8_t, int8_t, CT_ID, CT_ID)
DEF_SIGN_INT(CT_INT16, int16_t, int16_t, CT_ID, CT_ID)
DEF_SIGN_INT(CT_INT32, int32_t, int32_t, CT_ID, CT_ID)
DEF_SIGN_INT(CT_INT64, int64_t, int64_t, CT_ID, CT_ID)
#define DEF_SIGN_FLOAT(E, T, CT, LD, ST) CT_UNARY_LOOP(sign_##E, T, CT, LD, T, ST, (CT)((0 < a) - (a < 0)))
CT_DT_FLOATING(DEF_SIGN_FLOAT)

/* sgn of a complex z: z / |z| (0 for 0). Vector code: z / sqrt(re^2 + im^2) component-wise, 0 where that
   is 0. Scalar code: c10::complex division by (hypot, 0) (elem_cscalar.c). */
#define SGN_V(T, SQRT, HYPOT, SUF)    \
  do {                                \
    T a_ = SQRT(re * re + im * im);   \
    o[0] = a_ == 0 ? (T)0 : re / a_;  \
    o[1] = a_ == 0 ? (T)0 : im / a_;  \
  } while (0)
#define SGN_S(T, SQRT, HYPOT, SUF) ct__elem_csgn_##SUF(re, im, o)
CT_ELEM_CLOOPS(sgn, 2, SGN_V, SGN_S)

#define ENTRY(E, T, CT, LD, ST) [E] = CT_LOOP_REF(sign_##E),
static const ct_loop *const sign_loops[CT_NUM_DTYPES + 1] = {CT_DT_BOOL(ENTRY) CT_DT_INTEGRAL(ENTRY) CT_DT_FLOATING(ENTRY)};
static const ct_loop *const sgn_loops[CT_NUM_DTYPES + 1] = {
    CT_DT_BOOL(ENTRY) CT_DT_INTEGRAL(ENTRY) CT_DT_FLOATING(ENTRY)[CT_COMPLEX64] = CT_LOOP_REF(sgn_c64), [CT_COMPLEX128] = CT_LOOP_REF(sgn_c128)};
#undef ENTRY

static bool sign_pre(const ct_tensor *t, const ct_tensor *out) {
  (void)out;
  return ct__elem_reject_complex(t, "Unlike NumPy, torch.sign is not intended to support complex numbers. Please use "
                                    "torch.sgn instead.");
}
CT_ELEM_PRE_ROUTE(sign_run, sign_pre)
const ct_pw_op ct__pw_op_sign = {CT_PW_OP("sign", "sign_cpu", SAME, sign_loops), .run = sign_run};
const ct_pw_op ct__pw_op_sgn = {CT_PW_OP("sgn", "sgn_cpu", SAME, sgn_loops)};

/* ---- signbit: bool result; bool inputs give false ---- */
#define DEF_SIGNBIT_S(E, T, CT, LD, ST) CT_UNARY_LOOP(signbit_##E, T, CT, LD, bool, CT_ID, a < 0)
/* The sign bit of the stored bits (what std::signbit sees after the exact widening); GCC 12 fails to
   vectorize signbit() itself. */
static inline bool sign_bit64(double x) {
  uint64_t u;
  memcpy(&u, &x, 8);
  return (u >> 63) != 0;
}
CT_UNARY_LOOP(signbit_CT_BOOL, uint8_t, bool, CT_LDB, bool, CT_ID, ((void)a, false))
CT_UNARY_LOOP(signbit_CT_UINT8, uint8_t, uint8_t, CT_ID, bool, CT_ID, ((void)a, false))
DEF_SIGNBIT_S(CT_INT8, int8_t, int8_t, CT_ID, CT_ID)
DEF_SIGNBIT_S(CT_INT16, int16_t, int16_t, CT_ID, CT_ID)
DEF_SIGNBIT_S(CT_INT32, int32_t, int32_t, CT_ID, CT_ID)
DEF_SIGNBIT_S(CT_INT64, int64_t, int64_t, CT_ID, CT_ID)
CT_UNARY_LOOP(signbit_CT_FLOAT16, uint16_t, uint16_t, CT_ID, bool, CT_ID, (a >> 15) != 0)
CT_UNARY_LOOP(signbit_CT_BFLOAT16, uint16_t, uint16_t, CT_ID, bool, CT_ID, (a >> 15) != 0)
CT_UNARY_LOOP(signbit_CT_FLOAT32, float, float, CT_ID, bool, CT_ID, (ct__f32_bits(a) >> 31) != 0)
CT_UNARY_LOOP(signbit_CT_FLOAT64, double, double, CT_ID, bool, CT_ID, sign_bit64(a))
#define ENTRY(E, T, CT, LD, ST) [E] = CT_LOOP_REF(signbit_##E),
static const ct_loop *const signbit_loops[CT_NUM_DTYPES + 1] = {CT_DT_BOOL(ENTRY) CT_DT_INTEGRAL(ENTRY) CT_DT_FLOATING(ENTRY)};
#undef ENTRY

static bool signbit_pre(const ct_tensor *t, const ct_tensor *out) {
  if (!ct__elem_reject_complex(t, "signbit is not implemented for complex tensors.")) return false;
  if (out && out->dtype != CT_BOOL) {
    ct__error(CT_ERR_RUNTIME, "signbit does not support non-boolean outputs.");
    return false;
  }
  return true;
}
CT_ELEM_PRE_ROUTE(signbit_run, signbit_pre)
const ct_pw_op ct__pw_op_signbit = {CT_PW_OP_GRAD("signbit", "signbit_cpu", PREDICATE, signbit_loops, NONE),
                                    .run = signbit_run};

/* ---- positive: the input itself ---- */
static const ct_op positive_op = {CT_PW_VIEW_OP("positive", "aten::positive")};
ct_tensor *ct_positive(const ct_tensor *t) {
  if (!t) return ct__null_ptr_arg("t");
  if (!CT__OP_ACCEPTS(&positive_op, positive_op.aten, t)) return NULL;
  if (t->dtype == CT_BOOL) {
    ct__error(CT_ERR_RUNTIME, "The `+` operator, on a bool tensor is not supported.");
    return NULL;
  }
  return ct__elem_self(t);
}
