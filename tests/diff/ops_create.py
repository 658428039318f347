"""Entries for include/ctorch/create.h: factories with random shapes, dtypes (None: PyTorch's default
or inference), memory formats and Python-number fill values, the special ones included."""
import math

import numpy as np
import torch

import ctorch as C
import data as D
from harness import A, Op, Spec

FORMATS = [None, torch.contiguous_format, torch.channels_last, torch.channels_last_3d, torch.preserve_format]


def py_number(g, kinds=("bool", "int", "float", "complex")):
    """A Python number of a random kind, with the values that overflow checks and casts care about."""
    k = g.choice(kinds)
    if k == "bool":
        return g.chance(0.5)
    if k == "int":
        return g.choice([0, 1, -1, 7, -129, 255, 256, 2**31, -2**31 - 1, 2**62, -2**63, 2**63 - 1, g.int(-300, 300)])
    if k == "float":
        return g.choice(D.SPECIALS + [0.0, 1.5, -2.25, 0.1, 65504.0, 3.4e38, 1e-40, float(g.int(-100, 100))])
    return complex(py_number(g, ("int", "float")), py_number(g, ("float",)) if g.chance(0.7) else 0.0)


def opt_dtype(g, p_none=0.3):
    return None if g.chance(p_none) else g.dtype()


def kw(**k):
    """Keyword arguments without the None ones (None means: not passed)."""
    return {a: b for a, b in k.items() if b is not None}


def fmt_for(g, ndim):
    """A memory format: mostly one that fits the rank, sometimes one that does not."""
    if ndim == 4 and g.chance(0.5):
        return torch.channels_last
    if ndim == 5 and g.chance(0.5):
        return torch.channels_last_3d
    return g.choice(FORMATS)


def small_shape(g, **k):
    s = list(g.shape(**k))
    if g.chance(0.04) and s:
        s[g.int(0, len(s) - 1)] = -g.int(1, 3)  # negative size: PyTorch's error
    return s


# ---- generators ---------------------------------------------------------------------------------

def gen_empty(g):
    s = small_shape(g)
    return A(s, **kw(dtype=opt_dtype(g), memory_format=fmt_for(g, len(s)) if g.chance(0.3) else None))


def gen_empty_strided(g):
    s = small_shape(g, max_ndim=4)
    st = [g.int(0, 6) for _ in s]
    if g.chance(0.05):
        st = st[1:] if st else [1]
    elif g.chance(0.04) and st:
        st[0] = -1
    return A(s, st, **kw(dtype=opt_dtype(g)))


def gen_zeros(g):
    return A(small_shape(g), **kw(dtype=opt_dtype(g), requires_grad=True if g.chance(0.05) else None))


def gen_full(g):
    return A(small_shape(g), py_number(g), **kw(dtype=opt_dtype(g, 0.4)))


def gen_like(g):
    x = g.tensor()
    return A(x, **kw(dtype=opt_dtype(g, 0.5), memory_format=fmt_for(g, len(x.shape)) if g.chance(0.5) else None))


def gen_full_like(g):
    x = g.tensor()
    return A(x, py_number(g), **kw(dtype=opt_dtype(g, 0.5),
                                   memory_format=fmt_for(g, len(x.shape)) if g.chance(0.3) else None))


def gen_new(g):
    return A(g.tensor(), small_shape(g), **kw(dtype=opt_dtype(g, 0.6)))


def gen_new_full(g):
    return A(g.tensor(), small_shape(g), py_number(g), **kw(dtype=opt_dtype(g, 0.6)))


def gen_from_data(g):
    """Host data of one dtype (a torch tensor, carried as bits to ctorch) read as another."""
    src = g.dtype()
    data = D.random_tensor(g.rng, g.shape(max_numel=24), src)
    return A(data, src, **kw(dtype=opt_dtype(g, 0.3)))


