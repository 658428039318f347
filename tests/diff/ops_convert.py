"""Entries for include/ctorch/convert.h: dtype conversions over all 144 (source, destination) pairs,
with the special values float->int casts trip over, memory formats, copy_ with broadcasting, item,
element access, ct_copy_to_buffer and equal."""
import numpy as np
import torch

import ctorch as C
import data as D
from harness import A, Op, Spec

PAIRS = [(a, b) for a in D.DTYPES for b in D.DTYPES]
FORMATS = [None, torch.contiguous_format, torch.channels_last, torch.channels_last_3d, torch.preserve_format]
CASTS = list(C.CASTS)


def pair(g):
    """Walks all 144 dtype pairs in order (so min_cases=144 covers each), then random ones."""
    return PAIRS[g.index] if g.index < len(PAIRS) else (g.dtype(), g.dtype())


def fmt_for(g, ndim):
    if ndim == 4 and g.chance(0.4):
        return torch.channels_last
    if ndim == 5 and g.chance(0.4):
        return torch.channels_last_3d
    return g.choice(FORMATS)


def gen_to(g):
    src, dst = pair(g)
    x = g.tensor(dtype=src)
    r = g.random()
    fmt = fmt_for(g, len(x.shape)) if r < 0.3 else None
    return A(x, dst if g.chance(0.9) else None, fmt, g.chance(0.2))


def gen_to_dtype(g):
    src, dst = pair(g)
    return A(g.tensor(dtype=src), dst)


def gen_type_as(g):
    src, dst = pair(g)
    return A(g.tensor(dtype=src), Spec(g.shape(max_numel=6), dst, "contiguous"))


def gen_cast(g):
    # the first cases take each method in turn, so every run calls all of them
    return A(g.tensor(), CASTS[g.index] if g.index < len(CASTS) else g.choice(CASTS))


def gen_fmt(g):
    x = g.tensor(max_numel=64)
    return A(x, fmt_for(g, len(x.shape)) if g.chance(0.7) else None)


def gen_copy_(g):
    """self and src of any dtypes (all pairs first); src broadcastable to self (sometimes not)."""
    sdt, ddt = pair(g)
    shape = g.shape()
    src_shape = list(shape[g.int(0, len(shape)):]) if g.chance(0.5) else list(shape)
    for i in range(len(src_shape)):
        if g.chance(0.2):
            src_shape[i] = 1
    if g.chance(0.06):
        src_shape = list(g.shape())  # usually not broadcastable
    layout = g.layout()
    if "expanded" in layout and g.chance(0.7):
        layout = ["contiguous"]  # writing into an expanded tensor is an error; keep it occasional
    return A(Spec(shape, ddt, layout), Spec(src_shape, sdt, g.layout()))


def gen_item(g):
    shape = g.choice([(), (1,), (1, 1), (1, 1, 1)]) if g.chance(0.9) else g.shape()
    return A(g.tensor(shape=shape))


def _index(g, shape):
    idx = []
    for s in shape:
        if g.chance(0.05):
            idx.append(g.choice([s, -s - 1, s + 2]))
        else:
            i = g.int(0, max(s - 1, 0))
            idx.append(i - s if g.chance(0.4) else i)
    return tuple(idx)


def gen_get_item(g):
    x = g.tensor(shape=g.shape(allow_empty=g.chance(0.2)))
    return A(x, _index(g, x.shape))


def gen_set_item(g):
    from ops_create import py_number
    layout = g.layout()
    if "expanded" in layout:
        layout = ["contiguous"]
    x = g.tensor(shape=g.shape(allow_empty=False, max_numel=24), layout=layout)
    return A(x, _index(g, x.shape), py_number(g))


def gen_copy_to_buffer(g):
    src, dst = pair(g)
    return A(g.tensor(dtype=src), dst)


def gen_equal(g):
    x = g.tensor()
    r = g.random()
    if r < 0.4:  # same values, other layout and maybe dtype: the interesting "equal" cases
        base = D.random_tensor(g.rng, x.shape, x.dtype)
        x = Spec(x.shape, x.dtype, x.layout, base=base)
        y = Spec(x.shape, g.dtype() if g.chance(0.3) else x.dtype, g.layout(), base=base)
    elif r < 0.8:
        y = Spec(x.shape, g.dtype() if g.chance(0.3) else x.dtype, g.layout())
    else:
        y = g.tensor()
    return A(x, y)


def gen_copy_overlap(g):
    """copy_ between two views of one tensor: equal views (a no-op), disjoint or partially
    overlapping slices, a transposed square, a broadcast element."""
    n = g.int(1, 8)
    x = Spec((n,) if g.chance(0.6) else (n, n), g.dtype(), "contiguous")
    if len(x.shape) == 2:
        return A(x, [], g.choice([[], [("transpose", 0, 1)], [("select", 0, g.int(0, n - 1))]]))
    k = g.int(0, n)
    a, b = g.int(0, n - k), g.int(0, n - k)
    dst = [("slice", 0, a, a + k, 1)]
    src = g.choice([[("slice", 0, b, b + k, 1)], [("select", 0, g.int(0, n - 1))], dst])
    return A(x, dst, src)


# ---- conversions into bfloat16 of NaN-rich rows ----
# torch 1.13 stores a NaN as 0xFFFF where its vectorized float->bfloat16 conversion runs (contiguous
# float32 rows of any length; float64 rows in blocks of 16) and as 0x7FC0 elsewhere (strided or
# broadcast sources, float64 tails, float16 and complex sources): rows around those block sizes.
ROW_LENGTHS = [1, 2, 7, 15, 16, 17, 31, 32, 33, 47, 48, 63, 64, 65]
NAN_SOURCES = [torch.float32, torch.float64, torch.float16, torch.complex64, torch.complex128]


