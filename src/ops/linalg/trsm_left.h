/* op(T) X = B for a triangular T on the left and many right-hand sides, in gemm-sized blocks (trsm_left.c says
   why BLAS's trsm is not called for these). */
#ifndef CTORCH_OPS_LINALG_TRSM_LEFT_H
#define CTORCH_OPS_LINALG_TRSM_LEFT_H
#include <stdbool.h>

#include "ctorch/types.h"

/* The sizes from which it is used (n rows of T, m right-hand sides in all). It beats OpenBLAS's trsm from
   n = 32 and m = 8 already (1.4x-2.5x at 1 thread from n = 64, m = 16); below 256 rows LAPACK's own solve
   is kept so that the sizes tests and most programs use keep torch's bits: a float32 solve of a matrix of
   condition 3000 differs from torch's by up to 2e-5, past assert_close's default tolerance, though its
   residual is no larger. */
#define CT_TRSM_LEFT_MIN_N 256
#define CT_TRSM_LEFT_MIN_M 16
/* Real dtypes only: OpenBLAS's complex trsm is nearer its gemm (complex solves of 512 were 1.05-1.10x
   torch's through this file, 0.99x at 256: not worth other bits than LAPACK's). */
bool ct__la_trsm_left_pays(ct_dtype dt, int n, int m);

/* T: n x n column-major (ldt), its uplo ('L' / 'U') triangle read, diag 'U' for a unit diagonal; trans 'N', 'T'
   or 'C'; b: n x m column-major (ldb), overwritten with X. dt: one of the four LAPACK dtypes. BLAS is loaded;
   gemm runs on the calling thread with OpenBLAS's current thread count. The columns are solved in groups of
   `chunk` (the last one shorter): OpenBLAS's gemm picks its kernels by the shape (its small-matrix kernels
   sum in another order), so two calls give a column the same bits only where its group has the same width;
   callers that split the columns between threads cut them at multiples of `chunk`. */
void ct__la_trsm_left(ct_dtype dt, char uplo, char trans, char diag, int n, int m, const void *t, int ldt,
                      void *b, int ldb, int chunk);
#endif
