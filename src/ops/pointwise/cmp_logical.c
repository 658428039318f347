/* Logical and bitwise ops: logical_and / logical_or / logical_xor, bitwise_and / bitwise_or /
   bitwise_xor, bitwise_left_shift / bitwise_right_shift.

   logical_* compare like eq: operands promote to the common dtype (so a float32 tensor and a 0-dim
   float64 1e-300 give False: 1e-300 is 0 in float32), the result is bool and out= or in-place targets of
   another dtype receive 1 / 0. bitwise_* promote like add (can_cast applies to out= and in place) and
   exist for bool and integers. Shifts follow x86 as PyTorch's kernels compile: types of 32 bits or
   fewer shift in 32 bits, int64 in 64, the count taken mod the width; right shifts are arithmetic for
   signed types. */
#include "kernels/cpu/loops.h"
#include "ops/pointwise/pw.h"

/* ---- logical: nonzero tests in the compute dtype ---- */
#define NZ(x) ((x) != 0)
/* float16 / bfloat16 are nonzero unless +-0 (NaN is nonzero), read from the bits */
#define NZ16(x) (((x) & 0x7fffu) != 0)
#define DEF_LOGICAL(name, OP)                                                                               \
  CT_BINARY_LOOP(name##_CT_BOOL, uint8_t, bool, CT_LDB, bool, CT_ID, a OP b)                                    \
  CT_BINARY_LOOP(name##_CT_UINT8, uint8_t, uint8_t, CT_ID, bool, CT_ID, NZ(a) OP NZ(b))                     \
  CT_BINARY_LOOP(name##_CT_INT8, int8_t, int8_t, CT_ID, bool, CT_ID, NZ(a) OP NZ(b))                        \
  CT_BINARY_LOOP(name##_CT_INT16, int16_t, int16_t, CT_ID, bool, CT_ID, NZ(a) OP NZ(b))                     \
  CT_BINARY_LOOP(name##_CT_INT32, int32_t, int32_t, CT_ID, bool, CT_ID, NZ(a) OP NZ(b))                     \
  CT_BINARY_LOOP(name##_CT_INT64, int64_t, int64_t, CT_ID, bool, CT_ID, NZ(a) OP NZ(b))                     \
  CT_BINARY_LOOP(name##_CT_FLOAT16, uint16_t, uint16_t, CT_ID, bool, CT_ID, NZ16(a) OP NZ16(b))             \
  CT_BINARY_LOOP(name##_CT_BFLOAT16, uint16_t, uint16_t, CT_ID, bool, CT_ID, NZ16(a) OP NZ16(b))            \
  CT_BINARY_LOOP(name##_CT_FLOAT32, float, float, CT_ID, bool, CT_ID, NZ(a) OP NZ(b))                       \
  CT_BINARY_LOOP(name##_CT_FLOAT64, double, double, CT_ID, bool, CT_ID, NZ(a) OP NZ(b))                     \
  CT_BINARY_LOOP(name##_CT_COMPLEX64, ct_c64, ct_c64, CT_ID, bool, CT_ID, NZ(a) OP NZ(b))                   \
  CT_BINARY_LOOP(name##_CT_COMPLEX128, ct_c128, ct_c128, CT_ID, bool, CT_ID, NZ(a) OP NZ(b))
DEF_LOGICAL(land, &&)
DEF_LOGICAL(lor, ||)
DEF_LOGICAL(lxor, !=)

#define ENTRY_LAND(E, T, CT, LD, ST) [E] = CT_LOOP_REF(land_##E),
#define ENTRY_LOR(E, T, CT, LD, ST) [E] = CT_LOOP_REF(lor_##E),
#define ENTRY_LXOR(E, T, CT, LD, ST) [E] = CT_LOOP_REF(lxor_##E),
static const ct_loop *const land_loops[CT_NUM_DTYPES + 1] = {CT_DT_ALL(ENTRY_LAND)};
static const ct_loop *const lor_loops[CT_NUM_DTYPES + 1] = {CT_DT_ALL(ENTRY_LOR)};
static const ct_loop *const lxor_loops[CT_NUM_DTYPES + 1] = {CT_DT_ALL(ENTRY_LXOR)};

const ct_pw_op ct__pw_op_logical_and = {
    CT_PW_OP_ATEN("logical_and", CT_PW_ATEN_OUT("logical_and"), "logical_and_cpu", COMPARE, land_loops, NONE),
    .dev = CT_PW_DEV_COPY, .fn_over_out = true};
const ct_pw_op ct__pw_op_logical_or = {
    CT_PW_OP_ATEN("logical_or", CT_PW_ATEN_OUT("logical_or"), "logical_or_cpu", COMPARE, lor_loops, NONE),
    .dev = CT_PW_DEV_COPY, .fn_over_out = true,
    .ref_same_device = true}; /* its reference ends in bitwise_or's */
const ct_pw_op ct__pw_op_logical_xor = {
    CT_PW_OP_ATEN("logical_xor", CT_PW_ATEN_OUT("logical_xor"), "logical_xor_cpu", COMPARE, lxor_loops, NONE),
    .dev = CT_PW_DEV_COPY, .fn_over_out = true};

/* ---- bitwise and / or / xor ---- */
#define DEF_BITWISE(name, OP)                                                                   \
  CT_BINARY_LOOP(name##_CT_BOOL, uint8_t, bool, CT_LDB, bool, CT_ID, (bool)(a OP b))                \
  CT_BINARY_LOOP(name##_CT_UINT8, uint8_t, uint8_t, CT_ID, uint8_t, CT_ID, (uint8_t)(a OP b))   \
  CT_BINARY_LOOP(name##_CT_INT8, int8_t, int8_t, CT_ID, int8_t, CT_ID, (int8_t)(a OP b))        \
  CT_BINARY_LOOP(name##_CT_INT16, int16_t, int16_t, CT_ID, int16_t, CT_ID, (int16_t)(a OP b))   \
  CT_BINARY_LOOP(name##_CT_INT32, int32_t, int32_t, CT_ID, int32_t, CT_ID, (int32_t)(a OP b))   \
  CT_BINARY_LOOP(name##_CT_INT64, int64_t, int64_t, CT_ID, int64_t, CT_ID, (int64_t)(a OP b))
DEF_BITWISE(band, &)
DEF_BITWISE(bor, |)
DEF_BITWISE(bxor, ^)

#define ENTRY_BAND(E, T, CT, LD, ST) [E] = CT_LOOP_REF(band_##E),
#define ENTRY_BOR(E, T, CT, LD, ST) [E] = CT_LOOP_REF(bor_##E),
#define ENTRY_BXOR(E, T, CT, LD, ST) [E] = CT_LOOP_REF(bxor_##E),
static const ct_loop *const band_loops[CT_NUM_DTYPES + 1] = {CT_DT_BOOL(ENTRY_BAND) CT_DT_INTEGRAL(ENTRY_BAND)};
static const ct_loop *const bor_loops[CT_NUM_DTYPES + 1] = {CT_DT_BOOL(ENTRY_BOR) CT_DT_INTEGRAL(ENTRY_BOR)};
static const ct_loop *const bxor_loops[CT_NUM_DTYPES + 1] = {CT_DT_BOOL(ENTRY_BXOR) CT_DT_INTEGRAL(ENTRY_BXOR)};

const ct_pw_op ct__pw_op_bitwise_and = {CT_PW_OP_ATEN("bitwise_and", CT_PW_ATEN_TENSOR("bitwise_and"),
                                                      "bitwise_and_cpu", COMMON, band_loops, OUT_INPLACE)};
const ct_pw_op ct__pw_op_bitwise_or = {CT_PW_OP_ATEN("bitwise_or", CT_PW_ATEN_TENSOR("bitwise_or"),
                                                     "bitwise_or_cpu", COMMON, bor_loops, OUT_INPLACE)};
const ct_pw_op ct__pw_op_bitwise_xor = {CT_PW_OP_ATEN("bitwise_xor", CT_PW_ATEN_TENSOR("bitwise_xor"),
                                                      "bitwise_xor_cpu", COMMON, bxor_loops, OUT_INPLACE)};

/* ---- shifts ----
   left:  (T)((W)(U)a << (b & (bits(W) - 1)))  with W = uint32 or uint64 (no signed overflow)
   right: (T)(S a >> (b & (bits(W) - 1)))      with S = int32 (int64 for int64): a sign- or
                                                zero-extends as C++'s promotion does */
#define SHL(T, U, W, M) ((T)(W)((W)(U)a << ((W)b & (M))))
#define SHR(T, S, M) ((T)((S)a >> ((uint32_t)b & (M))))
CT_BINARY_LOOP(shl_CT_UINT8, uint8_t, uint8_t, CT_ID, uint8_t, CT_ID, SHL(uint8_t, uint8_t, uint32_t, 31u))
CT_BINARY_LOOP(shl_CT_INT8, int8_t, int8_t, CT_ID, int8_t, CT_ID, SHL(int8_t, uint8_t, uint32_t, 31u))
CT_BINARY_LOOP(shl_CT_INT16, int16_t, int16_t, CT_ID, int16_t, CT_ID, SHL(int16_t, uint16_t, uint32_t, 31u))
CT_BINARY_LOOP(shl_CT_INT32, int32_t, int32_t, CT_ID, int32_t, CT_ID, SHL(int32_t, uint32_t, uint32_t, 31u))
CT_BINARY_LOOP(shl_CT_INT64, int64_t, int64_t, CT_ID, int64_t, CT_ID, SHL(int64_t, uint64_t, uint64_t, 63u))
CT_BINARY_LOOP(shr_CT_UINT8, uint8_t, uint8_t, CT_ID, uint8_t, CT_ID, SHR(uint8_t, int32_t, 31u))
CT_BINARY_LOOP(shr_CT_INT8, int8_t, int8_t, CT_ID, int8_t, CT_ID, SHR(int8_t, int32_t, 31u))
CT_BINARY_LOOP(shr_CT_INT16, int16_t, int16_t, CT_ID, int16_t, CT_ID, SHR(int16_t, int32_t, 31u))
CT_BINARY_LOOP(shr_CT_INT32, int32_t, int32_t, CT_ID, int32_t, CT_ID, SHR(int32_t, int32_t, 31u))
CT_BINARY_LOOP(shr_CT_INT64, int64_t, int64_t, CT_ID, int64_t, CT_ID, SHR(int64_t, int64_t, 63u))

#define ENTRY_SHL(E, T, CT, LD, ST) [E] = CT_LOOP_REF(shl_##E),
#define ENTRY_SHR(E, T, CT, LD, ST) [E] = CT_LOOP_REF(shr_##E),
static const ct_loop *const shl_loops[CT_NUM_DTYPES + 1] = {CT_DT_INTEGRAL(ENTRY_SHL)};
static const ct_loop *const shr_loops[CT_NUM_DTYPES + 1] = {CT_DT_INTEGRAL(ENTRY_SHR)};

const ct_pw_op ct__pw_op_bitwise_left_shift = {CT_PW_OP_ATEN("bitwise_left_shift",
                                                             CT_PW_ATEN_TENSOR("bitwise_left_shift"),
                                                             "lshift_cpu", COMMON, shl_loops, OUT_INPLACE)};
const ct_pw_op ct__pw_op_bitwise_right_shift = {CT_PW_OP_ATEN("bitwise_right_shift",
                                                              CT_PW_ATEN_TENSOR("bitwise_right_shift"),
                                                              "rshift_cpu", COMMON, shr_loops, OUT_INPLACE)};
