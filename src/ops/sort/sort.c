/* torch.sort, argsort, msort: torch 1.13's sort.stable (SortingKernel.cpp: the values copied, then each
   line sorted with std::sort, or std::stable_sort when stable, by the comparator that puts NaN last; the
   results in self's dense strides). */
#include "ops/sort/sort_internal.h"

typedef struct sort_ctx {
  const ct_sort_type *ty;
  bool desc, stable, values; /* values: written (argsort leaves them out) */
  _Atomic int *failed;
} sort_ctx;

/* Sorts nlines lines (lstep apart) with one scratch block; nthreads for each line. */
static void sort_lines(const sort_ctx *c, char *const *data, const int64_t *step, const int64_t *lstep,
                       int64_t len, int64_t nlines, int nthreads) {
  void *scratch =
      ct__malloc(ct__sort_scratch_bytes(c->ty, len, c->stable, step[1] == (int64_t)sizeof(int64_t)));
  if (!scratch) {
    atomic_store(c->failed, 1);
    return;
  }
  for (int64_t l = 0; l < nlines; l++)
    ct__sort_line(c->ty, data[2] + l * lstep[2], step[2], len, c->desc, c->stable,
                  c->values ? data[0] + l * lstep[0] : NULL, step[0], data[1] + l * lstep[1], step[1],
                  scratch, nthreads);
  ct__free(scratch);
}

static void sort_kernel(char *const *data, const int64_t *step, const int64_t *lstep, int64_t len,
                        int64_t nlines, const void *ctx) {
  sort_lines(ctx, data, step, lstep, len, nlines, 1);
}

/* a long line and fewer lines than threads: the line's partitions shared out (the same order) */
static void sort_long_line(char *const *data, const int64_t *step, int64_t len, const void *ctx,
                           int nthreads) {
  static const int64_t no_lstep[3] = {0, 0, 0};
  sort_lines(ctx, data, step, no_lstep, len, 1, nthreads);
}

static const ct_op sort_op = {CT_SORT_OP("sort", "aten::sort.stable", ct__sort_types, ct__sort_meta_row)};
/* msort runs sort: autograd names sort */
static const ct_op msort_op = {CT_SORT_OP("sort", "aten::sort", ct__sort_types, ct__sort_meta_row)};

/* New (unowned) values (values NULL: not computed) and indices of sorting t along dim (wrapped). */
ct_status ct__sort_impl(const ct_op *op, const ct_tensor *t, int64_t dim, bool desc, bool stable,
                        ct_tensor **values, ct_tensor **indices) {
  if (values) *values = NULL;
  *indices = NULL;
  if (!ct__check_in_storage(t)) return ct_last_error();
  int64_t len = t->ndim ? t->sizes[dim] : 1;
  ct_tensor *v = values ? ct__sort_alloc(t, dim, len, (ct_dtype)t->dtype, true) : NULL;
  ct_tensor *i = v || !values ? ct__sort_alloc(t, dim, len, CT_INT64, true) : NULL;
  if (!i) {
    ct_release(v);
    return ct_last_error();
  }
  ct_status s = CT_OK;
  /* sort_stub dispatches on the dtype whenever the input has dims, empty or not */
  if (!ct__sort_is_meta(op, t) && t->ndim > 0 && t->numel == 0 &&
      !ct__sort_have(op, t, "sorting_kernel_method_name"))
    s = ct_last_error();
  /* ... and fills the indices from arange(0, len) (_fill_indices), empty or not: its size, rounded
     through a double, refused past 2^60 int64 elements (zeros(2^60, 0).sort(0): "Storage size
     calculation overflowed with sizes=[1152921504606846976]") */
  double dlen = (double)len;
  int64_t span = dlen < 9223372036854775808.0 ? (int64_t)dlen : INT64_MAX; /* (2^63 itself: not converted) */
  if (s == CT_OK && !ct__sort_is_meta(op, t) && t->ndim > 0 && t->numel == 0 && span > INT64_MAX / 8)
    s = (ct__error(CT_ERR_RUNTIME, "Storage size calculation overflowed with sizes=[%lld]", (long long)span),
         CT_ERR_RUNTIME);
  if (s == CT_OK && !ct__sort_is_meta(op, t) && t->numel > 0) {
    if (t->ndim == 0) { /* copied: no kernel runs (sort_out: values.copy_(self), indices.zero_()) */
      if (v) memcpy(ct__tdata(v), ct__tdata(t), ct__itemsize((ct_dtype)t->dtype));
      *(int64_t *)ct__tdata(i) = 0;
    } else if (!ct__sort_have(op, t, "sorting_kernel_method_name")) {
      s = ct_last_error();
    } else {
      _Atomic int failed = 0;
      sort_ctx c = {ct__sort_type(op, t), desc, stable, v != NULL, &failed};
      ct_tensor *outs[2] = {v ? v : i, i}; /* without values the driver walks the indices twice */
      s = ct__sort_lines_long(t, dim, outs, 2, sort_kernel, sort_long_line, &c);
      if (s == CT_OK && atomic_load(&failed))
        s = (ct__error(CT_ERR_OUT_OF_MEMORY, "out of memory"), CT_ERR_OUT_OF_MEMORY);
    }
  }
  if (s != CT_OK) {
    ct_release(v);
    ct_release(i);
    return s;
  }
  if (values) *values = v;
  *indices = i;
  return CT_OK;
}

