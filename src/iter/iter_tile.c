/* Cache-blocked iteration. In A + B.t() the input B walks the inner dim with a large stride and the next
   dim with a small one: row by row, each of its elements is a new cache line (and often a new page), at a
   stride that is often a power of two, so a row's lines crowd into a few cache sets and are evicted before
   the next rows, which need the neighbouring elements of the same lines, come by. Runs of whole rows are
   therefore done in tiles of h rows by w elements; an input of a loop declared elementwise (ct_loop.in_size)
   is first copied, transposed, into a small buffer on the stack that then serves the tile's rows from L1.

   The loop sees what it sees without tiles, so no element changes its formula: torch runs a row with such
   an input through its scalar loop (basic_loop), and the loops here pick their scalar path from the
   strides. The buffered input keeps a stride that is neither 0 nor its element size (two rows are
   interleaved, stride 2 elements), the other operands keep theirs, and the rows are cut into pieces as
   the thread split already cuts them. Iterations whose output overlaps an input otherwise than exactly are
   never tiled (their order of reads and writes would change). */
#include "iter/iter_tile.h"

/* ---- the plan ---- */
static _Atomic bool tiling_on = true;

void ct__iter_set_tiling(bool on) { atomic_store(&tiling_on, on); }

/* Stack bytes for the buffered inputs of one tile. */
#define TILE_BYTES 16384
/* Tile width when no input is buffered. */
#define TILE_W_PLAIN 64

/* Bytes of the tile buffer each buffered input gets. */
static size_t slot_bytes(int n_copy) { return (size_t)TILE_BYTES / (size_t)n_copy / 64 * 64; }

static int64_t iabs(int64_t x) { return x < 0 ? -x : x; }

/* Byte range [lo, hi) operand k covers. */
static void extent(const ct_iter *it, int k, uintptr_t *lo, uintptr_t *hi) {
  int64_t nd = it->ndim, a = 0, b = 0;
  const int64_t *s = it->strides + (size_t)k * (size_t)nd;
  for (int64_t d = 0; d < nd; d++) {
    int64_t span = (it->shape[d] - 1) * s[d];
    if (span < 0)
      a += span;
    else
      b += span;
  }
  uintptr_t base = (uintptr_t)ct__tdata(it->ops[k]);
  *lo = base + (uintptr_t)a; /* a <= 0: wraps to base - |a| */
  *hi = base + (uintptr_t)b + ct__itemsize((ct_dtype)it->ops[k]->dtype);
}

bool ct__iter_outputs_meet_inputs(const ct_iter *it, bool same_ok) {
  int64_t nd = it->ndim;
  for (int o = 0; o < it->n_out; o++) {
    uintptr_t olo, ohi;
    extent(it, o, &olo, &ohi);
    for (int k = it->n_out; k < it->n_ops; k++) {
      uintptr_t lo, hi;
      extent(it, k, &lo, &hi);
      if (hi <= olo || ohi <= lo) continue;
      bool same = ct__tdata(it->ops[k]) == ct__tdata(it->ops[o]) && it->ops[k]->dtype == it->ops[o]->dtype &&
                  memcmp(it->strides + (size_t)k * (size_t)nd, it->strides + (size_t)o * (size_t)nd,
                         (size_t)nd * sizeof(int64_t)) == 0;
      if (!same || !same_ok) return true;
    }
  }
  return false;
}

