/* One element of any dtype as a C number, and back: switches generated from the dtype list
   (core/dtype_list.h), so a new dtype is handled here by its row. For the scalar paths that read or
   write an element at a time (printing, random's samplers, argument checks); bulk conversions go through
   the cast engine (core/cast.h). Values follow the cast engine's rules (c10::convert on x86), except
   ct__elem_store_f64, which is static_cast's. */
#ifndef CTORCH_CORE_ELEM_H
#define CTORCH_CORE_ELEM_H

#include "core/cast.h"
#include "core/dtype_list.h"

/* ---- load: the element at p as a double (a complex one: its real part) or as an int64 ---- */
#define CT__ELEM_F64_BOOL(LOAD, v) ((v) != 0)
#define CT__ELEM_F64_INT(LOAD, v) ((double)(v))
#define CT__ELEM_F64_HALF(LOAD, v) ((double)LOAD(v))
#define CT__ELEM_F64_FLOAT(LOAD, v) ((double)(v))
#define CT__ELEM_F64_COMPLEX(LOAD, v) ((double)(v).re)
/* A case of a generated switch that loads the element at p and returns CONV##K(LOAD, value), and one
   that stores CONV##K(T, STORE, v) into it (CONV names a family of per-kind conversions). */
#define CT__ELEM_LOAD_AS(CONV, S, T, K, LOAD) \
  case CT_##S: {                              \
    T v_;                                     \
    memcpy(&v_, p, sizeof v_);                \
    return CONV##K(LOAD, v_);                 \
  }
#define CT__ELEM_STORE_AS(CONV, S, T, K, STORE) \
  case CT_##S: {                                \
    T r_ = CONV##K(T, STORE, v);                \
    memcpy(p, &r_, sizeof r_);                  \
    break;                                      \
  }

#define CT__ELEM_F64_CASE(A, S, T, K, LOAD, ...) CT__ELEM_LOAD_AS(CT__ELEM_F64_, S, T, K, LOAD)
static inline double ct__elem_load_f64(ct_dtype dt, const void *p) {
  switch (dt) {
    CT_DTYPE_LIST(CT__ELEM_F64_CASE, ~)
    default: return 0.0;
  }
}

/* Floating and complex elements truncate as the cast engine does (NaN, inf and out of range: INT64_MIN). */
#define CT__ELEM_I64_BOOL(LOAD, v) ((int64_t)((v) != 0))
#define CT__ELEM_I64_INT(LOAD, v) ((int64_t)(v))
#define CT__ELEM_I64_HALF(LOAD, v) ct__f64_to_i64((double)LOAD(v))
#define CT__ELEM_I64_FLOAT(LOAD, v) ct__f64_to_i64((double)(v))
#define CT__ELEM_I64_COMPLEX(LOAD, v) ct__f64_to_i64((double)(v).re)
#define CT__ELEM_I64_CASE(A, S, T, K, LOAD, ...) CT__ELEM_LOAD_AS(CT__ELEM_I64_, S, T, K, LOAD)
static inline int64_t ct__elem_load_i64(ct_dtype dt, const void *p) {
  switch (dt) {
    CT_DTYPE_LIST(CT__ELEM_I64_CASE, ~)
    default: return 0;
  }
}

/* ---- store: an int64 into the element at p, as the cast engine converts int64 (modular narrowing, one
   rounding to float16/bfloat16 through float) ---- */
#define CT__ELEM_FROM_I64_BOOL(T, STORE, v) ((T)((v) != 0))
#define CT__ELEM_FROM_I64_INT(T, STORE, v) ((T)(v))
#define CT__ELEM_FROM_I64_HALF(T, STORE, v) STORE((float)(v))
#define CT__ELEM_FROM_I64_FLOAT(T, STORE, v) ((T)(v))
#define CT__ELEM_FROM_I64_COMPLEX(T, STORE, v) ((T){(__typeof__(((T *)0)->re))(v), 0})
#define CT__ELEM_STORE_I64_CASE(A, S, T, K, LOAD, STORE, ...) CT__ELEM_STORE_AS(CT__ELEM_FROM_I64_, S, T, K, STORE)
static inline void ct__elem_store_i64(ct_dtype dt, void *p, int64_t v) {
  switch (dt) {
    CT_DTYPE_LIST(CT__ELEM_STORE_I64_CASE, ~)
    default: break;
  }
}