def gen_new_tensor(g):
    src = g.dtype()
    data = D.random_tensor(g.rng, g.shape(max_numel=24), src)
    return A(g.tensor(), data, src, **kw(dtype=opt_dtype(g, 0.6)))


def gen_from_blob(g):
    dt = g.dtype()
    shape = g.shape(max_ndim=4, max_numel=24)
    strides = None if g.chance(0.3) else [g.int(0, 4) for _ in shape]
    need = 1 + sum((s - 1) * st for s, st in zip(shape, strides or C_strides(shape))) if math.prod(shape) else 0
    data = D.random_tensor(g.rng, (max(need, 0),), dt)
    return A(data, dt, tuple(shape), strides)


def C_strides(shape):
    st, acc = [], 1
    for s in reversed(shape):
        st.insert(0, acc)
        acc *= max(s, 1)
    return st


def gen_scalar(g):
    return A(py_number(g), **kw(dtype=opt_dtype(g, 0.4)))


def gen_wrapped(g):
    return A(py_number(g))


def _eye_n(g):
    return g.int(0, 6) if g.chance(0.95) else -1


def gen_eye(g):
    return A(_eye_n(g), **kw(dtype=opt_dtype(g)))


def gen_eye_m(g):
    """torch.eye(n, m): its own op, so that ct_eye and ct_eye_m are both called whatever the seed (drawn
    from one op, a small budget sometimes gave every case to one of them)"""
    return A(_eye_n(g), g.int(0, 6) if g.chance(0.95) else -2, **kw(dtype=opt_dtype(g)))


def _range_number(g, integral):
    if integral:
        return g.int(-20, 20)
    return g.choice([float(g.int(-20, 20)), round(float(g.rng.standard_normal() * 10), 3), 0.1, -2.5])


def gen_arange(g):
    integral = g.chance(0.5)
    start, end = _range_number(g, integral), _range_number(g, integral)
    step = g.choice([1, 2, 3, -1, -2]) if integral else g.choice([0.5, 0.3, -0.7, 1.0, 2.5, -0.1])
    if (end - start) * step < 0 and g.chance(0.8):
        start, end = end, start  # mostly consistent with the step's sign
    r = g.random()
    if r < 0.03:
        step = 0
    elif r < 0.05:
        end = g.choice([math.inf, math.nan])
    elif r < 0.08:
        start = complex(start, 1)
    return A(start, end, step, **kw(dtype=opt_dtype(g, 0.4)))


def gen_arange_end(g):
    """torch.arange(end): start 0, step 1, the dtype from end alone (int64 for an int, else the default)."""
    r = g.random()
    end = g.int(-3, 30) if r < 0.5 else (round(abs(float(g.rng.standard_normal() * 10)), 3) if r < 0.95 else
                                          g.choice([math.inf, math.nan, True, complex(2, 1)]))
    return A(end, **kw(dtype=opt_dtype(g, 0.4)))


def gen_linspace(g):
    integral = g.chance(0.4)
    start, end = _range_number(g, integral), _range_number(g, integral)
    if g.chance(0.1):
        start = complex(start, _range_number(g, False))
    steps = g.int(0, 12) if g.chance(0.95) else -1
    return A(start, end, steps, **kw(dtype=opt_dtype(g, 0.4)))


def gen_logspace(g):
    integral = g.chance(0.4)
    start, end = (g.int(-4, 4), g.int(-4, 4)) if integral else (round(float(g.rng.uniform(-4, 4)), 2),
                                                                  round(float(g.rng.uniform(-4, 4)), 2))
    steps = g.int(0, 10) if g.chance(0.95) else -1
    base = g.choice([10.0, 2.0, 0.5, math.e, 3.0, -2.0])
    return A(start, end, steps, base, **kw(dtype=opt_dtype(g, 0.4)))


def _like(name):
    return (lambda x, **k: getattr(torch, name)(x, **k)), (lambda x, **k: getattr(C, name)(x, **k))


