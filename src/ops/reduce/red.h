/* Shared by the reduction ops: argument parsing (dims, dtypes, out= checks with PyTorch's messages), the
   generic entry that casts the input, allocates or resizes the outputs and runs a kernel declaration
   through the reduction driver, and helpers for kernels (storing an accumulator in any dtype). */
#ifndef CTORCH_OPS_REDUCE_RED_H
#define CTORCH_OPS_REDUCE_RED_H

#include <math.h>

#include "core/cast.h"
#include "core/elem.h"
#include "core/op.h"
#include "iter/iter_reduce.h"
#include "ops/pointwise/pw.h"
#include "kernels/cpu/loops.h"

/* ---- the op context every kernel receives ---- */
typedef struct ct_red_ctx {
  ct_dtype out_dtype[CT_RED_MAX_OUT]; /* dtypes finish writes */
  int64_t count;                      /* reduced elements per output */
  double p;                           /* norm order */
  int64_t correction;                 /* var / std */
  bool take_sqrt;                     /* std */
  ct_dtype part_dtype;                /* var / std of complex inputs: the real dtype the parts round to */
} ct_red_ctx;

/* Kernels per kernel-input dtype; NULL: not implemented. */
typedef const ct_red_kernel *ct_red_table[CT_NUM_DTYPES + 1];

/* ---- descriptors ----
   {CT_RED_OP("sum", "aten::sum.dim_IntList", &sum_cpu), .grad = ...}: the designators of a ct_op.
   A reduction is a ct_op (core/op.h) whose kernel rows are ct_red_tables: the CPU's kernels by the kernel's
   input dtype, and the meta device's. An op that computes in several ways (norm's orders, var's passes) has
   its main table in the row and chooses among its CPU variants once the row says the device runs them. */
#define CT_RED_OP(NAME, ATEN, CPU) CT_RED_OP_ROWS(NAME, ATEN, CPU, &ct__red_meta_table)
/* The same with the meta row given: NULL where torch 1.13 has no Meta kernel (count_nonzero, var's out=). */
#define CT_RED_OP_ROWS(NAME, ATEN, CPU, META) .name = (NAME), .aten = (ATEN), .kernels = {[CT_CPU] = (CPU), [CT_META] = (META)}
/* The meta device's kernel: shape only. ct__red_exec allocates or resizes the outputs with the result's
   geometry and runs nothing (a meta tensor has no data); every dtype has it, as torch's meta functions
   check no kernel's dtype support. */
extern const ct_red_kernel ct__red_meta_kernel;
extern const ct_red_table ct__red_meta_table;
/* The kernel for dtype dt on the device the call dispatches to, NULL where that dtype has none (the caller
   then raises torch's dtype error): c10's key over the input t and the out= tensors given (NULL entries: none), meta when any of them is on meta
   (torch then runs the op's meta function, which checks no kernel's dtypes, and resize_out refuses an out on
   another device), t's device otherwise. The device has a row: the entry guard checked it. */
static inline const ct_red_kernel *ct__red_kernel_n(const ct_op *op, ct_dtype dt, const ct_tensor *const *ts,
                                                    int n) {
  const ct_red_table *tab =
      (const ct_red_table *)op->kernels[ct__op_on_meta_n(ts, n) ? CT_META : ts[0]->device_type];
  return tab ? (*tab)[dt] : NULL;
}
#define ct__red_kernel(op, dt, ...)                                 \
  ct__red_kernel_n(op, dt, (const ct_tensor *const[]){__VA_ARGS__}, \
                   (int)(sizeof((const ct_tensor *const[]){__VA_ARGS__}) / sizeof(const ct_tensor *)))

/* The public pair ct_NAME(t, opts) / ct_NAME_out(out, t, opts) of a reduction, from its descriptor OP and
   its _impl, called as IMPL(ARGS... out, t, opts, res) (ARGS: leading arguments with a trailing comma, or
   nothing): the entry guard, autograd's out= check, then the impl. */
