/* index_put as a function (indices as a tensor list), take and put: the flat forms run gather and scatter
   over self read as one row-major vector (negative indices counting from the end), index_put runs
   aten::index_put_ (index_advanced.c). */
#include "core/cast.h"
#include "core/layout_rules.h"
#include "ops/convert_internal.h"
#include "ops/create_internal.h"
#include "ops/index/index_ops.h"
#include "iter/iter_geom.h"
#include "ops/view_internal.h"

static const char flat_row[1];
static const ct_op index_put_op = {
    .name = "index_put", .aten = "aten::index_put", .kernels = {[CT_CPU] = flat_row, [CT_META] = flat_row}};
static const ct_op index_put_inplace_op = {
    .name = "index_put", .aten = "aten::index_put_", .kernels = {[CT_CPU] = flat_row, [CT_META] = flat_row}};
static const ct_op take_op = {.name = "take", .aten = "aten::take", .kernels = {[CT_CPU] = flat_row}};
static const ct_op take_out_op = {.name = "take", .aten = "aten::take.out", .kernels = {[CT_CPU] = flat_row}};
static const ct_op put_op = {
    .name = "put", .aten = "aten::put", .kernels = {[CT_CPU] = flat_row, [CT_META] = flat_row}};
static const ct_op put_inplace_op = {
    .name = "put", .aten = "aten::put_", .kernels = {[CT_CPU] = flat_row, [CT_META] = flat_row}};

/* ---- index_put ---- */

static ct_status index_put_into(ct_tensor *target, ct_tensors indices, const ct_tensor *values,
                                const ct_index_put_opts *opts) {
  return ct__index_put_impl(target, indices.data, indices.n, values, opts && opts->accumulate);
}

static bool list_ok(ct_tensors indices, const ct_tensor *self) {
  if (indices.n < 0 || (indices.n > 0 && !indices.data)) {
    ct__error(CT_ERR_VALUE, "index_put: the indices list is malformed");
    return false;
  }
  unsigned key = ct__op_key(self);
  for (int64_t i = 0; i < indices.n; i++)
    if (indices.data[i]) key |= ct__op_key(indices.data[i]);
  return ct__op_accepts_key(&index_put_op, index_put_op.aten, key);
}

ct_tensor *ct_index_put(const ct_tensor *t, ct_tensors indices, const ct_tensor *values,
                        const ct_index_put_opts *opts) {
  CT__OP_ENTER_PTR(&index_put_op, t, t, values);
  if (!list_ok(indices, t)) return NULL;
  ct_tensor *r = ct__idx_fresh(t, CT_PRESERVE_FORMAT);
  if (r && index_put_into(r, indices, values, opts) != CT_OK) {
    ct_release(r);
    r = NULL;
  }
  return ct__own(r);
}

ct_status ct_index_put_tensors_(ct_tensor *self, ct_tensors indices, const ct_tensor *values,
                                const ct_index_put_opts *opts) {
  CT__OP_ENTER_STATUS(&index_put_inplace_op, self, self, values);
  if (!list_ok(indices, self)) return ct_last_error();
  if (!ct__check_inplace(self)) return CT_ERR_RUNTIME;
  return index_put_into(self, indices, values, opts);
}

/* ---- take ---- */

/* The index flattened, negative values counted from the end, checked against numel (torch's messages). */
static ct_tensor *flat_index(const ct_tensor *index, int64_t numel, const char *empty_msg) {
  if (numel == 0 && index->numel != 0) return CT_ERR_NULL(CT_ERR_INDEX, "%s", empty_msg);
  ct_tensor *iv = ct__idx_copy_as(index, (ct_dtype)(index)->dtype, CT_CONTIGUOUS_FORMAT);
  if (!iv) return NULL;
  int64_t n = iv->numel, *p = (int64_t *)ct__tdata(iv);
  for (int64_t k = 0; k < n; k++) {
    if (p[k] < -numel || p[k] >= numel) {
      ct__error(CT_ERR_INDEX, "out of range: tried to access index %lld on a tensor of %lld elements.",
                (long long)p[k], (long long)numel);
      ct_release(iv);
      return NULL;
    }
    if (p[k] < 0) p[k] += numel;
  }
  ct_tensor *f = ct__reshape_impl(iv, (ct_shape){&n, 1});
  ct_release(iv);
  return f;
}

