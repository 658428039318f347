/* cholesky_solve and cholesky_inverse as torch 1.13 computes them on the CPU: potrs on batched column-major copies of
   B and the factor broadcast against each other (_cholesky_solve_helper_cpu), and potri on the factor's column-major
   copy with the other triangle then filled with the conjugate of the computed one (apply_cholesky_inverse). */
#include "ops/linalg/linalg_internal.h"

#include <string.h>

/* meta: torch's cholesky_solve (CompositeExplicitAutograd) checks and broadcasts, then its _cholesky_solve_helper
   has no Meta kernel */
static const ct_op cholesky_solve_op = CT_LINALG_META_OP("cholesky_solve", "aten::cholesky_solve");
static const ct_op cholesky_inverse_op = CT_LINALG_OP("cholesky_inverse", "aten::cholesky_inverse");

/* ---- cholesky_solve ---- */

static bool cholesky_solve_args(const ct_tensor *B, const ct_tensor *L) {
  const char *what[2] = {"b", "u"};
  const ct_tensor *ts[2] = {B, L};
  for (int i = 0; i < 2; i++)
    if (ts[i]->ndim < 2) {
      ct__error(CT_ERR_RUNTIME, "%s should have at least 2 dimensions, but has %lld dimensions instead",
                what[i], (long long)ts[i]->ndim);
      return false;
    }
  return ct__la_linear_solve_ok(B, L, "cholesky_solve");
}

static ct_tensor *cholesky_solve_new(const ct_tensor *B, const ct_tensor *L, bool upper) {
  int64_t rs[CT_LA_MAXDIM], ls[CT_LA_MAXDIM], nb;
  if (!cholesky_solve_args(B, L) || !ct__la_broadcast_batch(B, L, rs, &nb)) return NULL;
  memcpy(ls, rs, (size_t)nb * sizeof(int64_t));
  int64_t n = L->sizes[L->ndim - 1], k = B->sizes[B->ndim - 1];
  rs[nb] = n, rs[nb + 1] = k;
  ls[nb] = ls[nb + 1] = n;
  if (CT__OP_ON_META(B, L)) return (ct__error_no_meta_kernel("aten::_cholesky_solve_helper"), NULL);
  if (!ct__la_kernel_ok(B, "cholesky_solve_cpu") || !ct__la_int_ok(n) || !ct__la_int_ok(k)) return NULL;
  ct_tensor *W = ct__la_colmajor_copy(B, nb + 2, rs), *Lc = W ? ct__la_colmajor_copy(L, nb + 2, ls) : NULL;
  if (!Lc) return ct_release(W), NULL;
  int64_t cnt = ct__la_batch(W);
  for (int64_t b = 0; n > 0 && k > 0 && b < cnt; b++)
    ct__la_potrs((ct_dtype)B->dtype, upper ? 'U' : 'L', (int)n, (int)k, ct__la_at(Lc, b * n * n), (int)n,
                 ct__la_at(W, b * n * k), (int)n);
  ct_release(Lc);
  ct__grad_mark_result(W, B);
  ct__grad_mark_result(W, L);
  return W;
}

ct_tensor *ct_cholesky_solve(const ct_tensor *B, const ct_tensor *L, const ct_cholesky_solve_opts *opts) {
  CT__NONNULL_PTR(B, L);
  if (!CT__OP_ACCEPTS(&cholesky_solve_op, cholesky_solve_op.aten, B, L)) return NULL;
  return ct__own(cholesky_solve_new(B, L, opts && opts->upper));
}

/* cholesky_solve_out: the out checks first, then cholesky_solve, then resize_output and copy_. */
ct_status ct_cholesky_solve_out(ct_tensor *out, const ct_tensor *B, const ct_tensor *L,
                                const ct_cholesky_solve_opts *opts) {
  CT__NONNULL_STATUS(out, B, L);
  if (!CT__OP_ACCEPTS(&cholesky_solve_op, cholesky_solve_op.aten, B, L)) return ct_last_error();
  if (!CT__OP_OUT_GRAD_OK(&cholesky_solve_op, out, B, L)) return CT_ERR_RUNTIME;
  if (!ct__la_out_castable(out, (ct_dtype)B->dtype, B, "cholesky_solve")) return ct_last_error();
  ct_tensor *r = cholesky_solve_new(B, L, opts && opts->upper);
  if (!r) return ct_last_error();
  ct_status s = ct__la_write_out_contiguous(out, r);
  ct_release(r);
  return s;
}

