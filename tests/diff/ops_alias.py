"""out= tensors that alias an input (issue 13, items 1 and 2): the out is the input itself, a view of it (a
row, a column, one element expanded), an expanded tensor, a tensor needing a resize, for pointwise ops,
reductions and scans, over 0-dim and empty inputs too. The out is derived from the drawn input inside
each call (the same recipe in both libraries), so that the harness compares the result, every input after
the call (the memory the out shares with it), and errors with their messages. Values are small integers,
so that sums compare bit for bit whatever the order.

Kept out of the draws, where ctorch deliberately differs from PyTorch (see src/iter/iter_setup.c and
src/ops/reduce/red_common.c): a pointwise out that is a view of an input and must be resized over memory
the input reads (PyTorch's result depends on its loop order and threads; ctorch refuses with PyTorch's
partial-overlap message); the input itself as the out of var/std/argmax/max/aminmax when it must be
resized (PyTorch reduces its resized self; ctorch the input as it was); the input itself as the out of
a filling reduction where PyTorch, having resized it, raises an IndexError for a dim the new rank lacks
(ctorch gives the identity), or of all/any resized to one element (PyTorch copies that element of its
resized self), of mean, whose out PyTorch resizes twice (mean's, then sum_out's: a 0-dim identity;
ctorch gives the identity in the result's shape), or of nansum, which reduces its resized self again
(a shape error where the dims no longer fit)."""
import torch

import ctorch as C
import ops_pw_compare  # noqa: F401  (declares the clamp/lerp/where/addcmul prototypes)
import ops_reduce as R
import ops_scan as S
from harness import A, Op, Spec
from ops_pw_binary import _out, _w

FLOAT = [torch.float32, torch.float64]


def _small(g, shape, dt):
    """Small integers (0 / 1 for bool): sums of them are exact in any order."""
    lo = 0 if dt == torch.bool else -3
    hi = 1 if dt == torch.bool else 3
    return Spec(shape, dt, base=torch.from_numpy(g.rng.integers(lo, hi + 1, size=shape)).to(dt))


# ---- recipes: the out, built from the inputs in the same way in each library ----------------------------

def _is_torch(x):
    return isinstance(x, torch.Tensor)


def make_out(recipe, x, other, rshape):
    """x: the input; other: a separate tensor (a fresh out, or the base of an expanded one)."""
    t = _is_torch(x)
    if recipe == "self":
        return x
    if recipe == "row":
        return x.select(0, 0) if t else C.select(x, 0, 0)
    if recipe == "col":
        return x.select(-1, 0) if t else C.select(x, -1, 0)
    if recipe == "view":
        return x.view(x.shape) if t else C.view(x, x.shape)
    if recipe == "elem":  # x's first element expanded to the result's shape
        flat = x.reshape(-1) if t else C.reshape(x, (-1,))
        one = flat.narrow(0, 0, 1) if t else C.narrow(flat, 0, 0, 1)
        return one.expand(rshape) if t else C.expand(one, rshape)
    if recipe == "expand":
        one = other.reshape(-1).narrow(0, 0, 1) if t else C.narrow(C.reshape(other, (-1,)), 0, 0, 1)
        return one.expand(rshape) if t else C.expand(one, rshape)
    return other  # "fresh"


def _red_shape(shape, dim, keepdim):
    if not shape:
        return ()
    d = dim % len(shape)
    return tuple(1 if i == d else s for i, s in enumerate(shape) if keepdim or i != d)


SHAPES = [(2, 3), (3, 4), (4,), (2, 3, 4), (), (0, 3), (3, 1), (1, 3), (2, 1, 3)]


# ---- reductions --------------------------------------------------------------------------------------

