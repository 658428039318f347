/* torch.zeros, ones, full, scalar_tensor, tensor (from C data), from_blob and wrapped numbers. */
#include "core/cast.h"
#include "ops/create_internal.h"
#include "ops/view_internal.h"

/* The op runs with requires_grad off and the flag is applied last, so argument errors come first. */
static ct_resolved_opts without_grad(const ct_resolved_opts *o) {
  ct_resolved_opts r = *o;
  r.requires_grad = false;
  return r;
}

/* zero_'s and fill_'s kernels (the inner operators of zeros, ones and full). fill_ converts the value
   with c10's check first ("value cannot be converted to type ... without overflow"); torch's meta fill_
   checks nothing. */
static ct_status zero_cpu_run(ct_tensor *t, const void *args) {
  (void)args;
  ct__zero_storage(t);
  return CT_OK;
}
static ct_status fill_cpu_run(ct_tensor *t, const void *args) {
  ct_scalar v = *(const ct_scalar *)args;
  return ct__scalar_fits(v, (ct_dtype)t->dtype) ? ct__fill(t, v) : ct_last_error();
}
static const ct_fill_kernel zero_cpu = {zero_cpu_run}, fill_cpu = {fill_cpu_run};
const ct_op ct__zero_op = {CT_CREATE_OP("zero_", "aten::zero_", &zero_cpu)};
const ct_op ct__fill_op = {CT_CREATE_OP("fill_", "aten::fill_.Scalar", &fill_cpu)};

/* torch.zeros: COO and (batched) CSR / CSC in torch (the sparse issue fills them); ones and full: CSR / CSC */
static const ct_create_op zeros_op = {
    {CT_CREATE_OP("zeros", "aten::zeros", &zero_cpu), .layouts = CT_CREATE_SPARSE, .grad = CT_OP_GRAD_NONE},
    CT_FACTORY_EMPTY};
static const ct_create_op ones_op = {
    {CT_CREATE_OP("ones", "aten::ones", &fill_cpu), .layouts = CT_CREATE_COMPRESSED, .grad = CT_OP_GRAD_NONE},
    CT_FACTORY_FULL};
static const ct_create_op full_op = {
    {CT_CREATE_OP("full", "aten::full", &fill_cpu), .layouts = CT_CREATE_COMPRESSED, .grad = CT_OP_GRAD_NONE},
    CT_FACTORY_FULL};
/* torch.scalar_tensor ignores its layout on the CPU (a strided result whatever is asked); on other devices it
   is empty + fill_ */
static const ct_create_op scalar_tensor_op = {
    {CT_CREATE_OP("scalar_tensor", "aten::fill_.Scalar", &fill_cpu), .grad = CT_OP_GRAD_NONE},
    CT_FACTORY_IGNORED};
/* torch.tensor (ct_tensor_from_data, ct_tensor_literal) takes no layout */
const ct_create_op ct__tensor_op = {{CT_CREATE_OP("tensor", "aten::lift_fresh", &ct__fill_nothing)},
                                    CT_FACTORY_NO_ARG};
/* from_blob wraps CPU memory only: no meta row */
static const ct_create_op from_blob_op = {
    {.name = "from_numpy", .aten = "aten::from_blob", .kernels = {[CT_CPU] = &ct__fill_nothing}},
    CT_FACTORY_NO_ARG};

ct_tensor *ct__zeros_with(ct_shape shape, const ct_resolved_opts *o) {
  ct_resolved_opts plain = without_grad(o);
  ct_tensor *t = ct__empty_with(shape, &plain);
  if (!t) return NULL;
  ct__fill_run(&ct__zero_op, t, NULL);
  return ct__finish_requires_grad(t, o->requires_grad);
}

ct_tensor *ct__full_with(ct_shape shape, ct_scalar v, const ct_resolved_opts *o) {
  ct_resolved_opts plain = without_grad(o);
  ct_tensor *t = ct__empty_with(shape, &plain);
  if (!t) return NULL;
  if (ct__fill_run(&ct__fill_op, t, &v) != CT_OK) {
    ct_release(t);
    return NULL;
  }
  return ct__finish_requires_grad(t, o->requires_grad);
}

ct_tensor *ct_zeros(ct_shape shape, const ct_tensor_opts *opts) {
  ct_resolved_opts o;
  if (!ct__factory_enter(&zeros_op, opts, ct_get_default_dtype(), shape, &o)) return NULL;
  return ct__own(ct__zeros_with(shape, &o));
}

