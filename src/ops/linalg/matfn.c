/* Matrix functions as torch 1.13's LinearAlgebra.cpp computes them: matrix_power (the identity, a copy, the
   inverse, then matmul in torch's order: A A, (A A) A, or the binary decomposition of n from its lowest bit) and
   matrix_exp (mexp: per matrix, the Taylor polynomial of degree 1, 2, 4, 8, 12 or 18 chosen from its 1-norm
   against torch's thetas, evaluated with torch's coefficients, products and linear combinations in its order;
   beyond the degree-12 bound, the degree-18 one on A / 2^s followed by s squarings). Products are matmul's
   _impl, so they are torch's kernels' bits. float16 and bfloat16 take torch's double branch (mexp_half,
   mexp_bf16). */
#include "ops/linalg/linalg_internal.h"
#include "core/half.h"
#include "ops/convert_internal.h"
#include "ops/create_internal.h"
#include "ops/matmul/mm_internal.h"
#include "ops/pointwise/pw.h"

#include <math.h>
#include <string.h>

/* meta: the composite over eye, clone, linalg.inv and matmul, each on meta (the result's geometry, no dtype
   dispatch: a bfloat16 eye or a float16 product has a meta result) */
static const ct_op matrix_power_op = CT_LINALG_META_OP("linalg_matrix_power", "aten::linalg_matrix_power");
static const ct_op matrix_power_legacy_op = CT_LINALG_META_OP("matrix_power", "aten::matrix_power");
static const ct_op matrix_exp_op = CT_LINALG_OP("linalg_matrix_exp", "aten::linalg_matrix_exp");
/* torch.matrix_exp is a composite of linalg_matrix_exp: its dispatcher messages name that op */
static const ct_op matrix_exp_legacy_op = CT_LINALG_OP("matrix_exp", "aten::linalg_matrix_exp");

/* A new contiguous tensor (unowned) holding src's values (its math bits applied). */
static ct_tensor *dense_copy(const ct_tensor *src) {
  ct_tensor *r = ct__la_empty(src, src->ndim, src->sizes, (ct_dtype)src->dtype);
  if (r && ct__copy_into(r, src) != CT_OK) {
    ct_release(r);
    return NULL;
  }
  return r;
}

/* ---- matrix_power ---- */

/* The identity in A's shape, contiguous (clone + copy_ of eye). */
static ct_tensor *identity_like(const ct_tensor *A) {
  ct_tensor *r = ct__la_empty(A, A->ndim, A->sizes, (ct_dtype)A->dtype), *d = NULL;
  ct_status s = r ? ct__fill(r, ct_scalar_int(0)) : ct_last_error();
  if (s == CT_OK) d = ct__diagonal_impl(r, 0, -2, -1);
  if (s == CT_OK) s = d ? ct__fill(d, ct_scalar_int(1)) : ct_last_error();
  ct_release(d);
  if (s != CT_OK) {
    ct_release(r);
    return NULL;
  }
  return r;
}

/* a @ b of two batches of n x n matrices of one shape: matmul, or on meta its contiguous result. */
static ct_tensor *square_product(const ct_tensor *a, const ct_tensor *b) {
  if (a->device_type == CT_META) return ct__la_empty(a, a->ndim, a->sizes, (ct_dtype)a->dtype);
  return ct__matmul_impl(a, b);
}

/* linalg_matrix_power_impl's result (unowned): n = 0, 1, -1 and the products. With last (the out= form), a
   final product is left undone: the result is its left operand and *last its right one (NULL where the
   result comes whole: n = 0, 1, -1 and the powers of two from 4 on, which torch copies into out). */
static ct_tensor *power_new(const ct_tensor *A, int64_t n, ct_tensor **last) {
  if (last) *last = NULL;
  if ((n == 0 || n == 1) && A->device_type == CT_META) /* eye / clone: contiguous */
    return ct__la_empty(A, A->ndim, A->sizes, (ct_dtype)A->dtype);
  if (n == 0 && A->dtype == CT_BFLOAT16) { /* at::eye's CPU kernel has no bfloat16 in torch 1.13 */
    ct__error(CT_ERR_RUNTIME, "\"eye\" not implemented for 'BFloat16'");
    return NULL;
  }
  if (n == 0) return identity_like(A);
  if (n == 1) return dense_copy(A);
  if (n == -1) return ct__la_inv_impl(A, "linalg.inv");
  ct_tensor *a = n < 0 ? ct__la_inv_impl(A, "linalg.inv") : ct_retain((ct_tensor *)A);
  if (!a) return NULL;
  n = n < 0 ? -n : n;
  if (n == 2 || n == 3) {
    ct_tensor *x = n == 2 ? ct_retain(a) : square_product(a, a);
    if (x && last) {
      *last = a;
      return x;
    }
    ct_tensor *result = x ? square_product(x, a) : NULL;
    ct_release(x);
    ct_release(a);
    return result;
  }
  ct_tensor *z = NULL, *result = NULL;
  bool ok = true;
  while (ok && n > 0) {
    int64_t bit = n % 2;
    n /= 2;
    ct_tensor *nz = z ? square_product(z, z) : ct_retain(a);
    ct_release(z);
    z = nz;
    ok = z != NULL;
    if (ok && bit == 1 && last && n == 0 && result) { /* the last multiplication: matmul_out's */
      *last = z;
      ct_release(a);
      return result;
    }
    if (ok && bit == 1) {
      ct_tensor *nr = result ? square_product(result, z) : ct_retain(z);
      ct_release(result);
      result = nr;
      ok = result != NULL;
    }
  }
  ct_release(z);
  ct_release(a);
  if (!ok) {
    ct_release(result);
    return NULL;
  }
  return result;
}

