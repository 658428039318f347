/* bfloat16 products through oneDNN, where torch 1.13 sends them there (aten/src/ATen/native/mkldnn/
   Matmul.cpp): on a CPU with AVX-512 BW, VL and DQ (mkldnn_bf16_device_check), for operands with elements
   and a product of their sizes above 16 * 16 * 16 (checksize), mm / addmm / bmm / baddbmm / mv / addmv / dot
   run mkldnn_matmul instead of torch's own loops. Its results differ from those loops' (oneDNN accumulates
   in float32 blocks, on this CPU with AMX), so ctorch makes the same oneDNN call: the matmul primitive that
   ideep's matmul_forward::compute creates (src and weights in their strides, dst in the primitive's chosen
   layout, output scale alpha, a sum post-op of scale beta where beta != 0, a user scratchpad), with the same
   library (libdnnl.so.2, loaded at run time as OpenBLAS is: torch 1.13 on Debian links the same one). oneDNN
   keeps its own cache of created primitives, so a repeated shape costs no new code generation.

   Where the CPU lacks those extensions, or libdnnl.so.2 cannot be loaded, or the library was built without
   oneDNN's header (libdnnl-dev), ct__dnnl_bf16_route is false and the products run torch's own loops. */
#ifndef CTORCH_KERNELS_CPU_DNNL_H
#define CTORCH_KERNELS_CPU_DNNL_H

#include <stdbool.h>
#include <stdint.h>

/* Whether torch 1.13 computes a bfloat16 product of `work` = the product of the operands' sizes (m * k * n,
   batch * m * k * n, m * k, or n) through oneDNN on this CPU, and ctorch can too. */
bool ct__dnnl_bf16_route(int64_t work);

/* dst (nd = 2 or 3 dims ddims, row-major contiguous, holding beta's operand when beta != 0) = alpha * src @
   weights + beta * dst, bfloat16 elements, src and weights of dims and element strides given (batch first
   where nd is 3). False (dst untouched, no error recorded) if oneDNN refused the call. */
bool ct__dnnl_bf16_matmul(int nd, const int64_t *sdims, const int64_t *sstrides, const uint16_t *src,
                          const int64_t *wdims, const int64_t *wstrides, const uint16_t *weights,
                          const int64_t *ddims, uint16_t *dst, float alpha, float beta);

/* torch's mkldnn_bf16_gemm, inside cpublas::gemm (mm, addmm and every product that reaches them): the BLAS
   call's column-major operands after normalize_last_dims, as oneDNN row-major views (A as k x m, B as n x k,
   C as n x m, C^T = B^T A^T). False (c untouched, no error) where torch's own loop runs instead (m * n * k
   at most 16^3, alpha 0, no route on this CPU) or oneDNN refused. */
bool ct__dnnl_bf16_gemm(bool ta, bool tb, int64_t m, int64_t n, int64_t k, float alpha, const uint16_t *a,
                        int64_t lda, const uint16_t *b, int64_t ldb, float beta, uint16_t *c, int64_t ldc);

/* oneDNN's f32 gemm (dnnl_sgemm) for a column-major c (m x n) = op(a) op(b) + beta c, alpha 1, on the
   calling thread alone (its OpenMP count set to one for the call). False (c untouched, no error) where
   libdnnl.so.2 cannot be loaded or refuses. blas.c decides where its bits are OpenBLAS's (beta 0, or 1 to
   add a later K block). */
bool ct__dnnl_sgemm_one_thread(bool ta, bool tb, int64_t m, int64_t n, int64_t k, const float *a, int64_t lda,
                               const float *b, int64_t ldb, float beta, float *c, int64_t ldc);

#endif
