/* Shared by the sorting and selection ops (src/ops/sort): order-preserving keys for every real dtype, the
   orders torch 1.13's kernels produce over a line, results handed out or written into out= tensors, and
   the descriptors' kernel rows. Lines along a dim are walked by the line driver the scans use
   (ops/scan/scan.h: the engine's geometry, lines over the thread pool). */
#ifndef CTORCH_OPS_SORT_INTERNAL_H
#define CTORCH_OPS_SORT_INTERNAL_H

#include <inttypes.h>
#include <stdatomic.h>

#include "core/cast.h"
#include "core/layout_rules.h"
#include "core/op.h"
#include "kernels/cpu/dtypes.h"
#include "ops/convert_internal.h"
#include "ops/reduce/red.h"
#include "ops/scan/scan.h"

/* A key and the element's index along its line. Keys are unsigned integers whose order is torch's sort
   comparator: NaN above everything (all NaNs equal), -0.0 equal to 0.0; a descending order flips every
   bit. */
typedef struct ct_kv {
  uint64_t k;
  int64_t i;
} ct_kv;

/* How a dtype's elements become keys. */
typedef struct ct_sort_type {
  ct_dtype dtype;
  int key_bits; /* 8, 16, 32 or 64 */
  /* dst[j] = (key(p + j * step) ^ flip) << 32 | j, for key_bits <= 32 and n < 2^32 */
  void (*packed)(const char *p, int64_t step, int64_t n, uint64_t flip, uint64_t *dst);
  /* the inverse of packed over a sorted a[0..n): v[j] = the element a[j] names (read from p where its key
     names several values), ix[j] = its index; steps in bytes, NULL: not written */
  void (*unpack)(const uint64_t *a, int64_t n, uint64_t flip, const char *p, int64_t step, char *v,
                 int64_t vstep, char *ix, int64_t xstep);
  /* whether some key ^ flip of the contiguous p[0..n) is below top */
  bool (*any_below)(const char *p, int64_t n, uint64_t flip, uint64_t top);
  /* dst[j] = {key ^ flip, j} */
  void (*kv)(const char *p, int64_t step, int64_t n, uint64_t flip, ct_kv *dst);
  uint64_t (*key)(const char *p);
  bool is_float;
  double (*to_double)(const char *p); /* the value (exact for every dtype but int64 beyond 2^53) */
} ct_sort_type;

/* The key type of each real dtype (ct__sort_key_CT_FLOAT32, ...); an op's row lists the dtypes it takes:
   {CT_DT_INTEGRAL(CT_SORT_ROW) CT_DT_FLOAT(CT_SORT_ROW)}. */
#define CT_SORT_DECLARE(E, T, CT, LOAD, STORE) extern const ct_sort_type ct__sort_key_##E;
CT_DT_BOOL(CT_SORT_DECLARE)
CT_DT_INTEGRAL(CT_SORT_DECLARE)
CT_DT_FLOATING(CT_SORT_DECLARE)
#define CT_SORT_ROW(E, T, CT, LOAD, STORE) [E] = &ct__sort_key_##E,
/* The key types of the real dtypes (NULL: complex). */
extern const ct_sort_type *const ct__sort_types[CT_NUM_DTYPES + 1];
/* The meta device's row of every op here: shape only. Compared by address. */
extern const ct_sort_type *const ct__sort_meta_row[CT_NUM_DTYPES + 1];
/* A descriptor's rows: the CPU's key types of the dtypes the op takes (NULL: "not implemented for"). */
#define CT_SORT_OP(NAME, ATEN, CPU, META) \
  .name = (NAME), .aten = (ATEN), .kernels = {[CT_CPU] = (CPU), [CT_META] = (META)}
static inline const ct_sort_type *ct__sort_type(const ct_op *op, const ct_tensor *t) {
  return ((const ct_sort_type *const *)op->kernels[t->device_type])[t->dtype];
}
static inline bool ct__sort_is_meta(const ct_op *op, const ct_tensor *t) {
  return op->kernels[t->device_type] == (const void *)ct__sort_meta_row;
}
/* "\"name\" not implemented for 'Bool'" unless the op's row has the dtype. */
bool ct__sort_have(const ct_op *op, const ct_tensor *t, const char *kernel_name);

/* Sorts a line as torch's sort does and writes its values (v[j * vstep], NULL: none) and indices
   (ix[j * xstep], NULL: none). stable: std::stable_sort (any stable order: a radix sort); otherwise
   std::sort's moves, on up to nthreads threads. scratch: ct__sort_scratch_bytes(ty, n, stable, ix_dense)
   bytes, ix_dense: ix is written and xstep is 8. */
