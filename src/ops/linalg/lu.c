/* linalg.lu_factor(_ex), the legacy torch.lu, linalg.lu and lu_unpack as torch 1.13 computes them on the CPU:
   getrf on A's batched column-major copy (linalg_lu_factor_ex: an empty A is returned as is, info zeroed, before
   the dtype's kernel is looked up), then lu_unpack's tril / triu of LU and its permutation matrix (perm starts as
   the identity, perm[i] and perm[pivots[i] - 1] swapped for each i, P[perm[j], j] = 1), all contiguous. */
#include "ops/linalg/linalg_internal.h"
#include "ops/sort/sort_internal.h"

#include <stdio.h>
#include <string.h>

/* meta: the structured kernels' geometry (linalg_lu_factor_ex, linalg_lu, lu_unpack: no dtype dispatch, no pivot
   or value checks) */
static const ct_op lu_factor_op = CT_LINALG_META_OP("linalg_lu_factor_ex", "aten::linalg_lu_factor");
static const ct_op lu_factor_ex_op = CT_LINALG_META_OP("linalg_lu_factor_ex", "aten::linalg_lu_factor_ex");
static const ct_op lu_legacy_op = CT_LINALG_META_OP("linalg_lu_factor_ex", "aten::_lu_with_info");
static const ct_op linalg_lu_op = CT_LINALG_META_OP("linalg_lu", "aten::linalg_lu");
static const ct_op lu_unpack_op = CT_LINALG_META_OP("lu_unpack", "aten::lu_unpack");

/* "torch.lu_factor: Expected tensor with 2 or more dimensions. Got size: [3] instead" */
static bool matrix_ok(const ct_tensor *t, const char *api) {
  if (t->ndim >= 2) return true;
  char buf[128] = "[";
  for (int64_t d = 0; d < t->ndim; d++)
    snprintf(buf + strlen(buf), sizeof buf - strlen(buf), "%s%lld", d ? ", " : "", (long long)t->sizes[d]);
  ct__error(CT_ERR_RUNTIME, "%s: Expected tensor with 2 or more dimensions. Got size: %s] instead", api, buf);
  return false;
}

/* _linalg_check_errors's message for lu_factor (a RuntimeError in torch 1.13). */
static bool lu_info_ok(const ct_tensor *info, const char *api) {
  if (info->device_type == CT_META) return true; /* no values: the meta path checks nothing */
  const int32_t *p = (const int32_t *)ct__tdata(info);
  for (int64_t i = 0; i < info->numel; i++) {
    if (p[i] == 0) continue;
    char batch[64] = "";
    if (info->ndim > 0) snprintf(batch, sizeof batch, ": (Batch element %lld)", (long long)i);
    ct__error(
        CT_ERR_RUNTIME,
        "%s%s: U[%d,%d] is zero and using it on lu_solve would result in a division by zero. If you still "
        "want to perform the factorization, consider calling linalg.lu(A, pivot) or linalg.lu_factor_ex(A, "
        "pivot)",
        api, batch, p[i], p[i]);
    return false;
  }
  return true;
}

/* linalg_lu_factor_ex's kernel part: r = {LU, pivots, info} (new, unowned). */
static ct_status factor_new(const ct_tensor *A, bool pivot, ct_tensor **r) {
  r[0] = r[1] = r[2] = NULL;
  if (A->numel > 0 && A->device_type != CT_META) {
    if (!ct__la_kernel_ok(A, "lu_cpu")) return ct_last_error();
    if (!pivot) {
      ct__error(CT_ERR_RUNTIME, "linalg.lu_factor: LU without pivoting is not implemented on the CPU");
      return CT_ERR_RUNTIME;
    }
  }
  ct_status s = ct__la_lu_factor(A, false, &r[0], &r[1], &r[2]);
  if (s == CT_OK) ct__grad_mark_result(r[0], A);
  return s;
}

/* Hands r[0..n) out through want or writes them into outs (a NULL entry: not written); releases them on failure. */
static ct_status deliver(ct_tensor **r, int n, ct_tensor *const *outs, ct_tensor **const *want, ct_status s) {
  if (outs) return ct__la_write_outs(r, outs, n, s);
  return ct__sort_hand_out(r, want, n, s);
}

