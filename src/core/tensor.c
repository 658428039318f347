/* The tensor struct: allocation, geometry helpers and the public queries. */
#include <stdio.h>
#include <stdlib.h>

#include "core/internal.h"
#include "core/layout_rules.h"

#define CT_MIN_INLINE_DIMS 2

/* The header-size budget (bench_core: header + 2-D dims + storage <= 0.55 of libtorch's TensorImpl +
   StorageImpl): one cache line. */
_Static_assert(sizeof(ct_tensor) <= 64, "the tensor header grew past one cache line");

static size_t tensor_bytes(int64_t cap) { return sizeof(ct_tensor) + 2 * (size_t)cap * sizeof(int64_t); }

/* dim_capacity is 16 bits wide; no real tensor comes near this. */
#define CT_MAX_DIMS INT16_MAX

static bool check_rank(int64_t ndim) {
  if (ndim < 0) { /* callers validate their lists (ct__check_list); this is the last line of defence */
    ct__error(CT_ERR_VALUE, "a tensor cannot have a negative number of dimensions (%lld)", (long long)ndim);
    return false;
  }
  if (ndim <= CT_MAX_DIMS) return true;
  ct__error(CT_ERR_RUNTIME, "ctorch supports at most %d dimensions, got %lld", CT_MAX_DIMS, (long long)ndim);
  return false;
}

static ct_tensor *tensor_init(ct_tensor *t, int64_t cap, int64_t ndim) {
  memset(t, 0, sizeof *t);
  atomic_init(&t->refcount, 1);
  t->ndim = (int32_t)ndim;
  t->dim_capacity = (int16_t)cap;
  t->sizes = t->inline_dims;
  t->strides = t->inline_dims + cap;
  t->layout = CT_STRIDED;
  t->device_type = CT_CPU;
  t->device_index = -1;
  return t;
}

ct_tensor *ct__tensor_alloc(int64_t ndim) {
  if (!check_rank(ndim)) return NULL;
  int64_t cap = ndim > CT_MIN_INLINE_DIMS ? ndim : CT_MIN_INLINE_DIMS;
  ct_tensor *t = ct__malloc(tensor_bytes(cap));
  return t ? tensor_init(t, cap, ndim) : NULL;
}

ct_status ct__tensor_reserve_dims(ct_tensor *t, int64_t ndim) {
  if (ndim <= t->dim_capacity) return CT_OK;
  if (!check_rank(ndim)) return ct_last_error();
  int64_t *block = ct__malloc(2 * (size_t)ndim * sizeof(int64_t));
  if (!block) return CT_ERR_OUT_OF_MEMORY;
  memcpy(block, t->sizes, (size_t)t->ndim * sizeof(int64_t));
  memcpy(block + ndim, t->strides, (size_t)t->ndim * sizeof(int64_t));
  if (t->sizes != t->inline_dims) ct__free(t->sizes);
  t->sizes = block;
  t->strides = block + ndim;
  t->dim_capacity = (int16_t)ndim;
  return CT_OK;
}

ct_status ct__tensor_set_ndim(ct_tensor *t, int64_t ndim) {
  ct_status s = ct__tensor_reserve_dims(t, ndim);
  if (s == CT_OK) t->ndim = (int32_t)ndim;
  return s;
}

bool ct__tensor_resize_ok(const ct_tensor *t, int64_t ndim, const int64_t *sizes) {
  int64_t numel = ct__checked_numel(ndim, sizes);
  if (numel < 0) return false;
  if (numel == 0 || (t->storage->flags & CT_STORAGE_RESIZABLE)) return true;
  int64_t small[64], *st = ndim > 64 ? ct__malloc((size_t)ndim * sizeof(int64_t)) : small;
  if (!st) return false;
  ct__contiguous_strides(ndim, sizes, st);
  size_t need = (size_t)ct__required_storage_elems(ndim, sizes, st, t->offset) * ct__itemsize((ct_dtype)t->dtype);
  if (st != small) ct__free(st);
  if (need <= t->storage->nbytes) return true;
  ct__error(CT_ERR_RUNTIME, "Trying to resize storage that is not resizable");
  return false;
}

