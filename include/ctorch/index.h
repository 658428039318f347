/* Python's indexing from C: t[...] with everything Python writes between the brackets, and the same
   results as torch 1.13 (basic indexing gives a view with torch's strides and storage offset, advanced
   indexing a new tensor with torch's layout; torch's errors and messages).

   One macro takes the index as Python spells it, in a spec string with `%` placeholders, or as a list of
   items:

     ct_index(x, "1:, ::2, None, ..., %", mask)      x[1:, ::2, None, ..., mask]
     ct_index(x, "%, -1", i)                          x[i, -1]   (i a C integer, a bool or a tensor)
     ct_index(x, "%:%", a, b)                         x[a:b]     (slice bounds: C integers)
     ct_index(x, "")                                  x[()]
     ct_index(x, CT_IDX_ALL, 0, idx)                  x[:, 0, idx]   (items: no string to parse)
     ct_index_put_(x, "%, 1:", mask, 0.5)             x[mask, 1:] = 0.5   (the value last)

   The spec is Python's subscript syntax: items separated by commas (a trailing comma is allowed), each an
   integer, a slice `start:stop:step` (each part optional; an integer, `%` or None), `...`, `None`, `True`,
   `False` or `%`. A `%` takes the next argument: a C integer is an int, a C bool a bool, a tensor an index
   tensor (int64, uint8 or bool; a 0-dim integer tensor selects, as in Python). A malformed spec, a
   placeholder without its argument or an argument without its placeholder is a ValueError naming the
   position; nothing is read past the spec's end. Bindings and generated code pass an array of items to
   ct_index_items. */
#ifndef CTORCH_INDEX_H
#define CTORCH_INDEX_H

#include "args.h"
#include "error.h"
#include "types.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum ct_index_kind {
  CT_INDEX_INT = 1, /* start: the integer */
  CT_INDEX_SLICE,   /* start, stop, step (Python's defaults: 0, CT_SLICE_END, 1) */
  CT_INDEX_NONE,    /* a new dim of size 1 */
  CT_INDEX_ELLIPSIS,
  CT_INDEX_BOOL,    /* start: 0 or 1 */
  CT_INDEX_TENSOR,  /* tensor */
  CT_INDEX_SPEC,    /* spec: a spec string; the items after it fill its placeholders (first item only) */
  CT_INDEX_NUMBER   /* number: a C number given as an item (an integer or bool one is an int or bool) */
} ct_index_kind;

/* A slice's omitted stop. */
#define CT_SLICE_END INT64_MAX

typedef struct ct_index_item {
  ct_index_kind kind;
  int64_t start, stop, step;
  const ct_tensor *tensor;
  const char *spec;
  ct_scalar number;
} ct_index_item;

/* t[items...]: the items as ct_index builds them (n of them; n = 0 is x[()]). */
CT_API ct_tensor *ct_index_items(const ct_tensor *t, const ct_index_item *items, int64_t n);
/* t[index] = value, in place: items[0 .. n-2] are the index as for ct_index_items, items[n-1] the value (a
   tensor, or a C number converted to t's dtype with torch's overflow check). Python's rules: a basic index
   copies into the view (the value broadcast, its leading 1s dropped, cast to t's dtype); with index tensors
   the value must have t's dtype (torch's "Index put requires the source and destination dtypes match");
   duplicate indices write in iteration order. A failed call changes nothing (index values are checked
   before anything is written). */
CT_API ct_status ct_index_put_items_(ct_tensor *t, const ct_index_item *items, int64_t n);

/* ---- The index ops of torch 1.13: gather/scatter along a dim, index_* along a dim, masks, flat indices,
   nonzero, counting. Index tensors are int64 (torch's "gather(): Expected dtype int64 for index", ...);
   index values are checked before anything is written, so a failed call changes nothing. dim may be
   negative. Duplicate indices: a plain scatter writes in index order (the last write wins, as torch's
   serial CPU kernel), the accumulating forms add in index order (torch's float results bit for bit). */

/* scatter's reduce keyword (zero: none, the value replaces). */
typedef enum ct_scatter_mode { CT_SCATTER_REPLACE = 0, CT_SCATTER_ADD, CT_SCATTER_MULTIPLY } ct_scatter_mode;
/* scatter_reduce's and index_reduce's required reduce argument ("sum", "prod", "mean", "amax", "amin";
   index_reduce takes all but sum). Another value is torch's error for an unknown reduce string. */
