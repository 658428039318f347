/* linalg.solve(_ex) and linalg.inv(_ex) (torch.inverse) as torch 1.13's _linalg_solve_ex computes them: the LU
   factorization of A (getrf; of A^T, solved with trans 'T', when A is a contiguous real tensor: torch's shortcut,
   which decides the last bits), then getrs on B broadcast against A's batch, column-major. left=False solves
   A^H X^H = B^H. inv is solve against the identity. The plain forms check info after the solve with torch's
   messages ("torch.linalg.solve: ...", "linalg.inv: ..."); nothing is written to an out= tensor before. */
#include "ops/linalg/linalg_internal.h"

#include "iter/iter.h"

#include <string.h>

static const ct_op solve_op = CT_LINALG_META_OP("_linalg_solve_ex", "aten::linalg_solve");
static const ct_op solve_ex_op = CT_LINALG_META_OP("_linalg_solve_ex", "aten::linalg_solve_ex");
static const ct_op inv_op = CT_LINALG_META_OP("linalg_inv_ex", "aten::linalg_inv");
static const ct_op inv_ex_op = CT_LINALG_META_OP("linalg_inv_ex", "aten::linalg_inv_ex");
static const ct_op inverse_op = CT_LINALG_META_OP("linalg_inv_ex", "aten::inverse");

/* What the checks decide about a solve. */
typedef struct solve_plan {
  bool vector, left;
  int64_t ndim;                /* of the broadcast B (as a matrix) */
  int64_t sizes[CT_LA_MAXDIM]; /* the broadcast B's shape (as a matrix) */
} solve_plan;

/* linalg_solve_is_vector_rhs: B is 1-D, or has A's shape without its last dim. */
static bool vector_rhs(const ct_tensor *A, const ct_tensor *B) {
  if (B->ndim == 1) return true;
  if (A->ndim - 1 != B->ndim) return false;
  return memcmp(A->sizes, B->sizes, (size_t)B->ndim * sizeof(int64_t)) == 0;
}

/* _linalg_solve_ex's meta checks, in torch's order. */
static bool solve_args(const ct_tensor *A, const ct_tensor *B, bool left, solve_plan *p) {
  const char *api = "linalg.solve";
  if (!ct__la_float_ok(A, api)) return false;
  if (A->dtype != B->dtype) {
    ct__error(CT_ERR_RUNTIME,
              "%s: Expected A and B to have the same dtype, but found A of type %s and B of type %s "
              "instead",
              api, ct__dt((ct_dtype)A->dtype)->scalar_name, ct__dt((ct_dtype)B->dtype)->scalar_name);
    return false;
  }
  p->vector = A->ndim >= 1 && vector_rhs(A, B);
  p->left = left;
  if (!ct__la_ndim_ok(A, api, "A") || !ct__la_square_ok(A, api)) return false;
  int64_t bnd = B->ndim + (p->vector ? 1 : 0), bs[CT_LA_MAXDIM];
  if (bnd < 2) {
    ct__error(CT_ERR_RUNTIME, "%s: The input tensor B must have at least 2 dimensions.", api);
    return false;
  }
  if (bnd > CT_LA_MAXDIM || A->ndim > CT_LA_MAXDIM) {
    ct__error(CT_ERR_RUNTIME, "%s: too many dimensions", api);
    return false;
  }
  memcpy(bs, B->sizes, (size_t)B->ndim * sizeof(int64_t));
  if (p->vector) bs[bnd - 1] = 1;
  int64_t am = A->sizes[A->ndim - 2], an = A->sizes[A->ndim - 1], bm = bs[bnd - 2], bn = bs[bnd - 1];
  if (left ? am != bm : an != bn) {
    ct__error(CT_ERR_RUNTIME,
              "%s: Incompatible shapes of A and B for the equation %s (%lldx%lld and %lldx%lld)", api,
              left ? "AX = B" : "XA = B", (long long)am, (long long)an, (long long)bm, (long long)bn);
    return false;
  }
  /* B's batch broadcast with A's */
  int64_t nb = bnd - 2 > A->ndim - 2 ? bnd - 2 : A->ndim - 2;
  if (ct__broadcast_shapes(bs, bnd - 2, A->sizes, A->ndim - 2, p->sizes) != CT_OK) return false;
  p->sizes[nb] = bm;
  p->sizes[nb + 1] = bn;
  p->ndim = nb + 2;
  if (!left && p->vector) {
    ct__error(CT_ERR_RUNTIME,
              "%s: Vector broadcasting of the left hand side is not supported for left=False. In this "
              "case linalg.solve is equivalent to B / A.squeeze(-1)",
              api);
    return false;
  }
  return true;
}

