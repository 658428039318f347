"""Entries for the "comparison, logical, bitwise and ternary ops" block of include/ctorch/pointwise.h:
eq/ne/lt/le/gt/ge and aliases, logical_*, bitwise_* and shifts, isclose/allclose, where, lerp,
addcmul/addcdiv, clamp/clip/clamp_min/clamp_max, masked_fill. One entry per op form (functional,
in place, out=). Generators draw every dtype and dtype pair, broadcast shapes, Python-number operands
(ints, floats, bools, complex, special values), out= tensors of other dtypes and shapes, and invalid
arguments (shapes that do not broadcast, wrong dtypes), so values and PyTorch's messages are compared.
All these ops are exact: values compare bit for bit (NaN by bits)."""
import ctypes
import math

import numpy as np

import torch

import ctorch as C
import data as D
from harness import A, Op, Spec

# ---- prototypes ---------------------------------------------------------------------------------
# The functions of this block are declared through macros (CT_DECLARE_BINARY, ...), which the header
# parser does not expand: their prototypes are registered here.

P = ctypes.c_void_p
ST = ctypes.c_int


class ct_isclose_opts(ctypes.Structure):
    _fields_ = [("rtol", C.ct_scalar), ("atol", C.ct_scalar), ("equal_nan", ctypes.c_bool)]


class ct_addc_opts(ctypes.Structure):
    _fields_ = [("value", C.ct_scalar)]


def _proto(name, restype, argtypes):
    C.PROTOTYPES.setdefault(name, (restype, argtypes))


BINARY = ["eq", "ne", "not_equal", "lt", "less", "le", "less_equal", "gt", "greater", "ge", "greater_equal",
          "logical_and", "logical_or", "logical_xor", "bitwise_and", "bitwise_or", "bitwise_xor",
          "bitwise_left_shift", "bitwise_right_shift", "clamp_min", "clamp_max"]
for _n in BINARY:
    _proto("ct_" + _n, P, [P, P])
    _proto("ct_%s_" % _n, ST, [P, P])
    _proto("ct_%s_out" % _n, ST, [P, P, P])
for _n in ["clamp", "clip", "lerp"]:
    _proto("ct_" + _n, P, [P, P, P])
    _proto("ct_%s_" % _n, ST, [P, P, P])
    _proto("ct_%s_out" % _n, ST, [P, P, P, P])
for _n in ["addcmul", "addcdiv"]:
    _proto("ct_" + _n, P, [P, P, P, P])
    _proto("ct_%s_" % _n, ST, [P, P, P, P])
    _proto("ct_%s_out" % _n, ST, [P, P, P, P, P])
_proto("ct_where", P, [P, P, P])
_proto("ct_where_out", ST, [P, P, P, P])
_proto("ct_isclose", P, [P, P, P])
_proto("ct_allclose", ST, [P, P, ctypes.POINTER(ctypes.c_bool), P])
_proto("ct_masked_fill", P, [P, P, P])
_proto("ct_masked_fill_", ST, [P, P, P])


def _arg(x):
    """A ctorch argument: handles pass through, Python numbers become wrapped-number tensors, None NULL."""
    if x is None or isinstance(x, C.Tensor):
        return x
    return C.wrapped_scalar(x)


def ct_fn(name):
    return lambda *args: C._t("ct_" + name, *[_arg(a) for a in args])


def ct_inplace(name):
    def f(self, *args):
        C.check(C.lib().fn("ct_%s_" % name)(self, *[_arg(a) for a in args]))
        return self
    return f


def ct_out(name):
    def f(*args, out):
        C.check(C.lib().fn("ct_%s_out" % name)(out, *[_arg(a) for a in args]))
        return out
    return f


# ---- argument helpers ---------------------------------------------------------------------------

ALL = D.DTYPES
REAL = [d for d in ALL if not d.is_complex]
INTS = [torch.bool] + D.INT_DTYPES
INT_VALUES = [0, 1, -1, 2, 3, 7, 8, 31, 32, 33, 63, 64, 65, 100, 127, 128, 255, 256, -129, 2**31, 2**40, -2**40]
FLOAT_VALUES = [0.5, -2.5, 1.0, 0.0, -0.0, math.nan, math.inf, -math.inf, 1e40, 1e-300, 3.7, 65504.0, 70000.0,
                -1e10, 2.0**63]
