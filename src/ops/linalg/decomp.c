/* cholesky (linalg.cholesky(_ex), the legacy torch.cholesky), svd / svdvals and eigh / eigvalsh as torch 1.13's
   CPU kernels compute them: potrf on the batched column-major copy of A (linalg's: A's triangle copied, the
   other zeroed, first; the legacy form zeroes it after), gesdd (jobz 'A', 'S' or 'N') and syevd / heevd, one
   matrix at a time. */
#include "ops/linalg/linalg_internal.h"
#include "ops/sort/sort_internal.h"

#include <string.h>

/* meta: the structured kernels' geometry (the CPU's layouts, no values, no per-dtype kernel check) */
static const ct_op cholesky_op = CT_LINALG_META_OP("linalg_cholesky_ex", "aten::linalg_cholesky");
static const ct_op cholesky_ex_op = CT_LINALG_META_OP("linalg_cholesky_ex", "aten::linalg_cholesky_ex");
static const ct_op cholesky_legacy_op = CT_LINALG_OP("cholesky", "aten::cholesky");
static const ct_op svd_op = CT_LINALG_META_OP("_linalg_svd", "aten::linalg_svd");
static const ct_op svdvals_op = CT_LINALG_META_OP("_linalg_svd", "aten::linalg_svdvals");
static const ct_op eigh_op = CT_LINALG_META_OP("_linalg_eigh", "aten::linalg_eigh");
static const ct_op eigvalsh_op = CT_LINALG_META_OP("_linalg_eigh", "aten::linalg_eigvalsh");
/* the _linalg_svd the composites over svd dispatch (matrix_norm, cond, nuclear_norm): its meta kernel too */
static const ct_op svd_inner_op = CT_LINALG_META_OP("_linalg_svd", "aten::_linalg_svd");

/* Zeroes (+0) the strict upper (lower: false) or lower triangle of each n x n column-major matrix of W. */
static void zero_triangle(ct_tensor *W, bool upper_part) {
  int64_t nd = W->ndim, n = W->sizes[nd - 1], nb = ct__la_batch(W);
  size_t isz = ct__itemsize((ct_dtype)W->dtype);
  for (int64_t b = 0; b < nb; b++)
    for (int64_t j = 0; j < n; j++) {
      int64_t lo = upper_part ? 0 : j + 1, hi = upper_part ? j : n; /* rows of column j */
      if (hi > lo) memset(ct__la_at(W, b * n * n + j * n + lo), 0, (size_t)(hi - lo) * isz);
    }
}

typedef struct potrf_job {
  ct_tensor *W, *info;
  int64_t n;
  bool upper;
} potrf_job;

static void potrf_one(void *c, int64_t b) {
  const potrf_job *j = c;
  int64_t n = j->n;
  *(int32_t *)ct__la_at(j->info, b) = n == 0 ? 0
                                             : ct__la_potrf((ct_dtype)j->W->dtype, j->upper ? 'U' : 'L',
                                                            (int)n, ct__la_at(j->W, b * n * n), (int)n);
}

/* potrf over W's matrices into a new info (W's batch). */
static ct_tensor *potrf_batch(ct_tensor *W, bool upper) {
  int64_t nd = W->ndim, n = W->sizes[nd - 1];
  ct_tensor *info = ct__la_empty(W, nd - 2, W->sizes, CT_INT32);
  potrf_job j = {.W = W, .info = info, .n = n, .upper = upper};
  if (info) ct__la_for_each_matrix(ct__la_batch(W), n, n, potrf_one, &j);
  return info;
}

/* ---- linalg.cholesky ---- */

