/* t[...] as torch 1.13's Python binding computes it (python_variable_indexing.cpp and TensorIndexing.h):
   ints, slices, None, Ellipsis and bools applied left to right as views (select, slice, unsqueeze), index
   tensors recorded at the dim they stand at, then one advanced-indexing op (aten::index) over the view.
   Messages and their order are torch's, including its quirks: an int's message names the item's
   position in the index, and a mask of k dims moves the dim cursor by one only. */
#include "core/cast.h"
#include "ops/create_internal.h"
#include "ops/index/index_internal.h"
#include "ops/view_internal.h"
#include "ops/view_op.h"

/* t[...] is views on every device views run on (then aten::index, which refuses a device without a kernel
   row: ct__index_tensors_impl); torch indexes COO tensors too, which ctorch cannot hold yet (PENDING).
   t[...] = v writes through the copy engine or index_put_: the CPU and meta rows of a conversion. */
static const ct_view_op index_op = {CT_VIEW_OP("index", "aten::index.Tensor", CT_LAYOUTS_STRIDED_COO)};
static const ct_view_op index_put_op = {CT_COPY_OP("index_put_", "aten::index_put_", 0)};

/* The size torch 1.13 reads at dim d of a view while it applies an index. Each Ellipsis moves the dim
   cursor by ndim - specified (handleDimInMultiDimIndexing), so with two of them it can pass the view's last
   dim; torch then reads c10::SizesAndStrides past its sizes without a check. What it reads there is fixed for
   a tensor made fresh (every view torch makes while indexing, and every tensor the user could hand to it
   short of an in-place rank change): up to 5 dims the storage is inline, sizes[5] then strides[5], zeroed
   when made (a 0-dim tensor keeps the stride 1 its constructor wrote first); past 5 dims it is one heap
   array, sizes[ndim] then strides[ndim]. Beyond those arrays torch reads other memory: false, the size is
   not known. */
static bool torch_size_at(const ct_tensor *t, int64_t d, int64_t *size) {
  enum {
    INLINE = 5
  };
  int64_t r = t->ndim;
  if (d < r) {
    *size = t->sizes[d];
    return true;
  }
  if (r > INLINE) {
    if (d >= 2 * r) return false;
    *size = t->strides[d - r];
    return true;
  }
  if (d < INLINE) {
    *size = 0;
    return true;
  }
  if (d >= 2 * INLINE) return false;
  int64_t j = d - INLINE;
  *size = j < r ? t->strides[j] : (j == 0 && r == 0 ? 1 : 0);
  return true;
}

/* impl::applySelect: torch's own bounds message (real_dim: the item's position), then select. A size that
   torch would read from unrelated memory is left to select, which refuses the dim. */
static ct_tensor *apply_select(const ct_tensor *t, int64_t dim, int64_t index, int64_t real_dim) {
  if (index == 0 && dim == 0 && t->ndim == 0)
    return CT_ERR_NULL(CT_ERR_INDEX, "invalid index of a 0-dim tensor. Use `tensor.item()` in Python or "
                                     "`tensor.item<T>()` in C++ to convert a 0-dim tensor to a number");
  int64_t size;
  if (torch_size_at(t, dim, &size) && !(size >= -index && size > index))
    return CT_ERR_NULL(CT_ERR_INDEX, "index %lld is out of bounds for dimension %lld with size %lld",
                       (long long)index, (long long)real_dim, (long long)size);
  return ct__select_impl(t, dim, index);
}

/* impl::applySlice reads the dim's length for its whole-dim shortcut from the sizes it was given on CPU and
   CUDA, and with self.size(dim) on other devices (meta), which fails on a 0-dim tensor before slice() can. */
static bool slice_length_ok(const ct_tensor *t, int64_t dim) {
  if (t->device_type == CT_CPU || t->device_type == CT_CUDA) return true;
  if (t->ndim > 0) return ct__wrap_dim(dim, t->ndim) >= 0;
  ct__error(CT_ERR_INDEX, "Dimension specified as %lld but tensor has no dimensions", (long long)dim);
  return false;
}

