"""Entries for the unary math block of include/ctorch/pointwise.h: sqrt ... sinc, logit (eps), polygamma
(n), mvlgamma (p) and the torch.special names, each in its forms (out-of-place, in-place `_`, `out=`).

Inputs: every dtype (integers and bool promote to float32; float16 and complex fail where PyTorch has no
kernel, and in-place integer targets fail the cast), random shapes and layouts (contiguous, transposed,
sliced, expanded, offset), 0-dim and empty tensors, values with the suite's specials or drawn from the
op's interesting range (domain edges, poles, huge, tiny, denormal). out= targets of every dtype and of
matching or other shapes (resized). Transcendental ops are compared within assert_close's float32
tolerance (`tol`); ctorch follows PyTorch's kernels and is bit-exact on this machine in practice:
PW_MATH_EXACT=1 in the environment compares every entry bit for bit instead."""
import ctypes
import math
import os

import numpy as np
import torch

import ctorch as C
import data as D
from harness import A, Op, Spec

TOL = None if os.environ.get("PW_MATH_EXACT") else (1.3e-6, 1e-5)  # assert_close's float32 tolerance

# name -> (torch function name, value range (lo, hi) for the drawn values, exact)
UNARY = {
    "sqrt": ("sqrt", (-2.0, 50.0), True),
    "rsqrt": ("rsqrt", (-2.0, 50.0), True),
    "exp": ("exp", (-110.0, 90.0), False),
    "exp2": ("exp2", (-160.0, 130.0), False),
    "expm1": ("expm1", (-5.0, 5.0), False),
    "log": ("log", (-1.0, 20.0), False),
    "log2": ("log2", (-1.0, 20.0), False),
    "log10": ("log10", (-1.0, 20.0), False),
    "log1p": ("log1p", (-1.5, 5.0), False),
    "sin": ("sin", (-10.0, 10.0), False),
    "cos": ("cos", (-10.0, 10.0), False),
    "tan": ("tan", (-4.0, 4.0), False),
    "asin": ("asin", (-1.2, 1.2), False),
    "arcsin": ("arcsin", (-1.2, 1.2), False),
    "acos": ("acos", (-1.2, 1.2), False),
    "arccos": ("arccos", (-1.2, 1.2), False),
    "atan": ("atan", (-10.0, 10.0), False),
    "arctan": ("arctan", (-10.0, 10.0), False),
    "sinh": ("sinh", (-12.0, 12.0), False),
    "cosh": ("cosh", (-12.0, 12.0), False),
    "tanh": ("tanh", (-10.0, 10.0), False),
    "asinh": ("asinh", (-50.0, 50.0), False),
    "arcsinh": ("arcsinh", (-50.0, 50.0), False),
    "acosh": ("acosh", (0.0, 20.0), False),
    "arccosh": ("arccosh", (0.0, 20.0), False),
    "atanh": ("atanh", (-1.2, 1.2), False),
    "arctanh": ("arctanh", (-1.2, 1.2), False),
    "sigmoid": ("sigmoid", (-20.0, 20.0), False),
    "erf": ("erf", (-4.0, 4.0), False),
    "erfc": ("erfc", (-4.0, 12.0), False),
    "erfinv": ("erfinv", (-1.1, 1.1), False),
    "lgamma": ("lgamma", (-6.0, 30.0), False),
    "digamma": ("digamma", (-6.0, 30.0), False),
    "i0": ("i0", (-20.0, 20.0), False),
    "sinc": ("sinc", (-6.0, 6.0), False),
}
# torch.special names (no in-place forms): name -> (ctorch function, torch.special function, unary entry)
SPECIAL = {
    "special_expit": "sigmoid", "special_exp2": "exp2", "special_expm1": "expm1", "special_log1p": "log1p",
    "special_erf": "erf", "special_erfc": "erfc", "special_erfinv": "erfinv", "special_gammaln": "lgamma",
    "special_digamma": "digamma", "special_psi": "digamma", "special_i0": "i0", "special_sinc": "sinc",
}
# Values around poles and edges, added to the drawn ones.
EDGES = [0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 2.0, -2.0, -3.0, 1e-30, -1e-30, 1e-40, 1e-310, 1e30, -1e30, 1e300,
         math.inf, -math.inf, math.nan, 88.72, 709.8, -87.3, 0.9999999, 1.0000001, 100.0]


