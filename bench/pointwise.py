#!/usr/bin/env python3
"""Pointwise ops: ctorch (through ctypes) and torch timed alternately in one process, pair by pair.

For each op and thread count, REPS rounds each time one ctorch call and one torch call on the same
inputs (a warm-up first) and the median of the per-round time ratios torch/ctorch is reported (> 1:
ctorch faster). Memory-bound ops also print the bandwidth ctorch reached beside the machine's triad
bandwidth at that thread count. ctypes adds ~1 us per call, nothing beside 16M-element ops."""
import ctypes
import os
import subprocess
import sys

import torch

from bench_common import paired as common_paired  # noqa: E402  (the same library, loaded once)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = os.environ.get("CTORCH_BUILD", os.path.join(ROOT, "build"))
REPS = int(os.environ.get("BENCH_REPS", "9"))
sys.path.insert(0, os.path.join(ROOT, "tests", "diff"))

lib = ctypes.CDLL(os.path.join(BUILD, "libctorch.so"))
P = ctypes.c_void_p


class Shape(ctypes.Structure):
    _fields_ = [("data", ctypes.POINTER(ctypes.c_int64)), ("ndim", ctypes.c_int64)]


class TensorOpts(ctypes.Structure):
    _fields_ = [("dtype", ctypes.c_int), ("device_type", ctypes.c_int), ("device_index", ctypes.c_int32),
                ("layout", ctypes.c_int), ("memory_format", ctypes.c_int), ("requires_grad", ctypes.c_bool)]


DT = {torch.float32: 9, torch.float64: 10, torch.int32: 5, torch.float16: 7, torch.int64: 6}
for name, res, args in [("ct_ones", P, [Shape, P]), ("ct_release", None, [P]), ("ct_set_num_threads", None, [ctypes.c_int]),
                        ("ct_transpose", P, [P, ctypes.c_int64, ctypes.c_int64]), ("ct_contiguous", P, [P, ctypes.c_int])]:
    f = getattr(lib, name)
    f.restype, f.argtypes = res, args


def shape(*dims):
    arr = (ctypes.c_int64 * len(dims))(*dims)
    return Shape(arr, len(dims))


def ct_ones(dims, dtype=torch.float32):
    return lib.ct_ones(shape(*dims), ctypes.byref(TensorOpts(dtype=DT[dtype])))


def fn(name, nargs):
    if not hasattr(lib, name):
        return None
    f = getattr(lib, name)
    f.restype = P
    f.argtypes = [P] * nargs
    return f


def triad(threads):
    out = subprocess.run([os.path.join(BUILD, "bench", "bench_stream"), str(threads)], capture_output=True, text=True)
    return float(out.stdout.split()[1])


def paired(ct_call, torch_call, release=True):
    """bench_common.paired (at 2 threads each library's turn after a pause, turns of ~1 ms): the ratio and
    ctorch's time; release: ct_call returns a new tensor to release."""
    ct_call_r = (lambda: lib.ct_release(ct_call())) if release else ct_call
    r, tc, _ = common_paired(ct_call_r, torch_call, REPS)
    return r, tc


N = 16 << 20


def cases():
    """(label, target ratio, bytes moved or 0, ctorch call maker, torch call maker)"""
    def unary(name, tname):
        return lambda: (lambda f, a: (lambda: f(a)))(fn("ct_" + name, 1), ct_ones([N])), \
               lambda: (lambda a: (lambda: getattr(torch, tname)(a)))(torch.ones(N))

    out = []
    a, b = ct_ones([N]), ct_ones([N])
    ta, tb = torch.ones(N), torch.ones(N)
    add = lib.ct_add if hasattr(lib, "ct_add") else None
    if add:
        add.restype, add.argtypes = P, [P, P, P]
        out.append(("a + b, 16M f32, new output", 2.0, 12 * N, lambda: add(a, b, None), lambda: ta + tb, True))
        add_ = lib.ct_add_; add_.restype, add_.argtypes = ctypes.c_int, [P, P, P]
        out.append(("add_ in place, 16M f32", 1.0, 12 * N, lambda: add_(a, b, None), lambda: ta.add_(tb), False))
        add_out = lib.ct_add_out; add_out.restype, add_out.argtypes = ctypes.c_int, [P, P, P, P]
        o, to = ct_ones([N]), torch.ones(N)
        out.append(("add(out=), 16M f32", 1.0, 12 * N, lambda: add_out(o, a, b, None), lambda: torch.add(ta, tb, out=to), False))
        col, tcol = ct_ones([4096, 1]), torch.ones(4096, 1)
        big, tbig = ct_ones([4096, 4096]), torch.ones(4096, 4096)
        out.append(("broadcast add 4096x4096 + 4096x1", 2.0, 8 * N, lambda: add(big, col, None), lambda: tbig + tcol, True))
        bt, tbt = lib.ct_transpose(big, 0, 1), tbig.t()
        out.append(("A + B.t() 4096x4096", 4.0, 12 * N, lambda: add(big, bt, None), lambda: tbig + tbt, True))
        i32, ti32 = ct_ones([N], torch.int32), torch.ones(N, dtype=torch.int32)
        out.append(("int32 + float32, 16M (promoting)", 2.0, 12 * N, lambda: add(i32, a, None), lambda: ti32 + ta, True))
        h1, h2 = ct_ones([N], torch.float16), ct_ones([N], torch.float16)
        th1, th2 = torch.ones(N, dtype=torch.float16), torch.ones(N, dtype=torch.float16)
        out.append(("float16 add, 16M", 1.0, 6 * N, lambda: add(h1, h2, None), lambda: th1 + th2, True))
    addcmul = fn("ct_addcmul", 4)
    if addcmul:
        c = ct_ones([N]); tc = torch.ones(N)
        out.append(("addcmul, 16M f32", 1.8, 16 * N, lambda: addcmul(a, b, c, None), lambda: torch.addcmul(ta, tb, tc), True))
    for name in ["exp", "sin", "tanh", "sigmoid", "erf"]:
        f = fn("ct_" + name, 1)
        if f:
            out.append((f"{name}, 16M f32", 1.5, 8 * N, (lambda f: lambda: f(a))(f), (lambda n: lambda: getattr(torch, n)(ta))(name), True))
    return out


def main():
    print("pointwise: ratio = torch time / ctorch time (median of paired rounds); > 1 means ctorch is faster")
    for threads in (1, 2):
        lib.ct_set_num_threads(threads)
        torch.set_num_threads(threads)
        bw = triad(threads)
        print(f"-- {threads} thread(s); machine triad bandwidth {bw:.1f} GB/s")
        for label, target, nbytes, ct_call, torch_call, release in cases():
            r, t = paired(ct_call, torch_call, release)
            gbs = f"  {nbytes / t / 1e9:5.1f} GB/s ({100 * nbytes / t / 1e9 / bw:3.0f}% of triad)" if nbytes else ""
            flag = "ok " if r >= target else "LOW"
            print(f"  {flag} {label:36s} {r:5.2f}x  (target >= {target}x){gbs}")
    lib.ct_set_num_threads(0)


if __name__ == "__main__":
    main()
