/* masked_select and masked_scatter: the elements where a mask (bool, or uint8 as torch still takes it)
   broadcast against self is true, read or written in row-major order of the broadcast shape (torch 1.13's
   serial kernels and its prefix-sum one give that order). The count comes first, so a source too short
   fails before anything is written. */
#include "core/cast.h"
#include "core/layout_rules.h"
#include "core/parallel.h"
#include "iter/iter.h"
#include "ops/create_internal.h"
#include "ops/index/index_ops.h"
#include "ops/index/mask_compact.h"
#include "ops/view_internal.h"

static const char mask_row[1];
static const ct_op masked_select_op = {.name = "masked_select", .aten = "aten::masked_select", .kernels = {[CT_CPU] = mask_row}};
static const ct_op masked_select_out_op = {
    .name = "masked_select", .aten = "aten::masked_select.out", .kernels = {[CT_CPU] = mask_row}};
static const ct_op masked_scatter_op = {
    .name = "masked_scatter", .aten = "aten::masked_scatter", .kernels = {[CT_CPU] = mask_row, [CT_META] = mask_row}};
static const ct_op masked_scatter_inplace_op = {
    .name = "masked_scatter", .aten = "aten::masked_scatter_", .kernels = {[CT_CPU] = mask_row, [CT_META] = mask_row}};

/* Row-major walk of a mask of shape (nd, sizes) and a tensor of the same shape: calls visit for each true
   element with the tensor element's address. Returns the count. The mask's element is read as its first
   byte, as torch's kernels read a bool or uint8 mask. */
typedef struct mask_walk {
  int64_t nd;
  const int64_t *sizes;
  const ct_tensor *mask, *t; /* t may be NULL: counting only */
} mask_walk;

/* One chunk [b, e) of the row-major positions: counts (out == NULL) or copies elements out (select: dst
   the contiguous result from position k0 on; scatter: source elements into t). */
typedef struct mask_job {
  const mask_walk *w;
  int64_t *counts; /* per chunk */
  int64_t chunk;
  char *dst;       /* select: result data; scatter: NULL */
  const char *src; /* scatter: contiguous source data */
  size_t isz;
  int64_t nchunks, total; /* set by mask_pass: the chunk count and the number of true elements */
  bool fill;
} mask_job;

static void walk_chunk(const mask_job *j, int64_t c) {
  const mask_walk *w = j->w;
  int64_t numel = 1;
  for (int64_t d = 0; d < w->nd; d++) numel *= w->sizes[d];
  int64_t b = c * j->chunk, e = b + j->chunk < numel ? b + j->chunk : numel;
  if (b >= e) {
    if (!j->fill) j->counts[c] = 0;
    return;
  }
  int64_t pos[64], rem = b;
  for (int64_t d = w->nd - 1; d >= 0; d--) pos[d] = rem % w->sizes[d], rem /= w->sizes[d];
  const char *mb = (const char *)w->mask->storage->data + w->mask->offset * (int64_t)ct__itemsize((ct_dtype)w->mask->dtype);
  int64_t msz = (int64_t)ct__itemsize((ct_dtype)w->mask->dtype);
  char *tb = w->t ? ct__tdata(w->t) : NULL;
  int64_t moff = 0, toff = 0;
  for (int64_t d = 0; d < w->nd; d++) {
    moff += pos[d] * w->mask->strides[d];
    if (tb) toff += pos[d] * w->t->strides[d];
  }
  int64_t k = j->fill ? j->counts[c] : 0, isz = (int64_t)j->isz;
  int64_t kend = j->fill && c + 1 < j->nchunks ? j->counts[c + 1] : j->total; /* this chunk's part ends */
  int64_t nd = w->nd, inner = nd ? w->sizes[nd - 1] : 1;
  int64_t ms = nd ? w->mask->strides[nd - 1] * msz : 0, ts = nd && tb ? w->t->strides[nd - 1] * isz : 0;
  for (int64_t i = b; i < e;) {
    int64_t run = nd ? inner - pos[nd - 1] : 1;
    if (run > e - i) run = e - i;
    const char *mp = mb + moff * msz;
    char *tp = tb ? tb + toff * isz : NULL;
    if (!j->fill && ms == 1) {
      k += ct__mask_count((const unsigned char *)mp, run);
    } else if (!j->fill) {
      for (int64_t r = 0; r < run; r++) k += mp[r * ms] != 0;
    } else if (j->dst && ms == 1 && ts == isz) {
      k = ct__mask_compact(j->dst, k, kend, tp, (const unsigned char *)mp, run, (size_t)isz);
    } else if (j->dst) {
      for (int64_t r = 0; r < run; r++)
        if (mp[r * ms]) memcpy(j->dst + (k++) * isz, tp + r * ts, (size_t)isz);
    } else {
      for (int64_t r = 0; r < run; r++)
        if (mp[r * ms]) memcpy(tp + r * ts, j->src + (k++) * isz, (size_t)isz);
    }
    i += run;
    /* advance the position by run elements */
    if (nd == 0) break;
    pos[nd - 1] += run;
    moff += run * w->mask->strides[nd - 1];
    if (tb) toff += run * w->t->strides[nd - 1];
    for (int64_t d = nd - 1; d > 0 && pos[d] >= w->sizes[d]; d--) {
      moff -= pos[d] * w->mask->strides[d];
      if (tb) toff -= pos[d] * w->t->strides[d];
      pos[d] = 0;
      pos[d - 1]++;
      moff += w->mask->strides[d - 1];
      if (tb) toff += w->t->strides[d - 1];
    }
  }
  if (!j->fill) j->counts[c] = k;
}

