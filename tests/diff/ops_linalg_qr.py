"""Entries for include/ctorch/linalg_qr.h against torch 1.13: linalg.qr / qr (reduced, complete, r), geqrf,
householder_product / orgqr, ormqr (left / right, transpose), linalg.lstsq (its four drivers, rcond, vector and
matrix right-hand sides, broadcast batches), linalg.pinv / pinverse (atol, rtol, hermitian, rcond),
linalg.matrix_rank (atol, rtol, hermitian, tol), both with their tolerances as floats or as tensors broadcast
against the batch, and the legacy svd (some, compute_uv), with their out= forms
(conventions: ops_linalg.py's docstring, whose generators these reuse).

Inputs: batches of 0 to 2 dims (batch 0 included), matrices of 0 to 5 rows and columns (0 x n, wide and tall),
full-rank and rank-deficient matrices (products of thinner factors), the suite's layouts and conjugate views,
the dtypes torch refuses, wrong out= dtypes and shapes. Values are compared within assert_close's default
tolerances of the dtype; where torch's result is unique only up to a phase (Q's columns and R's rows, singular
vectors) both sides are normalised first (R's diagonal made real and positive, the singular vectors' largest
entry) and the reconstructions Q R = A and A = U S V^H are compared as well. Ranks compare exactly."""
import ctypes

import torch

import ctorch as C
from harness import A, Spec
from ops_linalg import (op_maker, _as_result, _as_torch, _batch, _c_in, _call, _dtype, _geom, _matrix, _out, _outs,
                        _real, _ref, _results, _svd_unique, _t_in, _values)

L = C.lib


class ct_linalg_qr_opts(ctypes.Structure):
    _fields_ = [("mode", ctypes.c_char_p)]


class ct_qr_opts(ctypes.Structure):
    _fields_ = [("full", ctypes.c_bool)]


class ct_ormqr_opts(ctypes.Structure):
    _fields_ = [("right", ctypes.c_bool), ("transpose", ctypes.c_bool)]


class ct_linalg_lstsq_opts(ctypes.Structure):
    _fields_ = [("has_rcond", ctypes.c_bool), ("rcond", ctypes.c_double), ("driver", ctypes.c_char_p)]


class ct_linalg_tol_opts(ctypes.Structure):
    _fields_ = [("has_atol", ctypes.c_bool), ("atol", ctypes.c_double), ("has_rtol", ctypes.c_bool),
                ("rtol", ctypes.c_double), ("hermitian", ctypes.c_bool), ("has_rcond", ctypes.c_bool),
                ("rcond", ctypes.c_double), ("atol_tensor", ctypes.c_void_p), ("rtol_tensor", ctypes.c_void_p),
                ("rcond_tensor", ctypes.c_void_p)]


class ct_pinverse_opts(ctypes.Structure):
    _fields_ = [("has_rcond", ctypes.c_bool), ("rcond", ctypes.c_double)]


class ct_svd_opts(ctypes.Structure):
    _fields_ = [("full", ctypes.c_bool), ("no_uv", ctypes.c_bool)]


# ---- inputs ----------------------------------------------------------------------------------------------

def _lowrank(g, shape, dt):
    """A (batch of) matrix of rank below min(m, n) where it can be: a product of thinner random factors."""
    if len(shape) < 2 or not (dt.is_floating_point or dt.is_complex):
        return _values(g, shape, dt, "rect")
    m, n = shape[-2], shape[-1]
    r = max(0, min(m, n) - g.int(1, 2))
    work = torch.complex128 if dt.is_complex else torch.float64
    gen = torch.Generator().manual_seed(int(g.rng.integers(1 << 31)))
    a = torch.randn(shape[:-2] + (m, r), dtype=work, generator=gen)
    b = torch.randn(shape[:-2] + (r, n), dtype=work, generator=gen)
    return (a @ b).to(dt)


def _mat(g, p, square=False, batch=None, lowrank=0.0, dt=None):
    """(Spec, conj): a random matrix, rank-deficient with probability lowrank."""
    x, conj = _matrix(g, p, "rect", square=square, batch=batch, dt=dt)
    if lowrank and g.chance(lowrank) and len(x.shape) >= 2:
        x = Spec(x.shape, x.dtype, x.layout, base=_lowrank(g, x.shape, x.dtype))
    return x, conj


