/* Shared by the creation ops. */
#ifndef CTORCH_OPS_CREATE_INTERNAL_H
#define CTORCH_OPS_CREATE_INTERNAL_H

#include "core/internal.h"
#include "core/op.h"

/* Factory options with defaults filled in. */
typedef struct ct_resolved_opts {
  ct_dtype dtype;
  ct_device device;
  ct_memory_format memory_format;
  bool requires_grad;
} ct_resolved_opts;
/* The layout a factory's options ask for (UNSET: strided); its entry guard applies torch's rule to it. */
static inline ct_layout ct__opts_layout(const ct_tensor_opts *opts) {
  return opts ? opts->layout : CT_LAYOUT_UNSET;
}

/* Fills defaults (dtype: default_dtype when UNSET, device: CPU) and validates dtype and device (the layout
   is the entry guard's: ct__opts_layout). requires_grad is checked when the tensor is finished (see
   ct__finish_requires_grad). */
bool ct__resolve_opts(const ct_tensor_opts *opts, ct_dtype default_dtype, ct_resolved_opts *out);

/* ---- the creation and random family's descriptor (docs/ARCHITECTURE.md, "Where an op is declared") ---- */

/* A creation or random op's kernel on one device type: fills t (shaped, the op's checks made) from the op's
   own argument struct. The dtype dispatch is inside the kernel, as AT_DISPATCH is inside torch's, after the
   op's own dtype checks (which keep torch's order of errors). */
typedef struct ct_fill_kernel {
  ct_status (*run)(ct_tensor *t, const void *args);
} ct_fill_kernel;
/* The meta row of every creation and random op torch 1.13 runs on meta: shape-only (the result is sized by
   the op; nothing is written, nothing checked). ct__fill_nothing is the same on a device with memory
   (empty's rows). */
extern const ct_fill_kernel ct__fill_meta, ct__fill_nothing;
/* Runs op's kernel for t's device type (the entry guard made sure the row exists). */
static inline ct_status ct__fill_run(const ct_op *op, ct_tensor *t, const void *args) {
  return ((const ct_fill_kernel *)op->kernels[t->device_type])->run(t, args);
}
/* The inner operators of torch's factories, whose kernels they run: zeros is empty + zero_, full and ones
   are empty + fill_ (args: the ct_scalar, checked against the dtype by c10's conversion first). */
extern const ct_op ct__zero_op, ct__fill_op;

/* What torch 1.13 does with a factory's requested layout before the op's kernel runs. */
typedef enum {
  /* the result comes from empty(size, layout): its sparse-compressed checks first */
  CT_FACTORY_EMPTY = 0,
  /* the same, and a COO request gets full()'s "full(...) is not implemented for sparse layout" */
  CT_FACTORY_FULL,
  /* empty_strided, and *_like's layout=: the dispatcher refuses every other layout */
  CT_FACTORY_STRIDED,
  /* scalar_tensor: the layout is ignored on the CPU (a strided result), EMPTY elsewhere */
  CT_FACTORY_IGNORED,
  /* torch.tensor, new_tensor, from_numpy take no layout: Python's TypeError */
  CT_FACTORY_NO_ARG
} ct_factory_layout;

/* A creation or random op. op.aten names the ATen operator torch's dispatcher names when it refuses a
   layout or device (for a composite factory, its inner op: torch.rand's 'aten::uniform_'); op.layouts lists
   the non-strided layouts torch 1.13 builds, which ctorch refuses with NotImplemented until the sparse issue
   fills them (ct__layout_unbuilt). */
typedef struct ct_create_op {
  ct_op op;
  ct_factory_layout layout_rule;
} ct_create_op;

/* torch.tensor's descriptor (data from C arrays and from literals); a layout asked of a *_like factory (torch's
   empty_like goes through empty_strided, which refuses any but strided) */
extern const ct_create_op ct__tensor_op, ct__like_request;

/* The ct_op designators of a creation or random op with a CPU kernel and the shape-only meta row. */
#define CT_CREATE_OP(NAME, ATEN, CPU) \
  .name = (NAME), .aten = (ATEN), .kernels = {[CT_CPU] = (CPU), [CT_META] = &ct__fill_meta}
/* .layouts of ops torch builds in more than the strided layout */
#define CT_CREATE_COO (CT_OP_LAYOUT(CT_STRIDED) | CT_OP_LAYOUT(CT_SPARSE_COO))
#define CT_CREATE_COMPRESSED \
  (CT_OP_LAYOUT(CT_STRIDED) | CT_OP_LAYOUT(CT_SPARSE_CSR) | CT_OP_LAYOUT(CT_SPARSE_CSC))
#define CT_CREATE_SPARSE (CT_CREATE_COO | CT_CREATE_COMPRESSED)

