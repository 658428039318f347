/* addr's kernel for float, double and complex results: torch 1.13's addr_kernel (LinearAlgebraKernel.cpp)
   over its TensorIterator (the result, self expanded, vec1 as a column, vec2), as torch's AVX2 build
   computes each element (kernels/cpu/torch_compat.h). cpu_kernel_vec gives the first whole blocks of 2
   vectors of a row to the Vectorized lambda and the rest to the scalar one, which GCC contracted otherwise:
     float, double   vector  fma(alpha * vec1, vec2, beta * self)
                     scalar  fma(beta, self, (alpha * vec1) * vec2)
     complex         vector  beta * self + (alpha * vec1) * vec2 with Vectorized's products (cmul_v)
                     scalar  the same with c10::complex's fused products (cmul_s), in GCC's unrolled blocks;
                             complex64's leftover elements after them mix the two (found by matching bits)
   beta == 0 is torch's other lambda, (alpha * vec1) * vec2, in which self is not read (NaN in self does not
   reach the result). Without an FMA CPU (torch's DEFAULT kernel) or with the compat switch off every
   element takes the scalar formula with one rounding per operation. A row runs as one pass per form (no
   branch per element): float and double as plain C loops in the FMA clone, complex as AVX2 intrinsics
   (GCC's vectorizer would fuse the complex products: dtypes.h) with a scalar pass for what is left. */
#include <string.h>

#include "core/cast.h"
#include "iter/iter.h"
#include "kernels/cpu/cplx_forms.h"
#include "kernels/cpu/loops.h"
#include "ops/matmul/mm_internal.h"

typedef struct addr_ctx {
  ct_c128 beta, alpha; /* torch's beta.to<scalar_t>(), alpha.to<scalar_t>(), widened */
  bool beta_zero;      /* torch's beta_val == zero_val */
  bool fused;          /* torch's AVX2 kernel: vector blocks and contracted scalar code */
} addr_ctx;

/* The row kinds of cpu_kernel_vec and of GCC's loop over its scalar lambda. */
typedef struct addr_row {
  int64_t nv; /* elements in whole vector blocks */
  int64_t ns; /* end of the scalar lambda's unrolled blocks; the leftover form after it */
} addr_row;

/* cpu_kernel_vec's split of a row of n (block: 2 vectors) and, for complex64, where GCC's unrolled blocks of
   the scalar lambda end (the leftover form after them). Found by matching torch's bits: beta * self + ...
   runs 2 elements a block, and in place (the output is self, read by this lambda) takes the leftover form
   for the whole scalar part (GCC's alias check fails); (alpha * vec1) * vec2 runs 4 a block in a row with
   one broadcast operand (the vector kind) and 2 in other rows. */
static addr_row row_split(char **d, const int64_t *s, int64_t n, int64_t esize, int64_t block, bool cplx64,
                          bool beta_zero) {
  const int64_t isz[4] = {esize, esize, esize, esize};
  addr_row r = {ct__torch_vec_prefix(s, 4, isz, n, block), n};
  if (!cplx64 || !CT_TORCH_COMPAT) return r;
  bool vector_kind = ct__torch_vec_prefix(s, 4, isz, block, block) == block;
  int64_t u = beta_zero && vector_kind ? 4 : 2;
  r.ns = !beta_zero && d[0] == d[1] ? r.nv : r.nv + (n - r.nv) / u * u;
  return r;
}

/* One pass per form, without a branch per element. The usual row (out, self and vec2 contiguous, vec1 a
   broadcast column) and the row of a transposed self (out, self and vec1 contiguous, vec2 broadcast) run on
   plain pointers, so that the FMA clone vectorizes them (fma is then one instruction). */
#define ADDR_ROW(T, K0, K1, EXPR, YK, ZK)                                                                   \
  {                                                                                                         \
    T *restrict o_ = (T *)d[0];                                                                             \
    const T *restrict x_ = (const T *)d[1], *restrict y_ = (const T *)d[2], *restrict z_ = (const T *)d[3]; \
    for (int64_t k = K0; k < K1; k++) {                                                                     \
      T x = x_[k], y = YK, z = ZK;                                                                          \
      o_[k] = EXPR;                                                                                         \
    }                                                                                                       \
  }
