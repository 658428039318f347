/* The generic reduction entry and argument helpers shared by every reduction op. */
#include "core/layout_rules.h"
#include "core/out_wrapper.h"
#include "ops/create_internal.h"
#include "ops/reduce/red.h"

/* The meta row of every reduction: compared by address, never called. */
const ct_red_kernel ct__red_meta_kernel = {0};
#define META_ENTRY(E, T, CT, LD, ST) [E] = &ct__red_meta_kernel,
const ct_red_table ct__red_meta_table = {CT_DT_ALL(META_ENTRY)};

bool ct__red_mask(const ct_tensor *t, ct_dims dims, uint64_t *mask) {
  /* PyTorch wraps every dim first (the first out of range raises), then looks for repeats; the
     argument checks themselves are ct__red_mask_1pass's */
  if (!ct__check_list(dims, "dims")) return false;
  if (t->ndim <= 64)
    for (int64_t i = 0; i < dims.ndim; i++)
      if (ct__wrap_dim(dims.data[i], t->ndim) < 0) return false;
  return ct__red_mask_1pass(t, dims, mask);
}

bool ct__red_mask_1pass(const ct_tensor *t, ct_dims dims, uint64_t *mask) {
  int64_t nd = t->ndim;
  if (!ct__check_list(dims, "dims")) return false;
  if (nd > 64) {
    ct__error(CT_ERR_RUNTIME, "only tensors with up to 64 dims are supported");
    return false;
  }
  if (dims.ndim == 0) {
    *mask = nd == 64 ? ~(uint64_t)0 : (((uint64_t)1 << nd) - 1);
    return true;
  }
  uint64_t m = 0;
  for (int64_t i = 0; i < dims.ndim; i++) {
    int64_t d = ct__wrap_dim(dims.data[i], nd);
    if (d < 0) return false;
    if ((m >> d) & 1u) {
      ct__error(CT_ERR_RUNTIME, "dim %lld appears multiple times in the list of dims", (long long)d);
      return false;
    }
    m |= (uint64_t)1 << d;
  }
  *mask = nd == 0 ? 0 : m;
  return true;
}

bool ct__prims_reduction_dims(const ct_tensor *t, ct_dims dims, uint64_t *mask) {
  int64_t nd = t->ndim, rank = nd ? nd : 1;
  if (!ct__check_list(dims, "dims")) return false;
  for (int64_t i = 0; i < dims.ndim; i++) {
    int64_t d = dims.data[i];
    if (d < -rank || d >= rank) {
      ct__error(CT_ERR_INDEX,
                "Dimension out of range (expected to be in range of [%lld, %lld], but got %lld)",
                (long long)-rank, (long long)(rank - 1), (long long)d);
      return false;
    }
  }
  uint64_t m = 0;
  for (int64_t i = 0; i < dims.ndim; i++) {
    int64_t d = dims.data[i] < 0 ? dims.data[i] + rank : dims.data[i];
    if ((m >> d) & 1u) {
      ct__error(CT_ERR_RUNTIME, "duplicate value in the list of dims");
      return false;
    }
    m |= (uint64_t)1 << d;
  }
  *mask = dims.ndim == 0 ? (nd == 64 ? ~(uint64_t)0 : (((uint64_t)1 << nd) - 1)) : nd == 0 ? 0 : m;
  return true;
}

int64_t ct__red_shape(const ct_tensor *t, uint64_t mask, bool keepdim, int64_t *shape) {
  int64_t n = 0;
  for (int64_t d = 0; d < t->ndim; d++) {
    if ((mask >> d) & 1u) {
      if (keepdim) shape[n++] = 1;
    } else {
      shape[n++] = t->sizes[d];
    }
  }
  return n;
}

/* Wrapping product: a subset of a non-empty tensor's sizes always fits; next to a zero size the
   partial product of huge sizes may not, and the zero makes the result 0 either way. */
int64_t ct__red_count(const ct_tensor *t, uint64_t mask) {
  uint64_t n = 1;
  for (int64_t d = 0; d < t->ndim; d++)
    if ((mask >> d) & 1u) n *= (uint64_t)t->sizes[d];
  return (int64_t)n;
}

