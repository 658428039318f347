/* The library's one parallel_for (DESIGN.md 4.5): every op that runs on several threads goes through
   here, with the thread count from ct_set_num_threads and the grain below.

   Work is cut into more chunks than threads and the chunks are handed out one at a time from an atomic
   counter; the calling thread takes chunks too, from the start. A worker that the OS holds back (its
   core busy with another process) therefore delays nothing but the chunk it holds, and one that wakes
   late finds the work done; a worker that the OS runs on the calling thread's CPU leaves (see
   ct__parallel_leave): an op is never slower at 2 threads than at 1, loaded or not. Who runs a
   chunk never changes its result: callers fix the chunk boundaries independently of the thread count
   (or where PyTorch puts them), so results are the same bits at any thread count. */
#ifndef CT_CORE_PARALLEL_H
#define CT_CORE_PARALLEL_H

#include <stdbool.h>
#include <stdint.h>

/* Below this many elements (or units of work of about an element's cost) one thread does the work:
   starting others costs more than they save. */
#define CT_PAR_GRAIN 32768

/* n / d rounded up, for any n >= 0 and d > 0: the pieces of n units. (n + d - 1) / d overflows where n is
   the numel of an expanded tensor near INT64_MAX (a whole reduction of broadcast_to(x, (2^63 - 2,))). */
static inline int64_t ct__div_up(int64_t n, int64_t d) { return n / d + (n % d != 0); }

/* The thread count ops use: ct_set_num_threads's setting, else OpenMP's default (OMP_NUM_THREADS, or
   the CPUs this process may run on). */
int ct__num_threads(void);

/* Runs fn(ctx, tid) on the calling thread (tid 0) and on up to nt - 1 pool workers (tids 1 .. nt - 1,
   each at most once), and returns when every call that started has returned. A worker that arrives
   after the calling thread's fn has returned does not call fn at all, nor does one that the OS runs on
   the calling thread's CPU, nor any while recent jobs found them there (see parallel.c), so fn must
   share its work out dynamically (ct__parallel_chunks does). Nested or concurrent calls (from inside
   fn, or from two user threads at once) run fn on the calling thread alone. */
void ct__parallel_run(int nt, void (*fn)(void *ctx, int tid), void *ctx);

/* Whether a job started now would run on the calling thread alone, the workers having recently been
   found sharing its CPU or held back (a quiet period, see parallel.c). Callers whose results do not
   depend on how they cut their work cut it for one thread then: pieces cut for two threads but run on
   one can be slower than one piece (short rows). */
bool ct__parallel_quiet(void);

/* For jobs that share out their work themselves, called by a job's threads before they take more work
   (ct__parallel_chunks calls it before each chunk). On the calling thread (tid 0) it notes the CPU that
   thread runs on and returns false; on a worker it returns whether the worker should take no more work
   in this job because the OS runs it on the calling thread's CPU (the other CPUs busy with other
   programs): the two would take turns on one CPU, and the calling thread would wait at the end for the
   chunk the worker holds. A worker that leaves sleeps until the next job. Outside a job: false. */
bool ct__parallel_leave(int tid);

/* fn(ctx, i, tid) for every chunk i in [0, n), each exactly once, on up to nt threads: the chunks go to
   whichever thread asks next. tid < nt names the thread (for per-thread scratch). */
typedef void (*ct_par_chunk_fn)(void *ctx, int64_t i, int tid);
void ct__parallel_chunks(int64_t n, int nt, ct_par_chunk_fn fn, void *ctx);

/* Threads worth using for `work` units (elements of about a pointwise element's cost): 1 below
   2 * CT_PAR_GRAIN units or in a quiet period (ct__parallel_quiet), else ct__num_threads() but no more
   than one per CT_PAR_GRAIN units. For callers whose results do not depend on how they cut their work
   (reductions, scans, random's pipeline); the pointwise engine cuts where PyTorch does (below). */
int ct__parallel_threads(int64_t work);

/* at::parallel_for's split of n elements for nt threads: below CT_PAR_GRAIN elements one range, else
   min(nt, ceil(n / CT_PAR_GRAIN)) ranges of ceil(n / ranges) elements (the last may be shorter or empty).
   Returns the range length; *ranges gets the count. Kernels whose vector and scalar paths differ in the
   last bit give PyTorch's bits only with PyTorch's cuts (the pointwise engine, isclose's positions). */
int64_t ct__parallel_torch_split(int64_t n, int nt, int64_t *ranges);

/* How many chunks to cut a range of n elements into for nt threads: about CT_PAR_GRAIN * 2 elements
   each (a chunk is then some tens of microseconds), at least nt when n allows, at most CT_PAR_MAX_CHUNKS. */
#define CT_PAR_MAX_CHUNKS 4096
int64_t ct__parallel_nchunks(int64_t n, int nt);

#endif