typedef enum ct_reduction {
  CT_REDUCTION_SUM = 1,
  CT_REDUCTION_PROD,
  CT_REDUCTION_MEAN,
  CT_REDUCTION_AMAX,
  CT_REDUCTION_AMIN
} ct_reduction;

typedef struct ct_gather_opts {
  bool sparse_grad; /* autograd's choice of gradient layout: no effect on the result, as in torch */
} ct_gather_opts;
typedef struct ct_scatter_opts {
  ct_scatter_mode reduce;
} ct_scatter_opts;
typedef struct ct_scatter_reduce_opts {
  bool exclude_self; /* torch's include_self=False: self's values take no part in the reduction */
} ct_scatter_reduce_opts;
typedef struct ct_index_add_opts {
  ct_scalar alpha; /* kind 0: 1 */
} ct_index_add_opts;
typedef struct ct_index_put_opts {
  bool accumulate; /* add into self (duplicate indices add up) instead of writing */
} ct_index_put_opts;
typedef struct ct_take_along_dim_opts {
  ct_dims dims; /* n = 0: None (self and indices flattened); else one dim */
} ct_take_along_dim_opts;
typedef struct ct_bincount_opts {
  const ct_tensor *weights; /* NULL: counts (int64); else sums of weights (double, float for float weights) */
  int64_t minlength;
} ct_bincount_opts;
typedef struct ct_histc_opts {
  int64_t bins; /* 0: 100 */
  double min, max; /* both 0: the data's min and max */
} ct_histc_opts;
typedef struct ct_histogram_opts {
  bool has_range; /* range=(range_min, range_max); false: the data's min and max */
  double range_min, range_max;
  const ct_tensor *weight; /* NULL: each element counts 1 */
  bool density;
} ct_histogram_opts;

/* torch.gather(t, dim, index): result[i][j] = t[i][index[i][j]] along dim; index's shape, at most t's
   size in the other dims. */
CT_API ct_tensor *ct_gather(const ct_tensor *t, int64_t dim, const ct_tensor *index, const ct_gather_opts *opts);
CT_API ct_status ct_gather_out(ct_tensor *out, const ct_tensor *t, int64_t dim, const ct_tensor *index,
                               const ct_gather_opts *opts);
/* torch.scatter(t, dim, index, src) and scatter(t, dim, index, value): src (t's dtype) or a number written
   (reduce: added or multiplied) at index along dim. */
CT_API ct_tensor *ct_scatter(const ct_tensor *t, int64_t dim, const ct_tensor *index, const ct_tensor *src,
                             const ct_scatter_opts *opts);
CT_API ct_status ct_scatter_(ct_tensor *self, int64_t dim, const ct_tensor *index, const ct_tensor *src,
                             const ct_scatter_opts *opts);
CT_API ct_status ct_scatter_out(ct_tensor *out, const ct_tensor *t, int64_t dim, const ct_tensor *index,
                                const ct_tensor *src, const ct_scatter_opts *opts);
CT_API ct_tensor *ct_scatter_value(const ct_tensor *t, int64_t dim, const ct_tensor *index, ct_scalar value,
                                   const ct_scatter_opts *opts);
CT_API ct_status ct_scatter_value_(ct_tensor *self, int64_t dim, const ct_tensor *index, ct_scalar value,
                                   const ct_scatter_opts *opts);
CT_API ct_status ct_scatter_value_out(ct_tensor *out, const ct_tensor *t, int64_t dim, const ct_tensor *index,
                                      ct_scalar value, const ct_scatter_opts *opts);
/* torch.scatter_add: src added at index along dim, in index order. */
CT_API ct_tensor *ct_scatter_add(const ct_tensor *t, int64_t dim, const ct_tensor *index, const ct_tensor *src);
CT_API ct_status ct_scatter_add_(ct_tensor *self, int64_t dim, const ct_tensor *index, const ct_tensor *src);
CT_API ct_status ct_scatter_add_out(ct_tensor *out, const ct_tensor *t, int64_t dim, const ct_tensor *index,
                                    const ct_tensor *src);
/* torch.scatter_reduce(t, dim, index, src, reduce, include_self): sum, prod, mean (integer means floor
   divide), amax, amin; positions no index names keep t's value. */
