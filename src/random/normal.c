/* normal_, randn, randn_like, torch.normal(mean, std, size) and log_normal_.
   Two paths, as in PyTorch: a contiguous floating tensor of at least 16 elements takes the "fill
   path" (all uniforms first, then Box-Muller over blocks of 16, the last partial block redone on 16
   fresh uniforms); anything else takes the scalar path, one normal_distribution<double> sample per
   element in TensorIterator order, sharing the generator's cached second value. */
#include <math.h>

#include "random/boxmuller.h"
#include "random/pipeline.h"
#include "random/random_internal.h"

/* ---- the fill path ---- */

typedef struct fill_ctx {
  ct_generator *g;
  char *data;
  ct_dtype dt;
  size_t isz;
  double mean, std; /* float64 */
  float fmean, fstd; /* the other dtypes, mean and std already cast to the dtype */
} fill_ctx;

/* float32 and float64 keep their raw draws in the output until they are converted (one word per
   float, two per double: element i's words are exactly the bytes of element i); float16 and
   bfloat16 elements are too small for that and are converted while drawing. */
static bool raw_in_place(ct_dtype dt) { return dt == CT_FLOAT32 || dt == CT_FLOAT64; }

/* The draws for m elements at dst: raw words for float32 (random()) and float64 (random64()),
   finished uniforms from random()'s low 11 / 8 bits for float16 / bfloat16. */
static void draw(fill_ctx *c, char *dst, int64_t m) {
  ct_mt19937 *mt = &c->g->mt;
  if (raw_in_place(c->dt)) {
    ct__mt_fill(mt, (uint32_t *)(void *)dst, c->dt == CT_FLOAT64 ? 2 * m : m);
    return;
  }
  uint16_t *h = (uint16_t *)(void *)dst;
  bool half = c->dt == CT_FLOAT16;
  uint32_t buf[CT_RANDOM_CHUNK];
  for (int64_t done = 0; done < m;) {
    int64_t k = m - done < CT_RANDOM_CHUNK ? m - done : CT_RANDOM_CHUNK;
    ct__mt_fill(mt, buf, k);
    for (int64_t i = 0; i < k; i++)
      h[done + i] = half ? ct__float_to_half(ct__u11(buf[i])) : ct__float_to_bfloat16(ct__u8(buf[i]));
    done += k;
  }
}

/* Turns the raw draws of m elements at p into uniforms in [0, 1) (U24 / U53). */
static void convert(const fill_ctx *c, char *p, int64_t m) {
  if (c->dt == CT_FLOAT32)
    ct__u24_inplace(p, m);
  else if (c->dt == CT_FLOAT64)
    ct__u53_inplace(p, m);
}

/* Box-Muller on nb blocks of uniforms at p. */
static void boxmuller(const fill_ctx *c, char *p, int64_t nb) {
  switch (c->dt) {
    case CT_FLOAT32: ct__boxmuller_f32((float *)(void *)p, nb, c->fmean, c->fstd); break;
    case CT_FLOAT64: ct__boxmuller_f64((double *)(void *)p, nb, c->mean, c->std); break;
    case CT_FLOAT16: ct__boxmuller_f16((uint16_t *)(void *)p, nb, c->fmean, c->fstd); break;
    default: ct__boxmuller_bf16((uint16_t *)(void *)p, nb, c->fmean, c->fstd); break;
  }
}

/* The pipeline's stages: drawing is serial; converting and transforming a drawn chunk (in cache, on
   any thread) is not. */
static void produce(void *vctx, int64_t b0, int64_t b1) {
  fill_ctx *c = vctx;
  draw(c, c->data + 16 * b0 * (int64_t)c->isz, 16 * (b1 - b0));
}

static void transform(void *vctx, int64_t b0, int64_t b1) {
  fill_ctx *c = vctx;
  char *p = c->data + 16 * b0 * (int64_t)c->isz;
  if (c->dt == CT_FLOAT32) {
    ct__boxmuller_f32_words(p, b1 - b0, c->fmean, c->fstd); /* converts as it loads */
    return;
  }
  convert(c, p, 16 * (b1 - b0));
  boxmuller(c, p, b1 - b0);
}