static ct_status cholesky_common(const ct_tensor *A, const ct_linalg_cholesky_opts *opts, bool ex,
                                 ct_tensor *out, ct_tensor *out_info, ct_tensor **L, ct_tensor **info) {
  const char *api = "linalg.cholesky";
  bool upper = opts && opts->upper, check = !ex || (opts && opts->check_errors);
  if (!ct__la_ndim_ok(A, api, "A") || !ct__la_square_ok(A, api) || !ct__la_float_ok(A, api))
    return ct_last_error();
  if (out && !ct__la_out_ok(out, (ct_dtype)A->dtype, A)) return ct_last_error();
  if (out_info && !ct__la_out_ok(out_info, CT_INT32, A)) return ct_last_error();
  bool meta = A->device_type == CT_META;
  if (A->numel > 0 && !meta && !ct__la_kernel_ok(A, "cholesky_cpu")) return ct_last_error();
  if (!ct__la_int_ok(A->sizes[A->ndim - 1])) return ct_last_error();
  ct_tensor *r[2] = {meta ? ct__la_empty_colmajor(A, A->ndim, A->sizes, (ct_dtype)A->dtype)
                          : ct__la_colmajor_copy(A, A->ndim, A->sizes),
                     NULL};
  if (r[0] && meta) r[1] = ct__la_empty(A, A->ndim - 2, A->sizes, CT_INT32);
  else if (r[0]) {
    zero_triangle(r[0], !upper);
    r[1] = potrf_batch(r[0], upper);
  }
  ct_status s = r[0] && r[1] ? CT_OK : ct_last_error();
  if (s == CT_OK) ct__grad_mark_result(r[0], A);
  if (s == CT_OK && check && !ct__la_check_errors(r[1], ex ? "linalg.cholesky_ex" : api)) s = ct_last_error();
  return ct__la_deliver2(r, out, out_info, L, info, s);
}

ct_tensor *ct_linalg_cholesky(const ct_tensor *A, const ct_linalg_cholesky_opts *opts) {
  CT__OP_ENTER_PTR(&cholesky_op, A, A);
  ct_tensor *r = NULL;
  return cholesky_common(A, opts, false, NULL, NULL, &r, NULL) == CT_OK ? r : NULL;
}
ct_status ct_linalg_cholesky_out(ct_tensor *out, const ct_tensor *A, const ct_linalg_cholesky_opts *opts) {
  CT__OP_ENTER_STATUS(&cholesky_op, A, out, A);
  if (!CT__OP_OUT_GRAD_OK(&cholesky_op, out, A)) return CT_ERR_RUNTIME;
  return cholesky_common(A, opts, false, out, NULL, NULL, NULL);
}
ct_status ct_linalg_cholesky_ex(const ct_tensor *A, ct_tensor **L, ct_tensor **info,
                                const ct_linalg_cholesky_opts *opts) {
  if (L) *L = NULL;
  if (info) *info = NULL;
  CT__OP_ENTER_STATUS(&cholesky_ex_op, A, A);
  return cholesky_common(A, opts, true, NULL, NULL, L, info);
}
ct_status ct_linalg_cholesky_ex_out(ct_tensor *L, ct_tensor *info, const ct_tensor *A,
                                    const ct_linalg_cholesky_opts *opts) {
  CT__OP_ENTER_STATUS(&cholesky_ex_op, A, L, info, A);
  if (!CT__OP_OUT_GRAD_OK(&cholesky_ex_op, L, info, A)) return CT_ERR_RUNTIME;
  return cholesky_common(A, opts, true, L, info, NULL, NULL);
}

/* torch.cholesky (deprecated in 1.13): an empty input gives empty_like(input) before any check; potrf on the
   column-major copy, torch's check ("cholesky: ..."), then the other triangle zeroed. */
static ct_tensor *cholesky_legacy_new(const ct_tensor *A, bool upper) {
  if (A->numel == 0) return ct__la_empty(A, A->ndim, A->sizes, (ct_dtype)A->dtype);
  if (!ct__la_ndim_ok(A, "cholesky", "A") || !ct__la_square_ok(A, "cholesky") ||
      !ct__la_kernel_ok(A, "cholesky_cpu") || !ct__la_int_ok(A->sizes[A->ndim - 1]))
    return NULL;
  ct_tensor *W = ct__la_colmajor_copy(A, A->ndim, A->sizes), *info = W ? potrf_batch(W, upper) : NULL;
  bool ok = info && ct__la_check_errors(info, "cholesky");
  ct_release(info);
  if (!ok) {
    ct_release(W);
    return NULL;
  }
  zero_triangle(W, !upper);
  ct__grad_mark_result(W, A);
  return W;
}

ct_tensor *ct_cholesky(const ct_tensor *A, const ct_linalg_cholesky_opts *opts) {
  CT__OP_ENTER_PTR(&cholesky_legacy_op, A, A);
  return ct__own(cholesky_legacy_new(A, opts && opts->upper));
}

