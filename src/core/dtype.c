/* The dtype traits table and the names of dtypes, layouts and memory formats. */
#include <stdio.h>
#include <strings.h>

#include "core/internal.h"

const ct_dtype_traits ct__dtype_table[CT_NUM_DTYPES + 1] = {
    [0] = {"invalid", "torch.invalid", "torch.InvalidTensor", "Undefined", 0, 0, false},
    [CT_BOOL] = {"bool", "torch.bool", "torch.BoolTensor", "Bool", 1, CT_CAT_BOOL, false},
    [CT_UINT8] = {"uint8", "torch.uint8", "torch.ByteTensor", "Byte", 1, CT_CAT_INT, false},
    [CT_INT8] = {"int8", "torch.int8", "torch.CharTensor", "Char", 1, CT_CAT_INT, true},
    [CT_INT16] = {"int16", "torch.int16", "torch.ShortTensor", "Short", 2, CT_CAT_INT, true},
    [CT_INT32] = {"int32", "torch.int32", "torch.IntTensor", "Int", 4, CT_CAT_INT, true},
    [CT_INT64] = {"int64", "torch.int64", "torch.LongTensor", "Long", 8, CT_CAT_INT, true},
    [CT_FLOAT16] = {"float16", "torch.float16", "torch.HalfTensor", "Half", 2, CT_CAT_FLOAT, true},
    [CT_BFLOAT16] = {"bfloat16", "torch.bfloat16", "torch.BFloat16Tensor", "BFloat16", 2, CT_CAT_FLOAT, true},
    [CT_FLOAT32] = {"float32", "torch.float32", "torch.FloatTensor", "Float", 4, CT_CAT_FLOAT, true},
    [CT_FLOAT64] = {"float64", "torch.float64", "torch.DoubleTensor", "Double", 8, CT_CAT_FLOAT, true},
    [CT_COMPLEX64] = {"complex64", "torch.complex64", "torch.ComplexFloatTensor", "ComplexFloat", 8, CT_CAT_COMPLEX,
                      true},
    [CT_COMPLEX128] = {"complex128", "torch.complex128", "torch.ComplexDoubleTensor", "ComplexDouble", 16,
                       CT_CAT_COMPLEX, true},
};

size_t ct_dtype_itemsize(ct_dtype dt) { return ct__dt(dt)->itemsize; }
bool ct_dtype_is_floating_point(ct_dtype dt) { return ct__dtype_valid(dt) && ct__dt(dt)->category == CT_CAT_FLOAT; }
bool ct_dtype_is_complex(ct_dtype dt) { return ct__dtype_valid(dt) && ct__dt(dt)->category == CT_CAT_COMPLEX; }
bool ct_dtype_is_signed(ct_dtype dt) { return ct__dt(dt)->is_signed; }
const char *ct_dtype_name(ct_dtype dt) { return ct__dt(dt)->torch_name; }
const char *ct_dtype_legacy_type_name(ct_dtype dt) { return ct__dt(dt)->legacy_name; }
const char *ct_dtype_scalar_name(ct_dtype dt) { return ct__dt(dt)->scalar_name; }

ct_dtype ct_dtype_to_complex(ct_dtype dt) {
  switch (dt) {
    case CT_FLOAT32: return CT_COMPLEX64;
    case CT_FLOAT64: return CT_COMPLEX128;
    case CT_COMPLEX64:
    case CT_COMPLEX128: return dt;
    default: return CT_DTYPE_UNSET;
  }
}

ct_dtype ct_dtype_to_real(ct_dtype dt) {
  return dt == CT_COMPLEX64 ? CT_FLOAT32 : dt == CT_COMPLEX128 ? CT_FLOAT64 : dt;
}

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
