/* Shared by the joining and reordering ops (include/ctorch/join.h): their descriptors' rows, the list guard,
   the out= steps they share (resize_output, then copy_), and the _impls that composites call (hstack is cat's
   impl, fliplr flip's, rot90 flip's and transpose's). Every _impl returns a tensor the caller owns (NULL with
   the error recorded) and keeps its temporaries in a scope of its own. */
#ifndef CTORCH_OPS_JOIN_INTERNAL_H
#define CTORCH_OPS_JOIN_INTERNAL_H
#include "core/cast.h"
#include "core/layout_rules.h"
#include "core/op.h"
#include "core/out_wrapper.h"
#include "ops/create_internal.h"
#include "ops/view_internal.h"
#include "ops/view_op.h"

/* Rank of the stack arrays the ops keep shapes in; a larger rank is refused with a RuntimeError. */
#define CT_JOIN_MAXDIM 64

/* A join op's descriptor: torch's name, the ATen operator its dispatcher errors name, CPU and meta rows (the
   copy engine dispatches on dtype itself; meta runs shape only) or the CPU row alone. */
#define CT_JOIN_OP(NAME, ATEN) {.name = (NAME), .aten = (ATEN), CT_COPY_ROWS}
#define CT_JOIN_OP_CPU(NAME, ATEN) {.name = (NAME), .aten = (ATEN), CT_COPY_ROWS_CPU}

/* The entry guard over a tensor list (and out, may be NULL): a list of negative length or without its array,
   a NULL entry (named by position), then the layouts and dispatch device of every tensor (c10's key). */
bool ct__join_list_ok(const ct_op *op, const ct_tensor *out, ct_tensors ts);
/* Autograd's out= rule over out and the list. */
bool ct__join_out_grad_ok(const ct_op *op, const ct_tensor *out, ct_tensors ts);
/* The result requires grad when one of the inputs does (autograd's leaf rules until it lands). */
void ct__join_mark(ct_tensor *r, ct_tensors ts);
/* A shape's rank fits the stack arrays (RuntimeError otherwise). */
bool ct__join_rank_ok(int64_t ndim);
/* resize_output(out, sizes): out keeps its geometry when it has that shape, else becomes contiguous. */
ct_status ct__join_fit_out(ct_tensor *out, int64_t ndim, const int64_t *sizes);
/* The out= tail of an op computed into a new tensor r: the copy's device check, resize_output, copy_. */
ct_status ct__join_copy_out(ct_tensor *out, const ct_tensor *r);
/* A structured op's out device check: "Expected out tensor to have device cpu, but got meta instead". */
bool ct__join_out_device_ok(const ct_tensor *out, const ct_tensor *like);
/* "Expected out tensor to have dtype float, but got int instead" (a structured op's out check). */
bool ct__join_out_dtype_is(const ct_tensor *out, ct_dtype want);
/* torch's "zero the elements outside a band" step shared by tril/triu and the diagonal builders: a new
   uninitialised tensor (unowned) of sizes on like's device. */
ct_tensor *ct__join_empty(const ct_tensor *like, int64_t ndim, const int64_t *sizes, ct_dtype dtype);
/* t.clone(memory_format) (unowned): empty_like, then the copy engine. */
ct_tensor *ct__join_clone(const ct_tensor *t, ct_memory_format fmt);
/* A new tensor of sizes holding zeros. */
ct_tensor *ct__join_zeros(const ct_tensor *like, int64_t ndim, const int64_t *sizes, ct_dtype dtype);

/* ---- the _impls composites call ---- */
/* cat into out (given) or a new tensor (*result); torch.cat's checks and messages. */
ct_status ct__cat_impl(ct_tensor *out, ct_tensors ts, int64_t dim, ct_tensor **result);
/* atleast_Nd of one tensor (a new reference to t or a view). */
ct_tensor *ct__atleast_impl(const ct_tensor *t, int n);
/* flip (dims wrapped and checked inside). */
ct_tensor *ct__flip_impl(const ct_tensor *t, ct_dims dims);
/* roll with torch's argument rules. */
ct_tensor *ct__roll_impl(const ct_tensor *t, ct_shape shifts, ct_dims dims);
/* Tensor.repeat. */
ct_tensor *ct__repeat_impl(const ct_tensor *t, ct_shape repeats);
/* meshgrid's views, ij or xy. */
ct_tensor_list *ct__meshgrid_impl(ct_tensors ts, bool xy);
/* torch.stack. */
ct_status ct__stack_impl(ct_tensor *out, ct_tensors ts, int64_t dim, ct_tensor **result);
/* diag_embed. */
ct_tensor *ct__diag_embed_impl(const ct_tensor *t, int64_t offset, int64_t dim1, int64_t dim2);
/* index_select along dim by the n indices idx (checked by the caller): a new contiguous tensor. */
ct_tensor *ct__join_take(const ct_tensor *t, int64_t dim, const int64_t *idx, int64_t n);

#endif
