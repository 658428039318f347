"""Entries for include/ctorch/matmul.h: mm, bmm, matmul/linalg.matmul, mv, dot, vdot, inner, outer/ger,
addmm, addmv, addr, addbmm, baddbmm (functional, in place, out=), linalg.multi_dot, chain_matmul,
tensordot (int and list dims), einsum, trace, cross/linalg.cross and linalg.vecdot, against torch 1.13.

Inputs: every dtype (torch refuses bool and float16 products: its messages are compared), the suite's
layouts (transposed, stepped, expanded, offset), conjugate views of complex operands, empty and 0-dim
tensors, batch 0, shapes around torch's 400-multiply-add bmm threshold and the 8x8x8 batches of the
small-matrix path, beta/alpha of every kind (beta 0 with NaN in the input), mismatched dtypes and shapes.

Values are compared bit for bit where ctorch makes torch's BLAS call or runs torch's own loop (the
float/double/complex BLAS products, integer products, bfloat16 gemm/dot/bmm); the ops whose torch kernel
ctorch reaches through other operators (einsum and tensordot's sums, addr's fused scalar tail, cross,
vecdot) are compared within assert_close's tolerances (TOL)."""
import ctypes

import torch

import ctorch as C
import data as D
from harness import A, Op, Spec

L = C.lib
ALL = D.DTYPES
FLOATS = [torch.float32, torch.float64, torch.complex64, torch.complex128]
PROD = [torch.float32, torch.float64, torch.complex64, torch.complex128, torch.int64, torch.int32, torch.int8,
        torch.uint8, torch.int16, torch.bfloat16]
# torch.testing.assert_close's defaults by dtype are at most these (bfloat16: 1.6e-2, 1e-5)
TOL = (1.6e-2, 1e-5)


class ct_addmm_opts(ctypes.Structure):
    _fields_ = [("beta", C.ct_scalar), ("alpha", C.ct_scalar)]


class ct_cross_opts(ctypes.Structure):
    _fields_ = [("dim", C.ct_shape)]


def _call(name, *args):
    return C.own(L().fn(name)(*args))


def _st(name, x, *args):
    C.check(L().fn(name)(x, *args))
    return x


def _opts(beta, alpha):
    o = ct_addmm_opts()
    if beta is not None:
        o.beta = C.ct_scalar.of(beta)
    if alpha is not None:
        o.alpha = C.ct_scalar.of(alpha)
    return ctypes.byref(o)


def _tkw(beta, alpha):
    kw = {}
    if beta is not None:
        kw["beta"] = beta
    if alpha is not None:
        kw["alpha"] = alpha
    return kw


_keep = []


def _cross_opts(dim):
    o = ct_cross_opts()
    if dim is not None:
        arr = (ctypes.c_int64 * 1)(dim)
        _keep.append(arr)
        o.dim = C.ct_shape(ctypes.cast(arr, ctypes.POINTER(ctypes.c_int64)), 1)
    return ctypes.byref(o)


def _dims(d):
    arr = (ctypes.c_int64 * max(len(d), 1))(*d)
    _keep.append(arr)
    return C.ct_shape(ctypes.cast(arr, ctypes.POINTER(ctypes.c_int64)), len(d))


# conjugate views, made inside the callables by the same recipe in both libraries
def tconj(x, c):
    return x.conj() if c and x.is_complex() else x


def cconj(x, c):
    return _call("ct_conj", x) if c and x.dtype in (torch.complex64, torch.complex128) else x


# ---- drawing ---------------------------------------------------------------------------------------------

def _size(g, big=False):
    r = g.random()
    if r < 0.06:
        return 0
    if big and r < 0.3:
        return g.int(9, 40)
    return g.int(1, 5)


def _dtype(g, among=None):
    return g.dtype(among or (PROD if g.chance(0.9) else ALL))


def _other_dtype(g, dt):
    return g.dtype() if g.chance(0.08) else dt


def _out(g, shape, dt):
    """An out= tensor in any layout but an expanded one: torch writes an expanded out through BLAS (each
    element the last of several writes) or fills it, ctorch refuses a written tensor whose elements
    overlap (tests/diff/README.md, deliberate differences)."""
    return g.tensor(shape, dt, layout=[g.choice(["contiguous", "transposed", "strided", "offset"])])


def _mat(g, r, c, dt):
    return g.tensor((r, c), dt)


def gen_mm(g):
    dt = _dtype(g)
    m, k, n = _size(g, True), _size(g, True), _size(g, True)
    k2 = k if g.chance(0.92) else k + 1
    a = g.tensor(g.shape(max_ndim=3)) if g.chance(0.04) else _mat(g, m, k, dt)
    return A(a, _mat(g, k2, n, _other_dtype(g, dt)), g.chance(0.3), g.chance(0.3))


