/* TensorIterator's element order for random ops (see walk.h). */
#include "random/walk.h"

bool ct__non_overlapping_and_dense(const ct_tensor *t) {
  int64_t nd = t->ndim;
  if (nd == 0) return true;
  if (nd == 1) return t->sizes[0] < 2 || t->strides[0] == 1;
  /* The dims of size >= 2 (at most 63 of them, each at least doubles numel) sorted by stride must
     step through memory densely; dims of size 0 make the tensor trivially dense. */
  int64_t sz[64], st[64];
  int n = 0;
  for (int64_t d = 0; d < nd; d++) {
    if (t->sizes[d] == 0) return true;
    if (t->sizes[d] < 2) continue;
    int j = n++;
    for (; j > 0 && st[j - 1] > t->strides[d]; j--) {
      st[j] = st[j - 1];
      sz[j] = sz[j - 1];
    }
    st[j] = t->strides[d];
    sz[j] = t->sizes[d];
  }
  int64_t require = 1;
  for (int i = 0; i < n; i++) {
    if (st[i] != require) return false;
    require *= sz[i];
  }
  return true;
}

bool ct__check_no_internal_overlap(const ct_tensor *t) {
  if (ct__non_overlapping_and_dense(t)) return true;
  for (int64_t d = 0; d < t->ndim; d++)
    if (t->sizes[d] > 1 && t->strides[d] == 0) {
      ct__error(CT_ERR_RUNTIME,
                "unsupported operation: more than one element of the written-to tensor refers to a single memory "
                "location. Please clone() the tensor before performing the operation.");
      return false;
    }
  return true;
}

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

/* TensorIteratorBase::reorder_dimensions's comparison: 1 if dim0 must come after dim1, -1 if before,
   0 if no operand decides. */
static int should_swap(int64_t nops, const int64_t *shape, const int64_t *const *stride, int64_t dim0,
                       int64_t dim1) {
  for (int64_t k = 0; k < nops; k++) {
    int64_t s0 = stride[k][dim0], s1 = stride[k][dim1];
    if (s0 == 0 || s1 == 0) continue;
    if (s0 < s1) return -1;
    if (s0 > s1) return 1;
    if (shape[dim0] > shape[dim1]) return 1;
  }
  return 0;
}

void ct__iter_perm(int64_t nd, int64_t nops, const int64_t *shape, const int64_t *const *stride, int64_t *perm) {
  for (int64_t i = 0; i < nd; i++) perm[i] = nd - 1 - i;
  for (int64_t i = 1; i < nd; i++) {
    int64_t dim1 = i;
    for (int64_t dim0 = i - 1; dim0 >= 0; dim0--) {
      int c = should_swap(nops, shape, stride, perm[dim0], perm[dim1]);
      if (c > 0) {
        int64_t s = perm[dim0];
        perm[dim0] = perm[dim1];
        perm[dim1] = s;
        dim1 = dim0;
      } else if (c < 0) {
        break;
      }
    }
  }
}

/* Applies ct__iter_perm's order: afterwards dim 0 is the fastest moving. */
static void reorder(geometry *g, int64_t *perm, int64_t *tmp) {
  int64_t nd = g->nd;
  ct__iter_perm(nd, g->nops, g->shape, (const int64_t *const *)g->stride, perm);
  for (int64_t i = 0; i < nd; i++) tmp[i] = g->shape[perm[i]];
  memcpy(g->shape, tmp, (size_t)nd * sizeof(int64_t));
  for (int64_t k = 0; k < g->nops; k++) {
    for (int64_t i = 0; i < nd; i++) tmp[i] = g->stride[k][perm[i]];
    memcpy(g->stride[k], tmp, (size_t)nd * sizeof(int64_t));
  }
}

/* Merges neighbouring dims that step through memory as one (never changes the visiting order). */
static void coalesce(geometry *g) {
  if (g->nd <= 1) return;
  int64_t prev = 0;
  for (int64_t d = 1; d < g->nd; d++) {
    bool ok = g->shape[prev] == 1 || g->shape[d] == 1;
    if (!ok) {
      ok = true;
      for (int64_t k = 0; k < g->nops; k++)
        if (g->shape[prev] * g->stride[k][prev] != g->stride[k][d]) ok = false;
    }
    if (ok) {
      if (g->shape[prev] == 1)
        for (int64_t k = 0; k < g->nops; k++) g->stride[k][prev] = g->stride[k][d];
      g->shape[prev] *= g->shape[d];
    } else {
      prev++;
      if (prev != d) {
        g->shape[prev] = g->shape[d];
        for (int64_t k = 0; k < g->nops; k++) g->stride[k][prev] = g->stride[k][d];
      }
    }
  }
  g->nd = prev + 1;
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
    dense = dense && ct__non_overlapping_and_dense(ops[k]);
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
  coalesce(&g);
  run_all(&g, base, fn, ctx, perm);
}