/* The result's geometry: batched column-major (left) or contiguous (left=False), a vector's the column-major
   strides of the shape without the last dim. */
static ct_tensor *result_empty(const ct_tensor *A, const solve_plan *p) {
  int64_t nd = p->vector ? p->ndim - 1 : p->ndim;
  return p->left ? ct__la_empty_colmajor(A, nd, p->sizes, (ct_dtype)A->dtype)
                 : ct__la_empty(A, nd, p->sizes, (ct_dtype)A->dtype);
}

/* The index into A's batch of the broadcast batch element b. */
static int64_t a_batch_index(const ct_tensor *A, const solve_plan *p, int64_t b) {
  int64_t nbd = p->ndim - 2, and = A->ndim - 2, idx = 0, mul = 1;
  for (int64_t d = nbd - 1; d >= 0; d--) {
    int64_t size = p->sizes[d], i = b % size;
    b /= size;
    int64_t ad = d - (nbd - and);
    if (ad >= 0) {
      if (A->sizes[ad] != 1) idx += i * mul;
      mul *= A->sizes[ad];
    }
  }
  return idx;
}

typedef struct getrs_job {
  const ct_tensor *A, *LU, *piv, *W;
  const solve_plan *p;
  int64_t n, k;
  char trans;
} getrs_job;

static void getrs_one(void *c, int64_t b) {
  const getrs_job *j = c;
  int64_t ab = a_batch_index(j->A, j->p, b), n = j->n;
  ct__la_getrs((ct_dtype)j->A->dtype, j->trans, (int)n, (int)j->k, ct__la_at(j->LU, ab * n * n), (int)n,
               (const int *)ct__la_at(j->piv, ab * n), ct__la_at(j->W, b * n * j->k), (int)n);
}

/* The meta path of solve_new: the result's and info's geometry as the CPU path leaves them (the workspace's
   batched column-major layout, or result_empty's for a vector or left=False), no values; torch's meta result
   of a complex left=False solve has no conjugate bit (its lazy .conj() of a meta tensor materializes). */
static ct_status solve_meta(const ct_tensor *A, const solve_plan *p, ct_tensor *W, ct_tensor **result,
                            ct_tensor **info) {
  ct_release(W);
  ct_dtype dt = (ct_dtype)A->dtype;
  ct_tensor *r = p->left && !p->vector ? ct__la_empty_colmajor(A, p->ndim, p->sizes, dt) : result_empty(A, p);
  ct_tensor *inf = r ? ct__la_empty(A, A->ndim - 2, A->sizes, CT_INT32) : NULL;
  if (!inf) {
    ct_release(r);
    return ct_last_error();
  }
  ct__grad_mark_result(r, A);
  *result = r;
  *info = inf;
  return CT_OK;
}

/* Solves into *result (new, torch's geometry) and *info (A's batch): the body of _linalg_solve_ex. W: the
   right-hand sides already in their batched column-major workspace of p's shape (left, not a vector: inv's
   identity, solved in place as torch's linalg_inv_ex solves into its result), taken over; NULL: built from B. */
