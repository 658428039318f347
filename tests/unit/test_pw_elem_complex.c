/* Unary elementary ops on complex tensors (abs, sgn, reciprocal, square, angle, conj, real, imag) and the
   predicates (isnan, isinf, isposinf, isneginf, isfinite, isreal). Expected bits from torch 1.13 (AVX2). */
#include <math.h>

#include "check.h"
#include "compat.h"

static uint32_t fbits(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  return u;
}
static uint64_t dbits(double f) {
  uint64_t u;
  memcpy(&u, &f, 8);
  return u;
}
static ct_tensor *c64(const float *pairs, int64_t n) {
  return ct_tensor_from_data(pairs, CT_COMPLEX64, (ct_shape){(int64_t[]){n}, 1}, NULL);
}
static ct_tensor *c128(const double *pairs, int64_t n) {
  return ct_tensor_from_data(pairs, CT_COMPLEX128, (ct_shape){(int64_t[]){n}, 1}, NULL);
}
/* Switch off (compat.h): every element of v (n, every step-th) is the scalar formula's value want. */
static bool all_f(const float *v, int n, int step, float want) {
  for (int i = 0; i < n; i += step)
    if (fbits(v[i]) != fbits(want)) return false;
  return true;
}
static bool all_d(const double *v, int n, int step, double want) {
  for (int i = 0; i < n; i += step)
    if (dbits(v[i]) != dbits(want)) return false;
  return true;
}
/* c10::complex's sgn, reciprocal and square, one rounding per operation (the switch off) */
#define CX_SGN(T, HYPOT, a, b, re, im)                            \
  do {                                                            \
    T c_ = HYPOT(a, b), d_ = 0, den_ = c_ * c_ + d_ * d_;         \
    re = (a * c_ + b * d_) / den_, im = (b * c_ - a * d_) / den_; \
  } while (0)

static bool bools(const ct_tensor *t, const bool *e, int64_t n) {
  bool got[64];
  if (!t || ct_dtype_of(t) != CT_BOOL || ct_numel(t) != n || ct_copy_to_buffer(t, got, CT_BOOL, (size_t)n) != CT_OK)
    return false;
  for (int64_t i = 0; i < n; i++)
    if (got[i] != e[i]) return false;
  return true;
}
#define BOOLS(t, ...) bools((t), (const bool[]){__VA_ARGS__}, sizeof((bool[]){__VA_ARGS__}) / sizeof(bool))

/* torch's AVX2 kernels run 8 complex64 (4 complex128) elements per vector step and the rest of a row through
   the scalar code; the two differ in the last bit for abs, sgn, reciprocal and square. */
