/* Threads under the linear algebra: libgomp's wait policy as ctorch loads it (src/core/omp_runtime.c) and
   the solves with many right-hand sides, whose blocks of columns (or rows) run as serial LAPACK calls (or
   src/ops/linalg/trsm_left.c's solves) on the library's pool (src/ops/linalg/lapack.c): at 2 threads they give 1 thread's result, bit for bit (each
   right-hand side's solution is computed alone), and solve the system. A triangular solve from the right
   (X A = B) is one call, which OpenBLAS's own threads run: close to 1 thread's result, not the same bits. */
#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "core/omp_runtime.h"

/* libgomp's own account of its settings (omp_display_env writes it to stderr), into buf. */
static bool gomp_settings(char *buf, size_t size) {
  void *h = dlopen("libgomp.so.1", RTLD_NOW | RTLD_NOLOAD);
  void *sym = h ? dlsym(h, "omp_display_env") : NULL;
  if (!sym) return false;
  void (*display)(int);
  memcpy(&display, &sym, sizeof display);
  FILE *tmp = tmpfile();
  if (!tmp) return false;
  fflush(stderr);
  int saved = dup(2);
  dup2(fileno(tmp), 2);
  display(0);
  fflush(stderr);
  dup2(saved, 2);
  close(saved);
  rewind(tmp);
  size_t n = fread(buf, 1, size - 1, tmp);
  buf[n] = 0;
  fclose(tmp);
  return n > 0;
}

static void test_wait_policy(void) {
  /* this program does not link libgomp: ctorch brought it in, passive unless the user chose (the variable
     ctorch sets is gone again, so whatever is in the environment now is the user's) */
  bool user = getenv("OMP_WAIT_POLICY") || getenv("GOMP_SPINCOUNT");
  CHECK(ct__omp_passive() == !user);
  CHECK(ct__omp_get_max_threads() >= 1);
  static char text[8192];
  CHECK(gomp_settings(text, sizeof text));
  if (!user) CHECK(strstr(text, "OMP_WAIT_POLICY = 'PASSIVE'") != NULL);
}

/* Whether lhs (op(x), for a solution x) is b: |lhs - b| / |b| below tol (inside a scope: it owns the results). */
static bool solves(const ct_tensor *lhs, const ct_tensor *b, double tol) {
  ct_tensor *d = ct_dist(lhs, b, NULL), *nb = ct_linalg_vector_norm(b, NULL);
  double r = NAN, s = NAN;
  bool ok = d && nb && ct_copy_to_buffer(d, &r, CT_FLOAT64, sizeof r) == CT_OK &&
            ct_copy_to_buffer(nb, &s, CT_FLOAT64, sizeof s) == CT_OK && r <= tol * s;
  if (!ok) fprintf(stderr, "  residual %g of |b| %g (tol %g)\n", r, s, tol);
  return ok;
}

/* Runs one solve at 1 and at 2 threads: the same bits (close values where OpenBLAS threads the one call),
   and a solution (inside a scope). */
typedef ct_tensor *solve_fn(ct_tensor *const *in);
static void same_at_two_threads(const char *what, solve_fn *fn, ct_tensor *const *in,
                                ct_tensor *(*check)(ct_tensor *const *, const ct_tensor *), const ct_tensor *rhs,
                                double tol, bool bitwise) {
  ct_tensor *x[2];
  for (int t = 0; t < 2; t++) {
    ct_set_num_threads(t + 1);
    x[t] = fn(in);
  }
  ct_set_num_threads(0);
  bool eq = false;
  if (bitwise)
    CHECK(x[0] && x[1] && ct_equal(x[0], x[1], &eq) == CT_OK && eq);
  else
    CHECK(x[0] && x[1] && ct_allclose(x[0], x[1], &eq, NULL) == CT_OK && eq);
  ct_tensor *lhs = x[1] ? check(in, x[1]) : NULL;
  CHECK(lhs && solves(lhs, rhs, tol));
  if (!eq || !lhs) fprintf(stderr, "  in %s\n", what);
}

/* in: A (well conditioned), B (n x k), Bt (k x n), S (symmetric positive definite), L (S's Cholesky
   factor), U (A's upper triangle), LU, pivots */
static ct_tensor *f_solve(ct_tensor *const *in) { return ct_linalg_solve(in[0], in[1], NULL); }
static ct_tensor *f_inv(ct_tensor *const *in) { return ct_linalg_inv(in[0]); }
static ct_tensor *f_lu_solve(ct_tensor *const *in) { return ct_linalg_lu_solve(in[6], in[7], in[1], NULL); }
static ct_tensor *f_cholesky_solve(ct_tensor *const *in) { return ct_cholesky_solve(in[1], in[4], NULL); }
static ct_tensor *f_tri_left(ct_tensor *const *in) { return ct_linalg_solve_triangular(in[5], in[1], true, NULL); }
static ct_tensor *f_tri_right(ct_tensor *const *in) {
  return ct_linalg_solve_triangular(in[5], in[2], true, &(ct_linalg_solve_triangular_opts){.right = true});
}
/* the other triangles and forms: cholesky_solve with the upper factor L^H, the unit lower triangle of LU, and
   U^T (a transposed view: the solve's trans 'T') */
