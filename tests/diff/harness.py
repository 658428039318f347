"""The differential harness: an `Op` table entry says how to draw arguments and how to call the
operation in torch and in ctorch; `run_case` builds the same inputs in both libraries, calls both,
and compares everything observable:

  * error or not; when both fail, the exception class (ct_error_kind_name) and the message text,
    exactly, unless `ALLOWED_MESSAGE_DIFFS` lists the difference with a reason;
  * for every tensor result and every tensor input afterwards (in-place ops): dtype, shape, strides,
    storage offset, is_contiguous (and channels_last(_3d) for 4-D/5-D), values bit for bit except
    that NaN matches NaN whatever its sign and payload (bfloat16 through int16; complex per
    component; see "NaN policy" in README.md), whether it is the same handle as an input, and which
    inputs share its storage;
  * lists (split, unbind, ...) element by element; Python numbers by type and bits;
  * ctorch-only invariants: ct_copy_to_buffer agrees with the raw storage memory, the geometry stays
    inside its storage, releasing the results returns every input tensor and storage to its previous
    reference count (no leaked references), and a NULL tensor argument returns NULL / an error status
    without recording a new error (DESIGN.md section 2).
"""
import math
import re
import struct
import traceback
import zlib

import numpy as np
import torch

import ctorch as C
import data as D


class A:
    """Arguments of one call: positional and keyword, the same for both libraries. Any `Spec` among
    them (also inside lists/tuples) becomes a tensor in each."""

    def __init__(self, *args, **kw):
        self.args, self.kw = args, kw


class Spec:
    """A tensor input: shape, dtype and layout (None: contiguous; a kind from data.LAYOUTS; a list of
    kinds applied in order), random values unless `base` (a torch tensor of the final shape) fixes
    them. Gen.tensor() draws a random layout."""

    def __init__(self, shape, dtype, layout=None, specials=True, base=None):
        self.shape, self.dtype, self.layout, self.specials, self.base = tuple(shape), dtype, layout, specials, base


class Op:
    """One table entry.
    name      label in the report (also selects with --op);
    args      gen(g: Gen) -> A(...) or a tuple of positional arguments;
    torch, ct callables receiving the materialized arguments;
    weight    share of the case budget; min_cases a floor (e.g. to enumerate all dtype pairs);
    values    True: compare values bit for bit; False: geometry only (uninitialized memory);
              "if_storage_kept": only when the call did not grow any input's storage (resize_);
    tol       (rtol, atol) instead of bit equality for floating values (NaN matches NaN);
    null_check  call ct with a NULL handle in each tensor position once (off for queries that
              answer 0 / false for NULL by contract)."""

    def __init__(self, name, args, torch, ct, weight=1.0, min_cases=0, values=True, tol=None, null_check=True):
        self.name, self.gen, self.torch, self.ct = name, args, torch, ct
        self.weight, self.min_cases, self.values, self.tol, self.null_check = weight, min_cases, values, tol, null_check


# Known, documented differences between ctorch's and torch's message for the same failing call:
# (op name or "*", regex on torch's message, reason). Keep empty unless the reason is real.
ALLOWED_MESSAGE_DIFFS = []


class Gen:
    """What a generator draws from: the case rng plus helpers with the suite's distributions."""

    def __init__(self, rng, index):
        self.rng, self.index = rng, index

    def random(self):
        return float(self.rng.random())

    def chance(self, p):
        return self.rng.random() < p

    def int(self, lo, hi):
        """Uniform in [lo, hi] (inclusive)."""
        return int(self.rng.integers(lo, hi + 1))

    def choice(self, seq):
        return seq[int(self.rng.integers(len(seq)))]

    def shuffled(self, seq):
        seq = list(seq)
        self.rng.shuffle(seq)
        return seq

    def dtype(self, among=None):
        return self.choice(among or D.DTYPES)

    def shape(self, **kw):
        return D.rand_shape(self.rng, **kw)

    def layout(self):
        r = self.rng.random()
        if r < 0.35:
            return ["contiguous"]
        if r < 0.85:
            return [self.choice(D.LAYOUTS[1:])]
        return self.shuffled(D.LAYOUTS[1:])[:2]

    def tensor(self, shape=None, dtype=None, layout=None, **kw):
        """A Spec: random shape (kw: rand_shape's limits), dtype and layout unless given."""
        return Spec(self.shape(**kw) if shape is None else shape, dtype or self.dtype(), layout or self.layout())

    def dim(self, ndim, bad=0.1, scalar_ok=True):
        """A dim index for a tensor of ndim dims, negative half the time; with probability `bad` one
        just out of range (PyTorch's IndexError). ndim 0 accepts -1 and 0 like maybe_wrap_dim."""
        n = max(ndim, 1) if scalar_ok else ndim
        if self.chance(bad) or n == 0:
            return self.choice([n, -n - 1, n + 1, -n - 2])
        d = self.int(0, n - 1)
        return d - n if self.chance(0.5) else d


