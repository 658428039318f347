"""Entries for include/ctorch/linalg_lu.h against torch 1.13 (conventions: ops_linalg.py's docstring): lu_factor /
lu_factor_ex / the legacy lu, linalg.lu, lu_unpack, linalg.lu_solve / the legacy lu_solve, triangular_solve,
linalg.solve_triangular, cholesky_solve, cholesky_inverse and their out= forms.

Inputs: batches of 0 to 2 dims (broadcast against the other operand's where torch broadcasts, batch 0 included),
matrices of 0 to 5 rows (0 x n, non-square where allowed), the suite's layouts, conjugate views of complex
matrices, singular matrices (a zero row: U[i, i] = 0; a zero on a triangular or Cholesky factor's diagonal),
pivot=False, refused dtypes, wrong pivots, wrong out= dtypes and shapes. LU, P, L and U are unique given the
pivoting (the same getrf on the same column-major copy), so they are compared directly, within
torch.testing.assert_close's default tolerances, as every solution here; pivots and infos exactly."""
import ctypes

import torch

import ctorch as C
from harness import A, Spec
from ops_linalg import op_maker, DOUBLE, REFUSED, SINGLE, _batch, _c_in, _call, _matrix, _out, _outs, _ref, _results, \
    _t_in, _values

L = C.lib


class ct_linalg_lu_opts(ctypes.Structure):
    _fields_ = [("no_pivot", ctypes.c_bool), ("check_errors", ctypes.c_bool)]


class ct_lu_opts(ctypes.Structure):
    _fields_ = [("no_pivot", ctypes.c_bool), ("get_infos", ctypes.c_bool)]


class ct_lu_unpack_opts(ctypes.Structure):
    _fields_ = [("no_data", ctypes.c_bool), ("no_pivots", ctypes.c_bool)]


class ct_linalg_lu_solve_opts(ctypes.Structure):
    _fields_ = [("right", ctypes.c_bool), ("adjoint", ctypes.c_bool)]


class ct_triangular_solve_opts(ctypes.Structure):
    _fields_ = [("lower", ctypes.c_bool), ("transpose", ctypes.c_bool), ("unitriangular", ctypes.c_bool)]


class ct_linalg_solve_triangular_opts(ctypes.Structure):
    _fields_ = [("right", ctypes.c_bool), ("unitriangular", ctypes.c_bool)]


class ct_cholesky_solve_opts(ctypes.Structure):
    _fields_ = [("upper", ctypes.c_bool)]


def _dt(g, precision):
    if g.chance(0.08):
        return g.choice(REFUSED)
    return g.choice(SINGLE if precision == "single" else DOUBLE)


def _work(dt):
    return torch.complex128 if dt.is_complex else torch.float64


def _out_contig(g, dt, shape):
    """An out= tensor as ops_linalg's _out draws it, always contiguous. NOT TORCH: torch 1.13's lu_unpack writes
    L and U with tril_out / triu_out, which write past the end of a transposed or strided out whose dims of size 1
    carry large strides (valgrind: structured_tril_cpu::impl, an invalid write; the process then aborts in free),
    so linalg.lu's and lu_unpack's entries draw contiguous outs (of any shape and dtype)."""
    o = _out(g, dt, shape)
    return Spec(o.shape, o.dtype, ["contiguous"])


def _pivot(g):
    return not g.chance(0.05)


# ---- lu_factor, lu, linalg.lu ----------------------------------------------------------------------------

def gen_factor(precision, out=0):
    def gen(g):
        x, conj = _matrix(g, precision, g.choice(["good", "good", "singular", "rect"]), square=g.chance(0.6))
        a = A(x, conj, pivot=_pivot(g), flag=g.chance(0.4))
        dt, sh = x.dtype, x.shape
        psh = sh[:-2] + (min(sh[-2:]),) if len(sh) >= 2 else (2,)
        if out == 2:  # LU, pivots
            a.kw["out"] = (_out(g, dt, sh), _out(g, torch.int32, psh))
        elif out == 3:  # LU, pivots, info
            a.kw["out"] = (_out(g, dt, sh), _out(g, torch.int32, psh), _out(g, torch.int32, sh[:-2]))
        return a
    return gen


