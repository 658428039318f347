/* mm and addmm (torch's structured meta checks, then addmm_impl_cpu_ through ct__gemm_into), mv and addmv
   (addmv_out_cpu: BLAS ?gemv or torch's own gemv loop), dot and vdot. */
#include "core/elem.h"
#include "core/half.h"
#include "core/out_wrapper.h"
#include "kernels/cpu/blas.h"
#include "ops/convert_internal.h"
#include "ops/matmul/mm_internal.h"
#include "ops/pointwise/pw.h"

static const ct_op mm_op = CT_MM_OP("mm", "aten::mm");
static const ct_op mm_out_op = CT_MM_OP("mm", "aten::mm.out");
static const ct_op addmm_op = CT_MM_OP("addmm", "aten::addmm");
static const ct_op addmm__op = CT_MM_OP("addmm", "aten::addmm_");
static const ct_op addmm_out_op = CT_MM_OP("addmm", "aten::addmm.out");
static const ct_op mv_op = CT_MM_OP("mv", "aten::mv");
static const ct_op mv_out_op = CT_MM_OP("mv", "aten::mv.out");
static const ct_op addmv_op = CT_MM_OP("addmv", "aten::addmv");
static const ct_op addmv__op = CT_MM_OP("addmv", "aten::addmv_");
static const ct_op addmv_out_op = CT_MM_OP("addmv", "aten::addmv.out");
static const ct_op dot_op = CT_MM_OP("dot", "aten::dot");
static const ct_op dot_out_op = CT_MM_OP("dot", "aten::dot.out");
static const ct_op vdot_op = CT_MM_OP("vdot", "aten::vdot");
static const ct_op vdot_out_op = CT_MM_OP("vdot", "aten::vdot.out");

/* ---- mm / addmm ---- */

static bool mm_shapes_ok(const ct_tensor *a, const ct_tensor *b) {
  if (a->sizes[1] == b->sizes[0]) return true;
  ct__error(CT_ERR_RUNTIME, "mat1 and mat2 shapes cannot be multiplied (%lldx%lld and %lldx%lld)",
            (long long)a->sizes[0], (long long)a->sizes[1], (long long)b->sizes[0], (long long)b->sizes[1]);
  return false;
}

/* a @ b (2-D, one dtype unless gemm refuses) into a new row-major tensor of a's dtype. */
static ct_tensor *mm_like(const ct_tensor *a, const ct_tensor *b, ct_tensor *like) { /* like: out, or NULL */
  int64_t sizes[2] = {a->sizes[0], b->sizes[1]};
  ct_tensor *r = ct__mm_out_direct(like, 2, sizes, (ct_dtype)a->dtype, a, b, NULL);
  if (!r) r = ct__mm_result_for(like, CT__MM_DEV(a, a, b), 2, sizes, (ct_dtype)a->dtype);
  if (r && CT__OP_ON_META(a, b, like))
    return r; /* mm's structured meta: the geometry, no kernel (nor its checks) */
  ct_tensor *ra = r ? ct__mm_unneg(a) : NULL, *rb = ra ? ct__mm_unneg(b) : NULL;
  ct_status s =
      rb ? ct__gemm_into(r, ra, rb, ct_scalar_int(0), ct_scalar_int(1), "addmm_impl_cpu_") : ct_last_error();
  ct_release(ra);
  ct_release(rb);
  if (s != CT_OK) {
    ct_release(r);
    return NULL;
  }
  return r;
}

ct_tensor *ct__mm_new(const ct_tensor *a, const ct_tensor *b) { return mm_like(a, b, NULL); }
ct_tensor *ct__mm_for_out(const ct_tensor *a, const ct_tensor *b, ct_tensor *out) {
  return mm_like(a, b, out);
}

static ct_tensor *mm_impl(const ct_tensor *a, const ct_tensor *b) {
  if (a->ndim != 2) return CT_ERR_NULL(CT_ERR_RUNTIME, "self must be a matrix");
  if (b->ndim != 2) return CT_ERR_NULL(CT_ERR_RUNTIME, "mat2 must be a matrix");
  if (!mm_shapes_ok(a, b)) return NULL;
  return ct__mm_new(a, b);
}

ct_tensor *ct_mm(const ct_tensor *t, const ct_tensor *mat2) {
  return ct__mm_api2(&mm_op, "t, mat2", t, mat2, mm_impl);
}

ct_status ct_mm_out(ct_tensor *out, const ct_tensor *t, const ct_tensor *mat2) {
  CT__NONNULL_STATUS(out, t, mat2);
  if (!CT__OP_ACCEPTS(&mm_out_op, mm_out_op.aten, out, t, mat2)) return ct_last_error();
  if (!CT__OP_OUT_GRAD_OK(&mm_out_op, out, t, mat2)) return CT_ERR_RUNTIME;
  if (t->ndim != 2) return (ct__error(CT_ERR_RUNTIME, "self must be a matrix"), CT_ERR_RUNTIME);
  if (mat2->ndim != 2) return (ct__error(CT_ERR_RUNTIME, "mat2 must be a matrix"), CT_ERR_RUNTIME);
  if (!mm_shapes_ok(t, mat2)) return CT_ERR_RUNTIME;
  if (!ct__join_out_dtype_is(out, (ct_dtype)t->dtype)) return CT_ERR_RUNTIME;
  return ct__mm_finish_out(out, mm_like(t, mat2, out), t);
}

