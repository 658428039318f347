/* bernoulli_(p: float), bernoulli_(p: Tensor), torch.bernoulli(input) and torch.bernoulli(input, p).
   A double p draws random64() and compares U53 < p; a float32 / bfloat16 probability tensor draws
   random() and compares U24 < p in float. */
#include <stdio.h>

#include "ops/view_internal.h"
#include "random/random_internal.h"

static bool bernoulli_self_ok(ct_dtype dt, const char *kernel) {
  /* AT_DISPATCH_ALL_TYPES_AND2(Bool, BFloat16) */
  if ((dt >= CT_BOOL && dt <= CT_INT64) || dt == CT_BFLOAT16 || dt == CT_FLOAT32 || dt == CT_FLOAT64) return true;
  ct__dispatch_error(kernel, dt);
  return false;
}

typedef struct bern_ctx {
  ct_generator *g;
  ct_dtype dt, pdt;
  double p;
} bern_ctx;

static void scalar_run(void *vctx, char *const *ptr, const int64_t *stride, int64_t n) {
  bern_ctx *c = vctx;
  for (int64_t i = 0; i < n; i++) {
    double u = ct__gen_uniform_double(c->g);
    ct__elem_store_i64(c->dt, ptr[0] + i * stride[0], u < c->p);
  }
}

typedef struct bern_args {
  const ct_tensor *p; /* p expanded to self's shape (the tensor form) */
  double pv;          /* the float form's p */
  const ct_sample_opts *opts;
} bern_args;

static void tensor_run(void *vctx, char *const *ptr, const int64_t *stride, int64_t n);
CT_RANDOM_CPU_KERNEL(bern_scalar, bern_args,
                     ct__walk(t, NULL, scalar_run, &(bern_ctx){g, (ct_dtype)t->dtype, CT_DTYPE_UNSET, a->pv}))
CT_RANDOM_CPU_KERNEL(bern_tensor, bern_args,
                     ct__walk(t, a->p, tensor_run,
                              &(bern_ctx){g, (ct_dtype)t->dtype, (ct_dtype)a->p->dtype, 0.0}))
static const ct_op bernoulli_float_op = {
    CT_CREATE_OP("bernoulli_", "aten::bernoulli_.float", &bern_scalar_cpu)};
static const ct_op bernoulli_tensor_op = {
    CT_CREATE_OP("bernoulli_", "aten::bernoulli_.Tensor", &bern_tensor_cpu)};
/* torch.bernoulli(input[, p]) is empty_like(input, contiguous) + bernoulli_ */
static const ct_op bernoulli_op = {CT_CREATE_OP("bernoulli", "aten::bernoulli_.Tensor", &bern_tensor_cpu)};
static const ct_op bernoulli_p_op = {CT_CREATE_OP("bernoulli", "aten::bernoulli_.float", &bern_scalar_cpu)};

static ct_status bernoulli_float_impl(ct_tensor *self, double p, const ct_sample_opts *opts) {
  if (!ct__check_inplace(self)) return CT_ERR_RUNTIME;
  if (self->device_type == CT_META) return CT_OK; /* torch's meta kernel checks nothing (p, dtype) */
  CT_RANDOM_THROUGH_BITS(self, bernoulli_float_impl(tmp, p, opts));
  if (!(0 <= p && p <= 1)) {
    ct__error(CT_ERR_RUNTIME, "bernoulli_ expects p to be in [0, 1], but got p=%g", p);
    return CT_ERR_RUNTIME;
  }
  if (!ct__check_no_internal_overlap(self)) return CT_ERR_RUNTIME;
  if (!bernoulli_self_ok((ct_dtype)self->dtype, "bernoulli_scalar_cpu_")) return CT_ERR_RUNTIME;
  return ct__fill_run(&bernoulli_float_op, self, &(bern_args){NULL, p, opts});
}

