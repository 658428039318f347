"""Entries for include/ctorch/view.h. Each generator mostly draws valid arguments and sometimes
invalid ones (out-of-range dims, wrong sizes), so both the results and PyTorch's error messages are
compared."""
import math

import torch

import ctorch as C
from harness import A, Op, Spec

END = C.CT_END


# ---- argument helpers ---------------------------------------------------------------------------

def factor_shape(g, n, max_ndim=6):
    """A random shape with n elements (n == 0: one dim is 0)."""
    ndim = g.int(0 if n == 1 else 1, max_ndim)
    if n == 0:
        dims = [g.int(1, 3) for _ in range(ndim)]
        dims[g.int(0, ndim - 1)] = 0
        return dims
    dims = [1] * ndim
    m, p = n, 2
    while m > 1:  # hand each prime factor to a random dim
        while m % p:
            p += 1
        m //= p
        dims[g.int(0, ndim - 1)] *= p
    return dims


def target_shape(g, x_shape):
    """A shape for view/reshape: usually numel-preserving (maybe with one -1), sometimes invalid."""
    n = math.prod(x_shape)
    dims = factor_shape(g, n)
    r = g.random()
    if r < 0.25 and dims:
        dims[g.int(0, len(dims) - 1)] = -1
    elif r < 0.32:
        dims = dims + [g.int(2, 3)]  # wrong element count
    elif r < 0.36 and len(dims) >= 2:
        dims[0], dims[1] = -1, -1  # only one dimension can be inferred
    elif r < 0.39 and dims:
        dims[g.int(0, len(dims) - 1)] = -2  # invalid shape dimension
    return dims


def dims_arg(g, ndim):
    """A valid dim list (a subset in random order, negatives mixed in), sometimes with a duplicate or
    an out-of-range dim."""
    n = max(ndim, 0)
    dims = g.shuffled(range(n))[: g.int(0, n)]
    dims = [d - n if g.chance(0.4) else d for d in dims]
    if g.chance(0.1) and dims:
        dims.append(dims[0])
    if g.chance(0.08):
        dims.append(g.choice([n, -n - 1]) if n else g.choice([1, -2]))
    return dims


def broadcast_target(g, shape):
    """A target shape shape can be expanded to, sometimes with -1 or invalid sizes."""
    out = []
    for s in shape:
        if s == 1:
            out.append(g.choice([1, 2, 3, 0, -1]) if g.chance(0.6) else 1)
        else:
            out.append(-1 if g.chance(0.2) else s)
    lead = [g.int(0, 3) for _ in range(g.int(0, 2))]
    out = lead + out
    r = g.random()
    if r < 0.05 and out:
        out[g.int(0, len(out) - 1)] = g.int(2, 7)  # may not match a non-singleton dim
    elif r < 0.08 and lead:
        out[0] = -1  # -1 in a new leading dim
    elif r < 0.11 and shape:
        out = out[len(lead) + 1:]  # fewer sizes than dims
    return out


def sizes_for(g, n):
    """Positive sizes summing to n (split_with_sizes), sometimes wrong."""
    out, left = [], n
    while left > 0:
        k = g.int(0, left)
        out.append(k)
        left -= k
    if g.chance(0.2):
        out.append(0)
    if g.chance(0.1):
        out.append(g.int(1, 2))
    return g.shuffled(out)


def squeeze_dims_ref(x, dims):
    """torch.squeeze(x, dims) as PyTorch 2.0 defines it (1.13 has no tuple form): dim_list_to_bitset
    wraps the dims one by one, failing on the first out-of-range or repeated one, then the dims of
    size 1 are removed. The messages come from torch 1.13 itself: a one-dim sum on a meta tensor
    raises maybe_wrap_dim's IndexError, a (d, d) sum dim_list_to_bitset's repeat error."""
    meta = torch.empty(x.shape, device="meta")
    n = max(x.dim(), 1)
    seen = []
    for d in dims:
        meta.sum((d,))
        w = d % n
        if w in seen:
            meta.sum((w, w))
        seen.append(w)
    y = torch.ops.aten.alias(x)  # always a new view, as squeeze returns
    for d in sorted(seen, reverse=True):
        if y.dim() and y.shape[d] == 1:
            y = y.squeeze(d)
    return y


