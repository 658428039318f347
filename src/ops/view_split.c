/* Views returned as lists: unbind, split, split_with_sizes, chunk, tensor_split. Every piece is a
   slice (or select) of the input; the list owns its pieces (ct__own_list registers both). */
#include "ops/view_internal.h"
#include "ops/view_op.h"

/* torch computes unbind on every layout (pending in ctorch); the others slice: a compressed tensor's strides
   are read, a COO one reaches as_strided (no sparse kernel) */
static const ct_view_op unbind_op = {CT_VIEW_OP("unbind", "aten::unbind.int", CT_LAYOUTS_ALL)};
static const ct_view_op split_op = {CT_VIEW_OP_AS_STRIDED("split", "aten::split.Tensor")};
static const ct_view_op split_with_sizes_op = {
    CT_VIEW_OP_AS_STRIDED("split_with_sizes", "aten::split_with_sizes")};
static const ct_view_op chunk_op = {CT_VIEW_OP_AS_STRIDED("chunk", "aten::chunk")};
static const ct_view_op tensor_split_op = {
    CT_VIEW_OP_AS_STRIDED("tensor_split", "aten::tensor_split.sections")};
static const ct_view_op tensor_split_indices_op = {
    CT_VIEW_OP_AS_STRIDED("tensor_split", "aten::tensor_split.indices")};

/* A list for n pieces. std::vector refuses more than max_size() Tensors (2^60 on 64-bit), with this
   message; below that a failed allocation is out-of-memory. */
static ct_tensor_list *list_new(int64_t n) {
  /* every entry refuses negative sizes, so no count is negative; refuse one rather than overflow */
  if (n < 0) return CT_ERR_NULL(CT_ERR_RUNTIME, "cannot create a list of %lld tensors", (long long)n);
  if (n > ((int64_t)1 << 60))
    return CT_ERR_NULL(CT_ERR_RUNTIME, "cannot create std::vector larger than max_size()");
  return ct__list_alloc(n);
}

/* A filled list, or NULL after freeing a partly filled one (NULL items are skipped) when ok is false. */
static ct_tensor_list *list_finish(ct_tensor_list *l, bool ok) {
  if (!ok) {
    ct__list_destroy(l);
    return NULL;
  }
  return l;
}

/* Pieces of consecutive lengths along dim d (already wrapped), the last one `last` long. */
static ct_tensor_list *equal_pieces(const ct_tensor *t, int64_t d, int64_t count, int64_t length, int64_t last) {
  ct_tensor_list *l = list_new(count);
  if (!l) return NULL;
  bool ok = true;
  for (int64_t i = 0; ok && i < count; i++) {
    int64_t start = i * length;
    l->items[i] = ct__slice_impl(t, d, start, start + (i < count - 1 ? length : last), 1);
    ok = l->items[i] != NULL;
  }
  return list_finish(l, ok);
}

ct_tensor_list *ct_unbind(const ct_tensor *t, int64_t dim) {
  CT__VIEW_ENTER_PTR(&unbind_op, t, t);
  return ct__own_list(ct__unbind_impl(t, dim));
}

ct_tensor_list *ct__unbind_impl(const ct_tensor *t, int64_t dim) {
  int64_t d = ct__wrap_dim(dim, t->ndim);
  if (d < 0 || ct__size_dim(t, d) < 0) return NULL;
  ct_tensor_list *l = list_new(t->sizes[d]);
  if (!l) return NULL;
  bool ok = true;
  for (int64_t i = 0; ok && i < l->n; i++) ok = (l->items[i] = ct__select_impl(t, d, i)) != NULL;
  return list_finish(l, ok);
}

ct_tensor_list *ct_split(const ct_tensor *t, int64_t split_size, int64_t dim) {
  CT__VIEW_ENTER_PTR(&split_op, t, t);
  return ct__own_list(ct__split_impl(t, split_size, dim));
}

