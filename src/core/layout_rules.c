/* PyTorch's layout rules (c10/core/TensorImpl.cpp, c10/core/MemoryFormat.h, ATen/MemoryOverlap.cpp). */
#include "core/layout_rules.h"

static bool has_zero_size(int64_t ndim, const int64_t *sizes) {
  for (int64_t i = 0; i < ndim; i++)
    if (sizes[i] == 0) return true;
  return false;
}

bool ct__geom_is_contiguous(int64_t ndim, const int64_t *sizes, const int64_t *strides) {
  if (has_zero_size(ndim, sizes)) return true;
  int64_t expected = 1;
  for (int64_t i = ndim - 1; i >= 0; i--) {
    if (sizes[i] == 1) continue;
    if (strides[i] != expected) return false;
    expected = ct__mul_wrap(expected, sizes[i]);
  }
  return true;
}

static const int cl_order_4d[] = {1, 3, 2, 0};
static const int cl_order_5d[] = {1, 4, 3, 2, 0};

bool ct__geom_is_channels_last(int64_t ndim, const int64_t *sizes, const int64_t *strides) {
  const int *order = ndim == 4 ? cl_order_4d : ndim == 5 ? cl_order_5d : NULL;
  if (!order) return false;
  /* unlike the default format, c10 has no shortcut for empty tensors here */
  int64_t expected = 1;
  for (int64_t k = 0; k < ndim; k++) {
    int d = order[k];
    if (sizes[d] == 1) continue;
    if (strides[d] != expected) return false;
    /* wrapping as c10's int64 does: an empty tensor's sizes may multiply past int64 */
    expected = ct__mul_wrap(expected, sizes[d]);
  }
  return true;
}

/* TensorImpl::compute_non_overlapping_and_dense. */
static bool dense_by_sorting(int64_t ndim, const int64_t *sizes, const int64_t *strides) {
  if (ndim == 1) return sizes[0] < 2 || strides[0] == 1;
  /* Sort dims by stride with size < 2 dims last (an insertion sort: ranks are small). */
  int64_t perm[64], *p = perm, *heap = NULL;
  if (ndim > 64) {
    heap = ct__malloc((size_t)ndim * sizeof(int64_t));
    if (!heap) return false;
    p = heap;
  }
  for (int64_t i = 0; i < ndim; i++) p[i] = i;
  for (int64_t i = 1; i < ndim; i++) {
    int64_t v = p[i], j = i - 1;
    while (j >= 0) {
      int64_t a = v, b = p[j]; /* is a < b in the sort order? */
      bool less = sizes[a] >= 2 && (sizes[b] < 2 || strides[a] < strides[b]);
      if (!less) break;
      p[j + 1] = p[j];
      j--;
    }
    p[j + 1] = v;
  }
  bool result = true;
  int64_t require = 1;
  for (int64_t i = 0; i < ndim; i++) {
    int64_t sz = sizes[p[i]];
    if (sz < 2) break;
    if (strides[p[i]] != require) {
      result = false;
      break;
    }
    require = ct__mul_wrap(require, sz); /* an empty tensor's other sizes may multiply past int64 */
  }
  ct__free(heap);
  return result;
}

/* c10's is_non_overlapping_and_dense flag: contiguous in some memory format, or dense after sorting. */
bool ct__geom_non_overlapping_dense(int64_t ndim, const int64_t *sizes, const int64_t *strides) {
  return ct__geom_is_contiguous(ndim, sizes, strides) || ct__geom_is_channels_last(ndim, sizes, strides) ||
         dense_by_sorting(ndim, sizes, strides);
}

bool ct__is_non_overlapping_and_dense(const ct_tensor *t) {
  return ct__geom_non_overlapping_dense(t->ndim, t->sizes, t->strides);
}

