/* torch's aten::index (TensorAdvancedIndexing.cpp, IndexKernel.cpp of 1.13): masks expanded into their
   nonzero coordinates, index tensors broadcast together, the indexed dims moved to the front when they are
   not adjacent, then one pass of the iteration engine over the source restrided as torch's AdvancedIndex
   restrides it (the indexed dims replaced by the index shape, stride 0) and the index tensors reshaped to
   it. So the result's shape and layout are TensorIterator's, as in torch. Index values are checked before
   anything is written (torch checks them inside its kernel, in element order: the first bad value in that
   order is the one named here too). */
#include <stddef.h>

#include "core/layout_rules.h"
#include "core/op.h"
#include "iter/iter.h"
#include "kernels/cpu/dtypes.h"
#include "ops/create_internal.h"
#include "ops/index/index_internal.h"
#include "ops/index/index_ops.h"
#include "ops/view_internal.h"

/* Index tensors the engine takes beside the output and the source; more are summed into one offset tensor
   first (torch's kernel reads any number). */
#define DIRECT_INDICES (CT_ITER_MAX_OPERANDS - 2)
/* The most dims an advanced index handles (its scratch lives on the stack); more is refused. */
#define CT_MAX_DIMS 64

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

/* expandTensors' and canDispatchToMaskedFill's check of a mask covering self's dims from src on: torch's
   dim error past the last dim, its mask-shape message otherwise. */
