"""torch 1.13's lazy conjugate and negative bits through every op family: conj() views (is_conj, sharing
storage, no copy), the neg view x.conj().imag, resolve_conj / resolve_neg, views of a conjugated tensor
keeping the bit, clone / contiguous / to / copy_ resolving it, pointwise ops, reductions and scans reading
conjugated inputs, in-place ops and out= tensors writing through a conj / neg view (the base tensor is
compared after the call), item and element access, equal, printing and a random fill through a conj
view. Every result is compared with its is_conj / is_neg (harness: math_bits) and its values as read
through the bits."""
import ctypes

import torch

import ctorch as C
from harness import A, Op
from ops_reduce import ropts

CPLX = [torch.complex64, torch.complex128]
ALL = [torch.bool, torch.uint8, torch.int32, torch.int64, torch.float16, torch.bfloat16, torch.float32,
       torch.float64] + CPLX


def _fn(name):
    return C.lib().fn(name)


def _call(name, *args):
    return C.own(_fn(name)(*args))


def _st(status, x):
    C.check(status)
    return x


# the ctorch side of the torch spellings
def cconj(x): return _call("ct_conj", x)
def cimag(x): return _call("ct_imag", x)
def creal(x): return _call("ct_real", x)
def cneg(x): return cimag(cconj(x))  # a neg view, as torch's x.conj().imag


# ---- generators ---------------------------------------------------------------------------------

def gen_c(g):
    return A(g.tensor(dtype=g.dtype(CPLX)))


def gen_any(g):
    return A(g.tensor(dtype=g.dtype(ALL)))


def gen_cc(g):
    dt = g.dtype(CPLX)
    sh = g.shape()
    return A(g.tensor(shape=sh, dtype=dt), g.tensor(shape=sh, dtype=g.dtype(CPLX) if g.chance(0.3) else dt))


def gen_c_dim(g):
    x = g.tensor(dtype=g.dtype(CPLX))
    return A(x, g.dim(len(x.shape), bad=0.05))


def gen_c_one(g):
    return A(g.tensor(shape=g.choice([(), (1,), (1, 1)]), dtype=g.dtype(CPLX)))


def gen_c_index(g):
    x = g.tensor(shape=g.choice([(3,), (2, 3), (4, 1, 2), ()]), dtype=g.dtype(CPLX))
    idx = tuple(g.int(-n, n - 1) for n in x.shape)
    return A(x, idx, complex(g.choice([1.5, -2.0, 0.0]), g.choice([0.5, -3.0, 0.0])))


def gen_out_red(g):
    """(out, input): out shaped as the input's sum over dim 0 (the input has a dim)."""
    dt = g.dtype(CPLX)
    sh = g.choice([(3,), (2, 3), (4, 2, 2), (0, 3), (5, 1)])
    return A(g.tensor(shape=sh[1:], dtype=dt), g.tensor(shape=sh, dtype=dt))


def gen_c_seed(g):
    return A(g.tensor(dtype=g.dtype(CPLX)), g.int(0, 1000))


# ---- the table ----------------------------------------------------------------------------------

def _views_t(x):
    y = x.conj()
    vs = [y.unsqueeze(0), y.reshape(-1), y.flatten(), y.detach()]
    if y.dim() >= 1 and y.shape[0] > 0:
        vs += [y.select(0, 0), y[::2], y.expand((2,) + tuple(y.shape))]
    if y.dim() >= 2:
        vs += [y.transpose(0, 1), y.t() if y.dim() == 2 else y.movedim(0, -1)]
    return vs


def _views_c(x):
    y = cconj(x)
    vs = [C.unsqueeze(y, 0), C.reshape(y, (-1,)), C.flatten(y), C.detach(y)]
    if len(y.shape) >= 1 and y.shape[0] > 0:
        vs += [C.select(y, 0, 0), C.slice(y, 0, 0, y.shape[0], 2), C.expand(y, (2,) + tuple(y.shape))]
    if len(y.shape) >= 2:
        vs += [C.transpose(y, 0, 1), _call("ct_t", y) if len(y.shape) == 2 else C.movedim(y, 0, -1)]
    return vs


def _bits_t(x):
    y = x.conj()
    return [t.is_conj() for t in (x, y, y.conj(), y.imag, y.real)] + [t.is_neg() for t in (x, y, y.imag, y.real)]


def _bits_c(x):
    L = C.lib()
    y = cconj(x)
    return ([bool(L.ct_is_conj(t.ptr)) for t in (x, y, cconj(y), cimag(y), creal(y))]
            + [bool(L.ct_is_neg(t.ptr)) for t in (x, y, cimag(y), creal(y))])


def _seeded_normal_t(x, s):
    torch.manual_seed(s)
    x.conj().normal_()
    return x


def _seeded_normal_c(x, s):
    C.check(C.lib().ct_manual_seed(s))
    return _st(_fn("ct_normal_")(cconj(x), 0.0, 1.0, None), x)


