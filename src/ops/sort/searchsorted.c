/* torch.searchsorted and torch.bucketize (torch 1.13, Bucketization.cpp): searchsorted_pre_check's checks
   in its order, inputs made contiguous and promoted to their result type, then for each value a binary
   search of its row of boundaries (cus_lower_bound / cus_upper_bound: `!(mid >= val)` and `!(mid > val)`,
   so a NaN value goes past every boundary), through sorter when given. */
#include "ops/create_internal.h"
#include "ops/sort/sort_internal.h"

/* AT_DISPATCH_ALL_TYPES_AND2(Half, BFloat16) */
static const ct_sort_type *const ss_types[CT_NUM_DTYPES + 1] = {CT_DT_INTEGRAL(CT_SORT_ROW)
                                                                    CT_DT_FLOATING(CT_SORT_ROW)};
static const ct_op ss_op = {CT_SORT_OP("searchsorted", "aten::searchsorted.Tensor", ss_types, NULL),
                            .grad = CT_OP_GRAD_NONE};
static const ct_op ss_scalar_op = {CT_SORT_OP("searchsorted", "aten::searchsorted.Scalar", ss_types, NULL),
                                   .grad = CT_OP_GRAD_NONE};
static const ct_op bucketize_op = {CT_SORT_OP("bucketize", "aten::bucketize.Tensor", ss_types, NULL),
                                   .grad = CT_OP_GRAD_NONE};
static const ct_op bucketize_scalar_op = {CT_SORT_OP("bucketize", "aten::bucketize.Scalar", ss_types, NULL),
                                          .grad = CT_OP_GRAD_NONE};

#define SS "torch.searchsorted(): "