static bool mask_fits(const ct_tensor *self, const ct_tensor *x, int64_t src) {
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
      if (!push(l, ct__alias_impl(x))) return false;
      continue;
    }
    if (!mask_fits(self, x, l->n)) return false;
    ct_tensor *nz = ct__nonzero_impl(x);
    if (!nz) return false;
    for (int64_t j = 0; j < x->ndim; j++) {
      ct_tensor *col = ct__select_impl(nz, 1, j);
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

/* make_info + AdvancedIndex: the source (resolved of math bits, permuted when the indices are not adjacent),
   the index tensors expanded and broadcast, the restrided source, and the index operands for the engine
   (reshaped to it; beyond DIRECT_INDICES - 1 of them, summed into one byte-offset tensor). */
typedef struct adv_info {
  ct_tensor *self, *src;
  idx_list l;
  int64_t first, last, count, before, bnd, after, rnd;
  int64_t bshape[CT_MAX_DIMS], isizes[CT_MAX_DIMS], istrides[CT_MAX_DIMS], rs[CT_MAX_DIMS], rst[CT_MAX_DIMS];
  ct_tensor *ops[DIRECT_INDICES];
  int n_ops;
  gather_ctx ctx;
} adv_info;

static void info_free(adv_info *a) {
  for (int i = 0; i < a->n_ops; i++) ct_release(a->ops[i]);
  ct_release(a->src);
  if (a->l.t) list_free(&a->l);
  ct_release(a->self);
}

static bool make_info(const ct_tensor *self_in, const ct_tensor *const *indices, int64_t n, adv_info *a) {
  memset(a, 0, offsetof(adv_info, bshape));
  a->n_ops = 0;
  if (n > self_in->ndim) {
    ct__error(CT_ERR_INDEX, "too many indices for tensor of dimension %lld (got %lld)", (long long)self_in->ndim,
              (long long)n);
    return false;
  }
  for (int64_t i = 0; i < n; i++) {
    const ct_tensor *x = indices[i];
    if (x && x->dtype != CT_INT64 && x->dtype != CT_UINT8 && x->dtype != CT_BOOL) {
      ct__error(CT_ERR_INDEX, "tensors used as indices must be long, byte or bool tensors");
      return false;
    }
  }
  for (int64_t i = 0; i < n; i++)
    if (indices[i] && indices[i]->device_type == CT_META && self_in->device_type != CT_META) {
      ct__error(CT_ERR_NOT_IMPLEMENTED, "Cannot copy out of meta tensor; no data!");
      return false;
    }
  if (self_in->ndim > CT_MAX_DIMS) {
    ct__error(CT_ERR_NOT_IMPLEMENTED, "advanced indexing supports tensors of up to %d dims", CT_MAX_DIMS);
    return false;
  }
  a->self = ct__alias_impl(self_in);
  if (!a->self) return false;
  a->l.cap = self_in->ndim;
  a->l.t = ct__malloc((size_t)(a->l.cap > 0 ? a->l.cap : 1) * sizeof *a->l.t);
  if (!a->l.t) return false;
  if (!expand_masks(a->self, indices, n, &a->l) || !broadcast_all(&a->l, a->bshape, &a->bnd)) return false;
  idx_list *l = &a->l;
  while (l->n < a->self->ndim) l->t[l->n++] = NULL;
  /* hasContiguousSubspace, else transposeToFront */
  int64_t first = -1, last = -1, count = 0;
  for (int64_t i = 0; i < l->n; i++)
    if (l->t[i]) {
      if (first < 0) first = i;
      last = i;
      count++;
    }
  if (last - first + 1 != count) {
    int64_t order[CT_MAX_DIMS];
    ct_tensor *moved[CT_MAX_DIMS];
    int64_t k = 0;
    for (int64_t i = 0; i < l->n; i++)
      if (l->t[i]) moved[k] = l->t[i], order[k++] = i;
    for (int64_t i = 0; i < l->n; i++)
      if (!l->t[i]) moved[k] = NULL, order[k++] = i;
    ct_tensor *p = ct__permute_unchecked(a->self, order);
    if (!p) return false;
    ct_release(a->self);
    a->self = p;
    memcpy(l->t, moved, (size_t)l->n * sizeof *l->t);
    first = 0;
    last = count - 1;
  }
  const ct_tensor *self = a->self;
  a->first = first, a->last = last, a->count = count;
  a->before = first, a->after = self->ndim - last - 1;
  size_t isz = ct__itemsize((ct_dtype)self->dtype);
  bool zero_indexed = false, zero_repl = false;
  for (int64_t i = first; i <= last; i++) {
    a->isizes[i - first] = self->sizes[i];
    a->istrides[i - first] = self->strides[i] * (int64_t)isz;
    zero_indexed |= self->sizes[i] == 0;
  }
  for (int64_t d = 0; d < a->bnd; d++) zero_repl |= a->bshape[d] == 0;
  if (zero_indexed && !zero_repl) {
    ct__error(CT_ERR_INDEX, "index is out of bounds for dimension with size 0");
    return false;
  }
  a->rnd = a->before + a->bnd + a->after;
  if (a->rnd > CT_MAX_DIMS) {
    ct__error(CT_ERR_NOT_IMPLEMENTED, "advanced indexing supports results of up to %d dims", CT_MAX_DIMS);
    return false;
  }
  int64_t *rs = a->rs, *rst = a->rst, before = a->before, bnd = a->bnd;
  for (int64_t d = 0; d < before; d++) rs[d] = self->sizes[d], rst[d] = self->strides[d];
  for (int64_t d = 0; d < bnd; d++) rs[before + d] = a->bshape[d], rst[before + d] = 0;
  for (int64_t d = 0; d < a->after; d++)
    rs[before + bnd + d] = self->sizes[last + 1 + d], rst[before + bnd + d] = self->strides[last + 1 + d];
  a->src = ct__view_geom(self, a->rnd, rs, rst, self->offset);
  return a->src != NULL;
}

/* The index values checked (torch's kernel checks them as it reads them, so an empty iteration checks
   none), then the engine's index operands. */
static bool index_operands(adv_info *a) {
  int64_t rnumel = 1;
  for (int64_t d = 0; d < a->rnd; d++) rnumel *= a->rs[d];
  bool is_meta = a->self->device_type == CT_META;
  if (!is_meta && rnumel != 0 && !check_bounds(&a->l, a->self->sizes, a->bnd, a->bshape)) return false;
  int64_t ishape[CT_MAX_DIMS];
  for (int64_t d = 0; d < a->rnd; d++) ishape[d] = (d >= a->before && d < a->before + a->bnd) ? a->rs[d] : 1;
  int64_t k = 0;
  for (int64_t i = a->first; i <= a->last; i++, k++) {
    if (a->count > DIRECT_INDICES && k >= DIRECT_INDICES - 1) continue; /* summed below */
    ct_tensor *r = ct__reshape_impl(a->l.t[i], (ct_shape){ishape, a->rnd});
    if (!r) return false;
    a->ops[a->n_ops] = r;
    a->ctx.size[a->n_ops] = a->isizes[k];
    a->ctx.stride[a->n_ops] = a->istrides[k];
    a->n_ops++;
  }
  if (a->count > DIRECT_INDICES) {
    ct_resolved_opts o = {CT_INT64, ct__tdevice(a->self), CT_CONTIGUOUS_FORMAT, false};
    ct_tensor *comb = ct__empty_with((ct_shape){ishape, a->rnd}, &o);
    if (!comb) return false;
    int64_t numel = comb->numel, *cd = is_meta ? NULL : (int64_t *)ct__tdata(comb);
    for (int64_t e = 0; cd && e < numel; e++) {
      int64_t rem = e, off = 0, pos[CT_MAX_DIMS];
      for (int64_t d = a->bnd - 1; d >= 0; d--) pos[d] = rem % a->bshape[d], rem /= a->bshape[d];
      for (int64_t kk = DIRECT_INDICES - 1; kk < a->count; kk++) {
        const ct_tensor *x = a->l.t[a->first + kk];
        int64_t xo = x->offset;
        for (int64_t d = 0; d < a->bnd; d++) xo += pos[d] * x->strides[d];
        int64_t v = ((const int64_t *)x->storage->data)[xo];
        if (v < 0) v += a->isizes[kk];
        off += v * a->istrides[kk];
      }
      cd[e] = off;
    }
    a->ops[a->n_ops] = comb;
    a->ctx.size[a->n_ops] = 0;
    a->ctx.stride[a->n_ops] = 1;
    a->n_ops++;
  }
  a->ctx.n = a->n_ops;
  return true;
}

/* ---- the row path (index_rows.c) ---- */

/* Whether x[idx] / x[idx] = v is one index vector on dim 0 of a CPU tensor whose rows (dims 1 on) are
   contiguous, with no dim of size 0 or 1 in a row (TensorIterator's output is then contiguous: its dim
   order ties where a size-1 dim's stride equals its neighbour's); *row gets the bytes per row. */
static bool rows_path(const adv_info *a, int64_t *row) {
  const ct_tensor *t = a->self;
  if (t->device_type != CT_CPU || a->count != 1 || a->first != 0 || a->bnd != 1 || t->ndim < 1) return false;
  int64_t elems = 1;
  for (int64_t d = t->ndim - 1; d >= 1; d--) {
    if (t->sizes[d] <= 1 || t->strides[d] != elems) return false;
    elems *= t->sizes[d];
  }
  if (t->sizes[0] > 1 && t->strides[0] < elems) return false; /* rows that overlap: the engine's walk */
  *row = elems * (int64_t)ct__itemsize((ct_dtype)t->dtype);
  return true;
}

/* The row path's job over index vector x (1-D int64) of a->self's rows. */
static ct_idx_rows rows_job(const adv_info *a, int64_t row) {
  const ct_tensor *x = a->l.t[0];
  int64_t isz = (int64_t)ct__itemsize((ct_dtype)a->self->dtype);
  return (ct_idx_rows){.idx = (const int64_t *)x->storage->data + x->offset, .idx_s = x->strides[0],
                       .n = x->sizes[0], .size = a->self->sizes[0], .row = row,
                       .src_s = a->self->strides[0] * isz, .dst_s = a->self->strides[0] * isz};
}

/* x[idx] by rows: a contiguous result of the indexed shape, or NULL with torch's bounds error. */
static ct_tensor *rows_get(const adv_info *a, int64_t row) {
  ct_resolved_opts o = {(ct_dtype)a->self->dtype, ct__tdevice(a->self), CT_CONTIGUOUS_FORMAT, false};
  ct_tensor *r = ct__empty_with((ct_shape){a->rs, a->rnd}, &o);
  if (!r || r->numel == 0) return r;
  ct_idx_rows j = rows_job(a, row);
  j.dst = ct__tdata(r), j.src = ct__tdata(a->self), j.dst_s = row;
  if (ct__idx_rows_copy(&j)) return r;
  ct_release(r);
  check_bounds(&a->l, a->self->sizes, a->bnd, a->bshape); /* the first bad value, named as torch names it */
  return NULL;
}

/* aten::index's kernel rows: the gather loop on the CPU, shape only on the meta device. */
static const char index_row[1];
static const ct_op index_tensor_op = {
    .name = "index", .aten = "aten::index.Tensor", .kernels = {[CT_CPU] = index_row, [CT_META] = index_row}};

ct_tensor *ct__index_tensors_impl(const ct_tensor *self_in, const ct_tensor *const *indices, int64_t n) {
  if (!ct__op_table(&index_tensor_op, self_in, index_tensor_op.aten)) return NULL;
  ct_tensor *self = ct__resolve_bits(self_in);
  if (!self) return NULL;
  adv_info a;
  ct_tensor *result = NULL;
  int64_t row;
  bool made = make_info(self, indices, n, &a);
  if (made && rows_path(&a, &row)) {
    result = rows_get(&a, row);
  } else if (made && index_operands(&a)) {
    ct_dtype dt = (ct_dtype)self->dtype;
    ct_iter_config cfg = ct__iter_config_zero;
    cfg.n_out = 1;
    cfg.n_in = 1 + a.n_ops;
    cfg.in[0] = a.src;
    cfg.in_dtype[0] = dt;
    for (int i = 0; i < a.n_ops; i++) cfg.in[1 + i] = a.ops[i], cfg.in_dtype[1 + i] = CT_INT64;
    cfg.compute_dtype = cfg.static_out_dtype = cfg.loop_out_dtype = dt;
    ct_iter it;
    if (ct__iter_build(&it, &cfg) == CT_OK) {
      ct__iter_run(&it, gather_loop(ct__itemsize(dt)), &a.ctx);
      result = ct__iter_take_output(&it, 0);
      ct__iter_finish(&it);
    }
  }
  info_free(&a);
  ct_release(self);
  return result;
}

/* ---- index_put_ ---- */

#define SCATTER(T)                                                                         \
  static void scatter_##T(char **d, const int64_t *s, int64_t n, const void *v) {         \
    const gather_ctx *c = v;                                                               \
    for (int64_t i = 0; i < n; i++) {                                                      \
      int64_t off = gather_offset(d, s, i, c);                                             \
      memcpy(d[0] + i * s[0] + off, d[1] + i * s[1], sizeof(T));                           \
    }                                                                                      \
  }                                                                                        \
  CT_LOOP_PLAIN(scatter_##T)
SCATTER(uint8_t)
SCATTER(uint16_t)
SCATTER(uint32_t)
SCATTER(uint64_t)
SCATTER(b16)

/* accumulate=True: `*(scalar_t *)(dst + offset) += *(scalar_t *)src`, serially in iteration order (torch's
   serial_execution), one rounding per addition (reduced floats through float). */
#define ACCUMULATE_LOOP(E, T, SUM)                                                   \
  static void accumulate_##E(char **d, const int64_t *s, int64_t n, const void *v) { \
    const gather_ctx *c = v;                                                         \
    for (int64_t i = 0; i < n; i++) {                                                \
      T *a = (T *)(d[0] + i * s[0] + gather_offset(d, s, i, c));                     \
      const T *b = (const T *)(d[1] + i * s[1]);                                     \
      *a = SUM;                                                                      \
    }                                                                                \
  }                                                                                  \
  CT_LOOP_SERIAL(accumulate_##E)
#define ACCUMULATE(E, T, CT, LOAD, STORE) ACCUMULATE_LOOP(E, T, STORE((CT)(LOAD(*a) + LOAD(*b))))
/* integers wrap (computed unsigned) */
#define ACCUMULATE_INT(E, T, CT, LOAD, STORE) \
  ACCUMULATE_LOOP(E, T, (T)((uint64_t)(int64_t)*a + (uint64_t)(int64_t)*b))
CT_DT_INTEGRAL(ACCUMULATE_INT)
CT_DT_FLOATING(ACCUMULATE)
CT_DT_COMPLEX(ACCUMULATE)
ACCUMULATE_LOOP(CT_BOOL, uint8_t, (uint8_t)(CT_LDB(*a) || CT_LDB(*b))) /* bool: `||` */
#define ACCUMULATE_REF(E, ...) [E] = CT_LOOP_REF(accumulate_##E),
static const ct_loop *const accumulate_loops[CT_NUM_DTYPES + 1] = {CT_DT_ALL(ACCUMULATE_REF)};

static const ct_loop *scatter_loop(size_t itemsize) {
  switch (itemsize) {
    case 1: return CT_LOOP_REF(scatter_uint8_t);
    case 2: return CT_LOOP_REF(scatter_uint16_t);
    case 4: return CT_LOOP_REF(scatter_uint32_t);
    case 8: return CT_LOOP_REF(scatter_uint64_t);
    default: return CT_LOOP_REF(scatter_b16);
  }
}

/* canDispatchToMaskedFill: a one-element CPU value and a single uint8/bool mask among the indices (shape
   checked as torch does): the mask, unsqueezed to self's rank, or NULL (no error: not this path). */
static ct_tensor *masked_fill_mask(const ct_tensor *self, const ct_tensor *const *indices, int64_t n,
                                   const ct_tensor *value, bool *failed) {
  *failed = false;
  if (value->numel != 1 || value->device_type != CT_CPU) return NULL;
  int64_t num_ind = 0;
  const ct_tensor *mask = NULL;
  for (int64_t i = 0; i < n; i++) {
    const ct_tensor *x = indices[i];
    if (!x) {
      num_ind++;
      continue;
    }
    if ((x->dtype != CT_UINT8 && x->dtype != CT_BOOL) || x->device_type != self->device_type || mask) return NULL;
    mask = x;
    if (!mask_fits(self, x, num_ind)) {
      *failed = true;
      return NULL;
    }
    num_ind += x->ndim;
  }
  if (!mask) return NULL;
  int64_t nd = mask->ndim + (self->ndim > num_ind ? self->ndim - num_ind : 0);
  int64_t sz[CT_MAX_DIMS], st[CT_MAX_DIMS];
  if (nd > CT_MAX_DIMS) return NULL;
  for (int64_t d = 0; d < nd; d++) {
    sz[d] = d < mask->ndim ? mask->sizes[d] : 1;
    st[d] = d < mask->ndim ? mask->strides[d] : 1;
  }
  ct_tensor *m = ct__view_geom(mask, nd, sz, st, mask->offset);
  if (!m) *failed = true;
  return m;
}

/* x[idx] = v (accumulate: +=) by rows, v of x's dtype and broadcastable to the indexed shape (checked):
   true with *st the result (torch's bounds error with nothing written), false (nothing done) when v's rows
   are not contiguous. Accumulation runs serially in index order through the accumulate loop, a row per
   call: each element receives its additions in the engine's order, rounded as there. */
static bool rows_put(const adv_info *a, int64_t row, const ct_tensor *val, bool accumulate, ct_status *st) {
  ct_tensor *ve = ct__expand_impl(val, (ct_shape){a->rs, a->rnd});
  if (!ve) return (*st = ct_last_error()), true;
  if (!ct__geom_is_contiguous(ve->ndim - 1, ve->sizes + 1, ve->strides + 1)) {
    ct_release(ve);
    return false;
  }
  ct_idx_rows j = rows_job(a, row);
  int64_t isz = (int64_t)ct__itemsize((ct_dtype)ve->dtype);
  j.dst = ct__tdata(a->self), j.src = ct__tdata(ve), j.src_s = ve->strides[0] * isz, j.scatter = true;
  *st = CT_OK;
  if (ct__idx_any_outside(j.idx, j.n, j.idx_s, -j.size, j.size)) {
    check_bounds(&a->l, a->self->sizes, a->bnd, a->bshape);
    *st = ct_last_error();
  } else if (!accumulate) {
    ct__idx_rows_copy(&j);
  } else {
    ct_loop_fn add = accumulate_loops[ve->dtype]->fn;
    gather_ctx none = {0}; /* no index operands: the loop adds row to row */
    int64_t strides[2] = {isz, isz};
    for (int64_t i = 0; i < j.n; i++) {
      int64_t v = j.idx[i * j.idx_s];
      v += v < 0 ? j.size : 0;
      char *d[2] = {j.dst + v * j.dst_s, (char *)j.src + i * j.src_s};
      add(d, strides, row / isz, &none);
    }
  }
  ct_release(ve);
  return true;
}

ct_status ct__index_put_impl(ct_tensor *self, const ct_tensor *const *indices, int64_t n, const ct_tensor *value,
                             bool accumulate) {
  /* _index_put_impl_'s Meta kernel checks and writes nothing (index_put's composite: a clone of self) */
  if (self->device_type == CT_META || value->device_type == CT_META) return CT_OK;
  for (int64_t i = 0; i < n; i++)
    if (indices[i] && indices[i]->device_type == CT_META) return CT_OK;
  if (n > self->ndim) {
    ct__error(CT_ERR_INDEX, "too many indices for tensor of dimension %lld (got %lld)", (long long)self->ndim,
              (long long)n);
    return CT_ERR_INDEX;
  }
  if (!accumulate) {
    bool failed;
    ct_tensor *mask = masked_fill_mask(self, indices, n, value, &failed);
    if (failed) return ct_last_error();
    if (mask) {
      ct_scalar v;
      ct_status st = ct_item(value, &v);
      ct_resolved_opts o = {(ct_dtype)value->dtype, {CT_CPU, -1}, CT_CONTIGUOUS_FORMAT, false};
      int64_t none = 0;
      ct_tensor *vt = st == CT_OK ? ct__full_with((ct_shape){&none, 0}, v, &o) : NULL;
      st = vt ? ct_masked_fill_(self, mask, vt) : ct_last_error();
      ct_release(vt);
      ct_release(mask);
      return st;
    }
  }
  if (!ct__idx_no_overlap(self, value)) return CT_ERR_RUNTIME;
  for (int64_t i = 0; i < n; i++)
    if (indices[i] && !ct__idx_no_overlap(self, indices[i])) return CT_ERR_RUNTIME;
  /* a target with math bits is written through a resolved temporary (torch's fallback) */
  ct_tensor *target = ct__math_bits(self) ? ct__resolve_bits(self) : ct__alias_impl(self);
  ct_tensor *val = target ? ct__resolve_bits(value) : NULL;
  if (!val) {
    ct_release(target);
    return ct_last_error();
  }
  adv_info a;
  ct_status st = CT_ERR_RUNTIME;
  int64_t row;
  if (make_info(target, indices, n, &a)) {
    /* make_index_put_iterator's checks, then the bounds, before anything is written */
    int64_t shape[CT_MAX_DIMS];
    bool go = false;
    bool fits = val->ndim <= a.rnd && ct__broadcast_shapes(val->sizes, val->ndim, a.rs, a.rnd, shape) == CT_OK &&
                !memcmp(shape, a.rs, (size_t)a.rnd * sizeof(int64_t));
    if (!fits) {
      char vs[1024], rs[1024];
      ct__fmt_int_list(vs, sizeof vs, val->ndim, val->sizes);
      ct__fmt_int_list(rs, sizeof rs, a.rnd, a.rs);
      ct__error(CT_ERR_RUNTIME, "shape mismatch: value tensor of shape %s cannot be broadcast to indexing result of "
                                "shape %s", vs, rs);
    } else if (val->dtype != target->dtype) {
      ct__error(CT_ERR_RUNTIME, "Index put requires the source and destination dtypes match, got %s for the "
                                "destination and %s for the source.", ct__dt(target->dtype)->scalar_name,
                ct__dt(val->dtype)->scalar_name);
    } else if (rows_path(&a, &row) && rows_put(&a, row, val, accumulate, &st)) {
      /* done by rows */
    } else if (index_operands(&a)) {
      /* TensorIterator broadcasts the inputs to the output it may not resize: expanded views here */
      ct_shape rshape = {a.rs, a.rnd};
      ct_tensor *ve = ct__expand_impl(val, rshape);
      for (int i = 0; ve && i < a.n_ops; i++) {
        ct_tensor *e = ct__expand_impl(a.ops[i], rshape);
        if (!e) {
          ct_release(ve);
          ve = NULL;
          break;
        }
        ct_release(a.ops[i]);
        a.ops[i] = e;
      }
      ct_release(val);
      val = ve;
      go = val != NULL;
    }
    if (go) {
      ct_dtype dt = (ct_dtype)target->dtype;
      ct_iter_config cfg = ct__iter_config_zero;
      cfg.n_out = 1;
      cfg.out[0] = a.src;
      cfg.no_resize_outputs = true;
      cfg.n_in = 1 + a.n_ops;
      cfg.in[0] = val;
      cfg.in_dtype[0] = dt;
      for (int i = 0; i < a.n_ops; i++) cfg.in[1 + i] = a.ops[i], cfg.in_dtype[1 + i] = CT_INT64;
      cfg.compute_dtype = cfg.loop_out_dtype = dt;
      ct_iter it;
      if (ct__iter_build(&it, &cfg) == CT_OK) {
        ct__iter_run(&it, accumulate ? accumulate_loops[dt] : scatter_loop(ct__itemsize(dt)), &a.ctx);
        ct__iter_finish(&it);
        st = CT_OK;
      }
    }
  }
  if (st != CT_OK && ct_last_error() != CT_OK) st = ct_last_error();
  info_free(&a);
  if (st == CT_OK && target->storage != self->storage) st = ct__math_bits_write_back(self, target);
  ct_release(val);
  ct_release(target);
  return st;
}
