/* The torch-compatibility switch as the library under test was built (src/kernels/cpu/torch_compat.h;
   cmake -DCT_TORCH_COMPAT=OFF adds -DCT_TORCH_COMPAT=0 to every target, these tests included). A test-only
   header: the public headers never mention the switch.

   A check of a last bit that only torch's vector/scalar split or GCC's contraction decides asserts torch
   1.13's value with the switch on and, off, the plain scalar formula (one rounding per operation),
   computed in the test from the inputs, never read back from the library. */
#ifndef CT_TEST_COMPAT_H
#define CT_TEST_COMPAT_H

#include <stdint.h>
#include <string.h>

#include "kernels/cpu/torch_compat.h"

/* torch's value (on) or the scalar formula's (off) */
#define COMPAT_PICK(torch_value, plain_value) (CT_TORCH_COMPAT ? (torch_value) : (plain_value))

/* The bits of the scalar formula's results: float, double, and c10::BFloat16 (round to nearest even, for
   finite values) and back. */
static inline uint32_t compat_fbits(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  return u;
}
static inline uint64_t compat_dbits(double d) {
  uint64_t u;
  memcpy(&u, &d, 8);
  return u;
}
static inline uint16_t compat_to_bf16(float f) {
  uint32_t x = compat_fbits(f);
  return (uint16_t)((x + 0x7FFFu + ((x >> 16) & 1u)) >> 16);
}
static inline float compat_from_bf16(uint16_t h) {
  uint32_t x = (uint32_t)h << 16;
  float f;
  memcpy(&f, &x, 4);
  return f;
}

#endif
