"""Entries for include/ctorch/join.h: cat and its aliases, the stacks, atleast_Nd, meshgrid, block_diag,
cartesian_prod, combinations, kron, repeat, tile, repeat_interleave (the three forms), roll, rot90, flip,
fliplr, flipud, tril/triu (functional, in place, out=), tril_indices/triu_indices, diag (and out=),
diag_embed, diagflat, fill_diagonal_, narrow_copy (and out=), the scatter forms of the views and diff (and
out=), against torch 1.13. Inputs: every dtype (mixed dtypes where torch promotes: cat and the stacks,
block_diag, kron), the suite's layouts (transposed, stepped, expanded, offset), 0-dim and empty tensors,
the legacy 1-D empty tensor cat skips, and bad calls (dims out of range, mismatched shapes, empty lists,
wrong out dtypes, negative repeats, ...) whose errors and messages are compared. Results are compared
whole: values bit for bit, shape, strides, storage offset, and whether a result shares an input's
storage (atleast_Nd and meshgrid are views)."""
import ctypes

import torch

import ctorch as C
import data as D
from harness import A, Op, Spec

DTYPES = D.DTYPES
L = C.lib


def _call(name, *args):
    return C.own(L().fn(name)(*args))


def _check_out(name, out, *args):
    C.check(L().fn(name)(out, *args))
    return out


def _ts(tensors):
    return C.tensors_arg(tensors)


class ct_meshgrid_opts(ctypes.Structure):
    _fields_ = [("indexing", ctypes.c_int)]


class ct_combinations_opts(ctypes.Structure):
    _fields_ = [("with_replacement", ctypes.c_bool)]


class ct_repeat_interleave_opts(ctypes.Structure):
    _fields_ = [("dim", C.ct_shape), ("output_size", ctypes.c_int64)]


class ct_dims_opts(ctypes.Structure):  # ct_roll_opts and ct_rot90_opts: one ct_dims
    _fields_ = [("dims", C.ct_shape)]


class ct_fill_diagonal_opts(ctypes.Structure):
    _fields_ = [("wrap", ctypes.c_bool)]


class ct_diff_opts(ctypes.Structure):
    _fields_ = [("prepend", ctypes.c_void_p), ("append", ctypes.c_void_p)]


# ---- list ops -------------------------------------------------------------------------------------------

def gen_cat_list(g, same_shape=False, min_n=0):
    """Tensors that cat along a dim (sizes differ there), mostly of one dtype, with the faults torch
    refuses now and then; returns (specs, dim)."""
    nd = g.int(1, 4)
    base = list(g.shape(ndim=nd, max_numel=24))
    dim = g.dim(nd, bad=0.05)
    wd = dim % nd if -nd <= dim < nd else None
    n = g.int(min_n, 4) if g.chance(0.05) else g.int(max(1, min_n), 4)
    common = g.dtype()
    specs = []
    for _ in range(n):
        sh = list(base)
        if wd is not None and not same_shape:
            sh[wd] = g.int(0, 3)
        r = g.random()
        if r < 0.04:
            sh = [0]  # the legacy empty tensor cat skips
        elif r < 0.06:
            sh = []  # 0-dim: refused
        elif r < 0.09 and sh:
            sh[g.int(0, len(sh) - 1)] += 1  # a size mismatch
        elif r < 0.11:
            sh = sh + [2]  # a rank mismatch
        specs.append(g.tensor(tuple(sh), common if g.chance(0.7) else g.dtype()))
    return specs, dim


def gen_cat(g):
    specs, dim = gen_cat_list(g)
    return A(specs, dim)


def gen_cat_out(g):
    specs, dim = gen_cat_list(g)
    good = [s for s in specs if s.shape]
    odt = g.dtype() if g.chance(0.3) or not good else good[0].dtype
    shape = g.shape(max_numel=24) if g.chance(0.3) or not good else good[0].shape
    return A(specs, dim, out=Spec(shape, odt))


def ct_cat(name):
    def call(tensors, dim, out=None):
        h = _ts(tensors)
        if out is not None:
            return _check_out("ct_%s_out" % name, out, h.s, dim)
        return _call("ct_" + name, h.s, dim)
    return call


