/* Box-Muller over blocks of 16 values for the normal "fill path": in each block, values j and j + 8
   (j < 8) are a uniform pair turned into two normals. Blocks are independent, so callers may run
   them on several threads without changing a bit. */
#ifndef CTORCH_RANDOM_BOXMULLER_H
#define CTORCH_RANDOM_BOXMULLER_H

#include <stdint.h>

/* float32: the Cephes-style log256_ps / sincos256_ps of PyTorch's avx_mathfun.h, with the FMA
   contractions GCC makes in PyTorch's AVX2 build, computed with explicit fmaf (or the same
   operations in AVX2 + FMA when the CPU has them). d holds uniforms in [0, 1) on entry. */
void ct__boxmuller_f32(float *d, int64_t nblocks, float mean, float std);
/* The same on raw random() words: ct__u24_inplace and ct__boxmuller_f32 in one pass. */
void ct__boxmuller_f32_words(void *d, int64_t nblocks, float mean, float std);
/* float64: glibc log / sqrt / sincos (what GCC made of torch's std::cos + std::sin), then
   fma(r * cos, std, mean). */
void ct__boxmuller_f64(double *d, int64_t nblocks, double mean, double std);
/* float16 / bfloat16 (raw bits): computed in float with c10's intermediate roundings. */
void ct__boxmuller_f16(uint16_t *d, int64_t nblocks, float mean, float std);
void ct__boxmuller_bf16(uint16_t *d, int64_t nblocks, float mean, float std);

/* The scalar float32 kernels, exposed for the unit test that checks the AVX2 variant against them. */
void ct__boxmuller_f32_scalar(float *d, int64_t nblocks, float mean, float std);
/* 1 when the AVX2 + FMA variant is in use on this CPU. */
int ct__boxmuller_f32_uses_avx2(void);

#endif
