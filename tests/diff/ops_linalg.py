"""Entries for include/ctorch/linalg.h: det, slogdet, logdet, inv / inverse / inv_ex, solve / solve_ex,
cholesky / cholesky_ex / the legacy cholesky, svd / svdvals, eigh / eigvalsh, their out= forms, against torch
1.13. Inputs: batches of 0 to 2 dims (broadcast against each other in solve), matrices of 0 to 6 rows, the
suite's layouts, conjugate views of complex matrices, well-conditioned, singular (a zero row) and not
positive-definite matrices, the dtypes torch refuses (its messages) and wrong out= dtypes.

Values are compared within torch.testing.assert_close's default tolerances for the dtype (each op has an entry
for float32/complex64 and one, `_f64`, for float64/complex128, so that each is held to its own); shapes,
strides, dtypes, errors and messages exactly. Where torch's result is not unique (the phase of singular vectors
and eigenvectors; the columns of a full U beyond min(m, n)), both sides are compared through what is: the
vectors with their phase normalised (largest entry real and positive), the reconstruction A = U S Vh and
A V = V diag(w), and the geometry of the raw results."""
import ctypes
import os

import numpy as np
import torch

import ctorch as C
from harness import A, Op, Spec

L = C.lib
_keep = []

SINGLE = [torch.float32, torch.complex64]
DOUBLE = [torch.float64, torch.complex128]
REFUSED = [torch.int64, torch.int32, torch.bool, torch.float16, torch.bfloat16]
TOL = {"single": (1.3e-6, 1e-5), "double": (1e-7, 1e-7)}


class ct_linalg_ex_opts(ctypes.Structure):
    _fields_ = [("check_errors", ctypes.c_bool)]


class ct_linalg_solve_opts(ctypes.Structure):
    _fields_ = [("right", ctypes.c_bool), ("check_errors", ctypes.c_bool)]


class ct_linalg_cholesky_opts(ctypes.Structure):
    _fields_ = [("upper", ctypes.c_bool), ("check_errors", ctypes.c_bool)]


class ct_linalg_svd_opts(ctypes.Structure):
    _fields_ = [("reduced", ctypes.c_bool)]


class ct_linalg_eigh_opts(ctypes.Structure):
    _fields_ = [("UPLO", ctypes.c_char_p)]


def _ref(o):
    _keep.append(o)
    return ctypes.byref(o)


def _call(name, *args):
    return C.own(L().fn(name)(*args))


_NO_OPTS = object()


def _results(name, n, *args, opts=_NO_OPTS):
    """A function returning n tensors through pointers (before its options, when it has some)."""
    ps = [ctypes.c_void_p() for _ in range(n)]
    tail = () if opts is _NO_OPTS else (opts,)
    C.check(L().fn(name)(*args, *[ctypes.byref(p) for p in ps], *tail))
    return tuple(C.own(p.value) for p in ps)


def _outs(name, outs, *args):
    C.check(L().fn(name)(*outs, *args))
    return tuple(outs) if len(outs) > 1 else outs[0]


# ---- inputs ----------------------------------------------------------------------------------------------

def _dtype(g, precision):
    if g.chance(0.08):
        return g.choice(REFUSED)
    return g.choice(SINGLE if precision == "single" else DOUBLE)


def _batch(g):
    return tuple(g.int(0, 3) if g.chance(0.1) else g.int(1, 3) for _ in range(g.int(0, 2)))


def _values(g, shape, dt, kind):
    """Matrices of shape (last two dims n x n unless rect) with values of the kind: 'good' (random plus
    n * identity: well conditioned), 'singular' (one zero row), 'spd' (M M^H + n I), 'notpd' (one negative
    diagonal entry after 'spd'), 'herm' (M + M^H), 'rect' (random)."""
    cx = dt.is_complex
    work = torch.complex128 if cx else torch.float64
    gen = torch.Generator().manual_seed(int(g.rng.integers(1 << 31)))
    m = torch.randn(shape, dtype=work, generator=gen)
    n = shape[-1] if len(shape) >= 1 else 0
    if kind in ("good", "singular") and len(shape) >= 2 and shape[-1] == shape[-2]:
        m = m + n * torch.eye(n, dtype=work)
        if kind == "singular" and n > 0 and m.numel() > 0:
            m[..., g.int(0, n - 1), :] = 0
    elif kind in ("spd", "notpd", "herm") and len(shape) >= 2 and shape[-1] == shape[-2]:
        m = m @ m.mH + n * torch.eye(n, dtype=work) if kind != "herm" else m + m.mH
        if kind == "notpd" and n > 0 and m.numel() > 0:
            i = g.int(0, n - 1)
            m[..., i, i] = -1
    if dt.is_complex or dt.is_floating_point:
        return m.to(dt)
    return m.real.round().to(dt) if cx else m.round().to(dt)


