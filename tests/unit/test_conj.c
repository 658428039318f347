/* torch 1.13's lazy conjugate and negative bits: conj() and x.conj().imag are views (no copy) that every op
   reads through. Expected values from torch 1.13 (/usr/bin/python3), quoted next to each check, for
   x = torch.tensor([1+2j, 3-4j, -5+0.5j]) (complex64). */
#include <stdlib.h>

#include "check.h"

static const float X[6] = {1, 2, 3, -4, -5, 0.5f};

static ct_tensor *make_x(void) { return ct_tensor_from_data(X, CT_COMPLEX64, CT_SHAPE(3), NULL); }

/* t's values as complex64 pairs equal e (exact: every value here is a small binary fraction) */
static bool pairs_eq(const ct_tensor *t, const float *e, int n) {
  float got[16];
  if (!t || ct_copy_to_buffer(t, got, CT_COMPLEX64, sizeof got) != CT_OK) return false;
  for (int i = 0; i < 2 * n; i++)
    if (got[i] != e[i]) return false;
  return true;
}
#define PAIRS(t, ...) pairs_eq((t), (const float[]){__VA_ARGS__}, (int)(sizeof((float[]){__VA_ARGS__}) / sizeof(float) / 2))

/* The storage itself (ct_data_ptr): what x.conj()._conj() shows in torch. */
static bool raw_eq(const ct_tensor *t, const float *e, int n) {
  const float *p = ct_data_ptr(t);
  for (int i = 0; i < 2 * n; i++)
    if (p[i] != e[i]) return false;
  return true;
}

static void test_views(void) {
  ct_scope_begin();
  ct_tensor *x = make_x();
  ct_tensor *y = ct_conj(x);
  /* y.is_conj() True, y.data_ptr() == x.data_ptr(): no copy */
  CHECK(ct_is_conj(y) && !ct_is_conj(x) && ct_data_ptr(y) == ct_data_ptr(x));
  CHECK(PAIRS(y, 1, -2, 3, 4, -5, -0.5f));
  CHECK(!ct_is_conj(ct_conj(y)));                /* x.conj().conj().is_conj() False */
  ct_tensor *r = ct_ones(CT_SHAPE(2), NULL);
  CHECK(ct_conj(r) == r && !ct_is_conj(r));      /* r.conj() is r */
  /* views keep the bit: unsqueeze(0).t(), [1:], view(3,1), expand(2,3) all is_conj True */
  CHECK(ct_is_conj(ct_t(ct_unsqueeze(y, 0))) && ct_is_conj(ct_slice(y, 0, 1, 3, 1)) &&
        ct_is_conj(ct_view(y, CT_SHAPE(3, 1))) && ct_is_conj(ct_expand(y, CT_SHAPE(2, 3))));
  /* y.imag: tensor([-2.0000,  4.0000, -0.5000]), is_neg True, is_conj False; y.real is_neg False */
  ct_tensor *im = ct_imag(y), *re = ct_real(y);
  CHECK(ct_is_neg(im) && !ct_is_conj(im) && !ct_is_neg(re) && !ct_is_conj(re));
  float f[3];
  CHECK(ct_copy_to_buffer(im, f, CT_FLOAT32, sizeof f) == CT_OK && f[0] == -2 && f[1] == 4 && f[2] == -0.5f);
  /* resolve: a new tensor without bits, or the tensor itself */
  ct_tensor *ry = ct_resolve_conj(y);
  CHECK(!ct_is_conj(ry) && ct_data_ptr(ry) != ct_data_ptr(x) && PAIRS(ry, 1, -2, 3, 4, -5, -0.5f));
  CHECK(ct_resolve_conj(x) == x && ct_resolve_neg(x) == x && ct_resolve_conj(im) == im);
  ct_tensor *rim = ct_resolve_neg(im);
  CHECK(!ct_is_neg(rim) && ct_copy_to_buffer(rim, f, CT_FLOAT32, sizeof f) == CT_OK && f[1] == 4);
  /* clone resolves (y.clone().is_conj() False); contiguous of a contiguous y is y itself (True) */
  CHECK(!ct_is_conj(ct_clone(y, CT_MEMORY_FORMAT_UNSET)) && ct_contiguous(y, CT_MEMORY_FORMAT_UNSET) == y);
  CHECK(!ct_is_conj(ct_to_dtype(y, CT_COMPLEX128)) && !ct_is_neg(ct_to_dtype(im, CT_FLOAT64)));
  ct_scope_end();
}

