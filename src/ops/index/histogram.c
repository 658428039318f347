/* bincount, histc, histogram and nn.functional.one_hot: torch 1.13's SummaryOps.cpp, Histogram.cpp and
   HistogramKernel.cpp. Counting is serial in element order (torch's per-thread histograms summed give the
   same values for the counts; weighted sums add in element order), bin positions computed in the input's
   type as torch's kernel computes them (bfloat16 rounding after each step, as c10::BFloat16's operators),
   the edges from linspace. */
#include <math.h>

#include "core/half.h"
#include "ops/convert_internal.h"
#include "ops/create_internal.h"
#include "ops/index/index_ops.h"
#include "ops/pointwise/pw.h"
#include "ops/reduce/red.h"
#include "ops/view_internal.h"

static const char hist_row[1];
static const ct_op bincount_op = {.name = "bincount", .aten = "aten::bincount", .kernels = {[CT_CPU] = hist_row}};
static const ct_op histc_op = {.name = "histc", .aten = "aten::histc", .kernels = {[CT_CPU] = hist_row}};
static const ct_op histc_out_op = {
    .name = "histc", .aten = "aten::histc.out", .grad = CT_OP_GRAD_NONE, .kernels = {[CT_CPU] = hist_row}};
static const ct_op histogram_op = {
    .name = "histogram", .aten = "aten::histogram.bin_ct", .kernels = {[CT_CPU] = hist_row}};
static const ct_op histogram_out_op = {.name = "histogram",
                                      .aten = "aten::histogram.bin_ct_out",
                                      .grad = CT_OP_GRAD_OUT_INPLACE,
                                      .kernels = {[CT_CPU] = hist_row}};
static const ct_op histogram_bins_op = {
    .name = "histogram", .aten = "aten::histogram.bins_tensor", .kernels = {[CT_CPU] = hist_row}};
static const ct_op histogram_bins_out_op = {.name = "histogram",
                                           .aten = "aten::histogram.bins_tensor_out",
                                           .grad = CT_OP_GRAD_OUT_INPLACE,
                                           .kernels = {[CT_CPU] = hist_row}};
static const ct_op one_hot_op = {.name = "one_hot", .aten = "aten::one_hot", .composite = true};

static bool not_implemented(const char *name, ct_dtype dt) {
  ct__error(CT_ERR_RUNTIME, "\"%s\" not implemented for '%s'", name, ct__dt(dt)->scalar_name);
  return false;
}

/* ---- bincount ---- */

static ct_tensor *bincount_impl(const ct_tensor *self, const ct_bincount_opts *opts) {
  ct_dtype dt = (ct_dtype)self->dtype;
  if (ct__dt(dt)->category != CT_CAT_INT) return not_implemented("bincount_cpu", dt), NULL;
  int64_t minlength = opts ? opts->minlength : 0;
  const ct_tensor *w = opts ? opts->weights : NULL;
  if (minlength < 0) return CT_ERR_NULL(CT_ERR_RUNTIME, "minlength should be >= 0");
  ct_resolved_opts o = {CT_INT64, ct__tdevice(self), CT_CONTIGUOUS_FORMAT, false};
  if (self->ndim == 1 && self->numel == 0) return ct__zeros_with((ct_shape){&minlength, 1}, &o);
  ct_tensor *x64 = self->ndim == 1 ? ct__idx_as(self, CT_INT64) : NULL;
  ct_tensor *x = x64 ? ct__idx_contiguous(x64) : NULL;
  ct_release(x64);
  if (self->ndim == 1 && !x) return NULL; /* out of memory: counting nothing would return zeros */
  const int64_t *xv = x ? (const int64_t *)ct__tdata(x) : NULL;
  int64_t n = self->numel, mx = -1;
  bool neg = false;
  for (int64_t i = 0; xv && i < n; i++) {
    neg |= xv[i] < 0;
    if (xv[i] > mx) mx = xv[i];
  }
  if (self->ndim != 1 || neg) {
    ct_release(x);
    return CT_ERR_NULL(CT_ERR_RUNTIME, "bincount only supports 1-d non-negative integral inputs.");
  }
  if (w && (w->ndim != 1 || w->sizes[0] != n)) {
    ct_release(x);
    return CT_ERR_NULL(CT_ERR_RUNTIME, "weights should be 1-d and have the same length as input");
  }
  int64_t nbins = mx + 1 > minlength ? mx + 1 : minlength;
  ct_tensor *r = NULL;
  if (!w) {
    r = ct__zeros_with((ct_shape){&nbins, 1}, &o);
    int64_t *h = r ? (int64_t *)ct__tdata(r) : NULL;
    for (int64_t i = 0; h && i < n; i++) h[xv[i]]++;
  } else {
    /* float weights count in float, any other in double */
    ct_dtype wd = w->dtype == CT_FLOAT32 ? CT_FLOAT32 : CT_FLOAT64;
    ct_tensor *wc = ct__idx_as(w, wd);
    ct_tensor *wcc = wc ? ct__idx_contiguous(wc) : NULL;
    o.dtype = wd;
    r = wcc ? ct__zeros_with((ct_shape){&nbins, 1}, &o) : NULL;
    if (r && wd == CT_FLOAT32) {
      float *h = (float *)ct__tdata(r);
      const float *wv = (const float *)ct__tdata(wcc);
      for (int64_t i = 0; i < n; i++) h[xv[i]] += wv[i];
    } else if (r) {
      double *h = (double *)ct__tdata(r);
      const double *wv = (const double *)ct__tdata(wcc);
      for (int64_t i = 0; i < n; i++) h[xv[i]] += wv[i];
    }
    ct_release(wcc);
    ct_release(wc);
  }
  ct_release(x);
  return r;
}

