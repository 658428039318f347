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

from bench_common import BUILD, P, Shape, Tensors, declare, lib, paired, released, run, same_bits, shape, to_ct

declare([("ct_cat", P, [Tensors, ctypes.c_int64]), ("ct_cat_out", ctypes.c_int, [P, Tensors, ctypes.c_int64]),
         ("ct_flip", P, [P, Shape]), ("ct_roll", P, [P, Shape, P]), ("ct_repeat", P, [P, Shape]),
         ("ct_tril", P, [P, ctypes.c_int64]), ("ct_tril_out", ctypes.c_int, [P, P, ctypes.c_int64])])


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
    out.append(("cat 8 x 2M f32, new result", None, moved, released(lambda: lib.ct_cat(lst, 0)),
                lambda: torch.cat(xs, 0), None))
    m = torch.randn(4096, 4096)
    cm = to_ct(m)
    mb = 2 * 4 * 4096 * 4096
    out.append(("flip 4096x4096 dims (0,)", None, mb, released(lambda: lib.ct_flip(cm, shape(0))),
                lambda: torch.flip(m, (0,)), None))
    out.append(("flip 4096x4096 dims (1,)", None, mb, released(lambda: lib.ct_flip(cm, shape(1))),
                lambda: torch.flip(m, (1,)), None))
    out.append(("roll 4096x4096 shift 7 (flat)", None, mb, released(lambda: lib.ct_roll(cm, shape(7), None)),
                lambda: torch.roll(m, 7), None))
    out.append(("repeat 4096x4096 (2, 1)", None, 3 * mb // 2, released(lambda: lib.ct_repeat(cm, shape(2, 1))),
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


def line(case, threads):
    label, target, nbytes, ct_call, torch_call, check = case
    bw = BANDWIDTH.get(threads)
    r, tc, tt = paired(ct_call, torch_call)
    same = "" if check is None else ("  bit-identical" if check() else "  RESULTS DIFFER")
    gbs = nbytes / tc / 1e9
    share = f" = {100 * gbs / bw:3.0f}% of bandwidth" if bw else ""
    goal = f"(target >= {target}x, >= 80% of bandwidth)" if target else ""
    flag = "   " if not target else ("ok " if r >= target and (not bw or gbs >= 0.8 * bw) else "LOW")
    return (f"  {flag} {label:30s} {r:5.2f}x  ctorch {tc * 1e3:7.2f} ms ({gbs:5.1f} GB/s{share})  "
            f"torch {tt * 1e3:7.2f} ms {goal}{same}")


BANDWIDTH = {}


def header(threads):
    BANDWIDTH[threads] = bw = stream_gbs(threads)
    return f"; memory bandwidth (bench_stream triad): {'%.1f GB/s' % bw if bw else 'not measured (build bench_stream)'}"


def main():
    run("join", cases(), line=line, header=header)


if __name__ == "__main__":
    sys.exit(main())
