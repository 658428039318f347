/* index_select, index_add, index_copy, index_fill and index_reduce: slices along dim picked by a vector of
   indices (torch 1.13's TensorAdvancedIndexing.cpp). Each runs ct__index_func_run: the index in order, each
   slice element combined once per index entry (torch's serial loop over the index, one rounding per step);
   index_add with an alpha other than 1 on floating slices goes through add's route, whose vector and scalar
   forms round as torch's add_stub does. Index values are checked before anything is written. */
#include <math.h>

#include "core/cast.h"
#include "ops/convert_internal.h"
#include "ops/create_internal.h"
#include "ops/index/index_ops.h"
#include "ops/pointwise/pw.h"
#include "ops/view_internal.h"

static const char dim_row[1];
#define DIM_OP(nm, at) {.name = nm, .aten = at, .kernels = {[CT_CPU] = dim_row, [CT_META] = dim_row}}
#define DIM_OP_CPU(nm, at) {.name = nm, .aten = at, .kernels = {[CT_CPU] = dim_row}}
static const ct_op index_select_op = DIM_OP("index_select", "aten::index_select");
static const ct_op index_select_out_op = DIM_OP("index_select", "aten::index_select.out");
static const ct_op index_add_op = DIM_OP("index_add", "aten::index_add");
static const ct_op index_add_inplace_op = DIM_OP("index_add", "aten::index_add_");
static const ct_op index_add_out_op = DIM_OP("index_add", "aten::index_add.out");
static const ct_op index_copy_op = DIM_OP("index_copy", "aten::index_copy");
static const ct_op index_copy_inplace_op = DIM_OP("index_copy", "aten::index_copy_");
static const ct_op index_copy_out_op = DIM_OP("index_copy", "aten::index_copy.out");
static const ct_op index_fill_op = DIM_OP("index_fill", "aten::index_fill.int_Scalar");
static const ct_op index_fill_inplace_op = DIM_OP("index_fill", "aten::index_fill_.int_Scalar");
static const ct_op index_reduce_op = DIM_OP("index_reduce", "aten::index_reduce");
static const ct_op index_reduce_inplace_op = DIM_OP("index_reduce", "aten::index_reduce_");
static const ct_op index_reduce_out_op = DIM_OP("index_reduce", "aten::index_reduce.out");

/* The index as a contiguous int64 vector (0-dim as [1]); NULL on failure. */
static ct_tensor *index_vector(const ct_tensor *index) {
  ct_tensor *i64 = ct__idx_as(index, CT_INT64);
  if (!i64) return NULL;
  int64_t n = index->numel;
  ct_tensor *v = ct__reshape_impl(i64, (ct_shape){&n, 1});
  ct_release(i64);
  return v;
}

static bool in_range(const ct_tensor *iv, int64_t size, ct_error_kind kind, const char *fmt_prefix, int64_t dim) {
  int64_t bad;
  if (!ct__idx_find_bad(iv, 0, size, &bad)) return true;
  if (fmt_prefix)
    ct__error(kind, "%sindex %lld is out of bounds for dimension %lld with size %lld", fmt_prefix, (long long)bad,
              (long long)dim, (long long)size);
  else
    ct__error(kind, "index out of range in self");
  return false;
}

static void fmt_shape(char *buf, size_t n, const ct_tensor *t) { ct__fmt_int_list(buf, n, t->ndim, t->sizes); }

/* ---- index_select ---- */

/* out_contig: whether the result torch writes is contiguous (a fresh one is; an out= of the result's shape
   keeps its strides), which picks its dim-1 path and that path's message for a bad index. */
static ct_tensor *index_select_impl(const ct_tensor *self_in, int64_t dim, const ct_tensor *index, bool out_contig) {
  dim = ct__wrap_dim(dim, self_in->ndim);
  if (dim < 0) return NULL;
  if (index->ndim > 1) return CT_ERR_NULL(CT_ERR_INDEX, "index_select(): Index is supposed to be a vector");
  if (index->dtype != CT_INT64 && index->dtype != CT_INT32)
    return CT_ERR_NULL(CT_ERR_RUNTIME, "index_select(): Expected dtype int32 or int64 for index");
  int64_t nd = self_in->ndim, sz[64];
  if (nd > 64) return CT_ERR_NULL(CT_ERR_NOT_IMPLEMENTED, "index_select supports tensors of up to 64 dims");
  memcpy(sz, self_in->sizes, (size_t)nd * sizeof(int64_t));
  if (nd) sz[dim] = index->numel;
  ct_resolved_opts o = {(ct_dtype)self_in->dtype, ct__tdevice(self_in), CT_CONTIGUOUS_FORMAT, false};
  ct_tensor *iv = index_vector(index);
  if (!iv) return NULL;
  if (nd > 1 && iv->numel > 0 && self_in->numel == 0) { /* the empty-self path's own checks */
    int64_t axis = self_in->sizes[dim], bad;
    if (axis <= 0) {
      ct_release(iv);
      return CT_ERR_NULL(CT_ERR_RUNTIME, "index_select(): self indexing axis dim should be positive");
    }
    if (ct__idx_find_bad(iv, 0, axis, &bad)) {
      ct_release(iv);
      return CT_ERR_NULL(CT_ERR_RUNTIME, "INDICES element is out of DATA bounds, id=%lld axis_dim=%lld", (long long)bad,
                         (long long)axis);
    }
  }
  int64_t bad;
  if (nd > 1 && dim == 1 && out_contig && iv->numel > 0 && ct__idx_find_bad(iv, 0, self_in->sizes[1], &bad)) {
    ct_release(iv); /* torch's contiguous dim-1 path (index_select_out_cpu_dim1_) */
    return CT_ERR_NULL(CT_ERR_RUNTIME, "INDICES element is out of DATA bounds, id=%lld axis_dim=%lld", (long long)bad,
                       (long long)self_in->sizes[1]);
  }
  if (!in_range(iv, ct__ne_size(self_in, dim), CT_ERR_INDEX, NULL, dim)) {
    ct_release(iv);
    return NULL;
  }
  if (nd == 0) { /* a scalar self: the result is its value (any number of in-range indices write it) */
    ct_release(iv);
    return index->numel ? ct__idx_fresh(self_in, CT_CONTIGUOUS_FORMAT) : ct__empty_with((ct_shape){sz, 0}, &o);
  }
  ct_tensor *r = ct__empty_with((ct_shape){sz, nd}, &o);
  ct_tensor *self = r ? ct__resolve_bits(self_in) : NULL;
  ct_status s = self ? ct__index_func_run(r, dim, iv, self, false, 0, "index_select") : ct_last_error();
  ct_release(self);
  ct_release(iv);
  if (s != CT_OK) {
    ct_release(r);
    return NULL;
  }
  return r;
}