void ct__tile_plan(const ct_iter *it, const ct_loop *loop, ct_tile_plan *tp) {
  tp->w = tp->h = 0;
  tp->n_copy = 0;
  int64_t nd = it->ndim;
  if (!atomic_load_explicit(&tiling_on, memory_order_relaxed)) return;
  if (nd < 2 || it->shape[0] < 2 || it->shape[1] < 2) return;
  if (loop->whole_rows) return;
  /* inputs that jump a cache line per element in dim 0 and share lines along dim 1 */
  bool strided[CT_ITER_MAX_OPERANDS] = {0};
  int64_t s1min = 0;
  for (int k = it->n_out; k < it->n_ops; k++) {
    const int64_t *s = it->strides + (size_t)k * (size_t)nd;
    int64_t a0 = iabs(s[0]), a1 = iabs(s[1]);
    if (a0 < 64 || a1 == 0 || a1 >= 64) continue;
    strided[k] = true;
    if (s1min == 0 || a1 < s1min) s1min = a1;
  }
  if (s1min == 0 || ct__iter_outputs_meet_inputs(it, true)) return;
  /* rows: two cache lines of the strided input per tile column */
  int64_t h = 128 / s1min;
  if (h > it->shape[1]) h = it->shape[1];
  int in_size = loop->in_size;
  int64_t rows_room = (h + 1) & ~(int64_t)1, isz_max = 0;
  for (int k = it->n_out; k < it->n_ops; k++) {
    int64_t isz = (int64_t)ct__itemsize((ct_dtype)it->ops[k]->dtype);
    if (!strided[k] || in_size != isz) continue;
    tp->copy_op[tp->n_copy] = k;
    tp->copy_isz[tp->n_copy++] = isz;
    if (isz > isz_max) isz_max = isz;
  }
  int64_t w = TILE_W_PLAIN;
  if (tp->n_copy) {
    w = (int64_t)slot_bytes(tp->n_copy) / (rows_room * isz_max);
    if (w < 8) {
      tp->n_copy = 0; /* too many buffered inputs for the room: plain tiles */
      w = TILE_W_PLAIN;
    }
  }
  tp->w = w;
  tp->h = h;
}

/* ---- running ---- */
/* Copies the m x h block at src (dim 0 stride s0, dim 1 stride s1) to dst transposed: element (i, j) goes to
   element (j / 2) * 2w + 2i + j % 2, so row j is read from dst + (j / 2) * 2w + j % 2 at stride 2. */
/* Rows ahead of the copy whose lines are prefetched: each row of the block is a line (or two) of its own,
   a miss; the copy of one row is too long for the core to reach the next rows' loads by itself. */
#define PF_ROWS 8
#define DEF_TCOPY(name, T)                                                                                 \
  static void name(char *dst, const char *src, int64_t s0, int64_t s1, int64_t m, int64_t h, int64_t w) { \
    int64_t span = (h - 1) * s1;                                                                          \
    for (int64_t i = 0; i < m; i++) {                                                                     \
      const char *q = src + i * s0;                                                                       \
      __builtin_prefetch(q + PF_ROWS * s0);                                                               \
      __builtin_prefetch(q + PF_ROWS * s0 + span);                                                        \
      char *o = dst + (size_t)(2 * i) * sizeof(T);                                                        \
      int64_t j = 0;                                                                                      \
      for (; j + 1 < h; j += 2, o += (size_t)(2 * w) * sizeof(T)) {                                       \
        T v[2];                                                                                           \
        memcpy(&v[0], q + j * s1, sizeof(T));                                                             \
        memcpy(&v[1], q + (j + 1) * s1, sizeof(T));                                                       \
        memcpy(o, v, sizeof v);                                                                           \
      }                                                                                                   \
      if (j < h) memcpy(o, q + j * s1, sizeof(T));                                                        \
    }                                                                                                     \
  }
typedef struct b16 {
  uint64_t lo, hi;
} b16;
DEF_TCOPY(tcopy1, uint8_t)
DEF_TCOPY(tcopy2, uint16_t)
DEF_TCOPY(tcopy4, uint32_t)
DEF_TCOPY(tcopy8, uint64_t)
DEF_TCOPY(tcopy16, b16)

static void tcopy(int64_t isz, char *dst, const char *src, int64_t s0, int64_t s1, int64_t m, int64_t h, int64_t w) {
  switch (isz) {
    case 1: tcopy1(dst, src, s0, s1, m, h, w); break;
    case 2: tcopy2(dst, src, s0, s1, m, h, w); break;
    case 4: tcopy4(dst, src, s0, s1, m, h, w); break;
    case 8: tcopy8(dst, src, s0, s1, m, h, w); break;
    default: tcopy16(dst, src, s0, s1, m, h, w); break;
  }
}

