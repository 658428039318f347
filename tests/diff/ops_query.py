"""Entries for the queries in include/ctorch/tensor.h and dtype.h: every property of random tensors of
every layout, dim-indexed queries with bad dims, is_set_to, requires_grad_, the torch.Size helpers and
the dtype traits."""
import ctypes

import torch

import ctorch as C
from harness import A, Op, Spec


def gen_one(g):
    return A(g.tensor())


def gen_dim(g):
    x = g.tensor()
    return A(x, g.dim(len(x.shape), bad=0.2))


def _torch_props(x):
    s = x.storage()
    return (x.dim(), x.ndim, x.numel(), x.nelement(), x.element_size(),
            x.numel() * x.element_size(),  # Tensor.nbytes (not in 1.13 yet)
            x.dtype, str(x.device),
            str(x.layout), x.is_floating_point(), x.is_complex(), x.is_signed(), x.is_cuda, x.is_meta,
            x.get_device(), x.requires_grad, tuple(x.shape), x.storage_offset(),
            # data_ptr: NULL or where the first element lies in the storage; the storage's size
            (x.data_ptr() - s.data_ptr()) if x.data_ptr() else None, s.nbytes())


def _ct_props(x):
    L = C.lib()
    p = x.ptr
    dev = L.ct_device_of(p)
    buf = ctypes.create_string_buffer(64)
    L.ct_device_str(dev, buf, 64)
    _, sdata, snbytes, _ = x.storage_info()
    dptr = L.ct_data_ptr(p) or 0
    return (L.ct_dim(p), L.ct_ndim(p), L.ct_numel(p), L.ct_nelement(p), L.ct_element_size(p), L.ct_nbytes(p),
            x.dtype, buf.value.decode(), L.ct_layout_name(L.ct_layout_of(p)).decode(), L.ct_is_floating_point(p),
            L.ct_is_complex(p), L.ct_is_signed(p), L.ct_is_cuda(p), L.ct_is_meta(p), L.ct_get_device(p),
            L.ct_requires_grad(p), C.shape_of(x), L.ct_storage_offset(p), (dptr - sdata) if dptr else None, snbytes)


def gen_is_set_to(g):
    x = g.tensor()
    r = g.random()
    if r < 0.25:
        return A(x, x)  # the same tensor: ctorch receives the same handle twice
    if r < 0.45:
        return A(x, Spec(x.shape, x.dtype, g.layout()) if r < 0.35 else g.tensor())
    # a view of x made in each library: same geometry (True unless a math bit is set) or another one
    return A(x, g.choice(["self", "conj"]), g.choice(list(_SET_TO_VIEWS)))


# views of x for is_set_to's second argument, as (torch, ctorch) recipes
def _conj_ct(x): return C.own(C.lib().ct_conj(x))


_SET_TO_VIEWS = {
    "view": (lambda x: x.view(x.shape), lambda x: C.view(x, x.shape)),
    "as_strided": (lambda x: x.as_strided(x.shape, x.stride(), x.storage_offset()),
                   lambda x: C.as_strided(x, x.shape, x.stride(), x.storage_offset())),
    "transpose": (lambda x: x.transpose(0, -1) if x.dim() else x.view(()),
                  lambda x: C.transpose(x, 0, -1) if len(x.shape) else C.view(x, ())),
    "narrow": (lambda x: x.narrow(0, 1, x.shape[0] - 1) if x.dim() and x.shape[0] else x.view(x.shape),
               lambda x: C.narrow(x, 0, 1, x.shape[0] - 1) if len(x.shape) and x.shape[0] else C.view(x, x.shape)),
    "conj": (lambda x: x.conj(), _conj_ct),
    "conj_conj": (lambda x: x.conj().conj(), lambda x: _conj_ct(_conj_ct(x))),
}


