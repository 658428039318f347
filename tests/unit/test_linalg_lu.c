/* The LU family from C (include/ctorch/linalg_lu.h): values of small systems computed with torch 1.13 (cited per
   case), torch's geometry (batched column-major factors and solutions, contiguous P, L, U), singular inputs and
   their messages, refused dtypes and pivot=False, empty and broadcast batches, a conjugate-view input with
   left=False (the result carries the conjugate bit, as torch's), and failed out= calls that leave their target
   unchanged. */
#include <complex.h>
#include <math.h>

#include "check.h"
#include "linalg_check.h"

#include <string.h>

/* A = [[1, 2, 3], [4, 5, 6], [7, 8, 10]], b = [[1], [2], [3]] */
static const double A3[9] = {1, 2, 3, 4, 5, 6, 7, 8, 10};
static const double B3[3] = {1, 2, 3};
/* an upper triangular T and the SPD S = [[4, 1, 2], [1, 5, 3], [2, 3, 6]] */
static const double T3[9] = {2, 1, -1, 0, 3, 2, 0, 0, 4};
static const double S3[9] = {4, 1, 2, 1, 5, 3, 2, 3, 6};

static bool strides_are(const ct_tensor *t, int64_t s0, int64_t s1) {
  return t && ct_ndim(t) == 2 && ct_strides(t)[0] == s0 && ct_strides(t)[1] == s1;
}

static void test_factor(void) {
  ct_scope_begin();
  ct_tensor *a = mat(A3, 3, 3), *LU = NULL, *piv = NULL;
  /* torch.linalg.lu_factor(A): LU.flatten() and pivots [3, 3, 3], LU's strides (1, 3) */
  CHECK(ct_linalg_lu_factor(a, &LU, &piv, NULL) == CT_OK);
  CHECK(close_to(LU,
                 (const double[]){7.0, 8.0, 10.0, 0.14285714285714285, 0.8571428571428572, 1.5714285714285716,
                                  0.5714285714285714, 0.5000000000000002, -0.5},
                 9, 1e-15));
  CHECK(strides_are(LU, 1, 3));
  CHECK(piv && ct_dtype_of(piv) == CT_INT32 && close_to(piv, (const double[]){3, 3, 3}, 3, 0));
  /* torch.linalg.lu(A): P, L, U (contiguous) */
  ct_tensor *P = NULL, *L = NULL, *U = NULL;
  CHECK(ct_linalg_lu(a, &P, &L, &U, NULL) == CT_OK);
  CHECK(close_to(P, (const double[]){0, 1, 0, 0, 0, 1, 1, 0, 0}, 9, 0));
  CHECK(close_to(
      L, (const double[]){1, 0, 0, 0.14285714285714285, 1, 0, 0.5714285714285714, 0.5000000000000002, 1}, 9,
      1e-15));
  CHECK(close_to(U, (const double[]){7, 8, 10, 0, 0.8571428571428572, 1.5714285714285716, 0, 0, -0.5}, 9,
                 1e-15));
  CHECK(strides_are(U, 3, 1));
  /* lu_unpack of the factors gives the same, and unpack_pivots=False an empty P */
  ct_tensor *P2 = NULL, *L2 = NULL, *U2 = NULL;
  CHECK(ct_lu_unpack(LU, piv, &P2, &L2, &U2, &(ct_lu_unpack_opts){.no_pivots = true}) == CT_OK);
  CHECK(P2 && ct_ndim(P2) == 1 && ct_numel(P2) == 0);
  CHECK(close_to(U2, (const double[]){7, 8, 10, 0, 0.8571428571428572, 1.5714285714285716, 0, 0, -0.5}, 9,
                 1e-15));
  /* torch.lu_unpack with a pivot of 4 for a 3-row LU */
  ct_tensor *bad = ct_tensor_from_data((const int32_t[]){4, 3, 3}, CT_INT32, CT_SHAPE(3), NULL);
  CHECK(ct_lu_unpack(LU, bad, &P2, &L2, &U2, NULL) == CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME,
              "pivots passed to lu_unpack must be between 1 and LU.size(-2) inclusive.Did you "
              "properly pass the result of lu_factor?");
  /* a 2 x 3 matrix: rectangular LU, pivots of min(m, n) */
  CHECK(ct_linalg_lu_factor(mat(A3, 2, 3), &LU, &piv, NULL) == CT_OK);
  CHECK_SHAPE(LU, 2, 3);
  CHECK_SHAPE(piv, 2);
  ct_scope_end();
}

