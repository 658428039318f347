/* Products: mm, bmm, matmul, mv, dot, vdot, inner, outer/ger, addmm, addmv, addr, addbmm, baddbmm,
   linalg.multi_dot / chain_matmul, tensordot, einsum, trace, cross / linalg.cross and linalg.vecdot, with
   torch 1.13's CPU dtypes, shapes, layouts and messages.

   float32, float64, complex64 and complex128 run on OpenBLAS (Debian's OpenMP build, loaded at the first
   product; src/kernels/cpu/blas.h says how it gets the fast kernels of the CPU it runs on without any
   setting from the user), with the transposes and leading dimensions torch 1.13 passes, so the same call
   gives torch's bits; the integer types are exact (wrapping as torch's) and bfloat16 runs torch's own loops
   with their roundings (torch 1.13's CPU refuses bool and float16 products, and so does ctorch, with its
   messages). Products run on ct_set_num_threads's threads (OpenBLAS's included).
   Conjugate views are read as their values (a conj view of a complex matrix is multiplied as its
   conjugate). out= forms resize out as torch's resize_output does and refuse an out whose dtype differs
   from the result's with torch's message; a failed call changes nothing. */
#ifndef CTORCH_MATMUL_H
#define CTORCH_MATMUL_H

#include "args.h"
#include "error.h"
#include "types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* beta and alpha of the add* products: a scalar of kind 0 (the zero value) is torch's default, 1. beta = 0
   ignores the input (NaN and inf in it do not reach the result), as torch does. */
typedef struct ct_addmm_opts {
  ct_scalar beta;
  ct_scalar alpha;
} ct_addmm_opts;

/* torch.mm(input, mat2): 2-D by 2-D. Errors: "self must be a matrix", "mat2 must be a matrix",
   "mat1 and mat2 shapes cannot be multiplied (2x3 and 4x5)", "expected scalar type Float but found Double"
   (mixed dtypes; torch does not promote), "addmm_impl_cpu_" not implemented for 'Bool'. */
CT_API ct_tensor *ct_mm(const ct_tensor *t, const ct_tensor *mat2);
CT_API ct_status ct_mm_out(ct_tensor *out, const ct_tensor *t, const ct_tensor *mat2);
/* torch.bmm(input, mat2): 3-D by 3-D of the same batch ("batch1 must be a 3D tensor", "Expected size for
   first two dimensions of batch2 tensor to be: [4, 3] but got: [4, 5]."). */
CT_API ct_tensor *ct_bmm(const ct_tensor *t, const ct_tensor *mat2);
CT_API ct_status ct_bmm_out(ct_tensor *out, const ct_tensor *t, const ct_tensor *mat2);
/* torch.matmul(input, other) (torch.linalg.matmul): dot for 1-D by 1-D, mv for 2-D by 1-D, a 1-D operand
   promoted to a matrix and the added dim removed, mm for 2-D, and for more dims a bmm over the broadcast
   batch dims (or a folded mm/mv, as torch chooses). "both arguments to matmul need to be at least 1D, but
   they are 0D and 2D". */
CT_API ct_tensor *ct_matmul(const ct_tensor *t, const ct_tensor *other);
CT_API ct_status ct_matmul_out(ct_tensor *out, const ct_tensor *t, const ct_tensor *other);
CT_API ct_tensor *ct_linalg_matmul(const ct_tensor *t, const ct_tensor *other);
CT_API ct_status ct_linalg_matmul_out(ct_tensor *out, const ct_tensor *t, const ct_tensor *other);
/* torch.mv(input, vec): 2-D by 1-D ("vector + matrix @ vector expected, got 1, 2, 2", "size mismatch, got
   input (3), mat (3x4), vec (5)"). */
CT_API ct_tensor *ct_mv(const ct_tensor *t, const ct_tensor *vec);
CT_API ct_status ct_mv_out(ct_tensor *out, const ct_tensor *t, const ct_tensor *vec);
/* torch.dot / torch.vdot (conj(input) . other) of two 1-D tensors of one dtype: a 0-dim result (complex:
   the product, where torch 1.13 on Debian returns 0, its Fortran cdotu_/cdotc_ declaration not matching
   OpenBLAS's; a conjugate view where torch returns one). Errors: ("1D
   tensors expected, but got 2D and 1D tensors", "inconsistent tensor size, expected tensor [3] and src [4]
   to have the same number of elements, but got 3 and 4 elements respectively", "dot : expected both vectors
   to have same dtype, but found Float and Double"). */