# ---- materializing inputs --------------------------------------------------------------------------

def _shape_str(shape):
    return "(%s%s)" % (", ".join(str(d) for d in shape), "," if len(shape) == 1 else "")


def materialize(spec, rng):
    kinds = spec.layout if isinstance(spec.layout, list) else (
        ["contiguous"] if spec.layout is None else [spec.layout])
    base_shape, steps = D.plan_layout(rng, spec.shape, kinds)
    tb = D.random_tensor(rng, base_shape, spec.dtype, spec.specials)
    t = D.apply_torch(tb, steps)
    if spec.base is not None:
        # Given values: written through the view (an expanded view cannot hold arbitrary values:
        # then the input is built contiguous).
        try:
            t.copy_(spec.base)
        except RuntimeError:
            steps, base_shape = [], spec.shape
            tb = t = spec.base.to(spec.dtype).clone()  # its own storage, even when dtypes match
    c = D.apply_ct(C.from_torch(tb), steps)
    desc = "tensor(%s, %s)" % (_shape_str(spec.shape), str(spec.dtype).replace("torch.", ""))
    if steps:
        desc += " from base%s%s" % (_shape_str(base_shape), D.describe(steps))
    return t, c, desc


def _map_specs(obj, fn):
    if isinstance(obj, Spec):
        return fn(obj)
    if isinstance(obj, list):
        return [_map_specs(o, fn) for o in obj]
    if isinstance(obj, tuple):
        return tuple(_map_specs(o, fn) for o in obj)
    return obj


def _fmt_arg(a):
    if isinstance(a, torch.Tensor):
        return "data(%s, %s)" % (list(a.shape), str(a.dtype).replace("torch.", ""))
    if isinstance(a, int) and not isinstance(a, bool) and a == C.CT_END:
        return "INT64_MAX"
    return repr(a)


# ---- summaries -------------------------------------------------------------------------------------

class TSum:
    """Everything observable about one tensor, from either library."""
    __slots__ = ("dtype", "shape", "stride", "offset", "contig", "requires_grad", "values", "same_as", "shares",
                 "storage_nbytes", "math_bits", "device")
    FIELDS = ("device", "dtype", "shape", "stride", "offset", "contig", "requires_grad", "same_as", "math_bits")

    def fields(self):
        return [(k, getattr(self, k)) for k in self.FIELDS]


_FORMATS = (torch.contiguous_format, torch.channels_last, torch.channels_last_3d)


def _torch_storage(x):
    """(identity of the StorageImpl, its bytes). The identity survives resize_ moving the data, as a
    ct_storage handle does."""
    s = x.storage()
    return s._storage._cdata, s.nbytes(), s


def _torch_readable(x):
    if any(d < 0 for d in x.shape):
        return False
    if x.numel() == 0:
        return True
    last = x.storage_offset() + sum((n - 1) * st for n, st in zip(x.shape, x.stride()))
    return (last + 1) * x.element_size() <= x.storage().nbytes()


def sum_torch(x, inputs, in_storage):
    if isinstance(x, torch.Tensor):
        s = TSum()
        s.dtype, s.shape, s.stride, s.offset = x.dtype, tuple(x.shape), tuple(x.stride()), x.storage_offset()
        s.contig = tuple(x.is_contiguous(memory_format=f) for f in _FORMATS)
        s.requires_grad = x.requires_grad
        s.math_bits = (x.is_conj(), x.is_neg())
        # torch itself can return a tensor with a negative size (unfold with size -1 in 1.13) or one
        # reaching past its storage (set_(storage, offset, [], []) on an empty storage does not grow
        # it): such a tensor has only its geometry to compare; reading it would crash.
        s.device = x.device.type
        s.values = C.torch_bits(x) if s.device != "meta" and _torch_readable(x) else None
        s.same_as = next((i for i, t in enumerate(inputs) if t is x), None)
        ident, s.storage_nbytes, _ = _torch_storage(x)
        s.shares = {i: ident == p[0] for i, p in enumerate(in_storage)}
        return s
    if isinstance(x, (list, tuple)) and not isinstance(x, torch.Size):
        return [sum_torch(v, inputs, in_storage) for v in x]
    return _py(x)


