/* Views that re-describe the whole tensor: view, reshape, as_strided, expand and their _as forms. */
#include "ops/view_internal.h"
#include "ops/view_op.h"

/* aten::view has no sparse kernel; view_as runs it (its errors name aten::view). */
static const ct_view_op view_op = {CT_VIEW_OP("view", "aten::view", 0)};
static const ct_view_op view_as_op = {CT_VIEW_OP("view_as", "aten::view", 0)};
/* reshape is a composite: its own check refuses COO, its read of the strides the compressed layouts. */
static const ct_view_op reshape_op = {CT_VIEW_OP_RESHAPE("reshape", "aten::reshape")};
static const ct_view_op reshape_as_op = {CT_VIEW_OP_RESHAPE("reshape_as", "aten::reshape_as")};
static const ct_view_op as_strided_op = {CT_VIEW_OP("as_strided", "aten::as_strided", 0)};
/* expand's composite dispatches as_strided (no sparse kernel) after reading a compressed tensor's strides */
static const ct_view_op expand_op = {CT_VIEW_OP_AS_STRIDED("expand", "aten::expand")};
static const ct_view_op expand_as_op = {CT_VIEW_OP_AS_STRIDED("expand_as", "aten::expand_as")};
static const ct_view_op broadcast_to_op = {CT_VIEW_OP_AS_STRIDED("broadcast_to", "aten::broadcast_to")};

ct_tensor *ct__view_impl(const ct_tensor *t, ct_shape shape) {
  ct_tensor *v = ct__view_shell(t, shape.ndim, t->offset);
  if (!v) return NULL;
  if (ct__infer_size(shape, t->numel, v->sizes) != CT_INFER_OK) goto fail;
  if (!ct__compute_view_strides(t, v->ndim, v->sizes, v->strides)) {
    ct__error(CT_ERR_RUNTIME,
              "view size is not compatible with input tensor's size and stride (at least one dimension spans "
              "across two contiguous subspaces). Use .reshape(...) instead.");
    goto fail;
  }
  return ct__view_done(v);
fail:
  ct_release(v);
  return NULL;
}

/* A view when the memory allows one, otherwise v is moved onto a contiguous copy of t, as PyTorch's
   reshape does (_unsafe_view of clone). */
ct_tensor *ct__reshape_shell(const ct_tensor *t, ct_tensor *v) {
  /* torch 1.13's reshape computes the old shape's numel and the new strides in SymInt arithmetic: a wrapped
     product below -2^62 (an empty tensor with huge dims: reshape(9, 6908528427954061507, 0, 2) of
     zeros(0), any reshape of zeros(0).view(3, 3454264213977030753, 0)) is SymInt's own range */
  if (t->numel == 0 && !ct__symint_product_ok(t->ndim, t->sizes)) { /* a non-empty one's products fit */
    ct_release(v);
    return NULL;
  }
  if (ct__compute_view_strides(t, v->ndim, v->sizes, v->strides)) {
    for (int64_t d = 0; t->numel == 0 && d < v->ndim; d++)
      if (v->strides[d] < CT_SYMINT_MIN) {
        ct_release(v);
        ct__symint_error();
        return NULL;
      }
    return ct__view_done(v);
  }
  /* clone registers its result with the innermost scope; a private scope releases it once v
     holds the copy's storage. */
  ct_scope_begin();
  ct_tensor *c = ct__clone_impl(t, CT_CONTIGUOUS_FORMAT);
  bool ok = c != NULL;
  if (ok) {
    ct_storage *old = v->storage;
    v->storage = ct_storage_retain(c->storage);
    ct_storage_release(old);
    v->offset = c->offset;
    v->flags = (uint8_t)(v->flags & ~CT_TENSOR_MATH_BITS); /* the copy holds the values: no bits to apply */
    ok = ct__compute_view_strides(c, v->ndim, v->sizes, v->strides); /* always true: c is contiguous */
  }
  ct_scope_end();
  if (!ok) {
    ct_release(v);
    return NULL;
  }
  return ct__view_done(v);
}

ct_tensor *ct__reshape_impl(const ct_tensor *t, ct_shape shape) {
  ct_tensor *v = ct__view_shell(t, shape.ndim, t->offset);
  if (!v) return NULL;
  if (ct__infer_size_symint(shape, t->numel, v->sizes) != CT_INFER_OK) {
    ct_release(v);
    return NULL;
  }
  return ct__reshape_shell(t, v);
}

ct_tensor *ct_view(const ct_tensor *t, ct_shape shape) {
  CT__VIEW_ENTER_PTR(&view_op, t, t);
  return ct__check_list(shape, "shape") ? ct__own(ct__view_impl(t, shape)) : NULL;
}

ct_tensor *ct_reshape(const ct_tensor *t, ct_shape shape) {
  CT__VIEW_ENTER_PTR(&reshape_op, t, t);
  return ct__check_list(shape, "shape") ? ct__own(ct__reshape_impl(t, shape)) : NULL;
}

ct_tensor *ct_view_as(const ct_tensor *t, const ct_tensor *other) {
  CT__VIEW_ENTER_PTR(&view_as_op, t, t, other);
  return ct__own(ct__view_impl(t, ct_shape_of(other)));
}

