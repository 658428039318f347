/* torch.quantile and torch.nanquantile (torch 1.13, Sorting.cpp quantile_impl): the input sorted along the
   dim (or flattened) by sort's impl, ranks q * (n - 1) computed in the input's dtype (nanquantile: n counts
   the non-NaN values; quantile: a line with a NaN takes the last rank, a NaN), adjusted by the
   interpolation (floor, ceil, round half to even), and the two neighbours combined by lerp's formula as
   torch's AVX2 build computes it (fused, see ops/pointwise/ternary_lerp.c). */
#include <math.h>

#include "ops/sort/sort_internal.h"
#include "ops/view_internal.h"

enum {
  Q_LINEAR,
  Q_LOWER,
  Q_HIGHER,
  Q_MIDPOINT,
  Q_NEAREST
};

/* quantile is CompositeImplicit over sort: every device and dtype reaches its checks. */
/* Its out= form copies the result into out: autograd sees an in-place write (a leaf that requires grad is
   refused), nothing else. */
static const ct_op quantile_op = {
    CT_SORT_OP("quantile", "aten::sort.stable", ct__sort_types, ct__sort_meta_row),
    .grad = CT_OP_GRAD_OUT_INPLACE};
static const ct_op nanquantile_op = {
    CT_SORT_OP("nanquantile", "aten::sort.stable", ct__sort_types, ct__sort_meta_row),
    .grad = CT_OP_GRAD_OUT_INPLACE};

static int interp_mode(const char *s) {
  static const char *const names[] = {"linear", "lower", "higher", "midpoint", "nearest"};
  if (!s) return Q_LINEAR;
  for (int i = 0; i < 5; i++)
    if (!strcmp(s, names[i])) return i;
  ct__error(CT_ERR_RUNTIME,
            "quantile() interpolation must be one of linear, lower, higher, midpoint or nearest, but got %s",
            s);
  return -1;
}

#define LERP_F(a, b, w) ((w) < 0.5f ? fmaf((w), (b) - (a), (a)) : fmaf(-((b) - (a)), 1.0f - (w), (b)))
#define LERP_D(a, b, w) ((w) < 0.5 ? fma((w), (b) - (a), (a)) : fma(-((b) - (a)), 1.0 - (w), (b)))

/* One quantile of a sorted row of n values (NaN last) in the input's dtype T. */
#define QUANTILE_ROW(T, FLOOR, CEIL, RINT, LERP)                                       \
  static T quantile_row_##T(const T *row, int64_t n, T q, int mode, bool ignore_nan) { \
    int64_t nonnan = n;                                                                \
    while (nonnan > 0 && isnan(row[nonnan - 1])) nonnan--;                             \
    T rank;                                                                            \
    if (ignore_nan) {                                                                  \
      rank = q * (T)(nonnan - 1);                                                      \
      if (rank < 0) rank = 0;                                                          \
    } else {                                                                           \
      rank = nonnan < n ? (T)(n - 1) : q * (T)(n - 1);                                 \
    }                                                                                  \
    if (mode == Q_LOWER) rank = FLOOR(rank);                                           \
    else if (mode == Q_HIGHER) rank = CEIL(rank);                                      \
    else if (mode == Q_NEAREST) rank = RINT(rank);                                     \
    int64_t below = (int64_t)rank;                                                     \
    T vb = row[below];                                                                 \
    if (mode != Q_LINEAR && mode != Q_MIDPOINT) return vb;                             \
    T w = mode == Q_MIDPOINT ? (T)0.5 : rank - (T)below;                               \
    T va = row[(int64_t)CEIL(rank)];                                                   \
    return LERP(vb, va, w);                                                            \
  }
QUANTILE_ROW(float, floorf, ceilf, nearbyintf, LERP_F)
QUANTILE_ROW(double, floor, ceil, nearbyint, LERP_D)

/* The work: checks in torch's order, then a new (unowned) contiguous result. qs: the q tensor (1-D or 0-dim,
   the input's dtype). */
