/* The thread pool behind ct__parallel_run (see parallel.h).

   Why not OpenMP: libgomp's team ends every region with a barrier, splits `for` loops statically unless
   told otherwise, and lets idle threads spin (GOMP_SPINCOUNT) before they sleep. With the other core
   busy, the region's end waits for a worker that the OS has not run yet, and the spinning threads take
   the core from the one that holds the work: a 16M sum took 11x longer at 2 threads than at 1. Here the
   calling thread works from the start and never waits for a worker that has taken nothing; it waits
   only for the chunks that workers hold, spinning briefly and then sleeping, so that the OS can move
   the late worker onto the core it leaves free. Workers spin briefly after a job (the next op often
   follows at once) and then sleep on a futex.

   Where the other CPUs are busy with other programs, the OS wakes a worker on the calling thread's own
   CPU: the two then take turns on one CPU, the caller's share goes at half speed, and the caller waits
   at the end for the chunk the worker holds while the OS runs it. So a worker that finds itself on the
   owner's CPU takes no (more) work and sleeps, and after such a job the owner runs jobs alone for a
   quiet period (1 ms, doubling while it keeps happening, up to 64 ms): waking a worker that would only
   leave costs a few microseconds, as much as a small op. A job whose end waited long for a worker that
   the OS held back on another CPU (more programs running than CPUs) starts a quiet period too. A
   worker that then runs on a CPU of its own without keeping the owner waiting ends the quiet periods.
   Callers that can cut their work for one thread during a quiet period do (ct__parallel_quiet). On two
   CPUs of an otherwise idle machine with one spinning process, every threads_load.py op at 2 threads
   took 0.95-1.04x its 1-thread time (medians of 15 runs; before: 1.02-1.07x, cumsum 1.5x, the worker
   on the caller's CPU in nearly every job); at 256K elements 1.00-1.05x (before: adds, exps and dim-0
   sums 1.2-2x); without the spinner the 2-thread gains stayed (0.5x; cumsum 0.75x).

   The protocol: the owner (the one thread that holds the pool for a job) publishes the job in `cur` and
   bumps `gen`; a worker that sees `gen` move enters `busy`, and only then reads `cur`. The owner runs its
   own share, clears `cur`, and waits for `busy` to drop to 0. Both pairs of accesses are sequentially
   consistent, so a worker either sees the job while the owner still counts it, or sees no job. */
#include "core/parallel.h"

#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#if defined(__linux__)
#include <linux/futex.h>
#include <sys/syscall.h>
#endif
#include "core/omp_runtime.h"

#include "ctorch.h"

#define MAX_WORKERS 255
/* A worker that finished a job spins this long for the next one before it sleeps: consecutive ops on
   an idle machine then start at once. Longer costs the other programs CPU after every op; shorter makes
   ops that come a little apart wake the worker each time (in a virtual machine that takes long enough
   that a 16M sum between 1-thread calls got no help from it at 100 us, where libgomp, spinning for
   milliseconds, got 0.6x; back to back both get 0.6x). */
#define WORKER_SPIN_NS 100000
/* The calling thread, done with its share, spins while workers finish the chunks they hold: about twice
   its own mean chunk time (a worker still running finishes its chunk within about one chunk's time; one
   that has not by then is most likely held back by the OS), or an eighth of its own share's time where
   the job has no chunks of its own, within these bounds. Then it sleeps and frees its core, for the late
   worker itself when the OS moves it there. (A fixed 20 us cost idle 2-thread sums of 4096x4096 over a
   dim 0.8x of one thread instead of 0.45x: a worker finishing 30 us later had to wake the caller, slow
   in a virtual machine; a fixed 500 us cost a loaded cumsum 1.9x.) */
#define OWNER_SPIN_MIN_NS 20000
#define OWNER_SPIN_MAX_NS 500000

/* The quiet periods (see the top). */
#define QUIET_MIN_NS 1000000
#define QUIET_MAX_NS 64000000

/* Set by run_chunks on the owning thread: its mean time per chunk (0: not a chunked job). */
static _Thread_local int64_t owner_chunk_ns;

/* ---- thread count ---- */

static _Atomic int num_threads_setting = 0; /* 0: OpenMP's default */

void ct_set_num_threads(int n) { atomic_store(&num_threads_setting, n > 0 ? n : 0); }

int ct_get_num_threads(void) {
  int n = atomic_load(&num_threads_setting);
  return n > 0 ? n : ct__omp_get_max_threads();
}

