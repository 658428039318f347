/* In-place metadata changes: set_ (from a tensor or a storage), resize_, resize_as_, and set_'s query
   is_set_to; and the whole-tensor aliases detach and alias. A failed call leaves self exactly as it was:
   every check and every allocation happens before the first change. */
#include "ops/create_internal.h"
#include "ops/view_internal.h"
#include "ops/view_op.h"

/* alias reads a COO tensor's storage and a compressed one's strides; torch computes detach on every layout
   (pending in ctorch). set_ and resize_ change a strided tensor's storage and geometry: aten::set_ has no
   sparse kernel, aten::resize_ none for COO (torch resizes batched compressed tensors: pending). set_, resize_
   and detach are not differentiable. */
static const ct_view_op alias_op = {CT_VIEW_OP("alias", "aten::alias", CT_LAYOUTS_ALL),
                                    .coo = CT_SPARSE_NO_STORAGE, .compressed = CT_SPARSE_NO_STRIDES};
static const ct_view_op detach_op = {.op = {.name = "detach",
                                            .aten = "aten::detach",
                                            .layouts = CT_LAYOUTS_ALL,
                                            .grad = CT_OP_GRAD_NONE,
                                            CT_VIEW_ROWS}};
#define CT_SET_OP(NAME, ATEN, LAYOUTS)                                                                   \
  {                                                                                                      \
    .op = {.name = (NAME), .aten = (ATEN), .layouts = (LAYOUTS), .grad = CT_OP_GRAD_NONE, CT_VIEW_ROWS } \
  }
static const ct_view_op set_op = CT_SET_OP("set_", "aten::set_.source_Tensor", 0);
static const ct_view_op set_storage_op = CT_SET_OP("set_", "aten::set_.source_Storage_storage_offset", 0);
/* resize_as_ runs resize_: its errors name aten::resize_ */
static const ct_view_op resize_op = CT_SET_OP("resize_", "aten::resize_", CT_LAYOUTS_STRIDED_COMPRESSED);
static const ct_view_op resize_as_op =
    CT_SET_OP("resize_as_", "aten::resize_", CT_LAYOUTS_STRIDED_COMPRESSED);

ct_tensor *ct_alias(const ct_tensor *t) {
  CT__VIEW_ENTER_PTR(&alias_op, t, t);
  return ct__own(ct__alias_impl(t));
}

/* Shares storage and geometry but leaves autograd: the result never requires grad. */
ct_tensor *ct__detach_impl(const ct_tensor *t) {
  ct_tensor *v = ct__alias_impl(t);
  if (v) v->flags = (uint8_t)(v->flags & ~CT_TENSOR_GRAD_BITS);
  return v;
}

ct_tensor *ct_detach(const ct_tensor *t) {
  CT__VIEW_ENTER_PTR(&detach_op, t, t);
  return ct__own(ct__detach_impl(t));
}

static bool same_dims(int64_t n, const int64_t *a, const int64_t *b) {
  return n == 0 || memcmp(a, b, (size_t)n * sizeof(int64_t)) == 0;
}

/* The new geometry for set_ / resize_ (PyTorch's resize_impl_cpu_ after checkSetStorage):
   strides NULL means contiguous, except that unchanged sizes keep self's strides (PyTorch returns
   early then). restride, when given, replaces the final strides (resize_'s memory_format). */
typedef struct geometry {
  ct_storage *storage;
  int64_t offset, ndim;
  const int64_t *sizes, *strides, *restride;
} geometry;

/* What applying a geometry takes, worked out (and checked) before anything changes. */
typedef struct plan {
  uint64_t nbytes; /* the storage's new size when resize is set */
  bool resize;     /* set the storage's size to nbytes */
  bool unclamped;  /* contiguous strides (g.strides NULL) without clamping sizes to 1 */
} plan;

static int64_t numel_of(int64_t ndim, const int64_t *sizes) {
  int64_t n = 1;
  for (int64_t d = 0; d < ndim; d++) n = (int64_t)((uint64_t)n * (uint64_t)sizes[d]);
  return n;
}

