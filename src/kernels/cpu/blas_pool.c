/* OpenBLAS 0.3.21's threaded ?gemm, run on the library's pool (blas.h, ct__blas_gemm_pooled).

   Why: OpenBLAS's OpenMP threads meet at barriers and spin-wait on each other's packed panels inside
   every call. When the other core is busy with another program, the OS runs one of them only in turns
   with it, and the whole call waits: sgemm 256^3 took 26x longer at 2 threads than at 1 with the second
   core busy (torch alike). The pool hands out work in chunks, so a late thread delays nothing
   (core/parallel.h).

   Why the bits stay torch's: torch at N threads calls OpenBLAS at N threads, and an element of C is
   decided by the kernel calls that cover it: their sizes (m, n, k), its place in them, and the order
   of the K blocks. Here the threaded driver (driver/level3/level3_thread.c, inner_thread and
   gemm_driver) is replayed call for call with the core's own routines (its kernel, beta, and packing
   routines, exported by Debian's DYNAMIC_ARCH build as <t>gemm_kernel_<CORE> etc.):
     - nthreads_m ranges of M, nthreads ranges of N (at least SWITCH_RATIO wide), each N range in
       DIVIDE_RATE pieces; thread (i, g) owns M range i and N range g * nthreads_m + i and covers the N
       ranges of its group g;
     - K blocks: GEMM_Q while 2 * GEMM_Q or more remain, then the rest halved rounding up;
     - M blocks within a range: GEMM_P, or the rest halved (the first block rounds the half down, the
       others up, each to GEMM_UNROLL_M);
     - the first M block of a range runs the kernel on its own N range's pieces in the chunks they are
       packed in (3 * GEMM_UNROLL_N, else GEMM_UNROLL_N, else the rest: the driver's generic rule; wider
       where the core's kernel gives the same bits, see wide_own_chunk_f64), on every other piece whole;
       later M blocks on every piece whole.
   Only who runs a call differs: packing a B piece (with its owner's calls on it) or an A block, and the
   kernel calls of one M block on one piece, are tasks any pool thread takes once the tasks they need are
   done (see `task`), all of one product in one pool job. A late worker delays only the tasks that need the
   one it holds: there is no barrier between K blocks, where one job per K block (two buffer sets, before
   this) waited for the worker's last chunk at each block's end.

   What is read from OpenBLAS's internals: GEMM_P/Q/R and GEMM_UNROLL_M/N of the running core from its
   `gotoblas` table, at the offsets of 0.3.21's DYNAMIC_ARCH build (BUILD_BFLOAT16 off, as Debian builds
   it), and the routines by name; the route is taken only when openblas_get_config() names that version
   and build, the values are plausible and the kernel found by name is the one the table holds. */
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "core/internal.h"
#include "core/omp_runtime.h"
#include "core/parallel.h"
#include "kernels/cpu/blas.h"

/* level3_thread.c's compile-time constants in Debian's TARGET=GENERIC build. */
enum {
  SWITCH_RATIO = 2,
  DIVIDE_RATE = 2
};
/* interface/gemm.c: at most SMP_THRESHOLD_MIN * GEMM_MULTITHREAD_THRESHOLD multiply-adds run serially. */
#define SERIAL_REAL    262144.0
#define SERIAL_COMPLEX 32768.0
/* sgemm_small_kernel_permit_skylakex.c: the small kernels are never used above 100^3 (and never by the
   threaded driver, which OpenBLAS enters only above the serial bound: see threaded_driver). */
#define SMALL_BOUND 1e6
/* At most this many threads' partition is reproduced (OpenBLAS's MAX_THREADS in Debian's build). */
#define MAX_PARTS 64

/* int offsets of {p, q, r, unroll_m, unroll_n} in gotoblas_t (common_param.h of 0.3.21, DYNAMIC_ARCH, no
   BFLOAT16), in the order float32, float64, complex64, complex128. */
static const int table_offset[4] = {4, 182, 356, 708};
/* A type's kernel pointer lies within this many bytes after its {p, q, r} (208-288 in 0.3.21's gotoblas_t,
   whose 4712 bytes end well past the last type's window): the kernel found by name must be there. */
#define KERNEL_WINDOW_BYTES 512

/* Where one matrix of a batch may run on one thread with the bits OpenBLAS's threads give it (bmm): the
   cores whose float32 kernel depends on the K blocks alone (measured on 300 random shapes, every
   transpose, against OpenBLAS at 2 threads). */
static const char *const k_blocks_only_f32[] = {"Cooperlake", "SkylakeX"};

/* Where the float64 kernel gives a column the same bits in any call of at most 10 columns (its paths for
   2, 4 and 8 columns agree; its 12-column path does not): the first M block's calls on an own piece may
   then take 10 columns at a time instead of the driver's 6. A call on 6 columns runs at 75% of the rate of
   one on 8 or 10 (62-64 against 80-84 GFLOP/s on a 192 x 384 block), and that block is a third of a
   1024^3 product's calls. Measured on these cores' kernels with 1500 and 600 random shapes (every width
   up to 10 kept every bit; 12, 16, 24 and 32 changed 70-80% of them); the float32 and complex kernels run
   as fast on 3 * GEMM_UNROLL_N columns as on more, so they keep the driver's chunks. */
static const char *const wide_own_chunk_f64[] = {"Cooperlake", "SkylakeX"};
#define WIDE_OWN_CHUNK_F64 10

/* Whether openblas_get_config() names the build whose internals this file reproduces. */
static bool openblas_0321_openmp(const char *config) {
  return config && strncmp(config, "OpenBLAS 0.3.21 ", 16) == 0 && strstr(config, "USE_OPENMP");
}

