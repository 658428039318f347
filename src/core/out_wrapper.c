/* out_wrapper's out= rule (core/out_wrapper.h). */
#include "core/out_wrapper.h"

#include "core/cast.h"

static ct_status safe_copy_checks(ct_tensor *out, const ct_tensor *r) {
  if (!ct__check_copy_devices(out, r)) return ct_last_error();
  if (!ct_can_cast((ct_dtype)r->dtype, (ct_dtype)out->dtype)) {
    ct__error(CT_ERR_RUNTIME,
              "Attempting to cast from %s to out tensor with dtype %s, but this can't be cast because it is "
              "not safe!",
              ct_dtype_name((ct_dtype)r->dtype), ct_dtype_name((ct_dtype)out->dtype));
    return CT_ERR_RUNTIME;
  }
  return CT_OK;
}

ct_status ct__out_wrapper_copy(ct_tensor *out, const ct_tensor *r) {
  /* _maybe_resize_out: an out with r's element count (and not empty) keeps its shape; resize_ to the shape
     out already has keeps its strides. torch resizes before _safe_copy_out's checks; ctorch does so only for
     a meta out (no data: tests/diff/README.md, "Where ctorch follows torch against its own rule") and checks
     an out that holds data first, so that a failing call leaves it as it was. */
  bool meta = out->device_type == CT_META;
  if (out->numel == 0 || out->numel != r->numel) {
    if (!ct__tensor_resize_ok(out, r->ndim, r->sizes)) return ct_last_error();
    ct_status s = meta ? CT_OK : safe_copy_checks(out, r);
    if (s == CT_OK && !ct__has_sizes(out, r->ndim, r->sizes))
      s = ct__tensor_resize(out, r->ndim, r->sizes, NULL);
    if (s != CT_OK) return s;
  }
  ct_status s = safe_copy_checks(out, r);
  if (s != CT_OK) return s;
  /* copy_'s Meta kernel checks no shapes: out may keep a shape r does not broadcast to */
  return meta ? CT_OK : ct__copy_into(out, r);
}

bool ct__resize_out_ok(const ct_tensor *out, ct_dtype dtype, ct_device device) {
  if (dtype != CT_DTYPE_UNSET && (ct_dtype)out->dtype != dtype) {
    ct__error(CT_ERR_RUNTIME, "Expected out tensor to have dtype %s, but got %s instead",
              ct__dt(dtype)->typemeta_name, ct__dt((ct_dtype)out->dtype)->typemeta_name);
    return false;
  }
  if (ct_device_equal(ct__tdevice(out), device)) return true;
  char a[32], b[32];
  ct_device_str(device, a, sizeof a);
  ct_device_str(ct__tdevice(out), b, sizeof b);
  ct__error(CT_ERR_RUNTIME, "Expected out tensor to have device %s, but got %s instead", a, b);
  return false;
}

bool ct__inplace_device_ok(const ct_tensor *self, ct_device device) {
  if (ct_device_equal(ct__tdevice(self), device)) return true;
  char a[32], b[32];
  ct_device_str(ct__tdevice(self), a, sizeof a);
  ct_device_str(device, b, sizeof b);
  ct__error(CT_ERR_RUNTIME,
            "Bad in-place call: input tensor device %s and output tensor device %s should match", a, b);
  return false;
}

typedef struct ces_ctx {
  const int64_t *st; /* m rows of ndim strides: the operands expanded */
  int m;
  int64_t ndim;
  const int64_t *shape;
} ces_ctx;

/* t's strides once expanded to (ndim, shape) as ATen's inferExpandGeometry gives them: a stretched dim 0, a new
   dim of size 1 the next dim's size * stride, another new dim 0 (a 0-dim tensor: every stride 0) */
static void expanded_strides(const ct_tensor *t, int64_t ndim, const int64_t *shape, int64_t *st) {
  for (int64_t d = ndim - 1; d >= 0; d--) {
    int64_t k = d - (ndim - t->ndim);
    if (k >= 0) st[d] = t->sizes[k] != shape[d] ? 0 : t->strides[k];
    else st[d] = shape[d] == 1 && t->ndim > 0 ? shape[d + 1] * st[d + 1] : 0;
  }
}