def values_base(g, shape, rng_lo_hi):
    """float64 values for a tensor of `shape`: uniform in the op's range, some edges and specials."""
    n = math.prod(shape)
    lo, hi = rng_lo_hi
    v = np.array([lo + (hi - lo) * g.random() for _ in range(n)], dtype=np.float64)
    for i in range(n):
        r = g.random()
        if r < 0.15:
            v[i] = g.choice(EDGES)
        elif r < 0.22:
            v[i] = g.choice(D.SPECIALS)
        elif r < 0.3:
            v[i] = round(v[i] * 2) / 2  # halves and integers: poles of lgamma/digamma/tan
    return torch.from_numpy(v).reshape(shape)


def math_tensor(g, rng_lo_hi, dtype=None, shape=None, layout=None):
    spec = g.tensor(shape=shape, dtype=dtype, layout=layout)
    if g.chance(0.6) and math.prod(spec.shape):
        base = values_base(g, spec.shape, rng_lo_hi)
        if spec.dtype.is_complex:
            base = torch.complex(base, values_base(g, spec.shape, rng_lo_hi))
        spec.base = base
    return spec


MATH_DTYPES = D.DTYPES + D.FLOAT_DTYPES * 3 + D.COMPLEX_DTYPES  # floating types more often


def out_spec(g, shape):
    """An out= target: usually the right shape, sometimes another (resized) or empty; any dtype."""
    r = g.random()
    oshape = shape if r < 0.6 else (() if r < 0.7 else ((0,) if r < 0.8 else g.shape()))
    layout = g.layout()
    if "expanded" in layout and g.chance(0.8):
        layout = ["contiguous"]
    return Spec(oshape, g.dtype(MATH_DTYPES), layout)


def gen_unary(rng_lo_hi):
    def gen(g):
        return A(math_tensor(g, rng_lo_hi, dtype=g.dtype(MATH_DTYPES)))
    return gen


def gen_unary_out(rng_lo_hi):
    def gen(g):
        x = math_tensor(g, rng_lo_hi, dtype=g.dtype(MATH_DTYPES))
        return A(x, out_spec(g, x.shape))
    return gen


def gen_unary_inplace(rng_lo_hi):
    def gen(g):
        layout = g.layout()
        if "expanded" in layout and g.chance(0.8):
            layout = ["contiguous"]
        return A(math_tensor(g, rng_lo_hi, dtype=g.dtype(MATH_DTYPES), layout=layout))
    return gen


def _call_t(name):
    return lambda *a: C._t(name, *a)


def _inplace(name):
    def f(x, *rest):
        C.check(C.lib().fn(name)(x, *rest))
        return x
    return f


def _out(name):
    def f(x, o):
        C.check(C.lib().fn(name)(o, x))
        return o
    return f


OPS = []
for name, (tname, rng_lo_hi, exact) in UNARY.items():
    tol = None if exact else TOL
    tf = getattr(torch, tname)
    OPS.append(Op(name, gen_unary(rng_lo_hi), torch=tf, ct=_call_t("ct_" + name), tol=tol, weight=0.5))
    OPS.append(Op(name + "_", gen_unary_inplace(rng_lo_hi), torch=(lambda n: lambda x: getattr(x, n + "_")())(tname),
                  ct=_inplace("ct_%s_" % name), tol=tol, weight=0.3))
    OPS.append(Op(name + "_out", gen_unary_out(rng_lo_hi), torch=(lambda f: lambda x, o: f(x, out=o))(tf),
                  ct=_out("ct_%s_out" % name), tol=tol, weight=0.3))
