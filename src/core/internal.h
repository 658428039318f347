/* Internal core: struct layouts and helpers shared by every layer. Never installed. */
#ifndef CTORCH_CORE_INTERNAL_H
#define CTORCH_CORE_INTERNAL_H

#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>

#include "ctorch.h"

#define CT_PRINTF(a, b) __attribute__((format(printf, a, b)))
#define CT_LIKELY(x) __builtin_expect(!!(x), 1)
#define CT_NOINLINE __attribute__((noinline))
/* Drops one of the references counted by rc; true when it was the last. A holder of the only reference
   shares the object with no one, so it skips the locked read-modify-write (the acquire load still orders
   the other holders' earlier releases before the free). */
#define CT_DROP_LAST(rc) \
  (atomic_load_explicit(&(rc), memory_order_acquire) == 1 || atomic_fetch_sub_explicit(&(rc), 1, memory_order_acq_rel) == 1)
#define CT_UNLIKELY(x) __builtin_expect(!!(x), 0)

/* ---- dtype traits: the one table every dtype question is answered from ---- */
typedef enum { CT_CAT_BOOL = 0, CT_CAT_INT = 1, CT_CAT_FLOAT = 2, CT_CAT_COMPLEX = 3 } ct_dtype_category;

typedef struct ct_dtype_traits {
  const char *name;        /* "float32" */
  const char *torch_name;  /* "torch.float32" */
  const char *legacy_name; /* "torch.FloatTensor" */
  const char *scalar_name; /* "Float" (ATen's ScalarType name, used in messages) */
  uint8_t itemsize;
  uint8_t category;
  bool is_signed;
} ct_dtype_traits;

extern const ct_dtype_traits ct__dtype_table[CT_NUM_DTYPES + 1];

static inline bool ct__dtype_valid(ct_dtype d) { return d >= CT_BOOL && d <= CT_COMPLEX128; }
static inline const ct_dtype_traits *ct__dt(ct_dtype d) { return &ct__dtype_table[ct__dtype_valid(d) ? d : 0]; }
static inline size_t ct__itemsize(ct_dtype d) { return ct__dt(d)->itemsize; }

/* ---- errors ---- */
/* Records an error (always overwrites: callers that only propagate a NULL input do not call this). */
void ct__error(ct_error_kind kind, const char *fmt, ...) CT_PRINTF(2, 3);
/* The message text of the recorded error is copied here for formatting helpers. */
#define CT_ERR_NULL(kind, ...) (ct__error((kind), __VA_ARGS__), (void *)0)
/* What a ct_status function returns for a NULL input: the error already recorded (the first cause
   of a failed chain), which it keeps. With none recorded, a NULL argument is itself the first cause:
   a ValueError is recorded, so that the status always equals ct_last_error(). */
ct_status ct__null_status(void);
/* Checks a dtype argument and records PyTorch-style error for an invalid value. */
bool ct__check_dtype(ct_dtype d);

/* ---- allocation of library metadata; every allocation point can be made to fail (tests) ---- */
void *ct__malloc(size_t n);
void *ct__calloc(size_t count, size_t size);
void *ct__realloc(void *p, size_t n);
void ct__free(void *p);
/* Aligned metadata allocation (align a power of two, multiple of sizeof(void *)); freed with ct__free. */
void *ct__malloc_aligned(size_t align, size_t n);
/* Records PyTorch's CPU out-of-memory error for a request of n bytes. */
void ct__oom_error(size_t n);
/* True when the fault injector says this allocation must fail (also consulted for storage data). */
bool ct__alloc_should_fail(void);
/* Test hook: the allocation `n` steps from now fails (n = 0: the next one); negative disables. Not exported
   from the .so (hidden, like every internal function): the unit tests link libctorch.a. */
void ct_debug_fail_allocation_at(int64_t n);