def _matrix(g, precision, kind="good", square=True, dt=None, batch=None):
    dt = dt or _dtype(g, precision)
    n = g.int(0, 5)
    rows = n if square or g.chance(0.3) else g.int(0, 5)
    shape = (batch if batch is not None else _batch(g)) + (rows, n)
    if g.chance(0.04):
        shape = g.choice([(n,), (), (2, 3), (2, 3, 4)])  # refused: too few dims, not square
    conj = dt.is_complex and g.chance(0.25)
    return Spec(shape, dt, g.layout(), base=_values(g, shape, dt, kind)), conj


def _t_in(x, conj):
    return x.conj() if conj else x


def _c_in(x, conj):
    return _call("ct_conj", x) if conj else x


def _out(g, dt, shape):
    if g.chance(0.1):
        dt = g.choice([torch.float64, torch.int64, torch.float32, torch.complex64])
    if g.chance(0.4):
        shape = g.choice([(0,), tuple(shape), (2,)])
    return Spec(shape, dt, g.choice([["contiguous"], ["contiguous"], ["transposed"], ["strided"]]))


def _real(dt):
    return {torch.complex64: torch.float32, torch.complex128: torch.float64}.get(dt, dt)


# ---- phases and reconstructions (what is unique in a decomposition) ----------------------------------------

def _as_torch(x):
    """A result of either library as a float64/complex128 torch tensor."""
    if isinstance(x, torch.Tensor):
        return x.detach().resolve_conj().resolve_neg().to(torch.complex128 if x.is_complex() else torch.float64)
    # converted by the library (ct_copy_to_buffer): bfloat16 is read as its values, not its bits
    return torch.from_numpy(np.ascontiguousarray(x.values(torch.complex128 if x.dtype.is_complex else torch.float64)))


def _phase_cols(u):
    """u with each column multiplied by the phase that makes its largest entry real and positive."""
    if u.numel() == 0:
        return u
    idx = u.abs().argmax(dim=-2, keepdim=True)
    top = torch.gather(u, -2, idx)
    ph = top / top.abs().clamp_min(1e-300)
    return u * ph.conj()


def _geom(x):
    if isinstance(x, torch.Tensor):
        return (tuple(x.shape), tuple(x.stride()), str(x.dtype))
    return (tuple(x.shape), tuple(x.stride()), str(x.dtype))


def _as_result(t, like):
    """t (float64/complex128) in like's dtype, as the library of like returns tensors."""
    t = t.to(like.dtype).clone(memory_format=torch.contiguous_format)
    return t if isinstance(like, torch.Tensor) else C.from_torch(t)


def _svd_unique(a, U, S, Vh, full):
    """(S, U's first k columns and Vh's first k rows phase-normalised, geometries, reconstruction and
    orthonormality as bools)."""
    u, s, vh, at = _as_torch(U), _as_torch(S), _as_torch(Vh), _as_torch(a)
    k = s.shape[-1]
    uk, vk = u[..., :, :k], vh[..., :k, :]
    idx = uk.abs().argmax(dim=-2, keepdim=True) if uk.numel() else None
    if idx is not None:
        top = torch.gather(uk, -2, idx)
        ph = top / top.abs().clamp_min(1e-300)
        uk = uk * ph.conj()
        vk = vk * ph.mT  # the row of Vh takes the conjugate phase's inverse
    tol = dict(rtol=1e-3, atol=1e-3)
    rec = torch.allclose(uk * s.unsqueeze(-2) @ vk, at, **tol) if at.numel() else True
    orth = torch.allclose(u.mH @ u, torch.eye(u.shape[-1], dtype=u.dtype).expand_as(u.mH @ u), **tol) \
        if u.numel() else True
    return (S, _as_result(uk, U), _as_result(vk, Vh), _geom(U), _geom(Vh), rec, orth)


