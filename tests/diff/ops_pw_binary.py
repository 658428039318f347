"""Entries for the binary arithmetic block of include/ctorch/pointwise.h: div/divide (rounding modes),
true_divide, floor_divide, remainder, fmod, pow, float_power, atan2/arctan2, hypot, logaddexp(2),
nextafter, copysign, heaviside, xlogy (and special.xlogy), maximum, minimum, fmax, fmin, each in its out-of-place,
in-place and out= forms. Operands are any dtype pair, broadcast against each other, in any layout,
sometimes a Python number (a wrapped-number tensor in ctorch) or a 0-dim tensor, sometimes large enough
for torch's vectorized loops; invalid calls (shapes that do not broadcast, unsupported dtypes, bad
out= dtypes, integer division by zero) are drawn now and then so PyTorch's messages are compared.

Integer division of INT_MIN by -1 kills torch 1.13 with SIGFPE (int32/int64), so divisors of -1 are
replaced by -3 where the dividend could hold INT_MIN; the unit tests cover that case."""
import ctypes
import os

import numpy as np
import torch

import ctorch as C
import data as D
from harness import A, Op, Spec

# transcendental ops: assert_close's float32 tolerances. The implementation follows torch's own formulas
# and SLEEF calls, so CT_BINARY_EXACT=1 (bit equality everywhere) is expected to pass too.
TOL = None if os.environ.get("CT_BINARY_EXACT") else (1.3e-6, 1e-5)


class DivOpts(ctypes.Structure):
    _fields_ = [("rounding_mode", ctypes.c_char_p)]


def _w(v):
    """A Python number becomes a wrapped-number tensor, as ctorch takes it."""
    return v if isinstance(v, C.Tensor) else C.wrapped_scalar(v)


def _fn(name):
    return C.lib().fn(name)


def _call(name, *args):
    return C.own(_fn(name)(*args))


def _inplace(name, x, *args):
    C.check(_fn(name)(x, *args))
    return x


def _out(name, out, *args):
    C.check(_fn(name)(out, *args))
    return out


# ---- argument helpers ---------------------------------------------------------------------------

REAL = [torch.bool] + D.INT_DTYPES + D.FLOAT_DTYPES
SCALARS_INT = [0, 1, 2, 3, -2, 5, -7, 100, 2**40]
SCALARS_FLOAT = [0.0, -0.0, 0.5, -0.5, 1.0, -1.0, 2.0, 2.5, -3.25, 3.0, 1e30, float("inf"), float("-inf"), float("nan")]
SCALARS_COMPLEX = [1j, 2 + 0j, -0.5 + 1.5j, 0j]


def rand_scalar(g, complex_ok=True):
    r = g.random()
    if r < 0.1:
        return g.choice([True, False])
    if r < 0.45:
        return g.choice(SCALARS_INT)
    if r < 0.93 or not complex_ok:
        return g.choice(SCALARS_FLOAT)
    return g.choice(SCALARS_COMPLEX)


def bshapes(g):
    """Two broadcastable shapes (rarely not); sometimes big enough for torch's vectorized rows."""
    big = g.chance(0.25)
    s = list(g.shape(max_numel=400 if big else 48, max_ndim=4 if big else 6))
    t = list(s[g.int(0, len(s)):]) if g.chance(0.4) else list(s)
    for i in range(len(t)):
        if g.chance(0.2):
            t[i] = 1
    if g.chance(0.03):
        t = list(g.shape())
    if g.chance(0.5):
        s, t = t, s
    return tuple(s), tuple(t)


def bcast(s, t):
    try:
        return tuple(torch.broadcast_shapes(s, t))
    except RuntimeError:
        return s


def dtype_pair(g, among):
    """Two dtypes, often equal. float16 never meets complex: torch promotes that pair to complex32, a
    dtype ctorch does not have (the engine reports it as such)."""
    a = g.dtype(among)
    b = a if g.chance(0.45) else g.dtype(among)
    if torch.float16 in (a, b) and (a.is_complex or b.is_complex):
        a, b = [torch.float32 if d == torch.float16 else d for d in (a, b)]
    return a, b


def scalar_for(g, dt, complex_ok=True):
    """A Python number to combine with a tensor of dtype dt (no complex with float16, see above)."""
    return rand_scalar(g, complex_ok and dt != torch.float16)


def _values(g, shape, dt):
    return D.random_tensor(g.rng, shape, dt)


