/* linalg.matrix_norm, linalg.norm and torch.norm's nuclear norm: torch 1.13's composites (LinearAlgebra.cpp:
   linalg_matrix_norm's two overloads, _linalg_matrix_norm_checks, linalg_norm's two overloads, nuclear_norm), the
   same inner operations in the same order, so that each step runs the kernel torch runs: linalg.vector_norm,
   amax / amin, sum (reductions), linalg.svdvals (gesdd), and the views between them. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ops/join/join_internal.h"
#include "ops/linalg/linalg_internal.h"
#include "ops/reduce/red.h"

static const ct_op matrix_norm_op = CT_LINALG_COMPOSITE_OP("linalg_matrix_norm", "aten::linalg_matrix_norm");
static const ct_op linalg_norm_op = CT_LINALG_COMPOSITE_OP("linalg_norm", "aten::linalg_norm");

/* The order of a matrix norm once read: 'fro', 'nuc' or a number. */
typedef enum { M_FRO, M_NUC, M_NUM } mkind;

/* create_dim_backshift_permutation: the other dims in order, then d0, d1 (both wrapped). */
static bool backshift(int64_t d0, int64_t d1, int64_t ndim, int64_t *perm) {
  if (d0 == d1 || d0 < 0 || d1 < 0 || d0 >= ndim || d1 >= ndim) {
    ct__error(CT_ERR_RUNTIME, "duplicate or invalid dimensions");
    return false;
  }
  int64_t k = 0;
  for (int64_t i = 0; i < ndim; i++)
    if (i != d0 && i != d1) perm[k++] = i;
  perm[k++] = d0;
  perm[k] = d1;
  return true;
}

/* f(svdvals(A.permute(backshift(d0, d1))), -1, keepdim) with f amax, amin or sum, and for keepdim the result's
   last two dims put back where d0 and d1 were (unsqueeze(-1), then the reverse permutation). Scope-owned. */
typedef enum { SV_MAX, SV_MIN, SV_SUM } sv_reduce;
static ct_tensor *svd_reduce(const ct_tensor *A, int64_t d0, int64_t d1, bool keepdim, sv_reduce f) {
  int64_t nd = A->ndim, perm[CT_LA_MAXDIM], rev[CT_LA_MAXDIM];
  if (nd > CT_LA_MAXDIM) {
    ct__error(CT_ERR_RUNTIME, "linalg: too many dimensions (%lld)", (long long)nd);
    return NULL;
  }
  if (!backshift(d0, d1, nd, perm)) return NULL;
  ct_tensor *P = ct__own(ct__permute_unchecked(A, perm));
  ct_tensor *S = P ? ct__la_svdvals_impl(P) : NULL, *r = NULL;
  if (!S) return NULL;
  int64_t last = -1;
  ct_reduce_opts ro = {.dims = {&last, 1}, .keepdim = keepdim};
  ct_status s = f == SV_SUM ? ct__sum_impl(NULL, S, &ro, &r)
                : f == SV_MAX ? ct__amax_impl(NULL, S, &ro, &r)
                              : ct__amin_impl(NULL, S, &ro, &r);
  if (s != CT_OK || !keepdim) return s == CT_OK ? r : NULL;
  for (int64_t i = 0; i < nd; i++) rev[perm[i]] = i;
  ct_tensor *u = ct__own(ct__unsqueeze_impl(r, -1));
  return u ? ct__own(ct__permute_unchecked(u, rev)) : NULL;
}

/* "Got 1 2 0": how c10 prints a std::vector<int64_t> (the dims as given). */
static void dims_text(ct_dims dims, char *buf, size_t n) {
  size_t k = 0;
  buf[0] = '\0';
  for (int64_t i = 0; i < dims.ndim && k < n; i++)
    k += (size_t)snprintf(buf + k, n - k, "%s%lld", i ? " " : "", (long long)dims.data[i]);
}

/* "[0, 1, 2]": how c10 prints an IntArrayRef. */
static void list_text(ct_dims dims, char *buf, size_t n) {
  size_t k = (size_t)snprintf(buf, n, "[");
  for (int64_t i = 0; i < dims.ndim && k < n; i++)
    k += (size_t)snprintf(buf + k, n - k, "%s%lld", i ? ", " : "", (long long)dims.data[i]);
  if (k < n) snprintf(buf + k, n - k, "]");
}

/* linalg_matrix_norm (both overloads): ord (its text for messages: ord_txt), then _linalg_matrix_norm_checks, then
   the norm; a new scope-owned *res. */