def _any(g, **kw):
    return g.tensor(**kw)


# ---- generators ---------------------------------------------------------------------------------

def gen_view(g):
    x = _any(g)
    return A(x, target_shape(g, x.shape))


def gen_view_as(g):
    x = _any(g)
    other = Spec(target_shape(g, x.shape), g.dtype(), "contiguous")
    if any(d < 0 for d in other.shape):
        other = Spec(factor_shape(g, math.prod(x.shape)), other.dtype, "contiguous")
    return A(x, other)


def gen_as_strided(g):
    x = _any(g)
    nd = g.int(0, 4)
    size = [g.int(0, 3) if g.chance(0.1) else g.int(1, 3) for _ in range(nd)]
    stride = [g.int(0, 4) for _ in range(nd)]
    off = None if g.chance(0.4) else g.int(0, 6)
    r = g.random()
    if r < 0.04 and nd:
        stride[0] = -1
    elif r < 0.07 and nd:
        size[0] = -1
    elif r < 0.1:
        stride = stride + [1]
    elif r < 0.12:
        off = -1
    return A(x, size, stride, off)


def gen_two_dims(g):
    x = _any(g)
    n = len(x.shape)
    return A(x, g.dim(n), g.dim(n))


def gen_one(g):
    return A(_any(g))


def gen_le2(g):
    return A(_any(g, max_ndim=3))


def gen_permute(g):
    x = _any(g)
    n = len(x.shape)
    dims = [d - n if g.chance(0.3) else d for d in g.shuffled(range(n))]
    r = g.random()
    if r < 0.06 and dims:
        dims[0] = dims[-1]
    elif r < 0.1:
        dims = dims + [0]
    elif r < 0.13 and dims:
        dims = dims[1:]
    elif r < 0.16 and dims:
        dims[0] = n
    return A(x, dims)


def gen_movedim(g):
    x = _any(g)
    n = len(x.shape)
    if g.chance(0.4):
        return A(x, g.dim(n, scalar_ok=True), g.dim(n, scalar_ok=True))
    k = g.int(0, n)
    src = [d - n if g.chance(0.3) else d for d in g.shuffled(range(n))[:k]]
    dst = [d - n if g.chance(0.3) else d for d in g.shuffled(range(n))[:k]]
    r = g.random()
    if r < 0.06 and src:
        src[0] = src[-1]
    elif r < 0.1:
        dst = dst + [0]
    elif r < 0.13 and dst:
        dst[0] = n + 1
    return A(x, tuple(src), tuple(dst))


def gen_squeeze(g):
    x = g.tensor(shape=_ones_shape(g))
    return A(x)


def _ones_shape(g):
    """Shapes with several size-1 dims (the interesting case for squeeze)."""
    s = list(g.shape())
    for i in range(len(s)):
        if g.chance(0.35):
            s[i] = 1
    return tuple(s)


def gen_squeeze_dim(g):
    x = g.tensor(shape=_ones_shape(g))
    return A(x, g.dim(len(x.shape)))


def gen_squeeze_dims(g):
    x = g.tensor(shape=_ones_shape(g))
    return A(x, tuple(dims_arg(g, len(x.shape))))


def gen_unsqueeze(g):
    x = _any(g, max_ndim=5)
    return A(x, g.dim(len(x.shape) + 1))


def gen_flatten(g):
    x = _any(g)
    n = len(x.shape)
    return A(x, g.dim(n, bad=0.05), g.dim(n, bad=0.05))


def gen_unflatten(g):
    x = _any(g, min_ndim=1)
    n = len(x.shape)
    d = g.dim(n, bad=0.05)
    size = x.shape[d % n] if -n <= d < n else 4
    sizes = factor_shape(g, size, max_ndim=3)
    if not sizes:
        sizes = [1]
    r = g.random()
    if r < 0.2:
        sizes[g.int(0, len(sizes) - 1)] = -1
    elif r < 0.27:
        sizes = sizes + [g.int(2, 3)]
    elif r < 0.3:
        sizes = []
    elif r < 0.33 and len(sizes) >= 2:
        sizes[0] = sizes[1] = -1
    return A(x, d, sizes)


