/* Predicates with bool results: isnan, isinf, isposinf, isneginf, isfinite, isreal. Each follows the
   route ATen's composite takes, which decides the result's layout: isnan is `t != t`; isinf, isfinite
   and isreal give zeros_like/ones_like(t) for dtypes that cannot hold the value, and look at the real
   and imaginary views of complex tensors. */
/* GCC builds it with -fno-math-errno -fno-trapping-math (CMakeLists.txt: CT_FP_RELAXED_NO_ERRNO_SOURCES). */

#include <math.h>

#include "core/out_wrapper.h"
#include "ops/pointwise/elem_internal.h"
#include "ops/view_internal.h"

#define FALSE_OF(a) ((void)(a), false)

/* ---- layouts of ATen's composite chains ----
   isinf is `abs(t) == inf`, isfinite `(t == t) * (abs(t) != inf)`, isreal `imag(t) == 0`: each step is a
   TensorIterator whose output layout depends on the previous one's, and for size-1 dims and empty
   tensors the chain's strides differ from a single step's. The chain is replayed on meta stand-ins (no
   data), then the predicate runs once into a result with the chain's layout. */

/* A meta tensor with t's sizes and strides (dtype kept). Not scope-registered. */
static ct_tensor *meta_of(const ct_tensor *t) {
  ct_tensor *m = ct__empty(t->ndim, t->sizes, (ct_dtype)t->dtype, CT_DEVICE_META);
  if (m && m->ndim) memcpy(m->strides, t->strides, (size_t)t->ndim * sizeof(int64_t));
  return m;
}

/* The bool output TensorIterator allocates over a (and b, when given: NULL is a unary step, a 0-dim
   stand-in for a Python number is made when `scalar`). Consumes a and b. */
static ct_tensor *meta_step(ct_tensor *a, ct_tensor *b, bool scalar) {
  if (scalar && !b && a) b = ct__empty(0, NULL, (ct_dtype)a->dtype, CT_DEVICE_META);
  ct_tensor *r = NULL;
  if (a && (b || !scalar)) {
    ct_iter_config cfg = {.n_out = 1, .n_in = b ? 2 : 1, .check_mem_overlap = false};
    cfg.in[0] = a;
    cfg.in[1] = b;
    cfg.compute_dtype = (ct_dtype)a->dtype;
    cfg.static_out_dtype = CT_BOOL;
    cfg.loop_out_dtype = CT_BOOL;
    ct_iter it;
    if (ct__iter_build(&it, &cfg) == CT_OK) {
      r = ct__iter_take_output(&it, 0);
      ct__iter_finish(&it);
    }
  }
  ct_release(a);
  ct_release(b);
  return r;
}

typedef enum { CHAIN_NE_SELF, CHAIN_ABS_CMP, CHAIN_FINITE, CHAIN_CMP } chain_kind;

/* abs(t)'s layout: TensorIterator's on the CPU (abs.out restrides the empty out it resizes); on meta, abs's
   meta gives a contiguous tensor (abs_run), so isinf and isfinite of a meta tensor follow that. */
static ct_tensor *abs_step(const ct_tensor *t) {
  if (t->device_type == CT_META) return ct__empty(t->ndim, t->sizes, (ct_dtype)t->dtype, CT_DEVICE_META);
  return meta_step(meta_of(t), NULL, false);
}

/* The result layout of a chain over t, as a meta tensor. */
static ct_tensor *chain_layout(const ct_tensor *t, chain_kind k) {
  switch (k) {
    case CHAIN_NE_SELF: /* t != t */
      return meta_step(meta_of(t), meta_of(t), false);
    case CHAIN_CMP: /* t == 0 */
      return meta_step(meta_of(t), NULL, true);
    case CHAIN_ABS_CMP: /* abs(t) == inf: abs's output keeps t's dtype */
      return meta_step(abs_step(t), NULL, true);
    default: { /* (t == t) * (abs(t) != inf) */
      ct_tensor *eq = meta_step(meta_of(t), meta_of(t), false);
      ct_tensor *ne = meta_step(abs_step(t), NULL, true);
      if (!eq || !ne) {
        ct_release(eq);
        ct_release(ne);
        return NULL;
      }
      return meta_step(eq, ne, false);
    }
  }
}