ct_status ct__tensor_resize(ct_tensor *t, int64_t ndim, const int64_t *sizes, const int64_t *strides) {
  int64_t numel = ct__checked_numel(ndim, sizes);
  if (numel < 0) return CT_ERR_RUNTIME;
  int64_t contiguous[64];
  int64_t *tmp = NULL;
  if (!strides) {
    tmp = ndim > 64 ? ct__malloc((size_t)ndim * sizeof(int64_t)) : contiguous;
    if (!tmp) return CT_ERR_OUT_OF_MEMORY;
    ct__contiguous_strides(ndim, sizes, tmp);
    strides = tmp;
  }
  ct_status s = ct__tensor_reserve_dims(t, ndim);
  if (s == CT_OK) {
    /* resize_impl_cpu_'s storage size: its overflow is torch's error (the product of elements and
       itemsize wrapped to a request of 2^64 - 8 bytes for 2^63 - 2 floats) */
    uint64_t need = 0;
    if (numel && !ct__storage_nbytes(ndim, sizes, tmp ? NULL : strides, ct__itemsize((ct_dtype)t->dtype),
                                     t->offset, &need))
      s = CT_ERR_RUNTIME;
    if (s == CT_OK && need > t->storage->nbytes) {
      if (!(t->storage->flags & CT_STORAGE_RESIZABLE)) {
        ct__error(CT_ERR_RUNTIME, "Trying to resize storage that is not resizable");
        s = CT_ERR_RUNTIME;
      } else {
        s = ct__storage_realloc(t->storage, need);
      }
    }
  }
  if (s == CT_OK) {
    t->ndim = (int32_t)ndim;
    memmove(t->sizes, sizes, (size_t)ndim * sizeof(int64_t));
    memmove(t->strides, strides, (size_t)ndim * sizeof(int64_t));
    t->numel = numel;
  }
  if (tmp != contiguous) ct__free(tmp);
  return s;
}

void ct__tensor_update_numel(ct_tensor *t) {
  /* unsigned: sizes that pass the numel check can still overflow before a later zero ([0 at the end]) */
  uint64_t n = 1;
  for (int64_t i = 0; i < t->ndim; i++) n *= (uint64_t)t->sizes[i];
  t->numel = (int64_t)n;
}

void ct__tensor_ext_free(ct_tensor *t) {
  ct_tensor_ext *ext = t->ext;
  if (!ext) return;
  if (ext->release) ext->release(ext);
  ct__free(ext);
  t->ext = NULL;
}

void ct__tensor_free(ct_tensor *t) {
  if (CT_UNLIKELY(t->ext != NULL)) ct__tensor_ext_free(t);
  if (t->sizes != t->inline_dims) ct__free(t->sizes);
  if (!(t->flags & CT_TENSOR_IN_STORAGE_BLOCK)) {
    ct_storage_release(t->storage);
    ct__free(t);
    return;
  }
  ct_storage *home = (ct_storage *)((char *)t - CT_BLOCK_TENSOR_OFFSET);
  if (t->storage != home) { /* set_ gave it another storage */
    ct_storage_release(t->storage);
    ct__block_drop(home);
  } else if (!CT_DROP_LAST(home->refcount)) { /* its storage lives on in views */
    ct__block_drop(home);
  } else {
    /* the usual end of a small temporary: its storage dies with it, both holders of the block go at once */
    ct__storage_free_data(home);
    if (atomic_load_explicit(&home->block_holders, memory_order_acquire) == 2 ||
        atomic_fetch_sub_explicit(&home->block_holders, 2, memory_order_acq_rel) == 2)
      ct__free(home);
  }
}

ct_tensor *ct__tensor_make(ct_storage *s, ct_dtype dtype, int64_t offset, int64_t ndim, const int64_t *sizes,
                           const int64_t *strides) {
  ct_tensor *t = ct__tensor_alloc(ndim);
  if (!t) return NULL;
  t->storage = ct_storage_retain(s);
  t->dtype = (uint8_t)dtype;
  t->device_type = s->device_type;
  t->device_index = s->device_index;
  t->offset = offset;
  /* NULL sizes/strides: the caller fills them (and numel) itself. */
  if (ndim && sizes && strides) {
    memcpy(t->sizes, sizes, (size_t)ndim * sizeof(int64_t));
    memcpy(t->strides, strides, (size_t)ndim * sizeof(int64_t));
    ct__tensor_update_numel(t);
  } else {
    t->numel = 1;
  }
  return t;
}