/* beta * self + alpha * (m1 @ m2) into a new row-major result of self's dtype: ADDMM_META's checks, the
   in-place shape rule (inplace: self is the target), addmm_out_cpu's expand, then the product. */
static ct_tensor *addmm_impl(const ct_tensor *self, const ct_tensor *m1, const ct_tensor *m2,
                             const ct_addmm_opts *opts, bool inplace, const ct_tensor *out) {
  if (self->dtype != m2->dtype) return CT_ERR_NULL(CT_ERR_RUNTIME, "self and mat2 must have the same dtype");
  if (m1->dtype != m2->dtype) return CT_ERR_NULL(CT_ERR_RUNTIME, "mat1 and mat2 must have the same dtype");
  if (m1->ndim != 2)
    return CT_ERR_NULL(CT_ERR_RUNTIME, "mat1 must be a matrix, got %d-D tensor", (int)m1->ndim);
  if (m2->ndim != 2)
    return CT_ERR_NULL(CT_ERR_RUNTIME, "mat2 must be a matrix, got %d-D tensor", (int)m2->ndim);
  if (!mm_shapes_ok(m1, m2)) return NULL;
  int64_t sizes[2] = {m1->sizes[0], m2->sizes[1]};
  if (inplace && !ct__inplace_device_ok(self, ct__tdevice(m1)))
    return NULL; /* ADDMM_META's options: mat1's */
  if (inplace && (self->ndim != 2 || self->sizes[0] != sizes[0] || self->sizes[1] != sizes[1])) {
    char a[256], b[256];
    ct__fmt_int_list(a, sizeof a, self->ndim, self->sizes);
    ct__fmt_int_list(b, sizeof b, 2, sizes);
    return CT_ERR_NULL(CT_ERR_RUNTIME,
                       "Bad in-place call: input tensor size %s and output tensor size %s should match", a,
                       b);
  }
  if (out && !ct__join_out_dtype_is(out, (ct_dtype)self->dtype)) return NULL;
  ct_scalar beta = ct__mm_coef(opts ? opts->beta : (ct_scalar){0}),
            alpha = ct__mm_coef(opts ? opts->alpha : (ct_scalar){0});
  /* addmm_out_cpu expands self; the meta function does not look at self's shape */
  bool meta = CT__OP_ON_META(self, m1, m2, out);
  ct_tensor *e = meta ? NULL : ct__expand_impl(self, (ct_shape){sizes, 2});
  if (!e && !meta) return NULL;
  ct_dtype dt = (ct_dtype)self->dtype;
  /* straight into out, as torch, but not where a check fails after self's copy (a failed call changes nothing):
     the types refused then, and an empty contraction, where torch scales the copy by beta (mul_'s cast check) */
  ct_tensor *r = out && dt != CT_BOOL && dt != CT_FLOAT16 && m1->sizes[1] != 0
                     ? ct__mm_out_direct((ct_tensor *)out, 2, sizes, dt, self, m1, m2)
                     : NULL;
  if (!r) r = ct__mm_result_for(inplace ? self : out, CT__MM_DEV(self, m1, m2), 2, sizes, dt);
  if (meta) return r; /* ADDMM_META's checks ran: the geometry, no kernel */
  ct_tensor *ra = r ? ct__mm_unneg(m1) : NULL, *rb = ra ? ct__mm_unneg(m2) : NULL;
  ct_status s = rb ? CT_OK : ct_last_error();
  if (s == CT_OK && !ct__mm_coef_zero(beta) && r->numel) s = ct__copy_into(r, e);
  if (s == CT_OK) s = ct__gemm_into(r, ra, rb, beta, alpha, "addmm_impl_cpu_");
  ct_release(e);
  ct_release(ra);
  ct_release(rb);
  if (s != CT_OK) {
    ct_release(r);
    return NULL;
  }
  return r;
}

ct_tensor *ct_addmm(const ct_tensor *t, const ct_tensor *mat1, const ct_tensor *mat2,
                    const ct_addmm_opts *opts) {
  CT__NONNULL_PTR(t, mat1, mat2);
  if (!CT__OP_ACCEPTS(&addmm_op, addmm_op.aten, t, mat1, mat2)) return NULL;
  ct_tensor *r = addmm_impl(t, mat1, mat2, opts, false, NULL);
  if (r) ct__grad_mark_result(r, t);
  ct__mm_mark(r, mat1, mat2);
  return ct__own(r);
}

ct_status ct_addmm_(ct_tensor *self, const ct_tensor *mat1, const ct_tensor *mat2,
                    const ct_addmm_opts *opts) {
  CT__NONNULL_STATUS(self, mat1, mat2);
  if (!CT__OP_ACCEPTS(&addmm__op, addmm__op.aten, self, mat1, mat2)) return ct_last_error();
  if (!ct__check_inplace(self)) return CT_ERR_RUNTIME;
  return ct__mm_finish_inplace(self, addmm_impl(self, mat1, mat2, opts, true, NULL));
}

ct_status ct_addmm_out(ct_tensor *out, const ct_tensor *t, const ct_tensor *mat1, const ct_tensor *mat2,
                       const ct_addmm_opts *opts) {
  CT__NONNULL_STATUS(out, t, mat1, mat2);
  if (!CT__OP_ACCEPTS(&addmm_out_op, addmm_out_op.aten, out, t, mat1, mat2)) return ct_last_error();
  if (!CT__OP_OUT_GRAD_OK(&addmm_out_op, out, t, mat1, mat2)) return CT_ERR_RUNTIME;
  return ct__mm_finish_out(out, addmm_impl(t, mat1, mat2, opts, false, out), mat1);
}

