"""Compares the bits of two ctorch builds, and of 1, 2 and 3 threads, over large inputs that go parallel
(reductions, scans, pointwise with tiles, casts and complex kernels, randn, in-place cumsum):
  /usr/bin/python3 bench/threads_bits.py OLD/libctorch.so NEW/libctorch.so
Prints the cases whose bits differ between the builds, and those that depend on the thread count in the
last build (complex abs and mul do, as in PyTorch: their vector and scalar paths differ and PyTorch
cuts rows where threads split)."""
import ctypes, sys, hashlib
import torch
P = ctypes.c_void_p
from ct_structs import Complex, RandomOpts, ReduceOpts, Scalar, ScalarValue, Shape, VarOpts  # noqa: F401
DT = {torch.float64: 10, torch.float32: 9, torch.float64: 10, torch.complex64: 11, torch.int32: 5, torch.float16: 7}
KEEP = []
def shape(d):
    a = (ctypes.c_int64 * max(1, len(d)))(*d); s = Shape(a, len(d)); KEEP.append(a); return s

def load(path):
    lib = ctypes.CDLL(path)
    sig = [("ct_tensor_from_data", P, [P, ctypes.c_int, Shape, P]), ("ct_release", None, [P]),
           ("ct_set_num_threads", None, [ctypes.c_int]), ("ct_nbytes", ctypes.c_int64, [P]), ("ct_dtype_of", ctypes.c_int, [P]),
           ("ct_copy_to_buffer", ctypes.c_int, [P, P, ctypes.c_int, ctypes.c_size_t]), ("ct_t", P, [P]),
           ("ct_add", P, [P, P, P]), ("ct_mul", P, [P, P]), ("ct_abs", P, [P]), ("ct_exp", P, [P]), ("ct_to_dtype", P, [P, ctypes.c_int]),
           ("ct_cumsum", P, [P, ctypes.c_int64, P]), ("ct_cumprod", P, [P, ctypes.c_int64, P]), ("ct_logcumsumexp", P, [P, ctypes.c_int64]),
           ("ct_cummax", ctypes.c_int, [P, ctypes.c_int64, ctypes.POINTER(P), ctypes.POINTER(P)]),
           ("ct_randn", P, [Shape, P]), ("ct_manual_seed", ctypes.c_int, [ctypes.c_int64]), ("ct_sqrt", P, [P]), ("ct_cumsum_out", ctypes.c_int, [P, P, ctypes.c_int64, P])]
    sig += [(f, P, [P, P]) for f in ("ct_sum", "ct_mean", "ct_argmax", "ct_var", "ct_std", "ct_amax", "ct_nansum", "ct_logsumexp")]
    for n, r, a in sig:
        f = getattr(lib, n); f.restype, f.argtypes = r, a
    return lib

def data(t):
    return t.contiguous()

