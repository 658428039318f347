/* General eigenproblems and matrix functions from C (include/ctorch/linalg_eig.h): values computed with torch 1.13
   (cited per case), complex results for a real input, empty and batched inputs, the errors torch raises, and a
   failed out= call that leaves its target unchanged. */
#include <complex.h>
#include <math.h>

#include "check.h"
#include "linalg_check.h"

/* the complex values of t as (re, im) pairs */
static bool cclose_to(const ct_tensor *t, const double *want, int64_t n, double tol) {
  double complex got[32];
  if (!t || ct_numel(t) != n || n > 32) return false;
  if (ct_copy_to_buffer(t, got, CT_COMPLEX128, (size_t)n * sizeof *got) != CT_OK) return false;
  for (int64_t i = 0; i < n; i++)
    if (!(cabs(got[i] - (want[2 * i] + I * want[2 * i + 1])) <= tol)) {
      fprintf(stderr, "  element %lld: %.17g%+.17gi\n", (long long)i, creal(got[i]), cimag(got[i]));
      return false;
    }
  return true;
}

static void test_eig(void) {
  ct_scope_begin();
  ct_tensor *a = mat((const double[]){1, 2, 3, 4}, 2, 2), *w = NULL, *v = NULL;
  /* torch.linalg.eig(torch.tensor([[1., 2.], [3., 4.]], dtype=torch.float64)):
     eigenvalues [-0.37228132326901431+0.j, 5.37228132326901431+0.j], eigenvectors
     [[-0.82456484013239384, -0.41597355791928420], [0.56576746496899233, -0.90937670913212409]] (complex128);
     ctorch's LAPACK may pick other signs: each column is compared up to its sign */
  CHECK(ct_linalg_eig(a, &w, &v) == CT_OK);
  CHECK(w && ct_dtype_of(w) == CT_COMPLEX128 && v && ct_dtype_of(v) == CT_COMPLEX128);
  CHECK(cclose_to(w, (const double[]){-0.37228132326901431, 0, 5.37228132326901431, 0}, 2, 1e-13));
  double complex vv[4];
  CHECK(v && ct_copy_to_buffer(v, vv, CT_COMPLEX128, sizeof vv) == CT_OK);
  const double want[4] = {-0.82456484013239384, -0.41597355791928420, 0.56576746496899233,
                          -0.90937670913212409};
  for (int j = 0; j < 2; j++) {
    double sign = creal(vv[j]) * want[j] < 0 ? -1 : 1;
    CHECK(cabs(sign * vv[j] - want[j]) < 1e-13 && cabs(sign * vv[2 + j] - want[2 + j]) < 1e-13);
  }
  /* torch's geometry: eigenvectors batched column-major, strides (1, 2) */
  CHECK(v && ct_strides(v)[0] == 1 && ct_strides(v)[1] == 2);
  /* torch.linalg.eigvals(torch.tensor([[0., -1.], [1., 0.]])): [0.+1.j, 0.-1.j] (complex64) */
  ct_tensor *r = ct_tensor_from_data((const float[]){0, -1, 1, 0}, CT_FLOAT32, CT_SHAPE(2, 2), NULL);
  ct_tensor *e = ct_linalg_eigvals(r);
  CHECK(e && ct_dtype_of(e) == CT_COMPLEX64 && cclose_to(e, (const double[]){0, 1, 0, -1}, 2, 1e-6));
  /* an empty batch: eigenvalues (0, 3), eigenvectors (0, 3, 3) */
  ct_tensor *z = ct_zeros(CT_SHAPE(0, 3, 3), NULL);
  CHECK(ct_linalg_eig(z, &w, &v) == CT_OK && ct_ndim(w) == 2 && ct_sizes(w)[0] == 0 && ct_sizes(w)[1] == 3 &&
        ct_ndim(v) == 3);
  /* torch's errors */
  CHECK(ct_linalg_eig(ct_zeros(CT_SHAPE(2, 3), NULL), &w, &v) != CT_OK);
  CHECK_ERROR(CT_ERR_RUNTIME,
              "linalg.eig: A must be batches of square matrices, but they are 2 by 3 matrices");
  CHECK(ct_linalg_eigvals(ct_zeros(CT_SHAPE(3, 3), &(ct_tensor_opts){.dtype = CT_INT64})) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "Unknown Complex ScalarType for Long");
  CHECK(ct_linalg_eig(ct_full(CT_SHAPE(3, 3), NAN, NULL), &w, &v) != CT_OK);
  CHECK_ERROR(CT_ERR_RUNTIME, "torch.linalg.eig: input tensor should not contain infs or NaNs.");
  /* out= of a real dtype: refused before anything is written */
  ct_tensor *o = ct_zeros(CT_SHAPE(5), NULL);
  CHECK(ct_linalg_eigvals_out(o, a) != CT_OK);
  CHECK_ERROR(CT_ERR_RUNTIME,
              "torch.linalg.eigvals: Expected eigenvalues to be safely castable from ComplexDouble "
              "dtype, but got eigenvalues with dtype Float");
  CHECK(ct_numel(o) == 5);
  ct_scope_end();
}