ct_tensor_list *ct__split_impl(const ct_tensor *t, int64_t split_size, int64_t dim) {
  if (t->ndim == 0) return CT_ERR_NULL(CT_ERR_RUNTIME, "split expects at least a 1-dimensional tensor");
  if (split_size < 0)
    return CT_ERR_NULL(CT_ERR_RUNTIME, "split expects split_size be non-negative, but got split_size=%lld",
                       (long long)split_size);
  int64_t d = ct__wrap_dim(dim, t->ndim);
  if (d < 0) return NULL;
  int64_t size = t->sizes[d];
  if (split_size == 0 && size != 0)
    return CT_ERR_NULL(CT_ERR_RUNTIME,
                       "split_size can only be 0 if dimension size is 0, but got dimension size of %lld",
                       (long long)size);
  /* At least one piece, even when split_size exceeds the size (PyTorch keeps this for BC). torch rounds up
     as (size + split_size - 1) / split_size in int64, which wraps past 2^63 - 1 into one piece
     (split(5787354564543905791, 2^62) is the whole tensor) */
  int64_t count = 1;
  if (split_size != 0) {
    int64_t up = (int64_t)((uint64_t)size + (uint64_t)split_size - 1) / split_size;
    count = up > 1 ? up : 1;
  }
  return equal_pieces(t, d, count, split_size, size - split_size * (count - 1));
}

ct_tensor_list *ct_split_with_sizes(const ct_tensor *t, ct_shape split_sizes, int64_t dim) {
  CT__VIEW_ENTER_PTR(&split_with_sizes_op, t, t);
  return ct__check_list(split_sizes, "split_sizes")
             ? ct__own_list(ct__split_with_sizes_impl(t, split_sizes, dim))
             : NULL;
}

ct_tensor_list *ct__split_with_sizes_impl(const ct_tensor *t, ct_shape split_sizes, int64_t dim) {
  if (t->ndim == 0) return CT_ERR_NULL(CT_ERR_RUNTIME, "split expects at least a 1-dimensional tensor");
  int64_t d = ct__wrap_dim(dim, t->ndim);
  if (d < 0) return NULL;
  char buf[2048];
  uint64_t sum = 0; /* wraps like ATen's int64 sum */
  for (int64_t i = 0; i < split_sizes.ndim; i++) {
    if (split_sizes.data[i] < 0) {
      ct__fmt_int_list(buf, sizeof buf, split_sizes.ndim, split_sizes.data);
      return CT_ERR_NULL(CT_ERR_RUNTIME,
                         "split_with_sizes expects split_sizes have only non-negative entries, but got "
                         "split_sizes=%s",
                         buf);
    }
    sum += (uint64_t)split_sizes.data[i];
  }
  if ((int64_t)sum != t->sizes[d]) {
    ct__fmt_int_list(buf, sizeof buf, split_sizes.ndim, split_sizes.data);
    return CT_ERR_NULL(CT_ERR_RUNTIME,
                       "split_with_sizes expects split_sizes to sum exactly to %lld (input tensor's size at "
                       "dimension %lld), but got split_sizes=%s",
                       (long long)t->sizes[d], (long long)dim, buf);
  }
  ct_tensor_list *l = list_new(split_sizes.ndim);
  if (!l) return NULL;
  bool ok = true;
  uint64_t start = 0; /* entries that wrapped the sum above wrap here too; slice clamps the result */
  for (int64_t i = 0; ok && i < l->n; start += (uint64_t)split_sizes.data[i++])
    ok = (l->items[i] = ct__slice_impl(t, d, (int64_t)start, (int64_t)(start + (uint64_t)split_sizes.data[i]),
                                       1)) != NULL;
  return list_finish(l, ok);
}

ct_tensor_list *ct_chunk(const ct_tensor *t, int64_t chunks, int64_t dim) {
  CT__VIEW_ENTER_PTR(&chunk_op, t, t);
  return ct__own_list(ct__chunk_impl(t, chunks, dim));
}

