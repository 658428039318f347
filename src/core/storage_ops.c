/* Byte-level storage operations (torch.UntypedStorage methods): resize_, clone, copy_, fill_,
   tolist and byteswap. Meta storages have a size but no bytes: the ops that only write are no-ops
   there, the ones that must read fail as PyTorch does. */
#include "core/cast.h"
#include "core/internal.h"

static bool is_meta(const ct_storage *s) { return s->device_type == CT_META; }

/* In-place writes bump the version counter that views of this storage share. */
static void bump_version(ct_storage *s) { atomic_fetch_add_explicit(&s->version, 1, memory_order_relaxed); }

ct_status ct_storage_resize_(ct_storage *s, size_t nbytes) {
  CT__NONNULL_STATUS(s);
  if (is_meta(s)) {
    ct__error(CT_ERR_RUNTIME, "UntypedStorage.resize_: got unexpected device type meta");
    return CT_ERR_RUNTIME;
  }
  /* External memory, file mappings and shared memory are never resizable. */
  if (!(s->flags & CT_STORAGE_RESIZABLE)) {
    ct__error(CT_ERR_RUNTIME, "Trying to resize storage that is not resizable");
    return CT_ERR_RUNTIME;
  }
  if (nbytes == s->nbytes) return CT_OK;
  ct_status st = ct__storage_realloc(s, nbytes);
  if (st == CT_OK) bump_version(s);
  return st;
}

ct_storage *ct_storage_clone(const ct_storage *s) {
  if (!s) return ct__null_ptr_arg("s");
  ct_storage *c = ct__storage_alloc(s->nbytes, ct_storage_device(s));
  if (!c) return NULL;
  if (s->data && s->nbytes) memcpy(c->data, s->data, s->nbytes);
  return ct__own_storage(c);
}

ct_status ct_storage_copy_(ct_storage *s, const ct_storage *src) {
  CT__NONNULL_STATUS(s, src);
  if (s->nbytes != src->nbytes) {
    ct__error(CT_ERR_RUNTIME, "size does not match");
    return CT_ERR_RUNTIME;
  }
  if (is_meta(s)) return CT_OK;
  if (is_meta(src)) {
    ct__error(CT_ERR_NOT_IMPLEMENTED, "Cannot copy out of meta tensor; no data!");
    return CT_ERR_NOT_IMPLEMENTED;
  }
  /* memmove: s and src may be the same storage. */
  if (s->nbytes) memmove(s->data, src->data, s->nbytes);
  bump_version(s);
  return CT_OK;
}

ct_status ct_storage_fill_(ct_storage *s, uint8_t value) {
  CT__NONNULL_STATUS(s);
  if (is_meta(s)) return CT_OK;
  if (s->nbytes) memset(s->data, value, s->nbytes);
  bump_version(s);
  return CT_OK;
}

ct_status ct_storage_tolist(const ct_storage *s, uint8_t *out) {
  CT__NONNULL_STATUS(s);
  if (is_meta(s)) {
    ct__error(CT_ERR_NOT_IMPLEMENTED, "Not available for 'meta' device type");
    return CT_ERR_NOT_IMPLEMENTED;
  }
  if (!s->nbytes) return CT_OK;
  if (!out) {
    ct__error(CT_ERR_VALUE, "ct_storage_tolist: out is NULL but the storage holds %zu bytes", s->nbytes);
    return CT_ERR_VALUE;
  }
  memcpy(out, s->data, s->nbytes);
  return CT_OK;
}

/* Reverses the bytes of n units of `bits` bits starting at p. memcpy keeps unaligned data (blobs)
   legal; compilers turn each load/bswap/store into a single instruction. */
#define DEFINE_SWAP(bits)                                              \
  static void swap##bits(unsigned char *p, size_t n) {                 \
    for (size_t i = 0; i < n; i++, p += (bits) / 8) {                  \
      uint##bits##_t v;                                                \
      memcpy(&v, p, sizeof v);                                         \
      v = __builtin_bswap##bits(v);                                    \
      memcpy(p, &v, sizeof v);                                         \
    }                                                                  \
  }
DEFINE_SWAP(16)
DEFINE_SWAP(32)
DEFINE_SWAP(64)

/* PyTorch 2.1's UntypedStorage.byteswap(dtype): each element's bytes are reversed; a complex
   element swaps its real and imaginary halves separately; 1-byte types are left alone. */
ct_status ct_storage_byteswap(ct_storage *s, ct_dtype dtype) {
  CT__NONNULL_STATUS(s);
  if (!ct__check_dtype(dtype)) return CT_ERR_TYPE;
  size_t unit = ct__itemsize(dtype);
  if (ct_dtype_is_complex(dtype)) unit /= 2;
  if (unit == 1) return CT_OK;
  if (s->nbytes % unit) {
    ct__error(CT_ERR_RUNTIME, "the length of data is not a multiple of %zu", unit);
    return CT_ERR_RUNTIME;
  }
  if (is_meta(s) || !s->nbytes) return CT_OK;
  size_t count = s->nbytes / unit;
  if (unit == 2) swap16(s->data, count);
  else if (unit == 4) swap32(s->data, count);
  else swap64(s->data, count);
  bump_version(s);
  return CT_OK;
}

ct_storage *ct_storage_to_dtype(const ct_storage *s, ct_dtype from, ct_dtype to) {
  if (!s) return ct__null_ptr_arg("s");
  if (!ct__check_dtype(from) || !ct__check_dtype(to)) return NULL;
  size_t fsz = ct__itemsize(from), tsz = ct__itemsize(to);
  if (s->nbytes % fsz != 0) {
    ct__error(CT_ERR_RUNTIME, "Storage nbytes %zu is not a multiple of the element size %zu of %s", s->nbytes, fsz,
              ct_dtype_name(from));
    return NULL;
  }
  if (s->device_type == CT_META) {
    ct__error(CT_ERR_NOT_IMPLEMENTED, "Cannot copy out of meta tensor; no data!");
    return NULL;
  }
  int64_t n = (int64_t)(s->nbytes / fsz);
  ct_storage *r = ct__storage_alloc((size_t)n * tsz, ct_storage_device(s));
  if (!r) return NULL;
  /* TypedStorage conversions (storage.float(), ...) cast element by element like Tensor.to */
  if (n) ct__cast_n(r->data, to, s->data, from, n);
  return ct__own_storage(r);
}