static ct_tensor *power_fn(const ct_op *op, const ct_tensor *A, int64_t n) {
  CT__OP_ENTER_PTR(op, A, A);
  if (!ct__la_ndim_ok(A, "linalg.matrix_power", "A") || !ct__la_square_ok(A, "linalg.matrix_power"))
    return NULL;
  return ct__own(power_new(A, n, NULL));
}

static ct_status power_out_fn(const ct_op *op, ct_tensor *out, const ct_tensor *A, int64_t n) {
  CT__OP_ENTER_STATUS(op, A, out, A);
  if (!CT__OP_OUT_GRAD_OK(op, out, A)) return CT_ERR_RUNTIME;
  if (!ct__la_ndim_ok(A, "linalg.matrix_power", "A") || !ct__la_square_ok(A, "linalg.matrix_power") ||
      !ct__la_castable_ok(out, (ct_dtype)A->dtype, A, "matrix_power", "result"))
    return ct_last_error();
  /* the last product (matmul_out) and linalg.inv_out write out directly: they want its dtype to be the
     result's; n = 0, 1 and the powers of two from 4 on end in copy_. matmul_out(out, A, A) (n = 2) and
     linalg.inv_out (n = -1, after its input checks) check out before computing; the others after the products
     before their last one. */
  int64_t m = n < 0 ? -n : n;
  bool copies = n == 0 || n == 1 || (m >= 4 && (m & (m - 1)) == 0);
  ct_dtype dt = (ct_dtype)A->dtype;
  bool inv_checked = n == -1 && ct__dt(dt)->category >= CT_CAT_FLOAT && dt != CT_FLOAT16 && dt != CT_BFLOAT16;
  if ((n == 2 || inv_checked) && !ct__la_out_ok(out, dt, A)) return ct_last_error();
  ct_tensor *y, *r = power_new(A, n, &y);
  if (!r) return ct_last_error();
  ct_status s = copies || ct__la_out_ok(out, (ct_dtype)r->dtype, A) ? CT_OK : ct_last_error();
  /* the last product: matmul_out(out, result, z), out as it is laid out deciding BLAS's call (torch resizes
     out to A's shape first; matmul_out does where it differs, and leaves it as it was when it fails). On meta
     the shapes alone: r's are the product's. */
  if (s == CT_OK && y && !CT__OP_ON_META(out, A)) s = ct__matmul_out(out, r, y);
  else if (s == CT_OK) s = ct__la_write_out_contiguous(out, r);
  ct_release(r);
  ct_release(y);
  return s;
}

ct_tensor *ct_linalg_matrix_power(const ct_tensor *A, int64_t n) { return power_fn(&matrix_power_op, A, n); }
ct_tensor *ct_matrix_power(const ct_tensor *A, int64_t n) { return power_fn(&matrix_power_legacy_op, A, n); }
ct_status ct_linalg_matrix_power_out(ct_tensor *out, const ct_tensor *A, int64_t n) {
  return power_out_fn(&matrix_power_op, out, A, n);
}
ct_status ct_matrix_power_out(ct_tensor *out, const ct_tensor *A, int64_t n) {
  return power_out_fn(&matrix_power_legacy_op, out, A, n);
}

/* ---- matrix_exp ---- */

#define N_DEGS 6

/* torch's bounds on the 1-norm for degrees 1, 2, 4, 8, 12, 18 (mexp's thetas_float / thetas_double). */
static const float thetas_float[N_DEGS] = {1.192092800768788e-07f, 5.978858893805233e-04f,
                                           5.116619363445086e-02f, 5.800524627688768e-01f,
                                           1.461661507209034e+00f, 3.010066362817634e+00f};
static const double thetas_double[N_DEGS] = {2.220446049250313e-16, 2.580956802971767e-08,
                                             3.397168839976962e-04, 4.991228871115323e-02,
                                             2.996158913811580e-01, 1.090863719290036e+00};

/* out = sum_j coef[j] * in[j] (from 0, in j's order, as _compute_linear_combination's kernel), the coefficients
   rounded to the value type first; a complex element is its two reals. Each step is one fused multiply-add: torch's
   CPU kernels are built with FMA and contraction on, and `*out += in * coef` is contracted there (with separate
   roundings the results drift from torch's by up to 4e3 ulp after the squarings; fused, they are its bits). */
static ct_tensor *lincomb(ct_tensor *const *in, const double *coef, int m) {
  ct_tensor *out = ct__la_empty(in[0], in[0]->ndim, in[0]->sizes, (ct_dtype)in[0]->dtype);
  if (!out) return NULL;
  ct_dtype dt = (ct_dtype)out->dtype;
  bool cx = ct__dt(dt)->category == CT_CAT_COMPLEX;
  int64_t len = out->numel * (cx ? 2 : 1);
  if (dt == CT_FLOAT32 || dt == CT_COMPLEX64) {
    float *o = (float *)(void *)ct__tdata(out);
    for (int64_t e = 0; e < len; e++) o[e] = 0;
    for (int j = 0; j < m; j++) {
      const float *x = (const float *)(const void *)ct__tdata(in[j]);
      float c = (float)coef[j];
      for (int64_t e = 0; e < len; e++) o[e] = fmaf(x[e], c, o[e]);
    }
  } else {
    double *o = (double *)(void *)ct__tdata(out);
    for (int64_t e = 0; e < len; e++) o[e] = 0;
    for (int j = 0; j < m; j++) {
      const double *x = (const double *)(const void *)ct__tdata(in[j]);
      for (int64_t e = 0; e < len; e++) o[e] = fma(x[e], coef[j], o[e]);
    }
  }
  return out;
}

