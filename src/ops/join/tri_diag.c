/* tril/triu (functional, in place, out=), tril_indices/triu_indices, diag, diag_embed, diagflat and
   fill_diagonal_ as torch 1.13 computes them. tril/triu copy the input (contiguous, as the structured op's
   output) and zero the rest of each row through the fill kernel; the diagonal builders write into a
   diagonal view of a zero tensor through the copy engine. */
#include "ops/join/join_internal.h"
#include "core/elem.h"

static const ct_op tril_op = CT_JOIN_OP("tril", "aten::tril");
static const ct_op triu_op = CT_JOIN_OP("triu", "aten::triu");
static const ct_op tril_ip_op = CT_JOIN_OP("tril_", "aten::tril_");
static const ct_op triu_ip_op = CT_JOIN_OP("triu_", "aten::triu_");
static const ct_op tril_out_op = CT_JOIN_OP("tril", "aten::tril.out");
static const ct_op triu_out_op = CT_JOIN_OP("triu", "aten::triu.out");
static const ct_op diag_op = CT_JOIN_OP("diag", "aten::diag");
static const ct_op diag_out_op = CT_JOIN_OP("diag", "aten::diag.out");
static const ct_op diag_embed_op = CT_JOIN_OP("diag_embed", "aten::diag_embed");
static const ct_op diagflat_op = CT_JOIN_OP("diagflat", "aten::diagflat");
static const ct_op fill_diagonal_op = CT_JOIN_OP("fill_diagonal_", "aten::fill_diagonal_");

/* Zeroes, in every matrix of t, the elements outside the band: below diagonal k for triu, above it for
   tril (one fill per row's run of zeros). */
static ct_status zero_outside(ct_tensor *t, int64_t k, bool upper) {
  int64_t rows = t->sizes[t->ndim - 2], cols = t->sizes[t->ndim - 1];
  ct_status s = CT_OK;
  for (int64_t i = 0; i < rows && s == CT_OK; i++) {
    int64_t a, b; /* the columns [a, b) of row i to zero */
    if (upper) {
      a = 0;
      b = i + k < cols ? (i + k > 0 ? i + k : 0) : cols;
    } else {
      a = i + k + 1 > 0 ? (i + k + 1 < cols ? i + k + 1 : cols) : 0;
      b = cols;
    }
    if (a >= b) continue;
    ct_tensor *row = ct__select_impl(t, t->ndim - 2, i), *part = row ? ct__narrow_impl(row, -1, a, b - a) : NULL;
    s = part ? ct__fill(part, ct_scalar_int(0)) : ct_last_error();
    ct_release(row);
    ct_release(part);
  }
  return s;
}

/* checkTrilTriuBatchContiguous(self, allow_zero_stride = true): whether torch updates self in place. */
static bool batch_contiguous(const ct_tensor *t) {
  int64_t nd = t->ndim;
  if (ct__geom_is_contiguous(nd, t->sizes, t->strides)) return true; /* updated in place, or via a copy: no error */
  if (nd <= 3) return true;
  int64_t expected = t->sizes[nd - 1] * t->sizes[nd - 2];
  for (int64_t i = nd - 3; i >= 0; i--) {
    if (i == 0 && (t->strides[i] == 0 || t->sizes[i] == 1)) continue;
    if (expected != t->strides[i]) return false;
    expected *= t->sizes[i];
  }
  return true;
}

/* apply_triu_tril on an out= tensor: torch addresses matrix b of out at b * stride(-3) (1 where that stride
   is 0), whatever out's batch dims' strides are, and writes the matrices in order. For an out whose batch
   dims do not compose into that one stride, this writes where torch writes (later matrices over earlier
   ones where they meet); false (nothing written) when out's own geometry is the same thing or a matrix
   would leave the storage. */