def t_cat(fn):
    def call(tensors, dim, out=None):
        return fn(tensors, dim) if out is None else fn(tensors, dim, out=out)
    return call


def gen_stack(g):
    specs, dim = gen_cat_list(g, same_shape=True)
    nd = len(specs[0].shape) if specs else 1
    dim = g.dim(nd + 1, bad=0.05)
    return A(specs, dim)


def gen_stack_out(g):
    a = gen_stack(g)
    specs, dim = a.args
    if not specs or not g.chance(0.8):
        return A(specs, dim, out=g.tensor(g.shape(max_numel=24), g.dtype()))
    sh = list(specs[0].shape)
    d = dim % (len(sh) + 1) if -len(sh) - 1 <= dim <= len(sh) else 0
    sh.insert(d, len(specs))
    odt = specs[0].dtype if g.chance(0.7) else g.dtype()
    return A(specs, dim, out=Spec(tuple(sh), odt, layout=g.choice([None, "transposed"])))


def gen_xstack(g):
    """Lists for hstack/vstack/dstack/column_stack: 0- to 3-D tensors of compatible shapes (the 1-D ones
    of one length), sometimes mismatched."""
    n = g.int(0, 4) if g.chance(0.05) else g.int(1, 4)
    kind = g.choice(["scalars", "vectors", "matrices", "cubes"])
    m = g.int(1, 3)
    common = g.dtype()
    specs = []
    for _ in range(n):
        sh = {"scalars": (), "vectors": (m,), "matrices": (m, g.int(0, 3)), "cubes": (m, g.int(1, 2), g.int(1, 2))}[kind]
        if kind == "matrices" and g.chance(0.5):
            sh = (g.int(0, 3), m)
        if g.chance(0.05):
            sh = g.shape(max_ndim=3, max_numel=12)
        specs.append(g.tensor(sh, common if g.chance(0.7) else g.dtype()))
    return A(specs)


def gen_xstack_out(g):
    a = gen_xstack(g)
    return A(*a.args, out=g.tensor(g.shape(max_numel=24, max_ndim=3), g.dtype() if g.chance(0.3) else
                                   (a.args[0][0].dtype if a.args[0] else torch.float32)))


def ct_xstack(name):
    def call(tensors, out=None):
        h = _ts(tensors)
        if out is not None:
            return _check_out("ct_%s_out" % name, out, h.s)
        return _call("ct_" + name, h.s)
    return call


def t_xstack(fn):
    return lambda tensors, out=None: fn(tensors) if out is None else fn(tensors, out=out)


def gen_atleast(g):
    return A(g.tensor(g.shape(max_ndim=4)))


def gen_atleast_list(g):
    return A([g.tensor(g.shape(max_ndim=4)) for _ in range(g.int(0, 3))])


def ct_atleast_list(n):
    def call(tensors):
        h = _ts(tensors)
        return C._list(L().fn("ct_atleast_%dd_list" % n)(h.s))
    return call


def t_atleast_list(fn):
    return lambda tensors: list(fn(*tensors)) if len(tensors) != 1 else [fn(tensors[0])]


def gen_meshgrid(g):
    n = g.int(0, 4) if g.chance(0.05) else g.int(1, 4)
    dt = g.dtype()
    specs = [g.tensor(g.shape(ndim=g.choice([0, 1, 1, 1])), dt if g.chance(0.95) else g.dtype()) for _ in range(n)]
    return A(specs, g.choice([None, "ij", "xy"]))


def ct_meshgrid(tensors, indexing):
    h = _ts(tensors)
    o = None if indexing is None else ctypes.byref(ct_meshgrid_opts({"ij": 1, "xy": 2}[indexing]))
    return C._list(L().ct_meshgrid(h.s, o))


def t_meshgrid(tensors, indexing):
    return list(torch.meshgrid(*tensors) if indexing is None else torch.meshgrid(*tensors, indexing=indexing))


def gen_block_diag(g):
    n = g.int(0, 4)
    common = g.dtype()
    specs = [g.tensor(g.shape(max_ndim=3 if g.chance(0.05) else 2, max_numel=12),
                      common if g.chance(0.7) else g.dtype()) for _ in range(n)]
    # a 0-dim complex input with a float16 one promotes to complex32, a dtype ctorch does not have (its
    # NotImplementedError is tested with the promotion table): keep such draws out
    if any(s.dtype.is_complex and not s.shape for s in specs) and any(s.dtype == torch.float16 for s in specs):
        specs = [Spec(s.shape, common, s.layout) for s in specs]
    return A(specs)


