/* TensorIterator's element order for random ops (see walk.h). */
#include "random/walk.h"

#include "core/layout_rules.h"

static bool same_strides(const ct_tensor *a, const ct_tensor *b) {
  for (int64_t d = 0; d < a->ndim; d++)
    if (a->strides[d] != b->strides[d]) return false;
  return true;
}

typedef struct geometry {
  int64_t nd, nops;
  int64_t *shape;
  int64_t *stride[2]; /* bytes */
} geometry;

/* Applies TensorIterator's dim order: afterwards dim 0 is the fastest moving. */
static void reorder(geometry *g, int64_t *perm, int64_t *tmp) {
  int64_t nd = g->nd;
  ct__reorder_dims(g->stride, (int)g->nops, g->shape, nd, perm);
  for (int64_t i = 0; i < nd; i++) tmp[i] = g->shape[perm[i]];
  memcpy(g->shape, tmp, (size_t)nd * sizeof(int64_t));
  for (int64_t k = 0; k < g->nops; k++) {
    for (int64_t i = 0; i < nd; i++) tmp[i] = g->stride[k][perm[i]];
    memcpy(g->stride[k], tmp, (size_t)nd * sizeof(int64_t));
  }
}

static void run_all(const geometry *g, char **base, ct_walk_fn fn, void *ctx, int64_t *idx) {
  int64_t nd = g->nd;
  int64_t inner = nd ? g->shape[0] : 1;
  int64_t inner_stride[2] = {nd ? g->stride[0][0] : 0, nd > 0 && g->nops > 1 ? g->stride[1][0] : 0};
  for (int64_t d = 0; d < nd; d++) idx[d] = 0;
  for (;;) {
    char *ptr[2] = {base[0], g->nops > 1 ? base[1] : NULL};
    for (int64_t d = 1; d < nd; d++)
      for (int64_t k = 0; k < g->nops; k++) ptr[k] += idx[d] * g->stride[k][d];
    fn(ctx, ptr, inner_stride, inner);
    int64_t d = 1;
    for (; d < nd; d++) {
      if (++idx[d] < g->shape[d]) break;
      idx[d] = 0;
    }
    if (d >= nd) return;
  }
}

void ct__walk(const ct_tensor *out, const ct_tensor *in, ct_walk_fn fn, void *ctx) {
  if (out->numel == 0) return;
  int64_t nops = in ? 2 : 1;
  const ct_tensor *ops[2] = {out, in};
  char *base[2] = {ct__tdata(out), in ? ct__tdata(in) : NULL};
  int64_t isz[2] = {(int64_t)ct__itemsize((ct_dtype)out->dtype), in ? (int64_t)ct__itemsize((ct_dtype)in->dtype) : 0};

  /* compute_fast_setup_type: every operand contiguous, or every one dense with the same strides,
     makes the whole op one run in memory order. */
  bool contiguous = true, dense = true;
  for (int64_t k = 0; k < nops; k++) {
    contiguous = contiguous && ct_is_contiguous(ops[k], CT_CONTIGUOUS_FORMAT);
    dense = dense && ct__is_non_overlapping_and_dense(ops[k]);
  }
  if (in && dense && !contiguous) dense = same_strides(out, in);
  if (contiguous || dense) {
    int64_t stride[2] = {isz[0], isz[1]};
    fn(ctx, base, stride, out->numel);
    return;
  }

  /* Only dims of size > 1 move the index (at most 63 of them); dropping the size-1 ones leaves the
     sort's order of the others unchanged. */
  int64_t shape[64] = {0}, s0[64] = {0}, s1[64] = {0}, perm[64], tmp[64];
  geometry g = {0, nops, shape, {s0, s1}};
  for (int64_t d = 0; d < out->ndim; d++) {
    if (out->sizes[d] == 1) continue;
    shape[g.nd] = out->sizes[d];
    for (int64_t k = 0; k < nops; k++) g.stride[k][g.nd] = ops[k]->strides[d] * isz[k];
    g.nd++;
  }
  reorder(&g, perm, tmp);
  g.nd = ct__coalesce_dims(g.nd, g.shape, g.stride, (int)g.nops);
  run_all(&g, base, fn, ctx, perm);
}
