/* linalg.qr and the legacy qr, geqrf, linalg.householder_product / orgqr and ormqr as torch 1.13's CPU kernels
   compute them: geqrf on the batched column-major copy of A, R its upper triangle, Q from orgqr / ungqr over
   geqrf's reflectors (linalg_qr_out), and ormqr / unmqr over a column-major copy of the reflectors
   (apply_geqrf, apply_orgqr, apply_ormqr), one matrix at a time with one workspace for the batch. */
#include "ops/linalg/linalg_internal.h"
#include "ops/join/join_internal.h"
#include "ops/sort/sort_internal.h"

#include <string.h>

/* meta: linalg_qr's structured kernel (its checks, Q and R column-major; no dtype dispatch) */
static const ct_op qr_op = CT_LINALG_META_OP("linalg_qr", "aten::linalg_qr");
static const ct_op qr_legacy_op = CT_LINALG_META_OP("linalg_qr", "aten::qr");
static const ct_op geqrf_op = CT_LINALG_OP("geqrf", "aten::geqrf");
static const ct_op hh_op = CT_LINALG_OP("linalg_householder_product", "aten::linalg_householder_product");
/* torch.orgqr is a composite of linalg_householder_product: its dispatcher messages name that op */
static const ct_op orgqr_op = CT_LINALG_OP("linalg_householder_product", "aten::linalg_householder_product");
static const ct_op ormqr_op = CT_LINALG_OP("ormqr", "aten::ormqr");

static int lda_of(int64_t rows) { return (int)(rows > 1 ? rows : 1); }

/* A LAPACK info that is not 0: the out-of-memory error, or torch's internal assert (never seen with valid
   arguments). */
static ct_status info_error(int info, const char *routine) {
  if (info == CT_LA_NO_MEMORY) {
    ct__oom_error(0);
    return CT_ERR_OUT_OF_MEMORY;
  }
  ct__error(CT_ERR_RUNTIME, "%s: LAPACK returned info = %d", routine, info);
  return CT_ERR_RUNTIME;
}

/* A new contiguous copy of t (its math bits applied). */
static ct_tensor *contiguous_copy(const ct_tensor *t) {
  ct_tensor *r = ct__la_empty(t, t->ndim, t->sizes, (ct_dtype)t->dtype);
  if (r && ct__copy_into(r, t) != CT_OK) {
    ct_release(r);
    return NULL;
  }
  return r;
}

/* geqrf over W's m x n matrices (batched column-major) into a new tau (batch + [min(m, n)], contiguous). */
static ct_tensor *geqrf_batch(ct_tensor *W) {
  int64_t nd = W->ndim, m = W->sizes[nd - 2], n = W->sizes[nd - 1], k = m < n ? m : n, nb = ct__la_batch(W);
  int64_t sz[CT_LA_MAXDIM];
  memcpy(sz, W->sizes, (size_t)nd * sizeof(int64_t));
  sz[nd - 2] = k;
  ct_tensor *tau = ct__la_empty(W, nd - 1, sz, (ct_dtype)W->dtype);
  int info = tau && k > 0 ? ct__la_geqrf_batch((ct_dtype)W->dtype, nb, (int)m, (int)n, ct__tdata(W),
                                               lda_of(m), m * n, ct__tdata(tau), k)
                          : 0;
  if (info != 0) {
    info_error(info, "geqrf");
    ct_release(tau);
    return NULL;
  }
  return tau;
}

/* orgqr over Q's m x n matrices (batched column-major) with k = tau.shape[-1] reflectors (tau contiguous);
   nothing for an empty Q (torch returns early). */