/* normal_fill: all n uniforms in order, Box-Muller on the n / 16 full blocks (drawing and
   transforming overlap when several threads run), then, when n % 16 != 0, 16 fresh uniforms for the
   last 16 elements, transformed again. */
static void fill_path(ct_tensor *self, double mean, double std, ct_generator *g) {
  ct_dtype dt = (ct_dtype)self->dtype;
  int64_t n = self->numel, nblocks = n / 16;
  fill_ctx c = {g, ct__tdata(self), dt, ct__itemsize(dt), mean, std, (float)ct__elem_round_f64(dt, mean),
                (float)ct__elem_round_f64(dt, std)};
  ct_pipeline p = {&c, produce, transform};
  /* a block is 16 elements; the float64 transform costs ~10x the float32 one per block, so a second
     thread pays from about 64K float32 or 8K float64 elements */
  ct__pipeline_run(&p, nblocks, dt == CT_FLOAT32 ? 16 : 128);
  if (n % 16) {
    /* the elements after the last full block take their uniforms from the stream, then the last 16
       elements are overwritten by 16 fresh ones and transformed as one more block */
    char *last = c.data + (n - 16) * (int64_t)c.isz;
    draw(&c, c.data + 16 * nblocks * (int64_t)c.isz, n - 16 * nblocks); /* (inside `last`: overwritten) */
    draw(&c, last, 16);
    convert(&c, last, 16);
    boxmuller(&c, last, 1);
  }
}

typedef struct scalar_ctx {
  ct_generator *g;
  ct_dtype dt;
  double mean, std;
  bool log_normal;
} scalar_ctx;

static void scalar_run(void *vctx, char *const *ptr, const int64_t *stride, int64_t n) {
  scalar_ctx *c = vctx;
  for (int64_t i = 0; i < n; i++) {
    double v = ct__gen_normal(c->g, c->mean, c->std);
    ct__elem_store_f64(c->dt, ptr[0] + i * stride[0], c->log_normal ? exp(v) : v);
  }
}

static void normal_fill(ct_tensor *self, double mean, double std, ct_generator *g) {
  ct_dtype dt = (ct_dtype)self->dtype;
  int64_t n = self->numel;
  if (n >= 16 && ct_is_contiguous(self, CT_CONTIGUOUS_FORMAT)) {
    fill_path(self, mean, std, g);
    return;
  }
  scalar_ctx c = {g, dt, mean, std, false};
  ct__walk(self, NULL, scalar_run, &c);
}

typedef struct normal_args {
  double mean, std;
  const ct_sample_opts *opts;
} normal_args;

/* (normal_'s target: self or its view_as_real, whose storage is self's) */
CT_RANDOM_CPU_KERNEL(normal, normal_args, normal_fill(t, a->mean, a->std, g))
CT_RANDOM_CPU_KERNEL(log_normal, normal_args,
                     ct__walk(t, NULL, scalar_run,
                              &(scalar_ctx){g, (ct_dtype)t->dtype, a->mean, a->std, true}))
/* torch's normal_ also fills the values of CSR / CSC tensors (the sparse issue fills that row); randn,
   normal(mean, std, size) and randn_like are empty + normal_ */
static const ct_op normal_op = {CT_CREATE_OP("normal_", "aten::normal_", &normal_cpu),
                                .layouts = CT_CREATE_COMPRESSED};
static const ct_op log_normal_op = {CT_CREATE_OP("log_normal_", "aten::log_normal_", &log_normal_cpu)};
static const ct_create_op randn_op = {{CT_CREATE_OP("randn", "aten::normal_", &normal_cpu),
                                       .layouts = CT_CREATE_COMPRESSED, .grad = CT_OP_GRAD_NONE},
                                      CT_FACTORY_EMPTY};
static const ct_create_op normal_size_op = {{CT_CREATE_OP("normal", "aten::normal_", &normal_cpu),
                                             .layouts = CT_CREATE_COMPRESSED, .grad = CT_OP_GRAD_NONE},
                                            CT_FACTORY_EMPTY};
static const ct_op randn_like_op = {CT_CREATE_OP("randn_like", "aten::normal_", &normal_cpu),
                                    .layouts = CT_CREATE_COMPRESSED, .grad = CT_OP_GRAD_NONE};

