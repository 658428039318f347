/* Tensor.fill_, zero_, to(other) and cpu(): the first lines a PyTorch user writes. */
#include "core/cast.h"
#include "ops/convert_internal.h"
#include "ops/create_internal.h"
#include "ops/view_op.h"

/* aten::fill_.Scalar has no COO kernel; torch fills the compressed layouts, zeroes and converts (to(other),
   cpu(): aten::_to_copy) every layout: pending in ctorch. */
static const ct_view_op fill_op = {CT_COPY_OP("fill_", "aten::fill_.Scalar", CT_LAYOUTS_STRIDED_COMPRESSED)};
static const ct_view_op zero_op = {CT_COPY_OP("zero_", "aten::zero_", CT_LAYOUTS_ALL)};
static const ct_view_op to_other_op = {CT_COPY_OP("to", "aten::_to_copy", CT_LAYOUTS_ALL)};
static const ct_view_op cpu_op = {CT_COPY_OP("cpu", "aten::_to_copy", CT_LAYOUTS_ALL)};

/* Tensor.fill_(value): autograd's in-place check first (VariableType runs before the kernel), then c10's
   checked conversion of the value, which torch's meta kernel skips; every element written, whatever the
   strides (an expanded tensor's shared elements too, as torch does). */
ct_status ct_fill_(ct_tensor *self, ct_scalar value) {
  CT__VIEW_ENTER_STATUS(&fill_op, self, self);
  return ct__fill_impl(self, value);
}

ct_status ct__fill_impl(ct_tensor *self, ct_scalar value) {
  if (!ct__check_inplace(self)) return CT_ERR_RUNTIME;
  if (self->device_type == CT_META) return CT_OK;
  if (!ct__scalar_fits(value, (ct_dtype)self->dtype)) return CT_ERR_RUNTIME;
  ct_status st = ct__fill(self, value);
  if (st != CT_OK) return ct_last_error() != CT_OK ? ct_last_error() : st;
  atomic_fetch_add_explicit(&self->storage->version, 1, memory_order_relaxed);
  return CT_OK;
}

ct_status ct_zero_(ct_tensor *self) {
  CT__VIEW_ENTER_STATUS(&zero_op, self, self);
  return ct__fill_impl(self, ct_scalar_int(0));
}

/* Tensor.to(other): other's dtype and device, the memory format preserved; self when nothing changes. */
ct_tensor *ct_to_other(const ct_tensor *t, const ct_tensor *other) {
  CT__VIEW_ENTER_PTR(&to_other_op, t, t, other);
  return ct__to_impl(t, &(ct_to_opts){.dtype = (ct_dtype)other->dtype, .device = ct__tdevice(other)});
}

/* Tensor.cpu(): to(device='cpu'); self for a CPU tensor. */
ct_tensor *ct_cpu(const ct_tensor *t) {
  CT__VIEW_ENTER_PTR(&cpu_op, t, t);
  return ct__to_impl(t, &(ct_to_opts){.device = CT_DEVICE_CPU});
}
