"""ctypes bridge to libctorch.so for the differential tests.

Three layers, bottom up:
  * Structures mirroring the public value types (ct_shape, ct_scalar, ct_device, ct_tensor_opts,
    ct_to_opts, ct_tensor_list) and prototypes for every CT_API function, read from the headers in
    include/ctorch/*.h so a new function is callable the moment it is declared (no second list to
    keep in sync).
  * `Tensor`: a Python handle over a ct_tensor* that reads the geometry, the values (bit exact) and
    the storage identity back.
  * A facade with torch-like signatures (`transpose(x, 0, 1)`, `zeros((2, 3), dtype=torch.int32)`)
    that converts arguments, raises `CTError(kind_name, message)` on a failing call and
    `Missing(symbol)` when the library does not export the function yet.

Ownership: every tensor a call returns is a new reference (DESIGN.md section 2). The bridge does
not use the library's scopes (they are under test too); it registers each handle in a module
arena that the harness releases after every case with `release_all()`.
"""
import ctypes
import os
import subprocess
import re

import numpy as np
import torch

_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HEADER_DIR = os.path.join(_ROOT, "include", "ctorch")

# ---------------------------------------------------------------------------------------------
# Value types (include/ctorch/types.h, create.h, convert.h)

c_int64_p = ctypes.POINTER(ctypes.c_int64)


class ct_shape(ctypes.Structure):
    _fields_ = [("data", c_int64_p), ("ndim", ctypes.c_int64)]


class ct_device(ctypes.Structure):
    _fields_ = [("type", ctypes.c_int), ("index", ctypes.c_int32)]


class ct_complex128(ctypes.Structure):
    _fields_ = [("re", ctypes.c_double), ("im", ctypes.c_double)]


class ct_scalar(ctypes.Structure):
    """ct_scalar is {kind; union {bool; int64; double; {double re, im}}}: 24 bytes, 8-aligned.
    ctypes refuses to pass a union by value, so the union is mirrored as two raw 64-bit words
    (same size, alignment and SysV classification: memory) and read/written through `value`."""
    _fields_ = [("kind", ctypes.c_int), ("_pad", ctypes.c_int), ("w0", ctypes.c_uint64), ("w1", ctypes.c_uint64)]

    BOOL, INT, DOUBLE, COMPLEX = 1, 2, 3, 4

    @classmethod
    def of(cls, v):
        s = cls()
        if isinstance(v, (bool, np.bool_)):
            s.kind, s.w0 = cls.BOOL, int(bool(v))  # bool is the first byte of the union
        elif isinstance(v, (int, np.integer)):
            s.kind, s.w0 = cls.INT, int(v) & 0xFFFFFFFFFFFFFFFF
        elif isinstance(v, (float, np.floating)):
            s.kind, s.w0 = cls.DOUBLE, _dbits(float(v))
        elif isinstance(v, complex):
            s.kind, s.w0, s.w1 = cls.COMPLEX, _dbits(v.real), _dbits(v.imag)
        else:
            raise TypeError("not a Python number: %r" % (v,))
        return s

    @property
    def value(self):
        if self.kind == self.BOOL:
            return bool(self.w0 & 0xFF)
        if self.kind == self.INT:
            return int(np.uint64(self.w0).view(np.int64))
        if self.kind == self.DOUBLE:
            return _bitsd(self.w0)
        if self.kind == self.COMPLEX:
            return complex(_bitsd(self.w0), _bitsd(self.w1))
        raise ValueError("ct_scalar with invalid kind %d" % self.kind)


def _dbits(x):
    return int(np.float64(x).view(np.uint64))


def _bitsd(w):
    return float(np.uint64(w).view(np.float64))


class ct_tensor_opts(ctypes.Structure):
    _fields_ = [("dtype", ctypes.c_int), ("device", ct_device), ("layout", ctypes.c_int),
                ("memory_format", ctypes.c_int), ("requires_grad", ctypes.c_bool)]


class ct_to_opts(ctypes.Structure):
    _fields_ = [("dtype", ctypes.c_int), ("device", ct_device), ("memory_format", ctypes.c_int),
                ("copy", ctypes.c_bool), ("non_blocking", ctypes.c_bool)]


class ct_tensor_list(ctypes.Structure):
    _fields_ = [("n", ctypes.c_int64), ("items", ctypes.POINTER(ctypes.c_void_p))]


