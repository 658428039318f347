/* The strided N-d copy engine (broadcast + cast) behind copy_, clone, to, contiguous and fill, and
   the stride geometry it shares with the *_like factories. */
#include <stdlib.h>

#include "core/cast.h"
#include "core/layout_rules.h"
#include "core/parallel.h"
#include "kernels/cpu/torch_compat.h"

/* ---- the N-d strided loop ---- */

typedef struct {
  int64_t size, ds, ss; /* size and byte strides of one dim */
} copy_dim;

static int64_t iabs64(int64_t v) { return v < 0 ? -v : v; }

#define CT_TILE 64
/* Dims may_overlap_itself sorts on the stack. */
#define SORT_DIMS_MAX 64

/* A 2-D block (rows: outer dim, columns: inner dim) copied tile by tile. */
/* One row: convert, then apply the math bits in the destination dtype (torch's copy_kernel order). */
static void copy_row(char *dst, int64_t ds, ct_dtype dt, const char *src, int64_t ss, ct_dtype st, int64_t n,
                     unsigned bits) {
  ct__cast_strided(dst, ds, dt, src, ss, st, n);
  if (CT_UNLIKELY(bits != 0)) ct__math_bits_apply_row(dst, ds, dt, n, bits);
}

static void copy_tiles(char *dst, ct_dtype dt, const char *src, ct_dtype st, copy_dim rows, copy_dim cols,
                       unsigned bits) {
  for (int64_t i0 = 0; i0 < rows.size; i0 += CT_TILE)
    for (int64_t j0 = 0; j0 < cols.size; j0 += CT_TILE) {
      int64_t i1 = i0 + CT_TILE < rows.size ? i0 + CT_TILE : rows.size;
      int64_t nj = cols.size - j0 < CT_TILE ? cols.size - j0 : CT_TILE;
      for (int64_t i = i0; i < i1; i++)
        copy_row(dst + i * rows.ds + j0 * cols.ds, cols.ds, dt, src + i * rows.ss + j0 * cols.ss, cols.ss, st, nj, bits);
    }
}

/* The walk of a copy, dims ordered and merged (copy_nd): rows (the positions of the outer dims) times
   `per_row` units each, a unit being a piece of the last dim (or, for a tiled copy, a band of CT_TILE rows
   of the last two dims). Units are what the pool shares out: any range of them can start anywhere. */
typedef struct copy_walk {
  char *dst;
  const char *src;
  ct_dtype dt, st;
  unsigned bits;
  const copy_dim *d;
  int64_t m, outer; /* dims, and how many of them are outer (walked by the odometer) */
  bool tile;
  int64_t per_row, units;
} copy_walk;

/* Where piece k of per_row pieces of an n-element row starts: a multiple of 64 elements, so the vector
   blocks of a conversion (16 elements for float64 -> bfloat16) fall where they fall in one call. */
static int64_t piece_start(int64_t n, int64_t k, int64_t per_row) {
  if (k >= per_row) return n;
  return n * k / per_row / 64 * 64;
}

static void copy_units(const copy_walk *w, int64_t ub, int64_t ue) {
  const copy_dim *d = w->d;
  int64_t idx_small[8], outer = w->outer;
  int64_t *idx = outer <= 8 ? idx_small : ct__calloc((size_t)outer, sizeof *idx);
  if (!idx) return; /* not reached: copy_nd allocates one first when dims are this many */
  char *dp = w->dst;
  const char *sp = w->src;
  int64_t r = ub / w->per_row, k = ub % w->per_row;
  for (int64_t j = outer - 1; j >= 0; j--) { /* the odometer at row r */
    idx[j] = r % d[j].size;
    r /= d[j].size;
    dp += idx[j] * d[j].ds;
    sp += idx[j] * d[j].ss;
  }
  for (int64_t u = ub; u < ue; u++) {
    if (w->tile) {
      copy_dim rows = d[w->m - 2];
      int64_t i0 = k * CT_TILE;
      rows.size = rows.size - i0 < CT_TILE ? rows.size - i0 : CT_TILE;
      copy_tiles(dp + i0 * rows.ds, w->dt, sp + i0 * rows.ss, w->st, rows, d[w->m - 1], w->bits);
    } else {
      copy_dim c = d[w->m - 1];
      int64_t b = piece_start(c.size, k, w->per_row), e = piece_start(c.size, k + 1, w->per_row);
      if (b < e) copy_row(dp + b * c.ds, c.ds, w->dt, sp + b * c.ss, c.ss, w->st, e - b, w->bits);
    }
    if (++k < w->per_row) continue;
    k = 0;
    /* odometer over the outer dims, innermost of them first */
    for (int64_t j = outer - 1; j >= 0; j--) {
      dp += d[j].ds;
      sp += d[j].ss;
      if (++idx[j] < d[j].size) break;
      dp -= d[j].ds * d[j].size;
      sp -= d[j].ss * d[j].size;
      idx[j] = 0;
    }
  }
  if (idx != idx_small) ct__free(idx);
}