static bool outs_ok(ct_tensor *const *outs, const ct_dtype *dts, int n, const ct_tensor *like) {
  for (int k = 0; k < n; k++)
    if (outs[k] && !ct__la_out_ok(outs[k], dts[k], like)) return false;
  return true;
}

/* lu_factor and lu_factor_ex: check_errors with api's message (NULL: none). */
static ct_status factor_common(const ct_tensor *A, const ct_linalg_lu_opts *opts, const char *api,
                               ct_tensor *const *outs, ct_tensor **const *want) {
  if (!matrix_ok(A, "torch.lu_factor")) return ct_last_error();
  ct_dtype dts[3] = {(ct_dtype)A->dtype, CT_INT32, CT_INT32};
  if (outs && !outs_ok(outs, dts, 3, A)) return ct_last_error();
  ct_tensor *r[3];
  ct_status s = factor_new(A, !(opts && opts->no_pivot), r);
  if (s == CT_OK && api && !lu_info_ok(r[2], api)) s = ct_last_error();
  return deliver(r, 3, outs, want, s);
}

ct_status ct_linalg_lu_factor(const ct_tensor *A, ct_tensor **LU, ct_tensor **pivots,
                              const ct_linalg_lu_opts *opts) {
  if (LU) *LU = NULL;
  if (pivots) *pivots = NULL;
  CT__OP_ENTER_STATUS(&lu_factor_op, A, A);
  return factor_common(A, opts, "torch.linalg.lu_factor", NULL, (ct_tensor * *const[]){LU, pivots, NULL});
}

ct_status ct_linalg_lu_factor_out(ct_tensor *LU, ct_tensor *pivots, const ct_tensor *A,
                                  const ct_linalg_lu_opts *opts) {
  CT__OP_ENTER_STATUS(&lu_factor_op, A, LU, pivots, A);
  if (!CT__OP_OUT_GRAD_OK(&lu_factor_op, LU, pivots, A)) return CT_ERR_RUNTIME;
  return factor_common(A, opts, "torch.linalg.lu_factor", (ct_tensor *const[]){LU, pivots, NULL}, NULL);
}

ct_status ct_linalg_lu_factor_ex(const ct_tensor *A, ct_tensor **LU, ct_tensor **pivots, ct_tensor **info,
                                 const ct_linalg_lu_opts *opts) {
  if (LU) *LU = NULL;
  if (pivots) *pivots = NULL;
  if (info) *info = NULL;
  CT__OP_ENTER_STATUS(&lu_factor_ex_op, A, A);
  return factor_common(A, opts, opts && opts->check_errors ? "torch.linalg.lu_factor_ex" : NULL, NULL,
                       (ct_tensor * *const[]){LU, pivots, info});
}

ct_status ct_linalg_lu_factor_ex_out(ct_tensor *LU, ct_tensor *pivots, ct_tensor *info, const ct_tensor *A,
                                     const ct_linalg_lu_opts *opts) {
  CT__OP_ENTER_STATUS(&lu_factor_ex_op, A, LU, pivots, info, A);
  if (!CT__OP_OUT_GRAD_OK(&lu_factor_ex_op, LU, pivots, info, A)) return CT_ERR_RUNTIME;
  return factor_common(A, opts, opts && opts->check_errors ? "torch.linalg.lu_factor_ex" : NULL,
                       (ct_tensor *const[]){LU, pivots, info}, NULL);
}

/* ---- torch.lu ---- */

ct_status ct_lu(const ct_tensor *A, ct_tensor **LU, ct_tensor **pivots, ct_tensor **infos,
                const ct_lu_opts *opts) {
  if (LU) *LU = NULL;
  if (pivots) *pivots = NULL;
  if (infos) *infos = NULL;
  CT__OP_ENTER_STATUS(&lu_legacy_op, A, A);
  if (!matrix_ok(A, "torch.lu_factor")) return ct_last_error();
  ct_tensor *r[3];
  ct_status s = factor_new(A, !(opts && opts->no_pivot), r);
  return ct__sort_hand_out(r, (ct_tensor * *const[]){LU, pivots, opts && opts->get_infos ? infos : NULL}, 3,
                           s);
}