class ct_tensors(ctypes.Structure):
    """A borrowed list of tensor handles (types.h): ct_tensors.of([a, b]) keeps the array alive."""
    _fields_ = [("data", ctypes.POINTER(ctypes.c_void_p)), ("n", ctypes.c_int64)]

    @classmethod
    def of(cls, handles):
        arr = (ctypes.c_void_p * max(len(handles), 1))(*[None if h is None else h.ptr for h in handles])
        r = cls(ctypes.cast(arr, ctypes.POINTER(ctypes.c_void_p)), len(handles))
        r._keep = arr
        return r


# Enum values (types.h): part of the ABI.
DTYPES = [torch.bool, torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64, torch.float16,
          torch.bfloat16, torch.float32, torch.float64, torch.complex64, torch.complex128]
CT_DTYPE = {d: i + 1 for i, d in enumerate(DTYPES)}
TORCH_DTYPE = {v: k for k, v in CT_DTYPE.items()}
CT_MEMORY_FORMAT = {None: 0, torch.contiguous_format: 1, torch.channels_last: 2, torch.channels_last_3d: 3,
                    torch.preserve_format: 4}
CT_LAYOUT = {None: 0, torch.strided: 1, torch.sparse_coo: 2, torch.sparse_csr: 3, torch.sparse_csc: 4,
             torch.sparse_bsr: 5, torch.sparse_bsc: 6}
CT_CPU, CT_CUDA, CT_META = 1, 2, 3
CT_END = 2**63 - 1

# numpy dtype holding each dtype's bits; bfloat16 travels as int16 (numpy has no bfloat16).
NP_DTYPE = {torch.bool: np.bool_, torch.uint8: np.uint8, torch.int8: np.int8, torch.int16: np.int16,
            torch.int32: np.int32, torch.int64: np.int64, torch.float16: np.float16, torch.bfloat16: np.int16,
            torch.float32: np.float32, torch.float64: np.float64, torch.complex64: np.complex64,
            torch.complex128: np.complex128}

# ---------------------------------------------------------------------------------------------
# Prototypes, parsed from the public headers

_BASE_TYPES = {
    "void": None, "bool": ctypes.c_bool, "_Bool": ctypes.c_bool, "double": ctypes.c_double, "float": ctypes.c_float,
    "int": ctypes.c_int, "int8_t": ctypes.c_int8, "uint8_t": ctypes.c_uint8, "int32_t": ctypes.c_int32,
    "uint32_t": ctypes.c_uint32, "int64_t": ctypes.c_int64, "uint64_t": ctypes.c_uint64,
    "size_t": ctypes.c_size_t, "ct_shape": ct_shape, "ct_dims": ct_shape, "ct_scalar": ct_scalar,
    "ct_device": ct_device, "ct_complex128": ct_complex128, "ct_tensors": ct_tensors,
}
# Enums are C ints; ct_status is an enum too.
_ENUMS = {"ct_dtype", "ct_device_type", "ct_layout", "ct_memory_format", "ct_scalar_kind", "ct_error_kind",
          "ct_reduction", "ct_scatter_mode",
          "ct_status"}
_POINTEE = {"char": ctypes.c_char_p, "int64_t": c_int64_p, "ct_scalar": ctypes.POINTER(ct_scalar),
            "ct_tensor_list": ctypes.POINTER(ct_tensor_list), "ct_dtype": ctypes.POINTER(ctypes.c_int),
            "ct_device": ctypes.POINTER(ct_device), "bool": ctypes.POINTER(ctypes.c_bool), "_Bool": ctypes.POINTER(ctypes.c_bool),
            "double": ctypes.POINTER(ctypes.c_double), "ct_complex128": ctypes.POINTER(ct_complex128),
            "ct_tensor_opts": ctypes.POINTER(ct_tensor_opts), "ct_to_opts": ctypes.POINTER(ct_to_opts)}

_DECL = re.compile(r"CT_API\s+([^;{]*?)\b(ct_\w+)\s*\(([^;{]*?)\)\s*;", re.S)


