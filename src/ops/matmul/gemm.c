/* The one matrix-product kernel (mm_internal.h): torch 1.13's addmm_impl_cpu_ from its result step, so that
   every product (mm, addmm, bmm's large batches, matmul's folds, einsum, tensordot) makes the BLAS call
   torch makes for the same operands, and the bits are OpenBLAS's as torch's are. */

#include "core/cpu_isa.h"
#include "core/elem.h"
#include "kernels/cpu/blas.h"
#include "kernels/cpu/dnnl.h"
#include "ops/convert_internal.h"
#include "core/parallel.h"
#include "ops/matmul/mm_internal.h"
#include "ops/pointwise/pw.h"

ct_scalar ct__mm_coef(ct_scalar s) { return s.kind == 0 ? ct_scalar_int(1) : s; }

bool ct__mm_coef_is(ct_scalar s, double v) {
  switch (s.kind) {
    case CT_SCALAR_BOOL: return (double)s.v.b == v;
    case CT_SCALAR_INT: return (double)s.v.i == v;
    case CT_SCALAR_DOUBLE: return s.v.d == v;
    case CT_SCALAR_COMPLEX: return s.v.c.re == v && s.v.c.im == 0;
    default: return false;
  }
}

bool ct__mm_coef_zero(ct_scalar s) { return ct__mm_coef_is(s, 0); }

bool ct__mm_dtype_ok(ct_dtype dt, const char *kname) {
  if (dt != CT_BOOL && dt != CT_FLOAT16) return true;
  ct__error(CT_ERR_RUNTIME, "\"%s\" not implemented for '%s'", kname, ct__dt(dt)->scalar_name);
  return false;
}

static bool blas_dtype(ct_dtype dt) {
  return dt == CT_FLOAT32 || dt == CT_FLOAT64 || dt == CT_COMPLEX64 || dt == CT_COMPLEX128;
}

/* ---- torch's own loops (at::native::cpublas gemm_core_), for the types BLAS has no routine for ---- */

typedef struct gemm_args {
  ct_dtype dt;
  bool ta, tb, ca, cb; /* ca, cb: a transposed operand is conjugated ('c') */
  int64_t m, n, k, lda, ldb, ldc;
  const char *a, *b;
  char *c;
  ct_scalar alpha, beta;
} gemm_args;

/* Integers wrap: torch computes in the element type, whose sums and products are those of the integers
   modulo 2^bits whatever the order, so one order in uint64 (no signed overflow) gives torch's results. */
static void gemm_int(const gemm_args *g) {
  size_t is = ct__itemsize(g->dt);
  uint64_t al = (uint64_t)ct__scalar_to_int64(g->alpha), be = (uint64_t)ct__scalar_to_int64(g->beta);
  bool beta0 = ct__mm_coef_zero(g->beta);
  for (int64_t j = 0; j < g->n; j++)
    for (int64_t i = 0; i < g->m; i++) {
      uint64_t acc = 0;
      for (int64_t l = 0; l < g->k; l++) {
        int64_t ai = g->ta ? i * g->lda + l : l * g->lda + i, bi = g->tb ? l * g->ldb + j : j * g->ldb + l;
        acc += (uint64_t)ct__elem_load_i64(g->dt, g->a + ai * (int64_t)is) *
               (uint64_t)ct__elem_load_i64(g->dt, g->b + bi * (int64_t)is);
      }
      char *cp = g->c + (j * g->ldc + i) * (int64_t)is;
      uint64_t prev = beta0 ? 0 : (uint64_t)ct__elem_load_i64(g->dt, cp) * be;
      ct__elem_store_i64(g->dt, cp, (int64_t)(prev + al * acc));
    }
}

/* A BLAS dtype whose leading dimensions BLAS cannot take (torch's use_blas_gemm refuses them and runs
   gemm_core_): a plain loop in the element type's accumulator. Rare (counts beyond 2^31). */
