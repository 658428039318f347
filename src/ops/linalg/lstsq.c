/* linalg.lstsq as torch 1.13's CPU computes it (linalg_lstsq_out, linalg_lstsq_out_info, apply_lstsq): B copied
   into a batched column-major workspace of max(m, n) rows (A's batch broadcast with B's), one LAPACK driver call
   per matrix of B's batch with A's matrix restored when it broadcasts, the solution a view of the workspace's
   first n rows, residuals from its rows n..m, rank and singular values from the driver. */
#include "ops/linalg/linalg_internal.h"
#include "ops/join/join_internal.h"
#include "ops/reduce/red.h"
#include "ops/sort/sort_internal.h"
#include "iter/iter.h"

#include <ctype.h>
#include <float.h>
#include <stdio.h>
#include <string.h>

static const ct_op lstsq_op = CT_LINALG_OP("linalg_lstsq", "aten::linalg_lstsq");

/* The checks of linalg_lstsq_out before its outs' (vector case and sizes set). */
static bool lstsq_args(const ct_tensor *A, const ct_tensor *B) {
  const char *api = "torch.linalg.lstsq";
  if (A->ndim < 2) return ct__error(CT_ERR_RUNTIME, "%s: input must have at least 2 dimensions.", api), false;
  if (B->ndim < 1) return ct__error(CT_ERR_RUNTIME, "%s: other must have at least 1 dimension.", api), false;
  if (A->dtype != B->dtype)
    return ct__error(CT_ERR_RUNTIME,
                     "%s: Expected input and other to have the same dtype, but got input's dtype %s and other's "
                     "dtype %s",
                     api, ct__dt((ct_dtype)A->dtype)->scalar_name, ct__dt((ct_dtype)B->dtype)->scalar_name),
           false;
  int64_t diff = A->ndim - B->ndim;
  if (diff < 0 || diff > 1)
    return ct__error(CT_ERR_RUNTIME,
                     "%s: input.dim() must be greater or equal to other.dim() and (input.dim() - other.dim()) <= 1",
                     api),
           false;
  int64_t rows = diff ? B->sizes[B->ndim - 1] : B->sizes[B->ndim - 2];
  if (A->sizes[A->ndim - 2] != rows)
    return ct__error(CT_ERR_RUNTIME,
                     diff ? "%s: input.size(-2) should match other.size(-1)" : "%s: input.size(-2) should match other.size(-2)",
                     api),
           false;
  return ct__join_out_device_ok(B, A);
}

/* get_default_lstsq_driver. */
static bool parse_driver(const char *name, ct_la_lstsq_driver *d) {
  if (!name) {
    *d = CT_LA_GELSY;
    return true;
  }
  char low[16];
  size_t n = strlen(name);
  for (size_t i = 0; i < n && i < sizeof low - 1; i++) low[i] = (char)tolower((unsigned char)name[i]);
  low[n < sizeof low - 1 ? n : sizeof low - 1] = '\0';
  static const char *const names[] = {"gels", "gelsy", "gelsd", "gelss"};
  for (int i = 0; n < sizeof low && i < 4; i++)
    if (!strcmp(low, names[i])) {
      *d = (ct_la_lstsq_driver)i;
      return true;
    }
  ct__error(CT_ERR_RUNTIME, "torch.linalg.lstsq: parameter `driver` should be one of (gels, gelsy, gelsd, gelss)");
  return false;
}

/* _get_epsilon of A's real dtype times max(m, n), or torch's error for another dtype. */
static bool default_rcond(const ct_tensor *A, double *rcond) {
  ct_dtype r = ct__la_real((ct_dtype)A->dtype);
  int64_t m = A->sizes[A->ndim - 2], n = A->sizes[A->ndim - 1], mx = m > n ? m : n;
  if (r == CT_FLOAT32) {
    *rcond = (double)FLT_EPSILON * (double)mx;
  } else if (r == CT_FLOAT64) {
    *rcond = DBL_EPSILON * (double)mx;
  } else {
    ct__error(CT_ERR_RUNTIME, "This function doesn't handle types other than float and double");
    return false;
  }
  return true;
}

