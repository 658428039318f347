/* Descriptors of the views and conversions (the ct_op seam of src/core/op.h) and what they share: their
   device rows, their layout sets, and what torch 1.13 does with a sparse tensor its dispatcher lets in. */
#ifndef CTORCH_OPS_VIEW_OP_H
#define CTORCH_OPS_VIEW_OP_H

#include "core/op.h"

/* A view re-describes metadata and a conversion runs the copy engine, which dispatches on dtype itself:
   neither has a per-dtype kernel table, so a device row holds this marker (non-NULL: the op runs there).
   Views have a row on every device torch has them on (CPU, CUDA, Meta: they touch no memory);
   conversions on the CPU and on the meta device (the copy engine's shape-only path), not on CUDA, whose
   memory the copy engine would read on the host. */
extern const char ct__op_row_generic[1];
#define CT_VIEW_ROWS \
  .kernels = {[CT_CPU] = ct__op_row_generic, [CT_CUDA] = ct__op_row_generic, [CT_META] = ct__op_row_generic}
#define CT_COPY_ROWS     .kernels = {[CT_CPU] = ct__op_row_generic, [CT_META] = ct__op_row_generic}
#define CT_COPY_ROWS_CPU .kernels = {[CT_CPU] = ct__op_row_generic}

#define CT_LAYOUTS_COMPRESSED                                                                \
  (CT_OP_LAYOUT(CT_SPARSE_CSR) | CT_OP_LAYOUT(CT_SPARSE_CSC) | CT_OP_LAYOUT(CT_SPARSE_BSR) | \
   CT_OP_LAYOUT(CT_SPARSE_BSC))
#define CT_LAYOUTS_STRIDED_COO        (CT_OP_LAYOUT(CT_STRIDED) | CT_OP_LAYOUT(CT_SPARSE_COO))
#define CT_LAYOUTS_STRIDED_COMPRESSED (CT_OP_LAYOUT(CT_STRIDED) | CT_LAYOUTS_COMPRESSED)
#define CT_LAYOUTS_ALL                (CT_LAYOUTS_STRIDED_COO | CT_LAYOUTS_COMPRESSED)

/* What torch 1.13's op does with a sparse tensor whose layout is in its .layouts (its dispatcher runs
   the op's kernel or composite on it). ctorch has no sparse tensors yet, so every case refuses: */
typedef enum ct_sparse_rule {
  /* torch computes it (transpose of a COO tensor, to of a CSR one): refused with ctorch's "not
     implemented yet" (NotImplementedError) until the sparse layouts land and fill it in */
  CT_SPARSE_PENDING = 0,
  /* the composite dispatches aten::as_strided, which has no sparse kernel: the dispatcher's error naming it */
  CT_SPARSE_AS_STRIDED,
  /* the composite reads a compressed tensor's strides: "Sparse CSR tensors do not have strides" */
  CT_SPARSE_NO_STRIDES,
  /* contiguous asks a compressed tensor: "Sparse CSR tensors do not have is_contiguous" */
  CT_SPARSE_NO_IS_CONTIGUOUS,
  /* reshape's own check: "reshape is not implemented for sparse tensors" */
  CT_SPARSE_RESHAPE,
  /* alias reads a COO tensor's storage: "Cannot access storage of SparseTensorImpl" (NotImplementedError) */
  CT_SPARSE_NO_STORAGE,
  /* a read of the data pointer: "Cannot access data pointer of Tensor that doesn't have storage" */
  CT_SPARSE_NO_DATA,
  /* the operator named by the descriptor's .aten has no kernel for the layout: the dispatcher's error
     (item of a CSR tensor: 'aten::_local_scalar_dense' from the 'SparseCsrCPU' backend) */
  CT_SPARSE_DISPATCH
} ct_sparse_rule;

/* A view's or conversion's descriptor: the ct_op, then the rule for a COO tensor and for the compressed
   layouts (CSR, CSC, BSR, BSC), read only for layouts in op.layouts. */
typedef struct ct_view_op {
  ct_op op;
  unsigned char coo, compressed; /* ct_sparse_rule */
} ct_view_op;

/* A descriptor's ct_op: torch's name, the ATen operator its errors name, the layouts torch's dispatcher runs
   the op on (0: strided only), the rows of a view / of a conversion; the sparse rules follow by designator
   (.coo, .compressed; PENDING by default): {CT_VIEW_OP("squeeze", ...), .coo = CT_SPARSE_AS_STRIDED}. */
#define CT_VIEW_OP(NAME, ATEN, LAYOUTS) \
  .op = {.name = (NAME), .aten = (ATEN), .layouts = (LAYOUTS), CT_VIEW_ROWS}
#define CT_COPY_OP(NAME, ATEN, LAYOUTS) \
  .op = {.name = (NAME), .aten = (ATEN), .layouts = (LAYOUTS), CT_COPY_ROWS}
/* The two composites most views are: one that reads the strides (a compressed tensor has none) and then
   dispatches as_strided (no COO kernel): expand, slice, narrow, diagonal, squeeze, split, ...; and one that
   reshapes: reshape's own check refuses COO. */
#define CT_VIEW_OP_AS_STRIDED(NAME, ATEN) \
  CT_VIEW_OP(NAME, ATEN, CT_LAYOUTS_ALL), .coo = CT_SPARSE_AS_STRIDED, .compressed = CT_SPARSE_NO_STRIDES
#define CT_VIEW_OP_RESHAPE(NAME, ATEN) \
  CT_VIEW_OP(NAME, ATEN, CT_LAYOUTS_ALL), .coo = CT_SPARSE_RESHAPE, .compressed = CT_SPARSE_NO_STRIDES

/* Records torch's error (or ctorch's "not implemented yet") for a non-strided t that op's guard let in,
   by op's rule for t's layout. Returns false. */
bool ct__sparse_refuse(const ct_view_op *op, const ct_tensor *t);
/* c10's name of a layout in messages: "Strided", "Sparse", "SparseCsr". */
const char *ct__layout_c10_name(ct_layout layout);

/* The entry guard of a view or conversion: the ct_op guard (named NULL arguments, layout, device), then
   the sparse rule for a non-strided layout the op's dispatcher lets in. */
#define CT__VIEW_ENTER_PTR(VOP, T, ...)                                                   \
  do {                                                                                    \
    CT__OP_ENTER_PTR(&(VOP)->op, T, __VA_ARGS__);                                         \
    if (CT_UNLIKELY((T)->layout != CT_STRIDED)) return (ct__sparse_refuse(VOP, T), NULL); \
  } while (0)
#define CT__VIEW_ENTER_STATUS(VOP, T, ...)                                                           \
  do {                                                                                               \
    CT__OP_ENTER_STATUS(&(VOP)->op, T, __VA_ARGS__);                                                 \
    if (CT_UNLIKELY((T)->layout != CT_STRIDED)) return (ct__sparse_refuse(VOP, T), ct_last_error()); \
  } while (0)

#endif
