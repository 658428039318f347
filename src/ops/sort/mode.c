/* torch.mode (torch 1.13, TensorCompareKernel.cpp mode_kernel_impl): each line's (value, index) pairs
   std::sort-ed by value alone (NaN compares false both ways, so where NaNs land is std::sort's doing), then
   the runs of equal values scanned: the first run longer than every earlier one wins and its last pair
   gives the value and index. std::sort's moves are run here (stl_algo.h), so ties land as in torch. */
#include "core/elem.h"
#include "ops/sort/sort_internal.h"
#include "ops/sort/stl_algo.h"

typedef struct mode_d {
  double v;
  int64_t i;
} mode_d;
typedef struct mode_i {
  int64_t v;
  int64_t i;
} mode_i;
#define MODE_LESS(cx, a, b) ((a).v < (b).v)
CT_STL_ALGOS(mdd, mode_d, MODE_LESS)
CT_STL_ALGOS(mdi, mode_i, MODE_LESS)

typedef struct mode_ctx {
  const ct_sort_type *ty;
  size_t isz;
  _Atomic int *failed;
} mode_ctx;

/* The winning pair's position in the sorted line. */
#define MODE_SCAN(E, n, pick)                       \
  do {                                              \
    int64_t temp_freq = 0, max_freq = 0;            \
    for (int64_t j = 0; j < (n); j++) {             \
      temp_freq++;                                  \
      if (j == (n)-1 || (E)[j].v != (E)[j + 1].v) { \
        if (temp_freq > max_freq) {                 \
          (pick) = j;                               \
          max_freq = temp_freq;                     \
        }                                           \
        temp_freq = 0;                              \
      }                                             \
    }                                               \
  } while (0)

static void mode_kernel(char *const *data, const int64_t *step, const int64_t *lstep, int64_t len,
                        int64_t nlines, const void *ctx) {
  const mode_ctx *c = ctx;
  bool wide = c->ty->dtype == CT_INT64;
  void *buf = ct__malloc_array(len, sizeof(mode_d));
  if (!buf) {
    atomic_store(c->failed, 1);
    return;
  }
  for (int64_t l = 0; l < nlines; l++) {
    const char *in = data[2] + l * lstep[2];
    int64_t pick = 0, idx;
    if (wide) {
      mode_i *e = buf;
      for (int64_t j = 0; j < len; j++) {
        memcpy(&e[j].v, in + j * step[2], 8);
        e[j].i = j;
      }
      mdi_sort(NULL, e, e + len);
      MODE_SCAN(e, len, pick);
      idx = e[pick].i;
    } else {
      mode_d *e = buf;
      for (int64_t j = 0; j < len; j++) {
        e[j].v = c->ty->to_double(in + j * step[2]);
        e[j].i = j;
      }
      mdd_sort(NULL, e, e + len);
      MODE_SCAN(e, len, pick);
      idx = e[pick].i;
    }
    memcpy(data[0] + l * lstep[0], in + idx * step[2], c->isz);
    memcpy(data[1] + l * lstep[1], &idx, sizeof(int64_t));
  }
  ct__free(buf);
}

/* AT_DISPATCH_ALL_TYPES_AND3(Half, BFloat16, Bool) */
static const ct_op mode_op = {CT_SORT_OP("mode", "aten::mode", ct__sort_types, NULL)};

