"""Entries for include/ctorch/scan.h: cumsum and cumprod (functional, out=, in place; the dtype option
over every dtype pair), logcumsumexp (functional, out=), cummax and cummin (functional, out=), over
every dtype, dims (negative, out of range), layouts (contiguous, transposed, stepped, expanded, offset),
0-dim and empty inputs, special values (NaN, inf, ties come from the rounded values), out= tensors of
other shapes, dtypes and layouts, and a few large inputs that take the line-vector mode, the exact-block
float32 path and the multi-thread long-line path. Values are compared bit for bit: the kernels follow
PyTorch's accumulation order exactly."""
import ctypes

import numpy as np
import torch

import ctorch as C
import data as D
from harness import A, Op, Spec

DTYPES = D.DTYPES
OPT_DTYPES = [None] + DTYPES
PAIRS = [(a, b) for a in DTYPES for b in OPT_DTYPES]


class ct_scan_opts(ctypes.Structure):
    _fields_ = [("dtype", ctypes.c_int)]


def _opts(dtype):
    return None if dtype is None else ctypes.byref(ct_scan_opts(C.CT_DTYPE[dtype]))


# ---- the ctorch side ---------------------------------------------------------------------------------

def ct_acc(name):
    return lambda x, dim, dtype=None: C.own(C.lib().fn("ct_" + name)(x, dim, _opts(dtype)))


def ct_acc_out(name):
    def call(x, dim, dtype=None, out=None):
        C.check(C.lib().fn("ct_%s_out" % name)(out, x, dim, _opts(dtype)))
        return out
    return call


def ct_acc_(name):
    def call(x, dim, dtype=None):
        C.check(C.lib().fn("ct_%s_" % name)(x, dim, _opts(dtype)))
        return x
    return call


def ct_lcse(x, dim):
    return C.own(C.lib().ct_logcumsumexp(x, dim))


def ct_lcse_out(x, dim, out=None):
    C.check(C.lib().ct_logcumsumexp_out(out, x, dim))
    return out


def ct_ext(name):
    def call(x, dim):
        v, i = ctypes.c_void_p(), ctypes.c_void_p()
        C.check(C.lib().fn("ct_" + name)(x, dim, ctypes.byref(v), ctypes.byref(i)))
        return (C.own(v.value), C.own(i.value))
    return call


def ct_ext_out(name):
    def call(x, dim, out=None):
        C.check(C.lib().fn("ct_%s_out" % name)(out[0], out[1], x, dim))
        return tuple(out)
    return call


# ---- generators --------------------------------------------------------------------------------------

# Large inputs for the line-vector mode, several threads and long sequential lines (all below the
# float32 long-line threshold of 65536, which cumsum_long covers).
# (2, 9000) and (8, 9000) along dim 0: rows wider than one pass of accumulators (8192 bfloat16, 4096 float64,
# 2048 complex128 lines), and (float32, 72000 elements) split into strips over threads.
BIG_SHAPES = [((300, 7), 0), ((7, 1100), 1), ((3, 40, 300), 1), ((2, 600, 3), 1), ((40000,), 0), ((2, 40000), 1),
              ((2, 9000), 0), ((8, 9000), 0)]


def _exact_base(g, shape, dt):
    """Values every float dtype holds exactly and whose float32 running sums never round (torch.rand's
    grid): the exact-block path's common case."""
    n = int(np.prod(shape))
    v = np.floor(g.rng.random(n) * 2**24) / 2**24 * g.choice([1.0, 4.0, 1 / 8])
    return torch.from_numpy(v).reshape(shape).to(dt)