/* compute_elementwise_output_strides' _cmp(a, b) < 0: cmp_to_key's __lt__ */
static bool ces_lt(const ces_ctx *c, int64_t a, int64_t b) {
  for (int i = 0; i < c->m; i++) {
    int64_t sa = c->st[i * c->ndim + a], sb = c->st[i * c->ndim + b];
    if (sa == 0 || sb == 0) continue;
    if (sa != sb) return sa < sb;
    if (c->shape[a] != c->shape[b]) return c->shape[a] < c->shape[b];
  }
  return false;
}

static void reverse(int64_t *p, int64_t n) {
  for (int64_t i = 0, j = n - 1; i < j; i++, j--) {
    int64_t x = p[i];
    p[i] = p[j];
    p[j] = x;
  }
}

void ct__prims_elementwise_strides(const ct_tensor *const *ts, int n, int64_t ndim, const int64_t *shape,
                                   int64_t *strides) {
  const ct_tensor *kept[n > 0 ? n : 1];
  int m = 0;
  for (int i = 0; i < n; i++)
    if (ts[i] && !(ts[i]->ndim == 0 && ts[i]->device_type == CT_CPU)) kept[m++] = ts[i];
  if (ndim == 0) return;
  if (m == 0 || ndim == 1 || ndim > 64) {
    /* past 64 dims: torch's TensorIterator refuses the op anyway */ /* no tensor: ces returns (); the caller's result is 0- or 1-dim, contiguous */
    int64_t mul = 1;
    for (int64_t d = ndim - 1; d >= 0; d--) strides[d] = mul, mul *= shape[d] ? shape[d] : 1;
    return;
  }
  int64_t st[m * ndim];
  for (int i = 0; i < m; i++) expanded_strides(kept[i], ndim, shape, &st[i * ndim]);
  ces_ctx c = {st, m, ndim, shape};
  int64_t perm[64] = {0};
  for (int64_t d = 0; d < ndim; d++) perm[d] = d;
  /* CPython 3.11's list.sort(reverse=True) of a list shorter than 64: reversed, count_run, binarysort, reversed */
  reverse(perm, ndim);
  int64_t run = 2;
  if (ces_lt(&c, perm[1], perm[0])) {
    while (run < ndim && ces_lt(&c, perm[run], perm[run - 1])) run++;
    reverse(perm, run);
  } else {
    while (run < ndim && !ces_lt(&c, perm[run], perm[run - 1])) run++;
  }
  for (int64_t k = run; k < ndim; k++) { /* binarysort from the run's end */
    int64_t pivot = perm[k], l = 0, r = k;
    do {
      int64_t p = l + ((r - l) >> 1);
      if (ces_lt(&c, pivot, perm[p])) r = p;
      else l = p + 1;
    } while (l < r);
    memmove(&perm[l + 1], &perm[l], (size_t)(k - l) * sizeof(int64_t));
    perm[l] = pivot;
  }
  reverse(perm, ndim);
  int64_t mul = 1; /* make_contiguous_strides_for over the permuted shape */
  for (int64_t i = ndim - 1; i >= 0; i--) {
    strides[perm[i]] = mul;
    if (shape[perm[i]] != 0) mul *= shape[perm[i]];
  }
}

void ct__prims_elementwise_strides_of(int64_t ndim, const int64_t *shape, const int64_t *in_strides,
                                      int64_t *strides) {
  /* only the geometry is read: ndim, sizes, strides and the device (not a CPU 0-dim tensor) */
  ct_tensor t = {.device_type = CT_META,
                 .ndim = (int32_t)ndim,
                 .sizes = (int64_t *)shape,
                 .strides = (int64_t *)in_strides};
  ct__prims_elementwise_strides((const ct_tensor *const[]){&t}, 1, ndim, shape, strides);
}
