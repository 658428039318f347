/* The library's parallel_for (src/core/parallel.c): every chunk runs exactly once on a thread below the
   count asked for, whatever the count; nested and concurrent calls, thousands of tiny jobs in a row, and
   a forked child all work; ops give the same bits at 1, 2 and 3 threads through it. */
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "core/parallel.h"

#define NCH 3000

typedef struct count_ctx {
  _Atomic int hits[NCH];
  _Atomic int bad_tid;
  int nt;
} count_ctx;

static void count_chunk(void *v, int64_t i, int tid) {
  count_ctx *c = v;
  atomic_fetch_add(&c->hits[i], 1);
  if (tid < 0 || tid >= c->nt) atomic_store(&c->bad_tid, 1);
  for (volatile int k = 0; k < 200; k++) { /* a little work, so that workers get to join */
  }
}

static bool each_once(int64_t n, int nt) {
  static count_ctx c;
  memset(&c, 0, sizeof c);
  c.nt = nt;
  ct__parallel_chunks(n, nt, count_chunk, &c);
  bool ok = !atomic_load(&c.bad_tid);
  for (int64_t i = 0; i < n; i++) ok &= atomic_load(&c.hits[i]) == 1;
  for (int64_t i = n; i < NCH; i++) ok &= atomic_load(&c.hits[i]) == 0;
  return ok;
}

static void test_each_chunk_once(void) {
  int counts[] = {1, 2, 3, 4, 8};
  int64_t sizes[] = {0, 1, 2, 3, 17, NCH};
  for (size_t a = 0; a < sizeof counts / sizeof counts[0]; a++)
    for (size_t b = 0; b < sizeof sizes / sizeof sizes[0]; b++) CHECK(each_once(sizes[b], counts[a]));
}

/* Many tiny jobs back to back: workers go from spinning to sleeping and back between some of them. */
static void test_many_jobs(void) {
  bool ok = true;
  for (int r = 0; r < 20000 && ok; r++) {
    ok &= each_once(1 + r % 5, 2 + r % 2);
    if (r % 4000 == 3999) usleep(2000); /* long enough for the workers to fall asleep */
  }
  CHECK(ok);
}

/* A chunk that starts a parallel job of its own: the inner job runs on that thread alone. */
typedef struct nest_ctx {
  _Atomic int inner_total;
  _Atomic int inner_bad;
} nest_ctx;

static void inner_chunk(void *v, int64_t i, int tid) {
  (void)i;
  nest_ctx *n = v;
  if (tid != 0) atomic_store(&n->inner_bad, 1); /* nested: only the calling thread */
  atomic_fetch_add(&n->inner_total, 1);
}

static void outer_chunk(void *v, int64_t i, int tid) {
  (void)i;
  (void)tid;
  ct__parallel_chunks(10, 2, inner_chunk, v);
}

static void test_nested(void) {
  nest_ctx n = {0, 0};
  ct__parallel_chunks(50, 2, outer_chunk, &n);
  CHECK_EQ_INT(atomic_load(&n.inner_total), 500);
  CHECK(!atomic_load(&n.inner_bad));
}

/* Two user threads running jobs at once: one gets the pool, the other runs alone; both are complete. */
static void *user_thread(void *arg) {
  bool *ok = arg;
  *ok = true;
  for (int r = 0; r < 2000; r++) {
    static _Thread_local count_ctx c;
    memset(&c, 0, sizeof c);
    c.nt = 2;
    ct__parallel_chunks(64, 2, count_chunk, &c);
    for (int i = 0; i < 64; i++) *ok &= atomic_load(&c.hits[i]) == 1;
    *ok &= !atomic_load(&c.bad_tid);
  }
  return NULL;
}

static void test_concurrent_callers(void) {
  pthread_t t[3];
  bool ok[3];
  for (int i = 0; i < 3; i++) CHECK(pthread_create(&t[i], NULL, user_thread, &ok[i]) == 0);
  for (int i = 0; i < 3; i++) {
    pthread_join(t[i], NULL);
    CHECK(ok[i]);
  }
}

/* A 1M-element sum and cumsum at 1, 2 and 3 threads: the same bits (the chunks are fixed). */
static ct_tensor *ramp(int64_t n) {
  ct_tensor *t = ct_empty(CT_SHAPE(n), &(ct_tensor_opts){.dtype = CT_FLOAT32});
  float *p = ct_data_ptr(t);
  uint32_t s = 12345;
  for (int64_t i = 0; i < n; i++) {
    s = s * 1664525u + 1013904223u;
    p[i] = (float)((int32_t)s) * 0x1p-28f;
  }
  return t;
}

static bool same_bits(const ct_tensor *a, const ct_tensor *b) {
  return a && b && ct_nbytes(a) == ct_nbytes(b) && memcmp(ct_data_ptr(a), ct_data_ptr(b), (size_t)ct_nbytes(a)) == 0;
}

static void test_ops_thread_independent(void) {
  ct_tensor *x = ramp(1 << 20);
  ct_set_num_threads(1);
  ct_tensor *s1 = ct_sum(x, NULL), *c1 = ct_cumsum(x, 0, NULL), *e1 = ct_exp(x);
  for (int nt = 2; nt <= 3; nt++) {
    ct_set_num_threads(nt);
    ct_tensor *s = ct_sum(x, NULL), *c = ct_cumsum(x, 0, NULL), *e = ct_exp(x);
    CHECK(same_bits(s, s1));
    CHECK(same_bits(c, c1));
    CHECK(same_bits(e, e1));
    ct_release(s);
    ct_release(c);
    ct_release(e);
  }
  ct_set_num_threads(0);
  ct_release(s1);
  ct_release(c1);
  ct_release(e1);
  ct_release(x);
}

