/* Linear algebra from C (include/ctorch/linalg.h): values of a 3 x 3 system computed with torch 1.13 (cited per
   case), singular and not positive-definite inputs (LinAlgError and torch's messages, the _ex forms' infos),
   non-square and empty inputs (0 x 0, 0 x n, a batch of 0), non-contiguous and conjugate-view inputs, dtype
   refusals, and failed out= calls that leave their targets unchanged. */
#include <complex.h>
#include <math.h>

#include "check.h"
#include "linalg_check.h"

/* A = [[4, 1, 2], [1, 5, 3], [2, 3, 6]] (symmetric positive-definite), b = [1, 2, 3] */
static const double A3[9] = {4, 1, 2, 1, 5, 3, 2, 3, 6};
static const double B3[3] = {1, 2, 3};
static const double SING[4] = {1, 2, 2, 4}; /* rank 1 */

static void test_values(void) {
  ct_scope_begin();
  ct_tensor *a = mat(A3, 3, 3), *b = ct_tensor_from_data(B3, CT_FLOAT64, CT_SHAPE(3), NULL);
  /* torch.linalg.solve(A, b): [0.0, 0.14285714285714282, 0.4285714285714286] */
  ct_tensor *x = ct_linalg_solve(a, b, NULL);
  CHECK(close_to(x, (const double[]){0.0, 0.14285714285714282, 0.4285714285714286}, 3, 1e-14));
  /* torch.linalg.det(A): 70.0; slogdet: (1., 4.248495242049358...) */
  CHECK(fabs(item(ct_linalg_det(a)) - 70.0) < 1e-12);
  ct_tensor *sg = NULL, *la = NULL;
  CHECK(ct_linalg_slogdet(a, &sg, &la) == CT_OK);
  CHECK(item(sg) == 1.0 && fabs(item(la) - 4.24849524204935847) < 1e-14);
  CHECK(fabs(item(ct_logdet(a)) - 4.24849524204935847) < 1e-14);
  /* torch.linalg.inv(A).flatten() */
  ct_tensor *inv = ct_linalg_inv(a);
  CHECK(close_to(inv,
                 (const double[]){0.3, 0.0, -0.1, 0.0, 0.2857142857142857, -0.14285714285714285, -0.1,
                                  -0.14285714285714285, 0.2714285714285714},
                 9, 1e-14));
  /* torch's geometry: batched column-major, strides (1, 3) */
  CHECK(inv && ct_strides(inv)[0] == 1 && ct_strides(inv)[1] == 3);
  /* torch.linalg.cholesky(A).flatten() */
  CHECK(close_to(ct_linalg_cholesky(a, NULL),
                 (const double[]){2.0, 0.0, 0.0, 0.5, 2.179449471770337, 0.0, 1.0, 1.1470786693528088,
                                  1.9194297398747862},
                 9, 1e-14));
  /* upper=True: L^T */
  CHECK(close_to(ct_linalg_cholesky(a, &(ct_linalg_cholesky_opts){.upper = true}),
                 (const double[]){2.0, 0.5, 1.0, 0.0, 2.179449471770337, 1.1470786693528088, 0.0, 0.0,
                                  1.9194297398747862},
                 9, 1e-14));
  /* torch.linalg.svdvals(A) and eigvalsh(A) */
  CHECK(close_to(ct_linalg_svdvals(a),
                 (const double[]){9.418832675970041, 3.3867701566075485, 2.1943971674224083}, 3, 1e-13));
  CHECK(close_to(ct_linalg_eigvalsh(a, NULL),
                 (const double[]){2.1943971674224088, 3.3867701566075477, 9.418832675970037}, 3, 1e-13));
  ct_scope_end();
}

