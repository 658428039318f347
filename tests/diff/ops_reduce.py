"""Entries for include/ctorch/reduce.h: sum, nansum, prod, mean, nanmean, var, std, var_mean, std_mean,
norm, dist, amax, amin, aminmax, max and min (whole and along a dim), argmax, argmin, all, any,
count_nonzero and logsumexp, in their functional and out= forms, over every dtype, dims (none, one, a
list, negative, repeated, out of range), keepdim, the dtype option, layouts (contiguous, transposed,
stepped, expanded, offset), 0-dim and empty inputs, special values (NaN, inf, signed zeros, ties) and
a few large inputs that take the chunked, multi-threaded and vectorized paths.

Known differences kept out of the draws: complex products with infinite parts along a non-contiguous
reduced dim (which part turns NaN depends on where PyTorch's vectorized loop multiplies by the
identity); large badly conditioned float sums (both use PyTorch's cascade, but ctorch cuts reductions longer
than CT_RED_CHUNK into fixed chunks so that results do not depend on the thread count, where
PyTorch's split follows its thread count: a sum that cancels to a small value then differs beyond
the tolerance; large int inputs summed with a floating dtype= are drawn positive for the same reason,
since int32 extremes cancel in a float or bfloat16 accumulator).

Float32/float64 sums, means and products of fewer elements per output than one chunk are also compared
bit for bit over every layout (the *_exact entries): a permuted input must take PyTorch's loop (its
kept dims ordered by the result's strides), as the loops round differently. So are var, std, var_mean
and std_mean (float32, float64 and complex: WelfordOps step by step, std_var_all_cpu's two passes),
norm and dist (float32/float64, every p) and logsumexp (float32/float64 and integer inputs), at one
thread, over every layout; their inputs stay within one chunk where a sum takes part (norm over two dims,
logsumexp), and the whole-tensor var/std also take large inputs.

Products in bool (dtype=bool or a bool out=) are torch 1.13's: its vectorized steps answer True whatever
the elements (sum.c), so the large inputs, whose lines and columns are long enough for them, are drawn
for them too, with outs of the result's shape in every layout (contiguous outputs take the vector loop).

A known difference the tolerances cover: a bfloat16 mean or nanmean that is NaN has the bits 0x7fc0 in
ctorch and, where PyTorch's div_ converts a vector of floats, 0xffff in PyTorch.

Integer, bool and index results and the extremes are compared exactly (the extremes up to the sign of
a zero: which of 0.0 and -0.0 is "the" maximum depends on vector lanes). Floating results of the sums,
statistics and norms are compared with assert_close's tolerance for their dtype, each dtype class in
its own entry (the harness takes one tolerance per entry); bfloat16 results are compared through
float32 (the harness reads bfloat16 as raw bits). The float16/bfloat16 sums are also drawn over large
values that cancel in pairs next to small ones (the *_cancel entries), compared bit for bit: the
result is then decided by the rounding of PyTorch's float accumulator, step by step."""
import ctypes

import numpy as np
import torch

import ctorch as C
import data as D
from harness import A, Op, Spec

INTS = [torch.bool] + D.INT_DTYPES
FLOATS = [torch.float32, torch.float64, torch.complex64, torch.complex128]
CLASSES = {  # name: (dtypes, tolerance)
    "int": (INTS, None),
    "float": (FLOATS, (1.3e-6, 1e-5)),
    "half": ([torch.float16], (1e-3, 1e-5)),
    "bf16": ([torch.bfloat16], (1.6e-2, 1e-5)),
}
# float32/float64 norms and logsumexp compared bit for bit (the *_exact entries; var and friends take the
# complex dtypes too): not a class of the table loop below
REAL = [torch.float32, torch.float64]
EXACT = (0.0, 0.0)  # values equal (0.0 == -0.0), NaN matches NaN


# ---- option structs ------------------------------------------------------------------------------------

def _shape(dims):
    dims = [int(d) for d in dims]
    arr = (ctypes.c_int64 * max(len(dims), 1))(*dims)
    return C.ct_shape(ctypes.cast(arr, C.c_int64_p), len(dims)), arr


class ct_reduce_opts(ctypes.Structure):
    _fields_ = [("dims", C.ct_shape), ("keepdim", ctypes.c_bool), ("dtype", ctypes.c_int)]


class ct_var_opts(ctypes.Structure):
    _fields_ = [("dims", C.ct_shape), ("keepdim", ctypes.c_bool), ("correction", C.ct_scalar)]


class ct_norm_opts(ctypes.Structure):
    _fields_ = [("p", C.ct_scalar), ("nuc", ctypes.c_bool), ("dims", C.ct_shape), ("keepdim", ctypes.c_bool),
                ("dtype", ctypes.c_int)]


class ct_vector_norm_opts(ctypes.Structure):
    _fields_ = [("ord", C.ct_scalar), ("dims", C.ct_shape), ("keepdim", ctypes.c_bool), ("dtype", ctypes.c_int)]


class ct_dist_opts(ctypes.Structure):
    _fields_ = [("p", C.ct_scalar)]


class ct_keepdim_opts(ctypes.Structure):
    _fields_ = [("keepdim", ctypes.c_bool)]


