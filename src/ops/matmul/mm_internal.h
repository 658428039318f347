/* Shared by the products (include/ctorch/matmul.h): the one matrix-product kernel every op reaches
   (torch's addmm_impl_cpu_), the small-matrix batch kernel, and the _impls composites call. Every _impl
   returns a tensor the caller owns (not scope-registered), NULL with the error recorded. */
#ifndef CTORCH_OPS_MATMUL_INTERNAL_H
#define CTORCH_OPS_MATMUL_INTERNAL_H
#include "ops/join/join_internal.h"

/* The products' descriptors: CPU rows (the dtype dispatch is the kernels' own, with torch's "not
   implemented for" names) and meta rows: torch 1.13 computes every product on meta (structured meta
   functions, Python meta functions, composites), each op's meta path chosen at its dispatch point with
   CT__OP_ON_META: its checks and its result's geometry, no kernel and none of the kernel's checks.
   CT_MM_OP_CPU: an operator torch has no Meta kernel for (tensordot.out). */
#define CT_MM_OP(NAME, ATEN)     CT_JOIN_OP(NAME, ATEN)
#define CT_MM_OP_CPU(NAME, ATEN) CT_JOIN_OP_CPU(NAME, ATEN)

/* beta / alpha of ct_addmm_opts with torch's default (kind 0: 1). */
ct_scalar ct__mm_coef(ct_scalar s);
/* Whether a scalar is v (torch's beta.toComplexDouble() == v), zero. */
bool ct__mm_coef_is(ct_scalar s, double v);
bool ct__mm_coef_zero(ct_scalar s);

/* torch's addmm_impl_cpu_ from its result step: result (m x n, sized, no math bits) already holds beta's
   operand (self's values, broadcast) unless beta is 0; it becomes beta * result + alpha * (m1 @ m2). m1 and
   m2 have no negative bit (a conjugate one is read as torch reads it). Chooses transposes and leading dimensions from the strides as torch does (a copy
   for an operand or result that neither layout fits), then OpenBLAS for float32/64 and complex, torch's
   own loops (cpublas gemm_core_) for the integer types and bfloat16. kname: the kernel name of torch's
   "not implemented for" (addmm_impl_cpu_). */
ct_status ct__gemm_into(ct_tensor *result, const ct_tensor *m1, const ct_tensor *m2, ct_scalar beta,
                        ct_scalar alpha, const char *kname);

/* torch 1.13's bfloat16 gemm_core_ (gemm_bf16.c): c (m x n, column-major, ldc) = beta * c + alpha * op(a) @
   op(b), op transposing where ta / tb, with torch's roundings in torch's order for each element. */
void ct__gemm_bf16(bool ta, bool tb, int64_t m, int64_t n, int64_t k, float alpha, float beta,
                   const uint16_t *a, int64_t lda, const uint16_t *b, int64_t ldb, uint16_t *c, int64_t ldc);

/* bmm's large-matrix path (one addmm_impl_cpu_ per batch element, torch's calls) without a tensor per
   element, the batch shared out over the pool: r (bs x m x n), b1, b2 of r's dtype, no math bits, checks
   done, k > 0. False (nothing done, no error) where an operand or the result needs torch's copy, so that
   the caller runs ct__gemm_into per element. */
bool ct__gemm_batched(ct_tensor *r, const ct_tensor *b1, const ct_tensor *b2, ct_scalar beta,
                      ct_scalar alpha);

/* addr's kernel (addr_kernel.c) for a float32 / float64 / complex result dt: torch's iterator over (target,
   e = self expanded, col = vec1 as a column, v2; inputs promoted to dt) and its kernel's roundings. target:
   where torch writes (an out= or in-place tensor of dt and the result's shape), or NULL for a new result with
   the iterator's layout. A new reference to the result (target itself when given). */
ct_tensor *ct__addr_float(const ct_tensor *e, const ct_tensor *col, const ct_tensor *v2, ct_dtype dt,
                          ct_scalar beta, ct_scalar alpha, ct_tensor *target);