static void test_singular_and_refused(void) {
  ct_scope_begin();
  ct_tensor *s = mat((const double[]){1, 2, 2, 4}, 2, 2), *LU = NULL, *piv = NULL, *info = NULL;
  /* torch.linalg.lu_factor([[1, 2], [2, 4]]) */
  CHECK(ct_linalg_lu_factor(s, &LU, &piv, NULL) == CT_ERR_RUNTIME && LU == NULL);
  CHECK_ERROR(
      CT_ERR_RUNTIME,
      "torch.linalg.lu_factor: U[2,2] is zero and using it on lu_solve would result in a division by zero. "
      "If you still want to perform the factorization, consider calling linalg.lu(A, pivot) or "
      "linalg.lu_factor_ex(A, pivot)");
  /* lu_factor_ex: info 2, no error; torch.lu: no error either */
  CHECK(ct_linalg_lu_factor_ex(s, &LU, &piv, &info, NULL) == CT_OK);
  CHECK(info && ct_ndim(info) == 0 && close_to(info, (const double[]){2}, 1, 0));
  CHECK(ct_lu(s, &LU, &piv, NULL, NULL) == CT_OK);
  /* pivot=False, and dtypes without an LU kernel */
  CHECK(ct_linalg_lu_factor(s, &LU, &piv, &(ct_linalg_lu_opts){.no_pivot = true}) == CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, "linalg.lu_factor: LU without pivoting is not implemented on the CPU");
  CHECK(ct_linalg_lu_factor(ct_ones(CT_SHAPE(2, 2), &(ct_tensor_opts){.dtype = CT_INT64}), &LU, &piv, NULL) ==
        CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, "\"lu_cpu\" not implemented for 'Long'");
  CHECK(ct_linalg_lu_factor(ct_ones(CT_SHAPE(3), NULL), &LU, &piv, NULL) == CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME,
              "torch.lu_factor: Expected tensor with 2 or more dimensions. Got size: [3] instead");
  /* an empty (0 x 3) int64 input is returned as is (torch) */
  CHECK(ct_linalg_lu_factor(ct_ones(CT_SHAPE(0, 3), &(ct_tensor_opts){.dtype = CT_INT64}), &LU, &piv, NULL) ==
        CT_OK);
  CHECK_SHAPE(LU, 0, 3);
  /* cholesky_inverse of a factor with a zero on its diagonal */
  CHECK(ct_cholesky_inverse(mat((const double[]){0, 0, 1, 1}, 2, 2), NULL) == NULL);
  CHECK_ERROR(CT_ERR_LINALG, "cholesky_inverse: The diagonal element 1 is zero, the inversion could not be "
                             "completed because the input matrix is singular.");
  /* triangular_solve's dtype rule */
  CHECK(ct_triangular_solve(ct_ones(CT_SHAPE(2, 1), NULL), mat(T3, 2, 2), &LU, &info, NULL) ==
        CT_ERR_RUNTIME);
  CHECK_ERROR(
      CT_ERR_RUNTIME,
      "Expected b and A to have the same dtype, but found b of type Float and A of type Double instead.");
  ct_scope_end();
}