static int type_index(ct_dtype dt) {
  return dt == CT_FLOAT32 ? 0 : dt == CT_FLOAT64 ? 1 : dt == CT_COMPLEX64 ? 2 : dt == CT_COMPLEX128 ? 3 : -1;
}

static ct_blas_fn find(ct_blas_lookup_fn *lookup, void *lctx, const char *routine, const char *upper) {
  char name[96];
  snprintf(name, sizeof name, "%s_%s", routine, upper);
  return lookup(lctx, name);
}

ct_blas_gemm_params ct__blas_pool_params(ct_dtype dt, const char *config, const char *core,
                                         const void *gotoblas_table, ct_blas_lookup_fn *lookup, void *lctx) {
  const ct_blas_gemm_params off = {0};
  int ti = type_index(dt);
  if (ti < 0 || !openblas_0321_openmp(config) || !strstr(config, "DYNAMIC_ARCH") || !core ||
      !gotoblas_table || !lookup || strlen(core) > 40)
    return off;
  const int *t = (const int *)gotoblas_table + table_offset[ti];
  ct_blas_gemm_params p = {.p = t[0], .q = t[1], .r = t[2], .unroll_m = t[3], .unroll_n = t[4]};
  if (p.p < 16 || p.p > 8192 || p.q < 16 || p.q > 4096 || p.r < 64 || p.r > (1 << 24) || p.unroll_m < 1 ||
      p.unroll_m > 64 || p.unroll_n < 1 || p.unroll_n > 64 || p.p % p.unroll_m != 0)
    return off;
  char upper[48];
  size_t n = 0;
  for (; core[n]; n++) upper[n] = (char)(core[n] >= 'a' && core[n] <= 'z' ? core[n] - 32 : core[n]);
  upper[n] = 0;
  static const char letter[4] = {'s', 'd', 'c', 'z'};
  static const char *const forms[4] = {"n", "l", "r", "b"};
  char routine[32];
  bool cplx = ti >= 2, ok = true;
  for (int f = 0; f < (cplx ? 4 : 1); f++) {
    snprintf(routine, sizeof routine, cplx ? "%cgemm_kernel_%s" : "%cgemm_kernel", letter[ti], forms[f]);
    ok &= (p.kernel[f] = find(lookup, lctx, routine, upper)) != NULL;
  }
  ct_blas_fn *const others[5] = {&p.beta, &p.itcopy, &p.incopy, &p.oncopy, &p.otcopy};
  static const char *const other_names[5] = {"beta", "itcopy", "incopy", "oncopy", "otcopy"};
  for (int i = 0; i < 5; i++) {
    snprintf(routine, sizeof routine, "%cgemm_%s", letter[ti], other_names[i]);
    *others[i] = find(lookup, lctx, routine, upper);
  }
  /* a core whose unrolls are equal packs A with B's routines (setparam-ref.c): no ?gemm_i?copy of its own */
  if (!p.incopy && !p.itcopy && p.unroll_m == p.unroll_n) p.incopy = p.oncopy, p.itcopy = p.otcopy;
  for (int i = 0; i < 5; i++) ok &= *others[i] != NULL;
  /* the table must hold the kernel found by name: the right core, the layout read above */
  bool held = false;
  size_t from =
      ((size_t)table_offset[ti] * sizeof(int) + sizeof(void *) - 1) / sizeof(void *) * sizeof(void *);
  for (size_t at = from; ok && !held && at < from + KERNEL_WINDOW_BYTES; at += sizeof(void *))
    held = memcmp((const char *)gotoblas_table + at, &p.kernel[0], sizeof p.kernel[0]) == 0;
  if (!ok || !held) return off;
  if (ti == 0)
    for (size_t i = 0; i < sizeof k_blocks_only_f32 / sizeof *k_blocks_only_f32; i++)
      p.k_blocks_only |= strcmp(core, k_blocks_only_f32[i]) == 0;
  p.own_chunk = 3 * p.unroll_n;
  if (ti == 1 && p.unroll_n == 2)
    for (size_t i = 0; i < sizeof wide_own_chunk_f64 / sizeof *wide_own_chunk_f64; i++)
      if (strcmp(core, wide_own_chunk_f64[i]) == 0) p.own_chunk = WIDE_OWN_CHUNK_F64;
  return p;
}

/* The threaded driver's K block starting where `left` of k remain. */
int64_t ct__blas_k_block(int64_t left, int q) {
  if (left >= 2 * (int64_t)q) return q;
  return left > q ? (left + 1) / 2 : left;
}

/* The serial driver's (level3.c): the half rounded up to GEMM_UNROLL_M. */
int64_t ct__blas_k_block_serial(int64_t left, int q, int unroll_m) {
  if (left >= 2 * (int64_t)q) return q;
  return left > q ? (left / 2 + unroll_m - 1) / unroll_m * unroll_m : left;
}

/* OpenBLAS's split of `len` into up to `parts` ranges of ceil(left / parts left) but at least min_width (the
   width loops of level3_thread.c's gemm_driver, gemv_thread.c and blas_l1_thread.c); bounds gets parts + 1
   entries from `start`, the unused ranges empty. Returns the number of ranges that are not. min_width:
   SWITCH_RATIO for gemm's N, 4 for gemv, 1 otherwise. */