/* _linalg_check_errors for lstsq: the first nonzero info (n infos; a batch index unless n <= 1). */
static bool check_infos(const int *info, int64_t n) {
  for (int64_t i = 0; i < n; i++) {
    if (info[i] == 0) continue;
    char batch[64] = "";
    if (n > 1) snprintf(batch, sizeof batch, ": (Batch element %lld)", (long long)i);
    if (info[i] < 0) /* torch raises it through an internal assert */
      ct__error(CT_ERR_RUNTIME,
                "false INTERNAL ASSERT FAILED at \"./aten/src/ATen/native/BatchLinearAlgebra.cpp\":1462, please "
                "report a bug to PyTorch. torch.linalg.lstsq%s: Argument %d has illegal value. Most certainly there is a bug in the "
                "implementation calling the backend library.",
                batch, -info[i]);
    else
      ct__error(CT_ERR_LINALG,
                "torch.linalg.lstsq%s: The least squares solution could not be computed because the input matrix "
                "does not have full rank (error code: %d).",
                batch, info[i]);
    return false;
  }
  return true;
}

/* The results of one call; buf: the workspace the solution views. */
typedef struct lstsq_res {
  ct_tensor *t[4]; /* solution, residuals, rank, singular_values */
  bool residuals, rank, sv; /* which ones the driver produced (the out= forms' direct writes) */
} lstsq_res;

/* residuals: the squared magnitudes of the workspace's rows n..m summed over them (real, batch + [nrhs]). */
static ct_tensor *residuals_of(const ct_tensor *buf, int64_t n, ct_dtype real) {
  int64_t nd = buf->ndim, mx = buf->sizes[nd - 2], nrhs = buf->sizes[nd - 1], nb = ct__la_batch(buf);
  int64_t sz[CT_LA_MAXDIM];
  memcpy(sz, buf->sizes, (size_t)nd * sizeof(int64_t));
  sz[nd - 2] = mx - n;
  ct_tensor *sq = ct__la_empty_colmajor(buf, nd, sz, real);
  if (!sq) return NULL;
  bool cx = buf->dtype != real;
  for (int64_t b = 0; b < nb; b++)
    for (int64_t j = 0; j < nrhs; j++)
      for (int64_t i = n; i < mx; i++) {
        int64_t src = b * mx * nrhs + j * mx + i, dst = b * (mx - n) * nrhs + j * (mx - n) + (i - n);
        if (real == CT_FLOAT32) {
          const float *x = (const float *)ct__la_at(buf, src);
          ((float *)ct__tdata(sq))[dst] = cx ? x[0] * x[0] - x[1] * -x[1] : x[0] * x[0];
        } else {
          const double *x = (const double *)ct__la_at(buf, src);
          ((double *)ct__tdata(sq))[dst] = cx ? x[0] * x[0] - x[1] * -x[1] : x[0] * x[0];
        }
      }
  ct_scope_begin();
  ct_tensor *r = NULL;
  ct_reduce_opts o = {.dims = CT_DIMS(-2), .dtype = real};
  if (ct__sum_impl(NULL, sq, &o, &r) == CT_OK && r) ct_retain(r);
  ct_scope_end();
  ct_release(sq);
  return r;
}

