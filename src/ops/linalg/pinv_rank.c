/* linalg.pinv / pinverse, linalg.matrix_rank and the legacy svd: torch 1.13's composites (LinearAlgebra.cpp,
   BatchLinearAlgebra.cpp) over svd / eigh, in its order of operations: the tolerances as tensors (get_atol_rtol:
   float64 0-dim ones for the float overloads), tol = max(atol.unsqueeze(-1), rtol.unsqueeze(-1) * max(S)) and
   S > tol through the library's mul, maximum and gt (their promotions: float64 for the float overloads, the
   tolerance tensors' dtypes can make it float32; their broadcasts give the result its batch), 1/S in S's dtype,
   then V diag(S+) U^H through the pointwise mul and matmul as torch runs them. max(S) and where(S > tol, 1/S, 0)
   are written out here (one rounding each, as torch's kernels). */
#include "ops/linalg/linalg_internal.h"
#include "ops/matmul/mm_internal.h"
#include "ops/pointwise/pw.h"
#include "ops/reduce/red.h"
#include "ops/sort/sort_internal.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* meta: the composites over svd / eigh's meta kernels and the pointwise ops' (the values this file writes out are
   not written; matmul's result, contiguous over the broadcast batch, is made here) */
static const ct_op pinv_op = CT_LINALG_META_OP("linalg_pinv", "aten::linalg_pinv.atol_rtol_tensor");
static const ct_op pinverse_op = CT_LINALG_META_OP("linalg_pinv", "aten::pinverse");
static const ct_op rank_op =
    CT_LINALG_META_OP("linalg_matrix_rank", "aten::linalg_matrix_rank.atol_rtol_tensor");
/* meta: the composite over _linalg_svd, whose meta kernel gives the geometry */
static const ct_op svd_legacy_op = CT_LINALG_META_OP("_linalg_svd", "aten::svd");

/* The tolerances get_atol_rtol gives (float64) for the float overloads. need_eps: torch computes eps * max(m, n)
   (its float overload does whenever rtol is not given; the tensor overload only when neither is), failing for a
   dtype other than float32 / float64 and their complex types. */
typedef struct tols {
  double atol, rtol;
} tols;

/* eps * max(m, n) of A's real dtype (A has 2 dims or more): "This function doesn't handle types other than float
   and double" for another dtype, or torch's size(-2) message below 2 dims. */
static bool default_rtol(const ct_tensor *A, double *rtol) {
  ct_dtype r = ct__la_real((ct_dtype)A->dtype);
  double eps = r == CT_FLOAT32 ? (double)FLT_EPSILON : r == CT_FLOAT64 ? DBL_EPSILON : -1;
  if (eps < 0) {
    ct__error(CT_ERR_RUNTIME, "This function doesn't handle types other than float and double");
    return false;
  }
  if (A->ndim < 2) { /* std::max(input.size(-1), input.size(-2)): size(-2) is evaluated first */
    if (A->ndim == 0)
      ct__error(CT_ERR_INDEX, "Dimension specified as -2 but tensor has no dimensions");
    else
      ct__error(CT_ERR_INDEX, "Dimension out of range (expected to be in range of [-1, 0], but got -2)");
    return false;
  }
  int64_t m = A->sizes[A->ndim - 2], n = A->sizes[A->ndim - 1];
  *rtol = eps * (double)(m > n ? m : n);
  return true;
}

static bool tolerances(const ct_tensor *A, const ct_linalg_tol_opts *o, bool rcond_is_atol, tols *t) {
  bool has_atol = o && o->has_atol, has_rtol = o && o->has_rtol;
  if (o && o->has_rcond) { /* pinv(A, rcond): atol 0, rtol rcond; matrix_rank(A, tol): atol tol, rtol 0 */
    t->atol = rcond_is_atol ? o->rcond : 0.0;
    t->rtol = rcond_is_atol ? 0.0 : o->rcond;
    return true;
  }
  t->atol = has_atol ? o->atol : 0.0;
  if (has_rtol) {
    t->rtol = o->rtol;
    return true;
  }
  if (!default_rtol(A, &t->rtol)) return false;
  if (has_atol && t->atol > 0) t->rtol = 0.0;
  return true;
}

/* Whether opts choose torch's Tensor overloads (a tolerance given as a tensor). */
static bool tensor_tols(const ct_linalg_tol_opts *o) {
  return o && (o->atol_tensor || o->rtol_tensor || o->rcond_tensor);
}