static void test_power(void) {
  ct_scope_begin();
  /* torch.linalg.matrix_power(torch.tensor([[1, 1], [1, 0]]), 10): [[89, 55], [55, 34]] (int64) */
  ct_tensor *f = ct_tensor_from_data((const int64_t[]){1, 1, 1, 0}, CT_INT64, CT_SHAPE(2, 2), NULL);
  ct_tensor *p = ct_linalg_matrix_power(f, 10);
  CHECK(p && ct_dtype_of(p) == CT_INT64 && close_to(p, (const double[]){89, 55, 55, 34}, 4, 0));
  /* torch.linalg.matrix_power(torch.tensor([[2., 0], [0, 4]]), -2): [[0.25, 0], [0, 0.0625]] */
  CHECK(close_to(ct_matrix_power(mat((const double[]){2, 0, 0, 4}, 2, 2), -2),
                 (const double[]){0.25, 0, 0, 0.0625}, 4, 0));
  /* n = 0: the identity, even for a batch */
  CHECK(close_to(ct_linalg_matrix_power(ct_zeros(CT_SHAPE(2, 2, 2), NULL), 0),
                 (const double[]){1, 0, 0, 1, 1, 0, 0, 1}, 8, 0));
  CHECK(ct_linalg_matrix_power(f, -1) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "linalg.inv: Expected a floating point or complex tensor as input. Got Long");
  CHECK(ct_linalg_matrix_power(mat((const double[]){1, 2, 2, 4}, 2, 2), -3) == NULL);
  CHECK_ERROR(CT_ERR_LINALG,
              "linalg.inv: The diagonal element 2 is zero, the inversion could not be completed "
              "because the input matrix is singular.");
  ct_tensor *o = ct_zeros(CT_SHAPE(1), &(ct_tensor_opts){.dtype = CT_INT32});
  CHECK(ct_linalg_matrix_power_out(o, ct_zeros(CT_SHAPE(2, 2), NULL), 2) != CT_OK);
  CHECK_ERROR(
      CT_ERR_RUNTIME,
      "matrix_power: Expected result to be safely castable from Float dtype, but got result with dtype Int");
  CHECK(ct_numel(o) == 1);
  ct_scope_end();
}

static void test_exp(void) {
  ct_scope_begin();
  /* torch.linalg.matrix_exp(torch.tensor([[0., 1.], [-1., 0.]], dtype=torch.float64)):
     [[0.54030230586813999, 0.84147098480789628], [-0.84147098480789628, 0.54030230586813999]] */
  CHECK(close_to(
      ct_linalg_matrix_exp(mat((const double[]){0, 1, -1, 0}, 2, 2)),
      (const double[]){0.54030230586813999, 0.84147098480789628, -0.84147098480789628, 0.54030230586813999},
      4, 1e-15));
  /* the scaling-and-squaring path: [[1., 2.], [3., 4.]] gives
     [[51.96895619870500838, 74.73656456700322792], [112.10484685050485609, 164.07380304920988578]] */
  CHECK(close_to(ct_matrix_exp(mat((const double[]){1, 2, 3, 4}, 2, 2)),
                 (const double[]){51.96895619870500838, 74.73656456700322792, 112.10484685050485609,
                                  164.07380304920988578},
                 4, 1e-14));
  /* a small norm (degree 8): [[1e-3, 2e-3], [3e-3, 4e-3]] gives
     [[1.00100350617496625, 0.00200500901209506], [0.00300751351814259, 1.00401101969310891]] */
  CHECK(close_to(
      ct_linalg_matrix_exp(mat((const double[]){1e-3, 2e-3, 3e-3, 4e-3}, 2, 2)),
      (const double[]){1.00100350617496625, 0.00200500901209506, 0.00300751351814259, 1.00401101969310891}, 4,
      1e-15));
  CHECK(ct_linalg_matrix_exp(ct_zeros(CT_SHAPE(3), NULL)) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "linalg.matrix_exp: The input tensor A must have at least 2 dimensions.");
  CHECK(ct_linalg_matrix_exp(ct_zeros(CT_SHAPE(2, 2), &(ct_tensor_opts){.dtype = CT_INT64})) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "matrix_exp: Expected a floating point or complex tensor as input. Got Long");
  /* float16 (h7-lameta), torch 1.13: matrix_exp(torch.zeros(2, 2, 2).half()) is the identity;
     matrix_exp(torch.full((3, 3), 1e-3).half()) fails '"bmm" not implemented for 'Half'', a norm of 3 (ones)
     '"log2_vml_cpu" not implemented for 'Half'' */
  ct_tensor_opts h = {.dtype = CT_FLOAT16};
  ct_tensor *e = ct_linalg_matrix_exp(ct_zeros(CT_SHAPE(2, 2, 2), &h));
  CHECK(e && ct_dtype_of(e) == CT_FLOAT16 && close_to(e, (const double[]){1, 0, 0, 1, 1, 0, 0, 1}, 8, 0));
  CHECK(ct_linalg_matrix_exp(ct_full(CT_SHAPE(3, 3), 1e-3, &h)) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "\"bmm\" not implemented for 'Half'");
  CHECK(ct_linalg_matrix_exp(ct_ones(CT_SHAPE(3, 3), &h)) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "\"log2_vml_cpu\" not implemented for 'Half'");
  /* bfloat16, torch 1.13 (its coefficient blobs of doubles read as bfloat16): matrix_exp((0.1 * eye(2)).bfloat16())
     is [[inf, 0], [0, inf]] (degree 8), matrix_exp(tensor([[1e-4, 2e-4], [0, 1e-4]]).bfloat16()) zeros (degree 4) */
  ct_to_opts bf = {.dtype = CT_BFLOAT16};
  ct_tensor *e8 = ct_linalg_matrix_exp(ct_to(mat((const double[]){0.1, 0, 0, 0.1}, 2, 2), &bf));
  double got[4] = {0, 1, 1, 0};
  CHECK(e8 && ct_dtype_of(e8) == CT_BFLOAT16 && ct_copy_to_buffer(e8, got, CT_FLOAT64, sizeof got) == CT_OK);
  CHECK(isinf(got[0]) && got[0] > 0 && got[1] == 0 && got[2] == 0 && isinf(got[3]) && got[3] > 0);
  ct_tensor *e4 = ct_linalg_matrix_exp(ct_to(mat((const double[]){1e-4, 2e-4, 0, 1e-4}, 2, 2), &bf));
  CHECK(e4 && close_to(e4, (const double[]){0, 0, 0, 0}, 4, 0));
  ct_scope_end();
}

