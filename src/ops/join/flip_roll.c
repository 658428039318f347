/* flip, fliplr, flipud, roll and rot90 as torch 1.13 computes them: flip copies the input read through a
   view with negated strides on the flipped dims into empty_like(input, preserve) (TensorIterator over the
   restrided input, as torch's flip kernel); roll is cat of the two narrows of each rolled dim (roll_cpu and
   roll_common); rot90 is flip then transpose. */
#include "ops/join/join_internal.h"

static const ct_op flip_op = CT_JOIN_OP("flip", "aten::flip");
static const ct_op fliplr_op = CT_JOIN_OP("fliplr", "aten::flip");
static const ct_op flipud_op = CT_JOIN_OP("flipud", "aten::flip");
static const ct_op roll_op = CT_JOIN_OP("roll", "aten::roll");
static const ct_op rot90_op = CT_JOIN_OP("rot90", "aten::rot90");

/* dim_list_to_bitset: wrapped dims, none twice (the message names the wrapped dim). The meta device runs
   torch's reference decomposition (torch/_refs flip): every dim wrapped first, then
   validate_no_repeating_dims' own message. */
static bool dim_bits(ct_dims dims, int64_t ndim, bool *seen, bool meta) {
  if (!ct__check_list(dims, "dims")) return false;
  for (int64_t i = 0; meta && i < dims.ndim; i++)
    if (ct__wrap_dim(dims.data[i], ndim) < 0) return false;
  for (int64_t i = 0; meta && i < dims.ndim; i++) {
    int64_t d = ct__wrap_dim(dims.data[i], ndim);
    if (seen[d]) {
      ct__error(CT_ERR_RUNTIME, "duplicate value in the list of dims");
      return false;
    }
    seen[d] = true;
  }
  for (int64_t i = 0; !meta && i < dims.ndim; i++) {
    int64_t d = ct__wrap_dim(dims.data[i], ndim);
    if (d < 0) return false;
    if (seen[d]) {
      ct__error(CT_ERR_RUNTIME, "dim %lld appears multiple times in the list of dims", (long long)d);
      return false;
    }
    seen[d] = true;
  }
  return true;
}

ct_tensor *ct__flip_impl(const ct_tensor *t, ct_dims dims) {
  if (!ct__join_rank_ok(t->ndim)) return NULL;
  bool seen[CT_JOIN_MAXDIM] = {false};
  if (!dim_bits(dims, t->ndim, seen, t->device_type == CT_META)) return NULL;
  ct_resolved_opts o = {(ct_dtype)t->dtype, ct__tdevice(t), CT_PRESERVE_FORMAT, false};
  ct_tensor *r = ct__empty_like_with(t, CT_PRESERVE_FORMAT, &o);
  if (!r) return NULL;
  int64_t st[CT_JOIN_MAXDIM], off = t->offset;
  for (int64_t d = 0; d < t->ndim; d++) {
    st[d] = t->strides[d];
    if (seen[d] && t->sizes[d] > 1) {
      off += (t->sizes[d] - 1) * t->strides[d];
      st[d] = -t->strides[d];
    }
  }
  ct_tensor *src = t->numel > 1 ? ct__view(t, t->ndim, t->sizes, st, off) : ct__same(t);
  ct_status s = src ? ct__copy_into(r, src) : ct_last_error();
  ct_release(src);
  if (s != CT_OK) {
    ct_release(r);
    return NULL;
  }
  return r;
}

static ct_tensor *own_result(ct_tensor *r, const ct_tensor *t) {
  if (r) ct__grad_mark_result(r, t);
  return ct__own(r);
}

