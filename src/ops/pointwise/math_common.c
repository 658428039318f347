/* Shared machinery of the unary math kernels: SIMD level detection and the loop drivers declared in
   kernels/cpu/math_simd.h. */
#include <stdatomic.h>

#include "kernels/cpu/math_simd.h"


/* Elements staged per buffer: 256 x 16 bytes (complex128) = 4 KiB. */
#define CT_MATH_CHUNK 256

static void gather(char *dst, const char *src, int64_t stride, int64_t n, size_t isz) {
  switch (isz) {
    case 2:
      for (int64_t i = 0; i < n; i++) memcpy(dst + 2 * i, src + i * stride, 2);
      break;
    case 4:
      for (int64_t i = 0; i < n; i++) memcpy(dst + 4 * i, src + i * stride, 4);
      break;
    case 8:
      for (int64_t i = 0; i < n; i++) memcpy(dst + 8 * i, src + i * stride, 8);
      break;
    default:
      for (int64_t i = 0; i < n; i++) memcpy(dst + (size_t)i * isz, src + i * stride, isz);
  }
}

static void scatter(char *dst, int64_t stride, const char *src, int64_t n, size_t isz) {
  switch (isz) {
    case 2:
      for (int64_t i = 0; i < n; i++) memcpy(dst + i * stride, src + 2 * i, 2);
      break;
    case 4:
      for (int64_t i = 0; i < n; i++) memcpy(dst + i * stride, src + 4 * i, 4);
      break;
    case 8:
      for (int64_t i = 0; i < n; i++) memcpy(dst + i * stride, src + 8 * i, 8);
      break;
    default:
      for (int64_t i = 0; i < n; i++) memcpy(dst + i * stride, src + (size_t)i * isz, isz);
  }
}

void ct__vml_run(char **d, const int64_t *s, int64_t n, size_t isz, ct_map_fn map, const void *ctx) {
  const int64_t sz = (int64_t)isz;
  if (s[0] == sz && s[1] == sz) {
    map(d[0], d[1], n, ctx);
    return;
  }
  _Alignas(64) char buf[CT_MATH_CHUNK * 16];
  for (int64_t off = 0; off < n; off += CT_MATH_CHUNK) {
    int64_t m = n - off < CT_MATH_CHUNK ? n - off : CT_MATH_CHUNK;
    char *out = d[0] + off * s[0];
    const char *in = d[1] + off * s[1];
    const char *src = in;
    if (s[1] != sz) {
      gather(buf, in, s[1], m, isz);
      src = buf;
    }
    if (s[0] == sz) {
      map(out, src, m, ctx);
    } else {
      map(buf, src, m, ctx);
      scatter(out, s[0], buf, m, isz);
    }
  }
}

void ct__kvec_run(char **d, const int64_t *s, int64_t n, size_t isz, int64_t blk, ct_map_fn bulk, ct_elem_fn elem,
                  const void *ctx) {
  const int64_t sz = (int64_t)isz;
  int64_t done = 0;
  if (s[0] == sz && s[1] == sz) {
    done = n - n % blk;
    if (done) bulk(d[0], d[1], done, ctx);
  } else if (s[0] == sz && s[1] == 0 && n >= blk) {
    /* a broadcast input: PyTorch's vector path with the scalar splatted, then the scalar tail */
    _Alignas(64) char in[64 * 16], out[64 * 16];
    int64_t k = blk <= 64 ? blk : 64;
    for (int64_t i = 0; i < k; i++) memcpy(in + (size_t)i * isz, d[1], isz);
    bulk(out, in, k, ctx);
    done = n - n % blk;
    for (int64_t i = 0; i < done; i++) memcpy(d[0] + i * sz, out, isz);
  }
  for (int64_t i = done; i < n; i++) elem(d[0] + i * s[0], d[1] + i * s[1], ctx);
}

CT_KERNEL_CLONES
static void bf16_widen(float *restrict y, const uint16_t *restrict x, int64_t n) {
  for (int64_t i = 0; i < n; i++) y[i] = ct__bfloat16_to_float(x[i]);
}

CT_KERNEL_CLONES
static void bf16_narrow(uint16_t *restrict y, const float *restrict x, int64_t n) {
  for (int64_t i = 0; i < n; i++) {
    uint32_t u = ct__f32_bits(x[i]);
    uint16_t r = (uint16_t)((u + (((u >> 16) & 1u) + 0x7FFFu)) >> 16);
    y[i] = x[i] != x[i] ? (uint16_t)0xFFFF : r;
  }
}

void ct__map_bf16_via_f32(uint16_t *y, const uint16_t *x, int64_t n, ct_map_fn f32map, const void *ctx) {
  _Alignas(64) float a[CT_MATH_CHUNK], b[CT_MATH_CHUNK];
  for (int64_t off = 0; off < n; off += CT_MATH_CHUNK) {
    int64_t m = n - off < CT_MATH_CHUNK ? n - off : CT_MATH_CHUNK;
    bf16_widen(a, x + off, m);
    f32map(b, a, m, ctx);
    bf16_narrow(y + off, b, m);
  }
}
