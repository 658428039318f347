/* bmm, baddbmm and addbmm: torch 1.13's bmm_out_or_baddbmm_ (its own loop below 400 multiply-adds per
   matrix, else one addmm per batch element) and addbmm_impl_ (addmm_ per batch, accumulating). */
#include <math.h>

#include "core/cpu_isa.h"
#include "core/elem.h"
#include "core/half.h"
#include "core/out_wrapper.h"
#include "core/parallel.h"
#include "kernels/cpu/blas.h"
#include "ops/convert_internal.h"
#include "ops/matmul/mm_internal.h"
#include "ops/pointwise/pw.h"

static const ct_op bmm_op = CT_MM_OP("bmm", "aten::bmm");
static const ct_op bmm_out_op = CT_MM_OP("bmm", "aten::bmm.out");
static const ct_op baddbmm_op = CT_MM_OP("baddbmm", "aten::baddbmm");
static const ct_op baddbmm__op = CT_MM_OP("baddbmm", "aten::baddbmm_");
static const ct_op baddbmm_out_op = CT_MM_OP("baddbmm", "aten::baddbmm.out");
static const ct_op addbmm_op = CT_MM_OP("addbmm", "aten::addbmm");
static const ct_op addbmm__op = CT_MM_OP("addbmm", "aten::addbmm_");
static const ct_op addbmm_out_op = CT_MM_OP("addbmm", "aten::addbmm.out");

/* ---- torch's baddbmm_cpu_kernel (below 400 multiply-adds per matrix) ---- */

typedef struct small_args {
  ct_dtype dt;
  bool is_bmm, beta0;
  int64_t is, js, ks;
  const ct_tensor *r, *s, *m;
  ct_scalar alpha, beta;
} small_args;

#define P3(t, b, i, j) \
  (ct__tdata(t) + ((b) * (t)->strides[0] + (i) * (t)->strides[1] + (j) * (t)->strides[2]) * (int64_t)is)

/* torch 1.13's loop, in the element type: acc starts at 0 (bmm) or r * beta (baddbmm; in place even
   when beta is 0, as torch's r *= beta; 0 for a new result, whose memory torch leaves uninitialized), then adds alpha * s[i][k] * m[k][j] for each k (checked against torch: starting from
   r * beta matches its last bits, summing first and scaling after does not); c10's bfloat16 operators
   round each product and sum, integers wrap. */
/* one complex element in component type T: c10::complex's products, summed in T */
#define SMALL_CX(T)                                                                                   \
  do {                                                                                                \
    T ar = (T)ct__scalar_to_double(a->alpha), ai = (T)ct__scalar_imag(a->alpha),                      \
      br = (T)ct__scalar_to_double(a->beta), bi = (T)ct__scalar_imag(a->beta);                        \
    T *o = (T *)rp, cr = 0, ci = 0;                                                                   \
    if (init) cr = o[0] * br - o[1] * bi, ci = o[0] * bi + o[1] * br;                                 \
    for (int64_t k = 0; k < a->ks; k++) {                                                             \
      const T *p = (const T *)P3(a->s, b, i, k), *q = (const T *)P3(a->m, b, k, j);                   \
      T tr = a->is_bmm ? p[0] : ar * p[0] - ai * p[1], ti = a->is_bmm ? p[1] : ar * p[1] + ai * p[0]; \
      cr += tr * q[0] - ti * q[1], ci += tr * q[1] + ti * q[0];                                       \
    }                                                                                                 \
    o[0] = cr, o[1] = ci;                                                                             \
  } while (0)