def _input(g, dt, big_dtypes=(torch.float32,)):
    """(Spec, dim): mostly small random shapes; sometimes a large one."""
    if g.chance(0.06):
        shape, dim = g.choice(BIG_SHAPES)
        if int(np.prod(shape)) > 20000 and dt not in big_dtypes:
            shape, dim = (300, 7), 0
        if g.chance(0.5):
            dim = dim - len(shape)
        base = _exact_base(g, shape, dt) if dt.is_floating_point and g.chance(0.6) else None
        layout = g.choice([["contiguous"], ["contiguous"], ["transposed"], ["strided"]])
        if base is not None:
            return Spec(shape, dt, layout, base=base), dim
        return Spec(shape, dt, layout, specials=g.chance(0.5)), dim
    x = g.tensor(dtype=dt, shape=g.shape(max_numel=60))
    if (dt.is_floating_point or dt.is_complex) and g.chance(0.12):
        x = Spec(x.shape, dt, x.layout, base=_specials_base(g, x.shape, dt))
    return x, g.dim(len(x.shape))


_NEG_NAN = np.frombuffer(bytes.fromhex("000000000000f8ff"), np.float64)[0]
_SPECIAL_VALUES = np.array([np.nan, _NEG_NAN, np.inf, -np.inf, 0.0, -0.0, 1.0, -2.0, 0.5, 3.0])


def _special_part(g, n):
    return _SPECIAL_VALUES[g.rng.integers(0, len(_SPECIAL_VALUES), n)]


def _specials_base(g, shape, dt):
    """Only special values (NaNs of both signs, infinities, signed zeros, ties): PyTorch's NaN
    propagation, inf - inf and tie-breaking, bit for bit."""
    n = int(np.prod(shape))
    if dt.is_complex:
        re, im = torch.from_numpy(_special_part(g, n)), torch.from_numpy(_special_part(g, n))
        t = torch.complex(re, im).reshape(shape)
    else:
        t = torch.from_numpy(_special_part(g, n)).reshape(shape)
    return t.to(dt)


def _out_spec(g, x, dt):
    """An out= tensor: mostly of x's shape, sometimes another (resized), other layouts now and then."""
    r = g.random()
    shape = x.shape if r < 0.7 else g.choice([(0,), (3,), tuple(g.shape(max_numel=24))])
    layout = g.choice([["contiguous"]] * 5 + [["transposed"], ["strided"], ["offset"], ["expanded"]])
    return Spec(shape, dt, layout)


def default_acc_dtype(dt):
    return torch.int64 if not (dt.is_floating_point or dt.is_complex) else dt


def gen_acc(g):
    src, opt = PAIRS[g.index] if g.index < len(PAIRS) else (g.dtype(), g.choice(OPT_DTYPES) if g.chance(0.3) else None)
    x, dim = _input(g, src)
    return A(x, dim, dtype=opt) if opt is not None or g.chance(0.5) else A(x, dim)


def gen_acc_out(g):
    src, opt = PAIRS[g.index] if g.index < len(PAIRS) else (g.dtype(), g.choice(OPT_DTYPES) if g.chance(0.3) else None)
    x, dim = _input(g, src)
    want = opt or default_acc_dtype(src)
    if g.index >= len(PAIRS) and g.chance(0.08):
        return A(x, dim, dtype=opt, out=x)  # out is the input itself
    odt = want if g.chance(0.7) else g.dtype()
    return A(x, dim, dtype=opt, out=_out_spec(g, x, odt))


def gen_acc_(g):
    src, opt = PAIRS[g.index] if g.index < len(PAIRS) else (g.dtype(), src_or_none(g))
    x, dim = _input(g, src)
    if opt is None and g.chance(0.3):
        opt = src
    return A(x, dim, dtype=opt)


def src_or_none(g):
    return g.dtype() if g.chance(0.2) else None


def gen_lcse(g):
    dt = DTYPES[g.index] if g.index < len(DTYPES) else g.dtype(D.FLOAT_DTYPES if g.chance(0.8) else None)
    x, dim = _input(g, dt, (torch.float32, torch.float64))
    return A(x, dim)


def gen_lcse_out(g):
    dt = DTYPES[g.index] if g.index < len(DTYPES) else g.dtype(D.FLOAT_DTYPES if g.chance(0.8) else None)
    x, dim = _input(g, dt, (torch.float32, torch.float64))
    odt = dt if g.chance(0.85) else g.dtype()
    return A(x, dim, out=_out_spec(g, x, odt))


