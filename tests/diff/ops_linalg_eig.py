"""Entries for include/ctorch/linalg_eig.h against torch 1.13 (conventions: ops_linalg.py's docstring):
linalg.eig / eigvals, matrix_power (linalg and legacy), matrix_exp (linalg and legacy), tensorinv, tensorsolve,
linalg.diagonal, their out= forms.

eig's eigenvectors are unique only up to a phase (and torch's LAPACK is not ctorch's OpenBLAS one): both sides
are compared through the eigenvalues sorted by (real, imag), the reconstruction A V = V diag(w), unit column norms,
each vector's projector v v^H in the sorted order (phase-free, so no phase normalisation can pick a different
entry in the two libraries) and the raw results' geometry. matrix_power's
products are torch's kernels', so its float results are compared bit for bit."""
import ctypes

import torch

import ctorch as C
from harness import A, Op, Spec
from ops_linalg import (op_maker, DOUBLE, REFUSED, SINGLE, _as_result, _as_torch, _c_in, _call, _geom, _matrix,
                        _out, _outs, _ref, _results, _t_in, _values)

L = C.lib


class ct_linalg_tensorinv_opts(ctypes.Structure):
    _fields_ = [("has_ind", ctypes.c_bool), ("ind", ctypes.c_int64)]


class ct_linalg_tensorsolve_opts(ctypes.Structure):
    _fields_ = [("dims", C.ct_shape)]


class ct_linalg_diagonal_opts(ctypes.Structure):
    _fields_ = [("offset", ctypes.c_int64), ("has_dims", ctypes.c_bool), ("dim1", ctypes.c_int64),
                ("dim2", ctypes.c_int64)]


def _dims(dims):
    arr = (ctypes.c_int64 * max(1, len(dims)))(*dims)
    C_keep.append(arr)
    return C.ct_shape(ctypes.cast(arr, ctypes.POINTER(ctypes.c_int64)), len(dims))


C_keep = []


# ---- eig ---------------------------------------------------------------------------------------------------

def _eig_unique(a, w, V):
    """(eigenvalues sorted, geometries, A V = V diag(w), unit columns, vectors in that order phase-normalised
    equal to the reference's within 1e-3: returned as values for the comparison)."""
    wt, at = _as_torch(w), _as_torch(a).to(torch.complex128)
    order = None
    if wt.numel():
        # lexicographic (real, imag): argsort on imag, then a stable sort on real
        o1 = torch.argsort(wt.imag, dim=-1, stable=True)
        o2 = torch.argsort(torch.gather(wt.real, -1, o1), dim=-1, stable=True)
        order = torch.gather(o1, -1, o2)
    ws = torch.gather(wt, -1, order) if wt.numel() else wt
    res = [_as_result(ws, w), _geom(w)]
    if V is not None:
        v = _as_torch(V)
        tol = dict(rtol=1e-3, atol=1e-3)
        rec = torch.allclose(at @ v, v * wt.unsqueeze(-2), **tol) if v.numel() else True
        norms = torch.allclose(v.abs().pow(2).sum(-2), torch.ones(v.shape[:-2] + v.shape[-1:], dtype=torch.float64),
                               **tol) if v.numel() else True
        vs = torch.gather(v, -1, order.unsqueeze(-2).expand_as(v)) if v.numel() else v
        # each eigenvector's projector v v^H: what is unique about it, whatever its phase
        proj = torch.einsum("...ij,...kj->...jik", vs, vs.conj())
        res += [_geom(V), rec, norms, _as_result(proj, V)]
    return tuple(res)