static void count_piece(void *v, int64_t c, int tid) {
  (void)tid;
  walk_chunk(v, c);
}

/* The counts of true elements per chunk, then (after the caller's check) the copies: two parallel passes
   over the same chunks, the second starting each chunk at the prefix sum of the counts before it. */
static int64_t mask_pass(mask_job *j, int64_t numel, int64_t *nchunks) {
  int64_t chunk = numel / 64 > 65536 ? numel / 64 : 65536;
  int64_t n = ct__div_up(numel, chunk);
  j->chunk = chunk;
  *nchunks = n;
  j->fill = false;
  int nt = ct__parallel_threads(numel);
  if (n > 1 && nt > 1)
    ct__parallel_chunks(n, nt, count_piece, j);
  else
    for (int64_t c = 0; c < n; c++) walk_chunk(j, c);
  int64_t total = 0;
  for (int64_t c = 0; c < n; c++) {
    int64_t k = j->counts[c];
    j->counts[c] = total;
    total += k;
  }
  j->nchunks = n;
  j->total = total;
  return total;
}

static void mask_fill(mask_job *j, int64_t numel, int64_t n) {
  j->fill = true;
  int nt = ct__parallel_threads(numel);
  if (n > 1 && nt > 1)
    ct__parallel_chunks(n, nt, count_piece, j);
  else
    for (int64_t c = 0; c < n; c++) walk_chunk(j, c);
}

static bool mask_dtype_ok(const ct_tensor *mask, const char *msg) {
  if (mask->dtype == CT_BOOL || mask->dtype == CT_UINT8) return true;
  ct__error(CT_ERR_RUNTIME, "%s", msg);
  return false;
}

/* ---- masked_select ---- */

