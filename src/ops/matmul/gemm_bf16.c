/* bfloat16 products as torch 1.13's cpublas gemm_core_ computes them (BLAS has no bfloat16 routine):
   gemm_notrans_ / gemm_transa_ / gemm_transb_ / gemm_transab_. c is scaled by beta first, then c += a * (b *
   alpha) one k step at a time (notrans, transb, transab), where c10::BFloat16's `c += float` converts the
   float addend to bfloat16 first and rounds the sum again (checked against torch: a 300-term dot matches
   only with both roundings); transa sums a dot product in float and writes once, with fused multiply-adds:
   torch builds that kernel (cpu/BlasKernel.cpp) for AVX2 + FMA and the compiler contracts sum += a * b and
   beta * c + alpha * sum, so that a product that overflows float is not rounded to inf first (seed 20261126
   bmm case 13: -inf + 9.2e18 * 1e30 stays -inf in torch, inf - inf would be NaN). bfloat16 products are
   exact in float otherwise.

   torch walks notrans / transb as k, then columns, then rows, each step reading and writing all of c. Each
   element's sequence of roundings depends only on its own k order, so here c is cut into tiles that stay
   in registers for a run of k steps (the same operations, element by element, in the same order: the same
   bits), and the tiles are shared out over the pool. */
#include <math.h>
#include <string.h>

#include "core/cpu_isa.h"
#include "core/half.h"
#include "core/parallel.h"
#include "ops/matmul/mm_internal.h"

static inline float bf(const uint16_t *p, int64_t i) { return ct__bfloat16_to_float(p[i]); }
static inline float rb(float v) { return ct__bfloat16_to_float(ct__float_to_bfloat16(v)); }

/* One k step of one element: bf16(c + bf16(a * val)), c and a bfloat16 values held in float. */
static inline float step(float c, float a, float val) { return rb(c + rb(a * val)); }

/* ---- notrans / transb: tiles of c over runs of k ---- */

#define TILE_M 64  /* rows of a tile (a multiple of 16) */
#define TILE_N 64  /* columns of a tile (a multiple of 4) */
#define RUN_K  128 /* k steps per pass over a tile: its column values (RUN_K x TILE_N floats) fit in L1 */

typedef struct axpy_job {
  int64_t m, n, k, lda, ldb, ldc, tiles_m, tiles;
  bool tb;
  float alpha;
  const uint16_t *a, *b;
  uint16_t *c;
} axpy_job;

/* vals[(l - l0) * 4 + jj] for the 4-column group starting at j (columns past n: unused) = b[l, j + jj] * alpha,
   torch's `opmath_t val = b[...] * alpha`; groups one after another, RUN_K * 4 floats each. */
static void fill_vals(const axpy_job *g, int64_t j0, int64_t j1, int64_t l0, int64_t l1, float *vals) {
  for (int64_t j = j0; j < j1; j += 4) {
    float *v = vals + (j - j0) * RUN_K;
    for (int64_t l = l0; l < l1; l++)
      for (int64_t jj = 0; jj < 4 && j + jj < j1; jj++)
        v[(l - l0) * 4 + jj] = bf(g->b, g->tb ? j + jj + l * g->ldb : l + (j + jj) * g->ldb) * g->alpha;
  }
}

/* Rows [i0, i1) of columns [j, j + jb), one element at a time (the rows a vector block leaves). */
static void rows_scalar(const axpy_job *g, int64_t i0, int64_t i1, int64_t j, int jb, int64_t l0, int64_t l1,
                        const float *v) {
  for (int jj = 0; jj < jb; jj++)
    for (int64_t i = i0; i < i1; i++) {
      uint16_t *cp = g->c + (j + jj) * g->ldc + i;
      float c = bf(cp, 0);
      for (int64_t l = l0; l < l1; l++) c = step(c, bf(g->a, i + l * g->lda), v[(l - l0) * 4 + jj]);
      *cp = ct__float_to_bfloat16(c);
    }
}

#if CT_ISA_X86
#include <immintrin.h>

/* ct__float_to_bfloat16 on 8 lanes, the result kept as a float whose low 16 bits are 0. A NaN stays a NaN
   without the scalar's test: every NaN here has its low 16 bits 0 (the inputs are bfloat16 values, the
   hardware's default NaN is 0xFFC00000, an operation passes on an operand's NaN), so adding the rounding
   bias carries nothing into the exponent. The one source of other NaNs, a NaN alpha, takes the scalar
   path (ct__gemm_bf16). */
