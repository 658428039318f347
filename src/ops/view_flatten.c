/* flatten (a range of dims into one, through reshape) and unflatten (one dim into several, a view). */
#include "ops/view_internal.h"
#include "ops/view_op.h"

/* flatten's composite reshapes: reshape's refusals */
static const ct_view_op flatten_op = {CT_VIEW_OP_RESHAPE("flatten", "aten::flatten.using_ints")};
/* unflatten's composite runs aten::view, which has no sparse kernel */
static const ct_view_op unflatten_op = {CT_VIEW_OP("unflatten", "aten::view", 0)};

ct_tensor *ct_flatten(const ct_tensor *t, int64_t start_dim, int64_t end_dim) {
  CT__VIEW_ENTER_PTR(&flatten_op, t, t);
  return ct__own(ct__flatten_impl(t, start_dim, end_dim));
}

ct_tensor *ct__flatten_impl(const ct_tensor *t, int64_t start_dim, int64_t end_dim) {
  int64_t n = t->ndim;
  int64_t s = ct__wrap_dim(start_dim, n);
  if (s < 0) return NULL;
  int64_t e = ct__wrap_dim(end_dim, n);
  if (e < 0) return NULL;
  if (s > e) return CT_ERR_NULL(CT_ERR_RUNTIME, "flatten() has invalid args: start_dim cannot come after end_dim");
  if (n == 0) return ct__reshape_impl(t, CT_SHAPE(1));
  if (s == e) return ct__same(t); /* PyTorch returns self */
  ct_tensor *v = ct__view_shell(t, n - (e - s), t->offset);
  if (!v) return NULL;
  /* Sizes only: the folded dims' product is taken as is (infer_size on -1 would be ambiguous for
     shapes holding a 0, e.g. [0, 1, 3, 0]). */
  int64_t k = 0, folded = 1;
  for (int64_t d = 0; d < s; d++) v->sizes[k++] = t->sizes[d];
  for (int64_t d = s; d <= e; d++) folded = (int64_t)((uint64_t)folded * (uint64_t)t->sizes[d]);
  v->sizes[k++] = folded;
  for (int64_t d = e + 1; d < n; d++) v->sizes[k++] = t->sizes[d];
  if (folded < CT_SYMINT_MIN) { /* SymInt's own range, where torch's reshape makes the shape SymInts */
    ct_release(v);
    ct__symint_error();
    return NULL;
  }
  if (folded < 0) { /* a product past 2^63 - 1 (a shape holding a 0 elsewhere): torch's reshape refuses its
                       wrapped value ("invalid shape dimension -1084680380077834243"), or infers a -1 */
    ct_tensor *r = ct__reshape_impl(t, (ct_shape){v->sizes, k});
    ct_release(v);
    return r;
  }
  return ct__reshape_shell(t, v);
}

ct_tensor *ct_unflatten(const ct_tensor *t, int64_t dim, ct_shape sizes) {
  CT__VIEW_ENTER_PTR(&unflatten_op, t, t);
  return ct__check_list(sizes, "sizes") ? ct__own(ct__unflatten_impl(t, dim, sizes)) : NULL;
}

ct_tensor *ct__unflatten_impl(const ct_tensor *t, int64_t dim, ct_shape sizes) {
  if (sizes.ndim == 0) return CT_ERR_NULL(CT_ERR_RUNTIME, "unflatten: sizes must be non-empty");
  int64_t d = ct__wrap_dim(dim, t->ndim);
  if (d < 0) return NULL;
  if (ct__size_dim(t, d) < 0) return NULL;
  int64_t n = t->ndim, k = sizes.ndim;
  ct_tensor *v = ct__view_shell(t, n - 1 + k, t->offset);
  if (!v) return NULL;
  ct_infer_result r = ct__infer_size(sizes, t->sizes[d], v->sizes + d);
  if (r != CT_INFER_OK) {
    /* PyTorch catches infer_size's std::runtime_error kinds and rewords them; the others pass. */
    if (r == CT_INFER_TWO_INFERRED) {
      ct__error(CT_ERR_RUNTIME, "unflatten got an unexpected error:\nonly one dimension can be inferred");
    } else if (r == CT_INFER_WRONG_NUMEL) {
      char buf[2048];
      ct__fmt_int_list(buf, sizeof buf, k, sizes.data);
      ct__error(CT_ERR_RUNTIME,
                "unflatten: Provided sizes %s don't multiply up to the size of dim %lld (%lld) in the input tensor",
                buf, (long long)d, (long long)t->sizes[d]);
    }
    ct_release(v);
    return NULL;
  }
  for (int64_t i = 0; i < d; i++) v->sizes[i] = t->sizes[i];
  for (int64_t i = d + 1; i < n; i++) v->sizes[i - 1 + k] = t->sizes[i];
  /* Splitting one dim is always a valid view. */
  if (!ct__compute_view_strides(t, v->ndim, v->sizes, v->strides)) {
    ct_release(v);
    return CT_ERR_NULL(CT_ERR_RUNTIME, "unflatten: internal error: no view for the unflattened shape");
  }
  return ct__view_done(v);
}
