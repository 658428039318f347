/* det, slogdet and logdet as torch 1.13 computes them: the LU factorization (getrf) of A, or of A^T when A
   is a contiguous real tensor (det(A^T) = det(A), and A^T is already column-major: torch's shortcut, which
   decides the last bits), then the pivots' sign times the product of U's diagonal (det), the product of the
   diagonal's signs (phases) and the sum of log|U_ii| (slogdet); logdet is slogdet's log(sign) + logabsdet
   (nan for a real matrix of negative determinant). */
#include "ops/linalg/linalg_internal.h"
#include "ops/create_internal.h"
#include "ops/pointwise/pw.h"

#include <complex.h>

#include "kernels/cpu/dtypes.h" /* CMPLX under clang */
#include <math.h>
#include <string.h>

static const ct_op det_op = CT_LINALG_META_OP("_linalg_det", "aten::linalg_det");
static const ct_op det_legacy_op = CT_LINALG_META_OP("_linalg_det", "aten::det");
static const ct_op slogdet_op = CT_LINALG_META_OP("_linalg_slogdet", "aten::linalg_slogdet");
static const ct_op slogdet_legacy_op = CT_LINALG_META_OP("_linalg_slogdet", "aten::slogdet");
static const ct_op logdet_op = CT_LINALG_META_OP("logdet", "aten::logdet");

static double complex load(ct_dtype dt, const char *p) {
  switch (dt) {
    case CT_FLOAT32: return *(const float *)p;
    case CT_FLOAT64: return *(const double *)p;
    case CT_COMPLEX64: return *(const float complex *)p;
    default: return *(const double complex *)p;
  }
}

static void store(ct_dtype dt, char *p, double complex v) {
  switch (dt) {
    case CT_FLOAT32: *(float *)p = (float)creal(v); break;
    case CT_FLOAT64: *(double *)p = creal(v); break;
    case CT_COMPLEX64: *(float complex *)p = (float complex)v; break;
    default: *(double complex *)p = v; break;
  }
}

/* The sign of the row permutation getrf's pivots describe. */
static double pivots_sign(const int32_t *ip, int64_t k) {
  double s = 1;
  for (int64_t i = 0; i < k; i++)
    if (ip[i] != i + 1) s = -s;
  return s;
}

/* torch's checks of linalg.det (ndim, square, floating; lu_cpu's dtypes are det_new's, after out's dtype). */
static bool det_args(const ct_tensor *A, const char *api) {
  return ct__la_ndim_ok(A, api, "A") && ct__la_square_ok(A, api) && ct__la_float_ok(A, api);
}
/* linalg.slogdet's and logdet's (low precision refused by name). */
static bool slogdet_args(const ct_tensor *A, const char *api) {
  return ct__la_ndim_ok(A, api, "A") && ct__la_square_ok(A, api) && ct__la_float_ok(A, api) &&
         ct__la_lowprec_ok(A, api);
}

static ct_status lu_of(const ct_tensor *A, ct_tensor **LU, ct_tensor **piv) {
  ct_tensor *info;
  bool trans = ct__dt((ct_dtype)A->dtype)->category != CT_CAT_COMPLEX &&
               ct__geom_is_contiguous(A->ndim, A->sizes, A->strides);
  ct_status s = ct__la_lu_factor(A, trans, LU, piv, &info);
  ct_release(info);
  return s;
}

static ct_tensor *det_new(const ct_tensor *A) {
  if (A->device_type == CT_META) { /* _linalg_det's meta kernel: the batch's shape, no dtype dispatch */
    ct_tensor *m = ct__la_empty(A, A->ndim - 2, A->sizes, (ct_dtype)A->dtype);
    if (m) ct__grad_mark_result(m, A);
    return m;
  }
  ct_tensor *LU, *piv;
  if ((A->numel > 0 && !ct__la_kernel_ok(A, "lu_cpu")) || lu_of(A, &LU, &piv) != CT_OK) return NULL;
  int64_t nd = A->ndim, n = A->sizes[nd - 1], nb = ct__la_batch(A);
  ct_dtype dt = (ct_dtype)A->dtype;
  ct_tensor *r = ct__la_empty(A, nd - 2, A->sizes, dt);
  if (r && n == 0 && ct__fill(r, ct_scalar_int(1)) != CT_OK) { /* any dtype: no kernel runs */
    ct_release(r);
    r = NULL;
  }
  for (int64_t b = 0; r && n > 0 && b < nb; b++) {
    double complex p = 1;
    for (int64_t i = 0; i < n; i++) p *= load(dt, ct__la_at(LU, b * n * n + i * (n + 1)));
    store(dt, ct__la_at(r, b), pivots_sign((const int32_t *)ct__la_at(piv, b * n), n) * p);
  }
  ct_release(LU);
  ct_release(piv);
  if (r) ct__grad_mark_result(r, A);
  return r;
}