COMPLEX_VALUES = [1j, 1 + 0j, 2 - 1j, complex(math.nan, 0), 0j]


def number(g, kinds="bifc"):
    k = g.choice(kinds)
    if k == "b":
        return g.chance(0.5)
    if k == "i":
        return g.choice(INT_VALUES)
    if k == "f":
        return g.choice(FLOAT_VALUES)
    return g.choice(COMPLEX_VALUES)


def bshapes(g, n, max_ndim=4):
    """n shapes that broadcast together (the first one usually the full shape), sometimes not."""
    base = list(g.shape(max_ndim=max_ndim))
    out = [tuple(base)]
    for _ in range(n - 1):
        s = base[g.int(0, len(base)):] if g.chance(0.3) else list(base)
        s = [1 if g.chance(0.2) else d for d in s]
        out.append(tuple(s))
    if g.chance(0.15):
        out = g.shuffled(out)
    if g.chance(0.05) and base:
        i = g.int(0, n - 1)
        s = list(out[i]) or [1]
        s[-1] = s[-1] + g.int(1, 3) if s[-1] != 1 else 5
        out[i] = tuple(s)
    return out


def operand(g, shape, dtype, kinds="bifc", scalar_p=0.2, zero_dim_p=0.1, other=None):
    """A tensor Spec, a 0-dim tensor or a Python number (none that would make complex32 with `other`)."""
    r = g.random()
    if other == torch.float16:
        kinds = kinds.replace("c", "")
    if r < scalar_p and kinds:
        return number(g, kinds)
    if r < scalar_p + zero_dim_p:
        return g.tensor(shape=(), dtype=dtype)
    return g.tensor(shape=shape, dtype=dtype)


def pair_dtypes(g, among=ALL):
    a = g.dtype(among)
    b = a if g.chance(0.4) else g.dtype(among)
    return a, (a if c32(a, b) else b)


def c32(a, b):
    """float16 with a complex operand promotes to complex32, a dtype ctorch does not have (it refuses such
    calls with a NotImplementedError naming it): the generators avoid the combination."""
    cx = lambda d: d is complex or (isinstance(d, torch.dtype) and d.is_complex)
    return (a == torch.float16 and cx(b)) or (b == torch.float16 and cx(a))


def out_spec(g, shape, dtype, among=ALL):
    """An out= tensor: right shape or not (empty, other), given or random dtype."""
    r = g.random()
    if r < 0.6:
        sh = shape
    elif r < 0.8:
        sh = (0,)
    else:
        sh = g.shape(max_ndim=3)
    dt = dtype if g.chance(0.5) else g.dtype(among)
    if dt == torch.bfloat16 and dtype != torch.bfloat16:
        # torch's vectorized float/double -> bfloat16 copy stores NaN as 0xffff, ctorch's cast core 0x7fc0
        # (a cast-core difference, reported; not one of these ops)
        dt = dtype
    return g.tensor(shape=sh, dtype=dt)


# ---- comparisons, logical, bitwise --------------------------------------------------------------

def gen_binary(among=ALL, kinds="bifc", scalar_first=False):
    def gen(g):
        s1, s2 = bshapes(g, 2)
        d1, d2 = pair_dtypes(g, among if g.chance(0.9) else ALL)
        x = g.tensor(shape=s1, dtype=d1)
        y = operand(g, s2, d2, kinds, other=d1)
        if scalar_first and g.chance(0.2):
            return A(number(g, kinds), x)
        return A(x, y)
    return gen


def gen_binary_inplace(among=ALL, kinds="bifc"):
    def gen(g):
        s1, s2 = bshapes(g, 2)
        d1, d2 = pair_dtypes(g, among if g.chance(0.9) else ALL)
        return A(g.tensor(shape=s1, dtype=d1), operand(g, s2, d2, kinds, other=d1))
    return gen


