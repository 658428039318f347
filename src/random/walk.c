/* TensorIterator's element order for random ops (see walk.h). */
#include "random/walk.h"

#include "core/layout_rules.h"
#include "iter/iter_geom.h"

static bool same_strides(const ct_tensor *a, const ct_tensor *b) {
  for (int64_t d = 0; d < a->ndim; d++)
    if (a->strides[d] != b->strides[d]) return false;
  return true;
}

/* Row by row through the arranged geometry (strides operand-major), with the engine's cursor. */
static void run_all(const ct_geom *g, int nops, const int64_t *strides, char *const *base, int64_t numel, ct_walk_fn fn,
                    void *ctx, int64_t *idx) {
  int64_t nd = g->nd;
  int64_t inner = nd ? g->shape[0] : 1;
  int64_t inner_stride[2] = {nd ? strides[0] : 0, nd && nops > 1 ? strides[nd] : 0};
  for (int64_t d = 0; d < nd; d++) idx[d] = 0;
  for (int64_t pos = 0; pos < numel; pos += inner) {
    char *ptr[2] = {NULL, NULL};
    ct__geom_pointers(nd, nops, strides, base, idx, ptr);
    fn(ctx, ptr, inner_stride, inner);
    if (nd == 0) return;
    idx[0] += inner;
    ct__geom_carry(nd, g->shape, idx);
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

  /* the engine's geometry (iter/iter_geom.h): TensorIterator's order, coalesced. Only dims of size > 1
     move the index (at most 63 of them: the tensor is not empty); dropping the size-1 ones leaves the
     order of the others unchanged. */
  int64_t shape[64], strides[2 * 64], perm[64], tmp[64];
  int64_t nd = 0;
  for (int64_t d = 0; d < out->ndim; d++) nd += out->sizes[d] != 1;
  ct_geom g = {0, (int)nops, shape, {strides, strides + nd}};
  for (int64_t d = 0; d < out->ndim; d++) {
    if (out->sizes[d] == 1) continue;
    shape[g.nd] = out->sizes[d];
    for (int64_t k = 0; k < nops; k++) g.rows[k][g.nd] = ct__mul_wrap(ops[k]->strides[d], isz[k]);
    g.nd++;
  }
  ct__geom_arrange(&g, 0, 0, perm, tmp);
  if (nops > 1) memmove(strides + g.nd, g.rows[1], (size_t)g.nd * sizeof(int64_t)); /* operand-major rows */
  run_all(&g, (int)nops, strides, base, out->numel, fn, ctx, perm);
}
