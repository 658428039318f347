/* Tensor.item and its typed forms, and reading or writing one element by a full index. */
#include "core/cast.h"
#include "ops/convert_internal.h"
#include "ops/create_internal.h"
#include "ops/view_op.h"

/* item is a composite over aten::_local_scalar_dense, whose errors torch shows: its device is checked where
   the element is read (a meta tensor has none, after item's own numel check), and the compressed layouts have
   no kernel; torch reads a COO tensor's one element (pending in ctorch). Reading or writing one element by an
   index (t[index]) goes the same way. Not differentiable. */
static const ct_view_op item_op = {.op = {.name = "item",
                                          .aten = "aten::_local_scalar_dense",
                                          .layouts = CT_LAYOUTS_ALL,
                                          .composite = true,
                                          .grad = CT_OP_GRAD_NONE,
                                          CT_COPY_ROWS_CPU},
                                   .compressed = CT_SPARSE_DISPATCH};

/* The device's dispatch point: the meta device has no _local_scalar_dense. */
static ct_status no_meta(const ct_tensor *t) {
  return ct__op_table(&item_op.op, t, NULL) ? CT_OK : ct_last_error();
}

/* A NULL result pointer is the caller's mistake: ValueError, after a NULL tensor has been passed on. */
static bool check_out(const char *fn, const void *out) {
  if (out) return true;
  ct__error(CT_ERR_VALUE, "%s: out is NULL", fn);
  return false;
}

/* The one element's scalar, after the checks every item form shares. */
ct_status ct__item_impl(const ct_tensor *t, ct_scalar *out) {
  if (t->numel != 1) {
    /* Python's Tensor.item() checks before ATen's "a Tensor with N elements cannot be converted to Scalar" */
    ct__error(CT_ERR_VALUE, "only one element tensors can be converted to Python scalars");
    return CT_ERR_VALUE;
  }
  ct_status st = no_meta(t);
  if (st != CT_OK) return st;
  if (!ct__check_in_storage(t)) return CT_ERR_RUNTIME;
  *out = ct__math_bits_apply_scalar(ct__load_scalar((ct_dtype)t->dtype, ct__tdata(t)), ct__math_bits(t));
  return CT_OK;
}

ct_status ct_item(const ct_tensor *t, ct_scalar *out) {
  CT__VIEW_ENTER_STATUS(&item_op, t, t);
  if (!check_out("ct_item", out)) return CT_ERR_VALUE;
  return ct__item_impl(t, out);
}

/* item<T>(): the number through c10's checked conversion (a complex with an imaginary part, or a
   NaN or out-of-range float for int64, is an overflow error). */
static ct_status item_as(const char *fn, const ct_tensor *t, ct_dtype dt, void *out) {
  CT__VIEW_ENTER_STATUS(&item_op, t, t);
  if (!check_out(fn, out)) return CT_ERR_VALUE;
  ct_scalar s;
  ct_status st = ct__item_impl(t, &s);
  if (st != CT_OK) return st;
  if (!ct__scalar_fits(s, dt)) return CT_ERR_RUNTIME;
  ct__store_scalar(dt, out, s);
  return CT_OK;
}

ct_status ct_item_double(const ct_tensor *t, double *out) { return item_as("ct_item_double", t, CT_FLOAT64, out); }
ct_status ct_item_int64(const ct_tensor *t, int64_t *out) { return item_as("ct_item_int64", t, CT_INT64, out); }

ct_status ct_item_complex(const ct_tensor *t, ct_complex128 *out) {
  return item_as("ct_item_complex", t, CT_COMPLEX128, out);
}

/* Python's bool(t.item()): any nonzero part (NaN included) is true. */
ct_status ct_item_bool(const ct_tensor *t, bool *out) {
  CT__VIEW_ENTER_STATUS(&item_op, t, t);
  if (!check_out("ct_item_bool", out)) return CT_ERR_VALUE;
  ct_scalar s;
  ct_status st = ct__item_impl(t, &s);
  if (st != CT_OK) return st;
  switch (s.kind) {
    case CT_SCALAR_BOOL: *out = s.v.b; break;
    case CT_SCALAR_INT: *out = s.v.i != 0; break;
    case CT_SCALAR_DOUBLE: *out = s.v.d != 0; break;
    case CT_SCALAR_COMPLEX: *out = s.v.c.re != 0 || s.v.c.im != 0; break;
  }
  return CT_OK;
}