def sum_ct(x, inputs, in_storage):
    if isinstance(x, C.Tensor):
        s = TSum()
        s.dtype, s.shape, s.stride, s.offset = x.dtype, x.shape, x.stride(), x.storage_offset()
        s.contig = tuple(x.is_contiguous(f) for f in _FORMATS)
        s.requires_grad = bool(C.lib().ct_requires_grad(x.ptr))
        s.math_bits = x.math_bits()
        s.device = C.DEVICE_NAMES[C.lib().ct_device_of(x.ptr).type]
        handle, _, s.storage_nbytes, _ = x.storage_info()
        s.values = x  # read lazily: only when the geometry matched (reading a broken one may fault)
        s.same_as = next((i for i, t in enumerate(inputs) if t.ptr == x.ptr), None)
        s.shares = {i: handle == h for i, h in enumerate(in_storage)}
        return s
    if isinstance(x, (list, tuple)):
        return [sum_ct(v, inputs, in_storage) for v in x]
    return _py(x)


def _float_bits(x):
    """A float's bits, every NaN as one pattern (NaN policy: sign and payload are not compared)."""
    return struct.pack("<d", math.nan if math.isnan(x) else x)


def _py(v):
    """Python values compared by type and bits (floats: NaN == NaN whatever its bits, -0.0 != 0.0)."""
    if isinstance(v, torch.Size):
        return ("tuple", tuple(v))
    if isinstance(v, float):
        return ("float", _float_bits(v))
    if isinstance(v, complex):
        return ("complex", _float_bits(v.real) + _float_bits(v.imag))
    if isinstance(v, np.ndarray):
        return ("array", v.dtype.str, v.shape, canonical_nan(v).tobytes())
    if isinstance(v, dict):
        return ("dict", tuple(sorted((k, _py(x)) for k, x in v.items())))
    if isinstance(v, tuple):
        return ("tuple", tuple(_py(x) for x in v))
    return (type(v).__name__, v)


def _show_py(v):
    if isinstance(v, tuple) and len(v) == 2 and v[0] == "float":
        return repr(struct.unpack("<d", v[1])[0])
    if isinstance(v, tuple) and len(v) == 2 and v[0] == "complex":
        return repr(complex(*struct.unpack("<dd", v[1])))
    return repr(v)


# The largest distance in units in the last place between ctorch's and torch's finite floating values
# that were compared with a tolerance, since the last take_max_ulp() (the runner reports it per op).
_max_ulp = [0.0]


def take_max_ulp():
    v, _max_ulp[0] = _max_ulp[0], 0.0
    return v


def _ulp_distance(a, b):
    """max |a - b| / ulp(b) over the elements where both are finite (complex: per component), with ulp
    taken in the arrays' own precision."""
    if a.dtype.kind == "c":
        return max(_ulp_distance(a.real, b.real), _ulp_distance(a.imag, b.imag))
    a64, b64 = a.astype(np.float64).reshape(-1), b.astype(np.float64).reshape(-1)
    ok = np.isfinite(a64) & np.isfinite(b64) & (a64 != b64)
    if not ok.any():
        return 0.0
    ulp = np.spacing(np.abs(b.reshape(-1)[ok])).astype(np.float64)
    return float(np.max(np.abs(a64[ok] - b64[ok]) / ulp))


# The NaN policy (README.md): whether an element is NaN is compared, its sign and payload are not.
# Every NaN is rewritten to one pattern before bits are compared; everything else (signed zeros, the
# last bit of every number) stays exact.
_CANON_BF16 = np.int16(0x7FC0)


def canonical_nan(a, dt=None):
    """A copy of a (numpy values as the bridge reads them: bfloat16 as int16 bits when dt is
    torch.bfloat16) with every NaN replaced by the canonical quiet NaN; complex per component."""
    a = np.array(a, copy=True, order="C")
    if dt == torch.bfloat16 and a.dtype == np.int16:
        a[(a.view(np.uint16) & 0x7FFF) > 0x7F80] = _CANON_BF16
    elif a.dtype.kind == "c":
        parts = a.reshape(-1).view(a.real.dtype)  # re, im interleaved
        parts[np.isnan(parts)] = np.nan
    elif a.dtype.kind == "f":
        a[np.isnan(a)] = np.nan
    return a