/* ---- mv / addmv ---- */

/* torch's gemv<scalar_t> loop (BlasKernel.cpp) for the types and strides BLAS does not take: 't' sums each
   output in the accumulator type (float for bfloat16/float16, the type itself otherwise), 'n' scales y
   and adds alpha * x[j] times a column, y rounded at each step. */
typedef struct gemv_args {
  ct_dtype dt;
  bool trans;
  int64_t m, n, lda, incx, incy;
  const char *a, *x;
  char *y;
  ct_scalar alpha, beta;
} gemv_args;

static double ld(ct_dtype dt, const char *p, int64_t i) {
  return ct__elem_load_f64(dt, p + i * (int64_t)ct__itemsize(dt));
}
static void st(ct_dtype dt, char *p, int64_t i, double v) {
  ct__elem_store_f64(dt, p + i * (int64_t)ct__itemsize(dt), v);
}

static double scal_re(ct_scalar s) {
  return s.kind == CT_SCALAR_BOOL     ? (double)s.v.b
         : s.kind == CT_SCALAR_INT    ? (double)s.v.i
         : s.kind == CT_SCALAR_DOUBLE ? s.v.d
                                      : s.v.c.re;
}

/* Floating types: float32/float64 in their own type, bfloat16 as c10's operators round: each product and
   each sum (torch 1.13 sums the 't' case in scalar_t; checked against torch for both layouts). */
static void gemv_float(const gemv_args *g) {
  ct_dtype dt = g->dt;
  bool reduced = dt == CT_BFLOAT16 || dt == CT_FLOAT16;
  double alpha = ct__elem_round_f64(dt, scal_re(g->alpha)), beta = ct__elem_round_f64(dt, scal_re(g->beta));
  if (g->trans) {
    for (int64_t i = 0; i < g->n; i++) {
      double sum = 0;
      for (int64_t j = 0; j < g->m; j++) {
        double p = ld(dt, g->x, j * g->incx) * ld(dt, g->a, g->lda * i + j);
        if (dt == CT_FLOAT32) sum = (float)((float)sum + (float)p);
        else if (reduced)
          sum = ct__elem_round_f64(dt, (float)sum + (float)ct__elem_round_f64(dt, p)); /* scalar_t sum */
        else sum += p;
      }
      double v = beta == 0 ? alpha * sum : beta * ld(dt, g->y, i * g->incy) + alpha * sum;
      if (dt == CT_FLOAT32)
        v = beta == 0 ? (float)((float)alpha * (float)sum)
                      : (float)((float)((float)beta * (float)ld(dt, g->y, i * g->incy)) +
                                (float)((float)alpha * (float)sum));
      else if (reduced) /* c10's operators: each product and the sum rounded to scalar_t */
        v = beta == 0 ? (float)alpha * (float)sum
                      : (float)ct__elem_round_f64(dt, (float)beta * (float)ld(dt, g->y, i * g->incy)) +
                            (float)ct__elem_round_f64(dt, (float)alpha * (float)sum);
      st(dt, g->y, i * g->incy, v);
    }
    return;
  }
  if (beta != 1 && beta != 0)
    for (int64_t i = 0; i < g->m; i++) {
      double v = ld(dt, g->y, i * g->incy) * beta;
      st(dt, g->y, i * g->incy, dt == CT_FLOAT64 ? v : (float)v);
    }
  for (int64_t j = 0; j < g->n; j++) {
    double z = alpha * ld(dt, g->x, j * g->incx);
    if (dt != CT_FLOAT64) z = reduced ? ct__elem_round_f64(dt, z) : (float)z;
    for (int64_t i = 0; i < g->m; i++) {
      if (j == 0 && beta == 0) st(dt, g->y, i * g->incy, 0);
      double p = z * ld(dt, g->a, g->lda * j + i);
      double v = dt == CT_FLOAT64 ? ld(dt, g->y, i * g->incy) + p
                 : reduced ? (float)((float)ld(dt, g->y, i * g->incy) + (float)ct__elem_round_f64(dt, p))
                           : (float)((float)ld(dt, g->y, i * g->incy) + (float)p);
      st(dt, g->y, i * g->incy, v);
    }
  }
}

/* Integers: modulo 2^bits, in any order. */
static void gemv_int(const gemv_args *g) {
  size_t is = ct__itemsize(g->dt);
  uint64_t alpha = (uint64_t)(g->alpha.kind == CT_SCALAR_INT ? g->alpha.v.i : (int64_t)scal_re(g->alpha));
  uint64_t beta = (uint64_t)(g->beta.kind == CT_SCALAR_INT ? g->beta.v.i : (int64_t)scal_re(g->beta));
  int64_t rows = g->trans ? g->n : g->m, cols = g->trans ? g->m : g->n;
  for (int64_t i = 0; i < rows; i++) {
    uint64_t acc = 0;
    for (int64_t j = 0; j < cols; j++) {
      int64_t ai = g->trans ? g->lda * i + j : g->lda * j + i;
      acc += (uint64_t)ct__elem_load_i64(g->dt, g->a + ai * (int64_t)is) *
             (uint64_t)ct__elem_load_i64(g->dt, g->x + j * g->incx * (int64_t)is);
    }
    char *yp = g->y + i * g->incy * (int64_t)is;
    uint64_t prev = beta == 0 ? 0 : (uint64_t)ct__elem_load_i64(g->dt, yp) * beta;
    ct__elem_store_i64(g->dt, yp, (int64_t)(prev + alpha * acc));
  }
}