def _ctype(decl):
    """The ctypes type of a C declaration (a return type or a parameter with its name), or raises
    ValueError for a type the bridge does not know how to pass by value."""
    decl = re.sub(r"\bconst\b", " ", decl)
    if "(" in decl:  # a function pointer parameter: passed as an address (or None)
        return ctypes.c_void_p
    stars = decl.count("*")
    words = decl.replace("*", " ").split()
    if not words:
        raise ValueError("empty type")
    base = words[0]
    if stars == 0:
        if base in _ENUMS:
            return ctypes.c_int
        if base in _BASE_TYPES:
            return _BASE_TYPES[base]
        raise ValueError("unknown by-value type " + base)
    if stars == 1 and base in _POINTEE:
        return _POINTEE[base]
    return ctypes.c_void_p  # opaque handles (ct_tensor*, ct_storage*), void*, options structs, arrays


def _parse_headers():
    """Prototypes from the preprocessed umbrella header, so declarations generated by macros (the
    pointwise op lists) are seen too."""
    protos, skipped = {}, {}
    umbrella = os.path.join(os.path.dirname(HEADER_DIR), "ctorch.h")
    out = subprocess.run(["cc", "-E", "-P", "-I", os.path.dirname(HEADER_DIR), umbrella],
                         capture_output=True, text=True, check=True).stdout
    text = out.replace('__attribute__((visibility("default")))', "CT_API")
    for ret, name, params in _DECL.findall(text):
        try:
            restype = _ctype(ret)
            parts = [p for p in _split_params(params) if p.strip() not in ("", "void")]
            argtypes = [_ctype(_strip_name(p)) for p in parts]
        except ValueError as e:
            skipped[name] = str(e)
            continue
        protos[name] = (restype, argtypes)
    return protos, skipped


def _split_params(params):
    out, depth, cur = [], 0, ""
    for ch in params:
        if ch == "," and depth == 0:
            out.append(cur)
            cur = ""
            continue
        depth += ch == "("
        depth -= ch == ")"
        cur += ch
    out.append(cur)
    return out


def _strip_name(p):
    p = p.strip()
    if "(" in p:
        return p
    m = re.match(r"^(.*?[\s*])(\w+)$", p)
    return m.group(1) if m and m.group(1).strip() else p


PROTOTYPES, UNPASSABLE = _parse_headers()


class Missing(Exception):
    """The library does not export this function (yet): the case is skipped, not failed."""


class CTError(Exception):
    """A failing ctorch call: kind is the Python exception class name the library reports
    (ct_error_kind_name), message its text."""

    def __init__(self, kind, message):
        super().__init__("%s: %s" % (kind, message))
        self.kind, self.message = kind, message


class _Lib:
    def __init__(self, path):
        self.path = path
        self.dll = ctypes.CDLL(path)
        self._fns = {}

    def fn(self, name):
        f = self._fns.get(name)
        if f is None:
            if name not in PROTOTYPES:
                raise Missing(name + " (not declared in include/ctorch)")
            try:
                f = getattr(self.dll, name)
            except AttributeError:
                raise Missing(name) from None
            f.restype, f.argtypes = PROTOTYPES[name]
            self._fns[name] = f
        return f

    def called(self):
        """The functions resolved so far (every one a case reached)."""
        return set(self._fns)

    def has(self, name):
        try:
            self.fn(name)
            return True
        except Missing:
            return False

    def __getattr__(self, name):
        return self.fn(name)


_lib = None


def lib():
    global _lib
    if _lib is None:
        path = os.environ.get("CTORCH_LIB") or os.path.join(_ROOT, "build", "libctorch.so")
        _lib = _Lib(os.path.abspath(path))
    return _lib


def last_error():
    L = lib()
    kind = L.ct_last_error()
    return L.ct_error_kind_name(kind).decode(), L.ct_last_error_message().decode("utf-8", "replace")


def _raise():
    kind, msg = last_error()
    raise CTError(kind, msg)


# ---------------------------------------------------------------------------------------------
# Tensor handles and the arena

_arena = []


def own(ptr):
    """Wraps a returned new reference; NULL raises the recorded error."""
    if not ptr:
        _raise()
    t = Tensor(ptr)
    _arena.append(t)
    return t


def release_all():
    """Releases every handle created since the last call (the end of a case)."""
    global _arena
    L = lib()
    for t in reversed(_arena):
        L.ct_release(t.ptr)
        t.ptr = None
    _arena = []


def release_from(mark):
    """Releases the handles created after position `mark` of the arena (a call's results), keeping
    the earlier ones (its inputs)."""
    L = lib()
    for t in reversed(_arena[mark:]):
        L.ct_release(t.ptr)
        t.ptr = None
    del _arena[mark:]


