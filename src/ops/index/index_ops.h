/* Shared by the index ops of issue 16 (gather_scatter.c, index_dim.c, take_put.c, masked.c, nonzero.c,
   histogram.c): the parts every form repeats (result from self, out= tail, in-place target with math
   bits, index checks). */
#ifndef CTORCH_OPS_INDEX_OPS_H
#define CTORCH_OPS_INDEX_OPS_H

#include "core/layout_rules.h"
#include "core/op.h"
#include "ops/create_internal.h"
#include "ops/index/index_internal.h"

/* ensure_nonempty_dim / size / stride: a 0-dim tensor counts as [1] with stride 1. */
static inline int64_t ct__ne_dim(const ct_tensor *t) { return t->ndim > 0 ? t->ndim : 1; }
static inline int64_t ct__ne_size(const ct_tensor *t, int64_t d) { return t->ndim > 0 ? t->sizes[d] : 1; }
static inline int64_t ct__ne_stride(const ct_tensor *t, int64_t d) { return t->ndim > 0 ? t->strides[d] : 1; }

/* Unowned copies (the conversions' _impls register their results with the scope): t's values (math bits
   applied) as dtype dt in layout fmt; t itself (retained) when contiguous / of dtype dt already, else such
   a copy. */
#define ct__idx_copy_as ct__copy_as
ct_tensor *ct__idx_contiguous(const ct_tensor *t);
ct_tensor *ct__idx_as(const ct_tensor *t, ct_dtype dt);
/* A new tensor holding self's values (math bits applied) in layout fmt: the functional forms' result,
   which they then write in place. Not scope-registered. */
ct_tensor *ct__idx_fresh(const ct_tensor *self, ct_memory_format fmt);
/* torch's structured out= forms compute in out itself once set_output has resized it to self's shape: a
   fresh tensor holding self, laid out as out will be then, stands in for it until the call has succeeded
   (copy it to out with ct__idx_copy_out). Out's strides when it has self's shape (they set the rows of the
   ops run on slices), else contiguous ones; for an empty self, over out's storage size at out's offset
   (which decide the restride's storage-bounds error of index_copy and index_fill). */
ct_tensor *ct__idx_out_twin(const ct_tensor *out, const ct_tensor *self);
/* The out= tail: out (its dtype already checked) on r's device, resized to r's shape when it differs
   (resize_output), then r copied into it. r is released. */
ct_status ct__idx_copy_out(ct_tensor *out, ct_tensor *r);
/* The structured out= checks against like's dtype and device: "Expected out tensor to have dtype float, but
   got double instead", "Expected out tensor to have device cpu, but got meta instead". */
bool ct__idx_out_dtype(const ct_tensor *out, const ct_tensor *like);
/* In-place on self: autograd's check (and assert_no_internal_overlap where the op makes it), then the tensor
   to write (self, or a resolved temporary when self has math bits; ct__idx_target_end writes it back). NULL
   on failure. */
ct_tensor *ct__idx_target_begin(ct_tensor *self, bool no_internal_overlap);
ct_status ct__idx_target_end(ct_tensor *self, ct_tensor *target, ct_status s);
/* Overlap refusal shared with index_put_ (assert_no_overlap): torch's "unsupported operation: some
   elements of the input tensor and the written-to tensor refer to a single memory location." */
bool ct__idx_no_overlap(const ct_tensor *self, const ct_tensor *other);
/* The first index value (row-major) outside [lo, hi), or false when all are inside (or index is on the meta
   device: no values); index int64 or int32. */
bool ct__idx_find_bad(const ct_tensor *index, int64_t lo, int64_t hi, int64_t *bad);
/* One element of an index tensor (int64 or int32) at flat row-major position k. */
int64_t ct__idx_value_at(const ct_tensor *index, int64_t k);

/* torch's gather (result: a new contiguous tensor of index's shape) and scatter's in-place kernel on a
   target (reduce: 0 none, else CT_REDUCTION_*; value: the src when src is NULL). Checks as torch. */
ct_tensor *ct__gather_impl(const ct_tensor *self, int64_t dim, const ct_tensor *index);
ct_status ct__scatter_into(ct_tensor *target, int64_t dim, const ct_tensor *index, const ct_tensor *src,
                           ct_scalar value, int reduce, const char *name, bool check_bounds_first);