/* rows whole rows of dim 1 from the position whose operand pointers are p, in tiles. */
static void run_tiles(const ct_iter *it, const ct_tile_plan *tp, char *const *p, int64_t rows, ct_loop_fn loop,
                      const void *ctx) {
  _Alignas(64) char buf[TILE_BYTES];
  int64_t nd = it->ndim, n0 = it->shape[0], w = tp->w;
  int n_ops = it->n_ops;
  int64_t s0[CT_ITER_MAX_OPERANDS], s1[CT_ITER_MAX_OPERANDS], st[CT_ITER_MAX_OPERANDS];
  char *slot[CT_ITER_MAX_OPERANDS] = {0};
  for (int k = 0; k < n_ops; k++) {
    s0[k] = st[k] = it->strides[(size_t)k * (size_t)nd];
    s1[k] = it->strides[(size_t)k * (size_t)nd + 1];
  }
  size_t per = tp->n_copy ? slot_bytes(tp->n_copy) : 0;
  for (int c = 0; c < tp->n_copy; c++) {
    slot[tp->copy_op[c]] = buf + (size_t)c * per;
    st[tp->copy_op[c]] = 2 * tp->copy_isz[c];
  }
  char *ptrs[CT_ITER_MAX_OPERANDS];
  for (int64_t j0 = 0; j0 < rows; j0 += tp->h) {
    int64_t h = rows - j0 < tp->h ? rows - j0 : tp->h;
    for (int64_t i0 = 0; i0 < n0; i0 += w) {
      int64_t m = n0 - i0 < w ? n0 - i0 : w;
      for (int c = 0; c < tp->n_copy; c++) {
        int k = tp->copy_op[c];
        tcopy(tp->copy_isz[c], slot[k], p[k] + i0 * s0[k] + j0 * s1[k], s0[k], s1[k], m, h, w);
      }
      for (int64_t j = 0; j < h; j++) {
        for (int k = 0; k < n_ops; k++) {
          if (slot[k])
            ptrs[k] = slot[k] + ((j >> 1) * 2 * w + (j & 1)) * (st[k] / 2);
          else
            ptrs[k] = p[k] + i0 * s0[k] + (j0 + j) * s1[k];
        }
        loop(ptrs, st, m, ctx);
      }
    }
  }
}

void ct__tile_range(const ct_iter *it, const ct_tile_plan *tp, int64_t begin, int64_t end, ct_loop_fn loop,
                    const void *ctx) {
  int64_t nd = it->ndim, n0 = it->shape[0], n1 = it->shape[1];
  char *ptrs[CT_ITER_MAX_OPERANDS];
  int64_t inner[CT_ITER_MAX_OPERANDS];
  for (int k = 0; k < it->n_ops; k++) inner[k] = it->strides[(size_t)k * (size_t)nd];
  int64_t idx[nd];
  ct__iter_unravel(it, begin, idx);
  for (int64_t pos = begin; pos < end;) {
    ct__iter_pointers(it, idx, ptrs);
    /* whole rows from here, within this dim-1 run, go in tiles; a partial row (where a thread's range
       starts or ends) goes as it is */
    int64_t rows = idx[0] == 0 ? (end - pos) / n0 : 0;
    if (rows > n1 - idx[1]) rows = n1 - idx[1];
    if (rows >= 2) {
      run_tiles(it, tp, ptrs, rows, loop, ctx);
      pos += rows * n0;
      idx[1] += rows;
    } else {
      int64_t n = n0 - idx[0];
      if (n > end - pos) n = end - pos;
      loop(ptrs, inner, n, ctx);
      pos += n;
      idx[0] += n;
    }
    ct__iter_carry(it, idx);
  }
}
