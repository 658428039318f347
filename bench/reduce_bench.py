#!/usr/bin/env python3
"""Reductions: ctorch (through ctypes) and torch timed alternately in one process on the same float32
inputs (torch.randn), at 1 and 2 threads. For each case REPS rounds each time one ctorch call and one
torch call (after a warm-up); the median of the per-round ratios torch/ctorch is printed (> 1: ctorch
faster), with the targets of issue 5. The cases that read their input once (16M sum, mean and max, the
dim sums) also print the read bandwidth ctorch reached beside the machine's triad bandwidth (bench_stream)
at that thread count. "max 1M (in cache)" has no target: its 4 MiB input stays in L3, so it shows the max
kernels where memory bandwidth does not cap both libraries, and the dim 0 rows show the reductions down
contiguous columns. Every pair of results is checked to agree
within assert_close's float32 tolerance (indices exactly).

bench_reduce (C, no Python) times the same ctorch calls on their own."""
import ctypes
import os
import subprocess
import sys

import torch

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = os.environ.get("CTORCH_BUILD", os.path.join(ROOT, "build"))
REPS = int(os.environ.get("BENCH_REPS", "9"))

lib = ctypes.CDLL(os.path.join(BUILD, "libctorch.so"))
P = ctypes.c_void_p


from bench_common import paired  # noqa: E402  (the paired protocol: the same library, loaded once)
from ct_structs import Complex, RandomOpts, ReduceOpts, Scalar, ScalarValue, Shape, VarOpts  # noqa: F401


FLOAT32, INT64 = 9, 6
for name, res, args in [("ct_tensor_from_data", P, [P, ctypes.c_int, Shape, P]), ("ct_release", None, [P]),
                        ("ct_set_num_threads", None, [ctypes.c_int]), ("ct_numel", ctypes.c_int64, [P]),
                        ("ct_dtype_of", ctypes.c_int, [P]),
                        ("ct_copy_to_buffer", ctypes.c_int, [P, P, ctypes.c_int, ctypes.c_size_t]),
                        ("ct_max", P, [P])] + \
                       [(f, P, [P, P]) for f in ("ct_sum", "ct_mean", "ct_argmax", "ct_logsumexp", "ct_var", "ct_amax")]:
    f = getattr(lib, name)
    f.restype, f.argtypes = res, args


def shape(dims):
    arr = (ctypes.c_int64 * max(1, len(dims)))(*dims)
    s = Shape(arr, len(dims))
    s._keep = arr
    return s


def to_ct(t):
    t = t.contiguous()
    return lib.ct_tensor_from_data(t.data_ptr(), FLOAT32, shape(list(t.shape)), None)


def to_torch(p, like):
    """ctorch result p as a torch tensor shaped like torch's result `like` (contiguous copy)."""
    out = torch.empty(like.shape, dtype=like.dtype)
    n = out.numel() * out.element_size()
    if lib.ct_copy_to_buffer(p, out.data_ptr(), INT64 if like.dtype == torch.int64 else FLOAT32, n) != 0:
        raise RuntimeError("ct_copy_to_buffer failed")
    return out


def triad(threads):
    out = subprocess.run([os.path.join(BUILD, "bench", "bench_stream"), str(threads)], capture_output=True, text=True)
    return float(out.stdout.split()[1])


def agree(ct_call, torch_call):
    p = ct_call()
    if not p:
        return False
    want = torch_call()
    got = to_torch(p, want)
    lib.ct_release(p)
    if want.dtype == torch.int64:
        return torch.equal(got, want)
    return torch.allclose(got, want, rtol=1.3e-6, atol=1e-5, equal_nan=True)


N = 16 << 20
KEEP = []


def cases():
    """(label, target ratio, bytes read or 0, ctorch call, torch call)"""
    torch.manual_seed(0)
    x, m, s = torch.randn(N), torch.randn(4096, 4096), torch.randn(N // 16)
    cx, cm, cs = to_ct(x), to_ct(m), to_ct(s)
    KEEP.extend([cx, cm, cs])

    def red(fname, ct_x, dims, opts_type=ReduceOpts):
        o = opts_type()
        o.dims = shape(dims)
        KEEP.append(o)
        f = getattr(lib, fname)
        return lambda: f(ct_x, ctypes.byref(o))

    return [
        ("sum 16M", 1.0, 4 * N, red("ct_sum", cx, []), lambda: x.sum()),
        ("mean 16M", 1.0, 4 * N, red("ct_mean", cx, []), lambda: x.mean()),
        ("sum 4096x4096 dim 0", 1.3, 4 * N, red("ct_sum", cm, [0]), lambda: m.sum(0)),
        ("sum 4096x4096 dim 1", 1.0, 4 * N, red("ct_sum", cm, [1]), lambda: m.sum(1)),
        ("max 16M", 1.3, 4 * N, lambda: lib.ct_max(cx), lambda: x.max()),
        # no target: the max kernels where memory bandwidth does not cap both (4 MiB stays in L3)
        ("max 1M (in cache)", None, 4 * N // 16, lambda: lib.ct_max(cs), lambda: s.max()),
        ("argmax 16M", 4.0, 0, red("ct_argmax", cx, []), lambda: x.argmax()),
        ("argmax 4096x4096 dim 1", 3.0, 0, red("ct_argmax", cm, [1]), lambda: m.argmax(1)),
        ("var 16M", 3.0, 0, red("ct_var", cx, [], VarOpts), lambda: x.var()),
        ("var 4096x4096 dim 1", 5.0, 0, red("ct_var", cm, [1], VarOpts), lambda: m.var(1)),
        ("logsumexp 4096x4096 dim 1", 1.5, 0, red("ct_logsumexp", cm, [1]), lambda: torch.logsumexp(m, 1)),
        # no target: the vertical (down the columns) forms of the last rows
        ("amax 4096x4096 dim 0", None, 4 * N, red("ct_amax", cm, [0]), lambda: m.amax(0)),
        ("logsumexp 4096x4096 dim 0", None, 4 * N, red("ct_logsumexp", cm, [0]), lambda: torch.logsumexp(m, 0)),
    ]


def main():
    print("reductions (float32): ratio = torch time / ctorch time (median of paired rounds); > 1 means ctorch is faster")
    all_cases = cases()
    for threads in (1, 2):
        lib.ct_set_num_threads(threads)
        torch.set_num_threads(threads)
        bw = triad(threads)
        print(f"-- {threads} thread(s); machine triad bandwidth {bw:.1f} GB/s")
        for label, target, nbytes, ct_call, torch_call in all_cases:
            r, tc, tt = paired(lambda ct_call=ct_call: lib.ct_release(ct_call()), torch_call, REPS)
            ok = "" if agree(ct_call, torch_call) else "  RESULTS DIFFER"
            gbs = f"  {nbytes / tc / 1e9:5.1f} GB/s read ({100 * nbytes / tc / 1e9 / bw:3.0f}% of triad)" if nbytes else ""
            if target is None:
                flag, want, gbs = "   ", "(no target)", f"  {nbytes / tc / 1e9:5.1f} GB/s read, torch {nbytes / tt / 1e9:5.1f}"
            else:
                flag, want = "ok " if r >= target else "LOW", f"(target >= {target}x)"
            print(f"  {flag} {label:27s} {r:5.2f}x  ctorch {tc * 1e3:7.2f} ms  torch {tt * 1e3:7.2f} ms "
                  f"{want}{gbs}{ok}")
    lib.ct_set_num_threads(0)
    for p in KEEP:
        if isinstance(p, int):
            lib.ct_release(p)


if __name__ == "__main__":
    sys.exit(main())
