/* Matrix norms from C (include/ctorch/linalg_norm.h, torch.norm's 'nuc'): values and geometries computed with
   torch 1.13 (cited per case), every order, dims given in any order with keepdim, singular and empty inputs of
   cond, the C-level refusals of a misread order, torch's messages, and failed out= calls that change nothing. */
#include <math.h>

#include "check.h"
#include "linalg_check.h"

/* A = [[1, -2, 3], [4, 5, -6]] (float32) */
static const float A23[6] = {1, -2, 3, 4, 5, -6};
/* B = [[2, 1], [1, 3]] (float64), S = [[1, 2], [2, 4]] (rank 1, float32) */
static const double B22[4] = {2, 1, 1, 3};
static const float S22[4] = {1, 2, 2, 4};

static bool values_are(const ct_tensor *t, const double *want, int64_t n) {
  double got[32];
  if (!t || ct_numel(t) != n || n > 32 || ct_copy_to_buffer(t, got, CT_FLOAT64, (size_t)n * sizeof *got) != CT_OK)
    return false;
  for (int64_t i = 0; i < n; i++)
    if (got[i] != want[i]) {
      fprintf(stderr, "  element %lld: %.17g, expected %.17g\n", (long long)i, got[i], want[i]);
      return false;
    }
  return true;
}

static ct_tensor *ord_norm(const ct_tensor *a, ct_norm_ord ord, ct_scalar p) {
  return ct_linalg_matrix_norm(a, &(ct_matrix_norm_opts){.ord = ord, .p = p});
}

static void test_matrix_norm_values(void) {
  ct_scope_begin();
  ct_tensor *a = ct_tensor_from_data(A23, CT_FLOAT32, CT_SHAPE(2, 3), NULL);
  /* torch.linalg.matrix_norm(A, ord).item(), float32 results (float.hex): fro 0x1.3142b4p+3, 1: 9, -1: 5, inf: 15,
     -inf: 6 (the reductions: torch's bits); nuc 0x1.74ebcep+3, 2: 0x1.27336cp+3, -2: 0x1.36e188p+1 (gesdd) */
  CHECK(item(ct_linalg_matrix_norm(a, NULL)) == 0x1.3142b4p+3);
  CHECK(item(ord_norm(a, CT_NORM_FRO, (ct_scalar){0})) == 0x1.3142b4p+3);
  CHECK(item(ord_norm(a, CT_NORM_P, CT_INT(1))) == 9);
  CHECK(item(ord_norm(a, CT_NORM_P, CT_INT(-1))) == 5);
  CHECK(item(ord_norm(a, CT_NORM_P, CT_DOUBLE(INFINITY))) == 15);
  CHECK(item(ord_norm(a, CT_NORM_P, CT_DOUBLE(-INFINITY))) == 6);
  CHECK(fabs(item(ord_norm(a, CT_NORM_NUC, (ct_scalar){0})) - 0x1.74ebcep+3) < 1e-5);
  CHECK(fabs(item(ord_norm(a, CT_NORM_P, CT_INT(2))) - 0x1.27336cp+3) < 1e-5);
  CHECK(fabs(item(ord_norm(a, CT_NORM_P, CT_INT(-2))) - 0x1.36e188p+1) < 1e-5);
  /* the result is real for a complex input, and dtype= converts first: float64 */
  ct_tensor *r = ct_linalg_matrix_norm(a, &(ct_matrix_norm_opts){.ord = CT_NORM_P, .p = CT_INT(1), .dtype = CT_FLOAT64});
  CHECK(r && ct_dtype_of(r) == CT_FLOAT64 && item(r) == 9);
  r = ct_linalg_matrix_norm(ct_to_dtype(a, CT_COMPLEX64), NULL);
  CHECK(r && ct_dtype_of(r) == CT_FLOAT32);

  /* X = torch.arange(24.).reshape(2, 3, 4); matrix_norm(X, 1, dim=(2, 0), keepdim=True): [[[54], [70], [86]]],
     shape (1, 3, 1), strides (3, 1, 1); with 'nuc': [[[29.2460460663], [38.2535209656], [48.2424240112]]],
     strides (1, 1, 1) (the sum's keepdim result, unsqueezed and permuted back) */
  ct_tensor *x = ct_reshape(ct_arange_end(24, &(ct_tensor_opts){.dtype = CT_FLOAT32}), CT_SHAPE(2, 3, 4));
  r = ct_linalg_matrix_norm(x, &(ct_matrix_norm_opts){.ord = CT_NORM_P, .p = CT_INT(1), .dims = CT_DIMS(2, 0),
                                                      .keepdim = true});
  CHECK_SHAPE(r, 1, 3, 1);
  CHECK_STRIDES(r, 3, 1, 1);
  CHECK(values_are(r, (const double[]){54, 70, 86}, 3));
  r = ct_linalg_matrix_norm(x, &(ct_matrix_norm_opts){.ord = CT_NORM_NUC, .dims = CT_DIMS(2, 0), .keepdim = true});
  CHECK_SHAPE(r, 1, 3, 1);
  CHECK_STRIDES(r, 1, 1, 1);
  double nuc[3];
  CHECK(r && ct_copy_to_buffer(r, nuc, CT_FLOAT64, sizeof nuc) == CT_OK);
  CHECK(fabs(nuc[0] - 29.2460460663) < 1e-4 && fabs(nuc[1] - 38.2535209656) < 1e-4 &&
        fabs(nuc[2] - 48.2424240112) < 1e-4);
  /* torch.norm(A, 'nuc') == matrix_norm(A, 'nuc'): the same bits (the same svdvals and sum) */
  CHECK(item(ct_norm(a, &(ct_norm_opts){.nuc = true})) == item(ord_norm(a, CT_NORM_NUC, (ct_scalar){0})));
  r = ct_norm(x, &(ct_norm_opts){.nuc = true, .dims = CT_DIMS(2, 0), .keepdim = true});
  CHECK_SHAPE(r, 1, 3, 1);
  CHECK_STRIDES(r, 1, 1, 1);
  ct_scope_end();
}

