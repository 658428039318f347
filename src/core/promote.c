/* Type promotion: promote_types, can_cast and result_type with PyTorch's three operand classes
   (dimensioned tensors, 0-dim tensors, wrapped numbers). */
#include "core/internal.h"

/* c10's promoteTypes lookup table, rows and columns in ct_dtype order (bool .. complex128). */
#define b1 CT_BOOL
#define u1 CT_UINT8
#define i1 CT_INT8
#define i2 CT_INT16
#define i4 CT_INT32
#define i8 CT_INT64
#define f2 CT_FLOAT16
#define bf CT_BFLOAT16
#define f4 CT_FLOAT32
#define f8 CT_FLOAT64
#define c4 CT_COMPLEX64
#define c8 CT_COMPLEX128
static const uint8_t promote_table[CT_NUM_DTYPES][CT_NUM_DTYPES] = {
    /*        b1  u1  i1  i2  i4  i8  f2  bf  f4  f8  c4  c8 */
    /* b1 */ {b1, u1, i1, i2, i4, i8, f2, bf, f4, f8, c4, c8},
    /* u1 */ {u1, u1, i2, i2, i4, i8, f2, bf, f4, f8, c4, c8},
    /* i1 */ {i1, i2, i1, i2, i4, i8, f2, bf, f4, f8, c4, c8},
    /* i2 */ {i2, i2, i2, i2, i4, i8, f2, bf, f4, f8, c4, c8},
    /* i4 */ {i4, i4, i4, i4, i4, i8, f2, bf, f4, f8, c4, c8},
    /* i8 */ {i8, i8, i8, i8, i8, i8, f2, bf, f4, f8, c4, c8},
    /* f2 */ {f2, f2, f2, f2, f2, f2, f2, f4, f4, f8, c4, c8},
    /* bf */ {bf, bf, bf, bf, bf, bf, f4, bf, f4, f8, c4, c8},
    /* f4 */ {f4, f4, f4, f4, f4, f4, f4, f4, f4, f8, c4, c8},
    /* f8 */ {f8, f8, f8, f8, f8, f8, f8, f8, f8, f8, c8, c8},
    /* c4 */ {c4, c4, c4, c4, c4, c4, c4, c4, c4, c8, c4, c8},
    /* c8 */ {c8, c8, c8, c8, c8, c8, c8, c8, c8, c8, c8, c8},
};
#undef b1
#undef u1
#undef i1
#undef i2
#undef i4
#undef i8
#undef f2
#undef bf
#undef f4
#undef f8
#undef c4
#undef c8

ct_dtype ct_promote_types(ct_dtype a, ct_dtype b) {
  if (!ct__check_dtype(a) || !ct__check_dtype(b)) return CT_DTYPE_UNSET;
  return (ct_dtype)promote_table[a - 1][b - 1];
}

bool ct_can_cast(ct_dtype from, ct_dtype to) {
  const ct_dtype_traits *f = ct__dt(from), *t = ct__dt(to);
  if (f->category == CT_CAT_COMPLEX && t->category != CT_CAT_COMPLEX) return false;
  if (f->category == CT_CAT_FLOAT && t->category <= CT_CAT_INT) return false;
  if (f->category != CT_CAT_BOOL && t->category == CT_CAT_BOOL) return false;
  return true;
}

/* Sentinel for "no operand of this class yet" (c10's Undefined). */
#define UNDEF CT_DTYPE_UNSET

static ct_dtype promote_skip_undefined(ct_dtype a, ct_dtype b) {
  if (a == UNDEF) return b;
  if (b == UNDEF) return a;
  return (ct_dtype)promote_table[a - 1][b - 1];
}

static bool is_float(ct_dtype d) { return d != UNDEF && ct__dt(d)->category == CT_CAT_FLOAT; }
static bool is_complex(ct_dtype d) { return d != UNDEF && ct__dt(d)->category == CT_CAT_COMPLEX; }

/* The complex counterpart of a floating type (c10::toComplexType); float16's is complex32, which ctorch
   lacks (UNSET). */
static ct_dtype complex_of(ct_dtype d) { return (ct_dtype)ct__dt(d)->complex_dtype; }

static ct_dtype combine_categories(ct_dtype higher, ct_dtype lower, bool *complex32) {
  if (is_complex(higher)) return higher;
  if (is_complex(lower)) {
    if (is_float(higher)) {
      ct_dtype c = complex_of(higher);
      if (c == UNDEF) *complex32 = true;
      return c;
    }
    return lower;
  }
  if (is_float(higher)) return higher;
  if (higher == CT_BOOL || is_float(lower)) return promote_skip_undefined(higher, lower);
  return higher != UNDEF ? higher : lower;
}

ct_status ct__result_type(const ct_tensor *const *ts, int64_t n, ct_dtype *out) {
  /* operands of one dtype, none a wrapped number: every category rule gives that dtype */
  bool uniform = n > 0;
  for (int64_t i = 0; uniform && i < n; i++)
    uniform = ts[i] && ts[i]->dtype == ts[0]->dtype && !(ts[i]->flags & CT_TENSOR_WRAPPED_NUMBER);
  if (uniform) {
    *out = (ct_dtype)ts[0]->dtype;
    return CT_OK;
  }
  ct_dtype dim_result = UNDEF, zero_result = UNDEF, wrapped_result = UNDEF;
  for (int64_t i = 0; i < n; i++) {
    const ct_tensor *t = ts[i];
    CT__NONNULL_STATUS(t);
    ct_dtype current = (ct_dtype)t->dtype;
    if (t->flags & CT_TENSOR_WRAPPED_NUMBER) {
      if (is_complex(current))
        current = ct_get_default_dtype() == CT_FLOAT64 ? CT_COMPLEX128 : CT_COMPLEX64;
      else if (is_float(current))
        current = ct_get_default_dtype();
      wrapped_result = promote_skip_undefined(wrapped_result, current);
    } else if (t->ndim > 0) {
      dim_result = promote_skip_undefined(dim_result, current);
    } else {
      zero_result = promote_skip_undefined(zero_result, current);
    }
  }
  bool complex32 = false;
  ct_dtype r = combine_categories(dim_result, combine_categories(zero_result, wrapped_result, &complex32), &complex32);
  if (complex32 || r == UNDEF) {
    ct__error(CT_ERR_NOT_IMPLEMENTED,
              "result type ComplexHalf (torch.complex32) is not supported: PyTorch promotes float16 with a "
              "complex operand to torch.complex32, a dtype ctorch does not have");
    return CT_ERR_NOT_IMPLEMENTED;
  }
  *out = r;
  return CT_OK;
}

ct_status ct_result_type(const ct_tensor *a, const ct_tensor *b, ct_dtype *out) {
  const ct_tensor *ts[2] = {a, b};
  if (a && b && !out) {
    ct__error(CT_ERR_VALUE, "ct_result_type: out is NULL");
    return CT_ERR_VALUE;
  }
  return ct__result_type(ts, 2, out);
}