def _lopts(pivot, check=False):
    return _ref(ct_linalg_lu_opts(not pivot, check))


def _t_lu(x, cj, pivot, flag, out=None):
    if out is not None and not flag:
        out = out[:2]
    r = torch.lu(_t_in(x, cj), pivot=pivot, get_infos=flag, out=out)
    return tuple(r)


def _c_lu(x, cj, pivot, flag, out=None):
    o = _ref(ct_lu_opts(not pivot, flag))
    if out is None:
        ps = [ctypes.c_void_p() for _ in range(3)]
        C.check(L().fn("ct_lu")(_c_in(x, cj), ctypes.byref(ps[0]), ctypes.byref(ps[1]),
                                ctypes.byref(ps[2]) if flag else None, o))
        return tuple(C.own(p.value) for p in ps[:3 if flag else 2])
    outs = list(out) if flag else [out[0], out[1], None]
    C.check(L().fn("ct_lu_out")(*outs, _c_in(x, cj), o))
    return tuple(out) if flag else (out[0], out[1])


def gen_linalg_lu(precision, out=False):
    def gen(g):
        x, conj = _matrix(g, precision, g.choice(["good", "good", "singular", "rect"]), square=g.chance(0.5))
        a = A(x, conj, pivot=_pivot(g))
        if out:
            sh = x.shape
            m, n = (sh[-2], sh[-1]) if len(sh) >= 2 else (2, 2)
            k = min(m, n)
            a.kw["out"] = (_out_contig(g, x.dtype, sh[:-2] + (m, m)), _out_contig(g, x.dtype, sh[:-2] + (m, k)),
                           _out_contig(g, x.dtype, sh[:-2] + (k, n)))
        return a
    return gen


# ---- lu_unpack -------------------------------------------------------------------------------------------

def _factor_bases(g, shape, dt, kind="good"):
    """LU and pivots (torch's lu_factor) of a random matrix of shape, LU in dt."""
    w = _values(g, shape, _work(dt), kind)
    if w.numel() == 0:
        k = min(shape[-2:])
        return w.to(dt), torch.ones(shape[:-2] + (k,), dtype=torch.int32)
    LU, piv = torch.linalg.lu_factor(w)
    return LU.to(dt), piv


def gen_unpack(precision, out=False):
    def gen(g):
        dt = _dt(g, precision)
        m, n = g.int(0, 5), g.int(0, 5)
        if g.chance(0.5):
            n = m
        shape = _batch(g) + (m, n)
        LU, piv = _factor_bases(g, shape, dt, "rect" if m != n else "good")
        if g.chance(0.04):
            shape, LU = (n,), LU.reshape(-1)[:n].clone()
        if g.chance(0.05) and piv.numel():
            piv = piv.clone()
            piv.view(-1)[0] = g.choice([0, -1, m + 1])  # out of range
        pdt = torch.int32 if g.chance(0.95) else torch.int64
        conj = dt.is_complex and g.chance(0.25)
        x = Spec(LU.shape, dt, g.layout(), base=LU.clone(memory_format=torch.contiguous_format))
        p = Spec(piv.shape, pdt, g.layout(), base=piv.to(pdt).clone(memory_format=torch.contiguous_format))
        a = A(x, conj, p, data=not g.chance(0.2), pivots=not g.chance(0.2))
        if out:
            b = tuple(LU.shape[:-2]) if LU.dim() >= 2 else ()
            k = min(m, n)
            a.kw["out"] = (_out_contig(g, dt, b + (m, m)), _out_contig(g, dt, b + (m, k)),
                           _out_contig(g, dt, b + (k, n)))
        return a
    return gen


