/* The pieces the linear algebra ops share (linalg_internal.h): torch's checks and messages, batched column-major
   workspaces, info checks and the out= tail. */
#include "ops/linalg/linalg_internal.h"

#include "core/parallel.h"
#include "kernels/cpu/blas.h"

#include "ops/join/join_internal.h"
#include "ops/sort/sort_internal.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>

bool ct__la_ndim_ok(const ct_tensor *t, const char *api, const char *what) {
  if (t->ndim >= 2) return true;
  ct__error(CT_ERR_RUNTIME, "%s: The input tensor %s must have at least 2 dimensions.", api, what);
  return false;
}

bool ct__la_square_ok(const ct_tensor *t, const char *api) {
  int64_t m = t->sizes[t->ndim - 2], n = t->sizes[t->ndim - 1];
  if (m == n) return true;
  ct__error(CT_ERR_RUNTIME, "%s: A must be batches of square matrices, but they are %lld by %lld matrices",
            api, (long long)m, (long long)n);
  return false;
}

bool ct__la_float_ok(const ct_tensor *t, const char *api) {
  ct_dtype dt = (ct_dtype)t->dtype;
  if (ct__dt(dt)->category >= CT_CAT_FLOAT) return true;
  ct__error(CT_ERR_RUNTIME, "%s: Expected a floating point or complex tensor as input. Got %s", api,
            ct__dt(dt)->scalar_name);
  return false;
}

bool ct__la_lowprec_ok(const ct_tensor *t, const char *api) {
  ct_dtype dt = (ct_dtype)t->dtype;
  if (dt != CT_FLOAT16 && dt != CT_BFLOAT16) return true;
  ct__error(CT_ERR_RUNTIME, "%s: Low precision dtypes not supported. Got %s", api, ct__dt(dt)->scalar_name);
  return false;
}

bool ct__la_dtype(ct_dtype dt) {
  return dt == CT_FLOAT32 || dt == CT_FLOAT64 || dt == CT_COMPLEX64 || dt == CT_COMPLEX128;
}

bool ct__la_kernel_ok(const ct_tensor *t, const char *kernel) {
  if (ct__la_dtype((ct_dtype)t->dtype)) return true;
  ct__error(CT_ERR_RUNTIME, "\"%s\" not implemented for '%s'", kernel,
            ct__dt((ct_dtype)t->dtype)->scalar_name);
  return false;
}

ct_dtype ct__la_real(ct_dtype dt) { return (ct_dtype)ct__dt(dt)->real_dtype; }

bool ct__la_int_ok(int64_t n) {
  if (n <= INT_MAX) return true;
  ct__error(CT_ERR_RUNTIME, "The matrix size %lld does not fit LAPACK's 32-bit int", (long long)n);
  return false;
}

ct_tensor *ct__la_empty(const ct_tensor *like, int64_t ndim, const int64_t *sizes, ct_dtype dt) {
  return ct__empty(ndim, sizes, dt, ct__tdevice(like));
}

ct_tensor *ct__la_empty_colmajor(const ct_tensor *like, int64_t ndim, const int64_t *sizes, ct_dtype dt) {
  ct_tensor *t = ct__la_empty(like, ndim, sizes, dt);
  if (!t || ndim < 2) return t;
  /* the contiguous strides of the shape with its last two dims swapped, swapped back */
  int64_t sw[CT_LA_MAXDIM], st[CT_LA_MAXDIM];
  memcpy(sw, sizes, (size_t)ndim * sizeof(int64_t));
  sw[ndim - 2] = sizes[ndim - 1];
  sw[ndim - 1] = sizes[ndim - 2];
  ct__contiguous_strides(ndim, sw, st);
  memcpy(t->strides, st, (size_t)ndim * sizeof(int64_t));
  t->strides[ndim - 2] = st[ndim - 1];
  t->strides[ndim - 1] = st[ndim - 2];
  return t;
}

ct_tensor *ct__la_colmajor_copy(const ct_tensor *src, int64_t ndim, const int64_t *sizes) {
  /* every LAPACK input comes through here: OpenBLAS loaded (or the error recorded), its threads set */
  if (!ct__blas_ready()) return NULL;
  ct__blas_sync_threads();
  ct_tensor *r = ct__la_empty_colmajor(src, ndim, sizes, (ct_dtype)src->dtype);
  if (!r) return NULL;
  ct_tensor *e = ct__expand_impl(src, (ct_shape){sizes, ndim});
  ct_status s = e ? ct__copy_into(r, e) : ct_last_error();
  ct_release(e);
  if (s != CT_OK) {
    ct_release(r);
    return NULL;
  }
  return r;
}