/* torch's gemv loop for c10::complex: 't' sums x[j] * a[j] per output, then y = beta * y + alpha * sum
   (alpha * sum when beta is 0); 'n' scales y by beta (zeroed at the first column when beta is 0) and
   adds (alpha * x[j]) * a[:, j] column by column. Complex products with c10's formula, in the component
   type. */
#define CX_GEMV(NAME, T)                                                                             \
  static void NAME(const gemv_args *g) {                                                             \
    T ar = (T)scal_re(g->alpha), ai = (T)(g->alpha.kind == CT_SCALAR_COMPLEX ? g->alpha.v.c.im : 0); \
    T br = (T)scal_re(g->beta), bi = (T)(g->beta.kind == CT_SCALAR_COMPLEX ? g->beta.v.c.im : 0);    \
    bool beta0 = br == 0 && bi == 0, beta1 = br == 1 && bi == 0;                                     \
    const T *A = (const T *)g->a, *X = (const T *)g->x;                                              \
    T *Y = (T *)g->y;                                                                                \
    if (g->trans) {                                                                                  \
      for (int64_t i = 0; i < g->n; i++) {                                                           \
        T sr = 0, si = 0;                                                                            \
        for (int64_t j = 0; j < g->m; j++) {                                                         \
          const T *x = X + 2 * j * g->incx, *a = A + 2 * (g->lda * i + j);                           \
          sr += x[0] * a[0] - x[1] * a[1], si += x[0] * a[1] + x[1] * a[0];                          \
        }                                                                                            \
        T *y = Y + 2 * i * g->incy, tr = ar * sr - ai * si, ti = ar * si + ai * sr;                  \
        if (beta0) {                                                                                 \
          y[0] = tr, y[1] = ti;                                                                      \
        } else {                                                                                     \
          T yr = br * y[0] - bi * y[1], yi = br * y[1] + bi * y[0];                                  \
          y[0] = yr + tr, y[1] = yi + ti;                                                            \
        }                                                                                            \
      }                                                                                              \
      return;                                                                                        \
    }                                                                                                \
    if (!beta1 && !beta0)                                                                            \
      for (int64_t i = 0; i < g->m; i++) {                                                           \
        T *y = Y + 2 * i * g->incy, yr = br * y[0] - bi * y[1], yi = br * y[1] + bi * y[0];          \
        y[0] = yr, y[1] = yi;                                                                        \
      }                                                                                              \
    for (int64_t j = 0; j < g->n; j++) {                                                             \
      const T *x = X + 2 * j * g->incx;                                                              \
      T zr = ar * x[0] - ai * x[1], zi = ar * x[1] + ai * x[0];                                      \
      for (int64_t i = 0; i < g->m; i++) {                                                           \
        T *y = Y + 2 * i * g->incy;                                                                  \
        const T *a = A + 2 * (g->lda * j + i);                                                       \
        if (j == 0 && beta0) y[0] = 0, y[1] = 0;                                                     \
        y[0] += zr * a[0] - zi * a[1], y[1] += zr * a[1] + zi * a[0];                                \
      }                                                                                              \
    }                                                                                                \
  }
CX_GEMV(gemv_c64, float)
CX_GEMV(gemv_c128, double)

static void gemv_run(gemv_args *g) {
  if (g->n == 1) g->lda = g->m;
  ct_dtype dt = g->dt;
  /* torch 1.13's gemv<> calls BLAS for float and double only; its complex gemv is its own loop */
  bool blas = (dt == CT_FLOAT32 || dt == CT_FLOAT64) && ct__blas_fits(g->m) && ct__blas_fits(g->n) &&
              ct__blas_fits(g->lda) && g->incx > 0 && ct__blas_fits(g->incx) && g->incy > 0 &&
              ct__blas_fits(g->incy);
  if (blas) {
    double al[2] = {scal_re(g->alpha), g->alpha.kind == CT_SCALAR_COMPLEX ? g->alpha.v.c.im : 0};
    double be[2] = {scal_re(g->beta), g->beta.kind == CT_SCALAR_COMPLEX ? g->beta.v.c.im : 0};
    float alf[2] = {(float)al[0], (float)al[1]}, bef[2] = {(float)be[0], (float)be[1]};
    bool single = dt == CT_FLOAT32 || dt == CT_COMPLEX64;
    ct__blas_gemv(dt, g->trans ? 't' : 'n', g->m, g->n, single ? (const void *)alf : al, g->a, g->lda, g->x,
                  g->incx, single ? (const void *)bef : be, g->y, g->incy);
  } else if (ct__dt(dt)->category == CT_CAT_INT) {
    gemv_int(g);
  } else if (ct__dt(dt)->category == CT_CAT_COMPLEX) {
    (dt == CT_COMPLEX64 ? gemv_c64 : gemv_c128)(g);
  } else {
    gemv_float(g);
  }
}