static ct_status orgqr_batch(ct_tensor *Q, const ct_tensor *tau) {
  int64_t nd = Q->ndim, m = Q->sizes[nd - 2], n = Q->sizes[nd - 1], k = tau->sizes[tau->ndim - 1];
  int64_t nb = ct__la_batch(Q);
  if (Q->numel == 0) return CT_OK;
  int info = ct__la_orgqr_batch((ct_dtype)Q->dtype, nb, (int)m, (int)n, (int)k, ct__tdata(Q), lda_of(m),
                                m * n, ct__tdata(tau), k);
  return info != 0 ? info_error(info, "orgqr") : CT_OK;
}

/* ---- linalg.qr ---- */

/* _parse_qr_mode. */
static bool parse_mode(const char *mode, bool *compute_q, bool *reduced) {
  const char *md = mode ? mode : "reduced";
  *compute_q = strcmp(md, "r") != 0;
  *reduced = strcmp(md, "complete") != 0;
  if (!strcmp(md, "reduced") || !strcmp(md, "complete") || !strcmp(md, "r")) return true;
  ct__error(CT_ERR_RUNTIME,
            "qr received unrecognized mode '%s' but expected one of 'reduced' (default), 'r', or 'complete'", md);
  return false;
}

/* linalg_qr's meta checks: A a matrix, floating, the mode. */
static bool qr_args(const ct_tensor *A, const char *mode, bool *compute_q, bool *reduced) {
  return ct__la_ndim_ok(A, "linalg.qr", "A") && ct__la_float_ok(A, "linalg.qr") &&
         parse_mode(mode, compute_q, reduced);
}

/* linalg_qr_out's computation: Q (batch + m x (reduced ? k : m), or [0] without Q) and R (batch + (reduced or
   no Q ? k : m) x n), both batched column-major. */
static ct_status qr_new(const ct_tensor *A, bool compute_q, bool reduced, ct_tensor **Q, ct_tensor **R) {
  *Q = *R = NULL;
  int64_t nd = A->ndim, m = A->sizes[nd - 2], n = A->sizes[nd - 1], k = m < n ? m : n;
  bool meta = A->device_type == CT_META; /* the results' geometry, nothing computed */
  if ((!meta && !ct__la_kernel_ok(A, "geqrf_cpu")) || !ct__la_int_ok(m) || !ct__la_int_ok(n))
    return ct_last_error();
  ct_dtype dt = (ct_dtype)A->dtype;
  int64_t sz[CT_LA_MAXDIM], zero = 0;
  memcpy(sz, A->sizes, (size_t)nd * sizeof(int64_t));
  int64_t qc = reduced ? k : m, rr = reduced || !compute_q ? k : m;
  ct_tensor *W = meta ? NULL : ct__la_colmajor_copy(A, nd, A->sizes), *tau = W ? geqrf_batch(W) : NULL,
            *q = NULL, *r = NULL;
  ct_status s = tau || meta ? CT_OK : ct_last_error();
  if (s == CT_OK) {
    sz[nd - 2] = rr;
    r = ct__la_empty_colmajor(A, nd, sz, dt);
    sz[nd - 2] = m;
    sz[nd - 1] = qc;
    q = compute_q ? ct__la_empty_colmajor(A, nd, sz, dt) : ct__la_empty(A, 1, &zero, dt);
    s = q && r ? CT_OK : ct_last_error();
  }
  if (s == CT_OK && !meta) { /* R: the upper triangle of geqrf's first rr rows (zeros below) */
    size_t isz = ct__itemsize(dt);
    int64_t nb = ct__la_batch(A);
    ct__la_zero(r);
    for (int64_t b = 0; b < nb; b++)
      for (int64_t j = 0; j < n; j++) {
        int64_t rows = j + 1 < rr ? j + 1 : rr;
        if (rows > 0) memcpy(ct__la_at(r, b * rr * n + j * rr), ct__la_at(W, b * m * n + j * m), (size_t)rows * isz);
      }
    if (compute_q) { /* Q's first min(qc, n) columns are geqrf's, the rest orgqr sets itself */
      int64_t cols = qc < n ? qc : n;
      for (int64_t b = 0; b < nb; b++)
        if (m * cols > 0) memcpy(ct__la_at(q, b * m * qc), ct__la_at(W, b * m * n), (size_t)(m * cols) * isz);
      s = orgqr_batch(q, tau);
    }
  }
  ct_release(W);
  ct_release(tau);
  if (s != CT_OK) {
    ct_release(q);
    ct_release(r);
    return s;
  }
  ct__grad_mark_result(q, A);
  ct__grad_mark_result(r, A);
  *Q = q;
  *R = r;
  return CT_OK;
}

