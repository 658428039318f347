/* clamp / clip (Scalar and Tensor bounds), clamp_min, clamp_max.

   Scalar bounds (every given bound a wrapped number): the result dtype is self's when self is floating,
   else result_type(self, bounds); in place it must stay self's dtype, out= must have it ("Found dtype ...
   but expected ..."). clamp with both bounds, clamp_min and clamp_max fill the result with NaN when a
   bound is NaN; otherwise the bounds convert to the dtype with c10's overflow check and the kernel is
   std::min(std::max(a, min), max) ("clamp_scalar_cpu"; one bound: "clamp_min_cpu" /
   "clamp_max_scalar_cpu"). Its vector form agrees with it everywhere.

   Tensor bounds: the operands promote (like add), out= gets a cast. Both bounds run PyTorch's clamp kernel
   ("clamp_cpu"), a single one maximum ("maximum_cpu") or minimum ("minimum_cpu"). These propagate NaN,
   and their vector and scalar forms differ in which operand a tie returns (max(-0.0, +0.0)) and in the
   NaN they produce (all-ones bits vs the quiet NaN); like cpu_kernel_vec, whole blocks of 2 vectors of a
   contiguous row take the vector form and the rest the scalar one, so results match bit for bit. */
#include <math.h>

#include "core/cast.h"
#include "kernels/cpu/loops.h"
#include "kernels/cpu/torch_compat.h"
#include "ops/pointwise/pw.h"

static const char *const clamp_none_msg = "torch.clamp: At least one of 'min' or 'max' must not be None";
static const char *const clamp_complex_msg = "clamp is not supported for complex types";


/* ternary_common.c */
const char *ct__pw_typemeta_name(ct_dtype dt);
bool ct__pw_materialize(const ct_tensor **in, int n, ct_dtype common, ct_tensor **tmp);
bool ct__pw_out_via_temp(const ct_tensor *out, const ct_tensor *const *in, int n, ct_dtype common, bool safe_cast,
                         ct_tensor **tmp);
#define typemeta_name ct__pw_typemeta_name

static inline double bits_f64(uint64_t u) {
  double d;
  memcpy(&d, &u, 8);
  return d;
}

/* Per dtype: storage T, compare type CT, load, the vector NaN (all ones, as `max | unordered` makes it;
   bfloat16's vector store turns any NaN into 0xffff), the scalar quiet NaN, block = 2 vectors, and whether
   the vector maximum is ATen's generic one (float16: a NaN first operand wins, no canonical NaN). */
#define CLAMP_DTYPES_NO_HALF(X)                                                                                  \
  X(CT_UINT8, uint8_t, uint8_t, CT_ID, 0, 0, 64, 0)                                                              \
  X(CT_INT8, int8_t, int8_t, CT_ID, 0, 0, 64, 0)                                                                 \
  X(CT_INT16, int16_t, int16_t, CT_ID, 0, 0, 32, 0)                                                              \
  X(CT_INT32, int32_t, int32_t, CT_ID, 0, 0, 16, 0)                                                              \
  X(CT_INT64, int64_t, int64_t, CT_ID, 0, 0, 8, 0)                                                               \
  X(CT_BFLOAT16, uint16_t, float, ct__bfloat16_to_float, UINT16_C(0xFFFF), UINT16_C(0x7FC0), 32, 0)              \
  X(CT_FLOAT32, float, float, CT_ID, ct__bits_f32(0xFFFFFFFFu), ct__bits_f32(0x7FC00000u), 16, 0)                \
  X(CT_FLOAT64, double, double, CT_ID, bits_f64(~UINT64_C(0)), bits_f64(UINT64_C(0x7FF8000000000000)), 8, 0)
#define CLAMP_DTYPES(X) CLAMP_DTYPES_NO_HALF(X) X(CT_FLOAT16, uint16_t, float, ct__half_to_float, 0, UINT16_C(0x7E00), 32, 1)

#define ISNAN(x) ((x) != (x))