ct_status ct_bernoulli_(ct_tensor *self, double p, const ct_sample_opts *opts) {
  CT__OP_ENTER_STATUS(&bernoulli_float_op, self, self);
  return bernoulli_float_impl(self, p, opts);
}

/* p expanded to self's shape (expand_inplace), or NULL after PyTorch's expand error. */
static ct_tensor *expand_to(const ct_tensor *p, const ct_tensor *self) {
  int64_t nd = self->ndim, pd = p->ndim;
  char want[512], have[512];
  if (pd > nd) {
    char type[64];
    ct__tensor_type_str(p, type, sizeof type);
    ct__fmt_int_list(want, sizeof want, nd, self->sizes);
    ct__fmt_int_list(have, sizeof have, pd, p->sizes);
    ct__error(CT_ERR_RUNTIME,
              "expand(%s{%s}, size=%s): the number of sizes provided (%lld) must be greater or equal to the number "
              "of dimensions in the tensor (%lld)",
              type, have, want, (long long)nd, (long long)pd);
    return NULL;
  }
  int64_t *strides = ct__malloc((size_t)(nd ? nd : 1) * sizeof(int64_t));
  if (!strides) return NULL;
  for (int64_t d = nd - 1; d >= 0; d--) {
    int64_t pdim = d - (nd - pd);
    if (pdim < 0) {
      strides[d] = 0;
    } else if (p->sizes[pdim] == self->sizes[d]) {
      strides[d] = p->strides[pdim];
    } else if (p->sizes[pdim] == 1) {
      strides[d] = 0;
    } else {
      ct__fmt_int_list(want, sizeof want, nd, self->sizes);
      ct__fmt_int_list(have, sizeof have, pd, p->sizes);
      ct__error(CT_ERR_RUNTIME,
                "The expanded size of the tensor (%lld) must match the existing size (%lld) at non-singleton "
                "dimension %lld.  Target sizes: %s.  Tensor sizes: %s",
                (long long)self->sizes[d], (long long)p->sizes[pdim], (long long)d, want, have);
      ct__free(strides);
      return NULL;
    }
  }
  ct_tensor *e = ct__view(p, nd, self->sizes, strides, p->offset);
  ct__free(strides);
  return e;
}

/* bernoulli_distribution's constructor check, made on every p before any draw so that a failing
   call leaves self and the generator untouched. */
static void check_p_run(void *vctx, char *const *ptr, const int64_t *stride, int64_t n) {
  bern_ctx *c = vctx;
  for (int64_t i = 0; i < n && c->p == 0; i++) {
    double p = ct__elem_load_f64(c->pdt, ptr[1] + i * stride[1]);
    if (!(p >= 0 && p <= 1)) c->p = 1;
  }
}

static void tensor_run(void *vctx, char *const *ptr, const int64_t *stride, int64_t n) {
  bern_ctx *c = vctx;
  for (int64_t i = 0; i < n; i++) {
    double p = ct__elem_load_f64(c->pdt, ptr[1] + i * stride[1]);
    bool hit;
    if (c->pdt == CT_FLOAT64) {
      hit = ct__gen_uniform_double(c->g) < p;
    } else {
      hit = ct__u24(ct__gen_u32(c->g)) < (float)p;
    }
    ct__elem_store_i64(c->dt, ptr[0] + i * stride[0], hit);
  }
}

