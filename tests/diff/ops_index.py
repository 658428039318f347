"""Entries for include/ctorch/index.h: Python-style indexing, t[...], against torch 1.13's x[...].

Index expressions are drawn from a grammar: ints (in range, negative, just out of range), slices (bounds
omitted, None, negative, beyond the size; a zero or negative step now and then), None, Ellipsis (once,
sometimes twice; in some specs several, among 0-dim index tensors, None and whole-dim slices), True/False,
int64 index tensors with broadcasting shapes (adjacent or separated by a slice, so that the indexed dims
move to the front; values out of range now and then), bool and uint8 masks (matching the dims they cover,
or not), 0-dim int and bool tensors, and wrong index dtypes. The ctorch call gets the expression as a spec
string with `%` placeholders (Python ints and tensors as arguments) or as a list of items; torch evaluates
the same text with the placeholders as Python names. Results are compared whole: shape, strides, storage
offset, values, and whether the result is a view of the input."""
import ctypes

import torch

import ctorch as C
from harness import A, Op, Spec

# ct_index_kind
INT, SLICE, NONE, ELLIPSIS, BOOL, TENSOR, SPEC, NUMBER = range(1, 9)
SLICE_END = 2**63 - 1


class ct_index_item(ctypes.Structure):
    _fields_ = [("kind", ctypes.c_int), ("start", ctypes.c_int64), ("stop", ctypes.c_int64),
                ("step", ctypes.c_int64), ("tensor", ctypes.c_void_p), ("spec", ctypes.c_char_p),
                ("number", C.ct_scalar)]


def _item_of_arg(a):
    it = ct_index_item()
    if isinstance(a, C.Tensor):
        it.kind, it.tensor = TENSOR, a.ptr
    elif isinstance(a, (bool, int)):
        it.kind, it.number = NUMBER, C.ct_scalar.of(a)
    elif isinstance(a, (float, complex)):
        it.kind, it.number = NUMBER, C.ct_scalar.of(a)
    else:
        raise TypeError(a)
    return it


def _call_items(x, items, keep):
    arr = (ct_index_item * max(1, len(items)))(*items)
    keep.append(arr)
    return C.own(C.lib().fn("ct_index_items")(x, ctypes.cast(arr, ctypes.c_void_p), len(items)))


def ct_spec(x, spec, *args):
    keep = [spec.encode()]
    head = ct_index_item()
    head.kind, head.spec = SPEC, keep[0]
    return _call_items(x, [head] + [_item_of_arg(a) for a in args], keep)


def _python_subscript(spec, args):
    """The spec as Python source with the placeholders named a0, a1, ... and those names' values."""
    names, text, k = {}, "", 0
    for ch in spec:
        if ch == "%":
            names["a%d" % k] = args[k]
            text += "a%d" % k
            k += 1
        else:
            text += ch
    return (text if text.strip() else "()"), names


def torch_spec(x, spec, *args):
    text, names = _python_subscript(spec, args)
    names["x"] = x
    return eval("x[%s]" % text, {}, names)


# The list form: ("int", i), ("slice", a, b, c), ("none",), ("ellipsis",), ("bool", b), ("tensor",) (the
# next tensor argument). Python's x[item] for one item, x[tuple] otherwise.
def ct_list(x, desc, *tensors):
    items, ti = [], 0
    for d in desc:
        it = ct_index_item()
        if d[0] == "int":
            it.kind, it.number = NUMBER, C.ct_scalar.of(d[1])
        elif d[0] == "slice":
            it.kind, it.start, it.stop, it.step = SLICE, d[1], d[2], d[3]
        elif d[0] == "none":
            it.kind = NONE
        elif d[0] == "ellipsis":
            it.kind = ELLIPSIS
        elif d[0] == "bool":
            it.kind, it.start = BOOL, int(d[1])
        else:
            it.kind, it.tensor = TENSOR, tensors[ti].ptr
            ti += 1
        items.append(it)
    return _call_items(x, items, [])


def torch_list(x, desc, *tensors):
    py, ti = [], 0
    for d in desc:
        if d[0] == "int":
            py.append(d[1])
        elif d[0] == "slice":
            py.append(slice(d[1], None if d[2] == SLICE_END else d[2], d[3]))
        elif d[0] == "none":
            py.append(None)
        elif d[0] == "ellipsis":
            py.append(Ellipsis)
        elif d[0] == "bool":
            py.append(bool(d[1]))
        else:
            py.append(tensors[ti])
            ti += 1
    return x[py[0]] if len(py) == 1 else x[tuple(py)]


# ---- generators ------------------------------------------------------------------------------------------