/* op over `in` (t itself or its real/imaginary view) into a bool result with the chain's layout over
   `like` (the tensor the chain starts from). */
static ct_tensor *run_chain(const ct_pw_op *op, const ct_tensor *in, const ct_tensor *like, chain_kind k) {
  ct_tensor *m = chain_layout(like, k);
  if (!m) return NULL;
  ct_tensor *r = ct__empty(m->ndim, m->sizes, CT_BOOL, ct__tdevice(in));
  if (r && r->ndim) memcpy(r->strides, m->strides, (size_t)m->ndim * sizeof(int64_t));
  ct_release(m);
  if (!r) return NULL;
  if (ct__pw_run(op, r, &in, 1, false, NULL, NULL) != CT_OK) {
    ct_release(r);
    return NULL;
  }
  return ct__own(r);
}

/* ---- isnan: t != t ---- */
#define DEF_ISNAN_F(E, T, CT, LD, ST) CT_UNARY_LOOP(isnan_##E, T, CT, LD, bool, CT_ID, a != a)
#define DEF_FALSE(E, T, CT, LD, ST) CT_UNARY_LOOP(false_##E, T, CT, LD, bool, CT_ID, FALSE_OF(a))
DEF_FALSE(CT_BOOL, uint8_t, bool, CT_LDB, CT_ID) /* bool read as its byte (CT_LDB) */
CT_DT_INTEGRAL(DEF_FALSE)
CT_DT_FLOATING(DEF_ISNAN_F)
CT_DT_COMPLEX(DEF_ISNAN_F)
#define ENTRY_F(E, T, CT, LD, ST) [E] = CT_LOOP_REF(false_##E),
#define ENTRY_N(E, T, CT, LD, ST) [E] = CT_LOOP_REF(isnan_##E),
static const ct_loop *const isnan_loops[CT_NUM_DTYPES + 1] = {CT_DT_BOOL(ENTRY_F) CT_DT_INTEGRAL(ENTRY_F)
                                                              CT_DT_FLOATING(ENTRY_N) CT_DT_COMPLEX(ENTRY_N)};
#undef ENTRY_N
static const ct_pw_op isnan_op = {CT_PW_OP("isnan", "ne_cpu", PREDICATE, isnan_loops)};

/* isnan has a CPU kernel but no Meta kernel in torch 1.13: torch/_refs' isnan, prims.ne(a, a), stands in on meta,
   its bool result laid out by compute_elementwise_output_strides over self (not TensorIterator's `t != t`). */
static ct_tensor *isnan_meta(const ct_tensor *t) {
  int64_t strides[t->ndim + 1];
  ct__prims_elementwise_strides(&t, 1, t->ndim, t->sizes, strides);
  return ct__own(ct__pw_meta_strided(t->ndim, t->sizes, strides, CT_BOOL));
}

ct_tensor *ct_isnan(const ct_tensor *t) {
  if (!t) return ct__null_ptr_arg("t");
  if (!CT__PW_ENTER(&isnan_op, NULL, false, t)) return NULL;
  return CT__OP_ON_META(t) ? isnan_meta(t) : run_chain(&isnan_op, t, t, CHAIN_NE_SELF);
}

/* ---- isposinf / isneginf: bool and integer tensors hold no infinity, so their loops give false (torch's
   result.fill_(false) after the iterator is built) ---- */
#define DEF_POSINF(E, T, CT, LD, ST) CT_UNARY_LOOP(posinf_##E, T, CT, LD, bool, CT_ID, a == INFINITY)
#define DEF_NEGINF(E, T, CT, LD, ST) CT_UNARY_LOOP(neginf_##E, T, CT, LD, bool, CT_ID, a == -INFINITY)
CT_DT_FLOATING(DEF_POSINF)
CT_DT_FLOATING(DEF_NEGINF)
#define ENTRY_P(E, T, CT, LD, ST) [E] = CT_LOOP_REF(posinf_##E),
#define ENTRY_M(E, T, CT, LD, ST) [E] = CT_LOOP_REF(neginf_##E),
static const ct_loop *const posinf_loops[CT_NUM_DTYPES + 1] = {CT_DT_BOOL(ENTRY_F) CT_DT_INTEGRAL(ENTRY_F)
                                                               CT_DT_FLOATING(ENTRY_P)};
