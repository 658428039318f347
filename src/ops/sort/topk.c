/* torch.topk: torch 1.13's topk_impl_loop (TopKImpl.h): each line's (value, index) pairs; when k * 64 <= n
   std::partial_sort of the first k, else std::nth_element at k - 1 and, when sorted, std::sort of the first
   k - 1; the comparator puts NaN above everything (largest) or below nothing (smallest). The same
   algorithms run here over keys of the same order (sort_keys.c), so ties land where torch's do. */
#include "ops/sort/sort_internal.h"

typedef struct topk_ctx {
  const ct_sort_type *ty;
  int64_t k;
  bool largest, sorted;
  size_t isz;
  _Atomic int *failed;
} topk_ctx;

static void topk_kernel(char *const *data, const int64_t *step, const int64_t *lstep, int64_t len,
                        int64_t nlines, const void *ctx) {
  const topk_ctx *c = ctx;
  int64_t k = c->k;
  if (k == 0) return;
  bool partial = k * 64 <= len;
  ct_kv *q = ct__malloc_array(partial ? k : len, sizeof(ct_kv));
  if (!q) {
    atomic_store(c->failed, 1);
    return;
  }
  uint64_t flip =
      c->largest ? (c->ty->key_bits == 64 ? ~(uint64_t)0 : (((uint64_t)1 << c->ty->key_bits) - 1)) : 0;
  for (int64_t l = 0; l < nlines; l++) {
    char *v = data[0] + l * lstep[0], *ix = data[1] + l * lstep[1];
    const char *in = data[2] + l * lstep[2];
    if (partial) {
      ct__kv_topk_stream(c->ty, in, step[2], len, k, flip, q);
    } else {
      c->ty->kv(in, step[2], len, flip, q);
      ct__kv_nth_element(q, q + k - 1, q + len);
      if (c->sorted) ct__kv_std_sort(q, q + k - 1);
    }
    for (int64_t j = 0; j < k; j++) {
      memcpy(v + j * step[0], in + q[j].i * step[2], c->isz);
      memcpy(ix + j * step[1], &q[j].i, sizeof(int64_t));
    }
  }
  ct__free(q);
}

/* AT_DISPATCH_ALL_TYPES_AND(BFloat16): no bool, no float16. */
static const ct_sort_type *const topk_types[CT_NUM_DTYPES + 1] = {
    CT_DT_INTEGRAL(CT_SORT_ROW) CT_DT_FLOAT(CT_SORT_ROW)[CT_BFLOAT16] = &ct__sort_key_CT_BFLOAT16};
static const ct_op topk_op = {CT_SORT_OP("topk", "aten::topk", topk_types, ct__sort_meta_row)};

static ct_status topk_impl(const ct_tensor *t, int64_t k, const ct_topk_opts *o, ct_tensor *const *outs,
                           ct_tensor **res) {
  ct_topk_opts none = {0};
  if (!o) o = &none;
  res[0] = res[1] = NULL;
  int64_t dim = ct__sort_dim("topk", t, o->dims, -1);
  if (dim < 0) return ct_last_error();
  int64_t len = t->ndim ? t->sizes[dim] : 1;
  if (k < 0 || k > len) return (ct__error(CT_ERR_RUNTIME, "selected index k out of range"), CT_ERR_RUNTIME);
  if (outs && (!ct__red_check_out_dtype(outs[0], (ct_dtype)t->dtype) || !ct__sort_out_device_ok(outs[0], t) ||
               !ct__red_check_out_dtype(outs[1], CT_INT64) || !ct__sort_out_device_ok(outs[1], t)))
    return CT_ERR_RUNTIME;
  if (!ct__check_in_storage(t)) return ct_last_error();
  bool meta = ct__sort_is_meta(&topk_op, t);
  if (!meta && !(t->ndim == 0 && t->numel == 1) && !ct__sort_have(&topk_op, t, "topk_cpu"))
    return ct_last_error();
  res[0] = ct__sort_alloc(t, dim, k, (ct_dtype)t->dtype, false);
  res[1] = res[0] ? ct__sort_alloc(t, dim, k, CT_INT64, false) : NULL;
  ct_status s = res[1] ? CT_OK : ct_last_error();
  if (s == CT_OK && !meta && t->numel > 0 && (k > 0 || t->ndim == 0)) {
    if (t->ndim == 0) { /* copied whatever k (torch: values.copy_(self), indices.zero_()) */
      memcpy(ct__tdata(res[0]), ct__tdata(t), ct__itemsize((ct_dtype)t->dtype));
      *(int64_t *)ct__tdata(res[1]) = 0;
    } else {
      _Atomic int failed = 0;
      topk_ctx c = {ct__sort_type(&topk_op, t),       k,      !o->smallest, !o->unsorted,
                    ct__itemsize((ct_dtype)t->dtype), &failed};
      s = ct__sort_lines(t, dim, res, 2, topk_kernel, &c);
      if (s == CT_OK && atomic_load(&failed))
        s = (ct__error(CT_ERR_OUT_OF_MEMORY, "out of memory"), CT_ERR_OUT_OF_MEMORY);
    }
  }
  if (s != CT_OK) {
    ct_release(res[0]);
    ct_release(res[1]);
    res[0] = res[1] = NULL;
  }
  return s;
}

ct_status ct_topk(const ct_tensor *t, int64_t k, ct_tensor **values, ct_tensor **indices,
                  const ct_topk_opts *opts) {
  if (values) *values = NULL;
  if (indices) *indices = NULL;
  CT__OP_ENTER_STATUS(&topk_op, t, t);
  ct_tensor *r[2];
  ct_status s = topk_impl(t, k, opts, NULL, r);
  ct_tensor **want[2] = {values, indices};
  return ct__sort_hand_out(r, want, 2, s);
}

ct_status ct_topk_out(ct_tensor *values, ct_tensor *indices, const ct_tensor *t, int64_t k,
                      const ct_topk_opts *opts) {
  CT__OP_ENTER_STATUS(&topk_op, t, values, indices, t);
  if (!CT__OP_OUT_GRAD_OK(&topk_op, values, indices, t)) return CT_ERR_RUNTIME;
  ct_tensor *outs[2] = {values, indices}, *r[2];
  ct_status s = topk_impl(t, k, opts, outs, r);
  return s == CT_OK ? ct__sort_write_outs(r, outs, 2) : s;
}