/* torch.lu's Python wrapper: out[i].resize_as_(result[i]).copy_(result[i]). */
ct_status ct_lu_out(ct_tensor *LU, ct_tensor *pivots, ct_tensor *infos, const ct_tensor *A,
                    const ct_lu_opts *opts) {
  CT__OP_ENTER_STATUS(&lu_legacy_op, A, LU, pivots, A);
  bool get_infos = opts && opts->get_infos;
  if (get_infos != (infos != NULL)) {
    ct__error(CT_ERR_TYPE, "expected tuple of %d elements but got %d", get_infos ? 3 : 2, infos ? 3 : 2);
    return CT_ERR_TYPE;
  }
  /* torch.lu is Python: its out= tensors are written by copy_, outside autograd's out= rule */
  if (!matrix_ok(A, "torch.lu_factor")) return ct_last_error();
  ct_tensor *r[3];
  ct_status s = factor_new(A, !(opts && opts->no_pivot), r);
  ct_tensor *outs[3] = {LU, pivots, infos};
  for (int k = 0; k < 3 && s == CT_OK; k++)
    if (outs[k]) s = ct__la_write_out_contiguous(outs[k], r[k]);
  for (int k = 0; k < 3; k++) ct_release(r[k]);
  return s;
}

/* ---- lu_unpack ---- */

/* lu_unpack's meta checks (LU's dims, then pivots' dtype when unpacked). */
static bool unpack_args(const ct_tensor *LU, const ct_tensor *piv, bool pivots) {
  if (!matrix_ok(LU, "torch.lu_unpack")) return false;
  if (pivots && piv->dtype != CT_INT32) {
    ct__error(
        CT_ERR_RUNTIME,
        "torch.lu_unpack: LU_pivots is expected to be a contiguous tensor of torch.int32 dtype.\n"
        "Note: this function is intended to be used with the output produced by torch.linalg.lu_factor");
    return false;
  }
  return true;
}

/* What the three results look like: batch + (m, m), (m, k), (k, n), or (0,) where not unpacked. */
static ct_tensor *new_result(const ct_tensor *LU, bool wanted, int64_t rows, int64_t cols) {
  int64_t nd = LU->ndim, sz[CT_LA_MAXDIM];
  if (!wanted) return ct__la_empty(LU, 1, (const int64_t[]){0}, (ct_dtype)LU->dtype);
  memcpy(sz, LU->sizes, (size_t)(nd - 2) * sizeof(int64_t));
  sz[nd - 2] = rows;
  sz[nd - 1] = cols;
  ct_tensor *t = ct__la_empty(LU, nd, sz, (ct_dtype)LU->dtype);
  if (t) ct__la_zero(t);
  return t;
}

/* L (unit lower, m x k) and U (upper, k x n) from the row-major copy c of LU. */
static void split_lu(const ct_tensor *c, ct_tensor *L, ct_tensor *U, const char *one) {
  int64_t nd = c->ndim, m = c->sizes[nd - 2], n = c->sizes[nd - 1], k = m < n ? m : n, nb = ct__la_batch(c);
  size_t isz = ct__itemsize((ct_dtype)c->dtype);
  for (int64_t b = 0; b < nb; b++)
    for (int64_t i = 0; i < m; i++) {
      const char *row = ct__la_at(c, (b * m + i) * n);
      for (int64_t j = 0; j < k && j < i; j++) memcpy(ct__la_at(L, (b * m + i) * k + j), row + j * isz, isz);
      if (i < k) {
        memcpy(ct__la_at(L, (b * m + i) * k + i), one, isz);
        memcpy(ct__la_at(U, (b * k + i) * n + i), row + i * isz, (size_t)(n - i) * isz);
      }
    }
}