def gen_mm_out(g):
    a = gen_mm(g)
    x, y = a.args[0], a.args[1]
    shape = (x.shape[0], y.shape[-1]) if len(x.shape) == 2 and len(y.shape) == 2 else (2, 2)
    if g.chance(0.3):
        return A(x, y, False, False, out=_out(g, g.shape(max_numel=12), x.dtype if g.chance(0.8) else g.dtype()))
    return A(x, y, False, False, out=_out(g, shape, x.dtype if g.chance(0.9) else g.dtype()))


def _coef(g, dt):
    r = g.random()
    if r < 0.25:
        return None
    if r < 0.35:
        return 0
    if r < 0.45:
        return 0.0
    if dt in (torch.float32, torch.float64, torch.bfloat16, torch.float16) or (dt.is_complex and r < 0.7):
        return g.choice([0.5, -2.0, 1.5, 3])
    if dt.is_complex:
        return complex(0.5, -1.0)
    return g.choice([2, -1, 3]) if g.chance(0.95) else 0.5


def gen_addmm(g):
    dt = _dtype(g)
    m, k, n = _size(g, True), _size(g, True), _size(g, True)
    r = g.random()
    sshape = (m, n) if r < 0.6 else (n,) if r < 0.8 else (1, n) if r < 0.9 else ()
    if g.chance(0.04):
        sshape = (m + 1, n)
    return A(g.tensor(sshape, dt), _mat(g, m, k, _other_dtype(g, dt)), _mat(g, k, n, dt), _coef(g, dt), _coef(g, dt))


def gen_addmm_(g):
    a = gen_addmm(g)
    s, m1, m2, be, al = a.args
    if g.chance(0.9):
        s = g.tensor((m1.shape[0], m2.shape[1]), s.dtype, layout=g.choice([["contiguous"], ["transposed"], ["strided"]]))
    return A(s, m1, m2, be, al)


def gen_addmm_out(g):
    a = gen_addmm(g)
    s, m1, m2, be, al = a.args
    shape = (m1.shape[0], m2.shape[1])
    # an expanded out is a deliberate difference (_out; fresh seed 326753944 addmm_out cases 53 and 87 drew one)
    out = _out(g, shape if g.chance(0.8) else g.shape(max_numel=12), s.dtype if g.chance(0.9) else g.dtype())
    return A(s, m1, m2, be, al, out=out)


def gen_bmm(g):
    dt = _dtype(g)
    r = g.random()
    if r < 0.25:  # torch's 400 threshold and the batched small-matrix path
        b, m, k, n = g.int(1, 12), g.choice([7, 8, 9]), g.choice([7, 8]), g.choice([7, 8, 9])
    else:
        b, m, k, n = _size(g), _size(g), _size(g, True), _size(g)
    k2 = k if g.chance(0.93) else k + 1
    b2 = b if g.chance(0.97) else b + 1
    x = g.tensor((b, m, k), dt) if g.chance(0.96) else g.tensor((m, k), dt)
    y = g.tensor((b2, k2, n), _other_dtype(g, dt))
    return A(x, y, g.chance(0.2), g.chance(0.2))


def gen_bmm_out(g):
    a = gen_bmm(g)
    x, y = a.args[0], a.args[1]
    shape = (x.shape[0], x.shape[-2], y.shape[-1]) if len(x.shape) == 3 else (1, 1, 1)
    return A(x, y, False, False, out=_out(g, shape if g.chance(0.8) else g.shape(max_numel=12),
                                                y.dtype if g.chance(0.9) else g.dtype()))


def gen_baddbmm(g, inplace=False):
    a = gen_bmm(g)
    x, y = a.args[0], a.args[1]
    b = x.shape[0] if len(x.shape) == 3 else 1
    shape = (b, x.shape[-2], y.shape[-1])
    r = g.random()
    sshape = shape if r < 0.6 else shape[1:] if r < 0.8 else (1, shape[-1])
    beta = _coef(g, x.dtype)
    if beta == 0 and x.shape[-1] * x.shape[-2] * y.shape[-1] < 400 and not inplace:
        # torch 1.13's small-matrix loop with beta 0 reads the result before writing it, and its meta
        # function leaves the result uninitialized when beta is 0 (a NaN there can survive): not comparable,
        # but in place (baddbmm_) the result is self, read as r * 0 (NaN and inf there make NaN)
        beta = 2
    alpha = _coef(g, x.dtype)
    if x.dtype == torch.bfloat16 and beta == 0 and alpha == 0 and b * shape[1] * x.shape[-1] * shape[2] > 4096:
        alpha = 1  # torch's oneDNN route returns before writing the result (mm_dnnl.c): not comparable
    return A(g.tensor(sshape, x.dtype), x, y, beta, alpha)


def gen_baddbmm_(g):
    a = gen_baddbmm(g, inplace=True)
    s, x, y, be, al = a.args
    if g.chance(0.9) and len(x.shape) == 3:
        s = _out(g, (x.shape[0], x.shape[1], y.shape[2]), s.dtype)
    else:
        s = _out(g, s.shape, s.dtype)
    return A(s, x, y, be, al)


