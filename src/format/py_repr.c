/* Python's text for the Python values a tensor hands out: repr of a number (float: the shortest string
   that reads back to the same double, as repr(float) writes it), of t.item(), t.tolist(), t.size() and
   t.stride(). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/cast.h"
#include "format/format_internal.h"

/* The shortest decimal digits of a finite v != 0 that read back as v (at most 17 digits), and the
   position of the decimal point: v = 0.d1d2... * 10^decpt. */
static int shortest_digits(double v, char digits[20], int *decpt) {
  char buf[40];
  for (int prec = 0; prec < 17; prec++) {
    snprintf(buf, sizeof buf, "%.*e", prec, v);
    if (strtod(buf, NULL) == v) break;
  }
  /* buf: [-]d[.ddd]e[+-]xx */
  const char *p = buf + (buf[0] == '-');
  int n = 0;
  for (; *p != 'e'; p++)
    if (*p != '.') digits[n++] = *p;
  while (n > 1 && digits[n - 1] == '0') n--;
  digits[n] = '\0';
  *decpt = atoi(p + 1) + 1;
  return n;
}

/* PyOS_double_to_string(v, 'r', 0, flags): fixed notation for 1e-4 <= |v| < 1e16, else scientific with a
   two-digit exponent at least; add_dot_0 (float's repr, not complex parts') makes "1" "1.0"; with_sign
   writes a '+' for non-negative values (complex imaginary parts). NaN is "nan" whatever its sign. */
static void append_double(ct__strbuf *sb, double v, bool add_dot_0, bool with_sign) {
  if (v != v) {
    ct__sb_puts(sb, with_sign ? "+nan" : "nan");
    return;
  }
  bool neg = signbit(v);
  if (neg)
    ct__sb_puts(sb, "-");
  else if (with_sign)
    ct__sb_puts(sb, "+");
  if (isinf(v)) {
    ct__sb_puts(sb, "inf");
    return;
  }
  if (v == 0) {
    ct__sb_puts(sb, add_dot_0 ? "0.0" : "0");
    return;
  }
  char d[20];
  int decpt, n = shortest_digits(fabs(v), d, &decpt);
  if (decpt <= -4 || decpt > 16) {
    ct__sb_append(sb, d, 1);
    if (n > 1) {
      ct__sb_puts(sb, ".");
      ct__sb_append(sb, d + 1, (size_t)n - 1);
    }
    int e = decpt - 1;
    ct__sb_printf(sb, "e%c%02d", e < 0 ? '-' : '+', e < 0 ? -e : e);
  } else if (decpt <= 0) {
    ct__sb_puts(sb, "0.");
    for (int i = 0; i < -decpt; i++) ct__sb_puts(sb, "0");
    ct__sb_append(sb, d, (size_t)n);
  } else if (decpt >= n) {
    ct__sb_append(sb, d, (size_t)n);
    for (int i = n; i < decpt; i++) ct__sb_puts(sb, "0");
    if (add_dot_0) ct__sb_puts(sb, ".0");
  } else {
    ct__sb_append(sb, d, (size_t)decpt);
    ct__sb_puts(sb, ".");
    ct__sb_append(sb, d + decpt, (size_t)(n - decpt));
  }
}

/* repr() of a Python number: True/False, an int, repr(float), repr(complex) ("1j", "(1+2j)", "-0j":
   the real part is left out only when it is +0). */
static void append_scalar(ct__strbuf *sb, ct_scalar s) {
  switch (s.kind) {
    case CT_SCALAR_BOOL: ct__sb_puts(sb, s.v.b ? "True" : "False"); break;
    case CT_SCALAR_INT: ct__sb_printf(sb, "%lld", (long long)s.v.i); break;
    case CT_SCALAR_DOUBLE: append_double(sb, s.v.d, true, false); break;
    case CT_SCALAR_COMPLEX:
      if (s.v.c.re == 0 && !signbit(s.v.c.re)) {
        append_double(sb, s.v.c.im, false, false);
        ct__sb_puts(sb, "j");
      } else {
        ct__sb_puts(sb, "(");
        append_double(sb, s.v.c.re, false, false);
        append_double(sb, s.v.c.im, false, true);
        ct__sb_puts(sb, "j)");
      }
      break;
  }
}

