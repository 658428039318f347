/* Comparisons: eq, ne, lt, le, gt, ge (their aliases not_equal, less, less_equal, greater, greater_equal
   are in the op table); isclose and allclose.

   Comparisons promote their operands to the common dtype (a Python number wraps into it: uint8 < -1
   compares with 255, int tensor == 2.5 compares in float32), give bool, and cast into out= tensors of
   another dtype without a can_cast check (Tensor.eq_ of a float tensor stores 1.0 / 0.0). NaN compares
   false except for ne. Complex operands support eq and ne only. */
#include <math.h>

#include "core/cast.h"
#include "core/parallel.h"
#include "core/layout_rules.h"
#include "kernels/cpu/loops.h"
#include "ops/create_internal.h"
#include "ops/pointwise/pw.h"

/* ternary_common.c */
bool ct__pw_materialize(const ct_tensor **in, int n, ct_dtype common, ct_tensor **tmp);
bool ct__pw_out_via_temp(const ct_tensor *out, const ct_tensor *const *in, int n, ct_dtype common, bool safe_cast,
                         ct_tensor **tmp);

/* ---- comparison loops: compute dtype in, bool out ---- */
#define DEF_CMP(name, OP)                                                                                     \
  CT_BINARY_LOOP(name##_CT_BOOL, uint8_t, bool, CT_LDB, bool, CT_ID, a OP b)                                      \
  CT_BINARY_LOOP(name##_CT_UINT8, uint8_t, uint8_t, CT_ID, bool, CT_ID, a OP b)                               \
  CT_BINARY_LOOP(name##_CT_INT8, int8_t, int8_t, CT_ID, bool, CT_ID, a OP b)                                  \
  CT_BINARY_LOOP(name##_CT_INT16, int16_t, int16_t, CT_ID, bool, CT_ID, a OP b)                               \
  CT_BINARY_LOOP(name##_CT_INT32, int32_t, int32_t, CT_ID, bool, CT_ID, a OP b)                               \
  CT_BINARY_LOOP(name##_CT_INT64, int64_t, int64_t, CT_ID, bool, CT_ID, a OP b)                               \
  CT_BINARY_LOOP(name##_CT_FLOAT16, uint16_t, float, ct__half_to_float, bool, CT_ID, a OP b)                  \
  CT_BINARY_LOOP(name##_CT_BFLOAT16, uint16_t, float, ct__bfloat16_to_float, bool, CT_ID, a OP b)             \
  CT_BINARY_LOOP(name##_CT_FLOAT32, float, float, CT_ID, bool, CT_ID, a OP b)                                 \
  CT_BINARY_LOOP(name##_CT_FLOAT64, double, double, CT_ID, bool, CT_ID, a OP b)
#define DEF_CMP_COMPLEX(name, OP)                                                   \
  CT_BINARY_LOOP(name##_CT_COMPLEX64, ct_c64, ct_c64, CT_ID, bool, CT_ID, a OP b)   \
  CT_BINARY_LOOP(name##_CT_COMPLEX128, ct_c128, ct_c128, CT_ID, bool, CT_ID, a OP b)

DEF_CMP(eq, ==)
DEF_CMP_COMPLEX(eq, ==)
DEF_CMP(ne, !=)
DEF_CMP_COMPLEX(ne, !=)
DEF_CMP(lt, <)
DEF_CMP(le, <=)
DEF_CMP(gt, >)
DEF_CMP(ge, >=)

#define ENTRY_EQ(E, T, CT, LD, ST) [E] = CT_LOOP_REF(eq_##E),
#define ENTRY_NE(E, T, CT, LD, ST) [E] = CT_LOOP_REF(ne_##E),
#define ENTRY_LT(E, T, CT, LD, ST) [E] = CT_LOOP_REF(lt_##E),
#define ENTRY_LE(E, T, CT, LD, ST) [E] = CT_LOOP_REF(le_##E),
#define ENTRY_GT(E, T, CT, LD, ST) [E] = CT_LOOP_REF(gt_##E),
#define ENTRY_GE(E, T, CT, LD, ST) [E] = CT_LOOP_REF(ge_##E),
static const ct_loop *const eq_loops[CT_NUM_DTYPES + 1] = {CT_DT_ALL(ENTRY_EQ)};
static const ct_loop *const ne_loops[CT_NUM_DTYPES + 1] = {CT_DT_ALL(ENTRY_NE)};
static const ct_loop *const lt_loops[CT_NUM_DTYPES + 1] = {CT_DT_BOOL(ENTRY_LT) CT_DT_INTEGRAL(ENTRY_LT) CT_DT_FLOATING(ENTRY_LT)};
static const ct_loop *const le_loops[CT_NUM_DTYPES + 1] = {CT_DT_BOOL(ENTRY_LE) CT_DT_INTEGRAL(ENTRY_LE) CT_DT_FLOATING(ENTRY_LE)};
static const ct_loop *const gt_loops[CT_NUM_DTYPES + 1] = {CT_DT_BOOL(ENTRY_GT) CT_DT_INTEGRAL(ENTRY_GT) CT_DT_FLOATING(ENTRY_GT)};
static const ct_loop *const ge_loops[CT_NUM_DTYPES + 1] = {CT_DT_BOOL(ENTRY_GE) CT_DT_INTEGRAL(ENTRY_GE) CT_DT_FLOATING(ENTRY_GE)};

const ct_pw_op ct__pw_op_lt = {
    CT_PW_OP_ATEN("lt", CT_PW_ATEN_TENSOR("lt"), "lt_cpu", COMPARE, lt_loops, NONE)};
const ct_pw_op ct__pw_op_le = {
    CT_PW_OP_ATEN("le", CT_PW_ATEN_TENSOR("le"), "le_cpu", COMPARE, le_loops, NONE)};
const ct_pw_op ct__pw_op_gt = {
    CT_PW_OP_ATEN("gt", CT_PW_ATEN_TENSOR("gt"), "gt_cpu", COMPARE, gt_loops, NONE)};
const ct_pw_op ct__pw_op_ge = {
    CT_PW_OP_ATEN("ge", CT_PW_ATEN_TENSOR("ge"), "ge_cpu", COMPARE, ge_loops, NONE)};

/* eq / ne into a non-bool out= (or in place) with a complex common dtype: PyTorch's kernel then computes
   in the common dtype, and its AVX2 form (Vectorized<complex>::eq / ne) compares the real and imaginary
   parts separately, giving re_cmp + im_cmp * i, over whole blocks of 2 vectors of a contiguous row; the
   scalar form gives 1 or 0. The result then casts into out (a real out keeps the real part). */
#define DEF_CMP_CX_OUT(name, OP, JOIN, E, T, R, BLOCK)                                                   \
  CT_KERNEL_CLONES static void name##_##E(char **d, const int64_t *s, int64_t n, const void *ctx) {     \
    (void)ctx;                                                                                           \
    const int64_t sz = (int64_t)sizeof(T);                                                               \
    int zeros = (s[1] == 0) + (s[2] == 0);                                                               \
    bool vec = s[0] == sz && (s[1] == sz || s[1] == 0) && (s[2] == sz || s[2] == 0) && zeros < 2;        \
    int64_t nv = vec ? n - n % (BLOCK) : 0;                                                              \
    for (int64_t k = 0; k < n; k++) {                                                                    \
      T a = CT_AT(T, d[1], s[1], k), b = CT_AT(T, d[2], s[2], k);                                        \
      R re = creal(a) OP creal(b), im = cimag(a) OP cimag(b);                                            \
      CT_OUT(T, d[0], s[0], k) = k < nv ? (T)(re + im * (T)I) : (T)(re JOIN im);                          \
    }                                                                                                    \
  } \
  CT_LOOP_PLAIN(name##_##E)
DEF_CMP_CX_OUT(eqcx, ==, &&, CT_COMPLEX64, ct_c64, float, 8)
DEF_CMP_CX_OUT(eqcx, ==, &&, CT_COMPLEX128, ct_c128, double, 4)
DEF_CMP_CX_OUT(necx, !=, ||, CT_COMPLEX64, ct_c64, float, 8)
DEF_CMP_CX_OUT(necx, !=, ||, CT_COMPLEX128, ct_c128, double, 4)

/* eq's and ne's route. */
static ct_status eq_ne_run(const ct_pw_op *op, ct_tensor *out, const ct_tensor *const *in, int n_in, bool inplace,
                           const void *args, ct_tensor **result) {
  const ct_tensor *a = in[0], *b = in[1];
  if (out && a && b && out->dtype != CT_BOOL) {
    const ct_tensor *ab[2] = {a, b};
    ct_dtype common;
    if (ct__result_type(ab, 2, &common) == CT_OK && ct_dtype_is_complex(common)) {
      /* the result depends on PyTorch's vector / scalar split: iterate as PyTorch does */
      ct_tensor *tmp[2] = {NULL, NULL}, *tmp_out = NULL;
      if (!ct__pw_out_via_temp(out, ab, 2, common, false, &tmp_out)) return ct_last_error(); /* its kind: OOM too */
      if (!ct__pw_materialize(ab, 2, common, tmp)) {
        ct_release(tmp_out);
        return ct__null_status();
      }
      ct_iter_config cfg = {.n_out = 1, .n_in = 2, .check_mem_overlap = true, .no_resize_outputs = inplace};
      cfg.allow_cpu_scalars = true; /* comparison_op's config */
      cfg.out[0] = tmp_out ? tmp_out : out;
      cfg.in[0] = ab[0];
      cfg.in[1] = ab[1];
      cfg.promote_inputs = true;
      cfg.cast_to_outputs = true;
      ct_iter it;
      ct_status s = ct__iter_build(&it, &cfg);
      if (s == CT_OK) {
        bool eq = op == &ct__pw_op_eq;
        const ct_loop *cx = common == CT_COMPLEX64 ? (eq ? CT_LOOP_REF(eqcx_CT_COMPLEX64) : CT_LOOP_REF(necx_CT_COMPLEX64))
                                                   : (eq ? CT_LOOP_REF(eqcx_CT_COMPLEX128) : CT_LOOP_REF(necx_CT_COMPLEX128));
        ct__iter_run(&it, cx, NULL);
        ct__iter_finish(&it);
        if (tmp_out) s = ct__copy_into(out, tmp_out);
      }
      ct_release(tmp[0]);
      ct_release(tmp[1]);
      ct_release(tmp_out);
      return s;
    }
  }
  return ct__pw_run(op, out, in, n_in, inplace, args, result);
}
const ct_pw_op ct__pw_op_eq = {
    CT_PW_OP_ATEN("eq", CT_PW_ATEN_TENSOR("eq"), "eq_cpu", COMPARE, eq_loops, NONE), .run = eq_ne_run};
const ct_pw_op ct__pw_op_ne = {
    CT_PW_OP_ATEN("ne", CT_PW_ATEN_TENSOR("ne"), "ne_cpu", COMPARE, ne_loops, NONE), .run = eq_ne_run};

/* ---- isclose / allclose ----
   PyTorch 1.13 composes isclose from tensor ops:
     close = a == b, or both NaN when equal_nan (floating and complex);
     if rtol == 0 and atol == 0: close
     integral and bool inputs are cast to the default float dtype D, then
     allowed = atol + |rtol * b|, actual = |a - b|, close |= isfinite(actual) & actual <= allowed,
   each step rounded to the dtype (float16 / bfloat16: every intermediate tensor rounds), the Python
   floats rtol and atol converted to it first. For complex inputs |z| is the vectorized sqrt(re^2 + im^2)
   over whole blocks of 2 x 256-bit vectors of a contiguous intermediate and hypot elsewhere; the fused
   loop below takes the block rule by the element's position in the result. */
typedef struct close_ctx {
  double rtol, atol;
  bool equal_nan, zero_tol;
  bool dflt_double;     /* integral inputs compute in float64 (default dtype) */
  /* complex: where |z| is taken in PyTorch's intermediates. actual = |a - b| has the result's layout;
     allowed = atol + |rtol * b| has b's (its memory order, when b is dense). NULL: no vector positions. */
  const char *out_base, *b_base;
  int64_t numel, chunk, b_numel, b_chunk, block, b_isz;
  /* b not dense (or with a negative stride): TensorIterator allocates rtol * b dense in the order of b's
     strides, so an element's place there follows from its index in the result: the result's sizes and
     strides, and per result dim the intermediate's stride (0 where b broadcasts). */
  int64_t nd;
  const int64_t *o_sizes, *o_strides, *b_place;
} close_ctx;

/* The position in rtol * b's intermediate of the element at position p of the (dense) result. */
static int64_t close_b_place(const close_ctx *c, int64_t p) {
  int64_t q = 0;
  for (int64_t i = 0; i < c->nd; i++)
    if (c->b_place[i]) q += p / c->o_strides[i] % c->o_sizes[i] * c->b_place[i];
  return q;
}

/* Whether PyTorch's vectorized loop covers position p of a contiguous intermediate of numel elements:
   at::parallel_for splits it into chunks of divup(numel, threads) above the 32768 grain, and each chunk
   runs whole blocks of 2 vectors, then single elements. */
static inline bool close_vec_at(int64_t numel, int64_t chunk, int64_t block, int64_t p) {
  int64_t start = p / chunk * chunk;
  int64_t len = numel - start < chunk ? numel - start : chunk;
  return p - start < len - len % block;
}

static int64_t close_chunk(int64_t numel) {
  int64_t ranges;
  return ct__parallel_torch_split(numel, ct__num_threads(), &ranges);
}

static inline bool close_f32(float a, float b, float rt, float at) {
  float allowed = at + fabsf(rt * b);
  float actual = fabsf(a - b);
  return isfinite(actual) && actual <= allowed;
}
static inline bool close_f64(double a, double b, double rt, double at) {
  double allowed = at + fabs(rt * b);
  double actual = fabs(a - b);
  return isfinite(actual) && actual <= allowed;
}

/* integral and bool: exact equality, then the float computation in the default dtype */
#define DEF_CLOSE_INT(E, T, LD)                                                                           \
  CT_KERNEL_CLONES static void close_##E(char **d, const int64_t *s, int64_t n, const void *ctx) {     \
    const close_ctx *c = ctx;                                                                           \
    float rtf = (float)c->rtol, atf = (float)c->atol;                                                   \
    for (int64_t k = 0; k < n; k++) {                                                                   \
      T a = LD(CT_AT(T, d[1], s[1], k)), b = LD(CT_AT(T, d[2], s[2], k));                               \
      bool r = a == b;                                                                                  \
      if (!r && !c->zero_tol)                                                                           \
        r = c->dflt_double ? close_f64((double)a, (double)b, c->rtol, c->atol)                          \
                           : close_f32((float)a, (float)b, rtf, atf);                                   \
      CT_OUT(bool, d[0], s[0], k) = r;                                                                  \
    }                                                                                                   \
  } \
  CT_LOOP_PLAIN(close_##E)
DEF_CLOSE_INT(CT_BOOL, uint8_t, CT_LDB)
#define DEF_CLOSE_INTEGRAL(E, T, CT, LOAD, STORE) DEF_CLOSE_INT(E, T, LOAD)
CT_DT_INTEGRAL(DEF_CLOSE_INTEGRAL)

CT_KERNEL_CLONES static void close_CT_FLOAT32(char **d, const int64_t *s, int64_t n, const void *ctx) {
  const close_ctx *c = ctx;
  float rt = (float)c->rtol, at = (float)c->atol;
  for (int64_t k = 0; k < n; k++) {
    float a = CT_AT(float, d[1], s[1], k), b = CT_AT(float, d[2], s[2], k);
    bool r = a == b || (c->equal_nan && a != a && b != b);
    if (!r && !c->zero_tol) r = close_f32(a, b, rt, at);
    CT_OUT(bool, d[0], s[0], k) = r;
  }
}
CT_LOOP_PLAIN(close_CT_FLOAT32)

CT_KERNEL_CLONES static void close_CT_FLOAT64(char **d, const int64_t *s, int64_t n, const void *ctx) {
  const close_ctx *c = ctx;
  for (int64_t k = 0; k < n; k++) {
    double a = CT_AT(double, d[1], s[1], k), b = CT_AT(double, d[2], s[2], k);
    bool r = a == b || (c->equal_nan && a != a && b != b);
    if (!r && !c->zero_tol) r = close_f64(a, b, c->rtol, c->atol);
    CT_OUT(bool, d[0], s[0], k) = r;
  }
}
CT_LOOP_PLAIN(close_CT_FLOAT64)

/* float16 / bfloat16: every intermediate tensor rounds to the dtype; rtol and atol convert to it (through
   float, as a double converts to c10::Half). */
#define DEF_CLOSE_REDUCED(E, TO_F, FROM_F)                                                                 \
  CT_KERNEL_CLONES static void close_##E(char **d, const int64_t *s, int64_t n, const void *ctx) {        \
    const close_ctx *c = ctx;                                                                              \
    float rt = TO_F(FROM_F((float)c->rtol)), at = TO_F(FROM_F((float)c->atol));                            \
    for (int64_t k = 0; k < n; k++) {                                                                      \
      float a = TO_F(CT_AT(uint16_t, d[1], s[1], k)), b = TO_F(CT_AT(uint16_t, d[2], s[2], k));            \
      bool r = a == b || (c->equal_nan && a != a && b != b);                                               \
      if (!r && !c->zero_tol) {                                                                            \
        float allowed = TO_F(FROM_F(at + fabsf(TO_F(FROM_F(rt * b)))));                                    \
        float actual = fabsf(TO_F(FROM_F(a - b)));                                                         \
        r = isfinite(actual) && actual <= allowed;                                                         \
      }                                                                                                    \
      CT_OUT(bool, d[0], s[0], k) = r;                                                                     \
    }                                                                                                      \
  } \
  CT_LOOP_PLAIN(close_##E)
DEF_CLOSE_REDUCED(CT_FLOAT16, ct__half_to_float, ct__float_to_half)
DEF_CLOSE_REDUCED(CT_BFLOAT16, ct__bfloat16_to_float, ct__float_to_bfloat16)

/* complex: |z| as PyTorch's abs computes it at that position (see above) */
#define DEF_CLOSE_COMPLEX(E, T, R, SQRT, HYPOT, FABS, ISFIN)                                                 \
  static inline R cabs_##E(R re, R im, bool vec) {                                                           \
    if (vec) {                                                                                               \
      R rr = re * re, ii = im * im;                                                                          \
      return SQRT(rr + ii);                                                                                  \
    }                                                                                                        \
    return HYPOT(re, im);                                                                                    \
  }                                                                                                          \
  CT_KERNEL_CLONES static void close_##E(char **d, const int64_t *s, int64_t n, const void *ctx) {           \
    const close_ctx *c = ctx;                                                                                \
    R rt = (R)c->rtol, at = (R)c->atol;                                                                      \
    int64_t pos0 = c->out_base && s[0] == 1 ? (int64_t)(d[0] - c->out_base) : -1;                            \
    for (int64_t k = 0; k < n; k++) {                                                                        \
      T a = CT_AT(T, d[1], s[1], k), b = CT_AT(T, d[2], s[2], k);                                            \
      R ar = creal(a), ai = cimag(a), br = creal(b), bi = cimag(b);                                          \
      bool r = (ar == br && ai == bi) || (c->equal_nan && (ar != ar || ai != ai) && (br != br || bi != bi)); \
      if (!r && !c->zero_tol) {                                                                              \
        bool vec = pos0 >= 0 && close_vec_at(c->numel, c->chunk, c->block, pos0 + k);                        \
        bool bvec = vec;                                                                                     \
        if (c->b_base) {                                                                                     \
          int64_t pb = (int64_t)(d[2] + k * s[2] - c->b_base) / c->b_isz;                                    \
          bvec = close_vec_at(c->b_numel, c->b_chunk, c->block, pb);                                         \
        } else if (c->b_place && pos0 >= 0) {                                                                \
          bvec = close_vec_at(c->b_numel, c->b_chunk, c->block, close_b_place(c, pos0 + k));                 \
        }                                                                                                    \
        R zero = 0;                                                                                          \
        R pr = br * rt, pi = bi * rt, qr = bi * zero, qi = br * zero;                                        \
        R allowed = at + cabs_##E(pr - qr, qi + pi, bvec);                                                   \
        R actual = cabs_##E(ar - br, ai - bi, vec);                                                          \
        r = ISFIN(actual) && actual <= allowed;                                                              \
      }                                                                                                      \
      CT_OUT(bool, d[0], s[0], k) = r;                                                                       \
    }                                                                                                        \
  }                                                                                                          \
  CT_LOOP_PLAIN(close_##E)
DEF_CLOSE_COMPLEX(CT_COMPLEX64, ct_c64, float, sqrtf, hypotf, fabsf, isfinite)
DEF_CLOSE_COMPLEX(CT_COMPLEX128, ct_c128, double, sqrt, hypot, fabs, isfinite)

#define ENTRY_CLOSE(E, T, CT, LD, ST) [E] = CT_LOOP_REF(close_##E),
static const ct_loop *const close_loops[CT_NUM_DTYPES + 1] = {CT_DT_ALL(ENTRY_CLOSE)};

static double opt_double(ct_scalar s, double dflt) {
  return s.kind ? ct__scalar_to_double(s) : dflt;
}

/* The checks of isclose, in PyTorch's order; fills the loop context. */
static bool close_setup(const ct_tensor *a, const ct_tensor *b, const ct_isclose_opts *opts, close_ctx *c) {
  if (a->dtype != b->dtype) {
    ct__error(CT_ERR_RUNTIME, "%s did not match %s", ct__dt((ct_dtype)a->dtype)->scalar_name,
              ct__dt((ct_dtype)b->dtype)->scalar_name);
    return false;
  }
  memset(c, 0, sizeof *c);
  c->rtol = opt_double(opts ? opts->rtol : (ct_scalar){0}, 1e-05);
  c->atol = opt_double(opts ? opts->atol : (ct_scalar){0}, 1e-08);
  c->equal_nan = opts && opts->equal_nan;
  if (!(c->rtol >= 0)) {
    ct__error(CT_ERR_RUNTIME, "rtol must be greater than or equal to zero, but got %g", c->rtol);
    return false;
  }
  if (!(c->atol >= 0)) {
    ct__error(CT_ERR_RUNTIME, "atol must be greater than or equal to zero, but got %g", c->atol);
    return false;
  }
  c->zero_tol = c->rtol == 0 && c->atol == 0;
  c->dflt_double = ct_get_default_dtype() == CT_FLOAT64;
  return true;
}

/* equal_nan's `close |= a.isnan().__iand__(b.isnan())` works in place on a.isnan(): a must have the
   broadcast shape. */
static bool close_nan_shape(const ct_tensor *a, const ct_tensor *b) {
  int64_t nd = a->ndim > b->ndim ? a->ndim : b->ndim, buf[16];
  int64_t *shape = nd <= 16 ? buf : ct__malloc((size_t)nd * sizeof(int64_t));
  if (!shape) return false;
  bool ok = ct__broadcast_shapes(a->sizes, a->ndim, b->sizes, b->ndim, shape) == CT_OK;
  if (ok && (a->ndim != nd || memcmp(a->sizes, shape, (size_t)nd * sizeof(int64_t)) != 0)) {
    char x[256], y[256];
    ct__fmt_int_list(x, sizeof x, a->ndim, a->sizes);
    ct__fmt_int_list(y, sizeof y, nd, shape);
    ct__error(CT_ERR_RUNTIME, "output with shape %s doesn't match the broadcast shape %s", x, y);
    ok = false;
  }
  if (shape != buf) ct__free(shape);
  return ok;
}

/* isclose: torch's composite checks its arguments, then dispatches eq (its layout refusal names it).
   allclose: isclose(...).all().item(), a composite whose item() (_local_scalar_dense) has no Meta kernel. */
static const ct_op isclose_op = {.name = "isclose",
                                 .aten = "aten::eq.Tensor",
                                 .kernels = {[CT_CPU] = close_loops, [CT_META] = ct__pw_meta_loops}};
static const ct_op allclose_op = {
    .name = "allclose", .aten = "aten::eq.Tensor", .composite = true, .kernels = {[CT_CPU] = close_loops}};

static ct_tensor *isclose_run(const ct_tensor *a, const ct_tensor *b, const ct_isclose_opts *opts) {
  if (!a || !b) return ct__null_ptr_arg(!a ? "a" : "b");
  close_ctx c;
  if (!close_setup(a, b, opts, &c) || !CT__OP_ACCEPTS(&isclose_op, isclose_op.aten, a, b)) return NULL;
  if (c.equal_nan && ct__dt((ct_dtype)a->dtype)->category >= CT_CAT_FLOAT && !close_nan_shape(a, b)) return NULL;
  ct_iter_config cfg = {.n_out = 1, .n_in = 2, .check_mem_overlap = true};
  cfg.allow_cpu_scalars = true; /* torch's composite compares with eq, a binary op */
  cfg.in[0] = a;
  cfg.in[1] = b;
  cfg.promote_inputs = true;
  cfg.static_out_dtype = CT_BOOL;
  cfg.loop_out_dtype = CT_BOOL;
  ct_iter it;
  if (ct__iter_build(&it, &cfg) != CT_OK) return NULL;
  ct_dtype dt = (ct_dtype)a->dtype;
  int64_t *b_place = NULL;
  if (dt == CT_COMPLEX64 || dt == CT_COMPLEX128) {
    /* PyTorch's abs over a contiguous intermediate: whole blocks of 2 vectors (8 complex64 / 4 complex128)
       use the vector formula. The intermediates have the result's layout. */
    const ct_tensor *o = it.ops[0];
    c.block = dt == CT_COMPLEX64 ? 8 : 4;
    if (ct__is_non_overlapping_and_dense(o)) {
      c.out_base = ct__tdata(o);
      c.numel = o->numel;
      c.chunk = close_chunk(o->numel);
    }
    bool b_positive = true;
    for (int64_t k = 0; k < b->ndim; k++) b_positive &= b->strides[k] >= 0;
    if (c.out_base && b->numel > 0) {
      c.b_numel = b->numel;
      c.b_chunk = close_chunk(b->numel);
      if (b_positive && ct__is_non_overlapping_and_dense(b)) {
        c.b_base = ct__tdata(b);
        c.b_isz = (int64_t)ct__itemsize(dt);
      } else {
        b_place = ct__malloc((size_t)(o->ndim + b->ndim) * sizeof(int64_t));
        if (!b_place) {
          ct__iter_finish(&it);
          return NULL;
        }
        int64_t *dense = b_place + o->ndim;
        ct__infer_dense_strides(b->ndim, b->sizes, b->strides, dense);
        for (int64_t i = 0; i < o->ndim; i++) {
          int64_t j = i - (o->ndim - b->ndim);
          b_place[i] = j >= 0 && b->sizes[j] > 1 ? dense[j] : 0;
        }
        c.nd = o->ndim;
        c.o_sizes = o->sizes;
        c.o_strides = o->strides;
        c.b_place = b_place;
      }
    }
  }
  ct__iter_run(&it, close_loops[dt], &c);
  ct__free(b_place);
  ct_tensor *r = ct__own(ct__iter_take_output(&it, 0));
  ct__iter_finish(&it);
  return r;
}

ct_tensor *ct_isclose(const ct_tensor *a, const ct_tensor *b, const ct_isclose_opts *opts) {
  return isclose_run(a, b, opts);
}

ct_status ct_allclose(const ct_tensor *a, const ct_tensor *b, bool *out, const ct_isclose_opts *opts) {
  if (out) *out = false;
  CT__NONNULL_STATUS(a, b);
  ct_scope_begin();
  ct_tensor *r = isclose_run(a, b, opts);
  ct_status s = r ? CT_OK : ct__null_status();
  bool all = true;
  if (r && !ct__op_table(&allclose_op, r, "aten::_local_scalar_dense")) {
    s = CT_ERR_NOT_IMPLEMENTED;
  } else if (r) {
    const uint8_t *p = (const uint8_t *)ct__tdata(r); /* NULL for an empty result: nothing read */
    for (int64_t i = 0; i < r->numel && all; i++) all = p[i] != 0;
  }
  ct_scope_end();
  if (s == CT_OK && out) *out = all;
  return s;
}
