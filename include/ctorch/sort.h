/* Sorting and selection: sort, argsort, msort, topk, kthvalue, median, nanmedian, mode, quantile,
   nanquantile, unique, unique_consecutive, searchsorted, bucketize; and softmax, log_softmax.

   Indices equal torch 1.13's, ties included: its CPU kernels run libstdc++'s std::sort (stable=False),
   std::stable_sort (stable=True), std::partial_sort / std::nth_element (topk), a median-of-three quick
   select (kthvalue), and ctorch runs the same algorithms (or, where the order cannot differ, a faster one)
   with the same comparisons. NaN sorts as the largest value (sort, topk, kthvalue, quantile); -0.0 and 0.0
   are equal.

   A dim that torch makes optional is a list of at most one dim in the options (`.dims = CT_DIMS(0)`); the
   empty list is torch's default (-1 for sort, argsort, topk, kthvalue and mode; every element, flattened,
   for quantile and unique). Ops with several results write new references through pointers (NULL on
   failure); a pointer may be NULL when that result is not wanted. _out forms write into the given tensors
   (resized as torch resizes out= tensors) and return a status; a failed call changes nothing. Errors as
   torch's: IndexError for a dim out of range ("Dimension out of range (expected to be in range of [-1, 0],
   but got 2)") or an empty reduced dim ("kthvalue(): Expected reduction dim 0 to have non-zero size."),
   RuntimeError for k out of range ("selected index k out of range"), a dtype without a kernel ("\"topk_cpu\"
   not implemented for 'Bool'"; complex inputs everywhere), and out= tensors of the wrong dtype. */
#ifndef CTORCH_SORT_H
#define CTORCH_SORT_H

#include "args.h"
#include "error.h"
#include "reduce.h"
#include "types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* sort / argsort: dims (at most one; empty: -1), descending, stable. */
typedef struct ct_sort_opts {
  ct_dims dims;
  bool descending;
  bool stable;
} ct_sort_opts;

/* topk: dims (at most one; empty: -1); smallest: torch's largest=False; unsorted: torch's sorted=False. */
typedef struct ct_topk_opts {
  ct_dims dims;
  bool smallest;
  bool unsorted;
} ct_topk_opts;

/* kthvalue and mode: dims (at most one; empty: -1), keepdim. */
typedef struct ct_select_opts {
  ct_dims dims;
  bool keepdim;
} ct_select_opts;

/* quantile / nanquantile: dims (at most one; empty: torch's dim=None, the flattened input), keepdim,
   interpolation: NULL (linear), "linear", "lower", "higher", "midpoint" or "nearest"; another string is
   torch's RuntimeError. */
typedef struct ct_quantile_opts {
  ct_dims dims;
  bool keepdim;
  const char *interpolation;
} ct_quantile_opts;

/* unique / unique_consecutive: dims (at most one; empty: the flattened input); unsorted: torch's
   sorted=False (unique without dims only; refused by unique_consecutive). */
typedef struct ct_unique_opts {
  ct_dims dims;
  bool unsorted;
} ct_unique_opts;

/* searchsorted: out_int32 (int32 results), right, side (NULL: None, "left" or "right"), sorter (NULL: none;
   int64 indices that sort sorted_sequence along its last dim). */
typedef struct ct_searchsorted_opts {
  bool out_int32;
  bool right;
  const char *side;
  const ct_tensor *sorter;
} ct_searchsorted_opts;

/* bucketize: out_int32, right. */
typedef struct ct_bucketize_opts {
  bool out_int32;
  bool right;
} ct_bucketize_opts;

/* softmax / log_softmax: dtype (UNSET: the input's; otherwise the input is converted to it first). */
typedef struct ct_softmax_opts {
  ct_dtype dtype;
} ct_softmax_opts;

/* ===== sorting ===== */
/* torch.sort: values and int64 indices along the dim. */
CT_API ct_status ct_sort(const ct_tensor *t, ct_tensor **values, ct_tensor **indices,
                         const ct_sort_opts *opts);
CT_API ct_status ct_sort_out(ct_tensor *values, ct_tensor *indices, const ct_tensor *t,
                             const ct_sort_opts *opts);