static bool lda_cond(int64_t m, int64_t n, int64_t lda) { return n == 1 || lda >= (m > 1 ? m : 1); }

/* beta * self + alpha * mat @ vec: addmv's checks (self is the result's shape for mv), then
   addmv_out_cpu. The result has vec's dtype (torch's set_output uses vec's options). */
static ct_tensor *addmv_impl(const ct_tensor *self, const ct_tensor *mat, const ct_tensor *vec,
                             ct_scalar beta, ct_scalar alpha, bool inplace, const ct_tensor *out) {
  if (!(mat->ndim == 2 && vec->ndim == 1 && self->ndim <= 1))
    return CT_ERR_NULL(CT_ERR_RUNTIME, "vector + matrix @ vector expected, got %d, %d, %d", (int)self->ndim,
                       (int)mat->ndim, (int)vec->ndim);
  if (!(mat->sizes[1] == vec->sizes[0] && (mat->sizes[0] == self->numel || self->numel == 1))) {
    if (self->ndim == 0)
      return CT_ERR_NULL(CT_ERR_INDEX, "Dimension specified as 0 but tensor has no dimensions");
    return CT_ERR_NULL(CT_ERR_RUNTIME, "size mismatch, got %lld, %lldx%lld,%lld", (long long)self->sizes[0],
                       (long long)mat->sizes[0], (long long)mat->sizes[1], (long long)vec->sizes[0]);
  }
  int64_t m = mat->sizes[0];
  /* check_inplace against the meta function's options (vec's): dtype, device, size */
  if (inplace && self->dtype != vec->dtype) { /* (empty too) */
    ct__error(CT_ERR_RUNTIME,
              "Bad in-place call: input tensor dtype %s and output tensor dtype %s should match",
              ct__dt((ct_dtype)self->dtype)->typemeta_name, ct__dt((ct_dtype)vec->dtype)->typemeta_name);
    return NULL;
  }
  if (inplace && !ct__inplace_device_ok(self, ct__tdevice(vec))) return NULL;
  if (inplace && (self->ndim != 1 || self->sizes[0] != m)) {
    char a[256], b[256];
    ct__fmt_int_list(a, sizeof a, self->ndim, self->sizes);
    ct__fmt_int_list(b, sizeof b, 1, &m);
    return CT_ERR_NULL(CT_ERR_RUNTIME,
                       "Bad in-place call: input tensor size %s and output tensor size %s should match", a,
                       b);
  }
  ct_dtype dt = inplace ? (ct_dtype)self->dtype : (ct_dtype)vec->dtype;
  if (out && !ct__join_out_dtype_is(out, dt)) return NULL;
  ct_tensor *e = ct__expand_impl(self, (ct_shape){&m, 1});
  if (!e) return NULL;
  /* straight into out, as torch (BLAS then gets out's increment, whose kernels round differently), where the
     types pass the checks below: a failed call changes nothing */
  ct_dtype mdt = (ct_dtype)mat->dtype;
  ct_tensor *r = out && mat->numel && mdt != CT_BOOL && mdt != CT_FLOAT16 && vec->dtype == mdt && dt == mdt
                     ? ct__mm_out_direct((ct_tensor *)out, 1, &m, dt, self, mat, vec)
                     : NULL;
  if (!r) r = ct__mm_result_like(inplace ? self : out, CT__MM_DEV(vec, self, mat), 1, &m, dt);
  if (r && CT__OP_ON_META(self, mat, vec, out)) { /* addmv's structured meta: the geometry, no kernel */
    ct_release(e);
    return r;
  }
  ct_tensor *rm = NULL, *rv = NULL, *cm = NULL;
  ct_status s = r ? CT_OK : ct_last_error();
  if (s == CT_OK && mat->numel == 0) {
    if (ct__mm_coef_zero(beta)) {
      s = ct__fill_impl(r, ct_scalar_int(0));
    } else { /* at::cpu::mul_out(result, self, scalar_tensor(beta, self's dtype)): self unexpanded, so that
                mul's out= rules resize the result to self's shape and check the cast to its dtype. An out=
                tensor is that result; a new result (functional, in place) is written, then returned. */
      ct_resolved_opts ro = {.dtype = (ct_dtype)self->dtype, .device = ct__tdevice(self)};
      ct_tensor *w = ct__scalar_tensor_with(beta, &ro);
      s = w ? ct__mm_mul_out(out ? (ct_tensor *)out : r, self, w) : ct_last_error();
      ct_release(w);
      if (s == CT_OK && out) {
        ct_release(r);
        r = ct_retain((ct_tensor *)out);
      }
    }
  } else if (s == CT_OK) {
    if (!ct__mm_coef_zero(beta)) s = ct__copy_into(r, e);
    if (s == CT_OK && r->numel) {
      ct_dtype md = (ct_dtype)mat->dtype;
      if (md == CT_BOOL || md == CT_FLOAT16) {
        ct__error(CT_ERR_RUNTIME, "\"addmv_impl_cpu\" not implemented for '%s'", ct__dt(md)->scalar_name);
        s = CT_ERR_RUNTIME;
      } else if (vec->dtype != md || dt != md) {
        ct__error(CT_ERR_RUNTIME, "expected scalar type %s but found %s", ct__dt(md)->scalar_name,
                  ct__dt(vec->dtype != md ? (ct_dtype)vec->dtype : dt)->scalar_name);
        s = CT_ERR_RUNTIME;
      } else if ((md == CT_FLOAT32 || md == CT_FLOAT64) && !ct__blas_ready()) {
        s = ct_last_error();
      }
      if (s == CT_OK) {
        rm = ct__mm_resolved(mat);
        rv = rm ? ct__mm_resolved(vec) : NULL;
        s = rv ? CT_OK : ct_last_error();
      }
      if (s == CT_OK && md == CT_BFLOAT16 && ct__mm_dnnl_route(rm, rv, NULL)) {
        s = ct__mm_dnnl(r, rm, rv, beta, alpha);
      } else if (s == CT_OK) {
        gemv_args g = {.dt = md,
                       .x = ct__tdata(rv),
                       .incx = rv->strides[0],
                       .y = ct__tdata(r),
                       .incy = r->strides[0],
                       .alpha = alpha,
                       .beta = beta};
        if (rm->strides[0] == 1 && lda_cond(rm->sizes[0], rm->sizes[1], rm->strides[1])) {
          g.trans = false, g.m = rm->sizes[0], g.n = rm->sizes[1], g.a = ct__tdata(rm),
          g.lda = rm->strides[1];
        } else if (rm->strides[1] == 1 && lda_cond(rm->sizes[1], rm->sizes[0], rm->strides[0])) {
          g.trans = true, g.m = rm->sizes[1], g.n = rm->sizes[0], g.a = ct__tdata(rm), g.lda = rm->strides[0];
        } else {
          cm = ct__contiguous_impl(rm, CT_CONTIGUOUS_FORMAT);
          if (!cm) s = ct_last_error();
          else
            g.trans = true, g.m = rm->sizes[1], g.n = rm->sizes[0], g.a = ct__tdata(cm),
            g.lda = cm->strides[0];
        }
        if (s == CT_OK) gemv_run(&g);
      }
    }
  }
  ct_release(e);
  ct_release(rm);
  ct_release(rv);
  ct_release(cm);
  if (s != CT_OK) {
    ct_release(r);
    return NULL;
  }
  return r;
}