/* P from the contiguous pivots (batch x k), checked against m first. */
static bool permutation(const ct_tensor *piv, ct_tensor *P, int64_t m, int64_t k, const char *one) {
  int64_t nb = piv->numel / (k > 0 ? k : 1);
  const int32_t *pv = (const int32_t *)ct__tdata(piv);
  for (int64_t i = 0; k > 0 && i < piv->numel; i++)
    if (pv[i] < 1 || pv[i] > m) {
      ct__error(CT_ERR_RUNTIME, "pivots passed to lu_unpack must be between 1 and LU.size(-2) inclusive."
                                "Did you properly pass the result of lu_factor?");
      return false;
    }
  if (k == 0) nb = P->numel / (m * m > 0 ? m * m : 1);
  int64_t *perm = ct__malloc(sizeof(int64_t) * (size_t)(m > 0 ? m : 1));
  if (!perm) return (ct__oom_error(0), false);
  size_t isz = ct__itemsize((ct_dtype)P->dtype);
  for (int64_t b = 0; m > 0 && b < nb; b++) {
    for (int64_t i = 0; i < m; i++) perm[i] = i;
    for (int64_t i = 0; i < k; i++) {
      int64_t t = perm[i], j = pv[b * k + i] - 1;
      perm[i] = perm[j];
      perm[j] = t;
    }
    for (int64_t j = 0; j < m; j++) memcpy(ct__la_at(P, (b * m + perm[j]) * m + j), one, isz);
  }
  ct__free(perm);
  return true;
}

/* lu_unpack into r = {P, L, U} (new, unowned). */
static ct_status unpack_new(const ct_tensor *LU, const ct_tensor *piv, bool data, bool pivots,
                            ct_tensor **r) {
  int64_t nd = LU->ndim, m = LU->sizes[nd - 2], n = LU->sizes[nd - 1], k = m < n ? m : n;
  r[0] = new_result(LU, pivots, m, m);
  r[1] = new_result(LU, data, m, k);
  r[2] = new_result(LU, data, k, n);
  ct_tensor *one = ct__la_empty(LU, 0, NULL, (ct_dtype)LU->dtype), *c = NULL, *pc = NULL;
  ct_status s = r[0] && r[1] && r[2] && one ? ct__fill(one, ct_scalar_int(1)) : ct_last_error();
  bool meta = LU->device_type == CT_META || piv->device_type == CT_META; /* geometry only, no pivot check */
  if (s == CT_OK && data && LU->numel > 0 && !meta) {
    c = ct__la_contiguous_copy(LU, nd, LU->sizes);
    if (c) split_lu(c, r[1], r[2], ct__tdata(one));
    else s = ct_last_error();
  }
  if (s == CT_OK && pivots && r[0]->numel > 0 && !meta) {
    int64_t psz[CT_LA_MAXDIM];
    memcpy(psz, LU->sizes, (size_t)(nd - 2) * sizeof(int64_t));
    psz[nd - 2] = k;
    if (piv->ndim != nd - 1 || memcmp(piv->sizes, psz, (size_t)(nd - 1) * sizeof(int64_t)) != 0) {
      ct__error(CT_ERR_RUNTIME,
                "torch.lu_unpack: ctorch expects LU_pivots of shape LU_data.shape[:-2] + (min(m, n),), as "
                "linalg.lu_factor returns them");
      s = CT_ERR_RUNTIME;
    } else {
      pc = ct__la_contiguous_copy(piv, nd - 1, psz);
      s = pc ? (permutation(pc, r[0], m, k, ct__tdata(one)) ? CT_OK : ct_last_error()) : ct_last_error();
    }
  }
  ct_release(one);
  ct_release(c);
  ct_release(pc);
  if (s != CT_OK)
    for (int i = 0; i < 3; i++) ct_release(r[i]), r[i] = NULL;
  else
    for (int i = 0; i < 3; i++) ct__grad_mark_result(r[i], LU);
  return s;
}