static ct_tensor *take_impl(const ct_tensor *self, const ct_tensor *index) {
  if (index->dtype != CT_INT64)
    return CT_ERR_NULL(CT_ERR_RUNTIME, "take(): Expected a long tensor for index, but got %s",
                       ct__dt((ct_dtype)index->dtype)->scalar_name);
  ct_tensor *iv = flat_index(index, self->numel, "take(): tried to take from an empty tensor");
  if (!iv) return NULL;
  int64_t m1 = -1;
  ct_tensor *flat = ct__reshape_impl(self, (ct_shape){&m1, 1});
  ct_tensor *g = flat ? ct__gather_impl(flat, 0, iv) : NULL;
  ct_tensor *r = g ? ct__view_impl(g, (ct_shape){index->sizes, index->ndim}) : NULL;
  ct_release(g);
  ct_release(flat);
  ct_release(iv);
  return r;
}

ct_tensor *ct_take(const ct_tensor *t, const ct_tensor *index) {
  CT__OP_ENTER_PTR(&take_op, t, t, index);
  if (!CT__OP_ACCEPTS(&take_op, take_op.aten, t, index)) return NULL;
  return ct__own(take_impl(t, index));
}

ct_status ct_take_out(ct_tensor *out, const ct_tensor *t, const ct_tensor *index) {
  CT__OP_ENTER_STATUS(&take_out_op, t, out, t, index);
  if (!CT__OP_OUT_GRAD_OK(&take_out_op, out, t, index)) return CT_ERR_RUNTIME;
  if (!CT__OP_ACCEPTS(&take_out_op, take_out_op.aten, out, t, index)) return ct_last_error();
  if (index->dtype != CT_INT64) {
    ct__error(CT_ERR_RUNTIME, "take(): Expected a long tensor for index, but got %s",
              ct__dt((ct_dtype)index->dtype)->scalar_name);
    return CT_ERR_RUNTIME;
  }
  if (out->dtype != t->dtype) {
    ct__error(CT_ERR_RUNTIME, "take(): self and out expected to have the same dtype, but got self.dtype = %s and "
                              "out.dtype = %s", ct__dt((ct_dtype)t->dtype)->scalar_name,
              ct__dt((ct_dtype)out->dtype)->scalar_name);
    return CT_ERR_RUNTIME;
  }
  if (!ct__idx_no_overlap(out, t) || !ct__idx_no_overlap(out, index)) return CT_ERR_RUNTIME;
  return ct__idx_copy_out(out, take_impl(t, index));
}

/* ---- put ---- */

/* x (source's shape) flattened in the order torch's put_ walks (source, index) with TensorIterator: its
   dims ordered by the strides of source, then of index.reshape(source's shape) (a view when it can be). A
   repeated index keeps the value that comes last in that order: a transposed source is walked column
   by column. order: source's dims, slowest first (walk_order). */
static ct_tensor *in_walk_order(const ct_tensor *x, const int64_t *order, int64_t nd) {
  int64_t n = x->numel;
  ct_tensor *p = ct__permute_impl(x, (ct_dims){order, nd});
  ct_tensor *f = p ? ct__reshape_impl(p, (ct_shape){&n, 1}) : NULL;
  ct_release(p);
  return f;
}

static bool walk_order(const ct_tensor *source, const ct_tensor *index, int64_t *order) {
  int64_t nd = source->ndim, shape[64], r0[64], r1[64], perm[64], tmp[64];
  if (nd > 64) {
    ct__error(CT_ERR_NOT_IMPLEMENTED, "put supports tensors of up to 64 dims");
    return false;
  }
  ct_tensor *ir = ct__reshape_impl(index, (ct_shape){source->sizes, nd});
  if (!ir) return false;
  memcpy(shape, source->sizes, (size_t)nd * sizeof *shape);
  int64_t isz = (int64_t)ct__itemsize((ct_dtype)source->dtype);
  for (int64_t d = 0; d < nd; d++) r0[d] = source->strides[d] * isz, r1[d] = ir->strides[d] * 8;
  ct_release(ir);
  ct_geom g = {.nd = nd, .n_rows = 2, .shape = shape, .rows = {r0, r1}};
  ct__geom_arrange(&g, 0, CT_GEOM_NO_COALESCE, perm, tmp);
  for (int64_t k = 0; k < nd; k++) order[k] = perm[nd - 1 - k];
  return true;
}

