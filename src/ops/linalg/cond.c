/* linalg.cond: torch 1.13's composite (LinearAlgebra.cpp: linalg_cond's two overloads, _linalg_cond_check_ord,
   _linalg_cond_empty_matrix, _linalg_cond_helper): singular values for None / 2 / -2 and 'nuc', the norms of A
   and of its inverse (linalg.inv_ex, a singular matrix's inverse filled with inf) for the other orders, each step
   the operation torch runs. */
#include <math.h>
#include <stdio.h>

#include "ops/create_internal.h"
#include "ops/join/join_internal.h"
#include "ops/linalg/linalg_internal.h"
#include "ops/reduce/red.h"

static const ct_op cond_op = CT_LINALG_COMPOSITE_OP("linalg_cond", "aten::linalg_cond");

/* at::zeros(A.shape[:-2], real dtype): the condition number torch gives an empty A. */
static ct_tensor *empty_matrix_result(const ct_tensor *A) {
  ct_resolved_opts ro = {.dtype = ct__la_real((ct_dtype)A->dtype), .device = ct__tdevice(A)};
  return ct__own(ct__zeros_with((ct_shape){A->sizes, A->ndim - 2}, &ro));
}

/* A 0-dim tensor holding v (the Scalar operands of gt and masked_fill_). */
static ct_tensor *number(ct_scalar v, ct_dtype dt) {
  return ct__own(ct__scalar_tensor_with(v, &(ct_resolved_opts){.dtype = dt, .device = CT_DEVICE_CPU}));
}

/* nan_to_num_(r, inf, inf, -inf) of a real r: NaN becomes inf, infinities stay. */
static ct_status nan_to_inf_(ct_tensor *r) {
  ct_tensor *nan = ct__pw_apply(&ct__pw_op_ne, r, r), *inf = number(ct_scalar_double(INFINITY), CT_FLOAT64);
  return nan && inf ? ct__masked_fill_impl_(r, nan, inf) : ct_last_error();
}

/* _linalg_cond_helper: norm(A) * norm(inverse), where a singular matrix's inverse (info > 0) is all inf; the
   product's nan (0 * inf) becomes inf. ord: a number, or 'fro'. Scope-owned. */
static ct_tensor *cond_by_inverse(const ct_tensor *A, ct_norm_ord ord, ct_scalar p) {
  ct_tensor *inv, *info;
  if (ct__la_inv_ex_impl(A, &inv, &info) != CT_OK) return NULL;
  ct_tensor *i1 = ct__own(ct__unsqueeze_impl(info, -1)), *i2 = i1 ? ct__own(ct__unsqueeze_impl(i1, -1)) : NULL;
  ct_tensor *zero = number(ct_scalar_int(0), CT_INT64), *inf = number(ct_scalar_double(INFINITY), CT_FLOAT64);
  ct_tensor *singular = i2 && zero ? ct__pw_apply(&ct__pw_op_gt, i2, zero) : NULL;
  if (!singular || !inf || ct__masked_fill_impl_(inv, singular, inf) != CT_OK) return NULL;
  ct_matrix_norm_opts mo = {.ord = ord, .p = p};
  ct_tensor *na = NULL, *ni = NULL;
  if (ct__la_matrix_norm_impl(NULL, A, &mo, &na) != CT_OK || ct__la_matrix_norm_impl(NULL, inv, &mo, &ni) != CT_OK)
    return NULL;
  ct_tensor *r = ct__pw_apply(&ct__pw_op_mul, na, ni);
  return r && nan_to_inf_(r) == CT_OK ? r : NULL;
}

/* s_max / s_min (2, None) or s_min / s_max (-2) of each matrix's singular values (descending). Scope-owned. */
static ct_tensor *cond_by_svd(const ct_tensor *A, double ord) {
  ct_tensor *S = ct__la_svdvals_impl(A);
  if (!S) return NULL;
  int64_t k = S->sizes[S->ndim - 1];
  ct_tensor *smax = ct__own(ct__narrow_impl(S, -1, 0, 1)), *smin = ct__own(ct__narrow_impl(S, -1, k - 1, 1));
  ct_tensor *q = !smax || !smin ? NULL
                 : ord == -2     ? ct__pw_apply(&ct__pw_op_true_divide, smin, smax)
                                 : ct__pw_apply(&ct__pw_op_true_divide, smax, smin);
  return q ? ct__own(ct__squeeze_dim_impl(q, -1)) : NULL; /* squeezed for NumPy's shape */
}

