/* The element formatter: Python's '{:.4f}' / '{:.4e}' / '{:.0f}' / str(int) with C's printf, which
   rounds the exact binary value correctly (ties to even) just as Python's float formatting does. */
#include <limits.h>
#include <stdio.h>

#include "format/elem_format.h"

void ct__fmt_begin(ct__elem_fmt *f, bool floating, bool is_bool) {
  *f = (ct__elem_fmt){.floating = floating, .is_bool = is_bool, .all_int = true, .width = 1};
  f->pos_min = f->neg_min = INFINITY;
  f->pos_max = f->neg_max = 0;
  f->imin = INT64_MAX;
  f->imax = INT64_MIN;
}

/* Python's format of v with conversion 'e' or 'f' into scratch->data; returns the length.
   NaN is "nan" whatever its sign bit (printf would write "-nan"). */
static size_t fmt_num(ct__strbuf *scratch, char conv, int prec, double v) {
  if (isnan(v)) {
    if (!ct__sb_reserve(scratch, 3)) return 0;
    memcpy(scratch->data, "nan", 4);
    return 3;
  }
  for (;;) {
    if (!ct__sb_reserve(scratch, 63)) return 0;
    int n = conv == 'e' ? snprintf(scratch->data, scratch->cap, "%.*e", prec, v)
                        : snprintf(scratch->data, scratch->cap, "%.*f", prec, v);
    if (n < 0) return 0;
    if ((size_t)n < scratch->cap) return (size_t)n;
    if (!ct__sb_reserve(scratch, (size_t)n)) return 0;
  }
}

/* The widest text among the values that can be widest: a text's length grows with |v| in fixed
   notation, and in scientific notation depends only on the sign and the exponent's digit count,
   which is largest at the smallest or largest magnitude. So the extremes of each sign suffice. */
static int64_t max_len(const ct__elem_fmt *f, char conv, int prec, ct__strbuf *scratch) {
  double cand[4];
  int n = 0;
  if (f->pos_max > 0) cand[n++] = f->pos_min, cand[n++] = f->pos_max;
  if (f->neg_max > 0) cand[n++] = -f->neg_min, cand[n++] = -f->neg_max;
  int64_t w = 0;
  for (int i = 0; i < n; i++) {
    int64_t len = (int64_t)fmt_num(scratch, conv, prec, cand[i]);
    w = len > w ? len : w;
  }
  return w;
}

static int64_t int_len(int64_t v) {
  char buf[24];
  return snprintf(buf, sizeof buf, "%lld", (long long)v);
}

ct_status ct__fmt_end(ct__elem_fmt *f, const ct__print_opts *o, ct__strbuf *scratch) {
  if (!f->floating) {
    if (f->imin > f->imax) return CT_OK; /* nothing seen */
    if (f->is_bool) {
      f->width = f->imin == 0 ? 5 : 4; /* "False" or "True" */
    } else {
      int64_t a = int_len(f->imin), b = int_len(f->imax);
      f->width = a > b ? a : b;
    }
    return CT_OK;
  }
  f->int_mode = true;
  f->sci_mode = false;
  /* No nonzero finite value: PyTorch returns before applying a forced sci_mode. */
  if (f->nfinite == 0) return CT_OK;
  const double mx = f->pos_max > f->neg_max ? f->pos_max : f->neg_max;
  const double mn = f->pos_min < f->neg_min ? f->pos_min : f->neg_min;
  f->int_mode = f->all_int;
  const bool auto_sci = mx / mn > 1000.0 || mx > 1.0e8 || (!f->int_mode && mn < 1.0e-4);
  f->sci_mode = o->sci_mode == CT_SCI_MODE_AUTO ? auto_sci : o->sci_mode == CT_SCI_MODE_ON;
  if (auto_sci || f->sci_mode || !f->int_mode) {
    /* Python builds '{:.<precision>e}': a negative or oversized precision is its ValueError. */
    if (o->precision < 0) {
      ct__error(CT_ERR_VALUE, "Format specifier missing precision");
      return CT_ERR_VALUE;
    }
    if (o->precision > INT_MAX) {
      ct__error(CT_ERR_VALUE, "precision too big");
      return CT_ERR_VALUE;
    }
    f->precision = (int)o->precision;
  }
  if (auto_sci)
    f->width = max_len(f, 'e', f->precision, scratch);
  else if (f->int_mode)
    f->width = max_len(f, 'f', 0, scratch) + 1;
  else
    f->width = max_len(f, 'f', f->precision, scratch);
  return scratch->failed ? CT_ERR_OUT_OF_MEMORY : CT_OK;
}

/* The element's text in scratch (without padding); returns its length. */
static size_t fmt_text(const ct__elem_fmt *f, double v, ct__strbuf *scratch) {
  if (f->sci_mode) return fmt_num(scratch, 'e', f->precision, v);
  if (!f->int_mode) return fmt_num(scratch, 'f', f->precision, v);
  size_t n = fmt_num(scratch, 'f', 0, v);
  /* Integer mode marks floats with a point, except inf and nan. */
  if (isfinite(v) && ct__sb_reserve(scratch, n + 1)) scratch->data[n++] = '.';
  return n;
}

void ct__fmt_double(const ct__elem_fmt *f, double v, bool pad, ct__strbuf *out, ct__strbuf *scratch) {
  size_t n = fmt_text(f, v, scratch);
  if (pad) ct__sb_spaces(out, f->width - (int64_t)n);
  ct__sb_append(out, scratch->data, n);
}

void ct__fmt_imag(const ct__elem_fmt *f, double v, ct__strbuf *out, ct__strbuf *scratch) {
  size_t n = fmt_text(f, v, scratch);
  if (n && scratch->data[0] != '+' && scratch->data[0] != '-') ct__sb_append(out, "+", 1);
  ct__sb_append(out, scratch->data, n);
  ct__sb_append(out, "j", 1);
}

void ct__fmt_int(const ct__elem_fmt *f, int64_t v, ct__strbuf *out) {
  char buf[24];
  const char *s = buf;
  int64_t n;
  if (f->is_bool) {
    s = v ? "True" : "False";
    n = v ? 4 : 5;
  } else {
    n = snprintf(buf, sizeof buf, "%lld", (long long)v);
  }
  ct__sb_spaces(out, f->width - n);
  ct__sb_append(out, s, (size_t)n);
}
