/* Python's indexing from C: t[...] with everything Python writes between the brackets, and the same
   results as torch 1.13 (basic indexing gives a view with torch's strides and storage offset, advanced
   indexing a new tensor with torch's layout; torch's errors and messages).

   One macro takes the index as Python spells it, in a spec string with `%` placeholders, or as a list of
   items:

     ct_index(x, "1:, ::2, None, ..., %", mask)      x[1:, ::2, None, ..., mask]
     ct_index(x, "%, -1", i)                          x[i, -1]   (i a C integer, a bool or a tensor)
     ct_index(x, "%:%", a, b)                         x[a:b]     (slice bounds: C integers)
     ct_index(x, "")                                  x[()]
     ct_index(x, CT_IDX_ALL, 0, idx)                  x[:, 0, idx]   (items: no string to parse)
     ct_index_put_(x, "%, 1:", mask, 0.5)             x[mask, 1:] = 0.5   (the value last)

   The spec is Python's subscript syntax: items separated by commas (a trailing comma is allowed), each an
   integer, a slice `start:stop:step` (each part optional; an integer, `%` or None), `...`, `None`, `True`,
   `False` or `%`. A `%` takes the next argument: a C integer is an int, a C bool a bool, a tensor an index
   tensor (int64, uint8 or bool; a 0-dim integer tensor selects, as in Python). A malformed spec, a
   placeholder without its argument or an argument without its placeholder is a ValueError naming the
   position; nothing is read past the spec's end. Bindings and generated code pass an array of items to
   ct_index_items. */
#ifndef CTORCH_INDEX_H
#define CTORCH_INDEX_H

#include "args.h"
#include "error.h"
#include "types.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum ct_index_kind {
  CT_INDEX_INT = 1, /* start: the integer */
  CT_INDEX_SLICE,   /* start, stop, step (Python's defaults: 0, CT_SLICE_END, 1) */
  CT_INDEX_NONE,    /* a new dim of size 1 */
  CT_INDEX_ELLIPSIS,
  CT_INDEX_BOOL,    /* start: 0 or 1 */
  CT_INDEX_TENSOR,  /* tensor */
  CT_INDEX_SPEC,    /* spec: a spec string; the items after it fill its placeholders (first item only) */
  CT_INDEX_NUMBER   /* number: a C number given as an item (an integer or bool one is an int or bool) */
} ct_index_kind;

/* A slice's omitted stop. */
#define CT_SLICE_END INT64_MAX

typedef struct ct_index_item {
  ct_index_kind kind;
  int64_t start, stop, step;
  const ct_tensor *tensor;
  const char *spec;
  ct_scalar number;
} ct_index_item;

/* t[items...]: the items as ct_index builds them (n of them; n = 0 is x[()]). */
CT_API ct_tensor *ct_index_items(const ct_tensor *t, const ct_index_item *items, int64_t n);
/* t[index] = value, in place: items[0 .. n-2] are the index as for ct_index_items, items[n-1] the value (a
   tensor, or a C number converted to t's dtype with torch's overflow check). Python's rules: a basic index
   copies into the view (the value broadcast, its leading 1s dropped, cast to t's dtype); with index tensors
   the value must have t's dtype (torch's "Index put requires the source and destination dtypes match");
   duplicate indices write in iteration order. A failed call changes nothing (index values are checked
   before anything is written). */
CT_API ct_status ct_index_put_items_(ct_tensor *t, const ct_index_item *items, int64_t n);

/* Items for ct_index's list form and for ct_index_items. */
static inline ct_index_item ct__idx_make(ct_index_kind kind, int64_t start, int64_t stop, int64_t step) {
  ct_index_item it;
  it.kind = kind;
  it.start = start;
  it.stop = stop;
  it.step = step;
  it.tensor = NULL;
  it.spec = NULL;
  it.number = ct_scalar_int(0);
  return it;
}
#define CT_IDX_INT(i) ct__idx_make(CT_INDEX_INT, (i), 0, 0)
#define CT_IDX_SLICE(start, stop, step) ct__idx_make(CT_INDEX_SLICE, (start), (stop), (step))
#define CT_IDX_ALL ct__idx_make(CT_INDEX_SLICE, 0, CT_SLICE_END, 1)
#define CT_IDX_NONE ct__idx_make(CT_INDEX_NONE, 0, 0, 0)
#define CT_IDX_ELLIPSIS ct__idx_make(CT_INDEX_ELLIPSIS, 0, 0, 0)
#define CT_IDX_BOOL(b) ct__idx_make(CT_INDEX_BOOL, (b) ? 1 : 0, 0, 0)
static inline ct_index_item ct__idx_tensor(const ct_tensor *t) {
  ct_index_item it = ct__idx_make(CT_INDEX_TENSOR, 0, 0, 0);
  it.tensor = t;
  return it;
}
#define CT_IDX_TENSOR(t) ct__idx_tensor(t)
static inline ct_index_item ct__idx_spec(const char *s) {
  ct_index_item it = ct__idx_make(CT_INDEX_SPEC, 0, 0, 0);
  it.spec = s;
  return it;
}
static inline ct_index_item ct__idx_item(ct_index_item it) { return it; }

#if !defined(__cplusplus) && !defined(CT_BUILDING_LIBRARY)
static inline ct_index_item ct__idx_number(ct_scalar v) {
  ct_index_item it = ct__idx_make(CT_INDEX_NUMBER, 0, 0, 0);
  it.number = v;
  return it;
}
#define CT__IDX_OF(name, T) \
  static inline ct_index_item ct__idx_##name(T v) { return ct__idx_number(ct__num_##name(v)); }
CT__IDX_OF(scalar, ct_scalar)
CT__IDX_OF(bool, bool)
CT__IDX_OF(int, long long)
CT__IDX_OF(uint, unsigned long long)
CT__IDX_OF(double, double)
CT__IDX_OF(ldouble, long double)
#ifndef __STDC_NO_COMPLEX__
CT__IDX_OF(cfloat, float _Complex)
CT__IDX_OF(cdouble, double _Complex)
#endif
#undef CT__IDX_OF
/* One argument of ct_index as an item: a spec string, an item, a tensor or a C number. */
#define CT_IDX(x)                                                                                          \
  _Generic((x), ct_index_item: ct__idx_item, char *: ct__idx_spec, const char *: ct__idx_spec,             \
           ct_tensor *: ct__idx_tensor, const ct_tensor *: ct__idx_tensor, void *: ct__idx_tensor,           \
           CT__NUM_CASES(ct__idx_))(x)
#define ct_index(t, ...) \
  ct_index_items(CT__T(t), (const ct_index_item[]){CT__MAP(CT_IDX, __VA_ARGS__)}, CT__NARGS(__VA_ARGS__))
/* t[spec or items...] = value: the value is the last argument. */
#define ct_index_put_(t, ...) \
  ct_index_put_items_(CT__TM(t), (const ct_index_item[]){CT__MAP(CT_IDX, __VA_ARGS__)}, CT__NARGS(__VA_ARGS__))
#endif

#ifdef __cplusplus
}
#endif
#endif