def gen_baddbmm_out(g):
    a = gen_baddbmm(g)
    s, x, y, be, al = a.args
    b = x.shape[0] if len(x.shape) == 3 else 1
    shape = (b, x.shape[-2], y.shape[-1])
    return A(s, x, y, be, al, out=_out(g, shape, y.dtype if g.chance(0.9) else g.dtype()))


def gen_addbmm(g):
    dt = _dtype(g)
    b, m, k, n = g.int(0, 4), _size(g), _size(g), _size(g)
    sshape = (m, n) if g.chance(0.7) else (n,)
    return A(g.tensor(sshape, dt), g.tensor((b, m, k), dt), g.tensor((b, k, n), _other_dtype(g, dt)),
             _coef(g, dt), _coef(g, dt))


def gen_addbmm_(g):
    a = gen_addbmm(g)
    s, x, y, be, al = a.args
    return A(_out(g, (x.shape[1], y.shape[2]), s.dtype), x, y, be, al)


def gen_addbmm_out(g):
    a = gen_addbmm(g)
    s, x, y, be, al = a.args
    return A(s, x, y, be, al, out=_out(g, (x.shape[1], y.shape[2]), s.dtype))


def _batch(g, n):
    return tuple(g.choice([1, 2, 3]) for _ in range(n))


def gen_matmul(g):
    dt = _dtype(g)
    d1, d2 = g.int(0 if g.chance(0.05) else 1, 4), g.int(1, 4)
    if d1 == 1 and d2 == 1 and dt.is_complex:  # torch's complex dot returns 0 (gen_dot_complex)
        dt = torch.float64
    m, k, n = _size(g), _size(g, True), _size(g)
    b1, b2 = _batch(g, max(d1 - 2, 0)), _batch(g, max(d2 - 2, 0))
    s1 = () if d1 == 0 else (k,) if d1 == 1 else b1 + (m, k)
    k2 = k if g.chance(0.95) else k + 1
    s2 = (k2,) if d2 == 1 else b2 + (k2, n)
    return A(g.tensor(s1, dt), g.tensor(s2, _other_dtype(g, dt)), g.chance(0.2), g.chance(0.2))


def gen_matmul_out(g):
    a = gen_matmul(g)
    x, y = a.args[0], a.args[1]
    return A(x, y, False, False, out=_out(g, g.shape(max_numel=24), x.dtype if g.chance(0.9) else g.dtype()))


def gen_mv(g):
    dt = _dtype(g)
    m, n = _size(g, True), _size(g, True)
    n2 = n if g.chance(0.93) else n + 1
    x = g.tensor((m, n), dt) if g.chance(0.95) else g.tensor((n,), dt)
    return A(x, g.tensor((n2,), _other_dtype(g, dt)), g.chance(0.2))


def gen_mv_out(g):
    a = gen_mv(g)
    x, v = a.args[0], a.args[1]
    return A(x, v, False, out=_out(g, (x.shape[0],), x.dtype if g.chance(0.9) else g.dtype()))


def gen_addmv(g):
    dt = _dtype(g)
    m, n = _size(g, True), _size(g, True)
    sshape = (m,) if g.chance(0.8) else (1,) if g.chance(0.5) else ()
    return A(g.tensor(sshape, dt), g.tensor((m, n), dt), g.tensor((n,), _other_dtype(g, dt)), _coef(g, dt), _coef(g, dt))


def gen_addmv_(g):
    a = gen_addmv(g)
    s, m, v, be, al = a.args
    return A(_out(g, (m.shape[0],), s.dtype), m, v, be, al)


def gen_addmv_out(g):
    a = gen_addmv(g)
    s, m, v, be, al = a.args
    return A(s, m, v, be, al, out=_out(g, (m.shape[0],), v.dtype if g.chance(0.9) else g.dtype()))


REAL_PROD = [d for d in PROD if not d.is_complex]
CPLX = [torch.complex64, torch.complex128]


def gen_dot(g):
    dt = _dtype(g, REAL_PROD)
    n = _size(g, True)
    n2 = n if g.chance(0.93) else n + 1
    x = g.tensor((n,), dt) if g.chance(0.95) else g.tensor((n, 2), dt)
    return A(x, g.tensor((n2,), _other_dtype(g, dt)), g.chance(0.3), g.chance(0.3))


def gen_dot_complex(g):
    n = _size(g, True)
    dt = g.choice(CPLX)
    # finite values (no specials): the reference below sums in another order than BLAS, which decides
    # between inf and NaN once infinities meet
    return A(Spec((n,), dt, g.layout(), specials=False), Spec((n,), dt, g.layout(), specials=False),
             g.chance(0.3), g.chance(0.3))