static ct_status qr_common(const ct_tensor *A, const char *mode, ct_tensor *outQ, ct_tensor *outR, ct_tensor **Q,
                           ct_tensor **R) {
  bool cq, red;
  if (!qr_args(A, mode, &cq, &red)) return ct_last_error();
  ct_dtype dt = (ct_dtype)A->dtype;
  if (outQ && (!ct__la_out_ok(outQ, dt, A) || !ct__la_out_ok(outR, dt, A))) return ct_last_error();
  ct_tensor *r[2] = {NULL, NULL};
  ct_status s = qr_new(A, cq, red, &r[0], &r[1]);
  return ct__la_deliver2(r, outQ, outR, Q, R, s);
}

ct_status ct_linalg_qr(const ct_tensor *A, ct_tensor **Q, ct_tensor **R, const ct_linalg_qr_opts *opts) {
  if (Q) *Q = NULL;
  if (R) *R = NULL;
  CT__OP_ENTER_STATUS(&qr_op, A, A);
  return qr_common(A, opts ? opts->mode : NULL, NULL, NULL, Q, R);
}

ct_status ct_linalg_qr_out(ct_tensor *Q, ct_tensor *R, const ct_tensor *A, const ct_linalg_qr_opts *opts) {
  CT__OP_ENTER_STATUS(&qr_op, A, Q, R, A);
  if (!CT__OP_OUT_GRAD_OK(&qr_op, Q, R, A)) return CT_ERR_RUNTIME;
  return qr_common(A, opts ? opts->mode : NULL, Q, R, NULL, NULL);
}

ct_status ct_qr(const ct_tensor *A, ct_tensor **Q, ct_tensor **R, const ct_qr_opts *opts) {
  if (Q) *Q = NULL;
  if (R) *R = NULL;
  CT__OP_ENTER_STATUS(&qr_legacy_op, A, A);
  return qr_common(A, opts && opts->full ? "complete" : "reduced", NULL, NULL, Q, R);
}

ct_status ct_qr_out(ct_tensor *Q, ct_tensor *R, const ct_tensor *A, const ct_qr_opts *opts) {
  CT__OP_ENTER_STATUS(&qr_legacy_op, A, Q, R, A);
  if (!CT__OP_OUT_GRAD_OK(&qr_legacy_op, Q, R, A)) return CT_ERR_RUNTIME;
  return qr_common(A, opts && opts->full ? "complete" : "reduced", Q, R, NULL, NULL);
}

/* ---- geqrf ---- */

static ct_status geqrf_new(const ct_tensor *A, ct_tensor **a, ct_tensor **tau) {
  *a = *tau = NULL;
  int64_t nd = A->ndim;
  if (!ct__la_kernel_ok(A, "geqrf_cpu") || !ct__la_int_ok(A->sizes[nd - 2]) || !ct__la_int_ok(A->sizes[nd - 1]))
    return ct_last_error();
  ct_tensor *W = ct__la_colmajor_copy(A, nd, A->sizes), *t = W ? geqrf_batch(W) : NULL;
  if (!t) {
    ct_release(W);
    return ct_last_error();
  }
  ct__grad_mark_result(W, A);
  ct__grad_mark_result(t, A);
  *a = W;
  *tau = t;
  return CT_OK;
}