static ct_status matrix_norm_new(const ct_tensor *A, mkind kind, double ord, ct_dims dims, bool keepdim,
                                 ct_dtype dtype, ct_tensor **res) {
  const char *api = "linalg.matrix_norm";
  double a = fabs(ord);
  if (kind == M_NUM && a != 2 && a != 1 && a != INFINITY) {
    ct__error(CT_ERR_RUNTIME, "%s: Order %g not supported.", api, ord);
    return CT_ERR_RUNTIME;
  }
  bool svd = kind == M_NUC || (kind == M_NUM && a == 2);
  if (!ct__la_ndim_ok(A, api, "A") || !ct__la_float_ok(A, api) || (svd && !ct__la_lowprec_ok(A, api)))
    return ct_last_error();
  int64_t d[2] = {-2, -1};
  if (dims.ndim != 0 && dims.ndim != 2) {
    char txt[512];
    dims_text(dims, txt, sizeof txt);
    ct__error(CT_ERR_RUNTIME, "%s: dim must be a 2-tuple. Got %s", api, txt);
    return CT_ERR_RUNTIME;
  }
  if (dims.ndim == 2) memcpy(d, dims.data, sizeof d);
  for (int i = 0; i < 2; i++)
    if ((d[i] = ct__wrap_dim(d[i], A->ndim)) < 0) return ct_last_error();
  if (d[0] == d[1]) {
    ct__error(CT_ERR_RUNTIME, "%s: dims must be different. Got (%lld, %lld)", api, (long long)d[0], (long long)d[1]);
    return CT_ERR_RUNTIME;
  }
  if (dtype && !ct__check_dtype(dtype)) return ct_last_error();
  if (!ct__linalg_norm_dtype_ok((ct_dtype)A->dtype, dtype, api)) return CT_ERR_RUNTIME;

  if (kind == M_FRO)
    return ct__linalg_vector_norm_impl(
        NULL, A, &(ct_vector_norm_opts){.ord = ct_scalar_int(2), .dims = {d, 2}, .keepdim = keepdim, .dtype = dtype},
        res);
  if (svd) {
    const ct_tensor *X = dtype ? ct__to_dtype_impl(A, dtype) : A;
    *res = X ? svd_reduce(X, d[0], d[1], keepdim, kind == M_NUC ? SV_SUM : ord > 0 ? SV_MAX : SV_MIN) : NULL;
    return *res ? CT_OK : ct_last_error();
  }
  /* 1, -1, inf, -inf: the 1-norm of each column (of each row for inf: the transpose's columns), then the extreme
     over the other dim, which moved down by one when the first reduction dropped a dim before it */
  if (a == INFINITY) {
    int64_t t = d[0];
    d[0] = d[1];
    d[1] = t;
  }
  if (!keepdim && d[0] < d[1]) d[1]--;
  ct_tensor *v = NULL;
  ct_status s = ct__linalg_vector_norm_impl(
      NULL, A, &(ct_vector_norm_opts){.ord = ct_scalar_double(1.0), .dims = {d, 1}, .keepdim = keepdim, .dtype = dtype},
      &v);
  if (s != CT_OK) return s;
  ct_reduce_opts ro = {.dims = {&d[1], 1}, .keepdim = keepdim};
  return ord > 0 ? ct__amax_impl(NULL, v, &ro, res) : ct__amin_impl(NULL, v, &ro, res);
}

/* The out= tail of matrix_norm and norm: the result's dtype against out's ("linalg.norm expected out tensor dtype
   Float but got: Double"), then resize_output and copy_; without out, the result handed past the caller's scope. */
static ct_status deliver(const char *api, ct_tensor *out, ct_tensor *r, ct_tensor **res) {
  if (!out) {
    *res = ct_keep(r);
    return CT_OK;
  }
  if ((ct_dtype)r->dtype != (ct_dtype)out->dtype) {
    ct__error(CT_ERR_RUNTIME, "%s expected out tensor dtype %s but got: %s", api, ct__dt((ct_dtype)r->dtype)->scalar_name,
              ct__dt((ct_dtype)out->dtype)->scalar_name);
    return CT_ERR_RUNTIME;
  }
  return ct__join_copy_out(out, r);
}

/* What matrix_norm's and norm's options hold (the same fields; their defaults differ). */
typedef struct {
  ct_norm_ord ord;
  ct_scalar p;
  ct_dims dims;
  bool keepdim;
  ct_dtype dtype;
} norm_args;

/* linalg_norm (both overloads): the dims' count, then matrix_norm over two dims (given, or a 2-D A's when an order
   is) or vector_norm (ord None: 2 over dims or everything; a number over one dim or a 1-D A). */
