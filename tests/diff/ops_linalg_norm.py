"""Entries for include/ctorch/linalg_norm.h (linalg.matrix_norm, linalg.norm, linalg.cond and their out= forms) and
torch.norm's p='nuc' (include/ctorch/reduce.h), against torch 1.13 (conventions: ops_linalg.py's docstring).

Inputs: 2-D to 4-D tensors whose matrix dims are any two (given negative, positive or reversed; the same dim twice,
out of range, one or three dims now and then), batches and matrices of size 0 to 5, the suite's layouts, conjugate
views of complex matrices, every order (numbers, 'fro', 'nuc', the ones torch refuses), keepdim, dtype= (widening,
narrowing, of the other kind, integral), the dtypes torch refuses or computes in low precision, out= of the right
and of a wrong dtype, and for cond well-conditioned, singular (a zero row) and non-square matrices.

The orders computed by reductions alone ('fro', 1, -1, inf, -inf: torch's vector_norm and amax / amin kernels,
reproduced) are compared bit for bit, on values with the suite's specials (NaN, inf, -0.0, 1e30 ...): the `_exact`
entries. The others run LAPACK's gesdd or getrf / getrs and are compared within torch.testing.assert_close's
default tolerances for the dtype (one entry for float32 / complex64, one, `_f64`, for float64 / complex128); cond
of a singular matrix by the 2-norm divides by a singular value that is roundoff, so those entries compare
1 / cond, which is that value over the largest."""
import ctypes

import torch

import ctorch as C
from harness import A, Op, Spec
from ops_linalg import op_maker, DOUBLE, REFUSED, SINGLE, _as_result, _as_torch, _c_in, _call, _keep, _out, _real, _ref, _t_in, \
    _values

L = C.lib
INF = float("inf")
ORD_KIND = {None: 0, "fro": 2, "nuc": 3}  # ct_norm_ord; a number is CT_NORM_P (1) with p
MATRIX_ORDS = ["fro", "nuc", 2, -2, 1, -1, INF, -INF, 2.0, 1.0, -1.0]
EXACT_ORDS = ["fro", 1, -1, INF, -INF, 1.0]
BAD_ORDS = [3, 0, 0.5, -3.5]
VECTOR_ORDS = [None, 2, 1, 0, INF, -INF, 3, 0.5, -1, 2.0]
COND_ORDS = [None, 2, -2, 1, -1, INF, -INF, "fro", "nuc", 1.0, -1.0, 2.0]


class ct_matrix_norm_opts(ctypes.Structure):
    _fields_ = [("ord", ctypes.c_int), ("p", C.ct_scalar), ("dims", C.ct_shape), ("keepdim", ctypes.c_bool),
                ("dtype", ctypes.c_int)]


class ct_linalg_norm_opts(ctypes.Structure):
    _fields_ = ct_matrix_norm_opts._fields_


class ct_linalg_cond_opts(ctypes.Structure):
    _fields_ = [("ord", ctypes.c_int), ("p", C.ct_scalar)]


class ct_norm_opts(ctypes.Structure):
    _fields_ = [("p", C.ct_scalar), ("nuc", ctypes.c_bool), ("dims", C.ct_shape), ("keepdim", ctypes.c_bool),
                ("dtype", ctypes.c_int)]


def _ord_fields(ord):
    if isinstance(ord, str) or ord is None:
        return ORD_KIND[ord], C.ct_scalar()
    return 1, C.ct_scalar.of(ord)


def _dims(dim):
    d = [] if dim is None else ([dim] if isinstance(dim, int) else list(dim))
    arr = (ctypes.c_int64 * max(len(d), 1))(*d)
    _keep.append(arr)
    return C.ct_shape(ctypes.cast(arr, C.c_int64_p), len(d))


def _nopts(cls, ord, dim, keepdim, dtype):
    k, p = _ord_fields(ord)
    return _ref(cls(k, p, _dims(dim), keepdim, C.dtype_arg(dtype)))


def _copts(ord):
    k, p = _ord_fields(ord)
    return _ref(ct_linalg_cond_opts(k, p))


def _fn_out(name, out, *args):
    if out is None:
        return _call(name, *args)
    C.check(L().fn(name + "_out")(out, *args))
    return out


def _kw(**kw):
    return {k: v for k, v in kw.items() if v is not None}


# ---- inputs ----------------------------------------------------------------------------------------------

def _dtype(g, precision, exact):
    if g.chance(0.1):
        return g.choice(REFUSED)  # int and bool refused; half and bfloat16 refused by the SVD orders only
    if exact:
        return g.choice([torch.float32, torch.float64, torch.complex64, torch.complex128])
    return g.choice(SINGLE if precision == "single" else DOUBLE)