static void test_reads(void) {
  ct_scope_begin();
  ct_tensor *x = make_x(), *y = ct_conj(x);
  /* y + 1: tensor([ 2.-2.0000j,  4.+4.0000j, -4.-0.5000j]), is_conj False */
  ct_tensor *s = ct_add(y, ct_wrapped_scalar(CT_INT(1)), NULL);
  CHECK(!ct_is_conj(s) && PAIRS(s, 2, -2, 4, 4, -4, -0.5f));
  /* y.sum(): tensor(-1.+1.5000j); y.cumsum(0): [ 1.-2.0000j,  4.+2.0000j, -1.+1.5000j] */
  CHECK(PAIRS(ct_sum(y, NULL), -1, 1.5f));
  CHECK(PAIRS(ct_cumsum(y, 0, NULL), 1, -2, 4, 2, -1, 1.5f));
  /* y[1].item(): (3+4j); y.imag[1].item(): 4.0 */
  ct_scalar v;
  CHECK(ct_item(ct_select(y, 0, 1), &v) == CT_OK && v.kind == CT_SCALAR_COMPLEX && v.v.c.re == 3 && v.v.c.im == 4);
  CHECK(ct_get_item(ct_imag(y), (int64_t[]){1}, &v) == CT_OK && v.v.d == 4);
  /* torch.equal(y, x.conj_physical()) True */
  bool eq = false;
  CHECK(ct_equal(y, ct_conj_physical(x), &eq) == CT_OK && eq);
  CHECK(ct_equal(y, x, &eq) == CT_OK && !eq);
  /* repr(y) and repr(y.imag) */
  char *str = ct_to_string(y);
  CHECK_STR(str, "tensor([ 1.-2.0000j,  3.+4.0000j, -5.-0.5000j])");
  free(str);
  str = ct_to_string(ct_imag(y));
  CHECK_STR(str, "tensor([-2.0000,  4.0000, -0.5000])");
  free(str);
  ct_scope_end();
}