static void small_batch(void *ctx, int64_t b, int tid) {
  (void)tid;
  const small_args *a = ctx;
  ct_dtype dt = a->dt;
  size_t is = ct__itemsize(dt);
  int cat = ct__dt(dt)->category;
  bool init = !a->is_bmm && !a->beta0;
  for (int64_t i = 0; i < a->is; i++)
    for (int64_t j = 0; j < a->js; j++) {
      char *rp = P3(a->r, b, i, j);
      if (cat == CT_CAT_INT) {
        uint64_t al = (uint64_t)ct__scalar_to_int64(a->alpha), be = (uint64_t)ct__scalar_to_int64(a->beta);
        uint64_t acc = init ? (uint64_t)ct__elem_load_i64(dt, rp) * be : 0;
        for (int64_t k = 0; k < a->ks; k++)
          acc += al * (uint64_t)ct__elem_load_i64(dt, P3(a->s, b, i, k)) *
                 (uint64_t)ct__elem_load_i64(dt, P3(a->m, b, k, j));
        ct__elem_store_i64(dt, rp, (int64_t)acc);
      } else if (dt == CT_COMPLEX64) {
        SMALL_CX(float);
      } else if (cat == CT_CAT_COMPLEX) {
        SMALL_CX(double);
      } else if (dt == CT_FLOAT64) {
        double al = ct__scalar_to_double(a->alpha),
               acc = init ? ct__elem_load_f64(dt, rp) * ct__scalar_to_double(a->beta) : 0;
        for (int64_t k = 0; k < a->ks; k++)
          acc += (a->is_bmm ? ct__elem_load_f64(dt, P3(a->s, b, i, k))
                            : al * ct__elem_load_f64(dt, P3(a->s, b, i, k))) *
                 ct__elem_load_f64(dt, P3(a->m, b, k, j));
        ct__elem_store_f64(dt, rp, acc);
      } else if (dt == CT_FLOAT32) {
        float al = (float)ct__scalar_to_double(a->alpha),
              acc = init ? (float)ct__elem_load_f64(dt, rp) * (float)ct__scalar_to_double(a->beta) : 0;
        for (int64_t k = 0; k < a->ks; k++) {
          float x = (float)ct__elem_load_f64(dt, P3(a->s, b, i, k));
          acc += (a->is_bmm ? x : al * x) * (float)ct__elem_load_f64(dt, P3(a->m, b, k, j));
        }
        ct__elem_store_f64(dt, rp, acc);
      } else { /* bfloat16: every operation rounded */
        double al = ct__elem_round_f64(dt, ct__scalar_to_double(a->alpha)),
               be = ct__elem_round_f64(dt, ct__scalar_to_double(a->beta));
        double acc = init ? ct__elem_round_f64(dt, (float)ct__elem_load_f64(dt, rp) * (float)be) : 0;
        for (int64_t k = 0; k < a->ks; k++) {
          double x = ct__elem_load_f64(dt, P3(a->s, b, i, k));
          if (!a->is_bmm) x = ct__elem_round_f64(dt, (float)al * (float)x);
          double p = ct__elem_round_f64(dt, (float)x * (float)ct__elem_load_f64(dt, P3(a->m, b, k, j)));
          acc = ct__elem_round_f64(dt, (float)acc + (float)p);
        }
        ct__elem_store_f64(dt, rp, acc);
      }
    }
}

/* result (bs x m x n, sized, holding self's values when beta != 0 and not is_bmm, or read_self) from
   batch1, batch2 (no math bits). read_self (baddbmm_): torch's small-matrix loop starts from r * beta even
   when beta is 0, so that NaN and inf in self make NaN there. */
