/* The left triangular solve op(T) X = B with many right-hand sides, blocked here over BLAS gemm.
   Why not BLAS trsm alone: Debian's OpenBLAS 0.3.21 runs trsm at about 40% of its gemm on this machine's
   AVX-512 kernels (dtrsm, 512 rows and 512 right-hand sides: 22 GFLOP/s at one thread against dgemm's 58;
   16 rows: 2 GFLOP/s), and getrs and potrs are two such solves each: linalg.solve and linalg.inv of 512 spent
   three quarters of their time there. The recursion halves the triangle until 16 rows are left: the
   rectangle beside each split is one gemm, the 16-row triangles are solved below (the only arithmetic not in
   BLAS: substitution, or a product with the triangle's inverse), so all but n * 16 * m of the n * n * m
   multiply-adds run in gemm. That is the blocked algorithm BLAS's trsm itself uses, with gemm's kernels for
   the rectangles.
   Bits: each column of B is solved on its own, in an order that does not depend on how many columns one call
   gets or on its neighbours, as long as calls are cut at multiples of `chunk` (gemm's shapes; lapack.c's
   by_rhs_blocks cuts there), so blocks of columns solved apart give the bits of one call. They are not
   OpenBLAS trsm's bits (its blocks are cut elsewhere): the results agree within rounding, as LAPACK's do
   between thread counts. */
#include "ops/linalg/trsm_left.h"

#include <complex.h>
#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "core/cpu_isa.h"
#include "core/internal.h"
#include "kernels/cpu/blas.h"
#include "kernels/cpu/dtypes.h" /* CMPLX / CMPLXF under clang */

/* rows of the leaf triangles (with substitution alone, 16 gave 1.9x OpenBLAS's trsm at n = 512, 32 1.8x) */
#define LEAF 16

/* The leaf: rows r0 .. r0 + kb - 1 of the m columns of b. op(T) restricted to them is copied into d
   (column-major, LEAF x LEAF, op applied), the reciprocals of its diagonal into r (1 for a unit diagonal;
   OpenBLAS's trsm kernels multiply by the reciprocal too). Two ways to solve a column:
   - substitution, as trsm: the columns go through in groups of LANES, transposed into x so that each step is
     one operation across the group (the compiler's vectors);
   - for real dtypes, the product with the leaf's inverse (formed once by substitution on the identity),
     whose every step runs across the column's rows, without the transposition (half the leaf's time).
     Its error grows with the leaf's condition, as substitution's bound does but not always its actual
     error, so it is used only where the leaf's condition (1-norm) is at most LEAF_COND_MAX; and only for a
     column whose result is finite: an infinity or NaN in the column would reach the rows above it through
     the inverse's zeros, where substitution, OpenBLAS and torch leave numbers, and an inverse's entry can
     overflow where substitution's never forms it. Such a column takes the substitution's result.
   Each column's path and arithmetic depend on that column and the leaf alone, never on its group. */