static ct_status put_into(ct_tensor *target, const ct_tensor *index, const ct_tensor *source,
                          const ct_index_put_opts *opts, bool inplace) {
  if (index->dtype != CT_INT64) {
    ct__error(CT_ERR_RUNTIME, "put_(): Expected a long tensor for index, but got %s",
              ct__dt((ct_dtype)index->dtype)->scalar_name);
    return CT_ERR_RUNTIME;
  }
  if (target->dtype != source->dtype) {
    ct__error(CT_ERR_RUNTIME, "put_(): self and source expected to have the same dtype, but got self.dtype = %s and "
                              "source.dtype = %s", ct__dt((ct_dtype)target->dtype)->scalar_name,
              ct__dt((ct_dtype)source->dtype)->scalar_name);
    return CT_ERR_RUNTIME;
  }
  if (source->numel != index->numel) {
    ct__error(CT_ERR_INDEX, "put_(): Expected source and index to have the same number of elements, but got "
                            "source.numel() = %lld, index.numel() = %lld", (long long)source->numel,
              (long long)index->numel);
    return CT_ERR_INDEX;
  }
  if (inplace && !ct__check_no_internal_overlap(target)) return CT_ERR_RUNTIME;
  if (index->numel == 0) return CT_OK;
  ct_tensor *iv = flat_index(index, target->numel, "put_(): Tried to put elements into an empty tensor");
  if (!iv) return ct_last_error();
  int64_t m1 = -1, order[64];
  ct_tensor *src = NULL;
  if (walk_order(source, index, order)) {
    int64_t nd = source->ndim;
    ct_tensor *ix = ct__reshape_impl(iv, (ct_shape){source->sizes, nd});
    ct_tensor *io = ix ? in_walk_order(ix, order, nd) : NULL;
    src = io ? in_walk_order(source, order, nd) : NULL;
    ct_release(ix);
    ct_release(iv);
    iv = io;
  }
  /* a contiguous target is written through its flat view, another through a contiguous copy */
  bool direct = ct__geom_is_contiguous(target->ndim, target->sizes, target->strides);
  ct_tensor *flat = !src ? NULL : direct ? ct__view_impl(target, (ct_shape){&m1, 1})
                                         : ct__idx_contiguous(target);
  ct_tensor *fv = flat && !direct ? ct__view_impl(flat, (ct_shape){&m1, 1}) : NULL;
  ct_status s = !flat ? ct_last_error()
                      : ct__scatter_into(direct ? flat : fv, 0, iv, src, ct_scalar_int(0),
                                         opts && opts->accumulate ? CT_REDUCTION_SUM : 0, "put", false);
  if (s == CT_OK && !direct) s = ct__copy_into(target, flat);
  ct_release(fv);
  ct_release(flat);
  ct_release(src);
  ct_release(iv);
  return s;
}

ct_tensor *ct_put(const ct_tensor *t, const ct_tensor *index, const ct_tensor *source, const ct_index_put_opts *opts) {
  CT__OP_ENTER_PTR(&put_op, t, t, index, source);
  if (!CT__OP_ACCEPTS(&put_op, put_op.aten, t, index, source)) return NULL;
  ct_tensor *r = ct__idx_fresh(t, CT_PRESERVE_FORMAT);
  if (r && !CT__OP_ON_META(t, index, source) && put_into(r, index, source, opts, false) != CT_OK) {
    ct_release(r);
    r = NULL;
  }
  return ct__own(r);
}

ct_status ct_put_(ct_tensor *self, const ct_tensor *index, const ct_tensor *source, const ct_index_put_opts *opts) {
  CT__OP_ENTER_STATUS(&put_inplace_op, self, self, index, source);
  if (!CT__OP_ACCEPTS(&put_inplace_op, put_inplace_op.aten, self, index, source)) return ct_last_error();
  if (CT__OP_ON_META(self, index, source)) return ct__idx_meta_noop_(self);
  ct_tensor *target = ct__idx_target_begin(self, false);
  if (!target) return ct_last_error();
  return ct__idx_target_end(self, target, put_into(target, index, source, opts, true));
}