ct_tensor *ct_ones(ct_shape shape, const ct_tensor_opts *opts) {
  ct_resolved_opts o;
  if (!ct__factory_enter(&ones_op, opts, ct_get_default_dtype(), shape, &o)) return NULL;
  return ct__own(ct__full_with(shape, ct_scalar_int(1), &o));
}

ct_tensor *ct_full(ct_shape shape, ct_scalar value, const ct_tensor_opts *opts) {
  ct_resolved_opts o;
  if (!ct__check_scalar(value) ||
      !ct__factory_enter(&full_op, opts, ct__scalar_default_dtype(value), shape, &o))
    return NULL;
  return ct__own(ct__full_with(shape, value, &o));
}

ct_tensor *ct__scalar_tensor_with(ct_scalar value, const ct_resolved_opts *o) {
  return ct__full_with(CT_SHAPE_SCALAR, value, o);
}

/* torch.scalar_tensor: the default float dtype whatever the number's kind. */
ct_tensor *ct_scalar_tensor(ct_scalar value, const ct_tensor_opts *opts) {
  ct_resolved_opts o;
  if (!ct__check_scalar(value) ||
      !ct__factory_enter(&scalar_tensor_op, opts, ct_get_default_dtype(), CT_SHAPE_SCALAR, &o))
    return NULL;
  return ct__own(ct__scalar_tensor_with(value, &o));
}

/* A Python number as ATen wraps it (wrapped_scalar_tensor): the number's natural C++ type (bool,
   int64, double, complex<double>) so no precision is lost, flagged so that type promotion treats it
   as a number of the default dtype. */
ct_tensor *ct__wrapped_scalar(ct_scalar value) {
  static const ct_dtype natural[] = {[CT_SCALAR_BOOL] = CT_BOOL, [CT_SCALAR_INT] = CT_INT64,
                                     [CT_SCALAR_DOUBLE] = CT_FLOAT64, [CT_SCALAR_COMPLEX] = CT_COMPLEX128};
  if (!ct__check_scalar(value)) return NULL;
  ct_tensor *t = ct__empty(0, NULL, natural[value.kind], CT_DEVICE_CPU);
  if (!t) return NULL;
  ct__store_scalar(natural[value.kind], ct__tdata(t), value);
  t->flags |= CT_TENSOR_WRAPPED_NUMBER;
  return t;
}

ct_tensor *ct_wrapped_scalar(ct_scalar value) { return ct__own(ct__wrapped_scalar(value)); }

bool ct_is_wrapped_number(const ct_tensor *t) { return t && (t->flags & CT_TENSOR_WRAPPED_NUMBER); }

ct_tensor *ct__borrow_contiguous(const void *data, ct_dtype dtype, int64_t ndim, const int64_t *sizes) {
  int64_t numel = ct__checked_numel(ndim, sizes);
  if (numel < 0) return NULL;
  ct_storage *s = ct__storage_shell(CT_DEVICE_CPU);
  if (!s) return NULL;
  s->data = (void *)data;
  s->nbytes = (size_t)numel * ct__itemsize(dtype);
  int64_t small[8];
  int64_t *strides = ndim <= 8 ? small : ct__malloc((size_t)ndim * sizeof *strides);
  ct_tensor *t = NULL;
  if (strides) {
    ct__contiguous_strides(ndim, sizes, strides);
    t = ct__tensor_make(s, dtype, 0, ndim, sizes, strides);
    if (strides != small) ct__free(strides);
  }
  ct_storage_release(s);
  return t;
}

ct_tensor *ct__tensor_from_data_with(const void *data, ct_dtype src_dtype, ct_shape shape, const ct_resolved_opts *o) {
  if (!ct__check_dtype(src_dtype)) return NULL;
  ct_resolved_opts plain = without_grad(o);
  ct_tensor *t = ct__empty_with(shape, &plain);
  if (!t) return NULL;
  if (t->numel > 0 && t->device_type != CT_META) {
    if (!data) {
      ct__error(CT_ERR_VALUE, "tensor: data is NULL for a tensor of %lld elements", (long long)t->numel);
      ct_release(t);
      return NULL;
    }
    ct_tensor *src = ct__borrow_contiguous(data, src_dtype, t->ndim, t->sizes);
    ct_status st = src ? ct__copy_into(t, src) : CT_ERR_OUT_OF_MEMORY;
    ct_release(src);
    if (st != CT_OK) {
      ct_release(t);
      return NULL;
    }
  }
  return ct__finish_requires_grad(t, o->requires_grad);
}

