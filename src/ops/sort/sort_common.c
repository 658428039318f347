/* What the sorting ops share: the dim argument, results in torch's layouts, out= tensors written only
   after every check, and the walk over lines (the scan driver). */
#include "ops/sort/sort_internal.h"
#include "ops/view_internal.h"
#include "core/out_wrapper.h"

bool ct__sort_have(const ct_op *op, const ct_tensor *t, const char *kernel_name) {
  if (ct__sort_type(op, t)) return true;
  ct__red_not_implemented(kernel_name, (ct_dtype)t->dtype);
  return false;
}

/* one loop per element size, so that each copy is a load and a store */
#define GATHER(T)                               \
  for (int64_t j = 0; j < n; j++) {             \
    T e;                                        \
    memcpy(&e, in + perm[j] * istep, sizeof e); \
    memcpy(v + j * vstep, &e, sizeof e);        \
  }
void ct__sort_write_line(const char *in, int64_t istep, const int64_t *perm, int64_t n, size_t isz, char *v,
                         int64_t vstep, char *ix, int64_t xstep) {
  if (v) {
    switch (isz) {
      case 1: GATHER(uint8_t) break;
      case 2: GATHER(uint16_t) break;
      case 4: GATHER(uint32_t) break;
      case 8: GATHER(uint64_t) break;
      default:
        for (int64_t j = 0; j < n; j++) memcpy(v + j * vstep, in + perm[j] * istep, isz);
    }
  }
  if (ix && xstep == (int64_t)sizeof(int64_t)) {
    memcpy(ix, perm, (size_t)n * sizeof(int64_t));
  } else if (ix) {
    for (int64_t j = 0; j < n; j++) memcpy(ix + j * xstep, &perm[j], sizeof(int64_t));
  }
}

int64_t ct__sort_dim(const char *op, const ct_tensor *t, ct_dims dims, int64_t dflt) {
  bool has;
  int64_t d;
  if (!ct__red_single_dim(op, dims, &has, &d)) return -1;
  return ct__wrap_dim(has ? d : dflt, t->ndim);
}

ct_tensor *ct__sort_alloc(const ct_tensor *t, int64_t dim, int64_t m, ct_dtype dt, bool preserve) {
  int64_t nd = t->ndim;
  int64_t sizes[nd > 0 ? nd : 1], st[nd > 0 ? nd : 1];
  for (int64_t d = 0; d < nd; d++) sizes[d] = d == dim ? m : t->sizes[d];
  if (preserve && nd > 0) {
    ct__preserve_format_strides(t, st);
  } else {
    ct__contiguous_strides(nd, sizes, st);
  }
  ct_tensor *r = ct__empty(nd, sizes, dt, ct__tdevice(t));
  if (r && preserve && nd > 0) {
    if (ct__tensor_resize(r, nd, sizes, st) != CT_OK) {
      ct_release(r);
      return NULL;
    }
  }
  return r;
}

ct_status ct__sort_hand_out(ct_tensor **res, ct_tensor **const *want, int n, ct_status s) {
  for (int k = 0; k < n; k++) {
    if (s != CT_OK || !want[k]) {
      ct_release(res[k]);
      res[k] = NULL;
    }
  }
  for (int k = 0; k < n && s == CT_OK; k++)
    if (res[k] && !(res[k] = ct__own(res[k]))) s = CT_ERR_OUT_OF_MEMORY;
  for (int k = 0; k < n; k++)
    if (want[k]) *want[k] = s == CT_OK ? res[k] : NULL;
  return s;
}

static inline bool same_shape(const ct_tensor *a, const ct_tensor *b) { return ct__has_sizes(a, b->ndim, b->sizes); }

ct_status ct__sort_write_outs(ct_tensor **res, ct_tensor *const *outs, int n) {
  ct_status s = CT_OK;
  for (int k = 0; k < n && s == CT_OK; k++)
    if (!same_shape(outs[k], res[k]) && !ct__tensor_resize_ok(outs[k], res[k]->ndim, res[k]->sizes))
      s = ct_last_error();
  for (int k = 0; k < n && s == CT_OK; k++) {
    if (!same_shape(outs[k], res[k]))
      s = ct__tensor_resize(outs[k], res[k]->ndim, res[k]->sizes, res[k]->strides);
    if (s == CT_OK && res[k]->numel) s = ct__copy_into(outs[k], res[k]);
  }
  for (int k = 0; k < n; k++) ct_release(res[k]);
  return s;
}

bool ct__sort_out_device_ok(const ct_tensor *out, const ct_tensor *t) {
  return ct__resize_out_ok(out, CT_DTYPE_UNSET, ct__tdevice(t));
}

ct_status ct__sort_squeeze(ct_tensor **r, int64_t dim) {
  if ((*r)->ndim == 0) return CT_OK;
  ct_tensor *v = ct__squeeze_dim_impl(*r, dim);
  if (!v) return ct_last_error();
  ct_release(*r);
  *r = v;
  return CT_OK;
}

ct_status ct__sort_lines(const ct_tensor *t, int64_t dim, ct_tensor *const *outs, int n_out,
                         ct_scan_kernel kernel, const void *ctx) {
  return ct__sort_lines_long(t, dim, outs, n_out, kernel, NULL, ctx);
}

ct_status ct__sort_lines_long(const ct_tensor *t, int64_t dim, ct_tensor *const *outs, int n_out,
                              ct_scan_kernel kernel, ct_scan_long_line long_line, const void *ctx) {
  ct_scan_plan p = {
      .n_out = n_out, .in = t, .dim = dim, .kernel = kernel, .long_line = long_line, .ctx = ctx};
  for (int k = 0; k < n_out; k++) p.out[k] = outs[k];
  ct_status s = ct__scan_prepare(&p);
  if (s != CT_OK) return s;
  ct__scan_run(&p);
  ct__scan_release(&p);
  return CT_OK;
}