/* A loop over (out, inputs...) whose elements below nv take the vector form VF and the rest the scalar
   form SF (element functions of the raw input values); straight-line bodies the compiler vectorizes on
   the contiguous path. */
#define CLAMP_LOOP2(fname, T, VF, SF, BLOCK, CTXDECL, CTXARGS)                                               \
  CT_KERNEL_CLONES static void fname(char **d, const int64_t *s, int64_t n, const void *ctx) {              \
    CTXDECL;                                                                                                 \
    const int64_t sz = (int64_t)sizeof(T);                                                                   \
    int64_t nv = ct__torch_vec_prefix2(s, 3, sz, sz, n, BLOCK), k = 0;                                                      \
    if (s[0] == sz && s[1] == sz && s[2] == sz) {                                                            \
      T *restrict o = (T *)d[0];                                                                             \
      const T *restrict x = (const T *)d[1], *restrict y = (const T *)d[2];                                  \
      for (; k < nv; k++) o[k] = VF(x[k], y[k] CTXARGS);                                                     \
      for (; k < n; k++) o[k] = SF(x[k], y[k] CTXARGS);                                                      \
    } else {                                                                                                 \
      for (; k < nv; k++) CT_OUT(T, d[0], s[0], k) = VF(CT_AT(T, d[1], s[1], k), CT_AT(T, d[2], s[2], k) CTXARGS); \
      for (; k < n; k++) CT_OUT(T, d[0], s[0], k) = SF(CT_AT(T, d[1], s[1], k), CT_AT(T, d[2], s[2], k) CTXARGS); \
    }                                                                                                        \
  } \
  CT_LOOP_PLAIN(fname)
#define NOCTX (void)ctx
#define NOARGS

/* ---- Tensor bounds ---- */

/* clamp kernel, operands (out, a, min, max): vector minimum(maximum(a, min), max), scalar
   NaN bound ? NaN : std::min(std::max(a, min), max) */