ct_tensor *ct_index_select(const ct_tensor *t, int64_t dim, const ct_tensor *index) {
  CT__OP_ENTER_PTR(&index_select_op, t, t, index);
  if (!CT__OP_ACCEPTS(&index_select_op, index_select_op.aten, t, index)) return NULL;
  if (CT__OP_ON_META(t, index)) return ct__own(ct__index_select_meta(t, dim, index));
  return ct__own(index_select_impl(t, dim, index, true));
}

ct_status ct_index_select_out(ct_tensor *out, const ct_tensor *t, int64_t dim, const ct_tensor *index) {
  CT__OP_ENTER_STATUS(&index_select_out_op, t, out, t, index);
  if (!CT__OP_OUT_GRAD_OK(&index_select_out_op, out, t, index)) return CT_ERR_RUNTIME;
  if (!CT__OP_ACCEPTS(&index_select_out_op, index_select_out_op.aten, out, t, index)) return ct_last_error();
  if (CT__OP_ON_META(out, t, index)) return ct__index_select_out_meta(out, t, dim, index);
  if (!ct_device_equal(ct__tdevice(out), ct__tdevice(t))) {
    ct__error(CT_ERR_RUNTIME, "out Tensor doesn't have the correct device set");
    return CT_ERR_RUNTIME;
  }
  if (ct__wrap_dim(dim, t->ndim) < 0) return CT_ERR_INDEX;
  if (index->ndim > 1) { /* index_select_out_cpu_'s own checks come before the result's dtype */
    ct__error(CT_ERR_INDEX, "index_select(): Index is supposed to be a vector");
    return CT_ERR_INDEX;
  }
  if (index->dtype != CT_INT64 && index->dtype != CT_INT32) {
    ct__error(CT_ERR_RUNTIME, "index_select(): Expected dtype int32 or int64 for index");
    return CT_ERR_RUNTIME;
  }
  if (out->dtype != t->dtype) {
    ct__error(CT_ERR_RUNTIME, "index_select(): self and result must have the same scalar type");
    return CT_ERR_RUNTIME;
  }
  if (!ct__check_no_internal_overlap(out) || !ct__idx_no_overlap(out, t) || !ct__idx_no_overlap(out, index))
    return CT_ERR_RUNTIME;
  /* resize_output keeps an out of the result's shape as it is, and makes any other contiguous */
  bool contig = true;
  if (t->ndim <= 64) { /* more: index_select_impl's refusal */
    int64_t sz[64];
    memcpy(sz, t->sizes, (size_t)t->ndim * sizeof(int64_t));
    if (t->ndim) sz[ct__wrap_dim(dim, t->ndim)] = index->numel;
    contig = !ct__has_sizes(out, t->ndim, sz) || ct_is_contiguous(out, CT_CONTIGUOUS_FORMAT);
  }
  return ct__idx_copy_out(out, index_select_impl(t, dim, index, contig));
}

/* ---- index_add / index_reduce: index_func_meta_impl's checks ---- */

bool ct__index_func_checks(const char *func, const ct_tensor *self, int64_t dim, const ct_tensor *index,
                           const ct_tensor *source) {
  if (index->ndim > 1) {
    char a[1024];
    fmt_shape(a, sizeof a, index);
    ct__error(CT_ERR_INDEX, "%s_(): Index is supposed to be a vector, but got dim: %lld with type: %s and size: %s",
              func, (long long)index->ndim, ct__dt((ct_dtype)index->dtype)->scalar_name, a);
    return false;
  }
  if (index->dtype != CT_INT64 && index->dtype != CT_INT32) {
    ct__error(CT_ERR_RUNTIME, "%s_(): Expected dtype int32/int64 for index but got: %s", func,
              ct__dt((ct_dtype)index->dtype)->scalar_name);
    return false;
  }
  if (self->dtype != source->dtype) {
    ct__error(CT_ERR_RUNTIME, "%s_(): self (%s) and source (%s) must have the same scalar type", func,
              ct__dt((ct_dtype)self->dtype)->scalar_name, ct__dt((ct_dtype)source->dtype)->scalar_name);
    return false;
  }
  if (!(dim == 0 || dim < source->ndim)) {
    ct__error(CT_ERR_INDEX, "%s_(): Indexing dim %lld is out of bounds of the source tensor with dim %lld", func,
              (long long)dim, (long long)source->ndim);
    return false;
  }
  int64_t ssz = source->ndim == 0 ? 1 : source->sizes[dim];
  if (index->numel != ssz) {
    if (source->ndim == 0) { /* the message's source.size(dim) fails first */
      ct__error(CT_ERR_INDEX, "Dimension specified as %lld but tensor has no dimensions", (long long)dim);
      return false;
    }
    ct__error(CT_ERR_RUNTIME, "%s_(): Number of indices (%lld) should be equal to source.size(dim): (%lld), for dim: %lld",
              func, (long long)index->numel, (long long)ssz, (long long)dim);
    return false;
  }
  return true;
}