def gen_cartesian(g):
    n = g.int(0, 3) if g.chance(0.1) else g.int(1, 3)
    dt = g.dtype()
    return A([g.tensor(g.shape(ndim=1 if g.chance(0.95) else g.int(0, 2), max_numel=5),
                       dt if g.chance(0.95) else g.dtype()) for _ in range(n)])


def gen_combinations(g):
    sh = g.shape(ndim=1 if g.chance(0.95) else g.choice([0, 2]), max_numel=6)
    return A(g.tensor(sh), g.int(-1, 4), g.chance(0.5))


def ct_combinations(x, r, with_replacement):
    return _call("ct_combinations", x, r, ctypes.byref(ct_combinations_opts(with_replacement)))


# ---- two-tensor and shape ops ---------------------------------------------------------------------------

def gen_kron(g):
    return A(g.tensor(g.shape(max_ndim=3, max_numel=8)),
             g.tensor(g.shape(max_ndim=3, max_numel=8), g.dtype() if g.chance(0.3) else None))


def gen_kron_out(g):
    a = gen_kron(g)
    x, y = a.args
    m = max(len(x.shape), len(y.shape))
    xs, ys = (1,) * (m - len(x.shape)) + x.shape, (1,) * (m - len(y.shape)) + y.shape
    rshape = tuple(p * q for p, q in zip(xs, ys))
    if g.chance(0.5):  # an out to resize (torch resizes before mul_out's dtype check: keep those apart)
        return A(x, y, out=g.tensor(g.shape(max_numel=24), torch.complex128))
    return A(x, y, out=g.tensor(rshape, g.dtype()))


def gen_repeat(g):
    x = g.tensor(g.shape(max_ndim=3, max_numel=12))
    n = len(x.shape) + g.int(0, 2) - (1 if g.chance(0.05) else 0)
    reps = [g.int(0, 3) if g.chance(0.9) else g.int(-2, 0) for _ in range(max(n, 0))]
    return A(x, reps)


def gen_tile(g):
    x = g.tensor(g.shape(max_ndim=3, max_numel=12))
    return A(x, [g.int(0, 3) for _ in range(g.int(0, 4))])


def _dim_opt(g, nd):
    return None if g.chance(0.4) else g.dim(nd, bad=0.05)


def _ri_opts(dim, output_size):
    dims = [] if dim is None else [dim]
    sh = C.shape_arg(dims)
    o = ct_repeat_interleave_opts(sh.s, output_size or 0)
    return ctypes.byref(o), (sh, o)


def gen_ri(g):
    x = g.tensor(g.shape(max_ndim=3, max_numel=12))
    r = g.int(0, 3) if g.chance(0.95) else -1
    dim = _dim_opt(g, len(x.shape))
    return A(x, r, dim)


def ct_ri(x, r, dim):
    o, keep = _ri_opts(dim, None)
    return _call("ct_repeat_interleave", x, r, o)


def t_ri(x, r, dim):
    return torch.repeat_interleave(x, r, dim)


def _repeats_spec(g, n, dt=None):
    dt = dt or (torch.int64 if g.chance(0.6) else torch.int32 if g.chance(0.9) else g.dtype())
    vals = [g.int(0, 3) if g.chance(0.97) else -1 for _ in range(n)]
    base = torch.tensor(vals).to(dt)
    return Spec((n,), dt, layout=g.choice([None, ["strided"]]), base=base)


def gen_ri_tensor(g):
    x = g.tensor(g.shape(max_ndim=3, max_numel=12))
    dim = _dim_opt(g, len(x.shape))
    if dim is None:
        n = 1
        for s in x.shape:
            n *= s
    else:
        n = x.shape[dim] if x.shape and -len(x.shape) <= dim < len(x.shape) else 1
    r = g.random()
    if r < 0.15:
        rep = Spec((), torch.int64, base=torch.tensor(g.int(0, 3)))
    elif r < 0.25:
        rep = _repeats_spec(g, 1)
    elif r < 0.3:
        rep = _repeats_spec(g, n + 1)
    else:
        rep = _repeats_spec(g, n)
    return A(x, rep, dim)


