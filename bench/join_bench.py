#!/usr/bin/env python3
"""Joining and reordering: ctorch (through ctypes) and torch timed alternately in one process on the same
inputs, at 1 and 2 threads. For each case REPS rounds each time one ctorch call and one torch call (after
a warm-up); the median of the per-round ratios torch/ctorch is printed (> 1: ctorch faster).

The targets (issue 16): cat of 8 float32 tensors of 2M elements >= 1.0x torch and >= 80% of the machine's
memory bandwidth (bench_stream's triad, run here when it is built: cat moves 2 x 64 MiB, read and written).
Also flip, roll, repeat and tril of a 4096 x 4096 float32 matrix. Every pair is checked to be
bit-identical."""
import ctypes
import os
import subprocess
import sys

import torch

from scan_bench import paired, same_bits  # the paired timing and the bit check, shared

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = os.environ.get("CTORCH_BUILD", os.path.join(ROOT, "build"))

lib = ctypes.CDLL(os.path.join(BUILD, "libctorch.so"))
P = ctypes.c_void_p


class Shape(ctypes.Structure):
    _fields_ = [("data", ctypes.POINTER(ctypes.c_int64)), ("ndim", ctypes.c_int64)]


class Tensors(ctypes.Structure):
    _fields_ = [("data", ctypes.POINTER(P)), ("n", ctypes.c_int64)]


DT = {torch.float32: 9}
for name, res, args in [("ct_tensor_from_data", P, [P, ctypes.c_int, Shape, P]), ("ct_release", None, [P]),
                        ("ct_set_num_threads", None, [ctypes.c_int]), ("ct_cat", P, [Tensors, ctypes.c_int64]),
                        ("ct_cat_out", ctypes.c_int, [P, Tensors, ctypes.c_int64]), ("ct_flip", P, [P, Shape]),
                        ("ct_roll", P, [P, Shape, P]), ("ct_repeat", P, [P, Shape]),
                        ("ct_tril", P, [P, ctypes.c_int64]), ("ct_tril_out", ctypes.c_int, [P, P, ctypes.c_int64]),
                        ("ct_data_ptr", P, [P]), ("ct_numel", ctypes.c_int64, [P])]:
    f = getattr(lib, name)
    f.restype, f.argtypes = res, args


def shape(*dims):
    return Shape((ctypes.c_int64 * max(len(dims), 1))(*dims), len(dims))


def to_ct(t):
    t = t.contiguous()
    return lib.ct_tensor_from_data(t.data_ptr(), DT[t.dtype], shape(*t.shape), None)


def fresh(ct_fn):
    """A call that makes a new result and releases it."""
    return lambda: lib.ct_release(ct_fn())


def cases():
    """(label, target, bytes moved or None, ctorch call, torch call, check)."""
    torch.manual_seed(0)
    out = []
    xs = [torch.randn(2 << 20) for _ in range(8)]
    cxs = [to_ct(x) for x in xs]
    arr = (P * 8)(*cxs)
    lst = Tensors(arr, 8)
    to, co = torch.empty(16 << 20), to_ct(torch.empty(16 << 20))
    moved = 2 * 4 * (16 << 20)
    out.append(("cat 8 x 2M f32, out=", 1.0, moved, lambda: lib.ct_cat_out(co, lst, 0),
                lambda: torch.cat(xs, 0, out=to), lambda: same_bits(co, to)))
    out.append(("cat 8 x 2M f32, new result", None, moved, fresh(lambda: lib.ct_cat(lst, 0)),
                lambda: torch.cat(xs, 0), None))
    m = torch.randn(4096, 4096)
    cm = to_ct(m)
    mb = 2 * 4 * 4096 * 4096
    out.append(("flip 4096x4096 dims (0,)", None, mb, fresh(lambda: lib.ct_flip(cm, shape(0))),
                lambda: torch.flip(m, (0,)), None))
    out.append(("flip 4096x4096 dims (1,)", None, mb, fresh(lambda: lib.ct_flip(cm, shape(1))),
                lambda: torch.flip(m, (1,)), None))
    out.append(("roll 4096x4096 shift 7 (flat)", None, mb, fresh(lambda: lib.ct_roll(cm, shape(7), None)),
                lambda: torch.roll(m, 7), None))
    out.append(("repeat 4096x4096 (2, 1)", None, 3 * mb // 2, fresh(lambda: lib.ct_repeat(cm, shape(2, 1))),
                lambda: m.repeat(2, 1), None))
    tt, ct = torch.empty(4096, 4096), to_ct(torch.empty(4096, 4096))
    out.append(("tril 4096x4096, out=", None, mb, lambda: lib.ct_tril_out(ct, cm, 0),
                lambda: torch.tril(m, 0, out=tt), lambda: same_bits(ct, tt)))
    return out


def stream_gbs(threads):
    exe = os.path.join(BUILD, "bench", "bench_stream")
    if not os.path.exists(exe):
        return None
    r = subprocess.run([exe, str(threads)], capture_output=True, text=True)
    try:
        return float(r.stdout.split()[1])
    except (IndexError, ValueError):
        return None


def main():
    print("join: ratio = torch time / ctorch time (median of paired rounds); > 1 means ctorch is faster")
    all_cases = cases()
    for threads in (1, 2):
        lib.ct_set_num_threads(threads)
        torch.set_num_threads(threads)
        bw = stream_gbs(threads)
        print(f"-- {threads} thread(s); memory bandwidth (bench_stream triad): "
              f"{'%.1f GB/s' % bw if bw else 'not measured (build bench_stream)'}")
        for label, target, nbytes, ct_call, torch_call, check in all_cases:
            r, tc, tt = paired(ct_call, torch_call)
            same = "" if check is None else ("  bit-identical" if check() else "  RESULTS DIFFER")
            gbs = nbytes / tc / 1e9
            share = f" = {100 * gbs / bw:3.0f}% of bandwidth" if bw else ""
            goal = f"(target >= {target}x, >= 80% of bandwidth)" if target else ""
            flag = "   " if not target else ("ok " if r >= target and (not bw or gbs >= 0.8 * bw) else "LOW")
            print(f"  {flag} {label:30s} {r:5.2f}x  ctorch {tc * 1e3:7.2f} ms ({gbs:5.1f} GB/s{share})  "
                  f"torch {tt * 1e3:7.2f} ms {goal}{same}")
    lib.ct_set_num_threads(0)


if __name__ == "__main__":
    sys.exit(main())