typedef struct copy_job {
  const copy_walk *w;
  int64_t chunks;
} copy_job;

static void copy_chunk(void *ctx, int64_t c, int tid) {
  (void)tid;
  const copy_job *j = ctx;
  int64_t n = j->w->units;
  copy_units(j->w, n * c / j->chunks, n * (c + 1) / j->chunks);
}

/* dst[i] = bits(convert(src[i])) over an N-d index space given in byte strides. Dims are ordered by the
   destination's strides (so writes stream through memory), then neighbours that are contiguous for
   both sides are merged: most copies become one long 1-D loop. Large copies are cut into units shared
   out over the pool in chunks (ct__parallel_chunks: a late worker delays only the chunk it holds); every
   element is converted by the same code whichever thread runs it. */
static ct_status copy_nd(char *dst, ct_dtype dt, const char *src, ct_dtype st, int64_t ndim, const int64_t *sizes,
                         const int64_t *dstrides, const int64_t *sstrides, unsigned bits) {
  copy_dim small[8];
  copy_dim *d = ndim <= 8 ? small : ct__malloc((size_t)ndim * sizeof *d);
  if (!d) {
    return CT_ERR_OUT_OF_MEMORY; /* ct__malloc recorded it */
  }
  ct_status status = CT_OK;
  int64_t n = 0;
  for (int64_t i = 0; i < ndim; i++) {
    if (sizes[i] == 0) goto done;
    if (sizes[i] != 1) d[n++] = (copy_dim){sizes[i], dstrides[i], sstrides[i]};
  }
  /* stable insertion sort, outermost (largest destination stride) first */
  for (int64_t i = 1; i < n; i++)
    for (int64_t j = i; j > 0; j--) {
      copy_dim a = d[j - 1], b = d[j];
      bool swap = iabs64(b.ds) > iabs64(a.ds) || (iabs64(b.ds) == iabs64(a.ds) && iabs64(b.ss) > iabs64(a.ss));
      if (!swap) break;
      d[j - 1] = b;
      d[j] = a;
    }
  /* merge an outer dim into the inner one when the pair is one run on both sides */
  int64_t m = 0;
  for (int64_t i = 0; i < n; i++) {
    if (m > 0 && d[m - 1].ds == ct__mul_wrap(d[i].ds, d[i].size) && d[m - 1].ss == ct__mul_wrap(d[i].ss, d[i].size)) {
      d[m - 1] = (copy_dim){d[m - 1].size * d[i].size, d[i].ds, d[i].ss};
    } else {
      d[m++] = d[i];
    }
  }
  if (m == 0) {
    copy_row(dst, 0, dt, src, 0, st, 1, bits);
    goto done;
  }
  {
    /* When the source runs the other way (a transpose), copy the last two dims in square tiles so both
       sides stay in cache. */
    bool tile = m >= 2 && iabs64(d[m - 1].ss) > iabs64(d[m - 2].ss) && d[m - 1].size >= CT_TILE &&
                d[m - 2].size >= CT_TILE;
    copy_walk w = {dst, src, dt, st, bits, d, m, tile ? m - 2 : m - 1, tile, 1, 0};
    int64_t rows = 1, numel = 1;
    for (int64_t i = 0; i < w.outer; i++) rows *= d[i].size;
    for (int64_t i = 0; i < m; i++) numel *= d[i].size;
    if (w.outer > 8) { /* copy_units' odometer: fail here, before anything is written, if it cannot */
      int64_t *probe = ct__calloc((size_t)w.outer, sizeof *probe);
      if (!probe) {
        status = CT_ERR_OUT_OF_MEMORY;
        goto done;
      }
      ct__free(probe);
    }
    int nt = ct__parallel_threads(numel);
    int64_t chunks = nt > 1 ? ct__parallel_nchunks(numel, nt) : 1;
    if (tile) {
      w.per_row = (d[m - 2].size + CT_TILE - 1) / CT_TILE;
    } else if (rows < chunks) { /* few long rows: pieces of at least 64 elements */
      int64_t most = d[m - 1].size / 64 > 0 ? d[m - 1].size / 64 : 1;
      w.per_row = (chunks + rows - 1) / rows < most ? (chunks + rows - 1) / rows : most;
    }
    w.units = rows * w.per_row;
    if (chunks > w.units) chunks = w.units;
    if (chunks <= 1) {
      copy_units(&w, 0, w.units);
    } else {
      copy_job j = {&w, chunks};
      ct__parallel_chunks(chunks, nt, copy_chunk, &j);
    }
  }
done:
  if (d != small) ct__free(d);
  return status;
}

