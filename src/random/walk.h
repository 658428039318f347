/* The order in which PyTorch's TensorIterator visits the elements of a nullary (or output + one input)
   op: a contiguous tensor in index order, a non-overlapping dense one in storage order, anything else
   by its dims sorted by stride with TensorIterator's insertion sort. Random ops draw one value per
   visited element, so this order decides which element gets which draw. */
#ifndef CTORCH_RANDOM_WALK_H
#define CTORCH_RANDOM_WALK_H

#include "core/internal.h"
#include "core/layout_rules.h"

/* One run of n elements: operand k's first element at ptr[k], the next ones stride[k] bytes apart. */
typedef void (*ct_walk_fn)(void *ctx, char *const *ptr, const int64_t *stride, int64_t n);

/* Visits out's elements (and the matching elements of in, of the same shape, when in is not NULL) in
   TensorIterator's order, one innermost run at a time. Never allocates. */
void ct__walk(const ct_tensor *out, const ct_tensor *in, ct_walk_fn fn, void *ctx);

#endif