static void test_vector_and_scalar_paths(void) {
  ct_scope_begin();
  float z[18];
  for (int i = 0; i < 9; i++) {
    z[2 * i] = 0.6113075613975525f;
    z[2 * i + 1] = 0.6764460802078247f;
  }
  ct_tensor *x = c64(z, 9);
  float a[9], c[18];
  ct_tensor *r = ct_abs(x);
  CHECK_EQ_INT(ct_dtype_of(r), CT_FLOAT32);
  CHECK(ct_copy_to_buffer(r, a, CT_FLOAT32, sizeof a) == CT_OK);
  /* the switch off: every element by the scalar formula (std::abs is hypot; c10::complex's / and *) */
  const float zr = z[0], zi = z[1];
  float sg_re, sg_im, den = zr * zr + zi * zi;
  CX_SGN(float, hypotf, zr, zi, sg_re, sg_im);
  CHECK(COMPAT_PICK(fbits(a[0]) == 0x3f696805u && fbits(a[7]) == 0x3f696805u && fbits(a[8]) == 0x3f696806u,
                    all_f(a, 9, 1, hypotf(zr, zi))));
  CHECK(ct_copy_to_buffer(ct_sgn(x), c, CT_COMPLEX64, sizeof c) == CT_OK);
  CHECK(COMPAT_PICK(fbits(c[0]) == 0x3f2ba4b5u && fbits(c[1]) == 0x3f3deedbu && fbits(c[16]) == 0x3f2ba4b4u &&
                        fbits(c[17]) == 0x3f3deedbu,
                    all_f(c, 18, 2, sg_re) && all_f(c + 1, 17, 2, sg_im)));
  CHECK(ct_copy_to_buffer(ct_reciprocal(x), c, CT_COMPLEX64, sizeof c) == CT_OK);
  CHECK(
      COMPAT_PICK(fbits(c[0]) == 0x3f3c4227u && fbits(c[1]) == 0xbf505188u && fbits(c[16]) == 0x3f3c4227u &&
                      fbits(c[17]) == 0xbf505187u,
                  all_f(c, 18, 2, (1 * zr + 0 * zi) / den) && all_f(c + 1, 17, 2, (0 * zr - 1 * zi) / den)));
  CHECK(ct_copy_to_buffer(ct_square(x), c, CT_COMPLEX64, sizeof c) == CT_OK);
  CHECK(COMPAT_PICK(fbits(c[0]) == 0xbdabca84u && fbits(c[1]) == 0x3f53b873u && fbits(c[16]) == 0xbdabca82u &&
                        fbits(c[17]) == 0x3f53b873u,
                    all_f(c, 18, 2, zr * zr - zi * zi) && all_f(c + 1, 17, 2, zr * zi + zi * zr)));
  /* a strided view runs the scalar code everywhere */
  float z2[36] = {0};
  for (int i = 0; i < 9; i++) memcpy(z2 + 4 * i, z + 2 * i, 2 * sizeof(float));
  ct_tensor *s = ct_slice(c64(z2, 18), 0, 0, CT_END, 2);
  CHECK(ct_copy_to_buffer(ct_abs(s), a, CT_FLOAT32, sizeof a) == CT_OK);
  CHECK(fbits(a[0]) == 0x3f696806u && fbits(a[8]) == 0x3f696806u);
  /* abs(z, out=complex): |z| + 0i with the same split */
  ct_tensor *o = ct_empty(CT_SHAPE(9), &(ct_tensor_opts){.dtype = CT_COMPLEX64});
  CHECK_EQ_INT(ct_abs_out(o, x), CT_OK);
  CHECK(ct_copy_to_buffer(o, c, CT_COMPLEX64, sizeof c) == CT_OK);
  CHECK(COMPAT_PICK(fbits(c[0]) == 0x3f696805u && c[1] == 0 && fbits(c[16]) == 0x3f696806u && c[17] == 0,
                    all_f(c, 18, 2, hypotf(zr, zi)) && c[1] == 0 && c[17] == 0));

  /* angle: SLEEF's atan2 in the vector steps, atan2f in the tail */
  for (int i = 0; i < 9; i++) {
    z[2 * i] = -1.4260196685791016f;
    z[2 * i + 1] = 0.903931736946106f;
  }
  CHECK(ct_copy_to_buffer(ct_angle(c64(z, 9)), a, CT_FLOAT32, sizeof a) == CT_OK);
  CHECK(COMPAT_PICK(fbits(a[0]) == 0x4024e781u && fbits(a[8]) == 0x4024e782u,
                    all_f(a, 9, 1, atan2f(z[1], z[0]))));

  double w[10];
  for (int i = 0; i < 5; i++) {
    w[2 * i] = -0.48678075071242677;
    w[2 * i + 1] = -0.6038215878840039;
  }
  double ad[5], cd[10];
  CHECK(ct_copy_to_buffer(ct_abs(c128(w, 5)), ad, CT_FLOAT64, sizeof ad) == CT_OK);
  double sgd_re, sgd_im;
  CX_SGN(double, hypot, w[0], w[1], sgd_re, sgd_im);
  CHECK(COMPAT_PICK(dbits(ad[0]) == 0x3fe8d1b7f80e4f47u && dbits(ad[3]) == 0x3fe8d1b7f80e4f47u &&
                        dbits(ad[4]) == 0x3fe8d1b7f80e4f46u,
                    all_d(ad, 5, 1, hypot(w[0], w[1]))));
  CHECK(ct_copy_to_buffer(ct_sgn(c128(w, 5)), cd, CT_COMPLEX128, sizeof cd) == CT_OK);
  CHECK(COMPAT_PICK(dbits(cd[0]) == 0xbfe41572415bb24bu && dbits(cd[8]) == 0xbfe41572415bb24cu,
                    all_d(cd, 10, 2, sgd_re) && all_d(cd + 1, 9, 2, sgd_im)));
  ct_scope_end();
}