def _eigh_unique(a, w, V, uplo):
    wt, v, at = _as_torch(w), _as_torch(V), _as_torch(a)
    herm = at.tril() + at.tril(-1).mH if uplo == "L" else at.triu() + at.triu(1).mH
    tol = dict(rtol=1e-3, atol=1e-3)
    rec = torch.allclose(herm @ v, v * wt.unsqueeze(-2).to(v.dtype), **tol) if v.numel() else True
    return (w, _as_result(_phase_cols(v), V), _geom(V), rec)


# ---- det, slogdet, logdet --------------------------------------------------------------------------------

def gen_det(precision, out=False):
    def gen(g):
        x, conj = _matrix(g, precision, g.choice(["good", "good", "singular", "rect"]))
        a = A(x, conj)
        if out:
            a.kw["out"] = _out(g, x.dtype, x.shape[:-2])
        return a
    return gen


def gen_slogdet_out(precision):
    def gen(g):
        x, conj = _matrix(g, precision, g.choice(["good", "singular"]))
        return A(x, conj, out=(_out(g, x.dtype, x.shape[:-2]), _out(g, _real(x.dtype), x.shape[:-2])))
    return gen


# ---- inv, solve --------------------------------------------------------------------------------------------

def gen_inv(precision, out=0):
    def gen(g):
        x, conj = _matrix(g, precision, g.choice(["good", "good", "good", "singular"]))
        a = A(x, conj, check=g.chance(0.3))
        if out == 1:
            a.kw["out"] = _out(g, x.dtype, x.shape)
        elif out == 2:
            a.kw["out"] = (_out(g, x.dtype, x.shape), _out(g, torch.int32, x.shape[:-2]))
        return a
    return gen


def gen_solve(precision, out=0):
    def gen(g):
        ba = _batch(g)
        x, conj = _matrix(g, precision, g.choice(["good", "good", "good", "singular"]), batch=ba)
        n = x.shape[-1] if len(x.shape) >= 1 else 0
        left = not g.chance(0.25)
        bdt = x.dtype if g.chance(0.95) else g.choice([torch.float64, torch.float32])
        r = g.random()
        if r < 0.3 and left:
            bshape = x.shape[:-1] if g.chance(0.5) else (n,)  # vectors
        else:
            k = g.int(0, 3)
            bb = g.choice([ba, ba[1:], (), (2,) + ba[1:], ba])
            bshape = bb + ((n, k) if left else (k, n))
            if g.chance(0.05):
                bshape = bb + (n + 1, k)  # incompatible
        bspec = Spec(bshape, bdt, g.layout(), base=_values(g, bshape, bdt, "rect"))
        a = A(x, conj, bspec, left=left, check=g.chance(0.3))
        if out:
            rs = None
            try:
                rs = tuple(torch.linalg.solve(torch.zeros(x.shape, dtype=torch.float64) + torch.eye(n),
                                              torch.zeros(bshape, dtype=torch.float64), left=left).shape)
            except Exception:
                rs = (2,)
            o = _out(g, x.dtype, rs)
            a.kw["out"] = o if out == 1 else (o, _out(g, torch.int32, x.shape[:-2]))
        return a
    return gen


def _sopts(left, check):
    return _ref(ct_linalg_solve_opts(not left, check))


# ---- cholesky --------------------------------------------------------------------------------------------

def gen_cholesky(precision, out=0):
    def gen(g):
        x, conj = _matrix(g, precision, g.choice(["spd", "spd", "spd", "notpd"]))
        a = A(x, conj, upper=g.chance(0.4), check=g.chance(0.3))
        if out == 1:
            a.kw["out"] = _out(g, x.dtype, x.shape)
        elif out == 2:
            a.kw["out"] = (_out(g, x.dtype, x.shape), _out(g, torch.int32, x.shape[:-2]))
        return a
    return gen