static void test_linalg_norm(void) {
  ct_scope_begin();
  ct_tensor *x = ct_reshape(ct_arange_end(24, &(ct_tensor_opts){.dtype = CT_FLOAT32}), CT_SHAPE(2, 3, 4));
  /* torch.linalg.norm(X): the 2-norm of all the values, 0x1.07074cp+6 (vector_norm's bits) */
  CHECK(item(ct_linalg_norm(x, NULL)) == 0x1.07074cp+6);
  /* torch.linalg.norm(X, 3, dim=1)[0, 0]: 8.3203353882 (a vector norm over one dim) */
  ct_tensor *r = ct_linalg_norm(x, &(ct_linalg_norm_opts){.ord = CT_NORM_P, .p = CT_INT(3), .dims = CT_DIMS(1)});
  CHECK_SHAPE(r, 2, 4);
  double v[8];
  CHECK(r && ct_copy_to_buffer(r, v, CT_FLOAT64, sizeof v) == CT_OK && fabs(v[0] - 8.3203353882) < 1e-6);
  /* a number over two dims is matrix_norm's: inf over (2, 1) keepdim gives (2, 1, 1) */
  r = ct_linalg_norm(x, &(ct_linalg_norm_opts){.ord = CT_NORM_P, .p = CT_DOUBLE(INFINITY), .dims = CT_DIMS(2, 1),
                                              .keepdim = true});
  CHECK_SHAPE(r, 2, 1, 1);
  /* torch's refusals */
  CHECK(!ct_linalg_norm(x, &(ct_linalg_norm_opts){.ord = CT_NORM_FRO}));
  CHECK_ERROR(CT_ERR_RUNTIME,
              "linalg.norm: If dim is not specified but ord is, the input must be 1D or 2D. Got 3D.");
  CHECK(!ct_linalg_norm(x, &(ct_linalg_norm_opts){.dims = CT_DIMS(0, 1, 2)}));
  CHECK_ERROR(CT_ERR_RUNTIME, "linalg.norm: If dim is specified, it must be of length 1 or 2. Got [0, 1, 2]");
  CHECK(!ct_linalg_norm(x, &(ct_linalg_norm_opts){.ord = CT_NORM_NUC, .dims = CT_DIMS(0, 1, 2)}));
  CHECK_ERROR(CT_ERR_RUNTIME, "linalg.norm: If dim is specified, it mut be of length 1 or 2. Got [0, 1, 2]");
  CHECK(!ct_linalg_norm(x, &(ct_linalg_norm_opts){.ord = CT_NORM_FRO, .dims = CT_DIMS(1)}));
  CHECK_ERROR(CT_ERR_RUNTIME, "linalg.matrix_norm: dim must be a 2-tuple. Got 1");
  ct_scope_end();
}