#define LEAF_COND_MAX 1024.0
#define LANES(T) (64 / (int)sizeof(T))
#define DEFINE_LEAF(SUF, T, R, CONJ, MUL, INV, ABS, APPLY, HAS_APPLY)                                           \
  /* substitution on the LANES(T) columns of x (rows 0 .. kb - 1) */                                            \
  static inline void subst_##SUF(bool lower, int kb, const T *d, const T *r, T(*x)[LANES(T)]) {                 \
    if (lower)                                                                                                  \
      for (int k = 0; k < kb; k++) {                                                                            \
        for (int c = 0; c < LANES(T); c++) x[k][c] = MUL(x[k][c], r[k]);                                        \
        for (int i = k + 1; i < kb; i++) {                                                                      \
          T dik = d[i + k * LEAF];                                                                              \
          for (int c = 0; c < LANES(T); c++) x[i][c] -= MUL(dik, x[k][c]);                                      \
        }                                                                                                       \
      }                                                                                                         \
    else                                                                                                        \
      for (int k = kb - 1; k >= 0; k--) {                                                                       \
        for (int c = 0; c < LANES(T); c++) x[k][c] = MUL(x[k][c], r[k]);                                        \
        for (int i = 0; i < k; i++) {                                                                           \
          T dik = d[i + k * LEAF];                                                                              \
          for (int c = 0; c < LANES(T); c++) x[i][c] -= MUL(dik, x[k][c]);                                      \
        }                                                                                                       \
      }                                                                                                         \
  }                                                                                                             \
  /* whether the n values from p (real parts) are all finite (x - x is 0 only for those; an integer OR, which \
     the compiler vectorizes, not a floating sum, which it may not reorder) */ \
  static inline bool finite_##SUF(const R *p, int n) {                                                          \
    int bad = 0;                                                                                                \
    for (int i = 0; i < n; i++) bad |= !(p[i] - p[i] == 0);                                                     \
    return !bad;                                                                                                \
  }                                                                                                             \
  /* the 1-norm (largest column sum of |.|) of the kb x kb triangle of a (column-major, LEAF rows) */           \
  static inline R norm1_##SUF(bool lower, int kb, const T *a) {                                                 \
    R most = 0;                                                                                                 \
    for (int k = 0; k < kb; k++) {                                                                              \
      R sum = 0;                                                                                                \
      for (int i = lower ? k : 0; i < (lower ? kb : k + 1); i++) sum += ABS(a[i + k * LEAF]);                   \
      most = sum > most ? sum : most;                                                                           \
    }                                                                                                           \
    return most;                                                                                                \
  }                                                                                                             \
  CT_KERNEL_CLONES static void leaf_##SUF(bool lower, bool unit, char trans, int r0, int kb, int m,             \
                                          const T *t, int ldt, T *b, int ldb) {                                 \
    enum {                                                                                                      \
      parts = (int)(sizeof(T) / sizeof(R))                                                                      \
    };                                                                                                          \
    T d[LEAF * LEAF], r[LEAF], x[LEAF][LANES(T)], inv[LEAF * LEAF] = {0}, y[LANES(T)][LEAF];                    \
    bool by_inverse = HAS_APPLY, ok[LANES(T)];                                                                  \
    for (int k = 0; k < kb; k++)                                                                                \
      for (int i = 0; i < kb; i++) {                                                                            \
        T v = trans == 'N' ? t[(size_t)(r0 + i) + (size_t)(r0 + k) * (size_t)ldt]                               \
                           : t[(size_t)(r0 + k) + (size_t)(r0 + i) * (size_t)ldt];                              \
        d[i + k * LEAF] = trans == 'C' ? CONJ(v) : v;                                                           \
        if (lower ? i > k : i < k) by_inverse &= finite_##SUF((const R *)&d[i + k * LEAF], parts);              \
      }                                                                                                         \
    for (int k = 0; k < kb; k++) {                                                                              \
      r[k] = unit ? (T)1 : INV(d[k + k * LEAF]);                                                                \
      if (unit) d[k + k * LEAF] = (T)1; /* for the condition: the diagonal the solve uses */                    \
      by_inverse &= finite_##SUF((const R *)&r[k], parts);                                                      \
    }                                                                                                           \
    for (int c0 = 0; by_inverse && c0 < kb;                                                                     \
         c0 += LANES(T)) { /* inv = op(T)^-1, LANES(T) columns at a time */                                     \
      for (int i = 0; i < kb; i++)                                                                              \
        for (int c = 0; c < LANES(T); c++) x[i][c] = i == c0 + c ? (T)1 : (T)0;                                 \
      subst_##SUF(lower, kb, d, r, x);                                                                          \
      for (int c = 0; c < LANES(T) && c0 + c < kb; c++)                                                         \
        for (int i = 0; i < kb; i++) inv[i + (c0 + c) * LEAF] = x[i][c];                                        \
    }                                                                                                           \
    if (by_inverse) {                                                                                           \
      R ni = norm1_##SUF(lower, kb, inv); /* NaN where an entry overflowed: not <= */                           \
      by_inverse = ni - ni == 0 && norm1_##SUF(lower, kb, d) * ni <= (R)LEAF_COND_MAX;                          \
    }                                                                                                           \
    for (int j0 = 0; j0 < m; j0 += LANES(T)) {                                                                  \
      int w = m - j0 < LANES(T) ? m - j0 : LANES(T);                                                            \
      T *bj = b + (size_t)r0 + (size_t)j0 * (size_t)ldb;                                                        \
      bool all = by_inverse;                                                                                    \
      for (int c = 0; by_inverse && c < w; c++) {                                                               \
        APPLY(inv, bj + (size_t)c * (size_t)ldb, kb, y[c]);                                                     \
        ok[c] = finite_##SUF((const R *)y[c], kb * parts);                                                      \
        all &= ok[c];                                                                                           \
      }                                                                                                         \
      if (!all) {                                                                                               \
        for (int i = 0; i < kb; i++)                                                                            \
          for (int c = 0; c < LANES(T); c++) x[i][c] = c < w ? bj[i + (size_t)c * (size_t)ldb] : (T)0;          \
        subst_##SUF(lower, kb, d, r, x);                                                                        \
      }                                                                                                         \
      for (int c = 0; c < w; c++) {                                                                             \
        T *col = bj + (size_t)c * (size_t)ldb;                                                                  \
        if (by_inverse && ok[c]) memcpy(col, y[c], (size_t)kb * sizeof(T));                                     \
        else                                                                                                    \
          for (int i = 0; i < kb; i++) col[i] = x[i][c];                                                        \
      }                                                                                                         \
    }                                                                                                           \
  }