static void test_singular(void) {
  ct_scope_begin();
  ct_tensor *s = mat(SING, 2, 2);
  CHECK(ct_linalg_inv(s) == NULL);
  CHECK_ERROR(CT_ERR_LINALG,
              "linalg.inv: The diagonal element 2 is zero, the inversion could not be completed "
              "because the input matrix is singular.");
  CHECK_STR(ct_error_kind_name(CT_ERR_LINALG), "_LinAlgError");
  /* a batch whose second matrix is singular */
  ct_tensor *batch = ct_stack(CT_TENSORS(ct_eye(2, NULL), ct_to_dtype(s, CT_FLOAT32)), 0);
  CHECK(ct_linalg_inv(batch) == NULL);
  CHECK_ERROR(CT_ERR_LINALG,
              "linalg.inv: (Batch element 1): The diagonal element 2 is zero, the inversion could not "
              "be completed because the input matrix is singular.");
  CHECK(ct_linalg_solve(batch, ct_ones(CT_SHAPE(2, 2), NULL), NULL) == NULL);
  CHECK_ERROR(CT_ERR_LINALG,
              "torch.linalg.solve: (Batch element 1): The solver failed because the input matrix is "
              "singular.");
  /* the _ex forms: info, no error; torch.linalg.inv_ex(S).info == 2 */
  ct_tensor *r = NULL, *info = NULL;
  CHECK(ct_linalg_inv_ex(s, &r, &info, NULL) == CT_OK);
  CHECK(info && ct_dtype_of(info) == CT_INT32 && ct_dim(info) == 0 && item(info) == 2);
  CHECK(ct_linalg_inv_ex(s, &r, &info, &(ct_linalg_ex_opts){.check_errors = true}) == CT_ERR_LINALG);
  CHECK(r == NULL && info == NULL);
  CHECK_ERROR(CT_ERR_LINALG,
              "linalg.inv_ex: The diagonal element 2 is zero, the inversion could not be completed "
              "because the input matrix is singular.");
  /* det and slogdet of a singular matrix: -0. and (-0., -inf), as torch's */
  double d = item(ct_linalg_det(s));
  CHECK(d == 0 && signbit(d));
  ct_tensor *sg = NULL, *la = NULL;
  CHECK(ct_linalg_slogdet(s, &sg, &la) == CT_OK);
  CHECK(item(sg) == 0 && isinf(item(la)) && item(la) < 0);
  /* not positive-definite: [[1, 2], [2, 1]] */
  ct_tensor *npd = mat((const double[]){1, 2, 2, 1}, 2, 2);
  CHECK(ct_linalg_cholesky(npd, NULL) == NULL);
  CHECK_ERROR(CT_ERR_LINALG,
              "linalg.cholesky: The factorization could not be completed because the input is not "
              "positive-definite (the leading minor of order 2 is not positive-definite).");
  CHECK(ct_linalg_cholesky_ex(npd, &r, &info, NULL) == CT_OK && item(info) == 2);
  ct_scope_end();
}

static void test_shapes(void) {
  ct_scope_begin();
  ct_tensor *rect = mat((const double[]){1, 2, 3, 4, 5, 6}, 2, 3);
  CHECK(ct_linalg_det(rect) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME,
              "linalg.det: A must be batches of square matrices, but they are 2 by 3 matrices");
  /* svdvals of a non-square matrix: torch's [9.508032000695724, 0.7728696356734843] */
  CHECK(close_to(ct_linalg_svdvals(rect), (const double[]){9.508032000695724, 0.7728696356734843}, 2, 1e-13));
  CHECK(ct_linalg_inv(ct_ones(CT_SHAPE(3), NULL)) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "linalg.inv: The input tensor A must have at least 2 dimensions.");
  CHECK(ct_linalg_inv(ct_ones(CT_SHAPE(2, 2), &(ct_tensor_opts){.dtype = CT_INT64})) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "linalg.inv: Expected a floating point or complex tensor as input. Got Long");
  CHECK(ct_linalg_det(ct_ones(CT_SHAPE(2, 2), &(ct_tensor_opts){.dtype = CT_FLOAT16})) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "\"lu_cpu\" not implemented for 'Half'");
  CHECK(ct_linalg_solve(mat(A3, 3, 3), ct_ones(CT_SHAPE(3), NULL), NULL) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME,
              "linalg.solve: Expected A and B to have the same dtype, but found A of type Double and "
              "B of type Float instead");
  /* empty: det of 0 x 0 is 1; a batch of 0; 0 x n */
  CHECK(item(ct_linalg_det(ct_zeros(CT_SHAPE(0, 0), NULL))) == 1.0);
  ct_tensor *inv0 = ct_linalg_inv(ct_zeros(CT_SHAPE(0, 3, 3), NULL));
  CHECK(inv0 && ct_numel(inv0) == 0);
  CHECK_SHAPE(inv0, 0, 3, 3);
  ct_tensor *sv = ct_linalg_svdvals(ct_zeros(CT_SHAPE(2, 0, 3), NULL));
  CHECK_SHAPE(sv, 2, 0);
  ct_tensor *e = ct_linalg_inv(ct_zeros(CT_SHAPE(2, 0, 0), NULL));
  CHECK_SHAPE(e, 2, 0, 0);
  ct_scope_end();
}