static void gemm_wide(const gemm_args *g) {
  bool cx = g->dt == CT_COMPLEX64 || g->dt == CT_COMPLEX128;
  size_t is = ct__itemsize(g->dt);
  double ar = ct__scalar_to_double(g->alpha), ai_ = ct__scalar_imag(g->alpha),
         br = ct__scalar_to_double(g->beta), bi_ = ct__scalar_imag(g->beta);
  bool beta0 = ct__mm_coef_zero(g->beta);
  for (int64_t j = 0; j < g->n; j++)
    for (int64_t i = 0; i < g->m; i++) {
      double sr = 0, si = 0;
      for (int64_t l = 0; l < g->k; l++) {
        int64_t ai = g->ta ? i * g->lda + l : l * g->lda + i, bi = g->tb ? l * g->ldb + j : j * g->ldb + l;
        const char *pa = g->a + ai * (int64_t)is, *pb = g->b + bi * (int64_t)is;
        if (!cx) {
          sr += ct__elem_load_f64(g->dt, pa) * ct__elem_load_f64(g->dt, pb);
        } else if (g->dt == CT_COMPLEX64) {
          const float *x = (const float *)pa, *y = (const float *)pb;
          sr += (double)x[0] * y[0] - (double)x[1] * y[1];
          si += (double)x[0] * y[1] + (double)x[1] * y[0];
        } else {
          const double *x = (const double *)pa, *y = (const double *)pb;
          sr += x[0] * y[0] - x[1] * y[1];
          si += x[0] * y[1] + x[1] * y[0];
        }
      }
      char *cp = g->c + (j * g->ldc + i) * (int64_t)is;
      double cr = 0, ci = 0;
      if (!beta0 && !cx) cr = ct__elem_load_f64(g->dt, cp);
      if (!beta0 && g->dt == CT_COMPLEX64) cr = ((float *)cp)[0], ci = ((float *)cp)[1];
      if (!beta0 && g->dt == CT_COMPLEX128) cr = ((double *)cp)[0], ci = ((double *)cp)[1];
      double vr = br * cr - bi_ * ci + ar * sr - ai_ * si, vi = br * ci + bi_ * cr + ar * si + ai_ * sr;
      if (!cx) ct__elem_store_f64(g->dt, cp, vr);
      else if (g->dt == CT_COMPLEX64) ((float *)cp)[0] = (float)vr, ((float *)cp)[1] = (float)vi;
      else ((double *)cp)[0] = vr, ((double *)cp)[1] = vi;
    }
}

/* cpublas::gemm: normalize_last_dims, then BLAS where use_blas_gemm allows it, else gemm_core_. */
static void cpublas_gemm_ex(gemm_args *g, bool nosync) {
  if (g->n == 1) g->ldc = g->m;
  if (g->ta) {
    if (g->m == 1) g->lda = g->k;
  } else if (g->k == 1) {
    g->lda = g->m;
  }
  if (g->tb) {
    if (g->k == 1) g->ldb = g->n;
  } else if (g->n == 1) {
    g->ldb = g->k;
  }
  if (ct__dt(g->dt)->category == CT_CAT_INT) {
    gemm_int(g);
    return;
  }
  if (g->dt == CT_BFLOAT16) {
    if (ct__dnnl_bf16_gemm(g->ta, g->tb, g->m, g->n, g->k, (float)ct__scalar_to_double(g->alpha),
                           (const uint16_t *)g->a, g->lda, (const uint16_t *)g->b, g->ldb,
                           (float)ct__scalar_to_double(g->beta), (uint16_t *)g->c, g->ldc))
      return; /* torch's mkldnn_bf16_gemm (kernels/cpu/dnnl.h) */
    ct__gemm_bf16(g->ta, g->tb, g->m, g->n, g->k, (float)ct__scalar_to_double(g->alpha),
                  (float)ct__scalar_to_double(g->beta), (const uint16_t *)g->a, g->lda,
                  (const uint16_t *)g->b, g->ldb, (uint16_t *)g->c, g->ldc);
    return;
  }
  bool fits = ct__blas_fits(g->m) && ct__blas_fits(g->n) && ct__blas_fits(g->k) && ct__blas_fits(g->lda) &&
              ct__blas_fits(g->ldb) && ct__blas_fits(g->ldc) && g->lda >= (g->ta ? g->k : g->m) &&
              g->lda >= 1 && g->ldb >= (g->tb ? g->n : g->k) && g->ldb >= 1 && g->ldc >= g->m && g->ldc >= 1;
  if (!fits) {
    gemm_wide(g);
    return;
  }
  union {
    float f;
    double d;
    float cf[2];
    double cd[2];
  } al, be;
  switch (g->dt) {
    case CT_FLOAT32:
      al.f = (float)ct__scalar_to_double(g->alpha), be.f = (float)ct__scalar_to_double(g->beta);
      break;
    case CT_FLOAT64: al.d = ct__scalar_to_double(g->alpha), be.d = ct__scalar_to_double(g->beta); break;
    case CT_COMPLEX64:
      al.cf[0] = (float)ct__scalar_to_double(g->alpha), al.cf[1] = (float)ct__scalar_imag(g->alpha);
      be.cf[0] = (float)ct__scalar_to_double(g->beta), be.cf[1] = (float)ct__scalar_imag(g->beta);
      break;
    default:
      al.cd[0] = ct__scalar_to_double(g->alpha), al.cd[1] = ct__scalar_imag(g->alpha);
      be.cd[0] = ct__scalar_to_double(g->beta), be.cd[1] = ct__scalar_imag(g->beta);
      break;
  }
  (nosync ? ct__blas_gemm_on_this_thread : ct__blas_gemm)(g->dt, g->ta ? (g->ca ? 'c' : 't') : 'n',
                                                          g->tb ? (g->cb ? 'c' : 't') : 'n', g->m, g->n, g->k,
                                                          &al, g->a, g->lda, g->b, g->ldb, &be, g->c, g->ldc);
}