#define ADDR_PASS(T, K0, K1, EXPR)                                                             \
  if (s[0] == (int64_t)sizeof(T) && s[1] == (int64_t)sizeof(T) && s[2] == 0 && s[3] == s[0]) { \
    ADDR_ROW(T, K0, K1, EXPR, y_[0], z_[k])                                                    \
  } else if (s[0] == (int64_t)sizeof(T) && s[1] == s[0] && s[2] == s[0] && s[3] == 0) {        \
    ADDR_ROW(T, K0, K1, EXPR, y_[k], z_[0])                                                    \
  } else {                                                                                     \
    for (int64_t k = K0; k < K1; k++) {                                                        \
      T x = CT_AT(T, d[1], s[1], k), y = CT_AT(T, d[2], s[2], k), z = CT_AT(T, d[3], s[3], k); \
      CT_OUT(T, d[0], s[0], k) = EXPR;                                                         \
    }                                                                                          \
  }
#define ADDR_REAL(NAME, T, FMA, BLOCK)                                                         \
  CT_KERNEL_CLONES static void NAME(char **d, const int64_t *s, int64_t n, const void *vctx) { \
    const addr_ctx *c = vctx;                                                                  \
    const T be = (T)creal(c->beta), al = (T)creal(c->alpha);                                   \
    if (c->beta_zero) { /* self is not read */                                                 \
      ADDR_PASS(T, 0, n, ((void)x, (al * y) * z))                                              \
    } else if (!c->fused) {                                                                    \
      ADDR_PASS(T, 0, n, be *x + (al * y) * z)                                                 \
    } else {                                                                                   \
      int64_t nv = row_split(d, s, n, (int64_t)sizeof(T), BLOCK, false, false).nv;             \
      ADDR_PASS(T, 0, nv, FMA(al *y, z, be *x))                                                \
      ADDR_PASS(T, nv, n, FMA(be, x, (al * y) * z))                                            \
    }                                                                                          \
  }                                                                                            \
  CT_LOOP_DEFINE(NAME, 0, NULL, true)
ADDR_REAL(addr_f32, float, fmaf, 16)
ADDR_REAL(addr_f64, double, fma, 8)

/* Complex: the vector (V), scalar (S) and complex64 leftover (L) forms of beta * self + alpha * vec1 * vec2
   (beta == 0: of (alpha * vec1) * vec2) differ in which products are c10::complex's fused ones (cmul_s):
   V none, S all three, L alpha * vec1 only. Without torch's AVX2 kernel every element is the unfused
   formula, V. CX_MUL(F, a, b): the product of form F (1: fused). */
enum {
  CX_V,
  CX_S,
  CX_L
};
/* PASS(A, B, PF, QF, BZ) for the pass's form: PF, QF whether alpha * vec1 and the other two products are
   fused (CX_MUL), BZ beta == 0; A and B are the pass's own arguments. */
#define CX_BY_FORM(PASS, A, B)     \
  if (form == CX_V && bz) {        \
    PASS(A, B, 0, 0, 1)            \
  } else if (form == CX_V) {       \
    PASS(A, B, 0, 0, 0)            \
  } else if (form == CX_S && bz) { \
    PASS(A, B, 1, 1, 1)            \
  } else if (form == CX_S) {       \
    PASS(A, B, 1, 1, 0)            \
  } else if (bz) {                 \
    PASS(A, B, 1, 0, 1)            \
  } else {                         \
    PASS(A, B, 1, 0, 0)            \
  }
#define CX_MUL(SUF, F, a, b) ((F) ? cmul_s_##SUF(a, b) : cmul_v_##SUF(a, b))
#define CX_SCALAR_PASS(SUF, T, PF, QF, BZ)                                                        \
  for (int64_t k = k0; k < k1; k++) {                                                             \
    T q = CX_MUL(SUF, QF, CX_MUL(SUF, PF, al, CT_AT(T, d[2], s[2], k)), CT_AT(T, d[3], s[3], k)); \
    if (!(BZ)) q = cadd_##SUF(CX_MUL(SUF, QF, be, CT_AT(T, d[1], s[1], k)), q);                   \
    CT_OUT(T, d[0], s[0], k) = q;                                                                 \
  }
/* Elements k0..k1 of a row in form `form`, one at a time, any strides; a branch per pass, none per element.
   Kept away from GCC's vectorizer (it fuses mul + addsub into vfmaddsub even without contraction). */
#define ADDR_CX_SCALAR(SUF, T)                                                                             \
  CT_NO_TREE_VECTORIZE static void addr_##SUF##_scalar(char **d, const int64_t *s, int64_t k0, int64_t k1, \
                                                       T al, T be, bool bz, int form) {                    \
    CX_BY_FORM(CX_SCALAR_PASS, SUF, T)                                                                     \
  }
ADDR_CX_SCALAR(c64, ct_c64)
ADDR_CX_SCALAR(c128, ct_c128)