int64_t ct__la_batch(const ct_tensor *t) {
  int64_t b = 1;
  for (int64_t d = 0; d + 2 < t->ndim; d++) b *= t->sizes[d];
  return b;
}

bool ct__la_check_errors(const ct_tensor *info, const char *api) {
  if (info->device_type == CT_META) return true; /* no values: torch's meta path checks nothing */
  const int32_t *p = (const int32_t *)ct__tdata(info);
  for (int64_t i = 0; i < info->numel; i++) {
    if (p[i] == 0) continue;
    char batch[64] = "";
    if (info->ndim > 0) snprintf(batch, sizeof batch, ": (Batch element %lld)", (long long)i);
    int v = p[i];
    if (v == -4 && strstr(api, "svd")) { /* gesdd's answer to a NaN in A */
      ct__error(CT_ERR_LINALG,
                "%s%s: The algorithm failed to converge because the input matrix contained non-finite values.", api,
                batch);
    } else if (v < 0) {
      ct__error(CT_ERR_RUNTIME,
                "%s%s: Argument %d has illegal value. Most certainly there is a bug in the "
                "implementation calling the backend library.",
                api, batch, -v);
    } else if (strstr(api, "inv")) {
      ct__error(CT_ERR_LINALG,
                "%s%s: The diagonal element %d is zero, the inversion could not be completed because "
                "the input matrix is singular.",
                api, batch, v);
    } else if (strstr(api, "solve")) {
      ct__error(CT_ERR_LINALG, "%s%s: The solver failed because the input matrix is singular.", api, batch);
    } else if (strstr(api, "cholesky")) {
      ct__error(CT_ERR_LINALG,
                "%s%s: The factorization could not be completed because the input is not "
                "positive-definite (the leading minor of order %d is not positive-definite).",
                api, batch, v);
    } else if (strstr(api, "svd")) {
      ct__error(CT_ERR_LINALG,
                "%s%s: The algorithm failed to converge because the input matrix is ill-conditioned "
                "or has too many repeated singular values (error code: %d).",
                api, batch, v - 1);
    } else {
      ct__error(CT_ERR_LINALG,
                "%s%s: The algorithm failed to converge because the input matrix is ill-conditioned "
                "or has too many repeated eigenvalues (error code: %d).",
                api, batch, v);
    }
    return false;
  }
  return true;
}

bool ct__la_out_ok(const ct_tensor *out, ct_dtype want, const ct_tensor *like) {
  return ct__join_out_dtype_is(out, want) && ct__join_out_device_ok(out, like);
}

ct_status ct__la_write_out(ct_tensor *out, const ct_tensor *r) {
  bool same = out->ndim == r->ndim && memcmp(out->sizes, r->sizes, (size_t)r->ndim * sizeof(int64_t)) == 0;
  /* a result torch returns with the conjugate bit (solve's left=False) sets it on an out that torch's kernel
     writes directly (resized, or already of the result's shape and strides), as its in-place conj does;
     the copy engine then stores out's values conjugated. Another out gets the values through a copy
     (torch's structured kernels compute into a proxy then). */
  bool conj = ct__math_bits(r) & CT_TENSOR_CONJ && ct__dt((ct_dtype)out->dtype)->category == CT_CAT_COMPLEX &&
              (!same || memcmp(out->strides, r->strides, (size_t)r->ndim * sizeof(int64_t)) == 0);
  if (!same) {
    if (!ct__tensor_resize_ok(out, r->ndim, r->sizes)) return ct_last_error();
    ct_status s = ct__tensor_resize(out, r->ndim, r->sizes, r->strides);
    if (s != CT_OK) return s;
  }
  if (conj) out->flags |= CT_TENSOR_CONJ;
  return ct__copy_into(out, r);
}

ct_status ct__la_write_outs(ct_tensor **r, ct_tensor *const *outs, int n, ct_status s) {
  for (int k = 0; k < n && s == CT_OK; k++)
    if (outs[k]) s = ct__la_write_out(outs[k], r[k]);
  for (int k = 0; k < n; k++) ct_release(r[k]);
  return s;
}

