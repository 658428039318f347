/* linalg.eig and linalg.eigvals as torch 1.13's CPU kernel computes them: geev (no left vectors; right ones for
   eig) on the batched column-major copy of A, one matrix at a time. A real A's eigenvalues come back as real and
   imaginary parts and its eigenvectors as real columns, a complex conjugate pair in two columns (LAPACK's
   convention), made complex as torch's linalg_eig_make_complex_eigenvectors does. */
#include "ops/linalg/linalg_internal.h"
#include "ops/sort/sort_internal.h"

#include <complex.h>
#include <math.h>
#include <string.h>

static const ct_op eig_op = CT_LINALG_OP("linalg_eig", "aten::linalg_eig");
/* linalg_eigvals dispatches linalg_eig on a device without its kernel (meta): that op's message */
static const ct_op eigvals_op = CT_LINALG_OP("linalg_eigvals", "aten::linalg_eig");

/* toComplexType: the complex dtype of A's values (ComplexHalf, which ctorch has no dtype for, is reported by
   name with *half set); "Unknown Complex ScalarType for Long" for the others. */
static bool complex_of(const ct_tensor *A, ct_dtype *cdt, bool *half) {
  ct_dtype dt = (ct_dtype)A->dtype;
  *half = dt == CT_FLOAT16;
  switch (dt) {
    case CT_FLOAT16:
    case CT_FLOAT32:
    case CT_BFLOAT16:
    case CT_COMPLEX64: *cdt = CT_COMPLEX64; return true;
    case CT_FLOAT64:
    case CT_COMPLEX128: *cdt = CT_COMPLEX128; return true;
    default:
      ct__error(CT_ERR_RUNTIME, "Unknown Complex ScalarType for %s", ct__dt(dt)->scalar_name);
      return false;
  }
}

/* isfinite(A).all(): the check linalg_eig makes before any other. */
static bool finite_ok(const ct_tensor *A) {
  ct_dtype dt = (ct_dtype)A->dtype;
  if (ct__dt(dt)->category < CT_CAT_FLOAT || A->numel == 0) return true;
  bool cx = ct__dt(dt)->category == CT_CAT_COMPLEX;
  int64_t one = A->numel;
  ct_tensor *c = ct__la_empty(A, 1, &one, cx ? CT_COMPLEX128 : CT_FLOAT64), *flat = NULL;
  ct_status s = c ? CT_OK : ct_last_error();
  if (s == CT_OK) {
    flat = ct__reshape_impl(c, (ct_shape){.data = A->sizes, .ndim = A->ndim});
    s = flat ? ct__copy_into(flat, A) : ct_last_error();
  }
  bool ok = s == CT_OK;
  const double *v = ok ? (const double *)ct__tdata(c) : NULL;
  for (int64_t i = 0; ok && i < A->numel * (cx ? 2 : 1); i++) ok = isfinite(v[i]);
  ct_release(flat);
  ct_release(c);
  if (s == CT_OK && !ok)
    ct__error(CT_ERR_RUNTIME, "torch.linalg.eig: input tensor should not contain infs or NaNs.");
  return ok;
}

/* checkLinalgCompatibleDtype against the complex result dtype (ComplexHalf: complex outs only). */
static bool out_ok(const ct_tensor *out, ct_dtype cdt, bool half, const ct_tensor *A, const char *api,
                   const char *what) {
  if (!half) return ct__la_castable_ok(out, cdt, A, api, what);
  if (ct__dt((ct_dtype)out->dtype)->category == CT_CAT_COMPLEX) return true;
  ct__error(CT_ERR_RUNTIME,
            "%s: Expected %s to be safely castable from ComplexHalf dtype, but got %s with dtype %s", api,
            what, what, ct__dt((ct_dtype)out->dtype)->scalar_name);
  return false;
}

/* The complex eigenvectors of a real matrix from geev's real columns vr (n x n, column-major): a column whose
   eigenvalue has a nonzero imaginary part starts a pair, v_j = vr_j + i vr_j+1 and v_j+1 = vr_j - i vr_j+1. */
#define CT__EIG_PAIRS(R, C)                                              \
  static void pairs_##R(const R *vr, const R *wi, C *v, int64_t n) {     \
    for (int64_t j = 0; j < n; j++) {                                    \
      if (wi[j] == 0 || j + 1 == n) {                                    \
        for (int64_t i = 0; i < n; i++) v[j * n + i] = (C)vr[j * n + i]; \
        continue;                                                        \
      }                                                                  \
      for (int64_t i = 0; i < n; i++) {                                  \
        R re = vr[j * n + i], im = vr[(j + 1) * n + i];                  \
        R p[2] = {re, im}, m[2] = {re, -im};                             \
        memcpy(&v[j * n + i], p, sizeof p);                              \
        memcpy(&v[(j + 1) * n + i], m, sizeof m);                        \
      }                                                                  \
      j++;                                                               \
    }                                                                    \
  }