def ct_ri_tensor(x, rep, dim):
    o, keep = _ri_opts(dim, None)
    return _call("ct_repeat_interleave_tensor", x, rep, o)


def gen_ri_repeats(g):
    n = g.int(0, 5)
    if g.chance(0.05):
        return A(Spec((2, 2), torch.int64, base=torch.ones(2, 2, dtype=torch.int64)))
    return A(_repeats_spec(g, n))


def ct_ri_repeats(rep):
    return _call("ct_repeat_interleave_repeats", rep, None)


def gen_roll(g):
    x = g.tensor(g.shape(max_ndim=4))
    nd = len(x.shape)
    k = g.int(0, 3) if g.chance(0.9) else 0
    shifts = [g.int(-7, 7) for _ in range(max(k, 1))]
    if g.chance(0.3):
        return A(x, shifts[0] if g.chance(0.5) else shifts[:1], None)
    dims = [g.dim(nd, bad=0.05) for _ in range(len(shifts) if g.chance(0.95) else len(shifts) + 1)]
    if g.chance(0.03):
        shifts = []
    return A(x, shifts, dims)


def ct_roll(x, shifts, dims):
    sh = C.shape_arg([shifts] if isinstance(shifts, int) else shifts)
    if dims is None:
        return _call("ct_roll", x, sh.s, None)
    d = C.shape_arg(dims)
    return _call("ct_roll", x, sh.s, ctypes.byref(ct_dims_opts(d.s)))


def t_roll(x, shifts, dims):
    return torch.roll(x, shifts) if dims is None else torch.roll(x, shifts, dims)


def gen_rot90(g):
    x = g.tensor(g.shape(min_ndim=0 if g.chance(0.05) else 2, max_ndim=4))
    nd = len(x.shape)
    if g.chance(0.3):
        return A(x, g.int(-5, 5), None)
    dims = [g.dim(nd, bad=0.05), g.dim(nd, bad=0.05)]
    if g.chance(0.05):
        dims = dims[:1]
    return A(x, g.int(-5, 5), dims)


def ct_rot90(x, k, dims):
    if dims is None:
        return _call("ct_rot90", x, k, None)
    d = C.shape_arg(dims)
    return _call("ct_rot90", x, k, ctypes.byref(ct_dims_opts(d.s)))


def t_rot90(x, k, dims):
    return torch.rot90(x, k) if dims is None else torch.rot90(x, k, dims)


def gen_flip(g):
    x = g.tensor(g.shape(max_ndim=5))
    nd = len(x.shape)
    dims = [g.dim(nd, bad=0.05) for _ in range(g.int(0, max(nd, 1)))]
    return A(x, dims)


# ---- triangles and diagonals ----------------------------------------------------------------------------

def gen_tri(g):
    x = g.tensor(g.shape(min_ndim=0 if g.chance(0.1) else 2, max_ndim=4))
    return A(x, g.int(-4, 4))


def gen_tri_out(g):
    a = gen_tri(g)
    x, k = a.args
    odt = x.dtype if g.chance(0.8) else g.dtype()
    shape = x.shape if g.chance(0.5) else g.shape(max_numel=12)
    # a transposed out only for matrices: torch's kernel addresses an out's batches by stride(-3) alone, and
    # writes past the storage of some transposed batch layouts (heap corruption in torch 1.13 itself)
    lay = "transposed" if len(shape) == 2 and g.chance(0.5) else None
    return A(x, k, out=Spec(shape, odt, layout=lay))


def ct_tri(name):
    def call(x, k, out=None):
        if out is not None:
            return _check_out("ct_%s_out" % name, out, x, k)
        return _call("ct_" + name, x, k)
    return call


def ct_tri_(name):
    def call(x, k):
        C.check(L().fn("ct_%s_" % name)(x, k))
        return x
    return call


def gen_tri_indices(g):
    dt = g.choice([None, torch.int64, torch.int32]) if g.chance(0.85) else g.dtype()
    return A(g.int(-1 if g.chance(0.05) else 0, 5), g.int(0, 5), g.int(-6, 6), dt)


