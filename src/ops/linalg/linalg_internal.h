/* What the linear algebra ops (include/ctorch/linalg.h) share: their descriptors' rows, torch's input checks
   (each op calls them in torch's order), the batched column-major workspaces LAPACK runs on, the info tensors and
   torch's messages for them, and the out= tail. */
#ifndef CTORCH_OPS_LINALG_INTERNAL_H
#define CTORCH_OPS_LINALG_INTERNAL_H
#include "core/cast.h"
#include "core/layout_rules.h"
#include "core/op.h"
#include "ops/linalg/lapack.h"
#include "ops/view_internal.h"
#include "ops/view_op.h"

/* A linalg op's descriptor: NAME is the ATen op whose autograd layer refuses out= arguments that require grad
   ("linalg_inv_ex(): functions with out=..."); CPU only: a meta input is refused with the dispatcher's message
   for ATEN (torch's for the ops without a meta kernel; for the others, whose meta kernels are not reproduced
   yet, ctorch's refusal), and an out= tensor on another device gets the structured kernels' "Expected out
   tensor to have device cpu, but got meta instead" after the input checks. */
#define CT_LINALG_OP(NAME, ATEN) \
  { .name = (NAME), .aten = (ATEN), CT_COPY_ROWS_CPU }
/* The same with a meta row, for an op whose meta kernel ctorch reproduces (det, slogdet, logdet, inv, solve,
   cholesky, svd, svdvals, eigh, eigvalsh, the lu family, triangular_solve, qr, cholesky_solve's checks, and the
   composites over them): its checks, then results of the CPU's geometry without values and without the CPU
   kernel's per-dtype check (torch's meta kernels run no dtype dispatch). */
#define CT_LINALG_META_OP(NAME, ATEN) \
  { .name = (NAME), .aten = (ATEN), CT_COPY_ROWS }

/* Matrix ranks up to this are held in stack arrays. */
#define CT_LA_MAXDIM 64

/* ---- torch's checks, each recording torch's message prefixed by api ("linalg.inv") ---- */
/* "The input tensor A must have at least 2 dimensions." (what: "A" or "B"). */
bool ct__la_ndim_ok(const ct_tensor *t, const char *api, const char *what);
/* "A must be batches of square matrices, but they are 2 by 3 matrices". */
bool ct__la_square_ok(const ct_tensor *t, const char *api);
/* "Expected a floating point or complex tensor as input. Got Long". */
bool ct__la_float_ok(const ct_tensor *t, const char *api);
/* "Low precision dtypes not supported. Got Half". */
bool ct__la_lowprec_ok(const ct_tensor *t, const char *api);
/* The kernel's dispatch: "\"lu_cpu\" not implemented for 'Half'" for a dtype LAPACK has no routine for. */
bool ct__la_kernel_ok(const ct_tensor *t, const char *kernel);
/* Whether dt is one of LAPACK's four. */
bool ct__la_dtype(ct_dtype dt);
/* The real dtype of dt's values (float32 for complex64). */
ct_dtype ct__la_real(ct_dtype dt);

/* ---- workspaces ---- */
/* A new tensor (unowned) of sizes with batched column-major strides (each matrix column-major, the batch
   contiguous around them: torch's batched_matrix_contiguous_strides(f_contig = true)); 1-D: contiguous. */
ct_tensor *ct__la_empty_colmajor(const ct_tensor *like, int64_t ndim, const int64_t *sizes, ct_dtype dt);
/* The same holding src expanded to sizes (its conj and neg bits applied by the copy engine). */
ct_tensor *ct__la_colmajor_copy(const ct_tensor *src, int64_t ndim, const int64_t *sizes);
/* A new contiguous tensor (unowned) of sizes. */
ct_tensor *ct__la_empty(const ct_tensor *like, int64_t ndim, const int64_t *sizes, ct_dtype dt);
/* Element i's address in a tensor made by the functions above. */
static inline char *ct__la_at(const ct_tensor *t, int64_t i) {
  return ct__tdata(t) + i * (int64_t)ct__itemsize((ct_dtype)t->dtype);
}
/* The number of matrices in a batched tensor (the product of all dims but the last two). */
int64_t ct__la_batch(const ct_tensor *t);
/* LAPACK's int holds n, and the matrix sizes fit it (RuntimeError otherwise). */
bool ct__la_int_ok(int64_t n);

/* ---- info ---- */
/* torch's _linalg_check_errors: the first nonzero info of a batch (info: int32, the batch's shape) recorded
   with api's message; true when every info is 0. */
bool ct__la_check_errors(const ct_tensor *info, const char *api);

