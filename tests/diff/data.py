"""Random inputs: shapes, dtypes, element values (with the special values casts trip over) and
input layouts. A layout is a list of view steps applied to a contiguous base in both libraries
(torch and ctorch), so a non-contiguous input has the same geometry on both sides."""
import math

import numpy as np
import torch

import ctorch as C

DTYPES = C.DTYPES
INT_DTYPES = [torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64]
FLOAT_DTYPES = [torch.float16, torch.bfloat16, torch.float32, torch.float64]
COMPLEX_DTYPES = [torch.complex64, torch.complex128]

# Values that conversions and float->int casts get wrong first (the brief's list). Each NaN drawn gets
# a random sign and payload afterwards (_vary_nans).
SPECIALS = [math.nan, math.inf, -math.inf, -0.0, 1e30, -300.7, 2.0**31, 2.0**63, 255.9, -129.5]

# Per floating dtype: (integer view, sign bit, quiet bit, mantissa mask). NaN = all exponent bits set
# and a nonzero mantissa; quiet when the mantissa's top bit is set.
_NAN_BITS = {
    torch.float16: (torch.int16, 0x8000, 0x0200, 0x03FF),
    torch.bfloat16: (torch.int16, 0x8000, 0x0040, 0x007F),
    torch.float32: (torch.int32, 0x80000000, 0x00400000, 0x007FFFFF),
    torch.float64: (torch.int64, 1 << 63, 1 << 51, (1 << 52) - 1),
}

LAYOUTS = ["contiguous", "transposed", "strided", "expanded", "offset"]


# ---- shapes --------------------------------------------------------------------------------------

