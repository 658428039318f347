/* t[...] as torch 1.13's Python binding computes it (python_variable_indexing.cpp and TensorIndexing.h):
   ints, slices, None, Ellipsis and bools applied left to right as views (select, slice, unsqueeze), index
   tensors recorded at the dim they stand at, then one advanced-indexing op (aten::index) over the view.
   Messages and their order are torch's, including its quirks: an int's message names the item's
   position in the index, and a mask of k dims moves the dim cursor by one only. */
#include "ops/create_internal.h"
#include "ops/index/index_internal.h"
#include "ops/view_internal.h"

/* Tensor.unsqueeze(d) as a view (d in [0, ndim]). */
static ct_tensor *unsqueeze(const ct_tensor *t, int64_t d) {
  if (d > t->ndim && ct__wrap_dim(d, t->ndim + 1) < 0) return NULL;
  ct_tensor *v = ct__view_shell(t, t->ndim + 1, t->offset);
  if (!v) return NULL;
  for (int64_t i = 0, k = 0; i <= t->ndim; i++) {
    if (i == d) {
      v->sizes[i] = 1;
      v->strides[i] = d < t->ndim ? t->sizes[d] * t->strides[d] : 1;
    } else {
      v->sizes[i] = t->sizes[k];
      v->strides[i] = t->strides[k++];
    }
  }
  return ct__view_done(v);
}

/* impl::applySelect: torch's own bounds message (real_dim: the item's position), then select. A 0-dim
   tensor reads its missing size as 0, as torch 1.13 does. */
static ct_tensor *apply_select(const ct_tensor *t, int64_t dim, int64_t index, int64_t real_dim) {
  if (index == 0 && dim == 0 && t->ndim == 0)
    return CT_ERR_NULL(CT_ERR_INDEX, "invalid index of a 0-dim tensor. Use `tensor.item()` in Python or "
                                     "`tensor.item<T>()` in C++ to convert a 0-dim tensor to a number");
  int64_t size = dim < t->ndim ? t->sizes[dim] : 0;
  if (!(size >= -index && size > index))
    return CT_ERR_NULL(CT_ERR_INDEX, "index %lld is out of bounds for dimension %lld with size %lld",
                       (long long)index, (long long)real_dim, (long long)size);
  return ct__select(t, dim, index);
}

/* impl::applySlice: Python's step rules, then slice. */
static ct_tensor *apply_slice(const ct_tensor *t, int64_t dim, const ct_idx *s) {
  if (s->c == 0) return CT_ERR_NULL(CT_ERR_VALUE, "slice step cannot be zero");
  if (s->c < 0) return CT_ERR_NULL(CT_ERR_VALUE, "step must be greater than zero");
  return ct__slice(t, dim, s->a, s->b, s->c);
}

static ct_tensor *invalid_number(const ct_scalar *v) {
  if (v->kind == 0) return CT_ERR_NULL(CT_ERR_RUNTIME, "Overflow when unpacking long");
  return CT_ERR_NULL(CT_ERR_INDEX,
                     "only integers, slices (`:`), ellipsis (`...`), None and long or byte Variables are valid "
                     "indices (got %s)",
                     v->kind == CT_SCALAR_COMPLEX ? "complex" : "float");
}

/* impl::boolToIndexingTensor: [0] for true, an empty int64 tensor for false. */
static ct_tensor *bool_index(const ct_tensor *like, bool v) {
  int64_t n = v ? 1 : 0;
  ct_resolved_opts o = {CT_INT64, ct__tdevice(like), CT_CONTIGUOUS_FORMAT, false};
  return ct__full_with((ct_shape){&n, 1}, ct_scalar_int(0), &o);
}

typedef struct recorded {
  ct_tensor **t; /* [cap], owned (NULL: no index at that dim) */
  int64_t n, cap;
} recorded;

static bool record(recorded *r, int64_t *dim, ct_tensor *index) {
  if (*dim >= r->cap) {
    ct_release(index);
    ct__error(CT_ERR_INDEX, "too many indices");
    return false;
  }
  if (r->n < *dim + 1) r->n = *dim + 1;
  r->t[*dim] = index;
  (*dim)++;
  return true;
}

static ct_tensor *get_single(const ct_tensor *t, const ct_idx *it) {
  switch (it->kind) {
    case CT_INDEX_INT: return apply_select(t, 0, it->a, 0);
    case CT_INDEX_SLICE:
      if (it->c <= 0) return apply_slice(t, 0, it);
      return ct__slice(t, 0, it->a, it->b, it->c);
    case CT_INDEX_NONE: return unsqueeze(t, 0);
    case CT_INDEX_ELLIPSIS: return ct__alias(t);
    default: return NULL; /* BOOL, TENSOR, NUMBER: the tuple path */
  }
}