bool ct__red_check_out_dtype(const ct_tensor *out, ct_dtype dt) {
  if (!out || (ct_dtype)out->dtype == dt) return true;
  ct__error(CT_ERR_RUNTIME, "Expected out tensor to have dtype %s, but got %s instead",
            ct__dt(dt)->typemeta_name, ct__dt((ct_dtype)out->dtype)->typemeta_name);
  return false;
}

void ct__red_not_implemented(const char *kernel, ct_dtype dt) {
  ct__error(CT_ERR_RUNTIME, "\"%s\" not implemented for '%s'", kernel, ct__dt(dt)->scalar_name);
}

bool ct__red_single_dim(const char *op, ct_dims dims, bool *has_dim, int64_t *dim) {
  if (!ct__check_list(dims, "dims")) return false;
  if (dims.ndim > 1) {
    ct__error(CT_ERR_TYPE, "%s(): argument 'dim' must be int, not tuple", op);
    return false;
  }
  *has_dim = dims.ndim == 1;
  *dim = dims.ndim == 1 ? dims.data[0] : 0;
  return true;
}

bool ct__red_no_dtype(const char *op, const ct_reduce_opts *o) {
  if (o && o->dtype != CT_DTYPE_UNSET) {
    ct__error(CT_ERR_TYPE, "%s() got an unexpected keyword argument 'dtype'", op);
    return false;
  }
  return true;
}

/* PyTorch's self.to(dtype): a copy in the same layout (empty_like, preserve format). */
#define cast_copy(t, dt) ct__copy_as(t, dt, CT_PRESERVE_FORMAT)

#define same_shape(t, shape, nd) ct__has_sizes(t, nd, shape)

ct_scalar ct__red_extreme(ct_dtype dt, bool highest) {
  const ct_dtype_traits *t = ct__dt(dt);
  if (t->category == CT_CAT_BOOL) return ct_scalar_bool(highest);
  if (t->category == CT_CAT_INT) return ct_scalar_int(highest ? ct__int_max(t) : ct__int_min(t));
  return ct_scalar_double(highest ? INFINITY : -INFINITY);
}

/* resize_out's check (after the dtype's, which the ops make): every out= tensor on the input's device,
   before anything is touched ("Expected out tensor to have device meta, but got cpu instead"). */
bool ct__red_check_out_devices(const ct_red_call *c) {
  for (int o = 0; o < c->n_out; o++) {
    if (!c->out[o] || ct_device_equal(ct__tdevice(c->out[o]), ct__tdevice(c->in))) continue;
    if (c->device_rule == CT_RED_DEV_COPY) return ct__check_copy_devices(c->out[o], c->in);
    if (c->device_rule == CT_RED_DEV_RESIZE_OUT)
      return ct__resize_out_ok(c->out[o], CT_DTYPE_UNSET, ct__tdevice(c->in));
    bool in_first =
        c->in->device_type != CT_CPU; /* the iterator's common device: its first operand not on the CPU */
    char a[32], b[32];
    ct_device_str(ct__tdevice(in_first ? c->in : c->out[o]), a, sizeof a);
    ct_device_str(ct__tdevice(in_first ? c->out[o] : c->in), b, sizeof b);
    ct__error(CT_ERR_RUNTIME,
              "Expected all tensors to be on the same device, but found at least two devices, %s and %s!", a,
              b);
    return false;
  }
  return true;
}

/* Whether a geometry on t's storage and t itself reach a common byte (spans held at the int64 limits: a
   view with a stride near them, made on meta, overflowed the products). */
static bool spans_meet(const ct_tensor *t, int64_t nd, const int64_t *sizes, const int64_t *strides, int64_t offset,
                       int64_t isz) {
  int64_t lo, hi, tlo, thi;
  ct__byte_span(nd, sizes, strides, offset, isz, &lo, &hi);
  ct__byte_span(t->ndim, t->sizes, t->strides, t->offset, (int64_t)ct__itemsize((ct_dtype)t->dtype), &tlo,
                &thi);
  return lo < hi && tlo < thi && lo < thi && tlo < hi;
}

/* Sizes and strides over the input's dims (in_nd, in_sizes: the input's geometry before any resize, for
   the input itself may be the out) of out (given, result-shaped): reduced dims and the extra ones size 1,
   kept dims out's own strides. */