static int split(int64_t start, int64_t len, int parts, int64_t min_width, int64_t *bounds) {
  bounds[0] = start;
  int i = 0;
  for (; i < parts && len > 0; i++) {
    int64_t w = (len + parts - i - 1) / (parts - i);
    if (w < min_width) w = min_width;
    if (w > len) w = len;
    bounds[i + 1] = bounds[i] + w;
    len -= w;
  }
  int used = i;
  for (; i < parts; i++) bounds[i + 1] = bounds[i];
  return used;
}

/* Whether OpenBLAS at nt threads runs this gemm in its threaded driver (interface/gemm.c: above the serial
   bound, past the small kernels; level3_thread.c: more than one thread in its split), and the split:
   *ntm ranges of M, *nthreads threads in all. */
static bool threaded_driver(ct_dtype dt, int64_t m, int64_t n, int64_t k, int nt, int *ntm, int *nthreads) {
  bool cplx = dt == CT_COMPLEX64 || dt == CT_COMPLEX128;
  double mnk = (double)m * (double)n * (double)k;
  if (nt < 2 || nt > MAX_PARTS || mnk <= (cplx ? SERIAL_COMPLEX : SERIAL_REAL) ||
      (!cplx && mnk <= SMALL_BOUND))
    return false;
  int tm = nt;
  if (m < 2 * SWITCH_RATIO) tm = 1;
  else
    while (m < tm * SWITCH_RATIO) tm /= 2;
  int tn = n < SWITCH_RATIO * tm ? 1 : (int)((n + SWITCH_RATIO * tm - 1) / (SWITCH_RATIO * tm));
  if (tm * tn > nt) tn = nt / tm;
  *ntm = tm;
  *nthreads = tm * tn;
  return tm * tn > 1;
}

bool ct__blas_threaded_driver(ct_dtype dt, int64_t m, int64_t n, int64_t k, int nt) {
  int ntm, nthreads;
  return threaded_driver(dt, m, n, k, nt, &ntm, &nthreads);
}

/* ---- the replayed driver ---- */

/* OpenBLAS's routine types (common_param.h; BLASLONG is long). */
typedef int kern_s(long, long, long, float, const void *, const void *, void *, long);
typedef int kern_d(long, long, long, double, const void *, const void *, void *, long);
typedef int kern_c(long, long, long, float, float, const void *, const void *, void *, long);
typedef int kern_z(long, long, long, double, double, const void *, const void *, void *, long);
typedef int beta_s(long, long, long, float, void *, long, void *, long, void *, long);
typedef int beta_d(long, long, long, double, void *, long, void *, long, void *, long);
typedef int beta_c(long, long, long, float, float, void *, long, void *, long, void *, long);
typedef int beta_z(long, long, long, double, double, void *, long, void *, long, void *, long);
typedef int copy_fn(long, long, const void *, long, void *);

typedef struct piece {
  int64_t lo, hi;
  size_t off; /* bytes into a packed-B buffer */
} piece;

/* One M block of one M range: the rows one thread of the driver packs A for and multiplies at once. */
typedef struct mblock {
  int i;
  int64_t is, min_i;
  size_t off; /* bytes into a packed-A buffer */
} mblock;

/* The tasks of one product, in the order a thread looks for work: the beta passes, then per K block the
   A blocks of each M range's first block, the B pieces (each packed by chunks, each chunk multiplied by its
   owner's first A block at once, as the driver's thread does with its own pieces), then each other A block
   packed and multiplied by every piece: the serial driver's order, in which a thread working alone reads
   packed panels while they are still in its cache. A task runs once the tasks it needs are done:
     - kernel calls on (s, mb, q): A block (s, mb) and B piece (s, q) packed, and the calls on (s - 1, mb, q)
       done (the K blocks reach each element of C in order), or for s = 0 the beta pass of its region;
     - packing into buffer set s % SETS: the calls of block s - SETS that read that buffer done.
   Threads take whatever task is ready first in that order, so a thread the OS holds back delays only the
   tasks that need the one it holds, not a whole K block: a later block's tasks go on around it. */
enum {
  T_BETA,
  T_PACK_A,
  T_PACK_B,
  T_MULTIPLY
};
enum {
  FREE,
  TAKEN,
  DONE
};
#define SETS 2

typedef struct task {
  uint8_t kind;
  int32_t s, a, b; /* K block; M block or beta region; piece */
} task;

typedef struct drv_job {
  const ct_blas_gemm_params *p;
  ct_dtype dt;
  int kform;
  bool a_plain, b_plain; /* A / B not transposed: the driver's ITCOPY / ONCOPY, else INCOPY / OTCOPY */
  int64_t lda, ldb, ldc, isz;
  const char *a, *b;
  char *c;
  const void *alpha, *beta;
  int tm, tn;
  int64_t rm[MAX_PARTS + 1], rn[MAX_PARTS + 1];
  piece pc[DIVIDE_RATE * MAX_PARTS];
  int pc_range[DIVIDE_RATE * MAX_PARTS]; /* the N range a piece belongs to */
  int np;
  mblock *mb;
  int64_t nmb, first_mb[MAX_PARTS]; /* the M blocks; each M range's first */
  int64_t nk, *ls, *min_l;          /* the K blocks */
  char *bbuf[SETS], *abuf[SETS];
  int64_t betas;
  /* the task list and where each task sits in it */
  task *tasks;
  _Atomic uint8_t *state;
  int64_t ntasks, *at_pack_a, *at_pack_b, *at_multiply; /* [s][mb], [s][q], [s][mb][q] (pack_b's calls:
                                                           the owner's first block's entry is its pack_b) */
  _Atomic int64_t first_free;                           /* every task before it is taken */
} drv_job;