ct_status ct_geqrf(const ct_tensor *A, ct_tensor **a, ct_tensor **tau) {
  if (a) *a = NULL;
  if (tau) *tau = NULL;
  CT__OP_ENTER_STATUS(&geqrf_op, A, A);
  if (A->ndim < 2) {
    ct__error(CT_ERR_RUNTIME, "torch.geqrf: input must have at least 2 dimensions.");
    return CT_ERR_RUNTIME;
  }
  ct_tensor *r[2] = {NULL, NULL};
  ct_status s = geqrf_new(A, &r[0], &r[1]);
  return ct__la_deliver2(r, NULL, NULL, a, tau, s);
}

ct_status ct_geqrf_out(ct_tensor *a, ct_tensor *tau, const ct_tensor *A) {
  CT__NONNULL_STATUS(a, tau, A);
  if (!CT__OP_ACCEPTS(&geqrf_op, "aten::geqrf.a", A, a, tau)) return ct_last_error();
  if (!CT__OP_OUT_GRAD_OK(&geqrf_op, a, tau, A)) return CT_ERR_RUNTIME;
  if (A->ndim < 2) {
    ct__error(CT_ERR_RUNTIME, "torch.geqrf: input must have at least 2 dimensions.");
    return CT_ERR_RUNTIME;
  }
  ct_dtype dt = (ct_dtype)A->dtype;
  if (!ct__la_out_castable_ok(a, dt, A, "torch.geqrf", "a") || !ct__la_out_castable_ok(tau, dt, A, "torch.geqrf", "tau"))
    return ct_last_error();
  ct_tensor *r[2];
  ct_status s = geqrf_new(A, &r[0], &r[1]);
  if (s != CT_OK) return s;
  /* geqrf_out's copy_needed: a, tau used in place when empty or already of the result's layout and dtype */
  bool direct = a->dtype == A->dtype && tau->dtype == A->dtype &&
                (a->numel == 0 || (ct__la_is_colmajor(a) && a->ndim == r[0]->ndim &&
                                   !memcmp(a->sizes, r[0]->sizes, (size_t)a->ndim * sizeof(int64_t)))) &&
                (tau->numel == 0 || (ct_is_contiguous(tau, CT_CONTIGUOUS_FORMAT) && tau->ndim == r[1]->ndim &&
                                     !memcmp(tau->sizes, r[1]->sizes, (size_t)tau->ndim * sizeof(int64_t))));
  s = ct__la_write_out_direct(a, r[0], direct);
  /* an empty tau is resize_d (no memory format): its strides change only with its shape */
  if (s == CT_OK) s = ct__la_write_out_direct(tau, r[1], false);
  ct_release(r[0]);
  ct_release(r[1]);
  return s;
}

/* ---- linalg.householder_product / orgqr ---- */

static bool same_sizes(const int64_t *a, const int64_t *b, int64_t n) {
  return n <= 0 || !memcmp(a, b, (size_t)n * sizeof(int64_t));
}

/* "[2, 3]" */
static void sizes_str(char *buf, size_t cap, const int64_t *s, int64_t n) {
  size_t u = (size_t)snprintf(buf, cap, "[");
  for (int64_t i = 0; i < n && u < cap; i++) u += (size_t)snprintf(buf + u, cap - u, i ? ", %lld" : "%lld", (long long)s[i]);
  if (u < cap) snprintf(buf + u, cap - u, "]");
}