def _tensor(g, dt, exact, ndim=None):
    """A 1-D to 4-D tensor of sizes 0 to 5 (mostly nonempty), its values random (exact: with the suite's
    specials) or from randn, and whether it is read through a conjugate view."""
    ndim = ndim if ndim is not None else g.choice([1, 2, 2, 2, 3, 3, 4])
    shape = tuple(g.int(0, 5) if g.chance(0.1) else g.int(1, 5) for _ in range(ndim))
    base = None if exact else _values(g, shape, dt, "rect")
    conj = dt.is_complex and g.chance(0.25)
    return Spec(shape, dt, g.layout(), base=base), conj


def _pair(g, ndim):
    """Two matrix dims of an ndim tensor: negative or positive, in either order; now and then the same dim
    twice, one out of range, or one or three dims."""
    n = max(ndim, 1)
    r = g.random()
    if r < 0.05:
        return (g.int(-n, n - 1),)
    if r < 0.08:
        return (0, 1, -1)
    a, b = g.int(0, n - 1), g.int(0, n - 1)
    while b == a and n > 1 and not g.chance(0.05):
        b = g.int(0, n - 1)
    if g.chance(0.03):
        b = n  # out of range
    a = a - n if g.chance(0.5) else a
    b = b - n if g.chance(0.5) and b < n else b
    return (a, b)


def _dtype_opt(g, src):
    if not g.chance(0.25):
        return None
    if g.chance(0.7):  # widening
        return torch.complex128 if src.is_complex else torch.float64
    return g.choice([torch.float32, torch.complex64, torch.float16, torch.int64, torch.bfloat16])


def gen_matrix_norm(precision, exact=False, out=False):
    def gen(g):
        x, conj = _tensor(g, _dtype(g, precision, exact), exact, ndim=g.choice([2, 2, 3, 3, 4]) if g.chance(0.94)
                          else 1)
        ord = g.choice(EXACT_ORDS if exact else MATRIX_ORDS)
        if g.chance(0.04):
            ord = g.choice(BAD_ORDS)
        if g.chance(0.15) and not exact:
            ord = g.choice(EXACT_ORDS)
        dim = None if g.chance(0.3) else _pair(g, len(x.shape))
        a = A(x, conj, ord, dim, g.chance(0.4), _dtype_opt(g, x.dtype))
        if out:
            a.kw["out"] = _out(g, _real(a.args[5] or x.dtype), x.shape[:-2])
        return a
    return gen


def gen_linalg_norm(precision, exact=False, out=False):
    def gen(g):
        x, conj = _tensor(g, _dtype(g, precision, exact), exact)
        nd = len(x.shape)
        r = g.random()
        if r < 0.3:
            ord, dim = None, g.choice([None, None, (g.int(-nd, nd - 1),), _pair(g, nd)])
        elif r < 0.55:
            ord, dim = g.choice(VECTOR_ORDS[1:]), g.choice([None, (g.int(-nd, nd - 1),), g.int(-nd, nd - 1)])
        else:
            ord = g.choice(EXACT_ORDS if exact else MATRIX_ORDS)
            dim = g.choice([None, None, _pair(g, nd)])
        if g.chance(0.04):
            dim = (0, 1, 2)  # (torch's dim=() is not expressible: ctorch's empty dims are None)
        a = A(x, conj, ord, dim, g.chance(0.4), _dtype_opt(g, x.dtype))
        if out:
            a.kw["out"] = _out(g, _real(a.args[5] or x.dtype), x.shape[:1])
        return a
    return gen


def _lnorm_torch(x, cj, ord, dim, keepdim, dtype, out=None):
    return torch.linalg.norm(_t_in(x, cj), ord, dim, keepdim, **_kw(dtype=dtype, out=out))


def _lnorm_ct(x, cj, ord, dim, keepdim, dtype, out=None):
    return _fn_out("ct_linalg_norm", out, _c_in(x, cj), _nopts(ct_linalg_norm_opts, ord, dim, keepdim, dtype))


def _mnorm_torch(x, cj, ord, dim, keepdim, dtype, out=None):
    kw = _kw(dtype=dtype, out=out)
    if dim is not None:
        kw["dim"] = dim
    if ord is not None:
        kw["ord"] = ord
    return torch.linalg.matrix_norm(_t_in(x, cj), keepdim=keepdim, **kw)


def _mnorm_ct(x, cj, ord, dim, keepdim, dtype, out=None):
    return _fn_out("ct_linalg_matrix_norm", out, _c_in(x, cj), _nopts(ct_matrix_norm_opts, ord, dim, keepdim, dtype))


# ---- cond ------------------------------------------------------------------------------------------------