/* The element offset of t[index] after PyTorch's bounds checks (negative indices count from the end). */
static ct_status element_offset(const ct_tensor *t, const int64_t *index, uint64_t *offset) {
  if (t->ndim > 0 && !index) {
    ct__error(CT_ERR_VALUE, "an index of %d entries is required", (int)t->ndim);
    return CT_ERR_VALUE;
  }
  uint64_t off = 0; /* wraps for a geometry outside its storage, which element_at then refuses */
  for (int64_t d = 0; d < t->ndim; d++) {
    int64_t i = index[d], n = t->sizes[d];
    if (i < -n || i >= n) {
      ct__error(CT_ERR_INDEX, "index %lld is out of bounds for dimension %lld with size %lld", (long long)i,
                (long long)d, (long long)n);
      return CT_ERR_INDEX;
    }
    off += (uint64_t)(i < 0 ? i + n : i) * (uint64_t)t->strides[d];
  }
  *offset = off;
  return CT_OK;
}

/* The address of t[index], after the bounds checks. */
static ct_status element_at(const ct_tensor *t, const int64_t *index, char **p) {
  uint64_t off;
  ct_status st = element_offset(t, index, &off);
  if (st == CT_OK) st = no_meta(t);
  if (st != CT_OK) return st;
  if (!ct__check_in_storage(t)) return CT_ERR_RUNTIME;
  *p = ct__tdata(t) + (int64_t)off * (int64_t)ct__itemsize((ct_dtype)t->dtype);
  return CT_OK;
}

ct_status ct_get_item(const ct_tensor *t, const int64_t *index, ct_scalar *out) {
  CT__VIEW_ENTER_STATUS(&item_op, t, t);
  if (!check_out("ct_get_item", out)) return CT_ERR_VALUE;
  char *p;
  ct_status st = element_at(t, index, &p);
  if (st == CT_OK) *out = ct__math_bits_apply_scalar(ct__load_scalar((ct_dtype)t->dtype, p), ct__math_bits(t));
  return st;
}

/* t[index] = number on meta: select's views (their bounds checks), then fill_'s Meta kernel, which neither
   converts nor checks the number; torch reads no element. */
static ct_status set_item_meta(const ct_tensor *t, const int64_t *index) {
  uint64_t off;
  ct_status st = element_offset(t, index, &off);
  if (st != CT_OK) return st;
  return ct__check_inplace_flags(t->ndim ? ct__grad_view_flags(t) : t->flags) ? CT_OK : CT_ERR_RUNTIME;
}

/* t[index] = value is fill_ on the selected element: a checked conversion. */
ct_status ct_set_item(ct_tensor *t, const int64_t *index, ct_scalar value) {
  if (t && t->device_type == CT_META) return set_item_meta(t, index);
  CT__VIEW_ENTER_STATUS(&item_op, t, t);
  /* PyTorch converts the value (with its overflow check) before it looks at the index. */
  if (!ct__scalar_fits(value, (ct_dtype)t->dtype)) return CT_ERR_RUNTIME;
  char *p;
  ct_status st = element_at(t, index, &p);
  if (st != CT_OK) return st;
  /* t[index] = value writes through the view t[index] (t itself when t is 0-dim) */
  if (!ct__check_inplace_flags(t->ndim ? ct__grad_view_flags(t) : t->flags)) return CT_ERR_RUNTIME;
  ct__store_scalar((ct_dtype)t->dtype, p, value);
  ct__math_bits_apply_row(p, 0, (ct_dtype)t->dtype, 1, ct__math_bits(t)); /* so that t[index] reads value */
  atomic_fetch_add_explicit(&t->storage->version, 1, memory_order_relaxed);
  return CT_OK;
}