/* Whether the float overloads run (a float tolerance given and no tensor one). */
static bool float_tols(const ct_linalg_tol_opts *o) {
  return o && !tensor_tols(o) && (o->has_atol || o->has_rtol || o->has_rcond);
}

/* checkNotComplexTolerance: "torch.linalg.pinv: atol tensor of complex type is not supported. Got ComplexFloat". */
static bool real_tol_ok(const ct_tensor *t, const char *api, const char *name) {
  if (ct__dt((ct_dtype)t->dtype)->category != CT_CAT_COMPLEX) return true;
  ct__error(CT_ERR_RUNTIME, "%s: %s tensor of complex type is not supported. Got %s", api, name,
            ct__dt((ct_dtype)t->dtype)->scalar_name);
  return false;
}

/* A 0-dim tensor (unowned) of dt on A's device holding v. */
static ct_tensor *number_like(const ct_tensor *A, double v, ct_dtype dt) {
  ct_tensor *t = ct__la_empty(A, 0, NULL, dt);
  if (t && t->device_type == CT_CPU) ct__store_scalar(dt, ct__tdata(t), ct_scalar_double(v));
  return t;
}

/* The tolerances as tensors (unowned, both set or both NULL with the error recorded), as torch's Tensor
   overloads build them: get_atol_rtol(A, atol, rtol), with rcond / tol forwarded as pinv and matrix_rank forward
   them. The float overloads' numbers come in as float64 0-dim tensors (at::full({}, v, kDouble)). */
typedef struct tol_pair {
  ct_tensor *atol, *rtol;
} tol_pair;

static bool tolerance_tensors(const ct_tensor *A, const ct_linalg_tol_opts *o, bool rank, const char *api,
                              tol_pair *p) {
  p->atol = p->rtol = NULL;
  if (!tensor_tols(o)) {
    tols t = {0.0, 0.0};
    if (!tolerances(A, o, rank, &t)) return false;
    p->atol = number_like(A, t.atol, CT_FLOAT64);
    p->rtol = p->atol ? number_like(A, t.rtol, CT_FLOAT64) : NULL;
  } else if (o->rcond_tensor) { /* pinv: (0, rcond); matrix_rank: (tol, zeros({}, tol.options())) */
    if (!real_tol_ok(o->rcond_tensor, api, rank ? "atol" : "rcond")) return false;
    ct_tensor *r = (ct_tensor *)o->rcond_tensor;
    p->atol = rank ? ct_retain(r) : number_like(A, 0.0, CT_FLOAT64);
    p->rtol = !p->atol ? NULL : rank ? number_like(A, 0.0, (ct_dtype)r->dtype) : ct_retain(r);
  } else {
    bool given = o->atol_tensor || o->has_atol;
    p->atol = o->atol_tensor ? ct_retain((ct_tensor *)o->atol_tensor)
                             : number_like(A, o->has_atol ? o->atol : 0.0, CT_FLOAT64);
    if (!p->atol || !real_tol_ok(p->atol, api, "atol")) goto fail;
    if (o->rtol_tensor || o->has_rtol) {
      p->rtol = o->rtol_tensor ? ct_retain((ct_tensor *)o->rtol_tensor) : number_like(A, o->rtol, CT_FLOAT64);
      if (!p->rtol || !real_tol_ok(p->rtol, api, "rtol")) goto fail;
      return true;
    }
    double d;
    if (!default_rtol(A, &d)) goto fail;
    if (!given) {
      p->rtol = number_like(A, d, CT_FLOAT64);
      return p->rtol || (ct__error(CT_ERR_OUT_OF_MEMORY, "out of memory"), false);
    }
    /* where(atol > 0, zeros({}, kDouble), default_rtol): atol's shape, float64 */
    ct_scope_begin();
    ct_tensor *zero = number_like(A, 0.0, CT_FLOAT64),
              *pos = zero ? ct__pw_apply(&ct__pw_op_gt, p->atol, zero) : NULL;
    bool meta = pos && pos->device_type == CT_META;
    ct_tensor *pc = pos && !meta ? ct__la_contiguous_copy(pos, pos->ndim, pos->sizes)
                    : pos        ? ct_retain(pos)
                                 : NULL;
    p->rtol = pc ? ct__la_empty(A, pc->ndim, pc->sizes, CT_FLOAT64) : NULL;
    for (int64_t i = 0; p->rtol && !meta && i < pc->numel; i++)
      ((double *)ct__tdata(p->rtol))[i] = ((const bool *)ct__tdata(pc))[i] ? 0.0 : d;
    ct_release(zero);
    ct_release(pc);
    ct_scope_end();
    if (!p->rtol) goto fail;
  }
  if (p->atol && p->rtol) return true;
fail:
  ct_release(p->atol);
  ct_release(p->rtol);
  p->atol = p->rtol = NULL;
  return false;
}