def divisor_spec(g, shape, dt, dividend_dt, layout=None):
    """A divisor tensor: zeros mostly replaced (integer division by zero fails in both libraries, so
    keep it occasional), -1 replaced where torch would divide INT_MIN by it."""
    v = _values(g, shape, dt)
    if dt in D.INT_DTYPES or dt == torch.bool:
        if not g.chance(0.1):
            v = torch.where(v == 0, torch.ones_like(v), v)
        if dt != torch.bool and dividend_dt in (torch.int32, torch.int64):
            v = torch.where(v == -1, torch.full_like(v, -3), v)
    return Spec(shape, dt, layout or g.layout(), base=v)


def safe_scalar(g, dividend_dt, intdiv):
    v = scalar_for(g, dividend_dt)
    if intdiv and not isinstance(v, bool) and isinstance(v, int):
        if v == -1 and dividend_dt in (torch.int32, torch.int64):
            v = -3
        if v == 0 and not g.chance(0.15):
            v = 2
    return v


def gen_binary(among=None, scalar_b=0.2, scalar_a=0.0, intdiv=False, complex_scalar=True):
    """(a, b): tensors of broadcastable shapes and a random dtype pair; b (or a) sometimes a Python
    number, sometimes a 0-dim tensor."""
    def gen(g):
        da, db = dtype_pair(g, among or D.DTYPES)
        sa, sb = bshapes(g)
        r = g.random()
        if r < scalar_b:
            return A(g.tensor(shape=sa, dtype=da), safe_scalar(g, da, intdiv) if intdiv else scalar_for(g, da, complex_scalar))
        if r < scalar_b + scalar_a:
            return A(scalar_for(g, db, complex_scalar), divisor_spec(g, sb, db, None) if intdiv else g.tensor(shape=sb, dtype=db))
        if g.chance(0.1):
            sb = ()
        b = divisor_spec(g, sb, db, da) if intdiv else g.tensor(shape=sb, dtype=db)
        return A(g.tensor(shape=sa, dtype=da), b)
    return gen


def gen_inplace(among=None, scalar_b=0.2, intdiv=False, complex_scalar=True):
    """(self, other): self has the broadcast shape (sometimes not: PyTorch's error); any dtypes."""
    def gen(g):
        da, db = dtype_pair(g, among or D.DTYPES)
        sa, sb = bshapes(g)
        full = bcast(sa, sb)
        self_shape = full if g.chance(0.9) else sa
        layout = g.layout()
        if "expanded" in layout and g.chance(0.8):
            layout = ["contiguous"]
        x = Spec(self_shape, da, layout)
        if g.chance(scalar_b):
            return A(x, safe_scalar(g, da, intdiv) if intdiv else scalar_for(g, da, complex_scalar))
        b = divisor_spec(g, sb, db, da) if intdiv else g.tensor(shape=sb, dtype=db)
        return A(x, b)
    return gen


def gen_out(base_gen, out_dtypes=None):
    """(out, a, b): out of the result shape (sometimes another: resized), a random dtype and layout.
    torch has no out= form with a Python number first (remainder(5, t, out=o) is a TypeError): such a
    first argument becomes a 0-dim tensor."""
    def gen(g):
        args = list(base_gen(g).args)
        if not isinstance(args[0], Spec):
            v = args[0]
            dt = torch.complex64 if isinstance(v, complex) else torch.float32 if isinstance(v, float) else \
                torch.bool if isinstance(v, bool) else torch.int64
            args[0] = Spec((), dt, "contiguous", base=torch.tensor(v, dtype=dt))
        a, b = args[0], args[1]
        sa = a.shape if isinstance(a, Spec) else ()
        sb = b.shape if isinstance(b, Spec) else ()
        shape = bcast(sa, sb) if g.chance(0.8) else g.shape(max_numel=12)
        layout = g.layout()
        if "expanded" in layout and g.chance(0.8):
            layout = ["contiguous"]
        dt = g.dtype(out_dtypes) if out_dtypes and g.chance(0.8) else g.dtype()
        return A(Spec(shape, dt, layout), *args)
    return gen


# ---- entries ------------------------------------------------------------------------------------