static ct_status bmm_into(ct_tensor *r, const ct_tensor *b1, const ct_tensor *b2, ct_scalar beta,
                          ct_scalar alpha, bool is_bmm, bool read_self) {
  int64_t bs = b1->sizes[0], k = b1->sizes[2], m = b1->sizes[1], n = b2->sizes[2];
  if (r->numel == 0) return CT_OK;
  if (k == 0) {
    if (is_bmm || ct__mm_coef_zero(beta)) return ct__fill_impl(r, ct_scalar_int(0));
    ct_tensor *w = ct__wrapped_scalar(beta);
    if (!w) return ct_last_error();
    ct_scope_begin();
    ct_status s = ct__pw_apply_(&ct__pw_op_mul, r, w);
    ct_scope_end();
    ct_release(w);
    return s;
  }
  ct_dtype dt = (ct_dtype)b1->dtype;
  if (dt == CT_BFLOAT16 && ct__mm_dnnl_route(b1, b2, r)) /* torch asks before its small-matrix loop */
    return ct__mm_dnnl(r, b1, b2, is_bmm ? ct_scalar_int(0) : beta, is_bmm ? ct_scalar_int(1) : alpha);
  if (k * m * n < 400) {
    if (dt == CT_BOOL || dt == CT_FLOAT16) {
      ct__error(CT_ERR_RUNTIME, "\"%s\" not implemented for '%s'", is_bmm ? "bmm" : "baddbmm",
                ct__dt(dt)->scalar_name);
      return CT_ERR_RUNTIME;
    }
    if (r->dtype != dt || b2->dtype != dt) { /* the accessors: result's, then batch2's */
      ct__error(CT_ERR_RUNTIME, "expected scalar type %s but found %s", ct__dt(dt)->scalar_name,
                ct__dt((ct_dtype)(r->dtype != dt ? r->dtype : b2->dtype))->scalar_name);
      return CT_ERR_RUNTIME;
    }
    small_args a = {.dt = dt,
                    .is_bmm = is_bmm,
                    .beta0 = ct__mm_coef_zero(beta) && !read_self,
                    .is = m,
                    .js = n,
                    .ks = k,
                    .r = r,
                    .s = b1,
                    .m = b2,
                    .alpha = alpha,
                    .beta = beta};
    /* at::parallel_for over the batch with grain GRAIN_SIZE / (is * js * ks): the batches are independent */
    int64_t grain = 32768 / (m * n * k) > 1 ? 32768 / (m * n * k) : 1;
    ct__parallel_chunks(bs, bs > grain ? ct__parallel_threads(bs * m * n * k) : 1, small_batch, &a);
    return CT_OK;
  }
  /* torch: addmm_impl_cpu_(r[b], r[b], b1[b], b2[b], 0, 1) per element (bmm), r[b].addmm_(b1[b], b2[b],
     beta, alpha) (baddbmm) */
  if (ct__gemm_batched(r, b1, b2, is_bmm ? ct_scalar_int(0) : beta, is_bmm ? ct_scalar_int(1) : alpha))
    return CT_OK;
  ct_status s = CT_OK;
  for (int64_t b = 0; s == CT_OK && b < bs; b++) {
    ct_tensor *rb = ct__select_impl(r, 0, b), *x = rb ? ct__select_impl(b1, 0, b) : NULL,
              *y = x ? ct__select_impl(b2, 0, b) : NULL;
    if (!y) s = ct_last_error();
    /* bmm: addmm_impl_cpu_(r, r, b1[b], b2[b], 0, 1); baddbmm: r[b].addmm_(b1[b], b2[b], beta, alpha) */
    if (s == CT_OK && !is_bmm && (r->dtype != b2->dtype || b1->dtype != b2->dtype)) { /* addmm_'s meta */
      ct__error(CT_ERR_RUNTIME, r->dtype != b2->dtype ? "self and mat2 must have the same dtype"
                                                      : "mat1 and mat2 must have the same dtype");
      s = CT_ERR_RUNTIME;
    }
    if (s == CT_OK)
      s = ct__gemm_into(rb, x, y, is_bmm ? ct_scalar_int(0) : beta, is_bmm ? ct_scalar_int(1) : alpha,
                        "addmm_impl_cpu_");
    ct_release(rb);
    ct_release(x);
    ct_release(y);
  }
  return s;
}

/* common_checks_baddbmm_bmm: 3-D operands, batch2's first two dims; the result has batch2's dtype. */
static bool bmm_checks(const ct_tensor *b1, const ct_tensor *b2) {
  if (b1->ndim != 3) return CT_ERR_NULL(CT_ERR_RUNTIME, "batch1 must be a 3D tensor") != NULL;
  if (b2->ndim != 3) return CT_ERR_NULL(CT_ERR_RUNTIME, "batch2 must be a 3D tensor") != NULL;
  if (b2->sizes[0] != b1->sizes[0] || b2->sizes[1] != b1->sizes[2]) {
    ct__error(
        CT_ERR_RUNTIME,
        "Expected size for first two dimensions of batch2 tensor to be: [%lld, %lld] but got: [%lld, %lld].",
        (long long)b1->sizes[0], (long long)b1->sizes[2], (long long)b2->sizes[0], (long long)b2->sizes[1]);
    return false;
  }
  return true;
}