/* torch.argsort: sort's indices. */
CT_API ct_tensor *ct_argsort(const ct_tensor *t, const ct_sort_opts *opts);
/* torch.msort: sort's values along dim 0. */
CT_API ct_tensor *ct_msort(const ct_tensor *t);
CT_API ct_status ct_msort_out(ct_tensor *out, const ct_tensor *t);

/* ===== selection ===== */
/* torch.topk: the k largest (smallest) values and their indices; k in [0, size of the dim]. */
CT_API ct_status ct_topk(const ct_tensor *t, int64_t k, ct_tensor **values, ct_tensor **indices,
                         const ct_topk_opts *opts);
CT_API ct_status ct_topk_out(ct_tensor *values, ct_tensor *indices, const ct_tensor *t, int64_t k,
                             const ct_topk_opts *opts);
/* torch.kthvalue: the k-th smallest value (k from 1) and its index. */
CT_API ct_status ct_kthvalue(const ct_tensor *t, int64_t k, ct_tensor **values, ct_tensor **indices,
                             const ct_select_opts *opts);
CT_API ct_status ct_kthvalue_out(ct_tensor *values, ct_tensor *indices, const ct_tensor *t, int64_t k,
                                 const ct_select_opts *opts);
/* torch.median(t) / torch.nanmedian(t): the lower median of every element (median: NaN if any is NaN;
   nanmedian: of the non-NaN elements); a 0-dim result, NaN for an empty input. */
CT_API ct_tensor *ct_median(const ct_tensor *t);
CT_API ct_tensor *ct_nanmedian(const ct_tensor *t);
/* torch.median(t, dim, keepdim) / torch.nanmedian: values and indices along dim. */
CT_API ct_status ct_median_dim(const ct_tensor *t, int64_t dim, ct_tensor **values, ct_tensor **indices,
                               const ct_keepdim_opts *opts);
CT_API ct_status ct_median_dim_out(ct_tensor *values, ct_tensor *indices, const ct_tensor *t, int64_t dim,
                                   const ct_keepdim_opts *opts);
CT_API ct_status ct_nanmedian_dim(const ct_tensor *t, int64_t dim, ct_tensor **values, ct_tensor **indices,
                                  const ct_keepdim_opts *opts);
CT_API ct_status ct_nanmedian_dim_out(ct_tensor *values, ct_tensor *indices, const ct_tensor *t, int64_t dim,
                                      const ct_keepdim_opts *opts);
/* torch.mode: the most frequent value along the dim (the smallest of equally frequent ones) and an index
   where it occurs (torch's). */
CT_API ct_status ct_mode(const ct_tensor *t, ct_tensor **values, ct_tensor **indices,
                         const ct_select_opts *opts);
CT_API ct_status ct_mode_out(ct_tensor *values, ct_tensor *indices, const ct_tensor *t,
                             const ct_select_opts *opts);

/* ===== quantiles ===== */
/* torch.quantile / torch.nanquantile: q a 0-dim or 1-D tensor of t's dtype (float32 or float64) with values
   in [0, 1] (a 1-D q adds a leading dim to the result), or a number (the _scalar forms). */
CT_API ct_tensor *ct_quantile(const ct_tensor *t, const ct_tensor *q, const ct_quantile_opts *opts);
CT_API ct_status ct_quantile_out(ct_tensor *out, const ct_tensor *t, const ct_tensor *q,
                                 const ct_quantile_opts *opts);
CT_API ct_tensor *ct_quantile_scalar(const ct_tensor *t, double q, const ct_quantile_opts *opts);
CT_API ct_status ct_quantile_scalar_out(ct_tensor *out, const ct_tensor *t, double q,
                                        const ct_quantile_opts *opts);
CT_API ct_tensor *ct_nanquantile(const ct_tensor *t, const ct_tensor *q, const ct_quantile_opts *opts);
CT_API ct_status ct_nanquantile_out(ct_tensor *out, const ct_tensor *t, const ct_tensor *q,
                                    const ct_quantile_opts *opts);
