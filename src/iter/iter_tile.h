/* Cache-blocked iteration for rows where an input walks with a large stride (iter_tile.c); used by the loop
   driver (iter_loop.c). */
#ifndef CTORCH_ITER_TILE_H
#define CTORCH_ITER_TILE_H

#include "iter/iter.h"

typedef struct ct_tile_plan {
  int64_t w, h; /* tiles of w elements of dim 0 by h rows of dim 1; w == 0: no tiling */
  int n_copy;   /* inputs read through the tile buffer, transposed */
  int copy_op[CT_ITER_MAX_OPERANDS];
  int64_t copy_isz[CT_ITER_MAX_OPERANDS];
} ct_tile_plan;

/* ---- walking the coalesced index space (dim 0 fastest), for the loop drivers ---- */
/* idx = the multi-index of linear position pos. */
static inline void ct__iter_unravel(const ct_iter *it, int64_t pos, int64_t *idx) {
  for (int64_t d = 0; d < it->ndim; d++) {
    idx[d] = pos % it->shape[d];
    pos /= it->shape[d];
  }
}
/* Each operand's address at idx. */
static inline void ct__iter_pointers(const ct_iter *it, const int64_t *idx, char **ptrs) {
  int64_t nd = it->ndim;
  for (int k = 0; k < it->n_ops; k++) {
    const int64_t *s = it->strides + (size_t)k * (size_t)nd;
    char *p = ct__tdata(it->ops[k]);
    for (int64_t d = 0; d < nd; d++) p += idx[d] * s[d];
    ptrs[k] = p;
  }
}
/* Carries full dims of idx into the next ones (after idx[0] or idx[1] advanced). */
static inline void ct__iter_carry(const ct_iter *it, int64_t *idx) {
  for (int64_t d = 0; d < it->ndim - 1; d++) {
    if (idx[d] != it->shape[d]) continue;
    idx[d] = 0;
    idx[d + 1]++;
  }
}

/* Whether an input's memory meets an output's; same_ok: except an input that is the output itself (same
   elements at the same strides). */
bool ct__iter_outputs_meet_inputs(const ct_iter *it, bool same_ok);
/* Decides whether and how an iteration (no casts) is tiled for loop. */
void ct__tile_plan(const ct_iter *it, const ct_loop *loop, ct_tile_plan *tp);
/* Runs elements [begin, end) (linear index, dim 0 fastest) of a tiled iteration. */
void ct__tile_range(const ct_iter *it, const ct_tile_plan *tp, int64_t begin, int64_t end, ct_loop_fn loop,
                    const void *ctx);

#endif
