"""Entries for the unary elementary block of include/ctorch/pointwise.h: abs/absolute, positive, sign, sgn,
signbit, ceil, floor, round (with decimals), trunc/fix, frac, reciprocal, square, deg2rad, rad2deg, angle,
conj, conj_physical, real, imag, isnan, isinf, isposinf, isneginf, isfinite, isreal, nan_to_num,
bitwise_not, logical_not, each in every form PyTorch has (functional, in-place, out=).

Inputs are any dtype in any layout (contiguous, transposed, strided, expanded, offset), 0-dim to 6-D,
empty, and sometimes long enough for torch's vectorized rows (whose complex and bfloat16 results differ
from its scalar ones in the last bit or in NaN packing). In-place targets are sometimes expanded (the
overlap error); out= tensors get a random dtype (the cast rules and their errors), layout and sometimes a
wrong shape (resized). All results are compared bit for bit.

Not drawn: torch.round(x, decimals=0) for integer and float16 tensors, which torch sends to its
round.decimals kernel (an error) while ctorch's zero `decimals` means the plain round (a copy for
integers); ct_conj of a complex tensor is compared with torch's resolved conj (ctorch has no conj bit)."""
import ctypes

import torch

import ctorch as C
import data as D
from harness import A, Op, Spec


class RoundOpts(ctypes.Structure):
    _fields_ = [("decimals", ctypes.c_int64)]


class NanToNumOpts(ctypes.Structure):
    _fields_ = [("nan", ctypes.c_double), ("has_posinf", ctypes.c_bool), ("posinf", ctypes.c_double),
                ("has_neginf", ctypes.c_bool), ("neginf", ctypes.c_double)]


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


# ---- generators ---------------------------------------------------------------------------------

def _shape(g):
    big = g.chance(0.25)
    return g.shape(max_numel=300 if big else 48, max_ndim=3 if big else 6)


def gen_x(among=None):
    def gen(g):
        return A(g.tensor(shape=_shape(g), dtype=g.dtype(among)))
    return gen


def gen_self(among=None):
    """An in-place target: rarely expanded (PyTorch's overlap error)."""
    def gen(g):
        layout = g.layout()
        if "expanded" in layout and g.chance(0.8):
            layout = ["contiguous"]
        return A(Spec(_shape(g), g.dtype(among), layout))
    return gen


def gen_out(base_gen, out_dtypes=None):
    """(out, x): out of x's shape (sometimes another: resized), a random dtype (often one of
    out_dtypes) and layout."""
    def gen(g):
        x = base_gen(g).args[0]
        shape = x.shape if g.chance(0.8) else g.shape(max_numel=12)
        layout = g.layout()
        if "expanded" in layout and g.chance(0.8):
            layout = ["contiguous"]
        r = g.random()
        if r < 0.45:
            dt = x.dtype
        elif r < 0.8 and out_dtypes:
            dt = g.choice(out_dtypes)
        else:
            dt = g.dtype()
        return A(Spec(shape, dt, layout), x)
    return gen


# ---- entries ------------------------------------------------------------------------------------

def triple(name, among=None, inplace=True, out=True, out_dtypes=None, weight=1.0, tname=None):
    """torch.<name> in the forms given, against ct_<name>, ct_<name>_ and ct_<name>_out."""
    tname = tname or name
    tf = getattr(torch, tname)
    ops = [Op(name, gen_x(among), torch=lambda x: tf(x), ct=lambda x: _call("ct_" + name, x), weight=weight)]
    if inplace:
        ops.append(Op(name + "_", gen_self(among), torch=lambda x: getattr(x, tname + "_")(),
                      ct=lambda x: _inplace("ct_" + name + "_", x), weight=weight * 0.5))
    if out:
        ops.append(Op(name + "_out", gen_out(gen_x(among), out_dtypes), torch=lambda o, x: tf(x, out=o),
                      ct=lambda o, x: _out("ct_" + name + "_out", o, x), weight=weight * 0.5))
    return ops


FLOATS = [torch.float32, torch.float64, torch.bfloat16, torch.float16]
CPLX = [torch.complex64, torch.complex128]


# round: decimals drawn (0 means "not given"; see the module note)
DECIMALS = [0, 0, 0, 1, 2, 3, -1, -2, 5, 40, -40]


def _round_opts(d):
    return None if d == 0 else ctypes.byref(RoundOpts(d))


def _round_kw(d):
    return {} if d == 0 else {"decimals": d}


def gen_round(g):
    return A(*gen_x()(g).args, g.choice(DECIMALS))


