/* The reduction driver: geometry (kept and reduced dims, ordered and coalesced), then chunked work items
   run over threads. See iter_reduce.h for the contract that makes results independent of the thread count. */
#include "core/parallel.h"
#include "iter/iter.h"
#include "iter/iter_reduce.h"

#include "core/layout_rules.h"
#include "iter/iter_geom.h"

#define RED_DIMS 64
/* Accumulator bytes a vertical run holds at once (the run's columns stay in L1). */
#define RUN_BYTES 32768
#define RUN_COLS_MAX 4096
/* Work items per thread that a reduction aims at, and the least input row length (bytes) a vertical
   run keeps for that. */
#define ITEMS_PER_THREAD 4
#define OUTER_RUN_BYTES 4096

typedef struct geom {
  int nk, nr, n_out;
  bool has_aux;
  bool outer; /* a run of outputs is fed row by row (the kernel's outer loop), else each on its own */
  int64_t M, N;
  int64_t out_isz; /* the first output's item size */
  char *in, *out[CT_RED_MAX_OUT];
  const char *aux;
  int64_t ksz[RED_DIMS], kin[RED_DIMS], kout[CT_RED_MAX_OUT][RED_DIMS], kaux[RED_DIMS];
  int64_t rsz[RED_DIMS], rin[RED_DIMS];
} geom;

static int64_t abs64(int64_t v) { return v < 0 ? -v : v; }

/* Byte strides of a result-shaped tensor over the input's dims, as PyTorch's iterator sees them: 0 on
   reduced dims, except that with keepdim it gets the result itself (review_reduce_result), whose size-1
   dim broadcasts (stride 0) only where the input's size is not 1 too. A reduced dim of size 1 with a
   stride is not a reduced dim to TensorIterator::reorder_dimensions, which changes the order of the
   others (a float16 sum rounds differently). */
static void result_strides(const ct_tensor *r, const ct_red_config *cfg, int64_t nd, int64_t *out) {
  int64_t isz = (int64_t)ct__itemsize((ct_dtype)r->dtype);
  int64_t j = 0;
  for (int64_t d = 0; d < nd; d++) {
    bool red = (cfg->mask >> d) & 1u;
    if (cfg->keepdim) {
      out[d] = red && cfg->in->sizes[d] != 1 ? 0 : ct__mul_wrap(r->strides[d], isz);
    } else {
      out[d] = red ? 0 : ct__mul_wrap(r->strides[j++], isz);
    }
  }
}

/* The kept dims' geometry as the engine's builder sees it: the input's row first, so that it decides the
   order (the outputs' rows break its ties). */
static ct_geom kept_geom(geom *g) {
  ct_geom kg = {g->nk, 0, g->ksz, {g->kin}};
  kg.n_rows = 1;
  for (int o = 0; o < g->n_out; o++) kg.rows[kg.n_rows++] = g->kout[o];
  if (g->has_aux) kg.rows[kg.n_rows++] = g->kaux;
  return kg;
}

/* Kept dims by input stride, fastest first, coalesced: the input read in memory order. Values do not
   depend on it, except for kernels that reproduce PyTorch's vertical loops (ct_red_kernel.torch_loops). */
static void sort_kept_by_input(geom *g) {
  int64_t perm[RED_DIMS], tmp[RED_DIMS];
  ct_geom kg = kept_geom(g);
  g->nk = (int)ct__geom_arrange(&kg, 0, 0, perm, tmp);
}

/* Whether the fastest kept dim steps through the input faster than the reduced one: then a run of
   outputs is fed row by row (PyTorch's outer loops), else each output on its own. */
static bool vertical(const geom *g) { return g->nk > 0 && g->nr > 0 && abs64(g->kin[0]) < abs64(g->rin[0]); }