def gen_eig(precision, out=0, nan=True):
    """nan: now and then a NaN in A (eig's isfinite check; eigvals has none: torch 1.13 hands the NaN to LAPACK,
    whose argument check fails inside torch with an internal assert)."""
    def gen(g):
        x, conj = _matrix(g, precision, g.choice(["good", "good", "rect"]))
        if nan and g.chance(0.03) and len(x.shape) >= 2 and x.dtype.is_floating_point:
            base = _values(g, x.shape, x.dtype, "good")
            if base.numel():
                base.view(-1)[0] = float("nan")
            x = Spec(x.shape, x.dtype, x.layout, base=base)
        a = A(x, conj)
        cdt = torch.complex128 if x.dtype in (torch.float64, torch.complex128) else torch.complex64
        if out == 1:
            a.kw["out"] = _out(g, cdt, x.shape[:-1])
        elif out == 2:
            a.kw["out"] = (_out(g, cdt, x.shape[:-1]), _out(g, cdt, x.shape))
        return a
    return gen


def _t_eig(x, conj, out=None):
    a = _t_in(x, conj)
    w, V = torch.linalg.eig(a, out=out)
    return _eig_final(_eig_unique(a, w, V))


def _c_eig(x, conj, out=None):
    a = _c_in(x, conj)
    if out is None:
        w, V = _results("ct_linalg_eig", 2, a)
    else:
        w, V = _outs("ct_linalg_eig_out", out, a)
    return _eig_final(_eig_unique(a, w, V))


def _eig_final(u):
    return u


def _t_eigvals(x, conj, out=None):
    a = _t_in(x, conj)
    return _eig_unique(a, torch.linalg.eigvals(a, out=out), None)


def _c_eigvals(x, conj, out=None):
    a = _c_in(x, conj)
    w = _call("ct_linalg_eigvals", a) if out is None else _outs("ct_linalg_eigvals_out", [out], a)
    return _eig_unique(a, w, None)


# ---- matrix_power, matrix_exp ----------------------------------------------------------------------------------

POWER_DTYPES = {"single": [torch.float32, torch.complex64, torch.int64, torch.int32, torch.uint8, torch.bool,
                           torch.float16, torch.bfloat16],
                "double": [torch.float64, torch.complex128]}


def gen_power(precision, out=False):
    def gen(g):
        dt = g.choice(POWER_DTYPES[precision]) if g.chance(0.3) else g.choice(POWER_DTYPES[precision][:2])
        n = g.choice([0, 1, 2, 3, 4, 5, 6, 7, 8, 11, -1, -2, -3, -5])
        if dt.is_floating_point or dt.is_complex:
            if dt in (torch.float16, torch.bfloat16):
                n = abs(n)
            x, conj = _matrix(g, precision, g.choice(["good", "good", "singular"]), dt=dt)
        else:
            x, conj = _matrix(g, precision, "good", dt=dt)
        a = A(x, conj, n)
        if out:
            o = _out(g, x.dtype, x.shape)
            m = abs(n)
            if (o.dtype != x.dtype and torch.can_cast(x.dtype, o.dtype) and not (m in (0, 1) or (m >= 4 and m & (m - 1) == 0))) \
                    or (x.dtype == torch.bfloat16 and n == 0):
                # torch resizes out before matmul_out refuses the dtype (or eye the bfloat16): keep the shape so
                # that nothing changes
                o = Spec(x.shape, o.dtype, o.layout)
            a.kw["out"] = o
        return a
    return gen


def gen_exp(precision):
    def gen(g):
        dt = _tdtype(g, precision)
        x, conj = _matrix(g, precision, "rect", square=not g.chance(0.03), dt=dt)
        # norms spread over every degree's interval and the scaling range
        scale = g.choice([1e-9, 1e-6, 1e-4, 1e-3, 1e-2, 0.05, 0.1, 0.3, 0.5, 1.0, 2.0, 5.0])
        if x.dtype.is_floating_point or x.dtype.is_complex:
            base = _values(g, x.shape, x.dtype, "rect") * scale
            x = Spec(x.shape, x.dtype, x.layout, base=base.to(x.dtype))
        return A(x, conj)
    return gen


# ---- tensorinv, tensorsolve, diagonal --------------------------------------------------------------------------

