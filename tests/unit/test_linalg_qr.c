/* QR and least squares from C (include/ctorch/linalg_qr.h): values of a 4 x 3 matrix computed with torch 1.13
   (cited per case: torch.linalg.qr, geqrf, householder_product, ormqr, lstsq with each driver, pinv,
   matrix_rank, pinverse, svd), torch's empty results per driver, rank-deficient, empty, non-contiguous and
   conjugate-view inputs, torch's messages, ctorch's gelss without right-hand sides (torch 1.13 crashes there)
   and failed out= calls that leave their targets unchanged. */
#include <complex.h>
#include <math.h>

#include "check.h"
#include "linalg_check.h"

/* A = [[4, 1, 2], [1, 5, 3], [2, 3, 6], [1, 1, 1]] (4 x 3, rank 3), b = [1, 2, 3, 4] */
static const double A43[12] = {4, 1, 2, 1, 5, 3, 2, 3, 6, 1, 1, 1};
static const double B4[4] = {1, 2, 3, 4};
static const double SING[4] = {1, 2, 2, 4}; /* rank 1 */

static int64_t item_int(const ct_tensor *t) {
  int64_t v = -1;
  CHECK(t && ct_copy_to_buffer(t, &v, CT_INT64, sizeof v) == CT_OK);
  return v;
}

/* torch.linalg.qr(A): Q (flattened row by row) and R; Q's strides (1, 4), R's (1, 3) */
static const double Q43[12] = {-0.852802865422442,   0.38677247105897267,  0.2923046709614837,
                               -0.21320071635561044, -0.865633625703415,   0.4312691866644842,
                               -0.4264014327112209,  -0.3131015241905969,  -0.8481627337734855,
                               -0.21320071635561044, -0.055253210151281804, 0.09583759703655206};
static const double R33[9] = {-4.69041575982343, -3.411211461689767, -5.1168171925346515, 0.0, -4.935953440181174,
                              -3.7572182902871627, 0.0, 0.0, -3.1147219036879417};

