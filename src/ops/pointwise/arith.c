/* Arithmetic: neg, add and sub (with alpha), mul, bit for bit as torch 1.13's CPU kernels (AVX2 build).

   torch computes add as self + alpha * other (sub: alpha negated; the vectorized rows fmadd(other,
   alpha, self)) and runs a row through its vectorized formula or its scalar one (binary_common.h); the
   two differ for bfloat16 (vectorized: in float, one rounding; scalar: c10's BFloat16 operators, alpha *
   other rounded first), for complex (arith_cx.c) and, in the tails of rows with a broadcast other, for
   float/double add (alpha * other hoisted out of GCC's loop and rounded). Those
   compute dtypes go through torch's casting route (binary_cast.c) when an operand or out= has another
   dtype, so the rows are torch's; the others convert on the fly.

   Not reproduced (measured, left out on purpose): GCC's auto-vectorized tail loops in torch check at run
   time that the output does not start less than 64 bytes after an input; a row shorter than that whose
   out= is placed so in one buffer takes their fallback form in torch (ctorch does not look at
   addresses). Nor which NaN a NaN result is (the NaN policy, docs/ARCHITECTURE.md): torch's paths differ
   in which operand's NaN wins and in bfloat16's NaN bits (0xFFFF vectorized, 0x7FC0 scalar). */
/* The loops never rely on floating-point exception flags; telling GCC so lets it vectorize their selects
   (torch 1.13 is built the same way). */
/* GCC builds this file with -fno-trapping-math (CMakeLists.txt: CT_FP_RELAXED_SOURCES). */

#include "core/cast.h"
#include "core/elem.h"
#include "ops/pointwise/arith_cx.h"
#include "ops/pointwise/binary_common.h"
#include "ops/pointwise/elem_cplx.h"

/* Integer arithmetic wraps around as in PyTorch: computed in the unsigned type of the same width. */
#define CT_WRAP(T, U, expr) ((T)(U)(expr))
#define BF(x) ct__bfloat16_to_float(x)
#define H(x) ct__half_to_float(x)

/* ---- neg ---- */
#define NEG_INT(T, U) CT_WRAP(T, U, 0u - (U)a)
CT_UNARY_LOOP(neg_CT_FLOAT16, uint16_t, float, ct__half_to_float, uint16_t, ct__float_to_half, -a)
CT_UNARY_LOOP(neg_CT_FLOAT32, float, float, CT_ID, float, CT_ID, -a)
CT_UNARY_LOOP(neg_CT_FLOAT64, double, double, CT_ID, double, CT_ID, -a)
CT_UNARY_LOOP(neg_CT_UINT8, uint8_t, uint8_t, CT_ID, uint8_t, CT_ID, NEG_INT(uint8_t, uint8_t))
CT_UNARY_LOOP(neg_CT_INT8, int8_t, int8_t, CT_ID, int8_t, CT_ID, NEG_INT(int8_t, uint8_t))
CT_UNARY_LOOP(neg_CT_INT16, int16_t, int16_t, CT_ID, int16_t, CT_ID, NEG_INT(int16_t, uint16_t))
CT_UNARY_LOOP(neg_CT_INT32, int32_t, int32_t, CT_ID, int32_t, CT_ID, NEG_INT(int32_t, uint32_t))
CT_UNARY_LOOP(neg_CT_INT64, int64_t, int64_t, CT_ID, int64_t, CT_ID, NEG_INT(int64_t, uint64_t))
/* bfloat16: -x in float, rounded; complex: Vectorized's 0 - z (-(+0) is +0) on the vectorized part of a
   row, -z elsewhere */
CT_ELEM_BF16_LOOP(neg_CT_BFLOAT16, -a)
CT_ELEM_CLOOP(neg_CT_COMPLEX64, float, 2, CT_ELEM_BLOCK_C64, (o[0] = 0.0f - re, o[1] = 0.0f - im), (o[0] = -re, o[1] = -im))
CT_ELEM_CLOOP(neg_CT_COMPLEX128, double, 2, CT_ELEM_BLOCK_C128, (o[0] = 0.0 - re, o[1] = 0.0 - im),
              (o[0] = -re, o[1] = -im))

#define ENTRY(E, T, CT, LD, ST) [E] = CT_LOOP_REF(neg_##E),
static const ct_loop *const neg_loops[CT_NUM_DTYPES + 1] = {CT_DT_ALL_NUMERIC(ENTRY)};
#undef ENTRY

