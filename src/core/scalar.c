/* Python numbers as C values. */
#include "core/internal.h"

ct_scalar ct_scalar_bool(bool v) { return (ct_scalar){.kind = CT_SCALAR_BOOL, .v.b = v}; }
ct_scalar ct_scalar_int(int64_t v) { return (ct_scalar){.kind = CT_SCALAR_INT, .v.i = v}; }
ct_scalar ct_scalar_double(double v) { return (ct_scalar){.kind = CT_SCALAR_DOUBLE, .v.d = v}; }
ct_scalar ct_scalar_complex(double re, double im) {
  return (ct_scalar){.kind = CT_SCALAR_COMPLEX, .v.c = {re, im}};
}

bool ct__check_scalar(ct_scalar s) {
  if (s.kind >= CT_SCALAR_BOOL && s.kind <= CT_SCALAR_COMPLEX) return true;
  if (s.kind == (ct_scalar_kind)0)
    ct__error(CT_ERR_RUNTIME, "Overflow when unpacking long");
  else
    ct__error(CT_ERR_VALUE, "invalid scalar kind %d", (int)s.kind);
  return false;
}

double ct__scalar_to_double(ct_scalar s) {
  switch (s.kind) {
    case CT_SCALAR_BOOL: return s.v.b ? 1.0 : 0.0;
    case CT_SCALAR_INT: return (double)s.v.i;
    case CT_SCALAR_DOUBLE: return s.v.d;
    case CT_SCALAR_COMPLEX: return s.v.c.re;
  }
  return 0.0;
}

int64_t ct__scalar_to_int64(ct_scalar s) {
  switch (s.kind) {
    case CT_SCALAR_BOOL: return s.v.b;
    case CT_SCALAR_INT: return s.v.i;
    case CT_SCALAR_DOUBLE: return (int64_t)s.v.d;
    case CT_SCALAR_COMPLEX: return (int64_t)s.v.c.re;
  }
  return 0;
}

ct_dtype ct__scalar_default_dtype(ct_scalar s) {
  switch (s.kind) {
    case CT_SCALAR_BOOL: return CT_BOOL;
    case CT_SCALAR_INT: return CT_INT64;
    case CT_SCALAR_DOUBLE: return ct_get_default_dtype();
    case CT_SCALAR_COMPLEX: return ct_get_default_dtype() == CT_FLOAT64 ? CT_COMPLEX128 : CT_COMPLEX64;
  }
  return CT_DTYPE_UNSET;
}
