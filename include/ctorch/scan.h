/* Scans along one dim: cumsum, cumprod, logcumsumexp, cummax and cummin, with torch 1.13's dtypes,
   layouts, edge cases and messages. Results are new contiguous tensors of the input's shape; out=
   tensors of another shape are resized (contiguous) as PyTorch resizes them; a failed call leaves its
   out= targets unchanged. dim may be negative. */
#ifndef CTORCH_SCAN_H
#define CTORCH_SCAN_H

#include "args.h"
#include "error.h"
#include "types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The dtype keyword of cumsum/cumprod. UNSET: integer and bool inputs accumulate and return int64,
   others keep their dtype (the _out form: out's dtype; the in-place form: self's). */
typedef struct ct_scan_opts {
  ct_dtype dtype;
} ct_scan_opts;

CT_API ct_tensor *ct_cumsum(const ct_tensor *t, int64_t dim, const ct_scan_opts *opts);
CT_API ct_status ct_cumsum_(ct_tensor *self, int64_t dim, const ct_scan_opts *opts);
CT_API ct_status ct_cumsum_out(ct_tensor *out, const ct_tensor *t, int64_t dim, const ct_scan_opts *opts);
CT_API ct_tensor *ct_cumprod(const ct_tensor *t, int64_t dim, const ct_scan_opts *opts);
CT_API ct_status ct_cumprod_(ct_tensor *self, int64_t dim, const ct_scan_opts *opts);
CT_API ct_status ct_cumprod_out(ct_tensor *out, const ct_tensor *t, int64_t dim, const ct_scan_opts *opts);

/* torch.logcumsumexp (floating dtypes; no in-place form, as in PyTorch). */
CT_API ct_tensor *ct_logcumsumexp(const ct_tensor *t, int64_t dim);
CT_API ct_status ct_logcumsumexp_out(ct_tensor *out, const ct_tensor *t, int64_t dim);

/* torch.cummax / torch.cummin: the running extreme and the index (int64) where it was found. Ties and
   NaNs as PyTorch: an equal value moves the index to the later position, a NaN wins and stays.
   values / indices receive new references (NULL on failure); either pointer may be NULL when that
   result is not wanted. */
CT_API ct_status ct_cummax(const ct_tensor *t, int64_t dim, ct_tensor **values, ct_tensor **indices);
CT_API ct_status ct_cummax_out(ct_tensor *values, ct_tensor *indices, const ct_tensor *t, int64_t dim);
CT_API ct_status ct_cummin(const ct_tensor *t, int64_t dim, ct_tensor **values, ct_tensor **indices);
CT_API ct_status ct_cummin_out(ct_tensor *values, ct_tensor *indices, const ct_tensor *t, int64_t dim);

/* C: each function above is also a macro of its name that checks its arguments (args.h). */
#if !defined(__cplusplus) && !defined(CT_BUILDING_LIBRARY)
#define ct_cumsum(...) CT__CHECKED(3, CT__CK_ct_cumsum, ct_cumsum, __VA_ARGS__)
#define CT__CK_ct_cumsum(t, a, o) ct_cumsum(CT__T(t), a, CT__OPTS(ct_scan_opts, o))
#define ct_cumsum_(...) CT__CHECKED(3, CT__CK_ct_cumsum_, ct_cumsum_, __VA_ARGS__)
#define CT__CK_ct_cumsum_(self, a, o) ct_cumsum_(CT__TM(self), a, CT__OPTS(ct_scan_opts, o))
#define ct_cumsum_out(...) CT__CHECKED(4, CT__CK_ct_cumsum_out, ct_cumsum_out, __VA_ARGS__)
#define CT__CK_ct_cumsum_out(out, t, a, o) ct_cumsum_out(CT__TM(out), CT__T(t), a, CT__OPTS(ct_scan_opts, o))
#define ct_cumprod(...) CT__CHECKED(3, CT__CK_ct_cumprod, ct_cumprod, __VA_ARGS__)
#define CT__CK_ct_cumprod(t, a, o) ct_cumprod(CT__T(t), a, CT__OPTS(ct_scan_opts, o))
#define ct_cumprod_(...) CT__CHECKED(3, CT__CK_ct_cumprod_, ct_cumprod_, __VA_ARGS__)
#define CT__CK_ct_cumprod_(self, a, o) ct_cumprod_(CT__TM(self), a, CT__OPTS(ct_scan_opts, o))
#define ct_cumprod_out(...) CT__CHECKED(4, CT__CK_ct_cumprod_out, ct_cumprod_out, __VA_ARGS__)
#define CT__CK_ct_cumprod_out(out, t, a, o) \
  ct_cumprod_out(CT__TM(out), CT__T(t), a, CT__OPTS(ct_scan_opts, o))
#define ct_logcumsumexp(t, a) ct_logcumsumexp(CT__T(t), a)
#define ct_logcumsumexp_out(out, t, a) ct_logcumsumexp_out(CT__TM(out), CT__T(t), a)
#define ct_cummax(t, a, res, res2) ct_cummax(CT__T(t), a, CT__TP(res), CT__TP(res2))
#define ct_cummax_out(out, out2, t, a) ct_cummax_out(CT__TM(out), CT__TM(out2), CT__T(t), a)
#define ct_cummin(t, a, res, res2) ct_cummin(CT__T(t), a, CT__TP(res), CT__TP(res2))
#define ct_cummin_out(out, out2, t, a) ct_cummin_out(CT__TM(out), CT__TM(out2), CT__T(t), a)
#endif

#ifdef __cplusplus
}
#endif
#endif
