/* torch.empty and empty_strided, and the resolution of factory options shared by every creation op. */
#include "core/cast.h"
#include "ops/create_internal.h"
#include "ops/view_internal.h"

#include "core/layout_rules.h"

/* torch builds sparse COO and (batched) CSR / CSC empties: the sparse issue fills those rows */
static const ct_create_op empty_op = {{CT_CREATE_OP("empty", "aten::empty.memory_format", &ct__fill_nothing),
                                       .layouts = CT_CREATE_SPARSE, .grad = CT_OP_GRAD_NONE},
                                      CT_FACTORY_EMPTY};
static const ct_create_op empty_strided_op = {
    {CT_CREATE_OP("empty_strided", "aten::empty_strided", &ct__fill_nothing), .grad = CT_OP_GRAD_NONE},
    CT_FACTORY_STRIDED};

static bool resolve_device(ct_device d, ct_device *out) {
  if (d.type == CT_DEVICE_TYPE_UNSET) d = CT_DEVICE_CPU;
  if (d.type != CT_CPU && d.type != CT_CUDA && d.type != CT_META) {
    ct__error(CT_ERR_RUNTIME, "invalid device type value %d", (int)d.type);
    return false;
  }
  if (d.type == CT_CUDA && d.index < 0) d.index = 0;
  if (d.type != CT_CUDA) d.index = -1;
  *out = d;
  return true;
}

bool ct__resolve_opts(const ct_tensor_opts *opts, ct_dtype default_dtype, ct_resolved_opts *out) {
  ct_tensor_opts o = opts ? *opts : (ct_tensor_opts){0};
  out->dtype = o.dtype == CT_DTYPE_UNSET ? default_dtype : o.dtype;
  if (!ct__check_dtype(out->dtype)) return false;
  if (!resolve_device(o.device, &out->device)) return false;
  out->memory_format = o.memory_format;
  out->requires_grad = o.requires_grad;
  return true;
}

bool ct__resolve_opts_like(const ct_tensor *like, const ct_tensor_opts *opts, ct_resolved_opts *out) {
  ct_tensor_opts o = opts ? *opts : (ct_tensor_opts){0};
  if (o.device.type == CT_DEVICE_TYPE_UNSET) o.device = ct__tdevice(like);
  return ct__resolve_opts(&o, (ct_dtype)like->dtype, out);
}

ct_tensor *ct__finish_requires_grad(ct_tensor *t, bool requires_grad) {
  if (!t || !requires_grad) return t;
  ct_dtype d = (ct_dtype)t->dtype;
  if (!ct_dtype_is_floating_point(d) && !ct_dtype_is_complex(d)) {
    ct_release(t);
    ct__error(CT_ERR_RUNTIME, "Only Tensors of floating point and complex dtype can require gradients");
    return NULL;
  }
  t->flags |= CT_TENSOR_REQUIRES_GRAD;
  return t;
}

void ct__zero_storage(ct_tensor *t) {
  if (t->storage->data && t->storage->nbytes) memset(t->storage->data, 0, t->storage->nbytes);
}

/* Strides for a memory format; records PyTorch's error for a rank the format does not fit. */
bool ct__format_strides(int64_t ndim, const int64_t *sizes, ct_memory_format fmt, int64_t *strides) {
  if (fmt == CT_CHANNELS_LAST && ndim != 4) {
    ct__error(CT_ERR_RUNTIME, "required rank 4 tensor to use channels_last format");
    return false;
  }
  if (fmt == CT_CHANNELS_LAST_3D && ndim != 5) {
    ct__error(CT_ERR_RUNTIME, "required rank 5 tensor to use channels_last_3d format");
    return false;
  }
  ct__format_strides_for(ndim, sizes, fmt, strides);
  return true;
}

ct_tensor *ct__empty_with(ct_shape shape, const ct_resolved_opts *o) {
  /* every factory taking a shape comes through here (random ones included), after its entry guard (which
     refused every layout but strided) */
  if (!ct__check_list(shape, "shape")) return NULL;
  /* PyTorch checks the sizes before the memory format */
  if (ct__checked_numel(shape.ndim, shape.data) < 0) return NULL;
  if (o->memory_format == CT_PRESERVE_FORMAT) {
    ct__error(CT_ERR_RUNTIME, "unsupported memory format Preserve");
    return NULL;
  }
  if ((unsigned)o->memory_format > CT_PRESERVE_FORMAT) {
    ct__error(CT_ERR_RUNTIME, "invalid memory format value %d", (int)o->memory_format);
    return NULL;
  }
  ct_tensor *t = ct__empty(shape.ndim, shape.data, o->dtype, o->device);
  if (!t) return NULL;
  if (o->memory_format == CT_CHANNELS_LAST || o->memory_format == CT_CHANNELS_LAST_3D) {
    if (!ct__format_strides(t->ndim, t->sizes, o->memory_format, t->strides)) {
      ct_release(t);
      return NULL;
    }
  }
  return ct__finish_requires_grad(t, o->requires_grad);
}

/* at::detail::computeStorageNbytes in unsigned arithmetic, so a negative stride shows up as an
   overflow exactly as in PyTorch. */
static bool storage_nbytes(int64_t ndim, const int64_t *sizes, const int64_t *strides, size_t itemsize,
                           size_t *out) {
  uint64_t size = 1;
  bool over = false;
  for (int64_t i = 0; i < ndim; i++) {
    if (sizes[i] == 0) {
      *out = 0;
      return true;
    }
    uint64_t span;
    over |= __builtin_mul_overflow((uint64_t)strides[i], (uint64_t)(sizes[i] - 1), &span);
    over |= __builtin_add_overflow(size, span, &size);
  }
  over |= __builtin_mul_overflow(size, (uint64_t)itemsize, &size);
  over |= size > (uint64_t)INT64_MAX;
  *out = (size_t)size;
  return !over;
}