/* x += y (add_), elementwise. */
static void add_into(ct_tensor *x, const ct_tensor *y) {
  ct_dtype dt = (ct_dtype)x->dtype;
  int64_t len = x->numel * (ct__dt(dt)->category == CT_CAT_COMPLEX ? 2 : 1);
  if (dt == CT_FLOAT32 || dt == CT_COMPLEX64) {
    float *o = (float *)(void *)ct__tdata(x);
    const float *a = (const float *)(const void *)ct__tdata(y);
    for (int64_t e = 0; e < len; e++) o[e] += a[e];
  } else {
    double *o = (double *)(void *)ct__tdata(x);
    const double *a = (const double *)(const void *)ct__tdata(y);
    for (int64_t e = 0; e < len; e++) o[e] += a[e];
  }
}

/* x @ y into a new dense tensor (matmul's _impl, then owned here). */
static ct_tensor *prod(const ct_tensor *x, const ct_tensor *y) { return ct__matmul_impl(x, y); }

/* _fill_matrix_powers: As[0..m) = I, A, A^2, A^3, A^6 (A: dense (k, n, n)). */
static bool fill_powers(ct_tensor **As, const ct_tensor *A, int m) {
  for (int i = 0; i < 5; i++) As[i] = NULL;
  As[0] = identity_like(A);
  As[1] = As[0] ? dense_copy(A) : NULL;
  if (m > 2 && As[1]) As[2] = prod(As[1], As[1]);
  if (m > 3 && As[2]) As[3] = prod(As[1], As[2]);
  if (m > 4 && As[3]) As[4] = prod(As[3], As[3]);
  return As[m - 1] != NULL;
}

static void release_all(ct_tensor **ts, int m) {
  for (int i = 0; i < m; i++) ct_release(ts[i]);
}

/* T12 and T18: Bs = b As (b: num x num, row i the coefficients of Bs[i]). */
static bool combos(ct_tensor **Bs, ct_tensor *const *As, const double *b, int num) {
  for (int i = 0; i < num; i++) Bs[i] = NULL;
  for (int i = 0; i < num; i++)
    if (!(Bs[i] = lincomb(As, b + i * num, num))) return false;
  return true;
}

static const double b12[16] = {9.0198e-16,
                               0.46932117595418237389,
                               -0.20099424927047284052,
                               -0.04623946134063071740,
                               5.31597895759871264183,
                               1.19926790417132231573,
                               0.01179296240992997031,
                               0.01108844528519167989,
                               0.18188869982170434744,
                               0.05502798439925399070,
                               0.09351590770535414968,
                               0.00610700528898058230,
                               -2.0861320e-13,
                               -0.13181061013830184015,
                               -0.02027855540589259079,
                               -0.00675951846863086359};

static const double b18[25] = {0.,
                               -1.00365581030144618291e-01,
                               -8.02924648241156932449e-03,
                               -8.92138498045729985177e-04,
                               0.,
                               0.,
                               3.97849749499645077844e-01,
                               1.36783778460411720168e+00,
                               4.98289622525382669416e-01,
                               -6.37898194594723280150e-04,
                               -1.09676396052962061844e+01,
                               1.68015813878906206114e+00,
                               5.71779846478865511061e-02,
                               -6.98210122488052056106e-03,
                               3.34975017086070470649e-05,
                               -9.04316832390810593223e-02,
                               -6.76404519071381882256e-02,
                               6.75961301770459654925e-02,
                               2.95552570429315521194e-02,
                               -1.39180257516060693404e-05,
                               0.,
                               0.,
                               -9.23364619367118555360e-02,
                               -1.69364939002081722752e-02,
                               -1.40086798182036094347e-05};

/* compute_T8's coefficients, computed as torch's constexprs are in the value type (float: each rounded where
   torch's scalar_t rounds it). */
static void t8_coefs(bool single, double *x) {
  if (single) {
    float s177 = 0.1330413469565007072504e+2f, x3 = (float)(2. / 3.);
    x[0] = (float)(x3 * ((1. + s177) / 88.));
    x[1] = (float)(x3 * ((1. + s177) / 352.));
    x[2] = x3;
    x[3] = (float)((-271. + 29. * s177) / (315. * x3));
    x[4] = (float)((-11. + 11. * s177) / (1260. * x3));
    x[5] = (float)((-99. + 11. * s177) / (5040. * x3));
    x[6] = (float)((89. - s177) / (5040. * x3));
    x[7] = (float)((857. - 58. * s177) / 630.);
  } else {
    double s177 = 0.1330413469565007072504e+2, x3 = 2. / 3.;
    x[0] = x3 * ((1. + s177) / 88.);
    x[1] = x3 * ((1. + s177) / 352.);
    x[2] = x3;
    x[3] = (-271. + 29. * s177) / (315. * x3);
    x[4] = (-11. + 11. * s177) / (1260. * x3);
    x[5] = (-99. + 11. * s177) / (5040. * x3);
    x[6] = (89. - s177) / (5040. * x3);
    x[7] = (857. - 58. * s177) / 630.;
  }
}