ct_tensor *ct_flip(const ct_tensor *t, ct_dims dims) {
  CT__OP_ENTER_PTR(&flip_op, t, t);
  return own_result(ct__flip_impl(t, dims), t);
}
ct_tensor *ct_fliplr(const ct_tensor *t) {
  CT__OP_ENTER_PTR(&fliplr_op, t, t);
  if (t->ndim < 2) return CT_ERR_NULL(CT_ERR_RUNTIME, "Input must be >= 2-d.");
  int64_t d = 1;
  return own_result(ct__flip_impl(t, (ct_dims){&d, 1}), t);
}
ct_tensor *ct_flipud(const ct_tensor *t) {
  CT__OP_ENTER_PTR(&flipud_op, t, t);
  if (t->ndim < 1) return CT_ERR_NULL(CT_ERR_RUNTIME, "Input must be >= 1-d.");
  int64_t d = 0;
  return own_result(ct__flip_impl(t, (ct_dims){&d, 1}), t);
}

/* roll_cpu for one dim: cat of narrow(start, size - start) and narrow(0, start). */
static ct_tensor *roll_one(const ct_tensor *t, int64_t shift, int64_t dim) {
  if (t->numel == 0) return ct__join_clone(t, CT_PRESERVE_FORMAT);
  int64_t d = ct__size_dim(t, dim);
  if (d < 0) return NULL;
  int64_t size = t->sizes[d], start = (size - shift) % size;
  if (start < 0) start += size;
  ct_tensor *a = ct__narrow_impl(t, d, start, size - start), *b = a ? ct__narrow_impl(t, d, 0, start) : NULL;
  ct_tensor *r = NULL;
  if (b) {
    const ct_tensor *parts[2] = {a, b};
    if (ct__cat_impl(NULL, (ct_tensors){parts, 2}, d, &r) != CT_OK) r = NULL;
  }
  ct_release(a);
  ct_release(b);
  return r;
}

/* The meta device runs torch's reference decomposition (torch/_refs roll): every dim wrapped first, an empty
   tensor cloned, the list checks (its message has a space before the dims count), several dims rolled one
   after the other, and one dim's size read as a.shape[dim] (a 0-dim tensor has none). */
static ct_tensor *roll_meta(const ct_tensor *t, ct_shape shifts, ct_dims dims) {
  for (int64_t i = 0; i < dims.ndim; i++)
    if (ct__wrap_dim(dims.data[i], t->ndim) < 0) return NULL;
  if (t->numel == 0) return ct__join_clone(t, CT_PRESERVE_FORMAT);
  if (shifts.ndim == 1 && dims.ndim == 1) {
    if (t->ndim == 0) return CT_ERR_NULL(CT_ERR_INDEX, "tuple index out of range");
    return roll_one(t, shifts.data[0], dims.data[0]);
  }
  if (shifts.ndim == 0) return CT_ERR_NULL(CT_ERR_RUNTIME, "`shifts` required");
  if (dims.ndim == 0 && shifts.ndim == 1) return ct__roll_impl(t, shifts, dims); /* flatten, roll, view */
  if (shifts.ndim != dims.ndim)
    return CT_ERR_NULL(CT_ERR_RUNTIME, "shifts and dimensions must align. shifts: %lld, dims: %lld",
                       (long long)shifts.ndim, (long long)dims.ndim);
  ct_tensor *first = roll_meta(t, (ct_shape){shifts.data, 1}, (ct_dims){dims.data, 1});
  ct_tensor *r = first ? roll_meta(first, (ct_shape){shifts.data + 1, shifts.ndim - 1},
                                   (ct_dims){dims.data + 1, dims.ndim - 1})
                       : NULL;
  ct_release(first);
  return r;
}