static void setup(const ct_red_config *cfg, bool torch_loops, geom *g) {
  const ct_tensor *t = cfg->in;
  int64_t nd = t->ndim;
  int64_t isz = (int64_t)ct__itemsize((ct_dtype)t->dtype);
  int64_t ostr[CT_RED_MAX_OUT][RED_DIMS], astr[RED_DIMS];
  g->n_out = cfg->n_out;
  g->out_isz = cfg->n_out > 0 && cfg->out[0] ? (int64_t)ct__itemsize((ct_dtype)cfg->out[0]->dtype) : 0;
  g->has_aux = cfg->aux != NULL;
  for (int o = 0; o < cfg->n_out; o++) result_strides(cfg->out[o], cfg, nd, ostr[o]);
  if (cfg->aux) result_strides(cfg->aux, cfg, nd, astr);
  g->nk = g->nr = 0;
  g->M = g->N = 1;
  /* every dim in PyTorch's order for a reduction (iter_geom.h: the outputs, with stride 0 on reduced
     dims, then the input; reduced dims go first), unless the reduction tracks the logical (flat) index.
     Reduced dims are walked in this order, so reductions that accumulate in a lossy type (float16 sums,
     norms, products) take PyTorch's element order. */
  int64_t shape[RED_DIMS], in_bytes[RED_DIMS], perm[RED_DIMS], tmp[RED_DIMS];
  ct_geom pg = {nd, cfg->n_out + 1, shape, {0}};
  for (int o = 0; o < cfg->n_out; o++) pg.rows[o] = ostr[o];
  pg.rows[cfg->n_out] = in_bytes;
  for (int64_t d = 0; d < nd; d++) {
    shape[d] = t->sizes[d];
    in_bytes[d] = ct__mul_wrap(t->strides[d], isz);
  }
  ct__geom_arrange(&pg, cfg->n_out, (cfg->ordered ? CT_GEOM_LOGICAL : 0) | CT_GEOM_NO_COALESCE, perm, tmp);
  for (int64_t i = 0; i < nd; i++) {
    if (!((cfg->mask >> perm[i]) & 1u)) continue;
    g->N = ct__mul_wrap(g->N, shape[i]); /* wraps only when M is 0: nothing runs then */
    if (shape[i] == 1) continue;
    g->rsz[g->nr] = shape[i];
    g->rin[g->nr] = in_bytes[i];
    g->nr++;
  }
  /* kept dims in PyTorch's order too (the outputs' strides decide it): for kernels that reproduce
     PyTorch's loops, which kept dim moves fastest picks the loop (a vertical sum over contiguous
     columns, or one sum per column), and the loops round differently */
  for (int64_t i = 0; i < nd; i++) {
    if ((cfg->mask >> perm[i]) & 1u) continue;
    g->M = ct__mul_wrap(g->M, shape[i]);
    if (shape[i] == 1) continue;
    int k = g->nk++;
    g->ksz[k] = shape[i];
    g->kin[k] = in_bytes[i];
    for (int o = 0; o < cfg->n_out; o++) g->kout[o][k] = ostr[o][i];
    g->kaux[k] = cfg->aux ? astr[perm[i]] : 0;
  }
  /* each group coalesced on its own (the engine's coalesce_dimensions) */
  ct_geom kg = kept_geom(g), rg = {g->nr, 1, g->rsz, {g->rin}};
  g->nk = (int)ct__coalesce_dims(kg.nd, kg.shape, kg.rows, kg.n_rows);
  g->nr = (int)ct__coalesce_dims(rg.nd, rg.shape, rg.rows, rg.n_rows);
  /* kernels reproducing PyTorch's loops keep its order where it feeds outputs row by row; where it
     reduces each output on its own, the outputs may be visited in memory order, but must stay on
     their own (a vertical run in that order would take PyTorch's other loop) */
  if (torch_loops && vertical(g)) {
    g->outer = true;
  } else {
    sort_kept_by_input(g);
    g->outer = !torch_loops && vertical(g);
  }
  /* An empty input may have no data block; its lines are empty and never read, but the driver still
     forms line addresses from the base (NULL + 0 is undefined in C). */
  static char no_data[16];
  g->in = ct__tdata(t) ? ct__tdata(t) : no_data;
  for (int o = 0; o < cfg->n_out; o++) g->out[o] = ct__tdata(cfg->out[o]);
  g->aux = cfg->aux ? ct__tdata(cfg->aux) : NULL;
}

/* Position of kept index m: byte offsets of the input, each output and aux. */
typedef struct kpos {
  int64_t in, out[CT_RED_MAX_OUT], aux;
} kpos;

/* inlined: returned through memory, its fields stored one by one and read back in pairs stall on store
   forwarding */