ct_status ct__la_slogdet_from_lu(const ct_tensor *LU, const ct_tensor *piv, ct_tensor **sign,
                                 ct_tensor **logabs) {
  int64_t nd = LU->ndim, n = LU->sizes[nd - 1], nb = ct__la_batch(LU);
  ct_dtype dt = (ct_dtype)LU->dtype, rt = ct__la_real(dt);
  bool cx = dt != rt;
  ct_tensor *s = ct__la_empty(LU, nd - 2, LU->sizes, dt), *l = ct__la_empty(LU, nd - 2, LU->sizes, rt);
  if (!s || !l) {
    ct_release(s);
    ct_release(l);
    return ct_last_error();
  }
  if (n == 0) { /* sign 1, log|det| 0, whatever the dtype */
    ct_status st = ct__fill(s, ct_scalar_int(1));
    if (st == CT_OK) st = ct__fill(l, ct_scalar_int(0));
    if (st != CT_OK) {
      ct_release(s);
      ct_release(l);
      return st;
    }
    nb = 0;
  }
  for (int64_t b = 0; b < nb; b++) {
    double complex sg = pivots_sign((const int32_t *)ct__la_at(piv, b * n), n);
    double la = 0;
    for (int64_t i = 0; i < n; i++) {
      double complex d = load(dt, ct__la_at(LU, b * n * n + i * (n + 1)));
      double a = cabs(d);
      sg *= a == 0 ? 0 : cx ? d / a : (creal(d) > 0 ? 1 : -1);
      la += log(a);
    }
    store(dt, ct__la_at(s, b), sg);
    store(rt, ct__la_at(l, b), la);
  }
  *sign = s;
  *logabs = l;
  return CT_OK;
}

static ct_status slogdet_new(const ct_tensor *A, ct_tensor **sign, ct_tensor **logabs) {
  ct_status s = CT_OK;
  if (A->device_type == CT_META) { /* the batch's shape: sign of A's dtype, logabsdet of its real dtype */
    ct_dtype dt = (ct_dtype)A->dtype;
    *sign = ct__la_empty(A, A->ndim - 2, A->sizes, dt);
    *logabs = *sign ? ct__la_empty(A, A->ndim - 2, A->sizes, ct__la_real(dt)) : NULL;
    if (!*logabs) {
      ct_release(*sign);
      return ct_last_error();
    }
  } else {
    ct_tensor *LU, *piv;
    s = lu_of(A, &LU, &piv);
    if (s != CT_OK) return s;
    s = ct__la_slogdet_from_lu(LU, piv, sign, logabs);
    ct_release(LU);
    ct_release(piv);
  }
  if (s == CT_OK) {
    ct__grad_mark_result(*sign, A);
    ct__grad_mark_result(*logabs, A);
  }
  return s;
}

ct_tensor *ct_linalg_det(const ct_tensor *A) {
  CT__OP_ENTER_PTR(&det_op, A, A);
  return det_args(A, "linalg.det") ? ct__own(det_new(A)) : NULL;
}

ct_tensor *ct_det(const ct_tensor *A) {
  CT__OP_ENTER_PTR(&det_legacy_op, A, A);
  return det_args(A, "linalg.det") ? ct__own(det_new(A)) : NULL;
}

ct_status ct_linalg_det_out(ct_tensor *out, const ct_tensor *A) {
  CT__OP_ENTER_STATUS(&det_op, A, out, A);
  if (!CT__OP_OUT_GRAD_OK(&det_op, out, A)) return CT_ERR_RUNTIME;
  if (!det_args(A, "linalg.det") || !ct__la_out_ok(out, (ct_dtype)A->dtype, A)) return ct_last_error();
  ct_tensor *r = det_new(A);
  return ct__la_write_outs(&r, &out, 1, r ? CT_OK : ct_last_error());
}

