/* Views of part of a tensor: slice, narrow, select, unfold, diagonal. */
#include "ops/view_internal.h"
#include "ops/view_op.h"

/* slice, narrow and diagonal read a compressed tensor's strides and dispatch as_strided (no sparse kernel)
   for a COO one; torch computes select on every layout (pending in ctorch); aten::unfold has no sparse kernel */
static const ct_view_op slice_op = {CT_VIEW_OP_AS_STRIDED("slice", "aten::slice.Tensor")};
static const ct_view_op narrow_op = {CT_VIEW_OP_AS_STRIDED("narrow", "aten::narrow")};
static const ct_view_op diagonal_op = {CT_VIEW_OP_AS_STRIDED("diagonal", "aten::diagonal")};
static const ct_view_op select_op = {CT_VIEW_OP("select", "aten::select.int", CT_LAYOUTS_ALL)};
static const ct_view_op unfold_op = {CT_VIEW_OP("unfold", "aten::unfold", 0)};

/* base + index * stride as torch's int64 computes it (wrapping: a huge stride on a dim of an empty tensor),
   then as_strided's refusal of a negative offset: [-2^63, -2^62) is SymInt's symbolic range. Records the
   error and returns -1 for an offset that cannot be. */
static int64_t view_offset(int64_t base, int64_t index, int64_t stride) {
  int64_t offset = (int64_t)((uint64_t)base + (uint64_t)ct__mul_wrap(index, stride));
  if (offset < CT_SYMINT_MIN) ct__symint_error();
  else if (offset < 0)
    ct__error(CT_ERR_RUNTIME, "Tensor: invalid storage offset %lld", (long long)offset);
  return offset < 0 ? -1 : offset;
}

ct_tensor *ct__slice_impl(const ct_tensor *t, int64_t dim, int64_t start, int64_t end, int64_t step) {
  if (t->ndim == 0) return CT_ERR_NULL(CT_ERR_INDEX, "slice() cannot be applied to a 0-dim tensor.");
  int64_t d = ct__wrap_dim(dim, t->ndim);
  if (d < 0) return NULL;
  if (step <= 0) return CT_ERR_NULL(CT_ERR_RUNTIME, "slice step must be positive");
  /* Python's clamping: negatives count from the end, then both ends are clamped into [0, size]. */
  int64_t size = t->sizes[d];
  if (start < 0) start += size;
  if (end < 0) end += size;
  if (start < 0)
    start = 0;
  else if (start >= size)
    start = size;
  if (end < start)
    end = start;
  else if (end >= size)
    end = size;
  int64_t len = end - start;
  int64_t offset = view_offset(t->offset, start, t->strides[d]);
  if (offset < 0) return NULL;
  ct_tensor *v = ct__alias_impl(t);
  if (!v) return NULL;
  v->offset = offset;
  /* ceil(len / step) written so a huge step cannot overflow. */
  v->sizes[d] = len == 0 ? 0 : (len - 1) / step + 1;
  v->strides[d] = (int64_t)((uint64_t)t->strides[d] * (uint64_t)step);
  return ct__view_done(v);
}

ct_tensor *ct_slice(const ct_tensor *t, int64_t dim, int64_t start, int64_t end, int64_t step) {
  CT__VIEW_ENTER_PTR(&slice_op, t, t);
  return ct__own(ct__slice_impl(t, dim, start, end, step));
}

ct_tensor *ct__narrow_impl(const ct_tensor *t, int64_t dim, int64_t start, int64_t length) {
  if (t->ndim == 0) return CT_ERR_NULL(CT_ERR_RUNTIME, "narrow() cannot be applied to a 0-dim tensor.");
  int64_t d = ct__wrap_dim(dim, t->ndim);
  if (d < 0) return NULL;
  int64_t cur = t->sizes[d];
  /* start == size is a valid (empty) start but not a valid index, so it is not wrapped. */
  if (start != cur) {
    start = ct__wrap_dim(start, cur);
    if (start < 0) return NULL;
  }
  if (length < 0 || start > cur - length)
    return CT_ERR_NULL(CT_ERR_RUNTIME, "start (%lld) + length (%lld) exceeds dimension size (%lld).",
                       (long long)start, (long long)length, (long long)cur);
  return ct__slice_impl(t, d, start, start + length, 1);
}

ct_tensor *ct_narrow(const ct_tensor *t, int64_t dim, int64_t start, int64_t length) {
  CT__VIEW_ENTER_PTR(&narrow_op, t, t);
  return ct__own(ct__narrow_impl(t, dim, start, length));
}