def gen_ext(g):
    dt = DTYPES[g.index] if g.index < len(DTYPES) else g.dtype()
    x, dim = _input(g, dt)
    return A(x, dim)


def gen_ext_out(g):
    dt = DTYPES[g.index] if g.index < len(DTYPES) else g.dtype()
    x, dim = _input(g, dt)
    vdt = dt if g.chance(0.9) else g.dtype()
    idt = torch.int64 if g.chance(0.9) else g.dtype()
    if g.index >= len(DTYPES) and g.chance(0.08):
        return A(x, dim, out=(x, _out_spec(g, x, idt)))  # the values written over the input
    return A(x, dim, out=(_out_spec(g, x, vdt), _out_spec(g, x, idt)))


def gen_long(g):
    """float32 lines of at least 65536 elements (the blocked vector scan, split over threads), in the
    three forms. Compared with assert_close's float32 tolerance: the blocked association matches
    PyTorch's sequential sums bit for bit on most data but is not guaranteed to (scan_cumsum_f32.c)."""
    shape, dim = g.choice([((70000,), 0), ((2, 66000), 1), ((66000, 2), 0), ((3, 70001), -1)])
    r = g.random()
    if r < 0.4:
        x = Spec(shape, torch.float32, ["contiguous"], base=_exact_base(g, shape, torch.float32))
    elif r < 0.8:
        x = Spec(shape, torch.float32, ["contiguous"], specials=g.chance(0.3))
    else:
        x = Spec(shape, g.choice([torch.int32, torch.float16, torch.bool]), ["contiguous"])
    form = g.choice(["new", "out", "inplace"])
    opt = torch.float32 if x.dtype != torch.float32 or g.chance(0.3) else None
    if form == "inplace" and x.dtype != torch.float32:
        form = "new"
    out = Spec(shape if g.chance(0.8) else (5,), torch.float32, ["contiguous"]) if form == "out" else None
    return A(x, dim, form, dtype=opt, out=out)


def torch_long(x, dim, form, dtype=None, out=None):
    if form == "inplace":
        return x.cumsum_(dim, dtype=dtype)
    return torch.cumsum(x, dim, dtype=dtype, out=out) if form == "out" else torch.cumsum(x, dim, dtype=dtype)


def ct_long(x, dim, form, dtype=None, out=None):
    if form == "inplace":
        return ct_acc_("cumsum")(x, dim, dtype)
    return ct_acc_out("cumsum")(x, dim, dtype, out) if form == "out" else ct_acc("cumsum")(x, dim, dtype)


OPS = [Op("cumsum_long", gen_long, torch=torch_long, ct=ct_long, weight=0.3, min_cases=24, tol=(1.3e-6, 1e-5))]
for _name in ("cumsum", "cumprod"):
    OPS += [
        Op(_name, gen_acc, torch=getattr(torch, _name), ct=ct_acc(_name), min_cases=len(PAIRS), weight=2),
        Op(_name + "_out", gen_acc_out, torch=getattr(torch, _name), ct=ct_acc_out(_name), min_cases=len(PAIRS),
           weight=2),
        Op(_name + "_", gen_acc_, torch=lambda x, dim, dtype=None, _n=_name: getattr(x, _n + "_")(dim, dtype=dtype),
           ct=ct_acc_(_name), min_cases=len(PAIRS)),
    ]
OPS += [
    Op("logcumsumexp", gen_lcse, torch=torch.logcumsumexp, ct=ct_lcse, min_cases=len(DTYPES)),
    Op("logcumsumexp_out", gen_lcse_out, torch=torch.logcumsumexp, ct=ct_lcse_out, min_cases=len(DTYPES)),
]
for _name in ("cummax", "cummin"):
    OPS += [
        Op(_name, gen_ext, torch=lambda x, dim, _n=_name: tuple(getattr(torch, _n)(x, dim)), ct=ct_ext(_name),
           min_cases=len(DTYPES)),
        Op(_name + "_out", gen_ext_out, torch=lambda x, dim, out, _n=_name: tuple(getattr(torch, _n)(x, dim, out=out)),
           ct=ct_ext_out(_name), min_cases=len(DTYPES)),
    ]