static bool torch_batches(ct_tensor *out, const ct_tensor *self, int64_t k, bool upper, ct_status *s) {
  int64_t nd = out->ndim;
  if (nd <= 2 || out->numel == 0 || out->device_type == CT_META) return false;
  int64_t n = out->sizes[nd - 2], m = out->sizes[nd - 1], nb = out->numel / (n * m);
  int64_t bst = out->strides[nd - 3] > 0 ? out->strides[nd - 3] : 1, st[2] = {out->strides[nd - 2], out->strides[nd - 1]};
  bool same = true; /* the batch dims compose into one of stride bst */
  for (int64_t d = nd - 3, want = bst; d >= 0; d--) {
    if (out->sizes[d] != 1 && out->strides[d] != want) same = false;
    want *= out->sizes[d];
  }
  int64_t sizes[3] = {nb, n, m}, st3[3] = {bst, st[0], st[1]};
  if (same || ct__required_storage_elems(3, sizes, st3, out->offset) * (int64_t)ct__itemsize((ct_dtype)out->dtype) >
                  (int64_t)out->storage->nbytes)
    return false;
  ct_tensor *src = ct__reshape_impl(self, (ct_shape){sizes, 3});
  *s = src ? CT_OK : ct_last_error();
  for (int64_t b = 0; *s == CT_OK && b < nb; b++) {
    ct_tensor *mat = ct__view(out, 2, sizes + 1, st, out->offset + b * bst), *from = ct__select_impl(src, 0, b);
    *s = mat && from ? ct__copy_into(mat, from) : ct_last_error();
    if (*s == CT_OK) *s = zero_outside(mat, k, upper);
    ct_release(mat);
    ct_release(from);
  }
  ct_release(src);
  return true;
}

/* The meta kernel, TORCH_META_FUNC(tril/triu): the output set to self's shape, nothing else checked (no
   dim count): a new contiguous tensor, self in place (autograd's check), out resized. */
static ct_status tri_meta(ct_tensor *out, const ct_tensor *self, ct_tensor **result) {
  if (!out) {
    *result = ct__join_empty(self, self->ndim, self->sizes, (ct_dtype)self->dtype);
    return *result ? CT_OK : ct_last_error();
  }
  if (out == self) return ct__check_inplace(self) ? CT_OK : CT_ERR_RUNTIME;
  return ct__join_fit_out(out, self->ndim, self->sizes);
}

/* compute_triu_tril: out NULL (a new result in *result), self (in place) or an out= tensor. */
static ct_status tri_impl(ct_tensor *out, const ct_tensor *self, int64_t k, bool upper, ct_tensor **result) {
  bool inplace = out == self;
  if (out && !inplace) {
    if (!ct__join_out_dtype_is(out, (ct_dtype)self->dtype) || !ct__join_out_device_ok(out, self) ||
        !ct__tensor_resize_ok(out, self->ndim, self->sizes))
      return ct_last_error();
  }
  if (CT__OP_ON_META(out, self)) return tri_meta(out, self, result);
  if (self->numel > 0 && self->ndim < 2) return (ct__size_dim(self, -2), ct_last_error());
  if (inplace && !ct__check_inplace(self)) return CT_ERR_RUNTIME;
  /* checkTrilTriuBatchContiguous: a self it cannot update in place is computed into a contiguous copy, then
     copied back (copy_'s refusal of an expanded self) */
  if (inplace && self->numel > 0 && !batch_contiguous(self) && !ct__check_no_internal_overlap(self))
    return ct_last_error();
  ct_tensor *r = out;
  ct_status s = CT_OK;
  if (!out) {
    r = ct__join_empty(self, self->ndim, self->sizes, (ct_dtype)self->dtype);
    if (!r) return ct_last_error();
  } else if (!inplace) {
    if (!ct__check_no_partial_overlap(out, self)) return ct_last_error();
    s = ct__join_fit_out(out, self->ndim, self->sizes);
  }
  if (!(s == CT_OK && out && !inplace && torch_batches(out, self, k, upper, &s))) {
    if (s == CT_OK && r != self) s = ct__copy_into(r, self);
    if (s == CT_OK && self->numel > 0) s = zero_outside(r, k, upper);
  }
  if (s != CT_OK) {
    if (!out) ct_release(r);
    return s;
  }
  if (result) *result = r;
  return CT_OK;
}

static ct_tensor *tri_entry(const ct_op *op, const ct_tensor *t, int64_t k, bool upper) {
  CT__OP_ENTER_PTR(op, t, t);
  ct_tensor *r = NULL;
  if (tri_impl(NULL, t, k, upper, &r) != CT_OK) return NULL;
  ct__grad_mark_result(r, t);
  return ct__own(r);
}
static ct_status tri_out_entry(const ct_op *op, ct_tensor *out, const ct_tensor *t, int64_t k, bool upper) {
  CT__OP_ENTER_STATUS(op, t, out, t);
  if (!CT__OP_ACCEPTS(op, op->aten, out, t)) return ct_last_error();
  if (!CT__OP_OUT_GRAD_OK(op, out, t)) return CT_ERR_RUNTIME;
  return tri_impl(out, t, k, upper, NULL);
}
static ct_status tri_inplace_entry(const ct_op *op, ct_tensor *self, int64_t k, bool upper) {
  CT__OP_ENTER_STATUS(op, self, self);
  return tri_impl(self, self, k, upper, NULL);
}