CT_API ct_tensor *ct_dot(const ct_tensor *t, const ct_tensor *other);
CT_API ct_status ct_dot_out(ct_tensor *out, const ct_tensor *t, const ct_tensor *other);
CT_API ct_tensor *ct_vdot(const ct_tensor *t, const ct_tensor *other);
CT_API ct_status ct_vdot_out(ct_tensor *out, const ct_tensor *t, const ct_tensor *other);
/* torch.inner(input, other): the sum over the last dims (a product by a 0-dim operand is mul), result
   shape input.shape[:-1] + other.shape[:-1]. */
CT_API ct_tensor *ct_inner(const ct_tensor *t, const ct_tensor *other);
CT_API ct_status ct_inner_out(ct_tensor *out, const ct_tensor *t, const ct_tensor *other);
/* torch.outer(input, vec2) (ger is its alias): the 1-D inputs' outer product (promoted dtype, as mul). */
CT_API ct_tensor *ct_outer(const ct_tensor *t, const ct_tensor *vec2);
CT_API ct_status ct_outer_out(ct_tensor *out, const ct_tensor *t, const ct_tensor *vec2);
CT_API ct_tensor *ct_ger(const ct_tensor *t, const ct_tensor *vec2);
CT_API ct_status ct_ger_out(ct_tensor *out, const ct_tensor *t, const ct_tensor *vec2);

/* torch.addmm(input, mat1, mat2, beta=, alpha=): beta * input + alpha * (mat1 @ mat2), input broadcast to
   the product's shape (the in-place form does not broadcast self: "The input tensor must be a matrix with
   size 2x4, but got a 2-D tensor with size 2x3"). */
CT_API ct_tensor *ct_addmm(const ct_tensor *t, const ct_tensor *mat1, const ct_tensor *mat2, const ct_addmm_opts *opts);
CT_API ct_status ct_addmm_(ct_tensor *self, const ct_tensor *mat1, const ct_tensor *mat2, const ct_addmm_opts *opts);
CT_API ct_status ct_addmm_out(ct_tensor *out, const ct_tensor *t, const ct_tensor *mat1, const ct_tensor *mat2,
                              const ct_addmm_opts *opts);
/* torch.addmv(input, mat, vec, beta=, alpha=). */
CT_API ct_tensor *ct_addmv(const ct_tensor *t, const ct_tensor *mat, const ct_tensor *vec, const ct_addmm_opts *opts);
CT_API ct_status ct_addmv_(ct_tensor *self, const ct_tensor *mat, const ct_tensor *vec, const ct_addmm_opts *opts);
CT_API ct_status ct_addmv_out(ct_tensor *out, const ct_tensor *t, const ct_tensor *mat, const ct_tensor *vec,
                              const ct_addmm_opts *opts);
/* torch.addr(input, vec1, vec2, beta=, alpha=): beta * input + alpha * outer(vec1, vec2). */
CT_API ct_tensor *ct_addr(const ct_tensor *t, const ct_tensor *vec1, const ct_tensor *vec2, const ct_addmm_opts *opts);
CT_API ct_status ct_addr_(ct_tensor *self, const ct_tensor *vec1, const ct_tensor *vec2, const ct_addmm_opts *opts);
CT_API ct_status ct_addr_out(ct_tensor *out, const ct_tensor *t, const ct_tensor *vec1, const ct_tensor *vec2,
                             const ct_addmm_opts *opts);
/* torch.addbmm(input, batch1, batch2, beta=, alpha=): beta * input + alpha * the sum of the batch's
   products. */
CT_API ct_tensor *ct_addbmm(const ct_tensor *t, const ct_tensor *batch1, const ct_tensor *batch2,
                            const ct_addmm_opts *opts);
CT_API ct_status ct_addbmm_(ct_tensor *self, const ct_tensor *batch1, const ct_tensor *batch2,
                            const ct_addmm_opts *opts);
CT_API ct_status ct_addbmm_out(ct_tensor *out, const ct_tensor *t, const ct_tensor *batch1, const ct_tensor *batch2,
                               const ct_addmm_opts *opts);
/* torch.baddbmm(input, batch1, batch2, beta=, alpha=): beta * input + alpha * bmm(batch1, batch2). */
CT_API ct_tensor *ct_baddbmm(const ct_tensor *t, const ct_tensor *batch1, const ct_tensor *batch2,
                             const ct_addmm_opts *opts);