/* impl::applySlice: Python's step rules, the length read, then slice; a slice 0:size:1 of the size torch
   reads is the view itself, also at a dim past the last one, unless the shortcut is off (get_item's one
   slice: x[0:0] of a 0-dim tensor is slice()'s error). */
static ct_tensor *apply_slice(const ct_tensor *t, int64_t dim, const ct_idx *s, bool shortcut) {
  if (s->c == 0) return CT_ERR_NULL(CT_ERR_VALUE, "slice step cannot be zero");
  if (s->c < 0) return CT_ERR_NULL(CT_ERR_VALUE, "step must be greater than zero");
  if (!slice_length_ok(t, dim)) return NULL;
  int64_t size;
  if (shortcut && s->a == 0 && s->c == 1 && torch_size_at(t, dim, &size) && s->b == size)
    return ct__alias_impl(t);
  return ct__slice_impl(t, dim, s->a, s->b, s->c);
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
    case CT_INDEX_SLICE: return apply_slice(t, 0, it, false);
    case CT_INDEX_NONE: return ct__unsqueeze_impl(t, 0);
    case CT_INDEX_ELLIPSIS: return ct__alias_impl(t);
    default: return NULL; /* BOOL, TENSOR, NUMBER: the tuple path */
  }
}

/* applySlicing for a tuple of items: the view they select (*sliced, owned) and the index tensors recorded
   at the dims they stand at (rec, owned). False with the error recorded. */
static bool apply_tuple(const ct_tensor *self, const ct_idx *items, int64_t n, ct_tensor **sliced, recorded *rec) {
  int64_t specified = 0;
  for (int64_t i = 0; i < n; i++) {
    if (items[i].kind == CT_INDEX_TENSOR)
      specified += (items[i].t->dtype == CT_BOOL || items[i].t->dtype == CT_UINT8) ? items[i].t->ndim : 1;
    else if (items[i].kind == CT_INDEX_INT || items[i].kind == CT_INDEX_SLICE || items[i].kind == CT_INDEX_NUMBER)
      specified++;
  }
  *sliced = NULL;
  rec->t = NULL;
  rec->n = 0;
  if (specified > self->ndim) {
    ct__error(CT_ERR_INDEX, "too many indices for tensor of dimension %lld", (long long)self->ndim);
    return false;
  }
  /* every item moves the dim cursor by one at most, every Ellipsis by ndim - specified */
  int64_t ellipses = 0;
  for (int64_t i = 0; i < n; i++) ellipses += items[i].kind == CT_INDEX_ELLIPSIS;
  rec->cap = ellipses * (self->ndim - specified) + n + 1;
  rec->t = ct__malloc((size_t)rec->cap * sizeof *rec->t);
  if (!rec->t) return false;
  memset(rec->t, 0, (size_t)rec->cap * sizeof *rec->t);
  ct_tensor *result = ct__alias_impl(self);
  int64_t dim = 0;
  for (int64_t i = 0; result && i < n; i++) {
    const ct_idx *it = &items[i];
    ct_tensor *next = NULL;
    switch (it->kind) {
      case CT_INDEX_INT: next = apply_select(result, dim, it->a, i); break;
      case CT_INDEX_SLICE:
        next = apply_slice(result, dim, it, true);
        dim++;
        break;
      case CT_INDEX_ELLIPSIS:
        dim += self->ndim - specified;
        continue;
      case CT_INDEX_NONE:
        next = ct__unsqueeze_impl(result, dim);
        dim++;
        break;
      case CT_INDEX_BOOL: {
        next = ct__unsqueeze_impl(result, dim);
        ct_tensor *b = next ? bool_index(next, it->a != 0) : NULL;
        if (next && (!b || !record(rec, &dim, b))) {
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
          /* torch unsqueezes before it reads the value (item(): a meta index has none), so the dim's error
             comes first */
          bool v = false;
          next = ct__unsqueeze_impl(result, dim);
          if (next && ct_item_bool(x, &v) != CT_OK) {
            ct_release(next);
            next = NULL;
            break;
          }
          ct_tensor *b = next ? bool_index(next, v) : NULL;
          if (next && (!b || !record(rec, &dim, b))) {
            ct_release(next);
            next = NULL;
          }
        } else {
          ct_tensor *held = ct__alias_impl(x);
          if (held && record(rec, &dim, held)) next = ct__alias_impl(result);
        }
        break;
      }
      default: next = invalid_number(&it->number); break;
    }
    ct_release(result);
    result = next;
  }
  *sliced = result;
  return result != NULL;
}