/* ---- copy_ ---- */

/* Byte range [lo, hi) of the storage that t's elements can touch. */
static void byte_range(const ct_tensor *t, int64_t *lo, int64_t *hi) {
  int64_t isz = (int64_t)ct__itemsize((ct_dtype)t->dtype), l = t->offset, h = t->offset;
  for (int64_t i = 0; i < t->ndim; i++) {
    int64_t span = (t->sizes[i] - 1) * t->strides[i];
    if (span < 0) l += span;
    else h += span;
  }
  *lo = l * isz;
  *hi = (h + 1) * isz;
}

static bool may_share_memory(const ct_tensor *a, const ct_tensor *b) {
  if (a->storage != b->storage || a->numel == 0 || b->numel == 0) return false;
  int64_t al, ah, bl, bh;
  byte_range(a, &al, &ah);
  byte_range(b, &bl, &bh);
  return al < bh && bl < ah;
}

/* Whether two of t's elements may share an address: its dims, sorted by stride, do not each step past the
   span of the ones inside them. (A dense t, or a stride 0, was dealt with by the internal-overlap check.) */
static bool may_overlap_itself(const ct_tensor *t) {
  if (ct__is_non_overlapping_and_dense(t)) return false;
  int64_t st[SORT_DIMS_MAX], sz[SORT_DIMS_MAX], n = 0;
  for (int64_t i = 0; i < t->ndim; i++) {
    if (t->sizes[i] == 1) continue;
    if (n == SORT_DIMS_MAX) return true; /* too many to sort here: take the ordered walk */
    int64_t s = iabs64(t->strides[i]), k = n++;
    for (; k > 0 && st[k - 1] > s; k--) st[k] = st[k - 1], sz[k] = sz[k - 1];
    st[k] = s, sz[k] = t->sizes[i];
  }
  for (int64_t k = 1; k < n; k++)
    if (st[k] < st[k - 1] * sz[k - 1]) return true;
  return false;
}