/* The slices' broadcast (the add/mul TensorIterator on self.select(dim, 0) and source.select(dim, 0)). */
static bool slices_fit(const ct_tensor *self, int64_t dim, const ct_tensor *source) {
  if (self->ndim <= 1) return true;
  int64_t a[64], b[64], na = 0, nb = 0;
  for (int64_t d = 0; d < self->ndim && d < 64; d++)
    if (d != dim) a[na++] = self->sizes[d];
  for (int64_t d = 0; d < source->ndim && d < 64; d++)
    if (d != dim) b[nb++] = source->sizes[d];
  return ct__index_slices_fit(na, a, nb, b);
}

/* The part index_add and index_reduce share after their checks: the slices' broadcast, then the index as a
   checked int64 vector (*iv; NULL with CT_OK when there is nothing to do). */
static ct_status func_index(const ct_tensor *target, int64_t dim, const ct_tensor *index, const ct_tensor *source,
                            bool select_first, ct_tensor **iv) {
  *iv = NULL;
  if (index->numel == 0) return CT_OK;
  if (select_first && target->ndim > 1 && target->sizes[dim] == 0) { /* index_add's result.select(dim, 0) */
    char a[1024];
    ct__fmt_int_list(a, sizeof a, target->ndim, target->sizes);
    ct__error(CT_ERR_INDEX, "select(): index 0 out of range for tensor of size %s at dimension %lld", a, (long long)dim);
    return CT_ERR_INDEX;
  }
  if (!slices_fit(target, dim, source)) return ct_last_error();
  *iv = index_vector(index);
  if (!*iv) return ct_last_error();
  if (!in_range(*iv, ct__ne_size(target, dim), CT_ERR_INDEX, NULL, dim)) {
    ct_release(*iv);
    *iv = NULL;
    return CT_ERR_INDEX;
  }
  return CT_OK;
}

/* alpha * source (alpha converted to the dtype, as alpha.to<scalar_t>(); one rounding), for the slices
   combined with a plain add. */
static ct_tensor *scaled_source(const ct_tensor *source, ct_scalar alpha) {
  ct_dtype dt = (ct_dtype)source->dtype;
  if (!ct__check_scalar(alpha) || !ct__scalar_fits(alpha, dt)) return NULL;
  ct_resolved_opts o = {dt, {CT_CPU, -1}, CT_CONTIGUOUS_FORMAT, false};
  int64_t none = 0;
  ct_tensor *a = ct__empty_with((ct_shape){&none, 0}, &o);
  if (!a) return NULL;
  ct__store_scalar(dt, ct__tdata(a), alpha);
  ct_tensor *r = ct__idx_copy_as(source, (ct_dtype)(source)->dtype, CT_CONTIGUOUS_FORMAT);
  /* r *= a: scatter's multiply over r's one dim (ct__index_func_run needs a vector index: every element
     once) would do; the elementwise product is mul's route with both operands of r's dtype. */
  ct_status s = r ? ct__pw_op_mul.run(&ct__pw_op_mul, r, (const ct_tensor *const[]){r, a}, 2, true, NULL, NULL)
                  : ct_last_error();
  ct_release(a);
  if (s != CT_OK) {
    ct_release(r);
    return NULL;
  }
  return r;
}

static bool alpha_is_one(ct_scalar a) {
  return a.kind == 0 || (a.kind == CT_SCALAR_BOOL && a.v.b) || (a.kind == CT_SCALAR_INT && a.v.i == 1) ||
         (a.kind == CT_SCALAR_DOUBLE && a.v.d == 1.0) || (a.kind == CT_SCALAR_COMPLEX && a.v.c.re == 1.0 && a.v.c.im == 0.0);
}

static ct_status index_add_into(ct_tensor *target, int64_t dim, const ct_tensor *index, const ct_tensor *source_in,
                                ct_scalar alpha, bool inplace) {
  dim = ct__wrap_dim(dim, target->ndim);
  if (dim < 0) return CT_ERR_INDEX;
  if (!ct__index_func_checks("index_add", target, dim, index, source_in)) return ct_last_error();
  if (inplace && !ct__check_no_internal_overlap(target)) return CT_ERR_RUNTIME;
  ct_tensor *iv;
  ct_status fs = func_index(target, dim, index, source_in, true, &iv);
  if (!iv) return fs;
  ct_tensor *source = ct__resolve_bits(source_in);
  ct_status s = source ? CT_OK : ct_last_error();
  ct_dtype dt = (ct_dtype)target->dtype;
  /* torch multiplies by alpha even when it is 1: only a complex product can change a value then
     (inf * 0 in the cross terms) */
  bool cplx = ct__dt(dt)->category == CT_CAT_COMPLEX;
  bool one = alpha_is_one(alpha) && !cplx;
  bool fl = ct__dt(dt)->category == CT_CAT_FLOAT || cplx;
  if (s == CT_OK && !one && fl && target->ndim > 1) {
    /* add_stub per index entry: self_slice = self_slice + alpha * source_slice */
    ct_alpha_opts ao = {alpha};
    for (int64_t k = 0; k < iv->numel && s == CT_OK; k++) {
      ct_tensor *ts = ct__select_impl(target, dim, ct__idx_value_at(iv, k));
      ct_tensor *ss = ts ? ct__select_impl(source, dim, k) : NULL;
      s = ss ? ct__pw_op_add.run(&ct__pw_op_add, ts, (const ct_tensor *const[]){ts, ss}, 2, true, &ao, NULL)
             : ct_last_error();
      ct_release(ts);
      ct_release(ss);
    }
  } else if (s == CT_OK) {
    ct_tensor *src = one ? ct__alias_impl(source) : scaled_source(source, alpha);
    s = src ? ct__index_func_run(target, dim, iv, src, true, CT_REDUCTION_SUM, "index_add_cpu_") : ct_last_error();
    ct_release(src);
  }
  ct_release(source);
  ct_release(iv);
  return s;
}

