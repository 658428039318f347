/* nonzero (and as_tuple), argwhere, where(condition): the coordinates of the nonzero elements in row-major
   order. Two passes over the same chunks of positions, run on the pool: counts per chunk, then each chunk
   writes its coordinates from the prefix sum of the counts before it, into torch's [count, ndim] result of
   strides (1, count). An element is nonzero as `x != 0`
   reads it: -0.0 is zero, NaN is not (the sign bit of each floating component is ignored). */
#include "core/cast.h"
#include "core/parallel.h"
#include "ops/create_internal.h"
#include "ops/index/index_ops.h"
#include "ops/view_internal.h"

static const char nz_row[1];
static const ct_op nonzero_op = {.name = "nonzero", .aten = "aten::nonzero", .kernels = {[CT_CPU] = nz_row}};
static const ct_op nonzero_out_op = {
    .name = "nonzero", .aten = "aten::nonzero.out", .grad = CT_OP_GRAD_NONE, .kernels = {[CT_CPU] = nz_row}};
static const ct_op nonzero_tuple_op = {.name = "nonzero_numpy", .aten = "aten::nonzero_numpy", .composite = true};
static const ct_op argwhere_op = {.name = "argwhere", .aten = "aten::argwhere", .composite = true};
static const ct_op where_op = {.name = "where", .aten = "aten::where", .composite = true};

typedef struct nz_job {
  const ct_tensor *t;
  int64_t chunk, *counts, *out;
  int64_t total; /* the result's column stride */
  unsigned comp;  /* bytes per compared component */
  uint64_t mask;  /* the component's bits that make it nonzero */
  bool fill;
} nz_job;

/* Whether the element at p is nonzero: each component's bits (a fixed-size load, so no memcpy call per
   element) under the mask that drops a floating component's sign. */
static inline bool nz_at(const unsigned char *p, const nz_job *j, size_t isz) {
  uint64_t m = j->mask;
  switch (j->comp) {
    case 1: return p[0] != 0;
    case 2: {
      uint16_t v;
      memcpy(&v, p, 2);
      return (v & m) != 0;
    }
    case 4: {
      uint32_t v[2] = {0, 0};
      memcpy(&v[0], p, 4);
      if (isz == 8) memcpy(&v[1], p + 4, 4);
      return ((v[0] & m) | (v[1] & m)) != 0;
    }
    default: {
      uint64_t v[2] = {0, 0};
      memcpy(&v[0], p, 8);
      if (isz == 16) memcpy(&v[1], p + 8, 8);
      return ((v[0] & m) | (v[1] & m)) != 0;
    }
  }
}

static void nz_chunk(void *v, int64_t c, int tid) {
  (void)tid;
  const nz_job *j = v;
  const ct_tensor *t = j->t;
  int64_t nd = t->ndim, numel = t->numel;
  int64_t b = c * j->chunk, e = b + j->chunk < numel ? b + j->chunk : numel;
  int64_t pos[64] = {0}, rem = b, off = 0;
  for (int64_t d = nd - 1; d >= 0; d--) pos[d] = rem % t->sizes[d], rem /= t->sizes[d];
  for (int64_t d = 0; d < nd; d++) off += pos[d] * t->strides[d];
  size_t isz = ct__itemsize((ct_dtype)t->dtype);
  const unsigned char *base = (const unsigned char *)ct__tdata(t);
  int64_t k = j->fill ? j->counts[c] : 0;
  int64_t last = nd ? nd - 1 : 0, inner_stride = nd ? t->strides[last] : 0, inner = nd ? t->sizes[last] : 1;
  for (int64_t i = b; i < e;) {
    int64_t run = nd ? inner - pos[last] : 1;
    if (run > e - i) run = e - i;
    const unsigned char *p = base + off * (int64_t)isz;
    int64_t st = inner_stride * (int64_t)isz;
    if (!j->fill && isz == 1 && st == 1) {
      for (int64_t r = 0; r < run; r++) k += p[r] != 0;
    } else if (!j->fill) {
      for (int64_t r = 0; r < run; r++) k += nz_at(p + r * st, j, isz);
    } else if (nd == 1 && isz == 1 && st == 1) {
      int64_t *o = j->out + k, base_pos = pos[last];
      for (int64_t r = 0; r < run; r++)
        if (p[r]) *o++ = base_pos + r;
      k = o - j->out;
    } else {
      for (int64_t r = 0; r < run; r++)
        if (nz_at(p + r * st, j, isz)) {
          int64_t *o = j->out + (k++);
          for (int64_t d = 0; d < last; d++) o[d * j->total] = pos[d];
          if (nd) o[last * j->total] = pos[last] + r;
        }
    }
    i += run;
    if (nd == 0) break;
    pos[last] += run;
    off += run * inner_stride;
    for (int64_t d = last; d > 0 && pos[d] >= t->sizes[d]; d--) {
      off -= pos[d] * t->strides[d];
      pos[d] = 0;
      pos[d - 1]++;
      off += t->strides[d - 1];
    }
  }
  if (!j->fill) j->counts[c] = k;
}