def _copts(upper, check):
    return _ref(ct_linalg_cholesky_opts(upper, check))


# ---- svd, eigh ---------------------------------------------------------------------------------------------

def gen_svd(precision, out=False):
    def gen(g):
        x, conj = _matrix(g, precision, "rect", square=False)
        a = A(x, conj, full=g.chance(0.5))
        if out:
            sh = x.shape
            a.kw["out"] = (_out(g, x.dtype, sh), _out(g, _real(x.dtype), sh[:-1]), _out(g, x.dtype, sh))
        return a
    return gen


def gen_svdvals(precision, out=False):
    def gen(g):
        x, conj = _matrix(g, precision, "rect", square=False)
        a = A(x, conj)
        if out:
            a.kw["out"] = _out(g, _real(x.dtype), x.shape[:-1])
        return a
    return gen


def gen_eigh(precision, out=0):
    def gen(g):
        x, conj = _matrix(g, precision, "herm")
        uplo = g.choice(["L", "U", "L", None]) if g.chance(0.97) else "X"
        a = A(x, conj, uplo=uplo)
        if out == 1:
            a.kw["out"] = _out(g, _real(x.dtype), x.shape[:-1])
        elif out == 2:
            a.kw["out"] = (_out(g, _real(x.dtype), x.shape[:-1]), _out(g, x.dtype, x.shape))
        return a
    return gen


def _eopts(uplo):
    return _ref(ct_linalg_eigh_opts(None if uplo is None else uplo.encode()))


def _t_svd(x, conj, full, out=None):
    a = _t_in(x, conj)
    U, S, Vh = torch.linalg.svd(a, full_matrices=full, out=out)
    return _svd_unique(a, U, S, Vh, full)


def _c_svd(x, conj, full, out=None):
    a = _c_in(x, conj)
    if out is None:
        U, S, Vh = _results("ct_linalg_svd", 3, a, opts=_ref(ct_linalg_svd_opts(not full)))
    else:
        U, S, Vh = _outs("ct_linalg_svd_out", out, a, _ref(ct_linalg_svd_opts(not full)))
    return _svd_unique(a, U, S, Vh, full)


def _t_eigh(x, conj, uplo, out=None):
    a = _t_in(x, conj)
    w, V = torch.linalg.eigh(a, **({} if uplo is None else {"UPLO": uplo}), out=out)
    return _eigh_unique(a, w, V, uplo or "L")


def _c_eigh(x, conj, uplo, out=None):
    a = _c_in(x, conj)
    if out is None:
        w, V = _results("ct_linalg_eigh", 2, a, opts=_eopts(uplo))
    else:
        w, V = _outs("ct_linalg_eigh_out", out, a, _eopts(uplo))
    return _eigh_unique(a, w, V, uplo or "L")


# LINALG_EXACT=1 (exploration, not `make diff`): every entry compared bit for bit. Both libraries make the same
# LAPACK calls, so most entries agree to the bit; this lists the ones whose composition around the calls differs.
_ALL_EXACT = os.environ.get("LINALG_EXACT") == "1"


def op_maker(p, exact=()):
    """The linalg tables' entry maker for precision p ("single" or "double"): the name takes the precision's
    suffix ("", "_f64"), values are compared within TOL[p], or bit for bit for the names in exact."""
    sfx = "" if p == "single" else "_f64"

    def op(name, gen, t, c, **kw):
        return Op(name + sfx, gen, torch=t, ct=c, tol=None if name in exact or _ALL_EXACT else TOL[p], **kw)
    return op


# compared bit for bit: composed from getrf's U as torch composes them (det.c)
_EXACT = ("linalg_det", "det", "linalg_det_out", "linalg_slogdet", "slogdet", "linalg_slogdet_out", "slogdet_out",
          "logdet")