ct_status ct_cholesky_out(ct_tensor *out, const ct_tensor *A, const ct_linalg_cholesky_opts *opts) {
  CT__NONNULL_STATUS(out, A);
  /* torch's autograd kernel refuses an out= that requires grad before any backend runs */
  if (!CT__OP_OUT_GRAD_OK(&cholesky_legacy_op, out, A)) return CT_ERR_RUNTIME;
  /* cholesky.out has no meta kernel in torch 1.13: a meta out or input is its dispatcher's refusal */
  if (!CT__OP_ACCEPTS(&cholesky_legacy_op, "aten::cholesky.out", out, A)) return ct_last_error();
  if (!ct__la_out_ok(out, (ct_dtype)out->dtype, A)) return ct_last_error();
  if (!ct_can_cast((ct_dtype)A->dtype, (ct_dtype)out->dtype)) {
    ct__error(CT_ERR_RUNTIME,
              "cholesky: Expected result to be safely castable from %s dtype, but got result with "
              "dtype %s",
              ct__dt((ct_dtype)A->dtype)->scalar_name, ct__dt((ct_dtype)out->dtype)->scalar_name);
    return CT_ERR_RUNTIME;
  }
  ct_tensor *r = cholesky_legacy_new(A, opts && opts->upper);
  if (!r) return ct_last_error();
  ct_status s = CT_OK;
  bool same = out->ndim == r->ndim && memcmp(out->sizes, r->sizes, (size_t)r->ndim * sizeof(int64_t)) == 0;
  if (!same) /* resize_output: contiguous */
    s = ct__tensor_resize_ok(out, r->ndim, r->sizes) ? ct__tensor_resize(out, r->ndim, r->sizes, NULL)
                                                     : ct_last_error();
  if (s == CT_OK) s = ct__copy_into(out, r);
  ct_release(r);
  return s;
}

/* ---- linalg.svd ---- */

static bool svd_args(const ct_tensor *A) {
  return ct__la_ndim_ok(A, "linalg.svd", "A") && ct__la_float_ok(A, "linalg.svd");
}

/* gesdd over A's batched column-major copy: S (batch + [k], real, contiguous) and, with vectors, U (batch + m x
   (full ? m : k)) and Vh (batch + (full ? n : k) x n), both batched column-major. */
typedef struct gesdd_job {
  ct_tensor *W, *s, *u, *v;
  int *infos;
  int64_t m, n, k, uc, vr;
  char jobz;
} gesdd_job;

static void gesdd_one(void *c, int64_t b) {
  const gesdd_job *j = c;
  int64_t m = j->m, n = j->n;
  j->infos[b] = ct__la_gesdd((ct_dtype)j->W->dtype, j->jobz, (int)m, (int)n, ct__la_at(j->W, b * m * n),
                             (int)(m > 1 ? m : 1), ct__la_at(j->s, b * j->k),
                             j->u ? ct__la_at(j->u, b * m * j->uc) : NULL, (int)(m > 1 ? m : 1),
                             j->v ? ct__la_at(j->v, b * j->vr * n) : NULL, (int)(j->vr > 1 ? j->vr : 1));
}

