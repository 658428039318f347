/* gather, scatter (src or value, reduce="add"/"multiply"), scatter_add, scatter_reduce and take_along_dim:
   torch 1.13's cpu_scatter_gather_base_kernel. The iteration runs over index's shape with dim squashed to 1
   (declare_static_shape(index.sizes(), dim)) through the engine, and the loop walks dim inside: a target
   line belongs to one iteration element, so the threads never share one, and each target element receives
   its contributions in index order, one rounding each (torch's `*self += *src` on scalar_t). */
#include <math.h>

#include "core/cast.h"
#include "core/op.h"
#include "core/parallel.h"
#include "iter/iter.h"
#include "kernels/cpu/dtypes.h"
#include "kernels/cpu/math_scalar.h"
#include "kernels/cpu/torch_compat.h"
#include "ops/create_internal.h"
#include "ops/index/index_ops.h"
#include "ops/view_internal.h"

typedef struct sg_ctx {
  int64_t n;                   /* index's size along dim */
  int64_t dst_s, src_s, idx_s; /* byte strides along dim */
  int64_t bound;               /* the size indexed along dim */
  bool scatter;                /* index picks the target element (scatter) or the source one (gather) */
  _Atomic int *bad;            /* set when an index value is out of range (nothing is written for it) */
} sg_ctx;

/* One line of K elements per iteration element: the target is element DI of its line, the source element SI of
   its line (idx, the index value, and k, its position, name them). */
#define SG_LINES(T, STMT, DI, SI)                               \
  for (int64_t i = 0; i < n; i++) {                             \
    char *dst = d[0] + i * s[0];                                \
    const char *src = d[1] + i * s[1], *ix = d[2] + i * s[2];   \
    for (int64_t k = 0; k < K; k++) {                           \
      int64_t idx = *(const int64_t *)(ix + k * is);            \
      if ((uint64_t)idx >= (uint64_t)bound) {                   \
        atomic_store_explicit(c->bad, 1, memory_order_relaxed); \
        continue;                                               \
      }                                                         \
      T *a = (T *)(dst + (DI)*ds);                              \
      const T *b = (const T *)(src + (SI)*ss);                  \
      STMT;                                                     \
    }                                                           \
  }
/* One loop per (op, storage type): a and b point at the target and source elements. */
#define SG_LOOP(NAME, T, STMT)                                                             \
  static void NAME(char **d, const int64_t *s, int64_t n, const void *v) {                 \
    const sg_ctx *c = v;                                                                   \
    int64_t K = c->n, ds = c->dst_s, ss = c->src_s, is = c->idx_s, bound = c->bound;       \
    bool sc = c->scatter;                                                                  \
    if (s[2] == 0) { /* one index list for every element (the index_* ops): rows inside */ \
      bool dense = s[0] == (int64_t)sizeof(T) && s[1] == (int64_t)sizeof(T);               \
      for (int64_t k = 0; k < K; k++) {                                                    \
        int64_t idx = *(const int64_t *)(d[2] + k * is);                                   \
        if ((uint64_t)idx >= (uint64_t)bound) {                                            \
          atomic_store_explicit(c->bad, 1, memory_order_relaxed);                          \
          continue;                                                                        \
        }                                                                                  \
        char *dst = d[0] + (sc ? idx : k) * ds;                                            \
        const char *src = d[1] + (sc ? k : idx) * ss;                                      \
        if (dense) {                                                                       \
          T *A = (T *)dst;                                                                 \
          const T *B = (const T *)src;                                                     \
          for (int64_t i = 0; i < n; i++) {                                                \
            T *a = A + i;                                                                  \
            const T *b = B + i;                                                            \
            STMT;                                                                          \
          }                                                                                \
          continue;                                                                        \
        }                                                                                  \
        for (int64_t i = 0; i < n; i++) {                                                  \
          T *a = (T *)(dst + i * s[0]);                                                    \
          const T *b = (const T *)(src + i * s[1]);                                        \
          STMT;                                                                            \
        }                                                                                  \
      }                                                                                    \
      return;                                                                              \
    }                                                                                      \
    if (sc) {                                                                              \
      SG_LINES(T, STMT, idx, k) /* scatter: index picks the target */                      \
      return;                                                                              \
    }                                                                                      \
    SG_LINES(T, STMT, k, idx) /* gather: index picks the source */                         \
  }                                                                                        \
  CT_LOOP_PLAIN(NAME)

typedef struct b16 {
  uint64_t w[2];
} b16;
SG_LOOP(sg_copy1, uint8_t, *a = *b)
SG_LOOP(sg_copy2, uint16_t, *a = *b)
SG_LOOP(sg_copy4, uint32_t, *a = *b)
SG_LOOP(sg_copy8, uint64_t, *a = *b)
SG_LOOP(sg_copy16, b16, *a = *b)

static const ct_loop *copy_loop(size_t itemsize) {
  switch (itemsize) {
    case 1: return CT_LOOP_REF(sg_copy1);
    case 2: return CT_LOOP_REF(sg_copy2);
    case 4: return CT_LOOP_REF(sg_copy4);
    case 8: return CT_LOOP_REF(sg_copy8);
    default: return CT_LOOP_REF(sg_copy16);
  }
}

/* The reductions on scalar_t: reduced floats compute in float and round once per step, as c10::Half's
   operators; amax/amin are torch's `isnan(src) ? src : std::max(self, src)`. */
