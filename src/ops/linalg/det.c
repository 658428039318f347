/* det, slogdet and logdet as torch 1.13 computes them: the LU factorization (getrf) of A, or of A^T when A
   is a contiguous real tensor (det(A^T) = det(A), and A^T is already column-major: torch's shortcut, which
   decides the last bits), then, through the library's own ops as torch composes them (so that the roundings
   are torch's: a float32 product is rounded at each step, the sums are sum's): det = P * prod(diag(U)),
   sign = prod(sgn(diag(U))) * P, logabsdet = sum(log(abs(diag(U)))), P the pivots' sign as an int64 tensor
   (lu_det_P); logdet is log(sign) + logabsdet for complex matrices, where(sign == -1, nan, logabsdet) for
   real ones. */
#include "ops/linalg/linalg_internal.h"
#include "ops/create_internal.h"
#include "ops/pointwise/pw.h"
#include "ops/reduce/red.h"
#include "ops/view_internal.h"

#include <math.h>
#include <string.h>

static const ct_op det_op = CT_LINALG_META_OP("_linalg_det", "aten::linalg_det");
static const ct_op det_legacy_op = CT_LINALG_META_OP("_linalg_det", "aten::det");
static const ct_op slogdet_op = CT_LINALG_META_OP("_linalg_slogdet", "aten::linalg_slogdet");
static const ct_op slogdet_legacy_op = CT_LINALG_META_OP("_linalg_slogdet", "aten::slogdet");
static const ct_op logdet_op = CT_LINALG_META_OP("logdet", "aten::logdet");

/* lu_det_P: the sign of the row permutation getrf's pivots describe, per matrix, as an int64 tensor of the
   batch's shape. Scope-owned. */
static ct_tensor *pivots_sign(const ct_tensor *piv) {
  int64_t nd = piv->ndim, k = piv->sizes[nd - 1];
  ct_resolved_opts o = {.dtype = CT_INT64, .device = CT_DEVICE_CPU};
  ct_tensor *P = ct__own(ct__empty_with((ct_shape){piv->sizes, nd - 1}, &o));
  for (int64_t b = 0; P && b < P->numel; b++) {
    const int32_t *ip = (const int32_t *)ct__la_at(piv, b * k);
    int64_t s = 1;
    for (int64_t i = 0; i < k; i++)
      if (ip[i] != i + 1) s = -s;
    ((int64_t *)ct__tdata(P))[b] = s;
  }
  return P;
}

/* f(diagonal(U)) reduced over its last dim by prod or sum, f a pointwise op or none. Scope-owned. */
static ct_tensor *diag_reduced(const ct_tensor *LU, const ct_pw_op *f, const ct_pw_op *g, bool prod) {
  ct_tensor *d = ct__own(ct__diagonal_impl(LU, 0, -2, -1));
  if (d && f) d = ct__pw_apply(f, d, NULL);
  if (d && g) d = ct__pw_apply(g, d, NULL);
  int64_t last = -1;
  ct_reduce_opts ro = {.dims = {&last, 1}};
  ct_tensor *r = NULL;
  if (!d || (prod ? ct__prod_impl(NULL, d, &ro, &r) : ct__sum_impl(NULL, d, &ro, &r)) != CT_OK) return NULL;
  return r;
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
  ct_tensor *r = NULL;
  if (ct_scope_begin() == CT_OK) { /* at::mul_out(result, lu_det_P(pivots), at::prod(diag(LU), -1)) */
    ct_tensor *P = pivots_sign(piv), *p = P ? diag_reduced(LU, NULL, NULL, true) : NULL;
    r = p ? ct__pw_apply(&ct__pw_op_mul, P, p) : NULL;
    if (r) ct_retain(r);
    ct_scope_end();
  }
  ct_release(LU);
  ct_release(piv);
  if (r) ct__grad_mark_result(r, A);
  return r;
}

ct_status ct__la_slogdet_from_lu(const ct_tensor *LU, const ct_tensor *piv, ct_tensor **sign,
                                 ct_tensor **logabs) {
  *sign = *logabs = NULL;
  ct_status s = ct_scope_begin();
  if (s != CT_OK) return s;
  /* sign = diag_U.sgn().prod(-1) * lu_det_P(pivots); logabsdet = diag_U.abs().log_().sum(-1) */
  ct_tensor *p = diag_reduced(LU, &ct__pw_op_sgn, NULL, true), *P = p ? pivots_sign(piv) : NULL;
  ct_tensor *sg = P ? ct__pw_apply(&ct__pw_op_mul, p, P) : NULL;
  ct_tensor *la = sg ? diag_reduced(LU, &ct__pw_op_abs, &ct__pw_op_log, false) : NULL;
  if (la) {
    *sign = ct_retain(sg);
    *logabs = ct_retain(la);
  } else {
    s = ct_last_error();
  }
  ct_scope_end();
  return s;
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

/* A complex logdet: sign.log() + logabsdet. A new tensor (unowned). */
static ct_tensor *complex_logdet(const ct_tensor *sign, const ct_tensor *logabs) {
  if (ct_scope_begin() != CT_OK) return NULL;
  ct_tensor *l = ct__pw_apply(&ct__pw_op_log, sign, NULL);
  ct_tensor *r = l ? ct__pw_apply(&ct__pw_op_add, l, logabs) : NULL;
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
  ct_tensor *r =
      dt == rt ? (meta ? logabs : real_logdet(sign, logabs))
               : (meta ? ct__la_empty(A, logabs->ndim, logabs->sizes, dt) : complex_logdet(sign, logabs));
  ct_release(sign);
  if (r != logabs) {
    ct_release(logabs);
    if (r) ct__grad_mark_result(r, A);
  }
  return ct__own(r);
}