#if CT_ISA_X86
#include <immintrin.h> /* declares every intrinsic; CT_TARGET_AVX2 enables them */

/* The forms on AVX2 vectors of interleaved complex numbers (4 complex64 or 2 complex128 a vector), each
   lane's operations those of cmul_v / cmul_s / cadd (cplx_forms.h): with a's real and imaginary parts
   duplicated (ar, ai) and b's halves swapped (bs),
     cmul_v  addsub(ar * b, ai * bs)     = (ar br - ai bi, ar bi + ai br), every product rounded
     cmul_s  fmaddsub(ar, b, ai * bs)    = (fma(ar, br, -(ai bi)), fma(ar, bi, ai br))
   (a product's operands commute). BCAST: one complex number in every lane. */
#define CXV_BCAST_ps(p) _mm256_castpd_ps(_mm256_broadcast_sd((const double *)(const void *)(p)))
#define CXV_SWAP_ps(v)  _mm256_permute_ps(v, 0xB1)
#define CXV_DUPR_ps(v)  _mm256_moveldup_ps(v)
#define CXV_DUPI_ps(v)  _mm256_movehdup_ps(v)
#define CXV_BCAST_pd(p) _mm256_broadcast_pd((const __m128d *)(const void *)(p))
#define CXV_SWAP_pd(v)  _mm256_permute_pd(v, 0x5)
#define CXV_DUPR_pd(v)  _mm256_movedup_pd(v)
#define CXV_DUPI_pd(v)  _mm256_permute_pd(v, 0xF)
#define CXV_MUL(PS, F, ar, ai, b)                                           \
  ((F) ? _mm256_fmaddsub_##PS(ar, b, _mm256_mul_##PS(ai, CXV_SWAP_##PS(b))) \
       : _mm256_addsub_##PS(_mm256_mul_##PS(ar, b), _mm256_mul_##PS(ai, CXV_SWAP_##PS(b))))
#define CXV_LD(PS, R, j, bc) (s[j] ? _mm256_loadu_##PS((const R *)(const void *)(d[j] + k * s[j])) : (bc))
#define CXV_PASS(PS, R, PF, QF, BZ)                                                     \
  for (; k + W <= k1; k += W) {                                                         \
    V pr = pr0, pi = pi0;                                                               \
    if (s[2]) { /* vec1 along the row: alpha * vec1 per element */                      \
      V p = CXV_MUL(PS, PF, alr, ali, CXV_LD(PS, R, 2, pr0));                           \
      pr = CXV_DUPR_##PS(p), pi = CXV_DUPI_##PS(p);                                     \
    }                                                                                   \
    V q = CXV_MUL(PS, QF, pr, pi, CXV_LD(PS, R, 3, zb));                                \
    if (!(BZ)) q = _mm256_add_##PS(CXV_MUL(PS, QF, ber, bei, CXV_LD(PS, R, 1, xb)), q); \
    _mm256_storeu_##PS((R *)(void *)(d[0] + k * s[0]), q);                              \
  }
/* Elements k.. of a row in form `form` whose output is contiguous and whose inputs are contiguous or
   broadcast (stride 0; self unread when beta is 0), whole vectors only; returns where it stopped. vec1
   broadcast (the usual row) takes alpha * vec1 once. */
#define ADDR_CX_AVX2(SUF, T, R, V_, PS)                                                                     \
  CT_TARGET_AVX2 static int64_t addr_##SUF##_avx2(char **d, const int64_t *s, int64_t k, int64_t k1, T al,  \
                                                  T be, bool bz, int form) {                                \
    typedef V_ V;                                                                                           \
    const int64_t W = (int64_t)(sizeof(V) / sizeof(T)); /* complex numbers a vector */                      \
    T y0 = *(const T *)(const void *)d[2], p0 = form == CX_V ? cmul_v_##SUF(al, y0) : cmul_s_##SUF(al, y0); \
    const V alr = _mm256_set1_##PS(creal(al)), ali = _mm256_set1_##PS(cimag(al));                           \
    const V ber = _mm256_set1_##PS(creal(be)), bei = _mm256_set1_##PS(cimag(be));                           \
    const V pr0 = _mm256_set1_##PS(creal(p0)), pi0 = _mm256_set1_##PS(cimag(p0));                           \
    const V zb = CXV_BCAST_##PS(d[3]), xb = bz ? zb : CXV_BCAST_##PS(d[1]);                                 \
    CX_BY_FORM(CXV_PASS, PS, R)                                                                             \
    return k;                                                                                               \
  }