static void release_tols(tol_pair *p) {
  ct_release(p->atol);
  ct_release(p->rtol);
}

/* Element i of a real float32 / float64 tensor made by the workspace functions, as a double. */
static double real_at(const ct_tensor *t, int64_t i) {
  return t->dtype == CT_FLOAT32 ? (double)((const float *)ct__tdata(t))[i] : ((const double *)ct__tdata(t))[i];
}

/* The largest value of row b of S (k per row): S[b, 0] (svd: descending), or amax of |S| (eigh); NaN wins. */
static double row_max(const ct_tensor *S, int64_t b, int64_t k, bool by_abs) {
  if (!by_abs) return real_at(S, b * k);
  double mv = -INFINITY;
  for (int64_t i = 0; i < k; i++) {
    double v = fabs(real_at(S, b * k + i));
    if (isnan(v)) return v;
    if (v > mv) mv = v;
  }
  return mv;
}

/* S > max(atol.unsqueeze(-1), rtol.unsqueeze(-1) * max_S) (|S| for eigh's values), with torch's promotions and
   broadcasts: a bool mask (scope-owned) of the batch of S, atol and rtol broadcast + [k]. S non-empty. */
static ct_tensor *above_tol(const tol_pair *p, const ct_tensor *S, bool by_abs) {
  int64_t k = S->sizes[S->ndim - 1], nb = S->numel / k, sz[CT_LA_MAXDIM];
  memcpy(sz, S->sizes, (size_t)S->ndim * sizeof(int64_t));
  sz[S->ndim - 1] = 1;
  ct_tensor *mx = ct__la_empty(S, S->ndim, sz, (ct_dtype)S->dtype);
  if (S->device_type == CT_META) nb = 0;   /* no values */
  for (int64_t b = 0; mx && b < nb; b++) { /* one of S's values (or NaN): exact in S's dtype */
    double v = row_max(S, b, k, by_abs);
    if (mx->dtype == CT_FLOAT32) ((float *)ct__tdata(mx))[b] = (float)v;
    else ((double *)ct__tdata(mx))[b] = v;
  }
  ct_tensor *au = mx ? ct__unsqueeze_impl(p->atol, -1) : NULL,
            *ru = au ? ct__unsqueeze_impl(p->rtol, -1) : NULL;
  ct_tensor *rm = ru ? ct__pw_apply(&ct__pw_op_mul, ru, mx) : NULL;
  ct_tensor *tol = rm ? ct__pw_apply(&ct__pw_op_maximum, au, rm) : NULL;
  ct_tensor *sa = tol && by_abs ? ct__pw_apply(&ct__pw_op_abs, S, NULL) : (ct_tensor *)S;
  ct_tensor *mask = tol && sa ? ct__pw_apply(&ct__pw_op_gt, sa, tol) : NULL;
  ct_release(mx);
  ct_release(au);
  ct_release(ru);
  return mask;
}

/* t^H as a view (mH): transposed, conjugate bit for complex. */
static ct_tensor *mH(const ct_tensor *t) {
  ct_tensor *c = ct__conj_impl(t), *r = c ? ct__mT_impl(c) : NULL;
  ct_release(c);
  return r;
}

/* ---- linalg.pinv ---- */

/* "linalg.pinv(Float{[3]}): expected a tensor with 2 or more dimensions of float, double, cfloat or cdouble types" */
static bool pinv_input_ok(const ct_tensor *A) {
  if (ct__la_dtype((ct_dtype)A->dtype) && A->ndim >= 2) return true;
  char b[512];
  size_t u = (size_t)snprintf(b, sizeof b, "[");
  for (int64_t i = 0; i < A->ndim && u < sizeof b; i++)
    u += (size_t)snprintf(b + u, sizeof b - u, i ? ", %lld" : "%lld", (long long)A->sizes[i]);
  if (u < sizeof b) snprintf(b + u, sizeof b - u, "]");
  ct__error(CT_ERR_RUNTIME,
            "linalg.pinv(%s{%s}): expected a tensor with 2 or more dimensions of float, double, cfloat or cdouble "
            "types",
            ct__dt((ct_dtype)A->dtype)->scalar_name, b);
  return false;
}