/* torch's oneDNN route for bfloat16 products (mm_dnnl.c, kernels/cpu/dnnl.h): whether torch's
   use_mkldnn_bf16_matmul(a, b, result) holds (result NULL: not given), and its mkldnn_matmul(a, b, result,
   beta, alpha): a (m x k, b x m x k, or n for dot), b (k x n, b x k x n, k for mv, n for dot), result (its
   shape, holding beta's operand when beta != 0), no math bits. */
bool ct__mm_dnnl_route(const ct_tensor *a, const ct_tensor *b, const ct_tensor *result);
/* Whether oneDNN takes t's strides as a memory descriptor (torch wraps the result it writes, out= or self,
   in one); where not, torch raises "could not construct a memory descriptor using strides". */
bool ct__mm_dnnl_dst_ok(const ct_tensor *t);
ct_status ct__mm_dnnl(ct_tensor *result, const ct_tensor *a, const ct_tensor *b, ct_scalar beta,
                      ct_scalar alpha);

/* Whether torch's mm computes dtype (every type but bool and float16): else records
   "\"<kname>\" not implemented for '<dtype>'". */
bool ct__mm_dtype_ok(ct_dtype dt, const char *kname);

/* mm(a, b) into a new row-major result (a, b 2-D of one dtype; checks done): unowned. */
ct_tensor *ct__mm_new(const ct_tensor *a, const ct_tensor *b);
/* a @ b as mm_out(out, a, b) computes it: into out itself where it can be written directly, else into a tensor
   laid out as out (its strides decide BLAS's transposes, and the AVX-512 kernels' bits); finish with
   ct__mm_finish_out. */
ct_tensor *ct__mm_for_out(const ct_tensor *a, const ct_tensor *b, ct_tensor *out);
/* The dtypes whose products mm accepts and can sum in more than one order (BLAS's, bfloat16's loops), so the
   layout of the result decides their bits; the others are exact or refused. */
bool ct__mm_layout_matters(ct_dtype dt);
/* matmul_out's checks and product after the entry guards (linalg.matrix_power's last product). */
ct_status ct__matmul_out(ct_tensor *out, const ct_tensor *t, const ct_tensor *other);
/* bmm(a, b): 3-D of one dtype, checks done, new contiguous result. */
ct_tensor *ct__bmm_new(const ct_tensor *a, const ct_tensor *b);
/* torch.matmul's impl (checks its own). */
ct_tensor *ct__matmul_impl(const ct_tensor *a, const ct_tensor *b);
/* mv(a, v) into a new result (checks done). */
ct_tensor *ct__mv_new(const ct_tensor *a, const ct_tensor *v);
/* mv_out(out, a, v) (checks its own): torch's choice of addmv's self, then addmv_out. */
ct_status ct__mv_out(ct_tensor *out, const ct_tensor *a, const ct_tensor *v);
/* dot / vdot (checks done): a new 0-dim tensor. */
ct_tensor *ct__dot_new(const ct_tensor *a, const ct_tensor *b, bool conj_a);

/* dot_out / vdot_out past their entry guard (name: "dot" or "vdot", conj: vdot): the device check ("dot: Expected
   the output and input tensors to be on the same device, ..."), resize_output(out, {}), the dtype check, then fill_
   with the product. */
ct_status ct__dot_out(const char *name, ct_tensor *out, const ct_tensor *t, const ct_tensor *other,
                      bool conj);

/* t with its negative bit applied, its conjugate bit kept (ct__gemm_into reads conjugate views as torch's
   addmm does). */
ct_tensor *ct__mm_unneg(const ct_tensor *t);
/* t with its math bits applied (a new reference to t when it has none). */
ct_tensor *ct__mm_resolved(const ct_tensor *t);
/* A pointwise op's result as a caller-owned tensor (the engine's results belong to the scope). */
ct_tensor *ct__mm_pw(const void *pw_op, const ct_tensor *a, const ct_tensor *b);
/* mul's out= form (at::mul_out(out, a, b)): its result type, cast check and resize of out. */
ct_status ct__mm_mul_out(ct_tensor *out, const ct_tensor *a, const ct_tensor *b);
/* A new result of sizes and dtype on dev's device, laid out as `like` (an out= tensor or an in-place
   target of that shape: empty_like's preserve-format strides) so that BLAS gets the transposes torch
   chooses when it writes into that tensor; row-major otherwise. */