/* ---- out= ---- */
/* "Expected out tensor to have dtype float, but got double instead", then the device. */
bool ct__la_out_ok(const ct_tensor *out, ct_dtype want, const ct_tensor *like);
/* out takes r's values: resized to r's shape with r's strides when its shape differs, then copy_. */
ct_status ct__la_write_out(ct_tensor *out, const ct_tensor *r);
/* Writes r[k] into outs[k] (ct__la_write_out; a NULL out: not written), then releases every r[k]. */
ct_status ct__la_write_outs(ct_tensor **r, ct_tensor *const *outs, int n, ct_status s);
/* The tail of an op of two results r[2]: written into out0 and out1 (out= forms: out0 given, out1 may be NULL),
   or handed to the caller through want0 and want1 (owned by the scope; NULL: not wanted) as ct__sort_hand_out
   does; on s != CT_OK every r[k] is released. */
ct_status ct__la_deliver2(ct_tensor **r, ct_tensor *out0, ct_tensor *out1, ct_tensor **want0,
                          ct_tensor **want1, ct_status s);

/* ---- the _impls composites call (results unowned) ---- */
/* LU of A's batched column-major copy: LU (A's shape), pivots (int32, batch + [min(m, n)]), info (int32, batch).
   trans: factor A^T instead (torch's shortcut for a contiguous real A: det(A^T) = det(A)). */
ct_status ct__la_lu_factor(const ct_tensor *A, bool trans, ct_tensor **LU, ct_tensor **pivots,
                           ct_tensor **info);
/* linalg.slogdet's sign and logabsdet from LU and pivots. */
ct_status ct__la_slogdet_from_lu(const ct_tensor *LU, const ct_tensor *pivots, ct_tensor **sign,
                                 ct_tensor **logabs);

/* ---- eig family (linalg_eig.h) ---- */
/* checkLinalgCompatibleDtype: "api: Expected what to be safely castable from Float dtype, but got what with dtype
   Int", then out's device against like's. */
bool ct__la_castable_ok(const ct_tensor *out, ct_dtype from, const ct_tensor *like, const char *api, const char *what);
/* resize_output + copy_: out takes r's shape (contiguous strides) when its shape differs, then r's values. */
ct_status ct__la_write_out_contiguous(ct_tensor *out, const ct_tensor *r);
/* linalg.inv's body after its checks (ndim, square, floating, low precision, then the solve), infos checked with
   api's messages ("linalg.inv", tensorinv's "inv"): a new batched column-major inverse (unowned). */
ct_tensor *ct__la_inv_impl(const ct_tensor *A, const char *api);
/* linalg.solve(A, B) with its checks and messages: a new result (unowned). */
ct_tensor *ct__la_solve_impl(const ct_tensor *A, const ct_tensor *B);
/* ---- norm family (linalg_norm.h) ---- */
/* A composite of torch's (CompositeImplicitAutograd): any device at entry, each inner op's device checked where it
   dispatches; out= accepts arguments that require grad. */
#define CT_LINALG_COMPOSITE_OP(NAME, ATEN) \
  { .name = (NAME), .aten = (ATEN), .composite = true, .grad = CT_OP_GRAD_NONE }
/* linalg.svdvals(A) past its entry guard: svd's checks (ndim, floating, the kernel's dtype), then the singular
   values (scope-owned). A device without LAPACK (meta) is refused with the dispatcher's message for _linalg_svd. */
ct_tensor *ct__la_svdvals_impl(const ct_tensor *A);
/* linalg.inv_ex(A) past its entry guard (check_errors=False): its checks, then the inverse (batched column-major)
   and info (int32, the batch's shape), both scope-owned. */
ct_status ct__la_inv_ex_impl(const ct_tensor *A, ct_tensor **inverse, ct_tensor **info);
/* at::nuclear_norm(t, {d0, d1}, keepdim) (torch.norm's p='nuc'; d0 and d1 wrapped): "duplicate or invalid
   dimensions", then the sum of linalg.svdvals of t with d0 and d1 moved to the end, the kept dims put back; out
   given: resize_output and copy_ into it, else *res (scope-owned). */
ct_status ct__la_nuclear_norm(ct_tensor *out, const ct_tensor *t, int64_t d0, int64_t d1, bool keepdim,
                              ct_tensor **res);
/* linalg.matrix_norm past its entry guard (out NULL: a new scope-owned *res). */
ct_status ct__la_matrix_norm_impl(ct_tensor *out, const ct_tensor *A, const ct_matrix_norm_opts *opts,
                                  ct_tensor **res);
/* checkSameDevice(api, result, input): "linalg.cond: Expected result and input tensors to be on the same device,
   but got result on meta and input on cpu". */
bool ct__la_same_device_ok(const char *api, const ct_tensor *result, const ct_tensor *input);
/* Reads a ct_norm_ord and its number p (linalg_norm.h's rule; fn names the function in the ValueError): a kind
   that is not one of the four, CT_NORM_P without p, or p with another kind is refused; a complex p with an
   imaginary part fails as c10's Scalar::toDouble ("value cannot be converted to type double without overflow").
   *value: p as a double (0 for the other kinds). */
