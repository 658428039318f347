/* The torch-compatibility switch as the library under test was built (src/kernels/cpu/torch_compat.h;
   cmake -DCT_TORCH_COMPAT=OFF adds -DCT_TORCH_COMPAT=0 to every target, these tests included). A test-only
   header: the public headers never mention the switch.

   A check of a last bit that only torch's vector/scalar split or GCC's contraction decides asserts torch
   1.13's value with the switch on and, off, the plain scalar formula (one rounding per operation),
   computed in the test from the inputs, never read back from the library. */
#ifndef CT_TEST_COMPAT_H
#define CT_TEST_COMPAT_H

#include "kernels/cpu/torch_compat.h"

/* torch's value (on) or the scalar formula's (off) */
#define COMPAT_PICK(torch_value, plain_value) (CT_TORCH_COMPAT ? (torch_value) : (plain_value))

#endif