static void cpublas_gemm(gemm_args *g) { cpublas_gemm_ex(g, false); }

static char *elem_ptr(const ct_tensor *t) { return ct__tdata(t); }

/* result *= beta (k == 0): through mul's route, as torch's result.mul_(beta). */
static ct_status scale_result(ct_tensor *result, ct_scalar beta) {
  ct_tensor *w = ct__wrapped_scalar(beta);
  if (!w) return ct_last_error();
  ct_scope_begin();
  ct_status s = ct__pw_apply_(&ct__pw_op_mul, result, w);
  ct_scope_end();
  ct_release(w);
  return s;
}

/* addmm_impl_cpu_'s choice from the strides: tc (the result is computed transposed, m1 and m2 swapped),
   whether the result needs a Fortran-contiguous copy, and for each operand whether BLAS reads it as it
   is (CASE_N), transposed (CASE_T) or from a contiguous copy (CASE_COPY, transposed unless tc). */
enum {
  CASE_N,
  CASE_T,
  CASE_COPY
};
typedef struct gemm_plan {
  bool tc, c_copy, ta, tb;
  int a_case, b_case;
  int64_t m, n, k;
} gemm_plan;

static int64_t max1(int64_t v) { return v > 1 ? v : 1; }

static int operand_case(const int64_t *st, int i0, int i1, int64_t rows, int64_t cols, bool *trans, bool tc) {
  if (st[i0] == 1 && st[i1] >= max1(rows)) return *trans = false, CASE_N;
  if (st[i1] == 1 && st[i0] >= max1(cols)) return *trans = true, CASE_T;
  *trans = !tc;
  return CASE_COPY;
}

static void plan_for(gemm_plan *p, const int64_t *rz, const int64_t *rs, const int64_t *s1, const int64_t *s2,
                     int64_t k) {
  p->c_copy = false;
  if (rs[0] == 1 && (rz[1] == 1 || rs[1] >= max1(rz[0]))) {
    p->tc = false;
  } else if (rs[1] == 1 && (rz[0] == 1 || rs[0] >= max1(rz[1]))) {
    p->tc = true;
  } else {
    p->tc = false;
    p->c_copy = true;
  }
  p->m = rz[p->tc ? 1 : 0], p->n = rz[p->tc ? 0 : 1], p->k = k;
  int i0 = p->tc ? 1 : 0, i1 = p->tc ? 0 : 1;
  const int64_t *x1 = p->tc ? s2 : s1, *x2 = p->tc ? s1 : s2;
  p->a_case = operand_case(x1, i0, i1, p->m, p->k, &p->ta, p->tc);
  p->b_case = operand_case(x2, i0, i1, p->k, p->n, &p->tb, p->tc);
}