CT_API ct_tensor *ct_scatter_reduce(const ct_tensor *t, int64_t dim, const ct_tensor *index, const ct_tensor *src,
                                    ct_reduction reduce, const ct_scatter_reduce_opts *opts);
CT_API ct_status ct_scatter_reduce_(ct_tensor *self, int64_t dim, const ct_tensor *index, const ct_tensor *src,
                                    ct_reduction reduce, const ct_scatter_reduce_opts *opts);
CT_API ct_status ct_scatter_reduce_out(ct_tensor *out, const ct_tensor *t, int64_t dim, const ct_tensor *index,
                                       const ct_tensor *src, ct_reduction reduce, const ct_scatter_reduce_opts *opts);

/* torch.index_select(t, dim, index): the entries of t along dim named by a 0-dim or 1-dim index (int64 or
   int32). */
CT_API ct_tensor *ct_index_select(const ct_tensor *t, int64_t dim, const ct_tensor *index);
CT_API ct_status ct_index_select_out(ct_tensor *out, const ct_tensor *t, int64_t dim, const ct_tensor *index);
/* torch.index_add(t, dim, index, source, alpha=): alpha * source's slices added at index along dim. */
CT_API ct_tensor *ct_index_add(const ct_tensor *t, int64_t dim, const ct_tensor *index, const ct_tensor *source,
                               const ct_index_add_opts *opts);
CT_API ct_status ct_index_add_(ct_tensor *self, int64_t dim, const ct_tensor *index, const ct_tensor *source,
                               const ct_index_add_opts *opts);
CT_API ct_status ct_index_add_out(ct_tensor *out, const ct_tensor *t, int64_t dim, const ct_tensor *index,
                                  const ct_tensor *source, const ct_index_add_opts *opts);
/* torch.index_copy: source's slices written at index along dim (int64 index). */
CT_API ct_tensor *ct_index_copy(const ct_tensor *t, int64_t dim, const ct_tensor *index, const ct_tensor *source);
CT_API ct_status ct_index_copy_(ct_tensor *self, int64_t dim, const ct_tensor *index, const ct_tensor *source);
CT_API ct_status ct_index_copy_out(ct_tensor *out, const ct_tensor *t, int64_t dim, const ct_tensor *index,
                                   const ct_tensor *source);
/* torch.index_fill: value (a C number) written into the slices at index along dim. */
CT_API ct_tensor *ct_index_fill(const ct_tensor *t, int64_t dim, const ct_tensor *index, ct_scalar value);
CT_API ct_status ct_index_fill_(ct_tensor *self, int64_t dim, const ct_tensor *index, ct_scalar value);
/* torch.index_put(t, indices, values, accumulate) with indices a list of index tensors (int64, bool or uint8
   masks; a NULL entry is None, a whole dim), as t[indices] = values; accumulate adds, duplicates summed in
   iteration order. The in-place form is ct_index_put_tensors_ (ct_index_put_ is Python's setitem, above). */
CT_API ct_tensor *ct_index_put(const ct_tensor *t, ct_tensors indices, const ct_tensor *values,
                               const ct_index_put_opts *opts);
CT_API ct_status ct_index_put_tensors_(ct_tensor *self, ct_tensors indices, const ct_tensor *values,
                                       const ct_index_put_opts *opts);
/* torch.index_reduce(t, dim, index, source, reduce, include_self): prod, mean, amax or amin of source's
   slices at index along dim (floating dtypes and integers). */
CT_API ct_tensor *ct_index_reduce(const ct_tensor *t, int64_t dim, const ct_tensor *index, const ct_tensor *source,
                                  ct_reduction reduce, const ct_scatter_reduce_opts *opts);
CT_API ct_status ct_index_reduce_(ct_tensor *self, int64_t dim, const ct_tensor *index, const ct_tensor *source,
                                  ct_reduction reduce, const ct_scatter_reduce_opts *opts);
CT_API ct_status ct_index_reduce_out(ct_tensor *out, const ct_tensor *t, int64_t dim, const ct_tensor *index,
                                     const ct_tensor *source, ct_reduction reduce,
                                     const ct_scatter_reduce_opts *opts);

/* torch.masked_scatter(t, mask, source): source's first elements, in order, written where mask (bool,
   broadcast to t) is true. */