static ct_status lstsq_new(const ct_tensor *A, const ct_tensor *B, ct_la_lstsq_driver drv, double rcond,
                           lstsq_res *res) {
  memset(res, 0, sizeof *res);
  ct_dtype dt = (ct_dtype)A->dtype, real = ct__la_real(dt);
  int64_t nd = A->ndim, m = A->sizes[nd - 2], n = A->sizes[nd - 1], k = m < n ? m : n, mx = m > n ? m : n;
  /* linalg_solve_is_vector_rhs */
  bool vec = B->ndim == 1 || (nd - 1 == B->ndim && !memcmp(B->sizes, A->sizes, (size_t)B->ndim * sizeof(int64_t)));
  int64_t bsz[CT_LA_MAXDIM], sz[CT_LA_MAXDIM], zero = 0;
  if (A->sizes[nd - 2] != (vec ? B->sizes[B->ndim - 1] : B->sizes[B->ndim - 2])) {
    ct__error(CT_ERR_RUNTIME, "input.size(-2) == other_2d.size(-2) INTERNAL ASSERT FAILED at "
                              "\"./aten/src/ATen/native/BatchLinearAlgebra.cpp\":3416, please report a bug to PyTorch. ");
    return CT_ERR_RUNTIME;
  }
  /* broadcast_batch_size(input, other_2d, input.dim() - 2): other_2d's first dims, whatever they are */
  if (ct__broadcast_shapes(A->sizes, nd - 2, B->sizes, nd - 2, bsz) != CT_OK) return ct_last_error();
  if (!ct__la_kernel_ok(A, "linalg_lstsq_cpu") || !ct__la_int_ok(m) || !ct__la_int_ok(n)) return ct_last_error();
  int64_t nbd = nd - 2, nrhs = vec ? 1 : B->sizes[B->ndim - 1];
  if (!ct__la_int_ok(nrhs)) return ct_last_error();
  memcpy(sz, bsz, (size_t)nbd * sizeof(int64_t));
  sz[nbd] = mx;
  sz[nbd + 1] = nrhs;
  ct_tensor *W = ct__la_colmajor_copy(A, nd, A->sizes); /* also loads LAPACK */
  ct_tensor *buf = W ? ct__la_empty_colmajor(A, nbd + 2, sz, dt) : NULL;
  ct_status s = buf ? CT_OK : ct_last_error();
  if (s == CT_OK) { /* B into the workspace's first m rows */
    ct__la_zero(buf);
    ct_tensor *top = ct__narrow_impl(buf, -2, 0, m), *b2 = vec ? ct__unsqueeze_impl(B, -1) : ct__alias_impl(B);
    ct_tensor *e = top && b2 ? ct__expand_impl(b2, (ct_shape){top->sizes, top->ndim}) : NULL;
    s = e ? ct__copy_into(top, e) : ct_last_error();
    ct_release(top);
    ct_release(b2);
    ct_release(e);
  }
  ct_tensor *rank = NULL, *sv = NULL, *keep = NULL;
  if (s == CT_OK) {
    rank = drv != CT_LA_GELS ? ct__la_empty(A, nbd, A->sizes, CT_INT64) : ct__la_empty(A, 1, &zero, CT_INT64);
    memcpy(sz, A->sizes, (size_t)nbd * sizeof(int64_t));
    sz[nbd] = k;
    sv = drv == CT_LA_GELSD || drv == CT_LA_GELSS ? ct__la_empty(A, nbd + 1, sz, real)
                                                   : ct__la_empty(A, 1, &zero, real);
    s = rank && sv ? CT_OK : ct_last_error();
    if (s == CT_OK) { /* zeros where no driver runs (B's batch empty; torch leaves them uninitialized) */
      ct__la_zero(rank);
      ct__la_zero(sv);
    }
  }
  int64_t na = ct__la_batch(A), nbatch = ct__la_batch(buf ? buf : A);
  bool bcast = s == CT_OK && memcmp(A->sizes, bsz, (size_t)nbd * sizeof(int64_t)) != 0;
  if (s == CT_OK && bcast) { /* batch_iterator_with_broadcasting: A's matrices restored before a reuse */
    keep = ct__la_empty_colmajor(A, nd, A->sizes, dt);
    s = keep ? ct__copy_into(keep, W) : ct_last_error();
  }
  int *info = s == CT_OK ? ct__calloc((size_t)(na > 1 ? na : 1), sizeof(int)) : NULL;
  bool *used = s == CT_OK && bcast ? ct__calloc((size_t)(na > 1 ? na : 1), 1) : NULL;
  int *jpvt = s == CT_OK ? ct__calloc((size_t)(n > 1 ? n : 1), sizeof(int)) : NULL;
  if (s == CT_OK && (!info || !jpvt || (bcast && !used))) s = (ct__oom_error(0), CT_ERR_OUT_OF_MEMORY);
  size_t isz = ct__itemsize(dt);
  /* gelss without right-hand sides crashes OpenBLAS (torch 1.13 dies with SIGSEGV there): it gets one zero
     column instead, which changes neither the rank nor the singular values */
  bool dummy = drv == CT_LA_GELSS && nrhs == 0;
  void *scratch = s == CT_OK && dummy ? ct__calloc((size_t)(mx > 1 ? mx : 1), isz) : NULL;
  if (s == CT_OK && dummy && !scratch) s = (ct__oom_error(0), CT_ERR_OUT_OF_MEMORY);
  for (int64_t bi = 0; s == CT_OK && bi < nbatch; bi++) {
    /* A's matrix for B's batch element bi: its batch index with A's size-1 dims at 0 */
    int64_t ai = 0, rem = bi, mul = 1;
    for (int64_t d = nbd - 1; d >= 0; d--) {
      int64_t c = rem % bsz[d];
      rem /= bsz[d];
      ai += (A->sizes[d] == 1 ? 0 : c) * mul;
      mul *= A->sizes[d];
    }
    void *a = ct__la_at(W, ai * m * n);
    if (bcast) {
      if (used[ai] && m * n > 0) memcpy(a, ct__la_at(keep, ai * m * n), (size_t)(m * n) * isz);
      used[ai] = true;
    }
    int r32 = 0;
    if (dummy) memset(scratch, 0, (size_t)(mx > 1 ? mx : 1) * isz);
    int inf = ct__la_lstsq(dt, drv, (int)m, (int)n, dummy ? 1 : (int)nrhs, a, (int)(m > 1 ? m : 1),
                           dummy ? scratch : ct__la_at(buf, bi * mx * nrhs), (int)(mx > 1 ? mx : 1), rcond,
                           jpvt, &r32, sv->numel ? ct__la_at(sv, ai * k) : NULL);
    if (inf == CT_LA_NO_MEMORY) s = (ct__oom_error(0), CT_ERR_OUT_OF_MEMORY);
    info[ai] = inf;
    if (drv != CT_LA_GELS) ((int64_t *)ct__tdata(rank))[ai] = r32;
  }
  if (s == CT_OK && !check_infos(info, na > 1 ? na : 1)) s = ct_last_error();
  ct__free(info);
  ct__free(used);
  ct__free(jpvt);
  ct__free(scratch);
  ct_release(W);
  ct_release(keep);
  ct_tensor *resid = NULL;
  if (s == CT_OK && m > n && drv != CT_LA_GELSY) {
    bool all = true;
    if (drv == CT_LA_GELSD || drv == CT_LA_GELSS)
      for (int64_t i = 0; i < rank->numel; i++) all = all && ((int64_t *)ct__tdata(rank))[i] == n;
    if (all) {
      resid = residuals_of(buf, n, real);
      if (!resid) s = ct_last_error();
      res->residuals = true;
    }
  }
  if (s == CT_OK && !resid) {
    resid = ct__la_empty(A, 1, &zero, real);
    if (!resid) s = ct_last_error();
  }
  ct_tensor *sol = NULL;
  if (s == CT_OK) { /* the first n rows of the workspace (zeros for m == 0), squeezed back for vectors */
    ct_tensor *v = ct__narrow_impl(buf, -2, 0, n);
    sol = v && vec ? ct__squeeze_dim_impl(v, -1) : (v ? ct__alias_impl(v) : NULL);
    ct_release(v);
    if (!sol) s = ct_last_error();
    if (s == CT_OK && m == 0) ct__la_zero(buf);
  }
  ct_release(buf);
  if (s != CT_OK) {
    ct_release(rank);
    ct_release(sv);
    ct_release(resid);
    ct_release(sol);
    return s;
  }
  res->t[0] = sol;
  res->t[1] = resid;
  res->t[2] = rank;
  res->t[3] = sv;
  res->rank = drv != CT_LA_GELS;
  res->sv = drv == CT_LA_GELSD || drv == CT_LA_GELSS;
  ct__grad_mark_out(sol, (const ct_tensor *const[]){A, B}, 2); /* only the solution is differentiable */
  return CT_OK;
}

