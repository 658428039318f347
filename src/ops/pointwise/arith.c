/* Arithmetic: neg, add and sub (with alpha), mul. */
#include <math.h>

#include "kernels/cpu/loops.h"
#include "ops/pointwise/pw.h"

/* Integer arithmetic wraps around as in PyTorch: computed in the unsigned type of the same width. */
#define CT_WRAP(T, U, expr) ((T)(U)(expr))

/* ---- neg ---- */
#define NEG_INT(T, U) CT_WRAP(T, U, 0u - (U)a)
#define DEF_NEG(E, T, CT, LD, ST) CT_UNARY_LOOP(neg_##E, T, CT, LD, T, ST, -a)
CT_DT_FLOATING(DEF_NEG)
CT_DT_COMPLEX(DEF_NEG)
CT_UNARY_LOOP(neg_CT_UINT8, uint8_t, uint8_t, CT_ID, uint8_t, CT_ID, NEG_INT(uint8_t, uint8_t))
CT_UNARY_LOOP(neg_CT_INT8, int8_t, int8_t, CT_ID, int8_t, CT_ID, NEG_INT(int8_t, uint8_t))
CT_UNARY_LOOP(neg_CT_INT16, int16_t, int16_t, CT_ID, int16_t, CT_ID, NEG_INT(int16_t, uint16_t))
CT_UNARY_LOOP(neg_CT_INT32, int32_t, int32_t, CT_ID, int32_t, CT_ID, NEG_INT(int32_t, uint32_t))
CT_UNARY_LOOP(neg_CT_INT64, int64_t, int64_t, CT_ID, int64_t, CT_ID, NEG_INT(int64_t, uint64_t))

#define ENTRY(E, T, CT, LD, ST) [E] = neg_##E,
static const ct_loop_fn neg_loops[CT_NUM_DTYPES + 1] = {CT_DT_ALL_NUMERIC(ENTRY)};
#undef ENTRY

static bool neg_check(ct_dtype common, const ct_tensor *const *in, const void *args) {
  (void)args;
  (void)common;
  if (in[0]->dtype == CT_BOOL) {
    ct__error(CT_ERR_RUNTIME, "Negation, the `-` operator, on a bool tensor is not supported. If you are trying to "
                              "invert a mask, use the `~` or `logical_not()` operator instead.");
    return false;
  }
  return true;
}

static const ct_pw_op neg_op = {"neg_cpu", CT_PW_SAME, neg_loops, neg_check, NULL};
CT_PW_UNARY_API(neg, neg_op)
CT_PW_UNARY_API(negative, neg_op)

/* ---- add / sub: a + alpha * b, fused as PyTorch's vectorized kernel does (fmadd). alpha == 1 and -1
   take plain a + b / a - b loops, which give the same bits (fma(b, +-1, a) is exact). ---- */
typedef union alpha_ctx {
  int64_t i;
  double d;
  float f;
  bool b;
  ct_c64 c64;
  ct_c128 c128;
} alpha_ctx;

#define ALPHA(ctx, field) (((const alpha_ctx *)(ctx))->field)
#define ADD_INT(T, U) CT_WRAP(T, U, (U)a + (U)ALPHA(ctx, i) * (U)b)
CT_BINARY_LOOP(add_CT_BOOL, bool, bool, CT_ID, bool, CT_ID, a || (b && ALPHA(ctx, b)))
CT_BINARY_LOOP(add_CT_UINT8, uint8_t, uint8_t, CT_ID, uint8_t, CT_ID, ADD_INT(uint8_t, uint8_t))
CT_BINARY_LOOP(add_CT_INT8, int8_t, int8_t, CT_ID, int8_t, CT_ID, ADD_INT(int8_t, uint8_t))
CT_BINARY_LOOP(add_CT_INT16, int16_t, int16_t, CT_ID, int16_t, CT_ID, ADD_INT(int16_t, uint16_t))
CT_BINARY_LOOP(add_CT_INT32, int32_t, int32_t, CT_ID, int32_t, CT_ID, ADD_INT(int32_t, uint32_t))
CT_BINARY_LOOP(add_CT_INT64, int64_t, int64_t, CT_ID, int64_t, CT_ID, ADD_INT(int64_t, uint64_t))
CT_BINARY_LOOP(add_CT_FLOAT16, uint16_t, float, ct__half_to_float, uint16_t, ct__float_to_half, fmaf(b, ALPHA(ctx, f), a))
CT_BINARY_LOOP(add_CT_BFLOAT16, uint16_t, float, ct__bfloat16_to_float, uint16_t, ct__float_to_bfloat16,
               fmaf(b, ALPHA(ctx, f), a))
