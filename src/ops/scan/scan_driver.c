/* The scan driver: the dims other than the scanned one name the lines. They are ordered and coalesced
   by the engine's geometry (iter/iter_geom.h); when the innermost of them moves faster through memory than the scanned dim, consecutive
   lines go to the kernel together (line-vector mode: row by row, contiguous and vectorizable), otherwise
   one line per call. Lines go to threads in contiguous ranges (more ranges than threads, each to
   whichever thread is free: core/parallel.h); a line is never split
   (except by an op's long-line routine, whose result is the same for every thread count), so results
   never depend on the thread count. */
#include "core/parallel.h"
#include "iter/iter.h"
#include "iter/iter_geom.h"
#include "ops/scan/scan.h"

#define CT_SCAN_INLINE_DIMS 16
/* The least width, in bytes over all operands, of the strip of columns one thread scans in line-vector
   mode (about 8 KiB of each of input and output per row). */
#define CT_SCAN_STRIP_BYTES 16384
#define N_OPS 3

typedef struct geom {
  int n_ops;
  char *base[N_OPS];
  int64_t step[N_OPS];  /* byte stride along the scanned dim */
  int64_t len;
  int64_t nb;           /* batch dims, fastest first */
  int64_t *size;        /* [nb] */
  int64_t *stride;      /* [N_OPS][nb] byte strides */
  bool vector;          /* line-vector mode over batch dim 0 */
  int64_t across;       /* bytes between consecutive lines of batch dim 0, summed over the operands */
  bool group;           /* otherwise: up to CT_SCAN_GROUP lines of batch dim 0 per call */
  int64_t lines;        /* product of the batch sizes */
} geom;

static int64_t byte_stride(const ct_tensor *t, int64_t d) {
  /* wraps: a size-0 or size-1 dim may carry any stride (only dims that move are ever used to address) */
  return ct__mul_wrap(t->strides[d], (int64_t)ct__itemsize((ct_dtype)t->dtype));
}

static int64_t abs64(int64_t v) { return v < 0 ? -v : v; }

/* The batch dims in TensorIterator's order over the operands (outputs first, as PyTorch's cumulative
   kernels add them), coalesced: the engine's geometry (iter/iter_geom.h). Lines are independent, so the
   order decides only how they are walked. */
static void arrange(geom *g, int64_t *perm, int64_t *tmp) {
  int64_t nb = g->nb;
  ct_geom bg = {nb, g->n_ops, g->size, {0}};
  for (int k = 0; k < g->n_ops; k++) bg.rows[k] = g->stride + (size_t)k * (size_t)nb;
  int64_t new_nb = ct__geom_arrange(&bg, 0, 0, perm, tmp);
  for (int k = 1; k < g->n_ops; k++)
    memmove(g->stride + (size_t)k * (size_t)new_nb, bg.rows[k], (size_t)new_nb * sizeof(int64_t));
  g->nb = new_nb;
}

/* Scans lines [begin, end) of the batch index space (dim 0 fastest); ix has room for nb indices. */
static void run_range(const geom *g, const ct_scan_plan *p, int64_t begin, int64_t end, int64_t *ix) {
  int64_t nb = g->nb;
  ct__geom_unravel(nb, g->size, begin, ix);
  int64_t lstep[N_OPS];
  for (int k = 0; k < g->n_ops; k++) lstep[k] = nb ? g->stride[(size_t)k * (size_t)nb] : 0;
  for (int64_t pos = begin; pos < end;) {
    int64_t n = 1;
    if (g->vector || g->group) {
      n = g->size[0] - ix[0];
      if (g->group && n > CT_SCAN_GROUP) n = CT_SCAN_GROUP;
      if (n > end - pos) n = end - pos;
    }
    char *data[N_OPS];
    ct__geom_pointers(nb, g->n_ops, g->stride, g->base, ix, data);
    p->kernel(data, g->step, lstep, g->len, n, p->ctx);
    pos += n;
    if (nb == 0) break;
    ix[0] += n;
    ct__geom_carry(nb, g->size, ix);
  }
}

/* Line ranges for ct__parallel_chunks; each thread has its own index scratch. */
typedef struct par_lines {
  const geom *g;
  const ct_scan_plan *p;
  int64_t *ixs; /* [threads][nd] */
  int64_t nd, ranges;
} par_lines;

static void par_range(void *v, int64_t i, int tid) {
  const par_lines *pl = v;
  int64_t lines = pl->g->lines;
  run_range(pl->g, pl->p, lines * i / pl->ranges, lines * (i + 1) / pl->ranges, pl->ixs + tid * pl->nd);
}