static const ct_loop *const neginf_loops[CT_NUM_DTYPES + 1] = {CT_DT_BOOL(ENTRY_F) CT_DT_INTEGRAL(ENTRY_F)
                                                               CT_DT_FLOATING(ENTRY_M)};
#undef ENTRY_P
#undef ENTRY_M

/* The meta functions' checks; the out form with a NULL out is the engine's error. */
static ct_status inf_run(const ct_pw_op *op, ct_tensor *out, const ct_tensor *const *in, int n_in, bool inplace,
                         const void *args, ct_tensor **result) {
  const char *name = op == &ct__pw_op_isposinf ? "isposinf" : "isneginf";
  if (result) *result = NULL;
  if (!result && !out) return ct__elem_null();
  if (in[0] && ct__elem_is_complex(in[0])) {
    ct__error(CT_ERR_RUNTIME, "%s does not support complex inputs.", name);
    return CT_ERR_RUNTIME;
  }
  if (in[0] && out && out->dtype != CT_BOOL) {
    ct__error(CT_ERR_RUNTIME, "%s does not support non-boolean outputs.", name);
    return CT_ERR_RUNTIME;
  }
  return ct__pw_run(op, out, in, n_in, inplace, args, result);
}
const ct_pw_op ct__pw_op_isposinf = {CT_PW_OP_GRAD("isposinf", "isposinf_cpu", PREDICATE, posinf_loops, NONE),
                                     .run = inf_run};
const ct_pw_op ct__pw_op_isneginf = {CT_PW_OP_GRAD("isneginf", "isneginf_cpu", PREDICATE, neginf_loops, NONE),
                                     .run = inf_run};

/* ---- isinf / isfinite ---- */
#define DEF_ISINF(E, T, CT, LD, ST) CT_UNARY_LOOP(isinf_##E, T, CT, LD, bool, CT_ID, a == INFINITY || a == -INFINITY)
#define DEF_ISFIN(E, T, CT, LD, ST) CT_UNARY_LOOP(isfin_##E, T, CT, LD, bool, CT_ID, a == a && a != INFINITY && a != -INFINITY)
CT_DT_FLOATING(DEF_ISINF)
CT_DT_FLOATING(DEF_ISFIN)

/* Complex tensors are run over their real view (strides doubled), whose layout ATen's composite follows;
   the loop reads the imaginary part next to each real one. */
#define DEF_CPAIR(name, T, EXPR)                                                                   \
  CT_KERNEL_CLONES static void name(char **d, const int64_t *s, int64_t n, const void *ctx) {      \
    (void)ctx;                                                                                     \
    if (s[0] == 1 && s[1] == 2 * (int64_t)sizeof(T)) {                                             \
      bool *restrict o_ = (bool *)d[0];                                                            \
      const T *restrict x_ = (const T *)d[1];                                                      \
      for (int64_t k = 0; k < n; k++) {                                                            \
        T re = x_[2 * k], im = x_[2 * k + 1];                                                      \
        o_[k] = (EXPR);                                                                            \
      }                                                                                            \
    } else {                                                                                       \
      for (int64_t k = 0; k < n; k++) {                                                            \
        const T *x = (const T *)(d[1] + k * s[1]);                                                 \
        T re = x[0], im = x[1];                                                                    \
        CT_OUT(bool, d[0], s[0], k) = (EXPR);                                                      \
      }                                                                                            \
    }                                                                                              \
  } \
  CT_LOOP_PLAIN(name)
DEF_CPAIR(cisinf_f32, float, fabsf(re) == INFINITY || fabsf(im) == INFINITY)
DEF_CPAIR(cisinf_f64, double, fabs(re) == INFINITY || fabs(im) == INFINITY)
DEF_CPAIR(cisfin_f32, float, (re == re && fabsf(re) != INFINITY) && (im == im && fabsf(im) != INFINITY))
DEF_CPAIR(cisfin_f64, double, (re == re && fabs(re) != INFINITY) && (im == im && fabs(im) != INFINITY))