def tdot_ref(vdot):
    """torch 1.13 on Debian returns 0 for every complex dot/vdot (its cdotu_/cdotc_ declaration does not
    match OpenBLAS's Fortran ABI; see tests/diff/README.md): the reference is torch's own sum of the
    products, within TOL, returned as a conjugate view where torch's dot returns one (dot of two
    conjugate views, vdot of a plain and a conjugate view). On meta (ops_meta_core) there are no values and
    torch's own function is the reference: meta_dot reads no conjugate bit (a plain result)."""
    def f(x, y, c1, c2):
        x, y = tconj(x, c1), tconj(y, c2)
        if x.is_meta:
            return (torch.vdot if vdot else torch.dot)(x, y)
        r = ((x.conj() if vdot else x) * y).sum()
        if (not vdot and c1 and c2) or (vdot and c2 and not c1):
            r = torch.conj(r.conj().resolve_conj())
        return r
    return f


def gen_dot_out(g):
    a = gen_dot(g)
    x, y = a.args[0], a.args[1]
    return A(x, y, False, False, out=_out(g, g.shape(max_ndim=1, max_numel=3), x.dtype if g.chance(0.9) else g.dtype()))


def gen_inner(g):
    dt = _dtype(g)
    k = _size(g)
    s1 = g.shape(max_ndim=2, max_numel=8) + ((k,) if g.chance(0.9) else ())
    s2 = g.shape(max_ndim=2, max_numel=8) + ((k if g.chance(0.95) else k + 1,) if g.chance(0.9) else ())
    return A(g.tensor(s1, dt), g.tensor(s2, _other_dtype(g, dt)))


def gen_inner_out(g):
    a = gen_inner(g)
    x, y = a.args
    return A(x, y, out=_out(g, g.shape(max_numel=12), x.dtype if g.chance(0.9) else g.dtype()))


def gen_outer(g):
    dt = _dtype(g, ALL)
    x = g.tensor((_size(g),), dt) if g.chance(0.95) else g.tensor((2, 2), dt)
    return A(x, g.tensor((_size(g),), g.dtype() if g.chance(0.3) else dt))


def gen_outer_out(g):
    x, y = gen_outer(g).args
    shape = (x.shape[0], y.shape[0]) if len(x.shape) == 1 else (2, 2)
    return A(x, y, out=_out(g, shape, g.dtype()))


def _addr_coef(g, dt):
    r = g.random()
    if r < 0.3:
        return None
    if r < 0.4:
        return 0
    if r < 0.45:
        return True if dt == torch.bool else False
    if dt.is_floating_point or dt.is_complex:
        return g.choice([0.5, -2.0, 3, 0.0])
    return g.choice([2, -1, 3]) if g.chance(0.9) else 0.5


def gen_addr(g):
    dt = _dtype(g, ALL)
    m, n = _size(g), _size(g)
    sshape = (m, n) if g.chance(0.6) else (n,) if g.chance(0.5) else ()
    dt2 = g.dtype() if g.chance(0.2) else dt
    return A(g.tensor(sshape, dt), g.tensor((m,), dt2), g.tensor((n,), dt), _addr_coef(g, dt), _addr_coef(g, dt))


def gen_addr_(g):
    s, x, y, be, al = gen_addr(g).args
    return A(_out(g, (x.shape[0], y.shape[0]), s.dtype), x, y, be, al)


def gen_addr_out(g):
    s, x, y, be, al = gen_addr(g).args
    return A(s, x, y, be, al, out=_out(g, (x.shape[0], y.shape[0]), g.dtype()))


def gen_addr_rows(g):
    """addr with rows long enough for torch's vector blocks (2 vectors: 16 float32, 8 float64 or complex64, 4
    complex128) and the scalar lambda's unrolled blocks and leftovers after them, in float and complex, self
    laid out every way (contiguous, transposed: the iterator's rows run down the columns, a broadcast row or
    column, a 0-dim number: two broadcast operands)."""
    dt = g.dtype(FLOATS)
    m, n = g.int(1, 6), g.int(1, 70)
    if g.chance(0.5):
        m, n = n, m
    sshape = g.choice([(m, n), (m, n), (n,), (m, 1), ()])
    coef = lambda: g.choice([0.5, -2.0, 3, 0.7 - 1.3j if dt.is_complex else 0.7, 0, None])
    return A(g.tensor(sshape, dt), g.tensor((m,), dt), g.tensor((n,), dt), coef(), coef())


def gen_addr_rows_(g):
    s, x, y, be, al = gen_addr_rows(g).args
    return A(_out(g, (x.shape[0], y.shape[0]), s.dtype), x, y, be, al)


def gen_addr_rows_out(g):
    s, x, y, be, al = gen_addr_rows(g).args
    return A(s, x, y, be, al, out=_out(g, (x.shape[0], y.shape[0]), s.dtype))


def _bf(g, shape):
    return g.tensor(shape, torch.bfloat16)


def _beta_alpha(coef):
    """beta and alpha, not both 0: torch's oneDNN route for baddbmm / addmv returns before the product when alpha
    is 0, and with beta 0 its result is memory it never wrote (ctorch writes zeros there)."""
    be, al = coef(), coef()
    return (be, 1 if al == 0 else al) if be == 0 else (be, al)