/* compute_T1 ... compute_T18 of a dense (k, n, n) A: a new dense result. */
static ct_tensor *taylor(const ct_tensor *A, int deg) {
  static const int nmats[N_DEGS] = {2, 3, 3, 3, 4, 5};
  ct_tensor *As[5], *Bs[5] = {NULL, NULL, NULL, NULL, NULL}, *r = NULL, *t = NULL, *u = NULL, *p = NULL;
  bool single = A->dtype == CT_FLOAT32 || A->dtype == CT_COMPLEX64;
  int m = nmats[deg];
  if (!fill_powers(As, A, m)) {
    release_all(As, 5);
    return NULL;
  }
  switch (deg) {
    case 0: r = lincomb(As, (const double[]){1, 1}, 2); break; /* As.sum(0) */
    case 1: {                                                  /* As[2] /= 2, As.sum(0) */
      ct_tensor *two = ct__wrapped_scalar(ct_scalar_double(2.0));
      if (two && ct__pw_apply_(&ct__pw_op_true_divide, As[2], two) == CT_OK)
        r = lincomb(As, (const double[]){1, 1, 1}, 3);
      ct_release(two);
      break;
    }
    case 2: { /* A^2 (I / 2 + A / 6 + A^2 / 24), then I + A + that */
      double c[3] = {single ? (float)(1 / 2.0) : 1 / 2.0, single ? (float)(1 / 6.0) : 1 / 6.0,
                     single ? (float)(1 / 24.0) : 1 / 24.0};
      t = lincomb(As, c, 3);
      As[3] = t ? prod(As[2], t) : NULL;
      if (As[3]) r = lincomb(As, (const double[]){1, 1, 0, 1}, 4);
      break;
    }
    case 3: { /* A4 = A2 (x1 A + x2 A2); A8 = (x3 A2 + A4)(x4 I + x5 A + x6 A2 + x7 A4); I + A + y2 A2 + A8 */
      double x[8];
      t8_coefs(single, x);
      t = lincomb(As + 1, (const double[]){x[0], x[1]}, 2);
      As[3] = t ? prod(As[2], t) : NULL;
      u = As[3] ? lincomb(As + 2, (const double[]){x[2], 1.0}, 2) : NULL;
      p = u ? lincomb(As, (const double[]){x[3], x[4], x[5], x[6]}, 4) : NULL;
      As[4] = p ? prod(u, p) : NULL;
      if (As[4]) r = lincomb(As, (const double[]){1.0, 1.0, x[7], 0.0, 1.0}, 5);
      break;
    }
    case 4: { /* Bs[2] += Bs[3] Bs[3]; Bs[0] += (Bs[1] += Bs[2]) Bs[2] */
      double b[16];
      for (int i = 0; i < 16; i++) b[i] = single ? (double)(float)b12[i] : b12[i];
      if (!combos(Bs, As, b, 4)) break;
      t = prod(Bs[3], Bs[3]);
      if (!t) break;
      add_into(Bs[2], t);
      add_into(Bs[1], Bs[2]);
      u = prod(Bs[1], Bs[2]);
      if (!u) break;
      add_into(Bs[0], u);
      r = ct_retain(Bs[0]);
      break;
    }
    default: { /* Bs[3] += Bs[0] Bs[4]; Bs[1] += (Bs[2] += Bs[3]) Bs[3] */
      double b[25];
      for (int i = 0; i < 25; i++) b[i] = single ? (double)(float)b18[i] : b18[i];
      if (!combos(Bs, As, b, 5)) break;
      t = prod(Bs[0], Bs[4]);
      if (!t) break;
      add_into(Bs[3], t);
      add_into(Bs[2], Bs[3]);
      u = prod(Bs[2], Bs[3]);
      if (!u) break;
      add_into(Bs[1], u);
      r = ct_retain(Bs[1]);
      break;
    }
  }
  release_all(As, 5);
  release_all(Bs, 5);
  ct_release(t);
  ct_release(u);
  ct_release(p);
  return r;
}

/* The matrices of a (dense (K, n, n)) listed in idx, as a new dense (k, n, n) tensor. */
static ct_tensor *gather(const ct_tensor *a, const int64_t *idx, int64_t k) {
  int64_t n = a->sizes[2], sz[3] = {k, n, n};
  ct_tensor *r = ct__la_empty(a, 3, sz, (ct_dtype)a->dtype);
  size_t mb = (size_t)(n * n) * ct__itemsize((ct_dtype)a->dtype);
  for (int64_t i = 0; r && i < k; i++) memcpy(ct__la_at(r, i * n * n), ct__la_at(a, idx[i] * n * n), mb);
  return r;
}

/* res's matrices idx[i] = src's matrix i. */
static void scatter(ct_tensor *res, const ct_tensor *src, const int64_t *idx, int64_t k) {
  int64_t n = res->sizes[2];
  size_t mb = (size_t)(n * n) * ct__itemsize((ct_dtype)res->dtype);
  for (int64_t i = 0; i < k; i++) memcpy(ct__la_at(res, idx[i] * n * n), ct__la_at(src, i * n * n), mb);
}

/* operator_1_norm of each matrix of a (dense (K, n, n)): the largest column sum of |a_ij|, in the value type. */
static void one_norms(const ct_tensor *a, double *norm) {
  int64_t K = a->sizes[0], n = a->sizes[2];
  ct_dtype dt = (ct_dtype)a->dtype;
  bool cx = ct__dt(dt)->category == CT_CAT_COMPLEX, single = dt == CT_FLOAT32 || dt == CT_COMPLEX64;
  for (int64_t b = 0; b < K; b++) {
    double best = 0;
    bool first = true;
    for (int64_t j = 0; j < n; j++) {
      float sf = 0;
      double sd = 0;
      for (int64_t i = 0; i < n; i++) {
        int64_t e = b * n * n + i * n + j;
        if (single) {
          const float *p = (const float *)(const void *)ct__tdata(a);
          sf += cx ? hypotf(p[2 * e], p[2 * e + 1]) : fabsf(p[e]);
        } else {
          const double *p = (const double *)(const void *)ct__tdata(a);
          sd += cx ? hypot(p[2 * e], p[2 * e + 1]) : fabs(p[e]);
        }
      }
      double s = single ? (double)sf : sd;
      if (first || s > best || isnan(s)) best = isnan(best) ? best : s;
      first = false;
    }
    norm[b] = best;
  }
}