/* The operand BLAS reads for a case (a new reference). */
static ct_tensor *operand(const ct_tensor *x, int c) {
  if (c == CASE_T) return ct_retain((ct_tensor *)x);
  ct_tensor *r = ct__resolve_bits(x);
  if (c == CASE_N || !r) return r;
  ct_tensor *cl = ct__clone_impl(r, CT_CONTIGUOUS_FORMAT);
  ct_release(r);
  return cl;
}

ct_status ct__gemm_into(ct_tensor *result, const ct_tensor *m1, const ct_tensor *m2, ct_scalar beta,
                        ct_scalar alpha, const char *kname) {
  ct_dtype dt = (ct_dtype)result->dtype;
  /* torch's order: the empty shortcuts, the dtype dispatch, then data_ptr<scalar_t>()'s type check of the
     operand BLAS reads first (mat2 when the result is row-major) */
  if (result->numel == 0) return CT_OK;
  if (m1->sizes[1] == 0) {
    if (ct__mm_coef_zero(beta)) return ct__fill_impl(result, ct_scalar_int(0));
    return scale_result(result, beta);
  }
  if (!ct__mm_dtype_ok(dt, kname)) return ct_last_error();
  bool row_major =
      !(result->strides[0] == 1 &&
        (result->sizes[1] == 1 || result->strides[1] >= (result->sizes[0] > 1 ? result->sizes[0] : 1))) &&
      result->strides[1] == 1 &&
      (result->sizes[0] == 1 || result->strides[0] >= (result->sizes[1] > 1 ? result->sizes[1] : 1));
  const ct_tensor *first = row_major ? m2 : m1, *second = row_major ? m1 : m2;
  if ((ct_dtype)first->dtype != dt || (ct_dtype)second->dtype != dt) {
    ct_dtype bad = (ct_dtype)((ct_dtype)first->dtype != dt ? first->dtype : second->dtype);
    ct__error(CT_ERR_RUNTIME, "expected scalar type %s but found %s", ct__dt(dt)->scalar_name,
              ct__dt(bad)->scalar_name);
    return CT_ERR_RUNTIME;
  }
  if (blas_dtype(dt) && !ct__blas_ready()) return ct_last_error();
  gemm_plan p;
  plan_for(&p, result->sizes, result->strides, m1->strides, m2->strides, m1->sizes[1]);
  const ct_tensor *x1 = p.tc ? m2 : m1, *x2 = p.tc ? m1 : m2;
  ct_tensor *c = NULL, *a = NULL, *b = NULL;
  if (p.c_copy) { /* a Fortran-contiguous copy: result.transpose(0, 1).contiguous().transpose_(0, 1) */
    ct_tensor *tr = ct__transpose_impl(result, 0, 1),
              *cc = tr ? ct__contiguous_impl(tr, CT_CONTIGUOUS_FORMAT) : NULL;
    c = cc ? ct__transpose_impl(cc, 0, 1) : NULL;
    ct_release(tr);
    ct_release(cc);
    if (!c) return ct_last_error();
  } else {
    c = ct_retain(result);
  }
  /* conjugate views: resolved where BLAS reads the operand as it is; a transposed one goes to BLAS
     unresolved as a conjugate transpose ('c'), as torch passes it */
  a = operand(x1, p.a_case);
  b = operand(x2, p.b_case);
  bool tc = p.tc, ta = p.ta, tb = p.tb;
  int64_t m = p.m, n = p.n, k = p.k;
  ct_status s = a && b ? CT_OK : ct_last_error();
  if (s == CT_OK) {
    gemm_args g = {.dt = dt,
                   .ta = ta,
                   .tb = tb,
                   .ca = ta && (a->flags & CT_TENSOR_CONJ),
                   .cb = tb && (b->flags & CT_TENSOR_CONJ),
                   .m = m,
                   .n = n,
                   .k = k,
                   .lda = a->strides[ta == tc ? 1 : 0],
                   .ldb = b->strides[tb == tc ? 1 : 0],
                   .ldc = c->strides[tc ? 0 : 1],
                   .a = elem_ptr(a),
                   .b = elem_ptr(b),
                   .c = elem_ptr(c),
                   .alpha = alpha,
                   .beta = beta};
    cpublas_gemm(&g);
    if (c != result) s = ct__copy_into(result, c);
  }
  ct_release(a);
  ct_release(b);
  ct_release(c);
  return s;
}