CT_API ct_status ct_baddbmm_(ct_tensor *self, const ct_tensor *batch1, const ct_tensor *batch2,
                             const ct_addmm_opts *opts);
CT_API ct_status ct_baddbmm_out(ct_tensor *out, const ct_tensor *t, const ct_tensor *batch1, const ct_tensor *batch2,
                                const ct_addmm_opts *opts);

/* torch.linalg.multi_dot(tensors): the product of the matrices (the first and last may be 1-D) in the
   order of fewest multiplications (torch's dynamic programme); torch.chain_matmul (deprecated) takes 2-D
   matrices only. "multi_dot(): expected at least 2 tensors but got 1". */
CT_API ct_tensor *ct_linalg_multi_dot(ct_tensors tensors);
CT_API ct_status ct_linalg_multi_dot_out(ct_tensor *out, ct_tensors tensors);
CT_API ct_tensor *ct_chain_matmul(ct_tensors matrices);
CT_API ct_status ct_chain_matmul_out(ct_tensor *out, ct_tensors matrices);

/* torch.tensordot(a, b, dims): contracts the last `dims` dims of a with the first `dims` of b;
   ct_tensordot_dims takes the two lists of dims (torch's dims=([...], [...])). */
CT_API ct_tensor *ct_tensordot(const ct_tensor *a, const ct_tensor *b, int64_t dims);
CT_API ct_status ct_tensordot_out(ct_tensor *out, const ct_tensor *a, const ct_tensor *b, int64_t dims);
CT_API ct_tensor *ct_tensordot_dims(const ct_tensor *a, const ct_tensor *b, ct_dims dims_a, ct_dims dims_b);
CT_API ct_status ct_tensordot_dims_out(ct_tensor *out, const ct_tensor *a, const ct_tensor *b, ct_dims dims_a,
                                       ct_dims dims_b);

/* torch.einsum(equation, *operands): torch's subscript grammar (letters, "..." for broadcast dims, "->"
   and an output, or the implicit output in alphabetical order), contracted left to right as torch 1.13
   does without opt_einsum (the operands' sums first, then pairwise bmm). */
CT_API ct_tensor *ct_einsum(const char *equation, ct_tensors operands);

/* torch.trace(input): the sum of a 2-D tensor's diagonal (integers sum in int64, as torch's sum). */
CT_API ct_tensor *ct_trace(const ct_tensor *t);

/* cross's dim keyword: none (ndim 0) is torch.cross's default (the first dim of size 3, with a
   deprecation warning in torch) and linalg.cross's (-1). */
typedef struct ct_cross_opts {
  ct_dims dim;
} ct_cross_opts;
/* torch.cross / torch.linalg.cross(input, other, dim): the cross product of 3-vectors along dim, inputs
   broadcast (linalg.cross) and promoted. "linalg.cross: inputs dimension -1 must have length 3. Got 2 and 2". */
CT_API ct_tensor *ct_cross(const ct_tensor *t, const ct_tensor *other, const ct_cross_opts *opts);
CT_API ct_status ct_cross_out(ct_tensor *out, const ct_tensor *t, const ct_tensor *other, const ct_cross_opts *opts);
CT_API ct_tensor *ct_linalg_cross(const ct_tensor *t, const ct_tensor *other, const ct_cross_opts *opts);
CT_API ct_status ct_linalg_cross_out(ct_tensor *out, const ct_tensor *t, const ct_tensor *other,
                                     const ct_cross_opts *opts);
/* torch.linalg.vecdot(x, y, dim=-1): sum(conj(x) * y, dim), broadcast; opts.dim: none is -1. */
CT_API ct_tensor *ct_linalg_vecdot(const ct_tensor *x, const ct_tensor *y, const ct_cross_opts *opts);
CT_API ct_status ct_linalg_vecdot_out(ct_tensor *out, const ct_tensor *x, const ct_tensor *y,
                                      const ct_cross_opts *opts);

#ifdef __cplusplus
}
#endif