size_t ct__sort_scratch_bytes(const ct_sort_type *ty, int64_t n, bool stable, bool ix_dense);
void ct__sort_line(const ct_sort_type *ty, const char *p, int64_t step, int64_t n, bool desc, bool stable,
                   char *v, int64_t vstep, char *ix, int64_t xstep, void *scratch, int nthreads);
/* std::sort (torch's tie order) over packed elements key << 32 | index ordered by key (sort_blocks.c): the
   same result as the step-for-step port, faster; _reference: the port itself (tests compare the two);
   _threads: on up to nthreads threads (the first partitions on one, then the parts on any). */
void ct__pk_sort(uint64_t *first, uint64_t *last);
void ct__pk_sort_reference(uint64_t *first, uint64_t *last);
void ct__pk_sort_threads(uint64_t *first, uint64_t *last, int nthreads);
/* Stable sort of kv[0..n) by key (LSD radix); tmp holds n entries. */
void ct__sort_kv_stable(ct_kv *kv, ct_kv *tmp, int64_t n, int key_bits);
/* libstdc++'s algorithms over ct_kv ordered by key (torch's comparators map onto key order). */
void ct__kv_std_sort(ct_kv *first, ct_kv *last);
void ct__kv_partial_sort(ct_kv *first, ct_kv *middle, ct_kv *last);
void ct__kv_nth_element(ct_kv *first, ct_kv *nth, ct_kv *last);

/* torch's std::partial_sort(first, first + k, last) over the line's (key ^ flip, index) pairs without
   materialising them: heap_select streams the line (the element a pop_heap writes back is never read
   again), then sort_heap. heap holds k entries; 0 < k <= n. */
void ct__kv_topk_stream(const ct_sort_type *ty, const char *p, int64_t step, int64_t n, int64_t k,
                        uint64_t flip, ct_kv *heap);
/* A line's results from its order: v[j] = in[perm[j]] (itemsize isz), ix[j] = perm[j]; steps in bytes; v or
   ix NULL: not written. */
void ct__sort_write_line(const char *in, int64_t istep, const int64_t *perm, int64_t n, size_t isz, char *v,
                         int64_t vstep, char *ix, int64_t xstep);
/* New (unowned) values and indices of sorting t along dim (wrapped); op: the descriptor whose rows apply;
   values NULL: only the indices are computed. */
ct_status ct__sort_impl(const ct_op *op, const ct_tensor *t, int64_t dim, bool desc, bool stable,
                        ct_tensor **values, ct_tensor **indices);

/* The dim of an op whose dim torch makes optional: dims[0], or dflt when empty; wrapped (IndexError), -1 on
   error; more than one dim is a TypeError naming the op. */
int64_t ct__sort_dim(const char *op, const ct_tensor *t, ct_dims dims, int64_t dflt);

/* New results: a tensor of t's shape with size m along dim (keepdim shape when m is 1), in the strides
   torch's meta function gives: preserve: self's when dense, else inferred dense (sort); otherwise
   contiguous. Not scope-registered. */
ct_tensor *ct__sort_alloc(const ct_tensor *t, int64_t dim, int64_t m, ct_dtype dt, bool preserve);
/* Hands results out: res[k] owned into *want[k] (NULL want: released). On failure every *want is NULL. */
ct_status ct__sort_hand_out(ct_tensor **res, ct_tensor **const *want, int n, ct_status s);
/* Writes results into out= tensors: each resized to its result's shape (its strides when resized) and the
   result copied in. Everything that can fail is checked before any out changes. Releases res. */
ct_status ct__sort_write_outs(ct_tensor **res, ct_tensor *const *outs, int n);
/* The structured out= device check: "Expected out tensor to have device cpu, but got meta instead". */
bool ct__sort_out_device_ok(const ct_tensor *out, const ct_tensor *t);
/* The keepdim=false view of a result reduced along dim (size 1 there): dim squeezed out; a new reference
   replacing *r. */
ct_status ct__sort_squeeze(ct_tensor **r, int64_t dim);

/* Walks the lines of t along dim: kernel(data, step, lstep, len, nlines, ctx) with data[0..n_out-1] the
   outputs' lines and data[n_out] the input's (the scan driver); outputs have t's shape but for their
   size along dim. */
ct_status ct__sort_lines(const ct_tensor *t, int64_t dim, ct_tensor *const *outs, int n_out,
                         ct_scan_kernel kernel, const void *ctx);
/* The same; long_line (NULL: none) takes a long line when there are fewer lines than threads (the scan
   driver's rule), with every thread. */
ct_status ct__sort_lines_long(const ct_tensor *t, int64_t dim, ct_tensor *const *outs, int n_out,
                              ct_scan_kernel kernel, ct_scan_long_line long_line, const void *ctx);

/* The reductions' argument helpers serve here too: ct__red_type_name (c10's names in out= messages),
   ct__red_check_out_dtype, ct__red_not_implemented, ct__red_single_dim. */

#endif