def _ops(p):
    op = op_maker(p, _EXACT)

    return [
        op("linalg_det", gen_det(p), lambda x, cj: torch.linalg.det(_t_in(x, cj)),
           lambda x, cj: _call("ct_linalg_det", _c_in(x, cj))),
        op("det", gen_det(p), lambda x, cj: torch.det(_t_in(x, cj)), lambda x, cj: _call("ct_det", _c_in(x, cj))),
        op("linalg_det_out", gen_det(p, out=True), lambda x, cj, out: torch.linalg.det(_t_in(x, cj), out=out),
           lambda x, cj, out: _outs("ct_linalg_det_out", [out], _c_in(x, cj))),
        op("linalg_slogdet", gen_det(p), lambda x, cj: tuple(torch.linalg.slogdet(_t_in(x, cj))),
           lambda x, cj: _results("ct_linalg_slogdet", 2, _c_in(x, cj))),
        op("slogdet", gen_det(p), lambda x, cj: tuple(torch.slogdet(_t_in(x, cj))),
           lambda x, cj: _results("ct_slogdet", 2, _c_in(x, cj))),
        op("linalg_slogdet_out", gen_slogdet_out(p),
           lambda x, cj, out: tuple(torch.linalg.slogdet(_t_in(x, cj), out=out)),
           lambda x, cj, out: _outs("ct_linalg_slogdet_out", list(out), _c_in(x, cj))),
        op("slogdet_out", gen_slogdet_out(p), lambda x, cj, out: tuple(torch.slogdet(_t_in(x, cj), out=out)),
           lambda x, cj, out: _outs("ct_slogdet_out", list(out), _c_in(x, cj))),
        op("logdet", gen_det(p), lambda x, cj: torch.logdet(_t_in(x, cj)), lambda x, cj: _call("ct_logdet", _c_in(x, cj))),
        op("linalg_inv", gen_inv(p), lambda x, cj, check: torch.linalg.inv(_t_in(x, cj)),
           lambda x, cj, check: _call("ct_linalg_inv", _c_in(x, cj))),
        op("inverse", gen_inv(p), lambda x, cj, check: torch.inverse(_t_in(x, cj)),
           lambda x, cj, check: _call("ct_inverse", _c_in(x, cj))),
        op("linalg_inv_out", gen_inv(p, 1), lambda x, cj, check, out: torch.linalg.inv(_t_in(x, cj), out=out),
           lambda x, cj, check, out: _outs("ct_linalg_inv_out", [out], _c_in(x, cj))),
        op("inverse_out", gen_inv(p, 1), lambda x, cj, check, out: torch.inverse(_t_in(x, cj), out=out),
           lambda x, cj, check, out: _outs("ct_inverse_out", [out], _c_in(x, cj))),
        op("linalg_inv_ex", gen_inv(p), lambda x, cj, check: tuple(torch.linalg.inv_ex(_t_in(x, cj), check_errors=check)),
           lambda x, cj, check: _results("ct_linalg_inv_ex", 2, _c_in(x, cj), opts=_ref(ct_linalg_ex_opts(check)))),
        op("linalg_inv_ex_out", gen_inv(p, 2),
           lambda x, cj, check, out: tuple(torch.linalg.inv_ex(_t_in(x, cj), check_errors=check, out=out)),
           lambda x, cj, check, out: _outs("ct_linalg_inv_ex_out", list(out), _c_in(x, cj),
                                           _ref(ct_linalg_ex_opts(check)))),
        op("linalg_solve", gen_solve(p), lambda x, cj, b, left, check: torch.linalg.solve(_t_in(x, cj), b, left=left),
           lambda x, cj, b, left, check: _call("ct_linalg_solve", _c_in(x, cj), b, _sopts(left, False)), weight=2),
        op("linalg_solve_out", gen_solve(p, 1),
           lambda x, cj, b, left, check, out: torch.linalg.solve(_t_in(x, cj), b, left=left, out=out),
           lambda x, cj, b, left, check, out: _outs("ct_linalg_solve_out", [out], _c_in(x, cj), b,
                                                    _sopts(left, False))),
        op("linalg_solve_ex", gen_solve(p),
           lambda x, cj, b, left, check: tuple(torch.linalg.solve_ex(_t_in(x, cj), b, left=left, check_errors=check)),
           lambda x, cj, b, left, check: _results("ct_linalg_solve_ex", 2, _c_in(x, cj), b, opts=_sopts(left, check))),
        op("linalg_solve_ex_out", gen_solve(p, 2),
           lambda x, cj, b, left, check, out: tuple(torch.linalg.solve_ex(_t_in(x, cj), b, left=left,
                                                                          check_errors=check, out=out)),
           lambda x, cj, b, left, check, out: _outs("ct_linalg_solve_ex_out", list(out), _c_in(x, cj), b,
                                                    _sopts(left, check))),
        op("linalg_cholesky", gen_cholesky(p),
           lambda x, cj, upper, check: torch.linalg.cholesky(_t_in(x, cj), upper=upper),
           lambda x, cj, upper, check: _call("ct_linalg_cholesky", _c_in(x, cj), _copts(upper, False))),
        op("linalg_cholesky_out", gen_cholesky(p, 1),
           lambda x, cj, upper, check, out: torch.linalg.cholesky(_t_in(x, cj), upper=upper, out=out),
           lambda x, cj, upper, check, out: _outs("ct_linalg_cholesky_out", [out], _c_in(x, cj), _copts(upper, False))),
        op("linalg_cholesky_ex", gen_cholesky(p),
           lambda x, cj, upper, check: tuple(torch.linalg.cholesky_ex(_t_in(x, cj), upper=upper, check_errors=check)),
           lambda x, cj, upper, check: _results("ct_linalg_cholesky_ex", 2, _c_in(x, cj), opts=_copts(upper, check))),
        op("linalg_cholesky_ex_out", gen_cholesky(p, 2),
           lambda x, cj, upper, check, out: tuple(torch.linalg.cholesky_ex(_t_in(x, cj), upper=upper,
                                                                          check_errors=check, out=out)),
           lambda x, cj, upper, check, out: _outs("ct_linalg_cholesky_ex_out", list(out), _c_in(x, cj),
                                                  _copts(upper, check))),
        op("cholesky", gen_cholesky(p), lambda x, cj, upper, check: torch.cholesky(_t_in(x, cj), upper=upper),
           lambda x, cj, upper, check: _call("ct_cholesky", _c_in(x, cj), _copts(upper, False))),
        op("cholesky_out", gen_cholesky(p, 1),
           lambda x, cj, upper, check, out: torch.cholesky(_t_in(x, cj), upper=upper, out=out),
           lambda x, cj, upper, check, out: _outs("ct_cholesky_out", [out], _c_in(x, cj), _copts(upper, False))),
        op("linalg_svd", gen_svd(p), _t_svd, _c_svd, weight=2),
        op("linalg_svd_out", gen_svd(p, True), _t_svd, _c_svd),
        op("linalg_svdvals", gen_svdvals(p), lambda x, cj: torch.linalg.svdvals(_t_in(x, cj)),
           lambda x, cj: _call("ct_linalg_svdvals", _c_in(x, cj))),
        op("linalg_svdvals_out", gen_svdvals(p, True), lambda x, cj, out: torch.linalg.svdvals(_t_in(x, cj), out=out),
           lambda x, cj, out: _outs("ct_linalg_svdvals_out", [out], _c_in(x, cj))),
        op("linalg_eigh", gen_eigh(p), _t_eigh, _c_eigh, weight=2),
        op("linalg_eigh_out", gen_eigh(p, 2), _t_eigh, _c_eigh),
        op("linalg_eigvalsh", gen_eigh(p),
           lambda x, cj, uplo: torch.linalg.eigvalsh(_t_in(x, cj), **({} if uplo is None else {"UPLO": uplo})),
           lambda x, cj, uplo: _call("ct_linalg_eigvalsh", _c_in(x, cj), _eopts(uplo))),
        op("linalg_eigvalsh_out", gen_eigh(p, 1),
           lambda x, cj, uplo, out: torch.linalg.eigvalsh(_t_in(x, cj), **({} if uplo is None else {"UPLO": uplo}),
                                                          out=out),
           lambda x, cj, uplo, out: _outs("ct_linalg_eigvalsh_out", [out], _c_in(x, cj), _eopts(uplo))),
    ]


OPS = _ops("single") + _ops("double")