ct_tensor *ct_bincount(const ct_tensor *t, const ct_bincount_opts *opts) {
  CT__OP_ENTER_PTR(&bincount_op, t, t);
  if (opts && opts->weights && !CT__OP_ACCEPTS(&bincount_op, bincount_op.aten, t, opts->weights)) return NULL;
  return ct__own(bincount_impl(t, opts));
}

/* ---- the histogram kernel ---- */

typedef enum { LINEAR, LINEAR_LOCAL, BINARY } hist_algo;

/* upper_bound(edges[lo..hi), x) - edges - 1 */
#define UPPER(T, edges, lo, hi, x, LOAD)              \
  do {                                              \
    int64_t a_ = (lo), b_ = (hi);                   \
    while (a_ < b_) {                               \
      int64_t m_ = a_ + (b_ - a_) / 2;              \
      if (!((x) < LOAD((edges)[m_]))) a_ = m_ + 1;  \
      else b_ = m_;                                 \
    }                                               \
    pos = a_ - 1;                                   \
  } while (0)

static inline float bf_round(float x) { return ct__bfloat16_to_float(ct__float_to_bfloat16(x)); }
#define F_ID(x) (x)
#define BF_LOAD(x) ct__bfloat16_to_float(x)

/* hist (contiguous, zeroed, nbins) += the weight of each element of x (contiguous, n) by its bin. As torch's
   kernel: an element is skipped only when `elt < left || right < elt` (a NaN is not); a position that is
   no int64 (NaN, inf: x86's conversion gives INT64_MIN) lands, through torch's index arithmetic, in bin 0
   (linear: INT64_MIN times the element size wraps to offset 0), or where upper_bound over the three edges
   around edges[0] leaves it (local search: the last of them, bin 1, before the rightmost-bin rule); a NaN
   in a binary search passes every edge. The position is (elt - left) / (right - left) * bins, divided first
   (so 16. of float64 over [-100, 100] in 100 bins lands in bin 57). */
#define HIST_KERNEL(NAME, T, CT, LOAD, STORE, RND)                                                        \
  static void NAME(T *hist, const T *x, const T *w, int64_t n, const T *edges, int64_t ne, hist_algo algo) { \
    CT left = LOAD(edges[0]), right = LOAD(edges[ne - 1]);                                                \
    for (int64_t i = 0; i < n; i++) {                                                                     \
      CT elt = LOAD(x[i]);                                                                                \
      if (elt < left || right < elt) continue;                                                            \
      int64_t pos;                                                                                        \
      if (algo == BINARY) {                                                                               \
        UPPER(T, edges, 0, ne, elt, LOAD);                                                                \
      } else {                                                                                            \
        CT d1 = RND(elt - left), d2 = RND(d1 / RND(right - left)), d3 = RND(d2 * RND((CT)(ne - 1)));      \
        if (!(d3 > -9.2e18 && d3 < 9.2e18)) {                                                             \
          if (algo == LINEAR) pos = 0;                                                                    \
          else pos = ne - 1 > 1 ? 1 : ne - 1;                                                             \
          if (algo == LINEAR) goto add_##NAME;                                                            \
        } else {                                                                                          \
          pos = (int64_t)d3;                                                                              \
          if (algo == LINEAR_LOCAL) {                                                                     \
            int64_t lo = pos - 1 > 0 ? pos - 1 : 0, hi = pos + 2 < ne ? pos + 2 : ne;                     \
            UPPER(T, edges, lo, hi, elt, LOAD);                                                           \
          }                                                                                               \
        }                                                                                                 \
      }                                                                                                   \
      if (pos == ne - 1) pos -= 1;                                                                        \
      add_##NAME:                                                                                         \
      hist[pos] = STORE(RND(LOAD(hist[pos]) + (w ? LOAD(w[i]) : (CT)1)));                                 \
    }                                                                                                     \
  }