/* beta * self + alpha * bmm into a new contiguous tensor (self NULL: bmm). inplace: self is the target. */
static ct_tensor *baddbmm_impl(const ct_tensor *self, const ct_tensor *b1, const ct_tensor *b2,
                               const ct_addmm_opts *opts, bool inplace, const ct_tensor *out) {
  ct_scalar beta = ct__mm_coef(opts ? opts->beta : (ct_scalar){0}),
            alpha = ct__mm_coef(opts ? opts->alpha : (ct_scalar){0});
  ct_tensor *e = NULL;
  if (self) {
    if (b1->ndim < 2 || b2->ndim < 3) {
      if (b1->ndim != 3) return CT_ERR_NULL(CT_ERR_RUNTIME, "batch1 must be a 3D tensor");
      return CT_ERR_NULL(CT_ERR_RUNTIME, "batch2 must be a 3D tensor");
    }
    int64_t es[3] = {b1->sizes[0], b1->sizes[1], b2->sizes[2]};
    /* baddbmm's meta expands self first, in place too (its message before the batch checks) */
    if (!(e = ct__expand_impl(self, (ct_shape){es, 3}))) return NULL;
    if (inplace) ct_release(e), e = NULL;
  }
  if (!bmm_checks(b1, b2)) {
    ct_release(e);
    return NULL;
  }
  int64_t sizes[3] = {b1->sizes[0], b1->sizes[1], b2->sizes[2]};
  if (inplace && self->dtype != b2->dtype) { /* the in-place structured op's dtype rule */
    ct__error(CT_ERR_RUNTIME, "Bad in-place call: input tensor dtype %s and output tensor dtype %s should match",
              ct__dt((ct_dtype)self->dtype)->typemeta_name, ct__dt((ct_dtype)b2->dtype)->typemeta_name);
    return NULL;
  }
  ct_dtype dt = inplace ? (ct_dtype)self->dtype : (ct_dtype)b2->dtype;
  if (inplace && !ct__inplace_device_ok(self, ct__tdevice(b2))) return NULL; /* the meta function's options */
  if (inplace && (self->ndim != 3 || memcmp(self->sizes, sizes, sizeof sizes) != 0)) {
    char a[256], b[256];
    ct__fmt_int_list(a, sizeof a, self->ndim, self->sizes);
    ct__fmt_int_list(b, sizeof b, 3, sizes);
    return CT_ERR_NULL(CT_ERR_RUNTIME,
                       "Bad in-place call: input tensor size %s and output tensor size %s should match", a,
                       b);
  }
  if (out && !ct__join_out_dtype_is(out, dt)) {
    ct_release(e);
    return NULL;
  }
  if (inplace) e = ct_retain((ct_tensor *)self);
  /* bmm's out= straight into out, as torch, where no check can fail after a write (one dtype, a type the
     kernels take, a contraction to compute; not bfloat16, whose oneDNN route refuses some out strides
     with torch's message only after the result's layout is decided): a failed call changes nothing */
  ct_tensor *r = out && !self && b1->dtype == dt && b2->dtype == dt && dt != CT_BOOL && dt != CT_FLOAT16 &&
                         dt != CT_BFLOAT16 && b1->sizes[2] != 0
                     ? ct__mm_out_direct((ct_tensor *)out, 3, sizes, dt, b1, b2, NULL)
                     : NULL;
  if (!r) r = ct__mm_result_for(inplace ? self : out, CT__MM_DEV(b2, self, b1), 3, sizes, dt);
  /* on meta: the structured meta's checks ran, the geometry, no kernel */
  if (r && CT__OP_ON_META(self, b1, b2, out)) {
    ct_release(e);
    return r;
  }
  ct_tensor *x = r ? ct__mm_resolved(b1) : NULL, *y = x ? ct__mm_resolved(b2) : NULL;
  ct_status s = y ? CT_OK : ct_last_error();
  const ct_tensor *dst = inplace ? self : out; /* what torch's oneDNN route wraps (alpha 0 returns first) */
  if (s == CT_OK && dst && dst != r && ct__mm_dnnl_route(x, y, dst) && !ct__mm_coef_zero(alpha) &&
      !ct__mm_dnnl_dst_ok(dst)) {
    ct__error(CT_ERR_RUNTIME, "could not construct a memory descriptor using strides");
    s = CT_ERR_RUNTIME;
  }
  if (s == CT_OK && e && (inplace || !ct__mm_coef_zero(beta)) && r->numel) s = ct__copy_into(r, e);
  if (s == CT_OK) s = bmm_into(r, x, y, beta, alpha, self == NULL, inplace);
  ct_release(e);
  ct_release(x);
  ct_release(y);
  if (s != CT_OK) {
    ct_release(r);
    return NULL;
  }
  return r;
}