def _t_unpack(x, cj, p, data, pivots, out=None):
    return tuple(torch.lu_unpack(_t_in(x, cj), p, unpack_data=data, unpack_pivots=pivots, out=out))


def _c_unpack(x, cj, p, data, pivots, out=None):
    o = _ref(ct_lu_unpack_opts(not data, not pivots))
    if out is None:
        return _results("ct_lu_unpack", 3, _c_in(x, cj), p, opts=o)
    return _outs("ct_lu_unpack_out", list(out), _c_in(x, cj), p, o)


# ---- lu_solve ---------------------------------------------------------------------------------------------

def _rhs_shape(g, batch, n, left):
    k = g.int(0, 3)
    bb = g.choice([batch, batch[1:], (), (2,) + batch[1:], batch])
    shape = bb + ((n, k) if left else (k, n))
    if g.chance(0.04):
        shape = bb + (n + 1, k)  # incompatible
    if g.chance(0.02):
        shape = (n,)  # too few dims
    return shape


def gen_lu_solve(precision, out=False):
    def gen(g):
        dt = _dt(g, precision)
        ba, n = _batch(g), g.int(0, 5)
        LU, piv = _factor_bases(g, ba + (n, n), dt)
        left = not g.chance(0.3)
        bdt = dt if g.chance(0.95) else g.choice([torch.float64, torch.float32])
        bshape = _rhs_shape(g, ba, n, left)
        r = g.random()
        if r < 0.03:
            piv = piv.to(torch.int64)
        elif r < 0.06 and piv.numel():
            piv = piv.clone()
            piv.view(-1)[-1] = g.choice([0, n + 1])
        elif r < 0.08:
            piv = piv[..., :max(n - 1, 0)]
        elif r < 0.1 and len(ba):
            piv = piv.expand((2,) + piv.shape).clone()
        conj = dt.is_complex and g.chance(0.25)
        # NOT TORCH: torch 1.13's lu_solve takes LU and pivots whose strides only look contiguous (dims of size 1
        # with any stride: a batch of 1 x 1 LU with strides (1, 3, 1, 3) gives nan, pivots (2, 1, 5) with strides
        # (5, 10, 1) crash the process) as if they were; such inputs are drawn contiguous
        lay = (lambda: ["contiguous"]) if n <= 1 or 1 in ba else g.layout
        x = Spec(LU.shape, dt, lay(), base=LU.clone(memory_format=torch.contiguous_format))
        p = Spec(piv.shape, piv.dtype, lay(), base=piv.clone(memory_format=torch.contiguous_format))
        b = Spec(bshape, bdt, g.layout(), base=_values(g, bshape, bdt, "rect"))
        a = A(x, conj, p, b, left=left, adjoint=g.chance(0.3))
        if out:
            try:
                rs = tuple(torch.linalg.lu_solve(LU.to(_work(dt)), piv.to(torch.int32).clamp(1, max(n, 1)),
                                                 torch.zeros(bshape, dtype=_work(dt)), left=left).shape)
            except Exception:
                rs = (2,)
            a.kw["out"] = _out(g, dt, rs)
        return a
    return gen


def _t_lu_solve(x, cj, p, b, left, adjoint, out=None):
    return torch.linalg.lu_solve(_t_in(x, cj), p, b, left=left, adjoint=adjoint, out=out)


def _c_lu_solve(x, cj, p, b, left, adjoint, out=None):
    o = _ref(ct_linalg_lu_solve_opts(not left, adjoint))
    if out is None:
        return _call("ct_linalg_lu_solve", _c_in(x, cj), p, b, o)
    return _outs("ct_linalg_lu_solve_out", [out], _c_in(x, cj), p, b, o)


def _t_lu_solve_legacy(x, cj, p, b, left, adjoint, out=None):
    return torch.lu_solve(b, _t_in(x, cj), p, out=out)


