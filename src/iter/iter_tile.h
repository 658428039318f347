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

/* Whether an input's memory meets an output's; same_ok: except an input that is the output itself (same
   elements at the same strides). */
bool ct__iter_outputs_meet_inputs(const ct_iter *it, bool same_ok);
/* Decides whether and how an iteration (no casts) is tiled for loop. */
void ct__tile_plan(const ct_iter *it, ct_loop_fn loop, ct_tile_plan *tp);
/* Runs elements [begin, end) (linear index, dim 0 fastest) of a tiled iteration. */
void ct__tile_range(const ct_iter *it, const ct_tile_plan *tp, int64_t begin, int64_t end, ct_loop_fn loop,
                    const void *ctx);

#endif