ct_tensor *ct__view(const ct_tensor *base, int64_t ndim, const int64_t *sizes, const int64_t *strides,
                    int64_t offset) {
  ct_tensor *v = ct__tensor_make(base->storage, (ct_dtype)base->dtype, offset, ndim, sizes, strides);
  if (v) v->flags = (uint8_t)(v->flags | ct__math_bits(base)); /* a view reads its base's values */
  return v;
}

void ct__contiguous_strides(int64_t ndim, const int64_t *sizes, int64_t *strides) {
  /* The product wraps as c10's int64 one does: an empty tensor may have a dim so large that the strides
     outside it overflow (torch 1.13's empty((0, 2**62, 4)) has strides (0, 4, 1)). */
  int64_t s = 1;
  for (int64_t i = ndim - 1; i >= 0; i--) {
    strides[i] = s;
    s = ct__mul_wrap(s, sizes[i] > 1 ? sizes[i] : 1);
  }
}

bool ct__check_list(ct_shape s, const char *what) {
  if (CT_LIKELY(s.ndim >= 0 && (s.data || s.ndim == 0))) return true;
  if (s.ndim < 0)
    ct__error(CT_ERR_VALUE, "%s: a list of negative length %lld", what, (long long)s.ndim);
  else
    ct__error(CT_ERR_VALUE, "%s: a list of %lld entries with data NULL", what, (long long)s.ndim);
  return false;
}

bool ct__check_in_storage_slow(const ct_tensor *t) {
  const ct_storage *s = t->storage;
  if (t->device_type == CT_META || t->numel == 0) return true;
  /* at::native::checkInBoundsForStorage's arithmetic, in checked unsigned form (a geometry that made
     it this far had its strides checked when it was made; only the storage changed since) */
  size_t itemsize = ct__itemsize((ct_dtype)t->dtype);
  uint64_t span = 1, bytes, offset_bytes, need;
  bool overflow = t->offset < 0;
  for (int64_t d = 0; d < t->ndim; d++) {
    uint64_t x = 0;
    overflow |= t->strides[d] < 0 || __builtin_mul_overflow((uint64_t)t->strides[d], (uint64_t)(t->sizes[d] - 1), &x);
    overflow |= __builtin_add_overflow(span, x, &span);
  }
  overflow |= __builtin_mul_overflow(span, (uint64_t)itemsize, &bytes);
  overflow |= __builtin_mul_overflow((uint64_t)t->offset, (uint64_t)itemsize, &offset_bytes);
  overflow |= __builtin_add_overflow(bytes, offset_bytes, &need);
  if (!overflow && need <= s->nbytes && s->data) return true;
  char sb[1024], tb[1024];
  ct__fmt_int_list(sb, sizeof sb, t->ndim, t->sizes);
  ct__fmt_int_list(tb, sizeof tb, t->ndim, t->strides);
  ct__error(CT_ERR_RUNTIME,
            "setStorage: sizes %s, strides %s, storage offset %lld, and itemsize %zu requiring a storage size of "
            "%lld are out of bounds for storage of size %zu",
            sb, tb, (long long)t->offset, itemsize, overflow ? (long long)INT64_MAX : (long long)need, s->nbytes);
  return false;
}

int64_t ct__checked_numel(int64_t ndim, const int64_t *sizes) {
  /* c10's safe_multiply_u64, as computeStorageNbytesContiguous uses it: the product in 64 unsigned bits,
     an overflow there sticky (a later 0 does not clear it), and a product past 2^63 - 1 refused after. So
     sizes (5787354564543905791, 3, 0) make an empty tensor (their running product stays below 2^64), and
     (2^62, 5, 0) fail. */
  uint64_t n = 1;
  bool overflow = false;
  for (int64_t i = 0; i < ndim; i++) {
    if (sizes[i] < 0) {
      char buf[512];
      ct__fmt_int_list(buf, sizeof buf, ndim, sizes);
      ct__error(CT_ERR_RUNTIME, "Trying to create tensor with negative dimension %lld: %s", (long long)sizes[i],
                buf);
      return -1;
    }
    if (__builtin_mul_overflow(n, (uint64_t)sizes[i], &n)) overflow = true;
  }
  if (overflow || n > (uint64_t)INT64_MAX) {
    char buf[512];
    ct__fmt_int_list(buf, sizeof buf, ndim, sizes);
    ct__error(CT_ERR_RUNTIME, "Storage size calculation overflowed with sizes=%s", buf);
    return -1;
  }
  return (int64_t)n;
}