#define CT_RED_DEFINE_API(NAME, OP, OPTS, IMPL, ...)                                               \
  ct_tensor *ct_##NAME(const ct_tensor *t, const OPTS *opts) {                                     \
    CT__OP_ENTER_PTR(OP, t, t);                                                                    \
    ct_tensor *r = NULL;                                                                           \
    IMPL(__VA_ARGS__ NULL, t, opts, &r);                                                           \
    return r;                                                                                      \
  }                                                                                                \
  ct_status ct_##NAME##_out(ct_tensor *out, const ct_tensor *t, const OPTS *opts) {                \
    CT__OP_ENTER_OUT(OP, out, t, out, t);                                                          \
    return CT__OP_OUT_GRAD_OK(OP, out, t) ? IMPL(__VA_ARGS__ out, t, opts, NULL) : CT_ERR_RUNTIME; \
  }

/* An op with CPU variants (norm's orders, aminmax's geometry...): the variant chosen on the CPU, the dispatch
   device's row kernel elsewhere (out: the out= tensor or NULL). */
static inline const ct_red_kernel *ct__red_variant(const ct_op *op, const ct_tensor *t, const ct_tensor *out,
                                                   ct_dtype dt, const ct_red_kernel *cpu) {
  return t->device_type == CT_CPU && !(out && out->device_type == CT_META) ? cpu
                                                                           : ct__red_kernel(op, dt, t, out);
}

/* Internal entries of the public reductions that composites call (no entry guard: one public call records
   one autograd node); out NULL: a new result (scope-owned, as the public function's) in *res. */
ct_status ct__sum_impl(ct_tensor *out, const ct_tensor *t, const ct_reduce_opts *opts, ct_tensor **res);
ct_status ct__prod_impl(ct_tensor *out, const ct_tensor *t, const ct_reduce_opts *opts, ct_tensor **res);
ct_status ct__amax_impl(ct_tensor *out, const ct_tensor *t, const ct_reduce_opts *opts, ct_tensor **res);
ct_status ct__amin_impl(ct_tensor *out, const ct_tensor *t, const ct_reduce_opts *opts, ct_tensor **res);
ct_status ct__linalg_vector_norm_impl(ct_tensor *out, const ct_tensor *t, const ct_vector_norm_opts *opts,
                                      ct_tensor **res);
/* at::detail::check_linalg_norm_dtype for a dtype= (UNSET: nothing to check) of an input of dtype in, its messages
   prefixed by api ("linalg.vector_norm: dtype should be real for real inputs, but got ComplexFloat"). */
bool ct__linalg_norm_dtype_ok(ct_dtype in, ct_dtype dtype, const char *api);

/* ---- arguments ---- */
/* Wraps and checks dims (IndexError, "dim 0 appears multiple times in the list of dims"); empty: every dim. */
bool ct__red_mask(const ct_tensor *t, ct_dims dims, uint64_t *mask);
/* The same in one pass (at::dim_list_to_bitset called directly): a repeat is reported before a later dim
   out of range. nansum and var/std check their dims this way. */
bool ct__red_mask_1pass(const ct_tensor *t, ct_dims dims, uint64_t *mask);
/* torch/_prims_common's reduction_dims, which torch's Python meta functions and references run (meta_nansum,
   var_mean's): every dim canonicalized first (a 0-dim input counts as rank 1; IndexError "Dimension out of
   range ..."), then "duplicate value in the list of dims"; empty dims: every dim. *mask as ct__red_mask's.
   t has at most 64 dims. */
bool ct__prims_reduction_dims(const ct_tensor *t, ct_dims dims, uint64_t *mask);
/* mean's dtype rule (its structured meta function, which var/std's Meta kernel also meets): the dtype= when
   set, else the input's, must be floating or complex; false with torch's message otherwise. */
bool ct__mean_dtype_ok(ct_dtype in, ct_dtype dtype);
/* The result shape of reducing mask (shape holds t->ndim entries). */
int64_t ct__red_shape(const ct_tensor *t, uint64_t mask, bool keepdim, int64_t *shape);
/* Number of reduced elements. */
int64_t ct__red_count(const ct_tensor *t, uint64_t mask);
/* "Expected out tensor to have dtype X, but got Y instead" unless out has dtype dt. */
bool ct__red_check_out_dtype(const ct_tensor *out, ct_dtype dt);
/* "\"name\" not implemented for 'Float'" */
void ct__red_not_implemented(const char *kernel, ct_dtype dt);
/* Single-dim ops: at most one dim in opts (records a TypeError naming the op otherwise). */
bool ct__red_single_dim(const char *op, ct_dims dims, bool *has_dim, int64_t *dim);
/* Rejects an option the PyTorch op does not have. */
bool ct__red_no_dtype(const char *op, const ct_reduce_opts *o);