static ct_scalar opts_alpha(const ct_index_add_opts *opts) {
  return opts && opts->alpha.kind ? opts->alpha : ct_scalar_int(1);
}

/* The meta kernel on an in-place target or out= tensor (ct__index_func_meta). */
static ct_status func_meta_into(const char *func, ct_tensor *result, const ct_tensor *self, int64_t dim,
                                const ct_tensor *index, const ct_tensor *source) {
  return ct__index_func_meta(func, result, self, dim, index, source) ? CT_OK : ct_last_error();
}

ct_tensor *ct_index_add(const ct_tensor *t, int64_t dim, const ct_tensor *index, const ct_tensor *source,
                        const ct_index_add_opts *opts) {
  CT__OP_ENTER_PTR(&index_add_op, t, t, index, source);
  if (!CT__OP_ACCEPTS(&index_add_op, index_add_op.aten, t, index, source)) return NULL;
  if (CT__OP_ON_META(t, index, source))
    return ct__own(ct__index_func_meta("index_add", NULL, t, dim, index, source));
  ct_tensor *r = ct__idx_fresh(t, CT_CONTIGUOUS_FORMAT);
  if (r && index_add_into(r, dim, index, source, opts_alpha(opts), false) != CT_OK) {
    ct_release(r);
    r = NULL;
  }
  return ct__own(r);
}
ct_status ct_index_add_(ct_tensor *self, int64_t dim, const ct_tensor *index, const ct_tensor *source,
                        const ct_index_add_opts *opts) {
  CT__OP_ENTER_STATUS(&index_add_inplace_op, self, self, index, source);
  if (!CT__OP_ACCEPTS(&index_add_inplace_op, index_add_inplace_op.aten, self, index, source)) return ct_last_error();
  ct_tensor *target = ct__idx_target_begin(self, false);
  if (!target) return ct_last_error();
  return ct__idx_target_end(self, target,
                            CT__OP_ON_META(self, index, source)
                                ? func_meta_into("index_add", target, target, dim, index, source)
                                : index_add_into(target, dim, index, source, opts_alpha(opts), true));
}
ct_status ct_index_add_out(ct_tensor *out, const ct_tensor *t, int64_t dim, const ct_tensor *index,
                           const ct_tensor *source, const ct_index_add_opts *opts) {
  CT__OP_ENTER_STATUS(&index_add_out_op, t, out, t, index, source);
  if (!CT__OP_OUT_GRAD_OK(&index_add_out_op, out, t, index, source)) return CT_ERR_RUNTIME;
  if (!CT__OP_ACCEPTS(&index_add_out_op, index_add_out_op.aten, out, t, index, source)) return ct_last_error();
  if (CT__OP_ON_META(out, t, index, source)) return func_meta_into("index_add", out, t, dim, index, source);
  int64_t d = ct__wrap_dim(dim, t->ndim);
  if (d < 0) return CT_ERR_INDEX;
  if (!ct__index_func_checks("index_add", t, d, index, source) || !ct__idx_out_dtype(out, t))
    return ct_last_error();
  if (!ct__idx_no_overlap(out, index) || !ct__idx_no_overlap(out, source)) return CT_ERR_RUNTIME;
  ct_tensor *r = ct__idx_out_twin(out, t);
  if (r && index_add_into(r, dim, index, source, opts_alpha(opts), false) != CT_OK) {
    ct_release(r);
    r = NULL;
  }
  return ct__idx_copy_out(out, r);
}

/* index_copy's and index_fill's kernels restride self to index.numel() entries along dim of stride 0
   (as_strided): torch's storage-bounds error when that view needs more storage than self has, and nothing
   to do (no value read or checked) when it has no element (*empty). */
static bool restrided_fits(const ct_tensor *self, int64_t dim, int64_t n, bool *empty) {
  int64_t nd = ct__ne_dim(self), numel = 1, last = self->offset, sz[64], st[64];
  if (nd > 64) {
    ct__error(CT_ERR_NOT_IMPLEMENTED, "index ops support tensors of up to 64 dims");
    return false;
  }
  for (int64_t d = 0; d < nd; d++) {
    sz[d] = d == dim ? n : ct__ne_size(self, d);
    st[d] = d == dim ? 0 : ct__ne_stride(self, d);
    numel *= sz[d];
    last += sz[d] > 0 ? (sz[d] - 1) * st[d] : 0;
  }
  *empty = numel == 0;
  if (*empty || self->device_type == CT_META) return true;
  int64_t isz = (int64_t)ct__itemsize((ct_dtype)self->dtype), need = (last + 1) * isz;
  if (need <= (int64_t)self->storage->nbytes) return true;
  char a[1024], b[1024];
  ct__fmt_int_list(a, sizeof a, nd, sz);
  ct__fmt_int_list(b, sizeof b, nd, st);
  ct__error(CT_ERR_RUNTIME, "setStorage: sizes %s, strides %s, storage offset %lld, and itemsize %lld requiring a "
                            "storage size of %lld are out of bounds for storage of size %lld",
            a, b, (long long)self->offset, (long long)isz, (long long)need, (long long)self->storage->nbytes);
  return false;
}