/* x + y and x * y held at the int64 limits instead of overflowing. */
static int64_t add_sat(int64_t x, int64_t y) {
  int64_t r;
  return __builtin_add_overflow(x, y, &r) ? (y < 0 ? INT64_MIN : INT64_MAX) : r;
}

static int64_t mul_sat(int64_t x, int64_t y) {
  int64_t r;
  return __builtin_mul_overflow(x, y, &r) ? ((x < 0) != (y < 0) ? INT64_MIN : INT64_MAX) : r;
}

void ct__byte_span(int64_t ndim, const int64_t *sizes, const int64_t *strides, int64_t offset, int64_t isz,
                   int64_t *lo, int64_t *hi) {
  int64_t a = offset, b = offset;
  for (int64_t i = 0; i < ndim; i++) {
    if (sizes[i] == 0) {
      *lo = *hi = 0;
      return;
    }
    int64_t ext = mul_sat(sizes[i] - 1, strides[i]);
    if (ext < 0) a = add_sat(a, ext);
    else b = add_sat(b, ext);
  }
  *lo = mul_sat(a, isz);
  *hi = mul_sat(add_sat(b, 1), isz);
}

bool ct__storage_nbytes(int64_t ndim, const int64_t *sizes, const int64_t *strides, size_t itemsize,
                        int64_t offset, uint64_t *out) {
  bool overflow = false;
  uint64_t size;
  if (strides) {
    size = (uint64_t)offset + 1;
    for (int64_t d = 0; d < ndim; d++) {
      if (sizes[d] == 0) {
        *out = 0;
        return true;
      }
      uint64_t span;
      overflow |= __builtin_mul_overflow((uint64_t)strides[d], (uint64_t)sizes[d] - 1,
                                         &span); /* sizes[d] may be INT64_MIN */
      overflow |= __builtin_add_overflow(size, span, &size);
    }
  } else {
    size = 1;
    for (int64_t d = 0; d < ndim; d++) overflow |= __builtin_mul_overflow(size, (uint64_t)sizes[d], &size);
    overflow |= __builtin_add_overflow(size, (uint64_t)offset, &size);
  }
  overflow |= __builtin_mul_overflow(size, (uint64_t)itemsize, &size);
  if (overflow || size > (uint64_t)INT64_MAX) {
    char sb[2048], tb[2048];
    ct__fmt_int_list(sb, sizeof sb, ndim, sizes);
    if (strides) {
      ct__fmt_int_list(tb, sizeof tb, ndim, strides);
      ct__error(CT_ERR_RUNTIME, "Storage size calculation overflowed with sizes=%s and strides=%s", sb, tb);
    } else {
      ct__error(CT_ERR_RUNTIME, "Storage size calculation overflowed with sizes=%s", sb);
    }
    return false;
  }
  *out = size;
  return true;
}

int64_t ct__required_storage_elems(int64_t ndim, const int64_t *sizes, const int64_t *strides, int64_t offset) {
  int64_t last = offset;
  for (int64_t i = 0; i < ndim; i++) {
    if (sizes[i] == 0) return 0;
    last += (sizes[i] - 1) * strides[i];
  }
  return last + 1;
}