HIST_KERNEL(hist_f32, float, float, F_ID, F_ID, F_ID)
HIST_KERNEL(hist_f64, double, double, F_ID, F_ID, F_ID)
HIST_KERNEL(hist_bf16, uint16_t, float, BF_LOAD, ct__float_to_bfloat16, bf_round)

/* Runs the kernel over x (any layout) with edges (1-dim), into hist (new, zeroed): false on failure. */
static bool hist_run(ct_tensor *hist, const ct_tensor *x_in, const ct_tensor *w_in, const ct_tensor *edges_in,
                     hist_algo algo) {
  ct_tensor *x = ct__idx_contiguous(x_in), *w = w_in ? ct__idx_contiguous(w_in) : NULL, *e = ct__idx_contiguous(edges_in);
  bool ok = x && e && (!w_in || w);
  if (ok) {
    int64_t n = x->numel, ne = e->numel;
    switch ((ct_dtype)x->dtype) {
      case CT_FLOAT32:
        hist_f32((float *)ct__tdata(hist), (const float *)ct__tdata(x), w ? (const float *)ct__tdata(w) : NULL, n,
                 (const float *)ct__tdata(e), ne, algo);
        break;
      case CT_FLOAT64:
        hist_f64((double *)ct__tdata(hist), (const double *)ct__tdata(x), w ? (const double *)ct__tdata(w) : NULL,
                 n, (const double *)ct__tdata(e), ne, algo);
        break;
      default:
        hist_bf16((uint16_t *)ct__tdata(hist), (const uint16_t *)ct__tdata(x),
                  w ? (const uint16_t *)ct__tdata(w) : NULL, n, (const uint16_t *)ct__tdata(e), ne, algo);
    }
  }
  ct_release(x);
  ct_release(w);
  ct_release(e);
  return ok;
}

/* The data's min and max as doubles (aminmax; a NaN anywhere gives nan, whose sign each caller's message
   shows as torch prints it). */
static void data_range(const ct_tensor *t, double *lo, double *hi, double nan) {
  ct_tensor *c = ct__idx_contiguous(t);
  ct_tensor *d = c ? ct__idx_as(c, CT_FLOAT64) : NULL;
  ct_tensor *dc = d ? ct__idx_contiguous(d) : NULL;
  *lo = *hi = 0;
  if (dc && dc->numel) {
    const double *v = (const double *)ct__tdata(dc);
    double mn = v[0], mx = v[0];
    for (int64_t i = 0; i < dc->numel; i++) {
      if (isnan(v[i]) || isnan(mn)) {
        mn = mx = nan;
        break;
      }
      if (v[i] < mn) mn = v[i];
      if (v[i] > mx) mx = v[i];
    }
    *lo = mn, *hi = mx;
  }
  ct_release(dc);
  ct_release(d);
  ct_release(c);
}

static bool bins_positive(int64_t bins) {
  if (bins > 0) return true;
  ct__error(CT_ERR_RUNTIME, "torch.histogram(): bins must be > 0, but got %lld for dimension 0", (long long)bins);
  return false;
}

/* ---- histc ---- */