/* ---- index_copy ---- */

static bool copy_checks(const ct_tensor *self, int64_t dim, const ct_tensor *index, const ct_tensor *source) {
  if (index->ndim >= 2) {
    ct__error(CT_ERR_INDEX, "index_copy_(): Index should have dimension 1 or 0 (got %lld)", (long long)index->ndim);
    return false;
  }
  int64_t numIndices = index->numel;
  if (source->ndim == 0 && numIndices != 1) {
    ct__error(CT_ERR_INDEX, "index_copy_(): When source is scalar, index should have one element (got %lld)",
              (long long)numIndices);
    return false;
  }
  if (source->ndim > 0 && self->ndim > 0 && source->ndim != self->ndim) {
    ct__error(CT_ERR_INDEX,
              "index_copy_(): When source and destination are not scalars, their dimensionality must match. Source "
              "dimensionality (%lld), destination dimensionality (%lld)",
              (long long)source->ndim, (long long)self->ndim);
    return false;
  }
  if (index->dtype != CT_INT64) {
    ct__error(CT_ERR_RUNTIME, "index_copy_(): Expected a long tensor for index, but got %s",
              ct__dt((ct_dtype)index->dtype)->scalar_name);
    return false;
  }
  if (self->dtype != source->dtype) {
    ct__error(CT_ERR_RUNTIME,
              "index_copy_(): self and source expected to have the same dtype, but got (self) %s and (source) %s",
              ct__dt((ct_dtype)self->dtype)->scalar_name, ct__dt((ct_dtype)source->dtype)->scalar_name);
    return false;
  }
  /* the slices (sizes without dim; a 0-dim tensor's: none) must match exactly, printed as c10 prints a
     vector: sizes separated by spaces */
  char a[1024] = "", b[1024] = "";
  size_t ka = 0, kb = 0;
  int64_t na = 0, nb = 0, sa[64], sb[64];
  for (int64_t d = 0; d < self->ndim && d < 64; d++)
    if (d != dim) sa[na++] = self->sizes[d];
  for (int64_t d = 0; d < source->ndim && d < 64; d++)
    if (d != dim) sb[nb++] = source->sizes[d];
  if (na != nb || memcmp(sa, sb, (size_t)na * sizeof(int64_t)) != 0) {
    for (int64_t k = 0; k < na; k++) ka += (size_t)snprintf(a + ka, sizeof a - ka, "%s%lld", k ? " " : "", (long long)sa[k]);
    for (int64_t k = 0; k < nb; k++) kb += (size_t)snprintf(b + kb, sizeof b - kb, "%s%lld", k ? " " : "", (long long)sb[k]);
    ct__error(CT_ERR_RUNTIME,
              "index_copy_(): Source/destination tensor must have same slice shapes. Destination slice shape: %s at "
              "dimension %lld and source slice shape: %s at dimension 0.", a, (long long)dim, b);
    return false;
  }
  int64_t ssz = source->ndim == 0 ? 1 : source->sizes[dim];
  if (numIndices != ssz) {
    ct__error(CT_ERR_INDEX, "index_copy_(): Number of indices (%lld) should be equal to source.size(dim) (%lld)",
              (long long)numIndices, (long long)ssz);
    return false;
  }
  return true;
}

static ct_status index_copy_into(ct_tensor *target, int64_t dim, const ct_tensor *index, const ct_tensor *source_in,
                                 bool inplace) {
  dim = ct__wrap_dim(dim, target->ndim);
  if (dim < 0) return CT_ERR_INDEX;
  if (inplace && !ct__check_no_internal_overlap(target)) return CT_ERR_RUNTIME;
  if (!copy_checks(target, dim, index, source_in)) return ct_last_error();
  bool empty;
  if (!restrided_fits(target, dim, index->numel, &empty)) return ct_last_error();
  if (empty) return CT_OK;
  ct_tensor *iv = index_vector(index);
  if (!iv) return ct_last_error();
  if (target->device_type != CT_META && !in_range(iv, ct__ne_size(target, dim), CT_ERR_INDEX, "index_copy_(): ", dim)) {
    ct_release(iv);
    return CT_ERR_INDEX;
  }
  ct_tensor *source = ct__resolve_bits(source_in);
  ct_status s = source ? ct__index_func_run(target, dim, iv, source, true, 0, "index_copy") : ct_last_error();
  ct_release(source);
  ct_release(iv);
  return s;
}

ct_tensor *ct_index_copy(const ct_tensor *t, int64_t dim, const ct_tensor *index, const ct_tensor *source) {
  CT__OP_ENTER_PTR(&index_copy_op, t, t, index, source);
  if (!CT__OP_ACCEPTS(&index_copy_op, index_copy_op.aten, t, index, source)) return NULL;
  ct_tensor *r = ct__idx_fresh(t, CT_CONTIGUOUS_FORMAT);
  if (r && index_copy_into(r, dim, index, source, false) != CT_OK) {
    ct_release(r);
    r = NULL;
  }
  return ct__own(r);
}
ct_status ct_index_copy_(ct_tensor *self, int64_t dim, const ct_tensor *index, const ct_tensor *source) {
  CT__OP_ENTER_STATUS(&index_copy_inplace_op, self, self, index, source);
  if (!CT__OP_ACCEPTS(&index_copy_inplace_op, index_copy_inplace_op.aten, self, index, source)) return ct_last_error();
  ct_tensor *target = ct__idx_target_begin(self, false);
  if (!target) return ct_last_error();
  return ct__idx_target_end(self, target, index_copy_into(target, dim, index, source, true));
}
ct_status ct_index_copy_out(ct_tensor *out, const ct_tensor *t, int64_t dim, const ct_tensor *index,
                            const ct_tensor *source) {
  CT__OP_ENTER_STATUS(&index_copy_out_op, t, out, t, index, source);
  if (!CT__OP_OUT_GRAD_OK(&index_copy_out_op, out, t, index, source)) return CT_ERR_RUNTIME;
  if (!CT__OP_ACCEPTS(&index_copy_out_op, index_copy_out_op.aten, out, t, index, source)) return ct_last_error();
  int64_t d = ct__wrap_dim(dim, t->ndim);
  if (d < 0) return CT_ERR_INDEX;
  if (!ct__idx_out_dtype(out, t) || !copy_checks(t, d, index, source)) return ct_last_error();
  if (!ct__idx_no_overlap(out, index) || !ct__idx_no_overlap(out, source)) return CT_ERR_RUNTIME;
  ct_tensor *r = ct__idx_out_twin(out, t);
  if (r && index_copy_into(r, dim, index, source, false) != CT_OK) {
    ct_release(r);
    r = NULL;
  }
  return ct__idx_copy_out(out, r);
}