static void out_geometry(const ct_red_call *c, int64_t in_nd, const int64_t *in_sizes, const ct_tensor *out,
                         uint64_t extra, int64_t *sizes, int64_t *strides) {
  int64_t j = 0;
  for (int64_t d = 0; d < in_nd; d++) {
    bool red = (c->mask >> d) & 1u;
    if (red && !c->keepdim) {
      sizes[d] = 1, strides[d] = 0;
      continue;
    }
    strides[d] = out->strides[j++];
    sizes[d] = red || ((extra >> d) & 1u) ? 1 : in_sizes[d];
  }
}

/* How the given outputs meet the input: 0 not at all, 1 they share memory with it or repeat elements
   (*extra: the kept dims over which an output keeping its shape has stride 0), -1 refused (recorded). */
static int aliasing(const ct_red_call *c, const int64_t *shape, int64_t nd, uint64_t *extra) {
  int found = 0;
  *extra = 0;
  for (int o = 0; o < c->n_out; o++) {
    const ct_tensor *out = c->out[o];
    if (!out) continue;
    int64_t isz = (int64_t)ct__itemsize((ct_dtype)out->dtype);
    if (c->check_overlap) { /* on the geometry out will have, before it has it */
      int64_t st[64];
      ct__contiguous_strides(nd, shape, st);
      bool keep = same_shape(out, shape, nd);
      ct_tensor *probe = keep ? NULL : ct__view(out, nd, shape, st, out->offset);
      const ct_tensor *g = keep ? out : probe;
      bool ok = g && ct__check_no_internal_overlap(g) && (out == c->in || ct__check_no_partial_overlap(g, c->in));
      ct_release(probe);
      if (!ok) return -1;
    }
    if (same_shape(out, shape, nd)) {
      int64_t j = 0;
      for (int64_t d = 0; d < c->in->ndim; d++) {
        bool red = (c->mask >> d) & 1u;
        if (red && !c->keepdim) continue;
        if (!red && c->in->sizes[d] > 1 && out->strides[j] == 0) *extra |= (uint64_t)1 << d;
        j++;
      }
      if (out == c->in ||
          (out->storage == c->in->storage && spans_meet(c->in, out->ndim, out->sizes, out->strides, out->offset, isz)))
        found = 1;
    } else if (out == c->in) {
      found = 1; /* resizing it changes the input too, even an empty one */
    } else if (out->storage == c->in->storage) {
      int64_t st[64];
      ct__contiguous_strides(nd, shape, st); /* resize_output's layout */
      if (spans_meet(c->in, nd, shape, st, out->offset, isz)) found = 1;
    }
  }
  if (*extra && c->no_expanded_out) {
    ct__error(CT_ERR_RUNTIME,
              "unsupported operation: more than one element of the written-to tensor refers to a single memory "
              "location. Please clone() the tensor before performing the operation.");
    return -1;
  }
  return *extra ? 1 : found;
}

static ct_status resize_outs(ct_red_call *c, const int64_t *shape, int64_t nd) {
  for (int o = 0; o < c->n_out; o++) /* all or none: values' resize must not stand when indices' fails */
    if (c->out[o] && !same_shape(c->out[o], shape, nd) && !ct__tensor_resize_ok(c->out[o], nd, shape))
      return ct_last_error();
  for (int o = 0; o < c->n_out; o++) {
    if (!c->out[o] || same_shape(c->out[o], shape, nd)) continue;
    ct_status s = ct__tensor_resize(c->out[o], nd, shape, NULL);
    if (s != CT_OK) return s;
  }
  return CT_OK;
}