/* The index_* ops' kernel: for each k in order, dst's slice at index[k] along dim (scatter; gather: at k)
   combined with src's slice at k (gather: at index[k]), src's slices broadcast to dst's; index an int64
   vector whose values are in range (checked before); reduce 0 copies, else CT_REDUCTION_*. */
ct_status ct__index_func_run(ct_tensor *dst, int64_t dim, const ct_tensor *index, const ct_tensor *src,
                             bool scatter, int reduce, const char *name);
/* Advanced indexing's row path (index_rows.c): n rows of `row` bytes, dst[i] = src[idx[i]] (gather) or
   dst[idx[i]] = src[i] (scatter), where a row at position p of either side starts p * dst_s / src_s bytes
   in (src_s 0: one source row for all); idx read every idx_s elements, negative values counting from size.
   A gather runs on the pool; a scatter in position order on the calling thread, so a repeated value
   leaves the last position's row. Returns false when a value was outside [-size, size) (its row is
   skipped). */
typedef struct ct_idx_rows {
  char *dst;
  const char *src;
  const int64_t *idx;
  int64_t idx_s, n, size, dst_s, src_s, row;
  bool scatter;
} ct_idx_rows;
bool ct__idx_rows_copy(const ct_idx_rows *r);
/* A scatter's rows are written with non-temporal stores where its target is larger than this many bytes
   (index_rows.c); 0: the default. For tests. */
void ct__idx_set_stream_threshold(int64_t bytes);
/* Whether a value of idx (n of them, every stride elements) is outside [lo, hi). */
bool ct__idx_any_outside(const int64_t *idx, int64_t n, int64_t stride, int64_t lo, int64_t hi);

/* What include_self=False fills the named positions with first: 0 (sum, mean), 1 (prod), the lowest value or
   -inf (amax), the highest or inf (amin). */
ct_scalar ct__reduction_identity(ct_dtype dt, int reduce);
/* target /= count elementwise (count 0 taken as 1; integers floor-divide): scatter_reduce's and index_reduce's
   mean. */
ct_status ct__mean_divide(ct_tensor *target, const ct_tensor *count);

/* ---- meta kernels (index_meta.c): what torch 1.13 runs when a call dispatches to the meta device ---- */
/* The Meta kernel of index_put_ (_index_put_impl_), index_fill_, put_ and masked_scatter_: no check, self
   returned (after autograd's in-place check, which runs before the backend); their functional forms are the
   composite's clone of self (masked_scatter: of self expanded with the mask) with nothing more done. */
static inline ct_status ct__idx_meta_noop_(ct_tensor *self) {
  return ct__check_inplace(self) ? CT_OK : CT_ERR_RUNTIME;
}
/* index_select (Python's meta_index_select) and its out= form. */
ct_tensor *ct__index_select_meta(const ct_tensor *self, int64_t dim, const ct_tensor *index);
ct_status ct__index_select_out_meta(ct_tensor *out, const ct_tensor *self, int64_t dim,
                                    const ct_tensor *index);
/* index_func_meta_impl, shared by index_add and index_reduce (func: "index_add"): result NULL for the
   functional form (a new contiguous meta tensor is returned), self for the in-place form, out for out=.
   NULL on failure (out may have been resized, as torch's set_output does before its overlap asserts). */
ct_tensor *ct__index_func_meta(const char *func, ct_tensor *result, const ct_tensor *self, int64_t dim,
                               const ct_tensor *index, const ct_tensor *source);
/* scatter_meta_impl on target (the functional form's fresh tensor, or self in place). */
ct_status ct__scatter_meta(ct_tensor *target, int64_t dim, const ct_tensor *index, const ct_tensor *src,
                           const char *name, bool inplace);
/* The checks the meta and CPU paths share: index_func_meta_impl's (dim wrapped), scatter's dtype and shape
   checks (dim wrapped), and the first slices' binary iterator over shapes a (the output) and b. */
bool ct__index_func_checks(const char *func, const ct_tensor *self, int64_t dim, const ct_tensor *index,
                           const ct_tensor *source);
bool ct__scatter_checks(const char *name, const ct_tensor *self, int64_t dim, const ct_tensor *index,
                        const ct_tensor *src);
bool ct__index_slices_fit(int64_t na, const int64_t *a, int64_t nb, const int64_t *b);

#endif
