/* torch's math bits (is_conj, is_neg): what a bit does to an element, and the resolved copy of a tensor
   that carries them. The copy engine (cast_copy.c) applies them on the way through; every other reader of
   tensor data either applies them as it loads (item, element access) or reads a resolved temporary (the
   engines, printing, equal), as torch 1.13's Conjugate and Negative fallbacks do. */
#include "core/cast.h"
#include "core/dtype_list.h"
#include "core/layout_rules.h"

/* Sign-bit flips: IEEE negation, what torch's neg and conj kernels compute for every non-NaN value. width is
   a compile-time constant at every call (the size of a floating type or a complex component). */
#define FLIP_STRIDED(U, off)                                        \
  for (int64_t i = 0; i < n; i++) {                                 \
    U *q = (U *)(void *)(p + i * stride + (off));                   \
    *q ^= (U)((U)1 << (8 * sizeof(U) - 1));                         \
  }
static inline void flip_sign(char *p, int64_t stride, int64_t n, size_t width, size_t off) {
  switch (width) {
    case 2: FLIP_STRIDED(uint16_t, off) break;
    case 4: FLIP_STRIDED(uint32_t, off) break;
    default: FLIP_STRIDED(uint64_t, off) break;
  }
}

/* What each kind does, generated for every dtype from the dtype list. */
#define APPLY_BOOL(T) /* no bool tensor carries a neg bit (torch refuses neg on bool) */
#define APPLY_INT(T)                                                                           \
  for (int64_t i = 0; i < n; i++) {                                                            \
    T *q = (T *)(void *)(p + i * stride);                                                      \
    *q = (T)(0u - (uint64_t)*q); /* wrapping, as torch's int neg */                           \
  }
#define APPLY_HALF(T) flip_sign(p, stride, n, sizeof(T), 0);
#define APPLY_FLOAT(T) flip_sign(p, stride, n, sizeof(T), 0);
#define APPLY_COMPLEX(T)                                                                        \
  if (neg) flip_sign(p, stride, n, sizeof(T) / 2, 0); /* neg: both parts; with conj: the real part only */ \
  if (neg != conj) flip_sign(p, stride, n, sizeof(T) / 2, sizeof(T) / 2);
#define APPLY_CASE(A, S, T, K, ...) \
  case CT_##S: APPLY_##K(T) break;

void ct__math_bits_apply_row(char *p, int64_t stride, ct_dtype dt, int64_t n, unsigned bits) {
  bool conj = (bits & CT_TENSOR_CONJ) && ct__dt(dt)->category == CT_CAT_COMPLEX;
  bool neg = bits & CT_TENSOR_NEG;
  if (!conj && !neg) return;
  switch (dt) {
    CT_DTYPE_LIST(APPLY_CASE, ~)
    default: break;
  }
}

ct_scalar ct__math_bits_apply_scalar(ct_scalar v, unsigned bits) {
  if (bits & CT_TENSOR_CONJ && v.kind == CT_SCALAR_COMPLEX) v.v.c.im = -v.v.c.im;
  if (bits & CT_TENSOR_NEG) {
    switch (v.kind) {
      case CT_SCALAR_INT: v.v.i = (int64_t)(0u - (uint64_t)v.v.i); break;
      case CT_SCALAR_DOUBLE: v.v.d = -v.v.d; break;
      case CT_SCALAR_COMPLEX:
        v.v.c.re = -v.v.c.re;
        v.v.c.im = -v.v.c.im;
        break;
      default: break;
    }
  }
  return v;
}

unsigned ct__math_bits_of_copy(const ct_tensor *dst, const ct_tensor *src) {
  unsigned bits = (unsigned)(dst->flags ^ src->flags) & CT_TENSOR_MATH_BITS;
  /* torch's copy_kernel conjugates only into a complex destination */
  if (ct__dt((ct_dtype)dst->dtype)->category != CT_CAT_COMPLEX) bits &= ~(unsigned)CT_TENSOR_CONJ;
  return bits;
}

/* resolve_conj / resolve_neg: empty_like(t) (preserve format) filled by a copy that applies the bits. */
ct_tensor *ct__resolve_bits(const ct_tensor *t) {
  if (!ct__math_bits(t)) return ct_retain((ct_tensor *)t);
  ct_tensor *r = ct__empty(t->ndim, t->sizes, (ct_dtype)t->dtype, ct__tdevice(t));
  if (!r) return NULL;
  ct__preserve_format_strides(t, r->strides); /* a dense permutation: the same numel elements */
  if (ct__copy_into(r, t) != CT_OK) {
    ct_release(r);
    return NULL;
  }
  return r;
}

ct_status ct__math_bits_write_back(ct_tensor *given, const ct_tensor *tmp) {
  bool same = given->ndim == tmp->ndim;
  for (int64_t d = 0; same && d < tmp->ndim; d++) same = given->sizes[d] == tmp->sizes[d];
  if (!same) {
    ct_status s = ct__tensor_resize(given, tmp->ndim, tmp->sizes, tmp->strides);
    if (s != CT_OK) return s;
  }
  return ct__copy_into(given, tmp);
}

bool ct__math_bits_any(int n_in, const ct_tensor *const *in, int n_out, ct_tensor *const *out) {
  unsigned bits = 0;
  for (int i = 0; i < n_in; i++)
    if (in[i]) bits |= ct__math_bits(in[i]);
  for (int o = 0; o < n_out; o++)
    if (out[o]) bits |= ct__math_bits(out[o]);
  return bits != 0;
}

ct_status ct__math_bits_begin(ct_math_bits_frame *f, int n_in, const ct_tensor *const *in, int n_out,
                              ct_tensor *const *out) {
  memset(f, 0, sizeof *f);
  f->n_in = n_in;
  f->n_out = n_out;
  for (int o = 0; o < n_out; o++) {
    f->out[o] = out[o];
    if (!out[o] || !ct__math_bits(out[o])) continue;
    /* the write-back copy_ refuses an output whose elements repeat: refused before anything is written */
    if (!ct__check_no_internal_overlap(out[o])) goto fail;
    if (!(f->tmp_out[o] = ct__resolve_bits(out[o]))) goto fail;
    f->given[o] = out[o];
    f->out[o] = f->tmp_out[o];
  }
  for (int i = 0; i < n_in; i++) {
    f->in[i] = in[i];
    if (!in[i]) continue;
    for (int o = 0; o < n_out; o++)
      if (f->given[o] && in[i] == f->given[o]) f->in[i] = f->tmp_out[o]; /* read-write: reads what it writes */
    if (f->in[i] != in[i] || !ct__math_bits(in[i])) continue;
    if (!(f->tmp_in[i] = ct__resolve_bits(in[i]))) goto fail;
    f->in[i] = f->tmp_in[i];
  }
  return CT_OK;
fail:
  ct__math_bits_end(f, CT_ERR_RUNTIME);
  return ct_last_error();
}

ct_status ct__math_bits_end(ct_math_bits_frame *f, ct_status s) {
  for (int o = 0; o < f->n_out; o++) {
    if (s == CT_OK && f->given[o]) s = ct__math_bits_write_back(f->given[o], f->tmp_out[o]);
    ct_release(f->tmp_out[o]);
  }
  for (int i = 0; i < f->n_in; i++) ct_release(f->tmp_in[i]);
  memset(f, 0, sizeof *f);
  return s;
}
