/* Views that reorder dims: transpose, t, T, mT, permute, movedim. */
#include "ops/view_internal.h"
#include "ops/view_op.h"

/* torch computes transpose, t and mT on every sparse layout (a CSR transpose is CSC): ctorch has none yet. */
static const ct_view_op transpose_op = {CT_VIEW_OP("transpose", "aten::transpose.int", CT_LAYOUTS_ALL)};
static const ct_view_op t_op = {CT_VIEW_OP("t", "aten::t", CT_LAYOUTS_ALL)};
static const ct_view_op mT_op = {CT_VIEW_OP("mT", "aten::mT", CT_LAYOUTS_ALL)};
/* COO tensors permute (pending in ctorch); compressed ones reach as_strided, which has no kernel for them */
static const ct_view_op T_op = {CT_VIEW_OP("numpy_T", "aten::numpy_T", CT_LAYOUTS_ALL),
                                .compressed = CT_SPARSE_AS_STRIDED};
static const ct_view_op permute_op = {CT_VIEW_OP("permute", "aten::permute", CT_LAYOUTS_ALL),
                                      .compressed = CT_SPARSE_AS_STRIDED};
static const ct_view_op movedim_op = {CT_VIEW_OP("movedim", "aten::movedim.intlist", CT_LAYOUTS_ALL),
                                      .compressed = CT_SPARSE_AS_STRIDED};

ct_tensor *ct__alias_impl(const ct_tensor *t) {
  return ct__view_geom(t, t->ndim, t->sizes, t->strides, t->offset);
}

ct_tensor *ct__permute_unchecked(const ct_tensor *t, const int64_t *order) {
  ct_tensor *v = ct__view_shell(t, t->ndim, t->offset);
  if (!v) return NULL;
  for (int64_t i = 0; i < t->ndim; i++) {
    v->sizes[i] = t->sizes[order[i]];
    v->strides[i] = t->strides[order[i]];
  }
  return ct__view_done(v);
}

ct_tensor *ct__transpose_impl(const ct_tensor *t, int64_t dim0, int64_t dim1) {
  int64_t d0 = ct__wrap_dim(dim0, t->ndim);
  if (d0 < 0) return NULL;
  int64_t d1 = ct__wrap_dim(dim1, t->ndim);
  if (d1 < 0) return NULL;
  if (d0 == d1) return ct__alias_impl(t);
  ct_tensor *v = ct__alias_impl(t);
  if (!v) return NULL;
  v->sizes[d0] = t->sizes[d1];
  v->sizes[d1] = t->sizes[d0];
  v->strides[d0] = t->strides[d1];
  v->strides[d1] = t->strides[d0];
  return v;
}

ct_tensor *ct_transpose(const ct_tensor *t, int64_t dim0, int64_t dim1) {
  CT__VIEW_ENTER_PTR(&transpose_op, t, t);
  return ct__own(ct__transpose_impl(t, dim0, dim1));
}

ct_tensor *ct__t_impl(const ct_tensor *t) {
  if (t->ndim > 2)
    return CT_ERR_NULL(CT_ERR_RUNTIME, "t() expects a tensor with <= 2 dimensions, but self is %dD", (int)t->ndim);
  return ct__transpose_impl(t, 0, t->ndim < 2 ? 0 : 1);
}

ct_tensor *ct_t(const ct_tensor *t) {
  CT__VIEW_ENTER_PTR(&t_op, t, t);
  return ct__own(ct__t_impl(t));
}

/* numpy_T: every dim reversed. PyTorch 1.13 only warns (deprecation) for ndim other than 2. */
ct_tensor *ct__T_impl(const ct_tensor *t) {
  ct_tensor *v = ct__view_shell(t, t->ndim, t->offset);
  if (!v) return NULL;
  for (int64_t i = 0, n = t->ndim; i < n; i++) {
    v->sizes[i] = t->sizes[n - 1 - i];
    v->strides[i] = t->strides[n - 1 - i];
  }
  return ct__view_done(v);
}

ct_tensor *ct_T(const ct_tensor *t) {
  CT__VIEW_ENTER_PTR(&T_op, t, t);
  return ct__own(ct__T_impl(t));
}

ct_tensor *ct__mT_impl(const ct_tensor *t) {
  /* PyTorch 1.13 hands a 0-dim tensor back as itself. */
  if (t->ndim == 0) return ct__same(t);
  if (t->ndim < 2)
    return CT_ERR_NULL(CT_ERR_RUNTIME, "tensor.mT is only supported on matrices or batches of matrices. Got %d-D tensor.",
                       (int)t->ndim);
  return ct__transpose_impl(t, -2, -1);
}

ct_tensor *ct_mT(const ct_tensor *t) {
  CT__VIEW_ENTER_PTR(&mT_op, t, t);
  return ct__own(ct__mT_impl(t));
}

ct_tensor *ct_permute(const ct_tensor *t, ct_dims dims) {
  CT__VIEW_ENTER_PTR(&permute_op, t, t);
  return ct__check_list(dims, "dims") ? ct__own(ct__permute_impl(t, dims)) : NULL;
}