static ct_status quantile_impl(const ct_op *op, bool ignore_nan, const ct_tensor *t, const ct_tensor *q,
                               const ct_quantile_opts *o, const ct_tensor *out, ct_tensor **res) {
  ct_quantile_opts none = {0};
  if (!o) o = &none;
  *res = NULL;
  int mode = interp_mode(o->interpolation);
  if (mode < 0) return CT_ERR_RUNTIME;
  bool has_dim;
  int64_t dim_arg;
  if (!ct__red_single_dim(op->name, o->dims, &has_dim, &dim_arg)) return ct_last_error();
  if (t->numel == 0)
    return (ct__error(CT_ERR_RUNTIME, "quantile() input tensor must be non-empty"), CT_ERR_RUNTIME);
  if (q->ndim > 1)
    return (ct__error(CT_ERR_RUNTIME, "quantile() q must be a scalar or 1D tensor"), CT_ERR_RUNTIME);
  ct_dtype dt = (ct_dtype)t->dtype;
  if (dt != CT_FLOAT32 && dt != CT_FLOAT64)
    return (ct__error(CT_ERR_RUNTIME, "quantile() input tensor must be either float or double dtype"),
            CT_ERR_RUNTIME);
  if (q->dtype != t->dtype)
    return (ct__error(CT_ERR_RUNTIME, "quantile() q tensor must be same dtype as the input tensor"),
            CT_ERR_RUNTIME);
  if (q->device_type != t->device_type)
    return (ct__error(CT_ERR_RUNTIME, "quantile() q tensor must be on the same device as the input tensor"),
            CT_ERR_RUNTIME);
  if (out && out->dtype != t->dtype)
    return (ct__error(CT_ERR_RUNTIME, "quantile() out tensor must be same dtype as the input tensor"),
            CT_ERR_RUNTIME);
  if (out && !ct_device_equal(ct__tdevice(out), ct__tdevice(t)))
    return (ct__error(CT_ERR_RUNTIME, "quantile() out tensor must be on the same device as the input tensor"),
            CT_ERR_RUNTIME);
  int64_t dim = ct__wrap_dim(has_dim ? dim_arg : 0, t->ndim);
  if (dim < 0) return CT_ERR_INDEX;
  if (!ct__check_in_storage(t) || !ct__check_in_storage(q)) return ct_last_error();
  /* quantile_output_shape: q's size, then the kept dims */
  int64_t shape[t->ndim + 1], nd = 0;
  if (q->ndim > 0) shape[nd++] = q->numel;
  if (has_dim && t->ndim > 0) {
    for (int64_t d = 0; d < t->ndim; d++)
      if (d != dim) shape[nd++] = t->sizes[d];
      else if (o->keepdim) shape[nd++] = 1;
  } else if (o->keepdim) {
    for (int64_t d = 0; d < t->ndim; d++) shape[nd++] = 1;
  }
  /* the functional form with a 1-D q returns torch's view: its values laid out as (kept dims..., q) */
  bool q_last = q->ndim > 0 && !out;
  ct_tensor *r;
  if (q_last) {
    int64_t bshape[t->ndim + 1], bst[t->ndim + 1], vst[t->ndim + 1];
    for (int64_t d = 1; d < nd; d++) bshape[d - 1] = shape[d];
    bshape[nd - 1] = shape[0];
    ct__contiguous_strides(nd, bshape, bst);
    vst[0] = bst[nd - 1];
    for (int64_t d = 1; d < nd; d++) vst[d] = bst[d - 1];
    ct_tensor *base = ct__empty(nd, bshape, dt, ct__tdevice(t));
    r = base ? ct__view(base, nd, shape, vst, 0) : NULL;
    ct_release(base);
  } else {
    r = ct__empty(nd, shape, dt, ct__tdevice(t));
  }
  if (!r) return ct_last_error();
  if (ct__sort_is_meta(op, t)) {
    *res = r;
    return CT_OK;
  }
  /* the q values: all in [0, 1] (NaN is not) */
  ct_tensor *qc = ct__contiguous_impl(q, CT_CONTIGUOUS_FORMAT);
  if (!qc) return (ct_release(r), ct_last_error());
  int64_t nq = q->numel;
  const char *qp = ct__tdata(qc);
  for (int64_t j = 0; j < nq; j++) {
    double v = dt == CT_FLOAT32 ? ((const float *)qp)[j] : ((const double *)qp)[j];
    if (!(v >= 0 && v <= 1)) {
      ct_release(qc);
      ct_release(r);
      ct__error(CT_ERR_RUNTIME, "quantile() q values must be in the range [0, 1]");
      return CT_ERR_RUNTIME;
    }
  }
  /* rows: the input with dim moved last (flattened without a dim), sorted */
  ct_tensor *src;
  int64_t sdim;
  if (!has_dim || t->ndim == 0) {
    ct_tensor *c = ct__contiguous_impl(t, CT_CONTIGUOUS_FORMAT);
    int64_t n = t->numel, one = 1;
    src = c ? ct__view(c, 1, &n, &one, c->offset) : NULL;
    ct_release(c);
    sdim = 0;
  } else {
    int64_t order[t->ndim];
    for (int64_t d = 0, j = 0; d < t->ndim; d++)
      if (d != dim) order[j++] = d;
    order[t->ndim - 1] = dim;
    src = ct__permute_unchecked(t, order);
    sdim = t->ndim - 1;
  }
  ct_tensor *sv = NULL, *si = NULL, *rows = NULL;
  ct_status s = src ? ct__sort_impl(&quantile_op, src, sdim, false, false, &sv, &si) : ct_last_error();
  if (s == CT_OK && !(rows = ct__contiguous_impl(sv, CT_CONTIGUOUS_FORMAT))) s = ct_last_error();
  if (s == CT_OK) {
    int64_t n = src->sizes[sdim], outer = src->numel / n;
    /* element (j, i) of the result: q j, row i */
    int64_t sj = q_last ? 1 : outer, si = q_last ? nq : 1;
    for (int64_t j = 0; j < nq; j++) {
      for (int64_t i = 0; i < outer; i++) {
        if (dt == CT_FLOAT32)
          ((float *)ct__tdata(r))[j * sj + i * si] = quantile_row_float(
              (const float *)ct__tdata(rows) + i * n, n, ((const float *)qp)[j], mode, ignore_nan);
        else
          ((double *)ct__tdata(r))[j * sj + i * si] = quantile_row_double(
              (const double *)ct__tdata(rows) + i * n, n, ((const double *)qp)[j], mode, ignore_nan);
      }
    }
  }
  ct_release(src);
  ct_release(sv);
  ct_release(si);
  ct_release(rows);
  ct_release(qc);
  if (s != CT_OK) {
    ct_release(r);
    return s;
  }
  *res = r;
  return CT_OK;
}