static void test_tensor_ops(void) {
  ct_scope_begin();
  ct_tensor *a = mat((const double[]){4, 7, 2, 6}, 2, 2);
  /* torch.linalg.tensorinv(A, ind=1): [[0.6, -0.7], [-0.2, 0.4]] */
  CHECK(close_to(ct_linalg_tensorinv(a, &(ct_linalg_tensorinv_opts){.has_ind = true, .ind = 1}),
                 (const double[]){0.6, -0.7, -0.2, 0.4}, 4, 1e-15));
  /* torch.linalg.tensorsolve(A, [1., 2.]): [-0.8, 0.6] */
  ct_tensor *b = ct_tensor_from_data((const double[]){1, 2}, CT_FLOAT64, CT_SHAPE(2), NULL);
  CHECK(close_to(ct_linalg_tensorsolve(a, b, NULL), (const double[]){-0.8, 0.6}, 2, 1e-15));
  CHECK(ct_linalg_tensorinv(a, &(ct_linalg_tensorinv_opts){.has_ind = true, .ind = 0}) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "Expected a strictly positive integer for 'ind', but got 0");
  CHECK(ct_linalg_tensorinv(a, NULL) == NULL); /* ind = 2: prod(()) = 1 != 4 */
  CHECK_ERROR(CT_ERR_RUNTIME, "Expected self to satisfy the requirement prod(self.shape[ind:]) == "
                              "prod(self.shape[:ind]), but got 1 != 4");
  CHECK(ct_linalg_tensorinv(ct_zeros(CT_SHAPE(4, 2, 2), &(ct_tensor_opts){.dtype = CT_FLOAT64}),
                            &(ct_linalg_tensorinv_opts){.has_ind = true, .ind = 1}) == NULL);
  CHECK_ERROR(CT_ERR_LINALG,
              "inv: The diagonal element 1 is zero, the inversion could not be completed because "
              "the input matrix is singular.");
  /* torch.linalg.diagonal(torch.arange(24.).reshape(2, 3, 4), offset=1): [[1, 6, 11], [13, 18, 23]], a view */
  ct_tensor *x = ct_reshape(ct_arange(0.0, 24.0, 1.0, NULL), CT_SHAPE(2, 3, 4));
  ct_tensor *d = ct_linalg_diagonal(x, &(ct_linalg_diagonal_opts){.offset = 1});
  CHECK(close_to(d, (const double[]){1, 6, 11, 13, 18, 23}, 6, 0));
  CHECK(d && ct_strides(d)[0] == 12 && ct_strides(d)[1] == 5);
  ct_scope_end();
}

int main(void) {
  test_eig();
  test_power();
  test_exp();
  test_tensor_ops();
  return TEST_SUMMARY();
}