ct_tensor *ct__permute_impl(const ct_tensor *t, ct_dims dims) {
  int64_t n = t->ndim;
  if (dims.ndim != n)
    return CT_ERR_NULL(CT_ERR_RUNTIME,
                       "permute(sparse_coo): number of dimensions in the tensor input does not match the length of "
                       "the desired ordering of dimensions i.e. input.dim() = %lld is not equal to len(dims) = %lld",
                       (long long)n, (long long)dims.ndim);
  ct_tensor *v = ct__view_shell(t, n, t->offset);
  if (!v) return NULL;
  /* The shell's arrays serve as scratch until filled: strides[i] holds the wrapped order, sizes[d]
     marks d as seen. Each i then reads strides[i] before overwriting it. */
  for (int64_t d = 0; d < n; d++) v->sizes[d] = 0;
  for (int64_t i = 0; i < n; i++) {
    int64_t d = ct__wrap_dim(dims.data[i], n);
    if (d < 0) goto fail;
    if (v->sizes[d]) {
      ct__error(CT_ERR_RUNTIME, "permute(): duplicate dims are not allowed.");
      goto fail;
    }
    v->sizes[d] = 1;
    v->strides[i] = d;
  }
  for (int64_t i = 0; i < n; i++) {
    int64_t d = v->strides[i];
    v->sizes[i] = t->sizes[d];
    v->strides[i] = t->strides[d];
  }
  return ct__view_done(v);
fail:
  ct_release(v);
  return NULL;
}

/* Wraps every dim of a movedim list (IndexError on the first bad one). */
static bool wrap_all(ct_dims dims, int64_t ndim) {
  for (int64_t i = 0; i < dims.ndim; i++)
    if (ct__wrap_dim(dims.data[i], ndim) < 0) return false;
  return true;
}

/* True when two entries of an already wrapped-valid list name the same dim; seen has ndim slots. */
static bool has_repeat(ct_dims dims, int64_t ndim, bool *seen) {
  for (int64_t d = 0; d < (ndim ? ndim : 1); d++) seen[d] = false;
  for (int64_t i = 0; i < dims.ndim; i++) {
    int64_t d = ct__wrap_dim(dims.data[i], ndim);
    if (seen[d]) return true;
    seen[d] = true;
  }
  return false;
}

ct_tensor *ct_movedim(const ct_tensor *t, ct_dims source, ct_dims destination) {
  CT__VIEW_ENTER_PTR(&movedim_op, t, t);
  if (!ct__check_list(source, "source") || !ct__check_list(destination, "destination")) return NULL;
  return ct__own(ct__movedim_impl(t, source, destination));
}

ct_tensor *ct__movedim_impl(const ct_tensor *t, ct_dims source, ct_dims destination) {
  char sb[2048], db[2048];
  int64_t n = t->ndim;
  if (source.ndim != destination.ndim) {
    ct__fmt_int_list(sb, sizeof sb, source.ndim, source.data);
    ct__fmt_int_list(db, sizeof db, destination.ndim, destination.data);
    return CT_ERR_NULL(CT_ERR_RUNTIME,
                       "movedim: Invalid source or destination dims: source (%s dims) should contain the same "
                       "number of dims as destination (%s dims)",
                       sb, db);
  }
  if (!wrap_all(source, n) || !wrap_all(destination, n)) return NULL;
  /* One block: a seen flag per dim for the repeat checks, then the permutation being built. */
  int64_t slots = n ? n : 1;
  int64_t *order = ct__malloc((size_t)slots * (sizeof(int64_t) + 1));
  if (!order) return NULL;
  bool *seen = (bool *)(order + slots);
  ct_tensor *v = NULL;
  if (has_repeat(source, n, seen)) {
    ct__fmt_int_list(sb, sizeof sb, source.ndim, source.data);
    ct__error(CT_ERR_RUNTIME, "movedim: repeated dim in `source` (%s)", sb);
  } else if (has_repeat(destination, n, seen)) {
    ct__fmt_int_list(db, sizeof db, destination.ndim, destination.data);
    ct__error(CT_ERR_RUNTIME, "movedim: repeated dim in `destination` (%s)", db);
  } else if (n == 0) {
    v = ct__alias_impl(t);
  } else {
    /* Named dims go where asked; the others keep their relative order in the free positions. */
    for (int64_t p = 0; p < n; p++) {
      order[p] = -1;
      seen[p] = false; /* now: source dim p was placed */
    }
    for (int64_t i = 0; i < source.ndim; i++) {
      int64_t s = ct__wrap_dim(source.data[i], n), d = ct__wrap_dim(destination.data[i], n);
      order[d] = s;
      seen[s] = true;
    }
    int64_t s = 0;
    for (int64_t p = 0; p < n; p++) {
      if (order[p] >= 0) continue;
      while (seen[s]) s++;
      order[p] = s++;
    }
    v = ct__permute_unchecked(t, order);
  }
  ct__free(order);
  return v;
}
