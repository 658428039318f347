/* uniform_, rand, rand_like: one draw per element in TensorIterator order, x in [0, 1) from the low
   mantissa-many bits, then fma(x, to - from, from) in the dtype's compute type. */
#include <math.h>

#include "random/random_internal.h"

typedef struct uniform_ctx {
  ct_generator *g;
  ct_dtype dt;
  double from, range; /* float64 */
  float ffrom, frange; /* the other dtypes compute in float */
  bool unit;           /* [0, 1): fma(x, 1, 0) is x, so skip the (libm) fma */
} uniform_ctx;

static void uniform_run(void *vctx, char *const *ptr, const int64_t *stride, int64_t n) {
  uniform_ctx *c = vctx;
  char *p = ptr[0];
  int64_t st = stride[0];
  uint32_t buf[CT_RANDOM_CHUNK];
  if (c->unit && st == (int64_t)ct__itemsize(c->dt) && (c->dt == CT_FLOAT32 || c->dt == CT_FLOAT64)) {
    /* Contiguous rand: draw straight into the output and convert in place (vectorizes). */
    bool f32 = c->dt == CT_FLOAT32;
    ct__mt_fill(&c->g->mt, (uint32_t *)(void *)p, f32 ? n : 2 * n);
    if (f32)
      ct__u24_inplace(p, n);
    else
      ct__u53_inplace(p, n);
    return;
  }
  if (c->dt == CT_FLOAT64) {
    for (int64_t done = 0; done < n;) {
      int64_t m = n - done < CT_RANDOM_CHUNK / 2 ? n - done : CT_RANDOM_CHUNK / 2;
      ct__mt_fill(&c->g->mt, buf, 2 * m);
      for (int64_t i = 0; i < m; i++) {
        double x = ct__u53_pair(buf[2 * i], buf[2 * i + 1]);
        *(double *)(void *)(p + (done + i) * st) = c->unit ? x : fma(x, c->range, c->from);
      }
      done += m;
    }
    return;
  }
  for (int64_t done = 0; done < n;) {
    int64_t m = n - done < CT_RANDOM_CHUNK ? n - done : CT_RANDOM_CHUNK;
    ct__mt_fill(&c->g->mt, buf, m);
    for (int64_t i = 0; i < m; i++) {
      char *e = p + (done + i) * st;
      switch (c->dt) {
        case CT_FLOAT32: {
          float x = ct__u24(buf[i]);
          *(float *)(void *)e = c->unit ? x : fmaf(x, c->frange, c->ffrom);
          break;
        }
        case CT_FLOAT16: {
          float x = ct__u11(buf[i]);
          *(uint16_t *)(void *)e = ct__float_to_half(c->unit ? x : fmaf(x, c->frange, c->ffrom));
          break;
        }
        default: { /* bfloat16 */
          float x = ct__u8(buf[i]);
          *(uint16_t *)(void *)e = ct__float_to_bfloat16(c->unit ? x : fmaf(x, c->frange, c->ffrom));
          break;
        }
      }
    }
    done += m;
  }
}

/* from and to cast to the dtype; the other dtypes subtract in float and round to the dtype (c10's
   operator- for Half and BFloat16; exact for float). */
static void uniform_fill(ct_tensor *self, double from, double to, ct_generator *g) {
  uniform_ctx c = {.g = g, .dt = (ct_dtype)self->dtype};
  if (c.dt == CT_FLOAT64) {
    c.from = from;
    c.range = to - from;
    c.unit = from == 0.0 && to == 1.0;
  } else {
    float f = (float)ct__elem_round_f64(c.dt, from), t = (float)ct__elem_round_f64(c.dt, to);
    c.ffrom = f;
    c.frange = (float)ct__elem_round_f64(c.dt, t - f);
    c.unit = c.ffrom == 0.0f && c.frange == 1.0f;
  }
  ct__walk(self, NULL, uniform_run, &c);
}

typedef struct uniform_args {
  double from, to;
  const ct_sample_opts *opts;
} uniform_args;