/* TensorIterator's broadcast of src against dst's shape, with its two messages. */
static bool check_broadcast(const ct_tensor *dst, const ct_tensor *src) {
  int64_t nd = dst->ndim > src->ndim ? dst->ndim : src->ndim;
  bool same = dst->ndim == nd;
  for (int64_t i = nd - 1; i >= 0; i--) {
    int64_t off = nd - 1 - i, ia = dst->ndim - 1 - off, ib = src->ndim - 1 - off;
    int64_t a = ia >= 0 ? dst->sizes[ia] : 1, b = ib >= 0 ? src->sizes[ib] : 1;
    if (a != b && a != 1 && b != 1) {
      ct__error(CT_ERR_RUNTIME,
                "The size of tensor a (%lld) must match the size of tensor b (%lld) at non-singleton dimension %lld",
                (long long)a, (long long)b, (long long)i);
      return false;
    }
    if ((a == 1 ? b : a) != a) same = false;
  }
  if (same) return true;
  /* the broadcast shape is bigger than dst: rebuild it for the message */
  int64_t small[16];
  int64_t *shape = nd <= 16 ? small : ct__malloc((size_t)nd * sizeof *shape);
  if (!shape) return false;
  for (int64_t i = 0; i < nd; i++) {
    int64_t ia = i - (nd - dst->ndim), ib = i - (nd - src->ndim);
    int64_t a = ia >= 0 ? dst->sizes[ia] : 1, b = ib >= 0 ? src->sizes[ib] : 1;
    shape[i] = a == 1 ? b : a;
  }
  char out[1024], bc[1024];
  ct__fmt_int_list(out, sizeof out, dst->ndim, dst->sizes);
  ct__fmt_int_list(bc, sizeof bc, nd, shape);
  if (shape != small) ct__free(shape);
  ct__error(CT_ERR_RUNTIME, "output with shape %s doesn't match the broadcast shape %s", out, bc);
  return false;
}

/* ---- copies whose source the destination overwrites ---- */

/* Elements per vector step of torch's AVX2 copy loop (cpu_kernel_vec: two Vectorized<T> of 32 bytes). */
#define TORCH_COPY_BLOCK_BYTES 64

/* One row of an ordered copy, as torch's copy kernel walks it: a same-dtype row whose operands are
   contiguous, or whose source is one broadcast element, goes in whole blocks of two vectors (both loaded,
   then both stored; a broadcast source is read once, when the row starts), the rest element by element,
   each read just before it is written. A cast row goes element by element. */
/* Whether a write of the row can change what a later read of the row sees: some element written at step
   i is read at a step j > i. (Writes that land on each other do not: a row's destination has no stride 0.) */
static bool row_hazard(const char *dst, int64_t ds, int64_t dsz, const char *src, int64_t ss, int64_t ssz,
                       int64_t n) {
  int64_t dlo = 0, dhi = (n - 1) * ds, slo = 0, shi = (n - 1) * ss;
  if (dhi < dlo) dlo = dhi, dhi = 0;
  if (shi < slo) slo = shi, shi = 0;
  if (dst + dhi + dsz <= src + slo || src + shi + ssz <= dst + dlo) return false; /* apart */
  if (ds != ss || ds == 0 || dsz != ssz) return true;
  int64_t diff = (int64_t)(dst - src), r = diff % ds, k = diff / ds;
  if (r == 0) return k > 0 && k < n; /* element i is written where step i + k reads */
  r = r < 0 ? -r : r;
  return r < dsz || iabs64(ds) - r < dsz; /* elements partly on each other */
}

static void ordered_row(char *dst, int64_t ds, ct_dtype dt, const char *src, int64_t ss, ct_dtype st,
                        int64_t n, unsigned bits) {
  int64_t isz = (int64_t)ct__itemsize(dt), vec = 0;
  if (!row_hazard(dst, ds, isz, src, ss, (int64_t)ct__itemsize(st),
                  n)) { /* any order reads the same values */
    copy_row(dst, ds, dt, src, ss, st, n, bits);
    return;
  }
  unsigned char block[TORCH_COPY_BLOCK_BYTES];
  if (dt == st) {
    const int64_t s[2] = {ds, ss}, sz[2] = {isz, isz};
    vec = ct__torch_vec_prefix(s, 2, sz, n, TORCH_COPY_BLOCK_BYTES / isz);
  }
  if (vec > 0 && ss == 0) {
    memcpy(block, src, (size_t)isz);
    for (int64_t i = 0; i < vec; i++) copy_row(dst + i * isz, isz, dt, (const char *)block, 0, dt, 1, bits);
  } else {
    for (int64_t i = 0; i < vec; i += TORCH_COPY_BLOCK_BYTES / isz) {
      memcpy(block, src + i * isz, TORCH_COPY_BLOCK_BYTES);
      copy_row(dst + i * isz, isz, dt, (const char *)block, isz, dt, TORCH_COPY_BLOCK_BYTES / isz, bits);
    }
  }
  for (int64_t i = vec; i < n; i++) copy_row(dst + i * ds, 0, dt, src + i * ss, 0, st, 1, bits);
}