ct_tensor *ct__mv_new(const ct_tensor *a, const ct_tensor *v) {
  /* mv: result = empty({self.size(0)}, vec's options), then addmv_(result, self, vec, 0, 1) */
  if (a->ndim == 0) return CT_ERR_NULL(CT_ERR_INDEX, "Dimension specified as 0 but tensor has no dimensions");
  int64_t m = a->sizes[0];
  ct_tensor *self = ct__join_empty(v, 1, &m, (ct_dtype)v->dtype);
  ct_tensor *r = self ? addmv_impl(self, a, v, ct_scalar_int(0), ct_scalar_int(1), true, NULL) : NULL;
  if (r && r->device_type == CT_META && self->device_type != CT_META) { /* addmv_'s meta wrote nothing */
    ct_release(r);
    r = ct_retain(self);
  }
  ct_release(self);
  return r;
}

ct_tensor *ct_mv(const ct_tensor *t, const ct_tensor *vec) {
  return ct__mm_api2(&mv_op, "t, vec", t, vec, ct__mv_new);
}

ct_status ct_mv_out(ct_tensor *out, const ct_tensor *t, const ct_tensor *vec) {
  CT__NONNULL_STATUS(out, t, vec);
  if (!CT__OP_ACCEPTS(&mv_out_op, mv_out_op.aten, out, t, vec)) return ct_last_error();
  if (!CT__OP_OUT_GRAD_OK(&mv_out_op, out, t, vec)) return CT_ERR_RUNTIME;
  return ct__mv_out(out, t, vec);
}

ct_status ct__mv_out(ct_tensor *out, const ct_tensor *t, const ct_tensor *vec) {
  /* mv_out: addmv_out(result, self_addmv, self, vec, 0, 1), where self_addmv is result itself when it can
     stand for addmv's self (at most 1-D, one element, self.size(0) 1), else a new {self.size(0)} tensor of
     vec's options (its values unread: beta is 0) */
  if (t->ndim == 0)
    return (ct__error(CT_ERR_INDEX, "Dimension specified as 0 but tensor has no dimensions"), CT_ERR_INDEX);
  int64_t m = t->sizes[0];
  bool as_self = out->ndim <= 1 && out->numel == 1 && m == 1;
  ct_tensor *s = as_self ? ct_retain(out) : ct__join_empty(vec, 1, &m, (ct_dtype)vec->dtype);
  ct_tensor *r = s ? addmv_impl(s, t, vec, ct_scalar_int(0), ct_scalar_int(1), false, out) : NULL;
  ct_release(s);
  return ct__mm_finish_out(out, r, vec); /* addmv's: vec's options */
}

static ct_scalar coef(const ct_addmm_opts *o, bool beta) {
  return ct__mm_coef(o ? (beta ? o->beta : o->alpha) : (ct_scalar){0});
}

ct_tensor *ct_addmv(const ct_tensor *t, const ct_tensor *mat, const ct_tensor *vec,
                    const ct_addmm_opts *opts) {
  CT__NONNULL_PTR(t, mat, vec);
  if (!CT__OP_ACCEPTS(&addmv_op, addmv_op.aten, t, mat, vec)) return NULL;
  ct_tensor *r = addmv_impl(t, mat, vec, coef(opts, true), coef(opts, false), false, NULL);
  if (r) ct__grad_mark_result(r, t);
  ct__mm_mark(r, mat, vec);
  return ct__own(r);
}