/* check_size_nonnegative: torch's error for the first negative size. */
static bool nonnegative(int64_t ndim, const int64_t *sizes) {
  for (int64_t i = 0; i < ndim; i++)
    if (sizes[i] < 0) return ct__checked_numel(ndim, sizes) >= 0; /* records it */
  return true;
}

ct_tensor *ct__empty_strided_with(int64_t ndim, const int64_t *sizes, const int64_t *strides, const ct_resolved_opts *o) {
  /* torch's order: check_size_nonnegative, the storage's size from the strides (0 where a size is 0),
     then the tensor's numel (empty_strided((2^62, 5, 0), (0, 0, 0)): "numel: integer multiplication
     overflow") */
  if (!nonnegative(ndim, sizes)) return NULL;
  size_t nbytes = 0;
  if (!storage_nbytes(ndim, sizes, strides, ct__itemsize(o->dtype), &nbytes)) {
    if (o->device.type != CT_META) {
      char sz[512], st[512];
      ct__fmt_int_list(sz, sizeof sz, ndim, sizes);
      ct__fmt_int_list(st, sizeof st, ndim, strides);
      ct__error(CT_ERR_RUNTIME, "Storage size calculation overflowed with sizes=%s and strides=%s", sz, st);
      return NULL;
    }
    nbytes = 0; /* meta tensors have no data: PyTorch does not check their strides (sized below) */
  }
  if (!ct__check_numel(ndim, sizes)) return NULL;
  ct_storage *s = ct__storage_alloc(nbytes, o->device);
  if (!s) return NULL;
  ct_tensor *t = ct__tensor_make(s, o->dtype, 0, ndim, sizes, strides);
  ct_storage_release(s); /* the tensor holds its own reference */
  if (!t) return NULL;
  /* c10's set_sizes_and_strides: a negative stride (only possible on a size-0/1 dim once the storage
     size check passed) becomes 1 on the last dim, else the next dim's extent, keeping strides monotonic. */
  for (int64_t i = ndim - 1; i >= 0; i--)
    if (t->strides[i] < 0)
      t->strides[i] = i == ndim - 1 ? 1 : ct__mul_wrap(t->sizes[i + 1] > 1 ? t->sizes[i + 1] : 1, t->strides[i + 1]);
  /* A meta storage sized for the strides the tensor ends with, so that its geometry lies inside it as
     every tensor's does (torch 1.13 reports the wrapped size of the negative strides, 2^64 - 8 and the
     like, which no later check can use). */
  if (o->device.type == CT_META && nbytes == 0 && t->numel > 0 &&
      storage_nbytes(ndim, t->sizes, t->strides, ct__itemsize(o->dtype), &nbytes))
    t->storage->nbytes = nbytes;
  return ct__finish_requires_grad(t, o->requires_grad);
}

ct_tensor *ct__empty_like_with(const ct_tensor *t, ct_memory_format fmt, const ct_resolved_opts *o) {
  if (fmt == CT_MEMORY_FORMAT_UNSET || fmt == CT_PRESERVE_FORMAT) {
    int64_t small[8];
    int64_t *strides = t->ndim <= 8 ? small : ct__malloc((size_t)t->ndim * sizeof *strides);
    if (!strides) return NULL;
    ct__preserve_format_strides(t, strides);
    ct_tensor *r = ct__empty_strided_with(t->ndim, t->sizes, strides, o);
    if (strides != small) ct__free(strides);
    return r;
  }
  ct_resolved_opts with_fmt = *o;
  with_fmt.memory_format = fmt;
  return ct__empty_with((ct_shape){t->sizes, t->ndim}, &with_fmt);
}

ct_tensor *ct__copy_as(const ct_tensor *t, ct_dtype dt, ct_memory_format fmt) {
  ct_resolved_opts o = {dt, ct__tdevice(t), fmt, false};
  ct_tensor *r = ct__empty_like_with(t, fmt, &o);
  if (r && ct__copy_into(r, t) != CT_OK) {
    ct_release(r);
    return NULL;
  }
  return r;
}

ct_tensor *ct_empty(ct_shape shape, const ct_tensor_opts *opts) {
  ct_resolved_opts o;
  if (!ct__factory_enter(&empty_op, opts, ct_get_default_dtype(), shape, &o)) return NULL;
  return ct__own(ct__empty_with(shape, &o));
}

static ct_tensor *empty_strided_impl(ct_shape shape, ct_shape strides, const ct_resolved_opts *o) {
  if (!ct__check_list(shape, "shape") || !ct__check_list(strides, "strides")) return NULL;
  if (!nonnegative(shape.ndim, shape.data)) return NULL;
  if (shape.ndim != strides.ndim) {
    ct__error(CT_ERR_RUNTIME, "dimensionality of sizes (%lld) must match dimensionality of strides (%lld)",
              (long long)shape.ndim, (long long)strides.ndim);
    return NULL;
  }
  return ct__empty_strided_with(shape.ndim, shape.data, strides.data, o);
}

ct_tensor *ct_empty_strided(ct_shape shape, ct_shape strides, const ct_tensor_opts *opts) {
  ct_resolved_opts o;
  if (!ct__factory_enter(&empty_strided_op, opts, ct_get_default_dtype(), shape, &o)) return NULL;
  return ct__own(empty_strided_impl(shape, strides, &o));
}
