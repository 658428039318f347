/* Cache-blocked iteration for rows where an input walks with a large stride (iter_tile.c); used by the loop
   driver (iter_loop.c). */
#ifndef CTORCH_ITER_TILE_H
#define CTORCH_ITER_TILE_H

#include "iter/iter.h"
#include "iter/iter_geom.h"

typedef struct ct_tile_plan {
  int64_t w, h; /* tiles of w elements of dim 0 by h rows of dim 1; w == 0: no tiling */
  int n_copy;   /* inputs read through the tile buffer, transposed */
  int copy_op[CT_ITER_MAX_OPERANDS];
  int64_t copy_isz[CT_ITER_MAX_OPERANDS];
} ct_tile_plan;

/* ---- walking the coalesced index space (dim 0 fastest), for the loop drivers: the engine's cursor
   (iter_geom.h) over the iteration ---- */
static inline void ct__iter_unravel(const ct_iter *it, int64_t pos, int64_t *idx) {
  ct__geom_unravel(it->ndim, it->shape, pos, idx);
}
static inline void ct__iter_pointers(const ct_iter *it, const int64_t *idx, char **ptrs) {
  char *base[CT_ITER_MAX_OPERANDS];
  for (int k = 0; k < it->n_ops; k++) base[k] = ct__tdata(it->ops[k]);
  ct__geom_pointers(it->ndim, it->n_ops, it->strides, base, idx, ptrs);
}
static inline void ct__iter_carry(const ct_iter *it, int64_t *idx) { ct__geom_carry(it->ndim, it->shape, idx); }

/* Whether an input's memory meets an output's; same_ok: except an input that is the output itself (same
   elements at the same strides). */
bool ct__iter_outputs_meet_inputs(const ct_iter *it, bool same_ok);
/* Decides whether and how an iteration (no casts) is tiled for loop. */
void ct__tile_plan(const ct_iter *it, const ct_loop *loop, ct_tile_plan *tp);
/* Runs elements [begin, end) (linear index, dim 0 fastest) of a tiled iteration. */
void ct__tile_range(const ct_iter *it, const ct_tile_plan *tp, int64_t begin, int64_t end, ct_loop_fn loop,
                    const void *ctx);

#endif