def gen_bf16_route(g):
    """bfloat16 products around torch's oneDNN threshold (m * k * n, batch * m * k * n, m * k for mv, n for dot
    above 16^3 on a CPU with AVX-512 BW/VL/DQ: kernels/cpu/dnnl.h), every layout of the suite, beta / alpha (0
    too: alpha 0 leaves the result as torch's route does), on any CPU: elsewhere both run torch's own loops."""
    kind = g.choice(["mm", "addmm", "bmm", "baddbmm", "mv", "addmv", "dot", "matmul"])
    m, k, n = g.int(1, 40), g.int(1, 40), g.int(1, 40)
    if kind == "mm" and g.chance(0.3):
        m, k, n = 16, 16, g.choice([16, 17])  # at and just above the threshold
    coef = lambda: g.choice([None, 0, 0.5, -2.0, 1])
    if kind in ("mm", "matmul"):
        return A(kind, _bf(g, (m, k)), _bf(g, (k, n)), None, None, None)
    if kind == "addmm":
        return A(kind, _bf(g, (m, k)), _bf(g, (k, n)), _bf(g, g.choice([(m, n), (n,), ()])), coef(), coef())
    b = g.int(1, 6)
    if kind == "bmm":
        return A(kind, _bf(g, (b, m, k)), _bf(g, (b, k, n)), None, None, None)
    if kind == "baddbmm":
        be, al = _beta_alpha(coef)
        if be == 0 and b * m * k * n <= 4096:  # torch's own loop reads its unwritten result times beta 0
            be = 0.5
        return A(kind, _bf(g, (b, m, k)), _bf(g, (b, k, n)), _bf(g, (b, m, n)), be, al)
    big = g.int(40, 300)
    if kind == "mv":
        return A(kind, _bf(g, (big, k)), _bf(g, (k,)), None, None, None)
    if kind == "addmv":
        return A(kind, _bf(g, (big, k)), _bf(g, (k,)), _bf(g, (big,)), *_beta_alpha(coef))
    nn = g.choice([4096, 4097, g.int(1, 9000)])
    return A(kind, _bf(g, (nn,)), _bf(g, (nn,)), None, None, None)


def _t_bf16_route(kind, x, y, c, be, al):
    f = getattr(torch, kind)
    return f(c, x, y, **_tkw(be, al)) if c is not None else f(x, y)


def _c_bf16_route(kind, x, y, c, be, al):
    name = "ct_" + kind
    return _call(name, c, x, y, _opts(be, al)) if c is not None else _call(name, x, y)


def gen_tensordot(g):
    dt = _dtype(g, FLOATS + [torch.int64, torch.int32])
    d = g.int(0, 2) if g.chance(0.95) else -1
    common = tuple(g.choice([1, 2, 3]) for _ in range(max(d, 0)))
    a = g.shape(max_ndim=2, max_numel=6) + common
    b = common + g.shape(max_ndim=2, max_numel=6)
    if g.chance(0.05) and common:
        b = (common[0] + 1,) + b[1:]
    return A(g.tensor(a, dt), g.tensor(b, _other_dtype(g, dt)), d)


def gen_tensordot_dims(g):
    dt = _dtype(g, FLOATS + [torch.int64])
    n = g.int(1, 3)
    a = tuple(g.choice([1, 2, 3]) for _ in range(n + g.int(0, 1)))
    k = g.int(0, min(2, len(a)))
    dims_a = sorted(g.shuffled(range(len(a)))[:k])
    b_extra = g.shape(max_ndim=1, max_numel=3)
    b = tuple(a[i] for i in dims_a) + b_extra
    dims_b = list(range(k))
    if g.chance(0.5):
        dims_a = [d - len(a) for d in dims_a]
    return A(g.tensor(a, dt), g.tensor(b, dt), dims_a, dims_b)


def gen_multi_dot(g):
    dt = _dtype(g, FLOATS + [torch.int64, torch.bfloat16])
    n = g.int(2, 5) if g.chance(0.95) else 1
    sizes = [g.int(1, 6) for _ in range(n + 1)]
    ts = []
    for i in range(n):
        shape = (sizes[i], sizes[i + 1])
        if i == 0 and g.chance(0.2):
            shape = (sizes[1],)
        if i == n - 1 and n > 1 and g.chance(0.2):
            shape = (sizes[i],)
        ts.append(g.tensor(shape, dt if g.chance(0.97) else g.dtype()))
    return A(ts)


def _with_out(gen):
    def f(g):
        a = gen(g)
        first = a.args[0]
        dt = (first[0].dtype if isinstance(first, list) else first.dtype) if g.chance(0.9) else g.dtype()
        return A(*a.args, out=_out(g, g.shape(max_ndim=2, max_numel=6), dt))
    return f


def gen_chain_matmul(g):
    dt = _dtype(g, FLOATS + [torch.int64])
    n = g.int(1, 4)
    sizes = [g.int(1, 5) for _ in range(n + 1)]
    return A([g.tensor((sizes[i], sizes[i + 1]) if g.chance(0.97) else (sizes[i],), dt) for i in range(n)])