CT_TARGET_AVX2 CT_ALWAYS_INLINE __m256 v_round(__m256 x) {
  __m256i u = _mm256_castps_si256(x);
  __m256i lsb = _mm256_and_si256(_mm256_srli_epi32(u, 16), _mm256_set1_epi32(1));
  __m256i r = _mm256_add_epi32(_mm256_add_epi32(u, _mm256_set1_epi32(0x7FFF)), lsb);
  return _mm256_castsi256_ps(_mm256_and_si256(r, _mm256_set1_epi32((int)0xFFFF0000u)));
}
CT_TARGET_AVX2 CT_ALWAYS_INLINE __m256 v_load(const uint16_t *p) {
  return _mm256_castsi256_ps(
      _mm256_slli_epi32(_mm256_cvtepu16_epi32(_mm_loadu_si128((const __m128i *)p)), 16));
}
CT_TARGET_AVX2 CT_ALWAYS_INLINE void v_store(uint16_t *p, __m256 x) {
  __m256i s = _mm256_srli_epi32(_mm256_castps_si256(x), 16);
  _mm_storeu_si128((__m128i *)p, _mm_packus_epi32(_mm256_castsi256_si128(s), _mm256_extracti128_si256(s, 1)));
}

/* Rows [i, i + 8 * NV) of columns [j, j + JB) over k steps [l0, l1), in registers: accumulators named one
   by one (GCC keeps an array of vectors on the stack, a store and a load in every chain). */
#define STEP(C, A, V) C = v_round(_mm256_add_ps(C, v_round(_mm256_mul_ps(A, V))))
#define BLOCK(NV, JB)                                                                               \
  CT_TARGET_AVX2 static void block_##NV##_##JB(const axpy_job *g, int64_t i, int64_t j, int64_t l0, \
                                               int64_t l1, const float *v) {                        \
    uint16_t *c0 = g->c + j * g->ldc + i, *c1 = c0 + g->ldc, *c2 = c1 + g->ldc, *c3 = c2 + g->ldc;  \
    __m256 z = _mm256_setzero_ps();                                                                 \
    __m256 x0 = v_load(c0), y0 = NV > 1 ? v_load(c0 + 8) : z;                                       \
    __m256 x1 = JB > 1 ? v_load(c1) : z, y1 = JB > 1 && NV > 1 ? v_load(c1 + 8) : z;                \
    __m256 x2 = JB > 2 ? v_load(c2) : z, y2 = JB > 2 && NV > 1 ? v_load(c2 + 8) : z;                \
    __m256 x3 = JB > 3 ? v_load(c3) : z, y3 = JB > 3 && NV > 1 ? v_load(c3 + 8) : z;                \
    const uint16_t *ap = g->a + i + l0 * g->lda;                                                    \
    for (int64_t l = l0; l < l1; l++, ap += g->lda, v += 4) {                                       \
      __m256 a0 = v_load(ap), a1 = NV > 1 ? v_load(ap + 8) : z, w = _mm256_broadcast_ss(v);         \
      STEP(x0, a0, w);                                                                              \
      if (NV > 1) STEP(y0, a1, w);                                                                  \
      if (JB > 1) {                                                                                 \
        w = _mm256_broadcast_ss(v + 1);                                                             \
        STEP(x1, a0, w);                                                                            \
        if (NV > 1) STEP(y1, a1, w);                                                                \
      }                                                                                             \
      if (JB > 2) {                                                                                 \
        w = _mm256_broadcast_ss(v + 2);                                                             \
        STEP(x2, a0, w);                                                                            \
        if (NV > 1) STEP(y2, a1, w);                                                                \
      }                                                                                             \
      if (JB > 3) {                                                                                 \
        w = _mm256_broadcast_ss(v + 3);                                                             \
        STEP(x3, a0, w);                                                                            \
        if (NV > 1) STEP(y3, a1, w);                                                                \
      }                                                                                             \
    }                                                                                               \
    v_store(c0, x0);                                                                                \
    if (NV > 1) v_store(c0 + 8, y0);                                                                \
    if (JB > 1) v_store(c1, x1);                                                                    \
    if (JB > 1 && NV > 1) v_store(c1 + 8, y1);                                                      \
    if (JB > 2) v_store(c2, x2);                                                                    \
    if (JB > 2 && NV > 1) v_store(c2 + 8, y2);                                                      \
    if (JB > 3) v_store(c3, x3);                                                                    \
    if (JB > 3 && NV > 1) v_store(c3 + 8, y3);                                                      \
  }
BLOCK(2, 4)
BLOCK(2, 3)
BLOCK(2, 2)
BLOCK(2, 1)
BLOCK(1, 4)
BLOCK(1, 3)
BLOCK(1, 2)
BLOCK(1, 1)
#undef BLOCK