CT_BINARY_LOOP(add_CT_FLOAT32, float, float, CT_ID, float, CT_ID, fmaf(b, ALPHA(ctx, f), a))
CT_BINARY_LOOP(add_CT_FLOAT64, double, double, CT_ID, double, CT_ID, fma(b, ALPHA(ctx, d), a))
CT_BINARY_LOOP(add_CT_COMPLEX64, ct_c64, ct_c64, CT_ID, ct_c64, CT_ID, a + ALPHA(ctx, c64) * b)
CT_BINARY_LOOP(add_CT_COMPLEX128, ct_c128, ct_c128, CT_ID, ct_c128, CT_ID, a + ALPHA(ctx, c128) * b)

#define ENTRY(E, T, CT, LD, ST) [E] = add_##E,
static const ct_loop_fn add_loops[CT_NUM_DTYPES + 1] = {CT_DT_ALL(ENTRY)};
#undef ENTRY

#define PLUS_INT(T, U) CT_WRAP(T, U, (U)a + (U)b)
#define MINUS_INT(T, U) CT_WRAP(T, U, (U)a - (U)b)
#define DEF_PLAIN(name, OPI, expr)                                                                     \
  CT_BINARY_LOOP(name##_CT_UINT8, uint8_t, uint8_t, CT_ID, uint8_t, CT_ID, OPI(uint8_t, uint8_t))     \
  CT_BINARY_LOOP(name##_CT_INT8, int8_t, int8_t, CT_ID, int8_t, CT_ID, OPI(int8_t, uint8_t))          \
  CT_BINARY_LOOP(name##_CT_INT16, int16_t, int16_t, CT_ID, int16_t, CT_ID, OPI(int16_t, uint16_t))    \
  CT_BINARY_LOOP(name##_CT_INT32, int32_t, int32_t, CT_ID, int32_t, CT_ID, OPI(int32_t, uint32_t))    \
  CT_BINARY_LOOP(name##_CT_INT64, int64_t, int64_t, CT_ID, int64_t, CT_ID, OPI(int64_t, uint64_t))    \
  CT_BINARY_LOOP(name##_CT_FLOAT16, uint16_t, float, ct__half_to_float, uint16_t, ct__float_to_half, expr) \
  CT_BINARY_LOOP(name##_CT_BFLOAT16, uint16_t, float, ct__bfloat16_to_float, uint16_t, ct__float_to_bfloat16, expr) \
  CT_BINARY_LOOP(name##_CT_FLOAT32, float, float, CT_ID, float, CT_ID, expr)                         \
  CT_BINARY_LOOP(name##_CT_FLOAT64, double, double, CT_ID, double, CT_ID, expr)
DEF_PLAIN(plus, PLUS_INT, a + b)
DEF_PLAIN(minus, MINUS_INT, a - b)
/* Complex keeps a + alpha * b even for alpha 1: (1 + 0j) * (inf + xj) has NaN parts, as in PyTorch. */
#define ENTRY(E, T, CT, LD, ST) [E] = plus_##E,
static const ct_loop_fn plus_loops[CT_NUM_DTYPES + 1] = {
    CT_DT_INTEGRAL(ENTRY) CT_DT_FLOATING(ENTRY)[CT_BOOL] = add_CT_BOOL, [CT_COMPLEX64] = add_CT_COMPLEX64,
    [CT_COMPLEX128] = add_CT_COMPLEX128};
#undef ENTRY
#define ENTRY(E, T, CT, LD, ST) [E] = minus_##E,
static const ct_loop_fn minus_loops[CT_NUM_DTYPES + 1] = {
    CT_DT_INTEGRAL(ENTRY) CT_DT_FLOATING(ENTRY)[CT_COMPLEX64] = add_CT_COMPLEX64, [CT_COMPLEX128] = add_CT_COMPLEX128};
#undef ENTRY

typedef struct alpha_args {
  ct_scalar alpha;
  bool negate; /* sub */
} alpha_args;

/* PyTorch's alpha_check and sub_check. */
static bool alpha_check(ct_dtype common, const ct_tensor *const *in, const void *arg) {
  const alpha_args *a = arg;
  if (a->negate) {
    if (in[0]->dtype == CT_BOOL && in[1]->dtype == CT_BOOL) {
      ct__error(CT_ERR_RUNTIME, "Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` "
                                "or `logical_xor()` operator instead.");
      return false;
    }
    if (in[0]->dtype == CT_BOOL || in[1]->dtype == CT_BOOL) {
      ct__error(CT_ERR_RUNTIME, "Subtraction, the `-` operator, with a bool tensor is not supported. If you are "
                                "trying to invert a mask, use the `~` or `logical_not()` operator instead.");
      return false;
    }
  }
  ct_scalar_kind k = a->alpha.kind;
  if (k == CT_SCALAR_BOOL && common != CT_BOOL) {
    ct__error(CT_ERR_RUNTIME, "Boolean alpha only supported for Boolean results.");
    return false;
  }
  int cat = ct__dt(common)->category;
  if (cat <= CT_CAT_INT && (k == CT_SCALAR_DOUBLE || k == CT_SCALAR_COMPLEX)) {
    ct__error(CT_ERR_RUNTIME, "For integral input tensors, argument alpha must not be a floating point number.");
    return false;
  }
  if (cat != CT_CAT_COMPLEX && k == CT_SCALAR_COMPLEX) {
    ct__error(CT_ERR_RUNTIME, "For non-complex input tensors, argument alpha must not be a complex number.");
    return false;
  }
  return true;
}

static void alpha_prepare(ct_dtype common, const void *arg, ct_pw_ctx *ctx) {
  const alpha_args *a = arg;
  alpha_ctx *c = (alpha_ctx *)ctx->bytes;
  double re = ct__scalar_to_double(a->alpha), im = a->alpha.kind == CT_SCALAR_COMPLEX ? a->alpha.v.c.im : 0.0;
  int64_t i = ct__scalar_to_int64(a->alpha);
  if (a->negate) {
    re = -re;
    im = -im;
    i = (int64_t)(0u - (uint64_t)i);
  }
  switch (ct__dt(common)->category) {
    case CT_CAT_BOOL: c->b = i != 0; break;
    case CT_CAT_INT: c->i = i; break;
    case CT_CAT_FLOAT:
      if (common == CT_FLOAT64)
        c->d = re;
      else
        c->f = (float)re;
      break;
    default:
      if (common == CT_COMPLEX64)
        c->c64 = (float)re + (float)im * I;
      else
        c->c128 = re + im * I;
  }
}

static const ct_pw_op add_op = {"add_cpu", CT_PW_COMMON, add_loops, alpha_check, alpha_prepare};
static const ct_pw_op plus_op = {"add_cpu", CT_PW_COMMON, plus_loops, alpha_check, alpha_prepare};
static const ct_pw_op minus_op = {"sub_cpu", CT_PW_COMMON, minus_loops, alpha_check, alpha_prepare};

static alpha_args make_alpha(const ct_alpha_opts *opts, bool negate) {
  alpha_args a = {ct_scalar_int(1), negate};
  if (opts && opts->alpha.kind) a.alpha = opts->alpha;
  return a;
}

/* The loops for an alpha: the plain ones when alpha is the number 1 (int or float). */
static const ct_pw_op *alpha_kernel(const alpha_args *a) {
  bool one = (a->alpha.kind == CT_SCALAR_INT && a->alpha.v.i == 1) || (a->alpha.kind == CT_SCALAR_DOUBLE && a->alpha.v.d == 1.0);
  if (!one) return &add_op;
  return a->negate ? &minus_op : &plus_op;
}

static ct_tensor *alpha_op(const ct_tensor *x, const ct_tensor *y, const ct_alpha_opts *opts, bool negate) {
  const ct_tensor *in[2] = {x, y};
  alpha_args a = make_alpha(opts, negate);
  ct_tensor *r = NULL;
  ct__pw_run(alpha_kernel(&a), NULL, in, 2, false, &a, &r);
  return r;
}

static ct_status alpha_op_out(ct_tensor *out, const ct_tensor *x, const ct_tensor *y, const ct_alpha_opts *opts,
                              bool negate, bool inplace) {
  const ct_tensor *in[2] = {x, y};
  alpha_args a = make_alpha(opts, negate);
  return ct__pw_run(alpha_kernel(&a), out, in, 2, inplace, &a, NULL);
}

ct_tensor *ct_add(const ct_tensor *a, const ct_tensor *b, const ct_alpha_opts *o) { return alpha_op(a, b, o, false); }
ct_status ct_add_(ct_tensor *self, const ct_tensor *b, const ct_alpha_opts *o) {
  return alpha_op_out(self, self, b, o, false, true);
}
ct_status ct_add_out(ct_tensor *out, const ct_tensor *a, const ct_tensor *b, const ct_alpha_opts *o) {
  return alpha_op_out(out, a, b, o, false, false);
}
ct_tensor *ct_sub(const ct_tensor *a, const ct_tensor *b, const ct_alpha_opts *o) { return alpha_op(a, b, o, true); }
ct_status ct_sub_(ct_tensor *self, const ct_tensor *b, const ct_alpha_opts *o) {
  return alpha_op_out(self, self, b, o, true, true);
}
ct_status ct_sub_out(ct_tensor *out, const ct_tensor *a, const ct_tensor *b, const ct_alpha_opts *o) {
  return alpha_op_out(out, a, b, o, true, false);
}
ct_tensor *ct_subtract(const ct_tensor *a, const ct_tensor *b, const ct_alpha_opts *o) { return ct_sub(a, b, o); }
ct_status ct_subtract_(ct_tensor *self, const ct_tensor *b, const ct_alpha_opts *o) { return ct_sub_(self, b, o); }
ct_status ct_subtract_out(ct_tensor *out, const ct_tensor *a, const ct_tensor *b, const ct_alpha_opts *o) {
  return ct_sub_out(out, a, b, o);
}

/* ---- mul ---- */
#define MUL_INT(T, U) CT_WRAP(T, U, (U)a * (U)b)
CT_BINARY_LOOP(mul_CT_BOOL, bool, bool, CT_ID, bool, CT_ID, a && b)
CT_BINARY_LOOP(mul_CT_UINT8, uint8_t, uint8_t, CT_ID, uint8_t, CT_ID, MUL_INT(uint8_t, uint8_t))
CT_BINARY_LOOP(mul_CT_INT8, int8_t, int8_t, CT_ID, int8_t, CT_ID, MUL_INT(int8_t, uint8_t))
CT_BINARY_LOOP(mul_CT_INT16, int16_t, int16_t, CT_ID, int16_t, CT_ID, MUL_INT(int16_t, uint16_t))
CT_BINARY_LOOP(mul_CT_INT32, int32_t, int32_t, CT_ID, int32_t, CT_ID, MUL_INT(int32_t, uint32_t))
CT_BINARY_LOOP(mul_CT_INT64, int64_t, int64_t, CT_ID, int64_t, CT_ID, MUL_INT(int64_t, uint64_t))
#define DEF_MUL(E, T, CT, LD, ST) CT_BINARY_LOOP(mul_##E, T, CT, LD, T, ST, a * b)
CT_DT_FLOATING(DEF_MUL)
CT_DT_COMPLEX(DEF_MUL)

#define ENTRY(E, T, CT, LD, ST) [E] = mul_##E,
static const ct_loop_fn mul_loops[CT_NUM_DTYPES + 1] = {CT_DT_ALL(ENTRY)};
#undef ENTRY

static const ct_pw_op mul_op = {"mul_cpu", CT_PW_COMMON, mul_loops, NULL, NULL};
CT_PW_BINARY_API(mul, mul_op)
CT_PW_BINARY_API(multiply, mul_op)