static void kernel_call(const drv_job *j, int64_t s, int64_t mi, int64_t nj, const void *sa, const void *sb,
                        int64_t row, int64_t col) {
  ct_blas_fn f = j->p->kernel[j->kform];
  void *c = j->c + (row + col * j->ldc) * j->isz;
  long m = (long)mi, n = (long)nj, k = (long)j->min_l[s], ldc = (long)j->ldc;
  switch (j->dt) {
    case CT_FLOAT32: ((kern_s *)f)(m, n, k, *(const float *)j->alpha, sa, sb, c, ldc); break;
    case CT_FLOAT64: ((kern_d *)f)(m, n, k, *(const double *)j->alpha, sa, sb, c, ldc); break;
    case CT_COMPLEX64: {
      const float *al = j->alpha;
      ((kern_c *)f)(m, n, k, al[0], al[1], sa, sb, c, ldc);
      break;
    }
    default: {
      const double *al = j->alpha;
      ((kern_z *)f)(m, n, k, al[0], al[1], sa, sb, c, ldc);
      break;
    }
  }
}

/* C's rows [m0, m1) x columns [n0, n1) times beta (0: zeros, NaN or not), as BETA_OPERATION. */
static void beta_call(const drv_job *j, int64_t m0, int64_t m1, int64_t n0, int64_t n1) {
  if (m1 <= m0 || n1 <= n0) return;
  ct_blas_fn f = j->p->beta;
  void *c = j->c + (m0 + n0 * j->ldc) * j->isz;
  long m = (long)(m1 - m0), n = (long)(n1 - n0), ldc = (long)j->ldc;
  switch (j->dt) {
    case CT_FLOAT32: ((beta_s *)f)(m, n, 0, *(const float *)j->beta, NULL, 0, NULL, 0, c, ldc); break;
    case CT_FLOAT64: ((beta_d *)f)(m, n, 0, *(const double *)j->beta, NULL, 0, NULL, 0, c, ldc); break;
    case CT_COMPLEX64: {
      const float *be = j->beta;
      ((beta_c *)f)(m, n, 0, be[0], be[1], NULL, 0, NULL, 0, c, ldc);
      break;
    }
    default: {
      const double *be = j->beta;
      ((beta_z *)f)(m, n, 0, be[0], be[1], NULL, 0, NULL, 0, c, ldc);
      break;
    }
  }
}

/* The chunk of an own piece that the driver packs (and, in the first M block, multiplies) next: the
   driver's 3 * GEMM_UNROLL_N, else GEMM_UNROLL_N, else the rest, or where the core's kernel allows it
   (p->own_chunk, wide_own_chunk_f64) wider chunks with the same bits before the driver's rule for the rest. */
static int64_t own_chunk(const ct_blas_gemm_params *p, int64_t left) {
  int64_t un = p->unroll_n;
  if (left >= p->own_chunk) return p->own_chunk;
  if (left >= 3 * un) return 3 * un;
  return left > un ? un : left;
}

/* Beta region r: driver thread (i, g)'s M range i x its group g's N ranges. */
static void beta_pass(const drv_job *j, int64_t r) {
  int g = (int)(r / j->tm), i = (int)(r % j->tm);
  beta_call(j, j->rm[i], j->rm[i + 1], j->rn[g * j->tm], j->rn[(g + 1) * j->tm]);
}

/* The first M block of the M range whose driver thread owns piece q: thread (i, g) owns N range g * tm + i. */
static int64_t owner_block(const drv_job *j, int64_t q) { return j->first_mb[j->pc_range[q] % j->tm]; }

/* B piece q of K block s packed as its owner packs it, chunk by chunk (3 * GEMM_UNROLL_N columns, else
   GEMM_UNROLL_N, else the rest: the driver's generic rule), each chunk multiplied by the owner's first M
   block at once, while it is in the cache. */
static void pack_b(const drv_job *j, int64_t s, int64_t q) {
  const piece *pc = &j->pc[q];
  const mblock *mb = &j->mb[owner_block(j, q)];
  copy_fn *copy = (copy_fn *)(j->b_plain ? j->p->oncopy : j->p->otcopy);
  int64_t ls = j->ls[s], min_l = j->min_l[s];
  const char *sa = j->abuf[s % SETS] + mb->off;
  for (int64_t jjs = pc->lo, w; jjs < pc->hi; jjs += w) {
    w = own_chunk(j->p, pc->hi - jjs);
    const char *src = j->b + (j->b_plain ? ls + jjs * j->ldb : jjs + ls * j->ldb) * j->isz;
    char *sb = j->bbuf[s % SETS] + pc->off + (size_t)(min_l * (jjs - pc->lo) * j->isz);
    copy((long)min_l, (long)w, src, (long)j->ldb, sb);
    kernel_call(j, s, mb->min_i, w, sa, sb, mb->is, jjs);
  }
}

static void pack_a(const drv_job *j, int64_t s, int64_t b) {
  const mblock *mb = &j->mb[b];
  copy_fn *copy = (copy_fn *)(j->a_plain ? j->p->itcopy : j->p->incopy);
  int64_t ls = j->ls[s];
  const char *src = j->a + (j->a_plain ? mb->is + ls * j->lda : ls + mb->is * j->lda) * j->isz;
  copy((long)j->min_l[s], (long)mb->min_i, src, (long)j->lda, j->abuf[s % SETS] + mb->off);
}

/* The kernel call of M block b on piece q in K block s (other than the owner's first block: pack_b). */
static void multiply(const drv_job *j, int64_t s, int64_t b, int64_t q) {
  const mblock *mb = &j->mb[b];
  const piece *pc = &j->pc[q];
  kernel_call(j, s, mb->min_i, pc->hi - pc->lo, j->abuf[s % SETS] + mb->off, j->bbuf[s % SETS] + pc->off,
              mb->is, pc->lo);
}