/* S+ = where(S > tol, 1/S, 0).to(A's dtype) (complex: real parts), contiguous (unowned), the mask's shape; an
   empty A: 1/S (torch's early return, no tolerance). */
static ct_tensor *s_pinv(const ct_tensor *A, const ct_tensor *S, const tol_pair *p, bool by_abs) {
  ct_dtype dt = (ct_dtype)A->dtype;
  if (S->numel == 0) return ct__la_empty(A, S->ndim, S->sizes, dt);
  ct_scope_begin();
  ct_tensor *mask = above_tol(p, S, by_abs);
  if (mask && mask->device_type == CT_META) { /* where's result: the mask's shape, contiguous */
    ct_tensor *r = ct__la_empty(A, mask->ndim, mask->sizes, dt);
    ct_scope_end();
    return r;
  }
  ct_tensor *mc = mask ? ct__la_contiguous_copy(mask, mask->ndim, mask->sizes) : NULL;
  ct_tensor *sx = mc ? ct__la_contiguous_copy(S, mc->ndim, mc->sizes) : NULL;
  ct_tensor *r = sx ? ct__la_empty(A, mc->ndim, mc->sizes, dt) : NULL;
  bool cx = ct__dt(dt)->category == CT_CAT_COMPLEX, single = dt == CT_FLOAT32 || dt == CT_COMPLEX64;
  for (int64_t i = 0; r && i < r->numel; i++) {
    bool keep = ((const bool *)ct__tdata(mc))[i];
    double s = real_at(sx, i);
    int64_t at = i * (cx ? 2 : 1);
    if (single) {
      float *o = (float *)ct__tdata(r);
      o[at] = keep ? 1.0f / (float)s : 0.0f;
      if (cx) o[at + 1] = 0.0f;
    } else {
      double *o = (double *)ct__tdata(r);
      o[at] = keep ? 1.0 / s : 0.0;
      if (cx) o[at + 1] = 0.0;
    }
  }
  ct_release(mc);
  ct_release(sx);
  ct_scope_end();
  return r;
}

/* matmul's result on meta for x (b.., n, k) and y (b.., k, m): contiguous, the batches broadcast. */
static ct_tensor *matmul_meta(const ct_tensor *x, const ct_tensor *y) {
  int64_t sz[CT_LA_MAXDIM], nb;
  if (!ct__la_broadcast_batch(x, y, sz, &nb)) return NULL;
  sz[nb] = x->sizes[x->ndim - 2];
  sz[nb + 1] = y->sizes[y->ndim - 1];
  return ct__la_empty(x, nb + 2, sz, (ct_dtype)x->dtype);
}

/* matmul(X * S+.unsqueeze(-2), Y^H). */
static ct_tensor *scaled_product(const ct_tensor *X, const ct_tensor *Sp, const ct_tensor *Y) {
  ct_tensor *su = ct__unsqueeze_impl(Sp, -2);
  ct_tensor *xs = su ? ct__mm_pw(&ct__pw_op_mul, X, su) : NULL, *yh = xs ? mH(Y) : NULL;
  ct_tensor *r = !yh ? NULL : xs->device_type == CT_META ? matmul_meta(xs, yh) : ct__matmul_impl(xs, yh);
  ct_release(su);
  ct_release(xs);
  ct_release(yh);
  return r;
}

/* linalg_pinv (the tensor overload) past its input check. */
static ct_tensor *pinv_new(const ct_tensor *A, const tol_pair *t, bool hermitian) {
  ct_tensor *U = NULL, *S = NULL, *Vh = NULL, *r = NULL;
  bool svd = !hermitian || A->numel == 0;
  if (!svd && !ct__la_square_ok(A, "linalg.eigh")) return NULL;
  ct_status s = svd ? ct__la_svd_impl(A, true, false, &U, &S, &Vh) : ct__la_eigh_impl(A, 'L', true, &S, &U);
  if (s != CT_OK) return NULL;
  ct_tensor *Sp = s_pinv(A, S, t, !svd), *V = Sp && svd ? mH(Vh) : NULL;
  if (Sp && (!svd || V)) r = scaled_product(svd ? V : U, Sp, U);
  ct_release(U);
  ct_release(S);
  ct_release(Vh);
  ct_release(V);
  ct_release(Sp);
  if (r) ct__grad_mark_result(r, A);
  return r;
}