def rand_shape(rng, ndim=None, max_numel=48, min_ndim=0, max_ndim=6, allow_empty=True):
    """0-dim to 6-D; sizes mostly 1..4, sometimes 0 (empty) or larger; numel kept small."""
    if ndim is None:
        ndim = int(rng.choice(range(min_ndim, max_ndim + 1)))
    sizes = []
    for _ in range(ndim):
        r = rng.random()
        if allow_empty and r < 0.06:
            sizes.append(0)
        elif r < 0.3:
            sizes.append(1)
        else:
            sizes.append(int(rng.integers(2, 6)))
    # Shrink the biggest dims until the element count is modest.
    while math.prod(sizes) > max_numel:
        i = int(np.argmax(sizes))
        sizes[i] = max(1, sizes[i] // 2)
    return tuple(sizes)


# ---- element values ------------------------------------------------------------------------------

def _floats(rng, n, specials=True):
    v = rng.standard_normal(n) * rng.choice([1.0, 10.0, 1000.0], n)
    # Some exact small integers and halves (round-trip exactly through every float dtype).
    k = rng.random(n)
    v = np.where(k < 0.2, np.round(v), v)
    v = np.where((k >= 0.2) & (k < 0.3), np.round(v * 2) / 2, v)
    if specials:
        s = rng.random(n) < 0.25
        v = np.where(s, rng.choice(SPECIALS, n), v)
    return v


def random_tensor(rng, shape, dt, specials=True):
    """A contiguous torch tensor of shape and dtype with random values (special values included for
    floating and complex dtypes when `specials`)."""
    n = math.prod(shape)
    if dt == torch.bool:
        a = torch.from_numpy(rng.random(n) < 0.5)
    elif dt in INT_DTYPES:
        info = np.iinfo(C.NP_DTYPE[dt])
        small = rng.integers(max(info.min, -100), min(info.max, 100) + 1, n)
        edge = rng.choice([info.min, info.max, info.min + 1, info.max - 1, 0, 1], n)
        wide = rng.integers(info.min, info.max, n, endpoint=True, dtype=np.int64)
        r = rng.random(n)
        vals = np.where(r < 0.6, small, np.where(r < 0.8, edge, wide))
        a = torch.from_numpy(np.asarray(vals).astype(C.NP_DTYPE[dt]))
    elif dt in FLOAT_DTYPES:
        a = torch.from_numpy(_floats(rng, n, specials)).to(dt)
    else:
        re, im = _floats(rng, n, specials), _floats(rng, n, specials)
        a = torch.complex(torch.from_numpy(re), torch.from_numpy(im)).to(dt)
    # Canonical contiguous strides (from_numpy keeps numpy's, which differ for empty arrays).
    t = torch.empty(shape, dtype=dt).copy_(a.reshape(shape))
    if dt.is_floating_point or dt.is_complex:
        _vary_nans(rng, torch.view_as_real(t) if dt.is_complex else t)
    return t


def _vary_nans(rng, t):
    """Gives each NaN of the contiguous floating tensor t (in place) a random sign and payload: half
    keep the default quiet payload, a third get a random quiet one, the rest are signaling. Results
    are compared by NaN class (README.md), so every op must keep NaN-ness whatever bits it is fed."""
    itype, sign, quiet, mant = _NAN_BITS[t.dtype]
    where = np.nonzero(t.reshape(-1).isnan().numpy())[0]
    if where.size == 0:
        return
    # A copy: Tensor.numpy() would mark t's storage non-resizable (out= resizes would fail in torch only).
    raw = t.view(itype).reshape(-1).clone()
    bits = raw.numpy().view(np.dtype("u%d" % t.element_size()))
    u = bits.dtype.type
    expo = u(~(u(sign) | u(mant)) & ~u(0))  # the exponent field, all ones
    for i in where:
        r = rng.random()
        payload = quiet if r < 0.5 else (
            quiet | int(rng.integers(0, quiet)) if r < 0.83 else int(rng.integers(1, quiet)))
        bits[i] = expo | u(payload) | (u(sign) if rng.random() < 0.5 else u(0))
    t.view(itype).copy_(raw.view(t.shape))


# ---- layouts -------------------------------------------------------------------------------------

def plan_layout(rng, shape, kinds):
    """(base_shape, steps): view steps that turn a contiguous base into a tensor of `shape`, applying
    the layout kinds in order. A kind that cannot apply to the shape (transposing a 1-D tensor) is
    dropped."""
    cur, steps = list(shape), []
    for kind in reversed(kinds):  # built backwards from the final shape
        r = _inverse(rng, kind, cur)
        if r is None:
            continue
        cur, step = r
        steps.insert(0, step)
    return tuple(cur), steps


def _inverse(rng, kind, cur):
    nd = len(cur)
    if kind == "transposed":
        if nd < 2:
            return None
        if rng.random() < 0.5:
            a, b = (int(v) for v in rng.choice(nd, 2, replace=False))
            pre = list(cur)
            pre[a], pre[b] = cur[b], cur[a]
            return pre, ("transpose", a, b)
        perm = [int(v) for v in rng.permutation(nd)]
        if perm == sorted(perm):
            perm = perm[1:] + perm[:1]
        pre = [0] * nd
        for i, p in enumerate(perm):
            pre[p] = cur[i]
        return pre, ("permute", tuple(perm))
    if kind == "strided":
        if nd == 0:
            return None
        d = int(rng.integers(nd))
        step, start, n = int(rng.integers(2, 4)), int(rng.integers(0, 3)), cur[d]
        pre = list(cur)
        if n > 0:
            pre[d] = start + (n - 1) * step + 1 + int(rng.integers(0, step))
            end = C.CT_END if rng.random() < 0.3 else start + n * step
        else:
            pre[d] = start + int(rng.integers(0, 3))
            end = start
        return pre, ("slice", d, start, end, step)
    if kind == "expanded":
        if nd == 0:
            return None
        lead = int(rng.integers(0, min(2, nd) + 1))
        pre = list(cur[lead:])
        for i in range(len(pre)):
            if rng.random() < 0.5:
                pre[i] = 1
        if lead == 0 and pre == list(cur):
            pre[int(rng.integers(nd))] = 1
        if pre == list(cur):
            return None
        return pre, ("expand", tuple(cur))
    if kind == "offset":
        k = int(rng.integers(1, 4))
        if nd == 0:
            return [k + 1 + int(rng.integers(0, 3))], ("select", 0, k)
        d = int(rng.integers(nd))
        pre = list(cur)
        pre[d] = cur[d] + k + int(rng.integers(0, 3))
        return pre, ("narrow", d, k, cur[d])
    if kind == "contiguous":
        return None
    raise ValueError(kind)


def apply_torch(x, steps):
    for s in steps:
        op, a = s[0], s[1:]
        if op == "transpose":
            x = x.transpose(*a)
        elif op == "permute":
            x = x.permute(*a)
        elif op == "slice":
            x = torch.ops.aten.slice(x, *a)
        elif op == "expand":
            x = x.expand(*a)
        elif op == "narrow":
            x = x.narrow(*a)
        elif op == "select":
            x = x.select(*a)
    return x


def apply_ct(x, steps):
    for s in steps:
        op, a = s[0], s[1:]
        if op == "transpose":
            x = C.transpose(x, *a)
        elif op == "permute":
            x = C.permute(x, a[0])
        elif op == "slice":
            x = C.slice(x, *a)
        elif op == "expand":
            x = C.expand(x, a[0])
        elif op == "narrow":
            x = C.narrow(x, *a)
        elif op == "select":
            x = C.select(x, *a)
    return x


def describe(steps):
    return "".join(".%s%s" % (s[0], tuple("END" if v == C.CT_END else v for v in s[1:])) for s in steps)