def gen_binary_out(among=ALL, kinds="bifc"):
    def gen(g):
        s1, s2 = bshapes(g, 2)
        d1, d2 = pair_dtypes(g, among if g.chance(0.9) else ALL)
        x = g.tensor(shape=s1, dtype=d1)
        y = operand(g, s2, d2, kinds, other=d1)
        return A(x, y, out=out_spec(g, s1, torch.bool if g.chance(0.3) else d1))
    return gen


def binary_ops(name, among=ALL, kinds="bifc", scalar_first=False, weight=1.0):
    tf = getattr(torch, name)
    return [
        Op(name, gen_binary(among, kinds, scalar_first), torch=tf, ct=ct_fn(name), weight=weight),
        Op(name + "_", gen_binary_inplace(among, kinds), torch=lambda x, y: getattr(x, name + "_")(y),
           ct=ct_inplace(name), weight=weight),
        Op(name + "_out", gen_binary_out(among, kinds), torch=lambda x, y, out: tf(x, y, out=out), ct=ct_out(name),
           weight=weight),
    ]


OPS = []
for _n in ["eq", "ne", "lt", "le", "gt", "ge"]:
    OPS += binary_ops(_n, weight=1.5)
for _n in ["not_equal", "less", "less_equal", "greater", "greater_equal"]:
    OPS += binary_ops(_n, weight=0.4)
for _n in ["logical_and", "logical_or", "logical_xor"]:
    OPS += binary_ops(_n, kinds="")  # torch.logical_* take tensors only (0-dim ones included)
for _n in ["bitwise_and", "bitwise_or", "bitwise_xor", "bitwise_left_shift", "bitwise_right_shift"]:
    OPS += binary_ops(_n, among=INTS, kinds="bif", scalar_first=True, weight=1.5)


# ---- isclose / allclose -------------------------------------------------------------------------

def gen_isclose(g):
    s1, s2 = bshapes(g, 2)
    d = g.dtype()
    d2 = d if g.chance(0.92) else g.dtype()
    x = g.tensor(shape=s1, dtype=d)
    y = g.tensor(shape=s2, dtype=d2)
    kw = {}
    if g.chance(0.5):
        kw["rtol"] = g.choice([0.0, 1e-5, 1e-3, 0.1, 1.0, -1.0, 2])
    if g.chance(0.5):
        kw["atol"] = g.choice([0.0, 1e-8, 1e-3, 0.5, 1.0, 2, -1.0])
    if g.chance(0.4):
        kw["equal_nan"] = g.chance(0.5)
    return A(x, y, **kw)


def gen_isclose_wide(g):
    """complex isclose with parts around the square root of the dtype's largest value, where torch's
    vectorized |z| (sqrt(re^2 + im^2)) overflows and its hypot does not: which one each intermediate
    used depends on its own layout (b's and the result's), drawn here."""
    shape, s2 = bshapes(g, 2, max_ndim=4)
    d = g.choice([torch.complex64, torch.complex128])
    mags = [1.0, 1e17, 1e19, 1e20, 1e30] if d == torch.complex64 else [1.0, 1e150, 1e155, 1e160, 1e300]

    def vals(sh):
        n = int(np.prod(sh)) if sh else 1
        re = g.rng.choice(mags, size=n) * g.rng.choice([-1.0, 1.0], size=n)
        im = g.rng.choice(mags, size=n) * g.rng.choice([-1.0, 1.0], size=n)
        return torch.from_numpy(re + 1j * im).to(d).reshape(sh)
    x = Spec(shape, d, g.layout(), base=vals(shape))
    y = Spec(s2, d, g.layout(), base=vals(s2))
    return A(x, y, rtol=g.choice([1e-5, 0.1, 1.0]), atol=g.choice([1e-8, 1.0]))


def gen_isclose_self(g):
    """isclose(x, f(x)): x against a slightly changed copy of itself."""
    shape = g.shape(max_ndim=3)
    d = g.dtype()
    x = g.tensor(shape=shape, dtype=d)
    return A(x, x, rtol=g.choice([0.0, 1e-5, 0.1]), atol=g.choice([0.0, 1e-8, 0.5]), equal_nan=g.chance(0.5))