_keep_alive = []


def _dims_list(dim):
    if dim is None:
        return []
    return [dim] if isinstance(dim, int) else list(dim)


def ropts(dim=None, keepdim=False, dtype=None):
    s, arr = _shape(_dims_list(dim))
    o = ct_reduce_opts(s, keepdim, C.dtype_arg(dtype))
    _keep_alive[:] = [arr, o]
    return ctypes.byref(o)


def vopts(dim=None, keepdim=False, correction=None):
    s, arr = _shape(_dims_list(dim))
    o = ct_var_opts(s, keepdim, C.ct_scalar() if correction is None else C.ct_scalar.of(correction))
    _keep_alive[:] = [arr, o]
    return ctypes.byref(o)


def nopts(p="fro", dim=None, keepdim=False, dtype=None):
    s, arr = _shape(_dims_list(dim))
    pv = C.ct_scalar() if isinstance(p, str) else C.ct_scalar.of(p)
    o = ct_norm_opts(pv, p == "nuc", s, keepdim, C.dtype_arg(dtype))
    _keep_alive[:] = [arr, o]
    return ctypes.byref(o)


# ---- result conversion (bfloat16 through float32) -------------------------------------------------------

def _geom(r):
    return (str(r.dtype), tuple(r.shape), tuple(r.stride()))


def _conv_t(r):
    """bfloat16 through float32; complex as (real, imag) float pairs (the harness compares complex
    values by |a - b|, which an infinite part turns into NaN) plus the result's own geometry."""
    if isinstance(r, torch.Tensor):
        if r.dtype == torch.bfloat16:
            return (r.float(), "bfloat16")
        if r.is_complex():
            return (torch.view_as_real(r.contiguous()).clone(memory_format=torch.contiguous_format), _geom(r))
        return r
    if isinstance(r, (tuple, list)):
        return tuple(_conv_t(x) for x in r)
    return r


def _conv_c(r):
    if isinstance(r, C.Tensor):
        if r.dtype == torch.bfloat16:
            return (C.own(C.lib().ct_to_dtype(r, C.CT_DTYPE[torch.float32])), "bfloat16")
        if r.dtype in (torch.complex64, torch.complex128):
            v = np.ascontiguousarray(r.values())
            real = torch.float32 if r.dtype == torch.complex64 else torch.float64
            parts = v.view(C.NP_DTYPE[real]).reshape(tuple(r.shape) + (2,))
            return (C.from_numpy(parts, real), (str(r.dtype), tuple(r.shape), tuple(r.stride())))
        return r
    if isinstance(r, (tuple, list)):
        return tuple(_conv_c(x) for x in r)
    return r


def conv(f, side):
    g = _conv_t if side == "t" else _conv_c
    call = lambda *a, **k: g(f(*a, **k))  # noqa: E731
    call.raw = f  # the call without the conversion of its results' values (ops_meta_core: meta results hold none)
    return call


# ---- the ctorch side ----------------------------------------------------------------------------------

def ct_red(name):
    def call(x, dim=None, keepdim=False, dtype=None, out=None):
        if out is None:
            return C.own(C.lib().fn("ct_" + name)(x, ropts(dim, keepdim, dtype)))
        C.check(C.lib().fn("ct_%s_out" % name)(out, x, ropts(dim, keepdim, dtype)))
        return out
    return call


def ct_var(name):
    def call(x, dim=None, correction=None, keepdim=False, out=None):
        if name.endswith("_mean"):
            a, b = ctypes.c_void_p(), ctypes.c_void_p()
            C.check(C.lib().fn("ct_" + name)(x, ctypes.byref(a), ctypes.byref(b), vopts(dim, keepdim, correction)))
            return (C.own(a.value), C.own(b.value))
        if out is None:
            return C.own(C.lib().fn("ct_" + name)(x, vopts(dim, keepdim, correction)))
        C.check(C.lib().fn("ct_%s_out" % name)(out, x, vopts(dim, keepdim, correction)))
        return out
    return call


def ct_norm(x, p="fro", dim=None, keepdim=False, dtype=None, out=None):
    if out is None:
        return C.own(C.lib().ct_norm(x, nopts(p, dim, keepdim, dtype)))
    C.check(C.lib().ct_norm_out(out, x, nopts(p, dim, keepdim, dtype)))
    return out


def ct_vector_norm(x, ord=None, dim=None, keepdim=False, dtype=None, out=None):
    s, arr = _shape(_dims_list(dim))
    o = ct_vector_norm_opts(C.ct_scalar() if ord is None else C.ct_scalar.of(ord), s, keepdim, C.dtype_arg(dtype))
    _keep_alive[:] = [arr, o]
    if out is None:
        return C.own(C.lib().ct_linalg_vector_norm(x, ctypes.byref(o)))
    C.check(C.lib().ct_linalg_vector_norm_out(out, x, ctypes.byref(o)))
    return out


def t_vector_norm(x, ord=None, dim=None, keepdim=False, dtype=None, out=None):
    kw = {k: v for k, v in (("dtype", dtype), ("out", out)) if v is not None}
    return torch.linalg.vector_norm(x, 2 if ord is None else ord, None if dim is None else tuple(dim), keepdim, **kw)


