/* torch.kthvalue, median and nanmedian (torch 1.13, Sorting.cpp). kthvalue runs its median-of-three quick
   select (SortingUtils.h: quick_select_template) over each line's (value, index) pairs; median along a dim
   returns a line's first NaN, or std::nth_element of the indices by (value, index) (nanmedian: NaNs last);
   the whole-tensor forms std::nth_element the values. The same algorithms run here with the same
   comparisons, so the index (and a zero's sign) is torch's. */
#include "core/elem.h"
#include "ops/sort/sort_internal.h"
#include "ops/sort/stl_algo.h"
#include "ops/view_internal.h"

/* ---- kthvalue ---- */
/* quick_select_template with gt_or_nan(x, y) = key(x) > key(y). */
static void quick_select(ct_kv *arr, int64_t n, int64_t k) {
  int64_t L = 0, R = n - 1;
#define GT(a, b) ((a).k > (b).k)
#define SWP(a, b)      \
  do {                 \
    ct_kv t_ = arr[a]; \
    arr[a] = arr[b];   \
    arr[b] = t_;       \
  } while (0)
  for (;;) {
    if (R <= L) return;
    if (R == L + 1) {
      if (GT(arr[L], arr[R])) SWP(L, R);
      return;
    }
    int64_t P = L + (R - L) / 2;
    SWP(P, L + 1);
    if (GT(arr[L + 1], arr[R])) SWP(L + 1, R);
    if (GT(arr[L], arr[R])) SWP(L, R);
    if (GT(arr[L + 1], arr[L])) SWP(L + 1, L);
    int64_t i = L + 1, j = R;
    ct_kv piv = arr[L];
    for (;;) {
      do i++;
      while (GT(piv, arr[i]));
      do j--;
      while (GT(arr[j], piv));
      if (j < i) break;
      SWP(i, j);
    }
    SWP(L, j);
    if (j <= k) L = i;
    if (j >= k) R = j - 1;
  }
#undef GT
#undef SWP
}

typedef struct sel_ctx {
  const ct_sort_type *ty;
  int64_t k; /* kthvalue: k - 1 */
  bool ignore_nan;
  size_t isz;
  _Atomic int *failed;
} sel_ctx;

static void kth_kernel(char *const *data, const int64_t *step, const int64_t *lstep, int64_t len,
                       int64_t nlines, const void *ctx) {
  const sel_ctx *c = ctx;
  ct_kv *q = ct__malloc_array(len, sizeof(ct_kv));
  if (!q) {
    atomic_store(c->failed, 1);
    return;
  }
  for (int64_t l = 0; l < nlines; l++) {
    const char *in = data[2] + l * lstep[2];
    c->ty->kv(in, step[2], len, 0, q);
    quick_select(q, len, c->k);
    memcpy(data[0] + l * lstep[0], in + q[c->k].i * step[2], c->isz);
    memcpy(data[1] + l * lstep[1], &q[c->k].i, sizeof(int64_t));
  }
  ct__free(q);
}

/* ---- median along a dim: std::nth_element over indices ---- */
typedef struct med_line {
  const double *d;
  const int64_t *i64;
} med_line;
#define MED_LESS_D(cx, a, b)                                                          \
  (((const med_line *)(cx))->d[a] < ((const med_line *)(cx))->d[b] ||                 \
   (((const med_line *)(cx))->d[a] == ((const med_line *)(cx))->d[b] && (a) < (b)) || \
   (isnan(((const med_line *)(cx))->d[b]) && !isnan(((const med_line *)(cx))->d[a])))
#define MED_LESS_I(cx, a, b)                                              \
  (((const med_line *)(cx))->i64[a] < ((const med_line *)(cx))->i64[b] || \
   (((const med_line *)(cx))->i64[a] == ((const med_line *)(cx))->i64[b] && (a) < (b)))
CT_STL_ALGOS(medd, int64_t, MED_LESS_D)
CT_STL_ALGOS(medi, int64_t, MED_LESS_I)