#define SG_RED_LOOPS(E, T, CT, LOAD, STORE)                                                              \
  SG_LOOP(sg_add_##E, T, *a = STORE((CT)(LOAD(*a) + LOAD(*b))))                                         \
  SG_LOOP(sg_mul_##E, T, *a = STORE((CT)(LOAD(*a) * LOAD(*b))))                                         \
  SG_LOOP(sg_max_##E, T, CT x = LOAD(*a); CT y = LOAD(*b); if (y != y || x < y) * a = *b)              \
  SG_LOOP(sg_min_##E, T, CT x = LOAD(*a); CT y = LOAD(*b); if (y != y || y < x) * a = *b)
#define SG_CPLX_LOOPS(E, T, CT, LOAD, STORE) \
  SG_LOOP(sg_add_##E, T, *a = *a + *b)       \
  SG_LOOP(sg_mul_##E, T, *a = CMPLX_MUL(*a, *b))
/* c10::complex's product as GCC contracted it in torch's AVX2 kernel (math_scalar.h) */
#define CMPLX_MUL(x, y) _Generic((x), ct_c64 : ct__c10_mul_f, ct_c128 : ct__c10_mul_d)(x, y)
/* Integers wrap as torch's (two's complement; computed unsigned, so C sees no signed overflow). */
#define SG_INT_LOOPS(E, T, CT, LOAD, STORE)                                                   \
  SG_LOOP(sg_add_##E, T, *a = (T)((uint64_t)(int64_t)*a + (uint64_t)(int64_t)*b))            \
  SG_LOOP(sg_mul_##E, T, *a = (T)((uint64_t)(int64_t)*a * (uint64_t)(int64_t)*b))            \
  SG_LOOP(sg_max_##E, T, if (*a < *b) * a = *b)                                              \
  SG_LOOP(sg_min_##E, T, if (*b < *a) * a = *b)
CT_DT_INTEGRAL(SG_INT_LOOPS)
CT_DT_FLOATING(SG_RED_LOOPS)
CT_DT_COMPLEX(SG_CPLX_LOOPS)
/* bool: bytes normalised (CT_LDB); += is or, *= and, max/min on 0/1. */
SG_LOOP(sg_add_CT_BOOL, uint8_t, *a = (uint8_t)(CT_LDB(*a) || CT_LDB(*b)))
SG_LOOP(sg_mul_CT_BOOL, uint8_t, *a = (uint8_t)(CT_LDB(*a) && CT_LDB(*b)))
SG_LOOP(sg_max_CT_BOOL, uint8_t, if (CT_LDB(*a) < CT_LDB(*b)) * a = (uint8_t)CT_LDB(*b))
SG_LOOP(sg_min_CT_BOOL, uint8_t, if (CT_LDB(*b) < CT_LDB(*a)) * a = (uint8_t)CT_LDB(*b))

#define REF_ADD(E, ...) [E] = CT_LOOP_REF(sg_add_##E),
#define REF_MUL(E, ...) [E] = CT_LOOP_REF(sg_mul_##E),
#define REF_MAX(E, ...) [E] = CT_LOOP_REF(sg_max_##E),
#define REF_MIN(E, ...) [E] = CT_LOOP_REF(sg_min_##E),
static const ct_loop *const add_loops[CT_NUM_DTYPES + 1] = {CT_DT_ALL(REF_ADD)};
static const ct_loop *const mul_loops[CT_NUM_DTYPES + 1] = {CT_DT_ALL(REF_MUL)};
static const ct_loop *const max_loops[CT_NUM_DTYPES + 1] = {
    CT_DT_BOOL(REF_MAX) CT_DT_INTEGRAL(REF_MAX) CT_DT_FLOATING(REF_MAX)};
static const ct_loop *const min_loops[CT_NUM_DTYPES + 1] = {
    CT_DT_BOOL(REF_MIN) CT_DT_INTEGRAL(REF_MIN) CT_DT_FLOATING(REF_MIN)};

static const ct_loop *reduce_loop(int reduce, ct_dtype dt, const char *name) {
  const ct_loop *l = NULL;
  switch (reduce) {
    case CT_REDUCTION_SUM:
    case CT_REDUCTION_MEAN: l = add_loops[dt]; break;
    case CT_REDUCTION_PROD: l = mul_loops[dt]; break;
    case CT_REDUCTION_AMAX: l = max_loops[dt]; break;
    case CT_REDUCTION_AMIN: l = min_loops[dt]; break;
    default: l = copy_loop(ct__itemsize(dt));
  }
  if (!l) ct__error(CT_ERR_RUNTIME, "\"%s\" not implemented for '%s'", name, ct__dt(dt)->scalar_name);
  return l;
}

/* The kernel rows: the CPU's loops; the meta device sizes the result and runs nothing. */
static const char sg_row[1];
#define SG_OP(nm, at) {.name = nm, .aten = at, .kernels = {[CT_CPU] = sg_row, [CT_META] = sg_row}}
static const ct_op gather_op = SG_OP("gather", "aten::gather");
static const ct_op gather_out_op = SG_OP("gather", "aten::gather.out");
static const ct_op scatter_op = SG_OP("scatter", "aten::scatter.src");
static const ct_op scatter_inplace_op = SG_OP("scatter", "aten::scatter_.src");
static const ct_op scatter_out_op = SG_OP("scatter", "aten::scatter.src_out");
static const ct_op scatter_value_op = SG_OP("scatter", "aten::scatter.value");
static const ct_op scatter_value_inplace_op = SG_OP("scatter", "aten::scatter_.value");
static const ct_op scatter_value_out_op = SG_OP("scatter", "aten::scatter.value_out");
static const ct_op scatter_add_op = SG_OP("scatter_add", "aten::scatter_add");
static const ct_op scatter_add_inplace_op = SG_OP("scatter_add", "aten::scatter_add_");
static const ct_op scatter_add_out_op = SG_OP("scatter_add", "aten::scatter_add.out");
static const ct_op scatter_reduce_op = SG_OP("scatter_reduce", "aten::scatter_reduce.two");
static const ct_op scatter_reduce_inplace_op = SG_OP("scatter_reduce", "aten::scatter_reduce_.two");
static const ct_op scatter_reduce_out_op = SG_OP("scatter_reduce", "aten::scatter_reduce.two_out");
static const ct_op take_along_dim_op = SG_OP("take_along_dim", "aten::take_along_dim");
/* a composite over gather.out: autograd's out= rule names gather, after take_along_dim's device check */
static const ct_op take_along_dim_out_op = SG_OP("gather", "aten::take_along_dim.out");

/* x viewed with index's sizes (dim squashed to 1), its own strides; 0-dim as [1]. */
static ct_tensor *squashed(const ct_tensor *x, const ct_tensor *index, int64_t dim) {
  int64_t nd = ct__ne_dim(index), sz[64], st[64];
  for (int64_t d = 0; d < nd; d++) {
    sz[d] = d == dim ? 1 : ct__ne_size(index, d);
    st[d] = ct__ne_stride(x, d);
  }
  return ct__view_geom(x, nd, sz, st, x->offset);
}

/* One engine pass without the split (a piece's). */
static bool sg_exec_one(ct_tensor *dv, const ct_tensor *sv, const ct_tensor *iv, const sg_ctx *c,
                        const ct_loop *loop) {
  ct_dtype dt = (ct_dtype)dv->dtype;
  ct_iter_config cfg = ct__iter_config_zero;
  cfg.n_out = 1;
  cfg.out[0] = dv;
  cfg.no_resize_outputs = true;
  cfg.n_in = 2;
  cfg.in[0] = sv;
  cfg.in[1] = iv;
  cfg.in_dtype[0] = dt;
  cfg.in_dtype[1] = CT_INT64;
  cfg.compute_dtype = cfg.loop_out_dtype = dt;
  ct_iter it;
  if (ct__iter_build(&it, &cfg) != CT_OK) return false;
  ct__iter_run(&it, loop, c);
  ct__iter_finish(&it);
  return true;
}

typedef struct sg_piece_job {
  ct_tensor *dv;
  const ct_tensor *sv, *iv;
  const sg_ctx *c;
  const ct_loop *loop;
  int64_t dim, pieces;
  _Atomic bool failed;
} sg_piece_job;

/* Piece p of the views cut along j->dim (inputs of size 1 there, broadcast, are not cut). */
static void sg_piece(void *v, int64_t p, int tid) {
  (void)tid;
  sg_piece_job *j = v;
  int64_t size = j->dv->sizes[j->dim], b = size * p / j->pieces, e = size * (p + 1) / j->pieces;
  if (b >= e) return;
  ct_tensor *d = ct__narrow_impl(j->dv, j->dim, b, e - b);
  ct_tensor *s = j->sv->sizes[j->dim] == size ? ct__narrow_impl(j->sv, j->dim, b, e - b) : ct__alias_impl(j->sv);
  ct_tensor *i = j->iv->sizes[j->dim] == size ? ct__narrow_impl(j->iv, j->dim, b, e - b) : ct__alias_impl(j->iv);
  if (!d || !s || !i || !sg_exec_one(d, s, i, j->c, j->loop)) atomic_store(&j->failed, true);
  ct_release(d);
  ct_release(s);
  ct_release(i);
}

/* One engine pass: dv written, sv read, iv the int64 index (views of one shape, the indexed dim squashed
   to 1; iv of strides 0 when one index list serves every element), c the dim's geometry. False on a failed
   build; *c->bad tells whether a value was out of range (nothing written for it). */
static bool sg_exec(ct_tensor *dv, const ct_tensor *sv, const ct_tensor *iv, const sg_ctx *c, const ct_loop *loop) {
  int64_t numel = dv->numel;
  int nt = ct__parallel_threads(numel * (c->n > 0 ? c->n : 1));
  if (nt > 1 && numel > 1 && numel < CT_PAR_GRAIN && !loop->serial) {
    /* the engine cuts by elements, and each of these walks a whole line along dim: cut the iteration's
       largest dim over the pool here (a target line belongs to one element, so pieces never share one) */
    sg_piece_job j = {dv, sv, iv, c, loop, 0, 0, false};
    int64_t best = 0;
    for (int64_t d = 1; d < dv->ndim; d++)
      if (dv->sizes[d] > dv->sizes[best]) best = d;
    j.dim = best;
    j.pieces = dv->sizes[best] < 4 * nt ? dv->sizes[best] : 4 * nt;
    ct__parallel_chunks(j.pieces, nt, sg_piece, &j);
    return !atomic_load(&j.failed);
  }
  return sg_exec_one(dv, sv, iv, c, loop);
}

/* Runs loop with dst written and src read along dim as the index says; false with torch's bounds error
   (the first bad value in index order) when a value is out of range. */
static bool sg_run(ct_tensor *dst, const ct_tensor *src, const ct_tensor *index, int64_t dim, bool scatter,
                   const ct_loop *loop) {
  if (index->numel == 0 || dst->device_type == CT_META) return true;
  if (ct__ne_dim(index) > 64) {
    ct__error(CT_ERR_NOT_IMPLEMENTED, "gather/scatter support tensors of up to 64 dims");
    return false;
  }
  _Atomic int bad = 0;
  size_t isz = ct__itemsize((ct_dtype)dst->dtype);
  const ct_tensor *self = scatter ? dst : src;
  sg_ctx c = {.n = ct__ne_size(index, dim),
              .dst_s = ct__ne_stride(dst, dim) * (int64_t)isz,
              .src_s = ct__ne_stride(src, dim) * (int64_t)isz,
              .idx_s = ct__ne_stride(index, dim) * 8,
              .bound = ct__ne_size(self, dim),
              .scatter = scatter,
              .bad = &bad};
  ct_tensor *dv = squashed(dst, index, dim), *sv = squashed(src, index, dim), *iv = squashed(index, index, dim);
  bool ok = dv && sv && iv && sg_exec(dv, sv, iv, &c, loop);
  ct_release(dv);
  ct_release(sv);
  ct_release(iv);
  int64_t v;
  if (ok && atomic_load(&bad) && ct__idx_find_bad(index, 0, c.bound, &v)) {
    ct__error(CT_ERR_RUNTIME, "index %lld is out of bounds for dimension %lld with size %lld", (long long)v,
              (long long)dim, (long long)c.bound);
    return false;
  }
  return ok;
}

/* x with dim squashed to 1 (0-dim as [1]). */
static ct_tensor *dim_squashed(const ct_tensor *x, int64_t dim) {
  int64_t nd = ct__ne_dim(x), sz[64], st[64];
  if (nd > 64) return CT_ERR_NULL(CT_ERR_NOT_IMPLEMENTED, "index ops support tensors of up to 64 dims");
  for (int64_t d = 0; d < nd; d++) {
    sz[d] = d == dim ? 1 : ct__ne_size(x, d);
    st[d] = ct__ne_stride(x, d);
  }
  return ct__view_geom(x, nd, sz, st, x->offset);
}

/* index_select's common shape by whole rows (index_rows.c): dst[k] = src[index[k]] along dim with nothing
   before dim but dims of size 1, both sides' slices contiguous and of one shape; false: not this shape. */
static bool select_rows(ct_tensor *dst, int64_t dim, const ct_tensor *index, const ct_tensor *src) {
  if (dst->ndim != src->ndim || dst->ndim == 0 || src->device_type != CT_CPU || index->ndim != 1 ||
      index->dtype != CT_INT64)
    return false;
  int64_t nd = dst->ndim, isz = (int64_t)ct__itemsize((ct_dtype)dst->dtype);
  for (int64_t d = 0; d < nd; d++)
    if ((d < dim && dst->sizes[d] != 1) || (d != dim && dst->sizes[d] != src->sizes[d])) return false;
  if (!ct__geom_is_contiguous(nd - dim - 1, dst->sizes + dim + 1, dst->strides + dim + 1) ||
      !ct__geom_is_contiguous(nd - dim - 1, src->sizes + dim + 1, src->strides + dim + 1))
    return false;
  int64_t row = isz;
  for (int64_t d = dim + 1; d < nd; d++) row *= dst->sizes[d];
  if (row == 0) return true;
  int64_t n = index->sizes[0], size = src->sizes[dim];
  /* rows that overlap (a stride below the row) are not rows: the engine's walk */
  if ((n > 1 && dst->strides[dim] * isz < row) || (size > 1 && src->strides[dim] * isz < row)) return false;
  ct_idx_rows r = {.dst = ct__tdata(dst), .src = ct__tdata(src), .idx = (const int64_t *)index->storage->data + index->offset,
                   .idx_s = index->strides[0], .n = n, .size = size, .dst_s = dst->strides[dim] * isz,
                   .src_s = src->strides[dim] * isz, .row = row};
  ct__idx_rows_copy(&r); /* the values were checked */
  return true;
}

ct_status ct__index_func_run(ct_tensor *dst, int64_t dim, const ct_tensor *index, const ct_tensor *src,
                             bool scatter, int reduce, const char *name) {
  ct_dtype dt = (ct_dtype)dst->dtype;
  const ct_loop *loop = reduce ? reduce_loop(reduce, dt, name) : copy_loop(ct__itemsize(dt));
  if (!loop) return CT_ERR_RUNTIME;
  if (index->numel == 0 || dst->device_type == CT_META) return CT_OK;
  if (!scatter && !reduce && select_rows(dst, dim, index, src)) return CT_OK;
  _Atomic int bad = 0;
  size_t isz = ct__itemsize(dt);
  const ct_tensor *self = scatter ? dst : src;
  sg_ctx c = {.n = index->numel,
              .dst_s = ct__ne_stride(dst, dim) * (int64_t)isz,
              .src_s = ct__ne_stride(src, dim) * (int64_t)isz,
              .idx_s = index->ndim ? index->strides[0] * 8 : 0,
              .bound = ct__ne_size(self, dim),
              .scatter = scatter,
              .bad = &bad};
  ct_tensor *dv = dim_squashed(dst, dim), *sv = dv ? dim_squashed(src, dim) : NULL, *iv = NULL;
  if (sv) {
    int64_t st[64] = {0};
    iv = ct__view_geom(index, dv->ndim, dv->sizes, st, index->offset);
  }
  bool ok = iv && sg_exec(dv, sv, iv, &c, loop);
  ct_release(dv);
  ct_release(sv);
  ct_release(iv);
  return ok ? CT_OK : ct_last_error();
}

/* ---- gather ---- */

static bool gather_checks(const ct_tensor *self, int64_t *dim, const ct_tensor *index) {
  *dim = ct__wrap_dim(*dim, self->ndim);
  if (*dim < 0) return false;
  if (index->numel != 0 && index->dtype != CT_INT64) {
    ct__error(CT_ERR_RUNTIME, "gather(): Expected dtype int64 for index");
    return false;
  }
  if (index->numel == 0) return true;
  int64_t nd = ct__ne_dim(self);
  if (nd != ct__ne_dim(index)) {
    ct__error(CT_ERR_RUNTIME, "Index tensor must have the same number of dimensions as input tensor");
    return false;
  }
  for (int64_t i = 0; i < nd; i++)
    if (i != *dim && ct__ne_size(index, i) > ct__ne_size(self, i)) {
      char a[1024], b[1024];
      ct__fmt_int_list(a, sizeof a, index->ndim, index->sizes);
      ct__fmt_int_list(b, sizeof b, self->ndim, self->sizes);
      ct__error(CT_ERR_RUNTIME,
                "Size does not match at dimension %lld expected index %s to be smaller than self %s apart from "
                "dimension %lld",
                (long long)i, a, b, (long long)*dim);
      return false;
    }
  return true;
}

ct_tensor *ct__gather_impl(const ct_tensor *self_in, int64_t dim, const ct_tensor *index) {
  if (!gather_checks(self_in, &dim, index)) return NULL;
  ct_resolved_opts o = {(ct_dtype)self_in->dtype, ct__tdevice(self_in), CT_CONTIGUOUS_FORMAT, false};
  ct_tensor *r = ct__empty_with((ct_shape){index->sizes, index->ndim}, &o);
  ct_tensor *self = r ? ct__resolve_bits(self_in) : NULL;
  if (!self) {
    ct_release(r);
    return NULL;
  }
  bool ok = sg_run(r, self, index, dim, false, copy_loop(ct__itemsize((ct_dtype)self->dtype)));
  ct_release(self);
  if (!ok) {
    ct_release(r);
    return NULL;
  }
  return r;
}

ct_tensor *ct_gather(const ct_tensor *t, int64_t dim, const ct_tensor *index, const ct_gather_opts *opts) {
  (void)opts; /* sparse_grad chooses the gradient's layout only */
  CT__OP_ENTER_PTR(&gather_op, t, t, index);
  if (!CT__OP_ACCEPTS(&gather_op, gather_op.aten, t, index)) return NULL;
  return ct__own(ct__gather_impl(t, dim, index));
}

ct_status ct_gather_out(ct_tensor *out, const ct_tensor *t, int64_t dim, const ct_tensor *index,
                        const ct_gather_opts *opts) {
  (void)opts;
  CT__OP_ENTER_STATUS(&gather_out_op, t, out, t, index);
  if (!CT__OP_OUT_GRAD_OK(&gather_out_op, out, t, index)) return CT_ERR_RUNTIME;
  if (!CT__OP_ACCEPTS(&gather_out_op, gather_out_op.aten, out, t, index)) return ct_last_error();
  /* out's dtype (the structured kernel's output), then the index's dtype and shape */
  if (ct__wrap_dim(dim, t->ndim) < 0) return CT_ERR_INDEX;
  int64_t d = dim;
  if (!ct__idx_out_dtype(out, t) || !gather_checks(t, &d, index)) return ct_last_error();
  if (!ct__idx_no_overlap(out, t)) return CT_ERR_RUNTIME;
  return ct__idx_copy_out(out, ct__gather_impl(t, dim, index));
}

/* ---- scatter ---- */

bool ct__scatter_checks(const char *name, const ct_tensor *self, int64_t dim, const ct_tensor *index,
                        const ct_tensor *src) {
  if (index->numel != 0 && index->dtype != CT_INT64) {
    ct__error(CT_ERR_RUNTIME, "%s(): Expected dtype int64 for index", name);
    return false;
  }
  if (src && src->dtype != self->dtype) {
    ct__error(CT_ERR_RUNTIME, "%s(): Expected self.dtype to be equal to src.dtype", name);
    return false;
  }
  if (index->numel == 0) return true;
  int64_t nd = ct__ne_dim(self);
  if (nd != ct__ne_dim(index)) {
    ct__error(CT_ERR_RUNTIME, "Index tensor must have the same number of dimensions as self tensor");
    return false;
  }
  bool wrong = false;
  for (int64_t d = 0; d < nd && !wrong; d++)
    wrong = d != dim && ct__ne_size(index, d) > ct__ne_size(self, d);
  for (int64_t d = 0; src && d < nd && !wrong; d++) {
    if (src->ndim > 0 && d >= src->ndim) return ct__wrap_dim(d, src->ndim) >= 0;
    wrong = ct__ne_size(index, d) > ct__ne_size(src, d);
  }
  if (!wrong) return true;
  char a[1024], b[1024], c[1024];
  ct__fmt_int_list(a, sizeof a, index->ndim, index->sizes);
  ct__fmt_int_list(b, sizeof b, self->ndim, self->sizes);
  if (src) {
    ct__fmt_int_list(c, sizeof c, src->ndim, src->sizes);
    ct__error(CT_ERR_RUNTIME,
              "Expected index %s to be smaller than self %s apart from dimension %lld and to be smaller size than "
              "src %s",
              a, b, (long long)dim, c);
  } else {
    ct__error(CT_ERR_RUNTIME, "Expected index %s to be smaller than self %s apart from dimension %lld", a, b,
              (long long)dim);
  }
  return false;
}

/* The value of scatter's value form in self's dtype (c10's overflow check), as a tensor of strides 0 shaped
   like index. */
static ct_tensor *value_src(const ct_tensor *self, ct_scalar value) {
  ct_dtype dt = (ct_dtype)self->dtype;
  if (!ct__check_scalar(value)) return NULL;
  if (!ct__scalar_fits(value, dt)) return NULL;
  ct_resolved_opts o = {dt, {CT_CPU, -1}, CT_CONTIGUOUS_FORMAT, false};
  int64_t one = 1;
  ct_tensor *v = ct__empty_with((ct_shape){&one, 1}, &o);
  if (v) ct__store_scalar(dt, ct__tdata(v), value);
  return v;
}

ct_status ct__scatter_into(ct_tensor *target, int64_t dim, const ct_tensor *index, const ct_tensor *src_in,
                           ct_scalar value, int reduce, const char *name, bool check_bounds_first) {
  /* the meta device runs scatter_meta_impl: no dtype dispatch, no value conversion */
  if (CT__OP_ON_META(target, index, src_in))
    return ct__scatter_meta(target, dim, index, src_in, name, check_bounds_first);
  dim = ct__wrap_dim(dim, target->ndim);
  if (dim < 0) return CT_ERR_INDEX;
  if (!ct__scatter_checks(name, target, dim, index, src_in)) return ct_last_error();
  if (check_bounds_first && !ct__check_no_internal_overlap(target)) return CT_ERR_RUNTIME; /* in place */
  if (index->numel == 0) return CT_OK; /* the kernel (and its dtype dispatch) never runs */
  const ct_loop *loop = reduce_loop(reduce, (ct_dtype)target->dtype, name);
  if (!loop) return CT_ERR_RUNTIME;
  if (!ct__idx_no_overlap(target, index) || (src_in && !ct__idx_no_overlap(target, src_in))) return CT_ERR_RUNTIME;
  ct_tensor *src = NULL;
  if (src_in) {
    src = ct__resolve_bits(src_in);
  } else if (index->numel == 0) { /* the value is converted inside the kernel, which an empty index skips */
    return CT_OK;
  } else {
    /* torch converts the value inside its kernel's loop, after the first element's bounds check */
    int64_t size = ct__ne_size(target, dim);
    int64_t first = ct__scalar_to_int64(ct__load_scalar((ct_dtype)index->dtype, ct__tdata(index)));
    if (first < 0 || first >= size) {
      ct__error(CT_ERR_RUNTIME, "index %lld is out of bounds for dimension %lld with size %lld", (long long)first,
                (long long)dim, (long long)size);
      return CT_ERR_RUNTIME;
    }
    ct_tensor *v = value_src(target, value);
    if (v) {
      int64_t st[64] = {0};
      src = ct__view_geom(v, index->ndim, index->sizes, st, 0);
      ct_release(v);
    }
  }
  if (!src) return ct_last_error();
  int64_t bad;
  ct_status s = CT_OK;
  if (check_bounds_first && index->numel && ct__idx_find_bad(index, 0, ct__ne_size(target, dim), &bad)) {
    ct__error(CT_ERR_RUNTIME, "index %lld is out of bounds for dimension %lld with size %lld", (long long)bad,
              (long long)dim, (long long)ct__ne_size(target, dim));
    s = CT_ERR_RUNTIME;
  } else if (!sg_run(target, src, index, dim, true, loop)) {
    s = ct_last_error();
  }
  ct_release(src);
  return s;
}

/* scatter's reduce keyword: add/multiply, anything else torch's message. */
static bool scatter_mode(const ct_scatter_opts *opts, int *reduce) {
  ct_scatter_mode m = opts ? opts->reduce : CT_SCATTER_REPLACE;
  if (m == CT_SCATTER_REPLACE || m == CT_SCATTER_ADD || m == CT_SCATTER_MULTIPLY) {
    *reduce = m == CT_SCATTER_ADD ? CT_REDUCTION_SUM : m == CT_SCATTER_MULTIPLY ? CT_REDUCTION_PROD : 0;
    return true;
  }
  ct__error(CT_ERR_RUNTIME, "reduce argument must be either add or multiply.");
  return false;
}

/* Functional: a new contiguous tensor of self's values (structured: set_output(self.sizes()), copy_), then
   scattered into. */
static ct_tensor *scatter_new(const ct_tensor *t, int64_t dim, const ct_tensor *index, const ct_tensor *src,
                              ct_scalar value, int reduce, const char *name) {
  ct_tensor *r = ct__idx_fresh(t, CT_CONTIGUOUS_FORMAT);
  if (r && ct__scatter_into(r, dim, index, src, value, reduce, name, false) != CT_OK) {
    ct_release(r);
    r = NULL;
  }
  return r;
}

static ct_status scatter_inplace(ct_tensor *self, int64_t dim, const ct_tensor *index, const ct_tensor *src,
                                 ct_scalar value, int reduce, const char *name) {
  ct_tensor *target = ct__idx_target_begin(self, false);
  if (!target) return ct_last_error();
  return ct__idx_target_end(self, target, ct__scatter_into(target, dim, index, src, value, reduce, name, true));
}

static ct_status scatter_out(ct_tensor *out, const ct_tensor *t, int64_t dim, const ct_tensor *index,
                             const ct_tensor *src, ct_scalar value, int reduce, const char *name) {
  int64_t d = ct__wrap_dim(dim, t->ndim);
  if (d < 0) return CT_ERR_INDEX;
  if (!ct__scatter_checks(name, t, d, index, src) || !ct__idx_out_dtype(out, t)) return ct_last_error();
  if (!ct__idx_no_overlap(out, index) || (src && !ct__idx_no_overlap(out, src))) return CT_ERR_RUNTIME;
  return ct__idx_copy_out(out, scatter_new(t, dim, index, src, value, reduce, name));
}

static const ct_scalar no_value = {CT_SCALAR_INT, {.i = 0}};

ct_tensor *ct_scatter(const ct_tensor *t, int64_t dim, const ct_tensor *index, const ct_tensor *src,
                      const ct_scatter_opts *opts) {
  CT__OP_ENTER_PTR(&scatter_op, t, t, index, src);
  if (!CT__OP_ACCEPTS(&scatter_op, scatter_op.aten, t, index, src)) return NULL;
  int reduce;
  if (!scatter_mode(opts, &reduce)) return NULL;
  return ct__own(scatter_new(t, dim, index, src, no_value, reduce, "scatter"));
}
ct_status ct_scatter_(ct_tensor *self, int64_t dim, const ct_tensor *index, const ct_tensor *src,
                      const ct_scatter_opts *opts) {
  CT__OP_ENTER_STATUS(&scatter_inplace_op, self, self, index, src);
  if (!CT__OP_ACCEPTS(&scatter_inplace_op, scatter_inplace_op.aten, self, index, src)) return ct_last_error();
  int reduce;
  if (!scatter_mode(opts, &reduce)) return CT_ERR_RUNTIME;
  return scatter_inplace(self, dim, index, src, no_value, reduce, "scatter");
}
ct_status ct_scatter_out(ct_tensor *out, const ct_tensor *t, int64_t dim, const ct_tensor *index,
                         const ct_tensor *src, const ct_scatter_opts *opts) {
  CT__OP_ENTER_STATUS(&scatter_out_op, t, out, t, index, src);
  if (!CT__OP_OUT_GRAD_OK(&scatter_out_op, out, t, index, src)) return CT_ERR_RUNTIME;
  if (!CT__OP_ACCEPTS(&scatter_out_op, scatter_out_op.aten, out, t, index, src)) return ct_last_error();
  int reduce;
  if (!scatter_mode(opts, &reduce)) return CT_ERR_RUNTIME;
  return scatter_out(out, t, dim, index, src, no_value, reduce, "scatter");
}
ct_tensor *ct_scatter_value(const ct_tensor *t, int64_t dim, const ct_tensor *index, ct_scalar value,
                            const ct_scatter_opts *opts) {
  CT__OP_ENTER_PTR(&scatter_value_op, t, t, index);
  if (!CT__OP_ACCEPTS(&scatter_value_op, scatter_value_op.aten, t, index)) return NULL;
  int reduce;
  if (!scatter_mode(opts, &reduce)) return NULL;
  return ct__own(scatter_new(t, dim, index, NULL, value, reduce, "scatter"));
}
ct_status ct_scatter_value_(ct_tensor *self, int64_t dim, const ct_tensor *index, ct_scalar value,
                            const ct_scatter_opts *opts) {
  CT__OP_ENTER_STATUS(&scatter_value_inplace_op, self, self, index);
  if (!CT__OP_ACCEPTS(&scatter_value_inplace_op, scatter_value_inplace_op.aten, self, index)) return ct_last_error();
  int reduce;
  if (!scatter_mode(opts, &reduce)) return CT_ERR_RUNTIME;
  return scatter_inplace(self, dim, index, NULL, value, reduce, "scatter");
}
ct_status ct_scatter_value_out(ct_tensor *out, const ct_tensor *t, int64_t dim, const ct_tensor *index,
                               ct_scalar value, const ct_scatter_opts *opts) {
  CT__OP_ENTER_STATUS(&scatter_value_out_op, t, out, t, index);
  if (!CT__OP_OUT_GRAD_OK(&scatter_value_out_op, out, t, index)) return CT_ERR_RUNTIME;
  if (!CT__OP_ACCEPTS(&scatter_value_out_op, scatter_value_out_op.aten, out, t, index)) return ct_last_error();
  int reduce;
  if (!scatter_mode(opts, &reduce)) return CT_ERR_RUNTIME;
  return scatter_out(out, t, dim, index, NULL, value, reduce, "scatter");
}

ct_tensor *ct_scatter_add(const ct_tensor *t, int64_t dim, const ct_tensor *index, const ct_tensor *src) {
  CT__OP_ENTER_PTR(&scatter_add_op, t, t, index, src);
  if (!CT__OP_ACCEPTS(&scatter_add_op, scatter_add_op.aten, t, index, src)) return NULL;
  return ct__own(scatter_new(t, dim, index, src, no_value, CT_REDUCTION_SUM, "scatter"));
}
ct_status ct_scatter_add_(ct_tensor *self, int64_t dim, const ct_tensor *index, const ct_tensor *src) {
  CT__OP_ENTER_STATUS(&scatter_add_inplace_op, self, self, index, src);
  if (!CT__OP_ACCEPTS(&scatter_add_inplace_op, scatter_add_inplace_op.aten, self, index, src)) return ct_last_error();
  return scatter_inplace(self, dim, index, src, no_value, CT_REDUCTION_SUM, "scatter");
}
ct_status ct_scatter_add_out(ct_tensor *out, const ct_tensor *t, int64_t dim, const ct_tensor *index,
                             const ct_tensor *src) {
  CT__OP_ENTER_STATUS(&scatter_add_out_op, t, out, t, index, src);
  if (!CT__OP_OUT_GRAD_OK(&scatter_add_out_op, out, t, index, src)) return CT_ERR_RUNTIME;
  if (!CT__OP_ACCEPTS(&scatter_add_out_op, scatter_add_out_op.aten, out, t, index, src)) return ct_last_error();
  return scatter_out(out, t, dim, index, src, no_value, CT_REDUCTION_SUM, "scatter");
}


/* ---- mean's division: target /= count (count 0 taken as 1; integers floor-divide, as div_(count, "floor")) ---- */

static inline int64_t floor_div_i64(int64_t a, int64_t b) {
  int64_t q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}
#define MEAN_INT(E, T, CT, LOAD, STORE)                                      \
  static void mean_##E(char **d, const int64_t *s, int64_t n, const void *v) { \
    (void)v;                                                                  \
    for (int64_t i = 0; i < n; i++) {                                         \
      T c = *(const T *)(d[2] + i * s[2]);                                    \
      *(T *)(d[0] + i * s[0]) = (T)floor_div_i64(*(const T *)(d[1] + i * s[1]), c ? c : 1); \
    }                                                                         \
  }                                                                           \
  CT_LOOP_PLAIN(mean_##E)
#define MEAN_FLOAT(E, T, CT, LOAD, STORE)                                    \
  static void mean_##E(char **d, const int64_t *s, int64_t n, const void *v) { \
    (void)v;                                                                  \
    for (int64_t i = 0; i < n; i++) {                                         \
      CT c = LOAD(*(const T *)(d[2] + i * s[2]));                             \
      if (c == (CT)0) c = (CT)1;                                              \
      *(T *)(d[0] + i * s[0]) = STORE((CT)(LOAD(*(const T *)(d[1] + i * s[1])) / c)); \
    }                                                                         \
  }                                                                           \
  CT_LOOP_PLAIN(mean_##E)
CT_DT_INTEGRAL(MEAN_INT)
CT_DT_FLOATING(MEAN_FLOAT)
CT_DT_COMPLEX(MEAN_FLOAT)
#define REF_MEAN(E, ...) [E] = CT_LOOP_REF(mean_##E),
static const ct_loop *const mean_loops[CT_NUM_DTYPES + 1] = {CT_DT_ALL_NUMERIC(REF_MEAN)};

ct_status ct__mean_divide(ct_tensor *target, const ct_tensor *count) {
  ct_dtype dt = (ct_dtype)target->dtype;
  if (!mean_loops[dt]) {
    ct__error(CT_ERR_RUNTIME, "\"div_floor_cpu\" not implemented for '%s'", ct__dt(dt)->scalar_name);
    return CT_ERR_RUNTIME;
  }
  ct_iter_config cfg = ct__iter_config_zero;
  cfg.n_out = 1;
  cfg.out[0] = target;
  cfg.no_resize_outputs = true;
  cfg.n_in = 2;
  cfg.in[0] = target;
  cfg.in[1] = count;
  cfg.compute_dtype = cfg.loop_out_dtype = cfg.in_dtype[0] = cfg.in_dtype[1] = dt;
  ct_iter it;
  if (ct__iter_build(&it, &cfg) != CT_OK) return ct_last_error();
  ct__iter_run(&it, mean_loops[dt], NULL);
  ct__iter_finish(&it);
  return CT_OK;
}

/* ---- scatter_reduce ---- */

static const char *const reduce_kernel_names[] = {
    "", "scatter_gather_tensor_cpu_reduce_sum", "scatter_gather_tensor_cpu_reduce_prod",
    "scatter_gather_tensor_cpu_reduce_mean", "scatter_gather_tensor_cpu_reduce_amax",
    "scatter_gather_tensor_cpu_reduce_amin"};

static bool reduction_ok(ct_reduction r) {
  if (r >= CT_REDUCTION_SUM && r <= CT_REDUCTION_AMIN) return true;
  ct__error(CT_ERR_RUNTIME, "reduce argument must be either sum, prod, mean, amax or amin.");
  return false;
}

/* scatter_reduce.two: include_self=False fills the named positions with the reduction's identity first;
   mean divides the sum by the count (self counting 1 when included; integers floor-divide). */
/* The reduction kernel's dtype dispatch: mean has no bool kernel (the others reduce bools). */
static bool reduce_kernel_ok(ct_reduction reduce, ct_dtype dt) {
  if (reduce == CT_REDUCTION_MEAN && dt == CT_BOOL) {
    ct__error(CT_ERR_RUNTIME, "\"%s\" not implemented for 'Bool'", reduce_kernel_names[reduce]);
    return false;
  }
  return reduce_loop(reduce, dt, reduce_kernel_names[reduce]) != NULL;
}

static ct_status scatter_reduce_into(ct_tensor *target, int64_t dim, const ct_tensor *index, const ct_tensor *src,
                                     ct_reduction reduce, bool include_self, bool check_first) {
  /* scatter_reduce.two's meta function is scatter_meta_impl: no kernel, so no dtype dispatch */
  if (CT__OP_ON_META(target, index, src))
    return ct__scatter_meta(target, dim, index, src, "scatter", check_first);
  ct_dtype dt = (ct_dtype)target->dtype;
  int64_t d = ct__wrap_dim(dim, target->ndim);
  if (d < 0) return CT_ERR_INDEX;
  if (!ct__scatter_checks("scatter", target, d, index, src)) return ct_last_error();
  if (check_first && !ct__check_no_internal_overlap(target)) return CT_ERR_RUNTIME;
  int64_t bad;
  bool oob = index->numel && ct__idx_find_bad(index, 0, ct__ne_size(target, d), &bad);
  /* include_self=False scatters the identity first (its bounds error), then dispatches the reduction (only
     for a non-empty index; mean's division always runs) */
  if (include_self && index->numel && !reduce_kernel_ok(reduce, dt)) return CT_ERR_RUNTIME;
  if (oob) {
    ct__error(CT_ERR_RUNTIME, "index %lld is out of bounds for dimension %lld with size %lld", (long long)bad,
              (long long)d, (long long)ct__ne_size(target, d));
    return CT_ERR_RUNTIME;
  }
  if (!include_self && index->numel && !reduce_kernel_ok(reduce, dt)) return CT_ERR_RUNTIME;
  if (!index->numel && reduce == CT_REDUCTION_MEAN && dt == CT_BOOL) {
    ct__error(CT_ERR_RUNTIME, "\"div_floor_cpu\" not implemented for 'Bool'");
    return CT_ERR_RUNTIME;
  }
  ct_status s = CT_OK;
  if (!include_self) s = ct__scatter_into(target, d, index, NULL, ct__reduction_identity(dt, reduce), 0, "scatter", false);
  if (s == CT_OK) s = ct__scatter_into(target, d, index, src, no_value, reduce, "scatter", false);
  if (s != CT_OK || reduce != CT_REDUCTION_MEAN) return s;
  /* count: ones scattered into ones (zeros without self), zeros made 1, then target /= count */
  ct_resolved_opts o = {dt, ct__tdevice(target), CT_CONTIGUOUS_FORMAT, false};
  ct_shape tshape = {target->sizes, target->ndim};
  ct_tensor *count = ct__full_with(tshape, ct_scalar_int(include_self ? 1 : 0), &o);
  ct_tensor *ones = count ? ct__full_with((ct_shape){src->sizes, src->ndim}, ct_scalar_int(1), &o) : NULL;
  if (!ones) {
    ct_release(count);
    return ct_last_error();
  }
  s = ct__scatter_into(count, d, index, ones, no_value, CT_REDUCTION_SUM, "scatter", false);
  ct_release(ones);
  if (s == CT_OK) s = ct__mean_divide(target, count);
  ct_release(count);
  return s;
}

ct_tensor *ct_scatter_reduce(const ct_tensor *t, int64_t dim, const ct_tensor *index, const ct_tensor *src,
                             ct_reduction reduce, const ct_scatter_reduce_opts *opts) {
  CT__OP_ENTER_PTR(&scatter_reduce_op, t, t, index, src);
  if (!CT__OP_ACCEPTS(&scatter_reduce_op, scatter_reduce_op.aten, t, index, src)) return NULL;
  if (!reduction_ok(reduce)) return NULL;
  ct_tensor *r = ct__idx_fresh(t, CT_CONTIGUOUS_FORMAT);
  if (r && scatter_reduce_into(r, dim, index, src, reduce, !(opts && opts->exclude_self), false) != CT_OK) {
    ct_release(r);
    r = NULL;
  }
  return ct__own(r);
}
ct_status ct_scatter_reduce_(ct_tensor *self, int64_t dim, const ct_tensor *index, const ct_tensor *src,
                             ct_reduction reduce, const ct_scatter_reduce_opts *opts) {
  CT__OP_ENTER_STATUS(&scatter_reduce_inplace_op, self, self, index, src);
  if (!CT__OP_ACCEPTS(&scatter_reduce_inplace_op, scatter_reduce_inplace_op.aten, self, index, src))
    return ct_last_error();
  if (!reduction_ok(reduce)) return CT_ERR_RUNTIME;
  ct_tensor *target = ct__idx_target_begin(self, false);
  if (!target) return ct_last_error();
  return ct__idx_target_end(
      self, target, scatter_reduce_into(target, dim, index, src, reduce, !(opts && opts->exclude_self), true));
}
ct_status ct_scatter_reduce_out(ct_tensor *out, const ct_tensor *t, int64_t dim, const ct_tensor *index,
                                const ct_tensor *src, ct_reduction reduce, const ct_scatter_reduce_opts *opts) {
  CT__OP_ENTER_STATUS(&scatter_reduce_out_op, t, out, t, index, src);
  if (!CT__OP_OUT_GRAD_OK(&scatter_reduce_out_op, out, t, index, src)) return CT_ERR_RUNTIME;
  if (!CT__OP_ACCEPTS(&scatter_reduce_out_op, scatter_reduce_out_op.aten, out, t, index, src)) return ct_last_error();
  if (!reduction_ok(reduce)) return CT_ERR_RUNTIME;
  int64_t d = ct__wrap_dim(dim, t->ndim);
  if (d < 0) return CT_ERR_INDEX;
  if (!ct__scatter_checks("scatter", t, d, index, src) || !ct__idx_out_dtype(out, t)) return ct_last_error();
  ct_tensor *r = ct__idx_fresh(t, CT_CONTIGUOUS_FORMAT);
  if (r && scatter_reduce_into(r, dim, index, src, reduce, !(opts && opts->exclude_self), false) != CT_OK) {
    ct_release(r);
    r = NULL;
  }
  return ct__idx_copy_out(out, r);
}

/* ---- take_along_dim ---- */

/* _take_along_dim_helper: self and indices broadcast to each other apart from dim; with no dim, both
   flattened by view(-1) (torch's view errors included). */
/* out: the out= form's tensor, whose dtype gather.out's meta function checks before gather's kernel checks the
   index values (NULL: the functional form). */
static ct_tensor *take_along_dim_impl(const ct_tensor *t, const ct_tensor *indices, const ct_take_along_dim_opts *o,
                                      const ct_tensor *out) {
  if (!o || o->dims.ndim == 0) {
    int64_t m1 = -1;
    ct_tensor *a = ct__view_impl(t, (ct_shape){&m1, 1});
    ct_tensor *b = a ? ct__view_impl(indices, (ct_shape){&m1, 1}) : NULL;
    ct_tensor *r = b && (!out || ct__idx_out_dtype(out, t)) ? ct__gather_impl(a, 0, b) : NULL;
    ct_release(a);
    ct_release(b);
    return r;
  }
  if (o->dims.ndim != 1) {
    ct__error(CT_ERR_TYPE, "take_along_dim(): dim must be one int or None");
    return NULL;
  }
  if (t->ndim != indices->ndim) {
    ct__error(CT_ERR_RUNTIME,
              "torch.take_along_dim(): input and indices should have the same number of dimensions, but got %lld "
              "dimensions for input, and %lld dimensions for indices",
              (long long)t->ndim, (long long)indices->ndim);
    return NULL;
  }
  if (indices->dtype != CT_INT64) {
    ct__error(CT_ERR_RUNTIME, "torch.take_along_dim(): dtype of indices should be Long but got %s",
              ct__dt((ct_dtype)indices->dtype)->scalar_name);
    return NULL;
  }
  if (t->ndim == 0) { /* the dim wraps as a scalar's, then indices.size(dim) fails */
    int64_t w = ct__wrap_dim(o->dims.data[0], 0);
    return w < 0 ? NULL : CT_ERR_NULL(CT_ERR_INDEX, "Dimension specified as %lld but tensor has no dimensions",
                                      (long long)w);
  }
  int64_t dim = ct__wrap_dim(o->dims.data[0], t->ndim);
  if (dim < 0) return NULL;
  int64_t nd = t->ndim > 0 ? t->ndim : 0, a[64], b[64], shape_i[64], shape_s[64];
  if (nd > 64) {
    ct__error(CT_ERR_NOT_IMPLEMENTED, "take_along_dim supports tensors of up to 64 dims");
    return NULL;
  }
  memcpy(a, t->sizes, (size_t)nd * sizeof(int64_t));
  if (nd) a[dim] = indices->sizes[dim];
  if (ct__broadcast_shapes(a, nd, indices->sizes, nd, shape_i) != CT_OK) return NULL;
  memcpy(b, indices->sizes, (size_t)nd * sizeof(int64_t));
  if (nd) b[dim] = t->sizes[dim];
  if (ct__broadcast_shapes(b, nd, t->sizes, nd, shape_s) != CT_OK) return NULL;
  if (out && !ct__idx_out_dtype(out, t)) return NULL;
  ct_tensor *ib = ct__expand_impl(indices, (ct_shape){shape_i, nd});
  ct_tensor *sb = ib ? ct__expand_impl(t, (ct_shape){shape_s, nd}) : NULL;
  ct_tensor *r = sb ? ct__gather_impl(sb, dim, ib) : NULL;
  ct_release(ib);
  ct_release(sb);
  return r;
}

ct_tensor *ct_take_along_dim(const ct_tensor *t, const ct_tensor *indices, const ct_take_along_dim_opts *opts) {
  CT__OP_ENTER_PTR(&take_along_dim_op, t, t, indices);
  if (!CT__OP_ACCEPTS(&take_along_dim_op, take_along_dim_op.aten, t, indices)) return NULL;
  return ct__own(take_along_dim_impl(t, indices, opts, NULL));
}
ct_status ct_take_along_dim_out(ct_tensor *out, const ct_tensor *t, const ct_tensor *indices,
                                const ct_take_along_dim_opts *opts) {
  CT__OP_ENTER_STATUS(&take_along_dim_out_op, t, out, t, indices);
  if (!ct_device_equal(ct__tdevice(out), ct__tdevice(t))) { /* checkDevice over (self, indices, out) */
    char a[32], b[32];
    ct_device_str(ct__tdevice(t), a, sizeof a);
    ct_device_str(ct__tdevice(out), b, sizeof b);
    ct__error(CT_ERR_RUNTIME, "Expected tensor to have %s Device, but got tensor with %s Device (while checking "
                              "arguments for torch.take_along_dim():)", a, b);
    return CT_ERR_RUNTIME;
  }
  if (!CT__OP_OUT_GRAD_OK(&take_along_dim_out_op, out, t, indices)) return CT_ERR_RUNTIME;
  if (!CT__OP_ACCEPTS(&take_along_dim_out_op, take_along_dim_out_op.aten, out, t, indices)) return ct_last_error();
  ct_tensor *r = take_along_dim_impl(t, indices, opts, out);
  if (!r) return ct_last_error();
  return ct__idx_copy_out(out, r);
}

ct_scalar ct__reduction_identity(ct_dtype dt, int reduce) {
  const ct_dtype_traits *tr = ct__dt(dt);
  bool fl = tr->category == CT_CAT_FLOAT;
  if (dt == CT_BOOL) return ct_scalar_bool(reduce == CT_REDUCTION_PROD || reduce == CT_REDUCTION_AMIN);
  switch (reduce) {
    case CT_REDUCTION_PROD: return ct_scalar_int(1);
    case CT_REDUCTION_AMAX: return fl ? ct_scalar_double(-INFINITY) : ct_scalar_int(ct__int_min(tr));
    case CT_REDUCTION_AMIN: return fl ? ct_scalar_double(INFINITY) : ct_scalar_int(ct__int_max(tr));
    default: return ct_scalar_int(0);
  }
}