static bool scalar_kind_valid(ct_scalar s) { return s.kind >= CT_SCALAR_BOOL && s.kind <= CT_SCALAR_COMPLEX; }

int ct_scalar_repr(ct_scalar s, char *buf, size_t n) {
  if (!buf && n) return ct__null_arg(2, "buf"), -1;
  if (!scalar_kind_valid(s)) {
    ct__error(CT_ERR_VALUE, "ct_scalar_repr: invalid scalar kind %d", (int)s.kind);
    return -1;
  }
  ct__strbuf sb = {0};
  append_scalar(&sb, s);
  if (sb.failed) return -1;
  int len = (int)sb.len;
  if (n) snprintf(buf, n, "%s", sb.data);
  ct__sb_free(&sb);
  return len;
}

/* The tensor's values must be readable: not meta (torch: "Cannot copy out of meta tensor; no data!"),
   inside their storage. */
static bool readable(const ct_tensor *t) {
  if (t->device_type == CT_META) {
    ct__error(CT_ERR_NOT_IMPLEMENTED, "Cannot copy out of meta tensor; no data!");
    return false;
  }
  return ct__check_in_storage(t);
}

static char *finish(ct__strbuf *sb) {
  if (sb->failed) {
    ct__sb_free(sb);
    return NULL;
  }
  return sb->data; /* ct__malloc'd: the caller's free() releases it */
}

char *ct_item_repr(const ct_tensor *t) {
  if (!t) return ct__null_arg(1, "input"), (char *)NULL;
  ct_scalar s;
  if (ct_item(t, &s) != CT_OK) return NULL;
  ct__strbuf sb = {0};
  append_scalar(&sb, s);
  return finish(&sb);
}

static void append_list(ct__strbuf *sb, const ct_tensor *t, int64_t dim, const char *p, size_t isz) {
  if (dim == t->ndim) {
    append_scalar(sb, ct__load_scalar((ct_dtype)t->dtype, p));
    return;
  }
  ct__sb_puts(sb, "[");
  for (int64_t i = 0; i < t->sizes[dim] && !sb->failed; i++) {
    if (i) ct__sb_puts(sb, ", ");
    append_list(sb, t, dim + 1, p + ct__mul_wrap(i, ct__mul_wrap(t->strides[dim], (int64_t)isz)), isz);
  }
  ct__sb_puts(sb, "]");
}

char *ct_tolist_repr(const ct_tensor *t) {
  if (!t) return ct__null_arg(1, "input"), (char *)NULL;
  if (!readable(t)) return NULL;
  ct__strbuf sb = {0};
  if (!ct__sb_reserve(&sb, 0)) return NULL;
  append_list(&sb, t, 0, t->numel ? ct__tdata(t) : NULL, ct__itemsize((ct_dtype)t->dtype));
  return finish(&sb);
}

char *ct_size_repr(const ct_tensor *t) {
  if (!t) return ct__null_arg(1, "input"), (char *)NULL;
  int len = ct_shape_str(ct_shape_of(t), NULL, 0);
  char *s = len < 0 ? NULL : ct__malloc((size_t)len + 1);
  if (!s) return len < 0 ? NULL : (ct__oom_error((size_t)len + 1), (char *)NULL);
  ct_shape_str(ct_shape_of(t), s, (size_t)len + 1);
  return s;
}

char *ct_stride_repr(const ct_tensor *t) {
  if (!t) return ct__null_arg(1, "input"), (char *)NULL;
  ct__strbuf sb = {0};
  ct__sb_py_tuple(&sb, t->ndim, t->strides);
  return finish(&sb);
}