# name: (torch fn, ctorch fn, dtypes, fills the output first (PyTorch's kernel), refuses an expanded out, tol)
REDUCTIONS = {
    "sum": (R.t_red(torch.sum), R.ct_red("sum"), FLOAT + [torch.int64, torch.int32], True, False, None),
    "nansum": (R.t_red(torch.nansum), R.ct_red("nansum"), FLOAT, True, False, None),
    "prod": (R.t_prod, R.ct_red("prod"), FLOAT + [torch.int64], True, False, None),
    "mean": (R.t_red(torch.mean), R.ct_red("mean"), FLOAT, True, True, None),
    "amax": (R.t_amax(torch.amax), R.ct_red("amax"), FLOAT + [torch.int64, torch.int8], True, False, None),
    "amin": (R.t_amax(torch.amin), R.ct_red("amin"), FLOAT + [torch.int64], True, False, None),
    "all": (R.t_allany(torch.all), R.ct_red("all"), [torch.bool], True, False, None),
    "any": (R.t_allany(torch.any), R.ct_red("any"), [torch.bool], True, False, None),
    "var": (R.t_var("var"), R.ct_var("var"), FLOAT, False, False, (1.3e-6, 1e-5)),
    "logsumexp": (R.t_lse, R.ct_red("logsumexp"), FLOAT, False, True, (1.3e-6, 1e-5)),
    "argmax": (R.t_red(torch.argmax, single_dim=True), R.ct_red("argmax"), [torch.int64], False, False, None),
}


def gen_red(name):
    _, _, dtypes, fills, _, _ = REDUCTIONS[name]

    def gen(g):
        dt = g.choice(dtypes)
        fill = fills and not (name == "amin" and dt == torch.int64)  # int64 amin: binary_kernel_reduce
        while True:
            shape = g.choice(SHAPES)
            dim = g.int(-len(shape), len(shape) - 1) if shape else g.choice([0, -1])
            keepdim = g.chance(0.3)
            rs = _red_shape(shape, dim, keepdim)
            recipes = ["self", "fresh", "expand"] + (["row", "col", "elem"] if shape and 0 not in shape else [])
            recipe = g.choice(recipes)
            resize = rs != tuple(shape)
            if recipe == "self" and resize:
                if not fill or name in ("mean", "nansum"):
                    continue  # documented difference (module docstring)
                if not rs or not -len(rs) <= dim < len(rs):
                    continue  # PyTorch: IndexError after resizing; ctorch: the identity
                if name in ("all", "any") and all(s == 1 for s in rs):
                    continue  # PyTorch copies its resized one-element self; ctorch: the identity
            if recipe in ("expand", "elem") and (not rs or 0 in rs):
                continue
            if name == "argmax" and 0 in shape:
                continue
            break
        x = _small(g, shape, dt)
        odt = torch.int64 if name == "argmax" else dt
        other = _small(g, (5,) if recipe == "fresh" else (1,), odt)
        return A(x, other, [dim], keepdim, recipe, rs)
    return gen


def red_op(name):
    tf, cf, _, _, _, tol = REDUCTIONS[name]
    var = name == "var"

    def run(fn, x, other, dim, keepdim, recipe, rs):
        out = make_out(recipe, x, other, rs)
        if var:
            fn(x, dim, None, keepdim, out=out)
        else:
            fn(x, dim, keepdim, out=out)
        return out
    return Op("alias_" + name, gen_red(name), torch=lambda *a: run(tf, *a), ct=lambda *a: run(cf, *a), tol=tol,
              null_check=False)


# ---- scans -------------------------------------------------------------------------------------------

SCANS = {
    "cumsum": (lambda x, d, out: torch.cumsum(x, d, out=out), lambda x, d, out: S.ct_acc_out("cumsum")(x, d, out=out)),
    "cumprod": (lambda x, d, out: torch.cumprod(x, d, out=out), lambda x, d, out: S.ct_acc_out("cumprod")(x, d, out=out)),
    "logcumsumexp": (lambda x, d, out: torch.logcumsumexp(x, d, out=out), lambda x, d, out: S.ct_lcse_out(x, d, out=out)),
}