for name, base in SPECIAL.items():
    tf = getattr(torch.special, name[len("special_"):])
    rng_lo_hi = UNARY[base][1]
    OPS.append(Op(name, gen_unary(rng_lo_hi), torch=tf, ct=_call_t("ct_" + name), tol=TOL, weight=0.1))
    OPS.append(Op(name + "_out", gen_unary_out(rng_lo_hi), torch=(lambda f: lambda x, o: f(x, out=o))(tf),
                  ct=_out("ct_%s_out" % name), tol=TOL, weight=0.1))


# ---- logit (eps) ----------------------------------------------------------------------------------

class LogitOpts(ctypes.Structure):
    _fields_ = [("eps", C.ct_scalar)]


_keep = []


def logit_opts(eps):
    if eps is None:
        return None
    o = LogitOpts(C.ct_scalar.of(eps))
    _keep.append(o)
    if len(_keep) > 64:
        del _keep[:32]
    return ctypes.addressof(o)


EPS = [None, None, 0.0, 1e-6, 0.125, 0.5, math.nan, 2.0, -0.5, -math.inf, True, 1, 1e300, 1e-45, 0.3j]


def gen_logit(g):
    return A(math_tensor(g, (-0.3, 1.3), dtype=g.dtype(MATH_DTYPES)), g.choice(EPS))


def gen_logit_out(g):
    x = math_tensor(g, (-0.3, 1.3), dtype=g.dtype(MATH_DTYPES))
    return A(x, g.choice(EPS), out_spec(g, x.shape))


def gen_logit_inplace(g):
    layout = g.layout()
    if "expanded" in layout and g.chance(0.8):
        layout = ["contiguous"]
    return A(math_tensor(g, (-0.3, 1.3), dtype=g.dtype(MATH_DTYPES), layout=layout), g.choice(EPS))


def _ct_logit(fn):
    return lambda x, eps: C._t(fn, x, logit_opts(eps))


def _ct_logit_(x, eps):
    C.check(C.lib().ct_logit_(x, logit_opts(eps)))
    return x


def _ct_logit_out(fn):
    def f(x, eps, o):
        C.check(C.lib().fn(fn)(o, x, logit_opts(eps)))
        return o
    return f


OPS += [
    Op("logit", gen_logit, torch=lambda x, eps: torch.logit(x, eps), ct=_ct_logit("ct_logit"), tol=TOL),
    Op("logit_", gen_logit_inplace, torch=lambda x, eps: x.logit_(eps), ct=_ct_logit_, tol=TOL),
    Op("logit_out", gen_logit_out, torch=lambda x, eps, o: torch.logit(x, eps, out=o), ct=_ct_logit_out("ct_logit_out"),
       tol=TOL),
    Op("special_logit", gen_logit, torch=lambda x, eps: torch.special.logit(x, eps), ct=_ct_logit("ct_special_logit"),
       tol=TOL, weight=0.3),
    Op("special_logit_out", gen_logit_out, torch=lambda x, eps, o: torch.special.logit(x, eps, out=o),
       ct=_ct_logit_out("ct_special_logit_out"), tol=TOL, weight=0.3),
]


# ---- polygamma (n) --------------------------------------------------------------------------------

# torch's calc_polygamma takes an int: large n wrap (2^32 + 2 is 2, 2^63 - 1 is -1). Not 2^31 - 1: torch's
# n + 1 overflows int there (undefined behaviour; its build gives no consistent formula).
N_VALUES = [0, 1, 1, 2, 2, 3, 4, 6, 10, -1, 2 ** 63 - 1, 2 ** 32 + 2, 2 ** 32 + 1, 2 ** 32, 2 ** 31]


def gen_polygamma(g):
    return A(g.choice(N_VALUES), math_tensor(g, (-4.0, 20.0), dtype=g.dtype(MATH_DTYPES)))