ct_status ct_addmv_(ct_tensor *self, const ct_tensor *mat, const ct_tensor *vec, const ct_addmm_opts *opts) {
  CT__NONNULL_STATUS(self, mat, vec);
  if (!CT__OP_ACCEPTS(&addmv__op, addmv__op.aten, self, mat, vec)) return ct_last_error();
  if (!ct__check_inplace(self)) return CT_ERR_RUNTIME;
  return ct__mm_finish_inplace(self,
                               addmv_impl(self, mat, vec, coef(opts, true), coef(opts, false), true, NULL));
}

ct_status ct_addmv_out(ct_tensor *out, const ct_tensor *t, const ct_tensor *mat, const ct_tensor *vec,
                       const ct_addmm_opts *opts) {
  CT__NONNULL_STATUS(out, t, mat, vec);
  if (!CT__OP_ACCEPTS(&addmv_out_op, addmv_out_op.aten, out, t, mat, vec)) return ct_last_error();
  if (!CT__OP_OUT_GRAD_OK(&addmv_out_op, out, t, mat, vec)) return CT_ERR_RUNTIME;
  return ct__mm_finish_out(out, addmv_impl(t, mat, vec, coef(opts, true), coef(opts, false), false, out),
                           vec);
}

/* ---- dot / vdot ---- */

/* dot_check of torch's meta function (meta_dot / vdot): the only check on meta */
static bool dot_ndim_ok(const ct_tensor *a, const ct_tensor *b) {
  if (a->ndim == 1 && b->ndim == 1) return true;
  ct__error(CT_ERR_RUNTIME, "1D tensors expected, but got %dD and %dD tensors", (int)a->ndim, (int)b->ndim);
  return false;
}

/* the CPU kernel's checks past the meta function's */
static bool dot_check(const ct_tensor *a, const ct_tensor *b) {
  if (a->dtype != b->dtype) {
    ct__error(CT_ERR_RUNTIME, "dot : expected both vectors to have same dtype, but found %s and %s",
              ct__dt((ct_dtype)a->dtype)->scalar_name, ct__dt((ct_dtype)b->dtype)->scalar_name);
    return false;
  }
  if (a->numel != b->numel) {
    ct__error(CT_ERR_RUNTIME,
              "inconsistent tensor size, expected tensor [%lld] and src [%lld] to have the same number of "
              "elements, "
              "but got %lld and %lld elements respectively",
              (long long)a->numel, (long long)b->numel, (long long)a->numel, (long long)b->numel);
    return false;
  }
  return true;
}

/* dot_naive in the element type (torch 1.13: `scalar_t sum += x * y`; bfloat16 rounds the product and
   the sum), integers modulo 2^bits; BLAS ?dot / ?dotu / ?dotc for the others. */
static ct_tensor *dot_core(const ct_tensor *a0, const ct_tensor *b0, bool conj_a) {
  ct_dtype dt = (ct_dtype)a0->dtype;
  bool cx = ct__dt(dt)->category == CT_CAT_COMPLEX;
  if (conj_a && !cx) conj_a = false;
  if (!dot_ndim_ok(a0, b0)) return NULL;
  if (CT__OP_ON_META(a0, b0)) return ct__join_empty(CT__MM_DEV(a0, b0), 0, NULL, dt); /* self.new_empty(()) */
  if (!dot_check(a0, b0)) return NULL;
  if (dt == CT_BOOL || dt == CT_FLOAT16 || (conj_a && !cx))
    return CT_ERR_NULL(CT_ERR_RUNTIME, "\"dot\" not implemented for '%s'", ct__dt(dt)->scalar_name);
  ct_tensor *r = ct__join_empty(a0, 0, NULL, dt);
  ct_tensor *a = r ? ct__mm_resolved(a0) : NULL, *b = a ? ct__mm_resolved(b0) : NULL;
  if (!b) {
    ct_release(r);
    ct_release(a);
    return NULL;
  }
  int64_t n = a->numel, ia = n == 1 ? 1 : a->strides[0], ib = n == 1 ? 1 : b->strides[0];
  const char *pa = ct__tdata(a), *pb = ct__tdata(b);
  char *pr = ct__tdata(r);
  size_t is = ct__itemsize(dt);
  ct_status s = CT_OK;
  if (ct__dt(dt)->category == CT_CAT_INT) {
    uint64_t acc = 0;
    for (int64_t i = 0; i < n; i++)
      acc += (uint64_t)ct__elem_load_i64(dt, pa + i * ia * (int64_t)is) *
             (uint64_t)ct__elem_load_i64(dt, pb + i * ib * (int64_t)is);
    ct__elem_store_i64(dt, pr, (int64_t)acc);
  } else if (dt == CT_BFLOAT16 && ct__mm_dnnl_route(a, b, NULL)) {
    s = ct__mm_dnnl(r, a, b, ct_scalar_int(0), ct_scalar_int(1));
  } else if (dt == CT_BFLOAT16) {
    float sum = 0;
    for (int64_t i = 0; i < n; i++) {
      float p = ct__bfloat16_to_float(((const uint16_t *)pa)[i * ia]) *
                ct__bfloat16_to_float(((const uint16_t *)pb)[i * ib]);
      sum =
          ct__bfloat16_to_float(ct__float_to_bfloat16(sum + ct__bfloat16_to_float(ct__float_to_bfloat16(p))));
    }
    ((uint16_t *)pr)[0] = ct__float_to_bfloat16(sum);
  } else if (!ct__blas_fits(n) || !ct__blas_fits(ia < 0 ? -ia : ia) || !ct__blas_fits(ib < 0 ? -ib : ib)) {
    ct__error(CT_ERR_RUNTIME, "ctorch: dot of more than 2^31 elements is not supported");
    s = CT_ERR_RUNTIME;
  } else if (!ct__blas_ready()) {
    s = ct_last_error();
  } else {
    ct__blas_dot(dt, conj_a, n, pa, ia, pb, ib, pr);
  }
  ct_release(a);
  ct_release(b);
  if (s != CT_OK) {
    ct_release(r);
    return NULL;
  }
  return r;
}