def gen_scan(g):
    shape = g.choice(SHAPES)
    dim = g.int(-len(shape), len(shape) - 1) if shape else 0
    recipes = ["self", "view", "fresh", "expand"] + (["row", "col"] if shape and 0 not in shape else [])
    recipe = g.choice(recipes)
    if recipe == "expand" and (not shape or 0 in shape):
        recipe = "fresh"
    x = _small(g, shape, torch.float32)
    return A(x, _small(g, (5,) if recipe == "fresh" else (1,), torch.float32), dim, recipe, tuple(shape))


def scan_op(name):
    tf, cf = SCANS[name]

    def run(fn, x, other, dim, recipe, rs):
        out = make_out(recipe, x, other, rs)
        fn(x, dim, out)
        return out
    return Op("alias_" + name, gen_scan, torch=lambda *a: run(tf, *a), ct=lambda *a: run(cf, *a),
              tol=(1.3e-6, 1e-5) if name == "logcumsumexp" else None, null_check=False)


# ---- pointwise ---------------------------------------------------------------------------------------

def _tdiv(a, b, out):
    return torch.div(a, b, rounding_mode="floor", out=out)


def _cdiv(a, b, out):
    return _out("ct_div_out", out, a, b, R.ctypes.byref(_DIV))


class _DivOpts(R.ctypes.Structure):
    _fields_ = [("rounding_mode", R.ctypes.c_char_p)]


_DIV = _DivOpts(b"floor")

# name: (torch fn(a, b, out), ctorch fn(a, b, out))
POINTWISE = {
    "add": (lambda a, b, o: torch.add(a, b, out=o), lambda a, b, o: _out("ct_add_out", o, a, b, None)),
    "mul": (lambda a, b, o: torch.mul(a, b, out=o), lambda a, b, o: _out("ct_mul_out", o, a, b)),
    "atan2": (lambda a, b, o: torch.atan2(a, b, out=o), lambda a, b, o: _out("ct_atan2_out", o, a, b)),
    "lt": (lambda a, b, o: torch.lt(a, b, out=o), lambda a, b, o: _out("ct_lt_out", o, a, b)),
    "maximum": (lambda a, b, o: torch.maximum(a, b, out=o), lambda a, b, o: _out("ct_maximum_out", o, a, b)),
    "div_floor": (_tdiv, _cdiv),
    "where": (lambda a, b, o: torch.where(a > 0, a, b, out=o),
              lambda a, b, o: _out("ct_where_out", o, C.own(C.lib().fn("ct_gt")(a, _w(0))), a, b)),
    "clamp": (lambda a, b, o: torch.clamp(a, b, None, out=o), lambda a, b, o: _out("ct_clamp_out", o, a, b, None)),
    "addcmul": (lambda a, b, o: torch.addcmul(a, b, b, out=o), lambda a, b, o: _out("ct_addcmul_out", o, a, b, b, None)),
    "lerp": (lambda a, b, o: torch.lerp(a, b, b, out=o), lambda a, b, o: _out("ct_lerp_out", o, a, b, b)),
}

# (shape of a, shape of b); the out recipe names which operand it comes from
PW_SHAPES = [((2, 3), (3,)), ((3,), (2, 3)), ((2, 3), ()), ((), (2, 3)), ((2, 3), (2, 3)), ((0, 3), (3,)),
             ((3, 1), (1, 3)), ((), ())]


def gen_pw(g):
    sa, sb = g.choice(PW_SHAPES)
    swap = g.chance(0.5)
    recipe = g.choice(["a", "b", "view_a", "row_a", "fresh"])
    shape = torch.broadcast_shapes(sa, sb)
    if recipe == "view_a" and tuple(sa) != tuple(shape):
        recipe = "a"  # a view of an input resized: documented difference (module docstring)
    if recipe == "row_a" and not sa:
        recipe = "b"
    a, b = _small(g, sa, torch.float32), _small(g, sb, torch.float32)
    fresh = _small(g, (5,), torch.float32)
    return A(a, b, fresh, swap, recipe)


