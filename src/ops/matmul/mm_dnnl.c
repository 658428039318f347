/* torch 1.13's mkldnn_matmul (aten/src/ATen/native/mkldnn/Matmul.cpp) over ctorch's tensors: where torch
   sends a bfloat16 product to oneDNN (kernels/cpu/dnnl.h), mm / addmm / bmm / baddbmm / mv / addmv / dot call
   these instead of their own loops, at the point where torch's use_mkldnn_bf16_matmul asks. */
#include "kernels/cpu/dnnl.h"
#include "ops/matmul/mm_internal.h"

/* torch's checksize: the product of the sizes the product's work grows with. */
static int64_t work_of(const ct_tensor *a, const ct_tensor *b) {
  if (a->ndim == 1 && b->ndim == 1) return a->sizes[0];               /* dot */
  if (a->ndim == 2 && b->ndim == 1) return a->sizes[0] * a->sizes[1]; /* mv */
  if (a->ndim == 2) return a->sizes[0] * a->sizes[1] * b->sizes[1];   /* mm */
  return a->sizes[0] * a->sizes[1] * a->sizes[2] * b->sizes[2];       /* bmm */
}

bool ct__mm_dnnl_route(const ct_tensor *a, const ct_tensor *b, const ct_tensor *result) {
  return a->dtype == CT_BFLOAT16 && b->dtype == CT_BFLOAT16 && (!result || result->dtype == CT_BFLOAT16) &&
         a->numel != 0 && b->numel != 0 && ct__dnnl_bf16_route(work_of(a, b));
}

/* oneDNN 2.6's memory_desc_strides_check as torch 1.13 meets it (found against torch: 1068 random out
   layouts of a bfloat16 bmm): the dims of size one aside, taken by increasing stride, each stride at least
   the one before times that dim's size (no dim overlaps the next). */
bool ct__mm_dnnl_dst_ok(const ct_tensor *t) {
  int idx[3], n = 0;
  if (t->ndim > 3) return true; /* the route's results have at most three dims */
  for (int d = 0; d < t->ndim; d++)
    if (t->sizes[d] != 1) idx[n++] = d;
  for (int i = 1; i < n; i++) /* insertion sort by (stride, size) */
    for (int j = i; j > 0; j--) {
      int a = idx[j - 1], b = idx[j];
      if (t->strides[a] < t->strides[b] || (t->strides[a] == t->strides[b] && t->sizes[a] <= t->sizes[b]))
        break;
      idx[j - 1] = b;
      idx[j] = a;
    }
  int64_t min = 1;
  for (int i = 0; i < n; i++) {
    if (t->strides[idx[i]] < min) return false;
    min = t->strides[idx[i]] * t->sizes[idx[i]];
  }
  return true;
}

/* mkldnn_matmul's is_mkldnn_optimized_format: contiguous, or the last two dims transposed. */
static bool optimized_format(const ct_tensor *t) {
  if (ct_is_contiguous(t, CT_CONTIGUOUS_FORMAT)) return true;
  const int64_t *z = t->sizes, *s = t->strides;
  if (t->ndim == 2) return s[0] == 1 && s[1] == z[0];
  return s[0] == z[1] * z[2] && s[1] == 1 && s[2] == z[1];
}

/* a (the unsqueezed operand) as oneDNN reads it: itself where its layout is optimized, else a contiguous copy. */
static ct_tensor *as_read(ct_tensor *t) {
  if (!t || optimized_format(t)) return t;
  ct_tensor *c = ct__contiguous_impl(t, CT_CONTIGUOUS_FORMAT);
  ct_release(t);
  return c;
}

ct_status ct__mm_dnnl(ct_tensor *result, const ct_tensor *a, const ct_tensor *b, ct_scalar beta,
                      ct_scalar alpha) {
  float be = (float)ct__scalar_to_double(beta), al = (float)ct__scalar_to_double(alpha);
  /* torch returns before the product, with the result as it was: beta's operand where beta != 0 (not scaled
     by beta), and where beta is 0 an output it never wrote (uninitialized memory); ctorch writes zeros there */
  if (al == 0.0f) return be == 0.0f ? ct__fill_impl(result, ct_scalar_int(0)) : CT_OK;
  ct_tensor *x = as_read(a->ndim == 1 ? ct__unsqueeze_impl(a, 0) : ct_retain((ct_tensor *)a));
  ct_tensor *w = x ? as_read(b->ndim == 1 ? ct__unsqueeze_impl(b, 1) : ct_retain((ct_tensor *)b)) : NULL;
  int nd = x ? (int)x->ndim : 0;
  int64_t dd[3] = {x ? x->sizes[0] : 0, 0, 0};
  if (nd == 2) dd[1] = w ? w->sizes[1] : 0;
  else dd[1] = x ? x->sizes[1] : 0, dd[2] = w ? w->sizes[2] : 0;
  /* oneDNN writes a dense row-major dst: the result itself where it is one, else a copy that comes back */
  bool direct = ct_is_contiguous(result, CT_CONTIGUOUS_FORMAT);
  ct_tensor *d = !w ? NULL : direct ? ct_retain(result) : ct__contiguous_impl(result, CT_CONTIGUOUS_FORMAT);
  ct_status s = d ? CT_OK : ct_last_error();
  if (s == CT_OK &&
      !ct__dnnl_bf16_matmul(nd, x->sizes, x->strides, (const uint16_t *)ct__tdata(x), w->sizes, w->strides,
                            (const uint16_t *)ct__tdata(w), dd, (uint16_t *)ct__tdata(d), al, be)) {
    ct__error(CT_ERR_RUNTIME, "ctorch: oneDNN refused a bfloat16 matmul that torch runs through it");
    s = CT_ERR_RUNTIME;
  }
  if (s == CT_OK && !direct) s = ct__copy_into(result, d);
  ct_release(x);
  ct_release(w);
  ct_release(d);
  return s;
}