/* ---- running ---- */
typedef struct ct_red_call {
  const ct_tensor *in;
  ct_dtype kdtype; /* the kernel's input dtype: in is cast to it first when it differs (PyTorch's self.to) */
  uint64_t mask;
  bool keepdim;
  bool ordered;
  int n_out;
  ct_tensor *out[CT_RED_MAX_OUT]; /* given out= tensors, resized to the result shape; NULL: allocate */
  ct_dtype out_dtype[CT_RED_MAX_OUT];
  const ct_tensor *aux;
  const ct_red_kernel *k;
  /* Optional variant run instead of k when the kernel input has TensorIterator's is_reduce_lastdim
     geometry (judged on the input after the cast, as PyTorch builds its iterator on self.to(dtype)). */
  const ct_red_kernel *k_lastdim;
  ct_red_ctx ctx;
  /* When set, the outputs are filled with this value instead of running the kernel (empty inputs). */
  bool fill;
  ct_scalar fill_value;
  /* New outputs are returned as plain new references, not registered with the current scope (for
     intermediates the op releases itself). */
  bool no_own;
  /* What PyTorch's kernel does with an out= tensor sharing memory with the input (red_common.c): it fills
     the output with alias_identity and then accumulates into it (binary_kernel_reduce_vec, cascade_sum:
     sum, nansum, prod, mean, nanmean, amax, amin, all, any), so that the input reads the identity where
     they overlap. Otherwise the result is computed from the input as it was, then written. */
  bool alias_fill;
  ct_scalar alias_identity;
  /* The op refuses an out= tensor whose elements repeat (a later in-place step of PyTorch's checks it:
     mean's div_, logsumexp's log_, norm), where the others reduce over the repeated dims too. */
  bool no_expanded_out;
  /* The op's kernel builds a TensorIterator over the resized outputs and the input with its overlap
     checks (compare_base_kernel: max / min along a dim, aminmax with a dim): an output repeating elements
     or partly overlapping the input is refused, with PyTorch's messages (ctorch: before any resize). */
  bool check_overlap;
  /* How PyTorch's out= form meets an out on another device than the input (checked before out is
     touched): resize_out's "Expected out tensor to have device meta, but got cpu instead" (the
     structured ops), the copy of a computed result ("Attempting to copy from device meta to device cpu,
     but cross-device copies are not allowed!": nansum), or a TensorIterator over both ("Expected all
     tensors to be on the same device, but found at least two devices, meta and cpu!": nanmean). */
  enum { CT_RED_DEV_RESIZE_OUT, CT_RED_DEV_COPY, CT_RED_DEV_ITER } device_rule;
} ct_red_call;

/* The out= tensors' devices, as c->device_rule says (ct__red_exec checks them first; for ops that touch
   an out before calling it). */
bool ct__red_check_out_devices(const ct_red_call *c);
/* The lowest (or highest) value of dtype dt, as a scalar: amax's (amin's) identity. */
ct_scalar ct__red_extreme(ct_dtype dt, bool highest);

/* The checks ct__red_exec makes on c's given outputs before it touches them (devices, the aliasing it
   refuses), for an op that computes through other ops and writes its outputs last. */
bool ct__red_check_outs(const ct_red_call *c);
/* Runs c; new outputs go to result[o] as owned references (result may be NULL when every output is given). */
ct_status ct__red_exec(ct_red_call *c, ct_tensor **result);
/* Two-output form: the results through a and b (either may be NULL: that result is dropped). */
ct_status ct__red_exec2(ct_red_call *c, ct_tensor **a, ct_tensor **b);
/* One-output convenience: a new result (out NULL) or a status through *status. */
ct_tensor *ct__red_exec1(ct_red_call *c);

