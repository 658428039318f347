/* torch's aten::index (TensorAdvancedIndexing.cpp, IndexKernel.cpp of 1.13): masks expanded into their
   nonzero coordinates, index tensors broadcast together, the indexed dims moved to the front when they are
   not adjacent, then one pass of the iteration engine over the source restrided as torch's AdvancedIndex
   restrides it (the indexed dims replaced by the index shape, stride 0) and the index tensors reshaped to
   it. So the result's shape and layout are TensorIterator's, as in torch. Index values are checked before
   anything is written (torch checks them inside its kernel, in element order: the first bad value in that
   order is the one named here too). */
#include "core/op.h"
#include "iter/iter.h"
#include "ops/create_internal.h"
#include "ops/index/index_internal.h"
#include "ops/view_internal.h"

/* Index tensors the engine takes beside the output and the source; more are summed into one offset tensor
   first (torch's kernel reads any number). */
#define DIRECT_INDICES (CT_ITER_MAX_OPERANDS - 2)
/* The most dims an advanced index handles (its scratch lives on the stack); more is refused. */
#define CT_MAX_DIMS 64

/* ---- nonzero ---- */

ct_tensor *ct__nonzero_impl(const ct_tensor *t) {
  if (t->device_type == CT_META) {
    ct__error_no_meta_kernel("aten::nonzero");
    return NULL;
  }
  if (!ct__check_in_storage(t)) return NULL;
  int64_t nd = t->ndim, numel = t->numel;
  size_t isz = ct__itemsize((ct_dtype)t->dtype);
  int64_t *pos = ct__malloc((size_t)(nd > 0 ? nd : 1) * sizeof(int64_t));
  if (!pos) return NULL;
  const char *base = ct__tdata(t);
  /* two walks: count, then fill (row-major order) */
  int64_t count = 0;
  for (int pass = 0; pass < 2; pass++) {
    ct_tensor *r = NULL;
    int64_t *out = NULL;
    if (pass == 1) {
      int64_t sz[2] = {count, nd};
      ct_resolved_opts o = {CT_INT64, ct__tdevice(t), CT_CONTIGUOUS_FORMAT, false};
      r = ct__empty_with((ct_shape){sz, 2}, &o);
      if (!r) {
        ct__free(pos);
        return NULL;
      }
      out = (int64_t *)ct__tdata(r);
    }
    memset(pos, 0, (size_t)(nd > 0 ? nd : 1) * sizeof(int64_t));
    int64_t off = 0, k = 0;
    for (int64_t e = 0; e < numel; e++) {
      const unsigned char *p = (const unsigned char *)base + off * (int64_t)isz;
      bool nz = false;
      for (size_t b = 0; b < isz; b++) nz |= p[b] != 0;
      if (nz) {
        if (pass == 1)
          for (int64_t d = 0; d < nd; d++) out[k * nd + d] = pos[d];
        k++;
      }
      for (int64_t d = nd - 1; d >= 0; d--) {
        off += t->strides[d];
        if (++pos[d] < t->sizes[d]) break;
        off -= t->strides[d] * t->sizes[d];
        pos[d] = 0;
      }
    }
    if (pass == 0) {
      count = k;
    } else {
      ct__free(pos);
      return r;
    }
  }
  return NULL;
}

/* ---- the gather loop ---- */

typedef struct gather_ctx {
  int n;
  int64_t size[DIRECT_INDICES];   /* 0: the operand holds byte offsets (the summed extra indices) */
  int64_t stride[DIRECT_INDICES]; /* bytes */
} gather_ctx;

static inline int64_t gather_offset(char **d, const int64_t *s, int64_t i, const gather_ctx *c) {
  int64_t off = 0;
  for (int k = 0; k < c->n; k++) {
    int64_t v = *(const int64_t *)(d[2 + k] + i * s[2 + k]);
    if (v < 0) v += c->size[k];
    off += v * c->stride[k];
  }
  return off;
}