/* (target: self or its view_as_real, whose storage is self's) */
CT_RANDOM_CPU_KERNEL(uniform, uniform_args, uniform_fill(t, a->from, a->to, g))
static const ct_op uniform_op = {CT_CREATE_OP("uniform_", "aten::uniform_", &uniform_cpu)};
/* torch.rand is empty + uniform_ (a layout it cannot fill is refused by uniform_), rand_like empty_like + uniform_ */
static const ct_create_op rand_op = {
    {CT_CREATE_OP("rand", "aten::uniform_", &uniform_cpu), .grad = CT_OP_GRAD_NONE}, CT_FACTORY_EMPTY};
static const ct_op rand_like_op = {CT_CREATE_OP("rand_like", "aten::uniform_", &uniform_cpu),
                                   .grad = CT_OP_GRAD_NONE};

ct_status ct__uniform_impl(ct_tensor *self, double from, double to, const ct_sample_opts *opts) {
  if (!ct__check_inplace(self)) return CT_ERR_RUNTIME;
  CT_RANDOM_THROUGH_BITS(self, ct__uniform_impl(tmp, from, to, opts));
  if (!ct__check_in_storage(self)) return CT_ERR_RUNTIME; /* its contiguous path writes directly */
  ct_tensor *target = self;
  if (ct_dtype_is_complex((ct_dtype)self->dtype)) {
    target = ct__complex_as_real(self);
    if (!target) return CT_ERR_OUT_OF_MEMORY;
  }
  ct_dtype dt = (ct_dtype)target->dtype;
  ct_status st = CT_OK;
  if (!ct__is_float_dtype(dt)) {
    ct__dispatch_error("check_uniform_bounds", dt);
    st = CT_ERR_RUNTIME;
  } else {
    double mx = ct__dt(dt)->max, mn = ct__dt(dt)->lowest; /* numeric_limits<scalar_t> */
    const char *tn = ct__dt(dt)->typemeta_name;
    if (!(from >= mn && from <= mx)) {
      ct__error(CT_ERR_RUNTIME, "from is out of bounds for %s", tn);
      st = CT_ERR_RUNTIME;
    } else if (!(to >= mn && to <= mx)) {
      ct__error(CT_ERR_RUNTIME, "to is out of bounds for %s", tn);
      st = CT_ERR_RUNTIME;
    } else if (!(from <= to)) {
      ct__error(CT_ERR_RUNTIME, "uniform_ expects to return a [from, to) range, but found from=%g > to=%g", from, to);
      st = CT_ERR_RUNTIME;
    } else if (!(to - from <= mx)) {
      ct__error(CT_ERR_RUNTIME,
                "uniform_ expects to-from <= std::numeric_limits<%s>::max(), but found to=%g and from=%g which "
                "result in to-from to exceed the limit",
                ct_dtype_scalar_name(dt), to, from);
      st = CT_ERR_RUNTIME;
    } else if (!ct__check_no_internal_overlap(target)) {
      st = CT_ERR_RUNTIME;
    }
  }
  if (st == CT_OK) st = ct__fill_run(&uniform_op, target, &(uniform_args){from, to, opts});
  if (target != self) ct_release(target);
  return st;
}

ct_status ct_uniform_(ct_tensor *self, double from, double to, const ct_sample_opts *opts) {
  CT__OP_ENTER_STATUS(&uniform_op, self, self);
  return ct__uniform_impl(self, from, to, opts);
}

static ct_tensor *fill_unit(ct_tensor *t, const ct_random_opts *opts) {
  if (!t) return NULL;
  ct_sample_opts so = {opts ? opts->generator : NULL};
  if (ct__uniform_impl(t, 0.0, 1.0, &so) != CT_OK) {
    ct_release(t);
    return NULL;
  }
  return ct__own(t);
}

ct_tensor *ct_rand(ct_shape size, const ct_random_opts *opts) {
  return fill_unit(ct__random_empty(&rand_op, size, opts, ct_get_default_dtype()), opts);
}

ct_tensor *ct_rand_like(const ct_tensor *t, const ct_random_opts *opts) {
  CT__OP_ENTER_PTR(&rand_like_op, t, t);
  return fill_unit(ct__random_empty_like(t, opts), opts);
}