static ct_tensor *histc_impl(const ct_tensor *self, const ct_histc_opts *opts) {
  ct_dtype dt = (ct_dtype)self->dtype;
  int64_t bins = opts && opts->bins ? opts->bins : 100;
  double lo = opts ? opts->min : 0, hi = opts ? opts->max : 0;
  if (!bins_positive(bins)) return NULL;
  if (lo == hi && self->numel > 0) {
    if (dt == CT_FLOAT16 || ct__dt(dt)->category == CT_CAT_COMPLEX) return not_implemented("aminmax_cpu", dt), NULL;
    data_range(self, &lo, &hi, dt == CT_BFLOAT16 ? NAN : -NAN); /* the NaN's sign as torch prints it */
  }
  if (lo == hi) lo -= 1, hi += 1;
  if (!isfinite(lo) || !isfinite(hi))
    return CT_ERR_NULL(CT_ERR_RUNTIME, "torch.histc: range of [%g, %g] is not finite", lo, hi);
  if (!(lo < hi)) return CT_ERR_NULL(CT_ERR_RUNTIME, "torch.histc: max must be larger than min");
  if (dt == CT_BOOL) return not_implemented("linspace_cpu", dt), NULL;
  /* the edges' linspace converts its ends to the dtype (checked) before the histogram kernel's dispatch */
  if (!ct__scalar_fits(ct_scalar_double(lo), dt) || !ct__scalar_fits(ct_scalar_double(hi), dt)) return NULL;
  if (dt != CT_FLOAT32 && dt != CT_FLOAT64 && dt != CT_BFLOAT16) return not_implemented("histogram_cpu", dt), NULL;
  ct_resolved_opts o = {dt, ct__tdevice(self), CT_CONTIGUOUS_FORMAT, false};
  ct_tensor *edges = ct__linspace_with(ct_scalar_double(lo), ct_scalar_double(hi), bins + 1, &o);
  ct_tensor *hist = edges ? ct__zeros_with((ct_shape){&bins, 1}, &o) : NULL;
  if (hist && !hist_run(hist, self, NULL, edges, LINEAR)) {
    ct_release(hist);
    hist = NULL;
  }
  ct_release(edges);
  return hist;
}

ct_tensor *ct_histc(const ct_tensor *t, const ct_histc_opts *opts) {
  CT__OP_ENTER_PTR(&histc_op, t, t);
  return ct__own(histc_impl(t, opts));
}

ct_status ct_histc_out(ct_tensor *out, const ct_tensor *t, const ct_histc_opts *opts) {
  CT__OP_ENTER_STATUS(&histc_out_op, t, out, t);
  if (!CT__OP_OUT_GRAD_OK(&histc_out_op, out, t)) return CT_ERR_RUNTIME;
  if (!CT__OP_ACCEPTS(&histc_out_op, histc_out_op.aten, out, t)) return ct_last_error();
  if (out->dtype != t->dtype) {
    ct__error(CT_ERR_RUNTIME, "torch.histogram: input tensor and hist tensor should have the same dtype, but got "
                              "input %s and hist %s", ct__dt((ct_dtype)t->dtype)->typemeta_name,
              ct__dt((ct_dtype)out->dtype)->typemeta_name);
    return CT_ERR_RUNTIME;
  }
  return ct__idx_copy_out(out, histc_impl(t, opts));
}

/* ---- histogram ---- */

/* histogramdd_check_inputs for one dim of input reshaped [N, 1], weight reshaped [numel]. */
static bool histogram_checks(const ct_tensor *self, const ct_tensor *bins, const ct_tensor *weight) {
  ct_dtype dt = (ct_dtype)self->dtype;
  if (bins) {
    if (bins->dtype != self->dtype) {
      ct__error(CT_ERR_RUNTIME, "torch.histogramdd: input tensor and bins tensors should have the same dtype, but got "
                                "input with dtype %s and bins for dimension 0 with dtype %s",
                ct__dt(dt)->typemeta_name, ct__dt((ct_dtype)bins->dtype)->typemeta_name);
      return false;
    }
    if (bins->ndim != 1) {
      ct__error(CT_ERR_RUNTIME, "torch.histogramdd: bins tensor should have one dimension, but got %lld dimensions in "
                                "the bins tensor for dimension 0", (long long)bins->ndim);
      return false;
    }
    if (bins->numel == 0) {
      ct__error(CT_ERR_RUNTIME, "torch.histogramdd: bins tensor should have at least 1 element, but got 0 elements "
                                "in the bins tensor for dimension 0");
      return false;
    }
  }
  if (weight) {
    if (weight->dtype != self->dtype) {
      ct__error(CT_ERR_RUNTIME, "torch.histogramdd: if weight tensor is provided, input tensor and weight tensor "
                                "should have the same dtype, but got input(%s), and weight(%s)",
                ct__dt(dt)->typemeta_name, ct__dt((ct_dtype)weight->dtype)->typemeta_name);
      return false;
    }
    if (weight->numel != self->numel) {
      ct__error(CT_ERR_RUNTIME, "torch.histogramdd: if weight tensor is provided it should have the same shape as the "
                                "input tensor excluding its innermost dimension, but got input with shape [%lld, 1] "
                                "and weight with shape [%lld]", (long long)self->numel, (long long)weight->numel);
      return false;
    }
  }
  return true;
}