/* linalg.pinv's overloads: the tensor ones check A first (rcond's tensor overload its rcond before), the float
   ones (atol or rtol given, rcond) compute the tolerances first. */
static ct_tensor *pinv_common(const ct_tensor *A, const ct_linalg_tol_opts *o) {
  tol_pair t = {NULL, NULL};
  const char *api = "torch.linalg.pinv";
  if (tensor_tols(o) && o->rcond_tensor && !real_tol_ok(o->rcond_tensor, api, "rcond")) return NULL;
  if (float_tols(o) ? !tolerance_tensors(A, o, false, api, &t) || !pinv_input_ok(A)
                    : !pinv_input_ok(A) || !tolerance_tensors(A, o, false, api, &t)) {
    release_tols(&t);
    return NULL;
  }
  ct_tensor *r = pinv_new(A, &t, o && o->hermitian);
  release_tols(&t);
  return r;
}

ct_tensor *ct_linalg_pinv(const ct_tensor *A, const ct_linalg_tol_opts *opts) {
  CT__OP_ENTER_PTR(&pinv_op, A, A);
  return ct__own(pinv_common(A, opts));
}

ct_status ct_linalg_pinv_out(ct_tensor *out, const ct_tensor *A, const ct_linalg_tol_opts *opts) {
  CT__OP_ENTER_STATUS(&pinv_op, A, out, A);
  /* the tensor overload's out= is a differentiable op's; the float overloads' (a tolerance given) compute then
     copy_ into out, which refuses a leaf out that requires grad and lets the result's grad through */
  bool float_overload = float_tols(opts);
  if (!float_overload && !CT__OP_OUT_GRAD_OK(&pinv_op, out, A)) return CT_ERR_RUNTIME;
  if (!ct__la_out_castable_ok(out, (ct_dtype)A->dtype, A, "linalg.pinv", "result")) return ct_last_error();
  ct_tensor *r = pinv_common(A, opts);
  if (!r) return ct_last_error();
  ct_status s = float_overload && !ct__check_inplace(out) ? CT_ERR_RUNTIME : ct__la_write_out_direct(out, r, false);
  if (s == CT_OK && float_overload) ct__grad_mark_out(out, (const ct_tensor *const[]){A}, 1);
  ct_release(r);
  return s;
}

ct_tensor *ct_pinverse(const ct_tensor *A, const ct_pinverse_opts *opts) {
  CT__OP_ENTER_PTR(&pinverse_op, A, A);
  ct_linalg_tol_opts o = {.has_rcond = true, .rcond = opts && opts->has_rcond ? opts->rcond : 1e-15};
  return ct__own(pinv_common(A, &o));
}

/* ---- linalg.matrix_rank ---- */

static bool rank_ndim_ok(const ct_tensor *A) {
  if (A->ndim >= 2) return true;
  ct__error(CT_ERR_RUNTIME,
            "torch.linalg.matrix_rank: The input tensor input must have at least 2 dimensions.");
  return false;
}

/* matrix_rank_impl past its tolerances: sum(S > tol, -1) (int64, the broadcast batch), zeros of A's batch for an
   empty A. */
static ct_tensor *rank_new(const ct_tensor *A, const tol_pair *t, bool herm) {
  if (A->numel == 0) {
    ct_tensor *r = ct__la_empty(A, A->ndim - 2, A->sizes, CT_INT64);
    if (r) ct__la_zero(r);
    return r;
  }
  ct_tensor *S = NULL, *V = NULL, *U = NULL, *r = NULL;
  ct_status s;
  if (!herm)
    s = ct__la_float_ok(A, "linalg.svd") ? ct__la_svd_impl(A, false, false, &U, &S, &V) : ct_last_error();
  else
    s = ct__la_square_ok(A, "linalg.eigh") ? ct__la_eigh_impl(A, 'L', false, &S, &V) : ct_last_error();
  if (s == CT_OK) {
    ct_scope_begin();
    ct_tensor *mask = above_tol(t, S, herm);
    int64_t last = -1;
    ct_reduce_opts ro = {.dims = {&last, 1}};
    if (mask && ct__sum_impl(NULL, mask, &ro, &r) == CT_OK && r) ct_retain(r);
    ct_scope_end();
  }
  ct_release(S);
  ct_release(U);
  ct_release(V);
  return r; /* an integer count: not differentiable */
}