/* ---- storage ---- */
enum {
  CT_STORAGE_RESIZABLE = 1u << 0,
  CT_STORAGE_EXTERNAL = 1u << 1, /* caller memory with a deleter */
  CT_STORAGE_MAPPED = 1u << 2,   /* mmap of a file */
  CT_STORAGE_SHARED = 1u << 3,   /* POSIX shared memory or MAP_SHARED file */
  CT_STORAGE_HAS_EXT = 1u << 4,  /* the union below holds ext, not allocator */
  /* The data has shrunk at least once (UntypedStorage.resize_ to fewer bytes): tensors made before may now
     reach past its end, so ops check their geometry against it (ct__check_in_storage). */
  CT_STORAGE_SHRUNK = 1u << 5,
};

/* Optional parts of a storage (external memory, files, shared memory); NULL for plain storages. */
typedef struct ct_storage_ext {
  void (*release)(ct_storage *s); /* frees s->data; replaces the allocator's free */
  void (*deleter)(void *ctx, void *data);
  void *ctx;
  char *filename;
  size_t map_len;
} ct_storage_ext;

struct ct_storage {
  _Atomic int32_t refcount;
  uint8_t device_type;
  int8_t device_index;
  uint16_t flags;
  _Atomic uint32_t version; /* bumped by in-place writes; shared by every view */
  /* Nonzero when the storage's block also holds the tensor created with it (ct__empty of a small CPU
     tensor): the number of the two (storage, tensor) still alive; the last one frees the block. */
  _Atomic uint32_t block_holders;
  void *data;
  size_t nbytes;
  /* Who frees data: the allocator that made it, or (external memory, files, shared memory; flag
     CT_STORAGE_HAS_EXT) the ext's release. Never both, so they share the space. */
  union {
    const ct_allocator *allocator;
    ct_storage_ext *ext;
  };
};

/* The storage's ext, or NULL for allocator-made storages. */
static inline ct_storage_ext *ct__storage_ext(const ct_storage *s) {
  return (s->flags & CT_STORAGE_HAS_EXT) ? s->ext : NULL;
}
/* Makes ext the storage's owner of data (the storage had no allocator-owned data). */
static inline void ct__storage_set_ext(ct_storage *s, ct_storage_ext *ext) {
  s->ext = ext;
  s->flags = (uint16_t)(s->flags | CT_STORAGE_HAS_EXT);
}

/* A storage of nbytes from the device's allocator; meta storages have no data. NULL + OOM on failure. */
ct_storage *ct__storage_alloc(size_t nbytes, ct_device device);
/* A storage struct with no data yet (for external memory and mappings). */
ct_storage *ct__storage_shell(ct_device device);
/* Whether a storage of nbytes on device may share one allocation with its tensor: small CPU data from
   the default allocator. */
bool ct__storage_block_fits(size_t nbytes, ct_device device);
/* Such a storage, with room for a tensor struct of tensor_bytes at CT_BLOCK_TENSOR_OFFSET from it: one
   allocation instead of two for the many small tensors ops create. */
ct_storage *ct__storage_alloc_with_tensor(size_t nbytes, size_t tensor_bytes);
#define CT_BLOCK_TENSOR_OFFSET 48
/* Drops one holder of a shared storage-and-tensor block, freeing it with the last. */
void ct__block_drop(ct_storage *s);
const ct_allocator *ct__default_allocator(ct_device_type type);
/* Frees the data block (through ext->release or the allocator) and the optional parts, leaving a
   storage with no data; used by release and by share_memory_ when it moves the bytes. */
void ct__storage_free_data(ct_storage *s);
/* Grows (or shrinks) the data to nbytes keeping the common prefix; the storage must be resizable. */
ct_status ct__storage_realloc(ct_storage *s, size_t nbytes);