typedef struct b16 {
  uint64_t w[2];
} b16;
#define GATHER(T)                                                                          \
  static void gather_##T(char **d, const int64_t *s, int64_t n, const void *v) {          \
    const gather_ctx *c = v;                                                               \
    for (int64_t i = 0; i < n; i++) {                                                      \
      int64_t off = gather_offset(d, s, i, c);                                             \
      memcpy(d[0] + i * s[0], d[1] + i * s[1] + off, sizeof(T));                           \
    }                                                                                      \
  }                                                                                        \
  CT_LOOP_PLAIN(gather_##T)
GATHER(uint8_t)
GATHER(uint16_t)
GATHER(uint32_t)
GATHER(uint64_t)
GATHER(b16)

static const ct_loop *gather_loop(size_t itemsize) {
  switch (itemsize) {
    case 1: return CT_LOOP_REF(gather_uint8_t);
    case 2: return CT_LOOP_REF(gather_uint16_t);
    case 4: return CT_LOOP_REF(gather_uint32_t);
    case 8: return CT_LOOP_REF(gather_uint64_t);
    default: return CT_LOOP_REF(gather_b16);
  }
}

/* ---- make_info ---- */

typedef struct idx_list {
  ct_tensor **t; /* [cap], owned; NULL: the dim is not indexed */
  int64_t n, cap;
} idx_list;

static void list_free(idx_list *l) {
  for (int64_t i = 0; i < l->n; i++) ct_release(l->t[i]);
  ct__free(l->t);
}

static bool push(idx_list *l, ct_tensor *t) {
  if (l->n >= l->cap) {
    ct_release(t);
    ct__error(CT_ERR_INDEX, "too many indices");
    return false;
  }
  l->t[l->n++] = t;
  return true;
}

/* expandTensors: a uint8/bool mask becomes the columns of its nonzero(), after torch's shape check. */
static bool expand_masks(const ct_tensor *self, const ct_tensor *const *in, int64_t n, idx_list *l) {
  for (int64_t i = 0; i < n; i++) {
    const ct_tensor *x = in[i];
    if (!x) {
      if (!push(l, NULL)) return false;
      continue;
    }
    if (x->dtype != CT_BOOL && x->dtype != CT_UINT8) {
      if (!push(l, ct__alias(x))) return false;
      continue;
    }
    int64_t src = l->n;
    for (int64_t j = 0; j < x->ndim; j++) {
      if (src + j >= self->ndim) {
        ct__wrap_dim(src + j, self->ndim);
        return false;
      }
      if (x->sizes[j] != self->sizes[src + j]) {
        char a[1024], b[1024];
        ct__fmt_int_list(a, sizeof a, x->ndim, x->sizes);
        ct__fmt_int_list(b, sizeof b, self->ndim, self->sizes);
        ct__error(CT_ERR_INDEX,
                  "The shape of the mask %s at index %lld does not match the shape of the indexed tensor %s at "
                  "index %lld",
                  a, (long long)j, b, (long long)(src + j));
        return false;
      }
    }
    ct_tensor *nz = ct__nonzero_impl(x);
    if (!nz) return false;
    for (int64_t j = 0; j < x->ndim; j++) {
      ct_tensor *col = ct__select(nz, 1, j);
      if (!col || !push(l, col)) {
        ct_release(nz);
        return false;
      }
    }
    ct_release(nz);
  }
  return true;
}

/* expand_outplace: every defined index broadcast to one shape (into shape, *nd dims). */
static bool broadcast_all(idx_list *l, int64_t *shape, int64_t *nd) {
  *nd = -1;
  for (int64_t i = 0; i < l->n; i++) {
    ct_tensor *x = l->t[i];
    if (!x) continue;
    if (*nd < 0) {
      *nd = x->ndim;
      memcpy(shape, x->sizes, (size_t)x->ndim * sizeof(int64_t));
      continue;
    }
    int64_t out[CT_MAX_DIMS];
    int64_t on = x->ndim > *nd ? x->ndim : *nd;
    if (on > CT_MAX_DIMS || ct__broadcast_shapes(shape, *nd, x->sizes, x->ndim, out) != CT_OK) {
      char msg[4096];
      size_t k = 0;
      for (int64_t j = 0; j < l->n && k < sizeof msg - 64; j++) {
        if (!l->t[j]) continue;
        if (k) k += (size_t)snprintf(msg + k, sizeof msg - k, ", ");
        k += (size_t)ct__fmt_int_list(msg + k, sizeof msg - k, l->t[j]->ndim, l->t[j]->sizes);
      }
      ct__error(CT_ERR_INDEX, "shape mismatch: indexing tensors could not be broadcast together with shapes %s", msg);
      return false;
    }
    memcpy(shape, out, (size_t)on * sizeof(int64_t));
    *nd = on;
  }
  for (int64_t i = 0; i < l->n; i++) {
    ct_tensor *x = l->t[i];
    if (!x || (x->ndim == *nd && !memcmp(x->sizes, shape, (size_t)*nd * sizeof(int64_t)))) continue;
    int64_t st[CT_MAX_DIMS];
    for (int64_t d = 0; d < *nd; d++) {
      int64_t sd = d - (*nd - x->ndim);
      st[d] = sd < 0 || x->sizes[sd] == 1 ? 0 : x->strides[sd];
    }
    ct_tensor *e = ct__view_geom(x, *nd, shape, st, x->offset);
    if (!e) return false;
    ct_release(x);
    l->t[i] = e;
  }
  return true;
}

/* The bounds check of torch's kernel, before anything is written: each position of the broadcast index
   shape in row-major order, each index in turn; negative values count from the end. */
static bool check_bounds(const idx_list *l, const int64_t *sizes, int64_t nd, const int64_t *shape) {
  int64_t numel = 1;
  for (int64_t d = 0; d < nd; d++) numel *= shape[d];
  if (numel == 0) return true;
  int64_t pos[CT_MAX_DIMS] = {0};
  for (int64_t e = 0; e < numel; e++) {
    for (int64_t k = 0, j = 0; k < l->n; k++) {
      const ct_tensor *x = l->t[k];
      if (!x) continue;
      int64_t off = x->offset;
      for (int64_t d = 0; d < nd; d++) off += pos[d] * x->strides[d];
      int64_t v = ((const int64_t *)x->storage->data)[off], size = sizes[k];
      if (v < -size || v >= size) {
        ct__error(CT_ERR_INDEX, "index %lld is out of bounds for dimension %lld with size %lld", (long long)v,
                  (long long)j, (long long)size);
        return false;
      }
      j++;
    }
    for (int64_t d = nd - 1; d >= 0; d--) {
      if (++pos[d] < shape[d]) break;
      pos[d] = 0;
    }
  }
  return true;
}

ct_tensor *ct__index_tensors_impl(const ct_tensor *self_in, const ct_tensor *const *indices, int64_t n) {
  if (n > self_in->ndim)
    return CT_ERR_NULL(CT_ERR_INDEX, "too many indices for tensor of dimension %lld (got %lld)",
                       (long long)self_in->ndim, (long long)n);
  for (int64_t i = 0; i < n; i++) {
    const ct_tensor *x = indices[i];
    if (x && x->dtype != CT_INT64 && x->dtype != CT_UINT8 && x->dtype != CT_BOOL)
      return CT_ERR_NULL(CT_ERR_INDEX, "tensors used as indices must be long, byte or bool tensors");
  }
  for (int64_t i = 0; i < n; i++)
    if (indices[i] && indices[i]->device_type == CT_META && self_in->device_type != CT_META)
      return CT_ERR_NULL(CT_ERR_NOT_IMPLEMENTED, "Cannot copy out of meta tensor; no data!");
  if (self_in->ndim > CT_MAX_DIMS)
    return CT_ERR_NULL(CT_ERR_NOT_IMPLEMENTED, "advanced indexing supports tensors of up to %d dims", CT_MAX_DIMS);
  ct_tensor *self = ct__resolve_bits(self_in);
  if (!self) return NULL;
  idx_list l = {NULL, 0, self->ndim};
  ct_tensor *result = NULL, *src = NULL, *comb = NULL;
  ct_tensor *ops[DIRECT_INDICES] = {NULL};
  int n_ops = 0;
  l.t = ct__malloc((size_t)(l.cap > 0 ? l.cap : 1) * sizeof *l.t);
  if (!l.t) goto done;
  int64_t bshape[CT_MAX_DIMS], bnd;
  if (!expand_masks(self, indices, n, &l) || !broadcast_all(&l, bshape, &bnd)) goto done;
  while (l.n < self->ndim) l.t[l.n++] = NULL;
  /* hasContiguousSubspace, else transposeToFront */
  int64_t first = -1, last = -1, count = 0;
  for (int64_t i = 0; i < l.n; i++)
    if (l.t[i]) {
      if (first < 0) first = i;
      last = i;
      count++;
    }
  if (last - first + 1 != count) {
    int64_t order[CT_MAX_DIMS];
    ct_tensor *moved[CT_MAX_DIMS];
    int64_t k = 0;
    for (int64_t i = 0; i < l.n; i++)
      if (l.t[i]) moved[k] = l.t[i], order[k++] = i;
    for (int64_t i = 0; i < l.n; i++)
      if (!l.t[i]) moved[k] = NULL, order[k++] = i;
    ct_tensor *p = ct__permute_unchecked(self, order);
    if (!p) goto done;
    ct_release(self);
    self = p;
    memcpy(l.t, moved, (size_t)l.n * sizeof *l.t);
    first = 0;
    last = count - 1;
  }
  /* AdvancedIndex */
  int64_t before = first, after = self->ndim - last - 1;
  int64_t isizes[CT_MAX_DIMS], istrides[CT_MAX_DIMS];
  size_t isz = ct__itemsize((ct_dtype)self->dtype);
  bool zero_indexed = false, zero_repl = false;
  for (int64_t i = first; i <= last; i++) {
    isizes[i - first] = self->sizes[i];
    istrides[i - first] = self->strides[i] * (int64_t)isz;
    zero_indexed |= self->sizes[i] == 0;
  }
  for (int64_t d = 0; d < bnd; d++) zero_repl |= bshape[d] == 0;
  if (zero_indexed && !zero_repl) {
    ct__error(CT_ERR_INDEX, "index is out of bounds for dimension with size 0");
    goto done;
  }
  int64_t rnd = before + bnd + after;
  if (rnd > CT_MAX_DIMS) {
    ct__error(CT_ERR_INDEX, "too many dimensions after indexing");
    goto done;
  }
  int64_t rs[CT_MAX_DIMS], rst[CT_MAX_DIMS];
  for (int64_t d = 0; d < before; d++) rs[d] = self->sizes[d], rst[d] = self->strides[d];
  for (int64_t d = 0; d < bnd; d++) rs[before + d] = bshape[d], rst[before + d] = 0;
  for (int64_t d = 0; d < after; d++)
    rs[before + bnd + d] = self->sizes[last + 1 + d], rst[before + bnd + d] = self->strides[last + 1 + d];
  src = ct__view_geom(self, rnd, rs, rst, self->offset);
  if (!src) goto done;
  bool is_meta = self->device_type == CT_META;
  /* torch's kernel checks values as it reads them, so an empty result checks none */
  int64_t rnumel = 1;
  for (int64_t d = 0; d < rnd; d++) rnumel *= rs[d];
  if (!is_meta && rnumel != 0 && !check_bounds(&l, self->sizes, bnd, bshape)) goto done;
  /* index operands reshaped to (1 x before, shape, 1 x after) */
  gather_ctx ctx = {0};
  int64_t ishape[CT_MAX_DIMS];
  for (int64_t d = 0; d < rnd; d++) ishape[d] = (d >= before && d < before + bnd) ? rs[d] : 1;
  int64_t k = 0;
  for (int64_t i = first; i <= last; i++, k++) {
    ct_tensor *r = ct__reshape(l.t[i], (ct_shape){ishape, rnd});
    if (!r) goto done;
    if (count > DIRECT_INDICES && k >= DIRECT_INDICES - 1) {
      ct_release(r); /* summed below */
      continue;
    }
    ops[n_ops] = r;
    ctx.size[n_ops] = isizes[k];
    ctx.stride[n_ops] = istrides[k];
    n_ops++;
  }
  if (count > DIRECT_INDICES) {
    /* the extra indices as one tensor of byte offsets (contiguous, the broadcast shape) */
    ct_resolved_opts o = {CT_INT64, ct__tdevice(self), CT_CONTIGUOUS_FORMAT, false};
    comb = ct__empty_with((ct_shape){ishape, rnd}, &o);
    if (!comb) goto done;
    int64_t numel = comb->numel, *cd = (int64_t *)ct__tdata(comb);
    for (int64_t e = 0; e < numel && !is_meta; e++) {
      int64_t rem = e, off = 0;
      int64_t pos[CT_MAX_DIMS];
      for (int64_t d = bnd - 1; d >= 0; d--) pos[d] = rem % bshape[d], rem /= bshape[d];
      for (int64_t kk = DIRECT_INDICES - 1; kk < count; kk++) {
        const ct_tensor *x = l.t[first + kk];
        int64_t xo = x->offset;
        for (int64_t d = 0; d < bnd; d++) xo += pos[d] * x->strides[d];
        int64_t v = ((const int64_t *)x->storage->data)[xo];
        if (v < 0) v += isizes[kk];
        off += v * istrides[kk];
      }
      cd[e] = off;
    }
    ops[n_ops] = comb;
    comb = NULL;
    ctx.size[n_ops] = 0;
    ctx.stride[n_ops] = 1;
    n_ops++;
  }
  ctx.n = n_ops;
  ct_iter_config cfg = ct__iter_config_zero;
  cfg.n_out = 1;
  cfg.n_in = 1 + n_ops;
  cfg.in[0] = src;
  cfg.in_dtype[0] = (ct_dtype)self->dtype;
  for (int i = 0; i < n_ops; i++) cfg.in[1 + i] = ops[i], cfg.in_dtype[1 + i] = CT_INT64;
  cfg.compute_dtype = (ct_dtype)self->dtype;
  cfg.static_out_dtype = (ct_dtype)self->dtype;
  cfg.loop_out_dtype = (ct_dtype)self->dtype;
  ct_iter it;
  if (ct__iter_build(&it, &cfg) != CT_OK) goto done;
  ct__iter_run(&it, gather_loop(isz), &ctx);
  result = ct__iter_take_output(&it, 0);
  ct__iter_finish(&it);
done:
  for (int i = 0; i < n_ops; i++) ct_release(ops[i]);
  ct_release(comb);
  ct_release(src);
  if (l.t) list_free(&l);
  ct_release(self);
  return result;
}