#define ENTRY_I(E, T, CT, LD, ST) [E] = CT_LOOP_REF(isinf_##E),
#define ENTRY_F2(E, T, CT, LD, ST) [E] = CT_LOOP_REF(isfin_##E),
static const ct_loop *const isinf_loops[CT_NUM_DTYPES + 1] = {CT_DT_FLOATING(ENTRY_I)};
static const ct_loop *const isfin_loops[CT_NUM_DTYPES + 1] = {CT_DT_FLOATING(ENTRY_F2)};
static const ct_loop *const cisinf_loops[CT_NUM_DTYPES + 1] = {[CT_FLOAT32] = CT_LOOP_REF(cisinf_f32), [CT_FLOAT64] = CT_LOOP_REF(cisinf_f64)};
static const ct_loop *const cisfin_loops[CT_NUM_DTYPES + 1] = {[CT_FLOAT32] = CT_LOOP_REF(cisfin_f32), [CT_FLOAT64] = CT_LOOP_REF(cisfin_f64)};
#undef ENTRY_I
#undef ENTRY_F2
static const ct_pw_op isinf_op = {CT_PW_OP("isinf", "isinf", PREDICATE, isinf_loops)};
static const ct_pw_op isfin_op = {CT_PW_OP("isfinite", "isfinite", PREDICATE, isfin_loops)};
static const ct_pw_op cisinf_op = {CT_PW_OP("isinf", "isinf", PREDICATE, cisinf_loops)};
static const ct_pw_op cisfin_op = {CT_PW_OP("isfinite", "isfinite", PREDICATE, cisfin_loops)};


/* op over the real (part 0) or imaginary (part 1) view of t, with the chain's layout over that view. */
static ct_tensor *over_part(const ct_pw_op *op, const ct_tensor *t, int64_t part, chain_kind k) {
  ct_tensor *v = ct__complex_part_view(t, part);
  if (!v) return NULL;
  ct_tensor *r = run_chain(op, v, v, k);
  ct_release(v);
  return r;
}

static ct_tensor *isinf_or_finite_impl(const ct_tensor *t, bool inf) {
  int cat = ct__dt((ct_dtype)t->dtype)->category;
  chain_kind k = inf ? CHAIN_ABS_CMP : CHAIN_FINITE;
  if (cat <= CT_CAT_INT) return ct__elem_bool_like(t, !inf);
  if (cat == CT_CAT_COMPLEX) return over_part(inf ? &cisinf_op : &cisfin_op, t, 0, k);
  return run_chain(inf ? &isinf_op : &isfin_op, t, t, k);
}
static ct_tensor *isinf_or_finite(const ct_tensor *t, bool inf) {
  if (!t) return ct__null_ptr_arg("t");
  return CT__PW_ENTER(inf ? &isinf_op : &isfin_op, NULL, false, t) ? isinf_or_finite_impl(t, inf) : NULL;
}
ct_tensor *ct__isinf_impl(const ct_tensor *t) { return isinf_or_finite_impl(t, true); }
ct_tensor *ct_isinf(const ct_tensor *t) { return isinf_or_finite(t, true); }
ct_tensor *ct_isfinite(const ct_tensor *t) { return isinf_or_finite(t, false); }

/* ---- isreal: imag(t) == 0 for complex tensors, all true otherwise ---- */
#define DEF_ISZERO(E, T, CT, LD, ST) CT_UNARY_LOOP(iszero_##E, T, CT, LD, bool, CT_ID, a == 0)
CT_DT_FLOAT(DEF_ISZERO)
static const ct_loop *const iszero_loops[CT_NUM_DTYPES + 1] = {[CT_FLOAT32] = CT_LOOP_REF(iszero_CT_FLOAT32), [CT_FLOAT64] = CT_LOOP_REF(iszero_CT_FLOAT64)};
static const ct_pw_op iszero_op = {CT_PW_OP("isreal", "eq_cpu", PREDICATE, iszero_loops)};

ct_tensor *ct_isreal(const ct_tensor *t) {
  if (!t) return ct__null_ptr_arg("t");
  if (!CT__PW_ENTER(&iszero_op, NULL, false, t)) return NULL;
  if (!ct__elem_is_complex(t)) return ct__elem_bool_like(t, true);
  return over_part(&iszero_op, t, 1, CHAIN_CMP);
}
