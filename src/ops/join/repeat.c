/* Tensor.repeat, torch.tile and torch.repeat_interleave as torch 1.13 computes them: repeat copies the
   input (expanded) into the result unfolded into blocks of the input's shape (TensorShape.cpp's repeat);
   repeat_interleave builds its index tensor as repeat_interleave_cpu does and selects along dim, one copy
   per run of equal indices. */
#include "ops/join/join_internal.h"
#include "core/elem.h"

static const ct_op repeat_op = CT_JOIN_OP("repeat", "aten::repeat");
static const ct_op tile_op = CT_JOIN_OP("tile", "aten::repeat");
static const ct_op ri_op = CT_JOIN_OP("repeat_interleave", "aten::repeat_interleave.Tensor");
static const ct_op ri_self_op = CT_JOIN_OP("repeat_interleave", "aten::repeat_interleave.self_Tensor");
static const ct_op ri_int_op = CT_JOIN_OP("repeat_interleave", "aten::repeat_interleave.self_int");

/* The meta device: torch's meta kernel of repeat_interleave.Tensor sizes its result by output_size alone. */
static bool meta_size_known(const ct_tensor *rep, int64_t output_size) {
  if (rep->device_type != CT_META || output_size > 0) return true;
  ct__error(CT_ERR_RUNTIME, "cannot repeat_interleave a meta tensor without output_size");
  return false;
}

ct_tensor *ct__repeat_impl(const ct_tensor *t, ct_shape repeats) {
  if (!ct__check_list(repeats, "repeats")) return NULL;
  if (repeats.ndim < t->ndim)
    return CT_ERR_NULL(CT_ERR_RUNTIME, "Number of dimensions of repeat dims can not be smaller than number of "
                                       "dimensions of tensor");
  int64_t n = repeats.ndim, lead = n - t->ndim;
  if (!ct__join_rank_ok(2 * n)) return NULL;
  int64_t padded[CT_JOIN_MAXDIM], target[CT_JOIN_MAXDIM];
  bool zero = false, overflow = false;
  for (int64_t i = 0; i < n; i++) {
    padded[i] = i < lead ? 1 : t->sizes[i - lead];
    zero |= repeats.data[i] == 0;
    overflow |= __builtin_mul_overflow(padded[i], repeats.data[i], &target[i]); /* torch's wrapped int64 */
  }
  /* at::empty's IntArrayRef to SymInt conversion, before its negative-size check: values below -2^62 are
     SymInt's own (repeat((5787354564543905791, 3, 1, 0, 0) tensor, (2, 1, 1, 1, 1))) */
  for (int64_t i = 0; i < n; i++)
    if (target[i] < CT_SYMINT_MIN)
      return CT_ERR_NULL(CT_ERR_RUNTIME,
                         "IntArrayRef contains an int that cannot be represented as a SymInt: %lld",
                         (long long)target[i]);
  ct_tensor *r = ct__join_empty(t, n, target, (ct_dtype)t->dtype);
  if (!r || zero) return r; /* torch returns here, before it unfolds, whatever the other sizes wrapped to */
  /* a wrapped size that is not negative: torch's unfold of the result then fails where it is too short */
  for (int64_t i = 0; overflow && i < n; i++)
    if (target[i] < padded[i]) {
      ct_release(r);
      return CT_ERR_NULL(CT_ERR_RUNTIME, "maximum size for tensor at dimension %lld is %lld but size is %lld",
                         (long long)i, (long long)target[i], (long long)padded[i]);
    }
  if (overflow) {
    ct_release(r);
    return CT_ERR_NULL(CT_ERR_RUNTIME, "repeat: the repeated sizes overflow int64");
  }
  if (r->numel == 0) return r;
  /* the result seen as blocks of the padded input's shape: [repeats..., padded...] */
  ct_tensor *blocks = ct__alias_impl(r);
  for (int64_t i = 0; blocks && i < n; i++) {
    ct_tensor *u = ct__unfold_impl(blocks, i, padded[i], padded[i] > 1 ? padded[i] : 1);
    ct_release(blocks);
    blocks = u;
  }
  ct_status s = blocks ? ct__copy_into(blocks, t) : ct_last_error();
  ct_release(blocks);
  if (s != CT_OK) {
    ct_release(r);
    return NULL;
  }
  return r;
}

static ct_tensor *owned(ct_tensor *r, const ct_tensor *t) {
  if (r) ct__grad_mark_result(r, t);
  return ct__own(r);
}

ct_tensor *ct_repeat(const ct_tensor *t, ct_shape repeats) {
  CT__OP_ENTER_PTR(&repeat_op, t, t);
  return owned(ct__repeat_impl(t, repeats), t);
}