ct_tensor *ct_tril(const ct_tensor *t, int64_t diagonal) { return tri_entry(&tril_op, t, diagonal, false); }
ct_status ct_tril_(ct_tensor *self, int64_t diagonal) { return tri_inplace_entry(&tril_ip_op, self, diagonal, false); }
ct_status ct_tril_out(ct_tensor *out, const ct_tensor *t, int64_t diagonal) {
  return tri_out_entry(&tril_out_op, out, t, diagonal, false);
}
ct_tensor *ct_triu(const ct_tensor *t, int64_t diagonal) { return tri_entry(&triu_op, t, diagonal, true); }
ct_status ct_triu_(ct_tensor *self, int64_t diagonal) { return tri_inplace_entry(&triu_ip_op, self, diagonal, true); }
ct_status ct_triu_out(ct_tensor *out, const ct_tensor *t, int64_t diagonal) {
  return tri_out_entry(&triu_out_op, out, t, diagonal, true);
}

/* ---- tril_indices / triu_indices ---- */

/* The columns [lo, hi) of row i that the triangle holds. */
static void tri_cols(bool upper, int64_t i, int64_t col, int64_t offset, int64_t *lo, int64_t *hi) {
  int64_t a = upper ? i + offset : 0, b = upper ? col : i + offset + 1;
  *lo = a < 0 ? 0 : a > col ? col : a;
  *hi = b < 0 ? 0 : b > col ? col : b;
  if (*hi < *lo) *hi = *lo;
}

static ct_tensor *tri_indices(const char *name, bool upper, int64_t row, int64_t col, int64_t offset,
                              const ct_tensor_opts *opts) {
  ct_resolved_opts o;
  if (!ct__resolve_opts(opts, CT_INT64, &o)) return NULL;
  if (row < 0) return CT_ERR_NULL(CT_ERR_RUNTIME, "row must be non-negative, got%lld", (long long)row);
  if (col < 0) return CT_ERR_NULL(CT_ERR_RUNTIME, "col must be non-negative, got%lld", (long long)col);
  if (opts && opts->layout != CT_LAYOUT_UNSET && opts->layout != CT_STRIDED)
    return CT_ERR_NULL(CT_ERR_RUNTIME, "only support layout=torch.strided, got%s", ct__layout_c10_name(opts->layout));
  int64_t n = 0, lo, hi;
  for (int64_t i = 0; i < row; i++) {
    tri_cols(upper, i, col, offset, &lo, &hi);
    n += hi - lo;
  }
  ct_dtype dt = o.dtype;
  /* AT_DISPATCH_INDEX_TYPES: int32 and int64 */
  if (dt != CT_INT32 && dt != CT_INT64)
    return CT_ERR_NULL(CT_ERR_RUNTIME, "\"%s\" not implemented for '%s'", name, ct__dt(dt)->scalar_name);
  int64_t sizes[2] = {2, n};
  ct_tensor *r = ct__empty_with((ct_shape){sizes, 2}, &o);
  if (!r || o.device.type == CT_META || n == 0) return ct__finish_requires_grad(r, o.requires_grad);
  char *p = ct__tdata(r);
  size_t item = ct__itemsize(dt);
  for (int64_t i = 0, j = 0; i < row; i++) {
    tri_cols(upper, i, col, offset, &lo, &hi);
    for (int64_t c = lo; c < hi; c++, j++) {
      ct__elem_store_i64(dt, p + (size_t)j * item, i);
      ct__elem_store_i64(dt, p + (size_t)(n + j) * item, c);
    }
  }
  return ct__finish_requires_grad(r, o.requires_grad);
}

ct_tensor *ct_tril_indices(int64_t row, int64_t col, int64_t offset, const ct_tensor_opts *opts) {
  return ct__own(tri_indices("tril_indices", false, row, col, offset, opts));
}
ct_tensor *ct_triu_indices(int64_t row, int64_t col, int64_t offset, const ct_tensor_opts *opts) {
  return ct__own(tri_indices("triu_indices", true, row, col, offset, opts));
}

/* ---- diag_embed, diag, diagflat ---- */