CT_API ct_tensor *ct_masked_scatter(const ct_tensor *t, const ct_tensor *mask, const ct_tensor *source);
CT_API ct_status ct_masked_scatter_(ct_tensor *self, const ct_tensor *mask, const ct_tensor *source);
/* torch.masked_select(t, mask): the elements where the broadcast mask is true, a 1-dim tensor. */
CT_API ct_tensor *ct_masked_select(const ct_tensor *t, const ct_tensor *mask);
CT_API ct_status ct_masked_select_out(ct_tensor *out, const ct_tensor *t, const ct_tensor *mask);
/* torch.take(t, index): t read as flat, row-major, at index (negative counts from the end); index's shape. */
CT_API ct_tensor *ct_take(const ct_tensor *t, const ct_tensor *index);
CT_API ct_status ct_take_out(ct_tensor *out, const ct_tensor *t, const ct_tensor *index);
/* torch.take_along_dim(t, indices, dim): gather along dim with t and indices broadcast in the other dims. */
CT_API ct_tensor *ct_take_along_dim(const ct_tensor *t, const ct_tensor *indices, const ct_take_along_dim_opts *opts);
CT_API ct_status ct_take_along_dim_out(ct_tensor *out, const ct_tensor *t, const ct_tensor *indices,
                                       const ct_take_along_dim_opts *opts);
/* torch.put(t, index, source, accumulate): source written (added) at t's flat indices. */
CT_API ct_tensor *ct_put(const ct_tensor *t, const ct_tensor *index, const ct_tensor *source,
                         const ct_index_put_opts *opts);
CT_API ct_status ct_put_(ct_tensor *self, const ct_tensor *index, const ct_tensor *source,
                         const ct_index_put_opts *opts);

/* torch.nonzero(t): the coordinates of the nonzero elements, [count, t.ndim] int64, row-major order;
   ct_nonzero_tuple is as_tuple=True (one 1-dim tensor per dim; a 0-dim t gives one). */
CT_API ct_tensor *ct_nonzero(const ct_tensor *t);
CT_API ct_status ct_nonzero_out(ct_tensor *out, const ct_tensor *t);
CT_API ct_tensor_list *ct_nonzero_tuple(const ct_tensor *t);
/* torch.argwhere(t): nonzero(t). */
CT_API ct_tensor *ct_argwhere(const ct_tensor *t);
/* torch.where(condition) with one argument: nonzero(condition, as_tuple=True). */
CT_API ct_tensor_list *ct_where_cond(const ct_tensor *condition);

/* torch.bincount(t, weights, minlength): counts of each value of a 1-dim non-negative integer tensor. */
CT_API ct_tensor *ct_bincount(const ct_tensor *t, const ct_bincount_opts *opts);
/* torch.histc(t, bins, min, max): a histogram of equal bins (floating dtypes); values outside are ignored. */
CT_API ct_tensor *ct_histc(const ct_tensor *t, const ct_histc_opts *opts);
CT_API ct_status ct_histc_out(ct_tensor *out, const ct_tensor *t, const ct_histc_opts *opts);
/* torch.histogram(t, bins, range, weight, density): the counts (*hist) and the bin edges (*bin_edges), bins
   equal ones (ct_histogram) or the edges given as a 1-dim tensor (ct_histogram_bins). float and double. */
CT_API ct_status ct_histogram(const ct_tensor *t, int64_t bins, ct_tensor **hist, ct_tensor **bin_edges,
                              const ct_histogram_opts *opts);
CT_API ct_status ct_histogram_out(ct_tensor *hist, ct_tensor *bin_edges, const ct_tensor *t, int64_t bins,
                                  const ct_histogram_opts *opts);
CT_API ct_status ct_histogram_bins(const ct_tensor *t, const ct_tensor *bins, ct_tensor **hist,
                                   ct_tensor **bin_edges, const ct_histogram_opts *opts);
CT_API ct_status ct_histogram_bins_out(ct_tensor *hist, ct_tensor *bin_edges, const ct_tensor *t,
                                       const ct_tensor *bins, const ct_histogram_opts *opts);
/* torch.nn.functional.one_hot(t, num_classes): int64 [..., num_classes] (num_classes -1: max(t) + 1). */
CT_API ct_tensor *ct_one_hot(const ct_tensor *t, int64_t num_classes);