static ct_status solve_new(const ct_tensor *A, const ct_tensor *B, const solve_plan *p, ct_tensor *W,
                           ct_tensor **result, ct_tensor **info) {
  *result = *info = NULL;
  ct_dtype dt = (ct_dtype)A->dtype;
  bool cx = ct__dt(dt)->category == CT_CAT_COMPLEX;
  if (A->device_type == CT_META) return solve_meta(A, p, W, result, info);
  bool use_t = !cx && ct__geom_is_contiguous(A->ndim, A->sizes, A->strides);
  ct_tensor *LU, *piv, *inf;
  ct_status s = ct__la_lu_factor(A, use_t, &LU, &piv, &inf);
  if (s != CT_OK) {
    ct_release(W);
    return s;
  }
  int64_t n = A->sizes[A->ndim - 1];
  int64_t ws[CT_LA_MAXDIM];
  memcpy(ws, p->sizes, (size_t)p->ndim * sizeof(int64_t));
  if (!p->left) {
    ws[p->ndim - 2] = p->sizes[p->ndim - 1];
    ws[p->ndim - 1] = p->sizes[p->ndim - 2];
  }
  if (!W) { /* the right-hand sides, column-major: B (left) or B^H (left=False, then the adjoint's solve) */
    ct_tensor *Bm = p->vector ? ct__unsqueeze_impl(B, -1) : ct__alias_impl(B);
    ct_tensor *Bh = Bm && !p->left ? ct__transpose_impl(Bm, -2, -1) : NULL,
              *Bc = Bh && cx ? ct__conj_impl(Bh) : NULL;
    const ct_tensor *rhs = p->left ? Bm : cx ? Bc : Bh;
    W = rhs ? ct__la_colmajor_copy(rhs, p->ndim, ws) : NULL;
    ct_release(Bm);
    ct_release(Bh);
    ct_release(Bc);
  }
  bool adjoint = use_t != !p->left;
  char trans = !adjoint ? 'N' : cx ? 'C' : 'T';
  int64_t k = ws[p->ndim - 1], nb = W ? ct__la_batch(W) : 0;
  if (W && n > 0 && k > 0) {
    if (!ct__la_int_ok(k)) {
      ct_release(W);
      W = NULL;
    }
    getrs_job j = {.A = A, .p = p, .LU = LU, .piv = piv, .W = W, .n = n, .k = k, .trans = trans};
    if (W) ct__la_for_each_matrix(nb, n, n > k ? n : k, getrs_one, &j);
  }
  ct_release(LU);
  ct_release(piv);
  if (!W) {
    ct_release(inf);
    return ct_last_error();
  }
  ct_tensor *r = W;
  if (p->vector || !p->left) {
    /* into torch's geometry: the vector squeezed, or X = (X^H)^H, which torch returns as a contiguous
       tensor holding conj(X) with the conjugate bit set (its lazy .conj() of the transposed solution) */
    ct_tensor *v = p->vector ? ct__squeeze_dim_impl(W, -1) : ct__transpose_impl(W, -2, -1);
    r = v ? result_empty(A, p) : NULL;
    s = r ? ct__copy_into(r, v) : ct_last_error();
    if (s == CT_OK && !p->left && cx && r->numel > 0) r->flags |= CT_TENSOR_CONJ;
    ct_release(v);
    ct_release(W);
    if (s != CT_OK) {
      ct_release(r);
      ct_release(inf);
      return s;
    }
  }
  ct__grad_mark_result(r, A);
  if (B) ct__grad_mark_result(r, B);
  *result = r;
  *info = inf;
  return CT_OK;
}

/* ---- linalg.solve ---- */

static ct_status solve_common(const ct_tensor *A, const ct_tensor *B, const ct_linalg_solve_opts *opts,
                              bool ex, ct_tensor *out, ct_tensor *out_info, ct_tensor **result,
                              ct_tensor **info) {
  solve_plan p;
  bool left = !(opts && opts->right), check = !ex || (opts && opts->check_errors);
  if (!solve_args(A, B, left, &p)) return ct_last_error();
  if (out && !ct__la_out_ok(out, (ct_dtype)A->dtype, A)) return ct_last_error();
  if (out_info && !ct__la_out_ok(out_info, CT_INT32, A)) return ct_last_error();
  /* lu_cpu's dtypes: the CPU kernel's dispatch (the meta kernel has none) */
  if (A->numel > 0 && A->device_type != CT_META && !ct__la_kernel_ok(A, "lu_cpu")) return ct_last_error();
  ct_tensor *r[2];
  ct_status s = solve_new(A, B, &p, NULL, &r[0], &r[1]);
  if (s == CT_OK && check && !ct__la_check_errors(r[1], ex ? "torch.linalg.solve_ex" : "torch.linalg.solve"))
    s = ct_last_error();
  return ct__la_deliver2(r, out, out_info, result, info, s);
}

ct_tensor *ct_linalg_solve(const ct_tensor *A, const ct_tensor *B, const ct_linalg_solve_opts *opts) {
  CT__NONNULL_PTR(A, B);
  if (!CT__OP_ACCEPTS(&solve_op, solve_op.aten, A, B)) return NULL;
  ct_tensor *r = NULL;
  ct_linalg_solve_opts o = {.right = opts && opts->right};
  return solve_common(A, B, &o, false, NULL, NULL, &r, NULL) == CT_OK ? r : NULL;
}