def _c_lu_solve_legacy(x, cj, p, b, left, adjoint, out=None):
    if out is None:
        return _call("ct_lu_solve", b, _c_in(x, cj), p)
    return _outs("ct_lu_solve_out", [out], b, _c_in(x, cj), p)


def gen_lu_solve_legacy(precision, out=False):
    inner = gen_lu_solve(precision, out)

    def gen(g):
        a = inner(g)
        a.kw["left"], a.kw["adjoint"] = True, False
        return a
    return gen


# ---- triangular solvers -----------------------------------------------------------------------------------

def _tri_values(g, shape, dt, singular):
    """Well-conditioned triangular factors (small off-diagonal entries, a large diagonal), both triangles filled
    (the solvers read one); singular: a zero on the diagonal."""
    w = _work(dt)
    gen = torch.Generator().manual_seed(int(g.rng.integers(1 << 31)))
    m = torch.randn(shape, dtype=w, generator=gen) * 0.3
    if len(shape) >= 2 and shape[-1] == shape[-2]:
        n = shape[-1]
        m = m + (n + 1) * torch.eye(n, dtype=w)
        if singular and n > 0 and m.numel() > 0:
            i = g.int(0, n - 1)
            m[..., i, i] = 0
    if dt.is_complex or dt.is_floating_point:
        return m.to(dt)
    return m.real.round().to(dt)


def _tri_matrix(g, precision, batch, singular=False):
    dt = _dt(g, precision)
    n = g.int(0, 5)
    shape = batch + ((n, n) if g.chance(0.97) else (n, n + 1))
    if g.chance(0.02):
        shape = (n,)
    conj = dt.is_complex and g.chance(0.25)
    return Spec(shape, dt, g.layout(), base=_tri_values(g, shape, dt, singular)), conj


def gen_triangular(precision, out=False, legacy=True):
    def gen(g):
        ba = _batch(g)
        x, conj = _tri_matrix(g, precision, ba, singular=legacy and g.chance(0.1))
        n = x.shape[-1] if len(x.shape) >= 2 else 1
        left = legacy or not g.chance(0.3)
        bshape = _rhs_shape(g, ba, n, left)
        bdt = x.dtype if g.chance(0.93) else g.choice([torch.float64, torch.float32])
        b = Spec(bshape, bdt, g.layout(), base=_values(g, bshape, bdt, "rect"))
        a = A(x, conj, b, upper=g.chance(0.5), flag=g.chance(0.3), unit=g.chance(0.3), left=left)
        if out:
            try:
                xs = torch.zeros(x.shape, dtype=torch.float64)
                bs = torch.zeros(bshape, dtype=torch.float64)
                if legacy:
                    r = torch.triangular_solve(bs, xs)
                    shapes = (tuple(r[0].shape), tuple(r[1].shape))
                else:
                    shapes = (tuple(torch.linalg.solve_triangular(xs, bs, upper=True, left=left).shape),)
            except Exception:
                shapes = ((2,), (2,))
            if legacy:
                a.kw["out"] = (_out(g, bdt, shapes[0]), _out(g, x.dtype, shapes[1]))
            else:
                a.kw["out"] = _out(g, x.dtype, shapes[0])
        return a
    return gen


def _t_trisolve(x, cj, b, upper, flag, unit, left, out=None):
    return tuple(torch.triangular_solve(b, _t_in(x, cj), upper=upper, transpose=flag, unitriangular=unit, out=out))


def _c_trisolve(x, cj, b, upper, flag, unit, left, out=None):
    o = _ref(ct_triangular_solve_opts(not upper, flag, unit))
    if out is None:
        return _results("ct_triangular_solve", 2, b, _c_in(x, cj), opts=o)
    return _outs("ct_triangular_solve_out", list(out), b, _c_in(x, cj), o)


def _t_solve_tri(x, cj, b, upper, flag, unit, left, out=None):
    return torch.linalg.solve_triangular(_t_in(x, cj), b, upper=upper, left=left, unitriangular=unit, out=out)