static void recorded_free(recorded *rec) {
  for (int64_t k = 0; k < rec->n; k++) ct_release(rec->t[k]);
  ct__free(rec->t);
}

/* applySlicing + dispatch_index for a tuple of items. */
static ct_tensor *get_tuple(const ct_tensor *self, const ct_idx *items, int64_t n) {
  ct_tensor *result = NULL;
  recorded rec;
  if (apply_tuple(self, items, n, &result, &rec) && rec.n > 0) {
    ct_tensor *indexed = ct__index_tensors_impl(result, (const ct_tensor *const *)rec.t, rec.n);
    ct_release(result);
    result = indexed;
  }
  recorded_free(&rec);
  return result;
}

/* at::indexing::slicePrefix1sSize: the value's shape without its leading 1s (a view of it). */
static ct_tensor *strip_leading_ones(const ct_tensor *v) {
  int64_t k = 0;
  while (k < v->ndim && v->sizes[k] == 1) k++;
  return ct__view_geom(v, v->ndim - k, v->sizes + k, v->strides + k, v->offset);
}

/* at::indexing::copy_to: the same shape copies, a 0-dim CPU value fills, anything else is stripped of its
   leading 1s and expanded to dst (expand's message) before the copy. */
static ct_status copy_to(ct_tensor *dst, const ct_tensor *src) {
  if (dst->ndim == src->ndim && !memcmp(dst->sizes, src->sizes, (size_t)dst->ndim * sizeof(int64_t)))
    return ct__copy_into(dst, src);
  if (src->ndim == 0 && src->device_type == CT_CPU) {
    ct_scalar v;
    ct_status st = ct_item(src, &v);
    if (st != CT_OK) return st;
    if (dst->device_type == CT_META) return CT_OK;
    if (!ct__scalar_fits(v, (ct_dtype)dst->dtype)) return ct_last_error();
    return ct__fill(dst, v);
  }
  ct_tensor *s = strip_leading_ones(src);
  if (!s) return ct_last_error();
  ct_tensor *e = ct__expand_impl(s, (ct_shape){dst->sizes, dst->ndim});
  ct_release(s);
  if (!e) return ct_last_error();
  ct_status st = ct__copy_into(dst, e);
  ct_release(e);
  return st;
}

/* Python's value for t[...] = value: a tensor as it is, a number as a 0-dim tensor of self's dtype
   (scalarToTensor: c10's checked conversion, skipped on meta). */
static ct_tensor *value_tensor(const ct_tensor *self, const ct_idx *v) {
  if (v->kind == CT_INDEX_TENSOR) return ct__alias_impl(v->t);
  ct_scalar s;
  if (v->kind == CT_INDEX_INT)
    s = ct_scalar_int(v->a);
  else if (v->kind == CT_INDEX_BOOL)
    s = ct_scalar_int(v->a); /* THPUtils_unpackLong(True): 1 */
  else if (v->kind == CT_INDEX_NUMBER && v->number.kind != 0)
    s = v->number;
  else
    return CT_ERR_NULL(CT_ERR_TYPE, "ct_index_put_: the value must be a tensor or a number");
  ct_resolved_opts o = {(ct_dtype)self->dtype, ct__tdevice(self), CT_CONTIGUOUS_FORMAT, false};
  int64_t none = 0;
  return ct__full_with((ct_shape){&none, 0}, s, &o);
}