int ct__num_threads(void) { return ct_get_num_threads(); }

/* ---- waiting ---- */

/* The CPU the calling thread runs on, -1 if unknown (a memory read with glibc's rseq). */
static int current_cpu(void) {
#if defined(__linux__)
  return sched_getcpu();
#else
  return -1;
#endif
}

static inline void cpu_relax(void) {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}

static int64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* The clock of the quiet periods: they are milliseconds long, so the coarse clock will do, the cheapest
   to read (with the precise one, 256K-element means at 2 threads in a quiet period took 1.03-1.05x their
   1-thread time in a virtual machine, 1.00x with this one). */
static int64_t coarse_ns(void) {
#if defined(CLOCK_MONOTONIC_COARSE)
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
  return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
#else
  return now_ns();
#endif
}

/* Spins until *w != v or ns nanoseconds have passed; returns whether *w moved. */
static bool spin_while_eq(_Atomic uint32_t *w, uint32_t v, int64_t ns) {
  int64_t deadline = 0;
  for (int i = 0;; i++) {
    if (atomic_load_explicit(w, memory_order_acquire) != v) return true;
    cpu_relax();
    if ((i & 63) == 63) { /* the clock every 64 pauses: a few microseconds */
      int64_t t = now_ns();
      if (!deadline)
        deadline = t + ns;
      else if (t >= deadline)
        return false;
    }
  }
}

#if defined(__linux__)
/* Sleeps while *w == v (returns at once when it differs; spurious returns are allowed). */
static void sleep_on(_Atomic uint32_t *w, uint32_t v) {
  syscall(SYS_futex, (uint32_t *)w, FUTEX_WAIT_PRIVATE, v, NULL, NULL, 0);
}
static void wake_all(_Atomic uint32_t *w) { syscall(SYS_futex, (uint32_t *)w, FUTEX_WAKE_PRIVATE, INT_MAX, NULL, NULL, 0); }
#else
static pthread_mutex_t wait_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t wait_cond = PTHREAD_COND_INITIALIZER;
static void sleep_on(_Atomic uint32_t *w, uint32_t v) {
  pthread_mutex_lock(&wait_lock);
  if (atomic_load(w) == v) pthread_cond_wait(&wait_cond, &wait_lock);
  pthread_mutex_unlock(&wait_lock);
}
static void wake_all(_Atomic uint32_t *w) {
  (void)w;
  pthread_mutex_lock(&wait_lock);
  pthread_cond_broadcast(&wait_cond);
  pthread_mutex_unlock(&wait_lock);
}
#endif

/* ---- the pool ---- */

typedef struct job {
  void (*fn)(void *ctx, int tid);
  void *ctx;
  int want;              /* workers wanted: nt - 1 */
  _Atomic int slots;     /* worker slots handed out so far */
  _Atomic int owner_cpu; /* where the owner was when it last looked (ct__parallel_leave) */
  _Atomic bool shared;   /* a worker left for finding itself on the owner's CPU */
  _Atomic bool helped;   /* a worker ran fn on a CPU of its own */
} job;

/* The job this thread runs fn for (NULL outside fn), for ct__parallel_leave. */
static _Thread_local job *in_job;
/* Set on a worker that left its job for sharing the owner's CPU: it sleeps at once afterwards. */
static _Thread_local bool left_shared;

static struct {
  _Atomic uint32_t gen;      /* bumped for each job; workers sleep on it */
  _Atomic int sleepers;      /* workers asleep (or about to be) on gen */
  _Atomic(job *) cur;        /* the open job, or NULL */
  _Atomic uint32_t busy;     /* workers between seeing gen move and leaving; the owner sleeps on it */
  _Atomic int owner_waits;   /* the owner sleeps (or is about to) on busy */
  _Atomic int owned;         /* a thread holds the pool */
  int nworkers;              /* started so far (changed by the owner only) */
  _Atomic int64_t quiet_until; /* the owner runs jobs alone until then (written by the owner) */
  int64_t quiet_ns;          /* the last quiet period's length, 0: none since a worker helped */
} pool;