static void test_complex_rules(void) {
  ct_scope_begin();
  const float z[4] = {3, 4, -1, -1};
  ct_tensor *x = c64(z, 2);
  float f[4];
  /* abs: real result; in place is an error; out= casts from the real dtype when allowed */
  CHECK(ct_copy_to_buffer(ct_absolute(x), f, CT_FLOAT32, 2 * sizeof(float)) == CT_OK && f[0] == 5.0f);
  CHECK_EQ_INT(ct_abs_(x), CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, "In-place abs is not supported for complex tensors.");
  ct_tensor *o = ct_empty(CT_SHAPE(0), &(ct_tensor_opts){.dtype = CT_FLOAT64});
  CHECK_EQ_INT(ct_abs_out(o, x), CT_OK);
  CHECK_SHAPE(o, 2);
  double d[2];
  CHECK(ct_copy_to_buffer(o, d, CT_FLOAT64, sizeof d) == CT_OK && d[0] == 5.0 && d[1] == 1.4142135381698608);
  CHECK_EQ_INT(ct_abs_out(ct_empty(CT_SHAPE(2), &(ct_tensor_opts){.dtype = CT_INT32}), x), CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, "result type Float can't be cast to the desired output type Int");
  CHECK_EQ_INT(ct_abs_out(ct_empty(CT_SHAPE(2), &(ct_tensor_opts){.dtype = CT_COMPLEX128}), x), CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, "Found dtype ComplexDouble but expected ComplexFloat");
  /* abs follows empty_like(self); angle of a complex tensor is contiguous */
  ct_tensor *t = ct_t(ct_ones(CT_SHAPE(3, 4), &(ct_tensor_opts){.dtype = CT_COMPLEX64}));
  CHECK_STRIDES(ct_abs(t), 1, 4);
  CHECK_STRIDES(ct_angle(t), 3, 1);
  CHECK_STRIDES(ct_angle(ct_t(ct_ones(CT_SHAPE(3, 4), NULL))), 1, 4);

  /* sign rejects complex; sgn is z / |z| */
  CHECK(ct_sign(x) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME,
              "Unlike NumPy, torch.sign is not intended to support complex numbers. Please use torch.sgn instead.");
  CHECK(ct_copy_to_buffer(ct_sgn(x), f, CT_COMPLEX64, sizeof f) == CT_OK);
  CHECK(f[0] == 0.6000000238418579f && f[1] == 0.800000011920929f);
  const float tiny[2] = {1e-30f, 1e-30f};
  CHECK(ct_copy_to_buffer(ct_sgn(c64(tiny, 1)), f, CT_COMPLEX64, 2 * sizeof(float)) == CT_OK && isnan(f[0]));
  CHECK(ct_signbit(x) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "signbit is not implemented for complex tensors.");

  /* angle: real inputs give 0 or pi (NaN stays), integers the default float */
  const float rv[4] = {-1.0f, 0.0f, NAN, -INFINITY};
  ct_tensor *ra = ct_angle(ct_tensor_from_data(rv, CT_FLOAT32, CT_SHAPE(4), NULL));
  CHECK(ct_copy_to_buffer(ra, f, CT_FLOAT32, sizeof f) == CT_OK);
  CHECK(f[0] == 3.1415927410125732f && f[1] == 0.0f && isnan(f[2]) && f[3] == 3.1415927410125732f);
  const int64_t iv[2] = {-5, 5};
  ct_tensor *ia = ct_angle(ct_tensor_from_data(iv, CT_INT64, CT_SHAPE(2), NULL));
  CHECK_EQ_INT(ct_dtype_of(ia), CT_FLOAT32);
  o = ct_empty(CT_SHAPE(2), &(ct_tensor_opts){.dtype = CT_COMPLEX128});
  CHECK_EQ_INT(ct_angle_out(o, x), CT_OK);
  CHECK(ct_copy_to_buffer(o, d, CT_FLOAT64, sizeof d) == CT_OK && d[0] == 0.9272952079772949);
  CHECK_EQ_INT(ct_angle_out(ct_empty(CT_SHAPE(2), &(ct_tensor_opts){.dtype = CT_INT32}), x), CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, "result type Float can't be cast to the desired output type Int");

  /* conj: a view of a complex tensor with the conj bit (test_conj.c has the rest), the input itself
     otherwise; conj_physical: a new tensor for complex */
  ct_tensor *cj = ct_conj(x);
  CHECK(cj != x && ct_is_conj(cj) && ct_data_ptr(cj) == ct_data_ptr(x));
  CHECK(ct_copy_to_buffer(cj, f, CT_COMPLEX64, sizeof f) == CT_OK && f[0] == 3 && f[1] == -4 && f[3] == 1);
  ct_tensor *re = ct_ones(CT_SHAPE(2), NULL);
  CHECK(ct_conj(re) == re && ct_conj_physical(re) == re);
  CHECK_EQ_INT(ct_conj_physical_(x), CT_OK);
  CHECK(ct_copy_to_buffer(x, f, CT_COMPLEX64, sizeof f) == CT_OK && f[1] == -4);
  CHECK_EQ_INT(ct_conj_physical_out(ct_empty(CT_SHAPE(0), NULL), re), CT_OK);

  /* real / imag: views with doubled strides on the same storage */
  ct_tensor *base = ct_ones(CT_SHAPE(2, 3), &(ct_tensor_opts){.dtype = CT_COMPLEX64});
  ct_tensor *col = ct_select(base, 1, 1);
  ct_tensor *rp = ct_real(col), *ip = ct_imag(col);
  CHECK_EQ_INT(ct_dtype_of(rp), CT_FLOAT32);
  CHECK_STRIDES(rp, 6);
  CHECK_EQ_INT(ct_storage_offset(rp), 2);
  CHECK_EQ_INT(ct_storage_offset(ip), 3);
  CHECK((char *)ct_data_ptr(ip) == (char *)ct_data_ptr(base) + 12);
  const float seven = 7;
  CHECK_EQ_INT(ct_copy_(ip, ct_tensor_from_data(&seven, CT_FLOAT32, CT_SHAPE_SCALAR, NULL)), CT_OK);
  float bb[12];
  CHECK(ct_copy_to_buffer(base, bb, CT_COMPLEX64, sizeof bb) == CT_OK && bb[3] == 7 && bb[9] == 7 && bb[1] == 0);
  CHECK(ct_real(re) == re);
  CHECK(ct_imag(re) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "imag is not implemented for tensors with non-complex dtypes.");
  ct_scope_end();
}