def _close_opts(rtol=None, atol=None, equal_nan=False):
    o = ct_isclose_opts()
    if rtol is not None:
        o.rtol = C.ct_scalar.of(rtol)
    if atol is not None:
        o.atol = C.ct_scalar.of(atol)
    o.equal_nan = bool(equal_nan)
    return o


def ct_isclose(x, y, **kw):
    o = _close_opts(**kw)
    return C._t("ct_isclose", x, y, ctypes.byref(o))


def ct_allclose(x, y, **kw):
    o = _close_opts(**kw)
    r = ctypes.c_bool()
    C.check(C.lib().ct_allclose(x, y, ctypes.byref(r), ctypes.byref(o)))
    return r.value


OPS += [
    Op("isclose", gen_isclose, torch=torch.isclose, ct=ct_isclose, weight=2),
    Op("isclose_wide", gen_isclose_wide, torch=torch.isclose, ct=ct_isclose, weight=0.5),
    Op("isclose_self", gen_isclose_self, torch=torch.isclose, ct=ct_isclose, weight=0.5),
    Op("allclose", gen_isclose, torch=torch.allclose, ct=ct_allclose),
]


# ---- where --------------------------------------------------------------------------------------

def gen_where(g, out=False):
    sc, sa, sb = bshapes(g, 3)
    cd = torch.bool if g.chance(0.8) else g.dtype([torch.uint8, torch.int64, torch.float32])
    cond = g.tensor(shape=sc, dtype=cd) if g.chance(0.9) else g.tensor(shape=(), dtype=cd)
    da, db = pair_dtypes(g)
    p = 0 if out else 0.25  # torch.where(..., out=) takes tensors only
    a = operand(g, sa, da, "bifc", scalar_p=p, other=db)
    b = operand(g, sb, db, "bifc", scalar_p=p, other=da)
    if not out:
        return A(cond, a, b)
    rt = torch.result_type(a if not isinstance(a, Spec) else torch.empty(a.shape, dtype=a.dtype),
                           b if not isinstance(b, Spec) else torch.empty(b.shape, dtype=b.dtype)) \
        if g.chance(0.8) else g.dtype()
    if rt == torch.complex32:
        rt = torch.complex64
    return A(cond, a, b, out=out_spec(g, sc, rt))


def ct_where(c, a, b):
    return C._t("ct_where", c, _arg(a), _arg(b))


def ct_where_out(c, a, b, out):
    C.check(C.lib().ct_where_out(out, c, _arg(a), _arg(b)))
    return out


OPS += [
    Op("where", gen_where, torch=torch.where, ct=ct_where, weight=2),
    Op("where_out", lambda g: gen_where(g, True), torch=lambda c, a, b, out: torch.where(c, a, b, out=out),
       ct=ct_where_out, weight=1.5),
]


# ---- lerp ---------------------------------------------------------------------------------------

LERP_DTYPES = [torch.float32, torch.float64, torch.bfloat16, torch.complex64, torch.complex128]


def gen_lerp(g, form):
    s1, s2, s3 = bshapes(g, 3)
    d = g.dtype(LERP_DTYPES) if g.chance(0.85) else g.dtype()
    de = d if g.chance(0.9) else g.dtype()
    x = g.tensor(shape=s1, dtype=d)
    e = g.tensor(shape=s2, dtype=de) if g.chance(0.9) else g.tensor(shape=(), dtype=de)
    if g.chance(0.5):
        w = g.choice([0.3, 0.5, 0.7, 0.25, -0.4, 1.5, 2, True, 1e40, math.nan, math.inf, 0.5 + 0.1j, 0.3j, -1])
    else:
        dw = d if g.chance(0.9) else g.dtype()
        w = g.tensor(shape=s3 if g.chance(0.8) else (), dtype=dw)
    if form == "out":
        return A(x, e, w, out=out_spec(g, s1, d))
    return A(x, e, w)


OPS += [
    Op("lerp", lambda g: gen_lerp(g, "fn"), torch=torch.lerp, ct=ct_fn("lerp"), weight=2),
    Op("lerp_", lambda g: gen_lerp(g, "inplace"), torch=lambda x, e, w: x.lerp_(e, w), ct=ct_inplace("lerp"),
       weight=1.5),
    Op("lerp_out", lambda g: gen_lerp(g, "out"), torch=lambda x, e, w, out: torch.lerp(x, e, w, out=out),
       ct=ct_out("lerp"), weight=1.5),
]


