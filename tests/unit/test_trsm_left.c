/* The blocked left triangular solve (src/ops/linalg/trsm_left.c) against OpenBLAS's own trsm, for every
   dtype, triangle, transpose and diagonal kind, sizes around its leaves (16 rows) and column groups: the
   same solution within rounding, the same NaN positions where B or T holds a NaN or an infinity, and the
   same bits for a column whichever group and call it is solved in. */
#include <complex.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "core/internal.h"
#include "kernels/cpu/blas.h"
#include "ops/linalg/trsm_left.h"

typedef void trsm_fn(const char *, const char *, const char *, const char *, const int *, const int *,
                     const void *, const void *, const int *, void *, const int *, size_t, size_t, size_t,
                     size_t);

static const char *const trsm_names[] = {"strsm_", "dtrsm_", "ctrsm_", "ztrsm_"};
static const ct_dtype dtypes[] = {CT_FLOAT32, CT_FLOAT64, CT_COMPLEX64, CT_COMPLEX128};

static uint64_t rng = 88172645463325252u;
static double uniform(void) { /* xorshift64: -0.5 .. 0.5 */
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return (double)(rng >> 11) / 9007199254740992.0 - 0.5;
}

static bool is_complex(ct_dtype dt) { return dt == CT_COMPLEX64 || dt == CT_COMPLEX128; }
static bool is_single(ct_dtype dt) { return dt == CT_FLOAT32 || dt == CT_COMPLEX64; }

/* Element i of a buffer of dt as a complex double, and the other way. */
static double complex get(ct_dtype dt, const void *p, size_t i) {
  switch (dt) {
    case CT_FLOAT32: return ((const float *)p)[i];
    case CT_FLOAT64: return ((const double *)p)[i];
    case CT_COMPLEX64: return ((const float complex *)p)[i];
    default: return ((const double complex *)p)[i];
  }
}
static void put(ct_dtype dt, void *p, size_t i, double complex v) {
  switch (dt) {
    case CT_FLOAT32: ((float *)p)[i] = (float)creal(v); break;
    case CT_FLOAT64: ((double *)p)[i] = creal(v); break;
    case CT_COMPLEX64: ((float complex *)p)[i] = (float complex)v; break;
    default: ((double complex *)p)[i] = v; break;
  }
}

/* A well-conditioned n x n T (diagonal n, the rest below 2 / n, so that the unit diagonal's T is one too; the
   unread triangle as filled, garbage to the solve) and an n x m B,
   column-major with leading dimensions n + 3 and n + 5 (not packed). */
static void fill(ct_dtype dt, int n, int m, void *t, int ldt, void *b, int ldb) {
  for (int j = 0; j < n; j++)
    for (int i = 0; i < ldt; i++)
      put(dt, t, (size_t)i + (size_t)j * (size_t)ldt,
          i == j ? n + 0.5 * I * is_complex(dt) : (uniform() + I * (is_complex(dt) ? uniform() : 0)) * 4 / n);
  for (int j = 0; j < m; j++)
    for (int i = 0; i < ldb; i++)
      put(dt, b, (size_t)i + (size_t)j * (size_t)ldb, uniform() + I * (is_complex(dt) ? uniform() : 0));
}

/* The blocked solve and OpenBLAS's trsm on copies of b: relative max difference, and whether the NaN
   positions agree (NaN of either part, as torch's isnan for complex). */