def _spec(g, shape, dt):
    return Spec(shape, dt, g.layout(), base=_values(g, shape, dt, "rect"))


# ---- what is unique in a QR --------------------------------------------------------------------------------

def _qr_unique(a, Q, R, mode):
    """Q and R with R's diagonal made real and non-negative (Q's columns take the conjugate phases), their
    geometries, and whether Q R reconstructs A and Q's columns are orthonormal."""
    q, r, at = _as_torch(Q), _as_torch(R), _as_torch(a)
    k = min(r.shape[-2], r.shape[-1]) if r.dim() >= 2 else 0
    if k and r.numel():
        d = torch.diagonal(r, 0, -2, -1)[..., :k]
        ph = torch.where(d.abs() > 0, d / d.abs().clamp_min(1e-300), torch.ones_like(d))
        r = r.clone()
        r[..., :k, :] = r[..., :k, :] * ph.conj().unsqueeze(-1)
        if mode != "r" and q.numel():
            q = q.clone()
            q[..., :, :k] = q[..., :, :k] * ph.unsqueeze(-2)
    tol = dict(rtol=1e-3, atol=1e-3)
    rec = orth = True
    if mode != "r" and at.numel():
        kk = q.shape[-1]
        rec = torch.allclose(q @ r[..., :kk, :] if r.shape[-2] >= kk else q[..., :, :r.shape[-2]] @ r, at, **tol)
        orth = torch.allclose(q.mH @ q, torch.eye(kk, dtype=q.dtype).expand(q.shape[:-2] + (kk, kk)), **tol)
    Qr = _as_result(q, Q) if mode != "r" else Q
    return (Qr, _as_result(r, R), _geom(Q), _geom(R), rec, orth)


# ---- linalg.qr, qr, geqrf -----------------------------------------------------------------------------------

MODES = ["reduced", "complete", "r", None]


def gen_qr(p, out=False, legacy=False):
    def gen(g):
        x, conj = _mat(g, p, lowrank=0.2)
        if legacy:
            mode = g.choice([True, False])  # some
        else:
            mode = g.choice(MODES) if g.chance(0.97) else "x"
        a = A(x, conj, mode)
        if out:
            sh = x.shape
            a.kw["out"] = (_out(g, x.dtype, sh), _out(g, x.dtype, sh))
        return a
    return gen


def _t_qr(x, conj, mode, out=None):
    a = _t_in(x, conj)
    kw = {} if mode is None else {"mode": mode}
    Q, R = torch.linalg.qr(a, **kw, out=out)
    return _qr_unique(a, Q, R, mode or "reduced")


def _c_qr(x, conj, mode, out=None):
    a = _c_in(x, conj)
    o = _ref(ct_linalg_qr_opts(None if mode is None else mode.encode()))
    Q, R = _results("ct_linalg_qr", 2, a, opts=o) if out is None else _outs("ct_linalg_qr_out", list(out), a, o)
    return _qr_unique(a, Q, R, mode or "reduced")


def _t_qr_legacy(x, conj, some, out=None):
    a = _t_in(x, conj)
    Q, R = torch.qr(a, some, out=out)
    return _qr_unique(a, Q, R, "reduced" if some else "complete")


def _c_qr_legacy(x, conj, some, out=None):
    a = _c_in(x, conj)
    o = _ref(ct_qr_opts(not some))
    Q, R = _results("ct_qr", 2, a, opts=o) if out is None else _outs("ct_qr_out", list(out), a, o)
    return _qr_unique(a, Q, R, "reduced" if some else "complete")


def gen_geqrf(p, out=False):
    def gen(g):
        x, conj = _mat(g, p, lowrank=0.2)
        a = A(x, conj)
        if out:
            sh = x.shape
            k = (min(sh[-2], sh[-1]),) if len(sh) >= 2 else ()
            a.kw["out"] = (_out(g, x.dtype, sh), _out(g, x.dtype, tuple(sh[:-2]) + k))
        return a
    return gen


# ---- householder_product, orgqr, ormqr ------------------------------------------------------------------------

