/* Writing one sampled value into an element of any dtype, as PyTorch's static_cast<scalar_t> does
   on x86-64 (float -> integer conversions out of range give the "integer indefinite" value of the
   cvttsd2si instruction GCC emits, instead of C's undefined behaviour). */
#ifndef CTORCH_RANDOM_STORE_H
#define CTORCH_RANDOM_STORE_H

#include "core/half.h"
#include "core/internal.h"

static inline int64_t ct__cvt_f64_i64(double v) { return v >= -0x1p63 && v < 0x1p63 ? (int64_t)v : INT64_MIN; }
/* GCC converts to int32 and narrower types through the 32-bit instruction. */
static inline int32_t ct__cvt_f64_i32(double v) { return v > -0x1p31 - 1.0 && v < 0x1p31 ? (int32_t)v : INT32_MIN; }

/* Modular narrowing, the same bits as C++'s static_cast on two's complement. */
static inline int8_t ct__wrap_i8(int64_t v) { return (int8_t)(uint8_t)(uint64_t)v; }
static inline int16_t ct__wrap_i16(int64_t v) { return (int16_t)(uint16_t)(uint64_t)v; }
static inline int32_t ct__wrap_i32(int64_t v) { return (int32_t)(uint32_t)(uint64_t)v; }

static inline void ct__store_f64(ct_dtype dt, char *p, double v) {
  switch (dt) {
    case CT_BOOL: *(bool *)p = v != 0; break;
    case CT_UINT8: *(uint8_t *)p = (uint8_t)ct__cvt_f64_i32(v); break;
    case CT_INT8: *(int8_t *)p = ct__wrap_i8(ct__cvt_f64_i32(v)); break;
    case CT_INT16: *(int16_t *)p = ct__wrap_i16(ct__cvt_f64_i32(v)); break;
    case CT_INT32: *(int32_t *)p = ct__cvt_f64_i32(v); break;
    case CT_INT64: *(int64_t *)p = ct__cvt_f64_i64(v); break;
    /* Half and BFloat16 are built from a float: the double is rounded twice, as in c10. */
    case CT_FLOAT16: *(uint16_t *)p = ct__float_to_half((float)v); break;
    case CT_BFLOAT16: *(uint16_t *)p = ct__float_to_bfloat16((float)v); break;
    case CT_FLOAT32: *(float *)p = (float)v; break;
    case CT_FLOAT64: *(double *)p = v; break;
    default: break;
  }
}

static inline void ct__store_i64(ct_dtype dt, char *p, int64_t v) {
  switch (dt) {
    case CT_BOOL: *(bool *)p = v != 0; break;
    case CT_UINT8: *(uint8_t *)p = (uint8_t)(uint64_t)v; break;
    case CT_INT8: *(int8_t *)p = ct__wrap_i8(v); break;
    case CT_INT16: *(int16_t *)p = ct__wrap_i16(v); break;
    case CT_INT32: *(int32_t *)p = ct__wrap_i32(v); break;
    case CT_INT64: *(int64_t *)p = v; break;
    case CT_FLOAT16: *(uint16_t *)p = ct__float_to_half((float)v); break;
    case CT_BFLOAT16: *(uint16_t *)p = ct__float_to_bfloat16((float)v); break;
    case CT_FLOAT32: *(float *)p = (float)v; break;
    case CT_FLOAT64: *(double *)p = (double)v; break;
    default: break;
  }
}

/* A floating element read as double (the p of bernoulli, the values of multinomial). */
static inline double ct__load_f64(ct_dtype dt, const char *p) {
  switch (dt) {
    case CT_FLOAT16: return ct__half_to_float(*(const uint16_t *)p);
    case CT_BFLOAT16: return ct__bfloat16_to_float(*(const uint16_t *)p);
    case CT_FLOAT32: return *(const float *)p;
    case CT_FLOAT64: return *(const double *)p;
    default: return 0.0;
  }
}

#endif