def nan_rich(g, shape, dt):
    """Values of which a third are NaN (either sign, random payloads), some infinities."""
    n = int(np.prod(shape, dtype=np.int64))
    real = {torch.complex64: torch.float32, torch.complex128: torch.float64}.get(dt, dt)
    m = 2 * n if dt.is_complex else n
    npf, npu, ebits, mbits = {torch.float32: (np.float32, np.uint32, 8, 23), torch.float64: (np.float64, np.uint64, 11, 52),
                              torch.float16: (np.float16, np.uint16, 5, 10)}[real]
    v = np.asarray(g.rng.standard_normal(m) * 100, npf)
    v = np.where(g.rng.random(m) < 0.1, np.asarray(g.rng.choice([np.inf, -np.inf]), npf), v).astype(npf)
    bits = v.view(npu)
    for k in np.nonzero(g.rng.random(m) < 0.35)[0]:
        sign = int(g.rng.integers(0, 2)) << (ebits + mbits)
        bits[k] = sign | (((1 << ebits) - 1) << mbits) | int(g.rng.integers(1, 1 << mbits))
    t = torch.from_numpy(v.copy())
    return (t.view(dt) if dt.is_complex else t).reshape(shape)


def nan_row_shape(g):
    r = g.random()
    if r < 0.1:
        return ()
    if r < 0.6:
        return (g.choice(ROW_LENGTHS),)
    return (g.int(1, 3), g.choice(ROW_LENGTHS))


def gen_to_bf16_nan(g):
    dt = g.choice(NAN_SOURCES)
    shape = nan_row_shape(g)
    return A(Spec(shape, dt, g.layout(), base=nan_rich(g, shape, dt)))


def gen_copy_bf16_nan(g):
    dt = g.choice(NAN_SOURCES)
    shape = nan_row_shape(g)
    layout = g.layout()
    if "expanded" in layout:
        layout = ["contiguous"]
    src = Spec(shape, dt, g.layout(), base=nan_rich(g, shape, dt))
    if g.chance(0.3) and shape:  # broadcast sources: one row for every row, one value per row, one value
        sshape = g.choice([shape[-1:], shape[:-1] + (1,), ()])
        src = Spec(sshape, dt, g.layout(), base=nan_rich(g, sshape, dt))
    return A(Spec(shape, torch.bfloat16, layout), src)


def _to_torch(x, dt, fmt, copy):
    k = {}
    if fmt is not None:
        k["memory_format"] = fmt
    if dt is None:
        return x.to(copy=copy, **k)
    return x.to(dt, copy=copy, **k)


def _set_item_torch(x, idx, v):
    x[idx] = v
    return x


OPS = [
    Op("to", gen_to, torch=_to_torch, ct=lambda x, dt, f, c: C.to(x, dt, f, c), weight=4, min_cases=144),
    Op("to_dtype", gen_to_dtype, torch=lambda x, dt: x.to(dt), ct=lambda x, dt: C.to_dtype(x, dt), weight=3,
       min_cases=144),
    Op("type_as", gen_type_as, torch=lambda x, o: x.type_as(o), ct=lambda x, o: C.type_as(x, o), weight=2,
       min_cases=144),
    Op("casts", gen_cast, torch=lambda x, m: getattr(x, m)(), ct=lambda x, m: C.cast(x, m), weight=2,
       min_cases=len(CASTS)),
    Op("contiguous", gen_fmt, torch=lambda x, f: x.contiguous(memory_format=f) if f else x.contiguous(),
       ct=lambda x, f: C.contiguous(x, f)),
    Op("clone", gen_fmt, torch=lambda x, f: x.clone(memory_format=f) if f else x.clone(),
       ct=lambda x, f: C.clone(x, f)),
    Op("copy_", gen_copy_, torch=lambda x, s: x.copy_(s), ct=lambda x, s: C.copy_(x, s), weight=4, min_cases=144),
    Op("copy_overlap", gen_copy_overlap, torch=lambda x, d, s: D.apply_torch(x, d).copy_(D.apply_torch(x, s)),
       ct=lambda x, d, s: C.copy_(D.apply_ct(x, d), D.apply_ct(x, s))),
    Op("to_bf16_nan", gen_to_bf16_nan, torch=lambda x: x.to(torch.bfloat16), ct=lambda x: C.to_dtype(x, torch.bfloat16)),
    Op("copy_bf16_nan", gen_copy_bf16_nan, torch=lambda x, s: x.copy_(s), ct=lambda x, s: C.copy_(x, s)),
    Op("item", gen_item, torch=lambda x: x.item(), ct=lambda x: C.item(x)),
    Op("get_item", gen_get_item, torch=lambda x, i: x[i].item(), ct=lambda x, i: C.get_item(x, i)),
    Op("set_item", gen_set_item, torch=_set_item_torch, ct=lambda x, i, v: C.set_item(x, i, v)),
    # The reference for "convert into a row-major buffer of dtype": copy_ into a fresh contiguous
    # tensor (not x.to(dt), which keeps x's layout and so may take another loop, with other NaN bits).
    Op("copy_to_buffer", gen_copy_to_buffer, torch=lambda x, dt: C.torch_bits(torch.empty(x.shape, dtype=dt).copy_(x)),
       ct=lambda x, dt: C.copy_to_buffer(x, dt), weight=2, min_cases=144),
    Op("equal", gen_equal, torch=lambda a, b: torch.equal(a, b), ct=lambda a, b: C.equal(a, b)),
]