def check(status):
    if status != 0:
        kind, msg = last_error()
        if lib().ct_last_error() != status:  # DESIGN.md: the status is the kind of the error recorded
            raise CTError("StatusMismatch", "status %d, but the recorded error is %s: %s" % (status, kind, msg))
        raise CTError(kind, msg)


class Tensor:
    __slots__ = ("ptr",)

    def __init__(self, ptr):
        self.ptr = ptr

    @property
    def _as_parameter_(self):
        return self.ptr

    # geometry
    @property
    def dtype(self):
        return TORCH_DTYPE.get(lib().ct_dtype_of(self.ptr), "invalid dtype")

    @property
    def shape(self):
        L = lib()
        n = L.ct_ndim(self.ptr)
        p = L.ct_sizes(self.ptr)
        return tuple(ctypes.cast(p, c_int64_p)[i] for i in range(n)) if n else ()

    def stride(self):
        L = lib()
        n = L.ct_ndim(self.ptr)
        p = L.ct_strides(self.ptr)
        return tuple(ctypes.cast(p, c_int64_p)[i] for i in range(n)) if n else ()

    def storage_offset(self):
        return lib().ct_storage_offset(self.ptr)

    def numel(self):
        return lib().ct_numel(self.ptr)

    def is_contiguous(self, memory_format=None):
        return bool(lib().ct_is_contiguous(self.ptr, CT_MEMORY_FORMAT[memory_format]))

    def refcount(self):
        return lib().ct_refcount(self.ptr)

    # storage
    def storage_info(self):
        """(storage handle address, data address, nbytes, storage refcount excluding this query)."""
        L = lib()
        s = L.ct_untyped_storage(self.ptr)
        if not s:
            _raise()
        try:
            return s, L.ct_storage_data_ptr(s) or 0, L.ct_storage_nbytes(s), L.ct_storage_refcount(s) - 1
        finally:
            L.ct_storage_release(s)

    # values
    def raw_values(self):
        """The elements read straight from storage memory through sizes/strides/offset (independent of
        any op under test), as a contiguous numpy array of NP_DTYPE. Raises AssertionError when the
        geometry reaches outside the storage."""
        dt = self.dtype
        npdt = np.dtype(NP_DTYPE[dt])
        shape, strides = self.shape, self.stride()
        if self.numel() == 0:
            return _empty_array(shape, npdt)
        isz = npdt.itemsize
        if any(s < 0 for s in strides):
            raise AssertionError("negative stride %r" % (strides,))
        span = (sum((n - 1) * s for n, s in zip(shape, strides)) + 1) * isz
        _, sdata, snbytes, _ = self.storage_info()
        first = lib().ct_data_ptr(self.ptr)
        if not first or not sdata:
            raise AssertionError("non-empty tensor without data")
        if first < sdata or first + span > sdata + snbytes:
            raise AssertionError("geometry sizes=%r strides=%r offset=%d reaches outside its storage of %d bytes"
                                 % (shape, strides, self.storage_offset(), snbytes))
        buf = (ctypes.c_char * span).from_address(first)
        flat = np.frombuffer(buf, dtype=np.uint8)
        view = np.lib.stride_tricks.as_strided(flat.view(npdt) if span % isz == 0 else flat[: span - span % isz].view(npdt),
                                               shape=shape, strides=[s * isz for s in strides])
        return np.array(view, copy=True)

    def math_bits(self):
        """(is_conj, is_neg): torch 1.13's lazy conjugate and negative bits."""
        L = lib()
        if not L.has("ct_is_conj"):
            return (False, False)
        return (bool(L.ct_is_conj(self.ptr)), bool(L.ct_is_neg(self.ptr)))

    def seen_values(self):
        """raw_values with the tensor's math bits applied: the values it holds for every op."""
        return apply_math_bits(self.raw_values(), self.dtype, *self.math_bits())

    def values(self, dtype=None):
        """Elements in row-major order via ct_copy_to_buffer (the API's own read path), converted to
        `dtype` (default: the tensor's). Falls back to raw_values when the library lacks it."""
        dt = dtype or self.dtype
        npdt = np.dtype(NP_DTYPE[dt])
        L = lib()
        if dtype is None and not L.has("ct_copy_to_buffer"):
            return self.raw_values()
        out = _empty_array(self.shape, npdt) if self.numel() == 0 else np.zeros(self.shape, npdt)
        check(L.ct_copy_to_buffer(self.ptr, out.ctypes.data_as(ctypes.c_void_p), CT_DTYPE[dt], out.nbytes))
        return out