ct_status ct__normal_impl(ct_tensor *self, double mean, double std, const ct_sample_opts *opts) {
  if (!ct__check_inplace(self)) return CT_ERR_RUNTIME;
  CT_RANDOM_THROUGH_BITS(self, ct__normal_impl(tmp, mean, std, opts));
  if (!ct__check_in_storage(self)) return CT_ERR_RUNTIME; /* its contiguous path writes directly */
  if (!(std >= 0.0)) {
    ct__error(CT_ERR_RUNTIME, "normal expects std >= 0.0, but found std %g", std);
    return CT_ERR_RUNTIME;
  }
  ct_tensor *target = self;
  if (ct_dtype_is_complex((ct_dtype)self->dtype)) {
    /* real and imaginary parts each get half the variance */
    target = ct__complex_as_real(self);
    if (!target) return CT_ERR_OUT_OF_MEMORY;
    std = std / sqrt(2.0);
  }
  ct_status st = CT_OK;
  if (!ct__is_float_dtype((ct_dtype)target->dtype)) {
    ct__dispatch_error("normal_kernel_cpu", (ct_dtype)target->dtype);
    st = CT_ERR_RUNTIME;
  } else if (!ct__check_no_internal_overlap(target)) { /* (the fill path's contiguous targets always pass) */
    st = CT_ERR_RUNTIME;
  } else {
    st = ct__fill_run(&normal_op, target, &(normal_args){mean, std, opts});
  }
  if (target != self) ct_release(target);
  return st;
}

ct_status ct_normal_(ct_tensor *self, double mean, double std, const ct_sample_opts *opts) {
  CT__NONNULL_STATUS(self);
  if (!ct__create_input_ok(&normal_op, self)) return ct_last_error();
  return ct__normal_impl(self, mean, std, opts);
}

static ct_status log_normal_impl(ct_tensor *self, double mean, double std, const ct_sample_opts *opts) {
  if (!ct__check_inplace(self)) return CT_ERR_RUNTIME;
  CT_RANDOM_THROUGH_BITS(self, log_normal_impl(tmp, mean, std, opts));
  if (!(std > 0.0)) {
    ct__error(CT_ERR_RUNTIME, "log_normal_ expects std > 0.0, but found std=%g", std);
    return CT_ERR_RUNTIME;
  }
  ct_dtype dt = (ct_dtype)self->dtype;
  if (!ct__check_no_internal_overlap(self)) return CT_ERR_RUNTIME;
  if (!ct__is_float_dtype(dt)) {
    ct__dispatch_error("log_normal_cpu", dt);
    return CT_ERR_RUNTIME;
  }
  return ct__fill_run(&log_normal_op, self, &(normal_args){mean, std, opts});
}

ct_status ct_log_normal_(ct_tensor *self, double mean, double std, const ct_sample_opts *opts) {
  CT__OP_ENTER_STATUS(&log_normal_op, self, self);
  return log_normal_impl(self, mean, std, opts);
}

static ct_tensor *fill_new(ct_tensor *t, double mean, double std, ct_generator *gen) {
  if (!t) return NULL;
  ct_sample_opts so = {gen};
  if (ct__normal_impl(t, mean, std, &so) != CT_OK) {
    ct_release(t);
    return NULL;
  }
  return ct__own(t);
}

ct_tensor *ct_randn(ct_shape size, const ct_random_opts *opts) {
  return fill_new(ct__random_empty(&randn_op, size, opts, ct_get_default_dtype()), 0.0, 1.0,
                  opts ? opts->generator : NULL);
}

ct_tensor *ct_randn_like(const ct_tensor *t, const ct_random_opts *opts) {
  CT__NONNULL_PTR(t);
  if (!ct__create_input_ok(&randn_like_op, t)) return NULL;
  return fill_new(ct__random_empty_like(t, opts), 0.0, 1.0, opts ? opts->generator : NULL);
}

ct_tensor *ct_normal_size(double mean, double std, ct_shape size, const ct_random_opts *opts) {
  return fill_new(ct__random_empty(&normal_size_op, size, opts, ct_get_default_dtype()), mean, std,
                  opts ? opts->generator : NULL);
}