/* The checking macros (args.h; C only, never inside the library). */
#if !defined(__cplusplus) && !defined(CT_BUILDING_LIBRARY)
#define ct_mm(...) CT__CHECKED(2, CT__CK_ct_mm, ct_mm, __VA_ARGS__)
#define CT__CK_ct_mm(t, o) ct_mm(CT__T(t), CT__T(o))
#define ct_mm_out(...) CT__CHECKED(3, CT__CK_ct_mm_out, ct_mm_out, __VA_ARGS__)
#define CT__CK_ct_mm_out(out, t, o) ct_mm_out(CT__TM(out), CT__T(t), CT__T(o))
#define ct_bmm(...) CT__CHECKED(2, CT__CK_ct_bmm, ct_bmm, __VA_ARGS__)
#define CT__CK_ct_bmm(t, o) ct_bmm(CT__T(t), CT__T(o))
#define ct_bmm_out(...) CT__CHECKED(3, CT__CK_ct_bmm_out, ct_bmm_out, __VA_ARGS__)
#define CT__CK_ct_bmm_out(out, t, o) ct_bmm_out(CT__TM(out), CT__T(t), CT__T(o))
#define ct_matmul(...) CT__CHECKED(2, CT__CK_ct_matmul, ct_matmul, __VA_ARGS__)
#define CT__CK_ct_matmul(t, o) ct_matmul(CT__T(t), CT__T(o))
#define ct_matmul_out(...) CT__CHECKED(3, CT__CK_ct_matmul_out, ct_matmul_out, __VA_ARGS__)
#define CT__CK_ct_matmul_out(out, t, o) ct_matmul_out(CT__TM(out), CT__T(t), CT__T(o))
#define ct_linalg_matmul(...) CT__CHECKED(2, CT__CK_ct_linalg_matmul, ct_linalg_matmul, __VA_ARGS__)
#define CT__CK_ct_linalg_matmul(t, o) ct_linalg_matmul(CT__T(t), CT__T(o))
#define ct_linalg_matmul_out(...) CT__CHECKED(3, CT__CK_ct_linalg_matmul_out, ct_linalg_matmul_out, __VA_ARGS__)
#define CT__CK_ct_linalg_matmul_out(out, t, o) ct_linalg_matmul_out(CT__TM(out), CT__T(t), CT__T(o))
#define ct_mv(...) CT__CHECKED(2, CT__CK_ct_mv, ct_mv, __VA_ARGS__)
#define CT__CK_ct_mv(t, o) ct_mv(CT__T(t), CT__T(o))
#define ct_mv_out(...) CT__CHECKED(3, CT__CK_ct_mv_out, ct_mv_out, __VA_ARGS__)
#define CT__CK_ct_mv_out(out, t, o) ct_mv_out(CT__TM(out), CT__T(t), CT__T(o))
#define ct_dot(...) CT__CHECKED(2, CT__CK_ct_dot, ct_dot, __VA_ARGS__)
#define CT__CK_ct_dot(t, o) ct_dot(CT__T(t), CT__T(o))
#define ct_dot_out(...) CT__CHECKED(3, CT__CK_ct_dot_out, ct_dot_out, __VA_ARGS__)
#define CT__CK_ct_dot_out(out, t, o) ct_dot_out(CT__TM(out), CT__T(t), CT__T(o))
#define ct_vdot(...) CT__CHECKED(2, CT__CK_ct_vdot, ct_vdot, __VA_ARGS__)
#define CT__CK_ct_vdot(t, o) ct_vdot(CT__T(t), CT__T(o))
#define ct_vdot_out(...) CT__CHECKED(3, CT__CK_ct_vdot_out, ct_vdot_out, __VA_ARGS__)
#define CT__CK_ct_vdot_out(out, t, o) ct_vdot_out(CT__TM(out), CT__T(t), CT__T(o))
#define ct_inner(...) CT__CHECKED(2, CT__CK_ct_inner, ct_inner, __VA_ARGS__)
#define CT__CK_ct_inner(t, o) ct_inner(CT__T(t), CT__T(o))
#define ct_inner_out(...) CT__CHECKED(3, CT__CK_ct_inner_out, ct_inner_out, __VA_ARGS__)
#define CT__CK_ct_inner_out(out, t, o) ct_inner_out(CT__TM(out), CT__T(t), CT__T(o))
#define ct_outer(...) CT__CHECKED(2, CT__CK_ct_outer, ct_outer, __VA_ARGS__)
#define CT__CK_ct_outer(t, o) ct_outer(CT__T(t), CT__T(o))
#define ct_outer_out(...) CT__CHECKED(3, CT__CK_ct_outer_out, ct_outer_out, __VA_ARGS__)
#define CT__CK_ct_outer_out(out, t, o) ct_outer_out(CT__TM(out), CT__T(t), CT__T(o))
#define ct_ger(...) CT__CHECKED(2, CT__CK_ct_ger, ct_ger, __VA_ARGS__)
#define CT__CK_ct_ger(t, o) ct_ger(CT__T(t), CT__T(o))
#define ct_ger_out(...) CT__CHECKED(3, CT__CK_ct_ger_out, ct_ger_out, __VA_ARGS__)
#define CT__CK_ct_ger_out(out, t, o) ct_ger_out(CT__TM(out), CT__T(t), CT__T(o))
#define ct_addmm(...) CT__CHECKED(4, CT__CK_ct_addmm, ct_addmm, __VA_ARGS__)
#define CT__CK_ct_addmm(t, a, b, o) ct_addmm(CT__T(t), CT__T(a), CT__T(b), CT__OPTS(ct_addmm_opts, o))
#define ct_addmm_(...) CT__CHECKED(4, CT__CK_ct_addmm_, ct_addmm_, __VA_ARGS__)
#define CT__CK_ct_addmm_(t, a, b, o) ct_addmm_(CT__TM(t), CT__T(a), CT__T(b), CT__OPTS(ct_addmm_opts, o))
#define ct_addmm_out(...) CT__CHECKED(5, CT__CK_ct_addmm_out, ct_addmm_out, __VA_ARGS__)
#define CT__CK_ct_addmm_out(out, t, a, b, o) \
  ct_addmm_out(CT__TM(out), CT__T(t), CT__T(a), CT__T(b), CT__OPTS(ct_addmm_opts, o))