# ---- addcmul / addcdiv --------------------------------------------------------------------------

ADDC_VALUES = [1, 2, -1, 0.5, -0.37, 2.5, True, 1e40, 300, 0.1 + 1j, 1j, math.nan]


def gen_addc(g, form, div, complex_=False):
    s1, s2, s3 = bshapes(g, 3)
    prefer = [torch.float32, torch.float64, torch.bfloat16] + ([] if div else D.INT_DTYPES)
    real = REAL
    if complex_:
        prefer = real = D.COMPLEX_DTYPES
    d = g.dtype(prefer) if g.chance(0.8) else g.dtype(real)
    dts = [d if g.chance(0.8) else g.dtype(real if not complex_ else ALL) for _ in range(3)]
    if any(c32(a, b) for a in dts for b in dts):
        dts = [d, d, d]
    x = g.tensor(shape=s1, dtype=dts[0])
    t1 = g.tensor(shape=s2, dtype=dts[1]) if g.chance(0.9) else g.tensor(shape=(), dtype=dts[1])
    t2 = g.tensor(shape=s3, dtype=dts[2]) if g.chance(0.9) else g.tensor(shape=(), dtype=dts[2])
    kw = {"value": g.choice(ADDC_VALUES)} if g.chance(0.7) else {}
    if form == "out":
        kw["out"] = out_spec(g, s1, d)
    return A(x, t1, t2, **kw)


def ct_addc(name, form):
    def f(*args, value=None, out=None):
        o = ct_addc_opts()
        if value is not None:
            o.value = C.ct_scalar.of(value)
        L = C.lib()
        if form == "fn":
            return C._t("ct_" + name, *args, ctypes.byref(o))
        if form == "inplace":
            C.check(L.fn("ct_%s_" % name)(*args, ctypes.byref(o)))
            return args[0]
        C.check(L.fn("ct_%s_out" % name)(out, *args, ctypes.byref(o)))
        return out
    return f


def _tkw(value):
    return {} if value is None else {"value": value}


# Complex results: bit for bit, NaN by class (the NaN policy, README.md). PyTorch's complex kernels make
# NaNs whose sign bit depends on the operand order of the instructions GCC chose.
for _n, _div in [("addcmul", False), ("addcdiv", True)]:
    for _cx in (False, True):
        _sfx, _tol = ("_complex", None) if _cx else ("", None)
        OPS += [
            Op(_n + _sfx, (lambda div, cx: lambda g: gen_addc(g, "fn", div, cx))(_div, _cx),
               torch=(lambda n: lambda x, a, b, value=None: getattr(torch, n)(x, a, b, **_tkw(value)))(_n),
               ct=ct_addc(_n, "fn"), weight=2 if not _cx else 1, tol=_tol),
            Op(_n + "_" + _sfx, (lambda div, cx: lambda g: gen_addc(g, "inplace", div, cx))(_div, _cx),
               torch=(lambda n: lambda x, a, b, value=None: getattr(x, n + "_")(a, b, **_tkw(value)))(_n),
               ct=ct_addc(_n, "inplace"), weight=1.5 if not _cx else 1, tol=_tol),
            Op(_n + "_out" + _sfx, (lambda div, cx: lambda g: gen_addc(g, "out", div, cx))(_div, _cx),
               torch=(lambda n: lambda x, a, b, value=None, out=None: getattr(torch, n)(x, a, b, out=out,
                                                                                         **_tkw(value)))(_n),
               ct=ct_addc(_n, "out"), weight=1.5 if not _cx else 1, tol=_tol),
        ]


# ---- clamp --------------------------------------------------------------------------------------

CLAMP_NUMBERS = [0, 1, -1, 2, 0.5, -0.0, 0.0, 1.5, -2.5, math.nan, math.inf, -math.inf, 1e40, 300, -129, True,
                 False, 1j, 1 + 0j, 2**40, 100]