ct_tensor *ct_tile(const ct_tensor *t, ct_shape dims) {
  CT__OP_ENTER_PTR(&tile_op, t, t);
  if (!ct__check_list(dims, "dims")) return NULL;
  if (t->ndim <= dims.ndim) return owned(ct__repeat_impl(t, dims), t);
  if (!ct__join_rank_ok(t->ndim)) return NULL;
  int64_t reps[CT_JOIN_MAXDIM], lead = t->ndim - dims.ndim;
  for (int64_t i = 0; i < t->ndim; i++) reps[i] = i < lead ? 1 : dims.data[i - lead];
  return owned(ct__repeat_impl(t, (ct_shape){reps, t->ndim}), t);
}

/* ---- repeat_interleave ---- */

/* The repeats as int64 values (an int32 or int64 tensor of 1 dim), with repeat_interleave_cpu's checks:
   the dtype dispatch first, then the rank. */
static int64_t *repeat_counts(const ct_tensor *rep, int64_t *n) {
  ct_dtype dt = (ct_dtype)rep->dtype;
  if (dt != CT_INT32 && dt != CT_INT64)
    return CT_ERR_NULL(CT_ERR_RUNTIME, "\"repeat_interleave_cpu\" not implemented for '%s'", ct__dt(dt)->scalar_name);
  if (rep->ndim != 1) return CT_ERR_NULL(CT_ERR_RUNTIME, "repeat_interleave only accept 1D vector as repeat");
  *n = rep->sizes[0];
  int64_t *v = ct__malloc_array(*n > 0 ? *n : 1, sizeof(int64_t));
  if (!v) return NULL;
  ct_tensor *buf = ct__borrow_contiguous(v, CT_INT64, 1, n);
  ct_status s = buf ? ct__copy_into(buf, rep) : ct_last_error();
  ct_release(buf);
  if (s != CT_OK) {
    ct__free(v);
    return NULL;
  }
  return v;
}

/* The total of the counts, checked as repeat_interleave_cpu checks them (output_size: trusted, then each
   count's sign). -1 after recording the error. torch sums in int64 and wraps: a sum that wraps negative
   gets its empty()'s message; one that wraps to 0 or more crashes torch 1.13 ([2^62] * 4: a segfault),
   and is refused here. */
static int64_t repeat_total(const int64_t *c, int64_t n, int64_t output_size) {
  int64_t total = 0; /* wrapped as torch's */
  bool negative = false, overflow = false;
  for (int64_t i = 0; i < n; i++) {
    overflow |= __builtin_add_overflow(total, c[i], &total);
    negative |= c[i] < 0;
  }
  if (negative) return (ct__error(CT_ERR_RUNTIME, "repeats can not be negative"), -1);
  if (overflow && total < 0)
    return (ct__error(CT_ERR_RUNTIME, "Trying to create tensor with negative dimension %lld: [%lld]",
                      (long long)total, (long long)total),
            -1);
  if (overflow)
    return (ct__error(CT_ERR_RUNTIME, "repeat_interleave: the repeats sum to more than 2^63 - 1"), -1);
  if (output_size > 0 && output_size != total)
    return (ct__error(CT_ERR_RUNTIME, "repeat_interleave: output_size %lld is not the sum of the repeats (%lld)",
                      (long long)output_size, (long long)total),
            -1);
  return total;
}

/* torch.repeat_interleave(repeats): index i repeated c[i] times, in the repeats' dtype. */
static ct_tensor *repeat_index(const ct_tensor *rep, int64_t output_size) {
  if (!meta_size_known(rep, output_size)) return NULL;
  if (rep->device_type == CT_META) return ct__join_empty(rep, 1, &output_size, (ct_dtype)rep->dtype);
  int64_t n = 0, *c = repeat_counts(rep, &n);
  if (!c) return NULL;
  int64_t total = n == 0 ? 0 : repeat_total(c, n, output_size);
  ct_tensor *r = total < 0 ? NULL : ct__join_empty(rep, 1, &total, (ct_dtype)rep->dtype);
  if (r) {
    char *p = (char *)ct__tdata(r);
    size_t item = ct__itemsize((ct_dtype)r->dtype);
    for (int64_t i = 0, j = 0; i < n; i++)
      for (int64_t k = 0; k < c[i]; k++, j++) ct__elem_store_i64((ct_dtype)r->dtype, p + (size_t)j * item, i);
  }
  ct__free(c);
  return r;
}

ct_tensor *ct__join_take(const ct_tensor *t, int64_t dim, const int64_t *idx, int64_t n) {
  int64_t sizes[CT_JOIN_MAXDIM];
  memcpy(sizes, t->sizes, (size_t)t->ndim * sizeof(int64_t));
  sizes[dim] = n;
  ct_tensor *r = ct__join_empty(t, t->ndim, sizes, (ct_dtype)t->dtype);
  ct_status s = r ? CT_OK : ct_last_error();
  for (int64_t k = 0; s == CT_OK && k < n && r->numel > 0;) {
    int64_t m = 1;
    while (k + m < n && idx[k + m] == idx[k]) m++;
    ct_tensor *dst = ct__narrow_impl(r, dim, k, m), *src = dst ? ct__narrow_impl(t, dim, idx[k], 1) : NULL;
    s = src ? ct__copy_into(dst, src) : ct_last_error();
    ct_release(dst);
    ct_release(src);
    k += m;
  }
  if (s != CT_OK) {
    ct_release(r);
    return NULL;
  }
  return r;
}