static void median_kernel(char *const *data, const int64_t *step, const int64_t *lstep, int64_t len,
                          int64_t nlines, const void *ctx) {
  const sel_ctx *c = ctx;
  bool wide_int = c->ty->dtype == CT_INT64;
  char *mem = ct__malloc_array(len, sizeof(int64_t) + sizeof(double));
  if (!mem) {
    atomic_store(c->failed, 1);
    return;
  }
  int64_t *idx = (int64_t *)mem;
  double *vals = (double *)(mem + (size_t)len * sizeof(int64_t));
  for (int64_t l = 0; l < nlines; l++) {
    const char *in = data[2] + l * lstep[2];
    int64_t num_nan = 0, first_nan = -1;
    for (int64_t j = 0; j < len; j++) {
      const char *p = in + j * step[2];
      if (wide_int) memcpy(&((int64_t *)vals)[j], p, 8);
      else vals[j] = c->ty->to_double(p);
      if (!wide_int && isnan(vals[j])) {
        num_nan++;
        if (first_nan < 0) first_nan = j;
      }
      idx[j] = j;
    }
    int64_t pick;
    if (!c->ignore_nan && first_nan >= 0) {
      pick = first_nan;
    } else {
      med_line ml = {vals, (const int64_t *)vals};
      int64_t nth = c->ignore_nan ? (len - num_nan - 1) / 2 : (len - 1) / 2;
      if (wide_int) medi_nth_element(&ml, idx, idx + nth, idx + len);
      else medd_nth_element(&ml, idx, idx + nth, idx + len);
      pick = idx[nth];
    }
    memcpy(data[0] + l * lstep[0], in + pick * step[2], c->isz);
    memcpy(data[1] + l * lstep[1], &pick, sizeof(int64_t));
  }
  ct__free(mem);
}

/* ---- the ops ---- */
/* kthvalue and median: AT_DISPATCH_ALL_TYPES_AND(BFloat16). */
static const ct_sort_type *const kth_types[CT_NUM_DTYPES + 1] = {
    CT_DT_INTEGRAL(CT_SORT_ROW) CT_DT_FLOAT(CT_SORT_ROW)[CT_BFLOAT16] = &ct__sort_key_CT_BFLOAT16};
static const ct_sort_type *const median_types[CT_NUM_DTYPES + 1] = {
    CT_DT_INTEGRAL(CT_SORT_ROW) CT_DT_FLOAT(CT_SORT_ROW)[CT_BFLOAT16] = &ct__sort_key_CT_BFLOAT16};
static const ct_op kthvalue_op = {CT_SORT_OP("kthvalue", "aten::kthvalue.values", kth_types, NULL)};
static const ct_op median_op = {CT_SORT_OP("median", "aten::median", median_types, NULL)};
static const ct_op median_dim_op = {CT_SORT_OP("median", "aten::median.dim_values", median_types, NULL)};
static const ct_op nanmedian_op = {
    CT_SORT_OP("nanmedian", "aten::nanmedian", median_types, ct__sort_meta_row)};
static const ct_op nanmedian_dim_op = {
    CT_SORT_OP("nanmedian", "aten::nanmedian.dim_values", median_types, ct__sort_meta_row)};

/* zero_numel_check_dims */
static bool nonempty_dim(const ct_tensor *t, int64_t dim, const char *fn) {
  if (t->ndim == 0 || t->sizes[dim] != 0) return true;
  ct__error(CT_ERR_INDEX, "%s: Expected reduction dim %" PRId64 " to have non-zero size.", fn, dim);
  return false;
}

/* Runs a selection kernel: new keepdim-shaped values/indices, squeezed unless keepdim. */
/* scalar_copy: a 0-dim input is copied without a kernel (kthvalue; median dispatches its kernel). */
static ct_status select_run(const ct_op *op, const ct_tensor *t, int64_t dim, bool keepdim,
                            ct_scan_kernel kernel, sel_ctx *c, const char *kname, bool scalar_copy,
                            ct_tensor **res) {
  res[0] = res[1] = NULL;
  bool meta = ct__sort_is_meta(op, t);
  if (!meta && !(scalar_copy && t->ndim == 0 && t->numel == 1) && !ct__sort_have(op, t, kname))
    return ct_last_error();
  /* a 0-dim input is a line of one element: itself, at index 0 */
  bool scalar = t->ndim == 0 && t->numel == 1;
  if (!ct__check_in_storage(t)) return ct_last_error();
  res[0] = ct__sort_alloc(t, dim, 1, (ct_dtype)t->dtype, false);
  res[1] = res[0] ? ct__sort_alloc(t, dim, 1, CT_INT64, false) : NULL;
  ct_status s = res[1] ? CT_OK : ct_last_error();
  if (s == CT_OK && !meta && t->numel > 0) {
    if (scalar) {
      memcpy(ct__tdata(res[0]), ct__tdata(t), ct__itemsize((ct_dtype)t->dtype));
      *(int64_t *)ct__tdata(res[1]) = 0;
    } else {
      _Atomic int failed = 0;
      c->ty = ct__sort_type(op, t);
      c->isz = ct__itemsize((ct_dtype)t->dtype);
      c->failed = &failed;
      s = ct__sort_lines(t, dim, res, 2, kernel, c);
      if (s == CT_OK && atomic_load(&failed))
        s = (ct__error(CT_ERR_OUT_OF_MEMORY, "out of memory"), CT_ERR_OUT_OF_MEMORY);
    }
  }
  if (s == CT_OK && !keepdim) s = ct__sort_squeeze(&res[0], dim);
  if (s == CT_OK && !keepdim) s = ct__sort_squeeze(&res[1], dim);
  if (s != CT_OK) {
    ct_release(res[0]);
    ct_release(res[1]);
    res[0] = res[1] = NULL;
  }
  return s;
}