def gen_round_(g):
    return A(*gen_self()(g).args, g.choice(DECIMALS))


def gen_round_out(g):
    return A(*gen_out(gen_x(), FLOATS)(g).args, g.choice(DECIMALS))


# nan_to_num: (nan, posinf, neginf), None for "not given"
NAN_OPTS = [None, None, (0.0, None, None), (1.5, 2.0, -3.0), (float("nan"), 1e300, -1e300), (-7.0, 1e5, None),
            (0.0, None, -70000.0), (2.0, float("inf"), None)]


def _nan_kw(o):
    return {} if o is None else {"nan": o[0], "posinf": o[1], "neginf": o[2]}


def _nan_opts(o):
    if o is None:
        return None
    return ctypes.byref(NanToNumOpts(o[0], o[1] is not None, o[1] or 0.0, o[2] is not None, o[2] or 0.0))


def gen_nan(g):
    return A(*gen_x()(g).args, g.choice(NAN_OPTS))


def gen_nan_(g):
    return A(*gen_self()(g).args, g.choice(NAN_OPTS))


def gen_nan_out(g):
    return A(*gen_out(gen_x())(g).args, g.choice(NAN_OPTS))


OPS = (
    triple("abs", out_dtypes=[torch.float32, torch.float64, torch.complex64, torch.int32], weight=2)
    + triple("absolute", out_dtypes=[torch.float32, torch.float64, torch.complex64, torch.int32])
    + [Op("positive", gen_x(), torch=lambda x: torch.positive(x), ct=lambda x: _call("ct_positive", x))]
    + triple("sign")
    + triple("sgn", weight=1.5)
    + triple("signbit", inplace=False, out_dtypes=[torch.bool])
    + triple("ceil")
    + triple("floor")
    + triple("trunc")
    + triple("fix")
    + [Op("round", gen_round, torch=lambda x, d: torch.round(x, **_round_kw(d)),
          ct=lambda x, d: _call("ct_round", x, _round_opts(d)), weight=1.5),
       Op("round_", gen_round_, torch=lambda x, d: x.round_(**_round_kw(d)),
          ct=lambda x, d: _inplace("ct_round_", x, _round_opts(d))),
       Op("round_out", gen_round_out, torch=lambda o, x, d: torch.round(x, out=o, **_round_kw(d)),
          ct=lambda o, x, d: _out("ct_round_out", o, x, _round_opts(d)))]
    + triple("frac")
    + triple("reciprocal", out_dtypes=FLOATS + CPLX, weight=1.5)
    + triple("square", out_dtypes=[torch.int64], weight=1.5)
    + triple("deg2rad", out_dtypes=FLOATS + CPLX)
    + triple("rad2deg", out_dtypes=FLOATS + CPLX)
    + triple("angle", inplace=False, out_dtypes=FLOATS + CPLX, weight=1.5)
    + [Op("conj", gen_x(), torch=lambda x: torch.conj(x), ct=lambda x: _call("ct_conj", x))]
    + triple("conj_physical")
    + [Op("real", gen_x(), torch=lambda x: torch.real(x), ct=lambda x: _call("ct_real", x)),
       Op("imag", gen_x(), torch=lambda x: torch.imag(x), ct=lambda x: _call("ct_imag", x))]
    + triple("isnan", inplace=False, out=False)
    + triple("isinf", inplace=False, out=False)
    + triple("isposinf", inplace=False, out_dtypes=[torch.bool])
    + triple("isneginf", inplace=False, out_dtypes=[torch.bool])
    + triple("isfinite", inplace=False, out=False)
    + triple("isreal", inplace=False, out=False)
    + [Op("nan_to_num", gen_nan, torch=lambda x, o: torch.nan_to_num(x, **_nan_kw(o)),
          ct=lambda x, o: _call("ct_nan_to_num", x, _nan_opts(o))),
       Op("nan_to_num_", gen_nan_, torch=lambda x, o: x.nan_to_num_(**_nan_kw(o)),
          ct=lambda x, o: _inplace("ct_nan_to_num_", x, _nan_opts(o)), weight=0.5),
       Op("nan_to_num_out", gen_nan_out, torch=lambda out, x, o: torch.nan_to_num(x, out=out, **_nan_kw(o)),
          ct=lambda out, x, o: _out("ct_nan_to_num_out", out, x, _nan_opts(o)), weight=0.5)]
    + triple("bitwise_not")
    + triple("logical_not", out_dtypes=[torch.bool, torch.float32, torch.int64, torch.complex64])
)
