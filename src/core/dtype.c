/* The dtype traits table and the names of dtypes, layouts and memory formats. */
#include <stdio.h>
#include <strings.h>

#include "core/dtype_list.h"
#include "core/internal.h"

/* numeric_limits<T>::lowest() from max(): -max for floating types, -max - 1 for signed integers, 0 otherwise. */
#define LOWEST_BOOL(max, sgn) 0.0
#define LOWEST_INT(max, sgn) ((sgn) ? -(max)-1.0 : 0.0)
#define LOWEST_HALF(max, sgn) (-(max))
#define LOWEST_FLOAT(max, sgn) (-(max))
#define LOWEST_COMPLEX(max, sgn) (-(max))

#define TRAITS_ROW(A, S, T, K, LOAD, STORE, NAME, LEGACY, SCALAR, CPP, TYPEMETA, DIGITS, MAX, SGN, ACC, OPMATH, CPLX, \
                   REAL)                                                                                           \
  [CT_##S] = {.name = NAME,                                                                                        \
              .torch_name = "torch." NAME,                                                                         \
              .legacy_name = "torch." LEGACY,                                                                      \
              .scalar_name = SCALAR,                                                                               \
              .itemsize = sizeof(T),                                                                               \
              .category = CT__KIND_CAT_##K,                                                                        \
              .is_signed = SGN,                                                                                    \
              .cpp_name = CPP,                                                                                     \
              .typemeta_name = TYPEMETA,                                                                           \
              .digits = DIGITS,                                                                                    \
              .acc_dtype = CT_##ACC,                                                                               \
              .opmath_dtype = CT_##OPMATH,                                                                         \
              .complex_dtype = CT_##CPLX,                                                                          \
              .real_dtype = CT_##REAL,                                                                             \
              .lowest = LOWEST_##K(MAX, SGN),                                                                      \
              .max = MAX},

const ct_dtype_traits ct__dtype_table[CT_NUM_DTYPES + 1] = {
    [0] = {.name = "invalid",
           .torch_name = "torch.invalid",
           .legacy_name = "torch.InvalidTensor",
           .scalar_name = "Undefined",
           .cpp_name = "Undefined",
           .typemeta_name = "nullptr (uninitialized)"}, /* TypeMeta() of no type */
    CT_DTYPE_LIST(TRAITS_ROW, ~)};

size_t ct_dtype_itemsize(ct_dtype dt) { return ct__dt(dt)->itemsize; }
bool ct_dtype_is_floating_point(ct_dtype dt) { return ct__dtype_valid(dt) && ct__dt(dt)->category == CT_CAT_FLOAT; }
bool ct_dtype_is_complex(ct_dtype dt) { return ct__dtype_valid(dt) && ct__dt(dt)->category == CT_CAT_COMPLEX; }
bool ct_dtype_is_signed(ct_dtype dt) { return ct__dt(dt)->is_signed; }
const char *ct_dtype_name(ct_dtype dt) { return ct__dt(dt)->torch_name; }
const char *ct_dtype_legacy_type_name(ct_dtype dt) { return ct__dt(dt)->legacy_name; }
const char *ct_dtype_scalar_name(ct_dtype dt) { return ct__dt(dt)->scalar_name; }

/* torch's toComplexType maps bfloat16 to complex64; the public function keeps to the dtypes with a
   complex counterpart of the same precision (float32, float64) and the complex ones. */
ct_dtype ct_dtype_to_complex(ct_dtype dt) {
  return dt == CT_BFLOAT16 ? CT_DTYPE_UNSET : (ct_dtype)ct__dt(dt)->complex_dtype;
}

ct_dtype ct_dtype_to_real(ct_dtype dt) { return ct__dtype_valid(dt) ? (ct_dtype)ct__dt(dt)->real_dtype : dt; }

static const struct {
  const char *alias;
  ct_dtype dtype;
} dtype_aliases[] = {
    {"float", CT_FLOAT32},  {"double", CT_FLOAT64},   {"half", CT_FLOAT16},      {"cfloat", CT_COMPLEX64},
    {"cdouble", CT_COMPLEX128}, {"long", CT_INT64},   {"int", CT_INT32},         {"short", CT_INT16},
};

ct_status ct_dtype_parse(const char *name, ct_dtype *out) {
  if (!name || !out) {
    ct__error(CT_ERR_VALUE, "ct_dtype_parse: NULL argument");
    return CT_ERR_VALUE;
  }
  const char *s = strncmp(name, "torch.", 6) == 0 ? name + 6 : name;
  for (int d = CT_BOOL; d <= CT_COMPLEX128; d++)
    if (strcmp(s, ct__dtype_table[d].name) == 0) return *out = (ct_dtype)d, CT_OK;
  for (size_t i = 0; i < sizeof dtype_aliases / sizeof dtype_aliases[0]; i++)
    if (strcmp(s, dtype_aliases[i].alias) == 0) return *out = dtype_aliases[i].dtype, CT_OK;
  ct__error(CT_ERR_TYPE, "invalid dtype name: '%s'", name);
  return CT_ERR_TYPE;
}

static _Atomic int default_dtype = CT_FLOAT32;

ct_dtype ct_get_default_dtype(void) { return (ct_dtype)atomic_load_explicit(&default_dtype, memory_order_relaxed); }

ct_status ct_set_default_dtype(ct_dtype dt) {
  if (dt != CT_FLOAT32 && dt != CT_FLOAT64) {
    /* PyTorch 1.13 also accepts float16/bfloat16 here; the project's spec limits it to float32/float64. */
    ct__error(CT_ERR_TYPE, "only floating-point types are supported as the default type");
    return CT_ERR_TYPE;
  }
  atomic_store(&default_dtype, (int)dt);
  return CT_OK;
}

const char *ct_layout_name(ct_layout l) {
  static const char *const names[] = {"torch.strided",    "torch.strided",    "torch.sparse_coo",
                                      "torch.sparse_csr", "torch.sparse_csc", "torch.sparse_bsr",
                                      "torch.sparse_bsc", "torch.jagged"};
  return (unsigned)l < sizeof names / sizeof names[0] ? names[l] : "torch.invalid_layout";
}

const char *ct_memory_format_name(ct_memory_format f) {
  static const char *const names[] = {"torch.contiguous_format", "torch.contiguous_format", "torch.channels_last",
                                      "torch.channels_last_3d", "torch.preserve_format"};
  return (unsigned)f < sizeof names / sizeof names[0] ? names[f] : "torch.invalid_format";
}