def gen_cond(precision, out=False, singular=False):
    def gen(g):
        dt = _dtype(g, precision, False)
        ba = tuple(g.int(0, 3) if g.chance(0.1) else g.int(1, 3) for _ in range(g.int(0, 2)))
        n = g.int(0, 5) if g.chance(0.15) else g.int(1, 5)
        rows = n if g.chance(0.85) else g.int(0, 5)
        shape = ba + (rows, n)
        if g.chance(0.04):
            shape = g.choice([(n,), ()])
        kind = "singular" if singular else g.choice(["good", "good", "rect"])
        # now and then the suite's specials (NaN, inf, 1e30): gesdd's refusal of a NaN, inf in the inverse
        x = Spec(shape, dt, g.layout(), base=None if g.chance(0.08) else _values(g, shape, dt, kind))
        conj = dt.is_complex and g.chance(0.25)
        ord = g.choice(COND_ORDS) if g.chance(0.96) else g.choice(BAD_ORDS)
        if singular and ord in (None, 2, -2, 2.0):
            ord = g.choice([1, -1, INF, -INF, "fro", "nuc"])
        a = A(x, conj, ord)
        if out:
            a.kw["out"] = _out(g, _real(dt), shape[:-2])
        return a
    return gen


def gen_cond_svd_singular(precision):
    """2 / -2 / None of singular matrices: compared as 1 / cond (roundoff over the largest singular value)."""
    def gen(g):
        dt = g.choice(SINGLE if precision == "single" else DOUBLE)
        n = g.int(1, 5)
        shape = tuple(g.int(1, 3) for _ in range(g.int(0, 2))) + (n, n)
        return A(Spec(shape, dt, g.layout(), base=_values(g, shape, dt, "singular")), dt.is_complex and g.chance(0.25),
                 g.choice([None, 2, -2]))
    return gen


def _cond_torch(x, cj, ord, out=None):
    return torch.linalg.cond(_t_in(x, cj), ord, **_kw(out=out))


def _cond_ct(x, cj, ord, out=None):
    return _fn_out("ct_linalg_cond", out, _c_in(x, cj), _copts(ord))


def _recip(r):
    """1 / cond, flattened (the bridge makes no 0-dim tensor from torch's), in the result's dtype and library."""
    return _as_result((1 / _as_torch(r)).reshape(-1), r)


# ---- torch.norm(p='nuc') ---------------------------------------------------------------------------------

def gen_norm_nuc(precision, out=False):
    def gen(g):
        x, conj = _tensor(g, _dtype(g, precision, False), False, ndim=g.choice([1, 2, 2, 2, 3, 4]))
        dim = None if g.chance(0.4) else _pair(g, len(x.shape))
        a = A(x, conj, dim, g.chance(0.4))
        if g.chance(0.03):
            a.kw["dtype"] = torch.float64  # refused: "dtype argument is not supported in nuclear norm"
        if out:
            a.kw["out"] = _out(g, _real(x.dtype), x.shape[:-2])
        return a
    return gen


def _nuc_torch(x, cj, dim, keepdim, dtype=None, out=None):
    return torch.norm(_t_in(x, cj), "nuc", dim, keepdim, **_kw(dtype=dtype, out=out))


def _nuc_ct(x, cj, dim, keepdim, dtype=None, out=None):
    o = _ref(ct_norm_opts(C.ct_scalar(), True, _dims(dim), keepdim, C.dtype_arg(dtype)))
    if out is None:
        return _call("ct_norm", _c_in(x, cj), o)
    C.check(L().ct_norm_out(out, _c_in(x, cj), o))
    return out


def _ops(p):
    op = op_maker(p)

    return [
        op("linalg_matrix_norm", gen_matrix_norm(p), _mnorm_torch, _mnorm_ct, weight=2),
        op("linalg_matrix_norm_out", gen_matrix_norm(p, out=True), _mnorm_torch, _mnorm_ct),
        op("linalg_norm", gen_linalg_norm(p), _lnorm_torch, _lnorm_ct, weight=2),
        op("linalg_norm_out", gen_linalg_norm(p, out=True), _lnorm_torch, _lnorm_ct),
        op("linalg_cond", gen_cond(p), _cond_torch, _cond_ct, weight=2),
        op("linalg_cond_singular", gen_cond(p, singular=True), _cond_torch, _cond_ct),
        op("linalg_cond_svd_singular", gen_cond_svd_singular(p), lambda *a: _recip(_cond_torch(*a)),
           lambda *a: _recip(_cond_ct(*a))),
        op("linalg_cond_out", gen_cond(p, out=True), _cond_torch, _cond_ct),
        op("norm_nuc", gen_norm_nuc(p), _nuc_torch, _nuc_ct),
        op("norm_nuc_out", gen_norm_nuc(p, out=True), _nuc_torch, _nuc_ct),
    ]


OPS = _ops("single") + _ops("double") + [
    Op("linalg_matrix_norm_exact", gen_matrix_norm("single", exact=True), _mnorm_torch, _mnorm_ct, weight=2),
    Op("linalg_matrix_norm_out_exact", gen_matrix_norm("single", exact=True, out=True), _mnorm_torch, _mnorm_ct),
    Op("linalg_norm_exact", gen_linalg_norm("single", exact=True), _lnorm_torch, _lnorm_ct, weight=2),
]
