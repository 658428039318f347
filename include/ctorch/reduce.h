/* Reductions: sum, nansum, prod, mean, nanmean, var, std, var_mean, std_mean, norm, dist, amax, amin,
   aminmax, max, min, argmax, argmin, all, any, count_nonzero, logsumexp, linalg.vector_norm.

   dims: the dims to reduce; an empty list (the zero value) reduces every dim, as PyTorch's dim=None.
   Negative dims count from the end. Ops that take a single dim in PyTorch (prod, all, any, argmax,
   argmin, aminmax) accept a list of at most one dim. keepdim keeps reduced dims as size-1 dims. dtype,
   where PyTorch has it, is the dtype the op computes and returns in (integer and bool sums and
   products return int64 by default, as in PyTorch). The _out forms write into out (resized as PyTorch
   resizes out= tensors) and return a status; a failed call leaves out unchanged. */
#ifndef CTORCH_REDUCE_H
#define CTORCH_REDUCE_H

#include "args.h"
#include "error.h"
#include "types.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ct_reduce_opts {
  ct_dims dims;   /* empty: every dim */
  bool keepdim;
  ct_dtype dtype; /* UNSET: PyTorch's default */
} ct_reduce_opts;

/* var / std: correction kind 0 (the zero value) means 1 (unbiased, PyTorch's default); an int
   correction as in PyTorch (0 is unbiased=False). */
typedef struct ct_var_opts {
  ct_dims dims;
  bool keepdim;
  ct_scalar correction;
} ct_var_opts;

/* torch.norm: p kind 0 (the zero value) is 'fro'; a number is the vector p-norm (INFINITY and
   -INFINITY for inf and -inf); nuc selects 'nuc' (the nuclear norm, torch's nuclear_norm: the sum of
   linalg.svdvals over the two dims, the matrix of a 2-D input when dims is empty; p must stay unset). */
typedef struct ct_norm_opts {
  ct_scalar p;
  bool nuc;
  ct_dims dims;
  bool keepdim;
  ct_dtype dtype;
} ct_norm_opts;

/* The keyword of the ops that take one required dim and keep it or not (torch.max(t, dim, keepdim)). */
typedef struct ct_keepdim_opts {
  bool keepdim;
} ct_keepdim_opts;

/* torch.dist: p kind 0 means 2. */
typedef struct ct_dist_opts {
  ct_scalar p;
} ct_dist_opts;

/* torch.linalg.vector_norm: ord kind 0 (the zero value) means 2; any other number is the order (0: the
   number of nonzeros, INFINITY / -INFINITY: the largest / smallest absolute value); dims empty: every dim;
   dtype: the dtype the norm is computed in (the result is its real dtype). */
typedef struct ct_vector_norm_opts {
  ct_scalar ord;
  ct_dims dims;
  bool keepdim;
  ct_dtype dtype;
} ct_vector_norm_opts;

/* Ops with two results (max/min along a dim, aminmax, var_mean, std_mean) return a status and write
   new references through two pointers (NULL on failure), as ct_cummax does; either pointer may be NULL
   when that result is not wanted. The pointers come before the options, which are always last. */

/* ===== sums and products ===== */
CT_API ct_tensor *ct_sum(const ct_tensor *t, const ct_reduce_opts *opts);
CT_API ct_status ct_sum_out(ct_tensor *out, const ct_tensor *t, const ct_reduce_opts *opts);
CT_API ct_tensor *ct_nansum(const ct_tensor *t, const ct_reduce_opts *opts);
CT_API ct_status ct_nansum_out(ct_tensor *out, const ct_tensor *t, const ct_reduce_opts *opts);
/* prod: one dim at most; the out form needs it (PyTorch has no out= form of the whole product). */
CT_API ct_tensor *ct_prod(const ct_tensor *t, const ct_reduce_opts *opts);
CT_API ct_status ct_prod_out(ct_tensor *out, const ct_tensor *t, const ct_reduce_opts *opts);
CT_API ct_tensor *ct_mean(const ct_tensor *t, const ct_reduce_opts *opts);
CT_API ct_status ct_mean_out(ct_tensor *out, const ct_tensor *t, const ct_reduce_opts *opts);
CT_API ct_tensor *ct_nanmean(const ct_tensor *t, const ct_reduce_opts *opts);
CT_API ct_status ct_nanmean_out(ct_tensor *out, const ct_tensor *t, const ct_reduce_opts *opts);
/* logsumexp: computes in the input's floating dtype (integers and bool: the default dtype); dtype must
   stay UNSET. An empty dims list is PyTorch's dim=(). */