/* A copy whose source shares memory with its destination, or whose destination writes some addresses more
   than once, in ways torch does not classify (strided views of one buffer: torch checks only dense
   operands for overlap): torch then copies in its iterator's order, so that an element written early is
   what a later read of the same memory sees, and the last write to an address stays. The
   same walk here: TensorIterator's dim order and coalescing, rows in order, each row as ordered_row. One
   thread (torch's split of a large copy would race). dims: nd byte-stride pairs broadcast to dst's shape. */
static ct_status copy_ordered(ct_tensor *dst, const ct_tensor *src, int64_t *ds, int64_t *ss, unsigned bits) {
  int64_t nd = dst->ndim;
  int64_t small[32];
  int64_t *buf = 4 * nd <= 32 ? small : ct__malloc(4 * (size_t)(nd ? nd : 1) * sizeof *buf);
  if (!buf) return CT_ERR_OUT_OF_MEMORY;
  int64_t *shape = buf, *perm = buf + nd, *tmp = buf + 2 * nd, *idx = buf + 3 * nd;
  memcpy(shape, dst->sizes, (size_t)nd * sizeof *shape);
  int64_t *rows[2] = {ds, ss};
  ct__reorder_dims(rows, 2, 0, shape, nd, perm);
  for (int r = 0; r < 3; r++) {
    int64_t *v = r == 0 ? shape : rows[r - 1];
    for (int64_t i = 0; i < nd; i++) tmp[i] = v[perm[i]];
    memcpy(v, tmp, (size_t)nd * sizeof *v);
  }
  nd = ct__coalesce_dims(nd, shape, rows, 2);
  ct_dtype dt = (ct_dtype)dst->dtype, st = (ct_dtype)src->dtype;
  char *d = ct__tdata(dst);
  const char *s = ct__tdata(src);
  if (nd == 0) {
    ordered_row(d, 0, dt, s, 0, st, 1, bits);
  } else {
    int64_t nrows = 1;
    for (int64_t i = 1; i < nd; i++) nrows *= shape[i], idx[i] = 0;
    for (int64_t r = 0; r < nrows; r++) {
      int64_t od = 0, os = 0;
      for (int64_t i = 1; i < nd; i++) od += idx[i] * ds[i], os += idx[i] * ss[i];
      ordered_row(d + od, ds[0], dt, s + os, ss[0], st, shape[0], bits);
      for (int64_t i = 1; i < nd && ++idx[i] == shape[i]; i++) idx[i] = 0;
    }
  }
  if (buf != small) ct__free(buf);
  return CT_OK;
}

/* Copies src (broadcast, already validated) into dst, applying the math bits `bits`; both hold data. ordered:
   src shares memory with dst (copy_ordered's walk). */