static void test_views(void) {
  ct_scope_begin();
  ct_tensor *a = mat(A3, 3, 3), *b = ct_tensor_from_data(B3, CT_FLOAT64, CT_SHAPE(3), NULL);
  /* a transposed (non-contiguous) A: torch.linalg.det(A.T) == 70., solve(A.mT, b) as torch's */
  CHECK(fabs(item(ct_linalg_det(ct_mT(a))) - 70.0) < 1e-12);
  CHECK(close_to(ct_linalg_solve(ct_mT(a), b, NULL),
                 (const double[]){0.0, 0.14285714285714282, 0.4285714285714286}, 3, 1e-14));
  /* a stepped view: every other row and column of a 6 x 6 matrix holding A */
  ct_tensor *big = ct_zeros(CT_SHAPE(6, 6), &(ct_tensor_opts){.dtype = CT_FLOAT64});
  ct_tensor *sub = ct_slice(ct_slice(big, 0, 0, 6, 2), 1, 0, 6, 2);
  CHECK(ct_copy_(sub, a) == CT_OK);
  CHECK(fabs(item(ct_linalg_det(sub)) - 70.0) < 1e-12);
  /* a conjugate view: det(C.conj()) == conj(det(C)) == 1.5 - 2.5i (torch) */
  const double complex cd[4] = {1 + 2 * I, 3 - 1 * I, 0.5 * I, 2};
  ct_tensor *c = ct_tensor_from_data(cd, CT_COMPLEX128, CT_SHAPE(2, 2), NULL), *cc = ct_conj(c);
  CHECK(ct_is_conj(cc));
  double complex got = 0;
  CHECK(ct_copy_to_buffer(ct_linalg_det(cc), &got, CT_COMPLEX128, sizeof got) == CT_OK);
  CHECK(cabs(got - (1.5 - 2.5 * I)) < 1e-14);
  CHECK(ct_copy_to_buffer(ct_linalg_det(c), &got, CT_COMPLEX128, sizeof got) == CT_OK);
  CHECK(cabs(got - (1.5 + 2.5 * I)) < 1e-14);
  ct_scope_end();
}

static void test_out(void) {
  ct_scope_begin();
  ct_tensor *s = mat(SING, 2, 2), *out = ct_full(CT_SHAPE(4), 7.0, &(ct_tensor_opts){.dtype = CT_FLOAT64});
  /* a singular input: the call fails and out keeps its shape and values */
  CHECK(ct_linalg_inv_out(out, s) == CT_ERR_LINALG);
  ct_clear_error();
  CHECK_SHAPE(out, 4);
  CHECK(close_to(out, (const double[]){7, 7, 7, 7}, 4, 0));
  /* a wrong dtype */
  ct_tensor *o32 = ct_empty(CT_SHAPE(0), NULL);
  CHECK(ct_linalg_inv_out(o32, mat(A3, 3, 3)) == CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, "Expected out tensor to have dtype double, but got float instead");
  /* a good call resizes out with torch's (column-major) strides */
  CHECK(ct_linalg_inv_out(out, mat(A3, 3, 3)) == CT_OK);
  CHECK_SHAPE(out, 3, 3);
  CHECK(ct_strides(out)[0] == 1 && ct_strides(out)[1] == 3);
  ct_scope_end();
}

int main(void) {
  test_values();
  test_singular();
  test_shapes();
  test_views();
  test_out();
  return TEST_SUMMARY();
}