def _c_solve_tri(x, cj, b, upper, flag, unit, left, out=None):
    o = _ref(ct_linalg_solve_triangular_opts(not left, unit))
    if out is None:
        return _call("ct_linalg_solve_triangular", _c_in(x, cj), b, upper, o)
    return _outs("ct_linalg_solve_triangular_out", [out], _c_in(x, cj), b, upper, o)


# ---- cholesky_solve, cholesky_inverse ----------------------------------------------------------------------

def _chol_matrix(g, precision, batch, upper, singular=False):
    dt = _dt(g, precision)
    n = g.int(0, 5)
    shape = batch + ((n, n) if g.chance(0.97) else (n, n + 1))
    if g.chance(0.02):
        shape = (n,)
    if len(shape) >= 2 and shape[-1] == shape[-2]:
        f = torch.linalg.cholesky(_values(g, shape, _work(dt), "spd"), upper=upper)
        if singular and n > 0 and f.numel() > 0:
            i = g.int(0, n - 1)
            f[..., i, i] = 0
        base = f.to(dt) if dt.is_floating_point or dt.is_complex else f.real.round().to(dt)
    else:
        base = _values(g, shape, dt, "rect")
    conj = dt.is_complex and g.chance(0.25)
    return Spec(shape, dt, g.layout(), base=base.clone(memory_format=torch.contiguous_format)), conj


def gen_cholesky_solve(precision, out=False):
    def gen(g):
        ba, upper = _batch(g), g.chance(0.4)
        x, conj = _chol_matrix(g, precision, ba, upper)
        n = x.shape[-1] if len(x.shape) >= 2 else 1
        bshape = _rhs_shape(g, ba, n, True)
        bdt = x.dtype if g.chance(0.95) else g.choice([torch.float64, torch.float32])
        b = Spec(bshape, bdt, g.layout(), base=_values(g, bshape, bdt, "rect"))
        a = A(x, conj, b, upper=upper)
        if out:
            try:
                rs = tuple(torch.cholesky_solve(torch.zeros(bshape), torch.zeros(x.shape)).shape)
            except Exception:
                rs = (2,)
            a.kw["out"] = _out(g, bdt, rs)
        return a
    return gen


def gen_cholesky_inverse(precision, out=False):
    def gen(g):
        upper = g.chance(0.4)
        x, conj = _chol_matrix(g, precision, _batch(g), upper, singular=g.chance(0.1))
        a = A(x, conj, upper=upper)
        if out:
            a.kw["out"] = _out(g, x.dtype, x.shape)
        return a
    return gen


# compared bit for bit: the same trsm calls as torch (its transposed equation included)
_EXACT = ("triangular_solve", "triangular_solve_out", "linalg_solve_triangular", "linalg_solve_triangular_out")