/* compute_T18_scale_square over the matrices idx of a: s = max(0, ceil(log2(norm / theta))), T18(a / 2^s),
   then s squarings of each matrix (2-D matmul), into res. */
/* m (released) squared `times` times by prod: a new matrix, NULL on failure. */
static ct_tensor *squared(ct_tensor *m, int64_t times) {
  for (int64_t q = 0; m && q < times; q++) {
    ct_tensor *m2 = prod(m, m);
    ct_release(m);
    m = m2;
  }
  return m;
}

/* The matrices idx[0..k) of a, raised by a Taylor degree's polynomial (taylor or taylor_bf), into res. */
static ct_status taylor_into(ct_tensor *res, const ct_tensor *a, const int64_t *idx, int64_t k,
                             ct_tensor *(*poly)(const ct_tensor *, int), int deg) {
  ct_tensor *sub = gather(a, idx, k), *t = sub ? poly(sub, deg) : NULL;
  if (t) scatter(res, t, idx, k);
  ct_status st = t ? CT_OK : ct_last_error();
  ct_release(sub);
  ct_release(t);
  return st;
}

static ct_status scale_square(ct_tensor *res, const ct_tensor *a, const int64_t *idx, int64_t k,
                              const double *norm, bool single) {
  ct_tensor *sub = gather(a, idx, k);
  int64_t sz[3] = {k, 1, 1};
  ct_tensor *pw = sub ? ct__la_empty(a, 3, sz, CT_INT64) : NULL;
  if (!pw) {
    ct_release(sub);
    return ct_last_error();
  }
  int64_t *s = (int64_t *)(void *)ct__tdata(pw);
  for (int64_t i = 0; i < k; i++) {
    double x = single ? (double)ceilf(log2f((float)norm[idx[i]] / thetas_float[N_DEGS - 1]))
                      : ceil(log2(norm[idx[i]] / thetas_double[N_DEGS - 1]));
    s[i] = x > 0 ? (int64_t)x : 0;
  }
  int64_t *steps = ct__malloc(sizeof(int64_t) * (size_t)(k > 0 ? k : 1));
  for (int64_t i = 0; steps && i < k; i++) {
    steps[i] = s[i];
    s[i] = s[i] >= 63 ? INT64_MIN : (int64_t)1 << s[i]; /* at::pow(2, s) in int64 */
  }
  ct_tensor *scaled = steps ? ct__pw_apply(&ct__pw_op_true_divide, sub, pw) : NULL;
  ct_tensor *sd = scaled ? dense_copy(scaled) : NULL;
  ct_tensor *t = sd ? taylor(sd, N_DEGS - 1) : NULL;
  ct_status st = t ? CT_OK : ct_last_error();
  int64_t n = a->sizes[2];
  for (int64_t i = 0; st == CT_OK && i < k; i++) {
    ct_tensor *m = squared(ct__select_impl(t, 0, i), steps[i]);
    if (!m) {
      st = ct_last_error();
      break;
    }
    ct_tensor *dst = ct__select_impl(res, 0, idx[i]);
    st = dst ? ct__copy_into(dst, m) : ct_last_error();
    ct_release(dst);
    ct_release(m);
  }
  (void)n;
  ct__free(steps);
  ct_release(t);
  ct_release(sd);
  ct_release(sub);
  ct_release(pw);
  return st;
}

/* torch's res = empty_like(a_3d) holding res's values (dense (K, n, n)), then res.view(A.sizes()): owned by the
   scope. */
static ct_tensor *mexp_result(const ct_tensor *A, const ct_tensor *a3, const ct_tensor *res) {
  ct_tensor *like = ct__copy_as(a3, (ct_dtype)A->dtype, CT_PRESERVE_FORMAT);
  ct_status st = like ? ct__copy_into(like, res) : ct_last_error();
  ct_tensor *r = st == CT_OK ? ct__view_impl(like, (ct_shape){.data = A->sizes, .ndim = A->ndim}) : NULL;
  ct_release(like);
  if (r) ct__grad_mark_result(r, A);
  return ct__own(r);
}

/* matrix_exp's end: the result from res where every degree ran, the workspaces released. */
static ct_tensor *mexp_finish(const ct_tensor *A, ct_tensor *a3, ct_tensor *a, ct_tensor *res, void *norm,
                              int64_t *idx, ct_status st) {
  ct__free(norm);
  ct__free(idx);
  ct_release(a);
  ct_tensor *r = st == CT_OK ? mexp_result(A, a3, res) : NULL;
  ct_release(a3);
  ct_release(res);
  return r;
}

/* mexp of A (n >= 2, no math bits): a new result of A's shape laid out as empty_like(A.view(-1, n, n)) (owned by
   the scope). */