/* repeat_interleave(self, repeats, dim, output_size): the math bits set aside, the input flattened when dim
   is None, the repeats expanded from one entry, the index built, then index_select; the bits restored. */
static ct_tensor *ri_impl(const ct_tensor *self, const ct_tensor *rep, const ct_repeat_interleave_opts *opts) {
  ct_dims dimo = opts ? opts->dim : (ct_dims){NULL, 0};
  if (!ct__check_list(dimo, "dim")) return NULL;
  int64_t output_size = opts ? opts->output_size : 0;
  unsigned bits = self->flags & CT_TENSOR_MATH_BITS;
  ct_tensor *in = bits ? ct__math_bits_view(self, bits) : ct__same(self);
  int64_t dim = 0;
  if (in && dimo.ndim == 0) {
    ct_tensor *f = ct__flatten_impl(in, 0, -1);
    ct_release(in);
    in = f;
  } else if (in) {
    dim = ct__size_dim(in, dimo.data[0]);
  }
  if (!in || dim < 0) return (ct_release(in), NULL);
  int64_t size = in->sizes[dim], n = 0;
  ct_tensor *r = NULL;
  int64_t *c = NULL;
  if (rep->ndim > 1) {
    ct__error(CT_ERR_RUNTIME, "repeats must be 0-dim or 1-dim tensor");
  } else if (rep->ndim == 1 && rep->sizes[0] != 1 && rep->sizes[0] != size) {
    ct__error(CT_ERR_RUNTIME, "repeats must have the same size as input along dim");
  } else {
    /* one entry: repeats.reshape({1}).expand({input.size(dim)}) */
    bool scalar = rep->ndim == 0 || rep->sizes[0] == 1;
    if (!meta_size_known(rep, output_size)) {
      ct_release(in);
      return NULL;
    }
    if (rep->device_type == CT_META || in->device_type == CT_META) {
      int64_t sizes[CT_JOIN_MAXDIM];
      memcpy(sizes, in->sizes, (size_t)in->ndim * sizeof(int64_t));
      sizes[dim] = output_size;
      r = ct__empty(in->ndim, sizes, (ct_dtype)in->dtype, (ct_device){CT_META, 0});
      ct_release(in);
      return r;
    }
    int64_t one_n = 1;
    ct_tensor *flat = scalar ? ct__reshape_impl(rep, (ct_shape){&one_n, 1}) : ct__same(rep);
    ct_tensor *full = flat && scalar ? ct__expand_impl(flat, (ct_shape){&size, 1}) : flat ? ct__same(flat) : NULL;
    ct_release(flat);
    if (full) c = repeat_counts(full, &n);
    int64_t total = c ? (n == 0 ? 0 : repeat_total(c, n, output_size)) : -1;
    ct_release(full);
    if (total >= 0) {
      int64_t *idx = ct__malloc_array(total > 0 ? total : 1, sizeof(int64_t));
      if (idx) {
        for (int64_t i = 0, j = 0; i < n; i++)
          for (int64_t k = 0; k < c[i]; k++) idx[j++] = i;
        r = ct__join_take(in, dim, idx, total);
        ct__free(idx);
      }
    }
  }
  ct__free(c);
  ct_release(in);
  if (r) r->flags |= (uint8_t)bits;
  return r;
}

ct_tensor *ct_repeat_interleave_tensor(const ct_tensor *t, const ct_tensor *repeats,
                                       const ct_repeat_interleave_opts *opts) {
  CT__NONNULL_PTR(t, repeats);
  if (!CT__OP_ACCEPTS(&ri_self_op, ri_self_op.aten, t, repeats)) return NULL;
  return owned(ri_impl(t, repeats, opts), t);
}

ct_tensor *ct_repeat_interleave(const ct_tensor *t, int64_t repeats, const ct_repeat_interleave_opts *opts) {
  CT__OP_ENTER_PTR(&ri_int_op, t, t);
  int64_t one = 1;
  ct_tensor *rep = ct__join_empty(t, 1, &one, CT_INT64);
  if (!rep) return NULL;
  if (rep->device_type != CT_META) ct__elem_store_i64(CT_INT64, ct__tdata(rep), repeats);
  ct_tensor *r = ri_impl(t, rep, opts);
  ct_release(rep);
  return owned(r, t);
}

ct_tensor *ct_repeat_interleave_repeats(const ct_tensor *repeats, const ct_repeat_interleave_opts *opts) {
  CT__OP_ENTER_PTR(&ri_op, repeats, repeats);
  return ct__own(repeat_index(repeats, opts ? opts->output_size : 0));
}