/* ---- tensor ---- */
enum {
  CT_TENSOR_WRAPPED_NUMBER = 1u << 0,
  CT_TENSOR_REQUIRES_GRAD = 1u << 1,
  CT_TENSOR_IN_STORAGE_BLOCK = 1u << 2, /* the struct lives in its first storage's block */
  /* Where a tensor that requires grad stands in torch's graph (both clear for a leaf, and for every
     tensor that does not require grad): a view of a leaf, or the result of an op. Autograd refuses
     in-place writes to the first two kinds only. */
  CT_TENSOR_GRAD_VIEW_OF_LEAF = 1u << 3,
  CT_TENSOR_GRAD_NON_LEAF = 1u << 4,
};
#define CT_TENSOR_GRAD_BITS (CT_TENSOR_REQUIRES_GRAD | CT_TENSOR_GRAD_VIEW_OF_LEAF | CT_TENSOR_GRAD_NON_LEAF)

/* Kept small: "many tiny tensors" is a real workload. A 2-D tensor is this header plus 32 bytes of
   inline dims. Autograd metadata and the parts of non-strided kinds will need a pointer here when
   they arrive. */
struct ct_tensor {
  _Atomic int32_t refcount;
  uint8_t dtype;
  uint8_t layout;
  uint8_t device_type;
  uint8_t flags;
  int16_t device_index;
  int16_t dim_capacity; /* dims held by the current block (inline or heap) */
  int32_t ndim;
  int64_t offset; /* in elements */
  int64_t numel;
  ct_storage *storage;
  int64_t *sizes;   /* sizes[ndim] then, at sizes + dim_capacity, the strides */
  int64_t *strides;
  int64_t inline_dims[];
};

static inline ct_device ct__tdevice(const ct_tensor *t) {
  return (ct_device){(ct_device_type)t->device_type, t->device_index};
}
static inline char *ct__tdata(const ct_tensor *t) {
  return t->storage->data ? (char *)t->storage->data + t->offset * (int64_t)ct__itemsize((ct_dtype)t->dtype) : NULL;
}

/* A tensor struct with room for ndim dims, refcount 1, no storage. Not registered in any scope. */
ct_tensor *ct__tensor_alloc(int64_t ndim);
/* Makes room for ndim dims, keeping the current sizes and strides; ndim itself is unchanged. */
ct_status ct__tensor_reserve_dims(ct_tensor *t, int64_t ndim);
/* Makes t hold ndim dims (the first min(old, new) sizes/strides are kept). */
ct_status ct__tensor_set_ndim(ct_tensor *t, int64_t ndim);
/* resize_ to sizes with the given element strides (NULL: contiguous), growing a resizable storage when
   the geometry needs more bytes; keeps the storage offset. On failure t is unchanged. */
ct_status ct__tensor_resize(ct_tensor *t, int64_t ndim, const int64_t *sizes, const int64_t *strides);
/* Recomputes numel from sizes. */
void ct__tensor_update_numel(ct_tensor *t);
/* A tensor over storage s (retained) with the given geometry; refcount 1, not scope-registered.
   sizes and strides may be NULL: the caller then fills them and calls ct__tensor_update_numel. */
ct_tensor *ct__tensor_make(ct_storage *s, ct_dtype dtype, int64_t offset, int64_t ndim, const int64_t *sizes,
                           const int64_t *strides);
/* A new view of base's storage: same dtype and device; not scope-registered. */
ct_tensor *ct__view(const ct_tensor *base, int64_t ndim, const int64_t *sizes, const int64_t *strides,
                    int64_t offset);
/* Uninitialized contiguous tensor (not scope-registered). */
ct_tensor *ct__empty(int64_t ndim, const int64_t *sizes, ct_dtype dtype, ct_device device);
/* Frees a tensor whose refcount reached zero. */
void ct__tensor_free(ct_tensor *t);
/* Contiguous strides for sizes (PyTorch: a size-0 or size-1 dim gets stride as if size were 1). */
void ct__contiguous_strides(int64_t ndim, const int64_t *sizes, int64_t *strides);
/* Number of elements; records an error and returns -1 on a negative size or overflow. */
int64_t ct__checked_numel(int64_t ndim, const int64_t *sizes);
/* The smallest storage size (in elements) that holds the geometry; 0 when numel is 0. */
int64_t ct__required_storage_elems(int64_t ndim, const int64_t *sizes, const int64_t *strides, int64_t offset);

