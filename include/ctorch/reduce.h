/* Reductions: sum, nansum, prod, mean, nanmean, var, std, var_mean, std_mean, norm, dist, amax, amin,
   aminmax, max, min, argmax, argmin, all, any, count_nonzero, logsumexp.

   dims: the dims to reduce; an empty list (the zero value) reduces every dim, as PyTorch's dim=None.
   Negative dims count from the end. Ops that take a single dim in PyTorch (prod, all, any, argmax,
   argmin, aminmax) accept a list of at most one dim. keepdim keeps reduced dims as size-1 dims. dtype,
   where PyTorch has it, is the dtype the op computes and returns in (integer and bool sums and
   products return int64 by default, as in PyTorch). The _out forms write into out (resized as PyTorch
   resizes out= tensors) and return a status; a failed call leaves out unchanged. */
#ifndef CTORCH_REDUCE_H
#define CTORCH_REDUCE_H

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
   -INFINITY for inf and -inf); nuc selects 'nuc' (the nuclear norm: not implemented until linalg). */
typedef struct ct_norm_opts {
  ct_scalar p;
  bool nuc;
  ct_dims dims;
  bool keepdim;
  ct_dtype dtype;
} ct_norm_opts;

/* torch.dist: p kind 0 means 2. */
typedef struct ct_dist_opts {
  ct_scalar p;
} ct_dist_opts;

/* Ops with two results (max/min along a dim, aminmax, var_mean, std_mean) return a status and write
   new references through two pointers (NULL on failure), as ct_cummax does; either pointer may be NULL
   when that result is not wanted. */

#define CT_DECLARE_REDUCE(name)                                                     \
  CT_API ct_tensor *ct_##name(const ct_tensor *t, const ct_reduce_opts *opts);      \
  CT_API ct_status ct_##name##_out(ct_tensor *out, const ct_tensor *t, const ct_reduce_opts *opts);

/* ===== sums and products ===== */
CT_DECLARE_REDUCE(sum)
CT_DECLARE_REDUCE(nansum)
/* prod: one dim at most; the out form needs it (PyTorch has no out= form of the whole product). */
CT_DECLARE_REDUCE(prod)
CT_DECLARE_REDUCE(mean)
CT_DECLARE_REDUCE(nanmean)
/* logsumexp: computes in the input's floating dtype (integers and bool: the default dtype); dtype must
   stay UNSET. An empty dims list is PyTorch's dim=(). */
CT_DECLARE_REDUCE(logsumexp)

/* ===== statistics ===== */
CT_API ct_tensor *ct_var(const ct_tensor *t, const ct_var_opts *opts);
CT_API ct_status ct_var_out(ct_tensor *out, const ct_tensor *t, const ct_var_opts *opts);
CT_API ct_tensor *ct_std(const ct_tensor *t, const ct_var_opts *opts);
CT_API ct_status ct_std_out(ct_tensor *out, const ct_tensor *t, const ct_var_opts *opts);
/* (var, mean) and (std, mean). */
CT_API ct_status ct_var_mean(const ct_tensor *t, const ct_var_opts *opts, ct_tensor **var, ct_tensor **mean);
CT_API ct_status ct_std_mean(const ct_tensor *t, const ct_var_opts *opts, ct_tensor **std, ct_tensor **mean);

/* ===== norms ===== */
CT_API ct_tensor *ct_norm(const ct_tensor *t, const ct_norm_opts *opts);
CT_API ct_status ct_norm_out(ct_tensor *out, const ct_tensor *t, const ct_norm_opts *opts);
/* norm(a - b, p) over every dim, a and b broadcast. */
CT_API ct_tensor *ct_dist(const ct_tensor *a, const ct_tensor *b, const ct_dist_opts *opts);

/* ===== extremes ===== */
/* amax / amin: values only, NaN propagates; dtype must stay UNSET. */
CT_DECLARE_REDUCE(amax)
CT_DECLARE_REDUCE(amin)
/* (min, max); one dim at most. */
CT_API ct_status ct_aminmax(const ct_tensor *t, const ct_reduce_opts *opts, ct_tensor **min, ct_tensor **max);
CT_API ct_status ct_aminmax_out(ct_tensor *min, ct_tensor *max, const ct_tensor *t, const ct_reduce_opts *opts);
/* torch.max(t) / torch.min(t): the whole tensor. (The binary form is ct_maximum / ct_minimum.) */
CT_API ct_tensor *ct_max(const ct_tensor *t);
CT_API ct_tensor *ct_min(const ct_tensor *t);
/* torch.max(t, dim, keepdim) / torch.min: values and the index of the first extreme (NaN counts as the
   extreme, as in PyTorch). */
CT_API ct_status ct_max_dim(const ct_tensor *t, int64_t dim, bool keepdim, ct_tensor **values, ct_tensor **indices);
CT_API ct_status ct_max_dim_out(ct_tensor *values, ct_tensor *indices, const ct_tensor *t, int64_t dim, bool keepdim);
CT_API ct_status ct_min_dim(const ct_tensor *t, int64_t dim, bool keepdim, ct_tensor **values, ct_tensor **indices);
CT_API ct_status ct_min_dim_out(ct_tensor *values, ct_tensor *indices, const ct_tensor *t, int64_t dim, bool keepdim);
/* argmax / argmin: one dim at most (none: the index into the flattened tensor). */
CT_DECLARE_REDUCE(argmax)
CT_DECLARE_REDUCE(argmin)

/* ===== logical and counting ===== */
/* all / any: one dim at most; bool results (uint8 for uint8 inputs, as in PyTorch). */
CT_DECLARE_REDUCE(all)
CT_DECLARE_REDUCE(any)
/* count_nonzero: int64; keepdim and dtype must stay unset (PyTorch has neither). */
CT_API ct_tensor *ct_count_nonzero(const ct_tensor *t, const ct_reduce_opts *opts);

#undef CT_DECLARE_REDUCE

#ifdef __cplusplus
}
#endif
#endif