/* matrix_rank's checks (the matrix, then get_atol_rtol) and its count. */
static ct_tensor *rank_common(const ct_tensor *A, const ct_linalg_tol_opts *o) {
  tol_pair t = {NULL, NULL};
  if (!rank_ndim_ok(A) || !tolerance_tensors(A, o, true, "torch.linalg.matrix_rank", &t)) return NULL;
  ct_tensor *r = rank_new(A, &t, o && o->hermitian);
  release_tols(&t);
  return r;
}

ct_tensor *ct_linalg_matrix_rank(const ct_tensor *A, const ct_linalg_tol_opts *opts) {
  CT__OP_ENTER_PTR(&rank_op, A, A);
  return ct__own(rank_common(A, opts));
}

ct_status ct_linalg_matrix_rank_out(ct_tensor *out, const ct_tensor *A, const ct_linalg_tol_opts *opts) {
  CT__OP_ENTER_STATUS(&rank_op, A, out, A);
  tols t;
  /* the float overloads' out forms compute the tolerances before the tensor overload's matrix check */
  if (float_tols(opts) && !tolerances(A, opts, true, &t)) return ct_last_error();
  /* matrix_rank_impl: the tolerances, then out's device and dtype */
  tol_pair p = {NULL, NULL};
  if (!rank_ndim_ok(A) || !tolerance_tensors(A, opts, true, "torch.linalg.matrix_rank", &p) ||
      !ct__la_out_castable_ok(out, CT_INT64, A, "torch.linalg.matrix_rank", "result")) {
    release_tols(&p);
    return ct_last_error();
  }
  ct_tensor *r = rank_new(A, &p, opts && opts->hermitian);
  release_tols(&p);
  if (!r) return ct_last_error();
  /* the count goes in through fill_ (an empty A) or sum_out: an out that requires grad is refused there */
  bool grad_ok = A->numel == 0 ? ct__check_inplace(out) : CT__OUT_GRAD_OK("sum", out);
  ct_status s = grad_ok ? CT_OK : CT_ERR_RUNTIME;
  /* torch resizes out to A's batch first, then sum_out to the count's shape: where tolerance tensors broadcast
     the batch, out ends contiguous whatever its strides were */
  int64_t bd = A->ndim - 2;
  bool bcast = r->ndim != bd || memcmp(r->sizes, A->sizes, (size_t)bd * sizeof(int64_t)) != 0;
  bool at_batch = out->ndim == bd && memcmp(out->sizes, A->sizes, (size_t)bd * sizeof(int64_t)) == 0;
  if (s == CT_OK && bcast && !at_batch)
    s = ct__tensor_resize_ok(out, bd, A->sizes) ? ct__tensor_resize(out, bd, A->sizes, NULL)
                                                : ct_last_error();
  if (s == CT_OK) s = ct__la_write_out_direct(out, r, false);
  ct_release(r);
  return s;
}

/* ---- the legacy svd ---- */

static bool svd_legacy_ndim_ok(const ct_tensor *A) {
  if (A->ndim >= 2) return true;
  ct__error(CT_ERR_RUNTIME, "linalg.svd: input should have at least 2 dimensions, but has %lld dimensions instead",
            (long long)A->ndim);
  return false;
}

/* zeros of batch + [r, c] (contiguous). */
static ct_tensor *zeros_mat(const ct_tensor *A, int64_t r, int64_t c) {
  int64_t nd = A->ndim, sz[CT_LA_MAXDIM];
  memcpy(sz, A->sizes, (size_t)nd * sizeof(int64_t));
  sz[nd - 2] = r;
  sz[nd - 1] = c;
  ct_tensor *t = ct__la_empty(A, nd, sz, (ct_dtype)A->dtype);
  if (t) ct__la_zero(t);
  return t;
}