/* ---- index_fill ---- */

static ct_status index_fill_into(ct_tensor *target, int64_t dim, const ct_tensor *index, ct_scalar value) {
  if (!ct__check_scalar(value)) return ct_last_error();
  ct_dtype dt = (ct_dtype)target->dtype;
  if (index->dtype != CT_INT64) {
    ct__error(CT_ERR_INDEX, "index_fill_(): Expected dtype int64 for index.");
    return CT_ERR_INDEX;
  }
  if (value.kind == CT_SCALAR_COMPLEX && ct__dt(dt)->category != CT_CAT_COMPLEX) {
    ct__error(CT_ERR_RUNTIME, "index_fill_(): Converting complex Scalar to non-complex type is not supported");
    return CT_ERR_RUNTIME;
  }
  dim = ct__wrap_dim(dim, target->ndim);
  if (dim < 0) return CT_ERR_INDEX;
  if (index->ndim > 1) {
    ct__error(CT_ERR_RUNTIME, "Index has to be a vector/scalar");
    return CT_ERR_RUNTIME;
  }
  /* torch restrides self (its setStorage error) before it converts the value */
  bool empty;
  if (!restrided_fits(target, dim, index->numel, &empty) || !ct__scalar_fits(value, dt)) return ct_last_error();
  if (empty) return CT_OK;
  ct_tensor *iv = ct__idx_copy_as(index, (ct_dtype)(index)->dtype, CT_CONTIGUOUS_FORMAT);
  if (!iv) return ct_last_error();
  int64_t n = iv->numel, size = ct__ne_size(target, dim);
  ct_tensor *flat = ct__reshape_impl(iv, (ct_shape){&n, 1});
  ct_release(iv);
  if (!flat) return ct_last_error();
  int64_t *p = (int64_t *)ct__tdata(flat);
  for (int64_t k = 0; k < n; k++) {
    if (p[k] < -size || p[k] >= size) {
      ct__error(CT_ERR_INDEX, "index %lld is out of bounds for dimension %lld with size %lld", (long long)p[k],
                (long long)dim, (long long)size);
      ct_release(flat);
      return CT_ERR_INDEX;
    }
    if (p[k] < 0) p[k] += size;
  }
  ct_resolved_opts o = {dt, {CT_CPU, -1}, CT_CONTIGUOUS_FORMAT, false};
  int64_t one = 1;
  ct_tensor *v = ct__empty_with((ct_shape){&one, 1}, &o);
  ct_status s = v ? CT_OK : ct_last_error();
  if (v) {
    ct__store_scalar(dt, ct__tdata(v), value);
    int64_t st[64] = {0}, nd = ct__ne_dim(target), sz[64];
    for (int64_t d = 0; d < nd && d < 64; d++) sz[d] = d == dim ? n : ct__ne_size(target, d);
    ct_tensor *src = ct__view_geom(v, nd, sz, st, 0);
    s = src ? ct__index_func_run(target, dim, flat, src, true, 0, "index_fill") : ct_last_error();
    ct_release(src);
    ct_release(v);
  }
  ct_release(flat);
  return s;
}

ct_tensor *ct_index_fill(const ct_tensor *t, int64_t dim, const ct_tensor *index, ct_scalar value) {
  CT__OP_ENTER_PTR(&index_fill_op, t, t, index);
  if (!CT__OP_ACCEPTS(&index_fill_op, index_fill_op.aten, t, index)) return NULL;
  if (!ct__check_scalar(value)) return NULL;
  ct_tensor *r = ct__idx_fresh(t, CT_PRESERVE_FORMAT);
  /* the composite's clone, then index_fill_, whose Meta kernel checks nothing */
  if (r && !CT__OP_ON_META(t, index) && index_fill_into(r, dim, index, value) != CT_OK) {
    ct_release(r);
    r = NULL;
  }
  return ct__own(r);
}
ct_status ct_index_fill_(ct_tensor *self, int64_t dim, const ct_tensor *index, ct_scalar value) {
  CT__OP_ENTER_STATUS(&index_fill_inplace_op, self, self, index);
  if (!CT__OP_ACCEPTS(&index_fill_inplace_op, index_fill_inplace_op.aten, self, index)) return ct_last_error();
  if (!ct__check_scalar(value)) return ct_last_error();
  if (CT__OP_ON_META(self, index)) return ct__idx_meta_noop_(self);
  ct_tensor *target = ct__idx_target_begin(self, false);
  if (!target) return ct_last_error();
  return ct__idx_target_end(self, target, index_fill_into(target, dim, index, value));
}