/* linalg_householder_product_out's checks, in torch's order (out: NULL or the out= tensor). */
static bool hh_args(const ct_tensor *A, const ct_tensor *tau, const ct_tensor *out) {
  const char *api = "torch.linalg.householder_product";
  if (A->ndim < 2) return ct__error(CT_ERR_RUNTIME, "%s: input must have at least 2 dimensions.", api), false;
  int64_t nd = A->ndim, m = A->sizes[nd - 2], n = A->sizes[nd - 1];
  if (m < n)
    return ct__error(CT_ERR_RUNTIME, "%s: input.shape[-2] must be greater than or equal to input.shape[-1]", api),
           false;
  int64_t k = tau->ndim > 0 ? tau->sizes[tau->ndim - 1] : 1;
  if (n < k)
    return ct__error(CT_ERR_RUNTIME, "%s: input.shape[-1] must be greater than or equal to tau.shape[-1]", api),
           false;
  if (nd - tau->ndim != 1)
    return ct__error(CT_ERR_RUNTIME,
                     "%s: Expected tau to have one dimension less than input, but got tau.ndim equal to %lld and "
                     "input.ndim is equal to %lld",
                     api, (long long)tau->ndim, (long long)nd),
           false;
  if (nd > 2 && !same_sizes(A->sizes, tau->sizes, nd - 2)) {
    char b[256];
    sizes_str(b, sizeof b, tau->sizes, tau->ndim - 1);
    return ct__error(CT_ERR_RUNTIME,
                     "%s: Expected batch dimensions of tau to be equal to input.shape[:-2], but got %s", api, b),
           false;
  }
  if (tau->dtype != A->dtype)
    return ct__error(CT_ERR_RUNTIME, "%s: tau dtype %s does not match input dtype %s", api,
                     ct__dt((ct_dtype)tau->dtype)->scalar_name, ct__dt((ct_dtype)A->dtype)->scalar_name),
           false;
  if (!ct__join_out_device_ok(tau, A)) return false;
  if (out && !ct__la_out_castable_ok(out, (ct_dtype)A->dtype, A, api, "result")) return false;
  return true;
}

/* householder_product_out_helper: orgqr over a column-major copy of A with a contiguous tau. */
static ct_tensor *hh_new(const ct_tensor *A, const ct_tensor *tau) {
  int64_t nd = A->ndim;
  if (!ct__la_kernel_ok(A, "orgqr_cpu") || !ct__la_int_ok(A->sizes[nd - 2])) return NULL;
  ct_tensor *W = ct__la_colmajor_copy(A, nd, A->sizes), *t = W ? contiguous_copy(tau) : NULL;
  ct_status s = t ? orgqr_batch(W, t) : ct_last_error();
  ct_release(t);
  if (s != CT_OK) {
    ct_release(W);
    return NULL;
  }
  ct__grad_mark_out(W, (const ct_tensor *const[]){A, tau}, 2);
  return W;
}

static ct_tensor *hh_public(const ct_op *op, const ct_tensor *A, const ct_tensor *tau) {
  CT__OP_ENTER_PTR(op, A, A, tau);
  if (!CT__OP_ACCEPTS(op, op->aten, A, tau)) return NULL;
  return hh_args(A, tau, NULL) ? ct__own(hh_new(A, tau)) : NULL;
}

static ct_status hh_public_out(const ct_op *op, ct_tensor *out, const ct_tensor *A, const ct_tensor *tau) {
  CT__NONNULL_STATUS(out, A, tau);
  if (!CT__OP_ACCEPTS(op, "aten::linalg_householder_product.out", A, tau, out)) return ct_last_error();
  if (!CT__OP_OUT_GRAD_OK(op, out, A, tau)) return CT_ERR_RUNTIME;
  if (!hh_args(A, tau, out)) return ct_last_error();
  ct_tensor *r = hh_new(A, tau);
  if (!r) return ct_last_error();
  bool direct = out->dtype == A->dtype &&
                (out->numel == 0 || (ct__la_is_colmajor(out) && out->ndim == r->ndim &&
                                     same_sizes(out->sizes, r->sizes, r->ndim)));
  ct_status s = ct__la_write_out_direct(out, r, direct);
  ct_release(r);
  return s;
}