ct_tensor *ct__select_impl(const ct_tensor *t, int64_t dim, int64_t index) {
  if (t->ndim == 0) return CT_ERR_NULL(CT_ERR_INDEX, "select() cannot be applied to a 0-dim tensor.");
  int64_t d = ct__wrap_dim(dim, t->ndim);
  if (d < 0) return NULL;
  int64_t size = t->sizes[d];
  if (index < -size || index >= size) {
    char buf[2048];
    ct__fmt_int_list(buf, sizeof buf, t->ndim, t->sizes);
    return CT_ERR_NULL(CT_ERR_INDEX, "select(): index %lld out of range for tensor of size %s at dimension %lld",
                       (long long)index, buf, (long long)d);
  }
  if (index < 0) index += size;
  int64_t offset = view_offset(t->offset, index, t->strides[d]);
  if (offset < 0) return NULL;
  ct_tensor *v = ct__view_shell(t, t->ndim - 1, offset);
  if (!v) return NULL;
  for (int64_t i = 0, k = 0; i < t->ndim; i++) {
    if (i == d) continue;
    v->sizes[k] = t->sizes[i];
    v->strides[k++] = t->strides[i];
  }
  return ct__view_done(v);
}

ct_tensor *ct_select(const ct_tensor *t, int64_t dim, int64_t index) {
  CT__VIEW_ENTER_PTR(&select_op, t, t);
  return ct__own(ct__select_impl(t, dim, index));
}

ct_tensor *ct_unfold(const ct_tensor *t, int64_t dimension, int64_t size, int64_t step) {
  CT__VIEW_ENTER_PTR(&unfold_op, t, t);
  return ct__own(ct__unfold_impl(t, dimension, size, step));
}

ct_tensor *ct__unfold_impl(const ct_tensor *t, int64_t dimension, int64_t size, int64_t step) {
  int64_t n = t->ndim;
  int64_t d = ct__wrap_dim(dimension, n);
  if (d < 0) return NULL;
  /* A 0-dim tensor unfolds as if it were one element long. */
  int64_t max_size = n == 0 ? 1 : t->sizes[d];
  if (size > max_size)
    return CT_ERR_NULL(CT_ERR_RUNTIME, "maximum size for tensor at dimension %lld is %lld but size is %lld",
                       (long long)d, (long long)max_size, (long long)size);
  if (step <= 0) return CT_ERR_NULL(CT_ERR_RUNTIME, "step is %lld but must be > 0", (long long)step);
  ct_tensor *v = ct__view_shell(t, n + 1, t->offset);
  if (!v) return NULL;
  if (n) {
    memcpy(v->sizes, t->sizes, (size_t)n * sizeof(int64_t));
    memcpy(v->strides, t->strides, (size_t)n * sizeof(int64_t));
    v->sizes[d] = (int64_t)((uint64_t)t->sizes[d] - (uint64_t)size) / step + 1; /* wraps like ATen's */
    v->strides[d] = (int64_t)((uint64_t)t->strides[d] * (uint64_t)step);
  }
  v->sizes[n] = size;
  v->strides[n] = n == 0 ? 1 : t->strides[d];
  /* PyTorch finishes with as_strided, whose checks refuse e.g. a negative window size. */
  if (!ct__check_as_strided(t, n + 1, v->sizes, v->strides, t->offset)) {
    ct_release(v);
    return NULL;
  }
  return ct__view_done(v);
}

ct_tensor *ct_diagonal(const ct_tensor *t, int64_t offset, int64_t dim1, int64_t dim2) {
  CT__VIEW_ENTER_PTR(&diagonal_op, t, t);
  return ct__own(ct__diagonal_impl(t, offset, dim1, dim2));
}

ct_tensor *ct__diagonal_impl(const ct_tensor *t, int64_t offset, int64_t dim1, int64_t dim2) {
  int64_t n = t->ndim;
  int64_t d1 = ct__wrap_dim(dim1, n);
  if (d1 < 0) return NULL;
  int64_t d2 = ct__wrap_dim(dim2, n);
  if (d2 < 0) return NULL;
  if (d1 == d2)
    return CT_ERR_NULL(CT_ERR_RUNTIME, "diagonal dimensions cannot be identical %lld, %lld", (long long)dim1,
                       (long long)dim2);
  /* A positive offset drops leading columns (along dim2), a negative one leading rows (along dim1). */
  int64_t s1 = t->sizes[d1], s2 = t->sizes[d2];
  int64_t diag = offset >= 0 ? (s1 < s2 - offset ? s1 : s2 - offset) : (s1 + offset < s2 ? s1 + offset : s2);
  if (diag < 0) diag = 0;
  int64_t start = t->offset;
  if (diag > 0) start = offset >= 0 ? view_offset(start, offset, t->strides[d2]) : view_offset(start, -offset, t->strides[d1]);
  if (start < 0) return NULL;
  ct_tensor *v = ct__view_shell(t, n - 1, start);
  if (!v) return NULL;
  /* The two dims go; their diagonal is appended last, as NumPy does. */
  for (int64_t i = 0, k = 0; i < n; i++) {
    if (i == d1 || i == d2) continue;
    v->sizes[k] = t->sizes[i];
    v->strides[k++] = t->strides[i];
  }
  v->sizes[n - 2] = diag;
  v->strides[n - 2] = t->strides[d1] + t->strides[d2];
  return ct__view_done(v);
}