static ct_tensor *masked_select_impl(const ct_tensor *self_in, const ct_tensor *mask_in) {
  if (!mask_dtype_ok(mask_in, "masked_select: expected BoolTensor or ByteTensor for mask")) return NULL;
  int64_t nd = self_in->ndim > mask_in->ndim ? self_in->ndim : mask_in->ndim, shape[64];
  if (nd > 64) return CT_ERR_NULL(CT_ERR_NOT_IMPLEMENTED, "masked_select supports tensors of up to 64 dims");
  if (ct__broadcast_shapes(mask_in->sizes, mask_in->ndim, self_in->sizes, self_in->ndim, shape) != CT_OK) return NULL;
  ct_shape sh = {shape, nd};
  ct_tensor *self = ct__resolve_bits(self_in);
  ct_tensor *se = self ? ct__expand_impl(self, sh) : NULL;
  ct_tensor *me = se ? ct__expand_impl(mask_in, sh) : NULL;
  ct_tensor *r = NULL;
  if (me) {
    int64_t numel = 1;
    for (int64_t d = 0; d < nd; d++) numel *= shape[d];
    mask_walk w = {nd, shape, me, se};
    int64_t n = numel ? (numel + 65535) / 65536 : 0;
    int64_t *counts = ct__malloc((size_t)(n > 0 ? n : 1) * sizeof(int64_t));
    mask_job j = {&w, counts, 0, NULL, NULL, ct__itemsize((ct_dtype)self->dtype), 0, 0, false};
    int64_t total = counts ? mask_pass(&j, numel, &n) : -1;
    ct_resolved_opts o = {(ct_dtype)self->dtype, ct__tdevice(self), CT_CONTIGUOUS_FORMAT, false};
    r = total >= 0 ? ct__empty_with((ct_shape){&total, 1}, &o) : NULL;
    if (r && total > 0) {
      j.dst = ct__tdata(r);
      mask_fill(&j, numel, n);
    }
    ct__free(counts);
  }
  ct_release(me);
  ct_release(se);
  ct_release(self);
  return r;
}

ct_tensor *ct_masked_select(const ct_tensor *t, const ct_tensor *mask) {
  CT__OP_ENTER_PTR(&masked_select_op, t, t, mask);
  if (!CT__OP_ACCEPTS(&masked_select_op, masked_select_op.aten, t, mask)) return NULL;
  return ct__own(masked_select_impl(t, mask));
}

ct_status ct_masked_select_out(ct_tensor *out, const ct_tensor *t, const ct_tensor *mask) {
  CT__OP_ENTER_STATUS(&masked_select_out_op, t, out, t, mask);
  if (!CT__OP_OUT_GRAD_OK(&masked_select_out_op, out, t, mask)) return CT_ERR_RUNTIME;
  if (!CT__OP_ACCEPTS(&masked_select_out_op, masked_select_out_op.aten, out, t, mask)) return ct_last_error();
  if (!mask_dtype_ok(mask, "masked_select: expected BoolTensor or ByteTensor for mask")) return CT_ERR_RUNTIME;
  if (out->dtype != t->dtype) {
    ct__error(CT_ERR_RUNTIME, "masked_select(): self and result must have the same scalar type");
    return CT_ERR_RUNTIME;
  }
  if (!ct__idx_no_overlap(out, t) || !ct__idx_no_overlap(out, mask)) return CT_ERR_RUNTIME;
  return ct__idx_copy_out(out, masked_select_impl(t, mask));
}

/* ---- masked_scatter ---- */