/* conj(r) as a view, releasing r (torch returns `.conj()` of a product) */
static ct_tensor *conj_of(ct_tensor *r) {
  ct_tensor *v = r ? ct__conj_impl(r) : NULL;
  ct_release(r);
  return v;
}

/* un-conjugated view of a conjugate view (x.conj() of it) */
static ct_tensor *unconj(const ct_tensor *t) { return ct__conj_impl(t); }

/* at::native::dot / vdot: a conjugate view is read through the other function (dot(conj(x), y) is
   vdot(x, y)), so that BLAS gets the call torch makes; then the checks and the kernel. On meta, vdot's
   Python meta function routes conjugate views the same way, while meta_dot reads none (its result is
   never a conjugate view). */
ct_tensor *ct__dot_new(const ct_tensor *a, const ct_tensor *b, bool vdot) {
  bool cx = ct__dt((ct_dtype)a->dtype)->category == CT_CAT_COMPLEX;
  bool ca = (a->flags & CT_TENSOR_CONJ) != 0, cb = (b->flags & CT_TENSOR_CONJ) != 0;
  if (cx && (ca || cb) && (vdot || !CT__OP_ON_META(a, b))) {
    ct_tensor *x = ca ? unconj(a) : ct_retain((ct_tensor *)a),
              *y = x && cb ? unconj(b) : ct_retain((ct_tensor *)b);
    ct_tensor *r = NULL;
    if (x && y) {
      if (!vdot) r = ca ? (cb ? conj_of(dot_core(x, y, false)) : dot_core(x, y, true)) : dot_core(y, a, true);
      else r = ca ? (cb ? dot_core(y, x, true) : dot_core(x, y, false)) : conj_of(dot_core(a, y, false));
    }
    ct_release(x);
    ct_release(y);
    return r;
  }
  return dot_core(a, b, vdot);
}

static ct_tensor *dot_impl(const ct_tensor *a, const ct_tensor *b) { return ct__dot_new(a, b, false); }
static ct_tensor *vdot_impl(const ct_tensor *a, const ct_tensor *b) { return ct__dot_new(a, b, true); }

ct_tensor *ct_dot(const ct_tensor *t, const ct_tensor *other) {
  return ct__mm_api2(&dot_op, "t, other", t, other, dot_impl);
}

ct_status ct__dot_out(const char *name, ct_tensor *out, const ct_tensor *t, const ct_tensor *other,
                      bool conj) {
  if (!ct_device_equal(ct__tdevice(out), ct__tdevice(t)) ||
      !ct_device_equal(ct__tdevice(t), ct__tdevice(other))) {
    char o[32], a[32], b[32];
    ct_device_str(ct__tdevice(out), o, sizeof o);
    ct_device_str(ct__tdevice(t), a, sizeof a);
    ct_device_str(ct__tdevice(other), b, sizeof b);
    ct__error(CT_ERR_RUNTIME,
              "%s: Expected the output and input tensors to be on the same device, but got the output tensor "
              "on %s, "
              "the 'input' tensor on %s, and the 'other' tensor on %s",
              name, o, a, b);
    return CT_ERR_RUNTIME;
  }
  if (out->dtype != t->dtype) {
    ct__error(CT_ERR_RUNTIME, "result dtype %s does not match input dtype %s",
              ct__dt((ct_dtype)out->dtype)->scalar_name, ct__dt((ct_dtype)t->dtype)->scalar_name);
    return CT_ERR_RUNTIME;
  }
  return ct__mm_finish_out(out, ct__dot_new(t, other, conj), NULL);
}

static ct_status dot_out(const ct_op *op, ct_tensor *out, const ct_tensor *t, const ct_tensor *other,
                         bool conj) {
  CT__NONNULL_STATUS(out, t, other);
  if (!CT__OP_ACCEPTS(op, op->aten, out, t, other)) return ct_last_error();
  if (!CT__OP_OUT_GRAD_OK(op, out, t, other)) return CT_ERR_RUNTIME;
  return ct__dot_out(op->name, out, t, other, conj);
}

ct_status ct_dot_out(ct_tensor *out, const ct_tensor *t, const ct_tensor *other) {
  return dot_out(&dot_out_op, out, t, other, false);
}

ct_tensor *ct_vdot(const ct_tensor *t, const ct_tensor *other) {
  return ct__mm_api2(&vdot_op, "t, other", t, other, vdot_impl);
}

ct_status ct_vdot_out(ct_tensor *out, const ct_tensor *t, const ct_tensor *other) {
  return dot_out(&vdot_out_op, out, t, other, true);
}