static ct_status svd_new(const ct_tensor *A, bool vectors, bool full, ct_tensor **U, ct_tensor **S,
                         ct_tensor **Vh) {
  *U = *S = *Vh = NULL;
  int64_t nd = A->ndim, m = A->sizes[nd - 2], n = A->sizes[nd - 1], k = m < n ? m : n;
  bool meta = A->device_type == CT_META; /* the results' geometry, nothing computed */
  if ((A->numel > 0 && !meta && !ct__la_kernel_ok(A, "linalg_svd_cpu")) || !ct__la_int_ok(m) ||
      !ct__la_int_ok(n))
    return ct_last_error();
  ct_dtype dt = (ct_dtype)A->dtype;
  int64_t sz[CT_LA_MAXDIM];
  memcpy(sz, A->sizes, (size_t)nd * sizeof(int64_t));
  sz[nd - 2] = k;
  ct_tensor *s = ct__la_empty(A, nd - 1, sz, ct__la_real(dt)), *u = NULL, *v = NULL;
  if (vectors) {
    sz[nd - 2] = m;
    sz[nd - 1] = full ? m : k;
    u = ct__la_empty_colmajor(A, nd, sz, dt);
    sz[nd - 2] = full ? n : k;
    sz[nd - 1] = n;
    v = ct__la_empty_colmajor(A, nd, sz, dt);
  }
  ct_tensor *W = meta ? NULL : ct__la_colmajor_copy(A, nd, A->sizes);
  ct_status st = s && (W || meta) && (!vectors || (u && v)) ? CT_OK : ct_last_error();
  int64_t nb = ct__la_batch(A), uc = full ? m : k, vr = full ? n : k;
  if (meta) nb = k = 0; /* nothing to fill or factor */
  if (st == CT_OK && vectors && !meta &&
      k == 0) { /* gesdd is not called: torch's U and Vh are then identity-free zeros */
    st = ct__fill(u, ct_scalar_int(0));
    if (st == CT_OK) st = ct__fill(v, ct_scalar_int(0));
    if (st == CT_OK && full) { /* full_matrices of an empty side: the identity */
      ct_tensor *du = ct__diagonal_impl(u, 0, -2, -1), *dv = ct__diagonal_impl(v, 0, -2, -1);
      st = du && dv ? ct__fill(du, ct_scalar_int(1)) : ct_last_error();
      if (st == CT_OK) st = ct__fill(dv, ct_scalar_int(1));
      ct_release(du);
      ct_release(dv);
    }
  }
  int *infos = st == CT_OK && k > 0 ? ct__calloc((size_t)(nb > 0 ? nb : 1), sizeof(int)) : NULL;
  if (st == CT_OK && k > 0 && !infos) st = ct_last_error();
  if (infos) {
    gesdd_job j = {.W = W,
                   .s = s,
                   .u = vectors ? u : NULL,
                   .v = vectors ? v : NULL,
                   .infos = infos,
                   .m = m,
                   .n = n,
                   .k = k,
                   .uc = uc,
                   .vr = vr,
                   .jobz = vectors ? (full ? 'A' : 'S') : 'N'};
    ct__la_for_each_matrix(nb, m, n, gesdd_one, &j);
  }
  /* torch checks the infos after the whole batch: the first nonzero one is reported */
  for (int64_t b = 0; infos && st == CT_OK && b < nb; b++) {
    int info = infos[b];
    if (info == CT_LA_NO_MEMORY) {
      ct__oom_error(0);
      st = CT_ERR_OUT_OF_MEMORY;
    } else if (info != 0) {
      ct_tensor *inf = ct__la_empty(A, nd - 2, A->sizes, CT_INT32);
      if (inf) {
        memset(ct__tdata(inf), 0, (size_t)inf->numel * sizeof(int32_t));
        *(int32_t *)ct__la_at(inf, b) = info;
        ct__la_check_errors(inf, "linalg.svd");
      }
      ct_release(inf);
      st = ct_last_error();
    }
  }
  ct__free(infos);
  ct_release(W);
  if (st != CT_OK) {
    ct_release(s);
    ct_release(u);
    ct_release(v);
    return st;
  }
  ct__grad_mark_result(s, A);
  if (u) ct__grad_mark_result(u, A);
  if (v) ct__grad_mark_result(v, A);
  *U = u;
  *S = s;
  *Vh = v;
  return CT_OK;
}

ct_status ct_linalg_svd(const ct_tensor *A, ct_tensor **U, ct_tensor **S, ct_tensor **Vh,
                        const ct_linalg_svd_opts *opts) {
  if (U) *U = NULL;
  if (S) *S = NULL;
  if (Vh) *Vh = NULL;
  CT__OP_ENTER_STATUS(&svd_op, A, A);
  ct_tensor *r[3] = {NULL, NULL, NULL};
  ct_status s =
      svd_args(A) ? svd_new(A, true, !(opts && opts->reduced), &r[0], &r[1], &r[2]) : ct_last_error();
  return ct__sort_hand_out(r, (ct_tensor * *const[]){U, S, Vh}, 3, s);
}

ct_status ct_linalg_svd_out(ct_tensor *U, ct_tensor *S, ct_tensor *Vh, const ct_tensor *A,
                            const ct_linalg_svd_opts *opts) {
  CT__OP_ENTER_STATUS(&svd_op, A, U, S, Vh, A);
  if (!CT__OP_OUT_GRAD_OK(&svd_op, U, S, Vh, A)) return CT_ERR_RUNTIME;
  ct_dtype dt = (ct_dtype)A->dtype;
  /* torch's order: U, Vh, then S */
  if (!svd_args(A) || !ct__la_out_ok(U, dt, A) || !ct__la_out_ok(Vh, dt, A) ||
      !ct__la_out_ok(S, ct__la_real(dt), A))
    return ct_last_error();
  ct_tensor *r[3];
  ct_status s = svd_new(A, true, !(opts && opts->reduced), &r[0], &r[1], &r[2]);
  return ct__la_write_outs(r, (ct_tensor *const[]){U, S, Vh}, 3, s);
}

