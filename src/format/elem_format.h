/* torch._tensor_str._Formatter: one element formatter per tensor (two for complex: real and
   imaginary parts). It sees every element that will be printed, then fixes the mode (integer,
   fixed or scientific) and the common width. */
#ifndef CTORCH_FORMAT_ELEM_FORMAT_H
#define CTORCH_FORMAT_ELEM_FORMAT_H

#include <math.h>

#include "format/format_internal.h"

typedef struct ct__elem_fmt {
  bool floating, is_bool;
  /* floating: what the scan saw among nonzero finite values (negatives by magnitude) */
  int64_t nfinite;
  double pos_min, pos_max, neg_min, neg_max;
  bool all_int;
  /* integers and bool: the extremes */
  int64_t imin, imax;
  /* the decisions */
  bool int_mode, sci_mode;
  int precision;
  int64_t width;
} ct__elem_fmt;

void ct__fmt_begin(ct__elem_fmt *f, bool floating, bool is_bool);

static inline void ct__fmt_see_double(ct__elem_fmt *f, double v) {
  if (v == 0 || !isfinite(v)) return;
  f->nfinite++;
  /* PyTorch compares value with ceil(value) in the tensor's dtype; for values of that dtype the
     double comparison is the same. */
  if (f->all_int && v != ceil(v)) f->all_int = false;
  if (v > 0) {
    f->pos_min = v < f->pos_min ? v : f->pos_min;
    f->pos_max = v > f->pos_max ? v : f->pos_max;
  } else {
    f->neg_min = -v < f->neg_min ? -v : f->neg_min;
    f->neg_max = -v > f->neg_max ? -v : f->neg_max;
  }
}

static inline void ct__fmt_see_int(ct__elem_fmt *f, int64_t v) {
  f->imin = v < f->imin ? v : f->imin;
  f->imax = v > f->imax ? v : f->imax;
}

/* Fixes mode and width from what was seen. Fails with Python's ValueError when the precision cannot
   be used by a format that needs it. scratch is the number buffer (see ct__fmt_double). */
ct_status ct__fmt_end(ct__elem_fmt *f, const ct__print_opts *o, ct__strbuf *scratch);

/* Appends the element text: right-aligned to the width when pad, else bare. scratch holds the
   number's digits (it grows for long fixed-point texts; no allocation per element otherwise). */
void ct__fmt_double(const ct__elem_fmt *f, double v, bool pad, ct__strbuf *out, ct__strbuf *scratch);
void ct__fmt_int(const ct__elem_fmt *f, int64_t v, ct__strbuf *out);
/* The imaginary part of a complex element: its text with "j", after "+" unless it has a sign. */
void ct__fmt_imag(const ct__elem_fmt *f, double v, ct__strbuf *out, ct__strbuf *scratch);

#endif