static inline __attribute__((always_inline)) kpos kept_pos(const geom *g, int64_t m) {
  /* every output slot, unused ones too (their strides are 0): loops of a constant count let GCC keep p
     in registers, where a variable count leaves it in memory, written by fields and read in pairs */
  kpos p = {0};
  if (g->nk == 1) { /* no division: it costs more than the short rows of a 1024-column sum */
    p.in = m * g->kin[0];
    for (int o = 0; o < CT_RED_MAX_OUT; o++) p.out[o] = m * g->kout[o][0];
    p.aux = m * g->kaux[0];
    return p;
  }
  for (int i = 0; i < g->nk && m; i++) {
    int64_t k = m % g->ksz[i];
    m /= g->ksz[i];
    p.in += k * g->kin[i];
    for (int o = 0; o < CT_RED_MAX_OUT; o++) p.out[o] += k * g->kout[o][i];
    p.aux += k * g->kaux[i];
  }
  return p;
}

typedef struct run_ctx {
  const geom *g;
  const ct_red_kernel *k;
  const void *ctx;
} run_ctx;

/* Feeds reduced indices [r0, r1) of the slice at base into acc (or, where g->outer, the vertical run of
   m accumulators over columns base + j * col_stride). */
static void reduce_range(const run_ctx *rc, void *acc, const char *base, int64_t m, int64_t col_stride, int64_t r0,
                         int64_t r1, const ct_red_cols *cols) {
  const geom *g = rc->g;
  const ct_red_kernel *k = rc->k;
  if (r0 >= r1) return;
  if (g->nr == 0) { /* a single reduced element (size-1 dims only) */
    if (m == 1) {
      k->inner(acc, base, 0, 1, 0, rc->ctx);
    } else if (k->outer) {
      k->outer(acc, base, col_stride, m, 0, 1, 0, cols, rc->ctx);
    } else {
      for (int64_t j = 0; j < m; j++) k->inner((char *)acc + j * k->acc_size, base + j * col_stride, 0, 1, 0, rc->ctx);
    }
    return;
  }
  int64_t idx[RED_DIMS];
  int64_t rem = r0, off = 0;
  for (int i = 0; i < g->nr; i++) {
    idx[i] = rem % g->rsz[i];
    rem /= g->rsz[i];
    off += idx[i] * g->rin[i];
  }
  for (int64_t r = r0; r < r1;) {
    int64_t seg = g->rsz[0] - idx[0];
    if (seg > r1 - r) seg = r1 - r;
    const char *p = base + off;
    if (m == 1 && !g->outer) {
      k->inner(acc, p, g->rin[0], seg, r, rc->ctx);
    } else if (k->outer) { /* a vertical run, even of one column (cut by a work item): PyTorch's loop */
      k->outer(acc, p, col_stride, m, g->rin[0], seg, r, cols, rc->ctx);
    } else {
      for (int64_t j = 0; j < m; j++) k->inner((char *)acc + j * k->acc_size, p + j * col_stride, g->rin[0], seg, r, rc->ctx);
    }
    r += seg;
    idx[0] += seg;
    off += seg * g->rin[0];
    for (int i = 0; i < g->nr - 1 && idx[i] == g->rsz[i]; i++) {
      off -= idx[i] * g->rin[i];
      idx[i] = 0;
      idx[i + 1]++;
      off += g->rin[i + 1];
    }
  }
}

/* Initializes the accumulators of kept indices j0 + j (j < m) of the run at p. */
static void init_accs(const run_ctx *rc, const kpos *p, int64_t j0, int64_t m, char *acc) {
  const geom *g = rc->g;
  const ct_red_kernel *k = rc->k;
  const int64_t step = g->nk ? g->kaux[0] : 0;
  const char *aux = g->has_aux ? g->aux + p->aux + j0 * step : NULL;
  if (k->init_run) {
    k->init_run(acc, aux, step, m, rc->ctx);
    return;
  }
  for (int64_t j = 0; j < m; j++) k->init(acc + j * (int64_t)k->acc_size, aux ? aux + j * step : NULL, rc->ctx);
}