def ct_tri_indices(name):
    def call(row, col, offset, dtype):
        o = C.tensor_opts(dtype=dtype)[0] if dtype is not None else None
        return _call("ct_%s_indices" % name, row, col, offset, o)
    return call


def t_tri_indices(fn):
    return lambda row, col, offset, dtype: fn(row, col, offset) if dtype is None else fn(row, col, offset, dtype=dtype)


def gen_diag(g):
    x = g.tensor(g.shape(ndim=g.choice([1, 2, 2, 2, 0, 3]) if g.chance(0.9) else 1, max_numel=20))
    return A(x, g.int(-4, 4))


def gen_diag_out(g):
    x, k = gen_diag(g).args
    return A(x, k, out=Spec(g.shape(max_numel=12, max_ndim=2), x.dtype if g.chance(0.8) else g.dtype()))


def gen_diag_embed(g):
    x = g.tensor(g.shape(max_ndim=3, max_numel=12))
    nd = len(x.shape) + 1
    if g.chance(0.4):
        return A(x, g.int(-3, 3), -2, -1)
    return A(x, g.int(-3, 3), g.dim(nd, bad=0.05), g.dim(nd, bad=0.05))


def gen_diagflat(g):
    return A(g.tensor(g.shape(max_ndim=3, max_numel=12)), g.int(-3, 3))


def gen_fill_diagonal(g):
    r = g.random()
    if r < 0.3:
        n = g.int(1, 3)
        sh = (n,) * g.int(2, 4)
    elif r < 0.9:
        sh = (g.int(1, 8), g.int(1, 5))
    else:
        sh = g.shape(max_ndim=3)
    x = g.tensor(sh, layout=g.choice([["contiguous"], ["transposed"], ["offset"], ["strided"]]))
    v = g.choice([1, -1, 2.5, True, 0, 300, -0.0])
    return A(x, v, g.chance(0.5))


def ct_fill_diagonal(x, v, wrap):
    C.check(L().ct_fill_diagonal_(x, C.ct_scalar.of(v), ctypes.byref(ct_fill_diagonal_opts(wrap))))
    return x


# ---- narrow_copy, the scatters, diff --------------------------------------------------------------------

def gen_narrow_copy(g):
    x = g.tensor(g.shape(max_ndim=4))
    nd = len(x.shape)
    dim = g.dim(nd, bad=0.05)
    size = x.shape[dim] if x.shape and -nd <= dim < nd else 1
    start = g.int(-size, size)
    length = g.int(0, size - start if start >= 0 else -start) if g.chance(0.9) else size + 1
    return A(x, dim, start, length)


def gen_narrow_copy_out(g):
    x, dim, start, length = gen_narrow_copy(g).args
    return A(x, dim, start, length, out=Spec(g.shape(max_numel=12), x.dtype if g.chance(0.85) else g.dtype()))


def gen_select_scatter(g):
    x = g.tensor(g.shape(min_ndim=1, max_ndim=4))
    nd = len(x.shape)
    dim = g.dim(nd, bad=0.05, scalar_ok=False)
    wd = dim % nd if -nd <= dim < nd else 0
    index = g.int(-x.shape[wd], max(x.shape[wd] - 1, 0)) if g.chance(0.95) else x.shape[wd]
    src = list(x.shape[:wd]) + list(x.shape[wd + 1:])
    if g.chance(0.05):
        src = src + [1]
    return A(x, g.tensor(tuple(src), x.dtype if g.chance(0.8) else g.dtype()), dim, index)


def gen_slice_scatter(g):
    x = g.tensor(g.shape(min_ndim=1, max_ndim=4))
    nd = len(x.shape)
    dim = g.dim(nd, bad=0.05, scalar_ok=False)
    wd = dim % nd if -nd <= dim < nd else 0
    n = x.shape[wd]
    start = g.int(-n - 1, n + 1) if g.chance(0.7) else None
    end = g.int(-n - 1, n + 2) if g.chance(0.7) else None
    step = g.int(1, 3) if g.chance(0.95) else 0
    try:  # the slice's shape, from torch's own slicing
        vshape = list(torch.empty(x.shape)[(slice(None),) * wd + (slice(start, end, max(step, 1)),)].shape)
    except (ValueError, IndexError):
        vshape = list(x.shape)
    if g.chance(0.05):
        vshape = vshape + [1]
    return A(x, g.tensor(tuple(vshape), x.dtype if g.chance(0.8) else g.dtype()), dim, start, end, step)