ct_tensor *ct_linalg_householder_product(const ct_tensor *A, const ct_tensor *tau) {
  return hh_public(&hh_op, A, tau);
}
ct_status ct_linalg_householder_product_out(ct_tensor *out, const ct_tensor *A, const ct_tensor *tau) {
  return hh_public_out(&hh_op, out, A, tau);
}
ct_tensor *ct_orgqr(const ct_tensor *A, const ct_tensor *tau) { return hh_public(&orgqr_op, A, tau); }
ct_status ct_orgqr_out(ct_tensor *out, const ct_tensor *A, const ct_tensor *tau) {
  return hh_public_out(&orgqr_op, out, A, tau);
}

/* ---- ormqr ---- */

/* ormqr_out's checks, in torch's order (out: NULL or the out= tensor). */
static bool ormqr_args(const ct_tensor *A, const ct_tensor *tau, const ct_tensor *C, bool left,
                       const ct_tensor *out) {
  const char *api = "torch.ormqr";
  if (A->ndim < 2) return ct__error(CT_ERR_RUNTIME, "%s: input must have at least 2 dimensions.", api), false;
  if (C->ndim < 2) return ct__error(CT_ERR_RUNTIME, "%s: other must have at least 2 dimensions.", api), false;
  int cond = left ? -2 : -1;
  int64_t cs = C->sizes[C->ndim + cond], k = tau->ndim > 0 ? tau->sizes[tau->ndim - 1] : 1;
  if (cs < k)
    return ct__error(CT_ERR_RUNTIME, "%s: other.shape[%d] must be greater than or equal to tau.shape[-1]", api,
                     cond),
           false;
  if (cs != A->sizes[A->ndim - 2])
    return ct__error(CT_ERR_RUNTIME, "%s: other.shape[%d] must be equal to input.shape[-2]", api, cond), false;
  if (k > A->sizes[A->ndim - 1])
    return ct__error(CT_ERR_RUNTIME, "%s: tau.shape[-1] must be less than or equal to input.shape[-1]", api),
           false;
  if (A->ndim - tau->ndim != 1)
    return ct__error(CT_ERR_RUNTIME,
                     "%s: Expected tau to have one dimension less than input, but got tau.ndim equal to %lld and "
                     "input.ndim is equal to %lld",
                     api, (long long)tau->ndim, (long long)A->ndim),
           false;
  if (A->ndim != C->ndim)
    return ct__error(CT_ERR_RUNTIME,
                     "%s: Expected other to have the same number of dimensions as input, but got other.ndim equal "
                     "to %lld and input.ndim is equal to %lld",
                     api, (long long)C->ndim, (long long)A->ndim),
           false;
  char b[256];
  if (A->ndim > 2 && !same_sizes(A->sizes, tau->sizes, A->ndim - 2)) {
    sizes_str(b, sizeof b, tau->sizes, tau->ndim - 1);
    return ct__error(CT_ERR_RUNTIME,
                     "%s: Expected batch dimensions of tau to be equal to input.shape[:-2], but got %s", api, b),
           false;
  }
  if (A->ndim > 2 && !same_sizes(A->sizes, C->sizes, A->ndim - 2)) {
    sizes_str(b, sizeof b, C->sizes, C->ndim - 2);
    return ct__error(CT_ERR_RUNTIME,
                     "%s: Expected batch dimensions of other to be equal to input.shape[:-2], but got %s", api, b),
           false;
  }
  const char *an = ct__dt((ct_dtype)A->dtype)->scalar_name;
  if (tau->dtype != A->dtype)
    return ct__error(CT_ERR_RUNTIME,
                     "%s: Expected input and tau to have the same dtype, but input has dtype%s and tau has dtype %s",
                     api, an, ct__dt((ct_dtype)tau->dtype)->scalar_name),
           false;
  if (C->dtype != A->dtype)
    return ct__error(CT_ERR_RUNTIME,
                     "%s: Expected input and other to have the same dtype, but input has dtype%s and other has dtype "
                     "%s",
                     api, an, ct__dt((ct_dtype)C->dtype)->scalar_name),
           false;
  if (out && out->dtype != A->dtype)
    return ct__error(CT_ERR_RUNTIME,
                     "%s: Expected input and result to have the same dtype, but input has dtype%s and result has "
                     "dtype %s",
                     api, an, ct__dt((ct_dtype)out->dtype)->scalar_name),
           false;
  if (!ct__join_out_device_ok(tau, A) || !ct__join_out_device_ok(C, A)) return false;
  if (out && !ct__join_out_device_ok(out, A)) return false;
  return true;
}