def _bound(g, size):
    r = g.random()
    if r < 0.3:
        return None
    if r < 0.85:
        return g.int(-size, size)
    return g.choice([-size - 3, size + 2, 2**40, -2**40])


def _index_tensor(g, size, shape, dtype=torch.int64, bad=0.04):
    n = 1
    for s in shape:
        n *= s
    hi = max(size, 1)
    vals = [g.int(-hi, hi - 1) if size > 0 else 0 for _ in range(n)]
    if g.chance(bad) and n:
        vals[g.int(0, n - 1)] = g.choice([size, -size - 1, size + 5])
    base = torch.tensor(vals, dtype=torch.int64).reshape(shape).to(dtype)
    return Spec(shape, dtype, g.choice([None, None, ["transposed"], ["strided"]]) if len(shape) > 1 else None,
                base=base)


def _mask(g, sizes, dtype=torch.bool):
    shape = tuple(sizes)
    if g.chance(0.05) and shape:
        shape = shape[:-1] + (shape[-1] + 1,)
    n = 1
    for s in shape:
        n *= s
    base = (torch.rand(n, generator=torch.Generator().manual_seed(g.int(0, 2**31))) < 0.5).reshape(shape)
    return Spec(shape, dtype, None, base=base.to(dtype))


def _torch_reads_past_layout(nd, items):
    """Whether torch 1.13 would read memory outside a view's sizes and strides for these items (see below).

    Each Ellipsis moves torch's dim cursor by ndim - specified (TensorIndexing.h,
    handleDimInMultiDimIndexing), so two of them can carry it past the view's last dim; applySelect and
    applySlice then read the size there without a check, from c10::SizesAndStrides: inline up to 5 dims
    (sizes[5] then strides[5], zeros past the rank), one heap array of 2 * ndim beyond. ctorch reproduces
    those reads (index_get.c, torch_size_at); past them torch reads unrelated memory, and the case has no
    answer to compare. items: ("int",) ("slice", start, step) ("none",) ("ellipsis",) ("bool",) ("tensor",)
    ("mask", k) ("t0int",) ("t0bool",), start None when omitted."""
    def spec_count(it):
        return {"int": 1, "slice": 1, "tensor": 1, "t0int": 1, "mask": it[-1]}.get(it[0], 0)

    specified = sum(spec_count(it) for it in items)
    if specified > nd:
        return False  # too many indices: nothing is read
    rank, d = nd, 0
    for it in items:
        k = it[0]
        if k in ("int", "t0int", "slice"):
            if k == "slice" and it[2] is not None and it[2] <= 0:
                return False  # a step torch refuses before reading
            if d >= rank and d >= (2 * rank if rank > 5 else 10):
                return True
            if k == "slice":
                d += 1  # past the rank: torch's shortcut or an error; going on assumes the shortcut
            elif d >= rank:
                return False  # a select past the rank fails
            else:
                rank -= 1
        elif k == "ellipsis":
            d += nd - specified
        elif k in ("none", "bool", "t0bool"):
            if d > rank:
                return False  # unsqueeze fails
            rank += 1
            d += 1
        else:
            d += 1  # an index tensor or a mask is recorded at one dim
    return False