def ct_dist(a, b, p=None):
    o = ct_dist_opts(C.ct_scalar() if p is None else C.ct_scalar.of(p))
    return C.own(C.lib().ct_dist(a, b, ctypes.byref(o)))


def ct_whole(name):
    return lambda x: C.own(C.lib().fn("ct_" + name)(x))


def ct_pair(name):
    """max_dim / min_dim / aminmax: two results through pointers (before the options), or the out= pair.
    max_dim's keepdim=False goes as NULL options half the time, as torch's default."""
    def call(x, *args, out=None, **kw):
        if name == "aminmax":
            head, o = (x,), ropts(kw.get("dim"), kw.get("keepdim", False))
        else:
            keep = kw.get("keepdim", False)
            head = (x, args[0])
            o = None if not keep and args[0] % 2 else ctypes.byref(ct_keepdim_opts(keep))
        if out is not None:
            C.check(C.lib().fn("ct_%s_out" % name)(out[0], out[1], *head, o))
            return tuple(out)
        a, b = ctypes.c_void_p(), ctypes.c_void_p()
        C.check(C.lib().fn("ct_" + name)(*head, ctypes.byref(a), ctypes.byref(b), o))
        return (C.own(a.value), C.own(b.value))
    return call


# ---- the torch side -----------------------------------------------------------------------------------

def t_red(fn, single_dim=False):
    """torch.fn with ctorch's argument conventions: dim None = every dim."""
    def call(x, dim=None, keepdim=False, dtype=None, out=None):
        kw = {}
        if dtype is not None:
            kw["dtype"] = dtype
        if out is not None:
            kw["out"] = out
        if single_dim:
            if dim is None:
                return fn(x, **kw) if not keepdim else fn(x, None, keepdim=True, **kw)
            return fn(x, dim[0] if isinstance(dim, list) else dim, keepdim=keepdim, **kw)
        return fn(x, tuple(dim) if isinstance(dim, list) else dim, keepdim=keepdim, **kw)
    return call


def t_prod(x, dim=None, keepdim=False, dtype=None, out=None):
    kw = {k: v for k, v in (("dtype", dtype), ("out", out)) if v is not None}
    if dim is None:
        return torch.prod(x, **kw)
    return torch.prod(x, dim[0], keepdim=keepdim, **kw)


def t_allany(fn):
    def call(x, dim=None, keepdim=False, out=None):
        kw = {"out": out} if out is not None else {}
        if dim is None:
            return fn(x, **kw)
        return fn(x, dim[0], keepdim=keepdim, **kw)
    return call


def t_amax(fn):
    def call(x, dim=None, keepdim=False, out=None):
        kw = {"out": out} if out is not None else {}
        return fn(x, () if dim is None else tuple(dim), keepdim=keepdim, **kw)
    return call


def t_cnz(x, dim=None):
    return torch.count_nonzero(x, None if dim is None else tuple(dim))


def t_lse(x, dim=None, keepdim=False, out=None):
    kw = {"out": out} if out is not None else {}
    return torch.logsumexp(x, () if dim is None else tuple(dim), keepdim=keepdim, **kw)


def t_var(name):
    fn = getattr(torch, name)

    def call(x, dim=None, correction=None, keepdim=False, out=None):
        kw = {"out": out} if out is not None else {}
        r = fn(x, None if dim is None else tuple(dim), correction=1 if correction is None else correction,
               keepdim=keepdim, **kw)
        return tuple(r) if name.endswith("_mean") else r
    return call


def t_norm(x, p="fro", dim=None, keepdim=False, dtype=None, out=None):
    kw = {k: v for k, v in (("dtype", dtype), ("out", out)) if v is not None}
    return torch.norm(x, p, None if dim is None else tuple(dim), keepdim, **kw)


def t_pair(name):
    def call(x, *args, out=None, **kw):
        if name == "aminmax":
            d = kw.get("dim")
            k = {"dim": d[0]} if d else {}
            r = torch.aminmax(x, keepdim=kw.get("keepdim", False), out=out, **k) if out is not None else \
                torch.aminmax(x, keepdim=kw.get("keepdim", False), **k)
            return tuple(r)
        fn = torch.max if name == "max_dim" else torch.min
        if out is not None:
            return tuple(fn(x, args[0], keepdim=kw.get("keepdim", False), out=out))
        return tuple(fn(x, args[0], keepdim=kw.get("keepdim", False)))
    return call


# ---- generators -----------------------------------------------------------------------------------------

BIG = [(40000,), (300, 200), (2, 70000), (70000, 2), (5, 3000, 7)]


