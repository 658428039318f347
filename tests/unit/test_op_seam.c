/* The op-descriptor seam (src/core/op.h): the entry guard refuses a layout or device the op has no kernel
   for with torch 1.13's dispatcher message, composites are checked where they dispatch, and kernels are
   found by (device, dtype). Sparse tensors cannot be built yet: the test marks a strided tensor's layout,
   which is what an op's entry sees of a sparse one. The messages' first sentence is torch's (see the
   sparse run in the comment of each check). */
#include "check.h"
#include "core/op.h"

static const char *const SPARSE_SUM =
    "Could not run 'aten::sum.dim_IntList' with arguments from the 'SparseCPU' backend. This could be because "
    "the operator doesn't exist for this backend, or was omitted during the selective/custom build process (if "
    "using custom build).";

static void test_layout_refused(void) {
  ct_tensor *x = ct_ones(CT_SHAPE(3), NULL);
  x->layout = CT_SPARSE_COO; /* torch.ones(3).to_sparse() as an op's entry sees it */
  /* torch.ones(3).to_sparse().sum(0): NotImplementedError, "Could not run 'aten::sum.dim_IntList' with
     arguments from the 'SparseCPU' backend. This could be because ..." */
  CHECK(ct_sum(x, NULL) == NULL);
  CHECK_ERROR(CT_ERR_NOT_IMPLEMENTED, SPARSE_SUM);
  ct_tensor *out = ct_zeros(CT_SHAPE(0), NULL);
  CHECK(ct_sum_out(out, x, NULL) == CT_ERR_NOT_IMPLEMENTED);
  CHECK_EQ_INT(out->numel, 0); /* untouched */
  /* torch.ones(3).to_sparse().cumsum(0): "Could not run 'aten::cumsum' with arguments from the 'SparseCPU'..." */
  CHECK(ct_cumsum(x, 0, NULL) == NULL);
  CHECK(ct_last_error() == CT_ERR_NOT_IMPLEMENTED &&
        strstr(ct_last_error_message(), "Could not run 'aten::cumsum' with arguments from the 'SparseCPU' backend.") ==
            ct_last_error_message());
  /* torch.ones(3, 3).to_sparse_csr().cumsum(0) names its out= kernel; ctorch names the op's: the CSR backend */
  x->layout = CT_SPARSE_CSR;
  CHECK(ct_var(x, NULL) == NULL);
  CHECK(strstr(ct_last_error_message(), "'aten::var.correction' with arguments from the 'SparseCsrCPU' backend") != NULL);
  /* composites (cummax, logcumsumexp) are refused by layout at entry too: torch's first inner op is */
  ct_tensor *v = NULL, *i = NULL;
  x->layout = CT_SPARSE_COO;
  CHECK(ct_cummax(x, 0, &v, &i) == CT_ERR_NOT_IMPLEMENTED && v == NULL && i == NULL);
  CHECK(ct_max_dim(x, 0, &v, &i, NULL) == CT_ERR_NOT_IMPLEMENTED && v == NULL && i == NULL);
  x->layout = CT_STRIDED;
  ct_release(out);
  ct_release(x);
}

/* torch's dispatcher message for an operator on the SparseCPU backend */
static void check_sparse_refusal(const char *aten) {
  char msg[512];
  snprintf(
      msg, sizeof msg,
      "Could not run '%s' with arguments from the 'SparseCPU' backend. This could be because the operator "
      "doesn't exist for this backend, or was omitted during the selective/custom build process (if using "
      "custom build).",
      aten);
  CHECK_ERROR(CT_ERR_NOT_IMPLEMENTED, msg);
}

/* Pointwise forms refuse a sparse argument at their entry guard, naming the form's ATen operator (torch
   1.13, torch.ones(3).to_sparse() as sp, torch.ones(3) as d): torch.exp(sp) 'aten::exp', sp.exp_()
   'aten::exp_', torch.exp(d, out=sp) 'aten::exp.out', torch.remainder(d, sp) 'aten::remainder.Tensor',
   sp.remainder_(d) 'aten::remainder_.Tensor', torch.remainder(d, d, out=sp) 'aten::remainder.Tensor_out',
   torch.clamp(d, sp, d) 'aten::clamp.Tensor', torch.clamp(sp, 0, 1) 'aten::clamp', sp.clamp_(0, 1)
   'aten::clamp_', torch.clamp(sp, 0, 1, out=d) 'aten::clamp.out', torch.pow(sp, d) 'aten::pow.Tensor_Tensor',
   torch.pow(sp, 2.5) 'aten::pow.Tensor_Scalar', torch.where(d > 0, sp, d) 'aten::where.self',
   torch.lerp(sp, d, 0.5) 'aten::lerp.Scalar', torch.addcmul(d, d, d, out=sp) 'aten::addcmul.out'. Nothing
   is written. */