ct_tensor *ct_linalg_svdvals(const ct_tensor *A) {
  CT__OP_ENTER_PTR(&svdvals_op, A, A);
  ct_tensor *u, *s, *v;
  if (!svd_args(A) || svd_new(A, false, false, &u, &s, &v) != CT_OK) return NULL;
  return ct__own(s);
}

ct_status ct_linalg_svdvals_out(ct_tensor *out, const ct_tensor *A) {
  CT__OP_ENTER_STATUS(&svdvals_op, A, out, A);
  if (!CT__OP_OUT_GRAD_OK(&svdvals_op, out, A)) return CT_ERR_RUNTIME;
  if (!svd_args(A) || !ct__la_out_ok(out, ct__la_real((ct_dtype)A->dtype), A)) return ct_last_error();
  ct_tensor *u, *s, *v;
  ct_status st = svd_new(A, false, false, &u, &s, &v);
  return ct__la_write_outs(&s, &out, 1, st);
}

/* ---- linalg.eigh ---- */

/* linalg_eigh's checks: ndim, square, then UPLO. */
static bool eigh_args(const ct_tensor *A, const ct_linalg_eigh_opts *opts, char *uplo) {
  if (!ct__la_ndim_ok(A, "linalg.eigh", "A") || !ct__la_square_ok(A, "linalg.eigh")) return false;
  const char *u = opts && opts->UPLO ? opts->UPLO : "L";
  if (!((u[0] == 'L' || u[0] == 'U' || u[0] == 'l' || u[0] == 'u') && u[1] == '\0')) {
    ct__error(CT_ERR_RUNTIME, "Expected UPLO argument to be 'L' or 'U', but got %s", u);
    return false;
  }
  *uplo = (char)(u[0] == 'l' ? 'L' : u[0] == 'u' ? 'U' : u[0]);
  return true;
}

/* syevd / heevd over A's batched column-major copy: w (batch + [n], real, ascending) and, with vectors, the
   eigenvectors (A's shape, batched column-major). */
typedef struct syevd_job {
  ct_tensor *W, *ev, *info;
  int64_t n;
  char jobz, uplo;
} syevd_job;

static void syevd_one(void *c, int64_t b) {
  const syevd_job *j = c;
  int64_t n = j->n;
  *(int32_t *)ct__la_at(j->info, b) =
      n == 0 ? 0
             : ct__la_syevd((ct_dtype)j->W->dtype, j->jobz, j->uplo, (int)n, ct__la_at(j->W, b * n * n),
                            (int)n, ct__la_at(j->ev, b * n));
}

static ct_status eigh_new(const ct_tensor *A, char uplo, bool vectors, ct_tensor **w, ct_tensor **V) {
  *w = *V = NULL;
  bool meta = A->device_type == CT_META; /* the results' geometry, nothing computed */
  if ((A->numel > 0 && !meta && !ct__la_kernel_ok(A, "linalg_eigh_cpu")) ||
      !ct__la_int_ok(A->sizes[A->ndim - 1]))
    return ct_last_error();
  int64_t nd = A->ndim, n = A->sizes[nd - 1], nb = meta ? 0 : ct__la_batch(A);
  ct_dtype dt = (ct_dtype)A->dtype;
  ct_tensor *W = meta ? ct__la_empty_colmajor(A, nd, A->sizes, dt) : ct__la_colmajor_copy(A, nd, A->sizes);
  ct_tensor *ev = W ? ct__la_empty(A, nd - 1, A->sizes, ct__la_real(dt)) : NULL;
  ct_tensor *info = ev ? ct__la_empty(A, nd - 2, A->sizes, CT_INT32) : NULL;
  ct_status s = info ? CT_OK : ct_last_error();
  bool oom = false;
  if (s == CT_OK && !meta) {
    syevd_job j = {.W = W, .ev = ev, .info = info, .n = n, .jobz = vectors ? 'V' : 'N', .uplo = uplo};
    ct__la_for_each_matrix(nb, n, n, syevd_one, &j);
    for (int64_t b = 0; b < nb; b++) oom = oom || *(int32_t *)ct__la_at(info, b) == CT_LA_NO_MEMORY;
  }
  if (s == CT_OK && oom) s = (ct__oom_error(0), CT_ERR_OUT_OF_MEMORY);
  if (s == CT_OK && !ct__la_check_errors(info, vectors ? "linalg.eigh" : "linalg.eigvalsh"))
    s = ct_last_error();
  ct_release(info);
  if (s != CT_OK || !vectors) {
    ct_release(W);
    W = NULL;
  }
  if (s != CT_OK) {
    ct_release(ev);
    return s;
  }
  ct__grad_mark_result(ev, A);
  if (W) ct__grad_mark_result(W, A);
  *w = ev;
  *V = W;
  return CT_OK;
}