ct_tensor *ct_tensor_from_data(const void *data, ct_dtype src_dtype, ct_shape shape, const ct_tensor_opts *opts) {
  ct_resolved_opts o;
  if (!ct__factory_enter(&ct__tensor_op, opts, src_dtype, shape, &o)) return NULL;
  return ct__own(ct__tensor_from_data_with(data, src_dtype, shape, &o));
}

/* ---- from_blob ---- */

static void blob_release(ct_storage *s) {
  if (s->ext->deleter) s->ext->deleter(s->ext->ctx, s->data);
}

ct_tensor *ct_from_blob(void *data, ct_dtype dtype, ct_shape shape, const int64_t *strides,
                        void (*deleter)(void *ctx, void *data), void *ctx, const ct_tensor_opts *opts) {
  ct_resolved_opts o;
  if (!ct__check_dtype(dtype) || !ct__resolve_opts(opts, dtype, &o)) return NULL;
  o.dtype = dtype; /* the memory's element type decides */
  if (o.device.type == CT_META) { /* before the guard: ctorch's own refusal, not torch's dispatcher's */
    ct__error(CT_ERR_NOT_IMPLEMENTED, "from_blob: only CPU memory can be wrapped");
    return NULL;
  }
  if (!ct__factory_accepts(&from_blob_op, ct__opts_layout(opts), o.device, shape)) return NULL;
  /* Check everything that can fail before the deleter is attached: on failure the caller keeps
     ownership of data and the deleter is never called. */
  if (o.requires_grad && !ct_dtype_is_floating_point(dtype) && !ct_dtype_is_complex(dtype)) {
    ct__error(CT_ERR_RUNTIME, "Only Tensors of floating point and complex dtype can require gradients");
    return NULL;
  }
  if (!ct__check_list(shape, "shape")) return NULL;
  int64_t numel = ct__checked_numel(shape.ndim, shape.data);
  if (numel < 0) return NULL;
  if (strides)
    for (int64_t i = 0; i < shape.ndim; i++)
      if (strides[i] < 0) {
        ct__error(CT_ERR_VALUE,
                  "At least one stride in the given numpy array is negative, and tensors with negative strides are "
                  "not currently supported. (You can probably work around this by making a copy of your array  "
                  "with array.copy().) ");
        return NULL;
      }
  /* The bytes the geometry spans, with at::detail::computeStorageNbytes's overflow error (a
     contiguous geometry: computeStorageNbytesContiguous's). */
  uint64_t nbytes;
  if (!ct__storage_nbytes(shape.ndim, shape.data, strides, ct__itemsize(dtype), 0, &nbytes)) return NULL;
  if (!data && numel > 0) {
    ct__error(CT_ERR_VALUE, "from_blob: data is NULL for a tensor of %lld elements", (long long)numel);
    return NULL;
  }
  ct_storage *s = ct__storage_shell(CT_DEVICE_CPU);
  ct_storage_ext *ext = s ? ct__calloc(1, sizeof *ext) : NULL;
  if (!ext) {
    ct__free(s);
    return NULL;
  }
  ext->release = blob_release;
  s->ext = ext;
  s->data = data;
  s->flags = CT_STORAGE_EXTERNAL | CT_STORAGE_HAS_EXT; /* not resizable: the memory is not ours */
  int64_t small[8];
  int64_t *contig = NULL;
  const int64_t *st = strides;
  if (!st) {
    contig = shape.ndim <= 8 ? small : ct__malloc((size_t)shape.ndim * sizeof *contig);
    if (contig) ct__contiguous_strides(shape.ndim, shape.data, contig);
    st = contig;
  }
  ct_tensor *t = NULL;
  if (st) {
    s->nbytes = numel ? (size_t)nbytes : 0;
    t = ct__tensor_make(s, dtype, 0, shape.ndim, shape.data, st);
  }
  if (contig && contig != small) ct__free(contig);
  ct_storage_release(s); /* the tensor holds its own reference; without one this frees the shell only */
  /* The deleter is attached only once the tensor is safely handed out. */
  t = ct__own(t);
  if (t) {
    ext->deleter = deleter;
    ext->ctx = ctx;
    if (o.requires_grad) t->flags |= CT_TENSOR_REQUIRES_GRAD;
  }
  return t;
}