def cases(lib, T):
    def ct(t):
        p = lib.ct_tensor_from_data(t.data_ptr(), DT[t.dtype], shape(list(t.shape)), None); KEEP.append(p); return p
    x, y, m, m2, xd, xc, xh = (ct(T[k]) for k in ("x", "y", "m", "m2", "xd", "xc", "xh"))
    mt = lib.ct_t(m2)
    def red(f, t, dims, O=ReduceOpts):
        o = O(); o.dims = shape(dims); KEEP.append(o); return lambda: f(t, ctypes.byref(o))
    def cm(t, d):
        def run():
            v, i = P(), P()
            assert lib.ct_cummax(t, d, ctypes.byref(v), ctypes.byref(i)) == 0
            return [v.value, i.value]
        return run
    def rn(dt, n):
        def run():
            lib.ct_manual_seed(7); o = RandomOpts(None, dt); return lib.ct_randn(shape([n]), ctypes.byref(o))
        return run
    def inplace():
        z = lib.ct_add(x, y, None)
        assert lib.ct_cumsum_out(z, z, 0, None) == 0
        return z
    return [("cumsum inplace", inplace), ("sum x", red(lib.ct_sum, x, [])), ("mean x", red(lib.ct_mean, x, [])), ("var x", red(lib.ct_var, x, [], VarOpts)),
            ("argmax x", red(lib.ct_argmax, x, [])), ("nansum x", red(lib.ct_nansum, x, [])), ("sum m 0", red(lib.ct_sum, m, [0])),
            ("sum m 1", red(lib.ct_sum, m, [1])), ("sum mt 1", red(lib.ct_sum, mt, [1])), ("amax m 0", red(lib.ct_amax, m, [0])),
            ("var m 1", red(lib.ct_var, m, [1], VarOpts)), ("std xd", red(lib.ct_std, xd, [], VarOpts)), ("lse m 0", red(lib.ct_logsumexp, m, [0])),
            ("sum xh", red(lib.ct_sum, xh, [])), ("sum xc", red(lib.ct_sum, xc, [])),
            ("cumsum x", lambda: lib.ct_cumsum(x, 0, None)), ("cumsum m 0", lambda: lib.ct_cumsum(m, 0, None)),
            ("cumsum m 1", lambda: lib.ct_cumsum(m, 1, None)), ("cumprod m 1", lambda: lib.ct_cumprod(m, 1, None)),
            ("lcse m 0", lambda: lib.ct_logcumsumexp(m, 0)), ("cummax m 1", cm(m, 1)), ("cummax mt 0", cm(mt, 0)), ("cumsum xd", lambda: lib.ct_cumsum(xd, 0, None)),
            ("add x y", lambda: lib.ct_add(x, y, None)), ("add m mt", lambda: lib.ct_add(m, mt, None)), ("mul m m", lambda: lib.ct_mul(m, m)),
            ("abs xc", lambda: lib.ct_abs(xc)), ("sqrt xc", lambda: lib.ct_sqrt(xc)), ("mul xc xc", lambda: lib.ct_mul(xc, xc)), ("add xc xc", lambda: lib.ct_add(xc, xc, None)),
            ("exp x", lambda: lib.ct_exp(x)), ("to f64", lambda: lib.ct_to_dtype(x, 10)), ("add m md", lambda: lib.ct_add(m, ct(T["md"]), None)),
            ("abs xh", lambda: lib.ct_abs(xh)), ("abs mt", lambda: lib.ct_abs(mt)), ("sqrt mt c", lambda: lib.ct_sqrt(lib.ct_t(ct(T["mc"])))),
            ("randn f32", rn(9, (16 << 20) + 5)), ("randn f64", rn(10, (4 << 20) + 3))]

def digest(lib, r):
    rs = r if isinstance(r, list) else [r]
    h = hashlib.sha1()
    for p in rs:
        assert p, "call failed: " + str(ctypes.CDLL(sys.argv[1]).ct_last_error_message and "")
        n = lib.ct_nbytes(p); buf = ctypes.create_string_buffer(max(1, n))
        assert lib.ct_copy_to_buffer(p, buf, lib.ct_dtype_of(p), n) == 0
        h.update(buf.raw[:n]); lib.ct_release(p)
    return h.hexdigest()

torch.manual_seed(0)
N = (16 << 20) + 12345
T = {"x": torch.randn(N), "y": torch.randn(N), "m": torch.randn(3001, 4099), "m2": torch.randn(4099, 3001),
     "xd": torch.randn((5 << 20) + 3, dtype=torch.float64), "xc": torch.randn((2 << 20) + 7, dtype=torch.complex64),
     "xh": torch.randn((4 << 20) + 1).half(), "mc": torch.randn(1501, 1403, dtype=torch.complex64), "md": torch.randn(3001, 4099, dtype=torch.float64)}
res = {}
for path in sys.argv[1:]:
    lib = load(path)
    cs = cases(lib, T)
    for nt in (1, 2, 3):
        lib.ct_set_num_threads(nt)
        for name, f in cs:
            try:
                res[(path, nt, name)] = digest(lib, f())
            except AssertionError:
                print("failed:", name); res[(path, nt, name)] = "fail"
bad = 0
names = [n for n, _ in cs]
for name in names:
    for nt in (1, 2, 3):
        ds = {res[(p, nt, name)] for p in sys.argv[1:]}
        if len(ds) != 1:
            print("DIFF builds", name, nt); bad += 1
    ds = {res[(sys.argv[-1], nt, name)] for nt in (1, 2, 3)}
    if len(ds) != 1:
        print("thread-dependent (last build):", name)
print("compared", len(names), "cases x 3 thread counts;", "OK" if not bad else f"{bad} differences")