def pw_op(name):
    tf, cf = POINTWISE[name]

    def run(fn, a, b, fresh, swap, recipe):
        t = _is_torch(a)
        out = {"a": a, "b": b, "fresh": fresh,
               "view_a": (a.view(a.shape) if t else C.view(a, a.shape)),
               "row_a": (a.select(0, 0) if t else C.select(a, 0, 0)) if len(a.shape) else a}[recipe]
        x, y = (b, a) if swap else (a, b)
        fn(x, y, out)
        return out
    return Op("alias_" + name, gen_pw, torch=lambda *a: run(tf, *a), ct=lambda *a: run(cf, *a), null_check=False)


# ---- joining (join.h) -----------------------------------------------------------------------------------
# cat of x's two halves and tril of x, with out = x itself (same shape: no resize), a fresh tensor to
# resize, or (cat) one element expanded (internal overlap). (Kept out: an out that must be resized over an
# input: torch resizes it before refusing the overlap, ctorch refuses first and changes nothing; an expanded
# out of tril: torch writes it element by element, the last write winning, ctorch refuses it as copy_ does.)

def _ccat(x, out):
    h = C.tensors_arg([C.narrow(x, 0, 0, 2), C.narrow(x, 0, 2, 2)])
    C.check(C.lib().ct_cat_out(out, h.s, 0))


JOINS = {
    "cat": (lambda x, out: torch.cat([x[0:2], x[2:4]], 0, out=out), _ccat),
    "tril": (lambda x, out: torch.tril(x, 0, out=out), lambda x, out: C.check(C.lib().ct_tril_out(out, x, 0))),
}


def gen_join(g, expand=True):
    recipe = g.choice(["self", "fresh"] + (["expand"] if expand else []))
    return A(_small(g, (4, 3), torch.float32), _small(g, (5,) if recipe == "fresh" else (1,), torch.float32), recipe)


def join_op(name):
    tf, cf = JOINS[name]

    def run(fn, x, other, recipe):
        out = other if recipe == "fresh" else make_out(recipe, x, other, (4, 3))
        fn(x, out)
        return out
    return Op("alias_" + name, lambda g: gen_join(g, name == "cat"), torch=lambda *a: run(tf, *a),
              ct=lambda *a: run(cf, *a), null_check=False)


OPS = ([pw_op(n) for n in POINTWISE] + [red_op(n) for n in REDUCTIONS] + [scan_op(n) for n in SCANS] +
       [join_op(n) for n in JOINS])


# ---- index ops (index.h): gather's, index_select's and scatter_add's out= aliasing their input ------------

def gen_index(g):
    shape = g.choice([(3, 4), (2, 3), (4,), (1, 5)])
    recipe = g.choice(["self", "view", "fresh", "expand", "row"] if len(shape) > 1 else ["self", "view", "fresh"])
    x = _small(g, shape, torch.float32)
    idx = Spec(shape, torch.int64, base=torch.from_numpy(g.rng.integers(0, shape[-1], size=shape)))
    return A(x, idx, _small(g, (5,) if recipe == "fresh" else (1,), torch.float32), recipe, tuple(shape))


def _index_alias_op(name, tf, cf):
    def run(fn, x, idx, other, recipe, rs):
        out = make_out(recipe, x, other, rs)
        fn(x, idx, out)
        return out
    return Op("alias_" + name, gen_index, torch=lambda *a: run(tf, *a), ct=lambda *a: run(cf, *a), null_check=False)


def _ct_call(name, *args):
    C.check(C.lib().fn(name)(*args))


def _idx0(idx):
    return idx.select(-1, 0) if _is_torch(idx) else C.select(idx, -1, 0)