/* Writes the outputs of kept indices j0 + j (j < m) of the run at p from their accumulators. */
static void finish_accs(const run_ctx *rc, const kpos *p, int64_t j0, int64_t m, const char *acc) {
  const geom *g = rc->g;
  const ct_red_kernel *k = rc->k;
  char *outs[CT_RED_MAX_OUT];
  int64_t step[CT_RED_MAX_OUT];
  for (int o = 0; o < g->n_out; o++) {
    step[o] = g->nk ? g->kout[o][0] : 0;
    outs[o] = g->out[o] + p->out[o] + j0 * step[o];
  }
  if (k->finish_run) {
    k->finish_run(outs, step, acc, m, rc->ctx);
    return;
  }
  for (int64_t j = 0; j < m; j++) {
    k->finish(outs, acc + j * (int64_t)k->acc_size, rc->ctx);
    for (int o = 0; o < g->n_out; o++) outs[o] += step[o];
  }
}

typedef struct plan {
  bool outer;
  int64_t nchunks, block, nblocks, run_max;
  char *part; /* [nchunks][M] accumulators when nchunks > 1 */
} plan;

/* Where the accumulators of kept indices from m for chunk c live: the chunk partials when there are
   several chunks, else the work item's local buffer (finished before the next run reuses it). */
static char *acc_at(const plan *pl, const geom *g, size_t asz, int64_t c, int64_t m, unsigned char *local) {
  return pl->nchunks > 1 ? pl->part + ((size_t)c * (size_t)g->M + (size_t)m) * asz : (char *)local;
}

/* A vertical run of the fastest kept dim alone is short when that dim is; where the second kept dim
   steps over exactly the first's extent in the input (the two read as one dim, though the outputs'
   strides do not coalesce them: a transposing reduction) and the kernel's columns are independent
   (not PyTorch's loops, whose rounding depends on the columns' place), whole rows of the first dim
   starting at m go to the kernel as one longer run. Returns how many (1: no stacking). */
static int64_t stacked_rows(const geom *g, const plan *pl, const ct_red_kernel *k, int64_t m, int64_t m1) {
  if (k->torch_loops || g->nk < 2 || g->kin[1] != g->ksz[0] * g->kin[0] || 2 * g->ksz[0] > pl->run_max ||
      m % g->ksz[0] != 0)
    return 1;
  int64_t rows = (m1 - m) / g->ksz[0], left = g->ksz[1] - (m / g->ksz[0]) % g->ksz[1];
  if (rows > left) rows = left;
  if (rows > pl->run_max / g->ksz[0]) rows = pl->run_max / g->ksz[0];
  return rows;
}

/* The position of the next row of the fastest kept dim (within the same second kept dim's row). */
static void step_row(const geom *g, kpos *q) {
  q->in += g->kin[1];
  for (int o = 0; o < CT_RED_MAX_OUT; o++) q->out[o] += g->kout[o][1];
  q->aux += g->kaux[1];
}

/* One work item: kept indices [m0, m1) over chunk c, a run along the fastest kept dim at a time (its
   position found once). A vertical run goes to the kernel's outer loop; otherwise each output is
   reduced on its own, and where the reduced elements are one strided line read as a whole (one chunk,
   one reduced dim) the kernel's inner loop gets it directly: rows of a few elements are most of the
   work per output there, and the driver's own per-output steps would outweigh them. */