def _tensor(g, dt, specials=True, big=True, float_acc=False):
    """Mostly small random shapes and layouts; now and then a large float32/int input. float_acc: the
    op accumulates in a floating dtype (dtype= option), so a large int input is well conditioned too."""
    if big and g.chance(0.04) and dt in (torch.float32, torch.int32, torch.float64):
        shape = g.choice(BIG)
        layout = g.choice([["contiguous"], ["contiguous"], ["transposed"], ["strided"]])
        base = None
        if dt.is_floating_point:  # well conditioned: no cancellation (module notes)
            base = torch.from_numpy(g.rng.random(int(np.prod(shape))) + 0.5).reshape(shape).to(dt)
            layout = ["contiguous"]  # a base has the final shape; the transposed/strided views take ints
        elif float_acc:
            base = torch.from_numpy(g.rng.integers(1, 1000, int(np.prod(shape)))).reshape(shape).to(dt)
            layout = ["contiguous"]
        return Spec(shape, dt, layout, specials=g.chance(0.3), base=base)
    x = g.tensor(dtype=dt, shape=g.shape(max_numel=60))
    if not specials:
        x.specials = False
    return x


def _dims(g, ndim, single=False, allow_none=True):
    """None (every dim), one dim or a list; sometimes repeated or out of range."""
    if allow_none and g.chance(0.25):
        return None
    n = max(ndim, 1)
    if single or g.chance(0.45):
        return [g.dim(ndim, bad=0.06)]
    k = g.int(0, min(n, 3))
    dims = [g.dim(ndim, bad=0.03) for _ in range(k)]
    if g.chance(0.1) and dims:
        dims.append(dims[0])  # repeated
    return dims


def _reduced_shapes(shape, dims):
    """(the result's shape, the keepdim shape) of reducing dims (None or []: all), or None where dims are
    out of range or repeated (an error case)."""
    nd = len(shape)
    dims = _dims_list(dims)
    if not dims:
        dims = list(range(nd))
    wrapped = set()
    for d in dims:
        if not (-max(nd, 1) <= d < max(nd, 1)):
            return None
        wrapped.add(d % max(nd, 1))
    if len(wrapped) != len(dims):
        return None
    kept = [1 if k in wrapped else n for k, n in enumerate(shape)]
    return tuple(n for k, n in enumerate(shape) if k not in wrapped), tuple(kept)


def _out(g, x, dt, dims=(), keep=False):
    """An out= tensor: the input's shape, the result's own shape (transposed, strided or offset layouts
    keep their strides where torch writes through them), the keepdim shape where keep is off (and the
    result's shape with it), or another shape (resized)."""
    if dt.is_complex:
        x.specials = False  # a complex out= is compared as a complex input afterwards (see _conv_t)
    reduced = _reduced_shapes(x.shape, dims) if dims != () else None
    r = g.random()
    if reduced is not None and r < 0.35:
        shape = reduced[0] if keep or g.chance(0.6) else reduced[1]
    elif r < 0.6:
        shape = x.shape
    else:
        shape = g.choice([(0,), (3,), (1,), tuple(g.shape(max_numel=12))])
    return Spec(shape, dt, g.choice([["contiguous"]] * 4 + [["transposed"], ["strided"], ["offset"]]))


def _pick(g, table):
    return table[g.index] if g.index < len(table) else g.choice(table)


def _opt_dtype_for(g, cls, src):
    """A dtype option inside the entry's class (or None)."""
    if g.chance(0.5):
        return None
    return g.choice(CLASSES[cls][0])


def _default_dtype(op, src):
    if op in ("sum", "prod", "nansum") and src in INTS:
        return torch.int64
    return src


def gen_sumlike(cls, op, out_form):
    """Inputs and options whose result dtype stays in the entry's class (or an error)."""
    def gen(g):
        dts, _ = CLASSES[cls]
        src = g.choice(dts) if g.chance(0.85) else g.dtype()
        opt = g.choice(dts) if g.chance(0.4) else None
        if _default_dtype(op, src) not in dts and opt is None:
            opt = g.choice(dts)
        float_acc = opt is not None and (opt.is_floating_point or opt.is_complex)
        x = _tensor(g, src, float_acc=float_acc)
        if op == "prod" and (src.is_complex or (opt is not None and opt.is_complex)):
            x.specials = False  # complex products with infinite parts: see the module's notes
        single = op == "prod"
        dims = _dims(g, len(x.shape), single=single)
        keep = g.chance(0.4)
        if op == "prod" and dims is None:
            keep = False
        kw = {}
        if opt is not None:
            kw["dtype"] = opt
        if out_form:
            if op == "prod" and dims is None:
                dims = [g.dim(len(x.shape), bad=0.0)]
            want = opt or _default_dtype(op, src)
            odt = want if g.chance(0.75) else g.choice(dts)
            if cls == "bf16":
                odt = torch.float32  # out= tensors are compared bit for bit: keep bfloat16 out of them
            kw["out"] = _out(g, x, odt, dims, keep)
        return A(x, dims, keep, **kw)
    return gen


# large values and the small ones a float accumulator next to them absorbs: (magnitude, small unit)
CANCEL = {"half": (60000.0, 2.0 ** -10), "bf16": (1e9, 1.0)}