def _repr_c(t):
    """ct_to_string(t) as a str; the string is freed (ct_to_string's own prototype returns bytes, losing it)."""
    L = C.lib()
    L.fn("ct_to_string")  # resolved through the prototypes (the coverage of format.h)
    f = ctypes.CFUNCTYPE(ctypes.c_void_p, ctypes.c_void_p)(("ct_to_string", L.dll))
    p = f(t.ptr if t is not None else None)
    if not p:
        C._raise()
    s = ctypes.cast(p, ctypes.c_char_p).value.decode()
    ctypes.CDLL(None).free(ctypes.c_void_p(p))
    return s


OPS = [
    # conj(): a view with the bit (other dtypes: the tensor itself), its bits and views, resolution
    Op("conj_view", gen_any, torch=lambda x: x.conj(), ct=cconj, weight=2),
    Op("conj_bits", gen_c, torch=_bits_t, ct=_bits_c),
    Op("conj_imag", gen_c, torch=lambda x: x.conj().imag, ct=cneg),
    Op("conj_real", gen_c, torch=lambda x: x.conj().real, ct=lambda x: creal(cconj(x))),
    Op("conj_views", gen_c, torch=_views_t, ct=_views_c, weight=2),
    Op("resolve_conj", gen_c, torch=lambda x: (x.resolve_conj(), x.conj().resolve_conj()),
       ct=lambda x: (_call("ct_resolve_conj", x), _call("ct_resolve_conj", cconj(x)))),
    Op("resolve_neg", gen_c, torch=lambda x: (x.resolve_neg(), x.conj().imag.resolve_neg(), x.conj().resolve_neg()),
       ct=lambda x: (_call("ct_resolve_neg", x), _call("ct_resolve_neg", cneg(x)), _call("ct_resolve_neg", cconj(x)))),
    # copies: clone / contiguous / to / copy_ resolve; copy_ into a conj view writes through it
    Op("conj_clone", gen_c, torch=lambda x: (x.conj().clone(), x.conj().contiguous(), x.conj().imag.clone()),
       ct=lambda x: (C.clone(cconj(x)), C.contiguous(cconj(x)), C.clone(cneg(x)))),
    Op("conj_to", gen_c, torch=lambda x: (x.conj().to(torch.complex128), x.conj().imag.to(torch.float64),
                                          x.conj().imag.to(torch.int32), x.conj().imag.to(torch.complex64)),
       ct=lambda x: (C.to(cconj(x), dtype=torch.complex128), C.to(cneg(x), dtype=torch.float64),
                     C.to(cneg(x), dtype=torch.int32), C.to(cneg(x), dtype=torch.complex64))),
    Op("conj_copy_", gen_cc, torch=lambda a, b: (a.conj().copy_(b), a),
       ct=lambda a, b: (C.copy_(cconj(a), b), a)),
    Op("conj_copy_from", gen_cc, torch=lambda a, b: a.copy_(b.conj()), ct=lambda a, b: C.copy_(a, cconj(b))),
    Op("conj_copy_self", gen_c, torch=lambda x: x.copy_(x.conj()), ct=lambda x: C.copy_(x, cconj(x))),
    Op("neg_copy_", gen_cc, torch=lambda a, b: a.conj().imag.copy_(b.real), ct=lambda a, b: C.copy_(cneg(a), creal(b))),
    # pointwise ops read the bits; in-place and out= write through them
    Op("conj_add", gen_cc, torch=lambda a, b: torch.add(a.conj(), b), ct=lambda a, b: _call("ct_add", cconj(a), b, None)),
    Op("conj_mul_self", gen_c, torch=lambda x: x.conj() * x, ct=lambda x: _call("ct_mul", cconj(x), x)),
    Op("conj_unary", gen_c, torch=lambda x: (torch.neg(x.conj()), torch.exp(x.conj()), torch.abs(x.conj()),
                                             torch.conj_physical(x.conj()), torch.angle(x.conj())),
       ct=lambda x: (_call("ct_neg", cconj(x)), _call("ct_exp", cconj(x)), _call("ct_abs", cconj(x)),
                     _call("ct_conj_physical", cconj(x)), _call("ct_angle", cconj(x))), tol=(1e-6, 1e-6)),
    Op("neg_view_unary", gen_c, torch=lambda x: (x.conj().imag + 1, torch.sin(x.conj().imag), -x.conj().imag),
       ct=lambda x: (_call("ct_add", cneg(x), C.wrapped_scalar(1), None), _call("ct_sin", cneg(x)), _call("ct_neg", cneg(x))),
       tol=(1e-6, 1e-6)),
    Op("conj_compare", gen_c, torch=lambda x: (x.conj() == x.conj_physical(), torch.eq(x.conj(), x)),
       ct=lambda x: (_call("ct_eq", cconj(x), _call("ct_conj_physical", x)), _call("ct_eq", cconj(x), x))),
    Op("conj_add_", gen_cc, torch=lambda a, b: (a.conj().add_(b), a)[1], ct=lambda a, b: (
        _st(_fn("ct_add_")(cconj(a), b, None), None) or a)),
    Op("conj_mul_", gen_cc, torch=lambda a, b: (a.conj().mul_(b), a)[1], ct=lambda a, b: (
        _st(_fn("ct_mul_")(cconj(a), b), None) or a)),
    Op("conj_physical_on_view_", gen_c, torch=lambda x: (torch.conj_physical_(x.conj()), x)[1],
       ct=lambda x: _st(_fn("ct_conj_physical_")(cconj(x)), x)),
    Op("neg_view_mul_", gen_c, torch=lambda x: (x.conj().imag.mul_(2), x)[1],
       ct=lambda x: _st(_fn("ct_mul_")(cneg(x), C.wrapped_scalar(2)), x)),
    Op("conj_add_out", gen_cc, torch=lambda a, b: (torch.add(b, 1, out=a.conj()), a)[1],
       ct=lambda a, b: _st(_fn("ct_add_out")(cconj(a), b, C.wrapped_scalar(1), None), a)),
    # reductions and scans
    Op("conj_sum", gen_c, torch=lambda x: (x.conj().sum(), x.conj().prod(), x.conj().mean(), x.conj().imag.amax()
                                          if x.numel() else x.conj().imag.sum()),
       ct=lambda x: (_call("ct_sum", cconj(x), None), _call("ct_prod", cconj(x), None), _call("ct_mean", cconj(x), None),
                     _call("ct_amax", cneg(x), None) if 0 not in x.shape else _call("ct_sum", cneg(x), None)),
       tol=(1e-5, 1e-5)),
    Op("conj_sum_dim", gen_c_dim, torch=lambda x, d: x.conj().sum(d), ct=lambda x, d: _call("ct_sum", cconj(x), ropts(d)),
       tol=(1e-5, 1e-5)),
    Op("conj_sum_out", gen_out_red, torch=lambda a, b: (torch.sum(b, 0, out=a.conj()), a)[1],
       ct=lambda a, b: _st(_fn("ct_sum_out")(cconj(a), b, ropts(0)), a), tol=(1e-5, 1e-5)),
    Op("conj_cumsum", gen_c_dim, torch=lambda x, d: x.conj().cumsum(d), ct=lambda x, d: _call("ct_cumsum", cconj(x), d, None),
       tol=(1e-5, 1e-5)),
    Op("conj_cumsum_", gen_c_dim, torch=lambda x, d: (x.conj().cumsum_(d), x)[1],
       ct=lambda x, d: _st(_fn("ct_cumsum_")(cconj(x), d, None), x), tol=(1e-5, 1e-5)),
    Op("conj_cumsum_out", gen_cc, torch=lambda a, b: (torch.cumsum(b, -1 if b.dim() else 0, out=a.conj()), a)[1],
       ct=lambda a, b: _st(_fn("ct_cumsum_out")(cconj(a), b, -1 if b.shape else 0, None), a), tol=(1e-5, 1e-5)),
    Op("neg_view_cummax", gen_c_dim, torch=lambda x, d: tuple(torch.cummax(x.conj().imag, d)),
       ct=lambda x, d: _cummax_c(cneg(x), d)),
    # element access, equal, printing, random fill through a conj view
    Op("conj_item", gen_c_one, torch=lambda x: (x.conj().item(), x.conj().imag.item()),
       ct=lambda x: (C.item(cconj(x)), C.item(cneg(x)))),
    Op("conj_get_set_item", gen_c_index, torch=lambda x, i, v: (x.conj()[i].item(), x.conj().__setitem__(i, v), x)[::2],
       ct=lambda x, i, v: (C.get_item(cconj(x), i), C.set_item(cconj(x), i, v) and x)),
    Op("conj_equal", gen_c, torch=lambda x: (torch.equal(x.conj(), x.conj_physical()), torch.equal(x.conj(), x)),
       ct=lambda x: (C.equal(cconj(x), _call("ct_conj_physical", x)), C.equal(cconj(x), x))),
    Op("conj_repr", gen_c, torch=lambda x: (repr(x.conj()), repr(x.conj().imag)),
       ct=lambda x: (_repr_c(cconj(x)), _repr_c(cneg(x)))),
    Op("conj_normal_", gen_c_seed, torch=_seeded_normal_t, ct=_seeded_normal_c),
]


def _cummax_c(x, d):
    v, i = ctypes.c_void_p(), ctypes.c_void_p()
    C.check(_fn("ct_cummax")(x, d, ctypes.byref(v), ctypes.byref(i)))
    return (C.own(v.value), C.own(i.value))