/* c10's is_channels_last_strides_2d_s4 / _3d_s5. */
static bool strides_like_channels_last(int64_t ndim, const int64_t *sizes, const int64_t *strides) {
  const int *order = ndim == 4 ? cl_order_4d : ndim == 5 ? cl_order_5d : NULL;
  if (!order || strides[1] == 0) return false;
  int64_t min = 0;
  for (int64_t k = 0; k < ndim; k++) {
    int d = order[k];
    if (sizes[d] == 0) return false;
    if (strides[d] < min) return false;
    if (d == 0 && min == strides[1]) return false;
    min = strides[d];
    if (sizes[d] > 1) min = ct__mul_wrap(min, sizes[d]); /* any stride goes on an empty tensor */
  }
  return true;
}

ct_memory_format ct__geom_suggest_memory_format(int64_t ndim, const int64_t *sizes, const int64_t *strides) {
  if (strides_like_channels_last(ndim, sizes, strides))
    return ndim == 4 ? CT_CHANNELS_LAST : CT_CHANNELS_LAST_3D;
  return CT_CONTIGUOUS_FORMAT;
}

ct_memory_format ct__suggest_memory_format(const ct_tensor *t) {
  if (t->layout != CT_STRIDED) return CT_CONTIGUOUS_FORMAT;
  return ct__geom_suggest_memory_format(t->ndim, t->sizes, t->strides);
}

/* TensorIterator::reorder_dimensions' comparison over byte-stride rows (NULL rows are skipped):
   1 if dim0 should come after dim1, -1 if before, 0 if ambiguous. The first n_red_out rows are a
   reduction's outputs (is_reduction_ and is_output): a dim where one of them has stride 0 (a reduced
   dim) and the other not goes first, before any stride is compared. */
static int should_swap(int64_t *const *rows, int n_rows, int n_red_out, const int64_t *shape, int64_t dim0,
                       int64_t dim1) {
  for (int k = 0; k < n_rows; k++) {
    if (!rows[k]) continue;
    int64_t s0 = rows[k][dim0], s1 = rows[k][dim1];
    if (k < n_red_out && (s0 == 0) != (s1 == 0)) return s1 == 0 ? 1 : -1;
    if (s0 == 0 || s1 == 0) continue;
    if (s0 < s1) return -1;
    if (s0 > s1) return 1;
    if (shape[dim0] > shape[dim1]) return 1;
  }
  return 0;
}

void ct__reorder_dims(int64_t *const *rows, int n_rows, int n_red_out, const int64_t *shape, int64_t ndim,
                      int64_t *perm) {
  for (int64_t d = 0; d < ndim; d++) perm[d] = ndim - 1 - d;
  for (int64_t i = 1; i < ndim; i++) {
    int64_t dim1 = i;
    for (int64_t dim0 = i - 1; dim0 >= 0; dim0--) {
      int c = should_swap(rows, n_rows, n_red_out, shape, perm[dim0], perm[dim1]);
      if (c > 0) {
        int64_t tmp = perm[dim0];
        perm[dim0] = perm[dim1];
        perm[dim1] = tmp;
        dim1 = dim0;
      } else if (c < 0) {
        break;
      }
    }
  }
}

int64_t ct__coalesce_dims(int64_t nd, int64_t *shape, int64_t *const *rows, int n_rows) {
  if (nd <= 1) return nd;
  int64_t prev = 0;
  for (int64_t d = 1; d < nd; d++) {
    bool can = shape[prev] == 1 || shape[d] == 1;
    if (!can) {
      can = true;
      for (int k = 0; k < n_rows && can; k++) can = ct__mul_wrap(shape[prev], rows[k][prev]) == rows[k][d];
    }
    if (can) {
      if (shape[prev] == 1)
        for (int k = 0; k < n_rows; k++) rows[k][prev] = rows[k][d];
      shape[prev] = ct__mul_wrap(shape[prev], shape[d]); /* wraps only for an empty shape (a 0 later on) */
    } else {
      prev++;
      if (prev != d) {
        for (int k = 0; k < n_rows; k++) rows[k][prev] = rows[k][d];
        shape[prev] = shape[d];
      }
    }
  }
  return prev + 1;
}

