/* Rounding: ceil, floor, round (and round with decimals), trunc/fix, frac. Integer tensors are copied by
   ceil/floor/round/trunc (PyTorch's structured kernels copy them); bool and float16 have no kernel. */
/* GCC builds it with -fno-math-errno -fno-trapping-math (CMakeLists.txt: CT_FP_RELAXED_NO_ERRNO_SOURCES). */

#include <math.h>

#include "ops/pointwise/elem_internal.h"

#define DEF_COPY(E, T, CT, LD, ST) CT_UNARY_LOOP(copy_##E, T, CT, LD, T, ST, a)
CT_DT_INTEGRAL(DEF_COPY)

/* One rounding function over the integer copies, bfloat16 (through float), float32 and float64. These are
   PyTorch's "vml" kernels: every element, strided or not, goes through the vector code. */
#define DEF_ROUNDING(name, FF, FD)                                                                            \
  CT_UNARY_LOOP(name##_CT_BFLOAT16, uint16_t, float, ct__bfloat16_to_float, uint16_t, ct__float_to_bfloat16, FF(a)) \
  CT_UNARY_LOOP(name##_CT_FLOAT32, float, float, CT_ID, float, CT_ID, FF(a))                                  \
  CT_UNARY_LOOP(name##_CT_FLOAT64, double, double, CT_ID, double, CT_ID, FD(a))                               \
  static const ct_loop *const name##_loops[CT_NUM_DTYPES + 1] = {                                                 \
      [CT_UINT8] = CT_LOOP_REF(copy_CT_UINT8), [CT_INT8] = CT_LOOP_REF(copy_CT_INT8),         [CT_INT16] = CT_LOOP_REF(copy_CT_INT16),               \
      [CT_INT32] = CT_LOOP_REF(copy_CT_INT32), [CT_INT64] = CT_LOOP_REF(copy_CT_INT64),       [CT_BFLOAT16] = CT_LOOP_REF(name##_CT_BFLOAT16),       \
      [CT_FLOAT32] = CT_LOOP_REF(name##_CT_FLOAT32), [CT_FLOAT64] = CT_LOOP_REF(name##_CT_FLOAT64)};
DEF_ROUNDING(ceil, ceilf, ceil)
DEF_ROUNDING(floor, floorf, floor)
DEF_ROUNDING(trunc, truncf, trunc)
DEF_ROUNDING(round, nearbyintf, nearbyint) /* half to even */

static bool ceil_pre(const ct_tensor *t, const ct_tensor *out) {
  (void)out;
  return ct__elem_reject_complex(t, "ceil is not supported for complex inputs");
}
static bool floor_pre(const ct_tensor *t, const ct_tensor *out) {
  (void)out;
  return ct__elem_reject_complex(t, "floor is not supported for complex inputs");
}
static bool trunc_pre(const ct_tensor *t, const ct_tensor *out) {
  (void)out;
  return ct__elem_reject_complex(t, "trunc is not supported for complex inputs");
}
CT_ELEM_PRE_ROUTE(ceil_run, ceil_pre)
CT_ELEM_PRE_ROUTE(floor_run, floor_pre)
CT_ELEM_PRE_ROUTE(trunc_run, trunc_pre)
const ct_pw_op ct__pw_op_ceil = {CT_PW_OP("ceil", "ceil_vml_cpu", SAME, ceil_loops), .run = ceil_run};
const ct_pw_op ct__pw_op_floor = {CT_PW_OP("floor", "floor_vml_cpu", SAME, floor_loops), .run = floor_run};
const ct_pw_op ct__pw_op_trunc = {CT_PW_OP("trunc", "trunc_vml_cpu", SAME, trunc_loops), .run = trunc_run};
static const ct_pw_op round_op = {CT_PW_OP("round", "round_vml_cpu", SAME, round_loops)};

/* ---- round(decimals): nearbyint(a * 10^d) / 10^d, or nearbyint(a / 10^-d) * 10^-d for d < 0, with
   10^d converted to the dtype; bfloat16 rounds after each step as c10::BFloat16 arithmetic does. ---- */
typedef struct round_ctx {
  double td;
  float tf;
  bool neg;
} round_ctx;
#define RC(ctx) ((const round_ctx *)(ctx))
#define ROUND_DEC(T, t, R) (RC(ctx)->neg ? R(a / (t)) * (t) : R(a * (t)) / (t))
#define BF(x) ct__bfloat16_to_float(ct__float_to_bfloat16(x))
CT_UNARY_LOOP(roundd_CT_FLOAT32, float, float, CT_ID, float, CT_ID, ROUND_DEC(float, RC(ctx)->tf, nearbyintf))
CT_UNARY_LOOP(roundd_CT_FLOAT64, double, double, CT_ID, double, CT_ID, ROUND_DEC(double, RC(ctx)->td, nearbyint))
CT_UNARY_LOOP(roundd_CT_BFLOAT16, uint16_t, float, ct__bfloat16_to_float, uint16_t, ct__float_to_bfloat16,
              RC(ctx)->neg ? nearbyintf(BF(a / RC(ctx)->tf)) * RC(ctx)->tf : nearbyintf(BF(a * RC(ctx)->tf)) / RC(ctx)->tf)
static const ct_loop *const roundd_loops[CT_NUM_DTYPES + 1] = {
    [CT_BFLOAT16] = CT_LOOP_REF(roundd_CT_BFLOAT16), [CT_FLOAT32] = CT_LOOP_REF(roundd_CT_FLOAT32), [CT_FLOAT64] = CT_LOOP_REF(roundd_CT_FLOAT64)};

static void roundd_prepare(ct_dtype common, const void *args, ct_pw_ctx *ctx) {
  int64_t d = *(const int64_t *)args;
  round_ctx *c = (round_ctx *)ctx->bytes;
  c->neg = d < 0;
  uint64_t m = d < 0 ? 0u - (uint64_t)d : (uint64_t)d;
  double p = pow(10.0, (double)m);
  c->td = p;
  c->tf = common == CT_BFLOAT16 ? BF((float)p) : (float)p;
}
static const ct_pw_op roundd_op = {
    CT_PW_OP_ATEN("round", ("aten::round.decimals", "aten::round_.decimals", "aten::round.decimals_out"),
                  "round_cpu", SAME, roundd_loops, DIFF),
    .prepare = roundd_prepare};

static const ct_pw_op *round_kernel(const ct_round_opts *opts, int64_t *d) {
  *d = opts ? opts->decimals : 0;
  return *d ? &roundd_op : &round_op;
}

ct_tensor *ct_round(const ct_tensor *t, const ct_round_opts *opts) {
  CT__NONNULL_PTR(t);
  int64_t d;
  const ct_pw_op *op = round_kernel(opts, &d);
  if (!CT__PW_ENTER(op, NULL, false, t)) return NULL;
  ct_tensor *r = NULL;
  ct__pw_run(op, NULL, &t, 1, false, &d, &r);
  return r;
}
ct_status ct_round_(ct_tensor *self, const ct_round_opts *opts) {
  CT__NONNULL_STATUS(self);
  int64_t d;
  const ct_pw_op *op = round_kernel(opts, &d);
  if (!CT__PW_ENTER(op, NULL, true, self)) return ct_last_error();
  const ct_tensor *in[1] = {self};
  return ct__pw_run(op, self, in, 1, true, &d, NULL);
}
ct_status ct_round_out(ct_tensor *out, const ct_tensor *t, const ct_round_opts *opts) {
  CT__NONNULL_STATUS(t, out);
  int64_t d;
  const ct_pw_op *op = round_kernel(opts, &d);
  if (!CT__OP_OUT_GRAD_OK(&op->op, out, t)) return CT_ERR_RUNTIME;
  if (!CT__PW_ENTER(op, out, false, t)) return ct_last_error();
  return ct__pw_run(op, out, &t, 1, false, &d, NULL);
}

/* ---- frac: a - trunc(a), floating dtypes only ---- */
CT_UNARY_LOOP(frac_CT_FLOAT16, uint16_t, float, ct__half_to_float, uint16_t, ct__float_to_half, a - truncf(a))
CT_ELEM_BF16_LOOP(frac_CT_BFLOAT16, a - truncf(a))
CT_UNARY_LOOP(frac_CT_FLOAT32, float, float, CT_ID, float, CT_ID, a - truncf(a))
CT_UNARY_LOOP(frac_CT_FLOAT64, double, double, CT_ID, double, CT_ID, a - trunc(a))
static const ct_loop *const frac_loops[CT_NUM_DTYPES + 1] = {[CT_FLOAT16] = CT_LOOP_REF(frac_CT_FLOAT16), [CT_BFLOAT16] = CT_LOOP_REF(frac_CT_BFLOAT16),
                                                         [CT_FLOAT32] = CT_LOOP_REF(frac_CT_FLOAT32), [CT_FLOAT64] = CT_LOOP_REF(frac_CT_FLOAT64)};
const ct_pw_op ct__pw_op_frac = {CT_PW_OP("frac", "frac_cpu", SAME, frac_loops)};