static void run_item(const run_ctx *rc, const plan *pl, int64_t c, int64_t m0, int64_t m1) {
  const geom *g = rc->g;
  const ct_red_kernel *k = rc->k;
  size_t asz = k->acc_size;
  int64_t r0 = c * CT_RED_CHUNK, r1 = r0 + CT_RED_CHUNK;
  if (pl->nchunks == 1) r0 = 0, r1 = g->N;
  if (r1 > g->N) r1 = g->N;
  _Alignas(64) unsigned char local[RUN_BYTES + CT_RED_ACC_MAX];
  const int64_t kin0 = g->nk ? g->kin[0] : 0;
  const bool whole_line = pl->nchunks == 1 && g->nr <= 1 && g->N > 0;
  const int64_t line_stride = g->nr ? g->rin[0] : 0, line_n = g->nr ? g->rsz[0] : 1;
  const bool out_unit = g->nk > 0 && g->kout[0][0] == g->out_isz;
  for (int64_t m = m0; m < m1;) {
    kpos p = kept_pos(g, m);
    int64_t run = g->nk ? g->ksz[0] - m % g->ksz[0] : 1;
    if (run > m1 - m) run = m1 - m;
    int64_t rows = pl->outer ? stacked_rows(g, pl, k, m, m1) : 1;
    if (rows > 1) { /* whole rows of the fastest kept dim that follow each other in the input: one run */
      run = rows * g->ksz[0];
      char *acc = acc_at(pl, g, asz, c, m, local);
      kpos q = p;
      for (int64_t b = 0; b < rows; b++, step_row(g, &q)) init_accs(rc, &q, 0, g->ksz[0], acc + b * g->ksz[0] * asz);
      ct_red_cols cols = {0, run, g->nr, out_unit};
      reduce_range(rc, acc, g->in + p.in, run, kin0, r0, r1, &cols);
      q = p;
      if (pl->nchunks == 1)
        for (int64_t b = 0; b < rows; b++, step_row(g, &q)) finish_accs(rc, &q, 0, g->ksz[0], acc + b * g->ksz[0] * asz);
    } else if (pl->outer) {
      if (run > pl->run_max) run = pl->run_max;
      char *acc = acc_at(pl, g, asz, c, m, local);
      init_accs(rc, &p, 0, run, acc);
      ct_red_cols cols = {g->nk ? m % g->ksz[0] : 0, g->nk ? g->ksz[0] : 1, g->nr, out_unit};
      reduce_range(rc, acc, g->in + p.in, run, kin0, r0, r1, &cols);
      if (pl->nchunks == 1) finish_accs(rc, &p, 0, run, acc);
    } else if (whole_line && k->inner_run) {
      for (int64_t j0 = 0; j0 < run; j0 += pl->run_max) {
        int64_t mm = run - j0 < pl->run_max ? run - j0 : pl->run_max;
        char *acc = (char *)local; /* whole lines: one chunk */
        init_accs(rc, &p, j0, mm, acc);
        k->inner_run(acc, g->in + p.in + j0 * kin0, kin0, mm, line_stride, line_n, rc->ctx);
        finish_accs(rc, &p, j0, mm, acc);
      }
    } else {
      ct_red_cols cols = {0, 1, g->nr, out_unit};
      for (int64_t j = 0; j < run; j++) {
        char *acc = acc_at(pl, g, asz, c, m + j, local);
        init_accs(rc, &p, j, 1, acc);
        const char *in = g->in + p.in + j * kin0;
        if (whole_line)
          k->inner(acc, in, line_stride, line_n, 0, rc->ctx);
        else
          reduce_range(rc, acc, in, 1, 0, r0, r1, &cols);
        if (pl->nchunks == 1) finish_accs(rc, &p, j, 1, acc);
      }
    }
    m += run;
  }
}

/* Combines the chunks of kept indices [m0, m1) in chunk order and writes the outputs. */
static void combine_range(const run_ctx *rc, const plan *pl, int64_t m0, int64_t m1) {
  const geom *g = rc->g;
  size_t asz = rc->k->acc_size;
  _Alignas(64) unsigned char acc[CT_RED_ACC_MAX];
  for (int64_t m = m0; m < m1; m++) {
    memcpy(acc, pl->part + (size_t)m * asz, asz);
    for (int64_t c = 1; c < pl->nchunks; c++)
      rc->k->combine(acc, pl->part + ((size_t)c * (size_t)g->M + (size_t)m) * asz, rc->ctx);
    kpos p = kept_pos(g, m);
    finish_accs(rc, &p, 0, 1, (const char *)acc);
  }
}

bool ct__reduce_is_lastdim(const ct_red_config *cfg) {
  if (cfg->in->ndim > RED_DIMS) return false;
  geom g;
  setup(cfg, false, &g); /* the reduced dims decide it; the kept order does not matter */
  return g.nr == 1 && g.rin[0] == (int64_t)ct__itemsize((ct_dtype)cfg->in->dtype);
}

typedef struct par_red {
  const run_ctx *rc;
  const plan *pl;
  int64_t pieces; /* of the combine */
} par_red;

static void par_item(void *v, int64_t it, int tid) {
  (void)tid;
  const par_red *p = v;
  int64_t c = it / p->pl->nblocks, b = it % p->pl->nblocks, M = p->rc->g->M;
  int64_t m0 = b * p->pl->block, m1 = m0 + p->pl->block < M ? m0 + p->pl->block : M;
  run_item(p->rc, p->pl, c, m0, m1);
}