static double compare(ct_dtype dt, char uplo, char trans, char diag, int n, int m, const void *t, int ldt,
                      const void *b, int ldb, bool *nan_same) {
  size_t isz = ct__itemsize(dt), bytes = isz * (size_t)ldb * (size_t)m;
  void *x = malloc(bytes), *y = malloc(bytes);
  memcpy(x, b, bytes);
  memcpy(y, b, bytes);
  ct__la_trsm_left(dt, uplo, trans, diag, n, m, t, ldt, x, ldb, 32);
  trsm_fn *f;
  void *sym = ct__blas_sym(trsm_names[dt == CT_FLOAT32     ? 0
                                      : dt == CT_FLOAT64   ? 1
                                      : dt == CT_COMPLEX64 ? 2
                                                           : 3]);
  memcpy(&f, &sym, sizeof f);
  static const float one_f[2] = {1, 0};
  static const double one_d[2] = {1, 0};
  f("L", &uplo, &trans, &diag, &n, &m, is_single(dt) ? (const void *)one_f : one_d, t, &ldt, y, &ldb, 1, 1, 1,
    1);
  double worst = 0, scale = 0;
  *nan_same = true;
  for (int j = 0; j < m; j++)
    for (int i = 0; i < ldb; i++) {
      size_t k = (size_t)i + (size_t)j * (size_t)ldb;
      double complex u = get(dt, x, k), v = get(dt, y, k);
      bool nu = isnan(creal(u)) || isnan(cimag(u)), nv = isnan(creal(v)) || isnan(cimag(v));
      if (nu != nv) *nan_same = false;
      if (i >= n && memcmp((char *)x + k * isz, (char *)b + k * isz, isz))
        *nan_same = false; /* rows past n */
      if (nu || nv || !isfinite(cabs(u)) || !isfinite(cabs(v))) continue;
      if (cabs(u - v) > worst) worst = cabs(u - v);
      if (cabs(v) > scale) scale = cabs(v);
    }
  free(x);
  free(y);
  return scale > 0 ? worst / scale : worst;
}

static void test_against_trsm(void) {
  static const int sizes[][2] = {{1, 1},   {15, 3},   {16, 5},   {17, 9},   {64, 16},
                                 {65, 17}, {100, 33}, {131, 70}, {200, 129}};
  static const char uplos[] = {'L', 'U'}, transes[] = {'N', 'T', 'C'}, diags[] = {'N', 'U'};
  for (int d = 0; d < 4; d++)
    for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
      ct_dtype dt = dtypes[d];
      int n = sizes[s][0], m = sizes[s][1], ldt = n + 3, ldb = n + 5;
      size_t isz = ct__itemsize(dt);
      void *t = malloc(isz * (size_t)ldt * (size_t)n), *b = malloc(isz * (size_t)ldb * (size_t)m);
      fill(dt, n, m, t, ldt, b, ldb);
      for (int u = 0; u < 2; u++)
        for (int r = 0; r < 3; r++)
          for (int g = 0; g < 2; g++) {
            bool nan_same;
            double err = compare(dt, uplos[u], transes[r], diags[g], n, m, t, ldt, b, ldb, &nan_same);
            double tol = is_single(dt) ? 2e-6 : 4e-15;
            CHECK(err <= tol && nan_same);
            if (err > tol || !nan_same)
              fprintf(stderr, "  dtype %d n %d m %d uplo %c trans %c diag %c: relative difference %g\n",
                      (int)dt, n, m, uplos[u], transes[r], diags[g], err);
          }
      free(t);
      free(b);
    }
}

/* NaN and infinity in B (one column each) and in T (off the diagonal, on it, a zero pivot): the NaN positions
   of OpenBLAS's trsm, for every triangle, transpose and diagonal kind; 85 rows: a partial leaf. */
static void test_non_finite(void) {
  int n = 85, m = 20, ldt = n, ldb = n;
  static const char transes[] = {'N', 'T', 'C'};
  for (int d = 0; d < 4; d++) {
    ct_dtype dt = dtypes[d];
    size_t isz = ct__itemsize(dt);
    void *t = malloc(isz * (size_t)n * (size_t)n), *b = malloc(isz * (size_t)n * (size_t)m);
    for (int c = 0; c < 7; c++) {
      fill(dt, n, m, t, ldt, b, ldb);
      if (c == 0) put(dt, b, 37 + 3 * (size_t)ldb, NAN);       /* inside a leaf, mid-matrix */
      if (c == 1) put(dt, b, 40 + 5 * (size_t)ldb, INFINITY);  /* a leaf's first row */
      if (c == 2) put(dt, t, 50 + 20 * (size_t)ldt, NAN);      /* lower triangle, off the diagonal */
      if (c == 3) put(dt, t, 20 + 50 * (size_t)ldt, INFINITY); /* upper triangle */
      if (c == 4) put(dt, t, 33 + 33 * (size_t)ldt, NAN);      /* the diagonal */
      if (c == 5) put(dt, t, 81 + 81 * (size_t)ldt, 0);        /* a zero pivot in the partial leaf */
      if (c == 6) put(dt, b, 84 + 19 * (size_t)ldb, -INFINITY); /* the last row of the last column */
      for (int u = 0; u < 2; u++)
        for (int r = 0; r < 3; r++)
          for (int g = 0; g < 2; g++) {
            char uplo = u ? 'U' : 'L', trans = transes[r], diag = g ? 'U' : 'N';
            bool nan_same;
            compare(dt, uplo, trans, diag, n, m, t, ldt, b, ldb, &nan_same);
            CHECK(nan_same);
            if (!nan_same)
              fprintf(stderr, "  dtype %d case %d uplo %c trans %c diag %c: NaN positions differ\n", (int)dt,
                      c, uplo, trans, diag);
          }
    }
    free(t);
    free(b);
  }
}