#define ct_addmv(...) CT__CHECKED(4, CT__CK_ct_addmv, ct_addmv, __VA_ARGS__)
#define CT__CK_ct_addmv(t, a, b, o) ct_addmv(CT__T(t), CT__T(a), CT__T(b), CT__OPTS(ct_addmm_opts, o))
#define ct_addmv_(...) CT__CHECKED(4, CT__CK_ct_addmv_, ct_addmv_, __VA_ARGS__)
#define CT__CK_ct_addmv_(t, a, b, o) ct_addmv_(CT__TM(t), CT__T(a), CT__T(b), CT__OPTS(ct_addmm_opts, o))
#define ct_addmv_out(...) CT__CHECKED(5, CT__CK_ct_addmv_out, ct_addmv_out, __VA_ARGS__)
#define CT__CK_ct_addmv_out(out, t, a, b, o) \
  ct_addmv_out(CT__TM(out), CT__T(t), CT__T(a), CT__T(b), CT__OPTS(ct_addmm_opts, o))
#define ct_addr(...) CT__CHECKED(4, CT__CK_ct_addr, ct_addr, __VA_ARGS__)
#define CT__CK_ct_addr(t, a, b, o) ct_addr(CT__T(t), CT__T(a), CT__T(b), CT__OPTS(ct_addmm_opts, o))
#define ct_addr_(...) CT__CHECKED(4, CT__CK_ct_addr_, ct_addr_, __VA_ARGS__)
#define CT__CK_ct_addr_(t, a, b, o) ct_addr_(CT__TM(t), CT__T(a), CT__T(b), CT__OPTS(ct_addmm_opts, o))
#define ct_addr_out(...) CT__CHECKED(5, CT__CK_ct_addr_out, ct_addr_out, __VA_ARGS__)
#define CT__CK_ct_addr_out(out, t, a, b, o) \
  ct_addr_out(CT__TM(out), CT__T(t), CT__T(a), CT__T(b), CT__OPTS(ct_addmm_opts, o))
#define ct_addbmm(...) CT__CHECKED(4, CT__CK_ct_addbmm, ct_addbmm, __VA_ARGS__)
#define CT__CK_ct_addbmm(t, a, b, o) ct_addbmm(CT__T(t), CT__T(a), CT__T(b), CT__OPTS(ct_addmm_opts, o))
#define ct_addbmm_(...) CT__CHECKED(4, CT__CK_ct_addbmm_, ct_addbmm_, __VA_ARGS__)
#define CT__CK_ct_addbmm_(t, a, b, o) ct_addbmm_(CT__TM(t), CT__T(a), CT__T(b), CT__OPTS(ct_addmm_opts, o))
#define ct_addbmm_out(...) CT__CHECKED(5, CT__CK_ct_addbmm_out, ct_addbmm_out, __VA_ARGS__)
#define CT__CK_ct_addbmm_out(out, t, a, b, o) \
  ct_addbmm_out(CT__TM(out), CT__T(t), CT__T(a), CT__T(b), CT__OPTS(ct_addmm_opts, o))