static ct_status kth_impl(const ct_tensor *t, int64_t k, const ct_select_opts *o, ct_tensor *const *outs,
                          ct_tensor **res) {
  ct_select_opts none = {0};
  if (!o) o = &none;
  res[0] = res[1] = NULL;
  int64_t dim = ct__sort_dim("kthvalue", t, o->dims, -1);
  if (dim < 0) return ct_last_error();
  if (!nonempty_dim(t, dim, "kthvalue()")) return CT_ERR_INDEX;
  int64_t len = t->ndim ? t->sizes[dim] : 1;
  if (k < 1 || k > len) {
    ct__error(CT_ERR_RUNTIME, "kthvalue(): selected number k out of range for dimension %" PRId64, dim);
    return CT_ERR_RUNTIME;
  }
  if (outs && (ct_dtype)outs[0]->dtype != (ct_dtype)t->dtype) {
    ct__error(CT_ERR_RUNTIME, "output values must be of same type as input");
    return CT_ERR_RUNTIME;
  }
  if (outs && (ct_dtype)outs[1]->dtype != CT_INT64) {
    ct__error(CT_ERR_RUNTIME, "output indices must be of scalar type Long");
    return CT_ERR_RUNTIME;
  }
  sel_ctx c = {.k = k - 1};
  return select_run(&kthvalue_op, t, dim, o->keepdim, kth_kernel, &c, "kthvalue_cpu", true, res);
}

/* Torch 1.13's kthvalue resizes its outs to the keepdim shape (the reduced dim kept as 1), writes them and
   then squeezes them (_reduction_with_indices_allocate_or_resize_output): without keepdim, an out that
   already has the keepdim shape keeps its strides, squeezed, where resizing it to the result's shape
   would make it contiguous. Such outs are squeezed here, the others resized by ct__sort_write_outs; every
   refusal comes before any out changes. r: the results (their shapes squeezed). */
static ct_status kth_squeeze_kept_outs(ct_tensor *const *r, ct_tensor *const *outs, const ct_tensor *t,
                                       const ct_select_opts *o) {
  int64_t nd = t->ndim;
  if (nd == 0) return CT_OK;
  int64_t dim = ct__sort_dim("kthvalue", t, o ? o->dims : (ct_dims){0}, -1);
  int64_t keep_sizes[nd];
  memcpy(keep_sizes, t->sizes, (size_t)nd * sizeof(int64_t));
  keep_sizes[dim] = 1;
  bool kept[2];
  for (int k = 0; k < 2; k++) {
    const ct_tensor *out = outs[k];
    kept[k] = ct__has_sizes(out, nd, keep_sizes);
    if (!kept[k] && !ct__has_sizes(out, r[k]->ndim, r[k]->sizes) &&
        !ct__tensor_resize_ok(out, r[k]->ndim, r[k]->sizes))
      return ct_last_error();
  }
  for (int k = 0; k < 2; k++) {
    if (!kept[k]) continue;
    ct_tensor *out = outs[k];
    int64_t sizes[nd], strides[nd];
    for (int64_t d = 0, j = 0; d < nd; d++)
      if (d != dim) sizes[j] = out->sizes[d], strides[j++] = out->strides[d];
    ct_status s = ct__tensor_resize(out, nd - 1, sizes, strides);
    if (s != CT_OK) return s;
  }
  return CT_OK;
}

ct_status ct_kthvalue(const ct_tensor *t, int64_t k, ct_tensor **values, ct_tensor **indices,
                      const ct_select_opts *opts) {
  if (values) *values = NULL;
  if (indices) *indices = NULL;
  CT__OP_ENTER_STATUS(&kthvalue_op, t, t);
  ct_tensor *r[2];
  ct_status s = kth_impl(t, k, opts, NULL, r);
  ct_tensor **want[2] = {values, indices};
  return ct__sort_hand_out(r, want, 2, s);
}

