/* narrow_copy and the scatter forms of the views (select_scatter, slice_scatter, diagonal_scatter,
   as_strided_scatter) as torch 1.13 computes them: a clone of the input (preserve format) with src copied
   into the view, after torch's size check; narrow_copy as narrow_copy_dense_cpu (its checks, in its order). */
#include "ops/join/join_internal.h"

static const ct_op narrow_copy_op = CT_JOIN_OP("narrow_copy", "aten::narrow_copy");
/* no derivative: autograd treats out as an in-place target (check_inplace) */
static const ct_op narrow_copy_out_op = {.name = "narrow_copy", .aten = "aten::narrow_copy.out", .grad = CT_OP_GRAD_OUT_INPLACE,
                                         CT_COPY_ROWS_CPU};
static const ct_op select_scatter_op = CT_JOIN_OP("select_scatter", "aten::select_scatter");
static const ct_op slice_scatter_op = CT_JOIN_OP("slice_scatter", "aten::slice_scatter");
static const ct_op diagonal_scatter_op = CT_JOIN_OP("diagonal_scatter", "aten::diagonal_scatter");
static const ct_op as_strided_scatter_op = CT_JOIN_OP("as_strided_scatter", "aten::as_strided_scatter");

/* narrow_copy_dense_cpu_out's checks: the narrowed dim (wrapped) and start (wrapped), or -1. */
static int64_t narrow_copy_check(const ct_tensor *t, int64_t dim, int64_t *start, int64_t length) {
  if (t->ndim == 0) return (ct__error(CT_ERR_RUNTIME, "narrow() cannot be applied to a 0-dim tensor."), -1);
  int64_t d = dim < 0 ? ct__wrap_dim(dim, t->ndim) : dim;
  if (d < 0) return -1;
  if (d >= t->ndim) {
    ct__error(CT_ERR_RUNTIME, "Expected dim < static_cast<int64_t>(self_sizes.size()) to be true, but got false.  "
                              "(Could this error message be improved?  If so, please report an enhancement request to "
                              "PyTorch.)");
    return -1;
  }
  int64_t cur = t->sizes[d];
  if (*start != cur && *start < 0 && (*start = ct__wrap_dim(*start, cur)) < 0) return -1;
  if (!(length >= 0 && *start <= cur - length)) {
    ct__error(CT_ERR_RUNTIME, "start (%lld) + length (%lld) exceeds dimension size (%lld).", (long long)*start,
              (long long)length, (long long)cur);
    return -1;
  }
  return d;
}

/* narrow_copy_dense_cpu_out's memcpy: src's elements in row-major order from out's data pointer on, whatever
   out's strides (torch assumes resize_output made it contiguous; one of the narrowed shape keeps its own). */
static ct_status write_in_memory_order(ct_tensor *out, const ct_tensor *src) {
  int64_t st[CT_JOIN_MAXDIM];
  ct__contiguous_strides(src->ndim, src->sizes, st);
  int64_t need = ct__required_storage_elems(src->ndim, src->sizes, st, out->offset);
  if (out->device_type != CT_META && need * (int64_t)ct__itemsize((ct_dtype)out->dtype) > (int64_t)out->storage->nbytes) {
    ct__error(CT_ERR_RUNTIME, "narrow_copy: out's storage is smaller than the narrowed tensor");
    return CT_ERR_RUNTIME;
  }
  ct_tensor *flat = ct__view(out, src->ndim, src->sizes, st, out->offset);
  ct_status s = flat ? ct__copy_into(flat, src) : ct_last_error();
  ct_release(flat);
  return s;
}

/* The meta device runs narrow_copy's CompositeExplicitAutogradNonFunctional kernel: narrow (its checks and
   messages), then a contiguous clone. */
static ct_tensor *narrow_copy_meta(const ct_tensor *t, int64_t dim, int64_t start, int64_t length) {
  ct_tensor *v = ct__narrow_impl(t, dim, start, length);
  ct_tensor *r = v ? ct__join_empty(v, v->ndim, v->sizes, (ct_dtype)t->dtype) : NULL;
  ct_release(v);
  return r;
}

ct_tensor *ct_narrow_copy(const ct_tensor *t, int64_t dim, int64_t start, int64_t length) {
  CT__OP_ENTER_PTR(&narrow_copy_op, t, t);
  if (t->device_type == CT_META) {
    ct_tensor *m = narrow_copy_meta(t, dim, start, length);
    if (m) ct__grad_mark_result(m, t);
    return ct__own(m);
  }
  int64_t d = narrow_copy_check(t, dim, &start, length);
  if (d < 0) return NULL;
  ct_tensor *v = ct__narrow_impl(t, d, start, length);
  if (!v) return NULL;
  /* empty_like(self) resized to the narrowed shape: self's layout when the size stays, else contiguous */
  ct_resolved_opts o = {(ct_dtype)t->dtype, ct__tdevice(t), CT_PRESERVE_FORMAT, false};
  ct_tensor *r = length == t->sizes[d] ? ct__empty_like_with(t, CT_PRESERVE_FORMAT, &o) : ct__join_empty(v, v->ndim, v->sizes, (ct_dtype)t->dtype);
  if (r && write_in_memory_order(r, v) != CT_OK) {
    ct_release(r);
    r = NULL;
  }
  ct_release(v);
  if (r) ct__grad_mark_result(r, t);
  return ct__own(r);
}