def _values_equal(a, b, tol, dt=None):
    if a.dtype != b.dtype or a.shape != b.shape:
        return False
    if tol is None or a.dtype.kind not in "fc":
        return canonical_nan(a, dt).tobytes() == canonical_nan(b, dt).tobytes()
    rtol, atol = tol
    a64, b64 = a.astype(np.complex128), b.astype(np.complex128)
    both_nan = np.isnan(a64) & np.isnan(b64)
    same = (a64 == b64) | both_nan
    close = np.abs(a64 - b64) <= atol + rtol * np.abs(b64)
    _max_ulp[0] = max(_max_ulp[0], _ulp_distance(a, b))
    return bool(np.all(same | close))


def _show_values(a, dt):
    if dt == torch.bfloat16:
        a = torch.from_numpy(np.require(a, requirements="C")).view(torch.bfloat16).float().numpy()
    flat = np.require(a, requirements="C").reshape(-1)
    s = np.array2string(flat[:12], separator=", ")
    return s[:-1] + ", ...]" if flat.size > 12 else s


def _first_difference(a, b, dt):
    """Where two same-shape arrays first differ by bits (NaN by class), with both elements and their
    bits."""
    if a.shape != b.shape or a.dtype != b.dtype:
        return "arrays of %s %s vs %s %s" % (a.shape, a.dtype, b.shape, b.dtype)
    fa, fb = np.ascontiguousarray(a).reshape(-1), np.ascontiguousarray(b).reshape(-1)
    ca, cb = canonical_nan(fa, dt), canonical_nan(fb, dt)
    ba, bb = ca.view(np.uint8).reshape(fa.size, -1), cb.view(np.uint8).reshape(fb.size, -1)
    if not np.any(ba != bb):  # within a tolerance: the first element that is not bit-identical
        ba, bb = fa.view(np.uint8).reshape(fa.size, -1), fb.view(np.uint8).reshape(fb.size, -1)
    ba_raw, bb_raw = fa.view(np.uint8).reshape(fa.size, -1), fb.view(np.uint8).reshape(fb.size, -1)
    bad = np.nonzero(np.any(ba != bb, axis=1))[0]
    i = int(bad[0])
    show = lambda v, raw: "%s (0x%s)" % (_show_values(v[i:i + 1], dt)[1:-1], raw[i][::-1].tobytes().hex())
    return "%d of %d elements differ; first at flat index %d (%s): torch %s, ctorch %s" % (
        bad.size, fa.size, i, np.unravel_index(i, a.shape) if a.shape else (), show(fa, ba_raw),
        show(fb, bb_raw))


def compare(ts, cs, path, tol, values, out):
    """Appends a line per mismatch between torch's summary ts and ctorch's cs to out."""
    if isinstance(ts, TSum) != isinstance(cs, TSum):
        out.append("%s: torch gives %s, ctorch %s" % (path, type(ts).__name__, type(cs).__name__))
        return
    if isinstance(ts, TSum):
        geometry_ok = True
        for (k, tv), (_, cv) in zip(ts.fields(), cs.fields()):
            if tv != cv:
                out.append("%s.%s: torch %s, ctorch %s" % (path, k, tv, cv))
                geometry_ok = geometry_ok and k in ("contig", "requires_grad", "same_as", "math_bits")
        for i, tv in ts.shares.items():
            if tv != cs.shares.get(i):
                out.append("%s: shares storage with input %d: torch %s, ctorch %s" % (path, i, tv, cs.shares.get(i)))
        if not geometry_ok or not values or ts.values is None:
            return
        x = cs.values
        try:
            raw = x.seen_values()  # storage memory read with the tensor's conj/neg bits applied
        except AssertionError as e:
            out.append("%s: %s" % (path, e))
            return
        api = x.values()
        if api.tobytes() != raw.tobytes():
            out.append("%s: ct_copy_to_buffer %s disagrees with storage memory %s"
                       % (path, _show_values(api, ts.dtype), _show_values(raw, ts.dtype)))
        if not _values_equal(raw, ts.values, tol, ts.dtype):
            out.append("%s.values: %s\n      torch:  %s\n      ctorch: %s" % (
                path, _first_difference(ts.values, raw, ts.dtype), _show_values(ts.values, ts.dtype),
                _show_values(raw, ts.dtype)))
        return
    if isinstance(ts, list) and isinstance(cs, list):
        if len(ts) != len(cs):
            out.append("%s: torch gives %d tensors, ctorch %d" % (path, len(ts), len(cs)))
            return
        for i, (a, b) in enumerate(zip(ts, cs)):
            compare(a, b, "%s[%d]" % (path, i), tol, values, out)
        return
    if ts != cs:
        out.append("%s: torch %s, ctorch %s" % (path, _show_py(ts), _show_py(cs)))