def ct_slice_scatter(x, src, dim, start, end, step):
    return _call("ct_slice_scatter", x, src, dim, 0 if start is None else start, C.CT_END if end is None else end, step)


def gen_diagonal_scatter(g):
    x = g.tensor(g.shape(min_ndim=2, max_ndim=4))
    nd = len(x.shape)
    off = g.int(-3, 3)
    d1, d2 = (0, 1) if g.chance(0.5) else (g.dim(nd, bad=0.05), g.dim(nd, bad=0.05))
    try:
        vshape = list(torch.empty(x.shape).diagonal(off, d1, d2).shape)
    except (RuntimeError, IndexError):
        vshape = [1]
    if g.chance(0.05):
        vshape = vshape + [2]
    return A(x, g.tensor(tuple(vshape), x.dtype if g.chance(0.8) else g.dtype()), off, d1, d2)


def gen_as_strided_scatter(g):
    x = g.tensor(g.shape(min_ndim=1, max_ndim=3, allow_empty=False), layout=["contiguous"])
    n = 1
    for s in x.shape:
        n *= s
    k = g.int(1, max(n // 2, 1))
    size, stride = [k], [g.int(1, 2)]
    if (k - 1) * stride[0] >= n:
        stride = [1]
    off = g.int(0, n - 1 - (k - 1) * stride[0]) if g.chance(0.5) else None
    src = [k] if g.chance(0.95) else [k + 1]
    return A(x, g.tensor(tuple(src), x.dtype), size, stride, off)


def ct_as_strided_scatter(x, src, size, stride, off):
    o = None if off is None else ctypes.byref(ctypes.c_int64(off))
    return _call("ct_as_strided_scatter", x, src, C.shape_arg(size).s, C.shape_arg(stride).s, o)


def t_as_strided_scatter(x, src, size, stride, off):
    return torch.as_strided_scatter(x, src, size, stride, off)


def gen_diff(g):
    x = g.tensor(g.shape(min_ndim=0 if g.chance(0.05) else 1, max_ndim=3, max_numel=24))
    nd = len(x.shape)
    n = g.int(0, 3) if g.chance(0.95) else -1
    dim = g.dim(nd, bad=0.05) if g.chance(0.7) else -1
    wd = dim % nd if nd and -nd <= dim < nd else None

    def side():
        if not g.chance(0.25) or wd is None:
            return None
        sh = list(x.shape)
        sh[wd] = g.int(0, 2)
        if g.chance(0.05):
            sh = sh + [1]
        return g.tensor(tuple(sh), x.dtype if g.chance(0.8) else g.dtype())
    # prepend and append travel in a list: they are optional fields of ct_diff_opts (NULL is None), so the
    # harness's NULL-argument check, which replaces top-level tensors, must not reach them
    return A(x, n, dim, [side(), side()])


def gen_diff_out(g):
    x, n, dim, sides = gen_diff(g).args
    return A(x, n, dim, sides, out=Spec(g.shape(max_numel=12), x.dtype if g.chance(0.8) else g.dtype()))


def ct_diff(x, n, dim, sides, out=None):
    pre, app = sides
    o = None
    if pre is not None or app is not None:
        o = ctypes.byref(ct_diff_opts(pre.ptr if pre is not None else None, app.ptr if app is not None else None))
    if out is not None:
        return _check_out("ct_diff_out", out, x, n, dim, o)
    return _call("ct_diff", x, n, dim, o)


def t_diff(x, n, dim, sides, out=None):
    pre, app = sides
    if out is not None:
        return torch.diff(x, n, dim, pre, app, out=out)
    return torch.diff(x, n, dim, pre, app)


OPS = [
    Op("cat", gen_cat, torch=t_cat(torch.cat), ct=ct_cat("cat"), weight=3),
    Op("cat_out", gen_cat_out, torch=t_cat(torch.cat), ct=ct_cat("cat"), weight=2),
    Op("concat", gen_cat, torch=t_cat(torch.concat), ct=ct_cat("concat")),
    Op("concat_out", gen_cat_out, torch=t_cat(torch.concat), ct=ct_cat("concat"), weight=0.5),
    Op("concatenate", gen_cat, torch=t_cat(torch.concatenate), ct=ct_cat("concatenate")),
    Op("concatenate_out", gen_cat_out, torch=t_cat(torch.concatenate), ct=ct_cat("concatenate"), weight=0.5),
    Op("stack", gen_stack, torch=t_cat(torch.stack), ct=ct_cat("stack"), weight=2),
    Op("stack_out", gen_stack_out, torch=t_cat(torch.stack), ct=ct_cat("stack"), weight=2),
    Op("hstack", gen_xstack, torch=t_xstack(torch.hstack), ct=ct_xstack("hstack")),
    Op("hstack_out", gen_xstack_out, torch=t_xstack(torch.hstack), ct=ct_xstack("hstack")),
    Op("vstack", gen_xstack, torch=t_xstack(torch.vstack), ct=ct_xstack("vstack")),
    Op("vstack_out", gen_xstack_out, torch=t_xstack(torch.vstack), ct=ct_xstack("vstack")),
    Op("row_stack", gen_xstack, torch=t_xstack(torch.row_stack), ct=ct_xstack("row_stack")),
    Op("row_stack_out", gen_xstack_out, torch=t_xstack(torch.row_stack), ct=ct_xstack("row_stack")),
    Op("dstack", gen_xstack, torch=t_xstack(torch.dstack), ct=ct_xstack("dstack")),
    Op("dstack_out", gen_xstack_out, torch=t_xstack(torch.dstack), ct=ct_xstack("dstack")),
    Op("column_stack", gen_xstack, torch=t_xstack(torch.column_stack), ct=ct_xstack("column_stack")),
    Op("column_stack_out", gen_xstack_out, torch=t_xstack(torch.column_stack), ct=ct_xstack("column_stack")),
    Op("atleast_1d", gen_atleast, torch=torch.atleast_1d, ct=lambda x: _call("ct_atleast_1d", x)),
    Op("atleast_2d", gen_atleast, torch=torch.atleast_2d, ct=lambda x: _call("ct_atleast_2d", x)),
    Op("atleast_3d", gen_atleast, torch=torch.atleast_3d, ct=lambda x: _call("ct_atleast_3d", x)),
    Op("atleast_1d_list", gen_atleast_list, torch=t_atleast_list(torch.atleast_1d), ct=ct_atleast_list(1), weight=0.5),
    Op("atleast_2d_list", gen_atleast_list, torch=t_atleast_list(torch.atleast_2d), ct=ct_atleast_list(2), weight=0.5),
    Op("atleast_3d_list", gen_atleast_list, torch=t_atleast_list(torch.atleast_3d), ct=ct_atleast_list(3), weight=0.5),
    Op("meshgrid", gen_meshgrid, torch=t_meshgrid, ct=ct_meshgrid),
    Op("block_diag", gen_block_diag, torch=lambda ts: torch.block_diag(*ts),
       ct=lambda ts: _call("ct_block_diag", _ts(ts).s)),
    Op("cartesian_prod", gen_cartesian, torch=lambda ts: torch.cartesian_prod(*ts),
       ct=lambda ts: _call("ct_cartesian_prod", _ts(ts).s)),
    Op("combinations", gen_combinations, torch=lambda x, r, w: torch.combinations(x, r, w), ct=ct_combinations),
    Op("kron", gen_kron, torch=torch.kron, ct=lambda x, y: _call("ct_kron", x, y)),
    Op("kron_out", gen_kron_out, torch=lambda x, y, out: torch.kron(x, y, out=out),
       ct=lambda x, y, out: _check_out("ct_kron_out", out, x, y)),
    Op("repeat", gen_repeat, torch=lambda x, r: x.repeat(*r) if r else x.repeat(()),
       ct=lambda x, r: _call("ct_repeat", x, C.shape_arg(r).s)),
    Op("tile", gen_tile, torch=lambda x, r: torch.tile(x, tuple(r)), ct=lambda x, r: _call("ct_tile", x, C.shape_arg(r).s)),
    Op("repeat_interleave", gen_ri, torch=t_ri, ct=ct_ri),
    Op("repeat_interleave_tensor", gen_ri_tensor, torch=lambda x, r, d: torch.repeat_interleave(x, r, d), ct=ct_ri_tensor),
    Op("repeat_interleave_repeats", gen_ri_repeats, torch=torch.repeat_interleave, ct=ct_ri_repeats),
    Op("roll", gen_roll, torch=t_roll, ct=ct_roll, weight=2),
    Op("rot90", gen_rot90, torch=t_rot90, ct=ct_rot90),
    Op("flip", gen_flip, torch=torch.flip, ct=lambda x, d: _call("ct_flip", x, C.shape_arg(d).s), weight=2),
    Op("fliplr", lambda g: A(g.tensor(g.shape(max_ndim=4))), torch=torch.fliplr, ct=lambda x: _call("ct_fliplr", x)),
    Op("flipud", lambda g: A(g.tensor(g.shape(max_ndim=4))), torch=torch.flipud, ct=lambda x: _call("ct_flipud", x)),
    Op("tril", gen_tri, torch=torch.tril, ct=ct_tri("tril"), weight=2),
    Op("tril_", gen_tri, torch=lambda x, k: x.tril_(k), ct=ct_tri_("tril")),
    Op("tril_out", gen_tri_out, torch=lambda x, k, out: torch.tril(x, k, out=out), ct=ct_tri("tril")),
    Op("triu", gen_tri, torch=torch.triu, ct=ct_tri("triu"), weight=2),
    Op("triu_", gen_tri, torch=lambda x, k: x.triu_(k), ct=ct_tri_("triu")),
    Op("triu_out", gen_tri_out, torch=lambda x, k, out: torch.triu(x, k, out=out), ct=ct_tri("triu")),
    Op("tril_indices", gen_tri_indices, torch=t_tri_indices(torch.tril_indices), ct=ct_tri_indices("tril")),
    Op("triu_indices", gen_tri_indices, torch=t_tri_indices(torch.triu_indices), ct=ct_tri_indices("triu")),
    Op("diag", gen_diag, torch=torch.diag, ct=lambda x, k: _call("ct_diag", x, k)),
    Op("diag_out", gen_diag_out, torch=lambda x, k, out: torch.diag(x, k, out=out),
       ct=lambda x, k, out: _check_out("ct_diag_out", out, x, k)),
    Op("diag_embed", gen_diag_embed, torch=torch.diag_embed, ct=lambda x, k, a, b: _call("ct_diag_embed", x, k, a, b)),
    Op("diagflat", gen_diagflat, torch=torch.diagflat, ct=lambda x, k: _call("ct_diagflat", x, k)),
    Op("fill_diagonal_", gen_fill_diagonal, torch=lambda x, v, w: x.fill_diagonal_(v, w), ct=ct_fill_diagonal),
    Op("narrow_copy", gen_narrow_copy, torch=torch.narrow_copy, ct=lambda x, d, s, n: _call("ct_narrow_copy", x, d, s, n)),
    Op("narrow_copy_out", gen_narrow_copy_out, torch=lambda x, d, s, n, out: torch.narrow_copy(x, d, s, n, out=out),
       ct=lambda x, d, s, n, out: _check_out("ct_narrow_copy_out", out, x, d, s, n)),
    Op("select_scatter", gen_select_scatter, torch=torch.select_scatter,
       ct=lambda x, s, d, i: _call("ct_select_scatter", x, s, d, i)),
    Op("slice_scatter", gen_slice_scatter, torch=torch.slice_scatter, ct=ct_slice_scatter),
    Op("diagonal_scatter", gen_diagonal_scatter, torch=torch.diagonal_scatter,
       ct=lambda x, s, k, a, b: _call("ct_diagonal_scatter", x, s, k, a, b)),
    Op("as_strided_scatter", gen_as_strided_scatter, torch=t_as_strided_scatter, ct=ct_as_strided_scatter),
    Op("diff", gen_diff, torch=t_diff, ct=ct_diff, weight=2),
    Op("diff_out", gen_diff_out, torch=t_diff, ct=ct_diff),
]