ct_status ct_linalg_solve_out(ct_tensor *out, const ct_tensor *A, const ct_tensor *B,
                              const ct_linalg_solve_opts *opts) {
  CT__NONNULL_STATUS(out, A, B);
  if (!CT__OP_ACCEPTS(&solve_op, solve_op.aten, A, B)) return ct_last_error();
  if (!CT__OP_OUT_GRAD_OK(&solve_op, out, A, B)) return CT_ERR_RUNTIME;
  ct_linalg_solve_opts o = {.right = opts && opts->right};
  return solve_common(A, B, &o, false, out, NULL, NULL, NULL);
}

ct_status ct_linalg_solve_ex(const ct_tensor *A, const ct_tensor *B, ct_tensor **result, ct_tensor **info,
                             const ct_linalg_solve_opts *opts) {
  if (result) *result = NULL;
  if (info) *info = NULL;
  CT__NONNULL_STATUS(A, B);
  if (!CT__OP_ACCEPTS(&solve_ex_op, solve_ex_op.aten, A, B)) return ct_last_error();
  return solve_common(A, B, opts, true, NULL, NULL, result, info);
}

ct_status ct_linalg_solve_ex_out(ct_tensor *result, ct_tensor *info, const ct_tensor *A, const ct_tensor *B,
                                 const ct_linalg_solve_opts *opts) {
  CT__NONNULL_STATUS(result, info, A, B);
  if (!CT__OP_ACCEPTS(&solve_ex_op, solve_ex_op.aten, A, B)) return ct_last_error();
  if (!CT__OP_OUT_GRAD_OK(&solve_ex_op, result, info, A, B)) return CT_ERR_RUNTIME;
  return solve_common(A, B, opts, true, result, info, NULL, NULL);
}

/* ---- linalg.inv ---- */

/* The solve against the identity (A checked): the inverse and info, new. The identity is written straight into
   the solve's column-major workspace for each matrix of the batch (torch: result.zero_(), its diagonal filled
   with 1, then solved in place). */
static ct_status inv_new(const ct_tensor *A, ct_tensor **result, ct_tensor **info) {
  *result = *info = NULL;
  if (A->ndim > CT_LA_MAXDIM)
    return (ct__error(CT_ERR_RUNTIME, "linalg.inv: too many dimensions"), CT_ERR_RUNTIME);
  solve_plan p = {.vector = false, .left = true, .ndim = A->ndim};
  memcpy(p.sizes, A->sizes, (size_t)A->ndim * sizeof(int64_t));
  ct_dtype dt = (ct_dtype)A->dtype;
  int64_t n = A->sizes[A->ndim - 1], nb = ct__la_batch(A);
  ct_tensor *W = ct__la_empty_colmajor(A, A->ndim, A->sizes, dt);
  if (!W) return ct_last_error();
  if (W->device_type == CT_META) nb = 0; /* no values */
  ct__la_zero(W);
  size_t isz = ct__itemsize(dt);
  char one[16];
  ct__store_scalar(dt, one, ct_scalar_int(1));
  for (int64_t b = 0; b < nb; b++)
    for (int64_t i = 0; i < n; i++) memcpy(ct__la_at(W, b * n * n + i * n + i), one, isz);
  return solve_new(A, NULL, &p, W, result, info);
}

/* linalg_inv_ex's checks, then solve against the identity. */
static ct_status inv_common(const ct_tensor *A, bool check, const char *api, ct_tensor *out,
                            ct_tensor *out_info, ct_tensor **result, ct_tensor **info) {
  const char *name = "linalg.inv";
  if (!ct__la_ndim_ok(A, name, "A") || !ct__la_square_ok(A, name) || !ct__la_float_ok(A, name) ||
      !ct__la_lowprec_ok(A, name))
    return ct_last_error();
  if (out && !ct__la_out_ok(out, (ct_dtype)A->dtype, A)) return ct_last_error();
  if (out_info && !ct__la_out_ok(out_info, CT_INT32, A)) return ct_last_error();
  ct_tensor *r[2] = {NULL, NULL};
  ct_status s = inv_new(A, &r[0], &r[1]);
  if (s == CT_OK && check && !ct__la_check_errors(r[1], api)) s = ct_last_error();
  return ct__la_deliver2(r, out, out_info, result, info, s);
}