ct_status ct__la_deliver2(ct_tensor **r, ct_tensor *out0, ct_tensor *out1, ct_tensor **want0,
                          ct_tensor **want1, ct_status s) {
  if (out0) return ct__la_write_outs(r, (ct_tensor *const[]){out0, out1}, 2, s);
  return ct__sort_hand_out(r, (ct_tensor * *const[]){want0, want1}, 2, s);
}

typedef struct getrf_job {
  ct_tensor *lu, *piv, *info;
  int64_t m, n, k;
} getrf_job;

static void getrf_one(void *c, int64_t b) {
  const getrf_job *j = c;
  int32_t *ip = (int32_t *)ct__la_at(j->piv, b * j->k), *fo = (int32_t *)ct__la_at(j->info, b);
  *fo = j->m == 0 || j->n == 0
            ? 0
            : ct__la_getrf((ct_dtype)j->lu->dtype, (int)j->m, (int)j->n, ct__la_at(j->lu, b * j->m * j->n),
                           (int)(j->m > 1 ? j->m : 1), ip);
}

ct_status ct__la_lu_factor(const ct_tensor *A, bool trans, ct_tensor **LU, ct_tensor **pivots,
                           ct_tensor **info) {
  *LU = *pivots = *info = NULL;
  int64_t nd = A->ndim, m = A->sizes[nd - 2], n = A->sizes[nd - 1], k = m < n ? m : n;
  if (!ct__la_int_ok(m) || !ct__la_int_ok(n)) return ct_last_error();
  ct_tensor *src = trans ? ct__transpose_impl(A, -2, -1) : ct__alias_impl(A);
  if (!src) return ct_last_error();
  bool meta = A->device_type == CT_META; /* the geometry, nothing factored */
  ct_tensor *lu = meta ? ct__la_empty_colmajor(src, nd, src->sizes, (ct_dtype)A->dtype)
                       : ct__la_colmajor_copy(src, nd, src->sizes);
  ct_release(src);
  if (!lu) return ct_last_error();
  int64_t psz[CT_LA_MAXDIM];
  memcpy(psz, A->sizes, (size_t)(nd - 2) * sizeof(int64_t));
  psz[nd - 2] = k;
  ct_tensor *piv = ct__la_empty(A, nd - 1, psz, CT_INT32), *inf = ct__la_empty(A, nd - 2, psz, CT_INT32);
  if (!piv || !inf) {
    ct_release(lu);
    ct_release(piv);
    ct_release(inf);
    return ct_last_error();
  }
  int64_t mm = lu->sizes[nd - 2], nn = lu->sizes[nd - 1];
  getrf_job j = {.lu = lu, .piv = piv, .info = inf, .m = mm, .n = nn, .k = k};
  if (!meta) ct__la_for_each_matrix(ct__la_batch(A), mm, nn, getrf_one, &j);
  *LU = lu;
  *pivots = piv;
  *info = inf;
  return CT_OK;
}

/* ---- eig family ---- */

bool ct__la_castable_ok(const ct_tensor *out, ct_dtype from, const ct_tensor *like, const char *api, const char *what) {
  if (!ct_can_cast(from, (ct_dtype)out->dtype)) {
    ct__error(CT_ERR_RUNTIME, "%s: Expected %s to be safely castable from %s dtype, but got %s with dtype %s", api,
              what, ct__dt(from)->scalar_name, what, ct__dt((ct_dtype)out->dtype)->scalar_name);
    return false;
  }
  return ct__join_out_device_ok(out, like);
}

/* ---- lu family ---- */

#include "iter/iter.h" /* ct__broadcast_shapes */

/* r (new) takes src expanded to its shape; r is released on failure. */
static ct_tensor *take_expanded(ct_tensor *r, const ct_tensor *src) {
  ct_tensor *e = r ? ct__expand_impl(src, (ct_shape){r->sizes, r->ndim}) : NULL;
  ct_status s = e ? ct__copy_into(r, e) : CT_ERR_RUNTIME;
  ct_release(e);
  if (s == CT_OK) return r;
  ct_release(r);
  return NULL;
}

ct_tensor *ct__la_colmajor_cast(const ct_tensor *src, int64_t ndim, const int64_t *sizes, ct_dtype dt) {
  if (!ct__blas_ready()) return NULL;
  ct__blas_sync_threads();
  return take_expanded(ct__la_empty_colmajor(src, ndim, sizes, dt), src);
}

