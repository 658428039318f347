/* linalg.tensorinv, linalg.tensorsolve and linalg.diagonal as torch 1.13's composites: the tensor read as one
   square matrix (reshape), linalg.inv / linalg.solve's _impls, the result reshaped; diagonal is torch.diagonal
   over the last two dims by default. out= forms check that the result casts safely to out (checkLinalgCompatible-
   Dtype), compute, then resize_output + copy_. */
#include "ops/linalg/linalg_internal.h"
#include "ops/view_op.h"

#include <string.h>

/* meta: the composites over reshape and linalg.inv / linalg.solve's meta kernels */
static const ct_op tensorinv_op = CT_LINALG_META_OP("linalg_tensorinv", "aten::linalg_tensorinv");
static const ct_op tensorsolve_op = CT_LINALG_META_OP("linalg_tensorsolve", "aten::linalg_tensorsolve");
static const ct_view_op linalg_diagonal_op = {
    CT_VIEW_OP_AS_STRIDED("linalg_diagonal", "aten::linalg_diagonal")};

static int64_t prod(const int64_t *s, int64_t n) {
  int64_t p = 1;
  for (int64_t i = 0; i < n; i++) p *= s[i];
  return p;
}

/* ---- tensorinv ---- */

static ct_tensor *tensorinv_new(const ct_tensor *A, const ct_linalg_tensorinv_opts *opts) {
  int64_t ind = opts && opts->has_ind ? opts->ind : 2, nd = A->ndim;
  if (ind <= 0) {
    ct__error(CT_ERR_RUNTIME, "Expected a strictly positive integer for 'ind', but got %lld", (long long)ind);
    return NULL;
  }
  if (ind > nd) { /* torch's self.sizes().slice(ind) runs past the end into a vector of negative size */
    ct__error(CT_ERR_RUNTIME, "cannot create std::vector larger than max_size()");
    return NULL;
  }
  int64_t pe = prod(A->sizes + ind, nd - ind), ps = prod(A->sizes, ind);
  if (pe != ps) {
    ct__error(
        CT_ERR_RUNTIME,
        "Expected self to satisfy the requirement prod(self.shape[ind:]) == prod(self.shape[:ind]), but got "
        "%lld != %lld",
        (long long)pe, (long long)ps);
    return NULL;
  }
  int64_t sq[2] = {pe, pe}, shape[CT_LA_MAXDIM];
  if (nd > CT_LA_MAXDIM) return (ct__error(CT_ERR_RUNTIME, "tensorinv: too many dimensions"), NULL);
  memcpy(shape, A->sizes + ind, (size_t)(nd - ind) * sizeof(int64_t));
  memcpy(shape + (nd - ind), A->sizes, (size_t)ind * sizeof(int64_t));
  ct_tensor *m = ct__reshape_impl(A, (ct_shape){.data = sq, .ndim = 2});
  ct_tensor *inv = m ? ct__la_inv_impl(m, "inv") : NULL;
  ct_release(m);
  ct_tensor *r = inv ? ct__reshape_impl(inv, (ct_shape){.data = shape, .ndim = nd}) : NULL;
  ct_release(inv);
  return r;
}

ct_tensor *ct_linalg_tensorinv(const ct_tensor *A, const ct_linalg_tensorinv_opts *opts) {
  CT__OP_ENTER_PTR(&tensorinv_op, A, A);
  return ct__own(tensorinv_new(A, opts));
}

ct_status ct_linalg_tensorinv_out(ct_tensor *out, const ct_tensor *A, const ct_linalg_tensorinv_opts *opts) {
  CT__OP_ENTER_STATUS(&tensorinv_op, A, out, A);
  if (!CT__OP_OUT_GRAD_OK(&tensorinv_op, out, A)) return CT_ERR_RUNTIME;
  if (!ct__la_castable_ok(out, (ct_dtype)A->dtype, A, "tensorinv", "result")) return ct_last_error();
  ct_tensor *r = tensorinv_new(A, opts);
  if (!r) return ct_last_error();
  ct_status s = ct__la_write_out_contiguous(out, r);
  ct_release(r);
  return s;
}