static void test_solvers(void) {
  ct_scope_begin();
  ct_tensor *a = mat(A3, 3, 3), *b = mat(B3, 3, 1), *LU = NULL, *piv = NULL;
  CHECK(ct_linalg_lu_factor(a, &LU, &piv, NULL) == CT_OK);
  /* torch.linalg.lu_solve(LU, piv, b) and adjoint=True */
  ct_tensor *x = ct_linalg_lu_solve(LU, piv, b, NULL);
  CHECK(close_to(x, (const double[]){-0.3333333333333333, 0.6666666666666666, 0}, 3, 1e-15));
  CHECK(close_to(ct_linalg_lu_solve(LU, piv, b, &(ct_linalg_lu_solve_opts){.adjoint = true}),
                 (const double[]){1, 0, 0}, 3, 1e-15));
  CHECK(close_to(ct_lu_solve(b, LU, piv), (const double[]){-0.3333333333333333, 0.6666666666666666, 0}, 3,
                 1e-15));
  /* a batch of two right-hand sides broadcast against one LU: shape (2, 3, 1) */
  ct_tensor *bb = ct_expand(ct_unsqueeze(b, 0), CT_SHAPE(2, 3, 1));
  CHECK_SHAPE(ct_linalg_lu_solve(LU, piv, bb, NULL), 2, 3, 1);
  /* torch.triangular_solve(b, T) (upper; transpose; unitriangular) */
  ct_tensor *t = mat(T3, 3, 3), *sol = NULL, *cl = NULL;
  CHECK(ct_triangular_solve(b, t, &sol, &cl, NULL) == CT_OK);
  CHECK(close_to(sol, (const double[]){0.7916666666666666, 0.16666666666666666, 0.75}, 3, 1e-15));
  CHECK(close_to(cl, T3, 9, 0) && strides_are(cl, 1, 3));
  CHECK(ct_triangular_solve(b, t, &sol, &cl, &(ct_triangular_solve_opts){.transpose = true}) == CT_OK);
  CHECK(close_to(sol, (const double[]){0.5, 0.5, 0.625}, 3, 1e-15));
  CHECK(ct_triangular_solve(b, t, &sol, &cl, &(ct_triangular_solve_opts){.unitriangular = true}) == CT_OK);
  CHECK(close_to(sol, (const double[]){8, -4, 3}, 3, 1e-15));
  /* torch.linalg.solve_triangular(T, b.mT, upper=True, left=False) */
  ct_tensor *xr = ct_linalg_solve_triangular(t, ct_transpose(b, 0, 1), true,
                                             &(ct_linalg_solve_triangular_opts){.right = true});
  CHECK(close_to(xr, (const double[]){0.5, 0.5, 0.625}, 3, 1e-15));
  /* torch.cholesky_solve(b, L) and cholesky_inverse(L) with L = cholesky(S) */
  ct_tensor *l = ct_linalg_cholesky(mat(S3, 3, 3), NULL);
  CHECK(close_to(ct_cholesky_solve(b, l, NULL), (const double[]){0, 0.14285714285714277, 0.42857142857142866},
                 3, 1e-15));
  CHECK(close_to(ct_cholesky_inverse(l, NULL),
                 (const double[]){0.3, 0, -0.10000000000000002, 0, 0.28571428571428564, -0.14285714285714285,
                                  -0.10000000000000002, -0.14285714285714285, 0.27142857142857146},
                 9, 1e-15));
  CHECK(close_to(ct_cholesky_inverse(ct_transpose(l, 0, 1), &(ct_cholesky_solve_opts){.upper = true}),
                 (const double[]){0.3, 0, -0.10000000000000002, 0, 0.28571428571428564, -0.14285714285714285,
                                  -0.10000000000000002, -0.14285714285714285, 0.27142857142857146},
                 9, 1e-15));
  ct_scope_end();
}

