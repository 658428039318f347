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

ct_status ct_normal_(ct_tensor *self, double mean, double std, const ct_sample_opts *opts) {
  if (!self) return ct__random_fail();
  if (!ct__check_inplace(self)) return CT_ERR_RUNTIME;
  CT_RANDOM_THROUGH_BITS(self, ct_normal_(tmp, mean, std, opts));
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
  } else if (target->device_type != CT_META) {
    ct_generator *g = ct__sample_gen(opts);
    ct__gen_lock(g);
    normal_fill(target, mean, std, g);
    ct__gen_unlock(g);
    ct__mark_written(self);
  }
  if (target != self) ct_release(target);
  return st;
}

ct_status ct_log_normal_(ct_tensor *self, double mean, double std, const ct_sample_opts *opts) {
  if (!self) return ct__random_fail();
  if (!ct__check_inplace(self)) return CT_ERR_RUNTIME;
  CT_RANDOM_THROUGH_BITS(self, ct_log_normal_(tmp, mean, std, opts));
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
  if (self->device_type == CT_META) return CT_OK;
  ct_generator *g = ct__sample_gen(opts);
  scalar_ctx c = {g, dt, mean, std, true};
  ct__gen_lock(g);
  ct__walk(self, NULL, scalar_run, &c);
  ct__gen_unlock(g);
  ct__mark_written(self);
  return CT_OK;
}

static ct_tensor *fill_new(ct_tensor *t, double mean, double std, ct_generator *gen) {
  if (!t) return NULL;
  ct_sample_opts so = {gen};
  if (ct_normal_(t, mean, std, &so) != CT_OK) {
    ct_release(t);
    return NULL;
  }
  return ct__own(t);
}

ct_tensor *ct_randn(ct_shape size, const ct_random_opts *opts) {
  return fill_new(ct__random_empty(size, opts, ct_get_default_dtype()), 0.0, 1.0, opts ? opts->generator : NULL);
}

ct_tensor *ct_randn_like(const ct_tensor *t, const ct_random_opts *opts) {
  if (!t) return ct__null_ptr_arg("t");
  return fill_new(ct__random_empty_like(t, opts), 0.0, 1.0, opts ? opts->generator : NULL);
}

ct_tensor *ct_normal_size(double mean, double std, ct_shape size, const ct_random_opts *opts) {
  return fill_new(ct__random_empty(size, opts, ct_get_default_dtype()), mean, std, opts ? opts->generator : NULL);
}