/* density: hist.div_(hist.sum().item()), then hist.div_(bin_edges.diff()), through div's route (a wrapped
   double, then edges' differences in their dtype: bfloat16 rounds as torch's). */
static ct_status apply_density(ct_tensor *hist, const ct_tensor *edges) {
  int64_t n = hist->numel;
  ct_tensor *sum = NULL;
  ct_scalar sv;
  ct_scope_begin(); /* the reduction's result is scope-registered */
  ct_status s = ct__sum_impl(NULL, hist, NULL, &sum);
  if (s == CT_OK) s = ct__item_impl(sum, &sv);
  ct_scope_end();
  ct_tensor *w = s == CT_OK ? ct__wrapped_scalar(ct_scalar_double(ct__scalar_to_double(sv))) : NULL;
  s = w ? ct__pw_apply_(&ct__pw_op_true_divide, hist, w) : ct_last_error();
  ct_release(w);
  ct_tensor *hi = s == CT_OK ? ct__slice_impl(edges, 0, 1, n + 1, 1) : NULL;
  ct_tensor *lo = hi ? ct__slice_impl(edges, 0, 0, n, 1) : NULL;
  ct_tensor *width = NULL;
  if (lo) {
    ct_scope_begin();
    width = ct__pw_apply(&ct__pw_op_sub, hi, lo);
    if (width) ct_retain(width);
    ct_scope_end();
  }
  if (s == CT_OK) s = width ? ct__pw_apply_(&ct__pw_op_true_divide, hist, width) : ct_last_error();
  ct_release(width);
  ct_release(lo);
  ct_release(hi);
  return s;
}

static bool float_only(const ct_tensor *self, const char *kernel) {
  ct_dtype dt = (ct_dtype)self->dtype;
  return dt == CT_FLOAT32 || dt == CT_FLOAT64 || not_implemented(kernel, dt);
}

/* bins: NULL for bin_ct equal bins, else the edges tensor. */
static ct_status histogram_impl(const ct_tensor *self, int64_t bin_ct, const ct_tensor *bins,
                                const ct_histogram_opts *opts, ct_tensor **hist, ct_tensor **edges) {
  *hist = *edges = NULL;
  const ct_tensor *weight = opts ? opts->weight : NULL;
  ct_dtype dt = (ct_dtype)self->dtype;
  ct_resolved_opts o = {dt, ct__tdevice(self), CT_CONTIGUOUS_FORMAT, false};
  ct_tensor *e = NULL;
  if (!bins) {
    if (!bins_positive(bin_ct)) return CT_ERR_RUNTIME;
    double lo = 0, hi = 1;
    if (opts && opts->has_range) {
      lo = opts->range_min, hi = opts->range_max;
    } else if (self->numel > 0) {
      if (!float_only(self, "histogramdd")) return CT_ERR_RUNTIME;
      data_range(self, &lo, &hi, NAN);
    }
    if (!isfinite(lo) || !isfinite(hi)) {
      ct__error(CT_ERR_RUNTIME, "torch.histogramdd: dimension 0's range [%g, %g] is not finite", lo, hi);
      return CT_ERR_RUNTIME;
    }
    if (lo > hi) {
      ct__error(CT_ERR_RUNTIME, "torch.histogramdd: min should not exceed max, but got min %g max %g for dimension 0",
                lo, hi);
      return CT_ERR_RUNTIME;
    }
    if (lo == hi) lo -= 0.5, hi += 0.5;
    e = ct__linspace_with(ct_scalar_double(lo), ct_scalar_double(hi), bin_ct + 1, &o);
  } else {
    if (!histogram_checks(self, bins, NULL)) return CT_ERR_RUNTIME;
    bin_ct = bins->numel - 1;
    if (!bins_positive(bin_ct)) return CT_ERR_RUNTIME;
    e = ct__idx_copy_as(bins, (ct_dtype)(bins)->dtype, CT_CONTIGUOUS_FORMAT);
  }
  if (!e) return ct_last_error();
  /* histogram_cpu's dispatch (float, double, bfloat16), reached by every call, empty ones too */
  ct_dtype sdt = (ct_dtype)self->dtype;
  bool dt_ok = sdt == CT_FLOAT32 || sdt == CT_FLOAT64 || sdt == CT_BFLOAT16;
  if (!histogram_checks(self, NULL, weight) || (!dt_ok && !not_implemented("histogram_cpu", sdt))) {
    ct_release(e);
    return ct_last_error();
  }
  int64_t nb = bin_ct > 0 ? bin_ct : 0;
  ct_tensor *h = ct__zeros_with((ct_shape){&nb, 1}, &o);
  if (!h || (nb > 0 && !hist_run(h, self, weight, e, bins ? BINARY : LINEAR_LOCAL))) {
    ct_release(h);
    ct_release(e);
    return ct_last_error();
  }
  if (opts && opts->density && apply_density(h, e) != CT_OK) {
    ct_release(h);
    ct_release(e);
    return ct_last_error();
  }
  *hist = h;
  *edges = e;
  return CT_OK;
}