static void test_cond(void) {
  ct_scope_begin();
  ct_tensor *b = ct_tensor_from_data(B22, CT_FLOAT64, CT_SHAPE(2, 2), NULL);
  /* torch.linalg.cond(B, p): None and 2: 2.6180339887498953, -2: 0.3819660112501051, 1 and inf: 3.2,
     -1 and -inf: 1.8000000000000003, 'fro': 3.0, 'nuc': 5.0 */
  CHECK(fabs(item(ct_linalg_cond(b, NULL)) - 2.6180339887498953) < 1e-14);
  CHECK(fabs(item(ct_linalg_cond(b, &(ct_linalg_cond_opts){CT_NORM_P, CT_INT(-2)})) - 0.3819660112501051) < 1e-14);
  CHECK(fabs(item(ct_linalg_cond(b, &(ct_linalg_cond_opts){CT_NORM_P, CT_INT(1)})) - 3.2) < 1e-14);
  CHECK(fabs(item(ct_linalg_cond(b, &(ct_linalg_cond_opts){CT_NORM_P, CT_DOUBLE(-INFINITY)})) - 1.8) < 1e-14);
  CHECK(fabs(item(ct_linalg_cond(b, &(ct_linalg_cond_opts){.ord = CT_NORM_FRO})) - 3.0) < 1e-14);
  CHECK(fabs(item(ct_linalg_cond(b, &(ct_linalg_cond_opts){.ord = CT_NORM_NUC})) - 5.0) < 1e-14);
  /* singular S: cond(S, 1) and cond(S, 'fro') are inf (its inverse filled with inf, 0 * inf made inf) */
  ct_tensor *s = ct_tensor_from_data(S22, CT_FLOAT32, CT_SHAPE(2, 2), NULL);
  CHECK(item(ct_linalg_cond(s, &(ct_linalg_cond_opts){CT_NORM_P, CT_INT(1)})) == INFINITY);
  CHECK(item(ct_linalg_cond(s, &(ct_linalg_cond_opts){.ord = CT_NORM_FRO})) == INFINITY);
  /* torch.linalg.cond(torch.zeros(3, 3)): nan (0 / 0); with 'fro': inf */
  ct_tensor *z = ct_zeros(CT_SHAPE(3, 3), NULL);
  CHECK(isnan(item(ct_linalg_cond(z, NULL))));
  CHECK(item(ct_linalg_cond(z, &(ct_linalg_cond_opts){.ord = CT_NORM_FRO})) == INFINITY);
  /* torch.linalg.cond(torch.zeros(2, 0, 0)) and of zeros(2, 0, 3) with 1: tensor([0., 0.]) */
  ct_tensor *r = ct_linalg_cond(ct_zeros(CT_SHAPE(2, 0, 0), NULL), NULL);
  CHECK_SHAPE(r, 2);
  CHECK(values_are(r, (const double[]){0, 0}, 2));
  r = ct_linalg_cond(ct_zeros(CT_SHAPE(2, 0, 3), NULL), &(ct_linalg_cond_opts){CT_NORM_P, CT_INT(1)});
  CHECK_SHAPE(r, 2);
  /* messages: a float order prints as std::to_string's "%f", an int as an int */
  ct_tensor *rect = ct_zeros(CT_SHAPE(3, 4), NULL);
  CHECK(!ct_linalg_cond(rect, &(ct_linalg_cond_opts){CT_NORM_P, CT_DOUBLE(1.0)}));
  CHECK_ERROR(CT_ERR_RUNTIME,
              "linalg.cond(ord=1.000000): A must be batches of square matrices, but they are 3 by 4 matrices");
  CHECK(!ct_linalg_cond(rect, &(ct_linalg_cond_opts){CT_NORM_P, CT_INT(-1)}));
  CHECK_ERROR(CT_ERR_RUNTIME, "linalg.cond(ord=-1): A must be batches of square matrices, but they are 3 by 4 matrices");
  CHECK(!ct_linalg_cond(rect, &(ct_linalg_cond_opts){CT_NORM_P, CT_INT(3)}));
  CHECK_ERROR(CT_ERR_RUNTIME, "linalg.cond got an invalid norm type: 3");
  CHECK(!ct_linalg_cond(ct_zeros(CT_SHAPE(3), NULL), NULL));
  CHECK_ERROR(CT_ERR_RUNTIME, "linalg.cond: The input tensor must have at least 2 dimensions.");
  CHECK(!ct_linalg_cond(ct_long(b), &(ct_linalg_cond_opts){.ord = CT_NORM_FRO}));
  CHECK_ERROR(CT_ERR_RUNTIME, "linalg.inv: Expected a floating point or complex tensor as input. Got Long");
  ct_scope_end();
}