def _tdtype(g, precision):
    if g.chance(0.06):
        return g.choice(REFUSED)
    return g.choice(SINGLE if precision == "single" else DOUBLE)


def gen_tensorinv(precision, out=False):
    def gen(g):
        dt = _tdtype(g, precision)
        split = g.choice([(2, 2), (4,), (2, 3), (6,), (1,), (0,), (3, 1)])
        ind = g.int(1, 2) if g.chance(0.95) else g.choice([0, 5])
        if ind == 1 or len(split) != 2:
            shape = (int(torch.tensor(split).prod()),) + split if ind == 1 else split + split
        else:
            shape = split + split
        if g.chance(0.05):
            shape = shape[:-1] + (shape[-1] + 1,)
        n = int(torch.tensor(shape[:ind]).prod()) if shape[:ind] else 1
        kind = "singular" if g.chance(0.15) else "good"
        base = _values(g, (n, n), dt, kind) if n * n == int(torch.tensor(shape).prod()) else \
            _values(g, shape, dt, "rect")
        x = Spec(shape, dt, g.layout(), base=base.reshape(shape))
        a = A(x, ind if ind != 2 or g.chance(0.5) else None)
        if out:
            a.kw["out"] = _out(g, dt, shape[ind:] + shape[:ind])
        return a
    return gen


def _iopts(ind):
    return None if ind is None else _ref(ct_linalg_tensorinv_opts(True, ind))


def gen_tensorsolve(precision, out=False):
    def gen(g):
        dt = _tdtype(g, precision)
        bshape = g.choice([(4,), (2, 2), (6,), (2, 3), (0,), (1,)])
        xshape = g.choice([(4,), (2, 2), (6,), (3, 2), (0,), (1,)])
        n = int(torch.tensor(bshape).prod())
        if int(torch.tensor(xshape).prod()) != n and g.chance(0.9):
            xshape = bshape
        shape = bshape + xshape
        kind = "singular" if g.chance(0.1) else "good"
        m = int(torch.tensor(xshape).prod())
        base = _values(g, (n, m), dt, kind if n == m else "rect").reshape(shape)
        dims = None
        if g.chance(0.3) and len(shape) >= 2:
            # the tensor stored with some dims moved first, so that dims moves them back
            k = g.int(1, len(xshape))
            src = list(range(len(shape) - k, len(shape)))
            dims = list(range(k)) if g.chance(0.95) else [len(shape) + 3]
            moved = base.movedim(src, list(range(k)))
            # a fresh contiguous tensor: .contiguous() keeps a size-1 dim's stride, which ctorch builds as 1
            base = torch.empty(moved.shape, dtype=moved.dtype).copy_(moved)
            shape = tuple(base.shape)
        x = Spec(shape, dt, g.layout(), base=base)
        bdt = dt if g.chance(0.95) else torch.float64
        b = Spec(bshape, bdt, g.layout(), base=_values(g, bshape, bdt, "rect"))
        a = A(x, b, dims)
        if out:
            a.kw["out"] = _out(g, dt, xshape)
        return a
    return gen


def _sopts(dims):
    return None if dims is None else _ref(ct_linalg_tensorsolve_opts(_dims(dims)))


def gen_diagonal(g):
    x = g.tensor(shape=g.choice([(3, 4), (2, 3, 4), (5,), (2, 2, 2, 3), (0, 3), (4, 4)]))
    offset = g.int(-4, 4) if g.chance(0.6) else 0
    if g.chance(0.5):
        nd = len(x.shape)
        d1, d2 = g.int(-nd - 1, nd), g.int(-nd - 1, nd)
        return A(x, offset, (d1, d2))
    return A(x, offset, None)


def _dopts(offset, dims):
    if dims is None:
        return _ref(ct_linalg_diagonal_opts(offset, False, 0, 0))
    return _ref(ct_linalg_diagonal_opts(offset, True, dims[0], dims[1]))


