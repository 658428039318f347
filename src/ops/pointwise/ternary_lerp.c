/* lerp, addcmul, addcdiv.

   PyTorch 1.13's CPU kernels, as its AVX2 build computes them (GCC contracts a * b + c into one fused
   multiply-add; torch compat, kernels/cpu/torch_compat.h: every fma below is CT_COMPAT_FMA, one rounding
   per operation when the switch is off, and so is the choice of GCC's forms for complex rows):
     lerp:    w < 0.5 ? fma(w, end - self, self) : fma(-(end - self), 1 - w, end)
              (complex: |w| < 0.5; PyTorch's zabs is the identity for real types, so w = -1 is "small")
     addcmul: fma(value * t1, t2, self)
     addcdiv: self + value * t1 / t2          (no fusion possible)
   bfloat16 computes in float (value and weight as float, unrounded) and rounds once; float16 has no
   kernel. Integers wrap. Complex multiplication and division differ between PyTorch's scalar code
   (c10::complex with fused products) and its AVX2 vector code (separately rounded products, added
   pairwise): addcmul and addcdiv run the vector formulas where cpu_kernel_vec vectorizes (whole blocks
   of 2 vectors of a contiguous row) and the scalar ones elsewhere; complex lerp has no vector path.
   Which NaN a NaN result is, is not reproduced (docs/ARCHITECTURE.md). */
#include <math.h>
#include <stdlib.h>

#include "core/cast.h"
#include "kernels/cpu/cplx_forms.h"
#include "kernels/cpu/loops.h"
#include "kernels/cpu/torch_compat.h"
#include "ops/pointwise/pw.h"

#define CT_WRAP(T, U, expr) ((T)(U)(expr))


/* ternary_common.c */
const char *ct__pw_typemeta_name(ct_dtype dt);
bool ct__pw_materialize(const ct_tensor **in, int n, ct_dtype common, ct_tensor **tmp);
#define typemeta_name ct__pw_typemeta_name

/* ---- addcmul / addcdiv ---- */
typedef union value_ctx {
  int64_t i;
  float f;
  double d;
  ct_c64 c64;
  ct_c128 c128;
} value_ctx;
#define VAL(field) (((const value_ctx *)ctx)->field)

#define ADDCMUL_INT(T, U) CT_WRAP(T, U, (U)a + (U)VAL(i) * (U)b * (U)c)
CT_TERNARY_LOOP(addcmul_CT_UINT8, uint8_t, uint8_t, CT_ID, uint8_t, CT_ID, ADDCMUL_INT(uint8_t, uint8_t))
CT_TERNARY_LOOP(addcmul_CT_INT8, int8_t, int8_t, CT_ID, int8_t, CT_ID, ADDCMUL_INT(int8_t, uint8_t))
/* int16 in 32-bit unsigned: uint16_t factors would promote to int and overflow it (-1 * -1) */
CT_TERNARY_LOOP(addcmul_CT_INT16, int16_t, int16_t, CT_ID, int16_t, CT_ID, ADDCMUL_INT(int16_t, uint32_t))
CT_TERNARY_LOOP(addcmul_CT_INT32, int32_t, int32_t, CT_ID, int32_t, CT_ID, ADDCMUL_INT(int32_t, uint32_t))
CT_TERNARY_LOOP(addcmul_CT_INT64, int64_t, int64_t, CT_ID, int64_t, CT_ID, ADDCMUL_INT(int64_t, uint64_t))
CT_TERNARY_LOOP(addcmul_CT_FLOAT32, float, float, CT_ID, float, CT_ID, CT_COMPAT_FMAF(VAL(f) * b, c, a))
CT_TERNARY_LOOP(addcmul_CT_FLOAT64, double, double, CT_ID, double, CT_ID, CT_COMPAT_FMA(VAL(d) * b, c, a))
CT_TERNARY_LOOP(addcdiv_CT_FLOAT32, float, float, CT_ID, float, CT_ID, a + VAL(f) * b / c)
CT_TERNARY_LOOP(addcdiv_CT_FLOAT64, double, double, CT_ID, double, CT_ID, a + VAL(d) * b / c)

