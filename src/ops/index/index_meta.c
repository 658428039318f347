/* The index ops' meta kernels: what torch 1.13 runs when a call dispatches to the meta device (CT__OP_ON_META),
   which is not the CPU kernel with the values left out. A structured op's meta function checks shapes and
   dtypes but runs no dtype dispatch (complex amax, bool mean and out-of-range scalars pass) and reads no index
   value; index_select has a Python meta kernel (torch/_meta_registrations.py); index_put_, index_fill_, put_
   and masked_scatter_ have Meta kernels that check nothing and return self, so their functional forms are the
   composite's clone (preserve format; masked_scatter: expand_outplace, then a contiguous clone). */
#include "core/layout_rules.h"
#include "iter/iter.h"
#include "ops/index/index_ops.h"
#include "ops/view_internal.h"

#define CT_MAX_DIMS 64 /* the stack arrays' rank, as the CPU kernels' */

/* meta_index_select: result_size = list(self.size()); if self.dim() > 0: result_size[dim] = index.numel()
   (Python's list assignment: dim counts from the end when negative, no other wrapping or check). */
static bool select_sizes(const ct_tensor *self, int64_t dim, const ct_tensor *index, int64_t *sz) {
  int64_t nd = self->ndim;
  if (nd > CT_MAX_DIMS) {
    ct__error(CT_ERR_NOT_IMPLEMENTED, "index_select supports tensors of up to %d dims", CT_MAX_DIMS);
    return false;
  }
  memcpy(sz, self->sizes, (size_t)nd * sizeof *sz);
  if (nd == 0) return true;
  if (dim < -nd || dim >= nd) {
    ct__error(CT_ERR_INDEX, "list assignment index out of range");
    return false;
  }
  sz[dim < 0 ? dim + nd : dim] = index->numel;
  return true;
}

ct_tensor *ct__index_select_meta(const ct_tensor *self, int64_t dim, const ct_tensor *index) {
  int64_t sz[CT_MAX_DIMS];
  if (!select_sizes(self, dim, index, sz)) return NULL;
  ct_resolved_opts o = {(ct_dtype)self->dtype, CT_DEVICE_META, CT_CONTIGUOUS_FORMAT, false};
  return ct__empty_with((ct_shape){sz, self->ndim}, &o);
}

/* meta_index_select_out: torch._resize_output_(out, self.size(), self.device) first (out keeps that shape
   when the rest fails), then index_select, then out.copy_(result), which the meta device does not check. */
ct_status ct__index_select_out_meta(ct_tensor *out, const ct_tensor *self, int64_t dim,
                                    const ct_tensor *index) {
  /* torch._resize_output_(out, self.size(), self.device) on a meta out: its device check first */
  if (out->device_type == CT_META && self->device_type != CT_META) {
    ct__error(CT_ERR_RUNTIME, "out Tensor doesn't have the correct device set");
    return CT_ERR_RUNTIME;
  }
  if (!ct__tensor_resize_ok(out, self->ndim, self->sizes)) return ct_last_error();
  if (!ct__has_sizes(out, self->ndim, self->sizes)) {
    ct_status s = ct__tensor_resize(out, self->ndim, self->sizes, NULL);
    if (s != CT_OK) return s;
  }
  int64_t sz[CT_MAX_DIMS];
  return select_sizes(self, dim, index, sz) ? CT_OK : ct_last_error();
}

/* TensorIterator::borrowing_binary_op(out, out, b) on shapes: b broadcast with out must give out's shape
   ("The size of tensor a ... must match", then "output with shape ... doesn't match the broadcast shape"). */
bool ct__index_slices_fit(int64_t na, const int64_t *a, int64_t nb, const int64_t *b) {
  int64_t shape[CT_MAX_DIMS];
  if (na > CT_MAX_DIMS || nb > CT_MAX_DIMS) {
    ct__error(CT_ERR_NOT_IMPLEMENTED, "index ops support tensors of up to %d dims", CT_MAX_DIMS);
    return false;
  }
  if (ct__broadcast_shapes(a, na, b, nb, shape) != CT_OK) return false;
  int64_t n = na > nb ? na : nb;
  if (n == na && !memcmp(shape, a, (size_t)na * sizeof *a)) return true;
  char sa[1024], sb[1024];
  ct__fmt_int_list(sa, sizeof sa, na, a);
  ct__fmt_int_list(sb, sizeof sb, n, shape);
  ct__error(CT_ERR_RUNTIME, "output with shape %s doesn't match the broadcast shape %s", sa, sb);
  return false;
}

ct_tensor *ct__index_func_meta(const char *func, ct_tensor *result, const ct_tensor *self, int64_t dim,
                               const ct_tensor *index, const ct_tensor *source) {
  dim = ct__wrap_dim(dim, self->ndim);
  if (dim < 0 || !ct__index_func_checks(func, self, dim, index, source)) return NULL;
  /* set_output_raw_strided(0, self.sizes(), {}, self.options()) */
  ct_tensor *r;
  if (!result) {
    ct_resolved_opts o = {(ct_dtype)self->dtype, CT_DEVICE_META, CT_CONTIGUOUS_FORMAT, false};
    r = ct__empty_with((ct_shape){self->sizes, self->ndim}, &o);
    if (!r) return NULL;
  } else {
    r = result;
    if (r != self) { /* out=: the structured out's dtype and device, then resize_output */
      if (!ct__idx_out_dtype(r, self) || !ct__tensor_resize_ok(r, self->ndim, self->sizes)) return NULL;
      if (!ct__has_sizes(r, self->ndim, self->sizes) &&
          ct__tensor_resize(r, self->ndim, self->sizes, NULL) != CT_OK)
        return NULL;
    }
    if (!ct__check_no_internal_overlap(r) || !ct__idx_no_overlap(r, index) || !ct__idx_no_overlap(r, source))
      return NULL;
  }
  /* torch's "hack to run TensorIterator checks in the meta function": the first slices' binary iterator */
  if (r->ndim > 0) {
    ct_tensor *rs = ct__select_impl(r, dim, 0), *ss = rs ? ct__select_impl(source, dim, 0) : NULL;
    bool ok = ss && ct__index_slices_fit(rs->ndim, rs->sizes, ss->ndim, ss->sizes);
    ct_release(rs);
    ct_release(ss);
    if (!ok) {
      if (!result) ct_release(r);
      return NULL;
    }
  }
  return r;
}

ct_status ct__scatter_meta(ct_tensor *target, int64_t dim, const ct_tensor *index, const ct_tensor *src,
                           const char *name, bool inplace) {
  /* scatter_meta_impl: the dtype and shape checks; the overlap asserts on a given output; no kernel */
  dim = ct__wrap_dim(dim, target->ndim);
  if (dim < 0) return CT_ERR_INDEX;
  if (!ct__scatter_checks(name, target, dim, index, src)) return ct_last_error();
  if (inplace && (!ct__check_no_internal_overlap(target) || !ct__idx_no_overlap(target, index) ||
                  (src && !ct__idx_no_overlap(target, src))))
    return CT_ERR_RUNTIME;
  return CT_OK;
}