CT_API ct_tensor *ct_nanquantile_scalar(const ct_tensor *t, double q, const ct_quantile_opts *opts);
CT_API ct_status ct_nanquantile_scalar_out(ct_tensor *out, const ct_tensor *t, double q,
                                           const ct_quantile_opts *opts);

/* ===== unique ===== */
/* torch.unique / torch.unique_consecutive: the distinct values (or slices along dims[0]), the inverse
   indices (int64, t's shape, or the dim's size) and the counts; inverse / counts NULL: not computed
   (torch's return_inverse / return_counts). */
CT_API ct_status ct_unique(const ct_tensor *t, ct_tensor **output, ct_tensor **inverse, ct_tensor **counts,
                           const ct_unique_opts *opts);
CT_API ct_status ct_unique_consecutive(const ct_tensor *t, ct_tensor **output, ct_tensor **inverse,
                                       ct_tensor **counts, const ct_unique_opts *opts);

/* ===== searching ===== */
/* torch.searchsorted: for each value, the index where it would be inserted into sorted_sequence (1-D, or
   with the values' leading dims) to keep it sorted; int64 results (int32 with out_int32). */
CT_API ct_tensor *ct_searchsorted(const ct_tensor *sorted_sequence, const ct_tensor *values,
                                  const ct_searchsorted_opts *opts);
CT_API ct_status ct_searchsorted_out(ct_tensor *out, const ct_tensor *sorted_sequence,
                                     const ct_tensor *values, const ct_searchsorted_opts *opts);
CT_API ct_tensor *ct_searchsorted_scalar(const ct_tensor *sorted_sequence, ct_scalar value,
                                         const ct_searchsorted_opts *opts);
CT_API ct_status ct_searchsorted_scalar_out(ct_tensor *out, const ct_tensor *sorted_sequence, ct_scalar value,
                                            const ct_searchsorted_opts *opts);
/* torch.bucketize: the bucket of each element of t among 1-D boundaries. */
CT_API ct_tensor *ct_bucketize(const ct_tensor *t, const ct_tensor *boundaries,
                               const ct_bucketize_opts *opts);
CT_API ct_status ct_bucketize_out(ct_tensor *out, const ct_tensor *t, const ct_tensor *boundaries,
                                  const ct_bucketize_opts *opts);
CT_API ct_tensor *ct_bucketize_scalar(ct_scalar value, const ct_tensor *boundaries,
                                      const ct_bucketize_opts *opts);
CT_API ct_status ct_bucketize_scalar_out(ct_tensor *out, ct_scalar value, const ct_tensor *boundaries,
                                         const ct_bucketize_opts *opts);

/* ===== softmax ===== */
/* torch.softmax / torch.log_softmax along dim (float32, float64, bfloat16; others through opts->dtype). */
CT_API ct_tensor *ct_softmax(const ct_tensor *t, int64_t dim, const ct_softmax_opts *opts);
CT_API ct_status ct_softmax_out(ct_tensor *out, const ct_tensor *t, int64_t dim, const ct_softmax_opts *opts);
CT_API ct_tensor *ct_log_softmax(const ct_tensor *t, int64_t dim, const ct_softmax_opts *opts);
CT_API ct_status ct_log_softmax_out(ct_tensor *out, const ct_tensor *t, int64_t dim,
                                    const ct_softmax_opts *opts);

/* C: each function above is also a macro of its name that checks its arguments (args.h). */
#if !defined(__cplusplus) && !defined(CT_BUILDING_LIBRARY)
#define ct_sort(...) CT__CHECKED(4, CT__CK_ct_sort, ct_sort, __VA_ARGS__)
#define CT__CK_ct_sort(t, res, res2, o) \
  ct_sort(CT__T(t), CT__TP(res), CT__TP(res2), CT__OPTS(ct_sort_opts, o))
#define ct_sort_out(...) CT__CHECKED(4, CT__CK_ct_sort_out, ct_sort_out, __VA_ARGS__)
#define CT__CK_ct_sort_out(out, out2, t, o) \
  ct_sort_out(CT__TM(out), CT__TM(out2), CT__T(t), CT__OPTS(ct_sort_opts, o))