static inline void cpu_pause(void) {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}

static bool done(const drv_job *j, int64_t t) {
  return atomic_load_explicit(&j->state[t], memory_order_acquire) == DONE;
}

static int64_t at_multiply(const drv_job *j, int64_t s, int64_t b, int64_t q) {
  return j->at_multiply[(s * j->nmb + b) * j->np + q];
}

/* Whether the calls on C region (mb, q) of the K block before s are done (for s = 0: its beta pass). */
static bool region_ready(const drv_job *j, int64_t s, int64_t b, int64_t q) {
  if (s > 0) return done(j, at_multiply(j, s - 1, b, q));
  return !j->betas || done(j, j->pc_range[q] / j->tm * j->tm + j->mb[b].i);
}

/* Whether the tasks that task t needs are done. */
static bool ready(const drv_job *j, const task *t) {
  switch (t->kind) {
    case T_BETA: return true;
    case T_PACK_A: /* the calls that read this buffer in block s - SETS */
      for (int64_t q = 0; t->s >= SETS && q < j->np; q++)
        if (!done(j, at_multiply(j, t->s - SETS, t->a, q))) return false;
      return true;
    case T_PACK_B: {
      for (int64_t b = 0; t->s >= SETS && b < j->nmb; b++)
        if (!done(j, at_multiply(j, t->s - SETS, b, t->b))) return false;
      int64_t b = owner_block(j, t->b);
      return done(j, j->at_pack_a[t->s * j->nmb + b]) && region_ready(j, t->s, b, t->b);
    }
    default:
      return done(j, j->at_pack_a[t->s * j->nmb + t->a]) && done(j, j->at_pack_b[t->s * j->np + t->b]) &&
             region_ready(j, t->s, t->a, t->b);
  }
}

static void run_task(const drv_job *j, const task *t) {
  switch (t->kind) {
    case T_BETA: beta_pass(j, t->a); break;
    case T_PACK_A: pack_a(j, t->s, t->a); break;
    case T_PACK_B: pack_b(j, t->s, t->b); break;
    default: multiply(j, t->s, t->a, t->b); break;
  }
}

/* A pool thread's share: the first ready task, again and again, until every task is taken. A thread that
   finds tasks left but none ready waits for the ones that are held (a worker may leave, so the caller's
   thread must see every task taken before it returns), yielding its CPU after a while: the thread it
   waits for may be queued on it. */
static void run_tasks(void *ctx, int tid) {
  drv_job *j = ctx;
  for (int idle = 0;; idle++) {
    if (ct__parallel_leave(tid)) return;
    int64_t t = atomic_load_explicit(&j->first_free, memory_order_relaxed), first = t;
    while (t < j->ntasks && atomic_load_explicit(&j->state[t], memory_order_relaxed) != FREE) t++;
    if (t > first) atomic_store_explicit(&j->first_free, t, memory_order_relaxed);
    if (t >= j->ntasks) return;
    for (; t < j->ntasks; t++) {
      uint8_t free_ = FREE;
      if (atomic_load_explicit(&j->state[t], memory_order_relaxed) != FREE || !ready(j, &j->tasks[t]) ||
          !atomic_compare_exchange_strong_explicit(&j->state[t], &free_, TAKEN, memory_order_acq_rel,
                                                   memory_order_relaxed))
        continue;
      run_task(j, &j->tasks[t]);
      atomic_store_explicit(&j->state[t], DONE, memory_order_release);
      idle = -1;
      break;
    }
    if (idle >= 4096) {
      sched_yield();
      idle = 4096;
    } else if (idle >= 0) {
      cpu_pause();
    }
  }
}

/* Bytes of a packed panel set: `width` rows or columns rounded up to whole unrolls, `depth` deep, plus
   slack, each set starting on a cache line. */
static size_t packed_bytes(int64_t width, int unroll, int64_t depth, int64_t isz) {
  size_t u = (size_t)unroll, w = ((size_t)width + u - 1) / u * u;
  return (w * (size_t)depth * (size_t)isz + 127) & ~(size_t)63;
}

/* The M blocks of a range of len rows: the first rounds its half down, the others up. */
static int64_t m_block(int64_t left, bool first, const ct_blas_gemm_params *p) {
  if (left >= 2 * (int64_t)p->p) return p->p;
  if (left <= p->p) return left;
  int64_t half = first ? left / 2 : (left + 1) / 2;
  return (half + p->unroll_m - 1) / p->unroll_m * p->unroll_m;
}

/* The packing buffers are kept for the next call, as OpenBLAS keeps its own: a multi-megabyte block
   freshly mapped for each product costs its page faults every time (a tenth of a 256^3 product). One
   block, taken and given back atomically (a concurrent caller allocates its own); its size is stored in
   its first cache line. */
static _Atomic(char *) scratch_block;

static char *scratch_take(size_t bytes) {
  char *blk = atomic_exchange(&scratch_block, NULL);
  if (blk && *(size_t *)(void *)blk >= bytes) return blk + 64;
  ct__free(blk);
  size_t grown = bytes + bytes / 4;
  blk = ct__malloc_aligned(64, grown + 64);
  if (!blk) return NULL;
  *(size_t *)(void *)blk = grown;
  return blk + 64;
}

static void scratch_give(char *mem) {
  char *old = atomic_exchange(&scratch_block, mem - 64);
  ct__free(old);
}