/* ---- store: a double into the element at p as C++'s static_cast<T>(double) compiles on x86-64 (what
   torch's samplers and range kernels write): GCC converts to int64 through the 64-bit instruction and to
   int32 and narrower types through the 32-bit one, then keeps the low bits (out of range: the "integer
   indefinite" INT_MIN of the width). The copy engine's c10::convert takes uint8 through int64 instead: the
   two differ for values outside int32. Half and BFloat16 are built from a float: the double rounds twice. */
#define CT__ELEM_CAST_F64_BOOL(T, STORE, v) ((T)((v) != 0))
#define CT__ELEM_CAST_F64_INT(T, STORE, v) (sizeof(T) == 8 ? (T)ct__f64_to_i64(v) : (T)ct__f64_to_i32(v))
#define CT__ELEM_CAST_F64_HALF(T, STORE, v) STORE((float)(v))
#define CT__ELEM_CAST_F64_FLOAT(T, STORE, v) ((T)(v))
#define CT__ELEM_CAST_F64_COMPLEX(T, STORE, v) ((T){(__typeof__(((T *)0)->re))(v), 0})
#define CT__ELEM_CAST_F64_CASE(A, S, T, K, LOAD, STORE, ...) CT__ELEM_STORE_AS(CT__ELEM_CAST_F64_, S, T, K, STORE)
static inline void ct__elem_store_f64(ct_dtype dt, void *p, double v) {
  switch (dt) {
    CT_DTYPE_LIST(CT__ELEM_CAST_F64_CASE, ~)
    default: break;
  }
}

/* ---- store: a double into the element at p as the cast engine converts it (c10::convert<T>(double),
   core/cast.c's DEST_INT): as ct__elem_store_f64 but for the unsigned types, which go through int64
   (static_cast_with_inter_type<uint8_t>), so uint8 wraps values beyond int32 ---- */
#define CT__ELEM_CONV_F64_BOOL CT__ELEM_CAST_F64_BOOL
#define CT__ELEM_CONV_F64_INT(T, STORE, v) \
  (sizeof(T) == 8 || (T)-1 > 0 ? (T)ct__f64_to_i64(v) : (T)ct__f64_to_i32(v))
#define CT__ELEM_CONV_F64_HALF    CT__ELEM_CAST_F64_HALF
#define CT__ELEM_CONV_F64_FLOAT   CT__ELEM_CAST_F64_FLOAT
#define CT__ELEM_CONV_F64_COMPLEX CT__ELEM_CAST_F64_COMPLEX
#define CT__ELEM_CONV_F64_CASE(A, S, T, K, LOAD, STORE, ...) \
  CT__ELEM_STORE_AS(CT__ELEM_CONV_F64_, S, T, K, STORE)
static inline void ct__elem_convert_f64(ct_dtype dt, void *p, double v) {
  switch (dt) {
    CT_DTYPE_LIST(CT__ELEM_CONV_F64_CASE, ~)
    default: break;
  }
}

/* ---- a double as a real floating dtype holds it: static_cast<scalar_t>(v) read back (float16 and
   bfloat16 round through float, as c10's constructors do); any other dtype returns v ---- */
#define CT__ELEM_ROUND_BOOL(T, LOAD, STORE, v) (v)
#define CT__ELEM_ROUND_INT(T, LOAD, STORE, v) (v)
#define CT__ELEM_ROUND_HALF(T, LOAD, STORE, v) ((double)LOAD(STORE((float)(v))))
#define CT__ELEM_ROUND_FLOAT(T, LOAD, STORE, v) ((double)(T)(v))
#define CT__ELEM_ROUND_COMPLEX(T, LOAD, STORE, v) (v)
#define CT__ELEM_ROUND_CASE(A, S, T, K, LOAD, STORE, ...) \
  case CT_##S: return CT__ELEM_ROUND_##K(T, LOAD, STORE, v);
static inline double ct__elem_round_f64(ct_dtype dt, double v) {
  switch (dt) {
    CT_DTYPE_LIST(CT__ELEM_ROUND_CASE, ~)
    default: return v;
  }
}

/* An int64 as dtype dt holds it, read back as int64: static_cast<int64_t>(static_cast<T>(v)) (integers
   wrap, floating types round, then truncate). */
static inline int64_t ct__elem_round_i64(ct_dtype dt, int64_t v) {
  char elem[16];
  ct__elem_store_i64(dt, elem, v);
  return ct__elem_load_i64(dt, elem);
}

#endif
