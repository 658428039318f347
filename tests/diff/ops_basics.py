"""Entries for the first-lines basics of issue 15: fill_ / zero_ (any layout, every dtype, values that do
not fit, leaves that require grad), to(other), cpu(), torch.device(type, index), size/stride as status
calls, and Python's text for tolist() / item() / size() / stride() / a Python number."""
import ctypes

import torch

import ctorch as C
import data as D
from harness import A, Spec
from harness import Op
from ops_create import py_number

FLOATS = [torch.float16, torch.bfloat16, torch.float32, torch.float64, torch.complex64, torch.complex128]


def gen_fill_(g):
    rg = g.chance(0.1)
    x = Spec(g.shape(), g.choice(FLOATS), "contiguous") if rg else g.tensor()
    return A(x, py_number(g), rg)


def _fill_torch(x, v, rg, zero=False):
    if rg:
        x.requires_grad_(True)
    return x.zero_() if zero else x.fill_(v)


def _fill_ct(x, v, rg, zero=False):
    if rg:
        C.check(C.lib().ct_requires_grad_(x, True))
    C.check(C.lib().ct_zero_(x) if zero else C.lib().ct_fill_(x, C.ct_scalar.of(v)))
    return x


def gen_to_other(g):
    """other on the CPU (a meta result has no values for the harness to compare); self sometimes meta."""
    other = Spec(g.shape(max_numel=4), g.dtype(), "contiguous")
    return A(g.tensor(), other, g.choice(["cpu", "cpu", "meta"]), "cpu")


def _on(x, dev, ct):
    if dev == "cpu":
        return x
    return C.to(x, device=dev) if ct else x.to(dev)


def gen_cpu(g):
    return A(g.tensor(), g.choice(["cpu", "cpu", "meta"]))


# (not "xla" and the other types torch knows but ctorch does not implement: ct_device_parse refuses them)
DEVICE_TYPES = ["cpu", "cuda", "meta", "cuda:1", "cpu:0", "", "foo", "CPU", " cpu", "cuda:x"]


def gen_device_make(g):
    return A(g.choice(DEVICE_TYPES) if g.chance(0.5) else g.choice(DEVICE_TYPES[:3]), g.int(-3, 127))


def _device_make_ct(t, i):
    d = C.ct_device()
    C.check(C.lib().ct_device_make(t.encode(), i, ctypes.byref(d)))
    return _device_repr(d)


def _device_repr(d):
    buf = ctypes.create_string_buffer(64)
    C.lib().ct_device_repr(d, buf, 64)
    return buf.value.decode()


def gen_dim(g):
    x = g.tensor()
    return A(x, g.dim(len(x.shape), bad=0.2))


def _at(name, x, d):
    out = ctypes.c_int64()
    C.check(C.lib().fn(name)(x, d, ctypes.byref(out)))
    return out.value


def _text(name, x):
    """A char * result of the library, freed with free()."""
    f = C.lib().fn(name)
    f.restype = ctypes.c_void_p  # keep the pointer to free it
    p = f(x)
    if not p:
        C._raise()
    s = ctypes.string_at(p).decode()
    ctypes.CDLL(None).free(ctypes.c_void_p(p))
    return s


def gen_tolist(g):
    shape = g.shape(max_numel=40, allow_empty=g.chance(0.2))
    return A(g.tensor(shape=shape), g.choice(["cpu"] * 9 + ["meta"]))


def gen_item(g):
    shape = g.choice([(), (1,), (1, 1)]) if g.chance(0.9) else g.shape()
    return A(g.tensor(shape=shape), g.choice(["cpu"] * 9 + ["meta"]))


def gen_scalar(g):
    return A(py_number(g))


def _scalar_repr_ct(v):
    L = C.lib()
    s = C.ct_scalar.of(v)
    n = L.ct_scalar_repr(s, None, 0)
    buf = ctypes.create_string_buffer(n + 1)
    L.ct_scalar_repr(s, buf, n + 1)
    return buf.value.decode()


def _float_of_bits(g):
    """A double from random bits: every exponent, so repr's notation switches and shortest digits are hit."""
    import struct
    return struct.unpack("<d", struct.pack("<Q", int(g.rng.integers(0, 2**64, dtype="uint64"))))[0]


def gen_float_repr(g):
    v = _float_of_bits(g) if g.chance(0.6) else g.choice(D.SPECIALS + [1e16, 1e15, 1e-4, 1e-5, 0.1, 123456789.0, 5e-324])
    return A(complex(v, _float_of_bits(g)) if g.chance(0.3) else v)


OPS = [
    Op("fill_", gen_fill_, torch=_fill_torch, ct=_fill_ct, weight=3, min_cases=100),
    Op("zero_", gen_fill_, torch=lambda x, v, rg: _fill_torch(x, v, rg, True),
       ct=lambda x, v, rg: _fill_ct(x, v, rg, True), weight=2),
    Op("to_other", gen_to_other, torch=lambda x, o, dx, do: _on(x, dx, False).to(_on(o, do, False)),
       ct=lambda x, o, dx, do: C._t("ct_to_other", _on(x, dx, True), _on(o, do, True)), weight=2),
    Op("cpu", gen_cpu, torch=lambda x, d: _on(x, d, False).cpu(), ct=lambda x, d: C._t("ct_cpu", _on(x, d, True))),
    Op("device_make", gen_device_make, torch=lambda t, i: repr(torch.device(t, i)), ct=_device_make_ct,
       null_check=False, min_cases=60),
    Op("size_at", gen_dim, torch=lambda x, d: x.size(d), ct=lambda x, d: _at("ct_size_at", x, d)),
    Op("stride_at", gen_dim, torch=lambda x, d: x.stride(d), ct=lambda x, d: _at("ct_stride_at", x, d)),
    Op("tolist_repr", gen_tolist, torch=lambda x, d: repr(_on(x, d, False).tolist()),
       ct=lambda x, d: _text("ct_tolist_repr", _on(x, d, True)), weight=3),
    Op("item_repr", gen_item, torch=lambda x, d: repr(_on(x, d, False).item()),
       ct=lambda x, d: _text("ct_item_repr", _on(x, d, True)), weight=2),
    Op("size_repr", gen_tolist, torch=lambda x, d: repr(x.size()), ct=lambda x, d: _text("ct_size_repr", x)),
    Op("stride_repr", gen_tolist, torch=lambda x, d: repr(x.stride()), ct=lambda x, d: _text("ct_stride_repr", x)),
    Op("scalar_repr", gen_scalar, torch=repr, ct=_scalar_repr_ct, null_check=False),
    Op("float_repr", gen_float_repr, torch=repr, ct=_scalar_repr_ct, null_check=False, weight=3, min_cases=200),
]
