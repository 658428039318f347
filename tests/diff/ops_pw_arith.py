"""Entries for the arithmetic core of include/ctorch/pointwise.h: add/sub/subtract (with alpha), mul/
multiply and neg/negative, each in its out-of-place, in-place and out= forms, over any dtype pair,
broadcast shapes, every layout, Python numbers and 0-dim operands, and alpha values of every kind
(so PyTorch's alpha and bool-subtraction errors are compared too)."""
import ctypes

import torch

import ctorch as C
import data as D
from harness import A, Op, Spec
from ops_pw_binary import _call, _inplace, _out, _w, gen_binary, gen_inplace, gen_out, triple


class AlphaOpts(ctypes.Structure):
    _fields_ = [("alpha", C.ct_scalar)]


# The last row: alphas that overflow some common dtype (c10's checked conversion of alpha, of -alpha for
# sub: int8 1000 and -128 / 128, uint8 256 / -256, float16 65520, bfloat16 and float32 1e300).
ALPHAS = [None, 1, 2, -1, 0, 3, 1.0, 0.5, -2.5, True, False, 1j, 2 + 1j,
          1000, -128, 128, 256, -256, 65520, -65520, 1e300, -3.4e38, 2 ** 63 - 1, -2 ** 63, 1e300j]


def _alpha(g):
    return g.choice(ALPHAS)


def _kw(a):
    return {} if a is None else {"alpha": a}


def _opts(a):
    return None if a is None else ctypes.byref(AlphaOpts(C.ct_scalar.of(a)))


def alpha_entries(name, tfn):
    tf = getattr(torch, tfn)
    base = gen_binary(scalar_b=0.2)

    def with_alpha(gen):
        return lambda g: A(*gen(g).args, _alpha(g))

    return [
        Op(name, with_alpha(base), torch=lambda a, b, al: tf(a, b, **_kw(al)),
           ct=lambda a, b, al: _call("ct_" + name, _w(a), _w(b), _opts(al))),
        Op(name + "_", with_alpha(gen_inplace(scalar_b=0.2)), torch=lambda x, b, al: getattr(x, tfn + "_")(b, **_kw(al)),
           ct=lambda x, b, al: _inplace("ct_" + name + "_", x, _w(b), _opts(al)), weight=0.5),
        Op(name + "_out", with_alpha(gen_out(base)), torch=lambda o, a, b, al: tf(a, b, out=o, **_kw(al)),
           ct=lambda o, a, b, al: _out("ct_" + name + "_out", o, _w(a), _w(b), _opts(al)), weight=0.5),
    ]


def gen_unary(g):
    return A(g.tensor(shape=g.shape(max_numel=400 if g.chance(0.2) else 48), dtype=g.dtype()))


def gen_unary_out(g):
    x = gen_unary(g).args[0]
    shape = x.shape if g.chance(0.8) else g.shape(max_numel=12)
    layout = g.layout()
    if "expanded" in layout:
        layout = ["contiguous"]
    dt = x.dtype if g.chance(0.7) else g.dtype()
    return A(Spec(shape, dt, layout), x)


def gen_unary_inplace(g):
    layout = g.layout()
    if "expanded" in layout and g.chance(0.8):
        layout = ["contiguous"]
    return A(Spec(g.shape(max_numel=48), g.dtype(), layout))


def unary_entries(name):
    tf = getattr(torch, name)
    return [
        Op(name, gen_unary, torch=lambda x: tf(x), ct=lambda x: _call("ct_" + name, x)),
        Op(name + "_", gen_unary_inplace, torch=lambda x: getattr(x, name + "_")(),
           ct=lambda x: _inplace("ct_" + name + "_", x), weight=0.5),
        Op(name + "_out", gen_unary_out, torch=lambda o, x: tf(x, out=o), ct=lambda o, x: _out("ct_" + name + "_out", o, x),
           weight=0.5),
    ]


OPS = (
    alpha_entries("add", "add")
    + alpha_entries("sub", "sub")
    + alpha_entries("subtract", "subtract")
    + triple("mul", "mul")
    + triple("multiply", "multiply")
    + unary_entries("neg")
    + unary_entries("negative")
)