ct_status ct__scan_prepare(ct_scan_plan *p) {
  int64_t nd = p->in->ndim;
  int nt = ct__parallel_threads(p->in->numel); /* results: the same */
  p->threads = nt;
  p->work = NULL;
  /* sizes, strides, the geometry builder's scratch and one line index per thread: on the stack unless the
     rank or team is large */
  if (nd > CT_SCAN_INLINE_DIMS || nt > 2) {
    p->work = ct__malloc((size_t)(N_OPS + 3 + nt) * (size_t)nd * sizeof(int64_t));
    if (!p->work) return CT_ERR_OUT_OF_MEMORY;
  }
  return CT_OK;
}

void ct__scan_release(ct_scan_plan *p) {
  ct__free(p->work);
  p->work = NULL;
}

void ct__scan_run(const ct_scan_plan *p) {
  const ct_tensor *in = p->in;
  int64_t nd = in->ndim;
  geom g = {.n_ops = p->n_out + 1, .len = in->sizes[p->dim]};
  const ct_tensor *ops[N_OPS] = {p->out[0], p->n_out > 1 ? p->out[1] : in, in};
  int nt = p->ordered ? 1 : p->threads;
  int64_t buf[(N_OPS + 3 + 2) * CT_SCAN_INLINE_DIMS];
  int64_t *mem = p->work ? p->work : buf;
  g.size = mem;
  g.stride = mem + nd;
  int64_t *scratch = mem + (N_OPS + 1) * nd, *ixs = scratch + 2 * nd;
  for (int k = 0; k < g.n_ops; k++) {
    g.base[k] = ct__tdata(ops[k]);
    g.step[k] = byte_stride(ops[k], p->dim);
  }
  /* batch dims: every dim but the scanned one, size-1 dims dropped; PyTorch's order when ordered */
  int64_t nb = 0;
  for (int64_t d = 0; d < nd; d++)
    if (d != p->dim && in->sizes[d] != 1) nb++;
  g.nb = nb;
  int64_t b = 0;
  for (int64_t d = 0; d < nd; d++) {
    if (d == p->dim || in->sizes[d] == 1) continue;
    g.size[b] = in->sizes[d];
    for (int k = 0; k < g.n_ops; k++) g.stride[(size_t)k * (size_t)nb + (size_t)b] = byte_stride(ops[k], d);
    b++;
  }
  if (!p->ordered) {
    arrange(&g, scratch, scratch + nd);
    if (g.nb > 0) {
      int64_t across = 0, along = 0;
      for (int k = 0; k < g.n_ops; k++) {
        across += abs64(g.stride[(size_t)k * (size_t)g.nb]);
        along += abs64(g.step[k]);
      }
      g.vector = across < along;
      g.across = across;
      g.group = !g.vector && g.len < CT_SCAN_LONG_LINE;
    }
  }
  g.lines = 1;
  for (int64_t d = 0; d < g.nb; d++) g.lines *= g.size[d];

  if (p->long_line && !g.vector && nt > 1 && g.len >= CT_SCAN_LONG_LINE && g.lines < nt) {
    /* few long lines: each one gets every thread */
    for (int64_t l = 0; l < g.lines; l++) {
      char *data[N_OPS];
      ct__geom_unravel(g.nb, g.size, l, ixs);
      ct__geom_pointers(g.nb, g.n_ops, g.stride, g.base, ixs, data);
      p->long_line(data, g.step, g.len, p->ctx, nt);
    }
  } else {
    if (nt > g.lines) nt = (int)g.lines;
    if (nt <= 1) {
      run_range(&g, p, 0, g.lines, ixs);
    } else {
      par_lines pl = {&g, p, ixs, nd, ct__parallel_nchunks(in->numel, nt)};
      if (g.vector) {
        /* A range of lines is a strip of columns walked down every row: below CT_SCAN_STRIP_BYTES across a
           row, each row's piece is a new page for the prefetcher (16 float32 columns of a 4096^2 cumsum
           along dim 0 made 2 threads 1.2x slower than 1). */
        int64_t most = g.lines * g.across / CT_SCAN_STRIP_BYTES;
        if (pl.ranges > most) pl.ranges = most > nt ? most : nt;
      }
      if (pl.ranges > g.lines) pl.ranges = g.lines;
      ct__parallel_chunks(pl.ranges, nt, par_range, &pl);
    }
  }
}