def _draw_spec(g):
    """(x, parts, args, items): one draw of gen_spec's grammar, items as _torch_reads_past_layout takes them."""
    x = g.tensor(shape=g.shape(max_numel=120, max_ndim=4))
    nd = len(x.shape)
    parts, args, items = [], [], []
    dim = 0
    bshape = tuple(g.choice([(), (2,), (3,), (2, 1), (1, 3)]))  # advanced indices broadcast to this
    # now and then several Ellipses, with 0-dim index tensors, None and slices around them
    many = g.chance(0.15)
    n_items = g.int(2, nd + 4) if many else g.int(0, nd + 1)
    used_ellipsis = False
    for _ in range(n_items):
        size = x.shape[dim] if dim < nd else 3
        r = g.random()
        if many:
            r = g.choice([0.1, 0.3, 0.3, 0.55, 0.6, 0.6, 0.6, 0.98, 0.98])
        if r < 0.22:  # int
            v = g.int(-size, size - 1) if size and not g.chance(0.05) else g.choice([size, -size - 1])
            if g.chance(0.3):
                parts.append("%")
                args.append(v)
            else:
                parts.append(str(v))
            items.append(("int",))
            dim += 1
        elif r < 0.5:  # slice
            a, b = _bound(g, size), _bound(g, size)
            c = g.choice([None, 1, 1, 2, 3]) if not g.chance(0.03) else g.choice([0, -1])
            if many and g.chance(0.5):  # 0:0 and 0:size: torch's whole-dim shortcut, also past the rank
                a, b, c = g.choice([0, None]), g.choice([0, size]), g.choice([None, 1])
            txt = ("" if a is None else str(a)) + ":" + ("" if b is None else str(b))
            if c is not None:
                txt += ":" + str(c)
            if g.chance(0.15) and a is not None:
                txt = "%" + txt[len(str(a)):]
                args.append(a)
            parts.append(txt)
            items.append(("slice", a, c))
            dim += 1
        elif r < 0.58:
            parts.append("None")
            items.append(("none",))
        elif r < 0.64 and (not used_ellipsis or many or g.chance(0.1)):
            parts.append("...")
            items.append(("ellipsis",))
            used_ellipsis = True
            dim = max(dim, nd - (n_items - len(parts)))
        elif r < 0.68:
            parts.append(g.choice(["True", "False"]))
            items.append(("bool",))
        elif r < 0.86:  # index tensor
            shape = bshape if not g.chance(0.05) else (4,)
            dt = torch.int64 if not g.chance(0.04) else g.choice([torch.int32, torch.float32])
            parts.append("%")
            args.append(_index_tensor(g, size, shape, dt))
            items.append(("tensor",))
            dim += 1
        elif r < 0.94:  # mask over the next dims
            k = g.int(1, max(1, min(2, nd - dim))) if dim < nd else 1
            sizes = x.shape[dim:dim + k] if dim < nd else (2,)
            parts.append("%")
            args.append(_mask(g, sizes, torch.bool if not g.chance(0.2) else torch.uint8))
            items.append(("mask", len(sizes)))
            dim += k
        else:  # 0-dim tensor
            if g.chance(0.5 if not many else 0.85):
                v = g.int(-size, size - 1) if size else 0
                args.append(Spec((), torch.int64, None, base=torch.tensor(v)))
                items.append(("t0int",))
            else:
                args.append(Spec((), torch.bool, None, base=torch.tensor(g.chance(0.5))))
                items.append(("t0bool",))
            parts.append("%")
            dim += 1
    return x, parts, args, items


def gen_spec(g):
    """(x, spec, *args): a random index expression over a random tensor; one that has torch read unrelated
    memory (_torch_reads_past_layout) is drawn again."""
    while True:
        x, parts, args, items = _draw_spec(g)
        if not _torch_reads_past_layout(len(x.shape), items):
            break
    spec = ", ".join(parts)
    if len(parts) == 1 and g.chance(0.3):
        spec += ","
    if g.chance(0.1):
        spec = spec.replace(", ", ",")
    return A(x, spec, *args)


def gen_list(g):
    x = g.tensor(shape=g.shape(max_numel=120, max_ndim=4))
    nd = len(x.shape)
    desc, tensors, dim = [], [], 0
    for _ in range(g.int(1, nd + 1)):
        size = x.shape[dim] if dim < nd else 3
        r = g.random()
        if r < 0.3:
            desc.append(("int", g.int(-size, size - 1) if size else 0))
            dim += 1
        elif r < 0.6:
            a = g.int(-size, size)
            b = g.choice([SLICE_END, g.int(-size, size)])
            desc.append(("slice", a, b, g.choice([1, 2])))
            dim += 1
        elif r < 0.7:
            desc.append(("none",))
        elif r < 0.75:
            desc.append(("ellipsis",))
        elif r < 0.8:
            desc.append(("bool", g.chance(0.5)))
        else:
            desc.append(("tensor",))
            tensors.append(_index_tensor(g, size, (2,), bad=0.02))
            dim += 1
    return A(x, tuple(desc), *tensors)


# Malformed specs and placeholder counts: a clear ValueError, never a crash (ctorch only: torch has no
# spec strings, so the expected message is ctorch's documented one).
BAD_SPECS = [("1,,2", 0), ("1:2:3:4", 0), ("%", 0), ("1", 1), ("abc", 0), ("1 2", 0), ("::%", 0),
             (",", 0), ("99999999999999999999", 0), ("[1]", 0)]


def gen_bad(g):
    spec, nargs = BAD_SPECS[g.index % len(BAD_SPECS)]
    return A(Spec((3, 4), torch.float32), spec, *([1] * nargs))


def torch_bad(x, spec, *args):
    raise ValueError("ctorch's spec error")


def ct_bad(x, spec, *args):
    try:
        ct_spec(x, spec, *args)
    except C.CTError as e:
        if e.kind == "ValueError" and "ct_index:" in str(e):
            raise ValueError("ctorch's spec error")
        raise
    raise AssertionError("a malformed spec was accepted: %r" % spec)