def _new(name):
    return (lambda x, s, **k: getattr(x, name)(s, **k)), (lambda x, s, **k: getattr(C, name)(x, s, **k))


def _torch_from_data(data, src, **k):
    return torch.tensor(data, **k)


def _ct_from_data(data, src, **k):
    return C.tensor_from_data(C.torch_bits(data), src, **k)


def _torch_from_blob(data, dt, shape, strides):
    return data.as_strided(shape, strides if strides is not None else C_strides(shape), 0)


def _ct_from_blob(data, dt, shape, strides):
    return C.from_blob(C.torch_bits(data), dt, shape, strides)


def _wrapped_torch(v):
    dt = {bool: torch.bool, int: torch.int64, float: torch.float64, complex: torch.complex128}[type(v)]
    return [torch.tensor(v, dtype=dt), True]


def _wrapped_ct(v):
    t = C.wrapped_scalar(v)
    return [t, C.is_wrapped_number(t)]


# Factories asked for a layout other than strided, where torch 1.13's message is its own, not the dispatcher's
# (whose long text ctorch shortens to its first sentence: tests/unit/test_create_seam.c has those): empty's
# sparse-compressed checks (size, block layouts), c10's refusal of a compressed layout on meta, full's COO
# refusal, scalar_tensor ignoring its layout on the CPU. Cases where torch builds a sparse tensor (ctorch cannot yet) are not drawn.
COMPRESSED = [torch.sparse_csr, torch.sparse_csc, torch.sparse_bsr, torch.sparse_bsc]
SHAPED = {"empty": (torch.empty, C.empty), "zeros": (torch.zeros, C.zeros), "ones": (torch.ones, C.ones),
          "full": (lambda s, **k: torch.full(s, 2.5, **k), lambda s, **k: C.full(s, 2.5, **k)),
          "new_empty": (lambda s, **k: torch.ones(2).new_empty(s, **k), lambda s, **k: C.new_empty(C.ones((2,)), s, **k)),
          "new_ones": (lambda s, **k: torch.ones(2).new_ones(s, **k), lambda s, **k: C.new_ones(C.ones((2,)), s, **k))}
RANGES = {"arange": (lambda n, **k: torch.arange(n, **k), lambda n, **k: C.arange_end(n, **k)),
          "linspace": (lambda n, **k: torch.linspace(0, 1, n, **k), lambda n, **k: C.linspace(0, 1, n, **k)),
          "logspace": (lambda n, **k: torch.logspace(0, 1, n, **k), lambda n, **k: C.logspace(0, 1, n, **k)),
          "eye": (lambda n, **k: torch.eye(n, **k), lambda n, **k: C.eye(n, **k)),
          "scalar_tensor": (lambda n, **k: torch.scalar_tensor(n, **k), lambda n, **k: C.scalar_tensor(n, **k))}


def gen_layout_request(g):
    meta = g.chance(0.25)
    dev = {"device": "meta"} if meta else {}
    if g.chance(0.5):
        name = g.choice(sorted(SHAPED))
        if name in ("ones", "full") and g.chance(0.3):
            return A(name, g.shape(max_numel=12), layout=torch.sparse_coo, **dev)  # full(...)'s refusal
        layout = g.choice(COMPRESSED)
        blocked = layout in (torch.sparse_bsr, torch.sparse_bsc)
        # 2-D and more: only the block layouts (or meta) fail in empty; torch builds CSR / CSC ones
        shape = g.shape(max_numel=12) if blocked or meta else g.choice([(), (g.int(0, 5),)])
        return A(name, shape, layout=layout, **dev)
    name = g.choice(sorted(RANGES))
    # scalar_tensor: a strided tensor on the CPU whatever the layout; on meta COO is the dispatcher's (fill_)
    layout = g.choice(COMPRESSED + [torch.sparse_coo] if name == "scalar_tensor" and not meta else COMPRESSED)
    return A(name, g.int(0, 6), layout=layout, **dev)


