#!/usr/bin/env python3
"""Scans: ctorch (through ctypes) and torch timed alternately in one process on the same inputs, at 1
and 2 threads. For each case REPS rounds each time one ctorch call and one torch call (after a warm-up);
the median of the per-round ratios torch/ctorch is printed (> 1: ctorch faster).

The target (issue 5): cumsum of 16M float32 >= 2x PyTorch. PyTorch scans one line on one thread
whatever its thread count; ctorch splits a long line over threads when the result stays bit-identical
(src/ops/scan/scan_cumsum_f32.c), so its 2-thread row is the one the target reads. Inputs: torch.rand
(values on a 2^-24 grid: every block sums exactly) and randn (most blocks exact, the rest sequential).
Every pair is also checked to be bit-identical."""
import ctypes
import os
import statistics
import sys
import time

import torch

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = os.environ.get("CTORCH_BUILD", os.path.join(ROOT, "build"))
REPS = int(os.environ.get("BENCH_REPS", "9"))

lib = ctypes.CDLL(os.path.join(BUILD, "libctorch.so"))
P = ctypes.c_void_p


class Shape(ctypes.Structure):
    _fields_ = [("data", ctypes.POINTER(ctypes.c_int64)), ("ndim", ctypes.c_int64)]


class ScanOpts(ctypes.Structure):
    _fields_ = [("dtype", ctypes.c_int)]


DT = {torch.float32: 9, torch.float64: 10, torch.int32: 5, torch.int64: 6}
for name, res, args in [("ct_tensor_from_data", P, [P, ctypes.c_int, Shape, P]), ("ct_release", None, [P]),
                        ("ct_set_num_threads", None, [ctypes.c_int]), ("ct_cumsum", P, [P, ctypes.c_int64, P]),
                        ("ct_cumsum_out", ctypes.c_int, [P, P, ctypes.c_int64, P]),
                        ("ct_cumprod", P, [P, ctypes.c_int64, P]),
                        ("ct_data_ptr", P, [P]), ("ct_numel", ctypes.c_int64, [P])]:
    f = getattr(lib, name)
    f.restype, f.argtypes = res, args


def to_ct(t):
    t = t.contiguous()
    dims = (ctypes.c_int64 * t.dim())(*t.shape)
    return lib.ct_tensor_from_data(t.data_ptr(), DT[t.dtype], Shape(dims, t.dim()), None)


def same_bits(ct, t):
    n = t.numel()
    buf = (ctypes.c_char * (n * t.element_size())).from_address(lib.ct_data_ptr(ct))
    return bytes(buf) == t.contiguous().numpy().tobytes()


def paired(ct_call, torch_call):
    ct_call(), torch_call()
    ratios, times = [], []
    for _ in range(REPS):
        t0 = time.perf_counter(); ct_call(); t1 = time.perf_counter()
        torch_call(); t2 = time.perf_counter()
        ratios.append((t2 - t1) / (t1 - t0))
        times.append((t1 - t0, t2 - t1))
    return statistics.median(ratios), statistics.median(c for c, _ in times), statistics.median(t for _, t in times)


N = 16 << 20


def cases():
    """(label, target, ctorch call, torch call, check): check() -> bit-identical results."""
    torch.manual_seed(0)
    out = []
    for gen in ("rand", "randn"):
        x = getattr(torch, gen)(N)
        cx, co, to = to_ct(x), to_ct(torch.empty(N)), torch.empty(N)
        out.append((f"cumsum 16M f32 {gen}, out=", 2.0 if gen == "rand" else None,
                    (lambda cx, co: lambda: lib.ct_cumsum_out(co, cx, 0, None))(cx, co),
                    (lambda x, to: lambda: torch.cumsum(x, 0, out=to))(x, to),
                    (lambda co, to: lambda: same_bits(co, to))(co, to)))
        out.append((f"cumsum 16M f32 {gen}, new output", None,
                    (lambda cx: lambda: lib.ct_release(lib.ct_cumsum(cx, 0, None)))(cx),
                    (lambda x: lambda: torch.cumsum(x, 0))(x), None))
    m = torch.randn(4096, 4096)
    cm = to_ct(m)
    for d in (0, 1):
        co, to = to_ct(torch.empty(4096, 4096)), torch.empty(4096, 4096)
        out.append((f"cumsum 4096x4096 f32 dim {d}, out=", None,
                    (lambda co, d: lambda: lib.ct_cumsum_out(co, cm, d, None))(co, d),
                    (lambda to, d: lambda: torch.cumsum(m, d, out=to))(to, d),
                    (lambda co, to: lambda: same_bits(co, to))(co, to)))
    xi = torch.randint(-100, 100, (N,), dtype=torch.int32)
    cxi = to_ct(xi)
    out.append(("cumsum 16M int32 -> int64", None, lambda: lib.ct_release(lib.ct_cumsum(cxi, 0, None)),
                lambda: torch.cumsum(xi, 0), None))
    return out


def main():
    print("scans: ratio = torch time / ctorch time (median of paired rounds); > 1 means ctorch is faster")
    all_cases = cases()
    for threads in (1, 2):
        lib.ct_set_num_threads(threads)
        torch.set_num_threads(threads)
        print(f"-- {threads} thread(s)")
        for label, target, ct_call, torch_call, check in all_cases:
            r, tc, tt = paired(ct_call, torch_call)
            same = "" if check is None else ("  bit-identical" if check() else "  RESULTS DIFFER")
            goal = f"(target >= {target}x)" if target else ""
            flag = "   " if not target else ("ok " if r >= target else "LOW")
            print(f"  {flag} {label:34s} {r:5.2f}x  ctorch {tc * 1e3:7.2f} ms  torch {tt * 1e3:7.2f} ms {goal}{same}")
    lib.ct_set_num_threads(0)


if __name__ == "__main__":
    sys.exit(main())