static void test_qr(void) {
  ct_scope_begin();
  ct_tensor *a = mat(A43, 4, 3), *Q = NULL, *R = NULL;
  CHECK(ct_linalg_qr(a, &Q, &R, NULL) == CT_OK);
  CHECK(close_to(Q, Q43, 12, 1e-14) && close_to(R, R33, 9, 1e-14));
  CHECK(Q && ct_strides(Q)[0] == 1 && ct_strides(Q)[1] == 4);
  CHECK(R && ct_strides(R)[0] == 1 && ct_strides(R)[1] == 3);
  /* complete: Q 4 x 4, R 4 x 3 with a zero last row; "r": R alone, Q empty (torch.Size([0])) */
  CHECK(ct_linalg_qr(a, &Q, &R, &(ct_linalg_qr_opts){.mode = "complete"}) == CT_OK);
  CHECK_SHAPE(Q, 4, 4);
  CHECK_SHAPE(R, 4, 3);
  CHECK(ct_linalg_qr(a, &Q, &R, &(ct_linalg_qr_opts){.mode = "r"}) == CT_OK);
  CHECK_SHAPE(Q, 0);
  CHECK(close_to(R, R33, 9, 1e-14));
  /* the legacy qr(A, some=True) is linalg.qr's reduced mode */
  CHECK(ct_qr(a, &Q, &R, NULL) == CT_OK && close_to(R, R33, 9, 1e-14));
  /* torch.geqrf(A): a (R above the diagonal, reflectors below) and tau */
  ct_tensor *qa = NULL, *tau = NULL;
  CHECK(ct_geqrf(a, &qa, &tau) == CT_OK);
  CHECK(close_to(qa,
                 (const double[]){-4.69041575982343, -3.411211461689767, -5.1168171925346515, 0.11506929330390492,
                                  -4.935953440181174, -3.7572182902871627, 0.23013858660780984, 0.2105149097291,
                                  -3.1147219036879417, 0.11506929330390492, 0.05222595395122621,
                                  -0.02072664804042027},
                 12, 1e-14));
  CHECK(close_to(tau, (const double[]){1.852802865422442, 1.910139260617576, 1.999141181065426}, 3, 1e-14));
  /* torch.linalg.householder_product(a, tau) is Q; torch.orgqr the same */
  CHECK(close_to(ct_linalg_householder_product(qa, tau), Q43, 12, 1e-14));
  CHECK(close_to(ct_orgqr(qa, tau), Q43, 12, 1e-14));
  /* torch.ormqr(a, tau, C, left=True, transpose=True) = Q^T C */
  static const double C42[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  CHECK(close_to(ct_ormqr(qa, tau, mat(C42, 4, 2), &(ct_ormqr_opts){.transpose = true}),
                 (const double[]){-5.11681719253465, -6.822422923379534, -4.16240849806323, -5.009624387049549,
                                  -1.9838382586566272, -2.0125895377675933, 6.0462321388549976, 6.65640235470275},
                 8, 1e-13));
  /* a conjugate view: torch.linalg.qr((Z * (1 + 1j)).conj()) with Z = [[1, 2], [3, 4], [5, 6]]: R's diagonal
     -8.366600265340756, -1.1710800875382386 (real) */
  const double complex zd[6] = {1 + 1 * I, 2 + 2 * I, 3 + 3 * I, 4 + 4 * I, 5 + 5 * I, 6 + 6 * I};
  ct_tensor *z = ct_tensor_from_data(zd, CT_COMPLEX128, CT_SHAPE(3, 2), NULL);
  CHECK(ct_linalg_qr(ct_conj(z), &Q, &R, NULL) == CT_OK);
  double complex r[4];
  CHECK(ct_copy_to_buffer(R, r, CT_COMPLEX128, sizeof r) == CT_OK);
  CHECK(cabs(r[0] - -8.366600265340756) < 1e-13 && cabs(r[3] - -1.1710800875382386) < 1e-13);
  /* a non-contiguous input: qr of A^T's transpose gives A's R */
  ct_tensor *at = ct_contiguous(ct_mT(a), CT_CONTIGUOUS_FORMAT), *att = ct_mT(at);
  CHECK(!ct_is_contiguous(att, CT_CONTIGUOUS_FORMAT));
  CHECK(ct_linalg_qr(att, &Q, &R, NULL) == CT_OK && close_to(R, R33, 9, 1e-14));
  /* empty: a batch of 0 and a 0 x 3 matrix */
  CHECK(ct_linalg_qr(ct_zeros(CT_SHAPE(0, 3, 2), &(ct_tensor_opts){.dtype = CT_FLOAT64}), &Q, &R, NULL) == CT_OK);
  CHECK_SHAPE(Q, 0, 3, 2);
  CHECK_SHAPE(R, 0, 2, 2);
  CHECK(ct_linalg_qr(ct_zeros(CT_SHAPE(0, 3), NULL), &Q, &R, NULL) == CT_OK);
  CHECK_SHAPE(Q, 0, 0);
  CHECK_SHAPE(R, 0, 3);
  ct_scope_end();
}

static void test_lstsq(void) {
  ct_scope_begin();
  ct_tensor *a = mat(A43, 4, 3), *b = ct_tensor_from_data(B4, CT_FLOAT64, CT_SHAPE(4), NULL);
  ct_tensor *x = NULL, *res = NULL, *rank = NULL, *sv = NULL;
  /* torch.linalg.lstsq(A, b, driver=d): solution [0.18461538461538.., 0.26153846153846.., 0.32307692307692..];
     gels: residuals [11.076923076923078], rank and singular values empty; gelsy (the default): rank 3, no
     residuals; gelsd / gelss: residuals, rank 3, S [9.567346033743258, 3.3978433901416545, 2.218231314964213] */
  const double sol[3] = {0.1846153846153846, 0.26153846153846144, 0.3230769230769231};
  const double s3[3] = {9.567346033743258, 3.3978433901416545, 2.218231314964213};
  const char *drivers[4] = {"gels", NULL, "gelsd", "GELSS"};
  for (int d = 0; d < 4; d++) {
    CHECK(ct_linalg_lstsq(a, b, &x, &res, &rank, &sv, &(ct_linalg_lstsq_opts){.driver = drivers[d]}) == CT_OK);
    CHECK(close_to(x, sol, 3, 1e-13));
    if (d == 1) {
      CHECK_SHAPE(res, 0);
    } else {
      CHECK(close_to(res, (const double[]){11.076923076923078}, 1, 1e-13));
    }
    if (d == 0) {
      CHECK_SHAPE(rank, 0);
    } else {
      CHECK_EQ_INT(item_int(rank), 3);
    }
    if (d < 2) {
      CHECK_SHAPE(sv, 0);
    } else {
      CHECK(close_to(sv, s3, 3, 1e-14));
    }
  }
  /* gelss without right-hand sides: torch 1.13 dies with SIGSEGV there; ctorch returns the rank and the singular
     values gelss gives with one (torch's above) and an empty 3 x 0 solution */
  ct_tensor *b0 = ct_zeros(CT_SHAPE(4, 0), &(ct_tensor_opts){.dtype = CT_FLOAT64});
  CHECK(ct_linalg_lstsq(a, b0, &x, &res, &rank, &sv, &(ct_linalg_lstsq_opts){.driver = "gelss"}) == CT_OK);
  CHECK_SHAPE(x, 3, 0);
  CHECK_EQ_INT(item_int(rank), 3);
  CHECK(close_to(sv, s3, 3, 1e-14));
  /* the solution is a view of LAPACK's 4-row workspace: a 3 x 2 view with strides (1, 4) */
  ct_tensor *b2 = ct_stack((ct_tensors){(const ct_tensor *const[]){b, b}, 2}, 1);
  CHECK(ct_linalg_lstsq(a, b2, &x, NULL, NULL, NULL, NULL) == CT_OK);
  CHECK_SHAPE(x, 3, 2);
  CHECK(x && ct_strides(x)[0] == 1 && ct_strides(x)[1] == 4);
  /* errors: an unknown driver, an integer input without rcond (torch's _get_epsilon), mismatched rows */
  CHECK(ct_linalg_lstsq(a, b, &x, NULL, NULL, NULL, &(ct_linalg_lstsq_opts){.driver = "qr"}) == CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, "torch.linalg.lstsq: parameter `driver` should be one of (gels, gelsy, gelsd, gelss)");
  ct_tensor *ai = ct_ones(CT_SHAPE(3, 3), &(ct_tensor_opts){.dtype = CT_INT64});
  CHECK(ct_linalg_lstsq(ai, ai, &x, NULL, NULL, NULL, NULL) == CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, "This function doesn't handle types other than float and double");
  CHECK(ct_linalg_lstsq(a, ct_ones(CT_SHAPE(3), &(ct_tensor_opts){.dtype = CT_FLOAT64}), &x, NULL, NULL, NULL,
                        NULL) == CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, "torch.linalg.lstsq: input.size(-2) should match other.size(-1)");
  ct_scope_end();
}

static void test_pinv_rank_svd(void) {
  ct_scope_begin();
  ct_tensor *a = mat(A43, 4, 3), *s = mat(SING, 2, 2);
  /* torch.linalg.pinv([[1, 2], [2, 4]]) = [[0.04, 0.08], [0.08, 0.16]] (rank 1); the same from eigh */
  const double ps[4] = {0.03999999999999999, 0.07999999999999999, 0.07999999999999997, 0.15999999999999998};
  CHECK(close_to(ct_linalg_pinv(s, NULL), ps, 4, 1e-14));
  CHECK(close_to(ct_linalg_pinv(s, &(ct_linalg_tol_opts){.hermitian = true}), ps, 4, 1e-14));
  /* torch.pinverse(S, rcond=0.5): the same */
  CHECK(close_to(ct_pinverse(s, &(ct_pinverse_opts){.has_rcond = true, .rcond = 0.5}), ps, 4, 1e-14));
  /* torch.linalg.pinv(A): 3 x 4 */
  ct_tensor *p = ct_linalg_pinv(a, NULL);
  CHECK_SHAPE(p, 3, 4);
  CHECK(close_to(p,
                 (const double[]){0.2892307692307692, -0.0076923076923074716, -0.10153846153846163,
                                  0.05384615384615386, -0.006923076923076865, 0.2807692307692306,
                                  -0.14384615384615373, 0.0346153846153846, -0.0938461538461538, -0.13846153846153847,
                                  0.2723076923076923, -0.030769230769230764},
                 12, 1e-13));
  /* torch.linalg.matrix_rank: S 1, A 3, A with atol=5.0: 1, A with tol=3.0: 2, S hermitian: 1 */
  CHECK_EQ_INT(item_int(ct_linalg_matrix_rank(s, NULL)), 1);
  CHECK_EQ_INT(item_int(ct_linalg_matrix_rank(a, NULL)), 3);
  CHECK_EQ_INT(item_int(ct_linalg_matrix_rank(a, &(ct_linalg_tol_opts){.has_atol = true, .atol = 5.0})), 1);
  CHECK_EQ_INT(item_int(ct_linalg_matrix_rank(a, &(ct_linalg_tol_opts){.has_rcond = true, .rcond = 3.0})), 2);
  CHECK_EQ_INT(item_int(ct_linalg_matrix_rank(s, &(ct_linalg_tol_opts){.hermitian = true})), 1);
  /* empty: rank 0 of a 0 x 3 matrix, pinv of 2 x 0 x 3 is 2 x 3 x 0 */
  CHECK_EQ_INT(item_int(ct_linalg_matrix_rank(ct_zeros(CT_SHAPE(0, 3), NULL), NULL)), 0);
  CHECK_SHAPE(ct_linalg_pinv(ct_zeros(CT_SHAPE(2, 0, 3), NULL), NULL), 2, 3, 0);
  /* errors */
  CHECK(ct_linalg_pinv(ct_ones(CT_SHAPE(3), NULL), NULL) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME,
              "linalg.pinv(Float{[3]}): expected a tensor with 2 or more dimensions of float, double, cfloat or "
              "cdouble types");
  CHECK(ct_linalg_matrix_rank(ct_ones(CT_SHAPE(3), NULL), NULL) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "torch.linalg.matrix_rank: The input tensor input must have at least 2 dimensions.");
  /* torch.svd(A): S as linalg.svd's, V 3 x 3 with strides (3, 1) (Vh^H, a transposed view) */
  ct_tensor *U = NULL, *S = NULL, *V = NULL;
  CHECK(ct_svd(a, &U, &S, &V, NULL) == CT_OK);
  CHECK(close_to(S, (const double[]){9.567346033743258, 3.397843390141655, 2.2182313149642128}, 3, 1e-14));
  CHECK(V && ct_strides(V)[0] == 3 && ct_strides(V)[1] == 1);
  /* compute_uv=False: U (4 x 4) and V (3 x 3) of zeros */
  CHECK(ct_svd(a, &U, &S, &V, &(ct_svd_opts){.no_uv = true}) == CT_OK);
  CHECK_SHAPE(U, 4, 4);
  CHECK_SHAPE(V, 3, 3);
  CHECK(close_to(U, (const double[16]){0}, 16, 0) && close_to(V, (const double[9]){0}, 9, 0));
  ct_scope_end();
}

static void test_out(void) {
  ct_scope_begin();
  ct_tensor *a = mat(A43, 4, 3);
  ct_tensor *out = ct_full(CT_SHAPE(5), 7.0, &(ct_tensor_opts){.dtype = CT_FLOAT64});
  ct_tensor *R = ct_full(CT_SHAPE(2), 7.0, &(ct_tensor_opts){.dtype = CT_FLOAT32});
  /* a wrong dtype: nothing changes */
  CHECK(ct_linalg_qr_out(out, R, a, NULL) == CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, "Expected out tensor to have dtype double, but got float instead");
  CHECK_SHAPE(out, 5);
  CHECK(close_to(out, (const double[]){7, 7, 7, 7, 7}, 5, 0));
  CHECK(ct_linalg_pinv_out(ct_empty(CT_SHAPE(0), &(ct_tensor_opts){.dtype = CT_INT64}), a, NULL) == CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME,
              "linalg.pinv: Expected result to be safely castable from Double dtype, but got result with dtype Long");
  /* an unknown mode: nothing changes */
  CHECK(ct_linalg_qr_out(out, out, a, &(ct_linalg_qr_opts){.mode = "x"}) == CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME,
              "qr received unrecognized mode 'x' but expected one of 'reduced' (default), 'r', or 'complete'");
  CHECK_SHAPE(out, 5);
  /* a good call: an empty geqrf out takes torch's column-major geometry */
  ct_tensor *qa = ct_empty(CT_SHAPE(0), &(ct_tensor_opts){.dtype = CT_FLOAT64});
  ct_tensor *tau = ct_empty(CT_SHAPE(0), &(ct_tensor_opts){.dtype = CT_FLOAT64});
  CHECK(ct_geqrf_out(qa, tau, a) == CT_OK);
  CHECK_SHAPE(qa, 4, 3);
  CHECK(ct_strides(qa)[0] == 1 && ct_strides(qa)[1] == 4);
  CHECK(close_to(tau, (const double[]){1.852802865422442, 1.910139260617576, 1.999141181065426}, 3, 1e-14));
  /* matrix_rank into a float out (torch casts) */
  ct_tensor *rk = ct_empty(CT_SHAPE(0), NULL);
  CHECK(ct_linalg_matrix_rank_out(rk, a, NULL) == CT_OK);
  CHECK(close_to(rk, (const double[]){3}, 1, 0));
  ct_scope_end();
}

/* The Tensor overloads of pinv and matrix_rank: tolerances broadcast against the batch. */
static void test_tensor_tolerances(void) {
  ct_scope_begin();
  ct_tensor *a = mat(A43, 4, 3), *s = mat(SING, 2, 2); /* svdvals(A) = [9.5673, 3.3978, 2.2182] */
  int64_t r[3];
  /* torch.linalg.matrix_rank(A, atol=torch.tensor([[5.], [3.], [0.5]])) = [[1], [2], [3]] (shape 3 x 1) */
  ct_tensor *at = ct_tensor_from_data((const double[]){5.0, 3.0, 0.5}, CT_FLOAT64, CT_SHAPE(3, 1), NULL);
  ct_tensor *k = ct_linalg_matrix_rank(a, &(ct_linalg_tol_opts){.atol_tensor = at});
  CHECK_SHAPE(k, 3, 1);
  CHECK(k && ct_copy_to_buffer(k, r, CT_INT64, sizeof r) == CT_OK && r[0] == 1 && r[1] == 2 && r[2] == 3);
  /* torch.linalg.matrix_rank(A, torch.tensor([5., 3.])) (the tol overload, float32) = [1, 2] */
  ct_tensor *tol = ct_tensor_from_data((const float[]){5.0f, 3.0f}, CT_FLOAT32, CT_SHAPE(2), NULL);
  k = ct_linalg_matrix_rank(a, &(ct_linalg_tol_opts){.rcond_tensor = tol});
  CHECK_SHAPE(k, 2);
  CHECK(k && ct_copy_to_buffer(k, r, CT_INT64, 2 * sizeof *r) == CT_OK && r[0] == 1 && r[1] == 2);
  /* a float atol beside a tensor rtol counts as a float64 0-dim tensor: torch.linalg.matrix_rank(A,
     atol=torch.tensor(5., dtype=torch.float64), rtol=torch.tensor(0.3)) = 1 */
  ct_tensor *rt = ct_tensor_from_data((const float[]){0.3f}, CT_FLOAT32, (ct_shape){NULL, 0}, NULL);
  CHECK_EQ_INT(item_int(ct_linalg_matrix_rank(
                   a, &(ct_linalg_tol_opts){.has_atol = true, .atol = 5.0, .rtol_tensor = rt})),
               1);
  /* torch.linalg.pinv(S, atol=torch.tensor([1., 10.])): 2 x 2 x 2, pinv(S) then zeros */
  ct_tensor *p = ct_linalg_pinv(
      s, &(ct_linalg_tol_opts){
             .atol_tensor = ct_tensor_from_data((const double[]){1.0, 10.0}, CT_FLOAT64, CT_SHAPE(2), NULL)});
  CHECK_SHAPE(p, 2, 2, 2);
  CHECK(close_to(p, (const double[]){0.04, 0.08, 0.08, 0.16, 0, 0, 0, 0}, 8, 1e-14));
  /* errors: a complex tolerance, a batch that does not broadcast */
  ct_tensor *c = ct_ones((ct_shape){NULL, 0}, &(ct_tensor_opts){.dtype = CT_COMPLEX64});
  CHECK(ct_linalg_pinv(a, &(ct_linalg_tol_opts){.atol_tensor = c}) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME,
              "torch.linalg.pinv: atol tensor of complex type is not supported. Got ComplexFloat");
  ct_tensor *b3 = ct_zeros(CT_SHAPE(2, 3, 3), &(ct_tensor_opts){.dtype = CT_FLOAT64});
  CHECK(ct_linalg_matrix_rank(b3, &(ct_linalg_tol_opts){.atol_tensor = ct_ones(CT_SHAPE(3), NULL)}) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "The size of tensor a (3) must match the size of tensor b (2) at non-singleton "
                              "dimension 0");
  ct_scope_end();
}

int main(void) {
  test_qr();
  test_lstsq();
  test_pinv_rank_svd();
  test_tensor_tolerances();
  test_out();
  return TEST_SUMMARY();
}