static ct_status slogdet_pair(const ct_op *op, const ct_tensor *A, ct_tensor **sign, ct_tensor **logabs) {
  if (sign) *sign = NULL;
  if (logabs) *logabs = NULL;
  CT__OP_ENTER_STATUS(op, A, A);
  ct_tensor *r[2] = {NULL, NULL};
  ct_status s = slogdet_args(A, "linalg.slogdet") ? slogdet_new(A, &r[0], &r[1]) : ct_last_error();
  return ct__la_deliver2(r, NULL, NULL, sign, logabs, s);
}

static ct_status slogdet_outs(const ct_op *op, ct_tensor *sign, ct_tensor *logabs, const ct_tensor *A) {
  CT__OP_ENTER_STATUS(op, A, sign, logabs, A);
  if (!CT__OP_OUT_GRAD_OK(op, sign, logabs, A)) return CT_ERR_RUNTIME;
  ct_dtype dt = (ct_dtype)A->dtype;
  if (!slogdet_args(A, "linalg.slogdet") || !ct__la_out_ok(sign, dt, A) ||
      !ct__la_out_ok(logabs, ct__la_real(dt), A))
    return ct_last_error();
  ct_tensor *r[2] = {NULL, NULL};
  ct_status s = slogdet_new(A, &r[0], &r[1]);
  return ct__la_write_outs(r, (ct_tensor *const[]){sign, logabs}, 2, s);
}

ct_status ct_linalg_slogdet(const ct_tensor *A, ct_tensor **sign, ct_tensor **logabsdet) {
  return slogdet_pair(&slogdet_op, A, sign, logabsdet);
}
ct_status ct_slogdet(const ct_tensor *A, ct_tensor **sign, ct_tensor **logabsdet) {
  return slogdet_pair(&slogdet_legacy_op, A, sign, logabsdet);
}
ct_status ct_linalg_slogdet_out(ct_tensor *sign, ct_tensor *logabsdet, const ct_tensor *A) {
  return slogdet_outs(&slogdet_op, sign, logabsdet, A);
}
ct_status ct_slogdet_out(ct_tensor *sign, ct_tensor *logabsdet, const ct_tensor *A) {
  return slogdet_outs(&slogdet_legacy_op, sign, logabsdet, A);
}

/* A real logdet on the CPU as torch computes it: where(sign == -1., nan, logabsdet), through the library's eq and
   where so that the result has TensorIterator's strides (an empty batch with a size-1 dim is not contiguous:
   (0, 1) gives (1, 0)). A new tensor (unowned). */
static ct_tensor *real_logdet(const ct_tensor *sign, const ct_tensor *logabs) {
  ct_resolved_opts o = {.dtype = (ct_dtype)logabs->dtype, .device = CT_DEVICE_CPU};
  if (ct_scope_begin() != CT_OK) return NULL;
  ct_tensor *m1 = ct__own(ct__scalar_tensor_with(ct_scalar_double(-1.0), &o));
  ct_tensor *nan = m1 ? ct__own(ct__scalar_tensor_with(ct_scalar_double(NAN), &o)) : NULL;
  ct_tensor *c = nan ? ct__pw_apply(&ct__pw_op_eq, sign, m1) : NULL;
  ct_tensor *r = c ? ct_where(c, nan, logabs) : NULL;
  if (r) ct_retain(r);
  ct_scope_end();
  return r;
}

ct_tensor *ct_logdet(const ct_tensor *A) {
  CT__OP_ENTER_PTR(&logdet_op, A, A);
  ct_tensor *sign, *logabs;
  if (!slogdet_args(A, "logdet") || slogdet_new(A, &sign, &logabs) != CT_OK) return NULL;
  ct_dtype dt = (ct_dtype)A->dtype, rt = ct__la_real(dt);
  bool meta = A->device_type == CT_META; /* the meta kernels' result: contiguous */
  ct_tensor *r = dt == rt ? (meta ? logabs : real_logdet(sign, logabs))
                          : ct__la_empty(A, logabs->ndim, logabs->sizes, dt);
  for (int64_t i = 0; r && dt != rt && !meta && i < sign->numel; i++) {
    double complex sg = load(dt, ct__la_at(sign, i));
    double la = creal(load(rt, ct__la_at(logabs, i)));
    /* torch's log of a zero sign is -inf + nan i */
    store(dt, ct__la_at(r, i), sg == 0 ? CMPLX(-INFINITY, NAN) : clog(sg) + la);
  }
  ct_release(sign);
  if (r != logabs) {
    ct_release(logabs);
    if (r) ct__grad_mark_result(r, A);
  }
  return ct__own(r);
}
