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
  /* The rest is read by ops (the columns are explained in core/dtype_list.h). */
  const char *cpp_name;      /* "int": c10's "value cannot be converted to type int without overflow" */
  const char *typemeta_name; /* "long int": caffe2::TypeMeta, in random's bounds and out= dtype messages */
  uint8_t digits;            /* numeric_limits<T>::digits (a complex type's component) */
  /* at::acc_type<T, false>: what torch 1.13's CPU kernels accumulate in where they ask for it: arange's
     start/end/step, cumsum/cumprod's running value (float -> double), var/std's Welford state. Other
     kernels choose for themselves, and ctorch follows each: sum/mean's cascade adds in the input's type
     (float16/bfloat16 in float: opmath), norm accumulates in the input's real type (float16/bfloat16 in
     their own), linspace/logspace step in double for integers and in the type otherwise, multinomial
     sums in opmath. */
  uint8_t acc_dtype;
  uint8_t opmath_dtype;  /* at::opmath_type<T>: float for float16/bfloat16, the type itself otherwise */
  uint8_t complex_dtype; /* c10::toComplexType (CT_DTYPE_UNSET: none in ctorch) */
  uint8_t real_dtype;    /* c10::toRealValueType */
  double lowest, max;    /* numeric_limits<T>::lowest() / max() as doubles (a complex type's component) */
} ct_dtype_traits;

extern const ct_dtype_traits ct__dtype_table[CT_NUM_DTYPES + 1];
/* Integral and bool dtypes: their smallest and largest value as int64 (bool: 0 and 1). */
static inline int64_t ct__int_max(const ct_dtype_traits *t) {
  return t->category == CT_CAT_BOOL ? 1 : (int64_t)(UINT64_MAX >> (64 - t->digits));
}
static inline int64_t ct__int_min(const ct_dtype_traits *t) { return t->is_signed ? -ct__int_max(t) - 1 : 0; }

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
/* The same for a NULL argument whose place is known: with no error recorded, records the ValueError
   "ct_mul: argument 'other' (position 2) is NULL" (the function when it can be told; name NULL: the
   position only). position counts the C arguments from 1. */
ct_status ct__null_arg(int position, const char *name);
/* The same where the argument is known by its C parameter's name only (the public functions that return
   a pointer): "ct_transpose: argument 't' is NULL"; returns NULL. */
void *ct__null_ptr_arg(const char *name);
/* The entry guard's NULL part, for any number of pointer arguments: the first NULL one is named from the
   stringized argument list ("out, t" -> 'out'), so a call site is one line:
     CT__NONNULL_STATUS(out, t);   in a function returning ct_status
     CT__NONNULL_PTR(t, other);    in a function returning a pointer */
/* inline: with the pointers known at the call, it folds into one test per argument (the guard of a tiny view
   costs no call) */