static void test_refusals(void) {
  ct_scope_begin();
  ct_tensor *a = ct_tensor_from_data(A23, CT_FLOAT32, CT_SHAPE(2, 3), NULL);
  /* a misread order is refused in C: a number without CT_NORM_P, CT_NORM_P without a number, an unknown kind */
  CHECK(!ct_linalg_matrix_norm(a, &(ct_matrix_norm_opts){.p = CT_INT(2)}));
  CHECK_ERROR(CT_ERR_VALUE, "ct_linalg_matrix_norm: p is given but ord is not CT_NORM_P (the number would be ignored)");
  CHECK(!ct_linalg_matrix_norm(a, &(ct_matrix_norm_opts){.ord = CT_NORM_P}));
  CHECK_ERROR(CT_ERR_VALUE, "ct_linalg_matrix_norm: ord CT_NORM_P needs its number in p");
  CHECK(!ct_linalg_cond(a, &(ct_linalg_cond_opts){.ord = (ct_norm_ord)7}));
  CHECK_ERROR(CT_ERR_VALUE, "ct_linalg_cond: ord must be CT_NORM_DEFAULT, CT_NORM_P, CT_NORM_FRO or CT_NORM_NUC, got 7");
  CHECK(!ct_norm(a, &(ct_norm_opts){.nuc = true, .p = CT_INT(2)}));
  CHECK_ERROR(CT_ERR_VALUE, "norm(): nuc and a number p cannot both be given");
  /* torch's: an unsupported order, narrowing and low-precision dtypes, dims */
  CHECK(!ord_norm(a, CT_NORM_P, CT_DOUBLE(0.5)));
  CHECK_ERROR(CT_ERR_RUNTIME, "linalg.matrix_norm: Order 0.5 not supported.");
  CHECK(!ord_norm(ct_half(a), CT_NORM_NUC, (ct_scalar){0}));
  CHECK_ERROR(CT_ERR_RUNTIME, "linalg.matrix_norm: Low precision dtypes not supported. Got Half");
  CHECK(ord_norm(ct_half(a), CT_NORM_P, CT_INT(1)) != NULL); /* the reductions take float16 */
  CHECK(!ct_linalg_matrix_norm(a, &(ct_matrix_norm_opts){.dtype = CT_FLOAT16}));
  CHECK_ERROR(CT_ERR_RUNTIME, "linalg.matrix_norm: the dtype of the input (Float) should be convertible without "
                              "narrowing to the specified dtype (Half)");
  CHECK(!ct_linalg_matrix_norm(a, &(ct_matrix_norm_opts){.dims = CT_DIMS(1, -1)}));
  CHECK_ERROR(CT_ERR_RUNTIME, "linalg.matrix_norm: dims must be different. Got (1, 1)");
  CHECK(!ct_linalg_matrix_norm(a, &(ct_matrix_norm_opts){.dims = CT_DIMS(1, 2, 0)}));
  CHECK_ERROR(CT_ERR_RUNTIME, "linalg.matrix_norm: dim must be a 2-tuple. Got 1 2 0");
  CHECK(!ct_linalg_matrix_norm(a, &(ct_matrix_norm_opts){.dims = CT_DIMS(0, 2)}));
  CHECK_ERROR(CT_ERR_INDEX, "Dimension out of range (expected to be in range of [-2, 1], but got 2)");
  /* torch.norm(torch.tensor([[nan, 1.], [1, 1]]), 'nuc'): gesdd refuses the NaN (info -4), torch's LinAlgError */
  const float nan4[4] = {NAN, 1, 1, 1};
  CHECK(!ct_norm(ct_tensor_from_data(nan4, CT_FLOAT32, CT_SHAPE(2, 2), NULL), &(ct_norm_opts){.nuc = true}));
  CHECK_ERROR(CT_ERR_LINALG,
              "linalg.svd: The algorithm failed to converge because the input matrix contained non-finite values.");
  /* torch.linalg.matrix_norm(torch.zeros(2, 0, 3), inf): amax over an empty dim */
  CHECK(!ord_norm(ct_zeros(CT_SHAPE(2, 0, 3), NULL), CT_NORM_P, CT_DOUBLE(INFINITY)));
  CHECK_ERROR(CT_ERR_INDEX, "amax(): Expected reduction dim 1 to have non-zero size.");
  ct_scope_end();
}

