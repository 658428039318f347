/* Tensor.copy_ and the export of elements into a caller buffer. */
#include <stdio.h>

#include "core/cast.h"
#include "ops/convert_internal.h"
#include "ops/create_internal.h"
#include "ops/view_internal.h"
#include "ops/view_op.h"

/* copy_ runs on every layout pair torch's dispatcher can route (its checks below refuse mixed ones); torch
   copies COO to COO and compressed to the same compressed layout: pending in ctorch. copy_to_buffer (the C
   form of tolist/numpy: a copy to the CPU, aten::_to_copy) reads the data pointer, which a sparse tensor does
   not have. */
static const ct_view_op copy_op = {CT_COPY_OP("copy_", "aten::copy_", CT_LAYOUTS_ALL)};
static const ct_view_op copy_to_buffer_op = {.op = {.name = "copy_to_buffer",
                                                    .aten = "aten::_to_copy",
                                                    .layouts = CT_LAYOUTS_ALL,
                                                    .grad = CT_OP_GRAD_NONE,
                                                    CT_COPY_ROWS},
                                             .coo = CT_SPARSE_NO_DATA,
                                             .compressed = CT_SPARSE_NO_DATA};

/* Tensor::toString() of copy_'s dense-sparse message: a COO tensor's is the dense one's with "sparse." after
   "torch." ("torch.sparse.FloatTensor") or "Sparse" before it ("SparseCPUBoolType"). */
static void type_name(const ct_tensor *t, char *buf, size_t n) {
  char dense[64];
  ct__tensor_type_str(t, dense, sizeof dense);
  if (t->layout == CT_STRIDED) snprintf(buf, n, "%s", dense);
  else if (strncmp(dense, "torch.", 6) == 0) snprintf(buf, n, "torch.sparse.%s", dense + 6);
  else snprintf(buf, n, "Sparse%s", dense);
}

/* torch's copy_ with a sparse side (copy_impl, then copy_sparse_compressed_ under the compressed key, which
   wins dispatch when either side is compressed): its refusals of mixed layouts; the pairs it copies are
   pending in ctorch. */
static ct_status copy_sparse(const ct_tensor *self, const ct_tensor *src) {
  bool self_comp = (CT_LAYOUTS_COMPRESSED >> self->layout) & 1u,
       src_comp = (CT_LAYOUTS_COMPRESSED >> src->layout) & 1u;
  if (self_comp || src_comp) {
    if (!self_comp)
      ct__error(CT_ERR_RUNTIME,
                "\"copy_sparse_compressed_\" expected sparse compressed tensor layout but got %s",
                ct__layout_c10_name((ct_layout)self->layout));
    else if (self->layout != src->layout)
      ct__error(
          CT_ERR_RUNTIME,
          "torch.copy_: copy of sparse compressed tensors having different layouts is not supported. self "
          "layout is %s and src layout is %s",
          ct__layout_c10_name((ct_layout)self->layout), ct__layout_c10_name((ct_layout)src->layout));
    else ct__sparse_refuse(&copy_op, self);
    return ct_last_error();
  }
  if (self->layout == src->layout) {
    ct__sparse_refuse(&copy_op, self);
    return ct_last_error();
  }
  char a[128], b[128];
  type_name(self, a, sizeof a);
  type_name(src, b, sizeof b);
  ct__error(
      CT_ERR_RUNTIME,
      "copy_() between dense and sparse Tensors is not implemented! Found self type = %s and src type = %s",
      a, b);
  return ct_last_error();
}

ct_status ct_copy_(ct_tensor *self, const ct_tensor *src) {
  CT__OP_ENTER_STATUS(&copy_op.op, self, self, src);
  if (CT_UNLIKELY(self->layout != CT_STRIDED || src->layout != CT_STRIDED)) return copy_sparse(self, src);
  return ct__copy_impl(self, src);
}

ct_status ct__copy_impl(ct_tensor *self, const ct_tensor *src) {
  if (!ct__check_inplace(self)) return CT_ERR_RUNTIME;
  ct_status st = ct__copy_into(self, src);
  if (st == CT_OK && self->storage) atomic_fetch_add_explicit(&self->storage->version, 1, memory_order_relaxed);
  return st;
}

ct_status ct_copy_to_buffer(const ct_tensor *t, void *buf, ct_dtype dtype, size_t buf_bytes) {
  CT__VIEW_ENTER_STATUS(&copy_to_buffer_op, t, t);
  if (!ct__check_dtype(dtype)) return CT_ERR_TYPE;
  if (t->device_type == CT_META) {
    ct__error(CT_ERR_NOT_IMPLEMENTED, "Cannot copy out of meta tensor; no data!");
    return CT_ERR_NOT_IMPLEMENTED;
  }
  size_t need = (size_t)t->numel * ct__itemsize(dtype);
  if (buf_bytes < need || (!buf && need)) {
    ct__error(CT_ERR_VALUE, "copy_to_buffer: a buffer of %zu bytes cannot hold %lld elements of %s (%zu bytes)",
              buf ? buf_bytes : (size_t)0, (long long)t->numel, ct_dtype_name(dtype), need);
    return CT_ERR_VALUE;
  }
  if (need == 0) return CT_OK;
  ct_tensor *out = ct__borrow_contiguous(buf, dtype, t->ndim, t->sizes);
  if (!out) return ct_last_error();
  ct_status st = ct__copy_into(out, t);
  ct_release(out);
  return st;
}

bool ct__check_copy_devices(const ct_tensor *dst, const ct_tensor *src) {
  if (ct_device_equal(ct__tdevice(dst), ct__tdevice(src))) return true;
  char a[32], b[32];
  ct_device_str(ct__tdevice(src), a, sizeof a);
  ct_device_str(ct__tdevice(dst), b, sizeof b);
  ct__error(CT_ERR_RUNTIME, "Attempting to copy from device %s to device %s, but cross-device copies are not allowed!", a, b);
  return false;
}