/* The checks between the inputs' and the computation: outs (castable, torch's order), driver, rcond. */
static bool lstsq_setup(const ct_tensor *A, const ct_tensor *B, const ct_tensor *const *outs, const ct_linalg_lstsq_opts *opts,
                        ct_la_lstsq_driver *drv, double *rcond) {
  const char *api = "torch.linalg.lstsq";
  ct_dtype dt = (ct_dtype)A->dtype, real = ct__la_real(dt);
  if (outs) {
    for (int i = 0; i < 4; i++)
      if (!ct__join_out_device_ok(outs[i], A)) return false;
    if (!ct__la_out_castable_ok(outs[0], dt, A, api, "solution") ||
        !ct__la_out_castable_ok(outs[1], real, A, api, "solution") ||
        !ct__la_out_castable_ok(outs[2], CT_INT64, A, api, "rank") ||
        !ct__la_out_castable_ok(outs[3], real, A, api, "singular_values"))
      return false;
  }
  if (!parse_driver(opts ? opts->driver : NULL, drv)) return false;
  if (opts && opts->has_rcond)
    *rcond = opts->rcond;
  else if (!default_rcond(A, rcond))
    return false;
  /* the expected solution shape's broadcast_batch_size(input, other_2d, input.dim() - 2) */
  int64_t bsz[CT_LA_MAXDIM];
  return ct__broadcast_shapes(A->sizes, A->ndim - 2, B->sizes, A->ndim - 2, bsz) == CT_OK;
}