static ct_status plan_geometry(ct_tensor *self, geometry *g, plan *p) {
  *p = (plan){0};
  bool unchanged = g->ndim == self->ndim && same_dims(g->ndim, g->sizes, self->sizes) &&
                   (!g->strides || same_dims(g->ndim, g->strides, self->strides));
  if (unchanged && !g->strides) g->strides = self->strides;
  /* PyTorch skips the storage check for unchanged sizes; it is still made here when the storage or
     offset changes, so a tensor never points past its storage. */
  if (unchanged && g->storage == self->storage && g->offset == self->offset) return CT_OK;
  if (!unchanged && !ct__check_numel(g->ndim, g->sizes)) return CT_ERR_RUNTIME;
  if (!ct__storage_nbytes(g->ndim, g->sizes, g->strides, ct__itemsize((ct_dtype)self->dtype), g->offset, &p->nbytes))
    return CT_ERR_RUNTIME;
  /* Nothing to hold: PyTorch never resizes a storage for an empty geometry. */
  p->resize = numel_of(g->ndim, g->sizes) != 0 && p->nbytes > g->storage->nbytes;
  if (p->resize && !(g->storage->flags & CT_STORAGE_RESIZABLE)) {
    ct__error(CT_ERR_RUNTIME, "Trying to resize storage that is not resizable");
    return CT_ERR_RUNTIME;
  }
  return CT_OK;
}

/* set_ on a meta tensor (set_storage_meta__symint): no early return, contiguous strides without
   PyTorch's usual clamp of sizes to 1, and the storage's size becomes exactly what the geometry
   spans (it may shrink), computed without overflow checks. */
static ct_status plan_meta_set(ct_tensor *self, geometry *g, plan *p) {
  *p = (plan){.unclamped = true};
  if (!ct__check_numel(g->ndim, g->sizes)) return CT_ERR_RUNTIME;
  if (numel_of(g->ndim, g->sizes) == 0) return CT_OK;
  if (!(g->storage->flags & CT_STORAGE_RESIZABLE)) {
    ct__error(CT_ERR_RUNTIME, "Trying to resize storage that is not resizable");
    return CT_ERR_RUNTIME;
  }
  uint64_t span = (uint64_t)g->offset + 1, stride = 1;
  for (int64_t d = g->ndim - 1; d >= 0; d--) {
    uint64_t sd = g->strides ? (uint64_t)g->strides[d] : stride;
    span += sd * ((uint64_t)g->sizes[d] - 1);
    stride *= (uint64_t)g->sizes[d];
  }
  int64_t bytes = (int64_t)(span * ct__itemsize((ct_dtype)self->dtype));
  p->nbytes = bytes > 0 ? (uint64_t)bytes : 0;
  p->resize = true;
  return CT_OK;
}

/* Applies a checked plan; a failure (out of memory) leaves self as it was. */
static ct_status apply_geometry(ct_tensor *self, const geometry *g, const plan *p) {
  ct_status st = ct__tensor_reserve_dims(self, g->ndim);
  if (st == CT_OK && p->resize) st = ct__storage_realloc(g->storage, (size_t)p->nbytes);
  if (st != CT_OK) return st;
  /* Commit: nothing below can fail. The arrays may be self's own, hence memmove. */
  if (g->storage != self->storage) {
    ct_storage *old = self->storage;
    self->storage = ct_storage_retain(g->storage);
    ct_storage_release(old);
  }
  self->offset = g->offset;
  ct__tensor_set_ndim(self, g->ndim);
  if (g->ndim) memmove(self->sizes, g->sizes, (size_t)g->ndim * sizeof(int64_t));
  const int64_t *final = g->restride ? g->restride : g->strides;
  if (final) {
    if (g->ndim) memmove(self->strides, final, (size_t)g->ndim * sizeof(int64_t));
  } else if (p->unclamped) {
    uint64_t s = 1; /* wraps like ATen's SymInt product */
    for (int64_t d = g->ndim - 1; d >= 0; s *= (uint64_t)self->sizes[d--]) self->strides[d] = (int64_t)s;
  } else {
    ct__contiguous_strides(g->ndim, self->sizes, self->strides);
  }
  ct__tensor_update_numel(self);
  return CT_OK;
}