/* PyTorch's cascade sums for the floating and complex dtypes (sum_cascade.c); NULL for the others. */
typedef enum { CT_RED_SUM, CT_RED_NANSUM, CT_RED_MEAN, CT_RED_NANMEAN } ct_red_sum_kind;
const ct_red_kernel *ct__red_cascade_kernel(ct_red_sum_kind kind, ct_dtype dt);
/* The same kernels by name (ct__red_k_sum_f32), for the ops' descriptor tables. */
extern const ct_red_kernel ct__red_k_sum_f16, ct__red_k_sum_bf16, ct__red_k_sum_f32, ct__red_k_sum_f64, ct__red_k_sum_c64,
    ct__red_k_sum_c128, ct__red_k_nansum_f16, ct__red_k_nansum_bf16, ct__red_k_nansum_f32, ct__red_k_nansum_f64,
    ct__red_k_mean_f16, ct__red_k_mean_bf16, ct__red_k_mean_f32, ct__red_k_mean_f64, ct__red_k_mean_c64,
    ct__red_k_mean_c128, ct__red_k_nanmean_f16, ct__red_k_nanmean_bf16, ct__red_k_nanmean_f32, ct__red_k_nanmean_f64;
/* The cascade sum of n contiguous values (one line of sum's vectorized_inner_sum / row_sum). */
float ct__red_cascade_line_f32(const float *x, int64_t n);
double ct__red_cascade_line_f64(const double *x, int64_t n);
/* (re + im i) / complex(n, 0) with c10::complex's formula, in complex64 (single) or complex128. */
void ct__red_complex_div_n(double re, double im, int64_t n, bool single, double *ore, double *oim);

/* sqrt(sum(x * x)) as torch.norm('fro') computes it over two dims (float32, float64, bfloat16, complex). */
const ct_red_kernel *ct__red_sqrt_sumsq_kernel(ct_dtype dt);

/* ---- kernel helpers ---- */
/* Stores a result in the output's dtype, as the cast engine converts a double: inline, as finishing is a step
   per output value. */
static inline void ct__red_store_f64(char *p, ct_dtype dt, double v) { ct__elem_convert_f64(dt, p, v); }
/* An int64 result: wrapped into an integer or bool output, through double into any other. */
#define CT__RED_I64_CASE(A, S, T, K, LOAD, STORE, ...) CT__RED_I64_##K(S, T, K)
#define CT__RED_I64_BOOL(S, T, K)                      CT__ELEM_STORE_AS(CT__ELEM_FROM_I64_, S, T, K, CT__ID)
#define CT__RED_I64_INT(S, T, K)                       CT__ELEM_STORE_AS(CT__ELEM_FROM_I64_, S, T, K, CT__ID)
#define CT__RED_I64_HALF(S, T, K)
#define CT__RED_I64_FLOAT(S, T, K)
#define CT__RED_I64_COMPLEX(S, T, K)
static inline void ct__red_store_i64(char *p, ct_dtype dt, int64_t v) {
  switch (dt) {
    CT_DTYPE_LIST(CT__RED_I64_CASE, ~)
    default: ct__red_store_f64(p, dt, (double)v);
  }
}
/* m values v[j * vs] stored at p + j * ps in dtype dt: the dtype's switch taken once for the run, a loop per
   dtype (contiguous runs vectorize) */
#define CT__RED_RUN_CASE(A, S, T, K, LOAD, STORE, ...)      \
  case CT_##S:                                              \
    if (ps == (int64_t)sizeof(T) && vs == 1)                \
      for (int64_t j = 0; j < m; j++) {                     \
        T r_ = CT__ELEM_CONV_F64_##K(T, STORE, v[j]);       \
        memcpy(p + j * (int64_t)sizeof(T), &r_, sizeof r_); \
      }                                                     \
    else                                                    \
      for (int64_t j = 0; j < m; j++) {                     \
        T r_ = CT__ELEM_CONV_F64_##K(T, STORE, v[j * vs]);  \
        memcpy(p + j * ps, &r_, sizeof r_);                 \
      }                                                     \
    break;
static inline void ct__red_store_f64_run(char *p, int64_t ps, ct_dtype dt, const double *v, int64_t vs, int64_t m) {
  switch (dt) {
    CT_DTYPE_LIST(CT__RED_RUN_CASE, ~)
    default: break;
  }
}
void ct__red_store_c128(char *p, ct_dtype dt, double re, double im);

/* Loads as double from each kernel input type. */
#define CT_LD_F16(x) ((double)ct__half_to_float(x))
#define CT_LD_BF16(x) ((double)ct__bfloat16_to_float(x))
#define CT_LD_ID(x) ((double)(x))
/* Generated loops an op may leave unused. */
/* Columns a vertical loop with a per-call temporary handles at once. */
#define CT_RED_OUTER_MAX 4096
/* Kernel declarations an op may leave unused. */
#define CT_RED_KERNEL __attribute__((unused)) static const ct_red_kernel
/* Batch init / finish (ct_red_kernel's init_run, finish_run) from a kernel's own init and finish, which
   the loop inlines; NOUT: the outputs finish writes. */