static ct_status bernoulli_tensor_impl(ct_tensor *self, const ct_tensor *p, const ct_sample_opts *opts) {
  if (self->device_type != CT_META && p->device_type == CT_META) { /* torch's meta fallback: p has no data */
    ct__error(CT_ERR_NOT_IMPLEMENTED, "Cannot inplace into non-meta tensor with meta tensor argument");
    return CT_ERR_NOT_IMPLEMENTED;
  }
  if (CT_UNLIKELY(ct__math_bits(p) != 0)) { /* the kernel reads p's values: a resolved copy */
    ct_tensor *pr = ct__resolve_bits(p);
    if (!pr) return ct_last_error();
    ct_status s = bernoulli_tensor_impl(self, pr, opts);
    ct_release(pr);
    return s;
  }
  if (!ct__check_inplace(self)) return CT_ERR_RUNTIME;
  if (self->device_type == CT_META) return CT_OK; /* torch's meta kernel checks nothing (shape, dtype, p) */
  CT_RANDOM_THROUGH_BITS(self, bernoulli_tensor_impl(tmp, p, opts));
  if (!ct__check_no_internal_overlap(self)) return CT_ERR_RUNTIME;
  ct_dtype dt = (ct_dtype)self->dtype, pdt = (ct_dtype)p->dtype;
  if (!bernoulli_self_ok(dt, "bernoulli_tensor_cpu_self_")) return CT_ERR_RUNTIME;
  ct_tensor *pe = expand_to(p, self);
  if (!pe) return ct__random_fail();
  ct_status st = CT_OK;
  if (!(pdt == CT_FLOAT64 || pdt == CT_FLOAT32 || pdt == CT_BFLOAT16)) {
    ct__dispatch_error("bernoulli_tensor_cpu_p_", pdt);
    st = CT_ERR_RUNTIME;
  } else {
    bern_ctx c = {NULL, dt, pdt, 0.0};
    ct__walk(self, pe, check_p_run, &c);
    if (c.p != 0) {
      ct__error(CT_ERR_RUNTIME,
                "Expected p_in >= 0 && p_in <= 1 to be true, but got false.  (Could this error message be improved?  "
                "If so, please report an enhancement request to PyTorch.)");
      st = CT_ERR_RUNTIME;
    } else {
      st = ct__fill_run(&bernoulli_tensor_op, self, &(bern_args){pe, 0.0, opts});
    }
  }
  ct_release(pe);
  return st;
}

ct_status ct_bernoulli_tensor_(ct_tensor *self, const ct_tensor *p, const ct_sample_opts *opts) {
  CT__OP_ENTER_STATUS(&bernoulli_tensor_op, self, self, p);
  return bernoulli_tensor_impl(self, p, opts);
}

/* torch.bernoulli(input) and torch.bernoulli(input, p): a contiguous result of input's shape and
   dtype (LEGACY_CONTIGUOUS_MEMORY_FORMAT), whose empty_like refuses a COO input before bernoulli_ runs. */
static bool bernoulli_input_ok(const ct_op *op, const ct_tensor *t) {
  if (t->layout == CT_SPARSE_COO) {
    ct__error(CT_ERR_RUNTIME, "memory format option is only supported by strided tensors");
    return false;
  }
  return ct__op_accepts(op, t);
}

static ct_tensor *contiguous_like(const ct_tensor *t) {
  ct_random_opts o = {.memory_format = CT_CONTIGUOUS_FORMAT};
  return ct__random_empty_like(t, &o);
}

ct_tensor *ct_bernoulli(const ct_tensor *p, const ct_sample_opts *opts) {
  CT__NONNULL_PTR(p);
  if (!bernoulli_input_ok(&bernoulli_op, p)) return NULL;
  ct_tensor *r = contiguous_like(p);
  if (!r) return NULL;
  if (bernoulli_tensor_impl(r, p, opts) != CT_OK) {
    ct_release(r);
    return NULL;
  }
  return ct__own(r);
}

ct_tensor *ct_bernoulli_p(const ct_tensor *t, double p, const ct_sample_opts *opts) {
  CT__NONNULL_PTR(t);
  if (!bernoulli_input_ok(&bernoulli_p_op, t)) return NULL;
  ct_tensor *r = contiguous_like(t);
  if (!r) return NULL;
  if (bernoulli_float_impl(r, p, opts) != CT_OK) {
    ct_release(r);
    return NULL;
  }
  return ct__own(r);
}