def triple(name, tfn, among=None, scalar_b=0.2, scalar_a=0.0, intdiv=False, inplace=True, tol=None,
           weight=1.0, complex_scalar=True, ct_name=None, out_dtypes=None):
    """The out-of-place, in-place and out= entries of a binary op (torch.<tfn>)."""
    ct_name = ct_name or "ct_" + name
    tf = getattr(torch, tfn)
    base = gen_binary(among, scalar_b, scalar_a, intdiv, complex_scalar)
    ops = [Op(name, base, torch=lambda a, b: tf(a, b), ct=lambda a, b: _call(ct_name, _w(a), _w(b)),
              tol=tol, weight=weight)]
    if inplace:
        ops.append(Op(name + "_", gen_inplace(among, scalar_b, intdiv, complex_scalar),
                      torch=lambda x, b: getattr(x, tfn + "_")(b),
                      ct=lambda x, b: _inplace(ct_name + "_", x, _w(b)), tol=tol, weight=weight * 0.5))
    ops.append(Op(name + "_out", gen_out(base, out_dtypes), torch=lambda o, a, b: tf(a, b, out=o),
                  ct=lambda o, a, b: _out(ct_name + "_out", o, _w(a), _w(b)), tol=tol, weight=weight * 0.5))
    return ops


# div with rounding_mode: None, "trunc", "floor" and, rarely, an invalid string
MODES = [None, None, "trunc", "floor", "floor", "trunc"]


def _mode(g):
    return "bogus" if g.chance(0.03) else g.choice(MODES)


def _opts(m):
    return None if m is None else ctypes.byref(DivOpts(m.encode()))


def gen_div(g):
    m = _mode(g)
    return A(*gen_binary(scalar_b=0.2, intdiv=m is not None)(g).args, m)


def gen_div_(g):
    m = _mode(g)
    return A(*gen_inplace(scalar_b=0.2, intdiv=m is not None)(g).args, m)


def gen_div_out(g):
    m = _mode(g)
    return A(*gen_out(gen_binary(scalar_b=0.2, intdiv=m is not None))(g).args, m)


def div_entries(name):
    tfn = getattr(torch, name)

    def ct(a, b, m):
        opts = _opts(m)
        return _call("ct_" + name, _w(a), _w(b), opts)

    def ct_(x, b, m):
        opts = _opts(m)
        return _inplace("ct_" + name + "_", x, _w(b), opts)

    def ct_out(o, a, b, m):
        opts = _opts(m)
        return _out("ct_" + name + "_out", o, _w(a), _w(b), opts)

    return [
        Op(name, gen_div, torch=lambda a, b, m: tfn(a, b, rounding_mode=m), ct=ct, weight=2),
        Op(name + "_", gen_div_, torch=lambda x, b, m: getattr(x, name + "_")(b, rounding_mode=m), ct=ct_),
        Op(name + "_out", gen_div_out, torch=lambda o, a, b, m: tfn(a, b, rounding_mode=m, out=o), ct=ct_out),
    ]


# pow: the exponent is often a Python number (pow(Tensor, Scalar) and its special cases), sometimes
# the base (pow(Scalar, Tensor))
POW_EXPONENTS = [0, 1, 2, 3, -2, -1, 5, 0.5, -0.5, -1.0, 2.0, 3.0, -2.0, 2.5, 1 / 3, True, False, 0.0, 1.0,
                 1j, 2 + 0j, 0.5 + 0j, 300, 65519.0]


def pow_exponent(g, dt):
    e = g.choice(POW_EXPONENTS)
    return 2.5 if isinstance(e, complex) and dt == torch.float16 else e


def gen_pow(g):
    r = g.random()
    if r < 0.45:
        da = g.dtype()
        return A(g.tensor(shape=bshapes(g)[0], dtype=da), pow_exponent(g, da))
    return gen_binary(scalar_b=0.0, scalar_a=0.25)(g)


def gen_pow_(g):
    if g.chance(0.45):
        x = gen_inplace(scalar_b=0.0)(g).args[0]
        return A(x, pow_exponent(g, x.dtype))
    return gen_inplace(scalar_b=0.0)(g)


def pow_entries(name, out_dtypes=None):
    tf = getattr(torch, name)
    return [
        Op(name, gen_pow, torch=lambda a, b: tf(a, b), ct=lambda a, b: _call("ct_" + name, _w(a), _w(b)), tol=TOL,
           weight=3),
        Op(name + "_", gen_pow_, torch=lambda x, b: getattr(x, name + "_")(b),
           ct=lambda x, b: _inplace("ct_" + name + "_", x, _w(b)), tol=TOL, weight=1.5),
        Op(name + "_out", gen_out(gen_pow, out_dtypes), torch=lambda o, a, b: tf(a, b, out=o),
           ct=lambda o, a, b: _out("ct_" + name + "_out", o, _w(a), _w(b)), tol=TOL, weight=1.5),
    ]