#define ct_argsort(...)         CT__CHECKED(2, CT__CK_ct_argsort, ct_argsort, __VA_ARGS__)
#define CT__CK_ct_argsort(t, o) ct_argsort(CT__T(t), CT__OPTS(ct_sort_opts, o))
#define ct_msort(t)             ct_msort(CT__T(t))
#define ct_msort_out(out, t)    ct_msort_out(CT__TM(out), CT__T(t))
#define ct_topk(...)            CT__CHECKED(5, CT__CK_ct_topk, ct_topk, __VA_ARGS__)
#define CT__CK_ct_topk(t, a, res, res2, o) \
  ct_topk(CT__T(t), a, CT__TP(res), CT__TP(res2), CT__OPTS(ct_topk_opts, o))
#define ct_topk_out(...) CT__CHECKED(5, CT__CK_ct_topk_out, ct_topk_out, __VA_ARGS__)
#define CT__CK_ct_topk_out(out, out2, t, a, o) \
  ct_topk_out(CT__TM(out), CT__TM(out2), CT__T(t), a, CT__OPTS(ct_topk_opts, o))
#define ct_kthvalue(...) CT__CHECKED(5, CT__CK_ct_kthvalue, ct_kthvalue, __VA_ARGS__)
#define CT__CK_ct_kthvalue(t, a, res, res2, o) \
  ct_kthvalue(CT__T(t), a, CT__TP(res), CT__TP(res2), CT__OPTS(ct_select_opts, o))
#define ct_kthvalue_out(...) CT__CHECKED(5, CT__CK_ct_kthvalue_out, ct_kthvalue_out, __VA_ARGS__)
#define CT__CK_ct_kthvalue_out(out, out2, t, a, o) \
  ct_kthvalue_out(CT__TM(out), CT__TM(out2), CT__T(t), a, CT__OPTS(ct_select_opts, o))
#define ct_median(t)       ct_median(CT__T(t))
#define ct_nanmedian(t)    ct_nanmedian(CT__T(t))
#define ct_median_dim(...) CT__CHECKED(5, CT__CK_ct_median_dim, ct_median_dim, __VA_ARGS__)
#define CT__CK_ct_median_dim(t, a, res, res2, o) \
  ct_median_dim(CT__T(t), a, CT__TP(res), CT__TP(res2), CT__OPTS(ct_keepdim_opts, o))
#define ct_median_dim_out(...) CT__CHECKED(5, CT__CK_ct_median_dim_out, ct_median_dim_out, __VA_ARGS__)
#define CT__CK_ct_median_dim_out(out, out2, t, a, o) \
  ct_median_dim_out(CT__TM(out), CT__TM(out2), CT__T(t), a, CT__OPTS(ct_keepdim_opts, o))
#define ct_nanmedian_dim(...) CT__CHECKED(5, CT__CK_ct_nanmedian_dim, ct_nanmedian_dim, __VA_ARGS__)
#define CT__CK_ct_nanmedian_dim(t, a, res, res2, o) \
  ct_nanmedian_dim(CT__T(t), a, CT__TP(res), CT__TP(res2), CT__OPTS(ct_keepdim_opts, o))
#define ct_nanmedian_dim_out(...) \
  CT__CHECKED(5, CT__CK_ct_nanmedian_dim_out, ct_nanmedian_dim_out, __VA_ARGS__)
#define CT__CK_ct_nanmedian_dim_out(out, out2, t, a, o) \
  ct_nanmedian_dim_out(CT__TM(out), CT__TM(out2), CT__T(t), a, CT__OPTS(ct_keepdim_opts, o))
#define ct_mode(...) CT__CHECKED(4, CT__CK_ct_mode, ct_mode, __VA_ARGS__)
#define CT__CK_ct_mode(t, res, res2, o) \
  ct_mode(CT__T(t), CT__TP(res), CT__TP(res2), CT__OPTS(ct_select_opts, o))