static bool is_one(ct_dtype dt, const void *v) {
  switch (dt) {
    case CT_FLOAT32: return *(const float *)v == 1.0f;
    case CT_FLOAT64: return *(const double *)v == 1.0;
    case CT_COMPLEX64: return ((const float *)v)[0] == 1.0f && ((const float *)v)[1] == 0.0f;
    default: return ((const double *)v)[0] == 1.0 && ((const double *)v)[1] == 0.0;
  }
}

static bool is_zero(ct_dtype dt, const void *v) {
  switch (dt) {
    case CT_FLOAT32: return *(const float *)v == 0.0f;
    case CT_FLOAT64: return *(const double *)v == 0.0;
    case CT_COMPLEX64: return ((const float *)v)[0] == 0.0f && ((const float *)v)[1] == 0.0f;
    default: return ((const double *)v)[0] == 0.0 && ((const double *)v)[1] == 0.0;
  }
}

/* Lays out the task list (see `task`) and fills the job's index tables. */
static void build_tasks(drv_job *j, bool work) {
  int64_t n = 0;
  for (int64_t r = 0; r < j->betas; r++) j->tasks[n++] = (task){T_BETA, 0, (int32_t)r, 0};
  for (int64_t s = 0; work && s < j->nk; s++) {
    for (int i = 0; i < j->tm; i++) {
      j->at_pack_a[s * j->nmb + j->first_mb[i]] = n;
      j->tasks[n++] = (task){T_PACK_A, (int32_t)s, (int32_t)j->first_mb[i], 0};
    }
    for (int64_t q = 0; q < j->np; q++) {
      j->at_pack_b[s * j->np + q] = j->at_multiply[(s * j->nmb + owner_block(j, q)) * j->np + q] = n;
      j->tasks[n++] = (task){T_PACK_B, (int32_t)s, 0, (int32_t)q};
    }
    for (int64_t b = 0; b < j->nmb; b++) {
      bool first = b == j->first_mb[j->mb[b].i];
      if (!first) {
        j->at_pack_a[s * j->nmb + b] = n;
        j->tasks[n++] = (task){T_PACK_A, (int32_t)s, (int32_t)b, 0};
      }
      for (int64_t q = 0; q < j->np; q++)
        if (owner_block(j, q) != b) {
          j->at_multiply[(s * j->nmb + b) * j->np + q] = n;
          j->tasks[n++] = (task){T_MULTIPLY, (int32_t)s, (int32_t)b, (int32_t)q};
        }
    }
  }
  j->ntasks = n;
  for (int64_t t = 0; t < n; t++) atomic_init(&j->state[t], FREE);
  atomic_init(&j->first_free, 0);
}

bool ct__blas_gemm_pooled(const ct_blas_gemm_params *p, ct_dtype dt, char transa, char transb, int64_t m,
                          int64_t n, int64_t k, const void *alpha, const void *a, int64_t lda, const void *b,
                          int64_t ldb, const void *beta, void *c, int64_t ldc) {
  int nt = ct__num_threads(), ntm, nthreads;
  if (p->q == 0 || !threaded_driver(dt, m, n, k, nt, &ntm, &nthreads)) return false;
  if (n > (int64_t)p->r * nthreads) return false; /* more than one step of GEMM_R * nthreads columns */
  bool cplx = dt == CT_COMPLEX64 || dt == CT_COMPLEX128;
  char ta = (char)(transa | 0x20), tb = (char)(transb | 0x20);
  drv_job j = {.p = p,
               .dt = dt,
               .kform = (cplx && ta == 'c' ? 1 : 0) + (cplx && tb == 'c' ? 2 : 0),
               .a_plain = ta == 'n',
               .b_plain = tb == 'n',
               .lda = lda,
               .ldb = ldb,
               .ldc = ldc,
               .isz = (int64_t)ct__itemsize(dt),
               .a = a,
               .b = b,
               .c = c,
               .alpha = alpha,
               .beta = beta,
               .tm = ntm,
               .tn = nthreads / ntm};
  split(0, m, ntm, 1, j.rm);
  split(0, n, nthreads, SWITCH_RATIO, j.rn);
  /* the pieces and their place in a packed-B buffer, the M blocks and theirs in a packed-A buffer (a K
     block deep, each rounded up to whole panels) */
  int64_t lmax = ct__blas_k_block(k, p->q); /* the first K block is the deepest */
  size_t bbytes = 0, abytes = 0;
  for (int r = 0; r < nthreads; r++) {
    int64_t div = (j.rn[r + 1] - j.rn[r] + DIVIDE_RATE - 1) / DIVIDE_RATE;
    for (int64_t js = j.rn[r]; js < j.rn[r + 1]; js += div) {
      int64_t hi = js + div < j.rn[r + 1] ? js + div : j.rn[r + 1];
      j.pc_range[j.np] = r;
      j.pc[j.np++] = (piece){js, hi, bbytes};
      bbytes += packed_bytes(hi - js, p->unroll_n, lmax, j.isz);
    }
  }
  int64_t nmb = 0;
  for (int i = 0; i < ntm; i++)
    for (int64_t is = j.rm[i], mi; is < j.rm[i + 1]; is += mi, nmb++) {
      mi = m_block(j.rm[i + 1] - is, is == j.rm[i], p);
      abytes += packed_bytes(mi, p->unroll_m, lmax, j.isz);
    }
  int64_t nk = 0;
  for (int64_t ls = 0; ls < k; ls += ct__blas_k_block(k - ls, p->q)) nk++;
  bool scale = !is_one(dt, beta), work = !is_zero(dt, alpha);
  j.betas = scale ? (int64_t)ntm * j.tn : 0;
  int64_t ntasks = j.betas + (work ? nk * (nmb + j.np + nmb * j.np) : 0);
  /* alpha 0: the beta passes alone (the driver returns after them) */
  size_t packs = SETS * (bbytes + abytes), tables = (size_t)nmb * sizeof(mblock) +
                                                    (size_t)ntasks * (sizeof(task) + sizeof(int64_t)) +
                                                    (size_t)(2 * nk + 1) * sizeof(int64_t);
  char *mem = scratch_take(packs + tables + (size_t)ntasks);
  if (!mem) {
    ct_clear_error(); /* OpenBLAS's own threads then do it */
    return false;
  }
  for (int s = 0; s < SETS; s++) {
    j.bbuf[s] = mem + s * (bbytes + abytes);
    j.abuf[s] = j.bbuf[s] + bbytes;
  }
  char *at = mem + packs;
  j.tasks = (task *)(void *)at;
  at += (size_t)ntasks * sizeof(task);
  /* the index tables: [s][mb], [s][q], [s][mb][q] (nk * (nmb + np + nmb * np) entries, within ntasks) */
  j.at_pack_a = (int64_t *)(void *)at;
  j.at_pack_b = j.at_pack_a + nk * nmb;
  j.at_multiply = j.at_pack_b + nk * j.np;
  j.ls = j.at_pack_a + ntasks;
  j.min_l = j.ls + nk;
  j.mb = (mblock *)(void *)(j.min_l + nk + 1);
  j.state = (_Atomic uint8_t *)(void *)(j.mb + nmb);
  j.nk = nk;
  for (int64_t s = 0, ls = 0; s < nk; ls += j.min_l[s++]) {
    j.ls[s] = ls;
    j.min_l[s] = ct__blas_k_block(k - ls, p->q);
  }
  abytes = 0;
  for (int i = 0; i < ntm; i++)
    for (int64_t is = j.rm[i], mi; is < j.rm[i + 1]; is += mi) {
      mi = m_block(j.rm[i + 1] - is, is == j.rm[i], p);
      if (is == j.rm[i]) j.first_mb[i] = j.nmb;
      j.mb[j.nmb++] = (mblock){i, is, mi, abytes};
      abytes += packed_bytes(mi, p->unroll_m, lmax, j.isz);
    }
  build_tasks(&j, work);
  if (j.ntasks) ct__parallel_run(nt, run_tasks, &j);
  scratch_give(mem);
  return true;
}