CT__EIG_PAIRS(float, float complex)
CT__EIG_PAIRS(double, double complex)

/* geev over A's batched column-major copy: the eigenvalues (batch + [n], complex, contiguous) and, with vectors,
   the eigenvectors (A's shape, complex, batched column-major). A: square, one of LAPACK's four dtypes. */
static ct_status eig_new(const ct_tensor *A, bool vectors, const char *api, ct_tensor **w, ct_tensor **V) {
  *w = *V = NULL;
  ct_dtype dt = (ct_dtype)A->dtype, cdt = dt == CT_FLOAT32   ? CT_COMPLEX64
                                          : dt == CT_FLOAT64 ? CT_COMPLEX128
                                                             : dt;
  bool real = dt != cdt;
  int64_t nd = A->ndim, n = A->sizes[nd - 1], nb = ct__la_batch(A);
  if (!ct__la_int_ok(n)) return ct_last_error();
  size_t rsz = ct__itemsize(cdt) / 2;
  ct_tensor *W = ct__la_colmajor_copy(A, nd, A->sizes);
  ct_tensor *ev = W ? ct__la_empty(A, nd - 1, A->sizes, cdt) : NULL;
  ct_tensor *vec = ev && vectors ? ct__la_empty_colmajor(A, nd, A->sizes, cdt) : NULL;
  ct_tensor *info = ev && (vec || !vectors) ? ct__la_empty(A, nd - 2, A->sizes, CT_INT32) : NULL;
  /* a real A's eigenvalues (wr then wi) and real eigenvector columns */
  void *wbuf = real && n > 0 ? ct__malloc(2 * rsz * (size_t)n) : NULL;
  void *vbuf = real && vectors && n > 0 ? ct__malloc(rsz * (size_t)(n * n)) : NULL;
  ct_status s = info ? CT_OK : ct_last_error();
  if (s == CT_OK && real && n > 0 && (!wbuf || (vectors && !vbuf)))
    s = (ct__oom_error(0), CT_ERR_OUT_OF_MEMORY);
  for (int64_t b = 0; s == CT_OK && b < nb; b++) {
    void *wout = real ? wbuf : ct__la_at(ev, b * n);
    void *vout = !vectors ? NULL : real ? vbuf : ct__la_at(vec, b * n * n);
    int r = n == 0
                ? 0
                : ct__la_geev(dt, vectors ? 'V' : 'N', (int)n, ct__la_at(W, b * n * n), (int)n, wout, vout);
    if (r == CT_LA_NO_MEMORY) {
      s = (ct__oom_error(0), CT_ERR_OUT_OF_MEMORY);
      break;
    }
    *(int32_t *)ct__la_at(info, b) = r;
    if (!real || n == 0) continue;
    if (dt == CT_FLOAT32) {
      const float *wr = wbuf, *wi = wr + n;
      float complex *e = (float complex *)(void *)ct__la_at(ev, b * n);
      for (int64_t i = 0; i < n; i++) {
        float p[2] = {wr[i], wi[i]};
        memcpy(&e[i], p, sizeof p);
      }
      if (vectors) pairs_float(vbuf, wi, (float complex *)(void *)ct__la_at(vec, b * n * n), n);
    } else {
      const double *wr = wbuf, *wi = wr + n;
      double complex *e = (double complex *)(void *)ct__la_at(ev, b * n);
      for (int64_t i = 0; i < n; i++) {
        double p[2] = {wr[i], wi[i]};
        memcpy(&e[i], p, sizeof p);
      }
      if (vectors) pairs_double(vbuf, wi, (double complex *)(void *)ct__la_at(vec, b * n * n), n);
    }
  }
  ct__free(wbuf);
  ct__free(vbuf);
  ct_release(W);
  if (s == CT_OK && !ct__la_check_errors(info, api)) s = ct_last_error();
  ct_release(info);
  if (s != CT_OK) {
    ct_release(ev);
    ct_release(vec);
    return s;
  }
  ct__grad_mark_result(ev, A);
  if (vec) ct__grad_mark_result(vec, A);
  *w = ev;
  *V = vec;
  return CT_OK;
}