#else
#define ADDR_CX_AVX2(SUF, T, R, V_, PS)                                                                    \
  static int64_t addr_##SUF##_avx2(char **d, const int64_t *s, int64_t k, int64_t k1, T al, T be, bool bz, \
                                   int form) { /* never called (cx_vec_row) */                             \
    (void)d, (void)s, (void)k1, (void)al, (void)be, (void)bz, (void)form;                                  \
    return k;                                                                                              \
  }
#endif
ADDR_CX_AVX2(c64, ct_c64, float, __m256, ps)
ADDR_CX_AVX2(c128, ct_c128, double, __m256d, pd)

/* Whether a row can take the AVX2 passes: contiguous output, inputs contiguous or broadcast. */
static bool cx_vec_row(const int64_t *s, int64_t sz, bool bz) {
#if CT_ISA_X86
  bool ok =
      s[0] == sz && (bz || s[1] == 0 || s[1] == sz) && (s[2] == 0 || s[2] == sz) && (s[3] == 0 || s[3] == sz);
  return ok && ct__cpu_isa() >= CT_ISA_AVX2;
#else
  (void)s, (void)sz, (void)bz;
  return false;
#endif
}

/* A row as three passes, one per form (row_split): [0, nv) V, [nv, ns) S, [ns, n) L. */
#define ADDR_CPLX(NAME, T, SUF, BLOCK, C64)                                             \
  static void NAME(char **d, const int64_t *s, int64_t n, const void *vctx) {           \
    const addr_ctx *c = vctx;                                                           \
    const T be = (T)c->beta, al = (T)c->alpha;                                          \
    addr_row rw = row_split(d, s, n, (int64_t)sizeof(T), BLOCK, C64, c->beta_zero);     \
    if (!c->fused) rw.nv = n, rw.ns = n; /* the unfused formula throughout */           \
    const int64_t ends[3] = {rw.nv, rw.ns, n};                                          \
    const int forms[3] = {CX_V, CX_S, CX_L};                                            \
    bool vec = cx_vec_row(s, (int64_t)sizeof(T), c->beta_zero);                         \
    for (int f = 0; f < 3; f++) {                                                       \
      int64_t k = f ? ends[f - 1] : 0;                                                  \
      if (k >= ends[f]) continue;                                                       \
      if (vec) k = addr_##SUF##_avx2(d, s, k, ends[f], al, be, c->beta_zero, forms[f]); \
      addr_##SUF##_scalar(d, s, k, ends[f], al, be, c->beta_zero, forms[f]);            \
    }                                                                                   \
  }                                                                                     \
  CT_LOOP_PLAIN(NAME)
ADDR_CPLX(addr_c64, ct_c64, c64, 8, true)
ADDR_CPLX(addr_c128, ct_c128, c128, 4, false)

static ct_c128 scalar_as(ct_dtype dt, ct_scalar v) {
  unsigned char buf[16] = {0};
  ct__store_scalar(dt, buf, v);
  if (dt == CT_FLOAT32) return *(const float *)buf;
  if (dt == CT_FLOAT64) return *(const double *)buf;
  if (dt == CT_COMPLEX64) return *(const ct_c64 *)buf;
  return *(const ct_c128 *)buf;
}

ct_tensor *ct__addr_float(const ct_tensor *e, const ct_tensor *col, const ct_tensor *v2, ct_dtype dt,
                          ct_scalar beta, ct_scalar alpha, ct_tensor *target) {
  static const ct_loop *const loops[4] = {CT_LOOP_REF(addr_f32), CT_LOOP_REF(addr_f64), CT_LOOP_REF(addr_c64),
                                          CT_LOOP_REF(addr_c128)};
  int which = dt == CT_FLOAT32 ? 0 : dt == CT_FLOAT64 ? 1 : dt == CT_COMPLEX64 ? 2 : 3;
  addr_ctx c = {scalar_as(dt, beta), scalar_as(dt, alpha), false,
                CT_TORCH_COMPAT && CT_ISA_X86 && ct__cpu_fma()};
  c.beta_zero = c.beta == 0;
  ct_iter_config cfg = ct__iter_config_zero;
  cfg.n_out = 1;
  cfg.n_in = 3;
  cfg.out[0] = target;
  cfg.in[0] = e, cfg.in[1] = col, cfg.in[2] = v2;
  cfg.promote_inputs = true;
  cfg.compute_dtype = dt;
  ct_iter it;
  if (ct__iter_build(&it, &cfg) != CT_OK) return NULL;
  ct__iter_run(&it, loops[which], &c);
  ct_tensor *r = ct__iter_take_output(&it, 0);
  ct__iter_finish(&it);
  return r;
}
