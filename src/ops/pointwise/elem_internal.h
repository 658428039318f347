/* Shared parts of the unary elementary ops (elem_*.c): PyTorch's meta-function checks that come before
   TensorIterator's, the composite routes ATen takes (complex -> real results through a temporary,
   results laid out as empty_like(preserve)), and the rule of torch's vectorized CPU loops that makes
   some complex kernels position dependent.

   PyTorch 1.13's CPU kernels (built for AVX2) run a contiguous row (or a row whose input is broadcast)
   in blocks of 2 * Vectorized<T>::size() elements through the vector formula and the rest of the row
   through the scalar one; other rows are all scalar. For most ops both formulas give the same bits;
   for complex abs, sgn, angle, reciprocal and square they do not (the vector code squares without
   hypot, the scalar code has FMA contractions), so those loops reproduce the split. */
#ifndef CTORCH_OPS_ELEM_INTERNAL_H
#define CTORCH_OPS_ELEM_INTERNAL_H

#include "core/cast.h"
#include "core/layout_rules.h"
#include "kernels/cpu/loops.h"
#include "kernels/cpu/torch_compat.h"
#include "ops/pointwise/pw.h"

/* Elements per vector-loop step of torch's AVX2 kernels: 2 * Vectorized<T>::size(). */
#define CT_ELEM_BLOCK_C64 8
#define CT_ELEM_BLOCK_C128 4

/* How many leading elements of a unary row take torch's vector formula (kernels/cpu/torch_compat.h). */
static inline int64_t ct__elem_vec_count(const int64_t *s, int64_t out_size, int64_t in_size, int64_t n,
                                         int64_t block) {
  return ct__torch_vec_prefix2(s, 2, out_size, in_size, n, block);
}

/* bfloat16 loops: computed in float, rounded once (torch's vector and scalar code differ only in the
   NaN they store: not reproduced, docs/ARCHITECTURE.md "NaN policy"). EXPR reads the float `a`. */
#define CT_ELEM_BF16_LOOP(fname, EXPR) \
  CT_UNARY_LOOP(fname, uint16_t, float, ct__bfloat16_to_float, uint16_t, ct__float_to_bfloat16, EXPR)

/* torch's scalar complex formulas (elem_cscalar.c): o receives (re, im). */
void ct__elem_csquare_f(float a, float b, float *o);
void ct__elem_csquare_d(double a, double b, double *o);
void ct__elem_crecip_f(float a, float b, float *o);
void ct__elem_crecip_d(double a, double b, double *o);
void ct__elem_csgn_f(float a, float b, float *o);
void ct__elem_csgn_d(double a, double b, double *o);

/* The real dtype of a complex one (complex64 -> float32). */
static inline ct_dtype ct__elem_real_dtype(ct_dtype d) {
  return d == CT_COMPLEX64 ? CT_FLOAT32 : d == CT_COMPLEX128 ? CT_FLOAT64 : d;
}
static inline bool ct__elem_is_complex(const ct_tensor *t) { return ct__dt((ct_dtype)t->dtype)->category == CT_CAT_COMPLEX; }

/* Records a runtime error with msg when t is complex (meta-function checks such as "ceil is not
   supported for complex inputs"). */
bool ct__elem_reject_complex(const ct_tensor *t, const char *msg);

/* The route of a CT_PW_FLOAT unary op (reciprocal, angle) through torch's casting route (ct__bin_cast_run):
   an integer input becomes a converted temporary and an out= of another dtype a contiguous temporary
   copied back, so rows split between the vector and scalar formulas as in torch. */
ct_status ct__elem_float_run(const ct_pw_op *op, ct_tensor *out, const ct_tensor *const *in, int n_in, bool inplace,
                             const void *args, ct_tensor **result);

/* Runs one engine configuration with loop; cfg->out[0] NULL allocates the result into *result. */
ct_status ct__elem_iter(ct_iter_config *cfg, const ct_loop *loop, const void *ctx, ct_tensor **result);

/* An uninitialized tensor shaped like t with empty_like(t, dtype, memory_format=preserve)'s strides.
   Not scope-registered. */
ct_tensor *ct__elem_empty_like(const ct_tensor *t, ct_dtype dtype);

/* The result of a complex -> real kernel (abs, angle) over t, in a fresh tensor laid out as TensorIterator
   lays out a unary op's output; loop reads t's dtype and writes its real dtype. Not scope-registered. */
ct_tensor *ct__elem_complex_to_real(const ct_tensor *t, const ct_loop *loop);

/* ATen's unary_op_impl_with_complex_to_float_out for a complex input and a non-complex out: can_cast(real
   dtype, out dtype) or PyTorch's error, then the complex kernel (complex_loop: (f(z), 0)) into a complex
   temporary, out resized (contiguous) when its shape differs, and the real view of the temporary copied
   in (a strided source, as in torch, which decides how the copy packs bfloat16 NaN). */
ct_status ct__elem_complex_to_real_out(ct_tensor *out, const ct_tensor *t, const ct_loop *complex_loop);

/* Hands out tmp (scope-registered) as the result, copied first into the layout ATen's composite gives
   when its strides differ: empty_like(like, memory_format=preserve), or contiguous for like NULL.
   Consumes tmp. */
ct_tensor *ct__elem_relayout(ct_tensor *tmp, const ct_tensor *like);

/* A bool tensor like t (empty_like(preserve)) filled with v: zeros_like / ones_like(t, dtype=bool). */
ct_tensor *ct__elem_bool_like(const ct_tensor *t, bool v);

/* The input itself as a new reference (ops that return self: positive, conj and real of real tensors). */
static inline ct_tensor *ct__elem_self(const ct_tensor *t) { return t ? ct__own(ct_retain((ct_tensor *)t)) : NULL; }

/* Engine status for a NULL input or output. */
static inline ct_status ct__elem_null(void) { return ct__null_status(); }

/* A route (ct_pw_route) for a unary op whose meta function checks something before TensorIterator does:
   pre(t, out) records PyTorch's error and returns false; out is NULL for the functional form. The check
   is skipped when t, or the out= tensor, is NULL: the engine reports that. */
#define CT_ELEM_PRE_ROUTE(fname, pre)                                                                      \
  static ct_status fname(const ct_pw_op *op, ct_tensor *out, const ct_tensor *const *in, int n_in, bool inplace, \
                         const void *args, ct_tensor **result) {                                          \
    if (in[0] && (result || out) && !pre(in[0], out)) return ct_last_error();                             \
    return ct__pw_run(op, out, in, n_in, inplace, args, result);                                          \
  }

#endif