/* Items for ct_index's list form and for ct_index_items. */
static inline ct_index_item ct__idx_make(ct_index_kind kind, int64_t start, int64_t stop, int64_t step) {
  ct_index_item it;
  it.kind = kind;
  it.start = start;
  it.stop = stop;
  it.step = step;
  it.tensor = NULL;
  it.spec = NULL;
  it.number = ct_scalar_int(0);
  return it;
}
#define CT_IDX_INT(i) ct__idx_make(CT_INDEX_INT, (i), 0, 0)
#define CT_IDX_SLICE(start, stop, step) ct__idx_make(CT_INDEX_SLICE, (start), (stop), (step))
#define CT_IDX_ALL ct__idx_make(CT_INDEX_SLICE, 0, CT_SLICE_END, 1)
#define CT_IDX_NONE ct__idx_make(CT_INDEX_NONE, 0, 0, 0)
#define CT_IDX_ELLIPSIS ct__idx_make(CT_INDEX_ELLIPSIS, 0, 0, 0)
#define CT_IDX_BOOL(b) ct__idx_make(CT_INDEX_BOOL, (b) ? 1 : 0, 0, 0)
static inline ct_index_item ct__idx_tensor(const ct_tensor *t) {
  ct_index_item it = ct__idx_make(CT_INDEX_TENSOR, 0, 0, 0);
  it.tensor = t;
  return it;
}
#define CT_IDX_TENSOR(t) ct__idx_tensor(t)
static inline ct_index_item ct__idx_spec(const char *s) {
  ct_index_item it = ct__idx_make(CT_INDEX_SPEC, 0, 0, 0);
  it.spec = s;
  return it;
}
static inline ct_index_item ct__idx_item(ct_index_item it) { return it; }

#if !defined(__cplusplus) && !defined(CT_BUILDING_LIBRARY)
static inline ct_index_item ct__idx_number(ct_scalar v) {
  ct_index_item it = ct__idx_make(CT_INDEX_NUMBER, 0, 0, 0);
  it.number = v;
  return it;
}
#define CT__IDX_OF(name, T) \
  static inline ct_index_item ct__idx_##name(T v) { return ct__idx_number(ct__num_##name(v)); }
CT__IDX_OF(scalar, ct_scalar)
CT__IDX_OF(bool, bool)
CT__IDX_OF(int, long long)
CT__IDX_OF(uint, unsigned long long)
CT__IDX_OF(double, double)
CT__IDX_OF(ldouble, long double)
#ifndef __STDC_NO_COMPLEX__
CT__IDX_OF(cfloat, float _Complex)
CT__IDX_OF(cdouble, double _Complex)
#endif
#undef CT__IDX_OF
/* One argument of ct_index as an item: a spec string, an item, a tensor or a C number. */
#define CT_IDX(x)                                                                                          \
  _Generic((x), ct_index_item: ct__idx_item, char *: ct__idx_spec, const char *: ct__idx_spec,             \
           ct_tensor *: ct__idx_tensor, const ct_tensor *: ct__idx_tensor, void *: ct__idx_tensor,           \
           CT__NUM_CASES(ct__idx_))(x)
#define ct_index(t, ...) \
  ct_index_items(CT__T(t), (const ct_index_item[]){CT__MAP(CT_IDX, __VA_ARGS__)}, CT__NARGS(__VA_ARGS__))
/* t[spec or items...] = value: the value is the last argument. */
#define ct_index_put_(t, ...) \
  ct_index_put_items_(CT__TM(t), (const ct_index_item[]){CT__MAP(CT_IDX, __VA_ARGS__)}, CT__NARGS(__VA_ARGS__))

/* C: each function above that takes tensors is also a macro of its name that checks its arguments (args.h);
   a number argument (scatter's and index_fill's value) is a C number (CT_NUM). */