def gen_hh(p, out=False):
    def gen(g):
        ba = _batch(g)
        dt = _dtype(g, p)
        n = g.int(0, 4)
        m = n + g.int(0, 2)
        k = g.int(0, n)
        if g.chance(0.05):
            m, n = n, n + 1  # m < n
        if g.chance(0.05):
            k = n + 1
        x = _spec(g, ba + (m, n), dt)
        tdt = dt if g.chance(0.97) else g.choice([torch.float64, torch.complex64])
        tb = ba if g.chance(0.95) else g.choice([(), (2,), ba + (1,)])
        tau = _spec(g, tb + (k,), tdt)
        conj = dt.is_complex and g.chance(0.25)
        a = A(x, conj, tau)
        if out:
            a.kw["out"] = _out(g, dt, ba + (m, n))
        return a
    return gen


def gen_ormqr(p, out=False):
    def gen(g):
        ba = _batch(g)
        dt = _dtype(g, p)
        left, trans = g.chance(0.5), g.chance(0.5)
        mq = g.int(0, 5)
        n = g.int(0, 5)
        k = g.int(0, min(mq, n))
        x = _spec(g, ba + (mq, n), dt)
        tau = _spec(g, ba + (k,), dt if g.chance(0.97) else torch.float64)
        other_n = g.int(0, 4)
        osh = ba + ((mq, other_n) if left else (other_n, mq))
        if g.chance(0.05):
            osh = ba + (mq + 1, other_n + 1)
        other = _spec(g, osh, dt if g.chance(0.97) else torch.float64)
        conj = dt.is_complex and g.chance(0.25)
        a = A(x, conj, tau, other, left, trans)
        if out:
            a.kw["out"] = _out(g, dt, osh) if g.chance(0.9) else Spec((0,), torch.float64)
        return a
    return gen


# ---- lstsq -----------------------------------------------------------------------------------------------

DRIVERS = [None, "gels", "gelsy", "gelsd", "gelss"]


def _wellcond(g, shape, dt):
    """Random values plus k I in the leading k x k block: full rank, well conditioned."""
    v = _values(g, shape, dt, "rect")
    if len(shape) >= 2 and dt in (torch.float32, torch.float64, torch.complex64, torch.complex128):
        k = min(shape[-2], shape[-1])
        v = v.clone()
        v[..., :k, :k] += k * torch.eye(k, dtype=dt)
    return v


def _bcast_empty(ash, bsh):
    """Whether torch's broadcast_batch_size (A's batch with B's first len(A) - 2 dims) is empty while A's batch
    is not."""
    nb = len(ash) - 2
    if len(bsh) < nb:
        return False
    try:
        sz = torch.broadcast_shapes(tuple(ash[:nb]), tuple(bsh[:nb]))
    except RuntimeError:
        return False
    an = 1
    for d in ash[:nb]:
        an *= d
    bn = 1
    for d in sz:
        bn *= d
    return bn == 0 and an > 0


def gen_lstsq(p, out=False):
    def gen(g):
        drv = g.choice(DRIVERS) if g.chance(0.97) else "GELSD" if g.chance(0.5) else "qr"
        ba = _batch(g)
        # gels assumes full rank (its solution of a singular A is noise); gelsy's first matrix pivots by a jpvt
        # torch 1.13 reads from uninitialized memory (at::empty; ctorch: zeros, column pivoting), so its solution
        # and rank where pivoting matters (rank-deficient A, a large rcond) vary from call to call in torch
        # itself: those cases go to the SVD drivers
        svd = drv is not None and drv.lower() in ("gelsd", "gelss")
        x, conj = _mat(g, p, batch=ba, lowrank=0.3 if svd else 0.0)
        if not svd and len(x.shape) >= 2:
            x = Spec(x.shape, x.dtype, x.layout, base=_wellcond(g, x.shape, x.dtype))
        m = x.shape[-2] if len(x.shape) >= 2 else 0
        bdt = x.dtype if g.chance(0.97) else torch.float64
        r = g.random()
        if r < 0.3:
            bsh = x.shape[:-1] if len(x.shape) >= 2 and g.chance(0.5) else (m,)  # vectors
        else:
            bb = g.choice([ba, ba, ba[1:], tuple(1 for _ in ba)]) if len(x.shape) >= 2 else ()
            bsh = bb + (m, g.int(0, 3))
            if len(bsh) < len(x.shape) - 1:
                bsh = x.shape[:-2] + bsh[-2:]
        if g.chance(0.04):
            bsh = (m + 1, 2)
        if drv == "gelss" and len(bsh) >= 2 and bsh[-1] == 0 and not (len(x.shape) >= 2 and len(bsh) < len(x.shape)):
            # torch 1.13 dies with SIGSEGV in OpenBLAS's gelss without right-hand sides; ctorch hands gelss a
            # zero column there (unit test) and returns the same rank and singular values as with one
            bsh = bsh[:-1] + (1,)
        if out and len(x.shape) >= 2 and _bcast_empty(x.shape, bsh):
            # B's batch empty where A's is not: torch runs no driver and leaves the rank out uninitialized
            bsh = tuple(x.shape[:-2]) + (m, 1)
        b = Spec(bsh, bdt, g.layout(), base=_values(g, bsh, bdt, "rect"))
        rcond = None if g.chance(0.7) else g.choice([0.0, 1e-3, 0.1, -1.0] if svd else [0.0, -1.0, 1e-5])
        a = A(x, conj, b, rcond, drv)
        if out:
            rd = _real(x.dtype)
            a.kw["out"] = (_out(g, x.dtype, x.shape), Spec((0,), rd), _out(g, torch.int64, x.shape[:-2]),
                           _out(g, rd, x.shape[:-1]))
        return a
    return gen


