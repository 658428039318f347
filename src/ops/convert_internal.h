/* The conversions' _impls (src/ops/convert_*.c, copy_tensor.c): what a public conversion does after its
   entry guard. Internal callers (composites, other conversions, printing) call these, never the public
   functions, so that autograd will record one node per public call. As the reductions' _impls, results are
   scope-registered as the public function's are. */
#ifndef CTORCH_OPS_CONVERT_INTERNAL_H
#define CTORCH_OPS_CONVERT_INTERNAL_H

#include "core/internal.h"

ct_tensor *ct__to_impl(const ct_tensor *t, const ct_to_opts *opts);
ct_tensor *ct__to_dtype_impl(const ct_tensor *t, ct_dtype dtype);
ct_tensor *ct__clone_impl(const ct_tensor *t, ct_memory_format fmt);
ct_tensor *ct__contiguous_impl(const ct_tensor *t, ct_memory_format fmt);
ct_status ct__copy_impl(ct_tensor *self, const ct_tensor *src);
ct_status ct__fill_impl(ct_tensor *self, ct_scalar value);
/* item of a tensor the caller checked (out not NULL). */
ct_status ct__item_impl(const ct_tensor *t, ct_scalar *out);

#endif