#define ct_mode_out(...) CT__CHECKED(4, CT__CK_ct_mode_out, ct_mode_out, __VA_ARGS__)
#define CT__CK_ct_mode_out(out, out2, t, o) \
  ct_mode_out(CT__TM(out), CT__TM(out2), CT__T(t), CT__OPTS(ct_select_opts, o))
#define ct_quantile(...)             CT__CHECKED(3, CT__CK_ct_quantile, ct_quantile, __VA_ARGS__)
#define CT__CK_ct_quantile(t, t2, o) ct_quantile(CT__T(t), CT__T(t2), CT__OPTS(ct_quantile_opts, o))
#define ct_quantile_out(...)         CT__CHECKED(4, CT__CK_ct_quantile_out, ct_quantile_out, __VA_ARGS__)
#define CT__CK_ct_quantile_out(out, t, t2, o) \
  ct_quantile_out(CT__TM(out), CT__T(t), CT__T(t2), CT__OPTS(ct_quantile_opts, o))
#define ct_quantile_scalar(...)            CT__CHECKED(3, CT__CK_ct_quantile_scalar, ct_quantile_scalar, __VA_ARGS__)
#define CT__CK_ct_quantile_scalar(t, a, o) ct_quantile_scalar(CT__T(t), a, CT__OPTS(ct_quantile_opts, o))
#define ct_quantile_scalar_out(...) \
  CT__CHECKED(4, CT__CK_ct_quantile_scalar_out, ct_quantile_scalar_out, __VA_ARGS__)
#define CT__CK_ct_quantile_scalar_out(out, t, a, o) \
  ct_quantile_scalar_out(CT__TM(out), CT__T(t), a, CT__OPTS(ct_quantile_opts, o))
#define ct_nanquantile(...)             CT__CHECKED(3, CT__CK_ct_nanquantile, ct_nanquantile, __VA_ARGS__)
#define CT__CK_ct_nanquantile(t, t2, o) ct_nanquantile(CT__T(t), CT__T(t2), CT__OPTS(ct_quantile_opts, o))
#define ct_nanquantile_out(...)         CT__CHECKED(4, CT__CK_ct_nanquantile_out, ct_nanquantile_out, __VA_ARGS__)
#define CT__CK_ct_nanquantile_out(out, t, t2, o) \
  ct_nanquantile_out(CT__TM(out), CT__T(t), CT__T(t2), CT__OPTS(ct_quantile_opts, o))
#define ct_nanquantile_scalar(...) \
  CT__CHECKED(3, CT__CK_ct_nanquantile_scalar, ct_nanquantile_scalar, __VA_ARGS__)
#define CT__CK_ct_nanquantile_scalar(t, a, o) \
  ct_nanquantile_scalar(CT__T(t), a, CT__OPTS(ct_quantile_opts, o))
#define ct_nanquantile_scalar_out(...) \
  CT__CHECKED(4, CT__CK_ct_nanquantile_scalar_out, ct_nanquantile_scalar_out, __VA_ARGS__)
#define CT__CK_ct_nanquantile_scalar_out(out, t, a, o) \
  ct_nanquantile_scalar_out(CT__TM(out), CT__T(t), a, CT__OPTS(ct_quantile_opts, o))
#define ct_unique(...) CT__CHECKED(5, CT__CK_ct_unique, ct_unique, __VA_ARGS__)
#define CT__CK_ct_unique(t, res, res2, res3, o) \
  ct_unique(CT__T(t), CT__TP(res), CT__TP(res2), CT__TP(res3), CT__OPTS(ct_unique_opts, o))
#define ct_unique_consecutive(...) \
  CT__CHECKED(5, CT__CK_ct_unique_consecutive, ct_unique_consecutive, __VA_ARGS__)
#define CT__CK_ct_unique_consecutive(t, res, res2, res3, o) \
  ct_unique_consecutive(CT__T(t), CT__TP(res), CT__TP(res2), CT__TP(res3), CT__OPTS(ct_unique_opts, o))
#define ct_searchsorted(...) CT__CHECKED(3, CT__CK_ct_searchsorted, ct_searchsorted, __VA_ARGS__)
#define CT__CK_ct_searchsorted(t, t2, o) \
  ct_searchsorted(CT__T(t), CT__T(t2), CT__OPTS(ct_searchsorted_opts, o))