static void par_combine(void *v, int64_t i, int tid) {
  (void)tid;
  const par_red *p = v;
  int64_t M = p->rc->g->M;
  combine_range(p->rc, p->pl, M * i / p->pieces, M * (i + 1) / p->pieces);
}

ct_status ct__reduce_run(const ct_red_config *cfg, const ct_red_kernel *k, const void *ctx) {
  if (cfg->in->device_type == CT_META) return CT_OK;
  if (cfg->in->ndim > RED_DIMS) {
    ct__error(CT_ERR_RUNTIME, "only tensors with up to 64 dims are supported");
    return CT_ERR_RUNTIME;
  }
  geom *g = ct__malloc(sizeof *g);
  if (!g) return CT_ERR_OUT_OF_MEMORY;
  memset(g->kout, 0, sizeof g->kout); /* kept_pos reads the strides of unused output slots */
  setup(cfg, k->torch_loops, g);
  run_ctx rc = {g, k, ctx};
  if (g->M == 0) {
    ct__free(g);
    return CT_OK;
  }
  size_t asz = k->acc_size;
  plan pl = {0};
  pl.outer = g->outer;
  pl.nchunks = g->N <= CT_RED_CHUNK || k->sequential ? 1 : ct__div_up(g->N, CT_RED_CHUNK);
  int64_t chunk_len = pl.nchunks == 1 ? g->N : CT_RED_CHUNK;
  if (chunk_len < 1) chunk_len = 1;
  pl.run_max = (int64_t)(RUN_BYTES / asz);
  if (pl.run_max > RUN_COLS_MAX) pl.run_max = RUN_COLS_MAX;
  double work = (double)g->M * (double)(g->N ? g->N : 1);
  int nt = ct__parallel_threads(work < (double)INT64_MAX ? (int64_t)work : INT64_MAX); /* results: the same */
  /* Work items: kept indices in blocks (any partition gives the same results). A vertical run reads
     whole rows of up to run_max columns, so blocks take long runs; on several threads, several blocks
     per thread (ITEMS_PER_THREAD) where runs stay OUTER_RUN_BYTES long, so that a worker that the OS
     holds back delays only the block it holds (one block per thread: the caller waited for half the
     work). */
  pl.block = CT_PAR_GRAIN / chunk_len; /* a work item aims at the grain */
  if (pl.outer) {
    int64_t share = ct__div_up(g->M, nt);
    int64_t want = ct__div_up(g->M, (int64_t)nt * ITEMS_PER_THREAD);
    int64_t min_run = OUTER_RUN_BYTES / (int64_t)ct__itemsize((ct_dtype)cfg->in->dtype);
    if (want < min_run) want = min_run;
    if (want > share) want = share;
    if (want > pl.run_max) want = pl.run_max;
    if (want > g->ksz[0]) want = g->ksz[0];
    if (pl.block < want) pl.block = want;
  }
  if (pl.block < 1) pl.block = 1;
  pl.nblocks = ct__div_up(g->M, pl.block);
  if (pl.nchunks > 1) {
    pl.part = ct__malloc((size_t)pl.nchunks * (size_t)g->M * asz);
    if (!pl.part) {
      ct__free(g);
      return CT_ERR_OUT_OF_MEMORY;
    }
  }
  int64_t items = pl.nchunks * pl.nblocks;
  if (nt > items) nt = (int)items;
  if (nt <= 1) {
    for (int64_t it = 0; it < items; it++) {
      int64_t c = it / pl.nblocks, b = it % pl.nblocks;
      int64_t m0 = b * pl.block, m1 = m0 + pl.block < g->M ? m0 + pl.block : g->M;
      run_item(&rc, &pl, c, m0, m1);
    }
    if (pl.nchunks > 1) combine_range(&rc, &pl, 0, g->M);
  } else {
    /* any thread takes the next item (each item's result is the same whichever thread computes it),
       so one that the OS holds back leaves its share to the others */
    par_red pr = {&rc, &pl, 0};
    ct__parallel_chunks(items, nt, par_item, &pr);
    if (pl.nchunks > 1) {
      int64_t pieces = ct__parallel_nchunks(g->M * pl.nchunks, nt);
      pr.pieces = pieces < g->M ? pieces : g->M;
      ct__parallel_chunks(pr.pieces, nt, par_combine, &pr);
    }
  }
  ct__free(pl.part);
  ct__free(g);
  return CT_OK;
}