/* ormqr_out_helper: other's column-major copy times Q (apply_ormqr). */
static ct_tensor *ormqr_new(const ct_tensor *A, const ct_tensor *tau, const ct_tensor *C, bool left, bool trans) {
  int64_t nd = C->ndim, m = C->sizes[nd - 2], n = C->sizes[nd - 1], k = tau->sizes[tau->ndim - 1];
  ct_dtype dt = (ct_dtype)A->dtype;
  if (!ct__la_kernel_ok(A, "ormqr_cpu") || !ct__la_int_ok(m) || !ct__la_int_ok(n)) return NULL;
  ct_tensor *R = ct__la_colmajor_copy(C, nd, C->sizes);
  ct_tensor *W = R ? ct__la_colmajor_copy(A, A->ndim, A->sizes) : NULL, *t = W ? contiguous_copy(tau) : NULL;
  ct_status s = t ? CT_OK : ct_last_error();
  char side = left ? 'L' : 'R', tr = !trans ? 'N' : ct__dt(dt)->category == CT_CAT_COMPLEX ? 'C' : 'T';
  int64_t nb = ct__la_batch(C), am = A->sizes[A->ndim - 2], an = A->sizes[A->ndim - 1];
  if (s == CT_OK && R->numel > 0 && k > 0) {
    int info =
        ct__la_ormqr_batch(dt, nb, side, tr, (int)m, (int)n, (int)k, ct__tdata(W), lda_of(left ? m : n),
                           am * an, ct__tdata(t), k, ct__tdata(R), lda_of(m), m * n);
    if (info != 0) s = info_error(info, "ormqr");
  }
  ct_release(W);
  ct_release(t);
  if (s != CT_OK) {
    ct_release(R);
    return NULL;
  }
  ct__grad_mark_out(R, (const ct_tensor *const[]){A, tau, C}, 3);
  return R;
}

ct_tensor *ct_ormqr(const ct_tensor *A, const ct_tensor *tau, const ct_tensor *other, const ct_ormqr_opts *opts) {
  CT__OP_ENTER_PTR(&ormqr_op, A, A, tau, other);
  if (!CT__OP_ACCEPTS(&ormqr_op, ormqr_op.aten, A, tau, other)) return NULL;
  bool left = !(opts && opts->right), trans = opts && opts->transpose;
  return ormqr_args(A, tau, other, left, NULL) ? ct__own(ormqr_new(A, tau, other, left, trans)) : NULL;
}

ct_status ct_ormqr_out(ct_tensor *out, const ct_tensor *A, const ct_tensor *tau, const ct_tensor *other,
                       const ct_ormqr_opts *opts) {
  CT__NONNULL_STATUS(out, A, tau, other);
  if (!CT__OP_OUT_GRAD_OK(&ormqr_op, out, A, tau, other)) return CT_ERR_RUNTIME;
  if (!CT__OP_ACCEPTS(&ormqr_op, "aten::ormqr.out", A, tau, other, out)) return ct_last_error();
  bool left = !(opts && opts->right), trans = opts && opts->transpose;
  if (!ormqr_args(A, tau, other, left, out)) return ct_last_error();
  ct_tensor *r = ormqr_new(A, tau, other, left, trans);
  if (!r) return ct_last_error();
  bool direct = out->numel == 0 || (ct__la_is_colmajor(out) && out->ndim == r->ndim &&
                                    same_sizes(out->sizes, r->sizes, r->ndim));
  ct_status s = ct__la_write_out_direct(out, r, direct);
  ct_release(r);
  return s;
}