ct_tensor *ct__empty(int64_t ndim, const int64_t *sizes, ct_dtype dtype, ct_device device) {
  int64_t numel = ct__checked_numel(ndim, sizes);
  if (numel < 0) return NULL;
  size_t isz = ct__itemsize(dtype), nbytes;
  /* (a multiplication, not numel > SIZE_MAX / 2 / isz: a division costs more than the rest of a small op's
     allocation) */
  if (__builtin_mul_overflow((size_t)numel, isz, &nbytes) || nbytes > SIZE_MAX / 2) {
    char buf[512];
    ct__fmt_int_list(buf, sizeof buf, ndim, sizes);
    ct__error(CT_ERR_RUNTIME, "Storage size calculation overflowed with sizes=%s", buf);
    return NULL;
  }
  ct_storage *s;
  ct_tensor *t;
  if (ndim <= CT_MIN_INLINE_DIMS && ct__storage_block_fits(nbytes, device)) {
    s = ct__storage_alloc_with_tensor(nbytes, tensor_bytes(CT_MIN_INLINE_DIMS));
    if (!s) return NULL;
    t = tensor_init((ct_tensor *)((char *)s + CT_BLOCK_TENSOR_OFFSET), CT_MIN_INLINE_DIMS, ndim);
    t->flags = CT_TENSOR_IN_STORAGE_BLOCK;
  } else {
    s = ct__storage_alloc(nbytes, device);
    if (!s) return NULL;
    t = ct__tensor_alloc(ndim);
    if (!t) {
      ct_storage_release(s);
      return NULL;
    }
  }
  t->storage = s; /* takes the allocation's reference */
  t->dtype = (uint8_t)dtype;
  t->device_type = s->device_type;
  t->device_index = s->device_index;
  for (int64_t i = 0; i < ndim; i++) t->sizes[i] = sizes[i];
  ct__contiguous_strides(ndim, sizes, t->strides);
  t->numel = numel;
  return t;
}

int64_t ct__wrap_dim(int64_t dim, int64_t ndim) {
  /* maybe_wrap_dim(wrap_scalar=true): a 0-dim tensor wraps as if it had one dim, range message included. */
  if (ndim <= 0) ndim = 1;
  if (dim < -ndim || dim >= ndim) {
    ct__error(CT_ERR_INDEX, "Dimension out of range (expected to be in range of [%lld, %lld], but got %lld)",
              (long long)-ndim, (long long)(ndim - 1), (long long)dim);
    return -1;
  }
  return dim < 0 ? dim + ndim : dim;
}

/* ---- public queries ---- */

int64_t ct_dim(const ct_tensor *t) { return t ? t->ndim : 0; }
int64_t ct_ndim(const ct_tensor *t) { return ct_dim(t); }

static int64_t wrap_query_dim(const ct_tensor *t, int64_t dim) {
  /* size()/stride() of a 0-dim tensor have no dims at all: PyTorch raises even for dim 0. */
  if (t->ndim == 0) {
    ct__error(CT_ERR_INDEX, "Dimension specified as %lld but tensor has no dimensions", (long long)dim);
    return -1;
  }
  return ct__wrap_dim(dim, t->ndim);
}

int64_t ct_size(const ct_tensor *t, int64_t dim) {
  if (!t) return -1;
  int64_t d = wrap_query_dim(t, dim);
  return d < 0 ? -1 : t->sizes[d];
}

int64_t ct_stride(const ct_tensor *t, int64_t dim) {
  if (!t) return -1;
  int64_t d = wrap_query_dim(t, dim);
  return d < 0 ? -1 : t->strides[d];
}

const int64_t *ct_sizes(const ct_tensor *t) { return t ? t->sizes : NULL; }
const int64_t *ct_strides(const ct_tensor *t) { return t ? t->strides : NULL; }
ct_shape ct_shape_of(const ct_tensor *t) { return t ? (ct_shape){t->sizes, t->ndim} : CT_SHAPE_SCALAR; }
int64_t ct_storage_offset(const ct_tensor *t) { return t ? t->offset : 0; }
int64_t ct_numel(const ct_tensor *t) { return t ? t->numel : 0; }
int64_t ct_nelement(const ct_tensor *t) { return ct_numel(t); }
int64_t ct_element_size(const ct_tensor *t) { return t ? (int64_t)ct__itemsize((ct_dtype)t->dtype) : 0; }
int64_t ct_nbytes(const ct_tensor *t) { return t ? t->numel * ct_element_size(t) : 0; }
ct_dtype ct_dtype_of(const ct_tensor *t) { return t ? (ct_dtype)t->dtype : CT_DTYPE_UNSET; }
ct_device ct_device_of(const ct_tensor *t) { return t ? ct__tdevice(t) : (ct_device){CT_DEVICE_TYPE_UNSET, -1}; }
ct_layout ct_layout_of(const ct_tensor *t) { return t ? (ct_layout)t->layout : CT_LAYOUT_UNSET; }
bool ct_is_floating_point(const ct_tensor *t) { return t && ct_dtype_is_floating_point((ct_dtype)t->dtype); }
bool ct_is_complex(const ct_tensor *t) { return t && ct_dtype_is_complex((ct_dtype)t->dtype); }
bool ct_is_signed(const ct_tensor *t) { return t && ct_dtype_is_signed((ct_dtype)t->dtype); }
bool ct_is_cuda(const ct_tensor *t) { return t && t->device_type == CT_CUDA; }
bool ct_is_meta(const ct_tensor *t) { return t && t->device_type == CT_META; }
int64_t ct_get_device(const ct_tensor *t) { return t && t->device_type == CT_CUDA ? t->device_index : -1; }
/* PyTorch reports no address for a tensor without elements. */
void *ct_data_ptr(const ct_tensor *t) { return t && t->numel ? ct__tdata(t) : NULL; }
bool ct_requires_grad(const ct_tensor *t) { return t && (t->flags & CT_TENSOR_REQUIRES_GRAD); }