/* A leaf whose inverse overflows though the system is finite (the first 16 rows lower bidiagonal: diagonal
   tiny, subdiagonal 1, so the inverse's entries grow as tiny^-k), x = e_15: no NaN, OpenBLAS's solution. */
static void test_inverse_overflow(void) {
  int n = 256, m = 16;
  for (int d = 0; d < 2; d++) {
    ct_dtype dt = dtypes[d];
    double tiny = dt == CT_FLOAT32 ? 1e-3 : 1e-21;
    size_t isz = ct__itemsize(dt);
    void *t = calloc((size_t)n * (size_t)n, isz), *b = calloc((size_t)n * (size_t)m, isz);
    for (int i = 0; i < n; i++) put(dt, t, (size_t)i * (size_t)(n + 1), i < 16 ? tiny : 1);
    for (int i = 1; i < 16; i++) put(dt, t, (size_t)i + (size_t)(i - 1) * (size_t)n, 1);
    for (int j = 0; j < m;
         j++) { /* column j of b: T e_15 = tiny e_15 (+ nothing below: row 16 is not coupled) */
      put(dt, b, 15 + (size_t)j * (size_t)n, tiny);
      put(dt, b, 100 + (size_t)j * (size_t)n, j); /* and something finite further down */
    }
    bool nan_same;
    double err = compare(dt, 'L', 'N', 'N', n, m, t, n, b, n, &nan_same);
    CHECK(nan_same && err <= (dt == CT_FLOAT32 ? 1e-6 : 1e-15));
    if (!nan_same || err > 1e-6)
      fprintf(stderr, "  dtype %d: NaN positions %s, difference %g\n", (int)dt, nan_same ? "same" : "differ",
              err);
    free(t);
    free(b);
  }
}

/* A column's bits do not depend on the call or the group it is solved in, as long as the groups are cut at
   the same multiples of the chunk (lapack.c cuts the pool's blocks there), nor on its neighbours: a NaN in
   column 37 changes no other column. */
static void test_groups(void) {
  int n = 150, m = 100, chunk = 32;
  for (int d = 0; d < 4; d++) {
    ct_dtype dt = dtypes[d];
    size_t isz = ct__itemsize(dt), bytes = isz * (size_t)n * (size_t)m, col = isz * (size_t)n;
    void *t = malloc(isz * (size_t)n * (size_t)n), *b = malloc(bytes), *x = malloc(bytes), *y = malloc(bytes);
    fill(dt, n, m, t, n, b, n);
    for (int g = 0; g < 2; g++) {
      char uplo = g ? 'L' : 'U', trans = g ? 'T' : 'N';
      memcpy(x, b, bytes);
      memcpy(y, b, bytes);
      ct__la_trsm_left(dt, uplo, trans, 'N', n, m, t, n, x, n, chunk);
      for (int first = 0; first < m; first += 2 * chunk) { /* two groups per call, as a pool block */
        int count = m - first < 2 * chunk ? m - first : 2 * chunk;
        ct__la_trsm_left(dt, uplo, trans, 'N', n, count, t, n, (char *)y + (size_t)first * col, n, chunk);
      }
      CHECK(memcmp(x, y, bytes) == 0);
      memcpy(y, b, bytes);
      put(dt, y, 70 + 37 * (size_t)n, NAN);
      ct__la_trsm_left(dt, uplo, trans, 'N', n, m, t, n, y, n, chunk);
      CHECK(memcmp(x, y, 37 * col) == 0 &&
            memcmp((char *)x + 38 * col, (char *)y + 38 * col, bytes - 38 * col) == 0);
    }
    free(t);
    free(b);
    free(x);
    free(y);
  }
}

int main(void) {
  CHECK(ct__blas_ready());
  ct_set_num_threads(1);
  ct__blas_threads_one();
  test_against_trsm();
  test_non_finite();
  test_inverse_overflow();
  test_groups();
  return TEST_SUMMARY();
}