static bool fail(const char *fmt, ...) CT_PRINTF(1, 2);
static bool fail(const char *fmt, ...) {
  char msg[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  ct__error(CT_ERR_RUNTIME, "%s", msg);
  return false;
}

static bool dims_matched_before_last(const ct_tensor *bd, const ct_tensor *in) {
  if (bd->ndim != in->ndim) return false;
  for (int64_t d = 0; d + 1 < bd->ndim; d++)
    if (bd->sizes[d] != in->sizes[d]) return false;
  return true;
}

/* searchsorted_pre_check; odt: the output's dtype (out='s, or the one the functional form makes). */
static bool pre_check(const ct_tensor *bd, const ct_tensor *in, ct_dtype odt, bool out_int32, bool right,
                      const char *side, const ct_tensor *sorter) {
  char a[160], b[160];
  if (side) {
    if (strcmp(side, "left") && strcmp(side, "right"))
      return fail(SS "side can only be 'left' or 'right' but got %s", side);
    if (right && strcmp(side, "right"))
      return fail(SS "side and right can't be set to opposites, got side of %s while right was True", side);
  }
  if (sorter) {
    bool same = sorter->ndim == bd->ndim;
    for (int64_t d = 0; same && d < bd->ndim; d++) same = sorter->sizes[d] == bd->sizes[d];
    if (!same) {
      ct__fmt_int_list(a, sizeof a, bd->ndim, bd->sizes);
      ct__fmt_int_list(b, sizeof b, sorter->ndim, sorter->sizes);
      return fail(
          SS
          "boundary and sorter must have the same size, but got boundary tensor %sand got sorter tensor %s",
          a, b);
    }
    if ((ct_dtype)sorter->dtype != CT_INT64)
      return fail(SS "sorter must be a tensor of long dtype but got dtype %s",
                  ct__dt((ct_dtype)sorter->dtype)->scalar_name);
    if (sorter->numel > 0) {
      int64_t last = sorter->ndim ? sorter->sizes[sorter->ndim - 1] : 1;
      ct_tensor *c = ct__contiguous_impl(sorter, CT_CONTIGUOUS_FORMAT);
      if (!c) return false;
      const int64_t *s = (const int64_t *)ct__tdata(c);
      bool ok = true;
      for (int64_t j = 0; j < sorter->numel && ok; j++) ok = s[j] >= 0 && s[j] < last;
      ct_release(c);
      if (!ok) return fail(SS "sorter index out of range");
    }
  }
  if (!(in->ndim > 0 || (in->numel == 1 && bd->ndim == 1)))
    return fail(
        SS "input value can be a scalar only when boundaries tensor dimension is 1, but we got boundaries "
           "tensor dim(%" PRId64 ") and input value's dim(%" PRId64 ") numel(%" PRId64 ")",
        (int64_t)bd->ndim, (int64_t)in->ndim, in->numel);
  if (bd->ndim == 0) return fail(SS "boundaries tensor should have positive dimension, but got 0 dimension");
  if (bd->ndim != 1 && !dims_matched_before_last(bd, in)) {
    ct__fmt_int_list(a, sizeof a, bd->ndim, bd->sizes);
    ct__fmt_int_list(b, sizeof b, in->ndim, in->sizes);
    return fail(
        SS
        "boundaries tensor should be 1 dimension or the first N-1 dimensions of boundaries tensor and input "
        "value tensor must match, but we got boundaries tensor %s and input value tensor %s",
        a, b);
  }
  if (!((odt == CT_INT64 && !out_int32) || (odt == CT_INT32 && out_int32)))
    return fail(
        SS "output tensor's dtype is wrong, it can only be Int(int32) or Long(int64) depending on whether "
           "out_int32 flag is True, but we got output tensor's dtype %s and out_int32 flag is %s",
        ct__dt(odt)->scalar_name, out_int32 ? "True" : "False");
  if (out_int32 && bd->sizes[bd->ndim - 1] >= INT32_MAX)
    return fail(SS "the size of boundaries' last dimension should be less than %d, but we got %" PRId64,
                INT32_MAX, bd->sizes[bd->ndim - 1]);
  return true;
}

/* t as a contiguous tensor of dtype dt (a new reference). */
static ct_tensor *as_contiguous(const ct_tensor *t, ct_dtype dt) {
  ct_tensor *c = ct__empty(t->ndim, t->sizes, dt, ct__tdevice(t));
  if (c && t->numel && ct__copy_into(c, t) != CT_OK) {
    ct_release(c);
    return NULL;
  }
  return c;
}

/* The positions: one binary search per value. */
static void search(const ct_sort_type *ty, const char *bd, int64_t nbd_row, bool bd_1d, const char *in,
                   int64_t n_in, int64_t in_row, const int64_t *sorter, bool right, char *out, bool out32) {
  size_t isz = ct__itemsize(ty->dtype);
  for (int64_t i = 0; i < n_in; i++) {
    int64_t start = bd_1d ? 0 : i / in_row * nbd_row, end = start + nbd_row, orig = start;
    const char *vp = in + (size_t)i * isz;
    if (ty->is_float) {
      double val = ty->to_double(vp);
      while (start < end) {
        int64_t mid = start + ((end - start) >> 1);
        double m = ty->to_double(bd + (size_t)(sorter ? sorter[mid] + orig : mid) * isz);
        if (right ? !(m > val) : !(m >= val)) start = mid + 1;
        else end = mid;
      }
    } else {
      uint64_t val = ty->key(vp);
      while (start < end) {
        int64_t mid = start + ((end - start) >> 1);
        uint64_t m = ty->key(bd + (size_t)(sorter ? sorter[mid] + orig : mid) * isz);
        if (right ? !(m > val) : !(m >= val)) start = mid + 1;
        else end = mid;
      }
    }
    int64_t pos = start - orig;
    if (out32) ((int32_t *)out)[i] = (int32_t)pos;
    else ((int64_t *)out)[i] = pos;
  }
}

/* searchsorted_out_cpu: a new (unowned) result in *res; out: the out= tensor (its dtype is checked). */
static ct_status ss_core(const ct_op *op, const ct_tensor *bd, const ct_tensor *in,
                         const ct_searchsorted_opts *o, const ct_tensor *out, ct_tensor **res) {
  ct_searchsorted_opts none = {0};
  if (!o) o = &none;
  *res = NULL;
  if (!ct__check_in_storage(bd) || !ct__check_in_storage(in) ||
      (o->sorter && !ct__check_in_storage(o->sorter)))
    return ct_last_error();
  ct_dtype odt = out ? (ct_dtype)out->dtype : o->out_int32 ? CT_INT32 : CT_INT64;
  if (!pre_check(bd, in, odt, o->out_int32, o->right, o->side, o->sorter)) return ct_last_error();
  bool right = o->side ? !strcmp(o->side, "right") : o->right;
  ct_tensor *r = ct__empty(in->ndim, in->sizes, odt, ct__tdevice(in));
  if (!r) return ct_last_error();
  if (in->numel == 0) {
    *res = r;
    return CT_OK;
  }
  const ct_tensor *pair[2] = {bd, in};
  ct_dtype common;
  ct_status s = ct__result_type(pair, 2, &common);
  const ct_sort_type *ty = s == CT_OK ? ((const ct_sort_type *const *)op->kernels[CT_CPU])[common] : NULL;
  if (s == CT_OK && !ty) {
    ct__red_not_implemented("searchsorted_out_cpu", common);
    s = CT_ERR_RUNTIME;
  }
  ct_tensor *cb = NULL, *ci = NULL, *cs = NULL;
  if (s == CT_OK && (!(cb = as_contiguous(bd, common)) || !(ci = as_contiguous(in, common)) ||
                     (o->sorter && !(cs = as_contiguous(o->sorter, CT_INT64)))))
    s = ct_last_error();
  if (s == CT_OK) {
    int64_t in_row = in->ndim ? in->sizes[in->ndim - 1] : 1;
    search(ty, ct__tdata(cb), bd->sizes[bd->ndim - 1], bd->ndim == 1, ct__tdata(ci), in->numel, in_row,
           cs ? (const int64_t *)ct__tdata(cs) : NULL, right, ct__tdata(r), odt == CT_INT32);
  }
  ct_release(cb);
  ct_release(ci);
  ct_release(cs);
  if (s != CT_OK) {
    ct_release(r);
    return s;
  }
  *res = r;
  return CT_OK;
}

/* rp: read after the call that made it (a separate argument would be read in any order) */
static ct_status deliver(ct_status s, ct_tensor **rp, ct_tensor *out, ct_tensor **result) {
  ct_tensor *r = *rp;
  if (s != CT_OK) return s;
  if (out) return ct__sort_write_outs(&r, &out, 1);
  *result = ct__own(r);
  return *result ? CT_OK : ct_last_error();
}

ct_tensor *ct_searchsorted(const ct_tensor *sorted_sequence, const ct_tensor *values,
                           const ct_searchsorted_opts *opts) {
  CT__NONNULL_PTR(sorted_sequence, values);
  if (!CT__OP_ACCEPTS(&ss_op, ss_op.aten, sorted_sequence, values, opts ? opts->sorter : NULL)) return NULL;
  ct_tensor *r = NULL, *res = NULL;
  deliver(ss_core(&ss_op, sorted_sequence, values, opts, NULL, &r), &r, NULL, &res);
  return res;
}

ct_status ct_searchsorted_out(ct_tensor *out, const ct_tensor *sorted_sequence, const ct_tensor *values,
                              const ct_searchsorted_opts *opts) {
  CT__NONNULL_STATUS(out, sorted_sequence, values);
  if (!CT__OP_ACCEPTS(&ss_op, "aten::searchsorted.Tensor_out", sorted_sequence, values,
                      opts ? opts->sorter : NULL, out))
    return ct_last_error();
  ct_tensor *r = NULL;
  return deliver(ss_core(&ss_op, sorted_sequence, values, opts, out, &r), &r, out, NULL);
}

ct_tensor *ct_searchsorted_scalar(const ct_tensor *sorted_sequence, ct_scalar value,
                                  const ct_searchsorted_opts *opts) {
  CT__NONNULL_PTR(sorted_sequence);
  if (!CT__OP_ACCEPTS(&ss_scalar_op, ss_scalar_op.aten, sorted_sequence, opts ? opts->sorter : NULL))
    return NULL;
  ct_tensor *v = ct__wrapped_scalar(value);
  if (!v) return NULL;
  ct_tensor *r = NULL, *res = NULL;
  deliver(ss_core(&ss_scalar_op, sorted_sequence, v, opts, NULL, &r), &r, NULL, &res);
  ct_release(v);
  return res;
}

ct_status ct_searchsorted_scalar_out(ct_tensor *out, const ct_tensor *sorted_sequence, ct_scalar value,
                                     const ct_searchsorted_opts *opts) {
  CT__NONNULL_STATUS(out, sorted_sequence);
  /* generated out= form: the functional op dispatches (out is only copied into) */
  if (!CT__OP_ACCEPTS(&ss_scalar_op, ss_scalar_op.aten, sorted_sequence, opts ? opts->sorter : NULL))
    return ct_last_error();
  ct_tensor *v = ct__wrapped_scalar(value);
  if (!v) return ct_last_error();
  /* searchsorted.Scalar_out is generated: the functional result resized into out and copied (cast) */
  ct_tensor *r = NULL;
  ct_status s = deliver(ss_core(&ss_scalar_op, sorted_sequence, v, opts, NULL, &r), &r, out, NULL);
  ct_release(v);
  return s;
}

/* bucketize: 1-D boundaries, then searchsorted(boundaries, t). */
static ct_status bucketize_core(const ct_op *op, const ct_tensor *t, const ct_tensor *bd,
                                const ct_bucketize_opts *o, const ct_tensor *out, ct_tensor **res) {
  *res = NULL;
  if (bd->ndim != 1) {
    ct__error(CT_ERR_RUNTIME, "boundaries tensor must be 1 dimension, but got dim(%" PRId64 ")",
              (int64_t)bd->ndim);
    return CT_ERR_RUNTIME;
  }
  ct_searchsorted_opts so = {.out_int32 = o && o->out_int32, .right = o && o->right};
  return ss_core(op, bd, t, &so, out, res);
}

ct_tensor *ct_bucketize(const ct_tensor *t, const ct_tensor *boundaries, const ct_bucketize_opts *opts) {
  CT__NONNULL_PTR(t, boundaries);
  if (!CT__OP_ACCEPTS(&bucketize_op, bucketize_op.aten, t, boundaries)) return NULL;
  ct_tensor *r = NULL, *res = NULL;
  deliver(bucketize_core(&bucketize_op, t, boundaries, opts, NULL, &r), &r, NULL, &res);
  return res;
}

ct_status ct_bucketize_out(ct_tensor *out, const ct_tensor *t, const ct_tensor *boundaries,
                           const ct_bucketize_opts *opts) {
  CT__NONNULL_STATUS(out, t, boundaries);
  if (!CT__OP_ACCEPTS(&bucketize_op, "aten::bucketize.Tensor_out", t, boundaries, out))
    return ct_last_error();
  ct_tensor *r = NULL;
  return deliver(bucketize_core(&bucketize_op, t, boundaries, opts, out, &r), &r, out, NULL);
}

ct_tensor *ct_bucketize_scalar(ct_scalar value, const ct_tensor *boundaries, const ct_bucketize_opts *opts) {
  CT__NONNULL_PTR(boundaries);
  if (!CT__OP_ACCEPTS(&bucketize_scalar_op, bucketize_scalar_op.aten, boundaries)) return NULL;
  ct_tensor *v = ct__wrapped_scalar(value);
  if (!v) return NULL;
  ct_tensor *r = NULL, *res = NULL;
  deliver(bucketize_core(&bucketize_scalar_op, v, boundaries, opts, NULL, &r), &r, NULL, &res);
  ct_release(v);
  return res;
}

ct_status ct_bucketize_scalar_out(ct_tensor *out, ct_scalar value, const ct_tensor *boundaries,
                                  const ct_bucketize_opts *opts) {
  CT__NONNULL_STATUS(out, boundaries);
  if (!CT__OP_ACCEPTS(&bucketize_scalar_op, bucketize_scalar_op.aten, boundaries)) return ct_last_error();
  ct_tensor *v = ct__wrapped_scalar(value);
  if (!v) return ct_last_error();
  /* bucketize.Scalar_out is generated: the functional result resized into out and copied (cast) */
  ct_tensor *r = NULL;
  ct_status s = deliver(bucketize_core(&bucketize_scalar_op, v, boundaries, opts, NULL, &r), &r, out, NULL);
  ct_release(v);
  return s;
}