/* A reduction whose out= tensors share memory with the input, or repeat elements, as PyTorch 1.13 runs it:
   - An output's dims of stride 0 (an expanded out) are reduced dims to TensorIterator: every element that
     lands on one memory location is reduced into it (sum(x, 0, out=zeros(1).expand(3)) is the sum of all of
     x, var the variance of all). ctorch reduces over those dims too and writes the result once.
   - Ops whose kernel fills the output with the identity and accumulates into it (ct_red_call.alias_fill)
     see the identity where the input overlaps the output: sum(x, 0, out=x[0]) sums the identity and row 1.
     ctorch resizes, fills, then reduces the input as it now is (into temporaries: an output never changes
     the input under the reduction; where PyTorch's own result would depend on its loop order -- an output
     element read again as the input of a later output -- ctorch's is this one) and writes the results.
     The input itself as out: PyTorch resizes it first, so it reduces the identity it just filled
     (sum(x3, 0, out=x3) is 0); ctorch writes the identity. (Where the input's new rank no longer holds the
     dims PyTorch raises an IndexError after filling; ctorch gives the identity.)
   - The other ops compute from the input as it was and then write (var(x, 0, out=x[0]) is the variance
     of the columns), PyTorch's order too except where it recomputes over an input it has resized (the input
     itself as out of var, argmax, max: ctorch gives the values of the input as it was).
   The input's data is read after any resize, through its storage, so a grown storage is never read
   where it was. */
static ct_status exec_aliased(ct_red_call *c, const int64_t *shape, int64_t nd, uint64_t extra, ct_tensor **result) {
  ct_status s = CT_OK;
  bool same_resize = false;
  for (int o = 0; o < c->n_out; o++)
    if (c->out[o] == c->in && !same_shape(c->out[o], shape, nd)) same_resize = true;
  ct_tensor *kin = NULL, *r[CT_RED_MAX_OUT] = {0}, *made[CT_RED_MAX_OUT] = {0};
  /* PyTorch converts the input to the out= tensor's dtype (make_reduction's self.to) before its kernel
     fills the output; ctorch's own conversions to a kernel dtype (int32 sums in int64) come after */
  bool snapshot = c->out[0] && (ct_dtype)c->in->dtype != (ct_dtype)c->out[0]->dtype && (ct_dtype)c->in->dtype != c->kdtype;
  if (snapshot && !(kin = cast_copy(c->in, c->kdtype))) return ct__null_status();
  ct_red_call t = *c;
  t.in = kin ? kin : c->in;
  t.mask = c->mask | extra;
  t.keepdim = true;
  t.no_own = true;
  t.alias_fill = t.no_expanded_out = false;
  if (extra) t.ctx.count = ct__red_count(c->in, t.mask);
  for (int o = 0; o < c->n_out; o++) {
    t.out[o] = NULL;
    if (c->out[o]) t.out_dtype[o] = (ct_dtype)c->out[o]->dtype;
  }
  int64_t vs[64], vt[64], in_sizes[64], in_nd = c->in->ndim;
  memcpy(in_sizes, c->in->sizes, (size_t)in_nd * sizeof(int64_t));
  if (c->alias_fill) {
    s = resize_outs(c, shape, nd);
    for (int o = 0; o < c->n_out && s == CT_OK; o++) {
      if (!c->out[o]) continue;
      out_geometry(c, in_nd, in_sizes, c->out[o], extra, vs, vt);
      ct_tensor *v = ct__view(c->out[o], in_nd, vs, vt, c->out[o]->offset);
      s = v ? ct__fill(v, c->alias_identity) : ct__null_status();
      ct_release(v);
    }
    if (same_resize || s != CT_OK) goto done;
  }
  s = ct__red_exec(&t, r);
  if (s == CT_OK && !c->alias_fill) s = resize_outs(c, shape, nd);
  for (int o = 0; o < c->n_out && s == CT_OK; o++) {
    ct_tensor *dst = c->out[o];
    if (!dst && !(dst = made[o] = ct__empty(nd, shape, t.out_dtype[o], ct__tdevice(c->in)))) {
      s = ct_last_error(); /* what empty recorded: "Storage size calculation overflowed" is a RuntimeError */
      break;
    }
    out_geometry(c, in_nd, in_sizes, dst, extra, vs, vt);
    ct_tensor *v = ct__view(dst, in_nd, vs, vt, dst->offset);
    s = v ? ct__copy_into(v, r[o]) : ct__null_status();
    ct_release(v);
  }
  if (s == CT_OK) {
    for (int o = 0; o < c->n_out; o++) {
      if (c->out[o]) continue;
      result[o] = c->no_own ? made[o] : ct__own(made[o]);
      made[o] = NULL;
    }
  }
done:
  ct_release(kin);
  for (int o = 0; o < c->n_out; o++) ct_release(r[o]), ct_release(made[o]);
  return s;
}