ct_status ct_kthvalue_out(ct_tensor *values, ct_tensor *indices, const ct_tensor *t, int64_t k,
                          const ct_select_opts *opts) {
  CT__NONNULL_STATUS(values, indices, t);
  /* autograd's rule, then the dispatcher's key over every argument (a meta out: no Meta kernel) */
  if (!CT__OP_OUT_GRAD_OK(&kthvalue_op, values, indices, t)) return CT_ERR_RUNTIME;
  if (!CT__OP_ACCEPTS(&kthvalue_op, kthvalue_op.aten, t, values, indices)) return ct_last_error();
  ct_tensor *outs[2] = {values, indices}, *r[2];
  ct_status s = kth_impl(t, k, opts, outs, r);
  if (s == CT_OK && !(opts && opts->keepdim)) s = kth_squeeze_kept_outs(r, outs, t, opts);
  return s == CT_OK ? ct__sort_write_outs(r, outs, 2) : s;
}

/* checkScalarType / checkSameType of median's out= form */
static bool median_out_types(const ct_tensor *values, const ct_tensor *indices, const ct_tensor *t) {
  char a[64], b[64];
  if ((ct_dtype)indices->dtype != CT_INT64) {
    ct__tensor_type_str(indices, a, sizeof a);
    ct__error(CT_ERR_RUNTIME,
              "Expected tensor for argument #1 'indices' to have scalar type Long; but got %s instead (while "
              "checking "
              "arguments for median)",
              a);
    return false;
  }
  if (values->dtype != t->dtype) {
    ct__tensor_type_str(values, a, sizeof a);
    ct__tensor_type_str(t, b, sizeof b);
    ct__error(CT_ERR_RUNTIME,
              "Expected tensor for 'values' to have the same type as tensor for argument #2 'self'; but type "
              "%s does "
              "not equal %s (while checking arguments for median)",
              a, b);
    return false;
  }
  return true;
}

static ct_status median_dim_impl(const ct_op *op, bool ignore_nan, const ct_tensor *t, int64_t dim_,
                                 bool keepdim, ct_tensor *const *outs, ct_tensor **res) {
  res[0] = res[1] = NULL;
  int64_t dim = ct__wrap_dim(dim_, t->ndim);
  if (dim < 0) return CT_ERR_INDEX;
  /* nanmedian's Python meta function (meta_nanmedian_dim) checks the dim and nothing else */
  if (!(ignore_nan && ct__sort_is_meta(op, t)) && !nonempty_dim(t, dim, "median()")) return CT_ERR_INDEX;
  if (outs && !median_out_types(outs[0], outs[1], t)) return CT_ERR_RUNTIME;
  sel_ctx c = {.ignore_nan = ignore_nan};
  return select_run(op, t, dim, keepdim, median_kernel, &c, "median_out", false, res);
}

/* Torch 1.13's nanmedian.dim_values Meta kernel is its Python meta_nanmedian_dim under out_wrapper("values",
   "indices"), which names the outs `out`: the dispatcher's values=/indices= keywords are a TypeError (a
   torch bug, reproduced). Median has no Meta kernel: its refusal comes first, at the dispatcher. */
static ct_status nanmedian_meta_out_refused(void) {
  ct__error(CT_ERR_TYPE, "meta_nanmedian_dim() got an unexpected keyword argument 'values'");
  return CT_ERR_TYPE;
}

#define MEDIAN_DIM_API(NAME, OPD, IGNORE)                                                               \
  ct_status ct_##NAME##_dim(const ct_tensor *t, int64_t dim, ct_tensor **values, ct_tensor **indices,   \
                            const ct_keepdim_opts *opts) {                                              \
    if (values) *values = NULL;                                                                         \
    if (indices) *indices = NULL;                                                                       \
    CT__OP_ENTER_STATUS(&OPD, t, t);                                                                    \
    ct_tensor *r[2];                                                                                    \
    ct_status s = median_dim_impl(&OPD, IGNORE, t, dim, opts && opts->keepdim, NULL, r);                \
    ct_tensor **want[2] = {values, indices};                                                            \
    return ct__sort_hand_out(r, want, 2, s);                                                            \
  }                                                                                                     \
  ct_status ct_##NAME##_dim_out(ct_tensor *values, ct_tensor *indices, const ct_tensor *t, int64_t dim, \
                                const ct_keepdim_opts *opts) {                                          \
    CT__NONNULL_STATUS(values, indices, t);                                                             \
    if (!CT__OP_OUT_GRAD_OK(&OPD, values, indices, t)) return CT_ERR_RUNTIME;                           \
    if (!CT__OP_ACCEPTS(&OPD, OPD.aten, t, values, indices)) return ct_last_error();                    \
    if (IGNORE && CT__OP_ON_META(t, values, indices)) return nanmedian_meta_out_refused();              \
    ct_tensor *outs[2] = {values, indices}, *r[2];                                                      \
    ct_status s = median_dim_impl(&OPD, IGNORE, t, dim, opts && opts->keepdim, outs, r);                \
    return s == CT_OK ? ct__sort_write_outs(r, outs, 2) : s;                                            \
  }