static ct_status mode_impl(const ct_tensor *t, const ct_select_opts *o, ct_tensor *const *outs,
                           ct_tensor **res) {
  ct_select_opts none = {0};
  if (!o) o = &none;
  res[0] = res[1] = NULL;
  ct_dtype dt = (ct_dtype)t->dtype;
  for (int k = 0; outs && k < 2; k++) {
    if (!ct_device_equal(ct__tdevice(outs[k]), ct__tdevice(t))) {
      char a[32], b[32];
      ct_device_str(ct__tdevice(t), a, sizeof a);
      ct_device_str(ct__tdevice(outs[k]), b, sizeof b);
      ct__error(CT_ERR_RUNTIME, "expected device '%s' but got '%s' for %s output", a, b,
                k ? "indices" : "values");
      return CT_ERR_RUNTIME;
    }
  }
  if (outs && (ct_dtype)outs[0]->dtype != dt) {
    ct__error(CT_ERR_RUNTIME, "expected scalar type '%s' but got '%s' for values output",
              ct__dt(dt)->scalar_name, ct__dt((ct_dtype)outs[0]->dtype)->scalar_name);
    return CT_ERR_RUNTIME;
  }
  if (outs && (ct_dtype)outs[1]->dtype != CT_INT64) {
    ct__error(CT_ERR_RUNTIME, "expected scalar type 'Long' but got '%s' for indices output",
              ct__dt((ct_dtype)outs[1]->dtype)->scalar_name);
    return CT_ERR_RUNTIME;
  }
  int64_t dim = ct__sort_dim("mode", t, o->dims, -1);
  if (dim < 0) return ct_last_error();
  bool scalar = t->ndim == 0 && t->numel == 1;
  if (!scalar && t->ndim > 0 && t->sizes[dim] == 0) {
    ct__error(CT_ERR_INDEX, "mode(): Expected reduction dim %" PRId64 " to have non-zero size.", dim);
    return CT_ERR_INDEX;
  }
  /* the kernel (and its dtype dispatch) runs only when there are elements */
  if (!scalar && t->numel > 0 && !ct__sort_have(&mode_op, t, "mode_cpu")) return ct_last_error();
  if (!ct__check_in_storage(t)) return ct_last_error();
  res[0] = ct__sort_alloc(t, dim, 1, dt, false);
  res[1] = res[0] ? ct__sort_alloc(t, dim, 1, CT_INT64, false) : NULL;
  ct_status s = res[1] ? CT_OK : ct_last_error();
  if (s == CT_OK && t->numel > 0) {
    if (scalar) {
      memcpy(ct__tdata(res[0]), ct__tdata(t), ct__itemsize(dt));
      *(int64_t *)ct__tdata(res[1]) = 0;
    } else {
      _Atomic int failed = 0;
      mode_ctx c = {ct__sort_type(&mode_op, t), ct__itemsize(dt), &failed};
      s = ct__sort_lines(t, dim, res, 2, mode_kernel, &c);
      if (s == CT_OK && atomic_load(&failed))
        s = (ct__error(CT_ERR_OUT_OF_MEMORY, "out of memory"), CT_ERR_OUT_OF_MEMORY);
    }
  }
  if (s == CT_OK && !o->keepdim) s = ct__sort_squeeze(&res[0], dim);
  if (s == CT_OK && !o->keepdim) s = ct__sort_squeeze(&res[1], dim);
  if (s != CT_OK) {
    ct_release(res[0]);
    ct_release(res[1]);
    res[0] = res[1] = NULL;
  }
  return s;
}

ct_status ct_mode(const ct_tensor *t, ct_tensor **values, ct_tensor **indices, const ct_select_opts *opts) {
  if (values) *values = NULL;
  if (indices) *indices = NULL;
  CT__OP_ENTER_STATUS(&mode_op, t, t);
  ct_tensor *r[2];
  ct_status s = mode_impl(t, opts, NULL, r);
  ct_tensor **want[2] = {values, indices};
  return ct__sort_hand_out(r, want, 2, s);
}

ct_status ct_mode_out(ct_tensor *values, ct_tensor *indices, const ct_tensor *t, const ct_select_opts *opts) {
  CT__NONNULL_STATUS(values, indices, t);
  /* mode.values is a composite (mode_out): autograd's out= rule, then its own device check, before any
     dispatch, so a meta input has this message rather than the dispatcher's */
  if (CT_UNLIKELY(t->device_type == CT_META)) {
    if (!CT__OP_OUT_GRAD_OK(&mode_op, values, indices, t)) return CT_ERR_RUNTIME;
    ct__error(CT_ERR_RUNTIME, "mode only supports CPU AND CUDA device type, got: meta");
    return CT_ERR_RUNTIME;
  }
  CT__OP_ENTER_STATUS(&mode_op, t, values, indices, t);
  if (!CT__OP_OUT_GRAD_OK(&mode_op, values, indices, t)) return CT_ERR_RUNTIME;
  ct_tensor *outs[2] = {values, indices}, *r[2];
  ct_status s = mode_impl(t, opts, outs, r);
  return s == CT_OK ? ct__sort_write_outs(r, outs, 2) : s;
}