static ct_status sort_args(const ct_tensor *t, const ct_sort_opts *o, int64_t *dim) {
  ct_sort_opts none = {0};
  if (!o) o = &none;
  *dim = ct__sort_dim("sort", t, o->dims, -1);
  return *dim < 0 ? ct_last_error() : CT_OK;
}

ct_status ct_sort(const ct_tensor *t, ct_tensor **values, ct_tensor **indices, const ct_sort_opts *opts) {
  if (values) *values = NULL;
  if (indices) *indices = NULL;
  CT__OP_ENTER_STATUS(&sort_op, t, t);
  int64_t dim;
  ct_status s = sort_args(t, opts, &dim);
  ct_tensor *r[2] = {NULL, NULL};
  if (s == CT_OK)
    s = ct__sort_impl(&sort_op, t, dim, opts && opts->descending, opts && opts->stable, &r[0], &r[1]);
  ct_tensor **want[2] = {values, indices};
  return ct__sort_hand_out(r, want, 2, s);
}

ct_status ct_sort_out(ct_tensor *values, ct_tensor *indices, const ct_tensor *t, const ct_sort_opts *opts) {
  CT__OP_ENTER_STATUS(&sort_op, t, values, indices, t);
  if (!CT__OP_OUT_GRAD_OK(&sort_op, values, indices, t)) return CT_ERR_RUNTIME;
  int64_t dim;
  ct_status s = sort_args(t, opts, &dim);
  if (s != CT_OK) return s;
  if (!ct__red_check_out_dtype(values, (ct_dtype)t->dtype) || !ct__sort_out_device_ok(values, t) ||
      !ct__red_check_out_dtype(indices, CT_INT64) || !ct__sort_out_device_ok(indices, t))
    return CT_ERR_RUNTIME;
  ct_tensor *r[2];
  s = ct__sort_impl(&sort_op, t, dim, opts && opts->descending, opts && opts->stable, &r[0], &r[1]);
  if (s != CT_OK) return s;
  ct_tensor *outs[2] = {values, indices};
  return ct__sort_write_outs(r, outs, 2);
}

ct_tensor *ct_argsort(const ct_tensor *t, const ct_sort_opts *opts) {
  CT__OP_ENTER_PTR(&sort_op, t, t);
  /* ct_argsort always names stable, so it is torch's argsort.stable overload, which has no Meta kernel
     (argsort without stable= is sort's composite and runs on meta: ct_sort gives those indices) */
  if (CT_UNLIKELY(CT__OP_ON_META(t))) return (ct__op_refuse(&sort_op, t, "aten::argsort.stable"), NULL);
  int64_t dim;
  if (sort_args(t, opts, &dim) != CT_OK) return NULL;
  ct_tensor *r;
  if (ct__sort_impl(&sort_op, t, dim, opts && opts->descending, opts && opts->stable, NULL, &r) != CT_OK)
    return NULL;
  return ct__own(r);
}

static ct_tensor *msort_new(const ct_tensor *t) {
  int64_t dim = ct__wrap_dim(0, t->ndim);
  ct_tensor *r[2];
  if (dim < 0 || ct__sort_impl(&msort_op, t, dim, false, false, &r[0], &r[1]) != CT_OK) return NULL;
  ct_release(r[1]);
  return r[0];
}

ct_tensor *ct_msort(const ct_tensor *t) {
  CT__OP_ENTER_PTR(&msort_op, t, t);
  return ct__own(msort_new(t));
}

ct_status ct_msort_out(ct_tensor *out, const ct_tensor *t) {
  CT__OP_ENTER_STATUS(&msort_op, t, out, t);
  if (!CT__OP_OUT_GRAD_OK(&msort_op, out, t)) return CT_ERR_RUNTIME;
  if (!ct__red_check_out_dtype(out, (ct_dtype)t->dtype) || !ct__sort_out_device_ok(out, t))
    return CT_ERR_RUNTIME;
  ct_tensor *r = msort_new(t);
  if (!r) return ct_last_error();
  return ct__sort_write_outs(&r, &out, 1);
}