def _lopts(rcond, drv):
    return _ref(ct_linalg_lstsq_opts(rcond is not None, 0.0 if rcond is None else rcond,
                                     None if drv is None else drv.encode()))


def _lstsq_defined(a, r):
    """The results, with rank and singular values as geometry only when B's batch is empty but A's is not:
    torch then calls no driver and returns them uninitialized (ctorch: zeros)."""
    sol, res, rank, sv = r
    nb = len(a.shape) - 2
    empty = 1
    for d in tuple(sol.shape)[:nb]:
        empty *= d
    if empty == 0 and rank.numel() > 0:
        return (sol, res, _geom(rank), _geom(sv))
    return (sol, res, rank, sv)


def _t_lstsq(x, conj, b, rcond, drv, out=None):
    a = _t_in(x, conj)
    r = torch.linalg.lstsq(a, b, rcond, driver=drv, out=out)
    return _lstsq_defined(a, tuple(r))


def _c_lstsq(x, conj, b, rcond, drv, out=None):
    a = _c_in(x, conj)
    if out is None:
        r = _results("ct_linalg_lstsq", 4, a, b, opts=_lopts(rcond, drv))
    else:
        r = _outs("ct_linalg_lstsq_out", list(out), a, b, _lopts(rcond, drv))
    return _lstsq_defined(a, r)


# ---- pinv, pinverse, matrix_rank ----------------------------------------------------------------------------

def _tol_input(g, p, batch=None):
    """(x, conj, hermitian): pinv's and matrix_rank's input, rank-deficient 40% of the time."""
    herm = g.chance(0.3)
    x, conj = _matrix(g, p, "herm" if herm else "rect", square=herm, batch=batch)
    if g.chance(0.4) and len(x.shape) >= 2:
        base = _lowrank(g, x.shape, x.dtype)
        if herm and x.shape[-1] == x.shape[-2] and (x.dtype.is_floating_point or x.dtype.is_complex):
            base = (base + base.mH) / 2
        x = Spec(x.shape, x.dtype, x.layout, base=base)
    return x, conj, herm


def _tol_out(g, a, x, rank):
    """An out= for pinv (x's shape transposed) or matrix_rank (x's batch), of a wrong dtype 15% of the time."""
    sh = x.shape
    if rank:
        a.kw["out"] = _out(g, torch.int64, sh[:-2]) if g.chance(0.85) else \
            Spec(sh[:-2], g.choice([torch.float32, torch.bool, torch.int32]))
    else:
        osh = tuple(sh[:-2]) + ((sh[-1], sh[-2]) if len(sh) >= 2 else ())
        a.kw["out"] = _out(g, x.dtype, osh) if g.chance(0.85) else Spec(osh, g.choice(
            [torch.complex128, torch.int64, torch.float64]))


def gen_tol(p, out=None, rank=False):
    def gen(g):
        x, conj, herm = _tol_input(g, p)
        kind = g.choice(["none", "atol", "rtol", "both", "rcond"])
        atol = g.choice([0.0, 0.5, 1e-3, 2.0]) if kind in ("atol", "both") else None
        rtol = g.choice([0.0, 0.1, 1e-4, 0.5]) if kind in ("rtol", "both") else None
        rcond = g.choice([0.0, 1e-3, 0.2]) if kind == "rcond" else None
        a = A(x, conj, atol, rtol, rcond, herm)
        if out:
            _tol_out(g, a, x, rank)
        return a
    return gen