/* Wrapping int64 multiply: the bits PyTorch's unchecked int64 arithmetic gives, without undefined
   behaviour (strides times itemsize on size-0/size-1 dims may overflow; nothing reads through them). */
static inline int64_t ct__mul_wrap(int64_t a, int64_t b) { return (int64_t)((uint64_t)a * (uint64_t)b); }

/* The one check of a ct_shape / ct_dims argument at the API boundary: a length >= 0, and data when the
   length is > 0. Records a ValueError naming the argument (`what`: "size", "stride", "dims", ...). */
bool ct__check_list(ct_shape s, const char *what);

/* Whether t's elements all lie inside its storage (they may not once the storage has shrunk under
   it): one flag test unless the storage ever shrank, then PyTorch's setStorage bounds check and its
   RuntimeError. Every entry that reads or writes tensor memory calls it. Meta tensors always pass. */
bool ct__check_in_storage_slow(const ct_tensor *t);
static inline bool ct__check_in_storage(const ct_tensor *t) {
  return CT_LIKELY(!(t->storage->flags & CT_STORAGE_SHRUNK)) || ct__check_in_storage_slow(t);
}

/* Wraps a dim into [0, ndim) with PyTorch's IndexError; returns -1 after recording it.
   ndim 0 is treated as 1 (scalars accept dim 0 and -1; others get the [-1, 0] range message), as
   PyTorch's maybe_wrap_dim does. */
int64_t ct__wrap_dim(int64_t dim, int64_t ndim);

/* ---- ownership and scopes ---- */
/* Registers a freshly made result with the innermost scope (if any) and returns it. On NULL input
   returns NULL. If registration itself fails, releases t and returns NULL. */
ct_tensor *ct__own(ct_tensor *t);
ct_storage *ct__own_storage(ct_storage *s);
ct_tensor_list *ct__own_list(ct_tensor_list *l);
/* Allocates a list block for n tensors (items zeroed). */
ct_tensor_list *ct__list_alloc(int64_t n);
/* Frees a list block and releases the tensors it holds (used on error paths before ownership). */
void ct__list_destroy(ct_tensor_list *l);

/* ---- scalars ---- */
double ct__scalar_to_double(ct_scalar s);
int64_t ct__scalar_to_int64(ct_scalar s);
/* The dtype PyTorch gives a Python number: bool, int64, the default float, the default complex. */
ct_dtype ct__scalar_default_dtype(ct_scalar s);

/* ---- type promotion ---- */
/* result_type over n operands (NULL entries fail); wrapped numbers flagged CT_TENSOR_WRAPPED_NUMBER. */
ct_status ct__result_type(const ct_tensor *const *ts, int64_t n, ct_dtype *out);

/* ---- formatting helpers for messages ---- */
/* "[2, 3]" into buf (PyTorch's IntArrayRef printing). */
int ct__fmt_int_list(char *buf, size_t n, int64_t count, const int64_t *vals);

/* ---- autograd's leaf rules (autograd_flags.c) ---- */
/* The grad bits a view of t gets: a view of a leaf (or of a view of one) is a view of a leaf, a view of
   a result is a result. */
uint8_t ct__grad_view_flags(const ct_tensor *t);
/* Marks r as the result of an op on src: it requires grad (as a non-leaf) when src does. */
void ct__grad_mark_result(ct_tensor *r, const ct_tensor *src);
/* check_inplace: refuses an in-place write to a leaf that requires grad, or to a view of one, with
   torch's message. Records the error and returns false. */
bool ct__check_inplace(const ct_tensor *t);
/* The same for a tensor with these flags (a view not made: ct__grad_view_flags). */
bool ct__check_inplace_flags(uint8_t flags);

#endif
