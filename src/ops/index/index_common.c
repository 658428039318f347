/* What the index ops' forms share: the functional result made from self, the out= tail, the in-place
   target with math bits, the overlap refusal, index values read and checked. */
#include "core/cast.h"
#include "core/layout_rules.h"
#include "ops/convert_internal.h"
#include "ops/create_internal.h"
#include "ops/index/index_ops.h"
#include "ops/view_internal.h"
#include "core/out_wrapper.h"

ct_tensor *ct__idx_out_twin(const ct_tensor *out, const ct_tensor *self) {
  int64_t nd = self->ndim, st[64];
  if (nd > 64) return CT_ERR_NULL(CT_ERR_NOT_IMPLEMENTED, "index ops support tensors of up to 64 dims");
  if (ct__has_sizes(out, nd, self->sizes) && !ct__has_internal_overlap(out))
    memcpy(st, out->strides, (size_t)nd * sizeof *st);
  else
    ct__format_strides(nd, self->sizes, CT_CONTIGUOUS_FORMAT, st);
  ct_resolved_opts o = {(ct_dtype)self->dtype, ct__tdevice(self), CT_CONTIGUOUS_FORMAT, false};
  if (self->numel == 0) {
    int64_t n = (int64_t)(out->storage->nbytes / ct__itemsize((ct_dtype)self->dtype));
    ct_tensor *base = ct__empty_with((ct_shape){&n, 1}, &o);
    ct_tensor *r = base ? ct__view_geom(base, nd, self->sizes, st, out->offset) : NULL;
    ct_release(base);
    return r;
  }
  ct_tensor *r = ct__empty_strided_with(nd, self->sizes, st, &o);
  if (r && ct__copy_into(r, self) != CT_OK) {
    ct_release(r);
    return NULL;
  }
  return r;
}

ct_tensor *ct__idx_contiguous(const ct_tensor *t) {
  if (!ct__math_bits(t) && ct__geom_is_contiguous(t->ndim, t->sizes, t->strides)) return ct_retain((ct_tensor *)t);
  return ct__idx_copy_as(t, (ct_dtype)t->dtype, CT_CONTIGUOUS_FORMAT);
}

ct_tensor *ct__idx_as(const ct_tensor *t, ct_dtype dt) {
  if ((ct_dtype)t->dtype == dt && !ct__math_bits(t)) return ct_retain((ct_tensor *)t);
  return ct__idx_copy_as(t, dt, CT_PRESERVE_FORMAT);
}

ct_tensor *ct__idx_fresh(const ct_tensor *self, ct_memory_format fmt) {
  return ct__idx_copy_as(self, (ct_dtype)self->dtype, fmt);
}

bool ct__idx_out_dtype(const ct_tensor *out, const ct_tensor *like) {
  return ct__resize_out_ok(out, (ct_dtype)like->dtype, ct__tdevice(like));
}

ct_status ct__idx_copy_out(ct_tensor *out, ct_tensor *r) {
  if (!r) return ct_last_error();
  ct_status s = CT_OK;
  if (!ct__check_copy_devices(out, r)) s = CT_ERR_RUNTIME;
  if (s == CT_OK && !ct__has_sizes(out, r->ndim, r->sizes)) s = ct__tensor_resize(out, r->ndim, r->sizes, NULL);
  if (s == CT_OK) s = ct__copy_into(out, r);
  ct_release(r);
  return s;
}

ct_tensor *ct__idx_target_begin(ct_tensor *self, bool no_internal_overlap) {
  if (!ct__check_inplace(self) || !ct__check_in_storage(self)) return NULL;
  if (no_internal_overlap && !ct__check_no_internal_overlap(self)) return NULL;
  return ct__math_bits(self) ? ct__resolve_bits(self) : ct__alias_impl(self);
}

ct_status ct__idx_target_end(ct_tensor *self, ct_tensor *target, ct_status s) {
  if (s == CT_OK && target->storage != self->storage) s = ct__math_bits_write_back(self, target);
  ct_release(target);
  return s;
}

/* get_overlap_status(a, b) is PARTIAL or FULL. */
static bool overlaps(const ct_tensor *a, const ct_tensor *b) {
  if (a == b) return true;
  if (a->storage != b->storage || a->numel == 0 || b->numel == 0) return false;
  if (ct__partial_overlap(a, b)) return true;
  return ct__is_non_overlapping_and_dense(a) && ct__is_non_overlapping_and_dense(b) && a->offset == b->offset &&
         a->numel == b->numel && a->dtype == b->dtype;
}

bool ct__idx_no_overlap(const ct_tensor *self, const ct_tensor *other) {
  if (!overlaps(self, other)) return true;
  ct__error(CT_ERR_RUNTIME, "unsupported operation: some elements of the input tensor and the written-to tensor "
                            "refer to a single memory location. Please clone() the tensor before performing the "
                            "operation.");
  return false;
}

int64_t ct__idx_value_at(const ct_tensor *index, int64_t k) {
  int64_t off = index->offset;
  for (int64_t d = index->ndim - 1; d >= 0; d--) {
    int64_t sz = index->sizes[d];
    off += (k % sz) * index->strides[d];
    k /= sz;
  }
  const char *base = (const char *)index->storage->data;
  return index->dtype == CT_INT32 ? ((const int32_t *)base)[off] : ((const int64_t *)base)[off];
}

bool ct__idx_find_bad(const ct_tensor *index, int64_t lo, int64_t hi, int64_t *bad) {
  int64_t n = index->numel, nd = index->ndim;
  if (n == 0 || index->device_type == CT_META) return false; /* meta: no values, torch checks none */
  /* the common int64 vector: tested at once, walked below only to name a bad value */
  if (nd == 1 && index->dtype == CT_INT64 && lo < hi &&
      !ct__idx_any_outside((const int64_t *)index->storage->data + index->offset, n, index->strides[0], lo, hi))
    return false;
  if (nd > 64) {
    for (int64_t e = 0; e < n; e++) {
      int64_t v = ct__idx_value_at(index, e);
      if (v < lo || v >= hi) return *bad = v, true;
    }
    return false;
  }
  int64_t pos[64] = {0}, off = index->offset;
  const char *base = (const char *)index->storage->data;
  bool i32 = index->dtype == CT_INT32;
  for (int64_t e = 0; e < n; e++) {
    int64_t v = i32 ? ((const int32_t *)base)[off] : ((const int64_t *)base)[off];
    if (v < lo || v >= hi) {
      *bad = v;
      return true;
    }
    for (int64_t d = nd - 1; d >= 0; d--) {
      off += index->strides[d];
      if (++pos[d] < index->sizes[d]) break;
      off -= index->strides[d] * index->sizes[d];
      pos[d] = 0;
    }
  }
  return false;
}