ct_tensor *ct_reshape_as(const ct_tensor *t, const ct_tensor *other) {
  CT__VIEW_ENTER_PTR(&reshape_as_op, t, t, other);
  return ct__own(ct__reshape_impl(t, ct_shape_of(other)));
}

ct_tensor *ct__as_strided_impl(const ct_tensor *t, ct_shape size, ct_shape stride,
                               const int64_t *storage_offset) {
  if (size.ndim != stride.ndim) return CT_ERR_NULL(CT_ERR_RUNTIME, "mismatch in length of strides and shape");
  int64_t offset = storage_offset ? *storage_offset : t->offset;
  if (!ct__check_as_strided(t, size.ndim, size.data, stride.data, offset)) return NULL;
  return ct__view_geom(t, size.ndim, size.data, stride.data, offset);
}

ct_tensor *ct_as_strided(const ct_tensor *t, ct_shape size, ct_shape stride, const int64_t *storage_offset) {
  CT__VIEW_ENTER_PTR(&as_strided_op, t, t);
  if (!ct__check_list(size, "size") || !ct__check_list(stride, "stride")) return NULL;
  return ct__own(ct__as_strided_impl(t, size, stride, storage_offset));
}

/* inferExpandGeometry, then as_strided's checks (only the numel check can fire: a -2 target size
   passes the geometry rules and is refused there, as in PyTorch). */
ct_tensor *ct__expand_impl(const ct_tensor *t, ct_shape shape) {
  int64_t ndim = shape.ndim, tdim = t->ndim;
  if (ndim < tdim) {
    char type[64], sizes[2048], target[2048];
    ct__tensor_type_str(t, type, sizeof type);
    ct__fmt_int_list(sizes, sizeof sizes, tdim, t->sizes);
    ct__fmt_int_list(target, sizeof target, ndim, shape.data);
    return CT_ERR_NULL(CT_ERR_RUNTIME,
                       "expand(%s{%s}, size=%s): the number of sizes provided (%lld) must be greater or equal to "
                       "the number of dimensions in the tensor (%lld)",
                       type, sizes, target, (long long)ndim, (long long)tdim);
  }
  ct_tensor *v = ct__view_shell(t, ndim, t->offset);
  if (!v) return NULL;
  if (tdim == 0) {
    /* A 0-dim tensor takes the sizes as given, every stride 0. */
    for (int64_t i = 0; i < ndim; i++) {
      v->sizes[i] = shape.data[i];
      v->strides[i] = 0;
    }
  }
  for (int64_t i = ndim - 1; tdim > 0 && i >= 0; i--) {
    int64_t dim = tdim - 1 - (ndim - 1 - i); /* the input dim aligned with i, from the right */
    int64_t size = dim >= 0 ? t->sizes[dim] : 1;
    int64_t stride = dim >= 0 ? t->strides[dim] : (int64_t)((uint64_t)v->sizes[i + 1] * (uint64_t)v->strides[i + 1]);
    int64_t target = shape.data[i];
    if (target == -1) {
      if (dim < 0) {
        ct_release(v);
        return CT_ERR_NULL(CT_ERR_RUNTIME,
                           "The expanded size of the tensor (-1) isn't allowed in a leading, non-existing "
                           "dimension %lld",
                           (long long)i);
      }
      target = size;
    }
    if (size != target) {
      if (size != 1) {
        char target_s[2048], sizes_s[2048];
        ct__fmt_int_list(target_s, sizeof target_s, ndim, shape.data);
        ct__fmt_int_list(sizes_s, sizeof sizes_s, tdim, t->sizes);
        ct_release(v);
        return CT_ERR_NULL(CT_ERR_RUNTIME,
                           "The expanded size of the tensor (%lld) must match the existing size (%lld) at "
                           "non-singleton dimension %lld.  Target sizes: %s.  Tensor sizes: %s",
                           (long long)target, (long long)size, (long long)i, target_s, sizes_s);
      }
      size = target;
      stride = 0;
    }
    v->sizes[i] = size;
    v->strides[i] = stride;
  }
  if (!ct__check_as_strided(t, ndim, v->sizes, v->strides, t->offset)) {
    ct_release(v);
    return NULL;
  }
  return ct__view_done(v);
}

ct_tensor *ct_expand(const ct_tensor *t, ct_shape shape) {
  CT__VIEW_ENTER_PTR(&expand_op, t, t);
  return ct__check_list(shape, "shape") ? ct__own(ct__expand_impl(t, shape)) : NULL;
}

ct_tensor *ct_expand_as(const ct_tensor *t, const ct_tensor *other) {
  CT__VIEW_ENTER_PTR(&expand_as_op, t, t, other);
  return ct__own(ct__expand_impl(t, ct_shape_of(other)));
}

/* torch.broadcast_to is expand under another name: same geometry, same messages. */
ct_tensor *ct_broadcast_to(const ct_tensor *t, ct_shape shape) {
  CT__VIEW_ENTER_PTR(&broadcast_to_op, t, t);
  return ct__check_list(shape, "shape") ? ct__own(ct__expand_impl(t, shape)) : NULL;
}
