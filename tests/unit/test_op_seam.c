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
  test_lookup();
  return TEST_SUMMARY();
}
