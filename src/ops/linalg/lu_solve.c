/* linalg.lu_solve and the legacy torch.lu_solve as torch 1.13 computes them: getrs with lu_factor's LU and pivots on
   B's batched column-major copy, B's batch broadcast with LU's. left=False solves A^H Y = B^H (adjoint flipped) and
   returns X = Y^H as torch does: a contiguous tensor holding conj(X) with the conjugate bit set (complex). An empty
   result is returned before the dtype's kernel is looked up. */
#include "ops/linalg/linalg_internal.h"

#include <stdio.h>
#include <string.h>

/* meta: linalg_lu_solve's structured kernel (its checks, the result's geometry; no pivot range or dtype check) */
static const ct_op lu_solve_op = CT_LINALG_META_OP("linalg_lu_solve", "aten::linalg_lu_solve");
static const ct_op lu_solve_legacy_op = CT_LINALG_META_OP("linalg_lu_solve", "aten::lu_solve");

/* linalg_lu_solve's meta checks in torch's order; the broadcast result's shape into rs[*rnd]. */
static bool lu_solve_args(const ct_tensor *LU, const ct_tensor *piv, const ct_tensor *B, bool left,
                          int64_t *rs, int64_t *rnd) {
  if (!ct__la_float_ok(LU, "torch.linalg.lu_solve")) return false;
  if (LU->dtype != B->dtype) {
    ct__error(
        CT_ERR_RUNTIME,
        "linalg.lu_solve: Expected LU and B to have the same dtype, but found LU of type %s and B of type %s "
        "instead",
        ct__dt((ct_dtype)LU->dtype)->scalar_name, ct__dt((ct_dtype)B->dtype)->scalar_name);
    return false;
  }
  if (piv->dtype != CT_INT32) {
    ct__error(CT_ERR_RUNTIME, "linalg.lu_solve: pivots should be a Tensor of scalar type torch.int32");
    return false;
  }
  const char *api = "torch.linalg.lu_solve";
  if (!ct__la_ndim_ok(LU, api, "A") || !ct__la_square_ok(LU, api)) return false;
  if (!ct__la_ndim_ok(B, "linalg.lu_solve", "B")) return false;
  int64_t n = LU->sizes[LU->ndim - 1], bm = B->sizes[B->ndim - 2], bn = B->sizes[B->ndim - 1];
  if (left ? n != bm : n != bn) {
    ct__error(CT_ERR_RUNTIME,
              "linalg.lu_solve: Incompatible shapes of A and B for the equation %s (%lldx%lld and %lldx%lld)",
              left ? "AX = B" : "XA = B", (long long)n, (long long)n, (long long)bm, (long long)bn);
    return false;
  }
  if (piv->ndim == 0) {
    ct__error(CT_ERR_INDEX, "Dimension specified as -1 but tensor has no dimensions");
    return false;
  }
  if (piv->sizes[piv->ndim - 1] != n) {
    ct__error(CT_ERR_RUNTIME,
              "linalg.lu_solve: Number of pivots per batch should be same as the dimension of the matrix");
    return false;
  }
  if (piv->ndim != LU->ndim - 1 || memcmp(piv->sizes, LU->sizes, (size_t)piv->ndim * sizeof(int64_t)) != 0) {
    char buf[256] = "[";
    for (int64_t d = 0; d < piv->ndim && strlen(buf) < 200; d++)
      snprintf(buf + strlen(buf), sizeof buf - strlen(buf), "%s%lld", d ? ", " : "",
               (long long)piv->sizes[d]);
    ct__error(
        CT_ERR_RUNTIME,
        "linalg.lu_solve: Expected LU.shape[:-1] and pivots.shape to be the same, but got pivots with shape "
        "%s] instead",
        buf);
    return false;
  }
  if (!ct__la_broadcast_batch(B, LU, rs, rnd)) return false;
  rs[*rnd] = bm;
  rs[*rnd + 1] = bn;
  *rnd += 2;
  return true;
}

/* "Pivots given to lu_solve must all be greater or equal to 1. ..." / "... smaller or equal to LU.size(-2). ..." */
static bool pivots_ok(const ct_tensor *pc, int64_t n) {
  const int32_t *p = (const int32_t *)ct__tdata(pc);
  for (int pass = 0; pass < 2; pass++)
    for (int64_t i = 0; i < pc->numel; i++)
      if (pass == 0 ? p[i] < 1 : p[i] > n) {
        ct__error(CT_ERR_RUNTIME,
                  "Pivots given to lu_solve must all be %s. Did you properly pass the result of lu_factor?",
                  pass == 0 ? "greater or equal to 1" : "smaller or equal to LU.size(-2)");
        return false;
      }
  return true;
}

