"""Entries for include/ctorch/sort.h: sort, argsort, msort, topk, kthvalue, median, nanmedian, mode,
quantile, nanquantile, unique, unique_consecutive, searchsorted, bucketize, softmax, log_softmax; their out=
forms. Inputs are tie-heavy (a few distinct values: small integers, repeated floats, -0.0 and 0.0, NaNs of
both signs, infinities) so that indices are checked where torch's algorithms (std::sort, partial_sort,
nth_element, its quick select) decide among equal values; every dtype (those torch refuses: its message),
every layout, empty and 0-dim inputs, lines longer than std::sort's 16-element insertion threshold and
topk's partial-sort threshold (k * 64 <= n), out= tensors of other shapes and dtypes, bad dims and ks.
Values and indices are compared bit for bit; softmax / log_softmax too (torch's AVX2 kernel reproduced)."""
import ctypes

import numpy as np
import torch

import ctorch as C
import data as D
from harness import A, Op, Spec

DTYPES = D.DTYPES
REAL = [d for d in DTYPES if not d.is_complex]
_keep = []


def _shape(dims):
    dims = [int(d) for d in dims]
    arr = (ctypes.c_int64 * max(len(dims), 1))(*dims)
    _keep.append(arr)
    return C.ct_shape(ctypes.cast(arr, C.c_int64_p), len(dims))


def _dims(dim):
    return [] if dim is None else [dim]


class ct_sort_opts(ctypes.Structure):
    _fields_ = [("dims", C.ct_shape), ("descending", ctypes.c_bool), ("stable", ctypes.c_bool)]


class ct_topk_opts(ctypes.Structure):
    _fields_ = [("dims", C.ct_shape), ("smallest", ctypes.c_bool), ("unsorted", ctypes.c_bool)]


class ct_select_opts(ctypes.Structure):
    _fields_ = [("dims", C.ct_shape), ("keepdim", ctypes.c_bool)]


class ct_keepdim_opts(ctypes.Structure):
    _fields_ = [("keepdim", ctypes.c_bool)]


class ct_quantile_opts(ctypes.Structure):
    _fields_ = [("dims", C.ct_shape), ("keepdim", ctypes.c_bool), ("interpolation", ctypes.c_char_p)]


class ct_unique_opts(ctypes.Structure):
    _fields_ = [("dims", C.ct_shape), ("unsorted", ctypes.c_bool)]


class ct_searchsorted_opts(ctypes.Structure):
    _fields_ = [("out_int32", ctypes.c_bool), ("right", ctypes.c_bool), ("side", ctypes.c_char_p),
                ("sorter", ctypes.c_void_p)]


class ct_bucketize_opts(ctypes.Structure):
    _fields_ = [("out_int32", ctypes.c_bool), ("right", ctypes.c_bool)]


class ct_softmax_opts(ctypes.Structure):
    _fields_ = [("dtype", ctypes.c_int)]


def _ref(o):
    _keep.append(o)
    return ctypes.byref(o)


def L():
    return C.lib()


def _pair(fn, *args):
    v, i = ctypes.c_void_p(), ctypes.c_void_p()
    C.check(fn(*args[:-1], ctypes.byref(v), ctypes.byref(i), args[-1]))
    return (C.own(v.value), C.own(i.value))


# ---- values ----------------------------------------------------------------------------------------------

_NEG_NAN = np.frombuffer(bytes.fromhex("000000000000f8ff"), np.float64)[0]


def _tie_base(g, shape, dt):
    """A few distinct values, many repeats: small integers (negative ones for signed dtypes), and for floats
    -0.0 / 0.0, NaNs of both signs, infinities, halves."""
    n = int(np.prod(shape))
    if dt == torch.bool:
        v = g.rng.integers(0, 2, n).astype(np.float64)
    elif not dt.is_floating_point:
        lo = 0 if dt == torch.uint8 else -g.int(0, 3)
        v = g.rng.integers(lo, g.int(1, 6), n).astype(np.float64)
    else:
        pool = [0.0, -0.0, 1.0, -1.0, 2.0, 0.5]
        if g.chance(0.5):
            pool += [np.nan, _NEG_NAN, np.inf, -np.inf]
        if g.chance(0.3):
            pool = pool[:3]
        v = np.array(pool)[g.rng.integers(0, len(pool), n)]
    return torch.from_numpy(v).reshape(shape).to(dt)


LONG_SHAPES = [(40,), (3, 33), (17, 2), (200,), (2, 130), (700,), (5, 70)]