def _tkw(atol, rtol, rcond, herm, pos=True, name=None):
    """pinv's and matrix_rank's arguments: rcond positional (pos) or by its keyword name, else atol / rtol."""
    if rcond is not None:
        return ((rcond,), {"hermitian": herm}) if pos else ((), {name: rcond, "hermitian": herm})
    kw = {"hermitian": herm}
    if atol is not None:
        kw["atol"] = atol
    if rtol is not None:
        kw["rtol"] = rtol
    return (), kw


def _topts(atol, rtol, rcond, herm):
    return _ref(ct_linalg_tol_opts(atol is not None, atol or 0.0, rtol is not None, rtol or 0.0, herm,
                                   rcond is not None, rcond or 0.0))


def _t_pinv(x, conj, atol, rtol, rcond, herm, out=None):
    pos, kw = _tkw(atol, rtol, rcond, herm)
    return torch.linalg.pinv(_t_in(x, conj), *pos, **kw, **({} if out is None else {"out": out}))


def _c_pinv(x, conj, atol, rtol, rcond, herm, out=None):
    o = _topts(atol, rtol, rcond, herm)
    if out is None:
        return _call("ct_linalg_pinv", _c_in(x, conj), o)
    return _outs("ct_linalg_pinv_out", [out], _c_in(x, conj), o)


def _t_rank(x, conj, atol, rtol, rcond, herm, out=None):
    kw = {"hermitian": herm}
    if rcond is not None:
        kw["tol"] = rcond
    else:
        if atol is not None:
            kw["atol"] = atol
        if rtol is not None:
            kw["rtol"] = rtol
    return torch.linalg.matrix_rank(_t_in(x, conj), **kw, **({} if out is None else {"out": out}))


def _c_rank(x, conj, atol, rtol, rcond, herm, out=None):
    o = _topts(atol, rtol, rcond, herm)
    if out is None:
        return _call("ct_linalg_matrix_rank", _c_in(x, conj), o)
    return _outs("ct_linalg_matrix_rank_out", [out], _c_in(x, conj), o)


# The Tensor overloads: atol / rtol (or pinv's rcond, matrix_rank's tol) as tensors of real dtypes whose shapes
# broadcast against A's batch (the result takes the broadcast batch), now and then a shape that does not
# broadcast or a complex tolerance (torch's messages).
_TOL_VALUES = [0.0, 0.5, 1e-3, 2.0, 0.1, 1e-6, 1e-4]


def _tol_tensor(g, batch):
    dt = g.choice([torch.float64, torch.float32, torch.float32, torch.float64, torch.int64, torch.bool,
                   torch.float16] + ([torch.complex64] if g.chance(0.15) else []))
    r = g.int(0, 4)
    if r == 0:
        shape = ()
    elif r == 1:  # a suffix of the batch, some dims 1
        shape = tuple(d if g.chance(0.7) else 1 for d in batch[g.int(0, len(batch)):])
    elif r == 2:  # extra leading dims
        shape = (g.int(1, 3),) + tuple(1 if g.chance(0.5) else d for d in batch)
    else:  # a size of its own: broadcasts where the batch's last dim is 1 or absent
        shape = (g.int(1, 3),) + ((1,) if g.chance(0.5) else ())
    n = 1
    for d in shape:
        n *= d
    vals = [g.choice(_TOL_VALUES) * (g.choice([1.0, 10.0]) if dt.is_floating_point else 10.0) for _ in range(n)]
    base = torch.tensor(vals, dtype=torch.float64).reshape(shape)
    if dt == torch.bool:
        base = base > 0.05
    elif dt.is_complex:
        base = base.to(dt) * (1 + 1j)
    else:
        base = base.round() if not dt.is_floating_point else base
    return Spec(shape, dt, g.choice([None, None, ["transposed"], ["strided"]]) if len(shape) >= 2 else None,
                base=base.to(dt))