/* Complex products and reciprocals by OpenBLAS's formulas (its kernels' (ac - bd, ad + bc), and compinv's
   ratio), not C's, whose Annex G recovery of infinities would leave a number where OpenBLAS, and so torch,
   gives NaN (and costs a library call per product). */
#define REAL_CONJ(v)           (v)
#define REAL_MUL(a, b)         ((a) * (b))
#define REAL_INV(a)            (1 / (a))
#define NO_APPLY(inv, col, kb, out) ((void)(inv), (void)(col), (void)(kb), (void)(out))
#define DEFINE_COMPLEX(SUF, T, R, RE, IM, MAKE, ABS)                           \
  static inline T mul_##SUF(T a, T b) {                                        \
    return MAKE(RE(a) * RE(b) - IM(a) * IM(b), RE(a) * IM(b) + IM(a) * RE(b)); \
  }                                                                            \
  static inline T inv_##SUF(T a) {                                             \
    R ar = RE(a), ai = IM(a), ratio, den;                                      \
    if (ABS(ar) >= ABS(ai)) {                                                  \
      ratio = ai / ar;                                                         \
      den = (R)1 / (ar * (1 + ratio * ratio));                                 \
      return MAKE(den, -ratio * den);                                          \
    }                                                                          \
    ratio = ar / ai;                                                           \
    den = (R)1 / (ai * (1 + ratio * ratio));                                   \
    return MAKE(ratio * den, -den);                                            \
  }
DEFINE_COMPLEX(c, float complex, float, crealf, cimagf, CMPLXF, fabsf)
DEFINE_COMPLEX(z, double complex, double, creal, cimag, CMPLX, fabs)

/* out[0 .. LEAF) = inv * col[0 .. kb) for a real leaf's inverse (column-major, LEAF x LEAF, zero past kb):
   LEAF rows of vector accumulators, one broadcast product per column of inv, in the same order for every
   column (GCC's vector types: the target's widest registers, split where it has narrower ones). Complex
   leaves keep the substitution. */