/* set_item's single-index forms (x[False] = v does nothing). NULL + no error: not a single-index form. */
static ct_status put_single(ct_tensor *self, const ct_idx *it, const ct_tensor *value, bool *done) {
  *done = true;
  ct_tensor *dst = NULL;
  switch (it->kind) {
    case CT_INDEX_BOOL:
      if (!it->a) return CT_OK;
      dst = ct__unsqueeze_impl(self, 0);
      break;
    case CT_INDEX_ELLIPSIS: return copy_to(self, value);
    case CT_INDEX_NONE: dst = ct__unsqueeze_impl(self, 0); break;
    case CT_INDEX_INT: dst = apply_select(self, 0, it->a, 0); break;
    case CT_INDEX_SLICE:
      /* applySlice's shortcut (set_item does not disable it): a slice of the whole dim is self itself, and a
         0-dim tensor reads its missing size as 0, so x[0:0] = v writes a 0-dim x, as in torch 1.13 */
      if (it->c > 0 && !slice_length_ok(self, 0)) return ct_last_error();
      if (it->c == 1 && it->a == 0 && it->b == (self->ndim ? self->sizes[0] : 0)) return copy_to(self, value);
      dst = apply_slice(self, 0, it, true);
      break;
    default: *done = false; return CT_OK;
  }
  if (!dst) return ct_last_error();
  ct_status st = copy_to(dst, value);
  ct_release(dst);
  return st;
}

ct_status ct_index_put_items_(ct_tensor *t, const ct_index_item *items, int64_t n) {
  CT__VIEW_ENTER_STATUS(&index_put_op, t, t);
  if (n > 0 && !items) return ct__null_arg(2, "items");
  if (n < 1) {
    ct__error(CT_ERR_VALUE, "ct_index_put_: the value (the last item) is missing");
    return CT_ERR_VALUE;
  }
  if (!ct__check_inplace(t)) return CT_ERR_RUNTIME;
  ct_idx *its;
  int64_t m;
  bool tuple;
  /* the last item is the value; the ones before it the index */
  ct_idx val = ct__index_resolve_one(&items[n - 1]);
  if (val.kind == CT_INDEX_TENSOR && !val.t) {
    if (ct_last_error() == CT_OK) ct__error(CT_ERR_VALUE, "ct_index_put_: argument 'value' is NULL");
    return ct_last_error();
  }
  if (!ct__index_resolve(items, n - 1, &its, &m, &tuple)) return ct_last_error();
  ct_status st = CT_OK;
  ct_tensor *value = value_tensor(t, &val);
  if (!value) {
    ct__free(its);
    return ct_last_error();
  }
  bool done = false;
  if (!tuple && m == 1) st = put_single(t, &its[0], value, &done);
  if (!done) {
    ct_tensor *sliced = NULL;
    recorded rec;
    if (!apply_tuple(t, its, m, &sliced, &rec)) {
      st = ct_last_error();
    } else if (rec.n == 0) {
      st = copy_to(sliced, value);
    } else {
      ct_tensor *v = strip_leading_ones(value);
      st = v ? ct__index_put_impl(sliced, (const ct_tensor *const *)rec.t, rec.n, v, false) : ct_last_error();
      ct_release(v);
    }
    ct_release(sliced);
    recorded_free(&rec);
  }
  ct_release(value);
  ct__free(its);
  if (st == CT_OK && t->storage) atomic_fetch_add_explicit(&t->storage->version, 1, memory_order_relaxed);
  return st;
}

ct_tensor *ct_index_items(const ct_tensor *t, const ct_index_item *items, int64_t n) {
  CT__VIEW_ENTER_PTR(&index_op, t, t);
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