ct_tensor *ct__mm_result_like(const ct_tensor *like, const ct_tensor *dev, int64_t nd, const int64_t *sizes,
                              ct_dtype dt);
/* The same for a product computed by addmm_impl_cpu_'s rules (nd 2 or 3: matrices in the last two dims): where
   like's matrices fit neither layout torch computes each in a column-major copy, and so is this result laid
   out (a row-major one would be computed transposed: another BLAS call, other bits). */
ct_tensor *ct__mm_result_for(const ct_tensor *like, const ct_tensor *dev, int64_t nd, const int64_t *sizes,
                             ct_dtype dt);
/* out itself (a new reference) when a product can be written straight into it, as torch writes into an out
   of the result's shape and dtype (so that BLAS gets out's leading dimension, and a layout no copy could
   give): no math bits, no overlapping elements, no storage shared with the inputs a, b, c (NULL: none).
   NULL otherwise (the caller computes a new result and copies it). */
ct_tensor *ct__mm_out_direct(ct_tensor *out, int64_t nd, const int64_t *sizes, ct_dtype dt, const ct_tensor *a,
                             const ct_tensor *b, const ct_tensor *c);
/* The out= tail: out's dtype must be r's ("Expected out tensor to have dtype ..."), then resize_output and copy.
   opt: for a structured op, the tensor whose options its meta function gives the result (mm's self, addmm's
   mat1, bmm's batch2, addmv's vec): resize_out's device check against it (core/out_wrapper.h), and out only
   resized where the call ran on meta (r meta); NULL: the copy's device rule. Releases r. */
ct_status ct__mm_finish_out(ct_tensor *out, ct_tensor *r, const ct_tensor *opt);
/* The in-place tail: self keeps its shape (torch's "Bad in-place call" otherwise), gets r's values (none from a
   meta r: a structured meta function, whose device rule the impl checks, ct__inplace_device_ok). Releases r. */
ct_status ct__mm_finish_inplace(ct_tensor *self, ct_tensor *r);

/* The tensor whose device a product's new result takes: the first meta tensor among ts[n] (NULL entries:
   omitted arguments; c10 dispatches the call to meta, whose kernels make meta results), else dflt.
   CT__MM_DEV(dflt, tensors...). */
const ct_tensor *ct__mm_dev_n(const ct_tensor *dflt, const ct_tensor *const *ts, int n);
#define CT__MM_DEV(dflt, ...)                                 \
  ct__mm_dev_n(dflt, (const ct_tensor *const[]){__VA_ARGS__}, \
               (int)(sizeof((const ct_tensor *const[]){__VA_ARGS__}) / sizeof(const ct_tensor *)))

/* Autograd's leaf rules on a result r of inputs a and b (either may be NULL; r NULL: nothing). */
void ct__mm_mark(ct_tensor *r, const ct_tensor *a, const ct_tensor *b);
/* The public forms of a two-tensor product: the entry guard (NULL arguments named from `names`, "t, mat2";
   layouts and devices), the impl, autograd's marks, scope ownership; the out= form adds out's guard and
   autograd's out= rule, then runs out_impl. */
typedef ct_tensor *ct_mm_impl2(const ct_tensor *a, const ct_tensor *b);
typedef ct_status ct_mm_out_impl2(ct_tensor *out, const ct_tensor *a, const ct_tensor *b);
ct_tensor *ct__mm_api2(const ct_op *op, const char *names, const ct_tensor *a, const ct_tensor *b,
                       ct_mm_impl2 *impl);
ct_status ct__mm_api2_out(const ct_op *op, const char *names, ct_tensor *out, const ct_tensor *a,
                          const ct_tensor *b, ct_mm_out_impl2 *impl);

#endif
