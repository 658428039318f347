/* The arithmetic every view shares: making view shells, -1 inference, view strides, numel and
   storage-size checks, as_strided's checks. Each mirrors the ATen/c10 function it is named after,
   including its unsigned overflow rules, so edge cases match PyTorch 1.13. */
#include <stdio.h>

#include "ops/view_internal.h"

/* Wrapping int64 multiply: PyTorch computes these in int64 without checks; wrapping keeps UBSan quiet
   and gives the same bits. */
static int64_t mulw(int64_t a, int64_t b) { return (int64_t)((uint64_t)a * (uint64_t)b); }

/* "[2, 3]" for messages. */
static const char *fmt_list(char *buf, size_t n, int64_t count, const int64_t *vals) {
  ct__fmt_int_list(buf, n, count, vals);
  return buf;
}

ct_tensor *ct__view_shell(const ct_tensor *t, int64_t ndim, int64_t offset) {
  ct_tensor *v = ct__view(t, ndim, NULL, NULL, offset);
  /* a view keeps its base's math bits (torch's views alias with the base's key set) */
  if (v) v->flags = (uint8_t)(ct__grad_view_flags(t) | ct__math_bits(t));
  return v;
}

ct_tensor *ct__view_done(ct_tensor *v) {
  /* c10's refresh_numel when torch sets a view's sizes: a product past 2^63 - 1 in 64 unsigned bits is
     refused even beside a 0 (view(9, 6908528427954061507, 0, 2) of an empty tensor) */
  if (!ct__numel_c10(v->ndim, v->sizes, &v->numel)) {
    ct_release(v);
    return NULL;
  }
  return v;
}

ct_tensor *ct__view_geom(const ct_tensor *t, int64_t ndim, const int64_t *sizes, const int64_t *strides,
                        int64_t offset) {
  ct_tensor *v = ct__view_shell(t, ndim, offset);
  if (!v) return NULL;
  if (ndim) {
    memcpy(v->sizes, sizes, (size_t)ndim * sizeof(int64_t));
    memcpy(v->strides, strides, (size_t)ndim * sizeof(int64_t));
  }
  return ct__view_done(v);
}

ct_tensor *ct__same(const ct_tensor *t) { return ct_retain((ct_tensor *)t); }

int64_t ct__size_dim(const ct_tensor *t, int64_t dim) {
  if (t->ndim == 0) {
    ct__error(CT_ERR_INDEX, "Dimension specified as %lld but tensor has no dimensions", (long long)dim);
    return -1;
  }
  return ct__wrap_dim(dim, t->ndim);
}

void ct__symint_error(void) {
  ct__error(CT_ERR_RUNTIME,
            "Expected !is_symbolic() to be true, but got false.  (Could this error message be "
            "improved?  If so, please report an enhancement request to PyTorch.)");
}

bool ct__symint_product_ok(int64_t ndim, const int64_t *sizes) {
  int64_t p = 1;
  for (int64_t d = 0; d < ndim; d++)
    if ((p = mulw(p, sizes[d])) < CT_SYMINT_MIN) {
      ct__symint_error();
      return false;
    }
  return true;
}

static ct_infer_result infer_size(ct_shape shape, int64_t numel, int64_t *out, bool symint) {
  char buf[2048];
  int64_t newsize = 1, infer_dim = -1;
  for (int64_t d = 0; d < shape.ndim; d++) {
    int64_t s = shape.data[d];
    if (s == -1) {
      if (infer_dim >= 0) {
        ct__error(CT_ERR_RUNTIME, "only one dimension can be inferred");
        return CT_INFER_TWO_INFERRED;
      }
      infer_dim = d;
    } else if (s >= 0) {
      newsize = mulw(newsize, s);
      if (symint && newsize < CT_SYMINT_MIN) {
        ct__symint_error();
        return CT_INFER_SYMBOLIC;
      }
    } else {
      ct__error(CT_ERR_RUNTIME, "invalid shape dimension %lld", (long long)s);
      return CT_INFER_NEGATIVE;
    }
  }
  if (numel == newsize || (infer_dim >= 0 && newsize > 0 && numel % newsize == 0)) {
    if (shape.ndim) memcpy(out, shape.data, (size_t)shape.ndim * sizeof(int64_t));
    if (infer_dim >= 0) {
      /* Any size fits a -1 when the other sizes multiply to 0: NumPy refuses, and so does PyTorch. */
      if (newsize == 0) {
        ct__error(CT_ERR_RUNTIME,
                  "cannot reshape tensor of 0 elements into shape %s because the unspecified dimension size "
                  "-1 can be any value and is ambiguous",
                  fmt_list(buf, sizeof buf, shape.ndim, shape.data));
        return CT_INFER_AMBIGUOUS;
      }
      out[infer_dim] = numel / newsize;
    }
    return CT_INFER_OK;
  }
  ct__error(CT_ERR_RUNTIME, "shape '%s' is invalid for input of size %lld",
            fmt_list(buf, sizeof buf, shape.ndim, shape.data), (long long)numel);
  return CT_INFER_WRONG_NUMEL;
}