ct_tensor *ct__diag_embed_impl(const ct_tensor *t, int64_t offset, int64_t dim1_, int64_t dim2_) {
  int64_t nd = t->ndim + 1;
  int64_t dim1 = ct__wrap_dim(dim1_, nd);
  int64_t dim2 = dim1 < 0 ? -1 : ct__wrap_dim(dim2_, nd);
  if (dim2 < 0) return NULL;
  if (dim1 == dim2)
    return CT_ERR_NULL(CT_ERR_RUNTIME, "diagonal dimensions cannot be identical %lld, %lld", (long long)dim1_,
                       (long long)dim2_);
  int64_t last = ct__size_dim(t, -1);
  if (last < 0 || !ct__join_rank_ok(nd)) return NULL;
  int64_t len = (offset < 0 ? -offset : offset) + t->sizes[last];
  int64_t sizes[CT_JOIN_MAXDIM];
  int64_t lo = dim1 < dim2 ? dim1 : dim2, hi = dim1 < dim2 ? dim2 : dim1;
  for (int64_t d = 0, k = 0; d < nd; d++) sizes[d] = d == lo || d == hi ? len : t->sizes[k++];
  ct_tensor *r = ct__join_zeros(t, nd, sizes, (ct_dtype)t->dtype);
  ct_tensor *diag = r ? ct__diagonal_impl(r, offset, dim1, dim2) : NULL;
  ct_status s = diag ? ct__copy_into(diag, t) : ct_last_error();
  ct_release(diag);
  if (s != CT_OK) {
    ct_release(r);
    return NULL;
  }
  return r;
}

ct_tensor *ct_diag_embed(const ct_tensor *t, int64_t offset, int64_t dim1, int64_t dim2) {
  CT__OP_ENTER_PTR(&diag_embed_op, t, t);
  ct_tensor *r = ct__diag_embed_impl(t, offset, dim1, dim2);
  if (r) ct__grad_mark_result(r, t);
  return ct__own(r);
}

/* The meta kernel, torch 1.13's Python meta_diag: no dtype dispatch; a 2-d input's negative length is
   new_empty's error. */
static ct_status diag_meta(ct_tensor *out, const ct_tensor *t, int64_t k, ct_tensor **result) {
  if (t->ndim != 1 && t->ndim != 2)
    return (ct__error(CT_ERR_RUNTIME, "matrix or a vector expected"), CT_ERR_RUNTIME);
  int64_t r = t->sizes[0], c = t->ndim == 2 ? t->sizes[1] : 0;
  int64_t n = t->ndim == 1 ? r + (k < 0 ? -k : k)
              : k >= 0     ? (r < c - k ? r : c - k)
                           : (r + k < c ? r + k : c);
  int64_t sizes[2] = {n, n};
  ct_tensor *res = ct__join_empty(t, 3 - t->ndim, sizes, (ct_dtype)t->dtype);
  if (!res) return ct_last_error();
  if (!out) return (*result = res, CT_OK);
  ct_status s = ct__out_wrapper_copy(out, res); /* diag.out is the same function under out_wrapper() */
  ct_release(res);
  return s;
}

/* diag_cpu_out (apply_diag): out NULL gives a new result. */
static ct_status diag_impl(ct_tensor *out, const ct_tensor *t, int64_t k, ct_tensor **result) {
  if (CT__OP_ON_META(out, t)) return diag_meta(out, t, k, result);
  /* AT_DISPATCH_ALL_TYPES_AND_COMPLEX_AND2(BFloat16, Bool): every dtype but float16, checked first */
  if (t->dtype == CT_FLOAT16) return (ct__error(CT_ERR_RUNTIME, "\"diag\" not implemented for 'Half'"), CT_ERR_RUNTIME);
  if (t->ndim != 1 && t->ndim != 2) return (ct__error(CT_ERR_RUNTIME, "matrix or a vector expected"), CT_ERR_RUNTIME);
  int64_t sizes[2], nd;
  if (t->ndim == 1) {
    nd = 2;
    sizes[0] = sizes[1] = t->sizes[0] + (k < 0 ? -k : k);
  } else {
    nd = 1;
    int64_t r = t->sizes[0], c = t->sizes[1];
    sizes[0] = k >= 0 ? (r < c - k ? r : c - k) : (r + k < c ? r + k : c);
    if (sizes[0] < 0) return (ct__error(CT_ERR_RUNTIME, "numel: integer multiplication overflow"), CT_ERR_RUNTIME);
  }
  if (out) {
    if (!ct__check_copy_devices(out, t)) return ct_last_error(); /* a meta out: the copy's refusal comes first */
    if (out->dtype != t->dtype) {
      ct__error(CT_ERR_RUNTIME, "expected scalar type %s but found %s", ct__dt((ct_dtype)t->dtype)->scalar_name,
                ct__dt((ct_dtype)out->dtype)->scalar_name);
      return CT_ERR_RUNTIME;
    }
    if (!ct__tensor_resize_ok(out, nd, sizes)) return ct_last_error();
  }
  ct_tensor *r = ct__join_empty(t, nd, sizes, (ct_dtype)t->dtype);
  ct_status s = r ? CT_OK : ct_last_error();
  if (s == CT_OK && t->ndim == 1) {
    s = ct__fill(r, ct_scalar_int(0));
    ct_tensor *d = s == CT_OK ? ct__diagonal_impl(r, k, 0, 1) : NULL;
    if (s == CT_OK) s = d ? ct__copy_into(d, t) : ct_last_error();
    ct_release(d);
  } else if (s == CT_OK && sizes[0] > 0) {
    ct_tensor *d = ct__diagonal_impl(t, k, 0, 1);
    s = d ? ct__copy_into(r, d) : ct_last_error();
    ct_release(d);
  }
  if (s == CT_OK && out) s = ct__join_copy_out(out, r);
  if (s != CT_OK || out) {
    ct_release(r);
    return s;
  }
  *result = r;
  return CT_OK;
}