CT_API ct_tensor *ct_logsumexp(const ct_tensor *t, const ct_reduce_opts *opts);
CT_API ct_status ct_logsumexp_out(ct_tensor *out, const ct_tensor *t, const ct_reduce_opts *opts);

/* ===== statistics ===== */
CT_API ct_tensor *ct_var(const ct_tensor *t, const ct_var_opts *opts);
CT_API ct_status ct_var_out(ct_tensor *out, const ct_tensor *t, const ct_var_opts *opts);
CT_API ct_tensor *ct_std(const ct_tensor *t, const ct_var_opts *opts);
CT_API ct_status ct_std_out(ct_tensor *out, const ct_tensor *t, const ct_var_opts *opts);
/* (var, mean) and (std, mean). */
CT_API ct_status ct_var_mean(const ct_tensor *t, ct_tensor **var, ct_tensor **mean, const ct_var_opts *opts);
CT_API ct_status ct_std_mean(const ct_tensor *t, ct_tensor **std, ct_tensor **mean, const ct_var_opts *opts);

/* ===== norms ===== */
CT_API ct_tensor *ct_norm(const ct_tensor *t, const ct_norm_opts *opts);
CT_API ct_status ct_norm_out(ct_tensor *out, const ct_tensor *t, const ct_norm_opts *opts);
/* norm(a - b, p) over every dim, a and b broadcast. */
CT_API ct_tensor *ct_dist(const ct_tensor *a, const ct_tensor *b, const ct_dist_opts *opts);
/* The vector ord-norm over dims, real for complex inputs (the same kernels as ct_norm's). RuntimeError for
   an integer or bool input, a dtype that is not floating/complex, of the other kind (real/complex) than the
   input, or narrower than it, an out of another dtype than the result's, and ord < 0 or inf over an
   empty tensor or an empty reduced dim; IndexError for a dim out of range. */
CT_API ct_tensor *ct_linalg_vector_norm(const ct_tensor *t, const ct_vector_norm_opts *opts);
CT_API ct_status ct_linalg_vector_norm_out(ct_tensor *out, const ct_tensor *t, const ct_vector_norm_opts *opts);

/* ===== extremes ===== */
/* amax / amin: values only, NaN propagates; dtype must stay UNSET. */
CT_API ct_tensor *ct_amax(const ct_tensor *t, const ct_reduce_opts *opts);
CT_API ct_status ct_amax_out(ct_tensor *out, const ct_tensor *t, const ct_reduce_opts *opts);
CT_API ct_tensor *ct_amin(const ct_tensor *t, const ct_reduce_opts *opts);
CT_API ct_status ct_amin_out(ct_tensor *out, const ct_tensor *t, const ct_reduce_opts *opts);
/* (min, max); one dim at most. */
CT_API ct_status ct_aminmax(const ct_tensor *t, ct_tensor **min, ct_tensor **max, const ct_reduce_opts *opts);
CT_API ct_status ct_aminmax_out(ct_tensor *min, ct_tensor *max, const ct_tensor *t, const ct_reduce_opts *opts);
/* torch.max(t) / torch.min(t): the whole tensor. (The binary form is ct_maximum / ct_minimum.) */
CT_API ct_tensor *ct_max(const ct_tensor *t);
CT_API ct_tensor *ct_min(const ct_tensor *t);
/* torch.max(t, dim, keepdim) / torch.min: values and the index of the first extreme (NaN counts as the
   extreme, as in PyTorch). */
CT_API ct_status ct_max_dim(const ct_tensor *t, int64_t dim, ct_tensor **values, ct_tensor **indices,
                            const ct_keepdim_opts *opts);
CT_API ct_status ct_max_dim_out(ct_tensor *values, ct_tensor *indices, const ct_tensor *t, int64_t dim,
                                const ct_keepdim_opts *opts);
CT_API ct_status ct_min_dim(const ct_tensor *t, int64_t dim, ct_tensor **values, ct_tensor **indices,
                            const ct_keepdim_opts *opts);
CT_API ct_status ct_min_dim_out(ct_tensor *values, ct_tensor *indices, const ct_tensor *t, int64_t dim,
                                const ct_keepdim_opts *opts);
/* argmax / argmin: one dim at most (none: the index into the flattened tensor). */
CT_API ct_tensor *ct_argmax(const ct_tensor *t, const ct_reduce_opts *opts);
CT_API ct_status ct_argmax_out(ct_tensor *out, const ct_tensor *t, const ct_reduce_opts *opts);
CT_API ct_tensor *ct_argmin(const ct_tensor *t, const ct_reduce_opts *opts);
CT_API ct_status ct_argmin_out(ct_tensor *out, const ct_tensor *t, const ct_reduce_opts *opts);