ct_status ct_linalg_lstsq(const ct_tensor *A, const ct_tensor *B, ct_tensor **solution, ct_tensor **residuals,
                          ct_tensor **rank, ct_tensor **singular_values, const ct_linalg_lstsq_opts *opts) {
  ct_tensor **want[4] = {solution, residuals, rank, singular_values};
  for (int i = 0; i < 4; i++)
    if (want[i]) *want[i] = NULL;
  CT__NONNULL_STATUS(A, B);
  /* the functional form runs linalg_lstsq.out, whose dispatcher message a meta tensor gets */
  if (!CT__OP_ACCEPTS(&lstsq_op, "aten::linalg_lstsq.out", A, B)) return ct_last_error();
  ct_la_lstsq_driver drv;
  double rcond;
  lstsq_res res;
  memset(&res, 0, sizeof res);
  ct_status s = lstsq_args(A, B) && lstsq_setup(A, B, NULL, opts, &drv, &rcond) ? lstsq_new(A, B, drv, rcond, &res)
                                                                             : ct_last_error();
  return ct__sort_hand_out(res.t, want, 4, s);
}

ct_status ct_linalg_lstsq_out(ct_tensor *solution, ct_tensor *residuals, ct_tensor *rank,
                              ct_tensor *singular_values, const ct_tensor *A, const ct_tensor *B,
                              const ct_linalg_lstsq_opts *opts) {
  CT__NONNULL_STATUS(solution, residuals, rank, singular_values, A, B);
  if (!CT__OP_OUT_GRAD_OK(&lstsq_op, solution, residuals, rank, singular_values, A, B)) return CT_ERR_RUNTIME;
  if (!CT__OP_ACCEPTS(&lstsq_op, "aten::linalg_lstsq.out", A, B, solution, residuals, rank, singular_values))
    return ct_last_error();
  ct_tensor *outs[4] = {solution, residuals, rank, singular_values};
  ct_la_lstsq_driver drv;
  double rcond;
  if (!lstsq_args(A, B) || !lstsq_setup(A, B, (const ct_tensor *const *)outs, opts, &drv, &rcond))
    return ct_last_error();
  /* linalg_lstsq_out's copy_needed, with its expected solution shape (the workspace's, which has nrhs only
     when other has more than 2 dims) */
  ct_dtype dt = (ct_dtype)A->dtype, real = ct__la_real(dt);
  int64_t nd = A->ndim, m = A->sizes[nd - 2], n = A->sizes[nd - 1], mx = m > n ? m : n, k = m < n ? m : n;
  bool vec = B->ndim == 1 || (nd - 1 == B->ndim && !memcmp(B->sizes, A->sizes, (size_t)B->ndim * sizeof(int64_t)));
  int64_t ex[CT_LA_MAXDIM], nex = nd - 2;
  if (ct__broadcast_shapes(A->sizes, nd - 2, B->sizes, nd - 2, ex) != CT_OK) return ct_last_error();
  ex[nex++] = mx;
  if (!vec && B->ndim > 2) ex[nex++] = B->sizes[B->ndim - 1];
  bool sol_shape = solution->ndim == nex && !memcmp(solution->sizes, ex, (size_t)nex * sizeof(int64_t));
  bool sol_cm = vec ? ct_is_contiguous(solution, CT_CONTIGUOUS_FORMAT) : ct__la_is_colmajor(solution);
  bool copy = (solution->numel != 0 && !sol_cm) || solution->dtype != dt || (solution->numel != 0 && !sol_shape);
  bool has_rank = drv != CT_LA_GELS, has_sv = drv == CT_LA_GELSD || drv == CT_LA_GELSS;
  if (has_rank) {
    bool shape = rank->ndim == nd - 2 && !memcmp(rank->sizes, A->sizes, (size_t)(nd - 2) * sizeof(int64_t));
    copy = copy || rank->dtype != CT_INT64 ||
           (rank->numel != 0 && (!shape || !ct_is_contiguous(rank, CT_CONTIGUOUS_FORMAT)));
  }
  if (has_sv) {
    bool shape = singular_values->ndim == nd - 1 && singular_values->sizes[nd - 2] == k &&
                 !memcmp(singular_values->sizes, A->sizes, (size_t)(nd - 2) * sizeof(int64_t));
    copy = copy || singular_values->dtype != real ||
           (singular_values->numel != 0 && (!shape || !ct_is_contiguous(singular_values, CT_CONTIGUOUS_FORMAT)));
  }
  if (!copy && rank->dtype != CT_INT64) { /* linalg_lstsq_out_info's asserts on outs it was handed directly */
    ct__error(CT_ERR_RUNTIME, "rank.scalar_type() == at::kLong INTERNAL ASSERT FAILED at "
                              "\"./aten/src/ATen/native/BatchLinearAlgebra.cpp\":3400, please report a bug to PyTorch. ");
    return CT_ERR_RUNTIME;
  }
  if (!copy && singular_values->dtype != real) {
    ct__error(CT_ERR_RUNTIME, "singular_values.scalar_type() == real_dtype INTERNAL ASSERT FAILED at "
                              "\"./aten/src/ATen/native/BatchLinearAlgebra.cpp\":3404, please report a bug to PyTorch. ");
    return CT_ERR_RUNTIME;
  }
  lstsq_res res;
  ct_status s = lstsq_new(A, B, drv, rcond, &res);
  if (s != CT_OK) return s;
  bool produced[4] = {true, res.residuals, res.rank, res.sv};
  if (!copy && solution->numel != 0) { /* torch solved in out's own storage, then narrowed it: its strides stay */
    int64_t st[CT_LA_MAXDIM];
    memcpy(st, solution->strides, (size_t)solution->ndim * sizeof(int64_t));
    s = ct__tensor_resize(solution, res.t[0]->ndim, res.t[0]->sizes, st);
    if (s == CT_OK) s = ct__copy_into(solution, res.t[0]);
    produced[0] = false;
  }
  for (int i = 0; i < 4 && s == CT_OK; i++)
    if (copy || produced[i]) /* residuals come from sum_out: resize_output keeps the strides of its shape */
      s = ct__la_write_out_direct(outs[i], res.t[i], !copy && i != 1);
  for (int i = 0; i < 4; i++) ct_release(res.t[i]);
  return s;
}