static inline int ct__first_null(const void *const *ptrs, int n) {
  for (int i = 0; i < n; i++)
    if (!ptrs[i]) return i;
  return -1;
}
ct_status ct__null_named_status(const char *names, int index);
#define CT__PTRS_(...) ((const void *const[]){__VA_ARGS__})
#define CT__NPTRS_(...) ((int)(sizeof CT__PTRS_(__VA_ARGS__) / sizeof(const void *)))
#define CT__NONNULL_STATUS(...)                                                      \
  do {                                                                               \
    int ct_null_i_ = ct__first_null(CT__PTRS_(__VA_ARGS__), CT__NPTRS_(__VA_ARGS__)); \
    if (CT_UNLIKELY(ct_null_i_ >= 0)) return ct__null_named_status(#__VA_ARGS__, ct_null_i_); \
  } while (0)
#define CT__NONNULL_PTR(...)                                                         \
  do {                                                                               \
    int ct_null_i_ = ct__first_null(CT__PTRS_(__VA_ARGS__), CT__NPTRS_(__VA_ARGS__)); \
    if (CT_UNLIKELY(ct_null_i_ >= 0)) return (ct__null_named_status(#__VA_ARGS__, ct_null_i_), NULL); \
  } while (0)
/* The debug mode (ct_set_debug, CTORCH_DEBUG): errors printed when recorded, ownership checked on
   every release. */
extern _Atomic int ct__debug_mode;
static inline bool ct__debug(void) { return CT_UNLIKELY(atomic_load_explicit(&ct__debug_mode, memory_order_relaxed)); }
/* Checks a dtype argument and records PyTorch-style error for an invalid value. */
bool ct__check_dtype(ct_dtype d);

/* ---- allocation of library metadata; every allocation point can be made to fail (tests) ---- */
void *ct__malloc(size_t n);
/* count elements of size bytes: out of memory where the product overflows (a line of an expanded tensor can
   be 2^62 long: 2^62 16-byte records wrapped to a 0-byte request). */
void *ct__malloc_array(int64_t count, size_t size);
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
  /* torch's math bits (is_conj, is_neg): the tensor's values are the conjugate / the negation of what its
     storage holds. Views keep them; every reader of the data either applies them (copy, cast, item,
     printing) or reads a resolved temporary (the engines), as torch's Conjugate/Negative fallbacks do. */
  CT_TENSOR_CONJ = 1u << 5,
  CT_TENSOR_NEG = 1u << 6,
};
#define CT_TENSOR_MATH_BITS (CT_TENSOR_CONJ | CT_TENSOR_NEG)
#define CT_TENSOR_GRAD_BITS (CT_TENSOR_REQUIRES_GRAD | CT_TENSOR_GRAD_VIEW_OF_LEAF | CT_TENSOR_GRAD_NON_LEAF)

/* What a tensor holds beyond a plain strided one: autograd metadata, a non-strided layout's parts
   (sparse indices/values, nested offsets, masked data/mask). Reached through the header's one ext
   pointer, NULL for plain tensors; freed with the tensor (release, then the block). Each kind fills its
   own member when it lands; today none does. */
typedef struct ct_tensor_ext {
  void *autograd; /* autograd metadata (grad, grad_fn, version at save) */
  void *parts;    /* a non-strided layout's parts, owned through release */
  void (*release)(struct ct_tensor_ext *ext); /* frees what the members own; NULL: nothing to free */
} ct_tensor_ext;

/* Kept small: "many tiny tensors" is a real workload. A 2-D tensor is this 64-byte header plus 32 bytes
   of inline dims. */
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
  ct_tensor_ext *ext; /* NULL for plain tensors */
  int64_t inline_dims[];
};

static inline ct_device ct__tdevice(const ct_tensor *t) {
  return (ct_device){(ct_device_type)t->device_type, t->device_index};
}
/* The address of t's first element. Computed in unsigned arithmetic, as c10's data_ptr does (size_t): an empty
   tensor may hold a storage offset near 2^63 (nothing is read there), whose byte offset wraps (fuzz input F11). */
static inline char *ct__tdata(const ct_tensor *t) {
  return t->storage->data ? (char *)((uintptr_t)t->storage->data +
                                     (uintptr_t)t->offset * (uintptr_t)ct__itemsize((ct_dtype)t->dtype))
                          : NULL;
}

/* ---- math bits (math_bits.c) ---- */
static inline unsigned ct__math_bits(const ct_tensor *t) { return t->flags & CT_TENSOR_MATH_BITS; }
/* Whether t's sizes are exactly the nd sizes given. */
static inline bool ct__has_sizes(const ct_tensor *t, int64_t nd, const int64_t *sizes) {
  if (t->ndim != nd) return false;
  for (int64_t i = 0; i < nd; i++)
    if (t->sizes[i] != sizes[i]) return false;
  return true;
}
/* Whether a and b view the same elements the same way: same storage, offset, sizes and strides (the test of
   torch's is_set_to kernel, which the public ct_is_set_to runs after its device and math-bit rules). */
static inline bool ct__same_view(const ct_tensor *a, const ct_tensor *b) {
  if (a->storage != b->storage || a->offset != b->offset || a->ndim != b->ndim) return false;
  for (int64_t i = 0; i < a->ndim; i++)
    if (a->sizes[i] != b->sizes[i] || a->strides[i] != b->strides[i]) return false;
  return true;
}
/* Applies bits to n elements of dtype dt at p, p + stride, ... in place: conj (complex only) negates the
   imaginary part, neg the value (integers wrap). Each bit is its own inverse. */
void ct__math_bits_apply_row(char *p, int64_t stride, ct_dtype dt, int64_t n, unsigned bits);
/* The same on a loaded element. */
ct_scalar ct__math_bits_apply_scalar(ct_scalar v, unsigned bits);
/* The bits a copy from src into dst applies after converting (torch's copy_kernel: the bits that differ,
   conj only into a complex dst). */
unsigned ct__math_bits_of_copy(const ct_tensor *dst, const ct_tensor *src);
/* t itself (retained) when it has no math bits, else a new tensor holding its values (empty_like(t) with
   torch's preserve-format strides, then copy_): the resolved operand torch's fallbacks hand a kernel.
   Not scope-registered; NULL + error on failure. */
ct_tensor *ct__resolve_bits(const ct_tensor *t);
/* The end of a write through a resolved temporary: given (an out= or in-place target with math bits) is
   resized as tmp was, when it was, and copied into with copy_ (which applies given's bits), so that it
   reads tmp's values. */
ct_status ct__math_bits_write_back(ct_tensor *given, const ct_tensor *tmp);
/* torch's fallback around an op outside the engine (reductions, scans, random): begin swaps each input
   with bits for a resolved temporary and each output with bits for a resolved temporary (an input that
   is such an output reads its temporary); the op runs on f->in / f->out; end(s) copies the temporaries
   back into the outputs when s is CT_OK and frees them, returning s or the write-back's failure. */
#define CT_MATH_BITS_MAX 4
typedef struct ct_math_bits_frame {
  int n_in, n_out;
  const ct_tensor *in[CT_MATH_BITS_MAX];
  ct_tensor *out[CT_MATH_BITS_MAX];
  ct_tensor *given[CT_MATH_BITS_MAX], *tmp_out[CT_MATH_BITS_MAX], *tmp_in[CT_MATH_BITS_MAX];
} ct_math_bits_frame;
/* Whether any operand (NULL entries skipped) has math bits: the cheap test before a frame. */
bool ct__math_bits_any(int n_in, const ct_tensor *const *in, int n_out, ct_tensor *const *out);
ct_status ct__math_bits_begin(ct_math_bits_frame *f, int n_in, const ct_tensor *const *in, int n_out,
                              ct_tensor *const *out);
ct_status ct__math_bits_end(ct_math_bits_frame *f, ct_status s);

/* A tensor struct with room for ndim dims, refcount 1, no storage. Not registered in any scope. */
ct_tensor *ct__tensor_alloc(int64_t ndim);
/* Makes room for ndim dims, keeping the current sizes and strides; ndim itself is unchanged. */
ct_status ct__tensor_reserve_dims(ct_tensor *t, int64_t ndim);
/* Makes t hold ndim dims (the first min(old, new) sizes/strides are kept). */
ct_status ct__tensor_set_ndim(ct_tensor *t, int64_t ndim);
/* resize_ to sizes with the given element strides (NULL: contiguous), growing a resizable storage when
   the geometry needs more bytes; keeps the storage offset. On failure t is unchanged. */
ct_status ct__tensor_resize(ct_tensor *t, int64_t ndim, const int64_t *sizes, const int64_t *strides);
/* Whether ct__tensor_resize(t, ndim, sizes, NULL) would succeed short of running out of memory (records its
   error otherwise): for ops that resize several outs, so that a refusal comes before any of them changes. */
bool ct__tensor_resize_ok(const ct_tensor *t, int64_t ndim, const int64_t *sizes);
/* Recomputes numel from sizes. */
void ct__tensor_update_numel(ct_tensor *t);
/* A tensor over storage s (retained) with the given geometry; refcount 1, not scope-registered.
   sizes and strides may be NULL: the caller then fills them and calls ct__tensor_update_numel. */
ct_tensor *ct__tensor_make(ct_storage *s, ct_dtype dtype, int64_t offset, int64_t ndim, const int64_t *sizes,
                           const int64_t *strides);
/* A new view of base's storage: same dtype, device and math bits; not scope-registered. */
ct_tensor *ct__view(const ct_tensor *base, int64_t ndim, const int64_t *sizes, const int64_t *strides,
                    int64_t offset);
/* Uninitialized contiguous tensor (not scope-registered). */
ct_tensor *ct__empty(int64_t ndim, const int64_t *sizes, ct_dtype dtype, ct_device device);
/* Frees t's ext (its release, then the block) and leaves t plain. */
void ct__tensor_ext_free(ct_tensor *t);
/* Frees a tensor whose refcount reached zero. */
void ct__tensor_free(ct_tensor *t);
/* Contiguous strides for sizes (PyTorch: a size-0 or size-1 dim gets stride as if size were 1). */
void ct__contiguous_strides(int64_t ndim, const int64_t *sizes, int64_t *strides);
/* Number of elements; records an error and returns -1 on a negative size or overflow. */
int64_t ct__checked_numel(int64_t ndim, const int64_t *sizes);
/* at::detail::computeStorageNbytes (strided) and computeStorageNbytesContiguous (strides NULL): the
   bytes the geometry needs, with PyTorch's overflow error. */
bool ct__storage_nbytes(int64_t ndim, const int64_t *sizes, const int64_t *strides, size_t itemsize,
                        int64_t offset, uint64_t *out);
/* The byte range [lo, hi) a geometry reaches in its storage (empty: lo == hi). A geometry past 2^63 bytes
   (an expanded tensor of 2^63 - 2 elements, a view with a stride near the int64 limits) is held at the
   int64 limits, so it overlaps whatever shares its storage. */
void ct__byte_span(int64_t ndim, const int64_t *sizes, const int64_t *strides, int64_t offset, int64_t isz,
                   int64_t *lo, int64_t *hi);
/* The smallest storage size (in elements) that holds the geometry; 0 when numel is 0. */
int64_t ct__required_storage_elems(int64_t ndim, const int64_t *sizes, const int64_t *strides, int64_t offset);

/* c10::SymInt keeps [-2^63, -2^62) for symbolic values: torch 1.13 refuses a plain int there wherever it
   makes SymInts of sizes, strides or offsets. */
#define CT_SYMINT_MIN (-(INT64_C(1) << 62))

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
/* A reference count (tensor or storage) keeps, in bits 27-29, how many scope entries hold one of its
   references (at most 7 counted: an entry beyond is not, so the count never exceeds the truth and a
   release is never refused wrongly); the references themselves are the low 27 bits (134 million). A release that
   would leave fewer references than the scopes hold is refused with an error, where it would free the
   object under a scope (or leave a scope to drop a reference it no longer has). */
#define CT_SCOPE_ONE ((int32_t)1 << 27)
#define CT_SCOPE_MASK ((int32_t)7 << 27)
#define CT_REFS_MASK (CT_SCOPE_ONE - 1)
bool ct__release_refused_slow(_Atomic int32_t *rc, const void *obj, bool is_tensor);
/* Whether a user's release of obj must be refused (then recorded as an error): one bit test unless the
   object is scope-held or the debug mode is on. */
static inline bool ct__release_refused(_Atomic int32_t *rc, const void *obj, bool is_tensor) {
  return CT_UNLIKELY((atomic_load_explicit(rc, memory_order_relaxed) & CT_SCOPE_MASK) || ct__debug()) &&
         ct__release_refused_slow(rc, obj, is_tensor);
}
/* Drops one reference of a storage, freeing it with the last (ct_storage_release without its check). */
void ct__storage_drop(ct_storage *s);
/* Allocates a list block for n tensors (items zeroed). */
ct_tensor_list *ct__list_alloc(int64_t n);
/* Frees a list block and releases the tensors it holds (used on error paths before ownership). */
void ct__list_destroy(ct_tensor_list *l);

/* ---- scalars ---- */
/* Whether s is a Python number: kind 0 is what CT_NUM makes of an unsigned C value above INT64_MAX
   (torch's "Overflow when unpacking long" for a Python int past int64), another kind a ValueError. */
bool ct__check_scalar(ct_scalar s);
double ct__scalar_to_double(ct_scalar s);
int64_t ct__scalar_to_int64(ct_scalar s);
/* The imaginary part (0 for a real scalar). */
static inline double ct__scalar_imag(ct_scalar s) { return s.kind == CT_SCALAR_COMPLEX ? s.v.c.im : 0.0; }
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
/* The rule of torch's out= forms of differentiable ops: none of the tensors (inputs and outs; NULL entries
   are skipped) may require grad ("add(): functions with out=... arguments don't support automatic
   differentiation, but one of the arguments requires grad."). torch checks it before anything else, in
   the autograd layer, under the name of the ATen op that runs (square's out= form runs pow's). */
bool ct__check_out_grad(const char *aten, const ct_tensor *const *ts, int n);
/* What torch's autograd layer does to the out of an op without a derivative whose out= form treats out
   as an in-place target (CT_PW_GRAD_OUT_INPLACE): when an input requires grad, out becomes a non-leaf
   that requires grad. */
void ct__grad_mark_out(ct_tensor *out, const ct_tensor *const *in, int n);
#define CT__OUT_GRAD_OK(aten, ...)                                                 \
  ct__check_out_grad(aten, (const ct_tensor *const[]){__VA_ARGS__},                \
                     (int)(sizeof((const ct_tensor *const[]){__VA_ARGS__}) / sizeof(const ct_tensor *)))

#endif