void ct__infer_dense_strides(int64_t ndim, const int64_t *sizes, const int64_t *strides, int64_t *out) {
  int64_t small[64];
  int64_t *perm = ndim <= 64 ? small : ct__malloc((size_t)ndim * sizeof *perm);
  if (!perm) { /* rank > 64 and no memory: contiguous strides, the same elements in another order */
    ct__contiguous_strides(ndim, sizes, out);
    return;
  }
  int64_t *row = (int64_t *)strides;
  ct__reorder_dims(&row, 1, 0, sizes, ndim, perm);
  int64_t s = 1;
  for (int64_t i = 0; i < ndim; i++) {
    out[perm[i]] = s;
    if (sizes[perm[i]] > 1) s = ct__mul_wrap(s, sizes[perm[i]]);
  }
  if (perm != small) ct__free(perm);
}

void ct__format_strides_for(int64_t ndim, const int64_t *sizes, ct_memory_format fmt, int64_t *strides) {
  const int *order = (fmt == CT_CHANNELS_LAST && ndim == 4) ? cl_order_4d
                     : (fmt == CT_CHANNELS_LAST_3D && ndim == 5) ? cl_order_5d
                                                                  : NULL;
  if (!order) {
    ct__contiguous_strides(ndim, sizes, strides);
    return;
  }
  /* Unlike contiguous strides, c10's channels-last strides do not clamp sizes to 1:
     empty(2, 0, 4, 5, channels_last) has strides (0, 1, 0, 0). */
  int64_t s = 1;
  for (int64_t k = 0; k < ndim; k++) {
    strides[order[k]] = s;
    s = ct__mul_wrap(s, sizes[order[k]]);
  }
}

void ct__preserve_format_strides(const ct_tensor *t, int64_t *out) {
  if (ct__is_non_overlapping_and_dense(t)) {
    memcpy(out, t->strides, (size_t)t->ndim * sizeof(int64_t));
    return;
  }
  ct__infer_dense_strides(t->ndim, t->sizes, t->strides, out);
}

bool ct__has_internal_overlap(const ct_tensor *t) {
  if (ct__is_non_overlapping_and_dense(t)) return false;
  for (int64_t i = 0; i < t->ndim; i++)
    if (t->strides[i] == 0 && t->sizes[i] > 1) return true;
  return false;
}

bool ct__check_no_internal_overlap(const ct_tensor *t) {
  /* every written-to tensor comes here: one whose storage shrank under it must not be written */
  if (!ct__check_in_storage(t)) return false;
  if (!ct__has_internal_overlap(t)) return true;
  ct__error(CT_ERR_RUNTIME,
            "unsupported operation: more than one element of the written-to tensor refers to a single memory "
            "location. Please clone() the tensor before performing the operation.");
  return false;
}

bool ct__check_no_partial_overlap(const ct_tensor *out, const ct_tensor *in) {
  if (!ct__partial_overlap(out, in)) return true;
  ct__error(CT_ERR_RUNTIME,
            "unsupported operation: some elements of the input tensor and the written-to tensor refer to a single "
            "memory location. Please clone() the tensor before performing the operation.");
  return false;
}

bool ct__partial_overlap(const ct_tensor *a, const ct_tensor *b) {
  if (a == b || a->numel == 0 || b->numel == 0) return false;
  if (!ct__is_non_overlapping_and_dense(a) || !ct__is_non_overlapping_and_dense(b))
    return false; /* TOO_HARD: PyTorch does not check */
  if (a->storage != b->storage || !a->storage->data) return false;
  int64_t isa = (int64_t)ct__itemsize((ct_dtype)a->dtype), isb = (int64_t)ct__itemsize((ct_dtype)b->dtype);
  int64_t a0 = a->offset * isa, a1 = a0 + a->numel * isa;
  int64_t b0 = b->offset * isb, b1 = b0 + b->numel * isb;
  if (a0 == b0 && a1 == b1) { /* FULL only when the strides agree too */
    if (a->ndim != b->ndim) return true;
    for (int64_t i = 0; i < a->ndim; i++)
      if (a->strides[i] != b->strides[i]) return true;
    return false;
  }
  return a0 < b1 && b0 < a1;
}