/* U, S and Vh of svd(A, some, compute_uv) (Vh: zeros n x n without uv). */
static ct_status svd_legacy_new(const ct_tensor *A, bool full, bool no_uv, ct_tensor **r) {
  r[0] = r[1] = r[2] = NULL;
  if (!ct__la_float_ok(A, "linalg.svd")) return ct_last_error();
  if (!no_uv) return ct__la_svd_impl(A, true, full, &r[0], &r[1], &r[2]);
  ct_status s = ct__la_svd_impl(A, false, false, &r[0], &r[1], &r[2]);
  if (s != CT_OK) return s;
  int64_t m = A->sizes[A->ndim - 2], n = A->sizes[A->ndim - 1];
  r[0] = zeros_mat(A, m, m);
  r[2] = r[0] ? zeros_mat(A, n, n) : NULL;
  if (!r[2]) {
    for (int i = 0; i < 3; i++) ct_release(r[i]);
    return ct_last_error();
  }
  return CT_OK;
}

ct_status ct_svd(const ct_tensor *A, ct_tensor **U, ct_tensor **S, ct_tensor **V, const ct_svd_opts *opts) {
  if (U) *U = NULL;
  if (S) *S = NULL;
  if (V) *V = NULL;
  CT__OP_ENTER_STATUS(&svd_legacy_op, A, A);
  ct_tensor *r[3] = {NULL, NULL, NULL};
  ct_status s = svd_legacy_ndim_ok(A) ? svd_legacy_new(A, opts && opts->full, opts && opts->no_uv, r)
                                      : ct_last_error();
  if (s == CT_OK) { /* V = Vh.mH(), a view */
    ct_tensor *v = mH(r[2]);
    ct_release(r[2]);
    r[2] = v;
    if (!v) s = ct_last_error();
  }
  return ct__sort_hand_out(r, (ct_tensor * *const[]){U, S, V}, 3, s);
}

ct_status ct_svd_out(ct_tensor *U, ct_tensor *S, ct_tensor *V, const ct_tensor *A, const ct_svd_opts *opts) {
  CT__OP_ENTER_STATUS(&svd_legacy_op, A, U, S, V, A);
  if (!CT__OP_OUT_GRAD_OK(&svd_legacy_op, U, S, V, A)) return CT_ERR_RUNTIME;
  bool full = opts && opts->full, no_uv = opts && opts->no_uv;
  ct_dtype dt = (ct_dtype)A->dtype;
  if (no_uv) { /* svd_out's own checks, then linalg_svdvals_out's */
    for (int i = 0; i < 2; i++) {
      const ct_tensor *o = i ? V : U;
      if (o->dtype != A->dtype) {
        ct__error(CT_ERR_RUNTIME, "torch.svd: Expected out tensor to have dtype %s but got %s instead",
                  ct__dt(dt)->scalar_name, ct__dt((ct_dtype)o->dtype)->scalar_name);
        return CT_ERR_RUNTIME;
      }
    }
    if (!ct__la_ndim_ok(A, "linalg.svd", "A") || !ct__la_float_ok(A, "linalg.svd") ||
        !ct__la_out_ok(S, ct__la_real(dt), A))
      return ct_last_error();
  } else if (!ct__la_ndim_ok(A, "linalg.svd", "A") || !ct__la_float_ok(A, "linalg.svd") ||
             !ct__la_out_ok(U, dt, A) || !ct__la_out_ok(V, dt, A) || !ct__la_out_ok(S, ct__la_real(dt), A)) {
    return ct_last_error();
  }
  ct_tensor *r[3];
  ct_status s = svd_legacy_new(A, full, no_uv, r);
  if (s != CT_OK) return s;
  /* V gets Vh^H: a V of another shape is resized to row-major (torch writes Vh into V.mT then transposes it back,
     or, without uv, resize_output); U and S as linalg.svd_out writes them */
  ct_tensor *v = mH(r[2]);
  s = v ? CT_OK : ct_last_error();
  if (s == CT_OK) s = no_uv ? ct__la_write_out_direct(U, r[0], false) : ct__la_write_out(U, r[0]);
  if (s == CT_OK) s = ct__la_write_out(S, r[1]);
  if (s == CT_OK) s = ct__la_write_out_direct(V, v, false);
  ct_release(v);
  for (int i = 0; i < 3; i++) ct_release(r[i]);
  /* torch then conjugates a complex V in place (conj_physical_), a kernel with no meta stub: the outs keep their
     new geometry */
  if (s == CT_OK && !no_uv && V->device_type == CT_META && ct__dt(dt)->category == CT_CAT_COMPLEX) {
    ct__error(CT_ERR_RUNTIME, "DispatchStub: unsupported device typemeta");
    s = CT_ERR_RUNTIME;
  }
  return s;
}
