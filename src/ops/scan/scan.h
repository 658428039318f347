/* Scans: one generic driver walks every line along the scanned dim and hands groups of lines to a typed
   kernel; each op is a table of kernels per dtype plus its argument rules (scan_ops.c). */
#ifndef CTORCH_OPS_SCAN_H
#define CTORCH_OPS_SCAN_H

#include "core/op.h"

/* A scan kernel. Operand k (outputs first, the input last) starts at data[k]; element i of line j sits
   at data[k] + i * step[k] + j * lstep[k] (bytes). It scans nlines independent lines of len elements,
   each in increasing i, reading element i before writing element i -- PyTorch's sequential order, so
   every line's result is the same whichever lines share a call or a thread. nlines > 1 only comes
   from the driver's line-vector and group modes, where outputs never overlap the input unless they
   coincide (operands that may overlap otherwise are scanned ordered, one line per call). */
typedef void (*ct_scan_kernel)(char *const *data, const int64_t *step, const int64_t *lstep, int64_t len,
                               int64_t nlines, const void *ctx);
/* Optional: one long line scanned with up to nthreads threads, with the same result as the kernel. */
typedef void (*ct_scan_long_line)(char *const *data, const int64_t *step, int64_t len, const void *ctx,
                                  int nthreads);

typedef struct ct_scan_plan {
  int n_out;             /* 1 or 2 (cummax/cummin: values, indices) */
  ct_tensor *out[2];     /* the input's shape */
  const ct_tensor *in;   /* in the kernel's input dtype; at least 1-D and not empty */
  int64_t dim;           /* wrapped */
  ct_scan_kernel kernel;
  ct_scan_long_line long_line; /* NULL: none */
  const void *ctx;
  /* Operands may overlap in ways the op does not reject: walk the lines one by one in PyTorch's order
     (the first non-scanned dim fastest), as its serial loop does. */
  bool ordered;
  /* set by ct__scan_prepare */
  int threads;
  int64_t *work;
} ct_scan_plan;

/* Takes the driver's working memory (p->in, p->dim set); the only step that can fail (out of memory),
   so ops call it before touching any out= tensor. */
ct_status ct__scan_prepare(ct_scan_plan *p);
/* Runs a prepared plan (outputs set, the input's shape). Never fails. */
void ct__scan_run(const ct_scan_plan *p);
void ct__scan_release(ct_scan_plan *p);

/* Kernel tables, indexed by dtype (NULL: PyTorch has no kernel for it). */
extern const ct_scan_kernel ct__cumsum_kernels[CT_NUM_DTYPES + 1];
extern const ct_scan_kernel ct__cumprod_kernels[CT_NUM_DTYPES + 1];
extern const ct_scan_kernel ct__logcumsumexp_kernels[CT_NUM_DTYPES + 1];
extern const ct_scan_kernel ct__cummax_kernels[CT_NUM_DTYPES + 1];
extern const ct_scan_kernel ct__cummin_kernels[CT_NUM_DTYPES + 1];
/* A scan's descriptor (core/op.h): its kernel rows are tables like these, by dtype. */
#define CT_SCAN_OP(NAME, ATEN, CPU, META) .name = (NAME), .aten = (ATEN), .kernels = {[CT_CPU] = (CPU), [CT_META] = (META)}
/* The meta device's row (every dtype): shape only, the result's geometry and nothing run. Compared by
   address, never called. */
extern const ct_scan_kernel ct__scan_meta_kernels[CT_NUM_DTYPES + 1];
/* The kernel table of t's device (checked by the entry guard, or by ct__op_table at a composite's dispatch). */
static inline const ct_scan_kernel *ct__scan_table(const ct_op *op, const ct_tensor *t) {
  return (const ct_scan_kernel *)op->kernels[t->device_type];
}
/* Lines shorter than CT_SCAN_LONG_LINE that lie along the scanned dim go to the kernel this many at a
   time (each still walked in order), so their dependency chains overlap. */
#define CT_SCAN_GROUP 4
/* Lines at least this long may take an op's blocked long-line method (and its threads). */
#define CT_SCAN_LONG_LINE 65536
/* float32 cumsum of a long line (scan_cumsum_f32.c): the blocked scan, split over nthreads; the same
   result for every thread count. */
extern const ct_scan_long_line ct__cumsum_f32_long_line;
void ct__cumsum_f32_line(float *o, const float *x, int64_t n, int nthreads);
/* Tests: true forces the portable vector code instead of the AVX2 one (they must agree bit for bit). */

#endif