MEDIAN_DIM_API(median, median_dim_op, false)
MEDIAN_DIM_API(nanmedian, nanmedian_dim_op, true)

/* ---- the whole tensor ---- */
#define VAL_LESS_D(cx, a, b) ((a) < (b) || (isnan(b) && !isnan(a)))
#define VAL_LESS_I(cx, a, b) ((a) < (b))
CT_STL_ALGOS(vald, double, VAL_LESS_D)
CT_STL_ALGOS(vali, int64_t, VAL_LESS_I)

/* The lowest address of a dense tensor's elements. */
static const char *ct__storage_first(const ct_tensor *c) {
  const char *p = ct__tdata(c);
  for (int64_t d = 0; d < c->ndim; d++)
    if (c->strides[d] < 0) p += c->strides[d] * (c->sizes[d] - 1) * (int64_t)ct__itemsize((ct_dtype)c->dtype);
  return p;
}

/* median_impl: NaN (in the input's dtype) for an empty input; median: NaN when any element is. */
static ct_tensor *median_all(const ct_op *op, const ct_tensor *t, bool ignore_nan) {
  ct_dtype dt = (ct_dtype)t->dtype;
  if (!ct__check_in_storage(t)) return NULL;
  bool meta = ct__sort_is_meta(op, t);
  if (!meta && t->numel > 0 && !ct__sort_have(op, t, "median_cpu")) return NULL;
  ct_tensor *r = ct__empty(0, NULL, dt, ct__tdevice(t));
  if (!r || meta) return r;
  if (t->numel == 0) {
    ct_tensor *nan = ct__empty(0, NULL, CT_FLOAT32, ct__tdevice(t));
    if (!nan) return (ct_release(r), NULL);
    *(float *)ct__tdata(nan) = NAN;
    ct_status s = ct__copy_into(r, nan);
    ct_release(nan);
    return s == CT_OK ? r : (ct_release(r), NULL);
  }
  /* self.clone(): torch walks the clone's memory, laid out as empty_like(self) (self's strides when dense) */
  ct_tensor *c = ct__sort_alloc(t, 0, t->ndim ? t->sizes[0] : 1, dt, true);
  if (!c || ct__copy_into(c, t) != CT_OK) {
    ct_release(c);
    ct_release(r);
    return NULL;
  }
  const ct_sort_type *ty = ct__sort_type(op, t);
  int64_t n = t->numel;
  size_t isz = ct__itemsize(dt);
  void *buf = ct__malloc((size_t)n * 8);
  if (!buf) {
    ct_release(c);
    ct_release(r);
    return NULL;
  }
  const char *p = ct__storage_first(c);
  if (dt == CT_INT64) {
    int64_t *v = buf;
    memcpy(v, p, (size_t)n * 8);
    int64_t *m = v + (n - 1) / 2;
    vali_nth_element(NULL, v, m, v + n);
    memcpy(ct__tdata(r), m, 8);
  } else {
    double *v = buf;
    int64_t num_nan = 0;
    for (int64_t j = 0; j < n; j++) {
      v[j] = ty->to_double(p + (size_t)j * isz);
      num_nan += isnan(v[j]);
    }
    if (!ignore_nan && num_nan) {
      ct__elem_store_f64(dt, ct__tdata(r), NAN);
    } else {
      double *m = v + (n - num_nan - 1) / 2;
      vald_nth_element(NULL, v, m, v + n);
      ct__elem_store_f64(dt, ct__tdata(r), *m);
    }
  }
  ct__free(buf);
  ct_release(c);
  return r;
}

ct_tensor *ct_median(const ct_tensor *t) {
  CT__OP_ENTER_PTR(&median_op, t, t);
  return ct__own(median_all(&median_op, t, false));
}
ct_tensor *ct_nanmedian(const ct_tensor *t) {
  CT__OP_ENTER_PTR(&nanmedian_op, t, t);
  return ct__own(median_all(&nanmedian_op, t, true));
}