/* arg: gen when the worker was started (before the job it was started for was published). */
static void *worker_main(void *arg) {
  uint32_t seen = (uint32_t)(uintptr_t)arg;
  for (;;) {
    /* after leaving a job for sharing the owner's CPU it sleeps at once: spinning there would take the
       CPU from the thread that does the work */
    if (left_shared || !spin_while_eq(&pool.gen, seen, WORKER_SPIN_NS)) {
      left_shared = false;
      atomic_fetch_add(&pool.sleepers, 1);
      while (atomic_load(&pool.gen) == seen) sleep_on(&pool.gen, seen);
      atomic_fetch_sub(&pool.sleepers, 1);
    }
    seen = atomic_load(&pool.gen);
    atomic_fetch_add(&pool.busy, 1);
    job *j = atomic_load(&pool.cur);
    if (j) {
      int slot = atomic_fetch_add_explicit(&j->slots, 1, memory_order_relaxed);
      if (slot < j->want) {
        in_job = j;
        if (!ct__parallel_leave(slot + 1)) { /* the OS often wakes it on the owner's CPU */
          atomic_store_explicit(&j->helped, true, memory_order_relaxed);
          j->fn(j->ctx, slot + 1);
        }
        in_job = NULL;
      }
    }
    if (atomic_fetch_sub(&pool.busy, 1) == 1 && atomic_load(&pool.owner_waits)) wake_all(&pool.busy);
  }
  return NULL;
}

/* A forked child has none of the parent's workers: it starts a pool of its own when it needs one. */
static void after_fork_child(void) {
  atomic_store(&pool.quiet_until, 0);
  pool.quiet_ns = 0;
  atomic_store(&pool.cur, NULL);
  atomic_store(&pool.busy, 0);
  atomic_store(&pool.sleepers, 0);
  atomic_store(&pool.owner_waits, 0);
  atomic_store(&pool.owned, 0);
  pool.nworkers = 0;
}
static void register_fork_handler(void) { pthread_atfork(NULL, NULL, after_fork_child); }
static pthread_once_t fork_once = PTHREAD_ONCE_INIT;

/* Starts workers until there are n (fewer if the system refuses); the owner calls it. Workers block
   every signal: a program's handlers run on its own threads. */
static void grow(int n) {
  if (n > MAX_WORKERS) n = MAX_WORKERS;
  if (pool.nworkers >= n) return;
  pthread_once(&fork_once, register_fork_handler);
  sigset_t all, old;
  sigfillset(&all);
  pthread_sigmask(SIG_SETMASK, &all, &old);
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
  while (pool.nworkers < n) {
    pthread_t t;
    if (pthread_create(&t, &attr, worker_main, (void *)(uintptr_t)atomic_load(&pool.gen)) != 0) break;
    pool.nworkers++;
  }
  pthread_attr_destroy(&attr);
  pthread_sigmask(SIG_SETMASK, &old, NULL);
}

bool ct__parallel_quiet(void) {
  int64_t until = atomic_load_explicit(&pool.quiet_until, memory_order_relaxed);
  return until && coarse_ns() < until;
}