def gen_cancel(cls, op):
    """float16/bfloat16 sums of pairs +-b that cancel exactly (in any dtype: conversions round
    symmetrically) among small values, from the class dtype, float32 or int32 (then dtype= or out=
    in the class dtype; nanmean keeps a floating source), with NaNs for the nan* ops; fewer elements
    than PyTorch's GRAIN_SIZE, so that its sum runs in one thread, and compared exactly (NaN as NaN:
    module notes)."""
    def gen(g):
        dt = CLASSES[cls][0][0]
        big, small = CANCEL[cls]
        src = g.choice([dt, dt, torch.float32] + ([] if op == "nanmean" else [torch.int32]))
        shape = g.choice([(g.int(1, 300),), (g.int(1, 40), g.int(1, 40)), (g.int(1, 6), g.int(1, 40), g.int(1, 8))])
        n = int(np.prod(shape))
        v = g.rng.integers(1, 100, n) * small
        pos = g.rng.permutation(n)
        pairs = int(n * g.random() * 0.5)
        b = g.rng.uniform(0.01, 1.0, pairs) * big
        v[pos[:pairs]], v[pos[pairs:2 * pairs]] = b, -b
        if op.startswith("nan") and src != torch.int32:
            v[g.rng.random(n) < 0.1] = np.nan
        base = torch.from_numpy(np.round(v) if src == torch.int32 else v).reshape(shape)
        x = Spec(shape, src, g.layout(), base=base)
        kw = {}
        if src != dt or g.chance(0.3):
            kw["dtype"] = dt
        # out= tensors are compared bit for bit, a NaN too: no bfloat16 nanmean into one (module notes)
        if g.chance(0.3) and not (op == "nanmean" and dt == torch.bfloat16):
            kw["out"] = Spec(g.choice([(0,), (1,)]), dt, g.choice([["contiguous"], ["offset"]]))
        return A(x, _dims(g, len(shape)), g.chance(0.4), **kw)
    return gen


BOOL_PROD_SHAPES = [(130,), (255,), (256,), (300,), (700,), (3, 200), (200, 3), (2, 300), (300, 2), (4, 129),
                    (129, 4), (5, 3000, 7), (7, 300, 5), (2, 128, 3), (40000,)]


def gen_prod_bool(out_form):
    """Products in bool (dtype=bool, or an out= of bool) of lines and columns long enough for torch's vector
    steps (blocks of 128), sparse zeros among nonzero elements, every layout of input and out; now and then
    the same inputs into another dtype (exact products)."""
    def gen(g):
        src = g.choice([torch.int32, torch.int64, torch.uint8, torch.bool, torch.float32, torch.float64])
        shape = g.choice(BOOL_PROD_SHAPES) if g.chance(0.85) else tuple(g.shape(max_numel=60))
        n = int(np.prod(shape))
        v = np.ones(n)
        v[g.rng.random(n) < g.choice([0.001, 0.004, 0.02, 0.1])] = 0
        if src != torch.bool:
            v *= g.rng.integers(1, 5, n)
        base = torch.from_numpy(v).reshape(shape).to(src)
        x = Spec(shape, src, g.choice([["contiguous"], ["contiguous"], ["transposed"], ["strided"]]), base=base)
        dims = [g.dim(len(shape), bad=0.0)] if shape and g.chance(0.8) else None
        keep = dims is not None and g.chance(0.3)
        # a bool result mostly; sometimes another (the default int64 of bool and int inputs): exact products
        res = torch.bool if g.chance(0.75) else g.choice([None, torch.int64, torch.int32, torch.uint8])
        if res is None and src.is_floating_point:  # a float product of 10^5 elements overflows: module notes
            res = torch.int64
        if not out_form:
            return A(x, dims, keep, dtype=res) if res is not None else A(x, dims, keep)
        if dims is None:  # torch.prod has no out= for the whole tensor
            dims = [g.dim(len(shape), bad=0.0)]
        red = _reduced_shapes(shape, dims)
        oshape = red[1] if keep else red[0]
        if g.chance(0.15):
            oshape = (0,)
        odt = res if res is not None else (torch.int64 if src in (torch.bool, torch.uint8, torch.int32, torch.int64)
                                           else src)
        out = Spec(oshape, odt, g.choice([["contiguous"], ["contiguous"], ["transposed"], ["strided"]]))
        return A(x, dims, keep, dtype=res if res is not None and g.chance(0.3) else None, out=out)
    return gen


def gen_exact(op):
    """float32/float64 sums, means and products over every layout (permuted, strided, expanded) and
    dims, fewer elements per output than one chunk (CT_RED_CHUNK) so that PyTorch's one-thread cascade
    and ctorch's agree: compared bit for bit, which checks that each takes PyTorch's loop for the
    layout (module notes)."""
    def gen(g):
        dt = g.choice([torch.float32, torch.float64])
        nd = g.int(1, 4)
        shape = tuple(g.choice([1, 2, 3, 5, 8, 13, 17, 33, 40]) for _ in range(nd))
        while np.prod(shape) > 32768:  # CT_RED_CHUNK
            shape = shape[:-1]
        nd, n = len(shape), int(np.prod(shape))
        v = g.rng.standard_normal(n) * 100
        if op == "prod":
            v = 1 + v * 1e-4
        if op.startswith("nan"):
            v[g.rng.random(n) < 0.1] = np.nan
        x = Spec(shape, dt, g.layout(), base=torch.from_numpy(v).reshape(shape))
        dims = [g.dim(nd, bad=0.0)] if op == "prod" else _dims(g, nd)
        return A(x, dims, g.chance(0.4))
    return gen