/* The solution (new, unowned) in torch's geometry. */
static ct_tensor *lu_solve_new(const ct_tensor *LU, const ct_tensor *piv, const ct_tensor *B, bool left,
                               bool adjoint, const int64_t *rs, int64_t rnd) {
  ct_dtype dt = (ct_dtype)LU->dtype;
  bool cx = ct__dt(dt)->category == CT_CAT_COMPLEX;
  ct_tensor *r = left ? ct__la_empty_colmajor(LU, rnd, rs, dt) : ct__la_empty(LU, rnd, rs, dt);
  /* meta: the meta kernel's result (column-major for left, else contiguous without the conjugate bit) */
  if (!r || r->numel == 0 || r->device_type == CT_META) return r;
  int64_t n = LU->sizes[LU->ndim - 1], nb = rnd - 2, ls[CT_LA_MAXDIM], ws[CT_LA_MAXDIM];
  memcpy(ls, rs, (size_t)nb * sizeof(int64_t));
  memcpy(ws, rs, (size_t)nb * sizeof(int64_t));
  ls[nb] = ls[nb + 1] = n;
  ws[nb] = n;
  ws[nb + 1] = left ? rs[nb + 1] : rs[nb];
  ct_tensor *pc = ct__la_contiguous_copy(piv, nb + 1, ls), *lc = NULL, *W = NULL;
  /* the right-hand sides: B, or B^H for left=False */
  ct_tensor *Bt = left ? ct__alias_impl(B) : ct__transpose_impl(B, -2, -1);
  ct_tensor *Bh = Bt && !left && cx ? ct__conj_impl(Bt) : NULL;
  /* torch checks the pivots' range, then looks up the dtype's kernel */
  bool ok =
      pc && Bt && (left || !cx || Bh) && pivots_ok(pc, n) && ct__la_kernel_ok(LU, "linalg.lu_solve_cpu");
  if (ok) lc = ct__la_colmajor_copy(LU, nb + 2, ls);
  if (ok && lc) W = ct__la_colmajor_copy(Bh ? Bh : Bt, nb + 2, ws);
  ct_release(Bt);
  ct_release(Bh);
  if (W) {
    bool adj = left ? adjoint : !adjoint;
    char trans = !adj ? 'N' : cx ? 'C' : 'T';
    int64_t k = ws[nb + 1], cnt = ct__la_batch(W);
    for (int64_t b = 0; b < cnt && k > 0 && n > 0; b++)
      ct__la_getrs(dt, trans, (int)n, (int)k, ct__la_at(lc, b * n * n), (int)n,
                   (const int *)ct__la_at(pc, b * n), ct__la_at(W, b * n * k), (int)n);
  }
  ct_release(pc);
  ct_release(lc);
  if (!W) return ct_release(r), NULL;
  ct_status s;
  if (left) {
    ct_release(r);
    r = W;
    s = CT_OK;
  } else { /* r (contiguous) takes Y^T = conj(X), marked conjugate */
    ct_tensor *v = ct__transpose_impl(W, -2, -1);
    s = v ? ct__copy_into(r, v) : ct_last_error();
    ct_release(v);
    ct_release(W);
    if (s == CT_OK && cx) r->flags |= CT_TENSOR_CONJ;
  }
  if (s != CT_OK) return ct_release(r), NULL;
  ct__grad_mark_result(r, LU);
  ct__grad_mark_result(r, B);
  return r;
}

static ct_tensor *lu_solve_common(const ct_tensor *LU, const ct_tensor *piv, const ct_tensor *B,
                                  const ct_linalg_lu_solve_opts *opts, ct_tensor *out) {
  bool left = !(opts && opts->right), adjoint = opts && opts->adjoint;
  int64_t rs[CT_LA_MAXDIM], rnd;
  if (!lu_solve_args(LU, piv, B, left, rs, &rnd)) return NULL;
  if (out && !ct__la_out_ok(out, (ct_dtype)B->dtype, B)) return NULL;
  return lu_solve_new(LU, piv, B, left, adjoint, rs, rnd);
}

ct_tensor *ct_linalg_lu_solve(const ct_tensor *LU, const ct_tensor *pivots, const ct_tensor *B,
                              const ct_linalg_lu_solve_opts *opts) {
  CT__NONNULL_PTR(LU, pivots, B);
  if (!CT__OP_ACCEPTS(&lu_solve_op, lu_solve_op.aten, LU, pivots, B)) return NULL;
  return ct__own(lu_solve_common(LU, pivots, B, opts, NULL));
}

ct_status ct_linalg_lu_solve_out(ct_tensor *out, const ct_tensor *LU, const ct_tensor *pivots,
                                 const ct_tensor *B, const ct_linalg_lu_solve_opts *opts) {
  CT__NONNULL_STATUS(out, LU, pivots, B);
  if (!CT__OP_ACCEPTS(&lu_solve_op, lu_solve_op.aten, LU, pivots, B)) return ct_last_error();
  if (!CT__OP_OUT_GRAD_OK(&lu_solve_op, out, LU, pivots, B)) return CT_ERR_RUNTIME;
  ct_tensor *r = lu_solve_common(LU, pivots, B, opts, out);
  return ct__la_write_outs(&r, &out, 1, r ? CT_OK : ct_last_error());
}

ct_tensor *ct_lu_solve(const ct_tensor *b, const ct_tensor *LU_data, const ct_tensor *LU_pivots) {
  CT__NONNULL_PTR(b, LU_data, LU_pivots);
  if (!CT__OP_ACCEPTS(&lu_solve_legacy_op, lu_solve_legacy_op.aten, b, LU_data, LU_pivots)) return NULL;
  return ct__own(lu_solve_common(LU_data, LU_pivots, b, NULL, NULL));
}

ct_status ct_lu_solve_out(ct_tensor *out, const ct_tensor *b, const ct_tensor *LU_data,
                          const ct_tensor *LU_pivots) {
  CT__NONNULL_STATUS(out, b, LU_data, LU_pivots);
  if (!CT__OP_ACCEPTS(&lu_solve_legacy_op, lu_solve_legacy_op.aten, b, LU_data, LU_pivots))
    return ct_last_error();
  if (!CT__OP_OUT_GRAD_OK(&lu_solve_legacy_op, out, b, LU_data, LU_pivots)) return CT_ERR_RUNTIME;
  ct_tensor *r = lu_solve_common(LU_data, LU_pivots, b, NULL, out);
  return ct__la_write_outs(&r, &out, 1, r ? CT_OK : ct_last_error());
}