def gen_expand(g):
    x = _any(g, max_numel=16, max_ndim=4)
    return A(x, broadcast_target(g, x.shape))


def gen_expand_as(g):
    x = _any(g, max_numel=16, max_ndim=4)
    target = broadcast_target(g, x.shape)
    k = len(target) - len(x.shape)
    target = [(x.shape[i - k] if i >= k else 1) if s == -1 else s for i, s in enumerate(target)]
    return A(x, Spec(target, g.dtype(), "contiguous"))


def gen_narrow(g):
    x = _any(g)
    n = len(x.shape)
    d = g.dim(n, bad=0.05)
    size = x.shape[d % n] if n and -n <= d < n else 3
    start = g.int(-size - 1, size + 1) if g.chance(0.15) else g.int(-size, size)
    st = start + size if start < 0 else start
    length = g.int(-1, size + 1) if g.chance(0.15) else g.int(0, max(size - st, 0))
    return A(x, d, start, length)


def gen_select(g):
    x = _any(g)
    n = len(x.shape)
    d = g.dim(n, bad=0.05)
    size = x.shape[d % n] if n and -n <= d < n else 2
    idx = g.int(-size - 2, size + 1) if g.chance(0.15) else g.int(-size, max(size - 1, -size))
    return A(x, d, idx)


def gen_slice(g):
    x = _any(g, min_ndim=1)
    n = len(x.shape)
    d = g.dim(n, bad=0.05)
    size = x.shape[d % n] if -n <= d < n else 3
    start = g.choice([0, g.int(-size - 2, size + 2)])
    end = END if g.chance(0.3) else g.int(-size - 2, size + 2)
    step = g.choice([1, 1, 2, 3]) if g.chance(0.93) else g.choice([0, -1])
    return A(x, d, start, end, step)


def gen_unfold(g):
    x = _any(g)
    n = len(x.shape)
    d = g.dim(n, bad=0.05)
    size = x.shape[d % n] if n and -n <= d < n else 1
    return A(x, d, g.int(0, size + 1) if g.chance(0.9) else -1, g.int(1, 3) if g.chance(0.93) else g.choice([0, -1]))


def gen_diagonal(g):
    x = _any(g, min_ndim=1)
    n = len(x.shape)
    a = g.dim(n, bad=0.05)
    b = g.dim(n, bad=0.05)
    if n >= 2 and -n <= a < n and -n <= b < n and a % n == b % n and g.chance(0.85):
        b = (a + g.int(1, n - 1)) % n  # identical dims are an error: keep it occasional
    return A(x, g.int(-4, 4), a, b)


def gen_unbind(g):
    x = _any(g)
    return A(x, g.dim(len(x.shape), bad=0.05))


def _dim_and_size(g, x, bad=0.05):
    n = len(x.shape)
    d = g.dim(n, bad=bad)
    return d, (x.shape[d % n] if n and -n <= d < n else 1)


def gen_split(g):
    x = _any(g, min_ndim=1)
    d, size = _dim_and_size(g, x)
    return A(x, g.int(1, size + 1) if g.chance(0.9) else g.choice([0, -1]), d)


def gen_split_with_sizes(g):
    x = _any(g, min_ndim=1)
    d, size = _dim_and_size(g, x)
    return A(x, sizes_for(g, size), d)


def gen_chunk(g):
    x = _any(g, min_ndim=1)
    d, size = _dim_and_size(g, x)
    return A(x, g.int(1, size + 2) if g.chance(0.92) else g.choice([0, -1]), d)


def gen_tensor_split(g):
    x = _any(g, min_ndim=1)
    d, size = _dim_and_size(g, x)
    return A(x, g.int(1, size + 2) if g.chance(0.92) else g.choice([0, -1]), d)


def gen_tensor_split_indices(g):
    x = _any(g, min_ndim=1)
    d, size = _dim_and_size(g, x)
    idx = sorted(g.int(-size - 1, size + 2) for _ in range(g.int(0, 4)))
    if g.chance(0.3):
        idx = g.shuffled(idx)
    return A(x, idx, d)