ct_infer_result ct__infer_size(ct_shape shape, int64_t numel, int64_t *out) {
  return infer_size(shape, numel, out, false);
}

ct_infer_result ct__infer_size_symint(ct_shape shape, int64_t numel, int64_t *out) {
  return infer_size(shape, numel, out, true);
}

bool ct__compute_view_strides(const ct_tensor *t, int64_t ndim, const int64_t *newshape, int64_t *out) {
  const int64_t *oldshape = t->sizes, *oldstride = t->strides;
  int64_t olddim = t->ndim;
  if (olddim == 0) {
    for (int64_t d = 0; d < ndim; d++) out[d] = 1;
    return true;
  }
  int64_t numel = 1;
  for (int64_t d = 0; d < olddim; d++) numel = mulw(numel, oldshape[d]);
  if (numel == 0) {
    /* Strides are arbitrary for empty tensors: NumPy keeps them when the shape is unchanged, and
       otherwise uses the strides resize would give. */
    if (olddim == ndim && memcmp(oldshape, newshape, (size_t)ndim * sizeof(int64_t)) == 0) {
      memcpy(out, oldstride, (size_t)ndim * sizeof(int64_t));
      return true;
    }
    for (int64_t d = ndim - 1; d >= 0; d--)
      out[d] = d == ndim - 1 ? 1 : mulw(newshape[d + 1] > 1 ? newshape[d + 1] : 1, out[d + 1]);
    return true;
  }
  /* Walk the old dims from the innermost, grouping them into chunks that are contiguous with each
     other; each chunk must be rebuilt exactly by consecutive new dims. */
  int64_t view_d = ndim - 1;
  int64_t chunk_base_stride = oldstride[olddim - 1];
  int64_t tensor_numel = 1, view_numel = 1;
  for (int64_t tensor_d = olddim - 1; tensor_d >= 0; tensor_d--) {
    tensor_numel = mulw(tensor_numel, oldshape[tensor_d]);
    if (tensor_d == 0 ||
        (oldshape[tensor_d - 1] != 1 && oldstride[tensor_d - 1] != mulw(tensor_numel, chunk_base_stride))) {
      while (view_d >= 0 && (view_numel < tensor_numel || newshape[view_d] == 1)) {
        out[view_d] = mulw(view_numel, chunk_base_stride);
        view_numel = mulw(view_numel, newshape[view_d]);
        view_d--;
      }
      if (view_numel != tensor_numel) return false;
      if (tensor_d > 0) {
        chunk_base_stride = oldstride[tensor_d - 1];
        tensor_numel = 1;
        view_numel = 1;
      }
    }
  }
  return view_d == -1;
}

bool ct__check_numel(int64_t ndim, const int64_t *sizes) {
  int64_t n;
  return ct__numel_c10(ndim, sizes, &n);
}

bool ct__numel_c10(int64_t ndim, const int64_t *sizes, int64_t *numel) {
  uint64_t n = 1;
  bool overflow = false;
  for (int64_t d = 0; d < ndim; d++) overflow |= __builtin_mul_overflow(n, (uint64_t)sizes[d], &n);
  if (overflow || n > (uint64_t)INT64_MAX) {
    ct__error(CT_ERR_RUNTIME, "numel: integer multiplication overflow");
    return false;
  }
  /* PyTorch 1.13 lets a negative size through when a zero makes the product 0 (expand(0, -2) gives a
     tensor of size [0, -2]); ctorch refuses it as empty() does, since split, unbind and chunk would
     then count pieces with it. */
  for (int64_t d = 0; d < ndim; d++)
    if (sizes[d] < 0) return ct__checked_numel(ndim, sizes) >= 0; /* records empty()'s error */
  *numel = (int64_t)n;
  return true;
}

/* as_strided's Meta kernel (as_strided_tensorimpl_meta_symint): its storage bounds are SymInt arithmetic,
   computeStorageNbytes' sum and the offset's bytes in int64 without an overflow check (a negative size passes
   them), then the offset and numel checks; negative strides were refused before. */