/* ===== logical and counting ===== */
/* all / any: one dim at most; bool results (uint8 for uint8 inputs, as in PyTorch). */
CT_API ct_tensor *ct_all(const ct_tensor *t, const ct_reduce_opts *opts);
CT_API ct_status ct_all_out(ct_tensor *out, const ct_tensor *t, const ct_reduce_opts *opts);
CT_API ct_tensor *ct_any(const ct_tensor *t, const ct_reduce_opts *opts);
CT_API ct_status ct_any_out(ct_tensor *out, const ct_tensor *t, const ct_reduce_opts *opts);
/* count_nonzero: int64; keepdim and dtype must stay unset (PyTorch has neither). */
CT_API ct_tensor *ct_count_nonzero(const ct_tensor *t, const ct_reduce_opts *opts);

/* C: each function above is also a macro of its name that checks its arguments (args.h). */
#if !defined(__cplusplus) && !defined(CT_BUILDING_LIBRARY)
#define ct_sum(...) CT__CHECKED(2, CT__CK_ct_sum, ct_sum, __VA_ARGS__)
#define CT__CK_ct_sum(t, o) ct_sum(CT__T(t), CT__OPTS(ct_reduce_opts, o))
#define ct_sum_out(...) CT__CHECKED(3, CT__CK_ct_sum_out, ct_sum_out, __VA_ARGS__)
#define CT__CK_ct_sum_out(out, t, o) ct_sum_out(CT__TM(out), CT__T(t), CT__OPTS(ct_reduce_opts, o))
#define ct_nansum(...) CT__CHECKED(2, CT__CK_ct_nansum, ct_nansum, __VA_ARGS__)
#define CT__CK_ct_nansum(t, o) ct_nansum(CT__T(t), CT__OPTS(ct_reduce_opts, o))
#define ct_nansum_out(...) CT__CHECKED(3, CT__CK_ct_nansum_out, ct_nansum_out, __VA_ARGS__)
#define CT__CK_ct_nansum_out(out, t, o) ct_nansum_out(CT__TM(out), CT__T(t), CT__OPTS(ct_reduce_opts, o))
#define ct_prod(...) CT__CHECKED(2, CT__CK_ct_prod, ct_prod, __VA_ARGS__)
#define CT__CK_ct_prod(t, o) ct_prod(CT__T(t), CT__OPTS(ct_reduce_opts, o))
#define ct_prod_out(...) CT__CHECKED(3, CT__CK_ct_prod_out, ct_prod_out, __VA_ARGS__)
#define CT__CK_ct_prod_out(out, t, o) ct_prod_out(CT__TM(out), CT__T(t), CT__OPTS(ct_reduce_opts, o))
#define ct_mean(...) CT__CHECKED(2, CT__CK_ct_mean, ct_mean, __VA_ARGS__)
#define CT__CK_ct_mean(t, o) ct_mean(CT__T(t), CT__OPTS(ct_reduce_opts, o))
#define ct_mean_out(...) CT__CHECKED(3, CT__CK_ct_mean_out, ct_mean_out, __VA_ARGS__)
#define CT__CK_ct_mean_out(out, t, o) ct_mean_out(CT__TM(out), CT__T(t), CT__OPTS(ct_reduce_opts, o))
#define ct_nanmean(...) CT__CHECKED(2, CT__CK_ct_nanmean, ct_nanmean, __VA_ARGS__)
#define CT__CK_ct_nanmean(t, o) ct_nanmean(CT__T(t), CT__OPTS(ct_reduce_opts, o))
#define ct_nanmean_out(...) CT__CHECKED(3, CT__CK_ct_nanmean_out, ct_nanmean_out, __VA_ARGS__)
#define CT__CK_ct_nanmean_out(out, t, o) ct_nanmean_out(CT__TM(out), CT__T(t), CT__OPTS(ct_reduce_opts, o))
#define ct_logsumexp(...) CT__CHECKED(2, CT__CK_ct_logsumexp, ct_logsumexp, __VA_ARGS__)
#define CT__CK_ct_logsumexp(t, o) ct_logsumexp(CT__T(t), CT__OPTS(ct_reduce_opts, o))
#define ct_logsumexp_out(...) CT__CHECKED(3, CT__CK_ct_logsumexp_out, ct_logsumexp_out, __VA_ARGS__)
#define CT__CK_ct_logsumexp_out(out, t, o) \
  ct_logsumexp_out(CT__TM(out), CT__T(t), CT__OPTS(ct_reduce_opts, o))