ct_tensor *ct_diag(const ct_tensor *t, int64_t diagonal) {
  CT__OP_ENTER_PTR(&diag_op, t, t);
  ct_tensor *r = NULL;
  if (diag_impl(NULL, t, diagonal, &r) != CT_OK) return NULL;
  ct__grad_mark_result(r, t);
  return ct__own(r);
}
ct_status ct_diag_out(ct_tensor *out, const ct_tensor *t, int64_t diagonal) {
  CT__OP_ENTER_STATUS(&diag_out_op, t, out, t);
  if (!CT__OP_ACCEPTS(&diag_out_op, diag_out_op.aten, out, t)) return ct_last_error();
  if (!CT__OP_OUT_GRAD_OK(&diag_out_op, out, t)) return CT_ERR_RUNTIME;
  return diag_impl(out, t, diagonal, NULL);
}

/* self.contiguous().view(-1).diag(offset) */
ct_tensor *ct_diagflat(const ct_tensor *t, int64_t offset) {
  CT__OP_ENTER_PTR(&diagflat_op, t, t);
  int64_t n = t->numel;
  ct_tensor *flat = ct__reshape_impl(t, (ct_shape){&n, 1}), *r = NULL;
  if (flat && diag_impl(NULL, flat, offset, &r) != CT_OK) r = NULL;
  ct_release(flat);
  if (r) ct__grad_mark_result(r, t);
  return ct__own(r);
}

/* ---- fill_diagonal_ ---- */

ct_status ct_fill_diagonal_(ct_tensor *self, ct_scalar fill_value, const ct_fill_diagonal_opts *opts) {
  CT__OP_ENTER_STATUS(&fill_diagonal_op, self, self);
  int64_t nd = self->ndim;
  if (nd < 2) return (ct__error(CT_ERR_RUNTIME, "dimensions must larger than 1"), CT_ERR_RUNTIME);
  int64_t height = self->sizes[0], width = self->sizes[1];
  for (int64_t i = 1; nd > 2 && i < nd; i++)
    if (self->sizes[i] != height)
      return (ct__error(CT_ERR_RUNTIME, "all dimensions of input must be of equal length"), CT_ERR_RUNTIME);
  if (!ct__check_inplace(self)) return CT_ERR_RUNTIME;
  if (!ct__check_scalar(fill_value)) return ct_last_error();
  /* the main diagonal's fill_ converts the value first (its overflow error precedes the wrap view's) */
  if (self->device_type != CT_META && !ct__scalar_fits(fill_value, (ct_dtype)self->dtype)) return ct_last_error();
  int64_t size = height < width ? height : width, stride = 0, off = self->offset;
  for (int64_t i = 0; i < nd; i++) stride += self->strides[i];
  ct_tensor *main = ct__as_strided_impl(self, (ct_shape){&size, 1}, (ct_shape){&stride, 1}, &off), *w = NULL;
  ct_status s = main ? CT_OK : ct_last_error();
  if (s == CT_OK && opts && opts->wrap && nd == 2 && height > width + 1) {
    /* both views made before either is written: one the storage cannot hold fails the call, which then
       changes nothing (torch has written the main diagonal by then) */
    int64_t step = width + 1, wrap_size = (self->numel + step - 1) / step - size;
    int64_t woff = off + self->strides[0] * (width + 1);
    w = ct__as_strided_impl(self, (ct_shape){&wrap_size, 1}, (ct_shape){&stride, 1}, &woff);
    if (!w) s = ct_last_error();
  }
  if (s == CT_OK) s = ct__fill_impl(main, fill_value);
  if (s == CT_OK && w) s = ct__fill_impl(w, fill_value);
  ct_release(main);
  ct_release(w);
  return s;
}