#define ct_searchsorted_out(...) CT__CHECKED(4, CT__CK_ct_searchsorted_out, ct_searchsorted_out, __VA_ARGS__)
#define CT__CK_ct_searchsorted_out(out, t, t2, o) \
  ct_searchsorted_out(CT__TM(out), CT__T(t), CT__T(t2), CT__OPTS(ct_searchsorted_opts, o))
#define ct_searchsorted_scalar(...) \
  CT__CHECKED(3, CT__CK_ct_searchsorted_scalar, ct_searchsorted_scalar, __VA_ARGS__)
#define CT__CK_ct_searchsorted_scalar(t, a, o) \
  ct_searchsorted_scalar(CT__T(t), a, CT__OPTS(ct_searchsorted_opts, o))
#define ct_searchsorted_scalar_out(...) \
  CT__CHECKED(4, CT__CK_ct_searchsorted_scalar_out, ct_searchsorted_scalar_out, __VA_ARGS__)
#define CT__CK_ct_searchsorted_scalar_out(out, t, a, o) \
  ct_searchsorted_scalar_out(CT__TM(out), CT__T(t), a, CT__OPTS(ct_searchsorted_opts, o))
#define ct_bucketize(...)             CT__CHECKED(3, CT__CK_ct_bucketize, ct_bucketize, __VA_ARGS__)
#define CT__CK_ct_bucketize(t, t2, o) ct_bucketize(CT__T(t), CT__T(t2), CT__OPTS(ct_bucketize_opts, o))
#define ct_bucketize_out(...)         CT__CHECKED(4, CT__CK_ct_bucketize_out, ct_bucketize_out, __VA_ARGS__)
#define CT__CK_ct_bucketize_out(out, t, t2, o) \
  ct_bucketize_out(CT__TM(out), CT__T(t), CT__T(t2), CT__OPTS(ct_bucketize_opts, o))
#define ct_bucketize_scalar(...)            CT__CHECKED(3, CT__CK_ct_bucketize_scalar, ct_bucketize_scalar, __VA_ARGS__)
#define CT__CK_ct_bucketize_scalar(a, t, o) ct_bucketize_scalar(a, CT__T(t), CT__OPTS(ct_bucketize_opts, o))
#define ct_bucketize_scalar_out(...) \
  CT__CHECKED(4, CT__CK_ct_bucketize_scalar_out, ct_bucketize_scalar_out, __VA_ARGS__)
#define CT__CK_ct_bucketize_scalar_out(out, a, t, o) \
  ct_bucketize_scalar_out(CT__TM(out), a, CT__T(t), CT__OPTS(ct_bucketize_opts, o))
#define ct_softmax(...)            CT__CHECKED(3, CT__CK_ct_softmax, ct_softmax, __VA_ARGS__)
#define CT__CK_ct_softmax(t, a, o) ct_softmax(CT__T(t), a, CT__OPTS(ct_softmax_opts, o))
#define ct_softmax_out(...)        CT__CHECKED(4, CT__CK_ct_softmax_out, ct_softmax_out, __VA_ARGS__)
#define CT__CK_ct_softmax_out(out, t, a, o) \
  ct_softmax_out(CT__TM(out), CT__T(t), a, CT__OPTS(ct_softmax_opts, o))
#define ct_log_softmax(...)            CT__CHECKED(3, CT__CK_ct_log_softmax, ct_log_softmax, __VA_ARGS__)
#define CT__CK_ct_log_softmax(t, a, o) ct_log_softmax(CT__T(t), a, CT__OPTS(ct_softmax_opts, o))
#define ct_log_softmax_out(...)        CT__CHECKED(4, CT__CK_ct_log_softmax_out, ct_log_softmax_out, __VA_ARGS__)
#define CT__CK_ct_log_softmax_out(out, t, a, o) \
  ct_log_softmax_out(CT__TM(out), CT__T(t), a, CT__OPTS(ct_softmax_opts, o))
#endif

#ifdef __cplusplus
}
#endif
#endif
