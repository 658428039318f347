/* exponential_, geometric_, cauchy_: one random64() per element in TensorIterator order, a uniform
   U in [0, 1) from its low 53 bits, transformed in double and cast to the dtype. */
#include <math.h>

#include "random/random_internal.h"

typedef double (*transform_fn)(double u, const double *param);

typedef struct sample_ctx {
  ct_generator *g;
  ct_dtype dt;
  transform_fn f;
  double param[2];
} sample_ctx;

static void sample_run(void *vctx, char *const *ptr, const int64_t *stride, int64_t n) {
  sample_ctx *c = vctx;
  for (int64_t i = 0; i < n; i++) {
    double u = ct__gen_uniform_double(c->g);
    ct__elem_store_f64(c->dt, ptr[0] + i * stride[0], c->f(u, c->param));
  }
}

typedef struct sample_args {
  transform_fn f;
  double p0, p1;
  const ct_sample_opts *opts;
} sample_args;

CT_RANDOM_CPU_KERNEL(sample, sample_args,
                     ct__walk(t, NULL, sample_run,
                              &(sample_ctx){g, (ct_dtype)t->dtype, a->f, {a->p0, a->p1}}))
static const ct_op exponential_op = {CT_CREATE_OP("exponential_", "aten::exponential_", &sample_cpu)};
static const ct_op geometric_op = {CT_CREATE_OP("geometric_", "aten::geometric_", &sample_cpu)};
static const ct_op cauchy_op = {CT_CREATE_OP("cauchy_", "aten::cauchy_", &sample_cpu)};

/* Checks the target, then runs op's kernel (under the generator's lock). allow_int: the integer dtypes are
   accepted too (geometric_). */
static ct_status sample_(const ct_op *op, ct_tensor *self, const char *kernel, bool allow_int, transform_fn f,
                         double p0, double p1, const ct_sample_opts *opts) {
  ct_dtype dt = (ct_dtype)self->dtype;
  if (!ct__check_no_internal_overlap(self)) return CT_ERR_RUNTIME;
  bool ok = ct__is_float_dtype(dt) || (allow_int && dt >= CT_UINT8 && dt <= CT_INT64);
  if (!ok) {
    ct__dispatch_error(kernel, dt);
    return CT_ERR_RUNTIME;
  }
  return ct__fill_run(op, self, &(sample_args){f, p0, p1, opts});
}

/* transformation::exponential: -1 / lambda * log(1 - U) */
static double exponential_t(double u, const double *p) { return -1.0 / p[0] * log(1.0 - u); }

/* transformation::geometric: ceil(log(U) / log(1 - p)) */
static double geometric_t(double u, const double *p) { return ceil(log(u) / log(1.0 - p[0])); }

/* transformation::cauchy<double>: median + sigma * tan(pi * (U - 0.5)), the multiply-add fused as
   in PyTorch's AVX2 build */
static double cauchy_t(double u, const double *p) { return fma(p[1], tan(3.14159265358979323846 * (u - 0.5)), p[0]); }

static ct_status exponential_impl(ct_tensor *self, double lambd, const ct_sample_opts *opts) {
  if (!ct__check_inplace(self)) return CT_ERR_RUNTIME;
  CT_RANDOM_THROUGH_BITS(self, exponential_impl(tmp, lambd, opts));
  if (!(lambd >= 0.0)) {
    ct__error(CT_ERR_RUNTIME, "exponential_ expects lambda >= 0.0, but found lambda=%g", lambd);
    return CT_ERR_RUNTIME;
  }
  return sample_(&exponential_op, self, "exponential_cpu", false, exponential_t, lambd, 0.0, opts);
}

ct_status ct_exponential_(ct_tensor *self, double lambd, const ct_sample_opts *opts) {
  CT__OP_ENTER_STATUS(&exponential_op, self, self);
  return exponential_impl(self, lambd, opts);
}

void ct__exponential_fill(ct_tensor *self, double lambd, ct_generator *g) {
  sample_ctx c = {g, (ct_dtype)self->dtype, exponential_t, {lambd, 0.0}};
  ct__walk(self, NULL, sample_run, &c);
}

static ct_status geometric_impl(ct_tensor *self, double p, const ct_sample_opts *opts) {
  if (!ct__check_inplace(self)) return CT_ERR_RUNTIME;
  CT_RANDOM_THROUGH_BITS(self, geometric_impl(tmp, p, opts));
  if (!(0 < p && p < 1)) {
    ct__error(CT_ERR_RUNTIME, "geometric_ expects p to be in (0, 1), but got p=%g", p);
    return CT_ERR_RUNTIME;
  }
  return sample_(&geometric_op, self, "geometric_cpu", true, geometric_t, p, 0.0, opts);
}

ct_status ct_geometric_(ct_tensor *self, double p, const ct_sample_opts *opts) {
  CT__OP_ENTER_STATUS(&geometric_op, self, self);
  return geometric_impl(self, p, opts);
}

static ct_status cauchy_impl(ct_tensor *self, double median, double sigma, const ct_sample_opts *opts) {
  if (!ct__check_inplace(self)) return CT_ERR_RUNTIME;
  CT_RANDOM_THROUGH_BITS(self, cauchy_impl(tmp, median, sigma, opts));
  return sample_(&cauchy_op, self, "cauchy_cpu", false, cauchy_t, median, sigma, opts);
}

ct_status ct_cauchy_(ct_tensor *self, double median, double sigma, const ct_sample_opts *opts) {
  CT__OP_ENTER_STATUS(&cauchy_op, self, self);
  return cauchy_impl(self, median, sigma, opts);
}
