/* normal_, randn, randn_like, torch.normal(mean, std, size) and log_normal_.
   Two paths, as in PyTorch: a contiguous floating tensor of at least 16 elements takes the "fill
   path" (all uniforms first, then Box-Muller over blocks of 16, the last partial block redone on 16
   fresh uniforms); anything else takes the scalar path, one normal_distribution<double> sample per
   element in TensorIterator order, sharing the generator's cached second value. */
#include <math.h>

#include "random/boxmuller.h"
#include "random/random_internal.h"

static void fill_f32(float *f, int64_t n, float mean, float std, ct_generator *g) {
  uint32_t *u = (uint32_t *)(void *)f;
  uint32_t tail[16];
  ct__mt_fill(&g->mt, u, n);
  if (n % 16) ct__mt_fill(&g->mt, tail, 16);
  for (int64_t i = 0; i < n; i++) f[i] = ct__u24(u[i]);
  ct__boxmuller_f32(f, n / 16, mean, std);
  if (n % 16) {
    float *last = f + n - 16;
    for (int i = 0; i < 16; i++) last[i] = ct__u24(tail[i]);
    ct__boxmuller_f32(last, 1, mean, std);
  }
}

static void fill_f64(double *d, int64_t n, double mean, double std, ct_generator *g) {
  uint32_t *u = (uint32_t *)(void *)d;
  uint32_t tail[32];
  ct__mt_fill(&g->mt, u, 2 * n);
  if (n % 16) ct__mt_fill(&g->mt, tail, 32);
  /* in place: element i's two words are exactly the bytes of d[i] */
  for (int64_t i = 0; i < n; i++) d[i] = ct__u53((uint64_t)u[2 * i] << 32 | u[2 * i + 1]);
  ct__boxmuller_f64(d, n / 16, mean, std);
  if (n % 16) {
    double *last = d + n - 16;
    for (int i = 0; i < 16; i++) last[i] = ct__u53((uint64_t)tail[2 * i] << 32 | tail[2 * i + 1]);
    ct__boxmuller_f64(last, 1, mean, std);
  }
}

/* float16 / bfloat16: uniforms from the low 11 / 8 bits, stored in the dtype. */
static void uniforms_16(uint16_t *h, int64_t n, bool half, ct_generator *g) {
  uint32_t buf[CT_RANDOM_CHUNK];
  for (int64_t done = 0; done < n;) {
    int64_t m = n - done < CT_RANDOM_CHUNK ? n - done : CT_RANDOM_CHUNK;
    ct__mt_fill(&g->mt, buf, m);
    for (int64_t i = 0; i < m; i++)
      h[done + i] = half ? ct__float_to_half(ct__u11(buf[i])) : ct__float_to_bfloat16(ct__u8(buf[i]));
    done += m;
  }
}

static void fill_16(uint16_t *h, int64_t n, bool half, double mean, double std, ct_generator *g) {
  /* static_cast<Half>(double): through float, then to the 16-bit type */
  float m = half ? ct__half_to_float(ct__float_to_half((float)mean))
                 : ct__bfloat16_to_float(ct__float_to_bfloat16((float)mean));
  float s = half ? ct__half_to_float(ct__float_to_half((float)std))
                 : ct__bfloat16_to_float(ct__float_to_bfloat16((float)std));
  void (*blocks)(uint16_t *, int64_t, float, float) = half ? ct__boxmuller_f16 : ct__boxmuller_bf16;
  uniforms_16(h, n, half, g);
  blocks(h, n / 16, m, s);
  if (n % 16) {
    uniforms_16(h + n - 16, 16, half, g);
    blocks(h + n - 16, 1, m, s);
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
    ct__store_f64(c->dt, ptr[0] + i * stride[0], c->log_normal ? exp(v) : v);
  }
}

void ct__normal_fill(ct_tensor *self, double mean, double std, ct_generator *g) {
  ct_dtype dt = (ct_dtype)self->dtype;
  int64_t n = self->numel;
  if (n >= 16 && ct_is_contiguous(self, CT_CONTIGUOUS_FORMAT)) {
    char *p = ct__tdata(self);
    switch (dt) {
      case CT_FLOAT32: fill_f32((float *)(void *)p, n, (float)mean, (float)std, g); return;
      case CT_FLOAT64: fill_f64((double *)(void *)p, n, mean, std, g); return;
      case CT_FLOAT16: fill_16((uint16_t *)(void *)p, n, true, mean, std, g); return;
      default: fill_16((uint16_t *)(void *)p, n, false, mean, std, g); return;
    }
  }
  scalar_ctx c = {g, dt, mean, std, false};
  ct__walk(self, NULL, scalar_run, &c);
}

ct_status ct_normal_(ct_tensor *self, double mean, double std, const ct_sample_opts *opts) {
  if (!self) return CT_RANDOM_NULL_STATUS;
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
  } else if (!(target->numel >= 16 && ct_is_contiguous(target, CT_CONTIGUOUS_FORMAT)) && !ct__inplace_ok(target)) {
    st = CT_ERR_RUNTIME;
  } else if (target->device_type != CT_META) {
    ct_generator *g = ct__sample_gen(opts);
    ct__gen_lock(g);
    ct__normal_fill(target, mean, std, g);
    ct__gen_unlock(g);
    ct__mark_written(self);
  }
  if (target != self) ct_release(target);
  return st;
}

ct_status ct_log_normal_(ct_tensor *self, double mean, double std, const ct_sample_opts *opts) {
  if (!self) return CT_RANDOM_NULL_STATUS;
  if (!(std > 0.0)) {
    ct__error(CT_ERR_RUNTIME, "log_normal_ expects std > 0.0, but found std=%g", std);
    return CT_ERR_RUNTIME;
  }
  ct_dtype dt = (ct_dtype)self->dtype;
  if (!ct__inplace_ok(self)) return CT_ERR_RUNTIME;
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
  if (!t) return NULL;
  return fill_new(ct__random_empty_like(t, opts), 0.0, 1.0, opts ? opts->generator : NULL);
}

ct_tensor *ct_normal_size(double mean, double std, ct_shape size, const ct_random_opts *opts) {
  return fill_new(ct__random_empty(size, opts, ct_get_default_dtype()), mean, std, opts ? opts->generator : NULL);
}