ct_status ct_narrow_copy_out(ct_tensor *out, const ct_tensor *t, int64_t dim, int64_t start, int64_t length) {
  CT__NONNULL_STATUS(out, t);
  if (!ct__check_inplace(out)) return CT_ERR_RUNTIME; /* autograd, before the dispatcher */
  if (!CT__OP_ACCEPTS(&narrow_copy_out_op, narrow_copy_out_op.aten, out, t)) return ct_last_error();
  if (t->ndim == 0) return (ct__error(CT_ERR_RUNTIME, "narrow() cannot be applied to a 0-dim tensor."), CT_ERR_RUNTIME);
  if (out->dtype != t->dtype) {
    ct__error(CT_ERR_RUNTIME, "Expected self.dtype() == output.dtype() to be true, but got false.  (Could this error "
                              "message be improved?  If so, please report an enhancement request to PyTorch.)");
    return CT_ERR_RUNTIME;
  }
  int64_t d = narrow_copy_check(t, dim, &start, length);
  if (d < 0) return ct_last_error();
  ct_tensor *v = ct__narrow_impl(t, d, start, length);
  if (!v) return ct_last_error();
  ct_status s = ct__tensor_resize_ok(out, v->ndim, v->sizes) ? ct__join_fit_out(out, v->ndim, v->sizes) : ct_last_error();
  if (s == CT_OK) s = write_in_memory_order(out, v);
  ct_release(v);
  if (s == CT_OK) ct__grad_mark_out(out, &t, 1);
  return s;
}

/* output = self.clone(); view = make(output); sizes must equal src's; view.copy_(src). */
typedef ct_tensor *(*view_fn)(const ct_tensor *t, const void *args);

static ct_tensor *scatter_into_view(const ct_tensor *t, const ct_tensor *src, view_fn make, const void *args) {
  ct_tensor *out = ct__join_clone(t, CT_PRESERVE_FORMAT);
  ct_tensor *v = out ? make(out, args) : NULL;
  ct_status s = v ? CT_OK : ct_last_error();
  if (s == CT_OK && (v->ndim != src->ndim || memcmp(v->sizes, src->sizes, (size_t)v->ndim * sizeof(int64_t)) != 0)) {
    char a[512], b[512];
    ct__fmt_int_list(a, sizeof a, src->ndim, src->sizes);
    ct__fmt_int_list(b, sizeof b, v->ndim, v->sizes);
    ct__error(CT_ERR_RUNTIME, "expected src to have a size equal to the slice of self. src size = %s, slice size = %s",
              a, b);
    s = CT_ERR_RUNTIME;
  }
  if (s == CT_OK) s = ct__copy_into(v, src);
  ct_release(v);
  if (s != CT_OK) {
    ct_release(out);
    return NULL;
  }
  ct__grad_mark_result(out, t);
  ct__grad_mark_result(out, src);
  return out;
}

typedef struct { int64_t a, b, c, d; } four;
typedef struct { ct_shape size, stride; const int64_t *offset; } strided_args;

static ct_tensor *select_view(const ct_tensor *t, const void *p) {
  const four *f = p;
  return ct__select_impl(t, f->a, f->b);
}
static ct_tensor *slice_view(const ct_tensor *t, const void *p) {
  const four *f = p;
  return ct__slice_impl(t, f->a, f->b, f->c, f->d);
}
static ct_tensor *diagonal_view(const ct_tensor *t, const void *p) {
  const four *f = p;
  return ct__diagonal_impl(t, f->a, f->b, f->c);
}
static ct_tensor *strided_view(const ct_tensor *t, const void *p) {
  const strided_args *s = p;
  return ct__as_strided_impl(t, s->size, s->stride, s->offset);
}

ct_tensor *ct_select_scatter(const ct_tensor *t, const ct_tensor *src, int64_t dim, int64_t index) {
  CT__NONNULL_PTR(t, src);
  if (!CT__OP_ACCEPTS(&select_scatter_op, select_scatter_op.aten, t, src)) return NULL;
  return ct__own(scatter_into_view(t, src, select_view, &(four){dim, index, 0, 0}));
}
ct_tensor *ct_slice_scatter(const ct_tensor *t, const ct_tensor *src, int64_t dim, int64_t start, int64_t end,
                            int64_t step) {
  CT__NONNULL_PTR(t, src);
  if (!CT__OP_ACCEPTS(&slice_scatter_op, slice_scatter_op.aten, t, src)) return NULL;
  return ct__own(scatter_into_view(t, src, slice_view, &(four){dim, start, end, step}));
}
ct_tensor *ct_diagonal_scatter(const ct_tensor *t, const ct_tensor *src, int64_t offset, int64_t dim1, int64_t dim2) {
  CT__NONNULL_PTR(t, src);
  if (!CT__OP_ACCEPTS(&diagonal_scatter_op, diagonal_scatter_op.aten, t, src)) return NULL;
  return ct__own(scatter_into_view(t, src, diagonal_view, &(four){offset, dim1, dim2, 0}));
}
ct_tensor *ct_as_strided_scatter(const ct_tensor *t, const ct_tensor *src, ct_shape size, ct_shape stride,
                                 const int64_t *storage_offset) {
  CT__NONNULL_PTR(t, src);
  if (!CT__OP_ACCEPTS(&as_strided_scatter_op, as_strided_scatter_op.aten, t, src)) return NULL;
  if (!ct__check_list(size, "size") || !ct__check_list(stride, "stride")) return NULL;
  return ct__own(scatter_into_view(t, src, strided_view, &(strided_args){size, stride, storage_offset}));
}