EQUATIONS = [
    ("ij,jk->ik", [("i", "j"), ("j", "k")]), ("ij,jk", [("i", "j"), ("j", "k")]),
    ("bij,bjk->bik", [("b", "i", "j"), ("b", "j", "k")]), ("ii->i", [("i", "i")]), ("ii", [("i", "i")]),
    ("i,i->", [("i",), ("i",)]), ("i,j->ij", [("i",), ("j",)]), ("ij->ji", [("i", "j")]),
    ("...ij,...jk->...ik", [("x", "i", "j"), ("j", "k")]), ("ij,kj,k->i", [("i", "j"), ("k", "j"), ("k",)]),
    ("bn,anm,bm->ba", [("b", "n"), ("a", "n", "m"), ("b", "m")]), ("i...->...", [("i", "x", "y")]),
    ("abc,cd->abd", [("a", "b", "c"), ("c", "d")]), ("aB,Bc->ac", [("a", "B"), ("B", "c")]),
    ("ij,ij->ij", [("i", "j"), ("i", "j")]), ("ijk->", [("i", "j", "k")]), ("i i", [("i", "i")]),
    ("ij,jk->ki", [("i", "j"), ("j", "k")]), ("ij,jk->iik", None), ("i.j->i", None), ("ij,jk->iz", None),
    ("ij->ij", [("i",)]), ("ij,jk", [("i", "j")]), ("i1->i", None),
]


def gen_einsum(g):
    eq, labels = g.choice(EQUATIONS)
    dt = _dtype(g, FLOATS + [torch.int64, torch.int32])
    if labels is None:
        labels = [("i", "j"), ("j", "k")]
    size = {lb: g.int(0 if g.chance(0.04) else 1, 4) for lb in "ijkabncmxyBd"}
    ts = [g.tensor(tuple(size[lb] for lb in op), dt) for op in labels]
    return A(eq, ts)


def gen_trace(g):
    dt = g.dtype()
    shape = (_size(g), _size(g)) if g.chance(0.9) else g.shape(max_ndim=3)
    return A(g.tensor(shape, dt), g.chance(0.2))


def gen_cross(g):
    dt = _dtype(g, FLOATS + [torch.int64, torch.int32, torch.float16])
    nd = g.int(1, 3)
    shape = [g.int(1, 3) for _ in range(nd)]
    d = g.int(0, nd - 1)
    shape[d] = 3 if g.chance(0.93) else 2
    s2 = list(shape)
    for i in range(nd):
        if i != d and g.chance(0.3):
            s2[i] = 1
    dim = (d if g.chance(0.5) else d - nd) if g.chance(0.7) else None
    return A(g.tensor(tuple(shape), dt), g.tensor(tuple(s2), _other_dtype(g, dt)), dim)


def gen_cross_out(g):
    x, y, dim = gen_cross(g).args
    return A(x, y, dim, out=_out(g, x.shape, x.dtype if g.chance(0.9) else g.dtype()))


def gen_vecdot(g):
    dt = _dtype(g, FLOATS + [torch.int64, torch.bfloat16])
    shape = g.shape(min_ndim=1, max_ndim=3, max_numel=12)
    if dt.is_complex and len(shape) == 1:  # torch reaches its complex dot there, which returns 0 (gen_dot_complex)
        shape = (1,) + shape
    s2 = tuple(1 if g.chance(0.2) else s for s in shape)
    dim = g.dim(len(shape)) if g.chance(0.6) else None
    return A(g.tensor(shape, dt), g.tensor(s2, _other_dtype(g, dt)), dim)


def gen_vecdot_out(g):
    x, y, dim = gen_vecdot(g).args
    return A(x, y, dim, out=_out(g, g.shape(max_numel=8), x.dtype))


# ---- callables -------------------------------------------------------------------------------------------

def _ctv(name):
    return lambda x, y, c1, c2: _call(name, cconj(x, c1), cconj(y, c2))


def _tv(fn):
    return lambda x, y, c1, c2: fn(tconj(x, c1), tconj(y, c2))


def _ct_out(name):
    return lambda x, y, c1, c2, out: _st(name, out, x, y)


def _t_add(fn):
    return lambda s, x, y, be, al: fn(s, x, y, **_tkw(be, al))


def _c_add(name):
    return lambda s, x, y, be, al: _call(name, s, x, y, _opts(be, al))


def _t_add_(meth):
    return lambda s, x, y, be, al: getattr(s, meth)(x, y, **_tkw(be, al))


def _c_add_(name):
    return lambda s, x, y, be, al: _st(name, s, x, y, _opts(be, al))


def _t_add_out(fn):
    return lambda s, x, y, be, al, out: fn(s, x, y, **_tkw(be, al), out=out)


def _c_add_out(name):
    return lambda s, x, y, be, al, out: _st(name, out, s, x, y, _opts(be, al))


def _ts(ts):
    h = C.tensors_arg(ts)
    _keep.append(h)
    return h.s