ct_tensor *ct__la_contiguous_copy(const ct_tensor *src, int64_t ndim, const int64_t *sizes) {
  return take_expanded(ct__la_empty(src, ndim, sizes, (ct_dtype)src->dtype), src);
}

ct_status ct__la_write_out_contiguous(ct_tensor *out, const ct_tensor *r) {
  bool same = out->ndim == r->ndim && memcmp(out->sizes, r->sizes, (size_t)r->ndim * sizeof(int64_t)) == 0;
  if (!same) {
    if (!ct__tensor_resize_ok(out, r->ndim, r->sizes)) return ct_last_error();
    ct_status s = ct__tensor_resize(out, r->ndim, r->sizes, NULL);
    if (s != CT_OK) return s;
  }
  return ct__copy_into(out, r);
}

/* ---- norm family ---- */

bool ct__la_same_device_ok(const char *api, const ct_tensor *result, const ct_tensor *input) {
  if (ct_device_equal(ct__tdevice(result), ct__tdevice(input))) return true;
  char a[32], b[32];
  ct_device_str(ct__tdevice(result), a, sizeof a);
  ct_device_str(ct__tdevice(input), b, sizeof b);
  ct__error(CT_ERR_RUNTIME,
            "%s: Expected result and input tensors to be on the same device, but got result on %s and input on %s",
            api, a, b);
  return false;
}

bool ct__la_norm_ord(ct_norm_ord ord, ct_scalar p, const char *fn, double *value) {
  *value = 0;
  if (ord != CT_NORM_DEFAULT && ord != CT_NORM_P && ord != CT_NORM_FRO && ord != CT_NORM_NUC) {
    ct__error(CT_ERR_VALUE, "%s: ord must be CT_NORM_DEFAULT, CT_NORM_P, CT_NORM_FRO or CT_NORM_NUC, got %d", fn,
              (int)ord);
    return false;
  }
  if (ord != CT_NORM_P) {
    if (p.kind == 0) return true;
    ct__error(CT_ERR_VALUE, "%s: p is given but ord is not CT_NORM_P (the number would be ignored)", fn);
    return false;
  }
  if (p.kind == 0) {
    ct__error(CT_ERR_VALUE, "%s: ord CT_NORM_P needs its number in p", fn);
    return false;
  }
  if (!ct__check_scalar(p)) return false;
  if (p.kind == CT_SCALAR_COMPLEX && p.v.c.im != 0) {
    ct__error(CT_ERR_RUNTIME, "value cannot be converted to type double without overflow");
    return false;
  }
  *value = ct__scalar_to_double(p);
  return true;
}

ct_status ct__la_write_out_as(ct_tensor *out, const ct_tensor *r, bool restride) {
  bool same = out->ndim == r->ndim && memcmp(out->sizes, r->sizes, (size_t)r->ndim * sizeof(int64_t)) == 0;
  if (!same || restride) {
    if (!ct__tensor_resize_ok(out, r->ndim, r->sizes)) return ct_last_error();
    ct_status s = ct__tensor_resize(out, r->ndim, r->sizes, r->strides);
    if (s != CT_OK) return s;
  }
  return ct__copy_into(out, r);
}

/* ---- qr family: out= rules of torch's hand-written out functions ---- */

bool ct__la_out_castable_ok(const ct_tensor *out, ct_dtype want, const ct_tensor *like, const char *api,
                            const char *name) {
  if (!ct__join_out_device_ok(out, like)) return false;
  if (ct_can_cast(want, (ct_dtype)out->dtype)) return true;
  ct__error(CT_ERR_RUNTIME, "%s: Expected %s to be safely castable from %s dtype, but got %s with dtype %s", api,
            name, ct__dt(want)->scalar_name, name, ct__dt((ct_dtype)out->dtype)->scalar_name);
  return false;
}

bool ct__la_is_colmajor(const ct_tensor *t) {
  if (t->ndim < 2) return false;
  int64_t nd = t->ndim, sz[CT_LA_MAXDIM], st[CT_LA_MAXDIM];
  memcpy(sz, t->sizes, (size_t)nd * sizeof(int64_t));
  memcpy(st, t->strides, (size_t)nd * sizeof(int64_t));
  sz[nd - 2] = t->sizes[nd - 1];
  sz[nd - 1] = t->sizes[nd - 2];
  st[nd - 2] = t->strides[nd - 1];
  st[nd - 1] = t->strides[nd - 2];
  return ct__geom_is_contiguous(nd, sz, st);
}

