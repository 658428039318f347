/* torch.UntypedStorage: refcounted bytes shared by views, and the pluggable allocators. */
#ifndef CTORCH_STORAGE_H
#define CTORCH_STORAGE_H

#include "error.h"
#include "types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* An allocator: a function table and its context, one per device type. alloc returns NULL on
   failure (the library reports out-of-memory). free receives the size given to alloc. */
typedef struct ct_allocator {
  void *(*alloc)(void *ctx, size_t nbytes);
  void (*free)(void *ctx, void *ptr, size_t nbytes);
  void *ctx;
} ct_allocator;

/* Replaces the allocator for a device type (NULL restores the default); returns the previous one.
   Storages remember the allocator that made them, so swapping is safe while they live. */
CT_API const ct_allocator *ct_set_allocator(ct_device_type type, const ct_allocator *a);
CT_API const ct_allocator *ct_get_allocator(ct_device_type type);
/* The default CPU allocator keeps freed large blocks for reuse (size classes, a byte cap).
   ct_empty_cache returns them to the system; caching can be switched off. */
CT_API void ct_empty_cache(void);
CT_API void ct_set_allocator_caching(bool enabled);
CT_API bool ct_allocator_caching(void);
/* Cap on the bytes kept in the cache (default 1 GiB). */
CT_API void ct_set_allocator_cache_limit(size_t bytes);
CT_API size_t ct_allocator_cached_bytes(void);

/* Creation. nbytes of uninitialized memory on a device (UNSET means CPU). */
CT_API ct_storage *ct_storage_new(size_t nbytes, ct_device device);
/* Wraps memory the caller owns without copying. deleter(ctx, data) is called exactly once, when the
   last reference goes (may be NULL). Such a storage is not resizable. */
CT_API ct_storage *ct_storage_from_blob(void *data, size_t nbytes, void (*deleter)(void *ctx, void *data),
                                        void *ctx);
/* torch.UntypedStorage.from_file(filename, shared, nbytes): mmap. shared=true maps MAP_SHARED,
   creating or extending the file; shared=false maps privately and needs nbytes in the file. */
CT_API ct_storage *ct_storage_from_file(const char *filename, bool shared, size_t nbytes);

CT_API ct_storage *ct_storage_retain(ct_storage *s);
CT_API void ct_storage_release(ct_storage *s);
CT_API int64_t ct_storage_refcount(const ct_storage *s);

CT_API size_t ct_storage_nbytes(const ct_storage *s);
CT_API void *ct_storage_data_ptr(const ct_storage *s);
CT_API ct_device ct_storage_device(const ct_storage *s);
/* UntypedStorage.element_size() is 1. */
CT_API int64_t ct_storage_element_size(const ct_storage *s);
CT_API bool ct_storage_resizable(const ct_storage *s);
CT_API bool ct_storage_is_shared(const ct_storage *s);
/* The mapped file's path, or NULL. */
CT_API const char *ct_storage_filename(const ct_storage *s);

/* Shrinking may leave tensors over s reaching past its end. PyTorch 1.13 then reads out of bounds; ctorch
   fails every op that reads or writes such a tensor with PyTorch's setStorage bounds error (views of it
   can still be made, and work again once the storage is large enough). */
CT_API ct_status ct_storage_resize_(ct_storage *s, size_t nbytes);
CT_API ct_storage *ct_storage_clone(const ct_storage *s);
/* Copies src into s; the sizes must match. */
CT_API ct_status ct_storage_copy_(ct_storage *s, const ct_storage *src);
CT_API ct_status ct_storage_fill_(ct_storage *s, uint8_t value);
/* Copies the bytes out (the C form of tolist()); out must hold nbytes. */
CT_API ct_status ct_storage_tolist(const ct_storage *s, uint8_t *out);
/* Reverses the bytes of each element of the dtype's size, in place. nbytes must be a multiple. */
CT_API ct_status ct_storage_byteswap(ct_storage *s, ct_dtype dtype);
/* TypedStorage conversions (storage.float(), ...): reads s as elements of `from` and returns a new
   storage of those elements cast to `to`. */
CT_API ct_storage *ct_storage_to_dtype(const ct_storage *s, ct_dtype from, ct_dtype to);
/* Moves the bytes into POSIX shared memory (shm_open, unlinked right after mapping). A shared
   storage cannot be resized. */
CT_API ct_status ct_storage_share_memory_(ct_storage *s);

#ifdef __cplusplus
}
#endif
#endif