def bound(g, shape, dtype):
    r = g.random()
    if r < 0.2:
        return None
    if r < 0.6:
        return g.choice(CLAMP_NUMBERS)
    dt = dtype if g.chance(0.7) else g.dtype()
    if c32(dt, dtype):
        dt = dtype
    if g.chance(0.2):
        return g.tensor(shape=(), dtype=dt)
    return g.tensor(shape=shape, dtype=dt)


def gen_clamp(g, form, which="both"):
    s1, s2, s3 = bshapes(g, 3)
    d = g.dtype(REAL) if g.chance(0.9) else g.dtype()
    x = g.tensor(shape=s1, dtype=d)
    if which == "both":
        lo, hi = bound(g, s2, d), bound(g, s3, d)
        # torch's binding: with a Python number among the bounds, the other one must be a number, a 0-dim
        # tensor or None (else a TypeError of the argument parser, which has no C counterpart)
        num = lambda b: b is not None and not isinstance(b, Spec)
        if num(lo) and isinstance(hi, Spec) and hi.shape != ():
            hi = g.tensor(shape=(), dtype=hi.dtype)
        if num(hi) and isinstance(lo, Spec) and lo.shape != ():
            lo = g.tensor(shape=(), dtype=lo.dtype)
        args = [x, lo, hi]
    else:
        b = bound(g, s2, d)
        while b is None:
            b = bound(g, s2, d)
        args = [x, b]
    tensors = [a for a in args if isinstance(a, Spec)]
    if any(t.dtype == torch.float16 for t in tensors) and any(t.dtype.is_complex for t in tensors):
        args = [g.tensor(shape=a.shape, dtype=torch.float32) if isinstance(a, Spec) and a.dtype.is_complex else a
                for a in args]  # no complex32 (see c32)
    if form == "out":
        o = out_spec(g, s1, d)
        if o.dtype == torch.bfloat16 and any(a.dtype != torch.bfloat16 for a in tensors):
            o = g.tensor(shape=o.shape, dtype=torch.float32)  # see out_spec: bfloat16 NaN of the cast core
        return A(*args, out=o)
    return A(*args)


def clamp_ops(name, which):
    # clamp's min and max are optional: NULL is None there, so the NULL-argument check does not apply
    tf = getattr(torch, name)
    nc = which != "both"
    return [
        Op(name, lambda g: gen_clamp(g, "fn", which), torch=tf, ct=ct_fn(name), weight=2, null_check=nc),
        Op(name + "_", lambda g: gen_clamp(g, "inplace", which), torch=lambda x, *b: getattr(x, name + "_")(*b),
           ct=ct_inplace(name), weight=1.5, null_check=nc),
        Op(name + "_out", lambda g: gen_clamp(g, "out", which), torch=lambda x, *b, out: tf(x, *b, out=out),
           ct=ct_out(name), weight=1.5, null_check=nc),
    ]


OPS += clamp_ops("clamp", "both") + clamp_ops("clip", "both") + clamp_ops("clamp_min", "one") + \
    clamp_ops("clamp_max", "one")


# ---- masked_fill --------------------------------------------------------------------------------

def gen_masked_fill(g, inplace):
    s1, s2 = bshapes(g, 2)
    d = g.dtype()
    x = g.tensor(shape=s1, dtype=d)
    md = torch.bool if g.chance(0.85) else g.dtype([torch.uint8, torch.int64, torch.float32, torch.int8])
    if md == torch.bool or g.chance(0.5):
        mask = g.tensor(shape=s2, dtype=md)
    else:  # masks of 0 / 1 only
        mask = Spec(s2, md, g.layout(), base=torch.randint(0, 2, s2).to(md))
    r = g.random()
    if r < 0.65:
        value = number(g)
    elif r < 0.9:
        value = g.tensor(shape=(), dtype=g.dtype())
    else:
        value = g.tensor(shape=(g.int(1, 2),), dtype=g.dtype())
    return A(x, mask, value)


OPS += [
    Op("masked_fill", lambda g: gen_masked_fill(g, False), torch=torch.masked_fill, ct=ct_fn("masked_fill"),
       weight=2),
    Op("masked_fill_", lambda g: gen_masked_fill(g, True), torch=lambda x, m, v: x.masked_fill_(m, v),
       ct=ct_inplace("masked_fill"), weight=2),
]