typedef void (*block_fn)(const axpy_job *, int64_t, int64_t, int64_t, int64_t, const float *);
static const block_fn blocks[2][4] = {{block_1_1, block_1_2, block_1_3, block_1_4},
                                      {block_2_1, block_2_2, block_2_3, block_2_4}};

/* Rows [i0, i1) of a 4-column group (jb of them in c) over one run of k. */
static void group_rows(const axpy_job *g, int64_t i0, int64_t i1, int64_t j, int jb, int64_t l0, int64_t l1,
                       const float *v) {
  int64_t i = i0;
  if (ct__cpu_isa() >= CT_ISA_AVX2 && g->alpha == g->alpha) {
    for (; i + 16 <= i1; i += 16) blocks[1][jb - 1](g, i, j, l0, l1, v);
    for (; i + 8 <= i1; i += 8) blocks[0][jb - 1](g, i, j, l0, l1, v);
  }
  rows_scalar(g, i, i1, j, jb, l0, l1, v);
}
#else
static void group_rows(const axpy_job *g, int64_t i0, int64_t i1, int64_t j, int jb, int64_t l0, int64_t l1,
                       const float *v) {
  rows_scalar(g, i0, i1, j, jb, l0, l1, v);
}
#endif

static void axpy_tile(void *ctx, int64_t t, int tid) {
  (void)tid;
  const axpy_job *g = ctx;
  int64_t i0 = t % g->tiles_m * TILE_M, j0 = t / g->tiles_m * TILE_N;
  int64_t i1 = i0 + TILE_M < g->m ? i0 + TILE_M : g->m, j1 = j0 + TILE_N < g->n ? j0 + TILE_N : g->n;
  float vals[RUN_K * TILE_N];
  for (int64_t l0 = 0; l0 < g->k; l0 += RUN_K) {
    int64_t l1 = l0 + RUN_K < g->k ? l0 + RUN_K : g->k;
    fill_vals(g, j0, j1, l0, l1, vals);
    for (int64_t j = j0; j < j1; j += 4)
      group_rows(g, i0, i1, j, j1 - j < 4 ? (int)(j1 - j) : 4, l0, l1, vals + (j - j0) * RUN_K);
  }
}

/* ---- the four loops ---- */

void ct__gemm_bf16(bool ta, bool tb, int64_t m, int64_t n, int64_t k, float alpha, float beta,
                   const uint16_t *a, int64_t lda, const uint16_t *b, int64_t ldb, uint16_t *c, int64_t ldc) {
  if (ta && !tb) { /* gemm_transa_ */
    for (int64_t i = 0; i < m; i++)
      for (int64_t j = 0; j < n; j++) {
        float sum = 0;
        for (int64_t l = 0; l < k; l++) sum = fmaf(bf(a, i * lda + l), bf(b, j * ldb + l), sum);
        float v = beta == 0 ? alpha * sum : fmaf(beta, bf(c, j * ldc + i), alpha * sum);
        c[j * ldc + i] = ct__float_to_bfloat16(v);
      }
    return;
  }
  /* scale_: c *= beta (1: untouched, 0: zeros) */
  if (beta != 1)
    for (int64_t j = 0; j < n; j++)
      for (int64_t i = 0; i < m; i++)
        c[j * ldc + i] = ct__float_to_bfloat16(beta == 0 ? 0.0f : bf(c, j * ldc + i) * rb(beta));
  if (ta) { /* gemm_transab_: c[j, i] += a[i, l] * (b[l, j] * alpha), l innermost */
    for (int64_t i = 0; i < m; i++)
      for (int64_t j = 0; j < n; j++)
        for (int64_t l = 0; l < k; l++)
          c[j * ldc + i] = ct__float_to_bfloat16(bf(c, j * ldc + i) +
                                                 rb(bf(a, i * lda + l) * (bf(b, l * ldb + j) * alpha)));
    return;
  }
  /* gemm_notrans_ / gemm_transb_: for each l, j: val = b * alpha; c[:, j] += a[:, l] * val */
  if (m == 0 || n == 0 || k == 0) return;
  int64_t tiles_m = (m + TILE_M - 1) / TILE_M, tiles = tiles_m * ((n + TILE_N - 1) / TILE_N);
  axpy_job g = {m, n, k, lda, ldb, ldc, tiles_m, tiles, tb, alpha, a, b, c};
  /* a k step of 8 elements costs about what a pointwise op's element does */
  int nt = ct__parallel_threads(m * n / 8 * k);
  ct__parallel_chunks(tiles, nt, axpy_tile, &g);
}