def gen_var(cls, op, out_form, exact=False):
    def gen(g):
        dts = FLOATS if exact else CLASSES[cls][0]
        src = g.choice(dts) if exact or g.chance(0.93) else g.dtype()
        x = _tensor(g, src, big=not exact or g.chance(0.3))
        dims = _dims(g, len(x.shape))
        corr = g.choice([None, None, 0, 1, 2, 7])
        kw = {}
        if out_form:
            nat = {torch.complex64: torch.float32, torch.complex128: torch.float64}.get(src, src)
            odt = nat if g.chance(0.75) else g.choice(dts if cls != "float" or exact else dts + INTS)
            if odt == torch.bfloat16:
                odt = torch.float32
            keep = g.chance(0.4)
            kw["out"] = _out(g, x, odt, dims, keep)
            return A(x, dims, corr, keep, **kw)
        return A(x, dims, corr, g.chance(0.4), **kw)
    return gen


PS = ["fro", "fro", "nuc", 2, 2, 1, 0, float("inf"), float("-inf"), 3, 0.5, -1, 2.5]


def gen_norm(cls, out_form, exact=False):
    def gen(g):
        dts = REAL if exact else CLASSES[cls][0]
        src = g.choice(dts) if exact or g.chance(0.9) else g.dtype()
        x = _tensor(g, src, big=not exact)
        p = g.choice(PS)
        dims = _dims(g, len(x.shape)) or None  # ctorch's empty list is PyTorch's dim=None
        kw = {}
        if g.chance(0.2):
            kw["dtype"] = g.choice(dts) if exact or g.chance(0.85) else g.dtype()
        if out_form:
            nat = {torch.complex64: torch.float32, torch.complex128: torch.float64}.get(src, src)
            odt = kw.get("dtype", nat) if g.chance(0.8) else g.choice(dts)
            if src.is_complex:
                # torch 1.13 writes its accumulator's bits into an out= of another dtype (garbage), and
                # with a real dtype= for a complex input no out= dtype avoids that (its results change from
                # run to run)
                if "dtype" in kw and not kw["dtype"].is_complex:
                    del kw["dtype"]
                cd = kw.get("dtype", src)
                odt = {torch.complex64: torch.float32, torch.complex128: torch.float64}.get(cd, cd)
            if odt == torch.bfloat16:
                odt = torch.float32
            keep = g.chance(0.4)
            kw["out"] = _out(g, x, odt, dims if p != "nuc" else None, keep)
            return A(x, p, dims, keep, **kw)
        return A(x, p, dims, g.chance(0.4), **kw)
    return gen


ORDS = [None, None, 2, 1, 0, float("inf"), float("-inf"), 3, 0.5, -1, -2.5, 2.5]


def gen_vector_norm(cls, out_form, exact=False):
    """torch.linalg.vector_norm: every order, dims (none, one, several; a size-1 reduction takes torch's
    abs / ne shortcut), dtype= of every kind (integer inputs and narrowing dtypes raise), out= mostly of the
    result's dtype."""
    def gen(g):
        dts = REAL if exact else CLASSES[cls][0]
        src = g.choice(dts) if exact or g.chance(0.9) else g.dtype()
        x = _tensor(g, src, big=not exact)
        ord = g.choice(ORDS)
        dims = _dims(g, len(x.shape)) or None
        kw = {}
        if g.chance(0.25):
            kw["dtype"] = g.choice(dts) if exact or g.chance(0.8) else g.dtype()
        if out_form:
            nat = kw.get("dtype", src)
            nat = {torch.complex64: torch.float32, torch.complex128: torch.float64}.get(nat, nat)
            odt = nat if g.chance(0.85) else g.choice(dts)
            if odt == torch.bfloat16:
                odt = torch.float32
            keep = g.chance(0.4)
            kw["out"] = _out(g, x, odt, dims, keep)
            return A(x, ord, dims, keep, **kw)
        return A(x, ord, dims, g.chance(0.4), **kw)
    return gen


def gen_dist(cls, exact=False):
    def gen(g):
        dts = REAL if exact else CLASSES[cls][0]
        a = g.choice(dts) if exact or g.chance(0.9) else g.dtype()
        b = a if g.chance(0.7) else g.choice(dts)
        if a == torch.float16 and b.is_complex or b == torch.float16 and a.is_complex:
            b = a  # float16 with complex promotes to complex32, which ctorch does not have
        # complex a - b with infinities: ctorch's sub and torch's a + (-1) * b differ (pointwise, not here)
        x = _tensor(g, a, specials=not (a.is_complex or b.is_complex), big=not exact)
        shape = x.shape
        if g.chance(0.3) and shape:
            shape = tuple(1 if g.chance(0.5) else s for s in shape[1:])  # broadcasts
        y = Spec(shape, b, g.layout(), specials=not (a.is_complex or b.is_complex))
        p = g.choice([None, 2, 1, 0, 3, float("inf"), float("-inf"), 0.5])
        return A(x, y) if p is None else A(x, y, p)
    return gen