ct_tensor *ct__roll_impl(const ct_tensor *t, ct_shape shifts, ct_dims dims) {
  /* (roll_meta calls this for the flatten path: a non-empty tensor, so no loop) */
  if (!ct__check_list(shifts, "shifts") || !ct__check_list(dims, "dims")) return NULL;
  bool flat_path = dims.ndim == 0 && shifts.ndim == 1;
  if (t->device_type == CT_META && (!flat_path || t->numel == 0)) return roll_meta(t, shifts, dims);
  if (dims.ndim == 1 && shifts.ndim == 1) return roll_one(t, shifts.data[0], dims.data[0]);
  if (shifts.ndim == 0) return CT_ERR_NULL(CT_ERR_RUNTIME, "`shifts` required");
  if (dims.ndim == 0 && shifts.ndim == 1) {
    /* self.contiguous().view(numel), rolled along 0, viewed back */
    ct_tensor *c = ct__geom_is_contiguous(t->ndim, t->sizes, t->strides) ? ct__same(t) : ct__join_clone(t, CT_CONTIGUOUS_FORMAT);
    if (!c) return NULL;
    int64_t n = t->numel;
    ct_tensor *flat = ct__view_impl(c, (ct_shape){&n, 1});
    ct_release(c);
    ct_tensor *rolled = flat ? roll_one(flat, shifts.data[0], 0) : NULL;
    ct_release(flat);
    ct_tensor *r = rolled ? ct__view_impl(rolled, (ct_shape){t->sizes, t->ndim}) : NULL;
    ct_release(rolled);
    return r;
  }
  if (shifts.ndim != dims.ndim) {
    return CT_ERR_NULL(CT_ERR_RUNTIME, "shifts and dimensions must align. shifts: %lld, dims:%lld",
                       (long long)shifts.ndim, (long long)dims.ndim);
  }
  ct_tensor *cur = ct__same(t);
  for (int64_t i = 0; cur && i < dims.ndim; i++) {
    ct_tensor *next = roll_one(cur, shifts.data[i], dims.data[i]);
    ct_release(cur);
    cur = next;
  }
  return cur;
}

ct_tensor *ct_roll(const ct_tensor *t, ct_shape shifts, const ct_roll_opts *opts) {
  CT__OP_ENTER_PTR(&roll_op, t, t);
  ct_dims dims = opts ? opts->dims : (ct_dims){NULL, 0};
  return own_result(ct__roll_impl(t, shifts, dims), t);
}

ct_tensor *ct_rot90(const ct_tensor *t, int64_t k, const ct_rot90_opts *opts) {
  CT__OP_ENTER_PTR(&rot90_op, t, t);
  int64_t def[2] = {0, 1};
  ct_dims dims = opts && opts->dims.ndim ? opts->dims : (ct_dims){def, 2};
  if (!ct__check_list(dims, "dims")) return NULL;
  int64_t n = t->ndim;
  if (dims.ndim != 2)
    return CT_ERR_NULL(CT_ERR_RUNTIME, "expected total rotation dims == 2, but got dims = %lld", (long long)dims.ndim);
  if (n < 2) return CT_ERR_NULL(CT_ERR_RUNTIME, "expected total dims >= 2, but got total dims = %lld", (long long)n);
  int64_t d0 = dims.data[0], d1 = dims.data[1];
  if (d0 == d1 || (d0 - d1 == n || d1 - d0 == n))
    return CT_ERR_NULL(CT_ERR_RUNTIME, "expected rotation dims to be different, but got dim0 = %lld and dim1 = %lld",
                       (long long)d0, (long long)d1);
  if (!(d0 < n && d0 >= -n)) return CT_ERR_NULL(CT_ERR_RUNTIME, "Rotation dim0 out of range, dim0 = %lld", (long long)d0);
  if (!(d1 < n && d1 >= -n)) return CT_ERR_NULL(CT_ERR_RUNTIME, "Rotation dim1 out of range, dim1 = %lld", (long long)d1);
  k = (4 + (k % 4)) % 4;
  ct_tensor *r = NULL;
  if (k == 0) {
    r = ct__join_clone(t, CT_CONTIGUOUS_FORMAT);
  } else if (k == 2) {
    r = ct__flip_impl(t, dims);
  } else {
    ct_tensor *f = ct__flip_impl(t, (ct_dims){k == 1 ? &dims.data[1] : &dims.data[0], 1});
    r = f ? ct__transpose_impl(f, d0, d1) : NULL;
    ct_release(f);
  }
  return own_result(r, t);
}