#define ct_baddbmm(...) CT__CHECKED(4, CT__CK_ct_baddbmm, ct_baddbmm, __VA_ARGS__)
#define CT__CK_ct_baddbmm(t, a, b, o) ct_baddbmm(CT__T(t), CT__T(a), CT__T(b), CT__OPTS(ct_addmm_opts, o))
#define ct_baddbmm_(...) CT__CHECKED(4, CT__CK_ct_baddbmm_, ct_baddbmm_, __VA_ARGS__)
#define CT__CK_ct_baddbmm_(t, a, b, o) ct_baddbmm_(CT__TM(t), CT__T(a), CT__T(b), CT__OPTS(ct_addmm_opts, o))
#define ct_baddbmm_out(...) CT__CHECKED(5, CT__CK_ct_baddbmm_out, ct_baddbmm_out, __VA_ARGS__)
#define CT__CK_ct_baddbmm_out(out, t, a, b, o) \
  ct_baddbmm_out(CT__TM(out), CT__T(t), CT__T(a), CT__T(b), CT__OPTS(ct_addmm_opts, o))
#define ct_tensordot(...) CT__CHECKED(3, CT__CK_ct_tensordot, ct_tensordot, __VA_ARGS__)
#define CT__CK_ct_tensordot(a, b, d) ct_tensordot(CT__T(a), CT__T(b), d)
#define ct_tensordot_out(...) CT__CHECKED(4, CT__CK_ct_tensordot_out, ct_tensordot_out, __VA_ARGS__)
#define CT__CK_ct_tensordot_out(out, a, b, d) ct_tensordot_out(CT__TM(out), CT__T(a), CT__T(b), d)
#define ct_trace(...) CT__CHECKED(1, CT__CK_ct_trace, ct_trace, __VA_ARGS__)
#define CT__CK_ct_trace(t) ct_trace(CT__T(t))
#define ct_cross(...) CT__CHECKED(3, CT__CK_ct_cross, ct_cross, __VA_ARGS__)
#define CT__CK_ct_cross(t, o2, o) ct_cross(CT__T(t), CT__T(o2), CT__OPTS(ct_cross_opts, o))
#define ct_cross_out(...) CT__CHECKED(4, CT__CK_ct_cross_out, ct_cross_out, __VA_ARGS__)
#define CT__CK_ct_cross_out(out, t, o2, o) ct_cross_out(CT__TM(out), CT__T(t), CT__T(o2), CT__OPTS(ct_cross_opts, o))
#define ct_linalg_cross(...) CT__CHECKED(3, CT__CK_ct_linalg_cross, ct_linalg_cross, __VA_ARGS__)
#define CT__CK_ct_linalg_cross(t, o2, o) ct_linalg_cross(CT__T(t), CT__T(o2), CT__OPTS(ct_cross_opts, o))
#define ct_linalg_cross_out(...) CT__CHECKED(4, CT__CK_ct_linalg_cross_out, ct_linalg_cross_out, __VA_ARGS__)
#define CT__CK_ct_linalg_cross_out(out, t, o2, o) \
  ct_linalg_cross_out(CT__TM(out), CT__T(t), CT__T(o2), CT__OPTS(ct_cross_opts, o))
#define ct_linalg_vecdot(...) CT__CHECKED(3, CT__CK_ct_linalg_vecdot, ct_linalg_vecdot, __VA_ARGS__)
#define CT__CK_ct_linalg_vecdot(t, o2, o) ct_linalg_vecdot(CT__T(t), CT__T(o2), CT__OPTS(ct_cross_opts, o))
#define ct_linalg_vecdot_out(...) CT__CHECKED(4, CT__CK_ct_linalg_vecdot_out, ct_linalg_vecdot_out, __VA_ARGS__)
#define CT__CK_ct_linalg_vecdot_out(out, t, o2, o) \
  ct_linalg_vecdot_out(CT__TM(out), CT__T(t), CT__T(o2), CT__OPTS(ct_cross_opts, o))
#endif

#endif
