/* Storage lifetime and the basic storage queries. File mappings, shared memory and the byte-level
   storage ops live in storage_file.c and storage_ops.c. */
#include <stdlib.h>

#include "core/internal.h"

static const ct_allocator *allocators[4];

const ct_allocator *ct_set_allocator(ct_device_type type, const ct_allocator *a) {
  if ((unsigned)type >= 4) return NULL;
  const ct_allocator *prev = ct_get_allocator(type);
  allocators[type] = a;
  return prev;
}

const ct_allocator *ct_get_allocator(ct_device_type type) {
  if ((unsigned)type >= 4) return NULL;
  return allocators[type] ? allocators[type] : ct__default_allocator(type);
}

ct_storage *ct__storage_shell(ct_device device) {
  ct_storage *s = ct__calloc(1, sizeof *s);
  if (!s) return NULL;
  atomic_init(&s->refcount, 1);
  s->device_type = (uint8_t)(device.type == CT_DEVICE_TYPE_UNSET ? CT_CPU : device.type);
  s->device_index = (int8_t)(device.type == CT_CUDA ? (device.index < 0 ? 0 : device.index) : -1);
  return s;
}

static bool check_device_usable(ct_device device) {
  if (device.type == CT_CUDA && !ct_cuda_is_available()) {
    ct__error(CT_ERR_RUNTIME, "Torch not compiled with CUDA enabled");
    return false;
  }
  return true;
}

/* Bytes kept inside the storage block itself: small tensors ("many tiny tensors") then cost one
   allocation for their storage instead of two. Only with the default CPU allocator, so a user's
   allocator still sees every data allocation. */
#define CT_INLINE_DATA_BYTES 64

/* A storage whose data (nbytes <= CT_INLINE_DATA_BYTES) lives in its own block, after room for a tensor
   struct of tensor_bytes (0: none) at CT_BLOCK_TENSOR_OFFSET. No allocator: the bytes go with the struct.
   Plain malloc, not posix_memalign: glibc's memalign splits and frees the block's ends on every call (and
   a free next to the top chunk then consolidates), which costs more than the whole tensor. The data
   starts at the first 64-byte boundary after the header and tensor, keeping PyTorch's 64-byte alignment
   of data pointers. */
static ct_storage *inline_block(size_t nbytes, size_t tensor_bytes) {
  _Static_assert(sizeof(ct_storage) <= CT_BLOCK_TENSOR_OFFSET, "storage header must fit before the tensor");
  size_t head = tensor_bytes ? CT_BLOCK_TENSOR_OFFSET + tensor_bytes : sizeof(ct_storage);
  ct_storage *s = ct__malloc(head + 63 + CT_INLINE_DATA_BYTES);
  if (!s) return NULL;
  memset(s, 0, sizeof *s);
  atomic_init(&s->refcount, 1);
  atomic_init(&s->block_holders, tensor_bytes ? 2 : 0);
  s->device_type = CT_CPU;
  s->device_index = -1;
  s->flags = CT_STORAGE_RESIZABLE;
  s->nbytes = nbytes;
  s->data = (void *)(((uintptr_t)s + head + 63) & ~(uintptr_t)63);
  return s;
}

bool ct__storage_block_fits(size_t nbytes, ct_device device) {
  const ct_allocator *user = allocators[CT_CPU];
  return nbytes > 0 && nbytes <= CT_INLINE_DATA_BYTES && (device.type == CT_CPU || device.type == CT_DEVICE_TYPE_UNSET) &&
         (!user || user == ct__default_allocator(CT_CPU));
}

ct_storage *ct__storage_alloc_with_tensor(size_t nbytes, size_t tensor_bytes) {
  return inline_block(nbytes, tensor_bytes);
}