/* ---- tensorsolve ---- */

static ct_tensor *tensorsolve_new(const ct_tensor *A, const ct_tensor *B,
                                  const ct_linalg_tensorsolve_opts *opts) {
  int64_t nd = A->ndim;
  ct_tensor *a = NULL;
  if (opts && opts->dims.ndim > 0) {
    int64_t dest[CT_LA_MAXDIM], k = opts->dims.ndim;
    if (k > CT_LA_MAXDIM) return (ct__error(CT_ERR_RUNTIME, "tensorsolve: too many dimensions"), NULL);
    for (int64_t i = 0; i < k; i++) dest[i] = nd - k + i;
    a = ct__movedim_impl(A, opts->dims, (ct_dims){.data = dest, .ndim = k});
  } else {
    a = ct__alias_impl(A);
  }
  if (!a) return NULL;
  int64_t bn = B->ndim, rn = nd - bn > 0 ? nd - bn : 0, start = bn < nd ? bn : nd;
  int64_t rp = prod(a->sizes + start, rn), bp = prod(B->sizes, bn);
  if (rp != bp) {
    ct__error(CT_ERR_RUNTIME,
              "Expected self to satisfy the requirement prod(self.shape[other.ndim:]) == "
              "prod(self.shape[:other.ndim]), but got %lld != %lld",
              (long long)rp, (long long)bp);
    ct_release(a);
    return NULL;
  }
  int64_t sq[2] = {rp, rp}, shape[CT_LA_MAXDIM];
  memcpy(shape, a->sizes + start, (size_t)rn * sizeof(int64_t));
  ct_tensor *m = ct__reshape_impl(a, (ct_shape){.data = sq, .ndim = 2});
  ct_release(a);
  ct_tensor *b = m ? ct__flatten_impl(B, 0, -1) : NULL;
  ct_tensor *x = b ? ct__la_solve_impl(m, b) : NULL;
  ct_release(m);
  ct_release(b);
  ct_tensor *r = x ? ct__reshape_impl(x, (ct_shape){.data = shape, .ndim = rn}) : NULL;
  ct_release(x);
  return r;
}

ct_tensor *ct_linalg_tensorsolve(const ct_tensor *A, const ct_tensor *B,
                                 const ct_linalg_tensorsolve_opts *opts) {
  CT__NONNULL_PTR(A, B);
  if (!CT__OP_ACCEPTS(&tensorsolve_op, tensorsolve_op.aten, A, B)) return NULL;
  return ct__own(tensorsolve_new(A, B, opts));
}

ct_status ct_linalg_tensorsolve_out(ct_tensor *out, const ct_tensor *A, const ct_tensor *B,
                                    const ct_linalg_tensorsolve_opts *opts) {
  CT__NONNULL_STATUS(out, A, B);
  if (!CT__OP_ACCEPTS(&tensorsolve_op, tensorsolve_op.aten, out, A, B)) return ct_last_error();
  if (!CT__OP_OUT_GRAD_OK(&tensorsolve_op, out, A, B)) return CT_ERR_RUNTIME;
  if (!ct__la_castable_ok(out, (ct_dtype)A->dtype, A, "tensorsolve", "result")) return ct_last_error();
  ct_tensor *r = tensorsolve_new(A, B, opts);
  if (!r) return ct_last_error();
  ct_status s = ct__la_write_out_contiguous(out, r);
  ct_release(r);
  return s;
}

/* ---- linalg.diagonal ---- */

ct_tensor *ct_linalg_diagonal(const ct_tensor *A, const ct_linalg_diagonal_opts *opts) {
  CT__VIEW_ENTER_PTR(&linalg_diagonal_op, A, A);
  bool dims = opts && opts->has_dims;
  return ct__own(
      ct__diagonal_impl(A, opts ? opts->offset : 0, dims ? opts->dim1 : -2, dims ? opts->dim2 : -1));
}