/* linalg_eig_out's checks in torch's order (the plain form computes the complex dtype first). */
static bool eig_args(const ct_tensor *A, const ct_tensor *out_w, const ct_tensor *out_v, bool vectors) {
  const char *api = vectors ? "linalg.eig" : "linalg.eigvals",
             *tapi = vectors ? "torch.linalg.eig" : "torch.linalg.eigvals";
  ct_dtype cdt;
  bool half;
  if (!out_w && !complex_of(A, &cdt, &half)) return false;
  if (vectors && !finite_ok(A)) return false;
  if (!ct__la_ndim_ok(A, api, "A") || !ct__la_square_ok(A, api)) return false;
  if (out_w && (!complex_of(A, &cdt, &half) || !out_ok(out_w, cdt, half, A, tapi, "eigenvalues")))
    return false;
  if (out_v && !out_ok(out_v, cdt, half, A, tapi, "eigenvectors")) return false;
  if (A->device_type == CT_META) { /* eigvals_out: torch copies A into a CPU workspace next */
    ct__error(CT_ERR_NOT_IMPLEMENTED, "Cannot copy out of meta tensor; no data!");
    return false;
  }
  return ct__la_kernel_ok(A, "linalg_eig_out_cpu");
}

/* torch's eig out= forms lay an empty out of the result's dtype as the result is laid (eigenvectors batched
   column-major: it computes into it); an out of another dtype (computed into a temporary) or another shape with
   elements is resize_output-ed (contiguous when the shape differs), then every out is copied into. */
static ct_status write_outs(ct_tensor **r, ct_tensor *const *outs, int n, ct_status s) {
  for (int k = 0; k < n && s == CT_OK; k++) {
    ct_tensor *o = outs[k];
    if (o->numel == 0 && o->dtype == r[k]->dtype)
      s = ct__tensor_resize_ok(o, r[k]->ndim, r[k]->sizes)
              ? ct__tensor_resize(o, r[k]->ndim, r[k]->sizes, r[k]->strides)
              : ct_last_error();
    if (s == CT_OK) s = ct__la_write_out_contiguous(o, r[k]);
  }
  for (int k = 0; k < n; k++) ct_release(r[k]);
  return s;
}

ct_status ct_linalg_eig(const ct_tensor *A, ct_tensor **eigenvalues, ct_tensor **eigenvectors) {
  if (eigenvalues) *eigenvalues = NULL;
  if (eigenvectors) *eigenvectors = NULL;
  CT__OP_ENTER_STATUS(&eig_op, A, A);
  ct_tensor *r[2] = {NULL, NULL};
  ct_status s =
      eig_args(A, NULL, NULL, true) ? eig_new(A, true, "torch.linalg.eig", &r[0], &r[1]) : ct_last_error();
  return ct__la_deliver2(r, NULL, NULL, eigenvalues, eigenvectors, s);
}

ct_status ct_linalg_eig_out(ct_tensor *eigenvalues, ct_tensor *eigenvectors, const ct_tensor *A) {
  CT__NONNULL_STATUS(eigenvalues, eigenvectors, A);
  if (!CT__OP_OUT_GRAD_OK(&eig_op, eigenvalues, eigenvectors, A)) return CT_ERR_RUNTIME;
  if (!CT__OP_ACCEPTS(&eig_op, "aten::linalg_eig.out", A, eigenvalues, eigenvectors)) return ct_last_error();
  if (!eig_args(A, eigenvalues, eigenvectors, true)) return ct_last_error();
  ct_tensor *r[2];
  ct_status s = eig_new(A, true, "torch.linalg.eig", &r[0], &r[1]);
  return write_outs(r, (ct_tensor *const[]){eigenvalues, eigenvectors}, 2, s);
}

ct_tensor *ct_linalg_eigvals(const ct_tensor *A) {
  CT__OP_ENTER_PTR(&eigvals_op, A, A);
  ct_tensor *w, *V;
  if (!eig_args(A, NULL, NULL, false) || eig_new(A, false, "torch.linalg.eigvals", &w, &V) != CT_OK)
    return NULL;
  return ct__own(w);
}

ct_status ct_linalg_eigvals_out(ct_tensor *out, const ct_tensor *A) {
  CT__NONNULL_STATUS(out, A);
  /* torch's linalg_eigvals_out is a CPU function it runs on any device: on meta its checks, then eig_args's
     refusal where it copies A to the CPU (the out untouched) */
  if (A->device_type != CT_META && !ct__op_accepts(&eigvals_op, A)) return ct_last_error();
  if (!CT__OP_OUT_GRAD_OK(&eigvals_op, out, A)) return CT_ERR_RUNTIME;
  if (!eig_args(A, out, NULL, false)) return ct_last_error();
  ct_tensor *w, *V;
  ct_status s = eig_new(A, false, "torch.linalg.eigvals", &w, &V);
  return write_outs(&w, &out, 1, s);
}