# ---------------------------------------------------------------------------------------------
# Argument conversion

class _Shape:
    """A ct_shape with its backing array kept alive for the call."""

    def __init__(self, dims):
        dims = [int(d) for d in dims]
        self.arr = (ctypes.c_int64 * max(len(dims), 1))(*dims)
        self.s = ct_shape(ctypes.cast(self.arr, c_int64_p), len(dims))


def shape_arg(dims):
    if isinstance(dims, int):
        dims = (dims,)
    return _Shape(dims)


def dtype_arg(dt):
    return 0 if dt is None else CT_DTYPE[dt]


DEVICE_NAMES = {CT_CPU: "cpu", CT_CUDA: "cuda", CT_META: "meta"}


def device_arg(dev):
    if dev is None:
        return ct_device(0, 0)
    dev = torch.device(dev)
    t = {"cpu": CT_CPU, "cuda": CT_CUDA, "meta": CT_META}[dev.type]
    return ct_device(t, -1 if dev.index is None else dev.index)


def tensor_opts(dtype=None, device=None, layout=None, memory_format=None, requires_grad=False):
    o = ct_tensor_opts(dtype_arg(dtype), device_arg(device), CT_LAYOUT[layout], CT_MEMORY_FORMAT[memory_format],
                       bool(requires_grad))
    return ctypes.byref(o), o


def _opts(kw):
    """NULL for no keywords (PyTorch's defaults), else a pointer to a ct_tensor_opts."""
    return tensor_opts(**kw)[0] if kw else None


# ---------------------------------------------------------------------------------------------
# Construction from host data

def from_numpy(arr, dt):
    """A contiguous ctorch tensor holding arr's bits as dtype dt (arr must be NP_DTYPE[dt]).
    Uses ct_tensor_from_data; without it (a core-only library), ct_empty plus a raw copy."""
    arr = np.require(arr, NP_DTYPE[dt], "C")
    L = lib()
    sh = shape_arg(arr.shape)
    if L.has("ct_tensor_from_data"):
        return own(L.ct_tensor_from_data(arr.ctypes.data_as(ctypes.c_void_p), CT_DTYPE[dt], sh.s, None))
    o, _ = tensor_opts(dtype=dt)
    t = own(L.ct_empty(sh.s, o))
    if arr.nbytes:
        ctypes.memmove(L.ct_data_ptr(t.ptr), arr.ctypes.data, arr.nbytes)
    return t


_SIGN_UINT = {2: (np.uint16, 0x8000), 4: (np.uint32, 0x80000000), 8: (np.uint64, 0x8000000000000000)}


def apply_math_bits(arr, dt, conj, neg):
    """What a tensor whose storage holds arr reads with torch's conj / neg bits: sign-bit flips (exact, as
    torch's conj and neg kernels on every non-NaN value; bfloat16 arrives as its int16 bits), wrapping
    negation for integers."""
    if not (conj and dt.is_complex) and not neg:
        return arr
    arr = np.array(arr, order="C", copy=True)  # C order, so that the flat view below writes into it
    if dt in (torch.bool, torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64):
        return np.negative(arr) if neg else arr
    part = arr.dtype.itemsize // 2 if dt.is_complex else arr.dtype.itemsize
    ut, mask = _SIGN_UINT[part]
    u = arr.reshape(-1).view(ut)
    if dt.is_complex:
        if neg:
            u[0::2] ^= ut(mask)
        if neg != bool(conj):
            u[1::2] ^= ut(mask)
    else:
        u ^= ut(mask)
    return arr


def _empty_array(shape, npdt):
    """No elements: an array of that shape, or of shape (0,) where numpy cannot hold the shape (sizes whose
    product passes 2^63 - 1 beside a 0, which torch and ctorch make)."""
    try:
        return np.zeros(shape, npdt)
    except ValueError:
        return np.zeros((0,), npdt)