/* neg's meta function rejects bool before TensorIterator checks anything. */
static ct_status neg_run(const ct_pw_op *op, ct_tensor *out, const ct_tensor *const *in, int n_in, bool inplace,
                         const void *args, ct_tensor **result) {
  if (in[0] && in[0]->dtype == CT_BOOL) {
    ct__error(CT_ERR_RUNTIME, "Negation, the `-` operator, on a bool tensor is not supported. If you are trying to "
                              "invert a mask, use the `~` or `logical_not()` operator instead.");
    return CT_ERR_RUNTIME;
  }
  return ct__pw_run(op, out, in, n_in, inplace, args, result);
}

const ct_pw_op ct__pw_op_neg = {CT_PW_OP("neg", "neg_cpu", SAME, neg_loops), .run = neg_run};

/* ---- add / sub: self + alpha * other ---- */
typedef union alpha_ctx {
  int64_t i;
  double d;
  float f;
  bool b;
  float c64[2];
  double c128[2];
} alpha_ctx;

#define ALPHA(ctx, field) (((const alpha_ctx *)(ctx))->field)
#define ADD_INT(T, U) CT_WRAP(T, U, (U)a + (U)ALPHA(ctx, i) * (U)b)
CT_BINARY_LOOP(add_CT_BOOL, uint8_t, bool, CT_LDB, bool, CT_ID, a || (b && ALPHA(ctx, b)))
CT_BINARY_LOOP(add_CT_UINT8, uint8_t, uint8_t, CT_ID, uint8_t, CT_ID, ADD_INT(uint8_t, uint8_t))
CT_BINARY_LOOP(add_CT_INT8, int8_t, int8_t, CT_ID, int8_t, CT_ID, ADD_INT(int8_t, uint8_t))
/* int16 products in 32-bit unsigned: uint16_t operands would promote to int, where -1 * -1 (65535 * 65535)
   overflows; the wrap modulo 2^16 is the same */
CT_BINARY_LOOP(add_CT_INT16, int16_t, int16_t, CT_ID, int16_t, CT_ID, ADD_INT(int16_t, uint32_t))
CT_BINARY_LOOP(add_CT_INT32, int32_t, int32_t, CT_ID, int32_t, CT_ID, ADD_INT(int32_t, uint32_t))
CT_BINARY_LOOP(add_CT_INT64, int64_t, int64_t, CT_ID, int64_t, CT_ID, ADD_INT(int64_t, uint64_t))

/* float16: c10::Half arithmetic in both of torch's formulas: alpha * other rounded to half, then the sum
   rounded (its vectorized and scalar rows differ only in which NaN wins) */
CT_BINARY_LOOP(add_h_alpha, uint16_t, float, H, uint16_t, ct__float_to_half, a + ct__rh(ALPHA(ctx, f) * b))
/* alpha 1: the product is other itself, no rounding to do (twice as fast) */
CT_BINARY_LOOP(add_h_one, uint16_t, float, H, uint16_t, ct__float_to_half, a + b)
static void add_CT_FLOAT16(char **d, const int64_t *s, int64_t n, const void *ctx) {
  (ALPHA(ctx, f) == 1.0f ? add_h_one : add_h_alpha)(d, s, n, ctx);
}
static void add_CT_FLOAT16_nt(char **d, const int64_t *s, int64_t n, const void *ctx) {
  (ALPHA(ctx, f) == 1.0f ? add_h_one_nt : add_h_alpha_nt)(d, s, n, ctx);
}
CT_LOOP_DECLARE(add_CT_FLOAT16, uint16_t, add_CT_FLOAT16_nt)

/* bfloat16: vectorized, fma in float and one rounding; scalar, BFloat16(alpha * other) first, then the
   sum */
static inline uint16_t add_bf_v(uint16_t x, uint16_t y, const void *ctx) {
  return ct__float_to_bfloat16(fmaf(BF(y), ALPHA(ctx, f), BF(x)));
}
static inline uint16_t add_bf_s(uint16_t x, uint16_t y, const void *ctx) {
  return ct__float_to_bfloat16(BF(x) + ct__rb(ALPHA(ctx, f) * BF(y)));
}
CT_VBLOCK_ELEM(add_bf_vb, uint16_t, add_bf_v)
CT_VS_LOOP2(add_CT_BFLOAT16, uint16_t, CT_W_R16, add_bf_vb, add_bf_s)