def gen_tol_tensor(p, out=None, rank=False):
    def gen(g):
        batch = _batch(g)
        x, conj, herm = _tol_input(g, p, batch)
        kind = g.choice(["atol", "rtol", "both", "rcond", "rcond_pos"])
        atol = _tol_tensor(g, batch) if kind in ("atol", "both") else None
        rtol = _tol_tensor(g, batch) if kind in ("rtol", "both") else None
        rcond = _tol_tensor(g, batch) if kind.startswith("rcond") else None
        a = A(x, conj, atol, rtol, rcond, herm, kind == "rcond_pos")
        if out:
            _tol_out(g, a, x, rank)
        return a
    return gen


def _ttopts(atol, rtol, rcond, herm):
    return _ref(ct_linalg_tol_opts(False, 0.0, False, 0.0, herm, False, 0.0, *[None if t is None else t.ptr
                                                                               for t in (atol, rtol, rcond)]))


def _tt_calls(fn, legacy, ct_name):
    """The (torch, ctorch) calls of a Tensor-overload entry: fn (pinv or matrix_rank), legacy the keyword of its
    rcond / tol tensor form, ct_name the ctorch function (its out= form: ct_name + "_out")."""
    def t(x, conj, atol, rtol, rcond, herm, pos, out=None):
        a, kw = _tkw(atol, rtol, rcond, herm, pos, legacy)
        return fn(_t_in(x, conj), *a, **kw, **({} if out is None else {"out": out}))

    def c(x, conj, atol, rtol, rcond, herm, pos, out=None):
        o = _ttopts(atol, rtol, rcond, herm)
        return _call(ct_name, _c_in(x, conj), o) if out is None else _outs(ct_name + "_out", [out], _c_in(x, conj), o)
    return t, c


_t_pinv_tt, _c_pinv_tt = _tt_calls(torch.linalg.pinv, "rcond", "ct_linalg_pinv")
_t_rank_tt, _c_rank_tt = _tt_calls(torch.linalg.matrix_rank, "tol", "ct_linalg_matrix_rank")


def gen_pinverse(p):
    def gen(g):
        x, conj = _mat(g, p, lowrank=0.4)
        return A(x, conj, g.choice([None, None, 0.0, 1e-3, 0.3]))
    return gen


def _t_pinverse(x, conj, rcond):
    a = _t_in(x, conj)
    return torch.pinverse(a) if rcond is None else torch.pinverse(a, rcond)


def _c_pinverse(x, conj, rcond):
    return _call("ct_pinverse", _c_in(x, conj), _ref(ct_pinverse_opts(rcond is not None, rcond or 0.0)))


# ---- the legacy svd ----------------------------------------------------------------------------------------

def gen_svd(p, out=False):
    def gen(g):
        x, conj = _mat(g, p)
        if g.chance(0.04):
            x = Spec((3,), x.dtype)
        some, uv = g.chance(0.5), g.chance(0.7)
        a = A(x, conj, some, uv)
        if out:
            sh = x.shape
            if len(sh) >= 2:
                m, n = sh[-2], sh[-1]
                k = min(m, n)
                b = tuple(sh[:-2])
                a.kw["out"] = (_out(g, x.dtype, b + (m, k if some else m)), _out(g, _real(x.dtype), b + (k,)),
                               _out(g, x.dtype, b + (n, k if some else n)))
            else:
                a.kw["out"] = (Spec((0,), x.dtype), Spec((0,), _real(x.dtype)), Spec((0,), x.dtype))
        return a
    return gen


def _svd_legacy_unique(a, U, S, V, some, uv):
    if not uv:
        return (U, S, V, _geom(U), _geom(V), _conj_bit(V))
    Vh = _as_torch(V).mH
    return _svd_unique(a, U, S, _as_result(Vh, V), not some) + (_geom(V), _conj_bit(V))


def _conj_bit(t):
    return t.is_conj() if isinstance(t, torch.Tensor) else bool(L().ct_is_conj(t))


def _t_svd(x, conj, some, uv, out=None):
    a = _t_in(x, conj)
    U, S, V = torch.svd(a, some, uv, out=out)
    return _svd_legacy_unique(a, U, S, V, some, uv)


def _c_svd(x, conj, some, uv, out=None):
    a = _c_in(x, conj)
    o = _ref(ct_svd_opts(not some, not uv))
    U, S, V = _results("ct_svd", 3, a, opts=o) if out is None else _outs("ct_svd_out", list(out), a, o)
    return _svd_legacy_unique(a, U, S, V, some, uv)


