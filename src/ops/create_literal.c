/* torch.tensor(data) of Python values (ct_tensor_literal): torch 1.13's shape inference (each list's
   first value, down), dtype inference over every value, and its conversion of each value
   (torch/csrc/utils/tensor_new.cpp and python_scalars.h), with their errors. */
#include "core/cast.h"
#include "ops/create_internal.h"

/* tensor_new.cpp's MAX_DIMS */
#define LITERAL_MAX_DIMS 128

static bool is_list(const ct_literal *l) { return l->n >= 0; }

/* The highest Python kind among the values (bool < int < float < complex); 0 when there is none. False
   after recording the error of a C value no Python int ctorch holds (args.h's kind 0). */
static bool infer_kind(const ct_literal *l, int depth, ct_scalar_kind *kind) {
  if (depth > LITERAL_MAX_DIMS) {
    ct__error(CT_ERR_VALUE, "too many dimensions 'list'");
    return false;
  }
  if (!is_list(l)) {
    if (!ct__check_scalar(l->number)) return false;
    if (l->number.kind > *kind) *kind = l->number.kind;
    return true;
  }
  if (l->n > 0 && !l->items) {
    ct__error(CT_ERR_VALUE, "tensor: a list of %lld values without items", (long long)l->n);
    return false;
  }
  for (int64_t i = 0; i < l->n; i++)
    if (!infer_kind(&l->items[i], depth + 1, kind)) return false;
  return true;
}

/* python_scalars.h's store_scalar: integer dtypes take ints and floats with c10's checked conversion
   (its message naming the dtype as torch.tensor does), floating dtypes any real number unchecked,
   bool and complex dtypes any number. */
static bool store_number(ct_dtype dt, char *p, ct_scalar v) { /* p NULL (meta): the checks only */
  bool integer = !ct_dtype_is_floating_point(dt) && !ct_dtype_is_complex(dt) && dt != CT_BOOL;
  if (v.kind == CT_SCALAR_COMPLEX && integer) {
    ct__error(CT_ERR_TYPE, "'complex' object cannot be interpreted as an integer");
    return false;
  }
  if (v.kind == CT_SCALAR_COMPLEX && ct_dtype_is_floating_point(dt)) {
    ct__error(CT_ERR_TYPE, "must be real number, not complex");
    return false;
  }
  if (integer && !ct__scalar_fits(v, dt)) {
    ct__error(CT_ERR_RUNTIME, "value cannot be converted to type %s without overflow",
              ct_dtype_name(dt) + strlen("torch."));
    return false;
  }
  if (p) ct__store_scalar(dt, p, v);
  return true;
}

/* tensor_new.cpp's recursive_store: every list of a dim as long as the first, numbers at the last, at
   byte offset `at` of base (NULL for a meta tensor, which torch checks the same way). */
static bool store(const ct_literal *l, const ct_tensor *t, int64_t dim, char *base, int64_t at) {
  ct_dtype dt = (ct_dtype)t->dtype;
  if (dim == t->ndim) {
    if (!is_list(l)) return store_number(dt, base ? base + at : NULL, l->number);
    if (ct_dtype_is_floating_point(dt) || ct_dtype_is_complex(dt))
      ct__error(CT_ERR_TYPE, "must be real number, not list");
    else
      ct__error(CT_ERR_TYPE, "'list' object cannot be interpreted as an integer");
    return false;
  }
  if (!is_list(l)) {
    ct__error(CT_ERR_TYPE, "not a sequence");
    return false;
  }
  if (l->n != t->sizes[dim]) {
    ct__error(CT_ERR_VALUE, "expected sequence of length %lld at dim %lld (got %lld)", (long long)t->sizes[dim],
              (long long)dim, (long long)l->n);
    return false;
  }
  int64_t step = t->strides[dim] * (int64_t)ct__itemsize(dt);
  for (int64_t i = 0; i < l->n; i++)
    if (!store(&l->items[i], t, dim + 1, base, at + i * step)) return false;
  return true;
}

ct_tensor *ct_tensor_literal(ct_literal data, const ct_tensor_opts *opts) {
  ct_scalar_kind kind = (ct_scalar_kind)0;
  if (!infer_kind(&data, 0, &kind)) return NULL;
  ct_scalar probe = {.kind = kind ? kind : CT_SCALAR_DOUBLE};
  ct_resolved_opts o;
  if (!ct__factory_enter(&ct__tensor_op, opts, ct__scalar_default_dtype(probe), CT_SHAPE_SCALAR, &o))
    return NULL;
  /* compute_sizes: the length of each list on the path of first values */
  int64_t sizes[LITERAL_MAX_DIMS];
  int64_t ndim = 0;
  for (const ct_literal *l = &data; is_list(l); l = &l->items[0]) {
    sizes[ndim++] = l->n;
    if (l->n == 0) break;
  }
  ct_resolved_opts plain = o;
  plain.requires_grad = false;
  ct_tensor *t = ct__empty_with((ct_shape){sizes, ndim}, &plain);
  if (!t) return NULL;
  if (!store(&data, t, 0, t->device_type == CT_META ? NULL : ct__tdata(t), 0)) {
    ct_release(t);
    return NULL;
  }
  return ct__own(ct__finish_requires_grad(t, o.requires_grad));
}