ct_storage *ct__storage_alloc(size_t nbytes, ct_device device) {
  if (!check_device_usable(device)) return NULL;
  ct_device_type type = device.type == CT_DEVICE_TYPE_UNSET ? CT_CPU : device.type;
  const ct_allocator *a = type == CT_META ? NULL : ct_get_allocator(type);
  if (a && nbytes > 0 && nbytes <= CT_INLINE_DATA_BYTES && a == ct__default_allocator(CT_CPU))
    return inline_block(nbytes, 0);
  ct_storage *s = ct__storage_shell(device);
  if (!s) return NULL;
  s->flags = CT_STORAGE_RESIZABLE;
  s->nbytes = nbytes;
  if (!a || nbytes == 0) return s;
  s->allocator = a;
  s->data = ct__alloc_should_fail() ? NULL : a->alloc(a->ctx, nbytes);
  if (!s->data) {
    ct__free(s);
    ct__oom_error(nbytes);
    return NULL;
  }
  return s;
}

ct_status ct__storage_realloc(ct_storage *s, size_t nbytes) {
  if (s->device_type == CT_META) {
    s->nbytes = nbytes;
    return CT_OK;
  }
  const ct_allocator *a = !ct__storage_ext(s) && s->allocator ? s->allocator : ct_get_allocator((ct_device_type)s->device_type);
  void *p = NULL;
  if (nbytes) {
    p = ct__alloc_should_fail() ? NULL : a->alloc(a->ctx, nbytes);
    if (!p) {
      ct__oom_error(nbytes);
      return CT_ERR_OUT_OF_MEMORY;
    }
    size_t keep = s->nbytes < nbytes ? s->nbytes : nbytes;
    if (keep && s->data) memcpy(p, s->data, keep);
  }
  if (s->data && !ct__storage_ext(s) && s->allocator) s->allocator->free(s->allocator->ctx, s->data, s->nbytes);
  if (nbytes < s->nbytes) s->flags = (uint16_t)(s->flags | CT_STORAGE_SHRUNK); /* views may now overhang */
  s->data = p;
  s->nbytes = nbytes;
  s->allocator = a;
  return CT_OK;
}

ct_storage *ct_storage_new(size_t nbytes, ct_device device) {
  return ct__own_storage(ct__storage_alloc(nbytes, device));
}

ct_storage *ct_storage_retain(ct_storage *s) {
  if (s) atomic_fetch_add_explicit(&s->refcount, 1, memory_order_relaxed);
  return s;
}

void ct__storage_free_data(ct_storage *s) {
  ct_storage_ext *ext = ct__storage_ext(s);
  if (ext && ext->release)
    ext->release(s);
  else if (!ext && s->data && s->allocator)
    s->allocator->free(s->allocator->ctx, s->data, s->nbytes);
  if (ext) {
    ct__free(ext->filename);
    ct__free(ext);
  }
  s->data = NULL;
  s->allocator = NULL;
  s->flags = (uint16_t)(s->flags & ~CT_STORAGE_HAS_EXT);
}

void ct__block_drop(ct_storage *s) {
  if (CT_DROP_LAST(s->block_holders)) ct__free(s);
}

void ct_storage_release(ct_storage *s) {
  if (s && !ct__release_refused(&s->refcount, s, false)) ct__storage_drop(s);
}

void ct__storage_drop(ct_storage *s) {
  if (!CT_DROP_LAST(s->refcount)) return;
  ct__storage_free_data(s);
  if (atomic_load_explicit(&s->block_holders, memory_order_relaxed))
    ct__block_drop(s);
  else
    ct__free(s);
}

int64_t ct_storage_refcount(const ct_storage *s) {
  return s ? atomic_load(&((ct_storage *)s)->refcount) & CT_REFS_MASK : 0;
}
size_t ct_storage_nbytes(const ct_storage *s) { return s ? s->nbytes : 0; }
void *ct_storage_data_ptr(const ct_storage *s) { return s ? s->data : NULL; }
ct_device ct_storage_device(const ct_storage *s) {
  return s ? (ct_device){(ct_device_type)s->device_type, s->device_index} : (ct_device){CT_DEVICE_TYPE_UNSET, -1};
}
int64_t ct_storage_element_size(const ct_storage *s) { return s ? 1 : 0; }
bool ct_storage_resizable(const ct_storage *s) { return s && (s->flags & CT_STORAGE_RESIZABLE); }
bool ct_storage_is_shared(const ct_storage *s) { return s && (s->flags & CT_STORAGE_SHARED); }
const char *ct_storage_filename(const ct_storage *s) { return s && ct__storage_ext(s) ? s->ext->filename : NULL; }