/* masked_scatter_ on a target whose shape the mask broadcasts to. */
static ct_status masked_scatter_into(ct_tensor *target, const ct_tensor *mask, const ct_tensor *source_in, bool inplace) {
  if (inplace && !ct__check_no_internal_overlap(target)) return CT_ERR_RUNTIME;
  if (target->dtype != source_in->dtype) {
    ct__error(CT_ERR_RUNTIME, "masked_scatter: expected self and source to have same dtypes but got%s and %s",
              ct__dt((ct_dtype)target->dtype)->scalar_name, ct__dt((ct_dtype)source_in->dtype)->scalar_name);
    return CT_ERR_RUNTIME;
  }
  ct_tensor *me0 = ct__expand_impl(mask, (ct_shape){target->sizes, target->ndim});
  if (!me0) return ct_last_error();
  /* torch's kernel walks self and the mask in TensorIterator's order (dims sorted by their strides, self's
     first), not row-major: the views permuted so that a row-major walk is that order */
  int64_t nd = target->ndim, perm[64], order[64], r0[64], r1[64];
  int64_t tsz = (int64_t)ct__itemsize((ct_dtype)target->dtype), msz = (int64_t)ct__itemsize((ct_dtype)me0->dtype);
  for (int64_t d = 0; d < nd && nd <= 64; d++) r0[d] = target->strides[d] * tsz, r1[d] = me0->strides[d] * msz;
  int64_t *rows[2] = {r0, r1};
  if (nd <= 64) ct__reorder_dims(rows, 2, 0, target->sizes, nd, perm);
  for (int64_t k = 0; k < nd && nd <= 64; k++) order[k] = perm[nd - 1 - k];
  ct_tensor *me = nd <= 64 ? ct__permute_unchecked(me0, order) : NULL;
  ct_tensor *tp = me ? ct__permute_unchecked(target, order) : NULL;
  ct_release(me0);
  if (!tp) {
    ct_release(me);
    return ct_last_error();
  }
  ct_status s = CT_OK;
  if (target->numel > 0) {
    ct_tensor *src = ct__idx_contiguous(source_in);
    int64_t numel = target->numel, n = (numel + 65535) / 65536;
    int64_t *counts = src ? ct__malloc((size_t)n * sizeof(int64_t)) : NULL;
    mask_walk w = {tp->ndim, tp->sizes, me, tp};
    mask_job j = {&w, counts, 0,    NULL, src ? ct__tdata(src) : NULL, ct__itemsize((ct_dtype)target->dtype),
                  0,  0,      false};
    int64_t total = counts ? mask_pass(&j, numel, &n) : -1;
    if (total < 0) {
      s = ct_last_error();
    } else if (total > source_in->numel) {
      ct__error(CT_ERR_RUNTIME, "Number of elements of source < number of ones in mask");
      s = CT_ERR_RUNTIME;
    } else if (total > 0) {
      mask_fill(&j, numel, n);
    }
    ct__free(counts);
    ct_release(src);
  }
  ct_release(tp);
  ct_release(me);
  return s;
}

ct_tensor *ct_masked_scatter(const ct_tensor *t, const ct_tensor *mask, const ct_tensor *source) {
  CT__OP_ENTER_PTR(&masked_scatter_op, t, t, mask, source);
  if (!CT__OP_ACCEPTS(&masked_scatter_op, masked_scatter_op.aten, t, mask, source)) return NULL;
  /* expand_outplace(mask, self), then a contiguous clone of the expanded self */
  int64_t nd = t->ndim > mask->ndim ? t->ndim : mask->ndim, shape[64];
  if (nd > 64) return CT_ERR_NULL(CT_ERR_NOT_IMPLEMENTED, "masked_scatter supports tensors of up to 64 dims");
  if (ct__broadcast_shapes(mask->sizes, mask->ndim, t->sizes, t->ndim, shape) != CT_OK) return NULL;
  ct_tensor *te = ct__expand_impl(t, (ct_shape){shape, nd});
  ct_tensor *r = te ? ct__idx_fresh(te, CT_CONTIGUOUS_FORMAT) : NULL;
  ct_release(te);
  if (r && !CT__OP_ON_META(t, mask, source) && masked_scatter_into(r, mask, source, false) != CT_OK) {
    ct_release(r);
    r = NULL;
  }
  return ct__own(r);
}

ct_status ct_masked_scatter_(ct_tensor *self, const ct_tensor *mask, const ct_tensor *source) {
  CT__OP_ENTER_STATUS(&masked_scatter_inplace_op, self, self, mask, source);
  if (!CT__OP_ACCEPTS(&masked_scatter_inplace_op, masked_scatter_inplace_op.aten, self, mask, source))
    return ct_last_error();
  if (CT__OP_ON_META(self, mask, source)) return ct__idx_meta_noop_(self);
  ct_tensor *target = ct__idx_target_begin(self, false);
  if (!target) return ct_last_error();
  return ct__idx_target_end(self, target, masked_scatter_into(target, mask, source, true));
}