#define ct_amax(...) CT__CHECKED(2, CT__CK_ct_amax, ct_amax, __VA_ARGS__)
#define CT__CK_ct_amax(t, o) ct_amax(CT__T(t), CT__OPTS(ct_reduce_opts, o))
#define ct_amax_out(...) CT__CHECKED(3, CT__CK_ct_amax_out, ct_amax_out, __VA_ARGS__)
#define CT__CK_ct_amax_out(out, t, o) ct_amax_out(CT__TM(out), CT__T(t), CT__OPTS(ct_reduce_opts, o))
#define ct_amin(...) CT__CHECKED(2, CT__CK_ct_amin, ct_amin, __VA_ARGS__)
#define CT__CK_ct_amin(t, o) ct_amin(CT__T(t), CT__OPTS(ct_reduce_opts, o))
#define ct_amin_out(...) CT__CHECKED(3, CT__CK_ct_amin_out, ct_amin_out, __VA_ARGS__)
#define CT__CK_ct_amin_out(out, t, o) ct_amin_out(CT__TM(out), CT__T(t), CT__OPTS(ct_reduce_opts, o))
#define ct_argmax(...) CT__CHECKED(2, CT__CK_ct_argmax, ct_argmax, __VA_ARGS__)
#define CT__CK_ct_argmax(t, o) ct_argmax(CT__T(t), CT__OPTS(ct_reduce_opts, o))
#define ct_argmax_out(...) CT__CHECKED(3, CT__CK_ct_argmax_out, ct_argmax_out, __VA_ARGS__)
#define CT__CK_ct_argmax_out(out, t, o) ct_argmax_out(CT__TM(out), CT__T(t), CT__OPTS(ct_reduce_opts, o))
#define ct_argmin(...) CT__CHECKED(2, CT__CK_ct_argmin, ct_argmin, __VA_ARGS__)
#define CT__CK_ct_argmin(t, o) ct_argmin(CT__T(t), CT__OPTS(ct_reduce_opts, o))
#define ct_argmin_out(...) CT__CHECKED(3, CT__CK_ct_argmin_out, ct_argmin_out, __VA_ARGS__)
#define CT__CK_ct_argmin_out(out, t, o) ct_argmin_out(CT__TM(out), CT__T(t), CT__OPTS(ct_reduce_opts, o))
#define ct_all(...) CT__CHECKED(2, CT__CK_ct_all, ct_all, __VA_ARGS__)
#define CT__CK_ct_all(t, o) ct_all(CT__T(t), CT__OPTS(ct_reduce_opts, o))
#define ct_all_out(...) CT__CHECKED(3, CT__CK_ct_all_out, ct_all_out, __VA_ARGS__)
#define CT__CK_ct_all_out(out, t, o) ct_all_out(CT__TM(out), CT__T(t), CT__OPTS(ct_reduce_opts, o))
#define ct_any(...) CT__CHECKED(2, CT__CK_ct_any, ct_any, __VA_ARGS__)
#define CT__CK_ct_any(t, o) ct_any(CT__T(t), CT__OPTS(ct_reduce_opts, o))
#define ct_any_out(...) CT__CHECKED(3, CT__CK_ct_any_out, ct_any_out, __VA_ARGS__)
#define CT__CK_ct_any_out(out, t, o) ct_any_out(CT__TM(out), CT__T(t), CT__OPTS(ct_reduce_opts, o))
#define ct_count_nonzero(...) CT__CHECKED(2, CT__CK_ct_count_nonzero, ct_count_nonzero, __VA_ARGS__)
#define CT__CK_ct_count_nonzero(t, o) ct_count_nonzero(CT__T(t), CT__OPTS(ct_reduce_opts, o))
#define ct_var(...) CT__CHECKED(2, CT__CK_ct_var, ct_var, __VA_ARGS__)
#define CT__CK_ct_var(t, o) ct_var(CT__T(t), CT__OPTS(ct_var_opts, o))
#define ct_var_out(...) CT__CHECKED(3, CT__CK_ct_var_out, ct_var_out, __VA_ARGS__)
#define CT__CK_ct_var_out(out, t, o) ct_var_out(CT__TM(out), CT__T(t), CT__OPTS(ct_var_opts, o))
#define ct_var_mean(...) CT__CHECKED(4, CT__CK_ct_var_mean, ct_var_mean, __VA_ARGS__)
#define CT__CK_ct_var_mean(t, res, res2, o) \
  ct_var_mean(CT__T(t), CT__TP(res), CT__TP(res2), CT__OPTS(ct_var_opts, o))