/* quantile(self, double q): the range check, then q as a 0-dim tensor of the input's dtype. */
static ct_status scalar_q(double q, const ct_tensor *t, ct_tensor **qt) {
  *qt = NULL;
  if (!(q >= 0 && q <= 1)) {
    ct__error(CT_ERR_RUNTIME, "quantile() q must be in the range [0, 1] but got %g", q);
    return CT_ERR_RUNTIME;
  }
  *qt = ct__empty(0, NULL, (ct_dtype)t->dtype, ct__tdevice(t));
  if (!*qt) return ct_last_error();
  if (t->device_type != CT_META) ct__store_scalar((ct_dtype)t->dtype, ct__tdata(*qt), ct_scalar_double(q));
  return CT_OK;
}

/* rp: read after the call that made it (a separate argument would be read in any order) */
static ct_status finish(ct_status s, ct_tensor **rp, ct_tensor *out, ct_tensor **result, const ct_tensor *t) {
  ct_tensor *r = *rp;
  if (s != CT_OK) return s;
  /* out.copy_(result): autograd's in-place rule on out, after every check */
  if (out && !ct__check_inplace(out)) {
    ct_release(r);
    return CT_ERR_RUNTIME;
  }
  if (out) {
    s = ct__sort_write_outs(&r, &out, 1);
    if (s == CT_OK) ct__grad_mark_out(out, &t, 1); /* copy_ from a result that requires grad */
    return s;
  }
  *result = ct__own(r);
  return *result ? CT_OK : ct_last_error();
}

#define QUANTILE_API(NAME, OPD, IGNORE)                                                           \
  ct_tensor *ct_##NAME(const ct_tensor *t, const ct_tensor *q, const ct_quantile_opts *opts) {    \
    CT__OP_ENTER_PTR(&OPD, t, t, q);                                                              \
    ct_tensor *r = NULL, *res = NULL;                                                             \
    finish(quantile_impl(&OPD, IGNORE, t, q, opts, NULL, &r), &r, NULL, &res, t);                    \
    return res;                                                                                   \
  }                                                                                               \
  ct_status ct_##NAME##_out(ct_tensor *out, const ct_tensor *t, const ct_tensor *q,               \
                            const ct_quantile_opts *opts) {                                       \
    CT__OP_ENTER_STATUS(&OPD, t, out, t, q);                                                      \
    ct_tensor *r = NULL;                                                                          \
    return finish(quantile_impl(&OPD, IGNORE, t, q, opts, out, &r), &r, out, NULL, t);               \
  }                                                                                               \
  ct_tensor *ct_##NAME##_scalar(const ct_tensor *t, double q, const ct_quantile_opts *opts) {     \
    CT__OP_ENTER_PTR(&OPD, t, t);                                                                 \
    ct_tensor *qt, *r = NULL, *res = NULL;                                                        \
    if (scalar_q(q, t, &qt) != CT_OK) return NULL;                                                \
    finish(quantile_impl(&OPD, IGNORE, t, qt, opts, NULL, &r), &r, NULL, &res, t);                   \
    ct_release(qt);                                                                               \
    return res;                                                                                   \
  }                                                                                               \
  ct_status ct_##NAME##_scalar_out(ct_tensor *out, const ct_tensor *t, double q,                  \
                                   const ct_quantile_opts *opts) {                                \
    CT__OP_ENTER_STATUS(&OPD, t, out, t);                                                         \
    ct_tensor *qt, *r = NULL;                                                                     \
    ct_status s = scalar_q(q, t, &qt);                                                            \
    if (s == CT_OK) s = finish(quantile_impl(&OPD, IGNORE, t, qt, opts, out, &r), &r, out, NULL, t); \
    ct_release(qt);                                                                               \
    return s;                                                                                     \
  }
QUANTILE_API(quantile, quantile_op, false)
QUANTILE_API(nanquantile, nanquantile_op, true)