/* bfloat16: float arithmetic, one rounding (PyTorch's vector and scalar lambdas differ only in their NaN
   bits, 0xffff and 0x7fc0: not reproduced, docs/ARCHITECTURE.md). */
#define DEF_ADDC_BF16(name, EXPR)                                                                            \
  CT_KERNEL_CLONES static void name##_CT_BFLOAT16(char **d, const int64_t *s, int64_t n, const void *ctx) {  \
    const float v = VAL(f);                                                                                  \
    for (int64_t k = 0; k < n; k++) {                                                                        \
      float a = ct__bfloat16_to_float(CT_AT(uint16_t, d[1], s[1], k));                                       \
      float b = ct__bfloat16_to_float(CT_AT(uint16_t, d[2], s[2], k));                                       \
      float c = ct__bfloat16_to_float(CT_AT(uint16_t, d[3], s[3], k));                                       \
      float r = EXPR;                                                                                        \
      CT_OUT(uint16_t, d[0], s[0], k) = ct__float_to_bfloat16(r);                                            \
    }                                                                                                        \
  } \
  CT_LOOP_PLAIN(name##_CT_BFLOAT16)
DEF_ADDC_BF16(addcmul, (CT_COMPAT_FMAF(v * b, c, a)))
DEF_ADDC_BF16(addcdiv, a + v * b / c)

/* complex64 addcdiv's scalar code, unrolled by GCC, ends with a leftover form that fuses differently for
   the real and the imaginary part of the result (both found by matching PyTorch's bits). */
static inline ct_c64 addcdiv_left_c64(ct_c64 s, ct_c64 v, ct_c64 x, ct_c64 y) {
  float vr = crealf(v), vi = cimagf(v), xr = crealf(x), xi = cimagf(x), c = crealf(y), d = cimagf(y);
  float vrxr = vr * xr, vixi = vi * xi, vrxi = vr * xi, vixr = vi * xr;
  float den = fmaf(c, c, d * d);
  float pr = vrxr - vixi, pi = fmaf(vr, xi, vixr); /* for the real part */
  float qr = fmaf(vr, xr, -vixi), qi = vrxi + vixr; /* for the imaginary part */
  return CMPLXF(crealf(s) + fmaf(pi, d, pr * c) / den, cimagf(s) + fmaf(-qr, d, qi * c) / den);
}

/* Which form PyTorch 1.13's AVX2 build gives each element of a row, complex addcmul / addcdiv:
     V  vector lambda: whole blocks of 2 vectors when every operand is contiguous or one input is a
        stride-0 scalar (vec_prefix);
     S  the scalar lambda in GCC's auto-vectorized loop (its blocks: `unroll` elements from the start of
        the scalar part), fused as c10::complex's operators;
     L  the elements left after those blocks (complex64 only; complex128 has no leftover form).
   The unroll is 4 for the tail after the vector blocks of a contiguous row, 2 after those of a row with a
   scalar operand and 2 for strided rows (addcmul complex64), 4 everywhere (addcdiv complex64). In place
   (the output is an input) only contiguous rows keep the unrolled blocks. */
/* With the switch off a row is the scalar formula throughout, a loop that GCC's vectorizer would compile to
   fused complex products (vfmaddsub, even without contraction): kept scalar. */
#if CT_TORCH_COMPAT
#define ADDC_CX_ATTR CT_KERNEL_CLONES
#else
#define ADDC_CX_ATTR CT_NO_TREE_VECTORIZE
#endif
#define DEF_ADDC_COMPLEX(name, E, T, FIELD, VEXPR, SEXPR, LEXPR, BLOCK, UNROLL_CONTIG, UNROLL_OTHER)       \
  ADDC_CX_ATTR static void name##_##E(char **d, const int64_t *s, int64_t n, const void *ctx) {            \
    const int64_t isz[4] = {sizeof(T), sizeof(T), sizeof(T), sizeof(T)};                                   \
    const T v = VAL(FIELD);                                                                                \
    bool contig = s[0] == isz[0] && s[1] == isz[1] && s[2] == isz[2] && s[3] == isz[3];                    \
    int64_t nv = ct__torch_vec_prefix(s, 4, isz, n, BLOCK);                                                \
    int64_t u = contig ? (UNROLL_CONTIG) : (UNROLL_OTHER);                                                 \
    int64_t ns = nv + (n - nv) / u * u; /* end of the unrolled scalar blocks */                            \
    /* in place, a strided row fails the unrolled loop's alias check: GCC's fallback, the leftover form */ \
    if (!contig && (d[0] == d[1] || d[0] == d[2] || d[0] == d[3])) ns = nv;                                \
    if (!CT_TORCH_COMPAT) ns = n; /* off: the scalar formula throughout (nv is 0), no leftover form */     \
    for (int64_t k = 0; k < n; k++) {                                                                      \
      T a = CT_AT(T, d[1], s[1], k), b = CT_AT(T, d[2], s[2], k), c = CT_AT(T, d[3], s[3], k);             \
      CT_OUT(T, d[0], s[0], k) = k < nv ? (VEXPR) : k < ns ? (SEXPR) : (LEXPR);                            \
    }                                                                                                      \
  }                                                                                                        \
  CT_LOOP_PLAIN(name##_##E)
DEF_ADDC_COMPLEX(addcmul, CT_COMPLEX64, ct_c64, c64, cadd_c64(a, cmul_v_c64(cmul_v_c64(v, b), c)),
                 cadd_c64(a, cmul_s_c64(cmul_s_c64(v, b), c)), cadd_c64(a, cmul_v_c64(cmul_s_c64(v, b), c)), 8, 4, 2)
DEF_ADDC_COMPLEX(addcmul, CT_COMPLEX128, ct_c128, c128, cadd_c128(a, cmul_v_c128(cmul_v_c128(v, b), c)),
                 cadd_c128(a, cmul_s_c128(cmul_s_c128(v, b), c)), cadd_c128(a, cmul_s_c128(cmul_s_c128(v, b), c)), 4,
                 1, 1)
DEF_ADDC_COMPLEX(addcdiv, CT_COMPLEX64, ct_c64, c64, cadd_c64(a, cdiv_v_c64(cmul_v_c64(v, b), c)),
                 cadd_c64(a, cdiv_s_c64(cmul_s_c64(v, b), c)), addcdiv_left_c64(a, v, b, c), 8, 4, 4)
DEF_ADDC_COMPLEX(addcdiv, CT_COMPLEX128, ct_c128, c128, cadd_c128(a, cdiv_v_c128(cmul_v_c128(v, b), c)),
                 cadd_c128(a, cdiv_s_c128(cmul_s_c128(v, b), c)), cadd_c128(a, cdiv_s_c128(cmul_s_c128(v, b), c)), 4,
                 1, 1)

static const ct_loop *const addcmul_loops[CT_NUM_DTYPES + 1] = {
    [CT_UINT8] = CT_LOOP_REF(addcmul_CT_UINT8),         [CT_INT8] = CT_LOOP_REF(addcmul_CT_INT8),         [CT_INT16] = CT_LOOP_REF(addcmul_CT_INT16),
    [CT_INT32] = CT_LOOP_REF(addcmul_CT_INT32),         [CT_INT64] = CT_LOOP_REF(addcmul_CT_INT64),       [CT_BFLOAT16] = CT_LOOP_REF(addcmul_CT_BFLOAT16),
    [CT_FLOAT32] = CT_LOOP_REF(addcmul_CT_FLOAT32),     [CT_FLOAT64] = CT_LOOP_REF(addcmul_CT_FLOAT64),   [CT_COMPLEX64] = CT_LOOP_REF(addcmul_CT_COMPLEX64),
    [CT_COMPLEX128] = CT_LOOP_REF(addcmul_CT_COMPLEX128)};
/* integral common dtypes cannot happen (two integral tensors are refused first); they would be
   PyTorch's integer kernels, which we do not need */
static const ct_loop *const addcdiv_loops[CT_NUM_DTYPES + 1] = {
    [CT_BFLOAT16] = CT_LOOP_REF(addcdiv_CT_BFLOAT16), [CT_FLOAT32] = CT_LOOP_REF(addcdiv_CT_FLOAT32), [CT_FLOAT64] = CT_LOOP_REF(addcdiv_CT_FLOAT64),
    [CT_COMPLEX64] = CT_LOOP_REF(addcdiv_CT_COMPLEX64), [CT_COMPLEX128] = CT_LOOP_REF(addcdiv_CT_COMPLEX128)};

typedef struct addc_args {
  ct_scalar value;
  const ct_tensor *out; /* out= or the in-place target */
  const ct_loop *const *loops;
} addc_args;

/* The dtype a scalar argument converts to in PyTorch's kernel (bfloat16 kernels read it as float). */
static ct_dtype scalar_arg_dtype(ct_dtype common) { return common == CT_BFLOAT16 ? CT_FLOAT32 : common; }

/* Fills the value context from a scalar already checked to fit. */
static void store_value(ct_dtype common, ct_scalar v, value_ctx *c) {
  memset(c, 0, sizeof *c);
  ct_dtype dt = scalar_arg_dtype(common);
  if (ct__dt(dt)->category <= CT_CAT_INT) {
    /* the integer dtype's value, sign-extended: wraps exactly like the kernel's scalar_t */
    ct_scalar w;
    unsigned char buf[16] = {0};
    ct__store_scalar(dt, buf, v);
    w = ct__load_scalar(dt, buf);
    c->i = w.kind == CT_SCALAR_BOOL ? w.v.b : w.v.i;
  } else {
    ct__store_scalar(dt, c, v);
  }
}

static bool addc_check(ct_dtype common, const ct_tensor *const *in, const void *arg) {
  (void)in;
  const addc_args *a = arg;
  if (!ct__scalar_fits(a->value, scalar_arg_dtype(common))) return false;
  if (a->out && (ct_dtype)a->out->dtype != common) {
    ct__error(CT_ERR_RUNTIME, "!needs_dynamic_casting<func_t>::check(iter) INTERNAL ASSERT FAILED at "
                              "\"./aten/src/ATen/native/cpu/Loops.h\":347, please report a bug to PyTorch. ");
    return false;
  }
  return true;
}

static void addc_prepare(ct_dtype common, const void *arg, ct_pw_ctx *ctx) {
  const addc_args *a = arg;
  store_value(common, a->value, (value_ctx *)ctx->bytes);
}

/* build_ternary_op: promote, safe-cast to outputs, but no cast into them (see addc_check) */
static const ct_pw_op addcmul_op = {CT_PW_OP("addcmul", "addcmul_cpu_out", COMMON, addcmul_loops),
                                    .kernel_check = addc_check, .prepare = addc_prepare};
static const ct_pw_op addcdiv_op = {CT_PW_OP("addcdiv", "addcdiv_cpu_out", COMMON, addcdiv_loops),
                                    .kernel_check = addc_check, .prepare = addc_prepare};

static bool addcdiv_integral(const ct_tensor *t1, const ct_tensor *t2) {
  if (ct__dt((ct_dtype)t1->dtype)->category <= CT_CAT_INT && ct__dt((ct_dtype)t2->dtype)->category <= CT_CAT_INT) {
    ct__error(CT_ERR_RUNTIME,
              "Integer division with addcdiv is no longer supported, and in a future  release addcdiv will perform "
              "a true division of tensor1 and tensor2. The historic addcdiv behavior can be implemented as (input + "
              "value * torch.trunc(tensor1 / tensor2)).to(input.dtype) for integer inputs and as (input + value * "
              "tensor1 / tensor2) for float inputs. The future addcdiv behavior is just the latter implementation: "
              "(input + value * tensor1 / tensor2), for all dtypes.");
    return true;
  }
  return false;
}

static ct_status addc_run(const ct_pw_op *op, ct_tensor *out, const ct_tensor *t, const ct_tensor *t1,
                          const ct_tensor *t2, const ct_addc_opts *opts, bool inplace, ct_tensor **result) {
  if (result) *result = NULL;
  CT__NONNULL_STATUS(t, t1, t2);
  if (!result && !out) return ct__null_named_status("out", 0);
  if (out && !inplace && !CT__OP_OUT_GRAD_OK(&op->op, out, t, t1, t2)) return CT_ERR_RUNTIME;
  if (!CT__PW_ENTER(op, inplace ? NULL : out, inplace, t, t1, t2)) return ct_last_error();
  if (op == &addcdiv_op && addcdiv_integral(t1, t2)) return CT_ERR_RUNTIME;
  const ct_tensor *in[3] = {t, t1, t2};
  addc_args a = {ct_scalar_int(1), out, op->op.kernels[CT_CPU]}; /* the CPU kernel checks value */
  if (opts && opts->value.kind) a.value = opts->value;
  /* complex and bfloat16 results depend on PyTorch's vector / scalar split: iterate as PyTorch does */
  ct_tensor *tmp[3] = {NULL, NULL, NULL};
  ct_dtype common;
  if (ct__result_type(in, 3, &common) == CT_OK && (ct_dtype_is_complex(common) || common == CT_BFLOAT16) &&
      !ct__pw_materialize(in, 3, common, tmp))
    return ct__null_status();
  /* no cast into out=: the engine's cast_to_outputs never applies, as out must have the common dtype */
  ct_status s = ct__pw_run(op, out, in, 3, inplace, &a, result);
  for (int i = 0; i < 3; i++) ct_release(tmp[i]);
  return s;
}

#define DEF_ADDC_API(name)                                                                                   \
  ct_tensor *ct_##name(const ct_tensor *t, const ct_tensor *t1, const ct_tensor *t2, const ct_addc_opts *o) { \
    ct_tensor *r = NULL;                                                                                     \
    addc_run(&name##_op, NULL, t, t1, t2, o, false, &r);                                                     \
    return r;                                                                                                \
  }                                                                                                          \
  ct_status ct_##name##_(ct_tensor *self, const ct_tensor *t1, const ct_tensor *t2, const ct_addc_opts *o) { \
    return addc_run(&name##_op, self, self, t1, t2, o, true, NULL);                                          \
  }                                                                                                          \
  ct_status ct_##name##_out(ct_tensor *out, const ct_tensor *t, const ct_tensor *t1, const ct_tensor *t2,    \
                            const ct_addc_opts *o) {                                                         \
    return addc_run(&name##_op, out, t, t1, t2, o, false, NULL);                                             \
  }
DEF_ADDC_API(addcmul)
DEF_ADDC_API(addcdiv)

/* ---- lerp ----
   torch's scalar formula, self + w * (end - self) for small w, else end - (end - self) * (1 - w), each
   fused by GCC (torch compat: CT_COMPAT_FMA). */
#define LERP_REAL(w, s, e, FMA) ((w) < 0.5 ? FMA((w), (e) - (s), (s)) : FMA(-((e) - (s)), 1 - (w), (e)))
#define LERP_CX(SUF, HYPOT, R, w, s, e)                                                              \
  (HYPOT(creal(w), cimag(w)) < (R)0.5 ? cadd_##SUF((s), cmul_s_##SUF((w), csub_##SUF((e), (s))))     \
                                      : csub_##SUF((e), cmul_s_##SUF(csub_##SUF((e), (s)), csub_##SUF(1, (w)))))

/* scalar weight: operands (out, self, end). A NaN weight gives NaN (torch's vector and scalar code
   differ in which NaN when end - self is NaN too: not reproduced, docs/ARCHITECTURE.md). */
#define DEF_LERPS_REAL(E, T, FIELD, FMA) \
  CT_BINARY_LOOP(lerps_##E, T, T, CT_ID, T, CT_ID, LERP_REAL(VAL(FIELD), a, b, FMA))
DEF_LERPS_REAL(CT_FLOAT32, float, f, CT_COMPAT_FMAF)
DEF_LERPS_REAL(CT_FLOAT64, double, d, CT_COMPAT_FMA)
CT_BINARY_LOOP(lerps_CT_COMPLEX64, ct_c64, ct_c64, CT_ID, ct_c64, CT_ID, LERP_CX(c64, hypotf, float, VAL(c64), a, b))
CT_BINARY_LOOP(lerps_CT_COMPLEX128, ct_c128, ct_c128, CT_ID, ct_c128, CT_ID,
               LERP_CX(c128, hypot, double, VAL(c128), a, b))
/* tensor weight: operands (out, self, end, weight) */
/* bfloat16 is vectorized in PyTorch: float math, one rounding */
CT_KERNEL_CLONES static void lerps_CT_BFLOAT16(char **d, const int64_t *s, int64_t n, const void *ctx) {
  const float w = VAL(f);
  for (int64_t k = 0; k < n; k++) {
    float a = ct__bfloat16_to_float(CT_AT(uint16_t, d[1], s[1], k));
    float b = ct__bfloat16_to_float(CT_AT(uint16_t, d[2], s[2], k));
    float r = LERP_REAL(w, a, b, CT_COMPAT_FMAF);
    CT_OUT(uint16_t, d[0], s[0], k) = ct__float_to_bfloat16(r);
  }
}
CT_LOOP_PLAIN(lerps_CT_BFLOAT16)
CT_KERNEL_CLONES static void lerpt_CT_BFLOAT16(char **d, const int64_t *s, int64_t n, const void *ctx) {
  (void)ctx;
  for (int64_t k = 0; k < n; k++) {
    float a = ct__bfloat16_to_float(CT_AT(uint16_t, d[1], s[1], k));
    float b = ct__bfloat16_to_float(CT_AT(uint16_t, d[2], s[2], k));
    float w = ct__bfloat16_to_float(CT_AT(uint16_t, d[3], s[3], k));
    float r = LERP_REAL(w, a, b, CT_COMPAT_FMAF);
    CT_OUT(uint16_t, d[0], s[0], k) = ct__float_to_bfloat16(r);
  }
}
CT_LOOP_PLAIN(lerpt_CT_BFLOAT16)
/* tensor weight: a NaN weight gives NaN (which NaN is not reproduced, as for the scalar weight) */
#define DEF_LERPT_REAL(E, T, FMA) CT_TERNARY_LOOP(lerpt_##E, T, T, CT_ID, T, CT_ID, LERP_REAL(c, a, b, FMA))
DEF_LERPT_REAL(CT_FLOAT32, float, CT_COMPAT_FMAF)
DEF_LERPT_REAL(CT_FLOAT64, double, CT_COMPAT_FMA)
CT_TERNARY_LOOP(lerpt_CT_COMPLEX64, ct_c64, ct_c64, CT_ID, ct_c64, CT_ID, LERP_CX(c64, hypotf, float, c, a, b))
CT_TERNARY_LOOP(lerpt_CT_COMPLEX128, ct_c128, ct_c128, CT_ID, ct_c128, CT_ID, LERP_CX(c128, hypot, double, c, a, b))

#define ENTRY_LERPS(E, T, CT, LD, ST) [E] = CT_LOOP_REF(lerps_##E),
#define ENTRY_LERPT(E, T, CT, LD, ST) [E] = CT_LOOP_REF(lerpt_##E),
static const ct_loop *const lerps_loops[CT_NUM_DTYPES + 1] = {
    [CT_BFLOAT16] = CT_LOOP_REF(lerps_CT_BFLOAT16), CT_DT_FLOAT(ENTRY_LERPS) CT_DT_COMPLEX(ENTRY_LERPS)};
static const ct_loop *const lerpt_loops[CT_NUM_DTYPES + 1] = {
    [CT_BFLOAT16] = CT_LOOP_REF(lerpt_CT_BFLOAT16), CT_DT_FLOAT(ENTRY_LERPT) CT_DT_COMPLEX(ENTRY_LERPT)};

typedef struct lerp_args {
  ct_scalar weight;
} lerp_args;

static bool lerps_check(ct_dtype common, const ct_tensor *const *in, const void *arg) {
  (void)in;
  return ct__scalar_fits(((const lerp_args *)arg)->weight, scalar_arg_dtype(common));
}

static void lerps_prepare(ct_dtype common, const void *arg, ct_pw_ctx *ctx) {
  store_value(common, ((const lerp_args *)arg)->weight, (value_ctx *)ctx->bytes);
}

/* Number weight: build_binary_op (promote, cast into out= of another dtype); Tensor weight: all
   operands of one dtype. */
static const ct_pw_op lerps_op = {
    CT_PW_OP_ATEN("lerp", ("aten::lerp.Scalar", "aten::lerp_.Scalar", "aten::lerp.Scalar_out"),
                  "lerp_kernel_scalar", COMMON, lerps_loops, DIFF),
    .kernel_check = lerps_check, .prepare = lerps_prepare};
static const ct_pw_op lerpt_op = {
    CT_PW_OP_ATEN("lerp", ("aten::lerp.Tensor", "aten::lerp_.Tensor", "aten::lerp.Tensor_out"),
                  "lerp_kernel_tensor", SAME, lerpt_loops, DIFF)};

static bool lerp_same_dtype(const ct_tensor *self, const ct_tensor *other, const char *what) {
  if (self->dtype == other->dtype) return true;
  ct__error(CT_ERR_RUNTIME, "expected dtype %s for `%s` but got dtype %s", typemeta_name((ct_dtype)self->dtype),
            what, typemeta_name((ct_dtype)other->dtype));
  return false;
}

static ct_status lerp_run(ct_tensor *out, const ct_tensor *t, const ct_tensor *end, const ct_tensor *weight,
                          bool inplace, ct_tensor **result) {
  if (result) *result = NULL;
  CT__NONNULL_STATUS(t, end, weight);
  if (!result && !out) return ct__null_named_status("out", 0);
  bool scalar = weight->flags & CT_TENSOR_WRAPPED_NUMBER;
  if (out && !inplace && !CT__OP_OUT_GRAD_OK(&lerpt_op.op, out, t, end, weight)) return CT_ERR_RUNTIME;
  if (!CT__PW_ENTER(scalar ? &lerps_op : &lerpt_op, inplace ? NULL : out, inplace, t, end,
                    scalar ? NULL : weight))
    return ct_last_error();
  if (!lerp_same_dtype(t, end, "end")) return CT_ERR_RUNTIME;
  if (scalar) {
    lerp_args a = {ct__load_scalar((ct_dtype)weight->dtype, ct__tdata(weight))};
    const ct_tensor *in[2] = {t, end};
    return ct__pw_run(&lerps_op, out, in, 2, inplace, &a, result);
  }
  if (!lerp_same_dtype(t, weight, "weight")) return CT_ERR_RUNTIME;
  const ct_tensor *in[3] = {t, end, weight};
  return ct__pw_run(&lerpt_op, out, in, 3, inplace, NULL, result);
}

ct_tensor *ct_lerp(const ct_tensor *t, const ct_tensor *end, const ct_tensor *weight) {
  ct_tensor *r = NULL;
  lerp_run(NULL, t, end, weight, false, &r);
  return r;
}
ct_status ct_lerp_(ct_tensor *self, const ct_tensor *end, const ct_tensor *weight) {
  return lerp_run(self, self, end, weight, true, NULL);
}
ct_status ct_lerp_out(ct_tensor *out, const ct_tensor *t, const ct_tensor *end, const ct_tensor *weight) {
  return lerp_run(out, t, end, weight, false, NULL);
}