/* ---- index_reduce ---- */

static bool index_reduction_ok(ct_reduction r) {
  static const char *const names[] = {"", "sum", "prod", "mean", "amax", "amin"};
  if (r >= CT_REDUCTION_PROD && r <= CT_REDUCTION_AMIN) return true;
  ct__error(CT_ERR_RUNTIME, "index_reduce(): Expected reduce to be one of prod, mean, amax or amin but got %s.",
            r >= CT_REDUCTION_SUM && r <= CT_REDUCTION_AMIN ? names[r] : "?");
  return false;
}

/* Torch's path for a self of more than one dim: per index entry, the binary op's kernel on the two slices
   (mul, minimum, maximum, add for mean), whose vector rows and scalar tail differ (minimum's tie of 0. and
   -0. picks the source in a vector row, self in the tail). */
static ct_status reduce_slices(ct_tensor *target, int64_t dim, const ct_tensor *iv, const ct_tensor *source,
                               ct_reduction reduce) {
  const ct_pw_op *op = reduce == CT_REDUCTION_PROD   ? &ct__pw_op_mul
                       : reduce == CT_REDUCTION_AMIN ? &ct__pw_op_minimum
                       : reduce == CT_REDUCTION_AMAX ? &ct__pw_op_maximum
                                                     : &ct__pw_op_add;
  const int64_t *idx = (const int64_t *)ct__tdata(iv), step = iv->strides[0];
  ct_status s = CT_OK;
  for (int64_t i = 0; i < iv->numel && s == CT_OK; i++) {
    ct_tensor *a = ct__select_impl(target, dim, idx[i * step]), *b = a ? ct__select_impl(source, dim, i) : NULL;
    s = b ? ct__pw_apply_(op, a, b) : ct_last_error();
    ct_release(a);
    ct_release(b);
  }
  return s;
}

/* A fresh dense complex count tensor's zeros made ones (its elements are one block from its data). */
static void counts_at_least_one(ct_tensor *count) {
  char *p = ct__tdata(count);
  if (count->dtype == CT_COMPLEX64)
    for (int64_t i = 0; i < count->numel; i++) ((float *)p)[2 * i] += ((float *)p)[2 * i] == 0.0f;
  else
    for (int64_t i = 0; i < count->numel; i++) ((double *)p)[2 * i] += ((double *)p)[2 * i] == 0.0;
}

static ct_status index_reduce_into(ct_tensor *target, int64_t dim, const ct_tensor *index, const ct_tensor *source_in,
                                   ct_reduction reduce, bool include_self, bool inplace) {
  dim = ct__wrap_dim(dim, target->ndim);
  if (dim < 0) return CT_ERR_INDEX;
  if (!ct__index_func_checks("index_reduce", target, dim, index, source_in)) return ct_last_error();
  if (inplace && !ct__check_no_internal_overlap(target)) return CT_ERR_RUNTIME;
  ct_dtype dt = (ct_dtype)target->dtype;
  bool cplx = ct__dt(dt)->category == CT_CAT_COMPLEX;
  if (!include_self && (dt == CT_BOOL || cplx)) {
    ct__error(CT_ERR_RUNTIME, "\"index_reduce_func_exclude_input_init\" not implemented for '%s'",
              ct__dt(dt)->scalar_name);
    return CT_ERR_RUNTIME;
  }
  /* the 1-dim path's loop dispatches over the real types (no bool, no complex), for any index */
  if (target->ndim <= 1 && (dt == CT_BOOL || cplx)) {
    ct__error(CT_ERR_RUNTIME, "\"index_func_\" not implemented for '%s'", ct__dt(dt)->scalar_name);
    return CT_ERR_RUNTIME;
  }
  if (index->numel && (reduce == CT_REDUCTION_AMAX || reduce == CT_REDUCTION_AMIN) && cplx) {
    /* torch's loop fails in the first slice's maximum/minimum, after the slices' broadcast and the first
       index's range check */
    ct_tensor *v = index_vector(index), *first = v ? ct__slice_impl(v, 0, 0, 1, 1) : NULL, *iv0 = NULL;
    ct_status f = first ? func_index(target, dim, first, source_in, true, &iv0) : ct_last_error();
    ct_release(v);
    ct_release(first);
    ct_release(iv0);
    if (f != CT_OK) return f;
    ct__error(CT_ERR_RUNTIME, "\"%s\" not implemented for '%s'", reduce == CT_REDUCTION_AMAX ? "maximum_cpu" : "minimum_cpu",
              ct__dt(dt)->scalar_name);
    return CT_ERR_RUNTIME;
  }
  ct_status s = CT_OK;
  if (!include_self) {
    /* torch fills the named slices with the identity first (index_fill_: its bounds rule and message,
       negative values allowed), then reduces: both sets of checks run here before anything is written */
    if (dt == CT_BOOL || ct__dt(dt)->category == CT_CAT_COMPLEX) {
      ct__error(CT_ERR_RUNTIME, "\"index_reduce_func_exclude_input_init\" not implemented for '%s'",
                ct__dt(dt)->scalar_name);
      return CT_ERR_RUNTIME;
    }
    bool empty;
    if (!restrided_fits(target, dim, index->numel, &empty)) return ct_last_error();
    ct_tensor *fv = empty ? NULL : index_vector(index);
    int64_t bad, size = ct__ne_size(target, dim);
    bool oob = fv && ct__idx_find_bad(fv, -size, size, &bad);
    ct_release(fv);
    if (oob) {
      ct__error(CT_ERR_INDEX, "index %lld is out of bounds for dimension %lld with size %lld", (long long)bad,
                (long long)dim, (long long)size);
      return CT_ERR_INDEX;
    }
  }
  ct_tensor *iv;
  s = func_index(target, dim, index, source_in, true, &iv);
  if (!iv) return s;
  if (reduce == CT_REDUCTION_MEAN && dt == CT_BOOL) { /* the division after torch's loop (its index checks) */
    ct_release(iv);
    ct__error(CT_ERR_RUNTIME, "\"div_floor_cpu\" not implemented for 'Bool'");
    return CT_ERR_RUNTIME;
  }
  if (!include_self) s = index_fill_into(target, dim, iv, ct__reduction_identity(dt, reduce));
  ct_tensor *source = s == CT_OK ? ct__resolve_bits(source_in) : NULL;
  if (s == CT_OK && !source) s = ct_last_error();
  if (s == CT_OK)
    s = target->ndim > 1 ? reduce_slices(target, dim, iv, source, reduce)
                         : ct__index_func_run(target, dim, iv, source, true, reduce, "index_reduce");
  if (s == CT_OK && reduce == CT_REDUCTION_MEAN) {
    /* torch's counts: ones_like/zeros_like(result) (its strides when dense: the division's rows are torch's) */
    ct_resolved_opts o = {dt, ct__tdevice(target), CT_CONTIGUOUS_FORMAT, false};
    ct_tensor *count = ct__empty_like_with(target, CT_PRESERVE_FORMAT, &o);
    if (count && ct__fill_impl(count, ct_scalar_int(include_self ? 1 : 0)) != CT_OK) {
      ct_release(count);
      count = NULL;
    }
    ct_tensor *ones = count ? ct__full_with((ct_shape){source->sizes, source->ndim}, ct_scalar_int(1), &o) : NULL;
    s = ones ? ct__index_func_run(count, dim, iv, ones, true, CT_REDUCTION_SUM, "index_add_cpu_") : ct_last_error();
    /* complex division has vector and scalar forms (div's route); counts of 0 are 1 first (masked_fill_) */
    if (s == CT_OK && cplx) counts_at_least_one(count);
    if (s == CT_OK) s = cplx ? ct__pw_apply_(&ct__pw_op_true_divide, target, count) : ct__mean_divide(target, count);
    ct_release(ones);
    ct_release(count);
  }
  ct_release(source);
  ct_release(iv);
  return s;
}