static ct_tensor *f_cholesky_solve_upper(ct_tensor *const *in) {
  return ct_cholesky_solve(in[1], ct_conj(ct_mT(in[4])), &(ct_cholesky_solve_opts){.upper = true});
}
static ct_tensor *f_tri_unit_lower(ct_tensor *const *in) {
  return ct_linalg_solve_triangular(in[6], in[1], false,
                                    &(ct_linalg_solve_triangular_opts){.unitriangular = true});
}
static ct_tensor *f_tri_transposed(ct_tensor *const *in) {
  return ct_linalg_solve_triangular(ct_mT(in[5]), in[1], false, NULL);
}
static ct_tensor *unit_l_x(ct_tensor *const *in, const ct_tensor *x) {
  ct_tensor_opts to = {.dtype = ct_dtype_of(in[6])};
  return ct_matmul(ct_add(ct_tril(in[6], -1), ct_eye(ct_size(in[6], 0), &to), NULL), x);
}
static ct_tensor *ut_x(ct_tensor *const *in, const ct_tensor *x) { return ct_matmul(ct_mT(in[5]), x); }
static ct_tensor *a_x(ct_tensor *const *in, const ct_tensor *x) { return ct_matmul(in[0], x); }
static ct_tensor *s_x(ct_tensor *const *in, const ct_tensor *x) { return ct_matmul(in[3], x); }
static ct_tensor *u_x(ct_tensor *const *in, const ct_tensor *x) { return ct_matmul(in[5], x); }
static ct_tensor *x_u(ct_tensor *const *in, const ct_tensor *x) { return ct_matmul(x, in[5]); }

static void test_many_rhs(ct_dtype dt, int64_t n, int64_t k) {
  ct_scope_begin();
  ct_manual_seed(5);
  ct_random_opts ro = {.dtype = dt};
  ct_tensor_opts to = {.dtype = dt};
  ct_tensor *A = ct_add(ct_randn(CT_SHAPE(n, n), &ro), ct_eye(n, &to), &(ct_alpha_opts){.alpha = CT_NUM((double)n)});
  ct_tensor *B = ct_randn(CT_SHAPE(n, k), &ro), *Bt = ct_randn(CT_SHAPE(k, n), &ro);
  ct_tensor *S = ct_add(ct_matmul(A, ct_conj(ct_mT(A))), ct_eye(n, &to), NULL);
  ct_tensor *L = ct_linalg_cholesky(S, NULL), *U = ct_triu(A, 0);
  ct_tensor *LU = NULL, *piv = NULL;
  CHECK(ct_linalg_lu_factor(A, &LU, &piv, NULL) == CT_OK);
  ct_tensor *in[] = {A, B, Bt, S, L, U, LU, piv};
  bool all = true;
  for (size_t i = 0; i < sizeof in / sizeof *in; i++) all &= in[i] != NULL;
  CHECK(all);
  if (all) {
    double tol = dt == CT_FLOAT64 || dt == CT_COMPLEX128 ? 1e-10 : 1e-3;
    ct_tensor *eye = ct_eye(n, &to);
    same_at_two_threads("linalg.solve", f_solve, in, a_x, B, tol, true);
    same_at_two_threads("linalg.inv", f_inv, in, a_x, eye, tol, true);
    same_at_two_threads("linalg.lu_solve", f_lu_solve, in, a_x, B, tol, true);
    same_at_two_threads("cholesky_solve", f_cholesky_solve, in, s_x, B, tol, true);
    same_at_two_threads("solve_triangular", f_tri_left, in, u_x, B, tol, true);
    same_at_two_threads("cholesky_solve, upper", f_cholesky_solve_upper, in, s_x, B, tol, true);
    same_at_two_threads("solve_triangular, unit lower", f_tri_unit_lower, in, unit_l_x, B, tol, true);
    same_at_two_threads("solve_triangular, transposed", f_tri_transposed, in, ut_x, B, tol, true);
    same_at_two_threads("solve_triangular, right", f_tri_right, in, x_u, Bt, tol, false);
  }
  ct_scope_end();
}

int main(void) {
  test_wait_policy();
  /* n * n * k well above the size from which the blocks run on the pool; k not a multiple of the block */
  test_many_rhs(CT_FLOAT64, 160, 301);
  test_many_rhs(CT_COMPLEX64, 130, 257);
  test_many_rhs(CT_FLOAT32, 200, 90);
  /* from 256 rows the triangular solves are trsm_left.c's blocking over gemm, its column groups cut where
     the pool's blocks are */
  test_many_rhs(CT_FLOAT64, 300, 150);
  test_many_rhs(CT_COMPLEX128, 260, 100); /* complex: LAPACK calls (trsm_left_pays) */
  test_many_rhs(CT_FLOAT32, 280, 333);
  return TEST_SUMMARY();
}