# ---- one case --------------------------------------------------------------------------------------

class Result:
    PASS, FAIL, SKIP = "pass", "fail", "skip"

    def __init__(self, status, lines=(), desc="", missing=None, null_checked=False):
        self.status, self.lines, self.desc, self.missing = status, list(lines), desc, missing
        self.null_checked = null_checked


def _nan_unsigned(msg):
    """A message with the signs of its printed NaNs dropped: the NaN policy (README.md) compares whether a value
    is NaN, not its sign, and a message that prints one (histogram's "range [-nan, -nan]") follows it."""
    return re.sub(r"-nan\b", "nan", msg)


def _message_allowed(opname, tmsg):
    return any(name in ("*", opname) and re.search(rx, tmsg) for name, rx, _ in ALLOWED_MESSAGE_DIFFS)


def _call(fn, args, kw):
    try:
        return ("ok", fn(*args, **kw))
    except C.Missing:
        raise
    except C.CTError as e:
        return ("err", e.kind, e.message)
    except Exception as e:  # torch's exception: its class name and text are what ctorch must match
        return ("err", type(e).__name__, str(e))


def _snapshot(c):
    """A ctorch tensor's complete state: geometry, storage, bytes of its elements."""
    handle, _, nbytes, _ = c.storage_info()
    return (c.dtype, c.shape, c.stride(), c.storage_offset(), handle, nbytes, c.raw_values().tobytes())


def _pin_storages(cin):
    """Storage handle -> refcount (excluding our pins) for every input's storage; pins them."""
    L = C.lib()
    pins = {}
    for t in cin:
        s = L.ct_untyped_storage(t.ptr)
        if s in pins:
            L.ct_storage_release(s)
        else:
            pins[s] = None
    for s in pins:
        pins[s] = L.ct_storage_refcount(s) - 1
    return pins


def _leak_check(cin, pins, before_refs, out):
    """After the results are released: every input handle and every storage (pinned before the call,
    or now held by an input) must be back to its reference count from before the call."""
    L = C.lib()
    for i, (t, r) in enumerate(zip(cin, before_refs)):
        if t.refcount() != r:
            out.append("leak: input %d has %d references after the results were released (had %d)"
                       % (i, t.refcount(), r))
    total_before = sum(pins.values())
    now = {}
    for t in cin:
        s = L.ct_untyped_storage(t.ptr)
        if s in pins or s in now:
            L.ct_storage_release(s)
        else:
            now[s] = L.ct_storage_refcount(s) - 1
            L.ct_storage_release(s)
    total_after = sum(L.ct_storage_refcount(s) - 1 for s in pins) + sum(now.values())
    for s in pins:
        L.ct_storage_release(s)
    if total_after != total_before:
        out.append("leak: input storages hold %d references after the results were released (had %d)"
                   % (total_after, total_before))


def _audit_references(mark, pins, out):
    """Each result handle's refcount equals the number of handles the bridge holds for it, and each
    result's storage refcount equals the number of held tensors on that storage: a result born with
    an extra reference (to itself or its storage) would otherwise leak unnoticed."""
    L = C.lib()
    held = {}
    storages = {}
    for t in C._arena:
        held[t.ptr] = held.get(t.ptr, 0) + 1
    for t in set(x.ptr for x in C._arena):
        s = L.ct_untyped_storage(t)
        storages.setdefault(s, [0, t])[0] += 1
        L.ct_storage_release(s)
    for t in C._arena[mark:]:
        if t.refcount() != held[t.ptr]:
            out.append("leak: a result handle has %d references, the caller holds %d" % (t.refcount(), held[t.ptr]))
            return
        s = L.ct_untyped_storage(t.ptr)
        n = L.ct_storage_refcount(s) - 1 - (s in pins)  # neither our query nor our pin
        L.ct_storage_release(s)
        if n != storages[s][0]:
            out.append("leak: a result's storage has %d references, %d tensors use it" % (n, storages[s][0]))
            return


