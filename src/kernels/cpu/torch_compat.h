/* torch compatibility: where ctorch reproduces how GCC compiled torch 1.13's CPU kernels, past what IEEE
   arithmetic fixes. torch's loops (ATen/native/cpu/Loops.h) give the first whole vector blocks of a row
   to the op's Vectorized<T> formula and the rest to its scalar lambda, which GCC compiled again (auto-
   vectorized blocks, leftovers, a fallback loop when an output aliases an input) and contracted (a * b + c
   fused, -ffp-contract=fast on the AVX2 build). The formulas round differently, so an element's last bit
   depends on where in which row it lands; ctorch reproduces that, and these are the decisions.

   One switch: CT_TORCH_COMPAT (default 1, cmake -DCT_TORCH_COMPAT=OFF for 0). At 0 every element takes
   the scalar formula with one rounding per operation: the same ops, correctly rounded step by step, whose
   results differ from torch's in the last bit of some elements (NaN-ness, infinities and exact results do
   not change).

   Behind the switch (each site says what in torch it reproduces):
   - ct__torch_vec_prefix: the vector/scalar split of a row (cpu_kernel_vec / vectorized_loop). Its users:
     the elementwise unary loops (ops/pointwise/elem_internal.h, elem_cplx.h, complex angle), the binary
     ones (CT_VS_LOOP2 in binary_common.h, pow's PS_LOOP), the ternary ones (clamp, lerp / addcmul /
     addcdiv), addr's kernel (ops/matmul/addr_kernel.c);
   - ct__torch_row_kind (binary_common.h's ct__row_kind2): which of GCC's compiled forms of the scalar
     lambda a binary row runs (complex add / mul in arith_cx.c, float add with alpha in arith.c); the
     same for complex addcmul / addcdiv rows (ternary_lerp.c's unrolled blocks and leftover form) and
     complex64 addr rows (addr_kernel.c); the two complex forms themselves in kernels/cpu/cplx_forms.h;
   - CT_COMPAT_FMA / CT_COMPAT_FMAF: a * b + c where GCC fused it: c10::complex's operators (math_scalar.h,
     elem_cscalar.c, arith_cx.c, binary_div.c, binary_pow.c, ternary_lerp.c, scan_kernels.c's cumprod,
     sum.c's complex prod and its complex<float> lane step), Math.h's special functions (math_scalar.h),
     lerp and addcmul (ternary_lerp.c), norm's `acc + x * x` (norm.c, its lanes and its tail), Welford's
     `m2 + delta * new_delta` (var.c), the range kernels' scalar formulas (create_range.c);
   - create_range.c's VEC_CHUNKS: arange / linspace in chunks of two AVX2 vectors whose lanes are built
     from a base (Vectorized<T>::arange); norm.c's four-square tail;
   - CT_TORCH_TRIG_LANES (kernels/cpu/math_simd.h): on AVX-512, SLEEF's trigonometric functions see lanes
     grouped as torch's AVX2 vectors (their fast argument reduction is chosen per vector).
   Not behind it, on purpose: the random module's draws (src/random: uniform's, normal's and cauchy's
   fused transformations, Box-Muller's avx_mathfun steps) stay torch's bit for bit in both builds, as
   seeded streams are a reproducibility contract of their own (README: "seeded random streams identical
   to torch 1.13").
   Tests see the switch through the same definition (CMakeLists.txt adds -DCT_TORCH_COMPAT=0 to every
   target; tests/unit/compat.h reads it), never through the public headers. */
#ifndef CTORCH_KERNELS_TORCH_COMPAT_H
#define CTORCH_KERNELS_TORCH_COMPAT_H

#include <math.h>
#include <stdint.h>

#ifndef CT_TORCH_COMPAT
#define CT_TORCH_COMPAT 1
#endif

/* How many leading elements of a row of n take torch's vector formula: whole blocks of `block` when the
   output (s[0]) and every input (s[1..nops-1]) are contiguous (isz[k] bytes apart), or every input but one
   and that one a broadcast scalar (stride 0); none otherwise. */
static inline int64_t ct__torch_vec_prefix(const int64_t *s, int nops, const int64_t *isz, int64_t n,
                                           int64_t block) {
#if CT_TORCH_COMPAT
  int zeros = 0;
  if (s[0] != isz[0]) return 0;
  for (int k = 1; k < nops; k++) {
    if (s[k] == isz[k]) continue;
    if (s[k] == 0 && ++zeros == 1) continue;
    return 0;
  }
  return n - n % block;
#else
  (void)s, (void)nops, (void)isz, (void)n, (void)block;
  return 0;
#endif
}
/* The same with the output of out_size bytes and every input of in_size. */
static inline int64_t ct__torch_vec_prefix2(const int64_t *s, int nops, int64_t out_size, int64_t in_size, int64_t n,
                                            int64_t block) {
  const int64_t isz[4] = {out_size, in_size, in_size, in_size};
  return ct__torch_vec_prefix(s, nops, isz, n, block);
}

/* a * b + c as GCC compiled it in torch (fused); at 0, rounded twice. */
#if CT_TORCH_COMPAT
#define CT_COMPAT_FMAF(a, b, c) fmaf((a), (b), (c))
#define CT_COMPAT_FMA(a, b, c) fma((a), (b), (c))
#else
#define CT_COMPAT_FMAF(a, b, c) ((a) * (b) + (c))
#define CT_COMPAT_FMA(a, b, c) ((a) * (b) + (c))
#endif

/* SLEEF's trigonometric functions on AVX-512 recompute a half whose AVX2 vector would reduce differently. */
#define CT_TORCH_TRIG_LANES CT_TORCH_COMPAT

#endif