def _t_diag(x, offset, dims):
    kw = {} if dims is None else {"dim1": dims[0], "dim2": dims[1]}
    return torch.linalg.diagonal(x, offset=offset, **kw)


# compared bit for bit: the products are matmul's kernels, matrix_exp's sums torch's fused multiply-adds
EXACT = {"linalg_matrix_power", "matrix_power", "linalg_matrix_power_out", "matrix_power_out", "linalg_matrix_exp",
         "matrix_exp"}


def _ops(p):
    op = op_maker(p, EXACT)

    ops = [
        op("linalg_eig", gen_eig(p), _t_eig, _c_eig, weight=2),
        op("linalg_eig_out", gen_eig(p, 2), _t_eig, _c_eig),
        op("linalg_eigvals", gen_eig(p, nan=False), _t_eigvals, _c_eigvals),
        op("linalg_eigvals_out", gen_eig(p, 1, nan=False), _t_eigvals, _c_eigvals),
        op("linalg_matrix_power", gen_power(p), lambda x, cj, n: torch.linalg.matrix_power(_t_in(x, cj), n),
           lambda x, cj, n: _call("ct_linalg_matrix_power", _c_in(x, cj), n)),
        op("matrix_power", gen_power(p), lambda x, cj, n: torch.matrix_power(_t_in(x, cj), n),
           lambda x, cj, n: _call("ct_matrix_power", _c_in(x, cj), n)),
        op("linalg_matrix_power_out", gen_power(p, True),
           lambda x, cj, n, out: torch.linalg.matrix_power(_t_in(x, cj), n, out=out),
           lambda x, cj, n, out: _outs("ct_linalg_matrix_power_out", [out], _c_in(x, cj), n)),
        op("matrix_power_out", gen_power(p, True),
           lambda x, cj, n, out: torch.matrix_power(_t_in(x, cj), n, out=out),
           lambda x, cj, n, out: _outs("ct_matrix_power_out", [out], _c_in(x, cj), n)),
        op("linalg_matrix_exp", gen_exp(p), lambda x, cj: torch.linalg.matrix_exp(_t_in(x, cj)),
           lambda x, cj: _call("ct_linalg_matrix_exp", _c_in(x, cj)), weight=2),
        op("matrix_exp", gen_exp(p), lambda x, cj: torch.matrix_exp(_t_in(x, cj)),
           lambda x, cj: _call("ct_matrix_exp", _c_in(x, cj))),
        op("linalg_tensorinv", gen_tensorinv(p),
           lambda x, ind: torch.linalg.tensorinv(x, **({} if ind is None else {"ind": ind})),
           lambda x, ind: _call("ct_linalg_tensorinv", x, _iopts(ind))),
        op("linalg_tensorinv_out", gen_tensorinv(p, True),
           lambda x, ind, out: torch.linalg.tensorinv(x, **({} if ind is None else {"ind": ind}), out=out),
           lambda x, ind, out: _outs("ct_linalg_tensorinv_out", [out], x, _iopts(ind))),
        op("linalg_tensorsolve", gen_tensorsolve(p), lambda x, b, dims: torch.linalg.tensorsolve(x, b, dims=dims),
           lambda x, b, dims: _call("ct_linalg_tensorsolve", x, b, _sopts(dims))),
        op("linalg_tensorsolve_out", gen_tensorsolve(p, True),
           lambda x, b, dims, out: torch.linalg.tensorsolve(x, b, dims=dims, out=out),
           lambda x, b, dims, out: _outs("ct_linalg_tensorsolve_out", [out], x, b, _sopts(dims))),
    ]
    return ops


OPS = _ops("single") + _ops("double") + [
    Op("linalg_diagonal", gen_diagonal, torch=_t_diag,
       ct=lambda x, offset, dims: _call("ct_linalg_diagonal", x, _dopts(offset, dims))),
]