def torch_bits(t):
    """A torch tensor's elements as a contiguous numpy array of NP_DTYPE (bits for bfloat16)."""
    if t.numel() == 0:
        return _empty_array(tuple(t.shape), torch.empty(0, dtype=t.dtype).view(torch.int16).numpy().dtype
                            if t.dtype == torch.bfloat16 else torch.empty(0, dtype=t.dtype).numpy().dtype)
    # Tensor.numpy() marks the storage non-resizable (it must not move under numpy's feet): read a
    # clone, or a later resize_/set_ on this tensor would fail only in torch.
    t = t.detach().clone()
    if t.dtype == torch.bfloat16:
        t = t.view(torch.int16)
    return t.resolve_conj().numpy()


def from_torch(t):
    return from_numpy(torch_bits(t.contiguous()), t.dtype)


# ---------------------------------------------------------------------------------------------
# The facade: torch-like signatures. Tensor arguments are Tensor handles.

def _t(name, *args):
    return own(lib().fn(name)(*args))


def _list(ptr):
    """Unpacks a ct_tensor_list into owned handles (each retained) and releases the list."""
    if not ptr:
        _raise()
    L = lib()
    lst = ptr.contents
    out = [own(L.ct_retain(lst.items[i])) for i in range(lst.n)]
    L.ct_tensor_list_release(ptr)
    return out


def _dims(d):
    return shape_arg([d] if isinstance(d, int) else d).s


# views (view.h)
def view(x, shape): return _t("ct_view", x, shape_arg(shape).s)
def reshape(x, shape): return _t("ct_reshape", x, shape_arg(shape).s)
def view_as(x, other): return _t("ct_view_as", x, other)
def reshape_as(x, other): return _t("ct_reshape_as", x, other)


def as_strided(x, size, stride, storage_offset=None):
    off = None if storage_offset is None else ctypes.byref(ctypes.c_int64(storage_offset))
    return _t("ct_as_strided", x, shape_arg(size).s, shape_arg(stride).s, off)


def transpose(x, a, b): return _t("ct_transpose", x, a, b)
def t(x): return _t("ct_t", x)
def T(x): return _t("ct_T", x)
def mT(x): return _t("ct_mT", x)
def permute(x, dims): return _t("ct_permute", x, _dims(dims))
def movedim(x, src, dst): return _t("ct_movedim", x, _dims(src), _dims(dst))


def squeeze(x, dim=None):
    if dim is None:
        return _t("ct_squeeze", x)
    if isinstance(dim, int):
        return _t("ct_squeeze_dim", x, dim)
    return _t("ct_squeeze_dims", x, _dims(dim))


def unsqueeze(x, dim): return _t("ct_unsqueeze", x, dim)
def flatten(x, start_dim=0, end_dim=-1): return _t("ct_flatten", x, start_dim, end_dim)
def unflatten(x, dim, sizes): return _t("ct_unflatten", x, dim, shape_arg(sizes).s)
def expand(x, shape): return _t("ct_expand", x, shape_arg(shape).s)
def expand_as(x, other): return _t("ct_expand_as", x, other)
def broadcast_to(x, shape): return _t("ct_broadcast_to", x, shape_arg(shape).s)
def narrow(x, dim, start, length): return _t("ct_narrow", x, dim, start, length)
def select(x, dim, index): return _t("ct_select", x, dim, index)
def slice(x, dim, start, end, step): return _t("ct_slice", x, dim, start, end, step)
def unfold(x, dimension, size, step): return _t("ct_unfold", x, dimension, size, step)
def diagonal(x, offset=0, dim1=0, dim2=1): return _t("ct_diagonal", x, offset, dim1, dim2)
def unbind(x, dim=0): return _list(lib().ct_unbind(x, dim))


def split(x, split_size, dim=0):
    if isinstance(split_size, int):
        return _list(lib().ct_split(x, split_size, dim))
    return split_with_sizes(x, split_size, dim)


class _Tensors:
    """A ct_tensors over handles (None: a NULL entry), its array kept alive for the call."""

    def __init__(self, tensors):
        ptrs = [None if t is None else t.ptr for t in tensors]
        self.arr = (ctypes.c_void_p * max(len(ptrs), 1))(*ptrs)
        self.s = ct_tensors(ctypes.cast(self.arr, ctypes.POINTER(ctypes.c_void_p)), len(ptrs))


def tensors_arg(tensors):
    return _Tensors(tensors)


def split_with_sizes(x, sizes, dim=0): return _list(lib().ct_split_with_sizes(x, shape_arg(sizes).s, dim))
def chunk(x, chunks, dim=0): return _list(lib().ct_chunk(x, chunks, dim))