static ct_status histogram_public(const ct_tensor *t, int64_t bin_ct, const ct_tensor *bins, ct_tensor **hist,
                                  ct_tensor **bin_edges, const ct_histogram_opts *opts) {
  ct_tensor *h, *e;
  ct_status s = histogram_impl(t, bin_ct, bins, opts, &h, &e);
  if (s != CT_OK) return s;
  h = ct__own(h);
  e = ct__own(e);
  if (hist) *hist = h;
  else ct_release(h);
  if (bin_edges) *bin_edges = e;
  else ct_release(e);
  return CT_OK;
}

static ct_status histogram_out_public(ct_tensor *hist, ct_tensor *bin_edges, const ct_tensor *t, int64_t bin_ct,
                                      const ct_tensor *bins, const ct_histogram_opts *opts) {
  /* with a bins tensor, torch checks the inputs before preparing the outs (with a count, after) */
  if (bins && !histogram_checks(t, bins, opts ? opts->weight : NULL)) return CT_ERR_RUNTIME;
  if (hist->dtype != t->dtype) {
    ct__error(CT_ERR_RUNTIME, "torch.histogram: input tensor and hist tensor should have the same dtype, but got "
                              "input %s and hist %s", ct__dt((ct_dtype)t->dtype)->typemeta_name,
              ct__dt((ct_dtype)hist->dtype)->typemeta_name);
    return CT_ERR_RUNTIME;
  }
  if (bin_edges->dtype != t->dtype) {
    ct__error(CT_ERR_RUNTIME, "torch.histogram: input tensor and bin_edges tensor should have the same dtype, but got "
                              "input %s and bin_edges %s for dimension 0", ct__dt((ct_dtype)t->dtype)->typemeta_name,
              ct__dt((ct_dtype)bin_edges->dtype)->typemeta_name);
    return CT_ERR_RUNTIME;
  }
  ct_tensor *h, *e;
  ct_status s = histogram_impl(t, bin_ct, bins, opts, &h, &e);
  if (s != CT_OK) return s;
  s = ct__idx_copy_out(hist, h);
  if (s == CT_OK) return ct__idx_copy_out(bin_edges, e);
  ct_release(e);
  return s;
}