ct_tensor *ct__bmm_new(const ct_tensor *a, const ct_tensor *b) {
  return baddbmm_impl(NULL, a, b, NULL, false, NULL);
}

ct_tensor *ct_bmm(const ct_tensor *t, const ct_tensor *mat2) {
  return ct__mm_api2(&bmm_op, "t, mat2", t, mat2, ct__bmm_new);
}

ct_status ct_bmm_out(ct_tensor *out, const ct_tensor *t, const ct_tensor *mat2) {
  CT__NONNULL_STATUS(out, t, mat2);
  if (!CT__OP_ACCEPTS(&bmm_out_op, bmm_out_op.aten, out, t, mat2)) return ct_last_error();
  if (!CT__OP_OUT_GRAD_OK(&bmm_out_op, out, t, mat2)) return CT_ERR_RUNTIME;
  return ct__mm_finish_out(out, baddbmm_impl(NULL, t, mat2, NULL, false, out), mat2);
}

ct_tensor *ct_baddbmm(const ct_tensor *t, const ct_tensor *batch1, const ct_tensor *batch2,
                      const ct_addmm_opts *opts) {
  CT__NONNULL_PTR(t, batch1, batch2);
  if (!CT__OP_ACCEPTS(&baddbmm_op, baddbmm_op.aten, t, batch1, batch2)) return NULL;
  ct_tensor *r = baddbmm_impl(t, batch1, batch2, opts, false, NULL);
  ct__mm_mark(r, t, batch1);
  ct__mm_mark(r, NULL, batch2);
  return ct__own(r);
}

ct_status ct_baddbmm_(ct_tensor *self, const ct_tensor *batch1, const ct_tensor *batch2,
                      const ct_addmm_opts *opts) {
  CT__NONNULL_STATUS(self, batch1, batch2);
  if (!CT__OP_ACCEPTS(&baddbmm__op, baddbmm__op.aten, self, batch1, batch2)) return ct_last_error();
  if (!ct__check_inplace(self)) return CT_ERR_RUNTIME;
  return ct__mm_finish_inplace(self, baddbmm_impl(self, batch1, batch2, opts, true, NULL));
}

ct_status ct_baddbmm_out(ct_tensor *out, const ct_tensor *t, const ct_tensor *batch1, const ct_tensor *batch2,
                         const ct_addmm_opts *opts) {
  CT__NONNULL_STATUS(out, t, batch1, batch2);
  if (!CT__OP_ACCEPTS(&baddbmm_out_op, baddbmm_out_op.aten, out, t, batch1, batch2)) return ct_last_error();
  if (!CT__OP_OUT_GRAD_OK(&baddbmm_out_op, out, t, batch1, batch2)) return CT_ERR_RUNTIME;
  ct_tensor *r = baddbmm_impl(t, batch1, batch2, opts, false, out);
  /* the meta function copies self into out unless beta is 0, after resize_out's checks: a meta self has no data
     for an out that holds some */
  if (r && t->device_type == CT_META && out->device_type != CT_META &&
      !ct__mm_coef_zero(ct__mm_coef(opts ? opts->beta : (ct_scalar){0}))) {
    bool ok = ct__resize_out_ok(out, (ct_dtype)r->dtype, ct__tdevice(batch2));
    ct_release(r);
    if (!ok) return ct_last_error();
    ct__error(CT_ERR_NOT_IMPLEMENTED, "Cannot copy out of meta tensor; no data!");
    return CT_ERR_NOT_IMPLEMENTED;
  }
  return ct__mm_finish_out(out, r, batch2);
}

/* ---- addbmm: addbmm_impl_ ---- */

