/* The generic reduction entry and argument helpers shared by every reduction op. */
#include "ops/create_internal.h"
#include "ops/reduce/red.h"

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

int64_t ct__red_count(const ct_tensor *t, uint64_t mask) {
  int64_t n = 1;
  for (int64_t d = 0; d < t->ndim; d++)
    if ((mask >> d) & 1u) n *= t->sizes[d];
  return n;
}

const char *ct__red_type_name(ct_dtype dt) {
  static const char *const names[CT_NUM_DTYPES + 1] = {
      "nullptr (uninitialized)", "bool", "unsigned char", "signed char", "short int", "int", "long int",
      "c10::Half", "c10::BFloat16", "float", "double", "c10::complex<float>", "c10::complex<double>"};
  return names[ct__dtype_valid(dt) ? dt : 0];
}

bool ct__red_check_out_dtype(const ct_tensor *out, ct_dtype dt) {
  if (!out || (ct_dtype)out->dtype == dt) return true;
  ct__error(CT_ERR_RUNTIME, "Expected out tensor to have dtype %s, but got %s instead", ct__red_type_name(dt),
            ct__red_type_name((ct_dtype)out->dtype));
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
static ct_tensor *cast_copy(const ct_tensor *t, ct_dtype dt) {
  ct_resolved_opts o = {.dtype = dt, .device = ct__tdevice(t), .memory_format = CT_PRESERVE_FORMAT};
  ct_tensor *r = ct__empty_like_with(t, CT_PRESERVE_FORMAT, &o);
  if (!r) return NULL;
  if (ct__copy_into(r, t) != CT_OK) {
    ct_release(r);
    return NULL;
  }
  return r;
}

static bool same_shape(const ct_tensor *t, const int64_t *shape, int64_t nd) {
  if (t->ndim != nd) return false;
  for (int64_t i = 0; i < nd; i++)
    if (t->sizes[i] != shape[i]) return false;
  return true;
}

ct_status ct__red_exec(ct_red_call *c, ct_tensor **result) {
  /* operands whose storage shrank under them (a flag test each) */
  if (!ct__check_in_storage(c->in)) return CT_ERR_RUNTIME;
  for (int o = 0; o < c->n_out; o++)
    if (c->out[o] && !ct__check_in_storage(c->out[o])) return CT_ERR_RUNTIME;
  int64_t shape[64];
  int64_t nd = ct__red_shape(c->in, c->mask, c->keepdim, shape);
  ct_tensor *made[CT_RED_MAX_OUT] = {0};
  ct_tensor *tmp = NULL;
  ct_status s = CT_ERR_OUT_OF_MEMORY;
  const ct_tensor *kin = c->in;
  if (!c->fill && (ct_dtype)c->in->dtype != c->kdtype) {
    tmp = cast_copy(c->in, c->kdtype);
    if (!tmp) goto fail;
    kin = tmp;
  }
  for (int o = 0; o < c->n_out; o++) {
    if (c->out[o]) continue;
    made[o] = ct__empty(nd, shape, c->out_dtype[o], ct__tdevice(c->in));
    if (!made[o]) goto fail;
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
  } else {
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
void ct__red_store_c128(char *p, ct_dtype dt, double re, double im) {
  switch (dt) {
    case CT_COMPLEX64: ((float *)p)[0] = (float)re, ((float *)p)[1] = (float)im; break;
    case CT_COMPLEX128: ((double *)p)[0] = re, ((double *)p)[1] = im; break;
    default: ct__red_store_f64(p, dt, re);
  }
}

double ct__red_load_f64(const char *p, ct_dtype dt) {
  switch (dt) {
    case CT_BOOL: return *(const bool *)p;
    case CT_UINT8: return *(const uint8_t *)p;
    case CT_INT8: return *(const int8_t *)p;
    case CT_INT16: return *(const int16_t *)p;
    case CT_INT32: return *(const int32_t *)p;
    case CT_INT64: return (double)*(const int64_t *)p;
    case CT_FLOAT16: return ct__half_to_float(*(const uint16_t *)p);
    case CT_BFLOAT16: return ct__bfloat16_to_float(*(const uint16_t *)p);
    case CT_FLOAT32: return *(const float *)p;
    case CT_FLOAT64: return *(const double *)p;
    case CT_COMPLEX64: return ((const float *)p)[0];
    case CT_COMPLEX128: return ((const double *)p)[0];
    default: return 0;
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