def _input(g, dt, max_numel=60, ties=0.75, no_nan=False, no_expand=False):
    if g.chance(0.12):
        shape = g.choice(LONG_SHAPES)
        layout = g.choice([["contiguous"], ["contiguous"], ["transposed"], ["strided"]])
    else:
        shape = tuple(g.shape(max_numel=max_numel))
        layout = g.layout()
        if no_expand and "expanded" in layout:
            layout = ["transposed"]
    if g.chance(ties):
        base = _tie_base(g, shape, dt)
        if no_nan and dt.is_floating_point:
            base = torch.nan_to_num(base, nan=3.0)
        return Spec(shape, dt, layout, base=base)
    if no_nan and dt.is_floating_point:
        return Spec(shape, dt, layout, base=torch.randn(shape, dtype=torch.float64).to(dt))
    return Spec(shape, dt, layout)


BIG_SHAPES = [(3000,), (2, 5000), (20000,), (70000,)]


def _big_base(g, shape, dt):
    """Long lines for the block partition (sort_blocks.c) and topk's chunk filter: tie-heavy values, or normal
    values on a coarse grid (runs of a few equal values among many distinct ones, as randn has in float16),
    sometimes descending or nearly sorted."""
    n = int(np.prod(shape))
    r = g.random()
    if r < 0.35 or dt == torch.bool or dt.is_complex:
        return _tie_base(g, shape, dt)
    v = np.round(g.rng.standard_normal(n) * g.choice([4, 64, 4096])) * (1 if not dt.is_floating_point else 0.25)
    if r > 0.8:
        v = np.sort(v)[::g.choice([1, -1])].copy()
        v[g.rng.integers(0, n, max(1, n // 50))] = 0.0  # a few out of place
    if dt.is_floating_point and g.chance(0.3):
        v[g.rng.integers(0, n, max(1, n // 100))] = g.choice([np.nan, _NEG_NAN, -0.0, np.inf])
    if not dt.is_floating_point:
        info = torch.iinfo(dt)
        v = np.clip(v, info.min, info.max)
    return torch.from_numpy(v).reshape(shape).to(dt)


def _big_input(g, dt):
    shape = g.choice(BIG_SHAPES) if g.chance(0.9) else (g.int(140000, 200000),)  # 2 threads share one line
    return Spec(shape, dt, g.choice([["contiguous"], ["contiguous"], ["transposed"]]), base=_big_base(g, shape, dt))


EDGE_LENS = [17, 31, 32, 33, 47, 48, 63, 64, 65, 66, 96, 127, 128, 129, 191, 192, 255, 256, 257, 513]


def _edge_base(g, shape, dt):
    """Lines at the sort kernels' edges (sort_blocks.c: blocks of 64 stops, the distinct-keys rank sort of
    parts up to 64, leaves up to 16): all equal, distinct, a grid with ties, or ties among -0.0 / 0.0, NaNs
    of both signs and infinities; sometimes sorted either way."""
    n = int(np.prod(shape))
    if dt == torch.bool or dt.is_complex:
        return _tie_base(g, shape, dt)
    fl = dt.is_floating_point
    r = g.random()
    if r < 0.15:
        v = np.full(n, g.choice([0.0, -0.0, 1.5, np.nan, _NEG_NAN] if fl else [0.0, 1.0, 3.0]))
    elif r < 0.4:
        v = g.rng.permutation(n).astype(np.float64) - n // 2
    elif r < 0.7:
        v = np.round(g.rng.standard_normal(n) * g.choice([2, 8, 64]))
    else:
        pool = [0.0, -0.0, np.nan, _NEG_NAN, np.inf, -np.inf, 1.0, -1.0] if fl else [0.0, 1.0, 2.0, 5.0]
        v = np.array(pool)[g.rng.integers(0, len(pool), n)]
    if g.chance(0.25):
        v = np.sort(v)[::g.choice([1, -1])].copy()
    if fl and g.chance(0.3):
        v[g.rng.integers(0, n, max(1, n // 20))] = g.choice([np.nan, _NEG_NAN, -0.0, 0.0])
    if not fl:
        info = torch.iinfo(dt)
        v = np.clip(v, info.min, info.max)
    return torch.from_numpy(v).reshape(shape).to(dt)


def _edge_input(g, dt):
    n = g.choice(EDGE_LENS)
    shape = (n,) if g.chance(0.6) else (3, n)
    return Spec(shape, dt, g.choice([["contiguous"], ["contiguous"], ["transposed"]]), base=_edge_base(g, shape, dt))


def _dt(g):
    return DTYPES[g.index] if g.index < len(DTYPES) else g.dtype(REAL if g.chance(0.9) else None)


def _out(g, dt, shape_hint):
    r = g.random()
    shape = shape_hint if r < 0.6 else g.choice([(0,), (3,), tuple(g.shape(max_numel=24))])
    layout = g.choice([["contiguous"]] * 4 + [["transposed"], ["strided"], ["offset"]])
    return Spec(shape, dt, layout)


def _maybe(g, dt, p=0.9):
    return dt if g.chance(p) else g.dtype()


def _dim_kw(g, x):
    return None if g.chance(0.25) else g.dim(len(x.shape), bad=0.06)


# ---- sort / argsort / msort ----------------------------------------------------------------------------

def gen_sort(g):
    r = g.random()
    if r < 0.1:  # lines at the kernels' block edges, sorted along themselves
        x = _edge_input(g, _dt(g))
        return A(x, dim=g.choice([None, -1]), descending=g.chance(0.5), stable=g.chance(0.3))
    x = _input(g, _dt(g)) if r < 0.93 else _big_input(g, _dt(g))
    return A(x, dim=_dim_kw(g, x), descending=g.chance(0.5), stable=g.chance(0.4))


def gen_sort_out(g):
    a = gen_sort(g)
    x = a.args[0]
    a.kw["out"] = (_out(g, _maybe(g, x.dtype), x.shape), _out(g, _maybe(g, torch.int64), x.shape))
    return a


def _sopts(dim, descending, stable):
    return _ref(ct_sort_opts(_shape(_dims(dim)), descending, stable))


def t_sort(x, dim=None, descending=False, stable=False, out=None):
    d = -1 if dim is None else dim
    return tuple(torch.sort(x, dim=d, descending=descending, stable=stable, out=out))


def c_sort(x, dim=None, descending=False, stable=False):
    return _pair(L().ct_sort, x, _sopts(dim, descending, stable))


def c_sort_out(x, dim=None, descending=False, stable=False, out=None):
    C.check(L().ct_sort_out(out[0], out[1], x, _sopts(dim, descending, stable)))
    return tuple(out)


def t_argsort(x, dim=None, descending=False, stable=False):
    return torch.argsort(x, dim=-1 if dim is None else dim, descending=descending, stable=stable)


def c_argsort(x, dim=None, descending=False, stable=False):
    return C.own(L().ct_argsort(x, _sopts(dim, descending, stable)))


def gen_msort(g):
    return A(_input(g, _dt(g)))


def gen_msort_out(g):
    x = _input(g, _dt(g))
    return A(x, out=_out(g, _maybe(g, x.dtype), x.shape))


def c_msort_out(x, out=None):
    C.check(L().ct_msort_out(out, x))
    return out


# ---- topk ------------------------------------------------------------------------------------------------

def gen_topk(g, with_out=False):
    dt = _dt(g)
    if g.chance(0.25):  # partial_sort's path: k * 64 <= n
        x = Spec(g.choice([(700,), (2, 700), (130, 2), (5000,), (70000,)]), dt,
                 g.choice([["contiguous"], ["transposed"]]), base=None)
        shape = x.shape
        x = Spec(shape, dt, x.layout, base=(_tie_base if g.chance(0.6) else _big_base)(g, shape, dt))
        dim = -1 if shape != (130, 2) else 0
        k = g.int(0, shape[dim] // 64)
    else:
        x = _input(g, dt)
        dim = _dim_kw(g, x)
        nd = len(x.shape)
        size = 1 if nd == 0 or dim is None and nd == 0 else (x.shape[-1 if dim is None else dim]
                                                             if dim is None or -nd <= dim < max(nd, 1) else 1)
        if nd == 0:
            size = 1
        k = g.int(0, max(size, 0)) if g.chance(0.92) else g.choice([size + 1, -1])
    kw = dict(dim=dim, largest=g.chance(0.6), sorted=g.chance(0.7))
    if with_out:
        kw["out"] = (_out(g, _maybe(g, x.dtype), _topk_out_hint(g, x, dim, k)),
                     _out(g, _maybe(g, torch.int64), _topk_out_hint(g, x, dim, k)))
    return A(x, k, **kw)


def _topk_out_hint(g, x, dim, k):
    """The result's shape (dim's size k), or the input's."""
    shape, nd = list(x.shape), len(x.shape)
    d = -1 if dim is None else dim
    if not nd or not -nd <= d < nd or k < 0 or g.chance(0.3):
        return x.shape
    shape[d % nd] = k
    return tuple(shape)


def _topts(dim, largest, sorted):
    return _ref(ct_topk_opts(_shape(_dims(dim)), not largest, not sorted))


def t_topk(x, k, dim=None, largest=True, sorted=True, out=None):
    return tuple(torch.topk(x, k, dim=-1 if dim is None else dim, largest=largest, sorted=sorted, out=out))


def c_topk(x, k, dim=None, largest=True, sorted=True):
    return _pair(L().ct_topk, x, k, _topts(dim, largest, sorted))


def c_topk_out(x, k, dim=None, largest=True, sorted=True, out=None):
    C.check(L().ct_topk_out(out[0], out[1], x, k, _topts(dim, largest, sorted)))
    return tuple(out)


# ---- kthvalue / median / mode ----------------------------------------------------------------------------

def _line_size(x, dim):
    nd = len(x.shape)
    if nd == 0:
        return 1
    d = -1 if dim is None else dim
    return x.shape[d] if -nd <= d < nd else 1


def _sel_out_hint(g, x, dim):
    """An out= shape for the reductions with indices: the result's (dim removed), the keepdim shape (dim kept
    as 1: kthvalue squeezes such an out, keeping its strides), or a 0-dim one."""
    shape, nd = list(x.shape), len(x.shape)
    d = -1 if dim is None else dim
    if not nd or not -nd <= d < nd:
        return ()
    d %= nd
    return g.choice([tuple(shape[:d] + shape[d + 1:]), tuple(shape[:d] + [1] + shape[d + 1:]), ()])


def gen_kth(g, with_out=False):
    x = _input(g, _dt(g))
    dim = _dim_kw(g, x)
    n = _line_size(x, dim)
    k = g.int(1, max(n, 1)) if g.chance(0.9) else g.choice([0, n + 1])
    kw = dict(dim=dim, keepdim=g.chance(0.4))
    if with_out:
        kw["out"] = (_out(g, _maybe(g, x.dtype), _sel_out_hint(g, x, dim)),
                     _out(g, _maybe(g, torch.int64), _sel_out_hint(g, x, dim)))
    return A(x, k, **kw)


def _selopts(dim, keepdim):
    return _ref(ct_select_opts(_shape(_dims(dim)), keepdim))


def t_kth(x, k, dim=None, keepdim=False, out=None):
    return tuple(torch.kthvalue(x, k, dim=-1 if dim is None else dim, keepdim=keepdim, out=out))


def c_kth(x, k, dim=None, keepdim=False):
    return _pair(L().ct_kthvalue, x, k, _selopts(dim, keepdim))


def c_kth_out(x, k, dim=None, keepdim=False, out=None):
    C.check(L().ct_kthvalue_out(out[0], out[1], x, k, _selopts(dim, keepdim)))
    return tuple(out)


def gen_median(g):
    return A(_input(g, _dt(g)))


def gen_median_dim(g, with_out=False):
    # torch 1.13's median along a dim reads past an expanded input's elements (median(expand(...), 0)
    # returns values that are not in the input): a documented difference, not drawn
    x = _input(g, _dt(g), no_expand=True)
    kw = dict(keepdim=g.chance(0.4))
    dim = g.dim(len(x.shape), bad=0.06)
    if with_out:
        kw["out"] = (_out(g, _maybe(g, x.dtype), _sel_out_hint(g, x, dim)),
                     _out(g, _maybe(g, torch.int64), _sel_out_hint(g, x, dim)))
    return A(x, dim, **kw)


def c_median_dim(name):
    def call(x, dim, keepdim=False):
        return _pair(getattr(L(), "ct_%s_dim" % name), x, dim, _ref(ct_keepdim_opts(keepdim)))
    return call


def c_median_dim_out(name):
    def call(x, dim, keepdim=False, out=None):
        C.check(getattr(L(), "ct_%s_dim_out" % name)(out[0], out[1], x, dim, _ref(ct_keepdim_opts(keepdim))))
        return tuple(out)
    return call


def gen_mode(g, with_out=False):
    x = _input(g, _dt(g))
    kw = dict(dim=_dim_kw(g, x), keepdim=g.chance(0.4))
    if with_out:
        kw["out"] = (_out(g, _maybe(g, x.dtype), _sel_out_hint(g, x, kw["dim"])),
                     _out(g, _maybe(g, torch.int64), _sel_out_hint(g, x, kw["dim"])))
    return A(x, **kw)


def t_mode(x, dim=None, keepdim=False, out=None):
    return tuple(torch.mode(x, dim=-1 if dim is None else dim, keepdim=keepdim, out=out))


def c_mode(x, dim=None, keepdim=False):
    return _pair(L().ct_mode, x, _selopts(dim, keepdim))


def c_mode_out(x, dim=None, keepdim=False, out=None):
    C.check(L().ct_mode_out(out[0], out[1], x, _selopts(dim, keepdim)))
    return tuple(out)


# ---- quantile --------------------------------------------------------------------------------------------

INTERP = ["linear", "lower", "higher", "midpoint", "nearest"]


def gen_quantile(g, scalar, with_out=False):
    dt = g.choice([torch.float32, torch.float64]) if g.chance(0.9) else g.dtype()
    x = _input(g, dt, ties=0.5)
    if scalar:
        q = g.choice([0.0, 1.0, 0.5, 0.25, 1 / 3]) if g.chance(0.5) else g.random()
        if g.chance(0.05):
            q = g.choice([-0.5, 1.5, float("nan")])
    else:
        n = g.choice([None, 1, 3, 5])
        vals = np.array([g.choice([0.0, 1.0, 0.5, 0.25, 1 / 3, 0.7]) if g.chance(0.5) else g.random()
                         for _ in range(n or 1)])
        if g.chance(0.04):
            vals[0] = 1.5
        qt = torch.from_numpy(vals).to(dt if g.chance(0.95) else torch.float64)
        q = Spec((n,) if n else (), qt.dtype, ["contiguous"], base=qt.reshape((n,) if n else ()))
    kw = dict(dim=None if g.chance(0.35) else g.dim(len(x.shape), bad=0.05), keepdim=g.chance(0.4))
    if g.chance(0.85):
        kw["interpolation"] = g.choice(INTERP if g.chance(0.97) else ["cubic"])
    if with_out:
        hint = ()
        if g.chance(0.6):  # the result's shape: q's dim first, then the input's reduced (or kept as 1)
            shape, nd, d = list(x.shape), len(x.shape), kw["dim"]
            if d is None:
                red = [1] * nd if kw["keepdim"] else []
            elif nd and -nd <= d < nd:
                red = shape[:d % nd] + ([1] if kw["keepdim"] else []) + shape[d % nd + 1:]
            else:
                red = []
            hint = tuple(([n] if not scalar and n else []) + red)
        kw["out"] = _out(g, _maybe(g, dt, 0.92), hint)
    return A(x, q, **kw)


def _qopts(dim, keepdim, interpolation):
    return _ref(ct_quantile_opts(_shape(_dims(dim)), keepdim,
                                 None if interpolation is None else interpolation.encode()))


def t_quantile(name):
    def call(x, q, dim=None, keepdim=False, interpolation="linear", out=None):
        return getattr(torch, name)(x, q, dim=dim, keepdim=keepdim, interpolation=interpolation, out=out)
    return call


def c_quantile(name, scalar):
    def call(x, q, dim=None, keepdim=False, interpolation=None):
        f = getattr(L(), "ct_%s%s" % (name, "_scalar" if scalar else ""))
        return C.own(f(x, ctypes.c_double(q) if scalar else q, _qopts(dim, keepdim, interpolation)))
    return call


def c_quantile_out(name, scalar):
    def call(x, q, dim=None, keepdim=False, interpolation=None, out=None):
        f = getattr(L(), "ct_%s%s_out" % (name, "_scalar" if scalar else ""))
        C.check(f(out, x, ctypes.c_double(q) if scalar else q, _qopts(dim, keepdim, interpolation)))
        return out
    return call


# ---- unique ----------------------------------------------------------------------------------------------

def gen_unique(g, consecutive):
    dt = _dt(g)
    # sorted=False (flat unique only; unique_dim ignores it): the iteration order of torch's unordered_set,
    # NaNs (each its own element), -0.0 with 0.0, and long inputs whose set rehashes many times
    unsorted = not consecutive and g.chance(0.5)
    if unsorted and g.chance(0.08):
        x = _big_input(g, dt)
    else:
        # sorted=True: torch's hash set keeps every NaN apart and its sorted order of them is the set's: no
        # NaN in unique's sorted flat form (docs: a known difference); along a dim and in unique_consecutive
        # NaN is compared.
        x = _input(g, dt, max_numel=40, ties=0.9, no_nan=not consecutive and not unsorted)
    # bfloat16 hashes by its bits: torch's set keeps -0.0 and 0.0 apart, sorted or not (drawn: no NaN here)
    kw = dict(return_inverse=g.chance(0.6), return_counts=g.chance(0.6))
    if unsorted:
        kw["sorted"] = False
    if g.chance(0.4 if not unsorted else 0.15):
        kw["dim"] = g.dim(len(x.shape), bad=0.05)
        if not consecutive and dt.is_floating_point:
            x = Spec(x.shape, dt, x.layout, base=_tie_base(g, x.shape, dt))
    return A(x, **kw)


def t_unique(consecutive):
    def call(x, return_inverse=False, return_counts=False, dim=None, sorted=True):
        f = torch.unique_consecutive if consecutive else torch.unique
        kw = {} if consecutive else dict(sorted=sorted)
        r = f(x, return_inverse=return_inverse, return_counts=return_counts, dim=dim, **kw)
        return tuple(r) if isinstance(r, tuple) else (r,)
    return call


def c_unique(consecutive):
    def call(x, return_inverse=False, return_counts=False, dim=None, sorted=True):
        o, i, c = ctypes.c_void_p(), ctypes.c_void_p(), ctypes.c_void_p()
        f = L().ct_unique_consecutive if consecutive else L().ct_unique
        C.check(f(x, ctypes.byref(o), ctypes.byref(i) if return_inverse else None,
                  ctypes.byref(c) if return_counts else None,
                  _ref(ct_unique_opts(_shape(_dims(dim)), not sorted))))
        r = [C.own(o.value)]
        if return_inverse:
            r.append(C.own(i.value))
        if return_counts:
            r.append(C.own(c.value))
        return tuple(r)
    return call


# ---- searchsorted / bucketize ----------------------------------------------------------------------------

def _sorted_seq(g, dt, shape):
    base = _tie_base(g, shape, dt)
    if shape and not dt.is_complex:
        base = torch.sort(base.to(torch.float64) if dt in (torch.float16, torch.bfloat16) else base, dim=-1)[0].to(dt)
    return Spec(shape, dt, g.choice([["contiguous"], ["contiguous"], ["transposed"], ["strided"]]), base=base)


def gen_ss(g, scalar=False, with_out=False):
    dt = _dt(g)
    vdt = dt if g.chance(0.8) else g.dtype(REAL)
    if scalar or g.chance(0.5):
        bshape = (g.int(0, 9),) if g.chance(0.95) else ()
        vshape = () if scalar else tuple(g.shape(max_numel=30))
    else:
        lead = tuple(g.shape(max_numel=8, max_ndim=2))
        bshape = lead + (g.int(0, 7),)
        vshape = lead + (g.int(0, 5),) if g.chance(0.9) else tuple(g.shape(max_numel=20))
    bd = _sorted_seq(g, dt, bshape)
    kw = dict(out_int32=g.chance(0.3), right=g.chance(0.4))
    if g.chance(0.2):
        kw["side"] = g.choice(["left", "right", "middle"] if g.chance(0.2) else ["left", "right"])
    if not scalar and g.chance(0.15) and bshape and int(np.prod(bshape)) > 0:
        perm = torch.stack([torch.randperm(bshape[-1]) for _ in range(int(np.prod(bshape[:-1])))]) \
            .reshape(bshape) if bshape[-1] else torch.zeros(bshape, dtype=torch.long)
        unsorted = _tie_base(g, bshape, dt)
        bd = Spec(bshape, dt, ["contiguous"], base=unsorted)
        kw["sorter"] = Spec(bshape, torch.int64, ["contiguous"], base=torch.sort(
            unsorted.to(torch.float64) if dt in (torch.float16, torch.bfloat16) else unsorted, dim=-1,
            stable=True)[1] if bshape[-1] and not dt.is_complex else perm)
    if scalar:
        v = g.choice([0, 1, 2, -1, 0.5, 2.5, float("nan")])
    else:
        v = Spec(vshape, vdt, g.layout(), base=_tie_base(g, vshape, vdt))
    if with_out:
        kw["out"] = _out(g, torch.int32 if kw["out_int32"] and g.chance(0.9) else
                         torch.int64 if g.chance(0.9) else g.dtype(), vshape if not scalar and g.chance(0.7) else ())
    return A(bd, v, **kw)


def _ssopts(out_int32=False, right=False, side=None, sorter=None):
    return _ref(ct_searchsorted_opts(out_int32, right, None if side is None else side.encode(),
                                     None if sorter is None else sorter.ptr))


def t_ss(bd, v, out=None, **kw):
    if not isinstance(v, torch.Tensor):  # the Number overloads (Python has no out= form of it)
        f = torch.ops.aten.searchsorted
        return f.Scalar(bd, v, **kw) if out is None else f.Scalar_out(bd, v, out=out, **kw)
    return torch.searchsorted(bd, v, out=out, **kw)


def c_ss(scalar):
    def call(bd, v, **kw):
        f = L().ct_searchsorted_scalar if scalar else L().ct_searchsorted
        return C.own(f(bd, C.ct_scalar.of(v) if scalar else v, _ssopts(**kw)))
    return call


def c_ss_out(scalar):
    def call(bd, v, out=None, **kw):
        f = L().ct_searchsorted_scalar_out if scalar else L().ct_searchsorted_out
        C.check(f(out, bd, C.ct_scalar.of(v) if scalar else v, _ssopts(**kw)))
        return out
    return call


def gen_bucketize(g, scalar=False, with_out=False):
    a = gen_ss(g, scalar=scalar, with_out=with_out)
    bd, v = a.args
    kw = {k: a.kw[k] for k in ("out_int32", "right", "out") if k in a.kw}
    if g.chance(0.9) and len(bd.shape) != 1:
        bd = _sorted_seq(g, bd.dtype, (g.int(0, 6),))
    return A(v, bd, **kw)


def t_bucketize(v, bd, out=None, **kw):
    if not isinstance(v, torch.Tensor):
        f = torch.ops.aten.bucketize
        return f.Scalar(v, bd, **kw) if out is None else f.Scalar_out(v, bd, out=out, **kw)
    return torch.bucketize(v, bd, out=out, **kw)


def c_bucketize(scalar):
    def call(v, bd, **kw):
        f = L().ct_bucketize_scalar if scalar else L().ct_bucketize
        return C.own(f(C.ct_scalar.of(v) if scalar else v, bd, _ref(ct_bucketize_opts(**kw))))
    return call


def c_bucketize_out(scalar):
    def call(v, bd, out=None, **kw):
        f = L().ct_bucketize_scalar_out if scalar else L().ct_bucketize_out
        C.check(f(out, C.ct_scalar.of(v) if scalar else v, bd, _ref(ct_bucketize_opts(**kw))))
        return out
    return call


# ---- softmax ---------------------------------------------------------------------------------------------

SOFTMAX_SHAPES = [(7,), (8,), (9,), (33,), (3, 17), (4, 8, 3), (2, 9, 11), (5, 20), (40, 3), (2, 3, 16, 2)]


def gen_softmax(g, with_out=False, bf16=False):
    """float32 / float64 (and the dtypes torch refuses) bit for bit; bfloat16 (bf16=True) within a tolerance:
    torch's bfloat16 log_softmax along the last dim rounds differently from ctorch's float formula in the last
    bit of some elements (softmax matches)."""
    floats = [torch.bfloat16] if bf16 else [torch.float32, torch.float64]
    dt = g.choice(floats) if g.chance(0.8) or bf16 else g.choice([d for d in DTYPES if d != torch.bfloat16])
    if g.chance(0.5):
        shape = g.choice(SOFTMAX_SHAPES)
        x = Spec(shape, dt, g.choice([["contiguous"], ["contiguous"], ["transposed"]]), specials=g.chance(0.2))
    else:
        x = g.tensor(dtype=dt, shape=g.shape(max_numel=60))
    kw = {}
    if g.chance(0.2):
        kw["dtype"] = g.choice(floats + [torch.int32] * (not bf16))
    if with_out:
        kw["out"] = _out(g, _maybe(g, kw.get("dtype", dt)), x.shape)
    return A(x, g.dim(len(x.shape), bad=0.05), **kw)


def c_softmax(name):
    def call(x, dim, dtype=None):
        # torch's kernel along another dim cuts its work per thread: the diff runs torch at one thread
        L().ct_set_num_threads(1)
        try:
            return C.own(getattr(L(), "ct_" + name)(x, dim, _ref(ct_softmax_opts(C.dtype_arg(dtype)))))
        finally:
            L().ct_set_num_threads(0)
    return call


def c_softmax_out(name):
    def call(x, dim, dtype=None, out=None):
        L().ct_set_num_threads(1)
        try:
            C.check(getattr(L(), "ct_%s_out" % name)(out, x, dim, _ref(ct_softmax_opts(C.dtype_arg(dtype)))))
        finally:
            L().ct_set_num_threads(0)
        return out
    return call


def t_softmax(name):
    return lambda x, dim, dtype=None, out=None: getattr(torch, name)(x, dim, dtype=dtype, out=out)


N = len(DTYPES)
OPS = [
    Op("sort", gen_sort, torch=t_sort, ct=c_sort, weight=3, min_cases=N),
    Op("sort_out", gen_sort_out, torch=t_sort, ct=c_sort_out, min_cases=N),
    Op("argsort", gen_sort, torch=t_argsort, ct=c_argsort, min_cases=N),
    Op("msort", gen_msort, torch=torch.msort, ct=lambda x: C.own(L().ct_msort(x)), min_cases=N),
    Op("msort_out", gen_msort_out, torch=torch.msort, ct=c_msort_out, min_cases=N),
    Op("topk", gen_topk, torch=t_topk, ct=c_topk, weight=3, min_cases=N),
    Op("topk_out", lambda g: gen_topk(g, True), torch=t_topk, ct=c_topk_out, min_cases=N),
    Op("kthvalue", gen_kth, torch=t_kth, ct=c_kth, weight=2, min_cases=N),
    Op("kthvalue_out", lambda g: gen_kth(g, True), torch=t_kth, ct=c_kth_out, min_cases=N),
    Op("median", gen_median, torch=torch.median, ct=lambda x: C.own(L().ct_median(x)), min_cases=N),
    Op("nanmedian", gen_median, torch=torch.nanmedian, ct=lambda x: C.own(L().ct_nanmedian(x)), min_cases=N),
    Op("median_dim", gen_median_dim, torch=lambda x, d, keepdim=False: tuple(torch.median(x, d, keepdim)),
       ct=c_median_dim("median"), weight=2, min_cases=N),
    Op("median_dim_out", lambda g: gen_median_dim(g, True),
       torch=lambda x, d, keepdim=False, out=None: tuple(torch.median(x, d, keepdim, out=out)),
       ct=c_median_dim_out("median"), min_cases=N),
    Op("nanmedian_dim", gen_median_dim, torch=lambda x, d, keepdim=False: tuple(torch.nanmedian(x, d, keepdim)),
       ct=c_median_dim("nanmedian"), weight=2, min_cases=N),
    Op("nanmedian_dim_out", lambda g: gen_median_dim(g, True),
       torch=lambda x, d, keepdim=False, out=None: tuple(torch.nanmedian(x, d, keepdim, out=out)),
       ct=c_median_dim_out("nanmedian"), min_cases=N),
    Op("mode", gen_mode, torch=t_mode, ct=c_mode, weight=2, min_cases=N),
    Op("mode_out", lambda g: gen_mode(g, True), torch=t_mode, ct=c_mode_out, min_cases=N),
]
for _n in ("quantile", "nanquantile"):
    OPS += [
        Op(_n, lambda g: gen_quantile(g, False), torch=t_quantile(_n), ct=c_quantile(_n, False), weight=2),
        Op(_n + "_out", lambda g: gen_quantile(g, False, True), torch=t_quantile(_n), ct=c_quantile_out(_n, False)),
        Op(_n + "_scalar", lambda g: gen_quantile(g, True), torch=t_quantile(_n), ct=c_quantile(_n, True)),
        Op(_n + "_scalar_out", lambda g: gen_quantile(g, True, True), torch=t_quantile(_n),
           ct=c_quantile_out(_n, True)),
    ]
OPS += [
    Op("unique", lambda g: gen_unique(g, False), torch=t_unique(False), ct=c_unique(False), weight=2, min_cases=N),
    Op("unique_consecutive", lambda g: gen_unique(g, True), torch=t_unique(True), ct=c_unique(True), weight=2,
       min_cases=N),
    Op("searchsorted", gen_ss, torch=t_ss, ct=c_ss(False), weight=2, min_cases=N),
    Op("searchsorted_out", lambda g: gen_ss(g, with_out=True), torch=t_ss, ct=c_ss_out(False), min_cases=N),
    Op("searchsorted_scalar", lambda g: gen_ss(g, scalar=True), torch=t_ss, ct=c_ss(True), min_cases=N),
    Op("searchsorted_scalar_out", lambda g: gen_ss(g, scalar=True, with_out=True), torch=t_ss, ct=c_ss_out(True)),
    Op("bucketize", gen_bucketize, torch=t_bucketize, ct=c_bucketize(False), min_cases=N),
    Op("bucketize_out", lambda g: gen_bucketize(g, with_out=True), torch=t_bucketize, ct=c_bucketize_out(False)),
    Op("bucketize_scalar", lambda g: gen_bucketize(g, scalar=True), torch=t_bucketize, ct=c_bucketize(True)),
    Op("bucketize_scalar_out", lambda g: gen_bucketize(g, scalar=True, with_out=True), torch=t_bucketize,
       ct=c_bucketize_out(True)),
]
# softmax: bit for bit; log_softmax along a dim other than the last: torch's vectorized chunks are not
# reproduced exactly yet (a last-bit difference in a few elements: compared within 2 ulp of float32)
for _n, _tol in (("softmax", None), ("log_softmax", (2.5e-7, 0.0))):
    OPS += [
        Op(_n, gen_softmax, torch=t_softmax(_n), ct=c_softmax(_n), weight=2, min_cases=N, tol=_tol),
        Op(_n + "_out", lambda g: gen_softmax(g, True), torch=t_softmax(_n), ct=c_softmax_out(_n), tol=_tol),
    ]