void ct__parallel_run(int nt, void (*fn)(void *ctx, int tid), void *ctx) {
  int expected = 0;
  if (nt <= 1 || !atomic_compare_exchange_strong(&pool.owned, &expected, 1)) {
    job *outer = in_job; /* a job run inside another's fn: ct__parallel_leave answers for neither */
    in_job = NULL;
    fn(ctx, 0);
    in_job = outer;
    return;
  }
  if (ct__parallel_quiet()) {
    fn(ctx, 0);
    atomic_store(&pool.owned, 0);
    return;
  }
  grow(nt - 1);
  job j = {fn, ctx, nt - 1 < pool.nworkers ? nt - 1 : pool.nworkers, 0, current_cpu(), false, false};
  if (j.want > 0) {
    atomic_store(&pool.cur, &j);
    atomic_fetch_add(&pool.gen, 1);
    if (atomic_load(&pool.sleepers) > 0) wake_all(&pool.gen);
  }
  owner_chunk_ns = 0;
  int64_t t0 = now_ns();
  in_job = &j;
  fn(ctx, 0);
  in_job = NULL;
  if (j.want > 0) {
    atomic_store(&pool.cur, NULL);
    int64_t t1 = now_ns();
    int64_t spin = owner_chunk_ns ? 2 * owner_chunk_ns : (t1 - t0) / 8;
    spin = spin < OWNER_SPIN_MIN_NS ? OWNER_SPIN_MIN_NS : spin > OWNER_SPIN_MAX_NS ? OWNER_SPIN_MAX_NS : spin;
    int64_t deadline = 0;
    uint32_t b;
    bool slept = false;
    while ((b = atomic_load(&pool.busy)) != 0) {
      int64_t t = now_ns();
      if (!deadline) deadline = t + spin;
      /* a worker on this CPU gets to finish only once we stop spinning */
      if (t < deadline && !atomic_load_explicit(&j.shared, memory_order_relaxed)) {
        cpu_relax();
        continue;
      }
      /* workers that leave after this store see it; the last one out wakes us */
      atomic_store(&pool.owner_waits, 1);
      if ((b = atomic_load(&pool.busy)) != 0) sleep_on(&pool.busy, b);
      slept = true;
    }
    atomic_store(&pool.owner_waits, 0);
    /* a worker that kept the owner waiting past its spin for more than a quarter of its own share's
       time was held back by the OS on a CPU of its own (the machine is busier than it has CPUs): the
       job ran slower than on the owner alone, so the next ones run alone for a while too */
    bool stalled = slept && now_ns() - t1 > (t1 - t0) / 4;
    if (atomic_load(&j.shared) || stalled) {
      pool.quiet_ns = pool.quiet_ns ? pool.quiet_ns * 2 : QUIET_MIN_NS;
      if (pool.quiet_ns > QUIET_MAX_NS) pool.quiet_ns = QUIET_MAX_NS;
      atomic_store_explicit(&pool.quiet_until, coarse_ns() + pool.quiet_ns, memory_order_relaxed);
    } else if (atomic_load(&j.helped)) {
      pool.quiet_ns = 0;
      atomic_store_explicit(&pool.quiet_until, 0, memory_order_relaxed);
    }
  }
  atomic_store(&pool.owned, 0);
}

bool ct__parallel_leave(int tid) {
  job *j = in_job;
  if (!j) return false;
  int cpu = current_cpu();
  if (tid == 0) {
    atomic_store_explicit(&j->owner_cpu, cpu, memory_order_relaxed);
    return false;
  }
  if (cpu < 0 || cpu != atomic_load_explicit(&j->owner_cpu, memory_order_relaxed)) return false;
  atomic_store_explicit(&j->shared, true, memory_order_relaxed);
  left_shared = true;
  return true;
}

/* ---- chunks ---- */

typedef struct chunk_job {
  ct_par_chunk_fn fn;
  void *ctx;
  int64_t n;
  _Atomic int64_t next;
} chunk_job;

static void run_chunks(void *p, int tid) {
  chunk_job *c = p;
  int64_t done = 0, t0 = tid == 0 ? now_ns() : 0;
  for (;; done++) {
    if (ct__parallel_leave(tid)) break; /* before taking a chunk: the others run what it leaves */
    int64_t i = atomic_fetch_add_explicit(&c->next, 1, memory_order_relaxed);
    if (i >= c->n) break;
    c->fn(c->ctx, i, tid);
  }
  if (tid == 0 && done) owner_chunk_ns = (now_ns() - t0) / done;
}

void ct__parallel_chunks(int64_t n, int nt, ct_par_chunk_fn fn, void *ctx) {
  if (nt > n) nt = (int)n;
  if (nt <= 1) {
    for (int64_t i = 0; i < n; i++) fn(ctx, i, 0);
    return;
  }
  chunk_job c = {fn, ctx, n, 0};
  ct__parallel_run(nt, run_chunks, &c);
}

int64_t ct__parallel_nchunks(int64_t n, int nt) {
  int64_t k = n / (2 * CT_PAR_GRAIN);
  if (k < nt) k = n / CT_PAR_GRAIN < nt ? n / CT_PAR_GRAIN : nt;
  if (k > CT_PAR_MAX_CHUNKS) k = CT_PAR_MAX_CHUNKS;
  return k > 1 ? k : 1;
}

int ct__parallel_threads(int64_t work) {
  if (work < 2 * CT_PAR_GRAIN) return 1;
  int nt = ct__num_threads();
  if (nt > 1 && ct__parallel_quiet()) return 1;
  int64_t most = work / CT_PAR_GRAIN;
  return nt < most ? nt : (int)most;
}

int64_t ct__parallel_torch_split(int64_t n, int nt, int64_t *ranges) {
  int64_t r = 1;
  if (n >= CT_PAR_GRAIN && nt > 1) {
    int64_t most = ct__div_up(n, CT_PAR_GRAIN);
    r = nt < most ? nt : most;
  }
  *ranges = r;
  return ct__div_up(n, r);
}