bool ct__red_check_outs(const ct_red_call *c) {
  int64_t shape[64];
  int64_t nd = ct__red_shape(c->in, c->mask, c->keepdim, shape);
  if (!ct__red_check_out_devices(c)) return false;
  uint64_t extra;
  return c->in->device_type == CT_META || aliasing(c, shape, nd, &extra) >= 0;
}

/* torch's Conjugate/Negative fallbacks: the kernel reads resolved copies of an input and aux with math
   bits; an out= tensor with them gets the result through a resolved temporary, copied back with its bits. */
static ct_status exec_resolved(ct_red_call *c, ct_tensor **result) {
  ct_math_bits_frame f;
  const ct_tensor *in[2] = {c->in, c->aux};
  ct_status s = ct__math_bits_begin(&f, 2, in, c->n_out, c->out);
  if (s != CT_OK) return s;
  ct_red_call r = *c;
  r.in = f.in[0];
  r.aux = f.in[1];
  for (int o = 0; o < c->n_out; o++) r.out[o] = f.out[o];
  s = ct__red_exec(&r, result);
  c->ctx = r.ctx; /* what the run recorded there (the outputs' dtypes) */
  return ct__math_bits_end(&f, s);
}

ct_status ct__red_exec(ct_red_call *c, ct_tensor **result) {
  if (CT_UNLIKELY(ct__math_bits_any(1, &c->in, c->n_out, c->out) || (c->aux && ct__math_bits(c->aux))))
    return exec_resolved(c, result);
  if (c->in->ndim > 64) { /* the dim mask's width, as torch's DimMask (a whole reduction too, here) */
    ct__error(CT_ERR_RUNTIME, "only tensors with up to 64 dims are supported");
    return CT_ERR_RUNTIME;
  }
  /* operands whose storage shrank under them (a flag test each) */
  if (!ct__check_in_storage(c->in)) return CT_ERR_RUNTIME;
  for (int o = 0; o < c->n_out; o++)
    if (c->out[o] && !ct__check_in_storage(c->out[o])) return CT_ERR_RUNTIME;
  int64_t shape[64];
  int64_t nd = ct__red_shape(c->in, c->mask, c->keepdim, shape);
  if (!ct__red_check_out_devices(c)) return ct_last_error();
  bool meta = c->k == &ct__red_meta_kernel; /* shape only: no memory for outputs to share */
  if (!c->fill && !meta) {
    uint64_t extra;
    int a = aliasing(c, shape, nd, &extra);
    if (a < 0) return ct_last_error();
    if (a > 0) return exec_aliased(c, shape, nd, extra, result);
  }
  ct_tensor *made[CT_RED_MAX_OUT] = {0};
  ct_tensor *tmp = NULL;
  ct_status s = CT_ERR_OUT_OF_MEMORY;
  const ct_tensor *kin = c->in;
  if (!c->fill && (ct_dtype)c->in->dtype != c->kdtype) {
    tmp = cast_copy(c->in, c->kdtype);
    if (!tmp) {
      s = ct_last_error(); /* what the copy recorded (a storage size overflow is a RuntimeError) */
      goto fail;
    }
    kin = tmp;
  }
  for (int o = 0; o < c->n_out; o++) {
    if (c->out[o]) continue;
    made[o] = ct__empty(nd, shape, c->out_dtype[o], ct__tdevice(c->in));
    if (!made[o]) {
      s = ct_last_error();
      goto fail;
    }
  }
  for (int o = 0; o < c->n_out; o++) {
    if (!c->out[o] || same_shape(c->out[o], shape, nd)) continue;
    s = ct__tensor_resize(c->out[o], nd, shape, NULL);
    if (s != CT_OK) goto fail;
  }
  ct_red_config cfg = {.in = kin, .mask = c->mask, .n_out = c->n_out, .keepdim = c->keepdim, .aux = c->aux,
                       .ordered = c->ordered};
  for (int o = 0; o < c->n_out; o++) cfg.out[o] = c->out[o] ? c->out[o] : made[o];
  for (int o = 0; o < c->n_out; o++) c->ctx.out_dtype[o] = (ct_dtype)cfg.out[o]->dtype;
  if (c->fill) {
    for (int o = 0; o < c->n_out; o++) ct__fill(cfg.out[o], c->fill_value);
  } else if (!meta) {
    const ct_red_kernel *k = c->k_lastdim && ct__reduce_is_lastdim(&cfg) ? c->k_lastdim : c->k;
    s = ct__reduce_run(&cfg, k, &c->ctx);
    if (s != CT_OK) goto fail;
  }
  ct_release(tmp);
  if (result) {
    for (int o = 0; o < c->n_out; o++) {
      if (c->out[o]) continue;
      result[o] = c->no_own ? made[o] : ct__own(made[o]);
      made[o] = NULL;
      if (!result[o]) {
        for (int q = o + 1; q < c->n_out; q++) ct_release(made[q]);
        return CT_ERR_OUT_OF_MEMORY;
      }
    }
  }
  for (int o = 0; o < c->n_out; o++) ct_release(made[o]);
  return CT_OK;
fail:
  ct_release(tmp);
  for (int o = 0; o < c->n_out; o++) ct_release(made[o]);
  return s;
}

