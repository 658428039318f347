/* Element conversion between the 12 dtypes with PyTorch 1.13's CPU semantics. The 144 loops come
   from one X-macro table crossed with itself; each loop is load -> convert -> store with a
   contiguous branch simple enough for the compiler to vectorize.

   The conversions never rely on floating-point exception flags. Telling GCC so lets it compute both
   sides of the float16 conversions' selects and vectorize those loops (PyTorch builds the same way). */
/* GCC builds this file with -fno-trapping-math (CMakeLists.txt: CT_FP_RELAXED_SOURCES). */

#include <math.h>

#include "core/cast.h"
#include "core/dtype_list.h"

/* ---- float -> integer as x86's cvtt* instructions do it (see ct__f64_to_i64 in cast.h) ---- */
static inline int64_t f32_to_i64(float x) {
  return (x >= -9223372036854775808.0f && x < 9223372036854775808.0f) ? (int64_t)x : INT64_MIN;
}
static inline int32_t f32_to_i32(float x) { return (x >= -2147483648.0f && x < 2147483648.0f) ? (int32_t)x : INT32_MIN; }

/* ---- conversions into each destination type, one function per source kind, generated for every dtype
   of the list (core/dtype_list.h) by its kind. Integer sources come in as int64 (every integer dtype and
   bool fits), float16/bfloat16 sources as float. ---- */

/* Integer destinations: 64-bit and unsigned ones convert floats through int64 (uint8 then wraps: c10's
   static_cast_with_inter_type<uint8_t>), the narrower signed ones through int32 (then wrap), as GCC's
   cvtt* instructions for static_cast do. */
#define DEST_INT(D, T, SGN, STORE)                                                                                \
  static inline T D##_from_i64(int64_t v) { return (T)v; }                                                       \
  static inline T D##_from_f32(float v) { return (T)(sizeof(T) == 8 || !(SGN) ? f32_to_i64(v) : f32_to_i32(v)); } \
  static inline T D##_from_f64(double v) {                                                                        \
    return (T)(sizeof(T) == 8 || !(SGN) ? ct__f64_to_i64(v) : ct__f64_to_i32(v));                                 \
  }                                                                                                               \
  static inline T D##_from_c64(ct_complex64 v) { return D##_from_f32(v.re); }                                    \
  static inline T D##_from_c128(ct_complex128 v) { return D##_from_f64(v.re); }

/* bool: nonzero; a complex source only looks at its real part (c10 takes .real() first). */
#define DEST_BOOL(D, T, SGN, STORE)                                          \
  static inline T D##_from_i64(int64_t v) { return v != 0; }                \
  static inline T D##_from_f32(float v) { return v != 0; }                  \
  static inline T D##_from_f64(double v) { return v != 0; }                 \
  static inline T D##_from_c64(ct_complex64 v) { return v.re != 0; }        \
  static inline T D##_from_c128(ct_complex128 v) { return v.re != 0; }

/* float16/bfloat16 are built from a float, so wider sources round twice. */
#define DEST_HALF(D, T, SGN, STORE)                                                 \
  static inline T D##_from_i64(int64_t v) { return STORE((float)v); }               \
  static inline T D##_from_f32(float v) { return STORE(v); }                        \
  static inline T D##_from_f64(double v) { return STORE((float)v); }                \
  static inline T D##_from_c64(ct_complex64 v) { return STORE(v.re); }              \
  static inline T D##_from_c128(ct_complex128 v) { return STORE((float)v.re); }

#define DEST_FLOAT(D, T, SGN, STORE)                                    \
  static inline T D##_from_i64(int64_t v) { return (T)v; }              \
  static inline T D##_from_f32(float v) { return (T)v; }                \
  static inline T D##_from_f64(double v) { return (T)v; }               \
  static inline T D##_from_c64(ct_complex64 v) { return (T)v.re; }      \
  static inline T D##_from_c128(ct_complex128 v) { return (T)v.re; }

#define DEST_COMPLEX(D, T, SGN, STORE)                                                         \
  typedef __typeof__(((T *)0)->re) D##_part;                                                   \
  static inline T D##_from_i64(int64_t v) { return (T){(D##_part)v, 0}; }                     \
  static inline T D##_from_f32(float v) { return (T){(D##_part)v, 0}; }                       \
  static inline T D##_from_f64(double v) { return (T){(D##_part)v, 0}; }                      \
  static inline T D##_from_c64(ct_complex64 v) { return (T){(D##_part)v.re, (D##_part)v.im}; } \
  static inline T D##_from_c128(ct_complex128 v) { return (T){(D##_part)v.re, (D##_part)v.im}; }

