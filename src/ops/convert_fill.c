/* Tensor.fill_, zero_, to(other) and cpu(): the first lines a PyTorch user writes. */
#include "core/cast.h"
#include "ops/create_internal.h"

/* Tensor.fill_(value): autograd's in-place check first (VariableType runs before the kernel), then c10's
   checked conversion of the value, which torch's meta kernel skips; every element written, whatever the
   strides (an expanded tensor's shared elements too, as torch does). */
ct_status ct_fill_(ct_tensor *self, ct_scalar value) {
  if (!self) return ct__null_arg(1, "self");
  if (!ct__check_inplace(self)) return CT_ERR_RUNTIME;
  if (self->device_type == CT_META) return CT_OK;
  if (!ct__scalar_fits(value, (ct_dtype)self->dtype)) return CT_ERR_RUNTIME;
  ct_status st = ct__fill(self, value);
  if (st != CT_OK) return ct_last_error() != CT_OK ? ct_last_error() : st;
  atomic_fetch_add_explicit(&self->storage->version, 1, memory_order_relaxed);
  return CT_OK;
}

ct_status ct_zero_(ct_tensor *self) {
  if (!self) return ct__null_arg(1, "self");
  return ct_fill_(self, ct_scalar_int(0));
}

/* Tensor.to(other): other's dtype and device, the memory format preserved; self when nothing changes. */
ct_tensor *ct_to_other(const ct_tensor *t, const ct_tensor *other) {
  if (!t) return ct__null_arg(1, "input"), (ct_tensor *)NULL;
  if (!other) return ct__null_arg(2, "other"), (ct_tensor *)NULL;
  return ct_to(t, &(ct_to_opts){.dtype = (ct_dtype)other->dtype, .device = ct__tdevice(other)});
}

/* Tensor.cpu(): to(device='cpu'); self for a CPU tensor. */
ct_tensor *ct_cpu(const ct_tensor *t) {
  if (!t) return ct__null_arg(1, "input"), (ct_tensor *)NULL;
  return ct_to(t, &(ct_to_opts){.device = CT_DEVICE_CPU});
}