/* set_'s core: the meta kernel or the CPU one. */
static ct_status set_storage(ct_tensor *self, geometry g) {
  plan p;
  ct_status st = self->device_type == CT_META ? plan_meta_set(self, &g, &p) : plan_geometry(self, &g, &p);
  return st != CT_OK ? st : apply_geometry(self, &g, &p);
}

/* checkSetStorage's device rule. */
static bool check_device(const ct_tensor *self, const ct_storage *s) {
  const ct_storage *mine = self->storage;
  if (mine == s || (mine->device_type == s->device_type && mine->device_index == s->device_index)) return true;
  char a[64], b[64];
  ct_device_str((ct_device){(ct_device_type)mine->device_type, mine->device_index}, a, sizeof a);
  ct_device_str((ct_device){(ct_device_type)s->device_type, s->device_index}, b, sizeof b);
  ct__error(CT_ERR_RUNTIME,
            "Attempted to set the storage of a tensor on device \"%s\" to a storage on different device \"%s\".  "
            "This is no longer allowed; the devices must match.",
            a, b);
  return false;
}

static bool check_offset(int64_t offset) {
  if (offset >= 0) return true;
  ct__error(CT_ERR_RUNTIME, "Tensor: invalid storage offset %lld", (long long)offset);
  return false;
}

ct_status ct_set_storage_(ct_tensor *self, ct_storage *source, int64_t storage_offset, ct_shape size,
                          ct_shape stride) {
  CT__VIEW_ENTER_STATUS(&set_storage_op, self, self, source);
  if (!ct__check_list(size, "size") || !ct__check_list(stride, "stride")) return CT_ERR_VALUE;
  return ct__set_storage_impl(self, source, storage_offset, size, stride);
}

ct_status ct__set_storage_impl(ct_tensor *self, ct_storage *source, int64_t storage_offset, ct_shape size,
                               ct_shape stride) {
  if (!ct__check_inplace(self)) return CT_ERR_RUNTIME;
  /* An empty stride list is "not given" (contiguous), as in PyTorch, where it has no data. */
  if (stride.ndim == 0) stride.data = NULL;
  if (stride.data && size.ndim != stride.ndim) {
    ct__error(CT_ERR_RUNTIME, "unequal size length (%lld) and stride length (%lld)", (long long)size.ndim,
              (long long)stride.ndim);
    return CT_ERR_RUNTIME;
  }
  if (!check_device(self, source) || !check_offset(storage_offset)) return CT_ERR_RUNTIME;
  return set_storage(self, (geometry){source, storage_offset, size.ndim, size.data, stride.data, NULL});
}

ct_status ct_set_(ct_tensor *self, const ct_tensor *source) {
  CT__VIEW_ENTER_STATUS(&set_op, self, self, source);
  /* the dispatcher sees both tensors: a sparse source is refused as a sparse self */
  if (!ct__op_accepts(&set_op.op, source)) return ct_last_error();
  return ct__set_impl(self, source);
}

/* aten::is_set_to has CPU and CUDA kernels, which read metadata only: no Meta kernel, no sparse one (the
   dispatcher's key over both tensors refuses them). Not differentiable. */
static const ct_op is_set_to_op = {
    .name = "is_set_to",
    .aten = "aten::is_set_to",
    .grad = CT_OP_GRAD_NONE,
    .kernels = {[CT_CPU] = ct__op_row_generic, [CT_CUDA] = ct__op_row_generic}};

ct_status ct_is_set_to(const ct_tensor *a, const ct_tensor *b, bool *out) {
  CT__NONNULL_STATUS(a, b);
  if (!CT__OP_ACCEPTS(&is_set_to_op, is_set_to_op.aten, a, b)) return ct_last_error();
  if (!out) { /* as ct_equal's: the result pointer after the tensors' checks */
    ct__error(CT_ERR_VALUE, "ct_is_set_to: out is NULL");
    return CT_ERR_VALUE;
  }
  /* torch's Conjugate and Negative fallbacks run the kernel on a resolved copy of a tensor with a math bit,
     whose storage is new: such a tensor is set to nothing, itself included */
  *out = !ct__math_bits(a) && !ct__math_bits(b) && ct__same_view(a, b);
  return CT_OK;
}