#define ct_gather(...) CT__CHECKED(4, CT__CK_ct_gather, ct_gather, __VA_ARGS__)
#define CT__CK_ct_gather(t, d, i, o) ct_gather(CT__T(t), d, CT__T(i), CT__OPTS(ct_gather_opts, o))
#define ct_gather_out(...) CT__CHECKED(5, CT__CK_ct_gather_out, ct_gather_out, __VA_ARGS__)
#define CT__CK_ct_gather_out(r, t, d, i, o) ct_gather_out(CT__TM(r), CT__T(t), d, CT__T(i), CT__OPTS(ct_gather_opts, o))
#define ct_scatter(...) CT__CHECKED(5, CT__CK_ct_scatter, ct_scatter, __VA_ARGS__)
#define CT__CK_ct_scatter(t, d, i, s, o) ct_scatter(CT__T(t), d, CT__T(i), CT__T(s), CT__OPTS(ct_scatter_opts, o))
#define ct_scatter_(...) CT__CHECKED(5, CT__CK_ct_scatter_, ct_scatter_, __VA_ARGS__)
#define CT__CK_ct_scatter_(t, d, i, s, o) ct_scatter_(CT__TM(t), d, CT__T(i), CT__T(s), CT__OPTS(ct_scatter_opts, o))
#define ct_scatter_out(...) CT__CHECKED(6, CT__CK_ct_scatter_out, ct_scatter_out, __VA_ARGS__)
#define CT__CK_ct_scatter_out(r, t, d, i, s, o) \
  ct_scatter_out(CT__TM(r), CT__T(t), d, CT__T(i), CT__T(s), CT__OPTS(ct_scatter_opts, o))
#define ct_scatter_value(...) CT__CHECKED(5, CT__CK_ct_scatter_value, ct_scatter_value, __VA_ARGS__)
#define CT__CK_ct_scatter_value(t, d, i, v, o) \
  ct_scatter_value(CT__T(t), d, CT__T(i), CT_NUM(v), CT__OPTS(ct_scatter_opts, o))
#define ct_scatter_value_(...) CT__CHECKED(5, CT__CK_ct_scatter_value_, ct_scatter_value_, __VA_ARGS__)
#define CT__CK_ct_scatter_value_(t, d, i, v, o) \
  ct_scatter_value_(CT__TM(t), d, CT__T(i), CT_NUM(v), CT__OPTS(ct_scatter_opts, o))
#define ct_scatter_value_out(...) CT__CHECKED(6, CT__CK_ct_scatter_value_out, ct_scatter_value_out, __VA_ARGS__)
#define CT__CK_ct_scatter_value_out(r, t, d, i, v, o) \
  ct_scatter_value_out(CT__TM(r), CT__T(t), d, CT__T(i), CT_NUM(v), CT__OPTS(ct_scatter_opts, o))
#define ct_scatter_add(t, d, i, s) ct_scatter_add(CT__T(t), d, CT__T(i), CT__T(s))
#define ct_scatter_add_(t, d, i, s) ct_scatter_add_(CT__TM(t), d, CT__T(i), CT__T(s))
#define ct_scatter_add_out(r, t, d, i, s) ct_scatter_add_out(CT__TM(r), CT__T(t), d, CT__T(i), CT__T(s))
#define ct_scatter_reduce(...) CT__CHECKED(6, CT__CK_ct_scatter_reduce, ct_scatter_reduce, __VA_ARGS__)
#define CT__CK_ct_scatter_reduce(t, d, i, s, m, o) \
  ct_scatter_reduce(CT__T(t), d, CT__T(i), CT__T(s), m, CT__OPTS(ct_scatter_reduce_opts, o))
#define ct_scatter_reduce_(...) CT__CHECKED(6, CT__CK_ct_scatter_reduce_, ct_scatter_reduce_, __VA_ARGS__)
#define CT__CK_ct_scatter_reduce_(t, d, i, s, m, o) \
  ct_scatter_reduce_(CT__TM(t), d, CT__T(i), CT__T(s), m, CT__OPTS(ct_scatter_reduce_opts, o))
#define ct_scatter_reduce_out(...) CT__CHECKED(7, CT__CK_ct_scatter_reduce_out, ct_scatter_reduce_out, __VA_ARGS__)
#define CT__CK_ct_scatter_reduce_out(r, t, d, i, s, m, o) \
  ct_scatter_reduce_out(CT__TM(r), CT__T(t), d, CT__T(i), CT__T(s), m, CT__OPTS(ct_scatter_reduce_opts, o))