ct_tensor *ct_index_reduce(const ct_tensor *t, int64_t dim, const ct_tensor *index, const ct_tensor *source,
                           ct_reduction reduce, const ct_scatter_reduce_opts *opts) {
  CT__OP_ENTER_PTR(&index_reduce_op, t, t, index, source);
  if (!CT__OP_ACCEPTS(&index_reduce_op, index_reduce_op.aten, t, index, source)) return NULL;
  if (!index_reduction_ok(reduce)) return NULL;
  if (CT__OP_ON_META(t, index, source))
    return ct__own(ct__index_func_meta("index_reduce", NULL, t, dim, index, source));
  ct_tensor *r = ct__idx_fresh(t, CT_CONTIGUOUS_FORMAT);
  if (r && index_reduce_into(r, dim, index, source, reduce, !(opts && opts->exclude_self), false) != CT_OK) {
    ct_release(r);
    r = NULL;
  }
  return ct__own(r);
}
ct_status ct_index_reduce_(ct_tensor *self, int64_t dim, const ct_tensor *index, const ct_tensor *source,
                           ct_reduction reduce, const ct_scatter_reduce_opts *opts) {
  CT__OP_ENTER_STATUS(&index_reduce_inplace_op, self, self, index, source);
  if (!CT__OP_ACCEPTS(&index_reduce_inplace_op, index_reduce_inplace_op.aten, self, index, source))
    return ct_last_error();
  if (!index_reduction_ok(reduce)) return CT_ERR_RUNTIME;
  ct_tensor *target = ct__idx_target_begin(self, false);
  if (!target) return ct_last_error();
  return ct__idx_target_end(
      self, target,
      CT__OP_ON_META(self, index, source)
          ? func_meta_into("index_reduce", target, target, dim, index, source)
          : index_reduce_into(target, dim, index, source, reduce, !(opts && opts->exclude_self), true));
}
ct_status ct_index_reduce_out(ct_tensor *out, const ct_tensor *t, int64_t dim, const ct_tensor *index,
                              const ct_tensor *source, ct_reduction reduce, const ct_scatter_reduce_opts *opts) {
  CT__OP_ENTER_STATUS(&index_reduce_out_op, t, out, t, index, source);
  if (!CT__OP_OUT_GRAD_OK(&index_reduce_out_op, out, t, index, source)) return CT_ERR_RUNTIME;
  if (!CT__OP_ACCEPTS(&index_reduce_out_op, index_reduce_out_op.aten, out, t, index, source)) return ct_last_error();
  if (!index_reduction_ok(reduce)) return CT_ERR_RUNTIME;
  if (CT__OP_ON_META(out, t, index, source))
    return func_meta_into("index_reduce", out, t, dim, index, source);
  int64_t d = ct__wrap_dim(dim, t->ndim);
  if (d < 0) return CT_ERR_INDEX;
  if (!ct__index_func_checks("index_reduce", t, d, index, source) || !ct__idx_out_dtype(out, t))
    return ct_last_error();
  if (!ct__idx_no_overlap(out, index) || !ct__idx_no_overlap(out, source)) return CT_ERR_RUNTIME;
  ct_tensor *r = ct__idx_out_twin(out, t);
  if (r && index_reduce_into(r, dim, index, source, reduce, !(opts && opts->exclude_self), false) != CT_OK) {
    ct_release(r);
    r = NULL;
  }
  return ct__idx_copy_out(out, r);
}