ct_tensor_list *ct__chunk_impl(const ct_tensor *t, int64_t chunks, int64_t dim) {
  if (t->ndim == 0) return CT_ERR_NULL(CT_ERR_RUNTIME, "chunk expects at least a 1-dimensional tensor");
  if (chunks <= 0)
    return CT_ERR_NULL(CT_ERR_RUNTIME, "chunk expects `chunks` to be greater than 0, got: %lld", (long long)chunks);
  int64_t d = ct__wrap_dim(dim, t->ndim);
  if (d < 0) return NULL;
  int64_t size = t->sizes[d];
  /* An empty dim still gives `chunks` (empty) pieces; otherwise chunk is split by ceil(size / chunks),
     which may give fewer pieces than asked. */
  if (size == 0) return equal_pieces(t, d, chunks, 0, 0);
  int64_t split_size = (size - 1) / chunks + 1;
  int64_t count = (size - 1) / split_size + 1;
  return equal_pieces(t, d, count, split_size, size - split_size * (count - 1));
}

ct_tensor_list *ct_tensor_split(const ct_tensor *t, int64_t sections, int64_t dim) {
  CT__VIEW_ENTER_PTR(&tensor_split_op, t, t);
  return ct__own_list(ct__tensor_split_impl(t, sections, dim));
}

ct_tensor_list *ct__tensor_split_impl(const ct_tensor *t, int64_t sections, int64_t dim) {
  if (t->ndim == 0)
    return CT_ERR_NULL(CT_ERR_RUNTIME,
                       "tensor_split expected at least a 1-dimensional tensor, but got a tensor with 0 dims");
  int64_t d = ct__wrap_dim(dim, t->ndim);
  if (d < 0) return NULL;
  if (sections <= 0)
    return CT_ERR_NULL(CT_ERR_RUNTIME, "number of sections must be larger than 0, got %lld", (long long)sections);
  /* The first size % sections pieces are one longer. */
  int64_t size = t->sizes[d], base = size / sections, extra = size % sections;
  ct_tensor_list *l = list_new(sections);
  if (!l) return NULL;
  bool ok = true;
  for (int64_t i = 0, start = 0; ok && i < sections; i++) {
    int64_t len = i < extra ? base + 1 : base;
    ok = (l->items[i] = ct__slice_impl(t, d, start, start + len, 1)) != NULL;
    start += len;
  }
  return list_finish(l, ok);
}

ct_tensor_list *ct_tensor_split_indices(const ct_tensor *t, ct_shape indices, int64_t dim) {
  CT__VIEW_ENTER_PTR(&tensor_split_indices_op, t, t);
  return ct__check_list(indices, "indices") ? ct__own_list(ct__tensor_split_indices_impl(t, indices, dim))
                                            : NULL;
}

ct_tensor_list *ct__tensor_split_indices_impl(const ct_tensor *t, ct_shape indices, int64_t dim) {
  if (t->ndim == 0)
    return CT_ERR_NULL(CT_ERR_RUNTIME,
                       "tensor_split expected at least a 1-dimensional tensor, but got a tensor with 0 dims");
  int64_t d = ct__wrap_dim(dim, t->ndim);
  if (d < 0) return NULL;
  /* Each piece runs from the previous index to the next, clamped as a slice is (so indices may go
     backwards or past the end, giving empty pieces). */
  ct_tensor_list *l = list_new(indices.ndim + 1);
  if (!l) return NULL;
  bool ok = true;
  for (int64_t i = 0, start = 0; ok && i <= indices.ndim; i++) {
    int64_t end = i < indices.ndim ? indices.data[i] : t->sizes[d];
    ok = (l->items[i] = ct__slice_impl(t, d, start, end, 1)) != NULL;
    start = end;
  }
  return list_finish(l, ok);
}