OPS = [
    Op("index_items", gen_spec, torch=torch_spec, ct=ct_spec, weight=4, min_cases=200),
    Op("index_items_list", gen_list, torch=torch_list, ct=ct_list, weight=1, min_cases=60),
    Op("index_items_bad_spec", gen_bad, torch=torch_bad, ct=ct_bad, min_cases=len(BAD_SPECS), null_check=False),
]


# ---- t[...] = value --------------------------------------------------------------------------------------

def ct_put(x, spec, *args):
    """args: the placeholders' arguments, then the value (a tensor or a Python number)."""
    keep = [spec.encode()]
    head = ct_index_item()
    head.kind, head.spec = SPEC, keep[0]
    items = [head] + [_item_of_arg(a) for a in args]
    arr = (ct_index_item * len(items))(*items)
    C.check(C.lib().fn("ct_index_put_items_")(x, ctypes.cast(arr, ctypes.c_void_p), len(items)))
    return x


def torch_put(x, spec, *args):
    text, names = _python_subscript(spec, args[:-1])
    names.update(x=x, v=args[-1])
    exec("x[%s] = v" % text, {}, names)
    return x


def _probe_shape(x_spec, spec, args):
    """The shape torch's x[spec] has (None when it fails), from the Specs' base values."""
    def val(a):
        return a.base if isinstance(a, Spec) else a
    try:
        return tuple(torch_spec(torch.zeros(x_spec.shape), spec, *[val(a) for a in args]).shape)
    except Exception:
        return None


def _number_for(g, dt):
    r = g.random()
    if r < 0.3:
        return g.int(-3, 3)
    if r < 0.4:
        return g.choice([1000, -129, 256, 2**40])  # overflow in small integer dtypes
    if r < 0.75:
        return g.choice([0.5, -2.25, float("inf"), 3.0])
    if r < 0.85:
        return g.chance(0.5)
    return complex(1.5, -2) if g.chance(0.5) else 2.7


def gen_put(g):
    a = gen_spec(g)
    x, spec, args = a.args[0], a.args[1], list(a.args[2:])
    shape = _probe_shape(x, spec, args)
    if g.chance(0.25):
        value = _number_for(g, x.dtype)
    else:
        if shape is None:
            vshape = g.shape(max_numel=12, max_ndim=2)
        else:
            r = g.random()
            if r < 0.45:
                vshape = shape
            elif r < 0.6:
                vshape = shape[g.int(0, len(shape)):] if shape else ()
            elif r < 0.7:
                vshape = (1, 1) + shape
            elif r < 0.8:
                vshape = tuple(1 if g.chance(0.5) else s for s in shape)
            elif r < 0.9:
                vshape = ()
            else:
                vshape = g.shape(max_numel=12, max_ndim=2)
        vdt = x.dtype if g.chance(0.75) else g.dtype()
        value = g.tensor(shape=vshape, dtype=vdt)
    return A(x, spec, *(args + [value]))


OPS.append(Op("index_put_items_", gen_put, torch=torch_put, ct=ct_put, weight=4, min_cases=200))


# ---- t[...] = a view of t (the value shares t's memory) ---------------------------------------------------
# torch refuses a value that partially overlaps what index_put_ writes ("unsupported operation: some elements
# of the input tensor and the written-to tensor refer to a single memory location"), copies a basic index's
# value through copy_'s overlap rules, and lets a value that the write cannot reach through. The value is
# derived from x inside each call, by the same recipe in both libraries.

def _alias_value(x, spec, args, recipe):
    t = isinstance(x, torch.Tensor)
    if recipe == "same":  # x[spec] = x[spec]: a view for a basic index, a copy for an advanced one
        return torch_spec(x, spec, *args) if t else ct_spec(x, spec, *args)
    flat = x.reshape(-1) if t else C.reshape(x, (-1,))
    if recipe == "elem":  # x's first element, a 0-dim view
        return flat.select(0, 0) if t else C.select(flat, 0, 0)
    return x.select(0, 0) if t else C.select(x, 0, 0)  # "row": x[0]


def _put_alias(lib_spec_put):
    def call(x, spec, *rest):
        args, recipe = list(rest[:-1]), rest[-1]
        return lib_spec_put(x, spec, *(args + [_alias_value(x, spec, args, recipe)]))
    return call


def gen_put_alias(g):
    a = gen_spec(g)
    x = a.args[0]
    numel = 1
    for n in x.shape:
        numel *= n
    recipes = ["same"] + (["elem"] if numel > 0 else []) + (["row"] if len(x.shape) > 0 and x.shape[0] > 0 else [])
    return A(*a.args, g.choice(recipes))


OPS.append(Op("index_put_items_alias", gen_put_alias, torch=_put_alias(torch_put), ct=_put_alias(ct_put), weight=2,
              min_cases=150, null_check=False))