/* ---- bmm's batches ---- */

typedef struct batch_job {
  gemm_args g;
  int64_t sa, sb, sc; /* batch strides in bytes of a, b, c */
  bool nosync;
} batch_job;

static void batch_chunk(void *ctx, int64_t i, int tid) {
  (void)tid;
  const batch_job *j = ctx;
  gemm_args g = j->g;
  g.a += i * j->sa, g.b += i * j->sb, g.c += i * j->sc;
  cpublas_gemm_ex(&g, j->nosync);
}

bool ct__gemm_batched(ct_tensor *r, const ct_tensor *b1, const ct_tensor *b2, ct_scalar beta,
                      ct_scalar alpha) {
  ct_dtype dt = (ct_dtype)r->dtype;
  if (b1->dtype != dt || b2->dtype != dt || dt == CT_BOOL || dt == CT_FLOAT16) return false;
  if (ct__math_bits(b1) || ct__math_bits(b2) || ct__math_bits(r) || b1->sizes[2] == 0 || r->numel == 0)
    return false;
  if (blas_dtype(dt) && !ct__blas_ready()) return false;
  gemm_plan p;
  plan_for(&p, r->sizes + 1, r->strides + 1, b1->strides + 1, b2->strides + 1, b1->sizes[2]);
  if (p.c_copy || p.a_case == CASE_COPY || p.b_case == CASE_COPY) return false;
  const ct_tensor *x1 = p.tc ? b2 : b1, *x2 = p.tc ? b1 : b2;
  int64_t is = (int64_t)ct__itemsize(dt), bs = r->sizes[0];
  batch_job j = {.g = {.dt = dt,
                       .ta = p.ta,
                       .tb = p.tb,
                       .m = p.m,
                       .n = p.n,
                       .k = p.k,
                       .lda = x1->strides[1 + (p.ta == p.tc ? 1 : 0)],
                       .ldb = x2->strides[1 + (p.tb == p.tc ? 1 : 0)],
                       .ldc = r->strides[1 + (p.tc ? 0 : 1)],
                       .a = ct__tdata(x1),
                       .b = ct__tdata(x2),
                       .c = ct__tdata(r),
                       .alpha = alpha,
                       .beta = beta},
                 .sa = x1->strides[0] * is,
                 .sb = x2->strides[0] * is,
                 .sc = r->strides[0] * is};
  /* Batches of matrices of at most 64^3 multiply-adds run one per pool thread with OpenBLAS on one thread;
     larger ones too where the core's kernel gives OpenBLAS's threaded bits from one thread given the
     threaded driver's K blocks (ct__blas_batchable: the AVX-512 cores' float kernel), else in order, each
     with OpenBLAS's threaded bits (its driver replayed on the pool), as torch calls them. The
     split keeps torch's bits only there: OpenBLAS 0.3.21 runs a gemm of m * n * k <= SMP_THRESHOLD_MIN
     (65536) * GEMM_MULTITHREAD_THRESHOLD (4) on one thread whatever its thread count, and above that its
     threaded blocking rounds differently (blas_pool.c). */
  bool one_each = bs > 1 && (p.m * p.n * p.k <= 65536 * 4 || (blas_dtype(dt) && ct__blas_batchable(dt)));
  int nt = one_each ? ct__parallel_threads(bs * p.m * p.n * p.k) : 1;
  if (nt > 1 && blas_dtype(dt)) {
    ct__blas_threads_one();
    j.nosync = true;
  }
  ct__parallel_chunks(bs, nt, batch_chunk, &j);
  return true;
}