_SENTINEL = None


def _sentinel_error():
    """Records a known error (ct_empty with a negative size) and returns it."""
    global _SENTINEL
    try:
        C.empty((-1,))
    except C.CTError as e:
        _SENTINEL = (e.kind, e.message)
    return _SENTINEL


def _null_check(op, cargs, ckw, out):
    """Each tensor argument replaced by NULL in turn: the call must fail and keep the recorded error."""
    positions = [i for i, a in enumerate(cargs) if isinstance(a, C.Tensor)]
    for i in positions:
        args = list(cargs)
        args[i] = C.Tensor(None)
        expect = _sentinel_error()
        try:
            r = op.ct(*args, **ckw)
            out.append("NULL tensor as argument %d: the call succeeded (returned %r)" % (i, type(r).__name__))
        except C.CTError as e:
            if (e.kind, e.message) != expect:
                out.append("NULL tensor as argument %d: recorded a new error %s: %r (must keep %s: %r)"
                           % (i, e.kind, e.message, expect[0], expect[1]))
        except C.Missing:
            pass
        # with no error pending, a NULL argument is an error of its own: a ValueError naming the argument
        C.lib().ct_clear_error()
        try:
            op.ct(*args, **ckw)
        except C.CTError as e:
            if e.kind != "ValueError" or not re.search(r"argument '\w+'( \(position \d+\))? is NULL", e.message):
                out.append("NULL tensor as argument %d with no error pending: recorded %s: %r (must be a ValueError "
                           "naming the NULL argument)" % (i, e.kind, e.message))
        except C.Missing:
            pass


def run_case(op, seed, index, do_null_check=False, announce=None):
    """Runs case `index` of op; announce(desc), if given, is called right before the two calls (the
    runner records it, to name a case that crashes the process)."""
    rng = np.random.default_rng([seed, zlib.crc32(op.name.encode()), index])
    g = Gen(rng, index)
    spec = op.gen(g)
    if not isinstance(spec, A):
        spec = A(*spec)
    descs, tin, cin = [], [], []
    try:
        for sp in _unique_specs(spec):
            t, c, d = materialize(sp, rng)
            tin.append(t)
            cin.append(c)
            descs.append(d)
    except C.Missing as e:
        C.release_all()
        return Result(Result.SKIP, missing=str(e))
    except C.CTError as e:
        C.release_all()
        return Result(Result.FAIL, ["building an input failed in ctorch: %s" % e], _describe(op, spec, descs))
    desc = _describe(op, spec, descs)
    targs, tkw = _substitute(spec, tin)
    cargs, ckw = _substitute(spec, cin)

    lines = []
    # The inputs must agree before the call, or nothing after it means anything.
    t_in_storage = [_torch_storage(t) for t in tin]
    c_in_handles = [c.storage_info()[0] for c in cin]
    for i, (t, c) in enumerate(zip(tin, cin)):
        ts, cs = sum_torch(t, [], t_in_storage), sum_ct(c, [], c_in_handles)
        ts.contig = cs.contig = None  # judged on results (and by the is_contiguous entry), not here
        compare(ts, cs, "input[%d] as built" % i, None, True, lines)
    if lines:
        C.release_all()
        return Result(Result.FAIL, lines, desc)

    if announce:
        announce(desc)
    pins = _pin_storages(cin)
    before_refs = [c.refcount() for c in cin]
    before_state = [_snapshot(c) for c in cin]
    mark = len(C._arena)
    tres = _call(op.torch, targs, tkw)
    try:
        cres = _call(op.ct, cargs, ckw)
    except C.Missing as e:
        for s in pins:
            C.lib().ct_storage_release(s)
        C.release_all()
        return Result(Result.SKIP, missing=str(e))
    except Exception:
        for s in pins:
            C.lib().ct_storage_release(s)
        C.release_all()
        return Result(Result.FAIL, ["harness error in the ctorch call:\n" + traceback.format_exc()], desc)

    values = op.values
    if values == "if_storage_kept":
        values = all(st.nbytes() == n for _, n, st in t_in_storage)

    try:
        _compare_call(op, tres, cres, tin, cin, t_in_storage, c_in_handles, values, lines)
        if cres[0] == "err":
            # DESIGN.md: a failed call leaves its inputs (and in-place targets) unchanged, even where
            # torch's failing call has already changed them (set_ with a bad offset in 1.13).
            for i, (c, b) in enumerate(zip(cin, before_state)):
                if _snapshot(c) != b:
                    lines.append("input[%d] changed by a failing call: %s -> %s" % (i, b[:5], _snapshot(c)[:5]))
    except Exception:
        lines.append("harness error while comparing:\n" + traceback.format_exc())

    # Every reference must be accounted for by a handle we hold, then dropping the results (not the
    # inputs) must give every input and storage its old count back.
    _audit_references(mark, pins, lines)
    C.release_from(mark)
    _leak_check(cin, pins, before_refs, lines)
    null_checked = do_null_check and op.null_check and cres[0] == "ok"
    if null_checked:
        _null_check(op, cargs, ckw, lines)
    C.release_all()
    if C.live_blobs():
        lines.append("leak: %d from_blob buffers were never handed to their deleter" % C.live_blobs())
        C._blobs.clear()
    return Result(Result.FAIL if lines else Result.PASS, lines, desc, null_checked=null_checked)