static void test_conj_view(void) {
  ct_scope_begin();
  /* C = [[1+1j, 2], [3j, 4-1j]]; LU, piv = lu_factor(C.conj()): LU [-3j, 4+1j, 1/3+1/3j, 1-5/3j], piv [2, 2];
     lu_solve(LU, piv, [[1, 1j]], left=False): [0.2352941176470588+0.05882352941176468j,
     -0.058823529411764705+0.23529411764705882j], is_conj() True, strides (2, 1) */
  const double complex cd[4] = {1 + 1 * I, 2, 3 * I, 4 - 1 * I}, bd[2] = {1, 1 * I};
  ct_tensor *c = ct_tensor_from_data(cd, CT_COMPLEX128, CT_SHAPE(2, 2), NULL), *cc = ct_conj(c);
  ct_tensor *LU = NULL, *piv = NULL;
  CHECK(ct_linalg_lu_factor(cc, &LU, &piv, NULL) == CT_OK);
  double complex lu[4] = {0};
  CHECK(LU && ct_copy_to_buffer(LU, lu, CT_COMPLEX128, sizeof lu) == CT_OK);
  CHECK(cabs(lu[0] - (-3 * I)) < 1e-15 && cabs(lu[1] - (4 + 1 * I)) < 1e-15 &&
        cabs(lu[2] - (1.0 / 3 + 1.0 / 3 * I)) < 1e-15 && cabs(lu[3] - (1 - 5.0 / 3 * I)) < 1e-15);
  ct_tensor *x = ct_linalg_lu_solve(LU, piv, ct_tensor_from_data(bd, CT_COMPLEX128, CT_SHAPE(1, 2), NULL),
                                    &(ct_linalg_lu_solve_opts){.right = true});
  double complex xv[2] = {0};
  CHECK(x && ct_is_conj(x) && ct_strides(x)[0] == 2 && ct_strides(x)[1] == 1);
  CHECK(x && ct_copy_to_buffer(x, xv, CT_COMPLEX128, sizeof xv) == CT_OK);
  CHECK(cabs(xv[0] - (0.2352941176470588 + 0.05882352941176468 * I)) < 1e-15 &&
        cabs(xv[1] - (-0.058823529411764705 + 0.23529411764705882 * I)) < 1e-15);
  ct_scope_end();
}

static void test_empty_and_out(void) {
  ct_scope_begin();
  /* a batch of 0: lu_factor gives (0, 3, 3), (0, 3), (0,) */
  ct_tensor *LU = NULL, *piv = NULL, *info = NULL;
  CHECK(ct_linalg_lu_factor_ex(ct_ones(CT_SHAPE(0, 3, 3), NULL), &LU, &piv, &info, NULL) == CT_OK);
  CHECK_SHAPE(LU, 0, 3, 3);
  CHECK_SHAPE(piv, 0, 3);
  CHECK_SHAPE(info, 0);
  /* linalg.lu of a 3 x 0 matrix: P is the identity (torch) */
  ct_tensor *P = NULL, *L = NULL, *U = NULL;
  CHECK(ct_linalg_lu(ct_ones(CT_SHAPE(3, 0), NULL), &P, &L, &U, NULL) == CT_OK);
  CHECK(close_to(P, (const double[]){1, 0, 0, 0, 1, 0, 0, 0, 1}, 9, 0));
  CHECK_SHAPE(L, 3, 0);
  CHECK_SHAPE(U, 0, 0);
  /* a wrong out dtype fails and leaves the out alone */
  ct_tensor *o = ct_full(CT_SHAPE(2), 7.0, NULL),
            *opiv = ct_empty(CT_SHAPE(0), &(ct_tensor_opts){.dtype = CT_INT32});
  CHECK(ct_linalg_lu_factor_out(o, opiv, mat(A3, 3, 3), NULL) == CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, "Expected out tensor to have dtype double, but got float instead");
  CHECK(close_to(o, (const double[]){7, 7}, 2, 0));
  /* a singular matrix leaves cholesky_inverse's out alone */
  ct_tensor *od = ct_full(CT_SHAPE(2), 7.0, &(ct_tensor_opts){.dtype = CT_FLOAT64});
  CHECK(ct_cholesky_inverse_out(od, mat((const double[]){0, 0, 1, 1}, 2, 2), NULL) == CT_ERR_LINALG);
  CHECK(close_to(od, (const double[]){7, 7}, 2, 0));
  /* a good call resizes an empty out to torch's column-major strides */
  ct_tensor *oe = ct_empty(CT_SHAPE(0), &(ct_tensor_opts){.dtype = CT_FLOAT64});
  CHECK(ct_cholesky_inverse_out(oe, ct_linalg_cholesky(mat(S3, 3, 3), NULL), NULL) == CT_OK);
  CHECK(strides_are(oe, 1, 3));
  ct_scope_end();
}