#define ct_index_select(t, d, i) ct_index_select(CT__T(t), d, CT__T(i))
#define ct_index_select_out(r, t, d, i) ct_index_select_out(CT__TM(r), CT__T(t), d, CT__T(i))
#define ct_index_add(...) CT__CHECKED(5, CT__CK_ct_index_add, ct_index_add, __VA_ARGS__)
#define CT__CK_ct_index_add(t, d, i, s, o) ct_index_add(CT__T(t), d, CT__T(i), CT__T(s), CT__OPTS(ct_index_add_opts, o))
#define ct_index_add_(...) CT__CHECKED(5, CT__CK_ct_index_add_, ct_index_add_, __VA_ARGS__)
#define CT__CK_ct_index_add_(t, d, i, s, o) \
  ct_index_add_(CT__TM(t), d, CT__T(i), CT__T(s), CT__OPTS(ct_index_add_opts, o))
#define ct_index_add_out(...) CT__CHECKED(6, CT__CK_ct_index_add_out, ct_index_add_out, __VA_ARGS__)
#define CT__CK_ct_index_add_out(r, t, d, i, s, o) \
  ct_index_add_out(CT__TM(r), CT__T(t), d, CT__T(i), CT__T(s), CT__OPTS(ct_index_add_opts, o))
#define ct_index_copy(t, d, i, s) ct_index_copy(CT__T(t), d, CT__T(i), CT__T(s))
#define ct_index_copy_(t, d, i, s) ct_index_copy_(CT__TM(t), d, CT__T(i), CT__T(s))
#define ct_index_copy_out(r, t, d, i, s) ct_index_copy_out(CT__TM(r), CT__T(t), d, CT__T(i), CT__T(s))
#define ct_index_fill(t, d, i, v) ct_index_fill(CT__T(t), d, CT__T(i), CT_NUM(v))
#define ct_index_fill_(t, d, i, v) ct_index_fill_(CT__TM(t), d, CT__T(i), CT_NUM(v))
#define ct_index_put(...) CT__CHECKED(4, CT__CK_ct_index_put, ct_index_put, __VA_ARGS__)
#define CT__CK_ct_index_put(t, i, v, o) ct_index_put(CT__T(t), i, CT__T(v), CT__OPTS(ct_index_put_opts, o))
#define ct_index_put_tensors_(...) CT__CHECKED(4, CT__CK_ct_index_put_tensors_, ct_index_put_tensors_, __VA_ARGS__)
#define CT__CK_ct_index_put_tensors_(t, i, v, o) \
  ct_index_put_tensors_(CT__TM(t), i, CT__T(v), CT__OPTS(ct_index_put_opts, o))
#define ct_index_reduce(...) CT__CHECKED(6, CT__CK_ct_index_reduce, ct_index_reduce, __VA_ARGS__)
#define CT__CK_ct_index_reduce(t, d, i, s, m, o) \
  ct_index_reduce(CT__T(t), d, CT__T(i), CT__T(s), m, CT__OPTS(ct_scatter_reduce_opts, o))
#define ct_index_reduce_(...) CT__CHECKED(6, CT__CK_ct_index_reduce_, ct_index_reduce_, __VA_ARGS__)
#define CT__CK_ct_index_reduce_(t, d, i, s, m, o) \
  ct_index_reduce_(CT__TM(t), d, CT__T(i), CT__T(s), m, CT__OPTS(ct_scatter_reduce_opts, o))
#define ct_index_reduce_out(...) CT__CHECKED(7, CT__CK_ct_index_reduce_out, ct_index_reduce_out, __VA_ARGS__)
#define CT__CK_ct_index_reduce_out(r, t, d, i, s, m, o) \
  ct_index_reduce_out(CT__TM(r), CT__T(t), d, CT__T(i), CT__T(s), m, CT__OPTS(ct_scatter_reduce_opts, o))