static ct_tensor *mexp(const ct_tensor *A) {
  int64_t n = A->sizes[A->ndim - 1], shp[3] = {-1, n, n};
  ct_tensor *a3 = ct__view_impl(A, (ct_shape){.data = shp, .ndim = 3});
  if (!a3) return NULL;
  ct_tensor *a = dense_copy(a3);
  if (!a) {
    ct_release(a3);
    return NULL;
  }
  bool single = A->dtype == CT_FLOAT32 || A->dtype == CT_COMPLEX64;
  int64_t K = a->sizes[0];
  ct_tensor *res = ct__la_empty(a, 3, a->sizes, (ct_dtype)a->dtype);
  double *norm = ct__malloc(sizeof(double) * (size_t)(K > 0 ? K : 1));
  int64_t *idx = ct__malloc(sizeof(int64_t) * (size_t)(K > 0 ? K : 1));
  ct_status st = res && norm && idx ? CT_OK : (ct__oom_error(0), CT_ERR_OUT_OF_MEMORY);
  if (st == CT_OK) {
    one_norms(a, norm);
    /* a NaN norm is in no interval: torch leaves that matrix uninitialised; ctorch makes it NaN */
    ct__fill(res, ct_scalar_double(NAN));
  }
  for (int deg = 0; st == CT_OK && deg <= N_DEGS - 1; deg++) {
    int64_t k = 0;
    for (int64_t b = 0; b < K; b++) {
      double th4 = single ? thetas_float[N_DEGS - 2] : thetas_double[N_DEGS - 2];
      bool large = norm[b] >= th4;
      if (deg == N_DEGS - 1) {
        if (large) idx[k++] = b;
        continue;
      }
      double lo = deg == 0 ? -1 : single ? thetas_float[deg - 1] : thetas_double[deg - 1];
      double hi = single ? thetas_float[deg] : thetas_double[deg];
      if (!large && lo < norm[b] && norm[b] <= hi) idx[k++] = b;
    }
    if (k == 0) continue;
    if (deg == N_DEGS - 1) {
      st = scale_square(res, a, idx, k, norm, single);
    } else {
      st = taylor_into(res, a, idx, k, taylor, deg);
    }
  }
  return mexp_finish(A, a3, a, res, norm, idx, st);
}

/* mexp of a float16 A (n >= 2) as torch 1.13's CPU runs it: mexp_impl with the double thetas, compared with the
   1-norms in float16 (abs().sum(-2) accumulated in float and rounded, then max(-1)), so each theta rounds to
   float16 (the first two to 0). Its degree loop runs T1 (I + A, for a norm of 0) first, then the first non-empty
   interval of a degree >= 2 fails in bmm, which has no float16 CPU kernel; past the degrees, a norm at or above
   theta_12 fails in log2. Only an all-zero batch computes: the identity. */
static ct_tensor *mexp_half(const ct_tensor *A) {
  int64_t n = A->sizes[A->ndim - 1], shp[3] = {-1, n, n};
  ct_tensor *a3 = ct__view_impl(A, (ct_shape){.data = shp, .ndim = 3});
  ct_tensor *a = a3 ? dense_copy(a3) : NULL;
  int64_t K = a ? a->sizes[0] : 0;
  float *norm = a ? ct__malloc(sizeof(float) * (size_t)(K > 0 ? K : 1)) : NULL;
  if (!norm) {
    if (a) ct__oom_error(0);
    ct_release(a);
    ct_release(a3);
    return NULL;
  }
  const uint16_t *p = (const uint16_t *)(const void *)ct__tdata(a);
  float th4 = ct__half_to_float(ct__float_to_half((float)thetas_double[N_DEGS - 2]));
  bool in_poly = false, large = false;
  for (int64_t b = 0; b < K; b++) {
    float best = 0;
    for (int64_t j = 0; j < n; j++) {
      float sum = 0;
      for (int64_t i = 0; i < n; i++) sum += fabsf(ct__half_to_float(p[b * n * n + i * n + j]));
      float sh = ct__half_to_float(ct__float_to_half(sum));
      if (j == 0 || sh > best || isnan(sh)) best = isnan(best) ? best : sh;
    }
    norm[b] = best;
    in_poly = in_poly || (best > 0 && best <= th4);
    large = large || best >= th4;
  }
  ct_tensor *res = NULL;
  if (in_poly || large) {
    ct__error(CT_ERR_RUNTIME,
              in_poly ? "\"bmm\" not implemented for 'Half'" : "\"log2_vml_cpu\" not implemented for 'Half'");
  } else { /* I + A of zero matrices: the identity (a NaN norm is in no interval: NaN, as mexp leaves it) */
    res = ct__la_empty(a, 3, a->sizes, CT_FLOAT16);
    uint16_t *o = res ? (uint16_t *)(void *)ct__tdata(res) : NULL;
    for (int64_t b = 0; o && b < K; b++)
      for (int64_t i = 0; i < n * n; i++)
        o[b * n * n + i] = isnan(norm[b]) ? 0x7e00 : i % (n + 1) == 0 ? 0x3c00 : 0;
  }
  ct__free(norm);
  ct_release(a);
  ct_tensor *r = res ? mexp_result(A, a3, res) : NULL;
  ct_release(a3);
  ct_release(res);
  return r;
}

/* ---- bfloat16: mexp_impl<double> in bfloat16 arithmetic ---- */

/* x rounded to bfloat16 (nearest even), as every bfloat16 operation of torch's rounds its float result. */
static float bround(float x) { return ct__bfloat16_to_float(ct__float_to_bfloat16(x)); }
static uint16_t *bdata(const ct_tensor *t) { return (uint16_t *)(void *)ct__tdata(t); }
static float bget(const ct_tensor *t, int64_t e) { return ct__bfloat16_to_float(bdata(t)[e]); }

/* _blob_to_Tensor / compute_T12's from_blob: the blob of doubles read as count bfloat16 values (the dtype is A's),
   so the coefficients are the doubles' bytes two at a time. */
static void blob_coefs(const double *blob, int ndoubles, int count, float *c) {
  uint16_t raw[4 * 25];
  memcpy(raw, blob, (size_t)ndoubles * sizeof(double));
  for (int i = 0; i < count; i++) c[i] = ct__bfloat16_to_float(raw[i]);
}

/* _compute_linear_combination in bfloat16: out = 0, then out += in[j] * c[j] with BFloat16's operators (the
   product rounded, then the sum). A new dense tensor. */