/* h7-lameta: the meta kernels. Expected geometry and messages from torch 1.13 with
   `M = lambda *s, dt=torch.float32: torch.empty(*s, device="meta", dtype=dt)`. */
static ct_tensor *meta(ct_shape shape, ct_dtype dt) {
  return ct_empty(shape, &(ct_tensor_opts){.dtype = dt, .device = CT_DEVICE_META});
}

static void test_meta(void) {
  ct_scope_begin();
  ct_tensor *LU = NULL, *piv = NULL, *info = NULL;
  /* torch.linalg.lu_factor_ex(M(2, 3, 4, dt=torch.float16)): LU (12, 1, 3) float16, pivots (2, 3), info (2,) */
  CHECK(ct_linalg_lu_factor_ex(meta(CT_SHAPE(2, 3, 4), CT_FLOAT16), &LU, &piv, &info, NULL) == CT_OK);
  CHECK_SHAPE(LU, 2, 3, 4);
  CHECK_STRIDES(LU, 12, 1, 3);
  CHECK(LU && ct_dtype_of(LU) == CT_FLOAT16 && ct_device_of(LU).type == CT_META);
  CHECK_SHAPE(piv, 2, 3);
  CHECK(piv && ct_dtype_of(piv) == CT_INT32);
  CHECK_SHAPE(info, 2);
  /* torch.linalg.lu(M(2, 3, 4), pivot=False): P (0,), L (2, 3, 3), U (2, 3, 4) contiguous */
  ct_tensor *P = NULL, *L = NULL, *U = NULL;
  CHECK(ct_linalg_lu(meta(CT_SHAPE(2, 3, 4), CT_FLOAT32), &P, &L, &U,
                     &(ct_linalg_lu_opts){.no_pivot = true}) == CT_OK);
  CHECK_SHAPE(P, 0);
  CHECK_SHAPE(L, 2, 3, 3);
  CHECK_STRIDES(U, 12, 4, 1);
  /* torch.triangular_solve(M(2, 3, 5), M(2, 3, 3)): both results column-major, (15, 1, 3) and (9, 1, 3) */
  ct_tensor *X = NULL, *C = NULL;
  CHECK(ct_triangular_solve(meta(CT_SHAPE(2, 3, 5), CT_FLOAT32), meta(CT_SHAPE(2, 3, 3), CT_FLOAT32), &X, &C,
                            NULL) == CT_OK);
  CHECK_STRIDES(X, 15, 1, 3);
  CHECK_STRIDES(C, 9, 1, 3);
  /* cholesky_solve checks (b's dims first), then its helper has no meta kernel */
  CHECK(ct_cholesky_solve(meta(CT_SHAPE(3), CT_FLOAT32), meta(CT_SHAPE(2, 3, 3), CT_FLOAT32), NULL) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "b should have at least 2 dimensions, but has 1 dimensions instead");
  CHECK(ct_cholesky_solve(meta(CT_SHAPE(2, 3, 4), CT_FLOAT32), meta(CT_SHAPE(2, 3, 3), CT_FLOAT32), NULL) ==
        NULL);
  CHECK_EQ_INT(ct_last_error(), CT_ERR_NOT_IMPLEMENTED);
  const char *want = "Could not run 'aten::_cholesky_solve_helper' with arguments from the 'Meta' backend.";
  CHECK(strncmp(ct_last_error_message(), want, strlen(want)) == 0);
  ct_clear_error();
  ct_scope_end();
}

int main(void) {
  test_meta();
  test_factor();
  test_singular_and_refused();
  test_solvers();
  test_conj_view();
  test_empty_and_out();
  for (int threads = 1; threads <= 2; threads++) {
    ct_set_num_threads(threads);
    test_solvers();
  }
  return TEST_SUMMARY();
}