#define ct_std(...) CT__CHECKED(2, CT__CK_ct_std, ct_std, __VA_ARGS__)
#define CT__CK_ct_std(t, o) ct_std(CT__T(t), CT__OPTS(ct_var_opts, o))
#define ct_std_out(...) CT__CHECKED(3, CT__CK_ct_std_out, ct_std_out, __VA_ARGS__)
#define CT__CK_ct_std_out(out, t, o) ct_std_out(CT__TM(out), CT__T(t), CT__OPTS(ct_var_opts, o))
#define ct_std_mean(...) CT__CHECKED(4, CT__CK_ct_std_mean, ct_std_mean, __VA_ARGS__)
#define CT__CK_ct_std_mean(t, res, res2, o) \
  ct_std_mean(CT__T(t), CT__TP(res), CT__TP(res2), CT__OPTS(ct_var_opts, o))
#define ct_norm(...) CT__CHECKED(2, CT__CK_ct_norm, ct_norm, __VA_ARGS__)
#define CT__CK_ct_norm(t, o) ct_norm(CT__T(t), CT__OPTS(ct_norm_opts, o))
#define ct_norm_out(...) CT__CHECKED(3, CT__CK_ct_norm_out, ct_norm_out, __VA_ARGS__)
#define CT__CK_ct_norm_out(out, t, o) ct_norm_out(CT__TM(out), CT__T(t), CT__OPTS(ct_norm_opts, o))
#define ct_dist(...) CT__CHECKED(3, CT__CK_ct_dist, ct_dist, __VA_ARGS__)
#define CT__CK_ct_dist(t, t2, o) ct_dist(CT__T(t), CT__T(t2), CT__OPTS(ct_dist_opts, o))
#define ct_linalg_vector_norm(...) CT__CHECKED(2, CT__CK_ct_linalg_vector_norm, ct_linalg_vector_norm, __VA_ARGS__)
#define CT__CK_ct_linalg_vector_norm(t, o) ct_linalg_vector_norm(CT__T(t), CT__OPTS(ct_vector_norm_opts, o))
#define ct_linalg_vector_norm_out(...) \
  CT__CHECKED(3, CT__CK_ct_linalg_vector_norm_out, ct_linalg_vector_norm_out, __VA_ARGS__)
#define CT__CK_ct_linalg_vector_norm_out(out, t, o) \
  ct_linalg_vector_norm_out(CT__TM(out), CT__T(t), CT__OPTS(ct_vector_norm_opts, o))
#define ct_aminmax(...) CT__CHECKED(4, CT__CK_ct_aminmax, ct_aminmax, __VA_ARGS__)
#define CT__CK_ct_aminmax(t, res, res2, o) \
  ct_aminmax(CT__T(t), CT__TP(res), CT__TP(res2), CT__OPTS(ct_reduce_opts, o))
#define ct_aminmax_out(...) CT__CHECKED(4, CT__CK_ct_aminmax_out, ct_aminmax_out, __VA_ARGS__)
#define CT__CK_ct_aminmax_out(out, out2, t, o) \
  ct_aminmax_out(CT__TM(out), CT__TM(out2), CT__T(t), CT__OPTS(ct_reduce_opts, o))
#define ct_max_dim(...) CT__CHECKED(5, CT__CK_ct_max_dim, ct_max_dim, __VA_ARGS__)
#define CT__CK_ct_max_dim(t, a, res, res2, o) \
  ct_max_dim(CT__T(t), a, CT__TP(res), CT__TP(res2), CT__OPTS(ct_keepdim_opts, o))
#define ct_max_dim_out(...) CT__CHECKED(5, CT__CK_ct_max_dim_out, ct_max_dim_out, __VA_ARGS__)
#define CT__CK_ct_max_dim_out(out, out2, t, a, o) \
  ct_max_dim_out(CT__TM(out), CT__TM(out2), CT__T(t), a, CT__OPTS(ct_keepdim_opts, o))
#define ct_min_dim(...) CT__CHECKED(5, CT__CK_ct_min_dim, ct_min_dim, __VA_ARGS__)
#define CT__CK_ct_min_dim(t, a, res, res2, o) \
  ct_min_dim(CT__T(t), a, CT__TP(res), CT__TP(res2), CT__OPTS(ct_keepdim_opts, o))
#define ct_min_dim_out(...) CT__CHECKED(5, CT__CK_ct_min_dim_out, ct_min_dim_out, __VA_ARGS__)
#define CT__CK_ct_min_dim_out(out, out2, t, a, o) \
  ct_min_dim_out(CT__TM(out), CT__TM(out2), CT__T(t), a, CT__OPTS(ct_keepdim_opts, o))
#endif

#ifdef __cplusplus
}
#endif
#endif