#define DEFINE_APPLY(SUF, T)                                                   \
  typedef T vec_##SUF __attribute__((vector_size(64)));                        \
  enum {                                                                       \
    per_##SUF = 64 / (int)sizeof(T),                                           \
    vecs_##SUF = LEAF / per_##SUF                                              \
  };                                                                           \
  static inline void apply_##SUF(const T *inv, const T *col, int kb, T *out) { \
    vec_##SUF y[vecs_##SUF], v;                                                \
    for (int q = 0; q < vecs_##SUF; q++) y[q] = (vec_##SUF){0};                \
    for (int k = 0; k < kb; k++) {                                             \
      vec_##SUF bk = (vec_##SUF){0} + col[k];                                  \
      for (int q = 0; q < vecs_##SUF; q++) {                                   \
        memcpy(&v, inv + k * LEAF + q * per_##SUF, sizeof v);                  \
        y[q] += v * bk;                                                        \
      }                                                                        \
    }                                                                          \
    memcpy(out, y, LEAF * sizeof(T));                                          \
  }
DEFINE_APPLY(s, float)
DEFINE_APPLY(d, double)

DEFINE_LEAF(s, float, float, REAL_CONJ, REAL_MUL, REAL_INV, fabsf, apply_s, true)
DEFINE_LEAF(d, double, double, REAL_CONJ, REAL_MUL, REAL_INV, fabs, apply_d, true)
DEFINE_LEAF(c, float complex, float, conjf, mul_c, inv_c, cabsf, NO_APPLY, false)
DEFINE_LEAF(z, double complex, double, conj, mul_z, inv_z, cabs, NO_APPLY, false)

typedef struct solve {
  ct_dtype dt;
  bool lower, unit; /* op(T) is lower triangular: uplo 'L' and trans 'N', or uplo 'U' transposed */
  char trans;
  int m, ldt, ldb;
  size_t isz;
  const char *t;
  char *b;
} solve;

static void leaf(const solve *s, int r0, int kb) {
  switch (s->dt) {
    case CT_FLOAT32:
      leaf_s(s->lower, s->unit, s->trans, r0, kb, s->m, (const void *)s->t, s->ldt, (void *)s->b, s->ldb);
      break;
    case CT_FLOAT64:
      leaf_d(s->lower, s->unit, s->trans, r0, kb, s->m, (const void *)s->t, s->ldt, (void *)s->b, s->ldb);
      break;
    case CT_COMPLEX64:
      leaf_c(s->lower, s->unit, s->trans, r0, kb, s->m, (const void *)s->t, s->ldt, (void *)s->b, s->ldb);
      break;
    default:
      leaf_z(s->lower, s->unit, s->trans, r0, kb, s->m, (const void *)s->t, s->ldt, (void *)s->b, s->ldb);
      break;
  }
}

/* B[rows] -= op(T)[rows, cols] B[cols] for the row range [r0, r0 + nr) and column range [c0, c0 + nc) of op(T). */
static void update(const solve *s, int r0, int nr, int c0, int nc) {
  static const double one[2] = {1, 0}, mone[2] = {-1, 0};
  static const float one_f[2] = {1, 0}, mone_f[2] = {-1, 0};
  bool single = s->dt == CT_FLOAT32 || s->dt == CT_COMPLEX64;
  /* op(T)[r0.., c0..] is T[r0.., c0..] untransposed, else op of T[c0.., r0..] */
  size_t at =
      s->trans == 'N' ? (size_t)r0 + (size_t)c0 * (size_t)s->ldt : (size_t)c0 + (size_t)r0 * (size_t)s->ldt;
  ct__blas_gemm_nosync(s->dt, (char)(s->trans | 0x20), 'n', nr, s->m, nc,
                       single ? (const void *)mone_f : mone, s->t + at * s->isz, s->ldt,
                       s->b + (size_t)c0 * s->isz, s->ldb, single ? (const void *)one_f : one,
                       s->b + (size_t)r0 * s->isz, s->ldb);
}

/* Rows [r0, r0 + len) of op(T) X = B: the half nearer the triangle's first solved row, the gemm that carries it
   to the other half, then the other half. The first half is a multiple of LEAF rows. */
static void solve_rows(const solve *s, int r0, int len) {
  if (len <= LEAF) {
    leaf(s, r0, len);
    return;
  }
  int h = (len / 2 + LEAF - 1) / LEAF * LEAF;
  if (s->lower) {
    solve_rows(s, r0, h);
    update(s, r0 + h, len - h, r0, h);
    solve_rows(s, r0 + h, len - h);
  } else {
    int lo = len - h; /* rows r0 + lo .. are solved first */
    solve_rows(s, r0 + lo, h);
    update(s, r0, lo, r0 + lo, h);
    solve_rows(s, r0, lo);
  }
}

bool ct__la_trsm_left_pays(ct_dtype dt, int n, int m) {
  return (dt == CT_FLOAT32 || dt == CT_FLOAT64) && n >= CT_TRSM_LEFT_MIN_N && m >= CT_TRSM_LEFT_MIN_M;
}

void ct__la_trsm_left(ct_dtype dt, char uplo, char trans, char diag, int n, int m, const void *t, int ldt,
                      void *b, int ldb, int chunk) {
  char tr = (char)(trans & ~0x20);
  if (tr == 'C' && (dt == CT_FLOAT32 || dt == CT_FLOAT64)) tr = 'T';
  solve s = {.dt = dt,
             .lower = ((uplo & ~0x20) == 'L') == (tr == 'N'),
             .unit = (diag & ~0x20) == 'U',
             .trans = tr,
             .m = m,
             .ldt = ldt,
             .ldb = ldb,
             .isz = ct__itemsize(dt),
             .t = t,
             .b = b};
  for (int c0 = 0; c0 < m; c0 += chunk) {
    s.m = m - c0 < chunk ? m - c0 : chunk;
    s.b = (char *)b + (size_t)c0 * (size_t)ldb * s.isz;
    solve_rows(&s, 0, n);
  }
}