OPS = [
    Op("mm", gen_mm, torch=_tv(torch.mm), ct=_ctv("ct_mm"), weight=3),
    Op("mm_out", gen_mm_out, torch=lambda x, y, c1, c2, out: torch.mm(x, y, out=out), ct=_ct_out("ct_mm_out")),
    Op("bmm", gen_bmm, torch=_tv(torch.bmm), ct=_ctv("ct_bmm"), weight=3),
    Op("bmm_out", gen_bmm_out, torch=lambda x, y, c1, c2, out: torch.bmm(x, y, out=out), ct=_ct_out("ct_bmm_out")),
    Op("matmul", gen_matmul, torch=_tv(torch.matmul), ct=_ctv("ct_matmul"), weight=3),
    Op("matmul_out", gen_matmul_out, torch=lambda x, y, c1, c2, out: torch.matmul(x, y, out=out),
       ct=_ct_out("ct_matmul_out")),
    Op("linalg_matmul", gen_matmul, torch=_tv(torch.linalg.matmul), ct=_ctv("ct_linalg_matmul")),
    Op("linalg_matmul_out", gen_matmul_out, torch=lambda x, y, c1, c2, out: torch.linalg.matmul(x, y, out=out),
       ct=_ct_out("ct_linalg_matmul_out")),
    Op("mv", gen_mv, torch=lambda x, v, c: torch.mv(tconj(x, c), v), ct=lambda x, v, c: _call("ct_mv", cconj(x, c), v),
       weight=2),
    Op("mv_out", gen_mv_out, torch=lambda x, v, c, out: torch.mv(x, v, out=out),
       ct=lambda x, v, c, out: _st("ct_mv_out", out, x, v)),
    Op("dot", gen_dot, torch=_tv(torch.dot), ct=_ctv("ct_dot"), weight=2),
    Op("dot_out", gen_dot_out, torch=lambda x, y, c1, c2, out: torch.dot(x, y, out=out), ct=_ct_out("ct_dot_out")),
    Op("vdot", gen_dot, torch=_tv(torch.vdot), ct=_ctv("ct_vdot"), weight=2),
    Op("dot_complex", gen_dot_complex, torch=tdot_ref(False), ct=_ctv("ct_dot"), tol=TOL),
    Op("vdot_complex", gen_dot_complex, torch=tdot_ref(True), ct=_ctv("ct_vdot"), tol=TOL),
    Op("vdot_out", gen_dot_out, torch=lambda x, y, c1, c2, out: torch.vdot(x, y, out=out), ct=_ct_out("ct_vdot_out")),
    Op("inner", gen_inner, torch=torch.inner, ct=lambda x, y: _call("ct_inner", x, y)),
    Op("inner_out", gen_inner_out, torch=lambda x, y, out: torch.inner(x, y, out=out),
       ct=lambda x, y, out: _st("ct_inner_out", out, x, y)),
    Op("outer", gen_outer, torch=torch.outer, ct=lambda x, y: _call("ct_outer", x, y)),
    Op("outer_out", gen_outer_out, torch=lambda x, y, out: torch.outer(x, y, out=out),
       ct=lambda x, y, out: _st("ct_outer_out", out, x, y)),
    Op("ger", gen_outer, torch=torch.ger, ct=lambda x, y: _call("ct_ger", x, y)),
    Op("ger_out", gen_outer_out, torch=lambda x, y, out: torch.ger(x, y, out=out),
       ct=lambda x, y, out: _st("ct_ger_out", out, x, y)),
    Op("addmm", gen_addmm, torch=_t_add(torch.addmm), ct=_c_add("ct_addmm"), weight=2),
    Op("addmm_", gen_addmm_, torch=_t_add_("addmm_"), ct=_c_add_("ct_addmm_")),
    Op("addmm_out", gen_addmm_out, torch=_t_add_out(torch.addmm), ct=_c_add_out("ct_addmm_out")),
    Op("addmv", gen_addmv, torch=_t_add(torch.addmv), ct=_c_add("ct_addmv")),
    Op("addmv_", gen_addmv_, torch=_t_add_("addmv_"), ct=_c_add_("ct_addmv_")),
    Op("addmv_out", gen_addmv_out, torch=_t_add_out(torch.addmv), ct=_c_add_out("ct_addmv_out")),
    Op("addr", gen_addr, torch=_t_add(torch.addr), ct=_c_add("ct_addr")),
    Op("addr_", gen_addr_, torch=_t_add_("addr_"), ct=_c_add_("ct_addr_")),
    Op("addr_out", gen_addr_out, torch=_t_add_out(torch.addr), ct=_c_add_out("ct_addr_out")),
    Op("bf16_route", gen_bf16_route, torch=_t_bf16_route, ct=_c_bf16_route),
    Op("addr_rows", gen_addr_rows, torch=_t_add(torch.addr), ct=_c_add("ct_addr")),
    Op("addr_rows_", gen_addr_rows_, torch=_t_add_("addr_"), ct=_c_add_("ct_addr_")),
    Op("addr_rows_out", gen_addr_rows_out, torch=_t_add_out(torch.addr), ct=_c_add_out("ct_addr_out")),
    Op("baddbmm", gen_baddbmm, torch=_t_add(torch.baddbmm), ct=_c_add("ct_baddbmm"), weight=2),
    Op("baddbmm_", gen_baddbmm_, torch=_t_add_("baddbmm_"), ct=_c_add_("ct_baddbmm_")),
    Op("baddbmm_out", gen_baddbmm_out, torch=_t_add_out(torch.baddbmm), ct=_c_add_out("ct_baddbmm_out")),
    Op("addbmm", gen_addbmm, torch=_t_add(torch.addbmm), ct=_c_add("ct_addbmm")),
    Op("addbmm_", gen_addbmm_, torch=_t_add_("addbmm_"), ct=_c_add_("ct_addbmm_")),
    Op("addbmm_out", gen_addbmm_out, torch=_t_add_out(torch.addbmm), ct=_c_add_out("ct_addbmm_out")),
    Op("linalg_multi_dot", gen_multi_dot, torch=torch.linalg.multi_dot,
       ct=lambda ts: _call("ct_linalg_multi_dot", _ts(ts))),
    Op("linalg_multi_dot_out", _with_out(gen_multi_dot), torch=lambda ts, out: torch.linalg.multi_dot(ts, out=out),
       ct=lambda ts, out: _st("ct_linalg_multi_dot_out", out, _ts(ts))),
    Op("chain_matmul", gen_chain_matmul, torch=lambda ts: torch.chain_matmul(*ts),
       ct=lambda ts: _call("ct_chain_matmul", _ts(ts))),
    Op("chain_matmul_out", _with_out(gen_chain_matmul), torch=lambda ts, out: torch.chain_matmul(*ts, out=out),
       ct=lambda ts, out: _st("ct_chain_matmul_out", out, _ts(ts))),
    Op("tensordot", gen_tensordot, torch=lambda a, b, d: torch.tensordot(a, b, d),
       ct=lambda a, b, d: _call("ct_tensordot", a, b, d)),
    Op("tensordot_out", _with_out(gen_tensordot), torch=lambda a, b, d, out: torch.tensordot(a, b, d, out=out),
       ct=lambda a, b, d, out: _st("ct_tensordot_out", out, a, b, d)),
    Op("tensordot_dims", gen_tensordot_dims, torch=lambda a, b, da, db: torch.tensordot(a, b, (da, db)),
       ct=lambda a, b, da, db: _call("ct_tensordot_dims", a, b, _dims(da), _dims(db))),
    Op("tensordot_dims_out", _with_out(gen_tensordot_dims),
       torch=lambda a, b, da, db, out: torch.tensordot(a, b, (da, db), out=out),
       ct=lambda a, b, da, db, out: _st("ct_tensordot_dims_out", out, a, b, _dims(da), _dims(db))),
    Op("einsum", gen_einsum, torch=lambda eq, ts: torch.einsum(eq, *ts),
       ct=lambda eq, ts: _call("ct_einsum", eq.encode(), _ts(ts)), weight=2),
    Op("trace", gen_trace, torch=lambda x, c: torch.trace(tconj(x, c)),
       ct=lambda x, c: _call("ct_trace", cconj(x, c))),
    Op("cross", gen_cross, torch=lambda x, y, d: torch.cross(x, y) if d is None else torch.cross(x, y, dim=d),
       ct=lambda x, y, d: _call("ct_cross", x, y, _cross_opts(d))),
    Op("cross_out", gen_cross_out,
       torch=lambda x, y, d, out: torch.cross(x, y, out=out) if d is None else torch.cross(x, y, dim=d, out=out),
       ct=lambda x, y, d, out: _st("ct_cross_out", out, x, y, _cross_opts(d))),
    Op("linalg_cross", gen_cross,
       torch=lambda x, y, d: torch.linalg.cross(x, y) if d is None else torch.linalg.cross(x, y, dim=d),
       ct=lambda x, y, d: _call("ct_linalg_cross", x, y, _cross_opts(d))),
    Op("linalg_cross_out", gen_cross_out,
       torch=lambda x, y, d, out: (torch.linalg.cross(x, y, out=out) if d is None
                                   else torch.linalg.cross(x, y, dim=d, out=out)),
       ct=lambda x, y, d, out: _st("ct_linalg_cross_out", out, x, y, _cross_opts(d))),
    Op("linalg_vecdot", gen_vecdot,
       torch=lambda x, y, d: torch.linalg.vecdot(x, y) if d is None else torch.linalg.vecdot(x, y, dim=d),
       ct=lambda x, y, d: _call("ct_linalg_vecdot", x, y, _cross_opts(d))),
    Op("linalg_vecdot_out", gen_vecdot_out,
       torch=lambda x, y, d, out: (torch.linalg.vecdot(x, y, out=out) if d is None
                                   else torch.linalg.vecdot(x, y, dim=d, out=out)),
       ct=lambda x, y, d, out: _st("ct_linalg_vecdot_out", out, x, y, _cross_opts(d))),
]