static ct_status unpack_common(const ct_tensor *LU, const ct_tensor *piv, const ct_lu_unpack_opts *opts,
                               ct_tensor *const *outs, ct_tensor **const *want) {
  bool data = !(opts && opts->no_data), pivots = !(opts && opts->no_pivots);
  if (!unpack_args(LU, piv, pivots)) return ct_last_error();
  ct_dtype dt = (ct_dtype)LU->dtype, dts[3] = {dt, dt, dt};
  if (outs && !outs_ok(outs, dts, 3, LU)) return ct_last_error();
  ct_tensor *r[3];
  ct_status s = unpack_new(LU, piv, data, pivots, r);
  return deliver(r, 3, outs, want, s);
}

ct_status ct_lu_unpack(const ct_tensor *LU_data, const ct_tensor *LU_pivots, ct_tensor **P, ct_tensor **L,
                       ct_tensor **U, const ct_lu_unpack_opts *opts) {
  if (P) *P = NULL;
  if (L) *L = NULL;
  if (U) *U = NULL;
  CT__NONNULL_STATUS(LU_data, LU_pivots);
  if (!CT__OP_ACCEPTS(&lu_unpack_op, lu_unpack_op.aten, LU_data, LU_pivots)) return ct_last_error();
  return unpack_common(LU_data, LU_pivots, opts, NULL, (ct_tensor * *const[]){P, L, U});
}

ct_status ct_lu_unpack_out(ct_tensor *P, ct_tensor *L, ct_tensor *U, const ct_tensor *LU_data,
                           const ct_tensor *LU_pivots, const ct_lu_unpack_opts *opts) {
  CT__NONNULL_STATUS(P, L, U, LU_data, LU_pivots);
  if (!CT__OP_ACCEPTS(&lu_unpack_op, lu_unpack_op.aten, LU_data, LU_pivots)) return ct_last_error();
  if (!CT__OP_OUT_GRAD_OK(&lu_unpack_op, P, L, U, LU_data, LU_pivots)) return CT_ERR_RUNTIME;
  return unpack_common(LU_data, LU_pivots, opts, (ct_tensor *const[]){P, L, U}, NULL);
}

/* ---- linalg.lu: lu_factor_ex without checks, then lu_unpack ---- */

static ct_status linalg_lu_common(const ct_tensor *A, const ct_linalg_lu_opts *opts, ct_tensor *const *outs,
                                  ct_tensor **const *want) {
  if (!matrix_ok(A, "linalg.lu")) return ct_last_error();
  ct_dtype dt = (ct_dtype)A->dtype, dts[3] = {dt, dt, dt};
  if (outs && !outs_ok(outs, dts, 3, A)) return ct_last_error();
  bool pivot = !(opts && opts->no_pivot);
  ct_tensor *f[3], *r[3] = {NULL, NULL, NULL};
  ct_status s = factor_new(A, pivot, f);
  if (s == CT_OK) s = unpack_new(f[0], f[1], true, pivot, r);
  for (int i = 0; i < 3; i++) ct_release(f[i]);
  if (s == CT_OK)
    for (int i = 0; i < 3; i++) ct__grad_mark_result(r[i], A);
  return deliver(r, 3, outs, want, s);
}

ct_status ct_linalg_lu(const ct_tensor *A, ct_tensor **P, ct_tensor **L, ct_tensor **U,
                       const ct_linalg_lu_opts *opts) {
  if (P) *P = NULL;
  if (L) *L = NULL;
  if (U) *U = NULL;
  CT__OP_ENTER_STATUS(&linalg_lu_op, A, A);
  return linalg_lu_common(A, opts, NULL, (ct_tensor * *const[]){P, L, U});
}

ct_status ct_linalg_lu_out(ct_tensor *P, ct_tensor *L, ct_tensor *U, const ct_tensor *A,
                           const ct_linalg_lu_opts *opts) {
  CT__OP_ENTER_STATUS(&linalg_lu_op, A, P, L, U, A);
  if (!CT__OP_OUT_GRAD_OK(&linalg_lu_op, P, L, U, A)) return CT_ERR_RUNTIME;
  return linalg_lu_common(A, opts, (ct_tensor *const[]){P, L, U}, NULL);
}
