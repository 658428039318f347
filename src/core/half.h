/* float16 and bfloat16 conversions, bit-identical to c10::Half and c10::BFloat16 on the CPU
   (round to nearest even; NaN keeps its sign as quiet NaN). */
#ifndef CTORCH_CORE_HALF_H
#define CTORCH_CORE_HALF_H

#include <stdint.h>
#include <string.h>

static inline uint32_t ct__f32_bits(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  return u;
}
static inline float ct__bits_f32(uint32_t u) {
  float f;
  memcpy(&f, &u, 4);
  return f;
}

/* The FP16 library's branch-free conversions, which c10::Half uses. */
static inline float ct__half_to_float(uint16_t h) {
  const uint32_t w = (uint32_t)h << 16;
  const uint32_t sign = w & UINT32_C(0x80000000);
  const uint32_t two_w = w + w;
  const uint32_t exp_offset = UINT32_C(0xE0) << 23;
  const float exp_scale = 0x1.0p-112f;
  const float normalized_value = ct__bits_f32((two_w >> 4) + exp_offset) * exp_scale;
  const uint32_t magic_mask = UINT32_C(126) << 23;
  const float magic_bias = 0.5f;
  const float denormalized_value = ct__bits_f32((two_w >> 17) | magic_mask) - magic_bias;
  const uint32_t denormalized_cutoff = UINT32_C(1) << 27;
  const uint32_t result =
      sign | (two_w < denormalized_cutoff ? ct__f32_bits(denormalized_value) : ct__f32_bits(normalized_value));
  return ct__bits_f32(result);
}

static inline uint16_t ct__float_to_half(float f) {
  const float scale_to_inf = 0x1.0p+112f;
  const float scale_to_zero = 0x1.0p-110f;
  float base = (__builtin_fabsf(f) * scale_to_inf) * scale_to_zero;
  const uint32_t w = ct__f32_bits(f);
  const uint32_t shl1_w = w + w;
  const uint32_t sign = w & UINT32_C(0x80000000);
  uint32_t bias = shl1_w & UINT32_C(0xFF000000);
  if (bias < UINT32_C(0x71000000)) bias = UINT32_C(0x71000000);
  base = ct__bits_f32((bias >> 1) + UINT32_C(0x07800000)) + base;
  const uint32_t bits = ct__f32_bits(base);
  const uint32_t exp_bits = (bits >> 13) & UINT32_C(0x00007C00);
  const uint32_t mantissa_bits = bits & UINT32_C(0x00000FFF);
  const uint32_t nonsign = exp_bits + mantissa_bits;
  return (uint16_t)((sign >> 16) | (shl1_w > UINT32_C(0xFF000000) ? UINT16_C(0x7E00) : nonsign));
}

static inline float ct__bfloat16_to_float(uint16_t b) { return ct__bits_f32((uint32_t)b << 16); }

static inline uint16_t ct__float_to_bfloat16(float f) {
  if (f != f) return UINT16_C(0x7FC0);
  uint32_t u = ct__f32_bits(f);
  uint32_t rounding_bias = ((u >> 16) & 1) + UINT32_C(0x7FFF);
  return (uint16_t)((u + rounding_bias) >> 16);
}

#endif