ct_status ct__la_write_out_direct(ct_tensor *out, const ct_tensor *r, bool direct) {
  bool same = out->ndim == r->ndim && memcmp(out->sizes, r->sizes, (size_t)r->ndim * sizeof(int64_t)) == 0;
  if (!same || (direct && out->numel == 0)) { /* torch restrides an empty out it computes into */
    if (!ct__tensor_resize_ok(out, r->ndim, r->sizes)) return ct_last_error();
    ct_status s = ct__tensor_resize(out, r->ndim, r->sizes, direct ? r->strides : NULL);
    if (s != CT_OK) return s;
  }
  return ct__copy_into(out, r);
}

bool ct__la_out_castable(const ct_tensor *out, ct_dtype from, const ct_tensor *like, const char *api) {
  return ct__la_castable_ok(out, from, like, api, "result");
}

bool ct__la_broadcast_batch(const ct_tensor *x, const ct_tensor *y, int64_t *bs, int64_t *nb) {
  int64_t nx = x->ndim - 2, ny = y->ndim - 2;
  if (nx > CT_LA_MAXDIM - 2 || ny > CT_LA_MAXDIM - 2) {
    ct__error(CT_ERR_RUNTIME, "linalg: too many dimensions");
    return false;
  }
  *nb = nx > ny ? nx : ny;
  return ct__broadcast_shapes(x->sizes, nx, y->sizes, ny, bs) == CT_OK;
}

bool ct__la_linear_solve_ok(const ct_tensor *b, const ct_tensor *A, const char *name) {
  if (b->dtype != A->dtype) {
    ct__error(CT_ERR_RUNTIME,
              "Expected b and A to have the same dtype, but found b of type %s and A of type %s instead.",
              ct__dt((ct_dtype)b->dtype)->scalar_name, ct__dt((ct_dtype)A->dtype)->scalar_name);
    return false;
  }
  int64_t n = A->sizes[A->ndim - 1], am = A->sizes[A->ndim - 2];
  if (n != am) {
    ct__error(CT_ERR_RUNTIME, "A must be batches of square matrices, but they are %lld by %lld matrices",
              (long long)am, (long long)n);
    return false;
  }
  if (n != b->sizes[b->ndim - 2]) {
    ct__error(
        CT_ERR_RUNTIME,
        "Incompatible matrix sizes for %s: each A matrix is %lld by %lld but each b matrix is %lld by %lld",
        name, (long long)n, (long long)n, (long long)b->sizes[b->ndim - 2], (long long)b->sizes[b->ndim - 1]);
    return false;
  }
  return true;
}

/* ---- batches (the shared driver) ---- */

typedef struct la_job {
  ct_la_matrix_fn *fn;
  void *ctx;
  int64_t n, per; /* matrices, matrices per chunk */
} la_job;

static void la_chunk(void *c, int64_t i, int tid) {
  (void)tid;
  const la_job *j = c;
  int64_t b0 = i * j->per, b1 = b0 + j->per < j->n ? b0 + j->per : j->n;
  for (int64_t b = b0; b < b1; b++) j->fn(j->ctx, b);
}

void ct__la_for_each_matrix(int64_t n, int64_t rows, int64_t cols, ct_la_matrix_fn *fn, void *ctx) {
  /* a matrix's cost in pointwise-element units: its multiply-adds plus a LAPACK call's fixed cost (about
     a microsecond: workspace queries, argument checks) */
  int64_t big = rows > cols ? rows : cols, unit = big * big * big + 1024;
  int nt = n > 1 && rows * cols < 10000 ? ct__parallel_threads(n * unit) : 1;
  if (nt <= 1) {
    ct__blas_sync_threads();
    for (int64_t b = 0; b < n; b++) fn(ctx, b);
    return;
  }
  ct__blas_threads_one(); /* restored by the next ct__blas_sync_threads */
  int64_t chunks = ct__parallel_nchunks(n * unit, nt);
  if (chunks > n) chunks = n;
  la_job j = {.fn = fn, .ctx = ctx, .n = n, .per = (n + chunks - 1) / chunks};
  ct__parallel_chunks((n + j.per - 1) / j.per, nt, la_chunk, &j);
}