def tensor_split(x, sections_or_indices, dim=0):
    if isinstance(sections_or_indices, int):
        return _list(lib().ct_tensor_split(x, sections_or_indices, dim))
    return _list(lib().ct_tensor_split_indices(x, shape_arg(sections_or_indices).s, dim))


def detach(x): return _t("ct_detach", x)
def alias(x): return _t("ct_alias", x)


def set_(x, source):
    check(lib().ct_set_(x, source))
    return x


def resize_(x, size, memory_format=None):
    check(lib().ct_resize_(x, shape_arg(size).s, CT_MEMORY_FORMAT[memory_format]))
    return x


def resize_as_(x, other):
    check(lib().ct_resize_as_(x, other))
    return x


def set_storage_(x, source_tensor, storage_offset, size, stride):
    """set_(source.storage(), offset, size, stride): the storage is taken from a tensor."""
    L = lib()
    s = L.ct_untyped_storage(source_tensor)
    if not s:
        _raise()
    try:
        check(L.ct_set_storage_(x, s, storage_offset, shape_arg(size).s, shape_arg(stride).s))
    finally:
        L.ct_storage_release(s)
    return x


# creation (create.h)
def tensor_from_data(arr, src_dtype, **kw):
    arr = np.require(arr, NP_DTYPE[src_dtype], "C")
    return _t("ct_tensor_from_data", arr.ctypes.data_as(ctypes.c_void_p), CT_DTYPE[src_dtype],
              shape_arg(arr.shape).s, _opts(kw))


def new_tensor(x, arr, src_dtype, **kw):
    arr = np.require(arr, NP_DTYPE[src_dtype], "C")
    return _t("ct_new_tensor", x, arr.ctypes.data_as(ctypes.c_void_p), CT_DTYPE[src_dtype],
              shape_arg(arr.shape).s, _opts(kw))


_blobs = {}
_DELETER = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_void_p)


@_DELETER
def _blob_deleter(ctx, data):
    _blobs.pop(ctx, None)


def from_blob(arr, dt, shape, strides=None, **kw):
    """Wraps a copy of arr's memory (kept alive until the library calls the deleter)."""
    fn = lib().fn("ct_from_blob")
    arr = np.array(arr, dtype=NP_DTYPE[dt], copy=True)
    key = arr.ctypes.data
    _blobs[key] = arr
    st = None if strides is None else shape_arg(strides)
    ptr = fn(ctypes.c_void_p(key), CT_DTYPE[dt], shape_arg(shape).s, None if st is None else st.s.data,
             ctypes.cast(_blob_deleter, ctypes.c_void_p), ctypes.c_void_p(key), _opts(kw))
    if not ptr:
        _blobs.pop(key, None)  # a failed call took no ownership of the memory
    return own(ptr)


def live_blobs():
    return len(_blobs)


def wrapped_scalar(v): return _t("ct_wrapped_scalar", ct_scalar.of(v))
def is_wrapped_number(x): return bool(lib().ct_is_wrapped_number(x))
def scalar_tensor(v, **kw): return _t("ct_scalar_tensor", ct_scalar.of(v), _opts(kw))
def empty(shape, **kw): return _t("ct_empty", shape_arg(shape).s, _opts(kw))
def empty_strided(shape, strides, **kw): return _t("ct_empty_strided", shape_arg(shape).s, shape_arg(strides).s, _opts(kw))
def zeros(shape, **kw): return _t("ct_zeros", shape_arg(shape).s, _opts(kw))
def ones(shape, **kw): return _t("ct_ones", shape_arg(shape).s, _opts(kw))
def full(shape, value, **kw): return _t("ct_full", shape_arg(shape).s, ct_scalar.of(value), _opts(kw))
def empty_like(x, **kw): return _t("ct_empty_like", x, _opts(kw))
def zeros_like(x, **kw): return _t("ct_zeros_like", x, _opts(kw))
def ones_like(x, **kw): return _t("ct_ones_like", x, _opts(kw))
def full_like(x, value, **kw): return _t("ct_full_like", x, ct_scalar.of(value), _opts(kw))
def new_empty(x, shape, **kw): return _t("ct_new_empty", x, shape_arg(shape).s, _opts(kw))
def new_zeros(x, shape, **kw): return _t("ct_new_zeros", x, shape_arg(shape).s, _opts(kw))
def new_ones(x, shape, **kw): return _t("ct_new_ones", x, shape_arg(shape).s, _opts(kw))
def new_full(x, shape, value, **kw): return _t("ct_new_full", x, shape_arg(shape).s, ct_scalar.of(value), _opts(kw))