#define DEST(_, S, T, K, LOAD, STORE, NAME, LEGACY, SCALAR, CPP, TYPEMETA, DIGITS, MAX, SGN, ...) \
  DEST_##K(S, T, SGN, STORE)
CT_DTYPE_LIST(DEST, ~)

/* Picks the conversion by the C type of the loaded source value. */
#define CT_CONVERT(D, x)                                                                              \
  _Generic((x), float: D##_from_f32, double: D##_from_f64, ct_complex64: D##_from_c64,               \
           ct_complex128: D##_from_c128, default: D##_from_i64)(x)

/* Loading a stored element as its arithmetic value. bool is read as a byte and normalized, so any
   nonzero byte (e.g. from foreign memory) counts as true without undefined behaviour. */
#define LOAD_BOOL(LOAD, v) ((int)((v) != 0))
#define LOAD_INT(LOAD, v) (v)
#define LOAD_HALF(LOAD, v) LOAD(v)
#define LOAD_FLOAT(LOAD, v) (v)
#define LOAD_COMPLEX(LOAD, v) (v)

/* Crossing the list with itself: a macro cannot expand itself, so each row defers the inner
   expansion of CT_DTYPE_LIST until CT_EXPAND rescans the text (the standard "defer" idiom). */
#define CT_EMPTY()
#define CT_DEFER(m) m CT_EMPTY()
#define CT_EXPAND(...) __VA_ARGS__
#define CT_DTYPE_LIST_AGAIN() CT_DTYPE_LIST

/* One loop per (source S, destination D). Elements move through memcpy so unaligned caller memory
   (from_blob) is fine; with constant strides the compiler turns them into plain vector loads. */
#define CT_CAST_LOOP(S, ST, SK, SLOAD, D, DT, ...)                                                                      \
  static void cast_##S##_to_##D(char *dst, int64_t ds, const char *src, int64_t ss, int64_t n) {          \
    if (ds == (int64_t)sizeof(DT) && ss == (int64_t)sizeof(ST)) {                                         \
      char *restrict o = dst;                                                                             \
      const char *restrict in = src;                                                                      \
      for (int64_t i = 0; i < n; i++) {                                                                   \
        ST v;                                                                                             \
        memcpy(&v, in + i * (int64_t)sizeof(ST), sizeof v);                                               \
        DT r = CT_CONVERT(D, LOAD_##SK(SLOAD, v));                                                             \
        memcpy(o + i * (int64_t)sizeof(DT), &r, sizeof r);                                                \
      }                                                                                                   \
    } else {                                                                                              \
      for (int64_t i = 0; i < n; i++) {                                                                   \
        ST v;                                                                                             \
        memcpy(&v, src + i * ss, sizeof v);                                                               \
        DT r = CT_CONVERT(D, LOAD_##SK(SLOAD, v));                                                             \
        memcpy(dst + i * ds, &r, sizeof r);                                                               \
      }                                                                                                   \
    }                                                                                                     \
  }
#define CT_CAST_ROW(_, S, ST, SK, SLOAD, ...) CT_DEFER(CT_DTYPE_LIST_AGAIN)()(CT_CAST_LOOP, S, ST, SK, SLOAD)
CT_EXPAND(CT_DTYPE_LIST(CT_CAST_ROW, ~))

typedef void (*cast_fn)(char *dst, int64_t ds, const char *src, int64_t ss, int64_t n);

#define CT_CAST_ENTRY(S, D, ...) [CT_##D] = cast_##S##_to_##D,
#define CT_CAST_TABLE_ROW(_, S, ...) [CT_##S] = {CT_DEFER(CT_DTYPE_LIST_AGAIN)()(CT_CAST_ENTRY, S)},
/* cast_table[src][dst] */
static const cast_fn cast_table[CT_NUM_DTYPES + 1][CT_NUM_DTYPES + 1] = {CT_EXPAND(CT_DTYPE_LIST(CT_CAST_TABLE_ROW, ~))};

/* One element repeated over a contiguous run (fill, broadcast copies): typed stores the compiler can
   vectorize instead of a byte copy per element. */
#define CT_REPEAT(T)                                      \
  do {                                                    \
    T v_;                                                 \
    memcpy(&v_, src, sizeof v_);                          \
    for (int64_t i = 0; i < n; i++) memcpy(dst + i * (int64_t)sizeof v_, &v_, sizeof v_); \
  } while (0)
static void repeat_contiguous(char *dst, const char *src, size_t isz, int64_t n) {
  switch (isz) {
    case 1: memset(dst, *(const unsigned char *)src, (size_t)n); break;
    case 2: CT_REPEAT(uint16_t); break;
    case 4: CT_REPEAT(uint32_t); break;
    case 8: CT_REPEAT(uint64_t); break;
    default: CT_REPEAT(ct_complex128); break;
  }
}

#define CT_MOVE_STRIDED(T)                                                                  \
  for (int64_t i = 0; i < n; i++) {                                                         \
    T v_;                                                                                   \
    memcpy(&v_, src + i * ss, sizeof v_);                                                   \
    memcpy(dst + i * ds, &v_, sizeof v_);                                                   \
  }

static void copy_bytes_strided(char *dst, int64_t ds, const char *src, int64_t ss, size_t isz, int64_t n) {
  if (ds == (int64_t)isz && ss == (int64_t)isz) {
    if (dst != src) memmove(dst, src, (size_t)n * isz);
    return;
  }
  if (ds == (int64_t)isz && ss == 0) {
    repeat_contiguous(dst, src, isz, n);
    return;
  }
  switch (isz) { /* fixed-size moves compile to single loads and stores */
    case 1: CT_MOVE_STRIDED(uint8_t); break;
    case 2: CT_MOVE_STRIDED(uint16_t); break;
    case 4: CT_MOVE_STRIDED(uint32_t); break;
    case 8: CT_MOVE_STRIDED(uint64_t); break;
    default: CT_MOVE_STRIDED(ct_complex128); break;
  }
}

/* Contiguous float -> bfloat16 as PyTorch's AVX2 vector conversion (cvtfp32_bf16) does it: round to
   nearest even like the scalar path, but NaN becomes 0xFFFF instead of 0x7FC0. Contiguous float32
   sources always take the vector path (a partial vector for the tail); float64 sources do so in blocks
   of 16 with a scalar tail. Strided copies are scalar throughout and keep 0x7FC0. */
static inline uint16_t bf16_vector(float f) {
  uint16_t r = ct__float_to_bfloat16(f);
  return f != f ? (uint16_t)0xFFFF : r;
}

static void cast_f32_to_bf16_vector(char *restrict dst, const char *restrict src, int64_t n) {
  for (int64_t i = 0; i < n; i++) {
    float v;
    memcpy(&v, src + 4 * i, 4);
    uint16_t r = bf16_vector(v);
    memcpy(dst + 2 * i, &r, 2);
  }
}

static void cast_f64_to_bf16_vector(char *restrict dst, const char *restrict src, int64_t n) {
  int64_t blocks = n - n % 16;
  for (int64_t i = 0; i < blocks; i++) {
    double v;
    memcpy(&v, src + 8 * i, 8);
    uint16_t r = bf16_vector((float)v);
    memcpy(dst + 2 * i, &r, 2);
  }
  cast_table[CT_FLOAT64][CT_BFLOAT16](dst + 2 * blocks, 2, src + 8 * blocks, 8, n - blocks);
}

void ct__cast_strided(char *dst, int64_t dst_stride, ct_dtype dt, const char *src, int64_t src_stride, ct_dtype st,
                      int64_t n) {
  if (n <= 0) return;
  /* Same dtype moves bytes: exact for every value, NaN payloads included. */
  if (dt == st) {
    copy_bytes_strided(dst, dst_stride, src, src_stride, ct__itemsize(dt), n);
    return;
  }
  if (dt == CT_BFLOAT16 && dst_stride == 2 && st == CT_FLOAT32 && src_stride == 4) {
    cast_f32_to_bf16_vector(dst, src, n);
    return;
  }
  if (dt == CT_BFLOAT16 && dst_stride == 2 && st == CT_FLOAT64 && src_stride == 8) {
    cast_f64_to_bf16_vector(dst, src, n);
    return;
  }
  cast_table[st][dt](dst, dst_stride, src, src_stride, n);
}

void ct__cast_n(void *dst, ct_dtype dt, const void *src, ct_dtype st, int64_t n) {
  ct__cast_strided(dst, (int64_t)ct__itemsize(dt), dt, src, (int64_t)ct__itemsize(st), st, n);
}

/* ---- scalars ---- */

ct_scalar ct__load_scalar(ct_dtype dt, const void *p) {
  switch (ct__dt(dt)->category) {
    case CT_CAT_BOOL: return ct_scalar_bool(*(const uint8_t *)p != 0);
    case CT_CAT_INT: {
      int64_t v;
      ct__cast_n(&v, CT_INT64, p, dt, 1);
      return ct_scalar_int(v);
    }
    case CT_CAT_FLOAT: {
      double v;
      ct__cast_n(&v, CT_FLOAT64, p, dt, 1);
      return ct_scalar_double(v);
    }
    default: {
      ct_complex128 v;
      ct__cast_n(&v, CT_COMPLEX128, p, dt, 1);
      return ct_scalar_complex(v.re, v.im);
    }
  }
}

/* One element: ct__cast_n's vector special cases never apply to a single element from a scalar's type. */
static void store_one(ct_dtype dt, void *p, const void *src, ct_dtype st) {
  if (dt == st)
    memcpy(p, src, ct__itemsize(dt));
  else
    cast_table[st][dt](p, 0, src, 0, 1);
}

void ct__store_scalar(ct_dtype dt, void *p, ct_scalar v) {
  switch (v.kind) {
    case CT_SCALAR_BOOL: {
      uint8_t b = v.v.b;
      store_one(dt, p, &b, CT_BOOL);
      break;
    }
    case CT_SCALAR_INT: store_one(dt, p, &v.v.i, CT_INT64); break;
    case CT_SCALAR_DOUBLE: store_one(dt, p, &v.v.d, CT_FLOAT64); break;
    case CT_SCALAR_COMPLEX: store_one(dt, p, &v.v.c, CT_COMPLEX128); break;
  }
}

/* ---- c10's overflow check (c10/util/Half.h: overflows<To, From>) ---- */

/* The value type of each dtype as numeric_limits sees it. For complex dtypes: their component. */
typedef struct {
  double lowest, max;
  bool has_inf_nan, is_unsigned;
} value_limits;

static value_limits limits_of(ct_dtype dt) {
  const ct_dtype_traits *t = ct__dt(dt);
  return (value_limits){t->lowest, t->max, t->category >= CT_CAT_FLOAT, !t->is_signed};
}

static bool int_overflows(int64_t v, value_limits l) {
  /* A negative int may wrap into an unsigned type (so `a - b` works on uint8) as long as its
     magnitude fits. */
  if (l.is_unsigned) return (double)v > l.max || (v < 0 && -(uint64_t)v > (uint64_t)l.max);
  return (double)v < l.lowest || (double)v > l.max;
}

static bool double_overflows(double v, value_limits l) {
  if (l.has_inf_nan && isinf(v)) return false;
  if (!l.has_inf_nan && v != v) return true;
  return v < l.lowest || v > l.max;
}

const char *ct__dtype_cpp_name(ct_dtype dt) { return ct__dt(dt)->cpp_name; }

bool ct__scalar_fits(ct_scalar v, ct_dtype dt) {
  if (dt == CT_BOOL) return true; /* converting to bool never overflows */
  value_limits l = limits_of(dt);
  bool over = false;
  switch (v.kind) {
    case CT_SCALAR_BOOL: over = false; break;
    case CT_SCALAR_INT: over = int_overflows(v.v.i, l); break;
    case CT_SCALAR_DOUBLE: over = double_overflows(v.v.d, l); break;
    case CT_SCALAR_COMPLEX:
      /* complex -> real overflows when the imaginary part is not zero */
      over = (!ct_dtype_is_complex(dt) && v.v.c.im != 0) || double_overflows(v.v.c.re, l) ||
             double_overflows(v.v.c.im, l);
      break;
  }
  if (over) ct__error(CT_ERR_RUNTIME, "value cannot be converted to type %s without overflow", ct__dtype_cpp_name(dt));
  return !over;
}