/* meta: the call dispatches to meta (an out= among its tensors counts): meta_addbmm's checks and geometry only.
   target (out, or self in place): addbmm_impl_ runs addmm_ on it as it is laid out, which decides BLAS's
   transposes (and the bits of the AVX-512 kernels); the result is computed in a tensor laid out as it. */
static ct_tensor *addbmm_impl(const ct_tensor *self, const ct_tensor *b1, const ct_tensor *b2,
                              const ct_addmm_opts *opts, bool inplace, bool meta, const ct_tensor *target) {
  ct_scalar beta = ct__mm_coef(opts ? opts->beta : (ct_scalar){0}),
            alpha = ct__mm_coef(opts ? opts->alpha : (ct_scalar){0});
  ct_tensor *e;
  if (inplace) {
    e = ct_retain((ct_tensor *)self);
  } else {
    if (b1->ndim < 2)
      return CT_ERR_NULL(CT_ERR_INDEX,
                         "Dimension out of range (expected to be in range of [%d, %d], but got 1)",
                         b1->ndim ? -1 : -1, b1->ndim ? 0 : -1);
    if (b2->ndim < 3) {
      if (b2->ndim == 0)
        return CT_ERR_NULL(CT_ERR_INDEX, "Dimension specified as 2 but tensor has no dimensions");
      return CT_ERR_NULL(CT_ERR_INDEX,
                         "Dimension out of range (expected to be in range of [%d, %d], but got 2)",
                         -(int)b2->ndim, (int)b2->ndim - 1);
    }
    int64_t es[2] = {b1->sizes[1], b2->sizes[2]};
    if (!(e = ct__expand_impl(self, (ct_shape){es, 2}))) return NULL;
  }
  ct_tensor *r = NULL, *x = NULL, *y = NULL;
  ct_status s = CT_OK;
  if (b1->ndim != 3) ct__error(CT_ERR_RUNTIME, "batch1 must be a 3D tensor"), s = CT_ERR_RUNTIME;
  else if (b2->ndim != 3) ct__error(CT_ERR_RUNTIME, "batch2 must be a 3D tensor"), s = CT_ERR_RUNTIME;
  else if (b1->sizes[0] != b2->sizes[0])
    ct__error(CT_ERR_RUNTIME, "batch1 and batch2 must have same number of batches, got %lld and %lld",
              (long long)b1->sizes[0], (long long)b2->sizes[0]),
        s = CT_ERR_RUNTIME;
  else if (b1->sizes[2] != b2->sizes[1])
    ct__error(CT_ERR_RUNTIME, "Incompatible matrix sizes for bmm (%lldx%lld and %lldx%lld)",
              (long long)b1->sizes[1], (long long)b1->sizes[2], (long long)b2->sizes[1],
              (long long)b2->sizes[2]),
        s = CT_ERR_RUNTIME;
  else if (e->ndim != 2 || e->sizes[0] != b1->sizes[1] || e->sizes[1] != b2->sizes[2])
    ct__error(CT_ERR_RUNTIME, "self tensor does not match matmul output shape"), s = CT_ERR_RUNTIME;
  if (s == CT_OK) {
    /* where the layout matters: the target itself where it can be written as torch writes it (the strides
       decide BLAS's call even for one column; nothing fails after the first write), else a tensor laid out
       as it */
    ct_dtype dt = (ct_dtype)e->dtype;
    r = meta || !target || !ct__mm_layout_matters(dt) || !b1->sizes[0] || b2->dtype != dt
            ? NULL
            : ct__mm_out_direct((ct_tensor *)target, 2, e->sizes, dt, b1, b2, inplace ? NULL : e);
    if (!r)
      r = meta || !target ? ct__join_empty(e, e->ndim, e->sizes, (ct_dtype)e->dtype) /* self's device */
                          : ct__mm_result_for(target, e, e->ndim, e->sizes, (ct_dtype)e->dtype);
    if (r && meta) { /* meta_addbmm: self.new_empty(self.size()), no kernel */
      ct_release(e);
      return r;
    }
    x = r ? ct__mm_resolved(b1) : NULL;
    y = x ? ct__mm_resolved(b2) : NULL;
    s = y ? CT_OK : ct_last_error();
  }
  if (s == CT_OK && b1->sizes[0] &&
      r->dtype != b2->dtype) /* the first addmm_'s, before anything is written */
    ct__error(CT_ERR_RUNTIME, "self and mat2 must have the same dtype"), s = CT_ERR_RUNTIME;
  if (s == CT_OK && !ct__mm_coef_zero(beta) && r->numel && r != e) s = ct__copy_into(r, e);
  if (s == CT_OK && b1->sizes[0] == 0) {
    if (ct__mm_coef_zero(beta)) {
      s = ct__fill_impl(r, ct_scalar_int(0));
    } else {
      ct_tensor *w = ct__wrapped_scalar(beta);
      ct_scope_begin();
      s = w ? ct__pw_apply_(&ct__pw_op_mul, r, w) : ct_last_error();
      ct_scope_end();
      ct_release(w);
    }
  }
  ct_scalar adj = beta;
  for (int64_t b = 0; s == CT_OK && b < b1->sizes[0]; b++) {
    /* result.addmm_(batch1[b], batch2[b], adjusted_beta, alpha): addmm's checks on the slices */
    ct_tensor *xb = ct__select_impl(x, 0, b), *yb = xb ? ct__select_impl(y, 0, b) : NULL;
    if (!yb) s = ct_last_error();
    if (s == CT_OK) s = ct__gemm_into(r, xb, yb, adj, alpha, "addmm_impl_cpu_");
    adj = ct_scalar_int(1);
    ct_release(xb);
    ct_release(yb);
  }
  ct_release(e);
  ct_release(x);
  ct_release(y);
  if (s != CT_OK) {
    ct_release(r);
    return NULL;
  }
  return r;
}

