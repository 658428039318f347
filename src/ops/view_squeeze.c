/* Views that drop or add size-1 dims: squeeze (all, one dim, a list of dims) and unsqueeze. */
#include "ops/view_internal.h"
#include "ops/view_op.h"

/* squeeze's composite reads a compressed tensor's strides, and dispatches as_strided (no sparse kernel) for a
   COO one; torch computes unsqueeze of a COO tensor (pending in ctorch) */
static const ct_view_op squeeze_op = {CT_VIEW_OP_AS_STRIDED("squeeze", "aten::squeeze")};
static const ct_view_op squeeze_dim_op = {CT_VIEW_OP_AS_STRIDED("squeeze", "aten::squeeze.dim")};
static const ct_view_op squeeze_dims_op = {CT_VIEW_OP_AS_STRIDED("squeeze", "aten::squeeze.dims")};
static const ct_view_op unsqueeze_op = {CT_VIEW_OP("unsqueeze", "aten::unsqueeze", CT_LAYOUTS_ALL),
                                        .compressed = CT_SPARSE_NO_STRIDES};

/* Which dims a squeeze may drop: all of them, one, or those in a mask (the list form). Only dims of
   size 1 are dropped in any case. */
typedef struct squeeze_sel {
  bool all;
  int64_t one; /* -1: none */
  uint64_t mask;
} squeeze_sel;

static bool selected(const squeeze_sel *sel, int64_t d) {
  return sel->all || d == sel->one || (d < 64 && ((sel->mask >> d) & 1u));
}

static ct_tensor *squeeze(const ct_tensor *t, const squeeze_sel *sel) {
  int64_t kept = 0;
  for (int64_t d = 0; d < t->ndim; d++) kept += !(t->sizes[d] == 1 && selected(sel, d));
  ct_tensor *v = ct__view_shell(t, kept, t->offset);
  if (!v) return NULL;
  for (int64_t d = 0, k = 0; d < t->ndim; d++) {
    if (t->sizes[d] == 1 && selected(sel, d)) continue;
    v->sizes[k] = t->sizes[d];
    v->strides[k++] = t->strides[d];
  }
  return ct__view_done(v);
}

ct_tensor *ct__squeeze_impl(const ct_tensor *t) { return squeeze(t, &(squeeze_sel){.all = true, .one = -1}); }

ct_tensor *ct_squeeze(const ct_tensor *t) {
  CT__VIEW_ENTER_PTR(&squeeze_op, t, t);
  return ct__own(ct__squeeze_impl(t));
}

ct_tensor *ct__squeeze_dim_impl(const ct_tensor *t, int64_t dim) {
  int64_t d = ct__wrap_dim(dim, t->ndim);
  if (d < 0) return NULL;
  return squeeze(t, &(squeeze_sel){.one = t->ndim ? d : -1});
}

ct_tensor *ct_squeeze_dim(const ct_tensor *t, int64_t dim) {
  CT__VIEW_ENTER_PTR(&squeeze_dim_op, t, t);
  return ct__own(ct__squeeze_dim_impl(t, dim));
}

ct_tensor *ct_squeeze_dims(const ct_tensor *t, ct_dims dims) {
  CT__VIEW_ENTER_PTR(&squeeze_dims_op, t, t);
  return ct__check_list(dims, "dims") ? ct__own(ct__squeeze_dims_impl(t, dims)) : NULL;
}

/* PyTorch 2.0's squeeze(dims): at::dim_list_to_bitset's checks, then every listed size-1 dim goes. */
ct_tensor *ct__squeeze_dims_impl(const ct_tensor *t, ct_dims dims) {
  if (t->ndim > 64) return CT_ERR_NULL(CT_ERR_RUNTIME, "only tensors with up to 64 dims are supported");
  uint64_t mask = 0;
  for (int64_t i = 0; i < dims.ndim; i++) {
    int64_t d = ct__wrap_dim(dims.data[i], t->ndim);
    if (d < 0) return NULL;
    if ((mask >> d) & 1u)
      return CT_ERR_NULL(CT_ERR_RUNTIME, "dim %lld appears multiple times in the list of dims", (long long)d);
    mask |= (uint64_t)1 << d;
  }
  /* A 0-dim tensor has nothing to drop even though dim 0 wraps. */
  if (t->ndim == 0) mask = 0;
  return squeeze(t, &(squeeze_sel){.one = -1, .mask = mask});
}

ct_tensor *ct_unsqueeze(const ct_tensor *t, int64_t dim) {
  CT__VIEW_ENTER_PTR(&unsqueeze_op, t, t);
  return ct__own(ct__unsqueeze_impl(t, dim));
}

ct_tensor *ct__unsqueeze_impl(const ct_tensor *t, int64_t dim) {
  int64_t n = t->ndim;
  int64_t d = ct__wrap_dim(dim, n + 1);
  if (d < 0) return NULL;
  ct_tensor *v = ct__view_shell(t, n + 1, t->offset);
  if (!v) return NULL;
  for (int64_t i = 0, k = 0; i <= n; i++) {
    if (i == d) {
      /* inferUnsqueezeGeometry: the new dim strides over the dim it lands before. */
      v->sizes[i] = 1;
      v->strides[i] = d >= n ? 1 : (int64_t)((uint64_t)t->sizes[d] * (uint64_t)t->strides[d]);
      continue;
    }
    v->sizes[i] = t->sizes[k];
    v->strides[i] = t->strides[k++];
  }
  /* torch 1.13's unsqueeze is as_strided with its strides made SymInts: a wrapped stride in SymInt's own
     range (unsqueeze(0) of zeros(0).view(3, 3454264213977030753, 0)) is refused */
  for (int64_t i = 0; i <= n; i++)
    if (v->strides[i] < CT_SYMINT_MIN) {
      int64_t bad = v->strides[i];
      ct_release(v);
      return CT_ERR_NULL(CT_ERR_RUNTIME,
                         "IntArrayRef contains an int that cannot be represented as a SymInt: %lld",
                         (long long)bad);
    }
  return ct__view_done(v);
}