#define DEF_CLAMP3(E, T, CT, LD, VNAN, SNAN, BLOCK, GENERIC)                                                  \
  static inline T clamp3v_##E(T ra, T rl, T rh) {                                                           \
    CT a = LD(ra), lo = LD(rl), hi = LD(rh);                                                                 \
    bool up = a > lo;                                                                                        \
    T x = up ? ra : rl;                                                                                      \
    CT xv = up ? a : lo;                                                                                     \
    T r = xv < hi ? x : rh;                                                                                  \
    return (ISNAN(a) | ISNAN(lo) | ISNAN(hi)) ? (T)(VNAN) : r;                                               \
  }                                                                                                          \
  static inline T clamp3s_##E(T ra, T rl, T rh) {                                                           \
    CT a = LD(ra), lo = LD(rl), hi = LD(rh);                                                                 \
    bool up = a < lo;                                                                                        \
    T x = up ? rl : ra;                                                                                      \
    CT xv = up ? lo : a;                                                                                     \
    T r = hi < xv ? rh : x;                                                                                  \
    return (ISNAN(lo) | ISNAN(hi)) ? (T)(SNAN) : r;                                                          \
  }                                                                                                          \
  CT_KERNEL_CLONES static void clamp3_##E(char **d, const int64_t *s, int64_t n, const void *ctx) {         \
    (void)ctx;                                                                                               \
    const int64_t sz = (int64_t)sizeof(T);                                                                   \
    int64_t nv = ct__torch_vec_prefix2(s, 4, sz, sz, n, BLOCK), k = 0;                                                      \
    if (s[0] == sz && s[1] == sz && s[2] == sz && s[3] == sz) {                                              \
      T *restrict o = (T *)d[0];                                                                             \
      const T *restrict x = (const T *)d[1], *restrict lo = (const T *)d[2], *restrict hi = (const T *)d[3]; \
      for (; k < nv; k++) o[k] = clamp3v_##E(x[k], lo[k], hi[k]);                                            \
      for (; k < n; k++) o[k] = clamp3s_##E(x[k], lo[k], hi[k]);                                             \
    } else {                                                                                                 \
      for (; k < nv; k++)                                                                                    \
        CT_OUT(T, d[0], s[0], k) =                                                                           \
            clamp3v_##E(CT_AT(T, d[1], s[1], k), CT_AT(T, d[2], s[2], k), CT_AT(T, d[3], s[3], k));          \
      for (; k < n; k++)                                                                                     \
        CT_OUT(T, d[0], s[0], k) =                                                                           \
            clamp3s_##E(CT_AT(T, d[1], s[1], k), CT_AT(T, d[2], s[2], k), CT_AT(T, d[3], s[3], k));          \
    }                                                                                                        \
  } \
  CT_LOOP_PLAIN(clamp3_##E)

/* maximum (OP >) and minimum (OP <), operands (out, a, b). Vector: AVX2 max_ps / min_ps, any NaN gives all
   ones; ATen's generic Vectorized (float16): (a OP b) ? a : b, a NaN a wins. Scalar: a NaN gives the quiet
   NaN, else std::max / std::min, which return a on ties. */
#define DEF_MAXMIN(name, OP, E, T, CT, LD, VNAN, SNAN, BLOCK, GENERIC)                                       \
  static inline T name##v_##E(T ra, T rb) {                                                                 \
    CT a = LD(ra), b = LD(rb);                                                                               \
    if (GENERIC) return (ISNAN(a) | (a OP b)) ? ra : rb;                                                     \
    return (ISNAN(a) | ISNAN(b)) ? (T)(VNAN) : (a OP b) ? ra : rb;                                           \
  }                                                                                                          \
  static inline T name##s_##E(T ra, T rb) {                                                                 \
    CT a = LD(ra), b = LD(rb);                                                                               \
    return (ISNAN(a) | ISNAN(b)) ? (T)(SNAN) : (b OP a) ? rb : ra;                                           \
  }                                                                                                          \
  CLAMP_LOOP2(name##_##E, T, name##v_##E, name##s_##E, BLOCK, NOCTX, NOARGS)
#define DEF_MAX(E, T, CT, LD, VNAN, SNAN, BLOCK, GENERIC) DEF_MAXMIN(vmax, >, E, T, CT, LD, VNAN, SNAN, BLOCK, GENERIC)
#define DEF_MIN(E, T, CT, LD, VNAN, SNAN, BLOCK, GENERIC) DEF_MAXMIN(vmin, <, E, T, CT, LD, VNAN, SNAN, BLOCK, GENERIC)
CLAMP_DTYPES_NO_HALF(DEF_CLAMP3)
CLAMP_DTYPES(DEF_MAX)
CLAMP_DTYPES(DEF_MIN)
CT_BINARY_LOOP(vmax_CT_BOOL, uint8_t, bool, CT_LDB, bool, CT_ID, a || b)
CT_BINARY_LOOP(vmin_CT_BOOL, uint8_t, bool, CT_LDB, bool, CT_ID, a && b)

#define ENTRY_CLAMP3(E, ...) [E] = CT_LOOP_REF(clamp3_##E),
#define ENTRY_MAX(E, ...) [E] = CT_LOOP_REF(vmax_##E),
#define ENTRY_MIN(E, ...) [E] = CT_LOOP_REF(vmin_##E),
static const ct_loop *const clamp3_loops[CT_NUM_DTYPES + 1] = {CLAMP_DTYPES_NO_HALF(ENTRY_CLAMP3)};
static const ct_loop *const vmax_loops[CT_NUM_DTYPES + 1] = {CLAMP_DTYPES(ENTRY_MAX)[CT_BOOL] = CT_LOOP_REF(vmax_CT_BOOL)};
static const ct_loop *const vmin_loops[CT_NUM_DTYPES + 1] = {CLAMP_DTYPES(ENTRY_MIN)[CT_BOOL] = CT_LOOP_REF(vmin_CT_BOOL)};

static const ct_pw_op clamp3_op = {
    CT_PW_OP_ATEN("clamp", CT_PW_ATEN_TENSOR("clamp"), "clamp_cpu", COMMON, clamp3_loops, DIFF)};
static const ct_pw_op vmax_op = {
    CT_PW_OP_ATEN("clamp_min", CT_PW_ATEN_TENSOR("clamp_min"), "maximum_cpu", COMMON, vmax_loops, DIFF)};
static const ct_pw_op vmin_op = {
    CT_PW_OP_ATEN("clamp_max", CT_PW_ATEN_TENSOR("clamp_max"), "minimum_cpu", COMMON, vmin_loops, DIFF)};
/* clamp with one Tensor bound: clamp.Tensor's meta builds its TensorIterator without allow_cpu_scalars, then
   runs maximum's (minimum's) kernel */
static const ct_pw_op clamp_lo_op = {
    CT_PW_OP_ATEN("clamp", CT_PW_ATEN_TENSOR("clamp"), "maximum_cpu", COMMON, vmax_loops, DIFF),
    .no_cpu_scalars = true};
static const ct_pw_op clamp_hi_op = {
    CT_PW_OP_ATEN("clamp", CT_PW_ATEN_TENSOR("clamp"), "minimum_cpu", COMMON, vmin_loops, DIFF),
    .no_cpu_scalars = true};

/* ---- Scalar bounds ---- */
typedef struct bounds_ctx {
  _Alignas(8) unsigned char lo[8], hi[8]; /* the bounds in the dtype */
} bounds_ctx;

/* std::min(std::max(a, lo), hi), std::max(a, lo), std::min(a, hi); the vector forms agree. A NaN a stays. */
#define DEF_CLAMPS(E, T, CT, LD, VNAN, SNAN, BLOCK, GENERIC)                                                  \
  CT_KERNEL_CLONES static void clamps_##E(char **d, const int64_t *s, int64_t n, const void *ctx) {         \
    T lo, hi;                                                                                                \
    memcpy(&lo, ((const bounds_ctx *)ctx)->lo, sizeof lo);                                                   \
    memcpy(&hi, ((const bounds_ctx *)ctx)->hi, sizeof hi);                                                   \
    const CT lov = LD(lo), hiv = LD(hi);                                                                     \
    const T lohi = hiv < lov ? hi : lo; /* the result when a < lo */                                         \
    if (s[0] == (int64_t)sizeof(T) && s[1] == (int64_t)sizeof(T)) {                                          \
      T *restrict o = (T *)d[0];                                                                             \
      const T *restrict x = (const T *)d[1];                                                                 \
      for (int64_t k = 0; k < n; k++) {                                                                      \
        CT a = LD(x[k]);                                                                                     \
        T up = hiv < a ? hi : x[k];                                                                          \
        o[k] = a < lov ? lohi : up;                                                                          \
      }                                                                                                      \
    } else {                                                                                                 \
      for (int64_t k = 0; k < n; k++) {                                                                      \
        T ra = CT_AT(T, d[1], s[1], k);                                                                      \
        CT a = LD(ra);                                                                                       \
        T up = hiv < a ? hi : ra;                                                                            \
        CT_OUT(T, d[0], s[0], k) = a < lov ? lohi : up;                                                      \
      }                                                                                                      \
    }                                                                                                        \
  }                                                                                                          \
  CT_KERNEL_CLONES static void clampmin_##E(char **d, const int64_t *s, int64_t n, const void *ctx) {       \
    T lo;                                                                                                    \
    memcpy(&lo, ((const bounds_ctx *)ctx)->lo, sizeof lo);                                                   \
    const CT lov = LD(lo);                                                                                   \
    if (s[0] == (int64_t)sizeof(T) && s[1] == (int64_t)sizeof(T)) {                                          \
      T *restrict o = (T *)d[0];                                                                             \
      const T *restrict x = (const T *)d[1];                                                                 \
      for (int64_t k = 0; k < n; k++) o[k] = LD(x[k]) < lov ? lo : x[k];                                     \
    } else {                                                                                                 \
      for (int64_t k = 0; k < n; k++) {                                                                      \
        T ra = CT_AT(T, d[1], s[1], k);                                                                      \
        CT_OUT(T, d[0], s[0], k) = LD(ra) < lov ? lo : ra;                                                   \
      }                                                                                                      \
    }                                                                                                        \
  }                                                                                                          \
  CT_KERNEL_CLONES static void clampmax_##E(char **d, const int64_t *s, int64_t n, const void *ctx) {       \
    T hi;                                                                                                    \
    memcpy(&hi, ((const bounds_ctx *)ctx)->hi, sizeof hi);                                                   \
    const CT hiv = LD(hi);                                                                                   \
    if (s[0] == (int64_t)sizeof(T) && s[1] == (int64_t)sizeof(T)) {                                          \
      T *restrict o = (T *)d[0];                                                                             \
      const T *restrict x = (const T *)d[1];                                                                 \
      for (int64_t k = 0; k < n; k++) o[k] = hiv < LD(x[k]) ? hi : x[k];                                     \
    } else {                                                                                                 \
      for (int64_t k = 0; k < n; k++) {                                                                      \
        T ra = CT_AT(T, d[1], s[1], k);                                                                      \
        CT_OUT(T, d[0], s[0], k) = hiv < LD(ra) ? hi : ra;                                                   \
      }                                                                                                      \
    }                                                                                                        \
  } \
  CT_LOOP_PLAIN(clamps_##E) CT_LOOP_PLAIN(clampmin_##E) CT_LOOP_PLAIN(clampmax_##E)
CLAMP_DTYPES_NO_HALF(DEF_CLAMPS)

#define ENTRY_CLAMPS(E, ...) [E] = CT_LOOP_REF(clamps_##E),
#define ENTRY_CLAMPMIN(E, ...) [E] = CT_LOOP_REF(clampmin_##E),
#define ENTRY_CLAMPMAX(E, ...) [E] = CT_LOOP_REF(clampmax_##E),
static const ct_loop *const clamps_loops[CT_NUM_DTYPES + 1] = {CLAMP_DTYPES_NO_HALF(ENTRY_CLAMPS)};
static const ct_loop *const clampmin_loops[CT_NUM_DTYPES + 1] = {CLAMP_DTYPES_NO_HALF(ENTRY_CLAMPMIN)};
static const ct_loop *const clampmax_loops[CT_NUM_DTYPES + 1] = {CLAMP_DTYPES_NO_HALF(ENTRY_CLAMPMAX)};

/* The Scalar overloads' descriptors (their kernels are picked by clamp_scalar_validate); the Tensor ones
   are clamp3_op, vmax_op and vmin_op. */
static const ct_pw_op clamps_op = {CT_PW_OP("clamp", "clamp_scalar_cpu", COMMON, clamps_loops)};
static const ct_pw_op clampmin_op = {CT_PW_OP("clamp_min", "clamp_min_cpu", COMMON, clampmin_loops)};
static const ct_pw_op clampmax_op = {CT_PW_OP("clamp_max", "clamp_max_scalar_cpu", COMMON, clampmax_loops)};

typedef enum { FILL_NONE, FILL_CANONICAL, FILL_BOUND } fill_kind;

typedef struct fill_value {
  _Alignas(16) unsigned char bytes[16];
  size_t size;
} fill_value;

static void fill_bytes(char **d, const int64_t *s, int64_t n, const void *ctx) {
  const fill_value *f = ctx;
  for (int64_t k = 0; k < n; k++) memcpy(d[0] + k * s[0], f->bytes, f->size);
}
CT_LOOP_PLAIN(fill_bytes)

/* The Scalar overload's state: bounds (kind 0: None), which op, and what the kernel will do. */
typedef struct clamp_scalar_call {
  int which; /* 0 clamp, 1 clamp_min, 2 clamp_max */
  ct_scalar lo, hi;
  const ct_tensor *out;
  const ct_iter *it; /* the iterator being built: is_meta is settled before validate */
  fill_kind fill;
  ct_scalar fill_with;
  const ct_loop *const *loops;
} clamp_scalar_call;

/* result_type(self, numbers) for an integral or bool self: a float number gives the default float dtype,
   an int number makes a bool self int64, a complex one the default complex dtype. */
static ct_dtype clamp_result_type(ct_dtype self_dt, ct_scalar lo, ct_scalar hi) {
  if (ct__dt(self_dt)->category == CT_CAT_FLOAT) return self_dt;
  if (lo.kind == CT_SCALAR_COMPLEX || hi.kind == CT_SCALAR_COMPLEX)
    return ct_get_default_dtype() == CT_FLOAT64 ? CT_COMPLEX128 : CT_COMPLEX64;
  if (lo.kind == CT_SCALAR_DOUBLE || hi.kind == CT_SCALAR_DOUBLE) return ct_get_default_dtype();
  if (self_dt == CT_BOOL && (lo.kind == CT_SCALAR_INT || hi.kind == CT_SCALAR_INT)) return CT_INT64;
  return self_dt;
}

/* After the iterator's own checks (overlap, shape, build_unary_op's dtype check: check_out_dtype, devices) and
   before it touches any output: clamp's impl (NaN bounds fill, kernel dispatch, bound conversion). */
static bool clamp_scalar_validate(ct_dtype rt, const void *arg) {
  clamp_scalar_call *c = (clamp_scalar_call *)arg;
  bool lo = c->lo.kind != 0, hi = c->hi.kind != 0;
  c->fill = FILL_NONE;
  c->fill_with = ct_scalar_double(NAN);
  if (c->it->is_meta) { /* the rest is clamp's CPU impl and kernel, which a meta call does not run */
    c->loops = ct__pw_meta_loops;
    return true;
  }
  if (c->which == 0 && lo && hi) {
    /* min.toDouble() != min.toDouble() || max.toDouble() != max.toDouble(): Scalar::toDouble is checked,
       and a NaN min never reads max */
    if (!ct__scalar_fits(c->lo, CT_FLOAT64)) return false;
    double l = ct__scalar_to_double(c->lo);
    if (l == l && !ct__scalar_fits(c->hi, CT_FLOAT64)) return false;
    double h = ct__scalar_to_double(c->hi);
    if (l != l || h != h) c->fill = FILL_CANONICAL;
  } else if (c->which != 0) {
    ct_scalar b = c->which == 1 ? c->lo : c->hi;
    double v = ct__scalar_to_double(b);
    if (v != v) {
      c->fill = FILL_BOUND;
      c->fill_with = b;
    }
  }
  if (c->fill != FILL_NONE) return true;
  c->loops = lo && hi ? clamps_loops : lo ? clampmin_loops : clampmax_loops;
  if (!c->loops[rt]) {
    const char *kernel = lo && hi ? "clamp_scalar_cpu" : lo ? "clamp_min_cpu" : "clamp_max_scalar_cpu";
    ct__error(CT_ERR_RUNTIME, "\"%s\" not implemented for '%s'", kernel, ct__dt(rt)->scalar_name);
    return false;
  }
  return (!lo || ct__scalar_fits(c->lo, rt)) && (!hi || ct__scalar_fits(c->hi, rt));
}

static ct_status clamp_scalar(ct_tensor *out, const ct_tensor *t, ct_scalar lo, ct_scalar hi, int which, bool inplace,
                              ct_tensor **result) {
  ct_dtype self_dt = (ct_dtype)t->dtype;
  if (ct_dtype_is_complex(self_dt) ||
      (which != 0 && (lo.kind == CT_SCALAR_COMPLEX || hi.kind == CT_SCALAR_COMPLEX))) {
    ct__error(CT_ERR_RUNTIME, "%s", clamp_complex_msg);
    return CT_ERR_RUNTIME;
  }
  ct_dtype rt = clamp_result_type(self_dt, lo, hi);
  if (inplace && rt != self_dt) {
    ct__error(CT_ERR_RUNTIME, "result type %s can't be cast to the desired output type %s", ct__dt(rt)->scalar_name,
              typemeta_name(self_dt));
    return CT_ERR_RUNTIME;
  }
  if (ct_dtype_is_complex(rt)) {
    ct__error(CT_ERR_RUNTIME, "%s", clamp_complex_msg);
    return CT_ERR_RUNTIME;
  }
  ct_iter it;
  clamp_scalar_call call = {.which = which, .lo = lo, .hi = hi, .out = out, .it = &it};
  ct_iter_config cfg = {.n_out = 1,
                        .n_in = 1,
                        .check_mem_overlap = true,
                        .promote_inputs = true,
                        .check_out_dtype = true,
                        .no_resize_outputs = inplace};
  cfg.out[0] = out;
  cfg.in[0] = t;
  cfg.compute_dtype = rt;
  cfg.validate = clamp_scalar_validate;
  cfg.validate_arg = &call;
  ct_status s = ct__iter_build(&it, &cfg);
  if (s != CT_OK) return s;
  if (call.fill != FILL_NONE) {
    fill_value f = {.size = ct__itemsize(rt)};
    memset(f.bytes, 0, sizeof f.bytes);
    ct__store_scalar(rt, f.bytes, call.fill_with);
    ct__iter_run(&it, CT_LOOP_REF(fill_bytes), &f);
  } else {
    bounds_ctx b;
    memset(&b, 0, sizeof b);
    if (lo.kind) ct__store_scalar(rt, b.lo, lo);
    if (hi.kind) ct__store_scalar(rt, b.hi, hi);
    ct__iter_run(&it, call.loops[rt], &b);
  }
  if (result) *result = ct__own(ct__iter_take_output(&it, 0));
  ct__iter_finish(&it);
  return result && !*result ? CT_ERR_OUT_OF_MEMORY : CT_OK;
}

static bool is_wrapped(const ct_tensor *t) { return t && (t->flags & CT_TENSOR_WRAPPED_NUMBER); }

/* A bound as PyTorch's Python binding reads it for the Scalar overload: a number, or a 0-dim tensor's
   value. Meta tensors have none (ct_item's error). */
static bool bound_scalar(const ct_tensor *b, ct_scalar *v) {
  *v = (ct_scalar){0};
  return !b || ct_item(b, v) == CT_OK;
}

/* which: 0 clamp (min and/or max), 1 clamp_min (min), 2 clamp_max (max). NULL bounds are None.
   As torch's argument parser picks the overload: a Python number among the bounds selects the Scalar
   one (a 0-dim tensor bound then counts as its value); otherwise the Tensor one. */
static ct_status clamp_run(ct_tensor *out, const ct_tensor *t, const ct_tensor *min, const ct_tensor *max, int which,
                           bool inplace, ct_tensor **result) {
  if (result) *result = NULL;
  CT__NONNULL_STATUS(t);
  if (!result && !out) return ct__null_named_status("out", 0);
  if (which == 1 && !min) return ct__null_named_status("min", 0);
  if (which == 2 && !max) return ct__null_named_status("max", 0);
  bool scalar = is_wrapped(min) || is_wrapped(max);
  static const ct_pw_op *const overloads[2][3] = {{&clamp3_op, &vmax_op, &vmin_op},
                                                  {&clamps_op, &clampmin_op, &clampmax_op}};
  const ct_pw_op *entry = overloads[scalar][which];
  if (out && !inplace && !CT__OP_OUT_GRAD_OK(&entry->op, out, t, min, max)) return CT_ERR_RUNTIME;
  if (!CT__PW_ENTER(entry, inplace ? NULL : out, inplace, t, min, max)) return ct_last_error();
  if (scalar && (!min || is_wrapped(min) || min->ndim == 0) && (!max || is_wrapped(max) || max->ndim == 0)) {
    ct_scalar lo, hi;
    if (!bound_scalar(min, &lo) || !bound_scalar(max, &hi)) return ct__null_status();
    if (which == 0 && !min && !max) goto none;
    return clamp_scalar(out, t, lo, hi, which, inplace, result);
  }
  if (which == 0 && !min && !max) goto none;
  if (which == 0 && ct_dtype_is_complex((ct_dtype)t->dtype)) {
    ct__error(CT_ERR_RUNTIME, "%s", clamp_complex_msg);
    return CT_ERR_RUNTIME;
  }
  {
    const ct_tensor *in[3] = {t, min ? min : max, max};
    int n = min && max ? 3 : 2;
    const ct_pw_op *op = min && max ? &clamp3_op
                         : min      ? (which ? &vmax_op : &clamp_lo_op)
                                    : (which ? &vmin_op : &clamp_hi_op);
    /* the vector and scalar forms disagree (ties of +-0, NaN bits): iterate as PyTorch does */
    ct_tensor *tmp[3] = {NULL, NULL, NULL}, *tmp_out = NULL;
    ct_dtype common;
    if (ct__result_type(in, n, &common) == CT_OK) {
      if (!ct__pw_out_via_temp(out, in, n, common, true, &tmp_out)) return ct_last_error(); /* its kind: OOM too */
      if (!ct__pw_materialize(in, n, common, tmp)) {
        ct_release(tmp_out);
        return ct__null_status();
      }
    }
    ct_status s = ct__pw_run(op, tmp_out ? tmp_out : out, in, n, inplace, NULL, result);
    if (s == CT_OK && tmp_out) s = ct__copy_into(out, tmp_out);
    for (int i = 0; i < n; i++) ct_release(tmp[i]);
    ct_release(tmp_out);
    return s;
  }
none:
  ct__error(CT_ERR_RUNTIME, "%s", clamp_none_msg);
  return CT_ERR_RUNTIME;
}

#define DEF_CLAMP_API(name)                                                                                 \
  ct_tensor *ct_##name(const ct_tensor *t, const ct_tensor *min, const ct_tensor *max) {                    \
    ct_tensor *r = NULL;                                                                                    \
    clamp_run(NULL, t, min, max, 0, false, &r);                                                             \
    return r;                                                                                               \
  }                                                                                                         \
  ct_status ct_##name##_(ct_tensor *self, const ct_tensor *min, const ct_tensor *max) {                     \
    return clamp_run(self, self, min, max, 0, true, NULL);                                                  \
  }                                                                                                         \
  ct_status ct_##name##_out(ct_tensor *out, const ct_tensor *t, const ct_tensor *min, const ct_tensor *max) { \
    return clamp_run(out, t, min, max, 0, false, NULL);                                                     \
  }
DEF_CLAMP_API(clamp)
DEF_CLAMP_API(clip)

ct_tensor *ct_clamp_min(const ct_tensor *t, const ct_tensor *min) {
  ct_tensor *r = NULL;
  clamp_run(NULL, t, min, NULL, 1, false, &r);
  return r;
}
ct_status ct_clamp_min_(ct_tensor *self, const ct_tensor *min) { return clamp_run(self, self, min, NULL, 1, true, NULL); }
ct_status ct_clamp_min_out(ct_tensor *out, const ct_tensor *t, const ct_tensor *min) {
  return clamp_run(out, t, min, NULL, 1, false, NULL);
}
ct_tensor *ct_clamp_max(const ct_tensor *t, const ct_tensor *max) {
  ct_tensor *r = NULL;
  clamp_run(NULL, t, NULL, max, 2, false, &r);
  return r;
}
ct_status ct_clamp_max_(ct_tensor *self, const ct_tensor *max) { return clamp_run(self, self, NULL, max, 2, true, NULL); }
ct_status ct_clamp_max_out(ct_tensor *out, const ct_tensor *t, const ct_tensor *max) {
  return clamp_run(out, t, NULL, max, 2, false, NULL);
}
