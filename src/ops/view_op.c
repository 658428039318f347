/* The sparse rules of the views' and conversions' descriptors: torch 1.13's words for a sparse tensor that
   its dispatcher lets into the op, and ctorch's refusal where torch computes what ctorch cannot hold yet. */
#include "ops/view_op.h"

const char ct__op_row_generic[1];

const char *ct__layout_c10_name(ct_layout layout) {
  static const char *const names[] = {"Strided",   "Strided",   "Sparse",    "SparseCsr",
                                      "SparseCsc", "SparseBsr", "SparseBsc", "Jagged"};
  return (unsigned)layout < sizeof names / sizeof names[0] ? names[layout] : "Invalid";
}

/* "CSR" of SparseCsrTensorImpl's messages ("Sparse CSR tensors do not have strides"). */
static const char *compressed_word(ct_layout layout) {
  switch (layout) {
    case CT_SPARSE_CSC: return "CSC";
    case CT_SPARSE_BSR: return "BSR";
    case CT_SPARSE_BSC: return "BSC";
    default: return "CSR";
  }
}

bool ct__sparse_refuse(const ct_view_op *op, const ct_tensor *t) {
  ct_layout layout = (ct_layout)t->layout;
  switch ((ct_sparse_rule)(layout == CT_SPARSE_COO ? op->coo : op->compressed)) {
    case CT_SPARSE_AS_STRIDED: return ct__op_refuse(&op->op, t, "aten::as_strided");
    case CT_SPARSE_DISPATCH: return ct__op_refuse(&op->op, t, NULL);
    case CT_SPARSE_NO_STRIDES:
      ct__error(CT_ERR_RUNTIME, "Sparse %s tensors do not have strides", compressed_word(layout));
      return false;
    case CT_SPARSE_NO_IS_CONTIGUOUS:
      ct__error(CT_ERR_RUNTIME, "Sparse %s tensors do not have is_contiguous", compressed_word(layout));
      return false;
    case CT_SPARSE_RESHAPE:
      ct__error(CT_ERR_RUNTIME, "reshape is not implemented for sparse tensors");
      return false;
    case CT_SPARSE_NO_STORAGE:
      ct__error(CT_ERR_NOT_IMPLEMENTED, "Cannot access storage of SparseTensorImpl");
      return false;
    case CT_SPARSE_NO_DATA:
      ct__error(CT_ERR_RUNTIME, "Cannot access data pointer of Tensor that doesn't have storage");
      return false;
    case CT_SPARSE_PENDING: break;
  }
  ct__error(CT_ERR_NOT_IMPLEMENTED,
            "%s: tensors of layout %s are not implemented in ctorch yet (torch computes it)", op->op.name,
            ct_layout_name(layout));
  return false;
}
