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
   element takes the scalar formula with one rounding per operation. */
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

/* One pass per form, without a branch per element; the usual row (out, self and vec2 contiguous, vec1 a
   broadcast column) on plain pointers, so that the FMA clone vectorizes it (fma is then one instruction). */
#define ADDR_PASS(T, K0, K1, EXPR)                                                                           \
  if (s[0] == (int64_t)sizeof(T) && s[1] == (int64_t)sizeof(T) && s[2] == 0 && s[3] == (int64_t)sizeof(T)) { \
    T *restrict o_ = (T *)d[0];                                                                              \
    const T *restrict x_ = (const T *)d[1], *restrict z_ = (const T *)d[3];                                  \
    const T y = *(const T *)d[2];                                                                            \
    for (int64_t k = K0; k < K1; k++) {                                                                      \
      T x = x_[k], z = z_[k];                                                                                \
      o_[k] = EXPR;                                                                                          \
    }                                                                                                        \
  } else {                                                                                                   \
    for (int64_t k = K0; k < K1; k++) {                                                                      \
      T x = CT_AT(T, d[1], s[1], k), y = CT_AT(T, d[2], s[2], k), z = CT_AT(T, d[3], s[3], k);               \
      CT_OUT(T, d[0], s[0], k) = EXPR;                                                                       \
    }                                                                                                        \
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
   (beta == 0: of (alpha * vec1) * vec2). The products are chosen per element, so GCC must not vectorize the
   loop (its vector form would fuse otherwise: dtypes.h). */
#define ADDR_CPLX(NAME, T, SUF, BLOCK, C64)                                                        \
  CT_NO_TREE_VECTORIZE static void NAME(char **d, const int64_t *s, int64_t n, const void *vctx) { \
    const addr_ctx *c = vctx;                                                                      \
    const T be = (T)c->beta, al = (T)c->alpha;                                                     \
    addr_row rw = row_split(d, s, n, (int64_t)sizeof(T), BLOCK, C64, c->beta_zero);                \
    if (!c->fused) rw.nv = 0, rw.ns = n;                                                           \
    for (int64_t k = 0; k < n; k++) {                                                              \
      T y = CT_AT(T, d[2], s[2], k), z = CT_AT(T, d[3], s[3], k), p, q;                            \
      int form = k < rw.nv ? 0 : k < rw.ns ? 1 : 2;                                                \
      p = form == 0 ? cmul_v_##SUF(al, y) : cmul_s_##SUF(al, y);                                   \
      q = form == 1 ? cmul_s_##SUF(p, z) : cmul_v_##SUF(p, z);                                     \
      if (!c->beta_zero) {                                                                         \
        T x = CT_AT(T, d[1], s[1], k);                                                             \
        q = cadd_##SUF(form == 1 ? cmul_s_##SUF(be, x) : cmul_v_##SUF(be, x), q);                  \
      }                                                                                            \
      CT_OUT(T, d[0], s[0], k) = q;                                                                \
    }                                                                                              \
  }                                                                                                \
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