def _ops(p):
    op = op_maker(p, _EXACT)

    return [
        op("linalg_lu_factor", gen_factor(p),
           lambda x, cj, pivot, flag: tuple(torch.linalg.lu_factor(_t_in(x, cj), pivot=pivot)),
           lambda x, cj, pivot, flag: _results("ct_linalg_lu_factor", 2, _c_in(x, cj), opts=_lopts(pivot))),
        op("linalg_lu_factor_out", gen_factor(p, 2),
           lambda x, cj, pivot, flag, out: tuple(torch.linalg.lu_factor(_t_in(x, cj), pivot=pivot, out=out)),
           lambda x, cj, pivot, flag, out: _outs("ct_linalg_lu_factor_out", list(out), _c_in(x, cj), _lopts(pivot))),
        op("linalg_lu_factor_ex", gen_factor(p),
           lambda x, cj, pivot, flag: tuple(torch.linalg.lu_factor_ex(_t_in(x, cj), pivot=pivot, check_errors=flag)),
           lambda x, cj, pivot, flag: _results("ct_linalg_lu_factor_ex", 3, _c_in(x, cj), opts=_lopts(pivot, flag))),
        op("linalg_lu_factor_ex_out", gen_factor(p, 3),
           lambda x, cj, pivot, flag, out: tuple(torch.linalg.lu_factor_ex(_t_in(x, cj), pivot=pivot,
                                                                           check_errors=flag, out=out)),
           lambda x, cj, pivot, flag, out: _outs("ct_linalg_lu_factor_ex_out", list(out), _c_in(x, cj),
                                                 _lopts(pivot, flag))),
        op("lu", gen_factor(p), _t_lu, _c_lu),
        op("lu_out", gen_factor(p, 3), _t_lu, _c_lu),
        op("linalg_lu", gen_linalg_lu(p), lambda x, cj, pivot: tuple(torch.linalg.lu(_t_in(x, cj), pivot=pivot)),
           lambda x, cj, pivot: _results("ct_linalg_lu", 3, _c_in(x, cj), opts=_lopts(pivot))),
        op("linalg_lu_out", gen_linalg_lu(p, True),
           lambda x, cj, pivot, out: tuple(torch.linalg.lu(_t_in(x, cj), pivot=pivot, out=out)),
           lambda x, cj, pivot, out: _outs("ct_linalg_lu_out", list(out), _c_in(x, cj), _lopts(pivot))),
        op("lu_unpack", gen_unpack(p), _t_unpack, _c_unpack),
        op("lu_unpack_out", gen_unpack(p, True), _t_unpack, _c_unpack),
        op("linalg_lu_solve", gen_lu_solve(p), _t_lu_solve, _c_lu_solve, weight=1.5),
        op("linalg_lu_solve_out", gen_lu_solve(p, True), _t_lu_solve, _c_lu_solve),
        op("lu_solve", gen_lu_solve_legacy(p), _t_lu_solve_legacy, _c_lu_solve_legacy),
        op("lu_solve_out", gen_lu_solve_legacy(p, True), _t_lu_solve_legacy, _c_lu_solve_legacy),
        op("triangular_solve", gen_triangular(p), _t_trisolve, _c_trisolve),
        op("triangular_solve_out", gen_triangular(p, True), _t_trisolve, _c_trisolve),
        op("linalg_solve_triangular", gen_triangular(p, legacy=False), _t_solve_tri, _c_solve_tri, weight=1.5),
        op("linalg_solve_triangular_out", gen_triangular(p, True, legacy=False), _t_solve_tri, _c_solve_tri),
        op("cholesky_solve", gen_cholesky_solve(p),
           lambda x, cj, b, upper: torch.cholesky_solve(b, _t_in(x, cj), upper=upper),
           lambda x, cj, b, upper: _call("ct_cholesky_solve", b, _c_in(x, cj), _ref(ct_cholesky_solve_opts(upper)))),
        op("cholesky_solve_out", gen_cholesky_solve(p, True),
           lambda x, cj, b, upper, out: torch.cholesky_solve(b, _t_in(x, cj), upper=upper, out=out),
           lambda x, cj, b, upper, out: _outs("ct_cholesky_solve_out", [out], b, _c_in(x, cj),
                                              _ref(ct_cholesky_solve_opts(upper)))),
        op("cholesky_inverse", gen_cholesky_inverse(p),
           lambda x, cj, upper: torch.cholesky_inverse(_t_in(x, cj), upper=upper),
           lambda x, cj, upper: _call("ct_cholesky_inverse", _c_in(x, cj), _ref(ct_cholesky_solve_opts(upper)))),
        op("cholesky_inverse_out", gen_cholesky_inverse(p, True),
           lambda x, cj, upper, out: torch.cholesky_inverse(_t_in(x, cj), upper=upper, out=out),
           lambda x, cj, upper, out: _outs("ct_cholesky_inverse_out", [out], _c_in(x, cj),
                                           _ref(ct_cholesky_solve_opts(upper)))),
    ]


OPS = _ops("single") + _ops("double")