def gen_set_(g):
    x = _any(g)
    if g.chance(0.5):
        src = Spec(g.shape(), x.dtype, g.layout())
    else:
        src = Spec(x.shape, x.dtype, g.layout())
    return A(x, src)


def gen_resize_(g):
    x = g.tensor(layout=g.choice(["contiguous", "contiguous", "offset", "transposed", "strided"]))
    shape = list(g.shape(max_numel=80))
    fmt = None
    r = g.random()
    if r < 0.15:
        shape = list(g.shape(ndim=4, max_numel=80))
        fmt = torch.channels_last
    elif r < 0.22:
        shape = list(g.shape(ndim=5, max_numel=80))
        fmt = torch.channels_last_3d
    elif r < 0.26:
        fmt = g.choice([torch.channels_last, torch.contiguous_format, torch.preserve_format])
    elif r < 0.3 and shape:
        shape[0] = -g.int(1, 2)
    return A(x, shape, fmt)


def gen_resize_as_(g):
    x = g.tensor(layout=g.choice(["contiguous", "offset", "transposed"]))
    return A(x, Spec(g.shape(max_numel=80), g.dtype(), g.layout()))


def gen_set_storage_(g):
    x = _any(g)
    src = Spec(g.shape(min_ndim=1), x.dtype, g.layout())
    nd = g.int(0, 4)
    size = [g.int(0, 3) for _ in range(nd)]
    stride = [g.int(0, 3) for _ in range(nd)]
    off = g.int(0, 4)
    if g.chance(0.05) and nd:
        stride = stride[1:]
    if g.chance(0.05):
        off = -1
    return A(x, src, off, size, stride)


def _pair(fn):
    """Wraps a torch list-returning call so its result is a list (torch returns tuples)."""
    return lambda *a: list(fn(*a))


def _no_negative_sizes(fn):
    """ctorch refuses a negative size even where a zero makes PyTorch 1.13 accept it (expand(0, -2) gives
    size [0, -2] there; issue 13, item 14): such a torch result stands for empty()'s error."""
    def run(*a):
        r = fn(*a)
        neg = [s for s in r.shape if s < 0]
        if neg:
            raise RuntimeError(f"Trying to create tensor with negative dimension {neg[0]}: {list(r.shape)}")
        return r
    return run


def _set_storage_torch(x, src, off, size, stride):
    return x.set_(src.storage(), off, size, stride)