def _layout_request(lib):
    def call(name, arg, **k):
        f = SHAPED.get(name) or RANGES[name]
        return f[lib](arg, **k)
    return call


OPS = [
    Op("empty", gen_empty, torch=lambda s, **k: torch.empty(s, **k), ct=lambda s, **k: C.empty(s, **k), values=False),
    Op("empty_strided", gen_empty_strided, torch=lambda s, st, **k: torch.empty_strided(s, st, **k),
       ct=lambda s, st, **k: C.empty_strided(s, st, **k), values=False),
    Op("zeros", gen_zeros, torch=lambda s, **k: torch.zeros(s, **k), ct=lambda s, **k: C.zeros(s, **k)),
    Op("ones", gen_zeros, torch=lambda s, **k: torch.ones(s, **k), ct=lambda s, **k: C.ones(s, **k)),
    Op("full", gen_full, torch=lambda s, v, **k: torch.full(s, v, **k), ct=lambda s, v, **k: C.full(s, v, **k),
       weight=2),
    Op("empty_like", gen_like, *_like("empty_like"), values=False),
    Op("zeros_like", gen_like, *_like("zeros_like")),
    Op("ones_like", gen_like, *_like("ones_like")),
    Op("full_like", gen_full_like, torch=lambda x, v, **k: torch.full_like(x, v, **k),
       ct=lambda x, v, **k: C.full_like(x, v, **k), weight=1.5),
    Op("new_empty", gen_new, *_new("new_empty"), values=False),
    Op("new_zeros", gen_new, *_new("new_zeros")),
    Op("new_ones", gen_new, *_new("new_ones")),
    Op("new_full", gen_new_full, torch=lambda x, s, v, **k: x.new_full(s, v, **k),
       ct=lambda x, s, v, **k: C.new_full(x, s, v, **k)),
    Op("tensor_from_data", gen_from_data, torch=_torch_from_data, ct=_ct_from_data, weight=2),
    Op("new_tensor", gen_new_tensor, torch=lambda x, d, src, **k: x.new_tensor(d, **k),
       ct=lambda x, d, src, **k: C.new_tensor(x, C.torch_bits(d), src, **k)),
    Op("from_blob", gen_from_blob, torch=_torch_from_blob, ct=_ct_from_blob),
    Op("wrapped_scalar", gen_wrapped, torch=_wrapped_torch, ct=_wrapped_ct),
    Op("scalar_tensor", gen_scalar, torch=lambda v, **k: torch.scalar_tensor(v, **k),
       ct=lambda v, **k: C.scalar_tensor(v, **k), weight=1.5),
    Op("eye", gen_eye, torch=lambda n, **k: torch.eye(n, **k), ct=lambda n, **k: C.eye(n, **k)),
    Op("eye_m", gen_eye_m, torch=lambda n, m, **k: torch.eye(n, m, **k), ct=lambda n, m, **k: C.eye(n, m, **k)),
    Op("arange", gen_arange, torch=lambda a, b, s, **k: torch.arange(a, b, s, **k),
       ct=lambda a, b, s, **k: C.arange(a, b, s, **k), weight=2),
    Op("arange_end", gen_arange_end, torch=lambda e, **k: torch.arange(e, **k),
       ct=lambda e, **k: C.arange_end(e, **k), weight=1),
    Op("linspace", gen_linspace, torch=lambda a, b, n, **k: torch.linspace(a, b, n, **k),
       ct=lambda a, b, n, **k: C.linspace(a, b, n, **k), weight=2),
    Op("logspace", gen_logspace, torch=lambda a, b, n, base, **k: torch.logspace(a, b, n, base, **k),
       ct=lambda a, b, n, base, **k: C.logspace(a, b, n, base, **k), weight=2),
    Op("factory_layout_request", gen_layout_request, torch=_layout_request(0), ct=_layout_request(1)),
]