static bool check_as_strided_meta(const ct_tensor *t, int64_t ndim, const int64_t *sizes,
                                  const int64_t *strides, int64_t offset) {
  uint64_t itemsize = ct__itemsize((ct_dtype)t->dtype), size = 1; /* unsigned: int64's wrapping sums */
  bool empty = false;
  for (int64_t d = 0; d < ndim; d++) {
    empty |= sizes[d] == 0;
    size += (uint64_t)strides[d] * ((uint64_t)sizes[d] - 1);
  }
  int64_t nbytes = empty ? 0 : (int64_t)(size * itemsize);
  int64_t need = (int64_t)((uint64_t)nbytes + (uint64_t)offset * itemsize);
  if (nbytes != 0 && need > (int64_t)t->storage->nbytes) {
    char sb[2048], tb[2048];
    ct__error(
        CT_ERR_RUNTIME,
        "setStorage: sizes %s, strides %s, storage offset %lld, and itemsize %zu requiring a storage size "
        "of %lld are out of bounds for storage of size %zu",
        fmt_list(sb, sizeof sb, ndim, sizes), fmt_list(tb, sizeof tb, ndim, strides), (long long)offset,
        (size_t)itemsize, (long long)need, t->storage->nbytes);
    return false;
  }
  if (offset < 0) {
    ct__error(CT_ERR_RUNTIME, "Tensor: invalid storage offset %lld", (long long)offset);
    return false;
  }
  return ct__check_numel(ndim, sizes);
}

bool ct__check_as_strided(const ct_tensor *t, int64_t ndim, const int64_t *sizes, const int64_t *strides,
                          int64_t offset) {
  char sb[2048], tb[2048];
  for (int64_t d = 0; d < ndim; d++) {
    if (strides[d] < 0) {
      ct__error(CT_ERR_RUNTIME, "as_strided: Negative strides are not supported at the moment, got strides: %s",
                fmt_list(tb, sizeof tb, ndim, strides));
      return false;
    }
  }
  size_t itemsize = ct__itemsize((ct_dtype)t->dtype);
  uint64_t nbytes;
  if (t->device_type == CT_META) return check_as_strided_meta(t, ndim, sizes, strides, offset);
  if (!ct__storage_nbytes(ndim, sizes, strides, itemsize, 0, &nbytes)) return false;
  /* A geometry with no elements fits any storage. Past that, offset bytes that overflow can never fit
     (PyTorch's int64 sum would wrap and let them through). */
  if (nbytes != 0) {
    int64_t offset_bytes, need;
    bool overflow = __builtin_mul_overflow(offset, (int64_t)itemsize, &offset_bytes) ||
                    __builtin_add_overflow((int64_t)nbytes, offset_bytes, &need);
    if (overflow || need > (int64_t)t->storage->nbytes) {
      ct__error(CT_ERR_RUNTIME,
                "setStorage: sizes %s, strides %s, storage offset %lld, and itemsize %zu requiring a storage size "
                "of %lld are out of bounds for storage of size %zu",
                fmt_list(sb, sizeof sb, ndim, sizes), fmt_list(tb, sizeof tb, ndim, strides), (long long)offset,
                itemsize, overflow ? (long long)INT64_MAX : (long long)need, t->storage->nbytes);
      return false;
    }
  }
  if (offset < 0) {
    ct__error(CT_ERR_RUNTIME, "Tensor: invalid storage offset %lld", (long long)offset);
    return false;
  }
  return ct__check_numel(ndim, sizes);
}

void ct__tensor_type_str(const ct_tensor *t, char *buf, size_t n) {
  ct_dtype dt = (ct_dtype)t->dtype;
  /* Python's error translation renames the classic CPU/CUDA types to their legacy tensor names;
     Bool, BFloat16 and the complex types keep ATen's "<Backend><Scalar>Type" form. */
  bool legacy = dt == CT_UINT8 || dt == CT_INT8 || dt == CT_INT16 || dt == CT_INT32 || dt == CT_INT64 ||
                dt == CT_FLOAT16 || dt == CT_FLOAT32 || dt == CT_FLOAT64;
  const char *backend = t->device_type == CT_META ? "Meta" : t->device_type == CT_CUDA ? "CUDA" : "CPU";
  if (legacy && t->device_type == CT_CPU)
    snprintf(buf, n, "%s", ct__dt(dt)->legacy_name);
  else if (legacy && t->device_type == CT_CUDA)
    snprintf(buf, n, "torch.cuda.%s", ct__dt(dt)->legacy_name + 6);
  else
    snprintf(buf, n, "%s%sType", backend, ct__dt(dt)->scalar_name);
}
