/* libgomp through dlopen (omp_runtime.h).

   ctorch's own work runs on its pool (parallel.c); OpenBLAS's OpenMP build and oneDNN run theirs on
   libgomp's threads, which ctorch steers with omp_set_num_threads. libgomp reads its wait policy from the
   environment once, when it is loaded, and by default a thread that waits (at a region's end, or for the
   next region) spins for up to about 300000 pauses before it sleeps. Where another program keeps the
   second core busy, those spinning threads take the CPU from the thread that holds the work: LAPACK's
   factorizations, chains of OpenBLAS regions, took 20-70x their one-thread time at 2 threads (linalg.inv
   and linalg.solve of 512 x 512, float64; svdvals of 256 x 256 over 300x), and 1.0-1.1x with
   OMP_WAIT_POLICY=passive (inv and solve). Passive costs a wake-up per region on an idle machine: nothing
   measurable for a product or a factorization of few large regions, too much for routines of many small
   ones, which src/ops/linalg/lapack.c therefore runs on one thread below the size where threads pay.

   So libctorch does not link libgomp (which would load it, and run its reading of the environment, before
   any code of ctorch runs): when the library is loaded, and libgomp is not yet in the process, ctorch sets
   OMP_WAIT_POLICY=passive in the environment, loads libgomp, and removes the variable again, so that
   neither the program nor its children see it. A user who set OMP_WAIT_POLICY or GOMP_SPINCOUNT keeps
   that choice; a program that has libgomp already (its own OpenMP code, or torch loaded first in a
   Python process) keeps the policy it has. A program loaded after ctorch that uses libgomp gets the
   passive policy too: that is the price of one runtime per process. setenv is not safe against another
   thread reading the environment at the same moment, hence a load-time constructor (a program linking
   ctorch runs it before main). */
#include "core/omp_runtime.h"

#include <dlfcn.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <unistd.h>

typedef int get_fn(void);
typedef void set_fn(int);

static struct {
  get_fn *get_max_threads;
  set_fn *set_num_threads;
  bool passive;
} G;

static pthread_once_t once = PTHREAD_ONCE_INIT;

/* dlsym's answer as a function pointer (POSIX guarantees the conversion; ISO C has no cast for it). */
static void *lookup(void *handle, const char *name) { return handle ? dlsym(handle, name) : NULL; }

static void load(void) {
  static const char lib[] = "libgomp.so.1";
  void *h = dlopen(lib, RTLD_NOW | RTLD_NOLOAD);
  if (!h) {
    bool set = !getenv("OMP_WAIT_POLICY") && !getenv("GOMP_SPINCOUNT");
    if (set) setenv("OMP_WAIT_POLICY", "passive", 0);
    h = dlopen(lib, RTLD_NOW | RTLD_GLOBAL);
    if (set) unsetenv("OMP_WAIT_POLICY");
    G.passive = set && h;
  }
  void *g = lookup(h, "omp_get_max_threads"), *s = lookup(h, "omp_set_num_threads");
  if (g && s) {
    *(void **)&G.get_max_threads = g;
    *(void **)&G.set_num_threads = s;
  }
}

__attribute__((constructor)) static void load_at_start(void) { pthread_once(&once, load); }

/* Without libgomp (not installed): as many threads as CPUs this process may run on, as libgomp's default. */
static int cpus_allowed(void) {
#if defined(__linux__)
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0) return CPU_COUNT(&set);
#endif
  long n = sysconf(_SC_NPROCESSORS_ONLN);
  return n > 0 ? (int)n : 1;
}

int ct__omp_get_max_threads(void) {
  pthread_once(&once, load);
  return G.get_max_threads ? G.get_max_threads() : cpus_allowed();
}

void ct__omp_set_num_threads(int n) {
  pthread_once(&once, load);
  if (G.set_num_threads) G.set_num_threads(n);
}

bool ct__omp_passive(void) {
  pthread_once(&once, load);
  return G.passive;
}