/* applySlicing + dispatch_index for a tuple of items. */
static ct_tensor *get_tuple(const ct_tensor *self, const ct_idx *items, int64_t n) {
  int64_t specified = 0;
  for (int64_t i = 0; i < n; i++) {
    if (items[i].kind == CT_INDEX_TENSOR)
      specified += (items[i].t->dtype == CT_BOOL || items[i].t->dtype == CT_UINT8) ? items[i].t->ndim : 1;
    else if (items[i].kind == CT_INDEX_INT || items[i].kind == CT_INDEX_SLICE || items[i].kind == CT_INDEX_NUMBER)
      specified++;
  }
  if (specified > self->ndim)
    return CT_ERR_NULL(CT_ERR_INDEX, "too many indices for tensor of dimension %lld", (long long)self->ndim);
  /* every item adds at most one dim */
  recorded rec = {NULL, 0, self->ndim + n + 1};
  rec.t = ct__malloc((size_t)rec.cap * sizeof *rec.t);
  if (!rec.t) return NULL;
  memset(rec.t, 0, (size_t)rec.cap * sizeof *rec.t);
  ct_tensor *result = ct__alias(self);
  int64_t dim = 0;
  for (int64_t i = 0; result && i < n; i++) {
    const ct_idx *it = &items[i];
    ct_tensor *next = NULL;
    switch (it->kind) {
      case CT_INDEX_INT: next = apply_select(result, dim, it->a, i); break;
      case CT_INDEX_SLICE:
        next = apply_slice(result, dim, it);
        dim++;
        break;
      case CT_INDEX_ELLIPSIS:
        dim += self->ndim - specified;
        continue;
      case CT_INDEX_NONE:
        next = unsqueeze(result, dim);
        dim++;
        break;
      case CT_INDEX_BOOL: {
        next = unsqueeze(result, dim);
        ct_tensor *b = next ? bool_index(next, it->a != 0) : NULL;
        if (next && (!b || !record(&rec, &dim, b))) {
          ct_release(next);
          next = NULL;
        }
        break;
      }
      case CT_INDEX_TENSOR: {
        const ct_tensor *x = it->t;
        if (x->ndim == 0 && x->dtype != CT_BOOL && x->dtype != CT_UINT8 && ct__dt(x->dtype)->category == CT_CAT_INT) {
          int64_t v;
          if (ct_item_int64(x, &v) != CT_OK) break;
          next = apply_select(result, dim, v, i);
        } else if (x->ndim == 0 && (x->dtype == CT_BOOL || x->dtype == CT_UINT8)) {
          bool v;
          if (ct_item_bool(x, &v) != CT_OK) break;
          next = unsqueeze(result, dim);
          ct_tensor *b = next ? bool_index(next, v) : NULL;
          if (next && (!b || !record(&rec, &dim, b))) {
            ct_release(next);
            next = NULL;
          }
        } else {
          ct_tensor *held = ct__alias(x);
          if (held && record(&rec, &dim, held)) next = ct__alias(result);
        }
        break;
      }
      default: next = invalid_number(&it->number); break;
    }
    ct_release(result);
    result = next;
  }
  if (result && rec.n > 0) {
    ct_tensor *indexed = ct__index_tensors_impl(result, (const ct_tensor *const *)rec.t, rec.n);
    ct_release(result);
    result = indexed;
  }
  for (int64_t k = 0; k < rec.n; k++) ct_release(rec.t[k]);
  ct__free(rec.t);
  return result;
}

ct_tensor *ct_index_items(const ct_tensor *t, const ct_index_item *items, int64_t n) {
  CT__NONNULL_PTR(t);
  if (n > 0 && !items) return ct__null_ptr_arg("items");
  ct_idx *its;
  int64_t m;
  bool tuple;
  if (!ct__index_resolve(items, n, &its, &m, &tuple)) return NULL;
  ct_tensor *r = NULL;
  if (!tuple && m == 1 && its[0].kind != CT_INDEX_BOOL && its[0].kind != CT_INDEX_TENSOR &&
      its[0].kind != CT_INDEX_NUMBER)
    r = get_single(t, &its[0]);
  else
    r = get_tuple(t, its, m);
  ct__free(its);
  return ct__own(r);
}