bool ct__blas_gemm_batchable(const ct_blas_gemm_params *p) { return p->q != 0 && p->k_blocks_only; }

/* One matrix of a batch on this thread: serial OpenBLAS calls per threaded K block (the first with the
   caller's beta, the rest with beta 1: the kernel adds each block's alpha * sum to C, as the threaded
   driver does), which gives the threaded bits where the kernel depends on the K blocks alone. */
void ct__blas_gemm_one_thread(const ct_blas_gemm_params *p, ct_dtype dt, char transa, char transb, int64_t m,
                              int64_t n, int64_t k, const void *alpha, const void *a, int64_t lda,
                              const void *b, int64_t ldb, const void *beta, void *c, int64_t ldc) {
  int ntm, nthreads;
  if (ct__omp_get_max_threads() != 1) ct__omp_set_num_threads(1); /* OpenBLAS then runs on this thread alone */
  if (!p->k_blocks_only || !threaded_driver(dt, m, n, k, ct__num_threads(), &ntm, &nthreads)) {
    ct__blas_gemm_nosync(dt, transa, transb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
    return;
  }
  static const double one[2] = {1, 0};
  static const float onef[2] = {1, 0};
  const void *beta1 = dt == CT_COMPLEX128 || dt == CT_FLOAT64 ? (const void *)one : (const void *)onef;
  int64_t es = (int64_t)ct__itemsize(dt);
  for (int64_t ls = 0, kb; ls < k; ls += kb) {
    kb = ct__blas_k_block(k - ls, p->q);
    int64_t ao = (transa | 0x20) == 'n' ? ls * lda : ls;
    int64_t bo = (transb | 0x20) == 'n' ? ls : ls * ldb;
    ct__blas_gemm_nosync(dt, transa, transb, m, n, kb, alpha, (const char *)a + ao * es, lda,
                         (const char *)b + bo * es, ldb, ls ? beta1 : beta, c, ldc);
  }
}

/* ---- gemv ----
   OpenBLAS 0.3.21's threaded real gemv (interface/gemv.c, driver/level2/gemv_thread.c): from m * n >= 2304 *
   GEMM_MULTITHREAD_THRESHOLD (4) on, the outputs (A's columns for 't', its rows for 'n') are cut into
   ranges of ceil(left / threads left) but at least 4, and each range is one serial kernel call on its part
   of A and y. The same calls, one per range, through the interface on one thread (which scales its part of
   y by beta first, as the threaded interface does for all of y) make the same kernel calls: the same bits
   on any core. Not reproduced: 'n' with fewer ranges than threads (m <= 4 at 2 threads), where OpenBLAS
   may split x instead and sum partial results; negative increments; complex (its own split). */

typedef struct serial_job {
  ct_par_chunk_fn fn;
  void *ctx;
} serial_job;

static void serial_chunk(void *c, int64_t i, int tid) {
  const serial_job *s = c;
  if (ct__omp_get_max_threads() != 1) ct__omp_set_num_threads(1); /* OpenBLAS runs the call on this thread */
  s->fn(s->ctx, i, tid);
}

void ct__blas_serial_calls_on_pool(int64_t n, int nt, ct_par_chunk_fn fn, void *ctx) {
  int saved = ct__omp_get_max_threads();
  serial_job s = {fn, ctx};
  ct__parallel_chunks(n, nt, serial_chunk, &s);
  if (ct__omp_get_max_threads() != saved) ct__omp_set_num_threads(saved);
}

typedef struct gemv_job {
  ct_dtype dt;
  char trans;
  int64_t m, n, lda, incx, incy, es;
  const char *a, *x;
  char *y;
  const void *alpha, *beta;
  int64_t range[MAX_PARTS + 1];
} gemv_job;

static void gemv_range(void *ctx, int64_t r, int tid) {
  (void)tid;
  const gemv_job *j = ctx;
  int64_t lo = j->range[r], w = j->range[r + 1] - lo;
  bool t = (j->trans | 0x20) == 't';
  ct__blas_gemv_nosync(j->dt, j->trans, t ? j->m : w, t ? w : j->n, j->alpha,
                       j->a + (t ? lo * j->lda : lo) * j->es, j->lda, j->x, j->incx, j->beta,
                       j->y + lo * j->incy * j->es, j->incy);
}

bool ct__blas_gemv_pooled(const char *config, ct_dtype dt, char trans, int64_t m, int64_t n,
                          const void *alpha, const void *a, int64_t lda, const void *x, int64_t incx,
                          const void *beta, void *y, int64_t incy) {
  int nt = ct__num_threads();
  if (nt < 2 || nt > MAX_PARTS || (dt != CT_FLOAT32 && dt != CT_FLOAT64) || incx <= 0 || incy <= 0 ||
      !openblas_0321_openmp(config) || m * n < 2304 * 4)
    return false;
  bool t = (trans | 0x20) == 't';
  gemv_job j = {.dt = dt,
                .trans = trans,
                .m = m,
                .n = n,
                .lda = lda,
                .incx = incx,
                .incy = incy,
                .es = (int64_t)ct__itemsize(dt),
                .a = a,
                .x = x,
                .y = y,
                .alpha = alpha,
                .beta = beta};
  int ranges = split(0, t ? n : m, nt, 4, j.range);
  /* 't' in one range is one serial call anyway; 'n' in fewer ranges than threads may split x instead */
  if (ranges < 2 || (!t && ranges < nt)) return false;
  ct__blas_serial_calls_on_pool(ranges, nt, gemv_range, &j);
  return true;
}

/* ---- dot ----
   OpenBLAS 0.3.21's ddot.c and zdot.c kernels (kernel/x86_64, the cores listed below) thread a dot of more
   than 10000 elements with non-zero increments: blas_level1_thread_with_return_value cuts n into ranges of
   ceil(left / threads left), each range's dot_compute is one partial, and the partials are added in range
   order to a sum that starts at 0.0 (each part of a complex one alone). Each range as one serial call on
   a pool thread (where it takes dot_compute: at most one thread) and the same sum give the same bits. The
   float32 (sdot.c) and complex64 (cdot.c) kernels and the assembly ones of other cores never thread. */
static const char *const ddot_threaded[] = {"Haswell",        "Zen",         "SkylakeX", "Cooperlake",
                                            "SapphireRapids", "Sandybridge", "Nehalem",  "Excavator",
                                            "Piledriver",     "Steamroller"};
static const char *const zdot_threaded[] = {"Haswell",        "Zen",         "SkylakeX",  "Cooperlake",
                                            "SapphireRapids", "Sandybridge", "Bulldozer", "Excavator",
                                            "Piledriver",     "Steamroller"};

typedef struct dot_job {
  ct_dtype dt;
  bool conj_x;
  int64_t incx, incy, es;
  const char *x, *y;
  int64_t range[MAX_PARTS + 1];
  double part[MAX_PARTS][2];
} dot_job;

static void dot_range(void *ctx, int64_t r, int tid) {
  (void)tid;
  dot_job *j = ctx;
  int64_t lo = j->range[r];
  ct__blas_dot_nosync(j->dt, j->conj_x, j->range[r + 1] - lo, j->x + lo * j->incx * j->es, j->incx,
                      j->y + lo * j->incy * j->es, j->incy, j->part[r]);
}

bool ct__blas_dot_pooled(const char *config, const char *core, ct_dtype dt, bool conj_x, int64_t n,
                         const void *x, int64_t incx, const void *y, int64_t incy, void *result) {
  int nt = ct__num_threads();
  if (nt < 2 || nt > MAX_PARTS || n <= 10000 || incx <= 0 || incy <= 0 || !core ||
      (dt != CT_FLOAT64 && dt != CT_COMPLEX128) || !openblas_0321_openmp(config))
    return false;
  const char *const *cores = dt == CT_FLOAT64 ? ddot_threaded : zdot_threaded;
  bool threaded = false;
  for (size_t i = 0; i < sizeof ddot_threaded / sizeof *ddot_threaded; i++)
    threaded |= strcmp(core, cores[i]) == 0;
  if (!threaded) return false;
  dot_job j = {.dt = dt,
               .conj_x = conj_x,
               .incx = incx,
               .incy = incy,
               .es = (int64_t)ct__itemsize(dt),
               .x = x,
               .y = y};
  int ranges = split(0, n, nt, 1, j.range);
  ct__blas_serial_calls_on_pool(ranges, nt, dot_range, &j);
  double sum[2] = {0.0, 0.0};
  for (int r = 0; r < nt; r++)
    for (int p = 0; p < 2; p++) sum[p] = sum[p] + (r < ranges ? j.part[r][p] : 0.0);
  memcpy(result, sum, dt == CT_FLOAT64 ? sizeof(double) : 2 * sizeof(double));
  return true;
}