ct_status ct_histogram(const ct_tensor *t, int64_t bins, ct_tensor **hist, ct_tensor **bin_edges,
                       const ct_histogram_opts *opts) {
  CT__OP_ENTER_STATUS(&histogram_op, t, t);
  return histogram_public(t, bins, NULL, hist, bin_edges, opts);
}
ct_status ct_histogram_out(ct_tensor *hist, ct_tensor *bin_edges, const ct_tensor *t, int64_t bins,
                           const ct_histogram_opts *opts) {
  CT__OP_ENTER_STATUS(&histogram_out_op, t, hist, bin_edges, t);
  if (!ct__check_inplace(hist) || !ct__check_inplace(bin_edges)) return CT_ERR_RUNTIME; /* OUT_INPLACE */
  if (!CT__OP_ACCEPTS(&histogram_out_op, histogram_out_op.aten, hist, bin_edges, t)) return ct_last_error();
  ct_status s = histogram_out_public(hist, bin_edges, t, bins, NULL, opts);
  if (s == CT_OK) ct__grad_mark_out(hist, &t, 1), ct__grad_mark_out(bin_edges, &t, 1);
  return s;
}
ct_status ct_histogram_bins(const ct_tensor *t, const ct_tensor *bins, ct_tensor **hist, ct_tensor **bin_edges,
                            const ct_histogram_opts *opts) {
  CT__OP_ENTER_STATUS(&histogram_bins_op, t, t, bins);
  if (!CT__OP_ACCEPTS(&histogram_bins_op, histogram_bins_op.aten, t, bins)) return ct_last_error();
  return histogram_public(t, 0, bins, hist, bin_edges, opts);
}
ct_status ct_histogram_bins_out(ct_tensor *hist, ct_tensor *bin_edges, const ct_tensor *t, const ct_tensor *bins,
                                const ct_histogram_opts *opts) {
  CT__OP_ENTER_STATUS(&histogram_bins_out_op, t, hist, bin_edges, t, bins);
  if (!ct__check_inplace(hist) || !ct__check_inplace(bin_edges)) return CT_ERR_RUNTIME; /* OUT_INPLACE */
  if (!CT__OP_ACCEPTS(&histogram_bins_out_op, histogram_bins_out_op.aten, hist, bin_edges, t, bins))
    return ct_last_error();
  ct_status s = histogram_out_public(hist, bin_edges, t, 0, bins, opts);
  if (s == CT_OK) ct__grad_mark_out(hist, &t, 1), ct__grad_mark_out(bin_edges, &t, 1);
  return s;
}

/* ---- one_hot ---- */

static ct_tensor *one_hot_impl(const ct_tensor *self, int64_t num_classes) {
  if (self->dtype != CT_INT64)
    return CT_ERR_NULL(CT_ERR_RUNTIME, "one_hot is only applicable to index tensor.");
  int64_t nd = self->ndim, shape[65];
  if (nd > 64) return CT_ERR_NULL(CT_ERR_NOT_IMPLEMENTED, "one_hot supports tensors of up to 64 dims");
  memcpy(shape, self->sizes, (size_t)nd * sizeof(int64_t));
  ct_resolved_opts o = {CT_INT64, ct__tdevice(self), CT_CONTIGUOUS_FORMAT, false};
  if (self->numel == 0) {
    if (num_classes <= 0) return CT_ERR_NULL(CT_ERR_RUNTIME, "Can not infer total number of classes from empty tensor.");
    shape[nd] = num_classes;
    return ct__empty_with((ct_shape){shape, nd + 1}, &o);
  }
  /* torch's one_hot refuses a non-empty meta tensor (whose classes it cannot count) after the empty case */
  if (self->device_type == CT_META)
    return CT_ERR_NULL(CT_ERR_RUNTIME, "Can not infer total number of classes from meta tensor.");
  int64_t mn = INT64_MAX, mx = INT64_MIN;
  for (int64_t k = 0; k < self->numel; k++) {
    int64_t v = ct__idx_value_at(self, k);
    if (v < mn) mn = v;
    if (v > mx) mx = v;
  }
  if (mn < 0) return CT_ERR_NULL(CT_ERR_RUNTIME, "Class values must be non-negative.");
  if (num_classes == -1) num_classes = mx + 1;
  else if (!(num_classes > mx)) return CT_ERR_NULL(CT_ERR_RUNTIME, "Class values must be smaller than num_classes.");
  shape[nd] = num_classes;
  ct_tensor *r = ct__zeros_with((ct_shape){shape, nd + 1}, &o);
  ct_tensor *idx = r ? ct__unsqueeze_impl(self, nd) : NULL;
  if (idx && ct__scatter_into(r, nd, idx, NULL, ct_scalar_int(1), 0, "scatter", false) != CT_OK) {
    ct_release(r);
    r = NULL;
  }
  ct_release(idx);
  return idx ? r : (ct_release(r), NULL);
}

ct_tensor *ct_one_hot(const ct_tensor *t, int64_t num_classes) {
  CT__OP_ENTER_PTR(&one_hot_op, t, t);
  return ct__own(one_hot_impl(t, num_classes));
}
