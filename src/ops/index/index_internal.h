/* Shared by Python-style indexing (ct_index) and the advanced-indexing op (torch's aten::index). */
#ifndef CTORCH_OPS_INDEX_INTERNAL_H
#define CTORCH_OPS_INDEX_INTERNAL_H

#include "core/internal.h"
#include "ctorch/index.h"

/* One resolved index item: no spec strings left, C numbers turned into ints and bools. kind
   CT_INDEX_NUMBER is left only for a number Python would refuse (a float, a complex): it counts as a
   specified dim, as Python counts it, and fails when reached. */
typedef struct ct_idx {
  ct_index_kind kind;
  int64_t a, b, c; /* INT: a; BOOL: a; SLICE: start, stop, step */
  const ct_tensor *t;
  ct_scalar number;
} ct_idx;

/* The items of a ct_index call, resolved: a leading spec string is parsed and its placeholders filled from
   the items after it. *out (n entries) is the caller's to ct__free; *tuple tells Python's x[i] (one item,
   no comma) from x[i,] and x[i, j], which torch checks differently. Records a ValueError for a malformed
   spec, a placeholder count that does not match, or a NULL tensor. */
bool ct__index_resolve(const ct_index_item *items, int64_t n, ct_idx **out, int64_t *nout, bool *tuple);

/* One item as a value (a C number as an int, bool or other number; a tensor as it is). */
ct_idx ct__index_resolve_one(const ct_index_item *item);

/* torch's aten::index: self indexed by index tensors (n entries, NULL where a dim is not indexed; int64,
   uint8 or bool): torch's checks and messages, its result shape and layout. A new tensor, not
   scope-registered. */
ct_tensor *ct__index_tensors_impl(const ct_tensor *self, const ct_tensor *const *indices, int64_t n);

/* torch's index_put_ (_index_put_impl_): value written at self[indices] (value already of self's dtype and
   broadcastable to the indexed shape, else torch's errors); a one-element value and a single mask take
   masked_fill_, as torch does; index values checked before anything is written. */
ct_status ct__index_put_impl(ct_tensor *self, const ct_tensor *const *indices, int64_t n, const ct_tensor *value,
                             bool accumulate);

/* The int64 coordinates of the nonzero elements of t in row-major order, a contiguous [count, t.ndim]
   tensor (torch.nonzero); not scope-registered. */
ct_tensor *ct__nonzero_impl(const ct_tensor *t);

#endif