/* ---- cholesky_inverse ---- */

/* Fills the triangle potri left alone with the conjugate transpose of the one it wrote (n x n, column-major). */
static void reflect_conj(char *a, int64_t n, ct_dtype dt, bool upper) {
  size_t isz = ct__itemsize(dt);
  bool cx = ct__dt(dt)->category == CT_CAT_COMPLEX;
  for (int64_t j = 0; j < n; j++)
    for (int64_t i = j + 1; i < n; i++) {
      /* (i, j) below the diagonal, (j, i) above it */
      char *lo = a + (size_t)(j * n + i) * isz, *up = a + (size_t)(i * n + j) * isz;
      char *dst = upper ? lo : up;
      memcpy(dst, upper ? up : lo, isz);
      if (cx) {
        if (dt == CT_COMPLEX64) {
          float im;
          memcpy(&im, dst + sizeof(float), sizeof im);
          im = -im;
          memcpy(dst + sizeof(float), &im, sizeof im);
        } else {
          double im;
          memcpy(&im, dst + sizeof(double), sizeof im);
          im = -im;
          memcpy(dst + sizeof(double), &im, sizeof im);
        }
      }
    }
}

static ct_tensor *cholesky_inverse_new(const ct_tensor *L, bool upper, int64_t out_ndim) {
  const char *api = "cholesky_inverse";
  if (!ct__la_kernel_ok(L, "cholesky_inverse_out_cpu") || !ct__la_int_ok(L->sizes[L->ndim - 1])) return NULL;
  int64_t n = L->sizes[L->ndim - 1], nb = ct__la_batch(L), cnt = nb > 1 ? nb : 1;
  ct_tensor *W = ct__la_colmajor_copy(L, L->ndim, L->sizes);
  /* torch's infos: zeros of max(1, batch), checked as a matrix's when the result is 2-D */
  ct_tensor *info = W ? ct__la_empty(L, out_ndim == 2 ? 0 : 1, (const int64_t[]){cnt}, CT_INT32) : NULL;
  if (!info) return ct_release(W), NULL;
  memset(ct__tdata(info), 0, (size_t)cnt * sizeof(int32_t));
  ct_dtype dt = (ct_dtype)L->dtype;
  for (int64_t b = 0; n > 0 && b < nb; b++) {
    char *a = ct__la_at(W, b * n * n);
    ((int32_t *)ct__tdata(info))[b] = ct__la_potri(dt, upper ? 'U' : 'L', (int)n, a, (int)n);
    reflect_conj(a, n, dt, upper);
  }
  bool ok = ct__la_check_errors(info, api);
  ct_release(info);
  if (!ok) return ct_release(W), NULL;
  ct__grad_mark_result(W, L);
  return W;
}

static bool cholesky_inverse_args(const ct_tensor *L) {
  return ct__la_ndim_ok(L, "cholesky_inverse", "A") && ct__la_square_ok(L, "cholesky_inverse");
}

ct_tensor *ct_cholesky_inverse(const ct_tensor *L, const ct_cholesky_solve_opts *opts) {
  CT__OP_ENTER_PTR(&cholesky_inverse_op, L, L);
  if (!cholesky_inverse_args(L)) return NULL;
  return ct__own(cholesky_inverse_new(L, opts && opts->upper, L->ndim));
}

/* cholesky_inverse_out: an empty out of L's dtype takes the column-major result; any other out is resize_output-ed
   (contiguous when its shape differs) and copied into. */
ct_status ct_cholesky_inverse_out(ct_tensor *out, const ct_tensor *L, const ct_cholesky_solve_opts *opts) {
  CT__NONNULL_STATUS(out, L);
  if (!CT__OP_OUT_GRAD_OK(&cholesky_inverse_op, out, L)) return CT_ERR_RUNTIME;
  if (!CT__OP_ACCEPTS(&cholesky_inverse_op, "aten::cholesky_inverse.out", L, out)) return ct_last_error();
  if (!cholesky_inverse_args(L) || !ct__la_out_castable(out, (ct_dtype)L->dtype, L, "cholesky_inverse"))
    return ct_last_error();
  ct_tensor *r = cholesky_inverse_new(L, opts && opts->upper, L->ndim);
  if (!r) return ct_last_error();
  ct_status s = out->dtype == L->dtype && out->numel == 0 ? ct__la_write_out_as(out, r, true)
                                                          : ct__la_write_out_contiguous(out, r);
  ct_release(r);
  return s;
}