def _is_set_to(lib):
    """a.is_set_to(b), or with a view recipe: self (or a.conj()) against a view of self made in the same library."""
    def run(a, first, how=None):
        if how is None:
            return a.is_set_to(first) if lib is torch else C.is_set_to(a, first)
        k = 0 if lib is torch else 1
        left = _SET_TO_VIEWS["conj"][k](a) if first == "conj" else a
        b = _SET_TO_VIEWS[how][k](a)
        return left.is_set_to(b) if lib is torch else C.is_set_to(left, b)
    return run


def gen_requires_grad_(g):
    return A(g.tensor(), g.chance(0.7))


def _rg_torch(x, flag):
    x.requires_grad_(flag)
    return x.requires_grad


def _rg_ct(x, flag):
    C.check(C.lib().ct_requires_grad_(x, flag))
    return bool(C.lib().ct_requires_grad(x))


def gen_shape_fn(g):
    s = g.shape()
    v = g.choice(list(s)) if s and g.chance(0.7) else g.choice([0, 1, 7, -1])
    return A(tuple(s), v)


def gen_dtype(g):
    return A(g.dtype())


def _dtype_torch(dt):
    z = torch.zeros((), dtype=dt)
    # 1.13 has no dtype.to_complex()/to_real(): ask the ops that define them (torch.complex, .real).
    cplx = torch.complex(z, z).dtype if dt in (torch.float32, torch.float64) else None
    real = z.real.dtype if dt.is_complex else None
    return (z.element_size(), dt.is_floating_point, dt.is_complex, dt.is_signed, str(dt), z.type(), cplx, real)


def _dtype_ct(dt):
    L = C.lib()
    d = C.CT_DTYPE[dt]
    cplx = L.ct_dtype_to_complex(d) if dt.is_floating_point and dt not in (torch.float16, torch.bfloat16) else None
    real = L.ct_dtype_to_real(d) if dt.is_complex else None
    return (L.ct_dtype_itemsize(d), L.ct_dtype_is_floating_point(d), L.ct_dtype_is_complex(d),
            L.ct_dtype_is_signed(d), L.ct_dtype_name(d).decode(), L.ct_dtype_legacy_type_name(d).decode(),
            None if cplx is None else C.TORCH_DTYPE.get(cplx), None if real is None else C.TORCH_DTYPE.get(real))


OPS = [
    Op("properties", gen_one, torch=_torch_props, ct=_ct_props, weight=2, null_check=False),
    Op("size", gen_dim, torch=lambda x, d: x.size(d), ct=lambda x, d: C.size(x, d), null_check=False),
    Op("stride", gen_dim, torch=lambda x, d: x.stride(d), ct=lambda x, d: C.stride(x, d), null_check=False),
    Op("is_contiguous", gen_one, null_check=False,
       torch=lambda x: tuple(x.is_contiguous(memory_format=f) for f in C.CT_MEMORY_FORMAT if f not in (None, torch.preserve_format)),
       ct=lambda x: tuple(x.is_contiguous(f) for f in C.CT_MEMORY_FORMAT if f not in (None, torch.preserve_format))),
    Op("is_set_to", gen_is_set_to, torch=_is_set_to(torch), ct=_is_set_to(C)),
    Op("requires_grad_", gen_requires_grad_, torch=_rg_torch, ct=_rg_ct),
    Op("shape_numel", gen_shape_fn, torch=lambda s, v: torch.Size(s).numel(),
       ct=lambda s, v: C.lib().ct_shape_numel(C.shape_arg(s).s)),
    Op("shape_count", gen_shape_fn, torch=lambda s, v: torch.Size(s).count(v),
       ct=lambda s, v: C.lib().ct_shape_count(C.shape_arg(s).s, v)),
    Op("shape_index", gen_shape_fn, torch=lambda s, v: torch.Size(s).index(v), ct=lambda s, v: C.shape_index(s, v)),
    Op("shape_str", gen_shape_fn, torch=lambda s, v: str(torch.Size(s)), ct=lambda s, v: C.shape_str(s)),
    Op("dtype_traits", gen_dtype, torch=_dtype_torch, ct=_dtype_ct, min_cases=12),
]
