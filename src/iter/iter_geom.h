/* The engine's one geometry (DESIGN.md section 4): how every walker of tensor memory -- the pointwise
   engine (iter_setup.c), reductions (iter_reduce.c), scans (ops/scan/scan_driver.c) and random's walk
   (random/walk.c) -- turns its operands into the dims it loops over. It is TensorIterator's:
   byte strides broadcast to the iteration shape (compute_strides), dims ordered by reorder_dimensions
   (core/layout_rules.c; a reduction passes its outputs' count for PyTorch's reduction rule), then merged
   by coalesce_dimensions. The walkers differ only in what they do with the dims: which element order
   decides bits stays PyTorch's because the order is PyTorch's. */
#ifndef CTORCH_ITER_GEOM_H
#define CTORCH_ITER_GEOM_H

#include "core/internal.h"

#define CT_GEOM_MAX_ROWS 8

/* Byte strides of t broadcast to shape (ndim dims, ndim >= t->ndim): broadcast dims get 0. el_strides
   (t->ndim element strides) stands in for t's own when not NULL; isz is the element size seen. */
void ct__geom_broadcast_bytes(const ct_tensor *t, const int64_t *el_strides, int64_t isz, const int64_t *shape,
                              int64_t ndim, int64_t *out);

/* A geometry being built: nd dims (in the tensors' logical order until arranged), the shape and one row of
   byte strides per operand, all in caller storage. */
typedef struct ct_geom {
  int64_t nd;
  int n_rows;
  int64_t *shape;
  int64_t *rows[CT_GEOM_MAX_ROWS];
} ct_geom;

enum {
  CT_GEOM_LOGICAL = 1u,     /* the logical order (the last dim fastest) instead of reorder_dimensions */
  CT_GEOM_NO_COALESCE = 2u, /* order only */
};

/* Orders g's dims by TensorIterator::reorder_dimensions over its rows (n_red_out: see ct__reorder_dims)
   and applies the order to the shape and every row, so that dim 0 moves fastest; then, unless
   CT_GEOM_NO_COALESCE, coalesces. perm (nd entries) receives the original dim at each position before
   coalescing; tmp has room for nd entries. Returns the new nd. */
int64_t ct__geom_arrange(ct_geom *g, int n_red_out, unsigned flags, int64_t *perm, int64_t *tmp);

/* ---- walking an arranged geometry's index space (dim 0 fastest): the drivers' one cursor ----
   Strides are operand-major: operand k's row at strides + k * nd. */
/* idx = the multi-index of linear position pos. */
static inline void ct__geom_unravel(int64_t nd, const int64_t *shape, int64_t pos, int64_t *idx) {
  for (int64_t d = 0; d < nd; d++) {
    idx[d] = pos % shape[d];
    pos /= shape[d];
  }
}
/* Each operand's address at idx. */
static inline void ct__geom_pointers(int64_t nd, int n_ops, const int64_t *strides, char *const *base,
                                     const int64_t *idx, char **ptrs) {
  for (int k = 0; k < n_ops; k++) {
    const int64_t *s = strides + (size_t)k * (size_t)nd;
    char *p = base[k];
    for (int64_t d = 0; d < nd; d++) p += idx[d] * s[d];
    ptrs[k] = p;
  }
}
/* Carries full dims of idx into the next ones (after idx[0] or idx[1] advanced). */
static inline void ct__geom_carry(int64_t nd, const int64_t *shape, int64_t *idx) {
  for (int64_t d = 0; d < nd - 1; d++) {
    if (idx[d] != shape[d]) continue;
    idx[d] = 0;
    idx[d + 1]++;
  }
}

#endif
