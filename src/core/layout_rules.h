/* PyTorch's rules about strided layouts, on raw (ndim, sizes, strides) geometry so they apply to
   tensors and to the temporaries an op would make: contiguity per memory format, the channels-last
   guess (suggest_memory_format), non-overlapping-and-dense, empty_like(preserve) strides, and the
   memory-overlap checks of in-place and out= ops. */
#ifndef CTORCH_CORE_LAYOUT_RULES_H
#define CTORCH_CORE_LAYOUT_RULES_H

#include "core/internal.h"

bool ct__geom_is_contiguous(int64_t ndim, const int64_t *sizes, const int64_t *strides);
/* channels_last (rank 4) / channels_last_3d (rank 5) contiguity. */
bool ct__geom_is_channels_last(int64_t ndim, const int64_t *sizes, const int64_t *strides);
/* c10's is_non_overlapping_and_dense. */
bool ct__geom_non_overlapping_dense(int64_t ndim, const int64_t *sizes, const int64_t *strides);
bool ct__is_non_overlapping_and_dense(const ct_tensor *t);
/* Tensor.suggest_memory_format(): channels_last(_3d) when the strides look like it, else contiguous. */
ct_memory_format ct__geom_suggest_memory_format(int64_t ndim, const int64_t *sizes, const int64_t *strides);
ct_memory_format ct__suggest_memory_format(const ct_tensor *t);
/* TensorIterator::reorder_dimensions: perm[i] is the dim placed at position i (position 0 moves fastest),
   sorted by the byte strides in rows (one row per operand, NULL rows skipped). n_red_out: 0, or for a
   reduction the number of leading rows that are its outputs (stride 0 on the reduced dims): PyTorch's
   reduction rule then puts the reduced dims first. The one implementation; the engine's geometry builder
   (iter/iter_geom.h) applies it for every walker. */
void ct__reorder_dims(int64_t *const *rows, int n_rows, int n_red_out, const int64_t *shape, int64_t ndim,
                      int64_t *perm);
/* TensorIterator::coalesce_dimensions: merges neighbouring dims that step through memory as one for
   every row (byte strides, one row per operand, dim 0 fastest); returns the new rank. */
int64_t ct__coalesce_dims(int64_t nd, int64_t *shape, int64_t *const *rows, int n_rows);
/* at::infer_dense_strides: dense strides keeping the dim order of (sizes, strides). */
void ct__infer_dense_strides(int64_t ndim, const int64_t *sizes, const int64_t *strides, int64_t *out);
/* Strides of empty_like(t, memory_format=preserve): t's own strides when it is non-overlapping and dense,
   else infer_dense_strides. out holds t->ndim entries. */
void ct__preserve_format_strides(const ct_tensor *t, int64_t *out);
/* Element strides of a contiguous layout in a memory format (channels_last needs rank 4, _3d rank 5). */
void ct__format_strides_for(int64_t ndim, const int64_t *sizes, ct_memory_format fmt, int64_t *strides);

/* has_internal_overlap() == YES: some element is reachable by two indices (a stride-0 dim of size > 1). */
bool ct__has_internal_overlap(const ct_tensor *t);
/* assert_no_internal_overlap for a written tensor: records PyTorch's error and returns false. */
bool ct__check_no_internal_overlap(const ct_tensor *t);
/* assert_no_partial_overlap(out, in): records PyTorch's error and returns false. */
bool ct__check_no_partial_overlap(const ct_tensor *out, const ct_tensor *in);
/* get_overlap_status(a, b) == PARTIAL: both dense, same storage, byte ranges overlap but are not the
   same range with the same strides. */
bool ct__partial_overlap(const ct_tensor *a, const ct_tensor *b);

#endif