ct_status ct__red_exec2(ct_red_call *c, ct_tensor **a, ct_tensor **b) {
  ct_tensor *r[2] = {0};
  c->no_own = true;
  ct_status s = ct__red_exec(c, r);
  ct_tensor **dst[2] = {a, b};
  for (int o = 0; o < 2; o++) {
    if (!dst[o]) {
      ct_release(r[o]);
      continue;
    }
    *dst[o] = s == CT_OK ? ct__own(r[o]) : NULL;
    if (s == CT_OK && !*dst[o]) s = CT_ERR_OUT_OF_MEMORY;
  }
  if (s != CT_OK) {
    for (int o = 0; o < 2; o++)
      if (dst[o] && *dst[o]) {
        ct_release(*dst[o]);
        *dst[o] = NULL;
      }
  }
  return s;
}

ct_tensor *ct__red_exec1(ct_red_call *c) {
  ct_tensor *r = NULL;
  ct__red_exec(c, &r);
  return r;
}

/* ---- stores ---- */
#define STORE_C128_CASE(A, S, T, K, ...) STORE_C128_##K(S, T)
#define STORE_C128_BOOL(S, T)
#define STORE_C128_INT(S, T)
#define STORE_C128_HALF(S, T)
#define STORE_C128_FLOAT(S, T)
#define STORE_C128_COMPLEX(S, T)                           \
  case CT_##S: {                                           \
    T r_ = {(__typeof__(r_.re))re, (__typeof__(r_.re))im}; \
    memcpy(p, &r_, sizeof r_);                             \
    break;                                                 \
  }
/* a complex result: both parts into a complex output, the real part into any other */
void ct__red_store_c128(char *p, ct_dtype dt, double re, double im) {
  switch (dt) {
    CT_DTYPE_LIST(STORE_C128_CASE, ~)
    default: ct__red_store_f64(p, dt, re);
  }
}

/* c10::complex's division: an infinite part meets the other part's zero multiplier (NaN), as in PyTorch */
#define CDIV_N(RT, a, b, n, re, im)                                                                             \
  do {                                                                                                          \
    RT c_ = (RT)(n), d_ = 0;                                                                                    \
    if (c_ == 0) {                                                                                              \
      re = (a) / c_, im = (b) / d_;                                                                             \
    } else {                                                                                                    \
      RT rat_ = d_ / c_;                                                                                        \
      double scl_ = 1.0 / (double)(c_ + d_ * rat_);                                                             \
      re = (RT)((double)((a) + (b) * rat_) * scl_);                                                             \
      im = (RT)((double)((b) - (a) * rat_) * scl_);                                                             \
    }                                                                                                           \
  } while (0)

void ct__red_complex_div_n(double re, double im, int64_t n, bool single, double *ore, double *oim) {
  if (single) {
    float a = (float)re, b = (float)im, r, i;
    CDIV_N(float, a, b, n, r, i);
    *ore = r, *oim = i;
  } else {
    double r, i;
    CDIV_N(double, re, im, n, r, i);
    *ore = r, *oim = i;
  }
}