/* ctorch's refusal of a non-strided layout that torch 1.13 builds for op: NotImplemented, false. */
bool ct__layout_unbuilt(const ct_op *op, ct_layout layout);
/* The entry guard of a factory on its request: the layout by c->layout_rule (empty_shape: the size torch's
   empty sees first, whose sparse-compressed checks print it), then the device's kernel row; false with
   torch's error. The common request (strided, a device with a row) is decided inline (no descriptor has a
   CUDA row yet: CUDA's "Torch not compiled with CUDA enabled" comes first in the slow path). */
bool ct__factory_refuses(const ct_create_op *c, ct_layout layout, ct_device device, ct_shape empty_shape);
static inline bool ct__factory_accepts(const ct_create_op *c, ct_layout layout, ct_device device,
                                       ct_shape empty_shape) {
  return CT_LIKELY(layout <= CT_STRIDED && c->op.kernels[device.type] != NULL) ||
         !ct__factory_refuses(c, layout, device, empty_shape);
}
/* Resolution of opts (ct__resolve_opts) and the guard above. */
static inline bool ct__factory_enter(const ct_create_op *c, const ct_tensor_opts *opts, ct_dtype default_dtype,
                                     ct_shape empty_shape, ct_resolved_opts *out) {
  return ct__resolve_opts(opts, default_dtype, out) &&
         ct__factory_accepts(c, ct__opts_layout(opts), out->device, empty_shape);
}
/* The guard of an op with a tensor input t (CT__OP_ENTER), and ctorch's refusal of a non-strided layout
   the op accepts in torch; false with the error. */
bool ct__create_input_ok(const ct_op *op, const ct_tensor *t);

/* The same with dtype and device defaulting to those of `like` (the *_like and new_* factories). */
bool ct__resolve_opts_like(const ct_tensor *like, const ct_tensor_opts *opts, ct_resolved_opts *out);
bool ct__format_strides(int64_t ndim, const int64_t *sizes, ct_memory_format fmt, int64_t *strides);
/* An uninitialized tensor honouring dtype, device, memory format and requires_grad; not scope-registered. */
ct_tensor *ct__empty_with(ct_shape shape, const ct_resolved_opts *o);
/* An uninitialized tensor with the given strides (torch.empty_strided); o->memory_format is ignored. */
ct_tensor *ct__empty_strided_with(int64_t ndim, const int64_t *sizes, const int64_t *strides, const ct_resolved_opts *o);
/* PyTorch's empty_like(t, memory_format): PRESERVE keeps the strides of a dense input and infers
   dense strides in the same dimension order otherwise; other formats lay out t's shape afresh. */
ct_tensor *ct__empty_like_with(const ct_tensor *t, ct_memory_format fmt, const ct_resolved_opts *o);
/* t copied into a new tensor of dtype dt laid out as empty_like(t, fmt) lays it out (Tensor.to(dt, copy=True)
   with memory_format fmt: PRESERVE keeps a dense t's strides); math bits resolved; not scope-registered. */
ct_tensor *ct__copy_as(const ct_tensor *t, ct_dtype dt, ct_memory_format fmt);
/* Sets requires_grad on a finished tensor, as PyTorch's bindings do after the op (so the op's own
   argument errors come first). On a dtype that cannot require gradients, releases t and records
   PyTorch's error. Returns t or NULL. */
ct_tensor *ct__finish_requires_grad(ct_tensor *t, bool requires_grad);
/* torch.zeros' impl: an empty tensor of shape, zeroed (zero_'s kernel); not scope-registered. */
ct_tensor *ct__zeros_with(ct_shape shape, const ct_resolved_opts *o);
/* torch.scalar_tensor's impl: a 0-dim strided tensor holding value; not scope-registered. */
ct_tensor *ct__scalar_tensor_with(ct_scalar value, const ct_resolved_opts *o);
/* linspace(start, end, steps) with resolved options (histc's and histogram's bin edges); not scope-registered. */
ct_tensor *ct__linspace_with(ct_scalar start, ct_scalar end, int64_t steps, const ct_resolved_opts *o);
/* A tensor of `shape` filled with v: checked conversion first (c10's "value cannot be converted to
   type ... without overflow", skipped on meta as PyTorch's fill_ is), then the fill; not scope-registered. */
ct_tensor *ct__full_with(ct_shape shape, ct_scalar v, const ct_resolved_opts *o);
/* torch.tensor(data): a copy of a row-major C array of src_dtype elements, cast to o->dtype. */
ct_tensor *ct__tensor_from_data_with(const void *data, ct_dtype src_dtype, ct_shape shape, const ct_resolved_opts *o);
/* A contiguous tensor over caller memory that the library never frees (storage without an
   allocator); not scope-registered. Used to read or write C arrays through the copy engine. */
ct_tensor *ct__borrow_contiguous(const void *data, ct_dtype dtype, int64_t ndim, const int64_t *sizes);
/* ct_wrapped_scalar's tensor, not scope-registered (the number forms of the binary ops release it). */
ct_tensor *ct__wrapped_scalar(ct_scalar value);
/* Zeroes every byte of t's storage (a fresh dense tensor); no-op on meta. */
void ct__zero_storage(ct_tensor *t);

#endif