ct_status ct_linalg_eigh(const ct_tensor *A, ct_tensor **eigenvalues, ct_tensor **eigenvectors,
                         const ct_linalg_eigh_opts *opts) {
  if (eigenvalues) *eigenvalues = NULL;
  if (eigenvectors) *eigenvectors = NULL;
  CT__OP_ENTER_STATUS(&eigh_op, A, A);
  char uplo;
  ct_tensor *r[2] = {NULL, NULL};
  ct_status s = eigh_args(A, opts, &uplo) ? eigh_new(A, uplo, true, &r[0], &r[1]) : ct_last_error();
  return ct__la_deliver2(r, NULL, NULL, eigenvalues, eigenvectors, s);
}

ct_status ct_linalg_eigh_out(ct_tensor *eigenvalues, ct_tensor *eigenvectors, const ct_tensor *A,
                             const ct_linalg_eigh_opts *opts) {
  CT__OP_ENTER_STATUS(&eigh_op, A, eigenvalues, eigenvectors, A);
  if (!CT__OP_OUT_GRAD_OK(&eigh_op, eigenvalues, eigenvectors, A)) return CT_ERR_RUNTIME;
  char uplo;
  ct_dtype dt = (ct_dtype)A->dtype;
  if (!eigh_args(A, opts, &uplo) || !ct__la_out_ok(eigenvectors, dt, A) ||
      !ct__la_out_ok(eigenvalues, ct__la_real(dt), A))
    return ct_last_error();
  ct_tensor *r[2];
  ct_status s = eigh_new(A, uplo, true, &r[0], &r[1]);
  return ct__la_write_outs(r, (ct_tensor *const[]){eigenvalues, eigenvectors}, 2, s);
}

ct_tensor *ct_linalg_eigvalsh(const ct_tensor *A, const ct_linalg_eigh_opts *opts) {
  CT__OP_ENTER_PTR(&eigvalsh_op, A, A);
  char uplo;
  ct_tensor *w, *V;
  if (!eigh_args(A, opts, &uplo) || eigh_new(A, uplo, false, &w, &V) != CT_OK) return NULL;
  return ct__own(w);
}

ct_status ct_linalg_eigvalsh_out(ct_tensor *out, const ct_tensor *A, const ct_linalg_eigh_opts *opts) {
  CT__OP_ENTER_STATUS(&eigvalsh_op, A, out, A);
  if (!CT__OP_OUT_GRAD_OK(&eigvalsh_op, out, A)) return CT_ERR_RUNTIME;
  char uplo;
  if (!eigh_args(A, opts, &uplo) || !ct__la_out_ok(out, ct__la_real((ct_dtype)A->dtype), A))
    return ct_last_error();
  ct_tensor *w, *V;
  ct_status s = eigh_new(A, uplo, false, &w, &V);
  return ct__la_write_outs(&w, &out, 1, s);
}

/* ---- the _impl the norm family's composites call (matrix_norm's 2, -2 and 'nuc', cond) ---- */

ct_tensor *ct__la_svdvals_impl(const ct_tensor *A) {
  if (!svd_args(A) || !ct__op_table(&svd_inner_op, A, "aten::_linalg_svd")) return NULL;
  ct_tensor *u, *s, *v;
  return svd_new(A, false, false, &u, &s, &v) == CT_OK ? ct__own(s) : NULL;
}

/* ---- qr family: the computations pinv, matrix_rank and the legacy svd compose ---- */

ct_status ct__la_svd_impl(const ct_tensor *A, bool vectors, bool full, ct_tensor **U, ct_tensor **S,
                          ct_tensor **Vh) {
  return svd_new(A, vectors, full, U, S, Vh);
}

ct_status ct__la_eigh_impl(const ct_tensor *A, char uplo, bool vectors, ct_tensor **w, ct_tensor **V) {
  return eigh_new(A, uplo, vectors, w, V);
}