OPS = [
    Op("view", gen_view, torch=lambda x, s: x.view(s), ct=lambda x, s: C.view(x, s), weight=2),
    Op("reshape", gen_view, torch=lambda x, s: x.reshape(s), ct=lambda x, s: C.reshape(x, s), weight=2),
    Op("view_as", gen_view_as, torch=lambda x, o: x.view_as(o), ct=lambda x, o: C.view_as(x, o)),
    Op("reshape_as", gen_view_as, torch=lambda x, o: x.reshape_as(o), ct=lambda x, o: C.reshape_as(x, o)),
    Op("as_strided", gen_as_strided, torch=_no_negative_sizes(lambda x, sz, st, off: x.as_strided(sz, st, off)),
       ct=lambda x, sz, st, off: C.as_strided(x, sz, st, off), weight=1.5),
    Op("transpose", gen_two_dims, torch=lambda x, a, b: x.transpose(a, b), ct=lambda x, a, b: C.transpose(x, a, b)),
    Op("t", gen_le2, torch=lambda x: x.t(), ct=lambda x: C.t(x)),
    Op("T", gen_one, torch=lambda x: x.T, ct=lambda x: C.T(x)),
    Op("mT", gen_one, torch=lambda x: x.mT, ct=lambda x: C.mT(x)),
    Op("permute", gen_permute, torch=lambda x, d: x.permute(d), ct=lambda x, d: C.permute(x, d)),
    Op("movedim", gen_movedim, torch=lambda x, s, d: x.movedim(s, d), ct=lambda x, s, d: C.movedim(x, s, d)),
    Op("squeeze", gen_squeeze, torch=lambda x: x.squeeze(), ct=lambda x: C.squeeze(x)),
    Op("squeeze_dim", gen_squeeze_dim, torch=lambda x, d: x.squeeze(d), ct=lambda x, d: C.squeeze(x, d)),
    Op("squeeze_dims", gen_squeeze_dims, torch=lambda x, d: squeeze_dims_ref(x, d),
       ct=lambda x, d: C.squeeze(x, d)),
    Op("unsqueeze", gen_unsqueeze, torch=lambda x, d: x.unsqueeze(d), ct=lambda x, d: C.unsqueeze(x, d)),
    Op("flatten", gen_flatten, torch=lambda x, a, b: x.flatten(a, b), ct=lambda x, a, b: C.flatten(x, a, b)),
    Op("unflatten", gen_unflatten, torch=lambda x, d, s: x.unflatten(d, s), ct=lambda x, d, s: C.unflatten(x, d, s)),
    Op("expand", gen_expand, torch=_no_negative_sizes(lambda x, s: x.expand(s)), ct=lambda x, s: C.expand(x, s)),
    Op("expand_as", gen_expand_as, torch=lambda x, o: x.expand_as(o), ct=lambda x, o: C.expand_as(x, o)),
    Op("broadcast_to", gen_expand, torch=_no_negative_sizes(lambda x, s: x.broadcast_to(s)),
       ct=lambda x, s: C.broadcast_to(x, s)),
    Op("narrow", gen_narrow, torch=lambda x, d, s, n: x.narrow(d, s, n), ct=lambda x, d, s, n: C.narrow(x, d, s, n)),
    Op("select", gen_select, torch=lambda x, d, i: x.select(d, i), ct=lambda x, d, i: C.select(x, d, i)),
    Op("slice", gen_slice, torch=lambda x, d, s, e, st: torch.ops.aten.slice(x, d, s, e, st),
       ct=lambda x, d, s, e, st: C.slice(x, d, s, e, st), weight=1.5),
    Op("unfold", gen_unfold, torch=_no_negative_sizes(lambda x, d, s, st: x.unfold(d, s, st)), ct=lambda x, d, s, st: C.unfold(x, d, s, st)),
    Op("diagonal", gen_diagonal, torch=lambda x, o, a, b: x.diagonal(o, a, b),
       ct=lambda x, o, a, b: C.diagonal(x, o, a, b)),
    Op("unbind", gen_unbind, torch=_pair(lambda x, d: x.unbind(d)), ct=lambda x, d: C.unbind(x, d)),
    Op("split", gen_split, torch=_pair(lambda x, s, d: x.split(s, d)), ct=lambda x, s, d: C.split(x, s, d)),
    Op("split_with_sizes", gen_split_with_sizes, torch=_pair(lambda x, s, d: x.split_with_sizes(s, d)),
       ct=lambda x, s, d: C.split_with_sizes(x, s, d)),
    Op("chunk", gen_chunk, torch=_pair(lambda x, c, d: x.chunk(c, d)), ct=lambda x, c, d: C.chunk(x, c, d)),
    Op("tensor_split", gen_tensor_split, torch=_pair(lambda x, s, d: x.tensor_split(s, d)),
       ct=lambda x, s, d: C.tensor_split(x, s, d)),
    Op("tensor_split_indices", gen_tensor_split_indices, torch=_pair(lambda x, s, d: x.tensor_split(s, d)),
       ct=lambda x, s, d: C.tensor_split(x, s, d)),
    Op("detach", gen_one, torch=lambda x: x.detach(), ct=lambda x: C.detach(x)),
    Op("alias", gen_one, torch=lambda x: torch.ops.aten.alias(x), ct=lambda x: C.alias(x)),
    Op("set_", gen_set_, torch=lambda x, s: x.set_(s), ct=lambda x, s: C.set_(x, s)),
    Op("set_storage_", gen_set_storage_, torch=_set_storage_torch, ct=C.set_storage_, values="if_storage_kept"),
    Op("resize_", gen_resize_, torch=_no_negative_sizes(lambda x, s, f: x.resize_(s, memory_format=f) if f else x.resize_(s)),
       ct=lambda x, s, f: C.resize_(x, s, f), values="if_storage_kept", weight=1.5),
    Op("resize_as_", gen_resize_as_, torch=lambda x, o: x.resize_as_(o), ct=lambda x, o: C.resize_as_(x, o),
       values="if_storage_kept"),
]