static void test_writes(void) {
  ct_scope_begin();
  /* z = x.clone(); w = z.conj(); w.add_(1): z [ 2.+2.0000j,  4.-4.0000j, -4.+0.5000j], w conj of it */
  ct_tensor *z = make_x(), *w = ct_conj(z);
  CHECK_EQ_INT(ct_add_(w, ct_wrapped_scalar(CT_INT(1)), NULL), CT_OK);
  CHECK(ct_is_conj(w) && PAIRS(z, 2, 2, 4, -4, -4, 0.5f) && PAIRS(w, 2, -2, 4, 4, -4, -0.5f));
  /* w.mul_(1j) on a fresh w: z [ 2.0000-1.j, -4.0000-3.j,  0.5000+5.j] */
  z = make_x();
  w = ct_conj(z);
  CHECK_EQ_INT(ct_mul_(w, ct_wrapped_scalar(CT_COMPLEX(0, 1))), CT_OK);
  CHECK(PAIRS(z, 2, -1, -4, -3, 0.5f, 5));
  /* o = zeros(3).conj(); torch.add(x, 1, out=o): o reads [2+2j, 4-4j, -4+0.5j], o._conj() [2-2j, ...] */
  ct_tensor *o = ct_conj(ct_zeros(CT_SHAPE(3), &(ct_tensor_opts){.dtype = CT_COMPLEX64}));
  CHECK_EQ_INT(ct_add_out(o, make_x(), ct_wrapped_scalar(CT_INT(1)), NULL), CT_OK);
  CHECK(ct_is_conj(o) && PAIRS(o, 2, 2, 4, -4, -4, 0.5f) && raw_eq(o, (const float[]){2, -2, 4, 4, -4, -0.5f}, 3));
  /* out= of the wrong shape is resized (torch: shape [3], is_conj True, values as above) */
  o = ct_conj(ct_zeros(CT_SHAPE(2), &(ct_tensor_opts){.dtype = CT_COMPLEX64}));
  CHECK_EQ_INT(ct_add_out(o, make_x(), ct_wrapped_scalar(CT_INT(1)), NULL), CT_OK);
  CHECK(ct_is_conj(o) && ct_numel(o) == 3 && PAIRS(o, 2, 2, 4, -4, -4, 0.5f));
  /* sum(x, 0, out=zeros(()).conj()): o tensor(-1.-1.5000j), o._conj() tensor(-1.+1.5000j) */
  o = ct_conj(ct_zeros(CT_SHAPE_SCALAR, &(ct_tensor_opts){.dtype = CT_COMPLEX64}));
  CHECK_EQ_INT(ct_sum_out(o, make_x(), &(ct_reduce_opts){.dims = CT_DIMS(0)}), CT_OK);
  CHECK(PAIRS(o, -1, -1.5f) && raw_eq(o, (const float[]){-1, 1.5f}, 1));
  /* cumsum(x, 0, out=zeros(3).conj()): [ 1.+2.0000j,  4.-2.0000j, -1.-1.5000j] */
  o = ct_conj(ct_zeros(CT_SHAPE(3), &(ct_tensor_opts){.dtype = CT_COMPLEX64}));
  CHECK_EQ_INT(ct_cumsum_out(o, make_x(), 0, NULL), CT_OK);
  CHECK(PAIRS(o, 1, 2, 4, -2, -1, -1.5f));
  /* w.copy_(tensor([1j, 2j, 3j])): z [0.-1.j, 0.-2.j, 0.-3.j] */
  z = make_x();
  const float J[6] = {0, 1, 0, 2, 0, 3};
  CHECK_EQ_INT(ct_copy_(ct_conj(z), ct_tensor_from_data(J, CT_COMPLEX64, CT_SHAPE(3), NULL)), CT_OK);
  CHECK(PAIRS(z, 0, -1, 0, -2, 0, -3));
  /* x.copy_(x.conj()): the same memory, other bits: conjugated in place */
  z = make_x();
  CHECK_EQ_INT(ct_copy_(z, ct_conj(z)), CT_OK);
  CHECK(PAIRS(z, 1, -2, 3, 4, -5, -0.5f));
  /* i = x.conj().imag; i.add_(1): x tensor([ 1.+1.0000j,  3.-5.0000j, -5.-0.5000j]) */
  z = make_x();
  CHECK_EQ_INT(ct_add_(ct_imag(ct_conj(z)), ct_wrapped_scalar(CT_INT(1)), NULL), CT_OK);
  CHECK(PAIRS(z, 1, 1, 3, -5, -5, -0.5f));
  /* w[0] = 1j: torch's x becomes -1j there */
  z = make_x();
  CHECK_EQ_INT(ct_set_item(ct_conj(z), (int64_t[]){0}, CT_COMPLEX(0, 1)), CT_OK);
  CHECK(PAIRS(z, 0, -1, 3, -4, -5, 0.5f));
  /* torch.conj_physical_(x.conj()): the view reads x again, x holds conj(x) */
  z = make_x();
  w = ct_conj(z);
  CHECK_EQ_INT(ct_conj_physical_(w), CT_OK);
  CHECK(PAIRS(w, 1, 2, 3, -4, -5, 0.5f) && PAIRS(z, 1, -2, 3, 4, -5, -0.5f));
  /* a random fill through a conj view stores the conjugate of the plain fill (torch: raw == conj(plain)) */
  ct_tensor *plain = ct_zeros(CT_SHAPE(5), &(ct_tensor_opts){.dtype = CT_COMPLEX64});
  ct_tensor *base = ct_zeros(CT_SHAPE(5), &(ct_tensor_opts){.dtype = CT_COMPLEX64});
  ct_manual_seed(7);
  CHECK_EQ_INT(ct_normal_(plain, 0, 1, NULL), CT_OK);
  ct_manual_seed(7);
  CHECK_EQ_INT(ct_normal_(ct_conj(base), 0, 1, NULL), CT_OK);
  bool eq = false;
  CHECK(ct_equal(ct_conj(base), plain, &eq) == CT_OK && eq);
  ct_scope_end();
}

int main(void) {
  test_views();
  test_reads();
  test_writes();
  return TEST_SUMMARY();
}