static ct_status linalg_norm_new(const ct_tensor *A, const norm_args *o, mkind kind, double ord, ct_tensor **res) {
  const char *api = "linalg.norm";
  bool has_ord = o->ord != CT_NORM_DEFAULT, is_str = has_ord && kind != M_NUM;
  if (o->dims.ndim != 0 && o->dims.ndim != 1 && o->dims.ndim != 2) {
    char txt[512];
    list_text(o->dims, txt, sizeof txt);
    /* torch's own spellings of the two overloads */
    ct__error(CT_ERR_RUNTIME, "%s: If dim is specified, it %s be of length 1 or 2. Got %s", api,
              is_str ? "mut" : "must", txt);
    return CT_ERR_RUNTIME;
  }
  if (o->dims.ndim == 0 && has_ord && A->ndim != 1 && A->ndim != 2) {
    ct__error(CT_ERR_RUNTIME, "%s: If dim is not specified but ord is, the input must be 1D or 2D. Got %lldD.", api,
              (long long)A->ndim);
    return CT_ERR_RUNTIME;
  }
  if (is_str || (has_ord && (o->dims.ndim == 2 || (o->dims.ndim == 0 && A->ndim == 2)))) {
    int64_t d01[2] = {0, 1};
    ct_dims dims = o->dims.ndim ? o->dims : (ct_dims){d01, 2};
    return matrix_norm_new(A, kind, ord, dims, o->keepdim, o->dtype, res);
  }
  ct_vector_norm_opts vo = {.ord = has_ord ? o->p : ct_scalar_double(2.0), .dims = o->dims, .keepdim = o->keepdim,
                            .dtype = o->dtype};
  return ct__linalg_vector_norm_impl(NULL, A, &vo, res);
}

/* matrix_norm (linalg false) or norm: the order read, checkSameDevice (torch passes A as its "result"), the norm
   in a scope of its own, then out= or the result. */
static ct_status norm_run(bool linalg, ct_tensor *out, const ct_tensor *A, norm_args a, ct_tensor **res) {
  const char *api = linalg ? "linalg.norm" : "linalg.matrix_norm";
  mkind kind = a.ord == CT_NORM_P ? M_NUM : a.ord == CT_NORM_NUC ? M_NUC : M_FRO;
  double ord;
  if (!ct__la_norm_ord(a.ord, a.p, linalg ? "ct_linalg_norm" : "ct_linalg_matrix_norm", &ord) ||
      !ct__check_list(a.dims, "dims"))
    return ct_last_error();
  if (out && !ct__la_same_device_ok(api, A, out)) return CT_ERR_RUNTIME;
  ct_status s = ct_scope_begin();
  ct_tensor *r = NULL;
  if (s == CT_OK)
    s = linalg ? linalg_norm_new(A, &a, kind, ord, &r) : matrix_norm_new(A, kind, ord, a.dims, a.keepdim, a.dtype, &r);
  if (s == CT_OK) s = deliver(api, out, r, res);
  ct_scope_end();
  return s;
}

ct_status ct__la_matrix_norm_impl(ct_tensor *out, const ct_tensor *A, const ct_matrix_norm_opts *opts,
                                  ct_tensor **res) {
  ct_matrix_norm_opts o = opts ? *opts : (ct_matrix_norm_opts){0};
  return norm_run(false, out, A, (norm_args){o.ord, o.p, o.dims, o.keepdim, o.dtype}, res);
}

static ct_status linalg_norm_impl(ct_tensor *out, const ct_tensor *A, const ct_linalg_norm_opts *opts,
                                  ct_tensor **res) {
  ct_linalg_norm_opts o = opts ? *opts : (ct_linalg_norm_opts){0};
  return norm_run(true, out, A, (norm_args){o.ord, o.p, o.dims, o.keepdim, o.dtype}, res);
}

/* The public pairs (their descriptors' grad slot is NONE: out= takes arguments that require grad, as torch's
   composites do). */
CT_RED_DEFINE_API(linalg_matrix_norm, &matrix_norm_op, ct_matrix_norm_opts, ct__la_matrix_norm_impl, )
CT_RED_DEFINE_API(linalg_norm, &linalg_norm_op, ct_linalg_norm_opts, linalg_norm_impl, )

/* ---- torch.norm(p='nuc'): at::nuclear_norm after torch.norm's checks (src/ops/reduce/norm.c) ---- */

ct_status ct__la_nuclear_norm(ct_tensor *out, const ct_tensor *t, int64_t d0, int64_t d1, bool keepdim,
                              ct_tensor **res) {
  ct_status s = ct_scope_begin();
  ct_tensor *r = NULL;
  if (s == CT_OK) {
    r = svd_reduce(t, d0, d1, keepdim, SV_SUM);
    s = !r ? ct_last_error() : out ? ct__join_copy_out(out, r) : CT_OK;
    if (s == CT_OK && !out) *res = ct_keep(r);
  }
  ct_scope_end();
  return s;
}