def _compare_call(op, tres, cres, tin, cin, t_in_storage, c_in_handles, values, lines):
    if tres[0] != cres[0]:
        if tres[0] == "err":
            lines.append("torch raised %s: %r; ctorch succeeded" % (tres[1], tres[2]))
        else:
            lines.append("torch succeeded; ctorch raised %s: %r" % (cres[1], cres[2]))
    elif tres[0] == "err":
        if tres[1] != cres[1]:
            lines.append("error kind: torch %s, ctorch %s (messages: %r / %r)" % (tres[1], cres[1], tres[2], cres[2]))
        elif _nan_unsigned(tres[2]) != _nan_unsigned(cres[2]) and not _message_allowed(op.name, tres[2]):
            lines.append("error message (%s):\n      torch:  %r\n      ctorch: %r" % (tres[1], tres[2], cres[2]))
    else:
        compare(sum_torch(tres[1], tin, t_in_storage), sum_ct(cres[1], cin, c_in_handles), "result", op.tol, values,
                lines)
    # Inputs afterwards: in-place ops change them, nothing else may. (When both failed, the check
    # against the state before the call in run_case applies instead.)
    if tres[0] == "err" and cres[0] == "err":
        return
    for i, (t, c) in enumerate(zip(tin, cin)):
        compare(sum_torch(t, tin, t_in_storage), sum_ct(c, cin, c_in_handles), "input[%d] after the call" % i,
                op.tol, values, lines)



def _flat_specs(spec):
    """The Specs of a call in order: positional arguments first, then keyword values."""
    out = []
    _map_specs([list(spec.args), list(spec.kw.values())], out.append)
    return out


def _unique_specs(spec):
    """The distinct Specs (by identity: one Spec passed twice is one tensor passed twice)."""
    seen, out = set(), []
    for s in _flat_specs(spec):
        if id(s) not in seen:
            seen.add(id(s))
            out.append(s)
    return out


def _substitute(spec, lib_inputs):
    """spec's arguments with each Spec replaced by that library's tensor (lib_inputs follows
    _unique_specs order)."""
    index = {id(s): i for i, s in enumerate(_unique_specs(spec))}
    take = lambda s: lib_inputs[index[id(s)]]
    args = _map_specs(list(spec.args), take)
    kw = {k: _map_specs(v, take) for k, v in spec.kw.items()}
    return args, kw


def _describe(op, spec, descs):
    it = iter(descs)
    fmt = lambda s: next(it, "tensor(?)")
    parts = [_fmt_nested(a, fmt) for a in spec.args]
    parts += ["%s=%s" % (k, _fmt_nested(v, fmt)) for k, v in spec.kw.items()]
    return "%s(%s)" % (op.name, ", ".join(parts))


def _fmt_nested(a, fmt):
    if isinstance(a, Spec):
        return fmt(a)
    if isinstance(a, list):
        return "[%s]" % ", ".join(_fmt_nested(x, fmt) for x in a)
    if isinstance(a, tuple):
        return "(%s%s)" % (", ".join(_fmt_nested(x, fmt) for x in a), "," if len(a) == 1 else "")
    return _fmt_arg(a)


def case_count(op, total, total_weight):
    return max(op.min_cases, int(math.ceil(total * op.weight / total_weight)))