static void test_pointwise_layout_refused(void) {
  ct_tensor *sp = ct_ones(CT_SHAPE(3), NULL), *d = ct_ones(CT_SHAPE(3), NULL),
            *out = ct_zeros(CT_SHAPE(3), NULL);
  sp->layout = CT_SPARSE_COO;
  /* a regular op's three forms */
  CHECK(ct_exp(sp) == NULL);
  check_sparse_refusal("aten::exp");
  CHECK(ct_exp_(sp) == CT_ERR_NOT_IMPLEMENTED);
  check_sparse_refusal("aten::exp_");
  CHECK(ct_exp_out(sp, d) == CT_ERR_NOT_IMPLEMENTED);
  check_sparse_refusal("aten::exp.out");
  /* a Tensor overload, the sparse operand second */
  CHECK(ct_remainder(d, sp) == NULL);
  check_sparse_refusal("aten::remainder.Tensor");
  CHECK(ct_remainder_(sp, d) == CT_ERR_NOT_IMPLEMENTED);
  check_sparse_refusal("aten::remainder_.Tensor");
  CHECK(ct_remainder_out(sp, d, d) == CT_ERR_NOT_IMPLEMENTED);
  check_sparse_refusal("aten::remainder.Tensor_out");
  /* irregular ops: the overload their arguments select */
  ct_tensor *lo = ct_wrapped_scalar(0), *hi = ct_wrapped_scalar(1);
  CHECK(ct_clamp(d, sp, d) == NULL);
  check_sparse_refusal("aten::clamp.Tensor");
  CHECK(ct_clamp(sp, lo, hi) == NULL);
  check_sparse_refusal("aten::clamp");
  CHECK(ct_clamp_(sp, lo, hi) == CT_ERR_NOT_IMPLEMENTED);
  check_sparse_refusal("aten::clamp_");
  CHECK(ct_clamp_out(out, sp, lo, hi) == CT_ERR_NOT_IMPLEMENTED);
  check_sparse_refusal("aten::clamp.out");
  CHECK(ct_pow(sp, d) == NULL);
  check_sparse_refusal("aten::pow.Tensor_Tensor");
  ct_tensor *e = ct_wrapped_scalar(2.5);
  CHECK(ct_pow(sp, e) == NULL);
  check_sparse_refusal("aten::pow.Tensor_Scalar");
  ct_tensor *cond = ct_gt(d, lo);
  CHECK(ct_where(cond, sp, d) == NULL);
  check_sparse_refusal("aten::where.self");
  ct_tensor *w = ct_wrapped_scalar(0.5);
  CHECK(ct_lerp(sp, d, w) == NULL);
  check_sparse_refusal("aten::lerp.Scalar");
  CHECK(ct_addcmul_out(sp, d, d, d, NULL) == CT_ERR_NOT_IMPLEMENTED);
  check_sparse_refusal("aten::addcmul.out");
  /* every tensor untouched: sp, d and out still hold their ones and zeros */
  double v[3];
  CHECK(ct_copy_to_buffer(out, v, CT_FLOAT64, sizeof v) == CT_OK && v[0] == 0 && v[2] == 0);
  sp->layout = CT_STRIDED;
  CHECK(ct_copy_to_buffer(sp, v, CT_FLOAT64, sizeof v) == CT_OK && v[0] == 1 && v[2] == 1);
  /* autograd's out= check runs before the backend's dispatch: torch.exp(torch.ones(3, requires_grad=True),
     out=sp) raises "exp(): functions with out=... arguments don't support automatic differentiation, ..." */
  sp->layout = CT_SPARSE_COO;
  CHECK(ct_requires_grad_(d, true) == CT_OK);
  CHECK(ct_exp_out(sp, d) == CT_ERR_RUNTIME);
  CHECK(strstr(ct_last_error_message(), "exp(): functions with out=... arguments don't support automatic") ==
        ct_last_error_message());
  sp->layout = CT_STRIDED;
  ct_release(cond);
  ct_release(w);
  ct_release(e);
  ct_release(lo);
  ct_release(hi);
  ct_release(out);
  ct_release(d);
  ct_release(sp);
}