ct_status ct__set_impl(ct_tensor *self, const ct_tensor *source) {
  if (!ct__check_inplace(self)) return CT_ERR_RUNTIME;
  /* Python's binding asserts this before ATen sees the call; its message is what users get. */
  if (self->dtype != source->dtype) {
    ct__error(CT_ERR_RUNTIME,
              "source.dtype() == self.dtype() INTERNAL ASSERT FAILED at "
              "\"./torch/csrc/autograd/generated/python_variable_methods.cpp\":16761, please report a bug to "
              "PyTorch. ");
    return CT_ERR_RUNTIME;
  }
  if (self == source) return CT_OK;
  if (!check_device(self, source->storage)) return CT_ERR_RUNTIME;
  ct_status st = set_storage(self, (geometry){source->storage, source->offset, source->ndim, source->sizes,
                                              source->strides, NULL});
  /* self now shows source's data: it requires grad when source does. */
  if (st == CT_OK && (source->flags & CT_TENSOR_REQUIRES_GRAD)) ct__grad_mark_result(self, source);
  return st;
}

static bool check_resizable_var(const ct_tensor *self) {
  if (!(self->flags & CT_TENSOR_REQUIRES_GRAD)) return true;
  ct__error(CT_ERR_RUNTIME, "cannot resize variables that require grad");
  return false;
}

ct_status ct_resize_(ct_tensor *self, ct_shape size, ct_memory_format fmt) {
  CT__VIEW_ENTER_STATUS(&resize_op, self, self);
  if (!ct__check_list(size, "size")) return CT_ERR_VALUE;
  return ct__resize_impl(self, size, fmt);
}

ct_status ct__resize_impl(ct_tensor *self, ct_shape size, ct_memory_format fmt) {
  if (!check_resizable_var(self)) return CT_ERR_RUNTIME;
  /* PyTorch resizes first (resize_impl_cpu_), so its errors come before the memory format's. */
  geometry g = {self->storage, self->offset, size.ndim, size.data, NULL, NULL};
  plan p;
  ct_status st = plan_geometry(self, &g, &p);
  if (st != CT_OK) return st;
  if (fmt == CT_PRESERVE_FORMAT) {
    ct__error(CT_ERR_RUNTIME, "Unsupported memory formatPreserve");
    return CT_ERR_RUNTIME;
  }
  /* UNSET is PyTorch's memory_format=None: no restride, so unchanged sizes keep their strides. A format
     restrides after the resize (empty_tensor_restride); its strides are computed up front so a rank
     error comes before any change. */
  int64_t *restride = NULL;
  if (fmt != CT_MEMORY_FORMAT_UNSET) {
    restride = ct__malloc((size_t)(size.ndim ? size.ndim : 1) * sizeof(int64_t));
    if (!restride) return CT_ERR_OUT_OF_MEMORY;
    if (!ct__format_strides(size.ndim, size.data, fmt, restride)) {
      ct__free(restride);
      return CT_ERR_RUNTIME;
    }
    g.restride = restride;
    /* The storage must hold the strides the tensor ends with: torch restrides an unchanged size without
       checking, which can point a tensor (once expanded, say) past its storage. */
    geometry final = g;
    final.strides = restride;
    final.restride = NULL;
    st = plan_geometry(self, &final, &p);
    if (st != CT_OK) {
      ct__free(restride);
      return st;
    }
  }
  st = apply_geometry(self, &g, &p);
  ct__free(restride);
  return st;
}

ct_status ct_resize_as_(ct_tensor *self, const ct_tensor *other) {
  CT__VIEW_ENTER_STATUS(&resize_as_op, self, self, other);
  return ct__resize_as_impl(self, other);
}

ct_status ct__resize_as_impl(ct_tensor *self, const ct_tensor *other) {
  if (!check_resizable_var(self)) return CT_ERR_RUNTIME;
  geometry g = {self->storage, self->offset, other->ndim, other->sizes, NULL, NULL};
  plan p;
  ct_status st = plan_geometry(self, &g, &p);
  return st != CT_OK ? st : apply_geometry(self, &g, &p);
}