static ct_tensor *inv_fn(const ct_op *op, const ct_tensor *A) {
  CT__OP_ENTER_PTR(op, A, A);
  ct_tensor *r = NULL;
  return inv_common(A, true, "linalg.inv", NULL, NULL, &r, NULL) == CT_OK ? r : NULL;
}
static ct_status inv_out_fn(const ct_op *op, ct_tensor *out, const ct_tensor *A) {
  CT__OP_ENTER_STATUS(op, A, out, A);
  if (!CT__OP_OUT_GRAD_OK(op, out, A)) return CT_ERR_RUNTIME;
  return inv_common(A, true, "linalg.inv", out, NULL, NULL, NULL);
}

ct_tensor *ct_linalg_inv(const ct_tensor *A) { return inv_fn(&inv_op, A); }
ct_tensor *ct_inverse(const ct_tensor *A) { return inv_fn(&inverse_op, A); }
ct_status ct_linalg_inv_out(ct_tensor *out, const ct_tensor *A) { return inv_out_fn(&inv_op, out, A); }
ct_status ct_inverse_out(ct_tensor *out, const ct_tensor *A) { return inv_out_fn(&inverse_op, out, A); }

ct_status ct_linalg_inv_ex(const ct_tensor *A, ct_tensor **inverse, ct_tensor **info,
                           const ct_linalg_ex_opts *opts) {
  if (inverse) *inverse = NULL;
  if (info) *info = NULL;
  CT__OP_ENTER_STATUS(&inv_ex_op, A, A);
  return inv_common(A, opts && opts->check_errors, "linalg.inv_ex", NULL, NULL, inverse, info);
}

ct_status ct_linalg_inv_ex_out(ct_tensor *inverse, ct_tensor *info, const ct_tensor *A,
                               const ct_linalg_ex_opts *opts) {
  CT__OP_ENTER_STATUS(&inv_ex_op, A, inverse, info, A);
  if (!CT__OP_OUT_GRAD_OK(&inv_ex_op, inverse, info, A)) return CT_ERR_RUNTIME;
  return inv_common(A, opts && opts->check_errors, "linalg.inv_ex", inverse, info, NULL, NULL);
}

/* ---- the _impls the eig family's composites call (matrix_power, tensorinv, tensorsolve) ---- */

/* The solve's result (unowned) once info is checked with api's messages; releases info. */
static ct_tensor *checked_result(ct_status s, ct_tensor *r, ct_tensor *info, const char *api) {
  if (s == CT_OK && !ct__la_check_errors(info, api)) s = ct_last_error();
  ct_release(info);
  if (s != CT_OK) {
    ct_release(r);
    return NULL;
  }
  return r;
}

ct_tensor *ct__la_inv_impl(const ct_tensor *A, const char *api) {
  const char *name = "linalg.inv";
  if (!ct__la_ndim_ok(A, name, "A") || !ct__la_square_ok(A, name) || !ct__la_float_ok(A, name) ||
      !ct__la_lowprec_ok(A, name))
    return NULL;
  ct_tensor *r = NULL, *info = NULL;
  ct_status s = inv_new(A, &r, &info);
  return checked_result(s, r, info, api);
}

ct_tensor *ct__la_solve_impl(const ct_tensor *A, const ct_tensor *B) {
  solve_plan p;
  if (!solve_args(A, B, true, &p)) return NULL;
  if (A->numel > 0 && A->device_type != CT_META && !ct__la_kernel_ok(A, "lu_cpu")) return NULL;
  ct_tensor *r = NULL, *info = NULL;
  ct_status s = solve_new(A, B, &p, NULL, &r, &info);
  return checked_result(s, r, info, "torch.linalg.solve");
}

/* ---- the _impl the norm family's composites call (cond) ---- */

ct_status ct__la_inv_ex_impl(const ct_tensor *A, ct_tensor **inverse, ct_tensor **info) {
  *inverse = *info = NULL;
  if (!ct__op_table(&inv_ex_op, A, "aten::linalg_inv_ex")) return ct_last_error(); /* no LAPACK on meta */
  return inv_common(A, false, "linalg.inv_ex", NULL, NULL, inverse, info);
}