/* 'nuc': sum(S) * sum(1 / S), not matrix_norm's, which would refuse infinities. Scope-owned. */
static ct_tensor *cond_nuclear(const ct_tensor *A) {
  ct_tensor *S = ct__la_svdvals_impl(A);
  ct_tensor *rs = S ? ct__pw_apply(&ct__pw_op_reciprocal, S, NULL) : NULL, *a = NULL, *b = NULL;
  int64_t last = -1;
  ct_reduce_opts ro = {.dims = {&last, 1}};
  if (!rs || ct__sum_impl(NULL, S, &ro, &a) != CT_OK || ct__sum_impl(NULL, rs, &ro, &b) != CT_OK) return NULL;
  return ct__pw_apply(&ct__pw_op_mul, a, b);
}

/* linalg_cond, both overloads, into a scope-owned result. */
static ct_tensor *cond_new(const ct_tensor *A, const ct_linalg_cond_opts *o) {
  double ord;
  if (!ct__la_norm_ord(o->ord, o->p, "ct_linalg_cond", &ord)) return NULL;
  if (o->ord == CT_NORM_FRO || o->ord == CT_NORM_NUC) {
    const char *api = o->ord == CT_NORM_FRO ? "linalg.cond(ord=fro)" : "linalg.cond(ord=nuc)";
    if (!ct__la_ndim_ok(A, api, "A") || !ct__la_square_ok(A, api)) return NULL;
    if (A->numel == 0) return empty_matrix_result(A);
    return o->ord == CT_NORM_NUC ? cond_nuclear(A) : cond_by_inverse(A, CT_NORM_FRO, o->p);
  }
  if (A->ndim < 2) {
    ct__error(CT_ERR_RUNTIME, "linalg.cond: The input tensor must have at least 2 dimensions.");
    return NULL;
  }
  ct_scalar p = o->ord == CT_NORM_P ? o->p : ct_scalar_int(2);
  if (o->ord == CT_NORM_DEFAULT) ord = 2;
  double a = fabs(ord);
  if (a != 2 && a != 1 && a != INFINITY) {
    ct__error(CT_ERR_RUNTIME, "linalg.cond got an invalid norm type: %g", ord);
    return NULL;
  }
  if (A->numel == 0) return empty_matrix_result(A);
  if (a == 2) return cond_by_svd(A, ord);
  /* std::to_string of the Scalar: a float as "%f" ("1.000000", "inf"), an int as an int */
  char api[64];
  if (p.kind == CT_SCALAR_DOUBLE)
    snprintf(api, sizeof api, "linalg.cond(ord=%f)", ord);
  else
    snprintf(api, sizeof api, "linalg.cond(ord=%lld)", (long long)ord);
  if (!ct__la_square_ok(A, api)) return NULL;
  return cond_by_inverse(A, CT_NORM_P, p);
}

static ct_status cond_impl(ct_tensor *out, const ct_tensor *A, const ct_linalg_cond_opts *opts, ct_tensor **res) {
  ct_linalg_cond_opts o = opts ? *opts : (ct_linalg_cond_opts){0};
  if (out) { /* checkSameDevice, then checkLinalgCompatibleDtype, before anything is computed */
    if (!ct__la_same_device_ok("linalg.cond", out, A)) return CT_ERR_RUNTIME;
    if (!ct__la_castable_ok(out, ct__la_real((ct_dtype)A->dtype), A, "linalg.cond", "result")) return CT_ERR_RUNTIME;
  }
  ct_status s = ct_scope_begin();
  if (s == CT_OK) {
    ct_tensor *r = cond_new(A, &o);
    s = !r ? ct_last_error() : out ? ct__join_copy_out(out, r) : CT_OK;
    if (s == CT_OK && !out) *res = ct_keep(r);
  }
  ct_scope_end();
  return s;
}

CT_RED_DEFINE_API(linalg_cond, &cond_op, ct_linalg_cond_opts, cond_impl, )