def _ops(p):
    op = op_maker(p)

    return [
        op("linalg_qr", gen_qr(p), _t_qr, _c_qr, weight=2),
        op("linalg_qr_out", gen_qr(p, True), _t_qr, _c_qr),
        op("qr", gen_qr(p, legacy=True), _t_qr_legacy, _c_qr_legacy),
        op("qr_out", gen_qr(p, True, legacy=True), _t_qr_legacy, _c_qr_legacy),
        op("geqrf", gen_geqrf(p), lambda x, cj: tuple(torch.geqrf(_t_in(x, cj))),
           lambda x, cj: _results("ct_geqrf", 2, _c_in(x, cj))),
        op("geqrf_out", gen_geqrf(p, True), lambda x, cj, out: tuple(torch.geqrf(_t_in(x, cj), out=out)),
           lambda x, cj, out: _outs("ct_geqrf_out", list(out), _c_in(x, cj))),
        op("linalg_householder_product", gen_hh(p),
           lambda x, cj, tau: torch.linalg.householder_product(_t_in(x, cj), tau),
           lambda x, cj, tau: _call("ct_linalg_householder_product", _c_in(x, cj), tau)),
        op("linalg_householder_product_out", gen_hh(p, True),
           lambda x, cj, tau, out: torch.linalg.householder_product(_t_in(x, cj), tau, out=out),
           lambda x, cj, tau, out: _outs("ct_linalg_householder_product_out", [out], _c_in(x, cj), tau)),
        op("orgqr", gen_hh(p), lambda x, cj, tau: torch.orgqr(_t_in(x, cj), tau),
           lambda x, cj, tau: _call("ct_orgqr", _c_in(x, cj), tau)),
        op("orgqr_out", gen_hh(p, True), lambda x, cj, tau, out: torch.orgqr(_t_in(x, cj), tau, out=out),
           lambda x, cj, tau, out: _outs("ct_orgqr_out", [out], _c_in(x, cj), tau)),
        op("ormqr", gen_ormqr(p),
           lambda x, cj, tau, o, left, tr: torch.ormqr(_t_in(x, cj), tau, o, left, tr),
           lambda x, cj, tau, o, left, tr: _call("ct_ormqr", _c_in(x, cj), tau, o, _ref(ct_ormqr_opts(not left, tr)))),
        op("ormqr_out", gen_ormqr(p, True),
           lambda x, cj, tau, o, left, tr, out: torch.ormqr(_t_in(x, cj), tau, o, left, tr, out=out),
           lambda x, cj, tau, o, left, tr, out: _outs("ct_ormqr_out", [out], _c_in(x, cj), tau, o,
                                                      _ref(ct_ormqr_opts(not left, tr)))),
        op("linalg_lstsq", gen_lstsq(p), _t_lstsq, _c_lstsq, weight=3),
        op("linalg_lstsq_out", gen_lstsq(p, True), _t_lstsq, _c_lstsq),
        op("linalg_pinv", gen_tol(p), _t_pinv, _c_pinv, weight=2),
        op("linalg_pinv_out", gen_tol(p, True), _t_pinv, _c_pinv),
        op("pinverse", gen_pinverse(p), _t_pinverse, _c_pinverse),
        op("linalg_matrix_rank", gen_tol(p, rank=True), _t_rank, _c_rank, weight=2),
        op("linalg_matrix_rank_out", gen_tol(p, True, rank=True), _t_rank, _c_rank),
        # a NULL tolerance tensor means "not given": the NULL checks of A and out run in the float entries above
        op("linalg_pinv_tensor_tol", gen_tol_tensor(p), _t_pinv_tt, _c_pinv_tt, weight=2, null_check=False),
        op("linalg_pinv_tensor_tol_out", gen_tol_tensor(p, True), _t_pinv_tt, _c_pinv_tt, null_check=False),
        op("linalg_matrix_rank_tensor_tol", gen_tol_tensor(p, rank=True), _t_rank_tt, _c_rank_tt, weight=2,
           null_check=False),
        op("linalg_matrix_rank_tensor_tol_out", gen_tol_tensor(p, True, rank=True), _t_rank_tt, _c_rank_tt,
           null_check=False),
        op("svd", gen_svd(p), _t_svd, _c_svd, weight=2),
        op("svd_out", gen_svd(p, True), _t_svd, _c_svd),
    ]


OPS = _ops("single") + _ops("double")