/* float, double: fma(other, alpha, self) everywhere (GCC contracts the scalar formula too), except in the
   tail of a row whose other is one broadcast value: there GCC's vectorized blocks add the hoisted, rounded
   alpha * other. Those blocks start after the tail's first element, are VF elements wide (128-bit
   vectors) and need VF + 1 elements. */
#define DEF_ADD_REAL(SUF, T, FIELD, FMA, W, VF)                                                              \
  static inline T add_##SUF##_fused(T a, T b, T al) { return FMA(b, al, a); }                               \
  static inline T add_##SUF##_hoisted(T a, T p) { return p + a; }                                            \
  /* n elements of a row with contiguous output and self; other contiguous (ys 1) or broadcast (ys 0) */     \
  CT_KERNEL_CLONES static void add_##SUF##_contig(T *restrict o, const T *restrict x, const T *restrict y,    \
                                                  bool ys, int64_t n, T al) {                                \
    if (ys) {                                                                                                \
      for (int64_t k = 0; k < n; k++) o[k] = add_##SUF##_fused(x[k], y[k], al);                              \
    } else {                                                                                                 \
      const T b = y[0];                                                                                      \
      for (int64_t k = 0; k < n; k++) o[k] = add_##SUF##_fused(x[k], b, al);                                 \
    }                                                                                                        \
  }                                                                                                          \
  CT_KERNEL_CLONES static void add_##SUF##_strided(char *o, const char *x, const char *y, const int64_t *s,   \
                                                   int64_t n, T al) {                                        \
    for (int64_t k = 0; k < n; k++) CT_OUT(T, o, s[0], k) = add_##SUF##_fused(CT_AT(T, x, s[1], k), CT_AT(T, y, s[2], k), al); \
  }                                                                                                          \
  static void add_##SUF(char **d, const int64_t *s, int64_t n, const void *ctx) {                           \
    const T al = ALPHA(ctx, FIELD);                                                                          \
    const int64_t z = (int64_t)sizeof(T);                                                                    \
    ct_row_kind kind = ct__row_kind2(d, s, z);                                                            \
    if (kind == CT_ROW_CONTIG) {                                                                             \
      add_##SUF##_contig((T *)d[0], (const T *)d[1], (const T *)d[2], true, n, al);                          \
      return;                                                                                                \
    }                                                                                                        \
    int64_t k = 0;                                                                                           \
    if (kind == CT_ROW_SCALAR_B) {                                                                           \
      T *o = (T *)d[0];                                                                                      \
      const T *x = (const T *)d[1], b = *(const T *)d[2];                                                    \
      int64_t t = n % (W);                                                                                   \
      k = n - t;                                                                                             \
      add_##SUF##_contig(o, x, (const T *)d[2], false, k, al);                                               \
      if (t >= (VF) + 1) {                                                                                   \
        const T p = b * al;                                                                                  \
        o[k] = add_##SUF##_fused(x[k], b, al);                                                               \
        for (int64_t e = k + 1 + (t - 1) / (VF) * (VF), i = k + 1; i < e; i++) o[i] = add_##SUF##_hoisted(x[i], p); \
        k += 1 + (t - 1) / (VF) * (VF);                                                                      \
      }                                                                                                      \
    }                                                                                                        \
    add_##SUF##_strided(d[0] + k * s[0], d[1] + k * s[1], d[2] + k * s[2], s, n - k, al);                   \
  }                                                                                                          \
  /* the streaming variant (loops.h): 64-byte blocks of a vectorized row are its vectorized part */          \
  CT_KERNEL_CLONES static void add_##SUF##_nt(char **d, const int64_t *s, int64_t n, const void *ctx) {       \
    const T al = ALPHA(ctx, FIELD);                                                                          \
    ct_row_kind kind = ct__row_kind2(d, s, (int64_t)sizeof(T));                                              \
    T *restrict o_ = (T *)d[0];                                                                              \
    const T *restrict x_ = (const T *)d[1], *restrict y_ = (const T *)d[2];                                  \
    if (kind == CT_ROW_CONTIG) {                                                                             \
      CT_STREAM_ROW(add_##SUF, 3, T, o_, T a = x_[k]; T b = y_[k];, add_##SUF##_fused(a, b, al), CT_ID);      \
    } else if (kind == CT_ROW_SCALAR_B) {                                                                    \
      const T b = y_[0];                                                                                     \
      CT_STREAM_ROW(add_##SUF, 3, T, o_, T a = x_[k];, add_##SUF##_fused(a, b, al), CT_ID);                   \
    } else if (kind == CT_ROW_SCALAR_A) {                                                                    \
      const T a = x_[0];                                                                                     \
      CT_STREAM_ROW(add_##SUF, 3, T, o_, T b = y_[k];, add_##SUF##_fused(a, b, al), CT_ID);                   \
    } else {                                                                                                 \
      add_##SUF(d, s, n, ctx);                                                                               \
    }                                                                                                        \
  }                                                                                                          \
  /* elementwise: a strided row is fma throughout, whatever its length */                                    \
  CT_LOOP_DECLARE(add_##SUF, T, add_##SUF##_nt)
DEF_ADD_REAL(f32, float, f, CT_COMPAT_FMAF, CT_W_F32, 4)
DEF_ADD_REAL(f64, double, d, CT_COMPAT_FMA, CT_W_F64, 2)

#define ADD_NUMERIC_LOOPS                                                                 \
  [CT_UINT8] = CT_LOOP_REF(add_CT_UINT8), [CT_INT8] = CT_LOOP_REF(add_CT_INT8), [CT_INT16] = CT_LOOP_REF(add_CT_INT16),          \
  [CT_INT32] = CT_LOOP_REF(add_CT_INT32), [CT_INT64] = CT_LOOP_REF(add_CT_INT64), [CT_FLOAT16] = CT_LOOP_REF(add_CT_FLOAT16),    \
  [CT_BFLOAT16] = CT_LOOP_REF(add_CT_BFLOAT16), [CT_FLOAT32] = CT_LOOP_REF(add_f32), [CT_FLOAT64] = CT_LOOP_REF(add_f64),         \
  [CT_COMPLEX64] = CT_LOOP_REF(ct__cadd_c64), [CT_COMPLEX128] = CT_LOOP_REF(ct__cadd_c128)
static const ct_loop *const add_loops[CT_NUM_DTYPES + 1] = {[CT_BOOL] = CT_LOOP_REF(add_CT_BOOL), ADD_NUMERIC_LOOPS};
/* sub's meta function rejects bool operands (sub_ok), so its compute dtype is never bool */
static const ct_loop *const sub_loops[CT_NUM_DTYPES + 1] = {ADD_NUMERIC_LOOPS};

/* sub with alpha 1 and add with alpha -1 would be the same kernel: torch has no separate loops for the
   plain sum, so neither do we (fma(b, +-1, a) is a + b exactly). */

typedef struct alpha_args {
  ct_scalar alpha;
  bool negate; /* sub */
  /* the dtype alpha_check reads: UNSET, the common dtype; on meta with an out=, the out's (torch's meta
     TensorIterator makes no temporary of the common dtype for an out of another dtype, so dtype() is the out's) */
  ct_dtype check_dtype;
} alpha_args;

/* sub's -alpha (c10::Scalar's operator-: an int64 wraps, as INT64_MIN does there) */
static ct_scalar negated(ct_scalar al) {
  switch (al.kind) {
    case CT_SCALAR_INT: al.v.i = (int64_t)(0u - (uint64_t)al.v.i); break;
    case CT_SCALAR_DOUBLE: al.v.d = -al.v.d; break;
    case CT_SCALAR_COMPLEX: al.v.c.re = -al.v.c.re, al.v.c.im = -al.v.c.im; break;
    default: break; /* bool: rejected by the checks */
  }
  return al;
}

/* PyTorch's alpha_check (after TensorIterator's checks, once the common dtype is known); alpha_fits is the
   kernel's conversion of alpha, checked before anything is written. */
static bool alpha_check(ct_dtype common, const ct_tensor *const *in, const void *arg) {
  (void)in;
  const alpha_args *a = arg;
  ct_scalar_kind k = a->alpha.kind;
  if (a->check_dtype != CT_DTYPE_UNSET) common = a->check_dtype;
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

/* the kernel's alpha.to<scalar_t>() (sub: (-alpha).to<scalar_t>()) is c10's checked conversion: "value
   cannot be converted to type int8_t without overflow" (int8 alpha 1000; sub's alpha -128) */
static bool alpha_fits(ct_dtype common, const ct_tensor *const *in, const void *arg) {
  (void)in;
  const alpha_args *a = arg;
  return ct__scalar_fits(a->negate ? negated(a->alpha) : a->alpha, common);
}

/* sub's meta function rejects bool tensors before anything else (sub_check). */
static bool sub_ok(const ct_tensor *x, const ct_tensor *y) {
  if (!x || !y) return true; /* the engine reports it */
  if (x->dtype == CT_BOOL && y->dtype == CT_BOOL) {
    ct__error(CT_ERR_RUNTIME, "Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` "
                              "or `logical_xor()` operator instead.");
    return false;
  }
  if (x->dtype == CT_BOOL || y->dtype == CT_BOOL) {
    ct__error(CT_ERR_RUNTIME, "Subtraction, the `-` operator, with a bool tensor is not supported. If you are "
                              "trying to invert a mask, use the `~` or `logical_not()` operator instead.");
    return false;
  }
  return true;
}

/* alpha.to<scalar_t>() of the compute dtype (sub: of -alpha), as the loops read it: float16/bfloat16
   alpha rounded to the dtype, held as float. */
static void store_alpha(ct_dtype common, alpha_ctx *c, ct_scalar al) {
  const ct_dtype_traits *t = ct__dt(common);
  if (t->category == CT_CAT_BOOL) {
    c->b = ct__scalar_to_int64(al) != 0;
  } else if (t->category == CT_CAT_INT) {
    c->i = ct__scalar_to_int64(al);
  } else if (t->opmath_dtype != common) { /* float16/bfloat16: the dtype's value, in its opmath type */
    char h[sizeof(alpha_ctx)];
    ct__store_scalar(common, h, al);
    c->f = (float)ct__elem_load_f64(common, h);
  } else {
    ct__store_scalar(common, c, al);
  }
}

static void alpha_prepare(ct_dtype common, const void *arg, ct_pw_ctx *ctx) {
  const alpha_args *a = arg;
  alpha_ctx *c = (alpha_ctx *)ctx->bytes;
  /* add passes a's own alpha: a local copy whose fields were just written one by one, read back whole by
     the by-value call, stalls on store forwarding (it took a third of a 1-element add) */
  if (!a->negate) {
    store_alpha(common, c, a->alpha);
    return;
  }
  store_alpha(common, c, negated(a->alpha));
}


/* ---- mul ---- */
#define MUL_INT(T, U) CT_WRAP(T, U, (U)a * (U)b)
CT_BINARY_LOOP(mul_CT_BOOL, uint8_t, bool, CT_LDB, bool, CT_ID, a && b)
CT_BINARY_LOOP(mul_CT_UINT8, uint8_t, uint8_t, CT_ID, uint8_t, CT_ID, MUL_INT(uint8_t, uint8_t))
CT_BINARY_LOOP(mul_CT_INT8, int8_t, int8_t, CT_ID, int8_t, CT_ID, MUL_INT(int8_t, uint8_t))
CT_BINARY_LOOP(mul_CT_INT16, int16_t, int16_t, CT_ID, int16_t, CT_ID, MUL_INT(int16_t, uint32_t)) /* as add's */
CT_BINARY_LOOP(mul_CT_INT32, int32_t, int32_t, CT_ID, int32_t, CT_ID, MUL_INT(int32_t, uint32_t))
CT_BINARY_LOOP(mul_CT_INT64, int64_t, int64_t, CT_ID, int64_t, CT_ID, MUL_INT(int64_t, uint64_t))
/* float, double, float16: one product, whichever path torch takes (they differ only in which operand's
   NaN wins) */
CT_BINARY_LOOP(mul_f32, float, float, CT_ID, float, CT_ID, a * b)
CT_BINARY_LOOP(mul_f64, double, double, CT_ID, double, CT_ID, a * b)
CT_BINARY_LOOP(mul_CT_FLOAT16, uint16_t, float, ct__half_to_float, uint16_t, ct__float_to_half, a * b)
/* bfloat16: one product in float, rounded, on either path */
CT_BINARY_LOOP(mul_CT_BFLOAT16, uint16_t, float, ct__bfloat16_to_float, uint16_t, ct__float_to_bfloat16, a * b)

static const ct_loop *const mul_loops[CT_NUM_DTYPES + 1] = {
    [CT_BOOL] = CT_LOOP_REF(mul_CT_BOOL),       [CT_UINT8] = CT_LOOP_REF(mul_CT_UINT8),         [CT_INT8] = CT_LOOP_REF(mul_CT_INT8),
    [CT_INT16] = CT_LOOP_REF(mul_CT_INT16),     [CT_INT32] = CT_LOOP_REF(mul_CT_INT32),         [CT_INT64] = CT_LOOP_REF(mul_CT_INT64),
    [CT_FLOAT16] = CT_LOOP_REF(mul_CT_FLOAT16), [CT_BFLOAT16] = CT_LOOP_REF(mul_CT_BFLOAT16),   [CT_FLOAT32] = CT_LOOP_REF(mul_f32),
    [CT_FLOAT64] = CT_LOOP_REF(mul_f64),        [CT_COMPLEX64] = CT_LOOP_REF(ct__cmul_c64),     [CT_COMPLEX128] = CT_LOOP_REF(ct__cmul_c128)};

/* ---- routing ---- */

/* Whether the loop for this call depends on the rows it is given (see the top of the file): always for
   bfloat16 and complex; float/double add whose alpha is not +-1 (the hoisted products). */
static bool rows_matter(const ct_pw_op *op, ct_dtype common, const alpha_args *a) {
  switch (common) {
    case CT_BFLOAT16:
    case CT_COMPLEX64:
    case CT_COMPLEX128: return true;
    case CT_FLOAT32:
    case CT_FLOAT64:
      return op != &ct__pw_op_mul && ct__scalar_to_double(a->alpha) != 1.0 && ct__scalar_to_double(a->alpha) != -1.0;
    default: return false;
  }
}

/* mul's route, and add's and sub's once their alpha is known (args: the alpha_args). */
static ct_status arith_run(const ct_pw_op *op, ct_tensor *out, const ct_tensor *const *in, int n_in, bool inplace,
                           const void *args, ct_tensor **result) {
  const ct_tensor *x = in[0], *y = in[1];
  const alpha_args *a = args;
  if (result) *result = NULL;
  if (x && y && (x->dtype != y->dtype || (out && out->dtype != x->dtype))) {
    ct_dtype common;
    if (ct__result_type(in, 2, &common) != CT_OK)
      ct_clear_error(); /* the engine reports it, in its order */
    else if (rows_matter(op, common, a))
      return ct__bin_pw_run(op, out, in, n_in, inplace, a, result);
  }
  return ct__pw_run(op, out, in, n_in, inplace, a, result);
}

/* The default alphas are constants, not built per call: a struct assembled field by field on the stack
   and copied whole right after stalls on store forwarding, which cost a 1-element add a fifth of its time. */
static const alpha_args default_alpha[2] = {{{.kind = CT_SCALAR_INT, .v.i = 1}, false, CT_DTYPE_UNSET},
                                            {{.kind = CT_SCALAR_INT, .v.i = 1}, true, CT_DTYPE_UNSET}};

static const alpha_args *pick_alpha(const ct_alpha_opts *opts, bool negate, alpha_args *room) {
  if (!opts || !opts->alpha.kind) return &default_alpha[negate];
  room->alpha = opts->alpha;
  room->negate = negate;
  room->check_dtype = CT_DTYPE_UNSET;
  return room;
}

/* add's and sub's route: args is the public forms' ct_alpha_opts. */
static ct_status alpha_run(const ct_pw_op *op, ct_tensor *out, const ct_tensor *const *in, int n_in, bool inplace,
                           const void *args, ct_tensor **result) {
  bool negate = op == &ct__pw_op_sub;
  if (negate && !sub_ok(in[0], in[1])) return CT_ERR_RUNTIME;
  alpha_args room;
  const alpha_args *a = pick_alpha(args, negate, &room);
  if (a == &room && out && !inplace && CT__OP_ON_META(out, in[0], in[1]))
    room.check_dtype = (ct_dtype)out->dtype;
  return arith_run(op, out, in, n_in, inplace, a, result);
}

const ct_pw_op ct__pw_op_add = {
    CT_PW_OP_ATEN("add", ("aten::add.Tensor", "aten::add_.Tensor", "aten::add.out"), "add_cpu", COMMON,
                  add_loops, DIFF),
    .check = alpha_check, .kernel_check = alpha_fits, .prepare = alpha_prepare, .run = alpha_run};
const ct_pw_op ct__pw_op_sub = {
    CT_PW_OP_ATEN("sub", ("aten::sub.Tensor", "aten::sub_.Tensor", "aten::sub.out"), "sub_cpu", COMMON,
                  sub_loops, DIFF),
    .check = alpha_check, .kernel_check = alpha_fits, .prepare = alpha_prepare, .run = alpha_run};
const ct_pw_op ct__pw_op_mul = {CT_PW_OP_ATEN("mul",
                                              ("aten::mul.Tensor", "aten::mul_.Tensor", "aten::mul.out"),
                                              "mul_cpu", COMMON, mul_loops, DIFF),
                                .run = arith_run};