def eye(n, m=None, **kw):
    if m is None:
        return _t("ct_eye", n, _opts(kw))
    return _t("ct_eye_m", n, m, _opts(kw))


def arange(start, end, step, **kw):
    return _t("ct_arange", ct_scalar.of(start), ct_scalar.of(end), ct_scalar.of(step), _opts(kw))


def arange_end(end, **kw):
    return _t("ct_arange_end", ct_scalar.of(end), _opts(kw))


def linspace(start, end, steps, **kw):
    return _t("ct_linspace", ct_scalar.of(start), ct_scalar.of(end), steps, _opts(kw))


def logspace(start, end, steps, base=10.0, **kw):
    return _t("ct_logspace", ct_scalar.of(start), ct_scalar.of(end), steps, base, _opts(kw))


# conversion (convert.h)
def to(x, dtype=None, memory_format=None, copy=False, device=None):
    o = ct_to_opts(dtype_arg(dtype), device_arg(device), CT_MEMORY_FORMAT[memory_format], bool(copy), False)
    return _t("ct_to", x, ctypes.byref(o))


def to_dtype(x, dtype): return _t("ct_to_dtype", x, CT_DTYPE[dtype])
def type_as(x, other): return _t("ct_type_as", x, other)


CASTS = {"float": "ct_float", "double": "ct_double", "half": "ct_half", "bfloat16": "ct_bfloat16", "int": "ct_int",
         "long": "ct_long", "short": "ct_short", "char": "ct_char", "byte": "ct_byte", "bool": "ct_bool"}


def cast(x, method): return _t(CASTS[method], x)
def contiguous(x, memory_format=None): return _t("ct_contiguous", x, CT_MEMORY_FORMAT[memory_format])
def clone(x, memory_format=None): return _t("ct_clone", x, CT_MEMORY_FORMAT[memory_format])


def copy_(x, src):
    check(lib().ct_copy_(x, src))
    return x


def item(x):
    s = ct_scalar()
    check(lib().ct_item(x, ctypes.byref(s)))
    return s.value


def item_as(x, kind):
    """ct_item_double / int64 / bool / complex."""
    L = lib()
    box = {"double": ctypes.c_double, "int64": ctypes.c_int64, "bool": ctypes.c_bool, "complex": ct_complex128}[kind]()
    check(L.fn("ct_item_" + kind)(x, ctypes.byref(box)))
    return complex(box.re, box.im) if kind == "complex" else box.value


def get_item(x, index):
    s = ct_scalar()
    idx = (ctypes.c_int64 * max(len(index), 1))(*index)
    check(lib().ct_get_item(x, idx, ctypes.byref(s)))
    return s.value


def set_item(x, index, value):
    idx = (ctypes.c_int64 * max(len(index), 1))(*index)
    check(lib().ct_set_item(x, idx, ct_scalar.of(value)))
    return x


def copy_to_buffer(x, dtype):
    return x.values(dtype)


def equal(a, b):
    out = ctypes.c_bool()
    check(lib().ct_equal(a, b, ctypes.byref(out)))
    return out.value


def is_set_to(a, b):
    out = ctypes.c_bool()
    check(lib().ct_is_set_to(a, b, ctypes.byref(out)))
    return out.value


# queries (tensor.h)
def size(x, dim):
    r = lib().ct_size(x, dim)
    if r == -1:
        _raise()
    return r


def stride(x, dim):
    r = lib().ct_stride(x, dim)
    if r == -1:
        _raise()
    return r


def shape_of(x):
    s = lib().ct_shape_of(x)
    return tuple(s.data[i] for i in range(s.ndim))


def shape_index(dims, value):
    r = lib().ct_shape_index(shape_arg(dims).s, value)
    if r == -1:
        _raise()
    return r


def shape_str(dims):
    L = lib()
    sh = shape_arg(dims)
    n = L.ct_shape_str(sh.s, None, 0)
    buf = ctypes.create_string_buffer(n + 1)
    L.ct_shape_str(sh.s, buf, n + 1)
    return buf.value.decode()