static ct_tensor *lincomb_bf(ct_tensor *const *in, const float *c, int m) {
  ct_tensor *out = ct__la_empty(in[0], in[0]->ndim, in[0]->sizes, CT_BFLOAT16);
  for (int64_t e = 0; out && e < out->numel; e++) {
    float o = 0;
    for (int j = 0; j < m; j++) o = bround(o + bround(bget(in[j], e) * c[j]));
    bdata(out)[e] = ct__float_to_bfloat16(o);
  }
  return out;
}

/* x += y (add_ in bfloat16). */
static void add_bf(ct_tensor *x, const ct_tensor *y) {
  for (int64_t e = 0; e < x->numel; e++) bdata(x)[e] = ct__float_to_bfloat16(bget(x, e) + bget(y, e));
}

/* compute_T1 ... compute_T18 in bfloat16 (torch's scalar_t double: its coefficient blobs read as bfloat16). */
static ct_tensor *taylor_bf(const ct_tensor *A, int deg) {
  static const int nmats[N_DEGS] = {2, 3, 3, 3, 4, 5};
  ct_tensor *As[5], *Bs[5] = {NULL, NULL, NULL, NULL, NULL}, *r = NULL, *t = NULL, *u = NULL;
  int m = nmats[deg];
  if (!fill_powers(As, A, m)) {
    release_all(As, 5);
    return NULL;
  }
  float c[25];
  if (deg <= 1) { /* As.sum(0) (A^2 / 2 first for T2): a float sum, rounded once */
    r = ct__la_empty(A, A->ndim, A->sizes, CT_BFLOAT16);
    for (int64_t e = 0; r && e < r->numel; e++) {
      float o = 0;
      for (int j = 0; j < m; j++) o += j == 2 ? bround(bget(As[2], e) / 2.0f) : bget(As[j], e);
      bdata(r)[e] = ct__float_to_bfloat16(o);
    }
  } else if (deg == 2) { /* A^2 lincomb(I, A, A^2), then lincomb(I, A, A^2, that) */
    blob_coefs((const double[]){1 / 2.0, 1 / 6.0, 1 / 24.0}, 3, 3, c);
    t = lincomb_bf(As, c, 3);
    As[3] = t ? prod(As[2], t) : NULL;
    blob_coefs((const double[]){1.0, 1.0, 0.0, 1.0}, 4, 4, c);
    if (As[3]) r = lincomb_bf(As, c, 4);
  } else if (deg == 3) {
    double x[8];
    t8_coefs(false, x);
    blob_coefs((const double[]){x[0], x[1]}, 2, 2, c);
    t = lincomb_bf(As + 1, c, 2);
    As[3] = t ? prod(As[2], t) : NULL;
    blob_coefs((const double[]){x[2], 1.0}, 2, 2, c);
    u = As[3] ? lincomb_bf(As + 2, c, 2) : NULL;
    blob_coefs((const double[]){x[3], x[4], x[5], x[6]}, 4, 4, c);
    ct_tensor *p = u ? lincomb_bf(As, c, 4) : NULL;
    As[4] = p ? prod(u, p) : NULL;
    ct_release(p);
    blob_coefs((const double[]){1.0, 1.0, x[7], 0.0, 1.0}, 5, 5, c);
    if (As[4]) r = lincomb_bf(As, c, 5);
  } else { /* T12 / T18: Bs = b As with b the 4 x 4 / 5 x 5 doubles' first bytes */
    int num = m;
    blob_coefs(num == 4 ? b12 : b18, num * num, num * num, c);
    bool ok = true;
    for (int i = 0; ok && i < num; i++) ok = (Bs[i] = lincomb_bf(As, c + i * num, num)) != NULL;
    if (ok && num == 4) { /* Bs[2] += Bs[3] Bs[3]; Bs[0] += (Bs[1] += Bs[2]) Bs[2] */
      t = prod(Bs[3], Bs[3]);
      if (t) add_bf(Bs[2], t), add_bf(Bs[1], Bs[2]), u = prod(Bs[1], Bs[2]);
      if (u) add_bf(Bs[0], u), r = ct_retain(Bs[0]);
    } else if (ok) { /* Bs[3] += Bs[0] Bs[4]; Bs[1] += (Bs[2] += Bs[3]) Bs[3] */
      t = prod(Bs[0], Bs[4]);
      if (t) add_bf(Bs[3], t), add_bf(Bs[2], Bs[3]), u = prod(Bs[2], Bs[3]);
      if (u) add_bf(Bs[1], u), r = ct_retain(Bs[1]);
    }
  }
  release_all(As, 5);
  release_all(Bs, 5);
  ct_release(t);
  ct_release(u);
  return r;
}

/* compute_T18_scale_square in bfloat16 over the matrices idx of a: s = max(0, ceil(log2(norm / theta_18))) with
   each step rounded to bfloat16, a / 2^s, T18, then s squarings (2-D matmul), into res. */