static void test_predicates(void) {
  ct_scope_begin();
  const float v[6] = {1.0f, NAN, INFINITY, -INFINITY, -0.0f, 3e38f};
  ct_tensor *x = ct_tensor_from_data(v, CT_FLOAT32, CT_SHAPE(6), NULL);
  CHECK(BOOLS(ct_isnan(x), 0, 1, 0, 0, 0, 0));
  CHECK(BOOLS(ct_isinf(x), 0, 0, 1, 1, 0, 0));
  CHECK(BOOLS(ct_isposinf(x), 0, 0, 1, 0, 0, 0));
  CHECK(BOOLS(ct_isneginf(x), 0, 0, 0, 1, 0, 0));
  CHECK(BOOLS(ct_isfinite(x), 1, 0, 0, 0, 1, 1));
  CHECK(BOOLS(ct_isreal(x), 1, 1, 1, 1, 1, 1));
  ct_tensor *h = ct_to_dtype(x, CT_FLOAT16); /* 3e38 overflows to inf */
  CHECK(BOOLS(ct_isposinf(h), 0, 0, 1, 0, 0, 1));
  CHECK(BOOLS(ct_isfinite(h), 1, 0, 0, 0, 1, 0));

  const float z[10] = {1e30f, 1e30f, INFINITY, 0, 0, -INFINITY, NAN, 0, 0, NAN};
  ct_tensor *c = ct_tensor_from_data(z, CT_COMPLEX64, CT_SHAPE(5), NULL);
  CHECK(BOOLS(ct_isnan(c), 0, 0, 0, 1, 1));
  CHECK(BOOLS(ct_isinf(c), 0, 1, 1, 0, 0));
  CHECK(BOOLS(ct_isfinite(c), 1, 0, 0, 0, 0));
  CHECK(BOOLS(ct_isreal(c), 0, 1, 0, 1, 0));
  CHECK(ct_isposinf(c) == NULL);
  CHECK_ERROR(CT_ERR_RUNTIME, "isposinf does not support complex inputs.");
  CHECK_EQ_INT(ct_isneginf_out(ct_empty(CT_SHAPE(6), NULL), x), CT_ERR_RUNTIME);
  CHECK_ERROR(CT_ERR_RUNTIME, "isneginf does not support non-boolean outputs.");

  /* integers: nothing is nan/inf; layouts follow ones_like/zeros_like(preserve) */
  ct_tensor *it = ct_t(ct_ones(CT_SHAPE(3, 4), &(ct_tensor_opts){.dtype = CT_INT32}));
  ct_tensor *r = ct_isfinite(it);
  CHECK_STRIDES(r, 1, 4);
  CHECK(BOOLS(ct_flatten(ct_contiguous(r, CT_CONTIGUOUS_FORMAT), 0, -1), 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1));
  CHECK_STRIDES(ct_isinf(it), 1, 4);
  CHECK_STRIDES(ct_isnan(it), 1, 4);
  CHECK_STRIDES(ct_isposinf(it), 1, 4);
  CHECK_STRIDES(ct_isreal(ct_t(ct_ones(CT_SHAPE(3, 4), &(ct_tensor_opts){.dtype = CT_COMPLEX128}))), 1, 4);
  ct_tensor *o = ct_empty(CT_SHAPE(0), &(ct_tensor_opts){.dtype = CT_BOOL});
  CHECK_EQ_INT(ct_isneginf_out(o, it), CT_OK);
  CHECK_SHAPE(o, 4, 3);
  ct_scope_end();
}

int main(void) {
  test_vector_and_scalar_paths();
  test_complex_rules();
  test_predicates();
  return TEST_SUMMARY();
}