ct_tensor *ct_addbmm(const ct_tensor *t, const ct_tensor *batch1, const ct_tensor *batch2,
                     const ct_addmm_opts *opts) {
  CT__NONNULL_PTR(t, batch1, batch2);
  if (!CT__OP_ACCEPTS(&addbmm_op, addbmm_op.aten, t, batch1, batch2)) return NULL;
  ct_tensor *r = addbmm_impl(t, batch1, batch2, opts, false, CT__OP_ON_META(t, batch1, batch2), NULL);
  ct__mm_mark(r, t, batch1);
  ct__mm_mark(r, NULL, batch2);
  return ct__own(r);
}

ct_status ct_addbmm_(ct_tensor *self, const ct_tensor *batch1, const ct_tensor *batch2,
                     const ct_addmm_opts *opts) {
  CT__NONNULL_STATUS(self, batch1, batch2);
  if (!CT__OP_ACCEPTS(&addbmm__op, addbmm__op.aten, self, batch1, batch2)) return ct_last_error();
  if (!ct__check_inplace(self)) return CT_ERR_RUNTIME;
  /* torch 1.13's Meta kernel of addbmm_ checks nothing and returns self as it is, but refuses a self with data */
  if (CT__OP_ON_META(self, batch1, batch2)) return ct__pw_meta_inplace_noop(self);
  return ct__mm_finish_inplace(self, addbmm_impl(self, batch1, batch2, opts, true, false, self));
}

ct_status ct_addbmm_out(ct_tensor *out, const ct_tensor *t, const ct_tensor *batch1, const ct_tensor *batch2,
                        const ct_addmm_opts *opts) {
  CT__NONNULL_STATUS(out, t, batch1, batch2);
  if (!CT__OP_ACCEPTS(&addbmm_out_op, addbmm_out_op.aten, out, t, batch1, batch2)) return ct_last_error();
  if (!CT__OP_OUT_GRAD_OK(&addbmm_out_op, out, t, batch1, batch2)) return CT_ERR_RUNTIME;
  bool meta = CT__OP_ON_META(out, t, batch1, batch2);
  ct_tensor *r = addbmm_impl(t, batch1, batch2, opts, false, meta, out);
  if (r && meta) { /* meta_addbmm's out_wrapper */
    ct_status s = ct__out_wrapper_copy(out, r);
    ct_release(r);
    return s;
  }
  /* addbmm_out resizes out as self (resize_as_), then writes: a dtype other than self's is written with a
     cast by copy_ in torch's beta step; ctorch requires out's dtype to be the result's */
  return ct__mm_finish_out(out, r, NULL);
}