/* A child forked after the pool started has no workers: it starts its own (and does not hang). */
static void test_fork(void) {
  CHECK(each_once(NCH, 2)); /* the parent's pool is running */
  pid_t pid = fork();
  if (pid == 0) {
    alarm(20);
    _exit(each_once(NCH, 2) && each_once(100, 3) ? 0 : 1);
  }
  int status = 0;
  CHECK(pid > 0 && waitpid(pid, &status, 0) == pid);
  CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

/* Workers that the OS can only run on the calling thread's CPU take no chunk (they would take turns
   with the calling thread on that CPU, which then waits for the chunk they hold): in a child pinned to
   one CPU before its pool starts (its workers inherit the pin), every chunk of every job runs on the
   calling thread, each exactly once, at 2 and 3 threads, and ops give the same bits as at 1 thread. */
typedef struct tid_ctx {
  _Atomic int hits[NCH];
  _Atomic int on_worker;
} tid_ctx;

static void tid_chunk(void *v, int64_t i, int tid) {
  tid_ctx *c = v;
  atomic_fetch_add(&c->hits[i], 1);
  if (tid != 0) atomic_store(&c->on_worker, 1);
  for (volatile int k = 0; k < 2000; k++) { /* long enough for a worker to join if it would */
  }
}

static bool pinned_child(void) {
  cpu_set_t one;
  CPU_ZERO(&one);
  int cpu = sched_getcpu();
  if (cpu < 0) return false;
  CPU_SET(cpu, &one);
  if (sched_setaffinity(0, sizeof one, &one) != 0) return false;
  static tid_ctx c;
  bool ok = !ct__parallel_leave(1); /* outside a job */
  for (int r = 0; r < 40 && ok; r++) {
    memset(&c, 0, sizeof c);
    ct__parallel_chunks(NCH, 2 + r % 2, tid_chunk, &c);
    ok &= !atomic_load(&c.on_worker);
    for (int i = 0; i < NCH; i++) ok &= atomic_load(&c.hits[i]) == 1;
    if (r % 10 == 9) usleep(70000); /* past the longest quiet period: workers are woken again */
  }
  ct_tensor *x = ramp(1 << 20);
  ct_set_num_threads(1);
  ct_tensor *s1 = ct_sum(x, NULL), *c1 = ct_cumsum(x, 0, NULL);
  ct_set_num_threads(2);
  ct_tensor *s2 = ct_sum(x, NULL), *c2 = ct_cumsum(x, 0, NULL);
  ok &= same_bits(s1, s2) && same_bits(c1, c2);
  ct_release(s1);
  ct_release(c1);
  ct_release(s2);
  ct_release(c2);
  ct_release(x);
  return ok;
}

static void test_workers_leave_shared_cpu(void) {
  pid_t pid = fork();
  if (pid == 0) {
    alarm(60);
    _exit(pinned_child() ? 0 : 1);
  }
  int status = 0;
  CHECK(pid > 0 && waitpid(pid, &status, 0) == pid);
  CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

/* The grain's two rules. The pointwise split is at::parallel_for's in torch 1.13 (Parallel-inl.h and
   ParallelOpenMP.h): serial unless numel > grain (32768), then min(threads, divup(numel, grain)) tasks of
   divup(numel, tasks) elements. The thread count for work cut freely: 1 below two grains, else at most one
   thread per grain. */
static void test_grain_rules(void) {
  int64_t ranges;
  CHECK_EQ_INT(ct__parallel_torch_split(32768, 2, &ranges), 32768);
  CHECK_EQ_INT(ranges, 1);
  CHECK_EQ_INT(ct__parallel_torch_split(32769, 2, &ranges), 16385);
  CHECK_EQ_INT(ranges, 2);
  CHECK_EQ_INT(ct__parallel_torch_split(100000, 3, &ranges), 33334);
  CHECK_EQ_INT(ranges, 3);
  CHECK_EQ_INT(ct__parallel_torch_split(70000, 8, &ranges), 23334);
  CHECK_EQ_INT(ranges, 3);
  CHECK_EQ_INT(ct__parallel_torch_split(1 << 20, 1, &ranges), 1 << 20);
  CHECK_EQ_INT(ranges, 1);
  ct_set_num_threads(4);
  CHECK_EQ_INT(ct__parallel_threads(2 * CT_PAR_GRAIN - 1), 1);
  bool quiet = ct__parallel_quiet(); /* a quiet period (parallel.c) makes it 1 */
  CHECK_EQ_INT(ct__parallel_threads(3 * CT_PAR_GRAIN), quiet ? 1 : 3);
  CHECK_EQ_INT(ct__parallel_threads(100 * CT_PAR_GRAIN), quiet ? 1 : 4);
  ct_set_num_threads(0);
}

int main(void) {
  test_grain_rules();
  test_each_chunk_once();
  test_many_jobs();
  test_nested();
  test_concurrent_callers();
  test_ops_thread_independent();
  test_fork();
  test_workers_leave_shared_cpu();
  return TEST_SUMMARY();
}