ct_tensor *ct__nonzero_impl(const ct_tensor *t_in) {
  if (t_in->device_type == CT_META) {
    ct__error_no_meta_kernel("aten::nonzero");
    return NULL;
  }
  if (t_in->ndim > 64) return CT_ERR_NULL(CT_ERR_NOT_IMPLEMENTED, "nonzero supports tensors of up to 64 dims");
  if (!ct__check_in_storage(t_in)) return NULL;
  ct_tensor *t = ct__resolve_bits(t_in);
  if (!t) return NULL;
  ct_dtype dt = (ct_dtype)t->dtype;
  const ct_dtype_traits *tr = ct__dt(dt);
  nz_job j = {.t = t, .comp = 1, .mask = 0xff};
  if (tr->category == CT_CAT_FLOAT || tr->category == CT_CAT_COMPLEX) {
    j.comp = tr->category == CT_CAT_COMPLEX ? tr->itemsize / 2u : tr->itemsize;
    j.mask = (j.comp == 8 ? ~0ull : (1ull << (8 * j.comp)) - 1) >> 1;
  } else {
    j.comp = tr->itemsize;
    j.mask = j.comp == 8 ? ~0ull : (1ull << (8 * j.comp)) - 1;
  }
  int64_t numel = t->numel, nd = t->ndim;
  j.chunk = numel / 64 > 65536 ? numel / 64 : 65536;
  int64_t n = ct__div_up(numel, j.chunk);
  j.counts = ct__malloc((size_t)(n > 0 ? n : 1) * sizeof(int64_t));
  ct_tensor *r = NULL;
  if (j.counts) {
    int nt = ct__parallel_threads(numel);
    if (n > 1 && nt > 1)
      ct__parallel_chunks(n, nt, nz_chunk, &j);
    else
      for (int64_t c = 0; c < n; c++) nz_chunk(&j, c, 0);
    int64_t total = 0;
    for (int64_t c = 0; c < n; c++) {
      int64_t k = j.counts[c];
      j.counts[c] = total;
      total += k;
    }
    /* torch's layout: [count, ndim] with strides (1, count), each coordinate's column contiguous */
    int64_t sz[2] = {total, nd}, st[2] = {1, total};
    ct_resolved_opts o = {CT_INT64, ct__tdevice(t), CT_CONTIGUOUS_FORMAT, false};
    r = ct__empty_strided_with(2, sz, st, &o);
    j.total = total;
    if (r && total > 0 && nd > 0) {
      j.out = (int64_t *)ct__tdata(r);
      j.fill = true;
      if (n > 1 && nt > 1)
        ct__parallel_chunks(n, nt, nz_chunk, &j);
      else
        for (int64_t c = 0; c < n; c++) nz_chunk(&j, c, 0);
    }
    ct__free(j.counts);
  }
  ct_release(t);
  return r;
}

/* nonzero_numpy: the columns of nonzero (a 0-dim input counts as [1]: one column). */
static ct_tensor_list *nonzero_tuple_impl(const ct_tensor *t) {
  ct_tensor *src = t->ndim == 0 ? ct__unsqueeze_impl(t, 0) : ct__alias_impl(t);
  ct_tensor *nz = src ? ct__nonzero_impl(src) : NULL;
  ct_tensor_list *l = nz ? ct__list_alloc(src->ndim) : NULL;
  for (int64_t d = 0; l && d < src->ndim; d++) {
    l->items[d] = ct__select_impl(nz, 1, d);
    if (!l->items[d]) {
      ct__list_destroy(l);
      l = NULL;
    }
  }
  ct_release(nz);
  ct_release(src);
  return l;
}

ct_tensor *ct_nonzero(const ct_tensor *t) {
  CT__OP_ENTER_PTR(&nonzero_op, t, t);
  return ct__own(ct__nonzero_impl(t));
}

ct_status ct_nonzero_out(ct_tensor *out, const ct_tensor *t) {
  CT__OP_ENTER_STATUS(&nonzero_out_op, t, out, t);
  if (!CT__OP_ACCEPTS(&nonzero_out_op, nonzero_out_op.aten, out, t)) return ct_last_error();
  if (out->dtype != CT_INT64) {
    ct__error(CT_ERR_RUNTIME, "nonzero: Expected out tensor to have scalar type Long but got scalar type%s",
              ct__dt((ct_dtype)out->dtype)->scalar_name);
    return CT_ERR_RUNTIME;
  }
  ct_tensor *r = ct__nonzero_impl(t);
  if (!r) return ct_last_error();
  bool same = out->ndim == 2 && out->sizes[0] == r->sizes[0] && out->sizes[1] == r->sizes[1];
  ct_status s = CT_OK;
  if (!same) { /* resized as the result is laid out: strides (1, count) */
    if (!ct__check_copy_devices(out, r)) s = CT_ERR_RUNTIME;
    if (s == CT_OK) s = ct__tensor_resize(out, 2, r->sizes, r->strides);
  }
  return s == CT_OK ? ct__idx_copy_out(out, r) : (ct_release(r), s);
}

ct_tensor_list *ct_nonzero_tuple(const ct_tensor *t) {
  CT__OP_ENTER_PTR(&nonzero_tuple_op, t, t);
  return ct__own_list(nonzero_tuple_impl(t));
}

ct_tensor *ct_argwhere(const ct_tensor *t) {
  CT__OP_ENTER_PTR(&argwhere_op, t, t);
  return ct__own(ct__nonzero_impl(t));
}

ct_tensor_list *ct_where_cond(const ct_tensor *condition) {
  CT__OP_ENTER_PTR(&where_op, condition, condition);
  return ct__own_list(nonzero_tuple_impl(condition));
}
