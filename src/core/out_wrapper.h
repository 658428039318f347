/* torch/_prims_common/wrappers.py's out_wrapper: how torch 1.13 gives a result to out= where the op's kernel
   is a Python function (a reference in torch/_refs or a meta function in torch/_meta_registrations.py, which
   the meta device runs for the pointwise ops abs, logical_*, floor_divide, ..., for diag, nansum, ...). */
#ifndef CTORCH_CORE_OUT_WRAPPER_H
#define CTORCH_CORE_OUT_WRAPPER_H

#include "core/internal.h"

/* r (computed new) into out: _maybe_resize_out (out resized to r's shape unless it holds r's element count
   and is not empty; on meta the resize stays when an error follows, an out with data is checked first and
   left as it was), then _safe_copy_out (the copy's device check,
   the safe-cast check by dtype category, the copy; a meta out copies nothing and checks no shape). */
ct_status ct__out_wrapper_copy(ct_tensor *out, const ct_tensor *r);

/* The out= checks of a structured op's generated wrapper (resize_out), made before out is resized: out's dtype must
   be dtype ("Expected out tensor to have dtype float, but got double instead", TypeMeta names; CT_DTYPE_UNSET: not
   checked), then its device the one the op's meta function gives its result, the device of the tensor whose
   options it passes ("Expected out tensor to have device cpu, but got meta instead"). A call with a meta argument
   runs the meta function: a CPU out whose device matches is resized and left unwritten. */
bool ct__resize_out_ok(const ct_tensor *out, ct_dtype dtype, ct_device device);
/* check_inplace's device rule for a structured op's in-place form: self on that device ("Bad in-place call: input
   tensor device cpu and output tensor device meta should match"); its dtype and size rules are the callers'. */
bool ct__inplace_device_ok(const ct_tensor *self, ct_device device);

/* torch/_prims_common's compute_elementwise_output_strides, the layout of a prim's result (prims.where, div,
   convert_element_type, ...): ts broadcast to (ndim, shape) as torch/_refs' _maybe_broadcast expands them, the
   CPU 0-dim tensors (Python numbers) left out; the dims ordered by Python's sorted(reverse=True) over its
   comparison of strides (timsort's steps for a short list, which decide the order where that comparison is
   not a total order), then contiguous strides in that order. */
void ct__prims_elementwise_strides(const ct_tensor *const *ts, int n, int64_t ndim, const int64_t *shape,
                                   int64_t *strides);

/* The same for one tensor given by its geometry (ndim, shape, in_strides; a result torch/_refs makes and lays out
   again: convert_element_type or a unary prim of a broadcast_in_dim); strides may be in_strides. */
void ct__prims_elementwise_strides_of(int64_t ndim, const int64_t *shape, const int64_t *in_strides,
                                      int64_t *strides);

#endif