bool ct__la_norm_ord(ct_norm_ord ord, ct_scalar p, const char *fn, double *value);
/* ---- lu family (lu.c, lu_solve.c, triangular.c, cholesky_solve.c) ---- */
/* ct__la_colmajor_copy in dtype dt: src expanded to sizes and cast by the copy engine. */
ct_tensor *ct__la_colmajor_cast(const ct_tensor *src, int64_t ndim, const int64_t *sizes, ct_dtype dt);
/* A contiguous copy (unowned) of src expanded to sizes (its math bits applied). */
ct_tensor *ct__la_contiguous_copy(const ct_tensor *src, int64_t ndim, const int64_t *sizes);
/* out takes r's shape and strides when its shape differs or restride is set (torch's kernels that restride an
   empty out to their own layout), then r's values. */
ct_status ct__la_write_out_as(ct_tensor *out, const ct_tensor *r, bool restride);
/* checkLinalgCompatibleDtype: "cholesky_solve: Expected result to be safely castable from Float dtype, but got
   result with dtype Long", then the device. */
bool ct__la_out_castable(const ct_tensor *out, ct_dtype from, const ct_tensor *like, const char *api);
/* The batch of x and y broadcast (torch's _linalg_broadcast_batch_dims; its message on a mismatch, x as "a")
   into bs[*nb]; false with the error recorded. */
bool ct__la_broadcast_batch(const ct_tensor *x, const ct_tensor *y, int64_t *bs, int64_t *nb);
/* linearSolveCheckInputs(b, A, name): "Expected b and A to have the same dtype, but found b of type Double and A
   of type Float instead.", "A must be batches of square matrices, but they are 2 by 3 matrices", "Incompatible
   matrix sizes for triangular_solve: each A matrix is 3 by 3 but each b matrix is 4 by 2". */
bool ct__la_linear_solve_ok(const ct_tensor *b, const ct_tensor *A, const char *name);
/* ---- qr family: out= rules of torch's hand-written out functions, and the decompositions composites call ---- */
/* checkLinalgCompatibleDtype: "api: Expected name to be safely castable from Float dtype, but got name with
   dtype Long" unless want can be cast to out's dtype; then out's device. */
bool ct__la_out_castable_ok(const ct_tensor *out, ct_dtype want, const ct_tensor *like, const char *api,
                            const char *name);
#include <string.h>
/* Zeroes a new tensor made by the workspace functions (nothing for an empty or meta one, whose data may be
   NULL). */
static inline void ct__la_zero(ct_tensor *t) {
  if (t->numel > 0 && t->device_type != CT_META)
    memset(ct__tdata(t), 0, (size_t)t->numel * ct__itemsize((ct_dtype)t->dtype));
}
/* Whether t is batched column-major (t.mT().is_contiguous()); false below 2 dims. */
bool ct__la_is_colmajor(const ct_tensor *t);
/* out takes r's values as torch's out functions write them: direct (torch used out's storage: it was empty or
   already of r's layout) gives an empty out r's shape and strides, otherwise resize_output (contiguous when the
   shape differs); then copy_ (casting). */
ct_status ct__la_write_out_direct(ct_tensor *out, const ct_tensor *r, bool direct);
/* linalg.svd's computation past its checks (decomp.c): S, and with vectors U and Vh (full: full_matrices). */
ct_status ct__la_svd_impl(const ct_tensor *A, bool vectors, bool full, ct_tensor **U, ct_tensor **S,
                          ct_tensor **Vh);
/* linalg.eigh's computation past its checks (decomp.c): eigenvalues w and, with vectors, V; uplo 'L' / 'U'. */
ct_status ct__la_eigh_impl(const ct_tensor *A, char uplo, bool vectors, ct_tensor **w, ct_tensor **V);
/* ---- batches (the shared driver) ---- */
/* fn(ctx, b) once for each matrix b in [0, n) of a batch whose matrices are at most rows x cols: on the
   library's pool, OpenBLAS on one thread inside the workers, when there are several matrices and each is
   small enough that OpenBLAS would run its LAPACK call on one thread anyway (rows * cols < 10000); else in
   order on the calling thread, OpenBLAS on ct_set_num_threads's threads. Each matrix gets the same call
   either way, so the bits do not depend on the thread count. fn runs on any thread: it writes only its
   matrix's slots (an info per matrix, not the error state) and the caller reads them afterwards. */
typedef void ct_la_matrix_fn(void *ctx, int64_t b);
void ct__la_for_each_matrix(int64_t n, int64_t rows, int64_t cols, ct_la_matrix_fn *fn, void *ctx);

#endif