static ct_status copy_data(ct_tensor *dst, const ct_tensor *src, unsigned bits, bool ordered) {
  int64_t nd = dst->ndim, lead = dst->ndim - src->ndim;
  if (dst->numel == 1 && nd > 0 && lead == 0) {
    /* One element, same shape: TensorIterator's contiguous fast setup (size-1 dims are contiguous whatever
       their strides) gives the loop element strides, so the kernel takes its vector path (float ->
       bfloat16 NaN is 0xFFFF); a 0-dim copy gets zero strides, the scalar path. */
    copy_row(ct__tdata(dst), (int64_t)ct__itemsize((ct_dtype)dst->dtype), (ct_dtype)dst->dtype, ct__tdata(src),
             (int64_t)ct__itemsize((ct_dtype)src->dtype), (ct_dtype)src->dtype, 1, bits);
    return CT_OK;
  }
  int64_t small[16];
  int64_t *buf = 2 * nd <= 16 ? small : ct__malloc(2 * (size_t)nd * sizeof *buf);
  if (!buf) {
    return CT_ERR_OUT_OF_MEMORY; /* ct__malloc recorded it */
  }
  int64_t *ds = buf, *ss = buf + nd;
  int64_t disz = (int64_t)ct__itemsize((ct_dtype)dst->dtype), sisz = (int64_t)ct__itemsize((ct_dtype)src->dtype);
  for (int64_t i = 0; i < nd; i++) {
    int64_t j = i - lead;
    /* wrapping: a size-1 dim may carry any stride (copy_nd drops it unread) */
    ds[i] = ct__mul_wrap(dst->strides[i], disz);
    ss[i] = (j < 0 || src->sizes[j] != dst->sizes[i]) ? 0 : ct__mul_wrap(src->strides[j], sisz);
  }
  ct_status st = ordered ? copy_ordered(dst, src, ds, ss, bits)
                         : copy_nd(ct__tdata(dst), (ct_dtype)dst->dtype, ct__tdata(src), (ct_dtype)src->dtype,
                                   nd, dst->sizes, ds, ss, bits);
  if (buf != small) ct__free(buf);
  return st;
}

ct_status ct__copy_into(ct_tensor *dst, const ct_tensor *src) {
  if (dst == src || dst->device_type == CT_META) return CT_OK; /* copies into meta are ignored */
  if (src->device_type == CT_META) {
    ct__error(CT_ERR_NOT_IMPLEMENTED, "Cannot copy out of meta tensor; no data!");
    return CT_ERR_NOT_IMPLEMENTED;
  }
  if (!ct__check_in_storage(dst) || !ct__check_in_storage(src)) return CT_ERR_RUNTIME;
  /* views of the same data with the same math bits: nothing to do (with other bits: copy_ applies them
     in place, as torch's is_same_data test compares is_conj and is_neg too). torch builds its
     TensorIterator first: an expanded dst is refused even then (x.copy_(x.view(x.shape))). */
  unsigned bits = ct__math_bits_of_copy(dst, src);
  if (!ct__check_no_internal_overlap(dst)) return CT_ERR_RUNTIME;
  if (ct__same_view(dst, src) && dst->dtype == src->dtype && ct__math_bits(dst) == ct__math_bits(src))
    return CT_OK;
  if (!ct__check_no_partial_overlap(dst, src)) return CT_ERR_RUNTIME;
  if (!check_broadcast(dst, src)) return ct_last_error();
  if (dst->numel == 0) return CT_OK;
  return copy_data(dst, src, bits, may_share_memory(dst, src) || may_overlap_itself(dst));
}

ct_status ct__fill(ct_tensor *t, ct_scalar v) {
  if (t->device_type == CT_META || t->numel == 0) return CT_OK;
  if (!ct__check_in_storage(t)) return CT_ERR_RUNTIME;
  unsigned char elem[16];
  /* a tensor with math bits holds bits(v), so that it reads v (torch's fill_ through the fallback) */
  ct__store_scalar((ct_dtype)t->dtype, elem, v);
  ct__math_bits_apply_row((char *)elem, 0, (ct_dtype)t->dtype, 1, ct__math_bits(t));
  int64_t nd = t->ndim, isz = (int64_t)ct__itemsize((ct_dtype)t->dtype);
  int64_t small[16];
  int64_t *buf = 2 * nd <= 16 ? small : ct__malloc(2 * (size_t)nd * sizeof *buf);
  if (!buf) return CT_ERR_OUT_OF_MEMORY;
  int64_t *ds = buf, *ss = buf + nd;
  for (int64_t i = 0; i < nd; i++) {
    ds[i] = ct__mul_wrap(t->strides[i], isz);
    ss[i] = 0; /* every destination element reads the one source element */
  }
  ct_status st = copy_nd(ct__tdata(t), (ct_dtype)t->dtype, (const char *)elem, (ct_dtype)t->dtype, nd, t->sizes, ds, ss, 0);
  if (buf != small) ct__free(buf);
  return st;
}