#define CT_RED_DEF_INIT_RUN(NAME, ASZ, INIT)                                                                  \
  static void NAME(void *acc, const char *aux, int64_t as, int64_t m, const void *ctx) {                       \
    if (aux)                                                                                                    \
      for (int64_t j = 0; j < m; j++) INIT((char *)acc + j * (int64_t)(ASZ), aux + j * as, ctx);               \
    else /* a fill loop */                                                                                      \
      for (int64_t j = 0; j < m; j++) INIT((char *)acc + j * (int64_t)(ASZ), NULL, ctx);                       \
  }
#define CT_RED_DEF_FINISH_RUN(NAME, ASZ, NOUT, FIN)                                                           \
  static void NAME(char *const *out, const int64_t *os, const void *acc, int64_t m, const void *ctx) {          \
    char *o[NOUT];                                                                                              \
    for (int k = 0; k < (NOUT); k++) o[k] = out[k];                                                            \
    for (int64_t j = 0; j < m; j++) {                                                                           \
      FIN(o, (const char *)acc + j * (int64_t)(ASZ), ctx);                                                     \
      for (int k = 0; k < (NOUT); k++) o[k] += os[k];                                                          \
    }                                                                                                           \
  }
/* A kernel's inner loop NAME##_inner and its run form NAME##_inner_run over its inline line body
   NAME##_line (ASZ: the accumulator's bytes). */
#define CT_RED_DEF_INNER(NAME, ASZ)                                                                            \
  CT_RED_LOOP void NAME##_inner(void *acc, const char *in, int64_t s, int64_t n, int64_t idx, const void *ctx) { \
    NAME##_line(acc, in, s, n, idx, ctx);                                                                       \
  }                                                                                                             \
  CT_RED_DEF_RUN(NAME##_inner_run, ASZ, NAME##_line)
/* A kernel's inner_run over its inline line body LINE (the signature of inner): one call for a run of
   outputs whose lines are short, where calling inner per line would cost more than the line. */
#define CT_RED_DEF_RUN(NAME, ASZ, LINE)                                                                       \
  CT_RED_LOOP void NAME(void *acc, const char *in, int64_t cs, int64_t m, int64_t s, int64_t n, const void *ctx) { \
    for (int64_t j = 0; j < m; j++) LINE((char *)acc + j * (int64_t)(ASZ), in + j * cs, s, n, 0, ctx);          \
  }
#define CT_RED_LOOP CT_KERNEL_CLONES __attribute__((unused)) static

/* GCC vector types for the hand-vectorized loops. They never cross a non-inline call boundary, so the
   note that their ABI differs between ISA levels does not apply: the helpers that take or return them
   are CT_VINLINE, inlined even in -O0 builds, where an out-of-line baseline copy called from an AVX clone
   would get its arguments and result by another convention. */
#pragma GCC diagnostic ignored "-Wpsabi"
/* Kernel declarations list their fields in order and leave the trailing flags (sequential) at zero. */
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
#define CT_VINLINE __attribute__((always_inline)) static inline
typedef float ct_v8f __attribute__((vector_size(32)));
typedef float ct_v16f __attribute__((vector_size(64)));
typedef double ct_v4d __attribute__((vector_size(32)));
typedef double ct_v8d __attribute__((vector_size(64)));
typedef int32_t ct_v16i __attribute__((vector_size(64)));
typedef int64_t ct_v8l __attribute__((vector_size(64)));

/* Unaligned loads (memcpy compiles to one vector load). */
CT_VINLINE ct_v8f ct_ld8f(const float *p) {
  ct_v8f v;
  memcpy(&v, p, sizeof v);
  return v;
}
CT_VINLINE ct_v16f ct_ld16f(const float *p) {
  ct_v16f v;
  memcpy(&v, p, sizeof v);
  return v;
}
CT_VINLINE ct_v8d ct_ld8d(const double *p) {
  ct_v8d v;
  memcpy(&v, p, sizeof v);
  return v;
}
CT_VINLINE double ct_hsum8d(ct_v8d v) {
  return ((v[0] + v[1]) + (v[2] + v[3])) + ((v[4] + v[5]) + (v[6] + v[7]));
}

#endif