def gen_polygamma_out(g):
    n, x = gen_polygamma(g).args
    return A(n, x, out_spec(g, x.shape))


def gen_polygamma_inplace(g):
    layout = g.layout()
    if "expanded" in layout and g.chance(0.8):
        layout = ["contiguous"]
    return A(math_tensor(g, (-4.0, 20.0), dtype=g.dtype(MATH_DTYPES), layout=layout), g.choice(N_VALUES))


def _ct_polygamma_(x, n):
    C.check(C.lib().ct_polygamma_(x, n))
    return x


def _ct_polygamma_out(fn):
    def f(n, x, o):
        C.check(C.lib().fn(fn)(o, n, x))
        return o
    return f


OPS += [
    Op("polygamma", gen_polygamma, torch=torch.polygamma, ct=lambda n, x: C._t("ct_polygamma", n, x), tol=TOL),
    Op("polygamma_", gen_polygamma_inplace, torch=lambda x, n: x.polygamma_(n), ct=_ct_polygamma_, tol=TOL),
    Op("polygamma_out", gen_polygamma_out, torch=lambda n, x, o: torch.polygamma(n, x, out=o),
       ct=_ct_polygamma_out("ct_polygamma_out"), tol=TOL),
    Op("special_polygamma", gen_polygamma, torch=torch.special.polygamma,
       ct=lambda n, x: C._t("ct_special_polygamma", n, x), tol=TOL, weight=0.3),
    Op("special_polygamma_out", gen_polygamma_out, torch=lambda n, x, o: torch.special.polygamma(n, x, out=o),
       ct=_ct_polygamma_out("ct_special_polygamma_out"), tol=TOL, weight=0.3),
]


# ---- mvlgamma (p) ---------------------------------------------------------------------------------

P_VALUES = [1, 1, 2, 2, 3, 4, 5, 9, 17, 0, -1]


def gen_mvlgamma(g):
    p = g.choice(P_VALUES)
    return A(math_tensor(g, ((p - 1) / 2 - 1.0, (p - 1) / 2 + 25.0), dtype=g.dtype(MATH_DTYPES)), p)


def gen_mvlgamma_out(g):
    x, p = gen_mvlgamma(g).args
    return A(x, p, out_spec(g, x.shape))


def gen_mvlgamma_inplace(g):
    x, p = gen_mvlgamma(g).args
    if "expanded" in (x.layout or []) and g.chance(0.8):
        x.layout = ["contiguous"]
    return A(x, p)


def _ct_mvlgamma_(x, p):
    C.check(C.lib().ct_mvlgamma_(x, p))
    return x


def _ct_mvlgamma_out(fn):
    def f(x, p, o):
        C.check(C.lib().fn(fn)(o, x, p))
        return o
    return f


OPS += [
    Op("mvlgamma", gen_mvlgamma, torch=torch.mvlgamma, ct=lambda x, p: C._t("ct_mvlgamma", x, p), tol=TOL),
    Op("mvlgamma_", gen_mvlgamma_inplace, torch=lambda x, p: x.mvlgamma_(p), ct=_ct_mvlgamma_, tol=TOL),
    Op("mvlgamma_out", gen_mvlgamma_out, torch=lambda x, p, o: torch.mvlgamma(x, p, out=o),
       ct=_ct_mvlgamma_out("ct_mvlgamma_out"), tol=TOL),
    Op("special_multigammaln", gen_mvlgamma, torch=torch.special.multigammaln,
       ct=lambda x, p: C._t("ct_special_multigammaln", x, p), tol=TOL, weight=0.3),
    Op("special_multigammaln_out", gen_mvlgamma_out, torch=lambda x, p, o: torch.special.multigammaln(x, p, out=o),
       ct=_ct_mvlgamma_out("ct_special_multigammaln_out"), tol=TOL, weight=0.3),
]