static ct_status scale_square_bf(ct_tensor *res, const ct_tensor *a, const int64_t *idx, int64_t k,
                                 const float *norm, float theta) {
  ct_tensor *sub = gather(a, idx, k);
  int64_t *steps = ct__malloc(sizeof(int64_t) * (size_t)(k > 0 ? k : 1));
  if (!sub || !steps) {
    ct_release(sub);
    ct__free(steps);
    return sub ? (ct__oom_error(0), CT_ERR_OUT_OF_MEMORY) : ct_last_error();
  }
  int64_t n = a->sizes[2];
  for (int64_t i = 0; i < k; i++) {
    float x = ceilf(bround(log2f(bround(norm[idx[i]] / theta))));
    /* .to(kLong) of a huge or infinite s is x86's INT64_MIN, and at::pow(2, s) wraps in int64 */
    int64_t sv = !(x > 0) ? 0 : x >= 9.2e18f ? INT64_MIN : (int64_t)x;
    float p2 = sv < 0 ? 0.0f : sv >= 63 ? (float)INT64_MIN : (float)((int64_t)1 << sv);
    p2 = bround(p2);
    for (int64_t e = 0; e < n * n; e++)
      bdata(sub)[i * n * n + e] = ct__float_to_bfloat16(bget(sub, i * n * n + e) / p2);
    steps[i] = sv;
  }
  ct_tensor *t = taylor_bf(sub, N_DEGS - 1);
  ct_status st = t ? CT_OK : ct_last_error();
  for (int64_t i = 0; st == CT_OK && i < k; i++) {
    ct_tensor *m = squared(ct__select_impl(t, 0, i), steps[i]);
    ct_tensor *dst = m ? ct__select_impl(res, 0, idx[i]) : NULL;
    st = dst ? ct__copy_into(dst, m) : ct_last_error();
    ct_release(dst);
    ct_release(m);
  }
  ct__free(steps);
  ct_release(t);
  ct_release(sub);
  return st;
}

/* mexp of a bfloat16 A (n >= 2) as torch 1.13 computes it: mexp_impl<double> (the double thetas, compared with the
   bfloat16 1-norms in bfloat16), each Taylor degree and the scaling and squaring in bfloat16 arithmetic with the
   coefficient blobs read as bfloat16 (degree 4's are zeros; others are the doubles' bytes), products by the
   library's bfloat16 matmul (torch's bits). A matrix whose norm is NaN is in no interval: NaN. */
static ct_tensor *mexp_bf16(const ct_tensor *A) {
  int64_t n = A->sizes[A->ndim - 1], shp[3] = {-1, n, n};
  ct_tensor *a3 = ct__view_impl(A, (ct_shape){.data = shp, .ndim = 3});
  ct_tensor *a = a3 ? dense_copy(a3) : NULL;
  int64_t K = a ? a->sizes[0] : 0;
  ct_tensor *res = a ? ct__la_empty(a, 3, a->sizes, CT_BFLOAT16) : NULL;
  float *norm = res ? ct__malloc(sizeof(float) * (size_t)(K > 0 ? K : 1)) : NULL;
  int64_t *idx = norm ? ct__malloc(sizeof(int64_t) * (size_t)(K > 0 ? K : 1)) : NULL;
  ct_status st = idx ? CT_OK : res ? (ct__oom_error(0), CT_ERR_OUT_OF_MEMORY) : ct_last_error();
  float th[N_DEGS];
  for (int d = 0; d < N_DEGS; d++) th[d] = bround((float)thetas_double[d]);
  for (int64_t b = 0; st == CT_OK && b < K; b++) { /* abs().sum(-2) (float sums, rounded), then max(-1) */
    float best = 0;
    for (int64_t j = 0; j < n; j++) {
      float sum = 0;
      for (int64_t i = 0; i < n; i++) sum += fabsf(bget(a, b * n * n + i * n + j));
      float sb = bround(sum);
      if (j == 0 || sb > best || isnan(sb)) best = isnan(best) ? best : sb;
    }
    norm[b] = best;
  }
  for (int64_t e = 0; st == CT_OK && e < res->numel; e++) bdata(res)[e] = 0x7fc0; /* NaN */
  for (int deg = 0; st == CT_OK && deg < N_DEGS; deg++) {
    int64_t k = 0;
    for (int64_t b = 0; b < K; b++) {
      bool in = deg == N_DEGS - 1 ? norm[b] >= th[N_DEGS - 2]
                                  : (deg == 0 ? -1.0f : th[deg - 1]) < norm[b] && norm[b] <= th[deg];
      if (in) idx[k++] = b;
    }
    if (k == 0) continue;
    if (deg == N_DEGS - 1) {
      st = scale_square_bf(res, a, idx, k, norm, th[N_DEGS - 1]);
    } else {
      st = taylor_into(res, a, idx, k, taylor_bf, deg);
    }
  }
  return mexp_finish(A, a3, a, res, norm, idx, st);
}

static ct_tensor *matrix_exp_fn(const ct_op *op, const ct_tensor *A) {
  CT__OP_ENTER_PTR(op, A, A);
  if (!ct__la_ndim_ok(A, "linalg.matrix_exp", "A") || !ct__la_square_ok(A, "linalg.matrix_exp") ||
      !ct__la_float_ok(A, "matrix_exp"))
    return NULL;
  int64_t n = A->sizes[A->ndim - 1];
  if (n == 0) return ct__clone_impl(A, CT_PRESERVE_FORMAT);
  if (n == 1) return ct__pw_apply(&ct__pw_op_exp, A, NULL);
  if (A->dtype == CT_FLOAT16) return mexp_half(A);
  if (A->dtype == CT_BFLOAT16) return mexp_bf16(A);
  if (A->numel > 0 && !ct__la_kernel_ok(A, "linalg_matrix_exp")) return NULL;
  /* torch's conjugate fallback hands the kernel a resolved copy of a conjugate view */
  ct_tensor *a = ct__resolve_bits(A);
  ct_tensor *r = a ? mexp(a) : NULL;
  ct_release(a);
  return r;
}

ct_tensor *ct_linalg_matrix_exp(const ct_tensor *A) { return matrix_exp_fn(&matrix_exp_op, A); }
ct_tensor *ct_matrix_exp(const ct_tensor *A) { return matrix_exp_fn(&matrix_exp_legacy_op, A); }
