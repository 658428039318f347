/* What the join ops share: the list guard, autograd's marks, resize_output + copy_ for out=, new results. */
#include "ops/join/join_internal.h"
#include "core/out_wrapper.h"

bool ct__join_list_ok(const ct_op *op, const ct_tensor *out, ct_tensors ts) {
  if (ts.n < 0 || (ts.n > 0 && !ts.data)) {
    ct__error(CT_ERR_VALUE, "%s: the tensor list has %s", op->name, ts.n < 0 ? "a negative length" : "no array");
    return false;
  }
  unsigned key = out ? ct__op_key(out) : 0u;
  for (int64_t i = 0; i < ts.n; i++) {
    if (!ts.data[i]) {
      if (ct_last_error() == CT_OK)
        ct__error(CT_ERR_VALUE, "%s: tensor %lld of the list is NULL", op->name, (long long)i);
      return false;
    }
    key |= ct__op_key(ts.data[i]);
  }
  return ct__op_accepts_key(op, op->aten, key);
}

bool ct__join_out_grad_ok(const ct_op *op, const ct_tensor *out, ct_tensors ts) {
  if (op->grad != CT_OP_GRAD_DIFF) return true;
  if (out->flags & CT_TENSOR_REQUIRES_GRAD) return CT__OUT_GRAD_OK(op->name, out);
  for (int64_t i = 0; i < ts.n; i++)
    if (ts.data[i]->flags & CT_TENSOR_REQUIRES_GRAD) return CT__OUT_GRAD_OK(op->name, ts.data[i]);
  return true;
}

void ct__join_mark(ct_tensor *r, ct_tensors ts) {
  for (int64_t i = 0; r && i < ts.n; i++) ct__grad_mark_result(r, ts.data[i]);
}

bool ct__join_rank_ok(int64_t ndim) {
  if (ndim < CT_JOIN_MAXDIM) return true;
  ct__error(CT_ERR_RUNTIME, "ctorch: joining ops support tensors of fewer than %d dims", CT_JOIN_MAXDIM);
  return false;
}

ct_status ct__join_fit_out(ct_tensor *out, int64_t ndim, const int64_t *sizes) {
  if (out->ndim == ndim && memcmp(out->sizes, sizes, (size_t)ndim * sizeof(int64_t)) == 0) return CT_OK;
  return ct__tensor_resize(out, ndim, sizes, NULL);
}

ct_status ct__join_copy_out(ct_tensor *out, const ct_tensor *r) {
  if (!ct__check_copy_devices(out, r)) return ct_last_error();
  if (!ct__tensor_resize_ok(out, r->ndim, r->sizes)) return ct_last_error();
  ct_status s = ct__join_fit_out(out, r->ndim, r->sizes);
  return s == CT_OK ? ct__copy_into(out, r) : s;
}

bool ct__join_out_dtype_is(const ct_tensor *out, ct_dtype want) {
  if ((ct_dtype)out->dtype == want) return true;
  ct__error(CT_ERR_RUNTIME, "Expected out tensor to have dtype %s, but got %s instead", ct__dt(want)->typemeta_name,
            ct__dt((ct_dtype)out->dtype)->typemeta_name);
  return false;
}

ct_tensor *ct__join_empty(const ct_tensor *like, int64_t ndim, const int64_t *sizes, ct_dtype dtype) {
  if (ct__checked_numel(ndim, sizes) < 0) return NULL;
  return ct__empty(ndim, sizes, dtype, ct__tdevice(like));
}

ct_tensor *ct__join_zeros(const ct_tensor *like, int64_t ndim, const int64_t *sizes, ct_dtype dtype) {
  ct_tensor *r = ct__join_empty(like, ndim, sizes, dtype);
  if (r && ct__fill(r, ct_scalar_int(0)) != CT_OK) {
    ct_release(r);
    return NULL;
  }
  return r;
}

ct_tensor *ct__join_clone(const ct_tensor *t, ct_memory_format fmt) {
  ct_resolved_opts o = {(ct_dtype)t->dtype, ct__tdevice(t), fmt, false};
  ct_tensor *r = ct__empty_like_with(t, fmt, &o);
  if (r && ct__copy_into(r, t) != CT_OK) {
    ct_release(r);
    return NULL;
  }
  return r;
}

bool ct__join_out_device_ok(const ct_tensor *out, const ct_tensor *like) {
  return ct__resize_out_ok(out, CT_DTYPE_UNSET, ct__tdevice(like));
}