def no_inplace(name, tfn=None, among=None, tol=None, weight=1.0, ct_name=None):
    tf = tfn or getattr(torch, name)
    ct_name = ct_name or "ct_" + name
    base = gen_binary(among, scalar_b=0.0)
    return [
        Op(name, base, torch=lambda a, b: tf(a, b), ct=lambda a, b: _call(ct_name, a, b), tol=tol, weight=weight),
        Op(name + "_out", gen_out(base), torch=lambda o, a, b: tf(a, b, out=o),
           ct=lambda o, a, b: _out(ct_name + "_out", o, a, b), tol=tol, weight=weight * 0.5),
    ]


def gen_heaviside(kind):
    """heaviside's operands: one real dtype for both (torch refuses two, or an out= of another, and complex
    ones with messages of its own: drawn now and then), values sometimes a 0-dim tensor, and now and then
    a Python number in either place, which torch's binding refuses (TypeError) and ctorch too. kind:
    "call" (input, values), "inplace" (self, values), "out" (out, input, values)."""
    def gen(g):
        da = g.dtype(REAL)
        db = da if g.chance(0.85) else g.dtype(D.DTYPES)
        if g.chance(0.04):
            da = g.dtype(D.COMPLEX_DTYPES)
        sa, sb = bshapes(g)
        if g.chance(0.15):
            sb = ()
        if kind == "inplace":
            sa = bcast(sa, sb) if g.chance(0.9) else sa
        a = g.tensor(shape=sa, dtype=da)
        b = g.tensor(shape=sb, dtype=db)
        if g.chance(0.08):
            b = rand_scalar(g, True)
        elif kind != "inplace" and g.chance(0.04):
            a = rand_scalar(g, True)
        if kind != "out":
            return A(a, b)
        dt_out = da if g.chance(0.85) else g.dtype(D.DTYPES)
        shape = bcast(sa, sb) if g.chance(0.8) else g.shape(max_numel=24, max_ndim=3)
        return A(Spec(shape, dt_out, g.layout()), a, b)
    return gen


def heaviside_entries():
    return [
        Op("heaviside", gen_heaviside("call"), torch=lambda a, b: torch.heaviside(a, b),
           ct=lambda a, b: _call("ct_heaviside", _w(a), _w(b))),
        Op("heaviside_", gen_heaviside("inplace"), torch=lambda x, b: x.heaviside_(b),
           ct=lambda x, b: _inplace("ct_heaviside_", x, _w(b)), weight=0.5),
        Op("heaviside_out", gen_heaviside("out"), torch=lambda o, a, b: torch.heaviside(a, b, out=o),
           ct=lambda o, a, b: _out("ct_heaviside_out", o, _w(a), _w(b)), weight=0.5),
    ]


OPS = (
    div_entries("div")
    + div_entries("divide")
    + triple("true_divide", "true_divide")
    + triple("floor_divide", "floor_divide", intdiv=True, weight=1.5)
    + triple("remainder", "remainder", intdiv=True, scalar_a=0.1, weight=1.5)
    + triple("fmod", "fmod", intdiv=True, weight=1.5)
    + pow_entries("pow")
    + pow_entries("float_power", out_dtypes=[torch.float64, torch.complex128])
    # PyTorch takes no Python number for these: 0-dim tensors stand in for scalars
    + triple("atan2", "atan2", scalar_b=0.0, tol=TOL)
    + triple("arctan2", "arctan2", scalar_b=0.0, tol=TOL)
    + triple("hypot", "hypot", scalar_b=0.0, tol=TOL)
    + triple("nextafter", "nextafter", scalar_b=0.0)
    + triple("copysign", "copysign", complex_scalar=False)
    + heaviside_entries()
    + triple("xlogy", "xlogy", scalar_a=0.1, complex_scalar=False, tol=TOL)
    + no_inplace("special_xlogy", tfn=torch.special.xlogy, tol=TOL, weight=0.5)
    + no_inplace("logaddexp", tol=TOL)
    + no_inplace("logaddexp2", tol=TOL)
    + no_inplace("maximum")
    + no_inplace("minimum")
    + no_inplace("fmax")
    + no_inplace("fmin")
)