def gen_ext(op, out_form):
    """amax / amin / argmax / argmin / all / any / count_nonzero / logsumexp-free exact ops."""
    def gen(g):
        src = _pick(g, D.DTYPES)
        x = _tensor(g, src)
        single = op in ("argmax", "argmin", "all", "any")
        dims = _dims(g, len(x.shape), single=single)
        keep = g.chance(0.4)
        if op in ("all", "any") and dims is None:
            keep = False
        if op == "count_nonzero":
            return A(x, dims)
        kw = {}
        if out_form:
            want = {"argmax": torch.int64, "argmin": torch.int64}.get(op, src)
            if op in ("all", "any"):
                want = torch.uint8 if src == torch.uint8 else torch.bool
                odt = want if g.chance(0.7) else g.choice([torch.bool, torch.uint8, torch.float32])
            else:
                odt = want if g.chance(0.85) else g.dtype()
            if odt == torch.bfloat16:
                odt = want if want != torch.bfloat16 else torch.float32
            kw["out"] = _out(g, x, odt, dims, keep)
        return A(x, dims, keep, **kw)
    return gen


def gen_whole(g):
    return A(_tensor(g, _pick(g, D.DTYPES)))


def gen_pair(op, out_form):
    def gen(g):
        src = _pick(g, D.DTYPES)
        x = _tensor(g, src)
        keep = g.chance(0.4)
        if op == "aminmax":
            dims = _dims(g, len(x.shape), single=True)
            kw = {"dim": dims, "keepdim": keep}
            args = ()
        else:
            kw = {"keepdim": keep}
            args = (g.dim(len(x.shape), bad=0.06),)
        if out_form:
            d1 = src if g.chance(0.85) else g.dtype()
            d2 = torch.int64 if op != "aminmax" and g.chance(0.9) else (src if op == "aminmax" else g.dtype())
            if d1 == torch.bfloat16 or d2 == torch.bfloat16:
                d1 = d2 = torch.float32 if op == "aminmax" else d1
                if d1 == torch.bfloat16:
                    d1 = torch.float32
            red = kw["dim"] if op == "aminmax" else args[0]
            kw["out"] = (_out(g, x, d1, red, keep), _out(g, x, d2, red, keep))
        return A(x, *args, **kw)
    return gen


def gen_lse(cls, out_form, exact=False):
    def gen(g):
        dts = REAL if exact else CLASSES[cls][0]
        src = g.choice(dts + ([torch.int32, torch.int64] if exact else [])) if exact or g.chance(0.85) else g.dtype()
        x = _tensor(g, src, big=not exact)
        dims = _dims(g, len(x.shape), allow_none=g.chance(0.3))
        kw = {}
        if out_form:
            nat = torch.float32 if (src in INTS) else src
            odt = nat if g.chance(0.85) or exact else g.choice([torch.float16, torch.int64, torch.complex64] + dts)
            if odt == torch.bfloat16:
                odt = torch.float32
            if odt in (torch.float32, torch.float64) and nat != odt and nat in (torch.float32, torch.float64):
                odt = nat  # mixed float precisions round the intermediates within the wider dtype only
            keep = g.chance(0.4)
            kw["out"] = _out(g, x, odt, dims, keep)
            return A(x, dims, keep, **kw)
        return A(x, dims, g.chance(0.4), **kw)
    return gen


# ---- the table ------------------------------------------------------------------------------------------

OPS = []


def _add(name, gen, tf, cf, tol, weight=1.0, min_cases=0):
    OPS.append(Op(name, gen, torch=conv(tf, "t"), ct=conv(cf, "c"), tol=tol, weight=weight, min_cases=min_cases))