/* The meta row: torch 1.13 has a Meta kernel for every pointwise op, which sizes the result without the
   CPU kernel's dtype check: torch.bitwise_not(torch.ones(3, device="meta")) and torch.lgamma of a complex64
   meta tensor give meta results of shape (3,) (on the CPU: "bitwise_not_cpu" / "lgamma_vml_cpu" not
   implemented). */
static void test_pointwise_meta_row(void) {
  ct_tensor *m = ct_empty(CT_SHAPE(3), &(ct_tensor_opts){.device = CT_DEVICE_META});
  ct_tensor *r = ct_bitwise_not(m);
  CHECK(r != NULL && r->device_type == CT_META && r->ndim == 1 && r->sizes[0] == 3 && r->dtype == CT_FLOAT32);
  ct_release(r);
  ct_tensor *mc = ct_empty(CT_SHAPE(3), &(ct_tensor_opts){.device = CT_DEVICE_META, .dtype = CT_COMPLEX64});
  r = ct_lgamma(mc);
  CHECK(r != NULL && r->device_type == CT_META && r->dtype == CT_COMPLEX64);
  ct_release(r);
  /* pow's own engines take the meta row too: torch.pow(b, b) of a bool meta tensor is a bool meta tensor
     (on the CPU: "pow" not implemented for 'Bool'); pow(b, 2) promotes to int64 on both */
  ct_tensor *mb = ct_empty(CT_SHAPE(3), &(ct_tensor_opts){.device = CT_DEVICE_META, .dtype = CT_BOOL});
  r = ct_pow(mb, mb);
  CHECK(r != NULL && r->device_type == CT_META && r->dtype == CT_BOOL && r->sizes[0] == 3);
  ct_release(r);
  r = ct_pow(mb, 2);
  CHECK(r != NULL && r->device_type == CT_META && r->dtype == CT_INT64);
  ct_release(r);
  r = ct_pow(2, mb);
  CHECK(r != NULL && r->device_type == CT_META && r->dtype == CT_INT64);
  ct_release(r);
  ct_release(mb);
  ct_tensor *cb = ct_ones(CT_SHAPE(3), &(ct_tensor_opts){.dtype = CT_BOOL});
  CHECK(ct_pow(cb, cb) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "\"pow\" not implemented for 'Bool'");
  ct_release(cb);
  ct_tensor *c = ct_ones(CT_SHAPE(3), NULL);
  CHECK(ct_bitwise_not(c) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "\"bitwise_not_cpu\" not implemented for 'Float'");
  /* allclose is a composite whose item() has no Meta kernel: its descriptor has no meta row */
  bool all = true;
  CHECK(ct_allclose(m, m, &all, NULL) == CT_ERR_NOT_IMPLEMENTED && !all);
  CHECK(strstr(ct_last_error_message(), "aten::_local_scalar_dense") != NULL);
  ct_release(c);
  ct_release(mc);
  ct_release(m);
}

static void test_lookup(void) {
  static const int cpu_row[CT_NUM_DTYPES + 1] = {[CT_FLOAT32] = 1};
  static const ct_op op = {.name = "f", .aten = "aten::f", .kernels = {[CT_CPU] = cpu_row}};
  ct_tensor *x = ct_ones(CT_SHAPE(2), NULL);
  CHECK(ct__op_accepts(&op, x));
  CHECK(((const int *)ct__op_table(&op, x, op.aten))[CT_FLOAT32] == 1);
  ct_tensor *m = ct_empty(CT_SHAPE(2), &(ct_tensor_opts){.device = CT_DEVICE_META});
  /* no meta row: torch's dispatcher message for the Meta backend */
  CHECK(!ct__op_accepts(&op, m));
  CHECK(ct_last_error() == CT_ERR_NOT_IMPLEMENTED &&
        strstr(ct_last_error_message(), "Could not run 'aten::f' with arguments from the 'Meta' backend.") != NULL);
  static const ct_op comp = {.name = "g", .aten = "aten::g", .composite = true, .kernels = {[CT_CPU] = cpu_row}};
  CHECK(ct__op_accepts(&comp, m)); /* a composite is checked at its dispatch point */
  CHECK(ct__op_table(&comp, m, "aten::_g_helper") == NULL);
  CHECK(strstr(ct_last_error_message(), "'aten::_g_helper' with arguments from the 'Meta' backend") != NULL);
  ct_release(m);
  ct_release(x);
}

int main(void) {
  test_layout_refused();
  test_pointwise_layout_refused();
  test_pointwise_meta_row();
  test_lookup();
  return TEST_SUMMARY();
}