static void test_out(void) {
  ct_scope_begin();
  ct_tensor *a = ct_tensor_from_data(A23, CT_FLOAT32, CT_SHAPE(2, 3), NULL);
  ct_tensor *o64 = ct_full(CT_SHAPE(2), 7.0, &(ct_tensor_opts){.dtype = CT_FLOAT64});
  /* matrix_norm and norm check out's dtype after computing; out keeps its shape and values */
  CHECK(ct_linalg_matrix_norm_out(o64, a, NULL) == CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, "linalg.matrix_norm expected out tensor dtype Float but got: Double");
  CHECK(ct_linalg_norm_out(o64, a, NULL) == CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, "linalg.norm expected out tensor dtype Float but got: Double");
  CHECK_SHAPE(o64, 2);
  CHECK(values_are(o64, (const double[]){7, 7}, 2));
  /* cond's out only needs to be castable from the result's dtype; a long one is refused first */
  CHECK(ct_linalg_cond_out(o64, ct_tensor_from_data(B22, CT_FLOAT64, CT_SHAPE(2, 2), NULL),
                           &(ct_linalg_cond_opts){.ord = CT_NORM_FRO}) == CT_OK);
  CHECK_EQ_INT(ct_dim(o64), 0);
  CHECK(fabs(item(o64) - 3.0) < 1e-14);
  ct_tensor *ol = ct_zeros(CT_SHAPE(1), &(ct_tensor_opts){.dtype = CT_INT64});
  CHECK(ct_linalg_cond_out(ol, a, NULL) == CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME,
              "linalg.cond: Expected result to be safely castable from Float dtype, but got result with dtype Long");
  /* torch.norm(A, 'nuc', out=o) with a float64 out: resized to () and copied */
  ct_tensor *on = ct_empty(CT_SHAPE(0), &(ct_tensor_opts){.dtype = CT_FLOAT64});
  CHECK(ct_norm_out(on, a, &(ct_norm_opts){.nuc = true}) == CT_OK);
  CHECK_EQ_INT(ct_dim(on), 0);
  CHECK(fabs(item(on) - 0x1.74ebcep+3) < 1e-5);
  ct_scope_end();
}

int main(void) {
  test_matrix_norm_values();
  test_linalg_norm();
  test_cond();
  test_refusals();
  test_out();
  return TEST_SUMMARY();
}