for _cls, (_dts, _tol) in CLASSES.items():
    for _op, _tf in (("sum", t_red(torch.sum)), ("nansum", t_red(torch.nansum)), ("mean", t_red(torch.mean)),
                     ("nanmean", t_red(torch.nanmean)), ("prod", t_prod)):
        _add("%s[%s]" % (_op, _cls), gen_sumlike(_cls, _op, False), _tf, ct_red(_op), _tol, 0.6, len(_dts))
        _add("%s_out[%s]" % (_op, _cls), gen_sumlike(_cls, _op, True), _tf, ct_red(_op), _tol, 0.4, len(_dts))
    if _cls == "int":
        _add("prod_bool", gen_prod_bool(False), t_prod, ct_red("prod"), EXACT, 0.3)
        _add("prod_bool_out", gen_prod_bool(True), t_prod, ct_red("prod"), EXACT, 0.3)
        continue
    if _cls == "float":
        for _op, _tf in (("sum", t_red(torch.sum)), ("nansum", t_red(torch.nansum)), ("mean", t_red(torch.mean)),
                         ("nanmean", t_red(torch.nanmean)), ("prod", t_prod)):
            _add("%s_exact[float]" % _op, gen_exact(_op), _tf, ct_red(_op), EXACT, 0.3)
    if _cls in ("half", "bf16"):
        for _op, _tf in (("sum", t_red(torch.sum)), ("nansum", t_red(torch.nansum)), ("mean", t_red(torch.mean)),
                         ("nanmean", t_red(torch.nanmean))):
            _add("%s_cancel[%s]" % (_op, _cls), gen_cancel(_cls, _op), _tf, ct_red(_op), EXACT, 0.3)
    for _op in ("var", "std"):
        _add("%s[%s]" % (_op, _cls), gen_var(_cls, _op, False), t_var(_op), ct_var(_op), _tol, 0.6)
        _add("%s_out[%s]" % (_op, _cls), gen_var(_cls, _op, True), t_var(_op), ct_var(_op), _tol, 0.4)
        _add("%s_mean[%s]" % (_op, _cls), gen_var(_cls, _op + "_mean", False), t_var(_op + "_mean"),
             ct_var(_op + "_mean"), _tol, 0.4)
    _add("norm[%s]" % _cls, gen_norm(_cls, False), t_norm, ct_norm, _tol, 1.0)
    _add("norm_out[%s]" % _cls, gen_norm(_cls, True), t_norm, ct_norm, _tol, 0.5)
    _add("vector_norm[%s]" % _cls, gen_vector_norm(_cls, False), t_vector_norm, ct_vector_norm, _tol, 0.6)
    _add("vector_norm_out[%s]" % _cls, gen_vector_norm(_cls, True), t_vector_norm, ct_vector_norm, _tol, 0.3)
    _add("dist[%s]" % _cls, gen_dist(_cls), lambda a, b, p=2: torch.dist(a, b, p), ct_dist, _tol, 0.5)
    _add("logsumexp[%s]" % _cls, gen_lse(_cls, False), t_lse, ct_red("logsumexp"), _tol, 0.6)
    _add("logsumexp_out[%s]" % _cls, gen_lse(_cls, True), t_lse, ct_red("logsumexp"), _tol, 0.4)
_add("logsumexp[int]", gen_lse("int", False), t_lse, ct_red("logsumexp"), CLASSES["float"][1], 0.3)
# float32 / float64 (and integer inputs for logsumexp), bit for bit at one thread (module notes)
for _op in ("var", "std"):
    _add("%s_exact[float]" % _op, gen_var("float", _op, False, True), t_var(_op), ct_var(_op), EXACT, 0.4)
    _add("%s_out_exact[float]" % _op, gen_var("float", _op, True, True), t_var(_op), ct_var(_op), EXACT, 0.2)
    _add("%s_mean_exact[float]" % _op, gen_var("float", _op + "_mean", False, True), t_var(_op + "_mean"),
         ct_var(_op + "_mean"), EXACT, 0.3)
_add("norm_exact[float]", gen_norm("float", False, True), t_norm, ct_norm, EXACT, 0.6)
_add("norm_out_exact[float]", gen_norm("float", True, True), t_norm, ct_norm, EXACT, 0.3)
_add("vector_norm_exact[float]", gen_vector_norm("float", False, True), t_vector_norm, ct_vector_norm, EXACT, 0.5)
_add("vector_norm_out_exact[float]", gen_vector_norm("float", True, True), t_vector_norm, ct_vector_norm, EXACT,
     0.3)
_add("dist_exact[float]", gen_dist("float", True), lambda a, b, p=2: torch.dist(a, b, p), ct_dist, EXACT, 0.3)
_add("logsumexp_exact[float]", gen_lse("float", False, True), t_lse, ct_red("logsumexp"), EXACT, 0.4)
_add("logsumexp_out_exact[float]", gen_lse("float", True, True), t_lse, ct_red("logsumexp"), EXACT, 0.2)

for _op, _tf in (("amax", t_amax(torch.amax)), ("amin", t_amax(torch.amin)), ("argmax", t_red(torch.argmax, True)),
                 ("argmin", t_red(torch.argmin, True)), ("all", t_allany(torch.all)), ("any", t_allany(torch.any))):
    _add(_op, gen_ext(_op, False), _tf, ct_red(_op), EXACT, 1.0, len(D.DTYPES))
    _add(_op + "_out", gen_ext(_op, True), _tf, ct_red(_op), EXACT, 0.5, len(D.DTYPES))
_add("count_nonzero", gen_ext("count_nonzero", False), t_cnz, lambda x, dim=None: C.own(
    C.lib().ct_count_nonzero(x, ropts(dim))), None, 0.6, len(D.DTYPES))
for _op in ("max", "min"):
    _add(_op, gen_whole, getattr(torch, _op), ct_whole(_op), EXACT, 0.5, len(D.DTYPES))
    _add(_op + "_dim", gen_pair(_op + "_dim", False), t_pair(_op + "_dim"), ct_pair(_op + "_dim"), EXACT, 0.8,
         len(D.DTYPES))
    _add(_op + "_dim_out", gen_pair(_op + "_dim", True), t_pair(_op + "_dim"), ct_pair(_op + "_dim"), EXACT, 0.4,
         len(D.DTYPES))
_add("aminmax", gen_pair("aminmax", False), t_pair("aminmax"), ct_pair("aminmax"), EXACT, 0.8, len(D.DTYPES))
_add("aminmax_out", gen_pair("aminmax", True), t_pair("aminmax"), ct_pair("aminmax"), EXACT, 0.4, len(D.DTYPES))