ct_status ct_requires_grad_(ct_tensor *t, bool requires_grad) {
  CT__NONNULL_STATUS(t);
  if (requires_grad && !(ct_is_floating_point(t) || ct_is_complex(t))) {
    ct__error(CT_ERR_RUNTIME, "only Tensors of floating point dtype can require gradients");
    return CT_ERR_RUNTIME;
  }
  if (t->flags & (CT_TENSOR_GRAD_VIEW_OF_LEAF | CT_TENSOR_GRAD_NON_LEAF)) {
    if (requires_grad) return CT_OK;
    ct__error(CT_ERR_RUNTIME,
              "you can only change requires_grad flags of leaf variables. If you want to use a computed variable in "
              "a subgraph that doesn't require differentiation use var_no_grad = var.detach().");
    return CT_ERR_RUNTIME;
  }
  t->flags = (uint8_t)(requires_grad ? t->flags | CT_TENSOR_REQUIRES_GRAD : t->flags & ~CT_TENSOR_GRAD_BITS);
  return CT_OK;
}

ct_storage *ct_untyped_storage(const ct_tensor *t) {
  if (!t) return ct__null_ptr_arg("t");
  return ct__own_storage(ct_storage_retain(t->storage));
}

bool ct_is_contiguous(const ct_tensor *t, ct_memory_format fmt) {
  if (!t) return false;
  switch (fmt) {
    case CT_CHANNELS_LAST: return t->ndim == 4 && ct__geom_is_channels_last(t->ndim, t->sizes, t->strides);
    case CT_CHANNELS_LAST_3D: return t->ndim == 5 && ct__geom_is_channels_last(t->ndim, t->sizes, t->strides);
    default: return ct__geom_is_contiguous(t->ndim, t->sizes, t->strides);
  }
}

/* ---- torch.Size helpers ---- */
int64_t ct_shape_numel(ct_shape s) {
  if (!ct__check_list(s, "shape")) return -1;
  int64_t n = 1; /* torch.Size.numel() multiplies in int64 without checks: wrap as it does */
  for (int64_t i = 0; i < s.ndim; i++) n = ct__mul_wrap(n, s.data[i]);
  return n;
}

int64_t ct_shape_count(ct_shape s, int64_t value) {
  if (!ct__check_list(s, "shape")) return -1;
  int64_t c = 0;
  for (int64_t i = 0; i < s.ndim; i++) c += s.data[i] == value;
  return c;
}

int64_t ct_shape_index(ct_shape s, int64_t value) {
  if (!ct__check_list(s, "shape")) return -1;
  for (int64_t i = 0; i < s.ndim; i++)
    if (s.data[i] == value) return i;
  ct__error(CT_ERR_VALUE, "tuple.index(x): x not in tuple");
  return -1;
}

int ct_shape_str(ct_shape s, char *buf, size_t n) {
  if (!ct__check_list(s, "shape")) return -1;
  if (!buf && n > 0) {
    ct__error(CT_ERR_VALUE, "ct_shape_str: buf is NULL but n is %zu", n);
    return -1;
  }
  char list[4096];
  ct__fmt_int_list(list, sizeof list, s.ndim, s.data);
  return snprintf(buf, n, "torch.Size(%s)", list);
}