OPS += [
    _index_alias_op("gather", lambda x, i, out: torch.gather(x, -1, i, out=out),
                    lambda x, i, out: _ct_call("ct_gather_out", out, x, -1, i, None)),
    _index_alias_op("scatter_add", lambda x, i, out: torch.scatter_add(x, -1, i, x, out=out),
                    lambda x, i, out: _ct_call("ct_scatter_add_out", out, x, -1, i, x)),
    _index_alias_op("index_select", lambda x, i, out: torch.index_select(x, 0, _idx0(i).clamp(0, x.shape[0] - 1),
                                                                         out=out),
                    lambda x, i, out: _ct_call("ct_index_select_out", out, x, 0,
                                               C.own(C.lib().fn("ct_clamp")(_idx0(i), _w(0), _w(x.shape[0] - 1))))),
]


# ---- copy_ between views of one buffer -------------------------------------------------------------------
# torch checks only dense operands for overlap; strided views of one buffer are copied in its iterator's
# order (dims ordered and coalesced as TensorIterator does, rows in order, blocks of two AVX2 vectors where
# both rows are contiguous or the source is one broadcast element, element by element otherwise), so an
# element written early is what a later read of the same memory sees. dst and src are drawn as as_strided
# views of one 1-D buffer of distinct values; a dst with a stride-0 dim or a dense partial overlap is torch's
# error. Not drawn: float16 and bfloat16, whose same-dtype copy loop GCC compiled into another write order
# for such overlaps (the rows of an outer dim interleaved in pairs; ctorch writes them as for any other
# dtype, tests/diff/README.md).

_COPY_DTYPES = [torch.float32, torch.float64, torch.int64, torch.int8, torch.int16, torch.complex64,
                torch.complex128, torch.bool, torch.int32, torch.uint8]


def _view_geom(g, n, shape):
    strides = [g.choice([0, 1, 1, 2, 3, 5, 7]) if g.chance(0.9) else g.int(1, 16) for _ in shape]
    span = sum((s - 1) * st for s, st in zip(shape, strides))
    if span >= n:
        strides = [1] * len(shape)
        span = sum(s - 1 for s in shape)
    return strides, g.int(0, n - 1 - span) if n - 1 - span > 0 else 0


def gen_copy_views(g):
    n = 64
    dt = g.choice(_COPY_DTYPES)
    if dt == torch.bool:
        base = torch.from_numpy(g.rng.integers(0, 2, size=(n,))).to(torch.bool)
    else:
        base = (torch.arange(n) % 100 - 50).to(dt)
        if dt.is_complex:
            base = base + 1j * torch.arange(n).to(dt)
    nd = g.choice([1, 1, 2, 2, 3])
    shape = [g.int(1, 12 if nd == 1 else 6) for _ in range(nd)]
    dst = _view_geom(g, n, shape)
    sshape = [1 if g.chance(0.2) else s for s in shape][g.int(0, 1) if nd > 1 and g.chance(0.2) else 0:]
    src = _view_geom(g, n, sshape)
    conj = dt.is_complex and g.chance(0.3)
    return A(Spec((n,), dt, base=base), tuple(shape), dst, tuple(sshape), src, conj)


def _copy_views(x, shape, dgeom, sshape, sgeom, conj):
    t = _is_torch(x)
    dst = x.as_strided(shape, dgeom[0], dgeom[1]) if t else C.as_strided(x, shape, dgeom[0], dgeom[1])
    src = x.as_strided(sshape, sgeom[0], sgeom[1]) if t else C.as_strided(x, sshape, sgeom[0], sgeom[1])
    if conj:
        src = src.conj() if t else C.own(C.lib().ct_conj(src))
    if t:
        dst.copy_(src)
    else:
        C.copy_(dst, src)
    return x


OPS.append(Op("alias_copy_views", gen_copy_views, torch=_copy_views, ct=_copy_views, min_cases=300, null_check=False))