#define ct_masked_scatter(t, m, s) ct_masked_scatter(CT__T(t), CT__T(m), CT__T(s))
#define ct_masked_scatter_(t, m, s) ct_masked_scatter_(CT__TM(t), CT__T(m), CT__T(s))
#define ct_masked_select(t, m) ct_masked_select(CT__T(t), CT__T(m))
#define ct_masked_select_out(r, t, m) ct_masked_select_out(CT__TM(r), CT__T(t), CT__T(m))
#define ct_take(t, i) ct_take(CT__T(t), CT__T(i))
#define ct_take_out(r, t, i) ct_take_out(CT__TM(r), CT__T(t), CT__T(i))
#define ct_take_along_dim(...) CT__CHECKED(3, CT__CK_ct_take_along_dim, ct_take_along_dim, __VA_ARGS__)
#define CT__CK_ct_take_along_dim(t, i, o) ct_take_along_dim(CT__T(t), CT__T(i), CT__OPTS(ct_take_along_dim_opts, o))
#define ct_take_along_dim_out(...) CT__CHECKED(4, CT__CK_ct_take_along_dim_out, ct_take_along_dim_out, __VA_ARGS__)
#define CT__CK_ct_take_along_dim_out(r, t, i, o) \
  ct_take_along_dim_out(CT__TM(r), CT__T(t), CT__T(i), CT__OPTS(ct_take_along_dim_opts, o))
#define ct_put(...) CT__CHECKED(4, CT__CK_ct_put, ct_put, __VA_ARGS__)
#define CT__CK_ct_put(t, i, s, o) ct_put(CT__T(t), CT__T(i), CT__T(s), CT__OPTS(ct_index_put_opts, o))
#define ct_put_(...) CT__CHECKED(4, CT__CK_ct_put_, ct_put_, __VA_ARGS__)
#define CT__CK_ct_put_(t, i, s, o) ct_put_(CT__TM(t), CT__T(i), CT__T(s), CT__OPTS(ct_index_put_opts, o))
#define ct_nonzero(t) ct_nonzero(CT__T(t))
#define ct_nonzero_out(r, t) ct_nonzero_out(CT__TM(r), CT__T(t))
#define ct_nonzero_tuple(t) ct_nonzero_tuple(CT__T(t))
#define ct_argwhere(t) ct_argwhere(CT__T(t))
#define ct_where_cond(t) ct_where_cond(CT__T(t))
#define ct_bincount(...) CT__CHECKED(2, CT__CK_ct_bincount, ct_bincount, __VA_ARGS__)
#define CT__CK_ct_bincount(t, o) ct_bincount(CT__T(t), CT__OPTS(ct_bincount_opts, o))
#define ct_histc(...) CT__CHECKED(2, CT__CK_ct_histc, ct_histc, __VA_ARGS__)
#define CT__CK_ct_histc(t, o) ct_histc(CT__T(t), CT__OPTS(ct_histc_opts, o))
#define ct_histc_out(...) CT__CHECKED(3, CT__CK_ct_histc_out, ct_histc_out, __VA_ARGS__)
#define CT__CK_ct_histc_out(r, t, o) ct_histc_out(CT__TM(r), CT__T(t), CT__OPTS(ct_histc_opts, o))
#define ct_histogram(...) CT__CHECKED(5, CT__CK_ct_histogram, ct_histogram, __VA_ARGS__)
#define CT__CK_ct_histogram(t, b, h, e, o) \
  ct_histogram(CT__T(t), b, CT__TP(h), CT__TP(e), CT__OPTS(ct_histogram_opts, o))
#define ct_histogram_out(...) CT__CHECKED(5, CT__CK_ct_histogram_out, ct_histogram_out, __VA_ARGS__)
#define CT__CK_ct_histogram_out(h, e, t, b, o) \
  ct_histogram_out(CT__TM(h), CT__TM(e), CT__T(t), b, CT__OPTS(ct_histogram_opts, o))
#define ct_histogram_bins(...) CT__CHECKED(5, CT__CK_ct_histogram_bins, ct_histogram_bins, __VA_ARGS__)
#define CT__CK_ct_histogram_bins(t, b, h, e, o) \
  ct_histogram_bins(CT__T(t), CT__T(b), CT__TP(h), CT__TP(e), CT__OPTS(ct_histogram_opts, o))
#define ct_histogram_bins_out(...) CT__CHECKED(5, CT__CK_ct_histogram_bins_out, ct_histogram_bins_out, __VA_ARGS__)
#define CT__CK_ct_histogram_bins_out(h, e, t, b, o) \
  ct_histogram_bins_out(CT__TM(h), CT__TM(e), CT__T(t), CT__T(b), CT__OPTS(ct_histogram_opts, o))
#define ct_one_hot(t, n) ct_one_hot(CT__T(t), n)
#endif

#ifdef __cplusplus
}
#endif
#endif
